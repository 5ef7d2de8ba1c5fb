"""How fast the variant lab stops one long giv: Cancel, and the time cap (issue 20, finding 2).

The lab plays 2 givar per rule set with expert players and 26 cards in each hand (one
move there takes well over 10 s, so a giv is in the middle of a move when it is stopped),
the caps' estimate set aside as the real one let this job start. Two figures, each over
``--repeat`` runs:

- Cancel: the seconds from ``cancel()`` (what the Cancel button does) to the end of the
  run, pressed ``--after`` seconds into it;
- the time cap: how long past ``--cap`` seconds the run goes on.

    python benchmarks/job_stop.py --repeat 5 --after 2 --cap 3

It prints a table (and ``--json FILE``). Figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from krypteach.play.limits import JobCaps
from krypteach.widgets import VariantLab


@dataclass(frozen=True)
class NoEstimate(JobCaps):
    def estimate(self, givar: int, bot: str, rule_sets: int = 1) -> float:
        return 0.0


def long_lab(seconds: float, jobs: int) -> VariantLab:
    lab = VariantLab(givar=2, bot="expert", caps=NoEstimate(max_seconds=seconds, jobs=jobs))
    for picker in (lab.picker_a, lab.picker_b):
        picker.controls["hand_size"].value = 26
    return lab


def no_workers_left() -> None:
    """Every worker process of the run is ended (a terminated one is reaped within a moment)."""
    end = time.monotonic() + 2
    while multiprocessing.active_children() and time.monotonic() < end:
        time.sleep(0.05)
    left = multiprocessing.active_children()
    assert not left, f"worker processes left: {left}"


def cancel_seconds(after: float, jobs: int) -> tuple[float, str]:
    lab = long_lab(600, jobs)
    lab.start()
    time.sleep(after)
    t = time.perf_counter()
    lab.cancel()
    assert lab._worker is not None
    lab._worker.join()
    took = time.perf_counter() - t
    no_workers_left()
    return took, lab.status.value


def cap_overshoot(cap: float, jobs: int) -> tuple[float, str]:
    lab = long_lab(cap, jobs)
    t = time.perf_counter()
    lab.run()
    took = time.perf_counter() - t
    no_workers_left()
    return took - cap, lab.status.value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--after", type=float, default=2.0, help="seconds into the run Cancel is pressed")
    ap.add_argument("--cap", type=float, default=3.0, help="the time cap, seconds")
    ap.add_argument("--jobs", type=int, default=1, help="processes (krypteach serve gives every kernel 1)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    cancels, overs = [], []
    for _ in range(args.repeat):
        took, status = cancel_seconds(args.after, args.jobs)
        assert "cancelled after 0 of 4 givar" in status, status
        cancels.append(took)
        over, status = cap_overshoot(args.cap, args.jobs)
        assert "stopped at the time cap" in status, status
        overs.append(over)
    out = {"cancel_s": cancels, "cap_overshoot_s": overs, "args": vars(args), "cpus": os.cpu_count()}
    print(f"{'':28} {'median':>8} {'max':>8}")
    print(f"{'Cancel → run ended (s)':28} {statistics.median(cancels):8.3f} {max(cancels):8.3f}")
    print(f"{'past the time cap (s)':28} {statistics.median(overs):8.3f} {max(overs):8.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
