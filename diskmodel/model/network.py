"""The storage system as stations and flows: `build_system(scenario, catalog)`.

Stations: every host port, the two servers, every DA pair, every rank (standing for one of its
drives). Flows: per workload and I/O class, the arrivals at a station per host I/O, the first
two moments of their service time, and whether the host waits for them (see the package
docstring for the physics and `diskmodel.components` for each part's service time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from diskmodel.catalog import (
    Catalog,
    Drive,
    HostAdapterType,
    RaidFormat,
    StorageSystem,
    load_catalog,
)
from diskmodel.components import cache, device_adapter, drive, host_adapter, processor, raid
from diskmodel.components.drive import ServiceMoments
from diskmodel.model.tiers import (
    EMPTY_FRACTION,
    PoolLayout,
    layout_pools,
    rank_capacity_gb,
)
from diskmodel.prediction import (
    TierLoad,
)
from diskmodel.scenario import Pool, RankPlacement, Scenario, Workload, expand_ranks
from diskmodel.workload import IO_CLASSES, IoClass, IoMix

FloatArray = NDArray[np.float64]

MS = 1e-3
"""Seconds per millisecond (a `Prediction` carries milliseconds)."""
KINDS = ("host_adapter", "processor", "device_adapter", "rank")
"""Component kinds, the breakdown of a response time."""
_PROCESSOR_WORK: dict[IoClass, processor.ProcessorWork] = {
    "read_hit": "read_hit",
    "read_miss": "read_miss",
    "sequential_read": "sequential_read",
    "random_write": "write",
    "sequential_write": "write",
}


@dataclass(frozen=True, slots=True)
class Station:
    """A queue: `servers` identical servers (cores); a rank stands for one of its `drives`."""

    name: str
    kind: str
    servers: int
    drives: int


@dataclass(frozen=True, slots=True)
class Flow:
    """Work of one workload's I/O class (or its asynchronous back-end work) at one station.

    rate: arrivals at one server of the station (a rank: one drive) per host I/O of the
    workload. visits: visits per host I/O *of the class* (host-visible flows only; a rank
    visit is to one of its drives). size_bytes: bytes moved per operation.
    """

    workload: int
    io_class: IoClass
    station: int
    rate: float
    visits: float
    moments: ServiceMoments
    visible: bool
    destage: bool
    size_bytes: float


@dataclass(frozen=True, slots=True)
class RankInfo:
    placement: RankPlacement
    drive: Drive
    raid: RaidFormat
    tier: str
    capacity_gb: float
    occupied_fraction: float
    station: int


@dataclass(frozen=True)
class ClassTimes:
    """Host-visible response per (workload, class) and per component kind, from station waits."""

    keys: tuple[tuple[int, IoClass], ...]
    visits: FloatArray  # [G, K]
    service_s: FloatArray  # [G] sum of visits x own service time
    service_by_kind: FloatArray  # [G, kinds]
    kind_of_station: NDArray[np.int64]  # [K]


def _class_times(stations: Sequence[Station], flows: Sequence[Flow]) -> ClassTimes:
    keys = sorted({(f.workload, f.io_class) for f in flows if f.visible})
    index = {k: i for i, k in enumerate(keys)}
    K = len(stations)
    visits = np.zeros((len(keys), K))
    service = np.zeros(len(keys))
    kind_idx = np.array([KINDS.index(s.kind) for s in stations])
    by_kind = np.zeros((len(keys), len(KINDS)))
    for f in flows:
        if not f.visible:
            continue
        g = index[(f.workload, f.io_class)]
        visits[g, f.station] += f.visits
        service[g] += f.visits * f.moments.mean_s
        by_kind[g, kind_idx[f.station]] += f.visits * f.moments.mean_s
    return ClassTimes(tuple(keys), visits, service, by_kind, kind_idx)


@dataclass(frozen=True)
class SystemModel:
    """Stations, flows and the context needed to report on them (plain data, arrays)."""

    name: str
    system: str
    stations: tuple[Station, ...]
    flows: tuple[Flow, ...]
    workloads: tuple[Workload, ...]
    mixes: tuple[IoMix, ...]
    mix_weights: FloatArray  # fraction of the total host rate per workload
    planned_iops: float | None  # sum of the open workloads' rates (None: all closed)
    ranks: tuple[RankInfo, ...]
    tiers: tuple[TierLoad, ...]
    nvs_bytes: float
    curve_points: int
    curve_range: tuple[float, float] | None
    # per workload [W, K]: utilisation of each station per I/O per second of that workload
    workload_utilization_per_iops: FloatArray
    # per workload [W, K]: arrivals at one server (drive) of each station per I/O of that workload
    workload_arrival_per_iops: FloatArray
    # per-station arrays for a total host rate of 1 I/O per second
    arrival_per_iops: FloatArray
    service_s: FloatArray
    service2_s2: FloatArray
    times: ClassTimes  # host-visible visits and service per (workload, class)

    @property
    def utilization_per_iops(self) -> FloatArray:
        servers = np.array([s.servers for s in self.stations], dtype=np.float64)
        return self.arrival_per_iops * self.service_s / servers

    @property
    def max_iops(self) -> float:
        """Total host rate at which the busiest station reaches utilisation 1."""
        peak = float(self.utilization_per_iops.max())
        return 1.0 / peak if peak > 0 else float("inf")

    @property
    def bottleneck(self) -> int:
        return int(np.argmax(self.utilization_per_iops))

    def destage_share(self, station: int) -> float:
        """Fraction of a station's busy time spent on destage work."""
        total = destage = 0.0
        for f in self.flows:
            if f.station == station:
                work = self.mix_weights[f.workload] * f.rate * f.moments.mean_s
                total += work
                destage += work if f.destage else 0.0
        return destage / total if total > 0 else 0.0


