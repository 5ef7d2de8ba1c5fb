"""The rules of a turn, with concrete cards: each test pins a rule that a mutation of
krypteach/engine (turn.py, games/krypkasino.py, games/kasino.py, builds.py, moves.py)
changed without any other test noticing (docs/testing.md, "Engine and bots")."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from krypteach import Card, Giv, Move, Rules, parse_cards
from krypteach.engine.capture_search import pack
from krypteach.engine.rules import PRESETS
from krypteach.engine.turn import book_tabbe, cancel_marks, giv_scores, tabbe_marks, tabbe_score, team_relative

K = Rules(game="kasino")


# --- tabbe and dubbeltabbe ------------------------------------------------

def test_a_dubbeltabbe_is_q_hearts_on_a_lone_q_hearts():
    qh = parse_cards("QH")
    assert tabbe_marks(qh, Move.parse("QH:QH"), Rules()) == 2
    assert tabbe_marks(qh, Move.parse("QD:QH"), Rules()) == 1  # same rank, not the twin: a plain tabbe
    assert tabbe_marks(qh, Move.parse("QH:QH"), Rules(dubbeltabbe=False)) == 1
    # the twin on a table of two is a tabbe, not a dubbeltabbe
    assert tabbe_marks(parse_cards("QH QH"), Move.parse("QH:QH+QH"), Rules()) == 1
    assert tabbe_marks(parse_cards("5H 7C"), Move.parse("QH:5H+7C"), Rules()) == 1
    # a capture that leaves a card, and a creep, make no mark
    assert tabbe_marks(parse_cards("5H 7C 9S"), Move.parse("QH:5H+7C"), Rules()) == 0
    assert tabbe_marks(parse_cards("5H"), Move.parse("9S"), Rules()) == 0
    assert tabbe_marks((), Move.parse("9S"), Rules()) == 0


def test_a_dubbeltabbe_played_books_two_marks_and_two_dukningar():
    g = Giv.from_position([["QH", "2C"], ["4H", "5C"]], ["QH"], previous_mover=1)
    t = g.play("QH:QH")
    assert (t.tabbe, t.dukning, g.marks, g.dukningar, g.tabbar) == (2, 1, [2, 0], [0, 2], [2, 0])


# --- the dukning goes to the previous mover ---------------------------------

def test_the_dukning_goes_to_the_seat_that_moved_just_before():
    g = Giv.from_position([["5C", "2H"], ["9S", "KH"], ["6D", "8D"]], ["AH", "3D"], rules=Rules(players=3),
                          previous_mover=2)
    g.play("5C")  # seat 0 creeps
    t = g.play("9S:AH+3D+5C")  # seat 1 takes the whole table after seat 0
    assert (t.tabbe, t.dukning) == (1, 0)
    assert (g.marks, g.dukningar) == ([0, 1, 0], [1, 0, 0])


def test_a_tabbe_as_the_first_move_gives_nobody_a_dukning():
    g = Giv.from_position([["10S", "2H"], ["4H", "5C"]], ["AH", "3D", "6S"])
    t = g.play("10S:AH+3D+6S")
    assert (t.tabbe, t.dukning, g.marks, g.dukningar) == (1, None, [1, 0], [0, 0])
    marks, dukningar, tabbar = [0, 0], [0, 0], [0, 0]
    assert book_tabbe(Rules(), marks, dukningar, tabbar, taker=1, previous_mover=None, made=2) == 0
    assert (marks, dukningar, tabbar) == ([0, 2], [0, 0], [0, 2])
    book_tabbe(Rules(), marks, dukningar, None, taker=1, previous_mover=0, made=1)
    assert (marks, dukningar, tabbar) == ([0, 3], [1, 0], [0, 2])  # no tabbar list: nothing counted there


def test_a_tabbe_is_worth_its_marks_to_the_taker_and_the_previous_mover():
    assert tabbe_score(Rules(), 1) == (5, -5)
    assert tabbe_score(Rules(tabbe_points=4, dukning_points=-3), 2) == (8, -6)


# --- marks turned down --------------------------------------------------------

def test_marks_are_turned_down_while_every_seat_has_one():
    m = [2, 3]
    assert cancel_marks(m, Rules()) == 2 and m == [0, 1]
    m = [2, 3, 0]
    assert cancel_marks(m, Rules(players=3)) == 0 and m == [2, 3, 0]
    m = [1, 1]
    assert cancel_marks(m, Rules(cancel_marks=False)) == 0 and m == [1, 1]


def test_marks_turned_down_in_team_play_come_from_the_member_with_the_most():
    pairs = Rules(players=4, teams="pairs")  # seats 0+2 against 1+3
    m = [1, 0, 2, 0]
    assert cancel_marks(m, pairs) == 0 and m == [1, 0, 2, 0]  # team 1+3 has none
    m = [1, 1, 2, 0]
    assert cancel_marks(m, pairs) == 1 and m == [1, 0, 1, 0]  # seat 2 has the most of its team
    m = [1, 2, 1, 2]
    assert cancel_marks(m, pairs) == 2 and m == [0, 1, 0, 1]  # ties: the lower seat first
    m = [0, 1, 3, 1]
    assert cancel_marks(m, pairs) == 2 and m == [0, 0, 1, 0]


def test_book_tabbe_turns_marks_down_after_booking():
    marks, dukningar = [1, 0], [0, 0]
    assert book_tabbe(Rules(), marks, dukningar, None, taker=1, previous_mover=0, made=1) == 1
    assert (marks, dukningar) == ([0, 0], [1, 0])


# --- scores ------------------------------------------------------------------

def test_giv_scores_adds_card_points_marks_dukningar_and_the_last_capture_point():
    r = Rules(last_capture_point=1)
    assert giv_scores(r, [10, 32], [1, 0], [0, 1], last_capturer=1) == (15, 28)
    assert giv_scores(r, [10, 32], [1, 0], [0, 1], last_capturer=0) == (16, 27)
    assert giv_scores(r, [10, 32], [0, 0], [0, 0], last_capturer=None) == (10, 32)
    assert giv_scores(Rules(), [3, 4, 5], [0, 2, 0], [1, 0, 0], last_capturer=2) == (-2, 14, 5)


def test_team_relative_is_my_teams_change_against_the_others_mean():
    assert team_relative(Rules(), 0, {0: 5, 1: -5}) == 10.0
    assert team_relative(Rules(), 1, [5, -5]) == -10.0
    assert team_relative(Rules(players=3), 0, {1: 5, 0: -5}) == -7.5
    assert team_relative(Rules(players=3), 2, {1: 6, 0: 2}) == -4.0
    pairs = Rules(players=4, teams="pairs")
    assert team_relative(pairs, 2, {0: 1, 1: 2, 2: 3, 3: 7}) == 4 - 9


# --- property: explain, push and move_result agree on every legal move -------

@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_explain_push_and_move_result_agree_on_every_legal_move(preset, seed):
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    g = Giv(rules, seed=seed)
    while not g.is_over:
        p, table, prev = g.turn, list(g.table), g.last_mover
        key = g.state_key()
        moves = g.legal_moves()
        for m in moves:
            e = g.explain(m)
            r = g.game.move_result(table, m, p, prev)
            pile = len(g.piles[p])
            t = g.push(m)
            assert e.legal, (preset, str(m), e.message)
            assert e.tabbe == t.tabbe == r.tabbe, (preset, str(m))
            assert t.dukning == r.dukning, (preset, str(m))
            assert r.table == g.game.table_after(table, m, p), (preset, str(m))
            if not t.dealt and t.sweep is None:
                assert g.table == r.table, (preset, str(m))
            gained = tuple(g.piles[p][pile:])
            if t.sweep is None:
                assert gained == r.taken, (preset, str(m))
            else:
                assert gained[:len(r.taken)] == r.taken, (preset, str(m))
            g.pop()
            assert g.state_key() == key, (preset, str(m))
        g.push(rng.choice(moves))
        if rules.game == "krypkasino":  # the packed value counts the giv keeps for its legal moves
            assert g.table_key == (pack(g.table) if g.table else None), (preset, [str(c) for c in g.table])


# --- classic Kasino --------------------------------------------------------------

def _moves(hands, table, rules=K):
    return [str(m) for m in Giv.from_position(hands, table, rules=rules).legal_moves()]


def test_kasinos_owner_must_take_or_raise_its_build():
    hands, table = [["9D", "7H", "2C"], ["3H", "KS"]], ["7C", "[9:4S+5H@0]"]
    assert _moves(hands, table) == ["9D:4S+5H", "2C>9:4S+5H+7C"]
    assert _moves(hands, table, K.replace(owner_duty="no-trail")) == ["9D:4S+5H", "7H:7C", "2C>9:7C", "2C>9:4S+5H+7C"]
    assert _moves(hands, table, K.replace(owner_duty="none")) == [
        "9D:4S+5H", "9D", "7H:7C", "7H", "2C>9:7C", "2C>9:4S+5H+7C", "2C"]
    # the opponent's build lays no duty on seat 0
    assert _moves(hands, ["7C", "[9:4S+5H@1]"]) == _moves(hands, table, K.replace(owner_duty="none"))
    # an owner without the card to take or raise it keeps every move (a turn always has one)
    assert _moves([["7H", "2C"], ["3H", "KS"]], table) == ["7H:7C", "7H", "2C"]


def test_most_spades_and_most_cards_tied_give_nobody_the_points():
    from krypteach.engine.games.kasino import kasino_card_points
    assert kasino_card_points(K, [parse_cards("3S 4H"), parse_cards("5S 6H")]) == [0, 0]
    assert kasino_card_points(K, [parse_cards("3S 4H 5H"), parse_cards("5S 6H")]) == [1, 0]  # spades tie: cards only
    assert kasino_card_points(K, [parse_cards("3S 4S 5H"), parse_cards("5S 6H")]) == [3, 0]
    assert kasino_card_points(K, [parse_cards("5S 6H"), parse_cards("3S 4S 5H")]) == [0, 3]
    assert kasino_card_points(K, [parse_cards("10D 2S AH AC"), parse_cards("3S 4S 5S 6H 7H")]) == [5, 3]
    pairs = K.replace(players=4, teams="pairs")
    tied = [parse_cards("3S"), parse_cards("5S 6S"), parse_cards("7S 8H"), parse_cards("2H")]
    assert kasino_card_points(pairs, tied) == [0, 0, 0, 0]
    # team 0+2 has three spades and four cards: its member with the most (seat 2) gets both
    won = [parse_cards("3S"), parse_cards("5S 6H"), parse_cards("7S 8S 9H"), parse_cards("2H")]
    assert kasino_card_points(pairs, won) == [0, 0, 3, 0]
    # a tie inside the team goes to the lower seat
    even = [parse_cards("3S 4S"), parse_cards("5S"), parse_cards("7S 8S"), parse_cards("2H")]
    assert kasino_card_points(pairs, even) == [3, 0, 0, 0]


def test_a_kasino_tabbe_marks_the_taker_and_gives_no_dukning():
    g = Giv.from_position([["5H", "2C"], ["3H", "KS"]], ["5D"], rules=K, previous_mover=1)
    t = g.play("5H:5D")
    assert (t.tabbe, t.dukning, g.marks, g.dukningar, g.tabbar) == (1, None, [1, 0], [0, 0], [1, 0])
    assert list(g.piles[0]) == parse_cards("5H 5D") and g.last_capturer == 0
    b = Giv.from_position([["5H", "9C"], ["3H", "KS"]], ["4D"], rules=K, previous_mover=1)
    t = b.play("5H>9:4D")  # a build takes nothing in: no pile, no mark, no last capturer
    assert (t.tabbe, list(b.piles[0]), b.last_capturer, b.marks) == (0, [], None, [0, 0])


def test_a_turn_says_how_many_rounds_of_marks_it_turned_down():
    g = Giv.from_position([["4H", "2C"], ["9S", "KH"]], ["AH", "3D"], previous_mover=1)
    assert g.play("4H:AH+3D").cancelled == 0  # a tabbe, nothing to turn down
    g.play("9S")
    assert g.play("2C").cancelled == 0  # a creep
    k = Giv.from_position([["4H", "2C"], ["9S", "KH"]], ["AH", "3D"], rules=K)
    assert k.play("4H:AH+3D").cancelled == 0 and k.play("9S").cancelled == 0
    both = Giv.from_position([["4H", "2C"], ["9S", "KH"]], ["AH", "3D"], previous_mover=1)
    both.marks[1] = 1
    t = both.play("4H:AH+3D")
    assert (t.cancelled, both.marks, both.dukningar) == (1, [0, 0], [0, 1])


def test_a_kasino_giv_ends_with_the_sweep_to_the_last_capturer():
    g = Giv.from_position([["5H", "KS"], ["3C", "7D"]], ["5D", "2C"], rules=K)
    for m in ["5H:5D", "3C", "KS"]:
        t = g.play(m)
        assert t.dealt is False and t.sweep is None and g.swept is None, m
    t = g.play("7D")
    assert t.dealt is False and t.sweep == tuple(parse_cards("2C 3C KS 7D")) == g.swept
    assert g.is_over and list(g.piles[0]) == parse_cards("5H 5D 2C 3C KS 7D") and g.table == []


# --- Krypkasino's deck and deal ----------------------------------------------------

def _kryp_deals(rules=None, dealer=1):
    from krypteach.engine.cards import full_deck
    from krypteach.engine.games.krypkasino import KrypkasinoGame
    return list(KrypkasinoGame(rules or Rules()).deal(full_deck() + full_deck(), dealer))


def _kryp_refused(deals, dealer=1):
    """The message Krypkasino's ``check_deals`` refuses ``deals`` with."""
    from krypteach.engine.games.krypkasino import KrypkasinoGame
    try:
        KrypkasinoGame(Rules()).check_deals(deals, dealer)
    except ValueError as e:
        return str(e)
    pytest.fail("the deals were not refused")


