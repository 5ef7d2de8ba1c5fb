"""The classic Kasino puzzle prover's rules, each pinned with concrete cards. Every test here kills
mutants of ``krypteach/teaching/puzzles/kasino.py`` that the other tests let live (docs/testing.md,
"Mutation testing"; the run and its survivors: docs/mutation/kasino-puzzles.md)."""

from __future__ import annotations

import random

import pytest

from krypteach import Move, Rules, parse_cards
from krypteach.engine import reference
from krypteach.engine.builds import Build, parse_table
from krypteach.engine.cards import Card
from krypteach.teaching.puzzles import Puzzle, PuzzleError, judge, solve
from krypteach.teaching.puzzles.kasino import (
    _deck,
    _draw,
    _fits,
    _position,
    generate_kasino,
    kasino_prompt,
    kasino_proved_moves,
    kasino_result_words,
    kasino_values,
    resolve_selection,
    solve_kasino,
)

P = parse_cards
KASINO = Rules(game="kasino")


def puzzle(kind, hand, table, next_hand, **kw):
    return Puzzle("t", kind, "easy", P(hand), parse_table(table), next_hand=P(next_hand), rules=kw.pop("rules", KASINO),
                  **kw)


# --- an answer given as a selection: which of your moves it stands for -------------------------

def test_a_selection_stands_for_your_own_moves_with_those_cards():
    # you own the build of 7 (2♠+5♦), so this turn you must take it or raise it. 7♦ with the loose 5♠
    # would be a build of 12 (you hold Q♠) for a player without that duty, but it is no move of yours:
    # the selection stays what it is, and the page says why it is no move
    p = puzzle("kasino-take-or-raise", "7D 5C QS", "[7:2S+5D@0] 5S", "JC AS KH", last_capturer=1)
    assert resolve_selection(p, Move(Card("7D"), P("5S"))) == ["7D:5S"]
    j = judge(p, Move(Card("7D"), P("5S")))
    assert not j.ok
    assert j.why.startswith("5♠ is not a träff for your 7♦: take cards of its rank, groups that add up to its "
                            "value, and builds of its value. You own a build of 7 (2♠+5♦): take it or raise it "
                            "this turn"), j.why
    # the same cards taking the build itself: a capture and a raise are both meant
    assert resolve_selection(p, Move(Card("7D"), P("2S 5D"))) == ["7D:2S+5D"]
    assert resolve_selection(p, Move(Card("5C"), P("2S 5D"))) == ["5C>12:2S+5D"]


def test_a_build_or_a_trail_given_as_a_move_is_that_move_alone():
    p = puzzle("kasino-safe-build", "AH 3H 6S", "3S 4C JS", "3D AD 2C")
    # a selection of 3♥ and 3♠ stands for the capture and the build of 6 alike
    assert resolve_selection(p, Move(Card("3H"), P("3S"))) == ["3H:3S", "3H>6:3S"]
    # written as the build, it is the build; written as a trail, the trail (3♥ could take 3♠)
    assert resolve_selection(p, "3H>6:3S") == ["3H>6:3S"]
    assert resolve_selection(p, "3H") == ["3H"]
    assert resolve_selection(p, Move(Card("3H"), None)) == ["3H"]


# --- which build you can make: your moves as seat 0, the owner's duty included -----------------

def test_the_builds_to_choose_from_are_your_own_under_your_duty():
    # your build of 9 on the table: this turn you must take it or add to it, so the two builds you can
    # make both add to it (7♣ with 2♠; 2♥ with 2♠ and 5♦); 7♣ on 2♠ alone and 2♥ on 5♦ are not yours to make
    p = puzzle("kasino-steal", "7C 2H 9D", "[9:4S+5H@0] 5D 2S", "3D 9C 2C")
    s = solve(p)
    assert s.options == {"7C>9:2S+4S+5H": ["9C:2S+4S+5H+7C"], "2H>9:2S+4S+5H+5D": ["9C:2S+2H+4S+5H+5D"]}
    # your opponent's build of 8: you may add to it (and own it) or build 8 elsewhere; it is your
    # opponent whom the duty binds, not you
    q = puzzle("kasino-steal", "3H 6S 8H", "[8:3D+5C@1] 2S 4D", "KD 8C AH")
    assert set(solve(q).options) == {"6S>8:2S", "6S>8:2S+3D+5C"}


