"""Measure the static site (``krypteach build-site``) in Chromium: size, first load cold and
cached, page to interactive, click round trip (docs/performance.md, "The static site").

    python benchmarks/site_load.py                 # builds an offline site (--pyodide npm) in a temp folder
    python benchmarks/site_load.py --site _site    # an existing site
    python benchmarks/site_load.py --json site.json --clicks 30
    python benchmarks/site_load.py --site _site --app [--profile] [--runs 5]   # with the service worker (issue 25)
    python benchmarks/site_load.py --site _site --app --read 10   # the first lesson read 10 s before the next

The site is served by ``python -m http.server --bind 127.0.0.1`` from its parent folder
(a sub-path, as on a project page host); every request to another address is aborted and
counted. *Cold*: a new browser profile (empty HTTP cache). *Cached*: the same profile
opens the page again (http.server answers revalidations with 304). *Page to
interactive*: from navigation to the first clickable card of the lesson's first
exercise (the kernel has started in the page, imported krypteach and drawn the
widgets). *Click round trip*: a table card clicked until Python has redrawn it
(a message to the in-browser kernel and back), timed in the page (:func:`click_times`).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, _free_port  # noqa: E402

#: the first card of a lesson's first exercise: the page is interactive when it can be clicked
CARD = ".kt-exercise .kt-cards.kt-table .kt-card"


def build(out: Path) -> float:
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-m", "krypteach", "build-site", str(out), "--pyodide", "npm"], check=True)
    return time.monotonic() - t0


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """``folder`` served by ``http.server`` from its parent (a sub-path, as on a project page
    host): its address."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port),
                               "--directory", str(folder.parent)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/{folder.name}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/index.html", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait()



#: ``n`` clicks on the first card matching ``selector``, each dispatched and timed in the page:
#: from the click until Python's redraw of the card reaches the page (cards.js patches the card's
#: children with Python's SVG: a ``childList`` change in its row), then 0.1 s for any later redraw
#: to land before the next click. The page marks the card at once itself (a class, no children
#: changed), so only Python's answer ends a click's time.
_CLICK_JS = """async ([selector, n]) => {
  const out = [];
  for (let k = 0; k < n; k++) {
    const card = document.querySelector(selector);
    const row = card.closest(".kt-row");
    let observer = null;
    const redrawn = new Promise((resolve, reject) => {
      observer = new MutationObserver((changes) => {
        if (changes.some((change) => change.type === "childList")) { resolve(performance.now()); }
      });
      observer.observe(row, { childList: true, subtree: true });
      setTimeout(() => reject(new Error("no redraw from Python within 30 s")), 30000);
    });
    const t0 = performance.now();
    card.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
    try { out.push((await redrawn) - t0); } finally { observer.disconnect(); }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return out;
}"""


def click_times(page, card: str, n: int) -> list[float]:
    """``n`` clicks on the first ``card``, each until Python has redrawn it: the round trips in
    ms, timed in the page (:data:`_CLICK_JS`). Not Playwright's ``click``: it first waits for the
    card to stand still, and a chosen card rises for 0.12 s (cards.css), so its figure was the
    animation and Playwright's checks (150–300 ms here), not the page's answer."""
    return [float(t) for t in page.evaluate(_CLICK_JS, [card, n])]


def measure(site: Path, lesson: str, clicks: int, profile: bool = False) -> dict:
    with serve(site) as base:
        return _measure(base, lesson, clicks, profile)


#: what the page says while it starts (voici's loading text), read every 20 ms: the phases' ends;
#: and when the lesson's title is first the topmost thing at its place ("lesson text shown")
_WATCH_JS = """
(() => { let last = null, read = false; const t = () => { const el = document.getElementById("loading_text");
  const now = el ? el.textContent : "(drawn)";
  if (now !== last) { last = now; console.log("kt-phase " + now); }
  const h1 = read ? null : document.querySelector("#rendered_cells h1");
  if (h1) { const r = h1.getBoundingClientRect(), at = document.elementFromPoint(r.left + 5, r.top + r.height / 2);
    if (r.height > 0 && at && h1.contains(at)) { read = true; console.log("kt-phase lesson text shown"); } }
  if (el || !read) { setTimeout(t, 20); } }; document.addEventListener("DOMContentLoaded", t); })();
"""