def _pool(scenario: Scenario, name: str) -> Pool:
    return next(p for p in scenario.pools if p.name == name)


@dataclass(frozen=True)
class _Layout:
    """The configured hardware and the station indices of its front end."""

    system: StorageSystem
    adapter: HostAdapterType
    ports: tuple[int, ...]
    servers: tuple[int, int]
    das: tuple[int, ...]


def _front_end_stations(scenario: Scenario, catalog: Catalog) -> tuple[list[Station], _Layout]:
    """Host ports, the two servers and the DA pairs, in that order."""
    cfg = scenario.system
    system = catalog.systems[cfg.model]
    option = system.processor_option(cfg.processor_ways)
    stations = [Station(f"host port {i}", "host_adapter", 1, 1) for i in range(cfg.host_ports)]
    ports = tuple(range(cfg.host_ports))
    servers = (len(stations), len(stations) + 1)
    stations += [
        Station(f"server {s} ({option.ways}-way)", "processor", option.ways, 1) for s in range(2)
    ]
    das = tuple(len(stations) + i for i in range(cfg.da_pairs))
    stations += [Station(f"DA pair {i}", "device_adapter", 1, 1) for i in range(cfg.da_pairs)]
    layout = _Layout(system, system.host_adapter(cfg.host_adapter), ports, servers, das)
    return stations, layout


