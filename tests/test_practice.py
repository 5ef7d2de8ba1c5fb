"""The pure core of adaptive puzzle practice (issue 23): Glicko-2 ratings, choosing the next
puzzle, and the FSRS review queue (krypteach.teaching.practice; docs/practice.md)."""

from __future__ import annotations

import itertools
import json
import math
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from krypteach.teaching.practice import (
    DIFFICULTY_OFFSETS,
    LEAN,
    LEARNING_STEP,
    MAX_RD,
    MIN_RD,
    NEAREST,
    Item,
    Learner,
    QueueEntry,
    Rating,
    attempt,
    choose,
    due,
    enqueue,
    expected,
    fit_themes,
    glicko2,
    mix,
    recent_misses,
    review,
    theme_start,
    weak_themes,
)

NOW = datetime(2025, 9, 1, 8, 0, tzinfo=UTC)


# --- rating -------------------------------------------------------------------------------------


def test_glickmans_example():
    """Glickman, "Example of the Glicko-2 system": 1464.06, 151.52, 0.05999 (the paper rounds
    its intermediate steps; computed exactly the rating is 1464.0507)."""
    player = Rating(1500.0, 200.0, 0.06)
    results = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0), (Rating(1700.0, 300.0), 0.0)]
    r = glicko2(player, results, tau=0.5)
    assert r.rating == pytest.approx(1464.06, abs=0.02)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.vol == pytest.approx(0.05999, abs=1e-5)


def test_no_results_only_grows_the_rd():
    r = glicko2(Rating(1620.0, 100.0, 0.06), [])
    assert r.rating == 1620.0 and r.vol == 0.06
    assert r.rd == pytest.approx(math.hypot(100.0 / 173.7178, 0.06) * 173.7178)
    assert r.rd > 100.0
    assert glicko2(Rating(1500.0, 350.0), []).rd == MAX_RD  # and never above 350


def test_a_solved_attempt_raises_the_learner_and_lowers_the_puzzle():
    learner, puzzle = Rating(1500.0, 120.0), Rating(1500.0, 120.0)
    up, down = attempt(learner, puzzle, solved=True)
    assert up.rating > 1500.0 > down.rating
    worse, harder = attempt(learner, puzzle, solved=False)
    assert worse.rating < 1500.0 < harder.rating
    # symmetric ratings, symmetric changes
    assert up.rating - 1500.0 == pytest.approx(1500.0 - worse.rating)


def test_a_well_measured_puzzle_moves_little():
    learner = Rating(1500.0, 200.0)
    _, new_puzzle = attempt(learner, Rating(1500.0, 200.0), solved=True)
    _, old_puzzle = attempt(learner, Rating(1500.0, 50.0), solved=True)
    assert 1500.0 - old_puzzle.rating < (1500.0 - new_puzzle.rating) / 5


def test_rd_shrinks_with_attempts_and_stops_at_the_floor():
    learner, rds = Rating(), []
    for i in range(200):
        learner, _ = attempt(learner, Rating(1500.0, 60.0), solved=i % 2 == 0)
        rds.append(learner.rd)
    assert rds[0] < MAX_RD
    assert all(b < a for a, b in itertools.pairwise(rds[:21]))
    # one game a period at volatility 0.06: the rd settles near 60 by itself
    assert 55.0 < rds[-1] < 65.0
    # a steady learner (low volatility), or many results at once, reach the floor and stay there
    steady, steady_rds = Rating(1500.0, 200.0, 0.001), []
    for i in range(300):
        steady, _ = attempt(steady, Rating(1500.0, 45.0), solved=i % 2 == 0)
        steady_rds.append(steady.rd)
    assert min(steady_rds) == MIN_RD == steady_rds[-1]
    assert glicko2(Rating(1500.0, 100.0), [(Rating(1500.0, 45.0), i % 2) for i in range(100)]).rd == MIN_RD


