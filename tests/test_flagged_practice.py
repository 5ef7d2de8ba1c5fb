"""The moves the coach flags in a learner's own givar come back in their practice (issue 23):
kept with the giv when the review is kept, put into the review queue, set up again in the
practice trainer as the learner saw them, judged as the coach judged them, and rescheduled by
the answer (never rated)."""

from __future__ import annotations

import json
import random

import pytest

from krypteach.bots import make_bot
from krypteach.bots.review import Decision, review_giv
from krypteach.classroom import session as session_module
from krypteach.classroom.flagged import MOST_GIVAR, PLACE, keep_flagged, read_flagged
from krypteach.classroom.practice import PracticeBook
from krypteach.classroom.session import BrowserProgress, Session
from krypteach.classroom.store import ProgressStore
from krypteach.engine.game import Giv
from krypteach.engine.games import describe
from krypteach.engine.rules import Rules
from krypteach.i18n import use_language
from krypteach.widgets import GameTable, practice_widget
from krypteach.widgets.practice_widget import PracticeTrainer

T0 = 1_800_000_000.0


def _random_giv(seed: int, rules: Rules | None = None) -> Giv:
    g = Giv(rules, seed=seed)
    bots = [make_bot("random", seed=seed + s) for s in range(g.rules.players)]
    while not g.is_over:
        g.push(bots[g.turn].choose(g.observation(g.turn)))
    return g


@pytest.fixture(scope="module")
def reviewed():
    """A careless Krypkasino giv and its flagged moves for seat 0."""
    g = _random_giv(4)
    flagged = review_giv(g, 0, samples=6).flagged
    assert len(flagged) >= 2, "random moves cost points"
    return g, flagged


def test_a_kept_text_read_again_is_not_replayed_again(reviewed, monkeypatch):
    """The teacher's board reads every learner's kept text on each load: a text read before
    gives the same moves without replaying its givar, and each caller gets a list of its own."""
    from krypteach.classroom import flagged as kept

    g, flagged = reviewed
    text = keep_flagged(None, g, 0, flagged, at=T0 + 77)  # a text no other test reads
    replayed = []
    real = kept.giv_from_record
    monkeypatch.setattr(kept, "giv_from_record", lambda record: replayed.append(1) or real(record))
    first = read_flagged(text, "07_play")
    assert len(replayed) == 1 and [f.decision for f in first] == flagged
    again = read_flagged(text, "07_play")
    assert again == first and len(replayed) == 1
    again.clear()
    assert read_flagged(text, "07_play") == first
    assert read_flagged(text, "08_puzzles")[0].lesson == "08_puzzles" and len(replayed) == 2  # another page's: read


def test_flagged_moves_are_kept_with_their_giv_and_read_back_whole(reviewed):
    g, flagged = reviewed
    back = read_flagged(keep_flagged(None, g, 0, flagged, at=T0), "07_play")
    assert [f.decision for f in back] == flagged
    assert len({f.key for f in back}) == len(back) and all(f.key.startswith("coach/07_play/") for f in back)
    f = back[0]
    before = f.giv_before()
    assert len(before.turns) == f.decision.ply and before.turn == 0
    obs = f.observation()
    assert obs.hand == before.observation(0).hand and f.decision.played in obs.legal_moves()
    # the same giv reviewed again is kept once; another giv's moves are kept beside it
    text = keep_flagged(keep_flagged(None, g, 0, flagged, at=T0), g, 0, flagged, at=T0 + 5)
    assert len(read_flagged(text, "07_play")) == len(flagged)
    other = _random_giv(9)
    more = review_giv(other, 0, samples=6).flagged
    both = read_flagged(keep_flagged(text, other, 0, more, at=T0 + 9), "07_play")
    assert len(both) == len(flagged) + len(more)
    # the keys are the position's: the same move of the same giv on another page is another key
    assert {f.key for f in read_flagged(text, "10_kasino")}.isdisjoint(f.key for f in back)


def test_only_the_newest_givar_are_kept(reviewed):
    _g, flagged = reviewed
    text = None
    for i in range(MOST_GIVAR + 3):
        text = keep_flagged(text, _random_giv(100 + i), 0, flagged, at=T0 + i)  # (the decisions: any, here)
    entries = json.loads(text)["givar"]
    assert len(entries) == MOST_GIVAR and entries[0]["at"] == T0 + 3 and entries[-1]["at"] == T0 + MOST_GIVAR + 2


