"""A giv's and a parti's own checks and words, pinned whole (docs/mutation/engine.md, "A giv and a
parti: engine/game.py").

The engine's other tests play givar through ``Giv`` and ``Parti`` and check the rules; these pin what
mutation testing found no test reading: the words of a tabbe's dukning in :meth:`Giv.explain` for each
way a page names the seat that moved before, every refusal of a hand-made position or parti word for
word, what an observation knows of the legal moves, and the parti's words at its end."""

import random

import pytest

from krypteach import Rules
from krypteach.engine.game import GameOverError, Giv, Parti, PositionError
from krypteach.engine.moves import Explanation, IllegalMoveError, Move
from krypteach.engine.scoring import PartiEnd
from krypteach.i18n import use_language

K = Rules(game="kasino")
TABBE = "10♥ takes A♥+9♠ and 3♦+7♣. Tabbe: the table is empty! "
DUBBEL = ("Q♥ takes Q♥. Dubbeltabbe (double tabbe): the lone card taken with its twin counts as two "
          "tabbar! ")


def tabbe(twin: bool = False) -> Giv:
    """Seat 0 to take the whole table, seat 1 moved before: one tabbe, or two (a card and its twin)."""
    if twin:
        return Giv.from_position([["QH"], ["5S"]], ["QH"], previous_mover=1)
    return Giv.from_position([["10H"], ["4S"]], ["AH", "7C", "3D", "9S"], previous_mover=1)


@pytest.mark.parametrize(("twin", "names", "said"), [
    (False, None, "The player who moved just before you gets a dukning (dukade för tabben)."),
    (True, None, "The player who moved just before you gets two dukningar (dukade för tabben)."),
    (False, ["Ann", "Bo"], "Bo moved just before you, so Bo gets a dukning (dukade för tabben)."),
    (True, ["Ann", "Bo"], "Bo moved just before you, so Bo gets two dukningar (dukade för tabben)."),
    # the learner, however the page writes "You"
    (False, ["Ann", "You"], "You moved just before, so you get a dukning (dukade för tabben)."),
    (True, ["Ann", "You"], "You moved just before, so you get two dukningar (dukade för tabben)."),
    (False, ["Ann", "you"], "You moved just before, so you get a dukning (dukade för tabben)."),
    (True, ["Ann", "YOU"], "You moved just before, so you get two dukningar (dukade för tabben)."),
])
def test_a_tabbes_dukning_is_said_for_the_seat_that_moved_before_as_the_page_names_it(twin, names, said):
    g = tabbe(twin)
    e = g.explain(g.legal_moves()[0], names=names)
    assert e.legal and e.tabbe == (2 if twin else 1)
    assert e.message == (DUBBEL if twin else TABBE) + said


def test_in_swedish_the_learner_is_du_and_another_seat_is_named():
    with use_language("sv"):
        for twin, count in ((False, "en dukning"), (True, "två dukningar")):
            g = tabbe(twin)
            move = g.legal_moves()[0]
            start = ("Q♥ tar Q♥. Dubbeltabbe: du tog det ensamma kortet med dess dubblett, och det räknas som två "
                     "tabbar! " if twin else "10♥ tar A♥+9♠ och 3♦+7♣. Tabbe: bordet är tomt! ")
            assert g.explain(move, names=["Ann", "Du"]).message == (
                start + f"Du spelade precis före och dukade för tabben, så du får {count}.")
            assert g.explain(move, names=["Ann", "du"]).message == (
                start + f"Du spelade precis före och dukade för tabben, så du får {count}.")
            # a page may name the learner by the English default name and translate it only as it shows it
            assert g.explain(move, names=["Ann", "You"]).message == (
                start + f"Du spelade precis före och dukade för tabben, så du får {count}.")
            assert g.explain(move, names=["Ann", "Bo"]).message == (
                start + f"Bo spelade precis före dig, så Bo dukade för tabben och får {count}.")


def test_explaining_a_move_needs_a_name_for_every_seat_and_after_the_giv_says_it_is_over():
    g = tabbe()
    with pytest.raises(ValueError, match=r"^2 names needed, one per seat; got \['Ann'\]$"):
        g.explain("10H:AH+3D+7C+9S", names=["Ann"])
    g.play("10H:AH+3D+7C+9S")
    g.play("4S")
    assert g.is_over
    live = tabbe()
    assert live.explain("10H:AH+3D+7C+9S") == live.explain(Move.parse("10H:AH+3D+7C+9S"))
    for move in ("4S", Move.parse("4S")):
        assert g.explain(move) == Explanation(False, "giv-over", "The giv is over: no more moves.", Move.parse("4S"))
    with pytest.raises(GameOverError) as over:
        g.play("4S")
    assert str(over.value) == "The giv is over: 4S cannot be played." and over.value.move == Move.parse("4S")


