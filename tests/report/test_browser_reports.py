"""HTML reports opened from disk in a real headless Chromium, on screen and in print.

The browser is the operating system's Chromium (Debian package `chromium`, installed by
.ci/run), driven by Playwright through its executable path: no browser is downloaded. Each
report is written to a temporary folder and opened by file:// URL; the page must log no console
error, make no request but itself, fail none, and show every chart with a non-zero size; no
text of a chart (legend, tick label, axis label, annotation) may stick out of the chart's
frame, on screen or in print; in print the page is A4, the answer comes first, the contents
list is hidden, a chart and its caption (and a short table and its caption) never part, and the
page count stays within a budget: printed as written by default (answer, charts, results),
every shipped scenario's report takes at most six A4 pages (issue 31: the bundled example
printed 13, three of them half blank and four of catalog appendix); written with
`--appendix`, the detail, inputs and appendix print after it, within a budget. A full-page
screenshot and the PDF of each are written (to
$DISKMODEL_SCREENSHOT_DIR when set, else a temporary folder) for a person to look at.

Two sets of reports: the report fixtures (tests/report/report_fixtures.py, Predictions built
by hand: they run whatever the model's state), and every shipped scenario's real report,
predicted by the model through the public API. A prediction whose names are markup must render
them as text and run no script.

Skips, with the reason, only when Chromium or Playwright is not installed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from diskmodel.output import write_output
from diskmodel.prediction import ScenarioPrediction
from diskmodel.report.html import render_html
from tests.report import report_fixtures
from tests.support.shipped import predicted

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))

FIXTURE_PAGES = {
    # case: (most printed pages by default, most pages in all when written with --appendix)
    "open-comparison": (6, 10),
    "closed-comparison": (6, 10),
    # tiered: 10 pages in all until the systems' easy_tier_generation figure (issue 12) added a
    # row and a source note to its catalog appendix, which already ran to four pages for its
    # three drive types
    "tiered": (6, 11),
    "hostile": (6, 10),
    "many-alternatives": (6, 15),
    "calibrated": (6, 11),
}
"""Print budgets of the fixture reports (A4)."""

BODY_PAGES = 6
"""Most A4 pages a report prints by default (answer, charts, results): a customer summary."""

if not CHROMIUM.exists():
    pytest.skip(
        f"{CHROMIUM} is not installed (Debian package 'chromium'; .ci/run installs it)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')"
)


@dataclass
class PageLog:
    """Everything a page did that it should not have."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def screenshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("DISKMODEL_SCREENSHOT_DIR")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _open(browser: Any, path: Path) -> tuple[Any, PageLog]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log = PageLog()
    page.on("console", lambda m: log.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log.page_errors.append(str(e)))
    page.on("requestfailed", lambda r: log.failed_requests.append(r.url))
    page.on("request", lambda r: log.requests.append(r.url))

    def dismiss(dialog: Any) -> None:
        log.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.goto(path.as_uri(), wait_until="load")
    return page, log


def _assert_clean(log: PageLog, url: str) -> None:
    assert log.console_errors == []
    assert log.page_errors == []
    assert log.failed_requests == []
    assert log.requests == [url], "the page requested something besides itself"
    assert log.dialogs == []


def _chart_sizes(page: Any) -> list[tuple[str, float, float]]:
    sizes = []
    for figure in page.query_selector_all("figure.chart"):
        svg = figure.query_selector("svg")
        assert svg is not None, figure.get_attribute("id")
        assert svg.is_visible(), figure.get_attribute("id")
        box = svg.bounding_box()
        assert box is not None
        sizes.append((figure.get_attribute("id"), box["width"], box["height"]))
    return sizes


_CLIPPED_TEXT = """
() => {
  const out = [];
  for (const svg of document.querySelectorAll('figure.chart svg')) {
    const frame = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll('text')) {
      const r = text.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < frame.left - 1 || r.right > frame.right + 1 ||
          r.top < frame.top - 1 || r.bottom > frame.bottom + 1) {
        out.push(svg.closest('figure').id + ': ' + text.textContent);
      }
    }
  }
  return out;
}
"""


