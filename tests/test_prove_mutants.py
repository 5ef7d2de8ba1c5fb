"""The puzzle prover's rules, each pinned with concrete cards (issue 18: tests that catch a
broken rule). Every test here kills mutants of ``krypteach/teaching/puzzles/prove.py`` that the
other tests let live (docs/testing.md, "Mutation testing")."""

from __future__ import annotations

import pytest

from krypteach import Move, Rules, parse_cards
from krypteach.engine import reference
from krypteach.engine.builds import Build
from krypteach.teaching.puzzles import prove
from krypteach.teaching.puzzles.model import Puzzle, PuzzleError

P = parse_cards
NO_TVANG = Rules(forced_tabbe=False)


def puzzle(kind, hand, table, **kw):
    return Puzzle("t", kind, "easy", P(hand), P(table), **{k: P(v) if k in ("next_hand", "kladda") else v
                                                              for k, v in kw.items()})


# --- what a move gives away: its cards and a tabbe's points ------------------------------

def test_a_tabbe_counts_in_a_moves_cost():
    # 5♠ (1 point) takes the lone 5♦ (0): a tabbe, 5 points more; a dubbeltabbe (5♦ with its twin) is 10
    assert prove.move_cost(Move.parse("5S:5D"), P("5D"), NO_TVANG) == 1 + 0 + 5
    assert prove.move_cost(Move.parse("5D:5D"), P("5D"), NO_TVANG) == 0 + 0 + 10
    # without dubbeltabbe the twin is a plain tabbe: the rules reach the tabbe count
    assert prove.move_cost(Move.parse("5D:5D"), P("5D"), Rules(forced_tabbe=False, dubbeltabbe=False)) == 5
    # leaving a card behind is no tabbe; a creep gives nothing
    assert prove.move_cost(Move.parse("5S:5D"), P("5D 3H"), NO_TVANG) == 1
    assert prove.move_cost(Move.parse("5S"), P("3H"), NO_TVANG) == 0


def test_the_tabbe_decides_the_safest_card():
    # J♥ must take 5♣+6♣ and J♣, the whole table: no card points, but a tabbe (5); 10♦ creeps (0).
    # Without the tabbe's cost both would give away 0 and there would be no unique answer.
    p = puzzle("safest-card", "JH 10D", "6C JC 5C", rules=NO_TVANG)
    s = prove.solve(p)
    assert s.answers == {"10D"} and s.unique and s.options == {"10D": 0, "JH": 5}


# --- the proof: the reference rules must agree with the engine ----------------------------

def test_the_proof_fails_when_the_reference_disagrees_on_the_legal_moves(monkeypatch):
    hand, table = P("10S 4H"), P("AH 7C 3D 9S")
    real = reference.legal_moves
    monkeypatch.setattr(reference, "legal_moves", lambda *a, **k: set(real(*a, **k)) | {("4H", None)})
    # (the reference wrongly lets 4♥ creep under tvångstabbe)
    with pytest.raises(PuzzleError, match=r"disagree on the legal moves for hand 10♠ 4♥ at table A♥ 7♣ 3♦ 9♠: "
                                          r"\['10S:AH\+3D\+7C\+9S'\] vs \['10S:AH\+3D\+7C\+9S', '4H'\]"):
        prove.proved_moves(hand, table, Rules())
    # and a puzzle built on it is not proved
    problems = prove.verify(Puzzle("w", "which-card", "easy", hand, table, answers=("10S",)))
    assert len(problems) == 1 and "disagree on the legal moves" in problems[0]


def test_what_must_you_take_fails_when_the_reference_disagrees(monkeypatch):
    monkeypatch.setattr(reference, "capture_options", lambda *a, **k: [["9S"]])
    p = Puzzle("m", "what-must-you-take", "easy", P("9H"), P("9S 2C 7H"), answers=("2C+7H+9S",))
    with pytest.raises(PuzzleError, match=r"puzzle m: engine captures .*2C.*7H.*9S.* differ from the brute force"):
        prove.solve(p)


