"""The live class under a class's load (issue 24): how long a move takes to reach the other
seats at the tables, and how long a learner's answer takes to reach the teacher's board.

    python benchmarks/load_tables.py --tables 10 --players 3 --seconds 60
    python benchmarks/load_tables.py --tables 0 --board 30 --spread 3
    python benchmarks/load_tables.py --tables 10 --players 3 --seconds 30 --board 30   # both at once

A server process holds the tables (the handlers ``krypteach serve`` mounts at
``/krypteach/tables``: :mod:`krypteach.serve.tables`, with its bots' timer). Light protocol
clients, one per learner (``--tables`` × ``--players``, all learners: no bot seat), play as the
learners' kernels do: each seat long-polls its view; the seat in turn waits a human's moment
(``--think`` seconds, uniformly 0.5× to 1.5×) and sends a random legal move; every other seat
notes when its poll brought that move back. Printed, each on a line: the moves made, the
givar finished, and ``move to other seats: p50 … ms, p95 … ms`` (from the move's request sent
to the other seat's answer received). The figures go in docs/classroom.md.

**The teacher's board** (``--board N``, :mod:`krypteach.serve.board`, mounted in the same server
process with the teacher's sign-in): N light clients, one per learner's kernel, long-poll the
board; the teacher (signed in with the teacher code, as the board page) long-polls the board's
state (``/krypteach/teacher/board/state?since=N``) and sends a typed position; each client
answers a random choice after a moment spread uniformly over ``--spread`` seconds; then the
teacher shows the answer. Printed: how long the position took to reach the N pages, how long
after each answer the teacher's board showed it (an answer is shown once the board's count of
answers reaches that answer's place in the order the server took them), above all the last,
and how long the answer took to reach the N pages.

The page's own part (the kernel drawing the view into its widgets and the browser showing
it) is not in these figures: that is the game page's click round trip (docs/classroom.md,
"Measured").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KEY = b"load-tables-benchmark-key-0123456789"
CODE, TEACHER = "K7RPX", "TEACH42X"
#: the position the teacher sends to the board
HAND, TABLE = "7H 2S 9C", "5C 2D KS 4H"


def serve(port: int) -> None:
    import tornado.ioloop
    import tornado.web

    from krypteach.classroom.store import ProgressStore
    from krypteach.engine.rules import Rules
    from krypteach.serve.board import board_handlers, class_board
    from krypteach.serve.gate import ClassGate
    from krypteach.serve.settings import ServeSettings
    from krypteach.serve.tables import TableRoom, table_handlers
    from krypteach.serve.teacher_handlers import TeacherHandler

    room = TableRoom(Rules())
    # the handlers krypteach serve mounts for the live class, with the settings they read
    settings = ServeSettings(gate=ClassGate(code=CODE, max_kernels=4), start_page=None,
                             store=ProgressStore(":memory:"), learner_key=KEY, teacher_code=TEACHER)
    app = tornado.web.Application([(r"/krypteach/teacher", TeacherHandler), *table_handlers(room),
                                   *board_handlers(class_board(None))], krypteach=settings, cookie_secret=KEY)
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


async def run_board(base: str, learners: int, spread: float, seed: int) -> dict[str, float]:
    """The teacher's board: ``learners`` clients answer one position; the times, in seconds."""
    from http.cookies import SimpleCookie
    from urllib.parse import urlencode

    from tornado.httpclient import AsyncHTTPClient

    from krypteach.classroom.session import sign_learner
    from krypteach.serve.tables import TABLE_NONCE

    client = AsyncHTTPClient()
    cookies: dict[str, str] = {}

    async def teacher(path: str, form: dict[str, str] | None = None) -> str:
        body = None if form is None else urlencode({**form, "_xsrf": cookies.get("_xsrf", "")})
        r = await client.fetch(base + path, method="GET" if form is None else "POST", body=body,
                               headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())},
                               follow_redirects=False, raise_error=False, request_timeout=40)
        for line in r.headers.get_list("Set-Cookie"):
            cookies.update({k: m.value for k, m in SimpleCookie(line).items()})
        if r.code not in (200, 302):
            raise RuntimeError(f"{path}: {r.code}")
        return r.body.decode()

    async def learner(path: str, body: dict | None = None, **query: object) -> dict:
        url = f"{base}/krypteach/{path}" + ("?" + urlencode(query) if query else "")
        r = await client.fetch(url, method="GET" if body is None else "POST",
                               body=None if body is None else json.dumps(body), request_timeout=40)
        return json.loads(r.body)

    await teacher("/krypteach/teacher")  # the sign-in page's form token
    await teacher("/krypteach/teacher", {"teacher_code": TEACHER})
    shown: list[tuple[float, int]] = []  # (when the teacher's board got it, the answers it counts)
    done = asyncio.Event()

    async def board() -> None:
        since = -1
        while not done.is_set():
            state = json.loads(await teacher(f"/krypteach/teacher/board/state?since={since}"))
            got = time.monotonic()
            since = state["tally"]
            shown.append((got, sum(int(n) for n in re.findall(r"<span class='n'>(\d+)</span>", state["html"]))))

    tokens = [sign_learner(KEY, CODE, f"L{i:02d}", i + 1, TABLE_NONCE) for i in range(learners)]
    version = (await learner("board", learner=tokens[0], since=-1))["version"]
    rng = random.Random(seed)
    got_position: list[float] = []
    got_reveal: list[float] = []
    answered: list[tuple[float, float]] = []  # (answer sent, its answer received)
    revealed = asyncio.Event()

    async def page(token: str, r: random.Random) -> None:
        view = await learner("board", learner=token, since=version)
        got_position.append(time.monotonic())
        q = view["question"]
        await asyncio.sleep(r.uniform(0, spread))
        t0 = time.monotonic()
        after = await learner("board/answer", {"learner": token, "question": q["id"],
                                               "answer": r.choice(q["choices"])["key"]})
        answered.append((t0, time.monotonic()))
        await revealed.wait()  # (the reveal is sent once every answer is on the board)
        while after["question"]["reveal"] is None:
            after = await learner("board", learner=token, since=after["version"])
        got_reveal.append(time.monotonic())

    watching = asyncio.ensure_future(board())
    pages = [asyncio.ensure_future(page(t, random.Random(rng.random()))) for t in tokens]
    await asyncio.sleep(0.5)  # every page is waiting on the board
    t_send = time.monotonic()
    await teacher("/krypteach/teacher/board/send", {"hand": HAND, "table": TABLE})
    while len(answered) < learners or not shown or shown[-1][1] < learners:
        await asyncio.sleep(0.01)
    t_reveal = time.monotonic()
    revealed.set()
    await teacher("/krypteach/teacher/board/reveal", {})
    await asyncio.gather(*pages)
    done.set()
    await teacher("/krypteach/teacher/board/clear", {})  # (the board's poll returns)
    await watching
    # the k-th answer the server took is on the board once it counts k answers
    to_board = []
    for k, (sent, _back) in enumerate(sorted(answered, key=lambda a: a[1]), start=1):
        to_board.append(next(t for t, n in shown if n >= k) - sent)
    last_sent = max(sent for sent, _b in answered)
    all_shown = next(t for t, n in shown if n >= learners)
    return {"learners": learners, "answers": len(answered), "last_ms": 1000 * (all_shown - last_sent),
            "p50_ms": 1000 * statistics.median(to_board), "p95_ms": 1000 * pct(to_board, 0.95),
            "max_ms": 1000 * max(to_board), "position_max_ms": 1000 * (max(got_position) - t_send),
            "reveal_max_ms": 1000 * (max(got_reveal) - t_reveal), "board_polls": len(shown)}


