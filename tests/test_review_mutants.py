"""The coach's review (bots/review.py) read whole, with hand-made decisions and concrete cards
(docs/mutation/review.md): what a kept decision may be and each refusal word for word, the JSON a
review prints, the verdicts, the intervals, the choices Try again offers, and the words of a
decision."""

import dataclasses
import math
from collections import Counter

import pytest

from krypteach import Rules
from krypteach.bots.expert import ExpertBot
from krypteach.bots.review import (
    THRESHOLDS,
    Decision,
    MoveValue,
    Review,
    Reviewer,
    _decisions,
    _interval,
    _line_words,
    _t975,
    _thresholds,
    best_words,
    decision_words,
    review_decision,
    review_decision_steps,
    review_giv,
    theme_of,
)
from krypteach.bots.steps import run_steps
from krypteach.bots.words import seat_names
from krypteach.engine.cards import Card
from krypteach.engine.game import Giv
from krypteach.engine.moves import Move
from krypteach.i18n import use_language

M = Move.parse


def value(move, value, loss=0.0, low=0.0, high=0.0, shown=None):
    return MoveValue(M(move), value, loss, low, high, value if shown is None else shown)


def decision(**changes):
    d = Decision(7, 1, M("9C"), M("9C:9S"), "sampled", 12, "mistake",
                 [value("9C:9S", 1.23456, shown=-1.23456), value("9C", 4.56789, 3.33333, 1.11111, 5.55555, -4.56789)],
                 "tabbe", 3)
    for k, v in changes.items():
        setattr(d, k, v)
    return d


# --- the JSON of a review (krypteach review --json) -------------------------------------------------------

def test_a_reviews_json_names_every_field_and_rounds_each_number_as_it_says():
    r = Review(1, "Krypkasino", True, [decision(), decision(ply=9, played=M("9C:9S"), verdict="fine", theme="lookahead")],
               forced=2)
    assert r.to_json() == {
        "seat": 1, "game": "Krypkasino", "lowest_wins": True, "quality": 0.5, "forced": 2,
        "decisions": [
            {"ply": 7, "played": "9C", "best": "9C:9S", "method": "sampled", "samples": 12, "loss": 3.333,
             "loss_interval": [1.111, 5.556], "verdict": "mistake", "theme": "tabbe", "legal_moves": 3,
             "moves": {"9C:9S": -1.235, "9C": -4.568}},
            {"ply": 9, "played": "9C:9S", "best": "9C:9S", "method": "sampled", "samples": 12, "loss": 0.0,
             "loss_interval": [0.0, 0.0], "verdict": "fine", "theme": "lookahead", "legal_moves": 3,
             "moves": {"9C:9S": -1.235, "9C": -4.568}},
        ]}


def test_quality_is_rounded_to_four_places_and_is_one_without_decisions():
    r = Review(0, "Krypkasino", True, [decision(), decision(), decision(played=M("9C:9S"), verdict="fine")])
    assert r.to_json()["quality"] == 0.3333
    assert Review(0, "Kasino", False).quality == 1.0 and Review(0, "Kasino", False).to_json()["quality"] == 1.0
    assert [d.ply for d in r.flagged] == [7, 7]


# --- a kept decision read back ------------------------------------------------------------------------------

def kept(**changes):
    d = decision().to_dict()
    d.update(changes)
    return d


def refused(d):
    with pytest.raises(ValueError, match=r"^a kept decision") as e:
        Decision.from_dict(d)
    return str(e.value)


def test_a_kept_decision_reads_back_as_it_was():
    assert Decision.from_dict(kept()) == decision()
    assert kept()["values"] == [["9C:9S", 1.23456, 0.0, 0.0, 0.0, -1.23456], ["9C", 4.56789, 3.33333, 1.11111, 5.55555, -4.56789]]


def test_a_kept_decision_that_is_no_object_is_refused_naming_its_type():
    assert refused([1]) == "a kept decision is a JSON object, not list"


