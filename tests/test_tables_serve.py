"""The live class's tables over HTTP (issue 24): the server holds the table, kernels reach it
with a learner token signed with the server's key, a move reaches the other seats' waiting
polls, and whatever a page sends that it may not is refused in one sentence."""

from __future__ import annotations

import asyncio
import json
import random
import time

import tornado.web
from tornado.httpclient import AsyncHTTPClient, HTTPClientError

from krypteach.classroom.session import sign_learner
from krypteach.engine.rules import Rules
from krypteach.serve.tables import TABLE_NONCE, TableRoom, table_handlers

from .conftest import _free_port
from .serve_helpers import run_in_thread as _run

KEY = b"0123456789abcdef0123456789abcdef"


def _token(name: str, learner: int) -> str:
    return sign_learner(KEY, "K7", name, learner, TABLE_NONCE)


async def _serve(room: TableRoom):
    port = _free_port()
    app = tornado.web.Application(table_handlers(room), krypteach_table_key=KEY)
    server = app.listen(port, "127.0.0.1")
    return server, f"http://127.0.0.1:{port}/krypteach/tables"


async def _call(base: str, path: str = "", body: dict | None = None, **query) -> tuple[int, dict]:
    client = AsyncHTTPClient()
    url = base + path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    try:
        r = await client.fetch(url, method="POST" if body is not None else "GET",
                               body=None if body is None else json.dumps(body), request_timeout=30)
        return r.code, json.loads(r.body)
    except HTTPClientError as e:
        return e.code, json.loads(e.response.body) if e.response is not None else {}


def test_three_learners_at_a_table_over_http_each_move_reaches_the_others_polls_and_a_giv_is_kept():
    async def main() -> None:
        kept = []
        room = TableRoom(Rules(players=3), bot="random", bot_pause=0.0, on_giv=lambda t, g: kept.append(g))
        room.start()
        server, base = await _serve(room)
        try:
            status, opened = await _call(base, body={"learner": _token("Ann", 1), "open": 3})
            assert status == 200 and opened["view"]["names"] == ["Ann", None, None]
            code = opened["code"]
            seats = {0: opened["seat_token"]}
            for learner, name in ((2, "Bo"), (3, "Cy")):
                status, joined = await _call(base, body={"learner": _token(name, learner), "join": code.lower()})
                assert status == 200
                seats[joined["view"]["seat"]] = joined["seat_token"]
            assert room.learners[code] == {0: 1, 1: 2, 2: 3}
            # nobody else: a forged learner token, a full table, a table that is not there
            assert (await _call(base, body={"learner": "x.y", "join": code}))[0] == 403
            assert (await _call(base, body={"learner": _token("Di", 4), "join": code}))[0] == 409
            status, said = await _call(base, body={"learner": _token("Di", 4), "join": "ZZZZ"})
            assert status == 409 and "no table" in said["error"]
            rng = random.Random(2)
            latencies = []
            # (the room's timer deals the next giv as soon as one is over: the loop asks about the first)
            while not room.tables[code].parti.givar[0].is_over:
                table = room.tables[code]
                mover = table.giv.turn
                views = {s: (await _call(base, f"/{code}", seat=t, since=-1))[1] for s, t in seats.items()}
                v = views[mover]
                others = [asyncio.ensure_future(_call(base, f"/{code}", seat=seats[s], since=v["version"]))
                          for s in seats if s != mover]
                await asyncio.sleep(0.05)  # the other pages are waiting
                assert not any(f.done() for f in others)
                wrong = next(s for s in seats if s != mover)
                status, said = await _call(base, f"/{code}/move", {"seat": seats[wrong], "move": v["legal"][0],
                                                                     "version": v["version"]})
                assert status == 409 and said["error"] == "it is not your turn"
                t0 = time.monotonic()
                status, after = await _call(base, f"/{code}/move", {"seat": seats[mover], "move": rng.choice(v["legal"]),
                                                                     "version": v["version"]})
                assert status == 200 and after["version"] > v["version"]
                for f in others:
                    code_, seen = await f
                    assert code_ == 200 and seen["version"] > v["version"] and seen["moves"][-1][0] == mover
                latencies.append(time.monotonic() - t0)
                # the same move sent again: refused, nothing changed
                status, said = await _call(base, f"/{code}/move", {"seat": seats[mover], "move": v["legal"][0],
                                                                     "version": v["version"]})
                assert status == 409 and "old view" in said["error"]
            assert len(kept) == 1 and kept[0] is room.tables[code].parti.givar[0]
            assert max(latencies) < 5  # (a sanity bound; the figures are benchmarks/load_tables.py's)
            status, said = await _call(base, f"/{code}", seat="forged", since=-1)
            assert status == 403 and "no seat" in said["error"]
            assert (await _call(base, f"/{code}/move", {"seat": seats[0]}))[0] == 400
        finally:
            server.stop()
            room.stop()

    _run(main)


