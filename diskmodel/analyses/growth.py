"""The planned load scaled: each growth step with what binds there, and a closed system's
sweep of populations up to `CLOSED_REACH` times the given one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from diskmodel.analyses.curve import at_or_past
from diskmodel.analyses.limits import Limit, binding_names, busiest_of_kind, utilization_kinds
from diskmodel.model.operating import OperatingPoint, Solver
from diskmodel.prediction import ClosedPoint, GrowthPoint
from diskmodel.scenario import MAX_POPULATION
from diskmodel.units import MS

CLOSED_SWEEP = 12
"""Populations of a closed system's sweep (each solved on its own), at most, spaced
geometrically up to `CLOSED_REACH` x the planned one."""
CLOSED_REACH = 2
"""How far past the given population the sweep goes: "what if the queue depth doubles" is
read off the same report (issue 31), as an application's sweep reaches past its users."""


def growth_point(
    factor: float,
    point: OperatingPoint,
    ordered: Sequence[Limit],
    label: str,
    bottleneck: str | None = None,
    maximum: float = math.inf,
    bottleneck_kind: str = "",
) -> GrowthPoint:
    """One growth step; at or past the `maximum` it is saturated (`at_or_past`). Its
    utilisation is that of each kind `ordered` has a ceiling for (the channels too in a z/OS
    configuration)."""
    at_maximum = bottleneck is not None and at_or_past(point.total_iops, maximum)
    saturated = point.saturated or at_maximum
    broken = binding_names(point, ordered, bottleneck, saturated=saturated)
    r = point.response_s
    busiest = point.network.stations[point.busiest].name
    utilization = float(min(point.utilization[point.busiest], 1.0))
    if at_maximum and not point.saturated:
        busiest, utilization = bottleneck or busiest, 1.0
    return GrowthPoint(
        factor=float(factor),
        iops=point.total_iops,
        response_time_ms=r / MS if np.isfinite(r) and not saturated else None,
        saturated=saturated,
        busiest=busiest,
        busiest_utilization=utilization,
        meets_service_level=not broken,
        binding=broken[0] if broken else None,
        label=label,
        broken=broken,
        utilization={
            kind: 1.0
            if at_maximum and kind == bottleneck_kind
            else min(busiest_of_kind(point, kind)[1], 1.0)
            for kind in utilization_kinds(ordered)
        },
    )


def closed_sweep(solver: Solver, population: int) -> tuple[ClosedPoint, ...]:
    """Populations from 1 to `CLOSED_REACH` times the given one (at most `MAX_POPULATION`),
    the given one among them, each solved on its own."""
    top = max(population, min(CLOSED_REACH * population, MAX_POPULATION))
    count = min(top, CLOSED_SWEEP)
    sizes = sorted(
        {1, population, top, *np.unique(np.round(np.geomspace(1, top, count)).astype(int))}
    )
    out = []
    for n in sizes:
        point = solver.closed_point(int(n))
        assert point.closed is not None
        out.append(
            ClosedPoint(
                int(n),
                point.closed.throughput,
                point.closed.response_s / MS,
                point.closed.destage_limited,
            )
        )
    return tuple(out)
