"""Choosing the learner's next puzzle: near a target rating, leaning to the weakest theme.

The target is the learner's rating plus the offset of the difficulty the learner picked
(:data:`DIFFICULTY_OFFSETS`). With probability ``lean`` (:data:`LEAN`), when the learner has a
theme with enough attempts, the puzzle comes from the weakest one (:func:`weak_themes`) and the
target is that theme's rating plus the offset. Otherwise a kind of puzzle is drawn, each alike,
and the puzzle comes from it: a kind is a set of themes (dukning alone, dukning with tvångstabbe …),
so a theme or a pair of themes that few puzzles have is measured as often as the others, and a
theme that comes alone as well as in a pair is asked both ways (which tells the two apart). The
weakest theme's puzzles, too, are drawn a kind at a time.
Among the candidates, one of the ``k`` nearest the target is drawn at random, so the same
puzzle does not always come.

>>> import random
>>> items = [Item(f"p{r}", ("dukning",) if r % 200 else ("endgame",), Rating(float(r), 60.0))
...          for r in range(1000, 2001, 50)]
>>> learner = Learner(Rating(1600.0, 60.0))
>>> pick = choose(items, learner, rng=random.Random(1))
>>> abs(pick.item.rating.rating - pick.target) <= 150, pick.weak_theme
(True, None)
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .rating import Rating

__all__ = [
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
]

#: The rating points added to the learner's rating to aim at, per difficulty the learner picks.
#: lichess offers -600 … +600 in steps of 300 around a target of an even chance; our learners
#: solve far fewer puzzles, and a learner who fails every other puzzle of a lesson gives up, so
#: "normal" aims *below* the learner. In the simulation (benchmarks/practice_sim.py --checkpoints
#: 30,100) an offset of 0 had the learners solve 0.53 of their new puzzles; -150 makes it 0.69
#: (the trainer expected 0.72): most, and still a puzzle to think about. "easier" and "harder"
#: are 300 either side: 0.80 and 0.46 solved. docs/practice.md has the figures.
DIFFICULTY_OFFSETS: Mapping[str, float] = MappingProxyType({"easier": -450.0, "normal": -150.0, "harder": 150.0})
#: how many of the puzzles nearest the target the pick is drawn from
NEAREST = 5
#: how often :func:`choose` leans to the learner's weakest theme. The other draws spread over
#: the sets of themes, each alike (the themes, each alike, until stop 44): leaning more practises the weak theme more but leaves the themes not
#: yet suspected with too few answers to find it. In the simulation (benchmarks/practice_sim.py,
#: docs/practice.md, 2026-12-05), 0.3 with the spread found the weakest theme for 0.87-0.88 of
#: the classic Kasino learners after 100 puzzles (0.5 with no spread: 0.83-0.86), and rated them
#: better (rank correlation 0.95-0.97 for 0.94-0.96); for Krypkasino it changed neither within
#: the noise; a theme that never comes alone is what holds that back.
LEAN = 0.3
#: :func:`weak_themes` ranks themes by ``rating - CAUTION * rd``: see there
CAUTION = 1.0


@dataclass(frozen=True)
class Item:
    """A puzzle to choose from: its ``id``, its ``themes`` and its current rating."""

    id: str
    themes: tuple[str, ...]
    rating: Rating


@dataclass(frozen=True)
class Learner:
    """What the chooser knows of a learner: the ``overall`` rating, a rating per theme
    (``themes``), and per theme ``recent``: (missed, of) over the learner's last attempts in
    that theme (:func:`recent_misses`)."""

    overall: Rating = field(default_factory=Rating)
    themes: Mapping[str, Rating] = field(default_factory=dict)
    recent: Mapping[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    """The puzzle chosen and why: the ``target`` rating aimed at, the ``weak_theme`` the pick
    leaned to (``None`` if it did not), and the learner's ``missed`` of ``of`` recent
    attempts in that theme, for the page's sentence ("more tvångstabbe: you missed 3 of your
    last 5"; both 0 when the pick did not lean)."""

    item: Item
    target: float
    weak_theme: str | None = None
    missed: int = 0
    of: int = 0


def recent_misses(history: Sequence[tuple[Sequence[str], bool]], last: int = 5) -> dict[str, tuple[int, int]]:
    """Per theme, (missed, of) over the learner's ``last`` attempts in that theme.
    ``history`` is oldest first, each attempt (the puzzle's themes, solved).

    >>> recent_misses([(["dukning"], False)] + [(["dukning", "endgame"], True)] * 5 + [(["endgame"], False)])
    {'endgame': (1, 5), 'dukning': (0, 5)}
    """
    if last < 1:
        raise ValueError(f"last must be at least 1, not {last!r}")
    out: dict[str, tuple[int, int]] = {}
    for themes, solved in reversed(history):
        for theme in dict.fromkeys(themes):
            missed, of = out.get(theme, (0, 0))
            if of < last:
                out[theme] = (missed + (not solved), of + 1)
    return out


