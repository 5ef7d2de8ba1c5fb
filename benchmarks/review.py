"""The review of a giv (issue 22): how much the players of each level lose a decision, what
that makes of the verdicts' thresholds, and how long a review takes.

Run:  python benchmarks/review.py [--givar 12] [--samples 24]

For each game (Krypkasino, classic Kasino, avig kasino) and each level of the reviewed seat
(random, careful, expert; the other seat is always careful), it plays ``--givar`` givar,
reviews seat 0 and prints: the decisions with a choice, the share of them the review finds
significantly worse than the best, the quantiles of those significant losses (in points),
the verdicts, the move quality, and the seconds a decision and a giv take to review (mean and
max, one process). Figures go in docs/review.md and docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from krypteach import Rules
from krypteach.bots import make_bot
from krypteach.bots.review import review_decision
from krypteach.engine.game import Giv


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--givar", type=int, default=12)
    ap.add_argument("--samples", type=int, default=24)
    ap.add_argument("--games", default="krypkasino,kasino,avig-kasino", help="the presets to review, comma-separated")
    args = ap.parse_args()
    for preset in args.games.split(","):
        rules = Rules.preset(preset)
        for level in ("random", "careful", "expert"):
            losses: list[float] = []
            verdicts: Counter[str] = Counter()
            per_decision: list[float] = []
            per_giv: list[float] = []
            good = decisions = 0
            for seed in range(args.givar):
                g = Giv(rules, seed=1000 + seed)
                bots = [make_bot(level, seed=seed), make_bot("careful", seed=seed + 1)]
                giv_time = 0.0
                while not g.is_over:
                    obs = g.observation()
                    move = bots[g.turn].choose(obs)
                    if g.turn == 0:
                        t = time.perf_counter()
                        d = review_decision(obs, move, samples=args.samples, seed=0)
                        took = time.perf_counter() - t
                        giv_time += took
                        if d is not None:
                            per_decision.append(took)
                            decisions += 1
                            good += d.as_good_as_best
                            verdicts[d.verdict] += 1
                            if d.loss.low > 0:
                                losses.append(d.loss.loss)
                    g.push(move)
                per_giv.append(giv_time)
            q = statistics.quantiles(losses, n=10) if len(losses) >= 2 else []
            print(f"{preset:12} {level:8} decisions {decisions:4d}  significant {len(losses) / max(1, decisions):5.1%}  "
                  f"loss deciles {[round(x, 1) for x in q]}  verdicts {dict(verdicts)}  "
                  f"quality {good / max(1, decisions):5.1%}  s/decision {statistics.mean(per_decision):.3f} "
                  f"(max {max(per_decision):.2f})  s/giv {statistics.mean(per_giv):.1f} (max {max(per_giv):.1f})",
                  flush=True)


if __name__ == "__main__":
    main()
