"""Strict, safe YAML loading that remembers where every key came from.

ruamel.yaml is used rather than PyYAML because it reads YAML 1.2 (so `no`, `on` and `off` stay
strings instead of becoming booleans: the "Norway problem"), refuses duplicate keys, and keeps
the line and column of every key and list item, which is what lets an error say
"scenario.yaml:14: pools[0].ranks[1].drive". Nothing is constructed but plain data: no Python
objects, tags are refused, and anchors/aliases are allowed only while the document they expand
to stays small (a "billion laughs" alias bomb is refused before it is expanded).
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import re
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from diskmodel.errors import InputError

MAX_FILE_BYTES = 256_000
"""A scenario is a few kilobytes (the largest realistic one, 64 workloads with long skew point
lists, is under 100 kB); anything this large is not one. The bound also bounds parse time:
ruamel's pure-Python scanner reads 60-120 kB/s, so a file at the limit parses in seconds."""

MAX_EXPANDED_NODES = 200_000
"""Bound on the number of values a document expands to once its aliases are followed."""

MAX_DEPTH = 64
"""Bound on nesting; real scenarios nest four or five levels deep."""

MAX_FLOW_DEPTH = 10
"""Bound on `[ ]`/`{ }` nesting, checked on the text before parsing: ruamel's scanner does work
proportional to the flow depth for every token, so deep brackets make parsing crawl (a 25 kB
file of 60-deep brackets took 1.4 s, a 5 MB one minutes). A whole scenario written in flow
style nests six deep."""

Path_ = tuple[str | int, ...]

_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("map", "seq", "str", "int", "float", "bool", "null")
)


@dataclass(frozen=True)
class Located:
    """Plain data loaded from a YAML file, with the line (1-based) of each key path."""

    data: Any
    source: str
    lines: dict[Path_, int] = field(default_factory=dict)

    def line_of(self, path: Sequence[str | int]) -> int | None:
        """Line of the longest prefix of `path` that names a key or item in the file."""
        key = tuple(path)
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return None


def resolve_in_folder(reference: str, folder: Path | None) -> tuple[Path, Path, bool]:
    """A file a scenario names, as the file system resolves it: (the real path, the real
    folder it is read from, whether the path stays in that folder or below it). `reference`
    is relative to `folder` (the current directory when None) unless absolute; links are
    followed, so a link cannot lead out of the folder unnoticed."""
    base = Path(folder) if folder is not None else Path.cwd()
    path = Path(reference)
    real = Path(os.path.realpath(path if path.is_absolute() else base / path))
    root = Path(os.path.realpath(base))
    return real, root, real == root or root in real.parents


def read_input_text(path: Path, max_bytes: int, kind: str) -> str:
    """The UTF-8 text of the regular file `path`, read no further than `max_bytes`.

    Only a regular file is read: `/dev/zero` would be read until memory ran out and a named
    pipe would block forever (both found by fuzzing the command line). The file is opened
    without blocking and judged by what the open descriptor is, so it cannot be swapped for a
    pipe between the check and the read. A leading byte-order mark (what spreadsheet exports
    write) is dropped. `kind` names the file in messages ("scenario", "heat map").
    """
    if "\0" in str(path):
        raise InputError(f"{_shown_path(path)}: the file name holds a NUL byte")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a {kind} file") from None
    except OSError as exc:
        raise InputError(f"{_shown_path(path)}: cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{path}: is a directory, not a {kind} file")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(
                f"{path}: is not a regular file (a device or a pipe?); give a {kind} file"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        raw = b"".join(chunks)
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(raw) > max_bytes:
        raise InputError(
            f"{path}: {max(len(raw), info.st_size):,} bytes is too large for a {kind} file "
            f"(the limit is {max_bytes:,} bytes)"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path}: not UTF-8 text (byte {exc.start} cannot be decoded); save it as UTF-8"
        ) from None
    return text.removeprefix("\ufeff")


def _shown_path(path: Path) -> str:
    return str(path).replace("\0", "\\0")


def load_yaml(path: Path) -> Located:
    """Read `path` as one YAML document of plain data, or raise `InputError` saying why."""
    return parse_yaml(read_input_text(path, MAX_FILE_BYTES, "scenario"), str(path))


