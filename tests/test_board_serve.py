"""The teacher's board over HTTP (issue 24): the handlers ``krypteach serve`` mounts
(:func:`krypteach.serve.board.board_handlers`, behind the teacher's sign-in at
``/krypteach/teacher``) with the server's settings, on an event loop of their own. The teacher
signs in with the teacher code and posts the board's forms as the board page does; the learners
are their kernels' requests, each with a learner token signed with the server's learner key."""

from __future__ import annotations

import asyncio
import re
import time
from html import unescape
from typing import Any
from urllib.parse import urlencode

from krypteach.classroom.session import sign_learner
from krypteach.classroom.store import ProgressStore
from krypteach.engine.moves import Move
from krypteach.serve.board import Board, board_handlers, class_board
from krypteach.serve.gate import ClassGate
from krypteach.serve.settings import ServeSettings
from krypteach.serve.tables import TABLE_NONCE
from krypteach.serve.teacher_handlers import TeacherHandler

from .serve_helpers import ServedApp, TeacherBrowser, run_in_thread

KEY = b"0123456789abcdef0123456789abcdef"
CODE, TEACHER = "K7RPX", "TEACH42X"
HAND, TABLE = "7H 2S", "5C 2D KS"
#: the choices of the typed position (7♥ takes 2♦+5♣ is the bot's move), and a puzzle's
SEVEN, TWO = "7H:2D+5C", "2S:2D"
PUZZLE = "which-card-easy-01"


def _token(name: str, learner: int, key: bytes = KEY) -> str:
    return sign_learner(key, CODE, name, learner, TABLE_NONCE)


class Served(ServedApp):
    """The board's handlers, as ``krypteach serve`` mounts them, on a free port."""

    def __init__(self, rules: str | None = None) -> None:
        self.board: Board = class_board(rules)
        self.store = ProgressStore(":memory:")
        settings = ServeSettings(gate=ClassGate(code=CODE, max_kernels=4), start_page=None,
                                 store=self.store, learner_key=KEY, teacher_code=TEACHER)
        super().__init__([(r"/krypteach/teacher", TeacherHandler), *board_handlers(self.board)],
                         krypteach=settings, cookie_secret=b"s" * 32)

    async def learner(self, path: str, body: dict | None = None, **query: Any) -> tuple[int, dict]:
        """A kernel's request: GET ``/krypteach/board…`` with ``query``, or POST ``body`` as JSON."""
        return await self.request(path, body, **query)

    async def poll(self, token: str, since: int, lang: str = "en") -> dict:
        status, view = await self.learner("board", learner=token, since=since, lang=lang)
        assert status == 200, view
        return view

    async def answer(self, token: str, question: object, answer: object, lang: str = "en") -> tuple[int, dict]:
        return await self.learner("board/answer", {"learner": token, "question": question, "answer": answer,
                                                    "lang": lang})


class Teacher(TeacherBrowser):
    """The teacher's browser on the board page."""

    page = "board"

    def __init__(self, served: Served, lang: str | None = None) -> None:
        super().__init__(served, TEACHER, lang)

    async def state(self, since: int = -1) -> dict:
        """The board's live part (its form tokens left out: each is masked anew)."""
        state = await super().state(since)
        return {**state, "html": re.sub(r'name="_xsrf" value="[^"]*"', 'name="_xsrf"', state["html"])}


def distribution(html: str) -> dict[str, tuple[int, str]]:
    """The teacher's board's distribution: choice key -> (how many chose it, the names shown)."""
    rows = re.findall(r"<li[^>]*data-choice='([^']+)'>.*?<span class='n'>(\d+)</span>"
                      r"(?:<div class='names'>([^<]*)</div>)?</li>", html)
    return {unescape(k): (int(n), unescape(names)) for k, n, names in rows}


