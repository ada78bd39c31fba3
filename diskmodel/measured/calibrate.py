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

import numpy as np

from diskmodel.catalog import Catalog
from diskmodel.configuration import resolve
from diskmodel.measured.budget import Evaluations, calibration_budget
from diskmodel.measured.estimates import chosen, offered
from diskmodel.measured.figures import Residual
from diskmodel.measured.gate import (
    THRESHOLD,
    Gate,
    Suggestion,
    judge,
    long_random_workloads,
    suggestions,
)
from diskmodel.measured.held import held_as_written
from diskmodel.measured.identify import INTERVALS, Parameter, parameters, threshold_rise
from diskmodel.measured.peaks import Selection
from diskmodel.measured.problem import (
    Problem,
    Unknown,
    scope,
    system_unknowns,
    targets,
    workload_unknowns,
)
from diskmodel.measured.profile import LOWER, Residuals, bounded_least_squares
from diskmodel.measured.search import (
    look_around,
    look_evaluations,
    sizes,
    start_evaluations,
    start_point,
)
from diskmodel.scenario import Scenario
from diskmodel.scenario.calibration import FIGURES, RESPONSE_FIGURES
from diskmodel.scenario.files import scenario_catalog

SEARCH_FTOL = 1e-3
"""The fits that only choose a valley (the first, and each one the look around starts) stop
where a step improves the sum of squares by less than this fraction; the fit is then taken to
scipy's default tolerance (1e-8) from where they left it. The look around asks whether a point
lies below the fit's sum of squares by `LOWER` (5%) of the 95% threshold's rise, which is
F(1, n - p; 0.95) / (n - p) of the sum of squares (a third with 13 degrees of freedom, a tenth
with 40): 1.5% of it or more, fifteen times the last step such a fit stops at. On the shipped
example the first fit took 93 evaluations to its end in the valley the look around then
leaves, 37 at this tolerance (docs/measured.md)."""
RESTARTS = 1
"""How many times the fit is made again from a better point a profile found."""
LOOKS = 2
"""How many times the fit is made again from a better point the look around its end found
(`search.look_around`)."""


@dataclass(frozen=True)
class Calibration:
    parameters: tuple[Parameter, ...]
    residuals: tuple[Residual, ...]
    rms_error: float
    evaluations: int
    stopped: str = ""
    """Why the fit stopped before it converged ("" when it converged)."""
    catalog_entries: tuple[Any, ...] = ()
    """The catalog entries (systems, drives) whose estimates were fitted and identified, with
    the fitted values set (`calibrated.fitted_catalog_text` writes them)."""
    gate: Gate | None = None
    """The quality gate's verdict and findings (`diskmodel.measured.gate`)."""

    @property
    def intervals(self) -> tuple[str, ...]:
        """The intervals fitted, in the order chosen."""
        return tuple(dict.fromkeys(r.interval for r in self.residuals))


