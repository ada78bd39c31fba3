"""Single stations against independent exact derivations (sympy rationals, mpmath).

Tolerance: exact forms agree to a relative 1e-12 (the float result against the exact
rational evaluated at the same inputs).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from diskmodel.queueing import (
    delay,
    erlang_b,
    erlang_c,
    mg1,
    mgc_allen_cunneen,
    mm1,
    mmc,
)

EXACT = 1e-12


def mmc_state_sums(lam: sp.Rational, s: sp.Rational, c: int) -> tuple[sp.Expr, sp.Expr]:
    """Mean queue (waiting) length Lq and P(wait) from the birth-death stationary law.

    p_j ∝ a^j / j! for j < c and a^c/c! * rho^(j-c) for j >= c (a = lam s, rho = a/c);
    the geometric tail is summed in closed form. Independent of the Erlang B recurrence.
    """
    a = lam * s
    rho = a / c
    head = sum(a**j / sp.factorial(j) for j in range(c))
    tail_mass = a**c / sp.factorial(c) / (1 - rho)
    p0 = 1 / (head + tail_mass)
    prob_wait = p0 * tail_mass
    lq = p0 * a**c / sp.factorial(c) * rho / (1 - rho) ** 2
    return sp.nsimplify(lq), sp.nsimplify(prob_wait)


@pytest.mark.parametrize("c", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("rho", ["1/10", "1/2", "9/10", "99/100"])
def test_mmc_matches_birth_death_derivation(c: int, rho: str) -> None:
    s = sp.Rational(3, 1000)
    lam = sp.Rational(rho) * c / s
    lq, prob_wait = mmc_state_sums(lam, s, c)
    wait_exact = lq / lam
    got = mmc(float(lam), float(s), c)
    assert float(got.wait_time) == pytest.approx(float(wait_exact), rel=EXACT)
    assert float(got.response_time) == pytest.approx(float(wait_exact + s), rel=EXACT)
    assert float(got.queue_length) == pytest.approx(float(lq + lam * s), rel=EXACT)
    assert float(erlang_c(c, float(lam * s))) == pytest.approx(float(prob_wait), rel=EXACT)
    assert float(got.utilization) == pytest.approx(float(sp.Rational(rho)), rel=EXACT)


@pytest.mark.parametrize("rho", ["1/10", "1/2", "9/10", "999/1000"])
def test_mm1_and_mm2_closed_forms(rho: str) -> None:
    r = sp.Rational(rho)
    s = sp.Rational(1, 200)
    one = mm1(float(r / s), float(s))
    assert float(one.response_time) == pytest.approx(float(s / (1 - r)), rel=EXACT)
    assert float(one.queue_length) == pytest.approx(float(r / (1 - r)), rel=EXACT)
    # M/M/2: R = s / (1 - rho^2) (Kleinrock 1975, §3.5 worked case).
    two = mmc(float(2 * r / s), float(s), 2)
    assert float(two.response_time) == pytest.approx(float(s / (1 - r**2)), rel=EXACT)


def test_mmc_with_one_server_equals_mm1() -> None:
    lam = np.linspace(0.0, 330.0, 34)
    a, b = mmc(lam, 0.003, 1), mm1(lam, 0.003)
    np.testing.assert_allclose(a.response_time, b.response_time, rtol=EXACT)
    np.testing.assert_array_equal(a.saturated, b.saturated)


def test_mg1_with_exponential_service_equals_mm1() -> None:
    lam = np.linspace(0.0, 199.0, 50)
    s = 0.005
    np.testing.assert_allclose(
        mg1(lam, s, 2 * s * s).response_time, mm1(lam, s).response_time, rtol=EXACT
    )


def test_mg1_deterministic_service_halves_the_mm1_wait() -> None:
    lam, s = 150.0, 0.004
    assert float(mg1(lam, s, s * s).wait_time) == pytest.approx(
        float(mm1(lam, s).wait_time) / 2, rel=EXACT
    )


def test_allen_cunneen_is_exact_for_one_server_and_for_exponential_service() -> None:
    lam, s = np.array([10.0, 100.0, 190.0]), 0.005
    cs2 = 0.3
    np.testing.assert_allclose(
        mgc_allen_cunneen(lam, s, 1, cs2).wait_time,
        mg1(lam, s, s * s * (1 + cs2)).wait_time,
        rtol=EXACT,
    )
    np.testing.assert_allclose(
        mgc_allen_cunneen(lam * 4, s, 4, 1.0).wait_time, mmc(lam * 4, s, 4).wait_time, rtol=EXACT
    )


def erlang_c_mpmath(c: int, a: mpmath.mpf) -> mpmath.mpf:
    """Erlang C at 60 digits from the Poisson terms, log-summed (an independent route)."""
    with mpmath.workdps(60):
        log_terms = [j * mpmath.log(a) - mpmath.loggamma(j + 1) for j in range(c)]
        top = c * mpmath.log(a) - mpmath.loggamma(c + 1) - mpmath.log(1 - a / c)
        peak = max([*log_terms, top])
        head = mpmath.fsum(mpmath.exp(t - peak) for t in log_terms)
        tail = mpmath.exp(top - peak)
        return tail / (head + tail)


@pytest.mark.parametrize("c", [64, 512, 4096])
@pytest.mark.parametrize("rho", [0.5, 0.9, 1 - 1e-6, 1 - 1e-9])
def test_erlang_c_is_accurate_for_many_servers_near_saturation(c: int, rho: float) -> None:
    a = c * rho
    expected = erlang_c_mpmath(c, mpmath.mpf(a))
    got = float(erlang_c(c, a))
    assert math.isfinite(got)
    assert got == pytest.approx(float(expected), rel=1e-11)


def test_erlang_b_vectorised_over_servers_and_load_matches_pointwise() -> None:
    c = np.array([1, 4, 16, 64])
    a = np.array([0.5, 3.0, 12.0, 60.0])
    together = erlang_b(c[:, None], a[None, :])
    for i, ci in enumerate(c):
        for j, aj in enumerate(a):
            assert together[i, j] == pytest.approx(float(erlang_b(int(ci), float(aj))), rel=EXACT)


@pytest.mark.parametrize("shape", [(1,), (6,), (3, 5), (40,)])
def test_erlang_b_few_points_in_floats_equal_the_array_recurrence_to_the_bit(
    shape: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Up to `_FEW_POINTS` points the recurrence runs in plain floats, each point to its own
    c; the arrays' recurrence (forced here) takes the same steps: every value is equal."""
    from diskmodel.queueing import station

    rng = np.random.default_rng(7)
    c = rng.integers(1, 200, size=shape)
    a = rng.uniform(0.0, 1.0, size=shape) * c
    floats = erlang_b(c, a)
    monkeypatch.setattr(station, "_FEW_POINTS", 0)
    arrays = erlang_b(c, a)
    assert np.array_equal(floats, arrays)
    assert np.array_equal(erlang_b(c[..., :1], a[..., :1]), arrays[..., :1])


