"""Calibration under the work bound of `run` (issue 33 item 1): estimated before any model is
solved and refused above `MAX_WORK_S` with a message naming what to lower; otherwise its
evaluations are counted and held to what the bound buys, a profile cut short saying so."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import functools
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import diskmodel.measured.calibrate as calibrate_module
import diskmodel.measured.problem as problem_module
from diskmodel.analyses.budget import MAX_WORK_S, planned_point_s, startup_s
from diskmodel.catalog import load_catalog
from diskmodel.cli import app
from diskmodel.errors import ExitCode, InputError
from diskmodel.measured import budget as budget_module
from diskmodel.measured.budget import (
    FIT_STEPS,
    Evaluations,
    WorkBoundError,
    calibration_budget,
)
from diskmodel.measured.calibrate import calibrate
from diskmodel.measured.identify import CUT_SHORT, INTERVALS
from diskmodel.measured.intervals import Interval, format_intervals
from diskmodel.measured.peaks import Selection
from diskmodel.measured.search import start_evaluations
from diskmodel.scenario import Scenario
from tests.support.budget import fuzz_settings

from ..conftest import ROOT

EXAMPLE = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"


def _pool_of(workloads: int, tiers: int = 3) -> dict[str, Any]:
    """`workloads` OLTP workloads sharing one Easy Tier pool of `tiers` tiers (the shape whose
    calibration ran past 135 s of CPU: 16 workloads, a `run` estimate of 7 s; since placement
    costs in proportion to the workloads, not their square, the refused shape is 48)."""
    ranks = [
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 2},
        {"drive": "15k-300", "raid": "raid5-7+p", "count": 16},
        {"drive": "nl-3tb", "raid": "raid6-5+p+q+s", "count": 4},
    ][:tiers]
    return {
        "schema_version": 1,
        "name": f"{workloads} workloads",
        "system": {
            "model": "ds8800-951",
            "processor_ways": 4,
            "cache_gb": 256,
            "host_ports": 16,
            "da_pairs": 4,
        },
        "pools": [{"name": "p0", "easy_tier": "auto", "ranks": ranks}],
        "workloads": [
            {
                "name": f"w{w}",
                "pool": "p0",
                "iops": 1000 + 100 * w,
                "read_fraction": 0.7,
                "read_hit_ratio": 0.4,
                "read_size_kib": 8,
                "write_size_kib": 8,
                "capacity_gb": 20000 // workloads,
                "skew": {"level": "intermediate"},
            }
            for w in range(workloads)
        ],
    }


def _intervals(scenario: Scenario, count: int) -> list[Selection]:
    """`count` intervals, every workload measured at each (a response time each)."""
    out = []
    for k in range(count):
        t = dt.datetime(2026, 11, 2, 10) + dt.timedelta(minutes=15 * k)
        rows = tuple(
            Interval(t, w.name, 1000.0 * (1 + 0.3 * k), 0.7, 0.4, 8, 8, 2.0 + 0.3 * k, 1000)
            for w in scenario.workloads
        )
        out.append(Selection("io", t, rows))
    return out


def _validated(data: dict[str, Any]) -> Scenario:
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


@functools.cache
def _shape(workloads: int, tiers: int) -> Scenario:
    return _validated(_pool_of(workloads, tiers))


def test_forty_eight_workloads_are_refused_before_any_model_is_solved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario = _validated(_pool_of(48))

    def no_model(*_: object, **__: object) -> None:
        raise AssertionError("a model was solved before the estimate refused the calibration")

    monkeypatch.setattr(problem_module, "Solver", no_model)
    with pytest.raises(InputError) as refused:
        calibrate(scenario, _intervals(scenario, 2))
    message = str(refused.value)
    assert message.startswith("calibrate: fitting 96 parameters to 96 measured figures over 2")
    assert f"diskmodel runs at most about {MAX_WORK_S:.0f} s" in message
    for what in ("--peak", "workloads measured", "ranges given to fit", "Easy Tier pool"):
        assert what in message


def test_the_estimate_is_the_least_a_calibration_needs_at_the_cost_of_run() -> None:
    """Refused exactly when the start, a fit of FIT_STEPS steps, the checks and the last
    evaluation, at `intervals` planned points each, pass MAX_WORK_S; the evaluations allowed
    are what MAX_WORK_S buys at that cost, never fewer than that least."""
    catalog = load_catalog()
    for workloads in (1, 4, 8, 16):
        scenario = _validated(_pool_of(workloads))
        p = 2 * workloads
        start = start_evaluations(workloads, 0)
        each = 2 * planned_point_s(scenario, catalog)
        least = start + FIT_STEPS * (p + 1) + 2 * p + 1
        args = {"intervals": 2, "parameters": p, "figures": 2 * workloads, "start": start}
        if startup_s(scenario) + least * each > MAX_WORK_S:
            with pytest.raises(InputError, match="needs at least about"):
                calibration_budget(scenario, catalog, checks=2 * p, **args)
        else:
            allowed = calibration_budget(scenario, catalog, checks=2 * p, **args)
            assert allowed.limit >= least
            assert startup_s(scenario) + allowed.limit * each <= MAX_WORK_S + each


def _example(front_end: bool) -> Scenario:
    from diskmodel.api import load_scenario

    data = load_scenario(EXAMPLE).model_dump(mode="python", exclude_none=True)
    data["analyses"] = {}
    if front_end:
        data["system"]["front_end_latency_us"] = [50.0, 500.0]
    data["workloads"][0].update(destage_ratio=1.0, skew={"level": 3.0})
    return _validated(data)


def _example_intervals() -> list[Selection]:
    out = []
    for k, (iops, rt) in enumerate(((6000, 0.9), (20000, 1.3), (40000, 2.4), (50000, 3.9))):
        t = dt.datetime(2026, 11, 2, 10, k)
        row = Interval(t, "oltp", iops, 0.7, 0.4, 8, 8, rt, 30000, write_response_ms=0.3)
        out.append(Selection("io", t, (row,)))
    return out


def test_a_calibration_is_held_to_the_evaluations_the_bound_allows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the bound lowered to a little more than the least the calibration needs, it ends
    within it: the fit and every check or profile stop at the count, a parameter whose
    interval was not checked says so, and nothing is raised."""
    allowed: list[Evaluations] = []

    def tight(scenario: Scenario, catalog: Any, **sizes: int) -> Evaluations:
        least = sizes["start"] + FIT_STEPS * (sizes["parameters"] + 1) + sizes["checks"] + 1
        allowed.append(Evaluations(limit=least + 3))
        return allowed[-1]

    monkeypatch.setattr(calibrate_module, "calibration_budget", tight)
    fit = calibrate(_example(front_end=True), _example_intervals(), intervals="profile")
    assert fit.evaluations <= allowed[0].limit
    assert fit.evaluations == allowed[0].count
    cut = [p for p in fit.parameters if p.why == CUT_SHORT]
    assert cut, [p.why for p in fit.parameters]
    assert all(p.low is None and not p.identified for p in cut)
    assert all(r.model is None or r.model > 0 for r in fit.residuals)


