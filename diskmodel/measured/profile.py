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
    jacobian: np.ndarray | None = None,
) -> Any:
    """scipy's bounded least squares, each parameter scaled to its range, with the
    finite-difference step DIFF_STEP; at most `max_steps` steps (scipy's `max_nfev`, which
    leaves out the Jacobians' evaluations: a step costs at most one evaluation and one
    Jacobian, 1 + p evaluations), by default scipy's own 100 p. `jacobian`: a Jacobian known
    near `start` for the first step in place of one by finite differences there (p
    evaluations); every later step's is by finite differences, as scipy takes them
    (`_Differences`). Where none of the first `STALE_TRIALS` trial steps it gives is taken
    (the sum of squares did not fall), the fit is made again without it."""
    if jacobian is not None:
        try:
            return _least_squares(residuals, start, lo, hi, ftol, max_steps, jacobian)
        except _StaleJacobianError:
            pass
    return _least_squares(residuals, start, lo, hi, ftol, max_steps, None)


def _least_squares(
    residuals: Residuals,
    start: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    ftol: float,
    max_steps: int | None,
    first: np.ndarray | None,
    secant: bool = False,
) -> Any:
    """scipy's bounded least squares with the Jacobians of `_Differences` (`bounded_least_
    squares`; `secant`: after the first, each by Broyden's update)."""
    from scipy.optimize import least_squares  # deferred: only calibration needs it

    differences = _Differences(residuals, lo, hi, first, secant)
    return least_squares(
        differences.trial,
        start,
        jac=differences,
        bounds=(lo, hi),
        ftol=ftol,
        xtol=1e-8,
        x_scale=hi - lo,
        max_nfev=max_steps,
    )


STALE_TRIALS = 3
"""Trial steps a fit takes on a Jacobian handed on before it is given up (`_Differences`): a
step not taken shrinks the trust region (scipy's trf: to a quarter or less of the step), so
the third is a sixteenth of the first or shorter; past it, the fit is made with its own."""


class _StaleJacobianError(Exception):
    """The first steps a Jacobian handed on gave were not taken."""


