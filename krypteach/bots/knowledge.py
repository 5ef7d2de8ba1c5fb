"""What a seat can infer from its observation, shared by the bots.

Everything here reads only an :class:`~krypteach.engine.game.Observation`: the
unseen cards, which ranks another seat *cannot* hold (it faced a table its
card would have taken whole and made no tabbe, so tvångstabbe says it had no
such card), the chance that a seat holds a card of some ranks, and how a
change of scores counts for one seat in a misère game (its team's score
against the others').

>>> from krypteach.engine.game import Giv
>>> obs = Giv(seed=3).observation()
>>> len(obs.unseen()) == 104 - len(obs.hand) - len(obs.dealt_to_table)
True
>>> round(p_holds_any(unseen=10, special=2, hand=4), 3)
0.667
"""

from __future__ import annotations

from math import comb
from collections.abc import Iterable, Mapping

from ..engine.captures import tabbe_ranks
from ..engine.cards import Card
from ..engine.game import Observation
from ..engine.rules import Rules

__all__ = ["current_deal_turns", "forbidden_ranks", "p_holds_any", "relative", "point_value", "move_points"]


def current_deal_turns(obs: Observation) -> tuple[int, list]:
    """``(index of the first turn of the current utdelning, those turns)``."""
    start = 0
    for i, t in enumerate(obs.history):
        if t.dealt:
            start = i + 1
    return start, list(obs.history[start:])


def forbidden_ranks(obs: Observation) -> dict[int, frozenset[int]]:
    """Ranks each other seat cannot hold now, by tvångstabbe.

    In the current utdelning, a seat that moved while some card could take
    the whole table, and made no tabbe, held no card of those ranks — and its
    hand now is part of that hand. (Only with ``forced_tabbe`` on.)

    >>> from krypteach.engine.game import Giv
    >>> forbidden_ranks(Giv(seed=1).observation())
    {}
    """
    out: dict[int, set[int]] = {}
    if not obs.rules.forced_tabbe:
        return {}
    start, turns = current_deal_turns(obs)
    hist = obs.history
    for i, t in enumerate(turns, start=start):
        if t.player == obs.seat or t.tabbe:
            continue
        if i > 0:
            ranks = hist[i - 1].tabbe_pa
        else:  # the very first move of the giv faced the first deal's table
            ranks = tuple(tabbe_ranks([c for c in obs.dealt_to_table if not c.is_face], obs.rules))
        if ranks:
            out.setdefault(t.player, set()).update(ranks)
    return {s: frozenset(r) for s, r in out.items()}


def p_holds_any(unseen: int, special: int, hand: int) -> float:
    """Chance that a hand of ``hand`` cards drawn from ``unseen`` cards holds at
    least one of ``special`` of them (hypergeometric).

    >>> p_holds_any(10, 0, 4), p_holds_any(10, 10, 1)
    (0.0, 1.0)
    """
    if special <= 0 or hand <= 0 or unseen <= 0:
        return 0.0
    if hand > unseen:
        hand = unseen
    if special > unseen:
        special = unseen
    return 1.0 - comb(unseen - special, hand) / comb(unseen, hand)


def p_seat_holds_rank(obs: Observation, seat: int, ranks: Iterable[int],
                      unseen: list[Card] | None = None, forbidden: Mapping[int, frozenset[int]] | None = None) -> float:
    """Chance (from ``obs.seat``'s view) that ``seat`` holds a card of one of ``ranks`` now."""
    ranks = set(ranks)
    if not ranks:
        return 0.0
    unseen = obs.unseen() if unseen is None else unseen
    forb = (forbidden_ranks(obs) if forbidden is None else forbidden).get(seat, frozenset())
    pool = [c for c in unseen if c.rank not in forb]
    special = sum(1 for c in pool if c.rank in ranks)
    return p_holds_any(len(pool), special, obs.hand_sizes[seat])


def relative(rules: Rules, me: int, deltas: Mapping[int, float]) -> float:
    """How score changes per seat count for ``me``: my team's change minus the
    mean change of the other teams (lower is better in this misère game).

    >>> relative(Rules(), 0, {0: 5, 1: -5})
    10.0
    >>> relative(Rules(players=3), 0, {1: 5, 0: -5})
    -7.5
    """
    n_teams = rules.team_count
    team = [0.0] * n_teams
    for s, d in deltas.items():
        team[rules.team_of(s)] += d
    mine = rules.team_of(me)
    others = [team[t] for t in range(n_teams) if t != mine]
    return team[mine] - (sum(others) / len(others) if others else 0.0)


def point_value(cards: Iterable[Card]) -> int:
    """Card points of some cards."""
    return sum(Card(c).points for c in cards)


def move_points(move) -> int:
    """Card points a move puts on the mover's pile now (the played card goes there too when it captures)."""
    if move.capture is None:
        return 0
    return move.card.points + sum(c.points for c in move.capture)
