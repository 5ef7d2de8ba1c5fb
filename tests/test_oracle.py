"""Tests of the reference capture rules (``krypteach/engine/reference.py``, "the oracle") and its position file.

``tests/data/capture_positions.jsonl`` holds hand-reasoned positions; every line must
agree with the oracle, so the file and the oracle check each other. The engine's own
tests can then use both to check ``krypteach``.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from krypteach.engine import reference as oracle

HERE = Path(__file__).resolve().parent

POSITIONS_FILE = HERE / "data" / "capture_positions.jsonl"
FIELDS = {"id", "card", "table", "capture", "ace", "expected", "note"}


def load_positions() -> list[dict]:
    rows = []
    with POSITIONS_FILE.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                row = json.loads(line)
                row["_line"] = number
                rows.append(row)
    return rows


POSITIONS = load_positions()


# --- the position file ----------------------------------------------------------------

def test_file_shape():
    assert len(POSITIONS) >= 60
    ids = [p["id"] for p in POSITIONS]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for p in POSITIONS:
        assert set(p) - {"_line"} == FIELDS, p["id"]
        assert p["capture"] in oracle.CAPTURE_VARIANTS, p["id"]
        assert p["ace"] in oracle.ACE_VARIANTS, p["id"]
        for code in [p["card"], *p["table"]]:
            oracle.split(code)  # raises on a bad code
        # expected: each capture sorted, no duplicates, a sub-multiset of the table
        as_tuples = [tuple(e) for e in p["expected"]]
        assert len(as_tuples) == len(set(as_tuples)), p["id"]
        for e in as_tuples:
            assert e and e == oracle.sorted_codes(e), (p["id"], e)
            assert not Counter(e) - Counter(p["table"]), (p["id"], e)


def test_file_coverage():
    """The categories the brief asks for are all present."""
    assert sum(len(p["table"]) >= 12 for p in POSITIONS) >= 6
    assert sum(sum(c.startswith("A") for c in p["table"]) >= 3 for p in POSITIONS) >= 3
    assert {p["capture"] for p in POSITIONS} == set(oracle.CAPTURE_VARIANTS)
    assert {p["ace"] for p in POSITIONS} == set(oracle.ACE_VARIANTS)
    assert any(p["expected"] == [] and p["table"] for p in POSITIONS)
    assert any(p["table"] == [] for p in POSITIONS)
    assert any(len(p["expected"]) >= 2 and p["capture"] == "maximal" for p in POSITIONS)


@pytest.mark.parametrize("pos", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_oracle_agrees_with_position(pos):
    got = oracle.capture_options(pos["card"], pos["table"], pos["capture"], pos["ace"])
    expected = {tuple(e) for e in pos["expected"]}
    assert got == expected, f"line {pos['_line']} {pos['id']}: {pos['note']}"


# --- direct asserts of the seed examples ----------------------------------------------

def test_seed_nine():
    table = ["9S", "2C", "5D", "7H"]
    assert oracle.traffar("9H", table) == [(0,), (1, 3)]
    assert oracle.capture_options("9H", table) == {("2C", "7H", "9S")}
    assert not oracle.can_take_whole_table("9H", table)


def test_tabbe_pa_tio():
    table = ["AS", "7D", "3C", "9H"]
    assert oracle.traffar("10S", table) == [(0, 3), (1, 2)]
    assert oracle.capture_options("10S", table) == {("AS", "3C", "7D", "9H")}
    assert oracle.can_take_whole_table("10S", table)
    ranks_that_take_all = [
        r for r in oracle.RANKS if oracle.can_take_whole_table(r + "S", table)
    ]
    assert ranks_that_take_all == ["10"]


def test_two_maximal_captures():
    assert oracle.capture_options("9C", ["2S", "2H", "7D"]) == {("2S", "7D"), ("2H", "7D")}


def test_aces():
    # a played ace: single aces and groups of 14; table aces count 1
    assert oracle.traffar("AS", ["AH", "KC", "6D", "8S", "2H", "QD"]) == [
        (0,), (0, 1), (2, 3), (4, 5)]
    assert oracle.traffar("AS", ["AH", "KC"], ace="1") == [(0,)]
    assert oracle.traffar("AS", ["AH", "KC"], ace="14hand") == [(0, 1)]
    assert oracle.traffar("AS", ["6D", "8S"], ace="1") == []
    assert oracle.traffar("5H", ["AS", "4D"]) == [(0, 1)]
    assert oracle.can_take_whole_table("AD", ["AH", "KS"])
    assert oracle.can_take_whole_table("AD", ["AH"])
    assert not oracle.can_take_whole_table("AD", ["AH"], ace="14hand")


def test_empty_table_and_no_traff():
    for mode in oracle.CAPTURE_VARIANTS:
        assert oracle.capture_options("7C", [], mode) == set()
        assert oracle.capture_options("4H", ["5S", "6D", "KC"], mode) == set()
    assert not oracle.can_take_whole_table("7C", [])


def test_bad_input():
    for bad in ["1S", "AX", "10", "", "11H"]:
        with pytest.raises(ValueError, match="not a card code"):
            oracle.traffar(bad, [])
    with pytest.raises(ValueError, match="unknown capture variant 'greedy'"):
        oracle.capture_options("9H", ["9S"], capture="greedy")
    with pytest.raises(ValueError, match="unknown ace variant '14'"):
        oracle.capture_options("9H", ["9S"], ace="14")


def test_large_table_is_fast():
    """A 14-card table of small cards (many träffar) stays well within seconds."""
    table = ["AS", "AH", "AD", "AC", "AS", "AH", "2D", "2C", "2S", "2H", "3D", "3C", "4S", "4H"]
    for mode in oracle.CAPTURE_VARIANTS:
        assert oracle.capture_options("AC", table, mode)


# --- properties, against a second, differently written check ---------------------------

def _is_union_of_traffar(card, cards, ace):
    """Can ``cards`` (a list) be split into träffar? Plain recursion on the first card."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for size in range(len(rest) + 1):
        for others in combinations(range(len(rest)), size):
            group = [first] + [rest[i] for i in others]
            if _is_traff(card, group, ace):
                left = [rest[i] for i in range(len(rest)) if i not in others]
                if _is_union_of_traffar(card, left, ace):
                    return True
    return False


