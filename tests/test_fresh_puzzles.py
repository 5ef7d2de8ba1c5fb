"""Puzzles without end (issue 23): made on demand, proved, named by an id they are made again
from, tagged with the rules they train."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from krypteach import parse_cards
from krypteach.engine.rules import Rules
from krypteach.teaching.puzzles import Puzzle, PuzzleError, generate, load_puzzles, verify
from krypteach.teaching.puzzles.fresh import (
    FRESH,
    MADE_AS,
    THEME_WORDS,
    THEMES,
    estimated_rating,
    fresh_puzzle,
    is_generated,
    offered_themes,
    puzzle_from_id,
    themes_of,
)
from krypteach.teaching.puzzles.prove import check_answer, judge, kladda_decides, needs_tvangstabbe, solve


@pytest.mark.parametrize(("preset", "kind", "level"), FRESH)
def test_every_kind_and_level_made_on_demand_is_proved_and_made_again_from_its_id(preset, kind, level):
    p = fresh_puzzle(kind, level, 3, preset)
    assert (p.kind, p.difficulty) == (MADE_AS.get(kind, kind), level)
    assert verify(p) == []  # the solver proves its answers
    assert p.answers
    assert is_generated(p.id) and puzzle_from_id(p.id) == p
    themes = themes_of(p)
    assert themes and set(themes) <= set(THEMES)
    assert p.rules.lowest_wins == (preset == "avig-kasino") or kind not in ("kasino-endgame",)


def test_the_stock_never_runs_out_and_numbers_give_new_puzzles():
    made = {fresh_puzzle("which-card", "medium", n) for n in range(40)}
    assert len({(p.hand, p.table) for p in made}) >= 38
    assert fresh_puzzle("endgame", "easy", 5) == fresh_puzzle("endgame", "easy", 5)


@pytest.mark.parametrize("pid", ["gen/krypkasino/which-card/easy/x", "gen/krypkasino/which-card/easy/-1",
                                 "gen/kasino/kasino-steal/hard/1", "gen/chess/which-card/easy/1", "which-card-easy-99",
                                 "", "gen/krypkasino/which-card/easy/99999999999"])
def test_an_id_that_names_no_puzzle_is_a_clear_error(pid):
    with pytest.raises(PuzzleError, match="not a puzzle id"):
        puzzle_from_id(pid)


def test_a_kind_or_level_not_made_and_a_bad_number_are_clear_errors():
    with pytest.raises(PuzzleError, match="no kasino-steal puzzles at level hard"):
        fresh_puzzle("kasino-steal", "hard", 1)
    with pytest.raises(PuzzleError, match="whole number"):
        fresh_puzzle("which-card", "easy", -2)
    with pytest.raises(PuzzleError, match="whole number"):
        fresh_puzzle("which-card", "easy", True)


def test_shipped_ids_are_found_too():
    for p in load_puzzles(game="all"):
        assert puzzle_from_id(p.id) == p
        assert not is_generated(p.id)


def test_themes_from_the_kind_and_the_position():
    take = Puzzle("d", "what-must-you-take", "easy", parse_cards("9H"), parse_cards("9S 2C 5D 7H"),
                  answers=("2C+7H+9S",))
    assert themes_of(take) == ("take-all", "traffar")  # 9 and 2+7: two träffar
    one = Puzzle("d", "what-must-you-take", "easy", parse_cards("9H"), parse_cards("9S 3C 5D"), answers=("9S",))
    assert themes_of(one) == ("take-all",)
    by_kind = {p.kind: themes_of(p) for p in load_puzzles(game="all")}
    assert by_kind["which-card"] == ("tvangstabbe",)
    assert by_kind["kasino-take-or-raise"] == ("owner-duty", "build")
    assert by_kind["kasino-steal"] == ("build", "build-steal")
    # a rule is a theme where the answer rests on it: tvångstabbe in the medium and hard dukningar
    # (the next player holds two or three cards), not in the easy ones (one card, which can take only
    # the whole table); klädda högen in the one shipped endgame whose best move it changes
    dukningar = [p for p in load_puzzles() if p.kind == "set-up-dukning"]
    assert {p.id: themes_of(p) for p in dukningar} == {
        p.id: ("dukning",) if p.difficulty == "easy" else ("dukning", "tvangstabbe") for p in dukningar}
    endgames = [p for p in load_puzzles() if p.kind == "endgame"]
    assert all(p.kladda for p in endgames)
    assert {p.id: themes_of(p) for p in endgames} == {
        p.id: ("endgame", "kladda") if p.id == "endgame-medium-02" else ("endgame",) for p in endgames}
    kasino_end = [p for p in load_puzzles(game="kasino") if p.kind == "kasino-endgame"]
    from krypteach.engine.builds import Build

    with_build = [p for p in kasino_end if any(isinstance(x, Build) for x in p.table)]
    assert with_build and len(with_build) < len(kasino_end)  # the shipped set has both
    assert all(("build" in themes_of(p)) == (p in with_build) for p in kasino_end)
    assert set(THEME_WORDS) == set(THEMES)


def test_tvangstabbe_is_a_dukning_puzzles_theme_only_where_must_capture_alone_would_not_do():
    # the next player's one card, an ace, takes the whole table (4+9+A make 14), but must-capture
    # alone would let it take the ace only (4+9 is no träff of an ace): tvångstabbe decides
    ace = Puzzle("d", "set-up-dukning", "easy", parse_cards("6H"), parse_cards("4D 6S AS 9C"), next_hand=parse_cards("AC"))
    assert sorted(solve(ace).answers) == ["6H:6S"]
    assert needs_tvangstabbe(ace) and themes_of(ace) == ("dukning", "tvangstabbe")
    # a five, whose only träff on 5 is the whole table: must-capture alone takes it all
    five = Puzzle("d", "set-up-dukning", "easy", parse_cards("4S 2H"), parse_cards("4S 5D"), next_hand=parse_cards("5C"))
    assert sorted(solve(five).answers) == ["4S:4S"]
    assert not needs_tvangstabbe(five) and themes_of(five) == ("dukning",)


def test_whether_a_dukning_needs_tvangstabbe_follows_the_puzzles_capture_and_ace_rules():
    # A♦ creeps on 6+5+2, and the next player's A♥ (14) can take 6+5+2+A♦ whole. Taking all it can
    # (maximal) would also let it take A♦ alone; taking the most cards (maximum) would not
    by_rules = {}
    for rules in (Rules(), Rules(capture="maximum")):
        creep = Puzzle("d", "set-up-dukning", "easy", parse_cards("AD JS"), parse_cards("6S 5D 2C"),
                       next_hand=parse_cards("AH"), rules=rules)
        assert sorted(solve(creep).answers) == ["AD"]
        by_rules[rules.capture] = themes_of(creep)
    assert by_rules == {"maximal": ("dukning", "tvangstabbe"), "maximum": ("dukning",)}
    # 9♣ takes 2+7 and leaves A♦, which the next player's A♠ takes whole under any rule. Where an
    # ace counts 1 only, 5♣ creeping would leave A♠ only A♦ to take (14 = 2+7+5 is no more), so no
    # move but the answer holds the next player to the tabbe, and tvångstabbe decides nothing
    aces = Puzzle("d", "set-up-dukning", "easy", parse_cards("9C 5C"), parse_cards("2C 7C AD"),
                  next_hand=parse_cards("AS"), rules=Rules(ace="1"))
    assert sorted(solve(aces).answers) == ["9C:2C+7C"] and not needs_tvangstabbe(aces)


def test_kladda_is_an_endgames_theme_only_where_emptying_it_changes_the_best_move():
    decided = puzzle_from_id("endgame-medium-02")
    assert kladda_decides(decided)
    assert not kladda_decides(replace(decided, kladda=()))
    assert not kladda_decides(puzzle_from_id("endgame-easy-01"))


def test_a_move_that_forgets_klaedda_hoegen_is_told_so():
    """endgame-medium-02: 3♥ creeps would be as good as Q♥ takes A♣+J♥ were klädda högen empty; with
    its jack of spades (1 point) it is 2 points worse, and the feedback says why. Q♠ takes A♣+J♥
    is worse either way: nothing is said of klädda högen."""
    from krypteach.i18n import use_language

    p = puzzle_from_id("endgame-medium-02")
    ok, why = check_answer(p, "3H")
    assert not ok and why.startswith(
        "Not the best: 3♥ creeps ends the giv with 5 points fewer than your opponent (better). It would be as good "
        "as any were klädda högen empty, but klädda högen (K♥ J♦ Q♣ J♣ J♠ Q♦ K♥, 1 point) goes to the last player "
        "to take in, and that decides here. With the best play")
    assert judge(p, "3H").rule == "kladda"  # kept with the attempt: the teacher sees the rule it broke
    ok, why = check_answer(p, "QS:AC+JH")
    assert not ok and "klädda högen" not in why and judge(p, "QS:AC+JH").rule is None
    assert check_answer(p, "QH:AC+JH")[0]
    with use_language("sv"):
        assert "men klädda högen (K♥ J♦ Q♣ J♣ J♠ Q♦ K♥, 1 poäng) går till den som tar in sist" in check_answer(p, "3H")[1]


def test_who_took_in_last_counts_when_klaedda_hoegen_is_set_aside_too():
    """10♥ 5♦ against A♠ 3♠ on 6♣ 9♦ 7♠, klädda högen J♠. Where nobody has taken in yet, 10♥ creeping
    would be as good as 5♦ were klädda högen empty; where you took in last, the table's last cards
    would come to you after 10♥ creeps, so it is worse even then, and klädda högen is not the reason."""
    nobody = Puzzle("d", "endgame", "easy", parse_cards("10H 5D"), parse_cards("6C 9D 7S"),
                    next_hand=parse_cards("AS 3S"), kladda=parse_cards("JS"))
    assert sorted(solve(nobody).answers) == ["5D"]
    forgot = judge(nobody, "10H")
    assert forgot.rule == "kladda" and "It would be as good as any were klädda högen empty" in forgot.why
    you = replace(nobody, last_capturer=0)
    assert sorted(solve(you).answers) == ["5D"]
    worse = judge(you, "10H")
    assert not worse.ok and worse.rule is None and "klädda högen" not in worse.why


def test_endgames_that_klaedda_hoegen_decides_are_made_on_purpose():
    for level in ("easy", "medium", "hard"):
        for n in range(3):
            p = fresh_puzzle("endgame-kladda", level, n)
            assert p.kind == "endgame" and p.id == f"gen/krypkasino/endgame-kladda/{level}/{n}"
            assert kladda_decides(p) and themes_of(p) == ("endgame", "kladda")
            assert puzzle_from_id(p.id) == p
    with pytest.raises(PuzzleError, match="only an endgame can be made for klädda högen"):
        generate("which-card", "easy", kladda=True)
    with pytest.raises(PuzzleError, match="no endgame-kladda puzzles at level easy of kasino"):
        fresh_puzzle("endgame-kladda", "easy", 1, "kasino")


def test_the_first_rating_grows_with_the_level_and_the_position():
    easy = estimated_rating(fresh_puzzle("safest-card", "easy", 1))
    hard = estimated_rating(fresh_puzzle("safest-card", "hard", 1))
    assert easy < 1500 < hard
    small = Puzzle("d", "which-card", "medium", parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"))
    big = Puzzle("d", "which-card", "medium", parse_cards("10S 4H 5C 6D"), parse_cards("AH 7C 3D 9S 2C 2D"))
    assert estimated_rating(big) - estimated_rating(small) == 20.0 * 2  # ten cards: two beyond eight


@pytest.mark.parametrize(("preset", "kind", "level"), FRESH)
def test_the_themes_offered_before_a_puzzle_is_made_are_the_made_puzzles_own(preset, kind, level):
    """offered_themes (what the trainer sees before it makes a generated puzzle) never promises a
    theme the puzzle made does not train."""
    for n in range(2):
        made = themes_of(fresh_puzzle(kind, level, n, preset))
        assert set(offered_themes(kind, level)) <= set(made), (n, made)


def test_the_shipped_puzzles_themes_file_is_what_their_positions_give():
    """krypteach/data/puzzle_themes.json saves a lesson page solving endgames as it opens; after a
    change to the puzzles or to how themes are found, write it again with
    ``python -c "from krypteach.teaching.puzzles.fresh import write_shipped_themes; write_shipped_themes()"``."""
    from krypteach.teaching.puzzles import fresh

    found = fresh.shipped_themes_found()
    assert {pid: list(t) for pid, t in fresh._shipped_themes().items()} == found
    assert set(found) == {p.id for p in load_puzzles(game="all")}


def test_a_puzzle_that_is_not_the_shipped_one_of_its_id_has_its_themes_found_again():
    shipped = puzzle_from_id("endgame-medium-02")
    assert themes_of(shipped) == ("endgame", "kladda")
    emptied = replace(shipped, kladda=())  # the same id, klädda högen empty: nothing for it to decide
    assert themes_of(emptied) == ("endgame",)


def test_the_themes_file_written_again_is_read_back(tmp_path):
    from krypteach.teaching.puzzles import fresh

    where = fresh.write_shipped_themes(str(tmp_path / "themes.json"))
    doc = json.loads(Path(where).read_text(encoding="utf-8"))
    assert doc["format"] == "krypteach-puzzle-themes/1" and doc["themes"]["endgame-medium-02"] == ["endgame", "kladda"]