@pytest.mark.parametrize(
    "result",
    [
        mm1([2.0, 3.0, 5.0], 0.5),
        mmc([8.0, 10.0, 40.0], 0.5, 4),
        mg1([2.0, 3.0], 0.5, 0.3),
        mgc_allen_cunneen([8.0, 9.0], 0.5, 4, 0.5),
    ],
    ids=["mm1", "mmc", "mg1", "mgc"],
)
def test_saturation_is_explicit_and_never_nan(result) -> None:  # type: ignore[no-untyped-def]
    assert result.saturated.all()
    np.testing.assert_array_equal(result.utilization, 1.0)
    for field in ("wait_time", "response_time", "queue_length"):
        values = getattr(result, field)
        assert np.isposinf(values).all(), field
    assert not np.isnan(result.service_time).any()


def test_zero_load_is_service_time_only() -> None:
    for result in (mm1(0.0, 0.01), mmc(0.0, 0.01, 8), mg1(0.0, 0.01, 2e-4)):
        assert float(result.response_time) == 0.01
        assert float(result.wait_time) == 0.0
        assert float(result.queue_length) == 0.0
        assert not bool(result.saturated)


def test_delay_station_never_queues() -> None:
    result = delay([0.0, 10.0, 1e6], 0.002)
    np.testing.assert_array_equal(result.response_time, 0.002)
    np.testing.assert_allclose(result.queue_length, [0.0, 0.02, 2000.0])
    assert not result.saturated.any()


def test_results_are_frozen() -> None:
    result = mm1([1.0, 2.0], 0.1)
    with pytest.raises(ValueError, match="read-only"):
        result.response_time[0] = 0.0
    with pytest.raises(AttributeError):
        result.response_time = np.zeros(2)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mm1(-1.0, 0.1), "lam"),
        (lambda: mm1(float("nan"), 0.1), "lam"),
        (lambda: mmc(1.0, 0.1, 0), "servers"),
        (lambda: mmc(1.0, 0.1, 2.5), "servers"),
        (lambda: mmc(1.0, 0.1, float("inf")), "servers"),
        (lambda: mg1(1.0, 0.1, 0.001), "E\\[S\\^2\\]"),
    ],
)
def test_invalid_inputs_raise(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call()