def test_krypkasino_deals_from_the_dealers_left_and_lays_face_cards_aside():
    from krypteach.engine.state import Deal
    deals = _kryp_deals()  # the deck is A♠ A♥ A♦ A♣ 2♠ ... K♣ twice over; seat 0 sits left of dealer 1
    assert len(deals) == 9
    assert deals[0] == Deal((tuple(parse_cards("AS AD 2S 2D")), tuple(parse_cards("AH AC 2H 2C"))),
                            tuple(parse_cards("3S 3H 3D 3C")), ())
    # the four queens laid on the table go to klädda högen
    assert deals[3] == Deal((tuple(parse_cards("10S 10D JS JD")), tuple(parse_cards("10H 10C JH JC"))),
                            (), tuple(parse_cards("QS QH QD QC")))
    assert deals[8] == Deal((tuple(parse_cards("QS QD KS KD")), tuple(parse_cards("QH QC KH KC"))), (), ())
    three = _kryp_deals(Rules(players=3), 2)[0]
    assert three.hands == (tuple(parse_cards("AS AC 2D 3H")), tuple(parse_cards("AH 2S 2C 3D")),
                           tuple(parse_cards("AD 2H 3S 3C")))


def test_a_krypkasino_deck_has_every_card_twice():
    from krypteach.engine.cards import full_deck
    from krypteach.engine.games.krypkasino import KrypkasinoGame
    game = KrypkasinoGame(Rules())
    game.check_deck(full_deck() * 2)
    with pytest.raises(ValueError, match=r"^a deck must have 104 cards \(two decks\), got 52$"):
        game.check_deck(full_deck())
    with pytest.raises(ValueError, match=r"^every card must appear exactly twice in the deck; wrong count for KD, AS$"):
        game.check_deck([*full_deck()[1:], *full_deck(), Card("KD")])  # A♠ once, K♦ three times (in the order first seen)


