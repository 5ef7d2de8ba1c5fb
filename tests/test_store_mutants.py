"""The progress store's read-outs, value by value (issue 18: each test kills mutants of
``krypteach/classroom/store.py`` that the other tests let live, docs/testing.md). SQLite in
memory; tests/test_store.py runs the same store on PostgreSQL too."""

from __future__ import annotations

import json
import re
import time

import pytest

from krypteach.classroom.store import PROGRESS_FORMAT, SCHEMA_VERSION, LessonStanding, ProgressStore, standing_of


@pytest.fixture
def store():
    s = ProgressStore(":memory:")
    yield s
    s.close()


def test_the_class_overview_value_by_value(store):
    ann, bo = store.join("K7", "Ann"), store.join("k7", "Bo")
    other = store.join("X1", "Cy")
    store.declare_items("01", [("a", "exercise"), ("b", "selfcheck"), ("p", "puzzle")])
    store.record(ann, "01", "a", "exercise", correct=False, rule="take-all", at=100.0)
    store.record(ann, "01", "a", "exercise", correct=True, at=101.0)
    store.record(ann, "01", "a", "exercise", correct=True, at=102.0)   # solved twice counts once
    store.record(bo, "01", "a", "exercise", correct=False, rule="take-all", at=103.0)
    store.record(bo, "01", "b", "selfcheck", correct=False, at=104.0)  # no rule: not counted in rules
    store.record(bo, "01", "b", "selfcheck", correct=False, at=105.0)
    store.record(ann, "02", "q", "puzzle", correct=False, topic="endgame", rule="endgame", at=106.0)
    store.record(bo, "07", "giv", "giv", score=4, at=107.0)
    store.record(bo, "07", "giv", "giv", correct=False, rule="forced-tabbe", at=108.0)  # an illegal move in a game
    store.record(other, "01", "a", "exercise", correct=False, rule="take-all", at=109.0)  # another class
    view = store.overview("k7")
    assert view.learners == [(ann, "Ann"), (bo, "Bo")]
    assert view.lessons == ["01", "02", "07"]  # a lesson with a giv played is begun (issue 21)
    grid = {k: (v.done, v.total, v.tried, v.wrong, v.givar) for k, v in view.grid.items()}
    assert grid == {(ann, "01"): (1, 2, 3, 1, 0), (bo, "01"): (0, 2, 3, 3, 0), (ann, "02"): (0, 0, 1, 1, 0),
                    (bo, "02"): (0, 0, 0, 0, 0), (ann, "07"): (0, 0, 0, 0, 0), (bo, "07"): (0, 0, 0, 0, 1)}
    # most failed first: by learners who failed it, then wrong attempts, then lesson and item
    assert view.most_failed == [("01", "a", "exercise", 2, 2), ("01", "b", "selfcheck", 2, 1),
                                ("02", "q", "puzzle", 1, 1)]
    assert view.rules == {"take-all": 2, "endgame": 1, "forced-tabbe": 1}
    assert view.givar == {bo: 1}
    assert view.last_seen == {ann: 106.0, bo: 108.0}


def test_most_failed_breaks_ties_by_wrong_attempts_then_lesson_then_item(store):
    ann, bo = store.join("K7", "Ann"), store.join("K7", "Bo")
    for item, times in (("z", 1), ("y", 3), ("x", 1)):
        for _ in range(times):
            store.record(ann, "01", item, "exercise", correct=False)
        store.record(bo, "01", item, "exercise", correct=False)
    store.record(ann, "00", "w", "exercise", correct=False)
    store.record(bo, "00", "w", "exercise", correct=False)
    assert [r[:2] for r in store.overview("K7").most_failed] == [("01", "y"), ("00", "w"), ("01", "x"), ("01", "z")]


def test_a_learner_standing_value_by_value():
    rows = [("01", "a", "exercise", 1, None, None), ("01", "a", "exercise", 0, None, None),
            ("01", "b", "selfcheck", None, None, None),  # neither right nor wrong: tried, not wrong
            ("02", "p1", "puzzle", 1, "endgame", None), ("02", "p1", "puzzle", 1, "endgame", None),
            ("02", "p2", "puzzle", 1, None, None), ("07", "giv", "giv", None, None, -3), ("07", "giv", "giv", None, None, 6),
            ("07", "giv", "giv", 0, None, None)]
    st = standing_of("Ann", {"01": 3}, rows)
    assert {k: (v.done, v.total, v.tried, v.wrong) for k, v in st.lessons.items()} == {
        "01": (1, 3, 3, 1), "02": (0, 0, 3, 0), "07": (0, 0, 0, 0)}
    assert st.puzzles == {"endgame": 1, "puzzle": 1} and st.givar == 2 and st.mean_score == 1.5
    assert standing_of("Bo", {}, []).mean_score is None


def test_lesson_standing_in_words():
    assert LessonStanding(done=2, total=5).text() == "2 of 5"
    assert LessonStanding(done=3).text() == "3 solved"
    assert LessonStanding().text() == "not started"


def test_the_csv_export_row_by_row(store):
    ann = store.join("K7", "=Ann")
    at = time.mktime((2025, 1, 2, 3, 4, 5, 0, 0, -1))
    store.record(ann, "01", "+a", "exercise", correct=True, at=at)
    store.record(ann, "01", "b", "exercise", correct=False, rule="take-all", at=at + 1)
    store.record(ann, "08", "p", "puzzle", correct=True, topic="endgame", at=at + 2)
    store.record(ann, "07", "giv", "giv", score=-4, at=at + 3)
    store.record(ann, "06", "c", "exercise", correct=False, at=at + 4, how="second-try", answer="-5", expected="=7")
    assert store.export_csv("k7").splitlines() == [
        "nickname,lesson,item,kind,correct,rule,puzzle_kind,score,time,how,answer,right_answer,homework",
        "'=Ann,01,'+a,exercise,yes,,,,2025-01-02 03:04:05,,,,",
        "'=Ann,01,b,exercise,no,take-all,,,2025-01-02 03:04:06,,,,",
        "'=Ann,08,p,puzzle,yes,,endgame,,2025-01-02 03:04:07,,,,",
        "'=Ann,07,giv,giv,,,,-4,2025-01-02 03:04:08,,,,",
        "'=Ann,06,c,exercise,no,,,,2025-01-02 03:04:09,second-try,'-5,'=7,"]


