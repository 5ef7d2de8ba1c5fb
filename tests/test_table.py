"""The live class's table (issue 24, its core): the giv held by the table, each seat acting only
for itself and only in its turn, seeing only what its seat may know; forged, replayed and stale
moves refused with nothing changed; a learner away replaced by a bot and back again; every
finished giv handed on to be kept."""

from __future__ import annotations

import json
import random

import pytest

from krypteach.engine.records import giv_from_record, giv_to_record
from krypteach.engine.rules import Rules
from krypteach.play.table import TABLE_CODE_LETTERS, Table, TableError, new_code


def _play_until(table: Table, tokens: dict[int, str], done, rng: random.Random, now: float = 0.0) -> None:
    """Each learner's page plays a random legal move from its own view; the bots by tick."""
    for _step in range(2000):
        if done():
            return
        g = table.giv
        if not g.is_over and g.turn in tokens and not table.view(tokens[g.turn])["bots"][g.turn]:
            v = table.view(tokens[g.turn])
            assert v["legal"], "a seat in its turn has legal moves"
            table.move(tokens[g.turn], rng.choice(v["legal"]), version=v["version"])
        else:
            table.tick(now)
    raise AssertionError("the table did not get there")


@pytest.mark.parametrize("preset", ["krypkasino", "kasino", "avig-kasino"])
def test_a_whole_giv_at_a_table_of_two_learners_and_a_bot_each_seeing_only_their_own_hand(preset):
    kept = []
    rules = Rules.preset(preset, players=3)
    table = Table("K7Q2", rules, seed=11, bot="random", on_giv=lambda t, g: kept.append(giv_to_record(g)))
    tokens = {0: table.sit("Ann"), 2: table.sit("Bo", seat=2)}
    seen_versions = []

    def over() -> bool:
        seen_versions.append(table.version)
        for seat, token in tokens.items():
            v = table.view(token)
            assert v["seat"] == seat and v["hand"] == [str(c) for c in table.giv.hands[seat]]
            assert set(v) >= {"table", "hand_sizes", "scores", "version"}
            assert not {"hands", "stock", "deck", "deals_left"} & set(v)  # never another hand or the stock
            assert v["hand_sizes"] == [len(h) for h in table.giv.hands]
            assert (v["turn"] == seat) == bool(v["legal"])
            json.dumps(v)  # what a page is sent: JSON
        return table.giv.is_over

    _play_until(table, tokens, over, random.Random(5))
    assert seen_versions == sorted(seen_versions)
    assert {p for p, _m in table.view(tokens[0])["moves"]} == {0, 1, 2}  # the bot played seat 1
    assert len(kept) == 1 and giv_from_record(kept[0]).result == table.giv.result  # kept, and it replays
    assert table.view(tokens[2])["over"] and table.view(tokens[2])["turn"] is None
    table.tick(0.0)  # the next giv is dealt
    assert len(table.parti.givar) == 2 and not table.giv.is_over


def test_a_page_acts_only_for_its_own_seat_in_its_turn_and_a_replayed_or_forged_move_is_refused():
    table = Table("AB12", Rules(players=2), seed=3, bot="random")
    ann, bo = table.sit("Ann"), table.sit("Bo")
    mover, other = (ann, bo) if table.giv.turn == 0 else (bo, ann)
    v = table.view(mover)
    before = (table.version, len(table.giv.turns))

    def refused(token: str, move: str, version: int, why: str) -> None:
        with pytest.raises(TableError, match=why):
            table.move(token, move, version=version)
        assert (table.version, len(table.giv.turns)) == before  # nothing changed

    refused(other, table.view(other)["hand"][0], v["version"], "it is not your turn")
    refused("forged-token", v["legal"][0], v["version"], "no seat at this table")
    refused(mover, v["legal"][0], v["version"] - 1, "old view")
    refused(mover, "ZZ", v["version"], "that is not a move")
    not_mine = next(c for c in table.view(other)["hand"] if c not in v["hand"])
    refused(mover, not_mine, v["version"], "is not in your hand")  # a card of another hand: illegal
    turn = table.move(mover, v["legal"][0], version=v["version"])
    assert str(turn.move) == v["legal"][0]
    with pytest.raises(TableError, match="old view"):  # the same message sent again
        table.move(mover, v["legal"][0], version=v["version"])
    with pytest.raises(TableError, match="already sits"):
        table.sit("Ann")
    with pytest.raises(TableError, match="full"):
        table.sit("Cy")


def test_a_learner_away_is_replaced_by_the_bot_after_the_delay_and_takes_the_seat_back():
    table = Table("AB12", Rules(players=2), seed=4, bot="random", replace_after=30.0)
    ann, bo = table.sit("Ann"), table.sit("Bo")
    tokens = {0: ann, 1: bo}
    table.away(bo, now=100.0)
    table.tick(now=120.0)
    assert table.view(ann)["bots"] == [False, False]  # not yet: 20 s
    table.tick(now=131.0)
    assert table.view(ann)["bots"] == [False, True]
    rng = random.Random(1)
    _play_until(table, {0: ann}, lambda: len([t for t in table.giv.turns if t.player == 1]) >= 2, rng, now=131.0)
    # Bo's page comes back (a reload): the same seat and the game as it is
    assert table.back(bo) == 1 and table.view(ann)["bots"] == [False, False]
    v = table.view(bo)
    assert v["seat"] == 1 and v["moves"] == [(t.player, str(t.move)) for t in table.giv.turns]
    _play_until(table, tokens, lambda: table.giv.is_over, rng)


def test_a_tables_code_is_short_and_plain():
    codes = {new_code(random.Random(i)) for i in range(50)}
    assert all(len(c) == 4 and set(c) <= set(TABLE_CODE_LETTERS) for c in codes) and len(codes) > 40
    assert not set("0O1IL") & set(TABLE_CODE_LETTERS)