def test_krypkasino_refuses_bad_deals_and_says_which():
    from krypteach.engine.games.krypkasino import KrypkasinoGame
    from krypteach.engine.state import Deal
    KrypkasinoGame(Rules()).check_deals(_kryp_deals(), 1)
    deals = _kryp_deals()
    d = deals[2]
    deals[2] = Deal((d.hands[0][:3], d.hands[1]), d.table, d.aside)
    assert _kryp_refused(deals) == "deal 2: every one of 2 seats must get 4 cards"
    deals = _kryp_deals()
    deals[2] = Deal(deals[2].hands + ((),), deals[2].table, deals[2].aside)
    assert _kryp_refused(deals) == "deal 2: every one of 2 seats must get 4 cards"
    deals = _kryp_deals()
    d = deals[1]
    deals[1] = Deal(d.hands, d.table[:3], d.aside)
    assert _kryp_refused(deals) == "deal 1: 4 cards must be laid on the table (table + aside), got 3"
    deals = _kryp_deals()
    d = deals[3]
    deals[3] = Deal(d.hands, d.aside[:1], d.aside[1:])  # a queen left on the table
    assert _kryp_refused(deals) == ("deal 3: face cards laid on the table go aside (klädda högen), "
                                    "other cards stay")
    deals = _kryp_deals()
    d = deals[1]
    deals[1] = Deal(d.hands, d.table[:3], d.table[3:])  # a six set aside
    assert _kryp_refused(deals) == ("deal 1: face cards laid on the table go aside (klädda högen), "
                                    "other cards stay")
    deals = _kryp_deals()
    d = deals[8]
    deals[8] = Deal((d.hands[0][:3] + (Card("AS"),), d.hands[1]), d.table, d.aside)
    assert _kryp_refused(deals) == "every card must appear exactly twice in the deck; wrong count for AS, KD"


