"""The teacher's live-class pages (issue 24) on a projector and on a phone, in both languages: the
teacher's page, the board, the tables and the tournament fit the screen and axe-core finds no
serious or critical problem on them (the lessons' pages: tests/test_screens.py)."""

from __future__ import annotations

import pytest

from .test_browser import LOAD_MS
from .test_classroom_browser import TEACHER, classroom  # noqa: F401 (the fixture)
from .test_screens import AXE, OFF_SCREEN, SIDEWAYS, axe_source  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

PAGES = ["/krypteach/teacher", "/krypteach/teacher/board", "/krypteach/teacher/tables",
         "/krypteach/teacher/tournament"]


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_teachers_live_class_pages_fit_and_pass_axe(browser, classroom, axe_source, lang):  # noqa: F811
    start, _progress = classroom
    server = start()
    problems: dict[str, list[str]] = {}
    for width, height in ((1280, 800), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies([{"name": "krypteach_lang", "value": lang, "url": server.base}])
        try:
            page = context.new_page()
            page.goto(f"{server.base}/krypteach/teacher", timeout=LOAD_MS)
            page.fill("#tcode", TEACHER)
            page.click("button[type=submit]")
            page.wait_for_load_state()
            for path in PAGES:
                page.goto(f"{server.base}{path}", timeout=LOAD_MS)
                found = [f"off the screen: {x}" for x in page.evaluate(OFF_SCREEN)] + page.evaluate(SIDEWAYS)
                page.add_script_tag(content=axe_source)
                found += page.evaluate(AXE)
                if found:
                    problems[f"{path} at {width} px"] = found
        finally:
            context.close()
    assert problems == {}, "\n".join(f"{n}: {p}" for n, ps in problems.items() for p in ps)


def test_the_teachers_page_loads_again_every_20_seconds_but_not_while_the_teacher_types(browser, classroom):  # noqa: F811
    """The class at a glance stays live without taking the teacher's typing away (it was a meta
    refresh, which axe calls critical and which nobody could turn off)."""
    start, _progress = classroom
    server = start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.clock.install()
        page.goto(f"{server.base}/krypteach/teacher", timeout=LOAD_MS)
        page.fill("#tcode", TEACHER)
        page.click("button[type=submit]")
        page.locator("#kt-refresh").wait_for(timeout=LOAD_MS)

        def same_page_after(seconds: int) -> bool:
            page.evaluate("() => { window.ktSamePage = true; }")
            page.clock.run_for(seconds * 1000)
            page.wait_for_timeout(800)  # (real time: a reload asked for has begun by now)
            page.wait_for_load_state()
            try:
                return page.evaluate("() => window.ktSamePage === true")
            except Exception as e:  # the page is being loaded again
                if "context was destroyed" not in str(e):
                    raise
                page.wait_for_load_state()
                return False

        page.locator("h1").click()  # nothing focused
        assert not same_page_after(21), "the page did not load again after 20 s"
        page.locator("#progress-files").focus()  # the teacher is in a form
        assert same_page_after(45), "the page loaded again while the teacher was in a form"
        page.evaluate("() => document.querySelector('#progress-files').dispatchEvent(new Event('input', {bubbles: true}))")
        page.locator("h1").click()  # out of the form again, after typing in it
        assert same_page_after(45), "the page loaded again after the teacher typed in a form"
        page.goto(f"{server.base}/krypteach/teacher", timeout=LOAD_MS)
        page.locator("#kt-refresh").uncheck()  # turned off
        page.locator("h1").click()
        assert same_page_after(45), "the page loaded again with its box unticked"
    finally:
        context.close()
