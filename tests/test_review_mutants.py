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
    Decision,
    MoveValue,
    Review,
    _decisions,
    _line_words,
    best_words,
    decision_words,
    review_decision,
    review_giv,
)
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


def test_a_givs_review_shares_one_bot_over_its_decisions_and_reports_its_progress():
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
