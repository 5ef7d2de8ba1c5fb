"""Tests found by mutation testing of ``krypteach/engine/games/kasino.py`` (docs/mutation/engine.md):
classic Kasino's deal, its checks and its card points, stated with concrete cards."""

from __future__ import annotations

import re

import pytest

from krypteach import Card, Rules, parse_cards
from krypteach.engine.cards import full_deck
from krypteach.engine.games.kasino import KASINO_POINTS, KasinoGame, kasino_card_points
from krypteach.engine.state import Deal

K = Rules(game="kasino")
DRAG = Rules.preset("dragkasino")


def _cards(text):
    return tuple(parse_cards(text))


# --- the card points ----------------------------------------------------------------

def test_storan_is_two_lillan_one_and_each_ace_one():
    points = {str(Card(i)): p for i, p in enumerate(KASINO_POINTS) if p}
    assert points == {"10D": 2, "2S": 1, "AS": 1, "AH": 1, "AD": 1, "AC": 1}
    # the other tens and twos count nothing: seat 0 has only most spades (10♠, 2) and most cards (1)
    assert kasino_card_points(K, [parse_cards("10S 10H 10C 2H 2D 2C"), parse_cards("3H")]) == [2 + 1, 0]


# --- the deal -------------------------------------------------------------------

def test_the_deal_goes_one_card_at_a_time_from_the_dealers_left_then_four_to_the_table():
    deck = full_deck()  # AS AH AD AC 2S 2H ...
    deals = KasinoGame(K).deal(deck, 1)  # seat 0 sits left of dealer 1: the 1st, 3rd, 5th and 7th card
    assert deals[0] == Deal((_cards("AS AD 2S 2D"), _cards("AH AC 2H 2C")), _cards("3S 3H 3D 3C"), ())
    assert deals[1] == Deal((_cards("4S 4D 5S 5D"), _cards("4H 4C 5H 5C")), (), ())
    assert [len(d.hands[0]) + len(d.hands[1]) + len(d.table) for d in deals] == [12, 8, 8, 8, 8, 8]
    assert deals[-1].hands == (_cards("QS QD KS KD"), _cards("QH QC KH KC"))
    assert KasinoGame(K).deal(deck, 0)[0].hands == (_cards("AH AC 2H 2C"), _cards("AS AD 2S 2D"))


def test_three_seats_are_dealt_from_the_dealers_left():
    deals = KasinoGame(K.replace(players=3)).deal(full_deck(), 2)
    # seat 0 sits left of dealer 2 and gets the 1st, 4th, 7th and 10th card
    assert deals[0].hands == (_cards("AS AC 2D 3H"), _cards("AH 2S 2C 3D"), _cards("AD 2H 3S 3C"))
    assert deals[0].table == _cards("4S 4H 4D 4C")


def test_dragkasino_deals_the_first_four_and_then_one_card_a_draw_to_the_seat_that_moved():
    deals = KasinoGame(DRAG).deal(full_deck(), 1)
    assert len(deals) == 41
    assert deals[0] == Deal((_cards("AS AD 2S 2D"), _cards("AH AC 2H 2C")), _cards("3S 3H 3D 3C"), ())
    assert deals[1] == Deal((_cards("4S"), ()), (), ())  # move 1 is seat 0's (left of the dealer)
    assert deals[2] == Deal(((), _cards("4H")), (), ())
    assert deals[40] == Deal(((), _cards("KC")), (), ())


# --- the checks of a deck and of deals -------------------------------------------------

def test_a_kasino_deck_has_the_52_cards_each_once():
    game = KasinoGame(K)
    game.check_deck(full_deck())
    msg = "a classic Kasino deck must have the 52 cards, each once; got {} cards"
    with pytest.raises(ValueError, match=f"^{re.escape(msg.format(51))}$"):
        game.check_deck(full_deck()[1:])
    with pytest.raises(ValueError, match=f"^{re.escape(msg.format(52))}$"):
        game.check_deck(full_deck()[1:] + [Card("KD")])  # 52 cards, KD twice