def _watch_phases(ctx, page, marks: dict[str, float]) -> None:
    """Note when the page asks for Pyodide's core, the first and the last wheel, and when its
    loading text changes (the kernel connected, each cell started, all drawn)."""
    page.add_init_script(_WATCH_JS)

    def request(req) -> None:
        url = req.url
        now = time.monotonic()
        if url.endswith("pyodide.asm.wasm"):
            marks.setdefault("core asked", now)
        elif url.endswith(".whl"):
            marks.setdefault("first wheel asked", now)
            marks["last wheel asked"] = now

    def finished(req) -> None:
        if req.url.endswith(".whl"):
            marks["last wheel done"] = time.monotonic()
        elif req.url.endswith("pyodide.asm.wasm"):
            marks["core done"] = time.monotonic()

    def console(msg) -> None:
        text = msg.text
        if text.startswith("kt-phase "):
            what = text.removeprefix("kt-phase ")
            key = "cell" if re.search(r"\d+\D+\d+", what) else what  # "Executing 3 of 9", in any language
            if key == "cell":
                marks.setdefault("first cell", time.monotonic())
                marks["last cell"] = time.monotonic()
            else:
                marks.setdefault(key, time.monotonic())

    ctx.on("request", request)
    ctx.on("requestfinished", finished)
    page.on("console", console)


def _phases(marks: dict[str, float], end: float) -> dict[str, float]:
    """Each mark's time after navigation, in order, and the end (the first card clickable)."""
    t0 = marks.get("t0", end)
    got = {k: round(v - t0, 2) for k, v in marks.items() if k != "t0"}
    got["first card clickable"] = round(end - t0, 2)
    return dict(sorted(got.items(), key=lambda kv: kv[1]))


def _measure(base: str, lesson: str, clicks: int, profile: bool = False) -> dict:
    from playwright.sync_api import sync_playwright

    port = int(base.split(":")[2].split("/")[0])
    other: list[str] = []
    result: dict = {}
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as folder:
            ctx = p.chromium.launch_persistent_context(folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                       viewport={"width": 1280, "height": 900},
                                                       service_workers="block")

            def route(r) -> None:
                if r.request.url.startswith(f"http://127.0.0.1:{port}/"):
                    r.continue_()
                else:
                    other.append(r.request.url)
                    r.abort()

            ctx.route("**/*", route)
            page = ctx.new_page()
            got = {"bytes": 0, "requests": 0}

            def done(req) -> None:
                try:
                    got["bytes"] += req.sizes()["responseBodySize"]
                    got["requests"] += 1
                except Exception:
                    pass

            page.on("requestfinished", done)
            marks: dict[str, float] = {}
            if profile:
                _watch_phases(ctx, page, marks)
            url = f"{base}/voici/render/{lesson}.html"
            for label in ("cold", "cached"):
                got.update(bytes=0, requests=0)
                t0 = time.monotonic()
                page.goto(url, timeout=300_000)
                html = time.monotonic() - t0
                marks.clear()
                marks["t0"] = t0
                page.locator(CARD).first.wait_for(timeout=300_000)
                result[label] = {"html_s": round(html, 2), "page_to_interactive_s": round(time.monotonic() - t0, 2),
                                 "transferred_mb": round(got["bytes"] / 1e6, 1), "requests": got["requests"]}
                if profile:
                    result[label]["phases_s"] = _phases(marks, time.monotonic())
            times = sorted(click_times(page, CARD, clicks))
            result["click_ms"] = {"p50": round(statistics.median(times)),
                                  "p95": round(times[max(0, int(0.95 * len(times)) - 1)]), "n": len(times)}
            ctx.close()
    finally:
        result["other_addresses_asked"] = other
    return result


class _Counted:
    """``folder``'s parent served from a thread of this process, counting the bytes of every
    answer's body: what crossed the network, whoever asked (the page, its worker, the service worker)."""

    def __init__(self, folder: Path):
        import functools
        import http.server
        import threading

        counter = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def copyfile(self, source, outputfile) -> None:  # type: ignore[override]
                data = source.read()
                counter.bytes += len(data)
                counter.requests += 1
                counter.paths[self.path.split("?")[0]] += len(data)
                outputfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.bytes = 0
        self.requests = 0
        self.paths: collections.Counter[str] = collections.Counter()  #: bytes per path (a path asked twice adds up)
        self.server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder.parent)))
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/{folder.name}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self) -> tuple[float, int]:
        got = (round(self.bytes / 1e6, 2), self.requests)
        self.bytes = self.requests = 0
        self.paths.clear()
        return got


