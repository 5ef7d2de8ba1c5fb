"""Exact play of the last utdelning of a two-player giv, when every card is known.

In the last deal of a two-player giv the stock is empty, so a player who has
counted the cards knows the opponent's hand exactly. :func:`solve_endgame`
searches every line of play to the end (minimax, memoized on the position)
and returns, for each legal first move, the final score difference it leads
to with best play by both sides: the mover's points minus the opponent's
points from here on (card points taken, tabbe marks and dukningar, the last
capturer's sweep of the table and the klädda högen). Turning marks down does
not change a difference, so it is left out. Lower is better for the mover.

The search keeps a lean position (sorted hands and table as tuples), but what a
move is worth comes from the engine: the legal moves and the table they leave
(:mod:`krypteach.engine.moves`), the marks of a tabbe or dubbeltabbe, what they
give the taker and the previous mover, and how that counts for one side
(:mod:`krypteach.engine.turn`).

>>> from krypteach import Rules, parse_cards
>>> values = solve_endgame(Rules(), parse_cards("5H 9C"), parse_cards("4D 3C"), parse_cards("4S"))
>>> {str(m): v for m, v in values.items()}
{'5H': 1, '9C': -1}
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterable, Sequence
from typing import cast

from ..engine.capture_cache import pack, ranks_taking_whole_packed
from ..engine.cards import POINTS, Card
from ..engine.moves import Move, legal_moves, table_after
from ..engine.rules import Rules
from ..engine.turn import giv_scores, tabbe_marks, tabbe_score, team_relative

__all__ = ["solve_endgame", "best_moves", "endgame_line", "tabbe_values"]


_INF = 10 ** 6
_SIDE = {0: 1, 1: -1, None: 0}  # side 0 (to move), side 1 (the other), nobody -> the sign the search uses


def _cls(c: Card) -> int:
    """Cards that play the same: each scoring card is itself, a pointless card only its rank."""
    return int(c) if POINTS[c] else -((c >> 2) + 1)


def _pts(cards: Iterable[int]) -> int:  # cards, or the plain ints the search keeps
    return sum(POINTS[c] for c in cards)


def tabbe_values(rules: Rules) -> dict[int, tuple[int, int, int]]:
    """What a tabbe adds to the taker's score minus the opponent's (two players),
    by who moved just before it (``1``: the taker itself, ``-1``: the opponent,
    ``0``: nobody) and the marks it makes (index 1: a tabbe, 2: a dubbeltabbe),
    from the engine's :func:`~krypteach.engine.turn.tabbe_score` and
    :func:`~krypteach.engine.turn.team_relative`.

    >>> tabbe_values(Rules())
    {1: (0, 0, 0), -1: (0, 10, 20), 0: (0, 5, 10)}
    """
    known = _TABBE_VALUES.get(rules)
    if known is not None:
        return known
    out = {}
    for prev in (1, -1, 0):
        row = [0]
        for made in (1, 2):
            to_taker, to_previous = tabbe_score(rules, made)
            deltas = {0: to_taker, 1: 0}
            if prev:
                deltas[0 if prev == 1 else 1] += to_previous
            row.append(int(team_relative(rules, 0, deltas)))
        out[prev] = (row[0], row[1], row[2])
    _TABBE_VALUES[rules] = out
    return out


_TABBE_VALUES: dict[Rules, dict[int, tuple[int, int, int]]] = {}  # asked at every search


# Per rules and suit merging: {(hand, table): the moves of that hand at that table, each as
# (card points it takes, tabbe marks it makes, hand after, table after, captured)}, for the
# last card of a deal. Only the hand and the table decide these, so they are shared by
# every position with them in every search (a decision of the expert searches the same deal
# on many determinizations). Cards are plain ints here and the entries tuples: tuples of
# ints are not tracked by the garbage collector, which otherwise walked these caches at
# every full collection (measured: it tripled the expert's time per decision).
Expansion = tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], bool], ...]
_EXPANSIONS: dict[tuple[Rules, bool], dict[tuple[tuple[int, ...], tuple[int, ...]], Expansion]] = {}
#: the moves of the other positions, as (difference for the mover, card, capture) sorted by
#: the difference (the previous mover is always the opponent there); the hand and table a
#: move leaves are worked out only when it is searched: alpha-beta leaves many unsearched
InnerChildren = tuple[tuple[int, int, tuple[int, ...] | None], ...]
_INNER: dict[tuple[Rules, bool], dict[tuple[tuple[int, ...], tuple[int, ...]], InnerChildren]] = {}
_CACHE_LIMIT = 50_000  # entries per dict; a full dict is emptied


def _after(rules: Rules, hm: tuple[int, ...], tab: tuple[int, ...], m: Move) -> tuple[int, int, tuple[int, ...], tuple[int, ...], bool]:
    """What ``m`` does: (card points taken, tabbe marks, hand after, table after, captured)."""
    card = int(m.card)
    hm2 = list(hm)
    hm2.remove(card)
    if m.capture is None:
        return 0, 0, tuple(hm2), tuple(sorted((*tab, card))), False
    cards = cast(Sequence[Card], tab)  # (plain ints play as cards)
    rest = table_after(cards, m)  # keeps the table's (sorted) order
    made = 0 if rest else tabbe_marks(cards, m, rules)
    return POINTS[card] + _pts(m.capture), made, tuple(hm2), tuple(map(int, rest)), True


def _expansion(rules: Rules, cache: dict[tuple[tuple[int, ...], tuple[int, ...]], Expansion], merge: bool, hm: tuple[int, ...], tab: tuple[int, ...]) -> Expansion:
    key = (hm, tab)
    out = cache.get(key)
    if out is not None:
        return out
    entries = []
    seen = set()
    for m in legal_moves(cast(Sequence[Card], hm), cast(Sequence[Card], tab), rules):  # (ints play as cards)
        if merge:
            cls = (_cls(m.card), None if m.capture is None else tuple(sorted(map(_cls, m.capture))))
            if cls in seen:
                continue
            seen.add(cls)
        entries.append(_after(rules, hm, tab, m))
    out = tuple(entries)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = out
    return out


def solve_endgame(rules: Rules, mover_hand: Sequence[Card], other_hand: Sequence[Card], table: Sequence[Card], *,
                  kladda: Sequence[Card] = (), last_capturer: int | None = None, previous_mover: int | None = 1,
                  next_table: Sequence[Card] | None = None, next_leader_hand: Sequence[Card] | None = None,
                  merge_suits: bool = False, stats: dict[str, int] | None = None,
                  first_moves: Collection[Move] | None = None) -> dict[Move, int]:
    """Every legal first move of the player to move, with the exact final score
    difference (mover minus opponent, from here on) under best play by both.

    The two players are *sides*: 0 is the player to move, 1 the other.
    ``last_capturer`` is the side that captured last, or ``None`` (nobody has
    captured yet in this giv). ``previous_mover`` is the side that moved just
    before (it gets the dukning if the first move is a tabbe): 1 in play,
    ``None`` when no move came before (the first move of a giv, or a hand-made
    position without a previous mover). Every card must be known: this is the
    last utdelning, with nothing left in the stock.

    With ``next_table`` and ``next_leader_hand`` the search stops at the end of
    *this* utdelning instead (used by the expert bot on a determinization): the
    next deal lays ``next_table`` on the table and the player who did not move
    last leads with ``next_leader_hand``; if a card of it takes the whole table
    (tvångstabbe) that tabbe is counted, and nothing after it.

    The search is alpha-beta (negamax) with a table of positions already
    searched; every first move still gets its exact value. ``merge_suits``
    (for the expert bot's speed, not for proofs) searches only one of several
    moves below the first that differ just in the suits of pointless cards.
    ``stats["nodes"]`` counts the positions searched. ``first_moves`` limits the
    search to these first moves (the others are left out of the answer).

    >>> from krypteach import parse_cards
    >>> hand, other, table = parse_cards("QH 5C"), parse_cards("3D"), parse_cards("QH")
    >>> solve_endgame(Rules(), hand, other, table, previous_mover=1)[Move.parse("QH:QH")]  # dubbeltabbe
    20
    >>> solve_endgame(Rules(), hand, other, table, previous_mover=None)[Move.parse("QH:QH")]  # nobody's dukning
    10
    """
    if rules.players != 2:
        raise ValueError("the exact endgame is for two players")
    if previous_mover not in _SIDE or last_capturer not in _SIDE:
        raise ValueError(f"last_capturer and previous_mover are sides: 0 (to move), 1 (the other) or None, "
                         f"not {last_capturer!r} and {previous_mover!r}")
    tabbe = tabbe_values(rules)
    inside = tabbe[-1]  # below the first move, the opponent always moved just before
    kladda_pts = _pts(kladda)
    # what being the last capturer adds by itself (the last capture point), from the score formula
    last_point = giv_scores(rules, (0, 0), (0, 0), (0, 0), 0)[0]
    forced_tabbe = rules.forced_tabbe
    ace = rules.ace
    memo: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int], tuple[int, int]] = {}
    horizon = next_table is not None
    # who captured last matters only when the giv ends in the search (the sweep): searching to
    # the end of a deal, positions that differ only in it are the same (half the positions)
    sweeps = not horizon
    nt = tuple(int(Card(c)) for c in next_table or ())
    leader = tuple(sorted({int(Card(c)) for c in next_leader_hand or ()}))
    expansions = _EXPANSIONS.setdefault((rules, merge_suits), {})
    inner = _INNER.setdefault((rules, merge_suits), {})
    deal_ends: dict[tuple[int, ...], int] = {}

    def deal_end(tab: tuple[int, ...]) -> int:
        """Value, for the player who moved last, of the next deal's first move (a forced tabbe or nothing)."""
        v = deal_ends.get(tab)
        if v is None:
            full = tab + nt
            v = 0
            if full and forced_tabbe:
                whole = ranks_taking_whole_packed(pack(full), ace)
                whole_table = cast(tuple[Card, ...], tuple(sorted(full)))  # (plain ints play as cards)
                # the leader takes the table (its points and the tabbe's): the last mover gets the dukning
                costs = [POINTS[c] + _pts(full) + inside[tabbe_marks(cast(Sequence[Card], full), Move(Card(c), whole_table),
                                                                     rules)]
                         for c in leader if (c >> 2) + 1 in whole]
                v = -min(costs) if costs else 0
            deal_ends[tab] = v
        return v

    def leaf_delta(pts: int, made: int, tab2: tuple[int, ...], took: bool, lc: int, values: tuple[int, int, int]) -> int:
        """The difference of the deal's (or the giv's) last move, for its mover."""
        d = pts + values[made]
        if horizon:  # this deal ends: look at the next deal's first move
            return d + deal_end(tab2)
        lc2 = 1 if took else lc
        if lc2:  # the giv ends: the last capturer sweeps
            sweep = _pts(tab2) + kladda_pts + last_point
            d += sweep if lc2 == 1 else -sweep
        return d

    def inner_children(hm: tuple[int, ...], tab: tuple[int, ...]) -> InnerChildren:
        # (difference for the mover, card, capture): what the child is, worked out only
        # when it is searched (alpha-beta leaves most children of a cut unsearched)
        kids: list[tuple[int, int, tuple[int, ...] | None]] = []
        seen = set()
        for m in legal_moves(cast(Sequence[Card], hm), cast(Sequence[Card], tab), rules):  # (ints play as cards)
            card, cap = m.card, m.capture
            if merge_suits:
                cls = (_cls(card), None if cap is None else tuple(sorted(map(_cls, cap))))
                if cls in seen:
                    continue
                seen.add(cls)
            if cap is None:
                kids.append((0, card, None))
            else:
                d = POINTS[card] + _pts(cap)
                if len(cap) == len(tab):
                    d += inside[tabbe_marks(cast(Sequence[Card], tab), m, rules)]
                kids.append((d, card, cap))
        kids.sort(key=lambda x: x[0])  # stable: legal-move order among equal differences
        if len(inner) >= _CACHE_LIMIT:
            inner.clear()
        out = inner[(hm, tab)] = tuple(kids)
        return out

    nodes = 0

    def gain(hm: tuple[int, ...], ho: tuple[int, ...], tab: tuple[int, ...], lc: int, alpha: int, beta: int) -> int:
        """Negamax with alpha-beta: the best of (the other's result minus the mover's), i.e. minus the value."""
        nonlocal nodes
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
        nodes += 1
        a0 = alpha
        best = -_INF
        if ho or len(hm) > 1:
            kids = inner.get((hm, tab))
            if kids is None:
                kids = inner_children(hm, tab)
            for d, card, cap in kids:
                i = hm.index(card)
                if cap is None:
                    tab2 = tuple(sorted((*tab, card)))
                    lc2 = -lc if sweeps else 0
                else:
                    rest = list(tab)
                    for c in cap:
                        rest.remove(c)
                    tab2 = tuple(rest)
                    lc2 = -1 if sweeps else 0
                r = -d
                sc = r - gain(ho, hm[:i] + hm[i + 1:], tab2, lc2, r - beta, r - alpha)
                if sc > best:
                    best = sc
                    if sc > alpha:
                        alpha = sc
                        if alpha >= beta:
                            break
        else:  # the last card of the deal: every move ends it
            ds = sorted(leaf_delta(pts, made, tab2, took, lc, inside)
                        for pts, made, _, tab2, took in _expansion(rules, expansions, merge_suits, hm, tab))
            for d in ds:
                sc = -d
                if sc > best:
                    best = sc
                    if sc > alpha:
                        alpha = sc
                        if alpha >= beta:
                            break
        memo[key] = (best, -1 if best <= a0 else (1 if best >= beta else 0))
        return best

    lc0 = _SIDE[last_capturer]
    hm0 = tuple(sorted(int(Card(c)) for c in mover_hand))
    ho0 = tuple(sorted(int(Card(c)) for c in other_hand))
    tab0 = tuple(sorted(int(Card(c)) for c in table))
    if len(hm0) not in (len(ho0), len(ho0) + 1) or not hm0:
        raise ValueError(f"the player to move must hold as many cards as the opponent or one more "
                         f"(here {len(hm0)} and {len(ho0)})")
    first = tabbe[_SIDE[previous_mover]]
    out: dict[Move, int] = {}
    # The table of positions grows to 10^5 entries in a large search, and every full
    # collection of the garbage collector walked it (measured: a third of the expert's
    # time). The search makes no cycles but its own closures', so the collector is paused
    # while it runs, and the table is emptied at the end (the closures hold on to it until
    # the collector frees them).
    collecting = gc.isenabled()
    gc.disable()
    try:
        for m in legal_moves([Card(c) for c in hm0], [Card(c) for c in tab0], rules):
            if first_moves is not None and m not in first_moves:
                continue
            pts, made, hm2, tab2, took = _after(rules, hm0, tab0, m)
            if not hm2 and not ho0:
                out[m] = leaf_delta(pts, made, tab2, took, lc0, first)
            else:
                out[m] = pts + first[made] + gain(ho0, hm2, tab2, (-1 if took else -lc0) if sweeps else 0, -_INF, _INF)
    finally:
        memo.clear()
        deal_ends.clear()
        if collecting:
            gc.enable()
    if stats is not None:
        stats["nodes"] = stats.get("nodes", 0) + nodes
    return out


def best_moves(values: dict[Move, int]) -> list[Move]:
    """The moves with the lowest value (the best for the mover).

    >>> best_moves({Move.parse("5H"): 1, Move.parse("9C"): -1})
    [Move.parse('9C')]
    """
    low = min(values.values())
    return [m for m, v in values.items() if v == low]


def endgame_line(rules: Rules, mover_hand: Sequence[Card], other_hand: Sequence[Card], table: Sequence[Card], *,
                 kladda: Sequence[Card] = (), last_capturer: int | None = None, previous_mover: int | None = 1
                 ) -> list[tuple[int, Move, int]]:
    """A line of best play to the end: ``(side, move, value)`` where side 0 is the
    first mover, 1 the other, and value the exact outcome (that side's points
    minus the other's from that move on) of the move played. ``last_capturer``
    and ``previous_mover`` as for :func:`solve_endgame`.

    >>> from krypteach import parse_cards
    >>> [(side, str(m)) for side, m, _ in endgame_line(Rules(), parse_cards("9C"), parse_cards("AH"), parse_cards("4S 5D"))]
    [(0, '9C:4S+5D'), (1, 'AH')]
    """
    hands = [list(mover_hand), list(other_hand)]
    tab = list(table)
    lc = last_capturer
    side = 0
    prev = previous_mover
    line: list[tuple[int, Move, int]] = []
    while hands[side]:
        rel_lc = None if lc is None else int(lc != side)  # sides as seen from the one to move
        rel_prev = None if prev is None else int(prev != side)
        vals = solve_endgame(rules, hands[side], hands[1 - side], tab, kladda=kladda, last_capturer=rel_lc,
                             previous_mover=rel_prev)
        m = best_moves(vals)[0]
        line.append((side, m, vals[m]))
        hands[side].remove(m.card)
        tab = table_after(tab, m)
        if m.capture is not None:
            lc = side
        prev = side
        side = 1 - side
    return line
