"""Puzzles: the shipped set is proved by the solver, answers are checked, and a
broken puzzle makes ``krypteach puzzles --check`` fail."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from krypteach import Card, Move, Rules, capture_options, legal_moves, parse_cards, table_after
from krypteach.cli import main
from krypteach.teaching.puzzles import (
    DIFFICULTIES,
    FORMAT,
    KINDS,
    Puzzle,
    PuzzleError,
    check_answer,
    check_puzzles,
    generate,
    load_puzzles,
    save_puzzles,
    shipped_puzzles,
    solve,
    verify,
)
from krypteach.teaching.puzzles.prove import brute_captures

SHIPPED = load_puzzles()


def test_shipped_set_is_large_and_mixed():
    assert len(SHIPPED) >= 60
    kinds = Counter((p.kind, p.difficulty) for p in SHIPPED)
    assert {k for k, _ in kinds} == set(KINDS)
    assert {d for _, d in kinds} == set(DIFFICULTIES)
    assert min(kinds.values()) >= 3
    assert len({p.id for p in SHIPPED}) == len(SHIPPED)


def test_shipped_files_are_read_once_and_each_caller_gets_its_own_list(monkeypatch):
    from krypteach.teaching.puzzles import model

    first = load_puzzles(game="all")  # both files read (once; maybe earlier)
    first.clear()  # a caller's list is its own
    monkeypatch.setattr(model, "_read_puzzles", lambda *a: pytest.fail("a shipped file was read again"))
    again = load_puzzles()
    assert [p.id for p in again] == [p.id for p in SHIPPED] and again is not SHIPPED
    assert load_puzzles(game="all")[:len(SHIPPED)] == SHIPPED
    by_id = shipped_puzzles()
    assert by_id["which-card-easy-01"] is again[[p.id for p in again].index("which-card-easy-01")]
    assert len(by_id) == len(load_puzzles(game="all"))
    with pytest.raises(TypeError):
        by_id["x"] = SHIPPED[0]  # type: ignore[index]


def test_every_shipped_puzzle_is_proved():
    counts, problems = check_puzzles(SHIPPED)
    assert problems == []
    assert sum(counts.values()) == len(SHIPPED)


@pytest.mark.parametrize("p", SHIPPED, ids=[p.id for p in SHIPPED])
def test_shipped_puzzle_round_trips_and_its_answer_is_right(p):
    again = Puzzle.from_dict(json.loads(json.dumps(p.to_dict(), ensure_ascii=False)))
    assert again == p
    for answer in p.answers:
        ok, why = check_answer(p, answer)
        assert ok and why.startswith("Right")


def test_cli_check_passes_and_counts(capsys):
    assert main(["puzzles", "--check"]) == 0
    out = capsys.readouterr().out
    assert f"{len(SHIPPED)} puzzles" in out
    for kind in KINDS:
        assert kind in out


def broken_copies():
    by_kind = {p.kind: p for p in SHIPPED}
    d = by_kind["which-card"].to_dict()
    wrong = next(c for c in d["hand"] if c not in d["answers"])
    yield "wrong stored answer", {**d, "answers": [wrong]}
    p = by_kind["endgame"]
    options = solve(p).options
    yield "endgame answer not the best", {**p.to_dict(), "answers": [max(options, key=options.get)]}
    d = by_kind["safest-card"].to_dict()
    yield "a card three times", {**d, "hand": d["hand"] + [d["hand"][0], d["hand"][0]]}
    d = by_kind["set-up-dukning"].to_dict()
    yield "no answer stored", {**d, "answers": []}


@pytest.mark.parametrize("what,broken", list(broken_copies()), ids=[w for w, _ in broken_copies()])
def test_a_broken_puzzle_makes_the_check_fail(tmp_path, capsys, what, broken):
    data = json.loads(json.dumps({"format": FORMAT, "puzzles": [p.to_dict() for p in SHIPPED]}))
    idx = next(i for i, d in enumerate(data["puzzles"]) if d["id"] == broken["id"])
    data["puzzles"][idx] = broken
    path = tmp_path / "puzzles.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["puzzles", "--check", "--file", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and broken["id"] in out


def test_the_last_capturer_is_a_seat_and_old_files_still_read(tmp_path):
    endgames = [p for p in SHIPPED if p.kind == "endgame"]
    assert {p.last_capturer for p in endgames} <= {0, 1, None} and {0, 1} <= {p.last_capturer for p in endgames}
    # version 1 files named the last capturer "you" / "opponent": read as seats 0 / 1
    old = []
    for p in endgames:
        d = p.to_dict()
        d["last_capturer"] = {0: "you", 1: "opponent", None: None}[p.last_capturer]
        old.append(d)
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "krypteach-puzzles/1", "puzzles": old}), encoding="utf-8")
    assert load_puzzles(path) == endgames
    # names are not seats in the current format
    path.write_text(json.dumps({"format": FORMAT, "puzzles": old}), encoding="utf-8")
    with pytest.raises(PuzzleError, match=r"last_capturer='(you|opponent)' is not allowed"):
        load_puzzles(path)


def test_duplicate_ids_fail(tmp_path):
    save_puzzles(SHIPPED[:2] + SHIPPED[:1], tmp_path / "p.json")
    _, problems = check_puzzles(load_puzzles(tmp_path / "p.json"))
    assert any("used 2 times" in x for x in problems)


def test_not_unique_is_a_problem():
    # two different cards can take the table whole: not a which-card puzzle
    p = Puzzle("two", "which-card", "easy", parse_cards("7H 7S"), parse_cards("3C 4D"), answers=("7H", "7S"))
    assert solve(p).answers == {"7H", "7S"}
    assert any("not unique" in x for x in verify(p))


# --- each kind, by hand -------------------------------------------------------------

def test_what_must_you_take_with_several_maximal_captures():
    # 9 on 2 2 7 4 5: 2+7 and 4+5 (either two stays), or 2+2+5 (7 and 4 stay: 11 is no träff)
    p = Puzzle("m", "what-must-you-take", "hard", parse_cards("9H"), parse_cards("2C 2D 7S 4H 5D"))
    sol = solve(p)
    assert sol.answers == {"2C+4H+5D+7S", "2D+4H+5D+7S", "2D+2C+5D"}  # cards sort by rank, then S H D C
    assert not sol.unique and "any of them is right" in sol.explanation
    for a in sol.answers:
        assert check_answer(p, a)[0]
    assert check_answer(p, Move.parse("9H:" + next(iter(sol.answers))))[0]  # a move is accepted too
    assert not check_answer(p, "creep")[0]


def test_what_must_you_take_seed_example_and_symbols():
    p = Puzzle("s", "what-must-you-take", "easy", parse_cards("9H"), parse_cards("9S 2C 5D 7H"), answers=("2C+7H+9S",))
    assert verify(p) == []
    assert check_answer(p, "9♠ 7♥ 2♣")[0]
    ok, why = check_answer(p, "9S")
    assert not ok and "5♦ stays" in why
    ok, why = check_answer(p, "not cards")
    assert not ok and "Not an answer" in why


def test_which_card():
    p = Puzzle("w", "which-card", "easy", parse_cards("10S 4H 9C"), parse_cards("AH 7C 3D 9S"), answers=("10S",))
    assert verify(p) == []
    ok, why = check_answer(p, "9C")
    assert not ok and "10♠" in why and "Tvångstabbe" in why


def test_safest_card_counts_the_capturing_card_and_tabbe():
    # 2S must take 2H (lillan 2 p); 10D must take 10H (storan 3 p); 6C creeps (0 p)
    p = Puzzle("x", "safest-card", "easy", parse_cards("2S 10D 6C"), parse_cards("2H 10H 5C"), answers=("6C",))
    sol = solve(p)
    assert sol.options == {"2S": 2, "10D": 3, "6C": 0}
    assert verify(p) == []
    ok, why = check_answer(p, "2S")
    assert not ok and "gives you 2 points" in why


def test_set_up_dukning_answer_really_forces_the_next_player():
    for p in [q for q in SHIPPED if q.kind == "set-up-dukning"]:
        (answer,) = p.answers
        move = Move.parse(answer)
        table = table_after(p.table, move)
        # by the engine: the next player's every legal move takes the whole table
        nxt = legal_moves(p.next_hand, table, p.rules)
        assert nxt and all(m.capture is not None and sorted(m.capture) == sorted(table) for m in nxt), p.id
        for other in legal_moves(p.hand, p.table, p.rules):
            if other != move:
                assert not check_answer(p, str(other))[0]


def test_endgame_answer_is_the_exact_best():
    for p in [q for q in SHIPPED if q.kind == "endgame"]:
        sol = solve(p)
        (best,) = sol.answers
        assert sol.options[best] < min(v for m, v in sol.options.items() if m != best)
        ok, why = check_answer(p, best)
        assert ok and "With the best play from both of you" in why and "against your opponent" not in why
        assert re.search(r"ends the giv (with \d+ points? (fewer|more) than your opponent \((better|worse)\)|level with your opponent)", why), why
        worse = max(sol.options, key=sol.options.get)
        ok, why = check_answer(p, worse)
        assert not ok and "Not the best" in why


# --- the proof's own arithmetic agrees with the engine -------------------------------

def test_brute_force_captures_agree_with_the_engine():
    rng = random.Random(4)
    deck = [Card(i) for i in range(40)] * 2
    for rules in (Rules(), Rules(ace="1"), Rules(ace="14hand"), Rules(capture="maximum")):
        for _ in range(150):
            table = rng.sample(deck, rng.randint(1, 7))
            card = Card(rng.randrange(52))
            assert brute_captures(card, table, rules) == sorted(tuple(c) for c in capture_options(card, table, rules))


@pytest.mark.parametrize("kind", KINDS)
def test_generate_each_kind(kind):
    rng = random.Random(99)
    for diff in ("easy", "medium"):
        p = generate(kind, diff, rng)
        assert p.kind == kind and p.difficulty == diff
        assert verify(p) == []
        assert all(check_answer(p, a)[0] for a in p.answers)


def test_generate_gives_up_after_max_tries():
    rng = random.Random(5)
    with pytest.raises(PuzzleError, match=r"^could not generate a hard endgame puzzle in 0 tries$"):
        generate("endgame", "hard", rng, id="x", max_tries=0)
    assert rng.random() == random.Random(5).random()  # with an id given, no try draws from the stream


def test_bad_puzzles_raise_clear_errors():
    with pytest.raises(ValueError, match="unknown kind"):
        Puzzle("b", "riddle", "easy", parse_cards("9H"), parse_cards("9S"))
    with pytest.raises(ValueError, match="missing field"):
        Puzzle.from_dict({"id": "x", "kind": "which-card"})
    with pytest.raises(ValueError, match="not a card"):
        Puzzle.from_dict({"id": "x", "kind": "which-card", "difficulty": "easy", "hand": ["11H"], "table": []})


def test_a_set_up_dukning_answer_the_rules_do_not_allow_is_told_the_rule_it_breaks():
    """The trainer's hard dukning puzzle (hand J♠ 8♦ A♥ 4♠): J♠ alone, laid down where it must
    take 3♠+8♥, was told only "Not quite. After J♠ takes 3♠+8♥ …", never why J♠ alone is no move."""
    from krypteach.i18n import use_language
    from krypteach.teaching.puzzles import judge

    p = next(p for p in load_puzzles() if p.id == "set-up-dukning-hard-02")
    j = judge(p, "JS")
    assert not j.ok and j.rule == "must-capture"
    assert j.why.startswith("You may not creep (krypa) with J♠: it has a träff — it can take 3♠+8♥."), j.why
    assert "After J♠ takes 3♠+8♥" in j.why  # and then the answer, as before
    with use_language("sv"):
        assert judge(p, "JS").why.startswith("Du får inte krypa med J♠: den har en träff och kan ta 3♠+8♥.")
    assert judge(p, "JS:3S").rule == "not-traffar"
    legal_but_wrong = judge(p, "8D:3S+5S+8H")  # a move the rules allow: "Not quite." and the answer
    assert legal_but_wrong.why.startswith("Not quite. After J♠ takes 3♠+8♥") and legal_but_wrong.rule is None
    assert judge(p, "JS:3S+8H").ok
