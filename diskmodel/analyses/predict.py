"""A configuration's whole Prediction, and a scenario's: loops over operating points.

For one configuration (`predict_configuration`): the planned point (the workloads' rates, or
the closed workloads' populations), the saturation rate with Easy Tier placing for each load
probed, the curve from light load to saturation with the planned load among its points, the
service level (each limit and the highest load meeting it), growth, and for a closed system a
sweep of populations. Every number comes from `Solver` operating points, so the same load gives
the same answer wherever it appears. The curve's loads and points are `analyses.curve`'s,
growth and the closed sweep `analyses.growth`'s; here the whole, and how it begins (`begin`,
`planning_max_iops`, which the bands reuse).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from diskmodel.analyses.application import application_result, closed_result
from diskmodel.analyses.curve import Loads, curve_loads, curve_point
from diskmodel.analyses.curve_falls import falls
from diskmodel.analyses.growth import closed_sweep, growth_point
from diskmodel.analyses.limits import highest_load_meeting, limits, service_level_result
from diskmodel.analyses.logs import log_results
from diskmodel.configuration import Configuration
from diskmodel.model import copy_services, results
from diskmodel.model.device_limit import DEVICE_QUEUE, device_queue_name
from diskmodel.model.network import Network
from diskmodel.model.operating import FloatArray, OperatingPoint, Solver
from diskmodel.prediction import ClosedSystemResult, Prediction, SkewCurveResult
from diskmodel.units import MS

# Points sampled along a skew curve for the report.
_SKEW_POINTS = 41


def _skew_curves(config: Configuration) -> tuple[SkewCurveResult, ...]:
    c = np.linspace(0.0, 1.0, _SKEW_POINTS)
    out = []
    for w in config.workloads:
        small = np.clip(w.skew.share(c), 0.0, 1.0)
        mb_curve = w.mb_skew
        if mb_curve is None:
            from diskmodel.tiering.curves import derived_mb_curve

            mb_curve = derived_mb_curve(w.skew)
        mb = np.clip(mb_curve.share(c), 0.0, 1.0)
        out.append(
            SkewCurveResult(
                workload=w.name,
                pool=w.pool,
                description=w.skew_description,
                small_io_points=tuple((float(a), float(b)) for a, b in zip(c, small, strict=True)),
                mb_points=tuple((float(a), float(b)) for a, b in zip(c, mb, strict=True)),
            )
        )
    return tuple(out)


def _assumptions(config: Configuration) -> tuple[str, ...]:
    out = [
        "Every station sees Poisson arrivals; service times are taken as exponential (product "
        "form), so the open and the closed solution use the same stations.",
        "A drive serves faster as its queue grows (command queueing: its gain per drive type and "
        "data span); its utilisation is the probability that it is busy.",
        "Writes are acknowledged from cache and NVS; destages, prefetches and their RAID work "
        "load the DA pairs and drives asynchronously until NVS fills.",
    ]
    for pool in config.pools:
        if pool.host_tiering:
            out.append(
                f"Pool {pool.name}: the host places the data by its own read counts (cache hits "
                "included, destages not), hottest per GB on the fastest tier up to its capacity, "
                "with no regard to how busy the tier is; no auto-rebalance within a tier."
            )
        if pool.easy_tier and pool.easy_tier_generation == 1 and len(pool.tiers) > 1:
            out.append(
                f"Pool {pool.name}: Easy Tier's first generation places the hottest extents (by "
                "back-end I/O per GB) on the fastest tier up to its capacity, with no load "
                "limit and no auto-rebalance within a tier."
            )
        if pool.placement_follows_load:
            out.append(
                f"Pool {pool.name}: Easy Tier places the data for each load, keeping every tier "
                f"but the slowest at or below {pool.utilization_target:.0%} utilisation of its "
                "drives and DA pairs; cache hits never reach a tier."
            )
    if sum(1 for w in config.workloads if w.is_closed) > 1:
        out.append(
            "The closed workloads are solved as one class mixed by population; their "
            "throughputs split by those weights."
        )
    if config.copy_services is not None:
        out.extend(copy_services.assumptions(config.copy_services))
    return tuple(out)


def response_ms(seconds: float, saturated: bool) -> float | None:
    """A response time as a prediction reports it: milliseconds, None where saturated."""
    return None if saturated or not np.isfinite(seconds) else float(seconds) / MS


def planned_ms(point: OperatingPoint) -> float | None:
    """The response time a whole prediction reports at its planned point: the storage's for
    an application, the closed system's, or the open mean (None where saturated)."""
    if point.transactions is not None:
        return float(point.transactions.storage_response_s) / MS
    if point.closed is not None:
        return float(point.closed.response_s) / MS
    return response_ms(point.response_s, point.saturated)


@dataclass(frozen=True)
class Begun:
    """The calls a whole prediction of a configuration begins with, on a solver of its own:
    the planned point, the mix (the planned rates' shares, or the closed workloads' weights)
    and the total rate at which it saturates, with the station that saturates."""

    solver: Solver
    planned: OperatingPoint
    unit: FloatArray
    maximum: float
    neck: int


def begin(config: Configuration) -> Begun:
    """A whole prediction's first calls (`Begun`), which `planning_max_iops` continues."""
    solver = Solver(config)
    planned = solver.planned_point()
    total = planned.total_iops
    unit = planned.rates / total if total > 0 else solver.closed_weights()
    maximum, neck = solver.saturation(unit)
    return Begun(solver, planned, unit, float(maximum), neck)


