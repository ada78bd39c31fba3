"""Interval CSVs as hostile input (issue 33 item 5): mixed naive and offset timestamps, cells
past the csv module's limit and files of millions of rows end in one message naming the file
and the row, and a file too long is refused before any row is parsed. The fuzz test builds
files from rows of every kind (timestamps, cell sizes, row counts) and checks that each is read
consistently or refused in one message."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import diskmodel.measured.intervals as intervals_module
from diskmodel.cli import app
from diskmodel.errors import ExitCode, InputError
from diskmodel.measured import parse_intervals, select, workloads_yaml
from diskmodel.measured.intervals import MAX_ROWS, MAX_SCOPE_CHARS
from diskmodel.measured.peaks import MAX_SCOPES
from diskmodel.scenario.schema import Scenario
from diskmodel.scenario.values import MAX_NAME_CHARS
from tests.support.budget import fuzz_settings

HEADER = "time,scope,io_rate,read_fraction\n"
runner = CliRunner()


def test_naive_and_offset_times_mixed_are_one_message() -> None:
    """Found: a file mixing `2026-11-02 14:00` and `2026-11-02T15:00+01:00` crashed `import`
    (a naive and an aware time cannot be compared); which row breaks the pattern is named."""
    text = HEADER + "2026-11-02 14:00,a,100,0.5\n2026-11-02T15:00+01:00,a,100,0.5\n"
    with pytest.raises(InputError) as refused:
        parse_intervals(text, "m.csv")
    assert str(refused.value) == (
        "m.csv: row 3, column time: 2026-11-02 15:00:00+01:00 has a UTC offset, but row 2's "
        "time has none; give every time with its offset (+01:00) or none"
    )
    other_way = HEADER + "2026-11-02T15:00+01:00,a,1,0.5\n\n2026-11-02 14:00,a,1,0.5\n"
    lacks = r"m\.csv: row 4, column time: .* has no UTC offset, but row 2's time has one"
    with pytest.raises(InputError, match=lacks):
        parse_intervals(other_way, "m.csv")


def test_times_with_offsets_are_read_and_chosen_by_their_instant() -> None:
    text = HEADER + "2026-11-02T14:00+01:00,a,100,0.5\n2026-11-02T14:00+00:00,a,300,0.5\n"
    rows = parse_intervals(text, "m.csv")
    (peak,) = select(rows, ["io"], "m.csv")
    assert peak.time == dt.datetime(2026, 11, 2, 14, tzinfo=dt.UTC)
    (named,) = select(rows, ["2026-11-02T13:00+00:00"], "m.csv")
    assert named.io_rate == 100
    with pytest.raises(InputError, match="written with a UTC offset"):
        select(rows, ["2026-11-02 13:00"], "m.csv")
    # The same instant written with two offsets is one interval: a scope twice.
    twice = HEADER + "2026-11-02T14:00+01:00,a,1,0.5\n2026-11-02T13:00+00:00,a,1,0.5\n"
    with pytest.raises(InputError, match="scope 'a' appears twice"):
        parse_intervals(twice, "m.csv")


def test_a_cell_past_the_csv_limit_is_one_message_naming_the_row(tmp_path: Path) -> None:
    """Found: a cell of more than 131,072 characters crashed `import` (csv.Error)."""
    text = HEADER + "2026-11-02 14:00,a,1,0.5\n" + f'2026-11-02 14:15,"{"x" * 140_000}",1,0.5\n'
    with pytest.raises(InputError, match=r"^m\.csv: row 3: not CSV \(field larger than"):
        parse_intervals(text, "m.csv")
    path = tmp_path / "m.csv"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["import", str(path), "--capacity-gb", "10"])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert "Traceback" not in result.output
    assert len(result.output) < 300  # the cell is not echoed


def test_a_scope_too_long_for_a_workload_name_is_one_message() -> None:
    assert MAX_SCOPE_CHARS == MAX_NAME_CHARS
    text = HEADER + f"2026-11-02 14:00,{'s' * 100_000},1,0.5\n"
    with pytest.raises(InputError) as refused:
        parse_intervals(text, "m.csv")
    message = str(refused.value)
    assert message.startswith("m.csv: row 2, column scope: 'sss")
    assert "is 100,000 characters long" in message
    assert len(message) < 250


def test_more_scopes_than_a_scenario_holds_are_one_message() -> None:
    assert Scenario.model_fields["workloads"].metadata[-1].max_length == MAX_SCOPES
    text = HEADER + "".join(f"2026-11-02 14:00,s{i},1,0.5\n" for i in range(MAX_SCOPES + 1))
    chosen = select(parse_intervals(text, "m.csv"), ["io"], "m.csv")
    with pytest.raises(InputError, match=r"65 scopes, each a workload; a scenario holds at most"):
        workloads_yaml(chosen, "p0", 10.0, "m.csv")


def test_two_million_rows_are_refused_before_any_is_parsed() -> None:
    """Found: 2 million rows took 18 s and 1.8 GB (27 s of CPU and 1.9 GB here). The lines
    are counted first: no row is parsed (counted, not timed)."""
    text = HEADER + "2026-11-02 14:00,a,1,0.5\n" * 2_000_000
    with (
        mock.patch.object(intervals_module, "_interval", side_effect=AssertionError),
        pytest.raises(InputError) as refused,
    ):
        parse_intervals(text, "big.csv")
    assert str(refused.value).startswith(
        f"big.csv: 2,000,001 lines; an interval file holds at most {MAX_ROWS:,} rows"
    )


def test_the_row_bound_counts_rows_after_the_header() -> None:
    row = "2026-11-02 14:{:02d},a,1,0.5\n"
    with mock.patch.object(intervals_module, "MAX_ROWS", 3):
        assert len(parse_intervals(HEADER + "".join(row.format(m) for m in range(3)), "m")) == 3
        unterminated = HEADER + "".join(row.format(m) for m in range(3)).rstrip("\n")
        assert len(parse_intervals(unterminated, "m")) == 3
        with pytest.raises(InputError, match="5 lines; an interval file holds at most 3 rows"):
            parse_intervals(HEADER + "".join(row.format(m) for m in range(4)), "m")


# --------------------------------------------------------------------------- fuzz


NAIVE = st.datetimes(dt.datetime(2000, 1, 1), dt.datetime(2040, 1, 1)).map(
    lambda t: t.replace(second=0, microsecond=0)
)
OFFSETS = st.sampled_from([dt.UTC, dt.timezone(dt.timedelta(hours=1))])
TIMES = st.one_of(
    NAIVE.map(lambda t: t.isoformat(sep=" ", timespec="minutes")),
    st.builds(lambda t, z: t.replace(tzinfo=z).isoformat(), NAIVE, OFFSETS),
    st.sampled_from(["", "14:30 on Monday", "2026-13-45 10:00", "2026-11-02T25:00", "\x00"]),
)
NUMBER_CELLS = st.one_of(
    st.floats(0, 1e6).map(repr),
    st.floats(0, 1).map(lambda v: f"{100 * v:.1f}%"),
    st.sampled_from(['"12,500"', "nan", "inf", "-1", "1_000", "", " ", "1e400", "0x10", "٣"]),
)
BIG_CELLS = st.sampled_from([10, 1_000, 131_072, 140_000]).map(lambda n: "x" * n)


@st.composite
def interval_files(draw: st.DrawFn) -> str:
    """A header (with a response column or not) and rows of drawn times, scopes (among them
    cells of up to 140,000 characters), numbers and blank or short rows."""
    lines = ["time,scope,io_rate,read_fraction,response_ms"]
    scopes = draw(st.lists(st.sampled_from(["a", "b", "c"]) | BIG_CELLS, min_size=1, max_size=3))
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["row", "row", "row", "blank", "short", "quoted"]))
        if kind == "blank":
            lines.append("")
        elif kind == "short":
            lines.append(draw(TIMES))
        else:
            cells = [draw(TIMES), draw(st.sampled_from(scopes))]
            cells += [draw(NUMBER_CELLS) for _ in range(3)]
            if kind == "quoted":
                cells = [f'"{c}"' for c in cells]
            lines.append(",".join(cells))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


@pytest.mark.fuzz
@fuzz_settings(200)
@given(text=interval_files(), limit=st.sampled_from([MAX_ROWS, 4]))
def test_any_interval_file_is_read_consistently_or_refused_in_one_message(
    text: str, limit: int
) -> None:
    with mock.patch.object(intervals_module, "MAX_ROWS", limit):
        outcome = _parsed_or_refusal(text)
    if isinstance(outcome, str):
        assert outcome.startswith("fuzz.csv: "), outcome
        assert len(outcome) < 400, outcome  # no cell is echoed whole
        return
    assert 0 < len(outcome) <= limit
    assert len({iv.time.tzinfo is None for iv in outcome}) == 1  # naive, or all with offsets
    assert len({(iv.time, iv.scope) for iv in outcome}) == len(outcome)
    assert all(len(iv.scope) <= MAX_SCOPE_CHARS for iv in outcome)
    for want in (["io"], ["mbs", "io"], [outcome[-1].time.isoformat()]):
        chosen = select(outcome, want, "fuzz.csv")
        assert workloads_yaml(chosen, "p0", 10.0, "fuzz.csv").startswith("# Imported")


def _parsed_or_refusal(text: str) -> list[intervals_module.Interval] | str:
    try:
        return parse_intervals(text, "fuzz.csv")
    except InputError as exc:
        return str(exc)