#: 10 Mbit/s down and up, 40 ms: a slow school connection (CDP's throughput is in bytes/s)
SLOW = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 10e6 / 8}


def kept_last(site: Path) -> list[str]:
    """The files the site's worker keeps only once a page has been open a while, as its
    ``CACHE_LAST`` names them (the pack of the wheels and Python's snapshot: paths in the site, with
    the ``?v=`` of their content since 2026-12-06); [] for a site without them. Read from the
    site's worker, so that a site built before is measured too."""
    worker = (site / "service-worker.js").read_text(encoding="utf-8")
    if "const CACHE_LAST = " not in worker:
        return []
    return json.loads(worker.split("const CACHE_LAST = ")[1].split(";\n")[0])


def measure_app(site: Path, lesson: str, next_lesson: str, throttle: bool = False, files: int = 0,
                profile: bool = False, read: float = 0) -> dict:
    """With the site's service worker (allowed, a new profile): the first visit of ``lesson``,
    then ``next_lesson``, then ``lesson`` again once the worker has kept what a lesson needs and
    what it keeps last (:func:`kept_last`).
    Transferred = the bytes the server sent meanwhile; ``files``: also that many of the paths
    that took the most bytes (a path sent twice counts twice); ``profile``: each page's phases too,
    as :func:`measure` notes them. ``read``: the seconds a learner reads the first lesson before
    going to the next (0: at once, as soon as it is interactive); the worker's keeping goes on
    meanwhile."""
    from playwright.sync_api import sync_playwright

    served = _Counted(site)
    marks: dict[str, float] = {}
    result: dict = {"throttled": SLOW if throttle else None}
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as browser_profile:
            ctx = p.chromium.launch_persistent_context(browser_profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                       viewport={"width": 1280, "height": 900},
                                                       service_workers="allow")
            page = ctx.new_page()
            if profile:
                _watch_phases(ctx, page, marks)
            if throttle:
                cdp = ctx.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", SLOW)
            for label, name in (("first_visit", lesson), ("next_lesson", next_lesson), ("second_visit", lesson)):
                if label == "next_lesson" and read:
                    time.sleep(read)
                if label == "second_visit":  # the keeping after the first two pages, not timed
                    deadline = time.monotonic() + 300
                    wanted = [f"{served.base}/{path}" for path in ["static/pyodide/pyodide.asm.wasm", *kept_last(site)]]
                    while time.monotonic() < deadline and not page.evaluate(
                            "urls => caches.keys().then(async ns => { for (const n of ns) { if (!n.startsWith('krypteach-'))"
                            " continue; const c = await caches.open(n); let all = true;"
                            " for (const u of urls) { if (!(await c.match(u))) all = false; } if (all) return true; }"
                            " return false; })", wanted):
                        time.sleep(0.5)
                    time.sleep(2)
                served.take()
                marks.clear()
                t0 = marks["t0"] = time.monotonic()
                page.goto(f"{served.base}/voici/render/{name}.html", timeout=600_000)
                page.locator(CARD).first.wait_for(timeout=600_000)
                biggest = {path: round(n / 1e6, 2) for path, n in served.paths.most_common(files)}
                mb, requests = served.take()
                result[label] = {"lesson": name, "page_to_interactive_s": round(time.monotonic() - t0, 2),
                                 "transferred_mb": mb, "requests_to_server": requests,
                                 # "used": the kernel took the Python the page started as it opened
                                 "early_python": page.evaluate("window.krypteachEarlyStart || null"),
                                 # "snapshot": Python started from the snapshot the site's worker kept
                                 "python_from": page.evaluate("window.krypteachPythonFrom || null"),
                                 "pack_from": page.evaluate("window.krypteachPackFrom || null")}
                if files:
                    result[label]["biggest_mb"] = biggest
                if profile:
                    result[label]["phases_s"] = _phases(marks, time.monotonic())
            times = click_times(page, CARD, 10)
            result["click_ms_p50"] = round(statistics.median(times))
            ctx.close()
    finally:
        served.server.shutdown()
    return result


