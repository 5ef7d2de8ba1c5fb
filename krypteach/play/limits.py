"""Caps on long jobs started from a page (the variant lab, a tournament in a lesson).

A learner's click must never tie up a core for a day: the expert bot plays about
two givar a second here, so 20,000 givar × 2 rule sets is hours of work. A teacher
sets the caps for a class (``krypteach serve --max-givar N --max-job-seconds S``,
which hands them to every kernel as environment variables); a job checks its size
against them before it starts (:meth:`JobCaps.check`), and stops at the time cap
or when cancelled (:meth:`JobCaps.deadline`).

>>> caps = JobCaps(max_givar=1000, max_seconds=60)
>>> caps.check(500, "careful", rule_sets=2)
>>> caps.check(5000, "careful")
Traceback (most recent call last):
...
krypteach.play.limits.JobTooBig: 5000 givar is more than this class allows (at most 1000 givar per run)
>>> caps.check(1000, "expert", rule_sets=2)
Traceback (most recent call last):
...
krypteach.play.limits.JobTooBig: 1000 givar × 2 rule sets with expert players would take about 20 minutes; the cap here is 1 minute: at most 50 givar
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..i18n import N_, _, ngettext
from ..i18n.numbers import number

__all__ = ["ENV_JOBS", "ENV_MAX_GIVAR", "ENV_MAX_SECONDS", "SECONDS_PER_GIV", "Cancelled", "JobCaps", "JobTooBig"]

ENV_MAX_GIVAR = "KRYPTEACH_MAX_GIVAR"
ENV_MAX_SECONDS = "KRYPTEACH_MAX_JOB_SECONDS"
ENV_JOBS = "KRYPTEACH_JOBS"

#: seconds one giv takes with every seat played by this bot, on one core of this project's
#: 2-core test machine, rounded up (docs/performance.md: random 1,400 givar/s, careful about
#: 130 givar/s, expert about 8 ms a decision and 70 decisions a giv)
SECONDS_PER_GIV = {"random": 0.002, "careful": 0.01, "expert": 0.6}


#: the bots' names as a message names them (``N_``: translated where shown)
BOT_WORDS = {"random": N_("random"), "careful": N_("careful"), "expert": N_("expert")}


class JobTooBig(ValueError):
    """A job larger than the class's caps; the message says what fits."""


class Cancelled(Exception):
    """A job stopped before its end: cancelled, or at the time cap."""


def _minutes(seconds: float) -> str:
    if seconds < 90:
        if seconds >= 60:
            return _("1 minute")
        n = max(1, round(seconds))
        return ngettext("{count} second", "{count} seconds", n).format(count=n)
    if seconds < 2 * 3600:
        return _("{count} minutes").format(count=round(seconds / 60))
    return _("{count} hours").format(count=number(seconds / 3600))


@dataclass(frozen=True)
class JobCaps:
    """The caps: givar per run, seconds per job, processes per job (``None``: every core)."""

    max_givar: int = 20_000
    max_seconds: float = 600.0
    jobs: int | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> JobCaps:
        """The caps ``krypteach serve`` gave this kernel (the defaults elsewhere).

        >>> JobCaps.from_env({"KRYPTEACH_MAX_GIVAR": "500", "KRYPTEACH_JOBS": "1"})
        JobCaps(max_givar=500, max_seconds=600.0, jobs=1)
        >>> JobCaps.from_env({"KRYPTEACH_MAX_GIVAR": "lots"})
        Traceback (most recent call last):
        ...
        ValueError: KRYPTEACH_MAX_GIVAR='lots' is not allowed: it must be a whole number, 1 or more
        """
        env = os.environ if env is None else env
        default = cls()

        def whole(name: str, fallback: int | None) -> int | None:
            raw = env.get(name)
            if raw is None or raw == "":
                return fallback
            try:
                value = int(raw)
            except ValueError:
                value = 0
            if value < 1:
                raise ValueError(_("{name}={value} is not allowed: it must be a whole number, 1 or more").format(
                    name=name, value=repr(raw)))
            return value

        givar = whole(ENV_MAX_GIVAR, default.max_givar)
        seconds = whole(ENV_MAX_SECONDS, None)
        return cls(max_givar=givar or default.max_givar,
                   max_seconds=float(seconds) if seconds is not None else default.max_seconds,
                   jobs=whole(ENV_JOBS, None))

    def estimate(self, givar: int, bot: str, rule_sets: int = 1) -> float:
        """Seconds the job would take on one core (see :data:`SECONDS_PER_GIV`)."""
        return givar * rule_sets * SECONDS_PER_GIV.get(bot, max(SECONDS_PER_GIV.values()))

    def check(self, givar: int, bot: str, rule_sets: int = 1) -> None:
        """Raise :class:`JobTooBig` (saying what fits) unless the job is within the caps."""
        if isinstance(givar, bool) or not isinstance(givar, int) or givar < 1:
            raise JobTooBig(_("{name}={value} is not allowed: it must be a whole number, 1 or more").format(
                name="givar", value=repr(givar)))
        if givar > self.max_givar:
            raise JobTooBig(_("{givar} givar is more than this class allows (at most {most} givar per run)").format(
                givar=givar, most=self.max_givar))
        seconds = self.estimate(givar, bot, rule_sets)
        if seconds > self.max_seconds:
            fits = int(self.max_seconds / self.estimate(1, bot, rule_sets))
            # i18n: {bot} is the bot's name: random, careful, expert
            say = (_("{givar} givar × {sets} rule sets with {bot} players would take about {time}; "
                     "the cap here is {cap}: at most {fits} givar") if rule_sets > 1 else
                   _("{givar} givar with {bot} players would take about {time}; "
                     "the cap here is {cap}: at most {fits} givar"))
            raise JobTooBig(say.format(givar=givar, sets=rule_sets, bot=_(BOT_WORDS[bot]) if bot in BOT_WORDS else bot,
                                       time=_minutes(seconds),
                                       cap=_minutes(self.max_seconds), fits=max(1, fits)))

    def deadline(self, cancelled: Callable[[], bool] = lambda: False,
                 clock: Callable[[], float] = time.monotonic) -> Callable[[], None]:
        """A check to call between givar and between moves (``simulate(stop=…)``): raises
        :class:`Cancelled` once ``cancelled()`` is true or the time cap has passed (the
        estimate can be wrong on a busy machine, or for a rule set with long hands).
        ``clock``: the time in seconds (a fake one in tests).

        >>> now = [0.0]
        >>> stop = JobCaps(max_seconds=5).deadline(clock=lambda: now[0])
        >>> stop(); now[0] = 5.0; stop(); now[0] = 5.5; stop()
        Traceback (most recent call last):
        ...
        krypteach.play.limits.Cancelled: stopped at the time cap (5 seconds)
        """
        end = clock() + self.max_seconds

        def check() -> None:
            if cancelled():
                raise Cancelled(_("cancelled"))
            if clock() > end:
                raise Cancelled(_("stopped at the time cap ({cap})").format(cap=_minutes(self.max_seconds)))

        return check
