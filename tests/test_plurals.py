"""A count before a noun reads right for one and for more (ngettext): "1 card", "2 cards".

Each text is built by the function that shows it, with a count of 1 and of 2, in English,
and one form of each in Swedish."""

from __future__ import annotations

from collections import Counter

from krypteach import Giv, Parti, Rules
from krypteach.classroom.store import ClassOverview
from krypteach.engine.cards import parse_cards
from krypteach.i18n import use_language
from krypteach.serve.gate import ClassGate
from krypteach.serve.teacher import teacher_page
from krypteach.site.build import SiteResult
from krypteach.teaching.narrate import describe_result
from krypteach.teaching.puzzles import Puzzle, solve
from krypteach.views.game_table import downloads_html, kasino_final_html, krypkasino_final_html, side_html
from krypteach.views.html import giv_html

NAMES = ["You", "Bea"]


# --- views: the talong, the last sweep, the parti's download ------------------------------

def _drawing_giv(stock: int) -> Giv:
    """Dragkasino: every play draws one card, so the talong counts down one by one."""
    g = Giv(Rules(game="kasino", draw=True), seed=1)
    while g.stock_size > stock:
        g.play(g.legal_moves()[0])
    assert g.stock_size == stock
    return g


def test_the_talong_beside_the_table_and_in_the_header():
    one, two = _drawing_giv(1), _drawing_giv(2)
    assert "stock (talong): 1 card<" in side_html(one)
    assert "stock (talong): 2 cards<" in side_html(two)
    assert "utdelning 40 of 41 · stock 1 card<" in giv_html(one)
    assert "utdelning 39 of 41 · stock 2 cards<" in giv_html(two)
    with use_language("sv"):
        assert "talong: 1 kort<" in side_html(one) and "utdelning 40 av 41 · talong: 1 kort<" in giv_html(one)


def _swept_krypkasino(table: str) -> Giv:
    """5♥ takes 5♠, 9♣ creeps: the giv is over and you sweep what is left."""
    g = Giv.from_position([["5H"], ["9C"]], parse_cards(table))
    g.play("5H:5S")
    g.play("9C")
    assert g.is_over
    return g


def test_the_last_sweep_of_a_krypkasino_giv():
    one = krypkasino_final_html(_swept_krypkasino("5S"), NAMES, "")
    two = krypkasino_final_html(_swept_krypkasino("5S 7D"), NAMES, "")
    assert "You captured last and took the 1 card left on the table and in klädda högen (none of them score)." in one
    assert "You captured last and took the 2 cards left on the table and in klädda högen (none of them score)." in two
    with use_language("sv"):
        assert ("You tog in sist och fick 1 kort som låg kvar på bordet och i klädda högen (inget av dem ger poäng)."
                in krypkasino_final_html(_swept_krypkasino("5S"), NAMES, ""))


def test_the_last_sweep_of_a_kasino_giv():
    def swept(table: str) -> str:
        g = Giv.from_position([["5H"], ["9C"]], parse_cards(table), rules=Rules(game="kasino"))
        g.play("5H:5S")
        g.play("9C")
        return kasino_final_html(g, NAMES, "")
    assert "You captured last and took the 1 card left on the table." in swept("5S")
    assert "You captured last and took the 2 cards left on the table." in swept("5S 7D")
    with use_language("sv"):
        assert "You tog in sist och fick de 2 kort som låg kvar på bordet." in swept("5S 7D")


def test_the_download_of_a_parti_of_one_giv_and_of_two():
    one = Parti(Rules(game="kasino", target=1), seed=1)  # any point ends it: one giv
    one.giv.play_out(lambda g: g.legal_moves()[0])
    assert one.is_over and len(one.givar) == 1
    assert ">Download the parti's 1 giv (parti-1-givar.jsonl)</a>" in downloads_html(one, one.giv)
    two = Parti(Rules(givar=2), seed=1)
    two.giv.play_out(lambda g: g.legal_moves()[0])
    two.next_giv()
    two.giv.play_out(lambda g: g.legal_moves()[0])
    assert ">Download the parti's 2 givar (parti-2-givar.jsonl)</a>" in downloads_html(two, two.giv)
    with use_language("sv"):
        assert ">Ladda ner partiets 1 giv (parti-1-givar.jsonl)</a>" in downloads_html(one, one.giv)


# --- teaching: card points, equally safe cards --------------------------------------------

def test_card_points_in_the_scoring_of_a_giv():
    one = describe_result(_swept_krypkasino("5S").result, NAMES)  # 5♠: one card point
    assert "You: 1 card point + 1 tabbe mark × +5 = 6." in one and "Bea: 0 card points = 0." in one
    two = Giv.from_position([["2S"], ["9C"]], parse_cards("2H 7D"))  # 2♠: two card points
    two.play("2S:2H")
    two.play("9C")
    assert "You: 2 card points = 2." in describe_result(two.result, NAMES)
    with use_language("sv"):
        assert "Du: 1 kortpoäng + 1 tabbe × +5 = 6." in describe_result(_swept_krypkasino("5S").result, ["Du", "Bea"])


def test_equally_safe_cards_of_one_point_and_of_two():
    def explained(hand: str, table: str) -> str:
        p = Puzzle("t", "safest-card", "easy", parse_cards(hand), parse_cards(table), answers=(),
                   rules=Rules(forced_tabbe=False))
        return solve(p).explanation
    assert explained("5H 5D", "5S 2C").startswith("5♥ and 5♦ are equally safe (1 point). ")
    assert explained("2C 2D", "2S 9H").startswith("2♦ and 2♣ are equally safe (2 points). ")
    with use_language("sv"):
        assert explained("5H 5D", "5S 2C").startswith("5♥ och 5♦ är lika säkra (1 poäng). ")


