"""diskmodel's generator mark: whether the head of an existing file says diskmodel wrote it
(an HTML page's generator `<meta>` in its own head, a JSON result's `generator` among its
first keys, a `# diskmodel <version>: ` first line), read without following a link.
"""

from __future__ import annotations

import html.parser
import os
import re
import stat
from pathlib import Path

_HEAD_BYTES = 16384
"""How much of an existing file is read to find the generator mark in its head."""


class _HeadReader(html.parser.HTMLParser):
    """Finds `<meta name="generator" content="diskmodel ...">` as an element of the head.

    A tag quoted in a comment, a script or a style is not an element, so it does not count.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.marked = False
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if tag == "body":
            self.done = True
        elif tag == "meta":
            values = {k: (v or "") for k, v in attrs}
            if values.get("name", "").lower() == "generator" and values.get(
                "content", ""
            ).startswith("diskmodel"):
                self.marked = True
                self.done = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.done = True


_JSON_HEAD = re.compile(
    r'\A\s*\{\s*(?:"[a-z_]{1,40}"\s*:\s*(?:-?\d+(?:\.\d+)?|"[^"\\\n]{0,200}")\s*,\s*){0,4}'
    r'"generator"\s*:\s*"diskmodel[ "]'
)
"""A JSON object whose `generator` is among its first five keys, after plain values only."""

_HTML_START = re.compile(r"\A\s*<!doctype html", re.IGNORECASE)

_COMMENT_HEAD = re.compile(r"\A# diskmodel [0-9][^\s:]*: ")
"""The first line of a CSV table, a calibrated scenario or a fitted catalog file diskmodel
wrote: `# diskmodel 0.1.0: <caption>`."""


def marked_as_ours(head: str) -> bool:
    """True if `head` (the start of a file) is the head of a file diskmodel wrote.

    HTML: a page whose own `<head>` holds the generator `<meta>` element. JSON: an object
    whose first keys include `"generator": "diskmodel ..."`. CSV and YAML (a CSV table, a
    calibrated scenario, a fitted catalog file): a first line
    `# diskmodel <version>: ...`. The mark quoted anywhere else
    (in a comment, a string, further down) does not count.
    """
    text = head.removeprefix("\ufeff")
    if _JSON_HEAD.match(text) or _COMMENT_HEAD.match(text):
        return True
    if not _HTML_START.match(text):
        return False
    reader = _HeadReader()
    try:
        reader.feed(text)
    except (AssertionError, ValueError):  # html.parser on a malformed declaration
        return False
    return reader.marked


def read_head(fd: int) -> str:
    return os.read(fd, _HEAD_BYTES).decode("utf-8", errors="replace")


def is_diskmodel_output(path: Path) -> bool:
    """True if `path` is a regular file (not a link) that starts like one diskmodel wrote."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except (OSError, ValueError):
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and marked_as_ours(read_head(fd))
    except OSError:
        return False
    finally:
        os.close(fd)