def test_expected_is_the_logistic_of_the_difference():
    assert expected(Rating(), Rating()) == 0.5
    sure = expected(Rating(1900.0, 45.0), Rating(1500.0, 1e-9))
    assert sure == pytest.approx(1 / (1 + 10 ** (-400 / 400)), abs=1e-4)  # ten to one
    assert expected(Rating(1900.0), Rating(1500.0, 350.0)) < sure  # an unsure opponent flattens it


def test_rating_round_trips_through_json():
    r = Rating(1612.25, 87.5, 0.0612)
    assert Rating.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    assert Rating.estimated(1720) == Rating(1720.0, 200.0, 0.06)


@pytest.mark.parametrize(("data", "message"), [
    ({"rating": 1500, "rd": 0, "vol": 0.06}, r"rd must be in \(0, 350\], not 0"),
    ({"rating": 1500, "rd": 351, "vol": 0.06}, r"rd must be in \(0, 350\], not 351"),
    ({"rating": 1500, "rd": 100, "vol": 0}, r"vol must be > 0, not 0"),
    ({"rating": "1500", "rd": 100, "vol": 0.06}, r"rating must be a finite number, not '1500'"),
    ({"rating": float("nan"), "rd": 100, "vol": 0.06}, r"rating must be a finite number, not nan"),
    ({"rating": True, "rd": 100, "vol": 0.06}, r"rating must be a finite number, not True"),
    ({"rating": 1500, "vol": 0.06}, r"a rating needs 'rd'"),
    ([1500, 100, 0.06], r"a rating must be a dict with rating, rd and vol, not list"),
])
def test_rating_from_dict_rejects_bad_input(data, message):
    with pytest.raises(ValueError, match=message):
        Rating.from_dict(data)


def test_fit_themes_puts_a_pairs_misses_on_the_theme_the_other_answers_do_not_clear():
    """Endgames alone solved, endgames that klädda högen decides missed: klädda högen is the weak
    theme and endgame a strong one; updated theme by theme, answer by answer, endgame would have
    sunk with every miss of the pair too."""
    puzzle = Rating(1500.0, 60.0)
    answers = [(("endgame",), 1.0, puzzle)] * 5 + [(("endgame", "kladda"), 0.0, puzzle)] * 5
    fit = fit_themes(answers, Rating(1500.0, 60.0))
    assert set(fit) == {"endgame", "kladda"}
    assert fit["kladda"].rating < 1350.0 and fit["endgame"].rating > 1600.0
    one_by_one = Rating(1500.0, 60.0)
    for _themes, score, p in answers:
        one_by_one = glicko2(one_by_one, [(p, score)])
    assert fit["endgame"].rating > one_by_one.rating + 100.0


def test_fit_themes_starts_at_the_learners_rating_and_narrows_with_answers():
    learner = Rating(1640.0, 60.0)
    one = fit_themes([(("dukning",), 1.0, Rating(1640.0, 60.0))], learner)
    assert one["dukning"].rating > 1640.0
    assert one["dukning"].rd < theme_start(learner).rd  # one answer: a little narrower than the prior
    many = fit_themes([(("dukning",), 1.0, Rating(1640.0, 60.0)), (("dukning",), 0.0, Rating(1640.0, 60.0))] * 20,
                      learner)
    assert many["dukning"].rating == pytest.approx(1640.0, abs=1.0)  # half solved at 1640: 1640
    assert MIN_RD <= many["dukning"].rd < one["dukning"].rd
    # a theme named twice is one theme; a hint's half counts half; an unsure puzzle counts less
    twice = fit_themes([(("dukning", "dukning"), 1.0, Rating(1500.0, 60.0))], Rating(1500.0, 60.0))
    alone = fit_themes([(("dukning",), 1.0, Rating(1500.0, 60.0))], Rating(1500.0, 60.0))
    assert twice == alone
    half = fit_themes([(("dukning",), 0.5, Rating(1500.0, 60.0))], Rating(1500.0, 60.0))
    assert half["dukning"].rating == pytest.approx(1500.0, abs=1.0)
    unsure = fit_themes([(("dukning",), 1.0, Rating(1500.0, 300.0))], Rating(1500.0, 60.0))
    assert 1500.0 < unsure["dukning"].rating < alone["dukning"].rating
    assert fit_themes([((), 1.0, Rating())], Rating()) == {}