async def both(port: int, args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """The tables and the board at once: the board's position is sent a few seconds into the tables' run."""
    from tornado.httpclient import AsyncHTTPClient

    # one client for both (a loop's AsyncHTTPClient is one object): every poll and request at once
    AsyncHTTPClient.configure(None, max_clients=4 * args.tables * args.players + 3 * args.board + 20)
    out: dict[str, dict[str, float]] = {}

    async def tables() -> None:
        out["tables"] = await run(f"http://127.0.0.1:{port}/krypteach/tables", args.tables, args.players,
                                  args.seconds, args.think, args.seed)

    async def board() -> None:
        if args.tables:
            await asyncio.sleep(min(5.0, args.seconds / 3))
        out["board"] = await run_board(f"http://127.0.0.1:{port}", args.board, args.spread, args.seed)

    await asyncio.gather(*([tables()] if args.tables else []), *([board()] if args.board else []))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--think", type=float, default=1.0, help="a learner's mean seconds before a move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--board", type=int, default=0, metavar="N", help="learners answering the teacher's board (0: none)")
    ap.add_argument("--spread", type=float, default=3.0, help="the board's answers come over this many seconds")
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
        out = asyncio.run(both(port, args))
    finally:
        server.terminate()
        server.wait()
    if "tables" in out:
        t = out["tables"]
        print(f"tables: {args.tables} of {args.players} learners, {args.seconds:.0f} s, think {args.think:.1f} s")
        print(f"moves made: {t['moves']}, givar finished: {t['givar']}")
        print(f"move to other seats: p50 {t['p50_ms']:.0f} ms, p95 {t['p95_ms']:.0f} ms ({t['samples']} deliveries)")
    if "board" in out:
        b = out["board"]
        print(f"board: the position reached {args.board} pages {b['position_max_ms']:.0f} ms after it was sent (the last)")
        print(f"board: {b['answers']} answers shown {b['last_ms']:.0f} ms after the last (answer to board: p50 "
              f"{b['p50_ms']:.0f} ms, p95 {b['p95_ms']:.0f} ms, max {b['max_ms']:.0f} ms; answers over "
              f"{args.spread:g} s)")
        print(f"board: the answer reached {args.board} pages {b['reveal_max_ms']:.0f} ms after the teacher showed it "
              "(the last)")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
