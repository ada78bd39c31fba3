"""Plain-text tables for the terminal: left-aligned text, right-aligned numbers."""

from __future__ import annotations

from collections.abc import Sequence


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], title: str = "") -> str:
    """Render rows under headers; a cell that looks numeric is right-aligned."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    numeric = [
        all(_is_number(row[i]) for row in cells if row[i] not in {"", "-"}) and bool(cells)
        for i in range(len(headers))
    ]

    def line(values: Sequence[str]) -> str:
        parts = [
            v.rjust(widths[i]) if numeric[i] else v.ljust(widths[i]) for i, v in enumerate(values)
        ]
        return "  ".join(parts).rstrip()

    out = [title] if title else []
    out.append(line(list(headers)))
    out.append("  ".join("-" * w for w in widths))
    out.extend(line(row) for row in cells)
    return "\n".join(out)


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", "").rstrip("%"))
    except ValueError:
        return False
    return True
