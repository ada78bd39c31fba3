"""Closed networks against exact state enumeration (sympy) and high-precision references.

Tolerance: exact MVA agrees with the enumerated product form to a relative 1e-12.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

from diskmodel.queueing import (
    marginal_probabilities,
    multiserver_alpha,
    mva,
    mva_load_dependent,
    mva_multiclass,
)

from . import product_form

EXACT = 1e-12
Q = sp.Rational

NETWORKS = {
    "two-stations": ([Q(3, 1000), Q(7, 1000)], Q(0)),
    "two-stations-think": ([Q(3, 1000), Q(7, 1000)], Q(1, 50)),
    "three-stations": ([Q(2, 1000), Q(5, 1000), Q(4, 1000)], Q(0)),
    "three-stations-think": ([Q(2, 1000), Q(5, 1000), Q(4, 1000)], Q(1, 100)),
}


@pytest.mark.parametrize("name", list(NETWORKS))
def test_single_class_mva_matches_enumeration(name: str) -> None:
    demands, think = NETWORKS[name]
    result = mva([float(d) for d in demands], 4, float(think))
    for n in range(1, 5):
        X, queues = product_form.single_class(demands, n, think)
        assert result.throughput[n - 1] == pytest.approx(float(X), rel=EXACT)
        np.testing.assert_allclose(
            result.queue_length[:, n - 1], [float(q) for q in queues], rtol=EXACT
        )
        residence = [float(q / X) for q in queues]
        np.testing.assert_allclose(result.residence_time[:, n - 1], residence, rtol=EXACT)


def test_delay_station_inside_the_network_matches_enumeration() -> None:
    demands = [Q(3, 1000), Q(7, 1000), Q(5, 1000)]
    # A delay station is a load-dependent one with alpha(j) = j.
    alpha = [[Q(1)] * 4, [Q(1)] * 4, [Q(j) for j in range(1, 5)]]
    result = mva([float(d) for d in demands], 4, 0.0, servers=[1, 1, np.inf])
    for n in range(1, 5):
        X, queues = product_form.single_class(demands, n, Q(0), alpha)
        assert result.throughput[n - 1] == pytest.approx(float(X), rel=EXACT)
        np.testing.assert_allclose(
            result.queue_length[:, n - 1], [float(q) for q in queues], rtol=EXACT
        )
    assert (result.utilization[2] == 0).all()


LD_ALPHAS = {
    "two-servers": [Q(1), Q(2), Q(2), Q(2), Q(2)],
    "three-servers": [Q(1), Q(2), Q(3), Q(3), Q(3)],
    "command-queueing": [Q(1), Q(7, 5), Q(8, 5), Q(17, 10), Q(7, 4)],
}


@pytest.mark.parametrize("think", [Q(0), Q(1, 40)])
@pytest.mark.parametrize("kind", list(LD_ALPHAS))
def test_load_dependent_mva_matches_enumeration(kind: str, think: sp.Rational) -> None:
    demands = [Q(4, 1000), Q(9, 1000), Q(6, 1000)]
    alpha = [[Q(1)] * 5, LD_ALPHAS[kind], [Q(1), Q(2), Q(2), Q(2), Q(2)]]
    result = mva_load_dependent(
        [float(d) for d in demands], 5, float(think), [[float(a) for a in row] for row in alpha]
    )
    for n in range(1, 6):
        X, queues = product_form.single_class(demands, n, think, alpha)
        assert result.throughput[n - 1] == pytest.approx(float(X), rel=EXACT)
        np.testing.assert_allclose(
            result.queue_length[:, n - 1], [float(q) for q in queues], rtol=EXACT
        )


def test_mva_with_servers_equals_load_dependent_mva() -> None:
    D = np.array([0.004, 0.012, 0.006, 0.002])
    servers = np.array([1, 4, 2, np.inf])
    direct = mva(D, 60, 0.05, servers=servers)
    explicit = mva_load_dependent(D, 60, 0.05, multiserver_alpha(servers, 60))
    np.testing.assert_allclose(direct.throughput, explicit.throughput, rtol=EXACT)
    np.testing.assert_allclose(direct.queue_length, explicit.queue_length, rtol=EXACT)


def test_load_dependent_mva_with_unit_rates_equals_mva_for_a_thousand_customers() -> None:
    rng = np.random.default_rng(7)
    D = rng.uniform(0.001, 0.01, 12)
    alpha = np.ones((12, 1000))
    plain = mva(D, 1000, 0.02)
    dependent = mva_load_dependent(D, 1000, 0.02, alpha)
    np.testing.assert_allclose(dependent.throughput, plain.throughput, rtol=1e-12)
    np.testing.assert_allclose(dependent.queue_length, plain.queue_length, rtol=1e-10, atol=1e-12)


def machine_repairman_throughput(N: int, c: int, D: float, Z: float) -> float:
    """X of N customers thinking Z between visits to a c-server station of demand D.

    p(j) ∝ N!/(N-j)! (D/Z)^j / (j! for j <= c, c! c^(j-c) beyond), summed at 80 digits in
    log space; X = (busy servers) / D. The classic finite-source M/M/c//N model.
    """
    with mpmath.workdps(80):
        ratio = mpmath.log(mpmath.mpf(D) / mpmath.mpf(Z))
        logs = []
        for j in range(N + 1):
            log_w = mpmath.loggamma(N + 1) - mpmath.loggamma(N - j + 1) + j * ratio
            if j <= c:
                log_w -= mpmath.loggamma(j + 1)
            else:
                log_w -= mpmath.loggamma(c + 1) + (j - c) * mpmath.log(c)
            logs.append(log_w)
        peak = max(logs)
        weights = [mpmath.exp(w - peak) for w in logs]
        total = mpmath.fsum(weights)
        busy = mpmath.fsum(min(j, c) * w for j, w in enumerate(weights)) / total
        return float(busy / mpmath.mpf(D))


@pytest.mark.parametrize(
    ("N", "c", "Z"),
    [
        (2000, 64, 1.0),  # heavily saturated: the textbook p(0) recursion fails here
        (1500, 8, 2.0),
        (400, 256, 0.5),  # c comparable to the busy servers, near the knee
    ],
)
def test_load_dependent_mva_is_stable_for_thousands_of_customers(N: int, c: int, Z: float) -> None:
    D = 0.01 * c / 8
    result = mva_load_dependent([D], N, Z, multiserver_alpha([c], N))
    assert np.all(np.isfinite(result.throughput))
    assert np.all(np.isfinite(result.queue_length))
    expected = machine_repairman_throughput(N, c, D, Z)
    assert result.throughput[-1] == pytest.approx(expected, rel=1e-9)
    # Little's law over the whole sweep, and every marginal-based queue length is sane.
    n = np.arange(1, N + 1)
    np.testing.assert_allclose(result.throughput * (result.response_time + Z), n, rtol=1e-9)
    assert np.all(result.queue_length >= 0)
    assert np.all(result.utilization <= 1 + 1e-12)


@pytest.mark.parametrize("think", [[Q(0), Q(0)], [Q(1, 50), Q(1, 100)]])
def test_multiclass_mva_matches_enumeration(think: list[sp.Rational]) -> None:
    demands = [[Q(3, 1000), Q(1, 1000)], [Q(2, 1000), Q(6, 1000)], [Q(5, 1000), Q(5, 1000)]]
    delays = [False, False, True]
    population = [2, 3]
    X, queues = product_form.multi_class(demands, population, think, delays)
    result = mva_multiclass(
        [[float(d) for d in row] for row in demands],
        population,
        [float(z) for z in think],
        servers=[1, 1, np.inf],
    )
    np.testing.assert_allclose(result.throughput, [float(x) for x in X], rtol=EXACT)
    np.testing.assert_allclose(
        result.queue_length, [[float(q) for q in row] for row in queues], rtol=EXACT
    )


def test_multiclass_with_one_class_equals_single_class_mva() -> None:
    D = np.array([0.003, 0.008, 0.005])
    single = mva(D, 25, 0.04)
    multi = mva_multiclass(D[:, None], [25], 0.04)
    assert multi.throughput[0] == pytest.approx(single.throughput[-1], rel=EXACT)
    np.testing.assert_allclose(multi.queue_length[:, 0], single.queue_length[:, -1], rtol=EXACT)


def test_multiclass_with_an_empty_class_ignores_it() -> None:
    D = np.array([[0.003, 0.001], [0.008, 0.002]])
    result = mva_multiclass(D, [6, 0], 0.01)
    alone = mva(D[:, 0], 6, 0.01)
    assert result.throughput[1] == 0.0
    assert result.throughput[0] == pytest.approx(alone.throughput[-1], rel=EXACT)


def test_multiclass_lattice_limit_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="schweitzer"):
        mva_multiclass(np.ones((2, 4)) * 0.01, [100, 100, 100, 100])


def textbook_marginal_recursion(D: float, N: int, Z: float, c: int) -> float:
    """Reiser-Lavenberg LD-MVA with p(0|n) = 1 - sum_j p(j|n): the unstable textbook form."""
    p = np.zeros(N + 1)
    p[0] = 1.0
    X = 0.0
    for n in range(1, N + 1):
        j = np.arange(1, n + 1)
        rate = np.minimum(j, c)
        X = n / (Z + D * float(np.sum(j / rate * p[:n])))
        new = np.zeros(N + 1)
        new[1 : n + 1] = D * X / rate * p[:n]
        new[0] = 1.0 - new[1:].sum()
        p = new
    return X


def test_why_the_marginals_come_from_log_normalising_constants() -> None:
    """The textbook recursion returns a negative throughput on the first case above."""
    N, c, Z = 2000, 64, 1.0
    D = 0.01 * c / 8
    assert textbook_marginal_recursion(D, N, Z, c) < 0  # catastrophic cancellation
    result = mva_load_dependent([D], N, Z, multiserver_alpha([c], N))
    assert result.throughput[-1] == pytest.approx(c / D, rel=1e-9)  # saturated: c/D


def test_closed_results_are_read_only() -> None:
    result = mva([0.002, 0.005], 10)
    for field in ("throughput", "queue_length", "utilization", "residence_time"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(result, field)[0] = 0.0


@pytest.mark.parametrize("station", [0, 1, 2])
def test_marginal_probabilities_match_enumeration(station: int) -> None:
    demands = [Q(4, 1000), Q(9, 1000), Q(6, 1000)]
    alpha = [[Q(1)] * 4, LD_ALPHAS["command-queueing"][:4], [Q(1), Q(2), Q(2), Q(2)]]
    think = Q(1, 40)
    p = marginal_probabilities(
        [float(x) for x in demands],
        4,
        float(think),
        [[float(a) for a in r] for r in alpha],
        station,
    )
    for n in range(1, 5):
        # P(j at station | n) by brute force over the product-form states.
        weights = [sp.Integer(0)] * (n + 1)
        for state in product_form.compositions(n, 4):
            w = think ** state[3] / sp.factorial(state[3])
            for k in range(3):
                for i in range(1, state[k] + 1):
                    w *= demands[k] / alpha[k][i - 1]
            weights[state[station]] += w
        total = sum(weights)
        np.testing.assert_allclose(
            p[: n + 1, n - 1], [float(w / total) for w in weights], rtol=EXACT, atol=1e-300
        )
        assert np.all(p[n + 1 :, n - 1] == 0)


def test_marginal_probabilities_are_a_distribution_with_the_mva_mean_at_large_n() -> None:
    N, c, Z = 2000, 64, 1.0
    D = np.array([0.08, 0.01])
    alpha = np.vstack([multiserver_alpha([c], N), np.ones((1, N))])
    p = marginal_probabilities(D, N, Z, alpha, station=0)
    assert np.all(p >= 0)
    np.testing.assert_allclose(p.sum(axis=0), 1.0, rtol=1e-12)
    mean = np.arange(N + 1) @ p
    np.testing.assert_allclose(mean, mva_load_dependent(D, N, Z, alpha).queue_length[0], rtol=1e-10)


def test_an_empty_class_reports_what_an_arrival_would_meet() -> None:
    D = np.array([[0.003, 0.001], [0.008, 0.002]])
    result = mva_multiclass(D, [6, 0], 0.01)
    expected = D[:, 1] * (1 + result.queue_length[:, 0])
    np.testing.assert_allclose(result.residence_time[:, 1], expected, rtol=EXACT)