@pytest.mark.parametrize("key", ["ply", "seat", "samples", "legal"])
@pytest.mark.parametrize("bad", [-1, True, 2.0, "3"])
def test_each_count_of_a_kept_decision_is_a_whole_number_not_below_zero(key, bad):
    assert refused(kept(**{key: bad})) == f"a kept decision's {key!r} is a whole number ≥ 0, not {bad!r}"
    assert Decision.from_dict(kept(**{key: 0})).__getattribute__(key) == 0


@pytest.mark.parametrize("change", [{"verdict": "oops"}, {"method": "guessed"}, {"theme": 3}],
                         ids=["verdict", "method", "theme"])
def test_a_verdict_method_or_theme_the_coach_does_not_give_is_refused(change):
    assert refused(kept(**change)) == "a kept decision's verdict, method or theme is not one the coach gives"


def test_both_methods_and_every_verdict_are_read():
    for method in ("exact", "sampled"):
        assert Decision.from_dict(kept(method=method)).method == method
    for verdict in ("fine", "inaccuracy", "mistake", "blunder"):
        assert Decision.from_dict(kept(verdict=verdict)).verdict == verdict


@pytest.mark.parametrize("values", [[], {"9C": 1}], ids=["empty", "not-a-list"])
def test_values_that_are_no_list_of_moves_are_refused(values):
    assert refused(kept(values=values)) == "a kept decision's values are a list of its moves"


@pytest.mark.parametrize("entry", [
    ("9C", 1, 2, 3, 4, 5),                                   # no list
    ["9C", 1, 2, 3, 4],                                      # five, not six
    [9, 1, 2, 3, 4, 5],                                      # the move is no text
    ["9C", True, 2, 3, 4, 5], ["9C", 1, 2, 3, 4, "5"],       # no number, first or last
    ["9C", math.inf, 2, 3, 4, 5], ["9C", 1, 2, 3, 4, math.nan],
], ids=["tuple", "five", "move", "bool", "text", "inf", "nan"])
def test_each_moves_value_is_a_move_and_five_finite_numbers(entry):
    d = kept()
    d["values"][1] = entry
    assert refused(d) == f"a kept decision's move value must be [move, 5 numbers], not {str(entry)[:80]}"


def test_a_long_bad_value_is_cut_to_eighty_characters_in_the_message():
    d = kept()
    d["values"][1] = ["9C"] + [1] * 40
    assert refused(d) == f"a kept decision's move value must be [move, 5 numbers], not {str(d['values'][1])[:80]}"
    assert len(str(d["values"][1])) > 80


@pytest.mark.parametrize("change", [{"played": "9C:9D"}, {"best": "9C:9D"}], ids=["played", "best"])
def test_the_move_played_and_the_best_move_must_both_be_among_the_values(change):
    assert refused(kept(**change)) == "a kept decision's move played and best move are among its values"


# --- the coach's words, with every card known -----------------------------------------------------------

def _all_seen_but_the_hands(g: Giv, seat: int = 0):
    """``g``'s observation for ``seat`` as in a last utdelning: every card not in a hand or on the table has
    been seen, so the other hand is the only unseen cards (as tests/test_review.py makes it)."""
    obs = g.observation(seat)
    in_play = Counter(c for h in g.hands for c in h) + Counter(g.table)
    rest = tuple((Counter(Card(i) for i in range(52) for _ in range(g.rules.copies)) - in_play).elements())
    return dataclasses.replace(obs, dealt_to_table=obs.dealt_to_table + rest, stock_left=0)


def _endgame():
    # you: 9♠ 2♣; Bea: 5♥ K♦; the table 4♦ 3♣. 9♠ creeping gives it away (K♦ takes 4♦+9♠); 2♣ creeping
    # lets 9♠ take 2♣+3♣+4♦ next
    return _all_seen_but_the_hands(Giv.from_position([["9S", "2C"], ["5H", "KD"]], ["4D", "3C"], previous_mover=1))


def hand_made(played, best, method, verdict, loss=(1.0, 1.0, 1.0)):
    other = MoveValue(M(played), loss[0], *loss, loss[0]) if played != best else value("9S", 1.0, 1.0, 1.0, 1.0)
    return Decision(4, 0, M(played), M(best), method, 1 if method == "exact" else 16, verdict,
                    [value(best, 0.0), other], "dump", 2)


