"""The rule options' checks, normalising and words, pinned with concrete values. Every test here kills mutants of
``krypteach/engine/rules.py`` that the other tests let live (docs/mutation/engine.md, "The rule options")."""

from __future__ import annotations

import dataclasses

import pytest

from krypteach import Rules
from krypteach.engine.rules import _WORDS, RulesError, deal_plan, preset_description


def refused(**options):
    with pytest.raises(RulesError) as e:
        Rules(**options)
    return str(e.value)


# --- each option's range: both ends allowed, one beyond refused, and the message word for word ---------

RANGES = [  # (option, lowest, highest, other options that make the ends possible)
    ("players", 2, 6, {}),
    ("hand_size", 1, 26, {"table_first": 0}),
    ("table_first", 0, 52, {"hand_size": 1}),
    ("table_next", 0, 52, {}),
    ("last_capture_point", 0, 10, {}),
    ("tabbe_points", -100, 100, {}),
    ("dukning_points", -100, 100, {}),
]


@pytest.mark.parametrize(("name", "low", "high", "other"), RANGES, ids=[r[0] for r in RANGES])
def test_a_whole_number_option_takes_its_range_and_says_it_when_refused(name, low, high, other):
    assert getattr(Rules(**{name: low, **other}), name) == low
    assert getattr(Rules(**{name: high, **other}), name) == high
    span = f"{low}–{high}".replace("-", "−")
    assert refused(**{name: low - 1, **other}) == f"{name}={low - 1} is not allowed: it must be {span}"
    assert refused(**{name: high + 1, **other}) == f"{name}={high + 1} is not allowed: it must be {span}"
    assert refused(**{name: str(low), **other}) == f"{name}='{low}' is not allowed: it must be a whole number, {span}"
    assert refused(**{name: True, **other}) == f"{name}=True is not allowed: it must be a whole number, {span}"



def test_givar_are_whole_rounds_of_dealers_up_to_six_hundred():
    assert Rules(givar=2).givar == 2 and Rules(givar=600).givar == 600
    # 1 is in the range but no multiple of 2 players
    assert refused(givar=1) == "givar=1 is not allowed: it must be a multiple of players=2 so that everyone deals equally often"
    assert refused(givar=0) == "givar=0 is not allowed: it must be 1–600"
    assert refused(givar=601) == "givar=601 is not allowed: it must be 1–600"
    assert refused(givar="1") == "givar='1' is not allowed: it must be a whole number, 1–600"
    assert refused(givar=True) == "givar=True is not allowed: it must be a whole number, 1–600"

def test_classic_kasino_is_for_two_to_four_and_a_target_up_to_a_thousand():
    assert Rules(game="kasino", players=4).players == 4
    assert refused(game="kasino", players=5) == "players=5 is not allowed: it must be 2–4"
    assert Rules(game="kasino", target=1).target == 1 and Rules(game="kasino", target=1000).target == 1000
    assert refused(game="kasino", target=0) == "target=0 is not allowed: it must be 1–1,000"
    assert refused(game="kasino", target=1001) == "target=1001 is not allowed: it must be 1–1,000"
    assert Rules().target is None and Rules(game="kasino").target == 16  # Krypkasino plays no target


def test_the_cards_dealt_at_the_start_must_fit_the_deck():
    assert Rules(players=6, hand_size=16, table_first=8).table_first == 8  # 96 + 8: all 104 cards
    assert refused(players=6, hand_size=16, table_first=9) == (
        "hand_size=16 with players=6 and table_first=9 needs more than the 104 cards of the double deck")
    assert Rules(game="kasino", players=4, hand_size=12, table_first=4).hand_size == 12  # 48 + 4: all 52
    assert refused(game="kasino", players=4, hand_size=12, table_first=5) == (
        "hand_size=12 with players=4 and table_first=5 needs more than the 52 cards of the deck")
    assert refused(game="kasino", hand_size=24, table_first=5) == (
        "hand_size=24 with players=2 and table_first=5 needs more than the 52 cards of the deck")


# --- each choice, refused in words ------------------------------------------------------------------------

def test_every_refused_choice_names_the_choices():
    assert refused(game="chess") == "game='chess' is not allowed: choose one of krypkasino, kasino"
    assert refused(teams="quads") == "teams='quads' is not allowed: choose one of none, pairs, threes"
    assert refused(ace="2") == ("ace='2' is not allowed: choose '1or14' (default), '1' or '14hand' (14 from the hand, "
                                "1 on the table)")
    assert refused(capture="all") == "capture='all' is not allowed: choose one of maximal, maximum, free"
    assert refused(forced_tabbe="yes") == "forced_tabbe='yes' is not allowed: it must be true or false"
    assert refused(game="kasino", owner_duty="always") == (
        "owner_duty='always' is not allowed: choose one of take-or-raise, no-trail, none")
    assert refused(game="kasino", face_cards="x") == "face_cards='x' is not allowed: choose one of values, own-rank"
    assert refused(target_count="x") == "target_count='x' is not allowed: choose one of end-of-giv, in-order"


def test_one_games_options_are_refused_in_the_other():
    assert refused(multiple_builds=True) == ("multiple_builds=True is an option of classic Kasino only: use "
                                             "game='kasino' (or the preset 'kasino')")
    assert refused(game="kasino", dubbeltabbe=True) == (
        "dubbeltabbe=True is an option of Krypkasino only: classic Kasino has no dukning, no dubbeltabbe and no marks "
        "turned down")
    assert refused(game="kasino", players=4, teams="threes") == (
        "teams='threes' needs 6 players, and classic Kasino is for 2–4")


