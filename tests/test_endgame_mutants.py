"""The exact endgame solver's shortcuts, checked against the plain search (docs/mutation/engine.md,
"The exact endgame: bots/endgame.py")."""

import gc
import random

import pytest

from krypteach import Giv, Rules
from krypteach.bots.endgame import endgame_line, solve_endgame
from krypteach.engine.cards import Card
from krypteach.engine.game import Deal, PositionError

from .test_bots import final_difference, minimax, random_endgame

DECK = [Card(r + s) for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split() for s in "CDHS"]  # one deck: no card has its twin


def test_merging_the_suits_of_pointless_cards_keeps_every_value_where_no_card_has_its_twin():
    """The expert's search (``merge_suits``) tries one of several moves below the first that differ only in
    the suits of pointless cards. Without twins (no dubbeltabbe to make) that loses nothing: every first
    move keeps its exact value, and the search visits fewer positions."""
    rng = random.Random(1)
    fewer = 0
    for _ in range(150):
        k = rng.choice([2, 3, 3, 4])
        cards = rng.sample(DECK, 2 * k + rng.randint(0, 4))
        mine, theirs, table = cards[:k], cards[k:2 * k], cards[2 * k:]
        for rules in (Rules(), Rules(capture="free")):
            plain, merged = {}, {}
            assert solve_endgame(rules, mine, theirs, table, stats=plain) == \
                solve_endgame(rules, mine, theirs, table, merge_suits=True, stats=merged), (mine, theirs, table)
            fewer += merged["nodes"] < plain["nodes"]
    assert fewer >= 30


@pytest.mark.parametrize("options", [
    {"last_capture_point": 1}, {"capture": "free"}, {"capture": "maximum"}, {"forced_tabbe": False},
    {"ace": "1"}, {"ace": "14hand"}, {"dubbeltabbe": False}, {"tabbe_points": 3, "dukning_points": -2},
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_solver_is_the_real_engines_search_under_each_rule_option(options):
    # the default rules are checked in tests/test_bots.py; these are the options the solver reads itself
    rules = Rules(**options)
    rng = random.Random(3)
    for _ in range(8):
        g = random_endgame(rng, 1, rules)
        # the same position solved under the default rules first: what the search keeps is kept per rule set
        solve_endgame(Rules(), g.hands[0], g.hands[1], g.table, kladda=g.kladda, previous_mover=1)
        values = solve_endgame(rules, g.hands[0], g.hands[1], g.table, kladda=g.kladda, previous_mover=1)
        assert set(values) == set(g.legal_moves())  # every legal first move, under these rules
        for m, v in values.items():
            g.play(m)
            assert v == minimax(g, 0, final_difference), (options, str(m), g.hands, g.table)
            g.pop()


def _at_the_next_deals_lead(g: Giv) -> bool:
    """Where the search to the end of this utdelning stops: once the next utdelning is dealt, or after the
    next deal's first move where that is a tvångstabbe (the leader takes the whole table as well as it can)."""
    if g.deal_index < 2:  # the next utdelning is not dealt yet
        return False
    if not g.turns[-1].dealt:  # the next deal's first move is made
        return True
    legal = g.legal_moves()
    return not (g.table and legal and all(m.capture is not None and len(m.capture) == len(g.table) for m in legal))


def _difference(g: Giv, me: int) -> int:
    scores = g.running_result().scores
    return scores[me] - scores[1 - me]


def test_searching_to_the_end_of_this_utdelning_counts_the_next_deals_tvangstabbe():
    """The expert's search stops at the end of an utdelning it is not the last of (``next_table``,
    ``next_leader_hand``): the next deal's first move counts only where it is a tvångstabbe."""
    deck = [Card(i) for i in range(52)] * 2
    rng = random.Random(5)
    tvangstabbar = 0
    for _ in range(60):
        rng.shuffle(deck)
        mine, other = rng.choice([(2, 2), (2, 1), (3, 3), (1, 1)])
        hands = [deck[:mine], deck[mine:mine + other]]
        table = deck[8:8 + rng.randrange(0, 3)]
        next_hands = [deck[12:15], deck[15:18]]
        next_table = deck[20:20 + rng.randrange(0, 3)]
        leader = 0 if mine == other else 1  # the player who did not move last
        g = Giv.from_state(Rules(), hands=hands, table=table, turn=0, dealer=1, previous_mover=1,
                           deals_to_come=[Deal(tuple(tuple(h) for h in next_hands), tuple(next_table), ())])
        values = solve_endgame(Rules(), hands[0], hands[1], table, previous_mover=1, next_table=next_table,
                               next_leader_hand=next_hands[leader])
        before = _difference(g, 0)
        for m, v in values.items():
            g.play(m)
            assert v == minimax(g, 0, _difference, _at_the_next_deals_lead) - before, \
                (str(m), hands, table, next_hands, next_table)
            g.pop()
        g2 = Giv.from_state(Rules(), hands=[[], []], table=[*table, *next_table], turn=leader, dealer=1,
                            previous_mover=1 - leader)
        g2.hands[leader] = list(next_hands[leader])
        tvangstabbar += any(len(m.capture or ()) == len(g2.table) for m in g2.legal_moves()) if g2.table else 0
    assert tvangstabbar >= 3



def test_each_value_of_the_line_of_best_play_is_the_real_engines_from_there():
    rng = random.Random(11)
    tabbar = 0
    for _ in range(25):
        try:
            g = random_endgame(rng, 1)
        except PositionError:  # (a card drawn three times from the double deck)
            continue
        for side, m, value in endgame_line(g.rules, g.hands[0], g.hands[1], g.table, kladda=g.kladda, previous_mover=1):
            me = g.turn
            assert me == side
            before = g.running_result().scores
            g.play(m)
            assert value == minimax(g, me, final_difference) - (before[me] - before[1 - me]), (str(m), g.hands, g.table)
            tabbar += g.turns[-1].tabbe > 0
    assert tabbar >= 5  # tabbar (and their dukningar) after the first move were among those checked


def test_the_exact_endgame_is_for_two_players():
    with pytest.raises(ValueError, match=r"^the exact endgame is for two players$"):
        solve_endgame(Rules(players=3), [Card(0)], [Card(1)], [Card(2)])



def test_a_position_whose_hands_cannot_follow_each_other_is_refused():
    with pytest.raises(ValueError, match=r"^the player to move must hold as many cards as the opponent or one more "
                                         r"\(here 1 and 3\)$"):
        solve_endgame(Rules(), [Card(0)], [Card(1), Card(2), Card(3)], [Card(4)])
    with pytest.raises(ValueError, match=r"\(here 0 and 0\)$"):
        solve_endgame(Rules(), [], [], [Card(4)])


def test_the_garbage_collector_is_on_again_after_a_search_and_the_positions_searched_add_up():
    assert gc.isenabled()
    stats: dict[str, int] = {}
    solve_endgame(Rules(), [Card(0), Card(9)], [Card(17), Card(30)], [Card(40)], stats=stats)
    once = stats["nodes"]
    solve_endgame(Rules(), [Card(0), Card(9)], [Card(17), Card(30)], [Card(40)], stats=stats)
    assert gc.isenabled() and once > 0 and stats["nodes"] == 2 * once