# --- Krypkasino's game object: its capture cache, tabbe på, a refusal's count -------------------

def test_the_capture_cache_is_kept_apart_per_ace_rule_and_capture_mode():
    """KrypkasinoGame caches capture results by the ace rule and the capture mode; rule sets used
    one after the other in one process (a lesson's variant lab) must not get each other's answers
    (``__init__`` mutants 3 and 4 shared one cache)."""
    def moves(table, hand, **options):
        return sorted(map(str, Giv.from_position([hand, ["4H", "5C"]], table, rules=Rules(**options)).legal_moves()))

    for _ in range(2):  # each asked after the other has filled its cache
        assert moves(["5C", "9D"], ["AS", "2C"]) == ["AS:5C+9D"]             # the ace counts 14: a tabbe
        assert moves(["5C", "9D"], ["AS", "2C"], ace="1") == ["2C", "AS"]     # the ace counts 1: no capture
        table, hand = ["KS", "8S", "8D", "JH", "7S"], ["8C", "2C"]
        assert moves(table, hand) == ["2C", "8C:8S+8D"]                        # take all you can: both eights
        assert moves(table, hand, capture="free") == ["2C", "8C", "8C:8D", "8C:8S", "8C:8S+8D"]


def test_tabbe_pa_names_the_ranks_that_would_make_a_tabbe():
    """``Giv.tabbe_pa()`` (the game table's "tabbe på" line) asks the game (``tabbe_pa`` mutants
    1, 2 and 4 broke it, and no test asked)."""
    g = Giv.from_position([["2C", "3C"], ["4H", "5C"]], ["5C", "9D"])
    assert g.tabbe_pa() == [1] and g.game.tabbe_pa(parse_cards("5C 9D")) == [1]  # an ace, counting 14
    assert Giv.from_position([["2C", "3C"], ["4H", "5C"]], ["5C", "9D"], rules=Rules(ace="1")).tabbe_pa() == []
    assert g.game.tabbe_pa(parse_cards("2C 4D")) == [6] and g.game.tabbe_pa(parse_cards("9D")) == [9]


