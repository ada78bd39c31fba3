"""The configurations of one sizing search share what their resolutions have in common
(`configuration.shared.SharedParts`: each rank as installed, the workloads as resolved for a
cache size, the skew curves), and each still resolves to what its own resolution gives, the
same values: checked for every configuration of a search over two pools, two system models,
three cache sizes (hit ratios projected to each) and a planned rate given as a range, visited
in an order that mixes them, and of the shipped search."""

from __future__ import annotations

import random
from pathlib import Path

from diskmodel.analyses.size import _jobs
from diskmodel.analyses.size_try import sized_configuration, sizing_context
from diskmodel.catalog import load_catalog
from diskmodel.configuration import projected_hit_ratios, resolve
from diskmodel.scenario import Scenario, load_scenario

from .test_size_validated_base import _two_pools

ROOT = Path(__file__).resolve().parents[2]


def _shared_and_alone(scenario: Scenario) -> int:
    """Every valid configuration of `scenario`'s search resolved with the search's shared parts
    and on its own from its central corner (what `resolve` did before sharing); the count."""
    catalog = load_catalog()
    central = scenario.corner("central")
    context = sizing_context(central, catalog, None)
    _, variants = _jobs(central, catalog, context.prices, context.shared, context.kept)
    valid = [v for v in variants if not isinstance(v, str)]
    random.Random(7).shuffle(valid)  # what is kept comes from configurations of every kind
    ranks = 0
    for variant in valid:
        hits = projected_hit_ratios(central, variant, {})
        alone = resolve(variant.corner("central"), catalog, None, hit_ratios=hits, shown=False)
        shared = sized_configuration(variant, context)
        assert shared == alone
        assert shared.workloads == alone.workloads
        ranks += len(shared.ranks)
    assert context.parts is not None
    # Shared indeed: far fewer ranks made than the configurations hold.
    assert len(context.parts.ranks) < ranks / 4
    return len(valid)


def test_every_configuration_resolves_with_the_shared_parts_as_alone() -> None:
    scenario = Scenario.model_validate(_two_pools(), context={"catalog": load_catalog()})
    assert _shared_and_alone(scenario) > 50


def test_the_shipped_search_resolves_with_the_shared_parts_as_alone() -> None:
    catalog = load_catalog()
    scenario = load_scenario(ROOT / "scenarios" / "ds8800-size-for-growth.yaml", catalog)
    assert _shared_and_alone(scenario) > 20


def test_parts_of_another_catalog_are_not_used() -> None:
    """A store made for one catalog lends nothing to a resolution against another (a drive
    as installed is that catalog's)."""
    catalog = load_catalog()
    scenario = load_scenario(ROOT / "scenarios" / "ds8800-size-for-growth.yaml", catalog)
    central = scenario.corner("central")
    context = sizing_context(central, catalog, None)
    other = catalog.model_copy()  # the same entries, another catalog
    assert context.parts is not None
    resolve(central, other, None, shown=False, parts=context.parts)
    assert not context.parts.ranks
    assert not context.parts.workloads
