"""Moves, the legal moves of a turn, and explanations that teach.

A :class:`Move` is one card played from the hand, with the table cards it
captures (``capture``) or ``None`` when it creeps (*kryper*). Its text form
round-trips: ``"7H"`` creeps the 7♥, ``"9H:2C+7D+9S"`` plays the 9♥ and takes
2♣, 7♦ and 9♠.

>>> m = Move.parse("9h:9s+2c+7d")
>>> str(m), m.kind
('9H:2C+7D+9S', 'capture')
>>> Move.parse(str(m)) == m
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .captures import (
    _DEFAULT,
    _RESULTS,
    _USABLE,
    _by_value,
    _caps_id,
    _caps_table,
    _expand_all,
    _pack,
    _spec,
    capture_options,
    split_into_traffar,
    traffar,
)
from .cards import Card, CardParseError, parse_cards
from .rules import Rules

__all__ = ["Move", "MoveParseError", "IllegalMoveError", "Explanation", "legal_moves", "explain_move", "describe_cards",
           "table_after"]


class MoveParseError(ValueError):
    """Text that is not a move such as ``"7H"`` or ``"9H:2C+7D"``."""


class IllegalMoveError(ValueError):
    """A move the rules forbid here. ``explanation`` says which rule and which cards."""

    def __init__(self, message: str, move: "Move | None" = None, explanation: "Explanation | None" = None):
        super().__init__(message)
        self.move = move
        self.explanation = explanation


class _MoveBase(NamedTuple):
    card: Card
    capture: tuple[Card, ...] | None = None
    build: int | None = None


class Move(_MoveBase):
    """One card played from the hand: a capture (``capture`` = the table cards
    taken, sorted) or a creep (``capture is None``).

    ``build`` is reserved for classic Kasino's builds (the declared value of a
    build) and is always ``None`` in Krypkasino.

    >>> Move(Card("9H"), (Card("7D"), Card("2C")))
    Move.parse('9H:2C+7D')
    """

    __slots__ = ()

    def __new__(cls, card: "Card | str", capture=None, build: int | None = None) -> "Move":
        card = Card(card)
        if capture is not None:
            capture = tuple(sorted(Card(c) for c in (parse_cards(capture) if isinstance(capture, str) else capture)))
            if not capture:
                raise MoveParseError("a capture must take at least one card; use capture=None to creep")
        return _MoveBase.__new__(cls, card, capture, build)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Parse ``"7H"`` (creep) or ``"9H:2C+7D"`` (capture); case and suit symbols as for cards.

        >>> Move.parse("7♥")
        Move.parse('7H')
        """
        if isinstance(text, Move):
            return text
        if not isinstance(text, str) or not text.strip():
            raise MoveParseError(f"{text!r} is not a move: write a card (creep) or card:taken+cards, e.g. 9H:2C+7D")
        played, sep, taken = text.strip().partition(":")
        try:
            card = Card.parse(played)
            if not sep:
                return cls(card)
            return cls(card, parse_cards(taken))
        except (CardParseError, MoveParseError) as e:
            raise MoveParseError(f"{text!r} is not a move ({e}); write e.g. 7H or 9H:2C+7D") from None

    @property
    def kind(self) -> str:
        """``"capture"`` or ``"creep"``."""
        return "creep" if self.capture is None else "capture"

    @property
    def is_capture(self) -> bool:
        return self.capture is not None

    def __str__(self) -> str:
        if self.capture is None:
            return str(self.card)
        return f"{self.card}:" + "+".join(str(c) for c in self.capture)

    def __repr__(self) -> str:
        return f"Move.parse('{self}')"

    def describe(self) -> str:
        """In words, with suit symbols: ``"9♥ takes 2♣+7♦"``, ``"7♥ creeps"``."""
        if self.capture is None:
            return f"{self.card.symbol} creeps"
        return f"{self.card.symbol} takes {describe_cards(self.capture)}"


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
    return tuple.__new__(Move, (card, capture, None))


_CREEPS = tuple(_new_move(Card(i), None) for i in range(52))  # moves are immutable: one creep per card


