"""The JSON result: schema 2, numbers carried not re-derived, finite, every field documented."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from diskmodel.report.json_result import SCHEMA_VERSION, result_data, to_json
from tests.report import report_fixtures

SCHEMA_DOC = Path(__file__).resolve().parents[2] / "docs" / "json-schema.md"
CASES = sorted(report_fixtures.CASES)


def _data(case: str) -> dict[str, Any]:
    return json.loads(to_json(report_fixtures.CASES[case]()))


def _walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    out = [(path, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for v in value:
            out += _walk(v, f"{path}[]")
    return out


def test_schema_version_is_2_and_the_document_says_so() -> None:
    assert SCHEMA_VERSION == 2
    assert _data("tiered")["schema_version"] == 2
    assert "`schema_version: 2`" in SCHEMA_DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_every_key_written_is_documented(case: str) -> None:
    doc = SCHEMA_DOC.read_text(encoding="utf-8")
    spans = re.findall(r"`([^`]+)`", doc)  # `key` and `{key, key, ...}` spans
    documented = {word for span in spans for word in re.findall(r"[a-z_]+", span)}
    keys = {
        path.rsplit(".", 1)[-1].removesuffix("[]")
        for path, _ in _walk(_data(case))
        if path and not path.endswith("[]")
    }
    missing = sorted(keys - documented)
    assert missing == [], f"keys missing from docs/json-schema.md: {missing}"


@pytest.mark.parametrize("case", CASES)
def test_every_number_is_finite(case: str) -> None:
    for path, value in _walk(_data(case)):
        if isinstance(value, float):
            assert math.isfinite(value), path


def test_a_hit_ratio_of_0_1_is_written_0_1() -> None:
    """Carried, not re-derived from fractions (version 1 wrote 0.09999999999999999)."""
    text = to_json(report_fixtures.open_comparison())
    data = json.loads(text)
    for config in data["configurations"]:
        assert config["inputs"]["workloads"][0]["read_hit_ratio"] == 0.1
        assert config["workloads"][0]["read_hit_ratio"] == 0.1
    assert "0.09999999999999999" not in text


def test_saturated_response_times_are_null_and_flagged() -> None:
    data = _data("open-comparison")
    seen = 0
    for config in data["configurations"]:
        for point in (*config["curve"], *config["growth"]):
            assert (point["response_time_ms"] is None) == point["saturated"]
            seen += point["saturated"]
    assert seen > 0


def test_an_unbounded_maximum_is_null_and_any_other_infinity_is_refused() -> None:
    import dataclasses

    prediction = report_fixtures.open_comparison()
    idle = dataclasses.replace(prediction.baseline, max_iops=math.inf)
    data = result_data(dataclasses.replace(prediction, baseline=idle))
    assert data["configurations"][0]["max_iops"] is None
    broken = dataclasses.replace(prediction.baseline, response_time_ms=math.nan)
    with pytest.raises(ValueError, match="non-finite"):
        result_data(dataclasses.replace(prediction, baseline=broken))


def test_layout_of_version_2() -> None:
    data = _data("tiered")
    config = data["configurations"][0]
    assert "growth" not in data
    assert {"inputs", "skew_curves", "service_level", "growth", "curve"} <= set(config)
    assert set(config["curve"][0]) == {
        "iops",
        "response_time_ms",
        "saturated",
        "busiest",
        "busiest_utilization",
        "tiers",
    }
    assert config["curve"][0]["tiers"][0]["pool"] == "mixed"
    assert config["inputs"]["ranks"][0]["ranks_per_server"] == [
        {"server": 0, "ranks": 2},
        {"server": 1, "ranks": 0},
    ]
    assert "planning_max_iops" in data["tier_sweep"][0]
    closed = _data("closed-comparison")["configurations"][0]["closed"]
    assert closed["population_kind"] == "queue_depth"


def test_same_prediction_gives_the_same_bytes() -> None:
    assert to_json(report_fixtures.open_comparison()) == to_json(report_fixtures.open_comparison())
