"""The teacher seats the class at tables in one click (issue 24): the learners' game pages wait
in the tables' lobby (a long poll each), the teacher's tables page lists them, and one post of
its form seats them all, each waiting page told its own seat at once."""

from __future__ import annotations

import asyncio
import json
import random
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
import tornado.web
from tornado.httpclient import AsyncHTTPClient

from krypteach.classroom.store import ProgressStore
from krypteach.engine.rules import Rules
from krypteach.play.table import TableError
from krypteach.serve.gate import ClassGate
from krypteach.serve.seating import seating_handlers
from krypteach.serve.settings import ServeSettings
from krypteach.serve.tables import TableRoom, table_handlers
from krypteach.serve.teacher_handlers import TeacherHandler

from .conftest import _free_port
from .serve_helpers import run_in_thread
from .test_board_serve import KEY, TEACHER, Teacher, _token


class _Lobby:
    """A room with learners waiting in its lobby, without HTTP (the futures stand for the polls)."""

    def __init__(self, names: list[str]) -> None:
        self.room = TableRoom(Rules(), bot="random")
        self.futures = [self.room.lobby_enter(i + 1, name) for i, name in enumerate(names)]


def test_seven_learners_at_tables_for_three_sit_three_two_and_two_and_every_wait_is_answered():
    async def main() -> None:
        lobby = _Lobby(["Ann", "Bo", "Cy", "Di", "Ed", "Fa", "Gu"])
        room = lobby.room
        assert [name for _id, name in room.waiting()] == ["Ann", "Bo", "Cy", "Di", "Ed", "Fa", "Gu"]
        tables = room.seat_lobby(3, rng=random.Random(4))
        assert sorted(sum(n is not None for n in t.names) for t in tables) == [2, 2, 3]
        assert all(t.rules.players == 3 for t in tables)
        seated = sorted(n for t in tables for n in t.names if n is not None)
        assert seated == ["Ann", "Bo", "Cy", "Di", "Ed", "Fa", "Gu"]  # each once
        assert all(f.done() for f in lobby.futures)
        assert room.waiting() == []  # all at a table now
        # each learner's own seat, as a page opened again finds it
        for learner in range(1, 8):
            table, token = room.mine(learner)
            assert table in tables and table.names[table.seat_of(token)] is not None

    run_in_thread(main)


def test_only_the_learners_without_a_table_are_seated_and_nobody_waiting_is_said_so():
    async def main() -> None:
        lobby = _Lobby(["Ann", "Bo", "Cy"])
        room = lobby.room
        own, _token_ann = room.open("Ann", 2, learner=1)  # Ann opened a table of her own meanwhile
        assert [name for _id, name in room.waiting()] == ["Bo", "Cy"]
        tables = room.seat_lobby(2, game="kasino")
        assert len(tables) == 1 and sorted(tables[0].names) == ["Bo", "Cy"]
        assert tables[0].giv.game.title == "Kasino"
        assert own.names == ["Ann", None]
        with pytest.raises(TableError, match="nobody is waiting for a table"):
            room.seat_lobby(2)
        room.lobby_enter(9, "Ida")
        with pytest.raises(TableError, match="players"):  # a table for 7: the rules say no, nothing opened
            room.seat_lobby(7)
        with pytest.raises(TableError, match="no game of the tables"):
            room.seat_lobby(2, game="chess")
        assert len(room.tables) == 2 and [n for _i, n in room.waiting()] == ["Ida"]

    run_in_thread(main)


class _Served:
    def __init__(self) -> None:
        self.room = TableRoom(Rules(), bot="random", bot_pause=0.0)
        settings = ServeSettings(gate=ClassGate(code="K7RPX", max_kernels=4), start_page=None,
                                 store=ProgressStore(":memory:"), learner_key=KEY, teacher_code=TEACHER)
        app = tornado.web.Application([(r"/krypteach/teacher", TeacherHandler), *table_handlers(self.room),
                                       *seating_handlers(self.room)], krypteach=settings, cookie_secret=b"s" * 32)
        port = _free_port()
        self.server = app.listen(port, "127.0.0.1")
        self.base = f"http://127.0.0.1:{port}"
        self.client = AsyncHTTPClient()

    async def lobby(self, token: str) -> dict:
        r = await self.client.fetch(f"{self.base}/krypteach/tables/lobby?" + urlencode({"learner": token}),
                                    request_timeout=30)
        return json.loads(r.body)


