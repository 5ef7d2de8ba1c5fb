"""The review of a giv for one seat (issue 22): which of its decisions cost points, how many,
and why, as lichess's "Learn from your mistakes" does for a game of chess.

For each decision of the seat that had a real choice (more than one legal move) the review
values *every* legal move from the seat's own knowledge at that moment, its
:class:`~krypteach.engine.game.Observation` (what it had seen, and what the rules let it
infer; never a hidden hand of the record): :meth:`ExpertBot.every_move
<krypteach.bots.expert.ExpertBot.every_move>`. A value is "your side's points minus the
others' from here"; inside the review lower is better in every game (a Kasino gain is
negated), and :attr:`MoveValue.shown` turns it back into the game's own sense.

- **Exact** in a two-player last utdelning (every card known): the rest of the giv solved.
- **Sampled** before it: the same determinizations for every move, so the loss of a move
  (its value minus the best move's) is a mean of paired differences, with a 95 % confidence
  interval from Student's t.

A decision's verdict is ``fine`` unless the loss is *significant* (the interval's lower end
above zero: a move the search cannot tell apart from the best is never a mistake) and at
least a threshold in points (:data:`THRESHOLDS`; docs/review.md has the measurements behind
them): ``inaccuracy``, ``mistake``, ``blunder``.

>>> from krypteach.engine.game import Giv
>>> from krypteach.bots import make_bot
>>> g = Giv(seed=4)
>>> g.play_out(lambda x: make_bot("careful", seed=1).choose(x.observation()))
>>> r = review_giv(g, seat=0, samples=6)
>>> r.seat, len(r.decisions) > 10, 0.0 <= r.quality <= 1.0
(0, True, True)
>>> {d.verdict for d in r.decisions} <= set(VERDICTS)
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.game import Giv, Observation
from ..engine.games import describe
from ..engine.moves import Move
from ..engine.rules import Rules
from ..i18n import N_, _, ngettext
from ..i18n.numbers import number
from .careful import WEIGHTS, assess_moves
from .endgame import endgame_line
from .expert import ExpertBot, move_class
from .kasino import assess_kasino, thinks_in_builds
from .sim import world
from .steps import Steps, run_steps
from .words import seat_name

__all__ = ["VERDICTS", "VERDICT_WORDS", "THEMES", "theme_of", "THRESHOLDS", "MoveValue", "Decision", "Review", "review_decision", "review_decision_steps", "review_giv", "Reviewer",
           "best_words", "decision_words", "verdict_of", "distinct_choices"]

#: from good to bad
VERDICTS = ("fine", "inaccuracy", "mistake", "blunder")
VERDICT_WORDS = {"fine": N_("fine"), "inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"),
                 "blunder": N_("blunder")}
#: the expected loss in points at which a significant loss is an inaccuracy, a mistake, a blunder:
#: Krypkasino counts card points, and 5 for a tabbe mark or a dukning (a tabbe set up the wrong
#: way is a swing of 10); classic Kasino and avig kasino share 11 points a giv (more with tabbar
#: and most cards). docs/review.md has the losses measured for the careful and random players.
THRESHOLDS: dict[str, tuple[float, float, float]] = {"cards": (1.0, 3.0, 6.0), "builds": (0.5, 1.0, 2.0)}
#: a loss smaller than this is "as good as the best" even when the samples can tell it apart
AS_GOOD = 0.05
#: Student's t at 97.5 % for 1..30 degrees of freedom (beyond: the normal's 1.96)
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def _t975(df: int) -> float:
    return _T975[df - 1] if 1 <= df <= len(_T975) else 1.96


def _interval(diffs: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of paired differences: a 95 % interval from Student's t (one value: exact)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n == 1:
        return mean, mean, mean
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = _t975(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class MoveValue:
    """One legal move of a decision: its expected value (lower is better), and its loss against
    the best move with the loss's 95 % interval (0, 0, 0 for the best move itself)."""

    move: Move
    value: float
    loss: float
    low: float
    high: float
    #: ``value`` in the game's own sense ("your points minus your opponents' from here"):
    #: lower is better in Krypkasino and avig kasino, higher in classic Kasino
    shown: float

    @property
    def good_enough(self) -> bool:
        """As good as the best move: a loss under :data:`AS_GOOD`, or one the search cannot
        tell apart from none (its interval reaches 0)."""
        return self.loss < AS_GOOD or self.low <= 0.0


