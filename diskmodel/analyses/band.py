"""Uncertainty: the answer over the inputs given as ranges (issue 13 item 3).

A scenario may give a workload's read hit ratio, destage ratio, read and write transfer sizes,
skew level (numbers or preset names) or pinned share of its I/O, or the system's front-end
latency, as a range [low, high]. The prediction is made at the central point (every range at
its middle); the band is the same configuration at the two corners that bound it for these
inputs, every range at once at its pessimistic end (hit ratio low, destage ratio high,
transfers long, skew low: more work per I/O at the ports, adapters and drives, less of it on
the fast tier) and at its optimistic end. Each of these inputs moves the work one way only
(monotone), so the corners bound every combination inside the ranges at a load where
placement does not change character; they are a bound on the planner's uncertainty, not a
confidence interval. The curve's band is at the central curve's loads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from diskmodel.analyses.predict import predict_configuration
from diskmodel.catalog import Catalog
from diskmodel.configuration import projected_hit_ratios, resolve
from diskmodel.model.operating import Solver
from diskmodel.prediction import BandPoint, BandResult, Prediction
from diskmodel.scenario import Scenario

MS = 1e-3
METHOD = (
    "corners: every range at once at its pessimistic end (read hit ratio low, destage ratio "
    "high, transfers long, skew low, front-end latency high) and at its optimistic end; the "
    "prediction is at the middle of every range"
)


def _ms(seconds: float, saturated: bool) -> float | None:
    return None if saturated or not np.isfinite(seconds) else float(seconds) / MS


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
    each corner's hit ratios from the baseline's corner, as the central prediction's are."""
    ranges = scenario.ranges
    if not ranges:
        return None
    loads = [p.iops for p in central.curve]
    at: list[Prediction] = []
    curves: list[Sequence[float | None]] = []
    for which in ("pessimistic", "optimistic"):
        corner = scenario.corner(which)
        hits = None
        if baseline is not None:
            hits = projected_hit_ratios(baseline.corner(which), corner, dict(settings or {}))
        config = resolve(
            corner,
            catalog,
            base_dir,
            name=central.name,
            hit_ratios=hits,
            allow_outside_heatmaps=allow_outside_heatmaps,
        )
        at.append(predict_configuration(config))
        solver = Solver(config)
        planned = solver.planned_rates()
        total = planned.sum()
        if central.closed is not None or total <= 0 or not loads:
            curves.append([None] * len(loads))
            continue
        unit = planned / total
        points = solver.open_points(unit[:, None] * np.asarray(loads)[None, :])
        curves.append([_ms(p.response_s, p.saturated) for p in points])
    pessimistic, optimistic = at

    def response(p: Prediction) -> float | None:
        return p.closed.response_time_ms if p.closed is not None else p.response_time_ms

    return BandResult(
        inputs=tuple(ranges),
        method=METHOD,
        response_time_ms=(response(pessimistic), response(optimistic)),
        max_iops=(pessimistic.max_iops, optimistic.max_iops),
        planning_max_iops=(
            pessimistic.service_level.max_iops,
            optimistic.service_level.max_iops,
        ),
        curve=tuple(
            BandPoint(x, lo, hi) for x, lo, hi in zip(loads, curves[0], curves[1], strict=True)
        ),
    )