def _deals(rules=K, dealer=0):
    return list(KasinoGame(rules).deal(full_deck(), dealer))


def _refused(deals, rules=K, dealer=0):
    """The message ``check_deals`` refuses ``deals`` with."""
    try:
        KasinoGame(rules).check_deals(deals, dealer)
    except ValueError as e:
        return str(e)
    pytest.fail("the deals were not refused")


def test_good_deals_pass_the_check():
    KasinoGame(K).check_deals(_deals(), 0)
    KasinoGame(DRAG).check_deals(_deals(DRAG, 1), 1)


def test_a_deal_for_the_wrong_number_of_seats_is_refused():
    deals = _deals()
    d = deals[2]
    deals[2] = Deal(d.hands + ((),), d.table, d.aside)
    assert _refused(deals) == "deal 2: 2 seats, not 3"


def test_every_seat_gets_four_and_the_first_deal_four_to_the_table():
    deals = _deals()
    d = deals[1]
    deals[1] = Deal((d.hands[0][:3], d.hands[1]), d.table, d.aside)
    assert _refused(deals) == "deal 1: every one of 2 seats must get 4 cards and the table 0"
    deals = _deals()
    d = deals[0]
    deals[0] = Deal(d.hands, d.table[:3], d.aside)
    assert _refused(deals) == "deal 0: every one of 2 seats must get 4 cards and the table 4"
    deals = _deals()
    d = deals[0]
    deals[0] = Deal(d.hands, d.table[:3], d.table[3:])  # nothing goes aside in classic Kasino
    assert _refused(deals) == "deal 0: every one of 2 seats must get 4 cards and the table 4"


def test_the_cards_of_all_the_deals_make_one_deck():
    deals = _deals()
    d = deals[5]
    deals[5] = Deal((d.hands[0][:3] + (Card("AS"),), d.hands[1]), d.table, d.aside)
    assert _refused(deals) == "a classic Kasino deck must have the 52 cards, each once; got 52 cards"


def test_a_draw_is_one_card_to_the_seat_that_moved():
    deals = _deals(DRAG, 1)
    assert deals[1] == Deal((_cards("4S"), ()), (), ())
    deals[1] = Deal(((), _cards("4S")), (), ())  # to the dealer, who did not make move 1
    assert _refused(deals, DRAG, 1) == "draw 1: the card goes to seat 0, which made move 1"
    for bad in (Deal((_cards("4S"), _cards("4H")), (), ()),  # two cards
                Deal(((), ()), (), ()),  # none
                Deal((_cards("4S"), ()), _cards("4H"), ()),  # and one to the table
                Deal((_cards("4S"), ()), (), _cards("4H"))):  # and one aside
        deals = _deals(DRAG, 1)
        deals[1] = bad
        assert _refused(deals, DRAG, 1) == "draw 1: one card to one seat"


def test_with_three_seats_the_draws_go_round_from_the_dealers_left():
    drag3 = DRAG.replace(players=3)
    deals = _deals(drag3, 1)
    assert [d.hands for d in deals[1:4]] == [((), (), _cards("5S")), (_cards("5H"), (), ()), ((), _cards("5D"), ())]
    deals[1] = Deal((_cards("5S"), (), ()), (), ())  # seat 2 sits left of dealer 1 and makes move 1
    assert _refused(deals, drag3, 1) == "draw 1: the card goes to seat 2, which made move 1"


# --- why a build is refused, word for word (games/kasino.py ``_bad_build``) ---------------------------

SUM = ("does not make a build of {v}: the cards (with any builds of {v} joined whole) must add up to {v}, or to {v} "
       "several times over in a multiple build, and a build is raised with the played card alone.")


def _refusal(hands, table, move, rules=K):
    from krypteach import Giv, Move
    e = Giv.from_position(hands, table, rules=rules).explain(move)
    assert e.legal is False and e.move == Move.parse(move)
    return e.rule, e.message, [str(m) for m in e.better]