def test_fit_themes_deviation_is_what_the_answers_leave():
    """One over the square root of the information: the prior's and, for each answer, the slope's
    square times p(1 - p), divided by n² for a puzzle of n themes (a theme is half of a pair's
    skill); never below MIN_RD however many answers."""
    learner, puzzle = Rating(1500.0, 60.0), Rating(1500.0, 60.0)
    pairs = fit_themes([(("a", "b"), 0.5, puzzle)] * 8, learner)  # half scores at even odds: p = 1/2 at the fit
    slope = math.log(10.0) / 400.0 / math.sqrt(1.0 + 3.0 * (60.0 / 173.7178) ** 2 / math.pi ** 2)
    info = theme_start(learner).rd ** -2 + 8 * slope ** 2 * 0.25 / 4
    assert pairs["a"].rating == pytest.approx(1500.0, abs=0.5)
    assert pairs["a"].rd == pytest.approx(info ** -0.5, rel=1e-3)
    many = fit_themes([(("a",), 0.5, puzzle)] * 3000, learner)
    assert many["a"].rd == MIN_RD


def test_fit_themes_from_a_start_lands_where_it_does_from_the_prior():
    rng = random.Random(4)
    answers = [((rng.choice(["a", "b", "c"]), rng.choice(["a", "d"])), float(rng.random() < 0.6),
                Rating(rng.uniform(1200, 1800), 80.0)) for _ in range(60)]
    cold = fit_themes(answers, Rating(1500.0, 70.0))
    warm = fit_themes(answers, Rating(1500.0, 70.0), start={"a": 900.0, "b": 2100.0})
    assert warm.keys() == cold.keys()
    for t in cold:
        assert warm[t].rating == pytest.approx(cold[t].rating, abs=2.0)


def test_theme_start_is_as_wide_as_the_learner_and_the_spread():
    assert theme_start(Rating(1640.0, 60.0)).rating == 1640.0
    assert theme_start(Rating(1640.0, 60.0)).rd == pytest.approx(math.hypot(60.0, 200.0))
    assert theme_start(Rating()).rd == MAX_RD


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 3000), st.floats(1, 350), st.booleans()), max_size=60),
       st.floats(0, 3000), st.floats(1, 350))
def test_ratings_stay_finite_and_rd_within_bounds(attempts, start, start_rd):
    learner = Rating(start, start_rd)
    for puzzle_rating, puzzle_rd, solved in attempts:
        learner, puzzle = attempt(learner, Rating(puzzle_rating, puzzle_rd), solved)
        for r in (learner, puzzle):
            assert math.isfinite(r.rating) and math.isfinite(r.vol) and r.vol > 0
            assert MIN_RD <= r.rd <= MAX_RD


# --- choose -------------------------------------------------------------------------------------


def test_recent_misses_counts_only_the_last_five_per_theme():
    history = ([(("dukning",), False)] * 4  # old misses: out of the window
               + [(("dukning", "endgame"), True)] * 3
               + [(("dukning",), False)] * 2
               + [(("endgame",), False)])
    assert recent_misses(history) == {"dukning": (2, 5), "endgame": (1, 4)}
    assert recent_misses(history, last=2) == {"dukning": (2, 2), "endgame": (1, 2)}
    assert recent_misses([]) == {}
    with pytest.raises(ValueError, match="last must be at least 1"):
        recent_misses(history, last=0)


def _learner() -> Learner:
    return Learner(
        overall=Rating(1500.0, 60.0),
        themes={"take-all": Rating(1600.0, 60.0), "dukning": Rating(1200.0, 60.0), "endgame": Rating(1350.0, 60.0),
                "tvangstabbe": Rating(1000.0, 300.0)},
        recent={"take-all": (0, 5), "dukning": (4, 5), "endgame": (2, 3), "tvangstabbe": (1, 2)})


