"""Who is learning in a kernel (issue 10): the signed token from ``krypteach serve``, the
hub's user on JupyterHub, and records made before the learner is known."""

from __future__ import annotations

import pytest

from krypteach.classroom.session import ENV_KEY, ENV_STORE, Session, sign_learner
from krypteach.classroom.store import ProgressStore
from krypteach.widgets import LearnerBar


def _hello(bar: LearnerBar, token: str, page: str = "/voila/render/03_take_all.ipynb") -> None:
    bar._handle_custom_msg({"hello": 1, "token": token, "page": page}, [])


def test_a_signed_token_signs_the_learner_in_and_earlier_answers_are_kept(tmp_path, monkeypatch):
    where = tmp_path / "p.sqlite3"
    store = ProgressStore(where)
    ann = store.join("K7RPX", "Ann")
    key = "ab" * 32
    monkeypatch.setenv(ENV_KEY, key)
    monkeypatch.setenv(ENV_STORE, str(where))
    session = Session()
    item = session.declare("take-all-exercise", "exercise")
    session.record(item, "exercise", correct=False, rule="take-all")  # before the page said who
    bar = LearnerBar(session=session)
    assert len(bar.nonce) >= 20  # served: the front end asks the server for a token for this kernel
    _hello(bar, sign_learner(key.encode(), "K7RPX", "Ann", ann, nonce=bar.nonce))
    assert session.learner == ann and session.lesson == "03_take_all"
    assert "Ann" in bar.html and "0 of 1 exercises and questions solved in this lesson" in bar.html
    session.record(item, "exercise", correct=True)
    assert "1 of 1 exercises and questions solved in this lesson" in bar.html
    assert [(a[2], a[4], a[5]) for a in ProgressStore(where).attempts(ann)] == [
        ("take-all-exercise-1", 0, "take-all"), ("take-all-exercise-1", 1, None)]


def test_a_forged_or_foreign_token_writes_nothing(tmp_path, monkeypatch):
    where = tmp_path / "p.sqlite3"
    monkeypatch.setenv(ENV_KEY, "ab" * 32)
    monkeypatch.setenv(ENV_STORE, str(where))
    session = Session()
    bar = LearnerBar(session=session)
    _hello(bar, sign_learner(b"not the server's key", "K7RPX", "Bo", 1, nonce=bar.nonce))
    _hello(bar, "x" * 5000)
    # signed with the server's key, but for another page's kernel (a token seen once, replayed)
    _hello(bar, sign_learner(("ab" * 32).encode(), "K7RPX", "Bo", 1, nonce=LearnerBar(session=Session()).nonce))
    _hello(bar, sign_learner(("ab" * 32).encode(), "K7RPX", "Bo", 1))  # for no kernel at all
    session.record(session.declare("q", "selfcheck"), "selfcheck", correct=True)
    assert not session.signed_in and "Sign in with a nickname" in bar.html  # offered to sign in instead
    assert not where.exists() or ProgressStore(where).attempts() == []


def test_nobody_signed_in_outside_serve_shows_nothing(monkeypatch):
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    bar = LearnerBar(session=Session())
    assert bar.nonce == ""  # not served: the front end asks the server for nothing
    _hello(bar, "")
    assert bar.html == ""


def test_on_a_hub_the_hub_user_is_the_learner(tmp_path, monkeypatch):
    where = tmp_path / "hub.sqlite3"
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    monkeypatch.setenv(ENV_STORE, str(where))
    monkeypatch.setenv("KRYPTEACH_CLASS", "9b")
    session = Session()
    bar = LearnerBar(session=session)
    _hello(bar, "", page="/user/ann/voila/render/02_traffar.ipynb")
    session.record(session.declare("find-traffar-exercise", "exercise"), "exercise", correct=True)
    store = ProgressStore(where)
    [(ann, name)] = store.learners("9B")
    assert name == "ann" and store.standing(ann).lessons["02_traffar"].done == 1 and "ann" in bar.html