def test_the_teacher_sends_a_puzzle_then_a_typed_position_and_a_waiting_poll_gets_each_at_once():
    async def main() -> None:
        s = Served()
        try:
            teacher = await Teacher(s).sign_in()
            ann = _token("Ann", 1)
            empty = await s.poll(ann, -1)
            assert empty == {"version": 0, "question": None}
            # the page waits for the board: nothing comes until the teacher sends
            waiting = asyncio.ensure_future(s.poll(ann, 0))
            await asyncio.sleep(0.1)
            assert not waiting.done()
            t0 = time.monotonic()
            assert await teacher.post("send", puzzle=PUZZLE) == ""
            view = await asyncio.wait_for(waiting, 2)
            assert time.monotonic() - t0 < 1
            q = view["question"]
            assert view["version"] == 1 and q["hand"] == ["3D", "KS"] and q["mine"] is None and q["reveal"] is None
            assert [(c["key"], c["words"]) for c in q["choices"]] == [("3D", "3♦"), ("KS", "K♠")]
            assert "which card" in q["prompt"].lower()
            board = (await teacher.state())["html"]
            assert "0 answers" in board and distribution(board) == {"3D": (0, ""), "KS": (0, "")}
            # the board's list of puzzles: the one on the board chosen; each kind under each game's rules once
            _status, page, _w = await teacher.fetch("/krypteach/teacher/board")
            assert re.findall(r"<option value='([^']*)' selected>", page) == [PUZZLE]
            groups = re.findall(r"<optgroup label='([^']*)'>", page)
            assert len(groups) == len(set(groups)) >= 10
            assert "Kasino: the last cards, every card known · Avig kasino, 2 players (take all you can, tvångstabbe, " \
                "lowest wins)" in groups

            # a typed position, in the engine's card text: its legal moves are the choices
            waiting = asyncio.ensure_future(s.poll(ann, 1))
            sv = asyncio.ensure_future(s.poll(_token("Bo", 2), 1, lang="sv"))
            await asyncio.sleep(0.1)
            assert await teacher.post("send", hand=HAND, table=TABLE) == ""
            view, sv_view = await asyncio.wait_for(asyncio.gather(waiting, sv), 2)
            q = view["question"]
            assert view["version"] == 2 and q["id"] == 2
            assert q["hand"] == ["7H", "2S"] and q["table"] == ["5C", "2D", "KS"]
            assert [(c["key"], c["words"]) for c in q["choices"]] == [(SEVEN, "7♥ takes 2♦+5♣"), (TWO, "2♠ takes 2♦")]
            assert q["prompt"] == "Your hand and the table are shown. Which move do you play?"
            assert [c["words"] for c in sv_view["question"]["choices"]] == ["7♥ tar 2♦+5♣", "2♠ tar 2♦"]
            assert distribution((await teacher.state())["html"]) == {SEVEN: (0, ""), TWO: (0, "")}
        finally:
            s.stop()

    run_in_thread(main)


BAD = [  # (hand, table, the refusal in English, in Swedish)
    ("", TABLE, "type the hand: at least one card, such as 7H 2S", "skriv handen: minst ett kort, till exempel 7H 2S"),
    ("7X 2S", TABLE, "'7X' is not a card: write rank A 2 3 4 5 6 7 8 9 10 J Q K then suit S H D C (or ♠ ♥ ♦ ♣), "
     "e.g. 10D or A♠", "'7X' är inget kort: "),
    ("7H 7H", "7H 5C", "7♥ is in the position more often than the deck holds it (2 copies)",
     "7♥ finns i ställningen fler gånger än leken har det (2 exemplar)"),
    # more than the class's deal (4 cards) in the hand: the bot's answer would take seconds, then minutes
    ("AH 2H 3H 4H 5H", TABLE, "a position on the board holds at most 4 cards in the hand and 16 on the table",
     "en ställning på tavlan har högst 4 kort på handen och 16 på bordet"),
    (HAND, " ".join(["2C", "3C", "4C", "5C", "6C", "8C", "9C", "10C", "JC", "QC", "KC", "AD", "3D", "4D", "5D", "6D",
                     "8D"]), "a position on the board holds at most 4 cards in the hand and 16 on the table",
     "en ställning på tavlan har högst 4 kort på handen och 16 på bordet"),
]


def test_a_bad_typed_position_is_refused_in_one_sentence_in_the_teachers_language_and_the_board_is_unchanged():
    async def main() -> None:
        s = Served()
        try:
            ann = _token("Ann", 1)
            for lang in ("en", "sv"):
                teacher = await Teacher(s, lang).sign_in()
                assert await teacher.post("send", hand=HAND, table=TABLE) == ""
                before, state = await s.poll(ann, -1), await teacher.state()
                for hand, table, en, sv in BAD:
                    said = await teacher.post("send", hand=hand, table=table)
                    assert said.startswith(en if lang == "en" else sv), (lang, hand, said)
                    assert "\n" not in said and not re.search(r"[.!?:]\s+[A-ZÅÄÖ]", said), said  # one sentence
                    # the board page shows it, and the board is as it was
                    _status, page, _w = await teacher.fetch("/krypteach/teacher/board?" + urlencode({"error": said}))
                    assert f"<p class='error' role='alert'>{said.replace(chr(39), '&#x27;')}</p>" in page
                    assert await s.poll(ann, -1) == before
                    assert await teacher.state() == state
                said = await teacher.post("send", puzzle="no-such-puzzle")
                assert said == ("there is no puzzle no-such-puzzle: choose one of the list" if lang == "en" else
                                "det finns inget problem no-such-puzzle: välj ett i listan"), said
                assert await s.poll(ann, -1) == before
        finally:
            s.stop()

    run_in_thread(main)


