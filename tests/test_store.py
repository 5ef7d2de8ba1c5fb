"""The progress store (issue 10): the same tests on SQLite and on PostgreSQL.

PostgreSQL runs where ``$KRYPTEACH_TEST_POSTGRES`` names a server (``.ci/run`` starts
one from Debian's packages with ``.ci/postgres``); each test gets a database of its own."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import uuid

import pytest

from krypteach.classroom.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    NicknameError,
    ProgressStore,
    StoreError,
    normalize_nickname,
)

PG = os.environ.get("KRYPTEACH_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path):
    """Where a fresh store lives: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "progress.sqlite3")
        return
    if not PG:
        pytest.skip("no PostgreSQL server: set KRYPTEACH_TEST_POSTGRES (.ci/run starts one with .ci/postgres)")
    import psycopg

    name = "kt_" + uuid.uuid4().hex[:12]
    with psycopg.connect(PG, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    base, _, _ = PG.rpartition("/")
    yield f"{base}/{name}"
    with psycopg.connect(PG, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_progress_is_kept_and_read_back(where):
    s = ProgressStore(where)
    ann, bo = s.join("k7rpx", "Ann"), s.join("K7RPX", "Bo")
    assert ann != bo and s.join("K7RPX", "Ann") == ann  # the code is not case-sensitive
    s.declare_items("03_take_all", [("take-all:9H", "exercise"), ("take-all:AD", "exercise"), ("q1", "selfcheck")])
    s.record(ann, "03_take_all", "take-all:9H", "exercise", correct=False, rule="take-all")
    s.record(ann, "03_take_all", "take-all:9H", "exercise", correct=True)
    s.record(ann, "03_take_all", "take-all:9H", "exercise", correct=True)  # solved twice counts once
    s.record(ann, "03_take_all", "q1", "selfcheck", correct=True)
    s.record(ann, "08_puzzles", "which-card-easy-01", "puzzle", correct=True, topic="which-card")
    s.record(ann, "08_puzzles", "endgame-easy-01", "puzzle", correct=False, topic="endgame", rule="endgame")
    s.record(ann, "07_play", "giv", "giv", score=-3)
    s.record(ann, "07_play", "giv", "giv", score=8)
    s.record(bo, "03_take_all", "take-all:AD", "exercise", correct=False, rule="take-all")
    s.close()

    again = ProgressStore(where)  # a restart of the server
    st = again.standing(ann)
    lesson = st.lessons["03_take_all"]
    assert (lesson.done, lesson.total, lesson.tried, lesson.wrong) == (2, 3, 4, 1)
    assert lesson.text() == "2 of 3"
    assert st.puzzles == {"which-card": 1}
    assert st.givar == 2 and st.mean_score == 2.5
    assert again.standing(bo).lessons["03_take_all"].text() == "0 of 3"

    view = again.overview("K7RPX")
    assert view.learners == [(ann, "Ann"), (bo, "Bo")]
    assert view.grid[(bo, "03_take_all")].wrong == 1 and view.grid[(ann, "03_take_all")].done == 2
    # take-all:9H and take-all:AD each failed by one learner; the puzzle by one
    assert view.most_failed[0][:2] in (("03_take_all", "take-all:9H"), ("03_take_all", "take-all:AD"))
    assert view.rules == {"take-all": 2, "endgame": 1}
    assert view.givar == {ann: 2}
    rows = again.export_csv("K7RPX").splitlines()
    assert rows[0].startswith("nickname,lesson,item,kind,correct,rule") and len(rows) == 1 + 9
    assert again.reset_learner(ann) == 8
    assert again.standing(ann).lessons["03_take_all"].done == 0 and again.standing(bo).lessons["03_take_all"].wrong == 1
    assert again.schema_version() == SCHEMA_VERSION


@pytest.mark.parametrize("name", ["Bo'); DROP TABLE learners;--", "O'Brien \"the\" %s ?", "🦊 Räv", "李", "a" * 30])
def test_odd_nicknames_are_names_like_any_other(where, name):
    s = ProgressStore(where)
    me = s.join("K7RPX", name)
    s.record(me, "01_cards", "count", "exercise", correct=True)
    assert s.nickname(me) == name and s.learners("K7RPX") == [(me, name)]
    assert s.standing(me).lessons["01_cards"].done == 1


@pytest.mark.parametrize(("name", "says"), [("", "type a nickname"), ("   ", "type a nickname"),
                                             ("a" * 31, "at most 30 characters"), ("Ann\x00", "invisible character"),
                                             ("Ann\u202e", "invisible character")])
def test_a_nickname_that_cannot_be_used_says_why(name, says):
    with pytest.raises(NicknameError, match=says):
        normalize_nickname(name)


def test_a_spreadsheet_does_not_run_a_nickname_as_a_formula(tmp_path):
    s = ProgressStore(tmp_path / "p.sqlite3")
    s.record(s.join("K7RPX", "=HYPERLINK(1)"), "01_cards", "count", "exercise", correct=True)
    assert "'=HYPERLINK(1)" in s.export_csv("K7RPX")


def _writer(where: str, n: int, k: int) -> None:
    s = ProgressStore(where)
    me = s.join("K7RPX", f"learner {k}")
    for i in range(n):
        s.record(me, "02_traffar", f"item {i}", "exercise", correct=i % 2 == 0, rule=None if i % 2 == 0 else "not-traffar")
    s.close()


def test_thirty_kernels_writing_at_once_lose_nothing(where):
    ProgressStore(where).close()  # what serve does first
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(where, 40, k)) for k in range(30)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * 30
    s = ProgressStore(where)
    assert len(s.learners("K7RPX")) == 30
    assert len(s.attempts()) == 30 * 40
    assert s.overview("K7RPX").rules == {"not-traffar": 30 * 20}


def test_thirty_stores_opening_a_new_database_at_once_make_one_schema(where):
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(where, 1, k)) for k in range(30)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * 30
    assert ProgressStore(where).schema_version() == SCHEMA_VERSION


