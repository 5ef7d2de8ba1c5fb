"""How soon the coach's review is ready after a giv's last move (issue 22), with the analysis
done in the background while the giv is played.

    python benchmarks/review_ready.py [--givar 3] [--think 1.5] [--learner careful|random|lays-out]
    python benchmarks/review_ready.py --site [SITE]     # in the static site, Chromium (lessons 07, 10)

*Kernel* (what ``krypteach serve`` runs for each page): the game page (:class:`GameTable`, as in
lessons 07, 10 and 11) in an asyncio event loop, as a kernel runs the widgets' callbacks. A
learner (a bot of ``--learner``'s level choosing from the learner's observation) moves after
``--think`` seconds; the coach works in the gaps. At the giv's end the benchmark presses
Review my moves and times it until the review is shown: *ready*. It also reports the longest
slice of background work (how long a click can wait for the coach) and the decisions still
to do at the last move. Two-player Krypkasino, classic Kasino and avig kasino.

*Site*: ``krypteach build-site`` (``--pyodide npm``, or an existing site), lessons 07
(Krypkasino) and 10 (classic Kasino) opened in Chromium, a giv played by clicking legal moves with ``--think`` seconds between moves, then
Review my moves clicked and timed until its summary shows: the in-browser Python's figure.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class LaysOut:
    """The learner who lays out a card (trails) whenever the rules let them: in classic Kasino the
    table fills with loose cards, and the decisions with builds (the coach's hardest case)."""

    def choose(self, obs):  # type: ignore[no-untyped-def]
        moves = obs.legal_moves()
        trails = [m for m in moves if m.kind == "creep"]
        return trails[0] if trails else moves[0]


async def one_giv(preset: str, seed: int, think: float, learner: str) -> dict[str, float]:
    from krypteach import Rules
    from krypteach.bots import make_bot
    from krypteach.widgets import GameTable

    table = GameTable(Rules.preset(preset), seed=seed)
    bot = LaysOut() if learner == "lays-out" else make_bot(learner, seed=seed)
    slices: list[float] = []
    step = table.coach.step

    def timed(seconds: float) -> bool:
        t = time.perf_counter()
        try:
            return step(seconds)
        finally:
            slices.append(time.perf_counter() - t)

    table.coach_work._step = timed
    moves = 0
    while not table.giv.is_over:
        move = bot.choose(table.giv.observation(0))
        table.select_hand(move.card)
        table._play(move)
        moves += 1
        if not table.giv.is_over:
            await asyncio.sleep(think)
    left = table.coach.pending
    await asyncio.sleep(0.05)  # the page sends the click
    t = time.perf_counter()
    table.review_giv()
    ready = time.perf_counter() - t
    assert table.review_view.review is not None
    return {"ready": ready, "left": left, "slice": max(slices, default=0.0), "slices": len(slices),
            "moves": moves, "work": sum(slices)}


def kernel(args: argparse.Namespace) -> None:
    for preset in ("krypkasino", "kasino", "avig-kasino"):
        rows = [asyncio.run(one_giv(preset, 100 + i, args.think, args.learner)) for i in range(args.givar)]
        ready = [r["ready"] for r in rows]
        print(f"{preset:12} learner {args.learner}, think {args.think} s, {len(rows)} givar: ready after the last move "
              f"mean {statistics.mean(ready):.2f} s, max {max(ready):.2f} s; decisions left at the last move "
              f"{[int(r['left']) for r in rows]}; background work a giv {statistics.mean(r['work'] for r in rows):.1f} s "
              f"in {statistics.mean(r['slices'] for r in rows):.0f} slices, longest slice {max(r['slice'] for r in rows):.2f} s",
              flush=True)


def site(args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    from benchmarks.site_load import build, serve
    from tests.conftest import CHROMIUM, CHROMIUM_ARGS
    from tests.test_browser import choose_a_legal_move, wait_for_the_others
    from tests.test_browser_coach import play_a_kasino_giv_badly

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            print(f"built the site in {build(folder):.0f} s", flush=True)
        with serve(folder.resolve()) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for lesson in args.lessons.split(","):
                for i in range(args.givar):
                    page = browser.new_page(viewport={"width": 1280, "height": 800})
                    page.goto(f"{base}/voici/render/{lesson}.html")
                    game = page.locator(".kt-game")
                    game.locator(".kt-status", has_text="Your turn").wait_for(timeout=180_000)
                    if lesson.startswith("07"):
                        rng = random.Random(i)
                        log, final = game.locator(".kt-log li"), game.locator(".kt-final")
                        while not final.count():
                            before = log.count()
                            choose_a_legal_move(page, rng, 60_000)
                            game.locator(".kt-buttons button", has_text="Play").click()
                            wait_for_the_others(page, before, 2, 60_000)
                            page.wait_for_timeout(args.think * 1000)
                    else:  # lesson 10: classic Kasino, every card laid out
                        play_a_kasino_giv_badly(page, "kasino", "en", 60_000, args.think * 1000)
                    t = time.perf_counter()
                    game.get_by_role("button", name="Review my moves (coach)").click()
                    game.locator(".kt-review-summary", has_text="Move quality: ").wait_for(timeout=300_000)
                    print(f"site, {lesson}, giv {i + 1}: the review shown {time.perf_counter() - t:.2f} s after "
                          f"the click (think {args.think} s a move)", flush=True)
                    page.close()
            browser.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--givar", type=int, default=3)
    ap.add_argument("--think", type=float, default=1.5, help="seconds the learner takes a move")
    ap.add_argument("--learner", default="careful",
                    help="the level of the bot that plays the learner's seat, or lays-out (trails whenever it may)")
    ap.add_argument("--lessons", default="07_play,10_kasino", help="the site's lessons to play (07: Krypkasino, 10: Kasino)")
    ap.add_argument("--site", nargs="?", const="", default=None, help="measure the static site (a folder, or build one)")
    args = ap.parse_args()
    if args.site is not None:
        site(args)
    else:
        kernel(args)


if __name__ == "__main__":
    main()
