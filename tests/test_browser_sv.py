"""The lessons in Swedish, in a real browser (issue 11): the Swedish start page, its
language chooser (remembered), and an exercise whose feedback is Swedish.

The Swedish texts expected are read from the catalogs (krypteach/i18n/locale/sv), so the
test checks that the page shows the catalog's Swedish, whatever its wording."""

from __future__ import annotations

import json
import re

import pytest
from babel.messages.pofile import read_po

from krypteach.i18n import DOMAINS, LOCALE, gettext, use_language
from krypteach.i18n.notebooks import cell_text

from .conftest import CLASS_CODE, LESSONS
from .english_text import english_sentences
from .test_browser import FORBIDDEN, LOAD_MS, STEP_MS, body_text, close, open_lesson

pytestmark = pytest.mark.browser


def swedish(fragment: str) -> str:
    """The Swedish of the one English message that contains ``fragment``, up to its first
    placeholder (the literal words a page shows)."""
    found = []
    for domain in DOMAINS:
        with (LOCALE / "sv" / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
            for m in read_po(f, locale="sv"):
                ids, strings = (m.id, m.string) if isinstance(m.id, tuple) else ((m.id,), (m.string,))
                if ids[0] and fragment in ids[0]:
                    found.append(str(strings[0]))
    assert found, f"no message contains {fragment!r}"
    words = re.split(r"[{<]", found[0])[0].strip(" .:")
    assert words, found[0]
    return words


def heading(lesson: str, lang: str) -> str:
    nb = json.loads((LESSONS / lesson).read_text(encoding="utf-8"))
    with use_language(lang):
        return gettext(cell_text(nb["cells"][0])).lstrip("# ").splitlines()[0].strip()


def test_the_swedish_start_page_and_its_language_chooser(page, served_app):
    try:
        open_lesson(page, served_app, "00_start.ipynb", "sv")
        text = body_text(page)
        for bad in FORBIDDEN + ("'sv'",):  # the cell that sets the language shows nothing
            assert bad not in text
        sv_title, en_title = heading("00_start.ipynb", "sv"), heading("00_start.ipynb", "en")
        assert sv_title != en_title and sv_title in text and en_title not in text
        assert page.locator("html").get_attribute("lang") == "sv"
        # the landing card answers in Swedish
        page.locator(".kt-selectable .kt-card").first.click()
        feedback = page.locator(".kt-feedback", has_text=swedish("You picked"))
        feedback.wait_for(timeout=STEP_MS)
        assert "You picked" not in feedback.inner_text()
        # the chooser: Svenska is this page, English is a link to the same page in English
        chooser = page.locator("nav.kt-lang")
        assert chooser.locator('[aria-current="page"]').inner_text() == "Svenska"
        chooser.get_by_role("link", name="English").click()
        page.wait_for_url("**/voila/render/en/00_start.ipynb*", timeout=LOAD_MS)
        page.locator(".kt-card").first.wait_for(timeout=LOAD_MS)
        assert en_title in body_text(page)
        # remembered: the class's address leads this browser to its language's start page
        page.goto(f"{served_app}/", timeout=LOAD_MS)
        page.wait_for_url("**/voila/render/en/00_start.ipynb*", timeout=LOAD_MS)
        page.locator("nav.kt-lang").get_by_role("link", name="Svenska").click()
        page.wait_for_url("**/voila/render/sv/00_start.ipynb*", timeout=LOAD_MS)
        page.locator(".kt-card").first.wait_for(timeout=LOAD_MS)
        page.goto(f"{served_app}/", timeout=LOAD_MS)
        page.wait_for_url("**/voila/render/sv/00_start.ipynb*", timeout=LOAD_MS)
    finally:
        close(page)


def test_an_exercise_gives_swedish_feedback(page, served_app):
    """Lesson 3's seed example (9♥ on 9♠ 2♣ 5♦ 7♥) in Swedish: taking only the 9 is wrong,
    and the engine's explanation comes in Swedish."""
    try:
        open_lesson(page, served_app, "03_take_all.ipynb", "sv")
        assert heading("03_take_all.ipynb", "sv") in body_text(page)
        ex = page.locator(".kt-exercise").filter(has=page.locator('.kt-table .kt-card[data-card="5D"]')).first
        card = ex.locator('.kt-cards.kt-table .kt-card[data-card="9S"]')
        card.click()
        page.wait_for_function("el => el.classList.contains('kt-selected')", arg=card.element_handle(),
                               timeout=STEP_MS)
        with use_language("sv"):
            check = gettext("Check")
        assert check != "Check"
        ex.get_by_role("button", name=check).click()
        feedback = ex.locator(".kt-feedback")
        feedback.locator(".kt-error").wait_for(timeout=STEP_MS)
        wrong = feedback.inner_text()
        assert swedish("You must take all you can") in wrong, wrong
        assert "You must take all you can" not in wrong and "2♣+7♥" in wrong
    finally:
        close(page)


def test_swedish_pages_have_no_english_left(page, served_app):
    """Every Swedish lesson page: no markdown cell's English heading, none of the English
    words every page used to show, and no English sentence anywhere in its text
    (tests/english_text.py: a sentence assembled in code has no msgid to miss); on the
    pages with a game, the hint (Ledtråd) is pressed and read too (issue 19)."""
    english = ("You picked", "Check your answer", "Show the answer", "Next:", "Score:")
    problems = []
    for lesson in sorted(p.name for p in LESSONS.glob("[0-9][0-9]_*.ipynb")):
        page_ = page.context.new_page()
        try:
            open_lesson(page_, served_app, lesson, "sv")
            games = page_.locator(".kt-game")
            for i in range(games.count()):
                hint = games.nth(i).get_by_role("button", name="Ledtråd")
                if hint.count() and hint.first.is_enabled():
                    hint.first.click()
                    games.nth(i).locator(".kt-feedback", has_text="Ledtråd:").first.wait_for(timeout=STEP_MS)
            text = body_text(page_)
            if heading(lesson, "en") in text:
                problems.append(f"{lesson}: the English title")
            problems += [f"{lesson}: {w!r}" for w in english if w in text]
            problems += [f"{lesson}: English sentence {s!r}" for s in english_sentences(text)]
            # a number below zero has the minus sign (−5), not a hyphen (lesson 11's table of the games had -5)
            problems += [f"{lesson}: a hyphen for a minus {m!r}" for m in re.findall(r"(?<![\w−-])-\d+", text)]
            if lesson in ("07_play.ipynb", "10_kasino.ipynb", "11_avig_kasino.ipynb"):
                assert "Ledtråd:" in text, lesson  # the hint was shown, and read above
        finally:
            close(page_)
    assert not problems, problems


def test_the_door_speaks_the_browsers_language(browser, served_app):
    """A browser that has not entered the class code meets the door in the class's language
    (English here) until it chose Swedish."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{served_app}/voila/render/sv/00_start.ipynb", timeout=LOAD_MS)
        page.wait_for_url("**/krypteach/join*", timeout=LOAD_MS)
        assert page.locator("html").get_attribute("lang") in ("en", "sv")
        context.add_cookies([{"name": "krypteach_lang", "value": "sv", "url": served_app}])
        page.goto(f"{served_app}/krypteach/join", timeout=LOAD_MS)
        with use_language("sv"):
            assert page.locator("html").get_attribute("lang") == "sv"
        page.fill("#code", CLASS_CODE)
        if page.locator("#nickname").count():
            page.fill("#nickname", "Ann")
        if page.locator("#pin").count():
            page.fill("#pin", "4711")
        page.click("button[type=submit]")
        page.wait_for_url("**/voila/render/sv/00_start.ipynb*", timeout=LOAD_MS)
    finally:
        context.close()
