"""Träffar and capture options.

A *träff* (match) for a played card is a single table card of the same rank,
or two or more table cards whose values add up to the played card's value.
A *capture* is a union of disjoint träffar. Under the default ``maximal``
rule the capturing card must *take all it can*: no träff may be left among the
cards that stay on the table.

All the work happens on *values*: a table is reduced to how many cards of each
value it holds (packed into one int, see the caches below), and results are
cached on that, so the same shapes of table are solved once. Suits only matter
at the very end, when a value-level capture is turned back into concrete cards.

>>> from krypteach import Card, parse_cards
>>> capture_options(Card("9H"), parse_cards("9S 2C 5D 7H"))
[(Card('2C'), Card('7H'), Card('9S'))]
>>> capture_options(Card("4H"), parse_cards("9S 2C 5D"))
[]
"""

from __future__ import annotations

from itertools import chain, combinations, product
from operator import mul
from collections.abc import Iterable, Sequence

from .cards import Card
from .rules import Rules

__all__ = [
    "capture_options",
    "traffar",
    "can_take_whole_table",
    "tabbe_ranks",
    "split_into_traffar",
    "played_value",
    "tabbe_pa_text",
    "NUMBER_WORDS",
]

#: Swedish words for the ranks, as said in "tabbe på tio".
NUMBER_WORDS = {1: "ess", 2: "två", 3: "tre", 4: "fyra", 5: "fem", 6: "sex", 7: "sju", 8: "åtta", 9: "nio",
                10: "tio", 11: "knekt", 12: "dam", 13: "kung"}

_DEFAULT = Rules()
Counts = tuple[int, ...]  # index = value 1..13 (index 0 unused)


def _spec(rank: int, ace: str) -> tuple[int, bool]:
    """(sum target, a lone table ace is a träff) for a played card of ``rank``."""
    if rank != 1:
        return rank, False
    if ace == "1or14":
        return 14, True
    if ace == "1":
        return 1, False
    return 14, False  # "14hand"


def played_value(card: Card, rules: Rules | None = None) -> int:
    """The value a played card counts in sums (a played ace is 14 unless ``ace='1'``).

    >>> played_value(Card("AS")), played_value(Card("KD")), played_value(Card("AS"), Rules(ace="1"))
    (14, 13, 1)
    """
    return _spec(card.rank, (rules or _DEFAULT).ace)[0]


def _counts(cards: Iterable[int]) -> Counts:
    cnt = [0] * 14
    for c in cards:
        cnt[(c >> 2) + 1] += 1
    return tuple(cnt)


# --- value-level machinery -------------------------------------------------

def _subsets_summing(k: Counts, target: int, top: int, test=None) -> list[Counts]:
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


def _partitionable(k: Counts, target: int, single_ace: bool) -> bool:
    """Can the multiset ``k`` (counts by value) be split into träffar for a card of this spec?"""
    key = (_pack_counts(k) << 5) | (target << 1) | single_ace
    got = _PARTITIONABLE.get(key)
    if got is None:
        got = _PARTITIONABLE[key] = _partitionable_search(k, target, single_ace)
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
        return _partitionable(rest_t, target, single_ace)
    return bool(_subsets_summing(rest_t, need, high, lambda group: _partitionable(
        tuple([a - b for a, b in zip(rest_t, group)]), target, single_ace)))


def _has_traff(r: Counts, target: int, single_ace: bool) -> bool:
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


def _maximal_live(usable: Counts, target: int, single_ace: bool) -> tuple[Counts, ...]:
    """Maximal captures on the live cards: two exact enumerations. A card-first
    search is fast on the tables of real play (many high cards); when it grows
    past a budget — big tables of small cards with many ways to group them — a
    rest-first search over the träff-free sets of cards left on the table."""
    if target <= 13 and not single_ace:
        # fast path: no two or more cards add up to the target, so the träffar
        # are the same-rank cards alone, and all of them must be taken
        bits, mask = 1, (1 << (target + 1)) - 1
        for v in range(1, target):
            for _ in range(usable[v]):
                bits = (bits | (bits << v)) & mask
        if not bits >> target & 1:
            return (tuple(usable[v] if v == target else 0 for v in range(target + 1)),)
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
                if _partitionable(k, target, single_ace):
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


def _all_captures(usable: Counts, target: int, single_ace: bool) -> tuple[Counts, ...]:
    """Value-level captures for ``free``: every non-empty union of disjoint träffar."""
    if not _has_traff(usable, target, single_ace):
        return ()
    ranges = [range(usable[v] + 1) if v else range(1) for v in range(len(usable))]
    out = []
    for k in product(*ranges):
        if any(k) and _partitionable(k, target, single_ace):
            out.append(tuple(k))
    return tuple(out)


