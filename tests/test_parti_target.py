"""Classic Kasino's parti is played to its target (seed 004: "Spela flera givar tills någon
nått 16 poäng"; RULES.md, "Classic Kasino"), with concrete givar and concrete totals.

A finished giv is made with :meth:`Giv.from_state`: empty hands, the piles and tabbar
given, so its scores are what the test says. :func:`tabbar_giv` gives each side only
tabbar (no cards: nobody has most cards or spades, nobody takes sistan), so a seat's
score is its tabbar; :func:`piles_giv` gives real piles, for the counting in the table's
order (stora kasino, lilla kasino, aces, most spades, most cards, sistan, tabbar).
"""

from __future__ import annotations

import random

import pytest

from krypteach import GameOverError, Giv, Parti, Rules, parse_cards
from krypteach.bots import make_bot
from krypteach.engine.games import game_of
from krypteach.engine.scoring import MAX_PARTI_GIVAR, target_decision
from krypteach.i18n import use_language
from krypteach.views.game_table import next_step_html, parti_winners_text, protocol_html

K = Rules(game="kasino")
NAMES = ["You", "Bea", "Dan", "Eva"]


def tabbar_giv(rules: Rules, scores: list[int], dealer: int = 0) -> Giv:
    """A finished giv whose seats score ``scores`` (tabbar only, one point each)."""
    n = rules.players
    g = Giv.from_state(rules, hands=[[] for _ in range(n)], table=[], turn=(dealer + 1) % n, dealer=dealer,
                       marks=list(scores), tabbar=list(scores))
    assert g.is_over and g.result.scores == tuple(scores)
    return g


def piles_giv(rules: Rules, piles: list[str], last: int | None, tabbar: list[int] | None = None,
              dealer: int = 0) -> Giv:
    """A finished giv with these piles (``last`` took sistan) and tabbar."""
    n = rules.players
    tabbar = tabbar or [0] * n
    return Giv.from_state(rules, hands=[[] for _ in range(n)], table=[], turn=(dealer + 1) % n, dealer=dealer,
                          piles=[parse_cards(p) for p in piles], marks=list(tabbar), tabbar=list(tabbar),
                          last_capturer=last)


def parti(rules: Rules, givar: list[Giv]) -> Parti:
    return Parti.from_givar(rules, givar)


# --------------------------------------------------------------------------- after the giv (the default)
def test_the_parti_goes_on_until_a_side_reaches_16_then_the_highest_wins():
    # giv 1: seat 0 storan 2 + lillan 1 + aces 2 + most spades 2 + most cards 1 + sistan 1 = 9;
    # seat 1 two aces + 5 tabbar = 7
    g1 = piles_giv(K, ["10D 2S AS AH 3S 4S 5S", "AD AC 6H 7H 8H"], last=0, tabbar=[0, 5])
    assert g1.result.scores == (9, 7)
    p = parti(K, [g1])
    assert not p.is_over and p.totals == (9, 7)
    assert p.planned_givar is None  # played to the target: as many givar as it takes
    # giv 2 (seat 1 deals): seat 0 storan 2 + lillan 1 + an ace + most spades 2 + most cards 1 + sistan 1 = 8;
    # seat 1 three aces + 2 tabbar = 5: totals 17–12
    g2 = piles_giv(K, ["10D 2S AS 3S 4S 5S 6H 7H", "AH AD AC 8H"], last=0, tabbar=[0, 2], dealer=1)
    assert g2.result.scores == (8, 5)
    p = parti(K, [g1, g2])
    assert p.is_over and p.totals == (17, 12)
    assert p.result.winners == (0,) and p.end.reached == (0,) and p.end.target == 16 and p.end.givar == 2
    with pytest.raises(GameOverError, match="16"):
        p.next_giv()


def test_a_two_player_parti_does_not_stop_after_two_givar_below_the_target():
    p = parti(K, [tabbar_giv(K, [6, 5]), tabbar_giv(K, [6, 5], dealer=1)])
    assert p.totals == (12, 10) and not p.is_over
    g3 = p.next_giv()  # a third giv, dealt by seat 0 again
    assert g3.dealer == 0 and len(p.givar) == 3


