"""Brent's method (`tiering.roots.brent_root`): the root finder of auto-rebalance and the skew
level, checked against known roots and against scipy's brentq."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq

from diskmodel.tiering.roots import brent_root


@pytest.mark.parametrize(
    ("f", "a", "b", "root"),
    [
        (lambda x: x**3 - 2.0, 0.0, 2.0, 2.0 ** (1.0 / 3.0)),
        (lambda x: math.exp(x) - 10.0, -5.0, 5.0, math.log(10.0)),
        (lambda x: math.tanh(50.0 * (x - 0.3)), -1.0, 1.0, 0.3),  # steep: bisection's share
        (lambda x: 1e-300 * (x - 0.25), 0.0, 1.0, 0.25),  # tiny values keep their sign
    ],
)
def test_finds_known_roots_to_the_tolerance(
    f: Callable[[float], float], a: float, b: float, root: float
) -> None:
    for lo, hi in ((a, b), (b, a)):
        assert brent_root(f, lo, hi, xtol=1e-13, rtol=1e-13) == pytest.approx(root, abs=3e-13)


def test_a_root_at_an_end_is_that_end_and_no_bracket_is_refused() -> None:
    assert brent_root(lambda x: x - 1.0, 1.0, 3.0) == 1.0
    assert brent_root(lambda x: x - 3.0, 1.0, 3.0) == 3.0
    with pytest.raises(ValueError, match="same sign"):
        brent_root(lambda x: x * x + 1.0, -1.0, 1.0)


def test_an_infinite_end_as_auto_rebalance_gives_is_bisected_past() -> None:
    # auto-rebalance's excess is +inf where nothing moves.
    root = brent_root(lambda x: math.inf if x >= 1.0 else x - 0.6, 0.0, 1.0, xtol=1e-15)
    assert root == pytest.approx(0.6, abs=1e-14)


@settings(max_examples=200, deadline=None)
@given(
    st.floats(0.05, 0.95),
    st.floats(0.5, 8.0),
    st.floats(1e-3, 1e3),
)
def test_agrees_with_scipy_brentq_on_monotone_curves(
    root: float, power: float, scale: float
) -> None:
    def f(x: float) -> float:
        return scale * (math.copysign(abs(x - root) ** power, x - root) + 0.1 * (x - root))

    ours = brent_root(f, 0.0, 1.0, xtol=1e-14, rtol=1e-12)
    theirs = brentq(f, 0.0, 1.0, xtol=1e-14, rtol=1e-12)
    assert abs(ours - theirs) <= 2e-14 + 2e-12 * abs(root)
    assert abs(ours - root) <= 2e-14 + 2e-12 * abs(root)
