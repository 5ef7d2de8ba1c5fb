"""Adaptive puzzle practice (issue 23): the pure core, with no puzzles, store or widgets.

- :mod:`.rating`: Glicko-2 ratings of the learner and of each puzzle, both updated by each
  attempt, as lichess rates puzzles; the learner's rating in each theme fitted to all their
  answers at once (:func:`fit_themes`).
- :mod:`.choose`: the next puzzle, near the learner's rating at the chosen difficulty,
  leaning to the learner's weakest theme.
- :mod:`.schedule`: the learner's mistakes come back, spaced by FSRS, mixed into a session.

The design and the simulation that measured it: docs/practice.md, benchmarks/practice_sim.py.

>>> import random
>>> from datetime import UTC, datetime
>>> items = [Item(f"p{i}", ("dukning",), Rating.estimated(1200.0 + 10 * i)) for i in range(50)]
>>> learner = Learner(Rating(1500.0, 80.0))
>>> pick = choose(items, learner, rng=random.Random(0))
>>> overall, puzzle = attempt(learner.overall, pick.item.rating, solved=False)
>>> overall.rating < learner.overall.rating
True
>>> enqueue(pick.item.id, datetime(2025, 3, 1, tzinfo=UTC)).key == pick.item.id
True
"""

from .choose import (
    CAUTION,
    DIFFICULTY_OFFSETS,
    LEAN,
    NEAREST,
    Choice,
    Item,
    Learner,
    choose,
    recent_misses,
    weak_themes,
)
from .rating import (
    ESTIMATE_RD,
    MAX_RD,
    MIN_RD,
    THEME_SPREAD,
    Rating,
    attempt,
    expected,
    fit_themes,
    glicko2,
    theme_start,
)
from .schedule import (
    GRADES,
    LEARNING_STEP,
    SCHEDULER,
    QueueEntry,
    due,
    enqueue,
    mix,
    review,
)

__all__ = [
    # rating
    "MIN_RD",
    "MAX_RD",
    "ESTIMATE_RD",
    "Rating",
    "glicko2",
    "expected",
    "attempt",
    "THEME_SPREAD",
    "theme_start",
    "fit_themes",
    # choose
    "DIFFICULTY_OFFSETS",
    "LEAN",
    "NEAREST",
    "CAUTION",
    "Item",
    "Learner",
    "Choice",
    "recent_misses",
    "weak_themes",
    "choose",
    # schedule
    "LEARNING_STEP",
    "SCHEDULER",
    "GRADES",
    "QueueEntry",
    "enqueue",
    "review",
    "due",
    "mix",
]
