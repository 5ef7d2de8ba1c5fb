"""Cards of the double deck used in Krypkasino.

A :class:`Card` is a rank and a suit. Krypkasino is played with two ordinary
52-card decks shuffled together, so every card exists twice; the two copies are
equal and interchangeable.

Notation (API, records, tests): rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` then suit
``S H D C`` (spader, hjärter, ruter, klöver). ``10D`` is *storan* (the big one),
``2S`` *lillan* (the little one), ``AS`` *spader ess*.

>>> Card.parse("10d")
Card('10D')
>>> str(Card.parse("10♦")), Card.parse("10D").points
('10D', 3)
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..i18n import _
from . import display

__all__ = [
    "Card",
    "CardParseError",
    "RANKS",
    "SUITS",
    "SUIT_NAMES",
    "RANK_NAMES",
    "parse_cards",
    "full_deck",
    "double_deck",
    "cards_text",
    "POINTS",
]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spader", "H": "hjärter", "D": "ruter", "C": "klöver"}
RANK_NAMES = {1: "ess", 11: "knekt", 12: "dam", 13: "kung"}
_SYMBOL_TO_SUIT = {sym: s for s, sym in SUIT_SYMBOLS.items()}
# alternative symbols (white suits) learners may paste
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})


class CardParseError(ValueError):
    """Text that is not a card code such as ``10D``, ``AS`` or ``Q♥``."""


class Card(int):
    """One playing card: an immutable value that is also a small int (0..51).

    ``rank`` is 1 (ace) .. 13 (king); ``suit`` one of ``"S" "H" "D" "C"``.
    Cards sort by rank, then suit in the order S, H, D, C. Only 52 instances
    exist; ``Card("9H")`` returns the shared one.

    >>> c = Card("9h")
    >>> c.rank, c.suit, str(c)
    (9, 'H', '9H')
    >>> Card("AS").points, Card("2S").points, Card("10D").points, Card("7H").points
    (2, 2, 3, 0)
    """

    __slots__ = ()

    def __new__(cls, code: str | Card | int) -> Card:
        if isinstance(code, Card):
            return code
        if isinstance(code, int):
            if 0 <= code < 52:
                return _ALL[code]
            raise CardParseError(_("card number must be 0..51, got {number}").format(number=code))
        return cls.parse(code)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card code: ``"10d"``, ``"AS"``, ``"q♥"``, ``" 7 C "``.

        Case does not matter; the suit may be a letter or a symbol (♠ ♥ ♦ ♣).

        >>> Card.parse("q♥")
        Card('QH')
        >>> Card.parse("11H")
        Traceback (most recent call last):
        ...
        krypteach.engine.cards.CardParseError: '11H' is not a card: write rank A 2 3 4 5 6 7 8 9 10 J Q K then suit S H D C (or ♠ ♥ ♦ ♣), e.g. 10D or A♠
        """
        if not isinstance(text, str):
            raise CardParseError(_("{text} is not a card code (expected text such as '10D')").format(text=repr(text)))
        found = _BY_TEXT.get(text.strip().upper().replace(" ", ""))
        if found is None:
            raise CardParseError(
                _("{text} is not a card: write rank A 2 3 4 5 6 7 8 9 10 J Q K "
                  "then suit S H D C (or ♠ ♥ ♦ ♣), e.g. 10D or A♠").format(text=repr(text))
            )
        return found

    @classmethod
    def make(cls, rank: int, suit: str) -> Card:
        """The card of ``rank`` 1..13 and ``suit`` S/H/D/C.

        >>> Card.make(10, "D")
        Card('10D')
        """
        if not (1 <= rank <= 13) or suit not in SUITS:
            raise CardParseError(_("no card with rank {rank} and suit {suit}").format(rank=repr(rank), suit=repr(suit)))
        return _ALL[(rank - 1) * 4 + SUITS.index(suit)]

    # --- properties -------------------------------------------------------
    @property
    def rank(self) -> int:
        """1 (ess/ace) .. 13 (kung/king): also the card's value in a sum on the
        table (a table ace counts 1; a *played* ace may count 14, see
        :func:`krypteach.engine.captures.played_value`)."""
        return int(self) // 4 + 1

    @property
    def suit(self) -> str:
        """``"S"`` spader, ``"H"`` hjärter, ``"D"`` ruter or ``"C"`` klöver."""
        return SUITS[int(self) % 4]

    @property
    def is_face(self) -> bool:
        """Klätt kort: knekt, dam or kung (J, Q, K)."""
        return int(self) >= 40

    @property
    def points(self) -> int:
        """Card points when the giv is scored (storan 3, lillan 2, spader ess 2,
        other aces 1, other spades 1, all else 0)."""
        return POINTS[int(self)]

    @property
    def code(self) -> str:
        """The card's code, e.g. ``"10D"``."""
        return _CODES[int(self)]

    @property
    def symbol(self) -> str:
        """Rank with suit symbol, e.g. ``"10♦"``."""
        return RANKS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """Swedish name, with the nickname where it has one: ``"ruter 10 (storan)"``."""
        r = self.rank
        base = f"{SUIT_NAMES[self.suit]} {RANK_NAMES.get(r, str(r))}"
        nick = {"10D": "storan", "2S": "lillan"}.get(self.code)
        return f"{base} ({nick})" if nick else base

    # --- text and display -------------------------------------------------
    def __str__(self) -> str:
        return _CODES[int(self)]

    def __repr__(self) -> str:
        return f"Card('{_CODES[int(self)]}')"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def _repr_svg_(self) -> str | None:
        return display.show("card", self)


