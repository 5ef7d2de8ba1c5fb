"""Numbers as each language writes them: the one place every message formats a number.

Swedish writes a decimal comma, a true minus sign and a (non-breaking) space between
thousands: ``0,4``, ``−0,4``, ``86 400``, ``20 %``; English ``0.4``, ``−0.4``, ``86,400``,
``20%``. (CLDR gives English the hyphen-minus; krypteach writes the true minus sign in
both languages, as its score sheets always have: ``−5`` for a dukning.) The digits come from Babel's number formatting (CLDR's patterns and symbols for
``sv_SE`` and ``en``) when Babel is installed, as it is with JupyterLab on a server; the
static site's in-browser Python has no Babel (its 10 MB of locale data would slow every
page), so the same symbols are written out below for the two languages krypteach speaks,
and a test checks that both ways give the same text (``tests/test_i18n_numbers.py``).

A message takes the formatted number as text::

    _("{points} points on average").format(points=number(2.35, 1))

>>> from krypteach.i18n import use_language
>>> with use_language("sv"):
...     number(0.4, 1), number(-0.4, 1), signed(2.5, 1), number(86400), percent(0.2)
('0,4', '−0,4', '+2,5', '86\\xa0400', '20\\xa0%')
>>> with use_language("en"):
...     number(0.4, 1), number(-0.4, 1), signed(2.5, 1), number(86400), percent(0.2)
('0.4', '−0.4', '+2.5', '86,400', '20%')
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import language

__all__ = ["number", "signed", "percent"]

#: CLDR's symbols for the languages of the catalogs (decimal, group, minus, percent pattern)
_SYMBOLS = {
    "sv": (",", "\u00a0", "\u2212", "{n}\u00a0%"),
    "en": (".", ",", "\u2212", "{n}%"),
}
_LOCALES = {"sv": "sv_SE", "en": "en"}


@cache
def _babel() -> Any:
    try:
        from babel import numbers
    except ImportError:  # the static site's browser Python
        return None
    return numbers


def _pattern(digits: int) -> str:
    return "#,##0" + ("." + "0" * digits if digits > 0 else "")


def _plain(x: float, digits: int, lang: str) -> str:
    decimal, group, minus, _pct = _SYMBOLS[lang]
    text = f"{abs(x):,.{max(digits, 0)}f}"
    text = text.replace(",", "\x00").replace(".", decimal).replace("\x00", group)
    return (minus + text) if x < 0 and text.strip("0,.\u00a0") else text


def _format(x: float, digits: int, lang: str, use_babel: bool = True) -> str:
    babel = _babel() if use_babel else None
    if babel is None:
        return _plain(x, digits, lang)
    # round first as Python does (half to even on the float), so both ways agree digit for digit
    x = round(float(x), digits)
    text = babel.format_decimal(abs(x), format=_pattern(digits), locale=_LOCALES[lang])
    minus = _SYMBOLS[lang][2]  # the true minus sign (Babel's for Swedish; English's hyphen-minus replaced)
    assert lang == "en" or minus == babel.get_minus_sign_symbol(_LOCALES[lang])
    return (minus + text) if x < 0 and any(c not in "0,.\u00a0" for c in text) else str(text)


def number(x: float, digits: int = 0, lang: str | None = None) -> str:
    """``x`` with ``digits`` decimals in the language of the page (or ``lang``)."""
    lang = lang or language()
    return _format(x, digits, lang if lang in _SYMBOLS else "en")


def signed(x: float, digits: int = 0, lang: str | None = None) -> str:
    """``x`` with its sign always written (``+2,5``, ``−0,4``, ``0,0``): a change, a difference."""
    text = number(x, digits, lang)
    return text if text[0] in "-\u2212" or not any(c in "123456789" for c in text) else "+" + text


def percent(fraction: float, digits: int = 0, lang: str | None = None) -> str:
    """``fraction`` (0.2) as a percentage (``20 %`` in Swedish, ``20%`` in English)."""
    lang = lang or language()
    lang = lang if lang in _SYMBOLS else "en"
    return _SYMBOLS[lang][3].format(n=number(100 * fraction, digits, lang))