NINE = "You get rid of 9♠ (1 point) without taking it."
TWO = "You take no points. Bea gets tabbe på nio, and you get the dukning if Bea holds such a card (0%)."
AFTER_NINE = ("Then, with best play: Bea: 5♥ creeps; you: 2♣ creeps; Bea: K♦ takes 4♦+9♠ (the last cards go to Bea). "
              "From here you take 0 points and Bea 1.")
AFTER_TWO = ("Then, with best play: Bea: K♦ creeps; you: 9♠ takes 2♣+3♣+4♦; Bea: 5♥ creeps (the last cards go to you). "
             "From here you take 1 point and Bea 0.")


@pytest.mark.parametrize(("decision", "words"), [
    (hand_made("9S", "2C", "exact", "inaccuracy"),
     f"9♠ creeps: inaccuracy. {NINE} {AFTER_NINE} With every card known, 2♣ creeps ends 1 point better for you. "
     f"2♣ creeps: {TWO} {AFTER_TWO}"),
    (hand_made("9S", "2C", "exact", "blunder", (3.0, 3.0, 3.0)),
     f"9♠ creeps: blunder. {NINE} {AFTER_NINE} With every card known, 2♣ creeps ends 3 points better for you. "
     f"2♣ creeps: {TWO} {AFTER_TWO}"),
    # the interval's lower end below zero is said as 0; each figure with one decimal
    (hand_made("9S", "2C", "sampled", "mistake", (1.26, -0.44, 2.97)),
     f"9♠ creeps: mistake. {NINE} {AFTER_NINE} Over 16 ways the cards you had not seen may lie, 2♣ creeps is about "
     f"1.3 points better for you (with 95% confidence between 0.0 and 3.0). 2♣ creeps: {TWO} {AFTER_TWO}"),
    (hand_made("9S", "2C", "sampled", "mistake", (1.26, 0.44, 2.97)),
     f"9♠ creeps: mistake. {NINE} {AFTER_NINE} Over 16 ways the cards you had not seen may lie, 2♣ creeps is about "
     f"1.3 points better for you (with 95% confidence between 0.4 and 3.0). 2♣ creeps: {TWO} {AFTER_TWO}"),
    (hand_made("2C", "2C", "exact", "fine"), f"2♣ creeps was the best move here. {TWO}"),
    (hand_made("9S", "2C", "sampled", "fine", (0.3, -0.2, 0.8)),
     f"9♠ creeps was as good as the best move here (2♣ creeps) as far as the search can tell. {NINE}"),
], ids=["exact-1", "exact-3", "sampled-low-below-0", "sampled", "fine-best", "fine-as-good"])
def test_a_decisions_words_say_the_verdict_what_each_move_does_the_line_that_follows_and_the_cost(decision, words):
    with use_language("en"), seat_names(["You", "Bea"]):
        assert decision_words(_endgame(), decision) == words


def test_the_best_moves_words_leave_the_move_played_out():
    with use_language("en"), seat_names(["You", "Bea"]):
        assert best_words(_endgame(), hand_made("9S", "2C", "exact", "inaccuracy")) == \
            f"The best move here: 2♣ creeps. {TWO} {AFTER_TWO}"


def test_a_decisions_words_in_swedish():
    with use_language("sv"), seat_names(["Du", "Bea"]):
        assert decision_words(_endgame(), hand_made("9S", "2C", "exact", "inaccuracy")) == (
            "9♠ kryper: liten miss. Du blir av med 9♠ (1 poäng) utan att ta in det. Sedan, med bästa spel: Bea: 5♥ kryper; "
            "du: 2♣ kryper; Bea: K♦ tar 4♦+9♠ (de sista korten går till Bea). Härifrån tar du 0 poäng och Bea 1. "
            "När alla kort är kända slutar 2♣ kryper 1 poäng bättre för dig. 2♣ kryper: Du tar inga poäng. Bea får tabbe "
            "på nio, och du får dukningen om Bea har ett sådant kort (0\u00a0%). Sedan, med bästa spel: Bea: K♦ kryper; du: 9♠ "
            "tar 2♣+3♣+4♦; Bea: 5♥ kryper (de sista korten går till dig). Härifrån tar du 1 poäng och Bea 0.")


