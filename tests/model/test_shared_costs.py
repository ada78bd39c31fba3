"""Placement work shared between configurations (issue 30: a sizing search's candidates differ
in rank counts and DA pairs, and placed each other's data again): the operation costs and what
is derived from them alone (`model.costs._memo_for`, `OpCosts.shared`: a pool's drive times,
its per-kind times, its tiers' splits over their ranks) and the placers with their placements
(`tiering.placement.placer_for`). Every figure shared is the figure made alone, to the bit; a
memo is shared only where a drive or RAID format name stands for the same figures."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np

from diskmodel.configuration import Configuration, resolve
from diskmodel.model.costs import OpCosts, _CostMemo
from diskmodel.model.layout import forget_placements, layout, layout_and_headroom, network_key
from diskmodel.model.operating import Solver
from diskmodel.model.pool_load import _tier_skew, pools_at
from diskmodel.model.rank_shares import split_tier
from diskmodel.model.rank_times import PoolTimes
from diskmodel.tiering.placement import PoolPlacer, placer_for
from diskmodel.tiering.records import Tier, WorkloadDemand
from diskmodel.tiering.skew import LevelSkew

from ..support.builders import BASE, changed, with_data


def _family(ssd: int, k300: int, k146: int, da_pairs: int) -> dict[str, Any]:
    """A sizing search's candidate: an Easy Tier pool of SSD ranks over an enterprise tier of
    two drive kinds (auto-rebalance splits it by the drives' times), one OLTP workload."""
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["system"]["da_pairs"] = da_pairs
    data["pools"][0]["easy_tier"] = "auto"
    data["pools"][0]["ranks"] = [
        r
        for r in (
            {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": ssd},
            {"drive": "15k-300", "raid": "raid5-7+p", "count": k300},
            {"drive": "15k-146", "raid": "raid5-7+p", "count": k146},
        )
        if r["count"] > 0
    ]
    oltp = data["workloads"][0]
    oltp.update(iops=9000, capacity_gb=5000, skew={"level": 7.0})
    # A second workload of another mix and curve: the tiers' drive times mix the two by
    # their rates, and a tier's data are the segment of whichever is the busier there.
    batch = dict(oltp, name="batch", iops=1500, read_size_kib=64, capacity_gb=3000)
    batch.update(read_sequential_fraction=0.5, skew={"level": 3.0}, destage_ratio=0.8)
    data["workloads"].append(batch)
    return changed(data)


CANDIDATES = [
    (1, 6, 2, 2),
    (1, 6, 2, 4),  # the DA pairs apart
    (2, 6, 2, 2),  # another SSD rank
    (1, 8, 2, 3),
    (1, 6, 4, 2),
    (0, 6, 2, 2),  # one tier: no Easy Tier ceiling
]


def _config(candidate: tuple[int, int, int, int]) -> Configuration:
    return resolve(with_data(_family(*candidate)))


def _bits(value: object) -> object:
    """`value` with its floats and arrays as their bits."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, tuple | list):
        return tuple(_bits(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _bits(v)) for k, v in sorted(value.items()))
    return value


LOADS = [
    np.array(r) for r in ([9000.0, 1500.0], [9000.0, 4000.0], [35000.0, 2500.0], [45000.0, 1000.0])
]
"""The planned rates and another mix where no ceiling binds (the SSD tier full, on the same
span at both), and two loads of other mixes where the SSD tier's ceiling binds."""


def _answers(config: Configuration) -> list[object]:
    """Every placement figure (ceilings, shares, spans) and the response and utilisations
    at each of `LOADS`, to the bit."""
    solver = Solver(config)
    out: list[object] = []
    for rates in LOADS:
        placed, room = layout_and_headroom(config, rates)
        ceilings = [p.ceilings_iops for p in placed.values()]
        out.append(_bits([network_key(placed), ceilings, room]))
        point = solver.open_point(rates)
        out.append(_bits([point.response_s, point.utilization]))
    return out


def test_candidates_solved_in_turn_give_what_each_gives_alone() -> None:
    """Solved one after another (every store shared), each candidate's placements and points
    are those it gets solved alone, after every store is forgotten."""
    forget_placements()
    in_turn = [_answers(_config(c)) for c in CANDIDATES]
    for candidate, shared in zip(CANDIDATES, in_turn, strict=True):
        forget_placements()
        assert _answers(_config(candidate)) == shared, candidate
    # And in the reverse order: no answer depends on which candidate came first.
    forget_placements()
    assert [_answers(_config(c)) for c in reversed(CANDIDATES)] == in_turn[::-1]


def test_a_ceiling_binds_and_the_enterprise_tier_is_rebalanced() -> None:
    """The family exercises what is shared: at the highest load the SSD tier is held to a
    ceiling and the enterprise tier of two kinds splits unlike capacity."""
    config = _config(CANDIDATES[0])
    placed = layout(config, LOADS[-1])["p"]
    assert placed.bound == ("ssd",)
    enterprise = [r for r in config.ranks if r.tier == "enterprise"]
    spans = {placed.ranks[r.index].span_fraction for r in enterprise}
    assert len(spans) == 2  # the 146 GB and the 300 GB ranks hold their data on other spans


def test_costs_are_shared_where_their_inputs_agree() -> None:
    """Candidates that differ in DA pairs or rank counts (the same NVS per rank) share one
    memo; another planned rate (a cost input) does not."""
    forget_placements()
    one = OpCosts(_config((1, 6, 2, 2)))
    assert OpCosts(_config((1, 6, 2, 4)))._memo is one._memo
    assert OpCosts(_config((2, 6, 2, 2)))._memo is one._memo
    data = _family(1, 6, 2, 2)
    data["workloads"][0]["iops"] = 9001
    assert OpCosts(resolve(with_data(data)))._memo is not one._memo


def test_another_nvs_per_rank_shares_the_shapes_and_sorts_its_own_destages() -> None:
    """A candidate with more ranks per server (less NVS per rank: a memo of its own) shares
    the other's operation shapes before the ordered destages' sort sets (`_CostMemo.nvs_free`)
    and gets, to the bit, the shapes it gets alone: its own ordered destages' sort sets."""
    forget_placements()
    one = OpCosts(_config((1, 6, 2, 2)))
    config = _config((1, 8, 2, 3))
    other = OpCosts(config)
    assert other._memo is not one._memo
    assert other._memo.nvs_free is one._memo.nvs_free
    assert other.inputs.ordered_destage
    mixes = [w.mix for w in config.workloads]
    for costs in (one, other):
        for w, mix in enumerate(mixes):
            for rank in config.ranks:
                costs.span_free(w, mix, rank)
    shared = [[other.span_free(w, mix, r) for r in config.ranks] for w, mix in enumerate(mixes)]
    forget_placements()
    alone = OpCosts(config)
    assert alone._memo.nvs_free is not one._memo.nvs_free  # alone: nothing shared
    own = [[alone.span_free(w, mix, r) for r in config.ranks] for w, mix in enumerate(mixes)]
    assert _bits([[[dataclasses.astuple(op) for op in ops] for ops in row] for row in shared]) == (
        _bits([[[dataclasses.astuple(op) for op in ops] for ops in row] for row in own])
    )
    sorted_sets = {op.pending for row in own for ops in row for op in ops} - {None}
    assert sorted_sets  # the ordered destages' sort sets are there, and differ from one's
    assert not sorted_sets & {
        op.pending for w, mix in enumerate(mixes) for r in config.ranks
        for op in one.span_free(w, mix, r)
    }  # fmt: skip


def test_a_memo_takes_no_name_that_stands_for_other_figures() -> None:
    """A drive of the same name with other figures (another system's packaging, a user's
    catalog) is not taken by a memo that holds the name, nor is its RAID format."""
    config = _config((1, 6, 2, 2))
    memo = _CostMemo()
    assert memo.takes(config.ranks)
    rank = config.ranks[-1]
    bigger = rank.drive.model_copy(update={"capacity_gb": rank.drive.capacity_gb * 2})
    assert not memo.takes((dataclasses.replace(rank, drive=bigger),))
    other_raid = rank.raid.model_copy(update={"data_drives": rank.raid.data_drives - 1})
    assert not memo.takes((dataclasses.replace(rank, raid=other_raid),))
    assert memo.takes(config.ranks)  # the same figures again


def test_a_memo_refused_gets_a_memo_of_its_own() -> None:
    """Configurations whose names stand for other figures each get a memo (`_memo_for`)."""
    forget_placements()
    config = _config((1, 6, 2, 2))
    first = OpCosts(config)._memo
    rank = config.ranks[-1]
    bigger = rank.drive.model_copy(update={"capacity_gb": rank.drive.capacity_gb * 2})
    ranks = tuple(
        dataclasses.replace(r, drive=bigger) if r.drive.name == rank.drive.name else r
        for r in config.ranks
    )
    other = dataclasses.replace(config, ranks=ranks)
    assert OpCosts(other)._memo is not first
    assert OpCosts(config)._memo is first


def test_a_placer_is_kept_by_its_workloads_and_places_as_a_new_one() -> None:
    forget_placements()
    curve = LevelSkew(6.0)
    workloads = [
        WorkloadDemand("a", 3000.0, small_io_iops=5000.0, mb_s=40.0, skew=curve),
        WorkloadDemand("b", 2000.0, small_io_iops=800.0, mb_s=90.0, skew=LevelSkew(2.0)),
    ]
    placer = placer_for(workloads, easy_tier=True)
    assert placer_for([dataclasses.replace(w) for w in workloads], easy_tier=True) is placer
    assert placer_for(workloads, easy_tier=False) is not placer
    for tiers in (
        [Tier("ssd", 700.0), Tier("enterprise", 6000.0)],
        [Tier("ssd", 700.0, 2500.0), Tier("enterprise", 6000.0)],
    ):
        kept = placer.place(tiers)
        assert placer.place(list(tiers)) is kept
        fresh = PoolPlacer(workloads, easy_tier=True).place(tiers)
        assert _bits(kept.table) == _bits(fresh.table)
        assert kept == fresh


def test_forgetting_the_placements_forgets_the_shared_costs() -> None:
    config = _config((1, 6, 2, 2))
    memo = OpCosts(config)._memo
    forget_placements()
    assert OpCosts(config)._memo is not memo


def test_a_pool_s_drive_times_and_splits_shared_are_each_load_s_own() -> None:
    """Pools at loads of other mixes, of candidates that share costs, each get the drive times
    and splits their own workloads and rates give (`PoolTimes` and `split_tier` anew), on the
    same spans: the shared stores are keyed by everything those read."""
    forget_placements()
    for candidate in CANDIDATES[:3]:
        config = _config(candidate)
        costs = OpCosts(config)
        for rates in LOADS:
            (pool,) = pools_at(config, rates, costs)
            times = PoolTimes(costs, pool.members)
            for rank in config.ranks:
                for span in (1.0, 0.5):
                    got = pool.drive_times(rank, span).small_drive_s
                    assert got == times.small_io_drive_time_s(rank, span), (candidate, rates)
            demands = pool.demands()
            placement, shares = pool.free_placement(demands)
            enterprise = [r for r in config.ranks if r.tier == "enterprise"]
            used_gb = placement.on("enterprise").capacity_used_gb
            alone = split_tier(
                enterprise,
                used_gb,
                _tier_skew(placement, pool.pool.tiers, "enterprise", demands),
                lambda rank, span, times=times: times.small_io_drive_time_s(rank, round(span, 9)),
                rebalanced=True,
            )
            assert {r.index: shares[r.index] for r in enterprise} == alone
