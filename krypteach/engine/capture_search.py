"""The capture search on values (internal to the engine; see :mod:`krypteach.engine.captures`).

A table is reduced to how many cards of each value it holds: ``Counts`` (a
tuple indexed by value 1..13) or, for the caches, one packed int (4 bits per
value; a double deck has at most 8 cards of a value). This module finds, for
a played card's *spec* (the sum it makes and whether it takes lone aces), the
maximal captures, every capture (``free``), and the ranks that take a whole
table. Suits never matter here. :mod:`krypteach.engine.capture_cache` caches
the answers; :mod:`krypteach.engine.captures` turns them back into cards.

>>> maximal_live((0, 0, 1, 0, 0, 1, 0, 1, 0, 1), 9, False)  # table 2, 5, 7, 9 and a played 9
((0, 0, 1, 0, 0, 0, 0, 1, 0, 1),)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import product
from operator import mul

MEMO_LIMIT = 300_000  # entries per memo of this module

__all__ = ["Counts", "SPECS", "UNIT", "target_spec", "counts_of", "pack", "pack_counts", "unpack", "sums_of",
           "keep_mask", "subsets_summing", "partitionable", "has_traff", "maximal_live", "all_captures",
           "whole_search", "PARTITIONABLE", "SUMS", "KEEP"]

Counts = tuple[int, ...]  # index = value 1..13 (index 0 unused)


def target_spec(rank: int, ace: str) -> tuple[int, bool]:
    """(sum target, a lone table ace is a träff) for a played card of ``rank``."""
    if rank != 1:
        return rank, False
    if ace == "1or14":
        return 14, True
    if ace == "1":
        return 1, False
    return 14, False  # "14hand"


def counts_of(cards: Iterable[int]) -> Counts:
    cnt = [0] * 14
    for c in cards:
        cnt[(c >> 2) + 1] += 1
    return tuple(cnt)


# --- value-level machinery -------------------------------------------------

def subsets_summing(k: Counts, target: int, top: int,
                    test: Callable[[Counts], bool] | None = None) -> list[Counts]:
    """Every sub-multiset of ``k`` using values <= ``top`` that sums to ``target``.

    With ``test``, stop at the first one for which ``test(group)`` is true and
    return just it (``[]``: none).
    """
    out: list[Counts] = []
    pick = [0] * len(k)
    top = min(top, len(k) - 1)
    reach = [0] * (top + 1)  # reach[v]: the sum of all the cards of values up to v
    for v in range(1, top + 1):
        reach[v] = reach[v - 1] + v * k[v]

    def rec(v: int, remaining: int) -> bool:
        if remaining == 0:
            group = tuple(pick)
            if test is None:
                out.append(group)
                return False
            if test(group):
                out.append(group)
                return True
            return False
        v = min(v, remaining)
        if reach[v] < remaining:  # the cards left cannot make it
            return False
        while not k[v]:
            v -= 1
        # choose how many of v (from max down to 0), then continue below it
        for m in range(min(k[v], remaining // v), -1, -1):
            pick[v] = m
            if rec(v - 1, remaining - m * v):
                pick[v] = 0
                return True
        pick[v] = 0
        return False

    rec(top, target)
    rec = None  # type: ignore[assignment]  # (a closure that calls itself: break the cycle)
    return out


def partitionable(k: Counts, target: int, single_ace: bool) -> bool:
    """Can the multiset ``k`` (counts by value) be split into träffar for a card of this spec?"""
    key = (pack_counts(k) << 5) | (target << 1) | single_ace
    got = PARTITIONABLE.get(key)
    if got is None:
        got = PARTITIONABLE[key] = _partitionable_search(k, target, single_ace)
    return got


def _partitionable_search(k: Counts, target: int, single_ace: bool) -> bool:
    total = 0
    high = 0
    for v in range(len(k) - 1, 0, -1):
        if k[v]:
            if not high:
                high = v
            total += v * k[v]
    if total == 0:
        return True
    if single_ace:
        # some aces may be taken one by one; the rest must form groups
        if all((total - j) % target for j in range(k[1] + 1)):
            return False
        if high == 1:
            return True
    elif total % target:
        return False
    if high > target:
        return False
    # the highest card must belong to some group summing to target
    rest = list(k)
    rest[high] -= 1
    rest_t = tuple(rest)
    need = target - high
    if need == 0:
        return partitionable(rest_t, target, single_ace)
    return bool(subsets_summing(rest_t, need, high, lambda group: partitionable(
        tuple([a - b for a, b in zip(rest_t, group)]), target, single_ace)))


def has_traff(r: Counts, target: int, single_ace: bool) -> bool:
    """Does the multiset ``r`` contain a träff (a subset summing to target, or a lone ace)?"""
    if single_ace and r[1]:
        return True
    bits = 1
    mask = (1 << (target + 1)) - 1
    for v in range(1, min(target, len(r) - 1) + 1):
        for _ in range(r[v]):
            bits = (bits | (bits << v)) & mask
    return bool(bits >> target & 1)


class _TooManyBranches(Exception):
    pass


_DFS_BUDGET = 1000  # search steps (both kinds) before switching to the rest-first enumeration


def maximal_live(usable: Counts, target: int, single_ace: bool) -> tuple[Counts, ...]:
    """Maximal captures on the live cards: two exact enumerations. A card-first
    search is fast on the tables of real play (many high cards); when it grows
    past a budget — big tables of small cards with many ways to group them — a
    rest-first search over the träff-free sets of cards left on the table.

    Its one caller (``capture_cache._live_result``) takes every card of the
    played rank itself and calls this only for live cards that hold a träff
    which is a sum (or a lone ace), so there is always something to search."""
    n = sum(usable) - usable[0]
    small = sum(usable[1: target // 2 + 1])
    if n >= 12 and small * 4 >= n * 3:  # many small cards: many ways to group them
        return _maximal_by_rests(usable, target, single_ace)
    try:
        return _maximal_by_cards(usable, target, single_ace, _DFS_BUDGET)
    except _TooManyBranches:
        return _maximal_by_rests(usable, target, single_ace)


def _maximal_by_cards(usable: Counts, target: int, single_ace: bool, budget: int) -> tuple[Counts, ...]:
    """Cards are decided highest first: a card is either left on the table
    (pruned as soon as the cards left contain a träff, tracked as a bit set of
    reachable sums) or taken together with lower undecided cards that complete
    its träff. Cards of one value are interchangeable, so once one is left the
    next ones of that value are left too (taking it instead gives the same capture)."""
    top = len(usable) - 1
    cards = [v for v in range(top, 0, -1) for _ in range(usable[v])]
    n = len(cards)
    mask = (1 << (target + 1)) - 1
    tbit = 1 << target
    taken = [False] * n
    k = [0] * (top + 1)  # counts taken so far, by value
    found: dict[Counts, None] = {}
    nodes = budget

    def rec(i: int, bits: int, left_value: int) -> None:
        nonlocal nodes
        nodes -= 1
        if nodes < 0:
            raise _TooManyBranches
        while i < n and taken[i]:
            i += 1
        if i == n:
            if any(k):
                found[tuple(k)] = None
            return
        v = cards[i]
        lone_ace = single_ace and v == 1
        if not lone_ace:  # leave it on the table
            nb = (bits | (bits << v)) & mask
            if not nb & tbit:
                rec(i + 1, nb, v)
        if v == left_value:  # one of this value was left: taking this one instead is the same
            return
        taken[i] = True
        k[v] += 1
        if lone_ace or v == target:  # a träff on its own
            rec(i + 1, bits, left_value)
        if v < target:  # take it with lower cards that complete the sum
            pick(i, bits, i + 1, target - v, left_value)
        taken[i] = False
        k[v] -= 1

    def pick(i: int, bits: int, j: int, left: int, left_value: int) -> None:
        nonlocal nodes
        nodes -= 1
        if nodes < 0:
            raise _TooManyBranches
        if left == 0:
            rec(i + 1, bits, left_value)
            return
        prev = 0
        for jj in range(j, n):
            w = cards[jj]
            if w > left or w == prev or taken[jj]:
                continue
            prev = w
            taken[jj] = True
            k[w] += 1
            pick(i, bits, jj + 1, left - w, left_value)
            taken[jj] = False
            k[w] -= 1

    try:
        rec(0, 1, 0)
    finally:
        rec = pick = None  # type: ignore[assignment]  # break the closures' reference cycle
    return tuple(found)


def _maximal_by_rests(usable: Counts, target: int, single_ace: bool) -> tuple[Counts, ...]:
    """Enumerate the träff-free rests value by value (how many of each value
    stay), then keep those whose taken part splits into träffar."""
    top = len(usable) - 1
    total = sum(v * usable[v] for v in range(top + 1))
    mask = (1 << (target + 1)) - 1
    found: list[Counts] = []
    rest = [0] * (top + 1)

    def rec(v: int, bits: int, rest_sum: int) -> None:
        if v == 0:
            taken = total - rest_sum
            if taken and (single_ace or taken % target == 0):
                k = tuple([usable[i] - rest[i] for i in range(top + 1)])
                if partitionable(k, target, single_ace):
                    found.append(k)
            return
        count = usable[v]
        if not count:
            rec(v - 1, bits, rest_sum)
            return
        keep_max = 0 if (single_ace and v == 1) else count
        b = bits
        for m in range(keep_max + 1):
            if m:
                b = (b | (b << v)) & mask
                if b >> target & 1:
                    break
            rest[v] = m
            rec(v - 1, b, rest_sum + m * v)
        rest[v] = 0

    rec(top, 1, 0)
    return tuple(found)


def all_captures(usable: Counts, target: int, single_ace: bool) -> tuple[Counts, ...]:
    """Value-level captures for ``free``: every non-empty union of disjoint träffar."""
    if not has_traff(usable, target, single_ace):
        return ()
    ranges = [range(usable[v] + 1) if v else range(1) for v in range(len(usable))]
    out = []
    for k in product(*ranges):
        if any(k) and partitionable(k, target, single_ace):
            out.append(tuple(k))
    return tuple(out)


SPECS = {ace: tuple((r,) + target_spec(r, ace) for r in range(1, 14)) for ace in ("1or14", "1", "14hand")}


def whole_search(packed: int, ace: str) -> int:
    """Bit set (bit ``rank - 1``) of the ranks whose played card takes the whole table (packed counts)."""
    if not packed:
        return 0
    high = (packed.bit_length() + 3) >> 2  # the highest value on the table
    counts = unpack(packed)
    total = sum(map(mul, counts, range(14)))
    bits = 0
    for r, target, single in _WHOLE_CANDIDATES[ace][total]:
        if high > target:
            continue
        if single:  # a played ace: some table aces alone, the rest in groups of 14
            if all((total - j) % target for j in range(counts[1] + 1)):
                continue
            ok = partitionable(counts, target, single)
        elif total == target:  # all the table is one träff
            ok = True
        elif total == 2 * target:  # two träffar: some cards make the target, the rest too
            ok = bool(sums_of(packed) >> target & 1)
        else:
            ok = partitionable(counts, target, single)
        if ok:
            bits |= 1 << (r - 1)
    return bits


#: per ace rule, by the table's total value (at most 8 of each value): the
#: ranks that could take it whole — the total is a multiple of their value (a
#: played ace that takes lone aces is always a candidate)
_WHOLE_CANDIDATES = {ace: [tuple(spec for spec in specs if spec[2] or total % spec[1] == 0) for total in range(8 * 91 + 1)]
                     for ace, specs in SPECS.items()}

UNIT = tuple(1 << 4 * (c >> 2) for c in range(52))  # a card's value, packed
SUMS: dict[int, int] = {}  # packed -> bit set of the sums up to 14 that the table's cards make
KEEP: dict[int, int] = {}  # sums << 5 | target << 1 | lone ace -> packed mask of the values that can be in a träff
PARTITIONABLE: dict[int, bool] = {}  # packed << 5 | target << 1 | lone ace -> can be split into träffar


def pack(cards: Iterable[int]) -> int:
    """A table's packed counts (see above)."""
    return sum(map(UNIT.__getitem__, cards))


