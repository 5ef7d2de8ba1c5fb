"""The two languages: the catalogs are complete and compiled, lessons come from one
structure, and the language is chosen per page, per request and per server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from krypteach import i18n
from krypteach.i18n import LanguageError, check_language, language, set_language, use_language
from krypteach.i18n.catalogs import PLACEHOLDER, check, template
from krypteach.i18n.notebooks import LANGUAGE_CELL_TAG, cell_text, localize_notebook, write_lessons

LESSONS = Path(__file__).resolve().parent.parent / "lessons"


def test_every_message_has_both_translations_with_the_same_placeholders():
    """Every text marked in the sources is in each catalog, translated, not fuzzy, with the
    same {placeholders} and links, and each .mo is compiled from its .po."""
    problems = check()
    assert not problems, f"{len(problems)} problems, e.g.:\n" + "\n".join(problems[:20])


def test_the_check_finds_a_missing_translation_and_a_lost_placeholder(tmp_path, monkeypatch):
    """The check itself fails when a catalog is wrong (so the test above means something)."""
    from babel.messages.pofile import read_po, write_po

    locale = tmp_path / "locale"
    import shutil

    shutil.copytree(i18n.LOCALE, locale)
    monkeypatch.setattr("krypteach.i18n.catalogs.LOCALE", locale)
    path = locale / "sv" / "LC_MESSAGES" / "lessons.po"
    with path.open("rb") as f:
        cat = read_po(f, locale="sv")
    ids = [m.id for m in cat if m.id]
    first = ids[0]
    cat[first].string = ""
    with_link = next((m for m in cat if m.id and "](" in str(m.id)), None)
    if with_link is not None:
        with_link.string = re.sub(r"\]\([^)]*\)", "](nowhere.ipynb)", str(with_link.string))
    with path.open("wb") as f:
        write_po(f, cat)
    problems = check(["lessons"])
    assert any("has no translation" in p for p in problems)
    if with_link is not None:
        assert any("links" in p for p in problems)
    assert any(".mo is not compiled" in p for p in problems)


def test_placeholders_are_named():
    """A translation may reorder what it says: every placeholder in a message has a name."""
    for domain in i18n.DOMAINS:
        for m in template(domain):
            for text in (m.id if isinstance(m.id, tuple) else (m.id,)):
                if not text or domain == "lessons":
                    continue
                unnamed = [p.group(0) for p in PLACEHOLDER.finditer(text) if not p.group(1)]
                assert not unnamed, f"{domain}: {text[:60]!r} has an unnamed placeholder {unnamed}"


def test_language_is_chosen_per_page_and_per_block(monkeypatch):
    monkeypatch.delenv("KRYPTEACH_LANG", raising=False)
    monkeypatch.setattr(i18n, "_kernel_language", None)
    assert language() == "en"
    monkeypatch.setenv("KRYPTEACH_LANG", "sv_SE.UTF-8")
    assert language() == "sv"
    monkeypatch.setenv("KRYPTEACH_LANG", "xx")  # a wrong environment is not a dead page: English
    assert language() == "en"
    set_language("sv")
    assert language() == "sv"
    with use_language("en"):
        assert language() == "en"
    assert language() == "sv"
    with pytest.raises(LanguageError, match=r"krypteach speaks en \(English\) and sv \(Svenska\)"):
        set_language("fi")
    assert check_language("SV") == "sv"


def test_a_swedish_text_and_its_english_source():
    """The same call in the two languages (a message of the lessons' catalog)."""
    nb = json.loads((LESSONS / "02_traffar.ipynb").read_text(encoding="utf-8"))
    heading = cell_text(nb["cells"][0])
    with use_language("en"):
        assert i18n.gettext(heading) == heading
    with use_language("sv"):
        sv = i18n.gettext(heading)
    assert sv != heading and sv.startswith("# 2 ·")


def test_lessons_come_from_one_structure(tmp_path):
    """The Swedish lesson is the English one with its markdown translated and its language
    set; every code cell is the same, so a fix to a lesson's logic is made once."""
    written = write_lessons(LESSONS, tmp_path)
    assert sorted(written) == ["en", "sv"]
    for path in sorted(LESSONS.glob("*.ipynb")):
        en = json.loads(path.read_text(encoding="utf-8"))
        sv = json.loads((tmp_path / "sv" / path.name).read_text(encoding="utf-8"))
        code = [cell_text(c) for c in en["cells"] if c["cell_type"] == "code"]
        sv_code = [cell_text(c) for c in sv["cells"]
                   if c["cell_type"] == "code" and LANGUAGE_CELL_TAG not in c["metadata"].get("tags", [])]
        assert sv_code == code, path.name
        tagged = [c for c in sv["cells"] if LANGUAGE_CELL_TAG in c["metadata"].get("tags", [])]
        assert len(tagged) == 1 and "set_language('sv')" in cell_text(tagged[0])
        assert sv["metadata"]["krypteach"] == {"language": "sv"}
        # localizing a localized lesson again gives one language cell, not two
        again = localize_notebook(sv, "en")
        assert sum(LANGUAGE_CELL_TAG in c["metadata"].get("tags", []) for c in again["cells"]) == 1


def test_a_notebook_in_no_language_is_refused():
    with pytest.raises(LanguageError):
        localize_notebook({"cells": []}, "klingon")


def marked_inside_fstrings(source: str) -> list[str]:
    """The literal messages marked inside an f-string's braces (``f"<b>{_('Save')}</b>"``):
    Babel (on Python 3.11) does not look there, so they never reach the catalogs and stay
    English on a Swedish page. ``_(CONSTANT)`` inside one is fine (the constant is marked ``N_``)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
                        and inner.func.id in ("_", "gettext", "ngettext", "N_")):
                    found += [a.value for a in inner.args if isinstance(a, ast.Constant)]
    return found


def test_the_f_string_check_finds_what_babel_would_miss():
    assert marked_inside_fstrings("x = f\"<b>{escape(_('Start'))}</b>\"\ny = _('Start')\n") == ["Start"]
    assert marked_inside_fstrings("x = f\"<h1>{_esc(_('Print'))}</h1>\"\ny = _('Print')\n") == ["Print"]
    assert marked_inside_fstrings("x = f\"<b>{_('Save')}</b>\"\ny = _('Save')\n") == ["Save"]
    assert marked_inside_fstrings("x = f\"<b>{_(TITLES[k])}</b>\"\n") == []


def test_no_message_is_marked_inside_an_f_string():
    """No file of the package hides a message from the catalogs inside an f-string."""
    package = Path(i18n.__file__).resolve().parent.parent
    found = {str(path.relative_to(package.parent)): hidden for path in sorted(package.rglob("*.py"))
             if (hidden := marked_inside_fstrings(path.read_text(encoding="utf-8")))}
    assert found == {}, found
