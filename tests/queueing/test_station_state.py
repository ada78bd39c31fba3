"""The open solver's station states (`mm1_state`, `mmc_state`, `load_dependent_state`) skip the
checks, copies and figures it does not read: each must give exactly, to the bit, the
utilisation, wait and service the public station functions give, below, at and past
saturation."""

from __future__ import annotations

import numpy as np

from diskmodel.queueing.station import (
    load_dependent,
    load_dependent_state,
    mm1,
    mm1_state,
    mmc,
    mmc_state,
)


def _loads() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(30)
    s = rng.uniform(1e-5, 2e-2, size=(7, 1)) * np.ones((1, 9))
    # Utilisations from empty through light and heavy load to exactly and past saturation.
    rho = np.array([0.0, 1e-170, 1e-6, 0.3, 0.7, 0.95, 0.999999, 1.0, 1.7])
    return rho[None, :] / s, s


def test_mm1_state_is_mm1_to_the_bit() -> None:
    lam, s = _loads()
    util, wait = mm1_state(lam, s)
    res = mm1(lam, s)
    assert np.array_equal(util, res.utilization)
    assert np.array_equal(wait, res.wait_time)
    assert np.isinf(wait[:, -2:]).all()


def test_mmc_state_is_mmc_to_the_bit() -> None:
    lam, s = _loads()
    c = np.array([1.0, 2.0, 3.0, 4.0, 8.0, 16.0, 64.0])[:, None]
    util, wait = mmc_state(lam * c, s, c)
    res = mmc(lam * c, s, c)
    assert np.array_equal(util, res.utilization)
    assert np.array_equal(wait, res.wait_time)
    assert np.isinf(wait[:, -2:]).all()


def test_load_dependent_state_is_load_dependent_to_the_bit() -> None:
    lam, s = _loads()
    # Drives' reordering gains: rising rate multipliers held at their last value.
    depth = np.arange(1, 13, dtype=np.float64)
    gains = np.stack([1.0 + g * np.log(depth) for g in (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.2)])
    top = gains[:, -1:]
    util, wait, service = load_dependent_state(lam * top, s, gains[:, None, :])
    res = load_dependent(lam * top, s, gains[:, None, :])
    assert np.array_equal(util, res.utilization)
    assert np.array_equal(wait, res.wait_time)
    assert np.array_equal(service, res.service_time)
    assert np.isinf(wait[:, -1]).all()  # past saturation (at it, lam s / alpha(D) rounds)