def test_weak_themes_order_and_enough_attempts():
    learner = _learner()
    assert weak_themes(learner) == ["dukning", "endgame", "take-all"]  # tvångstabbe: only 2 attempts
    assert weak_themes(learner, min_attempts=2)[0] == "tvangstabbe"
    assert weak_themes(learner, min_attempts=4) == ["dukning", "take-all"]
    # an unsure theme counts as weaker than its rating: rating - rd
    unsure = Learner(themes={"a": Rating(1300.0, 50.0), "b": Rating(1400.0, 200.0)}, recent={"a": (1, 5), "b": (1, 3)})
    assert weak_themes(unsure) == ["b", "a"]


def _items() -> list[Item]:
    """Every 10 points from 800 to 2200, in the take-all theme; dukning puzzles every 10 from 905 to 1495."""
    out = [Item(f"t{r}", ("take-all",), Rating(float(r), 60.0)) for r in range(800, 2201, 10)]
    out += [Item(f"d{r}", ("dukning", "endgame"), Rating(float(r), 60.0)) for r in range(905, 1500, 10)]
    return out


def test_lean_one_always_restricts_to_the_weakest_theme():
    rng = random.Random(3)
    for _ in range(50):
        pick = choose(_items(), _learner(), rng=rng, lean=1.0)
        assert "dukning" in pick.item.themes
        assert pick.weak_theme == "dukning" and (pick.missed, pick.of) == (4, 5)
        assert pick.target == 1200.0 + DIFFICULTY_OFFSETS["normal"]  # the theme's rating, not the overall


def test_lean_zero_never_restricts():
    rng = random.Random(3)
    picks = [choose(_items(), _learner(), rng=rng, lean=0.0) for _ in range(50)]
    assert all(p.weak_theme is None and (p.missed, p.of) == (0, 0) for p in picks)
    assert all(p.target == 1500.0 + DIFFICULTY_OFFSETS["normal"] for p in picks)
    # near 1350 both kinds lie; all-kinds candidates, not the weak theme's only
    assert {p.item.themes for p in picks} == {("take-all",), ("dukning", "endgame")}


def test_the_trainer_leans_as_often_as_LEAN_says():
    rng = random.Random(5)
    assert LEAN == 0.3
    leaned = sum(choose(_items(), _learner(), rng=rng).weak_theme is not None for _ in range(400))
    assert 90 < leaned < 150  # 120 expected
    leaned = sum(choose(_items(), _learner(), rng=rng, lean=0.5).weak_theme is not None for _ in range(400))
    assert 160 < leaned < 240


def test_a_draw_that_does_not_lean_takes_each_set_of_themes_alike():
    """Without the lean, a set of themes that few puzzles have comes as often as the others: the
    dukning + endgame puzzles are one of two sets, so they come one time in two (by puzzle,
    they are two of the five nearest the target)."""
    rng = random.Random(8)
    picks = [choose(_items(), _learner(), rng=rng, lean=0.0, difficulty="easier") for _ in range(600)]
    paired = sum(p.item.themes == ("dukning", "endgame") for p in picks)
    assert 250 < paired < 350  # 300 expected
    rng = random.Random(8)
    picks = [choose(_items(), _learner(), rng=rng, lean=0.0, difficulty="easier", spread=False) for _ in range(600)]
    assert sum(p.item.themes == ("dukning", "endgame") for p in picks) < 300  # 240 expected; homework's choice


