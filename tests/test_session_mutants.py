"""Who is learning in a kernel, value by value: each test kills mutants of
``krypteach/classroom/session.py`` that the other tests let live (docs/mutation/live.md). A page
must not be able to sign in as somebody else, and a store that fails must never break a lesson."""

from __future__ import annotations

import json
import re
import time

import pytest

import krypteach.classroom.session as session_module
from krypteach.classroom.session import (
    ENV_KEY,
    ENV_SITE,
    ENV_STORE,
    BrowserProgress,
    Session,
    lesson_of_path,
    read_learner,
    sign_learner,
)
from krypteach.classroom.store import PROGRESS_FORMAT, ProgressStore

KEY = b"k" * 32
GONE = "the database went away"


class _Broken:
    """A store whose every call fails, as a database gone away does."""

    def __getattr__(self, name):
        def fail(*_args, **_kwargs):
            raise RuntimeError(GONE)
        return fail


class _Watched(ProgressStore):
    """A store that notes whom it was told it has seen (the teacher's "Last seen" and "Lesson now")."""

    def __init__(self, where=":memory:"):
        super().__init__(where)
        self.seen_calls: list[tuple[object, object]] = []

    def seen(self, learner_id, lesson):
        self.seen_calls.append((learner_id, lesson))
        super().seen(learner_id, lesson)


# --- the token ---------------------------------------------------------------------------------
def test_a_token_is_base64url_without_padding_around_one_dot_and_reads_back_for_every_length():
    # the nicknames' lengths run through every remainder of base64's groups of three bytes
    for n in range(1, 31):
        for learner in (0, 7, 123456):
            nickname = "Å" * (n % 5) + "a" * (n - n % 5)
            token = sign_learner(KEY, "K7RPX", nickname, learner, nonce="n0")
            assert re.fullmatch(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}", token), token
            assert read_learner(KEY, token, nonce="n0") == ("K7RPX", nickname, learner)


def test_a_token_made_for_no_kernel_is_read_for_no_kernel():
    made = sign_learner(KEY, "K7RPX", "Ann", 7)  # the default nonce is ""
    assert read_learner(KEY, made, nonce="") == ("K7RPX", "Ann", 7)
    assert read_learner(KEY, sign_learner(KEY, "K7RPX", "Ann", 7, nonce="")) == ("K7RPX", "Ann", 7)
    assert read_learner(KEY, made, nonce="n0") is None


def test_a_token_is_read_only_in_the_one_form_it_was_made():
    token = sign_learner(KEY, "K7RPX", "Ann", 7, nonce="n0")
    body, mac = token.split(".")
    # base64 decoding skips a stray dot and extra padding: a second dot would still decode to the mac
    assert read_learner(KEY, f"{body}.{mac}.==", nonce="n0") is None
    assert read_learner(KEY, token, nonce="n0") == ("K7RPX", "Ann", 7)


@pytest.mark.parametrize("token", [7, None, 7.5, b"a.b"], ids=["int", "none", "float", "bytes"])
def test_a_token_that_is_no_text_is_refused_not_raised(token):
    assert read_learner(KEY, token, nonce="n0") is None


@pytest.mark.parametrize(("code", "nickname", "learner"), [(5, "Ann", 7), ("K7RPX", 5, 7)],
                         ids=["code-a-number", "nickname-a-number"])
def test_a_signed_token_whose_code_or_nickname_is_no_text_is_refused(code, nickname, learner):
    assert read_learner(KEY, sign_learner(KEY, code, nickname, learner, nonce="n0"), nonce="n0") is None


def test_a_lessons_name_may_have_capitals():
    assert lesson_of_path("/voila/render/03_Take_All.ipynb") == "03_Take_All"


# --- a learner kept in the browser (the static site) -------------------------------------------
def _progress_file(**extra) -> str:
    return json.dumps({"format": PROGRESS_FORMAT, "nickname": "Ann", "items": {}, "attempts": [], **extra})


