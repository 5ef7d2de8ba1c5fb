"""Moves and the legal moves of a turn (:mod:`krypteach.engine.explain` says why).

A :class:`Move` is one card played from the hand, with the table cards it
captures (``capture``) or ``None`` when it creeps (*kryper*). Its text form
round-trips: ``"7H"`` creeps the 7♥, ``"9H:2C+7D+9S"`` plays the 9♥ and takes
2♣, 7♦ and 9♠.

>>> m = Move.parse("9h:9s+2c+7d")
>>> str(m), m.kind
('9H:2C+7D+9S', 'capture')
>>> Move.parse(str(m)) == m
True

Classic Kasino (``Rules(game="kasino")``) adds the *build* (bygge): ``"5H>9:4S"``
lays the 5♥ on the 4♠ and says "nine"; ``"4C>13:4S+5H"`` raises a build of
4♠+5♥ to thirteen; ``"5H>9:4S+9C"`` makes a double nine (locked). The cards
after ``:`` are every table card the new build takes in (the cards of builds
too: a deck has each card once, so they name the builds). A capture names the
cards of the builds it takes in the same way.

>>> b = Move.build("5h", ["4s"], 9)
>>> str(b), b.kind, b.value, Move.parse(str(b)) == b, b == Move.parse("5H:4S")
('5H>9:4S', 'build', 9, True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..i18n import _
from .capture_cache import RESULTS, USABLE, caps_code, caps_table, expand_all, table_by_value
from .capture_search import pack
from .cards import Card, CardParseError, parse_cards
from .rules import Rules

_DEFAULT = Rules()

__all__ = ["BuildMove", "Explanation", "IllegalMoveError", "Move", "MoveParseError", "describe_cards", "legal_moves", "table_after"]


class MoveParseError(ValueError):
    """Text that is not a move such as ``"7H"`` or ``"9H:2C+7D"``."""


class IllegalMoveError(ValueError):
    """A move the rules forbid here. ``explanation`` says which rule and which cards."""

    def __init__(self, message: str, move: Move | None = None, explanation: Explanation | None = None) -> None:
        super().__init__(message)
        self.move = move
        self.explanation = explanation


class _MoveBase(NamedTuple):
    card: Card
    capture: tuple[Card, ...] | None = None


class Move(_MoveBase):
    """One card played from the hand: a capture (``capture`` = the table cards
    taken, sorted) or a creep (``capture is None``).

    >>> Move(Card("9H"), (Card("7D"), Card("2C")))
    Move.parse('9H:2C+7D')
    """

    __slots__ = ()
    #: the declared value of a build move (:class:`BuildMove`); ``None`` for a capture or a creep
    value: int | None = None

    def __new__(cls, card: Card | str, capture: Iterable[Card | str] | str | None = None) -> Move:
        card = Card(card)
        if capture is not None:
            capture = tuple(sorted(Card(c) for c in (parse_cards(capture) if isinstance(capture, str) else capture)))
            if not capture:
                raise MoveParseError(_("a capture must take at least one card; use capture=None to creep"))
        return _MoveBase.__new__(cls, card, capture)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``"7H"`` (creep) or ``"9H:2C+7D"`` (capture); case and suit symbols as for cards.

        >>> Move.parse("7♥")
        Move.parse('7H')
        """
        if isinstance(text, Move):
            return text
        if not isinstance(text, str) or not text.strip():
            raise MoveParseError(_("{text} is not a move: write a card (creep) or card:taken+cards, "
                                   "e.g. 9H:2C+7D").format(text=repr(text)))
        played, sep, taken = text.strip().partition(":")
        if ">" in played:
            return BuildMove.parse(text)
        try:
            card = Card.parse(played)
            if not sep:
                return cls(card)
            return cls(card, parse_cards(taken))
        except (CardParseError, MoveParseError) as e:
            raise MoveParseError(_("{text} is not a move ({problem}); write e.g. 7H or 9H:2C+7D").format(
                text=repr(text), problem=e)) from None

    @property
    def kind(self) -> str:
        """``"capture"``, ``"creep"`` (and ``"build"`` for a :class:`BuildMove`)."""
        return "creep" if self.capture is None else "capture"

    @classmethod
    def build(cls, card: Card | str, cards: Iterable[Card | str] | str, value: int) -> BuildMove:
        """A build in classic Kasino: play ``card`` onto the table ``cards`` (loose
        cards and the cards of builds it joins or raises), declaring ``value``.

        >>> Move.build("4C", "5H 4S", 13)
        Move.parse('4C>13:4S+5H')
        """
        return BuildMove(card, cards, value)

    def __str__(self) -> str:
        if self.capture is None:
            return str(self.card)
        return f"{self.card}:" + "+".join(str(c) for c in self.capture)

    def __repr__(self) -> str:
        return f"Move.parse('{self}')"

    def describe(self) -> str:
        """In words, with suit symbols: ``"9♥ takes 2♣+7♦"``, ``"7♥ creeps"``."""
        if self.capture is None:
            return _("{card} creeps").format(card=self.card.symbol)
        return _("{card} takes {cards}").format(card=self.card.symbol, cards=describe_cards(self.capture))


