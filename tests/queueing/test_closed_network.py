"""Large-population closed networks: log-space convolutions, groups of members, saddle point.

Tolerances: exact methods agree with sympy enumeration and with each other to 1e-12
relative (1e-10 for sequences of thousands of terms); the saddle-point approximation stays
within the bands its docstring states, measured here against the exact method.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.queueing import (
    bounds,
    closed_network,
    log_convolve,
    log_convolve_power,
    log_convolve_station,
    log_station_factor,
    multiserver_alpha,
    mva,
    mva_load_dependent,
    queue_length_distribution,
)
from diskmodel.queueing._network_spec import Unit, network
from diskmodel.queueing.normalising import (
    leave_one_out_linear,
    leave_one_out_log,
    linear_is_cheaper,
    log_g_base,
)

from . import product_form

Q = sp.Rational
EXACT = 1e-12
GAINS = np.array([1.0, 1.25, 1.55, 1.9, 2.3, 2.8, 3.3])  # a drive's command-queueing gains


def test_log_convolve_equals_the_plain_convolution_with_zero_terms() -> None:
    rng = np.random.default_rng(1)
    a, b = rng.uniform(0.1, 3.0, 40), rng.uniform(0.1, 3.0, 40)
    a[[3, 7]] = 0.0
    with np.errstate(divide="ignore"):
        got = np.exp(log_convolve(np.log(a), np.log(b)))
    np.testing.assert_allclose(got, np.convolve(a, b)[:40], rtol=EXACT)


def test_log_convolve_keeps_terms_three_hundred_orders_apart() -> None:
    # a(j) = 10^(-6 j): (a * a)(n) = (n + 1) 10^(-6 n) by hand; a float convolution of the
    # plain values would underflow from n = 52 on and lose all relative precision long before.
    j = np.arange(200, dtype=np.float64)
    log_a = -6.0 * math.log(10.0) * j
    got = log_convolve(log_a, log_a)
    np.testing.assert_allclose(got, np.log(j + 1.0) + log_a, rtol=EXACT)


@pytest.mark.parametrize(
    ("demand", "alpha"),
    [(0.7, [1, 2, 3, 4]), (2.0, GAINS), (1e-4, None), (0.999, None), (5.0, np.arange(1.0, 65.0))],
)
def test_station_convolution_equals_the_general_one(demand: float, alpha: object) -> None:
    rng = np.random.default_rng(2)
    log_g = np.concatenate(([0.0], np.cumsum(rng.uniform(-1.0, 2.0, 1999))))
    full = log_station_factor(demand, alpha, log_g.size)  # type: ignore[arg-type]
    np.testing.assert_allclose(
        log_convolve_station(log_g, demand, alpha),  # type: ignore[arg-type]
        log_convolve(log_g, full),
        rtol=1e-13,
        atol=1e-10,
    )


def test_station_factor_matches_its_definition_in_rationals() -> None:
    alpha = [Q(1), Q(7, 5), Q(8, 5)]
    d = Q(3, 10)
    expected = [sp.Integer(1)]
    for j in range(1, 8):
        expected.append(expected[-1] * d / alpha[min(j, 3) - 1])
    got = log_station_factor(0.3, [1.0, 1.4, 1.6], 8)
    np.testing.assert_allclose(got, [float(sp.log(e)) for e in expected], rtol=EXACT)


def test_convolution_power_equals_repeated_convolution() -> None:
    lf = log_station_factor(1.0, GAINS, 300)
    step = np.full(300, -np.inf)
    step[0] = 0.0
    for _ in range(13):
        step = log_convolve_station(step, 1.0, GAINS)
    np.testing.assert_allclose(log_convolve_power(lf, 13), step, rtol=1e-13, atol=1e-9)
    identity = log_convolve_power(lf, 0)
    assert identity[0] == 0.0
    assert np.all(identity[1:] == -np.inf)


def group_by_enumeration(
    demand: sp.Rational, gains: list[sp.Rational], members: int, n: int, others: list[sp.Rational]
) -> tuple[sp.Rational, sp.Rational, sp.Rational]:
    """(X, Q of the group, P(one member empty)) with every member a station of its own."""
    each = demand / members
    demands = [each] * members + others
    alpha = [gains + [gains[-1]] * n] * members + [[Q(1)] * n] * len(others)
    X, queues = product_form.single_class(demands, n, Q(0), alpha)
    # P(member 0 empty): enumerate once more with that member's state recorded.
    total = sp.Integer(0)
    empty = sp.Integer(0)
    K = len(demands)
    for state in product_form.compositions(n, K):
        w = sp.Integer(1)
        for k in range(K):
            for i in range(1, state[k] + 1):
                w *= demands[k] / alpha[k][i - 1]
        total += w
        if state[0] == 0:
            empty += w
    return X, sum(queues[:members]), empty / total


@pytest.mark.parametrize("members", [1, 2, 3])
def test_group_of_members_matches_enumeration(members: int) -> None:
    gains = [Q(1), Q(7, 5), Q(8, 5)]
    others = [Q(3, 1000), Q(2, 1000)]
    demand = Q(9, 1000)
    for n in (1, 3, 5):
        X, Q_group, idle = group_by_enumeration(demand, gains, members, n, others)
        result = closed_network(
            [0.009, 0.003, 0.002],
            n,
            alpha=[[1.0, 1.4, 1.6], None, None],
            members=[members, 1, 1],
            method="exact",
        )
        assert result.throughput == pytest.approx(float(X), rel=EXACT)
        assert result.queue_length[0] == pytest.approx(float(Q_group), rel=EXACT)
        assert result.member_idle[0] == pytest.approx(float(idle), rel=EXACT)


def _group_alpha(members: int, N: int) -> np.ndarray:
    """alpha(1..N) of `members` identical drives with gains `GAINS` seen as one station
    (Norton's flow-equivalent): m f_m(n-1) / f_m(n), f_m the m-fold convolution power of one
    member's factor (Chandy, Herzog & Woo 1975)."""
    log_m = log_convolve_power(log_station_factor(1.0, GAINS, N + 1), members)
    return np.asarray(members * np.exp(log_m[:-1] - log_m[1:]))


def test_exact_method_equals_load_dependent_mva_with_the_group_as_one_station() -> None:
    N = 400
    D = np.array([0.2e-3, 0.1e-3, 0.3e-3, 4e-3])
    alpha = np.vstack([np.ones(N), multiserver_alpha([4], N), np.ones(N), _group_alpha(8, N)])
    for Z in (0.0, 2e-3):
        reference = mva_load_dependent(D, N, Z, alpha)
        result = closed_network(
            D, N, Z, servers=[1, 4, 1, 1], alpha=[None, None, None, GAINS], members=[1, 1, 1, 8]
        )
        assert result.method == "exact"
        np.testing.assert_allclose(result.curve_throughput, reference.throughput, rtol=1e-12)
        np.testing.assert_allclose(result.queue_length, reference.queue_length[:, -1], rtol=1e-11)
        # Utilisation is X D over the peak rate: the group's is 8 drives at their top gain.
        peak = np.array([1.0, 4.0, 1.0, 8 * GAINS.max()])
        np.testing.assert_allclose(result.utilization, result.throughput * D / peak, rtol=1e-12)
        np.testing.assert_allclose(
            result.utilization[:3], reference.utilization[:3, -1], rtol=1e-12
        )


@pytest.mark.parametrize("N", [1000, 20_000])
def test_ordinary_network_matches_mva(N: int) -> None:
    D = np.array([0.004, 0.002, 0.0005, 0.0037])
    reference = mva(D, N, 0.01, servers=[1, 1, np.inf, 1])
    result = closed_network(D, N, 0.01, servers=[1, 1, np.inf, 1], method="exact")
    np.testing.assert_allclose(result.curve_throughput, reference.throughput, rtol=1e-10)
    np.testing.assert_allclose(result.queue_length, reference.queue_length[:, -1], rtol=1e-9)


def test_queue_length_distribution_matches_enumeration() -> None:
    demands = [Q(4, 1000), Q(9, 1000), Q(6, 1000)]
    alpha = [[Q(1)] * 4, [Q(1), Q(7, 5), Q(8, 5), Q(8, 5)], [Q(1), Q(2), Q(2), Q(2)]]
    think = Q(1, 40)
    for station in range(3):
        p = queue_length_distribution(
            [0.004, 0.009, 0.006],
            4,
            0.025,
            servers=[1, 1, 2],
            alpha=[None, [1.0, 1.4, 1.6], None],
            station=station,
        )
        weights = [sp.Integer(0)] * 5
        for state in product_form.compositions(4, 4):
            w = think ** state[3] / sp.factorial(state[3])
            for k in range(3):
                for i in range(1, state[k] + 1):
                    w *= demands[k] / alpha[k][i - 1]
            weights[state[station]] += w
        total = sum(weights)
        np.testing.assert_allclose(p, [float(w / total) for w in weights], rtol=1e-11, atol=1e-300)


def model_like(members: int) -> dict[str, object]:
    """16 ports, two 8-core servers, 4 DA pairs and one rank group of drives."""
    return {
        "demands": [0.01e-3] * 16 + [0.05e-3] * 2 + [0.03e-3] * 4 + [0.5e-3 * members / 8],
        "servers": [1] * 16 + [8, 8] + [1] * 4 + [1],
        "alpha": [None] * 22 + [GAINS],
        "members": [1] * 22 + [members],
    }


@pytest.mark.parametrize("members", [8, 64])
def test_saddle_point_stays_within_its_band_past_the_exact_range(members: int) -> None:
    N = 6000
    points = np.unique(np.geomspace(1024, N, 25).astype(np.int64))
    net = model_like(members)
    exact = closed_network(N=N, points=points, method="exact", **net)  # type: ignore[arg-type]
    approx = closed_network(N=N, points=points, method="saddle point", **net)  # type: ignore[arg-type]
    error = np.abs(approx.curve_throughput / exact.curve_throughput - 1)
    assert error.max() <= 1e-4
    assert error[points >= 4096].max() <= 2e-6
    busy = exact.queue_length > 1e-3
    np.testing.assert_allclose(approx.queue_length[busy], exact.queue_length[busy], rtol=2e-5)
    np.testing.assert_allclose(approx.member_idle, exact.member_idle, atol=2e-6)
    assert approx.error_estimate >= error[-1]


def test_saddle_point_at_a_knee_stays_within_its_stated_band() -> None:
    """One server and a 1 s think time: the knee is at 1,001 customers."""
    points = np.arange(900, 1100, 7)
    exact = closed_network([0.001], 1100, 1.0, points=points, method="exact")
    approx = closed_network([0.001], 1100, 1.0, points=points, method="saddle point")
    error = np.abs(approx.curve_throughput / exact.curve_throughput - 1)
    assert 1e-4 < error.max() <= 0.04 / math.sqrt(1001)
    assert approx.error_estimate >= error.max()


def test_auto_method_pays_for_the_exact_answer_near_a_knee() -> None:
    """A 4-server station and a 2 s think time: the knee is near 2,000 customers, where the
    saddle point's error estimate passes the tolerance; "auto" then solves exactly."""
    points = np.array([1500, 2000, 2500])
    kwargs = {"servers": [4, 1], "points": points, "exact_budget_s": 1.5e-3}
    approx = closed_network([0.004, 0.001], 2500, 2.0, method="saddle point", **kwargs)  # type: ignore[arg-type]
    assert approx.error_estimate > 1e-4
    auto = closed_network([0.004, 0.001], 2500, 2.0, tolerance=1e-4, **kwargs)  # type: ignore[arg-type]
    exact = closed_network([0.004, 0.001], 2500, 2.0, method="exact", **kwargs)  # type: ignore[arg-type]
    assert auto.method == "exact"
    np.testing.assert_array_equal(auto.curve_throughput, exact.curve_throughput)


def test_auto_method_is_exact_up_to_its_switch_and_reports_it() -> None:
    net = model_like(8)
    result = closed_network(N=100_000, points=[1, 500, 1024, 100_000], exact_budget_s=0.05, **net)  # type: ignore[arg-type]
    assert result.method == "saddle point"
    assert 1024 <= result.exact_up_to < 100_000
    small = closed_network(N=1024, points=[1, 500, 1024], **net)  # type: ignore[arg-type]
    assert small.method == "exact"
    assert small.error_estimate == 0.0
    np.testing.assert_allclose(result.curve_throughput[:3], small.curve_throughput, rtol=1e-12)


quick = settings(max_examples=40, deadline=None)


@quick
@given(
    D=st.lists(st.floats(1e-3, 1.0), min_size=1, max_size=5).map(np.array),
    N=st.integers(1, 3000),
    Z=st.one_of(st.just(0.0), st.floats(1e-3, 5.0)),
    data=st.data(),
)
def test_invariants(D: np.ndarray, N: int, Z: float, data) -> None:  # type: ignore[no-untyped-def]
    K = D.size
    servers = np.array(data.draw(st.lists(st.integers(1, 8), min_size=K, max_size=K)), float)
    members = np.array(data.draw(st.lists(st.integers(1, 6), min_size=K, max_size=K)))
    members = np.where(servers > 1, 1, members)
    alpha = [None if c > 1 else GAINS for c in servers]
    result = closed_network(D, N, Z, servers=servers, alpha=alpha, members=members)
    X = result.curve_throughput
    n = result.curve_population
    # Little's law over the whole network, U = X D / peak rate, idle probabilities in [0, 1].
    assert result.queue_length.sum() + result.throughput * Z == pytest.approx(N, rel=1e-9)
    peak = np.where(servers > 1, servers, members * GAINS.max())
    np.testing.assert_allclose(result.utilization, result.throughput * D / peak, rtol=1e-12)
    assert np.all((result.member_idle >= 0) & (result.member_idle <= 1))
    # Throughput never falls with the population and stays below the asymptotic bounds.
    assert np.all(np.diff(X) >= -1e-9 * X[1:])
    assert np.all(np.minimum((peak / D).min(), n / (D / peak).sum()) * (1 + 1e-9) + 0 * Z >= X)
    assert np.all(n / (Z + (D / peak).sum()) * (1 + 1e-9) >= X)


def test_single_server_network_is_below_the_balanced_job_bounds() -> None:
    D = np.array([0.003, 0.007, 0.005])
    result = closed_network(D, 5000, 0.02)
    limits = bounds(D, 5000, 0.02)
    assert np.all(result.curve_throughput <= limits.throughput_upper * (1 + 1e-12))
    assert np.all(result.curve_throughput >= limits.throughput_lower * (1 - 1e-12))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"members": [0]}, "members"),
        ({"servers": [np.inf], "members": [2]}, "delay"),
        ({"servers": [2], "alpha": [[1.0, 2.0]]}, "not both"),
        ({"alpha": [[1.0, -1.0]]}, "alpha"),
        ({"points": [0]}, "points"),
        ({"method": "fast"}, "method"),
    ],
)
def test_bad_input_gets_one_clear_message(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        closed_network([0.01], 10, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("N", [1, 4, 300])
def test_ordinary_network_paths_match_enumeration_and_mva(N: int) -> None:
    """Small networks take the pure-Python routes (constants or recursion): same answers."""
    demands = [Q(3, 1000), Q(7, 1000), Q(5, 1000)]
    D = np.array([float(d) for d in demands])
    result = closed_network(D, N, 0.02, servers=[1, 1, np.inf])
    if N <= 4:
        alpha = [[Q(1)] * N, [Q(1)] * N, [Q(j) for j in range(1, N + 1)]]
        X, queues = product_form.single_class(demands, N, Q(1, 50), alpha)
        assert result.throughput == pytest.approx(float(X), rel=EXACT)
        np.testing.assert_allclose(result.queue_length, [float(q) for q in queues], rtol=EXACT)
    reference = mva(D, N, 0.02, servers=[1, 1, np.inf])
    np.testing.assert_allclose(result.curve_throughput, reference.throughput, rtol=1e-12)
    np.testing.assert_allclose(result.queue_length, reference.queue_length[:, -1], rtol=1e-11)


@quick
@given(
    D=st.lists(st.floats(1e-3, 1.0), min_size=1, max_size=4).map(np.array),
    N=st.integers(2000, 200_000),
    Z=st.one_of(st.just(0.0), st.floats(1e-3, 5.0)),
    members=st.integers(1, 64),
)
def test_saddle_point_invariants(D: np.ndarray, N: int, Z: float, members: int) -> None:
    """Past the exact range: population conservation, U = X D / peak, the bounds."""
    alpha = [GAINS] + [None] * (D.size - 1)
    m = [members] + [1] * (D.size - 1)
    points = np.unique(np.linspace(2, N, 9).astype(np.int64))
    result = closed_network(D, N, Z, alpha=alpha, members=m, points=points, method="saddle point")
    assert result.queue_length.sum() + result.throughput * Z == pytest.approx(N, rel=1e-9)
    peak = np.array([members * GAINS.max()] + [1.0] * (D.size - 1))
    np.testing.assert_allclose(result.utilization, result.throughput * D / peak, rtol=1e-12)
    X = result.curve_throughput
    assert np.all(np.isfinite(X))
    assert np.all(np.minimum((peak / D).min(), points / (Z + (D / peak).sum())) * (1 + 1e-9) >= X)
    assert np.all(np.diff(X) >= -1e-9 * X[1:])
    assert np.all((result.member_idle >= 0) & (result.member_idle <= 1))


@pytest.mark.parametrize(("K", "N"), [(100, 64), (1000, 40), (30, 200)])
def test_many_stations_and_few_customers(K: int, N: int) -> None:
    rng = np.random.default_rng(K)
    D = rng.uniform(0.001, 0.01, K)
    servers = np.where(np.arange(K) % 7 == 0, np.inf, 1.0)
    result = closed_network(D, N, 0.01, servers=servers)
    reference = mva(D, N, 0.01, servers=servers)
    np.testing.assert_allclose(result.curve_throughput, reference.throughput, rtol=1e-12)
    np.testing.assert_allclose(result.queue_length, reference.queue_length[:, -1], rtol=1e-11)


def _model_like(think_time: float, N: int) -> tuple[np.ndarray, tuple[Unit, ...]]:
    """A model-shaped network (closed_network's description): two 4-core servers, two
    groups of 56 and 64 drives with command queueing, a port; its log G_base and units."""
    net = network(
        [0.8e-3, 0.8e-3, 0.25, 0.3, 0.2e-3],
        N,
        think_time,
        servers=[4, 4, 1, 1, 1],
        alpha=[None, None, GAINS[:3], GAINS[:3], None],
        members=[1, 1, 56, 64, 1],
    )
    return log_g_base(net, N + 1), net.units


@pytest.mark.parametrize(("think_time", "N"), [(0.0, 256), (5e-3, 256), (0.05, 1024)])
def test_linear_leave_one_out_equals_the_log_space_route(think_time: float, N: int) -> None:
    log_base, units = _model_like(think_time, N)
    log_g, minus = leave_one_out_log(log_base, units)
    slope = float(log_g[-1] - log_g[0]) / N
    for tilt in (0.0, slope):
        with np.errstate(divide="ignore", under="ignore", invalid="ignore"):
            logs, exact = leave_one_out_linear(log_base, units, tilt)
        assert exact == (tilt != 0.0 or N < 1000)  # the tilt is what holds 1,024 customers
        if exact:
            np.testing.assert_allclose(logs, [*minus, log_g], rtol=1e-13, atol=1e-11)


def test_linear_leave_one_out_declines_a_range_it_cannot_hold_exactly() -> None:
    # A long think time over 2,000 customers: log G spans 1,100 nats, 500 even tilted.
    log_base, units = _model_like(2.0, 2000)
    log_g, _ = leave_one_out_log(log_base, units)
    for tilt in (0.0, float(log_g[-1] - log_g[0]) / 2000):
        with np.errstate(divide="ignore", under="ignore", invalid="ignore"):
            _, exact = leave_one_out_linear(log_base, units, tilt)
        assert not exact


def test_the_leave_one_out_route_follows_the_measured_crossover() -> None:
    # bench_queueing's model-like network: 8 drives stay in log space from N = 1,024 (a few
    # dozen member steps), 64 drives and the model's 56 + 64 go linear (hundreds of steps).
    def units(drives: list[int]) -> tuple[Unit, ...]:
        ld = [Unit(0, 1, 0.1, np.arange(1.0, 9.0), True)] * 2
        return (*ld, *(Unit(1, m, 0.5, GAINS, False) for m in drives))

    assert linear_is_cheaper(units([8]), 257)
    assert not linear_is_cheaper(units([8]), 1025)
    assert linear_is_cheaper(units([64]), 1025)
    assert linear_is_cheaper(units([56, 64]), 1025)
