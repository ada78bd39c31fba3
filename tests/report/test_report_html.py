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

from diskmodel.errors import OutputError
from diskmodel.output import write_output
from diskmodel.prediction import ScenarioPrediction
from diskmodel.report import view
from diskmodel.report.html import build_report, render_html, render_report
from tests.report import report_fixtures
from tests.report.gold_files import GOLD, gold_path, mask, render_case

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
    return build_report(report_fixtures.CASES[case]())


def _table(report: view.Report, key: str) -> view.Table:
    return next(t for t in (*report.tables, *report.inputs, *report.appendix) if t.key == key)


def _cells(table: view.Table, header: str) -> list[str]:
    return [c.text for c in next(r for r in table.rows if r.header == header).cells]


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
    first = render_html(report_fixtures.open_comparison(), timestamp=False)
    assert render_html(report_fixtures.open_comparison(), timestamp=False) == first


def test_the_generation_line_is_the_only_difference_and_can_be_switched_off(
    no_charts: None,
) -> None:
    prediction = report_fixtures.CASES["tiered"]()
    with_time = render_html(prediction, timestamp=True)
    without = render_html(prediction, timestamp=False)
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


def test_scenarios_are_accepted_and_ignored(no_charts: None) -> None:
    prediction = report_fixtures.CASES["tiered"]()
    assert render_html(prediction, timestamp=False, scenarios=[("x", object())]) == render_html(
        prediction, timestamp=False
    )


# --------------------------------------------------------------------------- the answer first


def test_the_answer_comes_before_charts_tables_inputs_and_appendix(pages: dict[str, str]) -> None:
    page = pages["open-comparison"]
    answer = page.index("At 8,000 IOPS the average response time is")
    order = [
        answer,
        page.index('id="charts-title"'),
        page.index('id="tables-title"'),
        page.index('id="inputs-title"'),
        page.index('id="appendix-title"'),
    ]
    assert order == sorted(order)


def test_answer_gives_response_planning_maximum_saturation_and_headroom_to_each() -> None:
    report = _report("open-comparison")
    baseline, alternative = report.answers
    assert baseline.sentences[0] == "At 8,000 IOPS the average response time is 14.3 ms."
    assert baseline.sentences[1] == (
        "The service level is met at this load and holds up to 8,200 IOPS (response time "
        "≤ 15 ms binds), and the system saturates at 12,500 IOPS, limited by rank 0 (oltp, "
        "15k-146 raid5-6+p+s, DA 0)."
    )
    figures = {f.label: f.value for f in baseline.figures}
    assert figures["planning maximum (response time ≤ 15 ms)"] == "8,200 IOPS"
    assert figures["maximum (saturation)"] == "12,500 IOPS"
    assert figures["headroom to the planning maximum"] == "3%"
    assert figures["headroom to saturation"] == "56%"
    assert figures["IOPS at 15 ms"] == "8,200 IOPS"
    assert "limited by device adapter pair 0" in alternative.sentences[1]
    assert alternative.sentences[2].startswith(
        "Against DS8800 C3 baseline (DB2 brokerage OLTP): 6.7% lower planning maximum, "
        "12.5% lower saturation rate"
    )


def test_closed_system_answer_gives_its_population_and_throughput() -> None:
    report = _report("closed-comparison")
    first = report.answers[0].sentences[0]
    assert first.startswith("At a host queue depth of 256 the system settles at 9,986 IOPS")
    labels = [f.label for f in report.answers[0].figures]
    assert labels[:2] == ["response time at 9,986 IOPS", "throughput at queue depth 256"]
    assert "headroom to saturation" not in labels  # a closed system has no planned rate
    assert any(c.key == "chart-closed" for c in report.charts)