def _caution(rating: Rating) -> float:
    return rating.rating - CAUTION * rating.rd


def weak_themes(learner: Learner, *, min_attempts: int = 3) -> list[str]:
    """The learner's themes from weakest to strongest, only those with at least
    ``min_attempts`` recent attempts (``learner.recent``'s ``of``, so at most the window of
    :func:`recent_misses`, 5).

    A theme's weakness is its rating minus one ``rd`` (:data:`CAUTION`): the low end of what
    the learner's skill in it may be. A theme tried a few times with mixed luck has a wide
    ``rd`` and so comes early, gets practised and measured, and sinks back if it was not weak
    (the lower-confidence-bound rule of a bandit looking for its worst arm); once every ``rd``
    is near the floor (45), the order is that of the plain ratings. Ties go by name. (In the
    simulation, ``CAUTION`` 0, 0.5, 1 and 2 found the weak themes equally often, within its
    noise; 1 is kept for the reason above.)

    >>> learner = Learner(themes={"a": Rating(1400, 50), "b": Rating(1500, 200), "c": Rating(1200, 50)},
    ...                   recent={"a": (1, 5), "b": (2, 3), "c": (1, 2)})
    >>> weak_themes(learner)
    ['b', 'a']
    """
    ready = [t for t, r in learner.themes.items() if learner.recent.get(t, (0, 0))[1] >= min_attempts]
    return sorted(ready, key=lambda t: (_caution(learner.themes[t]), t))


def _one_set(items: Sequence[Item], rng: random.Random) -> list[Item]:
    """The items of one set of themes among ``items`` (at least one), each set drawn alike."""
    by_set: dict[tuple[str, ...], list[Item]] = {}
    for item in items:
        by_set.setdefault(tuple(sorted(set(item.themes))), []).append(item)
    return by_set[rng.choice(sorted(by_set))]


def choose(
    items: Sequence[Item],
    learner: Learner,
    *,
    difficulty: str = "normal",
    rng: random.Random,
    exclude: Collection[str] = (),
    lean: float = LEAN,
    spread: bool = True,
    k: int = NEAREST,
) -> Choice:
    """The next puzzle for ``learner`` among ``items`` (less those whose id is in ``exclude``).

    With probability ``lean``, when the learner has a weak theme (:func:`weak_themes`) that
    any candidate has, the candidates are the items of the weakest such theme and the target
    is that theme's rating plus the difficulty's offset, and among them the puzzles of one set of
    themes (endgame alone, endgame with klädda högen …), each set alike; otherwise the target is
    the overall rating plus the offset and, with ``spread``, the candidates are those of one set
    of themes drawn with ``rng``, each set alike (not each puzzle alike: a set few puzzles have
    comes as often as one that most have; a theme alone and the same theme in a pair come alike,
    which is what tells the two themes of a pair apart). One of the ``k`` candidates nearest the
    target is drawn with ``rng``. Raises :class:`LookupError` if no item is left (the caller makes
    more puzzles) and :class:`ValueError` for an unknown ``difficulty``.

    >>> items = [Item(f"t{i}", ("tvangstabbe",), Rating(1500.0, 60.0)) for i in range(9)]
    >>> items.append(Item("d", ("dukning", "tvangstabbe"), Rating(1500.0, 60.0)))
    >>> picks = [choose(items, Learner(), rng=random.Random(seed), lean=0.0).item.id for seed in range(40)]
    >>> 10 <= picks.count("d") <= 30  # half the draws are of dukning with tvångstabbe, one puzzle in ten
    True
    >>> picks = [choose(items, Learner(), rng=random.Random(seed), lean=0.0, spread=False).item.id for seed in range(40)]
    >>> picks.count("d") <= 10
    True
    """
    if difficulty not in DIFFICULTY_OFFSETS:
        raise ValueError(f"unknown difficulty {difficulty!r}: choose one of {', '.join(DIFFICULTY_OFFSETS)}")
    if not 0.0 <= lean <= 1.0:
        raise ValueError(f"lean is a probability between 0 and 1, not {lean!r}")
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k!r}")
    offset = DIFFICULTY_OFFSETS[difficulty]
    excluded = set(exclude)
    candidates = [item for item in items if item.id not in excluded]
    if not candidates:
        raise LookupError(f"no puzzle left to choose: all {len(items)} are excluded; make more puzzles")
    target = learner.overall.rating + offset
    weak: str | None = None
    if rng.random() < lean:
        for theme in weak_themes(learner):
            in_theme = [item for item in candidates if theme in item.themes]
            if in_theme:
                weak, candidates = theme, _one_set(in_theme, rng)
                target = learner.themes[theme].rating + offset
                break
    elif spread:
        candidates = _one_set(candidates, rng)
    nearest = heapq.nsmallest(k, candidates, key=lambda item: (abs(item.rating.rating - target), item.id))
    item = rng.choice(nearest)
    missed, of = learner.recent.get(weak, (0, 0)) if weak is not None else (0, 0)
    return Choice(item, target, weak, missed, of)
