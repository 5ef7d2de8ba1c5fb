"""Practice that adapts (issue 23): the ratings replayed from the attempts kept, the trainer that
chooses by them, its words, and the learner's mistakes coming back."""

from __future__ import annotations

import re

import pytest

from krypteach.classroom import session as session_module
from krypteach.classroom.practice import PracticeBook, score_of
from krypteach.classroom.session import BrowserProgress, Session
from krypteach.classroom.store import ProgressStore
from krypteach.engine.moves import Move
from krypteach.i18n import use_language
from krypteach.teaching.puzzles.fresh import is_generated, themes_of
from krypteach.widgets import practice_widget
from krypteach.widgets.practice_widget import PracticeTrainer


@pytest.fixture
def ann(monkeypatch):
    """A signed-in learner of a class store, as a served page has one."""
    store = ProgressStore(":memory:")
    me = store.join("K7", "Ann")
    s = Session()
    s.store, s.learner, s.lesson = store, me, "08_puzzles"
    monkeypatch.setattr(session_module, "_current", s)
    return store, me


def answer_right(t: PracticeTrainer) -> None:
    """Select a proved answer's cards and press Check, as a learner clicks."""
    p = t.puzzle
    a = sorted(p.answers)[0]
    if p.kind == "what-must-you-take":
        if a == "creep":
            t.creep()
            return
        t.select_table(a.split("+"))
    elif p.kind in ("which-card", "safest-card"):
        t.select_hand(a)
    else:
        m = Move.parse(a)
        t.select_hand(m.card)
        t.select_table(list(m.capture or []))
    t.check()


def test_answers_move_the_rating_are_kept_with_their_themes_and_a_reload_finds_the_same_rating(ann):
    store, me = ann
    t = PracticeTrainer(seed=1)
    assert "Your rating comes with your first answers" in t.stats.value
    answer_right(t)
    assert t._outcome == "solved"
    up = t.practice.overall.rating
    assert up > 1500
    t.next_puzzle()
    t.show_answer()  # a shown answer is a miss
    assert t.practice.overall.rating < up
    assert "Your rating: " in t.stats.value and "after 2 puzzles" in t.stats.value and "<svg" in t.stats.value
    rows = store.puzzle_attempts(me)
    assert [(r[2], r[3]) for r in rows] == [(True, "first-try"), (False, "shown")]
    assert all(r[4] and isinstance(r[5], int) for r in rows)  # themes and the first guess kept
    again = PracticeTrainer(seed=5)  # the page reloaded: the rating is replayed from the attempts
    assert again.practice.overall == t.practice.overall and again.practice.answered == 2


def test_a_missed_puzzle_comes_back_when_due_one_puzzle_in_three(ann, monkeypatch):
    clock = [1_800_000_000.0]
    monkeypatch.setattr(practice_widget.time, "time", lambda: clock[0])
    t = PracticeTrainer(seed=3)
    missed = t.puzzle.id
    t.show_answer()
    assert "waits to come back, in 10 minutes" in t.stats.value
    clock[0] += 11 * 60
    t.next_puzzle()  # the second of the visit: a new one
    assert "is due to come back" in t.stats.value
    assert t.puzzle.id != missed
    answer_right(t)
    t.next_puzzle()  # the third: the one that is due
    assert t.puzzle.id == missed and "comes back" in t.why.value
    before = t.practice.overall
    answer_right(t)  # met again: a review, not a rated game
    assert t.practice.overall == before
    assert t.practice.queue[missed].due.timestamp() > clock[0] + 86_400 / 2  # solved: it comes back days later


