"""The expert bot: determinized Monte Carlo search, and exact play in a known endgame.

For each decision with a real choice the expert deals the cards it has not
seen at random into the other hands and the stock, consistently with what its
seat knows (hand sizes, stock size, and the ranks tvångstabbe shows a seat
lacks) — one *determinization* — and scores every legal move on it. It does
that for many determinizations (the same ones for every move, so the
comparison is paired) and plays the move with the best mean outcome for its
side: its team's score minus the mean of the others' (misère: lower is better).

How a move is scored on one determinization:

- **Two players** (``method="deal"``, the default for two): the rest of the
  current utdelning is searched exactly — every line, both sides playing their
  best (minimax, memoized) — counting card points, tabbar and dukningar, and at
  the end of the deal the next deal's first move if the new table is a forced
  tabbe for the leader. Only careful's ``deal_candidates`` best moves (default
  2) are searched, and one that is clearly worse than the other after a few
  determinizations is dropped. In the last utdelning the stock is empty and the
  opponent holds exactly the unseen cards, so there is only one determinization
  and the search to the end of the giv (with the last capturer's sweep) is
  exact over every move: :func:`krypteach.bots.endgame.solve_endgame`.
- **Three or more players** (``method="rollout"``): the move is played and the
  rest of the current utdelning is rolled out (``horizon="deal"``, plus the
  next deal's first move if it is a forced tabbe; ``horizon="giv"`` rolls out
  to the end of the giv) with a cheap greedy version of the careful bot's
  terms, the hands being known in the determinization. Candidates that differ
  only in the suits of pointless cards are merged, and at most
  ``max_candidates`` (careful's best) are tried.

The budget is a number of determinizations (``samples``, default 20, for the
deal search, which also stops once ``node_budget`` positions, default 1,000,
have been searched, after at least 6 samples) or of rollouts (``rollouts``, default 240,
spread over the candidates, at least ``min_samples`` each). Budgets count work,
not time, so the bot is deterministic under its seed; ``max_seconds`` can cap
the time as well (then the result depends on the machine's speed). Ties go to careful's preference. ``docs/bots.md`` has the
measured strength and time per move.

>>> from krypteach.engine.game import Giv
>>> g = Giv(seed=2)
>>> bot = ExpertBot(seed=0, rollouts=24)
>>> bot.choose(g.observation()) in g.legal_moves()
True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..engine.cards import POINTS, Card
from ..engine.game import Observation
from ..engine.games import describe
from ..engine.moves import Move
from ..engine.rules import deal_plan
from ..engine.turn import giv_scores, team_relative
from . import words as W
from .careful import assess_moves, position_rng
from .endgame import solve_endgame
from .kasino import assess_kasino, kasino_analyse, kasino_every_move_steps, thinks_in_builds
from .knowledge import forbidden_ranks
from .sim import deal_unseen, future_deals, piles_from_history, rollout, sample_world, utility
from .sim import survivors as _survivors
from .steps import Steps, run_steps

__all__ = ["ExpertBot", "Analysis"]


@dataclass
class Analysis:
    """What the expert found for one decision: mean outcome per candidate move."""

    method: str  # "forced", "exact", "deal-search" or "monte-carlo"
    values: dict[Move, float] = field(default_factory=dict)
    samples: int = 0
    chosen: Move | None = None


#: the deal search stops at ``node_budget`` positions searched, but never before this many samples
_MIN_DEAL_SAMPLES = 6
def move_class(m: Move) -> tuple[int, tuple[int, ...] | None]:
    """Moves that differ only in the suits of pointless cards play the same (Krypkasino: a
    card's suit counts only on the point cards).

    >>> move_class(Move.parse("7H")) == move_class(Move.parse("7D")), move_class(Move.parse("2S")) == move_class(Move.parse("2H"))
    (True, False)
    """

    def cls(c: Card) -> int:
        return int(c) if POINTS[c] else -((c >> 2) + 1)

    return (cls(m.card), None if m.capture is None else tuple(sorted(cls(c) for c in m.capture)))


def _current_utility(obs: Observation) -> float:
    """The seat's side's score so far minus the others' (to report outcomes "from here")."""
    scores = giv_scores(obs.rules, obs.pile_points, obs.marks, obs.dukningar, None)
    return team_relative(obs.rules, obs.seat, scores)


def _side(obs: Observation, seat: int | None) -> int | None:
    """A seat as the endgame solver's side: 0 (the seat to move), 1 (the other) or ``None``."""
    return None if seat is None else int(seat != obs.seat)


class ExpertBot:
    """Determinized Monte Carlo search (see the module docstring); exact in a known two-player endgame."""

    name = "expert"
    stateless = True  # the choice depends on the seed and the observation only (see position_rng)
    #: two players: how many of careful's best moves the deal search weighs (set it on an
    #: instance to experiment; docs/bots.md has the measurements behind 2)
    deal_candidates = 2

    def __init__(self, seed: int | None = None, *, samples: int = 20, node_budget: int = 1_000,
                 rollouts: int = 240, min_samples: int = 16,
                 max_candidates: int = 6, exact: bool = True, method: str = "auto", horizon: str = "deal",
                 max_seconds: float | None = None, kasino_samples: int = 6, kasino_candidates: int = 2) -> None:
        """``kasino_samples`` and ``kasino_candidates``: classic Kasino's budget, at most so
        many determinizations for so many of careful's best moves (docs/performance.md,
        "Classic Kasino bots"); the other options but ``exact`` and ``max_seconds`` tune
        Krypkasino's search."""
        if method not in ("auto", "deal", "rollout"):
            raise ValueError(f"method must be 'auto', 'deal' or 'rollout', not {method!r}")
        self.seed = seed
        self.samples = samples
        self.node_budget = node_budget
        if horizon not in ("giv", "deal"):
            raise ValueError(f"horizon must be 'giv' or 'deal', not {horizon!r}")
        self.horizon = horizon
        self.method = method
        self.rollouts = rollouts
        self.min_samples = min_samples
        self.max_candidates = max_candidates
        self.exact = exact
        self.max_seconds = max_seconds
        self.kasino_samples = kasino_samples
        self.kasino_candidates = kasino_candidates
        self.last: Analysis | None = None

    # --- the decision -----------------------------------------------------------
    def analyse(self, obs: Observation) -> Analysis:
        """Evaluate the candidate moves of ``obs`` (see the module docstring)."""
        moves = obs.legal_moves()
        if len(moves) == 1:
            return Analysis("forced", {moves[0]: 0.0}, 0, moves[0])
        rules = obs.rules
        if thinks_in_builds(rules):  # classic Kasino: builds, and the highest score wins (krypteach/bots/kasino.py)
            return Analysis(*kasino_analyse(self, obs, moves))
        # careful's order breaks ties and picks the candidates when there are many
        assessed = assess_moves(obs, moves)
        order = sorted(range(len(moves)), key=lambda i: assessed[i].total)
        ranked = [moves[i] for i in order]
        unseen = obs.unseen()
        if self.exact and rules.players == 2 and obs.stock_left == 0 and len(unseen) == obs.hand_sizes[1 - obs.seat]:
            vals = solve_endgame(rules, obs.hand, unseen, obs.table, kladda=obs.kladda,
                                 last_capturer=_side(obs, obs.last_capturer),
                                 previous_mover=_side(obs, obs.previous_mover))
            best = min(ranked, key=lambda m: vals[m])  # stable: careful's order among equals
            return Analysis("exact", {m: float(vals[m]) for m in ranked}, 0, best)
        rng = position_rng(self.seed, obs, "expert")
        forb = forbidden_ranks(obs)
        deadline = None if self.max_seconds is None else time.perf_counter() + self.max_seconds
        if rules.players == 2 and self.method in ("auto", "deal"):
            return self._deal_search(obs, ranked, unseen, forb, rng, deadline)
        seen: dict[tuple[int, tuple[int, ...] | None], Move] = {}
        for m in ranked:
            seen.setdefault(move_class(m), m)
        candidates = list(seen.values())[: self.max_candidates]
        if len(candidates) == 1:
            return Analysis("forced", {candidates[0]: 0.0}, 0, candidates[0])
        samples = max(self.min_samples, self.rollouts // len(candidates))
        totals = dict.fromkeys(candidates, 0.0)
        done = 0
        piles = piles_from_history(obs)
        for _ in range(samples):
            on_this = self._rolled_out(obs, rng, unseen, forb, piles, candidates)
            for m in candidates:
                totals[m] += on_this[m]
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        base = _current_utility(obs)
        values = {m: totals[m] / done - base for m in candidates}
        best = min(candidates, key=lambda m: values[m])
        return Analysis("monte-carlo", values, done, best)

    def _rolled_out(self, obs: Observation, rng: random.Random, unseen: list[Card], forb: dict[int, frozenset[int]],
                    piles: list[list[Card]], moves: list[Move]) -> dict[Move, float]:
        """One determinization (three or more players): each move played and the deal (or the
        giv, :attr:`horizon`) rolled out the same way, its outcome for the seat's side."""
        world = sample_world(obs, rng, unseen=unseen, forbidden=forb, piles=piles)
        roll_seed = rng.getrandbits(32)
        out: dict[Move, float] = {}
        for m in moves:
            world.push(m)
            played = 1 + rollout(world, random.Random(roll_seed), to_deal_end=self.horizon == "deal")
            out[m] = utility(world, obs.seat)
            for _ in range(played):
                world.pop()
        return out

    def _deal_search(self, obs: Observation, ranked: list[Move], unseen: list[Card],
                     forb: dict[int, frozenset[int]], rng: random.Random, deadline: float | None) -> Analysis:
        """Two players: on each determinization, search the rest of this deal exactly
        (both sides playing their best), counting the next deal's first move if it
        is a forced tabbe.

        Only careful's best ``deal_candidates`` moves (moves that differ only in the
        suits of pointless cards count once) are searched, and a candidate is
        dropped once it is clearly worse than the best so far (its mean difference
        over the samples above ``sim.DROP_Z`` standard errors plus ``sim.DROP_MARGIN``
        points, after ``_MIN_DEAL_SAMPLES`` samples). With the smaller budgets this
        plays as well as the old expert that weighed every move over 30 samples,
        in a quarter of the time (the duplicate-deal match is in docs/bots.md)."""
        rules = obs.rules
        me = obs.seat
        opp = 1 - me
        leader = (obs.dealer + 1) % 2
        lc = _side(obs, obs.last_capturer)
        prev = _side(obs, obs.previous_mover)
        classes: dict[tuple[int, tuple[int, ...] | None], Move] = {}
        for m in ranked:
            classes.setdefault(move_class(m), m)
        candidates = list(classes.values())[: self.deal_candidates]
        if len(candidates) == 1:
            return Analysis("forced", {candidates[0]: 0.0}, 0, candidates[0])
        alive = list(candidates)
        values: dict[Move, list[int]] = {m: [] for m in candidates}
        plan = deal_plan(rules)[obs.deal_index:obs.deal_index + 1]
        next_deal = sum(k * rules.players + t for k, t in plan)  # the cards the next utdelning deals
        done = 0
        stats: dict[str, int] = {"nodes": 0}
        self.nodes = stats
        for _ in range(self.samples):
            # only the opponent's hand and the next deal matter here: no need to build the whole world
            hands, stock = deal_unseen(obs, rng, unseen=unseen, forbidden=forb, stock_cards=next_deal)
            deals = future_deals(rules, obs.deal_index, stock, count=1)
            nd = deals[0] if deals else None
            vals = solve_endgame(rules, obs.hand, hands[opp], obs.table, kladda=obs.kladda, last_capturer=lc,
                                 previous_mover=prev, next_table=nd.table if nd else None,
                                 next_leader_hand=nd.hands[leader] if nd else None, merge_suits=True, stats=stats,
                                 first_moves=alive)
            for m in alive:
                values[m].append(vals[m])
            done += 1
            if done >= _MIN_DEAL_SAMPLES:
                alive = _survivors(alive, values, done)
                if len(alive) == 1 or stats["nodes"] >= self.node_budget:
                    break
            if deadline is not None and time.perf_counter() > deadline:
                break
        means = {m: sum(v) / len(v) for m, v in values.items()}
        best = min(alive, key=lambda m: means[m])  # stable: careful's order among equals
        return Analysis("deal-search", means, done, best)

    def every_move(self, obs: Observation, samples: int | None = None) -> tuple[str, dict[Move, list[float]]]:
        """Every legal move's value, for the review of a giv (:mod:`krypteach.bots.review`), not
        only the candidates the bot weighs: ``("exact", {move: [value]})`` in a two-player last
        utdelning (every card known: the rest of the giv solved), else ``("sampled", {move:
        [value on each determinization]})`` over ``samples`` (default :attr:`samples`) deals of
        the cards the seat has not seen, the same for every move (paired). A value is the seat's
        side's points minus the others' from here, lower is better (in classic Kasino minus the
        gain, :func:`~krypteach.bots.kasino.kasino_every_move`). Two players: the rest of the deal
        searched exactly on each determinization, as :meth:`analyse` does; more: the move played
        and the deal rolled out. Only the observation is used: never a hidden card."""
        return run_steps(self.every_move_steps(obs, samples))

    def every_move_steps(self, obs: Observation, samples: int | None = None, played: Move | None = None,
                         ) -> Steps[tuple[str, dict[Move, list[float]]]]:
        """:meth:`every_move` a step at a time (:mod:`~krypteach.bots.steps`): a step is one
        determinization (searched or rolled out), or the exact solution. In classic Kasino a
        sampled decision of many moves values the careful player's best and ``played`` only
        (:func:`~krypteach.bots.kasino.review_candidates`)."""
        moves = obs.legal_moves()
        n = self.samples if samples is None else samples
        rules = obs.rules
        if thinks_in_builds(rules):
            return (yield from kasino_every_move_steps(obs, moves, n, self.seed, self.exact, played))
        unseen = obs.unseen()
        classes: dict[tuple[int, tuple[int, ...] | None], Move] = {}
        for m in moves:
            classes.setdefault(move_class(m), m)
        reps = list(classes.values())
        lc, prev = _side(obs, obs.last_capturer), _side(obs, obs.previous_mover)
        if self.exact and rules.players == 2 and obs.stock_left == 0 and len(unseen) == obs.hand_sizes[1 - obs.seat]:
            vals = solve_endgame(rules, obs.hand, unseen, obs.table, kladda=obs.kladda, last_capturer=lc,
                                 previous_mover=prev)
            return "exact", {m: [float(vals[m])] for m in moves}
        rng = position_rng(self.seed, obs, "review")
        forb = forbidden_ranks(obs)
        per: dict[Move, list[float]] = {m: [] for m in reps}
        if rules.players == 2:
            opp, leader = 1 - obs.seat, (obs.dealer + 1) % 2
            plan = deal_plan(rules)[obs.deal_index:obs.deal_index + 1]
            next_deal = sum(k * rules.players + t for k, t in plan)
            for _ in range(n):
                hands, stock = deal_unseen(obs, rng, unseen=unseen, forbidden=forb, stock_cards=next_deal)
                deals = future_deals(rules, obs.deal_index, stock, count=1)
                nd = deals[0] if deals else None
                vals = solve_endgame(rules, obs.hand, hands[opp], obs.table, kladda=obs.kladda, last_capturer=lc,
                                     previous_mover=prev, next_table=nd.table if nd else None,
                                     next_leader_hand=nd.hands[leader] if nd else None, merge_suits=True,
                                     first_moves=reps)
                for m in reps:
                    per[m].append(float(vals[m]))
                yield
        else:
            piles = piles_from_history(obs)
            base = _current_utility(obs)
            for _ in range(n):
                on_this = self._rolled_out(obs, rng, unseen, forb, piles, reps)
                for m in reps:
                    per[m].append(on_this[m] - base)
                yield
        return "sampled", {m: per[classes[move_class(m)]] for m in moves}

    def choose(self, obs: Observation) -> Move:
        a = self.analyse(obs)
        self.last = a
        return a.chosen  # type: ignore[return-value]

    def explain(self, obs: Observation) -> tuple[Move, str]:
        """The move and why, in words: what it does this turn (the careful player's reasons) and
        how it compares with the next best move, e.g. ``"9♠ creeps. You take no points. Looking ahead
        over many ways the unseen cards may lie, it is about 3 points better than 5♦ creeps."``;
        two moves within half a point are "about as good"."""
        a = self.analyse(obs)
        self.last = a
        m = a.chosen
        assert m is not None
        head = describe(obs.rules, m)
        if a.method == "forced":
            n = len(obs.legal_moves())
            return m, W.reason(head, [W.only_legal_move() if n == 1 else W.plays_the_same()])
        notes = (assess_kasino(obs, [m]) if thinks_in_builds(obs.rules) else assess_moves(obs, [m]))[0].notes
        why = notes or [W.gives_nothing_away()]
        others = sorted(((v, o) for o, v in a.values.items() if o != m), key=lambda x: x[0])
        v = a.values[m]
        if not others:
            return m, W.reason(head, why)
        gap, second = others[0][0] - v, describe(obs.rules, others[0][1])  # lower is better: the points you end with
        if a.method == "exact":
            return m, W.reason(head, why, W.exact_end(round(v), obs.rules.lowest_wins), "" if gap < 0.5 else W.exact_better(round(gap), second))
        return m, W.reason(head, why, W.sampled_verdict(gap, second))

    def __repr__(self) -> str:
        return f"ExpertBot(seed={self.seed}, samples={self.samples}, method={self.method!r})"
