"""The storage model's use of tier placement (`diskmodel.model.layout`): Easy Tier placing for
the load under each tier's utilisation target, the maximum with placement following the load,
and auto-rebalance over added ranks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.model import Solver
from diskmodel.model.layout import layout
from diskmodel.scenario import Scenario, load_scenario
from tests.conftest import ROOT

from ..support.builders import predict_one

CATALOG = load_catalog()


def tiered(level: float, *, ssd_ranks: int = 1, easy_tier: str = "auto") -> Scenario:
    """A DS8800 pool of 8 x 15K RAID-5 ranks and SSD ranks, random 4 KiB OLTP, no sequential."""
    ranks: list[dict[str, Any]] = [{"drive": "15k-300", "raid": "raid5-7+p", "count": 8}]
    if ssd_ranks:
        ranks.append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": ssd_ranks})
    data = {
        "schema_version": 1,
        "name": "tiered",
        "system": {
            "model": "ds8800-951",
            "processor_ways": 4,
            "cache_gb": 128,
            "host_ports": 8,
            "da_pairs": 2,
        },
        "pools": [{"name": "p", "easy_tier": easy_tier, "ranks": ranks}],
        "workloads": [
            {
                "name": "w",
                "pool": "p",
                "iops": 2000,
                "read_fraction": 0.7,
                "read_hit_ratio": 0.4,
                "destage_ratio": 0.6,
                "read_size_kib": 4,
                "write_size_kib": 4,
                "capacity_gb": 16_000,
                "skew": {"level": level},
            }
        ],
    }
    return Scenario.model_validate(data, context={"catalog": CATALOG})


def _solver(s: Scenario) -> Solver:
    return Solver(resolve(s, CATALOG))


@pytest.mark.parametrize("level", [3.5, 14.0, 24.0])
def test_easy_tier_keeps_every_faster_tier_within_its_target(level: float) -> None:
    """At any load up to the maximum, every tier but the slowest stays at or under the pool's
    utilisation target (0.8) on its drives, with Easy Tier placing for that load."""
    sv = _solver(tiered(level))
    top, _ = sv.saturation(np.array([1.0]))
    for fraction in (0.2, 0.5, 0.8, 0.99):
        point = sv.open_point(np.array([top * fraction]))
        ssd = [i.station for i in point.network.ranks if i.rank.tier == "ssd"]
        assert point.utilization[ssd].max() <= 0.8 * (1 + 1e-6)


def test_skew_24_max_iops_not_held_down_by_the_planned_placement() -> None:
    """Issue 5 (a): placed for the planned load only, at level 24 the SSD rank holds so much of
    the hot data that it saturates first and the maximum dropped below level 14's. Placed for
    each load, the SSD keeps to its utilisation target and the HDD tier saturates first.

    The maximum may still fall a little from 14 to 24 (measured 0.14%: 38,758 -> 38,703 IOPS):
    a steeper curve lets the SSD reach its target with less data, so the HDDs hold more and
    seek further (docs/model.md §5); the defect was the SSD saturating, a far larger drop. Nor
    is it above the planned placement's own saturation any more (38,703 against 41,169): with
    each HDD credited the reordering of 2 commands (C9), the HDD tier saturates while Easy Tier
    still holds the SSD at its 0.8 target."""
    very_high = predict_one(tiered(24.0))
    high = predict_one(tiered(14.0))
    assert very_high.max_iops >= high.max_iops * (1 - 0.005)
    assert very_high.bottleneck_kind == "rank"
    assert "ssd" not in very_high.bottleneck
    ssd_share_at_planned = next(t for t in very_high.tiers if t.tier == "ssd").small_io_share
    assert ssd_share_at_planned > 0.9  # at the planned load the SSD still takes the hot data


def test_planned_placement_keeps_the_ssd_under_its_ceiling_and_full_below_it() -> None:
    """At a light planned load the SSD is not limited: it holds the hottest data to capacity."""
    p = predict_one(tiered(14.0))
    ssd = next(t for t in p.tiers if t.tier == "ssd")
    assert ssd.used_gb == pytest.approx(ssd.capacity_gb, rel=1e-9)
    assert ssd.utilization < 1.0
    assert ssd.small_io_share > ssd.used_gb / 16_000  # hotter than its part of the data


def test_placement_follows_the_load_only_once_a_ceiling_binds() -> None:
    """Below the load at which the SSD reaches its target, every load of the mix shares one
    placement (and one network); above it, the SSD holds less of the hot data as load grows."""
    sv = _solver(tiered(14.0))
    light = [sv.open_point(np.array([x])) for x in (500.0, 1000.0, 2000.0)]
    assert light[0].network is light[1].network is light[2].network
    top, _ = sv.saturation(np.array([1.0]))
    heavy = [sv.open_point(np.array([top * f])) for f in (0.7, 0.85, 0.99)]
    shares = [
        next(t for t in p.network.layout["p"].placement.tiers if t.tier == "ssd").small_io_share
        for p in heavy
    ]
    assert shares == sorted(shares, reverse=True)
    assert shares[-1] < shares[0]


def test_easy_tier_off_spreads_by_capacity() -> None:
    p = predict_one(tiered(24.0, easy_tier="off"))
    capacity = sum(t.capacity_gb for t in p.tiers)
    for t in p.tiers:
        assert t.small_io_share == pytest.approx(t.capacity_gb / capacity, rel=1e-9)
        assert t.mb_share == pytest.approx(t.capacity_gb / capacity, rel=1e-9)


def test_added_ranks_rebalanced_original_ranks_keep_their_span() -> None:
    """C5 pool: the 3 original ranks keep the span of their data before the 2 were added
    (4,500 GB on 3 x 2,100 GB), the added ranks' spans are what they received."""
    path = ROOT / "scenarios" / "c5-auto-rebalance.yaml"
    point = _solver(load_scenario(path)).planned_point()
    spans = [ri.span for ri in point.network.ranks]
    assert spans[:3] == pytest.approx([4500 / 6300] * 3, rel=1e-9)
    assert all(s < spans[0] for s in spans[3:])
    # Rebalance evens out the drives' work; their busy probability with command queueing
    # then differs only by the gain's dependence on the span: under 0.1%.
    work = point.rates @ point.network.work
    drives = [work[ri.station] for ri in point.network.ranks]
    assert np.ptp(drives) < 1e-9 * max(drives)
    busy = [point.utilization[ri.station] for ri in point.network.ranks]
    assert np.ptp(busy) < 1e-3 * max(busy)