# --- serve: the class's themes, a full class, the static site -------------------------------

def _overview(moves: int) -> ClassOverview:
    return ClassOverview(learners=[], lessons=[], grid={}, most_failed=[], rules=Counter(), givar={},
                         last_seen={}, quality={1: (1, 0.5)}, themes=[("tabbe", 1.0, moves, 1)])


def test_the_points_the_class_lost_in_one_move_and_in_two():
    # the points always have a decimal (1.0 points); the moves are counted
    assert "1.0 points lost in 1 move, by 1 learner" in teacher_page(_overview(1), "K7RPX", "", {})
    assert "1.0 points lost in 2 moves, by 1 learner" in teacher_page(_overview(2), "K7RPX", "", {})
    with use_language("sv"):
        assert "1,0 poäng förlorade i 1 drag, av 1 elev" in teacher_page(_overview(1), "K7RPX", "", {})


def _full(max_kernels: int) -> str:
    gate = ClassGate(code="K7RPX", max_kernels=max_kernels)
    pages = []
    for n in range(max_kernels):  # a browser each, from a computer each
        client, address = f"b{n}", f"10.0.0.{n + 1}"
        assert gate.may_open_page(client, pages, address).ok
        gate.opening(client, address)
        pages.append(f"k{n}")
        gate.claim(f"k{n}", client)
        gate.opened(client)
    verdict = gate.may_open_page("late", pages, "10.0.1.1")
    assert not verdict.ok and verdict.status == 503 and verdict.page == "full"
    return verdict.reason


def test_a_full_class_of_one_page_and_of_two():
    assert _full(1) == "the class is full (1 page open)"
    assert _full(2) == "the class is full (2 pages open)"
    with use_language("sv"):
        assert _full(1) == "klassen är full (1 sida öppen)"


def test_a_static_site_of_one_lesson_page_and_of_two(tmp_path):
    def summary(pages: list[str]) -> str:
        return SiteResult(out=tmp_path, pages=pages, pyodide="cdn", packages=[], size=1_500_000).summary()
    assert summary(["00_start.ipynb"]).startswith(f"site written to {tmp_path}: 1 lesson page, 1.5 MB, ")
    assert summary(["00_start.ipynb", "01_cards.ipynb"]).startswith(f"site written to {tmp_path}: 2 lesson pages, ")
    with use_language("sv"):
        assert summary(["00_start.ipynb"]).startswith(f"webbplatsen skrevs till {tmp_path}: 1 lektionssida, ")


# --- widgets: counting points, the capture hint, the puzzle trainers -----------------------

def test_the_count_of_card_points_in_the_exercise():
    from krypteach.widgets.exercises.count_points import CountPointsExercise

    def right(pile: str) -> str:
        ex = CountPointsExercise(pile)
        ex.points.value = str(ex.expected)
        ex.check()
        return ex.message
    assert right("5S 9H").startswith("Right: 1 card point = 1.")
    assert right("2S 9H").startswith("Right: 2 card points = 2.")
    with use_language("sv"):
        assert right("5S 9H").startswith("Rätt: 1 kortpoäng = 1.")


def _capture_hint(card: str) -> str:
    """Seed 1 under the free capture rule: 3♦ can take 3♥ only, 10♠ 3♥+7♠ or 3♥+7♣ (or creep)."""
    from krypteach.widgets.game_table import GameTable

    table = GameTable(Rules(capture="free"), seed=1)
    table.select_hand(card)
    return table.status_text()


def test_a_card_that_can_capture_in_one_way_and_in_two():
    assert _capture_hint("3D").startswith("Your 3♦ can capture in 1 way: 3♦ takes 3♥; ")
    assert _capture_hint("10S").startswith("Your 10♠ can capture in 2 ways: 10♠ takes 3♥+7♠; ")
    with use_language("sv"):
        assert _capture_hint("3D").startswith("Din 3♦ kan ta in på 1 sätt: ")


def _one_puzzle(name: str) -> Puzzle:
    return Puzzle(name, "what-must-you-take", "easy", parse_cards("9H"), parse_cards("9S 2C 5D 7H"),
                  answers=("2C+7H+9S",))


def test_the_puzzles_solved_of_one_and_of_two():
    from krypteach.widgets.puzzle_widget import PuzzleTrainer

    assert "Solved: 0 of 1 puzzle, at the first try or after a hint" in PuzzleTrainer([_one_puzzle("a")]).progress.value
    two = PuzzleTrainer([_one_puzzle("a"), _one_puzzle("b")])
    assert "Solved: 0 of 2 puzzles, at the first try or after a hint" in two.progress.value
    with use_language("sv"):
        assert "Lösta: 0 av 1 problem, " in PuzzleTrainer([_one_puzzle("a")]).progress.value


def test_the_rating_line_after_one_puzzle_and_after_two(keep_progress):
    keep_progress("08_puzzles")  # a signed-in learner: the ratings come from the attempts kept
    from krypteach.widgets.practice_widget import PracticeTrainer

    t = PracticeTrainer(seed=1)
    t.show_answer()  # a shown answer is an answer (missed)
    assert t.practice.answered == 1
    rating = round(t.practice.overall.rating)
    assert f'aria-label="Your rating after 1 puzzle: {rating:,}."' in t.stats.value
    with use_language("sv"):
        t._show_stats()
        assert f'aria-label="Ditt ratingtal efter 1 problem: {rating:,}."'.replace(",", "\u00a0") in t.stats.value
    t._show_stats()
    t.next_puzzle()
    t.show_answer()
    assert t.practice.answered == 2
    assert 'aria-label="Your rating after each of your last 2 puzzles: from ' in t.stats.value
