"""Classic Kasino's rule readings decided in RULES.md ("Classic Kasino", issue 19), with concrete
cards: a raise that gathers other groups of its new value, a lone table ace standing as 14 in a
build of 14, and the builder who keeps a card that takes each build they own. The engine, the
brute-force reference and the explanations must agree on each."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from krypteach import Move, Rules, explain_move, parse_cards
from krypteach.engine.builds import Build, kasino_legal_moves, kasino_table_after, parse_table, take_value
from krypteach.engine.game import Giv
from krypteach.i18n import use_language

from .test_kasino import ref_move, ref_moves

K = Rules(game="kasino")


def legal(hand: str, table: str, rules: Rules = K, player: int = 0) -> set[Move]:
    moves = kasino_legal_moves(parse_cards(hand), parse_table(table), rules, player)
    # the independent reference agrees, move for move
    assert sorted(map(ref_move, moves)) == sorted(ref_moves(parse_cards(hand), parse_table(table), rules, player))
    return set(moves)


def M(*texts: str) -> set[Move]:
    return {Move.parse(t) for t in texts}


# --- a raise may gather other groups of the new value -------------------------------

def test_the_seeds_example_raise_and_gather_the_queen() -> None:
    """RULES.md: table Q♦ and the build 3♠+7♣ (10); with Q♣ and 2♠ in hand, 2♠ on the build
    makes 12 and may take Q♦ into the pile: a locked double 12."""
    table = "QD [10:3S+7C@1]"
    moves = legal("QC 2S", table)
    assert M("2S>12:3S+7C") <= moves and M("2S>12:3S+7C+QD") <= moves
    after = kasino_table_after(parse_table(table), Move.parse("2S>12:3S+7C+QD"), 0)
    assert after == [Build(12, parse_cards("2S 3S 7C QD"), 0)] and after[0].locked
    assert not M("2S>12:3S+7C+QD") & legal("QC 2S", table, K.replace(raise_gathers=False))
    assert M("2S>12:3S+7C") <= legal("QC 2S", table, K.replace(raise_gathers=False))
    # needs multiple builds: a gathered pile is one
    assert not M("2S>12:3S+7C+QD") & legal("QC 2S", table, K.replace(multiple_builds=False))


def test_a_raise_gathers_loose_cards_that_add_up_and_another_build_of_the_value() -> None:
    moves = legal("QC 2S", "5D 7H [10:3S+7C@1] [12:4C+8D@1]")
    assert M("2S>12:3S+5D+7C+7H", "2S>12:3S+4C+7C+8D", "2S>12:3S+4C+5D+7C+7H+8D") <= moves
    assert not M("2S>12:3S+5D+7C") & moves  # 5♦ alone is not a group of 12


def test_a_locked_build_is_not_raised_even_to_gather() -> None:
    moves = legal("QC 2S", "QD [10:3S+7C+4H+6D@1]")
    assert not [m for m in moves if m.card == parse_cards("2S")[0] and m.value == 12]


def test_the_gathering_raise_is_explained_as_a_locked_multiple_build() -> None:
    e = explain_move(parse_cards("QC 2S"), parse_table("QD [10:3S+7C@1]"), "2S>12:3S+7C+QD", K, 0)
    assert e.legal and "multiple build of 12" in e.message and '("dubbelt dam")' in e.message
    with use_language("sv"):
        e = explain_move(parse_cards("QC 2S"), parse_table("QD [10:3S+7C@1]"), "2S>12:3S+7C+QD", K, 0)
    assert e.legal and "dubbelt dam" in e.message and "låst" in e.message


# --- a lone table ace stands as 14 --------------------------------------------------

def test_a_lone_table_ace_is_a_group_of_14_in_a_build_of_14() -> None:
    moves = legal("10H AC", "4S AD")
    assert M("10H>14:4S") <= moves and M("10H>14:4S+AD") <= moves
    after = kasino_table_after(parse_table("4S AD"), Move.parse("10H>14:4S+AD"), 0)
    assert after[-1].locked  # two groups of 14: 10♥+4♠ and the ace
    e = explain_move(parse_cards("10H AC"), parse_table("4S AD"), "10H>14:4S+AD", K, 0)
    assert e.legal and "dubbelt fjorton" in e.message  # two groups, though the ranks add up to 15


def test_the_lone_ace_option_off_and_the_ace_one_only() -> None:
    assert not M("10H>14:4S+AD") & legal("10H AC", "4S AD", K.replace(lone_ace_builds=False))
    ace_one = Rules.preset("kasino").replace(ace="1")
    assert not [m for m in legal("10H AC KS", "4S AD", ace_one) if m.value == 14 and parse_cards("AD")[0] in m.capture]


def test_inside_a_sum_the_ace_counts_1() -> None:
    moves = legal("10H AC", "3S AD")
    assert M("10H>14:3S+AD") <= moves  # 10 + 3 + 1 = 14: one group
    assert not Build(14, parse_cards("10H 3S AD"), 0).locked


def test_a_lone_ace_joins_a_gathering_raise_of_14() -> None:
    assert M("4D>14:3S+7C+AD") <= legal("AC 4D", "AD [10:3S+7C@1]")


# --- the builder keeps a card that takes each build they own ------------------------

NO_TRAIL = K.replace(owner_duty="no-trail")


def test_with_no_trail_the_owner_may_not_spend_the_last_card_that_takes_the_build() -> None:
    table = "9S [9:4S+5H@0]"
    moves = legal("9D 2C", table, NO_TRAIL)
    assert not M("9D:9S") & moves  # 9♦ is the only card that takes [9]
    assert M("9D:4S+5H+9S") <= moves and M("9D:4S+5H") <= moves
    assert not M("2C") & moves  # no-trail
    e = explain_move(parse_cards("9D 2C"), parse_table(table), "9D:9S", NO_TRAIL, 0)
    assert not e.legal and e.rule == "build-owner-keep"
    assert e.message == ("You own a build of 9 (4♠+5♥): keep 9♦, the last card in your hand that takes it, "
                         "until you take it or build on it.")
    with use_language("sv"):
        e = explain_move(parse_cards("9D 2C"), parse_table(table), "9D:9S", NO_TRAIL, 0)
    assert e.message.startswith("Du äger ett bygge på 9 (4♠+5♥): behåll 9♦")


def test_with_two_takers_the_owner_may_spend_one() -> None:
    assert M("9D:9S") <= legal("9D 9C 2C", "9S [9:4S+5H@0]", NO_TRAIL)


def test_a_new_build_must_not_spend_the_last_taker_of_an_owned_one() -> None:
    # owning [9], 9♦ is the taker: 9♦ may not go into a build of another value
    moves = legal("9D 2C KC", "2S [9:4S+5H@0]", NO_TRAIL)
    assert not M("9D>11:2S") & moves
    assert not M("2C>13:2S+9S") & moves  # (no 9♠ here: not a move at all)


def test_no_duty_means_no_card_to_keep() -> None:
    assert M("9D:9S") <= legal("9D 2C", "9S [9:4S+5H@0]", K.replace(owner_duty="none"))


def _owners_hold_a_taker(rules: Rules, seed: int) -> None:
    g, rng = Giv(rules=rules, seed=seed), random.Random(seed)
    while not g.is_over:
        seat = g.turn
        for b in g.table:
            if isinstance(b, Build) and b.owner == seat:
                assert any(take_value(c, rules) == b.value for c in g.hands[seat]), (seed, g.table, g.hands[seat])
        g.push(rng.choice(g.legal_moves()))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["take-or-raise", "no-trail"]))
def test_in_dealt_play_an_owner_always_holds_a_card_that_takes_their_build(seed: int, duty: str) -> None:
    """Whatever is played, a seat that owns a build on its turn holds a card that takes it."""
    _owners_hold_a_taker(K.replace(owner_duty=duty), seed)


@pytest.mark.parametrize("preset", ["avig-kasino", "kasino-pairs", "dragkasino"])
def test_owners_hold_a_taker_in_the_other_kasino_presets(preset: str) -> None:
    for seed in range(6):
        _owners_hold_a_taker(Rules.preset(preset), seed)
