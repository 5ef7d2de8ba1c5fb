"""Issue 12 in a real browser: a whole giv of classic Kasino played by clicking on the game
page (lesson 07, served with ``KRYPTEACH_GAME_RULES=kasino``, the classroom file's preset),
with a build made by clicking hand card + table cards + "Bygg" and taken later with
"Ta in"; the scoring at the end; screenshots of a table with a build at 1280×800 and 390×844.

The test reads the position off the page and asks the engine for the legal moves (as
``choose_a_legal_move`` does for Krypkasino); the page deals a new giv each time, so it
builds whenever it can until one of its builds has been made and taken.
Set ``KRYPTEACH_SHOT_DIR`` to keep the screenshots.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from krypteach import Rules
from krypteach.engine.builds import Build, parse_table, table_cards
from krypteach.engine.cards import parse_cards
from krypteach.engine.games import legal_moves

from .conftest import serving
from .test_browser import STEP_MS, close, open_lesson, wait_for_the_others

pytestmark = pytest.mark.browser

K = Rules.preset("kasino")


@pytest.fixture(scope="module")
def kasino_app(private_env, tmp_path_factory):
    """``krypteach serve`` whose game page plays classic Kasino (the classroom preset ``kasino``)."""
    env = {**private_env, "KRYPTEACH_GAME_RULES": "kasino"}
    with serving(env, tmp_path_factory.mktemp("serve-kasino") / "serve.log") as base:
        yield base


def _position(game):
    """(hand codes, table items as text, the item locators) read off the page."""
    hand = game.locator(".kt-cards.kt-hand .kt-card")
    items = game.locator(".kt-cards.kt-table .kt-row > .kt-card")
    mine = hand.evaluate_all("els => els.map(e => e.dataset.card)")
    table = items.evaluate_all("els => els.map(e => e.dataset.build || e.dataset.card)")
    return mine, table, hand, items


def _wait_status(page, text: str) -> None:
    page.wait_for_function("t => document.querySelector('.kt-game > .kt-status').innerText.includes(t)",
                           arg=text, timeout=STEP_MS)


def _click_move(page, game, move, mine, table, hand, items) -> str:
    """Click ``move``'s hand card and table items and the button that plays it; returns its kind."""
    hand.nth(mine.index(str(move.card))).click()
    _wait_status(page, f"Your {move.card.symbol} can")  # Python has seen the hand card
    taken = set(move.capture or ())
    parsed = parse_table(table)
    for i, x in enumerate(parsed):
        if (x.cards[0] in taken) if isinstance(x, Build) else (x in taken):
            items.nth(i).click()
            page.wait_for_function("el => el.classList.contains('kt-selected')", arg=items.nth(i).element_handle(),
                                   timeout=STEP_MS)
    if move.value is not None:
        _wait_status(page, "Bygg: ")  # the selection is a legal build: the value menu offers its values
        menu = game.locator(".kt-build-value select")
        page.wait_for_function("([el, v]) => [...el.options].some(o => o.text === v)",
                               arg=[menu.element_handle(), str(move.value)], timeout=STEP_MS)
        menu.select_option(label=str(move.value))
        game.get_by_role("button", name="Bygg (build)").click()
        return "build"
    if move.capture is None:
        game.get_by_role("button", name="Lägg (trail)").click()
        return "trail"
    _wait_status(page, "Ta in: ")
    game.get_by_role("button", name="Ta in (take)").click()
    return "take"


