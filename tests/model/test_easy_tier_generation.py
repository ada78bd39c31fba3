"""Easy Tier generations (issue 12 item 4): the first places by I/O density only over two
tiers, with no load limit and no auto-rebalance; the second adds both (and three tiers)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.model.layout import layout
from diskmodel.scenario import ScenarioError

from ..support.builders import BASE, predict_one, with_data


def _data(
    generation: int | None, iops: float = 3000.0, system: str = "ds8800-951"
) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["system"]["model"] = system
    data["pools"][0]["easy_tier"] = (
        {"mode": "auto"} if generation is None else {"mode": "auto", "generation": generation}
    )
    data["pools"][0]["ranks"].append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1})
    data["workloads"][0].update(iops=iops, skew={"level": 14})
    return data


def _ssd_gb(data: dict[str, Any], iops: float) -> float:
    config = resolve(with_data(data), load_catalog())
    placed = layout(config, [iops])["p"].placement
    return placed.workload("oltp").on("ssd").capacity_used_gb


def test_the_first_generation_fills_the_ssd_whatever_the_load() -> None:
    first = [_ssd_gb(_data(1), x) for x in (100.0, 3000.0, 45000.0)]
    assert first == pytest.approx([first[0]] * 3, rel=1e-9)
    second_light, second_heavy = (_ssd_gb(_data(2), x) for x in (100.0, 45000.0))
    assert second_light == pytest.approx(first[0], rel=1e-9)  # no limit binds at light load
    assert second_heavy < second_light  # the load limit keeps warm extents off a busy SSD


def test_the_generation_is_stated_and_the_first_has_no_load_limit_to_report() -> None:
    first = predict_one(with_data(_data(1)))
    second = predict_one(with_data(_data(2)))
    assert any("first generation" in a for a in first.inputs.assumptions)
    assert not any("first generation" in a for a in second.inputs.assumptions)
    assert first.inputs.pools[0].easy_tier_generation == 1


def test_three_tiers_under_the_first_generation_are_refused() -> None:
    data = _data(1)
    data["pools"][0]["ranks"].append({"drive": "nl-3tb", "raid": "raid6-6+p+q", "count": 1})
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(data)
    assert "first generation manages two tiers" in str(caught.value)


@pytest.mark.parametrize(("system", "shipped"), [("ds8700-941", 1), ("ds8800-951", 2)])
def test_left_out_the_generation_is_the_one_the_system_shipped_with(
    system: str, shipped: int
) -> None:
    """Issue 12 item 4: the default is the catalog's `easy_tier_generation` of the system
    model (the DS8700's first Easy Tier was the first generation, R5.1), and it behaves exactly
    as that generation written out; `check` and the report list it among the defaults."""
    unsaid = predict_one(with_data(_data(None, system=system)))
    said = predict_one(with_data(_data(shipped, system=system)))
    assert unsaid.inputs.pools[0].easy_tier_generation == shipped
    assert unsaid.curve == said.curve
    (default,) = [d for d in unsaid.inputs.defaults if d.key.endswith("easy_tier.generation")]
    assert default.value == str(shipped)
    assert system in default.basis
    assert not [d for d in said.inputs.defaults if d.key.endswith("easy_tier.generation")]


def test_three_tiers_on_a_ds8700_must_say_the_second_generation() -> None:
    data = _data(None, system="ds8700-941")
    data["pools"][0]["ranks"] = [
        {"drive": "15k-300", "raid": "raid5-7+p", "count": 4},
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1},
        {"drive": "nl-2tb", "raid": "raid6-6+p+q", "count": 1},
    ]
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(data)
    assert "ds8700-941 shipped with the first" in str(caught.value)
    data["pools"][0]["easy_tier"]["generation"] = 2
    assert with_data(data).pools[0].easy_tier.generation == 2