@dataclass
class Decision:
    """One decision of the reviewed seat with a real choice."""

    ply: int                 # the move's index in the giv (0: the first move)
    seat: int
    played: Move
    best: Move
    method: str              # "exact" or "sampled"
    samples: int
    verdict: str
    values: list[MoveValue] = field(default_factory=list)  # best first
    #: what the loss is about, as the careful player's terms tell the two moves apart (:data:`THEMES`)
    theme: str = "lookahead"
    #: the legal moves (``values`` has fewer in a sampled Kasino decision of very many:
    #: :func:`~krypteach.bots.kasino.review_candidates`)
    legal: int = 0

    def of(self, move: Move) -> MoveValue:
        return next(v for v in self.values if v.move == move)

    @property
    def loss(self) -> MoveValue:
        """The played move's value, loss and interval."""
        return self.of(self.played)

    @property
    def as_good_as_best(self) -> bool:
        """The move played cannot be told apart from the best (or is it)."""
        return self.loss.good_enough

    def to_dict(self) -> dict[str, Any]:
        """The decision as JSON can keep it (:meth:`from_dict` reads it back): a flagged move
        comes back in the learner's practice (issue 23)."""
        return {"ply": self.ply, "seat": self.seat, "played": str(self.played), "best": str(self.best),
                "method": self.method, "samples": self.samples, "verdict": self.verdict, "theme": self.theme,
                "legal": self.legal, "values": [[str(v.move), v.value, v.loss, v.low, v.high, v.shown]
                                                 for v in self.values]}

    @classmethod
    def from_dict(cls, d: Any) -> Decision:
        """A decision kept by :meth:`to_dict`; ``ValueError`` naming what is wrong.

        >>> from krypteach.engine.game import Giv
        >>> g = Giv(seed=4)
        >>> d = review_decision(g.observation(g.turn), g.legal_moves()[0], samples=4)
        >>> Decision.from_dict(d.to_dict()) == d
        True
        >>> Decision.from_dict({"ply": 1})
        Traceback (most recent call last):
        ValueError: a kept decision lacks 'seat'
        """
        if not isinstance(d, dict):
            raise ValueError(f"a kept decision is a JSON object, not {type(d).__name__}")
        for key in ("ply", "seat", "played", "best", "method", "samples", "verdict", "theme", "legal", "values"):
            if key not in d:
                raise ValueError(f"a kept decision lacks {key!r}")
        for key in ("ply", "seat", "samples", "legal"):
            if isinstance(d[key], bool) or not isinstance(d[key], int) or d[key] < 0:
                raise ValueError(f"a kept decision's {key!r} is a whole number ≥ 0, not {d[key]!r}")
        if d["verdict"] not in VERDICTS or d["method"] not in ("exact", "sampled") or not isinstance(d["theme"], str):
            raise ValueError("a kept decision's verdict, method or theme is not one the coach gives")
        if not isinstance(d["values"], list) or not d["values"]:
            raise ValueError("a kept decision's values are a list of its moves")
        values = []
        for v in d["values"]:
            if (not isinstance(v, list) or len(v) != 6 or not isinstance(v[0], str)
                    or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                               for x in v[1:])):
                raise ValueError(f"a kept decision's move value must be [move, 5 numbers], not {str(v)[:80]}")
            values.append(MoveValue(Move.parse(v[0]), *(float(x) for x in v[1:])))
        played, best = Move.parse(d["played"]), Move.parse(d["best"])
        if not any(v.move == played for v in values) or not any(v.move == best for v in values):
            raise ValueError("a kept decision's move played and best move are among its values")
        return cls(d["ply"], d["seat"], played, best, d["method"], d["samples"], d["verdict"], values,
                   d["theme"], d["legal"])


