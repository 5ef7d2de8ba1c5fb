"""Computer opponents.

A bot is a small object with one method, ``choose(observation) -> Move``: it
sees only what its seat may know (:class:`krypteach.game.Observation`).
Bots are deterministic under their seed.

>>> from krypteach.game import Giv
>>> g = Giv(seed=2)
>>> bot = make_bot("random", seed=1)
>>> g.play(bot.choose(g.observation())).player
1
"""

from __future__ import annotations

import random
from typing import Protocol

from ..game import Observation
from ..moves import Move

__all__ = ["Bot", "RandomBot", "make_bot", "BOT_LEVELS"]


class Bot(Protocol):
    """Anything with a ``name`` and ``choose(observation) -> Move``."""

    name: str

    def choose(self, obs: Observation) -> Move: ...


class RandomBot:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Move:
        return self.rng.choice(obs.legal_moves())

    def __repr__(self) -> str:
        return "RandomBot()"


BOT_LEVELS: dict[str, type] = {"random": RandomBot}


def make_bot(name: str, seed: int | None = None, **options) -> Bot:
    """A bot by level name (``"random"``, and more as they are added)."""
    key = name.strip().lower()
    if key not in BOT_LEVELS:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_LEVELS)}")
    return BOT_LEVELS[key](seed=seed, **options)