def test_the_reference_gets_the_puzzles_rules():
    # under each rule set the reference and the engine must agree (a rule not passed on makes them differ)
    cases = [
        (Rules(capture="free", forced_tabbe=False), "9H", "2C 7H 9S"),  # free capture: any träffar, or creep
        (Rules(forced_tabbe=False), "9H 5C", "9S"),                     # no tvångstabbe: 5♣ may creep
        (Rules(ace="1"), "AH", "5D 9S"),                                # the ace counts 1 only: it creeps
        (Rules(ace="14hand"), "AH", "5D 9S"),                           # a played ace is 14: it takes both
    ]
    for rules, hand, table in cases:
        moves = prove.proved_moves(P(hand), P(table), rules)
        assert set(moves) == set(prove.legal_moves(P(hand), P(table), rules))
    assert [str(m) for m in prove.proved_moves(P("AH"), P("5D 9S"), Rules(ace="1"))] == ["AH"]
    assert prove.takes_whole(P("AH")[0], P("5D 9S"), Rules()) and not prove.takes_whole(P("AH")[0], P("5D 9S"),
                                                                                         Rules(ace="1"))


def test_proved_moves_are_per_card_captures_then_creep_whatever_the_references_order(monkeypatch):
    free = Rules(capture="free", forced_tabbe=False)
    want = ["5C:5D", "5C", "9H:4D+5D", "9H:4D+5D+9S", "9H:9S", "9H"]
    assert [str(m) for m in prove.proved_moves(P("9H 5C"), P("9S 4D 5D"), free)] == want
    real = reference.legal_moves
    monkeypatch.setattr(reference, "legal_moves", lambda *a, **k: list(reversed(list(real(*a, **k)))))
    assert [str(m) for m in prove.proved_moves(P("9H 5C"), P("9S 4D 5D"), free)] == want


# --- a puzzle's cards, and the puzzles that cannot be ---------------------------------------

@pytest.mark.parametrize(("where", "over"), [
    ({"table": "9S 9S"}, "9S"), ({"next_hand": "9S", "table": "9S"}, "9S"), ({"kladda": "9S", "table": "9S"}, "9S"),
    ({"next_hand": "9S", "kladda": "9S"}, "9S")])
def test_a_card_three_times_anywhere_is_refused(where, over):
    kw = {"table": "2C"} | where
    p = Puzzle("c", "safest-card", "easy", P("9S 4H"), P(kw.pop("table")),
               **{k: P(v) for k, v in kw.items()}, rules=NO_TVANG)
    with pytest.raises(PuzzleError, match=rf"puzzle c: {over} appears more than twice \(there are two decks\)"):
        prove.check_cards(p)


def test_every_card_over_the_count_is_named():
    p = Puzzle("c", "safest-card", "easy", P("9S 4H"), P("9S 9S 4H 4H"), rules=NO_TVANG)
    with pytest.raises(PuzzleError, match=r"puzzle c: 9S, 4H appear more than twice"):
        prove.check_cards(p)
    one_deck = Rules(game="kasino")
    assert one_deck.copies == 1
    q = Puzzle("k", "safest-card", "easy", P("9S 4H"), P("9S 4H"), rules=one_deck)
    with pytest.raises(PuzzleError, match=r"puzzle k: 9S, 4H appear more than once \(there is one deck\)"):
        prove.check_cards(q)


@pytest.mark.parametrize(("p", "says"), [
    (puzzle("what-must-you-take", "9H 2C", "9S"), "puzzle t: what-must-you-take gives exactly one card to play"),
    (puzzle("what-must-you-take", "9H", "9S", rules=Rules(capture="free", forced_tabbe=False)),
     "puzzle t: under the free capture rule nothing must be taken"),
    (puzzle("which-card", "10S", "AH 9S", rules=NO_TVANG), "puzzle t: which-card needs tvångstabbe and a table"),
    (puzzle("which-card", "10S", ""), "puzzle t: which-card needs tvångstabbe and a table"),
    (puzzle("which-card", "4H", "AH 9S"), "puzzle t: no card in the hand takes the whole table"),
    (puzzle("safest-card", "10S 4H", "AH 9S"), "puzzle t: tvångstabbe decides this hand; it is not a safest-card"),
    (puzzle("set-up-dukning", "10S", "AH 9S", next_hand="4H", rules=NO_TVANG),
     "puzzle t: set-up-dukning needs tvångstabbe and the next player's hand"),
    (puzzle("set-up-dukning", "10S", "AH 9S"), "puzzle t: set-up-dukning needs tvångstabbe and the next player's hand"),
    (puzzle("set-up-dukning", "KS", "2C", next_hand="QH"), "puzzle t: no move sets up a tabbe for the next player"),
    (puzzle("endgame", "KS", "2C", next_hand="QH", rules=Rules(players=3)),
     "puzzle t: endgame puzzles are for two players"),
    (puzzle("endgame", "KS", "2C", next_hand="QH JH"), "you must hold as many cards as your opponent, or one more"),
    (puzzle("endgame", "KS JS 9S", "2C", next_hand="QH"), "you must hold as many cards as your opponent, or one more"),
    (puzzle("which-card", "10S", "AH 9S", rules=Rules(game="kasino")),
     "puzzle t: which-card is a Krypkasino puzzle: its rules cannot be classic Kasino's"),
], ids=lambda x: "why" if isinstance(x, str) else x.kind)
def test_a_puzzle_that_cannot_be_says_why(p, says):
    with pytest.raises(PuzzleError) as e:
        prove.solve(p)
    assert says in str(e.value)


