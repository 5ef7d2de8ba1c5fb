"""The class tournament's page in a real browser (issue 24): the teacher starts it from the
form, and the standings appear and change on the open page while the learners play (the page's
long poll of ``tournament/state``), without a reload. The server (the tables, the tournament and
the teacher's sign-in, as ``krypteach serve`` mounts them) runs on its own loop in a thread;
the learners are their kernels' HTTP requests."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request

import pytest

from krypteach.classroom.session import sign_learner
from krypteach.classroom.store import ProgressStore
from krypteach.engine.rules import Rules
from krypteach.serve.gate import ClassGate
from krypteach.serve.settings import ServeSettings
from krypteach.serve.tables import TABLE_NONCE, TableRoom, table_handlers
from krypteach.serve.teacher_handlers import TeacherHandler
from krypteach.serve.tournament import TournamentDesk, tournament_handlers

from .serve_helpers import app_in_thread

pytestmark = pytest.mark.browser

KEY = b"0123456789abcdef0123456789abcdef"
CODE, TEACHER = "K7RPX", "TEACH42X"


@pytest.fixture
def served():
    store = ProgressStore(":memory:")
    room = TableRoom(Rules.preset("kasino"), bot="random", bot_pause=0.0)
    desk = TournamentDesk(room, store=store, class_code=CODE, samples=2)
    settings = ServeSettings(gate=ClassGate(code=CODE, max_kernels=4), start_page=None, store=store,
                             learner_key=KEY, teacher_code=TEACHER)
    handlers = [(r"/krypteach/teacher", TeacherHandler), *table_handlers(room), *tournament_handlers(desk)]
    with app_in_thread(handlers, lambda _loop: room.start(), krypteach=settings, cookie_secret=b"s" * 32) as port:
        yield store, desk, f"http://127.0.0.1:{port}"
    desk.close()


def _kernel(base: str, path: str, body: dict | None = None, **query: object) -> dict:
    url = f"{base}/krypteach/tables{path}" + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    request = urllib.request.Request(url, None if body is None else json.dumps(body).encode(),
                                     method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def _play(base: str, token: str, rng: random.Random) -> None:
    """A learner's kernel plays their next tournament giv to its end."""
    sat = _kernel(base, "", {"learner": token, "tournament": True})
    code, seat, v = sat["code"], sat["seat_token"], sat["view"]
    while not v["over"]:
        if v["turn"] != v["seat"]:
            v = _kernel(base, f"/{code}", seat=seat, since=v["version"])
        else:
            v = _kernel(base, f"/{code}/move", {"seat": seat, "move": rng.choice(v["legal"]), "version": v["version"]})


def test_the_standings_come_live_on_the_teachers_open_page(served, page):
    store, desk, base = served
    ids = {name: store.join(CODE, name) for name in ("Ann", "Bo")}
    page.goto(base + "/krypteach/teacher")
    page.fill("input[name=teacher_code]", TEACHER)
    page.press("input[name=teacher_code]", "Enter")
    page.wait_for_url(base + "/krypteach/teacher")
    page.click("a[href='/krypteach/teacher/tournament']")
    page.fill("input[name=deals]", "1")
    page.select_option("select[name=bot]", "random")
    page.click("button[type=submit]:has-text('Start the tournament')")
    page.wait_for_url(base + "/krypteach/teacher/tournament")
    assert "The tournament is under way" in page.inner_text("#live") and desk.running
    page.evaluate("window.stillTheSamePage = true")
    rng = random.Random(1)
    _play(base, sign_learner(KEY, CODE, "Ann", ids["Ann"], TABLE_NONCE), rng)
    page.wait_for_function("document.querySelector('#live').innerText.includes('Ann')", timeout=20_000)
    assert "1 of 2 (not all played)" in page.inner_text("#live")
    for _ in range(2):
        _play(base, sign_learner(KEY, CODE, "Bo", ids["Bo"], TABLE_NONCE), rng)
    _play(base, sign_learner(KEY, CODE, "Ann", ids["Ann"], TABLE_NONCE), rng)
    page.wait_for_function("(() => { const t = document.querySelector('#live').innerText;"
                           " return (t.match(/2 of 2/g) || []).length === 2 && !t.includes('being reviewed'); })()",
                           timeout=60_000)
    assert page.evaluate("window.stillTheSamePage") is True  # no reload: the page's poll brought every change
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 2
    names = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)]
    assert names == [s.name for s in desk.standings()]
    # the CSV the page offers
    answer = page.request.get(base + "/krypteach/teacher/tournament.csv")
    assert answer.ok and answer.text().splitlines()[0].startswith("rank,nickname,givar_played")
    page.click("button:has-text('End the tournament')")
    page.wait_for_url(base + "/krypteach/teacher/tournament")
    assert "The tournament has ended" in page.inner_text("#live") and not desk.running
