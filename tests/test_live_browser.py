"""The live class in real browsers (issue 24, done when): three learners, each in a Chromium page of
their own on a served class, play a whole giv of classic Kasino at one table with a computer in the
fourth seat; one page is reloaded mid-giv and comes back to its seat, and the giv goes on to its
scoring on every page."""

from __future__ import annotations

import random
import re
import time

import pytest

from krypteach import Rules
from krypteach.engine.builds import Build, parse_table
from krypteach.engine.cards import parse_cards
from krypteach.engine.games import describe, legal_moves

from .test_board_browser import _shot
from .test_browser import LOAD_MS, STEP_MS, HeldAnswers, close
from .test_classroom_browser import _sign_in, classroom  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

RULES = Rules.preset("kasino").replace(players=4)


def _live(page):
    return page.locator(".kt-live")


def _status(page) -> str:
    return _live(page).locator(".kt-status").inner_text()


def _position(live):
    hand = live.locator(".kt-cards.kt-hand .kt-card")
    items = live.locator(".kt-cards.kt-table .kt-row > .kt-card")
    mine = hand.evaluate_all("els => els.map(e => e.dataset.card)")
    table = items.evaluate_all("els => els.map(e => e.dataset.build || e.dataset.card)")
    return mine, table, hand, items


def _play(page, seat: int, rng: random.Random) -> None:
    """Read the seat's hand and the table off the page, ask the engine for the legal moves, click
    one's cards and Play (and its option, when the selection makes several moves)."""
    live = _live(page)
    # the status may say "Your turn" before the cards are drawn anew: read the position until it
    # holds still, so that the move is chosen on the cards the page shows
    mine, table, hand, items = _position(live)
    for _ in range(20):
        page.wait_for_timeout(150)
        again = _position(live)
        if again[:2] == (mine, table):
            break
        mine, table, hand, items = again
    move = rng.choice(legal_moves(parse_cards(mine), parse_table(table), RULES, seat))
    hand.nth(mine.index(str(move.card))).click()
    page.wait_for_function("el => el.classList.contains('kt-selected')",
                           arg=hand.nth(mine.index(str(move.card))).element_handle(), timeout=STEP_MS)
    taken = set(move.capture or ())
    for i, x in enumerate(parse_table(table)):
        if (x.cards[0] in taken) if isinstance(x, Build) else (x in taken):
            items.nth(i).click()
            page.wait_for_function("el => el.classList.contains('kt-selected') || "
                                   "el.querySelector('.kt-selected') !== null || el.getAttribute('aria-pressed') == 'true'",
                                   arg=items.nth(i).element_handle(), timeout=STEP_MS)
    chosen = sorted(str(x) for x in parse_table(table) if ((x.cards[0] in taken) if isinstance(x, Build) else (x in taken)))
    shown = sorted(live.locator(".kt-cards.kt-table .kt-row > .kt-card.kt-selected, "
                                ".kt-cards.kt-table .kt-row > .kt-card[aria-pressed=true]").evaluate_all(
        "els => els.map(e => e.dataset.build || e.dataset.card)"))
    assert shown == chosen or not chosen, (shown, chosen)
    # the name without its icon (Font Awesome's glyph is part of Chromium's accessible name)
    live.get_by_role("button", name=re.compile(r"^\W*Play$")).click()
    words = describe(RULES, move)
    # the move is taken when the hand holds another number of cards (one fewer, or the next deal's
    # after its last card); a selection that makes several moves (classic Kasino: take, or build)
    # first offers them as buttons
    taken_in = ("n => document.querySelectorAll('.kt-live .kt-cards.kt-hand .kt-card').length != n")
    offered = ("([n, words]) => document.querySelectorAll('.kt-live .kt-cards.kt-hand .kt-card').length != n || "
               "[...document.querySelectorAll('.kt-live button')].some(b => b.innerText.trim() === words)")
    page.wait_for_function(offered, arg=[len(mine), words], timeout=STEP_MS)
    if not page.evaluate(taken_in, len(mine)):
        live.get_by_role("button", name=re.compile(r"^\W*" + re.escape(words) + "$")).click()
        page.wait_for_function(taken_in, arg=len(mine), timeout=STEP_MS)
    # the page has taken in its own move: its turn is over before the next is looked for
    page.wait_for_function("() => !document.querySelector('.kt-live .kt-status').innerText.startsWith('Your turn')",
                           timeout=STEP_MS)


