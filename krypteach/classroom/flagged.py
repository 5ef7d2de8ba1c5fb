"""The moves the coach flagged in a learner's own givar, kept so that they come back in the
learner's practice (issue 23: "every position the coach's review flags in the learner's own
givar goes into a review queue scheduled by spaced repetition").

When a giv has ended and its review is kept (the game page's coach), each flagged decision is
kept beside the giv it was made in: the giv's record (the position is replayed from it: the
learner's own hand, the table, what they had seen) and the review's value of every legal move
(so the trainer judges a new answer as the coach did, without searching again). They are kept
as a text of their own in the progress store's kept partier (:data:`PLACE` of the lesson page
the giv was played on), at most :data:`MOST_GIVAR` givar, the newest kept; the practice trainer
reads them back (:func:`read_flagged`), puts each into the review queue at the time it was
flagged (:meth:`~krypteach.classroom.practice.PracticeBook.flag`), and mixes the due ones into
the learner's session. A kept text that cannot be read back is dropped, never raised: the
lessons go on.

>>> from krypteach.engine.game import Giv
>>> from krypteach.bots import make_bot
>>> from krypteach.bots.review import review_giv
>>> g = Giv(seed=4)
>>> g.play_out(lambda x: make_bot("random", seed=1).choose(x.observation()))
>>> flagged = review_giv(g, 0, samples=6).flagged
>>> text = keep_flagged(None, g, 0, flagged, at=100.0)
>>> back = read_flagged(text, "07_play")
>>> [f.decision for f in back] == flagged, back[0].key.startswith("coach/07_play/")
(True, True)
>>> f = back[0]
>>> f.decision.played.card in f.observation().hand, len(f.giv_before().turns) == f.decision.ply
(True, True)
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.review import Decision
from ..engine.game import Giv, Observation
from ..engine.records import RecordError, giv_from_record, giv_to_record
from .store import MAX_GAME_RECORD

__all__ = ["FORMAT", "MOST_GIVAR", "PLACE", "PREFIX", "Flagged", "is_flagged_key", "keep_flagged", "read_all",
           "read_flagged"]

#: the kept partier's place (beside a lesson page's game tables) that holds its flagged moves
PLACE = "coach"
FORMAT = "krypteach-flagged/1"
#: the givar whose flagged moves are kept per lesson page, the newest
MOST_GIVAR = 12
#: the review queue's key of a flagged move: ``coach/<lesson>/<12 hex digits>``
PREFIX = "coach/"


def is_flagged_key(key: str) -> bool:
    """Is ``key`` a flagged move's (not a puzzle's)?"""
    return key.startswith(PREFIX)


@dataclass(frozen=True)
class Flagged:
    """One flagged move: where it was played, when it was flagged, and the review's values."""

    key: str
    lesson: str
    at: float
    giv: dict[str, Any]   # the giv's record
    decision: Decision

    def giv_before(self) -> Giv:
        """The giv as it stood at the decision (the move not yet made)."""
        g = giv_from_record(self.giv)
        while len(g.turns) > self.decision.ply:
            g.pop()
        return g

    def observation(self) -> Observation:
        """What the learner could see when they made the move."""
        return self.giv_before().observation(self.decision.seat)


def _key(lesson: str, record: dict[str, Any], ply: int) -> str:
    digest = hashlib.sha1(json.dumps([record, ply], sort_keys=True).encode()).hexdigest()[:12]
    return f"{PREFIX}{lesson[:60]}/{digest}"


def keep_flagged(kept: str | None, giv: Giv, seat: int, decisions: Sequence[Decision], *, at: float) -> str:
    """The kept text (``kept``: what was kept before, or None) with ``giv``'s flagged
    ``decisions`` added; the oldest givar dropped beyond :data:`MOST_GIVAR` or the kept
    partier's size."""
    entries = _entries(kept)
    record = giv_to_record(giv)
    entries = [e for e in entries if e.get("giv") != record]  # the same giv reviewed again: once
    if decisions:
        entries.append({"at": at, "seat": seat, "giv": record, "decisions": [d.to_dict() for d in decisions]})
    entries = entries[-MOST_GIVAR:]
    while True:
        text = json.dumps({"format": FORMAT, "givar": entries}, ensure_ascii=False, separators=(",", ":"))
        if len(text) <= MAX_GAME_RECORD or len(entries) <= 1:
            return text
        entries = entries[1:]


def _entries(text: str | None) -> list[dict[str, Any]]:
    if not text:
        return []
    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("givar"), list):
        return []
    return [e for e in data["givar"] if isinstance(e, dict)]


def read_flagged(text: str | None, lesson: str) -> list[Flagged]:
    """The flagged moves of a kept text (:func:`keep_flagged`) of ``lesson``'s page, oldest
    first; whatever cannot be read back (a changed format, a giv that no longer replays) is left
    out. A text read before is not replayed again (the teacher's board reads every learner's on
    each load): its moves are kept, by the text, for the last 512 texts read."""
    return list(_read_flagged(text, lesson)) if text else []


@functools.lru_cache(maxsize=512)
def _read_flagged(text: str, lesson: str) -> tuple[Flagged, ...]:
    out = []
    for entry in _entries(text):
        at, record, raw = entry.get("at"), entry.get("giv"), entry.get("decisions")
        if (isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at)
                or not isinstance(raw, list)):
            continue
        if not isinstance(record, dict):
            continue
        try:
            g = giv_from_record(record)
        except RecordError:
            continue
        for d in raw:
            try:
                decision = Decision.from_dict(d)
            except ValueError:
                continue
            if decision.ply >= len(g.turns) or g.turns[decision.ply].player != decision.seat:
                continue
            if g.turns[decision.ply].move != decision.played:
                continue
            out.append(Flagged(_key(lesson, record, decision.ply), lesson, float(at), record, decision))
    return tuple(out)


def read_all(kept: Iterable[tuple[str, str]]) -> dict[str, Flagged]:
    """Every flagged move of ``(lesson, kept text)`` pairs, by key."""
    return {f.key: f for lesson, text in kept for f in read_flagged(text, lesson)}