def summarize(runs: list[dict]) -> dict:
    """Per page of :func:`measure_app` (first visit, next lesson, second visit) and for the clicks:
    the median and the range of the runs' times; with ``--profile``, of when the lesson's text was
    shown too.

    >>> summarize([{"first_visit": {"page_to_interactive_s": t}, "click_ms_p50": c} for t, c in ((5.2, 160), (4.8, 250), (5.0, 170))])
    {'first_visit': {'median_s': 5.0, 'min_s': 4.8, 'max_s': 5.2}, 'click_ms_p50': {'median': 170, 'min': 160, 'max': 250}}
    >>> summarize([{"second_visit": {"page_to_interactive_s": 2.6, "phases_s": {"lesson text shown": t}}} for t in (0.1, 0.3)])
    {'second_visit': {'median_s': 2.6, 'min_s': 2.6, 'max_s': 2.6, 'text_shown': {'median_s': 0.2, 'min_s': 0.1, 'max_s': 0.3}}}
    """
    def spread(values: list, unit: str = "_s") -> dict:
        median = statistics.median(values)
        return {f"median{unit}": round(median, 2) if unit else round(median), f"min{unit}": min(values),
                f"max{unit}": max(values)}

    out: dict = {}
    for label in ("first_visit", "next_lesson", "second_visit"):
        pages = [run[label] for run in runs if label in run]
        if pages:
            out[label] = spread([page["page_to_interactive_s"] for page in pages])
            shown = [page["phases_s"]["lesson text shown"] for page in pages
                     if "lesson text shown" in page.get("phases_s", {})]
            if shown:
                out[label]["text_shown"] = spread(shown)
    clicks = [run["click_ms_p50"] for run in runs if "click_ms_p50" in run]
    if clicks:
        out["click_ms_p50"] = spread(clicks, "")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", default=None, help="an existing site folder (default: build one with --pyodide npm)")
    ap.add_argument("--lesson", default="03_take_all")
    ap.add_argument("--clicks", type=int, default=20)
    ap.add_argument("--json", default=None)
    ap.add_argument("--app", action="store_true",
                    help="with the service worker: first visit, the next lesson, a second visit (issue 25)")
    ap.add_argument("--next", default="04_tabbe", help="the next lesson for --app")
    ap.add_argument("--throttle", action="store_true", help="with --app: 10 Mbit/s, 40 ms (CDP)")
    ap.add_argument("--files", type=int, default=0, help="with --app: list the N paths that took the most bytes")
    ap.add_argument("--profile", action="store_true",
                    help="also note when each phase ends (Pyodide's core, the wheels, the kernel, the cells)")
    ap.add_argument("--read", type=float, default=0,
                    help="with --app: seconds on the first lesson before the next (default 0: at once)")
    ap.add_argument("--runs", type=int, default=1,
                    help="with --app: that many runs, each in a new profile; the times' median and range too "
                         "(a 2-core machine's runs spread by a second)")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error(f"--runs must be at least 1, not {args.runs}")
    if args.read < 0:
        ap.error(f"--read must be 0 or more seconds, not {args.read}")
    if not CHROMIUM:
        print("needs Debian chromium (apt-get install -y chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.site) if args.site else Path(tmp) / "krypkasino-kurs"
        report: dict = {}
        if not args.site:
            report["build_s"] = round(build(out), 1)
        report["site_mb"] = round(size(out) / 1e6, 1)
        report["lesson"] = args.lesson
        if args.app:
            runs = [measure_app(out.resolve(), args.lesson, args.next, args.throttle, args.files, args.profile,
                                args.read)
                    for _ in range(args.runs)]
            report.update(runs[0] if args.runs == 1 else {"runs": runs, "summary": summarize(runs)})
            report["other_addresses_asked"] = []  # a server of this process: only it answers
        else:
            report.update(measure(out.resolve(), args.lesson, args.clicks, args.profile))
    print(json.dumps(report, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 1 if report["other_addresses_asked"] else 0


if __name__ == "__main__":
    sys.exit(main())
