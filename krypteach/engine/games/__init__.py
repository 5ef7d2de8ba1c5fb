"""The games krypteach plays, one module each, behind one interface (:class:`~krypteach.engine.games.base.Game`).

- :mod:`~krypteach.engine.games.krypkasino`: Krypkasino, the game of the lessons;
- :mod:`~krypteach.engine.games.kasino`: classic Kasino, and avig kasino as its misère preset.

:func:`game_of` is the one place that chooses a game from ``Rules.game``;
every other part asks the game it returns.

>>> from krypteach import Rules, parse_cards
>>> game_of(Rules()).name, game_of(Rules.preset("avig-kasino")).name
('krypkasino', 'kasino')
>>> [str(m) for m in legal_moves(parse_cards("5H 9D"), parse_cards("4S"), Rules(game="kasino"), 0)]
['5H>9:4S', '5H', '9D']
>>> print(explain_move(parse_cards("9C"), parse_cards("9S 2C 5D 7H"), "9C:9S+2C+7H"))
9♣ takes 9♠ and 2♣+7♥; 5♦ stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..cards import Card
from ..moves import Explanation, Move
from ..rules import Rules
from .base import Game, MoveResult
from .kasino import KasinoGame
from .krypkasino import KrypkasinoGame

__all__ = ["GAMES", "Game", "MoveResult", "game_of", "legal_moves", "explain_move", "describe"]

#: every game by its ``Rules.game`` name
GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (KrypkasinoGame, KasinoGame)}

_DEFAULT = Rules()


@lru_cache(maxsize=256)
def game_of(rules: Rules) -> Game:
    """The game that ``rules`` play (one per rule set: a game holds no state of play)."""
    return GAMES[rules.game](rules)


def legal_moves(hand: Sequence[Card], table: Sequence[Any], rules: Rules | None = None,
                player: int | None = None) -> list[Move]:
    """The legal moves of a turn, in any game (``krypteach.legal_moves``): ``player``
    is the seat to move (in classic Kasino it says which builds are its own).

    >>> from krypteach import parse_cards
    >>> [str(m) for m in legal_moves(parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"))]
    ['10S:AH+3D+7C+9S']
    """
    return game_of(rules or _DEFAULT).legal_moves(hand, table, player)


def explain_move(hand: Sequence[Card], table: Sequence[Any], move: Move | str, rules: Rules | None = None,
                 player: int | None = None) -> Explanation:
    """Explain whether ``move`` is legal for ``hand`` at ``table``, naming the rule
    and the cards, in the game of ``rules``. The verdict is :func:`legal_moves`'s.

    >>> from krypteach import parse_cards
    >>> e = explain_move(parse_cards("9C"), parse_cards("9S 2C 5D 7H"), "9C:9S")
    >>> e.legal, e.rule
    (False, 'take-all')
    """
    move = Move.parse(move) if isinstance(move, str) else move
    return game_of(rules or _DEFAULT).explain(hand, table, move, player)


def describe(rules: Rules | None, move: Move) -> str:
    """``move`` in the words of the game of ``rules``: a Kasino trail is laid out, a Krypkasino card creeps.

    >>> from krypteach import Move
    >>> describe(Rules(), Move.parse("2S")), describe(Rules(game="kasino"), Move.parse("2S"))
    ('2♠ creeps', '2♠ is laid out')
    """
    return game_of(rules or _DEFAULT).describe(move)
