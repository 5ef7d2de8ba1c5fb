"""Play many givar with bots and summarise them, on every core.

Every giv is fixed by the run's seed and its number alone: the seeds of the
bots and of every giv's deck are drawn from the run seed before play starts,
and each giv is played by fresh bots. So the givar can be played in any order,
on ``jobs`` processes (:func:`in_order`), and a run gives the same givar, the
same records and the same summary whatever ``jobs`` is. The finished givar
come back to the calling process in giv order (``on_giv``, the progress bar).

Bots whose choice depends only on their seed and the observation
(``stateless``: careful, expert) keep one seed for the whole run; a random bot
among them is seeded afresh for each giv from its seed and the giv's number. A
run of random bots only is one random stream over all its givar (its records
replay byte for byte from older versions), so it is played in one process: at
about 1,400 givar a second it needs no more.

>>> s = simulate(Rules(), givar=3, seed=1)
>>> len(s.results), round(sum(sum(r.card_points) for r in s.results) / 3)
(3, 42)
>>> a = simulate(Rules(), givar=4, seed=2, bots=["careful"], jobs=1)
>>> b = simulate(Rules(), givar=4, seed=2, bots=["careful"], jobs=2)
>>> a.results == b.results
True
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..bots import BOT_LEVELS, Bot, make_bot
from ..engine.cards import Card
from ..engine.game import Giv
from ..engine.moves import Move
from ..engine.rules import Rules
from ..engine.scoring import GivResult
from ..i18n import _
from ..i18n.numbers import number, percent, signed

if TYPE_CHECKING:  # imported where a pool starts: multiprocessing is not for every page (the static site's has none)
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["Simulation", "play_giv", "seat_bots", "simulate", "in_order", "chunked", "check_jobs", "giv_bots", "giv_moves",
           "replay_giv"]

T = TypeVar("T")
R = TypeVar("R")


def play_giv(rules: Rules, bots: Sequence[Bot], *, dealer: int = 0, seed: int | None = None,
             check: Callable[[], None] | None = None) -> Giv:
    """Play one whole giv, ``bots[seat]`` choosing for each seat; returns the finished giv.

    A ``stateless`` bot (see :class:`krypteach.bots.Bot`) is not asked when only
    one move is legal: it would play it, and learn nothing from being asked.
    ``check`` is called before every move (a job's deadline or Cancel:
    :meth:`krypteach.play.limits.JobCaps.deadline`); what it raises stops the giv.

    >>> from krypteach.bots import CarefulBot
    >>> play_giv(Rules(), [CarefulBot(seed=0), CarefulBot(seed=1)], seed=3).is_over
    True
    """
    g = Giv(rules, dealer=dealer, seed=seed)
    while not g.is_over:
        if check is not None:
            check()
        bot = bots[g.turn]
        moves = g.legal_moves()
        if len(moves) == 1 and getattr(bot, "stateless", False):
            g.push(moves[0])
        else:
            g.play(bot.choose(g.observation()))
    return g


#: one move of :func:`giv_moves`: ``(card, capture or None)``, or a build's ``(card, cards, value)``
MoveData = tuple[int, tuple[int, ...] | None] | tuple[int, tuple[int, ...], int]


def giv_moves(g: Giv) -> tuple[MoveData, ...]:
    """The moves of a giv as plain numbers (cheap to send between processes); see :func:`replay_giv`.
    A classic Kasino build also carries its declared value: ``(card, cards, value)``.

    >>> g = Giv(seed=1); _ = g.play(g.legal_moves()[0]); giv_moves(g)
    ((39, (36,)),)
    """
    return tuple((int(t.move.card), None if t.move.capture is None else tuple(map(int, t.move.capture)))
                 if t.move.value is None else (int(t.move.card), tuple(map(int, t.move.capture or ())), t.move.value)
                 for t in g.turns)


def replay_giv(rules: Rules, dealer: int, seed: int | None, moves: Iterable[MoveData]) -> Giv:
    """The giv of this deck seed and dealer with these moves (from :func:`giv_moves`) played again.

    >>> g = Giv(seed=4)
    >>> while not g.is_over:
    ...     _ = g.play(g.legal_moves()[-1])
    >>> replay_giv(g.rules, 0, 4, giv_moves(g)).state_key() == g.state_key()
    True
    >>> k = Rules(game="kasino")
    >>> g = Giv(k, seed=4)
    >>> while not g.is_over:
    ...     _ = g.play(g.legal_moves()[0])
    >>> any(t.move.kind == "build" for t in g.turns), replay_giv(k, 0, 4, giv_moves(g)).state_key() == g.state_key()
    (True, True)
    """
    g = Giv(rules, dealer=dealer, seed=seed)
    for item in moves:
        if len(item) == 3:  # a classic Kasino build: its cards and declared value
            card, cards, value = item
            g.push(Move.build(Card(card), [Card(c) for c in cards], value))
            continue
        card, capture = item
        g.push(Move(Card(card), None if capture is None else [Card(c) for c in capture]))
    return g


def check_jobs(jobs: int | None) -> int:
    """The number of processes to play on: ``jobs``, or every core (``os.cpu_count()``) for ``None``.

    >>> check_jobs(3), check_jobs(None) == (os.cpu_count() or 1)
    (3, True)
    """
    if jobs is None:
        return os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs={jobs!r} is not allowed: it must be a whole number, 1 or more (the processes to play on)")
    return jobs


#: how often (seconds) the calling process asks ``stop`` while worker processes play
STOP_POLL = 0.1


def can_use_processes() -> bool:
    """Whether worker processes can be started here (not in the browser's Python)."""
    return sys.platform != "emscripten"


def _pooled(jobs: int, chunks: int, stop: Callable[[], None] | None) -> bool:
    return (jobs > 1 and chunks > 1) or (stop is not None and can_use_processes())


def in_order(work: Callable[[T], list[R]], chunks: Sequence[T], jobs: int, emit: Callable[[R], None], *,
             stop: Callable[[], None] | None = None) -> None:
    """``work(chunk)`` for every chunk, on ``jobs`` processes
    (:class:`~concurrent.futures.ProcessPoolExecutor`; one: here), with
    ``emit`` called in this process for every item of every result, in chunk
    order, as soon as the chunks before it are done. ``work`` must be a
    module-level function (it is sent to the worker processes by name).

    ``stop`` (a deadline or Cancel) is called every :data:`STOP_POLL` seconds
    while the workers play, even in the middle of one long chunk; when it raises,
    the worker processes are ended at once (``terminate``) and what it raised goes
    on. With ``stop`` the work is done in a worker process even for ``jobs=1``
    (a move of a slow bot cannot be interrupted in this process), where processes
    can be started.

    >>> out = []; in_order(list, ["ab", "c"], 1, out.append); out
    ['a', 'b', 'c']
    """
    if not _pooled(jobs, len(chunks), stop):
        for chunk in chunks:
            if stop is not None:
                stop()
            for item in work(chunk):
                emit(item)
        return
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max(1, min(jobs, len(chunks))))
    ended = False
    try:
        futures: dict[Future[list[R]], int] = {pool.submit(work, chunk): k for k, chunk in enumerate(chunks)}
        done: dict[int, list[R]] = {}
        nxt = 0
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=None if stop is None else STOP_POLL,
                                     return_when=FIRST_COMPLETED)
            for f in finished:
                done[futures[f]] = f.result()
            while nxt in done:
                for item in done.pop(nxt):
                    emit(item)
                nxt += 1
            if stop is not None and pending:
                stop()
    except BaseException:
        ended = True
        _end_workers(pool)
        raise
    finally:
        if not ended:
            pool.shutdown(wait=True)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: nothing more starts, and its worker processes are terminated
    (``shutdown`` alone would wait for the givar they are playing)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # Python 3.14 has terminate_workers()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(timeout=1)


