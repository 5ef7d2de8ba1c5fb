"""Adaptive puzzle practice (issue 23): simulated learners work through the trainer.

Run:  python benchmarks/practice_sim.py [--seed 1] [--learners 200] [--puzzles 2000] [--json FILE]

Learners of known skill per theme answer puzzles of known true difficulty: a learner solves a
puzzle with probability 1 / (1 + 10^((difficulty - skill) / 400)), where skill is the *mean* of
the learner's skills in the puzzle's themes. The trainer knows none of this: it starts every
puzzle at its true difficulty plus noise (``--estimate-noise``, a stand-in for the estimate from
the puzzle's features) with rd 200, every learner at 1500 ± 350, and learns only from the
attempts' outcomes, with ``krypteach.teaching.practice``: ``choose`` (difficulty "normal",
lean ``LEAN`` with the other draws spread over the sets of themes, excluding the puzzles the learner has seen), ``attempt`` for
the ratings and ``fit_themes`` for the learner's themes (fitted to all their answers, with the puzzles' ratings as they
are, as the product's ``PracticeBook.learner`` does), ``enqueue``/``review``/``due``/``mix`` to bring failed puzzles back.

The puzzles are shared: the learners take turns, one puzzle each, round-robin, as in a class,
so puzzle ratings improve while they work. A simulated clock: one puzzle a minute, a lesson of
40 minutes a day. A failed new puzzle is enqueued; ``mix`` makes every third puzzle of a lesson a
due one when any is due. Such a reattempt counts as one of the learner's puzzles but is not
rated (the learner has seen the answer), only graded for the queue ("good" or "again"); the
simulated learner solves it with the same probability as the first time (no memory modelled).

After 30, 100 and 200 puzzles per learner (``--checkpoints``) it prints, each on a line: the rank correlation (Spearman)
of true and estimated skill overall (true overall = the mean of the nine theme skills) and per
theme (the mean over themes of the correlation among learners with >= 3 rated attempts in it),
the puzzles' ratings against their true difficulty (Spearman, RMSE, and the starting estimate's
RMSE for the same puzzles: those rated >= 3 times), the weak themes found (the share of learners
whose truly weakest theme is among ``weak_themes(...)[:2]``; and, as a ceiling, the same share for
an oracle that knows the true difficulties, see ``ceiling``), the share of new puzzles served in
the learner's weak themes as estimated at the time and in the truly weakest theme (against that
theme's share of the pool), and the solve rates. Then a short extra pass:
``--extra-learners`` learners each continue with ``--extra-puzzles`` puzzles at each difficulty
(from their state after the last checkpoint; the shared puzzle ratings are not changed by it): the solve rate
per difficulty choice. A line per checkpoint says, for each theme, how often it was found when it was
the learner's truly weakest (by the trainer / by the oracle / of how many learners).

Two experiments beside the trainer (docs/practice.md, "The bound"): ``--ideal ANSWERS`` replaces the
trainer with an oracle that also chooses which theme sets to ask (``allocation_ceiling``): what any
way of choosing the puzzles could find from that many answers; ``--split-pairs`` is a what-if pool in
which every puzzle has one theme. Figures go in docs/practice.md.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from krypteach.teaching.practice import (
    DIFFICULTY_OFFSETS,
    LEAN,
    Item,
    Learner,
    QueueEntry,
    Rating,
    attempt,
    choose,
    due,
    enqueue,
    expected,
    fit_themes,
    mix,
    recent_misses,
    review,
    weak_themes,
)

THEMES = ("take-all", "tvangstabbe", "safest-card", "dukning", "endgame",
          "kasino-build", "kasino-steal", "kasino-owner-duty", "kasino-endgame")
#: ``--diagnose``, a what-if: a missed puzzle's themes a page could tell apart by the wrong answer. In
#: a *what must you take* a capture that leaves a träff behind breaks take-all, cards that do not add
#: up break träffar (the engine's ``explain``); in an endgame that klädda högen decides, a move as good
#: as the best were klädda högen empty forgot klädda högen (``prove.check_answer`` says so), where any
#: other wrong move may have missed either. Set up a dukning's wrong move does not show whether
#: tvångstabbe was forgotten.
TOLD_APART = {frozenset({"take-all", "traffar"}): ("take-all", "traffar"), frozenset({"endgame", "kladda"}): ("kladda",)}
DIAGNOSIS = False


def answer_themes(themes: tuple[str, ...], solved: bool, broke: str | None) -> tuple[str, ...]:
    """The themes a rated answer is fitted against: the one a miss was told to have broken, else all."""
    return (broke,) if broke is not None and not solved and broke in themes else themes
#: a lesson a day of this many minutes, one puzzle a minute
LESSON_MINUTES = 40
START = datetime(2025, 9, 1, 8, 0, tzinfo=UTC)
#: every third puzzle of a lesson is a due one (``mix``'s default); the new ones lean to the weakest theme
#: as often as the product's trainer leans (``LEAN``)
MIX_EVERY = 3


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (ties get their mean rank); nan for fewer than 3 pairs."""
    if len(xs) < 3:
        return math.nan

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2.0
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def p_solve(skill: dict[str, float], themes: tuple[str, ...], difficulty: float) -> float:
    s = statistics.fmean(skill[t] for t in themes)
    return 1.0 / (1.0 + 10.0 ** ((difficulty - s) / 400.0))