def test_three_pages_play_a_whole_giv_at_one_table_with_a_reload_mid_giv(browser, classroom):  # noqa: F811
    start, _progress = classroom
    server = start()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        pages = [c.new_page() for c in contexts]
        for page, name in zip(pages, ("Ann", "Bo", "Cy"), strict=True):
            _sign_in(page, server.base, "07_play.ipynb", name, "2580")
        ann = _live(pages[0])
        ann.get_by_role("button", name="Open a table").wait_for(timeout=LOAD_MS)
        ann.locator("select").nth(0).select_option(label="4")
        ann.locator("select").nth(1).select_option(label="Kasino")
        ann.get_by_role("button", name="Open a table").click()
        said = ann.locator(".kt-feedback", has_text="You opened table")
        said.wait_for(timeout=STEP_MS)
        code = re.search(r"table ([A-Z0-9]{4})", said.inner_text()).group(1)
        for page in pages[1:]:
            live = _live(page)
            live.locator("input[type=text]").fill(code.lower())
            live.get_by_role("button", name="Join").click()
            live.locator(".kt-feedback", has_text=f"You sit at table {code}").wait_for(timeout=STEP_MS)
        # every page names the seats, its own as You, the fourth the computer's
        for page in pages:
            _live(page).locator(".kt-live-seat", has_text="Computer 4").wait_for(timeout=STEP_MS)
        assert "Ann, Bo, You, Computer 4" in _live(pages[2]).inner_text()

        rng, moves, reloaded = random.Random(5), 0, False
        over = "Giv 1 is over"
        deadline = time.monotonic() + 300  # (a loaded machine: the bots and the pages take their time)
        while time.monotonic() < deadline:
            if all(_live(p).locator(".kt-live-seat", has_text=over).count() for p in pages):
                break
            turn = next((i for i, p in enumerate(pages) if _status(p).startswith("Your turn")), None)
            if turn is None:
                pages[0].wait_for_timeout(150)  # the computer's seat, or a move on its way to the pages
                continue
            try:
                _play(pages[turn], turn, rng)
            except Exception:
                _shot(pages[turn], "live_fail.png")  # (where KT_SHOTS names a folder)
                print(_live(pages[turn]).inner_html()[:3000])
                raise
            moves += 1
            if moves == 10 and not reloaded:  # Bo's page reloads: it comes back to Bo's seat
                reloaded = True
                hand = _position(_live(pages[1]))[0]
                pages[1].reload(timeout=LOAD_MS)
                _live(pages[1]).locator(".kt-feedback", has_text=f"Welcome back to table {code}").wait_for(
                    timeout=LOAD_MS)
                now = _position(_live(pages[1]))[0]
                assert set(now) <= set(hand) and len(hand) - len(now) <= 1, (hand, now)
        for p in pages:
            _live(p).locator(".kt-live-seat", has_text=over).wait_for(timeout=STEP_MS)
        assert reloaded and moves == 36, moves  # 12 moves for each of the three learners
        # the same scoring on every page, each naming its own seat You
        lines = [re.search(r"Giv 1 is over\. Its scores: [^.]*\.", _live(p).inner_text()).group(0)
                 .replace("You", name) for p, name in zip(pages, ("Ann", "Bo", "Cy"), strict=True)]
        assert len(set(lines)) == 1 and re.fullmatch(
            r"Giv 1 is over\. Its scores: Ann −?\d+, Bo −?\d+, Cy −?\d+, Computer 4 −?\d+\.", lines[0]), lines
        for p in pages:
            close(p)
    finally:
        for c in contexts:
            c.close()


def test_a_table_code_typed_and_join_pressed_at_once_joins_that_table(browser, classroom):  # noqa: F811
    """On a slow machine ipywidgets sends the code box's first letter and holds the rest back until
    Python has answered it, and sends the click at once: Join read a code of one letter. Join waits
    for the code as typed (inputs.Barrier)."""
    start, _progress = classroom
    server = start()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        ann_page, bo_page = (c.new_page() for c in contexts)
        held = HeldAnswers(bo_page)
        for page, name in ((ann_page, "Ann"), (bo_page, "Bo")):
            _sign_in(page, server.base, "07_play.ipynb", name, "2580")
        ann = _live(ann_page)
        ann.get_by_role("button", name="Open a table").wait_for(timeout=LOAD_MS)
        ann.get_by_role("button", name="Open a table").click()
        said = ann.locator(".kt-feedback", has_text="You opened table")
        said.wait_for(timeout=STEP_MS)
        code = re.search(r"table ([A-Z0-9]{4})", said.inner_text()).group(1)
        bo = _live(bo_page)
        bo.get_by_role("button", name="Join").wait_for(timeout=LOAD_MS)
        held.hold()
        bo.locator("input[type=text]").press_sequentially(code.lower())
        bo.get_by_role("button", name="Join").click()
        held.release_once_sent("click")
        try:
            bo.locator(".kt-feedback", has_text=f"You sit at table {code}").wait_for(timeout=STEP_MS)
        except Exception:  # what the page said instead
            raise AssertionError(bo.locator(".kt-feedback").first.inner_text()) from None
    finally:
        for c in contexts:
            c.close()
