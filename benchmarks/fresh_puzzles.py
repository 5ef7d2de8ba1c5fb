"""How long a new puzzle takes to make on demand (issue 23), for every kind and level the trainer
generates (:data:`krypteach.teaching.puzzles.fresh.FRESH`), in this Python.

    python benchmarks/fresh_puzzles.py --each 6

Each line: the rules, the kind, the level, the median and the slowest time to make and prove one,
and the puzzle's themes. Figures: docs/practice.md.
"""

from __future__ import annotations

import argparse
import statistics
import time

from krypteach.teaching.puzzles.fresh import FRESH, estimated_rating, fresh_puzzle, themes_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--each", type=int, default=6, help="puzzles made of each kind and level")
    ap.add_argument("--start", type=int, default=1000, help="the first puzzle number (a new number is a new puzzle)")
    args = ap.parse_args()
    for preset, kind, level in FRESH:
        times = []
        for n in range(args.start, args.start + args.each):
            t = time.perf_counter()
            p = fresh_puzzle(kind, level, n, preset)
            times.append(time.perf_counter() - t)
        print(f"{preset:12} {kind:22} {level:7} median {statistics.median(times):.2f} s  slowest {max(times):.2f} s  "
              f"themes {','.join(themes_of(p))}  first rating {estimated_rating(p):.0f}", flush=True)


if __name__ == "__main__":
    main()