def _rank_stations(
    ranks: list[RankPlacement],
    catalog: Catalog,
    placements: dict[str, PoolLayout],
    first_index: int,
) -> tuple[list[Station], list[RankInfo], dict[tuple[str, str], float], dict[tuple[str, str], int]]:
    """One station per rank (standing for one of its active drives), with the span its data
    occupy (short-stroking; `diskmodel.model.tiers`: the tier's occupied fraction, or each
    rank's own after auto-rebalance)."""
    tier_cap: dict[tuple[str, str], float] = {}
    tier_count: dict[tuple[str, str], int] = {}
    for r in ranks:
        key = (r.pool, catalog.drives[r.drive].tier)
        tier_cap[key] = tier_cap.get(key, 0.0) + rank_capacity_gb(r, catalog)
        tier_count[key] = tier_count.get(key, 0) + 1
    stations: list[Station] = []
    infos: list[RankInfo] = []
    for r in ranks:
        d = catalog.drives[r.drive]
        fmt = catalog.raid_formats[r.raid]
        layout = placements.get(r.pool)
        # A pool no workload uses holds no data: its ranks get no I/O.
        span = layout.ranks[r.index].span_fraction if layout is not None else EMPTY_FRACTION
        infos.append(
            RankInfo(
                r,
                d,
                fmt,
                d.tier,
                rank_capacity_gb(r, catalog),
                span,
                first_index + len(stations),
            )
        )
        stations.append(
            Station(
                f"rank {r.index} ({r.pool}, {r.drive} {r.raid}, DA {r.da_pair})",
                "rank",
                1,
                raid.active_drives(fmt),
            )
        )
    return stations, infos, tier_cap, tier_count


@dataclass(frozen=True)
class _Shares:
    """Where one workload's work goes: per rank station its share of the small random and of
    the sequential back-end work, and the share of its I/O each server handles."""

    small: dict[int, float]
    mb: dict[int, float]
    servers: tuple[float, float]


def _workload_shares(
    workload: Workload,
    layout: PoolLayout,
    pool_ranks: list[RankInfo],
) -> _Shares:
    """Tier shares from the placement, split within a tier by the pool layout's rank shares
    (capacity, or auto-rebalance: `diskmodel.model.tiers`); the servers by the data each
    owns (an I/O is handled by the server owning its rank)."""
    wp = layout.placement.workload(workload.name)
    tier_names = layout.tier_names
    small: dict[int, float] = {}
    mb: dict[int, float] = {}
    capacity: dict[int, float] = {}
    for t in tier_names:
        share = wp.on(t)
        for ri in pool_ranks:
            if ri.tier != t:
                continue
            part = layout.ranks[ri.placement.index]
            small[ri.station] = share.small_io_share * part.small_io_share
            # The MB come with the extents: they follow the data.
            mb[ri.station] = share.mb_share * part.data_share
            capacity[ri.station] = share.capacity_used_gb / workload.capacity_gb * part.data_share
    owned = [0.0, 0.0]
    for ri in pool_ranks:
        owned[ri.placement.server] += capacity[ri.station]
    norm = sum(owned)
    servers = (owned[0] / norm, owned[1] / norm) if norm > 0 else (0.5, 0.5)
    return _Shares(small, mb, servers)


def _front_end_flows(
    w: int, io_class: IoClass, mix: IoMix, shares: _Shares, layout: _Layout
) -> list[Flow]:
    """Host ports and servers: every host I/O; plus the servers' destage work for writes."""
    p = mix.fractions[io_class]
    size = mix.size_bytes(io_class)
    n_ports = len(layout.ports)
    port_time = host_adapter.port_service(layout.adapter, size)
    flows = [
        Flow(w, io_class, k, p / n_ports, 1 / n_ports, port_time, True, False, size)
        for k in layout.ports
    ]
    costs = layout.system.processor_costs
    core = processor.core_time(costs, _PROCESSOR_WORK[io_class])
    flows += [
        Flow(w, io_class, k, p * share, share, core, True, False, size)
        for share, k in zip(shares.servers, layout.servers, strict=True)
        if share > 0
    ]
    if io_class in ("random_write", "sequential_write"):
        # One destage per destaged write (random) or per destaged track (sequential).
        per_write = mix.destage_ratio * (
            1.0 if io_class == "random_write" else size / cache.TRACK_BYTES
        )
        destage_core = processor.core_time(costs, "destage")
        flows += [
            Flow(w, io_class, k, p * per_write * share, 0.0, destage_core, False, True, size)
            for share, k in zip(shares.servers, layout.servers, strict=True)
            if share > 0 and per_write > 0
        ]
    return flows