def _check_flow_depth(text: str, source: str, kind: str = "scenario") -> None:
    """Refuse text whose brackets nest deeper than `MAX_FLOW_DEPTH`, before ruamel scans it.

    Comments are skipped; brackets inside quoted strings are counted too (a conservative
    over-count that only matters for a string holding more than 10 unclosed brackets).
    """
    depth = deepest = 0
    for match in _FLOW_CHARS.finditer(text):
        char = match.group()
        if char in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif char in ("]", "}"):
            depth = max(depth - 1, 0)
        if deepest > MAX_FLOW_DEPTH:
            line = text.count("\n", 0, match.start()) + 1
            raise InputError(
                f"{source}:{line}: brackets nest more than {MAX_FLOW_DEPTH} levels deep; "
                f"a {kind} nests a few levels"
            )


_FLOW_CHARS = re.compile(r"(?:^|(?<=\s))#[^\n]*|[\[\]{}]", re.MULTILINE)


def parse_yaml(text: str, source: str, *, kind: str = "scenario") -> Located:
    """Parse YAML `text`; `source` names it in messages, `kind` what it should be (a
    "scenario", a "catalog file": the same guards for both)."""
    _check_flow_depth(text, source, kind)
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        documents = list(yaml.load_all(text))
    except MarkedYAMLError as exc:
        raise InputError(syntax_message(exc, text, source)) from None
    except ReaderError as exc:
        # A character YAML does not allow in a file (a control character such as ESC).
        before = text[: exc.position]
        line, column = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        code = exc.character if isinstance(exc.character, int) else 0
        raise InputError(
            f"{source}:{line}:{column}: the control character U+{code:04X} is not allowed in "
            "a YAML file; remove it"
        ) from None
    except YAMLError as exc:
        from diskmodel.terminal import printable

        raise InputError(f"{source}: YAML error: {printable(str(exc))[:200]}") from None
    except RecursionError:
        raise InputError(f"{source}: nested too deeply (more than {MAX_DEPTH} levels)") from None
    except ValueError as exc:
        # ruamel builds values with int() and datetime(), which raise ValueError: int() refuses
        # more than 4,300 digits (the CVE-2020-10735 guard), datetime() a 13th month.
        problem = "a number has too many digits" if "digits" in str(exc) else str(exc)
        raise InputError(f"{source}: a value cannot be read: {problem}") from None
    if not documents or all(d is None for d in documents):
        raise InputError(f"{source}: the file is empty; a {kind} is a YAML mapping")
    if len(documents) > 1:
        raise InputError(f"{source}: holds {len(documents)} YAML documents; write one per file")
    _check_size(documents[0], source)
    lines: dict[Path_, int] = {}
    data = _plain(documents[0], (), lines, source)
    return Located(data=data, source=source, lines=lines)


_SYNTAX_HINTS = (
    (
        "found character '\\t'",
        "a tab character: YAML indents with spaces only; replace the tab with spaces",
    ),
    (
        "expected <block end>",
        "this line is indented differently from the lines above it: the keys of one mapping "
        "line up, and list items start with '- ' at one indentation",
    ),
    (
        "mapping values are not allowed here",
        "a ':' where no value can start: is this line indented too far, does the line above "
        "lack its ':', or does a value hold ': ' (then put it in quotes)?",
    ),
    (
        "could not find expected ':'",
        "a key without its ':' (or a line indented too little)",
    ),
    ("expected ',' or ']'", "a '[' list is not closed with ']'"),
    ("expected ',' or '}'", "a '{' mapping is not closed with '}'"),
    ("found undefined alias", "an alias (*name) with no anchor (&name) before it"),
    (
        "found unexpected end of stream",
        "the file ends inside a quoted string or an open bracket",
    ),
    ("while scanning a quoted scalar", "a quoted string is not closed"),
)
"""What the parser's problem means for someone writing a scenario, by the start of its text."""

_EXCERPT_CHARS = 72