def test_the_first_answer_counts_and_every_other_answer_is_refused_in_one_sentence():
    async def main() -> None:
        s = Served()
        try:
            teacher = await Teacher(s).sign_in()
            ann, bo = _token("Ann", 1), _token("Bo", 2)
            status, said = await s.answer(ann, 1, SEVEN)
            assert status == 409 and said == {"error": "your teacher has not sent a position: there is nothing to answer"}
            assert await teacher.post("send", hand="3D KS", table="KH 5C") == ""  # question 1
            assert await teacher.post("send", hand=HAND, table=TABLE) == ""  # question 2: 1 is gone
            status, mine = await s.answer(ann, 2, SEVEN)
            assert status == 200 and mine["question"]["mine"] == SEVEN and mine["question"]["reveal"] is None
            state = await teacher.state()
            assert distribution(state["html"]) == {SEVEN: (1, ""), TWO: (0, "")}
            refused = [
                (ann, 2, TWO, "you have answered this position already: your first answer counts"),
                (ann, 2, SEVEN, "you have answered this position already: your first answer counts"),
                (bo, 2, "KS:KS", "KS:KS is not one of this position's choices: choose one of its buttons"),
                (bo, 2, None, "None is not one of this position's choices: choose one of its buttons"),
                (bo, 1, "KS:KH", "that position is no longer on the board: answer the one your teacher sent last"),
                (bo, "2", SEVEN, "that position is no longer on the board: answer the one your teacher sent last"),
            ]
            for token, question, answer, why in refused:
                status, said = await s.answer(token, question, answer)
                assert (status, said) == (409, {"error": why}), (question, answer)
                assert await teacher.state() == state  # nothing changed
            status, said = await s.answer(ann, 2, TWO, lang="sv")
            assert status == 409 and said["error"] == "du har redan svarat på den här ställningen: ditt första svar gäller"
            # a request without a valid learner token: refused, whatever it asks
            for token in (None, "", "forged.token", _token("Ann", 1, key=b"another key of another server!!!"),
                          sign_learner(KEY, CODE, "Ann", 1, "another nonce")):
                status, said = await s.answer(token, 2, TWO)  # type: ignore[arg-type]
                assert status == 403 and said == {
                    "error": "sign in first: the teacher's board is for the learners of the class"}, token
                status, said = await s.learner("board", learner=token or "", since=-1)
                assert status == 403 and "sign in first" in said["error"]
            assert await teacher.state() == state
            # Bo's first answer counts
            status, mine = await s.answer(bo, 2, TWO)
            assert status == 200 and mine["question"]["mine"] == TWO
            assert distribution((await teacher.state())["html"]) == {SEVEN: (1, ""), TWO: (1, "")}
            assert (await s.poll(ann, -1))["question"]["mine"] == SEVEN  # a page opened again shows the answer
        finally:
            s.stop()

    run_in_thread(main)


def test_a_classic_kasino_class_types_builds_whose_owner_is_a_seat_of_its_table():
    async def main() -> None:
        s = Served("kasino")
        try:
            teacher = await Teacher(s).sign_in()
            for lang, why in (("en", "the build [9:4S+5H@5] belongs to nobody at this table: write its owner after @ "
                                     "as a seat from 0 to 1"),
                              ("sv", "bygget [9:4S+5H@5] tillhör ingen vid det här bordet: skriv ägaren efter @ som "
                                     "en plats från 0 till 1")):
                teacher.cookies["krypteach_lang"] = lang
                assert await teacher.post("send", hand="9H 3D", table="[9:4S+5H@5] KS") == why
                assert s.board.question is None
            assert await teacher.post("send", hand="9H 3D", table="[9:4S+5H@1] KS") == ""
            status, view = await s.learner("board", learner=_token("Ann", 1), since=-1)
            assert status == 200 and view["question"]["table"] == ["[9:4S+5H@1]", "KS"]
            assert [c["key"] for c in view["question"]["choices"]][:1] == ["9H:4S+5H"]
        finally:
            s.stop()

    run_in_thread(main)


