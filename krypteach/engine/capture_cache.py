"""The caches of the capture search (internal to the engine).

Every answer is cached on a table's *packed counts* (see
:mod:`krypteach.engine.capture_search`). The small interface the rest of the
engine uses: :func:`caps_table` and :func:`caps_code` (what a rank captures on
a packed table, with a flag for "takes every card up to its value"),
``RESULTS`` (the results those codes point to), :func:`expand_all` and
:func:`table_by_value` (back to concrete cards), :func:`ranks_taking_whole`
("tabbe på …"), :func:`value_captures` (for searches on values) and
:func:`clear_caches`.

>>> from krypteach import parse_cards
>>> [" ".join(map(str, c)) for c in captures_of(parse_cards("9H")[0], parse_cards("9S 2C 5D 7H"), "1or14", "maximal")]
['2C 7H 9S']
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from itertools import chain, combinations, product

from .capture_search import (
    KEEP,
    PARTITIONABLE,
    SPECS,
    SUMS,
    Counts,
    all_captures,
    counts_of,
    keep_mask,
    maximal_live,
    pack,
    pack_counts,
    sums_of,
    unpack,
    whole_search,
)
from .cards import Card

__all__ = ["RankCaps", "Pick", "RESULTS", "USABLE", "SPECS", "caps_table", "caps_code", "clear_caches",
           "value_captures", "ranks_taking_whole", "ranks_taking_whole_packed", "whole_bits_packed", "captures_of", "expand_pick",
           "pick_of", "table_by_value", "expand_all", "counts_of", "pack"]

# --- caches ------------------------------------------------------------------
#
# Every answer is cached on a table's *packed counts*: one int holding how many
# cards of each value the table has, 4 bits per value (a double deck has at most
# 8 cards of a value). A game meets the same shapes of table again and again
# (over 3,000 random givar, 86 % of the tables met had been met before).
#
# The caches map ints to ints: capture results are kept in ``RESULTS`` and
# referred to by their index. A dict of ints is never tracked by Python's cyclic
# garbage collector; with tuples as keys and values (``lru_cache``) every full
# collection walked every entry: 12 % of the time of 3,000 random givar, and
# more the longer a simulation ran (docs/performance.md).

#: What a played rank can capture: ``(captures, mask, picks, whole)``.
#: ``captures`` holds the value-level captures (counts by value) and ``picks``
#: the same as ``(value, how many)`` pairs, ready for :func:`expand_pick`; ``mask``
#: (13 flags by rank index, ``card >> 2``) is set when there is exactly one
#: capture and it takes every table card of its values — the common case, which
#: needs no choice of suits; ``whole`` says whether a capture takes every live card.
RankCaps = tuple[tuple[Counts, ...], "tuple[bool, ...] | None", "tuple[Pick, ...]", bool]
Pick = tuple[tuple[int, int], ...]
CACHE_LIMIT = 300_000  # entries per cache; all are emptied together when one is full

RESULTS: list[RankCaps] = []
_CAPS: dict[tuple[str, str], dict[int, int]] = {}  # (ace, mode) -> {usable packed << 4 | rank index: result id}
_LIVE: dict[str, dict[int, int]] = {}  # mode -> {packed live cards << 5 | target << 1 | lone ace: result id}
_WHOLE: dict[str, dict[int, int]] = {}  # ace -> {packed: bit set of the ranks that take the whole table}
#: bit set of ranks -> the ranks as a tuple (shared); each from the one without its lowest rank,
#: a quarter of the import's time of testing every bit of every set (every page imports it)
_RANK_TUPLES: list[tuple[int, ...]] = [()] * (1 << 13)
for _bits in range(1, 1 << 13):
    _low = _bits & -_bits
    _RANK_TUPLES[_bits] = (_low.bit_length(),) + _RANK_TUPLES[_bits ^ _low]
del _bits, _low


#: keeping a result and emptying the caches are one step each for every thread (the server works a
#: board's answer out in a worker thread while the tables play on its event loop): without it, two
#: threads storing at once could each be given the other's result id
_LOCK = threading.RLock()


def clear_caches() -> None:
    """Empty every cache of the capture code (benchmarks start cold with this)."""
    # the per-rules dicts are emptied, not dropped: games hold on to them
    with _LOCK:
        caches: list[dict[int, int] | dict[int, bool]] = [*_CAPS.values(), *_LIVE.values(), *_WHOLE.values(), SUMS,
                                                          KEEP, PARTITIONABLE]
        for d in caches:
            d.clear()
        RESULTS.clear()
        _store(((), None, (), False))  # result 0: no capture


def _store(result: RankCaps) -> int:
    """Keep a result; returns its id (index in ``RESULTS``)."""
    with _LOCK:
        RESULTS.append(result)
        return len(RESULTS) - 1


def caps_table(ace: str, mode: str) -> dict[int, int]:
    """The cache of result ids by packed table and rank index, for these rules."""
    d = _CAPS.get((ace, mode))
    if d is None:
        d = _CAPS[ace, mode] = {}
    return d


def _make_room(d: dict[int, int]) -> None:
    """Called before adding to ``d``: empty everything when a cache is full (bounded memory)."""
    if len(d) >= CACHE_LIMIT or len(RESULTS) >= CACHE_LIMIT or len(PARTITIONABLE) >= CACHE_LIMIT:
        clear_caches()


#: per ace rule, by rank index: the packed mask of the values a played card of
#: that rank can take (up to its value); cards above it never matter
USABLE = {ace: tuple((1 << 4 * min(target, 13)) - 1 for _, target, _ in specs) for ace, specs in SPECS.items()}


def caps_code(packed: int, r0: int, ace: str, mode: str) -> int:
    """``result id << 1 | whole`` for a card of rank index ``r0`` on a packed table.

    The result id indexes ``RESULTS``; ``whole`` is set when the card can take
    every table card up to its value (so the whole table, when no card above
    its value lies there: a tabbe). Cached on the table's cards up to the
    card's value (``USABLE``) and the rank.
    """
    d = caps_table(ace, mode)
    usable = packed & USABLE[ace][r0]
    key = usable << 4 | r0
    code = d.get(key)
    if code is None:
        _make_room(d)
        _, target, single = SPECS[ace][r0]
        keep = keep_mask(sums_of(usable), target, single)
        rid = _live_result(usable & keep, target, single, mode) if keep else 0
        # whole: every card is live (in some träff) and one capture takes them all
        whole = rid and RESULTS[rid][3] and not usable & ~keep
        code = d[key] = rid << 1 | bool(whole)
    return code


def _live_id(packed: int, target: int, single: bool, mode: str) -> int:
    """Result id for a card of this spec on a packed table (0: it has no träff)."""
    keep = keep_mask(sums_of(packed), target, single)
    return _live_result(packed & keep, target, single, mode) if keep else 0


def _live_result(live_packed: int, target: int, single: bool, mode: str) -> int:
    """Result id for the live cards of a table (packed; they hold a träff).

    Cached on the live cards alone: tables that differ only in cards that are
    in no träff share one answer.
    """
    d = _LIVE.get(mode)
    if d is None:
        d = _LIVE[mode] = {}
    key = (live_packed << 5) | (target << 1) | single
    rid = d.get(key)
    if rid is not None:
        return rid
    live = unpack(live_packed)[: min(target, 13) + 1]
    same = live[target] if target <= 13 else 0
    if same and mode != "free":
        # Cards of the played value are träffar on their own and in no other
        # träff, so every maximal capture takes all of them: solve the other
        # cards (shared by tables with any number of these), then add them.
        rest = live_packed & ~(15 << 4 * (target - 1))
        base: tuple[Counts, ...] = ()
        if rest and sums_of(rest) >> target & 1:  # (no lone aces here: the played card is not an ace counting 14)
            base = RESULTS[_live_result(rest, target, single, mode)][0]
        caps = tuple(k[:target] + (same,) for k in base) if base else ((0,) * target + (same,),)
    elif mode == "free":
        caps = all_captures(live, target, single)
    else:
        caps = maximal_live(live, target, single)
        if mode == "maximum" and caps:
            best = max(sum(k) for k in caps)
            caps = tuple(k for k in caps if sum(k) == best)
    mask = None
    if len(caps) == 1:
        k = caps[0]
        if all(m == 0 or m == live[v] for v, m in enumerate(k)):
            mask = tuple(r0 + 1 < len(k) and k[r0 + 1] > 0 for r0 in range(13))
    picks = tuple(pick_of(k) for k in caps)
    rid = d[key] = _store((caps, mask, picks, live in caps))
    return rid


def value_captures(counts: Counts, target: int, single_ace: bool, mode: str) -> tuple[Counts, ...]:
    """Value-level captures for a card of this spec on a table of these counts (for the bots' search)."""
    return RESULTS[_live_id(pack_counts(counts), target, single_ace, mode)][0]


def ranks_taking_whole_packed(packed: int, ace: str) -> tuple[int, ...]:
    """Ranks that take the whole table, by packed counts ("tabbe på …")."""
    return _RANK_TUPLES[whole_bits_packed(packed, ace)]


def whole_bits_packed(packed: int, ace: str) -> int:
    """:func:`ranks_taking_whole_packed` as a bit set (bit ``rank - 1``), for
    code that combines the ranks of many tables.

    >>> from krypteach import parse_cards
    >>> whole_bits_packed(pack(parse_cards("AH 7C 3D 9S")), "1or14") == 1 << 9  # tabbe på tio
    True
    """
    d = _WHOLE.get(ace)
    if d is None:
        d = _WHOLE[ace] = {}
    bits = d.get(packed)
    if bits is None:
        _make_room(d)
        bits = d[packed] = whole_search(packed, ace)
    return bits


def ranks_taking_whole(counts: Counts, ace: str) -> tuple[int, ...]:
    """Ranks whose played card could take the whole (non-empty) table of these counts."""
    return ranks_taking_whole_packed(pack_counts(counts), ace)


def captures_of(card: Card, table: Sequence[Card], ace: str, mode: str) -> list[tuple[Card, ...]]:
    """Concrete captures of ``card`` on ``table`` under an ace rule and capture mode, in the public order."""
    caps, mask, picks, _ = RESULTS[caps_code(pack(table), card >> 2, ace, mode) >> 1]
    if not caps:
        return []
    if mask is not None:
        return [tuple([c for c in sorted(table) if mask[c >> 2]])]
    return expand_all(picks, table_by_value(table))


# --- back to cards -----------------------------------------------------------

def expand_pick(pick: Pick, by_value: dict[int, list[Card]]) -> list[tuple[Card, ...]]:
    """Concrete captures (distinct card multisets) for a value-level capture,
    given as its ``(value, how many)`` pairs (see :func:`pick_of`).

    ``by_value`` lists each value's table cards in sorted order (see
    :func:`table_by_value`). Values are visited in ascending order and cards sort by
    value first, so joining each value's (sorted) choice gives a sorted capture.
    """
    fixed: list[Card] = []  # values taken whole (or with no choice of suits), while no choice came before
    choices: list[list[tuple[Card, ...]]] = []
    for v, m in pick:
        cards = by_value[v]
        if m == len(cards) or cards[0] == cards[-1]:  # all of them, or all the same card
            if choices:
                choices.append([tuple(cards[:m])])
            else:
                fixed.extend(cards[:m])
            continue
        # the distinct ways to pick m of them: combinations of a sorted list
        # come in sorted order, so the first of equal ones are kept in order
        opts: list[tuple[Card, ...]] = (list(dict.fromkeys(combinations(cards, m))) if m > 1
                                        else [(c,) for c in dict.fromkeys(cards)])
        if not choices and fixed:
            head = tuple(fixed)
            opts = [head + o for o in opts]
        choices.append(opts)
    if not choices:
        return [tuple(fixed)]
    if len(choices) == 1:
        return choices[0]
    return [tuple(chain.from_iterable(parts)) for parts in product(*choices)]


def pick_of(k: Counts) -> Pick:
    """The (value, how many) pairs of a value-level capture, ascending."""
    return tuple((v, m) for v, m in enumerate(k) if m)


def table_by_value(table: Sequence[Card]) -> dict[int, list[Card]]:
    """The table's cards by value, each list sorted."""
    by: dict[int, list[Card]] = {}
    for c in sorted(table):
        by.setdefault((c >> 2) + 1, []).append(c)
    return by


def expand_all(picks: Sequence[Pick], by_value: dict[int, list[Card]]) -> list[tuple[Card, ...]]:
    """Concrete captures for value-level captures: the largest first, then in card order."""
    if len(picks) == 1:
        return expand_pick(picks[0], by_value)
    out = [cap for pick in picks for cap in expand_pick(pick, by_value)]
    out.sort()  # card order, then (a stable sort) the largest first
    out.sort(key=len, reverse=True)
    return out


clear_caches()
