"""Issue 11: the teaching texts (the narration of a giv, the lesson list) in Swedish and English.

The narration is what a learner reads move by move; in Swedish it says "Bea kryper med 7♥",
"tar … med", "spelade precis före och får en dukning", with no English left over."""

from __future__ import annotations

import random

import pytest

from krypteach import Giv, Move, Rules, Turn, parse_cards
from krypteach.engine.games import game_of
from krypteach.i18n import _, language, use_language
from krypteach.i18n.catalogs import check as check_catalogs
from krypteach.teaching.course import LESSONS, lesson_list_html, shown_lessons, titles
from krypteach.teaching.narrate import describe_giv, describe_result, describe_turn, seat_names, traffar_text

NAMES = ["You", "Bea", "Dan"]
#: English words that must not be left in a Swedish narration
ENGLISH = (" takes ", " take ", " creeps ", " creep ", " with ", "New deal", "The giv is over", " moved just ",
           " captured ", "card points", "Lowest score", "Marks cancel", "nobody", " and ", "You ")


def test_the_teaching_catalogs_are_complete():
    assert check_catalogs(["teaching"]) == []


def test_a_creep_and_a_capture_in_swedish():
    with use_language("sv"):
        assert describe_turn(Turn(1, Move.parse("7H")), NAMES) == "Bea kryper med 7♥."
        assert describe_turn(Turn(0, Move.parse("7H")), NAMES) == "Du kryper med 7♥."
        text = describe_turn(Turn(2, Move.parse("9H:9S+2C+7D"), tabbe=1, dukning=1), NAMES)
        assert text == "Dan tar 9♠ och 2♣+7♦ med 9♥ – tabbe! Bea spelade precis före och får en dukning."
        text = describe_turn(Turn(1, Move.parse("9H:9S"), tabbe=1, dukning=0), NAMES)
        assert text == "Bea tar 9♠ med 9♥ – tabbe! Du spelade precis före och får en dukning."
        assert traffar_text(parse_cards("AH")[0], parse_cards("6S 8D AC")) == "A♣ och 6♠+8♦"
    # and English as before, once the block is left
    assert describe_turn(Turn(1, Move.parse("7H")), NAMES) == "Bea creeps 7♥ (kryper)."
    assert traffar_text(parse_cards("AH")[0], parse_cards("6S 8D AC")) == "A♣ and 6♠+8♦"


def test_dubbeltabbe_and_marks_cancel_in_swedish():
    with use_language("sv"):
        text = describe_turn(Turn(1, Move.parse("QH:QH"), tabbe=2, dukning=0, cancelled=1), NAMES)
        assert "Bea tar Q♥ med dess dubblett Q♥ – dubbeltabbe" in text
        assert "Du spelade precis före och får två dukningar." in text
        assert "Tabbarna tar ut varandra: alla vänder ned ett tabbekort." in text
        teams = describe_turn(Turn(1, Move.parse("QH:QH"), tabbe=1, dukning=None, cancelled=2), NAMES,
                              Rules(players=4, teams="pairs"))
        assert "så ingen får någon dukning" in teams and "varje lag vänder ned ett tabbekort två gånger" in teams


def test_the_learner_is_du_in_swedish():
    with use_language("sv"):
        assert seat_names(3) == ["Du", "Bea", "Dan"]
        assert seat_names(2, ["Ann", "Bo"]) == ["Ann", "Bo"]
        # a page that hands the English default names over still says "Du"
        assert describe_turn(Turn(0, Move.parse("9H:9S")), ["You", "Bea"]).startswith("Du tar 9♠ med 9♥")
        res = game_of(Rules()).score([[], []], [0, 0], [0, 0], [0, 0], None, parse_cards("KS QH"))
        assert describe_result(res, ["You", "Bea"])[1:] == ["Du: 0 kortpoäng = 0.", "Bea: 0 kortpoäng = 0.",
                                                             "Lägst poäng vinner: Du och Bea med 0."]
    assert seat_names(3) == ["You", "Bea", "Dan"]


@pytest.mark.parametrize("seed", [5, 8])
def test_a_whole_giv_in_swedish_has_no_english_left(seed):
    rng = random.Random(seed)
    g = Giv(Rules(players=3), seed=seed)
    g.play_out(lambda g: rng.choice(g.legal_moves()))
    with use_language("sv"):
        lines = describe_giv(g)
        result = describe_result(g.result, seat_names(3), piles=g.piles)
    assert len(lines) == len(g.turns)
    deals = [line for line in lines if "Ny utdelning" in line]
    assert len(deals) == len(g.deals) - 1 and f"Ny utdelning (2 av {len(g.deals)})." in deals[0]
    assert lines[-1].count("Given är slut: ") == 1 and "tog in sist och får" in lines[-1]
    assert any(line.startswith("Du ") for line in lines)
    assert result[-1].startswith("Lägst poäng vinner: ") and "kortpoäng" in result[1]
    for line in lines + result:
        assert not [w for w in ENGLISH if w in line], line
    # the same giv in English says what it said before
    english = describe_giv(g)
    assert "New deal (utdelning 2 of" in " ".join(english) and "The giv is over: " in english[-1]