@pytest.mark.parametrize(("hands", "table", "move", "rules", "want"), [
    # avig kasino: a card that can take must take, also instead of building
    ([["5H", "9D", "3C"], ["2C", "3H"]], ["4S", "5C", "6D"], "5H>9:4S", Rules.preset("avig-kasino"),
     ("must-capture", "You may not build with 5♥: it can take 5♣, and in avig kasino a card that can take must "
                      "take.", ["5H:5C"])),
    # a build is never lowered ...
    ([["2D", "7D", "3C"], ["2C", "3H"]], ["[9:4S+5H@0]"], "2D>7:4S+5H", K,
     ("build-lowered", "A build is never lowered: [9: 4♠+5♥] is a build of 9, and 7 is less.", ["2D"])),
    # ... but a build of the same value that does not add up is a wrong sum, not a lowered build
    ([["2D", "9D", "3C"], ["2C", "3H"]], ["[9:4S+5H@0]"], "2D>9:4S+5H", K,
     ("build-sum", "2♦ with [9: 4♠+5♥] " + SUM.format(v=9), [])),
    # a multiple build is locked ...
    ([["AC", "10D", "3C"], ["2C", "3H"]], ["[9:4S+5H+9C@1]"], "AC>10:4S+5H+9C", K,
     ("build-locked", "[9 9: 4♠+5♥+9♣] is a multiple build of 9 (locked): it can no longer be raised.", ["AC"])),
    # ... and joined at its own value it is a wrong sum, not a raise of a locked build
    ([["AC", "9D", "3C"], ["2C", "3H"]], ["[9:4S+5H+9C@0]"], "AC>9:4S+5H+9C", K,
     ("build-sum", "A♣ with [9 9: 4♠+5♥+9♣] " + SUM.format(v=9), [])),
    # no bluff builds: another card of the value must be in the hand
    ([["5H", "3C"], ["2C", "3H"]], ["4S"], "5H>9:4S", K,
     ("build-no-card", "You may build 9 only with another card of that value in your hand to take it (no bluff "
                       "builds): your other cards are 3♣.", ["5H"])),
    ([["5H", "3C", "2D"], ["2C", "3H", "4H"]], ["4S"], "5H>9:4S", K,
     ("build-no-card", "You may build 9 only with another card of that value in your hand to take it (no bluff "
                       "builds): your other cards are 3♣ 2♦.", ["5H"])),
    ([["5H"], ["2C"]], ["4S"], "5H>9:4S", K,
     ("build-no-card", "You may build 9 only with another card of that value in your hand to take it (no bluff "
                       "builds): your other cards are none.", ["5H"])),
    # without multiple builds a build makes its value once
    ([["4H", "8D", "8S"], ["2C", "3H", "5H"]], ["4S", "8C"], "4H>8:4S+8C", K.replace(multiple_builds=False),
     ("build-multiple", "These rules play without multiple builds: a build makes its value once.",
      ["4H:4S", "4H>8:4S", "4H"])),
    ([["6H", "8D"], ["2C", "3H"]], ["2S", "8C"], "6H>8:2S+8C", K.replace(multiple_builds=False),
     ("build-multiple", "These rules play without multiple builds: a build makes its value once.", ["6H>8:2S", "6H"])),
    # ... and a wrong sum under those rules is still a wrong sum (a raise with a table card too: 2+3+2+2 = 9)
    ([["5H", "9D", "3C"], ["2C", "3H", "4H"]], ["3S"], "5H>9:3S", K.replace(multiple_builds=False),
     ("build-sum", "5♥ with 3♠ " + SUM.format(v=9), ["5H"])),
    ([["2D", "9D", "3C"], ["4C", "3D", "4H"]], ["[5:2S+3H@1]", "2C"], "2D>9:2S+3H+2C", K.replace(multiple_builds=False),
     ("build-sum", "2♦ with [5: 2♠+3♥] and 2♣ " + SUM.format(v=9), ["2D:2C", "2D"])),
    # a wrong sum names the cards and the builds joined
    ([["5H", "9D", "3C"], ["2C", "3H"]], ["3S", "[9:4S+5C@1]"], "5H>9:3S+4S+5C", K,
     ("build-sum", "5♥ with 3♠ and [9: 4♠+5♣] " + SUM.format(v=9), ["5H"])),
    ([["5H", "9D", "3C"], ["2C", "3H"]], ["3S"], "5H>9:3S", K,
     ("build-sum", "5♥ with 3♠ " + SUM.format(v=9), ["5H"])),
], ids=["avig-must-take", "lowered", "same-value-sum", "locked", "locked-same-value", "no-card", "no-card-two",
        "no-card-none", "no-multiple", "no-multiple-12", "no-multiple-sum", "no-multiple-raise-with-table", "sum-with-build",
        "sum"])
