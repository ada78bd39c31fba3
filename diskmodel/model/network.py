"""The storage system as stations and loads: the `Network` of one configuration at one
placement and what a load reads from it (saturation, dirty data, destage shares); it is built
by `model.network_build` (`build_network(config, layout)`), its flows by `model.flows`.

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
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.cached import cached_property
from diskmodel.configuration import Configuration, Rank, WorkloadConfig
from diskmodel.model.layout import PoolLayout
from diskmodel.vocabulary import COMPONENT_KIND, STATION_KIND_KEYS
from diskmodel.workload import IoClass

if TYPE_CHECKING:
    from diskmodel.model.copy_links import MirrorState

FloatArray = NDArray[np.float64]
_NONE = np.zeros(0, dtype=np.int64)
_RANK = STATION_KIND_KEYS.index("rank")


class Station(NamedTuple):
    """A queue: `servers` identical servers (cores); a rank stands for one of its `drives` (a
    named tuple: a network builder makes one per station, some 700 a sizing search)."""

    name: str
    kind: str
    servers: int
    drives: int


class RankInfo(NamedTuple):
    """A rank in the network: the configured rank, its data span and its station index (a
    named tuple: a network makes one per rank, and a sizing search some 500 a search)."""

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


def cut_gain(gain: FloatArray) -> FloatArray:
    """A drive's alpha(1..D) cut where it stops changing (`Network.solved_as`)."""
    changing = np.flatnonzero(gain != gain[-1])
    return gain[: int(changing[-1]) + 2] if changing.size else gain[:1]


def stacked_gains(cut: Sequence[FloatArray], rows: Sequence[int]) -> FloatArray:
    """The ranks' gains stacked [R, Dmax] (`Network.solved_as`): rank r's row is the cut
    gain `cut[rows[r]]`, padded with its last value."""
    depth = max((len(g) for g in cut), default=1)
    padded = np.empty((len(cut), depth))
    for i, g in enumerate(cut):
        padded[i, : len(g)] = g
        padded[i, len(g) :] = g[-1]
    return padded[rows] if cut else np.empty((0, depth))


def per_load(matrix: FloatArray, loads: FloatArray) -> FloatArray:
    """`matrix @ loads` for loads [.., P], each load's column a product of its own: one
    matrix-vector product per load, the same call with the same shapes whatever the other
    loads (`np.matmul` over a stack of columns), so a load's result is the same to the bit
    alone or beside others. A plain `matrix @ loads` is not: BLAS takes another kernel for
    one column than for several, with sums in another order, and the sizing search solves a
    configuration's planned load and its growth loads together (`open.station_states`)."""
    by_load = np.matmul(matrix, np.ascontiguousarray(loads.T)[:, :, None])  # [P, .., 1]
    return np.ascontiguousarray(by_load[:, :, 0].T)  # the callers' layout: loads along rows


def dirty_bytes_near(
    nets: Sequence[Network], rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
) -> FloatArray:
    """`Network.dirty_bytes` of several networks [N, P], at their loads rates [N, W, P] (one
    W for all) and with their stations' waits and speed factors stacked one network under
    the other [sum of K, P], all at once, each summed in its own order: within some 1e-15
    of each network's (every term is >= 0), for a test against a limit with a margin far
    beyond that (`operating._loads_together`), never for a figure."""
    sizes = [len(net.stations) for net in nets]
    per_row = np.repeat(rates, sizes, axis=0)  # each station's network's rates [sum K, W, P]
    queued = np.einsum("kw,kwp->kp", np.concatenate([n.destage_bytes.T for n in nets]), per_row)
    served = np.einsum(
        "kw,kwp->kp", np.concatenate([n.destage_byte_seconds.T for n in nets]), per_row
    )
    finite = np.isfinite(wait_s)
    drives = np.concatenate([n._station_drives for n in nets])
    dirty = (queued * np.where(finite, wait_s, 0.0) + served * speed_factor) * drives * finite
    return np.add.reduceat(dirty, np.cumsum([0, *sizes[:-1]]), axis=0)


def per_load_sum(values: FloatArray) -> FloatArray:
    """`values.sum(axis=0)` [P] of values [K, P], each load's column summed in the same order
    alone or beside others (along a contiguous row: numpy sums a strided axis in another
    order than a contiguous one)."""
    return np.ascontiguousarray(values.T).sum(axis=1)