# A headline figure (e.g. "72,800 IOPS", never wrapped) wider than its tile runs into the next
# one, or past the card's edge.
_CROWDED_FIGURES = """
() => [...document.querySelectorAll('.answer .figures .value')]
  .filter(v => v.scrollWidth > v.parentElement.clientWidth + 0.5 ||
               v.getBoundingClientRect().right > v.closest('.answer').getBoundingClientRect().right)
  .map(v => v.textContent)
"""
# Screen widths the figures are checked at: a desktop, a half-screen window, a phone.
_WIDTHS = (1280, 800, 420)


def _pdf_pages(page: Any) -> int:
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def _printed(browser: Any, report: Path, screenshot_dir: Path, stem: str) -> int:
    """Pages of `report` printed as it is (A4), its PDF kept for a person to look at; the
    page is checked to hide what a default report does not print and to say so."""
    page, log = _open(browser, report)
    try:
        _assert_clean(log, report.as_uri())
        page.emulate_media(media="print")
        page.set_viewport_size({"width": 710, "height": 1000})
        appendix = "printed" in (page.get_attribute("#appendix", "class") or "")
        shown = "([s]) => getComputedStyle(document.querySelector(s)).display"
        for section in ("#inputs", "#appendix"):
            assert (page.evaluate(shown, [section]) != "none") == appendix, section
        note = page.query_selector("footer .print-only")
        assert (note is not None and note.is_visible()) != appendix
        assert page.evaluate(_CLIPPED_TEXT) == [], "chart text outside its frame (print)"
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
        (screenshot_dir / f"{stem}.pdf").write_bytes(pdf)
        return len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    finally:
        page.close()


def _check_report(
    browser: Any,
    prediction: ScenarioPrediction,
    folder: Path,
    screenshot_dir: Path,
    stem: str,
    budget: tuple[int, int],
) -> None:
    """The report written with --appendix, everything checked on screen and in print, and
    written as by default, its printed pages counted."""
    report = write_output(folder / f"{stem}.html", render_html(prediction, appendix=True))
    page, log = _open(browser, report)
    try:
        _assert_clean(log, report.as_uri())
        sizes = _chart_sizes(page)
        assert len(sizes) >= 3
        assert all(width > 100 and height > 100 for _, width, height in sizes), sizes
        assert page.evaluate(_CLIPPED_TEXT) == [], "chart text outside its frame (screen)"
        # The answer is on the first screen: its first sentence starts above the fold.
        answer = page.query_selector(".answer .headline")
        assert answer is not None
        box = answer.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] < 900
        for width in _WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            assert page.evaluate(_CROWDED_FIGURES) == [], f"figures crowded at {width} px"
        page.set_viewport_size({"width": 1280, "height": 900})
        shot = screenshot_dir / f"{stem}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000

        page.emulate_media(media="print")
        # Laid out at the printed page's width: A4 less the @page margins (188 mm at 96 dpi).
        page.set_viewport_size({"width": 710, "height": 1000})
        printed = _chart_sizes(page)
        assert all(width > 100 and height > 100 for _, width, height in printed), printed
        assert page.evaluate(_CLIPPED_TEXT) == [], "chart text outside its frame (print)"
        assert page.evaluate(_CROWDED_FIGURES) == [], "figures crowded (print)"
        style = "([s, p]) => getComputedStyle(document.querySelector(s))[p]"
        assert page.evaluate(style, ["nav", "display"]) == "none"
        assert page.evaluate(style, ["figure.chart", "breakInside"]) == "avoid"
        assert page.evaluate(style, ["caption", "breakAfter"]) == "avoid"
        assert page.evaluate(style, ["h2", "breakAfter"]) == "avoid"
        assert page.evaluate(style, [".table-wrap.short", "breakInside"]) == "avoid"
        assert page.evaluate(style, ["#appendix", "breakBefore"]) == "page"
        (screenshot_dir / f"{stem}-appendix.pdf").write_bytes(
            page.pdf(format="A4", prefer_css_page_size=True)
        )
        total = _pdf_pages(page)
        most_main, most_total = budget
        assert total <= most_total, f"{total} printed pages with the appendix ({most_total})"
    finally:
        page.close()
    body = write_output(folder / f"{stem}-body.html", render_html(prediction))
    main = _printed(browser, body, screenshot_dir, stem)
    assert main <= most_main, f"{main} pages printed by default (budget {most_main})"
    assert main < total


