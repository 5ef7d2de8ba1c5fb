"""krypteach — learn Krypkasino, the Swedish misère card game, by playing it.

The package is built in layers that import only downward (docs/architecture.md):
the engine (:mod:`krypteach.engine`: cards, rules and variants, captures, moves,
scoring, the state of a giv and a parti, records) ← :mod:`krypteach.bots` ←
:mod:`krypteach.play` (simulate, tournament) ← :mod:`krypteach.teaching`
(narrate, puzzles) ← :mod:`krypteach.views` (SVG, HTML, plots) ←
:mod:`krypteach.widgets` ← :mod:`krypteach.cli`. This module re-exports the
engine's public API.

>>> from krypteach import Card, parse_cards, legal_moves
>>> [str(m) for m in legal_moves(parse_cards("9C 4H"), parse_cards("9S 2C 5D 7H"))]
['9C:2C+7H+9S', '4H']
"""

from . import views as _views  # noqa: F401  (cards and givar draw themselves in a notebook)
from .engine import (
    PRESETS,
    Card,
    CardParseError,
    Deal,
    Explanation,
    GameOverError,
    Giv,
    GivResult,
    IllegalMoveError,
    Move,
    MoveParseError,
    Observation,
    Parti,
    PartiResult,
    PositionError,
    RecordError,
    Rules,
    RulesError,
    Turn,
    can_take_whole_table,
    capture_options,
    card_points,
    double_deck,
    explain_move,
    giv_from_record,
    giv_to_record,
    legal_moves,
    parse_cards,
    played_value,
    read_records,
    split_into_traffar,
    tabbe_pa_text,
    tabbe_ranks,
    table_after,
    traffar,
    write_records,
)

__version__ = "0.1.0"

__all__ = [
    "Card", "CardParseError", "parse_cards", "double_deck",
    "Rules", "RulesError", "PRESETS",
    "capture_options", "can_take_whole_table", "tabbe_ranks", "tabbe_pa_text", "traffar", "split_into_traffar",
    "played_value",
    "Move", "MoveParseError", "IllegalMoveError", "Explanation", "legal_moves", "explain_move", "table_after",
    "GivResult", "PartiResult", "card_points",
    "Deal", "Turn", "Giv", "Parti", "Observation", "GameOverError", "PositionError",
    "RecordError", "giv_to_record", "giv_from_record", "read_records", "write_records",
    "__version__",
]
