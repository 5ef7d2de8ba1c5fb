"""The exact search of a classic Kasino (or avig kasino) endgame: two players, every card
known (the last utdelning, stock empty), searched to the end of the giv.

Alpha-beta minimax of one seat's gain (:func:`~krypteach.bots.kasino.kasino_utility`, the
giv's scores at its end) with

- a *transposition table*: the same position reached by moves in another order (two trails
  swapped, two captures of different cards) is searched once. A position is the two hands,
  the table (a set: the order of its items changes no move), the player to move, the last
  capturer, and what the piles so far count for the score (their cards, spades and card
  points, the tabbar), not which cards they hold;
- *move ordering*: the move that was best in the position before (from the table), then the
  captures that take the most (in avig kasino the least), builds, trails last.

The table lives as long as one :class:`KasinoEndgame` (one decision of the expert or of the
coach's review), so a result never depends on what was searched before it. Once its budget
of positions is spent (:attr:`KasinoEndgame.exhausted`) nothing it gives is exact, its table
neither: the callers drop its values and sample instead.

The rules are the engine's: moves come from :meth:`Giv.legal_moves`, are played with
:meth:`Giv.push` and taken back with :meth:`Giv.pop`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.cards import Card
from ..engine.game import Giv
from ..engine.games.kasino import KASINO_POINTS
from ..engine.moves import Move
from .steps import Steps, run_steps

__all__ = ["KasinoEndgame", "EXACT_PIECE"]

#: the search yields (:mod:`~krypteach.bots.steps`) after this many positions
EXACT_PIECE = 128

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: whether each card is a spade
SPADE = tuple(c % 4 == 0 for c in range(52))
#: a card's worth to the greedy roll-outs (bots.kasino) and to this search's move order: its
#: points, and its share of "most cards" and "most spades" at a fixed guess
FIXED_VALUE = tuple(KASINO_POINTS[c] + 0.07 + (0.25 if SPADE[c] else 0.0) for c in range(52))


class KasinoEndgame:
    """One exact search of ``seat``'s gain from two-player positions of ``g``'s giv with every
    card known; ``budget`` positions at most in all (then :attr:`exhausted`, and the values it
    gives are not exact). Search several positions of one giv with one instance (the moves of
    one decision): they share the transposition table.

    >>> from krypteach import Giv, Rules
    >>> g = Giv.from_position([["10D", "5C"], ["3H", "4H"]], ["6S", "4D", "KC"], rules=Rules(game="kasino"))
    >>> from krypteach.bots.kasino import kasino_utility
    >>> solver = KasinoEndgame(g, 0, budget=10_000, utility=kasino_utility)
    >>> values = {str(m): solver.value_of(m) for m in g.legal_moves()}
    >>> max(values, key=values.get), solver.exhausted
    ('10D:4D+6S', False)
    """

    def __init__(self, g: Giv, seat: int, budget: int, utility: Callable[[Giv, int], float]) -> None:
        self.g = g
        self.seat = seat
        self.left = budget
        self.positions = 0
        self._utility = utility  # the seat's gain (bots.kasino.kasino_utility)
        self._sign = -1.0 if g.rules.lowest_wins else 1.0
        #: position -> (value, exact / lower bound / upper bound, the best move found)
        self._table: dict[tuple[Any, ...], tuple[float, int, Move | None]] = {}
        #: (player, hand, table) -> the legal moves in the search's order
        self._legal: dict[tuple[Any, ...], list[Move]] = {}
        #: what the piles count at the giv's end -> the seat's gain
        self._ends: dict[tuple[Any, ...], float] = {}
        p0, p1 = g.piles
        # what the piles count: cards of seat 0 and of seat 1, their spades, seat 0's card points less seat 1's
        self._counts = [len(p0), len(p1), sum([SPADE[c] for c in p0]), sum([SPADE[c] for c in p1]),
                        sum([KASINO_POINTS[c] for c in p0]) - sum([KASINO_POINTS[c] for c in p1])]

    @property
    def exhausted(self) -> bool:
        """The budget ran out: the values given since are not exact."""
        return self.left < 0

    def value_of(self, move: Move) -> float:
        """``move``'s exact value for the seat (its gain at the giv's end), played now."""
        return run_steps(self.value_of_steps(move))

    def value_of_steps(self, move: Move) -> Steps[float]:
        """:meth:`value_of` a step at a time: a step is :data:`EXACT_PIECE` positions."""
        undo = self._push(move)
        try:
            return (yield from self.search(-math.inf, math.inf))
        finally:
            self._pop(undo)

    def search(self, alpha: float, beta: float) -> Steps[float]:
        """The seat's gain from the giv's position, alpha-beta in (``alpha``, ``beta``), fail-soft."""
        g = self.g
        if g.is_over:
            return self._end_value()
        self.left -= 1
        if self.left < 0:
            return self._utility(g, self.seat)  # out of budget: a guess
        self.positions += 1
        if self.positions % EXACT_PIECE == 0:
            yield
        key = self._key()
        entry = self._table.get(key)
        first = None
        if entry is not None:
            v, kind, first = entry
            if kind == _EXACT:
                return v
            if kind == _LOWER:
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                if v <= alpha:
                    return v
                beta = min(beta, v)
        a0, b0 = alpha, beta
        # our side maximizes our gain in kasino, minimizes it in avig kasino
        maximize = (self._sign > 0) == (g.turn == self.seat)
        best = -math.inf if maximize else math.inf
        best_move = None
        moves = self._moves()
        if first is not None and first != moves[0]:
            moves = [first, *(m for m in moves if m != first)]
        for m in moves:
            undo = self._push(m)
            v = yield from self.search(alpha, beta)
            self._pop(undo)
            if maximize:
                if v > best:
                    best, best_move = v, m
                alpha = max(alpha, v)
            else:
                if v < best:
                    best, best_move = v, m
                beta = min(beta, v)
            if alpha >= beta:
                break
        kind = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        self._table[key] = (best, kind, best_move)
        return best

    # --- the position -----------------------------------------------------------------
    def _push(self, move: Move) -> tuple[int, ...]:
        """Play ``move``; the piles' counts follow it (the last sweep too). Returns what :meth:`_pop` takes back."""
        g = self.g
        p = g.turn
        undo = tuple(self._counts)
        t = g.push(move)
        if move.capture is not None and move.value is None:
            self._add(p, (move.card, *move.capture))
        if t.sweep and g.last_capturer is not None:
            self._add(g.last_capturer, t.sweep)
        return undo

    def _add(self, seat: int, cards: Sequence[Card]) -> None:
        counts = self._counts
        counts[seat] += len(cards)
        counts[2 + seat] += sum([SPADE[c] for c in cards])
        counts[4] += (1 if seat == 0 else -1) * sum([KASINO_POINTS[c] for c in cards])

    def _pop(self, undo: tuple[int, ...]) -> None:
        self.g.pop()
        self._counts[:] = undo

    def _key(self) -> tuple[Any, ...]:
        g = self.g
        h0, h1 = g.hands
        return (tuple(sorted(h0)), tuple(sorted(h1)), frozenset(g.table), g.turn, g.last_capturer,
                *self._counts, tuple(g.marks), tuple(g.tabbar))

    def _moves(self) -> list[Move]:
        """The legal moves (the engine's) in the search's order: the same hand, table and player
        reached with other piles ask the engine once."""
        g = self.g
        key = (g.turn, tuple(sorted(g.hands[g.turn])), frozenset(g.table))
        known = self._legal.get(key)
        if known is None:
            known = self._legal[key] = self._ordered(g.legal_moves())
        return known

    def _ordered(self, moves: list[Move]) -> list[Move]:
        value, sign = FIXED_VALUE, self._sign

        def rank(m: Move) -> float:
            if m.capture is not None and m.value is None:  # a capture: the most first (avig: the least)
                return -100.0 - sign * (value[m.card] + sum([value[c] for c in m.capture]))
            if m.value is not None:  # a build
                return -50.0
            return sign * value[m.card]  # a trail: the least worth first (avig: the most)

        return sorted(moves, key=rank)

    def _end_value(self) -> float:
        """The seat's gain at the giv's end: the scores depend on what the piles count, the marks
        and the last capturer (sistan), so equal counts are scored once."""
        g = self.g
        key = (*self._counts, tuple(g.marks), tuple(g.tabbar), g.last_capturer)
        v = self._ends.get(key)
        if v is None:
            v = self._ends[key] = self._utility(g, self.seat)
        return v
