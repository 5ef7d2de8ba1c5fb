"""Work done a step at a time: a generator that yields after each piece (a sample of a search)
and returns its result, so a caller can spread it over the gaps between a learner's clicks
(the coach's background analysis, :class:`krypteach.bots.review.Reviewer`) or run it at once.

>>> def count(n):
...     for _ in range(n):
...         yield
...     return n
>>> run_steps(count(3))
3
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

__all__ = ["Steps", "run_steps"]

T = TypeVar("T")

#: work that yields ``None`` after each piece and returns a ``T``
Steps = Generator[None, None, T]


def run_steps(work: Steps[T]) -> T:
    """Run ``work`` to its end and return its result."""
    while True:
        try:
            next(work)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
