"""The answers of a sizing (`analyses.size`): the Pareto front of cost against the planned
load's response time, and the cheapest configuration that meets the service level.
"""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.prediction import SizingCandidate, no_more


def _cost_key(c: SizingCandidate) -> tuple[float, float]:
    return (c.price if c.price is not None else float(c.drives), c.power_w)


# Response times within this (relative) count as equal on the front: closer than that is below
# the model's own precision, and would put a dearer configuration on the front for a
# microsecond (a second DA pair where the DA pairs were never the bottleneck).
SAME_RESPONSE = 0.01


def pareto_front(candidates: Sequence[SizingCandidate]) -> tuple[int, ...]:
    """Indices of the candidates no other beats on cost and response time at the planned load
    (possible and not saturated ones only; responses within `SAME_RESPONSE` count as equal),
    cheapest first."""
    ok = [i for i, c in enumerate(candidates) if c.error is None and c.response_time_ms is not None]

    def beats(j: int, i: int) -> bool:
        cj, ci = _cost_key(candidates[j]), _cost_key(candidates[i])
        rj = candidates[j].response_time_ms or 0.0
        ri = candidates[i].response_time_ms or 0.0
        no_worse = cj <= ci and rj <= ri * (1 + SAME_RESPONSE)
        better = cj < ci or rj * (1 + SAME_RESPONSE) < ri
        # At the same cost and response, the configuration with no more of anything (a part
        # the prices do not count, such as a DA pair without a price) is the one to show.
        smaller = cj == ci and ri <= rj * (1 + SAME_RESPONSE) and _fewer(j, i)
        return no_worse and (better or smaller)

    def _fewer(j: int, i: int) -> bool:
        a, b = candidates[j].choice, candidates[i].choice
        return no_more(a, b) and a != b

    front = [i for i in ok if not any(beats(j, i) for j in ok if j != i)]
    return tuple(sorted(front, key=lambda i: (_cost_key(candidates[i]), i)))


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