def test_a_build_your_opponent_could_take_is_safe_while_their_own_build_binds_them():
    # your opponent owns the build of 10 and holds 10♥: this turn they must take it or raise it, so their
    # 7♦ cannot take a build of 7 you make now; every build you can make is safe
    p = puzzle("kasino-safe-build", "2D 7S 9H 4H", "[10:4C+6C@1] 5S 3H", "7D 10H KC")
    s = solve(p)
    assert s.options == {"2D>7:5S": [], "4H>7:3H": [], "4H>9:5S": []}
    assert s.answers == {"2D>7:5S", "4H>7:3H", "4H>9:5S"} and not s.unique


def test_the_safe_build_explanation_goes_build_by_build_word_for_word():
    # 3♥ can build 6 (on 3♠) or 14 (on J♠, an ace in hand is 14); your opponent's A♦ takes the 14
    p = puzzle("kasino-safe-build", "AH 3H 6S", "3S 4C JS", "3D AD 2C")
    s = solve(p)
    assert s.answers == {"3H>6:3S"} and s.unique
    # by the card you play, then the build's value: 6 before 14
    assert s.explanation == (
        "If 3♥ builds 6 with 3♠, it is safe: nothing your opponent holds takes it or builds on it, and you "
        "take it next turn. If 3♥ builds 14 with J♠, your opponent can steal it: A♦ takes 3♥+J♠.")
    steal = solve(puzzle("kasino-steal", "AH 3H 6S", "3S 4C JS", "3D AD 2C"))
    assert steal.answers == {"3H>14:JS"} and steal.explanation == s.explanation
    # the builds in order of the card played: 2♣'s (5, then 10) before 5♠'s (8)
    q = solve(puzzle("kasino-steal", "2C 5S 10H 8D", "3S 8S", "5H KC 2H"))
    assert q.answers == {"2C>5:3S", "5S>8:3S"} and q.explanation == (
        "If 2♣ builds 5 with 3♠, your opponent can steal it: 5♥ takes 2♣+3♠. If 2♣ builds 10 with 8♠, it is safe: "
        "nothing your opponent holds takes it or builds on it, and you take it next turn. If 5♠ builds 8 with 3♠, "
        "your opponent can steal it: 5♥ builds 13 with 3♠+5♠. If 5♠ builds 8 with 3♠+8♠, it is safe: nothing your "
        "opponent holds takes it or builds on it, and you take it next turn.")
    # the same card's builds by value, whatever cards they are on: 8 (on 5♦) before 9 (on 2♠+4♦)
    r = solve(puzzle("kasino-steal", "3H 8C 9D", "2S 4D 5D", "8H KC 2H"))
    assert r.answers == {"3H>8:5D"} and r.explanation == (
        "If 3♥ builds 8 with 5♦, your opponent can steal it: 8♥ takes 3♥+5♦. If 3♥ builds 9 with 2♠+4♦, it is "
        "safe: nothing your opponent holds takes it or builds on it, and you take it next turn.")


def test_a_build_puzzle_without_a_choice_or_an_answer_says_which_and_why():
    with pytest.raises(PuzzleError) as e:  # 3♥ on 3♠ is the only build
        solve(puzzle("kasino-safe-build", "AH 3H 5S", "3S 4C", "3D AD 2C"))
    assert str(e.value) == "puzzle t: kasino-safe-build needs at least two builds to choose from"
    with pytest.raises(PuzzleError) as e:  # 8♣ takes or raises every build you can make
        solve(puzzle("kasino-safe-build", "10H 2C 8D 5S", "3S 6C", "8C KD 9H"))
    assert str(e.value) == "puzzle t: no build fits the question"


# --- the searched kinds: what a position must be, and the proof at every position ---------------

