"""A class arrives: N learners open a lesson of ``krypteach serve`` and click through it.

Each learner is a light protocol client (no browser): it GETs the lesson page with the
class code, connects the page's kernel WebSocket as Voilà's front end does, asks for the
widgets' state (the moment a browser could draw the first clickable card), then clicks:
in the game lesson (07) it selects a hand card, asks for a hint and plays, move after
move; elsewhere it clicks the first selectable card. A click's round trip is the time
from sending the widget message to the kernel's "idle" for it. At the end each learner
closes its page the way a browser does (the shutdown beacon), and the benchmark watches
the server's memory come back.

    python benchmarks/load_class.py --learners 30 --within 60 --lesson 7

It starts its own server (``krypteach serve --class-size N --lesson L``), waits for the
warm-up, and prints a table (and ``--json FILE``). Figures: docs/classroom.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parent.parent
CODE = "BENCH"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q / 100 * (len(values) - 1))))
    return values[k]


@dataclass
class Learner:
    index: int
    page_s: float | None = None          # GET start -> page fully received
    interactive_s: float | None = None   # GET start -> widget state received
    clicks: dict[str, list[float]] = field(default_factory=dict)
    error: str | None = None


class Kernel:
    """One page's kernel WebSocket, speaking the Jupyter messaging protocol (JSON)."""

    def __init__(self, ws, session: str, kernel_id: str = "", cookie: str = "", xsrf: str = ""):
        self.ws = ws
        self.session = session
        #: what closing the page needs (:func:`close_page`)
        self.kernel_id, self.cookie, self.xsrf = kernel_id, cookie, xsrf
        self.waiting: dict[str, asyncio.Future] = {}
        self.comm_msgs: list[dict] = []
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            raw = await self.ws.read_message()
            if raw is None:
                for f in self.waiting.values():
                    if not f.done():
                        f.set_exception(ConnectionError("the kernel connection closed"))
                return
            if isinstance(raw, bytes):
                continue
            msg = json.loads(raw)
            parent = msg.get("parent_header", {}).get("msg_id")
            if msg.get("msg_type") == "comm_msg":
                self.comm_msgs.append(msg)
            if msg.get("msg_type") == "status" and msg["content"].get("execution_state") == "idle":
                f = self.waiting.get(parent)
                if f is not None and not f.done():
                    f.set_result(time.perf_counter())

    async def send(self, msg_type: str, content: dict, metadata: dict | None = None) -> float:
        """Send a shell message; seconds until the kernel is idle after it."""
        msg_id = uuid.uuid4().hex
        msg = {"header": {"msg_id": msg_id, "username": "learner", "session": self.session,
                          "msg_type": msg_type, "version": "5.3", "date": ""},
               "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell", "buffers": []}
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self.waiting[msg_id] = fut
        t0 = time.perf_counter()
        await self.ws.write_message(json.dumps(msg))
        t1 = await asyncio.wait_for(fut, 60)
        del self.waiting[msg_id]
        return float(t1 - t0)

    async def states(self) -> dict[str, dict]:
        """Every widget's state, as ipywidgets' front end asks for it on connecting."""
        comm_id = uuid.uuid4().hex
        await self.send("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
                        {"version": "1.0.0"})
        start = len(self.comm_msgs)
        await self.send("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})
        for m in self.comm_msgs[start:]:
            data = m["content"]["data"]
            if data.get("method") == "update_states":
                return dict(data["states"])
        raise RuntimeError("no widget states came back")

    async def update(self, model: str, state: dict) -> float:
        return await self.send("comm_msg", {"comm_id": model, "data": {"method": "update", "state": state,
                                                                        "buffer_paths": []}})

    async def click(self, model: str) -> float:
        return await self.send("comm_msg", {"comm_id": model, "data": {"method": "custom",
                                                                        "content": {"event": "click"}}})

    def latest(self, model: str, key: str, default=None):
        for m in reversed(self.comm_msgs):
            c = m["content"]
            if c.get("comm_id") == model and c["data"].get("method") in ("update", "echo_update"):
                if key in c["data"].get("state", {}):
                    return c["data"]["state"][key]
        return default


def find(states: dict, pred) -> list[str]:
    return [mid for mid, s in states.items() if pred(s.get("state", s))]


async def open_page(base: str, lesson: str) -> tuple[Kernel, dict, float]:
    """Open a lesson page as a browser does (the class code in the URL, its cookies, the
    kernel's WebSocket); the kernel, its widgets' states and the seconds the page's HTML took."""
    http = AsyncHTTPClient()
    t0 = time.perf_counter()
    r = await http.fetch(f"{base}/voila/render/en/{lesson}?class={CODE}", request_timeout=120, follow_redirects=True)
    page_s = time.perf_counter() - t0
    m = re.search(r'"kernelId": "([0-9a-f-]{36})"', r.body.decode())
    if not m:
        raise RuntimeError("the page holds no kernel")
    jar = SimpleCookie()
    for header in r.headers.get_list("Set-Cookie"):
        jar.load(header)
    cookie = "; ".join(f"{k}={v.value}" for k, v in jar.items())
    ws_url = base.replace("http", "ws", 1) + f"/api/kernels/{m.group(1)}/channels?session_id={uuid.uuid4().hex}"
    ws = await websocket_connect(HTTPRequest(ws_url, headers={"Cookie": cookie, "Origin": base},
                                             connect_timeout=60, request_timeout=60))
    k = Kernel(ws, uuid.uuid4().hex, m.group(1), cookie, jar["_xsrf"].value if "_xsrf" in jar else "")
    return k, await k.states(), page_s


async def close_page(base: str, k: Kernel) -> None:
    """Close the page as a browser does: the shutdown beacon, then the socket."""
    await AsyncHTTPClient().fetch(f"{base}/voila/api/shutdown/{k.kernel_id}", method="POST", body=f"_xsrf={k.xsrf}",
                                  headers={"Cookie": k.cookie, "Content-Type": "application/x-www-form-urlencoded"},
                                  raise_error=False)
    k.ws.close()


def warm(st: dict, lesson: str) -> int:
    """Warm kernels of ``lesson`` (``07_play.ipynb``) in a ``/krypteach/status`` answer, whose
    pools are named by language (``en/07_play.ipynb``)."""
    pools = st["pool_ready"]
    return int(pools.get(f"en/{lesson}", pools.get(lesson, 0)))


def start_server(args: list[str], log_name: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """``krypteach serve ARGS`` on a free port, its output in ``benchmarks/LOG_NAME``; (process, base URL)."""
    port = free_port()
    log = open(ROOT / "benchmarks" / log_name, "w")
    server = subprocess.Popen([sys.executable, "-m", "krypteach", "serve", "--port", str(port), *args],
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    log.close()  # the server has its own copy
    return server, f"http://127.0.0.1:{port}"


def wait_warm(base: str, ready: Callable[[dict], bool], limit: float) -> float:
    """Wait until ``ready(status)`` holds; the seconds it took (SystemExit after ``limit``)."""
    t0 = time.perf_counter()
    while True:
        time.sleep(1)
        try:
            st = status(base)
        except OSError:
            continue
        if ready(st):
            return time.perf_counter() - t0
        if time.perf_counter() - t0 > limit:
            raise SystemExit(f"the server did not warm up in {limit / 60:.0f} minutes")


def stop_server(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=60)


def measure_served(server: subprocess.Popen, base: str, ready: Callable[[dict], bool],
                   run: Callable[[], Any], extra: dict, json_path: str | None) -> int:
    """Once ``ready(status)`` holds, run the measurement (``run()``: its coroutine), add ``extra``
    to its report, print it (and write it to ``json_path``); the server is stopped either way."""
    try:
        wait_warm(base, ready, 600)
        time.sleep(3)
        report = asyncio.run(run())
        report.update(extra)
        print(json.dumps(report, indent=1))
        if json_path:
            Path(json_path).write_text(json.dumps(report, indent=1))
        return 0
    finally:
        stop_server(server)


async def learner(base: str, lesson: str, i: int, delay: float, clicks: int, out: Learner) -> None:
    await asyncio.sleep(delay)
    t0 = time.perf_counter()
    try:
        k, states, out.page_s = await open_page(base, lesson)
        out.interactive_s = time.perf_counter() - t0

        def clicked(kind: str, seconds: float) -> None:
            out.clicks.setdefault(kind, []).append(seconds)

        hands = find(states, lambda s: s.get("kind") == "hand" and s.get("selectable") and s.get("cards"))
        buttons = {s.get("state", s).get("description", ""): mid for mid, s in states.items()
                   if s.get("state", s).get("_model_name") == "ButtonModel"}
        hint = next((mid for d, mid in buttons.items() if d.startswith("Hint")), None)
        play = next((mid for d, mid in buttons.items() if d.startswith("Play")), None)
        if lesson.startswith("07") and hands and hint and play:
            hand = hands[0]
            for _ in range(clicks):
                cards = k.latest(hand, "cards", states[hand].get("state", states[hand]).get("cards"))
                if not cards:
                    break
                clicked("select a card", await k.update(hand, {"selected": [random.randrange(len(cards))]}))
                clicked("hint", await k.click(hint))
                clicked("play", await k.click(play))
                await asyncio.sleep(random.uniform(1.0, 3.0))  # a learner looks before the next move
        else:
            selectable = find(states, lambda s: s.get("selectable") and s.get("cards"))
            for n in range(clicks):
                if not selectable:
                    break
                mid = selectable[n % len(selectable)]
                clicked("select a card", await k.update(mid, {"selected": [0] if n % 2 == 0 else []}))
                await asyncio.sleep(random.uniform(1.0, 3.0))
        await close_page(base, k)
    except Exception as e:  # every failure is counted and reported
        out.error = f"{type(e).__name__}: {e}"


def tree_rss_mib(pid: int) -> tuple[float, int]:
    """Resident memory of the server and all its kernels (MiB), and the number of kernels."""
    p = psutil.Process(pid)
    procs = [p, *p.children(recursive=True)]
    total = 0
    for q in procs:
        try:
            total += q.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20, len(procs) - 1


def status(base: str) -> dict:
    import urllib.request

    with urllib.request.urlopen(f"{base}/krypteach/status", timeout=10) as r:
        return dict(json.load(r))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learners", type=int, default=30)
    ap.add_argument("--within", type=float, default=60.0, help="seconds over which the learners arrive")
    ap.add_argument("--lesson", type=int, default=7)
    ap.add_argument("--clicks", type=int, default=8, help="moves (game) or clicks per learner")
    ap.add_argument("--watch", type=float, default=150.0, help="seconds to watch memory after the class leaves")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    random.seed(args.seed)
    lessons = ROOT / "lessons"
    lesson = sorted(p.name for p in lessons.glob(f"{args.lesson:02d}_*.ipynb"))[0]
    server, base = start_server(["--dir", str(lessons), "--class-code", CODE, "--class-size", str(args.learners),
                                 "--lesson", str(args.lesson), "--per-browser", "5"], ".load_class.log")
    n_lessons = len(list(lessons.glob("*.ipynb")))
    try:
        warmup_s = wait_warm(base, lambda st: warm(st, lesson) >= args.learners and len(st["pool_ready"]) >= n_lessons
                             and all(v >= 1 for v in st["pool_ready"].values()), 900)
        time.sleep(5)
        base_mib, base_kernels = tree_rss_mib(server.pid)
        print(f"warm-up: {warmup_s:.0f} s; {base_kernels} kernels, {base_mib:.0f} MiB (server and kernels)")

        delays = sorted(random.uniform(0, args.within) for _ in range(args.learners))
        results = [Learner(i) for i in range(args.learners)]
        peak = [base_mib, base_kernels]

        async def run() -> None:
            async def sample() -> None:
                while True:
                    mib, n = tree_rss_mib(server.pid)
                    peak[0], peak[1] = max(peak[0], mib), max(peak[1], n)
                    await asyncio.sleep(1)
            sampler = asyncio.ensure_future(sample())
            await asyncio.gather(*(learner(base, lesson, i, d, args.clicks, results[i])
                                   for i, d in enumerate(delays)))
            sampler.cancel()

        asyncio.run(run())
        left = time.perf_counter()
        back = None
        trace = []
        while time.perf_counter() - left < args.watch:
            mib, n = tree_rss_mib(server.pid)
            trace.append((round(time.perf_counter() - left), round(mib), n))
            if back is None and mib <= base_mib * 1.05 + 50 and n <= base_kernels:
                back = time.perf_counter() - left
            time.sleep(5)
        errors = [r.error for r in results if r.error]
        pages = [r.interactive_s for r in results if r.interactive_s is not None]
        html = [r.page_s for r in results if r.page_s is not None]
        kinds: dict[str, list[float]] = {}
        for r in results:
            for kind, vals in r.clicks.items():
                kinds.setdefault(kind, []).extend(vals)
        every = [v for vals in kinds.values() for v in vals]
        report = {
            "learners": args.learners, "within_s": args.within, "lesson": lesson, "warmup_s": round(warmup_s),
            "live_pages": len(pages), "errors": errors,
            "page_html_s": {"p50": pct(html, 50), "p95": pct(html, 95)},
            "page_to_interactive_s": {"p50": pct(pages, 50), "p95": pct(pages, 95), "max": max(pages, default=None)},
            "clicks_ms": {k: {"n": len(v), "p50": 1000 * pct(v, 50), "p95": 1000 * pct(v, 95)}
                          for k, v in sorted(kinds.items())},
            "all_clicks_ms": {"n": len(every), "p50": 1000 * pct(every, 50), "p95": 1000 * pct(every, 95)},
            "memory_mib": {"baseline": round(base_mib), "peak": round(peak[0]),
                           "per_learner": round((peak[0] - base_mib) / max(1, args.learners), 1)},
            "kernels": {"baseline": base_kernels, "peak": peak[1]},
            "back_to_baseline_s": None if back is None else round(back),
            "memory_trace": trace,
            "cpus": os.cpu_count(),
        }
        print(json.dumps({k: v for k, v in report.items() if k != "memory_trace"}, indent=1))
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=1))
        return 0 if not errors else 1
    finally:
        stop_server(server)


if __name__ == "__main__":
    raise SystemExit(main())
