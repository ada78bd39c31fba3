"""Below the rate at which an Easy Tier ceiling first binds, every load of a mix shares the
placement that ignores the load; the solver then skips the placement search (issue 16: the
48-rank bench's 200-point solve fell from about 200 ms to 16 ms). The answers must be the
search's own."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.bench_model import bench_scenario
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve, resolve_scenario
from diskmodel.model import Solver
from diskmodel.model.layout import free_headroom, layout, layout_and_headroom, network_key
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


def test_placing_a_free_load_gives_its_headroom_to_the_bit() -> None:
    """`layout_and_headroom` hands back `free_headroom` as a by-product of placing a load at
    which no ceiling binds (the solver then skips a second placement of the mix), and nan
    where one binds: on both sides of the first ceiling, exactly the figure worked out anew."""
    config = _config()
    solver = Solver(config)
    rates = solver.planned_rates() * 0.01
    h = free_headroom(config, rates, solver.costs)
    free, bound = 0, 0
    for f in (0.1, 0.5, 0.9, 0.999, 1.01, 2.0, 10.0):
        at = rates * h * f
        placed, room = layout_and_headroom(config, at, solver.costs)
        assert network_key(placed) == network_key(layout(config, at, solver.costs))
        if any(p.bound for p in placed.values()):
            assert np.isnan(room)
            bound += 1
        else:
            assert room == free_headroom(config, at, solver.costs)
            free += 1
    assert free >= 3
    assert bound >= 2


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


def test_loads_whose_placements_agree_share_a_network_and_keep_their_answers() -> None:
    """Where Easy Tier holds the SSD tier to a ceiling of 0 (near the MB/s peak's maximum the
    enterprise tier's work alone keeps the SSDs' DA pairs over target), every such load places
    the same data: the solver builds one network for them (`network_key`), and each load's
    answer is still exactly the one a fresh solver gives it alone."""
    path = Path(__file__).parents[2] / "scenarios" / "ds8800-measured-peaks.yaml"
    config = resolve_scenario(load_scenario(path), load_catalog(), path.parent)[1]
    solver = Solver(config)
    unit = solver.planned_rates() / solver.planned_rates().sum()
    maximum, _ = solver.saturation(unit)
    zero = []
    for x in np.linspace(0.5 * maximum, maximum, 24):
        placed = layout(config, unit * x, solver.costs).values()
        if any(p.bound for p in placed) and all(
            c == 0 for p in placed for c in p.ceilings_iops.values()
        ):
            zero.append(unit * x)
    assert len(zero) >= 2
    networks = [solver.network(r) for r in zero]
    assert len({id(net) for net in networks}) < len(zero)
    shared = solver.open_points(np.stack(zero, axis=1))
    for r, net, point in zip(zero, networks, shared, strict=True):
        fresh = Solver(config)
        assert network_key(fresh.network(r).layout) == network_key(net.layout)
        alone = fresh.open_point(r)
        assert alone.response_s == point.response_s
        assert np.array_equal(alone.utilization, point.utilization)


@pytest.mark.parametrize("scale", [0.5, 0.999, 1.0, 1.001, 2.0, 1e3])
def test_nvs_is_judged_full_as_the_split_by_server_and_rank_judges_it(
    monkeypatch: pytest.MonkeyPatch, scale: float
) -> None:
    """`Solver._nvs_full` skips the split of the dirty data by server and rank only where all
    of them are under both limits: with the limits set about the largest server's and rank's
    share, at every load its answer is the split's."""
    from diskmodel.components import cache
    from diskmodel.model.open import station_states

    config = _config()
    solver = Solver(config)
    rates = solver.planned_rates()[:, None] * np.array([[0.5, 1.0, 2.0]])
    net = solver.network(rates[:, 1])
    states = station_states(net, rates)
    by_server, by_rank = net.dirty_bytes_by_server_and_rank(
        rates, states.wait_s, states.speed_factor
    )
    server_nvs = float(by_server.max()) * scale
    rank_limit = float(by_rank.max()) * scale
    monkeypatch.setattr(cache, "nvs_bytes_per_server", lambda system, gb: server_nvs)
    monkeypatch.setattr(cache, "rank_nvs_limit_bytes", lambda system, gb: rank_limit)
    want = (by_server >= server_nvs).any(axis=0) | (by_rank >= rank_limit).any(axis=0)
    assert want.any() == (scale <= 1.0)
    assert np.array_equal(solver._nvs_full(net, rates, states), want)
