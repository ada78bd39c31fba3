"""Networks, operation costs and solved points shared between configurations that build the
same networks (`model.operating.builds_for`, issue 30 item 4): configurations that differ only
in their workloads' skew curves or their system's front-end latency (a calibration's finite
differences) share one store, and every point they solve with it is, to the bit, the point
they solve alone; a change in anything a network, its costs or its solution reads gets a store
of its own. The parts: a network made another configuration's own (`network_for`), the host
ports' flow sums kept by what they read (`_kept_host_sums`) and the pools timed for
placement (`pool_load.PoolsTimed`)."""

from __future__ import annotations

import dataclasses
from dataclasses import fields
from typing import Any

import numpy as np
import pytest

from diskmodel.configuration import Configuration, resolve
from diskmodel.model import network_build
from diskmodel.model.costs import OpCosts, drive_work_at
from diskmodel.model.layout import forget_placements, layout
from diskmodel.model.network import Network, RankInfo
from diskmodel.model.network_build import (
    NetworkBuilder,
    _flow_sums,
    _kept_host_sums,
    build_network,
    network_for,
)
from diskmodel.model.operating import OperatingPoint, Solver
from diskmodel.model.pool_load import _work_at

from ..support.builders import changed, ssd_and_15k, with_data
from ..support.unshared import share_nothing


def _two_tier(**changes: Any) -> dict[str, Any]:
    """An Easy Tier pool of SSD and 15K ranks with two workloads of their own skew, and a
    front-end latency of the scenario's own: placement follows the load."""
    data = ssd_and_15k(1, 6)
    data["system"]["front_end_latency_us"] = 150.0
    oltp = data["workloads"][0]
    oltp.update(iops=9000, capacity_gb=3000, skew={"level": 7.0})
    batch = dict(oltp, name="batch", iops=800, read_size_kib=64, capacity_gb=6000)
    batch.update(read_sequential_fraction=0.6, skew={"level": 3.5}, destage_ratio=0.8)
    data["workloads"].append(batch)
    return changed(data, **changes)


def _config(data: dict[str, Any]) -> Configuration:
    return resolve(with_data(data))


def _loads(config: Configuration) -> list[np.ndarray]:
    """The planned rates, and three and ten times them (where Easy Tier's ceilings bind)."""
    planned = np.array([w.iops or 0.0 for w in config.workloads])
    return [planned * k for k in (1.0, 3.0, 10.0)]


