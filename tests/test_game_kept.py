"""A parti in progress survives a reload (issue 21: "a reload loses the giv in progress").

A served page has a kernel of its own, so a reload is a new kernel: a new
:class:`~krypteach.classroom.session.Session` whose learner is known only when the page's
learner bar signs in, after the game table has been built and dealt. The table keeps its
parti in the learner's progress after every move (the store's ``games``, schema 5; a
static site's progress file) and, once the learner is known, goes on with the kept one.
"""

from __future__ import annotations

import json
import random

import pytest

import krypteach.classroom.session as session_module
from krypteach import Rules, giv_to_record
from krypteach.classroom.session import BrowserProgress, Session
from krypteach.classroom.store import MAX_GAME_RECORD, ProgressStore
from krypteach.i18n import use_language
from krypteach.widgets import GameTable

PAGE = "/voila/render/07_play.ipynb"


@pytest.fixture
def learner(tmp_path, monkeypatch):
    """``open_page()`` opens lesson 07 in a new kernel (the learner not yet known) and returns
    its session; ``sign_in(session)`` is the learner bar handing Ann to it."""
    store = ProgressStore(tmp_path / "p.sqlite3")
    me = store.join("K7RPX", "Ann")

    def open_page() -> Session:
        s = Session()
        monkeypatch.setattr(session_module, "_current", s)
        return s

    def sign_in(s: Session) -> None:
        assert s._adopt(lambda: store, lambda _store: ("K7RPX", "Ann", me), PAGE)

    return store, me, open_page, sign_in