def test_an_empty_hand_is_refused():
    p = Puzzle("t", "safest-card", "easy", (), P("2C"))
    with pytest.raises(PuzzleError, match="puzzle t: the hand is empty"):
        prove.check_cards(p)


def test_an_endgame_hand_of_one_more_card_is_fine():
    # you hold one more card than your opponent (you moved first in this utdelning): no error
    assert prove.solve(puzzle("endgame", "KS JS", "2C", next_hand="QH", last_capturer=0)).options


# --- the explanation a learner reads, for each way a puzzle can come out --------------------

EXPLAINED = [
    (puzzle("what-must-you-take", "9H", "2C 5D"), {"creep": 0}, True,
     "9♥ has no träff on 2♣ 5♦: it creeps and takes nothing."),
    (puzzle("what-must-you-take", "9H", "9S 2C 5D 7H"), {"2C+7H+9S": 0}, True,
     "9♥ must take 9♠ and 2♣+7♥; 5♦ stays: it takes all it can, and no träff is left behind."),
    (puzzle("what-must-you-take", "9H", "9S 2C 7H"), {"2C+7H+9S": 0}, True,
     "9♥ must take 9♠ and 2♣+7♥ — the whole table (a tabbe): it takes all it can, and no träff is left behind."),
    (puzzle("what-must-you-take", "9H", "4C 5D 5S"), {"4C+5D": 0, "4C+5S": 0}, False,
     "9♥ can take all it can in 2 ways, and any of them is right: 4♣+5♠; 5♦ stays; or 4♣+5♦; 5♠ stays."),
    (puzzle("what-must-you-take", "9H", "4C 5D 5S 3H"), None, False, "4♣+5♠; 5♦ 3♥ stay; or 4♣+5♦; 5♠ 3♥ stay."),
    (puzzle("which-card", "10S 4H", "AH 7C 3D 9S"), {"10S": 0}, True,
     "Tvångstabbe: 10♠ takes the whole table as A♥+9♠ and 3♦+7♣; no other card can (4♥ cannot), so 10♠ must be "
     "played."),
    (puzzle("which-card", "10S 4H 5C", "AH 7C 3D 9S"), None, True, "(4♥, 5♣ cannot)"),
    (puzzle("which-card", "10S", "AH 7C 3D 9S"), {"10S": 0}, True,
     "Tvångstabbe: 10♠ takes the whole table as A♥+9♠ and 3♦+7♣."),
    (puzzle("which-card", "10S 10H 4H", "AH 7C 3D 9S"), {"10S": 0, "10H": 0}, False,
     "Tvångstabbe: 10♠ and 10♥ can each take the whole table; any of them is right."),
    (puzzle("safest-card", "JH 10D", "6C JC 5C", rules=NO_TVANG), {"10D": 0, "JH": 5}, True,
     "10♦ is the safest card: it gives you 0 points. 10♦ creeps: 0 points; J♥ must take 5♣+6♣+J♣: 5 points."),
    (puzzle("safest-card", "9C 8D", "7D AS 8S", rules=NO_TVANG), {"8D": 8, "9C": 3}, True,
     "9♣ is the safest card: it gives you 3 points. 9♣ must take A♠+8♠: 3 points; 8♦ must take A♠+7♦+8♠: 8 points."),
    (puzzle("safest-card", "KD QD", "2C", rules=NO_TVANG), {"KD": 0, "QD": 0}, False,
     "Q♦ and K♦ are equally safe (0 points). Q♦ creeps: 0 points; K♦ creeps: 0 points."),
    (puzzle("set-up-dukning", "10C 4S", "5S 4S 7C", next_hand="QD"), {"4S:4S": ["QD"], "10C": []}, True,
     "After 4♠ takes 4♠, the table is 5♠ 7♣, and the next player's Q♦ must take it whole (tvångstabbe): a tabbe for "
     "them and a dukning for you. No other move does: after 10♣ creeps, the table is one they need not take."),
    (puzzle("set-up-dukning", "QC QH", "2D AH", next_hand="AC AS"), {"QH": ["AS", "AC"], "QC": ["AS", "AC"]}, False,
     "Several moves do it: Q♥ creeps (for A♠/A♣); Q♣ creeps (for A♠/A♣)."),
    (puzzle("endgame", "KS JS 9S", "2C", next_hand="QH JH", kladda="10D", last_capturer=0),
     {"9S": -16, "JS": -6, "KS": 6}, True,
     "With the best play from both of you, 9♠ creeps ends the giv with 16 points fewer than your opponent (better). The play: you: 9♠ creeps; "
     "your opponent: J♥ takes 2♣+9♠; you: J♠ creeps; your opponent: Q♥ creeps; you: K♠ creeps. Other first moves: "
     "J♠ creeps ends it with 6 points fewer than your opponent (better); K♠ creeps ends it with 6 points more than your opponent (worse)."),
    (puzzle("endgame", "KS JS", "2C", next_hand="QH JH", kladda="10D", last_capturer=0), {"JS": 5, "KS": 5}, False,
     "J♠ creeps and K♠ creeps are equally good: with the best play from both of you each ends the giv with 5 points "
     "more than your opponent (worse)."),
]


