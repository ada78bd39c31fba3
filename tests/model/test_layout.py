"""Placement at a load (`model.layout`): ranks of one kind holding the same data are rebalanced
as one group, which must give exactly what a rank-by-rank rebalance gives; a tier's load
ceiling is its crossing of the utilisation target."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from bench.bench_model import BOUND_SSD_RANKS, bench_scenario
from diskmodel.catalog import load_catalog
from diskmodel.configuration import Rank, resolve
from diskmodel.model import Solver
from diskmodel.model.costs import OpCosts
from diskmodel.model.layout import _CEILING_TOL, layout
from diskmodel.model.pool_load import pools_at
from diskmodel.model.rank_shares import EMPTY_FRACTION, data_before_rebalance, split_tier
from diskmodel.scenario import Scenario
from diskmodel.tiering.placement import PoolPlacer
from diskmodel.tiering.rebalance import RankBefore, rebalance
from diskmodel.tiering.skew import LevelSkew

from ..support.builders import BASE, with_data


def _ssd_ranks() -> tuple[Rank, ...]:
    data = copy.deepcopy(BASE)
    data["pools"][0]["ranks"] = [
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 5},
        {"drive": "ssd-300", "raid": "raid10-4x2", "count": 3},
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 2, "added": True},
    ]
    return resolve(with_data(data), load_catalog()).ranks


def _service(rank: Rank, span: float) -> float:
    # Any busy time that does not fall with the span: RAID-10 ranks faster, as they are.
    base = 1e-4 if rank.raid.level == 10 else 2e-4
    return base * (0.6 + 0.4 * span)


def test_grouped_rebalance_equals_the_rank_by_rank_one() -> None:
    ranks = _ssd_ranks()
    used_gb = 0.5 * sum(r.capacity_gb for r in ranks)
    skew = LevelSkew(7.0)
    grouped = split_tier(ranks, used_gb, skew, _service, rebalanced=True)

    data = data_before_rebalance(ranks, used_gb)
    alone = rebalance(
        [
            RankBefore(
                str(r.index), r.capacity_gb, gb, lambda s, r=r: _service(r, max(s, EMPTY_FRACTION))
            )
            for r, gb in zip(ranks, data, strict=True)
        ],
        1.0,
        skew,
    )
    total_gb = sum(load.data_gb for load in alone.ranks)
    for r, load in zip(ranks, alone.ranks, strict=True):
        share = grouped[r.index]
        assert share.small_io_share == pytest.approx(load.small_io_share, rel=1e-7, abs=1e-12)
        assert share.data_share == pytest.approx(load.data_gb / total_gb, rel=1e-7, abs=1e-12)
        assert share.span_fraction == pytest.approx(load.span_fraction, rel=1e-7)
    assert len({round(grouped[r.index].small_io_share, 12) for r in ranks}) == 3


def test_only_the_drive_service_depends_on_the_span() -> None:
    # OpCosts keeps every part of an operation but its drive service across the spans a
    # ceiling search tries: that holds only while the span moves nothing else. A random
    # operation seeks over the span; so does a stream's operation when other work came between
    # it and the stream's previous one (a sequential one gets shorter too, never longer).
    data = copy.deepcopy(BASE)
    data["workloads"][0].update(read_sequential_fraction=0.4, write_sequential_fraction=0.3)
    config = resolve(with_data(data), load_catalog())
    rank, mix = config.ranks[0], config.workloads[0].mix
    short, long = OpCosts(config).of(0, mix, rank, 0.2), OpCosts(config).of(0, mix, rank, 0.9)
    assert {op.sequential for op in short} == {True, False}
    for near, far in zip(short, long, strict=True):
        assert (near.io_class, near.count, near.size_bytes, near.da) == (
            far.io_class,
            far.count,
            far.size_bytes,
            far.da,
        )
        assert near.drive.mean_s < far.drive.mean_s  # a shorter seek on the shorter span


def test_op_costs_do_not_depend_on_the_order_spans_are_asked_in() -> None:
    # Spans within 5e-10 share one memo entry; the costs are those of the rounded span, so
    # the first caller's exact span does not decide them for the others (a faster placement
    # search that asked in another order once changed results in the 11th digit).
    config = resolve(with_data(copy.deepcopy(BASE)), load_catalog())
    rank, mix = config.ranks[0], config.workloads[0].mix
    low, high = 0.3 + 1e-11, 0.3 + 4e-10
    up, down = OpCosts(config), OpCosts(config)
    first_up = up.of(0, mix, rank, low)
    assert up.of(0, mix, rank, high) is first_up  # one memo entry
    down.of(0, mix, rank, high)
    assert down.of(0, mix, rank, low) == first_up
    assert first_up == OpCosts(config).of(0, mix, rank, 0.3)


def test_a_bound_tier_holds_the_highest_ceiling_within_its_target() -> None:
    """The bench's pool with 4 SSD ranks at its maximum, where the enterprise tier's target
    binds: its ceiling passes the target and a ceiling higher by twice the search's tolerance
    (of the load it would hold without one) does not, so the answer is the crossing to that
    tolerance."""
    catalog = load_catalog()
    data = bench_scenario()
    data["pools"][0]["ranks"][0]["count"] = BOUND_SSD_RANKS
    config = resolve(Scenario.model_validate(data, context={"catalog": catalog}), catalog)
    solver = Solver(config)
    unit = solver.planned_rates() / solver.planned_rates().sum()
    rates = unit * solver.saturation(unit)[0]
    costs = OpCosts(config)
    placed = layout(config, rates, costs)["tiered"]
    assert placed.bound == ("enterprise",)

    pool = next(pools_at(config, rates, costs))
    demands = pool.demands()
    placer = PoolPlacer(demands, easy_tier=True)

    def shortfall(ceiling: float) -> float:
        placement = placer.place(pool.tiers({"enterprise": ceiling}))
        return pool.shortfall(
            "enterprise",
            placement,
            pool.split(placement, demands),
            np.zeros(config.hardware.da_pairs),
        )

    held = placer.place(pool.tiers()).on("enterprise").small_io_iops
    ceiling = placed.ceilings_iops["enterprise"]
    assert 0 < ceiling < held
    assert shortfall(ceiling) <= 0 < shortfall(ceiling + 2 * _CEILING_TOL * held)
