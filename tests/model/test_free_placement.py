"""Below the rate at which an Easy Tier ceiling first binds, every load of a mix shares the
placement that ignores the load; the solver then skips the placement search (issue 16: the
48-rank bench's 200-point solve fell from about 200 ms to 16 ms). The answers must be the
search's own."""

from __future__ import annotations

import numpy as np

from bench.bench_model import bench_scenario
from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.model import Solver
from diskmodel.model.layout import free_headroom, layout
from diskmodel.scenario import Scenario


def _config():  # type: ignore[no-untyped-def]
    catalog = load_catalog()
    return resolve(Scenario.model_validate(bench_scenario(), context={"catalog": catalog}), catalog)


def test_a_shared_solver_gives_what_a_fresh_one_gives_at_every_load() -> None:
    config = _config()
    shared = Solver(config)
    unit = shared.planned_rates() / shared.planned_rates().sum()
    maximum, _ = shared.saturation(unit)
    for x in np.linspace(maximum / 40, maximum, 40):
        a = shared.open_point(unit * x)
        b = Solver(config).open_point(unit * x)
        assert a.response_s == b.response_s or (np.isinf(a.response_s) and np.isinf(b.response_s))
        assert np.array_equal(a.utilization, b.utilization)


def test_the_headroom_is_where_the_first_ceiling_binds() -> None:
    config = _config()
    solver = Solver(config)
    rates = solver.planned_rates() * 0.01
    h = free_headroom(config, rates, solver.costs)
    assert np.isfinite(h)
    assert h > 1
    below = layout(config, rates * h * (1 - 1e-4), solver.costs)
    above = layout(config, rates * h * (1 + 1e-3), solver.costs)
    assert not any(p.bound for p in below.values())
    assert any(p.bound for p in above.values())


def test_dirty_data_per_server_adds_up_to_the_whole() -> None:
    # NVS is judged per server (issue 11): each server's share of the destage backlog.
    from diskmodel.model.open import station_states

    config = _config()
    solver = Solver(config)
    rates = solver.planned_rates()[:, None] * np.array([[0.5, 1.0, 2.0]])
    net = solver.network(rates[:, 1])
    states = station_states(net, rates)
    whole = net.dirty_bytes(rates, states.wait_s, states.speed_factor)
    per_server = net.dirty_bytes_by_server(rates, states.wait_s, states.speed_factor)
    assert per_server.shape == (2, 3)
    assert np.allclose(per_server.sum(axis=0), whole, rtol=1e-12)
    assert np.all(per_server > 0)
