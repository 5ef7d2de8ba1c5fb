"""Builds (byggen) and the legal moves of classic Kasino (``Rules(game="kasino")``).

A :class:`Build` is a table item beside the loose cards: a pile of cards with a
declared ``value``, an ``owner`` (the seat that made it or raised it last) and,
when its cards make the value more than once (*dubbelt nio*: 4+5 and a 9), it
is a *multiple* build, ``locked``: it can no longer be raised. Builds are public:
the table, the observation and the records show them.

The moves of a turn (seed 004, RULES.md's last section; the choices where they
are silent are rule options, see docs/engine.md):

- **capture** (ta upp): a card takes loose cards of its rank or groups adding up
  to its value, and whole builds of its value, several groups at once. Optional
  (``capture="free"``) unless the rules force it (avig kasino: ``"maximal"``, a
  card that can take must take all it can, and may neither build nor trail).
- **build** (bygga): lay a card on loose table cards so that they make a value
  the player holds another card for; with ``multiple_builds`` also further loose
  groups of that value and builds of that value in the same pile (locked).
  **raise** (bygga på): lay a card on an unlocked build to make a higher value
  the player holds a card for. Anyone may take or raise anyone's build; a build
  is never lowered or split.
- **trail** (lägga): lay the card on the table (a creep, ``Move("7H")``).
- **the owner's duty** (``owner_duty``): while the player owns a build it must
  take it, raise it or add to it (``"take-or-raise"``), or at least not trail
  (``"no-trail"``).
- **tvångstabbe** (``forced_tabbe``, avig kasino): a card that takes the whole
  table must be played and take it.

>>> from krypteach import Rules, parse_cards
>>> k = Rules(game="kasino")
>>> [str(m) for m in kasino_legal_moves(parse_cards("5H 9D"), parse_cards("4S"), k, 0)]
['5H>9:4S', '5H', '9D']
>>> t = kasino_table_after(parse_cards("4S 7C"), Move.parse("5H>9:4S"), 0, k); t
[Card('7C'), Build.parse('[9:4S+5H@0]')]
>>> [str(m) for m in kasino_legal_moves(parse_cards("9D 2C"), t, k, 0)]  # the owner's duty
['9D:4S+5H', '2C>9:4S+5H+7C']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, NamedTuple

from ..i18n import _
from .capture_cache import captures_of
from .cards import Card, CardParseError, parse_cards
from .moves import BuildMove, Move, MoveParseError
from .rules import Rules

__all__ = ["Build", "BuildParseError", "kasino_legal_moves", "kasino_takes", "kasino_table_after", "table_cards", "loose_cards",
           "builds_on", "build_value", "take_value", "whole_table_takers", "owned_builds", "apply_owner_duty",
           "keep_takers",
           "check_move_cards", "parse_table"]


class BuildParseError(ValueError):
    """Text that is not a build such as ``[9:4S+5H@0]``."""


class _BuildBase(NamedTuple):
    value: int
    cards: tuple[Card, ...]
    owner: int


class Build(_BuildBase):
    """A build on the table: its ``value``, its ``cards`` (sorted) and its
    ``owner`` seat. Text ``[9:4S+5H@0]``: value, cards, ``@`` owner.

    >>> b = Build(9, parse_cards("5H 4S"), 1)
    >>> b, b.locked, str(b), Build.parse(str(b)) == b
    (Build.parse('[9:4S+5H@1]'), False, '[9:4S+5H@1]', True)
    >>> Build(9, parse_cards("5H 4S 9C"), 0).locked   # dubbelt nio: a multiple build
    True
    """

    __slots__ = ()

    def __new__(cls, value: int, cards: Iterable[Card | str] | str, owner: int) -> Build:
        cs = tuple(sorted(parse_cards(cards) if isinstance(cards, str) else (Card(c) for c in cards)))
        if not cs:
            raise BuildParseError(_("a build holds at least two cards"))
        return _BuildBase.__new__(cls, value, cs, owner)

    @classmethod
    def parse(cls, text: str) -> Build:
        """Parse ``"[9:4S+5H@0]"``.

        >>> Build.parse("[13:4c+4s+5h@1]").value
        13
        """
        t = text.strip() if isinstance(text, str) else ""
        if not (t.startswith("[") and t.endswith("]") and ":" in t and "@" in t):
            raise BuildParseError(_("{text} is not a build: write [value:cards@owner], e.g. [9:4S+5H@0]").format(
                text=repr(text)))
        value, _sep, rest = t[1:-1].partition(":")
        cards, _sep, owner = rest.rpartition("@")
        try:
            return cls(int(value), parse_cards(cards), int(owner))
        except (ValueError, CardParseError) as e:
            raise BuildParseError(_("{text} is not a build ({problem}): write e.g. [9:4S+5H@0]").format(
                text=repr(text), problem=e)) from None

    @property
    def locked(self) -> bool:
        """A multiple build (its cards make the value more than once): it cannot be raised."""
        return sum(c.rank for c in self.cards) > self.value

    @property
    def code(self) -> str:
        return str(self)

    @property
    def symbol(self) -> str:
        """``"[9: 4♠+5♥]"``; a locked build ``"[9 9: …]"``."""
        head = f"{self.value} {self.value}" if self.locked else str(self.value)
        return f"[{head}: {'+'.join(c.symbol for c in self.cards)}]"

    def __str__(self) -> str:
        return f"[{self.value}:" + "+".join(str(c) for c in self.cards) + f"@{self.owner}]"

    def __repr__(self) -> str:
        return f"Build.parse('{self}')"


def table_cards(table: Iterable[Card | Build]) -> list[Card]:
    """Every card on the table, the cards of builds included.

    >>> table_cards([Card("7C"), Build(9, parse_cards("4S 5H"), 0)])
    [Card('7C'), Card('4S'), Card('5H')]
    """
    out: list[Card] = []
    for x in table:
        if isinstance(x, Build):
            out.extend(x.cards)
        else:
            out.append(x)
    return out


def loose_cards(table: Iterable[Card | Build]) -> list[Card]:
    """The table's loose cards (not in a build)."""
    return [x for x in table if not isinstance(x, Build)]