def test_several_over_the_target_in_one_giv_the_highest_total_wins():
    p = parti(K, [tabbar_giv(K, [15, 15]), tabbar_giv(K, [3, 2], dealer=1)])
    assert p.totals == (18, 17) and p.is_over and p.result.winners == (0,) and p.end.reached == (0, 1)
    p = parti(K, [tabbar_giv(K, [15, 15]), tabbar_giv(K, [1, 4], dealer=1)])
    assert p.totals == (16, 19) and p.result.winners == (1,)


def test_a_tie_at_the_top_over_the_target_plays_another_giv():
    p = parti(K, [tabbar_giv(K, [10, 9]), tabbar_giv(K, [6, 7], dealer=1)])
    assert p.totals == (16, 16) and not p.is_over
    p = parti(K, [*p.givar, tabbar_giv(K, [1, 3])])
    assert p.totals == (17, 19) and p.is_over and p.result.winners == (1,) and p.end.givar == 3


def test_kasino_21_is_played_to_21():
    r = Rules.preset("kasino-21")
    p = parti(r, [tabbar_giv(r, [9, 7]), tabbar_giv(r, [8, 5], dealer=1)])
    assert p.totals == (17, 12) and not p.is_over  # over 16 is not over 21
    p = parti(r, [*p.givar, tabbar_giv(r, [4, 2])])
    assert p.totals == (21, 14) and p.is_over and p.result.winners == (0,)


def test_partners_reach_the_target_together():
    r = Rules.preset("kasino-pairs")
    p = parti(r, [tabbar_giv(r, [5, 4, 6, 3])])  # team 0+2: 11, team 1+3: 7
    assert not p.is_over
    p = parti(r, [*p.givar, tabbar_giv(r, [4, 0, 1, 0], dealer=1)])
    assert p.is_over and p.result.team_totals == (16, 7) and p.result.winners == (0,)


def test_avig_kasino_ends_when_a_side_reaches_the_target_and_the_lowest_wins():
    avig = Rules.preset("avig-kasino")
    p = parti(avig, [tabbar_giv(avig, [10, 6])])
    assert not p.is_over
    p = parti(avig, [*p.givar, tabbar_giv(avig, [7, 3], dealer=1)])
    assert p.totals == (17, 9) and p.is_over and p.result.winners == (1,) and p.end.reached == (0,)
    # both over, 16–16: a tie for the lowest, another giv
    p = parti(avig, [tabbar_giv(avig, [8, 8]), tabbar_giv(avig, [8, 8], dealer=1)])
    assert p.totals == (16, 16) and not p.is_over


# --------------------------------------------------------------------------- in the table's order
def test_in_order_the_first_to_reach_it_counting_the_table_wins_though_the_other_ends_higher():
    before = [tabbar_giv(K, [14, 15])]
    # seat 0 has storan (2): 16 at the first line of the table; seat 1 lillan 1 (16, second), four aces,
    # most spades, most cards and sistan: 15 + 1 + 4 + 2 + 1 + 1 = 24
    last = piles_giv(K, ["10D 5H", "2S AS AH AD AC 3S 4S 6H"], last=1, dealer=1)
    assert last.result.scores == (2, 9)
    p = parti(K, before + [last])
    assert p.totals == (16, 24) and p.is_over and p.result.winners == (1,)  # after the giv: the highest
    order = K.replace(target_count="in-order")
    p = parti(order, [tabbar_giv(order, [14, 15]), piles_giv(order, ["10D 5H", "2S AS AH AD AC 3S 4S 6H"],
                                                                        last=1, dealer=1)])
    assert p.totals == (16, 24) and p.is_over and p.result.winners == (0,)
    assert p.end.item == "storan" and p.end.reached == (0,)