def test_a_weak_theme_is_leaned_to_and_said_so(ann):
    t = PracticeTrainer(seed=4)
    said = []
    for _n in range(40):
        if "tvangstabbe" in themes_of(t.puzzle):  # every tvångstabbe missed (a dukning with it too), all else solved
            t.show_answer()
        else:
            answer_right(t)
        said.append(t.why.value)
        t.next_puzzle()
    leaned = [w for w in said if w.startswith("More tvångstabbe: you missed")]
    assert leaned, said
    by_rating = sorted(t.practice.themes, key=lambda theme: t.practice.themes[theme].rating)
    assert by_rating[0] == "tvangstabbe"
    # a dukning set up with tvångstabbe missed, one without it solved: the misses are put down to
    # tvångstabbe (the themes are fitted to every answer at once), and dukning stays well above it
    assert t.practice.themes["dukning"].rating > t.practice.themes["tvangstabbe"].rating + 150
    listed = t.stats.value.split("<ol class='kt-themes'>")[1].split("</ol>")[0]
    assert listed.rsplit("<li>", 1)[1].startswith("tvångstabbe: ")  # strongest first: the weakest last


def test_puzzles_without_end_once_the_shipped_ones_are_met(ann):
    store, me = ann
    for p in PracticeTrainer(seed=1).all_puzzles:  # the learner has met every shipped puzzle
        store.record(me, "08_puzzles", p.id, "puzzle", correct=True, how="first-try", at=1_700_000_000.0)
    t = PracticeTrainer(seed=2)
    for _n in range(6):
        assert t.puzzle is not None and is_generated(t.puzzle.id)
        answer_right(t)
        assert t._outcome == "solved"
        t.next_puzzle()


def test_the_kasino_trainer_practises_build_puzzles_old_and_new(ann):
    t = PracticeTrainer("kasino", seed=1)
    kinds = set()
    for _n in range(8):
        kinds.add(t.puzzle.kind)
        answer_right(t)
        assert t._outcome == "solved", t.message
        t.next_puzzle()
    assert kinds and all(k.startswith("kasino-") for k in kinds)
    with pytest.raises(ValueError, match="game must be one of"):
        PracticeTrainer("chess")


def test_the_page_speaks_swedish_with_swedish_numbers(ann):
    with use_language("sv"):
        t = PracticeTrainer(seed=1)
        assert "Ditt ratingtal kommer med dina första svar" in t.stats.value
        for _n in range(3):
            answer_right(t)
            t.next_puzzle()
        text = t.stats.value
        assert "Your" not in text and "Ditt ratingtal: " in text
        assert re.search(r"<li>[a-zåäö ()]+: 1\u00a0\d{3}</li>", text)  # 1 690: a space between thousands
        assert "efter 3 problem" in text and "Dina teman, starkast först:" in text
        assert t.why.value.startswith(("Ett problem", "Mer "))
        assert [o[0] for o in t.difficulty.options] == ["Lättare", "Normal", "Svårare"]


def test_the_static_sites_browser_keeps_the_practice_too():
    mine = BrowserProgress("Ann")
    mine.record(0, "08_puzzles", "which-card-easy-01", "puzzle", correct=False, how="first-try",
                themes=("tvangstabbe",), score=1100, at=1_700_000_000.0)
    mine.record(0, "08_puzzles", "endgame-easy-01", "puzzle", correct=True, how="hint",
                themes=("endgame", "kladda"), score=1370, at=1_700_000_060.0)
    back = BrowserProgress.from_file(mine.to_file())
    a, b = PracticeBook.replay(mine.puzzle_attempts()), PracticeBook.replay(back.puzzle_attempts())
    assert a.learner(0).overall == b.learner(0).overall and b.learner(0).answered == 2
    assert set(b.learner(0).themes) == {"tvangstabbe", "endgame", "kladda"}
    assert set(b.learner(0).queue) == {"which-card-easy-01", "endgame-easy-01"}  # missed, and solved with a hint


def test_imported_progress_brings_its_practice_to_the_class():
    mine = BrowserProgress("Bo")
    mine.record(0, "08_puzzles", "which-card-easy-01", "puzzle", correct=True, how="first-try",
                themes=("tvangstabbe",), score=1100, at=1_700_000_000.0)
    store = ProgressStore(":memory:")
    name, added = store.import_progress(mine.to_file(), "K7")
    assert (name, added) == ("Bo", 1)
    (bo, _), = store.learners("K7")
    assert store.puzzle_attempts(bo)[0][4:6] == (("tvangstabbe",), 1100)