def test_headline_headroom_figures_are_the_tables_figures() -> None:
    """One answer per question: the card and the results table say the same."""
    report = _report("many-alternatives")
    results = _table(report, "results")
    for i, answer in enumerate(report.answers):
        figures = {f.label: f.value for f in answer.figures}
        assert figures["headroom to saturation"] == _cells(results, "Headroom to saturation")[i]
        assert (
            figures["headroom to the planning maximum"]
            == _cells(results, "Headroom to the planning maximum")[i]
        )
        assert (
            figures["maximum (saturation)"].removesuffix(" IOPS")
            == _cells(results, "Maximum to saturation (IOPS)")[i]
        )


# --------------------------------------------------------------------------- alerts


def test_alerts_a_planner_must_not_miss() -> None:
    report = _report("tiered")
    texts = [(a.level, a.text) for a in report.alerts]
    assert any(
        level == "warning"
        and "its 2 SSD ranks are not spread evenly" in text
        and "(DA pairs 2/0, servers 2/0)" in text
        for level, text in texts
    )
    assert any(level == "warning" and "service level is not met" in text for level, text in texts)
    assert report.answers[0].level == "warning"


def test_no_ssd_balance_alert_or_claim_where_a_pool_has_no_ssd() -> None:
    report = _report("open-comparison")
    assert not any("SSD" in a.text for a in report.alerts)
    assert "SSD" not in report.all_clear
    assert "SSD ranks spread evenly over the DA pairs and the servers" in (
        _report("many-alternatives").all_clear
    )


def test_saturated_and_nvs_full_are_critical(no_charts: None) -> None:
    prediction = report_fixtures.open_comparison()
    saturated = dataclasses.replace(
        prediction.baseline, saturated=True, nvs_full=True, response_time_ms=None
    )
    report = build_report(dataclasses.replace(prediction, baseline=saturated))
    critical = [a.text for a in report.alerts if a.level == "critical"]
    assert any("more than this configuration can carry" in t for t in critical)
    assert any(t.startswith("NVS is full") for t in critical)
    assert report.answers[0].sentences[0].startswith("At 8,000 IOPS the system is saturated")


def test_a_component_just_below_saturation_is_not_shown_as_100_percent(no_charts: None) -> None:
    prediction = report_fixtures.open_comparison()
    components = list(prediction.baseline.components)
    components[0] = dataclasses.replace(components[0], utilization=0.9996)
    busy = dataclasses.replace(prediction.baseline, components=tuple(components))
    page = render_html(ScenarioPrediction(prediction.scenario, "", busy), timestamp=False)
    components_table = page[page.index('id="components"') : page.index('id="tiers"')]
    assert '<td class="num critical">99.9%</td>' in components_table
    assert "100.0%" not in components_table


def test_no_alert_says_so_naming_only_the_checks_that_apply(no_charts: None) -> None:
    prediction = report_fixtures.open_comparison()
    calm = dataclasses.replace(
        prediction.baseline,
        components=tuple(
            dataclasses.replace(c, utilization=0.1) for c in prediction.baseline.components
        ),
    )
    page = render_html(ScenarioPrediction(prediction.scenario, "", calm), timestamp=False)
    assert (
        "No component above 70% busy at the planned load, NVS not full, the service level "
        "met, every tier&#39;s data fits." in page
    )


# --------------------------------------------------------------------------- charts and tables


def test_charts_present_for_what_the_prediction_has() -> None:
    keys = {case: [c.key for c in _report(case).charts] for case in CASES}
    assert keys["open-comparison"] == [
        "chart-response",
        "chart-growth",
        "chart-breakdown",
        "chart-utilization",
    ]
    assert keys["closed-comparison"] == [
        "chart-response",
        "chart-closed",
        "chart-breakdown",
        "chart-utilization",
    ]
    assert keys["tiered"] == [
        "chart-response",
        "chart-growth",
        "chart-breakdown",
        "chart-utilization",
        "chart-skew-0-0",
        "chart-placement-0-1",
        "chart-sweep",
    ]
    # Easy Tier off or a single tier: no skew or placement chart for that configuration.
    skew = [k for k in keys["many-alternatives"] if k.startswith(("chart-skew", "chart-placement"))]
    assert skew == [
        "chart-skew-0-0",
        "chart-placement-0-1",
        "chart-skew-3-0",
        "chart-placement-3-1",
    ]


