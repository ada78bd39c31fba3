"""Free text and names are checked a whole string at a time where the answer is known without
looking at each character (`values.printable_text`'s character class, `values.normal_name`'s
printable-ASCII case): the same characters refused, with the same message, as the check of
each character."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import PydanticCustomError

from diskmodel.scenario import values


def test_the_class_holds_exactly_the_characters_refused_one_by_one() -> None:
    refused = [c for c in map(chr, range(sys.maxunicode + 1)) if values._unprintable(c)]
    assert [c for c in refused if values._UNPRINTABLE.fullmatch(c) is None] == []
    found = {m.group() for m in values._UNPRINTABLE.finditer("".join(map(chr, range(0x3000))))}
    assert found == {c for c in refused if ord(c) < 0x3000}
    # It can fail: the controls and the bidi overrides are in it, tab and line breaks are not.
    assert "\x00" in refused
    assert "\u202e" in refused
    assert "\t" not in refused


def _message(check: object, text: str) -> str | None:
    try:
        check(text)  # type: ignore[operator]
    except PydanticCustomError as exc:
        return str(exc)
    return None


def _one_by_one(text: str) -> str | None:
    """`printable_text`'s answer found a character at a time (as it was written before)."""
    bad = next((c for c in text if values._unprintable(c)), None)
    if bad is None:
        return None
    return f"holds the control character {values.character_name(bad)}; use printable text"


@given(st.text(alphabet=st.characters(max_codepoint=0x2100), max_size=40))
def test_free_text_gets_the_message_of_its_first_refused_character(text: str) -> None:
    assert _message(values.printable_text, text) == _one_by_one(text)


def _name_one_by_one(text: str) -> str | None:
    """`normal_name`'s answer with every character looked at (as it was written before)."""
    name = unicodedata.normalize("NFC", text).strip()
    if any(values._hidden(c) for c in name):
        return "hidden"
    if not any(values._visible(c) for c in name):
        return "blank"
    return None


@pytest.mark.parametrize("text", ["oltp", "  oltp  ", " ", "", "a b", "~", "\x7f", "a\tb"])
def test_printable_ascii_names_are_judged_as_before(text: str) -> None:
    _check_name(text)


@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=12))
def test_ascii_names_are_judged_as_before(text: str) -> None:
    _check_name(text)


def _check_name(text: str) -> None:
    expected = _name_one_by_one(text)
    message = _message(values.normal_name, text)
    if expected is None:
        assert message is None or "characters long" in message
    elif expected == "hidden":
        assert message is not None
        assert "holds the" in message
    else:
        assert message is not None
        assert "empty or blank" in message
