"""Calibration: fit what a measurement cannot show to the figures it did measure.

A base model reproduces the system that runs today before any what-if is asked of it. The
interval data give each workload's rate, mix, transfer sizes and usually its hit ratio
directly; they do not give the destage ratio (writes folded in NVS) or the skew (how unevenly
the I/O falls on the data), and the catalog's unpublished figures are estimates. Those are
fitted, within their bounds, to the measured figures of the chosen intervals (response times,
and where the data give them utilisations and back-end rates) by scipy's bounded nonlinear
least squares on relative residuals (model / measured - 1):

- what is fitted, and to what: `diskmodel.measured.problem` (the catalog estimates a planner
  may name: `diskmodel.measured.estimates`);
- where the fit starts, and the look around its end for a lower valley:
  `diskmodel.measured.search`;
- how sure it is of each parameter (the 95% intervals, or why a parameter is not
  identified): `diskmodel.measured.identify`, with profiles from `diskmodel.measured.profile`;
- whether the result can be trusted (the quality gate): `diskmodel.measured.gate`;
- the work it may do: `diskmodel.measured.budget`.

The least squares take finite differences at a relative step of 1e-6 (`profile.DIFF_STEP`: the
model is smooth to rounding between the small steps an Easy Tier pool shared by two workloads
makes, which a step of 1e-3 straddled). Coverage over seeded synthetic studies:
docs/measured.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diskmodel.catalog import Catalog
from diskmodel.measured.budget import Evaluations, calibration_budget
from diskmodel.measured.figures import FIGURES
from diskmodel.measured.identify import INTERVALS, Parameter, parameters, threshold_rise
from diskmodel.measured.peaks import Selection
from diskmodel.measured.problem import (
    Problem,
    scope,
    system_unknowns,
    targets,
    workload_unknowns,
)
from diskmodel.measured.profile import LOWER, bounded_least_squares
from diskmodel.measured.search import (
    look_around,
    look_evaluations,
    sizes,
    start_evaluations,
    start_point,
)
from diskmodel.scenario import Scenario
from diskmodel.scenario.files import scenario_catalog

RESTARTS = 1
"""How many times the fit is made again from a better point a profile found."""
LOOKS = 2
"""How many times the fit is made again from a better point the look around its end found
(`search.look_around`)."""


@dataclass(frozen=True)
class Residual:
    """One measured figure (`figure`: a key of `FIGURES`) of one `scope` (a workload, a pool
    or SYSTEM) against the calibrated model (None where the model saturates)."""

    interval: str
    scope: str
    measured: float
    model: float | None
    figure: str = "response_ms"

    @property
    def error(self) -> float | None:
        return None if self.model is None else self.model / self.measured - 1.0


@dataclass(frozen=True)
class Calibration:
    parameters: tuple[Parameter, ...]
    residuals: tuple[Residual, ...]
    rms_error: float
    evaluations: int
    stopped: str = ""
    """Why the fit stopped before it converged ("" when it converged)."""


def calibrate(
    scenario: Scenario,
    selections: Sequence[Selection],
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    intervals: str = "auto",
) -> Calibration:
    """Fit each measured workload's destage ratio and skew level, and what the scenario gives
    as ranges, to the measured figures (module docstring). `intervals`: "auto" walks the
    profile of each parameter whose linearised interval is suspect, "profile" of every one,
    "linear" of none."""
    if intervals not in INTERVALS:
        raise ValueError(f"intervals must be one of {', '.join(INTERVALS)}, got {intervals!r}")
    catalog = scenario_catalog(scenario.catalog, base_dir, catalog)
    central = scenario.corner("central")
    figures = targets(central, selections)
    measured = sorted({w for _, w, figure, _ in figures if FIGURES[figure].scope == "workload"})
    unknowns = [
        *workload_unknowns(scenario, selections, measured),
        *system_unknowns(scenario, ()),
    ]
    problem = Problem(central, selections, catalog, base_dir, unknowns, figures)
    problem.check_loads()
    p = len(unknowns)
    checks = 2 * p if intervals == "auto" else 0  # `_suspect`: two evaluations a parameter
    workloads, others = sizes(unknowns)
    budget = calibration_budget(
        central,
        catalog,
        intervals=len({s for s, _, _, _ in figures}),
        parameters=p,
        figures=len(figures),
        start=start_evaluations(workloads, others),
        checks=checks,
    )
    problem.budget = budget
    _, best = start_point(problem.sum_of_squares, unknowns, problem.start)
    steps = budget.steps(p, after=checks)
    fit = bounded_least_squares(problem.residuals, best, problem.lo, problem.hi, max_steps=steps)
    look = look_evaluations(workloads, others)
    for _ in range(LOOKS):
        if budget.left(after=checks) < look + p + 1:
            break
        least = float(fit.fun @ fit.fun)
        margin = LOWER * threshold_rise(least, len(figures), p)
        _, point = look_around(problem.sum_of_squares, unknowns, fit.x, least - margin)
        if point is fit.x:
            break
        steps = budget.steps(p, after=checks)
        fit = bounded_least_squares(
            problem.residuals, point, problem.lo, problem.hi, max_steps=steps
        )
    params, better = parameters(problem.residuals, fit, unknowns, intervals)
    for _ in range(RESTARTS):
        if better is None or budget.steps(p, after=checks) < 1:
            break
        # A profile found a lower sum of squares than the fit: the fit stopped in a local
        # minimum (or short of its least on a placement step). Fit again from there, as far
        # as the work bound allows.
        steps = budget.steps(p, after=checks)
        fit = bounded_least_squares(
            problem.residuals, better, problem.lo, problem.hi, max_steps=steps
        )
        params, better = parameters(problem.residuals, fit, unknowns, intervals)
    budget.last()
    final = problem.model_values(fit.x)
    resid = tuple(
        Residual(
            selections[s].label,
            scope(central, w, figure),
            value,
            got if got >= 0 else None,
            figure,
        )
        for (s, w, figure, value), got in zip(figures, final, strict=True)
    )
    errors = [r.error for r in resid if r.error is not None]
    return Calibration(
        tuple(params), resid, rms(errors), budget.count, _stopped(fit, steps, budget)
    )


def _stopped(fit: Any, steps: int, budget: Evaluations) -> str:
    """Why the fit stopped before it converged, or "" (scipy's status 0: its step limit)."""
    if fit.status != 0:
        return ""
    if steps < 100 * len(fit.x):
        return (
            f"the fit stopped after {steps} steps ({budget.count:,} evaluations in all), at "
            "diskmodel's work bound (about a minute of computing), before it converged: its "
            "figures are where it stopped; calibrate fewer intervals or workloads at a time"
        )
    return (
        f"the fit stopped at its step limit ({steps} steps) before it converged: its figures "
        "are where it stopped"
    )


def rms(values: Sequence[float]) -> float:
    """The root mean square of relative errors (infinite when there is none: every figure's
    point saturated)."""
    return math.sqrt(sum(v * v for v in values) / len(values)) if values else math.inf
