"""A deliberately naive reference for the Krypkasino capture and turn rules.

Written straight from the rules ("Cards", "A turn", "Träffar in detail" and the
variants ``capture``, ``ace`` and ``forced_tabbe``), independently of the fast
capture search (:mod:`krypteach.engine.capture_search`), so that the engine can be
checked against it: the tests compare the two, and the puzzle prover
(:mod:`krypteach.teaching.puzzles`) proves every answer with it. It favours being
obviously right over being fast: it lists every subset of table indices and
combines träffar by brute force (use it on tables of a dozen cards or fewer).
It imports nothing from the rest of krypteach.

Cards are code strings: a rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` followed by a suit
``S H D C`` (``"10D"``, ``"AS"``, ``"QH"``). Only upper-case codes are accepted here.

Words (from RULES.md):

* träff -- one match for the played card: a single table card of the same rank, or two or
  more table cards whose values add up to the played card's value.
* capture (ta in) -- a non-empty union of pairwise-disjoint träffar.
* maximal -- a capture that leaves no träff among the cards that stay on the table.
* tabbe -- a capture of the whole table.

Example:

>>> traffar("9H", ["9S", "2C", "5D", "7H"])
[(0,), (1, 3)]
>>> capture_options("9H", ["9S", "2C", "5D", "7H"])
{('2C', '7H', '9S')}
>>> can_take_whole_table("10H", ["AS", "7D", "3C", "9H"])
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations
from typing import cast

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
ACE_VARIANTS: tuple[str, ...] = ("1or14", "1", "14hand")
CAPTURE_VARIANTS: tuple[str, ...] = ("maximal", "maximum", "free")

# classic Kasino, in plain data: a build is (value, its card codes, owner seat); a table item is a
# card code or a build; a move is ("trail", card), ("capture", card, codes) or ("build", card, codes, value)
RefBuild = tuple[int, tuple[str, ...], int]
RefItem = str | RefBuild
RefMove = tuple[str, str] | tuple[str, str, tuple[str, ...]] | tuple[str, str, tuple[str, ...], int]

# Values from RULES.md "Cards": 2-10 as printed, J 11, Q 12, K 13; an ace on the table
# always counts 1 in a sum ("Träffar in detail"). The played ace is handled separately.
TABLE_VALUE: dict[str, int] = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7,
    "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13,
}


def split(card: str) -> tuple[str, str]:
    """Split a card code into (rank, suit); raise ValueError on anything else.

    >>> split("10D")
    ('10', 'D')
    """
    if not isinstance(card, str) or len(card) < 2:
        raise ValueError(f"not a card code: {card!r}")
    rank, suit = card[:-1], card[-1]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card code: {card!r}")
    return rank, suit


def sort_key(card: str) -> tuple[int, int]:
    """Sort key: rank order A,2..10,J,Q,K, then suit order S,H,D,C.

    >>> sorted(["KS", "AC", "10D", "AS", "2H"], key=sort_key)
    ['AS', 'AC', '2H', '10D', 'KS']
    """
    rank, suit = split(card)
    return RANKS.index(rank), SUITS.index(suit)


def sorted_codes(cards: Iterable[str]) -> tuple[str, ...]:
    """The cards as a tuple sorted by :func:`sort_key`."""
    return tuple(sorted(cards, key=sort_key))


def _check_ace(ace: str) -> None:
    if ace not in ACE_VARIANTS:
        raise ValueError(f"unknown ace variant {ace!r}; expected one of {ACE_VARIANTS}")


def takes_single(card: str, table_card: str, ace: str = "1or14") -> bool:
    """Is the lone ``table_card`` a träff for the played ``card``?

    Same rank is a träff, except that under ``ace="14hand"`` a played ace counts only
    14 and so takes no lone table ace.
    """
    _check_ace(ace)
    rank = split(card)[0]
    if rank != split(table_card)[0]:
        return False
    if rank == "A" and ace == "14hand":
        return False
    return True


def sum_target(card: str, ace: str = "1or14") -> int | None:
    """The value that a group of two or more table cards must add up to, or None.

    A played ace counts 14 under ``"1or14"`` and ``"14hand"``; under ``"1"`` it counts 1,
    and no group of two or more cards (each worth at least 1) sums to 1, so None.
    """
    _check_ace(ace)
    rank = split(card)[0]
    if rank == "A":
        return 14 if ace in ("1or14", "14hand") else None
    return TABLE_VALUE[rank]


def traffar(card: str, table: list[str], ace: str = "1or14") -> list[tuple[int, ...]]:
    """Every träff for ``card`` on ``table``, as sorted tuples of table indices.

    (a) a single table card of the same rank (see :func:`takes_single`), or
    (b) two or more table cards whose values (table ace = 1) sum to the played value.

    >>> traffar("AS", ["AH", "KC", "6D", "8S"])
    [(0,), (0, 1), (2, 3)]
    >>> traffar("AS", ["AH", "KC"], ace="14hand")
    [(0, 1)]
    >>> traffar("AS", ["AH", "KC"], ace="1")
    [(0,)]
    """
    _check_ace(ace)
    split(card)
    for t in table:
        split(t)
    result: list[tuple[int, ...]] = []
    for i, t in enumerate(table):
        if takes_single(card, t, ace):
            result.append((i,))
    target = sum_target(card, ace)
    if target is not None:
        for size in range(2, len(table) + 1):
            for combo in combinations(range(len(table)), size):
                if sum(TABLE_VALUE[split(table[i])[0]] for i in combo) == target:
                    result.append(combo)
    return sorted(result)


def _masks_of_unions(card: str, table: list[str], ace: str) -> tuple[set[int], list[int]]:
    """All unions of pairwise-disjoint träffar (as bit masks, 0 included) and the träffar.

    Knapsack-style: go through the träffar one at a time; every union built so far may
    either leave the träff out or, if disjoint from it, add it. So every set of
    pairwise-disjoint träffar is tried.
    """
    masks = []
    for combo in traffar(card, table, ace):
        m = 0
        for i in combo:
            m |= 1 << i
        masks.append(m)
    unions: set[int] = {0}
    for t in masks:
        unions |= {u | t for u in unions if u & t == 0}
    return unions, masks


def _codes(table: list[str], mask: int) -> tuple[str, ...]:
    return sorted_codes(table[i] for i in range(len(table)) if mask >> i & 1)


def capture_options(
    card: str, table: list[str], capture: str = "maximal", ace: str = "1or14"
) -> set[tuple[str, ...]]:
    """The legal captures for ``card`` on ``table``, each a sorted tuple of card codes.

    ``capture``:
      * ``"maximal"`` -- unions of disjoint träffar leaving no träff on the table;
      * ``"maximum"`` -- unions of disjoint träffar with the largest number of cards;
      * ``"free"``    -- every non-empty union of disjoint träffar.
    Empty set when the card has no träff (it must creep). Turn-level rules
    (tvångstabbe, the choice of card) are not applied here.

    >>> sorted(capture_options("9C", ["2S", "2H", "7D"]))
    [('2H', '7D'), ('2S', '7D')]
    >>> capture_options("10S", ["2H", "3D", "5C", "7S"], capture="maximum")
    {('2H', '3D', '5C')}
    """
    if capture not in CAPTURE_VARIANTS:
        raise ValueError(f"unknown capture variant {capture!r}; expected one of {CAPTURE_VARIANTS}")
    unions, masks = _masks_of_unions(card, table, ace)
    unions.discard(0)
    if not unions:
        return set()
    if capture == "free":
        chosen = unions
    elif capture == "maximum":
        best = max(bin(u).count("1") for u in unions)
        chosen = {u for u in unions if bin(u).count("1") == best}
    else:  # maximal
        chosen = {u for u in unions if all(u & t for t in masks)}
    return {_codes(table, u) for u in chosen}


def can_take_whole_table(card: str, table: list[str], ace: str = "1or14") -> bool:
    """Can the whole (non-empty) table be split into disjoint träffar for ``card``?

    >>> can_take_whole_table("9H", ["9S", "2C", "5D", "7H"])
    False
    >>> can_take_whole_table("AD", ["AH", "KS"])
    True
    >>> can_take_whole_table("7C", [])
    False
    """
    if not table:
        # still validate the arguments
        _check_ace(ace)
        split(card)
        return False
    unions, _ = _masks_of_unions(card, table, ace)
    return (1 << len(table)) - 1 in unions


def legal_moves(hand: list[str], table: list[str], capture: str = "maximal", ace: str = "1or14",
                forced_tabbe: bool = True) -> set[tuple[str, tuple[str, ...] | None]]:
    """The legal moves of a turn: ``(card, captured cards)`` or ``(card, None)`` for a creep.

    Tvångstabbe first: when some card of the hand can take the whole table, only
    such cards may be played and they take everything. Otherwise each card
    captures as :func:`capture_options` says, or creeps when it has no träff (and
    may always creep under ``capture="free"``).

    >>> sorted(legal_moves(["10S", "4H"], ["AH", "7C", "3D", "9S"]))
    [('10S', ('AH', '3D', '7C', '9S'))]
    >>> sorted(legal_moves(["9C", "4H"], ["9S", "2C", "5D", "7H"]), key=str)
    [('4H', None), ('9C', ('2C', '7H', '9S'))]
    """
    cards = list(dict.fromkeys(hand))
    takers = [c for c in cards if table and can_take_whole_table(c, table, ace)]
    if forced_tabbe and takers:
        return {(c, sorted_codes(table)) for c in takers}
    moves: set[tuple[str, tuple[str, ...] | None]] = set()
    for c in cards:
        caps = capture_options(c, table, capture=capture, ace=ace) if table else set()
        moves |= {(c, cap) for cap in caps}
        if not caps or capture == "free":
            moves.add((c, None))
    return moves


# --- classic Kasino: builds (RULES.md's last section, seed 004) ------------------
#
# A table is a list of items: a loose card code, or a build ``(value, cards, owner)``
# with ``cards`` a tuple of codes. A move is ``("capture", card, cards)``,
# ``("build", card, cards, value)`` or ``("trail", card)``; ``cards`` are sorted
# codes of every table card it takes in (a build's cards too). Written from the
# rules in docs/engine.md ("Classic Kasino"), by brute force over every subset
# of table items, without the engine's search.

def _kasino_card_value(card: str, face: str) -> int | None:
    """A card in a sum or a build: its rank value, ace 1; None for a face card under "own-rank"."""
    rank = split(card)[0]
    if face == "own-rank" and rank in ("J", "Q", "K"):
        return None
    return TABLE_VALUE[rank]


def _kasino_take_value(card: str, ace: str, face: str) -> int | None:
    """The build value a card in hand takes: ace 14 (None when the ace is 1 only)."""
    if split(card)[0] == "A":
        return None if ace == "1" else 14
    return _kasino_card_value(card, face)


def _partitions_into(cards: list[str], ok_group: Callable[[list[str]], bool]) -> bool:
    """Can ``cards`` be split into groups, each accepted by ``ok_group``?"""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for size in range(len(rest) + 1):
        for combo in combinations(range(len(rest)), size):
            group = [first] + [rest[i] for i in combo]
            if ok_group(group) and _partitions_into([rest[i] for i in range(len(rest)) if i not in combo], ok_group):
                return True
    return False


def _is_kasino_traff(card: str, group: list[str], ace: str, face: str) -> bool:
    """A träff of loose cards: one card of the same rank, or two or more adding up to the card's value."""
    if len(group) == 1 and split(group[0])[0] == split(card)[0]:
        return not (split(card)[0] == "A" and ace == "14hand")
    if len(group) < 2:
        return False
    if face == "own-rank" and split(card)[0] in ("J", "Q", "K"):
        return False
    target = sum_target(card, ace)
    vals = [_kasino_card_value(c, face) for c in group]
    return target is not None and None not in vals and sum(vals) == target  # type: ignore[arg-type]


