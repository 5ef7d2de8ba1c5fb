"""The rules of a turn, tabbar, dukningar, marks, deals and scoring — with concrete cards."""

import pytest

from krypteach import (
    GameOverError,
    Giv,
    IllegalMoveError,
    Move,
    Parti,
    Rules,
    legal_moves,
    parse_cards,
)
from krypteach.engine.cards import double_deck
from krypteach.engine.game import deal_giv
from krypteach.engine.rules import deal_plan


def moves(hand, table, rules=None):
    return [str(m) for m in legal_moves(parse_cards(hand), parse_cards(table), rules)]


def deck_with_first_deal(hands, table, dealer=0):
    """A 104-card deck order whose first utdelning gives these hands and table (2+ players)."""
    hands = [parse_cards(h) for h in hands]
    table = parse_cards(table)
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    first = [hands[seat][r] for r in range(len(hands[0])) for seat in order] + table
    rest = double_deck()
    for c in first:
        rest.remove(c)
    return first + rest


# --- a turn -----------------------------------------------------------------

def test_seed_example_must_take_9_and_2_plus_7():
    assert moves("9C", "9S 2C 5D 7H") == ["9C:2C+7H+9S"]
    g = Giv.from_position([["9C", "4H"], ["3S", "3H"]], ["9S", "2C", "5D", "7H"])
    with pytest.raises(IllegalMoveError, match=r"must take all you can: 2♣\+7♥"):
        g.play("9C:9S")
    with pytest.raises(IllegalMoveError, match="may not creep"):
        g.play("9C")
    t = g.play("9C:9S+2C+7H")
    assert g.table == parse_cards("5D") and t.tabbe == 0
    assert g.piles[0] == parse_cards("9C 2C 7H 9S")


def test_tabbe_pa_tio_forces_the_ten():
    # seed 000: table A, 7, 3; a 9 is laid: "tabbe på tio"; the next player's 10 must take all
    g = Giv.from_position([["9S", "KC"], ["10H", "4H"]], ["AH", "7C", "3D"])
    t = g.play("9S")
    assert t.tabbe_pa == (10,) and g.announce() == "tabbe på tio"
    assert [str(m) for m in g.legal_moves()] == ["10H:AH+3D+7C+9S"]
    with pytest.raises(IllegalMoveError, match=r"Tvångstabbe.*10♥ can take the whole table"):
        g.play("4H")
    t = g.play("10H:AH+3D+7C+9S")
    assert (t.tabbe, t.dukning) == (1, 0)
    assert g.marks == [0, 1] and g.dukningar == [1, 0]


def test_tvangstabbe_with_two_cards_lets_the_player_choose():
    # table 6+4 and 5+5: a 10 takes all; 3+7... no: both 10s are tabbe cards
    assert moves("10S 10H 2C", "6D 4C 5S 5H") == ["10S:4C+5S+5H+6D", "10H:4C+5S+5H+6D"]


def test_card_with_no_traff_creeps_and_empty_table_every_card_creeps():
    assert moves("4H KS", "9S 2C 5D") == ["4H", "KS"]
    assert moves("4H 10D", "") == ["4H", "10D"]


def test_card_with_traff_may_not_creep_but_others_may():
    assert moves("9C 4H", "9S 2C 5D 7H") == ["9C:2C+7H+9S", "4H"]


def test_identical_cards_in_hand_give_one_move():
    assert moves("4H 4H", "9S") == ["4H"]


def test_not_in_hand_and_not_on_table_errors():
    g = Giv.from_position([["9C"], ["3S"]], ["9S", "2C"])
    with pytest.raises(IllegalMoveError, match="not in your hand"):
        g.play("8C")
    with pytest.raises(IllegalMoveError, match="not on the table"):
        g.play("9C:9H")
    assert isinstance(IllegalMoveError("x"), ValueError)


# --- tabbe, dukning, dubbeltabbe, marks ----------------------------------------

def test_tabbe_on_first_move_of_a_giv_gives_no_dukning():
    deck = deck_with_first_deal([["2H", "3H", "4H", "5H"], ["10S", "6C", "6D", "8C"]], ["AH", "7C", "3D", "9S"])
    g = Giv(deck=deck)
    assert g.turn == 1 and g.table == parse_cards("AH 7C 3D 9S")
    t = g.play("10S:AH+3D+7C+9S")
    assert t.tabbe == 1 and t.dukning is None
    assert g.marks == [0, 1] and g.dukningar == [0, 0]


