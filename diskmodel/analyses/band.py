"""Uncertainty: the answer over the inputs given as ranges (issue 13 item 3).

A scenario may give a workload's planned rate, read hit ratio, destage ratio, read and write
transfer sizes, skew level (numbers or preset names) or pinned share of its I/O, or the
system's front-end latency, as a range [low, high]. The prediction is made at the central
point (every range at its middle); the band is the same configuration at the two corners that
bound it for these inputs, every range at once at its pessimistic end (rate high, hit ratio
low, destage ratio high, transfers long, skew low: more work per I/O at the ports, adapters
and drives, less of it on the fast tier) and at its optimistic end. Each of these inputs moves
the work one way only (monotone), so the corners bound every combination inside the ranges at
a load where placement does not change character; they are a bound on the planner's
uncertainty, not a confidence interval. The curve's band is at the central curve's loads (a
range on the planned rate moves the planned point along the curve, and the curve itself only
through the workloads' mix).

A workload's read fraction and sequential fractions may be ranges too, but they move the work
either way (more reads are less work where writes cost more at the back end than read misses,
more where they cost less), so no corner bounds them: the band samples their box
(`sample_points`: its middle, its corners when there are at most `BOX_CORNERS_UP_TO` such
ranges, and a seeded Latin hypercube), each sample with the monotone ranges at their
pessimistic and at their optimistic end, and takes the envelope. Every sample is screened by
the cheap calls a whole prediction begins with (the planned point and the saturation search);
the curve and the planning maximum (the prediction continued only as far as that figure needs:
the curve up to the first limit that fails and that limit's search), only at the samples with
the extreme response time and maximum. A sample's envelope is an inner estimate of the true
range: it holds every point evaluated and may miss an extreme between them. On the cases
tests/analyses/test_band_sampled.py tries against a grid, the extremes lay on the box's corners,
which the sample holds.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from diskmodel.analyses.predict import Begun, begin, planned_ms, planning_max_iops, response_ms
from diskmodel.catalog import Catalog
from diskmodel.configuration import Configuration, projected_hit_ratios, resolve
from diskmodel.model.operating import Solver
from diskmodel.prediction import SAMPLED_METHOD, BandPoint, BandResult, Prediction
from diskmodel.scenario import Scenario
from diskmodel.scenario.schema import Corner

_PESSIMISTIC_ENDS = (
    "read hit ratio low, destage ratio high, transfers long, skew low, front-end latency high"
)
BOX_CORNERS_UP_TO = 3
"""The sampled ranges' box has its 2^d corners among the samples up to this many ranges (8
corners); beyond, only its middle and the Latin hypercube."""
HYPERCUBE_POINTS = 8
HYPERCUBE_SEED = 13
"""A Latin hypercube of this many points over the sampled ranges, from numpy's default
generator with this seed, so that a run is reproducible (not scipy.stats.qmc: importing it
takes about 1 s, more than a small scenario's whole run)."""


def sample_points(sampled: Sequence[tuple[str, float, float]]) -> list[dict[str, float]]:
    """The values of the sampled ranges (`Scenario.sampled_ranges`) at which the band is
    evaluated, by key: their middle first, then the corners of their box (when there are at
    most `BOX_CORNERS_UP_TO`), then a Latin hypercube of `HYPERCUBE_POINTS`. One empty sample
    when there are none (the two corners)."""
    if not sampled:
        return [{}]
    d = len(sampled)
    unit = [np.full(d, 0.5)]
    if d <= BOX_CORNERS_UP_TO:
        unit += [np.array(v) for v in itertools.product((0.0, 1.0), repeat=d)]
    rng = np.random.default_rng(HYPERCUBE_SEED)
    # One point in each of n equal strata of every range, the strata paired at random.
    strata = np.stack([rng.permutation(HYPERCUBE_POINTS) for _ in range(d)], axis=1)
    unit += list((strata + rng.random((HYPERCUBE_POINTS, d))) / HYPERCUBE_POINTS)
    low = np.array([lo for _, lo, _ in sampled])
    high = np.array([hi for _, _, hi in sampled])
    keys = [key for key, _, _ in sampled]
    return [dict(zip(keys, (low + u * (high - low)).tolist(), strict=True)) for u in unit]


def sample_count(scenario: Scenario) -> int:
    """How many samples the band of `scenario` evaluates at each end (1: the two corners)."""
    return len(sample_points(scenario.sampled_ranges))


def _method(scenario: Scenario) -> str:
    """How the band was found, as `BandResult.method` states it."""
    rate = any(key.endswith(".iops") for key, _, _ in scenario.ranges)
    ends = ("planned rate high, " if rate else "") + _PESSIMISTIC_ENDS
    sampled = scenario.sampled_ranges
    if not sampled:
        return (
            f"corners: every range at once at its pessimistic end ({ends}) and at its "
            "optimistic end; the prediction is at the middle of every range"
        )
    d = len(sampled)
    corners = f", the {2**d} corners of their box" if d <= BOX_CORNERS_UP_TO else ""
    return (
        f"{SAMPLED_METHOD}: the ranges that move the work one way at once at their "
        f"pessimistic end ({ends}) and at their optimistic end; the read and sequential "
        f"fractions, which move it either way, at {sample_count(scenario)} samples of their "
        f"ranges (the middle{corners} and a Latin hypercube of {HYPERCUBE_POINTS} points, "
        f"numpy seed {HYPERCUBE_SEED}), each with the others at either end. The band is the "
        "envelope over the samples of the response time at the planned load and of the "
        "maximum; the curve and the planning maximum are from the middle sample and the "
        "samples with the extreme response time and maximum. An inner estimate: the true "
        "range may reach past the samples. The prediction is at the middle of every range"
    )


@dataclass(frozen=True)
class _Screened:
    """One sample at one end, by the cheap calls a whole prediction begins with (kept, so
    that its planning maximum continues from them): the response time at the planned load
    (None where saturated) and the maximum."""

    config: Configuration
    begun: Begun
    response_ms: float | None
    max_iops: float

    @property
    def slowness(self) -> float:
        return float("inf") if self.response_ms is None else self.response_ms


def _screen(config: Configuration) -> _Screened:
    begun = begin(config)
    return _Screened(config, begun, planned_ms(begun.planned), begun.maximum)


def _curve(config: Configuration, loads: Sequence[float], closed: bool) -> list[float | None]:
    """The response at each of the central curve's loads with this configuration's planned
    mix (None where saturated; all None for a closed system, whose curve is a population
    sweep). A solver of its own, as the curve's band has always had: Easy Tier's placements
    near a ceiling are found to the search's tolerance, so a solver that has placed other
    loads first may answer differently in the tenth digit."""
    solver = Solver(config)
    rates = solver.planned_rates()
    if closed or rates.sum() <= 0 or not loads:
        return [None] * len(loads)
    mix = rates / rates.sum()
    points = solver.open_points(mix[:, None] * np.asarray(loads)[None, :])
    return [response_ms(p.response_s, p.saturated) for p in points]


def _slowest(values: Sequence[float | None]) -> float | None:
    """The pessimistic envelope of response times: None (saturated) if any is."""
    return None if any(v is None for v in values) else max(v for v in values if v is not None)


def _fastest(values: Sequence[float | None]) -> float | None:
    """The optimistic envelope: the lowest known, None only when every one saturates."""
    return min((v for v in values if v is not None), default=None)


@dataclass(frozen=True)
class _End:
    """The band's figures at one end (pessimistic or optimistic) over the samples."""

    response_ms: float | None
    max_iops: float
    planning_max_iops: float
    curve: list[float | None]


def _end(
    screened: Sequence[_Screened], loads: Sequence[float], closed: bool, pessimistic: bool
) -> _End:
    """The envelope of the samples at one end: the response time at the planned load and the
    maximum over every sample; the planning maximum (`planning_max_iops`: what a whole
    prediction would report, with none of the rest of it) and the curve over the middle
    sample (the first: so the band holds the prediction, which is at the middle of every
    range) and the samples with the extreme response time and the extreme maximum."""
    indices = range(len(screened))
    if pessimistic:
        chosen = {
            0,
            max(indices, key=lambda i: screened[i].slowness),
            min(indices, key=lambda i: screened[i].max_iops),
        }
    else:
        chosen = {
            0,
            min(indices, key=lambda i: screened[i].slowness),
            max(indices, key=lambda i: screened[i].max_iops),
        }
    planning = [planning_max_iops(screened[i].begun) for i in sorted(chosen)]
    curves = [_curve(screened[i].config, loads, closed) for i in sorted(chosen)]
    envelope = _slowest if pessimistic else _fastest
    extreme = min if pessimistic else max
    return _End(
        response_ms=envelope([s.response_ms for s in screened]),
        max_iops=extreme(s.max_iops for s in screened),
        planning_max_iops=extreme(planning),
        curve=[envelope(column) for column in zip(*curves, strict=True)],
    )


def band(
    scenario: Scenario,
    central: Prediction,
    catalog: Catalog,
    base_dir: Path | None = None,
    *,
    allow_outside_heatmaps: bool = False,
    baseline: Scenario | None = None,
    settings: Mapping[str, object] | None = None,
) -> BandResult | None:
    """A configuration's band over its scenario's ranges (None when it gives none). For an
    alternative, `baseline` and the alternative's `settings`: a cache size of its own projects
    each sample's hit ratios from the baseline's, as the central prediction's are."""
    ranges = scenario.ranges
    if not ranges:
        return None
    loads = [p.iops for p in central.curve]
    samples = sample_points(scenario.sampled_ranges)

    def at(which: Corner, sample: Mapping[str, float]) -> Configuration:
        corner = scenario.corner(which, sample)
        hits = None
        if baseline is not None:
            hits = projected_hit_ratios(
                baseline.corner(which, sample), corner, dict(settings or {})
            )
        return resolve(
            corner,
            catalog,
            base_dir,
            name=central.name,
            hit_ratios=hits,
            allow_outside_heatmaps=allow_outside_heatmaps,
            shown=False,  # solved, never reported
        )

    closed = central.closed is not None
    ends = [
        _end([_screen(at(which, s)) for s in samples], loads, closed, which == "pessimistic")
        for which in ("pessimistic", "optimistic")
    ]
    pessimistic, optimistic = ends
    return BandResult(
        inputs=tuple(ranges),
        method=_method(scenario),
        response_time_ms=(pessimistic.response_ms, optimistic.response_ms),
        max_iops=(pessimistic.max_iops, optimistic.max_iops),
        planning_max_iops=(pessimistic.planning_max_iops, optimistic.planning_max_iops),
        curve=tuple(
            BandPoint(x, lo, hi)
            for x, lo, hi in zip(loads, pessimistic.curve, optimistic.curve, strict=True)
        ),
    )
