"""Multi-class networks with multi-server stations: exact MVA against enumeration and direct
convolution, and the measured error bands of the multi-server Bard-Schweitzer and Linearizer.

Exact: 1e-12 relative to the product form summed in sympy rationals, and 1e-11 to the direct
convolution of the station factors (`product_form.multi_class_multiserver_by_convolution`)
and to the log-space single-class solution, also where busy multi-server stations once made
the exact lattice unstable; 1e-12 to line-solver's exact load-dependent MVA where its
textbook form is accurate. Approximations: the worst relative throughput error over random
networks (2-6 stations of 1, 2, 4 or 8 servers, 1-3 classes of up to 12 customers, think
time 0 or 20 ms), measured once and asserted here:

=====================  ===========================  ==========================
method                 random networks               reference networks
=====================  ===========================  ==========================
Linearizer (multi)     1.1% (any class size)         0.27% at 10 per class,
                                                     0.07% at 30 x 20
Bard-Schweitzer        12% (2 customers), 6.4% (>5)  2.9% at 10 per class
Seidmann + exact MVA   11%                           -
=====================  ===========================  ==========================

Larger classes near the knee (`knee_networks`: 40 random networks, 2 classes of 100-400 or
3 of 15-60), all solved by exact MVA (until the empty-station probability was taken as a
ratio of normalising constants it refused 8 as numerically unstable, and was 4e-7 off on
one it accepted): Seidmann errs by over 0.1% on 15 (worst 3.1%), the Linearizer on 6
(0.17-0.99%); on the 15 the Linearizer stays within 0.1% on 11 and is 0.40-0.91% off on 4
(a strict xfail below). Its worst, 0.99%, is on a network where Seidmann is 0.013% off: its
own error at two nearly saturated single-server stations (the same 0.99% on the
single-server network Seidmann's split makes). On all six networks where it is over 0.1%,
two stations are nearly saturated and the error is in its fraction corrections F: given the
exact F (from exact MVA at N and N - e_r) and its own marginal corrections it is within
0.002%. Measured and not adopted: more outer iterations (the error settles at 0.17-0.99%;
on knee network 15 it oscillates between 0.51% and 0.97%, and damped it settles near 0.75-0.78%);
the corrections one population level deeper (a Linearizer at each N - e_r, then one exact
MVA step: 0.32-0.58% on the four, two levels 0.27-0.53%, at R and R^2 times the cost);
the marginal corrections as ratios p_k(j | N - e_r) / p_k(j | N) instead of differences
(no change). Its error need not shrink with population: knee network 15 with classes and
think times scaled by 2 and 4 is 1.4% and 2.4% off (Seidmann 0.07%, 0.01%), network 38
0.77% and 0.73%, while 37 and 14 fall to 0.13% and 0.04% (a strict xfail below). On
network 15 the three outer sweeps do not reach the Linearizer's fixed point: from the third,
its cores cannot place every customer before the saturated 2-server station reaches A = c
(2-14 customers left over) and stop there. Damped sweeps (half steps, 30-200 of them) bring
it to 0.75%, 0.40% and 0.06-0.08% at x1, x2, x4, but never settle (last steps 6e-5-2e-3), so
they are not adopted; on 37, 14 and 38 damping settles where the plain sweeps do.

So for multi-class networks with multi-server stations: `mva_multiclass` (exact) wherever
the population lattice fits (EXACT_LATTICE_LIMIT); beyond it `linearizer` is within 0.1% on
most networks but can be a few percent off where two stations are nearly saturated.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bench_queueing import knee_networks
from diskmodel.queueing import linearizer, mva, mva_multiclass, schweitzer, seidmann_transform

from . import product_form

Q = sp.Rational
EXACT = 1e-12
DEMANDS = [[Q(3, 1000), Q(1, 1000)], [Q(8, 1000), Q(12, 1000)], [Q(5, 1000), Q(5, 1000)]]


def floats(rows: list[list[sp.Rational]]) -> np.ndarray:
    return np.array([[float(x) for x in row] for row in rows])


@pytest.mark.parametrize("servers", [[1, 3, 2], [2, 1, 4], [1, 1, 1]])
@pytest.mark.parametrize("think", [[Q(0), Q(0)], [Q(1, 50), Q(0)]])
def test_exact_multiclass_with_multiserver_stations_matches_enumeration(
    servers: list[int], think: list[sp.Rational]
) -> None:
    for population in ([3, 2], [1, 4], [0, 3]):
        X, queues = product_form.multi_class_multiserver(DEMANDS, population, think, servers)
        result = mva_multiclass(
            floats(DEMANDS), population, [float(z) for z in think], servers=servers
        )
        np.testing.assert_allclose(result.throughput, [float(x) for x in X], rtol=EXACT)
        np.testing.assert_allclose(result.queue_length, floats(queues), rtol=EXACT, atol=1e-300)
        # U = X D / c per class, Little's law per class.
        c = np.array(servers, dtype=float)[:, None]
        np.testing.assert_allclose(result.utilization, result.throughput * floats(DEMANDS) / c)
        n = np.array(population, dtype=float)
        Z = np.array([float(z) for z in think])
        np.testing.assert_allclose(result.throughput * (result.response_time + Z), n, rtol=1e-12)


def test_one_class_equals_single_class_load_dependent_mva() -> None:
    D = np.array([0.004, 0.012, 0.006, 0.002])
    servers = np.array([1, 4, 2, np.inf])
    for N in (1, 7, 25):
        multi = mva_multiclass(D[:, None], [N], 0.05, servers=servers)
        single = mva(D, N, 0.05, servers=servers)
        assert multi.throughput[0] == pytest.approx(single.throughput[-1], rel=EXACT)
        np.testing.assert_allclose(multi.queue_length[:, 0], single.queue_length[:, -1], rtol=1e-11)


def random_networks(count: int) -> list[tuple[np.ndarray, np.ndarray, float, np.ndarray]]:
    rng = np.random.default_rng(7)
    out = []
    for _ in range(count):
        K, R = int(rng.integers(2, 7)), int(rng.integers(1, 4))
        D = rng.uniform(0.001, 0.01, (K, R))
        c = rng.choice([1, 2, 4, 8], K).astype(float)
        N = rng.integers(1, 13, R)
        out.append((D, N, float(rng.choice([0.0, 0.02])), c))
    return out


def test_multiserver_approximations_stay_in_their_bands() -> None:
    worst = {"linearizer": 0.0, "schweitzer": 0.0, "seidmann": 0.0}
    for D, N, Z, c in random_networks(60):
        exact = mva_multiclass(D, N, Z, servers=c).throughput
        lin = linearizer(D, N, Z, servers=c).throughput
        bs = schweitzer(D, N, Z, servers=c).throughput
        queue_part, delay_part = seidmann_transform(D, c)
        split = np.concatenate([np.ones(c.size), np.full(c.size, np.inf)])
        seid = mva_multiclass(np.vstack([queue_part, delay_part]), N, Z, servers=split).throughput
        for name, approx in (("linearizer", lin), ("schweitzer", bs), ("seidmann", seid)):
            worst[name] = max(worst[name], float(np.max(np.abs(approx / exact - 1))))
    assert worst["linearizer"] <= 0.011
    assert worst["schweitzer"] <= 0.12
    assert worst["linearizer"] < worst["seidmann"] / 5  # the point of the multi-server form


@pytest.mark.parametrize(("population", "band"), [([10, 10], 0.0027), ([30, 20], 0.0008)])
def test_multiserver_linearizer_on_larger_classes(population: list[int], band: float) -> None:
    D = floats(DEMANDS)
    exact = mva_multiclass(D, population, [0.02, 0.0], servers=[1, 3, 2])
    approx = linearizer(D, population, [0.02, 0.0], servers=[1, 3, 2])
    assert np.max(np.abs(approx.throughput / exact.throughput - 1)) <= band
    n = np.array(population, dtype=float)
    np.testing.assert_allclose(
        approx.throughput * (approx.response_time + np.array([0.02, 0.0])), n, rtol=1e-9
    )


def test_multiserver_linearizer_converges_on_one_customer() -> None:
    """One customer never waits: X = 1 / sum D. The corrections reach it as the outer
    iterations proceed (Schweitzer alone is 4% off here); three leave 2e-6."""
    D = np.array([[0.004], [0.006], [0.003]])
    result = linearizer(D, [1], 0.0, servers=[1, 8, 4])
    assert result.throughput[0] == pytest.approx(1 / D.sum(), rel=1e-5)
    assert abs(schweitzer(D, [1], 0.0, servers=[1, 8, 4]).throughput[0] * D.sum() - 1) > 0.01


# A 4-server and a 2-server station tied at the bottleneck, no think time: the empty-station
# probability by the utilisation law, p_k(0 | n) = 1 - (A + sum_j (c - j) p_k(j | n)) / c,
# loses its precision like c^c / c! every c levels (one class, against the log-space
# single-class solution: 1e-13 at N = 40, 2e-7 at 80, 170% at 160; two classes against the
# direct convolution: 9e-12 at 40 + 40, 1.5e-9 at 50 + 50, 3e-7 at 60 + 60).
TIED = (np.array([0.004, 0.006, 0.003]), np.array([8.0, 4.0, 2.0]))


@pytest.mark.parametrize("N", [40, 80, 160])
def test_one_class_stays_exact_where_the_utilisation_law_fails(N: int) -> None:
    D, c = TIED
    stable = mva(D, N, 0.0, servers=c)
    result = mva_multiclass(D[:, None], [N], 0.0, servers=c)
    assert result.throughput[0] == pytest.approx(stable.throughput[-1], rel=EXACT)
    np.testing.assert_allclose(result.queue_length[:, 0], stable.queue_length[:, -1], rtol=1e-11)


@pytest.mark.parametrize("think", [0.0, 0.1])
def test_several_classes_stay_exact_where_the_utilisation_law_fails(think: float) -> None:
    D, c = TIED
    two = np.c_[D, D[::-1]]
    Z = np.array([think, 0.0])
    X, Q = product_form.multi_class_multiserver_by_convolution(two, [50, 50], Z, c)
    result = mva_multiclass(two, [50, 50], Z, servers=c)
    np.testing.assert_allclose(result.throughput, X, rtol=EXACT)
    np.testing.assert_allclose(result.queue_length, Q, rtol=EXACT)


# line-solver 3.0.8.0's exact load-dependent MVA (`pfqn_mvald`, rates min(j, c), run in a
# scratch venv: 16 s and 55 s on this machine): the knee networks where its textbook form
# (p_k(0 | n) by the utilisation law) is still accurate. On TIED at 50 + 50 it is 9e-9 off the
# direct convolution (while reporting itself numerically stable), as the old form here was.
LINE_SOLVER_MVALD = {
    37: [101.93740806247547, 165.1409586811607, 180.91364063673439],
    28: [127.26892390382879, 76.9447006042932, 127.44879081041854],
}


@pytest.mark.parametrize("index", sorted(LINE_SOLVER_MVALD))
def test_exact_multiserver_mva_matches_line_solver(index: int) -> None:
    D, N, Z, c = knee_networks()[index]
    result = mva_multiclass(D, N, Z, servers=c)
    np.testing.assert_allclose(result.throughput, LINE_SOLVER_MVALD[index], rtol=1e-12)


station_count = st.integers(2, 4)


@st.composite
def busy_networks(
    draw: st.DrawFn, largest: int
) -> tuple[np.ndarray, list[int], np.ndarray, np.ndarray]:
    """2-4 stations of 1-8 servers, 2 classes of up to `largest`, demands 1-10 ms (so one or
    two stations are nearly always full at these populations), think time 0 or up to 0.2 s."""
    K = draw(station_count)
    D = np.array(
        draw(
            st.lists(
                st.lists(st.floats(0.001, 0.01), min_size=2, max_size=2), min_size=K, max_size=K
            )
        )
    )
    c = np.array(
        draw(st.lists(st.sampled_from([1, 2, 3, 4, 8]), min_size=K, max_size=K)), dtype=float
    )
    N = draw(st.lists(st.integers(0, largest), min_size=2, max_size=2))
    Z = np.array(draw(st.lists(st.sampled_from([0.0, 0.02, 0.2]), min_size=2, max_size=2)))
    return D, N, Z, c


@settings(max_examples=40, deadline=None)
@given(network=busy_networks(largest=25))
def test_exact_multiserver_mva_matches_direct_convolution(
    network: tuple[np.ndarray, list[int], np.ndarray, np.ndarray],
) -> None:
    D, N, Z, c = network
    X, Q = product_form.multi_class_multiserver_by_convolution(D, N, Z, c)
    result = mva_multiclass(D, N, Z, servers=c)
    np.testing.assert_allclose(result.throughput, X, rtol=1e-11)
    np.testing.assert_allclose(result.queue_length, Q, rtol=1e-11, atol=1e-300)


@settings(max_examples=40, deadline=None)
@given(network=busy_networks(largest=150))
def test_identical_classes_are_one_class(
    network: tuple[np.ndarray, list[int], np.ndarray, np.ndarray],
) -> None:
    """Two classes with the same demands and think time are one class of N_1 + N_2 split in
    proportion (its customers are interchangeable), which the log-space single-class
    solution gives at any population: a check far past where the utilisation law failed."""
    D, N, Z, c = network
    total = sum(N)
    result = mva_multiclass(np.c_[D[:, 0], D[:, 0]], N, Z[0], servers=c)
    one = mva(D[:, 0], max(total, 1), float(Z[0]), servers=c)
    share = np.array(N, dtype=float) / max(total, 1)
    np.testing.assert_allclose(result.throughput, one.throughput[-1] * share, rtol=1e-11)
    np.testing.assert_allclose(
        result.queue_length, one.queue_length[:, -1:] * share[None, :], rtol=1e-11, atol=1e-300
    )


def seidmann_error(D: np.ndarray, N: np.ndarray, Z: np.ndarray, c: np.ndarray) -> float:
    queue_part, delay_part = seidmann_transform(D, c)
    split = np.concatenate([np.ones(c.size), np.full(c.size, np.inf)])
    seid = mva_multiclass(np.vstack([queue_part, delay_part]), N, Z, servers=split).throughput
    return float(np.max(np.abs(seid / mva_multiclass(D, N, Z, servers=c).throughput - 1)))


def linearizer_error(D: np.ndarray, N: np.ndarray, Z: np.ndarray, c: np.ndarray) -> float:
    exact = mva_multiclass(D, N, Z, servers=c).throughput
    return float(np.max(np.abs(linearizer(D, N, Z, servers=c).throughput / exact - 1)))


@pytest.mark.parametrize("index", [5, 30])
def test_linearizer_stays_within_a_tenth_of_a_percent_where_seidmann_errs(index: int) -> None:
    # Measured: Seidmann 0.64% and 1.3%, the Linearizer 0.054% and 0.012%.
    D, N, Z, c = knee_networks()[index]
    assert seidmann_error(D, N, Z, c) > 0.005
    assert linearizer_error(D, N, Z, c) <= 0.001


@pytest.mark.xfail(
    strict=True,
    reason="measured: the Linearizer is 0.62% off where Seidmann is 3.1% off (3 classes of "
    "17-31, a 2-server station at 98% with 4- and 8-server stations); 4 of the 15 knee "
    "networks where Seidmann errs by over 0.1% leave the Linearizer above 0.1% (0.40-0.91%)",
)
def test_linearizer_within_a_tenth_of_a_percent_on_every_knee_network() -> None:
    D, N, Z, c = knee_networks()[37]
    assert seidmann_error(D, N, Z, c) > 0.03
    assert linearizer_error(D, N, Z, c) <= 0.001


@pytest.mark.xfail(
    strict=True,
    reason="measured: the Linearizer is 2.4% off on knee network 15 with its classes and think "
    "times scaled by 4 (532 and 1,512 customers, a 2-server station saturated and a 4-server "
    "one at 99.9%), 0.91% unscaled and 1.4% at x2; Seidmann's reduction is 0.012% off there",
)
def test_linearizer_within_a_tenth_of_a_percent_at_larger_populations() -> None:
    D, N, Z, c = knee_networks()[15]
    assert linearizer_error(D, 4 * N, 4 * Z, c) <= 0.001