_CODES = tuple(r + s for r in RANKS for s in SUITS)


def _points(i: int) -> int:
    rank, suit = i // 4 + 1, SUITS[i % 4]
    if rank == 10 and suit == "D":
        return 3
    if suit == "S" and rank in (1, 2):
        return 2
    if rank == 1 or suit == "S":
        return 1
    return 0


#: card points by card index (``int(card)``): see :attr:`Card.points`
POINTS = tuple(_points(i) for i in range(52))
_ALL: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
_BY_TEXT: dict[str, Card] = {}
for _c in _ALL:
    _r, _s = _CODES[_c][:-1], _CODES[_c][-1]
    _BY_TEXT[_r + _s] = _c
    _BY_TEXT[_r + SUIT_SYMBOLS[_s]] = _c
    for _sym, _su in _SYMBOL_TO_SUIT.items():
        if _su == _s:
            _BY_TEXT[_r + _sym] = _c
    if _r == "A":
        _BY_TEXT["1" + _s] = _c  # "1S" is a common way to write an ace
del _c, _r, _s


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse several cards from text (separated by spaces, commas or ``+``) or
    from an iterable of codes/cards.

    >>> parse_cards("9S 2C,5D+7H")
    [Card('9S'), Card('2C'), Card('5D'), Card('7H')]
    """
    if isinstance(text, str):
        parts = [p for p in text.replace(",", " ").replace("+", " ").split() if p]
        return [Card.parse(p) for p in parts]
    return [Card(c) for c in text]


def cards_text(cards: Iterable[Card], sep: str = " ") -> str:
    """Codes of cards joined by ``sep``.

    >>> cards_text(parse_cards("9S 2C"))
    '9S 2C'
    """
    return sep.join(str(c) for c in cards)


def full_deck() -> list[Card]:
    """One ordinary 52-card deck in rank-then-suit order."""
    return list(_ALL)


def double_deck(rng: random.Random | None = None) -> list[Card]:
    """The 104 cards of two decks; shuffled when ``rng`` is given.

    >>> len(double_deck()), len(set(double_deck()))
    (104, 52)
    """
    deck = list(_ALL) * 2
    if rng is not None:
        rng.shuffle(deck)
    return deck
