"""The start page's language chooser: Svenska · English.

``krypteach serve`` serves every lesson in each language, in a folder per language
(``/voila/render/sv/00_start.ipynb``). The chooser links the same page in the other
languages; opening a page of a language makes it the browser's language (a cookie the
server reads: ``/`` leads there next time, and the door and teacher's pages speak it).
Where the lessons are not served that way (a notebook opened in JupyterLab) there is
nothing to switch to, and the chooser says which language the page is in.
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..i18n import LANGUAGE_NAMES, LANGUAGES, language

__all__ = ["LanguageChooser", "language_links_html"]


def language_links_html(page: str, here: Path | None = None, lang: str | None = None) -> str:
    """The links to ``page`` in the other languages, from a page in ``here`` (a folder
    named after its language, beside the other languages' folders).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> for x in ("en", "sv"):
    ...     (root / x).mkdir(); _ = (root / x / "00_start.ipynb").write_text("{}")
    >>> print(language_links_html("00_start.ipynb", root / "sv", "sv"))
    <nav class="kt-lang" aria-label="Språk / Language"><span aria-current="page" lang="sv"><b>Svenska</b></span> · <a href="../en/00_start.ipynb" lang="en" hreflang="en">English</a></nav>
    >>> language_links_html("00_start.ipynb", root, "en")   # not a language folder: nothing to switch to
    '<nav class="kt-lang" aria-label="Språk / Language"><span lang="en"><b>English</b></span></nav>'
    """
    lang = lang or language()
    here = here or Path.cwd()
    parts = []
    for other in sorted(LANGUAGES, key=lambda x: x != "sv"):  # Svenska first: a Swedish game
        name = html.escape(LANGUAGE_NAMES[other])
        if other == lang:
            current = ' aria-current="page"' if here.name == lang else ""
            parts.append(f'<span{current} lang="{other}"><b>{name}</b></span>')
        elif here.name == lang and (here.parent / other / page).exists():
            href = html.escape(f"../{other}/{page}")
            parts.append(f'<a href="{href}" lang="{other}" hreflang="{other}">{name}</a>')
    return '<nav class="kt-lang" aria-label="Språk / Language">' + " · ".join(parts) + "</nav>"


class LanguageChooser(widgets.HTML):  # type: ignore[misc]  # ipywidgets is untyped: HTML is Any
    """Svenska · English, for the top of the start page (``LanguageChooser("00_start.ipynb")``)."""

    def __init__(self, page: str = "00_start.ipynb", **kwargs: object) -> None:
        super().__init__(value=language_links_html(page), **kwargs)
        self.add_class("kt-lang-chooser")