def builds_on(table: Iterable[Card | Build]) -> list[Build]:
    """The table's builds."""
    return [x for x in table if isinstance(x, Build)]


def build_value(card: Card, rules: Rules) -> int | None:
    """What ``card`` counts in a sum or a build on the table: its rank (an ace 1);
    ``None`` for a face card when face cards take only their own rank."""
    if rules.face_cards == "own-rank" and card.is_face:
        return None
    return card.rank


def take_value(card: Card, rules: Rules) -> int | None:
    """The value of a build ``card`` takes from the hand: its rank, an ace 14
    (``None`` when the ace counts 1 only, or for a face card that takes only its own rank)."""
    if card.rank == 1:
        return None if rules.ace == "1" else 14
    return build_value(card, rules)


def _loose_captures(card: Card, loose: Sequence[Card], rules: Rules, mode: str) -> list[tuple[Card, ...]]:
    """The unions of träffar ``card`` has among the loose cards: every one
    (``mode="free"``) or those that leave no träff (``"maximal"``)."""
    if not loose:
        return []
    if rules.face_cards == "own-rank":
        if card.is_face:
            same = [c for c in loose if c.rank == card.rank]
            if mode != "free":
                return [tuple(sorted(same))] if same else []
            return [tuple(sorted(s)) for k in range(1, len(same) + 1) for s in combinations(same, k)]
        loose = [c for c in loose if not c.is_face]
        if not loose:
            return []
    return captures_of(card, loose, rules.ace, mode)


def _captures(card: Card, table: Sequence[Card | Build], rules: Rules, mode: str = "free") -> list[tuple[Card, ...]]:
    """The captures ``card`` can make: loose träffar and whole builds of its
    value; every one (``"free"``), those that take all it can (``"maximal"``:
    every build of its value and a maximal loose capture) or those with the
    most cards (``"maximum"``)."""
    loose = loose_cards(table)
    v = take_value(card, rules)
    mine = [b.cards for b in builds_on(table) if b.value == v]
    if mode == "maximal":
        joined = tuple(c for b in mine for c in b)
        caps = [tuple(sorted(lc + joined)) for lc in _loose_captures(card, loose, rules, "maximal")]
        return caps or ([tuple(sorted(joined))] if joined else [])
    loose_caps: list[tuple[Card, ...]] = [(), *_loose_captures(card, loose, rules, "free")]
    out = []
    for k in range(len(mine) + 1):
        for bs in combinations(mine, k):
            joined = tuple(c for b in bs for c in b)
            for lc in loose_caps:
                if lc or joined:
                    out.append(tuple(sorted(lc + joined)))
    if mode == "maximum" and out:
        most = max(map(len, out))
        out = [c for c in out if len(c) == most]
    return out