_SPECS = {ace: tuple((r,) + _spec(r, ace) for r in range(1, 14)) for ace in ("1or14", "1", "14hand")}


def _whole_search(packed: int, ace: str) -> int:
    """Bit set (bit ``rank - 1``) of the ranks whose played card takes the whole table (packed counts)."""
    if not packed:
        return 0
    high = (packed.bit_length() + 3) >> 2  # the highest value on the table
    counts = _unpack(packed)
    total = sum(map(mul, counts, range(14)))
    bits = 0
    for r, target, single in _WHOLE_CANDIDATES[ace][total]:
        if high > target:
            continue
        if single:  # a played ace: some table aces alone, the rest in groups of 14
            if all((total - j) % target for j in range(counts[1] + 1)):
                continue
            ok = _partitionable(counts, target, single)
        elif total == target:  # all the table is one träff
            ok = True
        elif total == 2 * target:  # two träffar: some cards make the target, the rest too
            ok = bool(_sums(packed) >> target & 1)
        else:
            ok = _partitionable(counts, target, single)
        if ok:
            bits |= 1 << (r - 1)
    return bits


#: per ace rule, by the table's total value (at most 8 of each value): the
#: ranks that could take it whole — the total is a multiple of their value (a
#: played ace that takes lone aces is always a candidate)
_WHOLE_CANDIDATES = {ace: [tuple(spec for spec in specs if spec[2] or total % spec[1] == 0) for total in range(8 * 91 + 1)]
                     for ace, specs in _SPECS.items()}

# --- caches ------------------------------------------------------------------
#
# Every answer is cached on a table's *packed counts*: one int holding how many
# cards of each value the table has, 4 bits per value (a double deck has at most
# 8 cards of a value). A game meets the same shapes of table again and again
# (over 3,000 random givar, 86 % of the tables met had been met before).
#
# The caches map ints to ints: capture results are kept in ``_RESULTS`` and
# referred to by their index. A dict of ints is never tracked by Python's cyclic
# garbage collector; with tuples as keys and values (``lru_cache``) every full
# collection walked every entry: 12 % of the time of 3,000 random givar, and
# more the longer a simulation ran (docs/performance.md).

#: What a played rank can capture: ``(captures, mask, picks, whole)``.
#: ``captures`` holds the value-level captures (counts by value) and ``picks``
#: the same as ``(value, how many)`` pairs, ready for :func:`_expand`; ``mask``
#: (13 flags by rank index, ``card >> 2``) is set when there is exactly one
#: capture and it takes every table card of its values — the common case, which
#: needs no choice of suits; ``whole`` says whether a capture takes every live card.
_RankCaps = tuple[tuple[Counts, ...], "tuple[bool, ...] | None", "tuple[_Pick, ...]", bool]
_Pick = tuple[tuple[int, int], ...]

_UNIT = tuple(1 << 4 * (c >> 2) for c in range(52))  # a card's value, packed
_CACHE_LIMIT = 300_000  # entries per cache; all are emptied together when one is full

_RESULTS: list[_RankCaps] = []
_CAPS: dict[tuple[str, str], dict[int, int]] = {}  # (ace, mode) -> {usable packed << 4 | rank index: result id}
_LIVE: dict[str, dict[int, int]] = {}  # mode -> {packed live cards << 5 | target << 1 | lone ace: result id}
_SUMS: dict[int, int] = {}  # packed -> bit set of the sums up to 14 that the table's cards make
_KEEP: dict[int, int] = {}  # sums << 5 | target << 1 | lone ace -> packed mask of the values that can be in a träff
_WHOLE: dict[str, dict[int, int]] = {}  # ace -> {packed: bit set of the ranks that take the whole table}
#: bit set of ranks -> the ranks as a tuple (shared)
_RANK_TUPLES = [tuple(r for r in range(1, 14) if bits >> (r - 1) & 1) for bits in range(1 << 13)]
_PARTITIONABLE: dict[int, bool] = {}  # packed << 5 | target << 1 | lone ace -> can be split into träffar


def clear_caches() -> None:
    """Empty every cache of the capture code (benchmarks start cold with this)."""
    # the per-rules dicts are emptied, not dropped: games hold on to them
    for d in chain(_CAPS.values(), _LIVE.values(), _WHOLE.values(), (_SUMS, _KEEP, _PARTITIONABLE)):
        d.clear()
    _RESULTS.clear()
    _store(((), None, (), False))  # result 0: no capture


def _pack(cards: Iterable[int]) -> int:
    """A table's packed counts (see above)."""
    return sum(map(_UNIT.__getitem__, cards))


