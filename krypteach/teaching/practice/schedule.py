"""The learner's own mistakes come back: a review queue scheduled by FSRS (py-fsrs 6).

An entry is a plain string key (a puzzle's id, or a flagged game position's key) and its
FSRS card. A failed item is enqueued (:func:`enqueue`) and comes back after the first
learning step, ten minutes: later in the same lesson. Each time it comes back the learner's
grade (:func:`review`) schedules it again: "again" (missed) brings it back in ten minutes,
"hard" (solved after a hint) in fifteen, "good" (solved) graduates it to days, FSRS's
intervals for a retention of 90 %. :func:`mix` puts the due entries into a session.

>>> from datetime import UTC, datetime, timedelta
>>> now = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
>>> entry = enqueue("p17", now)
>>> entry.due - now
datetime.timedelta(seconds=600)
>>> [e.key for e in due([entry], now + timedelta(minutes=10))]
['p17']
>>> (review(entry, "good", now + timedelta(minutes=10)).due - now).days >= 1
True
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Literal, cast

from fsrs import Card, Scheduler
from fsrs import Rating as Grade
from fsrs.card import CardDict

__all__ = [
    "LEARNING_STEP",
    "SCHEDULER",
    "GRADES",
    "QueueEntry",
    "enqueue",
    "review",
    "due",
    "mix",
]

#: The one learning (and relearning) step: a mistake comes back ten minutes later, about ten
#: puzzles on in a lesson of some forty minutes, so it is still the same lesson but no longer
#: in the learner's short-term memory (FSRS's default first step, one minute, would be the
#: very next puzzle). A single step, so that one good answer graduates the item to FSRS's
#: intervals in days: the next lessons.
LEARNING_STEP = timedelta(minutes=10)
#: The scheduler's parameters, pinned here: FSRS 6's default weights, 90 % desired retention,
#: the one learning step, and no fuzzing so that the same answers give the same dates (tests).
SCHEDULER = Scheduler(
    desired_retention=0.9,
    learning_steps=(LEARNING_STEP,),
    relearning_steps=(LEARNING_STEP,),
    enable_fuzzing=False,
)
#: the learner's grades: missed, solved after a hint, solved
GRADES: Mapping[str, Grade] = MappingProxyType({"again": Grade.Again, "hard": Grade.Hard, "good": Grade.Good})
_CARD_KEYS = frozenset(CardDict.__annotations__)


def _utc(now: datetime) -> datetime:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise ValueError(f"the time must be a timezone-aware datetime, not {now!r}")
    return now.astimezone(UTC)


@dataclass(frozen=True)
class QueueEntry:
    """One item of the review queue: its ``key``, its FSRS card (``fsrs.Card.to_dict()``, so
    JSON-serialisable) and when it is ``due`` (the card's own due time)."""

    key: str
    card: CardDict
    due: datetime

    def to_dict(self) -> dict[str, object]:
        """The entry as a JSON-serialisable dict (``from_dict`` reads it back)."""
        return {"key": self.key, "card": dict(self.card)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> QueueEntry:
        """Read :meth:`to_dict`'s dict, checking it.

        >>> QueueEntry.from_dict({"key": "p1", "card": {"state": 1}})
        Traceback (most recent call last):
        ...
        ValueError: queue entry 'p1': its card lacks card_id, difficulty, due, last_review, stability, step
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a queue entry must be a dict with key and card, not {type(data).__name__}")
        key, card = data.get("key"), data.get("card")
        if not isinstance(key, str) or not key:
            raise ValueError(f"a queue entry's key must be a non-empty string, not {key!r}")
        if not isinstance(card, Mapping):
            raise ValueError(f"queue entry {key!r}: its card must be a dict (fsrs.Card.to_dict()), not {card!r}")
        missing = sorted(_CARD_KEYS - set(card))
        if missing:
            raise ValueError(f"queue entry {key!r}: its card lacks {', '.join(missing)}")
        try:
            parsed = Card.from_dict(cast(CardDict, dict(card)))
        except (TypeError, ValueError) as error:
            raise ValueError(f"queue entry {key!r}: its card does not read: {error}") from None
        try:
            parsed_due = _utc(parsed.due)
            if parsed.last_review is not None:
                _utc(parsed.last_review)
        except ValueError:
            raise ValueError(f"queue entry {key!r}: its card's times must say their timezone") from None
        return cls(key, parsed.to_dict(), parsed_due)


def _entry(key: str, card: Card) -> QueueEntry:
    return QueueEntry(key, card.to_dict(), _utc(card.due))


def enqueue(key: str, now: datetime) -> QueueEntry:
    """A new entry for an item the learner just failed (an FSRS "again" at ``now``): due
    after the first learning step, :data:`LEARNING_STEP`. The card's id is the key's CRC-32,
    so the same key gives the same entry."""
    if not isinstance(key, str) or not key:
        raise ValueError(f"a queue entry's key must be a non-empty string, not {key!r}")
    now = _utc(now)
    card = Card(card_id=zlib.crc32(key.encode("utf-8")), due=now)
    card, _ = SCHEDULER.review_card(card, Grade.Again, now)
    return _entry(key, card)


def review(entry: QueueEntry, grade: Literal["again", "hard", "good"], now: datetime) -> QueueEntry:
    """``entry`` after the learner met it again at ``now``: ``"again"`` if missed, ``"hard"``
    if solved after a hint, ``"good"`` if solved."""
    if grade not in GRADES:
        raise ValueError(f"unknown grade {grade!r}: one of {', '.join(GRADES)}")
    card, _ = SCHEDULER.review_card(Card.from_dict(entry.card), GRADES[grade], _utc(now))
    return _entry(entry.key, card)


def due(entries: Iterable[QueueEntry], now: datetime) -> list[QueueEntry]:
    """The entries due at ``now``, most overdue first (ties by key)."""
    now = _utc(now)
    return sorted((e for e in entries if e.due <= now), key=lambda e: (e.due, e.key))


def mix(due_keys: Sequence[str], session_index: int, every: int = 3) -> str | None:
    """The due item to serve as the session's puzzle number ``session_index`` (0 for the
    first), or ``None`` for a new puzzle: every ``every``-th puzzle (the 3rd, 6th, 9th …) is
    the first of ``due_keys`` (most overdue first, as :func:`due` sorts) when any is due.
    The other puzzles are new, so a learner with many mistakes still meets new ones.

    >>> [mix(["p3"], i) for i in range(6)]
    [None, None, 'p3', None, None, 'p3']
    >>> mix([], 2) is None
    True
    """
    if every < 1:
        raise ValueError(f"every must be at least 1, not {every!r}")
    if session_index < 0:
        raise ValueError(f"session_index counts from 0, not {session_index!r}")
    if due_keys and (session_index + 1) % every == 0:
        return due_keys[0]
    return None
