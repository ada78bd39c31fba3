"""`diskmodel catalog list/show`: the hardware catalog as terminal tables.

CLI text for another input than a prediction: it reads the catalog (the report modules that
render a prediction read only the prediction; tests/report/test_report_imports.py keeps the
two apart). Tables are drawn by `diskmodel.report.table`: the terminal's width, plain text
when not a terminal.
"""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel

from diskmodel import terminal
from diskmodel.catalog import SHIPPED, Catalog
from diskmodel.errors import InputError
from diskmodel.report.table import Output, TextTable, table, to_text


def render_list(catalog: Catalog, output: Output | None = None) -> str:
    """Every system, drive and RAID format, one line each; with a user's catalog files, a
    column says which file defined each entry that is not shipped."""
    systems = _with_origin(
        catalog,
        table(
            ["system", "family", "type-model", "processor", "host ports", "DA pairs"],
            [
                [
                    s.name,
                    s.family,
                    f"{s.machine_type}-{s.model}",
                    s.processor,
                    f"<= {s.max_host_ports}",
                    f"<= {s.max_da_pairs}",
                ]
                for s in catalog.systems.values()
            ],
            title="Storage systems",
        ),
    )
    drives = _with_origin(
        catalog,
        table(
            ["drive", "kind", "tier", "capacity GB", "rpm", "packaging"],
            [
                [
                    d.name,
                    d.kind,
                    d.tier,
                    f"{d.capacity_gb:,.0f}",
                    f"{d.rpm:,.0f}" if d.rpm else "-",
                    "; ".join(
                        f"{system}: {p.interface} {p.form_factor_in:g}in"
                        for system, p in d.packaging.items()
                    ),
                ]
                for d in catalog.drives.values()
            ],
            title="Drives",
        ),
    )
    formats = _with_origin(
        catalog,
        table(
            ["RAID format", "level", "drives", "usable", "random write ops"],
            [
                [
                    r.name,
                    r.level,
                    f"{r.data_drives}+{r.redundancy_drives}+{r.spare_drives}",
                    f"{r.usable_fraction:.1%}",
                    f"{r.random_write_reads + r.random_write_writes:g}",
                ]
                for r in catalog.raid_formats.values()
            ],
            title="RAID formats",
        ),
    )
    return to_text([systems, drives, formats], output)


def _with_origin(catalog: Catalog, t: TextTable) -> TextTable:
    """`t` (first column: the entry's name) with a "defined in" column when any of its
    entries comes from a user's catalog file ("shipped" for the others)."""
    origins = [catalog.origin_of(row[0]) for row in t.rows]
    if all(o == SHIPPED for o in origins):
        return t
    return TextTable(
        (*t.headers, "defined in"),
        tuple((*row, origin) for row, origin in zip(t.rows, origins, strict=True)),
        t.title,
        (*t.unwrapped, len(t.headers)),
        t.narrow,
    )


def render_entry(catalog: Catalog, name: str, output: Output | None = None) -> str:
    """One entry: every field with its value, and for a sourced figure its source or basis,
    as a table wrapped to the terminal's width."""
    for group in (catalog.systems, catalog.drives, catalog.raid_formats):
        entry = group.get(name)
        if entry is not None:
            rows = _rows(entry, prefix="")
            origin = catalog.origin_of(name)
            shown = "the catalog shipped with diskmodel" if origin == SHIPPED else origin
            table_text = to_text(
                [TextTable(("field", "value", "source or basis"), tuple(rows), name, (0,), (1,))],
                output,
            )
            return terminal.drawn(table_text, f"\ndefined in: {shown}\n")  # a path stays whole
    names = catalog.names()
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    raise InputError(
        f"no catalog entry named '{name}'.{hint} `diskmodel catalog list` shows them all."
    )


def _rows(entry: BaseModel, prefix: str) -> list[tuple[str, str, str]]:
    """(dotted field, value, provenance) of every field, nested entries flattened."""
    provenance: dict[str, Any] = getattr(entry, "provenance", {}) or {}
    out: list[tuple[str, str, str]] = []
    for field in type(entry).model_fields:
        if field == "provenance":
            continue
        value = getattr(entry, field)
        key = f"{prefix}{field}"
        if isinstance(value, BaseModel):
            out.extend(_rows(value, f"{key}."))
        elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
            for index, item in enumerate(value):
                label = getattr(item, "name", None) or getattr(item, "ways", None) or index
                label = (
                    f"{label}-way" if isinstance(label, int) and hasattr(item, "ways") else label
                )
                out.extend(_rows(item, f"{key}[{label}]."))
        elif (
            isinstance(value, dict) and value and isinstance(next(iter(value.values())), BaseModel)
        ):
            for item_key, item in value.items():
                out.extend(_rows(item, f"{key}[{item_key}]."))
        else:
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            note = provenance.get(field)
            out.append((key, shown, _cite(note) if note else ""))
    return out


def _cite(note: Any) -> str:
    source = getattr(note, "source", None)
    basis = getattr(note, "basis", None)
    parts = []
    if source:
        parts.append(f"source: {source.strip()}")
    if basis:
        parts.append(f"basis: {basis.strip()}")
    return "; ".join(parts)