def calibrate(
    scenario: Scenario,
    selections: Sequence[Selection],
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    intervals: str = "auto",
    fit: Sequence[str] = (),
    threshold: float = THRESHOLD,
) -> Calibration:
    """Fit each measured workload's destage ratio and skew level, what the scenario gives as
    ranges, and the catalog estimates `fit` names (`diskmodel.measured.estimates`), to the
    measured figures (module docstring). `intervals`: "auto" walks the profile of each
    parameter whose linearised interval is suspect, "profile" of every one, "linear" of
    none. `threshold`: the quality gate's largest rms error of the response times."""
    if intervals not in INTERVALS:
        raise ValueError(f"intervals must be one of {', '.join(INTERVALS)}, got {intervals!r}")
    catalog = scenario_catalog(scenario.catalog, base_dir, catalog)
    central = scenario.corner("central")
    figures = targets(central, selections)
    measured = sorted({w for _, w, figure, _ in figures if FIGURES[figure].scope == "workload"})
    config = resolve(central, catalog, base_dir)
    named = chosen(fit, config, catalog) if fit else []
    # The catalog estimates the gate may name in its remedy (`gate.suggestions`).
    candidates = [
        est
        for est, why in offered(config, catalog)
        if not why and all(est.path != e.path for e in named)
    ]
    unknowns = [
        *workload_unknowns(scenario, selections, measured),
        *system_unknowns(scenario, named),
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
    found = bounded_least_squares(
        problem.residuals, best, problem.lo, problem.hi, ftol=SEARCH_FTOL, max_steps=steps
    )
    look = look_evaluations(workloads, others)

    def left() -> int:
        """Evaluations left for the intervals' checks and profiles (the catalog estimates'
        trial for the gate's remedy kept aside)."""
        return budget.left(after=len(candidates) + 1)

    def spent() -> int:
        """The model evaluations made so far (a point solved before is not made again)."""
        return budget.count

    for _ in range(LOOKS):
        if budget.left(after=checks) < look + p + 1:
            break
        least = float(found.fun @ found.fun)
        margin = LOWER * threshold_rise(least, len(figures), p)
        _, point = look_around(problem.sum_of_squares, unknowns, found.x, least - margin)
        if point is found.x:
            break
        steps = budget.steps(p, after=checks)
        found = bounded_least_squares(
            problem.residuals, point, problem.lo, problem.hi, ftol=SEARCH_FTOL, max_steps=steps
        )
    # The fit to its end from where the searches left it (its first point and Jacobian there
    # are the ones the search ended with: the problem keeps them, `Problem.model_values`).
    converged = budget.steps(p, after=checks) > 0  # else the work bound stopped the fit
    if converged:  # (at the searches' tolerance, after the `steps` they were given)
        steps = budget.steps(p, after=checks)
        found = bounded_least_squares(
            problem.residuals, found.x, problem.lo, problem.hi, max_steps=steps
        )
    # The parameters the data do not see are held as written, and the others fitted again
    # with them held, before any interval is found (`diskmodel.measured.held`).
    held = held_as_written(problem.residuals, found, unknowns) if converged else None
    if held is not None and budget.steps(int(held.free.sum()), after=checks) < 1:
        held = None  # no step left to fit the others with them held
    fitted, lo, hi = unknowns, problem.lo, problem.hi
    residuals: Residuals = problem.residuals
    if held is not None:
        fitted, residuals = held.fitted(unknowns), held.residuals(problem.residuals)
        lo, hi = problem.lo[held.free], problem.hi[held.free]
        steps = budget.steps(len(fitted), after=checks)
        found = bounded_least_squares(
            residuals, held.at[held.free], lo, hi, max_steps=steps, jacobian=found.jac[:, held.free]
        )
    params, better = parameters(residuals, found, fitted, intervals, left, spent)
    for _ in range(RESTARTS):
        if better is None or budget.steps(len(fitted), after=checks) < 1:
            break
        # A profile found a lower sum of squares than the fit: the fit stopped in a local
        # minimum (or short of its least on a placement step). Fit again from there, as far
        # as the work bound allows.
        steps = budget.steps(len(fitted), after=checks)
        found = bounded_least_squares(residuals, better, lo, hi, max_steps=steps)
        converged = True
        params, better = parameters(residuals, found, fitted, intervals, left, spent)
    stopped = _stopped(found, steps, budget, converged)
    if held is not None:
        params, found = held.parameters(params, unknowns), held.result(found)
    # Where the response times are not reproduced, the catalog estimates that would lower
    # the error most are named in the gate's remedy (one evaluation each, as the bound allows).
    named_estimates = _named_estimates(problem, figures, found, candidates, threshold)
    budget.last()
    final = problem.model_values(found.x)
    resid = _residuals(central, selections, figures, final)
    errors = [r.error for r in resid if r.error is not None]
    gate = judge(threshold, params, resid, stopped, long_random_workloads(problem), named_estimates)
    return Calibration(
        tuple(params),
        resid,
        rms(errors),
        budget.count,
        stopped,
        _fitted_entries(problem, params, unknowns),
        gate,
    )


def _named_estimates(
    problem: Problem,
    figures: Sequence[Any],
    found: Any,
    candidates: Sequence[Any],
    threshold: float,
) -> list[Suggestion]:
    """Where the response times are not reproduced (their rms error at the fit above
    `threshold`), the catalog estimates among `candidates` that would lower the error most
    (`gate.suggestions`); none where they are."""
    response = np.array([figure in RESPONSE_FIGURES for _, _, figure, _ in figures])
    at_fit = np.asarray(found.fun)[response]
    if not at_fit.size or math.sqrt(float(np.mean(at_fit**2))) > threshold:
        return suggestions(problem, found.x, np.asarray(found.jac), candidates)
    return []


def _residuals(
    central: Scenario,
    selections: Sequence[Selection],
    figures: Sequence[Any],
    final: Sequence[float],
) -> tuple[Residual, ...]:
    """Each measured figure against the model's value at the fit (None where the model
    saturates there)."""
    return tuple(
        Residual(
            selections[s].label,
            scope(central, w, figure),
            value,
            got if got >= 0 else None,
            figure,
        )
        for (s, w, figure, value), got in zip(figures, final, strict=True)
    )


def _fitted_entries(
    problem: Problem, params: Sequence[Parameter], unknowns: Sequence[Unknown]
) -> tuple[Any, ...]:
    """The catalog entries whose figures were fitted, with the figures identified set in them;
    the others stay the catalog's."""
    kept = np.array(
        [
            p.value if p.identified or p.kind != "catalog" else u.start
            for p, u in zip(params, unknowns, strict=True)
        ]
    )
    owners = dict.fromkeys(p.workload for p in params if p.kind == "catalog" and p.identified)
    return tuple(problem.entries_at(kept, list(owners)))


def _stopped(fit: Any, steps: int, budget: Evaluations, taken: bool = True) -> str:
    """Why the fit stopped before it converged, or "" (scipy's status 0: its step limit;
    `taken` False: the work bound left no step for the fit to its end)."""
    if taken and fit.status != 0:
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
