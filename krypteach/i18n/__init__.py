"""Two languages, Swedish and English, with gettext catalogs (docs/i18n.md).

Every learner-facing text is written in English in the source and looked up in the
catalog of the current language when it is shown::

    from krypteach.i18n import _
    _("You take {cards}.").format(cards=...)

The catalogs are compiled gettext files (``locale/<lang>/LC_MESSAGES/<domain>.mo``),
made from the ``.po`` files with Babel (``python -m krypteach.i18n.catalogs update``).
The game's own words (träff, krypa, tabbe, …) stay Swedish in both languages; the
English texts gloss them.

The language is, in this order: the one set with :func:`use_language` (a ``with``
block, for a server answering requests in several languages), the one set with
:func:`set_language` (a lesson page's kernel), ``$KRYPTEACH_LANG``, else English.

>>> with use_language("sv"):
...     language(), _("Check")
('sv', 'Rätta')
>>> with use_language("en"):
...     _("Check")
'Check'
>>> _("a text no catalog has")   # shown as written
'a text no catalog has'
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "DOMAINS", "LANGUAGE_NAMES", "LanguageError", "_", "N_", "NN_",
           "gettext", "ngettext", "language", "set_language", "use_language", "set_task_language", "check_language",
           "translator"]

#: the languages of the catalogs, the default first
LANGUAGES = ("en", "sv")
DEFAULT_LANGUAGE = "en"
#: each language's name in itself (for a language chooser)
LANGUAGE_NAMES = {"en": "English", "sv": "Svenska"}
#: the catalogs, one per part of the package (and one for the lesson notebooks)
DOMAINS = ("engine", "teaching", "views", "widgets", "serve", "lessons")
LOCALE = Path(__file__).resolve().parent / "locale"
ENV_LANG = "KRYPTEACH_LANG"

_chosen: ContextVar[str | None] = ContextVar("krypteach_language", default=None)
_kernel_language: str | None = None


class LanguageError(ValueError):
    """A language krypteach has no catalog for."""


def check_language(lang: str) -> str:
    """``lang`` if krypteach speaks it (``sv``, ``en``; ``sv_SE.UTF-8`` is ``sv``), else a LanguageError.

    >>> check_language("sv_SE.UTF-8"), check_language("EN")
    ('sv', 'en')
    >>> check_language("de")
    Traceback (most recent call last):
    ...
    krypteach.i18n.LanguageError: unknown language 'de': krypteach speaks en (English) and sv (Svenska)
    """
    short = str(lang).strip().split(".")[0].split("_")[0].split("-")[0].lower()
    if short not in LANGUAGES:
        names = " and ".join(f"{k} ({LANGUAGE_NAMES[k]})" for k in LANGUAGES)
        raise LanguageError(f"unknown language {lang!r}: krypteach speaks {names}")
    return short


def _env_language() -> str:
    value = os.environ.get(ENV_LANG, "").strip()
    if not value:
        return DEFAULT_LANGUAGE
    try:
        return check_language(value)
    except LanguageError:
        return DEFAULT_LANGUAGE


def language() -> str:
    """The language texts are shown in now."""
    return _chosen.get() or _kernel_language or _env_language()


def set_language(lang: str) -> None:
    """Show every text from now on in ``lang`` (a lesson page's kernel calls this first;
    it returns nothing, so that the page shows nothing for it)."""
    global _kernel_language
    _kernel_language = check_language(lang)


def set_task_language(lang: str) -> str:
    """Texts in ``lang`` for the rest of the current task only (a server's request: each
    request runs in its own asyncio task, whose context this sets)."""
    lang = check_language(lang)
    _chosen.set(lang)
    return lang


@contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Texts in ``lang`` inside the block only (a server answering one request)."""
    token = _chosen.set(check_language(lang))
    try:
        yield _chosen.get() or lang
    finally:
        _chosen.reset(token)


@cache
def translator(lang: str) -> _gettext.NullTranslations:
    """Every catalog of ``lang``, as one gettext translation (a missing catalog is skipped)."""
    first: _gettext.NullTranslations | None = None
    for domain in DOMAINS:
        path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo"
        if not path.exists():
            continue
        with path.open("rb") as f:
            t = _gettext.GNUTranslations(f)
        if first is None:
            first = t
        else:
            first.add_fallback(t)
    return first or _gettext.NullTranslations()


def gettext(message: str) -> str:
    """``message`` in the current language (itself when the catalog lacks it)."""
    return translator(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message, for ``n``, in the current language."""
    return translator(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it now (a constant,
    translated with :func:`gettext` where it is shown)."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and a plural for the catalogs without translating them now (a table
    of messages, translated with :func:`ngettext` where it is shown)."""
    return singular, plural


_ = gettext