def test_a_refused_build_says_why_word_for_word(hands, table, move, rules, want):
    assert _refusal(hands, table, move, rules) == want


# --- what a legal Kasino move does, in words (games/kasino.py ``_legal``) -----------------------------

@pytest.mark.parametrize(("hands", "table", "move", "first"), [
    # a raise names the build and the new value, in Swedish words too
    ([["4C", "9D", "3C"], ["2C", "6H", "5D"]], ["[5:2S+3H@1]"], "4C>9:2S+3H",
     '4♣ raises [5: 2♠+3♥] to 9 ("bygger nio")'),
    # a multiple build: twice the value is "dubbelt", more is "flera gånger"
    ([["4H", "8D", "3C"], ["2C", "3H", "5D"]], ["4S", "8C"], "4H>8:4S+8C",
     '4♥ on 4♠ and 8♣ makes a multiple build of 8 ("dubbelt åtta"): it is locked and can no longer be raised'),
    ([["2H", "4D", "3C"], ["2C", "3H", "5D"]], ["2D", "4S", "4C"], "2H>4:2D+4S+4C",
     '2♥ on 2♦ and 4♠ and 4♣ makes a multiple build of 4 ("flera gånger fyra"): it is locked and can no longer be '
     'raised'),
    # a lone ace standing as 14 counts as one more 14 (lone_ace_builds)
    ([["5H", "AH", "3C"], ["2C", "6H", "5D"]], ["9S", "AD"], "5H>14:9S+AD",
     '5♥ on 9♠ and A♦ makes a multiple build of 14 ("dubbelt fjorton"): it is locked and can no longer be raised'),
    ([["5H", "AH", "3C"], ["2C", "6H", "5D"]], ["9S", "AD", "AC"], "5H>14:9S+AD+AC",
     '5♥ on 9♠ and A♦ and A♣ makes a multiple build of 14 ("flera gånger fjorton"): it is locked and can no longer '
     'be raised'),
    # both aces of the table, one standing as 14 and one with the king: twice 14, with no other card taken
    ([["KS", "AH", "3C"], ["2C", "6H", "5D"]], ["AD", "AC"], "KS>14:AD+AC",
     'K♠ on A♦ and A♣ makes a multiple build of 14 ("dubbelt fjorton"): it is locked and can no longer be raised'),
    # a card of the build's value on the build: a multiple build, not a raise
    ([["9C", "9D", "3C"], ["2C", "6H", "5D"]], ["[9:4S+5H@0]"], "9C>9:4S+5H",
     '9♣ on [9: 4♠+5♥] makes a multiple build of 9 ("dubbelt nio"): it is locked and can no longer be raised'),
    ([["5H", "9D", "3C"], ["2C", "6H", "5D"]], ["4S"], "5H>9:4S", '5♥ on 4♠ builds 9 ("bygger nio")'),
    ([["9C", "3D", "3C"], ["2C", "6H", "5D"]], ["9S", "4H"], "9C:9S", "9♣ takes 9♠; 4♥ stays."),
    ([["9C", "3D", "3C"], ["2C", "6H", "5D"]], ["9S"], "9C:9S", "9♣ takes 9♠. Tabbe: the table is empty! (1 point)"),
    ([["7C", "AH", "3C"], ["2C", "3H", "5D"]], ["AD"], "7C", "7♣ is laid on the table (lägga)."),
], ids=["raise", "dubbelt", "flera-ganger", "lone-ace-dubbelt", "lone-aces-flera", "two-lone-aces", "same-value",
        "build", "take", "tabbe", "trail"])
