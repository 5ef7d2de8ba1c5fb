"""The live class's tables on the server, value by value: each test kills mutants of
``krypteach/serve/tables.py`` that the other tests let live (docs/mutation/live.md). Whatever a
learner's page may not do is refused in one sentence; the teacher's limits hold."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import time
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

import pytest
import tornado.web
from tornado.httpclient import AsyncHTTPClient, HTTPClientError

import krypteach.serve.tables as tables_module
from krypteach.classroom.session import sign_learner
from krypteach.classroom.store import ProgressStore
from krypteach.engine.rules import Rules
from krypteach.play.table import Table, TableError
from krypteach.serve.settings import ServeSettings
from krypteach.serve.tables import (
    TABLE_NONCE,
    TableRoom,
    class_room,
    room_keeping,
    table_handlers,
    token_of,
)

from .conftest import _free_port
from .serve_helpers import run_in_thread as _run

KEY = b"0123456789abcdef0123456789abcdef"


def _token(name: str, learner: int) -> str:
    return sign_learner(KEY, "K7", name, learner, TABLE_NONCE)


def _fake_hint(_obs, lang: str, names: list[str]) -> tuple[str, str]:
    """A hint that says where it was worked out and what it was given (run in the worker process)."""
    return str(os.getpid()), f"{lang}: {', '.join(names)}"


def _slow_hint(_obs, _lang: str, names: list[str]) -> tuple[str, str]:
    """A hint that takes the seconds its first name says (run in the worker process)."""
    time.sleep(float(names[0]))
    return "slow", names[0]


@asynccontextmanager
async def _served(room: TableRoom, **settings: Any) -> AsyncIterator[tuple[str, int]]:
    """``room``'s handlers on a free port of 127.0.0.1 (with the tables' key, or ``settings``):
    yields (the tables' address, the port); the server and the room are stopped after."""
    port = _free_port()
    server = tornado.web.Application(table_handlers(room), **(settings or {"krypteach_table_key": KEY})).listen(
        port, "127.0.0.1")
    try:
        yield f"http://127.0.0.1:{port}/krypteach/tables", port
    finally:
        server.stop()
        _stop(room)


async def _fetch(base: str, path: str = "", body: dict | None = None, timeout: float = 30,
                 **query) -> tuple[int, dict, dict]:
    """(status, the answer's JSON, its headers) of a kernel's request."""
    url = base + path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    try:
        r = await AsyncHTTPClient().fetch(url, method="POST" if body is not None else "GET",
                                          body=None if body is None else json.dumps(body), request_timeout=timeout)
        return r.code, json.loads(r.body), dict(r.headers)
    except HTTPClientError as e:
        if e.response is None:
            return e.code, {}, {}
        try:
            said = json.loads(e.response.body)
        except ValueError:  # Tornado's own page: no handler of the tables at that address
            said = {}
        return e.code, said, dict(e.response.headers)


def _stop(room: TableRoom) -> None:
    """Stop the room, and wait for its hint worker to end: a worker left behind outlives the test
    process, which a mutation run's process then reaps as if it were its own."""
    workers = _workers_of(room._hint_pool)
    room.stop()
    for worker in workers:  # (the stopped pool forgets them: shutdown(wait=True) again would not wait)
        worker.join(10)


def _workers_of(pool: ProcessPoolExecutor | None) -> list[Any]:
    """The hint pool's worker processes (to be taken before the room stops: the stopped pool forgets them)."""
    return list((pool._processes or {}).values()) if pool is not None else []


def _seats_at_their_turn(room: TableRoom, n: int) -> list[tuple[Any, str]]:
    """``n`` tables of two opened in ``room``, each learner's seat at its turn: (table, seat token)."""
    seats = []
    for k in range(n):
        table, token = room.open(f"P{k}", 2, learner=k + 1)
        _turn_of(table, token)
        seats.append((table, token))
    return seats


async def _workers_end(workers: list[Any]) -> None:
    """Wait until the hint pool's worker processes (taken before the room stopped) have ended:
    once stopped, the pool forgets them, and a second ``shutdown(wait=True)`` waits for nothing."""
    for worker in workers:
        await asyncio.to_thread(worker.join, 10)
        assert worker.exitcode is not None


def _turn_of(table, token: str) -> None:
    """Let the bots play until it is the seat of ``token``'s turn."""
    seat = table.seat_of(token)
    while table.giv.turn != seat:
        table.tick(time.time())


# --- the room's limits and words ---------------------------------------------------------------
def test_a_room_has_the_careful_bot_a_minute_the_bot_pause_and_no_hints_unless_told():
    room = TableRoom()
    assert (room.rules, room.bot, room.replace_after, room.bot_pause, room.hints) == (Rules(), "careful", 60.0,
                                                                                       0.6, False)


def test_a_table_opened_or_sat_at_without_a_learner_is_learner_0s():
    room = TableRoom(Rules(players=2))
    table, _seat = room.open("Ann", 2)
    room.sit(table, "Bo")
    assert room.learners[table.code] == {0: 0, 1: 0}


def test_a_server_holds_at_most_most_tables_and_says_so(monkeypatch):
    monkeypatch.setattr(tables_module, "MOST_TABLES", 2)
    room = TableRoom(Rules(players=2))
    room.open("Ann", 2)
    room.open("Bo", 2)
    with pytest.raises(TableError, match=r"^this server holds 2 tables already: ask your teacher$"):
        room.open("Cy", 2)


def test_a_tournament_giv_counts_against_the_most_tables_too(monkeypatch):
    monkeypatch.setattr(tables_module, "MOST_TABLES", 1)
    room = TableRoom(Rules(players=2))
    room.open("Ann", 2)
    with pytest.raises(TableError, match=r"^this server holds 1 tables already: ask your teacher$"):
        room.add_private(Table(room.new_code(), Rules(players=2)), 7, 0, "Bo")
    assert len(room.tables) == 1 and room.private == set()


def test_a_bot_waits_its_pause_after_a_tournament_giv_is_sat_down_at():
    room = TableRoom(Rules(players=2), bot="random", bot_pause=30.0)
    table = Table(room.new_code(), Rules(players=2), bot="random")
    bots_seat = table.giv.turn
    room.add_private(table, 7, 1 - bots_seat, "Ann")  # the bot's turn first
    version = table.version
    room.tick()
    assert table.version == version and table.giv.turns == []  # the learner sees the table before it moves


def test_a_new_tables_code_is_drawn_again_until_no_table_has_it(monkeypatch):
    room = TableRoom(Rules(players=2))
    table = Table("AAAA", Rules(players=2))
    room.add_private(table, 7, 0, "Ann")
    drawn = iter(["AAAA", "AAAA", "BBBB"])
    monkeypatch.setattr(tables_module, "new_code", lambda: next(drawn))
    assert room.new_code() == "BBBB"


def test_a_game_the_tables_do_not_play_is_named_cut_at_20_with_the_games_they_do():
    with pytest.raises(TableError) as e:
        TableRoom(Rules(players=2)).open("Ann", 2, game="x" * 30)
    assert str(e.value) == "x" * 20 + " is no game of the tables: choose one of krypkasino, kasino, avig-kasino"


def test_the_class_game_asked_for_by_name_keeps_the_classs_own_options():
    room = TableRoom(Rules.preset("avig-kasino").replace(target=21))
    table, _t = room.open("Ann", 2, game="avig-kasino")
    assert table.rules.target == 21 and table.rules.game == "kasino"
    plain, _t = room.open("Bo", 2, game="kasino")
    assert plain.rules == Rules.preset("kasino").replace(players=2)


def test_the_reasons_a_table_was_taken_away_are_kept_for_the_newest_most_tables(monkeypatch):
    monkeypatch.setattr(tables_module, "MOST_TABLES", 3)
    room = TableRoom(Rules(players=2))
    for code in ("AAAA", "BBBB", "CCCC", "DDDD"):
        room.remove(code, "the teacher ended the tournament")
    assert list(room.gone) == ["BBBB", "CCCC", "DDDD"]


def test_a_table_taken_away_answers_its_polls_and_leaves_nothing_of_it_behind():
    async def main() -> None:
        room = TableRoom(Rules(players=2))
        table = Table(room.new_code(), Rules(players=2))
        room.add_private(table, 7, 0, "Ann")
        assert table.code in room.private and room.learners[table.code] == {0: 7}
        poll = asyncio.ensure_future(room.wait(table.code, table.version, timeout=10))
        await asyncio.sleep(0.05)
        assert not poll.done()
        room.remove(table.code, "the teacher ended the tournament")
        await asyncio.wait_for(poll, 2)  # answered at once, not after its ten seconds
        assert (table.code in room.tables, table.code in room.learners, table.code in room.private,
                table.code in room._changed_at) == (False, False, False, False)
        with pytest.raises(TableError, match=r"^the teacher ended the tournament$"):
            room.table(table.code)

    _run(main)


def test_a_learner_sitting_down_answers_the_polls_waiting_on_the_table():
    async def main() -> None:
        room = TableRoom(Rules(players=2))
        table, _ann = room.open("Ann", 2, learner=1)
        poll = asyncio.ensure_future(room.wait(table.code, table.version, timeout=10))
        await asyncio.sleep(0.05)
        assert not poll.done()
        room.sit(table, "Bo", learner=2)
        await asyncio.wait_for(poll, 2)  # Ann's page sees Bo at once

    _run(main)


def test_a_poll_ends_after_its_time_and_leaves_nothing_behind():
    async def main() -> None:
        room = TableRoom(Rules(players=2))
        table, _ann = room.open("Ann", 2, learner=1)
        t0 = time.monotonic()
        await asyncio.wait_for(room.wait(table.code, table.version, timeout=0.2), 5)
        assert 0.15 < time.monotonic() - t0 < 3 and room._waiting.get(table.code, []) == []

    _run(main)


def test_the_bots_play_again_when_the_room_is_started_after_a_stop():
    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random", bot_pause=0.0)
        room.start()
        room.stop()
        table, ann = room.open("Ann", 2, learner=1)
        while table.giv.turn == table.seat_of(ann):  # Ann plays until it is the bot's turn
            v = table.view(ann)
            table.move(ann, v["legal"][0], version=v["version"])
        version = table.version
        room.start()
        try:
            for _ in range(50):
                await asyncio.sleep(0.05)
                if table.version != version:
                    break
            assert table.version != version  # the bot has played
        finally:
            room.stop()

    _run(main)


def test_seating_the_lobby_counts_the_tables_it_makes_against_the_limit(monkeypatch):
    monkeypatch.setattr(tables_module, "MOST_TABLES", 3)

    async def main() -> None:
        room = TableRoom(Rules(players=2))
        with pytest.raises(TableError, match=r"^nobody is waiting for a table: the learners open the game page "
                                             r"\(lesson 7\) first$"):
            room.seat_lobby(2)
        room.open("Xa", 2, learner=90)
        room.open("Xb", 2, learner=91)
        for learner, name in ((1, "Ann"), (2, "Bo")):
            room.lobby_enter(learner, name)
        # two tables and one more for Ann and Bo: three, the most
        assert len(room.seat_lobby(2, rng=random.Random(1))) == 1 and len(room.tables) == 3
        for learner, name in ((3, "Cy"), (4, "Di"), (5, "Ed")):
            room.lobby_enter(learner, name)
        room.remove(next(iter(room.tables)))
        # two tables, and two more for three learners: four, one too many
        with pytest.raises(TableError, match=r"^this server holds 3 tables already: ask your teacher$"):
            room.seat_lobby(2)

    _run(main)


# --- the lobby -----------------------------------------------------------------------------------
def test_a_learner_waits_in_the_lobby_while_any_of_their_pages_polls():
    async def main() -> None:
        room = TableRoom(Rules(players=2))
        polls = [room.lobby_enter(1, "Ann") for _ in range(3)]
        for n, f in enumerate(polls):
            assert room.waiting() == [(1, "Ann")], n
            room.lobby_leave(1, f)
        assert room.waiting() == [] and room.lobby == {}
        # a page that has left is not answered when the class is seated
        room.wake_lobby()
        assert not any(f.done() for f in polls)

    _run(main)


def test_the_learners_waiting_are_by_nickname_whatever_its_case_then_by_who_came_first():
    async def main() -> None:
        room = TableRoom(Rules(players=2))
        for learner, name in ((1, "bo"), (2, "ann"), (3, "Ann")):
            room.lobby_enter(learner, name)
        assert room.waiting() == [(2, "ann"), (3, "Ann"), (1, "bo")]

    _run(main)


# --- hints ---------------------------------------------------------------------------------------
def test_a_hint_is_worked_out_in_one_spawned_worker_process_one_at_a_time_for_a_seat(monkeypatch):
    monkeypatch.setattr(tables_module, "hint_for", _fake_hint)

    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random", hints=True)
        try:
            table, ann = room.open("Ann", 2, learner=1)
            _turn_of(table, ann)
            first, second = await asyncio.gather(room.hint(table, ann, "sv", ["Ann", "Bot"]),
                                                 room.hint(table, ann, "sv", ["Ann", "Bot"]), return_exceptions=True)
            pid, reason = first
            assert int(pid) != os.getpid() and reason == "sv: Ann, Bot"
            assert isinstance(second, TableError) and str(second) == "your hint is on its way: wait for it"
            assert await room.hint(table, ann, "en", ["Ann", "Bot"]) == (pid, "en: Ann, Bot")  # the same worker
            pool = room._hint_pool
            assert isinstance(pool, ProcessPoolExecutor) and pool._max_workers == 1
            assert pool._mp_context.get_start_method() == "spawn"
        finally:
            _stop(room)

    _run(main)


def test_stopping_the_room_does_not_wait_for_a_hint_under_way_and_the_next_hint_works(monkeypatch):
    monkeypatch.setattr(tables_module, "hint_for", _slow_hint)

    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random", hints=True)
        seats = _seats_at_their_turn(room, 3)
        try:
            assert await room.hint(*seats[0], "en", ["0", "x"]) == ("slow", "0")  # the worker is up
            asked = [asyncio.ensure_future(room.hint(*seats[0], "en", ["3", "x"]))]
            asked += [asyncio.ensure_future(room.hint(*seat, "en", ["0", "x"])) for seat in seats[1:]]
            await asyncio.sleep(0.3)
            pool = room._hint_pool
            assert pool is not None
            workers = _workers_of(pool)
            t0 = time.monotonic()
            room.stop()
            assert time.monotonic() - t0 < 1.5  # not waiting for the three-second hint
            # (which of the hints waiting are cancelled is not pinned: the ones in the pool's queue to the
            # worker already cannot be taken back, and how many are there varies)
            for f in asked:
                f.cancel()
            await asyncio.wait_for(asyncio.gather(*asked, return_exceptions=True), 5)
            await _workers_end(workers)  # the three-second hint ends
            assert await room.hint(*seats[2], "en", ["0", "y"]) == ("slow", "0")  # a new worker
        finally:
            _stop(room)

    _run(main)


def test_stopping_the_room_takes_back_the_hints_still_waiting_for_its_worker(monkeypatch):
    """The pool holds one worker and queues two more calls to it (``EXTRA_QUEUED_CALLS``): with a
    three-second hint under way and seven asked after it, at least the last four still wait in the
    pool when the room stops, and are taken back at once instead of being worked out for nobody."""
    monkeypatch.setattr(tables_module, "hint_for", _slow_hint)

    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random", hints=True)
        seats = _seats_at_their_turn(room, 8)
        try:
            assert await room.hint(*seats[0], "en", ["0", "x"]) == ("slow", "0")  # the worker is up
            asked = [asyncio.ensure_future(room.hint(*seats[0], "en", ["3", "x"]))]
            await asyncio.sleep(0.3)  # the three-second hint is under way
            asked += [asyncio.ensure_future(room.hint(*seat, "en", ["0", "x"])) for seat in seats[1:]]
            await asyncio.sleep(0.2)
            pool = room._hint_pool
            assert pool is not None
            workers = _workers_of(pool)
            room.stop()
            await asyncio.wait(asked[-4:], timeout=1.0)
            assert [f.cancelled() for f in asked[-4:]] == [True] * 4
            assert not asked[0].done()  # the hint under way is not taken back (it cannot be)
            for f in asked:
                f.cancel()
            await asyncio.wait_for(asyncio.gather(*asked, return_exceptions=True), 5)
            await _workers_end(workers)
        finally:
            _stop(room)

    _run(main)


def test_no_hint_where_the_teacher_has_not_allowed_them():
    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random")
        table, ann = room.open("Ann", 2, learner=1)
        _turn_of(table, ann)
        with pytest.raises(TableError) as e:
            await room.hint(table, ann, "en", ["Ann", "Bot"])
        assert str(e.value) == "your teacher has not allowed hints at the tables" and room._hint_pool is None

    _run(main)


def test_a_hint_asked_for_over_http_is_checked_and_answered_in_english_by_default(monkeypatch):
    monkeypatch.setattr(tables_module, "hint_for", _fake_hint)

    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random", hints=True)
        async with _served(room) as (base, _port):
            table, ann = room.open("Ann", 2, learner=1)
            _turn_of(table, ann)
            path = f"/{table.code}/hint"
            status, said, headers = await _fetch(base, path, {"seat": ann, "names": ["Ann", "B" * 40]})
            assert status == 200 and said == {"move": said["move"], "reason": "en: Ann, " + "B" * 40,
                                              "version": table.version}
            assert headers["Cache-Control"] == "no-store"
            refused = {"error": "a hint is asked for with {seat, lang, names}"}
            for body in ({"seat": ann, "names": ["Ann", "B" * 41]},          # a name too long
                         {"seat": ann, "names": ["Ann"]},                    # a name short
                         {"seat": ann, "names": "AB"},                       # no list
                         {"seat": ann, "lang": "xx", "names": ["Ann", "Bo"]},  # no language of ours
                         {"seat": 5, "names": ["Ann", "Bo"]}):               # no seat token
                assert (await _fetch(base, path, body))[:2] == (400, refused), body

    _run(main)


def test_a_hint_at_a_table_without_hints_is_forbidden_in_a_sentence():
    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random")
        async with _served(room) as (base, _port):
            table, ann = room.open("Ann", 2, learner=1)
            _turn_of(table, ann)
            status, said, _h = await _fetch(base, f"/{table.code}/hint", {"seat": ann, "names": ["Ann", "Bo"]})
            assert (status, said) == (403, {"error": "your teacher has not allowed hints at the tables"})

    _run(main)


# --- the lobby over HTTP -------------------------------------------------------------------------
class _Tournament:
    def __init__(self, running: bool) -> None:
        self.running = running


def test_a_lobby_poll_ends_after_wait_with_no_table_and_whether_a_tournament_is_under_way(monkeypatch):
    monkeypatch.setattr(tables_module, "WAIT", 0.3)

    async def main() -> None:
        room = TableRoom(Rules(players=2))
        async with _served(room) as (base, _port):
            status, said, headers = await _fetch(base, "/lobby", timeout=10, learner=_token("Ann", 1))
            assert (status, said) == (200, {"code": None}) and headers["Cache-Control"] == "no-store"
            assert room._lobby_waiting == [] and room.lobby == {}  # the poll that ended left nothing behind
            for running in (True, False):
                room.tournament = _Tournament(running)
                status, said, _h = await _fetch(base, "/lobby", timeout=10, learner=_token("Ann", 1))
                assert (status, said) == (200, {"code": None, "tournament": running})

    _run(main)


def test_a_learner_with_a_table_is_answered_by_the_lobby_at_once():
    async def main() -> None:
        room = TableRoom(Rules(players=2))
        async with _served(room) as (base, _port):
            table, ann = room.open("Ann", 2, learner=1)
            t0 = time.monotonic()
            status, said, headers = await _fetch(base, "/lobby", timeout=10, learner=_token("Ann", 1))
            assert status == 200 and said["code"] == table.code and said["seat_token"] == ann
            assert time.monotonic() - t0 < 5 and headers["Cache-Control"] == "no-store"

    _run(main)


# --- opening, joining, viewing: every refusal in its sentence --------------------------------------------
class _SeatingTournament:
    """A class tournament under way that seats a learner at a private table of its own."""

    def __init__(self, room: TableRoom) -> None:
        self.room, self.running = room, True

    def seat(self, learner: int, nickname: str):
        table = Table(self.room.new_code(), Rules(players=2))
        return table, self.room.add_private(table, learner, 0, nickname)


def test_a_kernels_requests_to_the_tables_are_refused_in_their_sentences_and_answered_uncached():
    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random")
        client = AsyncHTTPClient()
        async with _served(room) as (base, _port):
            ann = _token("Ann", 1)
            for raw in (b"not json", b"[1]"):
                try:
                    await client.fetch(base, method="POST", body=raw)
                    raise AssertionError("accepted")
                except HTTPClientError as e:
                    assert (e.code, json.loads(e.response.body)) == (400, {"error": "the request is a JSON object"})
            signed_out = (403, {"error": "sign in first: the tables are for the learners of the class"})
            try:  # an empty body is an empty object: who asks, then
                await client.fetch(base, method="POST", body=b"")
                raise AssertionError("accepted")
            except HTTPClientError as e:
                assert (e.code, json.loads(e.response.body)) == signed_out
            assert (await _fetch(base, body={"open": 2}))[:2] == signed_out
            assert (await _fetch(base, body={"learner": "x.y", "open": 2}))[:2] == signed_out
            players = (400, {"error": "open: the number of players, 2 to 6"})
            for n in (True, "2", None):
                assert (await _fetch(base, body={"learner": ann, "open": n}))[:2] == players, n
            assert (await _fetch(base, body={"learner": ann, "open": 2, "game": 5}))[:2] == (
                400, {"error": "game: a game's name"})
            assert (await _fetch(base, body={"learner": ann}))[:2] == (400, {"error": "open a table or join one"})
            assert (await _fetch(base, body={"learner": ann, "tournament": True}))[:2] == (
                409, {"error": "there is no class tournament under way: your teacher starts one"})
            assert (await _fetch(base, body={"learner": ann, "mine": True}))[:2] == (200, {"code": None})
            status, opened, _h = await _fetch(base, body={"learner": ann, "open": 2})
            assert status == 200 and set(opened) == {"code", "seat_token", "view"} and opened["view"]["seat"] == 0
            code = opened["code"]
            assert (await _fetch(base, body={"learner": _token("Bo", 2), "join": f" {code.lower()} "}))[0] == 200
            assert (await _fetch(base, body={"learner": _token("Cy", 3), "join": code}))[:2] == (
                409, {"error": "this table is full: every seat has a player"})
            assert (await _fetch(base, body={"learner": _token("Cy", 3), "join": "zzzzzzzzzz"}))[:2] == (
                409, {"error": "there is no table zzzzzzzz in this class: check its code"})
            # the view: at once for a version behind, refused for a seat not of the table or a version not a number
            status, view, headers = await _fetch(base, f"/{code}", seat=opened["seat_token"])
            assert status == 200 and view["seat"] == 0 and headers["Cache-Control"] == "no-store"
            assert (await _fetch(base, f"/{code}", seat=opened["seat_token"], since="x"))[:2] == (
                400, {"error": "since: a version number"})
            for no_seat in ({"seat": "forged"}, {}):
                assert (await _fetch(base, f"/{code}", **no_seat))[:2] == (
                    403, {"error": "this page has no seat at this table"}), no_seat
            assert (await _fetch(base, "/ZZZZ", seat="forged"))[:2] == (
                404, {"error": "there is no table ZZZZ in this class: check its code"})
            assert (await _fetch(base, f"/{code}x", seat=opened["seat_token"]))[0] == 404  # codes have four letters
            # a class tournament under way: the learner's own giv, and "mine" says it runs
            room.tournament = _SeatingTournament(room)
            status, mine, _h = await _fetch(base, body={"learner": _token("Di", 4), "mine": True})
            assert (status, mine) == (200, {"code": None, "tournament": True})
            status, giv, _h = await _fetch(base, body={"learner": _token("Di", 4), "tournament": True})
            assert status == 200 and giv["code"] in room.private and giv["view"]["names"][0] == "Di"
            assert room.learners[giv["code"]] == {0: 4}  # the tournament seats the learner of the token
            assert (await _fetch(base, body={"learner": _token("Ed", 5), "join": giv["code"]}))[:2] == (
                409, {"error": f"table {giv['code']} is a tournament giv: nobody else sits down at it"})

    _run(main)


def test_the_servers_learner_key_signs_the_tables_learners_and_a_hub_says_who_asks():
    from krypteach.serve.tables import HUB_IDENTITY, learner_of

    class Handler:
        def __init__(self, **settings) -> None:
            self.settings = settings

    other = b"another key, the server's own key"
    served = ServeSettings(gate=None, start_page=None, learner_key=other)
    assert learner_of(Handler(krypteach=served), sign_learner(other, "K7", "Ann", 1, TABLE_NONCE)) == ("K7", "Ann", 1)
    assert learner_of(Handler(krypteach=served, krypteach_table_key=KEY), _token("Ann", 1)) is None
    assert learner_of(Handler(krypteach_table_key=KEY), _token("Ann", 1)) == ("K7", "Ann", 1)
    assert learner_of(Handler(krypteach_table_key=KEY), sign_learner(KEY, "K7", "Ann", 1, "")) is None  # not the tables'
    assert learner_of(Handler(), _token("Ann", 1)) is None  # no key at all
    for forged_with in (b"", b"XXXX"):  # and without the server's key no key a page makes up will do
        assert learner_of(Handler(), sign_learner(forged_with, "K7", "Ann", 1, TABLE_NONCE)) is None
    assert learner_of(Handler(krypteach_table_key=KEY), 7) is None
    on_hub = Handler(**{HUB_IDENTITY: object()})
    on_hub.hub_learner = ("HUB", "ann", 3)
    assert learner_of(on_hub, "anything") == ("HUB", "ann", 3)


# --- a move ------------------------------------------------------------------------------------------
def test_a_move_that_is_not_seat_move_and_version_is_refused_in_a_sentence():
    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random")
        async with _served(room) as (base, _port):
            table, ann = room.open("Ann", 2, learner=1)
            _turn_of(table, ann)
            move = table.view(ann)["legal"][0]
            refused = (400, {"error": "a move is {seat, move, version}"})
            for body in ({"seat": ann, "move": move, "version": True},   # a truth is no version
                         {"seat": ann, "move": move},
                         {"seat": ann, "move": 7, "version": table.version},
                         {"seat": 7, "move": move, "version": table.version}):
                assert (await _fetch(base, f"/{table.code}/move", body))[:2] == refused, body
            status, view, headers = await _fetch(base, f"/{table.code}/move",
                                                 {"seat": ann, "move": move, "version": table.version})
            assert status == 200 and view["moves"][-1] == [table.seat_of(ann), move]
            assert headers["Cache-Control"] == "no-store"

    _run(main)


# --- a page gone away ------------------------------------------------------------------------------
def test_a_page_gone_away_is_answered_away_and_a_forged_seat_is_refused_in_a_sentence():
    async def main() -> None:
        room = TableRoom(Rules(players=2))
        async with _served(room) as (base, _port):
            table, ann = room.open("Ann", 2, learner=1)
            status, said, _h = await _fetch(base, f"/{table.code}/away", {"seat": "forged"})
            assert (status, said) == (404, {"error": "this page has no seat at this table"})
            assert (await _fetch(base, f"/{table.code}/away", {"seat": ann}))[:2] == (200, {"away": True})

    _run(main)


# --- the room of a served class ----------------------------------------------------------------------
def test_a_served_classs_room_has_its_bot_delay_and_hints():
    settings = ServeSettings(gate=None, start_page=None, live_bot="random", live_replace_after=5.0,
                             live_hints=True)
    room = class_room(settings)
    assert (room.bot, room.replace_after, room.hints, room.rules) == ("random", 5.0, True, Rules())


def test_a_room_keeping_nothing_has_the_plain_rules_the_careful_bot_a_minute_and_no_hints():
    room = room_keeping(None, None)
    assert (room.rules, room.bot, room.replace_after, room.hints, room.on_giv) == (Rules(), "careful", 60.0,
                                                                                    False, None)
    other = room_keeping("kasino", None, bot="random", replace_after=5.0, hints=True)
    assert (other.rules, other.bot, other.replace_after, other.hints) == (Rules.preset("kasino"), "random", 5.0,
                                                                          True)


def _play_out(table, tokens: dict[int, str], seed: int) -> None:
    rng = random.Random(seed)
    while not table.giv.is_over:
        v = table.view(tokens[table.giv.turn])
        table.move(tokens[table.giv.turn], rng.choice(v["legal"]), version=v["version"])


def test_each_giv_of_a_table_is_kept_as_the_tables_numbered_giv_under_its_game():
    store = ProgressStore(":memory:")
    ann, bo = store.join("K7", "Ann"), store.join("K7", "Bo")
    room = room_keeping("avig-kasino", store, bot="random")
    table, a = room.open("Ann", 2, learner=ann)
    b = room.sit(table, "Bo", learner=bo)
    _play_out(table, {table.seat_of(a): a, table.seat_of(b): b}, seed=4)
    for learner in (ann, bo):
        assert [(r[2], r[6]) for r in store.attempts(learner) if r[3] == "giv"] == [
            (f"table-{table.code}-giv-1", "avig-kasino")]


def test_a_giv_the_store_cannot_keep_is_logged_with_its_table(caplog):
    class Failing(ProgressStore):
        def record(self, *args, **kwargs):
            raise RuntimeError("the database went away")

    store = Failing(":memory:")
    ann, bo = store.join("K7", "Ann"), store.join("K7", "Bo")
    room = room_keeping("kasino", store, bot="random")
    table, a = room.open("Ann", 2, learner=ann)
    b = room.sit(table, "Bo", learner=bo)
    with caplog.at_level(logging.ERROR, logger="krypteach.tables"):
        _play_out(table, {table.seat_of(a): a, table.seat_of(b): b}, seed=5)
    said = [r.getMessage() for r in caplog.records if r.name == "krypteach.tables"]
    assert said == [f"a giv of table {table.code} was not kept"] * 2


# --- the token of a hub's request -----------------------------------------------------------------
def test_a_bearer_token_and_a_token_after_two_spaces_are_read():
    assert token_of({"Authorization": "Bearer abc"}) == "abc"
    assert token_of({"Authorization": "token  abc"}) == "abc"
    assert token_of({"Authorization": "bearer"}) == ""




# --- on JupyterHub: a page gone while the hub says who it is ------------------------------------
class _SlowHub:
    """A hub that says who asks (ann, learner 3) only once told to: a page may go meanwhile."""

    def __init__(self) -> None:
        self.asked, self.answer = asyncio.Event(), asyncio.Event()

    async def learner(self, token: str) -> tuple[str, str, int] | None:
        self.asked.set()
        await self.answer.wait()
        return ("HUB", "ann", 3)


async def _poll(port: int, path: str, hub: _SlowHub) -> asyncio.StreamWriter:
    """A kernel's GET of ``path`` with a hub token, once the hub has been asked who it is."""
    hub.asked.clear()
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: token t\r\n\r\n".encode())
    await writer.drain()
    await asyncio.wait_for(hub.asked.wait(), 10)
    return writer


def _no_errors_logged(caplog) -> None:
    """Nothing went wrong in the server's callbacks (Tornado and asyncio log what raises there)."""
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def _gone_while_asked(port: int, path: str, hub: _SlowHub) -> None:
    """The page goes while the hub is asked; then the hub answers."""
    (await _poll(port, path, hub)).close()
    await asyncio.sleep(0.3)
    hub.answer.set()
    await asyncio.sleep(0.5)


def test_a_page_gone_while_the_hub_says_who_it_is_does_not_wait_in_the_lobby(monkeypatch, caplog):
    """On JupyterHub a lobby poll first asks the hub whose token it carries; a page closed
    meanwhile must not then stand in the lobby, where the teacher would see it waiting."""
    from krypteach.serve.tables import HUB_IDENTITY

    monkeypatch.setattr(tables_module, "WAIT", 30)

    async def main() -> None:
        hub, room = _SlowHub(), TableRoom(Rules(players=2))
        async with _served(room, **{HUB_IDENTITY: hub}) as (_base, port):
            await _gone_while_asked(port, "/krypteach/tables/lobby", hub)
            assert room.lobby == {} and room.waiting() == [] and room._lobby_waiting == []
            writer = await _poll(port, "/krypteach/tables/lobby", hub)  # a page that stays waits, as before
            await asyncio.sleep(0.3)
            assert room.waiting() == [(3, "ann")]
            writer.close()
            await asyncio.sleep(0.3)
            assert room.waiting() == [] and room.lobby == {}

    _run(main)
    _no_errors_logged(caplog)  # a page that goes before its poll waits is no error in the server's log


def test_a_table_page_gone_while_the_hub_says_who_it_is_leaves_its_seat_away(caplog):
    """On JupyterHub a table's poll first asks the hub whose token it carries; a page closed
    meanwhile is away (its bot takes over after the teacher's delay), not back at its seat."""
    from krypteach.serve.tables import HUB_IDENTITY

    async def main() -> None:
        hub, room = _SlowHub(), TableRoom(Rules(players=2))
        table, ann = room.open("ann", 2, learner=3)
        seat = table._seats[table.seat_of(ann)]
        async with _served(room, **{HUB_IDENTITY: hub}) as (_base, port):
            assert seat.left_at is None
            await _gone_while_asked(port, f"/krypteach/tables/{table.code}?seat={ann}&since=-1", hub)
            assert seat.left_at is not None  # away since the page went; the bot plays after the delay

    _run(main)
    _no_errors_logged(caplog)