def test_the_board_shows_the_distribution_live_and_the_names_only_when_the_teacher_shows_them():
    async def main() -> None:
        s = Served()
        try:
            teacher = await Teacher(s).sign_in()
            assert await teacher.post("send", hand=HAND, table=TABLE) == ""
            tally = (await teacher.state())["tally"]
            for name, learner, choice in (("Cyd", 3, TWO), ("bosse", 2, SEVEN), ("Ann 🦊", 1, SEVEN)):
                # the projector's page waits on the board: the answer reaches it at once
                waiting = asyncio.ensure_future(teacher.state(tally))
                await asyncio.sleep(0.05)
                assert not waiting.done()
                t0 = time.monotonic()
                assert (await s.answer(_token(name, learner), 1, choice))[0] == 200
                state = await asyncio.wait_for(waiting, 2)
                assert time.monotonic() - t0 < 1 and state["tally"] > tally
                tally = state["tally"]
            html = state["html"]
            assert distribution(html) == {SEVEN: (2, ""), TWO: (1, "")}
            assert "3 answers" in html and not any(n in html for n in ("Ann", "bosse", "Cyd"))
            assert await teacher.post("names", shown="1") == ""
            html = (await teacher.state())["html"]
            assert distribution(html) == {SEVEN: (2, "Ann 🦊, bosse"), TWO: (1, "Cyd")}
            assert "Hide names" in html and "Show names" not in html
            assert await teacher.post("names", shown="0") == ""
            html = (await teacher.state())["html"]
            assert distribution(html) == {SEVEN: (2, ""), TWO: (1, "")} and "Ann" not in html
            # a new position forgets the answers, and hides the names again
            assert await teacher.post("names", shown="1") == ""
            assert await teacher.post("send", hand=HAND, table=TABLE) == ""
            html = (await teacher.state())["html"]
            assert distribution(html) == {SEVEN: (0, ""), TWO: (0, "")} and "0 answers" in html
            assert "Show names" in html
        finally:
            s.stop()

    run_in_thread(main)


def test_the_reveal_reaches_every_learners_poll_with_the_engines_answer_and_whether_they_were_right():
    async def main() -> None:
        s = Served()
        try:
            teacher = await Teacher(s).sign_in()
            assert await teacher.post("send", hand=HAND, table=TABLE) == ""
            learners = {"Ann": (_token("Ann", 1), SEVEN), "Bo": (_token("Bo", 2), TWO), "Cy": (_token("Cy", 3), None)}
            status, said = await s.answer(learners["Cy"][0], True, SEVEN)  # (True == 1 in Python)
            assert status == 409 and "no longer on the board" in said["error"]
            for token, choice in learners.values():
                if choice:
                    assert (await s.answer(token, 1, choice))[0] == 200
            version = (await s.poll(learners["Ann"][0], -1))["version"]
            polls = {name: asyncio.ensure_future(s.poll(token, version, "sv" if name == "Bo" else "en"))
                     for name, (token, _c) in learners.items()}
            await asyncio.sleep(0.1)
            assert not any(p.done() for p in polls.values())
            t0 = time.monotonic()
            assert await teacher.post("reveal") == ""
            seen = {name: (await asyncio.wait_for(p, 2))["question"]["reveal"] for name, p in polls.items()}
            assert time.monotonic() - t0 < 1
            assert [seen[n]["yours"] for n in ("Ann", "Bo", "Cy")] == [True, False, None]
            assert all(r["right"] == [SEVEN] for r in seen.values())
            assert seen["Ann"]["answer"] == seen["Cy"]["answer"] == "7♥ takes 2♦+5♣"
            assert seen["Ann"]["explanation"].startswith("7♥ takes 2♦+5♣. You take no points.")
            assert "better than 2♠ takes 2♦" in seen["Ann"]["explanation"]
            assert seen["Bo"]["answer"] == "7♥ tar 2♦+5♣" and seen["Bo"]["explanation"].startswith("7♥ tar 2♦+5♣. ")
            html = (await teacher.state())["html"]
            assert "The engine&#x27;s answer: 7♥ takes 2♦+5♣" in html and "Show the answer on every page" not in html
            assert f"<li class=\"right\" data-choice='{SEVEN}'>" in html and f"<li data-choice='{TWO}'>" in html
            # after the reveal nobody answers any more, not even who had not
            status, said = await s.answer(learners["Cy"][0], 1, SEVEN)
            assert status == 409 and said["error"] == "the answer is shown already: wait for your teacher's next position"
            assert distribution((await teacher.state())["html"]) == {SEVEN: (1, ""), TWO: (1, "")}

            # a puzzle's answer is the solver's, with its explanation
            assert await teacher.post("send", puzzle=PUZZLE) == ""
            assert (await s.answer(learners["Ann"][0], 2, "3D"))[0] == 200
            assert await teacher.post("reveal") == ""
            r = (await s.poll(learners["Ann"][0], -1))["question"]["reveal"]
            assert r["answer"] == "K♠" and r["right"] == ["KS"] and r["yours"] is False and r["explanation"]

            # clear takes it off every page
            version = (await s.poll(learners["Ann"][0], -1))["version"]
            polls = {name: asyncio.ensure_future(s.poll(token, version)) for name, (token, _c) in learners.items()}
            await asyncio.sleep(0.05)
            assert await teacher.post("clear") == ""
            for p in polls.values():
                assert (await asyncio.wait_for(p, 2))["question"] is None
            assert "No position on the board" in (await teacher.state())["html"]
            status, said = await s.answer(learners["Cy"][0], 2, "KS")
            assert status == 409 and "has not sent a position" in said["error"]
        finally:
            s.stop()

    run_in_thread(main)


