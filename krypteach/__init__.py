"""krypteach — learn Krypkasino, the Swedish misère card game, by playing it.

The engine (no widgets here): cards, rules and variants, captures, the state
of a giv and a parti, scoring and records.

>>> from krypteach import Card, parse_cards, legal_moves
>>> [str(m) for m in legal_moves(parse_cards("9C 4H"), parse_cards("9S 2C 5D 7H"))]
['9C:2C+7H+9S', '4H']
"""

from .cards import Card, CardParseError, parse_cards, double_deck
from .rules import Rules, RulesError, PRESETS
from .captures import capture_options, can_take_whole_table, tabbe_ranks, traffar, split_into_traffar
from .moves import Move, MoveParseError, IllegalMoveError, Explanation, legal_moves, explain_move, table_after
from .scoring import GivResult, PartiResult, card_points
from .game import Deal, Turn, Giv, Parti, Observation, GameOverError
from .records import RecordError, giv_to_record, giv_from_record, read_records, write_records

__version__ = "0.1.0"

__all__ = [
    "Card", "CardParseError", "parse_cards", "double_deck",
    "Rules", "RulesError", "PRESETS",
    "capture_options", "can_take_whole_table", "tabbe_ranks", "traffar", "split_into_traffar",
    "Move", "MoveParseError", "IllegalMoveError", "Explanation", "legal_moves", "explain_move", "table_after",
    "GivResult", "PartiResult", "card_points",
    "Deal", "Turn", "Giv", "Parti", "Observation", "GameOverError",
    "RecordError", "giv_to_record", "giv_from_record", "read_records", "write_records",
    "__version__",
]