def test_a_progress_files_partier_keys_are_cut_at_170_and_a_bad_one_drops_only_itself():
    long_key = "x" * 200
    p = BrowserProgress.from_file(_progress_file(games={"bad": 12, long_key: "g1", "07_play table-1": "g2"}))
    assert p.games == {"x" * 170: "g1", "07_play table-1": "g2"}


def test_a_progress_file_written_reads_back_with_its_items_and_partier():
    p = BrowserProgress("Åsa", items={"03_take_all": {"take-all-exercise-1": "exercise"}})
    p.save_game(0, "07_play", "table-1", "a parti")
    data = json.loads(p.to_file())
    assert data["items"] == {"03_take_all": {"take-all-exercise-1": "exercise"}} and data["nickname"] == "Åsa"
    back = BrowserProgress.from_file(p.to_file())
    assert back.items == p.items and back.games == {"07_play table-1": "a parti"}


def test_a_browsers_partier_are_kept_by_lesson_and_place_cut_at_80_each():
    p = BrowserProgress("Ann")
    lesson, place = "L" * 100, "P" * 100
    p.save_game(0, lesson, place, "a parti")
    assert list(p.games) == ["L" * 80 + " " + "P" * 80]
    assert p.saved_game(0, lesson, place) == "a parti"
    assert p.saved_games(0, place) == [("L" * 80, "a parti")]


def test_a_lesson_with_a_space_in_its_name_finds_its_parti():
    p = BrowserProgress("Ann")
    p.save_game(0, "my lesson", "table-1", "a parti")
    assert p.saved_games(0, "table-1") == [("my lesson", "a parti")]


def test_a_browser_keeps_at_most_16_partier_in_progress_and_says_so():
    p = BrowserProgress("Ann")
    for n in range(16):
        p.save_game(0, "07_play", f"table-{n}", "a parti")
    with pytest.raises(ValueError, match=r"^this browser keeps at most 16 partier in progress$"):
        p.save_game(0, "07_play", "table-16", "a parti")


def test_an_item_declared_again_keeps_its_first_kind():
    p = BrowserProgress("Ann")
    saved: list[str] = []
    p.on_save.append(saved.append)
    p.declare_items("03", [("q-1", "exercise", None)])
    p.declare_items("03", [("q-1", "selfcheck", None)])
    assert p.items == {"03": {"q-1": "exercise"}} and len(saved) == 1


def test_a_browsers_attempt_keeps_its_time_and_cuts_the_answers_at_200():
    p = BrowserProgress("Ann")
    p.record(0, "03", "q-1", "exercise", correct=False, at=1764590000.5, answer="a" * 300, expected="e" * 300)
    [a] = p.attempts
    assert a[7] == 1764590000.5 and a[9] == "a" * 200 and a[10] == "e" * 200


def test_a_browsers_puzzle_attempts_are_oldest_first_with_how_and_themes_of_older_files_too():
    p = BrowserProgress("Ann", attempts=[
        ("b-lesson", "p-new", "puzzle", True, None, "traffar", 1500, 20.0, "a", None, None, "take-all traffar"),
        ("a-lesson", "p-old", "puzzle", False, None, None, None, 10.0, "z", None, None, None),
        ("a-lesson", "ex", "exercise", True, None, None, None, 5.0, None, None, None, None),
        # as an older krypteach kept them: eight values, then eleven
        ("c-lesson", "p-8", "puzzle", True, None, None, 1400, 30.0),
        ("c-lesson", "p-11", "puzzle", True, None, None, None, 40.0, "hint", None, None),
    ])
    assert p.puzzle_attempts() == [
        (0, "p-old", False, "z", (), None, 10.0),
        (0, "p-new", True, "a", ("take-all", "traffar"), 1500, 20.0),
        (0, "p-8", True, None, (), 1400, 30.0),
        (0, "p-11", True, "hint", (), None, 40.0),
    ]
    nine = BrowserProgress("Ann", attempts=[("c", "p-9", "puzzle", True, None, None, None, 1.0, "typed")])
    assert nine.puzzle_attempts() == [(0, "p-9", True, "typed", (), None, 1.0)]


