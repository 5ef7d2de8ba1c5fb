"""What mutation runs of adaptive practice (its pure core, and the classroom's replay of the attempts) found
unguarded (docs/mutation/practice.md): Glicko-2's volatility step, checked against a reference that finds
the same root another way; the edges of the inputs that `rating`, `choose` and `schedule` accept and
refuse, word for word; and how the classroom scores, queues, rates and counts the attempts it keeps."""

from __future__ import annotations

import itertools
import math
import random
import time
from datetime import UTC, datetime, timedelta, tzinfo

import pytest
from fsrs import Card

from krypteach.classroom.practice import PracticeBook, class_practice, homework_answers, score_of
from krypteach.classroom.store import Homework
from krypteach.teaching.practice import (
    Item,
    Learner,
    QueueEntry,
    Rating,
    choose,
    enqueue,
    fit_themes,
    glicko2,
    mix,
    recent_misses,
    review,
    weak_themes,
)
from krypteach.teaching.puzzles.fresh import estimated_rating, puzzle_from_id, themes_of

SCALE = 173.7178
NOW = datetime(2025, 9, 1, 8, 0, tzinfo=UTC)


def _reference(player: Rating, results: list[tuple[Rating, float]], tau: float) -> tuple[Rating, bool, int]:
    """Glickman's steps, the new volatility found by bisection of f on a wide bracket (not by the
    Illinois iteration the product uses), no rd floor or ceiling. Also says which of the paper's
    two first brackets the product's iteration starts from (``delta² > phi² + v``), and how many
    steps of ``tau`` below ``a`` its search for the other end takes (k)."""
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.rd / SCALE, player.vol

    def g(p: float) -> float:
        return 1.0 / math.sqrt(1.0 + 3.0 * p * p / math.pi ** 2)

    v_inv = total = 0.0
    for opp, score in results:
        mj, pj = (opp.rating - 1500.0) / SCALE, opp.rd / SCALE
        e = 1.0 / (1.0 + math.exp(-g(pj) * (mu - mj)))
        v_inv += g(pj) ** 2 * e * (1.0 - e)
        total += g(pj) * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    lo, hi = a - 60.0, a + 60.0
    grid = [lo + i * 0.01 for i in range(12001)]
    assert sum((f(x) > 0) != (f(y) > 0) for x, y in itertools.pairwise(grid)) == 1, "f has one root here"
    for _ in range(200):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    new_sigma = math.exp(lo / 2.0)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / phi_star ** 2 + 1.0 / v)
    k = 1
    while f(a - k * tau) < 0:
        k += 1
    return (Rating((mu + new_phi ** 2 * total) * SCALE + 1500.0, new_phi * SCALE, new_sigma),
            delta * delta > phi * phi + v, k)


#: (player, results, tau, the first bracket, k > 1)
_CASES = {
    # Glickman's example: the second bracket, found at once
    "paper": (Rating(1500.0, 200.0, 0.06), [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0),
                                             (Rating(1700.0, 300.0), 0.0)], 0.5, False, False),
    # a learner at 1500 who solves two puzzles at 1800: a surprise, the first bracket (log(delta² − phi² − v))
    "surprise": (Rating(1500.0, 60.0, 0.06), [(Rating(1800.0, 40.0), 1.0)] * 2, 0.75, True, False),
    # a learner who solves what they were expected to: the second bracket, at the product's own tau
    "expected": (Rating(1620.0, 60.0, 0.09), [(Rating(1480.0, 80.0), 1.0), (Rating(1400.0, 60.0), 1.0),
                                              (Rating(1800.0, 60.0), 0.0)], 0.75, False, False),
    # a huge volatility, a hundred even results and a large tau: the search for the bracket's other end
    # steps down from a more than once (k > 1)
    "search": (Rating(1500.0, 45.0, 3.0), [(Rating(1500.0, 45.0), 0.5)] * 100, 3.0, False, True),
}


@pytest.mark.parametrize("case", list(_CASES), ids=list(_CASES))
def test_glicko2_finds_the_volatility_the_paper_defines(case):
    player, results, tau, first, search = _CASES[case]
    want, first_bracket, k = _reference(player, results, tau)
    assert (first_bracket, k > 1) == (first, search)
    got = glicko2(player, results, tau=tau)
    assert got.vol == pytest.approx(want.vol, rel=1e-6)
    assert got.rating == pytest.approx(want.rating, abs=1e-4)
    assert got.rd == pytest.approx(min(350.0, max(45.0, want.rd)), abs=1e-4)