@dataclass
class SimLearner:
    skill: dict[str, float]
    #: the themes the learner was made weak in (300 below the rest, on top of the spread)
    weak: frozenset[str] = frozenset()
    overall: Rating = field(default_factory=Rating)
    themes: dict[str, Rating] = field(default_factory=dict)
    history: list[tuple[tuple[str, ...], bool]] = field(default_factory=list)
    rated: list[tuple[tuple[str, ...], bool, str]] = field(default_factory=list)
    attempts: dict[str, int] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    queue: dict[str, QueueEntry] = field(default_factory=dict)
    served: int = 0
    new: int = 0
    solved: int = 0
    new_solved: int = 0
    in_weak: int = 0
    in_truly_weakest: int = 0
    expected_sum: float = 0.0

    @property
    def true_overall(self) -> float:
        return statistics.fmean(self.skill.values())

    @property
    def weakest(self) -> str:
        return min(self.skill, key=self.skill.__getitem__)

    def view(self) -> Learner:
        return Learner(self.overall, self.themes, recent_misses(self.history))


def make_learners(rng: random.Random, n: int, gap: float = 300.0, spread: float = 150.0) -> list[SimLearner]:
    out = []
    for _ in range(n):
        base = rng.gauss(1500.0, 300.0)
        skill = {t: base + rng.gauss(0.0, spread) for t in THEMES}
        weak = rng.sample(THEMES, rng.choice((1, 2)))
        for t in weak:
            skill[t] -= gap
        out.append(SimLearner(skill, frozenset(weak)))
    return out


def product_themes(game: str) -> list[tuple[str, ...]]:
    """The themes of the puzzles one trainer (``krypkasino``: lesson 08's, ``kasino``: lesson 10's)
    chooses from: each shipped puzzle's, as the product tags them
    (:func:`krypteach.teaching.puzzles.fresh.themes_of`), and those of the puzzles it offers to make,
    as many of each kind and level as it offers at a time (``_AHEAD``, with the themes
    :func:`~krypteach.teaching.puzzles.fresh.offered_themes` says).

    >>> themes = product_themes("krypkasino")
    >>> themes.count(("endgame", "kladda"))  # one shipped, and two made at each of the three levels
    7
    """
    from krypteach.teaching.puzzles import load_puzzles
    from krypteach.teaching.puzzles.fresh import FRESH, offered_themes, themes_of
    from krypteach.widgets.practice_widget import _AHEAD
    shipped = [themes_of(p) for p in load_puzzles(game=game)]
    made = [offered_themes(kind, level) for preset, kind, level in FRESH if preset == game]
    return shipped + made * _AHEAD


