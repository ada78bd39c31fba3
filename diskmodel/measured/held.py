"""Parameters the data do not see, held as written while the others are fitted and judged.

A parameter whose Jacobian column is ~0 at the fit (`identify.NOT_SEEN`: e.g. a workload's skew
level while none of its data reach the SSDs) is not identified, and the calibrated scenario
keeps it as written. Left where the fit's last steps put it in its flat valley, it decided the
others' intervals all the same: where it ends is set by the last bits of the fit's linear
algebra, so by the BLAS kernels the processor gets (found: docs/measured.md's batch skew level
ended at 1.63 with OpenBLAS's SkylakeX kernels and at 4.35 with its Zen kernels; at 4.35 the
check of the OLTP skew level's linearised interval failed, a profile was walked, and the
calibration took 508 evaluations rather than 252, with other interval ends).

So such a parameter is no longer fitted: it is held at the value the scenario as written gives
it (`problem.Unknown.as_written`: what the calibrated scenario then holds), the others are
fitted again with it held (from where the fit ended, the Jacobian there reused for the first
step), and their intervals are found with it held; it no longer counts among the parameters
fitted (the residual's degrees of freedom). Where holding it there would raise the sum of
squares by `profile.LOWER` of the threshold's rise or more (the data do depend on it between
the fit and the written value) it is held where the fit left it instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import OptimizeResult

from diskmodel.measured.identify import NOT_SEEN, UNSEEN, Parameter, parameter, threshold_rise
from diskmodel.measured.problem import Unknown
from diskmodel.measured.profile import LOWER, Residuals


@dataclass(frozen=True)
class Held:
    """Which parameters are fitted (`free`) and every parameter's value (`at`: the held ones
    where they are held, the fitted ones where the fit left them)."""

    free: np.ndarray
    at: np.ndarray

    def full(self, z: np.ndarray) -> np.ndarray:
        """Every parameter's value with the fitted ones at `z`."""
        x = self.at.copy()
        x[self.free] = z
        return x

    def residuals(self, residuals: Residuals) -> Residuals:
        """`residuals` as a function of the fitted parameters alone."""
        return lambda z: residuals(self.full(z))

    def fitted(self, unknowns: Sequence[Unknown]) -> list[Unknown]:
        return [u for u, f in zip(unknowns, self.free, strict=True) if f]

    def parameters(
        self, fitted: Sequence[Parameter], unknowns: Sequence[Unknown]
    ) -> list[Parameter]:
        """The fitted parameters' verdicts with the held ones' (not identified, at the value
        held) in the unknowns' order."""
        verdicts = iter(fitted)
        return [
            next(verdicts) if f else parameter(u, float(v), None, None, "unseen", UNSEEN)
            for u, f, v in zip(unknowns, self.free, self.at, strict=True)
        ]

    def result(self, fit: Any) -> OptimizeResult:
        """The fit over every parameter: the held ones' Jacobian columns 0."""
        jac = np.zeros((len(fit.fun), len(self.at)))
        jac[:, self.free] = fit.jac
        return OptimizeResult(
            x=self.full(fit.x), fun=fit.fun, jac=jac, status=fit.status, nfev=fit.nfev
        )


def held_as_written(residuals: Residuals, fit: Any, unknowns: Sequence[Unknown]) -> Held | None:
    """The parameters `fit` does not see held (module docstring), or None where it sees every
    one, or none (nothing would be left to fit). One evaluation: the residuals with them held
    as written."""
    unseen = np.linalg.norm(np.asarray(fit.jac), axis=0) < NOT_SEEN
    if not unseen.any() or unseen.all():
        return None
    at = np.array(fit.x, dtype=float)
    written = np.array([u.as_written for u in unknowns])
    at[unseen] = written[unseen]
    least = float(fit.fun @ fit.fun)
    r = residuals(at)
    rise = threshold_rise(least, len(fit.fun), int(np.count_nonzero(~unseen)))
    if float(r @ r) >= least + LOWER * rise:
        at[unseen] = np.asarray(fit.x)[unseen]
    return Held(~unseen, at)
