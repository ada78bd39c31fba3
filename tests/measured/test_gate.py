"""The quality gate of a calibration (issue 27 item 4): the rms and worst-interval errors of
the response times against a threshold, parameters not identified, fits on a stated range's
edge and fits stopped short, each a finding with its likely cause and remedy; --strict exits
5 when it fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from diskmodel.cli import app
from diskmodel.errors import ExitCode
from diskmodel.measured.figures import Residual
from diskmodel.measured.gate import MISSES_FIRST, Suggestion, judge
from diskmodel.measured.identify import Parameter

from ..conftest import ROOT


def _responses(*errors: tuple[str, str, float | None]) -> list[Residual]:
    return [
        Residual(interval, scope, 1.0, None if e is None else 1.0 + e)
        for interval, scope, e in errors
    ]


GOOD = _responses(("a", "oltp", 0.02), ("b", "oltp", -0.03), ("c", "oltp", 0.01))
IDENTIFIED = Parameter("oltp", "destage_ratio", 0.5, 0.45, 0.55, True, bounds=(0.05, 1.0))


def test_a_good_fit_passes_and_reports_its_errors() -> None:
    gate = judge(0.10, [IDENTIFIED], GOOD, "")
    assert gate.passed
    assert gate.findings == ()
    assert gate.response_rms_error == pytest.approx((0.02**2 + 0.03**2 + 0.01**2) ** 0.5 / 3**0.5)
    assert gate.worst_error == pytest.approx(-0.03)
    assert gate.worst == "b, oltp"


def test_an_rms_above_the_threshold_fails_and_names_where_and_why() -> None:
    residuals = _responses(("a", "batch", 0.5), ("b", "batch", 0.6), ("a", "oltp", 0.01))
    suggestion = Suggestion("ds8800-951.device_adapter.per_op_us", "DA cost", 20, 10, 40, 0.02)
    gate = judge(0.10, [IDENTIFIED], residuals, "", ["batch"], [suggestion])
    assert not gate.passed
    (error,) = gate.findings  # the destage ratio is identified: no finding of its own
    assert error.subject == "fit"
    assert "the errors gather on batch (its response off by +55% on average)" in error.cause
    assert error.remedy.startswith("add the sequential fractions of batch")
    assert "--fit ds8800-951.device_adapter.per_op_us" in error.remedy


def test_an_identified_parameter_on_a_natural_bound_is_no_finding() -> None:
    every_write = Parameter(
        "batch", "destage_ratio", 1.0, 0.8, 1.0, True, bounds=(0.05, 1.0), natural=(False, True)
    )
    assert judge(0.10, [every_write], GOOD, "").findings == ()


def test_a_fit_on_the_edge_of_a_stated_range_fails() -> None:
    front = Parameter(
        "system",
        "front_end_latency_us",
        50.0,
        50.0,
        60.0,
        True,
        bounds=(50.0, 500.0),
        kind="system",
    )
    gate = judge(0.10, [front], GOOD, "")
    (edge,) = gate.findings
    assert not gate.passed
    assert "sits on the low end of its range (50, range 50 to 500)" in edge.cause


def test_the_worst_interval_past_twice_the_threshold_fails_alone() -> None:
    residuals = GOOD * 8 + _responses(("backup", "oltp", 0.25))  # rms 8.6%, worst 25%
    gate = judge(0.10, [IDENTIFIED], residuals, "")
    (worst,) = gate.findings
    assert gate.response_rms_error is not None
    assert gate.response_rms_error < 0.10
    assert worst.subject == "backup, oltp"
    assert "leave it out (--peak)" in worst.remedy


def test_parameters_not_identified_fail_with_what_would_see_them() -> None:
    wide = Parameter("oltp", "destage_ratio", 0.5, None, None, False, "wide", "wide")
    twin = Parameter(
        "oltp", "skew.level", 8.0, None, None, False, "flat", "flat", partner="oltp.destage_ratio"
    )
    unseen = Parameter("batch", "skew.level", 3.0, None, None, False, "no", "unseen")
    gate = judge(0.10, [wide, twin, unseen], GOOD, "")
    by_subject = {f.subject: f for f in gate.findings}
    assert not gate.passed
    assert by_subject["oltp.destage_ratio"].fails
    assert "rank_utilization" in by_subject["oltp.destage_ratio"].remedy
    assert "apart from oltp.destage_ratio" in by_subject["oltp.skew.level"].remedy
    assert not by_subject["batch.skew.level"].fails  # no figure depends on it: a warning
    with_utilisation = [*GOOD, Residual("a", "pool0", 0.1, 0.1, "rank_utilization")]
    again = judge(0.10, [wide], with_utilisation, "")
    assert again.findings[0].remedy == "add more intervals, at different loads"  # measured


def test_while_the_model_misses_the_data_a_parameter_s_remedy_is_to_fix_that_first() -> None:
    wide = Parameter("oltp", "destage_ratio", 0.5, None, None, False, "wide", "wide")
    gate = judge(0.10, [wide], _responses(("a", "oltp", 0.4), ("b", "oltp", 0.5)), "")
    (destage,) = [f for f in gate.findings if f.subject == "oltp.destage_ratio"]
    assert destage.remedy == MISSES_FIRST


def test_a_saturated_figure_and_a_fit_stopped_short_fail() -> None:
    gate = judge(0.10, [IDENTIFIED], [*GOOD, *_responses(("d", "oltp", None))], "stopped")
    subjects = [(f.subject, f.fails) for f in gate.findings]
    assert ("fit", True) in subjects
    assert any("saturates at 1 measured response time" in f.cause for f in gate.findings)
    assert any(f.cause == "stopped" for f in gate.findings)


def test_too_few_figures_for_the_parameters_is_said_first() -> None:
    wide = Parameter("oltp", "destage_ratio", 0.5, None, None, False, "wide", "wide")
    gate = judge(0.10, [wide, IDENTIFIED], GOOD[:3], "")
    assert gate.findings[0].cause == "3 measured figures for 2 parameters: too few to pin them"


def test_a_parameter_no_figure_sees_is_not_counted_among_those_fitted() -> None:
    """It is held as written, not fitted (`diskmodel.measured.held`), and no number of figures
    would pin it."""
    wide = Parameter("oltp", "destage_ratio", 0.5, None, None, False, "wide", "wide")
    unseen = Parameter("batch", "skew.level", 1.0, None, None, False, "unseen", "unseen")
    gate = judge(0.10, [wide, IDENTIFIED, unseen], GOOD[:3], "")
    assert gate.findings[0].cause == "3 measured figures for 2 parameters: too few to pin them"


def test_calibrate_strict_exits_5_on_a_failed_gate_and_writes_the_file(tmp_path: Path) -> None:
    """One interval: 3 figures for 4 parameters fitted (a fifth, the batch's skew level, no
    figure sees: it is held as written), which the fit passes through exactly (its intervals
    were of width 0 before: the parameters no figure sees had no variance). The
    file is written with the failed verdict in its record; without --strict the exit is 0."""
    base = ROOT / "scenarios" / "measured" / "ds8800-measured-base.yaml"
    week = ROOT / "scenarios" / "measured" / "ds8800-week.csv"
    args = ["calibrate", str(base), "--measured", str(week), "-p", "io"]
    out = tmp_path / "cal.yaml"
    strict = CliRunner().invoke(app, [*args, "--out", str(out), "--strict"])
    assert strict.exit_code == ExitCode.CALIBRATION_FAILED == 5, strict.output
    assert "Quality gate FAILED" in strict.stderr
    assert "too few to pin them" in strict.stderr
    assert "3 measured figures for 4 parameters: nothing is left to judge the noise by" in (
        strict.stderr
    )
    text = out.read_text(encoding="utf-8")
    assert "(quality gate FAILED)" in text.splitlines()[0]
    assert "\n    passed: false\n" in text
    lenient = CliRunner().invoke(app, [*args, "--out", str(out)])  # replaces its own file
    assert lenient.exit_code == 0, lenient.output


def test_a_parameter_not_identified_on_an_edge_says_not_identified_first() -> None:
    """From response times alone the shipped week's batch destage ratio ran to the floor of
    0.05 and its profile was cut short: not pinned, which is what to fix first."""
    floor = Parameter(
        "batch", "destage_ratio", 0.05, None, None, False, "ran to its bound", "bound",
        bounds=(0.05, 1.0), natural=(False, True),
    )  # fmt: skip
    (finding,) = judge(0.10, [floor], GOOD, "").findings
    assert finding.cause == "not identified: ran to its bound"
    assert finding.remedy.startswith("add more intervals, at different loads")
    assert "rank_utilization" in finding.remedy
    assert finding.remedy.endswith("the range is too narrow or another figure is wrong")