def _is_traff(card, group, ace):
    rank = card[:-1]
    if len(group) == 1:
        return group[0][:-1] == rank and not (rank == "A" and ace == "14hand")
    target = {"J": 11, "Q": 12, "K": 13}.get(rank) or (
        (14 if ace != "1" else 1) if rank == "A" else int(rank))
    value = {"A": 1, "J": 11, "Q": 12, "K": 13}
    return sum(value.get(c[:-1]) or int(c[:-1]) for c in group) == target


def _sub_multisets(table):
    seen = set()
    for size in range(1, len(table) + 1):
        for combo in combinations(range(len(table)), size):
            codes = oracle.sorted_codes(table[i] for i in combo)
            if codes not in seen:
                seen.add(codes)
                yield codes, [table[i] for i in range(len(table)) if i not in combo]


ALL_CARDS = [r + s for r in oracle.RANKS for s in oracle.SUITS]
SMALLISH = [c for c in ALL_CARDS if c[:-1] in ("A", "2", "3", "4", "5", "6", "7", "K")]


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    card=st.sampled_from(ALL_CARDS),
    table=st.lists(st.sampled_from(SMALLISH), max_size=7),
    ace=st.sampled_from(oracle.ACE_VARIANTS),
)
def test_modes_against_definitions(card, table, ace):
    free = oracle.capture_options(card, table, "free", ace)
    maximal = oracle.capture_options(card, table, "maximal", ace)
    maximum = oracle.capture_options(card, table, "maximum", ace)

    expected_free = set()
    expected_maximal = set()
    for taken, left in _sub_multisets(table):
        if _is_union_of_traffar(card, list(taken), ace):
            expected_free.add(taken)
            leaves_traff = any(
                _is_traff(card, [left[i] for i in combo], ace)
                for size in range(1, len(left) + 1)
                for combo in combinations(range(len(left)), size)
            )
            if not leaves_traff:
                expected_maximal.add(taken)
    assert free == expected_free
    assert maximal == expected_maximal
    if free:
        best = max(map(len, free))
        assert maximum == {c for c in free if len(c) == best}
    else:
        assert maximum == set()
    assert maximum <= maximal <= free
    assert bool(free) == bool(oracle.traffar(card, table, ace))
    whole = oracle.sorted_codes(table)
    assert oracle.can_take_whole_table(card, table, ace) == (bool(table) and whole in free)
