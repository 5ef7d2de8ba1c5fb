"""Strength and speed of the bots (numbers for docs/bots.md).

Strength: a duplicate tournament between two bots (seats rotated, every deck
played once with each seating), the paired difference of their mean giv scores
with a 95% confidence interval over the decks::

    python benchmarks/bench_bots.py strength --bots careful,random --givar 1000 --seed 1
    python benchmarks/bench_bots.py strength --bots expert,careful --givar 400 --seed 1 --workers 2

Speed: time per decision of one bot (only turns with more than one legal
move; forced moves cost nothing), in one process, playing against careful::

    python benchmarks/bench_bots.py speed --bot expert --givar 20 --seed 1

``--workers`` splits the decks over processes (each worker plays its own
seeds; the givar and statistics are combined as if one run). Give bot options
after a colon, separated by ``;``: ``expert:rollouts=120``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from krypteach.bots import make_bot  # noqa: E402
from krypteach.cli import rules_from_arg  # noqa: E402
from krypteach.engine.game import Giv  # noqa: E402
from krypteach.play.tournament import Row, Tournament, parse_bot_spec, tournament  # noqa: E402


def _strength_part(args: tuple) -> list[tuple]:
    rules, givar, bots, seed = args
    t = tournament(rules, givar, bots, seed=seed)
    return [tuple(r) for r in t.rows]


def strength(rules, bots: list[str], givar: int, seed: int, workers: int) -> Tournament:
    b = len(bots)
    cycles = givar // b
    per = [cycles // workers + (1 if i < cycles % workers else 0) for i in range(workers)]
    jobs = [(rules, n * b, bots, seed * 1000 + i) for i, n in enumerate(per) if n]
    result = Tournament(rules, tuple(bots))
    offset = 0
    if workers == 1:
        parts = [_strength_part(j) for j in jobs]
    else:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_strength_part, jobs))
    for part, job in zip(parts, jobs):
        for giv, seat, bot, score in part:
            result.rows.append(Row(giv + offset, seat, bot, score))
        offset += job[1]
    return result


def speed(rules, bot_spec: str, givar: int, seed: int, opponent: str = "careful") -> dict:
    name, options = parse_bot_spec(bot_spec)
    times: list[float] = []
    forced = 0
    for i in range(givar):
        g = Giv(rules, dealer=i % rules.players, seed=seed * 7919 + i)
        bots = [make_bot(name, seed=i, **options) if s == 0 else make_bot(opponent, seed=i) for s in range(rules.players)]
        while not g.is_over:
            obs = g.observation()
            if g.turn == 0:
                if len(g.legal_moves()) == 1:
                    forced += 1
                    move = bots[0].choose(obs)
                else:
                    t0 = time.perf_counter()
                    move = bots[0].choose(obs)
                    times.append(time.perf_counter() - t0)
            else:
                move = bots[g.turn].choose(obs)
            g.play(move)
    times.sort()
    return {
        "bot": bot_spec, "givar": givar, "decisions": len(times), "forced_moves": forced,
        "mean_ms": 1000 * statistics.fmean(times), "median_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))], "max_ms": 1000 * times[-1],
        "python": platform.python_version(), "cpus": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("strength")
    s.add_argument("--bots", default="careful,random")
    s.add_argument("--givar", type=int, default=400)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--rules", default=None)
    s.add_argument("--players", type=int, default=None)
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--json", default=None, help="append the result as one JSON line to this file")
    v = sub.add_parser("speed")
    v.add_argument("--bot", default="expert")
    v.add_argument("--givar", type=int, default=20)
    v.add_argument("--seed", type=int, default=1)
    v.add_argument("--rules", default=None)
    v.add_argument("--players", type=int, default=None)
    v.add_argument("--json", default=None)
    a = p.parse_args(argv)
    rules = rules_from_arg(a.rules, a.players)
    t0 = time.perf_counter()
    if a.what == "strength":
        bots = [b.strip() for b in a.bots.split(",")]
        t = strength(rules, bots, a.givar, a.seed, a.workers)
        print(t.summary())
        d, h = t.difference(bots[0], bots[1])
        out = {"what": "strength", "bots": bots, "givar": a.givar, "seed": a.seed, "rules": rules.describe(),
               "means": {b: t.mean_ci(b) for b in dict.fromkeys(bots)}, "difference": [d, h],
               "seconds": time.perf_counter() - t0}
    else:
        out = speed(rules, a.bot, a.givar, a.seed)
        out["what"] = "speed"
        out["seconds"] = time.perf_counter() - t0
        print(f"{out['bot']}: {out['decisions']} decisions with a choice (+{out['forced_moves']} forced moves) in "
              f"{out['givar']} givar: mean {out['mean_ms']:.1f} ms, median {out['median_ms']:.1f} ms, "
              f"95th percentile {out['p95_ms']:.1f} ms, max {out['max_ms']:.1f} ms per move")
    print(f"({time.perf_counter() - t0:.0f} s)")
    if a.json:
        with open(a.json, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
