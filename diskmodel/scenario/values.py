"""The value types of a scenario file and their checks: names, fractions, numbers, text.

A name (of a scenario, pool, workload, alternative, catalog entry) is shown in terminals,
charts and reports, and matched against other names in the file, so it is normalised once:
Unicode NFC (the two ways of writing "café" become one), surrounding spaces removed. It is
refused when nothing visible is left, or when it holds a control character (an ANSI escape
rewrites a terminal), a bidi override or isolate (it reorders what is shown: "Trojan source"),
or an invisible formatting character (a zero-width space makes two names look the same).

Numbers are read as numbers only: `"5000"` in quotes, `10,000` with a thousands separator,
`128GB` with a unit and `count: 4.0` are refused with the fix, not silently converted.
"""

from __future__ import annotations

import difflib
import functools
import math
import re
import types
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.errors import InputError

MAX_NAME_CHARS = 80


class ScenarioError(InputError):
    """A scenario file that does not validate; the message lists every problem found."""


def problem(message: str) -> PydanticCustomError:
    """A validation error whose text is `message` as written."""
    # The text goes in as context, never as the template: a name from the file may hold braces.
    return PydanticCustomError("scenario_rule", "{text}", {"text": message})


_RANGE_OF = {"iops": (" of the planned rate", " (the curve's span is iops_range)")}
"""What a range means, and the hint, where a neighbouring key could be mistaken for it."""


def ordered_range(value: Any, info: ValidationInfo) -> Any:
    """A field validator: an input given as a range [low, high] needs low < high (a single
    value passes as it is)."""
    if isinstance(value, tuple) and not value[0] < value[1]:
        meaning, hint = _RANGE_OF.get(info.field_name or "", ("", ""))
        # The message follows the key's path (scenario.messages), so it does not repeat it.
        raise problem(f"a range{meaning} is [low, high] with low < high{hint}")
    return value


def clip(text: str, limit: int = 60) -> str:
    """Text from the file, shortened for a message (a 10,000-character name is not echoed)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def listed(items: Iterable[Any]) -> str:
    """`a, b, c`, sorted."""
    return ", ".join(str(i) for i in sorted(items, key=str))


def either(items: Sequence[int]) -> str:
    """`2 or 4`."""
    return " or ".join(str(i) for i in items)


def unknown(kind: str, name: str, allowed: Iterable[str]) -> PydanticCustomError:
    """An error naming an unknown `kind` of thing, with the closest allowed name as a hint."""
    allowed = sorted(allowed)
    close = closest(name, allowed)
    hint = f"; did you mean '{close}'?" if close else ""
    return PydanticCustomError(
        "unknown_name",
        "unknown {kind} '{name}'{hint} (allowed: {allowed})",
        {"kind": kind, "name": clip(name), "hint": hint, "allowed": ", ".join(allowed)},
    )


def closest(name: str, allowed: Sequence[str]) -> str | None:
    """The allowed name a mistyped `name` most likely means: the same but for case
    (`DS8800-951`), the only one it begins (`ds8800`, `DS8800` for ds8800-951), else the
    closest spelling, compared without case; None when none is close."""
    lowered = {a.lower(): a for a in allowed}
    wanted = name.strip().lower()
    if wanted in lowered:
        return lowered[wanted]
    starts = [a for a in allowed if wanted and a.lower().startswith(wanted)]
    if len(starts) == 1:
        return starts[0]
    close = difflib.get_close_matches(wanted, list(lowered), n=1, cutoff=0.6)
    return lowered[close[0]] if close else None


def known(kind: str, name: str, names: Iterable[str]) -> str:
    """`name` if it is one of `names`, else an error listing them with a suggestion."""
    if name not in names:
        raise unknown(kind, name, names)
    return name


def catalog_of(info: ValidationInfo) -> Catalog:
    """The catalog a validation runs against (the `catalog` in its context, else the shipped)."""
    context = info.context or {}
    catalog = context.get("catalog")
    return catalog if isinstance(catalog, Catalog) else load_catalog()


# ----------------------------------------------------------------------------------- text

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Characters that change the order in which text is displayed (Unicode bidi controls)."""

_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern)."""


def character_name(char: str) -> str:
    """`U+200B (ZERO WIDTH SPACE)`: a character described without showing it."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def _hidden(char: str) -> bool:
    """Controls, formatting characters (zero-width, bidi, BOM), line separators, surrogates."""
    return unicodedata.category(char) in {"Cc", "Cf", "Zl", "Zp", "Cs"}