@pytest.mark.parametrize("case", sorted(report_fixtures.CASES))
def test_fixture_report_opens_clean_prints_within_budget_and_clips_nothing(
    case: str, browser: Any, tmp_path: Path, screenshot_dir: Path
) -> None:
    prediction = report_fixtures.CASES[case]()
    stem = f"fixture-{case}"
    _check_report(browser, prediction, tmp_path, screenshot_dir, stem, FIXTURE_PAGES[case])


@pytest.mark.parametrize("scenario_path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_shipped_scenario_report_opens_clean_prints_within_budget_and_clips_nothing(
    scenario_path: Path, browser: Any, tmp_path: Path, screenshot_dir: Path
) -> None:
    prediction = predicted(scenario_path)
    configs = len(prediction.configurations)
    # A page more for each analysis beyond the configurations (growth, a tier sweep, logs, an
    # uncertainty band, an application's users sweep, a sizing search), and one for every two
    # logs' striping tables.
    logs = len(prediction.baseline.logs)
    analyses = (
        int(any(p.growth for p in prediction.configurations))
        + int(bool(prediction.tier_sweep))
        + int(logs > 0)
        + logs // 2
        + int(prediction.baseline.band is not None)
        + int(prediction.baseline.application is not None)
        + int(prediction.sizing is not None)
    )
    budget = (BODY_PAGES, 7 + 2 * configs + analyses)
    _check_report(browser, prediction, tmp_path, screenshot_dir, scenario_path.stem, budget)


def test_the_bundled_example_prints_six_pages_and_its_appendix_only_when_asked(
    browser: Any, tmp_path: Path, screenshot_dir: Path
) -> None:
    """`make run`'s report, as the command line writes it, with and without --appendix."""
    from typer.testing import CliRunner

    from diskmodel.cli import app

    example = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
    pages = {}
    for flags in ((), ("--appendix",)):
        out = tmp_path / f"example{''.join(flags)}.html"
        result = CliRunner().invoke(app, ["run", str(example), "--out", str(out), "-q", *flags])
        assert result.exit_code == 0, result.output
        pages[flags] = _printed(browser, out, screenshot_dir, out.stem)
    assert pages[()] <= BODY_PAGES
    assert pages[("--appendix",)] >= pages[()] + 3  # the inputs, the detail, the catalog


def test_markup_in_names_renders_as_text_and_runs_nothing(
    browser: Any, tmp_path: Path, screenshot_dir: Path
) -> None:
    report = write_output(tmp_path / "hostile.html", render_html(report_fixtures.hostile()))
    page, log = _open(browser, report)
    try:
        _assert_clean(log, report.as_uri())
        assert page.evaluate("document.scripts.length") == 0
        assert page.evaluate("document.querySelectorAll('img, iframe, object').length") == 0
        assert page.inner_text("h1") == report_fixtures.HOSTILE
        assert page.title().startswith(report_fixtures.HOSTILE)
        assert page.inner_text(".description") == (
            "<img src=x onerror=alert(2)> & SSD, 15K and nearline."
        )
        assert "<script>alert(4)</script>" in page.inner_text(".answers")
        tables = page.inner_text("#tables")
        assert "pool <b>&amp;</b>" in tables
        workloads = page.inner_text("#inputs")
        assert '<script>alert(3)</script>&"' in workloads
        # Inside the charts the names are SVG text too, not elements.
        assert page.evaluate("document.querySelectorAll('svg script, svg svg').length") == 0
        title = page.evaluate(
            "document.querySelector('figure[id^=chart-skew] svg > title').textContent"
        )
        assert report_fixtures.HOSTILE in title
        assert "pool <b>&amp;</b>" in title
        page.screenshot(path=str(screenshot_dir / "hostile.png"), full_page=True)
    finally:
        page.close()
