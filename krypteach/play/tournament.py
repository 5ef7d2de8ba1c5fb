"""Bots against each other, with seats rotated and duplicate deals.

With ``B`` bots, givar are played in *cycles* of ``B`` givar that share one
deck and one dealer; in rotation ``r`` of a cycle seat ``s`` is taken by bot
``(s + r) mod B``. So over a cycle every bot sits in every seat exactly once
with the same cards (duplicate play, which removes much of the luck of the
deal), and the dealer moves one seat left each cycle. ``givar`` must be a
multiple of ``B``.

A bot's score is its mean giv score per seat it held. The 95% confidence
intervals treat cycles as the independent units (the givar of a cycle share a
deck): per cycle, each bot's mean score, then a t interval over the cycles;
differences between two bots are paired the same way.

>>> t = tournament(Rules(), givar=4, bots=["careful", "random"], seed=1)
>>> len(t.rows), sorted(set(r.bot for r in t.rows))
(8, ['careful', 'random'])
>>> [r.seat for r in t.rows if r.bot == "careful"]
[0, 1, 0, 1]
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..bots import BOT_LEVELS, Bot, BotError, make_bot
from ..engine.game import Giv
from ..engine.moves import Move
from ..engine.rules import Rules
from ..i18n import _
from ..i18n.numbers import number, signed
from .simulate import check_jobs, chunked, giv_moves, in_order, replay_giv

__all__ = ["Row", "Tournament", "check_bots", "lineups", "mean_ci", "parse_bot_spec", "t_quantile", "tournament"]


class Row(NamedTuple):
    """One seat of one giv: the CSV row ``giv,seat,bot,score``."""

    giv: int
    seat: int
    bot: str
    score: int


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The seatings of one cycle: rotation ``r`` puts bot ``(s + r) mod B`` in seat ``s``.

    >>> lineups(["a", "b", "c"], 2)
    [('a', 'b'), ('b', 'c'), ('c', 'a')]
    """
    b = len(bots)
    return [tuple(bots[(s + r) % b] for s in range(players)) for r in range(b)]


def parse_bot_spec(spec: str) -> tuple[str, dict[str, object]]:
    """``"expert:rollouts=60,min_samples=8"`` → ``("expert", {"rollouts": 60, "min_samples": 8})``.

    Options follow a colon, separated by ``;`` or ``,`` inside one spec (on the
    command line use ``;``, since ``,`` separates bots). Values are read as
    ``true``/``false``, ``none``, whole numbers, numbers, else text; whether the
    bot takes them is :func:`krypteach.bots.make_bot`'s check.

    >>> parse_bot_spec("expert:rollouts=60;exact=false")
    ('expert', {'rollouts': 60, 'exact': False})
    >>> parse_bot_spec("expert:rollouts")
    Traceback (most recent call last):
    ...
    krypteach.bots.BotError: bad bot option 'rollouts' in 'expert:rollouts': write key=value, e.g. expert:rollouts=60
    """
    if not isinstance(spec, str):
        raise BotError(f"a bot is named by text such as 'careful' or 'expert:rollouts=60', got {spec!r}")
    name, _, opts = spec.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise BotError(f"bot {spec!r} has no name: write a level ({', '.join(BOT_LEVELS)}), then options after "
                       "a colon, e.g. expert:rollouts=60")
    options: dict[str, object] = {}
    for part in opts.replace(";", ",").split(","):
        if not part.strip():
            continue
        key, eq, val = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise BotError(f"bad bot option {part.strip()!r} in {spec!r}: write key=value, e.g. expert:rollouts=60")
        if key in options:
            raise BotError(f"bot option {key!r} is given twice in {spec!r}")
        v: object
        low = val.strip().lower()
        if low in ("true", "false"):
            v = low == "true"
        elif low == "none":
            v = None
        else:
            try:
                v = int(val)
            except ValueError:
                try:
                    v = float(val)
                except ValueError:
                    v = val.strip()
        options[key] = v
    return name, options


