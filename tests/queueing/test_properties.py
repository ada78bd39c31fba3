"""Invariants over random stations and networks (hypothesis).

Tolerances: conservation laws (Little's law, U = X D) to a relative 1e-9; approximations
within the bands their docstrings state, over the domain drawn here (up to 8 stations,
demands spanning up to 1000x, populations up to 60).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.queueing import (
    bounds,
    linearizer,
    mg1,
    mgc_allen_cunneen,
    mm1,
    mmc,
    mva,
    mva_load_dependent,
    mva_multiclass,
    open_network,
    schweitzer,
    seidmann,
)

LAW = 1e-9
# Per-test settings (not a global profile, which would change other suites' tests too).
quick = settings(max_examples=60, deadline=None)

demand = st.floats(min_value=1e-3, max_value=1.0)
demands = st.lists(demand, min_size=1, max_size=8).map(np.array)
think = st.one_of(st.just(0.0), st.floats(min_value=1e-3, max_value=5.0))
population = st.integers(min_value=1, max_value=60)


@quick
@given(s=demand, c=st.integers(1, 64), loads=st.lists(st.floats(0.0, 1.2), min_size=2))
def test_station_response_is_at_least_service_and_grows_with_load(
    s: float, c: int, loads: list[float]
) -> None:
    lam = np.sort(np.array(loads)) * c / s
    for result in (mmc(lam, s, c), mgc_allen_cunneen(lam, s, c, 0.4)):
        assert np.all(result.response_time >= s)
        r = result.response_time
        assert np.all(r[1:] >= r[:-1] * (1 - 1e-12))  # inf >= inf holds past saturation
        assert not np.any(np.isnan(result.response_time))
        ok = ~result.saturated
        np.testing.assert_allclose(result.utilization[ok], lam[ok] * s / c, rtol=LAW)
        np.testing.assert_allclose(
            result.queue_length[ok], lam[ok] * result.response_time[ok], rtol=LAW
        )
        assert np.all(result.saturated == (lam * s / c >= 1.0))


@quick
@given(s=demand, rho=st.lists(st.floats(0.0, 0.999), min_size=1))
def test_single_server_special_cases_agree(s: float, rho: list[float]) -> None:
    lam = np.array(rho) / s
    reference = mm1(lam, s).response_time
    np.testing.assert_allclose(mmc(lam, s, 1).response_time, reference, rtol=1e-12)
    np.testing.assert_allclose(mg1(lam, s, 2 * s * s).response_time, reference, rtol=1e-12)


@quick
@given(D=demands, N=population, Z=think)
def test_exact_mva_conservation_and_bounds(D: np.ndarray, N: int, Z: float) -> None:
    result = mva(D, N, Z)
    n = np.arange(1, N + 1)
    X = result.throughput
    np.testing.assert_allclose(X * (result.response_time + Z), n, rtol=LAW)  # Little
    np.testing.assert_allclose(result.utilization, D[:, None] * X[None, :], rtol=LAW)
    assert np.all(result.residence_time >= D[:, None] * (1 - 1e-12))
    assert np.all(np.diff(X) >= -LAW * X[1:])  # more customers never lower throughput
    limits = bounds(D, N, Z)
    assert np.all(limits.throughput_upper * (1 + LAW) >= X)
    assert np.all(limits.throughput_lower * (1 - LAW) <= X)
    assert np.all(np.minimum(1 / D.max(), n / (D.sum() + Z)) * (1 + LAW) >= X)


@quick
@given(
    D=demands,
    N=st.integers(1, 40),
    Z=think,
    data=st.data(),
)
def test_load_dependent_mva_conservation(D: np.ndarray, N: int, Z: float, data) -> None:  # type: ignore[no-untyped-def]
    gains = data.draw(
        st.lists(
            st.lists(st.floats(0.2, 4.0), min_size=N, max_size=N), min_size=D.size, max_size=D.size
        )
    )
    alpha = np.maximum.accumulate(np.array(gains), axis=1)  # non-decreasing rate gains
    result = mva_load_dependent(D, N, Z, alpha)
    n = np.arange(1, N + 1)
    np.testing.assert_allclose(result.queue_length.sum(axis=0) + result.throughput * Z, n, rtol=LAW)
    assert np.all(result.queue_length >= 0)
    assert np.all(result.utilization <= 1 + LAW)
    assert not np.any(np.isnan(result.residence_time))


@quick
@given(D=demands, N=population, Z=think)
def test_schweitzer_and_linearizer_stay_in_their_bands(D: np.ndarray, N: int, Z: float) -> None:
    exact = mva(D, N, Z).throughput[-1]
    bs = schweitzer(D, N, Z).throughput[0]
    assert bs <= exact * (1 + 1e-12)  # single-class Schweitzer is pessimistic
    assert bs >= exact * (1 - 0.07)
    assert abs(linearizer(D, N, Z).throughput[0] / exact - 1) <= 0.012


@quick
@given(
    shape=st.tuples(st.integers(1, 5), st.integers(2, 3)),
    N=st.lists(st.integers(0, 5), min_size=3, max_size=3),
    Z=st.sampled_from([0.0, 0.5]),
    data=st.data(),
)
def test_multiclass_conservation_and_linearizer_band(
    shape: tuple[int, int], N: list[int], Z: float, data
) -> None:  # type: ignore[no-untyped-def]
    K, R = shape
    Dm = np.array(data.draw(st.lists(demand, min_size=K * R, max_size=K * R))).reshape(K, R)
    Nr = np.array(N[:R])
    if Nr.sum() == 0:
        Nr[0] = 1
    exact = mva_multiclass(Dm, Nr, Z)
    np.testing.assert_allclose(exact.throughput * (exact.response_time + Z), Nr, rtol=LAW)
    np.testing.assert_allclose(exact.utilization, Dm * exact.throughput[None, :], rtol=LAW)
    for approx in (schweitzer(Dm, Nr, Z), linearizer(Dm, Nr, Z)):
        np.testing.assert_allclose(approx.throughput * (approx.response_time + Z), Nr, rtol=LAW)
    active = Nr > 0
    error = np.abs(linearizer(Dm, Nr, Z).throughput[active] / exact.throughput[active] - 1)
    assert np.all(error <= 0.03)  # worst found by random search: 2.2% (a class of 1 customer)


@quick
@given(D=demands, N=population, Z=think, data=st.data())
def test_seidmann_is_pessimistic_within_its_band(D: np.ndarray, N: int, Z: float, data) -> None:  # type: ignore[no-untyped-def]
    servers = np.array(data.draw(st.lists(st.integers(1, 16), min_size=D.size, max_size=D.size)))
    exact = mva(D, N, Z, servers=servers)
    approx = seidmann(D, N, Z, servers=servers)
    ratio = approx.throughput / exact.throughput
    assert np.all(ratio <= 1 + 1e-9)
    assert np.all(ratio >= 1 - 0.22)
    assert approx.throughput[0] == exact.throughput[0] or abs(ratio[0] - 1) < 1e-12  # N = 1
    np.testing.assert_allclose(approx.throughput * (approx.response_time + Z), np.arange(1, N + 1))


@quick
@given(
    D=st.lists(demand, min_size=1, max_size=6).map(np.array),
    scale=st.lists(st.floats(0.0, 1.3), min_size=1, max_size=10),
    data=st.data(),
)
def test_open_network_is_a_set_of_independent_stations(
    D: np.ndarray, scale: list[float], data
) -> None:  # type: ignore[no-untyped-def]
    servers = np.array(data.draw(st.lists(st.integers(1, 8), min_size=D.size, max_size=D.size)))
    lam = np.sort(np.array(scale)) * float(np.min(servers / D))
    result = open_network(lam, D, servers)
    for k in range(D.size):
        station = mmc(lam, D[k], servers[k])
        np.testing.assert_allclose(result.residence_time[:, k], station.response_time, rtol=1e-12)
        np.testing.assert_array_equal(result.saturated[:, k], station.saturated)
    assert np.all(result.response_time >= D.sum() * (1 - 1e-12))
    r = result.response_time
    assert np.all(r[1:] >= r[:-1])
    assert not np.any(np.isnan(result.response_time))
