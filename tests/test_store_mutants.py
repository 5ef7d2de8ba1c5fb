"""The progress store's read-outs, value by value (issue 18: each test kills mutants of
``krypteach/classroom/store.py`` that the other tests let live, docs/testing.md). SQLite in
memory; tests/test_store.py runs the same store on PostgreSQL too."""

from __future__ import annotations

import json
import time

import pytest

from krypteach.classroom.store import PROGRESS_FORMAT, LessonStanding, ProgressStore, standing_of


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
    assert view.lessons == ["01", "02"]
    grid = {k: (v.done, v.total, v.tried, v.wrong) for k, v in view.grid.items()}
    assert grid == {(ann, "01"): (1, 2, 3, 1), (bo, "01"): (0, 2, 3, 3), (ann, "02"): (0, 0, 1, 1),
                    (bo, "02"): (0, 0, 0, 0)}
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
    assert store.export_csv("k7").splitlines() == [
        "nickname,lesson,item,kind,correct,rule,puzzle_kind,score,time",
        "'=Ann,01,'+a,exercise,yes,,,,2025-01-02 03:04:05",
        "'=Ann,01,b,exercise,no,take-all,,,2025-01-02 03:04:06",
        "'=Ann,08,p,puzzle,yes,,endgame,,2025-01-02 03:04:07",
        "'=Ann,07,giv,giv,,,,-4,2025-01-02 03:04:08"]


def test_a_progress_file_is_imported_once_with_every_field(store):
    data = json.dumps({"format": PROGRESS_FORMAT, "nickname": " Ann ", "items": {"01": {"a": "exercise"}},
                       "attempts": [["01", "a", "exercise", True, None, None, None, 1000.0],
                                    ["08", "p", "puzzle", False, "endgame", "endgame", None, 1001.0],
                                    ["07", "giv", "giv", None, None, None, 7, 1002.0]]})
    assert store.import_progress(data, "k7") == ("Ann", 3)
    ann = store.join("K7", "Ann")
    store.record(store.join("K7", "Bo"), "01", "a", "exercise", correct=True, at=1003.0)
    assert store.import_progress(data.encode(), "K7") == ("Ann", 0)
    assert [a[1:] for a in store.attempts(ann)] == [
        ("01", "a", "exercise", 1, None, None, None, 1000.0), ("08", "p", "puzzle", 0, "endgame", "endgame", None, 1001.0),
        ("07", "giv", "giv", None, None, None, 7, 1002.0)]
    assert store.standing(ann).lessons["01"].text() == "1 of 1"
    # another learner's attempt at the same time is not taken for Ann's
    bo_file = data.replace('" Ann "', '"Bo"')
    assert store.import_progress(bo_file, "K7") == ("Bo", 3)
