"""The class tournament over HTTP (issue 24): the handlers ``krypteach serve`` mounts (the
tables', the tournament's, the teacher's sign-in) with the server's settings and a progress
store, on an event loop of their own. The teacher starts a tournament as the teacher's page does;
three learners, each a kernel's requests with a learner token, play their tournament givar move
by move from the views the server sends; the standings and the CSV rank them, with the coach's
move quality worked out in a worker process. Whatever a page may not do is refused in a sentence."""

from __future__ import annotations

import csv
import io
import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from html import unescape
from typing import Any

from krypteach.classroom.session import sign_learner
from krypteach.classroom.store import ProgressStore
from krypteach.engine.records import load_givar
from krypteach.engine.rules import Rules
from krypteach.i18n import use_language
from krypteach.play.class_tournament import ClassTournament, Played, giv_quality
from krypteach.serve.gate import ClassGate
from krypteach.serve.settings import ServeSettings
from krypteach.serve.tables import TABLE_NONCE, TableRoom, table_handlers
from krypteach.serve.teacher_handlers import TeacherHandler
from krypteach.serve.tournament import TournamentDesk, tournament_handlers

from .english_text import english_sentences
from .serve_helpers import ServedApp, TeacherBrowser, run_in_thread

KEY = b"0123456789abcdef0123456789abcdef"
CODE, TEACHER = "K7RPX", "TEACH42X"
SAMPLES = 3  # the coach's samples per decision: a small review


class Served(ServedApp):
    """The tables, the tournament and the teacher's sign-in as ``krypteach serve`` mounts them."""

    def __init__(self, store: ProgressStore, rules: Rules) -> None:
        self.store = store
        settings = ServeSettings(gate=ClassGate(code=CODE, max_kernels=4), start_page=None, store=store,
                                 learner_key=KEY, teacher_code=TEACHER)
        self.room = TableRoom(rules, bot="random", bot_pause=0.0)
        self.room.start()
        self.desk = TournamentDesk(self.room, store=store, class_code=CODE, samples=SAMPLES)
        super().__init__([(r"/krypteach/teacher", TeacherHandler), *table_handlers(self.room),
                          *tournament_handlers(self.desk)], krypteach=settings, cookie_secret=b"s" * 32)

    async def kernel(self, path: str, body: dict | None = None, **query: Any) -> tuple[int, dict]:
        """A learner's kernel's request to ``/krypteach/tables…``."""
        return await self.request("tables" + path, body, **query)

    def stop(self) -> None:
        super().stop()
        self.room.stop()
        self.desk.close()


class Teacher(TeacherBrowser):
    """The teacher's browser on the tournament page."""

    page = "tournament"

    def __init__(self, served: Served, lang: str | None = None) -> None:
        super().__init__(served, TEACHER, lang)


def _token(name: str, learner: int) -> str:
    return sign_learner(KEY, CODE, name, learner, TABLE_NONCE)


async def _play_giv(served: Served, token: str, pick, rng: random.Random) -> dict:
    """Sit down at the learner's next tournament giv and play it to its end from the views the
    server sends; its last view."""
    status, sat = await served.kernel("", {"learner": token, "tournament": True})
    assert status == 200, sat
    code, seat, view = sat["code"], sat["seat_token"], sat["view"]
    assert view["about"]["tournament"]["of"] == 2 and view["names"][1 - view["seat"]] is None  # the bot's seat
    while not view["over"]:
        if view["turn"] != view["seat"]:
            # a move out of turn: refused, nothing changed (the bot may have played meanwhile: an old view)
            status, said = await served.kernel(f"/{code}/move", {"seat": seat, "move": "AS", "version": view["version"]})
            assert status == 409 and said["error"] in ("it is not your turn", OLD_VIEW)
            REFUSED.append(said["error"])
            status, view = await served.kernel(f"/{code}", seat=seat, since=view["version"])  # the bot plays
            assert status == 200
            continue
        status, view = await served.kernel(f"/{code}/move", {"seat": seat, "move": pick(view["legal"], rng),
                                                              "version": view["version"]})
        assert status == 200, view
    return view


OLD_VIEW = "that move was chosen on an old view of the table: the table has moved on"
REFUSED: list[str] = []
PICKS = {"Ann": lambda legal, rng: legal[0], "Bo": lambda legal, rng: rng.choice(legal),
         "Cy": lambda legal, rng: legal[-1]}


