"""A sizing configuration's scenario data (`size_offers.variant_data`) shares the sections its
choice leaves alone with the scenario's own data: it must equal the whole scenario copied with
the choice set (`scenario.apply_settings`), and validating it must leave the shared data as
it was."""

from __future__ import annotations

import contextlib
import copy
import itertools
from pathlib import Path

from diskmodel.analyses.size_offers import chosen_sections, offered_choices, variant_data
from diskmodel.catalog import load_catalog
from diskmodel.scenario import Scenario, apply_settings, load_scenario

ROOT = Path(__file__).resolve().parents[2]


def _copied(base: dict, scenario: Scenario, chosen: dict) -> dict:
    """The choice set on a deep copy of the whole scenario (what variant_data did before)."""
    ranks, system = chosen_sections(base, scenario, chosen)
    settings = {f"pools.{p}.ranks": groups for p, groups in ranks.items()}
    settings |= {f"system.{k}": v for k, v in system.items()}
    data = apply_settings(base, settings)
    data["analyses"] = {"curve": {"points": 2}}
    return data


def test_the_data_equals_the_copied_scenario_and_validating_it_changes_nothing() -> None:
    catalog = load_catalog()
    for path in (
        ROOT / "scenarios" / "sizing" / "ds8800-size-large-space.yaml",
        ROOT / "scenarios" / "ds8800-size-for-growth.yaml",
    ):
        scenario = load_scenario(path, catalog)
        base = scenario.model_dump(mode="python")
        before = copy.deepcopy(base)
        names, options = offered_choices(scenario)
        combos = itertools.islice(itertools.product(*options), 0, None, 97)
        for combo in itertools.islice(combos, 40):
            chosen = dict(zip(names, combo, strict=True))
            data = variant_data(base, scenario, chosen)
            assert data == _copied(base, scenario, chosen)
            # A combination the hardware cannot take is refused; the data stay as they were.
            with contextlib.suppress(ValueError):
                Scenario.model_validate(data, context={"catalog": catalog})
            assert base == before