def test_a_progress_file_is_imported_once_with_every_field(store):
    data = json.dumps({"format": PROGRESS_FORMAT, "nickname": " Ann ", "items": {"01": {"a": "exercise"}},
                       "attempts": [["01", "a", "exercise", True, None, None, None, 1000.0],
                                    ["08", "p", "puzzle", False, "endgame", "endgame", None, 1001.0],
                                    ["07", "giv", "giv", None, None, None, 7, 1002.0],
                                    ["06", "c", "exercise", False, None, None, None, 1003.0, "second-try", "5", "7"]]})
    assert store.import_progress(data, "k7") == ("Ann", 4)
    ann = store.join("K7", "Ann")
    store.record(store.join("K7", "Bo"), "01", "a", "exercise", correct=True, at=1003.0)
    assert store.import_progress(data.encode(), "K7") == ("Ann", 0)
    assert [a[1:] for a in store.attempts(ann)] == [
        ("01", "a", "exercise", 1, None, None, None, 1000.0, None, None, None),
        ("08", "p", "puzzle", 0, "endgame", "endgame", None, 1001.0, None, None, None),
        ("07", "giv", "giv", None, None, None, 7, 1002.0, None, None, None),
        ("06", "c", "exercise", 0, None, None, None, 1003.0, "second-try", "5", "7")]
    # the file's items are not declared (issue 20, finding 10: what a lesson holds comes from the lesson)
    assert store.standing(ann).lessons["01"].text() == "1 solved"
    # another learner's attempt at the same time is not taken for Ann's
    bo_file = data.replace('" Ann "', '"Bo"')
    assert store.import_progress(bo_file, "K7") == ("Bo", 4)


# --- the progress file: each bad field refused with its message, word for word -----------------
def _exactly(text):
    """A pytest.raises match for this message and nothing more."""
    return "^" + re.escape(text) + "$"


def _file(**fields):
    obj = {"format": PROGRESS_FORMAT, "nickname": "Ann", "items": {}, "attempts": []}
    obj.update(fields)
    return json.dumps(obj)


_GOOD = ["01", "a", "exercise", True, None, None, None, 1000.0]
_ATTEMPT_SHAPE = "is not [lesson, item, kind, correct, rule, puzzle kind, score, time]"


def test_a_progress_file_at_the_size_limit_is_read_and_one_byte_more_is_refused():
    from krypteach.classroom.store import _MAX_FILE, read_progress_file

    body = _file().encode()
    assert _MAX_FILE == 2_000_000
    exact = body + b" " * (_MAX_FILE - len(body))
    assert read_progress_file(exact) == ("Ann", {}, [])
    with pytest.raises(ValueError, match=_exactly("the progress file is too big (2000001 bytes; at most 2000000)")):
        read_progress_file(exact + b" ")


@pytest.mark.parametrize(("data", "says"), [
    (b"\xff\xfe{}", "the progress file is not UTF-8 text"),
    ("{", "the progress file is not JSON"),
    ("[" * 100_000 + "]" * 100_000, "the progress file is not JSON"),
    ("[1, 2]", 'not a krypteach progress file (it should be a JSON object with "format": "krypteach-progress/1")'),
    ('{"format": "krypteach-progress/2"}',
     'not a krypteach progress file (it should be a JSON object with "format": "krypteach-progress/1")'),
    ('{"nickname": "Ann"}',
     'not a krypteach progress file (it should be a JSON object with "format": "krypteach-progress/1")'),
], ids=["not-utf8", "not-json", "too-deep", "a-list", "another-format", "no-format"])
def test_a_file_that_is_not_a_progress_file_says_why(data, says):
    from krypteach.classroom.store import read_progress_file

    with pytest.raises(ValueError, match=_exactly(says)):
        read_progress_file(data)


@pytest.mark.parametrize("name", [None, 7, ["Ann"], "  "], ids=["none", "number", "list", "blank"])
def test_a_progress_file_without_a_usable_nickname_is_refused(name):
    from krypteach.classroom.store import NicknameError, read_progress_file

    with pytest.raises(NicknameError, match=_exactly("type a nickname: 1 to 30 letters, digits or signs")):
        read_progress_file(_file(nickname=name))


def test_a_progress_file_without_items_or_attempts_holds_none():
    from krypteach.classroom.store import read_progress_file

    assert read_progress_file(json.dumps({"format": PROGRESS_FORMAT, "nickname": " Ann  Li "})) == ("Ann Li", {}, [])


@pytest.mark.parametrize(("items", "says"), [
    ([], "the progress file's items must be an object: lesson -> {item: kind}"),
    ("01", "the progress file's items must be an object: lesson -> {item: kind}"),
    ({"01": ["a", "exercise"]},
     "the progress file's items of '01' must map items to one of exercise, selfcheck, puzzle, giv, lab, coach"),
    ({"01": {"a": "exercise", "b": "quiz"}},
     "the progress file's items of '01' must map items to one of exercise, selfcheck, puzzle, giv, lab, coach"),
    ({"01": {"a": None}},
     "the progress file's items of '01' must map items to one of exercise, selfcheck, puzzle, giv, lab, coach"),
], ids=["a-list", "a-string", "pairs-a-list", "a-bad-kind", "no-kind"])
def test_bad_items_in_a_progress_file_say_why(items, says):
    from krypteach.classroom.store import read_progress_file

    with pytest.raises(ValueError, match=_exactly(says)):
        read_progress_file(_file(items=items))


def test_items_of_every_kind_are_read_and_long_names_cut_at_80_and_200():
    from krypteach.classroom.store import read_progress_file

    items = {"L" * 81: {"i" * 201: "exercise", "s": "selfcheck", "p": "puzzle", "g": "giv"}, "02": {}}
    _, got, _ = read_progress_file(_file(items=items))
    assert got == {"L" * 80: [("i" * 200, "exercise"), ("s", "selfcheck"), ("p", "puzzle"), ("g", "giv")], "02": []}
    _, got, _ = read_progress_file(_file(items={"L" * 80: {"i" * 200: "exercise"}}))
    assert got == {"L" * 80: [("i" * 200, "exercise")]}


