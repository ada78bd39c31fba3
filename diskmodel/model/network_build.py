"""The network of a configuration at a placement, built (`NetworkBuilder`, `build_network`):
its stations (host ports, host adapter cards, servers, DA pairs, ranks), every workload's
flows through them, and the figures read once from the flows: per station the work per host
I/O, the service variability and a drive's command-queueing gains, and the host-visible times
per (workload, class) with the front end's fixed delay (`front_end_delay_s`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from diskmodel.cached import cached_property
from diskmodel.components import cache, host_adapter, processor
from diskmodel.configuration import Configuration, Hardware, Rank, WorkloadConfig
from diskmodel.model.copy_links import (
    LINK_KIND,
    MirrorState,
    group_hold_s,
    link_service,
    link_station_names,
    mirror_state,
)
from diskmodel.model.costs import OpCosts, queue_limit
from diskmodel.model.flows import FLOW_FIGURES, Flows, rank_flows, workload_shares
from diskmodel.model.kept import Kept
from diskmodel.model.layout import PoolLayout, forget_also, network_key
from diskmodel.model.network import (
    ClassTimes,
    FloatArray,
    Network,
    RankInfo,
    Station,
    cut_gain,
    index_arrays,
    stacked_gains,
    station_classes,
)
from diskmodel.model.rank_shares import EMPTY_FRACTION
from diskmodel.units import KIB, MB, US
from diskmodel.vocabulary import COMPONENT_KIND, STATION_KIND_KEYS
from diskmodel.workload import IO_CLASSES, IoClass, IoMix

PROCESSOR_WORK: dict[IoClass, processor.ProcessorWork] = {
    "read_hit": "read_hit",
    "read_miss": "read_miss",
    "sequential_read": "sequential_read",
    "random_write": "write",
    "sequential_write": "write",
}


def destages_per_write(mix: IoMix, io_class: IoClass) -> float:
    """The destages a server's core handles per write of `io_class` (a random or a sequential
    write): one per destaged write (random) or per destaged track (sequential)."""
    return mix.destage_ratio * (
        mix.backend_op(io_class)[1]
        if io_class == "random_write"
        else mix.size_bytes(io_class) / cache.TRACK_BYTES
    )


def _server_work(mix: IoMix, hardware: Hardware) -> list[tuple[int, float, float, bool, float]]:
    """`NetworkBuilder._server_work`, made."""
    costs_of = hardware.system.processor_costs
    work: list[tuple[int, float, float, bool, float]] = []
    for c, io_class in enumerate(IO_CLASSES):
        p = mix.fractions[io_class]
        if p <= 0:
            continue
        size = mix.size_bytes(io_class)
        work.append(
            (c, p, processor.core_time(costs_of, PROCESSOR_WORK[io_class]).mean_s, True, size)
        )
        if io_class in ("random_write", "sequential_write"):
            per_write = destages_per_write(mix, io_class)
            if per_write > 0:
                at_core = processor.core_time(costs_of, "destage").mean_s
                work.append((c, p * per_write, at_core, False, size))
    return work


@dataclass(frozen=True)
class _StationLayout:
    """What a network builder reads of its configuration's stations but its ranks' own (each
    rank's station, `_rank_stations`): the stations of the front end (`_front_end_stations`)
    and their indices by kind, and over them and `ranks_ahead` ranks after them each
    station's servers (`Station.servers`), kind (`STATION_KIND_KEYS` index) and how the open
    solution treats it (`_open_form`). A configuration of R ranks takes the first R of them
    (`NetworkBuilder.__init__`): one record serves every rank count of a sizing search's
    configurations on one front end. Shared by the builders (`_station_layouts`): tuples, and
    arrays made read-only."""

    front: tuple[Station, ...]
    cards: tuple[int, ...]  # each host port's two flows' card (`NetworkBuilder._host_flows`)
    host_stations: int  # the host ports and cards
    servers: tuple[int, ...]
    first_da: int
    da_pairs: tuple[int, ...]
    channels: tuple[int, ...]  # FICON channels
    links: tuple[int, ...]  # Metro Mirror links
    ranks_ahead: int
    servers_at: FloatArray
    kinds: NDArray[np.int64]
    # `_front_stations`' indices without and with Metro Mirror (whose links are not part of
    # the front end): no rank is part of it, so they are the same for every rank count.
    front_end: NDArray[np.intp]
    front_end_mirrored: NDArray[np.intp]
    # `_open_form`'s single- and multi-server stations (none a rank: the same for every rank
    # count) and the ranks', as lists and arrays.
    single: list[int]
    multi: list[int]
    drives: list[int]
    arrays: tuple[NDArray[np.int64], NDArray[np.int64], FloatArray, NDArray[np.int64]]

    @property
    def first_rank(self) -> int:
        return len(self.front)

    def open_form(
        self, ranks: int
    ) -> tuple[
        tuple[list[int], list[int], list[int]],
        tuple[NDArray[np.int64], NDArray[np.int64], FloatArray, NDArray[np.int64]],
    ]:
        """`_open_form` of the stations with `ranks` ranks after the front end's."""
        single, multi, servers_of_multi, drives = self.arrays
        return (
            (self.single, self.multi, self.drives[:ranks]),
            (single, multi, servers_of_multi, drives[:ranks]),
        )


_RANKS_AHEAD = 256
"""The ranks a station layout is made for at least (`_StationLayout.ranks_ahead`): more than a
DS8800 holds (1,536 drives in ranks of 8: 192), so one record serves every configuration on its
front end; one with more ranks makes it again with room for its own (`_station_layout`)."""
_LAYOUTS_KEPT = 64
_station_layouts: dict[tuple[object, ...], _StationLayout] = {}
"""The station layouts (`_StationLayout`) by every figure they are made from
(`_station_layout`): a sizing search's configurations differ in their drives and ranks far
more often than in their front end, so its builders make each front end's stations once."""

forget_also(_station_layouts.clear)  # `layout.forget_placements` forgets them too


def _station_layout(config: Configuration) -> _StationLayout:
    """`config`'s station layout, made once for each front end (`_station_layouts`) with room
    for its ranks."""
    hw = config.hardware
    ficon = hw.ficon
    key = (
        hw.host_ports,
        host_adapter.cards_for_ports(hw.host_adapter, hw.host_ports),
        hw.host_adapter.ports_per_adapter,
        hw.processor.ways,
        hw.system.servers,
        hw.da_pairs,
        None if ficon is None else (ficon.channel.name, ficon.channels),
        tuple(link_station_names(config)),
    )
    found = _station_layouts.get(key)
    ranks = len(config.ranks)
    if found is None or found.ranks_ahead < ranks:
        if len(_station_layouts) >= _LAYOUTS_KEPT:
            _station_layouts.clear()
        found = _station_layouts[key] = _made_layout(*key, max(ranks, _RANKS_AHEAD))
    return found


def _made_layout(
    host_ports: int,
    cards: int,
    ports_per_card: int,
    ways: int,
    servers: int,
    da_pairs: int,
    channels: tuple[str, int] | None,
    links: tuple[str, ...],
    ranks_ahead: int,
) -> _StationLayout:
    """The station layout of these figures (`_station_layout`), with room for `ranks_ahead`
    ranks."""
    front = _front_end_stations(host_ports, cards, ways, servers, da_pairs, channels, links)
    n_channels = 0 if channels is None else channels[1]
    first_server = host_ports + cards
    first_channel = first_server + servers + da_pairs
    first_rank = len(front)
    servers_at = np.ones(first_rank + ranks_ahead)
    server_stations = list(range(first_server, first_server + servers))
    servers_at[server_stations] = float(ways)
    kinds = np.repeat(
        _KIND_INDEX,
        (first_server, servers, da_pairs, n_channels, len(links), ranks_ahead),
    )
    link_stations = tuple(range(first_channel + n_channels, first_rank))
    (single, multi, drives), arrays = _open_form(servers_at, kinds)
    for part in (servers_at, kinds, *arrays):
        part.setflags(write=False)
    return _StationLayout(
        front=front,
        # Ports fill cards in order (ports 0-3 on card 0, ...): a card carries its ports' I/O;
        # each port's I/O there is two flows, its command and its link transfer.
        cards=tuple(host_ports + k // ports_per_card for k in range(host_ports) for _ in (0, 1)),
        host_stations=first_server,
        servers=tuple(server_stations),
        first_da=first_server + servers,
        da_pairs=tuple(range(first_server + servers, first_channel)),
        channels=tuple(range(first_channel, first_channel + n_channels)),
        links=link_stations,
        ranks_ahead=ranks_ahead,
        servers_at=servers_at,
        kinds=kinds,
        front_end=_front_stations(kinds, ()),
        front_end_mirrored=_front_stations(kinds, link_stations),
        single=single,
        multi=multi,
        drives=drives,
        arrays=arrays,
    )


def _front_end_stations(
    host_ports: int,
    cards: int,
    ways: int,
    servers: int,
    da_pairs: int,
    channels: tuple[str, int] | None,
    links: tuple[str, ...],
) -> tuple[Station, ...]:
    """Host ports, host adapter cards, the servers (of `ways` cores), the DA pairs, any FICON
    channels (their name and count) and any replication links (their names), in that order."""
    stations = [Station(f"host port {i}", "host_adapter", 1, 1) for i in range(host_ports)]
    stations += [Station(f"host adapter card {c}", "host_adapter", 1, 1) for c in range(cards)]
    stations += [Station(f"server {s} ({ways}-way)", "processor", ways, 1) for s in range(servers)]
    stations += [Station(f"DA pair {i}", "device_adapter", 1, 1) for i in range(da_pairs)]
    if channels is not None:
        # The host's FICON channels (z/OS): after the system's own stations, so theirs keep
        # the places they have in every configuration.
        name, count = channels
        stations += [Station(f"FICON channel {j} ({name})", "channel", 1, 1) for j in range(count)]
    # Metro Mirror's replication links, host adapter ports of their own (model.copy_links).
    stations += [Station(name, LINK_KIND, 1, 1) for name in links]
    return tuple(stations)


_new_tuple = tuple.__new__
"""Makes a named tuple from its fields' tuple without the named tuple's own `__new__` (a
Python function): a sizing search makes some 500 rank stations and 500 `RankInfo`s."""


def _rank_stations(ranks: Sequence[Rank]) -> list[Station]:
    """Each rank's station, standing for one of its active drives."""
    return [_new_tuple(Station, (r.label, "rank", 1, r.active_drives)) for r in ranks]


def build_network(
    config: Configuration, layout: Mapping[str, PoolLayout], costs: OpCosts | None = None
) -> Network:
    """Stations and flows of `config` with its data placed as `layout` says."""
    return NetworkBuilder(config, costs).build(layout)


_WORKED_OUT = (
    "servers",
    "class_shares",
    "solved_as",
    "_kind_members",
    "tier_stations",
    "_nvs_owner",
    "_rank_stations",
    "_station_drives",
    "open_entries",
    "visited",
)
"""`Network`'s cached figures: none reads the configuration's skew curves or front end, or the
layout, so `network_for` takes them over with the rest (tested)."""


def network_for(net: Network, config: Configuration, layout: Mapping[str, PoolLayout]) -> Network:
    """What `build_network(config, layout)` gives, made from `net`: a network built for a
    configuration that differs from `config` at most in what no station's figure reads (its
    workloads' skew curves, which only placement reads, and its system's front-end latency,
    which only the classes' fixed delays read), at a placement that agrees with `layout` in
    every figure a network is built from (`model.layout.network_key`). The stations, flows and
    gains are `net`'s, to the bit; the configuration and the layout are `config`'s and
    `layout`; the fixed delays are worked out again where the front end differs."""
    if config is net.config and layout is net.layout:
        # Built for this configuration at this placement (the first of its builds to ask, as
        # in a sizing search): it is its own already.
        return net
    # What every open solution of a network reads, worked out once for all that share it.
    net.solved_as, net.class_shares  # noqa: B018
    # Its fields and what it worked out from them (`_WORKED_OUT`), without re-initialising.
    out = object.__new__(Network)
    out.__dict__.update(net.__dict__)
    object.__setattr__(out, "config", config)
    object.__setattr__(out, "layout", layout)
    if (
        config.hardware.system.front_end_latency_us
        != net.config.hardware.system.front_end_latency_us
    ):
        times = net.times
        links = () if net.mirror is None else net.mirror.links
        front = _front_stations(times.kind_of_station, links)
        delays = _delays(config, front, times.keys, times.service_s, net.mirror)
        object.__setattr__(out, "times", dataclasses.replace(times, delay_s=delays))
    return out


class NetworkBuilder:
    """The networks of one configuration, one per placement (`build_network`). What no
    placement changes is made once: the stations, and the host ports' and adapter cards' flows
    (the placement moves only the servers' and the ranks' work), and their sums: the two
    kinds never meet at a station, so each station's sums are the ones a network built from
    scratch has, to the bit (`_FlowSums`)."""

    def __init__(self, config: Configuration, costs: OpCosts | None = None) -> None:
        self.config = config
        self.costs = costs or OpCosts(config)
        self._host: dict[tuple[int, ...], _FlowSums] = {}
        # The stations but the ranks', by kind in the order `_front_end_stations` makes them,
        # with what every network of this configuration reads of them (`_StationLayout`).
        stations = _station_layout(config)
        ranks = len(config.ranks)
        self._cards = stations.cards
        self._host_stations = stations.host_stations
        self._servers = stations.servers
        self._da_pairs = stations.da_pairs
        self._first_da = stations.first_da
        self._channels = stations.channels
        self._links = stations.links
        # Metro Mirror's fixed times, the secondary solved once (model.copy_links).
        self._mirror = mirror_state(
            config, self._links, lambda c, placed, co: NetworkBuilder(c, co).build(placed)
        )
        # Every rank's station follows the front end's, in rank order.
        self._stations = (*stations.front, *_rank_stations(config.ranks))
        self._first_rank = stations.first_rank
        # Each station's servers (the capacity of all but a rank's), kind and whether its time
        # is part of the front end's fixed time.
        self._servers_at = stations.servers_at[: self._first_rank + ranks]
        self._kind_of_station = stations.kinds[: self._first_rank + ranks]
        self._front = stations.front_end if self._mirror is None else stations.front_end_mirrored
        self._open_form = stations.open_form(ranks)
        self._delay_terms: dict[tuple[int, IoClass], _DelayTerms] = {}
        self._inputs: dict[int, tuple[object, ...]] = {}  # each workload's cost inputs
        self._pools: dict[str, tuple[object, ...]] = {}  # each pool's ranks (`_installed`)
        # How the workloads' work is weighted where several share a drive (its reordering
        # gain depends on how much of the mix is positioning): by their planned rates, a
        # closed workload as the busiest open one (or 1 I/O per second with none).
        planned = [w.iops or 0.0 for w in config.workloads]
        busiest = max(planned, default=0.0) or 1.0
        self._weights = [w.iops if w.iops else busiest for w in config.workloads]
        self._weight_array = np.asarray(self._weights, dtype=np.float64)
        self._variants = _da_pair_variants(self)
        self._rank_da: NDArray[np.int64] | None = None  # each rank's DA pair (`_from_sibling`)

    @cached_property
    def _flows(self) -> dict[tuple[object, ...], _WorkloadFlows]:
        """The workloads' flows kept for builders of this back end (`_back_end_flows`), looked
        up at the first build that makes flows: one made from a DA pair variant's network
        (`_from_sibling`) reads none."""
        return _back_end_flows(self)

    def _host_sums(self, active: tuple[int, ...]) -> _FlowSums:
        """The sums of the host ports' and adapter cards' flows of the workloads `active`."""
        found = self._host.get(active)
        if found is None:
            # Kept between builders by what they read, which FICON channels and Metro Mirror
            # links (flows of their own) are not part of.
            kept = self.config.hardware.ficon is None and self._mirror is None
            found = self._host[active] = (_kept_host_sums if kept else _sums_of_host_flows)(
                self, active
            )
        return found

    def _host_flows(self, active: tuple[int, ...]) -> Flows:
        """The host ports' and adapter cards' flows of the workloads `active`, with a z/OS
        workload's FICON channels and the Metro Mirror links."""
        hw = self.config.hardware
        card_command = host_adapter.card_command(hw.host_adapter).mean_s
        flows = Flows()
        for w in active:
            workload = self.config.workloads[w]
            mix = workload.mix
            ports = self._ports_of(workload)
            n_ports = len(ports)
            cards = [c for k in ports for c in self._cards[2 * k : 2 * k + 2]]
            if workload.zos is not None:
                self._channel_flows(flows, w)
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
        if self._mirror is not None:
            # A Metro Mirror write waits for its transfer on one of the links, each taking an
            # even share (model.copy_links).
            links = list(self._links)
            for w in active:
                if w not in self._mirror.secondary_write_s:
                    continue
                mix = self.config.workloads[w].mix
                for io_class in ("random_write", "sequential_write"):
                    p = mix.fractions[io_class]
                    if p <= 0:
                        continue
                    size = mix.size_bytes(io_class)
                    flows.add(
                        w, io_class, links, rate=p / len(links), visits=1 / len(links),
                        mean_s=link_service(self.config, size), visible=True, destage=False,
                        size_bytes=size,
                    )  # fmt: skip
        return flows

    def _ports_of(self, workload: WorkloadConfig) -> list[int]:
        """The host ports a workload's I/O is spread over: all of them without FICON; with it,
        the FICON ports (the first `ficon.ports`) for a z/OS workload, the others for an
        open-systems one."""
        hw = self.config.hardware
        if hw.ficon is None:
            return list(range(hw.host_ports))
        if workload.zos is not None:
            return list(range(hw.ficon.ports))
        return list(range(hw.ficon.ports, hw.host_ports))

    def _channel_flows(self, flows: Flows, w: int) -> None:
        """A z/OS workload's I/O over the host's FICON channels, spread evenly (z/OS balances
        a device's I/O over its channel paths): each I/O costs its channel the channel's work
        per I/O (zHPF or command mode), which the host waits for, and the transfer at the
        channel's rate, which streams while the system's port sends the same data (the port's
        transfer is the one the host waits for, as at the adapter card)."""
        hw = self.config.hardware
        assert hw.ficon is not None
        channels = self._channels
        n = len(channels)
        per_io = hw.ficon.per_io_s
        rate_bytes = hw.ficon.channel.bandwidth_mb_s * MB
        mix = self.config.workloads[w].mix
        for io_class in IO_CLASSES:
            p = mix.fractions[io_class]
            if p <= 0:
                continue
            size = mix.size_bytes(io_class)
            flows.add(
                w, io_class, [c for c in channels for _ in (0, 1)], rate=p / n,
                visits=[1 / n, 0.0] * n, mean_s=[per_io, size / rate_bytes] * n,
                visible=[True, False] * n, destage=False, size_bytes=size,
            )  # fmt: skip

    def _workload_flows(
        self, w: int, pool_layout: PoolLayout, pool_ranks: Sequence[RankInfo]
    ) -> _WorkloadFlows:
        """Workload `w`'s flows at the servers (by the share of its data each owns) and at its
        pool's ranks and their DA pairs (`rank_flows`), summed (`_WorkloadFlows`): its pool's
        flows (`_pool_flows`) at this network's stations."""
        made = self._pool_flows(w, pool_layout, pool_ranks)
        # The stations the pool's numbers stand for (`_PoolFlows`): the servers', the ranks',
        # and each rank's DA pair's.
        at = np.array(
            [
                *self._servers,
                *[info.station for info in pool_ranks],
                *[self._da_pairs[info.rank.da_pair] for info in pool_ranks],
            ],
            dtype=np.int64,
        )
        drive = None if made.drive is None else (at[made.drive[0]], made.drive[1])
        return _workload_sums(at[made.station], made.figures, drive, len(self._stations), made)

    def _pool_flows(
        self, w: int, pool_layout: PoolLayout, pool_ranks: Sequence[RankInfo]
    ) -> _PoolFlows:
        """`_pool_flows_made`, kept with the operation costs (`OpCosts.shared`) for every
        configuration that shares them, by everything else it reads: the workload's costs
        (its mix), the processor's costs, the workload's shares of its pool's tiers, each of
        the pool's ranks as installed but for its DA pair (its index, drive, RAID format and
        server) and the ranks' shares and spans. Configurations that differ only in their DA
        pairs (a sizing search's DA pair counts) make them once. A FlashCopy source's (its
        copies' work) is made anew."""
        workload = self.config.workloads[w]
        if self._cost_inputs(w)[1] is not None:
            return self._pool_flows_made(w, pool_layout, pool_ranks)
        key = (
            "pool flows",
            self.costs.kept(w, workload.mix),
            _CORE_FIGURES(self.config.hardware.system.processor_costs),
            _tier_shares(pool_layout, workload.name),
            self._installed(workload.pool, pool_ranks),
            pool_layout.shares_key[1],
        )
        return self.costs.shared(key, lambda: self._pool_flows_made(w, pool_layout, pool_ranks))

    def _installed(self, pool: str, pool_ranks: Sequence[RankInfo]) -> tuple[object, ...]:
        """What the flows of a pool whose ranks are `pool_ranks` read of them as installed but
        their DA pairs (`_pool_flows`): each one's index, drive, RAID format and server (a
        name stands for its figures where the costs are shared), worked out once per pool."""
        found = self._pools.get(pool)
        if found is None:
            found = self._pools[pool] = tuple(map(_AS_INSTALLED, map(_RANK, pool_ranks)))
        return found

    def _pool_flows_made(
        self, w: int, pool_layout: PoolLayout, pool_ranks: Sequence[RankInfo]
    ) -> _PoolFlows:
        """Workload `w`'s flows at the servers (by the share of its data each owns) and at its
        pool's ranks and their DA pairs (`rank_flows`), stations numbered within the pool
        (`_PoolFlows`)."""
        config, costs = self.config, self.costs
        workload = config.workloads[w]
        mix = workload.mix
        servers = config.hardware.system.servers
        shares = workload_shares(workload, pool_layout, pool_ranks, servers)
        owned = [(s, k) for k, s in enumerate(shares.servers) if s > 0]
        # The servers' flows, one row each: station, class index, rate, visits, mean service,
        # host-visible, destage work, size (a server's host-visible flow is no destage work,
        # its destage flow not host-visible).
        rows = [
            (k, c, p * s, s if visible else 0.0, core, visible, not visible, size)
            for c, p, core, visible, size in self._server_work(w, mix)
            for s, k in owned
        ]
        flows = np.array(rows, dtype=np.float64).reshape(len(rows), FLOW_FIGURES).T
        drive = None
        if pool_ranks:
            flows, drive = rank_flows(costs, w, mix, pool_ranks, shares, servers, flows)
        station = flows[0].astype(np.int64)
        for part in (station, flows, *(drive or ())):
            part.setflags(write=False)
        return _PoolFlows(station, flows[1:], drive)

    def _server_work(self, w: int, mix: IoMix) -> list[tuple[int, float, float, bool, float]]:
        """Workload `w`'s work at a server per host I/O, before the share of its I/O the server
        handles: per flow (class index, rate, mean core time, host-visible, size), in the order
        its flows are made, each class's host-visible work and then its destages. It reads the
        mix and the processor's costs alone: kept with the operation costs
        (`OpCosts.shared`) for every configuration that shares them."""
        key = (
            "server work",
            self.costs.kept(w, mix),
            _CORE_FIGURES(self.config.hardware.system.processor_costs),
        )
        return self.costs.shared(key, lambda: _server_work(mix, self.config.hardware))

    def _cost_inputs(self, w: int) -> tuple[object, ...]:
        """Workload `w`'s `OpCosts.cost_inputs`, worked out once."""
        inputs = self._inputs.get(w)
        if inputs is None:
            inputs = self._inputs[w] = self.costs.cost_inputs(w, self.config.workloads[w].mix)
        return inputs

    def _kept_workload_flows(
        self,
        w: int,
        pool_layout: PoolLayout,
        pool_ranks: Sequence[RankInfo],
    ) -> _WorkloadFlows:
        """`_workload_flows`, kept for the builders of configurations with this one's back end
        (`_back_end_flows`) by everything else it reads: the workload's cost inputs (its mix),
        its shares of its pool's tiers and its pool's ranks' shares and spans (each rank's by
        its index, `PoolLayout.shares_key`). A FlashCopy source's (its copies' work) is made
        anew."""
        workload = self.config.workloads[w]
        inputs = self._cost_inputs(w)
        if inputs[1] is not None:
            return self._workload_flows(w, pool_layout, pool_ranks)
        key = (inputs, _tier_shares(pool_layout, workload.name), pool_layout.shares_key[1])
        found = self._flows.get(key)
        if found is None:
            if len(self._flows) >= _FLOWS_KEPT:
                self._flows.clear()
            found = self._flows[key] = self._workload_flows(w, pool_layout, pool_ranks)
        return found

    def build(self, layout: Mapping[str, PoolLayout]) -> Network:
        """The network with the data placed as `layout` says: made from the network a DA pair
        variant's builder built at a placement of the same `network_key`, if there is one
        (`_variants`, `_from_sibling`), else built and kept for the variants."""
        config, costs = self.config, self.costs
        # A pool no workload uses holds no data: its ranks get no I/O.
        infos: list[RankInfo] = [
            _new_tuple(
                RankInfo,
                (
                    rank,
                    EMPTY_FRACTION
                    if (pool_layout := layout.get(rank.pool)) is None
                    else pool_layout.ranks[rank.index].span_fraction,
                    station,
                ),
            )
            for station, rank in enumerate(config.ranks, self._first_rank)
        ]

        active = tuple(w for w, wl in enumerate(config.workloads) if wl.pool in layout)
        placed_key: tuple[object, ...] = ()
        if self._variants is not None:
            placed_key = network_key(layout)
            sibling = self._variants.get(placed_key)
            if sibling is not None:
                return self._from_sibling(sibling, layout, infos, active)
        by_pool: dict[str, list[RankInfo]] = {}
        # Workloads of the same cost inputs (`OpCosts.kept`) holding the same shares of one
        # pool (one tuple of tier shares: `tiering.placement` makes one per distinct row) make
        # the same flows but for their index, and the same sums: made once each
        # (`_WorkloadFlows`).
        made: dict[tuple[object, ...], _WorkloadFlows] = {}
        flows: list[_WorkloadFlows] = []
        for w in active:
            workload = config.workloads[w]
            pool_layout = layout[workload.pool]
            held = pool_layout.placement.workload(workload.name).tiers
            key = (costs.kept(w, workload.mix), workload.pool, id(held))
            found = made.get(key)
            if found is None:
                pool_ranks = by_pool.get(workload.pool)
                if pool_ranks is None:
                    pool_ranks = [i for i in infos if i.rank.pool == workload.pool]
                    by_pool[workload.pool] = pool_ranks
                found = made[key] = self._kept_workload_flows(w, pool_layout, pool_ranks)
            flows.append(found)
        sums, drives = self._sums(active, flows)
        net = _assemble(self, sums, infos, layout, drives)
        if self._variants is not None:
            if len(self._variants) >= _VARIANTS_KEPT:
                self._variants.clear()
            self._variants[placed_key] = _Sibling(net, sums.cells, flows)
        return net

    def _from_sibling(
        self,
        sibling: _Sibling,
        layout: Mapping[str, PoolLayout],
        infos: list[RankInfo],
        active: tuple[int, ...],
    ) -> Network:
        """The network `build(layout)` gives, made from `sibling`'s, built at a placement of
        the same `network_key` for a configuration that differs from this one only in its DA
        pairs (`_da_pair_variants`). Every figure of a station but a DA pair's reads the flows
        of the servers and ranks alone, which no DA pair changes (`_pool_flows`): taken from
        the sibling's columns, the ranks' and those after them moved by the difference in DA
        pairs; the gains, capacities and fixed delays (no DA pair is part of the front end)
        likewise. The DA pairs' columns are summed from the terms of the flows at them
        (`_DaTerms`), each sum's in the order a build adds them: to the bit a built
        network's."""
        net = sibling.net
        first, D = self._first_da, len(self._da_pairs)
        rest = first + net.config.hardware.da_pairs
        W, G = len(self.config.workloads), len(net.times.keys)
        if sibling.terms is None:
            sibling.terms = (
                self._da_terms(net, infos, active, sibling.flows),
                _sibling_columns(net, sibling.cells),
            )
        terms, own = sibling.terms
        if self._rank_da is None:
            self._rank_da = np.array([r.da_pair for r in self.config.ranks], dtype=np.int64)
        # Every sum at the DA pairs in one (`_DaTerms`), each DA pair a column, in the rows
        # of the sibling's columns (`_sibling_columns`) and then the stations' sums; the DA
        # pairs' capacities and service variabilities are filled in.
        sums = _summed(terms.at * D + self._rank_da[terms.rank], terms.value, terms.rows, D)
        ops, mean, second = sums[-3:]
        positive = mean > 0
        with np.errstate(invalid="ignore", divide="ignore"):
            scv = np.where(positive, second * ops / np.where(positive, mean * mean, 1.0) - 1, 1.0)
        sums[7 * W] = self._servers_at[first : first + D]
        np.maximum(scv, 0.0, out=sums[7 * W + 1])
        columns = np.concatenate([own[:, :first], sums[:-3], own[:, rest:]], axis=1)
        K = columns.shape[1]
        arrival, visible, work, destage_work, async_work, destage_bytes, destage_byte_s = columns[
            : 7 * W
        ].reshape(7, W, K)
        times = net.times
        out = Network(
            config=self.config,
            stations=self._stations,
            ranks=tuple(infos),
            layout=layout,
            arrival=arrival,
            visible_arrival=visible,
            work=work,
            destage_work=destage_work,
            async_work=async_work,
            destage_bytes=destage_bytes,
            destage_byte_seconds=destage_byte_s,
            gains=(*net.gains[:first], *(None,) * D, *net.gains[rest:]),
            capacity=columns[7 * W],
            scv=columns[7 * W + 1],
            times=ClassTimes(
                times.keys,
                columns[7 * W + 2 : 7 * W + 2 + G],
                columns[7 * W + 2 + G :],
                self._kind_of_station,
                times.delay_s,
            ),
            mirror=None,
        )
        # The ranks' gains are the sibling's, in rank order: so are their stacked rows.
        out.given_open_form(self._servers_at, *self._open_form, net.solved_as[3])
        return out

    def _da_terms(
        self,
        net: Network,
        infos: list[RankInfo],
        active: tuple[int, ...],
        flows: Sequence[_WorkloadFlows],
    ) -> _DaTerms:
        """The terms of the sums at the DA pairs of `net` and its DA pair variants (`_DaTerms`),
        from each active workload's pool flows at its ranks' DA pairs (`_PoolFlows`, kept with
        the flows `net` was built from, `flows`: the same for every variant, `_pool_flows`), in
        flow order and workload by workload, as `_workload_sums` and `_sums` add them; a term a
        build adds as its figure times 0.0 is left out, which changes no sum."""
        config = self.config
        W, C = len(config.workloads), len(IO_CLASSES)
        S = config.hardware.system.servers
        group = np.full(W * C, -1, dtype=np.int64)
        keys = net.times.keys
        group[[w * C + _CLASS_NAMES.index(c) for w, c in keys]] = np.arange(len(keys))
        by_pool: dict[str, tuple[list[RankInfo], NDArray[np.int64]]] = {}
        # The rows of the sums (`_DaTerms`): the cells' row x W + workload, two left empty,
        # the groups' visits and their service, the stations' three.
        visits_row, service_row = 7 * W + 2, 7 * W + 2 + len(keys)
        station_row = service_row + len(keys)
        at: list[np.ndarray] = []
        at_rank: list[np.ndarray] = []
        value: list[np.ndarray] = []
        for w, found in zip(active, flows, strict=True):
            workload = config.workloads[w]
            pool = by_pool.get(workload.pool)
            if pool is None:
                ranks = [i for i in infos if i.rank.pool == workload.pool]
                of_rank = np.array([i.station for i in ranks], dtype=np.int64) - self._first_rank
                pool = by_pool[workload.pool] = (ranks, of_rank)
            ranks, of_rank = pool
            if not ranks:
                continue
            made = found.made
            # The DA pairs' flows, the last, one for each drive flow (`rank_flows`).
            n = 0 if made.drive is None else made.drive[0].size
            if not n:
                continue
            rank = of_rank[made.station[-n:] - (S + len(ranks))]
            # Their terms as the workload's sums took them (`_WorkloadFlows.masked`), and their
            # stations' sums' terms over the planned rates as `_sums` takes them.
            rate, mean_s, busy = found.rate[-n:], found.mean_s[-n:], found.busy[-n:]
            masked = found.masked[:, -n:]
            flow_weight = rate * self._weights[w]
            weighted = flow_weight * mean_s
            code = group[w * C + found.name[-n:]]
            shown = code >= 0
            shown_rank = rank[shown]
            rows = [*range(w, 7 * W, W), station_row, station_row + 1, station_row + 2]
            at += [np.repeat(rows, n), code[shown] + visits_row, code[shown] + service_row]
            at_rank += [np.concatenate((rank,) * 10), shown_rank, shown_rank]
            value += [
                rate,
                masked[0],
                busy,
                masked[1:5].ravel(),
                flow_weight,
                weighted,
                weighted * mean_s,
                masked[5][shown],
                masked[6][shown],
            ]
        return _DaTerms(
            _joined(at, _NO_CODES),
            _joined(at_rank, _NO_CODES),
            _joined(value, _NO_RATES),
            station_row + 3,
        )

    def _sums(
        self, active: tuple[int, ...], flows: Sequence[_WorkloadFlows]
    ) -> tuple[_FlowSums, FloatArray]:
        """The network's `_FlowSums` and its drive sums [4, K] (per rank station, over its
        workloads weighted by their planned rates: operations, busy time, positioning time and
        second moments of service at queue length one), from the workloads `active`'s flows
        (`flows`, in the same order) and the host side's sums (`_host_sums`).

        Every (workload, station) cell, every (workload, class) group and every drive sum
        reads one workload's flows alone: taken from its `_WorkloadFlows`. A station's sums
        over the workloads' planned rates add the flows of all of them, workload by
        workload, as when they are summed together. The host side's are added in
        (`_FlowSums.with_host`)."""
        W, K, C = len(self.config.workloads), len(self._stations), len(IO_CLASSES)
        cells = np.zeros((_CELL_ROWS, W, K))
        drives = np.zeros((4, K))
        codes, visits, service, at, rate, mean_s = [], [], [], [], [], []
        for w, found in zip(active, flows, strict=True):
            weight = self._weights[w]
            cells[:, w] = found.sums[:_CELL_ROWS]
            drives += weight * found.sums[_DRIVE_ROW:]
            codes.append(w * C + found.classes)
            visits.append(found.sums[_VISITS_ROW + found.classes])
            service.append(found.sums[_SERVICE_ROW + found.classes])
            at.append(found.station)
            rate.append(found.rate * weight)
            mean_s.append(found.mean_s)
        station = _joined(at, _NO_CODES)
        flow_weight, mean = _joined(rate, _NO_RATES), _joined(mean_s, _NO_RATES)
        first = flow_weight * mean
        per_station: FloatArray = np.bincount(  # type: ignore[assignment]
            np.concatenate([station, station + K, station + 2 * K]),
            np.concatenate([flow_weight, first, first * mean]),
            minlength=3 * K,
        ).reshape(3, K)
        own = _FlowSums(
            cells,
            per_station,
            _joined(codes, _NO_CODES),
            _joined(visits, np.zeros((0, K))),
            _joined(service, np.zeros((0, K))),
        )
        return own.with_host(self._host_sums(active)), drives


def _tier_shares(pool_layout: PoolLayout, workload: str) -> tuple[object, ...]:
    """What a workload's flows read of its placement (`_kept_workload_flows`, `_pool_flows`):
    each tier's capacity used and shares of its small I/O and MB."""
    return tuple(map(_TIER_SHARE, pool_layout.placement.workload(workload).tiers))


_TIER_SHARE = attrgetter("tier", "capacity_used_gb", "small_io_share", "mb_share")
"""What `_tier_shares` reads of a tier's share, as a tuple."""
_CORE_FIGURES = attrgetter(*processor.CORE_FIGURES.values())
"""The processor costs' figures `processor.core_time` reads, as a tuple (a key's part where a
value is made from the servers' work, `NetworkBuilder._pool_flows`)."""
_RANK = attrgetter("rank")
_AS_INSTALLED = attrgetter("index", "drive.name", "raid.name", "server")
"""What `NetworkBuilder._installed` reads of a rank, as a tuple."""


_AS_INSTALLED_BUT_DA = attrgetter(
    *(f.name for f in dataclasses.fields(Rank) if f.name != "da_pair")
)
"""A rank's fields but its DA pair, as a tuple (`_da_pair_variants`)."""
_BUT_DA_PAIRS = attrgetter(*(f.name for f in dataclasses.fields(Hardware) if f.name != "da_pairs"))
"""The hardware's fields but its DA pair count, as a tuple (`_da_pair_variants`)."""
_FLOWS_KEPT = 256
_BACK_ENDS_KEPT = 32
_SAME_BUCKET_KEPT = 4
_back_ends: Kept[dict[tuple[object, ...], _WorkloadFlows]] = Kept(
    buckets=_BACK_ENDS_KEPT, per_bucket=_SAME_BUCKET_KEPT
)
"""Per back end (`_back_end_flows`), the workloads' flows its builders made: the back ends of
the last `_BACK_ENDS_KEPT` buckets asked for (the last `_SAME_BUCKET_KEPT` of each), at most
`_FLOWS_KEPT` flows each."""


_VARIANTS_KEPT = 16
_variants: Kept[dict[tuple[object, ...], _Sibling]] = Kept(
    buckets=_BACK_ENDS_KEPT, per_bucket=_SAME_BUCKET_KEPT
)
"""Per configuration but its DA pairs (`_da_pair_variants`), the networks its builders built
(`_Sibling`), by the placement's `network_key`: the last `_BACK_ENDS_KEPT` buckets asked for
(the last `_SAME_BUCKET_KEPT` of each), at most `_VARIANTS_KEPT` networks each."""


def _da_pair_variants(builder: NetworkBuilder) -> dict[tuple[object, ...], _Sibling] | None:
    """The networks built by the builders of configurations that differ from `builder`'s at
    most in their DA pairs (the hardware's count and each rank's pair), compared with ==, by
    the placement's `network_key`: a sizing search's DA pair variants of one rank set build
    one and make the others from it (`NetworkBuilder._from_sibling`). None with FICON
    channels or copy services (their stations follow the DA pairs' and their flows are not
    the pools'), which build every network."""
    config = builder.config
    hw = config.hardware
    if hw.ficon is not None or config.copy_services is not None:
        return None
    back = (
        _BUT_DA_PAIRS(hw),
        tuple(map(_AS_INSTALLED_BUT_DA, config.ranks)),
        config.pools,
        config.workloads,
        config.service_level,
        config.logs,
        config.application,
        builder.costs.inputs,
    )
    bucket = ("DA pair variants", hw.host_ports, hw.cache_gb, len(config.ranks))
    return _variants.get(bucket, back, dict)


def without_front_end(hardware: Hardware) -> tuple[object, ...]:
    """`hardware` as far as anything but the classes' fixed delays reads it, to compare with
    ==: every field, and every figure of the system but its front-end latency."""
    system = hardware.system
    figures = {k: v for k, v in system.__dict__.items() if k != "front_end_latency_us"}
    return (
        type(system),
        figures,
        *(getattr(hardware, f.name) for f in dataclasses.fields(hardware) if f.name != "system"),
    )


def _back_end_flows(builder: NetworkBuilder) -> dict[tuple[object, ...], _WorkloadFlows]:
    """The workloads' flows made by the builders whose `_workload_flows` read what `builder`'s
    reads, compared with ==, but the workload itself and its placement: the stations' number
    and the servers', DA pairs' and ranks' station indices, the servers and their processor
    costs, the ranks (each drive as installed) and what the operation costs are computed
    from (`OpCosts.inputs`: the DA figures, a rank's NVS, ordered destage, FlashCopy work and
    the planned rates). Not the host adapter, the host ports' speeds, the front-end latency or
    the copy services' links, which no server or rank flow reads: the catalog band's
    estimates of a front-end figure make each workload's flows once."""
    config, costs = builder.config, builder.costs
    system = config.hardware.system
    K = len(builder._stations)
    back = (
        K,
        builder._first_rank,
        tuple(builder._servers),
        tuple(builder._da_pairs),
        system.servers,
        system.processor_costs,
        config.ranks,
        costs.inputs,
    )
    # A cheap hashable part picks the few back ends to compare in full (with ==).
    bucket = (K, config.hardware.da_pairs, len(config.ranks), costs.inputs.rank_nvs_bytes)
    return _back_ends.get(bucket, back, dict)


_HOST_SUMS_KEPT = 256
_host_sums: dict[tuple[object, ...], tuple[object, _FlowSums]] = {}
"""The host ports' and cards' flow sums (`_kept_host_sums`) by everything they read, the host
adapter by identity (held, so its identity is not reused), over those stations alone (the
first of every network's; each network adds them into its own sums, `_FlowSums.with_host`):
builders of configurations with the same host side and the same workloads' classes and sizes
(a calibration's evaluations, which differ in destage ratios and skew curves; a sizing
search's back-end variants, whatever their DA pairs and ranks) make them once."""


forget_also(_host_sums.clear)  # `layout.forget_placements` forgets them too
forget_also(_back_ends.clear)
forget_also(_variants.clear)


def _sums_of_host_flows(
    builder: NetworkBuilder, active: tuple[int, ...], stations: int | None = None
) -> _FlowSums:
    """`_flow_sums` of `builder._host_flows(active)` with the builder's weights, over its
    first `stations` stations (all of them by default)."""
    W = len(builder.config.workloads)
    K = len(builder._stations) if stations is None else stations
    return _flow_sums(builder._host_flows(active).columns(), W, K, builder._weight_array)


def _kept_host_sums(builder: NetworkBuilder, active: tuple[int, ...]) -> _FlowSums:
    """`_sums_of_host_flows`, kept (`_host_sums`) by what it reads where no workload is z/OS
    and there are no Metro Mirror links: the host adapter and the host ports (the host
    flows' stations, the ports and their cards, the first of every network's), the
    workloads' number, the workloads' weights, the workloads `active` and each one's class
    fractions and sizes. Kept over the ports and cards alone (`_FlowSums.with_host` adds them
    into a network's sums over all its stations): configurations that differ in their DA
    pairs or ranks share them."""
    hw = builder.config.hardware
    W = len(builder.config.workloads)
    mixes = tuple(
        tuple((w.mix.fractions[c], w.mix.size_bytes(c)) for c in IO_CLASSES)
        for w in (builder.config.workloads[i] for i in active)
    )
    key = (id(hw.host_adapter), hw.host_ports, W, builder._weight_array.tobytes(), active, mixes)
    kept = _host_sums.get(key)
    if kept is None or kept[0] is not hw.host_adapter:
        if len(_host_sums) >= _HOST_SUMS_KEPT:
            _host_sums.clear()
        host = builder._host_stations
        kept = _host_sums[key] = (hw.host_adapter, _sums_of_host_flows(builder, active, host))
    return kept[1]


def _joined(parts: list[np.ndarray], empty: np.ndarray) -> np.ndarray:
    """`parts` joined (the one part itself, `empty` for none)."""
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else empty


_CELL_ROWS = 7
"""`_FlowSums.cells`' figures."""
_DRIVE_MOMENTS = [0, 1, 3]
"""The drive sums' rows of a station's operations and first and second moments of service."""
_VISITS_ROW = _CELL_ROWS
_SERVICE_ROW = _VISITS_ROW + len(IO_CLASSES)
_DRIVE_ROW = _SERVICE_ROW + len(IO_CLASSES)
_SUM_ROWS = _DRIVE_ROW + 4
"""The rows of `_WorkloadFlows.sums`: the cells' figures, the visits and the service per
host I/O of each class (in name order), the drive sums."""
_MASKED_AT = np.array([1, 3, 4, 5, 6], dtype=np.int64)[:, None]
"""The cells' rows of the figures a flow adds to only if host-visible, destage work or not
host-visible (`_workload_sums`)."""
_DRIVES_AT = np.arange(_DRIVE_ROW, _SUM_ROWS, dtype=np.int64)[:, None]
_NO_CODES = np.zeros(0, dtype=np.int64)
_NO_RATES = np.zeros(0, dtype=np.float64)


class _DaTerms(NamedTuple):
    """The terms of a network's sums at its DA pairs, the same for each of its DA pair
    variants but for the DA pair each rank is on (`NetworkBuilder._da_terms`), in the order a
    build adds them: per term its row, its rank (position in the configuration's ranks) and
    its value. The `rows` rows: the cells' (row x W + workload), two with no terms (for a
    station's capacity and service variability, `_sibling_columns`), the host-visible groups'
    visits and then their service (a group of each of the network's `times.keys`) and the
    stations' sums over the planned rates (3). No two kinds share a row, so summing all the
    terms at once sums each row's in the order a build adds them."""

    at: NDArray[np.int64]
    rank: NDArray[np.int64]
    value: FloatArray
    rows: int


class _Sibling:
    """A network built for its DA pair variants to be made from (`_variants`,
    `NetworkBuilder._from_sibling`): the network, its cells [7, W, K] (`_FlowSums.cells`, the
    arrays its per-workload figures are views of), the active workloads' flows it was built
    from, and what the first variant made from it works out (`terms`): the terms of its sums
    at the DA pairs (`_DaTerms`) and its per-station figures as one array
    (`_sibling_columns`)."""

    __slots__ = ("cells", "flows", "net", "terms")

    def __init__(self, net: Network, cells: FloatArray, flows: list[_WorkloadFlows]) -> None:
        self.net = net
        self.cells = cells
        self.flows = flows  # each active workload's, in order (`_da_terms`)
        self.terms: tuple[_DaTerms, FloatArray] | None = None


def _sibling_columns(net: Network, cells: FloatArray) -> FloatArray:
    """[7 W + 2 + 2 G, K]: every per-station figure of `net` a DA pair variant moves
    (`NetworkBuilder._from_sibling`), stacked: its cells (`_FlowSums.cells`), capacities,
    service variabilities and the host-visible groups' visits and service. A variant's are
    these with the DA pairs' columns replaced, in one step, its fields views of them."""
    K = cells.shape[-1]
    times = net.times
    return np.concatenate(
        [cells.reshape(-1, K), net.capacity[None], net.scv[None], times.visits, times.service_s]
    )


class _PoolFlows(NamedTuple):
    """One workload's flows at the servers and at its pool's ranks and their DA pairs
    (`NetworkBuilder._pool_flows_made`) with their stations numbered within the pool, the
    same in every configuration whose pool differs only in its DA pairs: the servers 0 to
    S - 1, then the pool's ranks in rank order, then each rank's DA pair (a rank's flows there,
    whichever DA pair it is on); `station` per flow, `figures` the flows' other rows
    (`rank_flows`' but the first) and `drive` the drive flows' ranks and sums' terms, None
    with no ranks. Read-only: shared between builders."""

    station: NDArray[np.int64]
    figures: FloatArray
    drive: tuple[NDArray[np.int64], FloatArray] | None


class _WorkloadFlows(NamedTuple):
    """One workload's flows at the servers and at its pool's ranks and their DA pairs, as far
    as a network reads them: `sums` [rows, K], per station, its `_FlowSums.cells` figures,
    each class's visits and service per host I/O (`_FlowSums.visits`, `service`; 0.0 for a
    class with no host-visible flow), and the drive sums (operations, busy, positioning,
    second moments per host I/O at each rank station); `classes`, the host-visible classes'
    places in name order; and each flow's station, rate and mean service in flow order, which
    a station's sums over the workloads' planned rates read (`NetworkBuilder._sums`); and the
    pool flows they are of (`made`, the DA pairs' flows of which a DA pair variant sums anew:
    `NetworkBuilder._da_terms`)."""

    sums: FloatArray
    classes: NDArray[np.int64]
    station: NDArray[np.int64]
    rate: FloatArray
    mean_s: FloatArray
    made: _PoolFlows
    # Per flow, its busy time, its terms of the sums a flow adds to only if host-visible,
    # destage work or not (`_MASKED_AT`'s rows, then the visits and service of its class) and
    # its class's place in name order: what a DA pair variant's sums read
    # (`NetworkBuilder._da_terms`).
    busy: FloatArray
    masked: FloatArray
    name: NDArray[np.int64]


def _workload_sums(
    station: NDArray[np.int64],
    flows: FloatArray,
    drive: tuple[NDArray[np.int64], FloatArray] | None,
    K: int,
    made: _PoolFlows,
) -> _WorkloadFlows:
    """`_WorkloadFlows` of one workload's flows at the stations `station` with the figures
    `flows` (the rows `rank_flows` gives but the first, the stations) and its drive flows'
    rank stations and sums' terms `drive` (`rank_flows`): its pool flows `made` at a
    network's stations. Each sum adds its terms in flow order, as `_flow_sums` does; a flow
    that is not part of one adds 0.0 to it, which changes no sum (none is -0.0: they start at
    0.0 and add figures >= 0): its term is its figure times 0.0 (`visible` and `destage` are 0
    or 1, every figure finite and >= 0). One `np.bincount` makes them all, each row's terms in
    flow order."""
    name = _BY_NAME[flows[0].astype(np.int64)]
    rate, visits, mean_s, visible, destage, size = flows[1:]
    busy = rate * mean_s
    # The sums' rows (`_FlowSums.cells`, then the visits and service of the flow's class),
    # the two every flow adds to first.
    masked = np.array([rate, busy, busy, rate * size, busy * size, visits, visits * mean_s])
    masked *= np.array([visible, destage, 1.0 - visible, destage, destage, visible, visible])
    terms = [rate, busy, masked.ravel()]
    cells = [
        station,
        station + 2 * K,
        (station + _MASKED_AT * K).ravel(),
        (_VISITS_ROW + name) * K + station,
        (_SERVICE_ROW + name) * K + station,
    ]
    if drive is not None:
        at, values = drive
        terms.append(values.ravel())
        cells.append((at + _DRIVES_AT * K).ravel())
    sums: FloatArray = np.bincount(  # type: ignore[assignment]
        np.concatenate(cells), np.concatenate(terms), minlength=_SUM_ROWS * K
    )
    classes = np.flatnonzero(np.bincount(name[visible > 0], minlength=len(IO_CLASSES)))
    return _WorkloadFlows(
        sums.reshape(_SUM_ROWS, K), classes, station, rate, mean_s, made, busy, masked, name
    )


def _per_station(station: NDArray[np.int64], weights: FloatArray, K: int) -> FloatArray:
    """[K]: the weights added per station, in their order."""
    return np.asarray(np.bincount(station, weights=weights, minlength=K), dtype=np.float64)


def _summed(cell: NDArray[np.int64], weights: FloatArray, rows: int, K: int) -> FloatArray:
    """[rows, K]: the weights added per cell (row x K + station), in their order."""
    out = np.bincount(cell, weights=weights, minlength=rows * K)
    return np.asarray(out, dtype=np.float64).reshape(rows, K)


@dataclass(frozen=True)
class _FlowSums:
    """What a network reads from some of its flows, each figure added in flow order: `cells`
    [7, W, K], per (workload, station) the arrivals, host-visible arrivals, work, destage
    work, asynchronous work, destage bytes and destage byte-seconds (`Network`'s fields);
    `station` [3, K], per station the operations, first and second moments of service
    weighted by the workloads' planned rates; and per (workload, class) group of the
    host-visible flows (`codes`: workload x classes + the class's place in name order)
    [groups, K] the visits and the service per host I/O of the class.

    A network's flows are summed in two parts, the host ports' and cards' (the same in every
    network of a configuration: summed once, `NetworkBuilder`) and the rest. No station has
    flows of both (`Flows`), so every cell and every station is summed from one part alone and
    adding the parts' sums (one of them 0.0 there) gives the sums of all the flows, to the bit.
    """

    cells: FloatArray
    station: FloatArray
    codes: NDArray[np.int64]
    visits: FloatArray
    service: FloatArray

    def with_host(self, host: _FlowSums) -> _FlowSums:
        """These sums (a network's servers' and ranks' flows, over all its stations, made for
        that network alone: added to in place) with the host ports' and cards' sums `host`,
        over the first of its stations, added in. No station has flows of both parts, so every
        cell is one part's sum plus 0.0: to the bit the sums of all the flows (no sum of
        figures >= 0 being -0.0)."""
        front = host.station.shape[1]
        self.cells[..., :front] += host.cells
        self.station[:, :front] += host.station
        if self.codes.tolist() == host.codes.tolist():
            # The same groups in both (the usual case: every class of every workload at the
            # host ports and at the back end).
            self.visits[:, :front] += host.visits
            self.service[:, :front] += host.service
            return self
        codes = np.union1d(host.codes, self.codes)
        visits = np.zeros((codes.size, self.visits.shape[1]))
        service = np.zeros_like(visits)
        for part, width in ((host, front), (self, visits.shape[1])):
            rows = np.searchsorted(codes, part.codes)
            visits[rows, :width] += part.visits
            service[rows, :width] += part.service
        return _FlowSums(self.cells, self.station, codes, visits, service)


def _flow_sums(columns: tuple[np.ndarray, ...], W: int, K: int, weights: FloatArray) -> _FlowSums:
    """`_FlowSums` of the flows `columns` (`Flows.columns`), `weights` each workload's planned
    rate."""
    w, io_class, station, rate, visits, mean_s, visible, destage, size = columns
    cell = w * K + station

    def summed(where: np.ndarray | None, values: np.ndarray) -> FloatArray:
        """Per (workload, station) [W, K], the values of the flows `where` is true, added
        in flow order (as a loop over the flows would)."""
        at, by = (cell, values) if where is None else (cell[where], values[where])
        return _summed(at, by, W, K)

    busy = rate * mean_s
    flow_weight = rate * weights[w]
    # The (workload, class) groups of the host-visible flows in (workload, class name) order,
    # each flow's group found as the rank of its code among the distinct ones (what
    # `np.unique(code, return_inverse=True)` gives, without its sort: the codes are < W x C).
    code = w[visible] * len(IO_CLASSES) + _BY_NAME[io_class[visible]]
    present = np.zeros(W * len(IO_CLASSES), dtype=np.bool_)
    present[code] = True
    codes = np.flatnonzero(present)
    group = (np.cumsum(present) - 1)[code]
    group_cell = group * K + station[visible]
    return _FlowSums(
        cells=np.stack(
            [
                summed(None, rate),
                summed(visible, rate),
                summed(None, busy),
                summed(destage, busy),
                summed(~visible, busy),
                summed(destage, rate * size),
                summed(destage, busy * size),
            ]
        ),
        station=np.stack(
            [
                _per_station(station, flow_weight, K),
                _per_station(station, flow_weight * mean_s, K),
                _per_station(station, flow_weight * mean_s * mean_s, K),
            ]
        ),
        codes=codes,
        visits=_summed(group_cell, visits[visible], codes.size, K),
        service=_summed(group_cell, (visits * mean_s)[visible], codes.size, K),
    )


def _assemble(
    builder: NetworkBuilder,
    sums: _FlowSums,
    infos: list[RankInfo],
    layout: Mapping[str, PoolLayout],
    drive_sums: FloatArray,
) -> Network:
    config, costs = builder.config, builder.costs
    arrival, visible_arrival, work, destage_work, async_work, destage_bytes, destage_byte_s = (
        sums.cells
    )
    # Every station's service variability (squared coefficient of variation at queue length
    # one), over its flows weighted by the workloads' planned rates: a port's, card's, server's
    # or DA pair's operation takes a fixed time for its kind and size, a drive's varies with
    # its seek and rotation (the operations' own second moments).
    ops, first, second = np.where(drive_sums[0] > 0, drive_sums[_DRIVE_MOMENTS], sums.station)
    # Every rank's positioning share of its drives' busy time.
    first_rank = builder._first_rank
    busy, positioning = drive_sums[1:3, first_rank:]
    positive, busy_ranks = first > 0, busy > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        scv = np.where(positive, second * ops / np.where(positive, first * first, 1.0) - 1, 1.0)
        shares = np.where(busy_ranks, positioning / np.where(busy_ranks, busy, 1.0), 1.0).tolist()
    # Every rank's drive gain and the capacity it gives (the stations before the first
    # rank's: none, and their servers).
    gains: list[FloatArray | None] = [None] * first_rank
    capacity = builder._servers_at.copy()
    at_ranks: list[float] = []
    commands = config.hardware.system.device_adapter.commands_per_hdd
    # Ranks of one drive on one span with the same mix of work share a gain: looked up once,
    # and cut once for the open solution (`Network.solved_as`), a rank's row its gain's.
    alike: dict[tuple[int, float, float], tuple[FloatArray, float, int]] = {}
    cut: list[FloatArray] = []
    rows: list[int] = []
    for info, share in zip(infos, shares, strict=True):
        kind = (id(info.rank.drive), info.span, share)
        found = alike.get(kind)
        if found is None:
            depth = queue_limit(info.rank, commands)
            gain = costs.gain(info.rank, info.span, depth, share)
            found = alike[kind] = (gain, float(gain[-1]), len(cut))
            cut.append(cut_gain(gain))
        gains.append(found[0])
        at_ranks.append(found[1])
        rows.append(found[2])
    capacity[first_rank:] = at_ranks
    net = Network(
        config=config,
        stations=builder._stations,
        ranks=tuple(infos),
        layout=layout,
        arrival=arrival,
        visible_arrival=visible_arrival,
        work=work,
        destage_work=destage_work,
        async_work=async_work,
        destage_bytes=destage_bytes,
        destage_byte_seconds=destage_byte_s,
        gains=tuple(gains),
        capacity=capacity,
        scv=np.maximum(scv, 0.0),
        times=_class_times(builder, sums),
        mirror=builder._mirror,
    )
    net.given_open_form(builder._servers_at, *builder._open_form, stacked_gains(cut, rows))
    return net


def _open_form(
    servers: FloatArray, kind_of_station: NDArray[np.int64]
) -> tuple[
    tuple[list[int], list[int], list[int]],
    tuple[NDArray[np.int64], NDArray[np.int64], FloatArray, NDArray[np.int64]],
]:
    """How the open solution treats a configuration's stations (`station_classes`, as
    `Network.solved_as` works them out), as lists and as arrays (`index_arrays`)."""
    single, multi, drives = station_classes(servers, kind_of_station)
    return (single, multi, drives), index_arrays(single, multi, drives, servers)


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


def _class_times(builder: NetworkBuilder, sums: _FlowSums) -> ClassTimes:
    """From the host-visible flows' sums per (workload, class) group. A Metro Mirror write's
    time at the links is not part of the front end's fixed time, and it waits beyond them for
    the light in the fibre and the secondary's write (`MirrorState.delay_s`)."""
    C = len(IO_CLASSES)
    keys = [(code // C, _CLASS_NAMES[code % C]) for code in sums.codes.tolist()]
    service = sums.service
    delays = _delays(
        builder.config, builder._front, keys, service, builder._mirror, builder._delay_terms
    )
    return ClassTimes(tuple(keys), sums.visits, service, builder._kind_of_station, delays)


_KIND_INDEX = np.array(
    [
        STATION_KIND_KEYS.index(kind)
        for kind in ("host_adapter", "processor", "device_adapter", "channel", LINK_KIND, "rank")
    ],
    dtype=np.int64,
)
"""The kinds of a network's stations (`STATION_KIND_KEYS` indices) in the order it has them:
host ports and cards, servers, DA pairs, FICON channels, Metro Mirror links, ranks."""
_FRONT_END = np.array([COMPONENT_KIND[kind].front_end for kind in STATION_KIND_KEYS])
"""Per station kind, whether a station's time is part of the front end's fixed time."""


def _front_stations(kinds: NDArray[np.int64], links: Sequence[int]) -> NDArray[np.intp]:
    """The stations (of the kinds `kinds`, `STATION_KIND_KEYS` indices) whose time is part of
    the front end's fixed time, by index: not the Metro Mirror links `links` (`MirrorState`)."""
    front = _FRONT_END[kinds]
    front[list(links)] = False
    return np.flatnonzero(front)


def _delays(
    config: Configuration,
    front: NDArray[np.intp],
    keys: Sequence[tuple[int, IoClass]],
    service: FloatArray,
    mirror: MirrorState | None,
    terms: dict[tuple[int, IoClass], _DelayTerms] | None = None,
) -> FloatArray:
    """Each host-visible (workload, class) group's fixed delay (`ClassTimes.delay_s`): the
    front end's time beyond what its `front` stations (indices) time (`service`, per group and
    station), a Metro Mirror write's wait beyond the links, and a consistency group's hold.
    What does not depend on `service` is kept in `terms` by group, if given (a builder's:
    its configuration's, `_delay_terms`)."""
    delays = []
    # Each group's time at the front end's stations: each row's sum as `ndarray.sum` takes a
    # row's (a contiguous row, summed alone), all rows in one call.
    at_front = np.add.reduce(service.take(front, axis=1), axis=1).tolist()
    for key, station_s in zip(keys, at_front, strict=True):
        found = None if terms is None else terms.get(key)
        if found is None:
            found = _delay_terms(config, *key, mirror)
            if terms is not None:
                terms[key] = found
        size, port_s, waits = found
        counted = station_s - port_s
        delay = front_end_delay_s(config, key[1], size, max(counted, 0.0))
        for wait in waits:
            delay += wait
        delays.append(delay)
    return np.array(delays, dtype=np.float64)


_DelayTerms = tuple[float, float, tuple[float, ...]]


def _delay_terms(
    config: Configuration, wl: int, c: IoClass, mirror: MirrorState | None
) -> _DelayTerms:
    """What a (workload, class) group's fixed delay (`_delays`) reads of `config` alone: the
    class's size, its transfer over a host port and a write's waits beyond the front end, in
    the order they are added (Metro Mirror's, a consistency group's hold)."""
    size = config.workloads[wl].mix.size_bytes(c)
    port_s = size / (config.hardware.host_adapter.port_bandwidth_mb_s * MB)
    waits: list[float] = []
    if c.endswith("write"):
        if mirror is not None and wl in mirror.secondary_write_s:
            waits.append(mirror.delay_s(wl))
        waits.append(group_hold_s(config, wl))
    return size, port_s, tuple(waits)
