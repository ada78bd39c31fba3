"""Interval import (issue 13 item 1): spreadsheet quirks read, mistakes named by row and
column, peaks chosen as defined, and the output a scenario that validates with the numbers
measured."""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from typer.testing import CliRunner

from diskmodel.cli import app
from diskmodel.errors import ExitCode, InputError
from diskmodel.measured import load_intervals, parse_intervals, select, workloads_yaml
from diskmodel.measured.intervals import Interval, format_intervals
from diskmodel.measured.peaks import scenario_part
from tests.support.builders import BASE, with_data

from ..conftest import ROOT

WEEK = ROOT / "scenarios" / "measured" / "ds8800-week.csv"

QUIRKY = (
    "\ufeffTime , Scope,IO_Rate,Read_Fraction,Read_Hit_Ratio,Response_ms,Extra\n"
    '2026-11-02 14:00,oltp,"12,500",70%,0.45,1.9,x\n'
    "\n"
    "2026-11-02 14:15, oltp ,15200,0.68,0.44,2.4,y\n"
)


def test_spreadsheet_quirks_are_read() -> None:
    rows = parse_intervals(QUIRKY.removeprefix("\ufeff"), "q.csv")
    assert [r.io_rate for r in rows] == [12500.0, 15200.0]
    assert rows[0].read_fraction == pytest.approx(0.70)
    assert rows[1].scope == "oltp"
    assert rows[0].read_kib == 4.0  # the default when the column is absent
    assert rows[1].time == dt.datetime(2026, 11, 2, 14, 15)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "2026-11-02 14:30,oltp,abc,0.7,0.4,1",
            "q.csv: row 5, column io_rate: 'abc' is not a number",
        ),
        (
            "2026-11-02 14:30,oltp,100,70,0.4,1",
            "row 5, column read_fraction: 70 is above 1 (did you mean 0.7?)",
        ),
        (
            "14:30 on Monday,oltp,100,0.7,0.4,1",
            "row 5, column time: '14:30 on Monday' is not an ISO 8601",
        ),
        ("2026-11-02 14:30,oltp,,0.7,0.4,1", "row 5, column io_rate: empty"),
        ("2026-11-02 14:15,oltp,100,0.7,0.4,1", "scope 'oltp' appears twice at 2026-11-02 14:15"),
        ("2026-11-02 14:30,oltp,-5,0.7,0.4,1", "must be a number >= 0"),
    ],
)
def test_a_bad_cell_is_named_by_row_and_column(line: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_intervals(QUIRKY.removeprefix("\ufeff") + line + "\n", "q.csv")
    assert message in str(caught.value)


def test_a_missing_column_is_named() -> None:
    with pytest.raises(InputError, match="missing column\\(s\\) io_rate"):
        parse_intervals("time,read_fraction,read_hit_ratio\n2026-11-02,0.5,0.5\n", "q.csv")


def test_a_hit_ratio_not_measured_becomes_a_range_to_calibrate() -> None:
    rows = parse_intervals("time,io_rate,read_fraction\n2026-11-02 10:00,900,0.7\n", "q.csv")
    assert rows[0].read_hit_ratio is None
    part = scenario_part(select(rows, ["io"], "q.csv"), "p", 100.0)
    assert part["workloads"][0]["read_hit_ratio"] == [0.0, 0.95]


def test_peaks_are_the_intervals_they_name() -> None:
    rows = load_intervals(WEEK)
    chosen = select(rows, ["io", "mbs", "response"], str(WEEK))
    by_time: dict[dt.datetime, float] = {}
    mbs: dict[dt.datetime, float] = {}
    for r in rows:
        by_time[r.time] = by_time.get(r.time, 0.0) + r.io_rate
        mbs[r.time] = mbs.get(r.time, 0.0) + r.mb_s
    assert chosen[0].time == max(by_time, key=by_time.__getitem__)
    assert chosen[1].time == max(mbs, key=mbs.__getitem__)
    assert len({s.time for s in chosen}) == len(chosen)  # an interval asked twice is kept once
    assert chosen[0].time.hour in range(9, 17)  # the working-day peak
    assert chosen[1].time.hour in range(0, 4)  # the batch window


def test_the_output_is_a_scenario_with_the_numbers_measured() -> None:
    rows = load_intervals(WEEK)
    chosen = select(rows, ["io", "mbs"], str(WEEK))
    text = workloads_yaml(chosen, "p", 1000.0, str(WEEK))
    part = YAML(typ="safe", pure=True).load(text)
    assert part == scenario_part(chosen, "p", 1000.0)  # what is printed is what was built
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0]["ranks"][0]["count"] = 24  # room for the week's 38 TB
    data["workloads"] = part["workloads"]
    data["analyses"] = part["analyses"]
    scenario = with_data(data)
    measured = {r.scope: r for r in chosen[0].rows}
    for w in scenario.workloads:
        assert w.iops == pytest.approx(measured[w.name].io_rate, abs=1e-3)
        assert w.read_hit_ratio == pytest.approx(measured[w.name].read_hit_ratio, abs=1e-6)
    alternative = dict(scenario.alternatives())[chosen[1].label]
    later = {r.scope: r for r in chosen[1].rows}
    for w in alternative.workloads:
        assert w.iops == pytest.approx(later[w.name].io_rate, abs=1e-3)