def legal_moves(hand: Sequence[Card], table: Sequence[Card], rules: Rules | None = None) -> list[Move]:
    """The legal moves for a player holding ``hand`` at ``table``.

    Applies tvångstabbe (forced tabbe): when a card in hand can take the whole
    table, only such cards may be played and they take everything. Otherwise a
    card with a träff must capture (all it can, per the capture mode) and a
    card without one creeps. Identical cards give one move.

    >>> from krypteach import parse_cards
    >>> [str(m) for m in legal_moves(parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"))]
    ['10S:AH+3D+7C+9S']
    >>> [str(m) for m in legal_moves(parse_cards("9C 4H"), parse_cards("9S 2C 5D 7H"))]
    ['9C:2C+7H+9S', '4H']
    """
    rules = rules or _DEFAULT
    return _legal_moves(hand, table, rules, None, _caps_table(rules.ace, rules.capture))


def _legal_moves(hand: Sequence[Card], table: Sequence[Card], rules: Rules,
                 packed: int | None, cache: dict[int, int]) -> list[Move]:
    """:func:`legal_moves`, with what a game already knows of the table (its
    packed value counts, ``None``: not known) and the capture cache for its
    rules (:func:`_caps_table`)."""
    distinct = list(dict.fromkeys(hand))
    if not table:
        return [_CREEPS[c] for c in distinct]
    # the value-level answers are cached on the table's packed value counts
    if packed is None:
        packed = _pack(table)
    ace, mode = rules.ace, rules.capture
    free = mode == "free"
    moves: list[Move] = []
    forced: list[Card] = []
    st = by_value = None
    usable = _USABLE[ace]
    for c in distinct:
        r0 = c >> 2
        mine = usable[r0]
        code = cache.get((packed & mine) << 4 | r0)
        if code is None:
            code = _caps_id(packed, r0, ace, mode)
        if code & 1 and not packed & ~mine:  # it takes every card, none lies above its value: a tabbe
            forced.append(c)
        caps, mask, picks, _ = _RESULTS[code >> 1]
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
                by_value = _by_value(table)
            moves.extend([_new_move(c, cap) for cap in _expand_all(picks, by_value)])
        if free:
            moves.append(_CREEPS[c])
    if forced and rules.forced_tabbe:  # tvångstabbe: only the cards that take the whole table, and they take it all
        whole = tuple(sorted(table))
        return [_new_move(c, whole) for c in forced]
    return moves


