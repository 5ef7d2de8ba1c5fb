"""A learner's practice, replayed from the puzzle attempts kept (issue 23).

Nothing of the practice is stored but the attempts themselves (each with the puzzle's id, its
themes, the trainer's first guess at its rating, right or wrong and how): the ratings of every
learner, of each of their themes and of every puzzle, the rating's history and the review queue
are all worked out again from them, in the order they were made (:class:`PracticeBook`). So a
page cannot fake a rating, a teacher's reset of a learner resets their practice, an imported
progress file brings it along, and the static site (whose attempts live in the browser) keeps it
as the server does.

Each first answer to a puzzle is one Glicko-2 game between the learner and the puzzle
(:mod:`krypteach.teaching.practice`): solved at the first try scores 1, solved after a hint
½, missed or shown 0. The learner's rating in each theme is fitted to all their rated answers at
once (:func:`~krypteach.teaching.practice.fit_themes`, against the puzzles' ratings as the
class's answers have made them), so a miss is put down to the theme the learner's other answers
do not clear. A puzzle missed (or solved only after a hint) goes into the learner's review queue, and
each later answer to it is an FSRS review: *again*, *hard* or *good*. A puzzle met again rates
nothing (its answer has been seen), as lichess rates a puzzle only the first time.

>>> book = PracticeBook()
>>> book.add(7, "which-card-easy-01", ("tvangstabbe",), 1100, correct=False, how="first-try", at=1764590000.0)
>>> mine = book.learner(7)
>>> round(mine.overall.rating) < 1500, sorted(mine.themes), mine.answered
(True, ['tvangstabbe'], 1)
>>> [e.key for e in mine.due(1764590000.0 + 3600)]
['which-card-easy-01']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from ..teaching.practice import Learner, QueueEntry, Rating, due, enqueue, fit_themes, glicko2, recent_misses, review
from ..teaching.puzzles.base import PuzzleError
from ..teaching.puzzles.fresh import estimated_rating, puzzle_from_id, themes_of
from .flagged import is_flagged_key
from .store import Homework

__all__ = ["SCORES", "ClassPractice", "LearnerPractice", "PracticeBook", "class_practice", "homework_answers",
           "homework_result",
           "score_of"]

#: what a first answer scores against the puzzle: right at the first try, right after a hint
#: (half: the hint did part of the work), wrong or shown
SCORES = {"first-try": 1.0, "hint": 0.5}


def score_of(correct: bool | None, how: str | None) -> float | None:
    """A first answer's score (``None``: not an answer that rates, such as a later try).

    >>> score_of(True, "first-try"), score_of(True, "hint"), score_of(False, "first-try"), score_of(False, "shown")
    (1.0, 0.5, 0.0, 0.0)
    >>> score_of(True, None), score_of(None, None)
    (1.0, None)
    """
    if correct is None:
        return None
    if not correct:
        return 0.0
    return SCORES.get(how or "first-try", 0.0)


def _when(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def _grade(score: float) -> Literal["again", "hard", "good"]:
    """A review's grade from an answer's score: right at the first try, after a hint, missed."""
    return "good" if score == 1.0 else "hard" if score > 0 else "again"


@dataclass
class LearnerPractice:
    """One learner's practice as their attempts made it."""

    overall: Rating = field(default_factory=Rating)
    #: the rating in each theme, as :meth:`PracticeBook.learner` last fitted it to ``rated``
    themes: dict[str, Rating] = field(default_factory=dict)
    #: (puzzle id, its themes, the score) of each rated answer, oldest first
    rated: list[tuple[str, tuple[str, ...], float]] = field(default_factory=list)
    #: (time, rating after) of each rated answer, oldest first: the page's small plot
    history: list[tuple[float, float]] = field(default_factory=list)
    #: (the puzzle's themes, solved) of each answer, oldest first
    outcomes: list[tuple[tuple[str, ...], bool]] = field(default_factory=list)
    #: puzzle id -> its place in the review queue
    queue: dict[str, QueueEntry] = field(default_factory=dict)
    #: the puzzles answered, each once
    seen: set[str] = field(default_factory=set)
    #: the book's count of answers when ``themes`` was fitted (-1: never)
    fitted: int = field(default=-1, repr=False, compare=False)

    @property
    def answered(self) -> int:
        return len(self.history)

    def recent(self, last: int = 5) -> dict[str, tuple[int, int]]:
        """Per theme, (missed, of) over the last ``last`` answers in it."""
        return recent_misses(self.outcomes, last)

    def chooser(self) -> Learner:
        """What the chooser knows of this learner."""
        return Learner(self.overall, dict(self.themes), self.recent())

    def due(self, now: float) -> list[QueueEntry]:
        """The review queue's entries due at ``now`` (a time in seconds), most overdue first."""
        return due(self.queue.values(), _when(now))


