"""Determinizations and fast rollouts, on the game's own state.

A search needs the rest of a giv with every card placed. That state is a
:class:`~krypteach.engine.game.Giv` (built with :meth:`Giv.from_state
<krypteach.engine.game.Giv.from_state>`, played with ``push``/``pop``), so
a search plays by exactly the rules of the game: there is no second copy of
them here. :func:`sample_world` deals the cards a seat has not seen into the
other hands and the stock, consistently with what the seat knows (hand sizes,
stock size, and the ranks tvångstabbe says a seat lacks); :func:`world` builds
the giv for any such guess. The piles are rebuilt from the observed history
(every capture is public). :func:`utility` scores a state with the engine's
:func:`~krypteach.engine.turn.giv_scores` and
:func:`~krypteach.engine.turn.team_relative`; :func:`greedy_move` and
:func:`rollout` are the expert's cheap rollout policy.

>>> import random
>>> from krypteach.engine.game import Giv
>>> g = Giv(seed=4)
>>> w = sample_world(g.observation(), random.Random(1))
>>> w.hands[g.turn] == g.hands[g.turn], w.stock_size == g.stock_size, w.turn == g.turn
(True, True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from ..engine.capture_cache import SPECS, counts_of, pack, ranks_taking_whole, ranks_taking_whole_packed, value_captures
from ..engine.cards import POINTS, Card
from ..engine.game import Deal, Giv, Observation
from ..engine.moves import Move, table_after
from ..engine.rules import Rules, deal_plan
from ..engine.turn import giv_scores, tabbe_marks, tabbe_score, team_relative
from .knowledge import forbidden_ranks

__all__ = ["sample_world", "deal_unseen", "future_deals", "world", "piles_from_history", "utility",
           "greedy_move", "rollout", "tables_after", "survivors", "DROP_Z", "DROP_MARGIN"]


def tables_after(counts: tuple[int, ...], rank: int, rules: Rules) -> list[tuple[int, ...]]:
    """The tables (as counts by value, index 1..13) a card of ``rank`` can leave on
    a table of ``counts`` when it does not take it whole: each capture option, or
    the table with the card crept onto it. Value level only (suits do not matter).

    >>> from krypteach import parse_cards
    >>> [[v for v, k in enumerate(t) for _ in range(k)] for t in tables_after(counts_of(parse_cards("2C 5H 7D")), 9, Rules())]
    [[5]]
    """
    _, target, single = SPECS[rules.ace][rank - 1]
    caps = value_captures(counts, target, single, rules.capture)
    out = []
    for k in caps:
        out.append(tuple(a - (k[v] if v < len(k) else 0) for v, a in enumerate(counts)))
    if not caps or rules.capture == "free":
        crept = list(counts)
        crept[rank] += 1
        out.append(tuple(crept))
    return out


# --- determinizations ---------------------------------------------------------------

def deal_unseen(obs: Observation, rng: random.Random, *, unseen: Sequence[Card] | None = None,
                forbidden: Mapping[int, frozenset[int]] | None = None,
                stock_cards: int | None = None) -> tuple[list[list[Card]], list[Card]]:
    """One guess at the hidden cards: ``(hands, stock)``, the unseen cards shuffled
    into the other hands (keeping their sizes and the ranks each is known to lack,
    see :func:`krypteach.bots.knowledge.forbidden_ranks`) and the rest as the stock
    in deal order (in a hand-made position, which has no stock, the cards left
    over are out of play). ``obs.seat``'s own hand is its real one.

    ``stock_cards`` asks for only the first cards of the stock: then only as many
    cards are shuffled as are dealt (a search that looks at the next deal only
    needs a dozen of the ninety).

    >>> from krypteach.engine.game import Giv
    >>> obs = Giv(seed=4).observation()
    >>> hands, stock = deal_unseen(obs, random.Random(0))
    >>> [len(h) for h in hands], len(stock) == obs.stock_left
    ([4, 4], True)
    >>> hands, stock = deal_unseen(obs, random.Random(0), stock_cards=12)
    >>> [len(h) for h in hands], len(stock)
    ([4, 4], 12)
    """
    n = obs.rules.players
    pool = list(obs.unseen() if unseen is None else unseen)
    size = len(pool)
    shuffled = size
    if stock_cards is None:
        rng.shuffle(pool)
    else:
        shuffled = 0  # pool[:shuffled] is shuffled; the rest is drawn from as it is reached

    def card(i: int) -> Card:
        nonlocal shuffled
        while shuffled <= i:  # one more step of a Fisher-Yates shuffle
            j = rng.randrange(shuffled, size)
            pool[shuffled], pool[j] = pool[j], pool[shuffled]
            shuffled += 1
        return pool[i]

    forbidden = forbidden_ranks(obs) if forbidden is None else forbidden
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[obs.seat] = list(obs.hand)
    taken = [False] * size
    # constrained seats first: the first cards of the shuffle they may hold
    order = sorted((s for s in range(n) if s != obs.seat), key=lambda s: -len(forbidden.get(s, ())))
    for s in order:
        need = obs.hand_sizes[s]
        forb = forbidden.get(s, frozenset())
        h = hands[s]
        i = 0
        while len(h) < need and i < size:
            c = card(i)
            if not taken[i] and (c >> 2) + 1 not in forb:
                taken[i] = True
                h.append(c)
            i += 1
        i = 0
        while len(h) < need and i < size:  # not enough allowed cards (should not happen): fill up anyway
            if not taken[i]:
                taken[i] = True
                h.append(card(i))
            i += 1
    # (a hand-made position has no stock: the cards it leaves out are out of play)
    want = obs.stock_left if stock_cards is None else min(stock_cards, obs.stock_left)
    stock: list[Card] = []
    i = 0
    while len(stock) < want and i < size:
        if not taken[i]:
            stock.append(card(i))
        i += 1
    return hands, stock


def future_deals(rules: Rules, deal_index: int, stock: Sequence[Card], count: int | None = None) -> tuple[Deal, ...]:
    """Cut ``stock`` (the cards still to be dealt, in order) into the utdelningar
    still to come after ``deal_index`` deals: seat by seat a block of each hand,
    then the cards laid on the table (face cards go aside to klädda högen). An
    empty stock has none to come. ``count`` cuts only the first deals (a search
    that looks at the next deal only need not cut the rest).

    >>> from krypteach import parse_cards
    >>> future_deals(Rules(), 8, parse_cards("2H 3H 4H 5H 6H 7H 8H 9H"))[0].hands[1]
    (Card('6H'), Card('7H'), Card('8H'), Card('9H'))
    """
    if not stock:
        return ()
    plan = deal_plan(rules)[deal_index:]
    if count is not None:
        plan = plan[:count]
    n = rules.players
    pos = 0
    out = []
    for k, t in plan:
        hands = tuple(tuple(stock[pos + i * k: pos + (i + 1) * k]) for i in range(n))
        pos += n * k
        laid = stock[pos:pos + t]
        pos += t
        out.append(Deal(hands, tuple(c for c in laid if not c.is_face), tuple(c for c in laid if c.is_face)))
    if pos != len(stock) and count is None:
        raise ValueError(f"a stock of {len(stock)} cards does not fit the deals still to come ({pos} cards)")
    return tuple(out)


def piles_from_history(obs: Observation) -> list[list[Card]]:
    """Every seat's pile, rebuilt from the observed moves (captures are public).

    >>> from krypteach.engine.game import Giv
    >>> g = Giv(seed=2)
    >>> for _ in range(20):
    ...     _ = g.play(g.legal_moves()[0])
    >>> piles_from_history(g.observation()) == g.piles
    True
    """
    piles: list[list[Card]] = [[] for _ in range(obs.rules.players)]
    for t in obs.history:
        taken = t.move.capture
        if taken is not None and t.move.kind == "capture":  # (a Kasino build names table cards, and takes none)
            pile = piles[t.player]
            pile.append(t.move.card)
            pile.extend(taken)
        if t.sweep is not None and obs.last_capturer is not None:
            piles[obs.last_capturer].extend(t.sweep)
    return piles


def world(obs: Observation, hands: Sequence[Sequence[Card]], stock: Sequence[Card], *,
          piles: Sequence[Sequence[Card]] | None = None) -> Giv:
    """The giv that ``obs`` and a guess at the hidden cards make (``hands`` for
    every seat, ``stock`` in deal order, see :func:`future_deals`), with
    ``obs.seat`` to move: the table, klädda högen, piles (rebuilt from the
    history unless given), marks, dukningar, last capturer and previous mover
    are the observed ones. Play it with ``push``/``pop``.

    >>> from krypteach.engine.game import Giv
    >>> g = Giv(seed=5)
    >>> w = world(g.observation(), g.hands, g.stock)
    >>> w.legal_moves() == g.legal_moves(), w.stock == g.stock
    (True, True)
    """
    rules = obs.rules
    tabbar = [0] * rules.players
    for t in obs.history:
        tabbar[t.player] += t.tabbe
    return Giv.from_state(rules, hands=hands, table=obs.table, kladda=obs.kladda, turn=obs.seat, dealer=obs.dealer,
                          previous_mover=obs.previous_mover,
                          piles=piles_from_history(obs) if piles is None else piles,
                          marks=obs.marks, dukningar=obs.dukningar, tabbar=tabbar, last_capturer=obs.last_capturer,
                          deals_to_come=future_deals(rules, obs.deal_index, stock))


def sample_world(obs: Observation, rng: random.Random, *, unseen: Sequence[Card] | None = None,
                 forbidden: Mapping[int, frozenset[int]] | None = None,
                 piles: Sequence[Sequence[Card]] | None = None) -> Giv:
    """One determinization: :func:`world` on a random :func:`deal_unseen`.
    ``obs.seat`` must be the seat to move. ``unseen``, ``forbidden`` and ``piles``
    may be passed when known (a search samples many worlds of one observation)."""
    hands, stock = deal_unseen(obs, rng, unseen=unseen, forbidden=forbidden)
    return world(obs, hands, stock, piles=piles)


# --- scoring a state ---------------------------------------------------------------------

def utility(g: Giv, seat: int) -> float:
    """``seat``'s side's score minus the mean of the other sides' (lower is better),
    as if the giv were scored now (:func:`~krypteach.engine.turn.giv_scores`).

    >>> g = Giv(seed=1)
    >>> while not g.is_over:
    ...     _ = g.push(g.legal_moves()[0])
    >>> utility(g, 0) == g.result.scores[0] - g.result.scores[1]
    True
    """
    rules = g.rules
    points = POINTS.__getitem__
    card_points = [sum(map(points, pile)) for pile in g.piles]
    return team_relative(rules, seat, giv_scores(rules, card_points, g.marks, g.dukningar, g.last_capturer))


# --- the cheap rollout policy ------------------------------------------------------------

def greedy_move(g: Giv, rng: random.Random, moves: list[Move] | None = None, exposure: float = 0.8) -> Move:
    """The rollout policy, the careful bot's terms with the hands known: fewest
    card points now, no tabbe unless forced, a table the next seat must take
    whole when it can be had, and (two players) no table the opponent can turn
    into one our remaining hand must take whole. Ties are broken at random.

    >>> g = Giv(seed=3)
    >>> greedy_move(g, random.Random(0)) in g.legal_moves()
    True
    """
    moves = g.legal_moves() if moves is None else moves
    if len(moves) == 1:
        return moves[0]
    rules = g.rules
    n = rules.players
    p = g.turn
    nxt = (p + 1) % n
    hands = g.hands
    next_hand = hands[nxt]
    my_hand = hands[p]
    ends_deal = len(my_hand) == 1 and not any(h for s, h in enumerate(hands) if s != p)
    next_ranks = {(c >> 2) + 1 for c in next_hand}
    same_team = n > 2 and rules.team_of(nxt) == rules.team_of(p)
    # how far a tabbe moves its taker against the seat that set it up (a mark against a dukning)
    to_taker, to_previous = tabbe_score(rules, 1)
    swing = 0.0 if same_team else float(to_taker - to_previous)
    check_exposure = exposure and n == 2 and len(my_hand) > 1 and rules.forced_tabbe and swing
    table = g.table
    ace = rules.ace
    best: list[Move] = []
    best_cost = 0.0
    for m in moves:
        cap = m.capture
        after: list[Card] | None
        if cap is None:
            cost = 0.0
            after = table + [m.card]
        else:
            cost = float(POINTS[m.card] + sum(POINTS[c] for c in cap))
            if len(cap) == len(table):
                cost += swing * tabbe_marks(table, m, rules)
                after = None
            else:
                after = table_after(table, m)
        if after and not ends_deal and rules.forced_tabbe and swing:
            ranks = ranks_taking_whole_packed(pack(after), ace)
            if ranks and not next_ranks.isdisjoint(ranks):
                cost -= swing + sum(POINTS[c] for c in after)
            elif check_exposure:
                counts = counts_of(after)
                mine = {(c >> 2) + 1 for c in my_hand if c != m.card}
                if m.card in my_hand[my_hand.index(m.card) + 1:]:
                    mine.add((m.card >> 2) + 1)
                if any(t2 and any(t2) and not mine.isdisjoint(ranks_taking_whole(t2, ace))
                       for r in next_ranks for t2 in tables_after(counts, r, rules)):
                    cost += exposure * swing
        if not best or cost < best_cost - 1e-9:
            best_cost = cost
            best = [m]
        elif cost <= best_cost + 1e-9:
            best.append(m)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def rollout(g: Giv, rng: random.Random, max_moves: int | None = None, *, to_deal_end: bool = False) -> int:
    """Play on with :func:`greedy_move` (``push``) to the end of the giv, or
    ``max_moves`` moves, or with ``to_deal_end`` to the end of the current
    utdelning (and the next deal's first move if it is a forced tabbe).
    Returns the number of moves pushed, so the caller can ``pop`` them.

    >>> g = Giv(seed=3)
    >>> k = rollout(g, random.Random(0), to_deal_end=True)
    >>> k, g.deal_index
    (8, 2)
    """
    k = 0
    deals = g.deal_index
    while not g.is_over and (max_moves is None or k < max_moves):
        g.push(greedy_move(g, rng))
        k += 1
        if to_deal_end and g.deal_index != deals:
            moves = g.legal_moves()
            if moves and moves[0].capture is not None and len(moves[0].capture) == len(g.table) \
                    and g.rules.forced_tabbe:
                g.push(greedy_move(g, rng, moves))
                k += 1
            break
    return k


# --- comparing candidates over paired samples ------------------------------------------

#: a candidate is dropped when its mean difference to the best is above this many standard errors ...
DROP_Z = 2.0
#: ... plus this many points
DROP_MARGIN = 0.5


def survivors(alive: list[Move], values: Mapping[Move, Sequence[float]], n: int) -> list[Move]:
    """The candidates not clearly worse than the best so far (each has ``n`` values, paired by sample)."""
    best = min(alive, key=lambda m: sum(values[m][-n:]))
    top = values[best][-n:]
    keep = []
    for m in alive:
        if m is best:
            keep.append(m)
            continue
        diffs = [a - b for a, b in zip(values[m][-n:], top)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)  # (statistics.stdev is exact, and 10x slower)
        if mean <= DROP_Z * math.sqrt(var / n) + DROP_MARGIN:
            keep.append(m)
    return keep