def _pack_counts(k: Counts) -> int:
    """Counts by value (index 1..13, any length) packed into an int."""
    p = 0
    for v in range(len(k) - 1, 0, -1):
        p = (p << 4) | k[v]
    return p


def _unpack(p: int) -> Counts:
    """Packed counts back to a 14-tuple (index 0 unused)."""
    return (0,) + tuple([(p >> s) & 15 for s in range(0, 52, 4)])


def _store(result: _RankCaps) -> int:
    """Keep a result; returns its id (index in ``_RESULTS``)."""
    _RESULTS.append(result)
    return len(_RESULTS) - 1


def _caps_table(ace: str, mode: str) -> dict[int, int]:
    """The cache of result ids by packed table and rank index, for these rules."""
    d = _CAPS.get((ace, mode))
    if d is None:
        d = _CAPS[ace, mode] = {}
    return d


def _make_room(d: dict) -> None:
    """Called before adding to ``d``: empty everything when a cache is full (bounded memory)."""
    if len(d) >= _CACHE_LIMIT or len(_RESULTS) >= _CACHE_LIMIT or len(_PARTITIONABLE) >= _CACHE_LIMIT:
        clear_caches()


#: per ace rule, by rank index: the packed mask of the values a played card of
#: that rank can take (up to its value); cards above it never matter
_USABLE = {ace: tuple((1 << 4 * min(target, 13)) - 1 for _, target, _ in specs) for ace, specs in _SPECS.items()}


def _caps_id(packed: int, r0: int, ace: str, mode: str) -> int:
    """``result id << 1 | whole`` for a card of rank index ``r0`` on a packed table.

    The result id indexes ``_RESULTS``; ``whole`` is set when the card can take
    every table card up to its value (so the whole table, when no card above
    its value lies there: a tabbe). Cached on the table's cards up to the
    card's value (``_USABLE``) and the rank.
    """
    d = _caps_table(ace, mode)
    usable = packed & _USABLE[ace][r0]
    key = usable << 4 | r0
    code = d.get(key)
    if code is None:
        _make_room(d)
        _, target, single = _SPECS[ace][r0]
        keep = _keep_mask(_sums(usable), target, single)
        rid = _live_result(usable & keep, target, single, mode) if keep else 0
        # whole: every card is live (in some träff) and one capture takes them all
        whole = rid and _RESULTS[rid][3] and not usable & ~keep
        code = d[key] = rid << 1 | bool(whole)
    return code


def _sums(packed: int) -> int:
    """Bit set of the sums (up to 14) that some of the table's cards add up to (bit 0: nothing)."""
    sums = _SUMS.get(packed)
    if sums is None:
        _make_room(_SUMS)
        sums, p = 1, packed
        for v in range(1, 14):
            for _ in range(p & 15):
                sums = (sums | (sums << v)) & 0x7FFF
            p >>= 4
        _SUMS[packed] = sums
    return sums


def _keep_mask(sums: int, target: int, single: bool) -> int:
    """Packed mask of the values that can be part of a träff (0: there is no träff at all).

    A value ``v`` can only be in a träff if it is the target, a lone ace, or
    ``target - v`` is a sum of table cards; other cards always stay.
    """
    key = sums << 5 | target << 1 | single
    keep = _KEEP.get(key)
    if keep is None:
        keep = 0
        lone_ace = single and sums & 2  # the table has an ace
        if sums >> target & 1 or lone_ace:
            for v in range(1, min(target, 13) + 1):
                if v == target or (single and v == 1) or sums >> (target - v) & 1:
                    keep |= 15 << 4 * (v - 1)
        _KEEP[key] = keep
    return keep


def _live_id(packed: int, target: int, single: bool, mode: str) -> int:
    """Result id for a card of this spec on a packed table (0: it has no träff)."""
    keep = _keep_mask(_sums(packed), target, single)
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
    live = _unpack(live_packed)[: min(target, 13) + 1]
    same = live[target] if target <= 13 else 0
    if same and mode != "free":
        # Cards of the played value are träffar on their own and in no other
        # träff, so every maximal capture takes all of them: solve the other
        # cards (shared by tables with any number of these), then add them.
        rest = live_packed & ~(15 << 4 * (target - 1))
        base: tuple[Counts, ...] = ()
        if rest and _sums(rest) >> target & 1:  # (no lone aces here: the played card is not an ace counting 14)
            base = _RESULTS[_live_result(rest, target, single, mode)][0]
        caps = tuple(k[:target] + (same,) for k in base) if base else ((0,) * target + (same,),)
    elif mode == "free":
        caps = _all_captures(live, target, single)
    else:
        caps = _maximal_live(live, target, single)
        if mode == "maximum" and caps:
            best = max(sum(k) for k in caps)
            caps = tuple(k for k in caps if sum(k) == best)
    mask = None
    if len(caps) == 1:
        k = caps[0]
        if all(m == 0 or m == live[v] for v, m in enumerate(k)):
            mask = tuple(r0 + 1 < len(k) and k[r0 + 1] > 0 for r0 in range(13))
    picks = tuple(_pick(k) for k in caps)
    rid = d[key] = _store((caps, mask, picks, live in caps))
    return rid


