"""Every shipped scenario's HTML report, opened from disk in a real headless Chromium.

The browser is the operating system's Chromium (Debian package `chromium`, installed by
.ci/run), driven by Playwright through its executable path: no browser is downloaded. Each
report is predicted by the real model, written to a temporary folder and opened by file://
URL; the page must log no console error, make no request but itself, fail none, and show
every chart with a non-zero size, on screen and in print layout. A full-page screenshot of
each is written (to $DISKMODEL_SCREENSHOT_DIR when set, else a temporary folder) for a person
to look at. A scenario whose names are markup must render them as text and run no script.

Skips, with the reason, only when Chromium or Playwright is not installed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from diskmodel.model import predict
from diskmodel.report.html import write_report
from diskmodel.scenario import Scenario, load_scenario, validate_scenario
from diskmodel.yamlio import parse_yaml

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
SCENARIOS = sorted((Path(__file__).resolve().parent.parent.parent / "scenarios").glob("*.yaml"))

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


def _write(scenario: Scenario, folder: Path, stem: str) -> Path:
    prediction = predict(scenario)
    return write_report(prediction, folder / f"{stem}.html", scenarios=scenario.alternatives())


@pytest.mark.parametrize("scenario_path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_shipped_scenario_report_opens_clean_with_every_chart_visible(
    scenario_path: Path, browser: Any, tmp_path: Path, screenshot_dir: Path
) -> None:
    report = _write(load_scenario(scenario_path), tmp_path, scenario_path.stem)
    page, log = _open(browser, report)
    try:
        _assert_clean(log, report.as_uri())
        sizes = _chart_sizes(page)
        assert len(sizes) >= 3
        assert all(width > 100 and height > 100 for _, width, height in sizes), sizes
        # The answer is on the first screen: its first sentence starts above the fold.
        answer = page.query_selector(".answer .headline")
        assert answer is not None
        box = answer.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] < 900
        shot = screenshot_dir / f"{scenario_path.stem}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        page.emulate_media(media="print")
        printed = _chart_sizes(page)
        assert all(width > 100 and height > 100 for _, width, height in printed), printed
        assert page.evaluate("getComputedStyle(document.querySelector('nav')).display") == "none"
    finally:
        page.close()


HOSTILE_NAME = "<script>alert(1)</script> \"quoted\" & 'single' </title>"
HOSTILE_YAML = """\
schema_version: 1
name: '<script>alert(1)</script> "quoted" & ''single'' </title>'
description: '<img src=x onerror=alert(2)> & <b>bold?</b>'
system: {model: ds8800-951, processor_ways: 4, cache_gb: 128, host_ports: 8, da_pairs: 2}
pools:
  - name: 'pool <b>&amp;</b> "p"'
    easy_tier: auto
    ranks:
      - {drive: ssd-300, raid: raid5-6+p+s, count: 1}
      - {drive: 15k-300, raid: raid5-7+p, count: 5}
workloads:
  - {name: '<script>alert(3)</script>&"w"', pool: 'pool <b>&amp;</b> "p"', iops: 15000,
     read_fraction: 0.7, read_hit_ratio: 0.5, destage_ratio: 0.6, capacity_gb: 10000,
     skew: {level: high}}
analyses:
  compare:
    - name: '<svg onload=alert(4)> & more ranks'
      set: {system.da_pairs: 2}
"""


def test_markup_in_names_renders_as_text_and_runs_nothing(
    browser: Any, tmp_path: Path, screenshot_dir: Path
) -> None:
    scenario = validate_scenario(parse_yaml(HOSTILE_YAML, "hostile.yaml"))
    report = _write(scenario, tmp_path, "hostile")
    page, log = _open(browser, report)
    try:
        _assert_clean(log, report.as_uri())
        assert page.evaluate("document.scripts.length") == 0
        assert page.evaluate("document.querySelectorAll('img, iframe, object').length") == 0
        assert page.inner_text("h1") == HOSTILE_NAME
        assert page.title().startswith(HOSTILE_NAME)
        assert page.inner_text(".description") == "<img src=x onerror=alert(2)> & <b>bold?</b>"
        cards = page.inner_text(".answers")
        assert "<svg onload=alert(4)> & more ranks" in cards
        tables = page.inner_text("#tables")
        assert '<script>alert(3)</script>&"w"' in tables
        assert 'pool <b>&amp;</b> "p"' in tables
        # Inside the charts the names are SVG text too, not elements.
        assert page.evaluate("document.querySelectorAll('svg script, svg svg').length") == 0
        legend = page.evaluate(
            "Array.from(document.querySelectorAll('#chart-response text'))"
            ".map(t => t.textContent).join('|')"
        )
        assert "<svg onload=alert(4)> & more ranks" in legend
        page.screenshot(path=str(screenshot_dir / "hostile.png"), full_page=True)
    finally:
        page.close()