def test_a_searched_puzzle_that_cannot_be_says_which_and_why():
    with pytest.raises(PuzzleError) as e:  # you play first: you hold as many cards as your opponent, or one more
        solve(puzzle("kasino-endgame", "9D 3C", "[9:4S+5H@0] 2H", "AH 2C QS KS", last_capturer=1))
    assert str(e.value) == ("puzzle t: hand sizes must be equal, or one less for the seats that have already "
                            "played this round (seat 0 to play first); got [2, 4]")
    with pytest.raises(PuzzleError) as e:  # the build of 9 is your opponent's
        solve(puzzle("kasino-take-or-raise", "9D 3C", "[9:4S+5H@1] 2H", "AH QS", last_capturer=1))
    assert str(e.value) == "puzzle t: kasino-take-or-raise needs a build of yours on the table"
    # the same position as an endgame is a puzzle: the question needs no build of yours
    assert solve(puzzle("kasino-endgame", "9D 3C", "[9:4S+5H@1] 2H", "AH QS", last_capturer=1)).answers


def test_the_full_proof_checks_every_position_the_search_reaches(monkeypatch):
    p = puzzle("kasino-endgame", "9D 3C", "[9:4S+5H@0] 2H", "AH QS", last_capturer=1)
    real = reference.kasino_legal_moves
    want = solve(p)

    def wrong_after_the_first_move(hand, *a, **k):  # the brute force disagrees once a card is played
        return real(hand, *a, **k) if len(hand) == 2 else set()

    monkeypatch.setattr(reference, "kasino_legal_moves", wrong_after_the_first_move)
    with pytest.raises(PuzzleError, match="disagree"):
        solve(p)
    with pytest.raises(PuzzleError, match="disagree"):  # the solver's and the search's own default is the full proof
        solve_kasino(p)
    with pytest.raises(PuzzleError, match="disagree"):
        kasino_values(p.rules, p.hand, p.next_hand, p.table, p.last_capturer)
    fast = solve(p, full_proof=False)  # a page checking an answer: the puzzle's own position only
    assert (fast.answers, fast.options) == (want.answers, want.options)


def endgame(preset, hand, table, other):
    return puzzle("kasino-endgame", hand, table, other, rules=Rules.preset(preset), last_capturer=1)


def test_an_endgames_explanation_gives_every_other_first_move_best_first():
    # classic Kasino: K♣ takes the whole table (a tabbe) and takes in last (sistan): 2; the others after
    # it, the most points first
    s = solve(endgame("kasino", "10C KC", "5C 8S", "7C"))
    assert s.answers == {"KC:5C+8S"} and s.options == {"KC:5C+8S": 2, "10C": 1, "KC": -1}
    assert s.explanation == (
        "With the best play from both of you, after K♣ takes 5♣+8♠, you take 2 points more than your opponent. "
        "Other first moves: after 10♣ creeps, you take 1 point more than your opponent; after K♣ creeps, you take "
        "1 point fewer than your opponent.")
    # avig kasino: the fewest points first
    s = solve(endgame("avig-kasino", "10S AC", "3C 9D", "8C KH"))
    assert s.answers == {"AC"} and s.options == {"AC": -3, "10S": -2, "AC>10:9D": 2}
    assert s.explanation == (
        "With the best play from both of you, after A♣ creeps, you take 3 points fewer than your opponent. "
        "Other first moves: after 10♠ creeps, you take 2 points fewer than your opponent; after A♣ builds 10 "
        "with 9♦, you take 2 points more than your opponent.")
    # moves of the same value in the order of their text
    s = solve(endgame("avig-kasino", "7S KD", "JC 6D", "8C 3C"))
    assert s.explanation == (
        "With the best play from both of you, after K♦ creeps, you take 1 point fewer than your opponent. Other "
        "first moves: after 7♠ creeps, you take 1 point more than your opponent; after 7♠ builds 13 with 6♦, you "
        "take 1 point more than your opponent.")