def pack_counts(k: Counts) -> int:
    """Counts by value (index 1..13, any length) packed into an int."""
    p = 0
    for v in range(len(k) - 1, 0, -1):
        p = (p << 4) | k[v]
    return p


def unpack(p: int) -> Counts:
    """Packed counts back to a 14-tuple (index 0 unused)."""
    return (0,) + tuple([(p >> s) & 15 for s in range(0, 52, 4)])


def sums_of(packed: int) -> int:
    """Bit set of the sums (up to 14) that some of the table's cards add up to (bit 0: nothing)."""
    sums = SUMS.get(packed)
    if sums is None:
        if len(SUMS) >= MEMO_LIMIT:  # bounded memory; these answers stand alone, so dropping them is safe
            SUMS.clear()
        sums, p = 1, packed
        for v in range(1, 14):
            for _ in range(p & 15):
                sums = (sums | (sums << v)) & 0x7FFF
            p >>= 4
        SUMS[packed] = sums
    return sums


def keep_mask(sums: int, target: int, single: bool) -> int:
    """Packed mask of the values that can be part of a träff (0: there is no träff at all).

    A value ``v`` can only be in a träff if it is the target, a lone ace, or
    ``target - v`` is a sum of table cards; other cards always stay.
    """
    key = sums << 5 | target << 1 | single
    keep = KEEP.get(key)
    if keep is None:
        keep = 0
        lone_ace = single and sums & 2  # the table has an ace
        if sums >> target & 1 or lone_ace:
            for v in range(1, min(target, 13) + 1):
                if v == target or (single and v == 1) or sums >> (target - v) & 1:
                    keep |= 15 << 4 * (v - 1)
        KEEP[key] = keep
    return keep
