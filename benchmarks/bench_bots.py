"""Strength and speed of the bots (numbers for docs/bots.md).

Strength: a duplicate tournament between two bots (seats rotated, every deck
played once with each seating), the paired difference of their mean giv scores
with a 95% confidence interval over the decks::

    python benchmarks/bench_bots.py strength --bots careful,random --givar 1000 --seed 1 --jobs 2
    python benchmarks/bench_bots.py strength --bots expert,careful --givar 1000 --seed 1 --jobs 2

Speed: time per decision of one bot (only turns with more than one legal
move; forced moves cost nothing), in one process, playing against careful::

    python benchmarks/bench_bots.py speed --bot expert --givar 30 --seed 1

Throughput: whole givar per second of ``simulate`` (best of ``--repeat`` runs,
each from empty caches), in one process or on ``--jobs`` processes::

    python benchmarks/bench_bots.py givar --bots careful --givar 1000 --jobs 1 --repeat 3

``--jobs`` plays on that many processes (``krypteach.play.tournament`` and
``simulate``); the results are the same as on one. Give bot options after a
colon, separated by ``;``: ``expert:rollouts=120``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from krypteach.bots import careful, make_bot
from krypteach.cli import rules_from_arg
from krypteach.engine.capture_cache import clear_caches
from krypteach.engine.game import Giv
from krypteach.play.simulate import simulate
from krypteach.play.tournament import Tournament, parse_bot_spec, tournament


def strength(rules, bots: list[str], givar: int, seed: int, jobs: int) -> Tournament:
    return tournament(rules, givar, bots, seed=seed, jobs=jobs)


def givar_per_second(rules, bots: list[str], givar: int, seed: int, jobs: int, repeat: int) -> dict:
    """Best of ``repeat`` runs of ``simulate``, each from empty capture and bot caches."""
    runs = []
    for _ in range(repeat):
        clear_caches()
        careful.clear_caches()
        t0 = time.perf_counter()
        simulate(rules, givar, seed=seed, bots=bots, jobs=jobs)
        runs.append(time.perf_counter() - t0)
    return {"bots": bots, "givar": givar, "jobs": jobs, "seconds": runs, "givar_per_s": givar / min(runs),
            "python": platform.python_version(), "cpus": os.cpu_count()}


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
    s.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    s.add_argument("--json", default=None, help="append the result as one JSON line to this file")
    v = sub.add_parser("speed")
    v.add_argument("--bot", default="expert")
    v.add_argument("--givar", type=int, default=20)
    v.add_argument("--seed", type=int, default=1)
    v.add_argument("--rules", default=None)
    v.add_argument("--players", type=int, default=None)
    v.add_argument("--json", default=None)
    q = sub.add_parser("givar")
    q.add_argument("--bots", default="careful")
    q.add_argument("--givar", type=int, default=1000)
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--rules", default=None)
    q.add_argument("--players", type=int, default=None)
    q.add_argument("--jobs", type=int, default=1)
    q.add_argument("--repeat", type=int, default=3)
    q.add_argument("--json", default=None)
    a = p.parse_args(argv)
    rules = rules_from_arg(a.rules, a.players)
    t0 = time.perf_counter()
    if a.what == "strength":
        bots = [b.strip() for b in a.bots.split(",")]
        t = strength(rules, bots, a.givar, a.seed, a.jobs)
        print(t.summary())
        d, h = t.difference(bots[0], bots[1])
        out = {"what": "strength", "bots": bots, "givar": a.givar, "seed": a.seed, "rules": rules.describe(),
               "means": {b: t.mean_ci(b) for b in dict.fromkeys(bots)}, "difference": [d, h],
               "seconds": time.perf_counter() - t0}
    elif a.what == "givar":
        out = givar_per_second(rules, [b.strip() for b in a.bots.split(",")], a.givar, a.seed, a.jobs, a.repeat)
        out["what"] = "givar"
        print(f"{', '.join(out['bots'])}: {a.givar} givar on {a.jobs} process(es): best {min(out['seconds']):.2f} s "
              f"of {', '.join(f'{x:.2f}' for x in out['seconds'])}: {out['givar_per_s']:.0f} givar/s")
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
