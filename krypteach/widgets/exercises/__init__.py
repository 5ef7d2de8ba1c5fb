"""Exercises: small ipywidgets panels that drill one rule each, one module per exercise.

Every check and every explanation comes from the engine
(:func:`~krypteach.traffar`, :func:`~krypteach.explain_move`,
:func:`~krypteach.capture_options`, :func:`~krypteach.can_take_whole_table`,
:func:`~krypteach.split_into_traffar`, :func:`~krypteach.engine.scoring.point_breakdown`,
the :class:`~krypteach.Giv` state machine); the widgets only show cards, take
the learner's choice and print what the engine says, with the cards in play.

Each exercise is a ``VBox`` (:class:`~krypteach.widgets.exercises.base.Exercise`)
with a title, an instruction, the parts and buttons it declares ("Check",
"New position", "Show answer", …) and a feedback area (class
``kt-feedback``). ``solved`` and ``attempts`` are observable traits.
``new_position(difficulty)`` draws a fresh random position (seeded: pass
``seed=`` or ``rng=``); a fixed position can be given as card codes, so a
lesson can show the seed examples:

>>> ex = TakeAllExercise(card="9H", table="9S 2C 5D 7D")
>>> ex.table_row.select(["9S"]); ex.check()
>>> print(ex.message)
You must take all you can: 2♣+7♦ also make 9 and would stay on the table. Take 9♠ and 2♣+7♦; 5♦ stays.
>>> ex.table_row.select(["9S", "2C", "7D"]); ex.check(); ex.solved
1
"""

from .base import Exercise
from .count_points import CountPointsExercise
from .dukning import DukningExercise
from .find_traffar import FindTraffarExercise
from .kladda import KladdaExercise
from .take_all import TakeAllExercise
from .tvangstabbe import TvangstabbeExercise

__all__ = [
    "CountPointsExercise",
    "DukningExercise",
    "Exercise",
    "FindTraffarExercise",
    "KladdaExercise",
    "TakeAllExercise",
    "TvangstabbeExercise",
]
