"""The HTML report: gold files with volatile parts masked, and targeted checks of its content."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from html.parser import HTMLParser
from pathlib import Path

import jinja2
import pytest
import report_fixtures
from gold_files import GOLD, gold_path, mask, render_case

from diskmodel.catalog import load_catalog
from diskmodel.errors import OutputError
from diskmodel.prediction import ScenarioPrediction
from diskmodel.report import view
from diskmodel.report.html import build_report, render_html, render_report, write_report

CASES = sorted(report_fixtures.CASES)


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {case: render_case(case) for case in CASES}


@pytest.fixture
def no_charts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leave the charts out (drawing them is most of a page's time) where a test reads text."""
    monkeypatch.setattr("diskmodel.report.html.chart_views.charts_for", lambda *_: [])


@functools.cache
def _report(case: str) -> view.Report:
    prediction, scenarios = report_fixtures.CASES[case]()
    return build_report(prediction, scenarios, load_catalog())


# --------------------------------------------------------------------------- gold files


@pytest.mark.parametrize("case", CASES)
def test_page_matches_its_gold_file(case: str, pages: dict[str, str], tmp_path: Path) -> None:
    actual = mask(pages[case])
    expected = gold_path(case).read_text(encoding="utf-8")
    if actual != expected:
        (tmp_path / f"{case}.html").write_text(actual, encoding="utf-8")
        diff = "\n".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(), actual.splitlines(), "gold", "actual", lineterm=""
                )
            )[:60]
        )
        pytest.fail(
            f"{case}: the page differs from {gold_path(case)} (actual page in {tmp_path}); "
            "if the change is intended, run `python tests/report/gold_files.py` and review "
            f"the diff:\n{diff}"
        )


def test_every_gold_file_belongs_to_a_case() -> None:
    assert sorted(p.stem for p in GOLD.glob("*.html")) == CASES


# --------------------------------------------------------------------------- determinism


def test_same_prediction_gives_the_same_bytes() -> None:
    prediction, scenarios = report_fixtures.open_comparison()
    first = render_html(prediction, scenarios=scenarios, timestamp=False)
    again_prediction, again_scenarios = report_fixtures.open_comparison()
    assert render_html(again_prediction, scenarios=again_scenarios, timestamp=False) == first


def test_the_generation_line_is_the_only_difference_and_can_be_switched_off() -> None:
    prediction, scenarios = report_fixtures.tiered()
    with_time = render_html(prediction, scenarios=scenarios, timestamp=True)
    without = render_html(prediction, scenarios=scenarios, timestamp=False)
    assert "Generated " not in without
    removed = [
        line
        for line in difflib.ndiff(without.splitlines(), with_time.splitlines())
        if line.startswith(("+ ", "- "))
    ]
    assert len(removed) == 1
    assert re.fullmatch(
        r"\+ <p class=\"generated\">Generated \d{4}-\d\d-\d\d \d\d:\d\d UTC by diskmodel "
        r"\S+\.</p>",
        removed[0],
    )


# --------------------------------------------------------------------------- the answer first


def test_the_answer_comes_before_charts_and_tables(pages: dict[str, str]) -> None:
    page = pages["open-comparison"]
    answer = page.index("At 8,000 IOPS the average response time is")
    assert answer < page.index('id="charts-title"') < page.index('id="tables-title"')


def test_answer_sentence_names_rate_response_saturation_and_bottleneck() -> None:
    report = _report("open-comparison")
    baseline, alternative = report.answers
    assert baseline.sentences[0] == (
        "At 8,000 IOPS the average response time is 14.3 ms; the system saturates at "
        "12,500 IOPS, limited by rank 0 (oltp, 15k-146 raid5-6+p+s, DA 0)."
    )
    assert alternative.sentences[0].endswith(
        "the system saturates at 10,900 IOPS, limited by device adapter pair 0."
    )
    assert alternative.sentences[1].startswith(
        "Against DS8800 C3 baseline (DB2 brokerage OLTP): 12.5% lower saturation rate"
    )