def test_added_ranks_without_easy_tier_follow_capacity() -> None:
    path = ROOT / "scenarios" / "c5-auto-rebalance.yaml"
    data = load_scenario(path).model_dump(mode="python")
    data["pools"][0]["easy_tier"] = "off"
    off = Scenario.model_validate(data, context={"catalog": CATALOG})
    point = _solver(off).planned_point()
    assert [ri.span for ri in point.network.ranks] == pytest.approx([4500 / 10500] * 5)


def test_closed_workloads_are_placed_for_the_rate_they_settle_at() -> None:
    """The layout of a closed point is Easy Tier's for the rate the closed system reaches."""
    s = tiered(24.0)
    data = s.model_dump(mode="python")
    del data["workloads"][0]["iops"]
    data["workloads"][0]["queue_depth"] = 64
    closed = Scenario.model_validate(data, context={"catalog": CATALOG})
    config = resolve(closed, CATALOG)
    point = Solver(config).planned_point()
    again = layout(config, point.rates)["p"].placement
    placed = point.network.layout["p"].placement
    for a, b in zip(again.tiers, placed.tiers, strict=True):
        assert a.small_io_share == pytest.approx(b.small_io_share, rel=1e-3, abs=1e-6)


def test_a_tier_holding_only_rounding_is_not_rebalanced() -> None:
    """Found by fuzzing: 1 MB of data in an Easy Tier pool of SSD and HDD ranks; placed at the
    tiers' limit the SSD tier holds a rounding remainder, which is not data to rebalance."""
    data = {
        "schema_version": 1,
        "name": "edge",
        "system": {
            "model": "ds8700-941",
            "processor_ways": 2,
            "cache_gb": 32,
            "host_ports": 1,
            "da_pairs": 1,
        },
        "pools": [
            {
                "name": "p0",
                "easy_tier": "auto",
                "ranks": [
                    {"drive": "ssd-146", "raid": "raid5-6+p+s", "count": 5},
                    {"drive": "15k-450", "raid": "raid5-6+p+s", "count": 1},
                ],
            }
        ],
        "workloads": [
            {
                "name": "w0",
                "pool": "p0",
                "read_fraction": 0.0,
                "read_hit_ratio": 0.0,
                "destage_ratio": 1e-09,
                "read_size_kib": 0.5,
                "write_size_kib": 0.5,
                "capacity_gb": 0.001,
                "iops": 100000.0,
                "skew": {"points": [[1e-09, 0.999999999]]},
            }
        ],
    }
    p = predict_one(Scenario.model_validate(data, context={"catalog": CATALOG}))
    assert np.isfinite(p.max_iops)
    assert sum(t.used_gb for t in p.tiers) == pytest.approx(0.001)