def test_a_game_records_each_giv_once_and_the_rule_an_illegal_move_broke(tmp_path, monkeypatch):
    import krypteach.classroom.session as session_module
    from krypteach import Move, capture_options, explain_move
    from krypteach.widgets import GameTable

    store = ProgressStore(tmp_path / "p.sqlite3")
    me = store.join("K7RPX", "Ann")
    monkeypatch.setattr(session_module, "_current",
                        Session(lesson="07_play", learner=me, nickname="Ann", class_code="K7RPX", store=store))
    t = GameTable(seed=3, bot="random")
    broke, expected = False, None
    while not t.giv.is_over:
        g = t.giv
        if not broke:  # creep with a card that can take: must-capture
            card = next((c for c in g.hands[0] if capture_options(c, g.table, g.rules)), None)
            if card is not None:
                expected = explain_move(g.hands[0], g.table, Move(card), g.rules).rule
                t.select_hand(card)
                t.play_selected()
                broke = True
                continue
        move = g.legal_moves()[0]
        t.select_hand(move.card)
        t.select_table(move.capture or [])
        t.play_selected()
    t.play_selected()  # after the end: nothing more is recorded
    rows = [(a[2], a[3], a[4], a[5], a[7]) for a in store.attempts(me)]
    assert expected in ("must-capture", "tvangstabbe")
    assert rows == [("game", "giv", 0, expected, None), ("giv", "giv", None, None, t.giv.result.scores[0])]
    assert store.standing(me).givar == 1 and store.overview("K7RPX").rules == {expected: 1}


def test_the_classroom_files_game_rules_and_bots_reach_the_game(monkeypatch):
    from krypteach import Rules
    from krypteach.widgets import GameTable

    monkeypatch.setenv("KRYPTEACH_GAME_RULES", "ace-low")
    monkeypatch.setenv("KRYPTEACH_GAME_BOTS", "random,careful")
    t = GameTable(seed=1)
    assert t.rules == Rules.preset("ace-low") and [v for _l, v in t.bot_level.options] == ["random", "careful"]


class _Page:
    """What the static site's page keeps in localStorage, from the bar's messages."""

    def __init__(self, bar: LearnerBar):
        self.saved = ""
        bar.send = lambda content, buffers=None: setattr(self, "saved", content.get("save", self.saved))


def test_on_the_static_site_progress_is_kept_in_the_browser_and_read_back(monkeypatch):
    monkeypatch.setenv("KRYPTEACH_SITE", "1")
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    session = Session()
    bar = LearnerBar(session=session)
    page = _Page(bar)
    item = session.declare("take-all-exercise", "exercise")
    _hello(bar, "")
    assert "kt-nick-form" in bar.html and not session.signed_in  # asks for a nickname
    bar._handle_custom_msg({"nickname": "  ", "page": "/site/voila/render/03_take_all.html"}, [])
    assert "type a nickname" in bar.html and not session.signed_in
    bar._handle_custom_msg({"nickname": "Ann 🦊", "page": "/site/voila/render/03_take_all.html"}, [])
    session.record(item, "exercise", correct=False, rule="take-all")
    session.record(item, "exercise", correct=True)
    assert "1 of 1 exercises and questions solved in this lesson" in bar.html and "kt-download-progress" in bar.html
    assert '"nickname": "Ann 🦊"' in page.saved

    # a reload: a new kernel, the same browser
    again = Session()
    bar2 = LearnerBar(session=again)
    _Page(bar2)
    again.declare("take-all-exercise", "exercise")
    bar2._handle_custom_msg({"hello": 1, "token": "", "page": "/site/voila/render/03_take_all.html",
                             "saved": page.saved}, [])
    assert again.nickname == "Ann 🦊" and "1 of 1 exercises and questions solved in this lesson" in bar2.html

    # the teacher imports the downloaded file into the class; a second import adds nothing
    store = ProgressStore(":memory:")
    assert store.import_progress(page.saved.encode(), "K7RPX") == ("Ann 🦊", 2)
    assert store.import_progress(page.saved.encode(), "K7RPX") == ("Ann 🦊", 0)
    [(ann, _)] = store.learners("K7RPX")
    # what the lesson holds comes from the lesson's page on the server, never from the file (issue 20, finding 10)
    assert store.standing(ann).lessons["03_take_all"].text() == "1 solved"
    store.declare_items("03_take_all", [("take-all-exercise", "exercise")])
    assert store.standing(ann).lessons["03_take_all"].text() == "1 of 1"
    assert store.overview("K7RPX").rules == {"take-all": 1}


