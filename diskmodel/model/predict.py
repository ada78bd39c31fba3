"""A `Prediction` for one configuration (curve, max IOPS and bottleneck, results at the
planned load) and `predict` for a whole scenario."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.components import raid
from diskmodel.model.closed import solve_closed
from diskmodel.model.network import KINDS, SystemModel, build_system, is_closed
from diskmodel.model.open import class_times, curve_rates, solve_open, station_waits
from diskmodel.model.tiers import max_load_scale
from diskmodel.prediction import (
    ClosedSystemResult,
    ComponentResult,
    CurvePoint,
    IoTypeResult,
    Prediction,
    RankLoad,
    ScenarioPrediction,
    TierLoad,
    WorkloadResult,
)
from diskmodel.scenario import Scenario, Workload

FloatArray = NDArray[np.float64]

MS = 1e-3


def _ms(seconds: float) -> float | None:
    return float(seconds) / MS if np.isfinite(seconds) else None


@dataclass(frozen=True)
class _OperatingPoint:
    """Where the configuration runs: per-station utilisation and wait [K] (seconds), per
    workload rates, and the flags; from the open network or the closed solution."""

    planned_iops: float
    rates: FloatArray  # per workload, I/O per second
    utilization: FloatArray
    wait_s: FloatArray  # 0 where the station is saturated (see station_saturated)
    station_saturated: NDArray[np.bool_]
    saturated: bool
    nvs_full: bool
    closed: ClosedSystemResult | None
    notes: tuple[str, ...]


def _open_point(model: SystemModel, destage_limited: bool) -> _OperatingPoint:
    """The open network at the workloads' planned rates."""
    planned = float(model.planned_iops or 0.0)
    util_m, wait_m = station_waits(model, np.array([planned]))
    util, wait = util_m[:, 0], wait_m[:, 0]
    station_saturated = np.asarray(util >= 1.0, dtype=np.bool_)
    saturated = planned >= model.max_iops * (1 - 1e-12)
    rates = np.array([w.iops or 0.0 for w in model.workloads])
    nvs_full = saturated and destage_limited
    if not nvs_full:
        nvs_full = bool(_dirty_backlog_bytes(model, rates, wait) > model.nvs_bytes)
    return _OperatingPoint(
        planned,
        rates,
        util,
        np.where(station_saturated, 0.0, wait),
        station_saturated,
        saturated,
        nvs_full,
        None,
        (),
    )


def _closed_point(model: SystemModel) -> _OperatingPoint:
    """The closed solution at the closed workloads' total population (open ones as load)."""
    closed_ws = [w for w in model.workloads if is_closed(w)]
    population = sum(int(w.queue_depth or w.users or 0) for w in closed_ws)
    think_s = (
        sum((w.queue_depth or w.users or 0) * w.think_time_ms for w in closed_ws) / population * MS
    )
    closed, util, wait, planned = solve_closed(model, population, think_s)
    open_load = np.zeros(len(model.stations))
    for i, other in enumerate(model.workloads):
        if not is_closed(other) and other.iops is not None:
            open_load += other.iops * model.workload_utilization_per_iops[i]
    rates = np.array(
        [
            closed.iops * model.mix_weights[i] if is_closed(w) else (w.iops or 0.0)
            for i, w in enumerate(model.workloads)
        ]
    )
    # Only open workloads can push a station past saturation in a closed solution.
    station_saturated = np.asarray(open_load >= 1.0, dtype=np.bool_)
    notes: tuple[str, ...] = ()
    if len(closed_ws) > 1:
        notes = (
            "closed workloads solved as one class (mix weighted by population): "
            "their throughputs split by those weights",
        )
    return _OperatingPoint(
        planned,
        rates,
        np.where(station_saturated, 1.0, util),
        np.where(station_saturated, 0.0, wait),
        station_saturated,
        bool(station_saturated.any()),
        closed.destage_limited,
        closed,
        notes,
    )


