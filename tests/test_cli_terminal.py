"""The command line on a real terminal (a pseudo-terminal), where rich draws bold headings.

Typer's runner and a pipe both get plain text, so only a terminal shows what a person sees:
the styling must arrive as escapes the terminal obeys, never as the literal text `\\x1b[1m`,
and text from an input file must still arrive escaped.
"""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from diskmodel.report.table import Output, table, to_text
from diskmodel.terminal import Drawn, progress, shown, working

from .conftest import ROOT

SGR = re.compile(r"\x1b\[[0-9;]*m")
"""Select Graphic Rendition: the only escapes the tables ask for (bold, colour, reset)."""


def on_terminal(*args: str, columns: int = 140, env: dict[str, str] | None = None) -> str:
    """What `diskmodel args` prints on a pseudo-terminal `columns` wide (stdout and stderr)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    environment = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "NO_COLOR"}}
    environment.update(env or {})
    process = subprocess.Popen(
        [sys.executable, "-m", "diskmodel", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        cwd=ROOT,
        env=environment,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the process closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=120) == 0, b"".join(chunks).decode(errors="replace")
    return b"".join(chunks).decode()


@pytest.mark.parametrize(
    ("args", "heading"),
    [
        (["catalog", "list"], "Storage systems"),
        (["catalog", "show", "15k-146"], "source or basis"),
        (["check", "scenarios/ds8800-c3-baseline.yaml"], "Ranks per DA pair"),
    ],
    ids=["catalog-list", "catalog-show", "check"],
)
@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
def test_tables_on_a_terminal_show_styling_never_escape_text(
    args: list[str], heading: str, no_color: bool
) -> None:
    text = on_terminal(*args, env={"NO_COLOR": "1"} if no_color else None)
    assert "\\x1b" not in text  # issue 31: every heading printed as literal \x1b[1m...\x1b[0m
    assert heading in SGR.sub("", text)
    assert SGR.search(text), "a terminal gets bold headings"
    assert not re.search(r"\x1b(?!\[[0-9;]*m)", text), "no escape but the styling"


def test_run_and_compare_on_a_terminal_show_no_escape_text(tmp_path: Path) -> None:
    for args in (
        ["run", "scenarios/ds8800-c3-baseline.yaml"],
        ["compare", "scenarios/ds8700-c3-baseline.yaml", "scenarios/ds8800-c3-baseline.yaml"],
    ):
        text = on_terminal(*args, "--out", f"{tmp_path}/", "--force", "--no-timestamp")
        assert "\\x1b" not in text
        assert "Bottleneck" in SGR.sub("", text) or "bottleneck" in SGR.sub("", text)


def test_a_cell_s_escape_is_shown_as_text_and_the_styling_is_kept() -> None:
    hostile = "disk\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J"
    drawn = to_text([table(["name"], [[hostile]], title="T\x1b[31m")], Output(True, 80))
    assert isinstance(drawn, Drawn)
    assert "disk\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J" in drawn
    assert "T\\x1b[31m" in drawn
    assert not re.search(r"\x1b(?!\[[0-9;]*m)", drawn)
    assert "\x1b[2J" not in drawn
    assert shown(drawn) == drawn
    assert "\\x1b" in shown(drawn + "\x1b[1m"), "joined with plain text, it is escaped whole"


def test_progress_writes_nothing_when_not_a_terminal() -> None:
    stream = io.StringIO()
    with progress("solving", 3, stream) as advance:
        for _ in range(3):
            advance(1)
    assert stream.getvalue() == ""


def test_progress_draws_a_bar_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    with progress("solving alternatives", 2, stream) as advance:
        advance(1)
        advance(1)
    assert "solving alternatives" in stream.getvalue()


def test_working_shows_a_spinner_only_on_a_terminal_and_never_with_quiet() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for stream, quiet in ((io.StringIO(), False), (Terminal(), True)):
        with working("fitting", stream, quiet=quiet):
            pass
        assert stream.getvalue() == ""
    shown_on = Terminal()
    with working("fitting \x1b]0;title\x07", shown_on):
        pass
    assert "fitting" in shown_on.getvalue()
    assert "\x1b]0;" not in shown_on.getvalue()
