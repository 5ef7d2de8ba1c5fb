"""The puzzle generator's ids, its refusals, its first ratings and the shipped themes file, pinned where
mutation testing found no test reading them (docs/mutation/practice.md, "The generator's own module:
teaching/puzzles/fresh.py")."""

from pathlib import Path

import pytest

from krypteach import parse_cards
from krypteach.teaching.puzzles import Puzzle, PuzzleError
from krypteach.teaching.puzzles.fresh import (
    FRESH,
    _shipped_themes,
    estimated_rating,
    first_guess,
    fresh_puzzle,
    made_by,
    puzzle_from_id,
    themes_of,
    write_shipped_themes,
)


def test_a_generated_puzzles_id_holds_a_number_of_at_most_nine_digits_and_anything_else_is_no_id():
    assert made_by("gen/krypkasino/which-card/hard/123456789") == "which-card"
    assert made_by("gen/krypkasino/which-card/hard/1234567890") is None
    with pytest.raises(PuzzleError) as refused:
        puzzle_from_id("gen/krypkasino/which-card/hard/1234567890")
    assert str(refused.value) == ("not a puzzle id: 'gen/krypkasino/which-card/hard/1234567890' (a shipped "
                                  "puzzle's, or gen/<preset>/<kind>/<level>/<number>)")
    assert made_by(None) is None and made_by(7) is None  # type: ignore[arg-type]  # e.g. a damaged record


def test_a_kind_no_generator_makes_is_refused_with_every_one_it_could_be():
    with pytest.raises(PuzzleError) as refused:
        fresh_puzzle("kasino-steal", "hard", 1)
    said = str(refused.value)
    start = "no kasino-steal puzzles at level hard of kasino are made: choose one of "
    assert said.startswith(start + "what-must-you-take easy (krypkasino), what-must-you-take medium (krypkasino), ")
    assert said.endswith(", kasino-endgame medium (avig-kasino), kasino-endgame hard (avig-kasino)")
    listed = said.removeprefix(start).split(", ")
    assert len(listed) == len(FRESH) == len(set(listed))
    assert all(f"{kind} {level} ({preset})" in listed for preset, kind, level in FRESH)


def test_a_puzzles_first_rating_counts_the_next_players_hand_and_a_generators_kind_is_the_puzzles():
    p = fresh_puzzle("endgame-kladda", "hard", 1)
    assert (p.kind, len(p.hand), len(p.table), len(p.next_hand)) == ("endgame", 4, 5, 4)
    assert estimated_rating(p) == 1800 + 150 + 20 * (4 + 5 + 4 - 8)
    assert first_guess("endgame-kladda", "hard") == first_guess("endgame", "hard") == 1950.0
    assert first_guess("which-card", "easy") == 1100.0 and first_guess("kasino-take-or-raise", "medium") == 1600.0


def test_a_take_all_puzzle_whose_answer_is_to_creep_trains_take_all_alone():
    creep = Puzzle("d", "what-must-you-take", "easy", parse_cards("9H"), parse_cards("3C 5D"), answers=("creep",))
    assert themes_of(creep) == ("take-all",)


def test_the_shipped_themes_are_written_by_default_to_the_file_they_are_read_from():
    from krypteach.teaching.puzzles import fresh

    shipped = Path(str(fresh.resources.files("krypteach").joinpath("data", "puzzle_themes.json")))
    before = shipped.read_bytes()
    try:
        assert Path(write_shipped_themes()) == shipped
        assert shipped.read_bytes() == before  # the shipped file is what the positions give (test_fresh_puzzles.py)
        assert _shipped_themes()["which-card-easy-01"] == ("tvangstabbe",)
    finally:
        shipped.write_bytes(before)
        _shipped_themes.cache_clear()
