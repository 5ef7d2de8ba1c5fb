"""What both games' puzzles share: the error and the solver's answer (a module of its own,
so that classic Kasino's puzzles and the model import it without importing each other)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PuzzleError", "Solution", "PROMPTS"]

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