def test_equally_good_first_moves_are_named_together_in_the_order_of_their_text():
    s = solve(endgame("kasino", "10H 10D", "4S 6H", "3C"))
    assert s.answers == {"10D:4S+6H", "10H:4S+6H"} and not s.unique
    assert s.explanation == (
        "10♦ takes 4♠+6♥ and 10♥ takes 4♠+6♥ are equally good: with the best play from both of you, you take 4 "
        "points more than your opponent. Other first moves: after 10♥ builds 10 with 4♠+6♥, you take 3 points more "
        "than your opponent; after 10♥ creeps, you take 3 points more than your opponent; after 10♦ builds 10 with "
        "4♠+6♥, you take 3 points more than your opponent; after 10♦ creeps, you take 3 points more than your "
        "opponent.")
    s = solve(endgame("avig-kasino", "10H AD", "3S AC", "AH"))
    assert s.answers == {"10H", "10H>14:AC+3S"}
    assert s.explanation == (
        "10♥ creeps and 10♥ builds 14 with A♣+3♠ are equally good: with the best play from both of you, you take "
        "5 points fewer than your opponent. Other first moves: after A♦ takes A♣, you take 4 points more than your "
        "opponent.")


# --- the brute force gets the puzzle's own rules, and a disagreement names the position --------

def test_the_brute_force_is_asked_under_the_puzzles_own_rules(monkeypatch):
    real = reference.kasino_legal_moves
    asked = []

    def spy(hand, table, player, **rules):
        asked.append(rules)
        return real(hand, table, player, **rules)

    monkeypatch.setattr(reference, "kasino_legal_moves", spy)
    # every option away from the default, at once
    rules = Rules(game="kasino", capture="maximal", ace="1", forced_tabbe=True, multiple_builds=False,
                  owner_duty="no-trail", face_cards="own-rank", raise_gathers=False, lone_ace_builds=False)
    kasino_proved_moves(P("9D 3C"), parse_table("[9:4S+5H@0] 2H"), rules, 0)
    assert asked == [{"capture": "maximal", "ace": "1", "forced_tabbe": True, "multiple_builds": False,
                      "owner_duty": "no-trail", "face": "own-rank", "raise_gathers": False, "lone_ace_builds": False}]


def test_a_disagreement_with_the_brute_force_names_the_hand_and_the_table(monkeypatch):
    monkeypatch.setattr(reference, "kasino_legal_moves", lambda *a, **k: set())
    with pytest.raises(PuzzleError) as e:
        kasino_proved_moves(P("9D 3C"), parse_table("[9:4S+5H@0] 2H"), KASINO, 0)
    assert str(e.value) == ("the engine and the reference rules disagree on the legal Kasino moves for hand 9D 3C "
                            "at table [9:4S+5H@0] 2H")


def test_a_kasino_puzzle_that_cannot_be_says_which_and_why():
    def refused(**kw):
        with pytest.raises(PuzzleError) as e:
            solve(puzzle("kasino-endgame", "9D 3C", "[9:4S+5H@0] 2H", "AH QS", last_capturer=1, **kw))
        return str(e.value)

    assert refused(rules=Rules()) == "puzzle t: kasino-endgame needs classic Kasino rules (game='kasino')"
    assert refused(rules=Rules(game="kasino", players=3)) == "puzzle t: Kasino puzzles are for two players"
    with pytest.raises(PuzzleError) as e:
        solve(Puzzle("t", "kasino-steal", "easy", P("9D 3C"), parse_table("2H 4S"), rules=KASINO))
    assert str(e.value) == "puzzle t: the opponent's hand (next_hand) is needed"
    # a card twice (one deck), and the table's builds are part of the position that is checked
    with pytest.raises(PuzzleError) as e:
        solve(puzzle("kasino-endgame", "9D 3C", "[9:4S+5H@0] 9D", "AH QS", last_capturer=1))
    assert str(e.value) == "puzzle t: 9D appears more than once (there is one deck)"
    with pytest.raises(PuzzleError) as e:
        solve(puzzle("kasino-endgame", "9D 3C", "[9:4S+5H@2] 2H", "AH QS", last_capturer=1))
    assert str(e.value) == "puzzle t: build [9:4S+5H@2] is owned by no seat: seats are 0..1"


