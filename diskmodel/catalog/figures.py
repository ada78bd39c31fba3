"""A catalog figure and where it comes from: every number of a catalog entry is written
`{value, source | basis, range?, fitted?}` in its file, and `Sourced` (the base of every entry)
splits it into the plain number and its `Provenance`; `iter_figures` lists an entry's figures
with theirs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from diskmodel.catalog.bounds import checked_figure

_FIGURE_KEYS = frozenset({"value", "source", "basis", "range", "fitted"})
FROM_FILE = "catalog_file"
"""Validation-context flag: the data comes from a YAML file, where every figure is sourced."""


class Provenance(BaseModel):
    """Where a figure comes from: a published `source`, a derivation `basis`, or both; for an
    estimate the `range` [low, high] it could lie in; for a figure chosen to reproduce a
    published measurement, `fitted`: which one."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str | None = None
    basis: str | None = None
    range: tuple[float, float] | None = None
    fitted: str | None = None

    @model_validator(mode="after")
    def _says_something(self) -> Provenance:
        if not (self.source or "").strip() and not (self.basis or "").strip():
            raise ValueError("a figure needs a non-empty 'source' or 'basis'")
        if self.range is not None and not self.range[0] <= self.range[1]:
            raise ValueError(f"range {list(self.range)} must be [low, high] with low <= high")
        if self.fitted is not None and not self.fitted.strip():
            raise ValueError("'fitted' names the published figure the value was chosen for")
        return self

    def text(self) -> str:
        """One line for humans: the source, the basis, the range, what it was fitted to."""
        parts = []
        if self.source:
            parts.append(f"source: {self.source.strip()}")
        if self.basis:
            parts.append(f"basis: {self.basis.strip()}")
        if self.range is not None:
            parts.append(f"range: {self.range[0]:g} to {self.range[1]:g}")
        if self.fitted:
            parts.append(f"fitted to: {self.fitted.strip()}")
        return "; ".join(parts)


def _is_figure_value(raw: Any) -> bool:
    """True for a number (not a bool) or a non-empty list of numbers."""
    if isinstance(raw, bool):
        return False
    if isinstance(raw, int | float):
        return True
    return (
        isinstance(raw, list)
        and bool(raw)
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in raw)
    )


class Sourced(BaseModel):
    """Base of every catalog entry: splits `{value, source|basis}` figures into value + provenance.

    `provenance[key]` holds the `Provenance` of each figure `key` of this entry (nested
    entries such as a host adapter type keep their own).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    label_fields: ClassVar[frozenset[str]] = frozenset()
    """Numeric fields that are names, not measurements (e.g. RAID `level`): no provenance."""

    provenance: dict[str, Provenance] = Field(default_factory=dict, repr=False)

    @model_validator(mode="before")
    @classmethod
    def _split_figures(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, Mapping):
            return data  # a type error pydantic reports
        if "provenance" in data:
            if (info.context or {}).get(FROM_FILE):
                raise ValueError(
                    "'provenance' is not written in a catalog file: give each figure its own "
                    "source or basis, as {value: ..., source: ...}"
                )
            return data  # built in Python from already-split values (e.g. a model_dump)
        values: dict[str, Any] = {}
        provenance: dict[str, Any] = {}
        for key, raw in data.items():
            if isinstance(raw, Mapping) and "value" in raw:
                unknown = set(raw) - _FIGURE_KEYS
                if unknown:
                    raise ValueError(
                        f"figure {key!r} has unknown keys {sorted(unknown)}; a figure is "
                        "{value, source} or {value, basis} (or both), with an optional "
                        "range: [low, high] and fitted: <the figure it was chosen for>"
                    )
                if (
                    not str(raw.get("source") or "").strip()
                    and not str(raw.get("basis") or "").strip()
                ):
                    raise ValueError(f"figure {key!r} needs a non-empty 'source' or 'basis'")
                values[key] = raw["value"]
                provenance[key] = {k: raw[k] for k in _FIGURE_KEYS - {"value"} if k in raw}
                span = raw.get("range")
                if span is not None and (
                    not _is_figure_value(span)
                    or not isinstance(span, list)
                    or len(span) != 2
                    or not span[0] <= span[1]
                ):
                    raise ValueError(
                        f"figure {key!r}: a range is [low, high] with low <= high, got {span!r}"
                    )
                if (
                    span is not None
                    and _is_figure_value(raw["value"])
                    and not isinstance(raw["value"], list)
                    and not span[0] <= raw["value"] <= span[1]
                ):
                    raise ValueError(
                        f"figure {key!r}: its value {raw['value']!r} is outside its range "
                        f"{span!r} (change the range with the value, or drop it)"
                    )
            elif _is_figure_value(raw) and key not in cls.label_fields:
                raise ValueError(
                    f"figure {key!r} = {raw!r} has no provenance; write it as "
                    f"{key}: {{value: {raw!r}, source: ...}} or {{value: ..., basis: ...}}"
                )
            else:
                values[key] = raw
        values["provenance"] = provenance
        return values

    @field_validator("*", mode="after")
    @classmethod
    def _figure_within_bounds(cls, value: Any, info: ValidationInfo) -> Any:
        """Every number finite and, where not zero, within its physical range (issue 33:
        infinity or 1e308 in a user's file crashed the model): `catalog.bounds`."""
        from_file = bool((info.context or {}).get(FROM_FILE))
        return checked_figure(info.field_name or "", value, from_file=from_file)


def iter_figures(entry: Sourced, prefix: str = "") -> Iterator[tuple[str, Any, Provenance]]:
    """Every figure of `entry` and its nested entries as (dotted key, value, provenance).

    Nested entries are named by their `name` when they have one (`host_adapters[fc-8gb-4port]
    .port_gbps`), by their `ways` for processor options, else by position or dictionary key.
    """
    for field_name in type(entry).model_fields:
        if field_name == "provenance":
            continue
        value = getattr(entry, field_name)
        key = f"{prefix}{field_name}"
        if field_name in entry.provenance:
            yield key, value, entry.provenance[field_name]
        elif isinstance(value, Sourced):
            yield from iter_figures(value, f"{key}.")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, Sourced):
                    yield from iter_figures(item, f"{key}[{_label(item, index)}].")
        elif isinstance(value, dict):
            for item_key, item in value.items():
                if isinstance(item, Sourced):
                    yield from iter_figures(item, f"{key}[{item_key}].")


def _label(item: Sourced, index: int) -> str:
    name = getattr(item, "name", None)
    if isinstance(name, str):
        return name
    ways = getattr(item, "ways", None)
    return f"{ways}-way" if isinstance(ways, int) else str(index)
