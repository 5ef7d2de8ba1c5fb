"""The classic Kasino puzzle prover's rules, each pinned with concrete cards. Every test here kills
mutants of ``krypteach/teaching/puzzles/kasino.py`` that the other tests let live (docs/testing.md,
"Mutation testing"; the run and its survivors: docs/mutation/kasino-puzzles.md)."""

from __future__ import annotations

from krypteach import Move, Rules, parse_cards
from krypteach.engine.builds import parse_table
from krypteach.engine.cards import Card
from krypteach.teaching.puzzles import Puzzle, judge, solve
from krypteach.teaching.puzzles.kasino import resolve_selection

P = parse_cards
KASINO = Rules(game="kasino")


def puzzle(kind, hand, table, next_hand, **kw):
    return Puzzle("t", kind, "easy", P(hand), parse_table(table), next_hand=P(next_hand), rules=kw.pop("rules", KASINO),
                  **kw)


# --- an answer given as a selection: which of your moves it stands for -------------------------

def test_a_selection_stands_for_your_own_moves_with_those_cards():
    # you own the build of 7 (2♠+5♦), so this turn you must take it or raise it. 7♦ with the loose 5♠
    # would be a build of 12 (you hold Q♠) for a player without that duty, but it is no move of yours:
    # the selection stays what it is, and the page says why it is no move
    p = puzzle("kasino-take-or-raise", "7D 5C QS", "[7:2S+5D@0] 5S", "JC AS KH", last_capturer=1)
    assert resolve_selection(p, Move(Card("7D"), P("5S"))) == ["7D:5S"]
    j = judge(p, Move(Card("7D"), P("5S")))
    assert not j.ok
    assert j.why.startswith("5♠ is not a träff for your 7♦: take cards of its rank, groups that add up to its "
                            "value, and builds of its value. You own a build of 7 (2♠+5♦): take it or raise it "
                            "this turn"), j.why
    # the same cards taking the build itself: a capture and a raise are both meant
    assert resolve_selection(p, Move(Card("7D"), P("2S 5D"))) == ["7D:2S+5D"]
    assert resolve_selection(p, Move(Card("5C"), P("2S 5D"))) == ["5C>12:2S+5D"]


def test_a_build_or_a_trail_given_as_a_move_is_that_move_alone():
    p = puzzle("kasino-safe-build", "AH 3H 6S", "3S 4C JS", "3D AD 2C")
    # a selection of 3♥ and 3♠ stands for the capture and the build of 6 alike
    assert resolve_selection(p, Move(Card("3H"), P("3S"))) == ["3H:3S", "3H>6:3S"]
    # written as the build, it is the build; written as a trail, the trail (3♥ could take 3♠)
    assert resolve_selection(p, "3H>6:3S") == ["3H>6:3S"]
    assert resolve_selection(p, "3H") == ["3H"]
    assert resolve_selection(p, Move(Card("3H"), None)) == ["3H"]


# --- which build you can make: your moves as seat 0, the owner's duty included -----------------

def test_the_builds_to_choose_from_are_your_own_under_your_duty():
    # your build of 9 on the table: this turn you must take it or add to it, so the two builds you can
    # make both add to it (7♣ with 2♠; 2♥ with 2♠ and 5♦); 7♣ on 2♠ alone and 2♥ on 5♦ are not yours to make
    p = puzzle("kasino-steal", "7C 2H 9D", "[9:4S+5H@0] 5D 2S", "3D 9C 2C")
    s = solve(p)
    assert s.options == {"7C>9:2S+4S+5H": ["9C:2S+4S+5H+7C"], "2H>9:2S+4S+5H+5D": ["9C:2S+2H+4S+5H+5D"]}
    # your opponent's build of 8: you may add to it (and own it) or build 8 elsewhere; it is your
    # opponent whom the duty binds, not you
    q = puzzle("kasino-steal", "3H 6S 8H", "[8:3D+5C@1] 2S 4D", "KD 8C AH")
    assert set(solve(q).options) == {"6S>8:2S", "6S>8:2S+3D+5C"}


def test_a_build_your_opponent_could_take_is_safe_while_their_own_build_binds_them():
    # your opponent owns the build of 10 and holds 10♥: this turn they must take it or raise it, so their
    # 7♦ cannot take a build of 7 you make now; every build you can make is safe
    p = puzzle("kasino-safe-build", "2D 7S 9H 4H", "[10:4C+6C@1] 5S 3H", "7D 10H KC")
    s = solve(p)
    assert s.options == {"2D>7:5S": [], "4H>7:3H": [], "4H>9:5S": []}
    assert s.answers == {"2D>7:5S", "4H>7:3H", "4H>9:5S"} and not s.unique