@pytest.mark.parametrize(("p", "options", "unique", "words"), EXPLAINED,
                         ids=[f"{p.kind}-{i}" for i, (p, *_rest) in enumerate(EXPLAINED)])
def test_the_explanation_says_exactly_why(p, options, unique, words):
    s = prove.solve(p)
    if options is not None:
        assert s.options == options
        assert s.explanation == words
    else:
        assert words in s.explanation
    assert s.unique is unique


def test_who_captured_last_decides_an_endgame():
    # nobody can capture: the last capturer sweeps 2♣ K♠ Q♥ (and takes the card points)
    values = {lc: prove.solve(puzzle("endgame", "KS", "2C", next_hand="QH", kladda="10D", last_capturer=lc)).options
              for lc in (0, 1, None)}
    assert values == {0: {"KS": 4}, 1: {"KS": -4}, None: {"KS": 0}}


@pytest.mark.parametrize(("points", "words"), [
    (-3, "with 3 points fewer than your opponent (better)"), (-1, "with 1 point fewer than your opponent (better)"),
    (1, "with 1 point more than your opponent (worse)"), (4, "with 4 points more than your opponent (worse)"), (0, "level with your opponent")])
def test_how_a_giv_ends_in_words(points, words):
    assert prove._ends_words(points) == words


# --- answers ----------------------------------------------------------------------------

TAKE = puzzle("what-must-you-take", "9H", "9S 2C 5D 7H")


@pytest.mark.parametrize("answer", ["2C 7H 9S", "9S+7H+2C", "9H:2C+7H+9S", Move.parse("9H:2C+7H+9S"),
                                    P("2C 7H 9S")])
def test_a_capture_answer_in_any_form(answer):
    assert prove.check_answer(TAKE, answer)[0]


@pytest.mark.parametrize("answer", [None, "", "creep", "nothing", "kryper", " Creep ", Move.parse("9H"), ()])
def test_a_creep_answer_in_any_form(answer):
    assert prove.check_answer(puzzle("what-must-you-take", "9H", "2C 5D"), answer)[0]
    assert not prove.check_answer(TAKE, answer)[0]


@pytest.mark.parametrize(("answer", "rule", "why"), [
    # the seed example: 9♥ takes 9♠ and 2♣+7♥; 5♦ stays
    ("2C+7H", "take-all", "You must take all you can: 9♠ is also a träff for 9♥ and would stay on the table. "
                          "Take 9♠ and 2♣+7♥; 5♦ stays."),
    ("9S", "take-all", "You must take all you can: 2♣+7♥ also make 9 and would stay on the table. "
                       "Take 9♠ and 2♣+7♥; 5♦ stays."),
    ("2C+5D", "not-traffar", "2♣+5♦ is not a träff for your 9♥: they add up to 7, and the cards you take must split "
                             "into träffar: single cards of the same rank, or groups that add up to 9. "),
    ("creep", "must-capture", "You may not creep (krypa) with 9♥: it has a träff — it can take 9♠ and 2♣+7♥. "
                              "A card that can capture must capture. "),
], ids=["one-traff-left", "a-pair-left", "no-traff", "creep"])
def test_a_wrong_capture_is_told_the_rule_it_breaks(answer, rule, why):
    """A wrong *what must you take* gets the engine's explanation of that capture, as in a game; where
    that does not name the capture to make, the solution follows it."""
    judged = prove.judge(TAKE, answer)
    assert judged.ok is False and judged.rule == rule and judged.why.startswith(why)
    assert judged.why == why + (prove.solve(TAKE).explanation if rule != "take-all" else "")
    assert prove.check_answer(TAKE, answer) == (False, judged.why)