def _bits(value: object) -> object:
    """A value with its arrays as bytes (with dtype and shape), to compare to the bit."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, tuple | list):
        return tuple(_bits(v) for v in value)
    return value


def _network_bits(net: Network) -> tuple[object, ...]:
    """Every figure of a network but its configuration and layout (the caller's own)."""
    out = [
        _bits(getattr(net, f.name))
        for f in fields(net)
        if f.name not in ("config", "layout", "times")
    ]
    out += [_bits(getattr(net.times, f.name)) for f in fields(net.times)]
    return tuple(out)


def _point_bits(point: OperatingPoint) -> tuple[object, ...]:
    """Every figure of an open operating point, its network's included, to the bit."""
    out = [
        _bits(getattr(point, f.name))
        for f in fields(point)
        if f.name not in ("network", "closed", "transactions")
    ]
    return (*out, point.response_s, _network_bits(point.network))


def _solved(config: Configuration) -> list[tuple[object, ...]]:
    solver = Solver(config)
    return [_point_bits(solver.open_point(r)) for r in _loads(config)]


VARIANTS = [
    {"workloads.1.skew": {"level": 14.0}},
    {"workloads.0.skew": {"level": 2.0}},
    {"system.front_end_latency_us": 300.0},
    {"system.front_end_latency_us": 60.0, "workloads.1.skew": {"level": 24.0}},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(v))
def test_a_skew_or_front_end_variant_shares_the_builds_and_solves_as_alone(
    variant: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    forget_placements()
    base = _config(_two_tier())
    other = _config(_two_tier(**variant))
    first = Solver(base)
    assert Solver(other)._builds is first._builds
    for r in _loads(base):
        first.open_point(r)  # fills the store with the base's networks and points
    with_store = _solved(other)
    share_nothing(monkeypatch)
    assert _solved(other) == with_store


def test_a_front_end_variant_builds_no_network_and_its_delays_are_its_own() -> None:
    forget_placements()
    base = _config(_two_tier())
    other = _config(_two_tier(**{"system.front_end_latency_us": 400.0}))
    first = Solver(base)
    for r in _loads(base):
        first.open_point(r)
    built = len(first._builds.networks)
    points = [Solver(other).open_point(r) for r in _loads(other)]
    assert len(first._builds.networks) == built  # every network taken from the store
    for point in points:
        assert point.network.config is other
    # A longer fixed time: every host-visible class waits longer, by the same amount as alone.
    ours = Solver(base).open_point(_loads(base)[0])
    assert np.all(points[0].network.times.delay_s > ours.network.times.delay_s)


def test_a_network_made_another_configurations_own_is_the_network_it_builds() -> None:
    base = _config(_two_tier())
    for variant in VARIANTS:
        other = _config(_two_tier(**variant))
        for r in _loads(other):
            placed = layout(other, r)
            made = network_for(build_network(base, placed), other, placed)
            built = build_network(other, placed)
            assert made.config is other
            assert made.layout is placed
            assert _network_bits(made) == _network_bits(built)


@pytest.mark.parametrize(
    "back",
    [
        {"workloads.0.destage_ratio": 0.5},
        {"workloads.1.iops": 900},
        {"workloads.0.read_hit_ratio": 0.4},
        {"workloads.1.read_size_kib": 32},
        {"system.host_ports": 16},
        {"system.cache_gb": 256},
        {"system.da_pairs": 3},
        {"system.processor_ways": 2},
        {"pools.0.ranks.1.count": 7},
    ],
    ids=lambda change: ",".join(change),
)
def test_a_change_in_what_a_network_reads_gets_builds_of_its_own(back: dict[str, Any]) -> None:
    assert Solver(_config(_two_tier(**back)))._builds is not Solver(_config(_two_tier()))._builds


def test_host_sums_are_shared_by_what_they_read_and_are_each_builders_own() -> None:
    """Configurations whose host side and workloads' classes and sizes agree (here a destage
    ratio apart) share the host ports' and cards' sums, which equal the builder's own to the
    bit; another host port count or transfer size gets sums of its own."""
    base = _config(_two_tier())
    active = (0, 1)

    def sums(config: Configuration) -> object:
        builder = NetworkBuilder(config)
        return _kept_host_sums(builder, active)

    def own(config: Configuration) -> tuple[object, ...]:
        builder = NetworkBuilder(config)
        made = _flow_sums(
            builder._host_flows(active).columns(),
            len(config.workloads),
            builder._host_stations,  # kept over the host ports and cards alone
            builder._weight_array,
        )
        return tuple(_bits(getattr(made, f.name)) for f in fields(made))

    same = _config(_two_tier(**{"workloads.0.destage_ratio": 0.3}))
    assert sums(same) is sums(base)
    kept = sums(same)
    assert tuple(_bits(getattr(kept, f.name)) for f in fields(kept)) == own(same)  # type: ignore[arg-type]
    for change in ({"system.host_ports": 4}, {"workloads.1.write_size_kib": 16}):
        assert sums(_config(_two_tier(**change))) is not sums(base), change


def test_pools_timed_for_one_skew_place_another_exactly_as_alone() -> None:
    base = _config(_two_tier())
    costs = Solver(base).costs
    for variant in VARIANTS:
        other = _config(_two_tier(**variant))
        timed: dict[tuple[str, bytes], Any] = {}
        for r in _loads(base):
            layout(base, r, costs, timed)
        for r in _loads(other):
            assert layout(other, r, costs, timed) == layout(other, r, OpCosts(other))


def test_workload_flows_are_kept_per_back_end_by_the_workloads_mix_and_shares() -> None:
    """Builders of configurations with one back end (here a destage ratio and a skew level
    apart) keep the workloads' flows in one store; a workload whose mix and shares are the same
    gets the flows made for the other configuration, which equal its own to the bit; one whose
    destage ratio differs gets flows of its own; another back end (one more DA pair) another
    store."""
    base = _config(_two_tier())
    other = _config(
        _two_tier(**{"workloads.1.destage_ratio": 0.5, "workloads.1.skew": {"level": 14.0}})
    )
    r = _loads(base)[0]
    placed = layout(base, r)
    ours, theirs = NetworkBuilder(base), NetworkBuilder(other)
    assert ours._flows is theirs._flows
    assert NetworkBuilder(_config(_two_tier(**{"system.da_pairs": 3})))._flows is not ours._flows
    ours._flows.clear()
    ours.build(placed)
    kept = dict(ours._flows)
    theirs.build(placed)  # the same placement: oltp's mix and shares are the same, batch's not
    assert len(ours._flows) == len(kept) + 1
    new = {key: flows for key, flows in ours._flows.items() if key not in kept}
    for made, builder in ((kept, ours), (new, theirs)):
        for key, flows in made.items():
            w = next(
                i
                for i, wl in enumerate(builder.config.workloads)
                if builder.costs.cost_inputs(i, wl.mix) == key[0]
            )
            pool = placed[builder.config.workloads[w].pool]
            infos = [
                RankInfo(rank, pool.ranks[rank.index].span_fraction, builder._first_rank + i)
                for i, rank in enumerate(builder.config.ranks)
            ]
            again = builder._workload_flows(w, pool, infos)
            assert _bits(tuple(again)) == _bits(tuple(flows))


def test_a_drives_work_at_its_target_is_kept_by_its_inputs() -> None:
    config = _config(_two_tier())
    costs = OpCosts(config)
    for rank in config.ranks[:2]:
        gain = costs.gain(rank, 0.5, costs.queue_limit(rank))
        for target in (0.5, 0.7):
            assert _work_at(target, gain) == drive_work_at(target, gain)
        assert _work_at(0.5, gain) < _work_at(0.7, gain)


def test_a_host_adapter_variant_shares_the_workload_flows_and_builds_as_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The workloads' flows at the servers and ranks read no host adapter figure: a builder
    whose host adapter moves data twice as fast (a catalog band estimate) with the same
    stations shares the other's flows store, and each network it builds from it is, to the
    bit, the one it builds with nothing shared; another processor cost gets a store of its
    own."""
    forget_placements()
    base = _config(_two_tier())
    hw = base.hardware
    faster = hw.host_adapter.model_copy(
        update={"port_bandwidth_mb_s": 2 * hw.host_adapter.port_bandwidth_mb_s}
    )
    other = dataclasses.replace(base, hardware=dataclasses.replace(hw, host_adapter=faster))
    ours, theirs = NetworkBuilder(base), NetworkBuilder(other)
    assert theirs._flows is ours._flows
    slower_cores = hw.system.model_copy(
        update={"processor_costs": hw.system.processor_costs.model_copy(
            update={"read_hit_us": 2 * hw.system.processor_costs.read_hit_us}
        )}
    )  # fmt: skip
    cores = dataclasses.replace(base, hardware=dataclasses.replace(hw, system=slower_cores))
    assert NetworkBuilder(cores)._flows is not ours._flows
    placements = [layout(base, r) for r in _loads(base)]
    for placed in placements:
        ours.build(placed)
    shared = [_network_bits(theirs.build(placed)) for placed in placements]
    share_nothing(monkeypatch)
    assert shared == [_network_bits(NetworkBuilder(other).build(p)) for p in placements]


@pytest.mark.parametrize("da_pairs", [1, 3])
def test_a_da_pair_variant_makes_its_networks_from_the_others_as_built_alone(
    da_pairs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A builder of a configuration that differs only in its DA pairs (fewer or more, its
    ranks on other DA pairs, at other stations) sums no flows at the placements the other
    built: it takes the other's networks' columns and sums its DA pairs' alone; each is, to
    the bit, the network it builds with nothing shared. Another rank set builds its own."""
    forget_placements()
    base = _config(_two_tier())
    other = _config(_two_tier(**{"system.da_pairs": da_pairs}))
    placements = [layout(base, r) for r in _loads(base)]
    ours, theirs = NetworkBuilder(base), NetworkBuilder(other)
    assert theirs._variants is ours._variants is not None
    more = _config(_two_tier(**{"system.da_pairs": da_pairs, "pools.0.ranks.0.count": 2}))
    assert NetworkBuilder(more)._variants is not ours._variants
    for placed in placements:
        ours.build(placed)
    summed: list[int] = []
    sums_of = NetworkBuilder._sums

    def counted(self: NetworkBuilder, *args: Any) -> Any:
        summed.append(1)
        return sums_of(self, *args)

    monkeypatch.setattr(NetworkBuilder, "_sums", counted)
    built = [theirs.build(placed) for placed in placements]
    assert not summed
    for net in built:
        assert (net.work[:, net.stations_of_kind("device_adapter")].sum(axis=0) > 0).all()
    shared = [_network_bits(net) for net in built]
    share_nothing(monkeypatch)
    assert shared == [_network_bits(NetworkBuilder(other).build(p)) for p in placements]
    assert summed


def test_a_da_pair_variant_shares_the_pool_flows_and_builds_as_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A workload's flows at the servers and at its pool's ranks read of the DA pairs only
    which one each rank is on, and are made with their stations numbered within the pool
    (`_PoolFlows`): a builder with one more DA pair (its ranks on other DA pairs, at other
    stations) makes none of its own at the placements the other built, and each network it
    builds from them is, to the bit, the one it builds with nothing shared."""
    forget_placements()
    base = _config(_two_tier())
    other = _config(_two_tier(**{"system.da_pairs": 3}))
    assert [r.da_pair for r in other.ranks] != [r.da_pair for r in base.ranks]
    placements = [layout(base, r) for r in _loads(base)]
    ours, theirs = NetworkBuilder(base), NetworkBuilder(other)
    nets = [ours.build(placed) for placed in placements]
    made: list[int] = []
    made_by = NetworkBuilder._pool_flows_made

    def counted(self: NetworkBuilder, *args: Any) -> Any:
        made.append(1)
        return made_by(self, *args)

    monkeypatch.setattr(NetworkBuilder, "_pool_flows_made", counted)
    # Each network built, not made from the other's (`_from_sibling`, tested above).
    monkeypatch.setattr(network_build, "_da_pair_variants", lambda builder: None)
    theirs = NetworkBuilder(other)
    built = [theirs.build(placed) for placed in placements]
    assert not made
    for net, own in zip(nets, built, strict=True):
        # The ranks' work is the other's, at stations one further on; every DA pair carries
        # its own ranks' work.
        assert _bits(own.work[:, own.stations_of_kind("rank")]) == _bits(
            net.work[:, net.stations_of_kind("rank")]
        )
        assert (own.work[:, own.stations_of_kind("device_adapter")].sum(axis=0) > 0).all()
    shared = [_network_bits(net) for net in built]
    share_nothing(monkeypatch)
    assert shared == [_network_bits(NetworkBuilder(other).build(p)) for p in placements]
    assert made


def _worked_out_alone(net: Network) -> tuple[object, ...]:
    """What `net` works out itself of the figures its builder hands it
    (`Network.given_open_form`): from its fields alone, on a copy that holds none of them."""
    alone = object.__new__(Network)
    alone.__dict__.update({f.name: getattr(net, f.name) for f in fields(net)})
    return _bits((alone.servers, alone.solved_as, alone.open_entries))


@pytest.mark.parametrize("changes", [{}, {"system.processor_ways": 2}, {"system.da_pairs": 3}])
def test_the_open_form_a_builder_hands_a_network_is_the_one_it_works_out(
    changes: dict[str, Any],
) -> None:
    """The stations' servers, how the open solution treats them and the ranks' stacked gains
    (`Network.solved_as`, `open_entries`), made by the builder once per configuration and as
    it looks the gains up, are to the bit what the network works out itself: for a network
    built and for one a DA pair variant makes from it (`_from_sibling`)."""
    forget_placements()
    base = _config(_two_tier())
    other = _config(_two_tier(**changes))
    ours, theirs = NetworkBuilder(base), NetworkBuilder(other)
    for r in _loads(base):
        placed = layout(base, r)
        for net in (ours.build(placed), theirs.build(placed)):
            given = _bits((net.servers, net.solved_as, net.open_entries))
            assert given == _worked_out_alone(net)