def test_a_kept_text_that_cannot_be_read_back_is_left_out_not_raised(reviewed):
    g, flagged = reviewed
    good = json.loads(keep_flagged(None, g, 0, flagged, at=T0))
    assert read_flagged("not json", "07") == [] and read_flagged(None, "07") == []
    assert read_flagged(json.dumps({"format": "krypteach-flagged/9", "givar": good["givar"]}), "07") == []
    forged = json.loads(json.dumps(good))
    forged["givar"][0]["decisions"][0]["played"] = str(forged["givar"][0]["decisions"][0]["best"])
    if forged["givar"][0]["decisions"][0]["played"] != good["givar"][0]["decisions"][0]["played"]:
        # a move that was not the one played at that ply is refused
        assert len(read_flagged(json.dumps(forged), "07")) == len(flagged) - 1
    broken = json.loads(json.dumps(good))
    broken["givar"][0]["giv"]["moves"][0]["card"] = "ZZ"
    assert read_flagged(json.dumps(broken), "07") == []
    odd = json.loads(json.dumps(good))
    odd["givar"][0]["decisions"][0]["values"] = [["7H", "a lot", 0, 0, 0, 0]]
    assert len(read_flagged(json.dumps(odd), "07")) == len(flagged) - 1
    with pytest.raises(ValueError, match="lacks 'values'"):
        Decision.from_dict({k: v for k, v in flagged[0].to_dict().items() if k != "values"})


def test_a_flagged_move_is_queued_reviewed_by_its_answers_and_never_rated():
    key = "coach/07_play/abc"
    rows = [(1, key, False, "first-try", (), None, T0 + 700), (1, key, True, "first-try", (), None, T0 + 1400)]
    book = PracticeBook.replay(rows, flagged=[(1, key, T0)])
    me = book.learner(1)
    assert me.answered == 0 and me.overall.rating == 1500 and key not in book.puzzles  # never rated
    entry = me.queue[key]
    assert entry.due.timestamp() > T0 + 1400 + 3600  # a right answer sends it days away
    again = PracticeBook.replay(rows[:1], flagged=[(1, key, T0)]).learner(1).queue[key]
    assert again.due.timestamp() <= T0 + 700 + 11 * 60  # missed again: back in ten minutes
    # another learner's answer to a key they were never flagged: nothing at all
    assert not PracticeBook.replay([(2, key, False, "first-try", (), None, T0)]).learner(2).queue


@pytest.fixture
def ann(monkeypatch):
    store = ProgressStore(":memory:")
    me = store.join("K7", "Ann")
    s = Session()
    s.store, s.learner, s.lesson = store, me, "07_play"
    monkeypatch.setattr(session_module, "_current", s)
    return store, me, s


def _careless(table: GameTable, seed: int = 3) -> None:
    rng = random.Random(seed)
    while not table.giv.is_over:
        move = rng.choice(table.giv.legal_moves())
        table.select_hand(move.card)
        table.select_table(move.capture or [])
        table.play_selected()


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_a_move_the_coach_flagged_on_the_game_page_comes_back_in_the_practice_trainer(ann, monkeypatch, lang):
    store, me, s = ann
    clock = [T0]
    monkeypatch.setattr(practice_widget.time, "time", lambda: clock[0])
    with use_language(lang):
        table = GameTable(seed=5)
        _careless(table)
        table.review_giv()
        flagged = table.review_view.review.flagged
        assert flagged
        kept = store.saved_games(me, PLACE)
        assert [lesson for lesson, _text in kept] == ["07_play"]
        s.lesson = "08_puzzles"
        clock[0] = T0 + 11 * 60  # (the clock is the time module's: the review was kept at T0)
        t = PracticeTrainer(seed=2)
        assert len(t.flagged) == len(flagged)
        due = [e.key for e in t.practice.due(clock[0])]
        assert set(due) == set(t.flagged)  # every flagged move is due ten minutes after the review
        assert ("the coach flagged" if lang == "en" else "tränaren markerade") in t.stats.value
        t.next_puzzle()
        assert t.flag is None and t.puzzle is not None  # the second of the visit is a new puzzle
        t.next_puzzle()  # the third: a flagged move
        f = t.flag
        assert f is not None and t.puzzle is None
        assert t.retry in t.children and t.next_button in t.children[-1].children
        assert 'data-card="' in t.retry.position.value and t.retry.verdict.value == ""
        d = f.decision
        worst = max(d.values, key=lambda v: v.loss)
        assert not worst.good_enough
        labels = {b.description: b for b in t.retry.choices.children}
        labels[describe(f.observation().rules, worst.move)].click()
        assert "kt-error" in t.retry.verdict.value and all(b.disabled for b in t.retry.choices.children)
        rows = [r for r in store.puzzle_attempts(me) if r[1] == f.key]
        assert [(r[2], r[3]) for r in rows] == [(False, "first-try")]
        assert t.practice.answered == 0 and f.key not in t.book.puzzles  # the flagged move is not rated
        assert t.practice.queue[f.key].due.timestamp() <= clock[0] + 11 * 60  # missed: back soon
        # a reload replays the same: the move is still due soon, and still unrated
        again = PracticeTrainer(seed=4)
        assert again.practice.queue[f.key] == t.practice.queue[f.key] and again.practice.answered == 0