@dataclass
class Review:
    """The review of one seat's givar decisions."""

    seat: int
    game: str                # the game's title (its rules' own)
    lowest_wins: bool
    decisions: list[Decision] = field(default_factory=list)
    #: decisions with one legal move (or moves that play the same): nothing to review
    forced: int = 0

    @property
    def quality(self) -> float:
        """Move quality: the share of decisions where the move played was as good as the best
        (1.0 for a giv without a real choice)."""
        if not self.decisions:
            return 1.0
        return sum(d.as_good_as_best for d in self.decisions) / len(self.decisions)

    @property
    def flagged(self) -> list[Decision]:
        return [d for d in self.decisions if d.verdict != "fine"]

    def to_json(self) -> dict[str, Any]:
        """What ``krypteach review --json`` prints for a giv."""
        return {"seat": self.seat, "game": self.game, "lowest_wins": self.lowest_wins,
                "quality": round(self.quality, 4), "forced": self.forced,
                "decisions": [{"ply": d.ply, "played": str(d.played), "best": str(d.best), "method": d.method,
                               "samples": d.samples, "loss": round(d.loss.loss, 3),
                               "loss_interval": [round(d.loss.low, 3), round(d.loss.high, 3)],
                               "verdict": d.verdict, "theme": d.theme, "legal_moves": d.legal,
                               "moves": {str(v.move): round(v.shown, 3) for v in d.values}}
                              for d in self.decisions]}


#: what a costly move is about: the careful player's term that tells it from the better move most
#: (Krypkasino: points, tabbe, setup, exposed, dump, sweep; Kasino: now, build, leave, tabbe, sweep),
#: or the play that follows when this turn's terms do not ("lookahead"), with their words
THEMES = {
    "points": N_("points taken"), "now": N_("points taken"), "tabbe": N_("a tabbe"),
    "setup": N_("setting up a tabbe (dukning)"), "exposed": N_("a tvångstabbe risked"),
    "dump": N_("getting rid of a point card"), "sweep": N_("the last cards (sistan)"),
    "build": N_("builds"), "leave": N_("what is left on the table"), "lookahead": N_("the play that follows"),
}


def theme_of(obs: Observation, played: Move, best: Move) -> str:
    """The theme of a costly move (:data:`THEMES`): the careful player's term in which ``played``
    does worst against ``best``, or ``"lookahead"`` when this turn's terms favour it."""
    if thinks_in_builds(obs.rules):
        ka, kb = assess_kasino(obs, [played, best], words=False)
        sign = -ka.sign  # the terms are gains (higher is better) in Kasino, losses in avig kasino
        gaps = {k: sign * (ka.terms.get(k, 0.0) - kb.terms.get(k, 0.0)) for k in set(ka.terms) | set(kb.terms)}
    else:
        a, b = assess_moves(obs, [played, best])
        gaps = {k: WEIGHTS[k] * (a.terms.get(k, 0.0) - b.terms.get(k, 0.0)) for k in set(a.terms) | set(b.terms)}
    worst = max(sorted(gaps), key=lambda k: gaps[k], default="lookahead")
    return worst if gaps.get(worst, 0.0) > 0.1 and worst in THEMES else "lookahead"


def distinct_choices(d: Decision, rules: Rules) -> list[MoveValue]:
    """The decision's moves that play differently, one of each (Try again offers these): in
    Krypkasino moves that differ only in the suits of pointless cards are one choice, shown as
    the move played when it is among them; in classic Kasino and avig kasino every suit can
    count (the most spades), so every move is its own."""
    if thinks_in_builds(rules):
        return list(d.values)
    first: dict[tuple[int, tuple[int, ...] | None], MoveValue] = {}
    for v in d.values:
        k = move_class(v.move)
        if k not in first or v.move == d.played:
            first[k] = v
    return list(first.values())


def _thresholds(obs: Observation) -> tuple[float, float, float]:
    return THRESHOLDS["builds" if thinks_in_builds(obs.rules) else "cards"]


def verdict_of(loss: float, low: float, thresholds: tuple[float, float, float]) -> str:
    """``fine`` unless the loss is significant (``low`` > 0) and at least the first threshold.

    >>> verdict_of(7.0, 2.0, (1, 3, 6)), verdict_of(7.0, -0.1, (1, 3, 6)), verdict_of(1.5, 0.2, (1, 3, 6))
    ('blunder', 'fine', 'inaccuracy')
    """
    if low <= 0.0:
        return "fine"
    grade = sum(loss >= t for t in thresholds)
    return VERDICTS[grade]


