"""Lesson notebooks in every language from one structure.

A lesson is written once, in English (``lessons/NN_*.ipynb``). Its markdown cells are
messages of the ``lessons`` catalog (one message per cell), and its code cells mark
their texts with ``_()`` like the package does. :func:`localize_notebook` makes the
lesson of one language: every markdown cell is replaced by its translation, and a
first cell sets the kernel's language, so a fix to a lesson's code is made once.
"""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import LANGUAGES, check_language, translator

__all__ = ["cell_text", "notebook_messages", "localize_notebook", "write_lessons", "LANGUAGE_CELL_TAG"]

#: the tag of the cell :func:`localize_notebook` adds
LANGUAGE_CELL_TAG = "krypteach-language"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}


def cell_text(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def notebook_messages(nb: dict[str, Any]) -> Iterator[tuple[int, str | tuple[str, ...], list[str]]]:
    """(cell number, message, comments) for every markdown cell and every ``_()`` in a code cell."""
    from babel.messages.extract import extract

    for number, cell in enumerate(nb.get("cells", []), start=1):
        text = cell_text(cell)
        if not text.strip():
            continue
        if cell.get("cell_type") == "markdown":
            yield number, text, ["a whole markdown cell: keep its links, cards and layout"]
        elif cell.get("cell_type") == "code":
            code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in text.splitlines())
            for _lineno, message, comments, _context in extract(
                    "python", io.BytesIO(code.encode("utf-8")), keywords=KEYWORDS, comment_tags=("i18n:",)):
                yield number, message, list(comments)


def _language_cell(lang: str) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": None, "id": f"language-{lang}",
            "metadata": {"tags": [LANGUAGE_CELL_TAG]}, "outputs": [],
            "source": ["from krypteach.i18n import set_language\n", f"set_language({lang!r})  # the page's language"]}


def localize_notebook(nb: dict[str, Any], lang: str) -> dict[str, Any]:
    """The lesson ``nb`` in ``lang``: markdown cells translated, the language set after the first code cell.

    >>> nb = {"cells": [{"cell_type": "code", "source": "import krypteach", "metadata": {}},
    ...                  {"cell_type": "markdown", "source": "## Not in any catalog", "metadata": {}}],
    ...       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    >>> sv = localize_notebook(nb, "sv")
    >>> [cell_text(c).splitlines()[-1] for c in sv["cells"]]
    ['import krypteach', "set_language('sv')  # the page's language", '## Not in any catalog']
    >>> sv["metadata"]["krypteach"], sv["metadata"]["language_info"]["name"]
    ({'language': 'sv'}, 'python')
    """
    lang = check_language(lang)
    t = translator(lang)
    out = copy.deepcopy(nb)
    cells = []
    placed = False
    for cell in out.get("cells", []):
        if LANGUAGE_CELL_TAG in cell.get("metadata", {}).get("tags", []):
            continue  # already a localized notebook: set its language again
        if cell.get("cell_type") == "markdown":
            text = cell_text(cell)
            if text.strip():
                cell["source"] = t.gettext(text)
        cells.append(cell)
        if cell.get("cell_type") == "code" and not placed:
            cells.append(_language_cell(lang))
            placed = True
    if not placed:
        cells.insert(0, _language_cell(lang))
    out["cells"] = cells
    meta = out.setdefault("metadata", {})
    meta["krypteach"] = {"language": lang}
    meta.setdefault("language_info", {"name": "python"})
    return out


_LESSON = re.compile(r"^[0-9]{2}_[A-Za-z0-9_-]+\.ipynb$")


def write_lessons(source: Path, out: Path, languages: tuple[str, ...] = LANGUAGES) -> dict[str, list[Path]]:
    """Every notebook of ``source`` in every language, as ``out/<lang>/<name>.ipynb``
    (files not a notebook, such as pictures, are copied along). Returns the files per language."""
    import shutil

    written: dict[str, list[Path]] = {}
    notebooks = sorted(p for p in source.glob("*.ipynb") if not p.name.startswith("."))
    for lang in (check_language(x) for x in languages):
        folder = out / lang
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.ipynb"):
            old.unlink()
        written[lang] = []
        for path in notebooks:
            nb = json.loads(path.read_text(encoding="utf-8"))
            target = folder / path.name
            target.write_text(json.dumps(localize_notebook(nb, lang), ensure_ascii=False, indent=1) + "\n",
                              encoding="utf-8")
            written[lang].append(target)
        for extra in source.iterdir():
            if extra.is_file() and extra.suffix != ".ipynb" and not extra.name.startswith("."):
                shutil.copy2(extra, folder / extra.name)
    return written