def test_a_legal_kasino_move_says_what_it_does(hands, table, move, first):
    from krypteach import Giv, Move
    e = Giv.from_position(hands, table, rules=K).explain(move)
    assert e.legal is True and e.rule == "ok" and e.move == Move.parse(move)
    assert e.message.split(". You own it now")[0] == first


def test_krypkasino_s_legal_moves_refuse_kasino_rules_and_an_illegal_play_names_its_move():
    from krypteach import Giv, IllegalMoveError, Move
    from krypteach.engine.moves import legal_moves
    with pytest.raises(ValueError, match="plays Krypkasino") as e:
        legal_moves(parse_cards("5H"), parse_cards("4S"), K)
    assert str(e.value) == ("moves.legal_moves plays Krypkasino; for classic Kasino use krypteach.legal_moves "
                            "(krypteach.engine.builds.legal_moves)")
    g = Giv.from_position([["5H", "3C"], ["2C", "3H"]], ["4S"], rules=K)
    with pytest.raises(IllegalMoveError) as bad:
        g.play("5H>9:4S")
    assert bad.value.move == Move.parse("5H>9:4S") and bad.value.explanation.rule == "build-no-card"


# --- every refusal of ``explain_kasino_move``, the whole explanation ----------------------------------

_AVIG = Rules.preset("avig-kasino")
_NO_TRAIL = K.replace(owner_duty="no-trail")


