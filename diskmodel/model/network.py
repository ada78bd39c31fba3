"""The storage system as stations and loads: `build_network(config, layout)`.

Stations: every host port, every host adapter card (the ports' shared processor and PCI
Express link), the two servers, every DA pair, every rank (standing for one of its active
drives). For each workload and I/O class, the flows: arrivals at a station per host I/O,
the first two moments of their service time, whether the host waits for them, whether they are
destage work. Rates enter only when the network is solved (`diskmodel.model.open`,
`diskmodel.model.closed`), so one network serves every load at which the placement (`layout`)
is the same.

Every station is a product-form station, the same in the open and the closed solution: host
ports, cards and DA pairs single-server FCFS, servers `ways`-server, and each drive a load-dependent
station whose rate with n requests queued is alpha(n) / S (command queueing,
`components.drive.command_queueing_gain`). Service times are taken as exponential so that one
network gives both solutions (docs/model.md §2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.components import cache, host_adapter, processor
from diskmodel.components.drive import ServiceMoments
from diskmodel.configuration import COMPONENT_KINDS, Configuration, Rank, WorkloadConfig
from diskmodel.model.costs import OpCosts, drive_gain
from diskmodel.model.layout import EMPTY_FRACTION, PoolLayout
from diskmodel.units import KIB, MB, US
from diskmodel.workload import IO_CLASSES, IoClass

FloatArray = NDArray[np.float64]
_NONE = np.zeros(0, dtype=np.int64)

KINDS = COMPONENT_KINDS
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
    """A rank in the network: the configured rank, its data span and its station index."""

    rank: Rank
    span: float
    station: int


@dataclass(frozen=True)
class ClassTimes:
    """Host-visible work per (workload, class): visits [G, K] and visits x own mean service
    [G, K] at every station, and a fixed delay [G] (the front end's time that no station
    times: `front_end_delay_s`). The host's response is the sum of visits x wait, these
    services and the delay."""

    keys: tuple[tuple[int, IoClass], ...]
    visits: FloatArray
    service_s: FloatArray
    kind_of_station: NDArray[np.int64]
    delay_s: FloatArray

    def delay_per_io(
        self, workloads: int, fractions: Sequence[Mapping[IoClass, float]]
    ) -> FloatArray:
        """Mean fixed delay per host I/O of each workload [W]."""
        out = np.zeros(workloads)
        for g, (w, io_class) in enumerate(self.keys):
            out[w] += fractions[w][io_class] * self.delay_s[g]
        return out


@dataclass(frozen=True)
class Network:
    """Stations, flows and per-workload loads of one configuration at one placement."""

    config: Configuration
    stations: tuple[Station, ...]
    flows: tuple[Flow, ...]
    ranks: tuple[RankInfo, ...]
    layout: Mapping[str, PoolLayout]
    # per workload [W, K]: arrivals at one server (drive) per host I/O of that workload, and
    # busy seconds per host I/O at queue length one (per server / drive)
    arrival: FloatArray
    visible_arrival: FloatArray  # arrivals the host waits for
    work: FloatArray
    destage_work: FloatArray
    async_work: FloatArray  # not host-visible: destages, prefetches
    # per workload [W, K]: destaged bytes arriving at one drive per host I/O, and those bytes
    # times their service at queue length one (Little's law gives the dirty data in flight)
    destage_bytes: FloatArray
    destage_byte_seconds: FloatArray
    gains: tuple[FloatArray | None, ...]  # per station alpha(1..D) for drives, else None
    capacity: FloatArray  # [K] the most busy seconds per second a station gives: alpha(D), c or 1
    times: ClassTimes

    @property
    def workloads(self) -> tuple[WorkloadConfig, ...]:
        return self.config.workloads

    @property
    def servers(self) -> FloatArray:
        return np.array([s.servers for s in self.stations], dtype=np.float64)

    @cached_property
    def class_shares(self) -> tuple[FloatArray, NDArray[np.int64]]:
        """Per host-visible (workload, class) of `times.keys`: its share of the workload's
        I/O and the workload's index."""
        keys = self.times.keys
        fractions = np.array([self.workloads[w].mix.fractions[c] for w, c in keys])
        return fractions, np.array([w for w, _ in keys], dtype=np.int64)

    def stations_of_kind(self, kind: str) -> NDArray[np.int64]:
        """Indices of the stations of a component kind, in order."""
        return self._kind_members[KINDS.index(kind)] if kind in KINDS else _NONE

    @cached_property
    def _kind_members(self) -> list[NDArray[np.int64]]:
        """Per component kind (in `KINDS` order), its stations (`times.kind_of_station`)."""
        kinds = self.times.kind_of_station
        return [np.flatnonzero(kinds == i).astype(np.int64) for i in range(len(KINDS))]

    @cached_property
    def tier_stations(self) -> dict[tuple[str, str], tuple[NDArray[np.int64], FloatArray]]:
        """Per (pool, tier): its ranks' station indices and active drives, in rank order."""
        groups: dict[tuple[str, str], list[RankInfo]] = {}
        for info in self.ranks:
            groups.setdefault((info.rank.pool, info.rank.tier), []).append(info)
        return {
            key: (
                np.array([i.station for i in infos], dtype=np.int64),
                np.array([i.rank.active_drives for i in infos], dtype=np.float64),
            )
            for key, infos in groups.items()
        }

    def saturation_scale(self, rates: ArrayLike) -> tuple[float, int]:
        """How far the per-workload host `rates` can be scaled on this network before a
        station saturates, and which station does first."""
        load = np.asarray(rates, dtype=np.float64) @ self.work  # busy seconds per second
        with np.errstate(divide="ignore"):
            headroom = np.where(load > 0, self.capacity / np.where(load > 0, load, 1.0), np.inf)
        k = int(np.argmin(headroom))
        return float(headroom[k]), k

    def dirty_bytes(
        self, rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
    ) -> FloatArray:
        """Destaged data waiting for or in service at the drives [P] (Little's law per
        station: arrival rate x time there x bytes), for rates [W, P] and waits [K, P]."""
        return np.asarray(
            self._dirty_by_station(rates, wait_s, speed_factor).sum(axis=0), dtype=np.float64
        )

    def dirty_bytes_by_server(
        self, rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
    ) -> FloatArray:
        """`dirty_bytes` per server [S, P]: each server's NVS holds the writes to the ranks it
        owns (and those its processors are destaging); a DA pair serves ranks of both servers,
        so its share is split between them in proportion to the ranks of each it serves."""
        per_station = self._dirty_by_station(rates, wait_s, speed_factor)
        servers = self.config.hardware.system.servers
        owner = np.full((len(self.stations), servers), 0.0)
        for info in self.ranks:
            owner[info.station, info.rank.server % servers] = 1.0
        processors = [k for k, st in enumerate(self.stations) if st.kind == "processor"]
        for server, k in enumerate(processors):
            owner[k, server % servers] = 1.0  # the server's own destage work
        da_index = {s.name: k for k, s in enumerate(self.stations) if s.kind == "device_adapter"}
        for pair in range(self.config.hardware.da_pairs):
            k = da_index[f"DA pair {pair}"]
            counts = np.zeros(servers)
            for info in self.ranks:
                if info.rank.da_pair == pair:
                    counts[info.rank.server % servers] += 1
            owner[k] = counts / counts.sum() if counts.sum() > 0 else 1.0 / servers
        return np.asarray(owner.T @ per_station, dtype=np.float64)

    def _dirty_by_station(
        self, rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
    ) -> FloatArray:
        drives = np.array([s.drives for s in self.stations], dtype=np.float64)[:, None]
        finite = np.isfinite(wait_s)
        queued = (self.destage_bytes.T @ rates) * np.where(finite, wait_s, 0.0)
        served = (self.destage_byte_seconds.T @ rates) * speed_factor
        return np.asarray((queued + served) * drives * finite, dtype=np.float64)

    def destage_share(self, station: int, rates: ArrayLike) -> float:
        """Fraction of a station's work at `rates` that is destage work."""
        r = np.asarray(rates, dtype=np.float64)
        total = float(r @ self.work[:, station])
        return float(r @ self.destage_work[:, station]) / total if total > 0 else 0.0