def test_three_learners_play_the_class_tournament_over_http_and_the_standings_rank_them():
    """Done when (issue 24): a tournament of a few learners produces its ranking."""
    store = ProgressStore(":memory:")
    ids = {name: store.join(CODE, name) for name in PICKS}
    rules = Rules.preset("kasino")  # classic Kasino: the highest score wins

    async def main() -> None:
        served = Served(store, rules)
        try:
            teacher = await Teacher(served).sign_in()
            ann = _token("Ann", ids["Ann"])
            status, said = await served.kernel("", {"learner": ann, "tournament": True})
            assert status == 409 and said["error"] == "there is no class tournament under way: your teacher starts one"
            # bad numbers: one sentence each, and no tournament
            assert await teacher.post("start", deals="0", bot="random") == "a tournament has 1 to 20 deals, not 0"
            assert await teacher.post("start", deals="21", bot="random") == "a tournament has 1 to 20 deals, not 21"
            assert await teacher.post("start", deals="two", bot="random") == \
                "give the number of deals as a whole number, 1 to 20"
            assert await teacher.post("start", deals="1", bot="grandmaster") == \
                "the tournament's bot is one of random, careful, expert, not grandmaster"
            assert served.desk.tournament is None and store.tournament(CODE) is None
            assert await teacher.post("start", deals="1", bot="random") == ""
            t = served.desk.tournament
            assert t is not None and t.givar_each == 2 and store.tournament(CODE).deals == 1
            # a forged learner token: refused
            assert (await served.kernel("", {"learner": "x.y", "tournament": True}))[0] == 403
            mine = await served.kernel("", {"learner": _token("Bo", ids["Bo"]), "mine": True})
            assert mine == (200, {"code": None, "tournament": True})
            for n, name in enumerate(PICKS):
                token, rng = _token(name, ids[name]), random.Random(n)
                first = await _play_giv(served, token, PICKS[name], rng)
                if name == "Ann":  # nobody else sits down at a learner's tournament giv
                    status, said = await served.kernel("", {"learner": _token("Bo", ids["Bo"]), "join": first["code"]})
                    assert status == 409 and "tournament giv" in said["error"]
                second = await _play_giv(served, token, PICKS[name], rng)
                assert (first["seat"], second["seat"]) == (0, 1)  # the deal from each seat
                status, said = await served.kernel("", {"learner": token, "tournament": True})
                assert status == 409 and "every giv of the tournament (2)" in said["error"]
            # every giv kept at once, then its review (in a worker process)
            deadline = time.monotonic() + 180
            state = await teacher.state()
            while state["reviewing"] and time.monotonic() < deadline:
                state = await teacher.state(state["version"])
            assert state["reviewing"] == 0 and state["running"]
            status, text, _where = await teacher.fetch("/krypteach/teacher/tournament.csv")
            assert status == 200
            rows = list(csv.DictReader(io.StringIO(text)))
            status, page, _where = await teacher.fetch("/krypteach/teacher/tournament")
            assert status == 200 and "Move quality" in page and all(name in page for name in PICKS)
            assert await teacher.post("end") == ""
            status, said = await served.kernel("", {"learner": ann, "tournament": True})
            assert status == 409 and "no class tournament under way" in said["error"]
        finally:
            served.stop()
        return rows

    box: list = []
    run_in_thread(lambda: _collect(main, box))
    rows = box[0]
    assert "it is not your turn" in REFUSED
    kept = store.tournament_givar(store.tournament(CODE).id)
    assert len(kept) == 6 and store.tournament(CODE).ended is not None
    # each also a giv of the learner's (the class's overview counts it) with the coach's move quality
    for name in PICKS:
        rows_of = [(r[2], r[3], r[7]) for r in store.attempts(ids[name]) if r[3] in ("giv", "coach")]
        assert sorted(rows_of) == sorted([("tournament-1-deal-1-seat-0", "giv", r[4]) for r in kept
                                          if r[1] == name and r[3] == 0] +
                                         [("tournament-1-deal-1-seat-1", "giv", r[4]) for r in kept
                                          if r[1] == name and r[3] == 1] +
                                         [("quality", "coach", round(100 * r[5] / r[6])) for r in kept if r[1] == name])
    # the same cards for every learner: each deal from each seat dealt the same hands and table
    for seat in (0, 1):
        starts = set()
        for _learner, _name, _deal, s, _score, _good, _n, record in kept:
            if s == seat:
                g = load_givar(record)[0]
                while g.turns:
                    g.pop()
                starts.add((tuple(map(tuple, g.hands)), tuple(map(str, g.table)), tuple(g.stock)))
        assert len(starts) == 1
    # each learner's score and move quality, worked out again here
    totals = {name: sum(r[4] for r in kept if r[1] == name) for name in PICKS}
    quality = {}
    for name in PICKS:
        counts = [giv_quality(r[7], r[3], SAMPLES) for r in kept if r[1] == name]
        assert [(r[5], r[6]) for r in kept if r[1] == name] == counts
        quality[name] = sum(c[0] for c in counts) / sum(c[1] for c in counts)
    expected = sorted(PICKS, key=lambda n: (-totals[n], -quality[n], n))  # Kasino: the highest score first
    assert [r["nickname"] for r in rows] == expected
    assert [int(r["score"]) for r in rows] == [totals[n] for n in expected]
    assert [float(r["move_quality"]) for r in rows] == [round(quality[n], 4) for n in expected]
    assert all(r["givar_played"] == r["givar_in_all"] == "2" for r in rows) and rows[0]["rank"] == "1"
    # a restarted server reads the tournament back: the same standings
    again = TournamentDesk(TableRoom(rules), store=store, class_code=CODE)
    again.load()
    t = ClassTournament(rules, 1, "random", store.tournament(CODE).seed)
    assert again.ended and [(s.name, s.score, s.quality) for s in again.standings()] == \
        [(s.name, s.score, s.quality) for s in t.standings([Played(r[0], r[1], r[2], r[3], r[4], r[5], r[6])
                                                            for r in kept])]


