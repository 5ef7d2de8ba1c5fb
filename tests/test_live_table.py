"""The game page's live table (issue 24): three learners' widgets, each in a kernel of its own
(here: three widgets with their own links), play a whole giv at one table of a real tables server
(the Tornado handlers in a thread), with one computer seat."""

from __future__ import annotations

import asyncio
import threading

import pytest

from krypteach.classroom.live import LIVE_NONCE, Link
from krypteach.classroom.session import sign_learner
from krypteach.engine.cards import Card
from krypteach.engine.games import game_of
from krypteach.engine.moves import Move
from krypteach.engine.rules import Rules
from krypteach.i18n import use_language
from krypteach.serve.tables import TableRoom, table_handlers
from krypteach.widgets.live_table import LiveTable

from .serve_helpers import app_in_thread

KEY = b"k" * 32


@pytest.fixture
def server():
    """A tables server on its own event loop in a thread; its room and address."""
    room = TableRoom(Rules(players=2), bot="random", bot_pause=0.0)

    def start(loop: asyncio.AbstractEventLoop) -> None:
        room.start()
        room.test_loop = loop  # (a test runs the room's methods on its loop)

    with app_in_thread(table_handlers(room), start, room.stop, krypteach_table_key=KEY) as port:  # (stop: its hints' worker too)
        yield room, f"http://127.0.0.1:{port}/krypteach"


def _link(base: str, name: str, learner: int) -> Link:
    return Link(base, sign_learner(KEY, "K7", name, learner, LIVE_NONCE))


def _play_one(w: LiveTable) -> None:
    """Make the seat's move the way a learner does: select a hand card and the table items it
    takes, press Play (and, when the selection makes several moves, choose the first)."""
    v = w.view
    assert v is not None
    rules = Rules.from_dict(v["rules"])
    game = game_of(rules)
    move = Move.parse(v["legal"][0])
    w.select_hand(move.card)
    items, _flat = game.parse_table(v["table"])
    picked, left = [], list(move.capture or ())
    for item in items:  # the table items whose cards the move takes (a build is taken whole)
        cards = game.table_cards([item])
        if cards and all(c in left for c in cards):
            picked.append(str(item))
            for c in cards:
                left.remove(c)
    w.select_table(picked)
    w.play_selected()
    if w.options.children:
        w.choose(move)


def test_three_learners_widgets_play_a_whole_giv_at_one_table_with_a_computer_seat(server):
    _room, base = server
    ann, bo, cy = (LiveTable(link=_link(base, n, i)) for i, n in enumerate(("Ann", "Bo", "Cy"), 1))
    ann.open_table(players=4, game="kasino")
    assert ann.code is not None and "tell the others its code" in ann.message
    bo.join(ann.code.lower())  # the code as a child types it
    cy.code_box.value = ann.code
    cy.join()
    for w in (ann, bo, cy):
        w.sync()
    assert ann.view is not None and ann.view["names"][:3] == ["Ann", "Bo", "Cy"] and ann.view["names"][3] is None
    # each page sees only its own hand
    hands = [set(w.view["hand"]) for w in (ann, bo, cy)]
    assert all(len(h) == 4 for h in hands) and "Ann" in bo.info.value and "You" in bo.info.value and "Bo" not in bo.info.value
    played = 0
    for _ in range(2000):
        for w in (ann, bo, cy):
            w.sync()
        if ann.view["last"] is not None:
            break
        mover = next((w for w in (ann, bo, cy) if w.view["turn"] == w.view["seat"]), None)
        if mover is None:  # the computer's seat: the server's timer plays it
            threading.Event().wait(0.02)
            continue
        others = [w for w in (ann, bo, cy) if w is not mover]
        assert all(not w.view["legal"] and w.play_button.disabled for w in others)
        before = mover.view["version"]
        _play_one(mover)
        assert mover.view["version"] > before, mover.message
        played += 1
    assert ann.view["last"] is not None, "the giv did not end"
    assert played == 36  # 12 moves each for three learners: Kasino deals 4 cards three times to four seats
    # the others saw every move: the same scores, and each one's own record of it for the coach
    assert ann.view["last"]["scores"] == bo.view["last"]["scores"] == cy.view["last"]["scores"]
    assert "Giv 1 is over" in cy.last_html.value
    cy.review()
    assert cy.review_view.layout.display == "" and cy.review_view.review is not None