def test_dubbeltabbe_counts_two_and_variant_off_counts_one():
    g = Giv.from_position([["QH", "2C"], ["5S", "5H"]], ["QH"], previous_mover=1)
    t = g.play("QH:QH")
    assert t.tabbe == 2 and g.marks == [2, 0] and g.dukningar == [0, 2]
    g = Giv.from_position([["QH", "2C"], ["5S", "5H"]], ["QH"], previous_mover=1, rules=Rules(dubbeltabbe=False))
    assert g.play("QH:QH").tabbe == 1 and g.dukningar == [0, 1]
    # the same rank in another suit is a plain tabbe
    g = Giv.from_position([["QD", "2C"], ["5S", "5H"]], ["QH"], previous_mover=1)
    assert g.play("QD:QH").tabbe == 1


def _two_tabbar(rules=None):
    g = Giv.from_position([["5H", "2D"], ["6C", "8H"]], ["5S"], rules=rules)
    assert g.play("5H:5S").tabbe == 1        # seat 0: tabbe on the first move, no dukning
    g.play("6C")                             # seat 1 creeps on the empty table
    assert g.marks == [1, 0]
    g.play("2D")                             # seat 0 creeps: 6 + 2 = 8 ("tabbe på åtta")
    assert g.announce() == "tabbe på åtta"
    t = g.play("8H:2D+6C")                   # seat 1 must take all: tabbe, seat 0 gets the dukning
    return g, t


def test_marks_cancel_with_two_players():
    g, t = _two_tabbar()
    assert t.tabbe == 1 and t.dukning == 0 and t.cancelled == 1
    assert g.marks == [0, 0] and g.tabbar == [1, 1] and g.dukningar == [1, 0]
    assert g.result.scores == (1 - 5, 0)     # 5♠ is a spade; dukningar are never turned down


def test_marks_do_not_cancel_when_turned_off():
    g, t = _two_tabbar(Rules(cancel_marks=False))
    assert t.cancelled == 0 and g.marks == [1, 1]
    assert g.result.scores == (1 + 5 - 5, 5)


def test_marks_cancel_when_everyone_has_one_three_players():
    g = Giv.from_position([["5H", "8S"], ["6C", "8H"], ["6D", "2H"]], ["5S"])
    assert g.play("5H:5S").tabbe == 1                 # seat 0, first move: no dukning
    g.play("6C")                                       # seat 1 creeps on the empty table
    assert [str(m) for m in g.legal_moves()] == ["6D:6C"]   # tvångstabbe
    t = g.play("6D:6C")                                # seat 2 tabbe, seat 1 dukning
    assert (t.dukning, g.marks) == (1, [1, 0, 1])
    g.play("8S")                                       # seat 0 creeps
    t = g.play("8H:8S")                                # seat 1 tabbe; everyone has a mark: turn one down each
    assert t.cancelled == 1 and g.marks == [0, 0, 0] and g.dukningar == [1, 1, 0] and g.tabbar == [1, 1, 1]
    g.play("2H")
    r = g.result
    assert r.last_capturer == 1 and g.piles[1] == parse_cards("8H 8S 2H")
    assert r.card_points == (1, 1, 0)
    assert r.scores == (1 - 5, 1 - 5, 0)               # negative scores are normal


def test_team_marks_cancel_per_team():
    # 4 players in pairs (0+2, 1+3): seat 0 and seat 1 (opponents) each make a tabbe -> both teams have one: cancel
    g = Giv.from_position([["5H", "2C"], ["3C", "2D"], ["4C", "2H"], ["4D", "2S"]], ["5S"], rules=Rules(players=4, teams="pairs"))
    g.play("5H:5S")      # seat 0 tabbe
    g.play("3C")         # seat 1 creeps
    g.play("4C")         # seat 2 creeps (4 on 3: no träff)
    t = g.play("4D:4C")  # seat 3 must take the 4 (same rank); 3 stays: no tabbe
    assert t.tabbe == 0
    g2 = Giv.from_position([["5H", "2C"], ["3C", "2D"], ["4C", "9H"], ["7D", "2S"]], ["5S"], rules=Rules(players=4, teams="pairs"))
    g2.play("5H:5S")     # seat 0 (team 0) tabbe
    g2.play("3C")        # seat 1 creeps
    g2.play("4C")        # seat 2 creeps: table 3, 4
    t = g2.play("7D:3C+4C")  # seat 3 (team 1): tvångstabbe 3+4; dukning for seat 2
    assert t.tabbe == 1 and t.dukning == 2 and t.cancelled == 1
    assert g2.marks == [0, 0, 0, 0] and g2.dukningar == [0, 0, 1, 0]


