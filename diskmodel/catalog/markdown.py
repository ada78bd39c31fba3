"""`docs/catalog.md`: every figure of the catalog with its value and its source or basis."""

from __future__ import annotations

from typing import Any

from diskmodel.catalog.drives import Drive
from diskmodel.catalog.entries import Catalog
from diskmodel.catalog.figures import iter_figures
from diskmodel.catalog.raid import RaidFormat
from diskmodel.catalog.systems import StorageSystem


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _format_value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_format_value(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}" if value == round(value, 6) else f"{value:.6g}"
    return str(value)


def render_catalog_markdown(catalog: Catalog) -> str:
    """`docs/catalog.md`: every figure of the catalog with its value and its source or basis."""
    lines = [
        "# The hardware catalog, figure by figure",
        "",
        "Generated from `hardware_catalog/*.yaml` by "
        "`python -m diskmodel.catalog > docs/catalog.md`; a test checks it is up to date.",
        "Units are in the key names (`_ms`, `_us`, `_mb_s`, `_gb`, `_gbps`, `_ghz`, `_w`, `_in`).",
        "*Source* is where a figure was published; *basis* says how it was derived or estimated.",
        "",
    ]
    sections: list[tuple[str, dict[str, Any]]] = [
        ("Storage systems", dict(catalog.systems)),
        ("Drives", dict(catalog.drives)),
        ("RAID formats", dict(catalog.raid_formats)),
        ("FICON channels (z/OS)", dict(catalog.ficon_channels)),
        ("CKD volume models (z/OS)", dict(catalog.volume_models)),
    ]
    for title, entries in sections:
        lines += [f"## {title}", ""]
        for name, entry in entries.items():
            lines += [f"### {name}", ""]
            descriptive = [
                f"{field}: {getattr(entry, field)}"
                for field in (
                    "family",
                    "machine_type",
                    "model",
                    "processor",
                    "kind",
                    "tier",
                    "generation",
                )
                if hasattr(entry, field)
            ]
            if isinstance(entry, RaidFormat):
                descriptive.append(f"level: RAID-{entry.level}")
            if isinstance(entry, StorageSystem):
                descriptive += [
                    f"device adapter: {entry.device_adapter.name} "
                    f"({entry.device_adapter.generation})",
                    f"default host adapter: {entry.default_host_adapter}",
                    f"drives: {', '.join(entry.drives)}",
                    f"RAID formats: {', '.join(entry.raid_formats)}",
                ]
            if isinstance(entry, Drive):
                descriptive += [
                    f"on {system}: {packaging.interface}"
                    for system, packaging in entry.packaging.items()
                ]
            if descriptive:
                lines += ["; ".join(_cell(d) for d in descriptive), ""]
            lines += ["| figure | value | source or basis |", "|---|---|---|"]
            for key, value, provenance in iter_figures(entry):
                lines.append(f"| `{key}` | {_format_value(value)} | {_cell(provenance.text())} |")
            lines.append("")
    return "\n".join(lines)