def _visible(char: str) -> bool:
    return (
        unicodedata.category(char) not in {"Zs", "Mn", "Me", "Cc", "Cf", "Zl", "Zp", "Cs"}
        and char not in _BLANK_LETTERS
    )


def normal_name(text: str) -> str:
    """`text` as a name: NFC, surrounding spaces removed; refused if not visible plain text."""
    name = unicodedata.normalize("NFC", text).strip()
    # Printable ASCII (most names) holds no hidden character, and every character but the
    # space is visible: the checks below, without looking at each character in Python.
    plain = name.isascii() and name.isprintable()
    bad = None if plain else next((c for c in name if _hidden(c)), None)
    if bad is not None:
        kind = (
            "bidi control"
            if bad in BIDI_CONTROLS
            else "control character"
            if unicodedata.category(bad) == "Cc"
            else "invisible character"
        )
        raise problem(
            f"holds the {kind} {character_name(bad)}; a name is visible text "
            "(it is shown in terminals and reports, and must not look like another name)"
        )
    if not (name if plain else any(_visible(c) for c in name)):
        raise problem("is empty or blank; a name needs at least one visible character")
    if len(name) > MAX_NAME_CHARS:
        raise problem(f"is {len(name)} characters long; a name has at most {MAX_NAME_CHARS}")
    return name


def _unprintable(char: str) -> bool:
    """A control character (category Cc) other than a tab or line break, or a bidi control."""
    return (unicodedata.category(char) == "Cc" and char not in "\t\n\r") or char in BIDI_CONTROLS


_UNPRINTABLE = re.compile(
    "["
    + "".join(re.escape(c) for c in map(chr, range(0x100)) if _unprintable(c))
    + "".join(map(re.escape, sorted(BIDI_CONTROLS)))
    + "]"
)
"""`_unprintable`'s characters as one class, searched in C (free text is validated at every
configuration a sizing search makes; a character at a time in Python it was a third of the
validation). The controls (Cc) are U+0000-U+001F and U+007F-U+009F, a set Unicode's stability
policy keeps as it is; tests/scenario/test_printable_text.py checks every code point."""


def printable_text(text: str) -> str:
    """Free text (a description): tabs and line breaks allowed, other controls and bidi
    overrides refused."""
    found = _UNPRINTABLE.search(text)
    if found is not None:
        raise problem(
            f"holds the control character {character_name(found.group())}; use printable text"
        )
    return text


def file_reference(text: str) -> str:
    """A path written in the scenario (a heat map): printable, on one line, not empty."""
    if "\0" in text:
        raise problem("holds a NUL byte; a file name cannot")
    bad = next((c for c in text if _hidden(c)), None)
    if bad is not None:
        raise problem(
            f"holds the invisible character {character_name(bad)}; write the file name plainly"
        )
    if not text.strip():
        raise problem("is empty; give the heat map's file name")
    return text


Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS), AfterValidator(normal_name)]
Fraction = Annotated[float, Field(ge=0.0, le=1.0)]


# -------------------------------------------------------------------------------- numbers

_NUMBER_TEXT = re.compile(
    r"\s*(?P<number>[-+]?(?:\d[\d,_']*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(?P<unit>.*?)\s*"
)