def review_decision(obs: Observation, played: Move, *, ply: int = 0, samples: int = 24,
                    seed: int | None = 0, bot: ExpertBot | None = None) -> Decision | None:
    """The review of one decision (``None`` when it had no real choice): every legal move
    valued from ``obs`` alone (:meth:`ExpertBot.every_move`)."""
    return run_steps(review_decision_steps(obs, played, ply=ply, samples=samples, seed=seed, bot=bot))


def review_decision_steps(obs: Observation, played: Move, *, ply: int = 0, samples: int = 24,
                          seed: int | None = 0, bot: ExpertBot | None = None) -> Steps[Decision | None]:
    """:func:`review_decision` a step at a time (:mod:`~krypteach.bots.steps`): a step is one
    determinization of the search."""
    moves = obs.legal_moves()
    if len(moves) < 2:
        return None
    expert = bot or ExpertBot(seed=seed)
    method, per = yield from expert.every_move_steps(obs, samples, played)
    means = {m: sum(v) / len(v) for m, v in per.items()}
    valued = [m for m in moves if m in per]  # (all of them, but in a sampled Kasino decision of many)
    if max(means.values()) - min(means.values()) == 0.0 and method == "exact":
        return None  # every move ends the same: nothing to choose
    order = sorted(valued, key=lambda m: (means[m], m != played))  # among equals, the move played first
    best = order[0]
    sign = 1.0 if obs.rules.lowest_wins or not thinks_in_builds(obs.rules) else -1.0
    values = []
    for m in order:
        diffs = [a - b for a, b in zip(per[m], per[best])]
        loss, low, high = _interval(diffs)
        values.append(MoveValue(m, means[m], max(0.0, loss), low, high, sign * means[m]))
    played_v = next(v for v in values if v.move == played)
    n = len(per[best])
    verdict = verdict_of(played_v.loss, played_v.low, _thresholds(obs))
    theme = theme_of(obs, played, best) if verdict != "fine" else "lookahead"
    return Decision(ply, obs.seat, played, best, method, n, verdict, values, theme, legal=len(moves))


def _decisions(giv: Giv, seat: int) -> Iterable[tuple[int, Observation, Move]]:
    """(ply, the seat's observation before it moved, the move it played) for each of its moves,
    by replaying the giv from its start on a copy."""
    g = giv.clone()
    moves: list[Move] = []
    while g.turns:
        moves.append(g.pop().move)
    moves.reverse()
    for ply, m in enumerate(moves):
        if g.turn == seat:
            yield ply, g.observation(seat), m
        g.push(m)


def _check_seat(giv: Giv, seat: int) -> None:
    if not 0 <= seat < giv.rules.players:
        raise ValueError(_("seat {seat} is not a seat of this giv (0 to {last})").format(
            seat=seat, last=giv.rules.players - 1))


def _assembled(giv: Giv, seat: int, reviewed: Iterable[Decision | None]) -> Review:
    review = Review(seat, giv.game.title, giv.game.lower_is_better)
    for d in reviewed:
        if d is None:
            review.forced += 1
        else:
            review.decisions.append(d)
    return review


def review_giv(giv: Giv, seat: int = 0, *, samples: int = 24, seed: int | None = 0,
               progress: Callable[[int, int], None] | None = None) -> Review:
    """The review of ``seat``'s decisions in ``giv`` (a giv played to its end, or part of one).
    ``progress(done, total)`` is called after each of the seat's moves."""
    _check_seat(giv, seat)
    bot = ExpertBot(seed=seed)
    mine = list(_decisions(giv, seat))
    reviewed: list[Decision | None] = []
    for k, (ply, obs, m) in enumerate(mine):
        reviewed.append(review_decision(obs, m, ply=ply, samples=samples, bot=bot))
        if progress is not None:
            progress(k + 1, len(mine))
    return _assembled(giv, seat, reviewed)