def test_at_most_20000_attempts_in_a_progress_file():
    from krypteach.classroom.store import read_progress_file

    _, _, attempts = read_progress_file(_file(attempts=[_GOOD] * 20_000))
    assert len(attempts) == 20_000
    for bad in ([_GOOD] * 20_001, {"0": _GOOD}, "x"):
        with pytest.raises(ValueError, match=_exactly("the progress file's attempts must be a list of at most 20000")):
            read_progress_file(_file(attempts=bad))


_BAD_ATTEMPTS = {
    "not-a-list": {"a": 1},
    "seven-fields": _GOOD[:7],
    "nine-fields": [*_GOOD, None],
    "lesson-a-number": [1, *_GOOD[1:]],
    "item-a-number": ["01", 2, *_GOOD[2:]],
    "bad-kind": ["01", "a", "quiz", *_GOOD[3:]],
    "correct-a-number": ["01", "a", "exercise", 1, *_GOOD[4:]],
    "correct-a-string": ["01", "a", "exercise", "yes", *_GOOD[4:]],
    "rule-a-number": [*_GOOD[:4], 5, *_GOOD[5:]],
    "topic-a-number": [*_GOOD[:5], 5, *_GOOD[6:]],
    "score-a-bool": [*_GOOD[:6], True, _GOOD[7]],
    "score-a-float": [*_GOOD[:6], 1.5, _GOOD[7]],
    "score-a-string": [*_GOOD[:6], "7", _GOOD[7]],
    "time-a-bool": [*_GOOD[:7], True],
    "time-a-string": [*_GOOD[:7], "1000"],
    "time-missing": [*_GOOD[:7], None],
    "time-nan": [*_GOOD[:7], float("nan")],
    "time-infinite": [*_GOOD[:7], float("inf")],
    "time-minus-infinite": [*_GOOD[:7], float("-inf")],
    "time-past-a-float": [*_GOOD[:7], 10 ** 400],
}


@pytest.mark.parametrize("bad", list(_BAD_ATTEMPTS.values()), ids=list(_BAD_ATTEMPTS))
def test_a_bad_attempt_is_refused_by_its_number(bad):
    from krypteach.classroom.store import read_progress_file

    with pytest.raises(ValueError, match=_exactly(f"attempt 3 of the progress file {_ATTEMPT_SHAPE}")):
        read_progress_file(_file(attempts=[_GOOD, _GOOD, bad]))
    with pytest.raises(ValueError, match=_exactly(f"attempt 1 of the progress file {_ATTEMPT_SHAPE}")):
        read_progress_file(_file(attempts=[bad]))


def test_good_attempts_of_every_shape_are_read_and_cut_at_80_and_200():
    from krypteach.classroom.store import read_progress_file

    raw = [["L" * 81, "i" * 201, "puzzle", False, "endgame", "endgame", None, 1000],
           ["L" * 80, "i" * 200, "selfcheck", None, None, None, None, 1001.5],
           ["07", "giv", "giv", None, None, None, -3, 1002.0],
           ["07", "giv", "giv", False, "forced-tabbe", None, 0, 1003.0],
           ["08", "p", "puzzle", False, None, None, None, 1004.0, "shown", "a" * 201, "e" * 201],
           ["06", "c", "exercise", True, None, None, None, 1005.0, None, None, None],
           ["08", "gen/krypkasino/which-card/easy/3", "puzzle", True, None, "which-card", None, 1006.0, "first-try",
            None, None, "tvangstabbe dukning"]]
    _, _, got = read_progress_file(_file(attempts=raw))
    assert got == [("L" * 80, "i" * 200, "puzzle", False, "endgame", "endgame", None, 1000.0, None, None, None, None),
                   ("L" * 80, "i" * 200, "selfcheck", None, None, None, None, 1001.5, None, None, None, None),
                   ("07", "giv", "giv", None, None, None, -3, 1002.0, None, None, None, None),
                   ("07", "giv", "giv", False, "forced-tabbe", None, 0, 1003.0, None, None, None, None),
                   ("08", "p", "puzzle", False, None, None, None, 1004.0, "shown", "a" * 200, "e" * 200, None),
                   ("06", "c", "exercise", True, None, None, None, 1005.0, None, None, None, None),
                   ("08", "gen/krypkasino/which-card/easy/3", "puzzle", True, None, "which-card", None, 1006.0,
                    "first-try", None, None, "tvangstabbe dukning")]
    assert isinstance(got[0][7], float)


def test_an_attempt_is_stored_with_lesson_rule_and_topic_cut_at_80_and_the_item_at_200(store):
    ann = store.join("K7", "Ann")
    store.record(ann, "L" * 81, "i" * 201, "puzzle", correct=False, rule="r" * 81, topic="t" * 81, at=1.0)
    store.record(ann, "L" * 80, "i" * 200, "puzzle", correct=True, rule="r" * 80, topic="t" * 80, at=2.0)
    store.record(ann, "08", "p", "puzzle", correct=False, at=3.0, how="shown", answer="a" * 201, expected="e" * 201)
    assert [a[1:] for a in store.attempts(ann)] == [
        ("L" * 80, "i" * 200, "puzzle", 0, "r" * 80, "t" * 80, None, 1.0, None, None, None),
        ("L" * 80, "i" * 200, "puzzle", 1, "r" * 80, "t" * 80, None, 2.0, None, None, None),
        ("08", "p", "puzzle", 0, None, None, None, 3.0, "shown", "a" * 200, "e" * 200)]
    with pytest.raises(ValueError, match="how='guessed' is not one of first-try, second-try, hint, shown"):
        store.record(ann, "08", "p", "puzzle", correct=True, how="guessed")


# --- nicknames -----------------------------------------------------------------------------------
def test_a_nickname_of_30_characters_is_kept_and_31_are_refused_saying_so():
    from krypteach.classroom.store import NICKNAME_MAX, NicknameError, normalize_nickname

    assert NICKNAME_MAX == 30
    assert normalize_nickname("  " + "a" * 15 + "   " + "b" * 14 + " ") == "a" * 15 + " " + "b" * 14
    assert normalize_nickname("e\u0301" * 30) == "\u00e9" * 30       # counted after NFC
    with pytest.raises(NicknameError, match=_exactly("a nickname has at most 30 characters (this one has 31)")):
        normalize_nickname("a" * 31)
    with pytest.raises(NicknameError, match=_exactly("a nickname has at most 30 characters (this one has 40)")):
        normalize_nickname("a" * 40)