def whole_table_takers(hand: Sequence[Card], table: Sequence[Card | Build], rules: Rules) -> list[Card]:
    """The cards of ``hand`` that can take the whole (non-empty) table."""
    if not table:
        return []
    whole = tuple(sorted(table_cards(table)))
    return [c for c in dict.fromkeys(hand) if whole in _captures(c, table, rules)]


#: the subsets of a row of build values that make a sum (bit masks, ascending), by (values, sum): a
#: turn asks one table for many sums (each value the hand can take, for each card), and the next
#: turns ask it again
_SUM_MASKS: dict[tuple[tuple[int, ...], int], list[int]] = {}
#: the masks the cache holds at most (a few MB), then it starts again
_SUM_MASKS_MAX = 1 << 18
_sum_masks_held = [0]
_NO_VALUE = -(1 << 20)  # a card without a build value: in no subset


def _sum_masks(vals: tuple[int, ...], total: int) -> list[int]:
    """Every subset of ``vals`` whose values add up to ``total`` (bit masks, ascending), for a
    positive ``total``: a search that adds the cards in order and never passes ``total`` (values
    are positive), so it meets only the subsets that sum to ``total`` or less, not all ``2**n``."""
    key = (vals, total)
    known = _SUM_MASKS.get(key)
    if known is not None:
        return known
    n = len(vals)
    out: list[int] = []

    def extend(start: int, mask: int, s: int) -> None:
        for i in range(start, n):
            v = vals[i]
            if v <= 0:
                continue
            t = s + v
            if t > total:
                continue
            m = mask | 1 << i
            if t == total:
                out.append(m)
            else:
                extend(i + 1, m, t)

    extend(0, 0, 0)
    out.sort()
    if _sum_masks_held[0] + len(out) + 1 > _SUM_MASKS_MAX:
        _SUM_MASKS.clear()
        _sum_masks_held[0] = 0
    _SUM_MASKS[key] = out
    _sum_masks_held[0] += len(out) + 1
    return out


def _groups(loose: Sequence[Card], total: int, rules: Rules) -> list[int]:
    """Bit masks (over ``loose``, ascending) of the subsets whose build values add up to ``total``
    (a card without a build value is in none)."""
    vals = tuple(_NO_VALUE if (v := build_value(c, rules)) is None else v for c in loose)
    return _sum_masks(vals, total) if total > 0 else []


def _lone_aces(loose: Sequence[Card], v: int, rules: Rules) -> list[int]:
    """Bit masks of the lone table aces that stand as a group of 14 (``lone_ace_builds``:
    the player chooses 1 or 14 in the move, seed 004), for a build of ``v``."""
    if v != 14 or not rules.lone_ace_builds or rules.ace != "1or14":
        return []
    return [1 << i for i, c in enumerate(loose) if c.rank == 1]


def _unions(first: int, groups: Sequence[int]) -> set[int]:
    """``first`` with every set of pairwise disjoint ``groups`` that do not overlap it (bit masks)."""
    unions = {first}
    for g in groups:
        unions |= {u | g for u in unions if not u & g}
    return unions


def _build_moves(card: Card, hand: Sequence[Card], table: Sequence[Card | Build], rules: Rules) -> list[Move]:
    """The builds and raises ``card`` can make (each value the rest of the hand can take)."""
    cv = build_value(card, rules)
    if cv is None:
        return []
    values = sorted({v for h in hand if h != card and (v := take_value(h, rules)) is not None and v > 1})
    if not values:
        return []
    loose = loose_cards(table)
    builds = builds_on(table)
    moves: list[Move] = []
    seen: set[tuple[int, tuple[Card, ...]]] = set()

    def add(v: int, cards: Iterable[Card]) -> None:
        key = (v, tuple(sorted(cards)))
        if key not in seen:
            seen.add(key)
            moves.append(BuildMove(card, key[1], v))

    for v in values:
        others = _groups(loose, v, rules) + _lone_aces(loose, v, rules) if rules.multiple_builds else []
        same = [b for b in builds if b.value == v]
        # raises: the card on one unlocked build, to a higher value the hand holds; with
        # raise_gathers (and multiple builds) other groups of v may join the pile (locked)
        for b in builds:
            if not b.locked and b.value + cv == v:
                add(v, b.cards)
                if rules.raise_gathers and rules.multiple_builds:
                    for u in _unions(0, others):
                        cards = [loose[i] for i in range(len(loose)) if u >> i & 1]
                        for k in range(len(same) + 1):
                            for bs in combinations(same, k):
                                add(v, [*b.cards, *cards, *(c for x in bs for c in x.cards)])
        # new builds: the card with loose cards making v; with multiple builds, more groups of v too
        need = v - cv
        if need < 0:
            continue
        with_card = _groups(loose, need, rules) if need else [0]
        if not rules.multiple_builds:
            for m in with_card:
                if m:
                    add(v, [loose[i] for i in range(len(loose)) if m >> i & 1])
            continue
        for m in with_card:
            for u in _unions(m, others):
                cards = [loose[i] for i in range(len(loose)) if u >> i & 1]
                for k in range(len(same) + 1):
                    for bs in combinations(same, k):
                        joined = cards + [c for b in bs for c in b.cards]
                        if joined and (u != m or m or bs):  # laid on at least one table card
                            add(v, joined)
    return moves


