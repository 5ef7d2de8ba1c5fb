"""Game records refuse a broken line with a message that names the line, the deal or the move
and what is wrong, word for word (docs/records.md; issue 18: each test kills mutants of
``krypteach/engine/records.py`` that the other tests let live, docs/testing.md)."""

from __future__ import annotations

import json
import sys

import pytest

from krypteach import Giv, Rules, parse_cards
from krypteach.engine.records import RecordError, dump_givar, giv_from_record, giv_to_record, parse_json, read_records
from krypteach.engine.rules import deal_plan

NOT_A_CARD = "is not a card: write rank A 2 3 4 5 6 7 8 9 10 J Q K then suit S H D C (or ♠ ♥ ♦ ♣), e.g. 10D or A♠"


def played(seed=3, rules=None):
    g = Giv(rules, seed=seed)
    while not g.is_over:
        g.play(g.legal_moves()[-1])
    return g


REC = giv_to_record(played())


def changed(change):
    rec = json.loads(json.dumps(REC))
    change(rec)
    return rec


BROKEN = {
    "not an object": ([1], """line 4: a record must be a JSON object {"format": 'krypteach-giv/1', ...}, got list"""),
    "format": (changed(lambda r: r.update(format=7)),
               "line 4: format must be 'krypteach-giv/2' (or the older 'krypteach-giv/1'), got 7"),
    "missing field": (changed(lambda r: r.pop("dealer")), "line 4: missing field 'dealer'"),
    "kasino in version 1": (changed(lambda r: r.update(rules=Rules(game="kasino").to_dict())),
                            "line 4: a 'krypteach-giv/1' record is Krypkasino; classic Kasino needs 'krypteach-giv/2'"),
    "bad rules": (changed(lambda r: r["rules"].update(ace="2")),
                  "line 4: bad rules: ace='2' is not allowed: choose '1or14' (default), '1' or '14hand' (14 from the "
                  "hand, 1 on the table)"),
    "rules not an object": (changed(lambda r: r.update(rules="x")),
                            "line 4: bad rules: rules must be a mapping of option names to values (a JSON object), "
                            "got str"),
    "players a bool": (changed(lambda r: r.update(players=True)), "line 4: players=True but the rules say 2"),
    "players": (changed(lambda r: r.update(players=3)), "line 4: players=3 but the rules say 2"),
    "dealer": (changed(lambda r: r.update(dealer=2)), "line 4: dealer=2 is not a seat: it must be a whole number 0–1"),
    "deals not a list": (changed(lambda r: r.update(deals={})), "line 4: deals and moves must be lists"),
    "moves not a list": (changed(lambda r: r.update(moves=None)), "line 4: deals and moves must be lists"),
    "deal shape": (changed(lambda r: r["deals"].__setitem__(0, [])),
                   'line 4, deal 0: expected {"hands": [...], "table": [...], "aside": [...]}'),
    "hand card": (changed(lambda r: r["deals"][0]["hands"][1].__setitem__(0, "ZZ")),
                  f"line 4, deal 0, seat 1: 'ZZ' {NOT_A_CARD}"),
    "table not a list": (changed(lambda r: r["deals"][0].update(table="9H")),
                         """line 4, deal 0, table: expected a list of card codes such as ["9H", "2C"], got '9H'"""),
    "aside card": (changed(lambda r: r["deals"][0].update(aside=["9X"])), f"line 4, deal 0, aside: '9X' {NOT_A_CARD}"),
    "move shape": (changed(lambda r: r["moves"].__setitem__(2, {"player": 1})),
                   'line 4, move 3: expected {"player": seat, "card": code, "capture": [codes] or null}'),
    "move not an object": (changed(lambda r: r["moves"].__setitem__(2, "9H")),
                           'line 4, move 3: expected {"player": seat, "card": code, "capture": [codes] or null}'),
    "move player": (changed(lambda r: r["moves"][2].update(player=7)),
                    "line 4, move 3: player=7 is not a seat: it must be a whole number 0–1"),
    "capture card": (changed(lambda r: r["moves"][2].update(capture=["QQ"])),
                     f"line 4, move 3, capture: 'QQ' {NOT_A_CARD}"),
    "build in version 1": (changed(lambda r: r["moves"][2].update(build=9)),
                           "line 4, move 3: build=9 must be a whole number 2–14, in a 'krypteach-giv/2' record"),
    "result of an unfinished giv": (changed(lambda r: r.update(moves=r["moves"][:3])),
                                    "line 4: the record has a result but its moves do not finish the giv"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_record_says_where_and_what(case):
    rec, words = BROKEN[case]
    with pytest.raises(RecordError) as e:
        giv_from_record(rec, where="line 4")
    assert str(e.value) == words


def test_a_stored_result_that_differs_shows_both():
    rec = changed(lambda r: r["result"].update(scores=[0, 0]))
    with pytest.raises(RecordError) as e:
        giv_from_record(rec, where="line 4")
    replay = played().result.to_dict()
    assert str(e.value).startswith("line 4: the stored result {'card_points': ")
    assert str(e.value).endswith(f" does not match the replay {replay}")


def kasino_record():
    g = Giv(Rules(game="kasino"), seed=4)
    for _ in range(3):
        g.play(g.legal_moves()[0])
    return giv_to_record(g)


@pytest.mark.parametrize(("change", "words"), [
    (lambda r: r["deals"][0].update(table="9H"),
     """line 2, deal 0, table: expected a list of card codes and builds such as ["9H", "[9:4S+5H@0]"], got '9H'"""),
    (lambda r: r["deals"][0].update(table=[9]),
     """line 2, deal 0, table: expected a list of card codes and builds such as ["9H", "[9:4S+5H@0]"], got [9]"""),
    (lambda r: r["deals"][0].update(table=["[9:XX@0]"]),
     f"line 2, deal 0, table: '[9:XX@0]' is not a build ('XX' {NOT_A_CARD}): write e.g. [9:4S+5H@0]"),
    (lambda r: r["moves"][0].update(build="9"),
     "line 2, move 1: build='9' must be a whole number 2–14, in a 'krypteach-giv/2' record"),
    (lambda r: r["moves"][0].update(build=True),
     "line 2, move 1: build=True must be a whole number 2–14, in a 'krypteach-giv/2' record"),
], ids=["table not a list", "table of numbers", "bad build", "build a string", "build a bool"])
def test_a_broken_kasino_record_says_where_and_what(change, words):
    rec = kasino_record()
    assert rec["format"] == "krypteach-giv/2"
    change(rec)
    with pytest.raises(RecordError) as e:
        giv_from_record(rec, where="line 2")
    assert str(e.value) == words


def test_a_kasino_table_is_read_with_its_builds():
    rec = kasino_record()
    assert giv_from_record(json.loads(json.dumps(rec))).state_key() == giv_from_record(rec).state_key()
    rec["deals"][0].pop("table"), rec["deals"][0].pop("aside")  # an absent table or aside is empty, not an error
    with pytest.raises(RecordError, match="bad deals"):
        giv_from_record(rec, where="line 2")


HANDS = [parse_cards("9S 2C 5D 7H"), parse_cards("3S 4H 6D 8C")]


def test_a_position_with_whole_hands_and_a_whole_table_is_still_a_position():
    # one deal of four cards each and four on the table looks like the first utdelning of a dealt giv,
    # but the giv has one deal only: its record keeps "position"
    g = Giv.from_position(HANDS, parse_cards("KS KH KD KC"), turn=1, previous_mover=0)
    rec = giv_to_record(g)
    assert rec["position"] == {"turn": 1, "previous_mover": 0}
    assert giv_from_record(rec).state_key() == g.state_key()


@pytest.mark.parametrize(("position", "words"), [
    ({"turn": 5}, "line 3: position turn=5 is not a seat: it must be a whole number 0–1"),
    ({"turn": 0, "previous_mover": "x"}, "line 3: position previous_mover='x' is not a seat: it must be a whole "
                                         "number 0–1"),
    ([0], 'line 3: a position is {"turn": seat, "previous_mover": seat or null} beside exactly one deal'),
], ids=["turn", "previous mover", "not an object"])
def test_a_bad_position_says_where_and_what(position, words):
    rec = giv_to_record(Giv.from_position(HANDS, parse_cards("KS")))
    rec["position"] = position
    with pytest.raises(RecordError) as e:
        giv_from_record(rec, where="line 3")
    # said once, word for word (it was "line 3: bad deals: line 3: position turn=5 …" before)
    assert str(e.value) == words


def test_a_position_the_engine_refuses_is_a_bad_deal():
    # a good "position" beside a deal Giv.from_position refuses (9♠ twice over with one deck):
    # the engine's words, inside "bad deals" once
    g = Giv.from_position(HANDS, parse_cards("KS"), rules=Rules(game="kasino"))
    rec = giv_to_record(g)
    rec["deals"][0]["table"] = ["9S"]
    with pytest.raises(RecordError) as e:
        giv_from_record(rec, where="line 3")
    assert str(e.value) == "line 3: bad deals: a deck has each card once; too many of 9S"


@pytest.mark.parametrize(("text", "words"), [
    ('{"a": 1,\n "b": }', "f.jsonl: not valid JSON (Expecting value at line 2, column 7)"),
    ('{"a": }', "f.jsonl: not valid JSON (Expecting value at column 7)"),
    (b'[1, "\xff"]', "f.jsonl: not UTF-8 text (byte 0xff at position 6); save the file as UTF-8"),
], ids=["line 2", "line 1", "not utf-8"])
def test_json_that_cannot_be_read_says_where(text, words):
    with pytest.raises(RecordError) as e:
        parse_json(text, "f.jsonl", RecordError)
    assert str(e.value) == words


def test_a_byte_order_mark_is_skipped():
    assert parse_json(b"\xef\xbb\xbf[1]", "f.jsonl") == [1]
    assert parse_json(b"\xef\xbb\xbf\n[1]", "f") == [1]  # exactly the mark

def test_the_digit_limit_in_the_message_is_pythons():
    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(5000)
        with pytest.raises(RecordError) as e:
            parse_json("[" + "1" * 6000 + "]", "f.jsonl", RecordError)
    finally:
        sys.set_int_max_str_digits(old)
    assert str(e.value) == "f.jsonl: a number has too many digits (at most 5000 are allowed)"


def test_a_stream_that_is_not_utf8_names_the_line_after_the_last_good_one():
    good = dump_givar([played()])

    def lines():
        yield good
        yield good
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    with pytest.raises(RecordError) as e:
        list(read_records(lines()))
    assert str(e.value) == "line 3 or a little later: not UTF-8 text (invalid start byte); save the file as UTF-8"


def test_players_must_be_a_whole_number():
    with pytest.raises(RecordError) as e:
        giv_from_record(changed(lambda r: r.update(players=2.0)), where="line 4")
    assert str(e.value) == "line 4: players=2.0 but the rules say 2"


def test_a_krypkasino_deal_without_table_or_aside_has_none():
    g = Giv.from_position(HANDS, ())
    rec = giv_to_record(g)
    del rec["deals"][0]["table"], rec["deals"][0]["aside"]
    assert giv_from_record(rec).state_key() == g.state_key()


def test_another_error_of_the_json_parser_is_not_valid_json_in_its_words(monkeypatch):
    # json.loads raises JSONDecodeError, RecursionError or the digit limit's ValueError on real text; any
    # other ValueError it might raise is still one error that says where, with the parser's words
    def loads(text):
        raise ValueError("a parser's own complaint")

    monkeypatch.setattr(json, "loads", loads)
    with pytest.raises(RecordError) as e:
        parse_json("[1]", "f.jsonl", RecordError)
    assert str(e.value) == "f.jsonl: not valid JSON (a parser's own complaint)"
    assert e.value.__cause__ is None and e.value.__suppress_context__


ONE_DEAL = Rules(players=4, hand_size=26, table_first=0)  # the whole double deck in one utdelning


def test_a_position_under_rules_of_one_utdelning_is_still_a_position():
    # one deal, as the deal plan of these rules has, but not its 26 cards a hand: a hand-made position,
    # and its record says so (an empty table alone does not make it dealt)
    assert deal_plan(ONE_DEAL) == [(26, 0)]
    g = Giv.from_position([parse_cards(c) for c in ("9S", "2C", "5D", "7H")], (), rules=ONE_DEAL, turn=1)
    rec = giv_to_record(g)
    assert rec["position"] == {"turn": 1, "previous_mover": None}
    assert giv_from_record(rec).state_key() == g.state_key()
    # a dealt giv of these rules has no "position"
    assert "position" not in giv_to_record(Giv(ONE_DEAL, seed=1))
