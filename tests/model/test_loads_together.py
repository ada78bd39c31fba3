"""The points of many networks made together (`operating._loads_together`: their stations one
under the other, whether a load saturates a station or fills NVS judged for all of them at
once) are, to the bit, each network's own (`Solver._loads_of`), as are their stations'
states (`open.station_states_many`: one workload's products for all networks at once): at
light load, past saturation, with several workloads, z/OS device queues and copy services,
and with NVS so small that the dirty data come near its limits."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import diskmodel
from diskmodel.configuration import Configuration, resolve
from diskmodel.model.layout import forget_placements
from diskmodel.model.network import per_load
from diskmodel.model.open import (
    StationStates,
    _offered_stacked,
    station_states,
    station_states_many,
)
from diskmodel.model.operating import OpenLoads, Solver, _loads_together, _OpenSolve
from diskmodel.scenario.files import scenario_catalog

ROOT = Path(__file__).resolve().parents[2] / "scenarios"
_FACTORS = [1.0, 0.3, 2.0, 40.0]  # 40x saturates every station of these


def _config(path: Path) -> Configuration:
    scenario = diskmodel.load_scenario(path)
    return resolve(scenario, scenario_catalog(scenario.catalog, path.parent, None), path.parent)


OPEN = [
    p
    for p in sorted(ROOT.glob("*.yaml"))
    if "application" not in p.name and "size" not in p.name and not _config(p).has_closed
]
"""The shipped scenarios whose workloads are all open (a closed one is solved by mean value
analysis, not by the open points made here)."""


def _tasks(configs: list[Configuration]) -> list[_OpenSolve]:
    tasks = []
    for config in configs:
        solver = Solver(config)
        rates = solver.planned_rates()[:, None] * _FACTORS
        for net, columns in solver._open_groups(rates):
            tasks.append(_OpenSolve(solver, net, rates[:, columns]))
    return tasks


def _same(got: OpenLoads, want: OpenLoads) -> None:
    for f in fields(OpenLoads):
        a, b = getattr(got, f.name), getattr(want, f.name)
        if f.name == "network":
            assert a is b
            continue
        assert a.shape == b.shape, f.name
        assert a.dtype == b.dtype, f.name
        assert a.tobytes() == b.tobytes(), f.name


def _check(tasks: list[_OpenSolve]) -> None:
    by_shape: dict[tuple[int, ...], list[_OpenSolve]] = {}
    for task in tasks:
        by_shape.setdefault(task.rates.shape, []).append(task)
    for held in by_shape.values():
        states = station_states_many([(t.net, t.rates) for t in held])
        for task, state, got in zip(held, states, _loads_together(held, states), strict=True):
            alone = station_states(task.net, task.rates)
            for f in fields(StationStates):
                assert getattr(state, f.name).tobytes() == getattr(alone, f.name).tobytes()
            _same(got, task.solver._loads_of(task.net, task.rates, state))


@pytest.mark.parametrize("path", OPEN, ids=lambda p: p.stem)
def test_points_made_together_are_each_networks_own(path: Path) -> None:
    forget_placements()
    config = _config(path)
    # Alone and beside a network of another scenario's shape.
    _check(_tasks([config]))
    _check(_tasks([config, _config(ROOT / "ds8800-15k-pool.yaml")]))


def test_points_made_together_with_nvs_near_full_are_each_networks_own() -> None:
    """A cache so small that some loads fill NVS and some come within the margin of it."""
    forget_placements()
    configs = []
    for path in (ROOT / "ds8800-15k-pool.yaml", ROOT / "ds8800-15k-plus-2-ssd.yaml"):
        config = _config(path)
        for cache_gb in (0.001, 0.01, 0.1, 1.0):
            configs.append(replace(config, hardware=replace(config.hardware, cache_gb=cache_gb)))
    tasks = _tasks(configs)
    _check(tasks)
    full = [
        bool(task.solver._loads_of(task.net, task.rates, state).nvs_full.any())
        for task, state in zip(
            tasks, station_states_many([(t.net, t.rates) for t in tasks]), strict=True
        )
    ]
    assert any(full)
    assert not all(full)


def test_one_workloads_products_stacked_are_each_networks_own() -> None:
    """Zeros, -0 and figures of every size: one product per entry, plus 0, is `per_load`'s."""
    rng = np.random.default_rng(7)
    nets: list[Any] = []
    rates = []
    for k in (1, 3, 8, 9, 40):
        arrival, work = (
            rng.random((1, k)) * rng.choice([0.0, -0.0, 1e-9, 1.0, 1e9], size=(1, k))
            for _ in range(2)
        )
        nets.append(SimpleNamespace(arrival=arrival, work=work))
        rates.append(rng.random((1, 4)) * rng.choice([0.0, 1e-3, 1e5], size=(1, 4)))
    lam, busy = _offered_stacked(nets, rates)
    want_lam = np.concatenate([per_load(n.arrival.T, r) for n, r in zip(nets, rates, strict=True)])
    want_busy = np.concatenate([per_load(n.work.T, r) for n, r in zip(nets, rates, strict=True)])
    assert lam.tobytes() == want_lam.tobytes()
    assert busy.tobytes() == want_busy.tobytes()
