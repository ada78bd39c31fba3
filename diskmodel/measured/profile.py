"""Profile-likelihood intervals of a bounded least-squares fit (Bates & Watts 1988, ch. 6;
Venzon & Moolgavkar 1988).

A parameter's profile is the least sum of squares the other parameters reach with it held at
v: P(v) = min over the others of S(x | x_i = v). With n figures, p parameters and the residual
variance estimated from the fit, s^2 = S(x^) / (n - p), the 95% profile interval is the set of v
where P(v) <= S(x^) + s^2 F(1, n - p; 0.95): the F-based interval (s^2 is estimated, not known,
so F rather than chi-square). Where the model is linear in the parameters it is the linearised
interval with Student's t (F(1, nu) = t(nu)^2); where it is not, it follows the fit's own
curvature: one-sided where the set reaches a bound, and as wide as the flat valley where the
data trade the parameter against another (which the linearised interval, from the slope at one
point, cannot see).

Affordable: each side's crossing is found by the secant method on the signed root tau(v) =
sqrt((P(v) - S(x^)) / rise), 1 at the crossing and, for a linear model, proportional to |v - v^|:
from the fit (tau 0) and a first refit at the linearised interval's end, warm-started at the
point the linearised fit moves the others to, the next guess is where the line through the
last two refits reaches 1 (kept between the refits that bracket the crossing, once two do).
Where the model is nearly linear two or three refits find the crossing to a hundredth of the
half-width. A refit below the fit's sum of squares (the fit stopped short, or there is a
second minimum) is reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Residuals = Callable[[np.ndarray], np.ndarray]

TAU_TOL = 0.01
"""The crossing is found when tau is within this of 1 (its end within about a hundredth of the
half-width)."""
MAX_REFITS = 8
"""Refits per side at most (the last bracket's secant point is taken after them)."""
LOWER = 0.05
"""A refit counts as a better fit than the fit's when its sum of squares is below the fit's by
more than this fraction of the threshold's rise (smaller differences are the refits' own
convergence, and move no interval visibly)."""


@dataclass(frozen=True)
class Profile:
    """One parameter's 95% profile interval, a refit below the fit if one was seen, and the
    refitted points at its two ends (the profile trace: how the other parameters follow it)."""

    low: float
    high: float
    better: tuple[float, np.ndarray] | None  # (sum of squares, point) below the fit's, if one
    trace: tuple[np.ndarray, np.ndarray]  # the refitted points at low and at high
    refits: int


DIFF_STEP = 1e-6
"""The finite-difference step of every fit, relative to each parameter's value. The model at an
open load is smooth to rounding (its derivatives agree to 5 digits at steps from 1e-8 to 1e-4
on the shipped example), but not continuous: where two workloads share an Easy Tier pool, their
extents are merged by ranking bins, and a bin of one passing a bin of the other moves the
placement by a step (on the shipped example about every 0.25% of a destage ratio: 0.03% of a
response, 0.1% of a utilisation). A step of 1e-3 straddles such a jump and gives a Jacobian
column up to ten times the slope, which stopped the fit short; 1e-6 seldom does."""


REFIT_FTOL = 1e-4
"""A profile's refit stops when a step improves its sum of squares by less than this fraction:
the threshold's rise is F(1, n - p; 0.95) / (n - p) of the fit's sum of squares (a third of it
with 13 degrees of freedom, a tenth with 40), so this finds the crossing's tau to a few parts
in 10,000, at half the refits of scipy's default 1e-8."""


def bounded_least_squares(
    residuals: Residuals,
    start: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    ftol: float = 1e-8,
    max_steps: int | None = None,
) -> Any:
    """scipy's bounded least squares, each parameter scaled to its range, with the
    finite-difference step DIFF_STEP; at most `max_steps` steps (scipy's `max_nfev`, which
    leaves out the Jacobians' evaluations: a step costs at most one evaluation and one
    Jacobian, 1 + p evaluations), by default scipy's own 100 p."""
    from scipy.optimize import least_squares  # deferred: only calibration needs it

    return least_squares(
        residuals,
        start,
        bounds=(lo, hi),
        diff_step=DIFF_STEP,
        ftol=ftol,
        xtol=1e-8,
        x_scale=hi - lo,
        max_nfev=max_steps,
    )


class _Refit:
    """Least squares over every parameter but `i`, which is held at a given value; counts its
    refits."""

    def __init__(self, residuals: Residuals, lo: np.ndarray, hi: np.ndarray, i: int) -> None:
        self.residuals = residuals
        self.lo, self.hi, self.i = lo, hi, i
        self.free = np.array([k for k in range(len(lo)) if k != i], dtype=int)
        self.count = 0

    def __call__(self, value: float, start: np.ndarray) -> tuple[float, np.ndarray]:
        self.count += 1
        x = np.clip(start, self.lo, self.hi)
        x[self.i] = value
        if not len(self.free):
            r = self.residuals(x)
            return float(r @ r), x
        free = self.free

        def held(z: np.ndarray) -> np.ndarray:
            y = x.copy()
            y[free] = z
            return self.residuals(y)

        fit = bounded_least_squares(held, x[free], self.lo[free], self.hi[free], ftol=REFIT_FTOL)
        x[free] = fit.x
        return float(fit.fun @ fit.fun), x


def profile(
    residuals: Residuals,
    fit: np.ndarray,
    least: float,
    rise: float,
    lo: np.ndarray,
    hi: np.ndarray,
    i: int,
    follow: np.ndarray,
    half_width: float,
) -> Profile:
    """Parameter `i`'s profile interval about the fit `fit` (sum of squares `least`), where the
    profile stays within `rise` (s^2 F(1, n - p; 0.95)) of the fit, between bounds lo and hi;
    the secant search starts at the linearised interval's ends (+- `half_width`), the others
    moved by `follow` (their change per unit of parameter `i` along the linearised trace)."""
    refit = _Refit(residuals, lo, hi, i)
    ends, trace = [], []
    better: tuple[float, np.ndarray] | None = None
    for bound, sign in ((float(lo[i]), -1.0), (float(hi[i]), 1.0)):
        side = _side(refit, fit, least, rise, bound, i, follow, sign * half_width)
        ends.append(side.end)
        trace.append(side.end_point)
        if side.better is not None and (better is None or side.better[0] < better[0]):
            better = side.better
    return Profile(ends[0], ends[1], better, (trace[0], trace[1]), refit.count)


@dataclass(frozen=True)
class _Side:
    end: float
    end_point: np.ndarray
    better: tuple[float, np.ndarray] | None


def _side(
    refit: _Refit,
    fit: np.ndarray,
    least: float,
    rise: float,
    bound: float,
    i: int,
    follow: np.ndarray,
    offset: float,
) -> _Side:
    """From the fit towards `bound`: where the profile crosses the threshold (or the bound, if
    it stays within it there), by the secant method on tau from the linearised end
    (module docstring)."""
    origin = float(fit[i])
    distance = bound - origin
    if abs(distance) <= 1e-3 * float(refit.hi[i] - refit.lo[i]):
        return _Side(bound, fit, None)

    def toward(value: float) -> float:
        """`value` kept on this side, strictly past the fit and at most the bound."""
        share = (value - origin) / distance
        return origin + distance * min(max(share, 1e-3), 1.0)

    better: tuple[float, np.ndarray] | None = None
    inside: tuple[float, float, np.ndarray] = (origin, 0.0, fit)  # (value, tau, point)
    outside: tuple[float, float, np.ndarray] | None = None
    last = inside
    value = toward(origin + offset)
    start = np.clip(fit + follow * (value - origin), refit.lo, refit.hi)
    for _ in range(MAX_REFITS):
        total, point = refit(value, start)
        if total < least - LOWER * rise and (better is None or total < better[0]):
            better = (total, point)
        tau = math.sqrt(max(total - least, 0.0) / rise)
        here = (value, tau, point)
        if abs(tau - 1.0) <= TAU_TOL:
            return _Side(value, point, better)
        if tau < 1.0:
            if value == bound:  # within the threshold all the way: the interval reaches it
                return _Side(bound, point, better)
            inside = here
        else:
            outside = here
        # The secant through the last two refits, kept inside the bracket once there is one.
        (v0, t0, _), (v1, t1, _) = last, here
        guess = v1 + (1.0 - t1) * (v1 - v0) / (t1 - t0) if t1 != t0 else bound
        if outside is not None:
            a, b = sorted((inside[0], outside[0]))
            if not a < guess < b:
                guess = inside[0] + (outside[0] - inside[0]) * (1.0 - inside[1]) / (
                    outside[1] - inside[1]
                )
        value = toward(guess)
        last = here
        start = point
    # Out of refits: the bracket's secant point (or the nearest refit inside).
    if outside is None:
        return _Side(inside[0], inside[2], better)
    share = (1.0 - inside[1]) / (outside[1] - inside[1])
    return _Side(inside[0] + (outside[0] - inside[0]) * share, outside[2], better)