def syntax_message(exc: MarkedYAMLError, text: str, source: str) -> str:
    """`FILE:LINE:COLUMN: YAML syntax error: what; then the line with a caret under the spot."""
    from diskmodel.terminal import printable

    mark = exc.problem_mark or exc.context_mark
    problem = str(exc.problem or exc.context or "invalid YAML").strip()
    duplicate = re.search(r'duplicate key "([^"]{0,60})', str(exc))
    if "duplicate key" in str(exc):
        name = duplicate.group(1) if duplicate else ""
        problem = f"the key '{name}' appears twice in one mapping; keep one"
    else:
        context = str(exc.context or "")
        problem = next(
            (hint for start, hint in _SYNTAX_HINTS if start in problem or start in context),
            f"{problem[:100]}",
        )
    if mark is None:
        return f"{source}: YAML syntax error: {printable(problem)}"
    line_no, column = mark.line, mark.column
    lines = text.splitlines()
    if lines and line_no >= len(lines):  # the end of the file: after its last character
        line_no, column = len(lines) - 1, len(lines[-1])
    message = f"{source}:{line_no + 1}:{column + 1}: YAML syntax error: {printable(problem)}"
    if not lines:
        return message
    line = lines[line_no]
    start = max(0, min(column - _EXCERPT_CHARS // 2, len(line) - _EXCERPT_CHARS))
    shown = line[start : start + _EXCERPT_CHARS]
    before = printable(shown[: column - start].replace("\t", "→"))
    shown = printable(shown.replace("\t", "→"))
    gutter = f"{line_no + 1:>5} | "
    lead = "..." if start else ""
    tail = "..." if start + _EXCERPT_CHARS < len(line) else ""
    caret = " " * (len(gutter) - 2) + "| " + " " * (len(lead) + len(before)) + "^"
    return f"{message}\n{gutter}{lead}{shown}{tail}\n{caret}"


def _check_size(root: Any, source: str) -> None:
    """Refuse documents whose expansion (aliases followed) is huge or deep, before expanding."""
    sizes: dict[int, int] = {}

    def size(node: Any, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise InputError(f"{source}: nested too deeply (more than {MAX_DEPTH} levels)")
        if not isinstance(node, Mapping | list):
            return 1
        if id(node) in sizes:
            return sizes[id(node)]
        children = node.values() if isinstance(node, Mapping) else node
        total = 1
        for child in children:
            total += size(child, depth + 1)
            if total > MAX_EXPANDED_NODES:
                raise InputError(
                    f"{source}: expands to more than {MAX_EXPANDED_NODES:,} values once its "
                    "aliases are followed (an alias bomb?); write the data out plainly"
                )
        sizes[id(node)] = total
        return total

    size(root, 0)


def _plain(node: Any, path: Path_, lines: dict[Path_, int], source: str) -> Any:
    """Copy ruamel's round-trip objects into dict/list/str/int/float/bool/None."""
    tag = getattr(getattr(node, "tag", None), "value", None)
    if tag is not None and tag not in _PLAIN_TAGS:
        where = lines.get(path)
        raise InputError(
            f"{source}{':' + str(where) if where else ''}: "
            f"{'.'.join(map(str, path)) or 'document'}: the YAML tag '{tag:.60}' is not allowed; "
            "the file holds plain values only"
        )
    if isinstance(node, CommentedMap):
        out: dict[Any, Any] = {}
        for key, value in node.items():
            if not isinstance(key, str | int | float | bool) or key is None:
                raise InputError(
                    f"{source}:{_line(node, key, path, lines)}: a key must be a plain name, "
                    f"not {type(key).__name__}"
                )
            child = (*path, str(key))
            # A key brought in by a YAML merge (`<<: *defaults`) has no position of its own
            # in this mapping: it takes the mapping's line.
            pos = node.lc.data.get(key)
            if pos is not None:
                lines[child] = pos[0] + 1
            elif path in lines:
                lines[child] = lines[path]
            out[str(key)] = _plain(value, child, lines, source)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for index, value in enumerate(node):
            child = (*path, index)
            pos = node.lc.item(index)
            if pos is not None:
                lines[child] = pos[0] + 1
            items.append(_plain(value, child, lines, source))
        return items
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node) if not math.isnan(node) else math.nan
    if isinstance(node, str):
        return str(node)
    if isinstance(node, _dt.date | _dt.datetime):
        return node.isoformat()
    where = lines.get(path)
    raise InputError(
        f"{source}{':' + str(where) if where else ''}: {'.'.join(map(str, path)) or 'document'}: "
        f"unsupported YAML value of type {type(node).__name__}"
    )


def _line(node: CommentedMap, key: Any, path: Path_, lines: dict[Path_, int]) -> int | str:
    pos = node.lc.data.get(key)
    return pos[0] + 1 if pos is not None else lines.get(path, "?")
