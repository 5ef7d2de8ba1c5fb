"""Tests found by mutation testing of ``krypteach/engine/builds.py`` (docs/testing.md,
"Engine and bots", "builds.py"): classic Kasino's builds stated with concrete cards."""

from __future__ import annotations

import pytest

from krypteach import Card, Rules, parse_cards
from krypteach.engine.builds import Build, BuildParseError, build_total, parse_table
from krypteach.engine.moves import MoveParseError

K = Rules(game="kasino")


# --- Build.parse ------------------------------------------------------------------

@pytest.mark.parametrize("text", ["9:4S+5H@0", "[9:4S+5H@0", "9:4S+5H@0]", "[9 4S+5H@0]", "[9:4S+5H 0]", 9],
                         ids=["no-brackets", "no-close", "no-open", "no-colon", "no-at", "not-text"])
def test_a_build_needs_brackets_a_colon_and_an_owner(text):
    with pytest.raises(BuildParseError) as e:
        Build.parse(text)
    assert str(e.value) == f"{text!r} is not a build: write [value:cards@owner], e.g. [9:4S+5H@0]"


def test_a_bad_build_says_which_part_is_wrong():
    with pytest.raises(BuildParseError, match=r"base 10: '0:1'"):  # the value is before the first colon
        Build.parse("[9:4S+5H@0:1]")
    with pytest.raises(BuildParseError, match=r"'5H@0' is not a card"):  # the owner is after the last @
        Build.parse("[9:4S+5H@0@1]")


def test_a_bad_table_card_says_which_card():
    with pytest.raises(MoveParseError, match=r"^'XX' is not a card"):
        parse_table("7C XX")


def test_build_total_is_none_when_a_card_has_no_build_value():
    own = Rules(game="kasino", face_cards="own-rank")
    assert build_total(Card("5H"), parse_cards("KS"), own) is None
    assert build_total(Card("5H"), parse_cards("KS"), K) == 18


# --- the legal moves: builds, raises, captures --------------------------------------

A = Rules.preset("avig-kasino")
NO_MULTIPLE = K.replace(multiple_builds=False)


def _moves(hand, table, rules=K, player=0):
    from krypteach.engine.builds import kasino_legal_moves
    return [str(m) for m in kasino_legal_moves(parse_cards(hand), parse_table(table), rules, player)]


def test_a_build_needs_a_card_of_its_value_in_hand():
    assert _moves("5H 9D", "4S") == ["5H>9:4S", "5H", "9D"]  # 5 on 4 builds 9 with a 9 in hand
    assert _moves("5H 8D", "4S") == ["5H", "8D"]  # no 9 in hand: no build
    assert _moves("5D AH", "9C") == ["5D>14:9C", "5D", "AH"]  # the ace takes 14
    assert _moves("5D AH", "9C", K.replace(ace="1")) == ["5D", "AH"]  # ... unless it counts 1 only


def test_a_raise_needs_a_card_of_the_higher_value():
    assert _moves("4C KD", "[9:4S+5H@1]") == ["4C>13:4S+5H", "4C", "KD"]  # 9 + 4 = 13, a king
    assert _moves("4C QD", "[9:4S+5H@1]") == ["4C", "QD"]  # no king: no raise


def test_a_locked_multiple_build_cannot_be_raised():
    assert _moves("4C KD", "[9:4S+5H+9C@1]") == ["4C", "KD"]


def test_multiple_builds_add_groups_and_builds_of_the_same_value():
    assert _moves("5H 9D", "4S 9C") == ["5H>9:4S", "5H>9:4S+9C", "5H", "9D:9C", "9D"]
    assert _moves("5H 9D", "4S 9C", NO_MULTIPLE) == ["5H>9:4S", "5H", "9D:9C", "9D"]
    assert _moves("5H 9D", "4S 9C [9:6S+3S@1]") == [
        "5H>9:4S", "5H>9:3S+4S+6S", "5H>9:4S+9C", "5H>9:3S+4S+6S+9C", "5H", "9D:9C", "9D:3S+6S", "9D:3S+6S+9C", "9D"]


