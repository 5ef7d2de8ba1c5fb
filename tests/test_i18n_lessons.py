"""The lessons in Swedish (the ``lessons`` catalog, docs/i18n.md).

A lesson is written once, in English; ``localize_notebook(nb, "sv")`` makes the Swedish
page from it. These tests check that every cell of every lesson really is Swedish there,
that the links between the lessons still lead where they did, that the texts in the code
cells are Swedish too, and that the Swedish pages run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from krypteach.i18n import translator, use_language
from krypteach.i18n.catalogs import LINK, PLACEHOLDER
from krypteach.i18n.notebooks import LANGUAGE_CELL_TAG, cell_text, localize_notebook, notebook_messages, write_lessons

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
NOTEBOOKS = sorted(p for p in LESSONS.glob("[0-9][0-9]_*.ipynb"))
#: each lesson's first heading in Swedish
SWEDISH_TITLES = {
    "00_start.ipynb": "# Krypkasino – lär dig spelet genom att spela",
    "01_cards.ipynb": "# 1 · Korten och deras värden",
    "02_traffar.ipynb": "# 2 · Träffar: vad ett kort kan ta",
    "03_take_all.ipynb": "# 3 · Ta in allt du kan, eller kryp",
    "04_tabbe.ipynb": "# 4 · Tabbe, dukning och tvångstabbe",
    "05_deals.ipynb": "# 5 · Utdelningar och klädda högen",
    "06_scoring.ipynb": "# 6 · Poängräkning och protokollet",
    "07_play.ipynb": "# 7 · Spela en giv",
    "08_puzzles.ipynb": "# 8 · Kortproblem",
    "09_variant_lab.ipynb": "# 9 · Variantlabbet",
    "10_kasino.ipynb": "# 10 · Vanligt kasino och byggen",
    "11_avig_kasino.ipynb": "# 11 · Avig kasino: kasino tvärtom",
}
# a code-cell text that is the same in both languages on purpose (numbers and Swedish words only)
SAME_IN_BOTH = {"Knekt 11, dam 12, kung 13.", "utdelningar", "Tvångstabbe", "Avig kasino"}


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _markdown(nb: dict) -> list[str]:
    return [cell_text(c) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _has_words(text: str) -> bool:
    """Words to translate, not only cards, numbers, symbols and link targets."""
    return re.search(r"[A-Za-zÅÄÖåäöü]{3,}", PLACEHOLDER.sub("", LINK.sub("]", text))) is not None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_markdown_cell_is_swedish(path):
    nb = _load(path)
    sv = localize_notebook(nb, "sv")
    english, swedish = _markdown(nb), _markdown(sv)
    assert len(english) == len(swedish)
    left = [en for en, s in zip(english, swedish) if _has_words(en) and s == en]
    assert not left, f"{path.name}: {len(left)} markdown cells still in English, the first: {left[0][:80]!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_links_between_lessons_keep_their_targets(path):
    nb = _load(path)
    for en, sv in zip(_markdown(nb), _markdown(localize_notebook(nb, "sv"))):
        assert sorted(LINK.findall(sv)) == sorted(LINK.findall(en)), (path.name, en[:60])
        for target in LINK.findall(sv):  # and every target is a lesson that exists
            assert (LESSONS / target).exists(), (path.name, target)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_swedish_lesson_has_its_swedish_title_and_sets_the_language(path):
    sv = localize_notebook(_load(path), "sv")
    assert _markdown(sv)[0].splitlines()[0] == SWEDISH_TITLES[path.name]
    [language_cell] = [c for c in sv["cells"] if LANGUAGE_CELL_TAG in c["metadata"].get("tags", [])]
    assert "set_language('sv')" in cell_text(language_cell)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_an_english_lesson_is_the_lesson_as_written(path):
    nb = _load(path)
    assert _markdown(localize_notebook(nb, "en")) == _markdown(nb)


def test_the_swedish_lessons_do_not_gloss_and_use_the_games_words():
    sv = {p.name: "\n".join(_markdown(localize_notebook(_load(p), "sv"))) for p in NOTEBOOKS}
    every = "\n".join(sv.values())
    for gloss in ("(capture)", "(creeps", "(a hit)", "(deals)", "(kort och valörer)", "(pussel)"):
        assert gloss not in every
    assert "**ta in**" in sv["00_start.ipynb"] and "**kryper**" in sv["00_start.ipynb"]
    assert "dubbeltabbe" in sv["04_tabbe.ipynb"] and "Ingen tabbe går" in sv["04_tabbe.ipynb"]
    assert "Ett kort per tur" in sv["02_traffar.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_texts_of_the_code_cells_are_swedish(path):
    t = translator("sv")
    for _cell, message, _comments in notebook_messages(_load(path)):
        if isinstance(message, tuple):
            singular, plural = message[0], message[1]
            assert t.ngettext(singular, plural, 1) != singular or singular in SAME_IN_BOTH, (path.name, singular)
            assert t.ngettext(singular, plural, 2) != plural, (path.name, plural)
        elif not message.startswith(("#", "[", "---")) and "\n" not in message and _has_words(message):
            assert t.gettext(message) != message or message in SAME_IN_BOTH, (path.name, message)


def test_texts_of_a_lesson_in_a_swedish_and_an_english_kernel():
    from krypteach.i18n import _, ngettext

    with use_language("sv"):
        assert _("no träff") == "ingen träff"
        assert ngettext("<b>{count} träff</b> for {card}:", "<b>{count} träffar</b> for {card}:", 3).format(
            count=3, card="9♥") == "<b>3 träffar</b> för 9♥:"
        assert _("{whole}.{fraction}").format(whole="0", fraction="25") == "0,25"  # a decimal comma in a sentence
    with use_language("en"):
        assert _("no träff") == "no träff"
        assert _("{whole}.{fraction}").format(whole="0", fraction="25") == "0.25"


def _run_nbval(folder: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("KRYPTEACH_LANG", None)
    return subprocess.run([sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-p", "no:cacheprovider",
                           "-p", "no:randomly", "-q", str(folder)],
                          cwd=folder.parent, env=env, capture_output=True, text=True, timeout=1800)


def test_the_swedish_lessons_run(tmp_path):
    """All twelve Swedish pages in nbval (measured: 33-47 s on the shared 2-core machine, so not marked slow)."""
    written = write_lessons(LESSONS, tmp_path, ("sv",))
    assert [p.name for p in written["sv"]] == [p.name for p in NOTEBOOKS]
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # not the repository's settings
    run = _run_nbval(tmp_path / "sv")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout


def test_a_swedish_page_shows_swedish_from_its_code_cells(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    write_lessons(LESSONS, tmp_path, ("sv",))
    nb = nbformat.read(tmp_path / "sv" / "05_deals.ipynb", as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path / "sv")}}).execute()
    shown = json.dumps([c.get("outputs", []) for c in nb.cells], ensure_ascii=False) + json.dumps(
        nb.metadata.get("widgets", {}), ensure_ascii=False)
    for swedish in ("kort som varje spelare spelar", "Utdelat till bordet", "Ny ställning", "Klädda högen: vilka kort läggs undan?",
                    "Vem tar klädda högen?", "den som sist tog in"):
        assert swedish in shown
    for english in ("cards each player plays", "New deal", "New position", "which cards go aside", "Who takes klädda högen?", "the last player who captured"):
        assert english not in shown