def test_a_wrong_capture_in_swedish_and_when_the_card_takes_the_whole_table():
    from krypteach.i18n import use_language

    with use_language("sv"):
        assert prove.judge(TAKE, "2C+7H").why.startswith("Du måste ta allt du kan: 9♠ är också en träff för 9♥")
    whole = puzzle("what-must-you-take", "9H", "4S 5D 9C")
    assert prove.judge(whole, "4S+5D")[::2] == (False, "tvangstabbe")
    assert prove.judge(TAKE, "2C+7H+9S") == (True, "Right! " + prove.solve(TAKE).explanation, None)


def test_a_wrong_capture_is_judged_by_the_puzzles_own_rules():
    """With aces always 1, 9♠+5♦ (14) is no träff for A♥; under the default rules (an ace from the hand
    is 14 too) the same capture would be legal and only "not quite"."""
    p = puzzle("what-must-you-take", "AH", "AS 9S 5D", rules=Rules(ace="1"))
    assert sorted(prove.solve(p).answers) == ["AS"]
    judged = prove.judge(p, "AS+9S+5D")
    assert judged[::2] == (False, "not-traffar") and judged.why.startswith(
        "A♠+5♦+9♠ is not a träff for your A♥: they add up to 15, and the cards you take must split into träffar: "
        "single cards of the same rank, or groups that add up to 1. ")


def test_an_answer_that_cannot_be_read_is_wrong_and_says_how_to_write_one():
    assert prove.judge(TAKE, "ZZ") == (False, "Not an answer to this puzzle ('ZZ' is not a card: write rank A 2 3 4 5 6 "
                                              "7 8 9 10 J Q K then suit S H D C (or ♠ ♥ ♦ ♣), e.g. 10D or A♠).", None)


def test_the_feedback_counts_points_in_the_plural_too():
    """A safest card that gives 4 points, and a klädda högen of two spades (2 points)."""
    from krypteach.teaching.puzzles import load_puzzles

    safest = next(q for q in load_puzzles(game="krypkasino") if q.id == "safest-card-easy-01")
    assert prove.judge(safest, "AS").why.startswith("Not quite: A♠ gives you 4 points. ")
    endgame = puzzle("endgame", "10H 5D", "6C 9D 7S", next_hand="AS 3S", kladda="JS QS")
    forgot = prove.judge(endgame, "10H")
    assert forgot.rule == "kladda" and forgot.why.startswith(
        "Not the best: 10♥ creeps ends the giv level with your opponent. It would be as good as any were klädda högen "
        "empty, but klädda högen (J♠ Q♠, 2 points) goes to the last player to take in, and that decides here. ")


@pytest.mark.parametrize("answer", ["10S", "10♠", "10S:AH+3D+7C+9S", Move.parse("10S:AH+3D+7C+9S"), P("10S")[0]],
                         ids=["code", "symbol", "move", "Move", "Card"])
def test_a_card_answer_in_any_form(answer):
    assert prove.check_answer(puzzle("which-card", "10S 4H", "AH 7C 3D 9S"), answer)[0]


def test_a_wrong_answer_says_what_it_gives_away():
    p = puzzle("safest-card", "JH 10D", "6C JC 5C", rules=NO_TVANG)
    assert prove.check_answer(p, "JH") == (False, "Not quite: J♥ gives you 5 points. " + prove.solve(p).explanation)
    one = puzzle("safest-card", "9C 3S", "AS 8S 2D", rules=NO_TVANG)
    s = prove.solve(one)
    wrong = next(a for a in s.options if a not in s.answers and s.options[a] == 1) if 1 in s.options.values() else None
    if wrong:
        assert prove.check_answer(one, wrong)[1].startswith(f"Not quite: {one.answer_text(wrong)} gives you 1 point. ")


def test_a_wrong_endgame_move_says_how_it_ends():
    p = puzzle("endgame", "KS JS 9S", "2C", next_hand="QH JH", kladda="10D", last_capturer=0)
    assert prove.check_answer(p, "KS") == (
        False, "Not the best: K♠ creeps ends the giv with 6 points more than your opponent (worse). " + prove.solve(p).explanation)


def test_an_unreadable_answer_says_so():
    ok, words = prove.check_answer(TAKE, "9H:??")
    assert not ok and words.startswith("Not an answer to this puzzle (") and "None" not in words