def _shot(page, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=False)
    keep = os.environ.get("KRYPTEACH_SHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)
    return path


def test_a_whole_kasino_giv_by_clicking_with_a_build_made_and_taken(page, kasino_app, tmp_path):
    rng = random.Random(12)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        open_lesson(page, kasino_app, "07_play.ipynb")
        game = page.locator(".kt-game")
        log = game.locator(".kt-log li")
        final = game.locator(".kt-final")
        players = 1 + game.locator(".kt-opponents .kt-seat").count()
        assert players == 2
        assert game.get_by_role("button", name="Bygg (build)").is_visible()
        assert not game.locator(".kt-buttons button", has_text="Play").is_visible()  # Kasino: Ta in, Bygg, Lägg
        my_turn = ("() => document.querySelector('.kt-game .kt-final') !== null || "
                   "document.querySelector('.kt-game > .kt-status').innerText.includes('Your turn')")
        built, taken_back, shots = [], [], []
        for _giv in range(3):  # a build made and taken in the first giv, nearly always: a bound, not a count
            for _ in range(60):  # 24 moves of yours in a giv of two players
                page.wait_for_function(my_turn, timeout=STEP_MS)
                if final.count():
                    break
                mine, table, hand, items = _position(game)
                moves = legal_moves(parse_cards(mine), parse_table(table), K, 0)
                own = [x for x in parse_table(table) if isinstance(x, Build) and x.owner == 0]
                takes_own = [m for m in moves if m.value is None and m.capture
                             and any(set(b.cards) <= set(m.capture) for b in own)]
                builds = [m for m in moves if m.value is not None and not any(
                    isinstance(x, Build) and x.cards[0] in m.capture for x in parse_table(table))]
                if own and not shots:  # a table with your build on it, on a laptop and a phone
                    group = game.locator(f'.kt-cards.kt-table [data-build="{own[0]}"]')
                    label = group.get_attribute("aria-label")
                    said = ", låst (locked): " if own[0].locked else ": "  # a multiple build is locked
                    assert label.startswith(f"Bygge {own[0].value} (build of {own[0].value}){said}") and \
                        label.endswith(", yours"), label
                    assert group.is_visible() and f"Bygge {own[0].value}" in group.inner_text()
                    shots.append(_shot(page, tmp_path, "kasino-build-1280x800.png"))
                    page.set_viewport_size({"width": 390, "height": 844})
                    group.scroll_into_view_if_needed()
                    box = group.bounding_box()
                    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
                    shots.append(_shot(page, tmp_path, "kasino-build-390x844.png"))
                    page.set_viewport_size({"width": 1280, "height": 800})
                if takes_own:
                    move = takes_own[0]
                elif builds and not (built and taken_back):
                    move = rng.choice(builds)
                else:
                    move = rng.choice(moves)
                before = log.count()
                kind = _click_move(page, game, move, mine, table, hand, items)
                wait_for_the_others(page, before, players, STEP_MS)
                line = game.locator(".kt-log li.kt-you").first.inner_text()  # your newest move
                feedback = page.locator(".kt-game > .kt-feedback")
                assert "kt-error" not in feedback.inner_html(), feedback.inner_text()
                if kind == "build":
                    built.append(move)
                    assert line.startswith(f"You build {move.value} with {move.card.symbol}"), line
                elif takes_own and move is takes_own[0]:
                    taken_back.append(move)
                    assert line.startswith("You take "), line
            final.wait_for(timeout=STEP_MS)
            if built and taken_back:
                break
            game.get_by_role("button", name="New giv").click()
            game.locator(".kt-final").wait_for(state="detached", timeout=STEP_MS)
        assert built and taken_back, (built, taken_back)
        assert any(set(table_cards([b.card, *b.capture])) <= set(t.capture) for b in built for t in taken_back)
        text = final.inner_text()
        assert "Giv over — scoring" in text and "Highest score wins" in text
        assert "You" in text and "Bea" in text and "Sistan" in text
        assert "Scores (final)" in game.inner_text()
        assert game.get_by_role("button", name="Bygg (build)").is_disabled()
        assert len(shots) == 2 and all(p.stat().st_size > 10_000 for p in shots)
    finally:
        close(page)


def test_an_illegal_build_shows_the_engines_explanation_in_the_browser(page, kasino_app):
    """A hand card on a table card that makes no legal build: Bygg answers with the engine's reason."""
    try:
        open_lesson(page, kasino_app, "07_play.ipynb")
        game = page.locator(".kt-game")
        _wait_status(page, "Your turn")
        mine, table, hand, items = _position(game)
        moves = legal_moves(parse_cards(mine), parse_table(table), K, 0)
        parsed = parse_table(table)
        pair = next(((c, i) for c in parse_cards(mine) for i, x in enumerate(parsed) if not isinstance(x, Build)
                     and not any(m.value is not None and m.card == c and list(m.capture) == [x] for m in moves)), None)
        if pair is None:
            pytest.skip("every hand card builds on every table card in this deal")
        card, i = pair
        hand.nth(mine.index(str(card))).click()
        _wait_status(page, f"Your {card.symbol}")
        items.nth(i).click()
        page.wait_for_function("el => el.classList.contains('kt-selected')", arg=items.nth(i).element_handle(),
                               timeout=STEP_MS)
        before = game.locator(".kt-log li").count()
        game.get_by_role("button", name="Bygg (build)").click()
        error = page.locator(".kt-game > .kt-feedback .kt-error")
        error.wait_for(timeout=STEP_MS)
        assert "build" in error.inner_text().lower() or "bygge" in error.inner_text().lower()
        assert game.locator(".kt-log li").count() == before  # nothing was played
    finally:
        close(page)
