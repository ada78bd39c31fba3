"""Media preference (issue 12 item 3): a stated capacity of a workload pinned to a tier, the
rest placed by the pool's Easy Tier setting."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diskmodel.scenario import ScenarioError
from diskmodel.tiering.placement import place_pool
from diskmodel.tiering.records import Preference, Tier, WorkloadDemand
from diskmodel.tiering.skew import skew_from_level

from ..support.builders import BASE, predict_one, with_data

TIERS = [Tier("ssd", 1000.0), Tier("enterprise", 20000.0)]


@given(
    pinned=st.floats(1.0, 999.0),
    level=st.floats(1.0, 24.0),
    share=st.none() | st.floats(0.0, 1.0),
    easy_tier=st.booleans(),
)
def test_the_pinned_capacity_is_held_exactly_and_shares_add_up(
    pinned: float, level: float, share: float | None, easy_tier: bool
) -> None:
    preference = Preference("ssd", pinned, share)
    w = WorkloadDemand("db", 10000.0, 500.0, 5.0, skew_from_level(level), preference=preference)
    placed = place_pool(TIERS, [w], easy_tier=easy_tier).workload("db")
    ssd, ent = placed.on("ssd"), placed.on("enterprise")
    assert ssd.capacity_used_gb >= pinned * (1 - 1e-9)
    assert ssd.capacity_used_gb + ent.capacity_used_gb == pytest.approx(10000.0)
    assert ssd.small_io_share + ent.small_io_share == pytest.approx(1.0)
    assert ssd.mb_share + ent.mb_share == pytest.approx(1.0)
    head = skew_from_level(level).share(pinned / 10000.0) if share is None else share
    assert ssd.small_io_share >= float(head) - 1e-9


def test_with_easy_tier_off_the_rest_follows_free_capacity() -> None:
    w = WorkloadDemand(
        "db", 10000.0, 500.0, 5.0, skew_from_level(14), preference=Preference("ssd", 400, 0.3)
    )
    ssd = place_pool(TIERS, [w], easy_tier=False).workload("db").on("ssd")
    free_ssd = 600.0 / (600.0 + 20000.0)
    assert ssd.capacity_used_gb == pytest.approx(400 + 9600 * free_ssd)
    assert ssd.small_io_share == pytest.approx(0.3 + 0.7 * free_ssd)


def test_a_preference_for_the_whole_workload_is_a_pin() -> None:
    whole = WorkloadDemand("db", 800.0, 500.0, 5.0, preference=Preference("ssd", 800.0))
    pinned = WorkloadDemand("db", 800.0, 500.0, 5.0, pin_tier="ssd")
    assert place_pool(TIERS, [whole], easy_tier=True) == place_pool(TIERS, [pinned], easy_tier=True)


def _data(**pin: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0]["ranks"].append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1})
    data["workloads"][0]["skew"] = {"level": 14}
    data["workloads"][0]["pin"] = pin
    return data


def test_pinning_the_hot_data_on_ssd_relieves_the_hdds_and_is_reported() -> None:
    pinned = predict_one(with_data(_data(tier="ssd", capacity_gb=300)))
    data = _data(tier="ssd", capacity_gb=300)
    del data["workloads"][0]["pin"]
    spread = predict_one(with_data(data))
    assert pinned.max_iops > spread.max_iops
    (ssd,) = [a for a in pinned.workloads[0].allocation if a.tier == "ssd"]
    assert ssd.capacity_gb >= 300 * (1 - 1e-9)
    assert "300 GB on ssd" in pinned.inputs.workloads[0].pin


@pytest.mark.parametrize(
    ("pin", "extra", "message"),
    [
        ({"tier": "ssd", "capacity_gb": 300}, {"pin_tier": "ssd"}, "not both"),
        ({"tier": "ssd", "capacity_gb": 5000}, {}, "pin at most its capacity_gb"),
        ({"tier": "nearline", "capacity_gb": 10}, {}, "has no nearline ranks"),
        ({"tier": "ssd", "capacity_gb": 2000}, {}, "pin.capacity_gb: pinned to ssd"),
    ],
)
def test_bad_pins_get_one_clear_message(
    pin: dict[str, Any], extra: dict[str, Any], message: str
) -> None:
    data = _data(**pin)
    data["workloads"][0].update(extra)
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(data)
    assert message in str(caught.value)