def test_a_damaged_file_is_moved_aside_never_overwritten(tmp_path):
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(b"this is not a database, it is a learner's homework" * 100)
    s = ProgressStore(path)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("progress.sqlite3.damaged-")]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not a database")
    assert "moved aside" in s.notice and aside[0].name in s.notice
    s.record(s.join("K7RPX", "Ann"), "01_cards", "count", "exercise", correct=True)
    assert len(ProgressStore(path).attempts()) == 1 and ProgressStore(path).notice == ""


def test_an_older_schema_is_brought_up_to_date(tmp_path):
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE krypteach_schema (version INTEGER NOT NULL)")
    con.commit()
    con.close()
    assert ProgressStore(path).schema_version() == max(MIGRATIONS)


def test_a_newer_schema_is_refused_with_a_reason(tmp_path):
    path = tmp_path / "new.sqlite3"
    ProgressStore(path).close()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO krypteach_schema VALUES (99)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer krypteach"):
        ProgressStore(path)


def test_a_bad_address_is_one_clear_error(tmp_path):
    with pytest.raises(StoreError, match="cannot connect to the progress database"):
        ProgressStore("postgresql://nobody@127.0.0.1:1/none", timeout=2)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot make the folder"):
        ProgressStore(blocker / "sub" / "p.sqlite3")


def test_a_bad_kind_is_refused(tmp_path):
    s = ProgressStore(tmp_path / "p.sqlite3")
    with pytest.raises(ValueError, match="kind='quiz' is not one of"):
        s.record(s.join("K", "Ann"), "01", "x", "quiz", correct=True)