def test_an_illegal_move_names_itself_and_the_rule_and_nothing_taken_back_is_said_whole():
    g = Giv.from_position([["10H", "5C"], ["4S", "6D"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    with pytest.raises(IllegalMoveError) as refused:
        g.play("5C")
    assert str(refused.value).startswith("5C cannot be played: Tvångstabbe (forced tabbe): your 10♥ can take")
    assert refused.value.move == Move.parse("5C") and refused.value.explanation.rule == "tvangstabbe"
    with pytest.raises(IllegalMoveError, match=r"^Nothing to take back: no move has been played in this giv\.$"):
        Giv(seed=1).pop()


def test_a_giv_dealt_by_no_seat_or_from_too_few_deals_is_refused_word_for_word():
    for dealer in (2, -1):
        with pytest.raises(ValueError, match=rf"^dealer={dealer} is not a seat: seats are 0\.\.1$"):
            Giv(Rules(players=2), dealer=dealer)
    with pytest.raises(ValueError, match=r"^dealer=3 is not a seat: seats are 0\.\.2$"):
        Giv(Rules(players=3), dealer=3)
    deals = Giv(seed=4).deals
    with pytest.raises(ValueError, match=r"^8 deals given, but the rules deal 9 utdelningar$"):
        Giv(deals=deals[:-1])
    assert Giv(deals=deals).deals == deals


def test_a_giv_shuffles_with_the_random_generator_it_is_given():
    assert Giv(rng=random.Random(3)).deals == Giv(seed=3).deals == Giv(rng=random.Random(3)).deals
    assert Giv(rng=random.Random(3)).deals != Giv(rng=random.Random(4)).deals


def test_before_any_capture_nobody_has_captured_and_nothing_is_announced():
    g = Giv(seed=5)
    assert g.last_capturer is None and g.observation().last_capturer is None
    assert g.announce() is None
    g.push(g.legal_moves()[0])
    assert g.announce() == g.announce(g.turns[-1])


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hands": [["5C"], ["6D"]], "table": ["[9:4S+5H@2]"], "rules": K},
     "build [9:4S+5H@2] is owned by no seat: seats are 0..1"),
    ({"hands": [["5C"], ["6D"], ["7H"]], "table": ["7C", "[9:4S+5H@3]"], "rules": K.replace(players=3)},
     "build [9:4S+5H@3] is owned by no seat: seats are 0..2"),
    ({"hands": [["5C"], ["6D"]], "turn": 2}, "turn=2 is not a seat: seats are 0..1"),
    ({"hands": [["5C"], ["6D"], ["7H"]], "turn": True}, "turn=True is not a seat: seats are 0..2"),
    ({"hands": [["5C"], ["6D"]], "dealer": 2}, "dealer=2 is not a seat: seats are 0..1"),
    ({"hands": [["5C"], ["6D"], ["7H"]], "dealer": -1}, "dealer=-1 is not a seat: seats are 0..2"),
    ({"hands": [["5C"], ["6D"]], "turn": 1, "previous_mover": 1},
     "previous_mover=1 cannot have moved just before seat 1: play goes left, so it is seat 0 "
     "(or None when no move came before)"),
    ({"hands": [["5C"], ["6D"], ["7H"]], "turn": 0, "previous_mover": 5},
     "previous_mover=5 cannot have moved just before seat 0: play goes left, so it is seat 2 "
     "(or None when no move came before)"),
    # the seat to move has cards; along the order of play each hand is the same or one card less
    ({"hands": [[], ["6D"]]}, "hand sizes must be equal, or one less for the seats that have already played "
                              "this round (seat 0 to play first); got [0, 1]"),
    ({"hands": [["5C"], ["6D", "7D"]]}, "hand sizes must be equal, or one less for the seats that have already "
                                        "played this round (seat 0 to play first); got [1, 2]"),
    ({"hands": [["5C", "6C", "7C"], ["6D"]]}, "hand sizes must be equal, or one less for the seats that have "
                                              "already played this round (seat 0 to play first); got [3, 1]"),
    ({"hands": [["5C", "6C"], ["6D", "7D"], ["8S"]], "turn": 1},
     "hand sizes must be equal, or one less for the seats that have already played this round (seat 1 to play "
     "first); got [2, 2, 1]"),
    ({"hands": [["5C", "6C", "7C"], ["6D", "7D", "8D"], ["8S"]]},
     "hand sizes must be equal, or one less for the seats that have already played this round (seat 0 to play "
     "first); got [3, 3, 1]"),
    # a card more often than the deck has it: in the hands, on the table and set aside, all counted
    ({"hands": [["5C"], ["5C"]], "table": ["5C"]}, "a double deck has each card twice; too many of 5C"),
    ({"hands": [["5C"], ["6D"]], "table": ["5C"], "kladda": ["5C"]}, "a double deck has each card twice; too many of 5C"),
    ({"hands": [["KC"], ["6D"]], "kladda": ["KC", "KC"]}, "a double deck has each card twice; too many of KC"),
    ({"hands": [["5C", "9H"], ["5C", "9H"]], "table": ["5C", "9H"]},
     "a double deck has each card twice; too many of 5C, 9H"),
    ({"hands": [["5C"], ["5C"]], "rules": K}, "a deck has each card once; too many of 5C"),
])
def test_a_hand_made_position_that_cannot_happen_is_refused_word_for_word(kwargs, message):
    kwargs = dict(kwargs)
    hands = kwargs.pop("hands")
    with pytest.raises(PositionError) as refused:
        Giv.from_position(hands, **kwargs)
    assert str(refused.value) == message