def test_teams_need_their_number_of_players_and_seat_the_teams_in_turn():
    assert refused(players=3, teams="pairs") == "teams='pairs' needs players=4 or 6, not players=3"
    assert refused(players=4, teams="threes") == "teams='threes' needs players=6, not players=4"
    assert Rules(players=6, teams="pairs")._team_of == (0, 1, 2, 0, 1, 2)
    assert Rules(players=6, teams="threes")._team_of == (0, 1, 0, 1, 0, 1)
    assert Rules(players=3)._team_of == (0, 1, 2)


def test_friendly_spellings_are_read_as_the_option_they_mean():
    assert Rules(game=" KaSino ").game == "kasino" and Rules(game=" KaSino ").tabbe_points == 1
    assert Rules(players=4, teams=True).teams == "pairs" and Rules(teams=False).teams == "none"
    assert Rules(players=4, teams=" Pair ").teams == "pairs" and Rules(teams=None).teams == "none"
    assert Rules(capture=" FREE ").capture == "free" and Rules(ace=" One ").ace == "1"
    assert Rules.preset(" Table_Grows by creeping ").table_next == 0
    assert preset_description("Ace_Low") == preset_description(" ace low ") == "The ace counts 1 only"
    assert preset_description("classic") == preset_description("kasino")
    assert Rules().replace(game="KASINO").tabbe_points == 1  # a new game: its defaults
    assert Rules(players=4, tabbe_points=3).replace(game=" Krypkasino ").tabbe_points == 3  # the same game
    names = ("krypkasino, table-grows-by-creeping, two-player-5-6, last-capture-point, ace-low, ace-14-hand, "
             "maximum-capture, free-capture, four-pairs, six-pairs, six-threes, kasino, avig-kasino, dragkasino, "
             "kasino-21, kasino-pairs, kasino-ace-low, kasino-face-own-rank, kasino-tabbe-2")
    with pytest.raises(RulesError) as e:
        Rules.preset("nope")
    assert str(e.value) == f"unknown preset 'nope': choose one of {names}"
    with pytest.raises(RulesError) as e:
        preset_description("nope")
    assert str(e.value) == f"unknown preset 'nope': choose one of {names}"


# --- rules kept in a file ------------------------------------------------------------------------------

OPTIONS = ("players, teams, hand_size, table_first, table_next, capture, forced_tabbe, ace, dubbeltabbe, cancel_marks, "
           "last_capture_point, tabbe_points, dukning_points, givar, game, multiple_builds, owner_duty, face_cards, "
           "draw, target, lowest_wins, target_count, raise_gathers, lone_ace_builds")


def test_rules_read_from_a_file_say_what_is_wrong():
    for data, message in [
        ([1, 2], "rules must be a mapping of option names to values (a JSON object), got list"),
        ({1: 2}, f"rule option names must be text, got 1 (int): the options are {OPTIONS}"),
        ({"play": 2}, f"unknown rule option 'play': the options are {OPTIONS}"),
    ]:
        with pytest.raises(RulesError) as e:
            Rules.from_dict(data)
        assert str(e.value) == message


def test_classic_kasinos_newer_options_are_kept_only_where_they_differ():
    assert "raise_gathers" not in Rules.preset("kasino").to_dict()
    assert Rules.preset("kasino", raise_gathers=False).to_dict()["raise_gathers"] is False
    assert Rules.from_dict(Rules.preset("kasino", raise_gathers=False).to_dict()).raise_gathers is False


# --- the rules in words -----------------------------------------------------------------------------------

def test_every_option_a_rule_set_can_change_has_words():
    changeable = {f.name for f in dataclasses.fields(Rules) if f.init} - {"players", "game"}
    assert changeable <= set(_WORDS)


def test_a_rule_set_is_described_by_its_game_and_what_differs():
    assert Rules.preset("avig-kasino").describe() == "Avig kasino, 2 players (take all you can, tvångstabbe, lowest wins)"
    assert Rules.preset("kasino").describe() == "Kasino, 2 players"
    assert Rules(players=3).describe() == "Krypkasino, 3 players"
    assert Rules.preset("kasino", givar=4).describe() == "Kasino, 2 players (at most 4 givar per parti)"  # to a target
    assert Rules(givar=4).describe() == "Krypkasino, 2 players (4 givar per parti)"


# --- the deals of a giv -----------------------------------------------------------------------------------

def test_the_last_deals_share_what_is_left_and_the_table_takes_the_rest():
    # 26 cards, three players: 12 + 4, then 9 to the hands and the last one to the table
    assert deal_plan(Rules(players=3), total=26) == [(4, 4), (3, 1)]
    assert deal_plan(Rules(players=3), total=27) == [(4, 4), (3, 2)]
    # two players, 25 cards: the last card that cannot go to both goes to the table
    assert deal_plan(Rules(), total=25) == [(4, 4), (4, 5)]
    # exactly a full deal left: dealt as one
    assert deal_plan(Rules(), total=24) == [(4, 4), (4, 4)]
    assert deal_plan(Rules(players=5), total=23) == [(4, 3)]
    # dragkasino: the first deal, then one card a draw, until the stock is out
    assert deal_plan(Rules(game="kasino", draw=True), total=11) == [(4, 3)]
    assert deal_plan(Rules(game="kasino", draw=True), total=3) == [(1, 1)]
    assert deal_plan(Rules(game="kasino", draw=True), total=15) == [(4, 4)] + [(1, 0)] * 3
    # fewer cards than players: no deal can give every player a card
    with pytest.raises(RulesError, match=r"^deal with no cards to the hands$"):
        deal_plan(Rules(), total=1)