def planning_max_iops(begun: Begun) -> float:
    """The planning maximum (`ServiceLevelResult.max_iops`) of the whole prediction `begun`
    begins, and nothing else of it: the curve's points from light load up to the first at
    which a limit fails, and only the limits failing there searched. A limit that first fails
    further out meets its target up to the point before that one, at or past where the
    earlier one failed, so it cannot be the lowest; a limit the search finds never binds
    (saturated first) is set aside and the walk goes on. The same points and the same
    searches as the whole prediction's, so the same figure."""
    config = begun.solver.config
    loads = Loads(begun.solver, begun.unit)
    open_planned = None if config.has_closed else begun.planned.total_iops
    if open_planned is not None:
        loads.remember(open_planned, begun.planned)
    waiting = list(limits(config.service_level))
    walked: list[tuple[float, OperatingPoint]] = []
    for x, point in loads.solve_in_order(curve_loads(config, begun.maximum, open_planned)):
        walked.append((x, point))
        failing = [limit for limit in waiting if not limit.met(point)]
        if not failing:
            continue
        found = [highest_load_meeting(limit, walked, loads.at) for limit in failing]
        binding = [highest for highest in found if highest is not None]
        if binding:
            return min(binding)
        waiting = [limit for limit in waiting if limit not in failing]
        if not waiting:
            break
    return begun.maximum


def bottleneck(at_max: Network, neck: int, rates: FloatArray) -> tuple[str, str]:
    """The name and kind of what saturates at the maximum (`Solver.saturation`'s `neck` on
    the network placed for the maximum's `rates`): a station, or a z/OS device queue, whose
    kind `device_queue` is no station's (it is above the storage, in z/OS)."""
    if neck == DEVICE_QUEUE:
        return device_queue_name(at_max, rates), "device_queue"
    station = at_max.stations[neck]
    return station.name, station.kind


def predict_configuration(
    config: Configuration,
    growth: Sequence[float] = (),
    labels: Sequence[str] = (),
    begun: Begun | None = None,
) -> Prediction:
    """Everything the reports show for one configuration (module docstring); `labels` name
    the growth factors (default: the factor); `begun`: its beginnings (`begin(config)`), made
    by the caller, which reads them too (the catalog band's central answer)."""
    names = list(labels) or [f"\u00d7 {f:.3g}" for f in growth]
    begun = begin(config) if begun is None else begun
    solver, planned, unit, maximum, neck = (
        begun.solver,
        begun.planned,
        begun.unit,
        begun.maximum,
        begun.neck,
    )
    total = planned.total_iops
    at_max = solver.network(unit * maximum) if np.isfinite(maximum) else planned.network
    loads = Loads(solver, unit)
    open_planned = None if config.has_closed else total
    if open_planned is not None:
        loads.remember(open_planned, planned)
    xs = curve_loads(config, maximum, open_planned)
    curve_points = loads.solve(xs)
    level = limits(config.service_level)
    neck_name, neck_kind = bottleneck(at_max, neck, unit * maximum)
    service, ordered = service_level_result(
        level, planned, curve_points, loads.at, maximum, None if config.has_closed else neck_name
    )
    if config.has_closed:
        population = solver.closed_population()
        grown = [
            growth_point(
                f, solver.closed_point(max(1, round(population * f)), open_scale=f), ordered, name
            )
            for f, name in zip(growth, names, strict=True)
        ]
    else:
        grown = [
            growth_point(f, p, ordered, name, neck_name, maximum, neck_kind)
            for f, name, (_, p) in zip(
                growth, names, loads.solve([total * f for f in growth]), strict=True
            )
        ]
    closed = None
    app = None
    if config.application is not None:
        app = application_result(config.application, solver, planned, maximum)
        closed = closed_result(config.application, app, planned)
    elif planned.closed is not None:
        state = planned.closed
        kinds = {w.population_kind for w in config.workloads if w.is_closed}
        closed = ClosedSystemResult(
            population=state.population,
            population_kind="users" if "users" in kinds else "queue_depth",
            think_time_ms=state.think_time_s / MS,
            iops=state.throughput,
            response_time_ms=state.response_s / MS,
            destage_limited=state.destage_limited,
            curve=closed_sweep(solver, state.population),
        )
    response = planned.response_s
    inputs = dataclasses.replace(config.inputs, assumptions=_assumptions(config))
    curve = tuple(
        curve_point(x, p, maximum if open_planned is not None else math.inf, neck_name)
        for x, p in curve_points
    )
    return Prediction(
        name=config.name,
        system=config.hardware.system.name,
        inputs=inputs,
        max_iops=float(maximum),
        bottleneck=neck_name,
        bottleneck_kind=neck_kind,
        destage_limited=bool(at_max.destage_share(neck, unit * maximum) > 0)
        if np.isfinite(maximum) and neck != DEVICE_QUEUE
        else False,
        planned_iops=total,
        saturated=planned.saturated,
        response_time_ms=response / MS if np.isfinite(response) and not planned.saturated else None,
        nvs_full=planned.nvs_full,
        components=results.components(planned),
        workloads=results.workloads(planned),
        ranks=results.ranks(planned),
        tiers=results.tiers(planned),
        skew_curves=_skew_curves(config),
        curve=curve,
        curve_falls=falls(curve),
        service_level=service,
        growth=tuple(grown),
        closed=closed,
        application=app,
        logs=log_results(config.logs, planned),
        notes=(),
    )
