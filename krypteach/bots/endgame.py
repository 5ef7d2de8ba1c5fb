"""Exact play of the last utdelning of a two-player giv, when every card is known.

In the last deal of a two-player giv the stock is empty, so a player who has
counted the cards knows the opponent's hand exactly. :func:`solve_endgame`
searches every line of play to the end (minimax, memoized on the position)
and returns, for each legal first move, the final score difference it leads
to with best play by both sides: the mover's points minus the opponent's
points from here on (card points taken, tabbe marks and dukningar, the last
capturer's sweep of the table and the klädda högen). Turning marks down does
not change a difference, so it is left out. Lower is better for the mover.

>>> from krypteach import Rules, parse_cards
>>> values = solve_endgame(Rules(), parse_cards("5H 9C"), parse_cards("4D 3C"), parse_cards("4S"))
>>> {str(m): v for m, v in values.items()}
{'5H': 1, '9C': -1}
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import Card
from ..engine.moves import Move, legal_moves, table_after
from ..engine.rules import Rules

__all__ = ["solve_endgame", "best_moves", "endgame_line"]


_INF = 10 ** 6


def _cls(c: Card) -> int:
    """Cards that play the same: each scoring card is itself, a pointless card only its rank."""
    return int(c) if c.points else -c.rank


def _pts(cards) -> int:
    return sum(Card(c).points for c in cards)


def solve_endgame(rules: Rules, mover_hand: Sequence[Card], other_hand: Sequence[Card], table: Sequence[Card], *,
                  kladda: Sequence[Card] = (), last_capturer: str | None = None, prev_moved: bool = True,
                  next_table: Sequence[Card] | None = None, next_leader_hand: Sequence[Card] | None = None,
                  merge_suits: bool = False, stats: dict | None = None) -> dict[Move, int]:
    """Every legal first move of the player to move, with the exact final score
    difference (mover minus opponent, from here on) under best play by both.

    ``last_capturer`` is ``"mover"``, ``"other"`` or ``None`` (nobody has
    captured yet in this giv); ``prev_moved`` is False only when no move has
    been made in the giv (then a tabbe gives nobody a dukning). Every card must
    be known: this is the last utdelning, with nothing left in the stock.

    With ``next_table`` and ``next_leader_hand`` the search stops at the end of
    *this* utdelning instead (used by the expert bot on a determinization): the
    next deal lays ``next_table`` on the table and the player who did not move
    last leads with ``next_leader_hand``; if a card of it takes the whole table
    (tvångstabbe) that tabbe is counted, and nothing after it.

    The search is alpha-beta (negamax) with a table of positions already
    searched; every first move still gets its exact value. ``merge_suits``
    (for the expert bot's speed, not for proofs) searches only one of several
    moves below the first that differ just in the suits of pointless cards.
    ``stats["nodes"]`` counts the positions searched.
    """
    if rules.players != 2:
        raise ValueError("the exact endgame is for two players")
    tp, dp = rules.tabbe_points, rules.dukning_points
    kladda_pts = _pts(kladda)
    lcp = rules.last_capture_point
    memo: dict[tuple, tuple[int, int]] = {}
    horizon = next_table is not None
    nt = tuple(Card(c) for c in next_table or ())
    leader = tuple(sorted(set(Card(c) for c in next_leader_hand or ())))

    def deal_end(tab: tuple) -> int:
        """Value, for the player who moved last, of the next deal's first move (a forced tabbe or nothing)."""
        full = tab + nt
        if not full or not rules.forced_tabbe:
            return 0
        from ..engine.captures import can_take_whole_table

        costs = [c.points + _pts(full) + (2 if (rules.dubbeltabbe and len(full) == 1 and full[0] == c) else 1) * (tp - dp)
                 for c in leader if can_take_whole_table(c, full, rules)]
        return -min(costs) if costs else 0

    def moves_with_delta(hm: tuple, ho: tuple, tab: tuple, lc: int, prev: bool, merge: bool):
        """(move, immediate difference for the mover, child key or None at the end)."""
        seen = set()
        for m in legal_moves(hm, tab, rules):
            if merge:
                key = (_cls(m.card), None if m.capture is None else tuple(sorted(map(_cls, m.capture))))
                if key in seen:
                    continue
                seen.add(key)
            hm2 = list(hm)
            hm2.remove(m.card)
            hm2t = tuple(hm2)
            if m.capture is None:
                d = 0
                tab2 = tuple(sorted(tab + (m.card,)))
                lc2 = lc
            else:
                d = m.card.points + _pts(m.capture)
                rest = list(tab)
                for c in m.capture:
                    rest.remove(c)
                tab2 = tuple(rest)
                lc2 = 1
                if not rest:
                    k = 2 if (rules.dubbeltabbe and len(tab) == 1 and tab[0] == m.card) else 1
                    d += k * tp - (k * dp if prev else 0)
            if not hm2t and not ho and horizon:  # this deal ends: look at the next deal's first move
                yield m, d + deal_end(tab2), None
            elif not hm2t and not ho:  # the giv ends: the last capturer sweeps
                if lc2:
                    sweep = _pts(tab2) + kladda_pts + lcp
                    d += sweep if lc2 == 1 else -sweep
                yield m, d, None
            else:
                # the child is seen from the opponent: last capturer flips side
                yield m, d, (ho, hm2t, tab2, -lc2)

    nodes = [0]

    def gain(hm: tuple, ho: tuple, tab: tuple, lc: int, alpha: int, beta: int) -> int:
        """Negamax with alpha-beta: the best of (the other's result minus the mover's), i.e. minus the value."""
        key = (hm, ho, tab, lc)
        entry = memo.get(key)
        if entry is not None:
            v, flag = entry
            if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
                return v
            if flag > 0:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        nodes[0] += 1
        a0 = alpha
        best = -_INF
        children = sorted(moves_with_delta(hm, ho, tab, lc, True, merge_suits), key=lambda x: x[1])
        for _, d, child in children:
            r = -d
            sc = r if child is None else r - gain(*child, r - beta, r - alpha)
            if sc > best:
                best = sc
                if sc > alpha:
                    alpha = sc
                    if alpha >= beta:
                        break
        memo[key] = (best, -1 if best <= a0 else (1 if best >= beta else 0))
        return best

    lc0 = {"mover": 1, "other": -1, None: 0}[last_capturer]
    hm0 = tuple(sorted(Card(c) for c in mover_hand))
    ho0 = tuple(sorted(Card(c) for c in other_hand))
    tab0 = tuple(sorted(Card(c) for c in table))
    if len(hm0) not in (len(ho0), len(ho0) + 1) or not hm0:
        raise ValueError(f"the player to move must hold as many cards as the opponent or one more "
                         f"(here {len(hm0)} and {len(ho0)})")
    out: dict[Move, int] = {}
    for m, d, child in moves_with_delta(hm0, ho0, tab0, lc0, prev_moved, False):
        out[m] = d if child is None else d + gain(*child, -_INF, _INF)
    if stats is not None:
        stats["nodes"] = stats.get("nodes", 0) + nodes[0]
    return out


def best_moves(values: dict[Move, int]) -> list[Move]:
    """The moves with the lowest value (the best for the mover)."""
    low = min(values.values())
    return [m for m, v in values.items() if v == low]


def endgame_line(rules: Rules, mover_hand: Sequence[Card], other_hand: Sequence[Card], table: Sequence[Card], *,
                 kladda: Sequence[Card] = (), last_capturer: str | None = None, prev_moved: bool = True
                 ) -> list[tuple[int, Move, int]]:
    """A line of best play to the end: ``(side, move, value)`` where side 0 is the
    first mover, 1 the other, and value the exact outcome (that side's points
    minus the other's from that move on) of the move played.

    >>> from krypteach import parse_cards
    >>> [(side, str(m)) for side, m, _ in endgame_line(Rules(), parse_cards("9C"), parse_cards("AH"), parse_cards("4S 5D"))]
    [(0, '9C:4S+5D'), (1, 'AH')]
    """
    hands = [list(mover_hand), list(other_hand)]
    tab = list(table)
    lc = {"mover": 0, "other": 1, None: None}[last_capturer]
    side = 0
    prev = prev_moved
    line: list[tuple[int, Move, int]] = []
    while hands[side]:
        rel_lc = None if lc is None else ("mover" if lc == side else "other")
        vals = solve_endgame(rules, hands[side], hands[1 - side], tab, kladda=kladda, last_capturer=rel_lc, prev_moved=prev)
        m = best_moves(vals)[0]
        line.append((side, m, vals[m]))
        hands[side].remove(m.card)
        tab = table_after(tab, m)
        if m.capture is not None:
            lc = side
        prev = True
        side = 1 - side
    return line