@dataclass
class PracticeBook:
    """Every learner's practice and every puzzle's rating, from the attempts replayed in order."""

    learners: dict[Any, LearnerPractice] = field(default_factory=dict)
    puzzles: dict[str, Rating] = field(default_factory=dict)
    #: rated answers added so far (a learner's themes are fitted again when it has moved on)
    answers: int = 0

    @classmethod
    def replay(cls, rows: Iterable[Sequence[Any]], flagged: Iterable[tuple[Any, str, float]] = ()) -> PracticeBook:
        """The book of ``rows`` as :meth:`~krypteach.classroom.store.ProgressStore.puzzle_attempts`
        gives them: ``(learner, puzzle id, correct, how, themes, first rating, at)``, oldest first;
        ``flagged``: ``(learner, key, when)`` of the moves the coach flagged in their givar (:meth:`flag`).

        >>> rows = [(1, "p", True, "first-try", ("dukning",), 1500, 10.0), (2, "p", False, "shown", ("dukning",), 1500, 11.0)]
        >>> book = PracticeBook.replay(rows)
        >>> book.learner(1).overall.rating > 1500 > book.learner(2).overall.rating, book.learner(2).answered
        (True, 1)
        """
        book = cls()
        for learner, key, when in flagged:
            book.flag(learner, key, when)
        for learner, pid, correct, how, themes, first, at in rows:
            book.add(learner, pid, tuple(themes), first, correct=correct, how=how, at=float(at))
        return book

    def flag(self, learner: Any, key: str, at: float) -> None:
        """A move the coach flagged in ``learner``'s giv (:mod:`.flagged`) goes into their review
        queue at ``at``, as a missed puzzle does; its later answers are reviews of it (call this
        before they are added)."""
        me = self.learners.setdefault(learner, LearnerPractice())
        if key not in me.queue:
            me.queue[key] = enqueue(key, _when(at))

    def learner(self, learner: Any) -> LearnerPractice:
        """A learner's practice (an empty one for a learner with no answer yet), their themes
        fitted to their answers and the puzzles' ratings as they are now."""
        me = self.learners.get(learner)
        if me is None:
            return LearnerPractice()
        if me.fitted != self.answers:
            me.themes = fit_themes([(themes, score, self.puzzles[pid]) for pid, themes, score in me.rated], me.overall,
                                   start={t: r.rating for t, r in me.themes.items()})
            me.fitted = self.answers
        return me

    def rating_of(self, pid: str, first: float | None = None) -> Rating:
        """A puzzle's rating now: as learners' answers made it, or its first guess (``first``, else
        worked out from the puzzle) with the wide deviation a guess deserves."""
        if pid in self.puzzles:
            return self.puzzles[pid]
        if first is None:
            try:
                first = estimated_rating(puzzle_from_id(pid))
            except PuzzleError:
                first = 1500.0
        return Rating.estimated(float(first))

    def add(self, learner: Any, pid: str, themes: tuple[str, ...], first: float | None, *, correct: bool | None,
            how: str | None, at: float) -> None:
        """One answer: the learner's, their themes' and the puzzle's ratings, and the review queue."""
        score = score_of(correct, how)
        if score is None:
            return
        if is_flagged_key(pid):  # a move the coach flagged in the learner's own giv: reviewed, never rated
            mine = self.learners.get(learner)
            if mine is not None and pid in mine.queue:
                mine.queue[pid] = review(mine.queue[pid], _grade(score), _when(at))
            return
        if not themes:  # an attempt of an older krypteach: the shipped puzzle's themes, where known
            try:
                themes = themes_of(puzzle_from_id(pid)) if not pid.startswith("gen/") else ()
            except PuzzleError:
                themes = ()
        me = self.learners.setdefault(learner, LearnerPractice())
        when = _when(at)
        grade = _grade(score)
        if pid in me.seen:  # a puzzle met again: a review of the queue, not a rated game (its answer is known)
            if pid in me.queue:
                me.queue[pid] = review(me.queue[pid], grade, when)
            return
        puzzle = self.rating_of(pid, first)
        before = me.overall
        me.overall = glicko2(before, [(puzzle, score)])
        self.puzzles[pid] = glicko2(puzzle, [(before, 1.0 - score)])
        me.rated.append((pid, themes, score))
        self.answers += 1
        me.history.append((at, me.overall.rating))
        me.outcomes.append((themes, score == 1.0))
        me.seen.add(pid)
        if grade != "good":
            entry = enqueue(pid, when)
            me.queue[pid] = review(entry, "hard", when) if grade == "hard" else entry


@dataclass(frozen=True)
class ClassPractice:
    """The practice of a class, for the teacher's page: each learner's rating, and the class's
    themes from weakest to strongest."""

    #: learner id -> (puzzles rated, rating, its deviation)
    ratings: dict[Any, tuple[int, float, float]]
    #: (theme, how far the learners' rating in it is from their own overall rating, on average
    #: over the learners who practised it, how many did, their recent misses, their recent
    #: answers), the weakest first: a theme is weak for a class when its learners do worse in it
    #: than they do overall (a plain mean rating would rank the themes by who happened to practise them)
    themes: list[tuple[str, float, int, int, int]]


