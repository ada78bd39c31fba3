"""The work bound's refusal names what to lower (issue 17 item 6), the catalog band among it
when the band is on: on by default, it can be most of the work."""

from __future__ import annotations

from typing import Any

from bench.bench_worst_case import scenario
from diskmodel.analyses import budget
from diskmodel.catalog import load_catalog
from diskmodel.scenario import Scenario


def _problems(data: dict[str, Any]) -> list[str]:
    catalog = load_catalog()
    scenario = Scenario.model_validate(data, context={"catalog": catalog})
    return list(budget.work_problems(scenario, catalog))


def test_a_refusal_the_band_makes_says_it_can_be_turned_off() -> None:
    """100,000 closed customers with Easy Tier placing: the band is most of the estimate and
    without it the run fits, so the message gives its share and how to turn it off."""
    data = scenario(queue_depth=100_000)
    (message,) = _problems(data)
    assert "the band over the catalog's" in message
    assert message.endswith("or set analyses.catalog_band: false")
    data["analyses"]["catalog_band"] = False
    assert _problems(data) == []


def test_a_refusal_without_the_band_does_not_name_it() -> None:
    more_cache = [{"name": f"cache {gb}", "set": {"system.cache_gb": gb}} for gb in (256, 384)]
    data = scenario(queue_depth=100_000, analyses={"catalog_band": False, "compare": more_cache})
    (message,) = _problems(data)
    assert "catalog_band" not in message
    assert "band over" not in message
