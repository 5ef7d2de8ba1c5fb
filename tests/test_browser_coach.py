"""Issue 22 in a real browser: a giv of lesson 07 played by clicking, then the coach: Review
my moves, Try again on a flagged move, a choice, and the explanation; in English and Swedish,
at 390×844 (every control of the review 44 px each way)."""

from __future__ import annotations

import random
import re

import pytest

from .test_browser import STEP_MS, click_a_legal_move, close, open_lesson, wait_for_the_others
from .test_screens import TOO_SMALL

pytestmark = pytest.mark.browser


def _keep(path) -> None:
    import os
    import shutil

    if os.environ.get("KRYPTEACH_SHOT_DIR"):
        os.makedirs(os.environ["KRYPTEACH_SHOT_DIR"], exist_ok=True)
        shutil.copy(path, os.environ["KRYPTEACH_SHOT_DIR"])

WORDS = {
    "en": {"review": "Review my moves (coach)", "quality": "Move quality: ", "again": "Try again",
           "which": "Which move is best here?", "back": "Back to the review"},
    "sv": {"review": "Granska mina drag (tränaren)", "quality": "Dragkvalitet: ", "again": "Försök igen",
           "which": "Vilket drag är bäst här?", "back": "Tillbaka till granskningen"},
}


def _play_by_clicking(page, rng: random.Random) -> None:
    """A random legal move (the engine's, from the position on the page), clicked as a learner
    does: the hand card, the table cards, then the move button (whatever the language calls it)."""
    game = page.locator(".kt-game")
    play = game.locator(".kt-buttons button").first
    move, _table, _used = click_a_legal_move(page, rng)
    # the move button names the whole selection once Python has seen it: the card, and each card taken
    want = [move.card.symbol] + [c.symbol for c in move.capture or ()]
    page.wait_for_function("([el, want, n]) => want.every(w => el.innerText.includes(w)) && "
                           "(n === 0 || el.innerText.split('+').length === n)",
                           arg=[play.element_handle(), want, len(move.capture or ())], timeout=STEP_MS)
    before = game.locator(".kt-log li").count()
    play.click()
    wait_for_the_others(page, before, 2, STEP_MS)


def scoring_fits_the_phone(page) -> None:
    """The giv's scoring at 390 px: nothing in it wider than its box, every total on the screen
    (a column a count put lesson 07's totals off the screen, and its cards a word a line)."""
    final = page.locator(".kt-game .kt-final")
    assert final.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), final.inner_text()
    totals = final.locator("tr.kt-total td")
    assert totals.count() >= 2
    for i in range(totals.count()):
        box = totals.nth(i).bounding_box()
        assert box and 0 <= box["x"] and box["x"] + box["width"] <= 390, (i, box)


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_a_giv_played_then_reviewed_with_try_again_and_its_explanation(page, served_app, lang, tmp_path):
    w = WORDS[lang]
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        open_lesson(page, served_app, "07_play.ipynb", lang)
        game = page.locator(".kt-game")
        rng = random.Random(22)
        for _ in range(60):  # 26 moves of yours in a giv of two: a bound, not a count
            if game.locator(".kt-final").count():
                break
            _play_by_clicking(page, rng)
        game.locator(".kt-final").wait_for(timeout=STEP_MS)
        scoring_fits_the_phone(page)
        game.get_by_role("button", name=w["review"]).click()
        review = game.locator(".kt-review")
        review.locator(".kt-review-summary", has_text=w["quality"]).wait_for(timeout=60_000)
        rows = review.locator(".kt-review-row")
        assert rows.count() >= 1, review.inner_text()  # random moves cost points
        first = rows.first.inner_text()
        assert "?" in first  # marked as chess marks a mistake: ?!, ? or ??
        # by the keyboard, as a learner without a mouse: Tab to Try again, Enter
        again = rows.first.get_by_role("button", name=w["again"])
        game.get_by_role("button", name=w["review"]).focus()
        for _ in range(60):
            if page.evaluate("(t) => document.activeElement.innerText.trim() === t", w["again"]):
                break
            page.keyboard.press("Tab")
        assert again.evaluate("b => b === document.activeElement"), "Try again is not reached by Tab"
        page.keyboard.press("Enter")
        retry = review.locator(".kt-retry")
        retry.get_by_text(w["which"]).wait_for(timeout=STEP_MS)
        assert retry.locator(".kt-card").count() >= 2  # the table and the hand as they were
        assert review.locator(".kt-feedback").inner_text().strip() == ""  # nothing told before a choice
        choices = retry.locator(".kt-buttons button")
        assert choices.count() >= 2
        assert not page.evaluate(TOO_SMALL.replace("document.querySelectorAll(", "document.querySelector('.kt-review')"
                                                   ".querySelectorAll(")), "a control of the review under 44 px"
        # the focus is on the first choice: Enter plays it
        page.wait_for_function("el => el.contains(document.activeElement)", arg=choices.first.element_handle(),
                               timeout=STEP_MS)
        page.keyboard.press("Enter")
        said = review.locator(".kt-feedback .kt-msg[role=status]")  # a screen reader says it
        said.wait_for(timeout=STEP_MS)
        page.wait_for_function("(t) => document.activeElement.innerText.trim() === t", arg=w["back"],
                               timeout=STEP_MS)  # and the keyboard goes on from Back
        text = said.inner_text()
        assert len(text) > 80 and any(k in text for k in ("points", "poäng")), text  # the why, in words
        if lang == "sv":
            assert "creeps" not in text and "takes" not in text, text
        said.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / f"coach-{lang}-390x844.png"))  # (KRYPTEACH_SHOT_DIR keeps it)
        _keep(tmp_path / f"coach-{lang}-390x844.png")
        retry.get_by_role("button", name=w["back"]).click()
        rows.first.wait_for(timeout=STEP_MS)
    finally:
        close(page)