def test_team_scores_add_up():
    rules = Rules(players=4, teams="pairs")
    g = Giv(rules, seed=11)
    while not g.is_over:
        g.play(g.legal_moves()[0])
    r = g.result
    assert r.team_scores == (r.scores[0] + r.scores[2], r.scores[1] + r.scores[3])
    r6 = _play(Rules(players=6, teams="threes"), 3).result
    assert r6.team_scores == (r6.scores[0] + r6.scores[2] + r6.scores[4], r6.scores[1] + r6.scores[3] + r6.scores[5])
    r6p = _play(Rules(players=6, teams="pairs"), 4).result
    assert r6p.team_scores == tuple(r6p.scores[i] + r6p.scores[i + 3] for i in range(3))


def _play(rules, seed):
    g = Giv(rules, seed=seed)
    while not g.is_over:
        g.play(g.legal_moves()[-1])
    return g


# --- deals and klädda högen ------------------------------------------------------

@pytest.mark.parametrize("players, plan", [
    (2, [(4, 4)] * 8 + [(4, 0)]),
    (3, [(4, 4)] * 6 + [(2, 2)]),
    (4, [(4, 4)] * 5 + [(1, 0)]),
    (5, [(4, 4)] * 4 + [(1, 3)]),
    (6, [(4, 4)] * 3 + [(3, 2)]),
])
def test_deal_plans_use_all_104_cards(players, plan):
    assert deal_plan(Rules(players=players)) == plan
    assert sum(k * players + t for k, t in plan) == 104


def test_deal_variants():
    assert deal_plan(Rules(table_next=0))[:2] == [(4, 4), (4, 0)]
    assert deal_plan(Rules(hand_size=5, table_first=6, table_next=6))[0] == (5, 6)


def test_dealing_one_at_a_time_from_the_dealers_left_and_face_cards_aside():
    deck = double_deck()  # AS AH AD AC 2S ...
    deals = deal_giv(deck, Rules(players=3), dealer=1)
    # seat 2 (dealer's left) gets the 1st, 4th, 7th, 10th card
    assert [str(c) for c in deals[0].hands[2]] == ["AS", "AC", "2D", "3H"]
    # face cards laid on the table in any deal go to klädda högen
    for d in deals:
        assert all(not c.is_face for c in d.table) and all(c.is_face for c in d.aside)
    # deal i lays the deck's cards 16i+12 .. 16i+15 on the table (12 go to the hands first), the last
    # deal cards 102 and 103: in the unshuffled deck these are the face cards below
    assert [" ".join(map(str, d.aside)) for d in deals] == ["", "", "QS QH QD QC", "", "", "JS JH JD JC", "KD KC"]
    assert [" ".join(map(str, d.table)) for d in deals][:2] == ["4S 4H 4D 4C", "8S 8H 8D 8C"]


def test_kladda_hogen_and_table_go_to_the_last_capturer():
    g = Giv.from_position([["9C", "4H"], ["2S", "KH"]], ["9S", "5D"], kladda=["QS", "JD"])
    g.play("9C:9S")
    g.play("2S")
    g.play("4H")
    g.play("KH")
    assert g.is_over and g.last_capturer == 0
    assert sorted(g.piles[0]) == sorted(parse_cards("9C 9S 5D 2S 4H KH QS JD"))
    assert g.result.card_points == (1 + 2 + 1, 0)   # 9♠ 1, lillan 2, Q♠ 1
    assert g.result.aside_cards == tuple(parse_cards("5D 2S 4H KH QS JD")) and not g.table and not g.kladda


def test_if_nobody_captured_the_rest_scores_for_nobody():
    g = Giv.from_position([["4H"], ["2S"]], ["9S"], kladda=["QS"])
    g.play("4H")
    g.play("2S")
    assert g.is_over and g.last_capturer is None
    assert g.result.card_points == (0, 0)


def test_last_capture_point_variant():
    g = Giv.from_position([["9C"], ["2S"]], ["9S"], rules=Rules(last_capture_point=1), previous_mover=1)
    g.play("9C:9S")
    g.play("2S")
    r = g.result
    assert r.card_points == (1 + 2 + 1, 0)  # 9♠, then the sweep: lillan; +1 for the last capture
    assert r.scores == (4 + 5, -5)


def test_tabbe_and_dukning_points_variants():
    g = Giv.from_position([["9C"], ["2H"]], ["9H"], rules=Rules(tabbe_points=3, dukning_points=-2), previous_mover=1)
    g.play("9C:9H")
    g.play("2H")
    assert g.result.scores == (0 + 3, -2)


# --- variants in play -----------------------------------------------------------

def test_forced_tabbe_off():
    # without tvångstabbe the 4 may be played instead — and must take A+3, its träff
    assert moves("10S 4H", "AH 7C 3D 9S", Rules(forced_tabbe=False)) == ["10S:AH+3D+7C+9S", "4H:AH+3D"]
    assert moves("10S 5H", "AH 7C 3D 9S", Rules(forced_tabbe=False)) == ["10S:AH+3D+7C+9S", "5H"]


