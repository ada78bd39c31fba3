"""A configuration's whole Prediction, and a scenario's: loops over operating points.

For one configuration (`predict_configuration`): the planned point (the workloads' rates, or
the closed workloads' populations), the saturation rate with Easy Tier placing for each load
probed, the curve from light load to saturation with the planned load among its points, the
service level (each limit and the highest load meeting it), growth, and for a closed system a
sweep of populations. Every number comes from `Solver` operating points, so the same load gives
the same answer wherever it appears.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from diskmodel.analyses.application import application_result, closed_result
from diskmodel.analyses.curve_falls import falls
from diskmodel.analyses.limits import (
    Limit,
    binding_names,
    busiest_of_kind,
    highest_load_meeting,
    limits,
    service_level_result,
)
from diskmodel.analyses.logs import log_results
from diskmodel.catalog import Catalog, load_catalog
from diskmodel.configuration import COMPONENT_KINDS, Configuration, resolve, resolve_scenario
from diskmodel.model import results
from diskmodel.model.operating import FloatArray, OperatingPoint, Solver
from diskmodel.prediction import (
    ClosedPoint,
    ClosedSystemResult,
    CurvePoint,
    GrowthPoint,
    Prediction,
    ScenarioPrediction,
    SizingResult,
    SkewCurveResult,
)
from diskmodel.scenario import MAX_POPULATION, Scenario
from diskmodel.scenario.files import scenario_catalog
from diskmodel.units import MS

# Points of a closed system's population sweep (each solved on its own), at most.
_CLOSED_SWEEP_POINTS = 12
# How far past the given population the sweep goes: "what if the queue depth doubles" is
# read off the same report (issue 31), as an application's sweep reaches past its users.
CLOSED_REACH = 2
# Points sampled along a skew curve for the report.
_SKEW_POINTS = 41


class _Loads:
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


def _curve_loads(config: Configuration, maximum: float, planned: float | None) -> list[float]:
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


def _curve_point(x: float, point: OperatingPoint, maximum: float, neck: str) -> CurvePoint:
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


def _growth_point(
    factor: float,
    point: OperatingPoint,
    ordered: Sequence[Limit],
    label: str,
    bottleneck: str | None = None,
    maximum: float = math.inf,
    bottleneck_kind: str = "",
) -> GrowthPoint:
    """One growth step; at or past the `maximum` it is saturated (`at_or_past`)."""
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
            for kind in COMPONENT_KINDS
        },
    )


def _closed_sweep(solver: Solver, population: int) -> tuple[ClosedPoint, ...]:
    """Populations from 1 to `CLOSED_REACH` times the given one (at most `MAX_POPULATION`),
    the given one among them, each solved on its own."""
    top = max(population, min(CLOSED_REACH * population, MAX_POPULATION))
    count = min(top, _CLOSED_SWEEP_POINTS)
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


def _skew_curves(config: Configuration) -> tuple[SkewCurveResult, ...]:
    c = np.linspace(0.0, 1.0, _SKEW_POINTS)
    out = []
    for w in config.workloads:
        small = np.clip(w.skew.share(c), 0.0, 1.0)
        mb_curve = w.mb_skew
        if mb_curve is None:
            from diskmodel.tiering.skew import derived_mb_curve

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
    return tuple(out)


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
    loads = _Loads(begun.solver, begun.unit)
    open_planned = None if config.has_closed else begun.planned.total_iops
    if open_planned is not None:
        loads.remember(open_planned, begun.planned)
    waiting = list(limits(config.service_level))
    walked: list[tuple[float, OperatingPoint]] = []
    for x, point in loads.solve_in_order(_curve_loads(config, begun.maximum, open_planned)):
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


def predict_configuration(
    config: Configuration, growth: Sequence[float] = (), labels: Sequence[str] = ()
) -> Prediction:
    """Everything the reports show for one configuration (module docstring); `labels` name
    the growth factors (default: the factor)."""
    names = list(labels) or [f"\u00d7 {f:.3g}" for f in growth]
    begun = begin(config)
    solver, planned, unit, maximum, neck = (
        begun.solver,
        begun.planned,
        begun.unit,
        begun.maximum,
        begun.neck,
    )
    total = planned.total_iops
    at_max = solver.network(unit * maximum) if np.isfinite(maximum) else planned.network
    loads = _Loads(solver, unit)
    open_planned = None if config.has_closed else total
    if open_planned is not None:
        loads.remember(open_planned, planned)
    xs = _curve_loads(config, maximum, open_planned)
    curve_points = loads.solve(xs)
    level = limits(config.service_level)
    neck_name = at_max.stations[neck].name
    service, ordered = service_level_result(
        level, planned, curve_points, loads.at, maximum, None if config.has_closed else neck_name
    )
    if config.has_closed:
        population = solver.closed_population()
        grown = [
            _growth_point(
                f, solver.closed_point(max(1, round(population * f)), open_scale=f), ordered, name
            )
            for f, name in zip(growth, names, strict=True)
        ]
    else:
        grown = [
            _growth_point(f, p, ordered, name, neck_name, maximum, at_max.stations[neck].kind)
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
            curve=_closed_sweep(solver, state.population),
        )
    response = planned.response_s
    inputs = dataclasses.replace(config.inputs, assumptions=_assumptions(config))
    curve = tuple(
        _curve_point(x, p, maximum if open_planned is not None else math.inf, neck_name)
        for x, p in curve_points
    )
    return Prediction(
        name=config.name,
        system=config.hardware.system.name,
        inputs=inputs,
        max_iops=float(maximum),
        bottleneck=neck_name,
        bottleneck_kind=at_max.stations[neck].kind,
        destage_limited=bool(at_max.destage_share(neck, unit * maximum) > 0)
        if np.isfinite(maximum)
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


def predict_scenario(
    scenario: Scenario,
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    *,
    allow_outside_heatmaps: bool = False,
    sizing: SizingResult | None = None,
    catalog_bands: bool = True,
) -> ScenarioPrediction:
    """Everything `diskmodel run` reports for a scenario: the baseline and each alternative
    with its growth, the tier sweep and the baseline's band over the catalog's estimates
    (unless the scenario or `catalog_bands` turns it off); `sizing`: the sizing search of
    `analyses.size` already made (`diskmodel size`), which is then not made again."""
    from diskmodel.analyses.calibration import calibration_result
    from diskmodel.analyses.sweep import tier_sweep

    catalog = scenario_catalog(scenario.catalog, base_dir, catalog)
    configs = resolve_scenario(
        scenario, catalog, base_dir, allow_outside_heatmaps=allow_outside_heatmaps
    )
    growth = scenario.analyses.growth
    factors = growth.multipliers if growth else ()
    labels = growth.labels if growth else ()
    predictions = [predict_configuration(c, factors, labels) for c in configs]
    sweep = scenario.analyses.tier_sweep
    from diskmodel.analyses.band import band

    # Each configuration's band over the inputs given as ranges (an alternative inherits the
    # baseline's ranges unless it sets the input).
    settings = {alt.name: alt.set for alt in scenario.analyses.compare}
    banded = [
        dataclasses.replace(
            p,
            band=band(
                variant,
                p,
                catalog,
                base_dir,
                allow_outside_heatmaps=allow_outside_heatmaps,
                baseline=None if variant is scenario else scenario,
                settings=settings.get(name),
            ),
        )
        for (name, variant), p in zip(scenario.alternatives(catalog), predictions, strict=True)
    ]
    if scenario.analyses.catalog_band and catalog_bands:
        from diskmodel.analyses.catalog_band import catalog_band

        banded[0] = dataclasses.replace(
            banded[0],
            catalog_band=catalog_band(
                configs[0],
                catalog,
                lambda cat: resolve(
                    scenario,
                    cat,
                    base_dir,
                    name=configs[0].name,
                    allow_outside_heatmaps=allow_outside_heatmaps,
                ),
            ),
        )
    if sizing is None and scenario.analyses.size is not None:
        from diskmodel.analyses.size import size_scenario

        sizing = size_scenario(scenario, catalog, base_dir)
    return ScenarioPrediction(
        scenario=scenario.name,
        description=scenario.description.strip(),
        baseline=banded[0],
        alternatives=tuple(banded[1:]),
        tier_sweep=tuple(
            tier_sweep(
                scenario, sweep, catalog, base_dir, allow_outside_heatmaps=allow_outside_heatmaps
            )
        )
        if sweep
        else (),
        sizing=sizing,
        calibration=calibration_result(scenario, configs[0], catalog),
    )


def compare_scenarios(
    scenarios: Sequence[tuple[Scenario, Path | None]],
    catalog: Catalog | None = None,
    *,
    allow_outside_heatmaps: bool = False,
) -> ScenarioPrediction:
    """Several scenario files side by side: each baseline solved as one configuration.

    The first is the reference the others are compared with. Each keeps its own name; where
    two share a name, the later ones are numbered so the report can tell them apart.
    """
    catalog = catalog or load_catalog()
    names: list[str] = []
    predictions = []
    for scenario, base_dir in scenarios:
        name = scenario.name
        suffix = 2
        while name in names:
            name = f"{scenario.name} ({suffix})"
            suffix += 1
        names.append(name)
        config = resolve(
            scenario,
            scenario_catalog(scenario.catalog, base_dir, catalog),
            base_dir,
            name=name,
            allow_outside_heatmaps=allow_outside_heatmaps,
        )
        growth = scenario.analyses.growth
        predictions.append(
            predict_configuration(
                config, growth.multipliers if growth else (), growth.labels if growth else ()
            )
        )
    return ScenarioPrediction(
        scenario=" vs ".join(names),
        description=scenarios[0][0].description.strip() if scenarios else "",
        baseline=predictions[0],
        alternatives=tuple(predictions[1:]),
    )
