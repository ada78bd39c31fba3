"""The JSON Schema of the machine-readable result (`diskmodel run --json`), generated from the
models that are written out (`diskmodel.prediction`), and published as
docs/result.schema.json beside its prose description, docs/json-schema.md.

The result is the `ScenarioPrediction` written field by field (`report.json_result`), so its
schema is the models' own (pydantic reads the dataclasses and their docstrings, which become
the descriptions), with the few things the writer does to them written in here once:

- every key is always written, so every property is required, and no other key appears;
  except those written only where they apply (`json_result.OMITTED_WHEN_NONE`: a z/OS
  workload's `rmf`, the copy services' `inputs.copy_services` and a replicated workload's
  `replication`), which are optional and never null;
- a maximum rate no station bounds (`json_result.UNBOUNDED_KEYS`) is `null`;
- a rank group's placement (`json_result.PLACED`) is a list of `{da_pair, ranks}` and
  `{server, ranks}` objects, not pairs;
- defaults are left out (the writer writes every value, defaulted or not).

`$defs.SizingDocument` is the document of `diskmodel size --json`. `python -m
diskmodel.report.result_schema` prints it; `make catalog` regenerates it after a model changes
(docs/design.md, "Generated files"), and a test checks the published file is current and that
every shipped scenario's result, and a sizing result, validate against it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from diskmodel.prediction import CalibrationResult, Prediction, SizingResult, TierSweepPoint
from diskmodel.report.json_result import (
    OMITTED_WHEN_NONE,
    PLACED,
    SCHEMA_VERSION,
    UNBOUNDED_KEYS,
)

SCHEMA_ID = "https://diskmodel.invalid/result.schema.json"
"""The schema's `$id`: a name, not an address that is fetched (`.invalid` never resolves)."""


@dataclasses.dataclass(frozen=True)
class ResultDocument:
    """The result of `diskmodel run --json` and `diskmodel compare --json` (docs/json-schema.md):
    the scenario's configurations (the baseline first, then each alternative), its tier sweep,
    its sizing search and the calibration it carries (null: none)."""

    schema_version: int
    generator: str
    scenario: str
    description: str
    configurations: tuple[Prediction, ...]
    tier_sweep: tuple[TierSweepPoint, ...]
    sizing: SizingResult | None
    calibration: CalibrationResult | None


@dataclasses.dataclass(frozen=True)
class SizingDocument:
    """The result of `diskmodel size --json`: the sizing search alone."""

    schema_version: int
    generator: str
    sizing: SizingResult


def result_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the result (module docstring)."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(ResultDocument).json_schema(mode="serialization")
    sizing = TypeAdapter(SizingDocument).json_schema(mode="serialization")
    defs = {**schema.pop("$defs"), **sizing.pop("$defs")}
    defs["SizingDocument"] = sizing
    for section in (schema, *defs.values()):
        _strict(section)
    for document in (schema, defs["SizingDocument"]):
        document["properties"]["schema_version"] = {"const": SCHEMA_VERSION}
        document["properties"]["generator"] = {
            "type": "string",
            "description": "diskmodel and its version, e.g. 'diskmodel 0.1.0'",
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        **schema,
        "$defs": dict(sorted(defs.items())),
    }


def _strict(section: dict[str, Any]) -> None:
    """Every property required, no other allowed, no defaults; the writer's changes."""
    properties = section.get("properties")
    if not isinstance(properties, dict):
        return
    section["required"] = [key for key in properties if key not in OMITTED_WHEN_NONE]
    section["additionalProperties"] = False
    for key, prop in properties.items():
        _drop_defaults(prop)
        if key in OMITTED_WHEN_NONE:
            # Left out, never null: the schema of the value alone.
            properties[key] = next(
                (a for a in prop.get("anyOf", []) if a.get("type") != "null"), prop
            )
        if key in UNBOUNDED_KEYS:
            properties[key] = _nullable_numbers(prop)
        if key in PLACED:
            properties[key] = {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {PLACED[key]: {"type": "integer"}, "ranks": {"type": "integer"}},
                    "required": [PLACED[key], "ranks"],
                    "additionalProperties": False,
                },
            }


def _drop_defaults(node: Any) -> None:
    if isinstance(node, dict):
        node.pop("default", None)
        for value in node.values():
            _drop_defaults(value)
    elif isinstance(node, list):
        for value in node:
            _drop_defaults(value)


def _nullable_numbers(node: Any) -> Any:
    """`node` with every plain number schema in it allowed to be null as well."""
    if isinstance(node, dict):
        if node.get("type") == "number":
            rest = {k: v for k, v in node.items() if k != "type"}
            return {**rest, "anyOf": [{"type": "number"}, {"type": "null"}]}
        return {k: _nullable_numbers(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_nullable_numbers(v) for v in node]
    return node


def schema_text() -> str:
    """The schema as published: JSON, two-space indented, ending in a newline."""
    return json.dumps(result_json_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")
