"""Jupyter widgets for krypteach: clickable cards, exercises, a game table, a replay, a rules picker.

The widgets hold no game logic: every check, explanation and move comes from
the engine (:mod:`krypteach.engine.moves`, :mod:`krypteach.engine.explain`,
:mod:`krypteach.engine.captures`, :mod:`krypteach.engine.game`,
:mod:`krypteach.engine.scoring`, :mod:`krypteach.bots`), and the cards are drawn
by :mod:`krypteach.views`.

>>> from krypteach.widgets import GameTable, TakeAllExercise
>>> TakeAllExercise(card="9H", table="9S 2C 5D 7D").options
[(Card('2C'), Card('7D'), Card('9S'))]
"""

from . import guard
from .cards import CardRowWidget
from .exercises import (
    CountPointsExercise,
    DukningExercise,
    Exercise,
    FindTraffarExercise,
    KladdaExercise,
    TakeAllExercise,
    TvangstabbeExercise,
)
from .game_table import GameTable
from .language import LanguageChooser
from .learner_bar import LearnerBar
from .live_table import LiveTable
from .practice_widget import PracticeTrainer
from .puzzle_widget import PuzzleTrainer
from .replay import ReplayViewer
from .rules_picker import RulesPicker
from .selfcheck import SelfCheck  # lesson self-checks
from .variant_lab import VariantLab

guard.install()  # every message from a page passes the gate before a widget sees it

__all__ = [
    "CardRowWidget",
    "Exercise",
    "FindTraffarExercise",
    "KladdaExercise",
    "TakeAllExercise",
    "TvangstabbeExercise",
    "DukningExercise",
    "CountPointsExercise",
    "GameTable",
    "RulesPicker",
    "VariantLab",
    "PuzzleTrainer",
    "PracticeTrainer",
    "ReplayViewer",
    "SelfCheck",
    "LanguageChooser",
    "LearnerBar",
    "LiveTable",
]
