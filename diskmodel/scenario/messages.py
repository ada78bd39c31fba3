"""pydantic's validation errors turned into located, one-line-each messages with hints.

Each line reads `FILE:LINE: key.path: what is wrong; what to do`, at most a dozen problems
listed. Hints cover the usual slips: a percentage where a fraction belongs (`read_fraction:
70`: did you mean 0.70?), a thousands separator that split a `{...}` mapping, a misspelt key.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from diskmodel.scenario.schema import Scenario
from diskmodel.scenario.values import clip
from diskmodel.yamlio import Located

MAX_PROBLEMS = 12
"""Problems listed in one message; the rest are counted."""


def format_errors(exc: ValidationError, located: Located, prefix: Sequence[str | int] = ()) -> str:
    lines = []
    errors = _without_misspelt(
        [e for e in exc.errors(include_url=False) if not _other_shape(e)],
        located.data if not prefix else None,
    )
    seen: set[str] = set()
    for error in errors[:MAX_PROBLEMS]:
        loc = _input_loc(error["loc"], located.data if not prefix else None)
        message = _message(error, loc)
        if message in seen and " (" in message:
            # The same long explanation (a list of allowed keys) once is enough: a mistake
            # repeated in every workload would otherwise repeat it in every line.
            message = message.split(" (", 1)[0] + " (as above)"
        else:
            seen.add(message)
        if error["type"] == "scenario_rule" and not loc:
            # Whole-scenario cross-checks name their own key path, one problem a line.
            for part in message.split("\n"):
                path = _parse_dotted(part.split(": ", 1)[0])
                lines.append(f"{where(located, [*prefix, *path])}: {part}")
            continue
        key = _dotted(loc)
        lines.append(f"{where(located, [*prefix, *loc])}: {key + ': ' if key else ''}{message}")
    if len(errors) > MAX_PROBLEMS:
        lines.append(f"... and {len(errors) - MAX_PROBLEMS} more problems")
    return "\n".join(lines)


def format_alternative_errors(
    exc: ValidationError,
    located: Located,
    index: int,
    name: str,
    settings: dict[str, Any],
    base: dict[str, Any],
) -> str:
    """The problems of one `analyses.compare` alternative, each at the line of the `set` key
    that causes it (`workloads.oltp.read_fraction: 70` under `set:`, not the `compare:` line)
    and named by it; a problem no single key causes (the ranks no longer hold the data) at
    the alternative's `set:`."""
    from diskmodel.scenario.overrides import settings_path

    resolved = [(key, settings_path(base, key)) for key in settings]
    at_set: list[str | int] = ["analyses", "compare", index, "set"]
    lines = []
    errors = [e for e in exc.errors(include_url=False) if not _other_shape(e)]
    for error in errors[:MAX_PROBLEMS]:
        loc = _input_loc(error["loc"], None)
        cause = max(
            ((key, path) for key, path in resolved if path and loc[: len(path)] == path),
            key=lambda found: len(found[1]),
            default=None,
        )
        message = _message(error, loc)
        if cause is None:
            lines.append(f"{where(located, at_set)}: analyses.compare[{clip(name)}]: {message}")
            continue
        key, path = cause
        rest = loc[len(path) :]
        shown_key = key + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in rest)
        lines.append(
            f"{where(located, [*at_set, key, *rest])}: analyses.compare[{clip(name)}].set: "
            f"{clip(shown_key)}: {message}"
        )
    if len(errors) > MAX_PROBLEMS:
        lines.append(f"... and {len(errors) - MAX_PROBLEMS} more problems")
    return "\n".join(lines)


def _without_misspelt(errors: list[Any], data: Any) -> list[Any]:
    """The errors without "required but missing" for a key written misspelt beside it
    (`capacty_gb: 1000` reports the unknown key and suggests capacity_gb; that capacity_gb is
    then missing says the same thing again, and said it first)."""
    meant = set()
    for error in errors:
        if error["type"] == "extra_forbidden":
            loc = _input_loc(error["loc"], data)
            close = difflib.get_close_matches(str(loc[-1]), _allowed_keys(loc[:-1]), 1, 0.6)
            if close:
                meant.add((*loc[:-1], close[0]))
    return [
        e
        for e in errors
        if not (e["type"] == "missing" and tuple(_input_loc(e["loc"], data)) in meant)
    ]


def where(located: Located, path: Sequence[str | int]) -> str:
    line = located.line_of(path)
    return f"{located.source}:{line}" if line else located.source


def _input_loc(loc: Sequence[str | int], data: Any) -> list[str | int]:
    """The error's location as key path in the file: pydantic's union-member tags removed.

    A tag (`float`, `tuple[...]`, `function-...`) is dropped only where the file has no key of
    that name: a scenario may well hold a (misplaced) key called `float` or `str`.
    """
    out: list[str | int] = []
    node = data
    for part in loc:
        present = (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        )
        if present:
            node = node[part]
        elif _is_union_tag(part):
            continue
        else:
            node = None
        out.append(part)
    return out


