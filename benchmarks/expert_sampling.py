"""How many determinizations, and which candidate moves, the two-player deal search needs.

Careful bots play givar; at each decision of seat 0 that has a choice and a
stock left, the deal search (``solve_endgame`` to the end of the deal) is run
for every legal move on ``--samples`` determinizations. A selection rule then
picks a move from the first samples, and is judged on the last ``--held-out``
samples, which it never saw: its *regret* is how much worse (in points, the
mover's score minus the opponent's to the end of the deal) its move is than
the best move there. Lower is better; the floor is the held-out noise::

    python benchmarks/expert_sampling.py --givar 16 --samples 80 --held-out 40

(about four minutes on one core). Printed per number of cards in hand: the
regret and the relative cost (positions searched) of each rule.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from krypteach.bots import make_bot
from krypteach.bots.careful import assess_moves
from krypteach.bots.endgame import solve_endgame
from krypteach.bots.knowledge import forbidden_ranks, unseen_cards
from krypteach.bots.sim import deal_unseen, future_deals
from krypteach.engine.game import Giv
from krypteach.engine.rules import Rules


def side(seat: int | None, me: int) -> str | None:
    return None if seat is None else ("mover" if seat == me else "other")


def collect(givar: int, samples: int) -> list[tuple[int, list[list[int]]]]:
    """Per decision: (cards in hand, per sample the value of every move in careful's order)."""
    data = []
    for i in range(givar):
        g = Giv(Rules(), dealer=i % 2, seed=5000 + i)
        bots = [make_bot("expert", seed=i), make_bot("careful", seed=i)]
        while not g.is_over:
            obs = g.observation()
            if g.turn == 0 and len(g.legal_moves()) > 1 and obs.stock_left > 0:
                moves = obs.legal_moves()
                assessed = assess_moves(obs, moves)
                ranked = [moves[k] for k in sorted(range(len(moves)), key=lambda k: assessed[k].total)]
                rng = random.Random(i * 1000 + len(obs.history))
                unseen, forb = unseen_cards(obs), forbidden_ranks(obs)
                leader = (obs.dealer + 1) % 2
                rows = []
                for _ in range(samples):
                    hands, stock = deal_unseen(obs, rng, unseen=unseen, forbidden=forb)
                    nd = future_deals(obs.rules, obs.deal_index, stock)[0]
                    v = solve_endgame(obs.rules, obs.hand, hands[1], obs.table, kladda=obs.kladda,
                                      last_capturer=side(obs.last_capturer, 0),
                                      previous_mover=side(obs.previous_mover, 0), next_table=nd.table,
                                      next_leader_hand=nd.hands[leader], merge_suits=True)
                    rows.append([v[m] for m in ranked])
                data.append((len(obs.hand), rows))
            g.play(bots[g.turn].choose(obs))
    return data


def pick(rows: list[list[int]], n: int, k: int | None = None) -> int:
    """The best of the first ``k`` moves (all: None) by the mean of the first ``n`` samples."""
    k = len(rows[0]) if k is None else min(k, len(rows[0]))
    means = [sum(r[j] for r in rows[:n]) / n for j in range(k)]
    return min(range(k), key=lambda j: means[j])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--givar", type=int, default=16)
    p.add_argument("--samples", type=int, default=80)
    p.add_argument("--held-out", type=int, default=40)
    a = p.parse_args(argv)
    data = collect(a.givar, a.samples)
    train = a.samples - a.held_out

    def regret(rows: list[list[int]], j: int) -> float:
        test = rows[-a.held_out:]
        means = [statistics.fmean(r[i] for r in test) for i in range(len(rows[0]))]
        return means[j] - min(means)

    rules = {"all moves, 30 samples": (30, None), "all moves, 16": (16, None), "all moves, 8": (8, None),
             "careful's best 3, 20": (20, 3), "careful's best 3, 12": (12, 3), "careful's best 2, 20": (20, 2),
             "careful's best 2, 12": (12, 2), "careful's best only": (1, 1)}
    for cards in (2, 3, 4):
        group = [rows for h, rows in data if h == cards]
        if not group:
            continue
        print(f"{cards} cards in hand: {len(group)} decisions, {statistics.fmean(len(r[0]) for r in group):.1f} moves")
        for label, (n, k) in rules.items():
            n = min(n, train)
            cost = statistics.fmean(min(k or len(r[0]), len(r[0])) / len(r[0]) for r in group) * n / 30
            print(f"  {label:<24} regret {statistics.fmean(regret(r, pick(r, n, k)) for r in group):.3f}"
                  f"   cost {cost:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