def test_a_bad_theme_in_a_progress_file_is_refused_in_one_line():
    import json

    mine = BrowserProgress("Ann")
    mine.record(0, "08_puzzles", "p", "puzzle", correct=True, themes=("dukning",), at=1_700_000_000.0)
    data = json.loads(mine.to_file())
    data["attempts"][0][11] = "<script>"
    with pytest.raises(ValueError, match="attempt 1 of the progress file"):
        BrowserProgress.from_file(json.dumps(data))


@pytest.mark.parametrize(("correct", "how", "score"), [(True, "first-try", 1.0), (True, "hint", 0.5),
                                                       (False, "first-try", 0.0), (False, "shown", 0.0),
                                                       (None, None, None)])
def test_what_an_answer_scores(correct, how, score):
    assert score_of(correct, how) == score


def test_a_puzzle_is_rated_by_every_learner_who_tries_it():
    rows = [(learner, "endgame-easy-01", False, "first-try", ("endgame",), 1370, 1000.0 + learner)
            for learner in range(10)]
    book = PracticeBook.replay(rows)
    assert book.puzzles["endgame-easy-01"].rating > 1370 + 100  # ten misses: harder than guessed
    assert book.puzzles["endgame-easy-01"].rd < 200


def test_the_teachers_page_shows_each_learners_rating_and_the_classs_themes_weakest_first():
    from krypteach.classroom.practice import class_practice
    from krypteach.serve.teacher import teacher_page

    store = ProgressStore(":memory:")
    ann, bo = store.join("K7", "Ann"), store.join("K7", "Bo")
    other = store.join("Q9", "Cy")  # another class: not on this page, but its answers rate the puzzles
    for n, (who, pid, themes, ok) in enumerate([
            (ann, "which-card-easy-01", ("tvangstabbe",), False), (ann, "endgame-easy-01", ("endgame", "kladda"), True),
            (bo, "which-card-easy-02", ("tvangstabbe",), False), (other, "which-card-easy-03", ("tvangstabbe",), True)]):
        store.record(who, "08_puzzles", pid, "puzzle", correct=ok, how="first-try", themes=themes, score=1100,
                     at=1_700_000_000.0 + n)
    view = store.overview("K7", ["08_puzzles"])
    practice = class_practice(PracticeBook.replay(store.puzzle_attempts()), [i for i, _n in view.learners])
    assert set(practice.ratings) == {ann, bo}
    page = teacher_page(view, "K7", "", {"08_puzzles": "8 · Puzzles"}, practice=practice)
    assert "Puzzle rating" in page and "(2 puzzles)" in page and "(1 puzzle)" in page
    section = page.split("The class&#x27;s puzzle themes, weakest first")[1]
    assert section.index("<li>tvångstabbe: −") < section.index("<li>the last deal (slutspel): ")
    assert "0 missed of their last 1 answer<" in section
    assert "(2 learners); 2 missed of their last 2 answers" in section
    empty = teacher_page(view, "K7", "", {}, practice=None)
    assert "No puzzle answered yet" in empty


