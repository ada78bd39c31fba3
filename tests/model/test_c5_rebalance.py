"""Calibration C5 through the whole storage model: auto-rebalance after adding 2 ranks to 3.

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

from ..support.calibration import record

pytestmark = pytest.mark.calibration

PUBLISHED_SHARE = 0.55
TOLERANCE_POINTS = 0.025


@pytest.mark.xfail(
    strict=True,
    reason="known gap: predicted 58.8% vs about 55% (+3.8 points, tolerance 2.5) since the "
    "DS8800's 15K drives take their 2.5-inch figures (shorter seeks, a flatter dependence on the "
    "data span, so auto-rebalance moves less to the added ranks; it was 56.8% with the 3.5-inch "
    "figures) and destages are ordered (short seeks whatever the span: 57.6% before)",
)
def test_c5_share_left_on_the_original_ranks() -> None:
    path = ROOT / "scenarios" / "c5-auto-rebalance.yaml"
    prediction = predict(load_scenario(path), base_dir=path.parent)
    ranks = prediction.baseline.ranks
    assert len(ranks) == 5
    total = sum(r.backend_iops for r in ranks)
    original = sum(r.backend_iops for r in ranks[:3]) / total
    error = original - PUBLISHED_SHARE
    record(
        "C5",
        "back-end IOPS share left on the 3 original ranks",
        original,
        "about 55%",
        f"{error * 100:+.1f} points",
        f"{TOLERANCE_POINTS * 100:.1f} points",
    )
    # Auto-rebalance ends with the ranks equally busy, the added ones holding less data.
    # It evens out the drives' work (their busy time at queue length one); the busy
    # probability with command queueing then differs only by the gain's dependence on the
    # span (the added ranks' data are shorter): under 0.1%.
    busy = [r.utilization for r in ranks]
    assert max(busy) - min(busy) < 1e-3 * max(busy)
    assert abs(error) <= TOLERANCE_POINTS


def test_c5_without_easy_tier_load_follows_capacity() -> None:
    """The same pool with Easy Tier off: no rebalance, I/O in proportion to capacity (3/5)."""
    path = ROOT / "scenarios" / "c5-auto-rebalance.yaml"
    data = load_scenario(path).model_dump(mode="python")
    data["pools"][0]["easy_tier"] = "off"
    off = Scenario.model_validate(data, context={"catalog": load_catalog()})
    ranks = predict(off, base_dir=path.parent).baseline.ranks
    share = sum(r.backend_iops for r in ranks[:3]) / sum(r.backend_iops for r in ranks)
    assert share == pytest.approx(0.6, rel=1e-9)
