"""A lean copy of a giv for search: determinizations and fast rollouts.

:class:`SimState` holds just what decides the rest of a giv — hands, table,
the points of the klädda högen, pile points, marks, dukningar, the last
capturer, who moves, who moved last, and the utdelningar still to come — and
plays moves by the same rules as :class:`krypteach.engine.game.Giv` (tests check
the two agree move by move). :func:`sample_world` deals the cards a seat has
not seen into the other hands and the stock, consistently with what the seat
knows (hand sizes, stock size, and the ranks tvångstabbe says a seat lacks).

>>> import random
>>> from krypteach.engine.game import Giv
>>> g = Giv(seed=4)
>>> s = sample_world(g.observation(), random.Random(1))
>>> s.hands[g.turn] == g.hands[g.turn], s.stock_size == g.stock_size
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.captures import _SPECS, _counts, _value_captures, _whole_ranks
from ..engine.cards import Card
from ..engine.game import Giv, Observation
from ..engine.moves import Move, legal_moves, table_after
from ..engine.rules import Rules, deal_plan
from ..engine.turn import cancel_marks
from .knowledge import forbidden_ranks

__all__ = ["SimState", "sample_world", "state_from_giv", "tables_after"]

_POINTS = tuple(Card(i).points for i in range(52))


def tables_after(counts: tuple[int, ...], rank: int, rules: Rules) -> list[tuple[int, ...]]:
    """The tables (as counts by value, index 1..13) a card of ``rank`` can leave on
    a table of ``counts`` when it does not take it whole: each capture option, or
    the table with the card crept onto it. Value level only (suits do not matter)."""
    _, target, single = _SPECS[rules.ace][rank - 1]
    caps = _value_captures(counts, target, single, rules.capture)
    out = []
    for k in caps:
        out.append(tuple(a - (k[v] if v < len(k) else 0) for v, a in enumerate(counts)))
    if not caps or rules.capture == "free":
        crept = list(counts)
        crept[rank] += 1
        out.append(tuple(crept))
    return out


class SimState:
    """The rest of a giv, fully known (one determinization)."""

    __slots__ = ("rules", "n", "hands", "table", "kladda_points", "pile_points", "marks", "dukningar",
                 "last_capturer", "turn", "prev", "deals", "moves_played")

    def __init__(self, rules: Rules, hands: list[list[Card]], table: list[Card], kladda_points: int,
                 pile_points: list[int], marks: list[int], dukningar: list[int], last_capturer: int | None,
                 turn: int, prev: int | None, deals: list[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], int, int]],
                 moves_played: int = 0) -> None:
        self.rules = rules
        self.n = rules.players
        self.hands = hands
        self.table = table
        self.kladda_points = kladda_points
        self.pile_points = pile_points
        self.marks = marks
        self.dukningar = dukningar
        self.last_capturer = last_capturer
        self.turn = turn
        self.prev = prev
        self.deals = deals  # still to come: (hands per seat, table cards, points and number of the face cards set aside)
        self.moves_played = moves_played

    def copy(self) -> "SimState":
        return SimState(self.rules, [list(h) for h in self.hands], list(self.table), self.kladda_points,
                        list(self.pile_points), list(self.marks), list(self.dukningar), self.last_capturer,
                        self.turn, self.prev, self.deals, self.moves_played)

    @property
    def is_over(self) -> bool:
        return not self.deals and not any(self.hands)

    @property
    def stock_size(self) -> int:
        return sum(sum(map(len, h)) + len(t) + k for h, t, _, k in self.deals)

    def legal_moves(self) -> list[Move]:
        return legal_moves(self.hands[self.turn], self.table, self.rules)

    def apply(self, move: Move) -> None:
        """Play a legal move (not checked) for the seat to move, as ``Giv._apply`` does."""
        p = self.turn
        self.hands[p].remove(move.card)
        if move.capture is not None:
            table = table_after(self.table, move)
            self.pile_points[p] += _POINTS[move.card] + sum(_POINTS[c] for c in move.capture)
            self.last_capturer = p
            if not table:
                rules = self.rules
                k = 2 if (rules.dubbeltabbe and len(self.table) == 1 and self.table[0] == move.card) else 1
                self.marks[p] += k
                if self.prev is not None:
                    self.dukningar[self.prev] += k
                cancel_marks(self.marks, rules)
            self.table = table
        else:
            self.table = table_after(self.table, move)
        self.prev = p
        self.turn = (p + 1) % self.n
        self.moves_played += 1
        if not any(self.hands):
            if self.deals:
                hands, tab, aside_pts, _ = self.deals[0]
                self.deals = self.deals[1:]
                self.hands = [list(h) for h in hands]
                self.table = self.table + list(tab)
                self.kladda_points += aside_pts
            else:
                if self.last_capturer is not None:
                    self.pile_points[self.last_capturer] += sum(_POINTS[c] for c in self.table) + self.kladda_points
                    self.table = []
                    self.kladda_points = 0

    def scores(self) -> list[int]:
        """Giv scores as :func:`krypteach.engine.scoring.score_giv` counts them (call when the giv is over)."""
        r = self.rules
        cp = list(self.pile_points)
        if self.last_capturer is not None and r.last_capture_point:
            cp[self.last_capturer] += r.last_capture_point
        return [cp[s] + r.tabbe_points * self.marks[s] + r.dukning_points * self.dukningar[s] for s in range(self.n)]

    def utility(self, seat: int) -> float:
        """``seat``'s team score minus the mean of the other teams' (lower is better)."""
        r = self.rules
        sc = self.scores()
        teams = [0.0] * r.team_count
        for s, v in enumerate(sc):
            teams[r.team_of(s)] += v
        mine = r.team_of(seat)
        others = [teams[t] for t in range(len(teams)) if t != mine]
        return teams[mine] - sum(others) / len(others)

    # --- the cheap rollout policy -------------------------------------------------
    def greedy_move(self, rng: random.Random, moves: list[Move] | None = None, exposure: float = 0.8) -> Move:
        """The rollout policy, the careful bot's terms with the hands known: fewest
        card points now, no tabbe unless forced, a table the next seat must take
        whole when it can be had, and (two players) no table the opponent can turn
        into one our remaining hand must take whole. Ties are broken at random."""
        moves = self.legal_moves() if moves is None else moves
        if len(moves) == 1:
            return moves[0]
        rules = self.rules
        p = self.turn
        nxt = (p + 1) % self.n
        next_hand = self.hands[nxt]
        my_hand = self.hands[p]
        ends_deal = len(my_hand) == 1 and not any(h for s, h in enumerate(self.hands) if s != p)
        next_ranks = {(c >> 2) + 1 for c in next_hand}
        same_team = self.n > 2 and rules.team_of(nxt) == rules.team_of(p)
        swing = 0.0 if same_team else float(rules.tabbe_points - rules.dukning_points)
        check_exposure = exposure and self.n == 2 and len(my_hand) > 1 and rules.forced_tabbe and swing
        table = self.table
        ace = rules.ace
        best: list[Move] = []
        best_cost = None
        for m in moves:
            cap = m.capture
            if cap is None:
                cost = 0.0
                after = table + [m.card]
            else:
                cost = float(_POINTS[m.card] + sum(_POINTS[c] for c in cap))
                if len(cap) == len(table):
                    cost += swing * (2 if (rules.dubbeltabbe and len(table) == 1 and table[0] == m.card) else 1)
                    after = None
                else:
                    after = table_after(table, m)
            if after and not ends_deal and rules.forced_tabbe and swing:
                counts = _counts(after)
                ranks = _whole_ranks(counts, ace)
                if ranks and not next_ranks.isdisjoint(ranks):
                    cost -= swing + sum(_POINTS[c] for c in after)
                elif check_exposure:
                    mine = {(c >> 2) + 1 for c in my_hand if c != m.card}
                    if m.card in my_hand[my_hand.index(m.card) + 1:]:
                        mine.add((m.card >> 2) + 1)
                    if any(t2 and any(t2) and not mine.isdisjoint(_whole_ranks(t2, ace))
                           for r in next_ranks for t2 in tables_after(counts, r, rules)):
                        cost += exposure * swing
            if best_cost is None or cost < best_cost - 1e-9:
                best_cost = cost
                best = [m]
            elif cost <= best_cost + 1e-9:
                best.append(m)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def rollout(self, rng: random.Random, max_moves: int | None = None, *, to_deal_end: bool = False) -> None:
        """Play on with :meth:`greedy_move` to the end of the giv (or ``max_moves``
        moves; or, with ``to_deal_end``, to the end of the current utdelning and
        the next deal's first move if that is a forced tabbe)."""
        k = 0
        deals_left = len(self.deals)
        while not self.is_over and (max_moves is None or k < max_moves):
            self.apply(self.greedy_move(rng))
            k += 1
            if to_deal_end and len(self.deals) != deals_left:
                moves = self.legal_moves()
                if moves and moves[0].capture is not None and len(moves[0].capture) == len(self.table) \
                        and self.rules.forced_tabbe:
                    self.apply(self.greedy_move(rng, moves))
                return


def _future_deals(rules: Rules, deal_index: int, cards: list[Card]) -> list:
    """Cut ``cards`` (the stock, in deal order) into the utdelningar still to come."""
    plan = deal_plan(rules)[deal_index:]
    n = rules.players
    pos = 0
    out = []
    for k, t in plan:
        hands = tuple(tuple(cards[pos + i * k: pos + (i + 1) * k]) for i in range(n))
        pos += n * k
        laid = cards[pos:pos + t]
        pos += t
        aside = [c for c in laid if c.is_face]
        out.append((hands, tuple(c for c in laid if not c.is_face), sum(_POINTS[c] for c in aside), len(aside)))
    if pos != len(cards):
        raise ValueError(f"stock of {len(cards)} cards does not fit the deals still to come ({pos})")
    return out


def sample_world(obs: Observation, rng: random.Random, *, unseen: Sequence[Card] | None = None,
                 forbidden: dict[int, frozenset[int]] | None = None) -> SimState:
    """One determinization: the unseen cards dealt at random into the other hands
    and the stock, keeping the hand sizes, the stock size and the ranks a seat is
    known to lack (see :func:`krypteach.bots.knowledge.forbidden_ranks`)."""
    rules = obs.rules
    n = rules.players
    pool = list(obs.unseen() if unseen is None else unseen)
    rng.shuffle(pool)
    forbidden = forbidden_ranks(obs) if forbidden is None else forbidden
    hands: list[list[Card] | None] = [None] * n
    hands[obs.seat] = list(obs.hand)
    taken = [False] * len(pool)
    # constrained seats first: the first cards of the shuffle they may hold
    order = sorted((s for s in range(n) if s != obs.seat), key=lambda s: -len(forbidden.get(s, ())))
    for s in order:
        need = obs.hand_sizes[s]
        forb = forbidden.get(s, frozenset())
        h: list[Card] = []
        for i, c in enumerate(pool):
            if len(h) == need:
                break
            if not taken[i] and (c >> 2) + 1 not in forb:
                taken[i] = True
                h.append(c)
        for i in range(len(pool)):  # not enough allowed cards (should not happen): fill up anyway
            if len(h) == need:
                break
            if not taken[i]:
                taken[i] = True
                h.append(pool[i])
        hands[s] = h
    stock = [c for i, c in enumerate(pool) if not taken[i]]
    deals = _future_deals(rules, obs.deal_index, stock)
    prev = obs.history[-1].player if obs.history else None
    return SimState(rules, hands, list(obs.table), sum(_POINTS[c] for c in obs.kladda), list(obs.pile_points),
                    list(obs.marks), list(obs.dukningar), obs.last_capturer, obs.seat, prev, deals, len(obs.history))


def state_from_giv(g: Giv) -> SimState:
    """The exact :class:`SimState` of a running giv (every card known; for tests and analysis)."""
    obs = g.observation()
    deals = []
    for d in g.deals[g.deal_index:]:
        deals.append((tuple(tuple(h) for h in d.hands), tuple(d.table), sum(_POINTS[c] for c in d.aside), len(d.aside)))
    prev = g.turns[-1].player if g.turns else None
    return SimState(g.rules, [list(h) for h in g.hands], list(g.table), sum(_POINTS[c] for c in g.kladda),
                    list(obs.pile_points), list(g.marks), list(g.dukningar), g.last_capturer, g.turn, prev, deals,
                    len(g.turns))