def _moves(table: GameTable, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if table.giv.is_over:
            return
        move = rng.choice(table.giv.legal_moves())
        table.select_hand(move.card)
        table.select_table(move.capture or [])
        table.play_selected()


def _records(table: GameTable) -> list[dict]:
    return [giv_to_record(g) for g in table.parti.givar]


def test_a_reload_brings_back_the_parti_with_its_finished_givar_and_the_giv_on_the_table(learner):
    store, me, open_page, sign_in = learner
    rng = random.Random(1)
    s = open_page()
    first = GameTable(seed=4)
    sign_in(s)  # nothing kept yet: the table plays its own deal
    assert "Welcome back" not in first.message
    _moves(first, rng, 200)  # giv 1 to its end
    first.new_giv()
    _moves(first, rng, 3)
    assert len(first.parti.givar) == 2 and not first.giv.is_over
    scored = [a for a in store.attempts(me) if a[3] == "giv"]
    assert len(scored) == 1 and scored[0][6] == "krypkasino"  # each game's scores are averaged apart

    s = open_page()  # the reload: a new kernel deals another giv
    again = GameTable(seed=99)
    assert _records(again) != _records(first)
    sign_in(s)
    assert _records(again) == _records(first)  # the same givar, moves and all
    assert again.parti.protocol == first.parti.protocol and again.parti.totals == first.parti.totals
    assert again.giv.turn == 0 and again.hand_row.cards == [str(c) for c in first.giv.hands[0]]
    moves = len(first.giv.turns)
    assert f"Welcome back: the parti is as you left it (giv 2, {moves} moves played)." in again.message
    assert "giv 1 (dealer Bea)" in again.protocol.value

    _moves(again, rng, 200)  # play on: giv 2 is scored once, giv 1 not again
    scored = [a for a in store.attempts(me) if a[3] == "giv"]
    assert len(scored) == 2 and scored[1][7] == again.parti.givar[1].result.scores[0]


def test_undo_and_new_parti_are_kept_too(learner):
    _store, _me, open_page, sign_in = learner
    rng = random.Random(2)
    s = open_page()
    table = GameTable(seed=5)
    sign_in(s)
    _moves(table, rng, 2)
    table.undo()
    kept = table.giv.turns[:]
    s = open_page()
    again = GameTable(seed=6)
    sign_in(s)
    assert [t.move for t in again.giv.turns] == [t.move for t in kept]

    again.new_parti()
    again.confirm()  # a new parti, chosen: the reload brings the new one, not the old
    fresh = _records(again)
    s = open_page()
    third = GameTable(seed=7)
    sign_in(s)
    assert _records(third) == fresh


def test_a_page_played_before_the_learner_is_known_keeps_its_own_parti(learner):
    store, me, open_page, sign_in = learner
    s = open_page()
    old = GameTable(seed=4)
    sign_in(s)
    _moves(old, random.Random(3), 4)

    s = open_page()
    quick = GameTable(seed=8)
    _moves(quick, random.Random(4), 1)  # a move before the learner bar has signed in
    mine = _records(quick)
    sign_in(s)
    assert _records(quick) == mine and "Welcome back" not in quick.message
    assert store.saved_game(me, "07_play", "game-1") is not None
    s = open_page()
    later = GameTable(seed=9)
    sign_in(s)
    assert _records(later) == mine  # what the page played is what is kept


def test_two_tables_on_a_page_keep_a_parti_each(learner):
    _store, _me, open_page, sign_in = learner
    s = open_page()
    a, b = GameTable(seed=1), GameTable(Rules.preset("kasino"), seed=2)
    sign_in(s)
    _moves(a, random.Random(5), 2)
    _moves(b, random.Random(6), 2)
    s = open_page()
    a2, b2 = GameTable(seed=3), GameTable(Rules.preset("kasino"), seed=4)
    sign_in(s)
    assert _records(a2) == _records(a) and _records(b2) == _records(b)
    assert b2.rules.game == "kasino" and b2.picker.rules == b.rules


def test_a_kept_parti_that_cannot_be_read_back_leaves_a_new_deal_and_says_so(learner):
    store, me, open_page, sign_in = learner
    store.save_game(me, "07_play", "game-1", '{"format": "krypteach-giv/1", "moves": "not a list"}\n')
    s = open_page()
    table = GameTable(seed=4)
    dealt = _records(table)
    sign_in(s)
    assert _records(table) == dealt
    assert table.message.startswith("The parti kept from your last visit could not be read back (")
    _moves(table, random.Random(1), 1)  # and the table plays on, and keeps its parti
    assert json.loads(store.saved_game(me, "07_play", "game-1").splitlines()[0])["moves"]


def test_welcome_back_in_swedish(learner):
    _store, _me, open_page, sign_in = learner
    with use_language("sv"):
        s = open_page()
        table = GameTable(seed=4)
        sign_in(s)
        _moves(table, random.Random(1), 1)
        s = open_page()
        again = GameTable(seed=5)
        sign_in(s)
        assert again.message.startswith("Välkommen tillbaka")


def test_the_static_site_keeps_the_parti_in_the_browsers_progress_file():
    p = BrowserProgress("Ann")
    saved: list[str] = []
    p.on_save.append(saved.append)
    p.save_game(0, "07_play", "game-1", "a record\n")
    back = BrowserProgress.from_file(saved[-1])
    assert back.saved_game(0, "07_play", "game-1") == "a record\n" and back.saved_game(0, "10_kasino", "game-1") is None
    with pytest.raises(ValueError, match="too long to keep"):
        p.save_game(0, "07_play", "game-1", "x" * (MAX_GAME_RECORD + 1))
    assert p.saved_game(0, "07_play", "game-1") == "a record\n"  # what was kept stays
    # a file whose games cannot be kept still reads: its attempts are what counts
    text = json.dumps({**json.loads(saved[-1]), "games": {"07_play game-1": 5, "x": "y" * (MAX_GAME_RECORD + 1)}})
    assert BrowserProgress.from_file(text).games == {}
    from krypteach.classroom.session import _MAX_GAMES

    assert _MAX_GAMES == 16  # a game table per lesson, and a page's moves the coach flagged
    for n in range(_MAX_GAMES - 1):
        p.save_game(0, f"{n:02}_x", "game-1", "r")
    with pytest.raises(ValueError, match=f"at most {_MAX_GAMES}"):
        p.save_game(0, "99_x", "game-1", "r")
