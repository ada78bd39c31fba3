"""Terminal text: fits the width, plain when not a terminal, never "response time saturated ms"."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest

from diskmodel.report.table import Output, detect_output, table, to_text
from diskmodel.report.text import render
from tests.report import report_fixtures

CASES = sorted(report_fixtures.CASES)
PLAIN = Output(terminal=False, width=100)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("width", [80, 100, 140])
def test_every_line_fits_the_width(case: str, width: int) -> None:
    text = render(report_fixtures.CASES[case](), Output(False, width))
    assert max(len(line) for line in text.splitlines()) <= width


@pytest.mark.parametrize("case", CASES)
def test_plain_text_has_no_colour_and_no_box_drawing(case: str) -> None:
    text = render(report_fixtures.CASES[case](), PLAIN)
    assert "\x1b[" not in text
    assert all(ord(ch) < 0x2500 or ord(ch) > 0x257F for ch in text)  # box drawing block


def test_a_terminal_gets_bold_headers() -> None:
    text = render(report_fixtures.CASES["tiered"](), Output(True, 100))
    assert "\x1b[1m" in text


def test_output_is_plain_when_the_stream_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "123")
    assert detect_output(io.StringIO()) == Output(False, 123)
    monkeypatch.delenv("COLUMNS")
    assert detect_output(io.StringIO()) == Output(False, 100)


def test_saturated_planned_load_never_reads_saturated_ms() -> None:
    prediction = report_fixtures.open_comparison()
    saturated = dataclasses.replace(prediction.baseline, saturated=True, response_time_ms=None)
    text = render(dataclasses.replace(prediction, baseline=saturated), PLAIN)
    assert "saturated ms" not in text
    assert "planned load: 8,000 IOPS: SATURATED (above the maximum)" in text


def test_summary_gives_planning_maximum_saturation_and_headroom_to_each() -> None:
    text = render(report_fixtures.open_comparison(), Output(False, 200))
    assert "planning maximum 8,200 IOPS (response time ≤ 15 ms binds); at 15 ms: 8,200 IOPS" in text
    assert "maximum: 12,500 IOPS to saturation, limited by rank 0" in text
    assert "headroom: 3% to the planning maximum, 56% to saturation" in text


def test_numbers_right_aligned_text_left() -> None:
    text = to_text([table(["name", "IOPS"], [["a", "1,000"], ["bbbb", "25"]])], PLAIN)
    lines = text.splitlines()
    assert lines == ["name   IOPS", "----- -----", "a     1,000", "bbbb     25"]


def test_an_unbounded_configuration_reads_unlimited_never_inf_or_nan() -> None:
    import math

    prediction = report_fixtures.open_comparison()
    level = dataclasses.replace(
        prediction.baseline.service_level, max_iops=math.inf, iops_at_target=None
    )
    idle = dataclasses.replace(prediction.baseline, max_iops=math.inf, service_level=level)
    text = render(dataclasses.replace(prediction, baseline=idle), Output(False, 200))
    assert "headroom: unlimited to the planning maximum, unlimited to saturation" in text
    assert "inf" not in text
    assert "nan" not in text


@pytest.mark.parametrize("width", [60, 80, 120])
def test_catalog_show_and_list_fit_the_width(width: int) -> None:
    from diskmodel.catalog import load_catalog
    from diskmodel.report.catalog_text import render_entry, render_list

    catalog = load_catalog()
    output = Output(False, width)
    texts = [render_list(catalog, output)]
    texts += [render_entry(catalog, name, output) for name in catalog.names()]
    for text in texts:
        assert max(len(line) for line in text.splitlines()) <= width
        assert "\x1b[" not in text
    seek = render_entry(catalog, "15k-146", Output(False, 200))
    assert re.search(r"avg_seek_read_ms +3\.5 +source: ", seek)


def test_names_are_printed_literally_never_as_rich_markup() -> None:
    prediction = report_fixtures.open_comparison()
    named = dataclasses.replace(prediction.baseline, name="[bold red]x[/] :smile: \x1b[31m")
    text = render(dataclasses.replace(prediction, baseline=named), PLAIN)
    assert "[bold red]x[/] :smile:" in text