def _workload_results(model: SystemModel, point: _OperatingPoint) -> list[WorkloadResult]:
    """Per workload and I/O class: response time and its breakdown by component kind."""
    times = class_times(model)
    per_class = times.visits @ point.wait_s + times.service_s
    blocked: NDArray[np.bool_] = np.asarray(
        (times.visits[:, point.station_saturated] > 0).any(axis=1), dtype=np.bool_
    )
    kind_wait = np.zeros((len(times.keys), len(KINDS)))
    for k in range(len(model.stations)):
        kind_wait[:, times.kind_of_station[k]] += times.visits[:, k] * point.wait_s[k]
    by_kind = kind_wait + times.service_by_kind
    results = []
    for w, workload in enumerate(model.workloads):
        mix = model.mixes[w]
        io_types = []
        for g, (gw, io_class) in enumerate(times.keys):
            if gw != w:
                continue
            # Writes wait for destages, not for cache, when NVS is full: time not known.
            unknown = bool(blocked[g]) or (point.nvs_full and io_class.endswith("write"))
            io_types.append(
                IoTypeResult(
                    io_type=io_class,
                    fraction=mix.fractions[io_class],
                    response_time_ms=None if unknown else float(per_class[g]) / MS,
                    breakdown_ms={
                        kind: None if unknown else float(by_kind[g, i]) / MS
                        for i, kind in enumerate(KINDS)
                    },
                )
            )
        reads = mix.fractions["read_hit"] + mix.fractions["read_miss"]
        hit_ratio = mix.fractions["read_hit"] / reads if reads > 0 else 0.0
        results.append(_workload_result(workload, point.rates[w], io_types, hit_ratio))
    return results


def _overall_ms(point: _OperatingPoint, workloads: list[WorkloadResult]) -> float | None:
    """Rate-weighted mean response time over all host I/O (None where not known)."""
    total_rate = float(point.rates.sum())
    if any(r.response_time_ms is None for r in workloads if r.iops > 0) or total_rate <= 0:
        return None
    return sum(r.iops * (r.response_time_ms or 0.0) for r in workloads) / total_rate


def _components(model: SystemModel, point: _OperatingPoint) -> tuple[ComponentResult, ...]:
    return tuple(
        ComponentResult(
            name=st.name,
            kind=st.kind,
            utilization=float(min(point.utilization[k], 1.0)),
            response_time_ms=None
            if point.station_saturated[k]
            else float(point.wait_s[k] + model.service_s[k]) / MS,
            service_time_ms=float(model.service_s[k]) / MS,
            wait_time_ms=None if point.station_saturated[k] else float(point.wait_s[k]) / MS,
            saturated=bool(point.station_saturated[k]),
        )
        for k, st in enumerate(model.stations)
    )


def _rank_loads(model: SystemModel, point: _OperatingPoint) -> tuple[RankLoad, ...]:
    arrivals = point.rates @ model.workload_arrival_per_iops  # per server / drive
    return tuple(
        RankLoad(
            name=model.stations[ri.station].name,
            pool=ri.placement.pool,
            tier=ri.tier,
            drive=ri.drive.name,
            raid=ri.raid.name,
            da_pair=ri.placement.da_pair,
            server=ri.placement.server,
            backend_iops=float(arrivals[ri.station] * raid.active_drives(ri.raid)),
            utilization=float(min(point.utilization[ri.station], 1.0)),
        )
        for ri in model.ranks
    )


def _tier_loads(model: SystemModel, ranks: tuple[RankLoad, ...]) -> tuple[TierLoad, ...]:
    return tuple(
        TierLoad(
            pool=t.pool,
            tier=t.tier,
            ranks=t.ranks,
            capacity_gb=t.capacity_gb,
            used_gb=t.used_gb,
            small_io_share=t.small_io_share,
            backend_iops=sum(
                r.backend_iops for r in ranks if r.pool == t.pool and r.tier == t.tier
            ),
            mb_share=t.mb_share,
            utilization=float(
                np.mean([r.utilization for r in ranks if r.pool == t.pool and r.tier == t.tier])
            ),
        )
        for t in model.tiers
    )


# Refinements of the load Easy Tier places for when a non-tier station (server, DA pair,
# port) limits the system below what the tiers could carry; the answer settles in one or two.
_MAX_LOAD_ROUNDS = 3


def _model_at_max(
    scenario: Scenario,
    catalog: Catalog | None,
    planned: SystemModel,
    read_hit_ratios: Sequence[float] | None,
    base_dir: Path | None,
) -> SystemModel:
    """The configuration as Easy Tier places it at the maximum load (docs/model.md §5).

    Placement at the planned load may put more hot data on a fast tier than it can carry at a
    higher load; Easy Tier, placing for the higher load, keeps every tier under its ceiling.
    Starting from the tiers' answer (`tiers.max_load_scale`), the placement is made for the
    load m x planned and the full model's max IOPS at that placement gives the next m. Of the
    placements tried (and the planned one), the one that carries the most load is returned;
    the planned model itself when no pool's placement depends on the load.
    """
    if not planned.planned_iops:
        return planned
    mixes = planned.mixes
    scale = max_load_scale(scenario, catalog or load_catalog(), mixes, base_dir)
    best = planned
    for _ in range(_MAX_LOAD_ROUNDS):
        if scale is None:
            break
        model = build_system(
            scenario, catalog, read_hit_ratios=read_hit_ratios, base_dir=base_dir, load_scale=scale
        )
        if model.max_iops > best.max_iops:
            best = model
        next_scale = model.max_iops / planned.planned_iops
        if abs(next_scale / scale - 1.0) < 1e-3:
            break
        scale = next_scale
    return best


