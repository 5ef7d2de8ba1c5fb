"""The teacher's board in real browsers (issue 24, done when): the teacher's page sends a position
to the board; three learners, each signed in on a served lesson in a browser of their own, see it
under their learner bar and each clicks a choice; the teacher's board shows the three answers as
they come (no reload); the teacher shows the answer and every learner's page shows it, with
whether their own answer was right."""

from __future__ import annotations

import os

import pytest

from .test_browser import LOAD_MS, STEP_MS, close
from .test_classroom_browser import TEACHER, _sign_in, classroom  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

#: the learners, and the choice each clicks (7♥ takes 2♦+5♣ is the engine's answer)
CHOICES = {"Ann": "7♥ takes 2♦+5♣", "Bo": "2♠ takes 2♦", "Cy": "7♥ takes 2♦+5♣"}


def _shot(page, name: str) -> None:
    """A screenshot for a person to look at, when ``KT_SHOTS`` names a folder."""
    if os.environ.get("KT_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["KT_SHOTS"], name), full_page=True)


def test_three_learners_answer_the_teachers_board_live_and_see_its_answer(browser, classroom):  # noqa: F811
    start, _progress = classroom
    server = start()
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in CHOICES]
    board_context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        learners = [c.new_page() for c in contexts]
        for page, name in zip(learners, CHOICES, strict=True):
            _sign_in(page, server.base, "01_cards.ipynb", name, "2580")

        board = board_context.new_page()
        board.goto(f"{server.base}/krypteach/teacher", timeout=LOAD_MS)
        board.fill("#tcode", TEACHER)
        board.click("button[type=submit]")
        board.get_by_role("link", name="The teacher's board (for the projector)").click()
        board.get_by_role("heading", name="The teacher's board").wait_for(timeout=STEP_MS)
        board.get_by_text("No position on the board: send one below.").wait_for(timeout=STEP_MS)
        board.fill("#hand", "7H 2S")
        board.fill("#table", "5C 2D KS")
        board.get_by_role("button", name="Send the position").click()
        board.locator("#live .count", has_text="0 answers").wait_for(timeout=STEP_MS)
        board.evaluate("() => { window.ktSamePage = true; }")  # gone if the page reloads

        for page, (name, choice) in zip(learners, CHOICES.items(), strict=True):
            panel = page.locator(".kt-board")
            panel.get_by_text("Your hand and the table are shown. Which move do you play?").wait_for(timeout=STEP_MS)
            cards = panel.locator(".kt-hand .kt-card").evaluate_all("els => els.map(e => e.dataset.card)")
            assert cards == ["7H", "2S"], (name, cards)
            assert panel.get_by_role("button").all_inner_texts() == ["7♥ takes 2♦+5♣", "2♠ takes 2♦"]
            panel.get_by_role("button", name=choice, exact=True).click()
            panel.locator(".kt-feedback", has_text=f"Your answer: {choice}.").wait_for(timeout=STEP_MS)
            assert all(b.is_disabled() for b in panel.get_by_role("button").all())
            # the teacher's board counts it at once, on the same page
            n = list(CHOICES).index(name) + 1
            board.locator("#live .count", has_text=f"{n} answer").wait_for(timeout=STEP_MS)
        assert board.evaluate("() => window.ktSamePage === true")
        rows = board.locator("#live ol.dist li")
        assert rows.locator(".words").all_inner_texts() == ["7♥ takes 2♦+5♣", "2♠ takes 2♦"]
        assert rows.locator(".n").all_inner_texts() == ["2", "1"]
        assert "Ann" not in board.inner_text("#live")  # the names are hidden until the teacher shows them
        _shot(board, "board_en_answers.png")
        _shot(learners[0], "panel_en_answered.png")

        board.get_by_role("button", name="Show the answer on every page").click()
        board.locator(".answer", has_text="The engine's answer: 7♥ takes 2♦+5♣").wait_for(timeout=STEP_MS)
        for page, choice in zip(learners, CHOICES.values(), strict=True):
            said = page.locator(".kt-board .kt-feedback")
            said.get_by_text("The answer: 7♥ takes 2♦+5♣.").wait_for(timeout=STEP_MS)
            mine = "is right." if choice == "7♥ takes 2♦+5♣" else "is not the best here."
            assert f"Your answer {choice} {mine}" in said.inner_text()
        _shot(board, "board_en_revealed.png")
        _shot(learners[1], "panel_en_revealed.png")
        for page in learners:
            close(page)
    finally:
        for c in [*contexts, board_context]:
            c.close()