def test_in_order_both_reach_it_in_one_line_a_tie_goes_on_to_the_next_line():
    order = K.replace(target_count="in-order")
    # 15–15; the aces line: one ace each (16–16), then most spades (seat 1: 2S and 3S) decides
    g = piles_giv(order, ["AH 5H", "AS 2S 3S"], last=None, dealer=1)
    assert g.result.scores == (1, 1 + 1 + 2 + 1)  # seat 1: lillan, an ace, most spades, most cards
    p = parti(order, [tabbar_giv(order, [15, 15]), g])
    assert p.is_over and p.result.winners == (1,) and p.end.item == "lillan"  # lillan comes before the aces
    g = piles_giv(order, ["AH 5H 6H 7H", "AS 3S 4S"], last=None, dealer=1)
    assert g.result.scores == (1 + 1, 1 + 2)  # seat 0: an ace, most cards; seat 1: an ace, most spades
    p = parti(order, [tabbar_giv(order, [15, 15]), g])
    assert p.is_over and p.result.winners == (1,) and p.end.item == "spades" and p.end.reached == (0, 1)


def test_in_order_lines_add_up_to_the_giv_score():
    game = game_of(K)
    rng = random.Random(3)
    for seed in range(4):
        g = Giv(K, seed=seed)
        bots = [make_bot("random", seed=rng.getrandbits(32), rules=K) for _ in range(2)]
        while not g.is_over:
            g.play(bots[g.turn].choose(g.observation(g.turn)))
        lines = game.counted_points(g)
        assert [name for name, _ in lines] == ["storan", "lillan", "aces", "spades", "cards", "sistan", "tabbar"]
        assert tuple(map(sum, zip(*(pts for _, pts in lines)))) == g.result.team_scores


def test_target_decision_counts_step_by_step():
    assert target_decision([(9, 7), (8, 5)], 16, lowest_wins=False) == (1, (0,), (0,))
    assert target_decision([(9, 7), (7, 9)], 16, lowest_wins=False) is None  # 16–16
    assert target_decision([(15, 15), (3, 2)], 16, lowest_wins=False) == (1, (0,), (0, 1))
    assert target_decision([(10, 6), (7, 3)], 16, lowest_wins=True) == (1, (1,), (0,))


# --------------------------------------------------------------------------- a parti that never ends
def test_a_parti_nobody_wins_stops_at_the_bound_on_givar():
    p = parti(K, [tabbar_giv(K, [0, 0], dealer=i % 2) for i in range(MAX_PARTI_GIVAR - 1)])
    assert not p.is_over
    p = parti(K, [*p.givar, tabbar_giv(K, [0, 0], dealer=(MAX_PARTI_GIVAR - 1) % 2)])
    assert p.is_over and p.end.stopped and p.result.winners == (0, 1)
    with pytest.raises(GameOverError, match=f"{MAX_PARTI_GIVAR} givar"):
        p.next_giv()
    # the rule option givar is the bound when set
    r = K.replace(givar=4)
    p = parti(r, [tabbar_giv(r, [3, 2], dealer=i % 2) for i in range(4)])
    assert p.totals == (12, 8) and p.is_over and p.end.stopped and p.result.winners == (0,)


# --------------------------------------------------------------------------- played with bots
def test_a_bot_parti_ends_in_the_first_giv_after_which_one_side_leads_at_or_over_16():
    rng = random.Random(8)
    for seed in range(3):
        p = Parti(K, seed=seed)
        bots = [make_bot("random", seed=rng.getrandbits(32), rules=K) for _ in range(2)]
        while True:
            while not p.giv.is_over:
                g = p.giv
                p.play(bots[g.turn].choose(g.observation(g.turn)))
            if p.is_over:
                break
            p.next_giv()
        totals = [0, 0]
        for i, row in enumerate(p.protocol):
            totals = [a + b for a, b in zip(totals, row)]
            decided = max(totals) >= 16 and totals.count(max(totals)) == 1
            assert decided == (i == len(p.protocol) - 1)
        assert p.result.winners == (totals.index(max(totals)),)


def test_krypkasino_keeps_its_number_of_givar():
    r = Rules(players=3)
    p = Parti(r, seed=5)
    assert p.planned_givar == 3
    while True:
        while not p.giv.is_over:
            p.play(p.giv.legal_moves()[0])
        if p.is_over:
            break
        p.next_giv()
    assert len(p.protocol) == 3 and p.end.target is None and not p.end.stopped


