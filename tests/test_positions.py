"""Hand-made positions (Giv.from_position): checked on the way in, and their records read back."""

import json

import pytest

from krypteach import Giv, Rules, giv_from_record, giv_to_record
from krypteach.engine.game import PositionError
from krypteach.engine.records import RecordError

HANDS = [["10S", "4C"], ["4H", "5D"]]
TABLE = ["AH", "7C", "3D", "9S"]


@pytest.mark.parametrize("prev", [0, 5, -1, True, "1", 1.0])
def test_a_previous_mover_that_cannot_have_moved_just_before_is_refused(prev):
    # seat 0 to play: only seat 1 (or nobody) can have moved just before; 0 would give
    # the taker his own dukning, 5 is no seat, True and "1" are not seats at all
    with pytest.raises(PositionError, match=r"previous_mover=.* cannot have moved just before seat 0"):
        Giv.from_position(HANDS, TABLE, previous_mover=prev)


def test_three_players_the_previous_mover_is_the_seat_to_the_right():
    hands = [["10S"], ["4H"], ["5D"]]
    g = Giv.from_position([["10S"], ["10H"], ["5D"]], TABLE, turn=1, previous_mover=0)
    t = g.play("10H:AH+3D+7C+9S")  # seat 1 takes the whole table: seat 0 set it up
    assert (t.player, t.tabbe, t.dukning) == (1, 1, 0)
    with pytest.raises(PositionError, match="so it is seat 0"):
        Giv.from_position(hands, TABLE, turn=1, previous_mover=2)


@pytest.mark.parametrize("kw, match", [
    ({"turn": 2}, r"turn=2 is not a seat: seats are 0\.\.1"),
    ({"turn": True}, r"turn=True is not a seat"),
    ({"dealer": 7}, r"dealer=7 is not a seat"),
])
def test_seats_must_be_seats(kw, match):
    with pytest.raises(PositionError, match=match):
        Giv.from_position(HANDS, TABLE, **kw)


def roundtrip(g: Giv) -> Giv:
    return giv_from_record(json.loads(json.dumps(giv_to_record(g))))


@pytest.mark.parametrize("prev", [None, 1])
def test_a_position_record_reads_back_with_its_dukning(prev):
    g = Giv.from_position(HANDS, TABLE, previous_mover=prev)
    t = g.play("10S:AH+3D+7C+9S")
    assert t.dukning == prev
    again = roundtrip(g)
    assert again.state_key() == g.state_key()
    assert again.dukningar == ([0, 1] if prev == 1 else [0, 0])
    while not g.is_over:
        g.play(g.legal_moves()[0])
    again = roundtrip(g)
    assert again.state_key() == g.state_key() and again.result == g.result


def test_a_position_record_keeps_klädda_högen_dealer_and_rules():
    g = Giv.from_position([["QH", "2C"], ["5S", "5H"]], ["QH"], kladda=["KD"], turn=1, dealer=1,
                          rules=Rules(dubbeltabbe=False, players=2))
    g.play("5S")
    again = roundtrip(g)
    assert (again.kladda, again.dealer, again.rules) == (g.kladda, 1, g.rules)
    assert again.state_key() == g.state_key()


def test_a_dealt_giv_has_no_position_field():
    assert "position" not in giv_to_record(Giv(seed=3))


@pytest.mark.parametrize("position, match", [
    ({"turn": 5, "previous_mover": None}, "position turn"),
    ({"turn": 0, "previous_mover": 0}, "cannot have moved just before"),
    ("0", "a position is"),
])
def test_a_bad_position_in_a_record_is_a_record_error(position, match):
    rec = giv_to_record(Giv.from_position(HANDS, TABLE, previous_mover=1))
    rec["position"] = position
    with pytest.raises(RecordError, match=match):
        giv_from_record(rec)