@pytest.mark.parametrize(("data", "says"), [
    (b"\xff\xfe", "not UTF-8"), (b"{", "not JSON"), (b'{"format": "other"}', "not a krypteach progress file"),
    (b'{"format": "krypteach-progress/1", "nickname": ""}', "type a nickname"),
    (b'{"format": "krypteach-progress/1", "nickname": "Ann", "attempts": [[1]]}', "attempt 1 of the progress file"),
    (b'{"format": "krypteach-progress/1", "nickname": "Ann", "items": {"01": {"x": "quiz"}}}', "must map items"),
])
def test_a_bad_progress_file_is_refused_with_a_reason(data, says):
    with pytest.raises(ValueError, match=says):
        ProgressStore(":memory:").import_progress(data, "K7RPX")


def test_the_start_page_names_the_puzzles_solved_by_their_kind_not_their_code(tmp_path, monkeypatch):
    from krypteach.i18n import use_language

    where = tmp_path / "p.sqlite3"
    store = ProgressStore(where)
    ann = store.join("K7RPX", "Ann")
    store.record(ann, "08_puzzles", "which-card-easy-03", "puzzle", correct=True, topic="which-card")
    key = "ab" * 32
    monkeypatch.setenv(ENV_KEY, key)
    monkeypatch.setenv(ENV_STORE, str(where))
    for lang, name in (("en", "Which card must you play? (tvångstabbe): 1"), ("sv", "tvångstabbe")):
        with use_language(lang):
            bar = LearnerBar(overview=True, session=Session())
            _hello(bar, sign_learner(key.encode(), "K7RPX", "Ann", ann, nonce=bar.nonce),
                   page="/voila/render/en/00_start.ipynb")
            assert name in bar.html and "which-card:" not in bar.html, bar.html


def test_the_start_page_keeps_each_game_apart_and_says_where_to_go_on(tmp_path, monkeypatch):
    """Issue 21: the start page averaged Krypkasino and Kasino scores into one number, and did
    not say how to continue where the learner left off."""
    from krypteach.i18n import use_language

    where = tmp_path / "p.sqlite3"
    store = ProgressStore(where)
    ann = store.join("K7RPX", "Ann")
    store.record(ann, "07_play", "giv", "giv", score=-4, topic="krypkasino", at=1764590000.0)
    store.record(ann, "07_play", "giv", "giv", score=6, topic="krypkasino", at=1764590001.0)
    store.record(ann, "10_kasino", "giv", "giv", score=11, topic="kasino", at=1764590002.0)
    store.record(ann, "04_tabbe", "tabbe-1", "exercise", correct=True, at=1764590003.0)
    st = store.standing(ann)
    assert st.games == {"kasino": (1, 11.0), "krypkasino": (2, 1.0)} and st.last_lesson == "04_tabbe"
    key = "ab" * 32
    monkeypatch.setenv(ENV_KEY, key)
    monkeypatch.setenv(ENV_STORE, str(where))
    titles = {"04_tabbe": "4 · Tabbe", "07_play": "7 · Play"}
    for lang, words in (("en", ("Givar played: 3 — Kasino (the highest score wins): 1 giv, average score +11.0; "
                                "Krypkasino (the lowest score wins): 2 givar, average score +1.0",
                                "Go on where you left off: <a href='04_tabbe.ipynb'>4 · Tabbe</a>")),
                        ("sv", ("Givar spelade: 3 — Kasino (högst poäng vinner): 1 giv, medelpoäng +11,0; "
                                "Krypkasino (lägst poäng vinner): 2 givar, medelpoäng +1,0",
                                "Fortsätt där du slutade: <a href='04_tabbe.ipynb'>4 · Tabbe</a>"))):
        with use_language(lang):
            bar = LearnerBar(overview=True, titles=titles, session=Session())
            _hello(bar, sign_learner(key.encode(), "K7RPX", "Ann", ann, nonce=bar.nonce),
                   page="/voila/render/en/00_start.ipynb")
            for word in words:
                assert word in bar.html, bar.html
