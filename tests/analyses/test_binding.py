"""What binds, answered once (issue 31 item 3): the planning maximum, the planned load (the
report's cards) and every growth step name their limits with `analyses.limits.binding_names`.

Before: the planning maximum named the limit reached at the lowest load (rank utilisation)
while a growth step where both were broken named the first in the service level's order (DA
pair utilisation); a saturated growth step named "response time ≤ 5 ms" instead of the
saturated station; and only one limit was named where several were broken.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from diskmodel.prediction import Prediction
from diskmodel.report.html import render_html
from diskmodel.report.table import Output
from diskmodel.report.text import render

from ..conftest import SCENARIOS
from ..support.builders import BASE, predict_one, with_data
from ..support.shipped import predicted

RANK = "rank (per drive) utilisation ≤ 50%"
DA = "DA pair utilisation ≤ 40%"


@pytest.fixture(scope="module")
def two_limits() -> Prediction:
    """Eight 15K ranks on one DA pair: the rank ceiling (50%) is reached near 11,700 IOPS,
    the DA pair's (40%) near 17,500, saturation near 26,000; growth steps at 6,000 (both
    met), 19,200 (both broken) and 30,000 (saturated)."""
    data = copy.deepcopy(BASE)
    data["system"]["da_pairs"] = 1
    data["pools"][0]["ranks"][0]["count"] = 8
    data["workloads"][0]["iops"] = 6000
    data["service_level"] = {
        "response_time_ms": 1000,
        "utilization": {"rank": 0.5, "device_adapter": 0.4},
    }
    data["analyses"] = {"growth": {"factors": [1, 3.2, 5]}}
    return predict_one(with_data(data))


def test_a_growth_step_names_the_limit_the_planning_maximum_names(two_limits: Prediction) -> None:
    level = two_limits.service_level
    assert level.binding == RANK
    both = two_limits.growth[1]
    assert both.saturated is False
    assert both.binding == RANK  # was DA: the first broken in the service level's order
    assert both.broken == (RANK, DA)


def test_a_saturated_growth_step_names_the_saturated_station_then_every_broken_limit(
    two_limits: Prediction,
) -> None:
    past = two_limits.growth[2]
    assert past.iops > two_limits.max_iops
    assert past.binding == f"saturated: {two_limits.bottleneck}"
    assert past.broken == (past.binding, RANK, DA, "response time ≤ 1000 ms")
    # The host adapters and processors are far below their ceilings: not named.
    assert not any("host adapter" in b or "processor" in b for b in past.broken)


def test_the_reports_name_every_broken_limit(two_limits: Prediction) -> None:
    from diskmodel.prediction import ScenarioPrediction

    whole = ScenarioPrediction("two limits", "", two_limits, ())
    text = render(whole, Output(False, 200))
    assert f"not met: {RANK}; {DA}" in text
    assert f"not met: saturated: {two_limits.bottleneck}; {RANK}; {DA}" in text
    html = render_html(whole, timestamp=False)
    assert f"not met ({RANK}; {DA})" in html


def test_the_planned_load_names_every_limit_it_breaks(tmp_path: Path) -> None:
    """The cards: the planned load of ent-nearline-growth's "Easy Tier off" is saturated on a
    nearline rank and breaks the response time and the rank ceiling; the host adapters at
    a few per cent are not named."""
    path = next(p for p in SCENARIOS if p.name == "ent-nearline-growth.yaml")
    prediction = predicted(path)
    off = prediction.alternatives[0]
    assert off.saturated
    assert off.service_level.broken[0] == f"saturated: {off.bottleneck}"
    assert set(off.service_level.broken[1:]) == {
        "response time ≤ 5 ms",
        "rank (per drive) utilisation ≤ 70%",
    }
    html = render_html(prediction, timestamp=False)
    assert "not met at this load (saturated: rank 8" in html


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_growth_step_names_what_binds_first_first(path: Path) -> None:
    prediction = predicted(path)
    for p in prediction.configurations:
        reached = {lim.label: lim.max_iops for lim in p.service_level.limits}
        for step in [*p.growth]:
            assert step.meets_service_level == (not step.broken)
            assert step.binding == (step.broken[0] if step.broken else None)
            limits = [b for b in step.broken if not b.startswith("saturated")]
            loads = [reached[b] if reached[b] is not None else float("inf") for b in limits]
            assert loads == sorted(loads), (p.name, step.label, step.broken)
            if p.service_level.binding in limits:
                assert limits[0] == p.service_level.binding
            if step.saturated:
                assert step.broken[0].startswith("saturated: ")
