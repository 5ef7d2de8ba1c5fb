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

from ..engine.captures import _counts, _whole_ranks
from ..engine.cards import Card
from ..engine.game import Observation
from ..engine.moves import Move, legal_moves, table_after
from .knowledge import forbidden_ranks, move_points, p_holds_any, relative

__all__ = ["CarefulBot", "Assessment", "assess_moves", "position_rng"]

_RANK_WORDS = {1: "ess", 2: "två", 3: "tre", 4: "fyra", 5: "fem", 6: "sex", 7: "sju", 8: "åtta", 9: "nio",
               10: "tio", 11: "knekt", 12: "dam", 13: "kung"}

#: weights of the terms (the ``points`` and ``tabbe`` terms are exact and weigh 1)
WEIGHTS = {"points": 1.0, "tabbe": 1.0, "setup": 1.0, "exposed": 0.8, "dump": 0.3, "sweep": 1.0}


def position_rng(seed: int | None, obs: Observation, salt: str = "") -> random.Random:
    """A random generator fixed by ``seed`` and the observed position, so a bot
    asked twice about the same observation answers the same."""
    key = f"{salt}|{seed}|{obs.seat}|{obs.deal_index}|{' '.join(map(str, obs.hand))}|{' '.join(map(str, obs.table))}|{len(obs.history)}"
    key += "|" + " ".join(str(t.move) for t in obs.history[-8:])
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
        return sum(weights[k] * v for k, v in self.terms.items())


def _ranks_text(ranks) -> str:
    return " eller ".join(_RANK_WORDS[r] for r in sorted(ranks))


def assess_moves(obs: Observation, moves: list[Move] | None = None) -> list[Assessment]:
    """The careful bot's terms for every legal move of ``obs`` (see the module docstring)."""
    rules = obs.rules
    moves = obs.legal_moves() if moves is None else moves
    me = obs.seat
    n = rules.players
    nxt = (me + 1) % n
    prev = obs.history[-1].player if obs.history else None
    unseen = obs.unseen()
    forb = forbidden_ranks(obs)
    hands_after = list(obs.hand_sizes)
    hands_after[me] -= 1
    ends_deal = not any(hands_after)
    last_move_of_giv = ends_deal and obs.stock_left == 0
    pool_next = [c for c in unseen if c.rank not in forb.get(nxt, frozenset())]
    h_next = obs.hand_sizes[nxt]
    kladda_pts = sum(c.points for c in obs.kladda)
    tp, dp = rules.tabbe_points, rules.dukning_points
    out = []
    for m in moves:
        a = Assessment(m)
        cap = m.capture
        table = list(obs.table)
        after = table_after(table, m)
        if cap is None:
            a.terms["points"] = 0.0
            if m.card.points:
                a.terms["dump"] = -float(m.card.points)
                a.notes.append(f"gets rid of {m.card.symbol} ({m.card.points} p) without taking it")
            elif table:
                a.notes.append("takes no points")
        else:
            pts = move_points(m)
            a.terms["points"] = relative(rules, me, {me: pts})
            a.notes.append(f"takes {pts} point{'s' if pts != 1 else ''}" if pts else "takes no points")
            if not after:
                k = 2 if (rules.dubbeltabbe and len(table) == 1 and table[0] == m.card) else 1
                deltas = {me: k * tp}
                if prev is not None:
                    deltas[prev] = deltas.get(prev, 0) + k * dp
                a.terms["tabbe"] = relative(rules, me, deltas)
                a.notes.append("a forced tabbe (tvångstabbe)" if k == 1 else "a forced dubbeltabbe")
        if cap is None and not table:
            a.notes.insert(0, "the table is empty, so it creeps")
        # --- what the next player faces -------------------------------------------
        if after and not ends_deal and rules.forced_tabbe and h_next:
            ranks = _whole_ranks(_counts(after), rules.ace)
            if ranks:
                p = p_holds_any(len(pool_next), sum(1 for c in pool_next if c.rank in ranks), h_next)
                gain = relative(rules, me, {nxt: tp + sum(c.points for c in after), me: dp})
                if p:
                    a.terms["setup"] = p * gain
                who = f"seat {nxt}"
                if gain < 0:
                    a.notes.append(f"sets up tabbe på {_ranks_text(ranks)} for {who} (a dukning for you; "
                                   f"{round(100 * p)}% that {who} holds one)")
                elif gain > 0:
                    a.notes.append(f"leaves tabbe på {_ranks_text(ranks)} for your partner in {who}")
            else:
                p = 0.0
            if n == 2 and len(obs.hand) > 1 and rules.capture != "free":
                risk, bad = _exposure(obs, m, after, pool_next, h_next, ranks)
                if risk:
                    a.terms["exposed"] = (1 - p) * risk * relative(rules, me, {me: tp, nxt: dp})
                    a.notes.append(f"risks being forced into a tabbe next turn if seat {nxt} plays "
                                   + "/".join(_RANK_WORDS[r] for r in sorted(bad)))
        # --- the end of the giv ---------------------------------------------------
        if last_move_of_giv:
            last = me if cap is not None else obs.last_capturer
            if last is not None:
                sweep = sum(c.points for c in after) + kladda_pts + rules.last_capture_point
                a.terms["sweep"] = relative(rules, me, {last: sweep})
                if last == me and sweep:
                    a.notes.append(f"as last capturer takes the rest ({sweep} p)")
        out.append(a)
    return out


