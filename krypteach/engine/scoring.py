"""Scoring a giv and a parti.

Card points in a pile: *storan* (10♦) 3, *lillan* (2♠) 2, *spader ess* (A♠) 2,
every other ace 1, every other spade 1, all else 0 — 42 over the 104 cards.
A giv score is card points + ``tabbe_points`` × tabbe marks +
``dukning_points`` × dukningar; it can be negative. In a parti the lowest
total wins (ties share the win). Classic Kasino plays a parti to a target
instead (:func:`target_decision`, :class:`PartiEnd`).

>>> from krypteach import parse_cards
>>> card_points(parse_cards("10D 2S AS AH 7S 7H"))
9
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .cards import Card
from .rules import Rules

__all__ = ["card_points", "GivResult", "PartiResult", "PartiEnd", "point_breakdown", "target_decision",
           "givar_parti_end", "MAX_PARTI_GIVAR"]

#: The most givar a parti played to a target lasts when ``Rules.givar`` does not say
#: (a parti where nobody scores, say bots that only trail, would never end).
MAX_PARTI_GIVAR = 100


def card_points(cards: Iterable[Card]) -> int:
    """Sum of card points of a pile."""
    return sum(Card(c).points for c in cards)


def point_breakdown(cards: Iterable[Card]) -> list[tuple[Card, int, str]]:
    """The cards of a pile that score, each with its points and the reason.

    >>> [(str(c), p, why) for c, p, why in point_breakdown([Card("10D"), Card("7H"), Card("AH")])]
    [('AH', 1, 'ess'), ('10D', 3, 'storan')]
    """
    why = {"10D": "storan", "2S": "lillan", "AS": "spader ess"}
    out = []
    for c in sorted(Card(c) for c in cards):
        if c.points:
            out.append((c, c.points, why.get(str(c), "ess" if c.rank == 1 else "spader")))
    return out


def _per_team(rules: Rules, per_seat: Sequence[int]) -> tuple[int, ...]:
    """Seat values added up per team (per seat without teams)."""
    out = [0] * rules.team_count
    for seat, v in enumerate(per_seat):
        out[rules.team_of(seat)] += v
    return tuple(out)


def _lowest(values: Sequence[int], lowest_wins: bool) -> tuple[int, ...]:
    """The indices of the lowest value (lowest wins; ties share), or of the
    highest when ``lowest_wins`` is off (classic Kasino)."""
    best = min(values) if lowest_wins else max(values)
    return tuple(i for i, v in enumerate(values) if v == best)


@dataclass(frozen=True)
class GivResult:
    """The outcome of one giv, per seat (and per team in team play).

    ``card_points`` includes the ``last_capture_point`` extra point when the
    rules give one. ``tabbar`` counts every tabbe made (before marks were
    turned down); ``marks`` are the marks left standing. ``aside_to`` is who
    took the klädda högen and the last table cards (the last capturer).
    """

    rules: Rules
    card_points: tuple[int, ...]
    marks: tuple[int, ...]
    dukningar: tuple[int, ...]
    tabbar: tuple[int, ...]
    scores: tuple[int, ...]
    last_capturer: int | None
    aside_cards: tuple[Card, ...]

    @property
    def team_scores(self) -> tuple[int, ...]:
        """Scores added up per team (per seat without teams)."""
        return _per_team(self.rules, self.scores)

    @property
    def winners(self) -> tuple[int, ...]:
        """Teams (seats without teams) with the lowest score (the highest in classic Kasino)."""
        return _lowest(self.team_scores, self.rules.lowest_wins)

    def to_dict(self) -> dict[str, list[int] | int | None]:
        return {
            "card_points": list(self.card_points),
            "marks": list(self.marks),
            "dukningar": list(self.dukningar),
            "scores": list(self.scores),
            "last_capturer": self.last_capturer,
        }


def target_decision(steps: Iterable[Sequence[int]], target: int,
                    lowest_wins: bool = False) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """Add up ``steps`` (each a row of points per side) one after another, and decide a
    parti played to ``target``: it is decided after the first step at which a side has
    reached the target and one side alone has the best total (the highest, or the lowest
    when ``lowest_wins``). A tie for the best goes on to the next step.

    Returns ``(index of the deciding step, (the winner,), the sides at or over the
    target then)``, or ``None`` while undecided. A step is a whole giv, or with
    ``target_count="in-order"`` one line of a giv's scoring table.

    >>> target_decision([(9, 7), (8, 5)], 16)           # 9–7, then 17–12
    (1, (0,), (0,))
    >>> target_decision([(15, 15), (3, 2)], 16)         # 18–17: both over, the highest wins
    (1, (0,), (0, 1))
    >>> target_decision([(9, 7), (7, 9)], 16) is None   # 16–16: another giv
    True
    """
    totals: list[int] = []
    for k, row in enumerate(steps):
        totals = [a + b for a, b in zip(totals, row)] if totals else list(row)
        reached = tuple(i for i, v in enumerate(totals) if v >= target)
        if reached:
            best = _lowest(totals, lowest_wins)
            if len(best) == 1:
                return k, best, reached
    return None


@dataclass(frozen=True)
class PartiEnd:
    """Whether a parti is over, who won, and why: what its game answers
    (:meth:`krypteach.engine.games.base.Game.parti_end`).

    ``winners``: the sides (teams; seats without teams) that won, ``()`` while the
    parti goes on. ``target``: the points it is played to (``None``: a number of
    givar, Krypkasino). ``reached``: the sides at or over the target when it was
    decided. ``givar``: the givar it took (or played so far). ``item``: with
    ``target_count="in-order"``, the line of the scoring table that decided it
    (``"storan"``, ``"lillan"``, ``"aces"``, ``"spades"``, ``"cards"``,
    ``"sistan"``, ``"tabbar"``). ``stopped``: nobody won before the most givar a
    parti lasts (``limit``), so the best total wins there (ties share).
    """

    over: bool
    winners: tuple[int, ...] = ()
    target: int | None = None
    reached: tuple[int, ...] = ()
    givar: int = 0
    item: str | None = None
    stopped: bool = False
    limit: int | None = None


def givar_parti_end(rules: Rules, protocol: Sequence[Sequence[int]], count: int, last_over: bool) -> PartiEnd:
    """A parti of ``count`` givar (Krypkasino): over once they are all played; the best
    total wins, ties share. ``last_over``: the last giv of ``protocol`` is finished."""
    over = len(protocol) >= count and last_over
    winners = PartiResult(rules, tuple(map(tuple, protocol))).team_winners_by_total() if over else ()
    return PartiEnd(over, winners, None, (), len(protocol), limit=count)


@dataclass(frozen=True)
class PartiResult:
    """Totals of a parti: the protocol (one row of scores per giv) and the winners
    (``end``, when given, is how the parti ended: its winners are the winners)."""

    rules: Rules
    protocol: tuple[tuple[int, ...], ...]
    end: PartiEnd | None = field(default=None, compare=False)

    @property
    def totals(self) -> tuple[int, ...]:
        n = self.rules.players
        return tuple(sum(row[s] for row in self.protocol) for s in range(n))

    @property
    def team_totals(self) -> tuple[int, ...]:
        """Totals added up per team (per seat without teams)."""
        return _per_team(self.rules, self.totals)

    def team_winners_by_total(self) -> tuple[int, ...]:
        """Teams (seats without teams) with the lowest total (the highest in
        classic Kasino); ties share the win."""
        return _lowest(self.team_totals, self.rules.lowest_wins)

    @property
    def winners(self) -> tuple[int, ...]:
        """Who won: ``end.winners`` (a parti played to a target: the side that
        decided it), else the teams (seats) with the best total; ties share the win."""
        if self.end is not None and self.end.over:
            return self.end.winners
        return self.team_winners_by_total()