# --------------------------------------------------------------------------- building


def _front_end_stations(config: Configuration) -> list[Station]:
    """Host ports, host adapter cards, the two servers and the DA pairs, in that order."""
    hw = config.hardware
    stations = [Station(f"host port {i}", "host_adapter", 1, 1) for i in range(hw.host_ports)]
    cards = host_adapter.cards_for_ports(hw.host_adapter, hw.host_ports)
    stations += [Station(f"host adapter card {c}", "host_adapter", 1, 1) for c in range(cards)]
    stations += [
        Station(f"server {s} ({hw.processor.ways}-way)", "processor", hw.processor.ways, 1)
        for s in range(hw.system.servers)
    ]
    stations += [Station(f"DA pair {i}", "device_adapter", 1, 1) for i in range(hw.da_pairs)]
    return stations


def _rank_station(rank: Rank) -> Station:
    name = f"rank {rank.index} ({rank.pool}, {rank.drive.name} {rank.raid.name}, DA {rank.da_pair})"
    return Station(name, "rank", 1, rank.active_drives)


@dataclass(frozen=True)
class _Shares:
    """Where one workload's work goes: per rank station its share of the small random and of
    the sequential back-end work, and the share of its I/O each server handles."""

    small: dict[int, float]
    mb: dict[int, float]
    servers: tuple[float, ...]