def test_a_learner_works_on_homework_of_a_theme_and_of_chosen_puzzles(ann):
    import time

    store, _me = ann
    session_module.current().class_code = "K7"
    due = time.time() + 86_400
    store.set_homework("K7", "Tvång", theme="tvangstabbe", count=2, due=due)
    store.set_homework("K7", "Chosen", puzzles=["endgame-easy-02", "which-card-hard-01"], due=due + 1)
    with pytest.raises(Exception, match="the due date must be after today"):
        store.set_homework("K7", "Late", theme="dukning", count=3, due=time.time() - 1)
    t = PracticeTrainer(seed=1)
    labels = [label for label, _key in t.work.options]
    assert t.work in t.children and labels[1].startswith("Homework: Tvång (0 of 2 done, due ")
    t.work.value = next(key for label, key in t.work.options if "Tvång" in label)
    for n in (1, 2):
        assert "tvangstabbe" in t.puzzle.id or t.puzzle.kind in ("which-card", "set-up-dukning")
        assert t.why.value == f"Homework Tvång: puzzle {n} of 2."
        answer_right(t)
        t.next_puzzle()
    assert t.puzzle is None and t.message.startswith("Homework Tvång is done: 2 of 2, 2 solved.")
    assert "(2 of 2 done" in next(label for label, _k in t.work.options if "Tvång" in label)
    t.work.value = next(key for label, key in t.work.options if "Chosen" in label)
    assert t.puzzle.id == "endgame-easy-02"
    t.show_answer()
    t.next_puzzle()
    assert t.puzzle.id == "which-card-hard-01"
    t.work.value = ""  # back to practice at the learner's level
    assert t.puzzle is not None and not t.why.value.startswith("Homework")


def test_a_homework_puzzle_answered_stays_on_the_page_with_its_answer_until_next(ann):
    """Redrawing the homework's counts after an answer is not the learner choosing: the puzzle
    and its answer stay, the last one too, until Next puzzle (it went on at once, before, and
    the learner never saw the answer of a homework puzzle)."""
    import time

    store, _me = ann
    session_module.current().class_code = "K7"
    store.set_homework("K7", "Tvång", theme="tvangstabbe", count=2, due=time.time() + 86_400)
    t = PracticeTrainer(seed=1)
    t.work.value = next(key for label, key in t.work.options if "Tvång" in label)
    for n in (1, 2):
        shown = t.puzzle
        assert shown is not None and t.why.value == f"Homework Tvång: puzzle {n} of 2."
        t.show_answer()
        assert t.puzzle is shown and t.why.value == f"Homework Tvång: puzzle {n} of 2."
        assert t.message and "done" not in t.message
        assert f"({n} of 2 done" in next(label for label, _k in t.work.options if "Tvång" in label)
        t.next_puzzle()
    assert t.puzzle is None and t.message.startswith("Homework Tvång is done: 2 of 2, 0 solved.")


def test_homework_on_klaedda_hoegen_has_puzzles_that_klaedda_hoegen_decides(ann):
    """Klädda högen decides few last deals (one shipped endgame): the endgames made for it keep a
    homework of that theme going to its end."""
    import time

    store, _me = ann
    session_module.current().class_code = "K7"
    store.set_homework("K7", "Klädda", theme="kladda", count=3, due=time.time() + 86_400)
    t = PracticeTrainer(seed=1)
    t.work.value = next(key for label, key in t.work.options if "Klädda" in label)
    shown = []
    for n in (1, 2, 3):
        assert t.puzzle is not None, t.message
        assert "kladda" in themes_of(t.puzzle) and t.why.value == f"Homework Klädda: puzzle {n} of 3."
        shown.append(t.puzzle.id)
        answer_right(t)
        t.next_puzzle()
    assert t.puzzle is None and t.message.startswith("Homework Klädda is done: 3 of 3, 3 solved.")
    assert len(set(shown)) == 3 and any(pid.startswith("gen/krypkasino/endgame-kladda/") for pid in shown)