def test_a_fit_stopped_by_the_bound_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The least squares given fewer steps than it needs stops where it is, and the result
    says why (before, a fit stopped at scipy's limit said nothing)."""

    def two_steps(scenario: Scenario, catalog: Any, **sizes: int) -> Evaluations:
        p = sizes["parameters"]
        return Evaluations(limit=sizes["start"] + 2 * (p + 1) + sizes["checks"] + 1)

    monkeypatch.setattr(calibrate_module, "calibration_budget", two_steps)
    fit = calibrate(_example(front_end=True), _example_intervals(), intervals="linear")
    assert fit.stopped.startswith("the fit stopped after 2 steps")
    assert "work bound" in fit.stopped


def test_calibrate_refuses_on_the_command_line_in_one_message(tmp_path: Path) -> None:
    from ruamel.yaml import YAML

    scenario = _validated(_pool_of(48))
    yaml = YAML(typ="safe", pure=True)
    with (tmp_path / "s.yaml").open("w", encoding="utf-8") as handle:
        yaml.dump(_pool_of(48), handle)
    rows = [r for sel in _intervals(scenario, 2) for r in sel.rows]
    (tmp_path / "m.csv").write_text(format_intervals(rows), encoding="utf-8")
    result = CliRunner().invoke(
        app,
        [
            "calibrate",
            str(tmp_path / "s.yaml"),
            "--measured",
            str(tmp_path / "m.csv"),
            "-p",
            "2026-11-02 10:00",
            "-p",
            "2026-11-02 10:15",
        ],
    )
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert result.output.startswith("diskmodel: calibrate: fitting 96 parameters")
    assert result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_evaluations_are_counted_and_the_reserve_kept_for_the_end() -> None:
    count = Evaluations(limit=5)
    for _ in range(4):
        count.spend()
    with pytest.raises(WorkBoundError):
        count.spend()
    count.last()
    count.spend()
    assert count.count == 5
    with pytest.raises(WorkBoundError):
        count.spend()
    assert Evaluations(limit=1000).steps(4, after=8) == min(400, (1000 - 1 - 8) // 5)
    assert Evaluations(limit=10).steps(4, after=8) == 0


@pytest.mark.fuzz
@fuzz_settings(100)
@given(
    workloads=st.integers(1, 24),
    tiers=st.integers(2, 3),
    intervals=st.integers(1, 12),
    extra=st.integers(0, 3),
    mode=st.sampled_from(INTERVALS),
)
def test_any_calibration_shape_is_refused_up_front_or_bounded(
    workloads: int, tiers: int, intervals: int, extra: int, mode: str
) -> None:
    """Every shape: either refused, naming what to lower, or given at most what MAX_WORK_S
    buys at the cost of run's estimate, and at least the least it needs."""
    catalog = load_catalog()
    scenario = _shape(workloads, tiers)
    p = 2 * workloads + extra
    checks = 2 * p if mode == "auto" else 0
    start = start_evaluations(workloads, 0)
    sizes = {"intervals": intervals, "parameters": p, "figures": intervals * workloads}
    each = intervals * planned_point_s(scenario, catalog)
    least = start + FIT_STEPS * (p + 1) + checks + 1
    if startup_s(scenario) + least * each > MAX_WORK_S:
        with pytest.raises(InputError, match=r"Lower the intervals chosen \(--peak\)"):
            calibration_budget(scenario, catalog, start=start, checks=checks, **sizes)
        return
    allowed = calibration_budget(scenario, catalog, start=start, checks=checks, **sizes)
    assert allowed.limit >= least
    assert startup_s(scenario) + allowed.limit * each <= MAX_WORK_S + each
    assert allowed.steps(p, after=checks) >= FIT_STEPS
    # The bound is the same one `run` uses.
    assert budget_module.MAX_WORK_S == MAX_WORK_S


MEASURED = st.floats(1e-3, 1e4).map(lambda v: float(f"{v:.4g}")) | st.sampled_from(
    [2.2e-311, 1e-300, 1e300]
)


@st.composite
def measured_intervals(draw: st.DrawFn) -> list[Selection]:
    """1 to 4 intervals of the builders' one-workload pool at drawn loads (some past its
    saturation), mixes and measured figures (some absent, some absurd)."""
    out = []
    for k in range(draw(st.integers(1, 4))):
        t = dt.datetime(2026, 11, 2, 10) + dt.timedelta(minutes=15 * k)
        row = Interval(
            t,
            "oltp",
            draw(
                st.sampled_from([0.0, 5e-324, 1e-3, 100.0, 3000.0, 1e5, 1e12]) | st.floats(0, 2e4)
            ),
            draw(st.floats(0, 1)),
            draw(st.none() | st.floats(0, 1)),
            draw(st.sampled_from([0.5, 4.0, 64.0, 1024.0])),
            draw(st.sampled_from([0.5, 4.0, 64.0, 1024.0])),
            draw(st.none() | MEASURED),
            None,
            rank_utilization=draw(st.none() | st.floats(0, 1)),
            write_response_ms=draw(st.none() | MEASURED),
        )
        out.append(Selection("io", t, (row,)))
    return out


@pytest.mark.fuzz
@fuzz_settings(8)
@given(selections=measured_intervals(), mode=st.sampled_from(["linear", "auto"]))
def test_any_measured_intervals_calibrate_within_the_bound_or_are_one_message(
    selections: list[Selection], mode: str
) -> None:
    """End to end on a small pool: a calibration whose every parameter lies in its bounds,
    with its evaluations within what the bound allowed, or one `InputError`."""
    allowed: list[Evaluations] = []
    original = calibrate_module.calibration_budget

    def recorded(*args: Any, **kwargs: Any) -> Evaluations:
        allowed.append(original(*args, **kwargs))
        return allowed[-1]

    calibrate_module.calibration_budget = recorded  # type: ignore[assignment]
    try:
        outcome = _fitted_or_refusal(_small_pool(), selections, mode)
    finally:
        calibrate_module.calibration_budget = original  # type: ignore[assignment]
    if isinstance(outcome, str):
        assert "\n" not in outcome
        return
    assert outcome.evaluations <= allowed[0].limit
    for p in outcome.parameters:
        assert math.isfinite(p.value)
        if p.identified:
            assert p.low is not None
            assert p.high is not None
            assert p.low <= p.value <= p.high
    for r in outcome.residuals:
        assert r.model is None or (math.isfinite(r.model) and r.model >= 0)


@functools.cache
def _small_pool() -> Scenario:
    from tests.support.builders import BASE

    data = copy.deepcopy(BASE)
    data["workloads"][0].update(skew={"level": 4.0}, destage_ratio=1.0)
    return _validated(data)


def _fitted_or_refusal(scenario: Scenario, selections: list[Selection], mode: str) -> Any:
    try:
        return calibrate(scenario, selections, intervals=mode)
    except InputError as exc:
        return str(exc)


def _one(t: int, **figures: Any) -> Selection:
    when = dt.datetime(2026, 11, 2, 10, t)
    base = {"io_rate": 3000.0, "response_ms": None}
    base.update(figures)
    io_rate, response = base.pop("io_rate"), base.pop("response_ms")
    row = Interval(when, "oltp", io_rate, 0.7, 0.5, 4, 4, response, None, **base)
    return Selection("io", when, (row,))


def test_found_by_fuzzing_a_vanishing_measured_figure_is_not_fitted() -> None:
    """A figure of 2.2e-311 made the relative residual overflow (RuntimeWarning, an error in
    the suite): below LEAST_MEASURED a figure is treated as not measured."""
    fit = calibrate(
        _small_pool(),
        [_one(0, response_ms=2.0, rank_utilization=2.2e-311), _one(1, response_ms=2.5)],
        intervals="linear",
    )
    assert {r.figure for r in fit.residuals} == {"response_ms"}
    with pytest.raises(InputError, match="needs measured response times"):
        calibrate(_small_pool(), [_one(0, response_ms=2.2e-311)], intervals="linear")


def test_found_by_fuzzing_a_load_the_scenario_refuses_names_the_interval() -> None:
    """An interval's rate of 1e12 I/O/s ended the fit in a pydantic traceback; it is now one
    message naming the interval, before any model is solved."""
    refused = r"I/O peak 2026-11-02 10:00: .* validate: workloads\.0\.iops: Input should be"
    with pytest.raises(InputError, match=refused):
        calibrate(_small_pool(), [_one(0, io_rate=1e12, response_ms=2.0)])


def test_found_by_fuzzing_data_that_see_no_parameter_give_no_warning() -> None:
    """Every Jacobian column 0 (a write-only scope at 0.001 I/O/s, measured by its write
    response): the covariance's floor underflowed and 1 / floor^2 warned."""
    row = Interval(dt.datetime(2026, 11, 2, 10), "oltp", 1e-3, 0.0, None, 0.5, 0.5, None, None)
    row = dataclasses.replace(row, write_response_ms=1.0)
    fit = calibrate(_small_pool(), [Selection("io", row.time, (row,))], intervals="linear")
    assert all(not p.identified for p in fit.parameters)