def differences(residuals: Residuals, x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> Any:
    """The Jacobian of `residuals` at `x` by scipy's own forward differences
    (`approx_derivative`, relative step DIFF_STEP, within the bounds: what
    `least_squares(diff_step=DIFF_STEP)` computes, to the bit); the residuals at `x` come from
    the problem's record of the points it solved (`Problem.model_values`)."""
    from scipy.optimize._numdiff import approx_derivative  # scipy's own differences

    return np.atleast_2d(
        approx_derivative(
            residuals,
            x,
            method="2-point",
            rel_step=DIFF_STEP,
            f0=np.atleast_1d(residuals(x)),
            bounds=(lo, hi),
        )
    )


class _Differences:
    """The Jacobians of a fit: by `differences` (scipy has just evaluated the residuals at the
    point), except that the first one asked for is `first` where one is given, and with
    `secant`, each after the first is Broyden's update of the one before by the step taken
    (no evaluation). `trial` is the residuals as the fit calls them: a trial step on the
    Jacobian handed on past `STALE_TRIALS` (those before were not taken) raises
    `_StaleJacobianError`."""

    def __init__(
        self,
        residuals: Residuals,
        lo: np.ndarray,
        hi: np.ndarray,
        first: np.ndarray | None,
        secant: bool = False,
    ) -> None:
        self.residuals, self.lo, self.hi, self.first = residuals, lo, hi, first
        self.secant = secant
        self.trials: int | None = None  # trial steps on the Jacobian handed on
        self.last: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # x, f, J

    def trial(self, x: np.ndarray) -> np.ndarray:
        if self.trials is not None:
            self.trials += 1
            if self.trials > STALE_TRIALS:
                raise _StaleJacobianError
        return self.residuals(x)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        if self.first is not None:
            jac, self.first = np.array(self.first, dtype=np.float64), None
            self.trials = 0
        elif self.secant and self.last is not None:
            self.trials = None
            x0, f0, j0 = self.last
            f, dx = np.asarray(self.residuals(x)), x - x0
            jac = j0 + np.outer(f - f0 - j0 @ dx, dx) / float(dx @ dx)
        else:
            self.trials = None
            jac = differences(self.residuals, x, self.lo, self.hi)
        if self.secant:
            self.last = (np.array(x, dtype=np.float64), np.asarray(self.residuals(x)), jac)
        return jac


VERIFY = 3
"""Passes a profile's refit makes at most from its end on a Jacobian by finite differences
(`_Refit`)."""


def _refit(
    held: Residuals, start: np.ndarray, lo: np.ndarray, hi: np.ndarray, first: np.ndarray | None
) -> Any:
    """A refit's least squares from `start` with Broyden's Jacobians after the first (the one
    handed on, else by finite differences; by finite differences where the one handed on
    gave no step that was taken)."""
    if first is not None:
        try:
            return _least_squares(held, start, lo, hi, REFIT_FTOL, None, first, secant=True)
        except _StaleJacobianError:
            pass
    return _least_squares(held, start, lo, hi, REFIT_FTOL, None, None, secant=True)


class _Refit:
    """Least squares over every parameter but `i`, which is held at a given value; counts its
    refits. Each refit's first step takes the Jacobian the previous refit ended with (the
    first refit's, the fit's own: `jacobian`), the others held a step of the profile away:
    p - 1 evaluations fewer a refit, the refit still stopping where its own last step (by
    finite differences) improves its sum of squares by less than its tolerance."""

    def __init__(
        self,
        residuals: Residuals,
        lo: np.ndarray,
        hi: np.ndarray,
        i: int,
        jacobian: np.ndarray | None = None,
    ) -> None:
        self.residuals = residuals
        self.lo, self.hi, self.i = lo, hi, i
        self.free = np.array([k for k in range(len(lo)) if k != i], dtype=int)
        self.count = 0
        self.fit_jacobian = None if jacobian is None else np.asarray(jacobian)[:, self.free]

    def __call__(
        self, value: float, start: np.ndarray, jacobian: np.ndarray | None = None
    ) -> tuple[float, np.ndarray, np.ndarray | None]:
        """The least sum of squares with parameter `i` at `value`, from `start` (the others),
        the point it is reached at, and the Jacobian there (None with no other parameter);
        `jacobian`: one over the others near `start`, for the first step."""
        self.count += 1
        x = np.clip(start, self.lo, self.hi)
        x[self.i] = value
        if not len(self.free):
            r = self.residuals(x)
            return float(r @ r), x, None
        free = self.free

        def held(z: np.ndarray) -> np.ndarray:
            y = x.copy()
            y[free] = z
            return self.residuals(y)

        lo, hi = self.lo[free], self.hi[free]
        fit = _refit(held, x[free], lo, hi, jacobian)
        own = differences(held, fit.x, lo, hi)
        for _ in range(VERIFY):
            # From the end, on the Jacobian by finite differences there: where a step falls
            # by less than the tolerance (or none is taken), the refit is at its least.
            least = float(fit.fun @ fit.fun)
            try:
                again = _least_squares(held, fit.x, lo, hi, REFIT_FTOL, None, own, secant=True)
            except _StaleJacobianError:
                break
            if least - float(again.fun @ again.fun) <= REFIT_FTOL * least:
                break
            fit = again
            own = differences(held, fit.x, lo, hi)
        x[free] = fit.x
        return float(fit.fun @ fit.fun), x, own


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
    jacobian: np.ndarray | None = None,
) -> Profile:
    """Parameter `i`'s profile interval about the fit `fit` (sum of squares `least`), where the
    profile stays within `rise` (s^2 F(1, n - p; 0.95)) of the fit, between bounds lo and hi;
    the secant search starts at the linearised interval's ends (+- `half_width`), the others
    moved by `follow` (their change per unit of parameter `i` along the linearised trace).
    `jacobian`: the fit's, for the first step of each side's first refit (`_Refit`)."""
    refit = _Refit(residuals, lo, hi, i, jacobian)
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
        """`value` kept on this side, strictly past the fit and at most the bound (itself
        where it is: the linearised end is then the point the interval's check evaluated,
        `identify._suspect`, to the bit)."""
        share = (value - origin) / distance
        if 1e-3 <= share <= 1.0:
            return value
        return origin + distance * min(max(share, 1e-3), 1.0)

    better: tuple[float, np.ndarray] | None = None
    inside: tuple[float, float, np.ndarray] = (origin, 0.0, fit)  # (value, tau, point)
    outside: tuple[float, float, np.ndarray] | None = None
    last = inside
    value = toward(origin + offset)
    step = offset if value == origin + offset else value - origin
    start = np.clip(fit + follow * step, refit.lo, refit.hi)
    jacobian = refit.fit_jacobian
    for _ in range(MAX_REFITS):
        total, point, jacobian = refit(value, start, jacobian)
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