def _value_captures(counts: Counts, target: int, single_ace: bool, mode: str) -> tuple[Counts, ...]:
    """Value-level captures for a card of this spec on a table of these counts (for the bots' search)."""
    return _RESULTS[_live_id(_pack_counts(counts), target, single_ace, mode)][0]


def _whole_packed(packed: int, ace: str) -> tuple[int, ...]:
    """Ranks that take the whole table, by packed counts ("tabbe på …")."""
    d = _WHOLE.get(ace)
    if d is None:
        d = _WHOLE[ace] = {}
    bits = d.get(packed)
    if bits is None:
        _make_room(d)
        bits = d[packed] = _whole_search(packed, ace)
    return _RANK_TUPLES[bits]


def _whole_ranks(counts: Counts, ace: str) -> tuple[int, ...]:
    """Ranks whose played card could take the whole (non-empty) table of these counts."""
    return _whole_packed(_pack_counts(counts), ace)


def _captures_of(card: Card, table: Sequence[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """Concrete captures of ``card`` on ``table``, in the public order."""
    caps, mask, picks, _ = _RESULTS[_caps_id(_pack(table), card >> 2, rules.ace, rules.capture) >> 1]
    if not caps:
        return []
    if mask is not None:
        return [tuple([c for c in sorted(table) if mask[c >> 2]])]
    return _expand_all(picks, _by_value(table))


# --- back to cards -----------------------------------------------------------

def _expand(pick: _Pick, by_value: dict[int, list[Card]]) -> list[tuple[Card, ...]]:
    """Concrete captures (distinct card multisets) for a value-level capture,
    given as its ``(value, how many)`` pairs (see :func:`_pick`).

    ``by_value`` lists each value's table cards in sorted order (see
    :func:`_by_value`). Values are visited in ascending order and cards sort by
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
        opts = list(dict.fromkeys(combinations(cards, m))) if m > 1 else [(c,) for c in dict.fromkeys(cards)]
        if not choices and fixed:
            head = tuple(fixed)
            opts = [head + o for o in opts]
        choices.append(opts)
    if not choices:
        return [tuple(fixed)]
    if len(choices) == 1:
        return choices[0]
    return [tuple(chain.from_iterable(parts)) for parts in product(*choices)]


def _pick(k: Counts) -> _Pick:
    """The (value, how many) pairs of a value-level capture, ascending."""
    return tuple((v, m) for v, m in enumerate(k) if m)


def _by_value(table: Sequence[Card]) -> dict[int, list[Card]]:
    """The table's cards by value, each list sorted."""
    by: dict[int, list[Card]] = {}
    for c in sorted(table):
        by.setdefault((c >> 2) + 1, []).append(c)
    return by


def capture_options(card: Card, table: Sequence[Card], rules: Rules | None = None) -> list[tuple[Card, ...]]:
    """Every legal capture for ``card`` on ``table`` under the rules' capture mode.

    Each capture is a sorted tuple of table cards; identical cards are
    interchangeable, so each distinct capture is listed once. ``[]`` means the
    card has no träff and creeps. Tvångstabbe (another card in the hand that
    must take the whole table) is not considered here: see :func:`legal_moves`.

    >>> from krypteach import parse_cards
    >>> [" ".join(map(str, c)) for c in capture_options(Card("9C"), parse_cards("2S 2H 7D"))]
    ['2S 7D', '2H 7D']
    >>> capture_options(Card("AH"), parse_cards("6S 8D 3C"))
    [(Card('6S'), Card('8D'))]
    """
    rules = rules or _DEFAULT
    card = Card(card)
    if not table:
        return []
    return _captures_of(card, table, rules)


def _expand_all(picks: Sequence[_Pick], by_value: dict[int, list[Card]]) -> list[tuple[Card, ...]]:
    """Concrete captures for value-level captures: the largest first, then in card order."""
    if len(picks) == 1:
        return _expand(picks[0], by_value)
    out = [cap for pick in picks for cap in _expand(pick, by_value)]
    out.sort()  # card order, then (a stable sort) the largest first
    out.sort(key=len, reverse=True)
    return out


def can_take_whole_table(card: Card, table: Sequence[Card], rules: Rules | None = None) -> bool:
    """Can ``card`` take every card on a non-empty ``table`` (a tabbe)?

    >>> from krypteach import parse_cards
    >>> can_take_whole_table(Card("10S"), parse_cards("AH 7C 3D 9S"))
    True
    """
    if not table:
        return False
    return Card(card).rank in _whole_packed(_pack(table), (rules or _DEFAULT).ace)


def tabbe_ranks(table: Sequence[Card], rules: Rules | None = None) -> list[int]:
    """Ranks (1 = ace .. 13 = king) of the cards that would take the whole table.

    This is the "tabbe på …" announcement: after a 9 is laid on A, 7, 3 the
    table A, 7, 3, 9 gives "tabbe på tio".

    >>> from krypteach import parse_cards
    >>> tabbe_ranks(parse_cards("AH 7C 3D 9S"))
    [10]
    """
    if not table:
        return []
    rules = rules or _DEFAULT
    return list(_whole_packed(_pack(table), rules.ace))


def tabbe_pa_text(ranks: Sequence[int]) -> str | None:
    """The customary announcement for ranks that take the whole table.

    >>> tabbe_pa_text([10]), tabbe_pa_text([5, 13]), tabbe_pa_text([])
    ('tabbe på tio', 'tabbe på fem eller kung', None)
    """
    if not ranks:
        return None
    return "tabbe på " + " eller ".join(NUMBER_WORDS[r] for r in ranks)


def traffar(card: Card, table: Sequence[Card], rules: Rules | None = None) -> list[tuple[Card, ...]]:
    """Every single träff of ``card`` on ``table`` (distinct card multisets).

    >>> from krypteach import parse_cards
    >>> [" ".join(map(str, t)) for t in traffar(Card("9H"), parse_cards("9S 2C 5D 7H 4S"))]
    ['9S', '2C 7H', '4S 5D']
    """
    rules = rules or _DEFAULT
    target, single = _spec(Card(card).rank, rules.ace)
    counts = _counts(table)
    by_value = _by_value(table)
    out: list[tuple[Card, ...]] = []
    if single and counts[1]:
        out.extend(_expand(((1, 1),), by_value))
    top = min(target, 13)
    groups = _subsets_summing(counts, target, top)
    groups.sort(key=lambda g: (sum(g), [-g[v] for v in range(13, 0, -1)]))
    for g in groups:
        out.extend(_expand(_pick(g), by_value))
    return out


def split_into_traffar(card: Card, capture: Sequence[Card], rules: Rules | None = None) -> list[tuple[Card, ...]] | None:
    """Split a capture into disjoint träffar for ``card``, or ``None`` if it cannot be.

    Single same-rank cards come first, then the sums.

    >>> from krypteach import parse_cards
    >>> split_into_traffar(Card("9H"), parse_cards("9S 2C 7H"))
    [(Card('9S'),), (Card('2C'), Card('7H'))]
    """
    rules = rules or _DEFAULT
    card = Card(card)
    target, single = _spec(card.rank, rules.ace)
    cards = sorted(capture, key=lambda c: -int(c))
    if not cards:
        return None
    groups: list[tuple[Card, ...]] = []

    def rec(rest: list[Card]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        v = first.value
        if v == target:  # a single card of the same rank
            groups.append((first,))
            if rec(others):
                return True
            groups.pop()
            return False
        if single and v == 1:  # a lone table ace taken by a played ace
            groups.append((first,))
            if rec(others):
                return True
            groups.pop()
        if v > target:
            return False
        # choose a subset of `others` that sums to target - v
        need = target - v
        n = len(others)

        def pick(i: int, left: int, chosen: list[int]) -> bool:
            if left == 0:
                if not chosen:
                    return False
                grp = (first,) + tuple(others[j] for j in chosen)
                groups.append(grp)
                remaining = [others[j] for j in range(n) if j not in chosen]
                if rec(remaining):
                    return True
                groups.pop()
                return False
            for j in range(i, n):
                cv = others[j].value
                if cv <= left and (j == i or others[j] != others[j - 1]):
                    chosen.append(j)
                    if pick(j + 1, left - cv, chosen):
                        return True
                    chosen.pop()
            return False

        return pick(0, need, [])

    if not rec(cards):
        return None
    singles = [tuple(g) for g in groups if len(g) == 1]
    sums = [tuple(sorted(g)) for g in groups if len(g) > 1]
    return sorted(singles) + sorted(sums, key=lambda g: g)


clear_caches()