def test_the_best_move_in_a_flagged_position_is_said_to_be_as_good_as_the_best(ann, monkeypatch):
    store, me, s = ann
    g = _random_giv(4)
    flagged = review_giv(g, 0, samples=6).flagged
    store.save_game(me, "07_play", PLACE, keep_flagged(None, g, 0, flagged, at=T0))
    s.lesson = "08_puzzles"
    clock = [T0 + 3600]
    monkeypatch.setattr(practice_widget.time, "time", lambda: clock[0])
    t = PracticeTrainer(seed=2)
    t.next_puzzle()
    t.next_puzzle()
    f = t.flag
    assert f is not None
    best = {b.description: b for b in t.retry.choices.children}[describe(g.rules, f.decision.best)]
    best.click()
    assert "kt-ok" in t.retry.verdict.value
    assert t.practice.queue[f.key].due.timestamp() > clock[0] + 86_400 / 2  # solved: it waits for days
    assert [r[2] for r in store.puzzle_attempts(me) if r[1] == f.key] == [True]


def test_the_static_sites_browser_keeps_the_flagged_moves_too(reviewed):
    g, flagged = reviewed
    b = BrowserProgress("Ann")
    b.save_game(0, "07_play", PLACE, keep_flagged(None, g, 0, flagged, at=T0))
    b.save_game(0, "07_play", "game-1", "{}")
    back = BrowserProgress.from_file(b.to_file())
    assert back.saved_games(0, PLACE) == [("07_play", b.games["07_play coach"])]


# --- what a mutation run of classroom/flagged.py found unguarded (docs/mutation/practice.md) ----------


def test_a_flagged_moves_key_is_kept_as_it_was_made():
    """The key names the move in the learner's review queue and in their kept answers: a key made
    another way would orphan every answer kept before."""
    from krypteach.classroom.flagged import _key

    assert _key("07_play", {"b": 1, "a": [2, 3]}, 3) == "coach/07_play/2b566c4b0e67"
    assert _key("x" * 70, {"a": 1}, 0) == "coach/" + "x" * 60 + "/cadc228bd38d"


def test_a_flagged_move_is_seen_by_the_seat_that_played_it(reviewed):
    g, flagged = reviewed
    back = read_flagged(keep_flagged(None, g, 0, flagged, at=T0 + 31), "07_play")
    first = back[0]
    assert first.observation() == first.giv_before().observation(0)
    assert first.observation().seat == 0


def test_the_kept_text_is_compact_and_names_each_givs_parts(reviewed):
    g, flagged = reviewed
    text = keep_flagged(None, g, 0, flagged, at=T0 + 32)
    assert ", " not in text and '": ' not in text
    assert sorted(json.loads(text)["givar"][0]) == ["at", "decisions", "giv", "seat"]


def test_the_oldest_givar_go_one_by_one_until_the_text_fits_and_the_newest_stays(reviewed, monkeypatch):
    import krypteach.classroom.flagged as flagged_module

    g, flagged = reviewed
    one = keep_flagged(None, g, 0, flagged[:1], at=T0 + 33)
    two = keep_flagged(keep_flagged(None, _random_giv(202), 0, flagged[:1], at=T0 + 1), g, 0, flagged[:1], at=T0 + 2)
    three = [_random_giv(201), _random_giv(202), g]
    monkeypatch.setattr(flagged_module, "MAX_GAME_RECORD", len(two))  # exactly two givar fit
    text = None
    for i, giv in enumerate(three):
        text = keep_flagged(text, giv, 0, flagged[:1], at=T0 + i)
    assert len(json.loads(text)["givar"]) == 2 and len(text) == len(two)
    monkeypatch.setattr(flagged_module, "MAX_GAME_RECORD", len(one) - 1)  # not even the newest fits: it stays
    assert len(json.loads(keep_flagged(text, g, 0, flagged[:1], at=T0 + 33))["givar"]) == 1


@pytest.mark.parametrize("kept", ['[1, 2]', '{"format": "other/1", "givar": []}', '{"format": "krypteach-flagged/1", "givar": {}}'],
                         ids=["a-list", "another-format", "givar-not-a-list"])
def test_a_kept_text_of_another_shape_is_started_afresh(reviewed, kept):
    g, flagged = reviewed
    assert len(json.loads(keep_flagged(kept, g, 0, flagged[:1], at=T0 + 34))["givar"]) == 1