@pytest.mark.parametrize(("name", "code"), [
    ("Ann\x00", "U+0000"), ("A\x7fnn", "U+007F"), ("Ann\ud800", "U+D800"), ("Ann\ue000", "U+E000"),
    ("Ann\u0378", "U+0378"), ("Ann\u200b", "U+200B"), ("Ann\u202e", "U+202E"), ("Ann\U000e0001", "U+E0001"),
], ids=["nul-Cc", "del-Cc", "surrogate-Cs", "private-Co", "unassigned-Cn", "zero-width-space-Cf",
        "right-to-left-Cf", "language-tag-Cf"])
def test_a_nickname_with_an_invisible_character_names_it(name, code):
    from krypteach.classroom.store import NicknameError, normalize_nickname

    with pytest.raises(NicknameError, match=_exactly(f"a nickname cannot hold the invisible character {code}")):
        normalize_nickname(name)


@pytest.mark.parametrize("name", ["\U0001f469\u200d\U0001f52c", "\u2764\ufe0f", "\u2764\ufe0e", "Ann\u00e9"],
                         ids=["zwj-emoji", "emoji-presentation", "text-presentation", "accent"])
def test_the_joiner_and_variation_selectors_of_emoji_are_kept(name):
    from krypteach.classroom.store import normalize_nickname

    assert normalize_nickname(name) == name


@pytest.mark.parametrize("name", [None, 7, b"Ann"], ids=["none", "number", "bytes"])
def test_a_nickname_that_is_not_text_is_refused(name):
    from krypteach.classroom.store import NicknameError, normalize_nickname

    with pytest.raises(NicknameError, match=_exactly("type a nickname: 1 to 30 letters, digits or signs")):
        normalize_nickname(name)


# --- opening and repairing the SQLite file ----------------------------------------------------------
def test_a_file_store_opens_in_wal_mode_with_the_busy_timeout(tmp_path):
    path = tmp_path / "deep" / "er" / "p.sqlite3"          # the folders are made
    s = ProgressStore(path)
    assert (s.backend, s.where, s.timeout, s.notice) == ("sqlite", str(path), 30.0, "")
    pragma = {p: s._conn.execute(f"PRAGMA {p}").fetchone()[0]
              for p in ("busy_timeout", "journal_mode", "synchronous", "foreign_keys")}
    assert pragma == {"busy_timeout": 30000, "journal_mode": "wal", "synchronous": 1, "foreign_keys": 1}
    s.close()
    s = ProgressStore(path, timeout=2.5)
    assert s._conn.execute("PRAGMA busy_timeout").fetchone()[0] == 2500
    s.close()


def test_a_store_in_memory_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = ProgressStore(":memory:")
    assert (s.backend, s.where, s.timeout) == ("sqlite", ":memory:", 30.0)
    assert s._conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    s.join("K7", "Ann")
    s.close()
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_made_is_named_with_the_reason(tmp_path):
    from krypteach.classroom.store import StoreError

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match=_exactly(f"cannot make the folder for the progress file {blocker / 'sub' / 'p.sqlite3'}: Not a directory")):
        ProgressStore(blocker / "sub" / "p.sqlite3")


def test_a_damaged_file_and_its_wal_are_moved_aside_with_a_notice(tmp_path, monkeypatch, caplog):
    import logging

    import krypteach.classroom.store as store_module

    path = tmp_path / "progress.sqlite3"
    path.write_bytes(b"homework, not a database" * 100)
    (tmp_path / "progress.sqlite3-wal").write_bytes(b"wal")
    (tmp_path / "progress.sqlite3-shm").write_bytes(b"shm")
    (tmp_path / "progress.sqlite3.damaged-20250102-030405").write_bytes(b"an older one")
    (tmp_path / "progress.sqlite3.damaged-20250102-030405-1").write_bytes(b"and another")
    monkeypatch.setattr(store_module.time, "strftime", lambda fmt, *a: "20250102-030405")
    with caplog.at_level(logging.WARNING, logger="krypteach.store"):
        s = ProgressStore(path)
    aside = "progress.sqlite3.damaged-20250102-030405-2"
    assert s.notice == (f"The progress file {path} was damaged; it was moved aside to {aside} (nothing was deleted) "
                        "and a new one started.")
    assert (tmp_path / aside).read_bytes().startswith(b"homework")
    assert (tmp_path / (aside + "-wal")).read_bytes() == b"wal" and (tmp_path / (aside + "-shm")).exists()
    assert (tmp_path / "progress.sqlite3.damaged-20250102-030405").read_bytes() == b"an older one"
    assert (tmp_path / "progress.sqlite3.damaged-20250102-030405-1").read_bytes() == b"and another"
    assert (s.backend, s.where, s.schema_version()) == ("sqlite", str(path), SCHEMA_VERSION)
    assert (f"krypteach: the progress file {path} was damaged; it was moved aside to {aside} "
            "(nothing was deleted) and a new one started.") in [r.getMessage() for r in caplog.records]
    s.close()


def test_the_first_damaged_copy_has_no_number(tmp_path, monkeypatch):
    import krypteach.classroom.store as store_module

    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"x" * 5000)
    monkeypatch.setattr(store_module.time, "strftime", lambda fmt, *a: fmt)
    s = ProgressStore(path)
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == ["p.sqlite3.damaged-%Y%m%d-%H%M%S"]
    s.close()


def test_a_locked_file_is_one_clear_error_and_is_not_moved(tmp_path):
    import sqlite3

    from krypteach.classroom.store import StoreError

    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match=_exactly(f"the progress file {path} is locked: database is locked")):
            ProgressStore(path, timeout=0.2)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == []


@pytest.mark.parametrize("url", ["postgresql://kt@db/k7", "postgres://kt@db/k7"], ids=["postgresql", "postgres"])
def test_a_postgresql_address_goes_to_postgresql(url, monkeypatch):
    seen = []
    monkeypatch.setattr(ProgressStore, "_connect_postgres", lambda self, u: seen.append(u) or "conn")
    monkeypatch.setattr(ProgressStore, "_migrate", lambda self: None)
    s = ProgressStore(url)
    assert (s.backend, s.where, s._conn, seen) == ("postgresql", url, "conn", [url])