def test_the_line_that_follows_counts_klaedda_hoegen_and_the_cards_left_for_whoever_took_last():
    # you took 6♦ with 6♥, Bea crept 6♣; klädda högen holds J♠. If nobody takes again, the last cards are yours
    g = Giv.from_position([["6H", "9S", "2C"], ["6C", "5H", "KD"]], ["4D", "3C", "6D"], kladda=["JS"], previous_mover=1)
    g.play("6H:6D")
    g.play("6C")
    obs = _all_seen_but_the_hands(g)
    with use_language("en"), seat_names(["You", "Bea"]):
        assert _line_words(obs, M("9S:3C+6C")) == ("Then, with best play: Bea: 5♥ creeps; you: 2♣ creeps; Bea: K♦ creeps "
                                                    "(the last cards go to you). From here you take 2 points and Bea 0.")
        assert _line_words(obs, M("2C")) == ("Then, with best play: Bea: 5♥ takes 2♣+3♣; you: 9♠ creeps; Bea: K♦ takes "
                                             "4♦+9♠ (the last cards go to Bea). From here you take 0 points and Bea 2.")


def test_a_move_that_ends_the_giv_is_followed_by_its_points_alone():
    obs = _all_seen_but_the_hands(Giv.from_position([["9S"], []], ["4D", "5C"], previous_mover=1))
    with use_language("en"), seat_names(["You", "Bea"]):
        assert _line_words(obs, M("9S:4D+5C")) == "From here you take 6 points and Bea −5."


def test_no_line_is_told_in_classic_kasino_or_with_three_players():
    kasino = _all_seen_but_the_hands(Giv.from_position([["9S", "2C"], ["5H", "KD"]], ["4D", "3C"], previous_mover=1,
                                                       rules=Rules.preset("kasino")))
    assert _line_words(kasino, M("2C")) == ""
    # three players, the others with no cards left: nothing is unseen, but the line is a two-player search
    three = _all_seen_but_the_hands(Giv.from_position([["9S"], [], []], ["4D", "5C"], previous_mover=2))
    assert _line_words(three, M("9S:4D+5C")) == ""


# --- a review's settings: defaults, the one bot it shares, progress ---------------------------------------

def test_a_decision_is_reviewed_with_24_samples_at_ply_0_and_seed_0_unless_told():
    obs = Giv(seed=4, dealer=1).observation(0)
    m = obs.legal_moves()[0]
    d = review_decision(obs, m)
    assert (d.ply, d.samples, d.method) == (0, 24, "sampled")
    assert d == review_decision(obs, m, ply=0, samples=24, seed=0)
    # the bot given is the one used (its own seed), not a new one from ``seed``
    assert review_decision(obs, m, bot=ExpertBot(seed=5)) == review_decision(obs, m, seed=5)
    assert review_decision(obs, m, seed=5).values != d.values


def test_a_givs_review_is_its_decisions_reviewed_one_by_one_and_reports_its_progress():
    g = Giv(seed=4, dealer=1)
    for _ in range(5):
        g.play(g.legal_moves()[0])
    progress = []
    r = review_giv(g, samples=6, seed=3, progress=lambda done, total: progress.append((done, total)))
    assert r.seat == 0 and progress == [(1, 3), (2, 3), (3, 3)]
    bot = ExpertBot(seed=3)
    one_by_one = [review_decision(g0, m, ply=ply, samples=6, bot=bot) for ply, g0, m in _decisions(g, 0)]
    assert r.decisions == [d for d in one_by_one if d is not None] and r.forced == one_by_one.count(None)


def test_a_givs_review_is_of_seat_0_with_24_samples_unless_told():
    g = Giv(seed=4, dealer=1)
    g.play(g.legal_moves()[0])
    r = review_giv(g)
    assert [(d.seat, d.ply, d.samples) for d in r.decisions] == [(0, 0, 24)]


