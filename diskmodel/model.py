"""The storage system model: stations from the hardware, routing from the workloads, solved.

`build_system(scenario, catalog)` turns a validated scenario into a `SystemModel`: its
stations (every host port, the two servers, every DA pair, every rank) and its flows (per
workload and I/O class: arrivals at a station per host I/O, with the service time's first two
moments and whether the host waits for it). `solve_open` evaluates the open network at a vector
of total I/O rates; `solve_closed` the closed one at a host queue depth or a user population;
`predict_configuration` assembles a `Prediction`, `predict` the whole scenario.

Open network (the response-time curve). Workloads keep their planned mix while the total
rate L varies. Every station is fed a Poisson stream (Jackson decomposition):
- host port: M/G/1 (service = overhead + bytes / bandwidth, mixed over I/O sizes);
- server (processor complex half): M/M/c with c = cores per server;
- DA pair: M/G/1 (per-op time + bytes / bandwidth);
- rank: each active drive M/G/1 with the exact first two moments of its operation mix
  (reads, destage reads and writes, prefetch), no command-queueing credit: in an open model
  the queue a drive sees is not known in advance, and FCFS is the conservative reading.
Host-visible response of a class = sum over the stations it waits for of visits x (wait +
its own service time). Read hits, writes (fast write to cache + NVS) and sequential reads
(prefetched) wait for a host port and a server only; a random read miss also for its DA pair
and a drive. Destages and prefetches are asynchronous back-end load: they use stations but no
host waits for them, until the destage path saturates: then NVS fills and writes wait
(`destage_limited`, `nvs_full`).

Max IOPS = the rate at which the busiest station (per server) reaches utilisation 1.

Closed network (host queue depth, users + think time): exact load-dependent MVA over the
same stations, the host-visible work as the closed class; ranks are load-dependent stations
whose rate at n queued requests credits command queueing on each drive (see
`diskmodel.components.drive`), servers are min(n, c) multi-server stations; the asynchronous
work (destage, prefetch) and any open workloads are an open stream that takes its share rho of
each station, folded in by inflating the closed demands to D / (1 - rho) (the standard
mixed-network reduction, Lazowska et al., Quantitative System Performance, 1984, §7.4),
iterated to a fixed point in the throughput.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from diskmodel.catalog import Catalog, Drive, RaidFormat, load_catalog
from diskmodel.components import cache, device_adapter, drive, host_adapter, processor, raid
from diskmodel.components.drive import ServiceMoments
from diskmodel.prediction import (
    ClosedPoint,
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
from diskmodel.queueing.closed import ClosedResult, mva_load_dependent
from diskmodel.queueing.station import mg1, mmc
from diskmodel.scenario import Pool, RankPlacement, Scenario, Workload, expand_ranks
from diskmodel.tiering.heatmap import load_heatmap_csv
from diskmodel.tiering.placement import PoolPlacement, Tier, WorkloadDemand, place_pool
from diskmodel.tiering.skew import (
    UNIFORM,
    PiecewiseSkew,
    SkewCurve,
    derived_mb_curve,
    skew_from_level,
)
from diskmodel.workload import IO_CLASSES, IoClass, IoMix

FloatArray = NDArray[np.float64]

MS = 1e-3
TIER_ORDER = ("ssd", "enterprise", "nearline")
"""Tiers fastest first, the order Easy Tier fills them."""
KINDS = ("host_adapter", "processor", "device_adapter", "rank")
_PROCESSOR_WORK: dict[IoClass, processor.ProcessorWork] = {
    "read_hit": "read_hit",
    "read_miss": "read_miss",
    "sequential_read": "sequential_read",
    "random_write": "write",
    "sequential_write": "write",
}
# Relative tolerance of the closed solution's throughput fixed point.
_X_TOL = 1e-3
# Largest share of a station the asynchronous stream may take in the closed solution; at this
# cap the destage path is saturated (NVS full) and the closed class gets the remainder.
_RHO_CAP = 0.995
# Occupied fraction used for a rank that holds no data (it receives no I/O either; any valid
# fraction will do, it only keeps the seek formula's domain).
_EMPTY_FRACTION = 1e-3


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


# --------------------------------------------------------------------------- building


def _skew_curves(workload: Workload, base_dir: Path | None) -> tuple[SkewCurve, SkewCurve | None]:
    skew = workload.skew
    if skew is None:
        return UNIFORM, None
    seq = skew.sequential_level
    if skew.heatmap is not None:
        path = Path(skew.heatmap)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        heat = load_heatmap_csv(path)
        return heat.small_io, heat.mb if seq is None else derived_mb_curve(heat.small_io, seq)
    small: SkewCurve
    if skew.points is not None:
        small = PiecewiseSkew.from_points([list(p) for p in skew.points])
    else:
        level = skew.level_value
        small = skew_from_level(level if level is not None else 1.0)
    return small, derived_mb_curve(small, seq) if seq is not None else None


def _rank_capacity_gb(rank: RankPlacement, catalog: Catalog) -> float:
    return catalog.raid_formats[rank.raid].data_drives * catalog.drives[rank.drive].capacity_gb


def _place_pools(
    scenario: Scenario,
    catalog: Catalog,
    ranks: list[RankPlacement],
    mixes: Sequence[IoMix],
    base_dir: Path | None,
) -> dict[str, tuple[PoolPlacement, list[str]]]:
    """Placement per pool: which share of each workload's small I/O and MB lands on each tier."""
    out: dict[str, tuple[PoolPlacement, list[str]]] = {}
    for pool in scenario.pools:
        pool_ranks = [r for r in ranks if r.pool == pool.name]
        tier_names = [
            t for t in TIER_ORDER if any(catalog.drives[r.drive].tier == t for r in pool_ranks)
        ]
        tiers = [
            Tier(
                t,
                sum(
                    _rank_capacity_gb(r, catalog)
                    for r in pool_ranks
                    if catalog.drives[r.drive].tier == t
                ),
            )
            for t in tier_names
        ]
        demands = []
        for w, workload in enumerate(scenario.workloads):
            if workload.pool != pool.name:
                continue
            small, mb = _skew_curves(workload, base_dir)
            mix = mixes[w]
            rate = workload.iops or 1.0
            demands.append(
                WorkloadDemand(
                    name=workload.name,
                    capacity_gb=workload.capacity_gb,
                    small_io_iops=rate * mix.backend_small_io_per_host_io(1.0),
                    mb_s=rate
                    * (
                        (mix.fractions["read_miss"] + mix.fractions["sequential_read"])
                        * mix.read_bytes
                        + (mix.fractions["random_write"] + mix.fractions["sequential_write"])
                        * mix.write_bytes
                    )
                    / 1e6,
                    skew=small,
                    mb_skew=mb,
                    pin_tier=workload.pin_tier,
                )
            )
        if not demands:
            continue
        placement = place_pool(tiers, demands, easy_tier=pool.easy_tier == "auto")
        out[pool.name] = (placement, tier_names)
    return out