def test_the_command_prints_yaml_and_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["import", str(WEEK), "-p", "io"])
    assert ok.exit_code == 0, ok.output
    assert "workloads:" in ok.stdout
    bad = tmp_path / "bad.csv"
    bad.write_text("time,io_rate,read_fraction,read_hit_ratio\n2026-11-02,x,0.5,0.5\n")
    refused = runner.invoke(app, ["import", str(bad)])
    assert refused.exit_code == ExitCode.INVALID_INPUT
    assert "row 2, column io_rate: 'x' is not a number" in refused.output
    assert "Traceback" not in refused.output
    missing = runner.invoke(app, ["import", str(tmp_path / "none.csv")])
    assert missing.exit_code == ExitCode.INVALID_INPUT
    assert "no such file" in missing.output


def test_calibrate_prints_the_fit_and_the_calibrated_scenario() -> None:
    runner = CliRunner()
    base = ROOT / "scenarios" / "measured" / "ds8800-measured-base.yaml"
    result = runner.invoke(
        app, ["calibrate", str(base), "--measured", str(WEEK), "-p", "io", "-p", "mbs"]
    )
    assert result.exit_code == 0, result.output
    assert "oltp.skew.level" in result.stderr
    assert "rms error" in result.stderr
    assert result.stdout.startswith("# diskmodel ")
    assert "schema_version: 1" in result.stdout
    assert "\ncalibration:\n" in result.stdout
    assert "Quality gate" in result.stderr


def test_calibrate_offers_exactly_the_fits_interval_methods_and_refuses_others() -> None:
    from diskmodel.cli import Intervals
    from diskmodel.measured.identify import INTERVALS

    assert tuple(m.value for m in Intervals) == INTERVALS
    base = ROOT / "scenarios" / "measured" / "ds8800-measured-base.yaml"
    refused = CliRunner().invoke(
        app, ["calibrate", str(base), "--measured", str(WEEK), "--intervals", "exact"]
    )
    assert refused.exit_code != 0
    assert "'exact' is not one of 'auto', 'profile', 'linear'" in refused.output
    assert "Traceback" not in refused.output


_VALUES = st.floats(0.0, 1e7, allow_nan=False, allow_infinity=False)
_FRACTIONS = st.floats(0.0, 1.0, allow_nan=False)
_SCOPES = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=80,  # a scope becomes a workload, whose name has at most 80 characters
).filter(lambda s: s.strip() == s and not s.startswith('"'))


@st.composite
def _intervals(draw: st.DrawFn) -> list[Interval]:
    scopes = draw(st.lists(_SCOPES, min_size=1, max_size=3, unique=True))
    times = draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=4, unique=True))
    out = []
    for t in times:
        for s in scopes:
            out.append(
                Interval(
                    dt.datetime(2026, 1, 1) + dt.timedelta(minutes=15 * t),
                    s,
                    draw(_VALUES),
                    draw(_FRACTIONS),
                    draw(_FRACTIONS),
                    draw(st.floats(0.5, 16384)),
                    draw(st.floats(0.5, 16384)),
                    draw(st.none() | st.floats(0.001, 1e4)),
                    draw(st.none() | st.floats(0.001, 1e7)),
                    rank_utilization=draw(st.none() | _FRACTIONS),
                    read_response_ms=draw(st.none() | st.floats(0.001, 1e4)),
                    write_response_ms=draw(st.none() | st.floats(0.001, 1e4)),
                    backend_iops=draw(st.none() | _VALUES),
                    da_utilization=draw(st.none() | _FRACTIONS),
                    host_port_utilization=draw(st.none() | _FRACTIONS),
                    read_sequential_fraction=draw(st.none() | _FRACTIONS),
                    write_sequential_fraction=draw(st.none() | _FRACTIONS),
                )
            )
    return out


