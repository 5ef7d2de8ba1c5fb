"""The careful and expert bots' thinking for classic Kasino (``Rules(game="kasino")``).

Classic Kasino scores storan, lillan, aces, most spades, most cards, sistan and
tabbar; the highest score wins, except in avig kasino (``rules.lowest_wins``:
misère, forced capture and forced tabbe). One value scale serves both: the
*gain* of a move is the points its side takes (card points, and the chance
its cards add to winning most cards and most spades) less what the others
take; the careful bot plays the move with the best gain, the highest in
kasino and the lowest in avig kasino.

The careful bot (:func:`assess_kasino`) adds, for each legal move, named terms
in expected points for its side:

- ``now``: what the move takes: storan, lillan and aces, and each card's and
  spade's share of the "most cards" and "most spades" points (a marginal worked
  out from the piles so far and the cards still to be taken);
- ``tabbe``: a tabbe's points;
- ``build``: a build it owns after the move and can take next turn: the chance
  that no other seat takes it first times what taking it will be worth;
- ``leave``: what the next player can take from the table the move leaves, at
  best for that player (most points in kasino, fewest in avig kasino, a forced
  tabbe first), over the cards it may hold (counted from the unseen cards,
  hypergeometric): e.g. a trailed ace is a point for the next player with an
  ace; (a partner's take counts for us);
- ``sweep``: on the giv's last move, the last capturer takes the rest and sistan.

The expert (:func:`kasino_analyse`, used by :class:`~krypteach.bots.expert.ExpertBot`)
deals the unseen cards at random many times (determinizations of the one
52-card deck), plays each candidate move (careful's best ones) and the rest of
the current utdelning with a fast greedy policy that knows the sampled hands,
and scores the position with the same gain (at the end of the giv, exactly:
the giv's score). When two players are left with every card known (the last
utdelning, stock empty), it searches the rest of the giv exactly (minimax).

Everything reads the observation only (:class:`~krypteach.engine.game.Observation`).

>>> from krypteach import Giv, Rules
>>> g = Giv(Rules(game="kasino"), seed=2)
>>> kasino_choose(g.observation(), seed=0) in g.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

from ..engine.builds import Build, kasino_legal_moves, kasino_table_after, kasino_takes, table_cards, take_value
from ..engine.cards import Card
from ..engine.game import Deal, Giv, Observation, deal_giv
from ..engine.games import describe, game_of
from ..engine.games.kasino import KASINO_POINTS
from ..engine.moves import Move
from ..engine.rules import Rules
from ..engine.turn import tabbe_marks, tabbe_score, team_relative
from . import words as W
from .kasino_exact import FIXED_VALUE as _FIXED_VALUE
from .kasino_exact import SPADE as _SPADE
from .kasino_exact import KasinoEndgame
from .sim import deal_unseen, piles_from_history, survivors
from .steps import Steps, run_steps

__all__ = ["KasinoAssessment", "thinks_in_builds", "assess_kasino", "kasino_choose", "kasino_explain", "kasino_analyse",
           "kasino_world", "kasino_greedy", "kasino_utility", "kasino_every_move", "Marginals"]

_CODES = tuple(str(Card(i)) for i in range(52))


@dataclass
class KasinoAssessment:
    """One legal move, its named terms (expected points for the mover's side, in the
    gain scale: higher is more for us) and words."""

    move: Move
    terms: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: +1 when the highest score wins, -1 in avig kasino: ``total`` is lower-is-better
    sign: int = 1

    @property
    def gain(self) -> float:
        return sum(self.terms.values())

    @property
    def total(self) -> float:
        """Lower is better (as the Krypkasino careful bot's totals): minus the gain in kasino, the gain in avig kasino."""
        return -self.sign * self.gain


class Marginals:
    """What one card is worth to whoever takes it now: its card points, plus its share of
    "most cards" (1 point) and, for a spade, of "most spades" (2 points): for each, the
    award times the density of a normal guess at the final difference, at zero (the
    chance that one card more decides it)."""

    __slots__ = ("card", "spade", "value")

    def __init__(self, rules: Rules, piles_len: Sequence[int], piles_spades: Sequence[int], seat: int) -> None:
        self.card = _marginal(rules, piles_len, seat, 52, 1.0)
        self.spade = _marginal(rules, piles_spades, seat, 13, 2.0)
        card, spade = self.card, self.spade
        self.value = [KASINO_POINTS[c] + card + (spade if _SPADE[c] else 0.0) for c in range(52)]

    def of(self, cards: Sequence[Card]) -> float:
        v = self.value
        return sum([v[c] for c in cards])


def _marginal(rules: Rules, per_seat: Sequence[int], seat: int, total: int, award: float) -> float:
    teams = [0] * rules.team_count
    for s, k in enumerate(per_seat):
        teams[rules.team_of(s)] += k
    mine = rules.team_of(seat)
    others = [k for t, k in enumerate(teams) if t != mine]
    d = teams[mine] - (max(others) if others else 0)
    left = total - sum(teams)
    if left <= 0:
        return 0.0
    sigma = max(1.0, 0.9 * math.sqrt(left))
    # (one card more moves the difference by one: the density at the tie times the award)
    return award * math.exp(-0.5 * (d / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))


def _piles_counts(obs: Observation) -> tuple[list[int], list[int]]:
    """Each seat's pile size and spades, from the observation (captures are public)."""
    n = obs.rules.players
    spades = [0] * n
    for t in obs.history:
        m = t.move
        if m.capture is not None and m.value is None:
            spades[t.player] += _SPADE[m.card] + sum([_SPADE[c] for c in m.capture])
        if t.sweep is not None and obs.last_capturer is not None:
            spades[obs.last_capturer] += sum([_SPADE[c] for c in t.sweep])
    return list(obs.pile_sizes), spades


def _takers(rules: Rules, value: int) -> list[int]:
    """The card numbers that take a build of ``value`` from the hand."""
    return [c for c in range(52) if take_value(Card(c), rules) == value]


def _p_none(pool: int, special: int, hand: int) -> float:
    """Chance a hand of ``hand`` cards from ``pool`` holds none of ``special`` of them."""
    if special <= 0 or hand <= 0:
        return 1.0
    if hand > pool:
        hand = pool
    if special > pool - hand:
        return 0.0
    return comb(pool - special, hand) / comb(pool, hand)


class _KView:
    """What one decision needs (see :func:`assess_kasino`)."""

    def __init__(self, obs: Observation, words: bool) -> None:
        self.obs = obs
        self.words = words
        rules = self.rules = obs.rules
        n = rules.players
        me = self.me = obs.seat
        self.sign = -1 if rules.lowest_wins else 1
        nxt = self.nxt = (me + 1) % n
        self.partner_next = n > 2 and rules.team_of(nxt) == rules.team_of(me)
        lens, spades = _piles_counts(obs)
        self.marg = Marginals(rules, lens, spades, me)
        unseen = obs.unseen()
        self.unseen = unseen
        self.pool = len(unseen)
        sizes = list(obs.hand_sizes)
        sizes[me] -= 1
        self.ends_deal = not any(sizes)
        self.last_move_of_giv = self.ends_deal and obs.stock_left == 0
        self.h_next = obs.hand_sizes[nxt]
        self.h_others = sum(h for s, h in enumerate(obs.hand_sizes) if s != me)
        # the next player's cards by rank (one card per rank stands for them: captures depend on the rank)
        by_rank: dict[int, list[Card]] = {}
        for c in unseen:
            by_rank.setdefault(c.rank, []).append(c)
        self.by_rank = by_rank
        self._leave_cache: dict[tuple[Card | Build, ...], float] = {}

    def assess(self, moves: list[Move]) -> list[KasinoAssessment]:
        obs, rules, me, words = self.obs, self.rules, self.me, self.words
        marg = self.marg
        table = list(obs.table)
        hand = list(obs.hand)
        out = []
        for m in moves:
            a = KasinoAssessment(m, sign=self.sign)
            terms, notes = a.terms, a.notes
            card, cap = m.card, m.capture
            after = kasino_table_after(table, m, me)
            if cap is not None and m.value is None:  # a capture
                taken = (card, *cap)
                v = marg.of(taken)
                terms["now"] = v
                if words:
                    pts = sum(KASINO_POINTS[c] for c in taken)
                    sp = sum(_SPADE[c] for c in taken)
                    notes.append(W.kasino_takes(len(taken), sp, pts))
                if not after:  # a tabbe: its marks and their worth from the engine's rules of a turn
                    terms["tabbe"] = float(tabbe_score(rules, tabbe_marks(table_cards(table), m, rules))[0])
                    if words:
                        notes.append(W.kasino_tabbe())
            else:
                terms["now"] = 0.0
                if words and m.value is None and KASINO_POINTS[card]:
                    notes.append(W.kasino_lays_out(card.symbol))
            rest = list(hand)
            rest.remove(card)
            # --- builds we own after the move, to take next turn ---
            for b in after:
                if isinstance(b, Build) and b.owner == me:
                    mine = [c for c in rest if take_value(c, rules) == b.value]
                    if not mine:
                        continue
                    takers = sum(1 for c in self.unseen if take_value(c, rules) == b.value)
                    p_keep = _p_none(self.pool, takers, self.h_others)
                    best = min(mine, key=lambda c: marg.value[c])
                    worth = marg.of(b.cards) + marg.value[best]
                    terms["build"] = terms.get("build", 0.0) + p_keep * worth
                    if words:
                        notes.append(W.kasino_holds_for_build(best.symbol, b.value, p_keep, worth))
            # --- what the next player can take ---
            if after and not self.ends_deal and self.h_next:
                left = self.leave_value(after)
                if left:
                    terms["leave"] = left if self.partner_next else -left
                    if words and abs(left) >= 0.5:
                        if self.sign * left > 0 and not self.partner_next:
                            notes.append(W.kasino_next_may_take(left))
            # --- the last move of the giv ---
            if self.last_move_of_giv:
                last = me if (cap is not None and m.value is None) else obs.last_capturer
                if last is not None:
                    rest_cards = table_cards(after)
                    worth = marg.of(rest_cards) + rules.last_capture_point
                    terms["sweep"] = team_relative(rules, me, {last: worth})
                    if last == me and words:
                        notes.append(W.kasino_takes_the_rest())
            out.append(a)
        return out

    def leave_value(self, after: list[Card | Build]) -> float:
        """The next player's expected take from ``after`` (its gain scale), choosing as it
        likes best: the most in kasino, the least in avig kasino; a forced tabbe first."""
        key = tuple(after)
        got = self._leave_cache.get(key)
        if got is not None:
            return got
        rules, nxt, marg = self.rules, self.nxt, self.marg
        lowest = rules.lowest_wins
        forced_tabbe = rules.forced_tabbe
        whole = len(table_cards(after))
        values: list[tuple[tuple[int, float], float]] = []
        for cards in self.by_rank.values():
            best: float | None = None
            took = False
            forced = 0
            for mv in kasino_legal_moves([cards[0]], after, rules, nxt):
                if mv.capture is None or mv.value is not None:
                    v, cap = 0.0, False
                else:
                    v, cap = marg.of(mv.capture), True
                    if len(mv.capture) == whole:
                        v += tabbe_score(rules, 1)[0]  # one mark: classic Kasino has no dubbeltabbe
                        if forced_tabbe:
                            forced = 1
                if best is None or (v < best if lowest else v > best):
                    best, took = v, cap
            assert best is not None
            for c in cards:
                v = best + (marg.value[c] if took else 0.0)
                values.append(((-forced, v if lowest else -v), v))
        values.sort(key=lambda x: x[0])
        # E[best of a random hand of h from the pool]: the first of the sorted cards it holds
        pool, h = self.pool, min(self.h_next, self.pool)
        total = comb(pool, h)
        exp = 0.0
        for i, (_k, v) in enumerate(values):
            if pool - i < h:
                break
            p = (comb(pool - i, h) - comb(pool - i - 1, h)) / total  # holds card i, none before it
            exp += p * v
        self._leave_cache[key] = exp
        return exp


def assess_kasino(obs: Observation, moves: list[Move] | None = None, *, words: bool = True) -> list[KasinoAssessment]:
    """The Kasino careful bot's terms for each legal move (see the module docstring).

    >>> from krypteach import Giv, Rules
    >>> g = Giv.from_position([["10D", "5C"], ["3H", "4H"]], ["6S", "4D", "KC"], rules=Rules(game="kasino"))
    >>> best = max(assess_kasino(g.observation()), key=lambda a: a.gain)
    >>> str(best.move)
    '10D:4D+6S'
    """
    view = _KView(obs, words)
    return view.assess(obs.legal_moves() if moves is None else moves)


def _position_rng(seed: int | None, obs: Observation, salt: str) -> random.Random:
    """A random generator fixed by ``seed`` and the observed position (builds on the table too)."""
    key = (f"{salt}|{seed}|{obs.seat}|{obs.deal_index}|{' '.join(map(str, obs.hand))}|"
           f"{' '.join(map(str, obs.table))}|{len(obs.history)}|"
           + " ".join(str(t.move) for t in obs.history[-8:]))
    return random.Random(zlib.crc32(key.encode()) ^ ((seed or 0) * 0x9E3779B1 & 0xFFFFFFFF))


def ranked_kasino(obs: Observation, seed: int | None, moves: list[Move] | None = None,
                  words: bool = False) -> list[KasinoAssessment]:
    """Every legal move's assessment, best first; exact ties ordered by the position's random generator."""
    assessed = assess_kasino(obs, obs.legal_moves() if moves is None else moves, words=words)
    rng = _position_rng(seed, obs, "careful")
    keys = [rng.random() for _ in assessed]
    order = sorted(range(len(assessed)), key=lambda i: (round(assessed[i].total, 9), keys[i]))
    return [assessed[i] for i in order]


def thinks_in_builds(rules: Rules) -> bool:
    """Whether the bots think with this module (a game with builds: classic Kasino, avig kasino)
    rather than Krypkasino's careful terms; the one place the bots choose by the game, and it
    asks the game (:attr:`Game.has_builds`), not its name."""
    return game_of(rules).has_builds


def kasino_choose(obs: Observation, seed: int | None = None) -> Move:
    """The Kasino careful bot's move."""
    moves = obs.legal_moves()
    if len(moves) == 1:
        return moves[0]
    return ranked_kasino(obs, seed, moves)[0].move


def kasino_explain(obs: Observation, seed: int | None = None) -> tuple[Move, str]:
    """The Kasino careful bot's move and why, e.g. ``"5♥ builds 9 …: you hold 9♦ to take the build …"``."""
    moves = obs.legal_moves()
    ranked = ranked_kasino(obs, seed, moves, words=True)
    best = ranked[0]
    head = describe(obs.rules, best.move)
    notes = best.notes or [W.nothing_at_stake()]
    if len(moves) == 1:
        return best.move, W.reason(head, [W.only_legal_move(), *notes])
    second = ranked[1]
    return best.move, W.reason(head, notes, W.kasino_expected(_signed(best.gain), _signed(second.gain),
                                                              describe(obs.rules, second.move), obs.rules.lowest_wins))


def _signed(x: float) -> float:
    """``x`` rounded for ``{:+.1f}``, never ``-0.0``."""
    r = round(x, 1)
    return 0.0 if r == 0 else r


# --- the expert -------------------------------------------------------------------

def kasino_future_deals(rules: Rules, dealer: int, deal_index: int, stock: Sequence[Card]) -> tuple[Deal, ...]:
    """The utdelningar (or dragkasino's draws) still to come after ``deal_index``, with
    ``stock`` (in deal order) as their cards: the same cut as a real giv's
    (:func:`~krypteach.engine.game.deal_giv`)."""
    if not stock:
        return ()
    deck = [Card(0)] * (52 - len(stock)) + list(stock)
    return deal_giv(deck, rules, dealer)[deal_index:]


def kasino_world(obs: Observation, hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> Giv:
    """The giv that ``obs`` and a guess at the hidden cards make, ``obs.seat`` to move."""
    rules = obs.rules
    tabbar = [0] * rules.players
    for t in obs.history:
        tabbar[t.player] += t.tabbe
    return Giv.from_state(rules, hands=hands, table=obs.table, kladda=obs.kladda, turn=obs.seat, dealer=obs.dealer,
                          previous_mover=obs.previous_mover, piles=piles_from_history(obs), marks=obs.marks,
                          dukningar=obs.dukningar, tabbar=tabbar, last_capturer=obs.last_capturer,
                          deals_to_come=kasino_future_deals(rules, obs.dealer, obs.deal_index, stock))


def kasino_utility(g: Giv, seat: int, marg: Marginals | None = None) -> float:
    """``seat``'s side's gain against the others in the gain scale (higher is more for us):
    the giv's scores when it is over, else the card points and tabbar so far plus the
    chance-weighted "most cards" and "most spades" (a normal guess at the final differences)."""
    rules = g.rules
    if g.is_over:
        return team_relative(rules, seat, g.result.scores)
    piles = g.piles
    scores = [float(x) for x in g.game.points_so_far(piles, g.marks, g.dukningar)]
    lens = [len(p) for p in piles]
    spades = [sum([_SPADE[c] for c in p]) for p in piles]
    for award, per_seat, total in ((1.0, lens, 52), (2.0, spades, 13)):
        teams = [0] * rules.team_count
        for s, k in enumerate(per_seat):
            teams[rules.team_of(s)] += k
        left = total - sum(teams)
        sigma = max(1.0, 0.9 * math.sqrt(left)) if left > 0 else 0.0
        for t in range(rules.team_count):
            others = max(k for u, k in enumerate(teams) if u != t)
            d = teams[t] - others
            if sigma:
                p = 0.5 * (1 + math.erf(d / (sigma * math.sqrt(2))))
            else:
                p = 1.0 if d > 0 else 0.0
            members = rules.team_members(t)
            scores[members[0]] += award * p
    return team_relative(rules, seat, scores)


def kasino_greedy(g: Giv, rng: random.Random, moves: list[Move] | None = None) -> Move:
    """The expert's fast rollout policy, with the hands known: the most it takes now
    (card points, cards, spades, a tabbe: :class:`Marginals` at a fixed tie), a build
    it will take unless another hand holds its taker, and less what the next
    player's hand can take from the table left; misère in avig kasino. Ties at random."""
    moves = g.legal_moves() if moves is None else moves
    if len(moves) == 1:
        return moves[0]
    rules = g.rules
    p = g.turn
    n = rules.players
    nxt = (p + 1) % n
    sign = -1.0 if rules.lowest_wins else 1.0
    value = _FIXED_VALUE
    table = g.table
    hands = g.hands
    next_hand = hands[nxt]
    others_cards = [c for s, h in enumerate(hands) if s != p for c in h]
    partner = n > 2 and rules.team_of(nxt) == rules.team_of(p)
    best: list[Move] = []
    best_v = 0.0
    hand = hands[p]
    tabbe_pts = tabbe_score(rules, 1)[0]  # one mark: classic Kasino has no dubbeltabbe
    for m in moves:
        cap = m.capture
        after = kasino_table_after(table, m, p)
        v = 0.0
        if cap is not None and m.value is None:
            v = value[m.card] + sum([value[c] for c in cap])
            if not after:
                v += tabbe_pts
        elif m.value is not None:
            bv = m.value
            if not any(take_value(c, rules) == bv for c in others_cards):
                v = 0.8 * (value[m.card] + sum([value[c] for c in cap or ()]))
        elif KASINO_POINTS[m.card]:
            v = -0.3 * value[m.card]
        if after and next_hand:
            reply = _best_reply(next_hand, after, rules, nxt)
            v += reply if partner else -reply
        v *= sign
        if not best or v > best_v + 1e-9:
            best_v = v
            best = [m]
        elif v >= best_v - 1e-9:
            best.append(m)
    del hand
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]



def _best_reply(hand: Sequence[Card], table: list[Card | Build], rules: Rules, seat: int) -> float:
    """What the best single capture of ``hand`` on ``table`` takes (its player's choice:
    the most, the least in avig kasino, where it may be forced); a move that takes nothing
    counts 0 (:func:`~krypteach.engine.builds.kasino_takes`: the builds are not listed)."""
    value = _FIXED_VALUE
    captures, other = kasino_takes(hand, table, rules, seat)
    values = [0.0] if other else []
    whole = len(table_cards(table)) if captures else 0
    tabbe = tabbe_score(rules, 1)[0] if captures else 0
    for m in captures:
        assert m.capture is not None
        v = value[m.card] + sum([value[c] for c in m.capture])
        if len(m.capture) == whole:
            v += tabbe
        values.append(v)
    if not values:
        return 0.0
    return min(values) if rules.lowest_wins else max(values)


def _rollout(g: Giv, rng: random.Random) -> int:
    """Play on with :func:`kasino_greedy` to the end of the current utdelning (or
    dragkasino's next eight moves, or the giv's end); the number of moves pushed."""
    k = 0
    deals = g.deal_index
    limit = 2 * g.rules.players if g.rules.draw else 1_000
    while not g.is_over and k < limit:
        g.push(kasino_greedy(g, rng))
        k += 1
        if not g.rules.draw and g.deal_index != deals:
            break
    return k


#: the expert's exact search of a known endgame gives up after this many positions (then sampling
#: decides); :mod:`~krypteach.bots.kasino_exact` searches it
EXACT_BUDGET = 20_000
#: ... and the coach's (every move's exact value, in the background while the learner plays)
REVIEW_EXACT_BUDGET = 400_000


def _one_deal(obs: Observation, rng: random.Random, unseen: list[Card], moves: list[Move],
              base: float) -> tuple[float, dict[Move, float]]:
    """One determinization: the unseen cards dealt at random, each move played and the giv rolled
    out (the same roll for every move), valued lower is better from ``base``, the seat's gain so
    far (worked out on the first deal when it is NaN: the piles are public, the same on every deal)."""
    return run_steps(_one_deal_steps(obs, rng, unseen, moves, base))


def _one_deal_steps(obs: Observation, rng: random.Random, unseen: list[Card], moves: list[Move],
                    base: float) -> Steps[tuple[float, dict[Move, float]]]:
    """:func:`_one_deal` a step at a time: a step is one move's roll-out."""
    me = obs.seat
    sign = -1 if obs.rules.lowest_wins else 1
    hands, stock = deal_unseen(obs, rng, unseen=unseen, forbidden={})
    g = kasino_world(obs, hands, stock)
    if math.isnan(base):
        base = kasino_utility(g, me)
    roll_seed = rng.getrandbits(32)
    out: dict[Move, float] = {}
    for m in moves:
        g.push(m)
        k = 1 + _rollout(g, random.Random(roll_seed))
        out[m] = -sign * (kasino_utility(g, me) - base)
        for _i in range(k):
            g.pop()
        yield
    return base, out


def kasino_analyse(bot: Any, obs: Observation, moves: list[Move]) -> tuple[str, dict[Move, float], int, Move]:
    """The expert's decision in classic Kasino (see the module docstring), for
    :class:`~krypteach.bots.expert.ExpertBot` (``bot``: its budget and seed): the fields of
    its ``Analysis``: the method (``"exact"`` or ``"monte-carlo"``), each candidate's
    value, lower-is-better (minus the expected gain in kasino, the gain in avig kasino)
    "from here", the samples and the move chosen."""
    rules = obs.rules
    sign = -1 if rules.lowest_wins else 1
    ranked = ranked_kasino(obs, bot.seed, moves)
    me = obs.seat
    unseen = obs.unseen()
    # two players, every card known: the rest of the giv searched exactly
    if bot.exact and rules.players == 2 and obs.stock_left == 0 and len(unseen) == obs.hand_sizes[1 - me]:
        hands: list[list[Card]] = [[], []]
        hands[me] = list(obs.hand)
        hands[1 - me] = list(unseen)
        g = kasino_world(obs, hands, [])
        base = kasino_utility(g, me)
        solver = KasinoEndgame(g, me, EXACT_BUDGET, kasino_utility)
        vals: dict[Move, float] = {}
        for a in ranked:
            vals[a.move] = -sign * (solver.value_of(a.move) - base)
        if not solver.exhausted:
            best = min(ranked, key=lambda a: vals[a.move]).move  # stable: careful's order among equals
            return "exact", vals, 0, best
    candidates = [a.move for a in ranked[: bot.kasino_candidates]]
    if len(candidates) == 1:  # (kasino_candidates=1: careful's choice, not a forced move)
        return "monte-carlo", {candidates[0]: 0.0}, 0, candidates[0]
    rng = _position_rng(bot.seed, obs, "expert")
    alive = list(candidates)
    values: dict[Move, list[float]] = {m: [] for m in candidates}
    done = 0
    base = math.nan  # our gain so far (the same in every determinization: the piles are public)
    deadline = None if bot.max_seconds is None else time.perf_counter() + bot.max_seconds
    for _s in range(bot.kasino_samples):
        base, on_this = _one_deal(obs, rng, unseen, alive, base)
        for m in alive:
            values[m].append(on_this[m])
        done += 1
        if done >= 6:
            alive = survivors(alive, values, done)
            if len(alive) == 1:
                break
        if deadline is not None and time.perf_counter() > deadline:
            break
    means = {m: sum(v) / len(v) for m, v in values.items()}
    best = min(alive, key=lambda m: means[m])  # stable: careful's order among equals
    return "monte-carlo", means, done, best


def kasino_every_move(obs: Observation, moves: list[Move], samples: int, seed: int | None = None,
                      exact: bool = True) -> tuple[str, dict[Move, list[float]]]:
    """Every legal move's value in classic Kasino or avig kasino, for the review of a giv
    (:mod:`krypteach.bots.review`): ``("exact", {move: [value]})`` when two players hold every
    card left (the rest of the giv searched exactly, within :data:`EXACT_BUDGET`), else
    ``("sampled", {move: [value per determinization]})``: on each of ``samples`` deals of the
    cards the seat has not seen (the same deals for every move, so the values are paired) the
    move is played and the rest of the giv rolled out by the greedy player. A value is lower is
    better, "from here" (minus the expected gain in Kasino, the gain in avig kasino), as
    :func:`kasino_analyse`'s; it uses nothing the seat has not seen."""
    return run_steps(kasino_every_move_steps(obs, moves, samples, seed, exact))


#: the review's roll-outs of one decision, at most (every move on every determinization): a
#: table of many loose cards makes a hundred builds and more, each rolled out on each deal
REVIEW_ROLLOUTS = 960
#: ... but never fewer determinizations than this (the intervals widen: fewer verdicts, not wrong ones)
REVIEW_MIN_SAMPLES = 6


def review_samples(samples: int, moves: int) -> int:
    """The determinizations a decision of ``moves`` legal moves gets: ``samples``, fewer when
    the roll-outs would pass :data:`REVIEW_ROLLOUTS` (at least :data:`REVIEW_MIN_SAMPLES`).

    >>> review_samples(24, 12), review_samples(24, 60), review_samples(24, 152), review_samples(4, 152)
    (24, 16, 6, 4)
    """
    return max(min(samples, REVIEW_ROLLOUTS // max(1, moves)), min(samples, REVIEW_MIN_SAMPLES))


#: a sampled decision of more legal moves than this values the careful player's best this many
#: (and the move played): a table of many loose cards makes hundreds of builds, each rolled out
#: on each deal; a better move outside them is not seen (a loss may be found smaller, never larger)
REVIEW_CANDIDATES = 16


def review_candidates(obs: Observation, moves: list[Move], seed: int | None, played: Move | None) -> list[Move]:
    """The moves a sampled review values: all of ``moves``, or the :data:`REVIEW_CANDIDATES` the
    careful player ranks first and ``played`` (in the careful player's order)."""
    if len(moves) <= REVIEW_CANDIDATES:
        return moves
    ranked = [a.move for a in ranked_kasino(obs, seed, moves)]
    out = ranked[:REVIEW_CANDIDATES]
    if played is not None and played not in out:
        out = [*out[:-1], played]
    return out


def kasino_every_move_steps(obs: Observation, moves: list[Move], samples: int, seed: int | None = None,
                            exact: bool = True, played: Move | None = None,
                            ) -> Steps[tuple[str, dict[Move, list[float]]]]:
    """:func:`kasino_every_move` a step at a time (:mod:`~krypteach.bots.steps`): a step is one
    move's exact search, or one determinization. Sampled, a decision of many moves values
    :func:`review_candidates` only (``played`` among them)."""
    rules = obs.rules
    sign = -1 if rules.lowest_wins else 1
    me = obs.seat
    unseen = obs.unseen()
    if exact and rules.players == 2 and obs.stock_left == 0 and len(unseen) == obs.hand_sizes[1 - me]:
        hands: list[list[Card]] = [[], []]
        hands[me] = list(obs.hand)
        hands[1 - me] = list(unseen)
        g = kasino_world(obs, hands, [])
        base = kasino_utility(g, me)
        solver = KasinoEndgame(g, me, REVIEW_EXACT_BUDGET, kasino_utility)
        vals: dict[Move, list[float]] = {}
        for m in moves:
            v = yield from solver.value_of_steps(m)
            vals[m] = [-sign * (v - base)]
            if solver.exhausted:
                break
        if not solver.exhausted:
            return "exact", vals
    moves = review_candidates(obs, moves, seed, played)
    rng = _position_rng(seed, obs, "review")
    values: dict[Move, list[float]] = {m: [] for m in moves}
    base = math.nan
    for _s in range(review_samples(samples, len(moves))):
        base, on_this = yield from _one_deal_steps(obs, rng, unseen, moves, base)
        for m in moves:
            values[m].append(on_this[m])
    return "sampled", values