def _pool(scenario: Scenario, name: str) -> Pool:
    return next(p for p in scenario.pools if p.name == name)


def build_system(
    scenario: Scenario,
    catalog: Catalog | None = None,
    *,
    read_hit_ratios: Sequence[float] | None = None,
    base_dir: Path | None = None,
) -> SystemModel:
    """Stations and flows of one configuration (see the module docstring).

    read_hit_ratios: per workload, overriding the scenario's (a projected cache size).
    base_dir: where a skew heat map's relative path starts (the scenario file's folder).
    """
    catalog = catalog or load_catalog()
    cfg = scenario.system
    system = catalog.systems[cfg.model]
    adapter = system.host_adapter(cfg.host_adapter)
    option = system.processor_option(cfg.processor_ways)
    ranks = expand_ranks(scenario)
    workloads = scenario.workloads
    mixes = tuple(
        IoMix.of(w, None if read_hit_ratios is None else read_hit_ratios[i])
        for i, w in enumerate(workloads)
    )

    # Mix weights: by planned rate; closed workloads (no rate) by their population.
    # With any closed workload, the closed class is the closed workloads weighted by their
    # populations and the workloads with a rate are open background load (weight 0 here).
    if any(_is_closed(w) for w in workloads):
        raw = np.array([float(w.queue_depth or w.users or 0) for w in workloads])
    else:
        raw = np.array([w.iops or 0.0 for w in workloads])
    weights = raw / raw.sum()
    open_rates = [w.iops for w in workloads if w.iops is not None and not _is_closed(w)]
    planned = float(sum(open_rates)) if open_rates else None

    stations: list[Station] = []
    ports = [len(stations) + i for i in range(cfg.host_ports)]
    stations += [Station(f"host port {i}", "host_adapter", 1, 1) for i in range(cfg.host_ports)]
    servers = [len(stations), len(stations) + 1]
    stations += [
        Station(f"server {s} ({option.ways}-way)", "processor", option.ways, 1) for s in range(2)
    ]
    das = [len(stations) + i for i in range(cfg.da_pairs)]
    stations += [Station(f"DA pair {i}", "device_adapter", 1, 1) for i in range(cfg.da_pairs)]

    placements = _place_pools(scenario, catalog, ranks, mixes, base_dir)
    # Occupied fraction of each tier of each pool: data placed / usable capacity.
    tier_cap: dict[tuple[str, str], float] = {}
    tier_count: dict[tuple[str, str], int] = {}
    for r in ranks:
        key = (r.pool, catalog.drives[r.drive].tier)
        tier_cap[key] = tier_cap.get(key, 0.0) + _rank_capacity_gb(r, catalog)
        tier_count[key] = tier_count.get(key, 0) + 1
    tier_used: dict[tuple[str, str], float] = {}
    for pool_name, (placement, _names) in placements.items():
        for share in placement.tiers:
            tier_used[(pool_name, share.tier)] = share.capacity_used_gb
    rank_infos: list[RankInfo] = []
    for r in ranks:
        d = catalog.drives[r.drive]
        fmt = catalog.raid_formats[r.raid]
        key = (r.pool, d.tier)
        used = tier_used.get(key, 0.0) / tier_cap[key]
        rank_infos.append(
            RankInfo(
                r,
                d,
                fmt,
                d.tier,
                _rank_capacity_gb(r, catalog),
                min(max(used, _EMPTY_FRACTION), 1.0),
                len(stations),
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

    flows: list[Flow] = []
    for w, workload in enumerate(workloads):
        mix = mixes[w]
        placement, tier_names = placements[workload.pool]
        wp = placement.workload(workload.name)
        pool_ranks = [ri for ri in rank_infos if ri.placement.pool == workload.pool]
        small_share: dict[int, float] = {}
        mb_share: dict[int, float] = {}
        cap_share: dict[int, float] = {}
        for t in tier_names:
            share = wp.on(t)
            in_tier = [ri for ri in pool_ranks if ri.tier == t]
            total = sum(ri.capacity_gb for ri in in_tier)
            for ri in in_tier:
                within = ri.capacity_gb / total
                small_share[ri.station] = share.small_io_share * within
                mb_share[ri.station] = share.mb_share * within
                cap_share[ri.station] = share.capacity_used_gb / workload.capacity_gb * within
        server_share = [0.0, 0.0]
        for ri in pool_ranks:
            server_share[ri.placement.server] += cap_share[ri.station]
        norm = sum(server_share)
        server_share = [s / norm for s in server_share] if norm > 0 else [0.5, 0.5]

        for io_class in IO_CLASSES:
            p = mix.fractions[io_class]
            if p <= 0:
                continue
            size = mix.size_bytes(io_class)
            port_time = host_adapter.port_service(adapter, size)
            for k in ports:
                flows.append(
                    Flow(
                        w, io_class, k, p / len(ports), 1 / len(ports), port_time, True, False, size
                    )
                )
            core = processor.core_time(system.processor_costs, _PROCESSOR_WORK[io_class])
            for s, k in enumerate(servers):
                if server_share[s] > 0:
                    flows.append(
                        Flow(
                            w,
                            io_class,
                            k,
                            p * server_share[s],
                            server_share[s],
                            core,
                            True,
                            False,
                            size,
                        )
                    )
            # Destage processor work (per destage operation of a track or block).
            if io_class in ("random_write", "sequential_write"):
                per_write = mix.destage_ratio * (
                    1.0 if io_class == "random_write" else size / cache.TRACK_BYTES
                )
                destage_core = processor.core_time(system.processor_costs, "destage")
                for s, k in enumerate(servers):
                    if server_share[s] > 0 and per_write > 0:
                        flows.append(
                            Flow(
                                w,
                                io_class,
                                k,
                                p * per_write * server_share[s],
                                0.0,
                                destage_core,
                                False,
                                True,
                                size,
                            )
                        )
            # Back end.
            for ri in pool_ranks:
                ops = _backend_ops(io_class, ri.raid, size, mix.destage_ratio)
                sequential = io_class in ("sequential_read", "sequential_write")
                rank_share = (mb_share if sequential else small_share)[ri.station]
                if rank_share <= 0:
                    continue
                visible = io_class == "read_miss"
                is_destage = io_class.endswith("write")
                n_drives = raid.active_drives(ri.raid)
                for op in ops:
                    if op.count <= 0:
                        continue
                    if op.pattern == "random":
                        moments = drive.random_op(
                            ri.drive, op.size_bytes, ri.occupied_fraction, op.write
                        )
                    else:
                        moments = drive.sequential_op(ri.drive, op.size_bytes, op.write)
                    rank_ops = p * rank_share * op.count
                    class_visits = rank_share * op.count if visible else 0.0
                    flows.append(
                        Flow(
                            w,
                            io_class,
                            ri.station,
                            rank_ops / n_drives,
                            class_visits,
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
                            das[ri.placement.da_pair],
                            rank_ops,
                            class_visits,
                            device_adapter.da_op_service(system.device_adapter, op.size_bytes),
                            visible,
                            is_destage,
                            op.size_bytes,
                        )
                    )

    K = len(stations)
    per_workload = np.zeros((len(workloads), K))
    for f in flows:
        per_workload[f.workload, f.station] += f.rate * f.moments.mean_s
    per_workload /= np.array([s.servers for s in stations], dtype=np.float64)[None, :]
    arrivals_by_workload = np.zeros((len(workloads), K))
    for f in flows:
        arrivals_by_workload[f.workload, f.station] += f.rate
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

    tiers = _tier_loads(rank_infos, placements, tier_cap, tier_count)
    curve_range = None
    if all(w.iops_range is not None for w in workloads):
        lo = sum(w.iops_range[0] for w in workloads if w.iops_range is not None)
        hi = sum(w.iops_range[1] for w in workloads if w.iops_range is not None)
        curve_range = (lo, hi)
    return SystemModel(
        name=scenario.name,
        system=system.name,
        stations=tuple(stations),
        flows=tuple(flows),
        workloads=tuple(workloads),
        mixes=mixes,
        mix_weights=weights,
        planned_iops=planned,
        ranks=tuple(rank_infos),
        tiers=tiers,
        nvs_bytes=cache.nvs_bytes(system, cfg.cache_gb),
        curve_points=scenario.analyses.curve.points,
        curve_range=curve_range,
        workload_utilization_per_iops=per_workload,
        workload_arrival_per_iops=arrivals_by_workload,
        arrival_per_iops=lam,
        service_s=mean,
        service2_s2=np.maximum(second, mean * mean),
        times=_class_times(stations, flows),
    )


def _is_closed(workload: Workload) -> bool:
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
    placements: dict[str, tuple[PoolPlacement, list[str]]],
    tier_cap: dict[tuple[str, str], float],
    tier_count: dict[tuple[str, str], int],
) -> tuple[TierLoad, ...]:
    out = []
    for pool_name, (placement, _names) in placements.items():
        for share in placement.tiers:
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
                )
            )
    return tuple(out)