def _numeric(annotation: Any) -> str | None:
    """'int' or 'float' if `annotation` takes a number and never text, else None."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _numeric(get_args(annotation)[0])
    if origin is Literal:
        values = get_args(annotation)
        numeric = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        return "int" if values and numeric else None
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        kinds = [_numeric(a) for a in args]
        if any(k is None for k in kinds):
            return None
        return "float" if "float" in kinds else "int"
    if annotation is int:
        return "int"
    if annotation is float:
        return "float"
    return None


def number_slip(annotation: Any, value: Any) -> str | None:
    """What is wrong with `value` where `annotation` wants numbers, as a hint; None if nothing.

    Walks lists and tuples (`points`, `iops_range`, `factors`) down to their numbers.
    """
    kind = _numeric(annotation)
    if kind is not None:
        return _scalar_slip(kind, value)
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Annotated:
        return number_slip(args[0], value)
    if origin in (Union, types.UnionType):
        # A number or a range of them (`read_fraction: 0.7` or `[0.6, 0.8]`): the member of
        # the value's shape.
        listed = isinstance(value, list | tuple)
        inner = [
            a
            for a in args
            if a is not type(None) and (_sequence(a) if listed else _numeric(a) is not None)
        ]
        if len(inner) == 1:
            return number_slip(inner[0], value)
        return None
    if origin is list and args and isinstance(value, list):
        return next((s for v in value if (s := number_slip(args[0], v))), None)
    if origin is tuple and args and isinstance(value, list | tuple):
        items = args if not (len(args) == 2 and args[1] is Ellipsis) else (args[0],) * len(value)
        return next(
            (s for a, v in zip(items, value, strict=False) if (s := number_slip(a, v))), None
        )
    return None


def _may_slip(annotation: Any) -> bool:
    """Whether `number_slip` can find anything for some value of `annotation`: a number
    somewhere in it (a text, a name, a section never has one)."""
    if _numeric(annotation) is not None:
        return True
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _may_slip(args[0])
    if origin in (Union, types.UnionType, list, tuple):
        return any(_may_slip(a) for a in args if a is not type(None) and a is not Ellipsis)
    return False


@functools.cache
def _field_slips(model: type[BaseModel], name: str) -> Any:
    """The annotation of `model`'s field `name` where a number may slip in it, else None (a
    field without numbers): worked out once per field, not at every value a validation reads
    (a sizing search validates thousands of scenarios)."""
    annotation = model.model_fields[name].annotation
    return annotation if _may_slip(annotation) else None


@functools.cache
def _field_check(model: type[BaseModel], name: str) -> tuple[bool, Any, str | None]:
    """How `Model._numbers_as_numbers` checks `model`'s field `name`, worked out once per
    field: whether at all (not a yes/no field, nor one the model does not have), the
    annotation where a number may slip in (`_field_slips`, else None), and the kind of number
    ('int', 'float') where the field is a number alone (`_numeric`, else None)."""
    field = model.model_fields.get(name)
    if field is None or field.annotation is bool:
        return False, None, None
    numbers = _field_slips(model, name)
    return True, numbers, None if numbers is None else _numeric(numbers)


def _sequence(annotation: Any) -> bool:
    """Whether `annotation` takes a list or tuple."""
    return get_origin(annotation) in (list, tuple)


def _scalar_slip(kind: str, value: Any) -> str | None:
    if isinstance(value, bool):
        return "true/false is not allowed here; give a number"
    if isinstance(value, str):
        return _text_for_number(value)
    if kind == "int" and isinstance(value, float) and math.isfinite(value):
        if value.is_integer():
            # 1e+308 is "integer" too: its 309 digits are no help (found by fuzzing).
            hint = f"write {int(value)}" if abs(value) < 1e15 else "give a whole number"
            return f"{value!r} is not a whole number as written; {hint}"
        return f"{value!r} is not a whole number; give a count"
    return None


def _text_for_number(text: str) -> str | None:
    """A hint for a number written as text, or None if `text` is no number at all."""
    match = _NUMBER_TEXT.fullmatch(text)
    if match is None:
        return None
    number, unit = match.group("number"), match.group("unit")
    shown = f"'{clip(text, 30)}'"
    digits = number.replace(",", "").replace("_", "").replace("'", "")
    try:
        as_float = float(digits)
    except ValueError:
        return None
    plain = f"{as_float:g}" if not digits.lstrip("+-").isdigit() else digits
    if unit == "%":
        return f"{shown}: write a fraction, not a percentage: {as_float / 100:g}"
    if unit:
        return (
            f"{shown}: write the number alone ({plain}); the unit is in the key's name "
            "(_gb gigabytes, _kib KiB, _ms milliseconds, iops I/O per second)"
        )
    if digits != number:
        return (
            f"{shown}: write {plain} without a thousands separator (YAML reads 10,000 as text, "
            "and in a {…} mapping the comma starts a new key)"
        )
    return f"{shown} is text in quotes; write the number without quotes: {plain}"


class Model(BaseModel):
    """The base of every scenario section: unknown keys refused, frozen, no NaN, no infinity."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, allow_inf_nan=False, strict=False, validate_default=True
    )

    @field_validator("*", mode="before")
    @classmethod
    def _numbers_as_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        # pydantic's lax mode reads true/false as 1/0, "5000" as 5000 and 4.0 as 4: `iops:
        # true` would silently plan for 1 I/O/s. Only a field declared yes/no takes true/false
        # and only a number is a number. Nested sections are checked by their own models.
        checked, numbers, kind = _field_check(cls, info.field_name or "")
        if not checked:
            return value
        if kind is not None:  # a number alone: what number_slip would look at first
            slip = _scalar_slip(kind, value)
        else:
            slip = None if numbers is None else number_slip(numbers, value)
        if slip is None and _holds_bool(value):
            slip = "true/false is not allowed here; give a number or a name"
        if slip is not None:
            raise problem(slip)
        return value


def _holds_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    return isinstance(value, list | tuple) and any(_holds_bool(v) for v in value)