def test_a_bot_plays_the_empty_seat_and_the_seat_of_a_learner_away_too_long():
    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random", bot_pause=0.0, replace_after=0.2)
        room.start()
        server, base = await _serve(room)
        try:
            _s, opened = await _call(base, body={"learner": _token("Ann", 1), "open": 2})
            code, ann = opened["code"], opened["seat_token"]
            table = room.tables[code]
            # the empty seat is the bot's: when it is its turn, it plays (from the room's timer)
            for _ in range(50):
                if table.giv.turn == 0:
                    break
                await asyncio.sleep(0.05)
            assert table.giv.turn == 0
            assert (await _call(base, f"/{code}/away", {"seat": ann}))[0] == 200
            await asyncio.sleep(0.6)
            assert table.view(ann)["bots"][0] and table.giv.turns and table.giv.turns[-1].player in (0, 1)
            moved = len([t for t in table.giv.turns if t.player == 0])
            assert moved >= 1  # the bot played Ann's seat
            _s, back = await _call(base, f"/{code}", seat=ann, since=-1)  # the page is back
            assert not back["bots"][0]
        finally:
            server.stop()
            room.stop()

    _run(main)


def test_a_served_class_keeps_each_finished_giv_of_a_table_for_every_learner_at_it():
    from krypteach.classroom.store import ProgressStore
    from krypteach.engine.records import load_givar
    from krypteach.serve.settings import ServeSettings
    from krypteach.serve.tables import TABLES_LESSON, class_room

    store = ProgressStore(":memory:")
    ann, bo = store.join("K7", "Ann"), store.join("K7", "Bo")
    room = class_room(ServeSettings(gate=None, start_page=None, store=store, game_rules="kasino"))
    table, a = room.open("Ann", 2, learner=ann)
    b = room.sit(table, "Bo", learner=bo)
    tokens = {table.seat_of(a): a, table.seat_of(b): b}
    rng = random.Random(3)
    while not table.giv.is_over:
        v = table.view(tokens[table.giv.turn])
        table.move(tokens[table.giv.turn], rng.choice(v["legal"]), version=v["version"])
    for learner, seat in ((ann, table.seat_of(a)), (bo, table.seat_of(b))):
        givar = [r for r in store.attempts(learner) if r[3] == "giv"]
        assert [(r[1], r[7], r[6]) for r in givar] == [(TABLES_LESSON, table.giv.result.scores[seat], "kasino")]
        kept = load_givar(store.saved_game(learner, TABLES_LESSON, f"table-{table.code}"))
        assert [g.result for g in kept] == [table.giv.result]


def test_a_page_opened_again_gets_its_learners_seat_back_and_a_learner_may_choose_the_game():
    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random", bot_pause=0.0)
        server, base = await _serve(room)
        try:
            s, opened = await _call(base, body={"learner": _token("Ann", 1), "open": 4, "game": "kasino"})
            assert s == 200 and opened["view"]["game"] == "Kasino" and len(opened["view"]["names"]) == 4
            assert opened["view"]["rules"]["game"] == "kasino" and opened["view"]["record"] is None
            # the same learner on a new page (a new kernel, a new token of theirs): the same seat
            s, again = await _call(base, body={"learner": _token("Ann", 1), "mine": True})
            assert s == 200 and again["code"] == opened["code"] and again["seat_token"] == opened["seat_token"]
            # another learner sits nowhere, and a game the tables do not play is refused in a sentence
            assert (await _call(base, body={"learner": _token("Bo", 2), "mine": True}))[1] == {"code": None}
            s, no = await _call(base, body={"learner": _token("Bo", 2), "open": 2, "game": "poker"})
            assert s == 409 and "poker is no game of the tables" in no["error"]
        finally:
            server.stop()

    _run(main)


def test_a_poll_whose_kernel_goes_away_marks_the_seat_away_and_its_bot_takes_over():
    async def main() -> None:
        room = TableRoom(Rules(players=2), bot="random", bot_pause=0.0, replace_after=0.2)
        room.start()
        server, base = await _serve(room)
        try:
            _s, opened = await _call(base, body={"learner": _token("Ann", 1), "open": 2})
            code, ann = opened["code"], opened["seat_token"]
            table = room.tables[code]
            for _ in range(50):  # Ann's turn: the table waits for her
                if table.giv.turn == 0:
                    break
                await asyncio.sleep(0.05)
            version = table.version
            # a long poll, then the kernel dies (its connection closes mid-poll)
            _reader, writer = await asyncio.open_connection("127.0.0.1", int(base.split(":")[2].split("/")[0]))
            writer.write(f"GET /krypteach/tables/{code}?seat={ann}&since={version} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            await writer.drain()
            await asyncio.sleep(0.2)
            assert not table.view(ann)["bots"][0]
            writer.close()
            await asyncio.sleep(0.8)
            assert table.view(ann)["bots"][0] and table.version > version  # the bot plays Ann's seat now
        finally:
            server.stop()
            room.stop()

    _run(main)
