"""The class tournament on the game page (issue 24): LiveTable's "Play the class tournament"
shows while the teacher runs one, and plays the learner's tournament givar with the same seat
view and play code as any table of the class (the server in a thread, as in test_live_table)."""

from __future__ import annotations

import threading

import pytest

from krypteach.engine.rules import Rules
from krypteach.serve.tables import TableRoom, table_handlers
from krypteach.serve.tournament import TournamentDesk
from krypteach.widgets.live_table import LiveTable

from .serve_helpers import app_in_thread
from .test_live_table import _link, _play_one

KEY = b"k" * 32


@pytest.fixture
def served():
    """A tables server with a tournament desk, on its own event loop in a thread."""
    room = TableRoom(Rules.preset("kasino"), bot="random", bot_pause=0.0)
    desk = TournamentDesk(room, samples=2)
    with app_in_thread(table_handlers(room), lambda _loop: room.start(), krypteach_table_key=KEY) as port:
        yield desk, f"http://127.0.0.1:{port}/krypteach"
    desk.close()


def _play_to_the_end(w: LiveTable) -> None:
    for _ in range(3000):
        w.sync()
        view = w.view
        assert view is not None
        if view["over"]:
            return
        if view["turn"] == view["seat"]:
            _play_one(w)
            assert w.view is not None and w.view["version"] > view["version"], w.message
        else:
            threading.Event().wait(0.02)  # the bot's seat: the server's timer plays it
    raise AssertionError("the giv did not end")


def test_the_page_plays_the_learners_tournament_givar_and_offers_the_next_one(served):
    desk, base = served
    w = LiveTable(link=_link(base, "Ann", 1))
    w._session_changed()  # the learner known: is a tournament under way?
    assert w.tournament_button.layout.display == "none"
    w.play_tournament()  # pressed anyway (an old page): one sentence, no seat
    assert w.code is None and "no class tournament under way" in w.message
    desk.start(1, "random", seed=4)
    w._session_changed()
    assert w.tournament_button.layout.display == ""
    w.play_tournament()
    assert w.code is not None and w.seat_box.layout.display == "" and "giv 1 of 2" in w.info.value
    first = w.code
    _play_to_the_end(w)
    assert w.next_button.layout.display == "" and "Your tournament giv is over" in w.last_html.value
    assert "Next tournament giv" in w.status_text()
    w.next_button.click()
    assert w.code != first and "giv 2 of 2" in w.info.value and w.view["seat"] == 1
    _play_to_the_end(w)
    assert w.next_button.layout.display == "none" and "every giv of the tournament" in w.status_text()
    assert [s.played for s in desk.standings()] == [2]
    w.play_tournament()
    assert "every giv of the tournament (2)" in w.message