def class_practice(book: PracticeBook, learners: Iterable[Any]) -> ClassPractice:
    """What :class:`ClassPractice` shows of ``learners`` (ids), from a book of every attempt.

    >>> rows = [(1, "p", False, "first-try", ("dukning",), 1500, 1.0), (1, "q", True, "first-try", ("endgame",), 1500, 2.0),
    ...         (2, "p", False, "first-try", ("dukning",), 1500, 3.0)]
    >>> view = class_practice(PracticeBook.replay(rows), [1, 2, 3])
    >>> sorted(view.ratings), [(t[0], t[2], t[3], t[4]) for t in view.themes]
    ([1, 2], [('dukning', 2, 2, 2), ('endgame', 1, 0, 1)])
    """
    ratings: dict[Any, tuple[int, float, float]] = {}
    by_theme: dict[str, list[float]] = {}
    misses: dict[str, list[int]] = {}
    for learner in learners:
        if learner not in book.learners:
            continue
        me = book.learner(learner)
        if not me.answered:
            continue
        ratings[learner] = (me.answered, me.overall.rating, me.overall.rd)
        recent = me.recent()
        for theme, r in me.themes.items():
            by_theme.setdefault(theme, []).append(r.rating - me.overall.rating)
            missed, of = recent.get(theme, (0, 0))
            got = misses.setdefault(theme, [0, 0])
            got[0] += missed
            got[1] += of
    themes = [(t, sum(rs) / len(rs), len(rs), misses[t][0], misses[t][1]) for t, rs in by_theme.items()]
    themes.sort(key=lambda x: (x[1], x[0]))
    return ClassPractice(ratings, themes)


def homework_answers(homework: Homework, rows: Iterable[Sequence[Any]]) -> list[Sequence[Any]]:
    """The answers of one learner's puzzle ``rows`` (as
    :meth:`~krypteach.classroom.store.ProgressStore.puzzle_attempts` gives them, oldest first) that
    count for ``homework``: each puzzle that counts for it (one of its puzzles, or one of its theme)
    once, by its first answer between the homework's setting and its due time, at most ``count``.
    A homework on a theme asks for puzzles new to the learner (the trainer serves no other): one
    they answered before it was set, whose answer they have seen, does not count. A homework of
    chosen puzzles counts each of them, met before or not: the teacher chose them.

    >>> hw = Homework(1, "Tvång", "tvangstabbe", (), 2, due=100.0, created=10.0)
    >>> rows = [(7, "a", True, "first-try", ("tvangstabbe",), None, 5.0),     # before it was set
    ...         (7, "b", False, "first-try", ("tvangstabbe",), None, 20.0),
    ...         (7, "c", True, "first-try", ("endgame",), None, 30.0),        # another theme
    ...         (7, "b", True, "first-try", ("tvangstabbe",), None, 40.0),    # b again: its first answer counts
    ...         (7, "d", True, "hint", ("tvangstabbe",), None, 50.0),
    ...         (7, "e", True, "first-try", ("tvangstabbe",), None, 60.0)]    # beyond the count
    >>> [(r[1], r[6]) for r in homework_answers(hw, rows)]
    [('b', 20.0), ('d', 50.0)]
    >>> [r[1] for r in homework_answers(hw, [rows[0], (7, "a", True, "first-try", ("tvangstabbe",), None, 30.0)])]
    []
    """
    seen: set[str] = set()
    out: list[Sequence[Any]] = []
    for row in rows:
        _learner, pid, correct, _how, themes, _first, at = row
        if correct is not None and not homework.puzzles and float(at) < homework.created:
            seen.add(pid)  # met before the homework: its answer is known
            continue
        if (correct is None or pid in seen or is_flagged_key(pid)
                or not homework.created <= float(at) <= homework.due):
            continue
        if homework.puzzles:
            if pid not in homework.puzzles:
                continue
        elif homework.theme not in themes:
            continue
        seen.add(pid)
        out.append(row)
        if len(out) >= homework.count:
            break
    return out


def homework_result(homework: Homework, rows: Iterable[Sequence[Any]]) -> tuple[int, int]:
    """One learner's ``(done, solved)`` of ``homework`` from their puzzle attempts
    (:func:`homework_answers`); solved at the first try or after a hint.

    >>> hw = Homework(1, "Tvång", "tvangstabbe", (), 2, due=100.0, created=10.0)
    >>> rows = [(7, "a", True, "first-try", ("tvangstabbe",), None, 5.0),     # before it was set
    ...         (7, "b", False, "first-try", ("tvangstabbe",), None, 20.0),
    ...         (7, "c", True, "first-try", ("endgame",), None, 30.0),        # another theme
    ...         (7, "b", True, "first-try", ("tvangstabbe",), None, 40.0),    # b again: its first answer counts
    ...         (7, "d", True, "hint", ("tvangstabbe",), None, 50.0)]
    >>> homework_result(hw, rows)
    (2, 1)
    """
    counted = homework_answers(homework, rows)
    return len(counted), sum(bool(r[2]) for r in counted)