@pytest.mark.parametrize(("hands", "table", "move", "rules", "want"), [
    ([["5H", "9D"], ["2C", "3H"]], ["4S"], "7C", K,
     ("not-in-hand", "7♣ is not in your hand (your hand: 5♥ 9♦).", (), ())),
    ([["5H", "9D"], ["2C", "3H"]], ["4S", "5C"], "9D:4S+4C", K,
     ("not-on-table", "4♣ is not on the table (the table: 4♠ 5♣).", (), ())),
    ([["9D", "3C"], ["2C", "3H"]], ["[9:4S+5H@1]", "7C"], "9D:4S", K,
     ("build-split", "A build is never split: [9: 4♠+5♥] is one pile of 9; take it or build on it whole, or "
                     "leave it.", (), ())),
    ([["9D", "2C"], ["3C", "3H"]], ["4S", "5C"], "2C", _AVIG,
     ("tvangstabbe", "Tvångstabbe (forced tabbe): your 9♦ can take the whole table, so you must play it and take "
                     "everything.", ("4S", "5C"), ("9D:4S+5C",))),
    ([["9D", "3C"], ["2C", "3H"]], ["[9:4S+5H@0]", "9S"], "9D:9S", _NO_TRAIL,
     ("build-owner-keep", "You own a build of 9 (4♠+5♥): keep 9♦, the last card in your hand that takes it, until "
                          "you take it or build on it.", (), ("9D:4S+5H", "9D:4S+5H+9S"))),
    ([["9D", "3C"], ["2C", "3H"]], ["[9:4S+5H@0]", "7C"], "3C", _NO_TRAIL,
     ("build-owner-trail", "You own a build of 9 (4♠+5♥): you may not trail while you own a build — 9♦ takes it.",
      (), ("9D:4S+5H",))),
    ([["9D", "7H"], ["2C", "3H"]], ["[9:4S+5H@0]", "7C"], "7H:7C", K,
     ("build-owner-must-act", "You own a build of 9 (4♠+5♥): take it or raise it this turn — 9♦ takes it. You may "
                              "not leave it and play something else.", (), ("9D:4S+5H",))),
    ([["5H", "3C"], ["2C", "3H"]], ["5C", "9S"], "5H", _AVIG,
     ("must-capture", "You may not trail with 5♥: it can take 5♣. In avig kasino a card that can take must take.",
      (), ("5H:5C",))),
    ([["8D", "3C"], ["2C", "3H"]], ["[9:4S+5H@1]", "7C"], "8D:4S+5H", K,
     ("build-wrong-value", "[9: 4♠+5♥] is a build of 9: only a card of 9 takes it, not your 8♦.", (), ("8D",))),
    ([["9D", "3C"], ["2C", "3H"]], ["9S", "4H", "5C", "2D"], "9D:9S", _AVIG,
     ("take-all", "You must take all you can with 9♦: take 9♠ and 4♥+5♣.", (), ("9D:4H+5C+9S",))),
    ([["9D", "3C"], ["2C", "3H"]], ["4S", "3D", "KC"], "9D:4S+3D", K,
     ("not-traffar", "3♦+4♠ is not a träff for your 9♦: take cards of its rank, groups that add up to its value, and "
                     "builds of its value.", (), ("9D",))),
    # the build that is split is named, not the first on the table
    ([["7H", "3H"], ["2C", "6H"]], ["[9:4S+5H@1]", "[7:3C+4D@1]"], "7H:3C", K,
     ("build-split", "A build is never split: [7: 3♣+4♦] is one pile of 7; take it or build on it whole, or "
                     "leave it.", (), ())),
    # two cards that take the owner's build are both named
    ([["9D", "9C", "7H"], ["2C", "3H", "6H"]], ["[9:4S+5H@0]", "7C"], "7H:7C", K,
     ("build-owner-must-act", "You own a build of 9 (4♠+5♥): take it or raise it this turn — 9♦ or 9♣ takes it. "
                              "You may not leave it and play something else.", (),
      ("9D:4S+5H", "9D>9:4S+5H", "9C:4S+5H", "9C>9:4S+5H"))),
    # classic Kasino takes no "take all": a wrong capture is a wrong träff even where the card has a capture
    ([["9D", "3C"], ["2C", "3H"]], ["4S", "5C", "3D"], "9D:4S+3D", K,
     ("not-traffar", "3♦+4♠ is not a träff for your 9♦: take cards of its rank, groups that add up to its value, and "
                     "builds of its value.", (), ("9D:4S+5C", "9D"))),
    # a build of the card's value taken, but not all it can take (avig kasino): take all, not a wrong value
    ([["9D", "3C"], ["2C", "3H"]], ["[9:4S+5H@1]", "9S", "2D"], "9D:4S+5H", _AVIG,
     ("take-all", "You must take all you can with 9♦: take [9: 4♠+5♥] and 9♠.", (), ("9D:4S+5H+9S",))),
    # avig kasino: the owner's 3♥ could take 3♦, but the owner must take their build: the duty is said, not
    # "3♥ cannot be laid on the table here" (a random search found 54 such trails said so)
    ([["KD", "AC", "3H"], ["2C", "4C", "5C"]], ["3D", "[13:2D+JD@0]"], "3H", _AVIG,
     ("build-owner-must-act", "You own a build of 13 (2♦+J♦): take it or raise it this turn — K♦ takes it. You "
                              "may not leave it and play something else.", (), ("KD:2D+JD",))),
], ids=["not-in-hand", "not-on-table", "build-split", "tvangstabbe", "owner-keep", "owner-trail", "owner-must-act",
        "must-capture", "wrong-value", "take-all", "not-traffar", "split-second", "two-takers", "kasino-wrong-capture",
        "avig-build-take-all", "avig-owner-trail"])
def test_every_kasino_refusal_is_the_whole_explanation(hands, table, move, rules, want):
    from krypteach import Giv, Move
    e = Giv.from_position(hands, table, rules=rules).explain(move)
    assert e.legal is False and e.move == Move.parse(move)
    assert (e.rule, e.message, tuple(map(str, e.missing)), tuple(map(str, e.better))) == want
