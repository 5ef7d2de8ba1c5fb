"""Captures: the data file of positions, the independent oracle, and hand-picked rules."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from krypteach import Card, Rules, can_take_whole_table, capture_options, parse_cards, tabbe_ranks, traffar
from krypteach.engine import reference as oracle
from krypteach.engine.captures import split_into_traffar

POSITIONS = [json.loads(line) for line in (Path(__file__).parent / "data" / "capture_positions.jsonl").read_text().splitlines() if line.strip()]


def codes(caps):
    """Captures as a set of code tuples (cards in rank-then-suit order), as in the data file."""
    out = {tuple(sorted((str(c) for c in cap), key=oracle.sort_key)) for cap in caps}
    assert len(out) == len(caps), "a capture is listed twice"
    return out


def test_position_file_is_large_enough():
    assert len(POSITIONS) >= 40
    assert sum(len(p["table"]) >= 12 for p in POSITIONS) >= 6
    assert sum(sum(c.startswith("A") for c in p["table"]) >= 3 for p in POSITIONS) >= 3


@pytest.mark.parametrize("pos", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_capture_positions(pos):
    rules = Rules(capture=pos["capture"], ace=pos["ace"])
    got = codes(capture_options(Card(pos["card"]), parse_cards(pos["table"]), rules))
    assert got == {tuple(e) for e in pos["expected"]}, pos["note"]


# --- the seed examples and rules of RULES.md, with concrete cards -------------

def test_seed_example_9_on_9_2_5_7():
    # "table 9, 2, 5, 7 and a 9 in hand: take 9 and 2+7; the 5 stays"
    assert codes(capture_options(Card("9H"), parse_cards("9S 2C 5D 7H"))) == {("2C", "7H", "9S")}


def test_tabbe_pa_names_several_ranks_lowest_first():
    """The announcement lists the ranks that take the whole table from the lowest up: two fives
    are taken by a five (two träffar) or a ten; two sevens by a seven or an ace (14)."""
    from krypteach import tabbe_pa_text

    assert tabbe_ranks(parse_cards("5C 5D")) == [5, 10]
    assert tabbe_ranks(parse_cards("7C 7D")) == [1, 7]
    assert tabbe_pa_text(tabbe_ranks(parse_cards("2C 3D 5S"))) == "tabbe på fem eller tio"


def test_tabbe_pa_tio():
    # a 9 laid on A, 7, 3 gives "tabbe på tio": A+9 and 3+7 make ten
    table = parse_cards("AH 7C 3D 9S")
    assert tabbe_ranks(table) == [10]
    assert can_take_whole_table(Card("10D"), table)
    assert split_into_traffar(Card("10D"), table) == [tuple(parse_cards("AH 9S")), tuple(parse_cards("3D 7C"))]


def test_same_rank_is_a_traff_and_sums_need_two_cards():
    assert codes(capture_options(Card("5H"), parse_cards("5S 9C"))) == {("5S",)}
    assert codes(traffar(Card("7H"), parse_cards("3S 4D 7C 2H 5C"))) == {("7C",), ("2H", "5C"), ("3S", "4D")}


def test_no_traff_means_creep():
    assert capture_options(Card("4H"), parse_cards("9S 2C 5D")) == []
    assert capture_options(Card("4H"), []) == []


def test_played_ace_counts_14_and_takes_single_aces():
    assert codes(capture_options(Card("AH"), parse_cards("6S 8D 3C"))) == {("6S", "8D")}
    assert codes(capture_options(Card("AH"), parse_cards("AS 9C"))) == {("AS",)}
    assert codes(capture_options(Card("AH"), parse_cards("2S QD"))) == {("2S", "QD")}


def test_table_ace_counts_one_in_sums():
    assert codes(capture_options(Card("5H"), parse_cards("AS 4C 9D"))) == {("AS", "4C")}


def test_ace_variants():
    table = parse_cards("AH KS")
    assert codes(capture_options(Card("AC"), table)) == {("AH",), ("AH", "KS")}
    assert codes(capture_options(Card("AC"), table, Rules(ace="1"))) == {("AH",)}
    assert codes(capture_options(Card("AC"), table, Rules(ace="14hand"))) == {("AH", "KS")}
    assert capture_options(Card("AC"), parse_cards("AH"), Rules(ace="14hand")) == []


def test_face_cards_on_table_count_in_sums():
    assert codes(capture_options(Card("KH"), parse_cards("JS 2C 8D"))) == {("2C", "JS")}


def test_capture_modes():
    table = parse_cards("AS AH 6D 7C")  # an 8: A+7 or A+A+6 — maximal both, maximum the larger
    assert codes(capture_options(Card("8H"), table)) == {("AS", "AH", "6D"), ("AH", "7C"), ("AS", "7C")}
    assert codes(capture_options(Card("8H"), table, Rules(capture="maximum"))) == {("AS", "AH", "6D")}
    # free: any union of disjoint träffar (here the träffar share cards, so each stands alone)
    assert codes(capture_options(Card("8H"), table, Rules(capture="free"))) == \
        {("AS", "AH", "6D"), ("AH", "7C"), ("AS", "7C")}


def test_identical_cards_listed_once():
    assert codes(capture_options(Card("9C"), parse_cards("2S 2S 7D"))) == {("2S", "7D")}
    assert codes(capture_options(Card("9C"), parse_cards("2S 2H 7D"))) == {("2S", "7D"), ("2H", "7D")}


def test_twenty_card_table_of_small_cards():
    table = parse_cards("AS 2S 3S 4S 5S AH 2H 3H 4H 5H AD 2D 3D 4D 5D AC 2C 3C 4C 5C")
    opts = capture_options(Card("9H"), table)
    assert len(opts) > 100
    assert all(split_into_traffar(Card("9H"), cap) is not None for cap in opts)  # each a union of träffar
    # maximal: what stays never holds a träff
    for cap in opts:
        rest = list(table)
        for c in cap:
            rest.remove(c)
        assert not traffar(Card("9H"), rest)


# --- property: the fast engine agrees with the naive oracle -------------------

CODES = [str(Card(i)) for i in range(52)]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    card=st.sampled_from(CODES),
    table=st.lists(st.sampled_from(CODES), max_size=9).filter(lambda t: all(t.count(c) <= 2 for c in t)),
    capture=st.sampled_from(["maximal", "maximum", "free"]),
    ace=st.sampled_from(["1or14", "1", "14hand"]),
)
def test_engine_agrees_with_oracle(card, table, capture, ace):
    if table.count(card) >= 2:
        return
    rules = Rules(capture=capture, ace=ace)
    got = codes(capture_options(Card(card), parse_cards(table), rules))
    assert got == set(oracle.capture_options(card, table, capture=capture, ace=ace))
    assert can_take_whole_table(Card(card), parse_cards(table), rules) == oracle.can_take_whole_table(card, table, ace=ace)


def test_full_caches_are_emptied_and_answers_stay_the_same(monkeypatch):
    """The capture caches are bounded: when one is full all are emptied, even in
    the middle of a giv, and play goes on exactly as with room to spare."""
    import random

    from krypteach.engine import capture_cache
    from krypteach.play.simulate import simulate

    def play():
        capture_cache.clear_caches()
        sim = simulate(Rules(), givar=6, seed=11, keep=True)
        return [[t.move for t in g.turns] for g in sim.givar], [t.tabbe_pa for g in sim.givar for t in g.turns]

    roomy = play()
    emptied = []
    real_clear = capture_cache.clear_caches
    monkeypatch.setattr(capture_cache, "CACHE_LIMIT", 40)
    monkeypatch.setattr(capture_cache, "clear_caches", lambda: (emptied.append(1), real_clear()))
    assert play() == roomy
    assert len(emptied) > 10  # the small limit was really hit, many times
    rng = random.Random(3)
    for _ in range(200):  # and single questions still get the oracle's answers
        table = [CODES[rng.randrange(52)] for _ in range(rng.randint(1, 9))]
        card = CODES[rng.randrange(52)]
        if any(table.count(c) > 2 for c in table) or table.count(card) >= 2:
            continue
        assert codes(capture_options(Card(card), parse_cards(table))) == set(oracle.capture_options(card, table))
        assert can_take_whole_table(Card(card), parse_cards(table)) == oracle.can_take_whole_table(card, table)


def test_legal_moves_agree_with_the_oracle_over_random_givar():
    """Whole givar of random variants: at every turn (tables up to 12 cards),
    the game's legal moves are exactly what the naive oracle gives — the
    tvångstabbe cards taking everything, or each card's captures, or a creep."""
    import random

    from krypteach import Giv

    rng = random.Random(2026)
    checked = 0
    for _ in range(24):
        rules = Rules(players=rng.choice([2, 3, 4, 5, 6]), capture=rng.choice(["maximal", "maximum", "free"]),
                      ace=rng.choice(["1or14", "1", "14hand"]), forced_tabbe=rng.random() < 0.7,
                      table_first=rng.choice([0, 4, 8]), hand_size=rng.choice([2, 4, 6]))
        g = Giv(rules, seed=rng.getrandbits(32))
        while not g.is_over:
            moves = g.legal_moves()
            if len(g.table) <= 12:
                hand = [str(c) for c in g.hand]
                table = [str(c) for c in g.table]
                expected = oracle.legal_moves(hand, table, capture=rules.capture, ace=rules.ace,
                                              forced_tabbe=rules.forced_tabbe)
                got = [(str(m.card), None if m.capture is None else tuple(map(str, m.capture))) for m in moves]
                assert set(got) == expected and len(got) == len(expected), (rules, hand, table)
                checked += 1
            g.play(moves[rng.randrange(len(moves))])
    assert checked > 1000