def test_the_result_in_swedish():
    res = game_of(Rules()).score([[], []], [0, 0], [0, 0], [0, 0], None, parse_cards("KS QH"))
    with use_language("sv"):
        lines = describe_result(res, ["Ann", "Bo"])
    assert lines[0] == "Ingen tog in något: de 2 kort som blev kvar räknas inte för någon."
    assert lines[1] == "Ann: 0 kortpoäng = 0."
    assert lines[-1] == "Lägst poäng vinner: Ann och Bo med 0."
    rng = random.Random(11)
    g = Giv(Rules(players=4, teams="pairs", last_capture_point=1), seed=11)
    g.play_out(lambda g: rng.choice(g.legal_moves()))
    with use_language("sv"):
        lines = describe_result(g.result, seat_names(4), piles=g.piles)
    assert "Det ger 1 extra poäng." in lines[0]
    assert sum(line.startswith("Lag ") for line in lines) == 2 and "vinner: lag " in lines[-1]


def test_the_lesson_list_in_swedish():
    with use_language("sv"):
        page = lesson_list_html(shown_lessons({"KRYPTEACH_SHOWN": "03,08"}))
        named = titles()
    assert page == ('<ol class="kt-lessons"><li value="3"><a href="03_take_all.ipynb">Ta in allt du kan, eller kryp</a>'
                    ' – du måste <i>ta in</i> allt du kan; annars får du <i>krypa</i></li><li value="8">'
                    '<a href="08_puzzles.ipynb">Kortproblem</a> – <i>kortproblem</i>: vad måste du ta, tvångstabbe, '
                    'det säkraste kortet, en dukning, ett slutspel – datorn bevisar svaren</li></ol>')
    assert named["07_play"] == "7 · Spela en giv" and named["01_cards"] == "1 · Korten och deras värden"
    # every lesson has a Swedish title and description, and keeps its file name
    with use_language("sv"):
        for lesson in LESSONS:
            assert lesson.shown_title != lesson.title and lesson.shown_about != lesson.about, lesson.number
    assert titles()["03_take_all"] == "3 · Take all you can, or creep"
    assert "Take all you can, or creep" in lesson_list_html() and language() == "en"


def test_a_kasino_puzzle_s_result_is_a_whole_sentence_in_both_languages():
    """Issue 19: the result of a Kasino puzzle was a piece ("du tar 2 poäng mer …") put after
    "efter {move}", which broke Swedish word order ("efter J♥ tar 5♠+6♦ du tar …"). Each frame
    is now one whole message: Swedish puts the verb second ("… tar du 2 poäng mer …")."""
    from krypteach.teaching.puzzles import check_answer, load_puzzles, solve
    from krypteach.teaching.puzzles.kasino import kasino_result_words

    def words(v, lang):  # the comparison, as the catalogs say it
        n = abs(v)
        if lang == "sv":
            return f"tar du {n} poäng {'mer' if v > 0 else 'mindre'} än motståndaren"
        return f"you take {n} point{'s' if n != 1 else ''} {'more' if v > 0 else 'fewer'} than your opponent"

    def unique_with_one_other(q):
        sol = solve(q)
        return len(sol.answers) == 1 and len(sol.options) == 2 and 0 not in sol.options.values()

    p = next(q for q in load_puzzles(game="kasino") if q.kind == "kasino-take-or-raise" and unique_with_one_other(q))
    sol = solve(p)
    [best] = sol.answers
    [other] = set(sol.options) - {best}
    vb, vo = sol.options[best], sol.options[other]
    with use_language("sv"):
        b, o = Move.parse(best).describe(), Move.parse(other).describe()
        why = solve(p).explanation
        wrong = check_answer(p, other)
    assert why == (f"Om ni båda spelar så bra ni kan {words(vb, 'sv')} efter draget {b}. "
                   f"Andra första drag: efter draget {o} {words(vo, 'sv')}.")
    assert wrong == (False, f"Inte bäst: efter draget {o} {words(vo, 'sv')}. {why}")
    b, o = Move.parse(best).describe(), Move.parse(other).describe()
    assert solve(p).explanation == (
        f"With the best play from both of you, after {b}, {words(vb, 'en')}. "
        f"Other first moves: after {o}, {words(vo, 'en')}.")
    assert check_answer(p, other)[1].startswith(f"Not the best: after {o}, {words(vo, 'en')}. With the best")
    # several equally good moves, one point (singular in English), and a draw
    with use_language("sv"):
        moves = _(" and ").join((Move.parse("5S:2S+3S").describe(), Move.parse("7D").describe()))
        assert kasino_result_words(-1, "tied", moves=moves) == (
            f"{moves} är lika bra: om ni båda spelar så bra ni kan tar du 1 poäng mindre än motståndaren.")
        assert kasino_result_words(0, "best", move=b) == (
            f"Om ni båda spelar så bra ni kan tar du lika många poäng som motståndaren efter draget {b}.")
    assert kasino_result_words(1, "after", move=b) == f"after {b}, you take 1 point more than your opponent"
    assert kasino_result_words(0, "not-best", move=b) == (
        f"Not the best: after {b}, you take as many points as your opponent.")
    with pytest.raises(ValueError, match="no frame"):
        kasino_result_words(1, "before", move=b)