# --- where the default store lives -------------------------------------------------------------------
def test_the_default_store_path_from_the_environment(tmp_path, monkeypatch):
    from pathlib import Path

    from krypteach.classroom.store import default_store_path

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KRYPTEACH_PROGRESS", str(tmp_path / "mine.sqlite3"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_store_path() == tmp_path / "mine.sqlite3"
    monkeypatch.setenv("KRYPTEACH_PROGRESS", "")
    assert default_store_path() == tmp_path / "xdg" / "krypteach" / "progress.sqlite3"
    monkeypatch.delenv("KRYPTEACH_PROGRESS")
    assert default_store_path() == tmp_path / "xdg" / "krypteach" / "progress.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "")
    assert default_store_path() == tmp_path / "home" / ".local" / "share" / "krypteach" / "progress.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_store_path() == tmp_path / "home" / ".local" / "share" / "krypteach" / "progress.sqlite3"
    assert isinstance(default_store_path(), Path)


def test_a_store_with_no_address_opens_the_default_file(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("KRYPTEACH_PROGRESS", raising=False)
    s = ProgressStore()
    where = tmp_path / "xdg" / "krypteach" / "progress.sqlite3"
    assert (s.backend, s.where) == ("sqlite", str(where)) and where.is_file()
    s.close()


def test_the_second_damaged_copy_of_a_second_is_numbered_1(tmp_path, monkeypatch):
    import krypteach.classroom.store as store_module

    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"x" * 5000)
    (tmp_path / "p.sqlite3.damaged-20250102-030405").write_bytes(b"older")
    monkeypatch.setattr(store_module.time, "strftime", lambda fmt, *a: "20250102-030405")
    s = ProgressStore(path)
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == [
        "p.sqlite3.damaged-20250102-030405", "p.sqlite3.damaged-20250102-030405-1"]
    s.close()


def test_a_newer_schema_says_which_and_what_this_krypteach_knows(tmp_path):
    import sqlite3

    from krypteach.classroom.store import SCHEMA_VERSION, StoreError

    path = tmp_path / "new.sqlite3"
    ProgressStore(path).close()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO krypteach_schema VALUES (99)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=_exactly(
            f"the progress database is of a newer krypteach (schema 99; this one knows {SCHEMA_VERSION}): update krypteach")):
        ProgressStore(path)


# --- third round: the read-outs, the connections, PostgreSQL's calls (docs/mutation/store.md) ---------
def test_two_puzzles_of_one_kind_and_two_mistakes_count_as_two():
    rows = [("02", "p1", "puzzle", 1, "endgame", None), ("02", "p2", "puzzle", 1, "endgame", None),
            ("02", "p2", "puzzle", 1, "endgame", None), ("01", "a", "exercise", 0, None, None),
            ("01", "a", "exercise", 0, None, None), ("01", "b", "selfcheck", 0, None, None)]
    st = standing_of("Ann", {"01": 2}, rows)
    assert st.puzzles == {"endgame": 2}
    assert {k: (v.done, v.total, v.tried, v.wrong) for k, v in st.lessons.items()} == {
        "01": (0, 2, 3, 3), "02": (0, 0, 3, 0)}


def test_an_unknown_learner_has_no_nickname_and_no_standing(store):
    ann = store.join("K7", "Ann")
    assert store.nickname(ann) == "Ann"
    assert store.nickname(ann + 1) is None
    with pytest.raises(KeyError) as e:
        store.standing(ann + 41)
    assert e.value.args == (f"no learner {ann + 41}",)


@pytest.mark.parametrize("code", ["", None, "   "], ids=["empty", "none", "blank"])
def test_a_learner_without_a_class_code_is_in_the_class_dash(store, code):
    ann = store.join(code, "Ann")
    assert store.learners("-") == [(ann, "Ann")]
    assert store.join("-", "Ann") == ann


def test_a_bad_kind_is_refused_naming_the_kinds(store):
    ann = store.join("K7", "Ann")
    says = "kind='quiz' is not one of exercise, selfcheck, puzzle, giv, lab, coach"
    with pytest.raises(ValueError, match=_exactly(says)):
        store.record(ann, "01", "a", "quiz", correct=True)
    with pytest.raises(ValueError, match=_exactly(says)):
        store.declare_items("01", [("a", "exercise"), ("b", "quiz")])
    assert store.attempts() == [] and store.overview("K7").lessons == []


