"""The careful bot: rule-aware heuristics, one turn deep.

Krypkasino is misère: points are bad. A tabbe gives the *taker* a mark (+5)
and the player who moved just before it a dukning (−5), and tvångstabbe forces
a player whose card can take the whole table to take it. So the careful bot,
for every legal move, adds up a few named terms, each in expected points for
its side (its team's score against the others'; lower is better):

- ``points``: card points the move puts on its own pile now (a capturing card
  goes to the pile too);
- ``tabbe``: a forced tabbe's mark for itself and dukning for the previous player;
- ``setup``: the table left behind can be taken whole — the chance the next
  player holds such a card (counted from the unseen cards, and the ranks that
  player is known to lack) times what that tabbe is worth (a dukning for us,
  a mark and the table's points for them);
- ``exposed``: (two players) the chance that the opponent can answer with a
  card that leaves a table *our* remaining hand must take whole;
- ``dump``: a small bonus for creeping a scoring card out of the hand;
- ``sweep``: on the last move of the giv, the last capturer takes the table
  and the klädda högen.

The lowest total wins; exact ties are broken by the bot's seeded random
generator (seeded by the seed and the position, so the same observation gives
the same move). :meth:`CarefulBot.explain` says why in words.

>>> from krypteach.engine.game import Giv
>>> g = Giv(seed=2)
>>> bot = CarefulBot(seed=0)
>>> bot.choose(g.observation()) in g.legal_moves()
True
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field
from typing import NamedTuple

from ..engine.capture_cache import RESULTS, SPECS, USABLE, caps_code, pack, ranks_taking_whole_packed, whole_bits_packed
from ..engine.capture_search import UNIT, pack_counts
from ..engine.cards import POINTS, Card
from ..engine.game import Observation
from ..engine.moves import Move
from ..engine.rules import Rules
from ..engine.turn import giv_scores, tabbe_marks, tabbe_score, team_relative
from . import kasino as _kasino
from . import words as W
from .knowledge import forbidden_ranks, p_holds_any, unseen_rank_counts

__all__ = ["CarefulBot", "Assessment", "assess_moves", "position_rng", "clear_caches"]


#: weights of the terms (the ``points`` and ``tabbe`` terms are exact and weigh 1)
WEIGHTS = {"points": 1.0, "tabbe": 1.0, "setup": 1.0, "exposed": 0.8, "dump": 0.3, "sweep": 1.0}


_CODES = tuple(str(Card(i)) for i in range(52))


def position_rng(seed: int | None, obs: Observation, salt: str = "") -> random.Random:
    """A random generator fixed by ``seed`` and the observed position, so a bot
    asked twice about the same observation answers the same."""
    code = _CODES.__getitem__  # str(card), looked up
    key = f"{salt}|{seed}|{obs.seat}|{obs.deal_index}|{' '.join(map(code, obs.hand))}|{' '.join(map(code, obs.table))}|{len(obs.history)}"
    # str(t.move) for the last eight moves
    key += "|" + " ".join([code(m.card) if m.capture is None else code(m.card) + ":" + "+".join(map(code, m.capture))
                           for m in (t.move for t in obs.history[-8:])])
    return random.Random(zlib.crc32(key.encode()) ^ ((seed or 0) * 0x9E3779B1 & 0xFFFFFFFF))


@dataclass
class Assessment:
    """One legal move, its named terms (expected points for the mover's side) and words."""

    move: Move
    terms: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        """The weighted sum of the terms (the default :data:`WEIGHTS`)."""
        return self.score(WEIGHTS)

    def score(self, weights: dict[str, float]) -> float:
        return sum([weights[k] * v for k, v in self.terms.items()])


def assess_moves(obs: Observation, moves: list[Move] | None = None) -> list[Assessment]:
    """The careful bot's terms for every legal move of ``obs`` (see the module docstring).

    The tabbe terms come from the engine (:mod:`krypteach.engine.turn`): the
    marks a move makes, what they are worth to the taker and to the previous
    mover (``obs.previous_mover``, also in a hand-made position), and how that
    counts for this seat's side.

    >>> from krypteach.engine.game import Giv
    >>> g = Giv.from_position([["10S", "4H"], ["5D"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    >>> [(str(a.move), a.terms["tabbe"]) for a in assess_moves(g.observation())]
    [('10S:AH+3D+7C+9S', 10.0)]
    """
    view = _View(obs, words=True)
    out = view.assess(obs.legal_moves() if moves is None else moves)
    for a, pending in zip(out, view.pending):
        if pending is not None:
            view.add_exposure(a, pending)
    return out


class _Pending(NamedTuple):
    """What the ``exposed`` term of a move needs, kept until the term is asked for."""

    packed: int  # the table the move leaves, packed
    whole_ranks: tuple[int, ...]  # the ranks that would take that table whole
    card: Card  # the card played (our remaining hand is the hand less one of it)
    p_setup: float


class _View:
    """What one decision needs: the observation, what the seat infers from it,
    and the terms' constants; :meth:`assess` adds the terms up move by move.

    The ``exposed`` term is the costly one, so it is left pending
    (:meth:`add_exposure`): :meth:`CarefulBot.choose` works it out only for the
    moves that could still be best. ``words`` adds the notes (only
    :meth:`CarefulBot.explain` reads them)."""

    def __init__(self, obs: Observation, words: bool) -> None:
        self.obs = obs
        self.words = words
        rules = self.rules = obs.rules
        me = self.me = obs.seat
        n = rules.players
        nxt = self.nxt = (me + 1) % n
        hands_after = list(obs.hand_sizes)
        hands_after[me] -= 1
        self.ends_deal = not any(hands_after)
        self.last_move_of_giv = self.ends_deal and obs.stock_left == 0
        # how many unseen cards of each rank (index 1..13) the next seat may hold
        self.ranks_next = ranks_next = unseen_rank_counts(obs)
        for r in forbidden_ranks(obs).get(nxt, ()):
            ranks_next[r] = 0
        self.pool_next = sum(ranks_next)
        self.h_next = obs.hand_sizes[nxt]
        self.kladda_pts = sum(POINTS[c] for c in obs.kladda)
        self.to_taker, self.to_previous = tabbe_score(rules, 1)  # one mark and one dukning
        self.exposure_too = n == 2 and len(obs.hand) > 1 and rules.capture != "free"
        self.pending: list[_Pending | None] = []
        # what score changes are worth to this seat's side depends only on the rules and the
        # seat: kept across decisions (asked at every move: 5 % of a careful-bot giv)
        last = _LAST_SIDE.get(me)
        if last is not None and last[0] is rules:  # the same rules object as last time: no hashing of Rules
            side = last[1]
        else:
            known = _SIDES.get((rules, me))
            if known is None:
                # a tabbe by us next turn, set up by the next seat: our mark, its dukning
                exposed = team_relative(rules, me, {me: self.to_taker, nxt: self.to_previous})
                known = _SIDES[(rules, me)] = (exposed, {}, {})
            side = known
            _LAST_SIDE[me] = (rules, side)
        self.exposed_gain, self._own, self._setup_gain = side
        self._rest: dict[Card, tuple[int, int]] = {}  # see rest_ranks
        self._cands: list[tuple[int, int]] | None = None  # see exposure
        self._caches = _caches(rules)

    def own_points(self, points: int) -> float:
        """Card points we take, for our side."""
        g = self._own.get(points)
        if g is None:
            g = self._own[points] = team_relative(self.rules, self.me, {self.me: points})
        return g

    def setup_gain(self, table_points: int) -> float:
        """The next seat takes a table of these points whole: its mark and the points, our dukning."""
        g = self._setup_gain.get(table_points)
        if g is None:
            g = self._setup_gain[table_points] = team_relative(
                self.rules, self.me, {self.nxt: self.to_taker + table_points, self.me: self.to_previous})
        return g

    def assess(self, moves: list[Move]) -> list[Assessment]:
        """Every term but ``exposed`` (see :meth:`add_exposure`) for each move.

        The table a move leaves is worked out on packed value counts and points
        (the table's, less a capture's or plus a creeping card's), not as a list
        of cards: only its values, its points and whether it is empty matter here."""
        obs, rules, me, nxt, words = self.obs, self.rules, self.me, self.nxt, self.words
        prev = obs.previous_mover
        table = obs.table
        n_table = len(table)
        table_packed = pack(table)
        table_pts = sum(map(POINTS.__getitem__, table))
        facing_next = not self.ends_deal and rules.forced_tabbe and self.h_next
        exposure_too = self.exposure_too
        ace = rules.ace
        ranks_next = self.ranks_next
        own = self._own
        pending_out = self.pending
        out = []
        for m in moves:
            a = Assessment(m)
            notes = a.notes
            terms = a.terms
            card, cap = m
            if cap is None:
                leaves = True
                after_packed = table_packed + UNIT[card]
                after_pts = table_pts + POINTS[card]
                terms["points"] = 0.0
                if POINTS[card]:
                    terms["dump"] = -float(POINTS[card])
                    if words:
                        notes.append(W.gets_rid_of(card.symbol, POINTS[card]))
                elif table and words:
                    notes.append(W.takes_points(0))
                if not table and words:
                    notes.insert(0, W.creeps_on_empty())
            else:
                cap_pts = sum(map(POINTS.__getitem__, cap))
                pts = POINTS[card] + cap_pts  # move_points(m)
                g = own.get(pts)
                terms["points"] = self.own_points(pts) if g is None else g
                if words:
                    notes.append(W.takes_points(pts))
                leaves = len(cap) < n_table  # a capture is part of the table: it empties it when it is all of it
                if leaves:
                    after_packed = table_packed - pack(cap)
                    after_pts = table_pts - cap_pts
                else:
                    after_packed = after_pts = 0
                    made = tabbe_marks(table, m, rules)
                    mark, dukning = tabbe_score(rules, made)
                    deltas = {me: mark}
                    if prev is not None:
                        deltas[prev] = deltas.get(prev, 0) + dukning
                    terms["tabbe"] = team_relative(rules, me, deltas)
                    if words:
                        notes.append(W.forced_tabbe(made))
            # --- what the next player faces ---------------------------------------
            pending = None
            if leaves and facing_next:
                ranks = ranks_taking_whole_packed(after_packed, ace)
                p = 0.0
                if ranks:
                    p = p_holds_any(self.pool_next, sum([ranks_next[r] for r in ranks]), self.h_next)
                    gain = self.setup_gain(after_pts)
                    if p:
                        terms["setup"] = p * gain
                    if words:
                        if gain < 0:
                            notes.append(W.sets_up_tabbe(ranks, nxt, p))
                        elif gain > 0:
                            notes.append(W.tabbe_for_next_costs(ranks, nxt, p))
                if exposure_too:
                    pending = _Pending(after_packed, ranks, card, p)
            pending_out.append(pending)
            # --- the end of the giv -----------------------------------------------
            if self.last_move_of_giv:
                last = me if cap is not None else obs.last_capturer
                if last is not None:
                    # the last capturer takes the table and klädda högen (and the last capture point)
                    n = rules.players
                    swept = [0] * n
                    swept[last] = after_pts + self.kladda_pts
                    gains = giv_scores(rules, swept, [0] * n, [0] * n, last)
                    terms["sweep"] = team_relative(rules, me, {last: gains[last]})
                    if last == me and gains[last] and words:
                        notes.append(W.takes_the_rest(gains[last]))
            out.append(a)
        return out

    def exposure_bounds(self, pending: _Pending) -> tuple[float, float]:
        """The least and the most the ``exposed`` term can be (before its weight). (A
        tighter most, from the ranks that could be bad, was tried: it spared no search,
        since the best complete total, not these bounds, decides what is skipped.)"""
        most = (1 - pending.p_setup) * self.exposed_gain  # when the risk is 1
        return min(0.0, most), max(0.0, most)

    def add_exposure(self, a: Assessment, pending: _Pending) -> bool:
        """Work out the pending ``exposed`` term of ``a``'s move (two players);
        whether there is one (a risk above 0)."""
        risk, bad = self.exposure(pending)
        if not risk:
            return False
        # (never on the giv's last move, so the terms stay in their order: no ``sweep`` yet)
        a.terms["exposed"] = (1 - pending.p_setup) * risk * self.exposed_gain
        if self.words:
            a.notes.append(W.risks_forced_tabbe(self.nxt, bad))
        return True

    def rest_ranks(self, card: Card) -> tuple[int, int]:
        """Our ranks once ``card`` is played (a bit set, bit ``rank - 1``) and the
        highest value those cards can take (a played ace may count 14)."""
        got = self._rest.get(card)
        if got is None:
            rest = list(self.obs.hand)
            rest.remove(card)
            specs = SPECS[self.rules.ace]
            mine = most = 0
            for c in rest:
                mine |= 1 << (c >> 2)
                most = max(most, specs[c >> 2][1])
            got = self._rest[card] = (mine, most)
        return got

    def exposure(self, pending: _Pending) -> tuple[float, list[int]]:
        """Two players: chance the opponent holds a card whose play leaves a table that
        our remaining hand must take whole (a tabbe for us, a dukning for them), and
        those ranks, ascending. ``ranks_next`` counts the cards of each rank the
        opponent may hold, out of ``pool_next``.

        The tables each rank can leave are cached (:func:`_reach`): card by card and
        uncached this was 60 % of the time of a careful-bot giv. Even so a new table
        comes up about 170 times a giv.

        A table card above the values our cards can take stays on the table unless
        the opponent's card can take it: with it there, no table left is ours to take
        whole (this skips a third of the ranks)."""
        packed, whole_ranks, card, _ = pending
        mine, most = self.rest_ranks(card)
        top = (packed.bit_length() + 3) >> 2  # the table's highest value
        cands = self._cands
        if cands is None:  # the ranks the next seat may hold, with the value a card of each can take
            specs = SPECS[self.rules.ace]
            cands = self._cands = [(r, specs[r - 1][1]) for r in range(1, 14) if self.ranks_next[r]]
        reach, takes = self._caches
        ranks_next = self.ranks_next
        base = packed << 4
        bad = []
        special = 0
        for r, target in cands:
            if r in whole_ranks or (top > most and target < top):
                continue
            bits = reach.get(base | r)
            if bits is None:
                bits = _reach(reach, takes, self.rules, packed, r)
            if bits & mine:
                bad.append(r)
                special += ranks_next[r]
        if not bad:
            return 0.0, bad
        return p_holds_any(self.pool_next, special, self.h_next), bad


#: (rules, seat) -> (the exposed term's gain, {points: own_points}, {points: setup_gain})
_SIDES: dict[tuple[Rules, int], tuple[float, dict[int, float], dict[int, float]]] = {}
#: seat -> the rules last asked for at that seat and their entry of _SIDES (hashing a Rules
#: is 4 % of a decision)
_LAST_SIDE: dict[int, tuple[Rules, tuple[float, dict[int, float], dict[int, float]]]] = {}

#: (ace rule, capture mode) -> {packed table << 4 | rank: bit set of the ranks that could take
#: the whole table the rank's card leaves (bit r - 1 for rank r)}; see _reach
_REACH: dict[tuple[str, str], dict[int, int]] = {}
#: (ace rule, capture mode) -> {packed cards up to the rank's value << 4 | rank: the packed
#: counts of each capture of a card of that rank (empty: it creeps)}
_TAKES: dict[tuple[str, str], dict[int, tuple[int, ...]]] = {}
_CACHE_LIMIT = 500_000  # entries per dict; a full one is emptied (bounded memory)
_RANK_UNIT = (0,) + tuple(1 << 4 * (r - 1) for r in range(1, 14))  # one card of a rank, packed


def clear_caches() -> None:
    """Empty the careful bot's caches (benchmarks start cold with this).

    >>> clear_caches()
    """
    _REACH.clear()
    _TAKES.clear()
    _SIDES.clear()
    _LAST_SIDE.clear()


def _caches(rules: Rules) -> tuple[dict[int, int], dict[int, tuple[int, ...]]]:
    key = (rules.ace, rules.capture)
    reach = _REACH.get(key)
    if reach is None:
        reach = _REACH[key] = {}
        _TAKES[key] = {}
    return reach, _TAKES[key]


def _reach(reach: dict[int, int], takes: dict[int, tuple[int, ...]], rules: Rules, packed: int, rank: int) -> int:
    """The ranks (a bit set) that would take the whole table left when a card of
    ``rank`` (not one that takes the table whole) is played on the table of
    ``packed`` value counts: any of its legal moves that leave cards. Only
    values matter, so this is worked out on packed counts (as
    :func:`krypteach.bots.sim.tables_after` does on counts) and cached in
    ``reach`` (the captures in ``takes``: see :func:`_caches`).

    A card can take only cards up to its value, so its captures are looked up
    on those cards alone (:func:`~krypteach.engine.capture_cache.caps_code`, the
    engine's own cache, which the legal moves fill too: its answers recur far
    more often than the whole table's)."""
    ace, mode = rules.ace, rules.capture
    usable = packed & USABLE[ace][rank - 1]
    key = usable << 4 | rank
    caps = takes.get(key)
    if caps is None:
        # the engine's capture cache (shared with the legal moves, on the same cards up to the value)
        caps = tuple(map(pack_counts, RESULTS[caps_code(usable, rank - 1, ace, mode) >> 1][0]))
        if len(takes) >= _CACHE_LIMIT:
            takes.clear()
        takes[key] = caps
    # every table its legal moves leave: each capture taken off, or the card crept on
    bits = 0
    for k in caps:
        if packed != k:  # (a capture that takes the table whole leaves nothing to take)
            bits |= whole_bits_packed(packed - k, ace)
    if not caps or mode == "free":
        bits |= whole_bits_packed(packed + _RANK_UNIT[rank], ace)
    if len(reach) >= _CACHE_LIMIT:
        reach.clear()
    reach[packed << 4 | rank] = bits
    return bits


class CarefulBot:
    """Rule-aware heuristics, deterministic under its seed (see the module docstring)."""

    name = "careful"
    stateless = True  # the choice depends on the seed and the observation only (see position_rng)

    def __init__(self, seed: int | None = None, **weights: float) -> None:
        """``weights`` override :data:`WEIGHTS` by term name (for experiments: ``CarefulBot(setup=0)``)."""
        unknown = sorted(set(weights) - set(WEIGHTS))
        if unknown:
            raise ValueError(f"unknown term {unknown[0]!r}: the terms are {', '.join(WEIGHTS)}")
        self.seed = seed
        self.weights = {**WEIGHTS, **{k: float(v) for k, v in weights.items()}}

    def _ranked(self, obs: Observation, assessed: list[Assessment] | None = None) -> list[Assessment]:
        """Every legal move's assessment, best first; exact ties in the
        weighted total are ordered by :func:`position_rng`."""
        if assessed is None:
            assessed = assess_moves(obs, obs.legal_moves())
        rng = position_rng(self.seed, obs, "careful")
        keys = [rng.random() for _ in assessed]
        order = sorted(range(len(assessed)), key=lambda i: (round(assessed[i].score(self.weights), 9), keys[i]))
        return [assessed[i] for i in order]

    def choose(self, obs: Observation) -> Move:
        moves = obs.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if _kasino.thinks_in_builds(obs.rules):  # classic Kasino thinks in builds: krypteach/bots/kasino.py
            return _kasino.kasino_choose(obs, self.seed)
        view = _View(obs, words=False)
        assessed = view.assess(moves)
        weights = self.weights
        w = weights["exposed"]
        # Branch and bound on the pending ``exposed`` terms, the costly ones: moves
        # are completed from the lowest possible total up, and a move whose least
        # possible total is above the best complete total cannot be best, so its
        # term is never worked out (the same choice as adding up every term).
        partial = [a.score(weights) for a in assessed]
        low, high = list(partial), list(partial)
        pend = view.pending
        for i, pending in enumerate(pend):
            if pending is not None:
                lo, hi = view.exposure_bounds(pending)
                low[i] += min(w * lo, w * hi)
                high[i] += max(w * lo, w * hi)
        cutoff = min(high) + 1e-6
        totals: list[float | None] = [None] * len(assessed)
        for i in sorted(range(len(assessed)), key=low.__getitem__):
            if low[i] > cutoff:
                break
            pending = pend[i]
            if pending is not None and view.add_exposure(assessed[i], pending):
                total = totals[i] = round(assessed[i].score(weights), 9)
            else:  # its terms are the partial ones
                total = totals[i] = round(partial[i], 9)
            cutoff = min(cutoff, total + 1e-6)
        best = min(t for t in totals if t is not None)
        if totals.count(best) == 1:  # no tie to break: the random keys would not matter
            return assessed[totals.index(best)].move
        rng = position_rng(self.seed, obs, "careful")
        keys = [rng.random() for _ in assessed]
        return assessed[min((i for i, t in enumerate(totals) if t == best), key=keys.__getitem__)].move

    def explain(self, obs: Observation) -> tuple[Move, str]:
        """The move and why, in whole sentences (:mod:`.words`), e.g. ``"7♥ creeps. You take no points. Seat 1 gets
        tabbe på tio, …"``."""
        if _kasino.thinks_in_builds(obs.rules):
            return _kasino.kasino_explain(obs, self.seed)
        moves = obs.legal_moves()
        ranked = self._ranked(obs)
        best = ranked[0]
        head = best.move.describe()
        notes = best.notes or [W.nothing_at_stake()]
        if len(moves) == 1:
            takes_all = best.move.capture is not None and len(best.move.capture) == len(obs.table)
            return best.move, W.reason(head, [W.must_take_whole_table() if takes_all else W.only_legal_move(), *notes])
        second = ranked[1]
        return best.move, W.reason(head, notes, W.expected(best.score(self.weights), second.score(self.weights),
                                                           second.move.describe()))

    def __repr__(self) -> str:
        return f"CarefulBot(seed={self.seed})"