@settings(max_examples=60, deadline=None)
@given(_intervals())
def test_the_importer_reads_its_own_export_back(rows: list[Interval]) -> None:
    assert parse_intervals(format_intervals(rows), "export.csv") == rows


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400) | st.binary(max_size=400).map(lambda b: b.decode("latin-1")))
def test_any_text_is_read_or_refused_in_one_clear_message(text: str) -> None:
    """Broken rows, odd characters, stray quotes: a list of intervals or one InputError."""
    header = "time,scope,io_rate,read_fraction,read_hit_ratio\n"
    for candidate in (text, header + text):
        assert _outcome(candidate).startswith("fuzz.csv")


def _outcome(text: str) -> str:
    """What parsing says: the source name alone when it reads, else its one message."""
    try:
        parse_intervals(text, "fuzz.csv")
    except InputError as exc:
        return str(exc)
    return "fuzz.csv"


def test_a_measured_rank_utilisation_is_read_as_a_fraction_and_written_back() -> None:
    text = (
        "time,scope,io_rate,read_fraction,response_ms,rank_utilization\n"
        "2026-11-02 10:00,oltp,9000,0.7,1.2,45%\n"
        "2026-11-02 10:15,oltp,9500,0.7,1.3,0.47\n"
        "2026-11-02 10:30,oltp,9600,0.7,1.3,\n"
    )
    rows = parse_intervals(text, "u.csv")
    assert [r.rank_utilization for r in rows] == [0.45, 0.47, None]
    assert parse_intervals(format_intervals(rows), "again.csv") == rows
    with pytest.raises(InputError, match="rank_utilization"):
        parse_intervals(text.replace("0.47", "1.7"), "bad.csv")


MORE = (
    "time,scope,io_rate,read_fraction,read_response_ms,write_response_ms,backend_iops,"
    "da_utilization,host_port_utilization\n"
    '2026-11-02 10:00,oltp,9000,0.7,1.9,0.21,"12,500",35%,0.12\n'
    "2026-11-02 10:15,oltp,9500,0.7,,,,,\n"
)


def test_the_other_measured_figures_are_read_with_their_units_and_written_back() -> None:
    """Read and write response times (ms), the back-end rate (disk operations per second,
    thousands separators allowed) and the DA and host-port utilisations (fractions, `%`
    allowed); an empty cell is not measured; the export gives them back."""
    rows = parse_intervals(MORE, "m.csv")
    first, second = rows
    assert (first.read_response_ms, first.write_response_ms) == (1.9, 0.21)
    assert first.backend_iops == 12500.0
    assert first.da_utilization == pytest.approx(0.35)
    assert first.host_port_utilization == 0.12
    assert (second.read_response_ms, second.backend_iops, second.da_utilization) == (
        None,
        None,
        None,
    )
    assert parse_intervals(format_intervals(rows), "again.csv") == rows


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("35%", "m.csv: row 3, column backend_iops: a percentage is only read for fractions"),
        ("fast", "m.csv: row 3, column backend_iops: 'fast' is not a number"),
    ],
)
def test_a_bad_back_end_rate_is_named_by_row_and_column(bad: str, message: str) -> None:
    text = MORE.replace(
        "2026-11-02 10:15,oltp,9500,0.7,,,,,", f"2026-11-02 10:15,oltp,9500,0.7,,,{bad},,"
    )
    with pytest.raises(InputError) as caught:
        parse_intervals(text, "m.csv")
    assert str(caught.value).startswith(message)


def test_a_utilisation_above_one_is_named() -> None:
    text = MORE.replace("35%", "85")
    with pytest.raises(InputError) as caught:
        parse_intervals(text, "m.csv")
    assert str(caught.value) == (
        "m.csv: row 2, column da_utilization: 85 is above 1 (did you mean 0.85?)"
    )