def test_closed_system_answer_gives_its_population_and_throughput() -> None:
    report = _report("closed-comparison")
    first = report.answers[0].sentences[0]
    assert first.startswith("At a host queue depth of 256 the system settles at 11,420 IOPS")
    assert [f.label for f in report.answers[0].figures][:2] == [
        "response time at 11,420 IOPS",
        "throughput at queue depth 256",
    ]
    assert any(c.key == "chart-closed" for c in report.charts)


# --------------------------------------------------------------------------- warnings


def test_warnings_a_planner_must_not_miss() -> None:
    report = _report("tiered")
    texts = [(w.level, w.text) for w in report.warnings]
    assert any(
        level == "warning" and "SSD ranks are not balanced" in text and "2 on server 0" in text
        for level, text in texts
    )
    assert any(level == "critical" and "enterprise tier holds" in text for level, text in texts)
    assert any(level == "warning" and "above 70% busy" in text for level, text in texts)
    assert report.answers[0].level == "critical"


def test_saturated_and_nvs_full_are_critical(no_charts: None) -> None:
    prediction, scenarios = report_fixtures.open_comparison()
    saturated = dataclasses.replace(
        prediction.baseline, saturated=True, nvs_full=True, response_time_ms=None
    )
    report = build_report(
        dataclasses.replace(prediction, baseline=saturated), scenarios, load_catalog()
    )
    critical = [w.text for w in report.warnings if w.level == "critical"]
    assert any("more than this configuration can carry" in t for t in critical)
    assert any(t.startswith("NVS is full") for t in critical)
    assert report.answers[0].sentences[0].startswith("At 8,000 IOPS the system is saturated")


def test_a_component_just_below_saturation_is_not_shown_as_100_percent(no_charts: None) -> None:
    prediction, scenarios = report_fixtures.open_comparison()
    components = list(prediction.baseline.components)
    components[0] = dataclasses.replace(components[0], utilization=0.9996)
    busy = dataclasses.replace(prediction.baseline, components=tuple(components))
    page = render_html(
        ScenarioPrediction(prediction.scenario, busy), scenarios=scenarios[:1], timestamp=False
    )
    components_table = page[page.index('id="components"') : page.index('id="tiers"')]
    assert '<td class="num critical">99.9%</td>' in components_table
    assert "100.0%" not in components_table


def test_no_warning_says_so(no_charts: None) -> None:
    prediction, scenarios = report_fixtures.open_comparison()
    calm = dataclasses.replace(
        prediction.baseline,
        components=tuple(
            dataclasses.replace(c, utilization=0.1) for c in prediction.baseline.components
        ),
    )
    page = render_html(
        ScenarioPrediction(prediction.scenario, calm), scenarios=scenarios[:1], timestamp=False
    )
    assert "No component above 70% busy at the planned load" in page


# --------------------------------------------------------------------------- charts and tables


def test_charts_present_for_what_the_scenario_has() -> None:
    keys = {case: [c.key for c in _report(case).charts] for case in CASES}
    common = ["chart-response", "chart-breakdown", "chart-utilization"]
    assert keys["open-comparison"] == common
    assert keys["closed-comparison"] == [*common, "chart-closed"]
    assert keys["tiered"][:3] == common
    assert [k for k in keys["tiered"] if k.startswith("chart-skew")] == ["chart-skew-0-0"]


def test_skew_chart_legend_gives_each_tier_its_capacity_and_io_share() -> None:
    skew = next(c for c in _report("tiered").charts if c.key.startswith("chart-skew"))
    assert "ssd: 6.4% of capacity, 62.0% of I/O" in skew.svg
    assert "nearline: 46.8% of capacity, 0.0% of I/O" not in skew.svg  # share given is 38%
    assert "of I/O" in skew.svg


def test_alternatives_are_side_by_side_columns() -> None:
    report = _report("open-comparison")
    names = ("DS8800 C3 baseline (DB2 brokerage OLTP)", "DS8700 C3 baseline")
    for key in ("configuration", "results"):
        table = next(t for t in report.tables if t.key == key)
        assert table.columns[1:] == names
    config = next(t for t in report.tables if t.key == "configuration")
    system = next(r for r in config.rows if r.header == "Storage system")
    assert [c.text for c in system.cells] == [
        "DS8000 2107-951 (ds8800-951)",
        "DS8000 2107-941 (ds8700-941)",
    ]