def _back_end_flows(
    w: int,
    io_class: IoClass,
    mix: IoMix,
    shares: _Shares,
    pool_ranks: list[RankInfo],
    layout: _Layout,
) -> list[Flow]:
    """DA pairs and drives: the class's drive operations on every rank holding its data.

    Only a random read miss is host-visible; destages and prefetches are asynchronous."""
    p = mix.fractions[io_class]
    size = mix.size_bytes(io_class)
    sequential = io_class in ("sequential_read", "sequential_write")
    visible = io_class == "read_miss"
    is_destage = io_class.endswith("write")
    flows = []
    for ri in pool_ranks:
        rank_share = (shares.mb if sequential else shares.small)[ri.station]
        if rank_share <= 0:
            continue
        n_drives = raid.active_drives(ri.raid)
        for op in _backend_ops(io_class, ri.raid, size, mix.destage_ratio):
            if op.count <= 0:
                continue
            if op.pattern == "random":
                moments = drive.random_op(ri.drive, op.size_bytes, ri.occupied_fraction, op.write)
            else:
                moments = drive.sequential_op(ri.drive, op.size_bytes, op.write)
            rank_ops = p * rank_share * op.count
            visits = rank_share * op.count if visible else 0.0
            da_time = device_adapter.da_op_service(layout.system.device_adapter, op.size_bytes)
            flows.append(
                Flow(
                    w,
                    io_class,
                    ri.station,
                    rank_ops / n_drives,
                    visits,
                    moments,
                    visible,
                    is_destage,
                    op.size_bytes,
                )
            )
            flows.append(
                Flow(
                    w,
                    io_class,
                    layout.das[ri.placement.da_pair],
                    rank_ops,
                    visits,
                    da_time,
                    visible,
                    is_destage,
                    op.size_bytes,
                )
            )
    return flows


def _mix_weights(workloads: Sequence[Workload]) -> tuple[FloatArray, float | None]:
    """Each workload's share of the total host rate along the curve, and the planned rate.

    By planned rate; with any closed workload, the closed class is the closed workloads
    weighted by their populations and the workloads with a rate are open background load
    (weight 0 here, see `diskmodel.model.closed`)."""
    if any(is_closed(w) for w in workloads):
        raw = np.array([float(w.queue_depth or w.users or 0) for w in workloads])
    else:
        raw = np.array([w.iops or 0.0 for w in workloads])
    open_rates = [w.iops for w in workloads if w.iops is not None and not is_closed(w)]
    return raw / raw.sum(), (float(sum(open_rates)) if open_rates else None)