def _other_shape(error: Any) -> bool:
    """An error from the member of a union (a number, or a range [low, high] of them) that
    the value's shape rules out: a list read as a number, or a number read as a list. The
    member of its shape reports what is wrong with it, once."""
    loc = error["loc"]
    if not loc or not _is_union_tag(loc[-1]):
        return False
    value = error.get("input")
    if error["type"] in {"float_type", "int_type"}:
        return isinstance(value, list | tuple)
    if error["type"] in {"tuple_type", "list_type"}:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return False


def _is_union_tag(part: str | int) -> bool:
    return isinstance(part, str) and (
        part.startswith(("function-", "literal[", "tuple[", "constrained-"))
        or part in {"float", "int", "str"}
    )


def _message(error: Any, loc: Sequence[str | int]) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        return _unknown_key(loc)
    if kind == "missing":
        return "is required but missing"
    if kind == "literal_error":
        return f"{shown(error.get('input'))} is not allowed; {error['msg'].replace('Input', 'it')}"
    value = shown(error.get("input"))
    text = str(error["msg"])
    for old, new in (("Value error, ", ""), ("Input should be", "must be")):
        text = text.replace(old, new)
    if kind in {"scenario_rule", "unknown_name"}:
        return text
    hint = _percent_hint(error, loc) or _saturated_hint(error, loc) or _list_hint(error)
    return f"{value} is not allowed: {text}{hint}" if value else text


def _percent_hint(error: Any, loc: Sequence[str | int] = ()) -> str:
    """`read_fraction: 70` is a percentage written where a fraction belongs, and so is
    `growth: {rate: 30}` (a rate per period, 0.3 for 30%)."""
    value = error.get("input")
    limit = (error.get("ctx") or {}).get("le")
    if error["type"] != "less_than_equal" or not isinstance(value, int | float):
        return ""
    if isinstance(value, bool) or not 1 < value <= 100:
        return ""
    if limit == 1:
        return f"; a fraction is written 0 to 1: did you mean {value / 100:.2f}?"
    if loc and loc[-1] == "rate":
        return (
            f"; a rate is written as a fraction per period (0.3 for 30%): did you mean "
            f"{value / 100:.2f}?"
        )
    return ""


def _list_hint(error: Any) -> str:
    """`growth: {factors: 1.3}`: one value where a list belongs."""
    value = error.get("input")
    if error["type"] == "list_type" and isinstance(value, int | float | str):
        return f"; write a list, even of one: [{shown(value)}]"
    return ""


def _saturated_hint(error: Any, loc: Sequence[str | int]) -> str:
    """`utilization_target: 1.0`: a tier kept at 100% busy is a saturated one."""
    if error["type"] == "less_than" and loc and loc[-1] == "utilization_target":
        return (
            " (a tier 100% busy is saturated, with no response time: give the highest "
            "utilisation Easy Tier lets it reach, 0.8 by default)"
        )
    return ""


def _unknown_key(loc: Sequence[str | int]) -> str:
    key = str(loc[-1])
    allowed = _allowed_keys(loc[:-1])
    if key.isdigit():
        # `{capacity_gb: 10,000}`: in a flow mapping the comma ends the value, and `000`
        # becomes a key of its own.
        return (
            "unknown key: a number where a key belongs. Is it the rest of a number written "
            "with a thousands separator (capacity_gb: 10,000)? In a {...} mapping a comma starts "
            f"a new key: write 10000 (allowed keys here: {', '.join(allowed)})"
        )
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown key{hint} (allowed keys here: {', '.join(allowed)})"


def shown(value: Any) -> str:
    if isinstance(value, dict | list):
        return ""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _allowed_keys(loc: Sequence[str | int]) -> list[str]:
    model: Any = Scenario
    for part in loc:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part) if hasattr(model, "model_fields") else None
        if field is None:
            return []
        model = _model_in(field.annotation)
        if model is None:
            return []
    return sorted(model.model_fields) if hasattr(model, "model_fields") else []


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _dotted(loc: Sequence[str | int]) -> str:
    out = ""
    for part in loc:
        name = clip(str(part))
        out += f"[{part}]" if isinstance(part, int) else (f".{name}" if out else name)
    return out


def _parse_dotted(text: str) -> list[str | int]:
    parts: list[str | int] = []
    for piece in text.replace("]", "").split("."):
        name, *indices = piece.split("[")
        if name:
            parts.append(name)
        parts.extend(int(i) for i in indices if i.isdigit())
    return parts
