"""Glicko-2 ratings for learners, puzzles and a learner's themes, as lichess rates puzzles.

One puzzle attempt is one game: the learner plays the puzzle, scores 1 if solved and 0 if
not, and both are updated by Glicko-2 as one rating period each (Glickman, "Example of the
Glicko-2 system", 2013). A well-measured puzzle (small ``rd``) moves little; a new learner
(``rd`` 350) moves a lot and barely moves the puzzle, because Glicko-2 weights an opponent's
result by that opponent's certainty.

>>> learner, puzzle = attempt(Rating(), Rating.estimated(1500.0), solved=True)
>>> learner.rating > 1500.0 > puzzle.rating
True
>>> round(expected(Rating(1700.0, 50.0), Rating(1500.0, 50.0)), 2)
0.76
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "MIN_RD",
    "MAX_RD",
    "ESTIMATE_RD",
    "Rating",
    "glicko2",
    "expected",
    "attempt",
    "THEME_SPREAD",
    "theme_start",
    "FIT_ROUNDS",
    "FIT_TOLERANCE",
    "fit_themes",
]

#: Glicko-2's scale factor between the rating scale and its internal (mu, phi) scale: 400 / ln 10
SCALE = 173.7178
#: the deviation of a rating nobody knows anything about (Glickman's default, lichess's too)
MAX_RD = 350.0
#: The floor of every ``rd``. A learner keeps improving: a learner (or theme) measured to within
#: a few points would no longer follow the learner's progress, so the deviation never shrinks
#: below this. lichess keeps the same floor (its ``Glicko.minDeviation`` is 45). With one attempt
#: a rating period and the volatility at 0.06, the rd settles near 60 by itself; the floor holds
#: once the volatility has fallen (a steady learner) or for many results in one period.
MIN_RD = 45.0
#: the deviation of an estimated puzzle rating (:meth:`Rating.estimated`)
ESTIMATE_RD = 200.0
#: how far a learner's skill in one theme may lie from their overall rating, one deviation: the
#: prior of a theme never tried (:func:`theme_start`)
THEME_SPREAD = 200.0
#: the convergence tolerance of the volatility's Illinois iteration (Glickman's paper)
EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: ``rating`` on the familiar Elo-like scale, its deviation ``rd``
    (about a 95 % interval of ± 2 rd) and its volatility ``vol``.

    >>> Rating()
    Rating(rating=1500.0, rd=350.0, vol=0.06)
    >>> Rating.from_dict(Rating(1612.5, 80.0).to_dict())
    Rating(rating=1612.5, rd=80.0, vol=0.06)
    """

    rating: float = 1500.0
    rd: float = MAX_RD
    vol: float = 0.06

    @classmethod
    def estimated(cls, rating: float) -> Rating:
        """A puzzle's first rating from an estimate of its difficulty (from its features,
        before anyone tried it): such an estimate is known to within about ± 400 points, so
        ``rd`` is :data:`ESTIMATE_RD` (200; two deviations either side).

        >>> Rating.estimated(1720.0)
        Rating(rating=1720.0, rd=200.0, vol=0.06)
        """
        return cls(float(rating), ESTIMATE_RD)

    def to_dict(self) -> dict[str, float]:
        """The rating as a JSON-serialisable dict (``from_dict`` reads it back)."""
        return {"rating": self.rating, "rd": self.rd, "vol": self.vol}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rating:
        """Read :meth:`to_dict`'s dict, checking it.

        >>> Rating.from_dict({"rating": 1500, "rd": 0, "vol": 0.06})
        Traceback (most recent call last):
        ...
        ValueError: a rating's rd must be in (0, 350], not 0
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a rating must be a dict with rating, rd and vol, not {type(data).__name__}")
        values: dict[str, float] = {}
        for name in ("rating", "rd", "vol"):
            if name not in data:
                raise ValueError(f"a rating needs {name!r} (it has {sorted(map(str, data))})")
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"a rating's {name} must be a finite number, not {value!r}")
            values[name] = float(value)
        if not 0.0 < values["rd"] <= MAX_RD:
            raise ValueError(f"a rating's rd must be in (0, {MAX_RD:g}], not {data['rd']!r}")
        if values["vol"] <= 0.0:
            raise ValueError(f"a rating's vol must be > 0, not {data['vol']!r}")
        return cls(values["rating"], values["rd"], values["vol"])


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """Glicko-2's expected score E of ``player`` against ``opponent``: the logistic curve
    of the rating difference (400 points = ten to one), flattened by the opponent's ``rd``.
    For a learner against a puzzle it is the chance the learner solves it.

    >>> expected(Rating(), Rating())
    0.5
    >>> round(expected(Rating(1900.0, 45.0), Rating(1500.0, 45.0)), 3)
    0.907
    """
    return _e((player.rating - 1500.0) / SCALE, (opponent.rating - 1500.0) / SCALE, opponent.rd / SCALE)


def _clamp_rd(rd: float) -> float:
    return min(MAX_RD, max(MIN_RD, rd))


def glicko2(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = 0.75) -> Rating:
    """``player`` after one rating period of ``results`` (opponent, score 0..1), step by step
    as in Glickman's paper, the volatility by its Illinois algorithm. With no results only
    the deviation grows (phi* = sqrt(phi² + sigma²)). The new ``rd`` is clamped to
    [:data:`MIN_RD`, :data:`MAX_RD`].

    The paper's example (tau 0.5):

    >>> r = glicko2(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0),
    ...                                      (Rating(1700, 300), 0)], tau=0.5)
    >>> round(r.rating, 2), round(r.rd, 2), round(r.vol, 6)
    (1464.05, 151.52, 0.059996)
    """
    if not tau > 0:
        raise ValueError(f"tau must be > 0, not {tau!r}")
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.vol
    if not results:
        return Rating(float(player.rating), _clamp_rd(math.sqrt(phi * phi + sigma * sigma) * SCALE), float(sigma))

    # step 3 and 4: the estimated variance v and improvement delta
    v_inv = 0.0
    total = 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score must be between 0 and 1, not {score!r}")
        mu_j = (opponent.rating - 1500.0) / SCALE
        g = _g(opponent.rd / SCALE)
        e = _e(mu, mu_j, opponent.rd / SCALE)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total

    # step 5: the new volatility, the Illinois algorithm on f(x) = 0
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)

    # step 6 and 7: the new deviation and rating
    phi_star = math.sqrt(phi2 + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(new_mu * SCALE + 1500.0, _clamp_rd(new_phi * SCALE), new_sigma)


def attempt(learner: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The learner and the puzzle after one attempt, each updated as one game against the
    other's rating *before* the attempt: the learner scores 1 if ``solved``, the puzzle the
    opposite.

    The puzzle is updated by the same Glicko-2 with its own ``rd``; nothing else damps it.
    Its deviation shrinks with every attempt, so a puzzle many learners have tried is well
    measured and moves little, and a new learner (``rd`` 350) moves it little too, since
    Glicko-2 discounts a result by the opponent's uncertainty (``g(phi)``). lichess damps
    further by hand; the simulation (``benchmarks/practice_sim.py``) found no need.

    >>> learner, puzzle = attempt(Rating(1500, 100), Rating(1500, 100), solved=False)
    >>> learner.rating < 1500 < puzzle.rating
    True
    """
    won = 1.0 if solved else 0.0
    return glicko2(learner, [(puzzle, won)]), glicko2(puzzle, [(learner, 1.0 - won)])


