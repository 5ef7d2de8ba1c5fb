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

import inspect
import math
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from ..engine.game import Observation
from ..engine.moves import Move
from ..i18n import _
from ..i18n.numbers import number as fmt_number

__all__ = ["Bot", "RandomBot", "CarefulBot", "ExpertBot", "make_bot", "BOT_LEVELS", "KASINO_LEVELS", "check_bot_rules",
           "suggest"]


class Bot(Protocol):
    """Anything with a ``name`` and ``choose(observation) -> Move``.

    A bot may say ``stateless = True``: its choice depends only on its seed and
    the observation, never on earlier calls. A runner may then use one seed for
    every giv, and play the only legal move for it without asking (forced moves
    are a quarter of all moves); :mod:`krypteach.play.simulate` does both.
    """

    name: str

    def choose(self, obs: Observation) -> Move: ...


class _Explains(Protocol):
    """A bot that gives its own reason for a move (see :func:`suggest`)."""

    def explain(self, obs: Observation) -> tuple[Move, str]: ...


class RandomBot:
    """Plays a uniformly random legal move (one random stream, so not ``stateless``)."""

    name = "random"
    stateless = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Move:
        return self.rng.choice(obs.legal_moves())

    def __repr__(self) -> str:
        return "RandomBot()"


from ..engine.games import describe  # noqa: E402
from . import words as W  # noqa: E402
from .careful import CarefulBot  # noqa: E402
from .expert import ExpertBot  # noqa: E402
from .kasino import thinks_in_builds  # noqa: E402

#: each level's bot class (called with ``seed`` and the level's options)
BOT_LEVELS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "careful": CarefulBot, "expert": ExpertBot}


class BotError(ValueError):
    """An unknown bot level, or an option its level does not take, or a value out of its range."""


#: the options :func:`make_bot` checks, per level: ``(kind, low, high)`` (see the constructors)
_BOT_OPTIONS: dict[str, dict[str, tuple[str, Any, Any]]] = {
    "careful": dict.fromkeys(("points", "tabbe", "setup", "exposed", "dump", "sweep"), ("number", 0, 10)),
    "expert": {
        "samples": ("int", 1, 10_000),
        "node_budget": ("int", 1, 100_000_000),
        "rollouts": ("int", 1, 1_000_000),
        "min_samples": ("int", 1, 100_000),
        "max_candidates": ("int", 1, 100),
        "exact": ("bool", None, None),
        "method": ("choice", ("auto", "deal", "rollout"), None),
        "horizon": ("choice", ("deal", "giv"), None),
        "max_seconds": ("seconds", 0, 3600),
        "kasino_samples": ("int", 1, 10_000),
        "kasino_candidates": ("int", 1, 100),
    },
}