def test_a_browsers_standing_counts_self_checks_and_each_games_scores():
    p = BrowserProgress("Ann", items={"03": {"q-1": "selfcheck", "e-1": "exercise", "p-1": "puzzle"}})
    p.record(0, "03", "q-1", "selfcheck", correct=True, at=1.0)
    p.record(0, "07_play", "giv", "giv", score=5, topic="kasino", at=1764590000.0)
    p.record(0, "08", "p-1", "puzzle", correct=True, topic="which-card", at=2.0)
    st = p.standing(0)
    assert st.lessons["03"].total == 2 and st.lessons["03"].done == 1
    assert st.games == {"kasino": (1, 5.0)} and st.mean_score == 5.0 and st.puzzles == {"which-card": 1}


# --- signing in --------------------------------------------------------------------------------
@pytest.fixture
def served(tmp_path, monkeypatch):
    """A served kernel's environment: the server's key and its progress store (Ann is in it)."""
    where = tmp_path / "p.sqlite3"
    store = ProgressStore(where)
    ann = store.join("K7RPX", "Ann")
    monkeypatch.setenv(ENV_KEY, "ab" * 32)
    monkeypatch.setenv(ENV_STORE, str(where))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv(ENV_SITE, raising=False)
    return store, ann, ("ab" * 32).encode()


def test_the_lesson_given_wins_over_the_pages_address(served):
    _store, ann, key = served
    s = Session()
    assert s.sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb", lesson="05_builds")
    assert s.lesson == "05_builds" and s.class_code == "K7RPX" and s.nickname == "Ann"


def test_a_token_made_for_no_kernel_signs_in_where_the_kernel_asks_for_none(served):
    _store, ann, key = served
    assert Session().sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb")