def check_bots(bots: Sequence[str], givar: int, rules: Rules | None = None) -> tuple[str, ...]:
    """The bots of a tournament of ``givar`` givar, checked before any giv is played:
    every name a level, every option one it takes and in range (and can use with
    ``rules``, when given: :func:`krypteach.bots.check_bot_rules`), and ``givar`` a
    positive multiple of the number of bots. Returns the stripped names; raises a
    ``ValueError`` (:class:`krypteach.bots.BotError` for the bots) that says what is allowed.

    >>> check_bots(["careful", "random"], 3)
    Traceback (most recent call last):
    ...
    ValueError: givar=3 is not allowed: it must be a multiple of the number of bots (2) ...: try 2 or 4
    """
    if isinstance(bots, str):
        bots = bots.split(",")
    names = tuple(b.strip() for b in bots if isinstance(b, str) and b.strip())
    if not names or len(names) != len(bots):
        raise BotError(f"name at least one bot, and no empty names: choose from {', '.join(BOT_LEVELS)}")
    for label in names:
        name, options = parse_bot_spec(label)
        make_bot(name, seed=0, rules=rules, **options)  # unknown names and options fail before any giv is played
    b = len(names)
    if isinstance(givar, bool) or not isinstance(givar, int) or givar < b or givar % b:
        lo = max(b, givar - givar % b) if isinstance(givar, int) else b
        raise ValueError(f"givar={givar!r} is not allowed: it must be a multiple of the number of bots ({b}) so that "
                         f"every bot sits in every seat equally often: try {lo} or {lo + b}")
    return names


_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}