def _exposure(obs: Observation, move: Move, after: list[Card], pool: list[Card], h_next: int,
              whole_ranks) -> tuple[float, set[int]]:
    """Two players: chance the opponent holds a card whose play leaves a table that
    our remaining hand must take whole (a tabbe for us, a dukning for them)."""
    rules = obs.rules
    rest = list(obs.hand)
    rest.remove(move.card)
    my_ranks = {c.rank for c in rest}
    bad: set[int] = set()
    ranks_unseen = {c.rank for c in pool}
    for r in ranks_unseen:
        if r in whole_ranks:
            continue
        card = Card.make(r, "H")
        for m in legal_moves([card], after, rules):
            t2 = table_after(after, m)
            if t2 and not my_ranks.isdisjoint(_whole_ranks(_counts(t2), rules.ace)):
                bad.add(r)
                break
    if not bad:
        return 0.0, bad
    special = sum(1 for c in pool if c.rank in bad)
    return p_holds_any(len(pool), special, h_next), bad


class CarefulBot:
    """Rule-aware heuristics, deterministic under its seed (see the module docstring)."""

    name = "careful"

    def __init__(self, seed: int | None = None, **weights: float) -> None:
        """``weights`` override :data:`WEIGHTS` by term name (for experiments: ``CarefulBot(setup=0)``)."""
        unknown = sorted(set(weights) - set(WEIGHTS))
        if unknown:
            raise ValueError(f"unknown term {unknown[0]!r}: the terms are {', '.join(WEIGHTS)}")
        self.seed = seed
        self.weights = {**WEIGHTS, **{k: float(v) for k, v in weights.items()}}

    def _ranked(self, obs: Observation) -> list[Assessment]:
        moves = obs.legal_moves()
        rng = position_rng(self.seed, obs, "careful")
        assessed = assess_moves(obs, moves)
        keys = [rng.random() for _ in assessed]
        order = sorted(range(len(assessed)), key=lambda i: (round(assessed[i].score(self.weights), 9), keys[i]))
        return [assessed[i] for i in order]

    def choose(self, obs: Observation) -> Move:
        moves = obs.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return self._ranked(obs)[0].move

    def explain(self, obs: Observation) -> tuple[Move, str]:
        """The move and why, e.g. ``"7♥ creeps: takes no points and sets up tabbe på tio for seat 1 …"``."""
        moves = obs.legal_moves()
        ranked = self._ranked(obs)
        best = ranked[0]
        head = best.move.describe()
        words = "; ".join(best.notes) if best.notes else "nothing to gain or lose"
        if len(moves) == 1:
            forced = "the only legal move" if best.move.capture is None or obs.table and len(best.move.capture) < len(obs.table) \
                else "tvångstabbe: a card in your hand takes the whole table, so it must"
            return best.move, f"{head}: {forced} ({words})."
        second = ranked[1]
        return best.move, (f"{head}: {words}. Expected {best.score(self.weights):+.1f} points for you against "
                           f"{second.score(self.weights):+.1f} for {second.move.describe()}.")

    def __repr__(self) -> str:
        return f"CarefulBot(seed={self.seed})"
