"""A calibrated scenario's report (issue 27 item 5): the first screen says how well it was
calibrated and warns when the gate failed; its calibration section shows the gate's findings,
measured against model per interval as a chart and a table with the residuals, and what was
fitted with its interval; the terminal summary and the JSON carry it too."""

from __future__ import annotations

import dataclasses
import json
import re

from diskmodel.report.html import build_report, render_html
from diskmodel.report.json_result import to_json
from diskmodel.report.result_schema import result_json_schema
from diskmodel.report.table import Output
from diskmodel.report.text import render
from tests.report import report_fixtures

from ..scenario.json_schema_subset import errors


def test_the_first_screen_says_how_well_it_was_calibrated_and_that_the_gate_failed() -> None:
    report = build_report(report_fixtures.calibrated())
    verdict = report.answers[0].sentences[-1]
    assert verdict.startswith("Calibrated against week.csv (2 intervals): the model reproduces")
    assert "37.0% rms" in verdict
    assert "the worst +24.0% (I/O peak 2026-11-02 14:30, batch)" in verdict
    assert "failed, with 1 warning" in verdict
    assert all("Calibrated" not in s for s in report.answers[1].sentences)  # the baseline's
    (alert,) = [a for a in report.alerts if "quality gate" in a.text]
    assert alert.level == "warning"
    assert "fit: the model does not reproduce the measured response times" in alert.text


def test_the_section_shows_findings_the_chart_and_both_tables() -> None:
    report = build_report(report_fixtures.calibrated())
    section = report.calibration
    assert section is not None
    assert section.level == "critical"
    assert [(f.level, f.subject) for f in section.findings] == [
        ("critical", "fit"),
        ("warning", "batch.skew.level"),
    ]
    assert section.findings[0].remedy == "add the sequential fractions of batch"
    fitted, figures = section.tables
    rows = {r.header: [c.text for c in r.cells] for r in fitted.rows}
    assert rows["oltp.destage_ratio"][:3] == ["0.55", "0.5 to 0.6", "0.05 to 1"]
    assert "the scenario now gives 0.7" in rows["oltp.destage_ratio"][3]
    assert rows["batch.skew.level"][:2] == ["(4.2)", "not identified"]
    assert rows["ds8800-951.device_adapter.per_op_us"][3] == (
        "catalog estimate 20 before calibration"
    )
    groups = [r.header for r in figures.rows if r.group]
    assert groups == ["I/O peak 2026-11-02 14:30", "MB/s peak 2026-11-03 03:00"]
    cells = [(r.header, [(c.text, c.level) for c in r.cells]) for r in figures.rows if not r.group]
    assert cells[1] == (
        "batch: response",
        [("0.5 ms", ""), ("0.62 ms", ""), ("+24.0%", "critical")],
    )
    assert cells[4] == ("batch: response", [("0.5 ms", ""), ("saturated", ""), ("n/a", "critical")])
    assert cells[2][1][2] == ("-3.0%", "")  # a utilisation within the threshold
    assert figures.detail  # every figure: printed with the appendix
    svg = str(section.chart.svg)
    assert svg.count("stroke-dasharray") >= 2  # the threshold either side
    for text in ("+24.0%", "saturated", "I/O peak 2026-11-02 14:30", "oltp response"):
        assert text in svg


def test_a_report_without_a_calibration_has_no_section() -> None:
    prediction = report_fixtures.open_comparison()
    assert build_report(prediction).calibration is None
    assert 'id="calibration"' not in render_html(prediction, timestamp=False)
    page = render_html(report_fixtures.calibrated(), timestamp=False)
    assert page.count('<section id="calibration"') == 1
    assert '<a href="#calibration">' in page


def test_a_passed_calibration_raises_no_alert() -> None:
    prediction = report_fixtures.calibrated()
    assert prediction.calibration is not None
    passed = dataclasses.replace(prediction.calibration, passed=True, findings=())
    report = build_report(dataclasses.replace(prediction, calibration=passed))
    assert not [a for a in report.alerts if "quality gate" in a.text]
    assert report.calibration is not None
    assert report.calibration.level == "ok"
    assert report.answers[0].sentences[-1].endswith("passed.")


def test_the_terminal_summary_gives_the_verdict_and_the_first_failing_finding() -> None:
    text = render(report_fixtures.calibrated(), Output(terminal=False, width=100))
    flat = re.sub(r"\s+", " ", text)
    assert "Calibrated against week.csv (2 intervals)" in flat
    assert "First: fit: the model does not reproduce the measured response times; remedy: " in flat


def test_the_json_carries_the_calibration_and_validates() -> None:
    data = json.loads(to_json(report_fixtures.calibrated()))
    calibration = data["calibration"]
    assert calibration["passed"] is False
    assert calibration["fitted"][0]["now"] == 0.7
    assert calibration["figures"][4]["model"] is None
    assert calibration["figures"][4]["error"] is None
    assert [f["gated"] for f in calibration["figures"][:3]] == [True, True, False]
    assert errors(result_json_schema(), data) == []
    assert json.loads(to_json(report_fixtures.open_comparison()))["calibration"] is None
