"""The live class's tables under a class's load (issue 24): how long a move takes to reach the
other seats.

    python benchmarks/load_tables.py --tables 10 --players 3 --seconds 60

A server process holds the tables (the handlers ``krypteach serve`` mounts at
``/krypteach/tables``: :mod:`krypteach.serve.tables`, with its bots' timer). Light protocol
clients, one per learner (``--tables`` × ``--players``, all learners: no bot seat), play as the
learners' kernels do: each seat long-polls its view; the seat in turn waits a human's moment
(``--think`` seconds, uniformly 0.5× to 1.5×) and sends a random legal move; every other seat
notes when its poll brought that move back. Printed, each on a line: the moves made, the
givar finished, and ``move to other seats: p50 … ms, p95 … ms`` (from the move's request sent
to the other seat's answer received). The figures go in docs/classroom.md.

The page's own part (the kernel drawing the view into its widgets and the browser showing
it) is not in this figure: that is the game page's click round trip (docs/classroom.md,
"Measured").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KEY = b"load-tables-benchmark-key-0123456789"


def serve(port: int) -> None:
    import tornado.ioloop
    import tornado.web

    from krypteach.engine.rules import Rules
    from krypteach.serve.tables import TableRoom, table_handlers

    room = TableRoom(Rules())
    app = tornado.web.Application(table_handlers(room), krypteach_table_key=KEY)
    app.listen(port, "127.0.0.1")
    print("ready", flush=True)
    tornado.ioloop.IOLoop.current().start()


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


async def run(base: str, tables: int, players: int, seconds: float, think: float, seed: int) -> dict[str, float]:
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError

    from krypteach.classroom.session import sign_learner
    from krypteach.serve.tables import TABLE_NONCE

    AsyncHTTPClient.configure(None, max_clients=4 * tables * players + 10)
    client = AsyncHTTPClient()

    async def call(path: str, body: dict | None = None, timeout: float = 40.0) -> dict:
        r = await client.fetch(base + path, method="GET" if body is None else "POST",
                               body=None if body is None else json.dumps(body), request_timeout=timeout)
        return json.loads(r.body)

    sent: dict[tuple[str, int], float] = {}  # (table, version after the move) -> when its request was sent
    latencies: list[float] = []
    moves = 0
    finished: set[tuple[str, int]] = set()  # (table, giv number) seen over
    end = time.monotonic() + seconds
    rng = random.Random(seed)

    async def seat(code: str, token: str, me: int) -> None:
        nonlocal moves
        since, r = -1, random.Random(rng.random())
        while time.monotonic() < end:
            try:
                v = await call(f"/{code}?seat={token}&since={since}")
            except HTTPClientError:
                continue
            got = time.monotonic()
            for version in range(since + 1, v["version"] + 1):  # the moves this poll brought
                t0 = sent.get((code, version))
                if t0 is not None and v["moves"] and v["moves"][-1][0] != me:
                    latencies.append(got - t0)
            since = v["version"]
            if v["over"]:
                finished.add((code, v["giv"]))
            if v["turn"] == me and v["legal"]:
                await asyncio.sleep(think * r.uniform(0.5, 1.5))
                t0 = time.monotonic()
                try:
                    after = await call(f"/{code}/move", {"seat": token, "move": r.choice(v["legal"]),
                                                         "version": v["version"]})
                except HTTPClientError:
                    continue
                sent[(code, after["version"])] = t0
                moves += 1

    tasks = []
    for t in range(tables):
        first = await call("", {"learner": sign_learner(KEY, "K7", f"L{t}-0", t * players, TABLE_NONCE),
                                "open": players})
        code, tokens = first["code"], [first["seat_token"]]
        for p in range(1, players):
            joined = await call("", {"learner": sign_learner(KEY, "K7", f"L{t}-{p}", t * players + p, TABLE_NONCE),
                                     "join": code})
            tokens.append(joined["seat_token"])
        tasks += [seat(code, token, i) for i, token in enumerate(tokens)]
    await asyncio.gather(*tasks)
    return {"moves": moves, "givar": len(finished), "samples": len(latencies),
            "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
            "p95_ms": 1000 * pct(latencies, 0.95) if latencies else float("nan")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--think", type=float, default=1.0, help="a learner's mean seconds before a move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve)
        return
    from tests.conftest import _free_port

    port = _free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        out = asyncio.run(run(f"http://127.0.0.1:{port}/krypteach/tables", args.tables, args.players, args.seconds,
                              args.think, args.seed))
    finally:
        server.terminate()
        server.wait()
    print(f"tables: {args.tables} of {args.players} learners, {args.seconds:.0f} s, think {args.think:.1f} s")
    print(f"moves made: {out['moves']}, givar finished: {out['givar']}")
    print(f"move to other seats: p50 {out['p50_ms']:.0f} ms, p95 {out['p95_ms']:.0f} ms ({out['samples']} deliveries)")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
