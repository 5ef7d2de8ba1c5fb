"""One interface for every game (krypteach.engine.games): what each game answers, with concrete cards."""

from __future__ import annotations

import random

import pytest

from krypteach import Card, Giv, Move, Rules, RulesError, parse_cards
from krypteach.engine.builds import Build
from krypteach.engine.games import GAMES, game_of
from krypteach.engine.games.kasino import KasinoGame
from krypteach.engine.games.krypkasino import KrypkasinoGame
from krypteach.engine.rules import PRESETS

K = Rules(game="kasino")


def test_each_rule_set_has_its_game():
    assert isinstance(game_of(Rules()), KrypkasinoGame)
    assert isinstance(game_of(K), KasinoGame)
    assert isinstance(game_of(Rules.preset("avig-kasino")), KasinoGame)
    assert set(GAMES) == {"krypkasino", "kasino"}
    assert game_of(Rules()) is game_of(Rules())  # one per rule set
    assert (game_of(Rules()).lower_is_better, game_of(K).lower_is_better,
            game_of(Rules.preset("avig-kasino")).lower_is_better) == (True, False, True)
    assert game_of(K).better(3, 2) and game_of(Rules()).better(2, 3)


def test_a_tabbe_result_names_the_dukning_seat_in_krypkasino_and_nobody_in_kasino():
    r = game_of(Rules()).move_result(parse_cards("AH 7C 3D 9S"), Move.parse("10S:AH+3D+7C+9S"), 0, 1)
    assert (r.taken, r.tabbe, r.dukning, r.table, r.build) == (tuple(parse_cards("10S AH 3D 7C 9S")), 1, 1, [], None)
    d = game_of(Rules()).move_result(parse_cards("QH"), Move.parse("QH:QH"), 0, 1)
    assert (d.tabbe, d.dukning) == (2, 1)  # dubbeltabbe: two marks, two dukningar
    k = game_of(K).move_result(parse_cards("QH"), Move.parse("QD:QH"), 0, 1)
    assert (k.tabbe, k.dukning) == (1, None)


def test_a_creep_and_a_build_take_nothing():
    creep = game_of(Rules()).move_result(parse_cards("9S"), Move.parse("4H"), 0, 1)
    assert (creep.taken, creep.tabbe, creep.table) == ((), 0, parse_cards("9S 4H"))
    build = game_of(K).move_result(parse_cards("4S 7C"), Move.parse("5H>9:4S"), 1, 0)
    assert (build.taken, build.build, build.table) == ((), Build(9, parse_cards("4S 5H"), 1),
                                                       [Card("7C"), Build(9, parse_cards("4S 5H"), 1)])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_push_does_what_move_result_says(preset):
    rules = Rules.preset(preset)
    rng = random.Random(len(preset))
    g = Giv(rules, seed=rng.getrandbits(32))
    while not g.is_over:
        p, table, prev = g.turn, list(g.table), g.last_mover
        pile = len(g.piles[p])
        m = rng.choice(g.legal_moves())
        r = g.game.move_result(table, m, p, prev)
        e = g.explain(m)
        t = g.push(m)
        assert (t.tabbe, t.dukning) == (r.tabbe, r.dukning), (preset, m)
        assert e.legal and e.tabbe == t.tabbe, (preset, m, e.message)
        if not t.dealt and t.sweep is None:
            assert g.table == r.table
        if t.sweep is None:
            assert tuple(g.piles[p][pile:]) == r.taken


def test_returns_is_the_score_so_far_in_the_games_own_sense():
    g = Giv.from_position([["10S", "2H"], ["4H", "5C"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    assert g.returns() == (0, 0)
    g.play("10S:AH+3D+7C+9S")  # 3 points and a tabbe for seat 0, a dukning for seat 1
    assert g.returns() == (3 + 5, -5)
    k = Giv.from_position([["10D", "2C"], ["4H", "5C"]], ["AH", "7C"], rules=K)
    k.play("10D")
    assert k.returns() == (0, 0)
    while not k.is_over:
        k.play(k.legal_moves()[0])
    assert k.returns() == k.result.scores


def test_clone_is_independent_and_plays_the_same():
    g = Giv(seed=4)
    for _ in range(5):
        g.play(g.legal_moves()[0])
    c = g.clone()
    assert c.state_key() == g.state_key()
    c.play(c.legal_moves()[-1])
    assert len(c.turns) == 6 and len(g.turns) == 5
    c.pop()
    assert c.state_key() == g.state_key()
    while not c.is_over:
        c.play(c.legal_moves()[0])
    assert not g.is_over and len(g.turns) == 5


@pytest.mark.parametrize(("option", "value"), [("dukning_points", -5), ("dubbeltabbe", True), ("cancel_marks", True)])
def test_a_kasino_rule_set_refuses_krypkasino_options(option, value):
    with pytest.raises(RulesError, match=f"^{option}=.* is an option of Krypkasino only"):
        Rules(game="kasino", **{option: value})


@pytest.mark.parametrize(("option", "value"), [("draw", True), ("owner_duty", "no-trail"), ("multiple_builds", True)])
def test_a_krypkasino_rule_set_refuses_kasino_options(option, value):
    with pytest.raises(RulesError, match=f"^{option}=.* is an option of classic Kasino only"):
        Rules(**{option: value})


def test_each_game_deals_its_own_deck():
    assert len(Giv(seed=1).deals[0].hands[0]) == 4 and Giv(seed=1).card_count() == 104
    assert Giv(K, seed=1).card_count() == 52
    with pytest.raises(ValueError, match="52 cards"):
        game_of(K).check_deck(parse_cards("AS AS"))
    with pytest.raises(ValueError, match="104 cards"):
        game_of(Rules()).check_deck(parse_cards("AS AS"))
