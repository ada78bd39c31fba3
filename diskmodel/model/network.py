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
`components.drive.command_queueing_gain`, with the reordering credited to the positioning part
of the station's own mix). The product form takes service times as exponential; the stations'
own variability (`Network.scv`: a drive's from its seek, rotation and transfer, the adapters'
and processors' fixed per operation) then scales the waits by (1 + scv) / 2, the ratio of
Pollaczek-Khinchine's M/G/1 wait to the exponential one, in both solutions (docs/model.md §2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.components import cache, host_adapter, processor
from diskmodel.configuration import Configuration, Rank, WorkloadConfig
from diskmodel.model.costs import OpCosts, queue_limit
from diskmodel.model.layout import PoolLayout
from diskmodel.model.rank_shares import EMPTY_FRACTION
from diskmodel.units import KIB, MB, US
from diskmodel.vocabulary import COMPONENT_KIND, COMPONENT_KINDS
from diskmodel.workload import IO_CLASSES, IoClass, IoMix

FloatArray = NDArray[np.float64]
_NONE = np.zeros(0, dtype=np.int64)

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
    scv: FloatArray  # [K] squared coefficient of variation of a station's service
    times: ClassTimes

    @property
    def workloads(self) -> tuple[WorkloadConfig, ...]:
        return self.config.workloads

    @property
    def wait_factor(self) -> FloatArray:
        """[K] a station's mean wait over the exponential (product-form) one: (1 + scv) / 2,
        Pollaczek-Khinchine's for one server (exact there), Allen-Cunneen's for several (with
        Poisson arrivals), applied as well to a drive with command queueing (approximate)."""
        return (1.0 + self.scv) / 2.0

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

    @cached_property
    def solved_as(self) -> tuple[list[int], list[int], list[int], FloatArray]:
        """How the open solution treats the stations, fixed per network: the single-server
        ones (M/M/1), the multi-server ones (M/M/c) and the ranks (load-dependent), and the
        ranks' drives' alpha(1..D) stacked [R, Dmax], each cut where it stops changing and a
        shorter one held at its last value (the station holds alpha(D) beyond its own D, so
        both are exact: an SSD's 32 entries constant from its 8 channels on take 8 columns,
        not 32). Ranks of a kind on one span share one gain array, cut once."""
        kinds = [s.kind for s in self.stations]
        servers = [s.servers for s in self.stations]
        single = [k for k, kind in enumerate(kinds) if kind != "rank" and servers[k] == 1]
        multi = [k for k, kind in enumerate(kinds) if kind != "rank" and servers[k] > 1]
        drives = [k for k, kind in enumerate(kinds) if kind == "rank"]
        cut: dict[int, FloatArray] = {}
        gains = []
        for k in drives:
            g = self.gains[k]
            assert g is not None
            if id(g) not in cut:
                changing = np.flatnonzero(g != g[-1])
                cut[id(g)] = g[: int(changing[-1]) + 2] if changing.size else g[:1]
            gains.append(cut[id(g)])
        depth = max((len(g) for g in gains), default=1)
        padded = np.empty((len(drives), depth))
        for i, g in enumerate(gains):
            padded[i, : len(g)] = g
            padded[i, len(g) :] = g[-1]
        return single, multi, drives, padded

    def stations_of_kind(self, kind: str) -> NDArray[np.int64]:
        """Indices of the stations of a component kind, in order."""
        return self._kind_members[COMPONENT_KINDS.index(kind)] if kind in COMPONENT_KIND else _NONE

    @cached_property
    def _kind_members(self) -> list[NDArray[np.int64]]:
        """Per component kind (in `COMPONENT_KINDS` order), its stations
        (`times.kind_of_station`)."""
        kinds = self.times.kind_of_station
        return [np.flatnonzero(kinds == i).astype(np.int64) for i in range(len(COMPONENT_KINDS))]

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

    def dirty_bytes_by_rank(
        self, rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
    ) -> FloatArray:
        """`dirty_bytes` per rank [R, P], in rank order: the writes waiting for or in destage
        to each rank, which the per-rank NVS limit bounds (`cache.rank_nvs_limit_bytes`)."""
        per_station = self._dirty_by_station(rates, wait_s, speed_factor)
        return np.asarray(per_station[[info.station for info in self.ranks]], dtype=np.float64)

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
    on = {share.tier: share for share in layout.placement.workload(workload.name).tiers}
    small: dict[int, float] = {}
    mb: dict[int, float] = {}
    owned = [0.0] * servers
    for info in pool_ranks:
        share = on[info.rank.tier]
        part = layout.ranks[info.rank.index]
        small[info.station] = share.small_io_share * part.small_io_share
        mb[info.station] = share.mb_share * part.data_share  # the MB follow the data
        owned[info.rank.server] += share.capacity_used_gb * part.data_share
    total = sum(owned)
    split = tuple(o / total for o in owned) if total > 0 else tuple([1.0 / servers] * servers)
    return _Shares(small, mb, split)


class _Flows:
    """The network's flows as columns, in the order they are added: each flow is the work of
    one workload's I/O class (or its asynchronous back-end work) at one station.

    rate: arrivals at one server of the station (a rank: one drive) per host I/O of the
    workload. visits: visits per host I/O *of the class* (host-visible flows only; a rank
    visit is to one of its drives). mean_s: the mean service of one arrival. size_bytes: bytes
    moved per operation. visible: the host waits for it; destage: destage work.

    Columns, not one object per flow: a run builds a network per placement, a hundred or more,
    each of some 850 flows. The host ports' and cards' flows, the same in every network of a
    configuration, lead as arrays made once (`NetworkBuilder`); the servers' flows are few per
    class and kept in lists; a pool's rank flows arrive as arrays (`_rank_flows`). No two
    kinds meet at a station, and each keeps its order, so summing them per (workload, station)
    (`np.bincount` adds in index order) gives, to the last bit, the sums of a loop over each
    station's flows in the order added."""

    def __init__(self, leading: tuple[np.ndarray, ...] | None = None) -> None:
        self._leading = leading
        self._lists: tuple[list[Any], ...] = tuple([] for _ in range(9))
        self._arrays: list[tuple[np.ndarray, ...]] = []

    def add(
        self,
        w: int,
        io_class: IoClass,
        stations: Sequence[int],
        *,
        rate: float | list[float],
        visits: float | list[float],
        mean_s: float | list[float],
        visible: bool | list[bool],
        destage: bool,
        size_bytes: float,
    ) -> None:
        """Flows of workload `w`'s `io_class` at `stations`; each column one value for all
        or one per station."""
        n = len(stations)
        lists = self._lists
        lists[0].extend([w] * n)
        lists[1].extend([IO_CLASSES.index(io_class)] * n)
        lists[2].extend(stations)
        for k, value in enumerate((rate, visits, mean_s, visible, destage, size_bytes), start=3):
            lists[k].extend(value if isinstance(value, list) else [value] * n)

    def add_arrays(self, *columns: np.ndarray) -> None:
        """Flows given as arrays: workload, class index, station and the columns of `add`."""
        self._arrays.append(columns)

    def columns(self) -> tuple[np.ndarray, ...]:
        """(workload, class index, station, rate, visits, mean_s, visible, destage,
        size_bytes): the leading columns given when made, then the flows given as lists, then
        those given as arrays, each in the order added."""
        listed = [np.array(col, dtype=t) for col, t in zip(self._lists, _TYPES, strict=True)]
        lead = self._leading or tuple(np.empty(0, dtype=t) for t in _TYPES)
        return tuple(
            np.concatenate([lead[k], listed[k], *(a[k] for a in self._arrays)]).astype(
                t, copy=False
            )
            for k, t in enumerate(_TYPES)
        )


_TYPES = (np.int64, np.int64, np.int64) + (np.float64,) * 3 + (bool, bool, np.float64)
"""The dtypes of `_Flows.columns`."""


def _rank_flows(
    costs: OpCosts,
    w: int,
    mix: IoMix,
    pool_ranks: Sequence[RankInfo],
    shares: _Shares,
    da_index: Sequence[int],
    shape: list[tuple[np.ndarray, ...]],
) -> tuple[np.ndarray, ...]:
    """Workload `w`'s flows at its pool's ranks and their DA pairs, as `_Flows` columns: per
    rank, per back-end operation (`OpCosts.op_table`) with a positive share, the flow at one
    of the rank's drives and then the one at its DA pair. The random operations take the
    rank's share of the small I/O, the sequential ones its share of the MB. Appends to
    `shape` the rank stations of the drive flows with, per host I/O of the workload, their
    operations, busy time, its positioning part (what the drive's reordering can shorten) and
    the operations' second moments of service."""
    # Ranks of a kind on one span share a table: looked up once each (34 look-ups a network
    # and workload on measured-peaks, for two tables).
    by_kind: dict[tuple[str, str, float], FloatArray] = {}
    tables = []
    for info in pool_ranks:
        kind = (info.rank.drive.name, info.rank.raid.name, info.span)
        table = by_kind.get(kind)
        if table is None:
            table = by_kind[kind] = costs.op_table(w, mix, info.rank, info.span)
        tables.append(table)
    counts = [len(t) for t in tables]
    table = np.concatenate(tables)

    def per_op(values: list[float]) -> np.ndarray:
        return np.repeat(np.array(values, dtype=np.float64), counts)

    small = per_op([shares.small[info.station] for info in pool_ranks])
    mb = per_op([shares.mb[info.station] for info in pool_ranks])
    n_drives = per_op([info.rank.active_drives for info in pool_ranks])
    rank_station = per_op([info.station for info in pool_ranks])
    da_station = per_op([da_index[info.rank.da_pair] for info in pool_ranks])
    (io_class, fraction, count, sequential, visible, destage, size, drive_s, da_s, pos_s, s2) = (
        table.T
    )
    share = np.where(sequential > 0, mb, small)
    keep = share > 0
    rank_ops = fraction * share * count
    visits = np.where(visible > 0, share * count, 0.0)
    stations = rank_station[keep].astype(np.int64)
    at = rank_ops[keep]
    shape.append((stations, at, at * drive_s[keep], at * pos_s[keep], at * s2[keep]))

    def both(at_drive: np.ndarray, at_da: np.ndarray) -> np.ndarray:
        return np.stack([at_drive[keep], at_da[keep]], axis=1).ravel()

    def twice(values: np.ndarray) -> np.ndarray:
        return np.repeat(values[keep], 2)

    n = 2 * int(np.count_nonzero(keep))
    return (
        np.full(n, w, dtype=np.int64),
        twice(io_class).astype(np.int64),
        both(rank_station, da_station).astype(np.int64),
        both(rank_ops / n_drives, rank_ops),
        twice(visits),
        both(drive_s, da_s),
        twice(visible > 0),
        twice(destage > 0),
        twice(size),
    )


def build_network(
    config: Configuration, layout: Mapping[str, PoolLayout], costs: OpCosts | None = None
) -> Network:
    """Stations and flows of `config` with its data placed as `layout` says."""
    return NetworkBuilder(config, costs).build(layout)


class NetworkBuilder:
    """The networks of one configuration, one per placement (`build_network`). What no
    placement changes is made once: the stations, and the host ports' and adapter cards' flows
    (the placement moves only the servers' and the ranks' work). Those flows come first in
    every network's columns, the two kinds never meeting at a station, so each station's sums
    are the ones a network built from scratch has, to the bit (`_Flows`)."""

    def __init__(self, config: Configuration, costs: OpCosts | None = None) -> None:
        self.config = config
        self.costs = costs or OpCosts(config)
        self._host: dict[tuple[int, ...], tuple[np.ndarray, ...]] = {}
        hw = config.hardware
        front = _front_end_stations(config)
        n_ports, n_servers = hw.host_ports, hw.system.servers
        n_cards = host_adapter.cards_for_ports(hw.host_adapter, n_ports)
        # Ports fill cards in order (ports 0-3 on card 0, ...): a card carries its ports' I/O;
        # each port's I/O there is two flows, its command and its link transfer.
        self._cards = [
            n_ports + k // hw.host_adapter.ports_per_adapter for k in range(n_ports) for _ in (0, 1)
        ]
        self._servers = [n_ports + n_cards + s for s in range(n_servers)]
        self._da_pairs = [n_ports + n_cards + n_servers + d for d in range(hw.da_pairs)]
        # Every rank's station follows the front end's, in rank order.
        self._stations = (*front, *(_rank_station(rank) for rank in config.ranks))
        self._first_rank = len(front)
        # How the workloads' work is weighted where several share a drive (its reordering
        # gain depends on how much of the mix is positioning): by their planned rates, a
        # closed workload as the busiest open one (or 1 I/O per second with none).
        planned = [w.iops or 0.0 for w in config.workloads]
        busiest = max(planned, default=0.0) or 1.0
        self._weights = [w.iops if w.iops else busiest for w in config.workloads]

    def _host_flows(self, active: tuple[int, ...]) -> tuple[np.ndarray, ...]:
        """The host ports' and adapter cards' flows of the workloads `active`, as columns."""
        found = self._host.get(active)
        if found is not None:
            return found
        hw = self.config.hardware
        n_ports = hw.host_ports
        ports = list(range(n_ports))
        cards = self._cards
        card_command = host_adapter.card_command(hw.host_adapter).mean_s
        flows = _Flows()
        for w in active:
            mix = self.config.workloads[w].mix
            for io_class in IO_CLASSES:
                p = mix.fractions[io_class]
                if p <= 0:
                    continue
                size = mix.size_bytes(io_class)
                at_port = p / n_ports
                flows.add(
                    w, io_class, ports, rate=at_port, visits=1 / n_ports,
                    mean_s=host_adapter.port_service(hw.host_adapter, size).mean_s, visible=True,
                    destage=False, size_bytes=size,
                )  # fmt: skip
                # The card: its command is host-visible; its link transfer is pipelined with
                # the port's (host_adapter.card_transfer), so it loads the card and is not
                # waited for.
                card_link = host_adapter.card_transfer(hw.host_adapter, size).mean_s
                flows.add(
                    w, io_class, cards, rate=at_port, visits=[1 / n_ports, 0.0] * n_ports,
                    mean_s=[card_command, card_link] * n_ports, visible=[True, False] * n_ports,
                    destage=False, size_bytes=size,
                )  # fmt: skip
        found = self._host[active] = flows.columns()
        return found

    def build(self, layout: Mapping[str, PoolLayout]) -> Network:
        """The network with the data placed as `layout` says."""
        config, costs = self.config, self.costs
        hw = config.hardware
        n_servers = hw.system.servers
        server_index, da_index = self._servers, self._da_pairs
        infos: list[RankInfo] = []
        for i, rank in enumerate(config.ranks):
            pool_layout = layout.get(rank.pool)
            # A pool no workload uses holds no data: its ranks get no I/O.
            span = (
                pool_layout.ranks[rank.index].span_fraction
                if pool_layout is not None
                else EMPTY_FRACTION
            )
            infos.append(RankInfo(rank, span, self._first_rank + i))

        active = tuple(w for w, wl in enumerate(config.workloads) if wl.pool in layout)
        flows = _Flows(self._host_flows(active))
        K = len(self._stations)
        # Per rank station, over its workloads weighted by their planned rates: operations,
        # busy time, positioning time and second moments of service at queue length one.
        drives = np.zeros((4, K))
        costs_of = hw.system.processor_costs
        for w in active:
            workload = config.workloads[w]
            pool_layout = layout[workload.pool]
            mix = workload.mix
            pool_ranks = [i for i in infos if i.rank.pool == workload.pool]
            shares = _workload_shares(workload, pool_layout, pool_ranks, n_servers)
            owned = [(s, k) for s, k in zip(shares.servers, server_index, strict=True) if s > 0]
            for io_class in IO_CLASSES:
                p = mix.fractions[io_class]
                if p <= 0:
                    continue
                size = mix.size_bytes(io_class)
                core = processor.core_time(costs_of, _PROCESSOR_WORK[io_class]).mean_s
                flows.add(
                    w, io_class, [k for _, k in owned], rate=[p * s for s, _ in owned],
                    visits=[s for s, _ in owned], mean_s=core, visible=True, destage=False,
                    size_bytes=size,
                )  # fmt: skip
                if io_class in ("random_write", "sequential_write"):
                    # One destage per destaged write (random) or per destaged track
                    # (sequential).
                    per_write = mix.destage_ratio * (
                        mix.backend_op(io_class)[1]
                        if io_class == "random_write"
                        else size / cache.TRACK_BYTES
                    )
                    if per_write > 0:
                        flows.add(
                            w, io_class, [k for _, k in owned],
                            rate=[p * per_write * s for s, _ in owned], visits=0.0,
                            mean_s=processor.core_time(costs_of, "destage").mean_s,
                            visible=False, destage=True, size_bytes=size,
                        )  # fmt: skip
            if pool_ranks:
                parts: list[tuple[np.ndarray, ...]] = []
                flows.add_arrays(*_rank_flows(costs, w, mix, pool_ranks, shares, da_index, parts))
                weight = self._weights[w]
                for at, *sums in parts:
                    for row, values in enumerate(sums):
                        drives[row] += weight * np.bincount(at, weights=values, minlength=K)
        return _assemble(config, costs, self._stations, flows, infos, layout, drives, self._weights)


def _summed(cell: NDArray[np.int64], weights: FloatArray, rows: int, K: int) -> FloatArray:
    """[rows, K]: the weights added per cell (row x K + station), in their order."""
    out = np.bincount(cell, weights=weights, minlength=rows * K)
    return np.asarray(out, dtype=np.float64).reshape(rows, K)


def _assemble(
    config: Configuration,
    costs: OpCosts,
    stations: Sequence[Station],
    flows: _Flows,
    infos: list[RankInfo],
    layout: Mapping[str, PoolLayout],
    drive_sums: FloatArray,
    weights: Sequence[float],
) -> Network:
    W, K = len(config.workloads), len(stations)
    w, io_class, station, rate, visits, mean_s, visible, destage, size = flows.columns()
    cell = w * K + station

    def summed(where: np.ndarray | None, weights: np.ndarray) -> FloatArray:
        """Per (workload, station) [W, K], the weights of the flows `where` is true, added
        in flow order (as a loop over the flows would)."""
        at, by = (cell, weights) if where is None else (cell[where], weights[where])
        return _summed(at, by, W, K)

    busy = rate * mean_s
    # Every station's service variability (squared coefficient of variation at queue length
    # one), over its flows weighted by the workloads' planned rates: a port's, card's, server's
    # or DA pair's operation takes a fixed time for its kind and size, a drive's varies with
    # its seek and rotation (the operations' own second moments).
    flow_weight = rate * np.asarray(weights, dtype=np.float64)[w]
    ops = np.bincount(station, weights=flow_weight, minlength=K)
    first = np.bincount(station, weights=flow_weight * mean_s, minlength=K)
    second = np.bincount(station, weights=flow_weight * mean_s * mean_s, minlength=K)
    drive_ops, drive_busy, drive_positioning, drive_second = drive_sums
    is_drive = drive_ops > 0
    ops, first = np.where(is_drive, drive_ops, ops), np.where(is_drive, drive_busy, first)
    second = np.where(is_drive, drive_second, second)
    with np.errstate(invalid="ignore", divide="ignore"):
        scv = np.where(first > 0, second * ops / np.where(first > 0, first * first, 1.0) - 1, 1.0)
        positioning_share = np.where(
            drive_busy > 0, drive_positioning / np.where(drive_busy > 0, drive_busy, 1.0), 1.0
        )
    gains: list[FloatArray | None] = [None] * K
    capacity = np.ones(K)
    for k, st in enumerate(stations):
        if st.servers > 1:
            capacity[k] = st.servers
    commands = config.hardware.system.device_adapter.commands_per_hdd
    for info in infos:
        depth = queue_limit(info.rank, commands)
        gain = costs.gain(info.rank, info.span, depth, float(positioning_share[info.station]))
        gains[info.station] = gain
        capacity[info.station] = float(gain[-1])
    return Network(
        config=config,
        stations=tuple(stations),
        ranks=tuple(infos),
        layout=layout,
        arrival=summed(None, rate),
        visible_arrival=summed(visible, rate),
        work=summed(None, busy),
        destage_work=summed(destage, busy),
        async_work=summed(~visible, busy),
        destage_bytes=summed(destage, rate * size),
        destage_byte_seconds=summed(destage, busy * size),
        gains=tuple(gains),
        capacity=capacity,
        scv=np.maximum(scv, 0.0),
        times=_class_times(
            config,
            stations,
            w[visible],
            io_class[visible],
            station[visible],
            visits[visible],
            mean_s[visible],
        ),
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


_CLASS_NAMES: tuple[IoClass, ...] = tuple(sorted(IO_CLASSES))
_BY_NAME = np.array([_CLASS_NAMES.index(c) for c in IO_CLASSES], dtype=np.int64)
"""Each class index's place among the classes in name order."""


def _class_times(
    config: Configuration,
    stations: Sequence[Station],
    w: NDArray[np.int64],
    io_class: NDArray[np.int64],
    station: NDArray[np.int64],
    visits: FloatArray,
    mean_s: FloatArray,
) -> ClassTimes:
    """From the host-visible flows (columns, in flow order)."""
    # The (workload, class) groups in (workload, class name) order, each flow's group found as
    # the rank of its code among the distinct ones.
    C = len(IO_CLASSES)
    codes, group = np.unique(w * C + _BY_NAME[io_class], return_inverse=True)
    keys = [(int(code) // C, _CLASS_NAMES[int(code) % C]) for code in codes]
    K = len(stations)
    G = len(keys)
    cell = group.astype(np.int64) * K + station
    visits_gk = _summed(cell, visits, G, K)
    service = _summed(cell, visits * mean_s, G, K)
    kind_idx = np.array([COMPONENT_KINDS.index(s.kind) for s in stations], dtype=np.int64)
    front = np.array([COMPONENT_KIND[s.kind].front_end for s in stations], dtype=np.bool_)
    port_bytes_per_s = config.hardware.host_adapter.port_bandwidth_mb_s * MB
    delay = np.zeros(G)
    for g, (wl, c) in enumerate(keys):
        size = config.workloads[wl].mix.size_bytes(c)
        counted = float(service[g, front].sum()) - size / port_bytes_per_s
        delay[g] = front_end_delay_s(config, c, size, max(counted, 0.0))
    return ClassTimes(tuple(keys), visits_gk, service, kind_idx, delay)