def test_a_refused_deal_counts_the_table_and_the_aside_together():
    """``check_deals`` mutant 36 (``table - aside`` in the message): a deal with face cards aside
    and one card too many on the table says it got 5."""
    from krypteach.engine.state import Deal
    deals = _kryp_deals()
    d = deals[3]  # the four queens aside, nothing on the table
    deals[3] = Deal(d.hands, parse_cards("2C"), d.aside)
    assert _kryp_refused(deals) == "deal 3: 4 cards must be laid on the table (table + aside), got 5"


# --- a move's text: what is refused, and how (moves.py ``Move.parse``, ``BuildMove.parse``, ``__ne__``) ---

_NOT_A_CARD = ("is not a card: write rank A 2 3 4 5 6 7 8 9 10 J Q K then suit S H D C (or ♠ ♥ ♦ ♣), e.g. 10D "
               "or A♠")


@pytest.mark.parametrize(("text", "said"), [
    ("", "'' is not a move: write a card (creep) or card:taken+cards, e.g. 9H:2C+7D"),
    ("   ", "'   ' is not a move: write a card (creep) or card:taken+cards, e.g. 9H:2C+7D"),
    (5, "5 is not a move: write a card (creep) or card:taken+cards, e.g. 9H:2C+7D"),
    ("ZZ", f"'ZZ' is not a move ('ZZ' {_NOT_A_CARD}); write e.g. 7H or 9H:2C+7D"),
    ("9H:ZZ", f"'9H:ZZ' is not a move ('ZZ' {_NOT_A_CARD}); write e.g. 7H or 9H:2C+7D"),
    ("5H>x:4S", "'5H>x:4S' is not a move ('x' is not a build value); a build is written e.g. 5H>9:4S"),
    ("5H>9:ZZ", f"'5H>9:ZZ' is not a move ('ZZ' {_NOT_A_CARD}); a build is written e.g. 5H>9:4S"),
    ("5H>9:", "'5H>9:' is not a move (a build lays the card on table cards: name them, e.g. "
              "Move.build('5H', ['4S'], 9)); a build is written e.g. 5H>9:4S"),
    ("5H>9:4S:2C", f"'5H>9:4S:2C' is not a move ('4S:2C' {_NOT_A_CARD}); a build is written e.g. 5H>9:4S"),
    ("5H>>9:4S", "'5H>>9:4S' is not a move ('>9' is not a build value); a build is written e.g. 5H>9:4S"),
], ids=["empty", "blank", "not-text", "not-a-card", "taken-not-a-card", "value", "build-taken", "build-nothing",
        "two-colons", "two-arrows"])
