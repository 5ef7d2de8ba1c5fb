"""What a lesson's exercises put in the learner's progress (issue 21): each verdict with its try,
a träff found on the way is not the exercise solved, and a shown answer earns nothing after it."""

from __future__ import annotations

import pytest

from krypteach.widgets import CountPointsExercise, FindTraffarExercise, TakeAllExercise


@pytest.fixture
def kept(keep_progress):
    """A learner whose progress is kept: (store, learner id)."""
    return keep_progress("02_traffar")


def _done(store, me):
    here = store.standing(me).lessons.get("02_traffar")
    return 0 if here is None else here.done


def _rows(kept):
    store, me = kept
    return [(a[4], a[9], a[10], a[11]) for a in store.attempts(me)]


def test_one_traff_of_three_found_is_not_the_exercise_solved(kept):
    """Lesson 02 logged every träff found as a right answer: 1 of 3 found showed as solved."""
    store, me = kept
    ex = FindTraffarExercise(card="9H", table="9S 2C 5D 7D 4S")
    assert len(ex.all_traffar) == 3
    ex.table_row.select(["9S"])
    ex.check()
    assert "Found 1 of 3" in ex.message
    assert _rows(kept) == [] and _done(store, me) == 0
    ex.table_row.select(["2C", "7D"])
    ex.check()
    ex.table_row.select(["5D", "4S"])
    ex.check()
    assert ex.solved == 1
    assert _rows(kept) == [(1, "first-try", None, None)]  # one verdict: all three found, no mistake
    assert _done(store, me) == 1


def test_a_count_says_which_try_and_what_was_answered(kept):
    ex = CountPointsExercise(pile="10D 2S AS AH 7S 7H", marks=1)  # 3 + 2 + 2 + 1 + 1 + 5 = 14
    ex.points.value = "12"
    ex.check()
    ex.points.value = "14"
    ex.check()
    assert _rows(kept) == [(0, "first-try", "12", "14"), (1, "second-try", "14", "14")]


def test_show_answer_records_not_solved_and_the_answer_checked_after_it_earns_nothing(kept):
    store, me = kept
    ex = TakeAllExercise(card="9H", table="9S 2C 5D 7D")
    ex.show_answer()
    ex.table_row.selected = [0, 1, 3]  # the shown answer, clicked
    ex.check()
    assert ex.message.startswith("Right") and ex.solved == 0
    assert [(a[4], a[9]) for a in store.attempts(me)] == [(0, "shown")]
    assert _done(store, me) == 0
    ex.new_position()  # a new position is a fresh start
    ex.show_answer()
    assert [(a[4], a[9]) for a in store.attempts(me)] == [(0, "shown"), (0, "shown")]


def test_show_answer_after_solving_records_nothing_more(kept):
    store, me = kept
    ex = TakeAllExercise(card="9H", table="9S 2C 5D 7D")
    ex.table_row.selected = [0, 1, 3]
    ex.check()
    ex.show_answer()
    assert [(a[4], a[9]) for a in store.attempts(me)] == [(1, "first-try")]


# --------------------------------------------------------------------------- lesson 05's klädda högen
def test_the_kladda_exercise_is_recorded_with_a_second_try_then_the_answer(keep_progress):
    """Issue 21: lesson 05's klädda exercise was the lesson's own widget and reached nobody's progress."""
    from krypteach.widgets import KladdaExercise

    store, me = keep_progress("05_deals")
    ex = KladdaExercise(table="5C QD 8H KC")
    ex.table_row.select(["QD"])  # one of two: wrong, a hint and a second try (the answer not shown)
    ex.check()
    assert ex.message.startswith("Not quite: klädda kort are the face cards, knekt, dam and kung")
    assert "K♣" not in ex.message and ex.table_row.hinted == []
    ex.table_row.select(["QD", "KC"])
    ex.check()
    assert ex.solved == 1 and ex.message == ("Right: Q♦ and K♣ are face cards (knekt, dam, kung) and go aside; "
                                             "5♣, 8♥ stay on the table.")
    rows = [(a[2], a[4], a[9], a[10], a[11]) for a in store.attempts(me)]
    assert rows == [(ex.item, 0, "first-try", "Q♦", "Q♦, K♣"), (ex.item, 1, "second-try", "Q♦, K♣", "Q♦, K♣")]
    from krypteach.classroom.session import current

    assert current().titles[ex.item] == "Klädda högen: which cards go aside?"  # the teacher's page names it

    ex.set_position("7H 2S")  # nothing goes aside: selecting none is the answer
    ex.check()
    assert ex.message.startswith("Right: No face card (knekt, dam, kung) was dealt, so nothing goes aside;")
    ex.set_position("KH 4D")
    ex.check()  # none selected: wrong
    ex.check()  # wrong again: now the answer, pointed at
    assert ex.message == "Not quite. K♥ is a face card (knekt, dam, kung) and goes aside; 4♦ stays on the table."
    assert [ex.table_row.cards[i] for i in ex.table_row.hinted] == ["KH"]
    ex.table_row.select(["KH"])
    ex.check()  # after the answer: no more credit
    assert [a[4] for a in store.attempts(me)][-2:] == [0, 0] and ex.solved == 2


def test_kladda_positions_are_real_deals_and_the_game_must_have_a_kladda_hog():
    from krypteach import Rules
    from krypteach.widgets import KladdaExercise

    ex = KladdaExercise(seed=3)
    for _ in range(30):
        ex.new_position()
        assert all(c.is_face for c in ex.deal.aside) and not any(c.is_face for c in ex.deal.table)
        assert sorted(ex.table_row.cards) == sorted(str(c) for c in (*ex.deal.table, *ex.deal.aside))
    with pytest.raises(ValueError, match="no klädda högen"):
        KladdaExercise(rules=Rules.preset("kasino"))
