"""What a move does to a giv beyond the table: the rules of a turn, written once.

Every state that plays Krypkasino — :class:`~krypteach.engine.game.Giv`, the
bots' searches, the endgame solver, the puzzle solver — asks these functions
what a move is worth and whom it marks, so a rule lives in one place:

- :func:`tabbe_marks`: a capture that empties the table is a *tabbe* (one
  mark); taking the lone table card with its identical twin is a
  *dubbeltabbe* (two marks, when the rules allow it).
- :func:`book_tabbe`: the taker gets the marks, the player who moved just
  before (``previous_mover``) as many *dukningar*, and marks are turned down
  while every team has one.
- :func:`tabbe_score`: what those marks are worth to the taker and to the
  previous mover.
- :func:`giv_scores`: the score formula of a finished giv.
- :func:`team_relative`: how a change of scores counts for one seat (its
  team's change against the mean of the others').

Each game (:mod:`krypteach.engine.games`) plays its turns with these: classic
Kasino's own rules (the owner's duty, its card points) live in its module.

The table a move leaves is :func:`krypteach.engine.moves.table_after`.

>>> from krypteach import Move, Rules, parse_cards
>>> tabbe_marks(parse_cards("QH"), Move.parse("QH:QH"), Rules())
2
>>> marks, dukningar, tabbar = [0, 0], [0, 0], [0, 0]
>>> book_tabbe(Rules(), marks, dukningar, tabbar, taker=0, previous_mover=1, made=2)
0
>>> marks, dukningar
([2, 0], [0, 2])
>>> giv_scores(Rules(), card_points=[20, 22], marks=marks, dukningar=dukningar, last_capturer=0)
(30, 12)
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence, Sequence

from .cards import Card
from .moves import Move
from .rules import Rules

__all__ = ["tabbe_marks", "book_tabbe", "tabbe_score", "cancel_marks", "giv_scores", "team_relative"]


def tabbe_marks(table: Sequence[Card], move: Move, rules: Rules) -> int:
    """Tabbe marks ``move`` makes on ``table`` (a legal move): 0 when it leaves
    cards on the table or creeps, 1 for a tabbe, 2 for a dubbeltabbe (the lone
    table card taken with its identical twin, unless ``rules.dubbeltabbe`` is off).

    >>> from krypteach import Move, parse_cards
    >>> tabbe_marks(parse_cards("AH 7C 3D 9S"), Move.parse("10S:AH+3D+7C+9S"), Rules())
    1
    >>> tabbe_marks(parse_cards("QH"), Move.parse("QD:QH"), Rules()), tabbe_marks(parse_cards("QH"), Move.parse("QH:QH"), Rules(dubbeltabbe=False))
    (1, 1)
    """
    capture = move.capture
    if capture is None or len(capture) != len(table):
        return 0
    return 2 if rules.dubbeltabbe and len(table) == 1 and table[0] == move.card else 1


def cancel_marks(marks: MutableSequence[int], rules: Rules) -> int:
    """Turn marks down while every player (every team) has one; returns how many rounds.

    In team play the mark turned down is taken from the team member with the
    most marks (the lower seat on a tie). Mutates ``marks``. Dukningar are
    never turned down.

    >>> m = [1, 2]; cancel_marks(m, Rules()), m
    (1, [0, 1])
    """
    if not rules.cancel_marks:
        return 0
    rounds = 0
    members = [rules.team_members(t) for t in range(rules.team_count)]
    while all(sum(marks[s] for s in ms) > 0 for ms in members):
        for ms in members:
            seat = max(ms, key=lambda s: (marks[s], -s))
            marks[seat] -= 1
        rounds += 1
    return rounds


def book_tabbe(rules: Rules, marks: MutableSequence[int], dukningar: MutableSequence[int],
               tabbar: MutableSequence[int] | None, *, taker: int, previous_mover: int | None, made: int) -> int:
    """Book a tabbe of ``made`` marks (see :func:`tabbe_marks`): the marks to
    ``taker`` (and its tabbar count), as many dukningar to ``previous_mover``
    (nobody when the tabbe is the giv's first move), then marks turned down.
    Returns the rounds of marks turned down. Mutates the lists.

    >>> marks, dukningar = [1, 0, 0], [0, 0, 0]
    >>> book_tabbe(Rules(players=3), marks, dukningar, None, taker=1, previous_mover=0, made=1), marks, dukningar
    (0, [1, 1, 0], [1, 0, 0])
    """
    marks[taker] += made
    if tabbar is not None:
        tabbar[taker] += made
    if previous_mover is not None:
        dukningar[previous_mover] += made
    return cancel_marks(marks, rules)


def tabbe_score(rules: Rules, made: int) -> tuple[int, int]:
    """Points a tabbe of ``made`` marks gives ``(to the taker, to the previous mover)``,
    before marks are turned down.

    >>> tabbe_score(Rules(), 2)
    (10, -10)
    """
    return made * rules.tabbe_points, made * rules.dukning_points


def giv_scores(rules: Rules, card_points: Sequence[int], marks: Sequence[int], dukningar: Sequence[int],
               last_capturer: int | None) -> tuple[int, ...]:
    """The score of each seat in a finished giv: card points (plus the
    ``last_capture_point`` for the last capturer) + tabbe points × marks left
    standing + dukning points × dukningar. ``card_points`` are the piles' points
    without the last capture point.

    >>> giv_scores(Rules(last_capture_point=1), [10, 32], [1, 0], [0, 1], last_capturer=1)
    (15, 28)
    """
    extra = rules.last_capture_point
    return tuple(card_points[s] + (extra if s == last_capturer else 0)
                 + rules.tabbe_points * marks[s] + rules.dukning_points * dukningar[s]
                 for s in range(len(card_points)))


def team_relative(rules: Rules, me: int, deltas: Mapping[int, float] | Sequence[float]) -> float:
    """How score changes per seat count for ``me``: my team's change minus the
    mean change of the other teams (lower is better in this misère game).

    >>> team_relative(Rules(), 0, {0: 5, 1: -5})
    10.0
    >>> team_relative(Rules(players=3), 0, {1: 5, 0: -5})
    -7.5
    """
    n_teams = rules.team_count
    team = [0.0] * n_teams
    items = deltas.items() if isinstance(deltas, Mapping) else enumerate(deltas)
    for s, d in items:
        team[rules.team_of(s)] += d
    mine = rules.team_of(me)
    others = [team[t] for t in range(n_teams) if t != mine]
    return team[mine] - (sum(others) / len(others) if others else 0.0)