# --------------------------------------------------------------------------- the game page's protocol
def test_the_protocol_shows_the_target_and_who_reached_it_in_both_languages():
    g1 = tabbar_giv(K, [9, 7])
    p = parti(K, [g1])
    html = protocol_html(p, NAMES[:2])
    assert "kt-to-come" not in html  # no empty rows: the parti lasts as many givar as it takes
    assert "1 giv played; the parti is played to 16 points: the highest total wins once a side reaches it." in html
    p = parti(K, [g1, tabbar_giv(K, [8, 5], dealer=1)])
    assert parti_winners_text(p, NAMES) == "You"
    html = protocol_html(p, NAMES[:2])
    assert "<b>You</b> reached 16 points and won the parti with 17." in html
    assert next_step_html(p, NAMES[:2]) == ("The parti is over: <b>You</b> reached 16 points and won the parti "
                                            "with 17. Press <b>New parti</b> to play another.")
    with use_language("sv"):
        html = protocol_html(p, NAMES[:2])
        assert "<b>You</b> nådde 16 poäng och vann partiet med 17." in html
        assert "partiet spelas till 16 poäng" in protocol_html(parti(K, [g1]), NAMES[:2])


def test_the_protocol_says_who_reached_it_first_in_order_and_when_the_bound_stopped_it():
    order = K.replace(target_count="in-order")
    p = parti(order, [tabbar_giv(order, [14, 15]), piles_giv(order, ["10D 5H", "2S AS AH AD AC 3S 4S 6H"],
                                                                        last=1, dealer=1)])
    html = protocol_html(p, NAMES[:2])
    assert "<b>You</b> reached 16 points first (when stora kasino was counted) and won the parti." in html
    with use_language("sv"):
        assert "<b>You</b> nådde 16 poäng först (när stora kasino räknades) och vann partiet." in protocol_html(
            p, NAMES[:2])
    r = K.replace(givar=2)
    p = parti(r, [tabbar_giv(r, [3, 2]), tabbar_giv(r, [3, 2], dealer=1)])
    assert ("Nobody won in 2 givar, the most this parti lasts: <b>You</b> won it with the highest total."
            in protocol_html(p, NAMES[:2]))


def test_the_protocol_of_avig_kasino_names_who_reached_the_target_and_the_lowest_winner():
    avig = Rules.preset("avig-kasino")
    p = parti(avig, [tabbar_giv(avig, [10, 6]), tabbar_giv(avig, [7, 3], dealer=1)])
    html = protocol_html(p, NAMES[:2])
    assert "You reached 16 points: <b>Bea</b> won the parti with the lowest total, 9." in html


def test_the_game_page_plays_giv_after_giv_until_the_target_is_reached():
    from krypteach.widgets import GameTable

    table = GameTable(Rules(game="kasino"), seed=5)  # random moves: 6–7, 9–15, 10–26
    rng = random.Random(5)
    assert "New parti, played to 16 points." in table.message and "Giv 1:" in table.message
    assert "of 2" not in table.message  # no fixed number of givar
    while True:
        while not table.giv.is_over:
            table._play(rng.choice(table.giv.legal_moves()))  # the page's own move path, a random move
        if table.parti.is_over:
            break
        assert "Press New giv" in table.status_text() and "played; the parti is played to 16 points" in (
            table.protocol.value)
        table.new_giv()
        assert f"Giv {len(table.parti.givar)}:" in table.message
    p = table.parti
    assert p.protocol == [(6, 7), (3, 8), (1, 11)] and p.result.winners == (1,)  # the old page stopped after 2
    assert "<b>Bea</b> reached 16 points and won the parti with 26." in table.protocol.value
    assert "The parti is over:" in table.final.value and "reached 16 points" in table.final.value
    table.new_giv()  # the parti was over: a new one starts
    assert "so a new parti starts" in table.message and len(table.parti.givar) == 1