def add_alone(spec: str, themes: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The theme sets ``--add-alone`` adds: ``"dukning=15,kladda=10"`` is 15 times ``("dukning",)``
    and 10 times ``("kladda",)``; each theme must be one of ``themes``.

    >>> add_alone("dukning=2,kladda=1", ("dukning", "kladda"))
    [('dukning',), ('dukning',), ('kladda',)]
    >>> add_alone("", ("dukning",))
    []
    >>> add_alone("build=3", ("dukning", "kladda"))
    Traceback (most recent call last):
    ...
    ValueError: --add-alone: 'build' is not a theme of this trainer (dukning, kladda)
    """
    out: list[tuple[str, ...]] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        theme, _, count = part.partition("=")
        if theme not in themes:
            raise ValueError(f"--add-alone: {theme!r} is not a theme of this trainer ({', '.join(themes)})")
        if not count.isdigit():
            raise ValueError(f"--add-alone: {part!r} needs a whole number of puzzles, as {theme}=10")
        out += [(theme,)] * int(count)
    return out


def make_puzzles(rng: random.Random, n: int, noise: float, tuples: list[tuple[str, ...]] | None = None,
                 split: bool = False) -> tuple[list[Item], dict[str, float], dict[str, float]]:
    """``n`` puzzles: each of 1 or 2 of :data:`THEMES` at random, or with ``tuples`` the themes of a
    product puzzle drawn at random (the product's own mix of themes and pairs). ``split`` (a what-if,
    not the product): a puzzle drawn with several themes has one of them alone."""
    items, truth, start = [], {}, {}
    for i in range(n):
        pid = f"p{i}"
        truth[pid] = rng.gauss(1500.0, 350.0)
        start[pid] = truth[pid] + rng.gauss(0.0, noise)
        themes = rng.choice(tuples) if tuples else tuple(rng.sample(THEMES, rng.choice((1, 2))))
        if split and len(themes) > 1:
            themes = (rng.choice(themes),)
        items.append(Item(pid, themes, Rating.estimated(start[pid])))
    return items, truth, start


class Trainer:
    def __init__(self, items: list[Item], truth: dict[str, float], rng: random.Random) -> None:
        self.items = items
        self.index = {item.id: i for i, item in enumerate(items)}
        self.truth = truth
        self.tries = dict.fromkeys(self.index, 0)
        self.rng = rng
        # the culprit of a miss is drawn apart, so that a run with and one without the diagnosis
        # serve the same puzzles until their estimates part
        self.blame = random.Random(rng.random())

    def step(self, lr: SimLearner, *, difficulty: str = "normal", lean: float | None = None, queue: bool = True,
             rate_puzzles: bool = True) -> bool:
        """One puzzle for ``lr``: a due one if ``mix`` says so, else a new one by ``choose``."""
        minute = lr.served
        now = START + timedelta(days=minute // LESSON_MINUTES, minutes=minute % LESSON_MINUTES)
        lr.served += 1
        key = mix([e.key for e in due(lr.queue.values(), now)], minute % LESSON_MINUTES, MIX_EVERY) if queue else None
        if key is not None:
            item = self.items[self.index[key]]
            solved = self.rng.random() < p_solve(lr.skill, item.themes, self.truth[key])
            lr.queue[key] = review(lr.queue[key], "good" if solved else "again", now)
            lr.solved += solved
            return solved
        view = lr.view()
        weak = set(weak_themes(view)[:2])
        pick = choose(self.items, view, difficulty=difficulty, rng=self.rng, exclude=lr.seen, lean=LEAN if lean is None else lean)
        item = pick.item
        lr.new += 1
        lr.in_weak += bool(weak.intersection(item.themes))
        lr.in_truly_weakest += lr.weakest in item.themes
        lr.expected_sum += expected(lr.overall, item.rating)
        solved = self.rng.random() < p_solve(lr.skill, item.themes, self.truth[item.id])
        lr.solved += solved
        lr.new_solved += solved
        lr.overall, puzzle = attempt(lr.overall, item.rating, solved)
        for t in item.themes:
            lr.attempts[t] = lr.attempts.get(t, 0) + 1
        if rate_puzzles:
            self.items[self.index[item.id]] = replace(item, rating=puzzle)
            self.tries[item.id] += 1
        lr.history.append((item.themes, solved))
        lr.rated.append((answer_themes(item.themes, solved, self.broke(lr, item, solved)), solved, item.id))
        # the learner's themes fitted to all their answers, the puzzles' ratings as they are now
        # (as the product's PracticeBook.learner does)
        lr.themes = fit_themes([(themes, float(ok), self.items[self.index[pid]].rating) for themes, ok, pid in lr.rated],
                               lr.overall, start={t: r.rating for t, r in lr.themes.items()})
        lr.seen.add(item.id)
        if queue and not solved:
            lr.queue[item.id] = enqueue(item.id, now)
        return solved


    def broke(self, lr: SimLearner, item: Item, solved: bool) -> str | None:
        """The theme a simulated wrong answer broke, where the product can tell (:data:`TOLD_APART`):
        the learner's miss is put down to one of the puzzle's themes, each with a chance in proportion
        to the learner's chance of missing a puzzle of that theme alone."""
        if solved or not DIAGNOSIS or len(item.themes) < 2:
            return None
        misses = [1.0 - p_solve(lr.skill, (t,), self.truth[item.id]) for t in item.themes]
        culprit = self.blame.choices(item.themes, weights=misses)[0]
        return culprit if culprit in TOLD_APART.get(frozenset(item.themes), ()) else None


def map_themes(rated: list[tuple[tuple[str, ...], bool, str]], truth: dict[str, float], centre: float,
               start: dict[str, float] | None = None, rounds: int = 12) -> dict[str, float]:
    """The MAP estimate of a learner's skill per theme from ``rated`` attempts (themes, solved, puzzle
    id) of puzzles whose *true* difficulties are ``truth``, by the sim's own model (skill = mean of
    the puzzle's themes), each theme's prior N(``centre``, 200²), by coordinate Newton steps from
    ``start`` (default: every theme at ``centre``)."""
    c = math.log(10.0) / 400.0
    prior = 200.0 ** -2
    s = dict(start) if start else dict.fromkeys(THEMES, centre)
    for _ in range(rounds):
        for t in THEMES:
            grad, hess = -(s[t] - centre) * prior, prior
            for themes, solved, pid in rated:
                if t in themes:
                    m = statistics.fmean(s[u] for u in themes)
                    p = 1.0 / (1.0 + math.exp(-c * (m - truth[pid])))
                    grad += c * (solved - p) / len(themes)
                    hess += c * c * p * (1.0 - p) / len(themes) ** 2
            s[t] += grad / hess
    return s


def ceiling(lr: SimLearner, truth: dict[str, float]) -> list[str]:
    """The themes from weakest to strongest as estimated by an oracle that knows the puzzles'
    *true* difficulties and the sim's model (skill = mean of the puzzle's themes): the MAP
    estimate from the learner's same rated attempts, each theme's prior N(the trainer's
    overall rating, 200²) (:func:`map_themes`). No trainer can know this much; it is
    the ceiling of what the attempts themselves say."""
    s = map_themes(lr.rated, truth, lr.overall.rating)
    return sorted(THEMES, key=s.__getitem__)


#: the policies of :func:`allocation_ceiling`
IDEAL_POLICIES = ("pool", "uniform", "lean", "top3")


def allocation_ceiling(rng: random.Random, learners: list[SimLearner], tuples: list[tuple[str, ...]], answers: int,
                       policy: str, chance: float) -> float:
    """The share of ``learners`` whose truly weakest theme an oracle finds among its two weakest after
    ``answers`` rated answers, when the oracle also *chooses* what to ask: each answer is to a puzzle
    of a theme set (one of ``tuples``, the puzzles' sets) whose true difficulty makes the learner's
    chance ``chance`` exactly, and the oracle fits :func:`map_themes` (prior centred on the learner's
    *true* overall skill). ``policy`` picks the theme sets: ``pool`` as the pool holds them (no
    leaning), ``uniform`` each distinct set alike, ``lean`` like the trainer (half the answers in a set
    holding the currently estimated weakest theme, after 10), ``top3`` (every third answer uniform,
    the others a set holding one of the 3 estimated weakest, after 15). No trainer knows this much;
    it bounds what any way of choosing the puzzles could find from that many answers."""
    sets = sorted(set(tuples))
    shift = 400.0 * math.log10(chance / (1.0 - chance))
    found = 0
    for lr in learners:
        centre = lr.true_overall
        rated: list[tuple[tuple[str, ...], bool, str]] = []
        truth: dict[str, float] = {}
        s = dict.fromkeys(THEMES, centre)
        for i in range(answers):
            if policy == "pool":
                themes = rng.choice(tuples)
            elif policy == "uniform":
                themes = rng.choice(sets)
            elif policy == "lean":
                if i < 10 or rng.random() >= 0.5:
                    themes = rng.choice(tuples)
                else:
                    weakest = min(THEMES, key=s.__getitem__)
                    themes = rng.choice([ts for ts in sets if weakest in ts])
            elif policy == "top3":
                if i < 15 or i % 3 == 0:
                    themes = rng.choice(sets)
                else:
                    bottom = set(sorted(THEMES, key=s.__getitem__)[:3])
                    themes = rng.choice([ts for ts in sets if bottom.intersection(ts)])
            else:
                raise ValueError(f"unknown policy {policy!r}: one of {', '.join(IDEAL_POLICIES)}")
            pid = f"i{i}"
            truth[pid] = statistics.fmean(lr.skill[t] for t in themes) - shift
            rated.append((themes, rng.random() < chance, pid))
            if policy in ("lean", "top3"):
                s = map_themes(rated, truth, centre, s, rounds=3)
        s = map_themes(rated, truth, centre, s)
        found += lr.weakest in sorted(THEMES, key=s.__getitem__)[:2]
    return found / len(learners)


def report(label: str, learners: list[SimLearner], trainer: Trainer, start: dict[str, float]) -> dict[str, float]:
    overall = spearman([lr.true_overall for lr in learners], [lr.overall.rating for lr in learners])
    per_theme = {}
    for t in THEMES:
        pool = [lr for lr in learners if lr.attempts.get(t, 0) >= 3]
        per_theme[t] = (spearman([lr.skill[t] for lr in pool], [lr.themes[t].rating for lr in pool]), len(pool))
    theme_mean = statistics.fmean(r for r, _ in per_theme.values() if not math.isnan(r))
    rated = [item for item in trainer.items if trainer.tries[item.id] >= 3]
    truth = [trainer.truth[item.id] for item in rated]
    now = [item.rating.rating for item in rated]
    first = [start[item.id] for item in rated]
    rmse = math.sqrt(statistics.fmean((a - b) ** 2 for a, b in zip(now, truth))) if rated else math.nan
    rmse0 = math.sqrt(statistics.fmean((a - b) ** 2 for a, b in zip(first, truth))) if rated else math.nan
    found = statistics.fmean(lr.weakest in weak_themes(lr.view())[:2] for lr in learners)
    # the measure: the learner's weak themes (those they were made weak in) found, that is
    # the trainer's weakest theme is one of them
    found_weak = statistics.fmean(bool(lr.weak.intersection(weak_themes(lr.view())[:1])) for lr in learners)
    oracles = [ceiling(lr, trainer.truth) for lr in learners]
    oracle = statistics.fmean(lr.weakest in o[:2] for lr, o in zip(learners, oracles))
    # where the weakest theme is missed: per truly weakest theme, found by the trainer / by the oracle / learners
    by_theme = {t: [0, 0, 0] for t in THEMES}
    for lr, o in zip(learners, oracles):
        got = by_theme[lr.weakest]
        got[0] += lr.weakest in weak_themes(lr.view())[:2]
        got[1] += lr.weakest in o[:2]
        got[2] += 1
    new = sum(lr.new for lr in learners)
    pool = statistics.fmean(sum(lr.weakest in item.themes for item in trainer.items) for lr in learners) / len(
        trainer.items)
    figures = {
        "rank correlation overall": overall,
        "rank correlation per theme (mean over themes)": theme_mean,
        "rank correlation per theme (lowest theme)": min(r for r, _ in per_theme.values()),
        "learners with >= 3 attempts per theme (mean over themes)": statistics.fmean(n for _, n in per_theme.values()),
        "puzzles rated >= 3 times": float(len(rated)),
        "puzzle rank correlation with true difficulty": spearman(truth, now),
        "puzzle rating RMSE": rmse,
        "puzzle starting estimate RMSE (same puzzles)": rmse0,
        "weak themes found (the trainer's weakest theme is one the learner was made weak in)": found_weak,
        "weak themes found (truly weakest among weak_themes[:2])": found,
        "weak themes found by an oracle knowing the true difficulties (ceiling)": oracle,
        "share of new puzzles in the estimated weak themes": sum(lr.in_weak for lr in learners) / new,
        "share of new puzzles in the truly weakest theme": sum(lr.in_truly_weakest for lr in learners) / new,
        "share of the pool's puzzles in the truly weakest theme (no leaning)": pool,
        "share of reattempts (queue) among puzzles": 1.0 - new / sum(lr.served for lr in learners),
        "solve rate": sum(lr.solved for lr in learners) / sum(lr.served for lr in learners),
        "solve rate of new puzzles": sum(lr.new_solved for lr in learners) / new,
        "mean expected success of the new puzzles (by the trainer's ratings)":
            sum(lr.expected_sum for lr in learners) / new,
    }
    goals = {"rank correlation overall": " (goal ≥ 0.9 after 100)",
             "weak themes found (the trainer's weakest theme is one the learner was made weak in)":
                 " (goal ≥ 0.8 after 100)"}
    for name, value in figures.items():
        shown = f"{value:.0f}" if name.startswith(("puzzles rated", "puzzle rating RMSE", "puzzle starting")) \
            else f"{value:.3f}"
        print(f"{name} after {label}: {shown}{goals.get(name, '')}")
    print(f"weak theme found per truly weakest theme (trainer/oracle/learners) after {label}: "
          + ", ".join(f"{t} {a}/{b}/{n}" for t, (a, b, n) in by_theme.items() if n))
    figures.update({f"weak theme found when the truly weakest is {t}": a / n
                    for t, (a, _b, n) in by_theme.items() if n})
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--learners", type=int, default=200)
    ap.add_argument("--puzzles", type=int, default=2000)
    ap.add_argument("--estimate-noise", type=float, default=250.0)
    ap.add_argument("--extra-learners", type=int, default=50)
    ap.add_argument("--extra-puzzles", type=int, default=20)
    ap.add_argument("--checkpoints", default="30,100,200", help="report after these many puzzles per learner")
    ap.add_argument("--weak-gap", type=float, default=300.0, help="how far below the rest a weak theme lies")
    ap.add_argument("--spread", type=float, default=150.0, help="the spread of a learner's other themes (one sd)")
    ap.add_argument("--trainer", choices=("mixed", "krypkasino", "kasino"), default="mixed",
                    help="mixed: the nine theme keys, each puzzle 1 or 2 of them at random; krypkasino / kasino: "
                         "the themes of one trainer of the product, each puzzle's themes those of a puzzle it chooses "
                         "from (a shipped one, or one it offers to make: product_themes)")
    ap.add_argument("--split-pairs", action="store_true",
                    help="a what-if, not the product: each puzzle that would have several themes has one of them alone "
                         "(what puzzles that train one theme at a time would give)")
    ap.add_argument("--add-alone", metavar="THEME=N,…", default="",
                    help="a what-if, not the product (with --trainer krypkasino or kasino): N puzzles of THEME alone "
                         "added to the shipped puzzles' theme sets, as new kinds beside today's would add them")
    ap.add_argument("--ideal", metavar="ANSWERS", type=int,
                    help="instead of the trainer: the share of learners whose weakest theme an oracle that knows every "
                         "puzzle's true difficulty and chooses the theme sets finds after ANSWERS rated answers "
                         "(allocation_ceiling), per policy")
    ap.add_argument("--ideal-policies", default=",".join(IDEAL_POLICIES))
    ap.add_argument("--ideal-chance", type=float, default=0.69, help="the learner's chance on each --ideal puzzle")
    ap.add_argument("--diagnose", action="store_true",
                    help="a what-if: a miss the wrong answer tells apart (TOLD_APART) is fitted against the theme it broke")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    global THEMES, DIAGNOSIS
    DIAGNOSIS = args.diagnose
    tuples = None
    if args.trainer != "mixed":
        tuples = product_themes(args.trainer)
        THEMES = tuple(sorted({t for ts in tuples for t in ts}))
        try:
            tuples += add_alone(args.add_alone, THEMES)
        except ValueError as err:
            ap.error(str(err))
        print(f"themes of the {args.trainer} trainer: {', '.join(THEMES)}; puzzles with 2 themes: "
              f"{sum(len(ts) == 2 for ts in tuples) / len(tuples):.2f}")
    elif args.add_alone:
        ap.error("--add-alone needs --trainer krypkasino or kasino")
    t0 = time.perf_counter()
    rng = random.Random(args.seed)
    learners = make_learners(rng, args.learners, args.weak_gap, args.spread)
    if args.ideal is not None:
        sets = tuples or [tuple(rng.sample(THEMES, rng.choice((1, 2)))) for _ in range(args.puzzles)]
        if args.split_pairs:
            sets = [(rng.choice(ts),) if len(ts) > 1 else ts for ts in sets]
        for policy in args.ideal_policies.split(","):
            share = allocation_ceiling(rng, learners, sets, args.ideal, policy, args.ideal_chance)
            print(f"weakest theme among an oracle's two weakest after {args.ideal} answers at chance "
                  f"{args.ideal_chance:.2f}, theme sets chosen {policy}: {share:.3f}", flush=True)
        print(f"run time: {time.perf_counter() - t0:.1f} s")
        return
    items, truth, start = make_puzzles(rng, args.puzzles, args.estimate_noise, tuples, args.split_pairs)
    trainer = Trainer(items, truth, rng)
    out: dict[str, object] = {"seed": args.seed, "learners": args.learners, "puzzles": args.puzzles,
                              "estimate_noise": args.estimate_noise, "trainer": args.trainer,
                              "split_pairs": args.split_pairs, "add_alone": args.add_alone,
                              "diagnosis": DIAGNOSIS}
    done = 0
    checkpoints = sorted({int(c) for c in args.checkpoints.split(",")})
    for checkpoint in checkpoints:
        for _ in range(checkpoint - done):
            for lr in learners:
                trainer.step(lr)
        done = checkpoint
        out[f"after {checkpoint}"] = report(str(checkpoint), learners, trainer, start)
    rates = {}
    for difficulty in DIFFICULTY_OFFSETS:
        solved = served = 0
        for lr in learners[: args.extra_learners]:
            copy = replace(lr, themes=dict(lr.themes), history=list(lr.history), rated=list(lr.rated),
                           attempts=dict(lr.attempts), seen=set(lr.seen), queue={})
            for _ in range(args.extra_puzzles):
                solved += trainer.step(copy, difficulty=difficulty, queue=False, rate_puzzles=False)
                served += 1
        rates[difficulty] = solved / served if served else float("nan")
        print(f"solve rate at {difficulty!r} (offset {DIFFICULTY_OFFSETS[difficulty]:+.0f}; "
              f"{args.extra_learners} learners × {args.extra_puzzles} puzzles after {checkpoints[-1]}): {rates[difficulty]:.3f}")
    out["solve rate per difficulty"] = rates
    seconds = time.perf_counter() - t0
    print(f"run time: {seconds:.1f} s")
    out["seconds"] = seconds
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
