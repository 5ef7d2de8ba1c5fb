"""Rules that mutation testing of the capture search, the cards and the scoring found unguarded
(docs/mutation/captures.md): each test names the rule, with concrete cards, or checks the fast
search against the brute-force reference (``krypteach/engine/reference.py``) where the rule is
"every maximal capture"."""

import random
import re

import pytest

from krypteach import Card, Rules, capture_options, parse_cards, tabbe_ranks, traffar
from krypteach.engine import capture_cache, capture_search
from krypteach.engine import reference as oracle
from krypteach.engine.capture_cache import ranks_taking_whole, value_captures, whole_bits_packed
from krypteach.engine.capture_search import (
    _maximal_by_cards,
    _maximal_by_rests,
    _TooManyBranches,
    counts_of,
    target_spec,
)
from krypteach.engine.captures import split_into_traffar
from krypteach.engine.cards import POINTS, CardParseError, _points
from krypteach.engine.scoring import givar_parti_end, point_breakdown

RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: a played card's spec (the sum it makes, whether it takes a lone table ace) -> a card and an ace rule
SPEC_CARD = {(14, True): ("AH", "1or14"), (14, False): ("AH", "14hand"), (1, False): ("AH", "1")}


def texts(groups):
    """Groups of cards (träffar, captures, parts) as text, one string a group, in their order."""
    return [" ".join(map(str, g)) for g in groups]


def _table_codes(counts):
    """Concrete cards for value counts (a double deck: each rank and suit twice)."""
    out = []
    for v, n in enumerate(counts):
        out += [RANK_CODES[v - 1] + "SHDC"[i % 4] for i in range(n)] if v else []
    return out


def _reference_maximal(counts, target, single):
    """The reference's maximal captures, as counts by value (the search's form)."""
    card, ace = SPEC_CARD[target, single] if (target, single) in SPEC_CARD else (RANK_CODES[target - 1] + "H", "1or14")
    caps = oracle.capture_options(card, _table_codes(counts), capture="maximal", ace=ace)
    out = set()
    for cap in caps:
        k = [0] * len(counts)
        for code in cap:
            k[RANK_CODES.index(code[:-1]) + 1] += 1
        out.add(tuple(k))
    return out