def test_a_capture_takes_whole_builds_of_the_cards_value():
    assert _moves("9D", "[9:4S+5H@1] [9:2C+7C@1] 9H 6S 3D 8C") == [
        "9D:9H", "9D:2C+7C", "9D:3D+6S", "9D:4S+5H", "9D:2C+7C+9H", "9D:3D+6S+9H", "9D:4S+5H+9H",
        "9D:2C+3D+6S+7C", "9D:2C+4S+5H+7C", "9D:3D+4S+5H+6S", "9D:2C+3D+6S+7C+9H", "9D:2C+4S+5H+7C+9H",
        "9D:3D+4S+5H+6S+9H", "9D:2C+3D+4S+5H+6S+7C", "9D:2C+3D+4S+5H+6S+7C+9H", "9D"]


def test_avig_kasino_takes_all_it_can_and_a_taking_card_neither_builds_nor_trails():
    assert _moves("9D 2H", "[9:4S+5H@1] 9H 6S 3D 8C", A) == ["9D:3D+4S+5H+6S+9H", "2H"]
    assert _moves("9D 2H", "[9:4S+5H@1] 9H 6S 3D 8C") == [
        "9D:9H", "9D:3D+6S", "9D:4S+5H", "9D:3D+6S+9H", "9D:4S+5H+9H", "9D:3D+4S+5H+6S", "9D:3D+4S+5H+6S+9H",
        "9D", "2H"]
    assert _moves("9D 2H", "[9:4S+5H@1]", A) == ["9D:4S+5H"]  # tvångstabbe: the whole table
    assert _moves("9D 2H", "[9:4S+5H@1] 7C", A) == ["9D:4S+5H", "2H>9:7C", "2H>9:4S+5H+7C", "2H"]


def test_face_cards_of_own_rank_take_only_their_rank():
    own = K.replace(face_cards="own-rank")
    assert _moves("KD QD", "AS", own) == ["KD", "QD"]
    assert _moves("KD QD 5C", "KS KH 5S", own) == ["KD:KS", "KD:KH", "KD:KS+KH", "KD", "QD", "5C:5S", "5C"]
    assert _moves("KD QD 5C", "KS KH 5S", A.replace(face_cards="own-rank")) == ["KD:KS+KH", "QD", "5C:5S"]


# --- the owner's duty ------------------------------------------------------------------

def test_the_owner_must_take_or_raise_its_build():
    assert _moves("2H 9D", "[9:4S+5H@0]") == ["9D:4S+5H"]
    assert _moves("2H 9D", "[9:4S+5H@1]") == ["2H", "9D:4S+5H", "9D"]  # somebody else's build
    assert _moves("2H 9D", "[9:4S+5H@0]", player=None) == ["2H", "9D:4S+5H", "9D"]


def test_no_trail_lets_the_owner_capture_or_build_anything_but_not_trail():
    assert _moves("9D 2H", "[9:4S+5H@0] 7C", K.replace(owner_duty="no-trail")) == [
        "9D:4S+5H", "2H>9:7C", "2H>9:4S+5H+7C"]


# --- the table after a move ------------------------------------------------------------

def test_the_table_after_a_capture_a_build_and_a_trail():
    from krypteach import Move
    from krypteach.engine.builds import kasino_table_after
    t = parse_table("7C [9:4S+5H@1] 9H")
    assert kasino_table_after(t, Move.parse("9D:4S+5H+9H"), 0) == [Card("7C")]
    assert kasino_table_after(t, Move.parse("9D:9H"), 0) == parse_table("7C [9:4S+5H@1]")
    assert kasino_table_after(parse_table("7C [9:4S+5H@1]"), Move.parse("4C>13:4S+5H"), 0) == [
        Card("7C"), Build(13, parse_cards("4C 4S 5H"), 0)]
    assert kasino_table_after(parse_table("7C"), Move.parse("4C"), 0) == parse_cards("7C 4C")


def test_capture_maximum_keeps_only_the_captures_with_the_most_cards():
    most = K.replace(capture="maximum")
    assert _moves("9D 2H", "[9:4S+5H@1] 9H 6S 3D 8C", most) == ["9D:3D+4S+5H+6S+9H", "2H"]
    assert _moves("8D 2H", "8C 5S 3D 6H", most) == [
        "8D:3D+5S+8C", "2H>8:6H", "2H>8:6H+8C", "2H>8:3D+5S+6H", "2H>8:3D+5S+6H+8C", "2H"]


# --- the subsets of the loose cards by their sum (the builds' search) -----------------------

