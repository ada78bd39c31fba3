"""Edit a YAML file's values in its own text, so that its layout stays the author's.

ruamel.yaml keeps comments and key order, but writing a document out again re-lays it: a
`{...}` flow mapping is wrapped where ruamel's line width says, a list's indentation becomes
ruamel's (`calibrate` did that to a planner's scenario, issue 31). `keep_layout(original,
edited)` instead compares the two documents value by value and makes only the changes in the
original text: a scalar replaced where it stands (a `[low, high]` range or any flow value by
a scalar or a flow value), a key added to a mapping (after its last one-line entry in a block
mapping, before the `}` of a flow one), a key removed (its line, or its entry in a flow
mapping). The result is read back and must hold exactly the edited data; where it would not
(a change in a block collection or a multi-line scalar, which this does not edit), the edited
text is returned as it was written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq


class _UnsupportedError(Exception):
    """A change this module does not make in the text (the edited text is used instead)."""


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    text: str


def keep_layout(original: str, edited: str) -> str:
    """`original` with the changes that make it hold `edited`'s data, its layout and comments
    kept (module docstring); `edited` itself where a change cannot be made in place."""
    yaml = YAML(typ="rt")
    try:
        old, new = yaml.load(original), yaml.load(edited)
    except Exception:  # the caller's own text: keep what it wrote
        return edited
    text = _Text(original)
    edits: list[_Edit] = []
    try:
        _diff(text, old, new, flow=False, edits=edits)
    except _UnsupportedError:
        return edited
    out = original
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        out = out[: e.start] + e.text + out[e.end :]
    try:
        same = _plain(yaml.load(out)) == _plain(new)
    except Exception:
        same = False
    return out if same else edited


class _Text:
    """The original text with offsets of its lines."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for i, char in enumerate(text):
            if char == "\n":
                self.starts.append(i + 1)

    def offset(self, line: int, column: int) -> int:
        return self.starts[line] + column

    def line_end(self, offset: int) -> int:
        end = self.text.find("\n", offset)
        return len(self.text) if end < 0 else end


def _is_collection(node: Any) -> bool:
    return isinstance(node, CommentedMap | CommentedSeq)


def _flow(node: Any) -> bool:
    return bool(_is_collection(node) and node.fa.flow_style())


def _diff(text: _Text, old: Any, new: Any, *, flow: bool, edits: list[_Edit]) -> None:
    """The edits that turn the value `old` (of the original) into `new`, both collections."""
    if isinstance(old, CommentedMap) and isinstance(new, CommentedMap):
        inner = flow or _flow(old)
        for key, value in new.items():
            if key not in old:
                edits.append(_insert(text, old, key, value, inner))
                continue
            start = text.offset(*old.lc.value(key))
            _diff_value(text, old[key], value, start, inner, edits)
        for key in old:
            if key not in new:
                edits.append(_delete(text, old, key, inner))
        return
    if isinstance(old, CommentedSeq) and isinstance(new, CommentedSeq) and len(old) == len(new):
        inner = flow or _flow(old)
        for i, value in enumerate(new):
            start = text.offset(*old.lc.item(i))
            _diff_value(text, old[i], value, start, inner, edits)
        return
    raise _UnsupportedError


def _diff_value(
    text: _Text, old: Any, new: Any, start: int, flow: bool, edits: list[_Edit]
) -> None:
    if _is_collection(old) and _is_collection(new) and type(old) is type(new):
        _diff(text, old, new, flow=flow, edits=edits)
        return
    if not _is_collection(old) and not _is_collection(new) and _same_scalar(old, new):
        return
    if _is_collection(old) and not _flow(old):
        raise _UnsupportedError  # a block collection replaced: its extent is not edited here
    end = _value_end(text, start, flow)
    edits.append(_Edit(start, end, _render(new)))


def _same_scalar(a: Any, b: Any) -> bool:
    return _kind(a) == _kind(b) and a == b


def _kind(value: Any) -> str:
    """A scalar's YAML type (ruamel's own types, such as ScalarFloat, count as theirs)."""
    for kind, types in (("bool", bool), ("int", int), ("float", float), ("str", str)):
        if isinstance(value, types):
            return kind
    return "null" if value is None else type(value).__name__