def _random_tables(seed, n_tables):
    """Tables of live cards (values up to the target) for every kind of played card, some with
    many small cards and several aces: the shapes both searches are for."""
    rng = random.Random(seed)
    specs = [(t, False) for t in range(2, 14)] + [(14, True), (14, False)]
    for _ in range(n_tables):
        target, single = rng.choice(specs)
        top = min(target, 13)
        size = rng.randint(1, 10)
        small = rng.random() < 0.5  # mostly small cards: many ways to group them
        counts = [0] * (top + 1)
        for _ in range(size):
            v = rng.randint(1, max(1, top // 2)) if small else rng.randint(1, top)
            if counts[v] < 8:  # a double deck holds 8 of a value
                counts[v] += 1
        yield tuple(counts), target, single


@pytest.mark.parametrize("search", ["by_cards", "by_rests"])
def test_both_maximal_searches_find_every_maximal_capture_the_reference_finds(search):
    """The card-first search and the rest-first one (which the first gives way to on big tables of
    small cards) each find exactly the maximal captures: no träff left among the cards that stay."""
    checked = 0
    for counts, target, single in _random_tables(7, 300):
        if search == "by_cards":
            got = set(_maximal_by_cards(counts, target, single, 10**9))
        else:
            got = set(_maximal_by_rests(counts, target, single))
        want = _reference_maximal(counts, target, single)
        assert got == want, (counts, target, single)
        checked += bool(want)
    assert checked > 150  # most tables hold a träff


@pytest.mark.parametrize("search", ["by_cards", "by_rests"])
@pytest.mark.parametrize("table, card, ace, want", [
    # 2 2 2 3 3 4 5 5 and a 7: 2+5 twice and 3+4, or 2+2+3 with 2+5 and 3+4 ... every maximal way
    ("2S 2H 2D 3S 3H 4S 5S 5H", "7D", "1or14", [
        "2H 2D 3H 4S 5S 5H", "2H 2D 3S 4S 5S 5H", "2S 2D 3H 4S 5S 5H", "2S 2D 3S 4S 5S 5H",
        "2S 2H 2D 3S 3H 4S 5H", "2S 2H 2D 3S 3H 4S 5S", "2S 2H 3H 4S 5S 5H", "2S 2H 3S 4S 5S 5H"]),
    # three aces and 6 8 3 3 under a played ace (1 or 14): each ace alone, and 6+8, 3+3+8 or
    # 3+8 with the table's three aces counting 1 each
    ("AS AH AD 6C 8C 3S 3H", "AC", "1or14", [
        "AS AH AD 3H 8C", "AS AH AD 3S 3H 6C", "AS AH AD 3S 3H 8C", "AS AH AD 3S 8C", "AS AH AD 6C 8C"]),
    # a played ace counting 14 only from the hand: no lone ace, but A+K and 6+8
    ("AS AH KD 6C 8C", "AC", "14hand", ["AH 6C 8C KD", "AS 6C 8C KD"]),
    # under ace = 1 an ace takes only aces
    ("AS AH 6C 8C", "AC", "1", ["AS AH"]),
], ids=["sevens-from-small-cards", "aces-alone-and-14", "ace-14-from-hand", "ace-is-one"])
def test_both_maximal_searches_on_hand_picked_tables(search, table, card, ace, want):
    counts = counts_of(int(c) for c in parse_cards(table))
    target, single = target_spec(Card(card).rank, ace)
    live = counts[: min(target, 13) + 1]
    got = set(_maximal_by_cards(live, target, single, 10**9) if search == "by_cards"
              else _maximal_by_rests(live, target, single))
    assert got == _reference_maximal(live, target, single)
    assert {" ".join(c) for c in oracle.capture_options(card, table.split(), capture="maximal", ace=ace)} == set(want)
    assert sorted(texts(capture_options(Card(card), parse_cards(table), Rules(ace=ace)))) == sorted(
        texts(parse_cards(w) for w in want))


def test_the_card_first_search_gives_way_when_over_its_budget():
    counts = counts_of(int(c) for c in parse_cards("AS AH 2S 2H 2D 3S 3H 3D 4S 4H 5S 5H"))[:11]
    with pytest.raises(_TooManyBranches):
        _maximal_by_cards(counts, 10, False, 5)
    assert set(_maximal_by_cards(counts, 10, False, 10**9)) == set(_maximal_by_rests(counts, 10, False))


def test_a_played_cards_sum_and_lone_ace_by_the_ace_rule():
    """RULES.md: a played ace counts 14 and also takes single aces (default); with ``ace=1`` it
    counts 1 (and takes aces as its own rank); "14 from the hand and 1 on the table": 14, and no
    lone table ace."""
    assert target_spec(1, "1or14") == (14, True)
    assert target_spec(1, "1") == (1, False)
    assert target_spec(1, "14hand") == (14, False)
    assert target_spec(9, "1or14") == (9, False)
    assert target_spec(13, "14hand") == (13, False)


def test_counts_count_every_card_of_a_value():
    assert counts_of(int(c) for c in parse_cards("5S 5D 5S KH")) == (0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1)


def test_traffar_with_two_cards_of_a_value_make_a_sum():
    # two fives make ten; two of the same five (a double deck) too
    assert texts(traffar(Card("10H"), parse_cards("5S 5D"))) == ["5S 5D"]
    assert texts(traffar(Card("10H"), parse_cards("5S 5S"))) == ["5S 5S"]


def test_each_lone_ace_is_a_traff_of_its_own():
    got = texts(traffar(Card("AH"), parse_cards("AS AD 6C 8C")))
    assert got == ["AS", "AD", "6C 8C"]


def test_traffar_follow_the_ace_rule():
    # ace = 1: a played ace takes a lone ace (its rank) and makes no sum of 14
    assert texts(traffar(Card("AH"), parse_cards("AS 6C 8C"), Rules(ace="1"))) == ["AS"]
    # 14 from the hand: 6+8 but no lone ace
    assert texts(traffar(Card("AH"), parse_cards("AS 6C 8C"), Rules(ace="14hand"))) == ["6C 8C"]


def test_traffar_come_fewest_cards_first_then_the_highest_cards_first():
    got = texts(traffar(Card("9H"), parse_cards("9S 2C 7H 4S 5D 3H 6S AD 8C")))
    assert got == ["9S", "AD 8C", "2C 7H", "3H 6S", "4S 5D", "AD 2C 6S", "AD 3H 5D", "2C 3H 4S"]


def _split_ok(card, capture, ace):
    """The reference: can ``capture`` be split into disjoint träffar of ``card``?"""
    return tuple(sorted(capture, key=oracle.sort_key)) in oracle.capture_options(card, capture, capture="free", ace=ace)


@pytest.mark.parametrize("ace", ["1or14", "1", "14hand"])
def test_split_into_traffar_agrees_with_the_reference(ace):
    """A capture splits into disjoint träffar exactly when the reference says it is one; the parts
    are träffar, singles first, and together they are the capture."""
    rng = random.Random(11)
    deck = [c + s for c in RANK_CODES for s in "SHDC"] * 2
    split_some = 0
    for i in range(400):
        card = rng.choice(RANK_CODES[:10] + ("A",)) + "H"
        capture = rng.sample(deck, rng.randint(1, 5))
        if i % 2:  # every other one a real capture: a union of träffar on a random table
            table = rng.sample(deck, 7)
            captures = sorted(oracle.capture_options(card, table, capture="free", ace=ace))
            if captures:
                capture = list(rng.choice(captures))
        parts = split_into_traffar(Card(card), parse_cards(capture), Rules(ace=ace))
        assert (parts is not None) == _split_ok(card, capture, ace), (card, capture)
        if parts is None:
            continue
        split_some += 1
        assert sorted(c for p in parts for c in p) == sorted(parse_cards(capture))
        for p in parts:
            assert oracle.traffar(card, [str(c) for c in p], ace=ace), (card, p)
        sizes = [len(p) for p in parts]
        assert sizes == sorted(sizes, key=lambda n: n > 1)  # singles first
    assert 100 < split_some < 400  # some split, some do not


def test_split_into_traffar_orders_the_sums():
    parts = split_into_traffar(Card("9H"), parse_cards("7C 2D 9S 5H 4S 3C 6D"))
    assert texts(parts) == ["9S", "2D 7C", "3C 6D", "4S 5H"]
    assert split_into_traffar(Card("9H"), parse_cards("5C 5D")) is None
    # a card of the played rank is a träff; what is left must split too
    assert split_into_traffar(Card("9H"), parse_cards("9S 5C")) is None
    assert split_into_traffar(Card("9H"), parse_cards("9S 9C 4D 5C")) == [tuple(parse_cards("9S")), tuple(parse_cards("9C")),
                                                                         tuple(parse_cards("4D 5C"))]
    assert split_into_traffar(Card("9H"), parse_cards("10C")) is None
    # a played ace takes lone aces, each a träff of its own
    assert split_into_traffar(Card("AH"), parse_cards("AS AD")) == [tuple(parse_cards("AS")), tuple(parse_cards("AD"))]
    assert split_into_traffar(Card("9H"), []) is None


def test_an_empty_table_is_taken_whole_by_no_rank():
    assert whole_bits_packed(0, "1or14") == 0


def test_card_points_as_the_rules_give_them():
    """RULES.md: storan (10♦) 3; lillan (2♠) 2; spader ess (A♠) 2; every other ace 1; every other
    spade 1; all else 0. Over 52 cards 21, over the 104 of a double deck 42."""
    want = {"10D": 3, "2S": 2, "AS": 2, "AH": 1, "AD": 1, "AC": 1}
    want |= {r + "S": 1 for r in RANK_CODES if r not in ("A", "2")}
    for i in range(52):
        code = str(Card(i))
        assert _points(i) == want.get(code, 0), code
        assert POINTS[i] == _points(i)
    assert sum(_points(i) for i in range(52)) == 21


def test_point_breakdown_names_each_scoring_card():
    got = [(str(c), p, why) for c, p, why in point_breakdown(parse_cards("10D 2S AS AH 7S 7H KS"))]
    assert got == [("AS", 2, "spader ess"), ("AH", 1, "ess"), ("2S", 2, "lillan"), ("7S", 1, "spader"),
                   ("10D", 3, "storan"), ("KS", 1, "spader")]


def test_a_parti_not_yet_played_out_has_no_winner():
    rules = Rules()
    end = givar_parti_end(rules, [(3, 5)], 2, True)
    assert (end.over, end.winners, end.reached, end.givar, end.limit) == (False, (), (), 1, 2)
    done = givar_parti_end(rules, [(3, 5), (4, 1)], 2, True)
    assert (done.over, done.winners, done.reached, done.limit) == (True, (1,), (), 2)
    assert givar_parti_end(rules, [(3, 5), (4, 1)], 2, False).winners == ()


@pytest.mark.parametrize("rank, suit", [(0, "S"), (14, "S"), (5, "X"), (5, "s")], ids=["rank-0", "rank-14", "suit-X", "suit-lower"])
def test_no_card_of_a_bad_rank_or_suit_is_made(rank, suit):
    with pytest.raises(CardParseError, match=re.escape(f"no card with rank {rank!r} and suit {suit!r}") + "$") as err:
        Card.make(rank, suit)
    assert str(err.value).startswith("no card")


def test_a_card_code_that_is_not_text_is_named_in_the_error():
    with pytest.raises(CardParseError, match=r"^12 is not a card code \(expected text such as '10D'\)$"):
        Card.parse(12)  # type: ignore[arg-type]


def test_a_card_formats_as_its_code():
    assert f"[{Card('10D'):>4}]" == "[ 10D]"
    assert f"{Card('AS'):<3}|" == "AS |"


def test_free_capture_takes_a_lone_ace_with_an_ace():
    """With ``capture=free`` (classic Kasino's choice) a played ace may take a lone table ace even
    where no cards add up to 14; and it may take any union of its träffar."""
    free = Rules(capture="free")
    assert capture_options(Card("AH"), parse_cards("AS 5C"), free) == [tuple(parse_cards("AS"))]
    got = set(texts(capture_options(Card("AH"), parse_cards("AS 6C 8D"), free)))
    assert got == {"AS", "6C 8D", "AS 6C 8D"}


def test_a_played_ace_counting_14_takes_a_king_with_an_ace():
    """A played ace counts 14: a king and a table ace (13 + 1) are a träff, and so are a queen and
    a two; the lone ace is a träff of its own too."""
    got = texts(traffar(Card("AH"), parse_cards("KS AD QC 2H")))
    assert got == ["AD", "AD KS", "2H QC"]


@pytest.mark.parametrize("table", ["AH 7C 3D 9S", "5C 5D", "7C 7D", "KS AD", "2S 3H 4D 6C 9S"],
                         ids=["tio", "two-fives", "two-sevens", "king-and-ace", "five-cards"])
def test_the_bots_value_level_answers_agree_with_the_cards(table):
    """The bots ask on counts by value (``ranks_taking_whole``, ``value_captures``): the same
    answers as the card-level functions, "tabbe på …" and the captures."""
    cards = parse_cards(table)
    counts = counts_of(int(c) for c in cards)
    assert list(ranks_taking_whole(counts, "1or14")) == tabbe_ranks(cards)
    for mode in ("maximal", "maximum", "free"):
        for rank in range(1, 14):
            target, single = target_spec(rank, "1or14")
            got = set(value_captures(counts, target, single, mode))
            want = {counts_of(int(c) for c in cap) for cap in capture_options(Card.make(rank, "H"), cards, Rules(capture=mode))}
            assert {k + (0,) * (14 - len(k)) for k in got} == want, (mode, rank)


@pytest.fixture
def low_cache_limit(monkeypatch):
    """The capture caches (and the memo of the sums tables make) bounded at 8 entries each, emptied
    before and after the test."""
    capture_cache.clear_caches()
    monkeypatch.setattr(capture_cache, "CACHE_LIMIT", 8)
    monkeypatch.setattr(capture_search, "MEMO_LIMIT", 8)
    yield 8
    capture_cache.clear_caches()


def _fill(d, n):
    """``n`` entries under keys no table packs to (packed tables are never negative)."""
    for i in range(n):
        d[-1 - i] = 0


def _bounded_sizes():
    """The sizes of the caches ``CACHE_LIMIT`` bounds (the sums' and the live masks' memos have
    bounds of their own)."""
    return ([len(d) for d in capture_cache._CAPS.values()] + [len(d) for d in capture_cache._LIVE.values()]
            + [len(d) for d in capture_cache._WHOLE.values()] + [len(capture_cache.PARTITIONABLE)])


def _cache_sizes():
    return _bounded_sizes() + [len(capture_cache.SUMS), len(capture_cache.KEEP)]


@pytest.mark.parametrize("full", ["this-cache", "results", "partitionable"])
def test_every_capture_cache_is_emptied_when_one_is_full(low_cache_limit, full):
    """The caches' memory bound (what keeps a long simulation or the server bounded): when the cache
    about to grow, the results or the partition memo holds ``CACHE_LIMIT`` entries, every cache is
    emptied together, the results down to "no capture"; one entry fewer empties nothing."""
    d = capture_cache.caps_table("1or14", "maximal")
    other = capture_cache._WHOLE.setdefault("1or14", {})
    for size in (low_cache_limit - 1, low_cache_limit):
        capture_cache.clear_caches()
        _fill(other, 2)
        _fill(d, size if full == "this-cache" else 1)
        if full == "results":
            capture_cache.RESULTS.extend([((), None, (), False)] * (size - len(capture_cache.RESULTS)))
        if full == "partitionable":
            _fill(capture_cache.PARTITIONABLE, size)
        before = _cache_sizes(), len(capture_cache.RESULTS)
        capture_cache._make_room(d)
        if size < low_cache_limit:
            assert (_cache_sizes(), len(capture_cache.RESULTS)) == before
        else:
            assert set(_cache_sizes()) == {0}
            assert capture_cache.RESULTS == [((), None, (), False)]


def test_captures_stay_right_while_the_caches_are_emptied_again_and_again(low_cache_limit):
    """With room for 8 entries a cache, 200 random tables empty the caches many times over, and every
    answer is still the reference's: "tabbe på …" and each played card's maximal captures. No cache
    grows past the bound, nor the sums' memo past its own; the results, by at most the two a new
    table's answer keeps."""
    rng = random.Random(5)
    emptied, results = 0, len(capture_cache.RESULTS)
    deck = [c + s for c in RANK_CODES for s in "SHDC"]
    for _ in range(200):
        table = rng.sample(deck, rng.randint(1, 6))
        card = rng.choice(RANK_CODES) + "H"
        got = set(texts(capture_options(Card(card), parse_cards(table))))
        assert got == {" ".join(c) for c in oracle.capture_options(card, table, capture="maximal")}, (card, table)
        assert tabbe_ranks(parse_cards(table)) == sorted(
            r for r in range(1, 14) if set(table) in map(set, oracle.capture_options(
                RANK_CODES[r - 1] + "H", table, capture="maximal")))
        assert max(_bounded_sizes()) <= low_cache_limit
        assert len(capture_cache.RESULTS) <= low_cache_limit + 1
        assert len(capture_cache.SUMS) <= low_cache_limit
        emptied += len(capture_cache.RESULTS) < results
        results = len(capture_cache.RESULTS)
    assert emptied > 20
