"""Scoring a giv and a parti.

Card points in a pile: *storan* (10♦) 3, *lillan* (2♠) 2, *spader ess* (A♠) 2,
every other ace 1, every other spade 1, all else 0 — 42 over the 104 cards.
A giv score is card points + ``tabbe_points`` × tabbe marks +
``dukning_points`` × dukningar; it can be negative. In a parti the lowest
total wins (ties share the win).

>>> from krypteach import parse_cards
>>> card_points(parse_cards("10D 2S AS AH 7S 7H"))
9
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card
from .rules import Rules

__all__ = ["card_points", "GivResult", "PartiResult", "point_breakdown"]


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


def _lowest(values: Sequence[int], lowest_wins: bool = True) -> tuple[int, ...]:
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


@dataclass(frozen=True)
class PartiResult:
    """Totals of a parti: the protocol (one row of scores per giv) and the winners."""

    rules: Rules
    protocol: tuple[tuple[int, ...], ...]

    @property
    def totals(self) -> tuple[int, ...]:
        n = self.rules.players
        return tuple(sum(row[s] for row in self.protocol) for s in range(n))

    @property
    def team_totals(self) -> tuple[int, ...]:
        """Totals added up per team (per seat without teams)."""
        return _per_team(self.rules, self.totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """Teams (seats without teams) with the lowest total (the highest in
        classic Kasino); ties share the win."""
        return _lowest(self.team_totals, self.rules.lowest_wins)
