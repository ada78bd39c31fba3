"""C5 through the whole storage model: auto-rebalance after adding 2 ranks to 3.

`diskmodel run scenarios/c5-auto-rebalance.yaml`: DB Open on three 15K RAID-5 ranks, two empty
15K ranks added (`added: true`), Easy Tier auto. Published (DOMAIN.md C5): once balanced, about
55% of the IOPS stayed on the 3 original ranks. Tolerance: 2.5 points of share ("about 55%" is
given to the nearest 5 points; half of that). Nothing is fitted: the share follows from the
model's drive service times (short-stroking of the spans each rank ends with).
"""

from __future__ import annotations

import pytest

from diskmodel import predict
from diskmodel.catalog import load_catalog
from diskmodel.scenario import Scenario, load_scenario
from tests.conftest import ROOT


def test_c5_rebalanced_ranks_are_equally_busy() -> None:
    """Auto-rebalance ends with the ranks equally busy, the added ones holding less data (the
    published share itself is validated in tests/validation). It evens out the drives' work
    (their busy time at queue length one); the busy probability with command queueing then
    differs only by the gain's dependence on the span (the added ranks' data are shorter)."""
    path = ROOT / "scenarios" / "c5-auto-rebalance.yaml"
    ranks = predict(load_scenario(path), base_dir=path.parent).baseline.ranks
    assert len(ranks) == 5
    busy = [r.utilization for r in ranks]
    assert max(busy) - min(busy) < 1e-3 * max(busy)
    assert sum(r.backend_iops for r in ranks[3:]) > 0


def test_c5_without_easy_tier_load_follows_capacity() -> None:
    """The same pool with Easy Tier off: no rebalance, I/O in proportion to capacity (3/5)."""
    path = ROOT / "scenarios" / "c5-auto-rebalance.yaml"
    data = load_scenario(path).model_dump(mode="python")
    data["pools"][0]["easy_tier"] = "off"
    off = Scenario.model_validate(data, context={"catalog": load_catalog()})
    ranks = predict(off, base_dir=path.parent).baseline.ranks
    share = sum(r.backend_iops for r in ranks[:3]) / sum(r.backend_iops for r in ranks)
    assert share == pytest.approx(0.6, rel=1e-9)
