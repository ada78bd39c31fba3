"""The copy services in the reports: the terminal summary, the HTML page (its table, charts and
alerts) and the JSON (new keys only where copy services are configured, every one documented)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from diskmodel.api import load_scenario, predict
from diskmodel.prediction import ScenarioPrediction
from diskmodel.report.html import render_html
from diskmodel.report.json_result import to_json
from diskmodel.report.text import render

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
SCHEMA_DOC = ROOT / "docs" / "json-schema.md"


@cache
def _predicted(name: str) -> ScenarioPrediction:
    path = SCENARIOS / name
    return predict(load_scenario(path), base_dir=path.parent, catalog_bands=False)


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_metro_mirror_summary_shows_its_parts_and_the_sweep() -> None:
    text = render(_predicted("ds8800-metro-mirror-distance.yaml"))
    assert "replication links" in text
    assert "Metro Mirror: a replicated write's parts" in text
    assert "Metro Mirror: write response time by distance" in text
    assert "secondary: ds8800-951, 2-way, 64 GB cache" in text


def test_global_mirror_summary_warns_that_two_lines_are_too_slow() -> None:
    text = render(_predicted("ds8800-global-mirror-week.yaml"))
    assert "warning: Global Mirror: the links are too slow for the peak" in text
    assert "3 link(s) carry the peak" in text


def test_the_page_has_the_table_the_charts_and_the_alerts() -> None:
    mm = render_html(_predicted("ds8800-metro-mirror-distance.yaml"), timestamp=False)
    assert 'id="chart-distance"' in mm
    assert "Copy services at the planned load" in mm
    gm = render_html(_predicted("ds8800-global-mirror-week.yaml"), timestamp=False)
    assert 'id="chart-links"' in gm
    assert "too slow for the peak" in gm
    fc = render_html(_predicted("ds8800-flashcopy-backup.yaml"), timestamp=False)
    assert "FlashCopy of oltp" in fc


@pytest.mark.parametrize(
    "name",
    [
        "ds8800-metro-mirror-distance.yaml",
        "ds8800-global-mirror-week.yaml",
        "ds8800-flashcopy-backup.yaml",
    ],
)
def test_every_copy_services_key_is_documented(name: str) -> None:
    doc = SCHEMA_DOC.read_text(encoding="utf-8")
    spans = re.findall(r"`([^`]+)`", doc)
    documented = {word for span in spans for word in re.findall(r"[a-z_]+", span)}
    data = json.loads(to_json(_predicted(name)))
    missing = sorted(_keys(data) - documented)
    assert missing == [], f"keys missing from docs/json-schema.md: {missing}"


def test_a_scenario_without_copy_services_writes_no_new_key() -> None:
    data = json.loads(to_json(_predicted("ds8800-15k-pool.yaml")))
    assert not {"copy_services", "replication"} & _keys(data)


@pytest.mark.parametrize(
    ("name", "opening"),
    [
        ("ds8800-metro-mirror-distance.yaml", "Metro Mirror: a replicated write waits 1 round"),
        ("ds8800-global-mirror-week.yaml", "Global Mirror: the links must carry"),
        ("ds8800-flashcopy-backup.yaml", "FlashCopy: a source track's first destage"),
    ],
)
def test_the_assumptions_state_what_the_copy_services_assume(name: str, opening: str) -> None:
    configs = _predicted(name).configurations
    assert any(a.startswith(opening) for a in configs[0].inputs.assumptions)
    stated = [c for c in configs if any(opening in a for a in c.inputs.assumptions)]
    # A FlashCopy alternative without the copy states no FlashCopy assumption.
    assert all(c.inputs.copy_services is not None for c in stated)