def test_only_the_signed_in_teacher_works_the_board():
    async def main() -> None:
        s = Served()
        try:
            nobody = Teacher(s)
            status, _body, where = await nobody.fetch("/krypteach/teacher/board")
            assert (status, where) == (302, "/krypteach/teacher")
            assert (await nobody.fetch("/krypteach/teacher/board/state?since=-1"))[0] == 403
            await nobody.fetch("/krypteach/teacher")  # a form token, but not the teacher's cookie
            status, _body, where = await nobody.fetch("/krypteach/teacher/board/send", {"hand": HAND, "table": TABLE})
            assert (status, where) == (302, "/krypteach/teacher") and s.board.question is None
            teacher = await Teacher(s).sign_in()
            teacher.cookies.pop("_xsrf")  # the teacher's cookie without the form's token: refused
            status, _body, _where = await teacher.fetch("/krypteach/teacher/board/send", {"hand": HAND, "table": TABLE})
            assert status == 403 and s.board.question is None
            await teacher.fetch("/krypteach/teacher/board")
            assert await teacher.post("send", hand=HAND, table=TABLE) == "" and s.board.question is not None
        finally:
            s.stop()

    run_in_thread(main)


def test_the_engines_work_is_done_off_the_servers_loop_and_once_for_a_puzzle(monkeypatch):
    """The bot's answer to a typed position and the solver's to a puzzle (a minute for the hardest
    shipped puzzle on this machine) never hold the server's event loop, where every page's
    requests are answered; a puzzle is solved once a language, not again for each learner's view."""
    import krypteach.serve.board as board_module

    typed, solve, solved = board_module.typed_question, board_module.solve, []

    def slow(*args: Any) -> Any:
        time.sleep(1.0)  # a position that takes the bot a second
        return typed(*args)

    def counted(p: Any) -> Any:
        solved.append(p.id)
        return solve(p)

    monkeypatch.setattr(board_module, "typed_question", slow)
    monkeypatch.setattr(board_module, "solve", counted)
    board_module._shipped_question.cache_clear()

    async def main() -> None:
        s = Served()
        try:
            teacher = await Teacher(s).sign_in()
            ann = _token("Ann", 1)
            sending = asyncio.ensure_future(teacher.post("send", hand=HAND, table=TABLE))
            await asyncio.sleep(0.2)
            t0 = time.monotonic()
            assert (await s.poll(ann, -1))["question"] is None  # answered while the bot thinks
            assert time.monotonic() - t0 < 0.5 and not sending.done()
            assert await sending == "" and (await s.poll(ann, -1))["question"]["id"] == 1

            assert await teacher.post("send", puzzle=PUZZLE) == ""
            assert solved == [PUZZLE, PUZZLE]  # once in each language
            assert (await s.answer(ann, 2, "KS"))[0] == 200
            assert await teacher.post("reveal") == ""
            for i in range(3):
                assert (await s.poll(_token(f"L{i}", 10 + i), -1, "sv" if i else "en"))["question"]["reveal"]
            await teacher.state()
            assert await teacher.post("send", puzzle=PUZZLE) == ""  # sent again: solved already
            assert solved == [PUZZLE, PUZZLE]
        finally:
            s.stop()

    run_in_thread(main)


