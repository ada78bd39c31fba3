"""What the work bound counts in a large sizing space (`size_batch.open_to_solve`, priced by
`analyses.budget._size_search_s`): the open configurations and their distinct back ends.

A back end is what a configuration's Easy Tier layouts depend on: configurations that differ
only in `size_batch.FRONT_END_CHOICES` must find the layouts the first of them made
(`model.layout.placements_for`), and configurations that differ in any other choice must not,
or the estimate prices the search at too few placements. Not timed (the estimate against the
measured CPU seconds is `python -m bench budget`'s table).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from diskmodel.analyses import budget, size_batch
from diskmodel.analyses.size_space import OfferedSpace
from diskmodel.analyses.size_try import SizingJob, sizing_context, try_configuration
from diskmodel.catalog import Catalog, load_catalog
from diskmodel.model import layout, operating
from diskmodel.scenario import Scenario
from diskmodel.scenario.loading import load_scenario

ROOT = Path(__file__).resolve().parents[2]
GROWTH = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"
LARGE = ROOT / "scenarios" / "sizing" / "ds8800-size-large-space.yaml"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _space(catalog: Catalog) -> Scenario:
    """The growth scenario over 576 configurations (beyond the per-configuration search's
    512): SSD and 15K rank counts, DA pairs, host ports, processor options, system models."""
    data = load_scenario(GROWTH, catalog).model_dump(mode="python", exclude_none=True)
    data["analyses"]["growth"] = {"rate": 0.25, "per": "year", "periods": 3}
    data["analyses"]["size"] = {
        "ranks": [
            {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": [0, 2, 4, 6]},
            {"pool": "oltp", "drive": "15k-300", "raid": "raid5-7+p", "counts": [8, 16, 24]},
        ],
        "da_pairs": [2, 4, 6],
        "host_ports": [4, 8, 16, 32],
        "processor_ways": [2, 4],
        "model": ["ds8700-941", "ds8800-951"],
        "prices": data["analyses"]["size"]["prices"],
    }
    return Scenario.model_validate(data, context={"catalog": catalog})


def _fresh_placements(
    choices: list[tuple[Any, ...]], scenario: Scenario, catalog: Catalog, mp: pytest.MonkeyPatch
) -> list[bool]:
    """For each configuration solved in turn: whether its Easy Tier layouts were made afresh
    (its back end's store empty when its solver asked for it)."""
    context = sizing_context(scenario, catalog, None)
    fresh: list[bool] = []
    store = layout.placements_for

    def watched(config: Any, costs: Any) -> layout.Placements:
        placements = store(config, costs)
        fresh.append(not placements.layouts)
        return placements

    mp.setattr(operating, "placements_for", watched)
    layout.forget_placements()
    for choice in choices:
        candidate = try_configuration(SizingJob({}, choice, False, offered=True), context)
        assert candidate.error is None, candidate
        assert candidate.response_time_ms is not None, candidate
    assert len(fresh) == len(choices)  # every one placed (a solver asks once)
    return fresh


def test_configurations_of_one_back_end_share_its_layouts(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = _space(catalog).corner("central")
    space = OfferedSpace(scenario)
    # SSD and 15K ranks (two tiers: Easy Tier places by the load), room for the data.
    base: dict[str, Any] = {
        "oltp: ssd-300 raid5-6+p+s": 4,
        "oltp: 15k-300 raid5-7+p": 24,
        "model": "ds8800-951",
        "da_pairs": 4,
        "host_ports": 8,
        "processor_ways": 2,
    }
    front = [{**base, "host_ports": p, "processor_ways": w} for p in (4, 32) for w in (2, 4)]
    back = [
        {**base, "da_pairs": 2},
        {**base, "model": "ds8700-941"},
        {**base, "oltp: 15k-300 raid5-7+p": 16},
        {**base, "oltp: ssd-300 raid5-6+p+s": 6},
    ]
    names = space.names
    as_choice = [tuple((n, c[n]) for n in names) for c in [base, *front, *back]]
    fresh = _fresh_placements(as_choice, scenario, catalog, monkeypatch)
    assert fresh[0], "the first configuration finds layouts nobody made"
    assert not any(fresh[1 : 1 + len(front)]), "a front-end choice made new layouts"
    assert all(fresh[1 + len(front) :]), "a back-end choice found another back end's layouts"
    assert set(size_batch.FRONT_END_CHOICES) == {"host_ports", "processor_ways"} & set(names)


def test_the_open_back_ends_are_the_distinct_back_end_choices(catalog: Catalog) -> None:
    scenario = _space(catalog)
    left = size_batch.open_to_solve(scenario, catalog)
    assert left is not None
    central = scenario.corner("central")
    space = OfferedSpace(central)
    screen = size_batch.space_screen(space, sizing_context(central, catalog, None))
    open_ = np.flatnonzero(~(screen.saturated | screen.fails))
    back_ends = {
        tuple(v for n, v in space.choice(int(k)) if n not in size_batch.FRONT_END_CHOICES)
        for k in open_
    }
    assert left.configurations == len(open_) > 0
    assert left.back_ends == len(back_ends)
    # Each back end offers 4 port counts x 2 processor options: at most 8 configurations.
    assert left.back_ends * 8 >= left.configurations > left.back_ends


def test_more_back_ends_cost_more(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's price grows with the open back ends, at `SEARCH_BACK_END_SHARE` of a
    fresh solve each, beside the configurations at `SEARCH_SOLVE_SHARE`."""
    scenario = _space(catalog)
    left = size_batch.open_to_solve(scenario, catalog)
    assert left is not None
    base = budget.estimate(scenario, catalog).seconds
    more = size_batch.OpenSpace(left.configurations, left.back_ends + 100)
    monkeypatch.setattr(size_batch, "open_to_solve", lambda *_: more)
    per = budget._sizing_s(scenario, catalog, tuple(scenario.analyses.growth.multipliers))  # type: ignore[union-attr]
    added = budget.estimate(scenario, catalog).seconds - base
    assert added == pytest.approx(100 * budget.SEARCH_BACK_END_SHARE * per, rel=1e-9)


def test_the_shipped_large_space_is_accepted_on_two_cores(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30's done-when: a shipped sizing scenario of at least 10^5 configurations that
    `diskmodel size` runs on 2 cores (it answers in about 30 s there, `bench size`); the work
    bound refused it while it priced every open configuration at a fresh back end's cost."""
    from diskmodel import api
    from diskmodel.analyses import size

    monkeypatch.setattr(size.os, "cpu_count", lambda: 2)
    scenario = api.load_scenario(LARGE, catalog)  # the work bound applied, as the CLI loads it
    assert scenario.analyses.size is not None
    assert scenario.analyses.size.candidates >= 100_000
    work = budget.estimate(scenario, catalog)
    assert work.workers == 2
    assert work.wall_s < budget.MAX_WORK_S