def test_the_rules_sheet_says_a_tie_plays_another_giv_and_names_the_in_order_reading():
    from krypteach.views.rules_sheet import rules_sheet_html

    plain = rules_sheet_html(K)
    assert "A tie for the best total: play another giv." in plain and "scoring table above" not in plain
    order = rules_sheet_html(K.replace(target_count="in-order"))
    assert ("A giv's points are counted in the order of the scoring table above: the first side to reach 16 wins, "
            "even if another ends the giv higher.") in order
    with use_language("sv"):
        assert "den som först når 16 vinner, även om någon annan slutar given högre" in rules_sheet_html(
            K.replace(target_count="in-order"))
        assert "Blir det lika om bästa summan spelas en giv till." in rules_sheet_html(K)
    assert K.replace(target_count="in-order").describe() == (
        "Kasino, 2 players (the first to reach the target, counting in the order of the scoring table, wins)")


# --------------------------------------------------------------------------- the game's whole answer
def test_kasino_parti_end_says_everything_while_going_on_decided_and_stopped():
    """``KasinoGame.parti_end`` (and Krypkasino's), every field of its answer with concrete givar:
    the mutation run found the limit, the sides at the target and the givar counted unchecked."""
    from krypteach.engine.scoring import PartiEnd

    game = game_of(K)
    assert game.parti_end([]) == PartiEnd(False, (), 16, (), 0, limit=MAX_PARTI_GIVAR)
    going = [tabbar_giv(K, [9, 7]), tabbar_giv(K, [6, 5], dealer=1)]  # 15-12: below 16, goes on
    assert game.parti_end(going) == PartiEnd(False, (), 16, (), 2, limit=MAX_PARTI_GIVAR)
    unfinished = Giv(K, seed=1)  # a giv being played is not counted
    assert game.parti_end([*going, unfinished]) == PartiEnd(False, (), 16, (), 2, limit=MAX_PARTI_GIVAR)
    # exactly 16 reaches it
    assert game.parti_end([tabbar_giv(K, [9, 7]), tabbar_giv(K, [7, 5], dealer=1)]) == PartiEnd(
        True, (0,), 16, (0,), 2, None, limit=MAX_PARTI_GIVAR)
    # a target of its own, and the bound on givar: stopped, the best total wins there
    r = K.replace(target=10, givar=2)
    g = game_of(r)
    assert g.parti_end([tabbar_giv(r, [4, 3])]) == PartiEnd(False, (), 10, (), 1, limit=2)
    stopped = [tabbar_giv(r, [5, 4]), tabbar_giv(r, [5, 6], dealer=1)]  # 10-10 over the target, tied: stopped
    assert g.parti_end(stopped) == PartiEnd(True, (0, 1), 10, (0, 1), 2, stopped=True, limit=2)
    low = [tabbar_giv(r, [4, 3]), tabbar_giv(r, [5, 4], dealer=1)]  # 9-7 after the last giv: 9 is not 10
    assert g.parti_end(low) == PartiEnd(True, (0,), 10, (), 2, stopped=True, limit=2)
    # Krypkasino: a number of givar; over only once the last one is finished
    kr = Rules(players=2, givar=2)
    kg = game_of(kr)
    one = Giv(kr, seed=3)
    one.play_out(lambda x: x.legal_moves()[0])
    assert not kg.parti_end([one]).over and not kg.parti_end([]).over
    two = Giv(kr, seed=4)
    assert not kg.parti_end([one, two]).over  # the second giv is being played
    two.play_out(lambda x: x.legal_moves()[0])
    assert kg.parti_end([one, two]).over and kg.parti_end([one, two]).givar == 2


def test_counted_points_add_partners_and_count_every_spade():
    """``counted_points``: partners' cards count together (not the last partner's alone), and every
    spade counts for the most spades, not the ace of spades alone (the mutation run's survivors)."""
    pairs = Rules(game="kasino", players=4, teams="pairs")
    g = piles_giv(pairs, ["AH 3S", "AD", "AC 4S", "5H"], last=1)  # team 0: seats 0 and 2; team 1: seats 1 and 3
    lines = dict(game_of(pairs).counted_points(g))
    assert lines["aces"] == (2, 1) and lines["spades"] == (2, 0) and lines["cards"] == (1, 0)
    g = piles_giv(K, ["3S 4S 5S", "AS 6H 7H 8H"], last=0)
    lines = dict(game_of(K).counted_points(g))
    assert lines["spades"] == (2, 0) and lines["aces"] == (0, 1) and lines["cards"] == (0, 1)