def test_an_import_is_all_or_nothing_bounded_and_counted_alike_on_either_backend(where, monkeypatch):
    """Issue 20 on both backends: a failure midway leaves nothing of the file, a look-alike name is
    refused, a file's items are not declared, and the overview counted in SQL reads as before."""
    import json

    s = ProgressStore(where)
    s.declare_items("03", [("x", "exercise"), ("y", "exercise")])
    attempts = [["03", "x", "exercise", n % 3 == 0, "take-all" if n % 3 else None, None, None, 1764590000.0 + n]
                for n in range(30)] + [["07", "giv", "giv", None, None, None, 5, 1764590100.0]]
    data = json.dumps({"format": "krypteach-progress/1", "nickname": "Ann", "items": {"03": {"z": "exercise"}},
                       "attempts": attempts})
    real, inserts = s._run, []

    def failing(cur, sql, args=()):
        if sql.startswith("INSERT INTO attempts"):
            inserts.append(args)
            if len(inserts) == 10:
                raise RuntimeError("killed midway")
        return real(cur, sql, args)

    monkeypatch.setattr(s, "_run", failing)
    with pytest.raises(RuntimeError, match="killed midway"):
        s.import_progress(data, "K7")
    monkeypatch.undo()
    assert s.attempts() == [] and s.learners("K7") == []
    assert s.import_progress(data, "K7") == ("Ann", 31)
    [(ann, _)] = s.learners("K7")
    with pytest.raises(NicknameError, match="looks like Ann"):
        s.join("K7", "\u0410nn")
    view = s.overview("K7")
    cell = view.grid[(ann, "03")]
    assert (cell.done, cell.total, cell.tried, cell.wrong) == (1, 2, 30, 20)
    assert view.rules == {"take-all": 20} and view.givar == {ann: 1} and view.last_seen == {ann: 1764590100.0}
    assert view.most_failed == [("03", "x", "exercise", 20, 1)] and view.lessons == ["03", "07"]
    s.close()


def test_a_parti_in_progress_is_kept_per_table_replaced_and_reset_on_either_backend(where):
    """Schema 5 (issue 21): a game table's parti, one per learner, lesson and table."""
    from krypteach.classroom.store import MAX_GAME_RECORD

    store = ProgressStore(where)
    ann, bo = store.join("K7RPX", "Ann"), store.join("K7RPX", "Bo")
    assert store.saved_game(ann, "07_play", "game-1") is None
    store.save_game(ann, "07_play", "game-1", "first\n")
    store.save_game(ann, "07_play", "game-1", "second\n")  # replaced, not added
    store.save_game(ann, "07_play", "game-2", "other table\n")
    store.save_game(ann, "10_kasino", "game-1", "kasino\n")
    store.save_game(bo, "07_play", "game-1", "Bo's\n")
    assert store.saved_game(ann, "07_play", "game-1") == "second\n"
    assert store.saved_game(ann, "07_play", "game-2") == "other table\n"
    assert store.saved_game(ann, "10_kasino", "game-1") == "kasino\n"
    with pytest.raises(ValueError, match="too long to keep"):
        store.save_game(ann, "07_play", "game-1", "x" * (MAX_GAME_RECORD + 1))
    assert ProgressStore(where).saved_game(ann, "07_play", "game-1") == "second\n"  # kept, and the old one stays
    store.reset_learner(ann)  # the teacher's reset forgets Ann's partier, not Bo's
    assert store.saved_game(ann, "07_play", "game-1") is None and store.saved_game(ann, "10_kasino", "game-1") is None
    assert store.saved_game(bo, "07_play", "game-1") == "Bo's\n"


def test_every_lesson_of_the_class_is_a_column_from_the_start_and_the_lesson_now_is_the_last_answer(where):
    """Issue 21: the teacher sees who has not begun, and who is on which lesson now."""
    store = ProgressStore(where)
    ann, bo = store.join("K7RPX", "Ann"), store.join("K7RPX", "Bo")
    store.declare_items("03_take_all", [("a", "exercise")])
    store.record(ann, "03_take_all", "a", "exercise", correct=True, at=1764590000.0)
    store.record(ann, "07_play", "giv", "giv", score=3, at=1764590100.0)
    view = store.overview("K7RPX", ["01_cards", "03_take_all", "05_deals"])
    assert view.lessons == ["01_cards", "03_take_all", "05_deals", "07_play"]  # a giv played begins its lesson
    assert view.grid[(bo, "05_deals")].tried == 0 and view.grid[(ann, "01_cards")].text() == "not started"
    assert view.last_lesson == {ann: "07_play"}  # Bo has answered nothing
    assert view.givar == {ann: 1} and view.grid[(ann, "07_play")].givar == 1
    assert store.overview("K7RPX").lessons == ["03_take_all", "07_play"]  # without the class's: the begun ones


