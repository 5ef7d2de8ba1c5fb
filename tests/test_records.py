import io
import json

import pytest

from krypteach import (
    Giv,
    RecordError,
    Rules,
    giv_from_record,
    giv_to_record,
    read_records,
    write_records,
)
from krypteach.engine.records import FORMAT, dump_givar, load_givar


def played(seed=3, rules=None):
    g = Giv(rules, seed=seed)
    while not g.is_over:
        g.play(g.legal_moves()[-1])
    return g


def test_record_shape():
    g = played()
    rec = giv_to_record(g)
    assert rec["format"] == FORMAT == "krypteach-giv/1"
    assert rec["rules"] == Rules().to_dict() and rec["players"] == 2 and rec["dealer"] == 0
    assert set(rec["deals"][0]) == {"hands", "table", "aside"}
    assert rec["moves"][0]["player"] == 1 and set(rec["moves"][0]) == {"player", "card", "capture"}
    assert set(rec["result"]) == {"card_points", "marks", "dukningar", "scores", "last_capturer"}
    json.dumps(rec)


def test_round_trip_through_jsonl():
    givar = [played(s, Rules(players=p)) for s, p in [(1, 2), (2, 3), (3, 6)]]
    buf = io.StringIO()
    assert write_records(givar, buf) == 3
    lines = buf.getvalue().splitlines()
    assert len(lines) == 3
    again = list(read_records(io.StringIO(buf.getvalue())))
    assert [g.result for g in again] == [g.result for g in givar]
    assert [g.state_key() for g in again] == [g.state_key() for g in givar]


def test_unfinished_giv_round_trips_without_result():
    g = Giv(seed=8)
    for _ in range(5):
        g.play(g.legal_moves()[0])
    rec = giv_to_record(g)
    assert "result" not in rec
    assert giv_from_record(rec).state_key() == g.state_key()


def test_illegal_move_names_the_line_and_move():
    g = played()
    rec = giv_to_record(g)
    rec["moves"][4]["capture"] = None if rec["moves"][4]["capture"] else ["9H"]
    text = dump_givar([g]) + json.dumps(rec) + "\n"
    with pytest.raises(RecordError, match=r"line 2, move 5"):
        load_givar(text)


def test_corrupt_records():
    with pytest.raises(RecordError, match="line 1: not valid JSON"):
        load_givar("{nope\n")
    rec = giv_to_record(played())
    bad = dict(rec, format="other/9")
    with pytest.raises(RecordError, match="format"):
        giv_from_record(bad)
    bad = json.loads(json.dumps(rec))
    bad["deals"][0]["hands"][0][0] = "XX"
    with pytest.raises(RecordError, match=r"deal 0, seat 0.*'XX' is not a card"):
        giv_from_record(bad)
    bad = json.loads(json.dumps(rec))
    bad["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="does not match the replay"):
        giv_from_record(bad)
    bad = json.loads(json.dumps(rec))
    bad["moves"][0]["player"] = 0
    with pytest.raises(RecordError, match="move 1: it is seat 1's turn"):
        giv_from_record(bad)
    bad = json.loads(json.dumps(rec))
    bad["rules"]["players"] = 9
    with pytest.raises(RecordError, match="bad rules"):
        giv_from_record(bad)


def test_write_and_read_files(tmp_path):
    path = tmp_path / "g.jsonl"
    write_records([played(5)], path)
    assert [g.result for g in read_records(path)] == [played(5).result]