def test_a_stored_answer_that_cannot_be_read_is_a_problem():
    p = Puzzle("w", "which-card", "easy", P("10S 4H"), P("AH 7C 3D 9S"), answers=("10S:??",))
    problems = prove.verify(p)
    assert problems and problems[-1].startswith("puzzle w: a stored answer cannot be read (")


# --- more rules, words and answers (the mutants the first pass left) --------------------------

def test_what_must_you_take_is_proved_under_the_puzzles_rules():
    # the ace counts 1 only: A♥ has no träff on 5♦ 9♠ (the engine must be asked with these rules too)
    p = puzzle("what-must-you-take", "AH", "5D 9S", rules=Rules(ace="1"))
    assert prove.solve(p).answers == {"creep"}


def test_a_card_with_equally_cheap_captures_shows_its_first():
    # 9♥ must take 4♣+5♥ or 4♣+5♦, both 0 points: the line names the first in the proved order
    p = puzzle("safest-card", "9H KD", "4C 5D 5H QS", rules=NO_TVANG)
    assert [str(m) for m in prove.proved_moves(p.hand, p.table, NO_TVANG)] == ["9H:4C+5H", "9H:4C+5D", "KD"]
    assert prove.solve(p).explanation == ("9♥ and K♦ are equally safe (0 points). 9♥ must take 4♣+5♥: 0 points; "
                                          "K♦ creeps: 0 points.")


def test_one_point_is_said_in_the_singular():
    p = puzzle("safest-card", "KS KC", "3S 6D 5D 4C", rules=NO_TVANG)
    assert prove.solve(p).explanation == ("K♣ is the safest card: it gives you 1 point. K♣ must take 3♠+4♣+6♦: "
                                          "1 point; K♠ must take 3♠+4♣+6♦: 2 points.")
    q = puzzle("safest-card", "5C QS", "7S QD JD", rules=NO_TVANG)
    assert prove.check_answer(q, "QS") == (False, "Not quite: Q♠ gives you 1 point. 5♣ is the safest card: it "
                                                  "gives you 0 points. 5♣ creeps: 0 points; Q♠ must take Q♦: 1 point.")


def test_right_and_plainly_wrong_answers_word_for_word():
    p = puzzle("which-card", "10S 4H", "AH 7C 3D 9S")
    why = prove.solve(p).explanation
    assert prove.check_answer(p, "10S") == (True, "Right! " + why)
    assert prove.check_answer(p, "4H") == (False, "Not quite. " + why)


KASINO = Rules(game="kasino", table_next=0)
# two classic Kasino puzzles written out (they were the first shipped of their kind): A♠ raises [8: A♥+7♥] to 9
# (8♥ taking the build is the wrong answer); 3♥ builds 6 on 3♠ (3♥ building 14 on J♠ is the wrong one)
KASINO_PUZZLES = {
    "kasino-take-or-raise": Puzzle("k", "kasino-take-or-raise", "easy", P("AS 9H 8H"),
                                   (Build.parse("[8:AH+7H@0]"), *P("2C")), next_hand=P("JC 10H 6C"),
                                   last_capturer=0, rules=KASINO),
    "kasino-safe-build": Puzzle("k", "kasino-safe-build", "easy", P("AH 3H 6S"), P("3S 4C JS"),
                                next_hand=P("3D AD 2C"), rules=KASINO),
}


@pytest.mark.parametrize(("kind", "wrong", "said"), [
    ("kasino-take-or-raise", "8H:AH+7H", "Not the best: after 8♥ takes A♥+7♥, you take 1 point fewer than your "
                                         "opponent. "),
    ("kasino-safe-build", "3H>14:JS", "Not quite. ")], ids=["take-or-raise", "safe-build"])
def test_a_wrong_build_answer_word_for_word(kind, wrong, said):
    p = KASINO_PUZZLES[kind]
    s = prove.solve(p)
    assert wrong in s.options and wrong not in s.answers
    assert prove.check_answer(p, wrong) == (False, said + s.explanation)


def test_more_answer_forms():
    # a safest card given as its move, and an endgame move written with symbols
    assert prove.check_answer(puzzle("safest-card", "9C 8D", "7D AS 8S", rules=NO_TVANG), "9C:AS+8S")[0]
    assert prove.check_answer(puzzle("endgame", "KS JS 9S", "2C", next_hand="QH JH", kladda="10D", last_capturer=0),
                              "9♠")[0]


