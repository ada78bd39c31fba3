"""`diskmodel catalog list/show`: the hardware catalog as terminal tables."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel

from diskmodel.catalog import Catalog
from diskmodel.errors import InputError
from diskmodel.report.table import table


def render_list(catalog: Catalog) -> str:
    """Every system, drive and RAID format, one line each."""
    systems = table(
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
    )
    drives = table(
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
        title="\nDrives",
    )
    formats = table(
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
        title="\nRAID formats",
    )
    return "\n".join([systems, drives, formats])


def render_entry(catalog: Catalog, name: str) -> str:
    """One entry with every field; sourced figures show their source or basis."""
    for group in (catalog.systems, catalog.drives, catalog.raid_formats):
        entry = group.get(name)
        if entry is not None:
            return "\n".join(_lines(entry, indent=""))
    names = catalog.names()
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    raise InputError(
        f"no catalog entry named '{name}'.{hint} `diskmodel catalog list` shows them all."
    )


def _lines(entry: BaseModel, indent: str) -> list[str]:
    provenance: dict[str, Any] = getattr(entry, "provenance", {}) or {}
    out = []
    for field in type(entry).model_fields:
        if field == "provenance":
            continue
        value = getattr(entry, field)
        if isinstance(value, BaseModel):
            out.append(f"{indent}{field}:")
            out.extend(_lines(value, indent + "  "))
        elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
            out.append(f"{indent}{field}:")
            for item in value:
                sub = _lines(item, indent + "    ")
                out.append(f"{indent}  - {sub[0].strip()}")
                out.extend(sub[1:])
        elif (
            isinstance(value, dict) and value and isinstance(next(iter(value.values())), BaseModel)
        ):
            out.append(f"{indent}{field}:")
            for key, item in value.items():
                out.append(f"{indent}  {key}:")
                out.extend(_lines(item, indent + "    "))
        else:
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            note = provenance.get(field)
            out.append(f"{indent}{field}: {shown}" + (f"  [{_cite(note)}]" if note else ""))
    return out


def _cite(note: Any) -> str:
    source = getattr(note, "source", None)
    basis = getattr(note, "basis", None)
    return f"source: {source}" if source else f"basis: {basis}"
