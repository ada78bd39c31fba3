"""The work bound judges a batched sizing search by the time it takes on the cores it is spread
over (`WorkEstimate.wall_s`), while `seconds` stays the whole CPU time (what `bench budget`
compares with the measured CPU of the run and its worker processes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from diskmodel.analyses import budget, size
from diskmodel.catalog import load_catalog
from diskmodel.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
LARGE = ROOT / "scenarios" / "sizing" / "ds8800-size-large-space.yaml"
SMALL = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"


def _estimate(path: Path) -> budget.WorkEstimate:
    catalog = load_catalog()
    return budget.estimate(load_scenario(path, catalog), catalog)


@pytest.mark.parametrize("cores", [1, 2, 4])
def test_a_batched_search_is_spread_over_the_cores_it_will_use(
    cores: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(size.os, "cpu_count", lambda: cores)
    work = _estimate(LARGE)
    assert work.workers == size.search_workers(106_496) == cores
    assert 0 < work.spread_s < work.seconds
    assert work.wall_s == pytest.approx(work.seconds - work.spread_s * (1 - 1 / cores))
    assert work.too_much == (work.wall_s > budget.MAX_WORK_S)


@pytest.mark.parametrize("cores", [1, 2, 4])
def test_a_search_per_configuration_is_not_spread(
    cores: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Priced as one process, and run in one by default (`search_workers`), up to the largest
    # space searched configuration by configuration.
    monkeypatch.setattr(size.os, "cpu_count", lambda: cores)
    work = _estimate(SMALL)
    assert (work.spread_s, work.workers) == (0.0, 1)
    assert work.wall_s == work.seconds
    assert size.search_workers(30) == size.search_workers(size.PER_CONFIGURATION_UP_TO) == 1
    assert size.search_workers(size.PER_CONFIGURATION_UP_TO + 1) == cores