def test_a_puzzle_with_two_answers_is_named_not_unique():
    p = Puzzle("w", "which-card", "easy", P("10S 10H 4H"), P("AH 7C 3D 9S"), answers=("10S", "10H"))
    assert prove.verify(p) == ["puzzle w: the answer is not unique (10H, 10S)"]


# --- the third pass: orders, lines and joins only some puzzles show ---------------------------

def test_two_takers_and_two_other_moves_are_each_joined():
    # K♣ takes 3♠+10♦ and leaves Q♣, which Q♠ or Q♥ must take whole; A♠ and 5♣ only creep
    p = puzzle("set-up-dukning", "AS KC 5C", "QC 3S 10D", next_hand="QH QS")
    s = prove.solve(p)
    assert s.options == {"AS": [], "KC:3S+10D": ["QS", "QH"], "5C": []} and s.unique
    assert s.explanation == ("After K♣ takes 3♠+10♦, the table is Q♣, and the next player's Q♠ or Q♥ must take it "
                             "whole (tvångstabbe): a tabbe for them and a dukning for you. No other move does: after "
                             "A♠ creeps or 5♣ creeps, the table is one they need not take.")


def test_equally_good_endgame_moves_are_named_in_the_order_of_their_text():
    # 7♥ and A♣ both creep, 3 ahead: the text "7H" sorts before "AC" (a Move would put the ace first)
    p = puzzle("endgame", "AC 7H", "QD", next_hand="QH", kladda="AS")
    s = prove.solve(p)
    assert s.options == {"AC": -3, "7H": -3} and not s.unique
    assert s.explanation == ("7♥ creeps and A♣ creeps are equally good: with the best play from both of you each "
                             "ends the giv with 3 points fewer than your opponent (better).")


def test_other_endgame_moves_are_named_by_value_then_text():
    # 6♣ creeps and A♦ takes A♣ both end 4 behind: "6C" sorts before "AD:AC" as text (as Moves, or in the
    # search's order, the ace would come first)
    p = puzzle("endgame", "4S AD 6C", "7C AC", next_hand="QS 8H 4H")
    s = prove.solve(p)
    assert s.options == {"4S": -14, "AD:AC": 4, "6C": 4}
    assert s.explanation == (
        "With the best play from both of you, 4♠ creeps ends the giv with 14 points fewer than your opponent (better). The play: you: 4♠ "
        "creeps; your opponent: Q♠ takes A♣+4♠+7♣; you: A♦ creeps; your opponent: 4♥ creeps; you: 6♣ creeps; "
        "your opponent: 8♥ creeps. Other first moves: 6♣ creeps ends it with 4 points more than your opponent "
        "(worse); A♦ takes A♣ ends it with 4 points more than your opponent (worse).")


def test_the_line_of_play_shown_depends_on_who_captured_last_and_the_kladda_hogen():
    # the opponent captured last and 4♣ 10♠ lie aside: you creep 7♣ first (shown line below). With nobody
    # having captured, the line would start 7♣ then J♥ creeps; without the klädda högen, with 2♥
    p = puzzle("endgame", "2H 7C", "QD 5H KC 10H", next_hand="JH 6D", kladda="4C 10S", last_capturer=1)
    s = prove.solve(p)
    assert s.options == {"2H": 1, "7C": -1}
    assert s.explanation == (
        "With the best play from both of you, 7♣ creeps ends the giv with 1 point fewer than your opponent (better). The play: you: 7♣ creeps; "
        "your opponent: 6♦ creeps; you: 2♥ creeps; your opponent: J♥ takes 5♥+6♦. Other first moves: 2♥ creeps "
        "ends it with 1 point more than your opponent (worse).")


def test_every_wrong_capture_of_made_puzzles_is_judged_with_a_rule_the_teacher_has_words_for():
    """Every selection of table cards (and creep) in made *what must you take* puzzles of every
    level: right exactly when it is one of the solver's answers, and a wrong one names a rule that the
    teacher's page words (never a bare key)."""
    from itertools import combinations

    from krypteach.serve.teacher import RULE_WORDS
    from krypteach.teaching.puzzles.fresh import fresh_puzzle
    from krypteach.teaching.puzzles.model import capture_text

    seen: set[str] = set()
    for level in ("easy", "medium", "hard"):
        for n in range(3):
            p = fresh_puzzle("what-must-you-take", level, n)
            answers = prove.solve(p).answers
            picks = ["creep"] + [capture_text(c) for k in range(1, len(p.table) + 1)
                                 for c in combinations(sorted(p.table), k)]
            for pick in picks:
                judged = prove.judge(p, pick)
                assert judged.ok == (pick in answers), (p.id, pick)
                assert judged.ok or judged.rule in RULE_WORDS, (p.id, pick, judged.rule)
                seen.add(judged.rule or "")
    assert {"take-all", "not-traffar"} <= seen