def test_glicko2s_tau_is_075_unless_given():
    player, results, *_ = _CASES["surprise"]
    assert glicko2(player, results) == glicko2(player, results, tau=0.75)
    assert glicko2(player, results).vol == pytest.approx(_reference(player, results, 0.75)[0].vol, rel=1e-6)


def test_no_results_keep_the_players_own_volatility():
    assert glicko2(Rating(1620.0, 100.0, 0.09), []).vol == 0.09


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"tau": 0.0}, "tau must be > 0, not 0.0"),
    ({"tau": -1.0}, "tau must be > 0, not -1.0"),
], ids=["zero", "negative"])
def test_glicko2_refuses_a_tau_that_is_not_positive(kwargs, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        glicko2(Rating(), [(Rating(), 1.0)], **kwargs)


@pytest.mark.parametrize("score", [1.5, 2.0, -0.1], ids=["1.5", "2", "-0.1"])
def test_glicko2_refuses_a_score_outside_0_to_1(score):
    with pytest.raises(ValueError, match=f"^a score must be between 0 and 1, not {score!r}$"):
        glicko2(Rating(), [(Rating(), score)])


def test_a_ratings_rd_may_be_any_number_above_0_up_to_350():
    assert Rating.from_dict({"rating": 1500, "rd": 0.5, "vol": 0.06}).rd == 0.5
    assert Rating.from_dict(Rating().to_dict()) == Rating()  # rd 350, a learner nobody knows yet
    with pytest.raises(ValueError, match=r"^a rating's rd must be in \(0, 350\], not 350.5$"):
        Rating.from_dict({"rating": 1500, "rd": 350.5, "vol": 0.06})


def test_fit_themes_keeps_the_learners_volatility():
    fit = fit_themes([(("dukning",), 1.0, Rating(1500.0, 60.0))], Rating(1500.0, 60.0, 0.05))
    assert fit["dukning"].vol == 0.05


# --- choose ------------------------------------------------------------------------------------------


def test_recent_misses_may_look_at_the_last_attempt_alone():
    history = [(["dukning"], True), (["dukning"], False)]
    assert recent_misses(history, last=1) == {"dukning": (1, 1)}
    with pytest.raises(ValueError, match=r"^last must be at least 1, not 0$"):
        recent_misses(history, last=0)


def test_a_theme_with_a_rating_but_no_recent_attempts_is_not_weak():
    learner = Learner(themes={"dukning": Rating(1000.0, 50.0), "kladda": Rating(1400.0, 50.0)},
                      recent={"kladda": (1, 1)})
    assert weak_themes(learner, min_attempts=1) == ["kladda"]


def test_choose_may_take_the_nearest_puzzle_alone():
    items = [Item(f"p{r}", ("dukning",), Rating(float(r), 60.0)) for r in (1200, 1350, 1500)]
    learner = Learner(Rating(1500.0, 60.0))
    picks = {choose(items, learner, rng=random.Random(s), k=1, lean=0.0).item.id for s in range(10)}
    assert picks == {"p1350"}  # normal aims 150 below the learner
    with pytest.raises(ValueError, match=r"^k must be at least 1, not 0$"):
        choose(items, learner, rng=random.Random(1), k=0)


# --- schedule ----------------------------------------------------------------------------------------


class _NoOffset(tzinfo):
    """A time zone that does not know its offset (a datetime with it is not aware)."""

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        return None

    def dst(self, dt: datetime | None) -> timedelta | None:
        return None


@pytest.mark.parametrize("when", [datetime(2025, 9, 1, 8, 0, tzinfo=_NoOffset()), "2025-09-01T08:00:00+00:00",
                                  datetime(2025, 9, 1, 8, 0)], ids=["offset-unknown", "text", "naive"])
def test_a_time_must_be_an_aware_datetime(when):
    with pytest.raises(ValueError, match=r"^the time must be a timezone-aware datetime, not "):
        enqueue("p1", when)


def test_times_are_kept_in_utc_whatever_the_machines_zone(monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        entry = enqueue("p1", datetime(2025, 9, 1, 10, 0, tzinfo=UTC).astimezone())
        assert entry.due.utcoffset() == timedelta(0)
        assert entry.due == datetime(2025, 9, 1, 10, 10, tzinfo=UTC)
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_queue_entry_whose_card_was_never_reviewed_reads():
    card = Card(card_id=7, due=NOW).to_dict()
    assert card["last_review"] is None
    assert QueueEntry.from_dict({"key": "p1", "card": card}).due == NOW


def test_a_queue_entry_whose_last_review_has_no_zone_is_refused():
    card = enqueue("p1", NOW).to_dict()["card"]
    assert isinstance(card, dict)
    card["last_review"] = "2025-09-01T08:00:00"
    with pytest.raises(ValueError, match=r"^queue entry 'p1': its card's times must say their timezone$"):
        QueueEntry.from_dict({"key": "p1", "card": card})


@pytest.mark.parametrize("key", [5, "", None], ids=["number", "empty", "none"])
def test_enqueue_refuses_a_key_that_is_not_a_non_empty_string(key):
    with pytest.raises(ValueError, match=f"^a queue entry's key must be a non-empty string, not {key!r}$"):
        enqueue(key, NOW)


def test_review_names_the_grades_it_knows():
    with pytest.raises(ValueError, match=r"^unknown grade 'easy': one of again, hard, good$"):
        review(enqueue("p1", NOW), "easy", NOW)  # type: ignore[arg-type]


def test_mix_may_serve_every_puzzle_from_the_due():
    assert [mix(["p3"], i, every=1) for i in range(3)] == ["p3", "p3", "p3"]
    with pytest.raises(ValueError, match=r"^every must be at least 1, not 0$"):
        mix(["p3"], 0, every=0)
    with pytest.raises(ValueError, match=r"^session_index counts from 0, not -1$"):
        mix(["p3"], -1)


# --- the classroom's replay of the attempts (classroom/practice.py) -----------------------------------


def test_an_answer_shown_scores_nothing_even_marked_right():
    assert score_of(True, "shown") == 0.0
    assert score_of(True, "first-try") == 1.0 and score_of(True, "hint") == 0.5


def test_a_puzzle_solved_after_a_hint_comes_back_later_than_one_missed():
    book = PracticeBook()
    book.add(1, "p", ("dukning",), 1500.0, correct=True, how="hint", at=0.0)
    book.add(1, "q", ("dukning",), 1500.0, correct=False, how="first-try", at=0.0)
    mine = book.learner(1)
    assert mine.queue["q"].due == datetime.fromtimestamp(600.0, UTC)  # missed: again, in ten minutes
    assert mine.queue["p"].due > datetime.fromtimestamp(600.0, UTC)  # after a hint: hard, later
    # met again after a hint: a "hard" review, as its first answer was
    hinted = review(enqueue("r", datetime.fromtimestamp(0.0, UTC)), "again", datetime.fromtimestamp(700.0, UTC))
    book.add(1, "r", ("dukning",), 1500.0, correct=False, how="first-try", at=0.0)
    book.add(1, "r", ("dukning",), 1500.0, correct=True, how="hint", at=700.0)
    assert book.learner(1).queue["r"].due != hinted.due
    assert book.learner(1).queue["r"].due == review(enqueue("r", datetime.fromtimestamp(0.0, UTC)), "hard",
                                                     datetime.fromtimestamp(700.0, UTC)).due


def test_a_learners_recent_misses_are_of_their_last_five_answers_in_a_theme():
    book = PracticeBook()
    for i in range(7):
        book.add(1, f"p{i}", ("dukning",), 1500.0, correct=i < 2, how="first-try", at=float(i))
    assert book.learner(1).recent() == {"dukning": (5, 5)}


def test_a_puzzles_first_rating_is_the_one_kept_with_the_attempt():
    book = PracticeBook.replay([(1, "p", True, "first-try", ("dukning",), 1800, 1.0)])
    before = Rating.estimated(1800.0)
    assert book.puzzles["p"] == glicko2(before, [(Rating(), 0.0)])


def test_a_puzzles_rating_without_a_kept_guess_is_its_estimate_or_1500():
    book = PracticeBook()
    shipped = "which-card-easy-01"
    assert book.rating_of(shipped) == Rating.estimated(estimated_rating(puzzle_from_id(shipped)))
    assert estimated_rating(puzzle_from_id(shipped)) != 1500.0
    assert book.rating_of("no-such-puzzle") == Rating.estimated(1500.0)


def test_an_older_attempt_without_themes_takes_the_shipped_puzzles_own():
    book = PracticeBook()
    shipped = "which-card-easy-01"
    book.add(1, shipped, (), None, correct=True, how="first-try", at=1.0)
    book.add(1, "gen/krypkasino/which-card/easy/1", (), None, correct=True, how="first-try", at=2.0)
    book.add(1, "no-such-puzzle", (), None, correct=True, how="first-try", at=3.0)
    assert [r[1] for r in book.learner(1).rated] == [themes_of(puzzle_from_id(shipped)), (), ()]


def test_the_class_view_skips_a_learner_with_no_answer_and_goes_on():
    book = PracticeBook.replay([(1, "p", True, "first-try", ("dukning",), 1500, 1.0)])
    book.flag(2, "coach/x", 0.0)  # in the book, with no answer
    book.add(4, "p", ("dukning",), 1500.0, correct=False, how="first-try", at=2.0)
    assert sorted(class_practice(book, [3, 2, 1, 4]).ratings) == [1, 4]


def test_the_class_themes_are_the_mean_distance_from_each_learners_own_rating_weakest_first():
    rows = [(1, "p1", True, "first-try", ("kladda",), 1500, 1.0), (1, "p2", False, "first-try", ("dukning",), 1500, 2.0),
            (2, "p3", True, "first-try", ("dukning",), 1500, 3.0), (2, "p4", False, "first-try", ("kladda",), 1600, 4.0),
            (2, "p5", False, "first-try", ("dukning",), 1400, 5.0)]
    book = PracticeBook.replay(rows)
    gaps: dict[str, list[float]] = {"dukning": [], "kladda": []}
    for n in (1, 2):
        me = book.learner(n)
        for t in gaps:
            gaps[t].append(me.themes[t].rating - me.overall.rating)
    view = class_practice(book, [1, 2])
    assert [t[:3] for t in view.themes] == sorted(
        ((t, pytest.approx(sum(g) / 2), 2) for t, g in gaps.items()), key=lambda x: x[1].expected)


def test_homework_counts_answers_at_its_setting_and_its_due_time_and_looks_past_other_puzzles():
    hw = Homework(1, "Tvång", "", ("b", "c"), 3, due=100.0, created=10.0)
    rows = [(7, "a", True, "first-try", ("tvangstabbe",), None, 10.0),   # not one of its puzzles
            (7, "b", True, "first-try", ("tvangstabbe",), None, 10.0),   # at its setting
            (7, "c", False, "first-try", ("tvangstabbe",), None, 100.0)]  # at its due time
    assert [r[1] for r in homework_answers(hw, rows)] == ["b", "c"]


def test_a_homework_on_a_theme_does_not_count_a_puzzle_met_before_it_was_set_a_chosen_one_does():
    """Learners see a puzzle's answer when they miss it or ask for it: a puzzle answered before a
    homework on its theme was set, answered again for it, is not new to them (the trainer serves no
    such puzzle for it); one the teacher chose counts whenever it was met first."""
    before = (7, "which-card-easy-01", False, "shown", ("tvangstabbe",), None, 5.0)
    again = (7, "which-card-easy-01", True, "first-try", ("tvangstabbe",), None, 20.0)
    new = (7, "which-card-easy-02", True, "first-try", ("tvangstabbe",), None, 30.0)
    on_theme = Homework(1, "Tvång", "tvangstabbe", (), 2, due=100.0, created=10.0)
    chosen = Homework(2, "Tvång", "", ("which-card-easy-01", "which-card-easy-02"), 2, due=100.0, created=10.0)
    assert [r[1] for r in homework_answers(on_theme, [before, again, new])] == ["which-card-easy-02"]
    assert [r[1] for r in homework_answers(chosen, [before, again, new])] == ["which-card-easy-01", "which-card-easy-02"]