def test_a_hand_made_position_plays_in_the_order_of_the_seats():
    # the seat after the one to move has played its last card of the deal: no cards, and a position all the same
    g = Giv.from_position([["5C"], []], ["2H"])
    assert [str(m) for m in g.legal_moves()] == ["5C"] and not g.is_over
    # seat 1 to move, seat 2 not yet played this round, seat 0 has: seat 0 holds one card less
    g = Giv.from_position([["5C"], ["6D", "7D"], ["8S", "9S"]], ["2H"], turn=1)
    assert g.turn == 1 and g.dealer == 0 and g.previous_mover is None
    assert [len(h) for h in g.hands] == [1, 2, 2]
    g = Giv.from_position([["5C", "6C"], ["6D"], ["8S", "9S"]], ["2H"], turn=2, dealer=1, previous_mover=1)
    assert (g.turn, g.dealer, g.last_mover) == (2, 1, 1)


def test_a_hand_made_position_takes_its_number_of_players_from_its_hands():
    three = [["5C"], ["6D"], ["7H"]]
    assert Giv.from_position(three).rules == Rules(players=3)
    g = Giv.from_position(three, rules=Rules(players=2, givar=4, ace=14))  # the other options are kept
    assert g.rules == Rules(players=3, ace=14) and g.rules.givar is None and g.rules.teams == "none"
    assert len(g.hands) == len(g.piles) == len(g.marks) == 3
    four = [["5C"], ["6D"], ["7H"], ["8S"]]
    assert Giv.from_position(four, rules=Rules(players=2)).rules == Rules(players=4)
    assert Giv.from_position(four, rules=Rules(players=6, teams="pairs")).rules == Rules(players=4, teams="pairs")
    six = [["5C"], ["6D"], ["7H"], ["8S"], ["9S"], ["10S"]]
    assert Giv.from_position(six, rules=Rules(players=4, teams="pairs")).rules == Rules(players=6, teams="pairs")
    assert Giv.from_position(three, rules=Rules(players=4, teams="pairs")).rules.teams == "none"
    same = Rules(players=4, teams="pairs", givar=8)  # already for four: not replaced
    assert Giv.from_position(four, rules=same).rules is same


def test_an_observation_knows_the_movers_legal_moves_and_works_out_another_seats():
    g = Giv.from_position([["9H", "4S"], ["5D", "KC"]], ["9S", "2C", "7H", "4D"])
    mover, other = g.observation(), g.observation(1)
    assert mover.seat == 0 and other.seat == 1
    assert mover.known_moves == tuple(g.legal_moves()) and mover.legal_moves() == g.legal_moves()
    assert other.known_moves is None and g.observation(0).known_moves == tuple(g.legal_moves())
    assert mover.deals_total == other.deals_total == 1
    assert Giv(seed=2).observation().deals_total == 9
    # seat 1's moves, worked out from what it sees: the moves it would have with the turn
    turn_1 = Giv.from_position([["9H", "4S"], ["5D", "KC"]], ["9S", "2C", "7H", "4D"], turn=1)
    assert other.legal_moves() == turn_1.legal_moves() and other.legal_moves()
    # in classic Kasino the seat matters: seat 1 owns the build, so it may not trail (seat 0 could)
    kasino = Giv.from_position([["2C", "6C"], ["9D", "3H"]], ["7C", "[9:4S+5H@1]"], rules=K)
    assert [str(m) for m in kasino.observation(1).legal_moves()] == ["9D:4S+5H"]
    assert kasino.observation(1).legal_moves() == Giv.from_position(
        [["2C", "6C"], ["9D", "3H"]], ["7C", "[9:4S+5H@1]"], rules=K, turn=1).legal_moves()
    while not g.is_over:
        g.play(g.legal_moves()[0])
    assert g.is_over and g.observation().known_moves is None and g.observation(1).known_moves is None


