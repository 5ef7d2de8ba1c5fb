"""Issue 23 in a real browser, served, on a phone's screen and in Swedish: a practice session
of lesson 08 shows the learner's rating and what is due, works through new puzzles, and brings
back a move the coach flagged in the learner's own giv, set up as it was and judged."""

from __future__ import annotations

import re
import time

import pytest

from krypteach.bots import make_bot
from krypteach.bots.review import review_giv
from krypteach.classroom.flagged import PLACE, keep_flagged
from krypteach.classroom.store import ProgressStore
from krypteach.engine.game import Giv
from krypteach.teaching.puzzles import load_puzzles
from krypteach.teaching.puzzles.fresh import estimated_rating, themes_of

from .test_browser import LOAD_MS, STEP_MS, close
from .test_classroom_browser import CODE, _sign_in, classroom  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser


def _a_careless_giv() -> Giv:
    g = Giv(seed=4)
    bots = [make_bot("random", seed=s + 1) for s in range(g.rules.players)]
    while not g.is_over:
        g.push(bots[g.turn].choose(g.observation(g.turn)))
    return g


def test_a_practice_session_in_swedish_on_a_phone_shows_the_rating_what_is_due_and_a_flagged_move(
        browser, classroom):  # noqa: F811
    start, progress = classroom
    server = start()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        _sign_in(page, server.base, "03_take_all.ipynb", "Ann", "4711")
        close(page)
        # what Ann did before: a puzzle missed 11 minutes ago, and a giv whose review flagged moves 12 minutes ago
        store = ProgressStore(str(progress))
        me = store.join(CODE, "Ann")
        p = next(q for q in load_puzzles() if q.kind == "which-card")
        now = time.time()
        store.record(me, "08_puzzles", p.id, "puzzle", correct=False, how="first-try", themes=themes_of(p),
                     score=round(estimated_rating(p)), at=now - 660)
        g = _a_careless_giv()
        flagged = review_giv(g, 0, samples=6).flagged
        assert flagged
        store.save_game(me, "07_play", PLACE, keep_flagged(None, g, 0, flagged, at=now - 720))
        store.close()

        page = context.new_page()
        page.goto(f"{server.base}/voila/render/sv/08_puzzles.ipynb", timeout=LOAD_MS)
        practice = page.locator(".kt-practice")
        stats = practice.locator(".kt-practice-stats")
        stats.filter(has_text="efter 1 problem").wait_for(timeout=LOAD_MS)
        text = stats.inner_text()
        assert re.search(r"Ditt ratingtal: \d[\d\u00a0\u202f ]* \(plus minus \d+\), efter 1 problem\.", text), text
        due = 1 + len(flagged)
        assert f"{due} problem som du missade ska komma tillbaka nu" in text, text
        assert (f"{len(flagged)} av dem är {'ett drag' if len(flagged) == 1 else 'drag'} från dina egna givar "
                "som tränaren markerade") in text, text
        # two new puzzles, each answer shown (missed), then the third of the visit is the most overdue: the flagged move
        for n in (2, 3):
            practice.get_by_role("button", name="Visa svaret").click()
            stats.filter(has_text=f"efter {n} problem").wait_for(timeout=STEP_MS)
            practice.get_by_role("button", name="Nästa problem").click()
        retry = practice.locator(".kt-retry")
        retry.filter(has_text="i en giv i Krypkasino som du spelade: din tur. Vilket drag är bäst här?").wait_for(
            timeout=STEP_MS)
        practice.get_by_text("Ett drag från din egen giv kommer tillbaka").wait_for(timeout=STEP_MS)
        assert retry.locator('.kt-card[data-card]').count() >= 2  # the table and the hand drawn as they were
        choices = retry.locator(".kt-buttons button")
        assert choices.count() >= 2
        # scrolled to for the screenshot without waiting for the box to stand still: in one CI run of many, on a
        # loaded machine, Playwright's wait for two equal frames ran out after 30 s here (not seen again in runs
        # by hand, loaded or not); the click below may wait as long as a first page load for its button to stand still
        retry.evaluate("el => el.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(progress.parent / "practice-flagged-sv-390.png"))
        choices.first.click(timeout=LOAD_MS)
        retry.locator(".kt-feedback .kt-msg").wait_for(timeout=STEP_MS)
        said = retry.locator(".kt-feedback").inner_text()
        assert "poäng" in said or "Bra hittat" in said, said
        # the flagged move is not rated: still three puzzles; it is kept as an answer of Ann's
        assert "efter 3 problem" in stats.inner_text()
        answers = [r for r in ProgressStore(str(progress)).puzzle_attempts(me) if r[1].startswith("coach/")]
        assert len(answers) == 1
        practice.screenshot(path=str(progress.parent / "practice-flagged-sv-390-answered.png"))
        close(page)
    finally:
        context.close()