def test_a_giv_nobody_takes_in_ends_with_no_sistan():
    # neither 2♣ nor 3♦ can take or build: nobody takes in, so nobody gets the last point
    assert kasino_values(KASINO, P("2C"), P("3D"), parse_table("9S KH")) == {Move.parse("2C"): 0}
    # who took in last before the puzzle decides it: the last capturer takes what is left and 1 point
    assert kasino_values(KASINO, P("2C"), P("3D"), parse_table("9S KH"), 0) == {Move.parse("2C"): 1}
    assert kasino_values(KASINO, P("2C"), P("3D"), parse_table("9S KH"), 1) == {Move.parse("2C"): -1}


# --- the question in words -----------------------------------------------------------------------

def test_each_kind_asks_its_question_word_for_word():
    assert kasino_prompt(puzzle("kasino-safe-build", "AH 3H 6S", "3S 4C JS", "3D AD 2C")) == (
        "Classic Kasino. Your hand: A♥ 3♥ 6♠. The table: 3♠, 4♣, J♠. Your opponent holds 3♦ A♦ 2♣ (shown). Which "
        "build can you make that your opponent can neither take nor build on, so that it is yours to take next turn?")
    assert kasino_prompt(puzzle("kasino-steal", "AH 3H 6S", "3S 4C JS", "3D AD 2C")) == (
        "Classic Kasino. Your hand: A♥ 3♥ 6♠. The table: 3♠, 4♣, J♠. Your opponent holds 3♦ A♦ 2♣ (shown). Of the "
        "builds you can make, which one could your opponent steal (take it, or build on it)?")
    count = ("Count the points each of you takes from here: stora kasino 2, lilla kasino 1, each ace 1, each tabbe 1 "
             "and sistan 1 (most cards and most spades are left out).")
    assert kasino_prompt(puzzle("kasino-take-or-raise", "7D 5C QS", "[7:2S+5D@0] 5S [8:3D+5C@1]", "JC AS KH",
                                last_capturer=0)) == (
        "Classic Kasino: the highest score wins. The last cards of the giv, every card known. Your hand: 7♦ 5♣ Q♠. "
        "Your opponent's hand: J♣ A♠ K♥. The table: [7: 2♠+5♦] (yours), 5♠, [8: 3♦+5♣] (your opponent's). Last "
        "capturer: you. You play first. You own a build: this turn you must take it or build on it (raise it). "
        + count + " Which move gives you the most points against your opponent, both playing their best?")
    assert kasino_prompt(puzzle("kasino-endgame", "10C KC", "", "7C", last_capturer=None)) == (
        "Classic Kasino: the highest score wins. The last cards of the giv, every card known. Your hand: 10♣ K♣. "
        "Your opponent's hand: 7♣. The table: empty. Last capturer: nobody yet. You play first. " + count
        + " Which move gives you the most points against your opponent, both playing their best?")
    assert kasino_prompt(endgame("avig-kasino", "10S AC", "3C 9D", "8C KH")) == (
        "Avig kasino: the lowest score wins; a card that can take must take all it can, and tvångstabbe. The last "
        "cards of the giv, every card known. Your hand: 10♠ A♣. Your opponent's hand: 8♣ K♥. The table: 3♣, 9♦. "
        "Last capturer: your opponent. You play first. " + count
        + " Which move gives you the fewest points against your opponent, both playing their best?")


def test_a_result_sentence_needs_a_frame_it_knows():
    assert kasino_result_words(1, "after", move="9♥ takes 9♠") == "after 9♥ takes 9♠, you take 1 point more than your opponent"
    with pytest.raises(ValueError, match=r"^kasino_result_words: no frame 'later'$"):
        kasino_result_words(1, "later", move="9♥ takes 9♠")


# --- the generator: what each level asks -------------------------------------------------------------

LEVELS = [("kasino-safe-build", "kasino"), ("kasino-steal", "kasino"), ("kasino-take-or-raise", "kasino"),
          ("kasino-endgame", "kasino"), ("kasino-endgame", "avig-kasino")]


