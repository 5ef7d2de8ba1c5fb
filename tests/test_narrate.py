"""Tests for krypteach.teaching.narrate: engine events in words."""

import doctest
import random

import pytest

from krypteach import Giv, Move, Rules, Turn, parse_cards
from krypteach.engine.games import game_of
from krypteach.engine.scoring import point_breakdown
from krypteach.teaching import narrate
from krypteach.teaching.narrate import (
    describe_giv,
    describe_result,
    describe_turn,
    seat_names,
    tabbe_pa_text,
    traffar_text,
)

NAMES = ["You", "Bea", "Dan"]


def test_module_doctests():
    failures, tried = doctest.testmod(narrate)
    assert tried >= 8 and failures == 0


def test_creep_and_capture_in_trafar():
    assert describe_turn(Turn(1, Move.parse("7H")), NAMES) == "Bea creeps 7♥ (kryper)."
    text = describe_turn(Turn(2, Move.parse("9H:9S+2C+7D")), NAMES)
    assert text == "Dan takes 9♠ and 2♣+7♦ with 9♥."


def test_you_gets_plain_verbs():
    assert describe_turn(Turn(0, Move.parse("7H")), NAMES) == "You creep 7♥ (kryper)."
    assert describe_turn(Turn(0, Move.parse("9H:9S")), NAMES).startswith("You take 9♠")
    text = describe_turn(Turn(1, Move.parse("9H:9S"), tabbe=1, dukning=0), NAMES)
    assert "You moved just before and get a dukning" in text


def test_the_learner_is_you_or_its_translation_in_any_case_and_nobody_else():
    from krypteach.engine.game import LEARNER, is_learner
    from krypteach.i18n import use_language

    assert narrate.DEFAULT_NAMES[0] == LEARNER == "You"
    with use_language("en"):
        assert [is_learner(n) for n in ("You", "you", "YOU", "Du", "Bea", "Young")] == [
            True, True, True, False, False, False]
    with use_language("sv"):
        assert [is_learner(n) for n in ("Du", "du", "You", "Bea")] == [True, True, True, False]
        # the narration speaks to the learner, however the name is written ("du" would stay lower case
        # as a third person's name)
        assert describe_turn(Turn(0, Move.parse("7H")), ["du", "Bea"]) == describe_turn(
            Turn(0, Move.parse("7H")), ["Du", "Bea"])
    with use_language("en"):
        assert describe_turn(Turn(0, Move.parse("7H")), ["YOU", "Bea"]) == "You creep 7♥ (kryper)."
        assert describe_turn(Turn(0, Move.parse("7H")), ["Young", "Bea"]) == "Young creeps 7♥ (kryper)."


def test_only_the_learners_english_default_is_shown_in_the_pages_language():
    from krypteach.engine.game import shown_name
    from krypteach.i18n import use_language

    with use_language("sv"):
        assert [shown_name(n) for n in ("You", "you", "Du", "Bea")] == ["Du", "you", "Du", "Bea"]
        assert narrate.seat_names(3) == ["Du", "Bea", "Dan"]
    with use_language("en"):
        assert [shown_name(n) for n in ("You", "Du", "Bea")] == ["You", "Du", "Bea"]
        assert narrate.seat_names(2) == ["You", "Bea"]


def test_tabbe_gives_a_dukning_to_the_previous_mover():
    text = describe_turn(Turn(2, Move.parse("9H:9S+2C+7D"), tabbe=1, dukning=1), NAMES)
    assert text == "Dan takes 9♠ and 2♣+7♦ with 9♥ — tabbe! Bea moved just before and gets a dukning."


def test_first_move_tabbe_gives_nobody_a_dukning():
    text = describe_turn(Turn(1, Move.parse("10S:AH+3D+7C+9S"), tabbe=1, dukning=None), NAMES)
    assert "tabbe!" in text and "nobody gets a dukning" in text


def test_dubbeltabbe_and_marks_cancel():
    text = describe_turn(Turn(1, Move.parse("QH:QH"), tabbe=2, dukning=0, cancelled=1), NAMES)
    assert "dubbeltabbe" in text and "two dukningar" in text
    assert "Marks cancel: everyone turns one tabbe mark down." in text
    teams = describe_turn(Turn(1, Move.parse("QH:QH"), tabbe=1, dukning=0, cancelled=2), NAMES,
                          Rules(players=4, teams="pairs"))
    assert "every team turns one tabbe mark down twice" in teams


def test_quiz_mode_hides_the_dukning():
    text = describe_turn(Turn(2, Move.parse("9H:9S"), tabbe=1, dukning=1), NAMES, show_dukning=False)
    assert text == "Dan takes 9♠ with 9♥ — tabbe!"


def test_tabbe_pa_after_a_creep():
    assert tabbe_pa_text([10]) == "tabbe på tio"
    assert tabbe_pa_text([1, 13]) == "tabbe på ess eller kung"
    text = describe_turn(Turn(1, Move.parse("9S"), tabbe_pa=(10,)), NAMES)
    assert text == "Bea creeps 9♠ (kryper) — tabbe på tio."


def test_new_deal_and_sweep_from_a_whole_giv():
    rng = random.Random(5)
    g = Giv(Rules(players=3), seed=5)
    g.play_out(lambda g: rng.choice(g.legal_moves()))
    lines = describe_giv(g, NAMES)
    assert len(lines) == len(g.turns)
    deals = [line for line in lines if "New deal" in line]
    assert len(deals) == len(g.deals) - 1
    assert f"(utdelning 2 of {len(g.deals)})" in deals[0]
    assert f"(utdelning {len(g.deals)} of {len(g.deals)})" in deals[-1]
    last = lines[-1]
    taker = NAMES[g.last_capturer]
    aside = sum(len(d.aside) for d in g.deals)
    assert f"{taker} captured last and take" in last
    assert f"klädda högen ({aside} face card" in last