def test_free_capture_allows_creeping_with_a_traff():
    ms = moves("9C", "9S 2C 5D 7H", Rules(capture="free", forced_tabbe=False))
    assert sorted(ms) == ["9C", "9C:2C+7H", "9C:2C+7H+9S", "9C:9S"]  # any union of träffar, or creep


def test_maximum_capture():
    assert moves("8H", "AS AH 6D 7C", Rules(capture="maximum")) == ["8H:AS+AH+6D"]
    g = Giv.from_position([["8H"], ["2C"]], ["AS", "AH", "6D", "7C"], rules=Rules(capture="maximum"))
    with pytest.raises(IllegalMoveError, match="maximum"):
        g.play("8H:AH+7C")


def test_ace_variants_in_play():
    assert moves("AC", "AH 5D") == ["AC:AH"]
    assert moves("AC", "AH 5D", Rules(ace="14hand")) == ["AC"]
    assert moves("AC", "6H 8D", Rules(ace="1")) == ["AC"]
    assert moves("AC", "6H 8D 5S") == ["AC:6H+8D"]


# --- the giv and parti state machine ------------------------------------------

def test_leader_is_left_of_dealer_and_play_goes_left():
    g = Giv(Rules(players=4), dealer=2, seed=1)
    assert g.turn == 3
    g.play(g.legal_moves()[0])
    assert g.turn == 0


def test_game_over_and_undo_errors():
    g = Giv.from_position([["4H"], ["2S"]], ["9S"])
    with pytest.raises(IllegalMoveError, match="Nothing to take back"):
        g.pop()
    g.play("4H")
    g.play("2S")
    with pytest.raises(GameOverError, match="The giv is over: 4H cannot be played"):
        g.play("4H")
    assert g.legal_moves() == []


def test_undo_restores_the_exact_state_across_a_deal_and_the_sweep():
    g = Giv(seed=4)
    keys = []
    while not g.is_over:
        keys.append(g.state_key())
        g.play(g.legal_moves()[0])
    while g.turns:
        g.pop()
        assert g.state_key() == keys.pop()


def test_explain_counts_a_dubbeltabbe_as_two():
    g = Giv.from_position([["QH", "2C"], ["5S", "5H"]], ["QH"], previous_mover=1)
    e = g.explain("QH:QH")
    assert e.legal and e.tabbe == 2 and e.message.endswith("gets two dukningar (dukade för tabben).")
    g = Giv.from_position([["QH", "2C"], ["5S", "5H"]], ["QH"], previous_mover=1, rules=Rules(dubbeltabbe=False))
    e = g.explain("QH:QH")
    assert e.tabbe == 1 and "a dukning" in e.message


def test_explain_tells_who_gets_the_dukning():
    g = Giv.from_position([["10H"], ["4S"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    e = g.explain("10H:AH+3D+7C+9S")
    assert e.legal and e.tabbe == 1
    assert e.message == ("10♥ takes A♥+9♠ and 3♦+7♣. Tabbe: the table is empty! "
                         "The player who moved just before you gets a dukning (dukade för tabben).")
    assert g.explain("10H:AH+3D+7C+9S", ["You", "Bea"]).message.endswith(
        "Bea moved just before you, so Bea gets a dukning (dukade för tabben).")


def test_parti_rotates_the_dealer_and_adds_up_the_protocol():
    p = Parti(Rules(players=3), seed=5)
    dealers = []
    while True:
        dealers.append(p.giv.dealer)
        while not p.giv.is_over:
            p.play(p.giv.legal_moves()[0])
        if p.is_over:
            break
        p.next_giv()
    assert dealers == [0, 1, 2]
    r = p.result
    assert len(r.protocol) == 3 and r.totals == tuple(sum(row[s] for row in r.protocol) for s in range(3))
    assert min(r.totals) == r.totals[r.winners[0]]
    with pytest.raises(GameOverError):
        p.next_giv()


def test_parti_givar_must_be_multiple_of_players():
    assert Rules(players=3, givar=6).givar_count == 6
    with pytest.raises(ValueError, match="multiple of players"):
        Rules(players=3, givar=4)


def test_seeded_givar_replay_exactly():
    a, b = Giv(seed=99), Giv(seed=99)
    assert a.deals == b.deals
    assert Giv(seed=98).deals != a.deals


def test_move_text_round_trips():
    m = Move.parse("9h:9s+2c+7d")
    assert str(m) == "9H:2C+7D+9S" and Move.parse(str(m)) == m and eval(repr(m)) == m
    assert Move.parse("7♥").kind == "creep"
    with pytest.raises(ValueError, match="not a move"):
        Move.parse("9H:ZZ")
