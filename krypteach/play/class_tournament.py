"""A class tournament, duplicate style (issue 24): every learner plays the same deals, from
every seat, against the same bot, so the luck of the cards cancels out.

Not to be confused with :mod:`krypteach.play.tournament` (bots against bots on the command
line), whose idea of *duplicate deals* this shares: deal ``k`` is one shuffled deck and one
dealer, drawn from the tournament's seed before anything is played. A learner plays deal ``k``
once from each seat (for two players: twice, the seats swapped), the other seats played by the
bot of the teacher's level, seeded by the deal and the seat alone: two learners who make the same
moves meet the same bot's moves. Each learner plays the givar in the same order
(:attr:`ClassTournament.schedule`: every deal from seat 0, then every deal from seat 1, …), so
at any moment two learners who have played as many givar have played **the same givar**.

The standings (:meth:`ClassTournament.standings`) rank by the total score of the givar played,
in the game's sense (:attr:`~krypteach.engine.games.base.Game.lower_is_better`: the lowest wins
in Krypkasino and avig kasino, the highest in classic Kasino), ties broken by **move quality**:
the share of the learner's decisions the coach's review (:mod:`krypteach.bots.review`) judges as
good as the best (:attr:`~krypteach.bots.review.Decision.as_good_as_best`). A learner who has
played fewer givar than others is ranked after them (their totals are over other givar), and
says so: ``played`` of ``givar_each``.

Each giv is played at a :class:`~krypteach.play.table.Table` of that one giv
(:meth:`ClassTournament.table`): the server seats the learner there, and :meth:`ClassTournament.play`
seats a bot standing in for a learner (the tests, a teacher's dry run) at the very same table.

>>> t = ClassTournament(Rules.preset("kasino"), deals=2, bot="random", seed=5)
>>> t.givar_each, t.schedule
(4, [(0, 0), (1, 0), (0, 1), (1, 1)])
>>> g = t.play(0, 1, make_bot("random", seed=9))
>>> g.is_over, g.dealer == t.giv(0, 1).dealer, g.hands == [[], []]
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..bots import BOT_LEVELS, Bot, BotError, make_bot
from ..bots.review import Review, review_giv
from ..engine.game import Giv
from ..engine.games import game_of
from ..engine.records import load_givar
from ..engine.rules import Rules
from ..i18n import _
from .table import Table

__all__ = ["MOST_DEALS", "ClassTournament", "Played", "Standing", "TournamentError", "giv_quality", "review_counts"]

#: the most deals a class tournament has (with two players, each is played twice)
MOST_DEALS = 20


class TournamentError(ValueError):
    """A tournament that cannot be held as asked: one sentence saying why."""


@dataclass(frozen=True)
class Played:
    """One finished giv of a learner's tournament: deal ``deal`` from seat ``seat``, its score,
    and the coach's count of the learner's decisions (``None`` until the review is done)."""

    learner: int
    name: str
    deal: int
    seat: int
    score: int
    #: the decisions played as well as the best (:attr:`~krypteach.bots.review.Decision.as_good_as_best`)
    good: int | None = None
    #: the decisions with a real choice
    decisions: int | None = None


@dataclass(frozen=True)
class Standing:
    """One learner's line of the standings."""

    rank: int
    learner: int
    name: str
    #: givar played, of the tournament's :attr:`ClassTournament.givar_each`
    played: int
    of: int
    score: int
    #: decisions as good as the best, and decisions reviewed (over the givar reviewed)
    good: int
    decisions: int
    #: givar the coach has reviewed (the rest are being reviewed)
    reviewed: int

    @property
    def quality(self) -> float | None:
        """Move quality: the share of the learner's decisions as good as the best (None: none yet)."""
        return self.good / self.decisions if self.decisions else None

    @property
    def complete(self) -> bool:
        return self.played >= self.of


def review_counts(review: Review) -> tuple[int, int]:
    """(decisions as good as the best, decisions) of a coach's review: a giv's move quality."""
    return sum(d.as_good_as_best for d in review.decisions), len(review.decisions)


def giv_quality(record: str, seat: int, samples: int = 24) -> tuple[int, int]:
    """(decisions as good as the best, decisions) of ``seat`` in the giv of ``record`` (game
    records' text, one giv): the coach's review (:func:`~krypteach.bots.review.review_giv`). A
    module-level function, so that a server can run it in a worker process of its own."""
    [g] = load_givar(record)
    return review_counts(review_giv(g, seat, samples=samples))


