"""What the work bound prices the catalog band's screens at (`analyses.budget._catalog_band_s`):
a front-end estimate's screen (the processor option's costs, a host adapter's figures) at the
network's solve only, because such a figure leaves the back end as it was and its screen reads
the layouts the central configuration placed (`model.layout.placements_for`); a back-end
estimate's screen places again. Counted, not timed (`python -m bench budget` has the times).
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_worst_case import scenario
from diskmodel.analyses import budget, catalog_band
from diskmodel.analyses.predict import begin
from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.model import layout, operating
from diskmodel.scenario import Scenario

FRONT_END = ("processor_costs.", "host_adapters.")


def _placements(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of the Easy Tier placements made (not read from the store)."""
    made = [0]
    place = operating.layout_and_headroom

    def counting(*args: Any, **kwargs: Any) -> Any:
        made[0] += 1
        return place(*args, **kwargs)

    monkeypatch.setattr(operating, "layout_and_headroom", counting)
    return made


@pytest.mark.parametrize("workloads", [1, 6])
def test_a_front_end_estimates_screen_places_nothing(
    workloads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = load_catalog()
    data = scenario(workloads=workloads, analyses={"catalog_band": False})
    data["system"].update(host_ports=16, da_pairs=4)
    s = Scenario.model_validate(data, context={"catalog": catalog})
    layout.forget_placements()
    config = resolve(s, catalog)
    central = begin(config)
    rates = central.planned.rates
    tried = catalog_band.estimates(config, catalog)
    front = [e for e in tried if e.key.startswith(FRONT_END)]
    back = [e for e in tried if not e.key.startswith(FRONT_END)]
    # The budget counts them before resolution, every host adapter of the system offered: at
    # least those of the adapter the configuration has.
    assert budget.front_end_estimates(s, catalog) >= len(front) > 0
    assert budget.catalog_estimates(s, catalog) - budget.front_end_estimates(s, catalog) >= len(
        back
    )
    made = _placements(monkeypatch)
    for estimate in front:
        for end in (estimate.low, estimate.high):
            operating.Solver(resolve(s, estimate.put(catalog, end))).open_point(rates)
    assert made[0] == 0, "a front-end estimate's screen placed the data again"
    # A back-end estimate (a drive's, the device adapter's) changes the back end: placed again.
    drive = next(e for e in back if e.entry in catalog.drives)
    operating.Solver(resolve(s, drive.put(catalog, drive.low))).open_point(rates)
    assert made[0] > 0
