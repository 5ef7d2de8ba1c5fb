"""Play many givar with bots and summarise them.

>>> s = simulate(Rules(), givar=3, seed=1)
>>> len(s.results), round(sum(sum(r.card_points) for r in s.results) / 3)
(3, 42)
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..bots import Bot, make_bot
from ..engine.game import Giv
from ..engine.rules import Rules
from ..engine.scoring import GivResult

__all__ = ["Simulation", "play_giv", "seat_bots", "simulate"]


def play_giv(rules: Rules, bots: Sequence[Bot], *, dealer: int = 0, seed: int | None = None) -> Giv:
    """Play one whole giv, ``bots[seat]`` choosing for each seat; returns the finished giv."""
    g = Giv(rules, dealer=dealer, seed=seed)
    while not g.is_over:
        move = bots[g.turn].choose(g.observation())
        g.play(move)
    return g


def _fast_random_giv(rules: Rules, rng: random.Random, dealer: int, seed: int) -> Giv:
    g = Giv(rules, dealer=dealer, seed=seed)
    choice = rng.choice
    while not g.is_over:
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

    def summary(self) -> str:
        n = self.rules.players
        lines = [f"{len(self.results)} givar, {self.rules.describe()}, bots: {', '.join(self.bots)}"]
        means = self.mean_scores()
        lines.append("mean score per seat: " + ", ".join(f"seat {s}: {means[s]:+.2f}" for s in range(n)))
        lines.append(f"tabbar per giv: {self.tabbar_per_giv():.2f}")
        lines.append(f"last capturer's sweep (table + klädda högen) holds card points in {100 * self.aside_scoring_share():.1f}% of givar")
        lines.append(f"dealer's seat wins {100 * self.dealer_win_share():.1f}% of givar; "
                     f"a giv ends with a negative score in {100 * self.negative_share():.1f}%")
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
             keep: bool = False, progress: bool | None = False, on_giv: Callable[[Giv], None] | None = None) -> Simulation:
    """Play ``givar`` givar (dealer rotating) with the named bots (default: random for every seat).

    ``progress`` shows a tqdm bar (``None``: only on a terminal); ``keep``
    keeps every finished giv (for records); ``on_giv`` is called with each.
    """
    rules = rules or Rules()
    names = seat_bots(bots, rules.players)
    if isinstance(givar, bool) or not isinstance(givar, int) or givar < 1:
        raise ValueError(f"givar={givar!r} is not allowed: it must be a whole number, 1 or more")
    rng = random.Random(seed)
    players = [make_bot(name, seed=rng.getrandbits(32)) for name in names]
    sim = Simulation(rules, tuple(names))
    iterator = range(givar)
    if progress is not False:
        from tqdm.auto import tqdm

        iterator = tqdm(iterator, total=givar, unit="giv", disable=None if progress is None else not progress)
    all_random = all(n == "random" for n in names)
    for i in iterator:
        dealer = i % rules.players
        giv_seed = rng.getrandbits(64)
        if all_random:
            g = _fast_random_giv(rules, players[0].rng, dealer, giv_seed)  # type: ignore[attr-defined]
        else:
            g = play_giv(rules, players, dealer=dealer, seed=giv_seed)
        sim.results.append(g.result)
        sim.dealers.append(dealer)
        if keep:
            sim.givar.append(g)
        if on_giv:
            on_giv(g)
    return sim