def station_classes(
    servers: FloatArray, kind_of_station: NDArray[np.int64]
) -> tuple[list[int], list[int], list[int]]:
    """How the open solution treats stations of these servers (`Station.servers`) and kinds
    (`ClassTimes.kind_of_station`): the single-server ones (M/M/1), the multi-server ones
    (M/M/c) and the ranks (load-dependent), by index (`Network.solved_as`)."""
    is_rank = kind_of_station == _RANK
    one = servers == 1
    single = np.flatnonzero(~is_rank & one).tolist()
    multi = np.flatnonzero(~is_rank & ~one).tolist()
    return single, multi, np.flatnonzero(is_rank).tolist()


def index_arrays(
    single: list[int], multi: list[int], drives: list[int], servers: FloatArray
) -> tuple[NDArray[np.int64], NDArray[np.int64], FloatArray, NDArray[np.int64]]:
    """`Network.solved_as`'s stations as arrays (`Network.open_entries`): the single-server,
    the multi-server ones and their servers, and the drives."""
    return (
        np.asarray(single, dtype=np.int64),
        np.asarray(multi, dtype=np.int64),
        servers[multi],
        np.asarray(drives, dtype=np.int64),
    )


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
    mirror: MirrorState | None = None  # Metro Mirror's links and fixed times (model.copy_links)

    @property
    def workloads(self) -> tuple[WorkloadConfig, ...]:
        return self.config.workloads

    @property
    def wait_factor(self) -> FloatArray:
        """[K] a station's mean wait over the exponential (product-form) one: (1 + scv) / 2,
        Pollaczek-Khinchine's for one server (exact there), Allen-Cunneen's for several (with
        Poisson arrivals), applied as well to a drive with command queueing (approximate)."""
        return (1.0 + self.scv) / 2.0

    @cached_property
    def servers(self) -> FloatArray:
        """[K] each station's servers (`Station.servers`)."""
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
        single, multi, drives = station_classes(self.servers, self.times.kind_of_station)
        # Each distinct gain cut and padded once; a rank's row is its gain's.
        distinct: dict[int, int] = {}
        cut: list[FloatArray] = []
        rows = []
        for k in drives:
            g = self.gains[k]
            assert g is not None
            row = distinct.get(id(g))
            if row is None:
                row = distinct[id(g)] = len(cut)
                cut.append(cut_gain(g))
            rows.append(row)
        return single, multi, drives, stacked_gains(cut, rows)

    @cached_property
    def open_entries(
        self,
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], FloatArray, NDArray[np.int64], FloatArray]:
        """`solved_as` as arrays for the open solution of many networks together
        (`model.open.station_states_many`): the single-server, multi-server and drive
        stations' indices, the multi-server ones' servers and every station's wait factor."""
        single, multi, drives, _ = self.solved_as
        return (*index_arrays(single, multi, drives, self.servers), self.wait_factor)

    def given_open_form(
        self,
        servers: FloatArray,
        indices: tuple[list[int], list[int], list[int]],
        arrays: tuple[NDArray[np.int64], NDArray[np.int64], FloatArray, NDArray[np.int64]],
        gains: FloatArray,
    ) -> None:
        """Takes `servers`, `solved_as` and `open_entries` from the network's builder, which
        holds the stations' servers and kinds once per configuration (`servers`; `indices`
        and `arrays` as `solved_as` and `index_arrays` make them from those) and the ranks'
        distinct gains (`gains`, as `stacked_gains` makes them): every network is solved, and
        these are what the open solution reads first, to the bit what they work out."""
        worked_out = self.__dict__
        worked_out["servers"] = servers
        worked_out["solved_as"] = (*indices, gains)
        worked_out["open_entries"] = (*arrays, self.wait_factor)

    @cached_property
    def visited(self) -> FloatArray:
        """[G, K] 1.0 where a host-visible class visits a station (its response is unknown
        once the station saturates), else 0.0."""
        return (self.times.visits > 0).astype(np.float64)

    def stations_of_kind(self, kind: str) -> NDArray[np.int64]:
        """Indices of the stations of a component kind, in order."""
        return (
            self._kind_members[STATION_KIND_KEYS.index(kind)] if kind in COMPONENT_KIND else _NONE
        )

    @cached_property
    def _kind_members(self) -> list[NDArray[np.int64]]:
        """Per station kind (in `STATION_KIND_KEYS` order), its stations
        (`times.kind_of_station`)."""
        kinds = self.times.kind_of_station
        members = np.argsort(kinds, kind="stable")
        ends = np.cumsum(np.bincount(kinds, minlength=len(STATION_KIND_KEYS))).tolist()
        return [members[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True)]

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
        return per_load_sum(self._dirty_by_station(rates, wait_s, speed_factor))

    def dirty_bytes_by_server(
        self, rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
    ) -> FloatArray:
        """`dirty_bytes` per server [S, P]: each server's NVS holds the writes to the ranks it
        owns (and those its processors are destaging); a DA pair serves ranks of both servers,
        so its share is split between them in proportion to the ranks of each it serves."""
        return self.dirty_bytes_by_server_and_rank(rates, wait_s, speed_factor)[0]

    def dirty_bytes_by_rank(
        self, rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
    ) -> FloatArray:
        """`dirty_bytes` per rank [R, P], in rank order: the writes waiting for or in destage
        to each rank, which the per-rank NVS limit bounds (`cache.rank_nvs_limit_bytes`)."""
        return self.dirty_bytes_by_server_and_rank(rates, wait_s, speed_factor)[1]

    def dirty_bytes_by_server_and_rank(
        self, rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        """`dirty_bytes_by_server` and `dirty_bytes_by_rank`, from one sum per station."""
        per_station = self._dirty_by_station(rates, wait_s, speed_factor)
        by_server = per_load(self._nvs_owner.T, per_station)
        by_rank = np.asarray(per_station[self._rank_stations], dtype=np.float64)
        return by_server, by_rank

    @cached_property
    def _nvs_owner(self) -> FloatArray:
        """[K, S] the share of each station's dirty data held by each server's NVS
        (`dirty_bytes_by_server`): fixed per network (its ranks, servers and DA pairs)."""
        servers = self.config.hardware.system.servers
        da_pairs = self.config.hardware.da_pairs
        owner = np.zeros((len(self.stations), servers))
        station = [info.station for info in self.ranks]
        server = np.array([info.rank.server % servers for info in self.ranks], dtype=np.int64)
        pair = np.array([info.rank.da_pair for info in self.ranks], dtype=np.int64)
        owner[station, server] = 1.0
        processors = self.stations_of_kind("processor")
        owner[processors, np.arange(len(processors)) % servers] = 1.0  # their own destages
        # A DA pair's share by the ranks of each server it serves (whole counts: exact); the
        # DA pairs' stations are in DA pair order.
        counts = np.bincount(pair * servers + server, minlength=da_pairs * servers)
        counts = counts.reshape(da_pairs, servers).astype(np.float64)
        total = counts.sum(axis=1, keepdims=True)
        owner[self.stations_of_kind("device_adapter")] = np.where(
            total > 0, counts / np.where(total > 0, total, 1.0), 1.0 / servers
        )
        return owner

    @cached_property
    def _rank_stations(self) -> list[int]:
        return [info.station for info in self.ranks]

    @cached_property
    def _station_drives(self) -> FloatArray:
        """[K, 1] the drives each station stands for."""
        return np.array([s.drives for s in self.stations], dtype=np.float64)[:, None]

    def _dirty_by_station(
        self, rates: FloatArray, wait_s: FloatArray, speed_factor: FloatArray
    ) -> FloatArray:
        drives = self._station_drives
        finite = np.isfinite(wait_s)
        queued = per_load(self.destage_bytes.T, rates) * np.where(finite, wait_s, 0.0)
        served = per_load(self.destage_byte_seconds.T, rates) * speed_factor
        return np.asarray((queued + served) * drives * finite, dtype=np.float64)

    def destage_share(self, station: int, rates: ArrayLike) -> float:
        """Fraction of a station's work at `rates` that is destage work."""
        r = np.asarray(rates, dtype=np.float64)
        total = float(r @ self.work[:, station])
        return float(r @ self.destage_work[:, station]) / total if total > 0 else 0.0
