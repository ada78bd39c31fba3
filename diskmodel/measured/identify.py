"""How sure a calibration is of each fitted parameter: its 95% interval, or why it is not
identified.

From the Jacobian J at the fit and the residual variance s^2, each parameter's standard error
is sqrt(diag((J^T J)^-1) s^2), and its linearised 95% interval that times Student's t at the
residual's degrees of freedom (figures minus parameters). Where that interval cannot be
trusted (it reaches a bound, or the sum of squares at its ends, with the others moved as the
linearised fit moves them, misses the threshold it predicts there by more than a quarter of
the rise: `_suspect`, two model evaluations), the parameter's profile is walked
(`diskmodel.measured.profile`: it held at values, the others refitted, the interval where the
sum of squares stays within s^2 F(1, n - p; 0.95) of the fit's), which follows the model's
curvature and may be one-sided at a bound; `intervals="profile"` walks every parameter's,
`"linear"` none.

A parameter is *not identified* (`Parameter.reason`) when the data do not move the fit (its
column of J is ~0: e.g. skew in a pool of one tier, where placement does not depend on it),
when its 95% interval covers more than half its allowed range, when the linearised fit ran to a
bound and no profile was walked, when its profile reaches below the fit, or when the work
bound stopped its check; otherwise it is the value with its 95% interval. (J^T J)^-1 is taken
by the singular values of J with each column scaled to its parameter's range, a direction the
data do not see getting an unbounded variance, and a parameter not identified is said to be
confounded with another where their correlation is above 0.95 (or, from a profile, where the
other follows it by a quarter of its range). Coverage over seeded synthetic studies:
docs/measured.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from diskmodel.measured.budget import WorkBoundError
from diskmodel.measured.problem import Unknown
from diskmodel.measured.profile import Profile, profile

INTERVALS = ("auto", "profile", "linear")
"""How a parameter's 95% interval is found (`calibrate`'s `intervals`)."""
CUT_SHORT = (
    "its interval was not checked: diskmodel's work bound (about a minute of computing, "
    "docs/SECURITY.md) ran out first; calibrate fewer intervals or workloads at a time"
)
"""Why a parameter is not identified when the work bound stopped its check or profile."""
PROFILE_CUT = "its profile was cut short by diskmodel's work bound"
FEW = (
    "{n} measured figures for {p} parameters: nothing is left to judge the noise by, so no "
    "interval can be given"
)
NONLINEAR = 0.25
"""A linearised interval is suspect where the sum of squares at either of its ends (along the
linearised profile trace) misses the 95% threshold by more than this fraction of the rise: its
end is then misplaced by about a tenth of its half-width or more."""
NOT_SEEN = 1e-6
"""A Jacobian column (relative residuals per unit of the parameter) below this: the figures
do not move with the parameter at the fit."""

UNSEEN = "the data do not depend on it"
"""Why a parameter the figures do not move with is not identified."""

REASONS = ("", "unseen", "few", "wide", "bound", "flat", "minima", "cut")
"""Why a parameter is not identified (`Parameter.reason`): "" it is; "unseen" the data do not
depend on it; "few" there are no more measured figures than parameters, so nothing is left to
judge the noise by; "wide" its linearised interval covers more than half its range; "bound" the
linearised fit ran to a bound; "flat" its profile is within the threshold over more than half
its range; "minima" its profile reaches below the fit; "cut" the work bound stopped its
check."""


@dataclass(frozen=True)
class Parameter:
    """One fitted parameter: whose (`workload`: a workload's name, "system", or a catalog
    entry's name) and which (`key`), the value, its 95% interval (None when not identified),
    why not (`why` in words, `reason` one of `REASONS`, `partner` the parameter it cannot be
    told apart from, if one), the bounds it was fitted within, whether each is a value the
    quantity itself can take (`natural`), its `kind` ("workload", "system", "catalog") and
    where the fit started from (`initial`: for a catalog estimate, the catalog's value)."""

    workload: str
    key: str
    value: float
    low: float | None
    high: float | None
    identified: bool
    why: str = ""
    reason: str = ""
    partner: str = ""
    bounds: tuple[float, float] | None = None
    natural: tuple[bool, bool] = (False, False)
    kind: str = "workload"
    initial: float | None = None

    @property
    def name(self) -> str:
        return f"{self.workload}.{self.key}"


def _unidentified(column: float, value: float, lo: float, hi: float, half_width: float) -> str:
    """Why a fitted parameter is not identified by its linearised interval (a `REASONS` code),
    or "" if it is."""
    span = hi - lo
    if column < NOT_SEEN:
        return "unseen"
    if min(value - lo, hi - value) <= 1e-3 * span:
        return "bound"
    if 2 * half_width > span / 2:
        return "wide"
    return ""


def _linear_why(reason: str, value: float, half_width: float) -> str:
    return {
        "unseen": UNSEEN,
        "bound": (
            f"the fit ran to its bound ({value:.3g}): the data push it outside its physical "
            "range or do not pin it"
        ),
        "wide": f"its 95% interval (+-{half_width:.3g}) covers more than half its range",
    }[reason]


def _unidentified_by_profile(walked: Profile, lo: float, hi: float) -> tuple[str, str]:
    """Why a fitted parameter is not identified by its profile (code, words), or ("", "")."""
    if walked.better is not None:
        return (
            "minima",
            "its profile reaches below the fit: the sum of squares has more than one minimum",
        )
    if walked.high - walked.low > (hi - lo) / 2:
        return (
            "flat",
            f"its profile is flat: within the 95% threshold from {walked.low:.4g} to "
            f"{walked.high:.4g}, more than half its range",
        )
    return "", ""


def covariance(jac: np.ndarray, span: np.ndarray, s2: float) -> np.ndarray:
    """(J^T J)^-1 s^2 by the singular values of J with its columns scaled to each parameter's
    range: a direction the data do not see (a singular value below 1e-9 of the largest, so
    two parameters that move the figures alike) gets an unbounded variance rather than the
    zero a pseudo-inverse would give it."""
    scaled = jac * span
    # Every direction of the parameters, those the figures cannot see at all when there are
    # fewer figures than parameters included (their singular value 0): with the reduced SVD
    # they had no term, and a pseudo-inverse's zero variance (found: one interval of three
    # figures fitted exactly by five parameters gave each a 95% interval of width 0).
    _, sv, vt = np.linalg.svd(scaled, full_matrices=True)
    sv = np.concatenate([sv, np.zeros(vt.shape[0] - len(sv))])
    floor = max(float(sv.max(initial=0.0)), 1e-300) * 1e-9
    seen = sv > floor
    # (Found by fuzzing: with every column 0 the floor underflows, and 1 / floor^2 warned.)
    inverse = np.where(seen, 1.0 / np.where(seen, sv, 1.0) ** 2, 1e30)
    cov = (vt.T * inverse) @ vt
    return cov * np.outer(span, span) * s2


def _follow(x: np.ndarray, jac: np.ndarray, i: int, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """How the other parameters follow parameter `i` in the linearised fit (the Gauss-Newton
    profile trace): C[:, i] / C[i, i], C the covariance over the parameters free to move
    (neither at a bound nor unseen); 0 for the rest."""
    span = hi - lo
    at_bound = np.minimum(x - lo, hi - x) <= 1e-3 * span
    free = ~at_bound & (np.linalg.norm(jac, axis=0) >= NOT_SEEN)
    free[i] = True
    cov = covariance(jac[:, free], span[free], 1.0)
    k = int(np.count_nonzero(free[:i]))
    follow = np.zeros_like(x)
    follow[free] = cov[:, k] / cov[k, k]
    return follow


def _suspect(
    residuals: Callable[[np.ndarray], np.ndarray],
    x: np.ndarray,
    follow: np.ndarray,
    i: int,
    half_width: float,
    least: float,
    rise: float,
    lo: np.ndarray,
    hi: np.ndarray,
) -> bool:
    """Whether parameter `i`'s linearised interval (x[i] +- `half_width`) cannot be trusted:
    it reaches a bound (a linearised interval means nothing at a bound), or the model is not
    linear over it. The latter is measured at each end of the interval, at the point the
    linearised fit moves the others to (`follow`, `_follow`): for a linear model its sum of
    squares is exactly the threshold, `least` + `rise`. Two model evaluations."""
    value = float(x[i])
    if value - half_width <= lo[i] or value + half_width >= hi[i]:
        return True
    for offset in (-half_width, half_width):
        end = x + follow * offset
        if np.any(end < lo) or np.any(end > hi):
            return True
        r = residuals(end)
        if abs(float(r @ r) - least - rise) > NONLINEAR * rise:
            return True
    return False


def threshold_rise(least: float, figures: int, parameters: int) -> float:
    """s^2 F(1, n - p; 0.95): how far above the fit's sum of squares `least` the 95% interval
    of one parameter reaches (F(1, dof) = t(dof)^2: the linearised interval, with Student's t
    as s^2 is itself estimated from few figures, and the profile's threshold are the same
    where the model is linear)."""
    # The F quantile from scipy.special, which scipy.stats's `f.ppf` calls (the same bits):
    # importing scipy.stats took about 0.3 s of a calibration's processor time.
    from scipy.special import fdtri  # deferred: only calibration needs it

    dof = max(figures - parameters, 1)
    s2 = max(least / dof, 1e-12)
    return s2 * float(fdtri(1, dof, 0.95))


def _linear_verdict(
    unknowns: Sequence[Unknown],
    cov: np.ndarray,
    column: np.ndarray,
    i: int,
    value: float,
    half_width: float,
) -> tuple[str, str, str]:
    """(reason, why, partner) of parameter `i` by its linearised interval: ("", "", "") where
    it is identified; the partner is the parameter it cannot be told apart from (a
    correlation above 0.95), if one."""
    u = unknowns[i]
    reason = _unidentified(column[i], value, u.low, u.high, half_width)
    if not reason:
        return "", "", ""
    why = _linear_why(reason, value, half_width)
    partner = ""
    if column[i] >= NOT_SEEN:
        sd = np.sqrt(np.maximum(np.diag(cov), 1e-300))
        corr = cov[i] / (sd[i] * sd)
        corr[i] = 0.0
        j = int(np.argmax(np.abs(corr)))
        if abs(corr[j]) > 0.95 and column[j] >= NOT_SEEN:
            partner = unknowns[j].name
            why += f"; the data do not tell it apart from {partner} (correlation {corr[j]:+.2f})"
    return reason, why, partner


class _Allowance:
    """`residuals` allowed `share` evaluations at most (None: no share of its own; the work
    bound still holds), then `WorkBoundError`. `spent` counts the model's evaluations (the
    work bound's count), so a point solved before, which the problem does not solve again,
    costs none of the share; without it every call counts."""

    def __init__(
        self,
        residuals: Callable[[np.ndarray], np.ndarray],
        share: int | None,
        spent: Callable[[], int] | None = None,
    ) -> None:
        self.residuals, self.share, self.spent, self.count = residuals, share, spent, 0
        self.start = spent() if spent is not None else 0

    def __call__(self, x: np.ndarray) -> np.ndarray:
        used = self.count if self.spent is None else self.spent() - self.start
        if self.share is not None and used >= self.share:
            raise WorkBoundError
        self.count += 1
        return self.residuals(x)


def parameters(
    residuals: Callable[[np.ndarray], np.ndarray],
    fit: Any,
    unknowns: Sequence[Unknown],
    intervals: str,
    left: Callable[[], int] | None = None,
    spent: Callable[[], int] | None = None,
) -> tuple[list[Parameter], np.ndarray | None]:
    """Each fitted parameter with its 95% interval, or why it is not identified (module
    docstring): linearised, or its profile where `intervals` asks (or, "auto", where the
    linearised interval is suspect); and the best point a profile found below the fit, if
    one. `left` tells the evaluations the work bound has left: each parameter's check may
    spend its share of them (those left over by earlier ones pass on); one whose check or
    profile would go past its share is not identified, and says so (with its linearised
    interval's reason where that says it is not identified either). `spent` counts the
    evaluations made (a point solved before costs none of a share); without it, every call
    of `residuals` counts."""
    x = np.asarray(fit.x)
    jac = np.asarray(fit.jac)
    lo = np.array([u.low for u in unknowns])
    hi = np.array([u.high for u in unknowns])
    least = float(fit.fun @ fit.fun)
    dof = max(len(fit.fun) - len(x), 1)
    s2 = max(least / dof, 1e-12)
    rise = threshold_rise(least, len(fit.fun), len(x))
    column = np.linalg.norm(jac, axis=0)
    span = hi - lo
    cov = covariance(jac, span, s2)
    out = []
    better: tuple[float, np.ndarray] | None = None
    few = len(fit.fun) <= len(x)
    for i, u in enumerate(unknowns):
        value = float(x[i])
        if few:
            # As many parameters as figures (or more): the fit may pass through every figure,
            # and the noise cannot be told from it; no interval means anything.
            seen = column[i] >= NOT_SEEN
            out.append(
                parameter(u, value, None, None, "few", FEW.format(n=len(fit.fun), p=len(x)))
                if seen
                else parameter(u, value, None, None, "unseen", UNSEEN)
            )
            continue
        half_width = math.sqrt(max(float(cov[i, i]), 0.0) * rise / s2)
        follow = _follow(x, jac, i, lo, hi) if column[i] >= NOT_SEEN else np.zeros_like(x)
        linear = _linear_verdict(unknowns, cov, column, i, value, half_width)
        # Each parameter's check may spend its share of the evaluations left, so that one
        # long profile does not leave the others none.
        share = None if left is None else left() // (len(unknowns) - i)
        limited = _Allowance(residuals, share, spent)
        try:
            walk = column[i] >= NOT_SEEN and (
                intervals == "profile"
                or (
                    intervals == "auto"
                    and _suspect(limited, x, follow, i, half_width, least, rise, lo, hi)
                )
            )
            walked = (
                profile(limited, x, least, rise, lo, hi, i, follow, half_width, jac)
                if walk
                else None
            )
        except WorkBoundError:
            if linear[0]:  # the linearised interval says not identified: say why, and so
                out.append(
                    parameter(
                        u, value, None, None, linear[0], f"{linear[1]}; {PROFILE_CUT}", linear[2]
                    )
                )
            else:
                out.append(parameter(u, value, None, None, "cut", CUT_SHORT))
            continue
        if walked is not None:
            if walked.better is not None and (better is None or walked.better[0] < better[0]):
                better = walked.better
            out.append(_by_profile(unknowns, i, value, walked, (float(lo[i]), float(hi[i])), span))
            continue
        if linear[0]:
            out.append(parameter(u, value, None, None, *linear))
        else:
            low, high = max(lo[i], value - half_width), min(hi[i], value + half_width)
            out.append(parameter(u, value, float(low), float(high)))
    return out, None if better is None else better[1]


def parameter(
    u: Unknown,
    value: float,
    low: float | None,
    high: float | None,
    reason: str = "",
    why: str = "",
    partner: str = "",
) -> Parameter:
    """The unknown `u` fitted at `value`: identified within [low, high] where there is no
    `reason` it is not."""
    return Parameter(
        u.owner,
        u.key,
        value,
        low,
        high,
        not reason,
        why,
        reason,
        partner,
        (u.low, u.high),
        u.natural,
        u.kind,
        u.start,
    )


def _by_profile(
    unknowns: Sequence[Unknown],
    i: int,
    value: float,
    walked: Profile,
    bounds: tuple[float, float],
    span: np.ndarray,
) -> Parameter:
    """Parameter `i` judged by its profile: its interval, or why it is not identified and the
    parameters that follow it along the profile (those the data do not tell it apart from)."""
    u = unknowns[i]
    reason, why = _unidentified_by_profile(walked, *bounds)
    if not reason:
        return parameter(u, value, walked.low, walked.high)
    partners = _trace_partners(unknowns, i, walked, span)
    return parameter(u, value, None, None, reason, why + _partner_words(partners), _first(partners))


def _trace_partners(
    unknowns: Sequence[Unknown], i: int, walked: Profile, span: np.ndarray
) -> list[tuple[str, float, float]]:
    """The parameters that follow parameter `i` along its profile by a quarter of their range
    or more, furthest first (name, from, to): those the data do not tell it apart from."""
    low, high = walked.trace
    moved = np.abs(high - low) / span
    moved[i] = 0.0
    return [
        (unknowns[j].name, float(low[j]), float(high[j]))
        for j in np.argsort(-moved)
        if moved[j] >= 0.25
    ]


def _partner_words(partners: Sequence[tuple[str, float, float]]) -> str:
    if not partners:
        return ""
    named = " or ".join(
        f"{name} (from {low:.4g} to {high:.4g} along its profile)" for name, low, high in partners
    )
    return f"; the data do not tell it apart from {named}"


def _first(partners: Sequence[tuple[str, float, float]]) -> str:
    return partners[0][0] if partners else ""
