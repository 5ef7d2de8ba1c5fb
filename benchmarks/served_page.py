"""A served lesson's first load in Chromium: bytes over the wire and time to the first card.

Against a running ``krypteach serve --open`` (no class code): each run is a new browser context,
so an empty cache, as a learner's first visit. ``--throttle`` emulates a school connection
(10 Mbit/s, 40 ms, as benchmarks/site_load.py); ``--share N`` divides that bandwidth by N, as N
learners arriving together on one connection would share it.

    krypteach serve --open --port 8873 &
    python benchmarks/served_page.py --url http://127.0.0.1:8873 --lesson 03_take_all --runs 3 [--throttle]

Figures: docs/classroom.md ("Scripts and styles sent compressed").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

SLOW = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 10e6 / 8}


def one_load(browser, url: str, conditions: dict | None) -> tuple[float, int]:
    """Seconds from navigation to the first clickable card, and the bytes received."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        if conditions:
            cdp.send("Network.emulateNetworkConditions", conditions)
        received = [0]
        cdp.on("Network.loadingFinished", lambda e: received.__setitem__(0, received[0] + int(e["encodedDataLength"])))
        start = time.perf_counter()
        page.goto(url, timeout=180_000)
        page.locator(".kt-selectable .kt-card, .kt-card").first.wait_for(timeout=180_000)
        seconds = time.perf_counter() - start
        page.wait_for_timeout(1000)  # the last requests of the page finish
        return seconds, received[0]
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8873 (krypteach serve --open)")
    ap.add_argument("--lesson", default="03_take_all")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--throttle", action="store_true", help="10 Mbit/s, 40 ms")
    ap.add_argument("--share", type=int, default=1, help="with --throttle: the bandwidth shared by N learners")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.share < 1:
        ap.error("--runs and --share: 1 or more")
    conditions = None
    if args.throttle:
        conditions = dict(SLOW)
        conditions["downloadThroughput"] = SLOW["downloadThroughput"] / args.share
        conditions["uploadThroughput"] = SLOW["uploadThroughput"] / args.share
    url = f"{args.url.rstrip('/')}/voila/render/{args.lang}/{args.lesson}.ipynb"
    times, sizes = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(args.runs):
                seconds, size = one_load(browser, url, conditions)
                times.append(seconds)
                sizes.append(size)
        finally:
            browser.close()
    where = "throttled to 10 Mbit/s, 40 ms" if args.throttle else "localhost"
    if args.throttle and args.share > 1:
        where += f", shared by {args.share}"
    print(f"{args.lesson}, {where}, {args.runs} runs:")
    print(f"first card after {statistics.median(times):.2f} s (median; runs {', '.join(f'{t:.2f}' for t in times)})")
    print(f"transferred {statistics.median(sizes) / 1e6:.2f} MB (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