def test_three_waiting_pages_are_seated_by_the_teachers_one_click_and_each_is_told_its_seat():
    async def main() -> None:
        s = _Served()
        try:
            teacher = await Teacher(s).sign_in()
            polls = [asyncio.ensure_future(s.lobby(_token(name, i + 1))) for i, name in enumerate(["Ann", "Bo", "Cy"])]
            for _ in range(50):
                await asyncio.sleep(0.05)
                if len(s.room.waiting()) == 3:
                    break
            status, page, _where = await teacher.fetch("/krypteach/teacher/tables")
            assert status == 200 and "3 learners wait for a table: Ann, Bo, Cy." in page
            assert not any(p.done() for p in polls)
            status, _body, where = await teacher.fetch("/krypteach/teacher/tables/seat", {"players": "2", "game": ""})
            assert status == 302
            done = parse_qs(urlparse(where).query)["done"][0]
            assert done.startswith("3 learners are seated. Tables: ")
            answers = await asyncio.wait_for(asyncio.gather(*polls), 5)
            codes = {a["code"] for a in answers}
            assert len(codes) == 2 and all(code in done for code in codes)  # 2 and 1 (and the computer)
            for a, name in zip(answers, ["Ann", "Bo", "Cy"], strict=True):
                assert a["view"]["names"][a["view"]["seat"]] == name
            status, page, _where = await teacher.fetch("/krypteach/teacher/tables")
            assert "Nobody waits for a table" in page and all(code in page for code in codes)
            # a bad number of players is one sentence back on the page, nothing changed
            status, _body, where = await teacher.fetch("/krypteach/teacher/tables/seat", {"players": "9"})
            assert parse_qs(urlparse(where).query)["error"] == ["choose the players at each table: 2 to 6"]
            assert len(s.room.tables) == 2
        finally:
            s.server.stop()
            s.room.stop()

    run_in_thread(main)


def test_without_the_teachers_cookie_nobody_is_seated_and_a_forged_learner_does_not_wait():
    async def main() -> None:
        s = _Served()
        try:
            s.room.lobby_enter(1, "Ann")
            r = await s.client.fetch(f"{s.base}/krypteach/teacher/tables/seat", method="POST",
                                     body=urlencode({"players": "2"}), raise_error=False, follow_redirects=False)
            assert r.code in (302, 403) and s.room.tables == {}
            r = await s.client.fetch(f"{s.base}/krypteach/teacher/tables/state", raise_error=False)
            assert r.code == 403
            r = await s.client.fetch(f"{s.base}/krypteach/teacher/tables", raise_error=False, follow_redirects=False)
            assert r.code == 302 and r.headers["Location"] == "/krypteach/teacher"  # the teacher code first
            r = await s.client.fetch(f"{s.base}/krypteach/tables/lobby?learner=forged", raise_error=False)
            assert r.code == 403 and json.loads(r.body)["error"].startswith("sign in first")
            assert [n for _i, n in s.room.waiting()] == ["Ann"]
        finally:
            s.server.stop()

    run_in_thread(main)


def test_a_page_that_goes_away_no_longer_waits():
    async def main() -> None:
        s = _Served()
        try:
            host, port = s.base.removeprefix("http://").split(":")
            _reader, writer = await asyncio.open_connection(host, int(port))
            path = "/krypteach/tables/lobby?" + urlencode({"learner": _token("Ann", 1)})
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
            await writer.drain()
            for _ in range(50):
                await asyncio.sleep(0.05)
                if s.room.waiting():
                    break
            assert [n for _i, n in s.room.waiting()] == ["Ann"]
            writer.close()  # the kernel's request goes (its page closed)
            await writer.wait_closed()
            for _ in range(50):
                await asyncio.sleep(0.05)
                if not s.room.waiting():
                    break
            assert s.room.waiting() == []
        finally:
            s.server.stop()

    run_in_thread(main)


def test_a_class_tournament_begun_or_ended_wakes_every_page_waiting_for_a_table():
    """The lobby's answer says whether a tournament is under way: its start and its end answer
    every waiting page at once, so Play the class tournament shows (and goes) without a wait."""
    from krypteach.serve.tournament import TournamentDesk

    async def main() -> None:
        room = TableRoom(Rules(), bot="random")
        desk = TournamentDesk(room)
        waiting = room.lobby_enter(1, "Ann")
        desk.start(1, "random")
        assert waiting.done()
        room.lobby_leave(1, waiting)
        again = room.lobby_enter(1, "Ann")
        assert not again.done()
        desk.end()
        assert again.done()

    run_in_thread(main)


def test_a_page_at_a_tournament_giv_hears_why_it_is_gone_when_the_teacher_ends_the_tournament():
    from krypteach.serve.tournament import TournamentDesk

    async def main() -> None:
        room = TableRoom(Rules(), bot="random")
        desk = TournamentDesk(room)
        desk.start(1, "random")
        table, _token = desk.seat(1, "Ann")
        desk.end()
        with pytest.raises(TableError, match="your teacher ended the class tournament: the giv you were playing "
                                             "does not count"):
            room.table(table.code)
        with pytest.raises(TableError, match="there is no table ZZZZ in this class"):
            room.table("ZZZZ")

    run_in_thread(main)
