"""Numerical edges of the queueing core: close to saturation, many servers, many customers.

The contract (docs/design.md): never NaN, never a negative time, utilisation in [0, 1]; at or
past saturation `saturated=True`, utilisation 1 and infinite wait. Each expected value below is
the closed form evaluated by hand or by a second, independent route (stated beside it).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from diskmodel.queueing import (
    StationResult,
    erlang_c,
    mg1,
    mgc_allen_cunneen,
    mm1,
    mmc,
    multiserver_alpha,
    mva,
    mva_load_dependent,
)


def assert_contract(result: StationResult) -> None:
    u = np.asarray(result.utilization)
    assert np.all((u >= 0) & (u <= 1))
    for field in ("service_time", "wait_time", "response_time", "queue_length"):
        value = np.asarray(getattr(result, field))
        assert not np.any(np.isnan(value)), field
        assert np.all(value >= 0), field
    saturated = np.asarray(result.saturated)
    assert np.all(np.isinf(np.asarray(result.wait_time)[saturated]))
    assert np.all(np.isfinite(np.asarray(result.wait_time)[~saturated]))


@pytest.mark.parametrize("gap", [1e-3, 1e-6, 1e-9, 1e-12])
def test_mm1_just_below_saturation_is_finite_and_exact(gap: float) -> None:
    s = 0.005
    lam = (1 - gap) / s
    result = mm1(lam, s)
    assert_contract(result)
    assert not bool(result.saturated)
    # R = s / (1 - rho); 1 - rho computed in floating point is gap to ~1e-16 absolute.
    rho = lam * s
    assert float(result.response_time) == pytest.approx(s / (1 - rho), rel=1e-12)
    assert float(result.response_time) == pytest.approx(s / gap, rel=1e-3)


@pytest.mark.parametrize("excess", [0.0, 1e-12, 1e-9, 1.0, 1e9])
def test_mm1_at_and_past_saturation_is_flagged_not_nan(excess: float) -> None:
    s = 0.005
    result = mm1((1 + excess) / s, s)
    assert_contract(result)
    assert bool(result.saturated)
    assert float(result.utilization) == 1.0


def test_rates_from_a_thousandth_to_a_billion_per_second() -> None:
    lam = np.logspace(-3, 9, 49)
    for s in (1e-9, 1e-6, 5e-3):
        result = mm1(lam, s)
        assert_contract(result)
        below = lam * s < 1
        response = np.asarray(result.response_time)
        np.testing.assert_allclose(response[below], s / (1 - lam[below] * s), rtol=1e-12)
        assert np.all(np.asarray(result.saturated) == ~below)


@pytest.mark.parametrize("c", [1, 2, 64, 1000, 5000])
@pytest.mark.parametrize("gap", [0.5, 1e-3, 1e-9])
def test_many_servers_near_saturation(c: int, gap: float) -> None:
    s = 0.01
    lam = c * (1 - gap) / s
    result = mmc(lam, s, c)
    assert_contract(result)
    p_wait = float(erlang_c(c, lam * s))
    assert 0.0 <= p_wait <= 1.0
    # W_q = C(c, a) s / (c (1 - rho)), with rho = 1 - gap.
    rho = lam * s / c
    assert float(result.wait_time) == pytest.approx(p_wait * s / (c * (1 - rho)), rel=1e-9)
    if c == 1:
        assert float(result.response_time) == pytest.approx(float(mm1(lam, s).response_time))


def test_erlang_c_for_thousands_of_servers_matches_the_log_space_sum() -> None:
    # Independent route: C(c, a) = B / (1 - rho (1 - B)), with Erlang B from the log-space sum
    # B = (a^c / c!) / sum_{k<=c} a^k / k!, evaluated with lgamma (no overflow).
    for c, a in [(1000, 990.0), (5000, 4999.0), (10_000, 9_000.0)]:
        k = np.arange(c + 1)
        log_terms = k * math.log(a) - np.array([math.lgamma(i + 1) for i in k])
        log_b = log_terms[-1] - (
            log_terms.max() + math.log(np.exp(log_terms - log_terms.max()).sum())
        )
        b = math.exp(log_b)
        rho = a / c
        expected = b / (1 - rho * (1 - b))
        assert float(erlang_c(c, a)) == pytest.approx(expected, rel=1e-9)


def test_mg1_and_allen_cunneen_with_extreme_variability() -> None:
    s = 0.004
    lam = np.array([0.0, 1.0, 249.999999, 250.0, 1e9])
    for s2 in (s * s, 2 * s * s, 1e6 * s * s):
        assert_contract(mg1(lam, s, s2))
    for cs2 in (0.0, 1.0, 1e6):
        assert_contract(mgc_allen_cunneen(lam * 4, s, 4, cs2))


@pytest.mark.parametrize("N", [1, 1000, 20_000])
def test_mva_tens_of_thousands_of_customers(N: int) -> None:
    demands = np.array([0.004, 0.002, 0.0005])
    result = mva(demands, N, think_time=0.01)
    x = np.asarray(result.throughput)
    assert np.all(np.isfinite(x))
    assert np.all(x > 0)
    assert np.all(np.diff(x) >= -1e-12 * x[1:])  # throughput never falls with population
    assert x[-1] <= 1 / demands.max() * (1 + 1e-12)  # bottleneck bound
    u = np.asarray(result.utilization)
    assert np.all((u >= 0) & (u <= 1 + 1e-12))
    r = np.asarray(result.response_time)
    # Little's law over the whole sweep: N = X (R + Z).
    assert np.allclose(np.arange(1, N + 1), x * (r + 0.01), rtol=1e-9)
    if N == 20_000:
        assert x[-1] == pytest.approx(1 / demands.max(), rel=1e-9)  # deep in saturation


def test_load_dependent_mva_with_thousands_of_customers_and_many_servers() -> None:
    demands = np.array([0.02, 0.004])
    N = 3000
    alpha = multiserver_alpha(np.array([64, 1]), N)
    result = mva_load_dependent(demands, N, 0.0, alpha)
    x = np.asarray(result.throughput)
    assert np.all(np.isfinite(x))
    assert np.all(np.diff(x) >= -1e-9 * x[1:])
    assert x[-1] == pytest.approx(min(64 / 0.02, 1 / 0.004), rel=1e-6)
    u = np.asarray(result.utilization)
    assert np.all((u >= 0) & (u <= 1 + 1e-9))
