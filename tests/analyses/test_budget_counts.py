"""The work estimate (`analyses.budget`) against the work a prediction counts (issue 30 item 6).

Not timed: the prediction's operating points are counted as it makes them (every placement
of the data for a load outside a closed point, every closed point with its population and its
rounds of placement and closed solution, every configuration resolved again for the catalog
band) and priced at the estimate's own unit costs (a closed point that took at most two rounds
at the share of one that settles at once, `budget.CLOSED_SETTLED`). The estimate must never
be below that: if a prediction comes to make more of them (another analysis, a band that
solves more, a closed point the estimate says settles at once taking more rounds), the
estimate must count them too. Its seconds against measured CPU seconds are
`python -m bench budget`'s table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import diskmodel
from diskmodel.analyses import budget
from diskmodel.analyses import catalog_band as catalog_band_module
from diskmodel.catalog import load_catalog
from diskmodel.model import closed_point as closed_point_module
from diskmodel.model import operating
from tests.support.scenarios import worst_case_application, worst_case_small

_NO_BAND = {"catalog_band": False}


CASES = {
    "open, Easy Tier, catalog band": worst_case_small(),
    "open, Easy Tier off, alternatives and growth": worst_case_small(
        easy_tier="off",
        analyses={
            "compare": [{"name": "more cache", "set": {"system.cache_gb": 256}}],
            "growth": {"factors": [1.2, 1.5]},
            **_NO_BAND,
        },
    ),
    "open, 6 workloads in one Easy Tier pool": worst_case_small(workloads=6, analyses=_NO_BAND),
    "closed, Easy Tier, 48 customers": worst_case_small(queue_depth=48, analyses=_NO_BAND),
    "closed, Easy Tier, 48 customers, catalog band": worst_case_small(queue_depth=48),
    "application, Easy Tier, 100 users, catalog band": worst_case_application(100),
}


@contextmanager
def _counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Count placements outside closed points, closed points (population, rounds) and the
    band's configurations resolved again."""
    counts: dict[str, Any] = {"open_points": 0, "closed": [], "resolved": 0}
    inside_closed = [0]
    layout, closed_point = operating.layout_and_headroom, operating.Solver.closed_point
    solver_init = operating.Solver.__init__
    solve_closed = closed_point_module.solve_closed

    def counting_solve(*args: Any, **kwargs: Any) -> Any:
        counts["closed"][-1][1] += 1
        return solve_closed(*args, **kwargs)

    def counting_layout(*args: Any, **kwargs: Any) -> Any:
        if not inside_closed[0]:
            counts["open_points"] += 1
        return layout(*args, **kwargs)

    def counting_closed(self: operating.Solver, population: int, *args: Any) -> Any:
        counts["closed"].append([population, 0])
        inside_closed[0] += 1
        try:
            return closed_point(self, population, *args)
        finally:
            inside_closed[0] -= 1

    def counting_solver(self: operating.Solver, config: Any) -> None:
        counts["resolved"] += 1
        solver_init(self, config)

    monkeypatch.setattr(operating, "layout_and_headroom", counting_layout)
    monkeypatch.setattr(operating.Solver, "closed_point", counting_closed)
    monkeypatch.setattr(closed_point_module, "solve_closed", counting_solve)
    monkeypatch.setattr(operating.Solver, "__init__", counting_solver)
    monkeypatch.setattr(catalog_band_module.Solver, "__init__", counting_solver)
    yield counts


@pytest.mark.parametrize("case", list(CASES))
def test_the_estimate_is_never_below_the_counted_work(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps(CASES[case]), encoding="utf-8")  # JSON is YAML
    catalog = load_catalog()
    s = diskmodel.load_scenario(path, catalog)
    estimated = budget.estimate(s, catalog).seconds
    with _counted(monkeypatch) as counts:
        diskmodel.predict(s, catalog=catalog, base_dir=tmp_path)
    point_s, follows = budget._point_s(s, catalog)
    priced = (
        counts["open_points"] * point_s
        + sum(budget._closed_point_s(s, n, follows, rounds <= 2) for n, rounds in counts["closed"])
        + counts["resolved"] * budget._resolve_s(s)
    )
    assert counts["open_points"] > 0
    assert estimated >= budget.startup_s(s) + priced, counts


def test_the_band_counts_every_estimate_the_configuration_uses() -> None:
    """`catalog_estimates` counts, before resolution, at least the estimates the band tries
    on the resolved configuration."""
    from diskmodel.configuration import resolve
    from diskmodel.scenario import Scenario

    catalog = load_catalog()
    for data in (worst_case_small(), worst_case_small(easy_tier="off")):
        s = Scenario.model_validate(data, context={"catalog": catalog})
        tried = catalog_band_module.estimates(resolve(s, catalog), catalog)
        assert budget.catalog_estimates(s, catalog) >= len(tried) > 0
