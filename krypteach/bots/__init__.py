"""Computer opponents.

A bot is a small object with one method, ``choose(observation) -> Move``: it
sees only what its seat may know (:class:`krypteach.engine.game.Observation`).
Bots are deterministic under their seed.

>>> from krypteach.engine.game import Giv
>>> g = Giv(seed=2)
>>> bot = make_bot("random", seed=1)
>>> g.play(bot.choose(g.observation())).player
1
"""

from __future__ import annotations

import random
from typing import Protocol

from ..engine.game import Observation
from ..engine.moves import Move

__all__ = ["Bot", "RandomBot", "CarefulBot", "ExpertBot", "make_bot", "BOT_LEVELS", "suggest"]


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


from .careful import CarefulBot  # noqa: E402
from .expert import ExpertBot  # noqa: E402

BOT_LEVELS: dict[str, type] = {"random": RandomBot, "careful": CarefulBot, "expert": ExpertBot}


def make_bot(name: str, seed: int | None = None, **options) -> Bot:
    """A bot by level name: ``"random"``, ``"careful"`` or ``"expert"``."""
    key = name.strip().lower()
    if key not in BOT_LEVELS:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_LEVELS)}")
    return BOT_LEVELS[key](seed=seed, **options)


def suggest(obs: Observation, level: str | None = None, seed: int = 0) -> tuple[Move, str]:
    """A move for the player to move, with the reason in words (used by hint buttons).

    Uses the strongest level available unless ``level`` names one. A bot that
    has an ``explain(obs) -> (move, reason)`` method gives its own reason.
    """
    name = level or next((n for n in ("expert", "careful", "random") if n in BOT_LEVELS), "random")
    bot = make_bot(name, seed=seed)
    if hasattr(bot, "explain"):
        return bot.explain(obs)
    move = bot.choose(obs)
    moves = obs.legal_moves()
    if len(moves) == 1:
        why = "it is the only legal move"
    else:
        why = f"one of {len(moves)} legal moves"
    return move, f"{move.describe()}: {why}."