def test_a_forged_token_signs_nobody_in_and_says_false(served):
    _store, ann, _key = served
    s = Session()
    assert s.sign_in(sign_learner(b"made up", "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb") is False
    assert not s.signed_in


@pytest.mark.parametrize("forged_with", [b"", b"XXXX", b"k" * 32], ids=["empty", "short", "long"])
def test_without_the_servers_key_no_token_is_taken(served, monkeypatch, forged_with):
    _store, ann, _key = served
    monkeypatch.delenv(ENV_KEY)
    s = Session()
    assert s.sign_in(sign_learner(forged_with, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb") is False
    assert not s.signed_in


def test_what_was_answered_before_the_learner_was_known_goes_to_the_lesson_and_titles_are_kept(served):
    store, ann, key = served
    s = Session()
    item = s.declare("take-all-exercise", "exercise", title="Take them all")
    s.record(item, "exercise", correct=True)
    s.save_game("table-1", "a parti")
    assert s.sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb")
    again = ProgressStore(store.where)
    assert [a[1:4] for a in again.attempts(ann)] == [("03_take_all", "take-all-exercise-1", "exercise")]
    assert again.item_titles() == {("03_take_all", "take-all-exercise-1"): "Take them all"}
    assert again.saved_game(ann, "03_take_all", "table-1") == "a parti"


def test_a_page_without_a_lesson_keeps_its_answers_and_partier_under_a_question_mark(served):
    store, ann, key = served
    s = Session()
    s.record("q-1", "selfcheck", correct=True)
    s.save_game("table-1", "before")
    assert s.sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/somewhere/else") and s.lesson is None
    s.record("q-2", "selfcheck", correct=False)
    s.save_game("table-2", "after")
    again = ProgressStore(store.where)
    assert [(a[1], a[2]) for a in again.attempts(ann)] == [("?", "q-1"), ("?", "q-2")]
    assert again.saved_game(ann, "?", "table-1") == "before" and again.saved_game(ann, "?", "table-2") == "after"
    assert s.saved_game("table-1") == "before"


def test_the_store_already_open_is_the_one_signed_into(served, monkeypatch):
    store, ann, key = served
    monkeypatch.delenv(ENV_STORE)
    s = Session(store=store)
    assert s.sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb")
    assert s.store is store


def test_signing_in_and_keeping_a_parti_tell_the_store_the_learner_is_here(served):
    store, ann, key = served
    watched = _Watched(store.where)
    s = Session(store=watched)
    assert s.sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb")
    s.save_game("table-1", "a parti")
    assert watched.seen_calls == [(ann, "03_take_all"), (ann, "03_take_all")] and s.problem == ""


def test_a_store_that_fails_while_signing_in_leaves_nobody_signed_in_and_says_why(served, monkeypatch):
    store, ann, key = served

    def broken_seen(_learner, _lesson):
        raise RuntimeError(GONE)

    monkeypatch.setattr(store, "seen", broken_seen)
    s = Session(store=store)
    assert s.sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb") is False
    assert s.store is None and not s.signed_in and s.problem == f"progress is not kept: {GONE}"


def test_a_store_that_cannot_be_opened_says_why(served, monkeypatch):
    _store, ann, key = served

    class Unopenable(ProgressStore):
        def __init__(self, where=None):
            raise RuntimeError(GONE)

    monkeypatch.setattr(session_module, "ProgressStore", Unopenable)
    s = Session()
    assert s.sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb") is False
    assert s.problem == f"progress is not kept: {GONE}" and not s.signed_in


# --- JupyterHub ---------------------------------------------------------------------------------
def test_on_a_hub_the_class_code_is_in_capitals_and_hub_without_one(served, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    monkeypatch.setenv("KRYPTEACH_CLASS", " 9b ")
    s = Session()
    assert s.sign_in_on_hub("/user/ann/voila/render/02_traffar.ipynb") and s.class_code == "9B"
    monkeypatch.delenv("KRYPTEACH_CLASS")
    t = Session()
    assert t.sign_in_on_hub("/user/ann/voila/render/02_traffar.ipynb") and t.class_code == "HUB"


def test_on_a_hub_a_learner_already_signed_in_stays_who_they_are(served, monkeypatch):
    _store, ann, key = served
    s = Session()
    assert s.sign_in(sign_learner(key, "K7RPX", "Ann", ann), "/voila/render/03_take_all.ipynb")
    monkeypatch.setenv("JUPYTERHUB_USER", "bo")
    assert s.sign_in_on_hub("/user/bo/voila/render/03_take_all.ipynb") is True
    assert (s.class_code, s.nickname, s.learner) == ("K7RPX", "Ann", ann)


def test_off_a_hub_nobody_is_signed_in_and_nothing_is_opened(tmp_path, monkeypatch):
    where = tmp_path / "hub.sqlite3"
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setenv(ENV_STORE, str(where))
    s = Session()
    assert s.sign_in_on_hub("/user/ann/voila/render/02_traffar.ipynb") is False
    assert s.problem == "" and not where.exists()


# --- the static site -----------------------------------------------------------------------------
def test_off_the_static_site_a_browsers_progress_is_not_taken(monkeypatch):
    monkeypatch.delenv(ENV_SITE, raising=False)
    s = Session()
    assert s.sign_in_browser("", "Ann", "/site/voila/render/03_take_all.html") is False and not s.signed_in


def test_on_the_static_site_the_browsers_learner_is_learner_0_of_class_site(monkeypatch):
    monkeypatch.setenv(ENV_SITE, "1")
    s = Session()
    assert s.sign_in_browser("", None, "/site/voila/render/03_take_all.html") is False  # nothing yet
    assert s.sign_in_browser("", "Ann", "/site/voila/render/03_take_all.html") is True
    assert (s.class_code, s.nickname, s.learner) == ("SITE", "Ann", 0)


def test_the_same_nickname_keeps_the_browsers_progress_and_another_starts_afresh(monkeypatch):
    monkeypatch.setenv(ENV_SITE, "1")
    kept = BrowserProgress("Ann")
    kept.record(0, "03_take_all", "q-1", "selfcheck", correct=True, at=1764590000.0)
    saved = kept.to_file()
    s = Session()
    assert s.sign_in_browser(saved, "Ann", "/site/voila/render/03_take_all.html")
    assert isinstance(s.store, BrowserProgress) and len(s.store.attempts) == 1
    t = Session()
    assert t.sign_in_browser(saved, "Bo", "/site/voila/render/03_take_all.html")
    assert isinstance(t.store, BrowserProgress) and t.store.nickname == "Bo" and t.store.attempts == []


def test_a_browsers_progress_that_cannot_be_read_is_said_and_a_new_one_started(monkeypatch):
    monkeypatch.setenv(ENV_SITE, "1")
    with pytest.raises(ValueError, match="not JSON") as e:
        BrowserProgress.from_file("not a file")
    s = Session()
    assert s.sign_in_browser("not a file", "Ann", "/site/voila/render/03_take_all.html")
    assert s.problem == f"the progress kept in this browser could not be read: {e.value}"


# --- before the learner is known, and a store that fails -----------------------------------------
def test_at_most_1000_answers_wait_for_the_learner():
    s = Session()
    for n in range(1001):
        s.record(f"q-{n}", "selfcheck", correct=True)
    assert len(s.pending) == 1000 and s.pending[-1][0] == "q-999"


@pytest.mark.parametrize(("store", "learner"), [(_Broken(), None), (None, 3)], ids=["no-learner", "no-store"])
def test_half_signed_in_nothing_reaches_the_store(store, learner):
    s = Session(store=store, learner=learner, lesson="03", class_code="K7RPX")
    s.record("q-1", "selfcheck", correct=True)
    s.save_game("table-1", "a parti")
    assert s.saved_game("table-1") is None and s.saved_games("table-1") == [] and s.standing() is None
    assert s.puzzle_attempts() == (None, []) and s.homework() == []
    assert s.problem == "" and len(s.pending) == 1 and s.unsaved_games == {"table-1": "a parti"}


def test_no_homework_where_the_learner_is_not_known_or_no_server_keeps_it():
    store = ProgressStore(":memory:")
    store.set_homework("K7RPX", "Week 1", due=time.time() + 86400, theme="take-all", count=3)
    ann = store.join("K7RPX", "Ann")
    assert [h.name for h in Session(store=store, learner=ann, class_code="K7RPX").homework()] == ["Week 1"]
    assert Session(store=store, learner=None, class_code="K7RPX").homework() == []
    browser = Session(store=BrowserProgress("Ann"), learner=0, class_code="SITE")
    assert browser.homework() == [] and browser.problem == ""


@pytest.mark.parametrize(("call", "answer"), [
    (lambda s: s.record("q-1", "selfcheck", correct=True), None),
    (lambda s: s.save_game("table-1", "a parti"), None),
    (lambda s: s.saved_game("table-1"), None),
    (lambda s: s.saved_games("table-1"), []),
    (lambda s: s.standing(), None),
    (lambda s: s.puzzle_attempts(), (None, [])),
], ids=["record", "save_game", "saved_game", "saved_games", "standing", "puzzle_attempts"])
def test_a_store_gone_away_is_said_in_problem_and_the_lesson_goes_on(call, answer):
    s = Session(store=_Broken(), learner=3, lesson="03", class_code="K7RPX")
    assert call(s) == answer
    assert s.problem == f"progress is not kept: {GONE}"


def test_homework_from_a_store_gone_away_is_none_and_said():
    class NoHomework(ProgressStore):
        def homework(self, class_code):
            raise RuntimeError(GONE)

    s = Session(store=NoHomework(":memory:"), learner=3, class_code="K7RPX")
    assert s.homework() == [] and s.problem == f"progress is not kept: {GONE}"


def test_a_pages_puzzles_are_its_learners_unless_everyones_are_asked_for():
    store = ProgressStore(":memory:")
    ann, bo = store.join("K7RPX", "Ann"), store.join("K7RPX", "Bo")
    store.record(ann, "08", "p-1", "puzzle", correct=True, at=10.0)
    store.record(bo, "08", "p-1", "puzzle", correct=False, at=20.0)
    s = Session(store=store, learner=ann)
    mine = s.puzzle_attempts()
    every = s.puzzle_attempts(everyone=True)
    assert mine[0] == ann and [a[0] for a in mine[1]] == [ann]
    assert every[0] == ann and [a[0] for a in every[1]] == [ann, bo]
    assert [a[0] for a in s.puzzle_attempts(everyone=False)[1]] == [ann]