def owned_builds(table: Sequence[Card | Build], player: int | None) -> list[Build]:
    """The builds on ``table`` that ``player`` owns (made or raised last)."""
    if player is None:
        return []
    return [x for x in table if isinstance(x, Build) and x.owner == player]


def apply_owner_duty(moves: list[Move], table: Sequence[Card | Build], player: int | None,
                     rules: Rules) -> list[Move]:
    """Classic Kasino's duty of a build's owner, applied to the moves of a turn.

    While ``player`` owns a build, with ``owner_duty="take-or-raise"`` (the
    default, seed 004: "har du byggt måste du ta bygget nästa tur") every move
    must take one of its builds or build on it (raise it, or add a group of
    the same value); with ``"no-trail"`` it may do anything but trail. When no
    move meets the duty (a hand-made position where the owner lacks the card),
    every move stays legal: a turn always has a move.

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


def keep_takers(moves: list[Move], hand: Sequence[Card], table: Sequence[Card | Build], player: int | None,
                rules: Rules) -> list[Move]:
    """A builder keeps in hand a card that takes each build they own (RULES.md, seed 004: "Du
    måste ha kortet som tar bygget på handen"): a move that would leave ``player`` owning a
    build with no card left to take it is not legal, whatever the owner's duty (but
    ``"none"``). When no move keeps one (a hand-made position), every move stays legal.

    >>> table = [Card("9S"), Build(9, parse_cards("4S 5H"), 0)]
    >>> moves = [Move.parse("9D:4S+5H+9S"), Move.parse("9D:9S"), Move.parse("2C")]
    >>> [str(m) for m in keep_takers(moves, parse_cards("9D 2C"), table, 0, Rules(game="kasino"))]
    ['9D:4S+5H+9S', '2C']
    """
    if rules.owner_duty == "none" or not owned_builds(table, player):
        return moves
    assert player is not None
    kept = []
    for m in moves:
        rest = list(hand)
        rest.remove(m.card)
        values = {take_value(c, rules) for c in rest}
        if all(x.value in values for x in owned_builds(kasino_table_after(table, m, player), player)):
            kept.append(m)
    return kept or moves


def kasino_legal_moves(hand: Sequence[Card], table: Sequence[Card | Build], rules: Rules,
                       player: int | None = None, *, keep: bool = True, builds: bool = True) -> list[Move]:
    """The legal moves of classic Kasino for ``player`` holding ``hand`` at ``table``.

    Per card in hand: its captures, then its builds, then the trail; then the
    forced tabbe, the owner's duty (:func:`apply_owner_duty`) and the card the
    owner keeps for each build (:func:`keep_takers`; ``keep=False`` leaves that out, for
    an explanation of why a move is not legal; ``builds=False`` leaves the builds out, for
    :func:`kasino_takes`).
    ``player`` ``None`` means a seat that owns no build.

    >>> from krypteach import Rules, parse_cards
    >>> k = Rules(game="kasino")
    >>> [str(m) for m in kasino_legal_moves(parse_cards("8H 3C"), parse_cards("8S 5D 3H"), k, 0)]
    ['8H:8S', '8H:3H+5D', '8H:3H+5D+8S', '8H', '3C:3H', '3C>8:5D', '3C>8:5D+8S', '3C']
    """
    forced = rules.capture != "free"
    moves: list[Move] = []
    takes_all: list[Move] = []
    whole = tuple(sorted(table_cards(table))) if table else None
    for card in dict.fromkeys(hand):
        caps = _captures(card, table, rules, rules.capture)
        caps.sort(key=lambda c: (len(c), c))
        cap_moves = [Move(card, c) for c in caps]
        moves.extend(cap_moves)
        takes_all.extend(m for m in cap_moves if m.capture == whole)
        if caps and forced:
            continue  # a card that can take must take: it neither builds nor trails
        if table and builds:
            moves.extend(_build_moves(card, hand, table, rules))
        moves.append(Move(card))
    if takes_all and rules.forced_tabbe:
        return takes_all
    moves = apply_owner_duty(moves, table, player, rules)
    return keep_takers(moves, hand, table, player, rules) if keep else moves


def kasino_takes(hand: Sequence[Card], table: Sequence[Card | Build], rules: Rules,
                 player: int | None = None) -> tuple[list[Move], bool]:
    """What :func:`kasino_legal_moves` answers about taking, without listing every build (a table
    of many loose cards makes hundreds): the legal captures, and whether a legal move takes
    nothing (a build or a trail). A build is open to a card exactly when its trail is, unless the
    player owns a build (the owner's duty may keep a build and forbid the trail): then every move
    is listed.

    >>> from krypteach import Rules, parse_cards
    >>> caps, other = kasino_takes(parse_cards("8H 3C"), parse_cards("8S 5D 3H"), Rules(game="kasino"), 0)
    >>> [str(m) for m in caps], other
    (['8H:8S', '8H:3H+5D', '8H:3H+5D+8S', '3C:3H'], True)
    """
    if rules.owner_duty != "none" and owned_builds(table, player):
        moves = kasino_legal_moves(hand, table, rules, player)
        return [m for m in moves if m.kind == "capture"], any(m.kind != "capture" for m in moves)
    moves = kasino_legal_moves(hand, table, rules, player, builds=False)
    return [m for m in moves if m.kind == "capture"], any(m.capture is None for m in moves)


# list[Any], not list[Card | Build]: callers read the new build at [-1] without narrowing
# (teaching/puzzles/kasino.py); list[Card | Build] once they do
def kasino_table_after(table: Sequence[Card | Build], move: Move, player: int, rules: Rules | None = None) -> list[Any]:
    """The table once ``player`` has played ``move``: a trail adds the card, a
    capture removes the loose cards and whole builds it takes, a build removes
    what it takes in and adds the new :class:`Build` (owned by ``player``) last.
    ``rules`` is not needed: a build's value is in the move."""
    if move.capture is None:
        return [*table, move.card]
    taken = set(move.capture)
    rest = [x for x in table if not (x.cards[0] in taken if isinstance(x, Build) else x in taken)]
    if move.value is not None:
        rest.append(Build(move.value, (move.card, *move.capture), player))
    return rest


def check_move_cards(table: Sequence[Card | Build], move: Move) -> str | None:
    """Why ``move``'s table cards cannot be taken as named (a card not on the table,
    part of a build without the rest), or ``None`` when they can."""
    on = set(table_cards(table))
    taken = set(move.capture or ())
    for c in sorted(taken - on):
        return f"not-on-table:{c}"
    for b in builds_on(table):
        inside = taken & set(b.cards)
        if inside and inside != set(b.cards):
            return "build-split"
    return None


def parse_table(text: str | Iterable[str | Card | Build]) -> list[Card | Build]:
    """A table from text: loose card codes and builds ``[9:4S+5H@0]``, separated by spaces.

    >>> parse_table("7C [9:4S+5H@1] KD")
    [Card('7C'), Build.parse('[9:4S+5H@1]'), Card('KD')]
    """
    items = text.split() if isinstance(text, str) else list(text)
    out: list[Card | Build] = []
    for x in items:
        if isinstance(x, Build | Card):
            out.append(x)
        elif isinstance(x, str) and x.strip().startswith("["):
            out.append(Build.parse(x))
        else:
            try:
                out.append(Card(x))
            except CardParseError as e:
                raise MoveParseError(str(e)) from None
    return out


def build_total(card: Card, cards: Iterable[Card], rules: Rules) -> int | None:
    """What ``card`` laid on ``cards`` adds up to in a build (each card's
    :func:`build_value`), or ``None`` when one of them has no build value.

    >>> build_total(Card("5H"), parse_cards("4S 9C"), Rules(game="kasino"))
    18
    """
    values = [build_value(c, rules) for c in (card, *cards)]
    return None if None in values else sum(v for v in values if v is not None)
