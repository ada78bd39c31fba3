"""The JSON Schema of the result (issue 31 item 7): generated from the models written out,
published as docs/result.schema.json, and every result diskmodel writes valid against it.
Before, the result had a hand-written description (docs/json-schema.md) and nothing a
program could check a result against."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diskmodel.api import to_json
from diskmodel.report.json_result import sizing_json
from diskmodel.report.result_schema import result_json_schema, schema_text

from ..conftest import ROOT, SCENARIOS
from ..scenario.json_schema_subset import errors
from ..support.shipped import predicted

PUBLISHED = ROOT / "docs" / "result.schema.json"


def test_the_published_schema_is_the_one_the_models_give() -> None:
    assert PUBLISHED.read_text(encoding="utf-8") == schema_text(), (
        "docs/result.schema.json is stale: make catalog"
    )


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_s_result_is_valid(path: Path) -> None:
    result = json.loads(to_json(predicted(path)))
    assert errors(json.loads(PUBLISHED.read_text(encoding="utf-8")), result) == []


def test_a_sizing_result_is_valid_against_its_document() -> None:
    path = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"
    prediction = predicted(path)
    assert prediction.sizing is not None
    schema = result_json_schema()
    document = {**schema["$defs"]["SizingDocument"], "$defs": schema["$defs"]}
    assert errors(document, json.loads(sizing_json(prediction.sizing))) == []


def test_the_schema_refuses_what_the_writer_never_writes() -> None:
    """A check that can fail: an unknown key, a missing key, a string for a number."""
    path = ROOT / "scenarios" / "c5-auto-rebalance.yaml"
    result = json.loads(to_json(predicted(path)))
    schema = result_json_schema()
    broken = json.loads(json.dumps(result))
    broken["configurations"][0]["extra"] = 1
    del broken["configurations"][0]["curve"][0]["busiest"]
    broken["configurations"][0]["max_iops"] = "many"
    found = errors(schema, broken)
    assert any("extra" in e for e in found)
    assert any("busiest is required" in e for e in found)
    assert any("max_iops" in e for e in found)
    unbounded = json.loads(json.dumps(result))
    unbounded["configurations"][0]["max_iops"] = None  # an idle configuration: no bound
    assert errors(schema, unbounded) == []
