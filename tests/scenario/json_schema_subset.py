"""A validator for the part of JSON Schema (draft 2020-12) that pydantic emits, for the tests.

`jsonschema` is used instead when it is installed (the reference implementation); this keeps
the schema tests running where it is not. Keywords: type, enum, const, properties, required,
additionalProperties, items, prefixItems, minItems, maxItems, minProperties, minLength,
maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, anyOf, $ref to #/$defs.
An unknown keyword fails loudly, so a schema that outgrows the subset is noticed.
"""

from __future__ import annotations

from typing import Any

_IGNORED = {"title", "description", "default", "$schema", "$id", "$defs", "examples"}


def errors(schema: dict[str, Any], instance: Any) -> list[str]:
    """Every way `instance` breaks `schema`, as `path: problem` lines (empty: valid)."""
    try:
        import jsonschema
    except ImportError:
        out: list[str] = []
        _check(schema, schema, instance, "$", out)
        return out
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{e.json_path}: {e.message}" for e in validator.iter_errors(instance)]


def _is_type(value: Any, kind: str) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if isinstance(value, bool):
        return False
    if kind == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if kind == "number":
        return isinstance(value, int | float)
    raise AssertionError(f"unknown type {kind}")


def _check(
    root: dict[str, Any], schema: dict[str, Any], value: Any, at: str, out: list[str]
) -> None:
    for key in schema:
        if key not in _KEYWORDS and key not in _IGNORED:
            raise AssertionError(f"keyword {key!r} is outside the tested subset")
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        _check(root, root["$defs"][name], value, at, out)
    if "anyOf" in schema:
        branches = []
        for option in schema["anyOf"]:
            found: list[str] = []
            _check(root, option, value, at, found)
            branches.append(found)
        if all(branches):
            out.append(f"{at}: matches no option ({'; '.join(b[0] for b in branches)})")
    kind = schema.get("type")
    if kind is not None and not _is_type(value, kind):
        out.append(f"{at}: {value!r:.40} is not of type {kind}")
        return
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{at}: {value!r:.40} is not one of {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        out.append(f"{at}: {value!r:.40} is not {schema['const']!r}")
    number = isinstance(value, int | float) and not isinstance(value, bool)
    for key, broken in (
        ("minimum", lambda v, b: v < b),
        ("maximum", lambda v, b: v > b),
        ("exclusiveMinimum", lambda v, b: v <= b),
        ("exclusiveMaximum", lambda v, b: v >= b),
    ):
        if number and key in schema and broken(value, schema[key]):
            out.append(f"{at}: {value!r} breaks {key} {schema[key]}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            out.append(f"{at}: shorter than {schema['minLength']}")
        if len(value) > schema.get("maxLength", len(value)):
            out.append(f"{at}: longer than {schema['maxLength']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            out.append(f"{at}: fewer than {schema['minItems']} items")
        if len(value) > schema.get("maxItems", len(value)):
            out.append(f"{at}: more than {schema['maxItems']} items")
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            if i < len(prefix):
                _check(root, prefix[i], item, f"{at}[{i}]", out)
            elif "items" in schema:
                _check(root, schema["items"], item, f"{at}[{i}]", out)
    if isinstance(value, dict):
        if len(value) < schema.get("minProperties", 0):
            out.append(f"{at}: fewer than {schema['minProperties']} keys")
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{at}: {key} is required")
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                _check(root, properties[key], item, f"{at}.{key}", out)
            elif schema.get("additionalProperties") is False:
                out.append(f"{at}: unknown key {key!r}")


_KEYWORDS = {
    "$ref",
    "anyOf",
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "prefixItems",
    "items",
    "minProperties",
    "required",
    "properties",
    "additionalProperties",
}