def _groups_by_definition(loose, total, rules):
    """Every subset (bit mask, ascending) whose build values add up to ``total``, one by one."""
    from krypteach.engine.builds import build_value
    out = []
    for mask in range(1, 1 << len(loose)):
        vals = [build_value(c, rules) for i, c in enumerate(loose) if mask >> i & 1]
        if None not in vals and sum(vals) == total:
            out.append(mask)
    return out


def test_the_groups_of_a_sum_are_every_subset_that_makes_it_in_mask_order():
    from krypteach.engine.builds import _groups
    rules = Rules.preset("kasino")
    loose = parse_cards("4S 5H 9C 2D 7H")
    # 9 = 4♠+5♥ (mask 0b11), 9♣ alone (0b100), 2♦+7♥ (0b11000)
    assert _groups(loose, 9, rules) == [0b11, 0b100, 0b11000]
    assert _groups(loose, 6, rules) == [0b1001]  # 4♠+2♦
    assert _groups(loose, 1, rules) == []
    assert _groups(loose, 27, rules) == [0b11111]  # every card


def test_a_card_without_a_build_value_is_in_no_group():
    from krypteach.engine.builds import _groups, build_value
    rules = Rules(game="kasino", face_cards="own-rank")
    loose = parse_cards("KS 2D 9C")
    assert build_value(Card("KS"), rules) is None
    assert _groups(loose, 11, rules) == [0b110]  # 2♦+9♣, never with the king
    assert _groups(loose, 13, rules) == []


@pytest.mark.parametrize("preset", ["kasino", "avig-kasino"])
def test_the_groups_agree_with_their_definition_on_random_tables(preset):
    import random

    from krypteach.engine.builds import _groups
    from krypteach.engine.cards import full_deck
    rules = Rules.preset(preset)
    rng = random.Random(7)
    deck = list(full_deck())
    for _ in range(200):
        loose = rng.sample(deck, rng.randint(0, 9))
        for total in (1, 2, 7, 11, 14, 20, 40):
            assert _groups(loose, total, rules) == _groups_by_definition(loose, total, rules), (loose, total)


def test_the_subset_sums_kept_stay_within_their_bound_and_right(monkeypatch):
    """The sums' subsets are kept for the next turns: the cache is emptied before it holds more
    than _SUM_MASKS_MAX masks, and what it answers after that is still right."""
    import random

    from krypteach.engine import builds
    from krypteach.engine.cards import full_deck
    rules = Rules.preset("kasino")
    rng = random.Random(3)
    deck = list(full_deck())
    monkeypatch.setattr(builds, "_SUM_MASKS_MAX", 2000)  # met sooner than the real bound
    emptied = 0
    for _ in range(1000):
        loose = rng.sample(deck, 14)
        before = builds._sum_masks_held[0]
        builds._groups(loose, 14, rules)
        emptied += builds._sum_masks_held[0] < before
        assert builds._sum_masks_held[0] <= builds._SUM_MASKS_MAX
        assert sum(len(v) + 1 for v in builds._SUM_MASKS.values()) == builds._sum_masks_held[0]
    assert emptied  # the bound was met
    assert builds._groups(loose, 14, rules) == _groups_by_definition(loose, 14, rules)


@pytest.mark.parametrize("preset", ["kasino", "avig-kasino", "kasino-pairs"])
def test_what_a_player_can_take_is_what_the_legal_moves_say(preset):
    """kasino_takes answers without listing the builds: its captures are the legal captures, in
    their order, and it says a move that takes nothing is legal exactly when one is, builds owned
    (the owner's duty) or not; asked for each seat at every position of random givar."""
    import random

    from krypteach import Giv
    from krypteach.engine.builds import kasino_legal_moves, kasino_takes, owned_builds
    rules = Rules.preset(preset)
    owned = 0
    for seed in range(12):
        g = Giv(rules, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            for seat in range(rules.players):
                moves = kasino_legal_moves(g.hands[seat], g.table, rules, seat)
                caps, other = kasino_takes(g.hands[seat], g.table, rules, seat)
                assert caps == [m for m in moves if m.kind == "capture"]
                assert other == any(m.kind != "capture" for m in moves)
                owned += bool(owned_builds(g.table, seat))
            g.push(rng.choice(g.legal_moves()))
    assert owned  # the owner's duty was met along the way
