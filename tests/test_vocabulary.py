"""One vocabulary (issue 32 item 2): the component kinds with their names, and the Easy Tier
rule, each written once (`diskmodel.vocabulary`) and read by every layer that names them."""

from __future__ import annotations

import copy
import itertools

import pytest

from diskmodel.analyses.budget import _point_s
from diskmodel.analyses.limits import limits
from diskmodel.catalog import load_catalog
from diskmodel.configuration import ServiceLevelConfig, resolve
from diskmodel.prediction import PoolInput
from diskmodel.scenario import UtilizationLimits
from diskmodel.tiering.curves import PiecewiseSkew, described_skew
from diskmodel.tiering.skew import LevelSkew
from diskmodel.vocabulary import (
    COMPONENT_KIND,
    COMPONENT_KINDS,
    KIND_TABLE,
    STATION_KIND_KEYS,
    easy_tier_follows_load,
)

from .support.builders import BASE, solver, with_data


def test_the_kinds_are_the_service_level_s_ceiling_keys() -> None:
    # Every configuration's kinds, then the FICON channels a z/OS configuration adds.
    assert tuple(UtilizationLimits.model_fields) == STATION_KIND_KEYS
    assert STATION_KIND_KEYS[: len(COMPONENT_KINDS)] == COMPONENT_KINDS
    assert list(COMPONENT_KIND) == list(STATION_KIND_KEYS)
    assert list(COMPONENT_KINDS) == [k.key for k in KIND_TABLE]


def test_every_station_the_model_builds_is_of_a_kind_in_the_table() -> None:
    data = copy.deepcopy(BASE)
    data["pools"][0]["ranks"].append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1})
    network = solver(with_data(data)).network(solver(with_data(data)).planned_rates())
    assert {s.kind for s in network.stations} == set(COMPONENT_KINDS)


def test_a_utilisation_limit_reads_as_the_table_says() -> None:
    level = ServiceLevelConfig(5.0, None, dict.fromkeys(COMPONENT_KINDS, 0.7))
    labels = [limit.label for limit in limits(level) if limit.kind == "utilization"]
    assert labels == [f"{k.ceiling} utilisation ≤ 70%" for k in KIND_TABLE]
    assert "rank (per drive) utilisation ≤ 70%" in labels


@pytest.mark.parametrize(
    ("auto", "generation", "tiers"),
    # (Easy Tier's first generation manages two tiers at most: a scenario is refused.)
    [c for c in itertools.product((True, False), (1, 2), (1, 2, 3)) if c != (True, 1, 3)],
)
def test_the_easy_tier_rule_is_one_rule_for_configuration_report_and_budget(
    auto: bool, generation: int, tiers: int
) -> None:
    """Placement follows the load only with Easy Tier on, of the second generation, over two
    tiers or more; the resolved pool, the report's pool input and the budget all say so."""
    expected = auto and generation >= 2 and tiers >= 2
    assert easy_tier_follows_load(auto, generation, tiers) is expected
    ranks = {
        1: [("15k-300", "raid5-7+p")],
        2: [("ssd-300", "raid5-6+p+s"), ("15k-300", "raid5-7+p")],
        3: [("ssd-300", "raid5-6+p+s"), ("15k-300", "raid5-7+p"), ("nl-3tb", "raid6-5+p+q+s")],
    }[tiers]
    data = copy.deepcopy(BASE)
    data["pools"][0]["easy_tier"] = {"mode": "auto" if auto else "off", "generation": generation}
    data["pools"][0]["ranks"] = [{"drive": d, "raid": r, "count": 2} for d, r in ranks]
    scenario = with_data(data)
    config = resolve(scenario, load_catalog())
    pool = config.pools[0]
    assert len(pool.tiers) == tiers
    assert pool.placement_follows_load is expected
    shown: PoolInput = config.inputs.pools[0]
    assert shown.placement_follows_load is expected
    assert _point_s(scenario, load_catalog())[1] is expected


def test_a_scenario_s_skew_is_built_by_one_builder() -> None:
    curve, mb = described_skew(None, 14.0)
    assert isinstance(curve, LevelSkew)
    assert curve.level == 14.0
    assert mb is None
    curve, mb = described_skew([[0.1, 0.6], [0.5, 0.9]], 14.0, sequential_level=3.0)
    assert isinstance(curve, PiecewiseSkew)
    assert isinstance(mb, LevelSkew)
    assert mb.level == 3.0
