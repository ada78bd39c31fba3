"""Text for the terminal: tables and lines, drawn with rich, plain when not a terminal.

Why rich: terminal output has to fit the terminal (rich measures it and wraps cells to fit,
where hand-padded columns ran to 139 and 378 characters), and has to stay plain when piped
(rich writes no colour and, with the box chosen here, no box-drawing characters when the
output is not a terminal). Typer already depends on rich, so it adds no install.

A table is described first (`TextTable`: headers, rows, a title) and drawn last, by `to_text`,
once it is known where the text goes: a terminal gets bold headers, colour for warnings and
the terminal's width; anything else (a pipe, a file, a test) gets plain ASCII, dashes under
the headers, no colour, at `$COLUMNS` or 100 characters. rich is imported only when text is
drawn. Every cell, heading, title and line is made printable (`terminal.printable`) before it
is drawn, so the text comes back as `terminal.Drawn`: its only escapes are the styling asked
for here, and the command line prints it as it is.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from diskmodel.terminal import Drawn, printable

PLAIN_WIDTH = 100
"""Width of plain text (not a terminal) when $COLUMNS does not say."""

NARROW = 20
"""Width of a `TextTable.narrow` column."""


@dataclass(frozen=True)
class TextTable:
    """A table to print: headers, rows of cell text, a title above it. A column whose every
    non-empty cell reads as a number is right-aligned."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str = ""
    unwrapped: tuple[int, ...] = ()
    """Columns that are never wrapped (names that must stay whole); the others give way."""
    narrow: tuple[int, ...] = ()
    """Columns kept at most `NARROW` characters wide (short values beside a long text)."""


@dataclass(frozen=True)
class Output:
    """Where text goes: a terminal (colour, box lines, its width) or plain text."""

    terminal: bool
    width: int


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], title: str = "") -> TextTable:
    """Describe a table (cells are shown with `str`)."""
    return TextTable(
        tuple(headers), tuple(tuple(str(c) for c in row) for row in rows), title.strip()
    )


def detect_output(stream: Any = None) -> Output:
    """A terminal, at its width, when `stream` (default stdout) is one (colour unless
    $NO_COLOR is set); otherwise plain text at $COLUMNS or `PLAIN_WIDTH` characters."""
    stream = sys.stdout if stream is None else stream
    is_tty = bool(getattr(stream, "isatty", lambda: False)())
    if is_tty:
        return Output(True, shutil.get_terminal_size((PLAIN_WIDTH, 24)).columns)
    columns = os.environ.get("COLUMNS", "")
    return Output(False, int(columns) if columns.isdigit() and int(columns) > 20 else PLAIN_WIDTH)


def to_text(parts: Sequence[str | TextTable], output: Output | None = None) -> Drawn:
    """Draw lines and tables, one blank line between parts; every piece of text is made
    printable first, so the only escapes in what comes back are the styling."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    output = output or detect_output()
    plain_box = box.Box("    \n    \n -  \n    \n    \n    \n    \n    \n", ascii=True)
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=output.width,
        force_terminal=output.terminal,
        color_system="standard" if output.terminal else None,
        no_color=None if output.terminal else True,  # None: rich reads $NO_COLOR
        highlight=False,
        emoji=False,
        markup=False,
        legacy_windows=False,
        soft_wrap=False,
    )
    for i, part in enumerate(parts):
        if i:
            console.print()
        if isinstance(part, str):
            console.print(Text(printable(part)))
            continue
        t = Table(
            box=box.SIMPLE_HEAD if output.terminal else plain_box,
            show_edge=False,
            pad_edge=False,
            padding=(0, 1),
            collapse_padding=True,
            header_style="bold" if output.terminal else "",
            title=Text(printable(part.title)) if part.title else None,
            title_justify="left",
            title_style="bold" if output.terminal else "",
            safe_box=not output.terminal,
        )
        numeric = _numeric_columns(part)
        for i, (header, right) in enumerate(zip(part.headers, numeric, strict=True)):
            t.add_column(
                Text(printable(header)),
                justify="right" if right else "left",
                overflow="fold",
                no_wrap=i in part.unwrapped,
                width=_widest(part, i, output.width // 2) if i in part.unwrapped else None,
                max_width=NARROW if i in part.narrow else None,
            )
        for row in part.rows:
            t.add_row(*(Text(printable(cell)) for cell in row))
        console.print(t)
    return Drawn("\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n")


def _widest(t: TextTable, column: int, limit: int) -> int:
    """The longest cell of a column (its header included), at most `limit`."""
    return min(limit, max(len(row[column]) for row in (t.headers, *t.rows)))


def _numeric_columns(t: TextTable) -> list[bool]:
    return [
        bool(t.rows) and all(_is_number(row[i]) for row in t.rows if row[i] not in {"", "-", "–"})
        for i in range(len(t.headers))
    ]


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", "").rstrip("%x×").lstrip("<+"))
    except ValueError:
        return False
    return True
