"""Numbers as Swedish and English write them (krypteach/i18n/numbers.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from krypteach.i18n import use_language
from krypteach.i18n.numbers import _format, number, percent, signed


@pytest.mark.parametrize(("x", "digits", "sv", "en"), [
    (0.4, 1, "0,4", "0.4"),
    (-0.4, 1, "\u22120,4", "\u22120.4"),
    (1000, 0, "1\u00a0000", "1,000"),
    (100000, 0, "100\u00a0000", "100,000"),
    (86400, 0, "86\u00a0400", "86,400"),
    (-1, 0, "\u22121", "\u22121"),
    (-0.04, 1, "0,0", "0.0"),          # rounds to zero: no minus
    (2.35, 2, "2,35", "2.35"),
    (1234.5, 1, "1\u00a0234,5", "1,234.5"),
], ids=["0.4", "minus", "1000", "100000", "86400", "minus-one", "minus-zero", "two-digits", "grouped-decimal"])
def test_numbers_as_each_language_writes_them(x: float, digits: int, sv: str, en: str) -> None:
    assert number(x, digits, "sv") == sv
    assert number(x, digits, "en") == en
    with use_language("sv"):
        assert number(x, digits) == sv


def test_signed_and_percent() -> None:
    assert [signed(v, 1, "sv") for v in (2.5, -0.4, 0)] == ["+2,5", "\u22120,4", "0,0"]
    assert [signed(v, 1, "en") for v in (2.5, -0.4, 0)] == ["+2.5", "\u22120.4", "0.0"]
    assert percent(0.2, lang="sv") == "20\u00a0%" and percent(0.2, lang="en") == "20%"
    assert percent(0.125, 1, "sv") == "12,5\u00a0%"


@given(st.floats(min_value=-1e7, max_value=1e7, allow_nan=False), st.integers(0, 3), st.sampled_from(["sv", "en"]))
def test_without_babel_the_same_text_as_babel(x: float, digits: int, lang: str) -> None:
    """The static site has no Babel: its written-out symbols give Babel's text digit for digit."""
    assert _format(x, digits, lang, use_babel=False) == _format(x, digits, lang)