class BuildMove(Move):
    """A build (bygge) of classic Kasino: ``card`` laid on the table cards
    ``capture`` (sorted; every card of the builds it raises or joins, too) to
    make a build of ``value``. Made with :meth:`Move.build`; text ``"5H>9:4S"``.

    A build move never equals a capture or a creep with the same cards.

    >>> m = Move.parse("9d>9:4s+5h"); m.value, [str(c) for c in m.capture], m.describe()
    (9, ['4S', '5H'], '9♦ builds 9 with 4♠+5♥')
    """

    # a tuple subclass can have no slots of its own: the value lives in the instance dict
    def __new__(cls, card: Card | str, capture: Iterable[Card | str] | str | None = None,
                value: int | None = None) -> BuildMove:
        if capture is None:
            raise MoveParseError(_("a build lays the card on table cards: name them, "
                                   "e.g. Move.build('5H', ['4S'], 9)"))
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 14:
            raise MoveParseError(_("a build's value must be a whole number 2–14, got {value}").format(
                value=repr(value)))
        self = Move.__new__(cls, card, capture)
        self.__dict__["value"] = value
        return self  # type: ignore[return-value]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a move is immutable")

    @classmethod
    def parse(cls, text: str) -> BuildMove:
        """Parse ``"5H>9:4S"`` (build nine) or ``"4C>13:4S+5H"`` (raise to thirteen).

        >>> Move.parse("4c>13:5h+4s")
        Move.parse('4C>13:4S+5H')
        """
        head, _sep, taken = text.strip().partition(":")
        played, _sep, value = head.partition(">")
        try:
            card = Card.parse(played)
            if not value.strip().isdigit():
                raise MoveParseError(_("{value} is not a build value").format(value=repr(value.strip())))
            return cls(card, parse_cards(taken) if taken.strip() else None, int(value))
        except (CardParseError, MoveParseError) as e:
            raise MoveParseError(_("{text} is not a move ({problem}); a build is written e.g. 5H>9:4S").format(
                text=repr(text), problem=e)) from None

    @property
    def kind(self) -> str:
        return "build"

    def __str__(self) -> str:
        return f"{self.card}>{self.value}:" + "+".join(str(c) for c in self.capture or ())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BuildMove):
            return tuple.__eq__(self, other) and self.value == other.value
        if isinstance(other, tuple):
            return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((tuple(self), self.value))

    def __reduce__(self) -> tuple[type[BuildMove], tuple[Card, tuple[Card, ...] | None, int | None]]:
        return (BuildMove, (self.card, self.capture, self.value))

    def __copy__(self) -> BuildMove:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> BuildMove:
        return self

    def describe(self) -> str:
        return _("{card} builds {value} with {cards}").format(card=self.card.symbol, value=self.value,
                                                             cards=describe_cards(self.capture or ()))


@dataclass(frozen=True)
class Explanation:
    """Why a proposed move is legal or not, in words a learner understands.

    ``rule`` is a short key: ``"ok"``, ``"not-in-hand"``, ``"not-on-table"``,
    ``"tvangstabbe"``, ``"must-capture"``, ``"not-traffar"``, ``"take-all"``,
    ``"maximum"`` (and ``"giv-over"`` from :meth:`Giv.explain`); classic
    Kasino's builds add ``"build-no-card"``, ``"build-owner-must-act"``,
    ``"build-owner-trail"``, ``"build-lowered"``, ``"build-locked"``,
    ``"build-sum"``, ``"build-multiple"``, ``"build-split"`` and
    ``"build-wrong-value"`` (see :func:`explain_kasino_move`). ``traffar``
    splits a legal capture into its träffar; ``missing`` holds cards that must
    also be taken (or the whole table for a tvångstabbe); ``better`` lists
    legal moves with the same card (or the forced cards).

    >>> e = Explanation(False, "must-capture", "You may not creep.", Move.parse("9C"))
    >>> bool(e), str(e)
    (False, 'You may not creep.')
    """

    legal: bool
    rule: str
    message: str
    move: Move
    traffar: tuple[tuple[Card, ...], ...] = ()
    missing: tuple[Card, ...] = ()
    extra: tuple[Card, ...] = ()
    better: tuple[Move, ...] = field(default=())
    tabbe: int = 0  # tabbe marks the move makes: 0, 1, or 2 for a dubbeltabbe

    def __str__(self) -> str:
        return self.message

    def __bool__(self) -> bool:
        return self.legal


