"""Random positions for teaching: draws from the double deck that keep every card
at most twice, and tables a given card takes whole (for puzzles and exercises)."""

from __future__ import annotations

import random
from collections import Counter

from ..engine.captures import played_value
from ..engine.cards import Card
from ..engine.rules import Rules

__all__ = ["TABLE_DECK", "DECK", "draw", "whole_table_for"]


# --- generating ---------------------------------------------------------------------------

TABLE_DECK = [c for c in (Card(i) for i in range(52)) if not c.is_face] * 2
DECK = [Card(i) for i in range(52)] * 2


def draw(rng: random.Random, k: int, pool: list[Card], used: Counter[Card]) -> list[Card]:
    out: list[Card] = []
    while len(out) < k:
        c = rng.choice(pool)
        if used[c] < 2:
            used[c] += 1
            out.append(c)
    return out


def whole_table_for(rng: random.Random, card: Card, groups: int, used: Counter[Card], rules: Rules) -> list[Card] | None:
    """A table that ``card`` takes whole, built from ``groups`` träffar."""
    target = played_value(card, rules)
    lone_ace = card.rank == 1 and rules.ace == "1or14"  # a played ace that also takes lone table aces
    table: list[Card] = []
    for _ in range(groups):
        if rng.random() < 0.3 and (target <= 10 or lone_ace):
            rank = 1 if lone_ace else target
            c = Card.make(rank, rng.choice("SHDC"))
            if used[c] >= 2:
                return None
            used[c] += 1
            table.append(c)
            continue
        parts = rng.choice([2, 2, 3])
        vals = []
        left = target
        for i in range(parts - 1):
            hi = min(10, left - (parts - 1 - i))
            if hi < 1:
                return None
            v = rng.randint(1, hi)
            vals.append(v)
            left -= v
        if not 1 <= left <= 10:
            return None
        vals.append(left)
        for v in vals:
            c = Card.make(v, rng.choice("SHDC"))
            if used[c] >= 2:
                return None
            used[c] += 1
            table.append(c)
    rng.shuffle(table)
    return table
