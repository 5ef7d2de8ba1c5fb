"""Wall time of simulate, the variant lab and tournaments on one process and on every core.

Each is run with ``jobs=1`` and with ``--jobs`` processes (default: every
core), from empty caches, best of ``--repeat``; the results of the two must be
identical (same seeds), and the script checks that they are::

    python benchmarks/bench_parallel.py --what simulate --givar 1000 --repeat 3
    python benchmarks/bench_parallel.py --what lab --givar 1000 --repeat 1
    python benchmarks/bench_parallel.py --what tournament --givar 100 --bots expert,careful --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from krypteach.bots import careful
from krypteach.engine.capture_cache import clear_caches
from krypteach.engine.rules import Rules
from krypteach.play.simulate import simulate
from krypteach.play.tournament import tournament


def cold() -> None:
    clear_caches()
    careful.clear_caches()


def run_simulate(givar: int, bots: list[str], jobs: int) -> Any:
    return simulate(Rules(), givar, seed=1, bots=bots, jobs=jobs).results


def run_lab(givar: int, bots: list[str], jobs: int) -> Any:
    from krypteach.widgets.variant_lab import VariantLab

    lab = VariantLab(givar=givar, bot=bots[0], seed=1, jobs=jobs)
    lab.picker_b.choose_preset("table-grows-by-creeping")
    lab.run()
    return [s.results for s in lab.simulations]


def run_tournament(givar: int, bots: list[str], jobs: int) -> Any:
    return tournament(Rules(), givar, bots, seed=1, jobs=jobs).rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--what", choices=("simulate", "lab", "tournament"), default="simulate")
    p.add_argument("--givar", type=int, default=1000)
    p.add_argument("--bots", default="careful")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", default=None)
    a = p.parse_args(argv)
    run = {"simulate": run_simulate, "lab": run_lab, "tournament": run_tournament}[a.what]
    bots = [b.strip() for b in a.bots.split(",")]
    out: dict[str, Any] = {"what": a.what, "givar": a.givar, "bots": bots, "cpus": os.cpu_count()}
    results = {}
    for jobs in (1, a.jobs):
        times = []
        for _ in range(a.repeat):
            cold()
            t0 = time.perf_counter()
            results[jobs] = run(a.givar, bots, jobs)
            times.append(time.perf_counter() - t0)
        out[f"jobs={jobs}"] = times
        print(f"{a.what}, {a.givar} givar, {', '.join(bots)}, jobs={jobs}: best {min(times):.2f} s "
              f"(runs: {', '.join(f'{t:.2f}' for t in times)})")
    same = results[1] == results[a.jobs]
    out["identical"] = same
    print(f"results identical for jobs=1 and jobs={a.jobs}: {same}")
    if a.json:
        with open(a.json, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(out) + "\n")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
