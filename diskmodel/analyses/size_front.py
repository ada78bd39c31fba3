"""The answers of a sizing (`analyses.size`): the Pareto front of cost against the planned
load's response time, and the cheapest configuration that meets the service level.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from diskmodel.prediction import SizingCandidate


def _cost_key(c: SizingCandidate) -> tuple[float, float]:
    return (c.price if c.price is not None else float(c.drives), c.power_w)


# Response times within this (relative) count as equal on the front: closer than that is below
# the model's own precision, and would put a dearer configuration on the front for a
# microsecond (a second DA pair where the DA pairs were never the bottleneck).
SAME_RESPONSE = 0.01


def pareto_front(candidates: Sequence[SizingCandidate]) -> tuple[int, ...]:
    """Indices of the candidates no other beats on cost and response time at the planned load
    (possible and not saturated ones only; responses within `SAME_RESPONSE` count as equal),
    cheapest first. Those a strictly cheaper one beats outright are found at once
    (`_beaten_by_cheaper`); each of the rest is compared with every candidate, as arrays, a
    block at a time (the same float comparisons as one pair at a time:
    tests/analyses/test_sizing_batch.py)."""
    ok = [i for i, c in enumerate(candidates) if c.error is None and c.response_time_ms is not None]
    if not ok:
        return ()
    cost = np.array([_cost_key(candidates[i])[0] for i in ok])
    power = np.array([_cost_key(candidates[i])[1] for i in ok])
    r = np.array([candidates[i].response_time_ms or 0.0 for i in ok])
    more = _choices(candidates, ok)
    s = 1 + SAME_RESPONSE
    front: list[int] = []
    left = np.flatnonzero(~_beaten_by_cheaper(cost, r, s))
    for start in range(0, len(left), _BLOCK):
        # i: the block (rows), j: every candidate (columns); does j beat i?
        i = left[start : start + _BLOCK]
        ci, pi, ri = cost[i, None], power[i, None], r[i, None]
        no_dearer = (cost < ci) | ((cost == ci) & (power <= pi))
        dearer_not = (cost < ci) | ((cost == ci) & (power < pi))  # cj < ci as a pair
        same_cost = (cost == ci) & (power == pi)
        no_worse = no_dearer & (r <= ri * s)
        better = dearer_not | (r * s < ri)
        smaller = same_cost & (ri <= r * s) & _fewer(more, i)
        beats = no_worse & (better | smaller)
        beats[np.arange(len(i)), i] = False
        front += [ok[k] for k in i[~beats.any(axis=1)]]
    return tuple(sorted(front, key=lambda k: (_cost_key(candidates[k]), k)))


def _beaten_by_cheaper(cost: np.ndarray, r: np.ndarray, s: float) -> np.ndarray:
    """Per candidate: some strictly cheaper one is no slower beyond the margin (r_j <= r_i s),
    which beats it outright (no dearer, cheaper as a pair, no worse): found for all at once
    from the least response among the strictly cheaper, so that only the rest are compared
    with every other (of 26,002 solved on a 10^6 space, all but a few hundred; the same
    float comparison as the pair's)."""
    order = np.argsort(cost, kind="stable")
    least = np.minimum.accumulate(r[order])
    cheaper = np.searchsorted(cost[order], cost, side="left")  # how many cost strictly less
    least_cheaper = np.where(cheaper > 0, least[np.maximum(cheaper - 1, 0)], np.inf)
    return np.asarray(least_cheaper <= r * s)


_BLOCK = 512
"""Candidates compared against every other at once (a block of 512 x 10,000 is 5 MB)."""


def _choices(candidates: Sequence[SizingCandidate], ok: Sequence[int]) -> list[np.ndarray]:
    """Each choice's values over `ok`: numbers, or a model name's code (models compare only
    when equal)."""
    columns = list(zip(*(tuple(v for _, v in candidates[i].choice) for i in ok), strict=True))
    out = []
    for column in columns:
        if any(isinstance(v, str) for v in column):
            names = sorted(set(map(str, column)))
            out.append(np.array([-1 - names.index(str(v)) for v in column], dtype=np.float64))
        else:
            out.append(np.array(column, dtype=np.float64))
    return out


def _fewer(more: list[np.ndarray], rows: np.ndarray) -> np.ndarray:
    """[block, all]: candidate j has no more of any choice than i and is not the same
    (`prediction.no_more`, and a != b)."""
    n = len(more[0]) if more else 0
    size = len(rows)
    no_more = np.ones((size, n), dtype=bool)
    same = np.ones((size, n), dtype=bool)
    for values in more:
        vi = values[rows, None]
        if (values < 0).any():  # a model: only the same one compares
            no_more &= values == vi
        else:
            no_more &= values <= vi
        same &= values == vi
    return no_more & ~same


def cheapest(candidates: Sequence[SizingCandidate], among: Sequence[int]) -> int | None:
    """The cheapest that meets the service level; at the same cost, the one with the least of
    everything chosen (the current configuration before an upgrade that adds only unpriced
    parts), then the faster."""
    meeting = [i for i in among if candidates[i].meets]
    if not meeting:
        return None
    return min(
        meeting,
        key=lambda i: (
            _cost_key(candidates[i]),
            sum(count for _, count in candidates[i].choice if not isinstance(count, str)),
            candidates[i].response_time_ms,
        ),
    )