def test_a_seat_that_is_not_one_of_the_givs_is_refused_naming_the_seats():
    g = Giv(seed=4, dealer=1)
    g.play(g.legal_moves()[0])
    for seat in (2, -1):
        with pytest.raises(ValueError, match=r"^seat ") as e:
            review_giv(g, seat)
        assert str(e.value) == f"seat {seat} is not a seat of this giv (0 to 1)"
        with pytest.raises(ValueError, match=r"^seat ") as e:
            Reviewer(seat).follow(g)
        assert str(e.value) == f"seat {seat} is not a seat of this giv (0 to 1)"
    assert review_giv(g, 1).decisions == []  # seat 1 has not moved yet


# --- the review made while the giv is played ---------------------------------------------------------------

def test_a_reviewer_with_nothing_to_follow_has_nothing_to_do():
    r = Reviewer()
    assert r.pending == 0 and r.step(0.01) is False


def test_a_reviewer_is_of_seat_0_with_24_samples_unless_told():
    g = Giv(seed=4, dealer=1)
    g.play(g.legal_moves()[0])
    assert Reviewer().review(g).to_json() == review_giv(g).to_json()


def test_a_step_of_ample_time_does_all_the_work_and_says_none_is_left():
    g = Giv(seed=4, dealer=1)
    for _ in range(3):
        g.play(g.legal_moves()[0])
    r = Reviewer(0, samples=4)
    r.follow(g)
    assert r.pending == 2
    assert r.step(60.0) is False and r.pending == 0


def test_the_others_moves_after_a_reviewed_decision_ask_for_no_new_review():
    g = Giv(seed=4, dealer=1)
    g.play(g.legal_moves()[0])
    r = Reviewer(0, samples=4)
    r.follow(g)
    r.step(60.0)
    g.play(g.legal_moves()[0])  # seat 1's move
    r.follow(g)
    assert r.pending == 0


def test_a_decision_under_way_is_dropped_when_its_move_is_taken_back_and_kept_while_it_stands():
    g = Giv(seed=4, dealer=1)
    g.play(g.legal_moves()[0])
    r = Reviewer(0, samples=8)
    r.follow(g)
    assert r.step(0.0) is True and r.pending == 1  # one determinization done: the decision is under way
    r.follow(g)  # the giv as it was: the decision under way is not queued again beside itself
    assert r.pending == 1
    g.pop()
    r.follow(g)  # its move taken back: nothing is left to do
    assert r.pending == 0 and r.step(0.0) is False
    g.play(g.legal_moves()[1])
    assert [str(d.played) for d in r.review(g).decisions] == [str(g.turns[0].move)]


def test_a_classic_kasino_decision_is_told_in_the_builds_terms_and_in_its_own_words():
    g = Giv.from_position([["9S", "2C"], ["5H", "KD"]], ["4D", "3C"], previous_mover=1, rules=Rules.preset("kasino"))
    obs = _all_seen_but_the_hands(g)
    build = M("2C>9:3C+4D")
    d = Decision(0, 0, M("9S"), build, "exact", 1, "mistake",
                 [MoveValue(build, -2.0, 0.0, 0.0, 0.0, 2.0), MoveValue(M("9S"), -1.0, 1.0, 1.0, 1.0, 1.0)], "build", 3)
    holds = ("You hold 9♠ to take the build of 9 on your next turn (100% that nobody takes it first); "
             "it is worth about 0.5 points.")
    with use_language("en"), seat_names(["You", "Bea"]):
        assert decision_words(obs, d) == ("9♠ is laid out: mistake. With every card known, 2♣ builds 9 with 3♣+4♦ ends "
                                          f"1 point better for you. 2♣ builds 9 with 3♣+4♦: {holds}")
        assert best_words(obs, d) == f"The best move here: 2♣ builds 9 with 3♣+4♦. {holds}"



# --- the statistics: Student's t, the interval, the thresholds --------------------------------------------

def test_students_t_is_the_tables_for_1_to_30_degrees_of_freedom_and_the_normals_beyond():
    assert (_t975(1), _t975(2), _t975(29), _t975(30)) == (12.706, 4.303, 2.045, 2.042)
    assert _t975(31) == _t975(1000) == _t975(0) == 1.96


