"""docs/scenario.md: every key of a scenario file, generated from the JSON Schema.

One table per section, in the order a file is written (the top level, then each section as
first named), each key with its type, default, allowed range and meaning.
`python -m diskmodel.scenario.reference` prints it; `make catalog` regenerates it with the other
generated files (docs/design.md, "Generated files") after the models change, and a test checks
it is current.
"""

from __future__ import annotations

import json
from typing import Any

from diskmodel.catalog import Catalog
from diskmodel.scenario.json_schema import scenario_json_schema

_BOUNDS = (
    ("exclusiveMinimum", "> {}"),
    ("minimum", ">= {}"),
    ("exclusiveMaximum", "< {}"),
    ("maximum", "<= {}"),
    ("minItems", "at least {} items"),
    ("maxItems", "at most {} items"),
    ("minLength", "at least {} characters"),
    ("maxLength", "at most {} characters"),
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and abs(value) >= 10_000 else f"{value:g}"


def _type(schema: dict[str, Any]) -> str:
    """A short type name: `number`, `[Skew](#skew)`, `list of [RankGroup](#rankgroup)`."""
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return f"[{name}](#{name.lower()})"
    if "anyOf" in schema:
        kinds = [_type(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(dict.fromkeys(kinds))
    if "enum" in schema:
        values = schema["enum"]
        shown = ", ".join(f"`{v}`" for v in values[:6])
        return f"one of {shown}" + (f" ... ({len(values)} names)" if len(values) > 6 else "")
    if "const" in schema:
        return f"`{schema['const']}`"
    kind = schema.get("type", "any")
    if kind == "array":
        if "prefixItems" in schema:
            return f"[{', '.join(_type(s) for s in schema['prefixItems'])}]"
        return f"list of {_type(schema.get('items', {}))}"
    if kind == "object":
        return "mapping"
    return str(kind)


def _bounds(schema: dict[str, Any]) -> str:
    parts = [
        template.format(_number(schema[key]))
        for key, template in _BOUNDS
        if key in schema and isinstance(schema[key], int | float)
    ]
    for option in schema.get("anyOf", []):
        if option.get("type") != "null":
            inner = _bounds(option)
            if inner:
                parts.append(inner)
    items = schema.get("items")
    if isinstance(items, dict) and "$ref" not in items:
        inner = _bounds(items)
        if inner:
            parts.append(f"each {inner}")
    prefix = schema.get("prefixItems")
    if prefix:
        inner = _bounds(prefix[0])
        if inner:
            parts.append(f"each {inner}")
    return ", ".join(dict.fromkeys(parts))


def _default(prop: dict[str, Any], required: bool) -> str:
    if required:
        return "required"
    if "default" not in prop or prop["default"] is None:
        return "-"
    value = prop["default"]
    if isinstance(value, dict | list):
        return "see the section" if value else "none"
    if isinstance(value, bool):  # before numbers: a bool is an int to Python, 0/1 on the page
        return f"`{'true' if value else 'false'}`"
    return f"`{json.dumps(value)}`" if isinstance(value, str) else f"`{_number(value)}`"


def _section_order(schema: dict[str, Any]) -> list[str]:
    """The sections in the order a scenario names them, depth first from the top."""
    order: list[str] = []

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref.split("/")[-1]
                if name not in order:
                    order.append(name)
                    visit(schema["$defs"][name].get("properties", {}))
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(schema["properties"])
    return order


def _table(section: dict[str, Any]) -> list[str]:
    required = set(section.get("required", []))
    rows = ["| key | type | default | allowed | meaning |", "|---|---|---|---|---|"]
    for key, prop in section.get("properties", {}).items():
        rows.append(
            "| "
            + " | ".join(
                [
                    f"`{key}`",
                    _cell(_type(prop)),
                    _default(prop, key in required),
                    _cell(_bounds(prop)) or "-",
                    _cell(prop.get("description", "")),
                ]
            )
            + " |"
        )
    return rows


def reference_markdown(catalog: Catalog | None = None) -> str:
    """The page: an introduction, then one table per section."""
    schema = scenario_json_schema(catalog)
    lines = [
        "# Scenario files: every key",
        "",
        "Generated from the scenario models by `python -m diskmodel.scenario.reference > "
        "docs/scenario.md`; a test checks it is up to date. The same facts are in the JSON "
        "Schema shipped at `diskmodel/scenario/scenario.schema.json`: put",
        "",
        "```yaml",
        "# yaml-language-server: $schema=../diskmodel/scenario/scenario.schema.json",
        "```",
        "",
        "on a scenario's first line (the path relative to the file) and an editor with the "
        "YAML language server completes keys and marks mistakes as you type. Units are in the "
        "key names: `_gb` decimal gigabytes, `_kib` KiB, `_ms` milliseconds, `iops` I/O per "
        "second; fractions are written 0 to 1. Numbers are written as numbers: not in quotes, "
        "without thousands separators or units. Names are compared after Unicode NFC "
        "normalisation and may not hold control, bidi or invisible characters. What spans "
        "several keys (a drive the system does not offer, data that does not fit its pool or "
        "its pinned tier, ranks per DA pair) is checked by `diskmodel check`. The domain's "
        "terms are explained in `docs/glossary.md`.",
        "",
        "## Scenario (the top level)",
        "",
        *_table(schema),
    ]
    for name in _section_order(schema):
        section = schema["$defs"][name]
        lines += ["", f"## {name}", ""]
        if section.get("description"):
            lines += [_cell(section["description"]), ""]
        lines += _table(section)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(reference_markdown(), end="")