def _finished(rules: Rules, dealer: int, seed: int) -> Giv:
    g = Giv(rules, dealer=dealer, seed=seed)
    while not g.is_over:
        g.push(g.legal_moves()[0])
    return g


def test_a_parti_from_givar_already_played_is_checked_and_goes_on_from_its_seed():
    r = Rules(players=2)
    done = [_finished(r, 0, 1), _finished(r, 1, 2)]
    with pytest.raises(ValueError, match=r"^a parti needs at least one giv$"):
        Parti.from_givar(r, [])
    with pytest.raises(ValueError, match=r"^giv 2 is played under other rules than the parti$"):
        Parti.from_givar(r, [done[0], _finished(r.replace(ace=14), 1, 2)])
    with pytest.raises(ValueError, match=r"^giv 2 is dealt by seat 0, but the dealer moves one seat left each giv: "
                                         r"seat 1$"):
        Parti.from_givar(r, [done[0], _finished(r, 0, 2)])
    with pytest.raises(ValueError, match=r"^giv 1 is dealt by seat 1, but the dealer moves one seat left each giv: "
                                         r"seat 0$"):
        Parti.from_givar(r, done[1:], first_dealer=0)
    three = Rules(players=3)
    with pytest.raises(ValueError, match=r"^giv 3 is dealt by seat 0, but the dealer moves one seat left each giv: "
                                         r"seat 1$"):
        Parti.from_givar(three, [_finished(three, 2, 1), _finished(three, 0, 2), _finished(three, 0, 3)])
    with pytest.raises(ValueError, match=r"^giv 1 is not over, and another giv follows it$"):
        Parti.from_givar(r, [Giv(r, dealer=0, seed=1), done[1]])
    with pytest.raises(ValueError, match=r"^giv 2 is not over, and another giv follows it$"):
        Parti.from_givar(r, [done[0], Giv(r, dealer=1, seed=2), _finished(r, 0, 3)])
    going_on = Parti.from_givar(r, [done[0], Giv(r, dealer=1, seed=2)])  # the last giv may go on
    assert going_on.giv.dealer == 1 and not going_on.giv.is_over and going_on.first_dealer == 0
    assert Parti.from_givar(r, done[1:], first_dealer=1).first_dealer == 1
    # the next giv comes from the seed: the same seed, the same deal
    a = Parti.from_givar(Rules(players=2, givar=4), [_finished(Rules(players=2, givar=4), 0, 1)], seed=7)
    b = Parti.from_givar(Rules(players=2, givar=4), [_finished(Rules(players=2, givar=4), 0, 1)], seed=7)
    assert a.next_giv().deals == b.next_giv().deals and a.giv.dealer == 1


def test_a_parti_says_why_it_is_over_and_that_a_giv_must_be_finished_first():
    p = Parti(Rules(players=2), seed=1)
    with pytest.raises(IllegalMoveError, match=r"^Finish the current giv before starting the next\.$"):
        p.next_giv()
    assert Parti._over_text(PartiEnd(True, (0,), givar=2)) == "The parti is over: all 2 givar are played."
    assert Parti._over_text(PartiEnd(True, (1,), target=16, givar=5)) == (
        "The parti is over: it is played to 16 points, and giv 5 decided it.")
    assert Parti._over_text(PartiEnd(True, (0, 1), target=21, givar=12, stopped=True)) == (
        "The parti is over: nobody won it in 12 givar, the most a parti lasts (the rule option givar), "
        "so the best total wins.")
    while not p.is_over:
        if p.giv.is_over:
            p.next_giv()
        p.play(p.giv.legal_moves()[0])
    with pytest.raises(GameOverError, match=r"^The parti is over: all 2 givar are played\.$"):
        p.next_giv()


def test_a_move_is_legal_as_text_or_as_a_move_and_a_giv_and_a_parti_show_where_they_stand():
    g = tabbe()
    for move in ("10H:AH+3D+7C+9S", Move.parse("10H:AH+3D+7C+9S")):
        assert g.is_legal(move)
    for move in ("10H", Move.parse("10H"), "4S"):
        assert not g.is_legal(move)
    assert repr(Giv(seed=1)) == "<Giv 2 players, dealer 0, deal 1/9, 0 moves, seat 1 to play>"
    g.play("10H:AH+3D+7C+9S")
    g.play("4S")
    assert repr(g) == "<Giv 2 players, dealer 1, deal 1/1, 2 moves, over>"
    assert repr(Parti(Rules(players=2), seed=3)) == "<Parti 2 players, giv 1/2, totals (0, 0)>"
    assert repr(Parti(K, seed=3)) == "<Parti 2 players, giv 1/to 16, totals (0, 0)>"
    html = Giv(seed=1)._repr_html_()
    assert html is not None and html.startswith('<div class="kt-giv"') and "Krypkasino · 2 players" in html
