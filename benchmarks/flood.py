"""Another learner's clicks while one page floods the server with widget messages (issue 20, finding 8).

Two protocol clients (as in benchmarks/load_class.py) open the game lesson of a ``krypteach
serve``: the learner selects a card every ``--gap`` seconds and times each click (widget
message sent → the kernel idle after it); the flooder sends ``update`` messages to its own
hand from a process of its own, as fast as its socket takes them (or ``--rate`` a second). First ``--seconds`` quiet, then ``--seconds`` with the
flood; the server is run with the page message cap (``krypteach.serve.flood``) and, with
``--no-cap``, without it (``KRYPTEACH_MESSAGE_RATE=0``)::

    python benchmarks/flood.py --seconds 20
    python benchmarks/flood.py --seconds 20 --no-cap
    python benchmarks/flood.py --seconds 20 --rate 450 [--no-cap]

It prints the learner's click p50/p95, quiet and flooded, and the flood's message rate.
Figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_class import CODE, ROOT, find, measure_served, open_page, pct, start_server, warm


async def flood(base: str, lesson: str, seconds: float, rate: float, sent: Any) -> None:
    """The flooder: its own page, ``update`` messages to its hand (``rate`` a second; 0: as fast as it can)."""
    flooder, fstates, _ = await open_page(base, lesson)
    fhand = find(fstates, lambda s: s.get("kind") == "hand" and s.get("selectable") and s.get("cards"))[0]
    t0 = time.perf_counter()
    stop, n = t0 + seconds, 0
    while time.perf_counter() < stop:
        msg = {"header": {"msg_id": uuid.uuid4().hex, "username": "x", "session": flooder.session,
                          "msg_type": "comm_msg", "version": "5.3", "date": ""},
               "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
               "content": {"comm_id": fhand, "data": {"method": "update", "state": {"selected": [n % 2]},
                                                      "buffer_paths": []}}}
        await flooder.ws.write_message(json.dumps(msg))
        n += 1
        sent.value = n
        if rate:
            await asyncio.sleep(max(0.0, t0 + n / rate - time.perf_counter()))
    flooder.ws.close()


def flood_process(base: str, lesson: str, seconds: float, rate: float, sent: Any) -> None:
    asyncio.run(flood(base, lesson, seconds, rate, sent))


async def measure(base: str, lesson: str, seconds: float, gap: float, rate: float) -> dict:
    victim, vstates, _ = await open_page(base, lesson)
    vhand = find(vstates, lambda s: s.get("kind") == "hand" and s.get("selectable") and s.get("cards"))[0]

    async def clicks(until: float) -> list[float]:
        out, n = [], 0
        while time.perf_counter() < until:
            out.append(await victim.update(vhand, {"selected": [0] if n % 2 == 0 else []}))
            n += 1
            await asyncio.sleep(gap)
        return out

    quiet = await clicks(time.perf_counter() + seconds)
    sent = multiprocessing.Value("l", 0)
    flooder = multiprocessing.Process(target=flood_process, args=(base, lesson, seconds + 2, rate, sent))
    flooder.start()
    await asyncio.sleep(2)  # the flooder's page is open and the flood is on
    flooded = await clicks(time.perf_counter() + seconds)
    flooder.join()
    victim.ws.close()
    return {"quiet_ms": {"n": len(quiet), "p50": 1000 * pct(quiet, 50), "p95": 1000 * pct(quiet, 95)},
            "flood_ms": {"n": len(flooded), "p50": 1000 * pct(flooded, 50), "p95": 1000 * pct(flooded, 95)},
            "flood_messages": sent.value, "flood_per_s": round(sent.value / seconds)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--gap", type=float, default=0.25, help="seconds between the learner's clicks")
    ap.add_argument("--rate", type=float, default=0.0,
                    help="the flood's messages a second (0: as fast as the flooder can; the issue's was about 450)")
    ap.add_argument("--no-cap", action="store_true", help="serve without the page message cap")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    lessons = ROOT / "lessons"
    lesson = sorted(p.name for p in lessons.glob("07_*.ipynb"))[0]
    env = {**os.environ, "KRYPTEACH_MESSAGE_RATE": "0"} if args.no_cap else dict(os.environ)
    server, base = start_server(["--dir", str(lessons), "--class-code", CODE, "--class-size", "2", "--lesson", "7",
                                 "--per-browser", "5"], ".flood.log", env)
    return measure_served(server, base, lambda st: warm(st, lesson) >= 2,
                          lambda: measure(base, lesson, args.seconds, args.gap, args.rate),
                          {"cap": not args.no_cap, "rate_asked": args.rate, "cpus": os.cpu_count()}, args.json)

if __name__ == "__main__":
    raise SystemExit(main())
