"""Layouts shared between configurations with the same back end (`model.layout.placements_for`):
a configuration that differs only in its front end (host ports, processor, host adapter and
processor figures) reads the layouts another made, and they are exactly the layouts it would
make itself; one that differs in anything `layout` reads gets a store of its own."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from diskmodel.analyses.catalog_band import estimates
from diskmodel.catalog import load_catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model import Solver, operating
from diskmodel.model.costs import OpCosts
from diskmodel.model.layout import Placements, layout, placements_for

from ..support.builders import BASE, changed, with_data


def _two_tier(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0]["easy_tier"] = "auto"
    data["pools"][0]["ranks"] = [
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1},
        {"drive": "15k-300", "raid": "raid5-7+p", "count": 6},
    ]
    data["workloads"][0]["iops"] = 12000
    return changed(data, **changes)


def _config(data: dict[str, Any], catalog: Any = None) -> Configuration:
    return resolve(with_data(data), catalog or load_catalog())


def _loads(config: Configuration) -> list[np.ndarray]:
    """The planned rates, and three and ten times them (where Easy Tier's ceilings bind)."""
    planned = np.array([w.iops or 0.0 for w in config.workloads])
    return [planned * k for k in (1.0, 3.0, 10.0)]


def test_a_front_end_change_shares_the_layouts_and_they_are_its_own() -> None:
    base = _config(_two_tier())
    store = Solver(base)._placements
    for front in ({"system.host_ports": 16}, {"system.processor_ways": 2}):
        other = _config(_two_tier(**front))
        assert Solver(other)._placements is store, front
        for rates in _loads(other):
            assert layout(other, rates, OpCosts(other)) == layout(base, rates, OpCosts(base))


@pytest.mark.parametrize(
    "back",
    [
        {"system.da_pairs": 3},
        {"system.cache_gb": 256},
        {"workloads.0.iops": 11000},
        {"workloads.0.destage_ratio": 0.5},
        {"pools.0.ranks.1.count": 7},
    ],
)
def test_a_back_end_change_gets_a_store_of_its_own(back: dict[str, Any]) -> None:
    assert (
        Solver(_config(_two_tier(**back)))._placements
        is not Solver(_config(_two_tier()))._placements
    )


def test_every_catalog_estimate_that_shares_places_exactly_as_it_would_alone() -> None:
    """The catalog band's estimates change one catalog figure each, front end and back end:
    those whose configuration shares the central store must place every load as they would
    without it (the store's key misses nothing `layout` reads), and the drives' and DA
    pairs' figures must not share it."""
    catalog = load_catalog()
    data = _two_tier()
    central = _config(data, catalog)
    store = placements_for(central, OpCosts(central))
    shared, own = set(), set()
    for est in estimates(central, catalog):
        for end in (est.low, est.high):
            config = _config(data, est.put(catalog, end))
            costs = OpCosts(config)
            if placements_for(config, costs) is not store:
                own.add(est.path)
                continue
            shared.add(est.path)
            for rates in _loads(config):
                assert layout(config, rates, costs) == layout(central, rates, OpCosts(central))
    assert any("processor_costs" in p or "host_adapters" in p for p in shared)
    assert any("device_adapter" in p for p in own)
    assert any(p.startswith(("ssd-300", "15k-300")) for p in own)


def test_predictions_with_the_shared_store_equal_those_made_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A front-end variant solved after its back end's layouts were made gives, to the bit,
    what it gives with no store at all."""
    base = _config(_two_tier())
    other = _config(_two_tier(**{"system.host_ports": 4}))
    unit = np.array([1.0])

    def solved() -> tuple[float, float, list[float]]:
        s = Solver(other)
        top, _ = s.saturation(unit)
        return (
            top,
            s.open_point(_loads(other)[1]).response_s,
            list(s.open_point(_loads(other)[0]).utilization),
        )

    Solver(base).saturation(unit)  # fills the store for this back end
    with_store = solved()
    monkeypatch.setattr(operating, "placements_for", lambda config, costs: Placements())
    assert solved() == with_store
