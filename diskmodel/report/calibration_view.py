"""The report's calibration section: how well the calibrated model reproduces what was
measured, read from the calibration a scenario carries (`prediction.CalibrationResult`).

It says, in this order: the quality gate's verdict in one sentence (also on the first screen:
a sentence of the baseline's answer, and an alert when it failed); each finding of the gate
with its cause and remedy; a chart of every measured figure's relative error against the
gate's threshold; what was fitted, with its 95% interval, the range it was fitted within and
why a parameter is not identified; and every measured figure against the model, per
interval, with its residual. Plain records (`report.view`: CalibrationView, FindingView);
the template places them.
"""

from __future__ import annotations

import math
from typing import Literal

from markupsafe import Markup

from diskmodel.prediction import CalibrationResult
from diskmodel.report import bar_charts, display
from diskmodel.report.chart_svg import render
from diskmodel.report.view import (
    Alert,
    CalibrationView,
    Cell,
    Chart,
    FindingView,
    Level,
    Row,
    Table,
)


def verdict(c: CalibrationResult) -> str:
    """One sentence: fitted to what, and the gate's verdict with its figures."""
    rms = "n/a" if c.response_rms_error is None else display.percent(c.response_rms_error)
    worst = "" if c.worst_error is None else f", the worst {100 * c.worst_error:+.1f}% ({c.worst})"
    outcome = "passed" if c.passed else "failed"
    warnings = sum(1 for f in c.findings if not f.fails)
    noted = f", with {warnings} warning{'s' if warnings > 1 else ''}" if warnings else ""
    return (
        f"Calibrated against {c.measured} ({len(c.intervals)} interval"
        f"{'s' if len(c.intervals) > 1 else ''}): the model reproduces the measured response "
        f"times to {rms} rms{worst}; the quality gate (at most {display.percent(c.threshold, 0)}"
        f") {outcome}{noted}."
    )


def alert(c: CalibrationResult) -> Alert | None:
    """The first screen's alert when the calibration failed its gate, naming the first
    finding that fails it."""
    if c.passed:
        return None
    first = next(f for f in c.findings if f.fails)
    return Alert(
        "warning",
        "",
        f"this scenario's calibration against {c.measured} failed its quality gate: "
        f"{first.subject}: {first.cause} (the calibration section lists every finding and "
        "what to do).",
    )


def calibration_view(c: CalibrationResult) -> CalibrationView:
    """The calibration section (module docstring)."""
    findings = tuple(
        FindingView("critical" if f.fails else "warning", f.subject, f.cause, f.remedy)
        for f in c.findings
    )
    level: Level = "critical" if not c.passed else "warning" if findings else "ok"
    return CalibrationView(
        summary=verdict(c),
        level=level,
        findings=findings,
        chart=_chart(c),
        tables=(_fitted_table(c), _figures_table(c)),
    )


def _chart(c: CalibrationResult) -> Chart:
    series = list(dict.fromkeys(f"{f.scope} {f.label}" for f in c.figures))
    errors = []
    for interval in c.intervals:
        row: list[float | None] = [None] * len(series)
        for f in c.figures:
            if f.interval == interval:
                row[series.index(f"{f.scope} {f.label}")] = math.inf if f.error is None else f.error
        errors.append(row)
    svg = render(
        "chart-calibration", bar_charts.residual_chart(c.intervals, series, errors, c.threshold)
    )
    return Chart(
        "chart-calibration",
        "Model against measurement",
        "Each measured figure of each interval fitted: how far the calibrated model is from "
        f"it (model / measured - 1). The dashed lines are the quality gate's threshold of "
        f"{display.percent(c.threshold, 0)}, which the rms of the response-time errors must "
        "stay within.",
        Markup(svg),  # drawn by charts.py from escaped text only
    )


def _value(value: float) -> str:
    return f"{value:.4g}"


def _fitted_table(c: CalibrationResult) -> Table:
    rows = []
    for p in c.fitted:
        interval = (
            f"{_value(p.low)} to {_value(p.high)}"
            if p.identified and p.low is not None and p.high is not None
            else "not identified"
        )
        notes = []
        if not p.identified:
            notes.append(f"{p.why}; left as written")
        if p.kind == "catalog" and p.initial is not None:
            notes.append(f"catalog estimate {_value(p.initial)} before calibration")
        if p.now is not None:
            notes.append(
                f"the scenario now gives {_value(p.now)}: the figures below are the fitted "
                "value's, not this scenario's"
            )
        rows.append(
            Row(
                p.name,
                (
                    Cell(_value(p.value) if p.identified else f"({_value(p.value)})", "num"),
                    Cell(interval, "num", "" if p.identified else "warning"),
                    Cell(f"{_value(p.bounds[0])} to {_value(p.bounds[1])}", "num"),
                    Cell("; ".join(notes)),
                ),
            )
        )
    return Table(
        "table-calibration-fitted",
        "What the calibration fitted",
        ("parameter", "fitted", "95% interval", "fitted within", "note"),
        tuple(rows),
        note="A parameter not identified is left as the scenario wrote it (the fit's value in "
        "parentheses). The fitted values are in the scenario (a catalog estimate in the "
        "catalog file it names).",
    )


def _figures_table(c: CalibrationResult) -> Table:
    rows: list[Row] = []
    for interval in c.intervals:
        rows.append(Row(interval, (), group=True))
        for f in (f for f in c.figures if f.interval == interval):
            unit = f" {f.unit}" if f.unit else ""
            level: Literal["", "warning", "critical"] = ""
            if f.error is None or (f.gated and abs(f.error) > 2 * c.threshold):
                level = "critical"
            elif abs(f.error) > c.threshold:
                level = "warning"
            rows.append(
                Row(
                    f"{f.scope}: {f.label}",
                    (
                        Cell(f"{f.measured:.3g}{unit}", "num"),
                        Cell("saturated" if f.model is None else f"{f.model:.3g}{unit}", "num"),
                        Cell(
                            "n/a" if f.error is None else f"{100 * f.error:+.1f}%",
                            "num",
                            level,
                        ),
                    ),
                )
            )
    rms = "n/a" if c.rms_error is None else display.percent(c.rms_error)
    return Table(
        "table-calibration-figures",
        "Measured against the calibrated model, per interval",
        ("measured figure", "measured", "model", "model − measured"),
        tuple(rows),
        note=f"rms error over every figure {rms}, after {c.evaluations:,} model evaluations.",
        detail=True,  # every figure: on screen, and printed with the appendix
    )