def theme_start(overall: Rating, spread: float = THEME_SPREAD) -> Rating:
    """Where a theme the learner has never tried starts: at the learner's ``overall`` rating,
    as unsure as that rating is and as far as a theme may lie from it, ``rd`` =
    sqrt(overall.rd² + spread²) (at most :data:`MAX_RD`). A new learner's themes start as
    wide as their rating (350); an established learner's at about ± 200 around it, so a few
    answers in a theme move it, and it parts from the overall rating only by its own answers.

    >>> theme_start(Rating(1640.0, 60.0, 0.05))
    Rating(rating=1640.0, rd=208.8..., vol=0.05)
    >>> theme_start(Rating()).rd
    350.0
    """
    return Rating(overall.rating, min(MAX_RD, math.hypot(overall.rd, spread)), overall.vol)


#: the joint fit (:func:`fit_themes`) stops when no theme moved more than this many rating points in
#: a round, or after :data:`FIT_ROUNDS` rounds
FIT_TOLERANCE = 0.5
FIT_ROUNDS = 50


def fit_themes(
    answers: Sequence[tuple[Sequence[str], float, Rating]],
    overall: Rating,
    *,
    start: Mapping[str, float] | None = None,
) -> dict[str, Rating]:
    """The learner's rating in each theme their ``answers`` touch, fitted to all of them at once.

    ``answers`` are the learner's rated answers, each (the puzzle's themes, the score 0 to 1,
    the puzzle's rating). The model is Glicko-2's expected score (:func:`expected`) with the
    learner's skill in a puzzle the *mean* of their skills in its themes; each theme's prior is
    :func:`theme_start` of ``overall`` (the learner's rating, ± 200 and its own deviation). The
    fit is the most probable skills (a maximum a posteriori estimate, by Newton steps one theme at
    a time from ``start``, else from the prior, until none moves :data:`FIT_TOLERANCE`), each
    with the deviation its answers leave (one over the square root of the information, within
    :data:`MIN_RD` and :data:`MAX_RD`).

    Fitting all answers at once explains a miss away: a learner who solves every endgame alone and
    misses every endgame that klädda högen decides is weak in klädda högen, not in endgames. A
    rating per theme updated on its own, answer by answer, would lower both alike.
    (In the simulation, benchmarks/practice_sim.py, the fit found the weakest theme more often:
    docs/practice.md, "Stop 44: the themes fitted to every answer at once".)

    >>> solved, missed = [(("endgame",), 1.0, Rating(1500.0, 60.0))] * 4, [(("endgame", "kladda"), 0.0, Rating(1500.0, 60.0))] * 4
    >>> fit = fit_themes(solved + missed, Rating(1500.0, 60.0))
    >>> fit["kladda"].rating < 1400.0 < 1500.0 < fit["endgame"].rating
    True
    >>> fit_themes([], Rating())
    {}
    """
    prior = theme_start(overall)
    centre, weight = prior.rating, prior.rd ** -2
    c = math.log(10.0) / 400.0
    rows: list[tuple[tuple[str, ...], float, float, float]] = []
    for themes, score, puzzle in answers:
        ts = tuple(dict.fromkeys(themes))
        if ts:
            rows.append((ts, float(score), puzzle.rating, c * _g(puzzle.rd / SCALE)))
    skill = {t: (start or {}).get(t, centre) for row in rows for t in row[0]}
    info = dict.fromkeys(skill, weight)
    by_theme: dict[str, list[int]] = {t: [] for t in skill}
    for i, row in enumerate(rows):
        for t in row[0]:
            by_theme[t].append(i)
    for _round in range(FIT_ROUNDS):
        moved = 0.0
        for t, mine in by_theme.items():
            grad, hess = -(skill[t] - centre) * weight, weight
            for i in mine:
                ts, score, rating, slope = rows[i]
                n = len(ts)
                p = 1.0 / (1.0 + math.exp(-slope * (sum(skill[u] for u in ts) / n - rating)))
                grad += slope * (score - p) / n
                hess += slope * slope * p * (1.0 - p) / (n * n)
            step = grad / hess
            skill[t] += step
            info[t] = hess
            moved = max(moved, abs(step))
        if moved < FIT_TOLERANCE:
            break
    return {t: Rating(skill[t], _clamp_rd(info[t] ** -0.5), overall.vol) for t in skill}
