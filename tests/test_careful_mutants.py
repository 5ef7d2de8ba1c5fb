"""The careful bot's use of the rules, with concrete cards: each test pins what a mutation of
``krypteach/bots/careful.py`` changed without another test noticing (docs/mutation/engine.md)."""

from __future__ import annotations

from krypteach import Giv, Rules
from krypteach.bots.careful import CarefulBot


def _why(hands, table, rules=None):
    g = Giv.from_position(hands, table, rules=rules or Rules())
    move, why = CarefulBot(seed=1).explain(g.observation(g.turn))
    return str(move), why


def test_a_creep_that_takes_nothing_says_so():
    assert _why([["5H", "6C", "8D"], ["2C", "3H", "4D"]], ["9S", "KC"]) == (
        "6C", "6♣ creeps. You take no points. Expected 0.0 points for you against 0.0 for 8♦ creeps.")


def test_on_an_empty_table_the_creep_is_said_first_then_what_it_gives_away():
    move, why = _why([["2S", "AH", "10D"], ["2C", "3H", "4D"]], [])
    assert move == "10D"
    assert why.startswith("10♦ creeps. The table is empty, so you creep. You get rid of 10♦ (3 points) without "
                          "taking it. Seat 1 gets tabbe på tio")


def test_without_tvangstabbe_a_creep_sets_up_no_tabbe_for_the_next_player():
    """The next player's forced tabbe is weighed only where the rules have tvångstabbe (and the
    deal goes on): with ``forced_tabbe=False`` the 6♣ creep on 3♠ leaves nothing to fear."""
    hands, table = [["5H", "6C", "8D"], ["2C", "3H", "4D"]], ["3S"]
    assert "tabbe på nio" in _why(hands, table)[1]
    assert _why(hands, table, Rules(forced_tabbe=False)) == (
        "6C", "6♣ creeps. You take no points. Expected 0.0 points for you against 0.0 for 8♦ creeps.")
