"""Text for a terminal: the one sanitiser every string passes on its way to stdout or stderr.

A scenario, a heat map or a file name can hold bytes a terminal obeys: ESC sequences that
clear the screen, retitle the window or write the clipboard (OSC 52), C1 controls that do the
same in one byte (U+009B is CSI), a carriage return or backspace that overwrites what was
printed, bidi overrides that reorder a line (U+202E), invisible characters that make two
names look alike. `printable` shows each such character as a visible escape (`\\x1b`,
`\\u202e`) instead, so what reaches the terminal is what the text holds, never an instruction.
Tabs and line breaks are kept. A lone surrogate (a file name that is not UTF-8, as Python
passes it through) is shown as its escape too, so printing it cannot fail.

Text drawn for a terminal (`report.table.to_text`: bold headings, colour) holds escapes the
drawing itself asked for. It is made printable piece by piece before it is drawn and comes
back as `Drawn`, which `shown` passes through as it is; any other string is made printable
whole. Joining a `Drawn` with a plain string gives a plain string again (escaped whole), so
a styling escape can only reach the terminal from the drawing.

A long step shows itself on standard error while it runs, and only on a terminal: `progress`
(a bar, for a known number of steps) and `working` (a spinner with the time taken). rich
draws them, imported only when one is drawn.
"""

from __future__ import annotations

import contextlib
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

KEPT = frozenset("\n\t")
"""Controls passed through as they are: line breaks and tabs lay out messages and tables."""

_CANDIDATE = re.compile(r"[^\x20-\x7e\n\t]")
"""Anything but printable ASCII, tab and newline: each hit is judged by `_needs_escape`."""

_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
"""Letters that draw nothing (Hangul fillers): a name made of them looks empty."""


def _needs_escape(char: str) -> bool:
    if char in KEPT:
        return False
    return unicodedata.category(char) in {"Cc", "Cf", "Zl", "Zp", "Cs"} or char in _BLANK_LETTERS


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if not _needs_escape(char):
        return char
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str) -> str:
    """`text` with every control, format and invisible character shown as its escape."""
    return _CANDIDATE.sub(_escape, text)


class Drawn(str):
    """Text drawn for its destination from pieces each made printable first: the only
    escapes it holds are the styling the drawing asked for (`shown` keeps them)."""

    __slots__ = ()


def drawn(*parts: str) -> Drawn:
    """`parts` joined as one `Drawn` text; each plain string among them is made printable."""
    return Drawn("".join(p if isinstance(p, Drawn) else printable(p) for p in parts))


def shown(text: str) -> str:
    """`text` as it may reach a terminal: a `Drawn` text as it is, anything else printable."""
    return text if isinstance(text, Drawn) else printable(text)


@contextlib.contextmanager
def progress(description: str, total: int, stream: Any = None) -> Iterator[Callable[[int], None]]:
    """A progress bar for a long run, on `stream` (default stderr) when it is a terminal;
    nothing at all otherwise (a pipe or a log gets no control characters). Yields
    `advance(steps)`; the bar disappears when the block ends.

        with progress("solving alternatives", len(alternatives)) as advance:
            for a in alternatives:
                ...
                advance(1)
    """
    stream = sys.stderr if stream is None else stream
    if not getattr(stream, "isatty", lambda: False)():

        def ignore(steps: int = 1) -> None:
            del steps

        yield ignore
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(file=stream), transient=True) as bar:
        task = bar.add_task(description, total=total)

        def advance(steps: int = 1) -> None:
            bar.advance(task, steps)

        yield advance


@contextlib.contextmanager
def working(description: str, stream: Any = None, *, quiet: bool = False) -> Iterator[None]:
    """A spinner with the time taken so far, on `stream` (default stderr) when it is a
    terminal, for a step whose length is not known in advance (a calibration's fit); nothing
    at all otherwise, or with `quiet`. It disappears when the block ends."""
    stream = sys.stderr if stream is None else stream
    if quiet or not getattr(stream, "isatty", lambda: False)():
        yield
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = (SpinnerColumn(), TextColumn(printable(description)), TimeElapsedColumn())
    with Progress(*columns, console=Console(file=stream), transient=True) as bar:
        bar.add_task(description, total=None)
        yield