def test_homework_on_the_other_games_rule_says_which_lesson_has_its_puzzles(ann):
    """A homework on builds opened on lesson 08 (Krypkasino's puzzles, none of which is a build)
    says where its puzzles are, in the page's language; it said "press Next puzzle to try again",
    and Next said it again, for ever."""
    import time

    store, _me = ann
    session_module.current().class_code = "K7"
    store.set_homework("K7", "Bygg", theme="build", count=3, due=time.time() + 86_400)
    store.set_homework("K7", "Tvång", theme="tvangstabbe", count=3, due=time.time() + 86_400)
    t = PracticeTrainer(seed=1)
    t.work.value = next(key for label, key in t.work.options if "Bygg" in label)
    assert t.puzzle is None
    assert t.message == ("Homework Bygg is on builds (byggen), which the puzzles on this page do not train: "
                         "do it in lesson 10, whose puzzles do.")
    t.next_puzzle()
    assert t.puzzle is None and "lesson 10" in t.message
    k = PracticeTrainer("kasino", seed=1)
    k.work.value = next(key for label, key in k.work.options if "Tvång" in label)
    assert k.puzzle is None and k.message.endswith("do it in lesson 8, whose puzzles do.")
    k.work.value = next(key for label, key in k.work.options if "Bygg" in label)
    assert k.puzzle is not None and "build" in themes_of(k.puzzle)
    with use_language("sv"):
        sv = PracticeTrainer(seed=1)
        sv.work.value = next(key for label, key in sv.work.options if "Bygg" in label)
        assert sv.message == ("Läxan Bygg handlar om byggen, som problemen på den här sidan inte tränar: "
                              "gör den i lektion 10, där problemen gör det.")


def test_homework_counts_only_the_answers_between_its_setting_and_its_due_time():
    from krypteach.classroom.practice import homework_result
    from krypteach.classroom.store import Homework

    hw = Homework(1, "Tvång", "tvangstabbe", (), 3, due=100.0, created=10.0)
    rows = [(7, "a", True, "first-try", ("tvangstabbe",), None, 5.0),    # before it was set
            (7, "b", False, "first-try", ("tvangstabbe",), None, 20.0),
            (7, "d", True, "first-try", ("tvangstabbe",), None, 50.0),
            (7, "e", True, "first-try", ("tvangstabbe",), None, 150.0)]  # after it was due
    assert homework_result(hw, rows) == (2, 1)
    chosen = Homework(2, "Chosen", None, ("b", "e"), 2, due=100.0, created=10.0)
    assert homework_result(chosen, rows) == (1, 0)  # only its own puzzles, and e came too late


def test_a_trainer_drawn_before_the_sign_in_takes_the_learners_practice_once_they_are_known(monkeypatch):
    """A served page signs in after its kernel has drawn the widgets: the practice is replayed then."""
    store = ProgressStore(":memory:")
    me = store.join("K7", "Ann")
    store.record(me, "08_puzzles", "which-card-easy-01", "puzzle", correct=False, how="first-try",
                 themes=("tvangstabbe",), score=1200, at=1_790_000_000.0)
    s = Session()
    s.lesson = "08_puzzles"
    monkeypatch.setattr(session_module, "_current", s)
    t = PracticeTrainer(seed=1)
    assert t.me is None and t.practice.answered == 0
    assert "Your rating comes with your first answers" in t.stats.value
    s.store, s.learner = store, me
    s._tell()  # what the sign-in tells the page's widgets
    assert t.me == me and t.practice.answered == 1
    assert "after 1 puzzle" in t.stats.value and "is due to come back" in t.stats.value


def test_generated_puzzles_are_offered_with_every_theme_they_train(ann):
    """An endgame made for klädda högen trains it and a medium or hard what-must-you-take several
    träffar: the chooser sees those themes before the puzzle is made, so leaning to a weak kladda
    or träffar reaches the generated puzzles too (they were offered by their kind alone). Another
    endgame is offered as the last deal alone: its klädda högen is known to decide only once made."""
    t = PracticeTrainer(seed=1)
    offered = {i.id.rsplit("/", 1)[0]: set(i.themes) for i in t._items() if is_generated(i.id)}
    assert offered["gen/krypkasino/endgame-kladda/hard"] == {"endgame", "kladda"}
    assert offered["gen/krypkasino/endgame/hard"] == {"endgame"}
    assert offered["gen/krypkasino/what-must-you-take/medium"] == {"take-all", "traffar"}
    assert offered["gen/krypkasino/what-must-you-take/easy"] == {"take-all"}