@pytest.mark.parametrize(("text", "cell"), [
    ("=1+2", "'=1+2"), ("+a", "'+a"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"), ("a-b", "a-b"), ("a@b", "a@b"),
    ("", ""), ("'x", "'x")], ids=["equals", "plus", "minus", "at", "minus-inside", "at-inside", "empty", "quote"])
def test_a_cell_that_a_spreadsheet_would_run_is_quoted(text, cell):
    from krypteach.classroom.store import _cell

    assert _cell(text) == cell


def test_the_csv_export_names_the_homework_each_puzzle_answer_counted_for(store):
    ann = store.join("K7", "Ann")
    at = time.mktime((2025, 1, 2, 3, 4, 5, 0, 0, -1))
    store.record(ann, "08", "p", "puzzle", correct=True, at=at)
    store.record(ann, "08", "q", "puzzle", correct=False, at=at + 1)
    store.record(ann, "01", "p", "exercise", correct=True, at=at)  # the same item and time, not a puzzle
    rows = store.export_csv("K7", {(ann, "p", at): "=Tvång; Dukning"}).splitlines()
    assert rows[1:] == ["Ann,08,p,puzzle,yes,,,,2025-01-02 03:04:05,,,,'=Tvång; Dukning",
                        "Ann,01,p,exercise,yes,,,,2025-01-02 03:04:05,,,,",
                        "Ann,08,q,puzzle,no,,,,2025-01-02 03:04:06,,,,"]


def test_the_csv_export_quotes_minus_and_at_and_leaves_a_missing_score_empty(store):
    bo, cy = store.join("K7", "-Bo"), store.join("K7", "@Cy")
    at = time.mktime((2025, 1, 2, 3, 4, 5, 0, 0, -1))
    store.record(cy, "01", "@a", "exercise", correct=None, at=at)
    store.record(bo, "01", "-a", "exercise", correct=False, at=at + 1)
    assert store.export_csv("K7").splitlines() == [
        "nickname,lesson,item,kind,correct,rule,puzzle_kind,score,time,how,answer,right_answer,homework",
        "'-Bo,01,'-a,exercise,no,,,,2025-01-02 03:04:06,,,,",
        "'@Cy,01,'@a,exercise,,,,,2025-01-02 03:04:05,,,,"]


def test_a_progress_file_with_one_attempt_known_and_one_new_adds_the_new_one(store):
    known = ["01", "a", "exercise", True, None, None, None, 1000.0]
    new = ["01", "b", "exercise", False, "take-all", None, None, 1001.0]
    assert store.import_progress(_file(attempts=[known]), "K7") == ("Ann", 1)
    assert store.import_progress(_file(attempts=[known, new, known]), "K7") == ("Ann", 1)
    assert [a[2] for a in store.attempts()] == ["a", "b"]


def test_the_overview_counts_every_illegal_move_in_a_game_and_only_those(store):
    ann, bo = store.join("K7", "Ann"), store.join("K7", "Bo")
    store.declare_items("01", [("a", "exercise"), ("b", "exercise")])
    store.record(ann, "01", "a", "exercise", correct=True, at=0.5)
    store.record(ann, "07", "giv", "giv", correct=False, rule="forced-tabbe", at=2.0)
    store.record(ann, "07", "giv", "giv", correct=False, rule="forced-tabbe", at=3.0)
    store.record(ann, "07", "giv", "giv", correct=None, rule="not-a-mistake", at=4.0)   # neither right nor wrong
    store.record(ann, "07", "giv", "giv", correct=True, rule="right", at=5.0)          # a right move
    store.record(ann, "07", "giv", "giv", correct=False, at=6.0)                        # wrong, with no rule
    store.record(ann, "07", "giv", "giv", correct=True, at=7.0)
    store.record(ann, "07", "giv", "giv", score=3, rule="scored", at=8.0)              # a giv played: its score
    store.record(bo, "07", "giv", "giv", score=0, at=0.25)
    view = store.overview("K7")
    assert view.rules == {"forced-tabbe": 2} and None not in view.rules
    assert view.givar == {ann: 1, bo: 1}
    assert view.last_seen == {ann: 8.0, bo: 0.25}
    # Bo has no attempt in lesson 01: his cell still says what the lesson holds
    # the game's moves are no answers: lesson 07's cells count the givar played, nothing tried or wrong
    assert {k: (v.done, v.total, v.tried, v.wrong, v.givar) for k, v in view.grid.items()} == {
        (ann, "01"): (1, 2, 1, 0, 0), (bo, "01"): (0, 2, 0, 0, 0), (ann, "07"): (0, 0, 0, 0, 1),
        (bo, "07"): (0, 0, 0, 0, 1)}
    assert view.lessons == ["01", "07"]


def test_the_first_attempt_before_time_1_is_the_last_seen(store):
    ann = store.join("K7", "Ann")
    store.record(ann, "01", "a", "exercise", correct=True, at=0.5)
    assert store.overview("K7").last_seen == {ann: 0.5}


def test_a_learner_who_joins_while_the_overview_is_read_is_left_out_until_the_next(store, monkeypatch):
    ann = store.join("K7", "Ann")
    store.record(ann, "01", "a", "exercise", correct=False, rule="take-all", at=20.0)
    store.record(ann, "01", "a", "exercise", correct=True, at=21.0)
    read = store.learners

    def learners_then_cy_joins(code):
        got = read(code)
        cy = store.join(code, "Cy")                         # between the two reads
        store.record(cy, "01", "a", "exercise", correct=False, rule="take-all", at=10.0)
        return got

    monkeypatch.setattr(store, "learners", learners_then_cy_joins)
    view = store.overview("K7")
    assert view.learners == [(ann, "Ann")] and view.last_seen == {ann: 21.0}
    assert {k: (v.done, v.tried, v.wrong) for k, v in view.grid.items()} == {(ann, "01"): (1, 2, 1)}
    assert view.rules == {"take-all": 1} and view.most_failed == [("01", "a", "exercise", 1, 1)]
    monkeypatch.undo()
    assert [n for _, n in store.overview("K7").learners] == ["Ann", "Cy"]


# --- the connections -------------------------------------------------------------------------------
def _in_a_thread(work):
    import threading

    got = {}

    def run():
        try:
            got["value"] = work()
        except BaseException as e:  # said in the assertion
            got["error"] = repr(e)

    t = threading.Thread(target=run)
    t.start()
    t.join(30)
    return got


@pytest.mark.parametrize("where", ["memory", "file"], ids=["memory", "file"])
def test_one_store_serves_every_thread(where, tmp_path):
    s = ProgressStore(":memory:" if where == "memory" else tmp_path / "p.sqlite3")
    ann = s.join("K7", "Ann")

    def work():
        bo = s.join("K7", "Bo")
        s.record(bo, "01", "a", "exercise", correct=True, at=1.0)
        return [n for _, n in s.overview("K7").learners], s.nickname(ann)

    assert _in_a_thread(work) == {"value": (["Ann", "Bo"], "Ann")}
    assert [a[1:3] for a in s.attempts()] == [("01", "a")]
    s.close()


_READS = {
    "schema_version": lambda s, ann: s.schema_version(),
    "nickname": lambda s, ann: s.nickname(ann),
    "learner": lambda s, ann: s.learner(ann),
    "learners": lambda s, ann: s.learners("K7"),
    "attempts": lambda s, ann: [a[1:3] for a in s.attempts(ann)],
    "standing": lambda s, ann: s.standing(ann).lessons["01"].tried,
    "overview": lambda s, ann: [n for _, n in s.overview("K7").learners],
    "export_csv": lambda s, ann: s.export_csv("K7").splitlines()[1].split(",")[:3],
}
_READ_ANSWERS = {"schema_version": SCHEMA_VERSION, "nickname": "Ann",
                 "learner": ("K7", "Ann", None), "learners": [(1, "Ann")], "attempts": [("01", "a")],
                 "standing": 1, "overview": ["Ann"], "export_csv": ["Ann", "01", "a"]}


@pytest.mark.parametrize("read", list(_READS), ids=list(_READS))
def test_a_read_does_not_wait_for_a_writer(read, tmp_path):
    import sqlite3

    path = tmp_path / "p.sqlite3"
    s = ProgressStore(path, timeout=0.2)
    ann = s.join("K7", "Ann")
    s.record(ann, "01", "a", "exercise", correct=True, at=1.0)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")                       # another kernel, in the middle of a write
    writer.execute("INSERT INTO learners (class_code, nickname, created) VALUES ('K7', 'Zed', 0)")
    try:
        assert _READS[read](s, ann) == _READ_ANSWERS[read]   # WAL: the reader sees what was committed
    finally:
        writer.execute("ROLLBACK")
        writer.close()
        s.close()


def test_a_locked_file_gives_up_after_the_stores_timeout(tmp_path):
    import sqlite3

    from krypteach.classroom.store import StoreError

    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    start = time.monotonic()
    try:
        with pytest.raises(StoreError, match="is locked"):
            ProgressStore(path, timeout=0.2)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert time.monotonic() - start < 3.0      # sqlite3's own default would wait 5 s


def test_a_store_in_memory_needs_no_folder(monkeypatch):
    from pathlib import Path

    def no_folders(self, *a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", no_folders)
    s = ProgressStore(":memory:")
    assert s.nickname(s.join("K7", "Ann")) == "Ann"
    s.close()


@pytest.mark.parametrize("where", [":memory:", "file"], ids=["memory", "file"])
def test_without_sqlite3_a_sqlite_store_says_why(where, tmp_path, monkeypatch):
    import krypteach.classroom.store as store_module
    from krypteach.classroom.store import StoreError

    monkeypatch.setattr(store_module, "sqlite3", None)
    with pytest.raises(StoreError, match=_exactly(
            "a SQLite progress store needs Python's sqlite3 module, which this Python lacks "
            "(the offline static site's browser Python: docs/deploy.md)")):
        ProgressStore(where if where == ":memory:" else tmp_path / "p.sqlite3")
    assert list(tmp_path.iterdir()) == []


def test_a_new_file_that_will_not_open_either_says_where(tmp_path, monkeypatch):
    import krypteach.classroom.store as store_module
    from krypteach.classroom.store import StoreError

    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"x" * 5000)
    monkeypatch.setattr(ProgressStore, "_open_sqlite", lambda self, p: None)   # a disk that takes no database
    monkeypatch.setattr(store_module.time, "strftime", lambda fmt, *a: "20250102-030405")
    with pytest.raises(StoreError, match=_exactly(f"cannot open a new progress file at {path}")):
        ProgressStore(path)
    # the new file is made (mode 600) before SQLite opens it (issue 20, finding 14)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.sqlite3", "p.sqlite3.damaged-20250102-030405"]


def test_a_folder_in_the_files_place_is_refused_and_left_where_it_is(tmp_path):
    # issue 20, finding 12: it was moved aside to p.sqlite3.damaged-<time>, with the teacher's files in it
    from krypteach.classroom.store import StoreError

    path = tmp_path / "p.sqlite3"
    path.mkdir()
    (path / "homework.txt").write_text("mine")
    with pytest.raises(StoreError, match=_exactly(f"the progress file {path} is a folder: give the path of a file "
                                                  f"(for example {path / 'progress.sqlite3'})")):
        ProgressStore(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.sqlite3"]
    assert sorted(p.name for p in path.iterdir()) == ["homework.txt"] and (path / "homework.txt").read_text() == "mine"


def test_a_database_error_that_is_not_locked_is_moved_aside(tmp_path, monkeypatch, caplog):
    import logging
    import sqlite3

    import krypteach.classroom.store as store_module

    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"")
    real, calls = sqlite3.connect, []

    def connect(*args, **kwargs):  # the first open fails as a disk error would, the new file opens
        calls.append(args)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return real(*args, **kwargs)

    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    monkeypatch.setattr(store_module.time, "strftime", lambda fmt, *a: "20250102-030405")
    with caplog.at_level(logging.WARNING, logger="krypteach.store"):
        s = ProgressStore(path)
    assert s.notice == (f"The progress file {path} was damaged; it was moved aside to p.sqlite3.damaged-20250102-030405 "
                        "(nothing was deleted) and a new one started.")
    assert f"krypteach: the progress file {path} does not open: disk I/O error" in [r.getMessage() for r in caplog.records]
    s.close()


def test_a_file_that_is_not_a_database_is_logged_with_the_reason(tmp_path, caplog):
    import logging

    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"homework, not a database" * 100)
    with caplog.at_level(logging.WARNING, logger="krypteach.store"):
        ProgressStore(path).close()
    assert f"krypteach: the progress file {path} does not open: file is not a database" in [
        r.getMessage() for r in caplog.records]