def test_the_lean_takes_the_weak_themes_sets_alike():
    """Leaning to endgame, the learner's weakest theme, the puzzles of endgame alone and of endgame
    with klädda högen come alike, though the pair is one puzzle in ten: the pair's misses are
    told apart from endgame's only by asking both."""
    items = [Item(f"e{i}", ("endgame",), Rating(1300.0 + i, 60.0)) for i in range(45)]
    items += [Item(f"k{i}", ("endgame", "kladda"), Rating(1500.0 + i, 60.0)) for i in range(5)]  # not near the target
    learner = Learner(Rating(1500.0, 60.0), {"endgame": Rating(1400.0, 60.0)}, {"endgame": (3, 5)})
    rng = random.Random(2)
    picks = [choose(items, learner, rng=rng, lean=1.0) for _ in range(400)]
    assert all(p.weak_theme == "endgame" for p in picks)
    assert 160 < sum(p.item.themes == ("endgame", "kladda") for p in picks) < 240  # 200 expected


def test_no_lean_without_a_weak_theme_with_enough_data():
    learner = Learner(Rating(1500.0, 60.0), {"dukning": Rating(1200.0, 60.0)}, {"dukning": (2, 2)})
    pick = choose(_items(), learner, rng=random.Random(0), lean=1.0)
    assert pick.weak_theme is None


@pytest.mark.parametrize("difficulty", sorted(DIFFICULTY_OFFSETS))
def test_picks_near_the_target_for_each_difficulty(difficulty):
    rng = random.Random(7)
    items = [i for i in _items() if i.id.startswith("t")]
    learner = Learner(Rating(1500.0, 60.0))
    target = 1500.0 + DIFFICULTY_OFFSETS[difficulty]
    nearest = sorted(items, key=lambda i: abs(i.rating.rating - target))[:NEAREST]
    picks = [choose(items, learner, difficulty=difficulty, rng=rng) for _ in range(100)]
    assert all(p.target == target for p in picks)
    assert {p.item.id for p in picks} == {i.id for i in nearest}  # each of the 5 nearest comes, nothing else
    assert all(abs(p.item.rating.rating - target) <= 20 for p in picks)


def test_the_difficulties_are_ordered():
    assert DIFFICULTY_OFFSETS["easier"] < DIFFICULTY_OFFSETS["normal"] < 0 < DIFFICULTY_OFFSETS["harder"]


def test_choose_honours_exclude():
    items = _items()
    rng = random.Random(1)
    seen: set[str] = set()
    for _ in range(40):
        pick = choose(items, _learner(), rng=rng, exclude=seen)
        assert pick.item.id not in seen
        seen.add(pick.item.id)
    only = choose(items, _learner(), rng=rng, exclude=[i.id for i in items[1:]])
    assert only.item == items[0]


def test_choose_raises_lookup_error_when_nothing_is_left():
    with pytest.raises(LookupError, match="no puzzle left to choose: all 2 are excluded"):
        choose(_items()[:2], _learner(), rng=random.Random(0), exclude={"t800", "t810"})
    with pytest.raises(LookupError, match="no puzzle left"):
        choose([], _learner(), rng=random.Random(0))


def test_choose_rejects_an_unknown_difficulty():
    with pytest.raises(ValueError, match="unknown difficulty 'hard': choose one of easier, normal, harder"):
        choose(_items(), _learner(), difficulty="hard", rng=random.Random(0))
    with pytest.raises(ValueError, match="lean is a probability"):
        choose(_items(), _learner(), rng=random.Random(0), lean=1.5)


def test_choose_is_reproducible_with_the_same_seed():
    a = [choose(_items(), _learner(), rng=random.Random(11)).item.id for _ in range(5)]
    b = [choose(_items(), _learner(), rng=random.Random(11)).item.id for _ in range(5)]
    assert a == b


# --- schedule -----------------------------------------------------------------------------------


def test_a_failed_item_is_due_after_the_learning_step():
    entry = enqueue("p17", NOW)
    assert entry.key == "p17" and entry.due == NOW + LEARNING_STEP == NOW + timedelta(minutes=10)
    assert due([entry], NOW + timedelta(minutes=9)) == []
    assert due([entry], NOW + timedelta(minutes=10)) == [entry]