@pytest.mark.parametrize(("kind", "preset"), LEVELS, ids=[f"{k}-{p}" for k, p in LEVELS])
def test_each_level_of_a_made_puzzle_asks_what_it_says(kind, preset):
    """Easy, medium and hard as the generator makes them (two of each, from fixed seeds): how many cards,
    how many builds or first moves to choose from, and a single best answer proved."""
    rules = Rules.preset(preset)
    for level, difficulty in enumerate(("easy", "medium", "hard")):
        for seed in (1, 2):
            p = generate_kasino(kind, difficulty, random.Random(seed), rules, "t")
            s = solve(p, full_proof=False)
            assert s.unique and s.answers == frozenset(p.answers), (difficulty, seed)
            legal = kasino_proved_moves(p.hand, p.table, rules, 0)
            if kind in ("kasino-safe-build", "kasino-steal"):
                assert len(p.hand) == len(p.next_hand) == (3 if level == 0 else 4), (difficulty, seed)
                assert not any(isinstance(x, Build) for x in p.table)  # loose cards only
                assert 2 <= len(p.table) <= 3 + level
                builds = len(s.options)
                assert builds == 2 + level if level < 2 else builds >= 4, (difficulty, seed, builds)
            elif kind == "kasino-take-or-raise":
                mine = [x for x in p.table if isinstance(x, Build) and x.owner == 0]
                assert len(mine) == 1 and len(p.hand) == 3 + level // 2, (difficulty, seed)
                assert any(m.value is None and m.capture and mine[0].cards[0] in m.capture for m in legal)  # take
                assert any(m.value is not None and mine[0].cards[0] in (m.capture or ()) for m in legal)  # raise
            else:
                assert len(p.hand) == (2 if level == 0 else 3), (difficulty, seed)
                assert any(isinstance(x, Build) for x in p.table) or any(m.value is not None for m in legal)
                assert len(legal) >= 2 + level and len(set(s.options.values())) >= 2, (difficulty, seed)


# --- the generator: the positions it draws, before any is solved -------------------------------------

def _cards_of(fields):
    """Every card of a drawn position: both hands, the table's loose cards and its builds' cards."""
    table = fields["table"]
    loose = [x for x in table if not isinstance(x, Build)]
    built = [c for x in table if isinstance(x, Build) for c in x.cards]
    return [*fields["hand"], *fields["next_hand"], *loose, *built]


def _drawn(kind, level, seeds=range(300)):
    out = []
    for seed in seeds:
        fields = _position(kind, level, random.Random(seed))
        cards = _cards_of(fields)
        assert len(set(cards)) == len(cards), (kind, level, seed, cards)  # one deck: no card twice
        out.append(fields)
    return out


def test_the_generator_deals_from_one_whole_deck():
    deck = _deck()
    assert len(deck) == len(set(deck)) == 52
    assert {c.rank for c in deck} == set(range(1, 14)) and {c.suit for c in deck} == set("SHDC")
    pool = _deck()
    drawn = _draw(random.Random(3), 5, pool)
    assert len(set(drawn)) == 5 and len(pool) == 47 and not set(drawn) & set(pool)  # what is dealt leaves the deck
    # every rank and every suit turns up in what is dealt (aces and kings too)
    seen = {c for level in (0, 1, 2) for f in _drawn("kasino-safe-build", level, range(60)) for c in _cards_of(f)}
    assert {c.rank for c in seen} == set(range(1, 14)) and {c.suit for c in seen} == set("SHDC")


@pytest.mark.parametrize("kind", ["kasino-safe-build", "kasino-steal"])
def test_a_build_question_deals_loose_cards_and_equal_hands(kind):
    for level in (0, 1, 2):
        drawn = _drawn(kind, level)
        for f in drawn:
            assert len(f["hand"]) == len(f["next_hand"]) == (3 if level == 0 else 4)
            assert not any(isinstance(x, Build) for x in f["table"])
            assert "last_capturer" not in f  # the build questions look one turn ahead, not to sistan
        # every table size the level allows is dealt: 2 to 3 cards at easy, up to 5 at hard
        assert {len(f["table"]) for f in drawn} == set(range(2, 4 + level)), (kind, level)