# --- PostgreSQL's calls, with a stand-in psycopg (tests/test_store.py runs a real server) ----------------
class _FakePgCursor:
    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def execute(self, sql, args=()):
        self.conn.sent.append((sql, args))

    def fetchone(self):
        return self.conn.answers.pop(0) if self.conn.answers else (None,)


class _FakePgConnection:
    def __init__(self):
        self.sent = []
        self.answers = []

    def transaction(self):
        from contextlib import nullcontext

        return nullcontext()

    def cursor(self):
        return _FakePgCursor(self)


def _fake_psycopg(monkeypatch, connect):
    import sys
    import types

    psycopg = types.ModuleType("psycopg")

    class Error(Exception):
        pass

    class OperationalError(Error):
        pass

    psycopg.Error, psycopg.OperationalError, psycopg.connect = Error, OperationalError, connect
    monkeypatch.setitem(sys.modules, "psycopg", psycopg)
    return psycopg


def test_postgresql_is_reached_with_autocommit_and_the_timeout_in_whole_seconds(monkeypatch):
    calls = []
    conn = _FakePgConnection()
    _fake_psycopg(monkeypatch, lambda *a, **k: calls.append((a, k)) or conn)
    s = ProgressStore("postgresql://kt@db/k7", timeout=2.5)
    assert calls == [(("postgresql://kt@db/k7",), {"autocommit": True, "connect_timeout": 2})]
    assert s._conn is conn


