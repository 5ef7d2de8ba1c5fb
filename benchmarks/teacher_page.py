"""The teacher's page with many lessons (issue 20, finding 1): the time of the class's overview
(``ProgressStore.overview``) and of the whole page (``teacher_page``: the grid, the tables, the
two plots), on a SQLite file of LEARNERS learners who each tried LESSONS distinct lessons.

    python benchmarks/teacher_page.py --lessons 1000 --learners 30

The attempts are written straight into the table (the imports of today refuse a file with more
than 50 lessons), so the same script measures an older krypteach too:
``git archive <commit> | tar -x -C /tmp/old && PYTHONPATH=/tmp/old python benchmarks/teacher_page.py``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lessons", type=int, default=1000)
    ap.add_argument("--learners", type=int, default=30)
    ap.add_argument("--attempts", type=int, default=2, help="attempts per learner and lesson (one right, one wrong)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-page", action="store_true", help="time the overview only")
    ap.add_argument("--import-attempts", type=int, default=20_000,
                    help="then time the import of one progress file of this many attempts (0: none)")
    args = ap.parse_args()

    import krypteach
    from krypteach.classroom.store import ProgressStore
    from krypteach.serve.teacher import teacher_page

    print(f"krypteach from {Path(krypteach.__file__).parent}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = ProgressStore(Path(tmp) / "p.sqlite3")
        store.declare_items("03_take_all", [(f"x{n}", "exercise") for n in range(5)])
        rows = []
        for k in range(args.learners):
            who = store.join("K7RPX", f"Learner {k:02}")
            for n in range(args.lessons):
                for a in range(args.attempts):
                    rows.append((who, f"L{n:04}", f"item-{a}", "exercise", a % 2, "take-all" if a % 2 == 0 else None,
                                 None, None, 1764590000.0 + n + a / 10))
        with store._transaction() as cur:
            cur.executemany("INSERT INTO attempts (learner_id, lesson, item, kind, correct, rule, topic, score, at) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        print(f"{len(rows):,} attempts: {args.learners} learners x {args.lessons} lessons x {args.attempts}", flush=True)
        overview, page = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            view = store.overview("K7RPX")
            overview.append(time.perf_counter() - t)
            if not args.no_page:
                t = time.perf_counter()
                html = teacher_page(view, "K7RPX", "", {})
                page.append(time.perf_counter() - t)
        print(f"overview: median {statistics.median(overview):.3f} s (of {args.repeat}); "
              f"lessons shown {len(view.lessons)}, grid cells {len(view.grid):,}")
        if page:
            print(f"teacher_page (grid, tables, plots): median {statistics.median(page):.3f} s; "
                  f"{len(html):,} characters of HTML")
        if args.import_attempts:
            import json

            attempts = [[f"{n % 10:02}_lesson", f"item-{n}", "exercise", n % 2 == 0, None, None, None,
                         1764590000.0 + n] for n in range(args.import_attempts)]
            data = json.dumps({"format": "krypteach-progress/1", "nickname": "Imported", "items": {},
                               "attempts": attempts}).encode()
            t = time.perf_counter()
            _name, added = store.import_progress(data, "K7RPX")
            print(f"import of one file of {added:,} attempts ({len(data):,} bytes): {time.perf_counter() - t:.2f} s")
        store.close()


if __name__ == "__main__":
    sys.exit(main())
