"""Engine speed: random givar per second and capture_options on big tables.

Run:  python benchmarks/bench_engine.py [--givar 2000] [--players 2] [--repeat 3]

Reports the best of ``--repeat`` runs (one process, one core). Results and the
machine they were measured on go in docs/performance.md.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from krypteach import Card, Rules, capture_options, parse_cards
from krypteach.engine import captures
from krypteach.play.simulate import simulate


def clear_caches() -> None:
    """Empty every cache of the capture code."""
    captures.clear_caches()


def givar_per_second(players: int, givar: int, seed: int) -> float:
    clear_caches()  # start cold: count the caches' warm-up in the measurement
    t = time.perf_counter()
    simulate(Rules(players=players), givar, seed=seed)
    return givar / (time.perf_counter() - t)


SMALL_TABLES = [
    "AS 2S 3S 4S 5S AH 2H 3H 4H 5H AD 2D 3D 4D 5D AC 2C 3C 4C 5C",  # 20 small cards, 4 aces
    "2S 2H 3D 3C 4S 4H 5D 5C 6S 6H 2D 2C 3S 3H 4D 4C 5S 5H 6D 6C",  # 20 cards 2..6
    "AS AH 2S 2H 3S 3H 4S 4H 5S 5H 6S 6H 7S 7H AD 2D 3D 4D 5D 6D",  # 20 cards A..7
]


def capture_ms(table_text: str, rank: str, repeat: int = 20) -> tuple[float, float]:
    """(cold, warm) milliseconds for capture_options of every suit of ``rank`` on the table."""
    table = parse_cards(table_text)
    card = Card.parse(rank + "H")
    cold = []
    for _ in range(repeat):
        clear_caches()
        t = time.perf_counter()
        capture_options(card, table)
        cold.append((time.perf_counter() - t) * 1000)
    t = time.perf_counter()
    for _ in range(repeat):
        capture_options(card, table)
    warm = (time.perf_counter() - t) * 1000 / repeat
    return statistics.median(cold), warm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--givar", type=int, default=2000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'unknown cpu'}")
    rates = [givar_per_second(args.players, args.givar, args.seed + i) for i in range(args.repeat)]
    print(f"random {args.players}-player givar per second (cold caches, {args.givar} givar): "
          f"best {max(rates):.0f}, runs {', '.join(f'{r:.0f}' for r in rates)}")
    for table in SMALL_TABLES:
        for rank in ("A", "9", "10", "K"):
            cold, warm = capture_ms(table, rank)
            n = len(capture_options(Card.parse(rank + "H"), parse_cards(table)))
            print(f"capture_options {rank}♥ on 20 cards [{table[:23]}…]: {n} options, "
                  f"cold {cold:.2f} ms, cached {warm * 1000:.1f} µs")


if __name__ == "__main__":
    main()
