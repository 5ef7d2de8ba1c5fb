"""A learner's clicks while the teacher works (issue 20, finding 11): CSV exports, the teacher's
page and a large import must not hold the server's event loop.

A ``krypteach serve`` with a teacher code and a progress file of ``--records`` attempts (30
learners); one learner (a protocol client, as in benchmarks/load_class.py) selects a card of
the game lesson every ``--gap`` seconds and times each click (widget message sent → the
kernel idle after it). Four phases of ``--seconds`` each: quiet; ``--exports`` CSV exports at
once, again as each ends; the teacher's page loaded over and over; progress files of
``--import-attempts`` attempts imported one after the other::

    python benchmarks/teacher_work.py --records 10000 --seconds 20

It prints the click p50/p95 of each phase, and how many exports, pages and imports were done.
The same script measures an older krypteach: ``git archive <commit> | tar -x -C /tmp/old &&
PYTHONPATH=/tmp/old python benchmarks/teacher_work.py``. Figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
import uuid
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from tornado.httpclient import AsyncHTTPClient, HTTPClientError

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_class import CODE, ROOT, find, measure_served, open_page, pct, start_server, warm

TEACHER = "LARARE2481"


def fill(path: Path, records: int) -> None:
    """A class of 30 learners with ``records`` attempts between them, over 12 lessons."""
    import krypteach
    from krypteach.classroom.store import ProgressStore

    print(f"krypteach from {Path(krypteach.__file__).parent}", flush=True)
    store = ProgressStore(path)
    learners = [store.join(CODE, f"Learner {k:02}") for k in range(30)]
    rows = []
    for n in range(records):
        who = learners[n % 30]
        rows.append((who, f"{1 + n % 12:02}_lesson", f"item-{n % 40}", "exercise", n % 3 != 0,
                     "take-all" if n % 3 == 0 else None, None, None, 1764590000.0 + n))
    with store._transaction() as cur:
        cur.executemany("INSERT INTO attempts (learner_id, lesson, item, kind, correct, rule, topic, score, at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    store.close()


class Teacher:
    """The teacher's browser: its cookies, signed in with the teacher code."""

    def __init__(self, base: str) -> None:
        self.base, self.jar, self.http = base, SimpleCookie(), AsyncHTTPClient(max_clients=64)

    def _cookie(self) -> str:
        return "; ".join(f"{k}={v.value}" for k, v in self.jar.items())

    async def fetch(self, path: str, **kw) -> bytes:
        r = await self.http.fetch(self.base + path, headers={"Cookie": self._cookie(), **kw.pop("headers", {})},
                                  follow_redirects=False, raise_error=False, request_timeout=600, **kw)
        for header in r.headers.get_list("Set-Cookie"):
            self.jar.load(header)
        if r.code >= 400:
            raise HTTPClientError(r.code, f"{path}: {r.body[:200]!r}")
        return r.body

    async def sign_in(self) -> str:
        page = (await self.fetch("/krypteach/teacher")).decode()
        token = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        await self.fetch("/krypteach/teacher", method="POST", body=urlencode({"teacher_code": TEACHER, "_xsrf": token}),
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        return token

    async def import_file(self, token: str, text: str) -> None:
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_xsrf\"\r\n\r\n{token}\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"progress\"; filename=\"p.json\"\r\n"
                f"Content-Type: application/json\r\n\r\n{text}\r\n--{boundary}--\r\n").encode()
        await self.fetch("/krypteach/teacher/import", method="POST", body=body,
                         headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})


def progress_file(nickname: str, attempts: int) -> str:
    rows = [[f"{1 + n % 12:02}_lesson", f"imported-{n}", "exercise", n % 2 == 0, None, None, None, 1764590000.0 + n]
            for n in range(attempts)]
    return json.dumps({"format": "krypteach-progress/1", "nickname": nickname, "items": {}, "attempts": rows})


async def measure(base: str, lesson: str, args: argparse.Namespace) -> dict:
    learner, states, _ = await open_page(base, lesson)
    hand = find(states, lambda s: s.get("kind") == "hand" and s.get("selectable") and s.get("cards"))[0]
    teacher = Teacher(base)
    token = await teacher.sign_in()

    async def clicks(seconds: float) -> list[float]:
        out, n, until = [], 0, time.perf_counter() + seconds
        while time.perf_counter() < until:
            out.append(await learner.update(hand, {"selected": [0] if n % 2 == 0 else []}))
            n += 1
            await asyncio.sleep(args.gap)
        return out

    async def during(work, seconds: float) -> tuple[list[float], int]:
        """Clicks while ``work()`` runs over and over; (the clicks, the times ``work`` finished)."""
        done, stop = [0], time.perf_counter() + seconds

        async def again() -> None:
            while time.perf_counter() < stop:
                await work()
                done[0] += 1
        worker = asyncio.ensure_future(again())
        measured = await clicks(seconds)
        await worker
        return measured, done[0]

    async def exports() -> None:
        await asyncio.gather(*(teacher.fetch("/krypteach/teacher/export.csv") for _ in range(args.exports)))

    async def page() -> None:
        await teacher.fetch("/krypteach/teacher")

    files = iter(progress_file(f"Imported {n}", args.import_attempts) for n in range(10_000))

    async def imports() -> None:
        await teacher.import_file(token, next(files))

    report: dict = {}
    quiet = await clicks(args.seconds)
    report["quiet_ms"] = {"n": len(quiet), "p50": round(1000 * pct(quiet, 50)), "p95": round(1000 * pct(quiet, 95))}
    for name, work in (("exports", exports), ("teacher_page", page), ("imports", imports)):
        got, n = await during(work, args.seconds)
        report[f"{name}_ms"] = {"n": len(got), "p50": round(1000 * pct(got, 50)), "p95": round(1000 * pct(got, 95)),
                                "done": n}
    learner.ws.close()
    return report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=10_000, help="attempts in the class's progress file")
    ap.add_argument("--seconds", type=float, default=20.0, help="the length of each phase")
    ap.add_argument("--gap", type=float, default=0.25, help="seconds between the learner's clicks")
    ap.add_argument("--exports", type=int, default=20, help="CSV exports at once")
    ap.add_argument("--import-attempts", type=int, default=20_000)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    lessons = ROOT / "lessons"
    lesson = sorted(p.name for p in lessons.glob("07_*.ipynb"))[0]
    with tempfile.TemporaryDirectory() as tmp:
        progress = Path(tmp) / "progress.sqlite3"
        fill(progress, args.records)
        server, base = start_server(["--dir", str(lessons), "--class-code", CODE, "--teacher-code", TEACHER,
                                     "--progress", str(progress), "--class-size", "1", "--lesson", "7"],
                                    ".teacher_work.log")
        return measure_served(server, base, lambda st: warm(st, lesson) >= 1, lambda: measure(base, lesson, args),
                              {"records": args.records, "exports_at_once": args.exports,
                               "import_attempts": args.import_attempts, "cpus": os.cpu_count()}, args.json)

if __name__ == "__main__":
    raise SystemExit(main())
