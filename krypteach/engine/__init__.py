"""The engine: cards, rules and variants, captures, moves, scoring, the state
of a giv and a parti, and game records.

It knows nothing of bots, lessons, widgets or how things are drawn; every
layer above it (bots, play, teaching, views, widgets, cli) asks it for
legality, explanations and results. ``krypteach`` re-exports this API.

>>> from krypteach.engine import Giv
>>> Giv(seed=1).legal_moves()[0]
Move.parse('10C:10S')
"""

from .builds import Build, BuildParseError, kasino_legal_moves
from .captures import (
    can_take_whole_table,
    capture_options,
    played_value,
    split_into_traffar,
    tabbe_pa_text,
    tabbe_ranks,
    traffar,
)
from .cards import Card, CardParseError, double_deck, parse_cards
from .game import Deal, GameOverError, Giv, Observation, Parti, PositionError, Turn
from .games import Game, MoveResult, explain_move, game_of, legal_moves
from .moves import BuildMove, Explanation, IllegalMoveError, Move, MoveParseError, table_after
from .records import RecordError, giv_from_record, giv_to_record, read_records, write_records
from .rules import PRESETS, Rules, RulesError, preset_description
from .scoring import GivResult, PartiResult, card_points

__all__ = [
    "Card", "CardParseError", "parse_cards", "double_deck",
    "Rules", "RulesError", "PRESETS", "preset_description",
    "capture_options", "can_take_whole_table", "tabbe_ranks", "tabbe_pa_text", "traffar", "split_into_traffar",
    "played_value",
    "Move", "BuildMove", "Build", "BuildParseError", "kasino_legal_moves", "MoveParseError", "IllegalMoveError", "Explanation", "legal_moves", "explain_move", "table_after",
    "GivResult", "PartiResult", "card_points",
    "Game", "MoveResult", "game_of",
    "Deal", "Turn", "Giv", "Parti", "Observation", "GameOverError", "PositionError",
    "RecordError", "giv_to_record", "giv_from_record", "read_records", "write_records",
]
