"""What a calibration reuses between evaluations (issue 30 item 4): a point solved is not
solved again, scipy's own finite differences are taken to the bit where no Jacobian is handed
on, a Jacobian handed on that is wrong costs a few trial steps and not the fit, and a
profile's refits (Broyden's Jacobians, checked at their end by finite differences) give a
linear model's interval exactly. On small functions of our own, so every answer is known."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import least_squares
from scipy.stats import f as fisher

from diskmodel.measured.profile import DIFF_STEP, bounded_least_squares, profile

from ..conftest import ROOT

MEASURED_DIR = ROOT / "scenarios" / "measured"

T = np.linspace(0.0, 4.0, 12)
MEASURED = 2.0 * np.exp(-0.7 * T) + 0.3 + 0.01 * np.sin(7.0 * T)
LO = np.array([0.1, 0.05, 0.0])
HI = np.array([5.0, 3.0, 1.0])


def _decay(x: np.ndarray) -> np.ndarray:
    """A bounded nonlinear fit: amplitude, rate and floor of an exponential decay."""
    return x[0] * np.exp(-x[1] * T) + x[2] - MEASURED


def test_with_no_jacobian_handed_on_the_fit_is_scipys_own_to_the_bit() -> None:
    start = np.array([1.0, 0.3, 0.5])
    ours = bounded_least_squares(_decay, start, LO, HI)
    scipys = least_squares(
        _decay,
        start,
        bounds=(LO, HI),
        diff_step=DIFF_STEP,
        ftol=1e-8,
        xtol=1e-8,
        x_scale=HI - LO,
    )
    assert ours.x.tobytes() == scipys.x.tobytes()
    assert ours.fun.tobytes() == scipys.fun.tobytes()
    assert ours.jac.tobytes() == scipys.jac.tobytes()


@pytest.mark.parametrize("wrong", ["negated", "zero column", "a hundred times"])
def test_a_wrong_jacobian_handed_on_still_reaches_the_least(wrong: str) -> None:
    start = np.array([1.0, 0.3, 0.5])
    right = bounded_least_squares(_decay, start, LO, HI)
    jacobian = np.asarray(right.jac).copy()
    if wrong == "negated":
        jacobian = -jacobian
    elif wrong == "zero column":
        jacobian[:, 1] = 0.0
    else:
        jacobian = 100.0 * jacobian
    handed = bounded_least_squares(_decay, start, LO, HI, jacobian=jacobian)
    assert float(handed.fun @ handed.fun) == pytest.approx(float(right.fun @ right.fun), rel=1e-6)
    np.testing.assert_allclose(handed.x, right.x, rtol=1e-4)


def test_a_linear_models_profile_interval_is_its_linearised_interval() -> None:
    """For a linear model the profile's 95% interval is x +- t s sqrt((J^T J)^-1)_ii exactly
    (Bates & Watts): the refits on Broyden's Jacobians must reach each refit's least."""
    rng = np.random.default_rng(3)
    design = np.column_stack([np.ones(20), np.linspace(0, 1, 20), np.linspace(0, 1, 20) ** 2])
    y = design @ np.array([0.5, 1.5, -0.7]) + rng.normal(0.0, 0.05, 20)
    lo, hi = np.full(3, -10.0), np.full(3, 10.0)

    def residuals(x: np.ndarray) -> np.ndarray:
        return design @ x - y

    fit = bounded_least_squares(residuals, np.zeros(3), lo, hi)
    least = float(fit.fun @ fit.fun)
    s2 = least / (20 - 3)
    rise = s2 * float(fisher.ppf(0.95, 1, 20 - 3))
    cov = np.linalg.inv(design.T @ design)
    for i in range(3):
        half = math.sqrt(cov[i, i] * rise)
        follow = cov[:, i] / cov[i, i]
        # The search starts 20% off the linearised end, so the secant and the refits work.
        walked = profile(residuals, fit.x, least, rise, lo, hi, i, follow, 1.2 * half, fit.jac)
        assert walked.low == pytest.approx(fit.x[i] - half, abs=0.01 * half)
        assert walked.high == pytest.approx(fit.x[i] + half, abs=0.01 * half)
        assert walked.better is None


def test_a_point_solved_is_not_solved_or_counted_again() -> None:
    from .test_calibrate import _shipped_problem

    problem = _shipped_problem(1, 10)
    first = problem.residuals(problem.start)
    again = problem.residuals(problem.start.copy())
    assert problem.budget.count == 1
    assert first.tobytes() == again.tobytes()
    moved = problem.start.copy()
    moved[0] = math.nextafter(moved[0], 0.0)  # one bit off: a point of its own
    problem.residuals(moved)
    assert problem.budget.count == 2


def test_an_intervals_scenario_at_a_point_is_the_one_validation_gives() -> None:
    """`Problem.scenario_at` replaces the unknowns' fields in the interval's scenario as
    validated once: at any point within the bounds it must equal validating the whole
    scenario there (the destage ratios, skew levels and front end of the shipped week)."""
    from diskmodel.catalog import load_catalog
    from diskmodel.measured.problem import Problem, system_unknowns, targets, workload_unknowns
    from diskmodel.scenario import Scenario

    from .test_calibrate import _shipped_week

    scenario, chosen = _shipped_week()
    central = scenario.corner("central")
    unknowns = [*workload_unknowns(scenario, chosen, [0, 1]), *system_unknowns(scenario, ())]
    catalog = load_catalog()
    problem = Problem(central, chosen, catalog, MEASURED_DIR, unknowns, targets(central, chosen))
    assert {u.key for u in unknowns} == {"destage_ratio", "skew.level", "front_end_latency_us"}
    rng = np.random.default_rng(5)
    for _ in range(10):
        x = problem.lo + rng.random(len(unknowns)) * (problem.hi - problem.lo)
        x[1] = problem.lo[1]  # a skew level at its bound of 1, as a profile walks to
        for s, sel in enumerate(chosen):
            made = problem.scenario_at(s, x, catalog)
            whole = Scenario.model_validate(problem.data_at(sel, x), context={"catalog": catalog})
            assert made == whole
            assert made.model_dump() == whole.model_dump()


def test_an_intervals_configuration_at_a_point_is_the_one_resolution_gives() -> None:
    """`Problem.config_at` resolves the system and the workloads again in the interval's
    configuration as resolved once (`configuration.resolve_again`), with each skew level's
    curve built once: at any point within the bounds it must equal resolving the interval's
    scenario there whole, and solve to the same figures, bit for bit."""
    from diskmodel.catalog import load_catalog
    from diskmodel.configuration import resolve
    from diskmodel.measured.figures import figure_value
    from diskmodel.measured.problem import Problem, system_unknowns, targets, workload_unknowns
    from diskmodel.model.operating import Solver

    from .test_calibrate import _shipped_week

    scenario, chosen = _shipped_week()
    central = scenario.corner("central")
    unknowns = [*workload_unknowns(scenario, chosen, [0, 1]), *system_unknowns(scenario, ())]
    catalog = load_catalog()
    figures = targets(central, chosen)
    problem = Problem(central, chosen, catalog, MEASURED_DIR, unknowns, figures)
    rng = np.random.default_rng(11)
    points = [problem.lo + rng.random(len(unknowns)) * (problem.hi - problem.lo) for _ in range(4)]
    points[1][1] = problem.lo[1]  # a skew level at its bound of 1, as a profile walks to
    points[2][3] = points[0][3]  # a level asked before: its curve is the one built then
    for x in points:
        for s in range(len(chosen)):
            made = problem.config_at(s, x, catalog)
            whole = resolve(problem.scenario_at(s, x, catalog), catalog, MEASURED_DIR, shown=False)
            assert made == whole
            ours, theirs = Solver(made).planned_point(), Solver(whole).planned_point()
            for t, w, figure, _ in figures:
                if t != s:
                    continue
                pool = central.workloads[w].pool
                assert figure_value(ours, w, pool, figure) == figure_value(theirs, w, pool, figure)
    assert len(problem._curves) < len(points) * 2  # the repeated level's curve built once


def test_a_workloads_response_figures_are_the_ones_the_prediction_reports() -> None:
    """`results.response_times_ms` (all a calibration's evaluation reads of a workload) gives
    each workload's mean, read and write response times exactly as `results.workloads` reports
    them: at a light load, and past a station's saturation and NVS's filling (None)."""
    from diskmodel.catalog import load_catalog
    from diskmodel.configuration import resolve
    from diskmodel.model import results
    from diskmodel.model.operating import Solver
    from diskmodel.scenario import load_scenario

    catalog = load_catalog()
    seen_unknown = False
    for name in ("ds8800-measured-peaks.yaml", "ds8800-15k-plus-2-ssd.yaml"):
        config = resolve(load_scenario(ROOT / "scenarios" / name), catalog, ROOT / "scenarios")
        solver = Solver(config)
        planned = solver.planned_rates()
        for scale in (0.2, 1.0, 4.0, 40.0):
            point = solver.open_point(planned * scale)
            for w, reported in enumerate(results.workloads(point)):
                wanted = (
                    reported.response_time_ms,
                    reported.read_response_time_ms,
                    reported.write_response_time_ms,
                )
                assert results.response_times_ms(point, w) == wanted
                seen_unknown |= None in wanted
    assert seen_unknown  # the loads reach a point with no steady state
