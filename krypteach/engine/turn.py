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
- classic Kasino (``Rules(game="kasino")``): :func:`apply_owner_duty` (the
  owner of a build must take it or raise it), :func:`dukning_seat` (no
  dukning in Kasino) and :func:`kasino_card_points` (storan, lillan, aces, most
  spades, most cards), beside :func:`giv_scores`.

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
from typing import TYPE_CHECKING

from .cards import Card
from .rules import Rules

if TYPE_CHECKING:  # builds (which moves' legal moves reach) import this module: Move is only named here
    from .moves import Move

__all__ = ["tabbe_marks", "book_tabbe", "tabbe_score", "cancel_marks", "giv_scores", "team_relative",
           "apply_owner_duty", "owned_builds", "dukning_seat", "kasino_card_points", "KASINO_POINTS"]


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


# --- classic Kasino ------------------------------------------------------------


def owned_builds(table: Sequence, player: int | None) -> list:
    """The builds on ``table`` that ``player`` owns (made or raised last)."""
    if player is None:
        return []
    return [x for x in table if hasattr(x, "owner") and x.owner == player]


def apply_owner_duty(moves: list[Move], table: Sequence, player: int | None, rules: Rules) -> list[Move]:
    """Classic Kasino's duty of a build's owner, applied to the moves of a turn.

    While ``player`` owns a build, with ``owner_duty="take-or-raise"`` (the
    default, seed 004: "har du byggt måste du ta bygget nästa tur") every move
    must take one of its builds or build on it (raise it, or add a group of
    the same value); with ``"no-trail"`` it may do anything but trail. When no
    move meets the duty (a hand-made position where the owner lacks the card),
    every move stays legal: a turn always has a move.

    >>> from krypteach import Move, parse_cards
    >>> from krypteach.engine.builds import Build
    >>> table = [Card("7C"), Build(9, parse_cards("4S 5H"), 0)]
    >>> moves = [Move.parse("9D:4S+5H"), Move.parse("7H:7C"), Move.parse("2C")]
    >>> [str(m) for m in apply_owner_duty(moves, table, 0, Rules(game="kasino"))]
    ['9D:4S+5H']
    >>> [str(m) for m in apply_owner_duty(moves, table, 0, Rules(game="kasino", owner_duty="no-trail"))]
    ['9D:4S+5H', '7H:7C']
    """
    duty = rules.owner_duty
    if duty == "none":
        return moves
    mine = owned_builds(table, player)
    if not mine:
        return moves
    if duty == "no-trail":
        kept = [m for m in moves if m.capture is not None]
    else:
        firsts = [b.cards[0] for b in mine]
        kept = [m for m in moves if m.capture is not None and any(c in m.capture for c in firsts)]
    return kept or moves


def dukning_seat(rules: Rules, previous_mover: int | None) -> int | None:
    """Who gets the dukning for a tabbe: the previous mover in Krypkasino,
    nobody in classic Kasino (it has no dukning)."""
    return None if rules.game == "kasino" else previous_mover


def _kasino_points(card: int) -> int:
    rank, suit = card // 4 + 1, "SHDC"[card % 4]
    if rank == 10 and suit == "D":
        return 2  # stora kasino (storan)
    if rank == 2 and suit == "S":
        return 1  # lilla kasino (lillan)
    return 1 if rank == 1 else 0  # each ace


#: classic Kasino's points of each card by index (``int(card)``): storan 2, lillan 1, each ace 1
KASINO_POINTS = tuple(_kasino_points(i) for i in range(52))


def kasino_card_points(rules: Rules, piles: Sequence[Sequence[Card]]) -> list[int]:
    """Classic Kasino's card points of each seat's pile: storan 2, lillan 1,
    each ace 1, most spades 2, most cards 1 (per team in team play; a tie
    gives nobody the point). A team's majority points go to its member with
    the most of them (the lower seat on a tie); team scores do not depend on it.
    Sistan (``last_capture_point``) is added by :func:`giv_scores`.

    >>> from krypteach import parse_cards
    >>> kasino_card_points(Rules(game="kasino"), [parse_cards("10D 2S AH 3S 4S"), parse_cards("5H 6H 7S")])
    [7, 0]
    >>> kasino_card_points(Rules(game="kasino"), [parse_cards("3S 4H"), parse_cards("5S 6H")])  # ties: nobody
    [0, 0]
    """
    points = [sum(map(KASINO_POINTS.__getitem__, p)) for p in piles]
    for award, count in ((2, lambda p: sum(1 for c in p if c % 4 == 0)), (1, len)):
        per_seat = [count(p) for p in piles]
        per_team = [sum(per_seat[s] for s in rules.team_members(t)) for t in range(rules.team_count)]
        best = max(per_team)
        if per_team.count(best) == 1:
            team = per_team.index(best)
            seat = max(rules.team_members(team), key=lambda s: (per_seat[s], -s))
            points[seat] += award
    return points
