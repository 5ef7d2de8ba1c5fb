"""The pieces of a giv's state that every game shares: a :class:`Deal` (one
utdelning) and a :class:`Turn` (what one move did).

>>> Deal(((Card("9H"),), (Card("4S"),)), (Card("9S"),), ()).cards()
[Card('9H'), Card('4S'), Card('9S')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .capture_cache import ranks_taking_whole_packed
from .cards import Card
from .moves import Move

__all__ = ["Deal", "Turn"]


class Deal(NamedTuple):
    """One utdelning: cards to each seat, cards left on the table, face cards set aside."""

    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    aside: tuple[Card, ...]

    def cards(self) -> list[Card]:
        return [c for h in self.hands for c in h] + list(self.table) + list(self.aside)


class Turn:
    """What one move did: who played what, and its consequences.

    ``tabbe`` is 0, 1, or 2 (dubbeltabbe); ``dukning`` the seat that set it up
    (or ``None``); ``cancelled`` how many rounds of marks were turned down;
    ``tabbe_pa`` the ranks that could now take the whole table ("tabbe på …");
    ``dealt`` whether a new utdelning followed; ``sweep`` the cards the last
    capturer took when the giv ended after this move.

    A game works ``tabbe_pa`` out when it is first asked for (it is a search
    over the table, which a fast simulation never needs). Turns compare equal
    when all these fields are equal; treat them as read-only.

    >>> Turn(1, Move.parse("9C"), tabbe_pa=(10,))
    Turn(player=1, move=Move.parse('9C'), tabbe=0, dukning=None, cancelled=0, tabbe_pa=(10,), dealt=False, sweep=None)
    """

    __slots__ = ("player", "move", "tabbe", "dukning", "cancelled", "_tabbe_pa", "dealt", "sweep", "_table")
    _fields = ("player", "move", "tabbe", "dukning", "cancelled", "tabbe_pa", "dealt", "sweep")

    def __init__(self, player: int, move: Move, tabbe: int = 0, dukning: int | None = None, cancelled: int = 0,
                 tabbe_pa: Sequence[int] = (), dealt: bool = False, sweep: tuple[Card, ...] | None = None) -> None:
        self.player = player
        self.move = move
        self.tabbe = tabbe
        self.dukning = dukning
        self.cancelled = cancelled
        self._tabbe_pa: tuple[int, ...] | None = tuple(tabbe_pa)
        self.dealt = dealt
        self.sweep = sweep
        self._table: tuple[int, str] | None = None  # (packed value counts, ace rule) while tabbe_pa is not worked out

    @property
    def tabbe_pa(self) -> tuple[int, ...]:
        pa = self._tabbe_pa
        if pa is None:
            packed, ace = self._table  # type: ignore[misc]
            pa = self._tabbe_pa = ranks_taking_whole_packed(packed, ace)
        return pa

    def _astuple(self) -> tuple[object, ...]:
        return (self.player, self.move, self.tabbe, self.dukning, self.cancelled, self.tabbe_pa, self.dealt, self.sweep)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Turn):
            return NotImplemented
        return self._astuple() == other._astuple()

    def __hash__(self) -> int:
        return hash(self._astuple())

    def __repr__(self) -> str:
        return "Turn(" + ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self._astuple())) + ")"

