"""The open solver's station states (`mm1_state`, `mmc_state`, `load_dependent_state`) skip the
checks, copies and figures it does not read: each must give exactly, to the bit, the
utilisation, wait and service the public station functions give, below, at and past
saturation. The load-dependent station's terms are held level first; every figure is the
one worked out with the levels along the last axis, to the bit."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.queueing.station import (
    _level_sums,
    _load_dependent_parts,
    _running_sums,
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


@pytest.mark.parametrize("depth", [*range(1, 34), 127, 128, 129, 200, 300])
def test_level_sums_and_running_sums_are_numpys_along_the_last_axis(depth: int) -> None:
    """numpy's pairwise sums of contiguous rows (from 0 one by one under 8 terms, 8 running
    sums up to its block of 128, halves beyond) and its running sums, to the bit."""
    rng = np.random.default_rng(depth)
    rows = rng.standard_normal((50, 3, depth)) * rng.choice([1e-9, 1.0, 1e9], (50, 3, depth))
    levels = np.ascontiguousarray(np.moveaxis(rows, -1, 0))
    assert np.array_equal(_level_sums(levels), rows.sum(axis=-1))
    assert np.array_equal(_running_sums(levels), np.moveaxis(np.cumsum(rows, axis=-1), -1, 0))


def _parts_levels_last(lam: np.ndarray, s: np.ndarray, alpha: np.ndarray) -> tuple[np.ndarray, ...]:
    """`_load_dependent_parts` with the levels along the last axis, numpy's own reductions."""
    a = lam * s
    top = alpha[..., -1]
    shape = np.broadcast_shapes(a.shape, top.shape)
    a, s_b, lam_b = (np.broadcast_to(x, shape) for x in (a, s, lam))
    r = a / np.broadcast_to(top, shape)
    saturated = r >= 1.0
    depth = alpha.shape[-1]
    n = np.arange(1, depth + 1, dtype=np.float64)
    with np.errstate(divide="ignore"):
        log_a = np.log(np.where(saturated, 0.0, a))
    log_t = np.broadcast_to(
        n * log_a[..., None] - np.cumsum(np.log(alpha), axis=-1), (*shape, depth)
    )
    r_ok = np.where(saturated, 0.0, r)
    peak = np.maximum(np.max(log_t, axis=-1), 0.0)
    t = np.exp(log_t - peak[..., None])
    t0 = np.exp(-peak)
    geometric = r_ok / (1.0 - r_ok)
    mass = t0 + t.sum(axis=-1) + t[..., -1] * geometric
    first = (t * n).sum(axis=-1) + t[..., -1] * (depth * geometric + r_ok / (1.0 - r_ok) ** 2)
    queue = first / mass
    busy = 1.0 - t0 / mass
    light = s_b / np.broadcast_to(alpha[..., 0], shape)
    loaded = a > 1e-150
    with np.errstate(invalid="ignore", divide="ignore"):
        response = np.where(loaded, queue / np.where(loaded, lam_b, 1.0), light)
        service = np.where(loaded, busy / np.where(loaded, lam_b, 1.0), light)
    wait = np.maximum(response - service, 0.0)
    return saturated, busy, service, wait, response, queue, s_b / np.broadcast_to(top, shape)


@pytest.mark.parametrize("depth", [1, 2, 7, 8, 9, 12, 32, 129])
def test_load_dependent_parts_level_first_are_the_levels_last_ones(depth: int) -> None:
    """Below, at and past saturation, per station or with one gain for all of them, each
    figure to the bit (NaN where both are: an idle station's queue)."""
    lam, s = _loads()
    rng = np.random.default_rng(depth)
    gains = np.maximum.accumulate(1.0 + rng.uniform(0.0, 3.0, (7, depth)), axis=1)
    top = gains[:, -1:]
    for alpha, load in ((gains[:, None, :], lam * top), (gains[0], lam * gains[0, -1])):
        got = _load_dependent_parts(load, s, alpha)
        want = _parts_levels_last(load, s, alpha)
        for g, w in zip(got, want, strict=True):
            assert g.shape == w.shape
            assert np.array_equal(g, w, equal_nan=True)
            assert np.array_equal(np.signbit(g), np.signbit(w))
