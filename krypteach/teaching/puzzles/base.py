"""What both games' puzzles share: the error, the solver's answer and the generation loop
(a module of its own, so that classic Kasino's puzzles and the model import it without
importing each other)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["PuzzleError", "Solution", "PROMPTS", "generate_with"]

P = TypeVar("P")

#: kind -> the function that asks a puzzle's question, for the kinds that live in their own
#: module (classic Kasino's, registered by :mod:`.kasino`, which the package always imports)
PROMPTS: dict[str, Callable[[Any], str]] = {}


class PuzzleError(ValueError):
    """A malformed puzzle, or one whose stated answer the solver cannot prove."""


@dataclass(frozen=True)
class Solution:
    """The right answers (as text, normalised), whether the answer is unique, and why in words."""

    answers: frozenset[str]
    explanation: str
    unique: bool
    options: dict[str, Any] = field(default_factory=dict, compare=False)


def generate_with(kind: str, difficulty: str, position: Callable[[], dict[str, object] | None], new: Callable[..., P],
                  solve: Callable[[P], Solution], fits: Callable[[P, Solution], bool], *, unique: bool,
                  max_tries: int) -> P:
    """The generation loop of both games: up to ``max_tries`` positions (``position()``, the
    puzzle's fields, or ``None`` to draw again), each made a puzzle (``new(**fields)``) and
    solved; kept when the solver proves it, its answer is unique where ``unique`` asks for
    that, and it ``fits`` the difficulty. Returns ``new(answers=…, **fields)`` with the
    solver's answers; raises ``PuzzleError`` when no try is kept.

    >>> from types import SimpleNamespace as NS
    >>> sizes = iter([None, 1, 2, 3])
    >>> def position():
    ...     n = next(sizes)
    ...     return None if n is None else {"n": n}
    >>> solve = lambda p: Solution(frozenset({str(p.n)}), "", True)
    >>> generate_with("demo", "easy", position, NS, solve, lambda p, s: p.n >= 2, unique=True, max_tries=9)
    namespace(answers=('2',), n=2)
    >>> generate_with("demo", "hard", lambda: None, NS, solve, lambda p, s: True, unique=True, max_tries=3)
    Traceback (most recent call last):
    ...
    krypteach.teaching.puzzles.base.PuzzleError: could not generate a hard demo puzzle in 3 tries
    """
    for _try in range(max_tries):
        fields = position()
        if fields is None:
            continue
        p = new(**fields)
        try:
            sol = solve(p)
        except PuzzleError:
            continue
        if unique and not sol.unique:
            continue
        if not fits(p, sol):
            continue
        return new(answers=tuple(sorted(sol.answers)), **fields)
    raise PuzzleError(f"could not generate a {difficulty} {kind} puzzle in {max_tries} tries")