def test_reset_a_lesson_or_the_class_rename_remove_and_merge_on_either_backend(where):
    """Issue 21: reset per lesson and for the whole class; rename, remove and merge a nickname."""
    store = ProgressStore(where)
    ann, ann2, bo = store.join("K7RPX", "Ann"), store.join("K7RPX", "Annie"), store.join("K7RPX", "Bo")
    other = store.join("OTHER", "Cy")
    for who in (ann, ann2, bo, other):
        store.record(who, "03_take_all", "a", "exercise", correct=True)
        store.record(who, "04_tabbe", "b", "exercise", correct=False)
    store.save_game(ann, "07_play", "game-1", "Ann's parti\n")
    store.save_game(ann2, "07_play", "game-1", "Annie's parti\n")
    store.save_game(ann2, "10_kasino", "game-1", "Annie's Kasino\n")

    assert store.reset_lesson("k7rpx", "04_tabbe") == 3  # the class's three, not Cy's
    assert [a[1] for a in store.attempts(bo)] == ["03_take_all"] and len(store.attempts(other)) == 2

    with pytest.raises(NicknameError, match="Bo is already in the class: if they are the same learner, merge"):
        store.rename_learner(ann2, "Bo")
    with pytest.raises(NicknameError, match="looks like Bo"):
        store.join("K7RPX", "Во")  # (a Cyrillic В and о: the door refuses it as it always has)
    assert store.rename_learner(ann2, "  ann ") == "ann" and store.nickname(ann2) == "ann"

    with pytest.raises(ValueError, match="themselves"):
        store.merge_learners(ann, ann)
    with pytest.raises(ValueError, match="one class"):
        store.merge_learners(ann2, other)
    assert store.merge_learners(ann2, ann) == 1  # "ann" into "Ann": her attempt moves
    assert [n for _i, n in store.learners("K7RPX")] == ["Ann", "Bo"]
    assert len(store.attempts(ann)) == 2
    assert store.saved_game(ann, "07_play", "game-1") == "Ann's parti\n"  # Ann keeps her own
    assert store.saved_game(ann, "10_kasino", "game-1") == "Annie's Kasino\n"  # and gets what she had not

    assert store.remove_learner(bo) and not store.remove_learner(bo)
    assert [n for _i, n in store.learners("K7RPX")] == ["Ann"] and store.attempts(bo) == []
    assert store.reset_class("K7RPX") == 2 and store.attempts(ann) == []
    assert store.saved_game(ann, "07_play", "game-1") is None and store.nickname(ann) == "Ann"
    assert len(store.attempts(other)) == 2  # another class is untouched


def test_last_seen_and_the_lesson_now_count_a_page_opened_and_a_move_not_only_answers(where):
    """Issue 21: "Last seen" counted answers only; a learner playing a giv looked idle."""
    import time as _time

    store = ProgressStore(where)
    ann = store.join("K7RPX", "Ann")
    store.record(ann, "03_take_all", "a", "exercise", correct=True, at=1764590000.0)
    assert store.overview("K7RPX").last_lesson == {ann: "03_take_all"}
    before = _time.time()
    store.seen(ann, "07_play")  # she opened lesson 07 (or moved in its game) just now
    view = store.overview("K7RPX")
    assert view.last_seen[ann] >= before and view.last_lesson == {ann: "07_play"}
    store.record(ann, "04_tabbe", "b", "exercise", correct=True)  # then answered in 04
    assert store.overview("K7RPX").last_lesson == {ann: "04_tabbe"}


