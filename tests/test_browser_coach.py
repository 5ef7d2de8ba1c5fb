"""Issue 22 in a real browser: a giv of lesson 07 played by clicking, then the coach: Review
my moves, Try again on a flagged move, a choice, and the explanation; in English and Swedish,
at 390×844 (every control of the review 44 px each way)."""

from __future__ import annotations

import random

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