def test_the_interval_of_paired_differences_is_students():
    mean, low, high = _interval([1.0, 2.0, 3.0, 4.0])  # variance 5/3 (n − 1), t for 3 degrees of freedom
    half = 3.182 * math.sqrt(5 / 3 / 4)
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert _interval([1.0, 3.0]) == pytest.approx((2.0, 2.0 - 12.706, 2.0 + 12.706))  # one degree of freedom
    assert _interval([4.0]) == (4.0, 4.0, 4.0)  # one value: exact


def test_classic_kasino_is_judged_by_the_builds_thresholds_and_krypkasino_by_the_cards():
    kasino = Giv(Rules.preset("kasino"), seed=4, dealer=1).observation(0)
    avig = Giv(Rules.preset("avig-kasino"), seed=4, dealer=1).observation(0)
    krypkasino = Giv(seed=4, dealer=1).observation(0)
    assert _thresholds(kasino) == _thresholds(avig) == THRESHOLDS["builds"] == (0.5, 1.0, 2.0)
    assert _thresholds(krypkasino) == THRESHOLDS["cards"] == (1.0, 3.0, 6.0)


@pytest.mark.parametrize(("preset", "sign"), [("krypkasino", 1.0), ("kasino", -1.0), ("avig-kasino", 1.0)])
def test_each_moves_value_loss_and_shown_value_agree(preset, sign):
    g = Giv(Rules.preset(preset), seed=11, dealer=1)  # 6, 17 and 5 legal moves
    obs = g.observation(0)
    d = review_decision(obs, obs.legal_moves()[-1], samples=8)
    assert d is not None and d.method == "sampled" and d.values[0].move == d.best
    for v in d.values:
        assert v.shown == sign * v.value  # the game's own sense: a Kasino gain is shown as a gain
        if v.loss > 0:  # a loss is the mean of paired differences: the difference of the means
            assert v.value - d.values[0].value == pytest.approx(v.loss)
        assert v.low <= v.loss <= v.high or v.loss == 0.0


# --- which decisions are reviewed, the best of equals, and what a costly move is about ----------------------

def _endgame_of(preset, mine, theirs, table):
    return _all_seen_but_the_hands(Giv.from_position([mine.split(), theirs.split()], table.split(), previous_mover=1,
                                                     rules=Rules.preset(preset)))


def _under_way(preset, seed, moves):
    g = Giv(Rules.preset(preset), seed=seed, dealer=1)
    for m in moves.split():
        g.play(m)
    return g.observation(g.turn)


def test_a_decision_whose_moves_all_end_the_same_is_not_reviewed_but_one_of_opposite_values_is():
    same = _endgame_of("krypkasino", "8C JH", "9C 2H", "KD")
    assert review_decision(same, M("8C")) is None and review_decision(same, M("JH")) is None
    # classic Kasino: 6♦ ends 4 points up, Q♠ 4 points down (values that sum to nothing)
    opposite = _endgame_of("kasino", "QS 6D", "QH QD", "9C")
    d = review_decision(opposite, M("QS"))
    assert (str(d.best), d.verdict, d.method, [(str(v.move), v.shown) for v in d.values]) == \
        ("6D", "blunder", "exact", [("6D", 4.0), ("QS", -4.0)])


def test_among_moves_of_equal_value_the_one_played_is_the_best():
    obs = _endgame_of("krypkasino", "KS QH 9C", "6S 9H 8C", "KD 5D AH AD")  # K♠ takes K♦ or 9♣ creeps: both −2
    assert [str(review_decision(obs, m).best) for m in (M("KS:KD"), M("9C"), M("QH"))] == ["KS:KD", "9C", "KS:KD"]
    assert review_decision(obs, M("9C")).verdict == "fine"


def test_a_move_as_good_as_the_best_is_about_nothing_though_its_terms_differ():
    obs = _under_way("kasino", 31, "")
    d = review_decision(obs, M("KD:5C+8H"), samples=4)
    assert (d.verdict, str(d.best), d.theme) == ("fine", "2S:2H", "lookahead")
    assert theme_of(obs, d.played, d.best) == "now"  # what it would be about, were it costly


