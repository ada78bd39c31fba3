"""A parameter no figure sees is held as written (`diskmodel.measured.held`): where the fit left
it in its flat valley (which the BLAS kernels decided) no longer decides the others' fit or
intervals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import OptimizeResult

from diskmodel.measured.calibrate import calibrate
from diskmodel.measured.held import held_as_written
from diskmodel.measured.identify import parameters
from diskmodel.measured.problem import SKEW_BOUNDS, Unknown, workload_unknowns
from diskmodel.measured.profile import bounded_least_squares

from .test_calibrate import PIN_LOADS, _pinned_measured, _pinned_start

X = np.linspace(0.0, 1.0, 12)
NOISE = np.sin(np.arange(12.0)) * 0.01
TRUE = np.array([2.0, 0.5])


def _unknowns(written: float = 3.0) -> list[Unknown]:
    """a and b fitted, c (which no figure sees within [0, 4]) written as `written`."""
    return [
        Unknown("w", "a", 0, 1.0, 0.0, 10.0),
        Unknown("w", "b", 0, 1.0, 0.0, 10.0),
        Unknown("w", "c", 0, 2.0, 0.0, 10.0, written=written),
    ]


def _residuals(x: np.ndarray) -> np.ndarray:
    """A line a + b t seen by the figures; c moves them only beyond 4 (a flat valley below)."""
    a, b, c = x
    return a + b * X + max(c - 4.0, 0.0) ** 2 - (TRUE[0] + TRUE[1] * X) - NOISE


def _fit(c: float) -> OptimizeResult:
    """The fit of a and b with c where a fit's last steps might have left it."""
    lo, hi = np.zeros(3), np.full(3, 10.0)
    free = bounded_least_squares(
        lambda z: _residuals(np.array([*z, c])), np.array([1.0, 1.0]), lo[:2], hi[:2]
    )
    jac = np.zeros((len(X), 3))
    jac[:, :2] = free.jac
    return OptimizeResult(x=np.array([*free.x, c]), fun=free.fun, jac=jac, status=free.status)


@given(st.floats(0.0, 3.9))
def test_where_the_unseen_parameter_ended_does_not_matter(c: float) -> None:
    """Wherever in its flat valley c ended, it is held at its written value, and a and b's fit
    and intervals are the same."""
    unknowns = _unknowns()
    held = held_as_written(_residuals, _fit(c), unknowns)
    assert held is not None
    assert held.free.tolist() == [True, True, False]
    assert held.at[2] == 3.0
    found = _fit(3.0)  # the fit again with c held there
    reduced = OptimizeResult(x=found.x[:2], fun=found.fun, jac=found.jac[:, :2])
    verdicts, _ = parameters(held.residuals(_residuals), reduced, held.fitted(unknowns), "linear")
    merged = held.parameters(verdicts, unknowns)
    assert [p.identified for p in merged] == [True, True, False]
    assert merged[2].value == 3.0
    assert merged[2].reason == "unseen"
    reference = _fit(0.0)
    again, _ = parameters(
        held.residuals(_residuals),
        OptimizeResult(x=reference.x[:2], fun=reference.fun, jac=reference.jac[:, :2]),
        held.fitted(unknowns),
        "linear",
    )
    assert [(p.low, p.high) for p in verdicts] == [(p.low, p.high) for p in again]


def test_a_written_value_the_figures_see_is_not_taken() -> None:
    """Written at 9, c would move the figures (its valley ends at 4): it is held where the fit
    left it."""
    held = held_as_written(_residuals, _fit(2.5), _unknowns(written=9.0))
    assert held is not None
    assert held.at[2] == 2.5


def test_nothing_is_held_where_every_parameter_is_seen() -> None:
    fit = _fit(2.5)
    fit.jac[:, 2] = 1.0
    assert held_as_written(_residuals, fit, _unknowns()) is None


def test_a_skew_not_written_is_held_uniform_and_a_named_one_at_its_level() -> None:
    """A workload with no skew written is uniform: its level's natural bound, approached as
    the problem sets it, while the fit starts from 4; a level written by name is held there."""
    named = _pinned_start()
    assert named.workloads[0].skew is not None
    (level,) = (u for u in workload_unknowns(named, [], [0]) if u.key == "skew.level")
    assert level.as_written == level.start == 14.0  # "high" (DOMAIN.md C7)
    none = named.model_copy(
        update={"workloads": [named.workloads[0].model_copy(update={"skew": None})]}
    )
    (level,) = (u for u in workload_unknowns(none, [], [0]) if u.key == "skew.level")
    assert level.start == 4.0
    assert level.as_written == SKEW_BOUNDS[0] + 1e-6


@pytest.mark.calibration
def test_the_unseen_skew_is_reported_at_its_written_value_and_not_counted() -> None:
    """The pinned example's skew level, which no figure sees once the pinned share is fitted
    and Easy Tier is off, is held as written: its value is the written one."""
    scenario = _pinned_start()
    fit = calibrate(scenario, _pinned_measured(PIN_LOADS, 0.0, 0))
    skew = next(p for p in fit.parameters if p.key == "skew.level")
    written = next(
        u for u in workload_unknowns(scenario, [], [0]) if u.key == "skew.level"
    ).as_written
    assert not skew.identified
    assert skew.value == written
