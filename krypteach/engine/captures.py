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

from collections.abc import Sequence

from .capture_cache import captures_of, clear_caches, expand_pick, pick_of, ranks_taking_whole_packed, table_by_value
from .capture_search import counts_of, pack, subsets_summing, target_spec
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
    "clear_caches",
]

#: Swedish words for the ranks, as said in "tabbe på tio".
NUMBER_WORDS = {1: "ess", 2: "två", 3: "tre", 4: "fyra", 5: "fem", 6: "sex", 7: "sju", 8: "åtta", 9: "nio",
                10: "tio", 11: "knekt", 12: "dam", 13: "kung"}

_DEFAULT = Rules()


def played_value(card: Card, rules: Rules | None = None) -> int:
    """The value a played card counts in sums (a played ace is 14 unless ``ace='1'``).

    >>> played_value(Card("AS")), played_value(Card("KD")), played_value(Card("AS"), Rules(ace="1"))
    (14, 13, 1)
    """
    return target_spec(card.rank, (rules or _DEFAULT).ace)[0]


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
    return captures_of(card, table, rules.ace, rules.capture)


def can_take_whole_table(card: Card, table: Sequence[Card], rules: Rules | None = None) -> bool:
    """Can ``card`` take every card on a non-empty ``table`` (a tabbe)?

    >>> from krypteach import parse_cards
    >>> can_take_whole_table(Card("10S"), parse_cards("AH 7C 3D 9S"))
    True
    """
    if not table:
        return False
    return Card(card).rank in ranks_taking_whole_packed(pack(table), (rules or _DEFAULT).ace)


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
    return list(ranks_taking_whole_packed(pack(table), rules.ace))


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
    target, single = target_spec(Card(card).rank, rules.ace)
    counts = counts_of(table)
    by_value = table_by_value(table)
    out: list[tuple[Card, ...]] = []
    if single and counts[1]:
        out.extend(expand_pick(((1, 1),), by_value))
    top = min(target, 13)
    groups = subsets_summing(counts, target, top)
    groups.sort(key=lambda g: (sum(g), [-g[v] for v in range(13, 0, -1)]))
    for g in groups:
        out.extend(expand_pick(pick_of(g), by_value))
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
    target, single = target_spec(card.rank, rules.ace)
    cards = sorted(capture, key=lambda c: -int(c))
    if not cards:
        return None
    groups: list[tuple[Card, ...]] = []

    def rec(rest: list[Card]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        v = first.rank
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
                cv = others[j].rank
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

