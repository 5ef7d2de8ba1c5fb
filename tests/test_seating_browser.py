"""The teacher seats the class in real browsers (issue 24): two learners open the game page
(lesson 7) and wait; the teacher's tables page shows them arrive (no reload) and seats them with
one click; each learner's page shows its table at once, with the other learner and the computer
at it, and the teacher's page lists the table."""

from __future__ import annotations

import re

import pytest

from .test_board_browser import _shot
from .test_browser import LOAD_MS, STEP_MS, close
from .test_classroom_browser import TEACHER, _sign_in, classroom  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser


def test_the_teacher_seats_two_waiting_learners_with_one_click(browser, classroom):  # noqa: F811
    start, _progress = classroom
    server = start()
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(2)]
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        teacher = teacher_context.new_page()
        teacher.goto(f"{server.base}/krypteach/teacher", timeout=LOAD_MS)
        teacher.fill("#tcode", TEACHER)
        teacher.click("button[type=submit]")
        teacher.get_by_role("link", name="Tables: seat the class").click()
        teacher.get_by_role("heading", name="Tables for the class").wait_for(timeout=STEP_MS)
        teacher.get_by_text("Nobody waits for a table").wait_for(timeout=STEP_MS)

        learners = [c.new_page() for c in contexts]
        for page, name in zip(learners, ("Ann", "Bo"), strict=True):
            _sign_in(page, server.base, "07_play.ipynb", name, "2580")
            page.locator(".kt-live").get_by_role("button", name="Open a table").wait_for(timeout=LOAD_MS)
        # the teacher's page sees them arrive, without a reload
        teacher.get_by_text("2 learners wait for a table: Ann, Bo.").wait_for(timeout=STEP_MS)
        _shot(teacher, "seating-waiting-en-1280.png")
        teacher.locator("select[name=players]").select_option("3")
        teacher.get_by_role("button", name="Seat everyone waiting").click()
        done = teacher.locator(".done")
        done.wait_for(timeout=STEP_MS)
        code = re.search(r"2 learners are seated\. Tables: ([A-Z0-9]{4})\.", done.inner_text()).group(1)
        assert teacher.locator("td.code", has_text=code).count() == 1

        for page, other in zip(learners, ("Bo", "Ann"), strict=True):
            live = page.locator(".kt-live")
            live.locator(".kt-feedback", has_text=f"Your teacher seated you at table {code}").wait_for(timeout=STEP_MS)
            seats = live.locator(".kt-live-seat").inner_text()
            assert other in seats and "Computer 3" in seats and "You" in seats, seats
            assert "There was an error" not in page.inner_text("body")
        _shot(learners[0], "seating-seated-en-390.png")
        teacher.get_by_text("Nobody waits for a table").wait_for(timeout=STEP_MS)
        for page in learners:
            close(page)
    finally:
        for c in [*contexts, teacher_context]:
            c.close()
