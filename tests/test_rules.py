import dataclasses

import pytest

from krypteach import PRESETS, Rules, RulesError


def test_defaults_are_rules_md():
    r = Rules()
    assert (r.players, r.teams, r.hand_size, r.table_first, r.table_next) == (2, "none", 4, 4, 4)
    assert (r.capture, r.forced_tabbe, r.ace, r.dubbeltabbe, r.cancel_marks) == ("maximal", True, "1or14", True, True)
    assert (r.last_capture_point, r.tabbe_points, r.dukning_points, r.givar_count) == (0, 5, -5, 2)


def test_frozen_and_hashable():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.players = 3  # type: ignore[misc]
    assert {Rules(): 1}[Rules()] == 1


def test_dict_round_trip():
    for name in PRESETS:
        r = Rules.preset(name)
        assert Rules.from_dict(r.to_dict()) == r
    assert set(Rules().to_dict()) == {"players", "teams", "hand_size", "table_first", "table_next", "capture",
                                      "forced_tabbe", "ace", "dubbeltabbe", "cancel_marks", "last_capture_point",
                                      "tabbe_points", "dukning_points", "givar"}


@pytest.mark.parametrize("kwargs, words", [
    ({"players": 7}, ["players", "2–6"]),
    ({"players": 1}, ["players", "2–6"]),
    ({"hand_size": 0}, ["hand_size"]),
    ({"teams": "pairs", "players": 3}, ["teams", "players=4 or 6"]),
    ({"teams": "threes", "players": 4}, ["teams", "players=6"]),
    ({"teams": "quads"}, ["teams", "none, pairs, threes"]),
    ({"capture": "greedy"}, ["capture", "maximal, maximum, free"]),
    ({"ace": "15"}, ["ace", "1or14"]),
    ({"forced_tabbe": "yes"}, ["forced_tabbe", "true or false"]),
    ({"givar": 3}, ["givar", "multiple of players"]),
    ({"hand_size": 30, "players": 6}, ["hand_size"]),
])
def test_invalid_options_name_the_option_and_allowed_values(kwargs, words):
    with pytest.raises(RulesError) as e:
        Rules(**kwargs)
    assert isinstance(e.value, ValueError)
    for w in words:
        assert w in str(e.value)


def test_unknown_option_and_preset():
    with pytest.raises(RulesError, match="unknown rule option 'colour'"):
        Rules.from_dict({"colour": "red"})
    with pytest.raises(RulesError, match="unknown preset 'nope'"):
        Rules.preset("nope")


def test_presets_and_aliases():
    assert Rules.preset("table-grows-by-creeping").table_next == 0
    assert Rules.preset("two-player-5-6").hand_size == 5
    assert Rules.preset("last-capture-point").last_capture_point == 1
    assert Rules.preset("six-threes").team_of(4) == 0
    assert Rules(teams=True, players=4).teams == "pairs" and Rules(teams=False).teams == "none"
    assert Rules(ace="1 or 14").ace == "1or14" and Rules(ace="14 from the hand").ace == "14hand"


def test_teams():
    assert [Rules(players=4, teams="pairs").team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [Rules(players=6, teams="pairs").team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [Rules(players=6, teams="threes").team_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert Rules(players=6, teams="threes").team_members(1) == (1, 3, 5)