def t_quantile(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (for 95% intervals).

    >>> round(t_quantile(30), 3), round(t_quantile(1000), 3)
    (2.042, 1.962)
    """
    if df in _T975:
        return _T975[df]
    z = 1.959963984540054
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% t confidence interval (``nan`` with fewer than 2 values).

    >>> mean_ci([1.0, 2.0, 3.0])
    (2.0, 2.484...)
    """
    n = len(values)
    m = statistics.fmean(values) if values else math.nan
    if n < 2:
        return m, math.nan
    return m, t_quantile(n - 1) * statistics.stdev(values) / math.sqrt(n)


@dataclass
class Tournament:
    """The rows of a tournament and its statistics."""

    rules: Rules
    bots: tuple[str, ...]
    rows: list[Row] = field(default_factory=list)

    @property
    def cycles(self) -> int:
        return len({r.giv for r in self.rows}) // max(1, len(self.bots))

    def _cycle_means(self) -> list[dict[str, float]]:
        b = len(self.bots)
        by_cycle: dict[int, dict[str, list[int]]] = {}
        for r in self.rows:
            by_cycle.setdefault(r.giv // b, {}).setdefault(r.bot, []).append(r.score)
        return [{k: statistics.fmean(v) for k, v in c.items()} for _, c in sorted(by_cycle.items())]

    def mean_ci(self, bot: str) -> tuple[float, float]:
        """A bot's mean score per giv and seat, and the half-width of its 95% interval."""
        return mean_ci([c[bot] for c in self._cycle_means() if bot in c])

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """Mean of ``a``'s score minus ``b``'s (paired by cycle), with its 95% half-width."""
        return mean_ci([c[a] - c[b] for c in self._cycle_means() if a in c and b in c])

    def summary(self) -> str:
        names = list(dict.fromkeys(self.bots))
        givar = len({r.giv for r in self.rows})
        low = self.rules.lowest_wins  # Krypkasino and avig kasino: misère; classic Kasino: the highest wins
        lines = [_("{n} givar ({cycles} cycles of duplicate deals), {rules}").format(
                     n=number(givar), cycles=number(self.cycles), rules=self.rules.describe()),
                 (_("mean giv score per bot (lower is better), with 95% confidence interval:") if low else
                  _("mean giv score per bot (higher is better), with 95% confidence interval:"))]
        width = max(map(len, names))

        def ci(m: float, h: float) -> str:
            if math.isnan(h):
                return _("{mean}   (an interval needs two cycles or more)").format(mean=signed(m, 2).rjust(7))
            return _("{mean} ± {half}   [{low}, {high}]").format(mean=signed(m, 2).rjust(7), half=number(h, 2),
                                                                 low=signed(m - h, 2), high=signed(m + h, 2))

        for name in sorted(names, key=lambda x: self.mean_ci(x)[0] * (1 if low else -1)):
            lines.append(f"  {name:<{width}}  {ci(*self.mean_ci(name))}")
        if 1 < len(names) <= 6:
            lines.append(_("differences (row minus column's bot, paired by deal):"))
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    d, h = self.difference(a, b)
                    verdict = "" if math.isnan(h) or abs(d) <= h else "  " + _("→ {bot} is better").format(
                        bot=a if (d < 0) == low else b)
                    lines.append(f"  {a} − {b}: {ci(d, h).strip()}{verdict}")
        return "\n".join(lines)


def tournament(rules: Rules | None = None, givar: int = 100, bots: Sequence[str] = ("careful", "random"), *,
               seed: int | None = 0, progress: bool | None = False,
               on_giv: Callable[[Giv, tuple[str, ...]], None] | None = None, jobs: int | None = None) -> Tournament:
    """Play ``givar`` givar between ``bots`` (level names, optionally with options:
    ``"expert:rollouts=60"``), seats rotated and deals duplicated as the module
    docstring says. ``progress`` shows a tqdm bar (``None``: only on a terminal);
    ``on_giv(giv, lineup)`` is called with each finished giv, in giv order.
    ``jobs``: processes to play on (``None``: every core). Every giv is fixed by
    the seed and its number (its deck seed is drawn before play starts, its bots
    are seeded from it), so the rows are the same for any ``jobs``.

    >>> a = tournament(Rules(), givar=4, bots=["careful", "random"], seed=3, jobs=1)
    >>> a.rows == tournament(Rules(), givar=4, bots=["careful", "random"], seed=3, jobs=2).rows
    True
    """
    rules = rules or Rules()
    bots = check_bots(bots, givar, rules)
    jobs = check_jobs(jobs)
    b = len(bots)
    seats = lineups(bots, rules.players)
    rng = random.Random(seed)
    result = Tournament(rules, bots)
    # one deck seed and one dealer per cycle, drawn in order before any giv is played
    decks = [(rng.getrandbits(64), cycle % rules.players) for cycle in range(givar // b)]
    items = [(i, decks[i // b][1], decks[i // b][0]) for i in range(givar)]
    send = jobs > 1  # worker processes send moves back; the giv is replayed here
    bar = None
    if progress is not False:
        from tqdm.auto import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=givar, unit="giv", disable=None if progress is None else not progress)

    def emit(item: Any) -> None:
        i, scores, g = item
        lineup = seats[i % b]
        for s in range(rules.players):
            result.rows.append(Row(i, s, lineup[s], scores[s]))
        if on_giv:
            _, dealer, deck = items[i]
            on_giv(replay_giv(rules, dealer, deck, g) if send else g, lineup)
        if bar is not None:
            bar.update(1)

    try:
        in_order(_play_tournament_givar, [(rules, bots, chunk, send) for chunk in chunked(items, jobs)], jobs, emit)
    finally:
        if bar is not None:
            bar.close()
    return result


def _play_tournament_givar(job: tuple[Rules, tuple[str, ...], Sequence[tuple[int, int, int]], bool]) -> list[Any]:
    """Worker: play the givar ``(number, dealer, deck seed)`` of one chunk; each comes
    back as its scores and, when ``send`` says so, its moves (else the Giv)."""
    rules, bots, items, send = job
    b = len(bots)
    seats = lineups(bots, rules.players)
    spec_of = {label: parse_bot_spec(label) for label in bots}
    out: list[Any] = []
    for i, dealer, deck_seed in items:
        lineup = seats[i % b]
        players: list[Bot] = []
        for s, label in enumerate(lineup):
            name, options = spec_of[label]
            players.append(make_bot(name, seed=(deck_seed + 7919 * s + 104729 * bots.index(label)) & 0xFFFFFFFF, **options))
        g = Giv(rules, dealer=dealer, seed=deck_seed)
        while not g.is_over:
            g.push(_checked(g, players[g.turn].choose(g.observation()), lineup))
        out.append((i, g.result.scores, giv_moves(g) if send else g))
    return out


def _checked(g: Giv, move: Move, lineup: tuple[str, ...]) -> Move:
    if move not in g.legal_moves():
        raise ValueError(f"bot {lineup[g.turn]} in seat {g.turn} chose an illegal move {move}")
    return move
