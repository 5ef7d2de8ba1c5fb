"""Where a first visit's CPU goes: the static site's lesson page traced in Chromium (issue 25).

    python benchmarks/site_cpu.py --site SITE [--lesson 03_take_all] [--runs 3] [--json cpu.json]

Each run opens the lesson in a new Chromium profile with the site's service worker allowed (a
first visit: an empty cache, no code cache), traces it with CDP (``Tracing.start``) from
navigation until the first card of the lesson's first exercise is clickable, and sums, per
thread, the CPU time (``tdur``) of its outermost events: the page's main thread (voici's
scripts), the kernel's Web Worker (Python), the site's service worker, the renderer's thread
pool (V8 compiling in the background: ``wasm.TopTierCompilation`` is the optimizing compiler
working on Python's WebAssembly), and the browser's and GPU's processes. On a 2-core machine a
first visit is interactive no sooner than its CPU time on the critical path, shared with the
rest, allows; this says what that rest is. The machine's other load inflates every figure:
compare runs made together, and see "interactive" for how slowed a run was.
"""

from __future__ import annotations

import argparse
import base64
import collections
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.site_load import CARD, _Counted  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "v8", "v8.execute",
              "v8.wasm", "disabled-by-default-v8.compile", "blink", "loading", "ServiceWorker"]
#: the events whose CPU each thread's figure names as its largest parts
PARTS = {"wasm.TopTierCompilation": "V8 optimizing Python's WebAssembly",
         "wasm.CompileLazy": "WebAssembly compiled as first called",
         "v8.parseOnBackground": "scripts parsed in the background",
         "EvaluateScript": "scripts run (compiled as called)",
         "V8.CompileCode": "scripts compiled",
         "DecompressionStream Inflate": "gzip copies unpacked",
         "FunctionCall": "JavaScript functions run (in the kernel's worker: Python)"}


def trace_first_visit(site: Path, lesson: str) -> tuple[float, list[dict]]:
    """The lesson's first visit, traced: (seconds to interactive, the trace's events)."""
    from playwright.sync_api import sync_playwright

    served = _Counted(site)
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
            ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                       viewport={"width": 1280, "height": 900},
                                                       service_workers="allow")
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES},
                                       "transferMode": "ReturnAsStream"})
            t0 = time.monotonic()
            page.goto(f"{served.base}/voici/render/{lesson}.html", timeout=600_000)
            page.locator(CARD).first.wait_for(timeout=600_000)
            interactive = time.monotonic() - t0
            done: dict = {}
            cdp.on("Tracing.tracingComplete", lambda event: done.update(event))
            cdp.send("Tracing.end")
            while not done:
                page.wait_for_timeout(100)
            data = []
            while True:
                chunk = cdp.send("IO.read", {"handle": done["stream"], "size": 1 << 20})
                data.append(base64.b64decode(chunk["data"]) if chunk.get("base64Encoded") else chunk["data"].encode())
                if chunk.get("eof"):
                    break
            ctx.close()
    finally:
        served.server.shutdown()
    trace = json.loads(b"".join(data))
    return interactive, trace["traceEvents"] if isinstance(trace, dict) else trace


def cpu_by_thread(events: list[dict]) -> dict[str, dict]:
    """Per thread (named "process: thread", a renderer's thread pool as one): the CPU seconds of
    its outermost events, and of the :data:`PARTS` within them."""
    names: dict[tuple[int, int], str] = {}
    processes: dict[int, str] = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") == "M" and e.get("name") == "process_name":
            processes[e["pid"]] = e["args"]["name"]
    by_thread: dict[tuple[int, int], list[dict]] = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and "dur" in e:
            by_thread[(e["pid"], e["tid"])].append(e)
    out: dict[str, dict] = {}
    for key, evs in by_thread.items():
        thread = names.get(key, "?")
        if thread.startswith("ThreadPool") and "Foreground" in thread and "Single" not in thread:
            thread = "thread pool (V8's background work)" if processes.get(key[0]) == "Renderer" else "thread pool"
        label = f"{processes.get(key[0], '?')}: {thread}"
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        end, cpu = -1, 0
        parts: collections.Counter[str] = collections.Counter()
        for e in evs:
            if e["ts"] >= end:
                cpu += e.get("tdur", e["dur"])
                end = e["ts"] + e["dur"]
            if e["name"] in PARTS:
                parts[e["name"]] += e.get("tdur", e["dur"])
        row = out.setdefault(label, {"cpu_s": 0.0, "parts_s": {}})
        row["cpu_s"] += cpu / 1e6
        for name, t in parts.items():
            row["parts_s"][PARTS[name]] = row["parts_s"].get(PARTS[name], 0.0) + t / 1e6
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", required=True, help="a built site (krypteach build-site DIR --pyodide npm)")
    ap.add_argument("--lesson", default="03_take_all")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    site = Path(args.site).resolve()
    if args.runs < 1:
        ap.error(f"--runs must be at least 1, not {args.runs}")
    if not (site / "voici" / "render" / f"{args.lesson}.html").is_file():
        ap.error(f"no lesson page {args.lesson}.html in {site}/voici/render: build the site first")
    if not CHROMIUM:
        print("needs Debian chromium (apt-get install -y chromium)", file=sys.stderr)
        return 2
    runs: list[dict] = []
    for _ in range(args.runs):
        interactive, events = trace_first_visit(site, args.lesson)
        runs.append({"interactive_s": round(interactive, 2), "threads": cpu_by_thread(events)})
    labels = sorted({label for run in runs for label in run["threads"]},
                    key=lambda label: -statistics.median(run["threads"].get(label, {"cpu_s": 0})["cpu_s"] for run in runs))
    print("first visit of " + args.lesson + ": interactive after " + ", ".join(f"{r['interactive_s']:.2f}" for r in runs) + " s")
    print("CPU seconds until then, each run:")
    for label in labels:
        rows = [run["threads"].get(label, {"cpu_s": 0.0, "parts_s": {}}) for run in runs]
        if max(row["cpu_s"] for row in rows) < 0.05:
            continue
        print(f"  {label}: " + ", ".join(f"{row['cpu_s']:.2f}" for row in rows))
        for part in sorted({p for row in rows for p in row["parts_s"]}):
            values = [row["parts_s"].get(part, 0.0) for row in rows]
            if max(values) >= 0.05:
                print(f"      {part}: " + ", ".join(f"{v:.2f}" for v in values))
    total = [sum(row["cpu_s"] for row in run["threads"].values()) for run in runs]
    print("  all threads: " + ", ".join(f"{t:.2f}" for t in total))
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
