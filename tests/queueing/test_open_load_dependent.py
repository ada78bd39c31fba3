"""The open load-dependent station (`queueing.station.load_dependent`): theory and invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.queueing.station import load_dependent, load_dependent_rate_at, mm1, mmc


def test_constant_rate_is_mm1() -> None:
    lam = np.array([1.0, 30.0, 60.0, 95.0])
    ld, ref = load_dependent(lam, 0.01, [1.0]), mm1(lam, 0.01)
    np.testing.assert_allclose(ld.response_time, ref.response_time, rtol=1e-12)
    np.testing.assert_allclose(ld.utilization, ref.utilization, rtol=1e-12)


def test_min_n_c_is_mmc_queue_and_response() -> None:
    lam = np.array([10.0, 150.0, 290.0])
    alpha = np.minimum(np.arange(1, 50), 3)
    ld, ref = load_dependent(lam, 0.01, alpha), mmc(lam, 0.01, 3)
    np.testing.assert_allclose(ld.response_time, ref.response_time, rtol=1e-12)
    np.testing.assert_allclose(ld.queue_length, ref.queue_length, rtol=1e-12)


def test_two_state_chain_by_hand() -> None:
    # alpha = (1, 2): p1 = a p0, p(n) = a p0 (a/2)^(n-1); with a = 1, p0 = 1 / (1 + 1/(1 - 1/2)).
    res = load_dependent(100.0, 0.01, [1.0, 2.0])
    p0 = 1.0 / (1.0 + 1.0 / (1.0 - 0.5))
    assert float(res.utilization) == pytest.approx(1 - p0, rel=1e-12)
    queue = p0 * sum(n * 0.5 ** (n - 1) for n in range(1, 400))
    assert float(res.queue_length) == pytest.approx(queue, rel=1e-12)


def test_saturation_at_the_top_rate() -> None:
    res = load_dependent(np.array([129.9, 130.0, 500.0]), 0.01, np.linspace(1.0, 1.3, 16))
    assert res.saturated.tolist() == [False, True, True]
    assert np.isinf(res.response_time[1:]).all()
    assert (res.utilization[1:] == 1.0).all()


@settings(max_examples=200, deadline=None)
@given(
    st.floats(0.0, 0.999),
    st.floats(1e-4, 0.05),
    st.lists(st.floats(0.0, 0.5), min_size=1, max_size=40),
)
def test_invariants(load: float, s: float, steps: list[float]) -> None:
    alpha = 1.0 + np.cumsum([0.0, *steps])[: len(steps)]  # non-decreasing, alpha(1) = 1
    lam = load * alpha[-1] / s
    res = load_dependent(lam, s, alpha)
    assert not res.saturated
    # Little and the utilisation law, response >= the fastest service, monotone in load.
    assert float(res.queue_length) == pytest.approx(
        lam * float(res.response_time), rel=1e-9, abs=1e-12
    )
    assert float(res.utilization) == pytest.approx(
        lam * float(res.service_time), rel=1e-9, abs=1e-12
    )
    assert float(res.response_time) >= s / alpha[-1] * (1 - 1e-12)
    assert float(res.wait_time) >= 0.0
    more = load_dependent(lam * 0.5, s, alpha)
    assert float(more.response_time) <= float(res.response_time) * (1 + 1e-12)


def test_rate_at_utilization_inverts_the_busy_probability() -> None:
    alpha = np.linspace(1.0, 1.25, 32)
    for u in (0.1, 0.5, 0.8, 0.99):
        a = load_dependent_rate_at(u, alpha)
        assert float(load_dependent(a, 1.0, alpha).utilization) == pytest.approx(u, rel=1e-9)
