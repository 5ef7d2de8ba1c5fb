"""The engine's and the careful bot's speed, this tree against another, in the same minutes.

Run:  git worktree add /tmp/before COMMIT
      python benchmarks/before_after.py --before /tmp/before [--rounds 3]

Each round plays, in one process per tree and one after the other (so a busy machine slows
both alike): 2,000 random two-player givar of Krypkasino (as ``bench_engine.py``), 200 givar
of the careful bot (as ``krypteach simulate --bots careful --jobs 1``) and 1,000 random
givar of classic Kasino. It prints every round and the best of the rounds, in givar per
second. Figures go in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

MEASURE = """
import json, time
from krypteach import Rules
from krypteach.engine import captures
from krypteach.play.simulate import simulate
captures.clear_caches()
out = {}
t = time.perf_counter(); simulate(Rules(players=2), 2000, seed=1, jobs=1); out["random"] = 2000 / (time.perf_counter() - t)
t = time.perf_counter(); simulate(Rules(players=2), 200, seed=1, bots=["careful"], jobs=1)
out["careful"] = 200 / (time.perf_counter() - t)
t = time.perf_counter(); simulate(Rules.preset("kasino"), 1000, seed=1, jobs=1); out["kasino"] = 1000 / (time.perf_counter() - t)
print(json.dumps(out))
"""


def measure(tree: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", MEASURE], env=env, cwd=tree, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="the other tree (a git worktree)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
    for i in range(args.rounds):
        for name, tree in (("before", args.before.resolve()), ("after", HERE)):
            got = measure(tree)
            print(f"round {i + 1} {name}: " + ", ".join(f"{k} {v:.1f} givar/s" for k, v in got.items()), flush=True)
            for k, v in got.items():
                best[name][k] = max(best[name].get(k, 0.0), v)
    for k in best["after"]:
        b, a = best["before"][k], best["after"][k]
        print(f"best of {args.rounds}, {k}: before {b:.1f}, after {a:.1f} givar/s ({(a - b) / b:+.1%})")


if __name__ == "__main__":
    main()