def describe_cards(cards: Sequence[Card], sep: str = "+") -> str:
    """Cards as symbols: ``"2♣+7♦"``."""
    return sep.join(Card(c).symbol for c in cards)


def table_after(table: Sequence[Card], move: Move) -> list[Card]:
    """The table once ``move`` is played on it (before any new utdelning): a
    creep adds the card, a capture removes the cards it takes.

    >>> from krypteach import parse_cards
    >>> [str(c) for c in table_after(parse_cards("9S 2C 5D 7H"), Move.parse("9C:2C+7H+9S"))]
    ['5D']
    >>> [str(c) for c in table_after(parse_cards("9S"), Move.parse("4H"))]
    ['9S', '4H']
    """
    if move.capture is None:
        return [*table, move.card]
    rest = list(table)
    for c in move.capture:
        rest.remove(c)
    return rest


def _new_move(card: Card, capture: tuple[Card, ...] | None) -> Move:
    # fast path: capture is already sorted
    return tuple.__new__(Move, (card, capture))


_CREEPS = tuple(_new_move(Card(i), None) for i in range(52))  # moves are immutable: one creep per card


def legal_moves(hand: Sequence[Card], table: Sequence[Card], rules: Rules | None = None,
                player: int | None = None) -> list[Move]:
    """The legal moves for a player holding ``hand`` at ``table``.

    Applies tvångstabbe (forced tabbe): when a card in hand can take the whole
    table, only such cards may be played and they take everything. Otherwise a
    card with a träff must capture (all it can, per the capture mode) and a
    card without one creeps. Identical cards give one move.

    This is Krypkasino's; ``krypteach.legal_moves``
    (:func:`krypteach.engine.builds.legal_moves`) also plays classic Kasino,
    whose table may hold builds and whose ``player`` (the seat to move) says
    which builds are the player's own.

    >>> from krypteach import parse_cards
    >>> [str(m) for m in legal_moves(parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"))]
    ['10S:AH+3D+7C+9S']
    >>> [str(m) for m in legal_moves(parse_cards("9C 4H"), parse_cards("9S 2C 5D 7H"))]
    ['9C:2C+7H+9S', '4H']
    """
    rules = rules or _DEFAULT
    if rules.is_kasino:
        raise ValueError("moves.legal_moves plays Krypkasino; for classic Kasino use krypteach.legal_moves "
                         "(krypteach.engine.builds.legal_moves)")
    return legal_moves_packed(hand, table, rules, None, caps_table(rules.ace, rules.capture))


def legal_moves_packed(hand: Sequence[Card], table: Sequence[Card], rules: Rules,
                       packed: int | None, cache: dict[int, int]) -> list[Move]:
    """:func:`legal_moves`, with what a game already knows of the table (its
    packed value counts, ``None``: not known) and the capture cache for its
    rules (:func:`caps_table`)."""
    distinct = list(dict.fromkeys(hand))
    if not table:
        return [_CREEPS[c] for c in distinct]
    # the value-level answers are cached on the table's packed value counts
    if packed is None:
        packed = pack(table)
    ace, mode = rules.ace, rules.capture
    free = mode == "free"
    moves: list[Move] = []
    forced: list[Card] = []
    st = by_value = None
    usable = USABLE[ace]
    for c in distinct:
        r0 = c >> 2
        mine = usable[r0]
        code = cache.get((packed & mine) << 4 | r0)
        if code is None:
            code = caps_code(packed, r0, ace, mode)
        if code & 1 and not packed & ~mine:  # it takes every card, none lies above its value: a tabbe
            forced.append(c)
        caps, mask, picks, _ = RESULTS[code >> 1]
        if not caps:
            moves.append(_CREEPS[c])
            continue
        # as captures._captures_of does, but sorting the table and grouping it by value
        # once for the whole hand (measured: 4 % of a random giv)
        if mask is not None:  # one capture: every table card of its values
            if st is None:
                st = sorted(table)
            moves.append(_new_move(c, tuple([x for x in st if mask[x >> 2]])))
        else:
            if by_value is None:
                by_value = table_by_value(table)
            moves.extend([_new_move(c, cap) for cap in expand_all(picks, by_value)])
        if free:
            moves.append(_CREEPS[c])
    if forced and rules.forced_tabbe:  # tvångstabbe: only the cards that take the whole table, and they take it all
        whole = tuple(sorted(table))
        return [_new_move(c, whole) for c in forced]
    return moves