KASINO_WORDS = {
    "en": {"turn": "Your turn", "take": "Ta in (take)", "trail": "Lägg (trail)"},
    "sv": {"turn": "Din tur", "take": "Ta in", "trail": "Lägg"},
}


def play_a_kasino_giv_badly(page, preset: str, lang: str, timeout: float = STEP_MS, pause_ms: float = 0) -> None:
    """A giv of the page's Kasino game played by clicking, badly: every card laid out in classic
    Kasino (it gives the cards away), the biggest take in avig kasino (cards taken count against
    you). The position is read off the page and the engine says which moves are legal.
    ``pause_ms``: the learner's thinking after each move (benchmarks/review_ready.py)."""
    from krypteach import Rules
    from krypteach.engine.builds import parse_table
    from krypteach.engine.cards import parse_cards
    from krypteach.engine.games import legal_moves

    k = KASINO_WORDS[lang]
    rules = Rules.preset(preset)
    game = page.locator(".kt-game")
    hand = game.locator(".kt-cards.kt-hand .kt-card")
    items = game.locator(".kt-cards.kt-table .kt-row > .kt-card")
    my_turn = ("(t) => document.querySelector('.kt-game .kt-final') !== null || "
               "document.querySelector('.kt-game > .kt-status').innerText.includes(t)")
    for _ in range(60):  # 24 moves of yours in a giv of two: a bound, not a count
        page.wait_for_function(my_turn, arg=k["turn"], timeout=timeout)
        if game.locator(".kt-final").count():
            break
        mine = hand.evaluate_all("els => els.map(e => e.dataset.card)")
        table = items.evaluate_all("els => els.map(e => e.dataset.build || e.dataset.card)")
        moves = [m for m in legal_moves(parse_cards(mine), parse_table(table), rules, 0) if m.value is None]
        trails = [m for m in moves if m.capture is None]
        takes = sorted((m for m in moves if m.capture), key=lambda m: -len(m.capture))
        move = (trails or takes)[0] if preset == "kasino" else (takes or trails)[0]
        card = hand.nth(mine.index(str(move.card)))
        card.click()
        page.wait_for_function("el => el.classList.contains('kt-selected')", arg=card.element_handle(),
                               timeout=timeout)
        taken = set(move.capture or ())
        for i, x in enumerate(parse_table(table)):
            if (x.cards[0] if hasattr(x, "cards") else x) in taken:
                items.nth(i).click()
                page.wait_for_function("el => el.classList.contains('kt-selected')",
                                       arg=items.nth(i).element_handle(), timeout=timeout)
        before = game.locator(".kt-log li").count()
        name = k["take"] if move.capture else k["trail"]
        # (the accessible name begins with the icon's character: matched on the text instead)
        game.locator("button").filter(has_text=re.compile(rf"^\s*{re.escape(name)}\s*$")).click()
        wait_for_the_others(page, before, 2, timeout)
        if pause_ms:
            page.wait_for_timeout(pause_ms)
    game.locator(".kt-final").wait_for(timeout=timeout)


def review_and_try_again_by_keyboard(page, lang: str, timeout: float = STEP_MS) -> str:
    """Review my moves, Try again on the first flagged move and its first choice, by the
    keyboard (Enter; the focus goes to the choices): the explanation's text."""
    w = WORDS[lang]
    game = page.locator(".kt-game")
    game.get_by_role("button", name=w["review"]).click()
    review = game.locator(".kt-review")
    review.locator(".kt-review-summary", has_text=w["quality"]).wait_for(timeout=max(timeout, 60_000))
    rows = review.locator(".kt-review-row")
    assert rows.count() >= 1, review.inner_text()  # such play costs points
    rows.first.get_by_role("button", name=w["again"]).focus()
    page.keyboard.press("Enter")
    retry = review.locator(".kt-retry")
    retry.get_by_text(w["which"]).wait_for(timeout=timeout)
    choices = retry.locator(".kt-buttons button")
    page.wait_for_function("el => el.contains(document.activeElement)", arg=choices.first.element_handle(),
                           timeout=timeout)
    page.keyboard.press("Enter")
    said = review.locator(".kt-feedback .kt-msg[role=status]")  # a screen reader says it
    said.wait_for(timeout=timeout)
    text = said.inner_text()
    assert len(text) > 60 and any(x in text for x in ("points", "poäng")), text
    if lang == "sv":
        assert "takes" not in text and "is laid out" not in text and "creeps" not in text, text
    return text


@pytest.mark.parametrize(("lesson", "preset", "lang"), [("10_kasino.ipynb", "kasino", "en"),
                                                        ("11_avig_kasino.ipynb", "avig-kasino", "sv")])
def test_the_coach_on_the_kasino_pages_of_lessons_10_and_11(page, served_app, lesson, preset, lang):
    """Lessons 10 (classic Kasino) and 11 (avig kasino), served at 390 px: a giv played badly
    by clicking, then the coach: Review my moves, Try again by the keyboard, the explanation."""
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        open_lesson(page, served_app, lesson, lang)
        play_a_kasino_giv_badly(page, preset, lang)
        scoring_fits_the_phone(page)
        review_and_try_again_by_keyboard(page, lang)
    finally:
        close(page)