def test_a_kasino_selection_that_is_no_move_is_told_why_both_as_a_capture_and_as_a_build():
    """kasino-safe-build-easy-01: A♥ 3♥ 6♠ on 3♠ 4♣ J♠. 3♥ with 4♣ is no capture (4♣ is no träff of
    a 3) and no build (a build of 7 needs a 7 in the hand to take it): the page says both, then the
    solution; which one the learner meant cannot be told, so no rule is kept."""
    from krypteach.i18n import use_language
    from krypteach.teaching.puzzles import load_puzzles

    p = next(q for q in load_puzzles(game="kasino") if q.id == "kasino-safe-build-easy-01")
    solution = prove.solve(p).explanation
    judged = prove.judge(p, Move(P("3H")[0], P("4C")))
    assert judged == (False, "4♣ is not a träff for your 3♥: take cards of its rank, groups that add up to its value, and "
                             "builds of its value. You may build 7 only with another card of that value in your hand to "
                             "take it (no bluff builds): your other cards are A♥ 6♠. " + solution, None)
    with use_language("sv"):
        assert "Du får bara bygga 7 om du har ett annat kort med det värdet på handen" in prove.judge(p, "3H:4C").why
    # 1 + 4 + 11 is more than any card takes: explained as the capture alone, and that rule is kept
    assert prove.judge(p, "AH:4C+JS") == (False, "4♣+J♠ is not a träff for your A♥: take cards of its rank, groups that "
                                                  "add up to its value, and builds of its value. " + solution, "not-traffar")
    # a move the rules allow is judged as before: a build the opponent can steal
    assert prove.judge(p, "3H:JS") == prove.judge(p, "3H>14:JS") == (False, "Not quite. " + solution, None)
    assert prove.judge(p, "3H:3S").ok


def test_a_kasino_selection_is_read_as_a_build_only_where_one_could_be_meant():
    """A selection's cards are also read as a build of what they add up to, up to 14 (no card takes
    more), and only when no value was given; the learner is the seat that owns the builds marked @0."""
    from dataclasses import replace

    from krypteach.teaching.puzzles import load_puzzles

    base = next(q for q in load_puzzles(game="kasino") if q.id == "kasino-safe-build-easy-01")
    p = replace(base, hand=P("3H 6S 9D"), table=P("4C JS 2D"))
    no_traff = "{taken} is not a träff for your {card}: take cards of its rank, groups that add up to its value, and builds of its value."
    bluff = "You may build 14 only with another card of that value in your hand to take it (no bluff builds): your other cards are 6♠ 9♦."
    # 3 + 11 = 14: both readings; 9 + 4 + 2 = 15: the capture alone, and its rule kept
    assert prove._kasino_not_a_move(p, Move.parse("3H:JS")) == (no_traff.format(taken="J♠", card="3♥") + " " + bluff, None)
    assert prove._kasino_not_a_move(p, Move.parse("9D:4C+2D")) == (no_traff.format(taken="2♦+4♣", card="9♦"), "not-traffar")
    # a build whose value is given is that build only, said once
    assert prove._kasino_not_a_move(p, Move.parse("3H>14:JS")) == (bluff, "build-no-card")
    # the learner's own build of 9 must be taken or raised: a trail is no move, nor is a new build of 5
    mine = replace(base, hand=P("9C 3D 5H"), table=(Build(9, P("4S 5H"), 0), *P("2C")))
    owner = ("You own a build of 9 (4♠+5♥): take it or raise it this turn — 9♣ takes it. You may not leave it and "
             "play something else.")
    assert prove._kasino_not_a_move(mine, Move.parse("3D")) == (owner, "build-owner-must-act")
    assert prove._kasino_not_a_move(mine, Move.parse("3D:2C")) == (no_traff.format(taken="2♣", card="3♦") + " " + owner, None)


def test_a_build_taken_by_a_card_of_another_value_is_told_so():
    from krypteach.teaching.puzzles import load_puzzles

    p = next(q for q in load_puzzles(game="kasino") if q.id == "kasino-take-or-raise-easy-01")
    build = next(x for x in p.table if isinstance(x, Build))
    judged = prove.judge(p, Move(P("9H")[0], list(build.cards)))
    assert judged.rule == "build-wrong-value" and judged.why.startswith(
        "[8: A♥+7♥] is a build of 8: only a card of 8 takes it, not your 9♥. ")
