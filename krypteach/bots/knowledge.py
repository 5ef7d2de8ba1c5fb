"""What a seat can infer from its observation, shared by the bots.

Everything here reads only an :class:`~krypteach.engine.game.Observation`: the
unseen cards, which ranks another seat *cannot* hold (it faced a table its
card would have taken whole and made no tabbe, so tvångstabbe says it had no
such card), and the chance that a seat holds a card of some ranks. How a
change of scores counts for one seat is the engine's
:func:`krypteach.engine.turn.team_relative`.

>>> from krypteach.engine.game import Giv
>>> obs = Giv(seed=3).observation()
>>> len(obs.unseen()) == 104 - len(obs.hand) - len(obs.dealt_to_table)
True
>>> round(p_holds_any(unseen=10, special=2, hand=4), 3)
0.667
"""

from __future__ import annotations

from math import comb

from ..engine.captures import tabbe_ranks
from ..engine.cards import POINTS
from ..engine.game import Observation, Turn
from ..engine.moves import Move

__all__ = ["current_deal_turns", "forbidden_ranks", "p_holds_any", "move_points", "unseen_counts", "unseen_rank_counts"]



def current_deal_turns(obs: Observation) -> tuple[int, list[Turn]]:
    """``(index of the first turn of the current utdelning, those turns)``.

    >>> from krypteach.engine.game import Giv
    >>> current_deal_turns(Giv(seed=1).observation())
    (0, [])
    """
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
    hist = obs.history
    # the current utdelning's turns (as current_deal_turns finds them, from the end: they are few)
    start = len(hist)
    while start and not hist[start - 1].dealt:
        start -= 1
    seat = obs.seat
    for i in range(start, len(hist)):
        t = hist[i]
        if t.player == seat or t.tabbe:
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


def move_points(move: Move) -> int:
    """Card points a move puts on the mover's pile now (the played card goes there too when it captures).

    >>> move_points(Move.parse("AH:AS")), move_points(Move.parse("AH"))
    (3, 0)
    """
    if move.capture is None:
        return 0
    return POINTS[move.card] + sum(POINTS[c] for c in move.capture)


def unseen_rank_counts(obs: Observation) -> list[int]:
    """How many cards of each rank (index 1..13; index 0 is 0) ``obs.seat`` has
    not seen: 0 to 8. The same as adding up :func:`unseen_counts` by rank, in
    one pass (the careful bot asks at every decision).

    >>> from krypteach.engine.game import Giv
    >>> obs = Giv(seed=3).observation()
    >>> left = unseen_counts(obs)
    >>> unseen_rank_counts(obs) == [0] + [sum(left[4 * r - 4:4 * r]) for r in range(1, 14)]
    True
    """
    # the seen cards as bytes (card numbers), turned into ranks and counted at C speed
    seen = (bytes(obs.hand) + bytes(obs.dealt_to_table) + bytes([t.move[0] for t in obs.history])).translate(_TO_RANK)
    count = seen.count
    return [0] + [8 - count(r) for r in range(1, 14)]


_TO_RANK = bytes((c >> 2) + 1 for c in range(52)) + bytes(204)  # card number -> rank (a bytes.translate table)


def unseen_counts(obs: Observation) -> list[int]:
    """How many copies of each card (index: card number 0..51) ``obs.seat`` has
    not seen: 0, 1 or 2.

    >>> from krypteach.engine.game import Giv
    >>> sum(unseen_counts(Giv(seed=3).observation()))  # 104 less the hand and the table
    96
    """
    return obs.unseen_counts()