def test_describe_turn_for_every_turn_mentions_player_and_card():
    rng = random.Random(2)
    g = Giv(Rules(players=4, teams="pairs"), seed=2)
    g.play_out(lambda g: rng.choice(g.legal_moves()))
    names = seat_names(4)
    for turn, line in zip(g.turns, describe_giv(g, names)):
        assert line.startswith(names[turn.player])
        assert turn.move.card.symbol in line
        if turn.tabbe:
            assert "tabbe" in line and (turn.dukning is None or names[turn.dukning] in line)


def test_describe_result_lines_add_up():
    rng = random.Random(11)
    rules = Rules(players=4, teams="pairs", last_capture_point=1)
    g = Giv(rules, seed=11)
    g.play_out(lambda g: rng.choice(g.legal_moves()))
    res = g.result
    names = seat_names(4)
    lines = describe_result(res, names, piles=g.piles)
    assert lines[0].startswith(f"{names[res.last_capturer]} captured last")
    assert "1 extra point" in lines[0]
    for s in range(4):
        line = next(line for line in lines if line.startswith(names[s] + ":"))
        assert line.split(" = ")[1].rstrip(".").split(" ")[0].replace("−", "-") == str(res.scores[s])
        for card, points, why in point_breakdown(g.piles[s]):
            assert f"{card.symbol} {why} {points}" in line
    assert sum(line.startswith("Team ") for line in lines) == 2
    assert lines[-1].startswith("Lowest score wins (misère): team ")


def test_describe_result_when_nobody_captured():
    rules = Rules()
    res = game_of(rules).score([[], []], [0, 0], [0, 0], [0, 0], None, parse_cards("KS QH"))
    lines = describe_result(res, ["Ann", "Bo"])
    assert lines[0] == "Nobody captured: the 2 cards left score for nobody."
    assert lines[-1] == "Lowest score wins (misère): Ann and Bo with 0."


def test_traffar_text_and_names():
    assert traffar_text(parse_cards("AH")[0], parse_cards("6S 8D AC")) == "A♣ and 6♠+8♦"
    assert seat_names(2) == ["You", "Bea"]
    assert seat_names(2, ["A", "B", "C"]) == ["A", "B", "C"]
    with pytest.raises(ValueError, match=r"3 names needed, got 1: \['A'\]"):
        seat_names(3, ["A"])


def test_players_are_named_never_numbered():
    assert seat_names(6) == ["You", "Bea", "Dan", "Eva", "Kim", "Ola"]
    with pytest.raises(ValueError, match="7 players: give their names"):
        seat_names(7)
    with pytest.raises(ValueError, match="no name for seat 2: 2 names given"):
        describe_turn(Turn(2, Move.parse("7H")), ["Ann", "Bo"])


def test_sweep_without_context_does_not_claim_nobody_captured():
    from krypteach import Giv
    from krypteach.teaching.narrate import describe_turn

    g = Giv.from_position([["9C", "4H"], ["2S", "KH"]], ["9S", "5D"])
    for m in ("9C:9S", "2S", "4H", "KH"):
        t = g.play(m)
    text = describe_turn(t, ["Ann", "Bo"])
    assert "Nobody captured" not in text and "last player who captured" in text
    assert "Ann captured last" in describe_turn(t, ["Ann", "Bo"], last_capturer=0)
    assert "Nobody captured" in describe_turn(t, ["Ann", "Bo"], last_capturer=None)


def test_result_when_nothing_was_left():
    from krypteach import Giv
    from krypteach.teaching.narrate import describe_result

    g = Giv.from_position([["9C"], ["2S"]], ["9S"])
    g.play("9C:9S")
    g.play("2S")  # a creep: the 2S is left, then swept
    assert "took the 1 card left" in describe_result(g.result, ["Ann", "Bo"])[0]
    g = Giv.from_position([["9C"], ["5H"]], ["9S", "5D"])
    g.play("9C:9S")
    g.play("5H:5D")  # the last move empties the table
    assert describe_result(g.result, ["Ann", "Bo"])[0] == "Bo captured last; no cards were left on the table."


def test_classic_kasino_moves_are_told_as_kasino_moves():
    """A build is not a capture, a card laid out does not creep, a tabbe gives no dukning."""
    from krypteach import Move, Rules, Turn
    from krypteach.i18n import use_language
    from krypteach.teaching.narrate import describe_turn

    k = Rules.preset("kasino")
    build = describe_turn(Turn(1, Move.parse("4H>13:9S")), ["You", "Bea"], k)
    assert build == "Bea builds 13: 4♥ on 9♠ (bygge)."
    laid = describe_turn(Turn(0, Move.parse("7C")), ["You", "Bea"], k)
    assert "creep" not in laid and "lay 7♣" in laid
    swept = describe_turn(Turn(0, Move.parse("9C:4S+5H"), tabbe=1, dukning=1), ["You", "Bea"], Rules.preset("avig-kasino"))
    assert swept == "You take 4♠+5♥ with 9♣ — tabbe!"
    with use_language("sv"):
        assert describe_turn(Turn(1, Move.parse("4H>13:9S")), ["Du", "Bea"], k) == "Bea bygger 13: 4♥ på 9♠."