def test_a_position_of_many_moves_lists_on_the_board_the_ones_chosen_and_the_right_one_once_shown():
    """A projector shows the moves the class chose, not every legal move of a full table (this one
    has 28), and the engine's once it is shown; the rest in one line, in the teacher's language."""
    async def main() -> None:
        s = Served()
        try:
            teacher = await Teacher(s, "sv").sign_in()
            assert await teacher.post("send", hand="7H 2S 9C 4D",
                                      table="5C 2D KS 4H AC 3C 6D 8S 10H JD QH 9S 3S 6H 8D AD") == ""
            q = s.board.question
            assert q is not None and len(q.choices) == 28 and len(q.right) == 1
            html = (await teacher.state())["html"]
            assert distribution(html) == {} and "och 28 drag till: ingen har valt dem" in html
            chosen = next(c for c in q.choices if c not in q.right)
            assert (await s.answer(_token("Ann", 1), q.id, chosen))[0] == 200
            html = (await teacher.state())["html"]
            assert distribution(html) == {chosen: (1, "")} and "och 27 drag till: ingen har valt dem" in html
            assert await teacher.post("reveal") == ""
            html = (await teacher.state())["html"]
            [right] = q.right
            assert distribution(html) == {right: (0, ""), chosen: (1, "")}
            assert "och 26 drag till: ingen har valt dem" in html
            # a position of few moves lists every one
            assert await teacher.post("send", hand=HAND, table=TABLE) == ""
            html = (await teacher.state())["html"]
            assert distribution(html) == {SEVEN: (0, ""), TWO: (0, "")} and "drag till" not in html
        finally:
            s.stop()

    run_in_thread(main)


def test_a_move_the_coach_flagged_in_a_learners_giv_goes_on_the_board_without_their_name():
    """The board's third source (issue 24: "a position from a learner's giv"): the moves the coach
    flagged in the class's givar are listed by lesson, move and verdict (the board is projected:
    not by whose); the one sent is the position as its learner saw it, the coach's good-enough
    moves right, the best one and its reasons the answer."""
    from krypteach.bots import make_bot
    from krypteach.bots.review import review_giv
    from krypteach.classroom.flagged import PLACE, keep_flagged, read_all
    from krypteach.engine.game import Giv

    g = Giv(seed=4)
    g.play_out(lambda x: make_bot("random", seed=1).choose(x.observation()))
    flagged = review_giv(g, 0, samples=6).flagged
    assert flagged

    async def main() -> None:
        s = Served()
        try:
            bo = s.store.join(CODE, "Bo")
            s.store.save_game(bo, "07_play", PLACE, keep_flagged(None, g, 0, flagged, at=100.0))
            (key, f), = list(read_all(s.store.saved_games(bo, PLACE)).items())[:1]
            teacher = await Teacher(s).sign_in()
            status, page, _where = await teacher.fetch("/krypteach/teacher/board")
            listed = re.findall(r"<select id='flagged' name='flagged'>(.*?)</select>", page)
            assert status == 200 and listed and f"value='{bo}/{key}'" in listed[0]
            assert "Bo" not in listed[0] and "Lesson 07, move " in listed[0]
            assert await teacher.post("send", flagged=f"{bo}/{key}") == ""
            view = (await s.poll(_token("Ann", 1), -1))["question"]
            obs = f.observation()
            assert view["hand"] == [str(c) for c in obs.hand] and view["table"] == [str(x) for x in obs.table]
            assert view["kladda"] == [str(c) for c in obs.kladda]
            keys = [c["key"] for c in view["choices"]]
            assert str(f.decision.best) in keys and len(keys) >= 2
            right = [k for k in keys if f.decision.of(Move.parse(k)).good_enough]
            status, _a = await s.answer(_token("Ann", 1), view["id"], right[0])
            assert status == 200
            assert await teacher.post("reveal") == ""
            shown = (await s.poll(_token("Ann", 1), 0))["question"]["reveal"]
            assert shown["yours"] is True and shown["explanation"].startswith("The best move here: ")
            assert "Bo" not in shown["explanation"]
            # a move that is not the class's, or no longer kept: one sentence, the board as it was
            before = s.board.question
            assert await teacher.post("send", flagged=f"{bo}/coach/07_play/000000000000") == \
                "that move is no longer kept: choose one of the list"
            assert await teacher.post("send", flagged=f"999/{key}") == "that move is no longer kept: choose one of the list"
            assert s.board.question is before
        finally:
            s.stop()

    run_in_thread(main)