async def _collect(main, box: list) -> None:
    box.append(await main())


def test_the_teachers_tournament_page_in_swedish_and_only_for_the_teacher():
    store = ProgressStore(":memory:")
    ann = store.join(CODE, "Ann")

    async def main() -> None:
        served = Served(store, Rules())
        try:
            nobody = Teacher(served)
            status, _body, where = await nobody.fetch("/krypteach/teacher/tournament")
            assert status == 302 and where == "/krypteach/teacher"
            await nobody.fetch("/krypteach/teacher")
            status, _body, _where = await nobody.fetch("/krypteach/teacher/tournament/start",
                                                       {"deals": "1", "bot": "random"})
            assert status == 302 and served.desk.tournament is None  # not the teacher: nothing started
            teacher = await Teacher(served, lang="sv").sign_in()
            assert await teacher.post("start", deals="0", bot="random") == "en turnering har 1 till 20 givar, inte 0"
            assert await teacher.post("start", deals="1", bot="random") == ""
            await _play_giv(served, _token("Ann", ann), PICKS["Ann"], random.Random(1))  # one of her two givar
            status, page, _where = await teacher.fetch("/krypteach/teacher/tournament")
            with use_language("sv"):
                assert status == 200 and "Klassens turnering" in page and "lägst poäng vinner" in page
                assert "1 av 2 (inte alla spelade)" in page and "Dragkvalitet" in page
            text = re.sub(r"<(script|style)>.*?</\1>|<[^>]+>", " ", page, flags=re.S)
            assert english_sentences(unescape(text)) == []
        finally:
            served.stop()

    run_in_thread(main)


def test_the_computer_never_plays_a_learners_tournament_seat_and_nobody_else_sits_there():
    from krypteach.play.table import TableError

    room = TableRoom(Rules.preset("kasino"), bot="random", replace_after=0.0)
    desk = TournamentDesk(room, samples=2)
    desk.start(1, "random", seed=1)
    table, token = desk.seat(1, "Ann")
    assert desk.seat(1, "Ann") == (table, token)  # a page opened again: the same giv
    table.away(token, now=0.0)
    for now in range(1, 200):  # long gone: the bot plays its own seat only, the giv waits for Ann
        table.tick(now=float(now) * 1000)
    v = table.view(token)
    assert v["turn"] == v["seat"] == 0 and not v["bots"][0] and not table.giv.is_over
    try:
        room.sit(table, "Bo", 2)
    except TableError as e:
        assert "tournament giv" in str(e)
    else:
        raise AssertionError("Bo sat down at Ann's tournament giv")


def test_a_restart_starts_again_the_reviews_it_left_undone():
    store = ProgressStore(":memory:")
    ann = store.join(CODE, "Ann")
    rules = Rules.preset("kasino")
    desk = TournamentDesk(TableRoom(rules), store=store, class_code=CODE, samples=2)
    t = desk.start(1, "random", seed=3)
    from krypteach.bots import make_bot
    from krypteach.engine.records import dump_givar

    g = t.play(0, 0, make_bot("random", seed=1))
    store.keep_tournament_giv(desk.tid, ann, 0, 0, g.result.scores[0], dump_givar([g]))  # the server stopped here
    again = TournamentDesk(TableRoom(rules), store=store, class_code=CODE, samples=2)
    again.load()
    assert again.reviewing == 1 and [s.reviewed for s in again.standings()] == [0]

    with ThreadPoolExecutor(1) as pool:  # no server loop in that thread: at once (the browser tests' Playwright
        pool.submit(again.resume).result()  # keeps a loop running in this one, where it would wait for a task)
    good, n = giv_quality(dump_givar([g]), 0, 2)
    assert again.reviewing == 0 and [(s.good, s.decisions) for s in again.standings()] == [(good, n)]
    assert [(r[5], r[6]) for r in store.tournament_givar(again.tid)] == [(good, n)]