class Reviewer:
    """The review of one seat's decisions worked out while the giv is played: the coach's
    analysis in the background (issue 22), so the review is ready when the giv ends.

    :meth:`follow` tells it the giv as it stands (each new decision of the seat is queued; a
    move taken back drops its own), :meth:`step` works for about ``seconds`` and says whether
    work is left, and :meth:`review` gives the giv's review, doing first what is left. A step
    is one determinization of one decision's search, so whoever calls :meth:`step` between a
    learner's clicks holds the page for one such piece at most. The review is the one
    :func:`review_giv` gives with the same ``samples`` and ``seed``.

    >>> from krypteach.engine.game import Giv
    >>> from krypteach.bots import make_bot
    >>> g = Giv(seed=4)
    >>> g.play_out(lambda x: make_bot("careful", seed=1).choose(x.observation()))
    >>> r = Reviewer(0, samples=6)
    >>> r.follow(g)
    >>> while r.step(0.01):
    ...     pass
    >>> r.pending, r.review(g).to_json() == review_giv(g, 0, samples=6).to_json()
    (0, True)
    """

    def __init__(self, seat: int = 0, *, samples: int = 24, seed: int | None = 0) -> None:
        self.seat, self.samples = seat, samples
        self._bot = ExpertBot(seed=seed)
        self._giv: Giv | None = None
        #: each decision by the moves up to and including it (its place in this giv's history)
        self._done: dict[tuple[str, ...], Decision | None] = {}
        self._todo: list[tuple[tuple[str, ...], int, Observation, Move]] = []
        self._keys: list[tuple[str, ...]] = []  # every decision of the seat in the giv as it stands, in order
        self._work: tuple[tuple[str, ...], Steps[Decision | None]] | None = None

    def follow(self, giv: Giv) -> None:
        """The giv as it now stands (another giv starts the review afresh)."""
        _check_seat(giv, self.seat)
        if giv is not self._giv:
            self._giv, self._done, self._work = giv, {}, None
        history = [str(t.move) for t in giv.turns]
        mine = [(tuple(history[:ply + 1]), ply, obs, m) for ply, obs, m in _decisions(giv, self.seat)]
        self._keys = [t[0] for t in mine]
        self._todo = [t for t in mine if t[0] not in self._done]
        if self._work is not None and self._work[0] not in {t[0] for t in self._todo}:
            self._work = None  # its move was taken back
        if self._work is not None:
            self._todo = [t for t in self._todo if t[0] != self._work[0]]

    @property
    def pending(self) -> int:
        """The decisions not reviewed yet (the one under way among them)."""
        return len(self._todo) + (self._work is not None)

    def step(self, seconds: float) -> bool:
        """Work for about ``seconds`` (at least one piece); True while work is left."""
        deadline = time.perf_counter() + seconds
        while True:
            if self._work is None:
                if not self._todo:
                    return False
                key, ply, obs, m = self._todo.pop(0)
                self._work = key, review_decision_steps(obs, m, ply=ply, samples=self.samples, bot=self._bot)
            key, work = self._work
            try:
                next(work)
            except StopIteration as done:
                self._done[key] = done.value
                self._work = None
            except Exception:
                self._work = None  # a search that failed is dropped, not taken as done: asked again, it runs anew
                raise
            if time.perf_counter() >= deadline:
                return self.pending > 0

    def review(self, giv: Giv) -> Review:
        """The review of the seat's decisions in ``giv`` as it stands, finishing what is left."""
        self.follow(giv)
        while self.step(math.inf):
            pass
        return _assembled(giv, self.seat, (self._done[key] for key in self._keys))


def _notes(obs: Observation, move: Move) -> list[str]:
    """The careful player's reasons for ``move``: what it does this turn, in the game's terms."""
    found = (assess_kasino(obs, [move]) if thinks_in_builds(obs.rules) else assess_moves(obs, [move]))[0].notes
    return list(found)