# --------------------------------------------------------------------------- open solution


@dataclass(frozen=True)
class OpenSolution:
    """Per-station results [K, P] at P total host rates, and per-class response [G, P]."""

    iops: FloatArray
    saturated: NDArray[np.bool_]  # [P]: at or past max_iops
    utilization: FloatArray
    wait_s: FloatArray
    response_s: FloatArray  # mean over all host I/O [P] (inf where saturated)


def station_waits(model: SystemModel, iops: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Utilisation and mean wait [K, P] of every station at total host rates `iops` [P].

    Ports, DA pairs and drives: M/G/1 (Pollaczek-Khinchine) with the station's mixed service
    moments; servers: M/M/c. One vectorised call per station type.
    """
    lam = model.arrival_per_iops[:, None] * iops[None, :]
    servers = np.array([s.servers for s in model.stations])
    multi = servers > 1
    util = np.empty(lam.shape)
    wait = np.empty(lam.shape)
    single = ~multi
    if single.any():
        res = mg1(lam[single], model.service_s[single, None], model.service2_s2[single, None])
        util[single] = res.utilization
        wait[single] = res.wait_time
    if multi.any():
        res = mmc(lam[multi], model.service_s[multi, None], servers[multi, None])
        util[multi] = res.utilization
        wait[multi] = res.wait_time
    return util, wait


def class_times(model: SystemModel) -> ClassTimes:
    """Host-visible visits and service per (workload, class) of a built model."""
    return model.times


def _overall_response(model: SystemModel, times: ClassTimes, wait: FloatArray) -> FloatArray:
    """Mean host response over all I/O [P] from station waits [K, P] (finite waits only)."""
    per_class = times.visits @ wait + times.service_s[:, None]  # [G, P]
    weights = np.array(
        [model.mix_weights[w] * model.mixes[w].fractions[c] for (w, c) in times.keys]
    )
    return np.asarray(weights @ per_class, dtype=np.float64)


def solve_open(model: SystemModel, iops: FloatArray | Sequence[float]) -> OpenSolution:
    """The open network at total host rates `iops` (vectorised over the rates)."""
    rates = np.asarray(iops, dtype=np.float64)
    util, wait = station_waits(model, rates)
    saturated = rates >= model.max_iops * (1 - 1e-12)
    finite_wait = np.where(saturated[None, :], 0.0, wait)
    response = _overall_response(model, class_times(model), finite_wait)
    return OpenSolution(
        iops=rates,
        saturated=saturated,
        utilization=util,
        wait_s=wait,
        response_s=np.where(saturated, np.inf, response),
    )


def curve_rates(model: SystemModel) -> FloatArray:
    """Total host rates of the response-time curve: the scenario's range, or up to saturation."""
    n = model.curve_points
    if model.curve_range is not None:
        return np.linspace(model.curve_range[0], model.curve_range[1], n)
    top = model.max_iops
    return top * np.arange(1, n + 1) / n


# --------------------------------------------------------------------------- closed solution


def _log_convolve(log_a: FloatArray, log_b: FloatArray) -> FloatArray:
    """log of (a * b)(n) = sum_{j<=n} a(j) b(n-j), n = 0..len-1, without leaving log space."""
    size = log_a.shape[0]
    n = np.arange(size)
    lag = n[:, None] - n[None, :]
    terms = np.where(lag >= 0, log_a[None, :] + log_b[np.maximum(lag, 0)], -np.inf)
    top = terms.max(axis=1)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.asarray(
            safe + np.log(np.exp(terms - safe[:, None]).sum(axis=1)), dtype=np.float64
        )


def _log_convolve_power(log_f: FloatArray, times: int) -> FloatArray:
    """log of the `times`-fold convolution of f with itself (binary powering)."""
    result = np.full(log_f.shape, -np.inf)
    result[0] = 0.0  # the identity: one way to place 0 customers
    base = log_f
    while times:
        if times & 1:
            result = _log_convolve(result, base)
        times >>= 1
        if times:
            base = _log_convolve(base, base)
    return result


_FES_CACHE: dict[tuple[str, float, int, int], FloatArray] = {}


def drives_alpha(info: RankInfo, drives: int, population: int) -> FloatArray:
    """Rate multiplier alpha(n), n = 1..N, of `drives` identical drives seen as one station.

    Each drive is a load-dependent station (its command-queueing gain alpha_d, see
    `diskmodel.components.drive`) receiving an equal share of the operations. By Norton's
    theorem for product-form networks (Chandy, Herzog & Woo, "Parametric analysis of queuing
    networks", IBM J. Res. Dev. 19(1), 1975) the group is exactly a flow-equivalent station
    with f(n) = (f_d * ... * f_d)(n) (the drives-fold convolution of a drive's
    f_d(n) = d^n / prod alpha_d), so alpha(n) = drives d f(n-1) / f(n); scaling d scales f(n)
    by a power of n, so alpha does not depend on the demand and is computed with d = 1.
    alpha(1) = 1 and alpha(n) -> drives x max alpha_d. Uses the gain of the drive's random read
    (the closed class's operation at a rank).
    """
    key = (info.drive.name, round(info.occupied_fraction, 6), drives, population)
    cached = _FES_CACHE.get(key)
    if cached is not None:
        return cached
    gain = drive.command_queueing_gain(
        info.drive, cache.staged_bytes(4096), info.occupied_fraction, False, population
    )
    log_f = np.concatenate([[0.0], -np.cumsum(np.log(gain))])
    log_g = _log_convolve_power(log_f, drives)
    alpha = drives * np.exp(log_g[:-1] - log_g[1:])
    alpha.setflags(write=False)
    if len(_FES_CACHE) > 256:
        _FES_CACHE.clear()
    _FES_CACHE[key] = alpha
    return alpha


def solve_closed(
    model: SystemModel, population: int, think_time_s: float
) -> tuple[ClosedSystemResult, FloatArray, FloatArray, float]:
    """Exact load-dependent MVA of the host-visible work, asynchronous work as an open stream.

    The closed class is the mix of the model (all workloads in their weights). Returns the
    result, per-station utilisation [K] and per-visit wait [K] (seconds) at `population`, and
    the total host rate (closed throughput + the open workloads' planned rates).
    """
    K = len(model.stations)
    visible_demand = np.zeros(K)
    async_work = np.zeros(K)  # busy seconds per closed host I/O, per server
    for f in model.flows:
        work = model.mix_weights[f.workload] * f.rate * f.moments.mean_s
        if f.visible:
            visible_demand[f.station] += work
        else:
            async_work[f.station] += work
    servers = np.array([s.servers for s in model.stations], dtype=np.float64)
    drives = np.array([s.drives for s in model.stations], dtype=np.float64)
    # MVA demands: a rank is one station holding all its drives.
    demand = visible_demand * drives
    N = int(population)
    n_axis = np.arange(1, N + 1, dtype=np.float64)
    active = demand > 0
    vis_rate = np.zeros(K)
    for f in model.flows:
        if f.visible:
            vis_rate[f.station] += model.mix_weights[f.workload] * f.rate
    background = np.zeros(K)  # utilisation by open workloads (independent of x)
    open_iops = 0.0
    for w, workload in enumerate(model.workloads):
        if workload.iops is not None and not _is_closed(workload):
            background += workload.iops * model.workload_utilization_per_iops[w]
            open_iops += workload.iops
    # Open workloads that alone saturate a station have no steady state (the prediction says
    # so); the closed class is then solved with that station's remainder held at the cap.
    background = np.minimum(background, _RHO_CAP)

    # MVA stations: every active port, server and DA pair; identical ranks (same drive,
    # occupancy, drives and loads) merged into one flow-equivalent station of all their drives
    # (exact for product form, and it keeps the solution fast for hundreds of ranks).
    members: list[list[int]] = []
    alphas: list[FloatArray] = []
    rank_of = {ri.station: ri for ri in model.ranks}
    groups: dict[tuple[object, ...], int] = {}
    for k in np.flatnonzero(active).tolist():
        st = model.stations[k]
        if st.kind == "rank":
            ri = rank_of[k]
            key = (
                ri.drive.name,
                round(ri.occupied_fraction, 6),
                st.drives,
                float(np.format_float_positional(demand[k], precision=10, unique=False)),
                float(np.format_float_positional(async_work[k], precision=10, unique=False)),
                float(np.format_float_positional(background[k], precision=10, unique=False)),
            )
            if key in groups:
                members[groups[key]].append(k)
                continue
            groups[key] = len(members)
            members.append([k])
            alphas.append(np.empty(0))  # filled below, once the group's size is known
        else:
            members.append([k])
            alphas.append(np.minimum(n_axis, servers[k]) if servers[k] > 1 else np.ones(N))
    for j, group in enumerate(members):
        first = group[0]
        if model.stations[first].kind == "rank":
            alphas[j] = drives_alpha(
                rank_of[first], int(model.stations[first].drives) * len(group), N
            )
    alpha = np.vstack(alphas) if alphas else np.ones((0, N))
    group_demand = np.array([demand[g].sum() for g in members])
    group_first = np.array([g[0] for g in members], dtype=np.int64)

    def throughput_at(x: float) -> tuple[float, bool, ClosedResult]:
        """Closed throughput when the asynchronous stream runs at the rate set by `x`."""
        rho = x * async_work / servers + background
        hit_limit = bool(np.any(rho >= _RHO_CAP))
        rho = np.minimum(rho, _RHO_CAP)
        # Members of a group share their loads, so the first member's rho stands for all.
        inflated = group_demand / (1 - rho[group_first])
        solved = mva_load_dependent(inflated, N, think_time_s, alpha)
        return float(solved.throughput[-1]), hit_limit, solved

    # NVS full: the destage stream cannot exceed what its busiest station absorbs; beyond that
    # rate writes wait for NVS space, so the closed class is held to it (the extra time is
    # waiting for NVS, outside the stations' queues).
    with np.errstate(divide="ignore"):
        caps = np.where(async_work > 0, (1 - background) * servers / async_work, np.inf)
    x_cap = float(caps.min())

    # Fixed point x = g(x) with g decreasing in x: bracket [0, min(g(0), x_cap)], then the
    # Illinois method on h(x) = g(x) - x (a handful of MVA solutions).
    g_zero, limited, result = throughput_at(0.0)
    lo, h_lo = 0.0, g_zero
    hi = min(g_zero, x_cap)
    if np.isfinite(x_cap):
        g_hi, limited, result = throughput_at(hi)
        h_hi = g_hi - hi
        side = 0
        for _ in range(30):
            if h_hi >= 0 or hi - lo <= _X_TOL * hi:
                break  # at the cap (NVS full), or bracketed tightly enough
            x_try = (lo * h_hi - hi * h_lo) / (h_hi - h_lo)
            g_x, limited, result = throughput_at(x_try)
            h_x = g_x - x_try
            if abs(h_x) <= _X_TOL * x_try:
                break
            if h_x > 0:
                lo, h_lo = x_try, h_x
                if side == +1:
                    h_hi /= 2
                side = +1
            else:
                hi, h_hi = x_try, h_x
                if side == -1:
                    h_lo /= 2
                side = -1
    assert result is not None
    # Report the throughput of the MVA solution whose queues and residences are reported, so
    # that Little's law holds exactly (it differs from the fixed point by < _X_TOL).
    x = float(result.throughput[-1])
    throughput = np.asarray(result.throughput, dtype=np.float64)
    if x > x_cap:
        limited = True
        x = x_cap
        throughput = np.minimum(throughput, x_cap)
    population_axis = np.arange(1, N + 1, dtype=np.float64)
    response_s = population_axis / throughput - think_time_s
    util = np.zeros(K)
    wait = np.zeros(K)
    q = np.zeros(K)
    res_time = np.zeros(K)
    for j, group in enumerate(members):
        q[group] = result.queue_length[j, -1] / len(group)
        res_time[group] = result.residence_time[j, -1] / len(group)
    total_rate = x + open_iops
    busy = x * (visible_demand + async_work) / servers + background
    for k in np.flatnonzero(active).tolist():
        st = model.stations[k]
        visits = vis_rate[k] * st.drives  # visible visits to the station per closed host I/O
        service = visible_demand[k] / vis_rate[k]
        wait[k] = max(res_time[k] / visits - service, 0.0)
        if st.kind == "rank":
            # Reordering shortens the mean service at a queue: busy time per op falls by the gain.
            ri = next(r for r in model.ranks if r.station == k)
            per_drive_queue = max(int(np.ceil(q[k] / st.drives)), 1)
            gain = drive.command_queueing_gain(
                ri.drive, 4096, ri.occupied_fraction, False, per_drive_queue
            )[-1]
            util[k] = busy[k] / gain
        else:
            util[k] = busy[k]
    for k in np.flatnonzero(~active).tolist():
        util[k] = busy[k]
    util = np.minimum(util, 1.0)
    step = max(1, N // 60)
    points = list(range(1, N + 1, step))
    if points[-1] != N:
        points.append(N)
    closed = ClosedSystemResult(
        population=N,
        think_time_ms=think_time_s / MS,
        iops=x,
        response_time_ms=float(response_s[-1]) / MS,
        destage_limited=limited,
        curve=tuple(
            ClosedPoint(n, float(throughput[n - 1]), float(response_s[n - 1]) / MS) for n in points
        ),
    )
    return closed, util, wait, total_rate


# --------------------------------------------------------------------------- prediction


def _ms(seconds: float) -> float | None:
    return float(seconds) / MS if np.isfinite(seconds) else None


def predict_configuration(
    scenario: Scenario,
    catalog: Catalog | None = None,
    *,
    name: str | None = None,
    read_hit_ratios: Sequence[float] | None = None,
    base_dir: Path | None = None,
) -> Prediction:
    """Solve one configuration: curve, max IOPS and bottleneck, results at the planned load."""
    model = build_system(scenario, catalog, read_hit_ratios=read_hit_ratios, base_dir=base_dir)
    times = class_times(model)
    max_iops = model.max_iops
    neck = model.bottleneck
    destage_limited = bool(model.destage_share(neck) > 0)
    notes: list[str] = []

    closed_result: ClosedSystemResult | None = None
    closed_ws = [w for w in model.workloads if _is_closed(w)]
    if closed_ws:
        population = sum(int(w.queue_depth or w.users or 0) for w in closed_ws)
        think_s = (
            sum((w.queue_depth or w.users or 0) * w.think_time_ms for w in closed_ws)
            / population
            * MS
        )
        closed_result, util, wait, planned = solve_closed(model, population, think_s)
        open_load = np.zeros(len(model.stations))
        for i, other in enumerate(model.workloads):
            if not _is_closed(other) and other.iops is not None:
                open_load += other.iops * model.workload_utilization_per_iops[i]
        rates = np.array(
            [
                closed_result.iops * model.mix_weights[i] if _is_closed(w) else (w.iops or 0.0)
                for i, w in enumerate(model.workloads)
            ]
        )
        # Only open workloads can push a station past saturation in a closed solution.
        station_saturated = np.asarray(open_load >= 1.0, dtype=np.bool_)
        saturated = bool(station_saturated.any())
        util = np.where(station_saturated, 1.0, util)
        nvs_full = closed_result.destage_limited
        if len(closed_ws) > 1:
            notes.append(
                "closed workloads solved as one class (mix weighted by population): "
                "their throughputs split by those weights"
            )
    else:
        planned = float(model.planned_iops or 0.0)
        util_m, wait_m = station_waits(model, np.array([planned]))
        util, wait = util_m[:, 0], wait_m[:, 0]
        station_saturated = util >= 1.0
        saturated = planned >= max_iops * (1 - 1e-12)
        rates = np.array([w.iops or 0.0 for w in model.workloads])
        nvs_full = saturated and destage_limited
        if not nvs_full:
            nvs_full = bool(_dirty_backlog_bytes(model, rates, wait) > model.nvs_bytes)
    finite_wait = np.where(station_saturated, 0.0, wait)

    # Per (workload, class) response and its breakdown by component kind.
    per_class = times.visits @ finite_wait + times.service_s
    blocked: NDArray[np.bool_] = np.asarray(
        (times.visits[:, station_saturated] > 0).any(axis=1), dtype=np.bool_
    )
    kind_wait = np.zeros((len(times.keys), len(KINDS)))
    for k in range(len(model.stations)):
        kind_wait[:, times.kind_of_station[k]] += times.visits[:, k] * finite_wait[k]
    by_kind = kind_wait + times.service_by_kind
    workloads = []
    for w, workload in enumerate(model.workloads):
        mix = model.mixes[w]
        io_types = []
        for g, (gw, io_class) in enumerate(times.keys):
            if gw != w:
                continue
            waits_for_nvs = nvs_full and io_class.endswith("write")
            unknown = bool(blocked[g]) or waits_for_nvs
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
        workloads.append(
            _workload_result(
                workload,
                rates[w],
                io_types,
                mix.fractions["read_hit"]
                / max(mix.fractions["read_hit"] + mix.fractions["read_miss"], 1e-300),
            )
        )
    total_rate = float(rates.sum())
    overall: float | None
    if closed_result is not None and len(closed_ws) == len(model.workloads):
        # All load is closed: Little's law gives the mean even when NVS is full and the
        # split of the extra wait between reads and writes is not known.
        overall = closed_result.response_time_ms
    elif any(r.response_time_ms is None for r in workloads if r.iops > 0):
        overall = None
    elif total_rate > 0:
        overall = sum(r.iops * (r.response_time_ms or 0.0) for r in workloads) / total_rate
    else:
        overall = None

    arrivals = rates @ model.workload_arrival_per_iops  # per server/drive
    components = tuple(
        ComponentResult(
            name=st.name,
            kind=st.kind,
            utilization=float(min(util[k], 1.0)),
            response_time_ms=None
            if station_saturated[k]
            else float(finite_wait[k] + model.service_s[k]) / MS,
            service_time_ms=float(model.service_s[k]) / MS,
            wait_time_ms=None if station_saturated[k] else float(finite_wait[k]) / MS,
            saturated=bool(station_saturated[k]),
        )
        for k, st in enumerate(model.stations)
    )
    rank_loads = tuple(
        RankLoad(
            name=model.stations[ri.station].name,
            pool=ri.placement.pool,
            tier=ri.tier,
            drive=ri.drive.name,
            raid=ri.raid.name,
            da_pair=ri.placement.da_pair,
            server=ri.placement.server,
            backend_iops=float(arrivals[ri.station] * raid.active_drives(ri.raid)),
            utilization=float(min(util[ri.station], 1.0)),
        )
        for ri in model.ranks
    )
    tiers = tuple(
        TierLoad(
            pool=t.pool,
            tier=t.tier,
            ranks=t.ranks,
            capacity_gb=t.capacity_gb,
            used_gb=t.used_gb,
            small_io_share=t.small_io_share,
            backend_iops=sum(
                r.backend_iops for r in rank_loads if r.pool == t.pool and r.tier == t.tier
            ),
        )
        for t in model.tiers
    )
    curve_iops = curve_rates(model)
    open_solution = solve_open(model, curve_iops)
    curve = tuple(
        CurvePoint(float(i), _ms(float(r)), bool(sat))
        for i, r, sat in zip(
            curve_iops, open_solution.response_s, open_solution.saturated, strict=True
        )
    )
    return Prediction(
        name=name or scenario.name,
        system=model.system,
        max_iops=float(max_iops),
        bottleneck=model.stations[neck].name,
        bottleneck_kind=model.stations[neck].kind,
        destage_limited=destage_limited,
        planned_iops=float(planned),
        saturated=saturated,
        response_time_ms=overall,
        nvs_full=bool(nvs_full),
        components=components,
        workloads=tuple(workloads),
        ranks=rank_loads,
        tiers=tiers,
        curve=curve,
        closed=closed_result,
        notes=tuple(notes),
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