@pytest.mark.parametrize(("obs", "themes"), [
    # classic Kasino, every card known: 5♣ leaves 8♣ for 8♠; 2♠ is the better move
    (lambda: _endgame_of("kasino", "5C 2S", "8S KC", "8C"), {("5C", "2S"): "leave", ("2S", "5C"): "lookahead"}),
    (lambda: _under_way("kasino", 31, ""), {
        ("KD:5C+8H", "2S:2H"): "now", ("KD:5C+8H", "2S>9:2H+5C"): "build", ("KD", "KD:5C+8H"): "leave",
        ("2S:2H", "KD:5C+8H"): "lookahead", ("2S>9:2H+5C", "KD:5C+8H"): "now", ("2S:2H", "2S>9:2H+5C"): "build"}),
    (lambda: _under_way("kasino", 133, ""), {
        ("5C:2C+3S", "5C>7:2C"): "leave", ("5C:2C+3S", "5C>7:2C+3S+4C"): "build", ("5C>7:2C", "5C:2C+3S"): "now",
        ("5C>7:2C+3S+4C", "5C>7:2C"): "lookahead"}),
    (lambda: _under_way("krypkasino", 823, "AH:AS 9S QD:4H+8H"), {
        ("AC", "3S"): "lookahead", ("AC", "QC"): "lookahead", ("3S", "AC"): "exposed", ("3S", "QC"): "exposed",
        ("QC", "AC"): "setup", ("QC", "3S"): "dump"}),
    (lambda: _under_way("krypkasino", 983, "9S 10C KC:3C+10C QC:3H+9S"), {("7H", "4H"): "lookahead", ("4H", "7H"): "exposed"}),
], ids=["kasino-endgame", "kasino-31", "kasino-133", "krypkasino-823", "krypkasino-983"])
def test_a_costly_moves_theme_is_the_careful_players_term_it_does_worst_in(obs, themes):
    o = obs()
    assert {pair: theme_of(o, M(pair[0]), M(pair[1])) for pair in themes} == themes


def test_a_decision_reviewed_a_step_at_a_time_has_the_same_defaults():
    obs = Giv(seed=4, dealer=1).observation(0)
    m = obs.legal_moves()[0]
    assert run_steps(review_decision_steps(obs, m)) == review_decision(obs, m)


def test_the_best_trail_in_classic_kasino_is_laid_out_not_crept():
    g = Giv.from_position([["9S", "2C"], ["5H", "KD"]], ["4D", "3C"], previous_mover=1, rules=Rules.preset("kasino"))
    d = Decision(0, 0, M("2C"), M("9S"), "exact", 1, "mistake",
                 [MoveValue(M("9S"), -2.0, 0.0, 0.0, 0.0, 2.0), MoveValue(M("2C"), -1.0, 1.0, 1.0, 1.0, 1.0)], "build", 3)
    with use_language("en"), seat_names(["You", "Bea"]):
        assert best_words(_all_seen_but_the_hands(g), d) == "The best move here: 9♠ is laid out."


def _pieces(r: Reviewer) -> int:
    n = 0
    while r.step(0.0):
        n += 1
    return n + 1


def test_a_decision_under_way_goes_on_from_where_it_was_when_the_giv_is_followed_again():
    g = Giv(seed=4, dealer=1)
    g.play(g.legal_moves()[0])
    whole = Reviewer(0, samples=8)
    whole.follow(g)
    pieces = _pieces(whole)
    r = Reviewer(0, samples=8)
    r.follow(g)
    r.step(0.0)
    r.follow(g)  # the same giv: the piece done is kept
    assert _pieces(r) == pieces - 1 and pieces > 2
    assert r.review(g).to_json() == whole.review(g).to_json()


def test_a_reviewer_given_another_giv_starts_afresh_even_where_the_moves_are_written_alike():
    first = Giv.from_position([["9S", "2C"], ["5H", "KD"]], ["4D", "3C"], previous_mover=1)
    other = Giv.from_position([["9S", "2C"], ["5H", "KD"]], ["4D", "7C"], previous_mover=1)
    for g in (first, other):
        g.play("2C")
    r = Reviewer(0, samples=4)
    assert r.review(first).to_json() == review_giv(first, 0, samples=4).to_json()
    assert r.review(other).to_json() == review_giv(other, 0, samples=4).to_json() != review_giv(first, 0, samples=4).to_json()


