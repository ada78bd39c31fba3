"""A closed point solves each closed network once (`solve_closed`'s `solved`): at an application's
planned users, the placement for a vanishing load and the one for the rate the users settle at
(no Easy Tier ceiling binds) give the same network inputs; the second solve is the first's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import diskmodel
import diskmodel.model.closed as closed_module
from diskmodel.components.host import customers
from diskmodel.configuration import resolve
from diskmodel.model.application import application_loop
from diskmodel.model.closed import solve_closed
from diskmodel.model.operating import Solver
from diskmodel.scenario.files import scenario_catalog

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "ds8800-oltp-application.yaml"


def test_each_closed_network_is_solved_once_and_as_without_the_memo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario = diskmodel.load_scenario(SCENARIO)
    config = resolve(scenario, scenario_catalog(scenario.catalog, SCENARIO.parent, None))
    app = config.application
    assert app is not None
    solved: list[tuple[bytes, int, float]] = []
    solve = closed_module.closed_network

    def counted(demands: Any, population: int, think: float, **kw: Any) -> Any:
        solved.append((demands.tobytes(), population, think))
        return solve(demands, population, think, **kw)

    monkeypatch.setattr(closed_module, "closed_network", counted)
    solver = Solver(config)
    point = solver.planned_point()
    monkeypatch.setattr(closed_module, "closed_network", solve)
    state = point.closed
    assert state is not None
    # Both placements were settled, each with its search for the asynchronous stream's rate;
    # the second searched the same inputs as the first, so solved nothing new.
    assert len(solved) == len(set(solved))
    _, host = application_loop(app, customers(app.users, app.parallel_ios) / app.users)
    alone = solve_closed(
        point.network,
        solver.closed_weights(),
        state.population,
        state.think_time_s,
        solver.planned_rates(),
        host,
    )
    assert alone.throughput == state.throughput
    assert alone.response_s == state.response_s
    assert np.array_equal(alone.utilization, state.utilization)
    assert np.array_equal(alone.wait_s, state.wait_s)