def test_take_or_raise_deals_your_build_the_card_to_take_it_and_a_raise_you_could_take_later():
    for level in (0, 1, 2):
        drawn = _drawn("kasino-take-or-raise", level)
        values, loose, others, firsts = set(), set(), set(), set()
        for f in drawn:
            mine, *rest = f["table"]
            assert isinstance(mine, Build) and mine.owner == 0 and len(mine.cards) == 2
            assert sum(c.rank for c in mine.cards) == mine.value and not any(isinstance(x, Build) for x in rest)
            ranks = [c.rank for c in f["hand"]]
            assert mine.value in ranks  # the card that takes it
            assert any(r + mine.value in ranks for r in ranks if r + mine.value <= 13)  # a raise, and the card to take it
            assert len(f["hand"]) == 3 + level // 2
            assert len(f["hand"]) - len(f["next_hand"]) in (0, 1)
            values.add(mine.value)
            loose.add(len(rest))
            others.add(len(f["next_hand"]) - len(f["hand"]))
            firsts.add(f["hand"][0].rank == mine.value)
        assert values == set(range(5, 12)), level  # builds of 5 to 11: each leaves room for a raise
        assert loose == set(range(1, 2 + level)), level
        assert others == {0, -1}, level  # you play first, or your opponent has played this round
        assert firsts == {True, False}, level  # the hand is shuffled: its order gives nothing away
        if level == 0:  # three cards: the one that takes, the raise and the card that takes the raise
            raised_by = set()
            for f in drawn:
                ranks = sorted(c.rank for c in f["hand"])
                ranks.remove(f["table"][0].value)
                assert ranks[1] - ranks[0] == f["table"][0].value
                raised_by.add(ranks[0])
            assert raised_by == set(range(1, 9))  # an ace raises too; 8 on a build of 5 makes 13
        assert {f["last_capturer"] for f in drawn} == {0, 1}


def test_an_endgame_deals_the_last_cards_and_sometimes_your_opponents_build():
    values, with_build, dealt = set(), 0, 0
    for level in (0, 1, 2):
        drawn = _drawn("kasino-endgame", level)
        for f in drawn:
            n = 2 if level == 0 else 3
            assert len(f["hand"]) == n and len(f["next_hand"]) in (n, n - 1)
            loose = [x for x in f["table"] if not isinstance(x, Build)]
            builds = [x for x in f["table"] if isinstance(x, Build)]
            assert 2 <= len(loose) <= 2 + level and len(builds) <= 1
            for b in builds:  # your opponent's, of two cards, and they hold the card that takes it
                assert b.owner == 1 and len(b.cards) == 2 and sum(c.rank for c in b.cards) == b.value
                assert b.value in [c.rank for c in f["next_hand"]]
                values.add(b.value)
            with_build += bool(builds)
        dealt += len(drawn)
        assert {len([x for x in f["table"] if not isinstance(x, Build)]) for f in drawn} == set(range(2, 3 + level))
        assert {len(f["next_hand"]) for f in drawn} == {2 if level == 0 else 3, 1 if level == 0 else 2}
        assert {f["last_capturer"] for f in drawn} == {0, 1}
    assert values == set(range(5, 13))  # builds of 5 to 12
    # a build is dealt in half the positions where the opponent holds a card of its value: 81 of 900 here
    assert 0.04 < with_build / dealt < 0.14, with_build


# --- the generator: which solved positions each level keeps -------------------------------------------

def _levels_kept(kind, hand, table, next_hand, last_capturer=None):
    kw = {} if last_capturer is None else {"last_capturer": last_capturer}
    p = puzzle(kind, hand, table, next_hand, **kw)
    s = solve_kasino(p, full_proof=False)
    return [lvl for lvl in range(3) if _fits(p, s, lvl)]  # 0, 1, 2: easy, medium, hard


def test_a_build_question_is_easy_with_two_builds_medium_with_three_hard_with_four_or_more():
    kind = "kasino-safe-build"  # (a steal question counts the builds you can make alike)
    assert _levels_kept(kind, "4C 10H 9D 3S", "QD AS", "7H JD 9S QS") == [0]  # 9♦ builds 10, 3♠ builds 4
    assert _levels_kept(kind, "7S KH AS 4H", "2S 6C JD", "6H JC 9H AC") == [1]  # three builds
    assert _levels_kept(kind, "2S 7H AD 10H", "QH JS AC", "JH 5S QS 10S") == [2]  # four
    assert _levels_kept(kind, "7S KS 7D AD", "10H 7H QS", "5H 9C 9D 8S") == [2]  # five
    # a steal question is kept by the same count of builds you can make
    assert _levels_kept("kasino-steal", "AH 3H 6S", "3S 4C JS", "3D AD 2C") == [0]
    assert _levels_kept("kasino-steal", "2S 7H AD 10H", "QH JS AC", "JH 5S QS 10S") == [2]