def _curve(model: SystemModel) -> tuple[CurvePoint, ...]:
    rates = curve_rates(model)
    solution = solve_open(model, rates)
    return tuple(
        CurvePoint(float(i), _ms(float(r)), bool(sat))
        for i, r, sat in zip(rates, solution.response_s, solution.saturated, strict=True)
    )


def predict_configuration(
    scenario: Scenario,
    catalog: Catalog | None = None,
    *,
    name: str | None = None,
    read_hit_ratios: Sequence[float] | None = None,
    base_dir: Path | None = None,
) -> Prediction:
    """Solve one configuration: curve, max IOPS and bottleneck, results at the planned load.

    The planned load is the workloads' rates (open network) or, when a workload gives a
    queue depth or users, the closed solution (docs/model.md §3-4).
    """
    model = build_system(scenario, catalog, read_hit_ratios=read_hit_ratios, base_dir=base_dir)
    if any(is_closed(w) for w in model.workloads):
        point = _closed_point(model)
    else:
        point = _open_point(model, bool(model.destage_share(model.bottleneck) > 0))
    # Max IOPS, its bottleneck and the curve: with Easy Tier placing for the higher loads.
    top = _model_at_max(scenario, catalog, model, read_hit_ratios, base_dir)
    neck = top.bottleneck
    destage_limited = bool(top.destage_share(neck) > 0)
    workloads = _workload_results(model, point)
    if point.closed is not None and all(is_closed(w) for w in model.workloads):
        # All load is closed: Little's law gives the mean even when NVS is full and the split
        # of the extra wait between reads and writes is not known.
        overall: float | None = point.closed.response_time_ms
    else:
        overall = _overall_ms(point, workloads)
    ranks = _rank_loads(model, point)
    return Prediction(
        name=name or scenario.name,
        system=model.system,
        max_iops=float(top.max_iops),
        bottleneck=top.stations[neck].name,
        bottleneck_kind=top.stations[neck].kind,
        destage_limited=destage_limited,
        planned_iops=float(point.planned_iops),
        saturated=point.saturated,
        response_time_ms=overall,
        nvs_full=bool(point.nvs_full),
        components=_components(model, point),
        workloads=tuple(workloads),
        ranks=ranks,
        tiers=_tier_loads(model, ranks),
        curve=_curve(top),
        closed=point.closed,
        notes=point.notes,
    )


def _workload_result(
    workload: Workload, rate: float, io_types: list[IoTypeResult], read_hit_ratio: float
) -> WorkloadResult:
    def mean(types: list[IoTypeResult]) -> float | None:
        share = sum(t.fraction for t in types)
        if share <= 0:
            return None
        if any(t.response_time_ms is None for t in types):
            return None
        return sum(t.fraction * (t.response_time_ms or 0.0) for t in types) / share

    breakdown: dict[str, float | None] = {}
    share = sum(t.fraction for t in io_types)
    for kind in KINDS:
        parts = [t.breakdown_ms[kind] for t in io_types]
        if any(p is None for p in parts) or share <= 0:
            breakdown[kind] = None
        else:
            breakdown[kind] = (
                sum(t.fraction * (t.breakdown_ms[kind] or 0.0) for t in io_types) / share
            )
    return WorkloadResult(
        name=workload.name,
        pool=workload.pool,
        iops=float(rate),
        response_time_ms=mean(io_types),
        read_response_time_ms=mean([t for t in io_types if "read" in t.io_type]),
        write_response_time_ms=mean([t for t in io_types if t.io_type.endswith("write")]),
        breakdown_ms=breakdown,
        io_types=tuple(io_types),
        read_hit_ratio=float(read_hit_ratio),
    )


def _dirty_backlog_bytes(model: SystemModel, rates: FloatArray, wait: FloatArray) -> float:
    """Dirty data waiting for or in destage at the back end (Little's law per station)."""
    total = 0.0
    for f in model.flows:
        if f.destage and np.isfinite(wait[f.station]):
            st = model.stations[f.station]
            arrivals = rates[f.workload] * f.rate * st.drives
            total += arrivals * (wait[f.station] + f.moments.mean_s) * f.size_bytes
    return total


def predict(
    scenario: Scenario, catalog: Catalog | None = None, *, base_dir: Path | None = None
) -> ScenarioPrediction:
    """The scenario's baseline, its alternatives and growth (see `diskmodel.analyses`).

    base_dir: the scenario file's folder, where a skew `heatmap` path is relative to (the
    current directory when None).
    """
    from diskmodel.analyses import predict_scenario  # analyses builds on this module

    return predict_scenario(scenario, catalog, base_dir)