def test_again_comes_back_soon_hard_a_little_later_good_days_later():
    entry = enqueue("p17", NOW)
    at = NOW + timedelta(minutes=10)
    again = review(entry, "again", at)
    hard = review(entry, "hard", at)
    good = review(entry, "good", at)
    assert again.due == at + LEARNING_STEP
    assert at + LEARNING_STEP < hard.due <= at + timedelta(hours=1)
    assert good.due >= at + timedelta(days=1)
    # good again, later: a longer interval still
    later = review(good, "good", good.due)
    assert later.due - good.due > good.due - at
    # a slip brings it back within the lesson
    slip = review(later, "again", later.due)
    assert slip.due == later.due + LEARNING_STEP


def test_the_schedule_is_deterministic():
    """No fuzzing: the same answers give the same dates, also at intervals of weeks (where
    FSRS's fuzz would move them by days)."""
    def chain() -> list[datetime]:
        entry = enqueue("k", NOW)
        dates = []
        for _ in range(7):
            entry = review(entry, "good", entry.due)
            dates.append(entry.due)
        return dates

    first = chain()
    assert first == chain()
    assert first[-1] - first[-2] > timedelta(days=20)


def test_queue_entries_round_trip_through_json():
    entry = review(enqueue("pos/3-41", NOW), "good", NOW + timedelta(minutes=12))
    back = QueueEntry.from_dict(json.loads(json.dumps(entry.to_dict())))
    assert back == entry
    assert review(back, "good", back.due) == review(entry, "good", entry.due)


@pytest.mark.parametrize(("data", "message"), [
    ({"key": "", "card": {}}, "key must be a non-empty string"),
    ({"card": {}}, "key must be a non-empty string, not None"),
    ({"key": "p1", "card": "x"}, "queue entry 'p1': its card must be a dict"),
    ({"key": "p1", "card": {"state": 1}}, "queue entry 'p1': its card lacks card_id, difficulty, due"),
    ("p1", "a queue entry must be a dict with key and card, not str"),
])
def test_queue_entry_from_dict_rejects_bad_input(data, message):
    with pytest.raises(ValueError, match=message):
        QueueEntry.from_dict(data)


def test_queue_entry_from_dict_rejects_a_broken_card():
    card = dict(enqueue("p1", NOW).card)
    with pytest.raises(ValueError, match="queue entry 'p1': its card does not read"):
        QueueEntry.from_dict({"key": "p1", "card": {**card, "due": "soon"}})
    with pytest.raises(ValueError, match="queue entry 'p1': its card does not read"):
        QueueEntry.from_dict({"key": "p1", "card": {**card, "state": 9}})
    with pytest.raises(ValueError, match="must say their timezone"):
        QueueEntry.from_dict({"key": "p1", "card": {**card, "due": "2025-09-01T08:10:00"}})


def test_times_must_be_timezone_aware():
    with pytest.raises(ValueError, match="timezone-aware"):
        enqueue("p1", datetime(2025, 9, 1, 8, 0))
    with pytest.raises(ValueError, match="unknown grade 'easy'"):
        review(enqueue("p1", NOW), "easy", NOW)  # type: ignore[arg-type]


def test_due_sorts_most_overdue_first():
    a = enqueue("a", NOW)
    b = enqueue("b", NOW - timedelta(minutes=5))
    c = enqueue("c", NOW + timedelta(minutes=30))
    d = enqueue("d", NOW)
    assert [e.key for e in due([a, c, d, b], NOW + timedelta(minutes=15))] == ["b", "a", "d"]
    assert [e.key for e in due([a, c, d, b], NOW + timedelta(hours=1))] == ["b", "a", "d", "c"]


def test_mix_serves_every_third_puzzle_from_the_due():
    assert [mix(["p3", "p9"], i) for i in range(7)] == [None, None, "p3", None, None, "p3", None]
    assert [mix(["p3"], i, every=2) for i in range(4)] == [None, "p3", None, "p3"]
    assert all(mix([], i) is None for i in range(10))
    with pytest.raises(ValueError, match="every must be at least 1"):
        mix(["p3"], 0, every=0)
