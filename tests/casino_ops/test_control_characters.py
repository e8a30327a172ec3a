"""The check for control characters (casino_ops.validators): its fast path for printable ASCII
finds exactly what the character-by-character walk finds."""

from __future__ import annotations

import pytest

from casino_ops.validators import first_forbidden_character


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("BJ03-S1 abc~!{}", None),
        ("", None),
        ("ligne\nautre\tcol\r", None),  # line breaks and tabs are text
        ("a\x00b", "\x00"),
        ("a\x07", "\x07"),
        ("del\x7f", "\x7f"),  # ASCII, not printable, a control character
        ("é\x1b", "\x1b"),
        ("\ud800", "\ud800"),  # a lone surrogate
        ("\x85", "\x85"),  # a C1 control character
        ("Jérôme", None),
    ],
)
def test_first_forbidden_character(text: str, found: str | None) -> None:
    assert first_forbidden_character(text) == found


def test_every_ascii_character_is_judged_as_by_its_category() -> None:
    import unicodedata

    for code in range(128):
        char = chr(code)
        forbidden = char not in "\t\n\r" and unicodedata.category(char) == "Cc"
        assert (first_forbidden_character(f"ab{char}cd") == char) is forbidden, code
