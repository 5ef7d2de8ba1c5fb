"""Duplicate-deal match between a bot of this tree and the same bot of an older commit.

The older code is imported under another package name, so both run in one
process and play the same givar: every deck is played twice with the seats
swapped (as ``krypteach tournament`` does). Each giv runs in both engines at
once; the older bot sees the older engine's observation, and every move is
played in both (they must agree on legality and on the final scores, which
checks that the two engines play the same game)::

    git worktree add /tmp/old 390c065
    mkdir -p /tmp/oldpkg && cp -r /tmp/old/krypteach /tmp/oldpkg/krypteach_old
    python benchmarks/compare_old_bot.py --old /tmp/oldpkg --bot expert --givar 1000 --seed 1 --jobs 2

The summary is the tournament's: mean giv score per bot and the paired
difference (new − old) with its 95% confidence interval over the decks.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from krypteach.bots import make_bot
from krypteach.engine.game import Giv
from krypteach.engine.moves import Move
from krypteach.engine.rules import Rules
from krypteach.play.simulate import chunked, in_order
from krypteach.play.tournament import Row, Tournament, parse_bot_spec

NEW, OLD = "new", "old"


def _old(old_path: str, package: str) -> Any:
    if old_path not in sys.path:
        sys.path.insert(0, old_path)
    return importlib.import_module(package)


def play_pair(job: tuple) -> list[tuple[int, tuple[int, ...], tuple[str, ...]]]:
    """Worker: the givar ``(number, dealer, deck seed)`` of a chunk, each with its lineup."""
    old_path, package, new_spec, old_spec, items = job
    old = _old(old_path, package)
    old_game = importlib.import_module(package + ".game")
    old_bots = importlib.import_module(package + ".bots")
    old_moves = importlib.import_module(package + ".moves")
    out = []
    for i, dealer, deck_seed in items:
        lineup = (NEW, OLD) if i % 2 == 0 else (OLD, NEW)
        g = Giv(Rules(), dealer=dealer, seed=deck_seed)
        og = old_game.Giv(old.Rules(), dealer=dealer, seed=deck_seed)
        assert [str(c) for c in g.deals[0].hands[0]] == [str(c) for c in og.deals[0].hands[0]], "different deals"
        bots = []
        for s, who in enumerate(lineup):
            seed = (deck_seed + 7919 * s) & 0xFFFFFFFF  # by seat: two equal bots play equally
            name, options = parse_bot_spec(new_spec if who == NEW else old_spec)
            bots.append(make_bot(name, seed=seed, **options) if who == NEW
                        else old_bots.make_bot(name, seed=seed, **options))
        while not g.is_over:
            if lineup[g.turn] == NEW:
                move = bots[g.turn].choose(g.observation())
            else:
                move = Move.parse(str(bots[g.turn].choose(og.observation())))
            g.play(move)
            og.play(old_moves.Move.parse(str(move)))
        assert tuple(g.result.scores) == tuple(og.result.scores), "the engines disagree on the scores"
        out.append((i, g.result.scores, lineup))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--old", default="/tmp/oldpkg", help="folder holding the older package")
    p.add_argument("--package", default="krypteach_old", help="the older package's name there")
    p.add_argument("--bot", default="expert", help="bot spec for both, e.g. expert or careful")
    p.add_argument("--new-bot", default=None, help="bot spec for this tree's bot (default: --bot)")
    p.add_argument("--givar", type=int, default=200, help="an even number: every deck twice")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--json", default=None, help="append the result as one JSON line to this file")
    a = p.parse_args(argv)
    if a.givar % 2:
        p.error("--givar must be even (every deck is played twice)")
    rng = random.Random(a.seed)
    items = []
    for cycle in range(a.givar // 2):
        deck = rng.getrandbits(64)
        items += [(2 * cycle, cycle % 2, deck), (2 * cycle + 1, cycle % 2, deck)]
    t0 = time.perf_counter()
    result = Tournament(Rules(), (NEW, OLD))

    def emit(item: tuple) -> None:
        i, scores, lineup = item
        for s in range(2):
            result.rows.append(Row(i, s, lineup[s], scores[s]))

    new_spec = a.new_bot or a.bot
    in_order(play_pair, [(a.old, a.package, new_spec, a.bot, chunk) for chunk in chunked(items, a.jobs)], a.jobs, emit)
    seconds = time.perf_counter() - t0
    print(f"new: {new_spec} (this tree), old: {a.bot} ({a.package} from {a.old})")
    print(result.summary())
    d, h = result.difference(NEW, OLD)
    print(f"({seconds:.0f} s on {a.jobs} processes)")
    if a.json:
        with open(a.json, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"what": "new-vs-old", "new": new_spec, "old": a.bot, "givar": a.givar, "seed": a.seed,
                                 "difference": [d, h], "means": {b: result.mean_ci(b) for b in (NEW, OLD)},
                                 "seconds": seconds}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