def _value_end(text: _Text, start: int, flow: bool) -> int:
    """Where the value that starts at `start` ends: a quoted or plain scalar on one line, or
    a flow collection to its closing bracket."""
    s = text.text
    char = s[start : start + 1]
    if char in {"[", "{"}:
        return _bracket_end(s, start)
    if char in {"|", ">"}:
        raise _UnsupportedError  # a block scalar
    if char in {'"', "'"}:
        i = start + 1
        while i < len(s):
            if s[i] == char:
                if char == "'" and s[i + 1 : i + 2] == "'":
                    i += 2
                    continue
                return i + 1
            if s[i] == "\\" and char == '"':
                i += 2
                continue
            if s[i] == "\n":
                raise _UnsupportedError  # a quoted scalar over several lines
            i += 1
        raise _UnsupportedError
    line_end = text.line_end(start)
    stop = line_end
    for i in range(start, line_end):
        if s[i] == "#" and s[i - 1] in " \t":
            stop = i
            break
        if flow and s[i] in ",]}":
            stop = i
            break
        if not flow and s[i] == ":" and s[i + 1 : i + 2] in {" ", "\n", ""}:
            raise _UnsupportedError  # not a scalar after all
    value_end = start + len(s[start:stop].rstrip())
    if not flow and line_end < len(s) and _continues(s, line_end, start):
        raise _UnsupportedError  # a plain scalar folded over several lines
    return value_end


def _continues(s: str, line_end: int, start: int) -> bool:
    """Whether the next line goes on with the value: more indented than the value's line, and
    neither a comment, a list item nor a key (a plain scalar folded over several lines)."""
    line_start = s.rfind("\n", 0, start) + 1
    indent = len(s[line_start:start]) - len(s[line_start:start].lstrip(" -"))
    next_end = s.find("\n", line_end + 1)
    following = s[line_end + 1 : len(s) if next_end < 0 else next_end]
    stripped = following.lstrip()
    if not stripped or stripped.startswith(("#", "- ")) or ": " in stripped:
        return False
    return len(following) - len(stripped) > indent


def _bracket_end(s: str, start: int) -> int:
    depth = 0
    quote = ""
    i = start
    while i < len(s):
        char = s[i]
        if quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"':
                i += 1
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise _UnsupportedError


def _insert(text: _Text, mapping: CommentedMap, key: Any, value: Any, flow: bool) -> _Edit:
    """`key: value` added to `mapping`: before the `}` of a flow mapping, else on a line of
    its own after the mapping's last entry that fits on one line, at that entry's indent."""
    entry = f"{_render(key)}: {_render(value)}"
    if flow:
        if not mapping:
            raise _UnsupportedError
        last = list(mapping)[-1]
        start = text.offset(*mapping.lc.value(last))
        end = _value_end(text, start, True) if not _is_collection(mapping[last]) else None
        if end is None:
            if not _flow(mapping[last]):
                raise _UnsupportedError
            end = _bracket_end(text.text, start)
        return _Edit(end, end, f", {entry}")
    for existing in reversed(list(mapping)):
        if _is_collection(mapping[existing]) and not _flow(mapping[existing]):
            continue
        key_line, key_column = mapping.lc.key(existing)
        value_line, _ = mapping.lc.value(existing)
        start = text.offset(*mapping.lc.value(existing))
        end = (
            _bracket_end(text.text, start)
            if _is_collection(mapping[existing])
            else _value_end(text, start, False)
        )
        if value_line != key_line or "\n" in text.text[start:end]:
            continue
        line_end = text.line_end(end)
        return _Edit(line_end, line_end, "\n" + " " * key_column + entry)
    raise _UnsupportedError


def _delete(text: _Text, mapping: CommentedMap, key: Any, flow: bool) -> _Edit:
    """`key` and its value taken out of `mapping`: its entry (and a comma) from a flow
    mapping, its line from a block mapping."""
    if _is_collection(mapping[key]) and not _flow(mapping[key]):
        raise _UnsupportedError
    key_start = text.offset(*mapping.lc.key(key))
    value_start = text.offset(*mapping.lc.value(key))
    end = (
        _bracket_end(text.text, value_start)
        if _is_collection(mapping[key])
        else _value_end(text, value_start, flow)
    )
    s = text.text
    if flow:
        after = re.match(r"\s*,\s*", s[end:])
        if after:
            return _Edit(key_start, end + after.end(), "")
        before = re.search(r",\s*$", s[:key_start])
        if before:
            return _Edit(before.start(), end, "")
        return _Edit(key_start, end, "")
    line_start = s.rfind("\n", 0, key_start) + 1
    if s[line_start:key_start].strip() or "\n" in s[key_start:end]:
        raise _UnsupportedError  # the first key of a list item, or a value over several lines
    line_end = text.line_end(end)
    return _Edit(line_start, min(line_end + 1, len(s)), "")


_PLAIN_SAFE = re.compile(r"[A-Za-z_][A-Za-z0-9_./+-]*(?: [A-Za-z0-9_./+-]+)*")
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "~"}


def _render(value: Any) -> str:
    """`value` as YAML text on one line: scalars as YAML writes them, collections in flow."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float):
        return float.__repr__(float(value))
    if isinstance(value, int):
        return int.__repr__(int(value))
    if isinstance(value, str):
        plain = _PLAIN_SAFE.fullmatch(value) and value.lower() not in _RESERVED
        return value if plain else json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_render(k)}: {_render(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_render(v) for v in value) + "]"
    raise _UnsupportedError


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node