def test_puzzles_solved_and_a_parti_under_way_count_alike_in_the_grid_and_the_start_page(where):
    """Issue 21: 3 puzzles solved in the trainer showed "0/4 · 1 wrong" in the grid, and a build
    made in a giv under way showed "–"."""
    from krypteach.serve.teacher import _cell

    s = ProgressStore(where)
    ann = s.join("K7RPX", "Ann")
    s.declare_items("08_puzzles", [("q1", "selfcheck"), ("q2", "selfcheck")])
    for pid in ("which-card-easy-01", "which-card-easy-02", "endgame-easy-01", "which-card-easy-01"):
        s.record(ann, "08_puzzles", pid, "puzzle", correct=True, topic=pid.split("-easy")[0])  # the last solved again
    s.record(ann, "08_puzzles", "endgame-easy-02", "puzzle", correct=False, topic="endgame", rule="endgame")
    s.record(ann, "10_kasino", "kasino-take-easy-01", "puzzle", correct=True, topic="kasino-take")
    s.save_game(ann, "07_play", "game-1", "a parti\n")
    mine, grid = s.standing(ann).lessons, s.overview("K7RPX", ["07_play", "08_puzzles", "10_kasino"]).grid
    assert (mine["08_puzzles"].puzzles, grid[(ann, "08_puzzles")].puzzles) == (3, 3)
    assert mine["08_puzzles"].text() == "0 of 2 · 3 puzzles solved"
    assert mine["10_kasino"].text() == "1 puzzle solved"  # a lesson of puzzles only: not "not started"
    assert ">0/2 · 3 puzzles solved · 1 wrong</td>" in _cell(grid[(ann, "08_puzzles")])
    assert ">1 puzzle solved</td>" in _cell(grid[(ann, "10_kasino")])
    assert grid[(ann, "07_play")].playing and not grid[(ann, "08_puzzles")].playing
    assert ">a parti under way</td>" in _cell(grid[(ann, "07_play")])
    s.record(ann, "07_play", "giv", "giv", score=4)  # the giv played to its end: counted as a giv
    assert ">1 giv</td>" in _cell(s.overview("K7RPX", ["07_play"]).grid[(ann, "07_play")])


def test_a_class_tournaments_givar_are_kept_as_they_end_and_read_back_after_a_restart(where):
    s = ProgressStore(where)
    ann, bo, ann2 = s.join("K7", "Ann"), s.join("K7", "Bo"), s.join("K7", "ann")
    assert s.tournament("K7") is None
    first = s.start_tournament("K7", '{"players": 2}', 2, "careful", 123, now=10.0)
    tid = s.start_tournament("k7", '{"players": 2}', 3, "random", 2**40, now=20.0)  # the first one ends
    assert s.keep_tournament_giv(tid, ann, 0, 0, -4, "rec-a")
    assert not s.keep_tournament_giv(tid, ann, 0, 0, 99, "other")  # a giv kept twice keeps the first
    assert s.keep_tournament_giv(tid, bo, 0, 0, 3, "rec-b") and s.keep_tournament_giv(tid, ann2, 0, 1, 1, "rec-c")
    s.tournament_quality(tid, ann, 0, 0, 7, 9)
    s.close()
    again = ProgressStore(where)  # a restart: the tournament and its givar are there
    t = again.tournament("K7")
    assert t is not None and (t.id, t.deals, t.bot, t.seed, t.ended, t.rules) == (tid, 3, "random", 2**40, None,
                                                                                    '{"players": 2}')
    assert again.tournament_givar(tid) == [(ann, "Ann", 0, 0, -4, 7, 9, "rec-a"), (bo, "Bo", 0, 0, 3, None, None, "rec-b"),
                                           (ann2, "ann", 0, 1, 1, None, None, "rec-c")]
    assert again.tournament_givar(first) == []
    # two nicknames of one learner merged: their tournament givar go with them (the one kept first stays)
    again.merge_learners(ann2, ann)
    assert [(r[0], r[2], r[3]) for r in again.tournament_givar(tid)] == [(ann, 0, 0), (bo, 0, 0), (ann, 0, 1)]
    again.remove_learner(bo)
    assert [r[1] for r in again.tournament_givar(tid)] == ["Ann", "Ann"]
    assert again.end_tournament("K7", tid, now=30.0) and not again.end_tournament("K7", tid)
    assert again.tournament("K7").ended == 30.0