def _workload_shares(
    workload: WorkloadConfig, layout: PoolLayout, pool_ranks: Sequence[RankInfo], servers: int
) -> _Shares:
    """Tier shares from the placement, split within a tier by the layout's rank shares; the
    servers by the data each owns (an I/O is handled by the server owning its rank)."""
    wp = layout.placement.workload(workload.name)
    small: dict[int, float] = {}
    mb: dict[int, float] = {}
    owned = [0.0] * servers
    for info in pool_ranks:
        share = wp.on(info.rank.tier)
        part = layout.ranks[info.rank.index]
        small[info.station] = share.small_io_share * part.small_io_share
        mb[info.station] = share.mb_share * part.data_share  # the MB follow the data
        owned[info.rank.server] += share.capacity_used_gb * part.data_share
    total = sum(owned)
    split = tuple(o / total for o in owned) if total > 0 else tuple([1.0 / servers] * servers)
    return _Shares(small, mb, split)


def build_network(
    config: Configuration, layout: Mapping[str, PoolLayout], costs: OpCosts | None = None
) -> Network:
    """Stations and flows of `config` with its data placed as `layout` says."""
    costs = costs or OpCosts(config)
    hw = config.hardware
    stations = _front_end_stations(config)
    n_ports, n_servers = hw.host_ports, hw.system.servers
    n_cards = host_adapter.cards_for_ports(hw.host_adapter, n_ports)
    ports = range(n_ports)
    # Ports fill cards in order (ports 0-3 on card 0, ...): a card carries its ports' I/O.
    card_of = [n_ports + k // hw.host_adapter.ports_per_adapter for k in ports]
    server_index = [n_ports + n_cards + s for s in range(n_servers)]
    da_index = [n_ports + n_cards + n_servers + d for d in range(hw.da_pairs)]
    infos: list[RankInfo] = []
    for rank in config.ranks:
        pool_layout = layout.get(rank.pool)
        # A pool no workload uses holds no data: its ranks get no I/O.
        span = (
            pool_layout.ranks[rank.index].span_fraction
            if pool_layout is not None
            else EMPTY_FRACTION
        )
        infos.append(RankInfo(rank, span, len(stations)))
        stations.append(_rank_station(rank))

    port_time: dict[float, ServiceMoments] = {}
    card_command = host_adapter.card_command(hw.host_adapter)
    flows: list[Flow] = []
    costs_of = hw.system.processor_costs
    for w, workload in enumerate(config.workloads):
        pool_layout = layout.get(workload.pool)
        if pool_layout is None:
            continue
        mix = workload.mix
        pool_ranks = [i for i in infos if i.rank.pool == workload.pool]
        shares = _workload_shares(workload, pool_layout, pool_ranks, n_servers)
        for io_class in IO_CLASSES:
            p = mix.fractions[io_class]
            if p <= 0:
                continue
            size = mix.size_bytes(io_class)
            if size not in port_time:
                port_time[size] = host_adapter.port_service(hw.host_adapter, size)
            flows += [
                Flow(w, io_class, k, p / n_ports, 1 / n_ports, port_time[size], True, False, size)
                for k in ports
            ]
            # The card: its command is host-visible; its link transfer is pipelined with the
            # port's (host_adapter.card_transfer), so it loads the card and is not waited for.
            card_link = host_adapter.card_transfer(hw.host_adapter, size)
            for k in ports:
                card = card_of[k]
                flows.append(
                    Flow(
                        w, io_class, card, p / n_ports, 1 / n_ports, card_command, True, False, size
                    )
                )
                flows.append(
                    Flow(w, io_class, card, p / n_ports, 0.0, card_link, False, False, size)
                )
            core = processor.core_time(costs_of, _PROCESSOR_WORK[io_class])
            flows += [
                Flow(w, io_class, k, p * share, share, core, True, False, size)
                for share, k in zip(shares.servers, server_index, strict=True)
                if share > 0
            ]
            if io_class in ("random_write", "sequential_write"):
                # One destage per destaged write (random) or per destaged track (sequential).
                per_write = mix.destage_ratio * (
                    mix.backend_op(io_class)[1]
                    if io_class == "random_write"
                    else size / cache.TRACK_BYTES
                )
                destage_core = processor.core_time(costs_of, "destage")
                flows += [
                    Flow(
                        w, io_class, k, p * per_write * share, 0.0, destage_core, False, True, size
                    )
                    for share, k in zip(shares.servers, server_index, strict=True)
                    if share > 0 and per_write > 0
                ]
        for info in pool_ranks:
            small, mb = shares.small[info.station], shares.mb[info.station]
            if small <= 0 and mb <= 0:
                continue
            n_drives = info.rank.active_drives
            for op in costs.of(w, mix, info.rank, info.span):
                share = mb if op.sequential else small
                if share <= 0:
                    continue
                p = mix.fractions[op.io_class]
                rank_ops = p * share * op.count
                visible = op.io_class == "read_miss"
                visits = share * op.count if visible else 0.0
                destage = op.io_class.endswith("write")
                flows.append(
                    Flow(
                        w,
                        op.io_class,
                        info.station,
                        rank_ops / n_drives,
                        visits,
                        op.drive,
                        visible,
                        destage,
                        op.size_bytes,
                    )
                )
                flows.append(
                    Flow(
                        w,
                        op.io_class,
                        da_index[info.rank.da_pair],
                        rank_ops,
                        visits,
                        op.da,
                        visible,
                        destage,
                        op.size_bytes,
                    )
                )
    return _assemble(config, stations, flows, infos, layout)


def _assemble(
    config: Configuration,
    stations: list[Station],
    flows: list[Flow],
    infos: list[RankInfo],
    layout: Mapping[str, PoolLayout],
) -> Network:
    W, K = len(config.workloads), len(stations)
    arrival = np.zeros((W, K))
    visible_arrival = np.zeros((W, K))
    work = np.zeros((W, K))
    destage = np.zeros((W, K))
    asynchronous = np.zeros((W, K))
    destage_bytes = np.zeros((W, K))
    destage_byte_seconds = np.zeros((W, K))
    for f in flows:
        arrival[f.workload, f.station] += f.rate
        busy = f.rate * f.moments.mean_s
        work[f.workload, f.station] += busy
        if f.destage:
            destage[f.workload, f.station] += busy
            destage_bytes[f.workload, f.station] += f.rate * f.size_bytes
            destage_byte_seconds[f.workload, f.station] += busy * f.size_bytes
        if f.visible:
            visible_arrival[f.workload, f.station] += f.rate
        else:
            asynchronous[f.workload, f.station] += busy
    gains: list[FloatArray | None] = [None] * K
    capacity = np.ones(K)
    for k, st in enumerate(stations):
        if st.servers > 1:
            capacity[k] = st.servers
    for info in infos:
        gain = drive_gain(info.rank, info.span)
        gains[info.station] = gain
        capacity[info.station] = float(gain[-1])
    return Network(
        config=config,
        stations=tuple(stations),
        flows=tuple(flows),
        ranks=tuple(infos),
        layout=layout,
        arrival=arrival,
        visible_arrival=visible_arrival,
        work=work,
        destage_work=destage,
        async_work=asynchronous,
        destage_bytes=destage_bytes,
        destage_byte_seconds=destage_byte_seconds,
        gains=tuple(gains),
        capacity=capacity,
        times=_class_times(config, stations, flows),
    )


def front_end_delay_s(
    config: Configuration, io_class: IoClass, size_bytes: float, counted_s: float
) -> float:
    """The fixed time of one host I/O that no station times (a delay, not a queue).

    The system's `front_end_latency_us` is the fixed light-load front-end time of an I/O
    (DOMAIN.md C6); the port's overhead and the processor's work are part of it, so only the
    rest is added (`host_adapter.front_end_delay_s`; `counted_s` is that station time, the
    port's transfer excluded). A write also copies its data into cache and into the other
    server's NVS (`write_copy_us_per_kib`, C6's time per page beyond the link). A one-page
    write at light load then takes exactly the log-write model's single I/O (docs/model.md
    §6b): fixed time + the page over the port + its copy."""
    system = config.hardware.system
    delay = host_adapter.front_end_delay_s(system, counted_s)
    if io_class in ("random_write", "sequential_write"):
        delay += system.write_copy_us_per_kib * US * size_bytes / KIB
    return delay


def _class_times(
    config: Configuration, stations: Sequence[Station], flows: Sequence[Flow]
) -> ClassTimes:
    keys = sorted({(f.workload, f.io_class) for f in flows if f.visible})
    index = {k: i for i, k in enumerate(keys)}
    K = len(stations)
    visits = np.zeros((len(keys), K))
    service = np.zeros((len(keys), K))
    for f in flows:
        if not f.visible:
            continue
        g = index[(f.workload, f.io_class)]
        visits[g, f.station] += f.visits
        service[g, f.station] += f.visits * f.moments.mean_s
    kind_idx = np.array([KINDS.index(s.kind) for s in stations], dtype=np.int64)
    front = np.isin(kind_idx, [KINDS.index("host_adapter"), KINDS.index("processor")])
    port_bytes_per_s = config.hardware.host_adapter.port_bandwidth_mb_s * MB
    delay = np.zeros(len(keys))
    for g, (w, io_class) in enumerate(keys):
        size = config.workloads[w].mix.size_bytes(io_class)
        counted = float(service[g, front].sum()) - size / port_bytes_per_s
        delay[g] = front_end_delay_s(config, io_class, size, max(counted, 0.0))
    return ClassTimes(tuple(keys), visits, service, kind_idx, delay)