def test_skew_chart_legend_gives_each_tier_its_data_and_io_share() -> None:
    skew = next(c for c in _report("tiered").charts if c.key.startswith("chart-skew"))
    assert "ssd: 12.0% of the data, 62.0% of the I/O" in skew.svg
    assert "level 14 (high)" in skew.caption


def test_placement_chart_draws_each_tier_share_along_the_curve() -> None:
    chart = next(c for c in _report("tiered").charts if c.key.startswith("chart-placement"))
    for tier in ("ssd", "enterprise", "nearline"):
        assert f">{tier}</text>" in chart.svg


def test_alternatives_are_side_by_side_columns() -> None:
    report = _report("open-comparison")
    names = ("DS8800 C3 baseline (DB2 brokerage OLTP)", "DS8700 C3 baseline")
    for key in ("configuration", "results", "service-level-inputs"):
        assert _table(report, key).columns[1:] == names
    assert _cells(_table(report, "configuration"), "Storage system") == [
        "DS8000 2107-951 (ds8800-951)",
        "DS8000 2107-941 (ds8700-941)",
    ]


def test_hit_ratio_shown_is_the_one_the_model_used_with_its_basis() -> None:
    report = _report("open-comparison")
    assert _cells(_table(report, "workloads"), "Read hit ratio used") == ["10.0% (as given)"]
    assert _cells(_table(report, "results"), "brokerage: read hit ratio used") == ["10.0%"] * 2


def test_identical_components_share_one_row_with_their_count() -> None:
    rows = [r.header for r in _table(_report("tiered"), "components").rows]
    assert "host ports 0–15 (16 alike)" in rows
    assert not any(r.startswith("host port 3") for r in rows)
    assert "DA pair 0" in rows
    assert "DA pair 1" in rows


def test_growth_and_sweep_say_saturated_exactly_where_the_prediction_does() -> None:
    report = _report("open-comparison")
    growth = _table(report, "growth")
    for p in report_fixtures.open_comparison().configurations:
        # Each configuration's rows come under a row naming it.
        start = next(i for i, r in enumerate(growth.rows) if r.group and r.header == p.name)
        mine = growth.rows[start + 1 : start + 1 + len(p.growth)]
        for g in p.growth:
            row = next(r for r in mine if r.header == f"× {g.factor:g}")
            assert (row.cells[1].text == "saturated") == g.saturated
            assert (row.cells[4].text == "met") == g.meets_service_level
    sweep = _table(_report("tiered"), "tier-sweep")
    for row, point in zip(sweep.rows, report_fixtures.CASES["tiered"]().tier_sweep, strict=True):
        if point.error is None:
            assert (row.cells[2].text == "saturated") == point.saturated


def test_service_level_table_gives_each_limit_met_or_not_with_its_margin() -> None:
    table = _table(_report("tiered"), "service-level")
    assert _cells(table, "response time ≤ 5 ms")[:2] == ["5.95 ms", "not met, 0.952 ms over"]
    rank = _cells(table, "rank utilisation ≤ 70%")
    assert rank[1].startswith("met, ")
    assert rank[1].endswith(" points to spare")


def test_catalog_figures_carry_numbered_sources_listed_once() -> None:
    report = _report("open-comparison")
    figures = _table(report, "catalog-figures")
    rows = {r.header: r.cells for r in figures.rows}
    seek = rows["15k-146 · avg_seek_read_ms"]
    assert seek[0].text == "3.5"
    number = int(seek[1].text.strip("[]"))
    source = next(s for s in report.sources if s.number == number)
    assert source.text.startswith("source: ")
    assert len({s.text for s in report.sources}) == len(report.sources)
    assert "ds8700-941 · device_adapter.per_op_us" in rows  # the alternative's system too
    assert len(rows) == len(figures.rows)  # each figure once