def test_a_reviewer_uses_its_own_seed():
    g = Giv(seed=4, dealer=1)
    g.play(g.legal_moves()[0])
    seeded = Reviewer(0, samples=6, seed=5).review(g).to_json()
    assert seeded == review_giv(g, 0, samples=6, seed=5).to_json() != review_giv(g, 0, samples=6, seed=0).to_json()


@pytest.mark.parametrize(("mine", "theirs", "table", "kladda", "first", "move", "line"), [
    # the points so far (6♠ taken, a tabbe) are not the points from here
    ("7S 2D 4D", "6D 9C 10S", "6S 3D KC", "", ["4D", "6D:6S"], "7S:3D+4D",
     "Then, with best play: Bea: 9♣ creeps; you: 2♦ creeps; Bea: 10♠ creeps (the last cards go to you). "
     "From here you take 2 points and Bea 0."),
    # whoever takes last gets the table and klädda högen: the line is searched knowing who that is so far
    ("8D KC 2C 5S", "AC QC 7S 10D", "5H JD", "8H", [], "5S:5H",
     "Then, with best play: Bea: Q♣ creeps; you: 2♣ creeps; Bea: 10♦ creeps; you: 8♦ creeps; Bea: 7♠ creeps; "
     "you: K♣ takes 2♣+J♦; Bea: A♣ creeps (the last cards go to you). From here you take 6 points and Bea 0."),
    ("4D 4S QD 6S", "AC 6H 7D 5D", "7H", "2S 9S", [], "QD",
     "Then, with best play: Bea: 6♥ creeps; you: 4♠ creeps; Bea: 5♦ creeps; you: 4♦ takes 4♠; Bea: 7♦ takes 7♥; "
     "you: 6♠ takes 6♥; Bea: A♣ creeps (the last cards go to you). From here you take 6 points and Bea 0."),
    # nobody has taken anything yet
    ("3C 9S 8S", "10H 6S JD", "KC", "", [], "8S",
     "Then, with best play: Bea: 6♠ creeps; you: 9♠ creeps; Bea: J♦ creeps; you: 3♣ creeps; Bea: 10♥ creeps "
     "(the last cards go to Bea). From here you take 0 points and Bea 0."),
    # seat 1's decision, after seat 0 took last
    ("KD QC QD", "5H 6D JD", "3S 10D AC 8H", "9S", ["QD:AC+3S+8H"], "5H",
     "Then, with best play: Ann: Q♣ creeps; you: J♦ creeps; Ann: K♦ creeps; you: 6♦ creeps (the last cards go to Ann). "
     "From here you take 0 points and Ann 4."),
], ids=["points-so-far", "last-capturer", "klaedda", "nobody-took", "seat-1"])
def test_the_line_that_follows_is_searched_from_the_giv_as_it_stands(mine, theirs, table, kladda, first, move, line):
    g = Giv.from_position([mine.split(), theirs.split()], table.split(), kladda=kladda.split(), previous_mover=1)
    for m in first:
        g.play(m)
    with use_language("en"), seat_names(["Ann", "Bea"]):
        assert _line_words(_all_seen_but_the_hands(g, g.turn), M(move)) == line


def test_a_classic_kasino_decision_names_its_best_trail_as_laid_out():
    g = Giv.from_position([["9S", "2C"], ["5H", "KD"]], ["4D", "3C"], previous_mover=1, rules=Rules.preset("kasino"))
    d = Decision(0, 0, M("2C"), M("9S"), "exact", 1, "mistake",
                 [MoveValue(M("9S"), -2.0, 0.0, 0.0, 0.0, 2.0), MoveValue(M("2C"), -1.0, 1.0, 1.0, 1.0, 1.0)], "build", 3)
    with use_language("en"), seat_names(["You", "Bea"]):
        assert decision_words(_all_seen_but_the_hands(g), d) == \
            "2♣ is laid out: mistake. With every card known, 9♠ is laid out ends 1 point better for you."