def chunked(items: Sequence[T], jobs: int) -> list[list[T]]:
    """``items`` cut into consecutive chunks: one item each for one process (so that
    every finished giv is reported, and a job can stop, as soon as it is done), else
    about eight chunks per process (small enough to share the work out evenly, large
    enough that sending them costs little).

    >>> chunked(list(range(3)), 1)
    [[0], [1], [2]]
    >>> [len(c) for c in chunked(list(range(100)), 2)]
    [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 2]
    """
    if not items:
        return [list(items)]
    if jobs <= 1:
        return [[item] for item in items]
    size = max(1, -(-len(items) // (8 * jobs)))
    return [list(items[k:k + size]) for k in range(0, len(items), size)]


def giv_bots(names: Sequence[str], bot_seeds: Sequence[int], giv: int) -> list[Bot]:
    """The bots of giv number ``giv`` of a run: one seed for the run for a
    ``stateless`` bot, a seed of its own for this giv for any other.

    >>> [b.rng.random() == c.rng.random() for b, c in zip(giv_bots(["random"], [1], 0), giv_bots(["random"], [1], 1))]
    [False]
    """
    bots = []
    for name, seed in zip(names, bot_seeds):
        if not getattr(BOT_LEVELS.get(name.strip().lower()), "stateless", False):
            seed = random.Random(f"{seed}:{giv}").getrandbits(32)
        bots.append(make_bot(name, seed=seed))
    return bots


def _play_givar(job: tuple[Rules, Sequence[str], Sequence[int], Sequence[tuple[int, int, int]], bool],
                check: Callable[[], None] | None = None) -> list[Any]:
    """Worker: play the givar ``(number, dealer, deck seed)`` of one chunk; each
    comes back as its result and, when ``send`` says so, its moves (else the Giv).
    ``check``: called before every move (here, in this process)."""
    rules, names, bot_seeds, items, send = job
    out: list[Any] = []
    for i, dealer, seed in items:
        g = play_giv(rules, giv_bots(names, bot_seeds, i), dealer=dealer, seed=seed, check=check)
        out.append((i, g.result, giv_moves(g)) if send else (i, g.result, g))
    return out


def _fast_random_giv(rules: Rules, rng: random.Random, dealer: int, seed: int,
                     check: Callable[[], None] | None = None) -> Giv:
    g = Giv(rules, dealer=dealer, seed=seed)
    choice = rng.choice
    while not g.is_over:
        if check is not None:
            check()
        g.push(choice(g.legal_moves()))
    return g


@dataclass
class Simulation:
    """Results of a simulation run: one :class:`GivResult` per giv (and the givar if kept)."""

    rules: Rules
    bots: tuple[str, ...]
    results: list[GivResult] = field(default_factory=list)
    dealers: list[int] = field(default_factory=list)
    givar: list[Giv] = field(default_factory=list)

    def mean_scores(self) -> list[float]:
        n = self.rules.players
        return [statistics.fmean(r.scores[s] for r in self.results) for s in range(n)]

    def tabbar_per_giv(self) -> float:
        return statistics.fmean(sum(r.tabbar) for r in self.results)

    def aside_scoring_share(self) -> float:
        """How often the cards the last capturer sweeps up (table + klädda högen) carry card points."""
        return statistics.fmean(1.0 if any(c.points for c in r.aside_cards) else 0.0 for r in self.results)

    def winners(self) -> list[tuple[int, ...]]:
        """For each giv, the winning teams (seats without teams): the lowest score; ties share."""
        return [r.winners for r in self.results]

    def dealer_win_share(self) -> float:
        """How often the dealer's seat (the dealer's team) is among the giv's winners."""
        rules = self.rules
        return statistics.fmean(1.0 if rules.team_of(d) in w else 0.0 for d, w in zip(self.dealers, self.winners()))

    def negative_share(self) -> float:
        """How often a giv ends with at least one negative score."""
        return statistics.fmean(1.0 if min(r.scores) < 0 else 0.0 for r in self.results)

    def scores_by_seat(self) -> list[list[int]]:
        """``[seat][giv]`` scores."""
        return [[r.scores[s] for r in self.results] for s in range(self.rules.players)]

    def tabbar_counts(self) -> list[int]:
        """Tabbar made in each giv (all seats)."""
        return [sum(r.tabbar) for r in self.results]

    def tabbar_difference(self, other: Simulation) -> tuple[float, float]:
        """``other``'s tabbar per giv minus this one's, and the noise in that difference: two
        standard errors of a difference of two means (``2·√(s²ₐ/nₐ + s²ᵦ/nᵦ)``). A difference
        larger than the noise is a real effect of the rules, at about 95%; a smaller one may be
        chance (lesson 09 reads its example so).

        >>> a = Simulation(Rules(), ("random",) * 2); b = Simulation(Rules(), ("random",) * 2)
        >>> a.tabbar_counts = lambda: [1, 2, 1, 2]; b.tabbar_counts = lambda: [3, 4, 3, 4]
        >>> diff, noise = a.tabbar_difference(b); diff, round(noise, 2)
        (2.0, 0.82)
        """
        xs, ys = self.tabbar_counts(), other.tabbar_counts()
        if len(xs) < 2 or len(ys) < 2:
            return statistics.fmean(ys) - statistics.fmean(xs), math.inf
        noise = 2 * math.sqrt(statistics.variance(xs) / len(xs) + statistics.variance(ys) / len(ys))
        return statistics.fmean(ys) - statistics.fmean(xs), noise

    def summary(self) -> str:
        n = self.rules.players
        lines = [_("{n} givar, {rules}, bots: {bots}").format(n=number(len(self.results)), rules=self.rules.describe(),
                                                             bots=", ".join(self.bots))]
        means = self.mean_scores()
        lines.append(_("mean score per seat: {scores}").format(scores="; ".join(  # "; ": the numbers have commas
            _("seat {seat}: {score}").format(seat=s, score=signed(means[s], 2)) for s in range(n))))
        lines.append(_("tabbar per giv: {n}").format(n=number(self.tabbar_per_giv(), 2)))
        lines.append(_("the last capturer's sweep (table + klädda högen) holds card points in {share} of givar").format(
            share=percent(self.aside_scoring_share(), 1)))
        lines.append(_("the dealer's seat wins {share} of givar; a giv ends with a negative score in {negative}").format(
            share=percent(self.dealer_win_share(), 1), negative=percent(self.negative_share(), 1)))
        return "\n".join(lines)


def seat_bots(bots: Sequence[str] | None, players: int) -> list[str]:
    """The bot level of every seat: one name for all seats or one per seat
    (``None`` or empty: random everywhere); unknown names are refused.

    >>> seat_bots(["careful"], 3)
    ['careful', 'careful', 'careful']
    >>> seat_bots(["careful", "random", "random"], 2)
    Traceback (most recent call last):
    ...
    ValueError: give one bot for every seat (2), or one for all: got 3
    """
    names = list(bots) if bots else ["random"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"give one bot for every seat ({players}), or one for all: got {len(names)}")
    for name in dict.fromkeys(names):
        make_bot(name, seed=0)  # an unknown name fails before any giv is played
    return names


def simulate(rules: Rules | None = None, givar: int = 100, *, seed: int | None = 0, bots: Sequence[str] | None = None,
             keep: bool = False, progress: bool | None = False, on_giv: Callable[[Giv], None] | None = None,
             jobs: int | None = None, stop: Callable[[], None] | None = None) -> Simulation:
    """Play ``givar`` givar (dealer rotating) with the named bots (default: random for every seat).

    ``progress`` shows a tqdm bar (``None``: only on a terminal); ``keep``
    keeps every finished giv (for records); ``on_giv`` is called with each, in
    giv order. ``jobs``: processes to play on (``None``: every core); the
    result is the same for any ``jobs`` (see the module docstring).

    ``stop`` (a job's deadline or Cancel: :meth:`krypteach.play.limits.JobCaps.deadline`)
    bounds the run inside a giv as well as between givar: called before every move
    of random bots (played here), and, for the other bots, every tenth of a second
    while worker processes play (even with ``jobs=1``; they are terminated when it
    raises, see :func:`in_order`), or before every move where no process can start.
    What it raises (:class:`~krypteach.play.limits.Cancelled`) ends the run.
    """
    rules = rules or Rules()
    names = seat_bots(bots, rules.players)
    if isinstance(givar, bool) or not isinstance(givar, int) or givar < 1:
        raise ValueError(f"givar={givar!r} is not allowed: it must be a whole number, 1 or more")
    jobs = check_jobs(jobs)
    rng = random.Random(seed)
    bot_seeds = [rng.getrandbits(32) for _ in names]
    sim = Simulation(rules, tuple(names))
    bar = None
    if progress is not False:
        from tqdm.auto import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=givar, unit="giv", disable=None if progress is None else not progress)

    def finished(dealer: int, g: Giv, result: GivResult) -> None:
        sim.results.append(result)
        sim.dealers.append(dealer)
        if keep:
            sim.givar.append(g)
        if on_giv:
            on_giv(g)
        if bar is not None:
            bar.update(1)

    try:
        if all(n == "random" for n in names):  # one random stream: in order, here
            stream = make_bot("random", seed=bot_seeds[0]).rng  # type: ignore[attr-defined]
            for i in range(givar):
                g = _fast_random_giv(rules, stream, i % rules.players, rng.getrandbits(64), stop)
                finished(i % rules.players, g, g.result)
            return sim
        items = [(i, i % rules.players, rng.getrandbits(64)) for i in range(givar)]
        dealers = {i: (dealer, deck) for i, dealer, deck in items}
        chunks = chunked(items, jobs)
        send = _pooled(jobs, len(chunks), stop)  # worker processes send moves back; the giv is replayed here

        def emit(item: Any) -> None:
            i, result, g = item
            dealer, deck = dealers[i]
            if send and (keep or on_giv):
                g = replay_giv(rules, dealer, deck, g)
            finished(dealer, g, result)

        work: Callable[[Any], list[Any]] = (_play_givar if send else lambda job: _play_givar(job, stop))
        in_order(work, [(rules, names, bot_seeds, chunk, send) for chunk in chunks], jobs, emit, stop=stop)
    finally:
        if bar is not None:
            bar.close()
    return sim
