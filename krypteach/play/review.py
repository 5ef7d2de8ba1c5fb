"""Reviews of many givar (``krypteach review``): every giv of a record file, on every core.

Each giv is reviewed by :func:`krypteach.bots.review.review_giv` for one seat; the result of
a giv is its review as JSON (:meth:`~krypteach.bots.review.Review.to_json`) with each
decision's reasons in words (``"why"``), in the language the review runs in. The results are
the same for any number of processes (each review is seeded from the position it looks at).

>>> from krypteach.engine.game import Giv
>>> from krypteach.bots import make_bot
>>> g = Giv(seed=4)
>>> g.play_out(lambda x: make_bot("careful", seed=1).choose(x.observation()))
>>> [r] = review_givar([g], seat=0, samples=4, jobs=1)
>>> sorted(r)[:4], r["decisions"][0]["verdict"] in ("fine", "inaccuracy", "mistake", "blunder")
(['decisions', 'forced', 'game', 'giv'], True)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import Any

from ..bots.review import decision_words, review_giv
from ..bots.words import seat_names
from ..engine.game import LEARNER, Giv
from ..engine.records import giv_from_record, giv_to_record
from ..i18n import language, use_language
from .simulate import in_order

__all__ = ["review_givar"]

#: givar sent to a worker process at a time
_CHUNK = 4


def _review_one(text: str, seat: int, samples: int, seed: int, number: int) -> dict[str, Any]:
    g = giv_from_record(json.loads(text))
    review = review_giv(g, seat, samples=samples, seed=seed)
    out = {"giv": number, **review.to_json()}
    # the reasons, from the seat's own observation before each decision (the same one the review used)
    replay = g.clone()
    moves = []
    while replay.turns:
        moves.append(replay.pop().move)
    moves.reverse()
    by_ply = {d.ply: d for d in review.decisions}
    names = [_you() if s == seat else _seat(s) for s in range(g.rules.players)]
    with seat_names(names):
        for ply, m in enumerate(moves):
            if ply in by_ply:
                d = by_ply[ply]
                entry = next(e for e in out["decisions"] if e["ply"] == ply)
                entry["why"] = decision_words(replay.observation(seat), d)
            replay.push(m)
    return out


def _you() -> str:
    from ..i18n import _

    return _(LEARNER)


def _seat(s: int) -> str:
    from ..i18n import _

    return _("Seat {seat}").format(seat=s)


def _work(chunk: tuple[str, list[tuple[int, str]], int, int, int]) -> list[dict[str, Any]]:
    lang, items, seat, samples, seed = chunk
    with use_language(lang):
        return [_review_one(text, seat, samples, seed, number) for number, text in items]


def review_givar(givar: Sequence[Giv], *, seat: int = 0, samples: int = 24, seed: int = 0, jobs: int | None = None,
                 progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """The review of ``seat`` in each giv (JSON-ready, with ``"giv"``: its number from 1), in
    order, on ``jobs`` processes (default: every core). ``progress(n)`` after each giv."""
    for g in givar:
        if not 0 <= seat < g.rules.players:
            from ..i18n import _

            raise ValueError(_("seat {seat} is not a seat of this giv (0 to {last})").format(
                seat=seat, last=g.rules.players - 1))
    texts = [(k + 1, json.dumps(giv_to_record(g))) for k, g in enumerate(givar)]
    lang = language()
    chunks = [(lang, texts[i:i + _CHUNK], seat, samples, seed) for i in range(0, len(texts), _CHUNK)]
    out: list[dict[str, Any]] = []

    def emit(r: dict[str, Any]) -> None:
        out.append(r)
        if progress is not None:
            progress(len(out))

    in_order(_work, chunks, jobs or os.cpu_count() or 1, emit)
    return out