@dataclass(frozen=True)
class Explanation:
    """Why a proposed move is legal or not, in words a learner understands.

    ``rule`` is a short key: ``"ok"``, ``"not-in-hand"``, ``"not-on-table"``,
    ``"tvangstabbe"``, ``"must-capture"``, ``"not-traffar"``, ``"take-all"``,
    ``"maximum"``. ``traffar`` splits a legal capture into its träffar;
    ``missing`` holds cards that must also be taken (or the whole table for a
    tvångstabbe); ``better`` lists legal moves with the same card (or the
    forced cards).
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


def _traffar_text(groups: Sequence[Sequence[Card]]) -> str:
    return " and ".join(describe_cards(g) for g in groups)


def explain_move(hand: Sequence[Card], table: Sequence[Card], move: "Move | str", rules: Rules | None = None) -> Explanation:
    """Explain whether ``move`` is legal for ``hand`` at ``table``, naming the rule and the cards.

    >>> from krypteach import parse_cards
    >>> e = explain_move(parse_cards("9C"), parse_cards("9S 2C 5D 7H"), "9C:9S")
    >>> e.legal, e.rule
    (False, 'take-all')
    >>> print(e.message)
    You must take all you can: 2♣+7♥ also make 9 and would stay on the table. Take 9♠ and 2♣+7♥; 5♦ stays.
    """
    rules = rules or _DEFAULT
    move = Move.parse(move) if isinstance(move, str) else move
    card = move.card
    sym = card.symbol
    if card not in hand:
        return Explanation(False, "not-in-hand", f"{sym} is not in your hand (your hand: {describe_cards(hand, ' ') or 'empty'}).", move)
    if move.capture is not None:
        left = Counter(table)
        for c in move.capture:
            if left[c] <= 0:
                return Explanation(
                    False, "not-on-table",
                    f"{c.symbol} is not on the table (the table: {describe_cards(table, ' ') or 'empty'}).", move,
                    extra=(c,),
                )
            left[c] -= 1
    legal = legal_moves(hand, table, rules)
    same_card = tuple(m for m in legal if m.card == card)
    whole = tuple(sorted(table))
    # tvångstabbe
    if rules.forced_tabbe and legal and legal[0].capture == whole and table:
        forced_cards = [m.card for m in legal]
        if move.card not in forced_cards or move.capture != whole:
            who = " or ".join(c.symbol for c in forced_cards)
            split = split_into_traffar(forced_cards[0], table, rules) or [tuple(table)]
            if move.card in forced_cards:
                head = f"Tvångstabbe (forced tabbe): your {sym} can take the whole table ({_traffar_text(split)}), so it must take everything."
            else:
                head = (
                    f"Tvångstabbe (forced tabbe): your {who} can take the whole table "
                    f"({_traffar_text(split)}), so you must play {'it' if len(forced_cards) == 1 else 'one of them'} and take everything."
                )
            return Explanation(False, "tvangstabbe", head, move, missing=whole, better=tuple(legal))
    opts = capture_options(card, table, rules)
    if move.capture is None:
        if not opts or move in legal:
            msg = f"{sym} has no träff, so it creeps (kryper): it is laid on the table."
            if opts:
                msg = f"{sym} creeps (kryper); under the free rule you may creep even though it could capture."
            return Explanation(True, "ok", msg, move)
        shown = traffar(card, table, rules)
        return Explanation(
            False, "must-capture",
            f"You may not creep (krypa) with {sym}: it has a träff — it can take {_traffar_text(shown)}. "
            "A card that can capture must capture.", move, better=same_card,
        )
    # a capture: must split into träffar
    split = split_into_traffar(card, move.capture, rules)
    value = _spec(card.rank, rules.ace)[0]
    if split is None:
        total = sum(c.value for c in move.capture)
        why = (
            f"the cards you take must split into träffar: single cards of the same rank, "
            f"or groups that add up to {value}"
        )
        if len(move.capture) > 1:
            why += f" ({describe_cards(move.capture)} add up to {total})"
        if not opts:
            msg = f"{sym} has no träff on this table, so it cannot take anything: it creeps."
        else:
            msg = f"{describe_cards(move.capture)} is not a träff for your {sym}: {why}."
        return Explanation(False, "not-traffar", msg, move, extra=tuple(move.capture), better=same_card)
    rest = table_after(table, move)
    if move in legal:
        stays = f"; {describe_cards(rest, ' ')} {'stays' if len(rest) == 1 else 'stay'}" if rest else ""
        tabbe = 0
        msg = f"{sym} takes {_traffar_text(split)}{stays}."
        if not rest:
            double = rules.dubbeltabbe and len(table) == 1 and table[0] == card
            tabbe = 2 if double else 1
            msg += " Dubbeltabbe (double tabbe): the lone card taken with its twin counts as two tabbar!" if double else " Tabbe: the table is empty!"
        return Explanation(True, "ok", msg, move, traffar=tuple(split), tabbe=tabbe)
    # a union of träffar that is not allowed
    left_traffar = traffar(card, rest, rules)
    if left_traffar and rules.capture != "free":
        # show a disjoint set of träffar that could still be taken
        best = next((m for m in same_card if set(move.capture) <= set(m.capture or ())), same_card[0] if same_card else None)
        missing: tuple[Card, ...] = ()
        hint = ""
        if best is not None and best.capture is not None:
            missing = tuple((Counter(best.capture) - Counter(move.capture)).elements())
            bsplit = split_into_traffar(card, best.capture, rules) or [best.capture]
            bstay = table_after(table, best)
            hint = f" Take {_traffar_text(bsplit)}" + (f"; {describe_cards(bstay, ' ')} {'stays' if len(bstay) == 1 else 'stay'}." if bstay else ".")
        shown = left_traffar[0]
        return Explanation(
            False, "take-all",
            f"You must take all you can: {describe_cards(shown)} also {'make' if len(shown) > 1 else 'matches'} "
            f"{value if len(shown) > 1 else sym} and would stay on the table.{hint}",
            move, traffar=tuple(split), missing=missing, better=same_card,
        )
    # maximum rule
    most = max(len(m.capture) for m in same_card if m.capture)
    return Explanation(
        False, "maximum",
        f"Under the 'maximum' rule you must take the most cards: {sym} can take {most} cards, this takes {len(move.capture)}.",
        move, traffar=tuple(split), better=same_card,
    )