def _line_words(obs: Observation, move: Move) -> str:
    """Two players in the last utdelning of Krypkasino (every card known): what follows
    ``move`` with best play by both, move by move, and the points it brings each from here:
    "Then, with best play: Bea: A♠ creeps; you: 10♦ takes A♠+4♦+5♥; Bea: 8♠ creeps. From
    here you take 6 points and Bea 0."; "" where that is not known."""
    rules = obs.rules
    if thinks_in_builds(rules) or rules.players != 2 or obs.stock_left or len(obs.unseen()) != obs.hand_sizes[1 - obs.seat]:
        return ""
    me, opp = obs.seat, 1 - obs.seat
    hands: list[list[Any]] = [[], []]
    hands[me], hands[opp] = list(obs.hand), obs.unseen()
    g = world(obs, hands, [])
    before = g.returns()
    g.push(move)
    if not g.is_over:
        lc = g.last_capturer
        line = endgame_line(rules, g.hands[opp], g.hands[me], g.table, kladda=g.kladda,
                            last_capturer=None if lc is None else int(lc != opp), previous_mover=1)
        steps = []
        for _side, m, _v in line:
            who = _("you") if g.turn == me else seat_name(g.turn)
            t = g.push(m)
            said = _("{seat}: {move}").format(seat=who, move=describe(rules, m))
            if t.tabbe:
                said += " " + _("(a tabbe)")
            if t.sweep:  # the giv's end: the last capturer takes what is left, and klädda högen
                last = g.last_capturer
                said += " " + (_("(the last cards go to you)") if last == me else
                               _("(the last cards go to {seat})").format(seat=seat_name(opp)))
            steps.append(said)
        head = _("Then, with best play: {moves}.").format(moves="; ".join(steps))
    else:
        head = ""
    after = g.returns()
    gain = [after[s] - before[s] for s in (me, opp)]
    # i18n: "From here you take 1 point and Bea 0.", "… −5 points and Bea 5."
    tail = ngettext("From here you take {mine} point and {other} {theirs}.",
                    "From here you take {mine} points and {other} {theirs}.", abs(gain[0])).format(
        mine=number(gain[0]), other=seat_name(opp), theirs=number(gain[1]))
    return f"{head} {tail}".strip()


def decision_words(obs: Observation, d: Decision) -> str:
    """Why, in words, in the current language: the move played and the better one, what each
    does this turn (the careful player's reasons: a tabbe set up, storan taken, a build left),
    and what the difference is worth, with its interval.

    ``obs`` is the seat's observation before the move (as the review saw it)."""
    played, best = describe(obs.rules, d.played), describe(obs.rules, d.best)
    v = d.loss
    if d.verdict == "fine":
        if d.played == d.best:
            head = _("{move} was the best move here.").format(move=played)
        else:
            head = _("{move} was as good as the best move here ({best}) as far as the search can tell.").format(
                move=played, best=best)
        return " ".join([head, *_notes(obs, d.played)])
    kind = _(VERDICT_WORDS[d.verdict])
    if d.method == "exact":
        cost = ngettext("With every card known, {best} ends {loss} point better for you.",
                        "With every card known, {best} ends {loss} points better for you.", round(v.loss)).format(
            best=best, loss=number(v.loss, 0))
    else:
        cost = _("Over {n} ways the cards you had not seen may lie, {best} is about {loss} points better for you "
                 "(with 95% confidence between {low} and {high}).").format(n=d.samples, best=best, loss=number(v.loss, 1),
                                                         low=number(max(0.0, v.low), 1), high=number(v.high, 1))
    mine, better = _notes(obs, d.played), _notes(obs, d.best)
    parts = [_("{move}: {verdict}.").format(move=played, verdict=kind), *mine, _line_words(obs, d.played), cost]
    if better:
        parts.append(_("{best}: {why}").format(best=best, why=" ".join(better)))
    parts.append(_line_words(obs, d.best))
    return " ".join(p for p in parts if p)


def best_words(obs: Observation, d: Decision) -> str:
    """The decision's best move and why, in the current language, without the move that was
    played (the teacher's board asks the class the position again; whose move it was stays
    unsaid).

    >>> from krypteach.engine.game import Giv
    >>> g = Giv.from_position([["10S", "4C"], ["4H"]], ["AH", "7C", "3D"], previous_mover=1)
    >>> obs = g.observation(0)
    >>> best_words(obs, review_decision(obs, g.legal_moves()[0], samples=4)).startswith("The best move here: ")
    True
    """
    best = describe(obs.rules, d.best)
    parts = [_("The best move here: {best}.").format(best=best), *_notes(obs, d.best), _line_words(obs, d.best)]
    return " ".join(p for p in parts if p)
