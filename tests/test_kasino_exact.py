"""The exact search of a classic Kasino / avig kasino endgame (krypteach.bots.kasino_exact, issue 22):
its values are plain minimax's, with its transposition table and its move order; it keeps within
its budget; and the coach's hard case (a learner who lays out every card) is solved exactly."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from krypteach import Giv, Rules
from krypteach.bots.expert import ExpertBot
from krypteach.bots.kasino import REVIEW_EXACT_BUDGET, kasino_utility, kasino_world
from krypteach.bots.kasino_exact import KasinoEndgame
from krypteach.engine.builds import parse_table
from krypteach.engine.cards import Card

from .test_bots import minimax

K = Rules(game="kasino")
AVIG = Rules.preset("avig-kasino")


def solved(g: Giv, seat: int, budget: int = 1_000_000) -> tuple[dict[str, float], KasinoEndgame]:
    solver = KasinoEndgame(g, seat, budget, kasino_utility)
    return {str(m): solver.value_of(m) for m in g.legal_moves()}, solver


def oracle(g: Giv, seat: int) -> dict[str, float]:
    out = {}
    for m in g.legal_moves():
        g.push(m)
        out[str(m)] = minimax(g, seat, kasino_utility)
        g.pop()
    return out


def test_a_known_position_by_hand():
    """10♦ takes 4♦+6♠ (storan, a spade) and 5♣ is left for the end; the exact values say so."""
    g = Giv.from_position([["10D", "5C"], ["3H", "4H"]], parse_table("6S 4D KC"), rules=K)
    values, solver = solved(g, 0)
    assert values == oracle(g, 0)
    assert max(values, key=values.__getitem__) == "10D:4D+6S" and not solver.exhausted


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(range(52)), st.integers(2, 3), st.integers(0, 5), st.sampled_from([K, AVIG]),
       st.integers(0, 1), st.integers(0, 1))
def test_every_moves_value_is_plain_minimaxs(deck, hand, table, rules, turn, seat):
    """Random endgames (builds, tabbar, sistan, most cards and spades all decided in the search):
    the transposition table and the move order change no value, for either seat, in both games."""
    cards = [Card(c) for c in deck]
    g = Giv.from_position([cards[:hand], cards[hand:2 * hand]], cards[2 * hand:2 * hand + table], rules=rules,
                          turn=turn)
    values, solver = solved(g, seat)
    assert values == oracle(g, seat)
    assert not solver.exhausted and solver.positions > 0


def test_a_position_reached_twice_is_searched_once():
    """Two trails in either order make the same position: the table answers the second time."""
    g = Giv.from_position([["2C", "3D", "KH"], ["4H", "5S", "QD"]], parse_table("9C"), rules=K)
    values, solver = solved(g, 0)
    plain = KasinoEndgame(g, 0, 1_000_000, kasino_utility)
    plain._table = _Forgetful()
    assert {str(m): plain.value_of(m) for m in g.legal_moves()} == values
    assert solver.positions < plain.positions


class _Forgetful(dict):
    """A transposition table that keeps nothing."""

    def __setitem__(self, key, value):
        pass


def test_the_budget_is_kept_and_said():
    g = Giv.from_position([["2C", "3D", "KH"], ["4H", "5S", "QD"]], parse_table("9C AS"), rules=K)
    solver = KasinoEndgame(g, 0, 10, kasino_utility)
    for m in g.legal_moves():
        solver.value_of(m)
    assert solver.exhausted and solver.positions == 10


def _laid_out_every_card(seed: int) -> tuple[Giv, int]:
    """A classic Kasino giv against the careful player in which seat 0 only ever lays out a card
    (trails) when it may; the giv at seat 0's first decision of the last utdelning."""
    from krypteach.bots import make_bot

    g = Giv(Rules.preset("kasino"), seed=seed)
    bot = make_bot("careful", seed=seed, rules=g.rules)
    while True:
        if g.turn == 0:
            moves = g.legal_moves()
            if g.stock_size == 0 and len(moves) > 1:
                return g, len(moves)
            trails = [m for m in moves if m.capture is None and m.value is None]
            g.push(trails[0] if trails else moves[0])
        else:
            g.push(bot.choose(g.observation(1)))


@pytest.mark.parametrize("seed", [2, 6])
def test_the_last_utdelning_of_a_learner_who_lays_out_every_card_is_solved_exactly(seed):
    """The coach's hard case: many loose cards on the table, dozens of builds to choose from. The
    review's search solves it exactly within its budget, and the best move's value is the one
    the expert finds for it."""
    g, n = _laid_out_every_card(seed)
    obs = g.observation(0)
    method, values = ExpertBot(seed=0).every_move(obs)
    assert method == "exact" and len(values) == n
    hands = [list(obs.hand), list(obs.unseen())]
    solver = KasinoEndgame(kasino_world(obs, hands, []), 0, REVIEW_EXACT_BUDGET, kasino_utility)
    best = max(solver.value_of(m) for m in g.legal_moves())
    assert math.isclose(-min(v[0] for v in values.values()), best - kasino_utility(g, 0))
