"""The interface every game answers: one :class:`Game` per rule set, one module per game.

A :class:`~krypteach.engine.game.Giv` holds the state of play (hands, table,
piles, marks, the turns so far) and hands every question about the rules to
its game: the deck and the deal, the legal moves, what a move does (one
:class:`MoveResult`), the score at any moment and at the end, and why a move
is legal or not. The bots, the puzzle prover, the endgame solver, the
narration and the widgets ask the same game, so each rule is written once.
A :class:`~krypteach.engine.game.Parti` asks it too whether the parti is over
and who won (:meth:`Game.parti_end`): Krypkasino plays a number of givar,
classic Kasino to a target.

OpenSpiel's games are the model (a ``Game`` holds the parameters and answers
for a ``State``); here the parameters are a :class:`~krypteach.engine.rules.Rules`
and :func:`krypteach.engine.games.game_of` finds its game.

>>> from krypteach import Rules
>>> from krypteach.engine.games import game_of
>>> g = game_of(Rules())
>>> g.name, g.copies, g.lower_is_better
('krypkasino', 2, True)
>>> r = g.move_result(parse_cards("AH 7C 3D 9S"), Move.parse("10S:AH+3D+7C+9S"), player=0, previous_mover=1)
>>> r.taken, r.tabbe, r.dukning, r.table
((Card('10S'), Card('AH'), Card('3D'), Card('7C'), Card('9S')), 1, 1, [])
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from ..cards import Card, parse_cards
from ..moves import Explanation, Move
from ..rules import Rules
from ..scoring import GivResult, PartiEnd
from ..state import Deal, Turn
from ..turn import giv_scores, tabbe_marks

__all__ = ["Game", "MoveResult", "TableItem"]

#: what lies on a table: loose cards, and in classic Kasino builds as well
TableItem = Any


class MoveResult(NamedTuple):
    """What one move does, decided once by the game and read by every part that asks.

    ``taken``: the cards the mover adds to their pile (the played card first,
    then the table cards it takes; empty for a creep or a build); ``build``:
    the build the move leaves on the table (classic Kasino), else ``None``;
    ``tabbe``: the tabbe marks it makes (0, 1, or 2 for a dubbeltabbe);
    ``dukning``: the seat that gets as many dukningar (``None``: nobody);
    ``table``: the table after the move (before any new utdelning).
    """

    taken: tuple[Card, ...]
    build: Any
    tabbe: int
    dukning: int | None
    table: list[Any]

    @property
    def is_capture(self) -> bool:
        return bool(self.taken)


class Game(ABC):
    """One game under one :class:`~krypteach.engine.rules.Rules`: the rules' answers for a giv.

    A subclass is a game module's one class; :func:`krypteach.engine.games.game_of`
    makes one per rule set (and keeps it: a game holds no state of play).
    """

    #: the game's name, the value of ``Rules.game``
    name: ClassVar[str]
    #: the points of each card by index (``int(card)``), as the pile counts them during play
    card_values: ClassVar[tuple[int, ...]]
    #: what the game has, for the parts that show it (a page offers Bygg only where there are builds)
    has_builds: ClassVar[bool] = False
    has_dukning: ClassVar[bool] = True
    has_kladda: ClassVar[bool] = True
    #: the name of the game as a learner reads it (a proper name, the same in every language)
    title: ClassVar[str] = ""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.rules!r}>"

    # a game holds no state of play: a copied giv shares its game (and the game's caches)
    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.rules,))

    # --- the deck and the deal --------------------------------------------
    @property
    def copies(self) -> int:
        """How many copies of each card the deck holds."""
        return self.rules.copies

    @property
    def lower_is_better(self) -> bool:
        """True when the lowest score wins (Krypkasino, avig kasino)."""
        return bool(self.rules.lowest_wins)

    @abstractmethod
    def new_deck(self, rng: random.Random) -> list[Card]:
        """The game's deck, shuffled with ``rng``."""

    @abstractmethod
    def check_deck(self, deck: Sequence[Card]) -> None:
        """Raise ``ValueError`` naming what is wrong unless ``deck`` is a whole deck of this game."""

    @abstractmethod
    def deal(self, deck: Sequence[Card], dealer: int) -> tuple[Deal, ...]:
        """Cut a deck order into the giv's utdelningar (:func:`krypteach.engine.game.deal_giv`)."""

    @abstractmethod
    def check_deals(self, deals: Sequence[Deal], dealer: int) -> None:
        """Raise ``ValueError`` unless ``deals`` are the utdelningar of one giv of this game."""

    def parse_table(self, table: Sequence[Any]) -> tuple[list[Any], list[Card]]:
        """A hand-made table: (its items, every card on it). Loose cards only, unless the game has builds."""
        cards = parse_cards(table)
        return cards, cards

    def table_cards(self, table: Sequence[Any]) -> list[Card]:
        """Every card on ``table``."""
        return list(table)

    # --- moves ------------------------------------------------------------
    @abstractmethod
    def legal_moves(self, hand: Sequence[Card], table: Sequence[Any], player: int | None = None) -> list[Move]:
        """The legal moves of ``player`` (the seat to move) holding ``hand`` at ``table``."""

    def giv_legal_moves(self, giv: Any) -> list[Move]:
        """:meth:`legal_moves` for the player to move in ``giv`` (a game may use
        what the giv keeps of its table between moves)."""
        return self.legal_moves(giv.hands[giv.turn], giv.table, giv.turn)

    @abstractmethod
    def table_after(self, table: Sequence[Any], move: Move, player: int) -> list[Any]:
        """The table once ``player`` has played ``move`` (before any new utdelning)."""

    def dukning_seat(self, previous_mover: int | None) -> int | None:
        """Who gets the dukningar of a tabbe: the seat that moved just before (``None``: nobody)."""
        return previous_mover

    def move_result(self, table: Sequence[Any], move: Move, player: int,
                    previous_mover: int | None) -> MoveResult:
        """What ``move`` (a legal move of ``player``) does at ``table``.

        Every part that asks what a move is worth (``explain``, the bots, the
        puzzle prover) reads it here; :meth:`push` applies the same rules.
        """
        after = self.table_after(table, move, player)
        capture = move.capture
        if capture is None or move.value is not None:
            return MoveResult((), after[-1] if move.value is not None else None, 0, None, after)
        tabbe = 0 if after else tabbe_marks(self.table_cards(table), move, self.rules)
        return MoveResult((move.card, *capture), None, tabbe,
                          self.dukning_seat(previous_mover) if tabbe else None, after)

    @abstractmethod
    def push(self, giv: Any, move: Move) -> Turn:
        """Apply ``move`` to ``giv`` (a :class:`~krypteach.engine.game.Giv`, which
        imports this module: it is not named here) for the player to move,
        without checks (:meth:`Giv.push`); it keeps what :meth:`Giv.pop` needs."""

    @abstractmethod
    def explain(self, hand: Sequence[Card], table: Sequence[Any], move: Move, player: int | None) -> Explanation:
        """Why ``move`` is legal for ``player`` at ``table`` or not, naming the rule and the cards."""

    def describe(self, move: Move) -> str:
        """A move in this game's words, with suit symbols: ``"9♥ takes 2♣+7♦"``, ``"7♥ creeps"``."""
        return move.describe()

    def tabbe_pa(self, table: Sequence[Any]) -> list[int]:
        """The ranks that would take the whole table now ("tabbe på …"); ``[]`` where not worked out."""
        return []

    # --- scoring ----------------------------------------------------------
    def card_points(self, piles: Sequence[Sequence[Card]]) -> list[int]:
        """The card points of each seat's pile (without the last capture point)."""
        values = self.card_values
        return [sum(map(values.__getitem__, p)) for p in piles]

    def score(self, piles: Sequence[Sequence[Card]], marks: Sequence[int], dukningar: Sequence[int],
              tabbar: Sequence[int], last_capturer: int | None, aside_cards: Sequence[Card]) -> GivResult:
        """The result of a finished giv from its piles and marks."""
        rules = self.rules
        cp = self.card_points(piles)
        scores = giv_scores(rules, cp, marks, dukningar, last_capturer)
        if last_capturer is not None and rules.last_capture_point:
            cp[last_capturer] += rules.last_capture_point
        return GivResult(rules, tuple(cp), tuple(marks), tuple(dukningar), tuple(tabbar), scores, last_capturer,
                         tuple(aside_cards))

    def points_so_far(self, piles: Sequence[Sequence[Card]], marks: Sequence[int],
                      dukningar: Sequence[int]) -> tuple[int, ...]:
        """Each seat's card values taken and marks standing so far, without the
        points decided only at the end (most cards, most spades, sistan): what a
        search adds up move by move.

        >>> from krypteach import Rules
        >>> from krypteach.engine.games import game_of
        >>> game_of(Rules(game="kasino")).points_so_far([parse_cards("10D 3S"), []], [1, 0], [0, 0])
        (3, 0)
        """
        values = self.card_values
        return giv_scores(self.rules, [sum(map(values.__getitem__, p)) for p in piles], marks, dukningar, None)

    # --- the parti ----------------------------------------------------------
    @property
    def parti_givar(self) -> int | None:
        """How many givar a parti has, for a page that shows the givar to come
        (``None``: as many as it takes, a parti played to a target)."""
        return self.rules.givar_count

    @abstractmethod
    def parti_end(self, givar: Sequence[Any]) -> PartiEnd:
        """Is a parti of these givar (:class:`~krypteach.engine.game.Giv`, the dealer
        moving left; the last may still be playing) over, and who won? Only
        finished givar count. The sides are teams (seats without teams)."""

    def better(self, a: float, b: float) -> bool:
        """True when score ``a`` is better than ``b`` in this game's sense."""
        return a < b if self.lower_is_better else a > b