def _items_cards(items: Iterable[RefItem]) -> list[str]:
    out: list[str] = []
    for x in items:
        out.extend(x[1] if isinstance(x, tuple) else [x])
    return out


def kasino_legal_moves(hand: list[str], table: list[RefItem], player: int | None = None, *, capture: str = "free",
                       ace: str = "1or14", forced_tabbe: bool = False, multiple_builds: bool = True,
                       owner_duty: str = "take-or-raise", face: str = "values", raise_gathers: bool = True,
                       lone_ace_builds: bool = True) -> set[RefMove]:
    """The legal moves of classic Kasino, by brute force.

    >>> sorted(kasino_legal_moves(["5H", "9D"], ["4S"]), key=str)
    [('build', '5H', ('4S',), 9), ('trail', '5H'), ('trail', '9D')]
    >>> sorted(kasino_legal_moves(["9D", "7H"], ["7C", (9, ("4S", "5H"), 0)], player=0), key=str)
    [('capture', '9D', ('4S', '5H'))]
    """
    cards = list(dict.fromkeys(hand))
    n = len(table)
    subsets = [[table[i] for i in range(n) if mask >> i & 1] for mask in range(1, 1 << n)]
    all_moves: set[RefMove] = set()
    whole = sorted_codes(_items_cards(table))
    takers: set[RefMove] = set()
    for c in cards:
        tv = _kasino_take_value(c, ace, face)
        caps = []
        for s in subsets:
            builds = [x for x in s if isinstance(x, tuple)]
            loose = [x for x in s if not isinstance(x, tuple)]
            if all(b[0] == tv for b in builds) and _partitions_into(
                    # mypy cannot infer a lambda with a default (c=c binds this card)
                    loose, lambda g, c=c: _is_kasino_traff(c, g, ace, face)):  # type: ignore[misc]
                caps.append(s)
        if capture == "maximal":
            def leaves_traff(s: list[RefItem], c: str = c, tv: int | None = tv) -> bool:
                rest = [x for x in table if x not in s]
                if any(isinstance(x, tuple) and x[0] == tv for x in rest):
                    return True
                rl = [x for x in rest if not isinstance(x, tuple)]
                return any(_is_kasino_traff(c, [rl[i] for i in combo], ace, face)
                           for size in range(1, len(rl) + 1) for combo in combinations(range(len(rl)), size))
            caps = [s for s in caps if not leaves_traff(s)]
        elif capture == "maximum" and caps:
            most = max(len(_items_cards(s)) for s in caps)
            caps = [s for s in caps if len(_items_cards(s)) == most]
        for s in caps:
            m = ("capture", c, sorted_codes(_items_cards(s)))
            all_moves.add(m)
            if m[2] == whole:
                takers.add(m)
        if caps and capture != "free":
            continue
        all_moves.add(("trail", c))
        cv = _kasino_card_value(c, face)
        if cv is None:
            continue
        # the values of the other cards in hand, None (no value) taken out
        values = cast("set[int]", {_kasino_take_value(h, ace, face) for h in hand if h != c} - {None, 1})
        for v in values:
            for s in subsets:
                builds = [x for x in s if isinstance(x, tuple)]
                loose = [x for x in s if not isinstance(x, tuple)]
                ok = False

                def group_ok(g: list[str], v: int = v) -> bool:
                    if lone_ace_builds and ace == "1or14" and v == 14 and len(g) == 1 and split(g[0])[0] == "A":
                        return True  # a lone table ace stands as 14 (the player's choice in this move)
                    vals = [_kasino_card_value(x, face) for x in g]
                    return None not in vals and sum(vals) == v  # type: ignore[arg-type]

                def raisable(b: tuple[int, tuple[str, ...], int], v: int = v, cv: int = cv) -> bool:
                    return sum(_kasino_card_value(x, face) or 0 for x in b[1]) == b[0] and b[0] + cv == v
                if len(s) == 1 and builds and raisable(builds[0]):
                    ok = True  # a raise: the card on one build that makes its value once
                elif raise_gathers and multiple_builds and any(
                        raisable(r) and all(b[0] == v for b in builds if b is not r)
                        and _partitions_into(loose, group_ok) for r in builds):
                    ok = True  # a raise that gathers other groups of the new value: a locked multiple build
                elif not multiple_builds:
                    vals = [_kasino_card_value(x, face) for x in loose]
                    ok = not builds and None not in vals and sum(vals) + cv == v  # type: ignore[arg-type]
                elif all(b[0] == v for b in builds):
                    def with_card_ok(g: list[str], v: int = v) -> bool:  # the played card's group: an ace counts 1
                        vals = [_kasino_card_value(x, face) for x in g]
                        return None not in vals and sum(vals) == v  # type: ignore[arg-type]
                    first, *rest = [c, *loose]
                    ok = any(with_card_ok([first, *(rest[i] for i in combo)]) and
                             _partitions_into([rest[i] for i in range(len(rest)) if i not in combo], group_ok)
                             for size in range(len(rest) + 1) for combo in combinations(range(len(rest)), size))
                if ok:
                    all_moves.add(("build", c, sorted_codes(_items_cards(s)), v))
    if forced_tabbe and takers:
        return takers
    mine = [x for x in table if isinstance(x, tuple) and x[2] == player] if player is not None else []
    if mine and owner_duty != "none":
        if owner_duty == "no-trail":
            kept = {m for m in all_moves if m[0] != "trail"}
        else:
            # m[2]: only a trail lacks it, and trails are left out first
            kept = {m for m in all_moves
                    if m[0] != "trail" and any(set(b[1]) <= set(m[2]) for b in mine)}  # type: ignore[misc]
        if kept:
            all_moves = kept
        # the owner keeps a card that takes each build they own after the move
        def keeps(m: RefMove) -> bool:
            rest = list(hand)
            rest.remove(m[1])
            values = {_kasino_take_value(x, ace, face) for x in rest}
            taken = set(m[2]) if len(m) > 2 else set()  # a trail takes no cards
            still = [b for b in mine if not set(b[1]) & taken]
            made = [v for v in m[3:] if isinstance(v, int)]  # a build: ("build", card, cards, value)
            return all(b[0] in values for b in still) and all(v in values for v in made)
        kept = {m for m in all_moves if keeps(m)}
        if kept:
            return kept
    return all_moves