def check_bot_options(level: str, options: dict[str, Any]) -> None:
    """Refuse an option ``level``'s bot does not take, or a value outside its range,
    with a :class:`BotError` that names the allowed options or the range."""
    key = level.strip().lower()
    table = _BOT_OPTIONS.get(key, {})
    level_class = BOT_LEVELS[key]
    if not options:  # nothing to check (simulate makes fresh bots for every giv: inspect.signature is slow)
        return
    params = inspect.signature(level_class).parameters.values()
    named = [p.name for p in params if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    takes_more = any(p.kind is p.VAR_KEYWORD for p in params)  # the constructor checks names it alone knows
    allowed = list(dict.fromkeys([*table, *named]))
    for name, value in options.items():
        if not isinstance(name, str) or (name not in allowed and not takes_more):
            if not allowed:
                raise BotError(_("bot {key} takes no options, got {name}={value}").format(
                    key=repr(key), name=name, value=repr(value)))
            raise BotError(_("bot {key} has no option {name}: its options are {options}").format(
                key=repr(key), name=repr(name), options=", ".join(allowed)))
        if name not in table:
            continue
        kind, lo, hi = table[name]
        number = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if kind == "int" and not (isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi):
            allowed_text = _("a whole number, {low}–{high}").format(low=fmt_number(lo), high=fmt_number(hi))
        elif kind == "number" and not (number and lo <= value <= hi):
            allowed_text = _("a number from {low} to {high}").format(low=fmt_number(lo), high=fmt_number(hi))
        elif kind == "seconds" and not (value is None or (number and lo < value <= hi)):
            allowed_text = _("a number of seconds above {low} and at most {high}, or none (no time limit)").format(
                low=fmt_number(lo), high=fmt_number(hi))
        elif kind == "bool" and not isinstance(value, bool):
            allowed_text = _("true or false")
        elif kind == "choice" and value not in lo:
            allowed_text = _("one of {choices}").format(choices=", ".join(lo))
        else:
            continue
        raise BotError(_("bot {key}: {name}={value} is not allowed: it must be {allowed}").format(
            key=repr(key), name=name, value=repr(value), allowed=allowed_text))


#: the levels that play classic Kasino (``Rules(game="kasino")``, avig kasino too): every one; the
#: careful and expert bots think about builds in :mod:`krypteach.bots.kasino`
KASINO_LEVELS = ("random", "careful", "expert")

#: options that tune Krypkasino's searches and terms only: refused with classic Kasino rules
#: (its careful bot has other terms; its expert samples and plays out, see krypteach/bots/kasino.py)
_KRYPKASINO_ONLY = {
    "careful": ("points", "tabbe", "setup", "exposed", "dump", "sweep"),
    "expert": ("samples", "node_budget", "rollouts", "min_samples", "max_candidates", "method", "horizon"),
}


def check_bot_rules(name: str, rules: Any, options: dict[str, Any] | None = None) -> None:
    """Refuse a bot level that cannot play these rules, or an option it cannot use with
    them (a :class:`BotError`). Every level plays both games; Krypkasino's tuning options
    mean nothing to classic Kasino's bots.

    >>> from krypteach import Rules
    >>> check_bot_rules("careful", Rules(game="kasino"))
    >>> check_bot_rules("expert", Rules(game="kasino"), {"rollouts": 60})
    Traceback (most recent call last):
    ...
    krypteach.bots.BotError: bot 'expert': option 'rollouts' tunes Krypkasino's search only, not classic Kasino's: its classic Kasino options are exact, max_seconds, kasino_samples, kasino_candidates
    >>> check_bot_rules("wizard", Rules(game="kasino"))
    Traceback (most recent call last):
    ...
    krypteach.bots.BotError: unknown bot 'wizard': choose one of random, careful, expert
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in BOT_LEVELS:
        raise BotError(f"unknown bot {name!r}: choose one of {', '.join(BOT_LEVELS)}")
    if getattr(rules, "game", "krypkasino") != "kasino":
        return
    if key not in KASINO_LEVELS:
        raise BotError(f"bot {key!r} cannot play classic Kasino: choose {' or '.join(KASINO_LEVELS)}")
    only = _KRYPKASINO_ONLY.get(key, ())
    for option in options or {}:
        if option in only:
            usable = [o for o in _BOT_OPTIONS.get(key, {}) if o not in only]
            tail = f": its classic Kasino options are {', '.join(usable)}" if usable else " (it takes none for classic Kasino)"
            raise BotError(f"bot {key!r}: option {option!r} tunes Krypkasino's "
                           f"{'search' if key == 'expert' else 'terms'} only, not classic Kasino's{tail}")


def make_bot(name: str, seed: int | None = None, *, rules: Any = None, **options: Any) -> Bot:
    """A bot by level name: ``"random"``, ``"careful"`` or ``"expert"``, with the
    level's options (checked: an unknown option or a value out of range is a
    :class:`BotError`, a ``ValueError``). With ``rules``, a level that cannot
    play them is refused (:func:`check_bot_rules`).

    >>> make_bot("expert", rollouts=-1)
    Traceback (most recent call last):
    ...
    krypteach.bots.BotError: bot 'expert': rollouts=-1 is not allowed: it must be a whole number, 1–1,000,000
    """
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in BOT_LEVELS:
        raise BotError(f"unknown bot {name!r}: choose one of {', '.join(BOT_LEVELS)}")
    check_bot_options(key, options)
    if rules is not None:  # the rules it will play: a level or option that cannot play them is refused here
        check_bot_rules(key, rules, options)
    try:
        return BOT_LEVELS[key](seed=seed, **options)
    except (TypeError, ValueError) as e:
        raise BotError(f"bot {key!r}: {e}") from None


def suggest(obs: Observation, level: str | None = None, seed: int = 0,
            names: Sequence[str] | None = None) -> tuple[Move, str]:
    """A move for the player to move, with the reason in words (used by hint buttons).

    Uses the strongest level available unless ``level`` names one. A bot that
    has an ``explain(obs) -> (move, reason)`` method gives its own reason.
    ``names``: each seat's name as the page shows it (``["You", "Bea"]``), so the
    reason says "Bea", not "seat 1".
    """
    name = level or next((n for n in ("expert", "careful", "random") if n in BOT_LEVELS), "random")
    # one decision, asked for by a learner: classic Kasino's expert may look at more samples than in play
    options = {"kasino_samples": 40} if name == "expert" and thinks_in_builds(obs.rules) else {}
    bot = make_bot(name, seed=seed, **options)
    if hasattr(bot, "explain"):
        with W.seat_names(names):
            return cast(_Explains, bot).explain(obs)
    move = bot.choose(obs)
    n = len(obs.legal_moves())
    return move, W.reason(describe(obs.rules, move), [W.only_legal_move() if n == 1 else W.one_of(n)])