def test_take_or_raise_is_kept_only_where_you_can_both_take_your_build_and_raise_it():
    # 7♦ takes your build of 7, 5♣ raises it to 12 (you hold Q♠): two answers of different worth
    assert _levels_kept("kasino-take-or-raise", "7D 5C QS", "[7:2S+5D@0] 5S", "JC AS KH", 1) == [0, 1, 2]
    # your build is the one that counts, wherever it lies on the table (your opponent's 9 cannot be taken)
    assert _levels_kept("kasino-take-or-raise", "7D 5C QS", "[9:4S+5H@1] [7:2S+5D@0] 5S", "JC AS KH", 1) == [0, 1, 2]
    # two ways to take it and no raise (9♥ is no raise of 7), though the two takes differ in worth
    assert _levels_kept("kasino-take-or-raise", "7D 9H", "[7:2S+5D@0] 7S", "JC AS", 1) == []
    # two raises and no card to take it, though the two raises differ in worth
    assert _levels_kept("kasino-take-or-raise", "5C QS 3H 10H", "[7:2S+5D@0] 4S", "10C 6H 4D", 0) == []


def test_an_endgame_is_kept_only_with_a_build_in_it_and_first_moves_of_different_worth():
    # three first moves (level: at least 2, 3 or 4 of them), a build to make (10♠ builds 14 with 4♦)
    assert _levels_kept("kasino-endgame", "10S AD", "4D 8D", "8C", 1) == [0, 1]
    # your opponent's build on the table, and no build of yours to make
    assert _levels_kept("kasino-endgame", "9D KS", "[9:4S+5H@1] 2H", "AH 9S", 0) == [0, 1]
    # your own build of 9 binds you: two first moves are yours (take it, or raise it with 6♦), not eight
    assert _levels_kept("kasino-endgame", "9D 3C 6D", "[9:4S+5H@0] 2H AC", "AH QS 4D", 1) == [0]
    # four first moves
    assert _levels_kept("kasino-endgame", "9D 3C", "4S 5H 2H", "AH QS", 1) == [0, 1, 2]
    # no build on the table and none to make: the classic Kasino endgame is about builds
    assert _levels_kept("kasino-endgame", "9D 3C", "9S KH", "AH QS", 1) == []
    # every first move worth the same: nothing to choose
    assert _levels_kept("kasino-endgame", "9D KS", "[9:4S+5H@1] 2H 6C", "AH QS", 1) == []


def test_the_shipped_set_holds_no_position_twice_at_a_level(monkeypatch):
    from collections import Counter
    from types import SimpleNamespace

    from krypteach.teaching.puzzles import kasino

    made = iter(range(1000))

    def one_position(kind, difficulty, rng, rules, pid):  # every second try repeats the one before it
        n = next(made)
        return SimpleNamespace(id=pid, hand=(n - n % 2,), table=(), next_hand=())

    monkeypatch.setattr(kasino, "generate_kasino", one_position)
    out = kasino.make_kasino_set()
    assert len(out) == sum(count for *_, count in kasino.KASINO_SET) == 24
    levels = Counter(p.id.rsplit("-", 1)[0] for p in out)
    assert len(levels) == len(kasino.KASINO_SET) and set(levels.values()) == {1, 2}
    for level in levels:  # a repeat made at a level was left out, and the next one made instead
        hands = [p.hand for p in out if p.id.rsplit("-", 1)[0] == level]
        assert len(set(hands)) == len(hands) == levels[level]
    assert next(made) > 24  # repeats were made
    assert [p.id for p in out[:3]] == ["kasino-safe-build-easy-01", "kasino-safe-build-easy-02", "kasino-safe-build-medium-01"]
    assert out[-1].id == "kasino-endgame-avig-hard-01"