def test_assumptions_list_catalog_figures_with_their_sources() -> None:
    table = next(t for t in _report("open-comparison").tables if t.key == "assumptions")
    rows = {r.header: r.cells for r in table.rows}
    seek = rows["drive 15k-146: avg_seek_read_ms"]
    assert seek[0].text == "3.5"
    assert seek[1].text.startswith("source: DOMAIN.md C1")
    assert "ds8700-941 device adapter pair da-fc-al: per_op_us" in rows
    assert all(cells[1].text for cells in rows.values())


def test_utilisation_cells_carry_their_threshold_level() -> None:
    table = next(t for t in _report("tiered").tables if t.key == "components")
    levels = {r.header: r.cells[0].level for r in table.rows}
    assert levels["rank 1 (mixed, 15k-300 raid5-7+p, DA 0)"] == "warning"
    assert levels["host port 0"] == ""


# --------------------------------------------------------------------------- self-contained, safe


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


@pytest.mark.parametrize("case", CASES)
def test_page_loads_nothing_and_runs_nothing(case: str, pages: dict[str, str]) -> None:
    parser = _Tags()
    parser.feed(pages[case])
    names = [tag for tag, _ in parser.tags]
    for forbidden in ("script", "link", "img", "iframe", "object", "embed", "image", "use"):
        if forbidden == "use":
            continue  # matplotlib's <use> points at a marker defined in the same SVG
        assert forbidden not in names, forbidden
    for tag, attrs in parser.tags:
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
        for key in ("src", "href", "xlink:href"):
            value = attrs.get(key)
            assert value is None or value.startswith("#"), (tag, key, value)
    assert "Content-Security-Policy" in pages[case]


def test_markup_in_names_is_text(pages: dict[str, str]) -> None:
    page = pages["hostile"]
    assert "<script" not in page
    assert "onerror=" not in page.replace("onerror=alert", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img" not in page
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in page  # the pool name "pool <b>&amp;</b>"
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title is not None
    assert title.group(1).startswith("&lt;script&gt;alert(1)&lt;/script&gt; &#34;quoted&#34;")


def test_template_refuses_an_undefined_name(no_charts: None) -> None:
    prediction, scenarios = report_fixtures.tiered()
    report = build_report(prediction, scenarios, load_catalog())
    broken = dataclasses.replace(report, answers=(object(),))  # type: ignore[arg-type]
    with pytest.raises(jinja2.UndefinedError):
        render_report(broken)


def test_page_names_diskmodel_as_its_generator_near_the_top(pages: dict[str, str]) -> None:
    assert pages["tiered"].index('<meta name="generator" content="diskmodel') < 1024


def test_write_report_replaces_its_own_file_but_not_a_foreign_one(
    tmp_path: Path, no_charts: None
) -> None:
    prediction, scenarios = report_fixtures.tiered()
    target = tmp_path / "reports" / "tiered.html"
    write_report(prediction, target, scenarios=scenarios, timestamp=False)
    write_report(prediction, target, scenarios=scenarios, timestamp=False)
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    foreign = tmp_path / "notes.html"
    foreign.write_text("my notes", encoding="utf-8")
    with pytest.raises(OutputError):
        write_report(prediction, foreign, scenarios=scenarios)
    assert foreign.read_text(encoding="utf-8") == "my notes"


def test_scenarios_must_match_the_prediction(no_charts: None) -> None:
    prediction, scenarios = report_fixtures.open_comparison()
    with pytest.raises(ValueError, match="disagree"):
        build_report(prediction, scenarios[:1], load_catalog())


def test_without_scenarios_the_result_tables_still_render(no_charts: None) -> None:
    prediction, _ = report_fixtures.open_comparison()
    page = render_html(prediction, timestamp=False)
    assert "Results at the planned load" in page
    assert "Configuration</caption>" not in page