def test_defaults_applied_and_assumptions_are_listed() -> None:
    report = _report("open-comparison")
    defaults = _table(report, "defaults")
    assert [r.header for r in defaults.rows][:1] == ["workloads.brokerage.read_size_kib"]
    assert defaults.rows[0].cells[2].text == "all"
    assumptions = _table(report, "assumptions")
    assert all(r.cells[1].text == "all" for r in assumptions.rows)


def test_utilisation_cells_carry_their_threshold_level(no_charts: None) -> None:
    prediction = report_fixtures.open_comparison()
    components = list(prediction.baseline.components)
    components[-1] = dataclasses.replace(components[-1], utilization=0.75)
    components[-2] = dataclasses.replace(components[-2], utilization=0.95)
    busy = dataclasses.replace(prediction.baseline, components=tuple(components))
    table = _table(build_report(ScenarioPrediction("x", "", busy)), "components")
    levels = {r.header: r.cells[0].level for r in table.rows}
    assert levels["host ports 0–3 (4 alike)"] == ""
    assert levels[components[-1].name] == "warning"
    assert levels[components[-2].name] == "critical"


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
    for forbidden in ("script", "link", "img", "iframe", "object", "embed", "image"):
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
    assert "&lt;script&gt;alert(4)&lt;/script&gt;" in page  # a model note
    assert "<img" not in page
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in page  # the pool name "pool <b>&amp;</b>"
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title is not None
    assert title.group(1).startswith("&lt;script&gt;alert(1)&lt;/script&gt; &#34;quoted&#34;")


def test_template_refuses_an_undefined_name(no_charts: None) -> None:
    report = build_report(report_fixtures.CASES["tiered"]())
    broken = dataclasses.replace(report, answers=(object(),))  # type: ignore[arg-type]
    with pytest.raises(jinja2.UndefinedError):
        render_report(broken)


def test_page_names_diskmodel_as_its_generator_near_the_top(pages: dict[str, str]) -> None:
    assert pages["tiered"].index('<meta name="generator" content="diskmodel') < 1024


def test_a_report_replaces_its_own_file_but_not_a_foreign_one(
    tmp_path: Path, no_charts: None
) -> None:
    text = render_html(report_fixtures.CASES["tiered"](), timestamp=False)
    target = tmp_path / "reports" / "tiered.html"
    write_output(target, text)
    write_output(target, text)
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    foreign = tmp_path / "notes.html"
    foreign.write_text("my notes", encoding="utf-8")
    with pytest.raises(OutputError):
        write_output(foreign, text)
    assert foreign.read_text(encoding="utf-8") == "my notes"


def test_an_unbounded_configuration_reads_unlimited_never_inf(no_charts: None) -> None:
    import math

    prediction = report_fixtures.open_comparison()
    level = dataclasses.replace(
        prediction.baseline.service_level, max_iops=math.inf, iops_at_target=None
    )
    idle = dataclasses.replace(prediction.baseline, max_iops=math.inf, service_level=level)
    page = render_html(dataclasses.replace(prediction, baseline=idle), timestamp=False)
    assert "unlimited" in page
    assert not re.search(r"\b(inf|nan)\b", page.lower())


def test_the_appendix_prints_only_when_asked_and_the_screen_shows_it_always() -> None:
    """Issue 31 item 7: the bundled example printed 13 A4 pages, 4 of them catalog
    appendix. By default the detail, the inputs and the appendix are on screen and not in
    print (the printed footer says so); `appendix=True` (`--appendix`) prints them too."""
    prediction = report_fixtures.open_comparison()
    default = render_html(prediction, timestamp=False)
    printed = render_html(prediction, timestamp=False, appendix=True)
    for page in (default, printed):
        assert 'id="inputs"' in page
        assert 'id="catalog-figures"' in page
        assert 'id="components"' in page
    assert '<section id="inputs" class="print-optional" ' in default
    assert '<section id="inputs" class="print-optional printed" ' in printed
    assert "a report written with --appendix prints them too" in default
    assert "a report written with --appendix prints them too" not in printed
