"""The exact single-class routes of `exact_routes.mva_final` give one answer.

Tolerances: the power-sum route (Newton's identities in blocks) agrees with the MVA
recursion to a relative 1e-12 (X and every queue length) and with MVA in 40-digit
arithmetic to 1e-13; the route chosen is the cheapest by the measured cost model.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from diskmodel.queueing import closed_network
from diskmodel.queueing.exact_routes import _power_sum_final, _recursion_python, _route, mva_final

EXACT = 1e-12


def _recursion(D: np.ndarray, D_queue: np.ndarray, N: int, Z: float) -> tuple[np.ndarray, ...]:
    """The textbook recursion on Python floats, delays by Little's law."""
    X_list, q_list = _recursion_python(D_queue.tolist(), N, Z + float((D - D_queue).sum()))
    X, q = np.array(X_list), np.array(q_list)
    q[D_queue == 0] = X[-1] * D[D_queue == 0]
    return X, q


def _assert_same(
    got: tuple[np.ndarray, ...], expected: tuple[np.ndarray, ...], rtol: float
) -> None:
    np.testing.assert_allclose(got[0], expected[0], rtol=rtol, atol=0)
    np.testing.assert_allclose(got[1], expected[1], rtol=rtol, atol=0)


def test_power_sums_equal_the_recursion_on_random_networks() -> None:
    rng = np.random.default_rng(20261125)
    for _ in range(120):
        K = int(rng.integers(1, 40))
        N = int(rng.integers(1, 2500))
        D = rng.uniform(1e-3, 1e-2, K)
        if rng.random() < 0.3:
            D[rng.integers(0, K, 3)] = D.max()  # tied bottlenecks
        if rng.random() < 0.3:
            D = np.round(D, 3)  # stations sharing a demand (grouped)
        D_queue = np.where(rng.random(K) < 0.2, 0.0, D)  # some delay stations
        D_queue[0] = D[0]
        Z = float(rng.choice([0.0, 0.01, 1.0, 100.0]))
        _assert_same(_power_sum_final(D, D_queue, N, Z), _recursion(D, D_queue, N, Z), EXACT)


@pytest.mark.parametrize(
    ("D", "N", "Z"),
    [
        ([1e-6, 2e-6], 5000, 1e4),  # think time 5e9 bottleneck demands: short first blocks
        ([1e-12, 1.0, 0.5], 3000, 0.0),  # powers of 1e-12 underflow: negligible terms
        ([1e-12, 1.0, 0.5], 3000, 1e8),
        ([3e-3] * 50, 2000, 5.0),  # 50 tied stations, one group
        (list(np.geomspace(1e-9, 1.0, 40)), 4000, 3.0),
        ([5.0], 1, 0.0),
        ([1e300], 10, 0.0),
        ([1e-300, 2e-300], 300, 1e-299),
    ],
)
def test_power_sums_hold_extreme_scales(D: list[float], N: int, Z: float) -> None:
    D_a = np.array(D)
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        got = _power_sum_final(D_a, D_a, N, Z)
    _assert_same(got, _recursion(D_a, D_a, N, Z), EXACT)


def test_power_sums_match_40_digit_mva() -> None:
    D = np.array([0.004, 0.009, 0.0025, 0.009, 0.001])
    N, Z = 3000, 0.02
    mpmath.mp.dps = 40
    try:
        Dm = [mpmath.mpf(float(x)) for x in D]
        q = [mpmath.mpf(0)] * D.size
        X = []
        for n in range(1, N + 1):
            R = [d * (1 + qk) for d, qk in zip(Dm, q, strict=True)]
            x = n / (mpmath.mpf(Z) + sum(R))
            q = [x * r for r in R]
            X.append(float(x))
        expected = (np.array(X), np.array([float(v) for v in q]))
    finally:
        mpmath.mp.dps = 15
    _assert_same(_power_sum_final(D, D, N, Z), expected, 1e-13)


@pytest.mark.parametrize("K", [1, 4, 10, 24, 25, 100, 1000])
def test_the_route_follows_the_measured_crossover(K: int) -> None:
    # Around the crossover the measured costs are within 30% of each other; far from it
    # one route is several times cheaper (interleaved medians, K = 1..1,000, N = 2..256).
    small = "python recursion" if K <= 10 else "recursion"
    assert _route(K, K, 4) == small
    assert _route(K, K, 1000) == "power sums"
    assert _route(K, 0, 1000) == "recursion"  # delays only: nothing to solve


def test_closed_network_takes_the_power_sum_route_unchanged() -> None:
    D = np.random.default_rng(7).uniform(1e-3, 1e-2, 100)
    result = closed_network(D, 1000, 0.01, points=[10, 1000])
    X, q = _recursion(D, D, 1000, 0.01)
    assert result.curve_throughput == pytest.approx(X[[9, 999]], rel=EXACT)
    np.testing.assert_allclose(result.queue_length, q, rtol=EXACT)
    assert _route(100, 100, 1000) == "power sums"
    _assert_same(mva_final(D, D, 1000, 0.01), (X, q), EXACT)