def test_a_page_says_why_a_move_is_not_allowed_and_refuses_to_play_out_of_turn(server):
    _room, base = server
    ann, bo = LiveTable(link=_link(base, "Ann", 1)), LiveTable(link=_link(base, "Bo", 2))
    ann.open_table(players=2, game="krypkasino")
    bo.join(ann.code)
    for w in (ann, bo):
        w.sync()
    mover = ann if ann.view["turn"] == ann.view["seat"] else bo
    waiter = bo if mover is ann else ann
    waiter.select_hand(waiter.view["hand"][0])
    waiter.play_selected()
    assert "Wait for your turn" in waiter.message
    # a card that has a träff may not creep: the engine's own words
    rules = Rules.from_dict(mover.view["rules"])
    legal = [Move.parse(m) for m in mover.view["legal"]]
    creeps = {m.card for m in legal if m.capture is None}
    taking = next((c for c in map(Card, mover.view["hand"]) if c not in creeps), None)
    if taking is not None:
        mover.select_hand(taking)
        mover.select_table([])
        mover.play_selected()
        assert "may not creep" in mover.message or "must" in mover.message, mover.message
        assert game_of(rules).title == "Krypkasino"
    # and a move sent on an old view is refused by the server, in a sentence, and the page catches up
    version = mover.view["version"]
    mover.view["version"] = version - 1
    mover.choose(legal[0])
    assert "old view" in mover.message and mover.view["version"] == version


def test_a_learner_opening_the_page_again_comes_back_to_their_seat(server):
    _room, base = server
    ann = LiveTable(link=_link(base, "Ann", 1))
    ann.open_table(players=2, game="krypkasino")
    again = LiveTable(link=_link(base, "Ann", 1))
    again._session_changed()  # what the page does once the learner is known
    assert again.code == ann.code and again.seat_token == ann.seat_token and "Welcome back" in again.message
    assert again.lobby.layout.display == "none" and again.seat_box.layout.display == ""


def test_without_a_class_server_the_page_says_so_and_offers_no_table():
    w = LiveTable(link=None)
    assert "need the class's server" in w.note.value and w.lobby.layout.display == "none"


def test_pages_waiting_in_the_lobby_show_the_seats_the_teacher_gives_them(server):
    """The teacher seats the class (issue 24): each waiting page's lobby poll is answered with its
    seat, and the page shows its table as if it had joined it."""
    from concurrent.futures import ThreadPoolExecutor

    room, base = server
    links = [_link(base, name, i + 1) for i, name in enumerate(["Ann", "Bo"])]
    widgets = [LiveTable(link=link) for link in links]
    with ThreadPoolExecutor(2) as pool:  # each kernel's lobby poll, waiting
        polls = [pool.submit(link.get, "tables/lobby", learner=link.token) for link in links]
        for _ in range(100):
            if len(room.waiting()) == 2:
                break
            threading.Event().wait(0.05)
        assert not any(p.done() for p in polls)
        seated = threading.Event()
        box: dict = {}

        def seat() -> None:  # the teacher's click, on the server's loop
            box["tables"] = room.seat_lobby(2)
            seated.set()

        room.test_loop.call_soon_threadsafe(seat)
        assert seated.wait(5)
        answers = [p.result(timeout=5) for p in polls]
    for w, answer in zip(widgets, answers, strict=True):
        w.lobby_answer(answer)
    code = box["tables"][0].code
    for w in widgets:
        assert w.code == code and w.seat_box.layout.display == "" and w.lobby.layout.display == "none"
        assert f"Your teacher seated you at table {code}" in w.feedback.value
    # a lobby's answer without a seat says whether a class tournament is under way
    alone = LiveTable(link=_link(base, "Cy", 3))
    alone.lobby_answer({"code": None, "tournament": True})
    assert alone.code is None and alone.tournament_button.layout.display == ""
    alone.lobby_answer({"code": None, "tournament": False})
    assert alone.tournament_button.layout.display == "none"