def build_system(
    scenario: Scenario,
    catalog: Catalog | None = None,
    *,
    read_hit_ratios: Sequence[float] | None = None,
    base_dir: Path | None = None,
    load_scale: float = 1.0,
) -> SystemModel:
    """Stations and flows of one configuration (see the package docstring).

    read_hit_ratios: per workload, overriding the scenario's (a projected cache size).
    base_dir: where a skew heat map's relative path starts (the scenario file's folder).
    load_scale: Easy Tier pools are placed for this multiple of the planned rates, every tier
    under its load ceiling (`diskmodel.model.tiers`); 1 is the planned load.
    """
    catalog = catalog or load_catalog()
    ranks = expand_ranks(scenario)
    workloads = scenario.workloads
    mixes = tuple(
        IoMix.of(w, None if read_hit_ratios is None else read_hit_ratios[i])
        for i, w in enumerate(workloads)
    )
    weights, planned = _mix_weights(workloads)
    stations, layout = _front_end_stations(scenario, catalog)
    placements = layout_pools(scenario, catalog, mixes, base_dir, load_scale)
    rank_stations, rank_infos, tier_cap, tier_count = _rank_stations(
        ranks, catalog, placements, len(stations)
    )
    stations += rank_stations

    flows: list[Flow] = []
    for w, workload in enumerate(workloads):
        pool_ranks = [ri for ri in rank_infos if ri.placement.pool == workload.pool]
        shares = _workload_shares(workload, placements[workload.pool], pool_ranks)
        for io_class in IO_CLASSES:
            if mixes[w].fractions[io_class] > 0:
                flows += _front_end_flows(w, io_class, mixes[w], shares, layout)
                flows += _back_end_flows(w, io_class, mixes[w], shares, pool_ranks, layout)

    K = len(stations)
    servers = np.array([st.servers for st in stations], dtype=np.float64)
    per_workload = np.zeros((len(workloads), K))
    arrivals_by_workload = np.zeros((len(workloads), K))
    for f in flows:
        per_workload[f.workload, f.station] += f.rate * f.moments.mean_s
        arrivals_by_workload[f.workload, f.station] += f.rate
    per_workload /= servers[None, :]
    # Station arrival rate and mixed service moments per unit of total host rate.
    station_idx = np.array([f.station for f in flows])
    wrate = np.array([weights[f.workload] * f.rate for f in flows])
    lam = np.bincount(station_idx, wrate, minlength=K).astype(np.float64)
    s1 = np.bincount(station_idx, wrate * np.array([f.moments.mean_s for f in flows]), minlength=K)
    s2 = np.bincount(
        station_idx, wrate * np.array([f.moments.second_moment_s2 for f in flows]), minlength=K
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(lam > 0, s1 / lam, 0.0)
        second = np.where(lam > 0, s2 / lam, 0.0)

    curve_range = None
    if all(w.iops_range is not None for w in workloads):
        lo = sum(w.iops_range[0] for w in workloads if w.iops_range is not None)
        hi = sum(w.iops_range[1] for w in workloads if w.iops_range is not None)
        curve_range = (lo, hi)
    return SystemModel(
        name=scenario.name,
        system=layout.system.name,
        stations=tuple(stations),
        flows=tuple(flows),
        workloads=tuple(workloads),
        mixes=mixes,
        mix_weights=weights,
        planned_iops=planned,
        ranks=tuple(rank_infos),
        tiers=_tier_loads(rank_infos, placements, tier_cap, tier_count),
        nvs_bytes=cache.nvs_bytes(layout.system, scenario.system.cache_gb),
        curve_points=scenario.analyses.curve.points,
        curve_range=curve_range,
        workload_utilization_per_iops=per_workload,
        workload_arrival_per_iops=arrivals_by_workload,
        arrival_per_iops=lam,
        service_s=mean,
        service2_s2=np.maximum(second, mean * mean),
        times=_class_times(stations, flows),
    )


def is_closed(workload: Workload) -> bool:
    """A workload given by a queue depth or users (a closed loop), not by a rate."""
    return workload.queue_depth is not None or workload.users is not None


def _backend_ops(
    io_class: IoClass, fmt: RaidFormat, size: float, destage_ratio: float
) -> list[raid.DriveOps]:
    if io_class == "read_miss":
        return raid.read_miss_ops(fmt, size)
    if io_class == "sequential_read":
        return raid.prefetch_ops(size)
    if io_class == "random_write":
        return raid.random_destage_ops(fmt, size, destage_ratio)
    if io_class == "sequential_write":
        return raid.sequential_destage_ops(fmt, size, destage_ratio)
    return []  # read hits never reach the back end


def _tier_loads(
    ranks: Sequence[RankInfo],
    placements: dict[str, PoolLayout],
    tier_cap: dict[tuple[str, str], float],
    tier_count: dict[tuple[str, str], int],
) -> tuple[TierLoad, ...]:
    out = []
    for pool_name, layout in placements.items():
        for share in layout.placement.tiers:
            key = (pool_name, share.tier)
            out.append(
                TierLoad(
                    pool=pool_name,
                    tier=share.tier,
                    ranks=tier_count[key],
                    capacity_gb=tier_cap[key],
                    used_gb=share.capacity_used_gb,
                    # Placement sums pieces in floating point: keep the share a fraction.
                    small_io_share=min(max(share.small_io_share, 0.0), 1.0),
                    backend_iops=0.0,  # filled at the planned load by predict_configuration
                    mb_share=min(max(share.mb_share, 0.0), 1.0),
                )
            )
    return tuple(out)
