"""A load's answer is its own: the open solution of a load alone and of the same load beside
others (a configuration's planned load with its growth loads, in any order and number) agree
to the bit, so a caller may solve its loads in one request or in several
(`model.network.per_load`: BLAS takes another kernel for one column than for several)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from diskmodel.analyses.size_try import sized_configuration
from diskmodel.model.layout import forget_placements
from diskmodel.model.network import Network, per_load, per_load_sum
from diskmodel.model.open import station_states, storage_responses
from diskmodel.model.operating import Solver

from ..analyses.test_size_together import SHIPPED, _same_point, _search

_SHAPES = [(rows, cols) for rows in (1, 2, 3, 4, 5, 7, 8, 9, 16, 33) for cols in (1, 3, 8, 40, 101)]


def _column_alone(got: np.ndarray, alone: np.ndarray) -> bool:
    return bool(got.tobytes() == alone.tobytes())


@pytest.mark.parametrize(("rows", "cols"), _SHAPES)
def test_a_product_per_load_is_the_same_alone_and_among_others(rows: int, cols: int) -> None:
    rng = np.random.default_rng(rows * 1000 + cols)
    # both layouts the model hands in: a matrix and a transposed view of one
    for matrix in (rng.random((rows, cols)) * 1e3, (rng.random((cols, rows)) * 1e-3).T):
        loads = rng.random((cols, 8)) * rng.choice([1e-4, 1.0, 1e5], size=(cols, 8))
        alone = [per_load(matrix, loads[:, [p]])[:, 0] for p in range(8)]
        assert np.allclose(np.column_stack(alone), matrix @ loads, rtol=1e-14, atol=0)
        for size in range(1, 9):
            for first in range(9 - size):
                got = per_load(matrix, loads[:, first : first + size])
                assert got.shape == (rows, size)
                for j in range(size):
                    assert _column_alone(got[:, j], alone[first + j])


@pytest.mark.parametrize("stations", [1, 3, 8, 9, 40, 129])
def test_a_sum_per_load_is_the_same_alone_and_among_others(stations: int) -> None:
    values = np.random.default_rng(stations).random((stations, 8)) * 1e6
    alone = [per_load_sum(values[:, [p]])[0] for p in range(8)]
    for size in range(1, 9):
        for first in range(9 - size):
            got = per_load_sum(values[:, first : first + size])
            assert [float(x) for x in got] == alone[first : first + size]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_load_solved_beside_others_is_the_one_solved_alone(path: Path) -> None:
    """Each valid configuration's planned load and growth loads (and a load past saturation),
    solved in stacks of one to all of them in either order, against each load alone: its
    stations' states, the storage's responses, the dirty data (in all, per server and per
    rank) and the operating point."""
    context, _, variants = _search(path)
    factors = np.array([1.0, *context.factors, 40.0, 0.0])  # 40x saturates, 0 is idle
    stacks = [list(range(n)) for n in range(1, len(factors) + 1)]
    stacks += [list(reversed(s)) for s in stacks] + [[2, 0, 4, 1, 3, 2]]
    compared = 0
    for v in variants:
        if isinstance(v, str):
            continue
        forget_placements()
        solver = Solver(sized_configuration(v, context))
        planned = solver.planned_rates()
        net = solver.network(planned)
        loads = planned[:, None] * factors
        alone = [_figures(net, loads[:, [p]]) for p in range(len(factors))]
        points = [solver.open_points(loads[:, [p]])[0] for p in range(len(factors))]
        for stack in stacks:
            together = _figures(net, loads[:, stack])
            for j, p in enumerate(stack):
                for got, want in zip(together, alone[p], strict=True):
                    assert _column_alone(got[..., j], want[..., 0])
                compared += 1
            for got_point, p in zip(solver.open_points(loads[:, stack]), stack, strict=True):
                _same_point(got_point, points[p])
    assert compared > 20 * len(stacks)


def _figures(net: Network, rates: np.ndarray) -> list[np.ndarray]:
    states = station_states(net, rates)
    by_server, by_rank = net.dirty_bytes_by_server_and_rank(
        rates, states.wait_s, states.speed_factor
    )
    return [
        states.arrival,
        states.utilization,
        states.wait_s,
        states.service_s,
        states.speed_factor,
        states.saturated,
        states.wait_ratio,
        storage_responses(net, states),
        net.dirty_bytes(rates, states.wait_s, states.speed_factor),
        by_server,
        by_rank,
    ]