def test_a_bad_move_text_is_refused_saying_what_is_wrong(text, said):
    from krypteach.engine.moves import MoveParseError
    with pytest.raises(MoveParseError) as e:
        Move.parse(text)
    assert str(e.value) == said


def test_build_moves_differ_by_value_and_from_anything_else():
    from krypteach.engine.moves import BuildMove
    nine = BuildMove.parse("5H>9:4S")
    assert not (nine != BuildMove.parse("5H>9:4S")) and nine != BuildMove.parse("5H>10:4S")
    assert nine != Move.parse("5H:4S") and nine != "5H>9:4S" and nine.__ne__("5H>9:4S") is NotImplemented
    assert nine.__ne__(BuildMove.parse("5H>9:4S")) is False
    assert nine != BuildMove.parse("6H>9:3S") and not nine == BuildMove.parse("6H>9:3S")  # same value, other cards


def test_a_turn_made_by_hand_keeps_every_field_it_is_given():
    from krypteach.engine.state import Turn

    t = Turn(1, Move.parse("9C:9S"), tabbe=1, dukning=0, cancelled=1, tabbe_pa=(9,), dealt=True, sweep=tuple(parse_cards("5D")))
    assert (t.player, t.move, t.tabbe, t.dukning, t.cancelled, t.tabbe_pa, t.dealt, t.sweep) == \
        (1, Move.parse("9C:9S"), 1, 0, 1, (9,), True, tuple(parse_cards("5D")))
    assert t != Turn(1, Move.parse("9C:9S"), tabbe=1, cancelled=1, tabbe_pa=(9,), dealt=True, sweep=tuple(parse_cards("5D")))
    assert t != Turn(1, Move.parse("9C:9S"), tabbe=1, dukning=0, cancelled=1, tabbe_pa=(9,), dealt=True)
