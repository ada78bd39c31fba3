"""YAML reading: syntax errors with line, column and a caret; BOM; controls; files."""

from __future__ import annotations

from pathlib import Path

import pytest

from diskmodel.errors import InputError
from diskmodel.yamlio import load_yaml, parse_yaml, read_input_text


@pytest.mark.parametrize(
    ("text", "first_line", "excerpt", "caret"),
    [
        (
            "a: 1\n\tb: 2\n",
            "s.yaml:2:1: YAML syntax error: a tab character: YAML indents with spaces only",
            "    2 | →b: 2",
            "      | ^",
        ),
        (
            "a:\n  b: 1\n c: 2\n",
            "s.yaml:3:2: YAML syntax error: this line is indented differently",
            "    3 |  c: 2",
            "      |  ^",
        ),
        (
            "name: a: b\n",
            "s.yaml:1:8: YAML syntax error: a ':' where no value can start",
            "    1 | name: a: b",
            "      |        ^",
        ),
        (
            "a: [1, 2\n",
            "s.yaml:1:9: YAML syntax error: a '[' list is not closed with ']'",
            "    1 | a: [1, 2",
            "      |         ^",
        ),
    ],
)
def test_syntax_errors_show_line_column_and_a_caret(
    text: str, first_line: str, excerpt: str, caret: str
) -> None:
    # Issue 16 item 4: tab and indentation errors gave a line but no column, and the
    # parser's raw text.
    with pytest.raises(InputError) as caught:
        parse_yaml(text, "s.yaml")
    lines = str(caught.value).splitlines()
    assert lines[0].startswith(first_line), lines[0]
    assert lines[1:] == [excerpt, caret]


def test_a_long_line_is_shown_around_the_error() -> None:
    with pytest.raises(InputError) as caught:
        parse_yaml("x: " + "y" * 500 + ": z\n", "s.yaml")
    excerpt, caret = str(caught.value).splitlines()[1:]
    assert len(excerpt) < 100
    assert excerpt[caret.index("^")] == ":"


def test_the_excerpt_shows_controls_escaped() -> None:
    with pytest.raises(InputError) as caught:
        parse_yaml('k: "\\e[2J"\nb: c: d\n', "s.yaml")
    assert "\x1b" not in str(caught.value)


def test_a_control_character_in_the_file_is_located() -> None:
    with pytest.raises(InputError, match=r"s\.yaml:1:4: the control character U\+001B"):
        parse_yaml("a: \x1b[2J\n", "s.yaml")


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    # Issue 17 item 11: what spreadsheet exports and some editors write.
    path = tmp_path / "s.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert load_yaml(path).data == {"a": 1}


def test_a_nul_byte_in_a_file_name_is_one_message(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="holds a NUL byte"):
        read_input_text(tmp_path / "a\0b", 100, "heat map")


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "p.csv"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_input_text(fifo, 100, "heat map")