def _pair(base: str, names: tuple[str, str], learners: tuple[int, int], **table) -> tuple[LiveTable, LiveTable]:
    """Two learners' widgets at a new table of two (the first opens it with ``table``'s choices,
    the second joins), synced: (the seat whose turn it is, the other)."""
    first, second = (LiveTable(link=_link(base, name, learner)) for name, learner in zip(names, learners))
    first.open_table(players=2, **table)
    second.join(first.code)
    for w in (first, second):
        w.sync()
    view = first.view
    assert view is not None
    return (first, second) if view["turn"] == view["seat"] else (second, first)


def test_where_the_class_allows_hints_a_seat_gets_one_in_its_turn_and_plays_it(server):
    """[live] hints (issue 24): the page shows Hint where the class allows it; the server works the
    hint out (the strongest bot, in a worker process), the page selects its cards and says why, and
    Play plays it. Where hints are not allowed the button is hidden and the server refuses."""
    room, base = server
    room.hints = True
    mover, waiting = _pair(base, ("Ann", "Bo"), (1, 2), game="krypkasino")
    assert mover.hint_button.layout.display == "" and not mover.hint_button.disabled
    assert waiting.hint_button.disabled
    before = len(mover.view["moves"])
    mover.hint()
    assert mover.feedback.value.count("Hint: ") == 1, mover.feedback.value
    assert mover.hand_row.selected_cards, "the hinted card is selected"
    mover.play_selected()
    if mover.options.children:
        mover.options.children[0].click()
    assert len(mover.view["moves"]) == before + 1 and "You played" in mover.feedback.value
    # out of its turn (the mover has just played): the server says so, in one sentence
    mover.view = {**mover.view, "turn": mover.view["seat"]}  # a stale view that thinks it is its turn
    mover.hint()
    assert "it is not your turn" in mover.feedback.value

    room.hints = False
    mover, waiting = _pair(base, ("Cy", "Di"), (3, 4))
    assert mover.hint_button.layout.display == "none" and waiting.hint_button.layout.display == "none"
    mover.hint()
    assert "your teacher has not allowed hints at the tables" in mover.feedback.value


def test_a_hint_at_a_table_speaks_the_pages_language(server):
    """[live] a Swedish page's hint (issue 24): the page sends its language, the server's worker
    says the reason in it (naming the seats as the page does), and every sentence the page shows
    around it is Swedish; Play then plays the hinted move."""
    room, base = server
    room.hints = True
    with use_language("sv"):
        mover, _waiting = _pair(base, ("Ann", "Bo"), (1, 2), game="krypkasino")
        before = len(mover.view["moves"])
        mover.hint()
        said = mover.feedback.value
        assert said.count("Ledtråd: ") == 1, said
        assert "Korten är valda åt dig: tryck på Spela för att spela draget." in said, said
        assert "Hint" not in said and "press Play" not in said, said
        # the reason itself is the Swedish one (hint_for's sentences: "tar", "Det är", "spela" …)
        reason = said.split("Ledtråd: ", 1)[1]
        assert any(word in reason for word in (" tar ", "Det ", " du ", "Du ", " kort")), reason
        assert not any(word in reason for word in (" takes ", "The only", " you ", "You ")), reason
        mover.play_selected()
        if mover.options.children:
            mover.options.children[0].click()
        assert len(mover.view["moves"]) == before + 1
