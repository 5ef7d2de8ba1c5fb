"""Build puzzles of classic Kasino and avig kasino: every shipped one is proved by the solver,
the solver agrees with an independent search, answers given as selections are judged, and
a broken build puzzle makes ``krypteach puzzles --check`` fail."""

from __future__ import annotations

import html
import json
import random
from collections import Counter

import pytest

from krypteach import Giv, Move, Rules, parse_cards
from krypteach.cli import main
from krypteach.engine.builds import Build, parse_table
from krypteach.engine.games.kasino import KASINO_POINTS
from krypteach.teaching.puzzles import (
    FORMAT,
    KASINO_KINDS,
    KINDS,
    Puzzle,
    PuzzleError,
    check_answer,
    check_puzzles,
    load_puzzles,
    make_kasino_set,
    solve,
    verify,
)
from krypteach.teaching.puzzles.kasino import generate_kasino

KASINO = load_puzzles(game="kasino")


def test_at_least_twenty_build_puzzles_every_one_proved():
    assert len(KASINO) >= 20
    counts, problems = check_puzzles(KASINO)
    assert problems == []
    assert set(counts) == set(KASINO_KINDS)
    assert {p.rules.game for p in KASINO} == {"kasino"}
    assert {p.rules.lowest_wins for p in KASINO} == {False, True}  # classic Kasino and avig kasino
    assert all(verify(p) == [] for p in KASINO)
    assert not {p.kind for p in load_puzzles()} & set(KASINO_KINDS)  # lesson 08's set is unchanged


def test_every_build_puzzle_is_about_builds():
    for p in KASINO:
        g = Giv.from_position([p.hand, p.next_hand], list(p.table), rules=p.rules)
        assert any(isinstance(x, Build) for x in p.table) or any(m.value is not None for m in g.legal_moves()), p.id


def test_the_shipped_file_is_the_generator_s_and_round_trips():
    again = make_kasino_set()  # the default seed is the shipped file's (2026)
    assert again == KASINO
    for p in KASINO:
        assert Puzzle.from_dict(json.loads(json.dumps(p.to_dict()))) == p


def test_generate_kasino_proves_its_answer_and_gives_up_after_max_tries():
    p = generate_kasino("kasino-steal", "easy", random.Random(3), Rules(game="kasino"), "g")
    assert p.id == "g" and verify(p) == [] and len(p.answers) == 1
    with pytest.raises(PuzzleError, match=r"^could not generate a easy kasino-steal puzzle in 0 tries$"):
        generate_kasino("kasino-steal", "easy", random.Random(3), Rules(game="kasino"), "g", max_tries=0)


def opponent_steals(p, move):
    """Does any legal reply of the opponent take or build on the build ``move`` makes? (the engine, via a Giv)"""
    g = Giv.from_position([p.hand, p.next_hand], list(p.table), rules=p.rules)
    g.play(move)
    build = g.table[-1]
    return any(r.capture and set(build.cards) <= set(r.capture) for r in g.legal_moves())


@pytest.mark.parametrize("p", [p for p in KASINO if p.kind in ("kasino-safe-build", "kasino-steal")],
                         ids=lambda p: p.id)
def test_safe_and_stolen_builds_by_playing_them(p):
    g = Giv.from_position([p.hand, p.next_hand], list(p.table), rules=p.rules)
    builds = [m for m in g.legal_moves() if m.kind == "build"]
    stolen = {str(m) for m in builds if opponent_steals(p, m)}
    safe = {str(m) for m in builds} - stolen
    assert set(p.answers) == (safe if p.kind == "kasino-safe-build" else stolen)
    assert len(p.answers) == 1 and len(builds) >= 2


def naive_value(g):
    """Seat 0's points minus seat 1's at the end of the giv, both playing their best: every line
    played out with Giv.play and scored from the piles (no memo, no deltas)."""
    if g.is_over:
        pts = [sum(KASINO_POINTS[c] for c in g.piles[s]) + g.rules.tabbe_points * g.marks[s]
               + (g.rules.last_capture_point if g.last_capturer == s else 0) for s in range(2)]
        return pts[0] - pts[1]
    vals = []
    for m in g.legal_moves():
        g.play(m)
        vals.append(naive_value(g))
        g.pop()
    return (max if (g.turn == 0) != g.rules.lowest_wins else min)(vals)


@pytest.mark.parametrize("p", [p for p in KASINO if p.kind in ("kasino-take-or-raise", "kasino-endgame")],
                         ids=lambda p: p.id)
def test_searched_answers_agree_with_playing_every_line(p):
    g = Giv.from_position([p.hand, p.next_hand], list(p.table), rules=p.rules)
    g.last_capturer = p.last_capturer
    values = {}
    for m in g.legal_moves():
        g.play(m)
        values[str(m)] = naive_value(g)
        g.pop()
    assert values == solve(p).options
    best = (min if p.rules.lowest_wins else max)(values.values())
    assert {m for m, v in values.items() if v == best} == set(p.answers)


def test_take_or_raise_puzzles_offer_both():
    for p in (q for q in KASINO if q.kind == "kasino-take-or-raise"):
        mine = next(x for x in p.table if isinstance(x, Build) and x.owner == 0)
        moves = Giv.from_position([p.hand, p.next_hand], list(p.table), rules=p.rules).legal_moves()
        assert all(m.capture and mine.cards[0] in m.capture for m in moves)  # the owner's duty
        assert {m.kind for m in moves} == {"capture", "build"}
    kinds = Counter(Move.parse(p.answers[0]).kind for p in KASINO if p.kind == "kasino-take-or-raise")
    assert set(kinds) == {"capture", "build"}  # sometimes taking is best, sometimes raising


