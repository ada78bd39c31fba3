"""A configuration's curve: operating points along its mix, cached by total rate (`Loads`),
the curve's loads from light load to saturation with the planned one among them, and each
point as the prediction reports it (at or past the maximum: saturated).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np

from diskmodel.configuration import Configuration
from diskmodel.model import results
from diskmodel.model.operating import OperatingPoint, Solver
from diskmodel.prediction import CurvePoint
from diskmodel.units import MS


class Loads:
    """Open operating points of one configuration along its mix, cached by total rate."""

    def __init__(self, solver: Solver, unit: np.ndarray) -> None:
        self.solver = solver
        self.unit = unit
        self._points: dict[float, OperatingPoint] = {}

    def remember(self, total_iops: float, point: OperatingPoint) -> None:
        self._points[float(f"{total_iops:.12g}")] = point

    def solve(self, totals: Sequence[float]) -> list[tuple[float, OperatingPoint]]:
        """Operating points at several total rates, solved together where they share a
        placement."""
        missing = [x for x in totals if float(f"{x:.12g}") not in self._points]
        if missing:
            points = self.solver.open_points(self.unit[:, None] * np.asarray(missing)[None, :])
            for x, point in zip(missing, points, strict=True):
                self.remember(x, point)
        return [(x, self._points[float(f"{x:.12g}")]) for x in totals]

    def solve_in_order(self, totals: Sequence[float]) -> Iterator[tuple[float, OperatingPoint]]:
        """`solve` one ascending rate at a time (`Solver.open_points_in_order`): the same
        points, none placed past the one the caller stops at."""
        missing = [x for x in totals if float(f"{x:.12g}") not in self._points]
        fresh = zip(
            missing,
            self.solver.open_points_in_order(self.unit[:, None] * np.asarray(missing)[None, :]),
            strict=True,
        )
        pending = {float(f"{x:.12g}") for x in missing}
        for x in totals:
            key = float(f"{x:.12g}")
            if key in pending:
                pending.discard(key)
                self.remember(*next(fresh))
            yield x, self._points[key]

    def at(self, total_iops: float) -> OperatingPoint:
        key = float(f"{total_iops:.12g}")
        found = self._points.get(key)
        if found is None:
            found = self.solver.open_point(self.unit * total_iops)
            self._points[key] = found
        return found


def curve_loads(config: Configuration, maximum: float, planned: float | None) -> list[float]:
    """The curve's total rates: the workloads' `iops_range` when every one gives it, else
    light load to saturation; the planned rate always among them."""
    n = config.curve_points
    ranges = [w.iops_range for w in config.workloads]
    if ranges and all(r is not None for r in ranges):
        lo = sum(r[0] for r in ranges if r is not None)
        hi = sum(r[1] for r in ranges if r is not None)
        loads = list(np.linspace(lo, hi, n))
    elif np.isfinite(maximum) and maximum > 0:
        loads = list(maximum * np.arange(1, n + 1) / n)
    else:
        loads = list(np.arange(1, n + 1, dtype=np.float64))
    if planned is not None and planned > 0:
        # The planned load is a point of the curve (one that falls on it to rounding is it).
        loads = [x for x in loads if not math.isclose(x, planned, rel_tol=1e-9)] + [planned]
    return sorted(float(x) for x in loads)


AT_MAXIMUM = 1e-9
"""A load within this (relative) of the maximum, or above it, is at saturation."""


def at_or_past(x: float, maximum: float) -> bool:
    """Whether the total rate `x` is at or past the configuration's `maximum`: the curve's
    last point is the maximum itself, where a placement made for that load may leave its
    bottleneck at a utilisation of 0.9999999999999998 or 0.99999 (`Solver.saturation` finds
    the maximum to `SATURATION_TOL` where placement follows the load); the documented
    contract is that such a point is saturated, with no response time."""
    return bool(np.isfinite(maximum)) and x >= maximum * (1 - AT_MAXIMUM)


def curve_point(x: float, point: OperatingPoint, maximum: float, neck: str) -> CurvePoint:
    busiest = point.busiest
    r = point.response_s
    if at_or_past(x, maximum) and not point.saturated:
        # At the maximum: saturated by definition, its bottleneck at 100%.
        return CurvePoint(x, None, True, neck, 1.0, results.tier_points(point))
    return CurvePoint(
        iops=x,
        response_time_ms=r / MS if np.isfinite(r) and not point.saturated else None,
        saturated=point.saturated,
        busiest=point.network.stations[busiest].name,
        busiest_utilization=float(min(point.utilization[busiest], 1.0)),
        tiers=results.tier_points(point),
    )