class ClassTournament:
    """A class tournament of ``deals`` deals under ``rules``, against the bot ``bot``, its decks
    drawn from ``seed``: see the module docstring. Bad numbers raise :class:`TournamentError`.

    >>> ClassTournament(Rules(), deals=0)
    Traceback (most recent call last):
    krypteach.play.class_tournament.TournamentError: a tournament has 1 to 20 deals, not 0
    """

    def __init__(self, rules: Rules, deals: int, bot: str = "careful", seed: int = 0) -> None:
        if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MOST_DEALS:
            raise TournamentError(_("a tournament has 1 to {most} deals, not {deals}").format(
                most=MOST_DEALS, deals=str(deals)[:12]))
        if not isinstance(bot, str) or bot not in BOT_LEVELS:
            raise TournamentError(_("the tournament's bot is one of {levels}, not {bot}").format(
                levels=", ".join(BOT_LEVELS), bot=str(bot)[:20]))
        try:
            make_bot(bot, seed=0, rules=rules)
        except BotError:
            raise TournamentError(_("the {bot} bot cannot play {game}: choose another level").format(
                bot=bot, game=game_of(rules).title)) from None
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TournamentError(_("a tournament's seed is a whole number"))
        self.rules, self.deals, self.bot, self.seed = rules, deals, bot, seed
        rng = random.Random(seed)
        #: (dealer, deck seed) of each deal, drawn in order before anything is played
        self.decks = [(k % rules.players, rng.getrandbits(64)) for k in range(deals)]

    @property
    def lower_is_better(self) -> bool:
        """The game's direction: the lowest score wins (Krypkasino, avig kasino) or the highest."""
        return game_of(self.rules).lower_is_better

    @property
    def schedule(self) -> list[tuple[int, int]]:
        """Every learner's givar, in the order each plays them: (deal, seat), every deal from seat 0
        first, then from seat 1, and so on."""
        return [(k, s) for s in range(self.rules.players) for k in range(self.deals)]

    @property
    def givar_each(self) -> int:
        return self.deals * self.rules.players

    def next_for(self, done: Iterable[tuple[int, int]]) -> tuple[int, int] | None:
        """The next (deal, seat) of a learner who has played ``done``; None when they have played all."""
        have = set(done)
        return next((ks for ks in self.schedule if ks not in have), None)

    def _check(self, deal: int, seat: int) -> None:
        if not (0 <= deal < self.deals and 0 <= seat < self.rules.players):
            raise TournamentError(_("the tournament has no giv of deal {deal} from seat {seat}").format(
                deal=deal, seat=seat))

    def giv(self, deal: int, seat: int) -> Giv:
        """The giv of ``deal`` as it is dealt (the same cards from every seat, for every learner)."""
        self._check(deal, seat)
        dealer, deck = self.decks[deal]
        return Giv(self.rules, dealer=dealer, seed=deck)

    def bot_seed(self, deal: int, seat: int) -> int:
        """The seed of the bots of the giv of ``deal`` played from ``seat`` (the same for every learner)."""
        return (self.decks[deal][1] + 7919 * seat) & 0x7FFFFFFF

    def table(self, code: str, deal: int, seat: int, *, replace_after: float = 60.0,
              on_giv: Callable[[Table, Giv], None] | None = None) -> Table:
        """The table of one tournament giv, its other seats the tournament's bot: the learner sits
        down at ``seat`` (:meth:`Table.sit <krypteach.play.table.Table.sit>` with ``seat=seat``).
        Its view says which giv of the tournament it is (``about``: number from 1, of how many)."""
        number = self.schedule.index((deal, seat)) + 1
        return Table(code, self.rules, seed=self.bot_seed(deal, seat), bot=self.bot, replace_after=replace_after,
                     on_giv=on_giv, one_giv=self.giv(deal, seat),
                     about={"tournament": {"number": number, "of": self.givar_each}})

    def play(self, deal: int, seat: int, learner: Bot) -> Giv:
        """The giv of ``deal`` played from ``seat`` by ``learner`` (a bot standing in for a learner) at
        the tournament's table, against its bot: what a learner would meet with the same moves."""
        table = self.table("TEST", deal, seat)
        token = table.sit("stand-in", seat=seat)
        while not table.giv.is_over:
            if table.giv.turn == seat:
                v = table.view(token)
                table.move(token, str(learner.choose(table.giv.observation(seat))), version=v["version"])
            else:
                table.tick(now=0.0)
        return table.giv

    def standings(self, played: Iterable[Played], learners: Sequence[tuple[int, str]] = ()) -> list[Standing]:
        """The standings of the givar ``played`` (a giv counted once per learner, deal and seat;
        ``learners`` who have played none yet are listed too): see the module docstring.

        >>> t = ClassTournament(Rules(), deals=1, bot="random")
        >>> rows = [Played(1, "Ann", 0, 0, 3, 9, 10), Played(2, "Bo", 0, 0, -2, 5, 10), Played(2, "Bo", 0, 1, 1, 8, 10)]
        >>> [(s.rank, s.name, s.played, s.score, s.quality) for s in t.standings(rows, [(3, "Cy")])]
        [(1, 'Bo', 2, -1, 0.65), (2, 'Ann', 1, 3, 0.9), (3, 'Cy', 0, 0, None)]
        """
        seen: dict[tuple[int, int, int], Played] = {}
        names: dict[int, str] = dict(learners)
        for p in played:
            seen.setdefault((p.learner, p.deal, p.seat), p)
            names.setdefault(p.learner, p.name)
        sums: dict[int, list[int]] = {i: [0, 0, 0, 0, 0] for i in names}  # played, score, good, decisions, reviewed
        for p in seen.values():
            s = sums[p.learner]
            s[0] += 1
            s[1] += p.score
            if p.good is not None and p.decisions is not None:
                s[2] += p.good
                s[3] += p.decisions
                s[4] += 1
        sign = 1 if self.lower_is_better else -1

        def key(i: int) -> tuple[int, int, float]:
            played_, score, good, decisions, _reviewed = sums[i]
            return -played_, sign * score, -(good / decisions) if decisions else 1.0

        order = sorted(names, key=lambda i: (key(i), names[i].casefold(), i))
        out: list[Standing] = []
        for n, i in enumerate(order):
            rank = out[-1].rank if out and key(order[n - 1]) == key(i) else n + 1
            played_, score, good, decisions, reviewed = sums[i]
            out.append(Standing(rank, i, names[i], played_, self.givar_each, score, good, decisions, reviewed))
        return out