def test_postgresql_migrates_under_its_lock_with_its_own_types_and_placeholders(monkeypatch):
    from krypteach.classroom.store import MIGRATIONS

    conn = _FakePgConnection()
    _fake_psycopg(monkeypatch, lambda *a, **k: conn)
    s = ProgressStore("postgres://kt@db/k7")
    ddl = {"id": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "real": "DOUBLE PRECISION"}
    assert conn.sent == [
        ("SELECT pg_advisory_xact_lock(7297464)", ()),             # one migrating server at a time
        ("CREATE TABLE IF NOT EXISTS krypteach_schema (version INTEGER NOT NULL)", ()),
        ("SELECT max(version) FROM krypteach_schema", ()),
        *[(statement.format(**ddl), ()) for statement in MIGRATIONS[1]],
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (1,)),
        ("ALTER TABLE learners ADD COLUMN pin TEXT", ()),              # version 2: the learners' PINs
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (2,)),
        ("ALTER TABLE items ADD COLUMN declared DOUBLE PRECISION", ()),  # 3: when a page declared an item
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (3,)),
        ("ALTER TABLE attempts ADD COLUMN how TEXT", ()),        # 4: how, the answer and the right one
        ("ALTER TABLE attempts ADD COLUMN answer TEXT", ()),
        ("ALTER TABLE attempts ADD COLUMN expected TEXT", ()),
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (4,)),
        (MIGRATIONS[5][0].format(**ddl), ()),                      # 5: a learner's parti in progress
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (5,)),
        ("ALTER TABLE items ADD COLUMN title TEXT", ()),             # 6: what an item is called
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (6,)),
        ("ALTER TABLE learners ADD COLUMN seen_at DOUBLE PRECISION", ()),  # 7: last active, on which lesson
        ("ALTER TABLE learners ADD COLUMN seen_lesson TEXT", ()),
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (7,)),
        ("ALTER TABLE attempts ADD COLUMN themes TEXT", ()),            # version 8: a puzzle's themes
        ("CREATE TABLE homework (\n"
         "               id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
         "               class_code TEXT NOT NULL,\n"
         "               name TEXT NOT NULL,\n"
         "               theme TEXT,\n"
         "               puzzles TEXT,\n"
         "               count INTEGER NOT NULL,\n"
         "               due DOUBLE PRECISION NOT NULL,\n"
         "               created DOUBLE PRECISION NOT NULL)", ()),                 # and homework
        ("CREATE INDEX homework_by_class ON homework (class_code)", ()),
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (8,)),
        *[(statement.format(**ddl), ()) for statement in MIGRATIONS[9]],  # 9: the class tournament
        ("INSERT INTO krypteach_schema (version) VALUES (%s)", (9,))]
    conn.sent.clear()
    conn.answers.append(("Ann",))
    assert s.nickname(7) == "Ann"
    assert conn.sent == [("SELECT nickname FROM learners WHERE id = %s", (7,))]


def test_postgresql_on_a_database_of_this_version_runs_no_migration(monkeypatch):
    from krypteach.classroom.store import SCHEMA_VERSION

    conn = _FakePgConnection()
    conn.answers.append((SCHEMA_VERSION,))
    _fake_psycopg(monkeypatch, lambda *a, **k: conn)
    ProgressStore("postgresql://kt@db/k7")
    assert [sql for sql, _ in conn.sent] == ["SELECT pg_advisory_xact_lock(7297464)",
                                             "CREATE TABLE IF NOT EXISTS krypteach_schema (version INTEGER NOT NULL)",
                                             "SELECT max(version) FROM krypteach_schema"]


@pytest.mark.parametrize(("message", "why"), [
    ("connection refused\n\tIs the server running on that host?", "connection refused"),
    ("  \n ", "OperationalError"),
    ("", "OperationalError"),
], ids=["first-line", "blank", "empty"])
def test_postgresql_that_will_not_connect_says_the_first_line_of_why(message, why, monkeypatch):
    from krypteach.classroom.store import StoreError

    def refuse(*a, **k):
        raise psycopg.OperationalError(message)

    psycopg = _fake_psycopg(monkeypatch, refuse)
    with pytest.raises(StoreError, match=_exactly(f"cannot connect to the progress database: {why}")):
        ProgressStore("postgresql://kt@db/k7")


def test_postgresql_without_psycopg_says_what_to_install(monkeypatch):
    import sys

    from krypteach.classroom.store import StoreError

    monkeypatch.setitem(sys.modules, "psycopg", None)          # import psycopg raises ImportError
    with pytest.raises(StoreError, match=_exactly(
            "a PostgreSQL progress store needs psycopg: pip install 'psycopg[binary]'")):
        ProgressStore("postgresql://kt@db/k7")


def test_a_progress_file_with_a_time_that_is_no_number_is_refused_and_nothing_is_added(store):
    # NaN is read by json and stored by SQLite as NULL: it was an IntegrityError (a 500 on the teacher's page)
    bad = _file(attempts=[_GOOD, [*_GOOD[:7], float("nan")]])
    assert "NaN" in bad
    with pytest.raises(ValueError, match=_exactly(f"attempt 2 of the progress file {_ATTEMPT_SHAPE}")):
        store.import_progress(bad, "K7")
    assert store.attempts() == [] and store.learners("K7") == []


def test_a_progress_file_imported_again_adds_nothing_whatever_the_decimals_of_its_times(store):
    raw = [["01", "a", "exercise", True, None, None, None, 1764590000.1234567],
           ["01", "a", "exercise", False, None, None, None, 1764590001.98765]]
    assert store.import_progress(_file(attempts=raw), "K7") == ("Ann", 2)
    assert store.import_progress(_file(attempts=raw), "K7") == ("Ann", 0)
    # the same to the millisecond is the same attempt
    again = [["01", "a", "exercise", True, None, None, None, 1764590000.1231]]
    assert store.import_progress(_file(attempts=again), "K7") == ("Ann", 0)
    assert [a[8] for a in store.attempts()] == [1764590000.1234567, 1764590001.98765]