def test_answers_as_selections_are_judged():
    p = next(q for q in KASINO if q.kind == "kasino-safe-build")
    right = Move.parse(p.answers[0])
    ok, why = check_answer(p, Move(right.card, right.capture))  # a card and the table cards: the build is meant
    assert ok and why.startswith("Right")
    wrong = next(m for m in solve(p).options if m != p.answers[0])
    ok, why = check_answer(p, wrong)
    assert not ok and "steal" in why
    q = next(q for q in KASINO if q.kind == "kasino-endgame" and q.rules.lowest_wins)
    worse = next(m for m, v in solve(q).options.items() if m not in q.answers)
    ok, why = check_answer(q, worse)
    assert not ok and why.startswith("Not the best") and ("fewer" in why or "more" in why)


def test_the_prompt_names_builds_and_owners():
    p = Puzzle("x", "kasino-endgame", "easy", parse_cards("9D 3C QH"), parse_table("[9:4S+5H@0] 7D"),
               next_hand=parse_cards("AH 2C QS"), rules=Rules(game="kasino"))
    assert "[9: 4♠+5♥] (yours)" in p.prompt and "7♦" in p.prompt and "most points" in p.prompt


def test_a_wrong_rule_set_or_a_card_twice_is_refused():
    p = next(q for q in KASINO if q.kind == "kasino-steal")
    assert verify(Puzzle.from_dict({**p.to_dict(), "rules": {}}))  # Krypkasino rules: not a Kasino puzzle
    d = p.to_dict()
    assert verify(Puzzle.from_dict({**d, "next_hand": d["next_hand"][:-1] + [d["hand"][0]]}))  # one deck


def broken_copies():
    by_kind = {}
    for p in KASINO:
        by_kind.setdefault(p.kind, p)
    p = by_kind["kasino-safe-build"]
    yield "a stolen build stored as safe", {**p.to_dict(), "answers": [next(m for m in solve(p).options
                                                                            if m not in p.answers)]}
    p = by_kind["kasino-endgame"]
    options = solve(p).options
    worst = (max if p.rules.lowest_wins else min)(options, key=options.get)
    yield "endgame answer not the best", {**p.to_dict(), "answers": [worst]}
    p = by_kind["kasino-take-or-raise"]
    d = p.to_dict()
    yield "the build is the opponent's", {**d, "table": [x.replace("@0]", "@1]") for x in d["table"]]}


@pytest.mark.parametrize("what,broken", list(broken_copies()), ids=[w for w, _ in broken_copies()])
def test_a_broken_build_puzzle_makes_the_check_fail(tmp_path, capsys, what, broken):
    data = {"format": FORMAT, "puzzles": [p.to_dict() for p in KASINO]}
    idx = next(i for i, d in enumerate(data["puzzles"]) if d["id"] == broken["id"])
    data["puzzles"][idx] = broken
    path = tmp_path / "kasino_puzzles.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["puzzles", "--check", "--file", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and broken["id"] in out


def test_the_cli_check_covers_both_games(capsys):
    assert main(["puzzles", "--check"]) == 0
    out = capsys.readouterr().out
    for kind in (*KINDS, *KASINO_KINDS):
        assert kind in out
    assert f"{len(KASINO)} build puzzles" in out and f"{len(KASINO) + len(load_puzzles())} puzzles" in out


def test_the_puzzle_trainer_plays_build_puzzles_in_text_form():
    from krypteach.widgets.puzzle_widget import PuzzleTrainer

    t = PuzzleTrainer(KASINO, seed=3)
    assert [k for _, k in t.kind_filter.options][1:] == list(KASINO_KINDS)
    for kind in KASINO_KINDS:
        t.kind_filter.value = kind
        p = t.puzzle
        assert p.kind == kind
        assert t.table_row.cards == [str(x) for x in p.table]  # loose cards and builds, a build one item
        for x, svg in zip(p.table, t.table_row.svgs):
            if isinstance(x, Build):  # drawn as a group, with whose it is
                assert f'data-build="{x}"' in svg
                assert ("yours" if x.owner == 0 else "your opponent's") in html.unescape(svg)
                assert x.symbol in t.prompt_html.value  # and said in the question in text form
        right = Move.parse(p.answers[0])
        t.select_hand(right.card)
        t.select_table(right.capture or [])
        t.hint()  # before the answer: a hint (after a right answer it says the puzzle is solved)
        assert t.message.startswith("Hint")
        t.check()
        assert t.message.startswith("Right"), (p.id, t.message)
        t.show_answer()
        assert "Answer:" in t.message
        shown = t.answer()  # Show answer selects the answer's card and table items
        assert shown.card == right.card and sorted(shown.capture or ()) == sorted(right.capture or ())


def test_a_search_proved_at_its_own_position_only_gives_the_same_solution(monkeypatch):
    """A page checking a learner's answer searches with the engine's moves beyond the puzzle's own
    position (``full_proof=False``): the same answers, words and values as the full proof, and the
    puzzle's own position is still checked against the brute force."""
    from krypteach.engine import reference
    from krypteach.teaching.puzzles import PuzzleError, load_puzzles, solve

    slow = "kasino-take-or-raise-hard-01"  # 13.5 s fully proved; its proved answers are shipped with it
    for p in load_puzzles(game="kasino"):
        fast = solve(p, full_proof=False)
        if p.id == slow:
            assert fast.answers == frozenset(p.answers)
        else:
            full = solve(p)
            assert (fast.answers, fast.explanation, fast.options) == (full.answers, full.explanation, full.options), p.id
    endgame = next(p for p in load_puzzles(game="kasino") if p.kind == "kasino-endgame")
    monkeypatch.setattr(reference, "kasino_legal_moves", lambda *a, **k: set())  # the brute force disagrees
    with pytest.raises(PuzzleError, match="disagree"):
        solve(endgame, full_proof=False)
