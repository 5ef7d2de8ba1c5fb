"""The coach on the game page (issue 22): Review my moves after a giv, the flagged moves
marked, Try again on one (the position as it was, the legal moves as the choices), and the
better move explained only after the learner has chosen; in both languages."""

from __future__ import annotations

import random

import pytest

from krypteach import Rules
from krypteach.i18n import use_language
from krypteach.widgets import GameTable


def _a_careless_giv(table: GameTable, seed: int = 3) -> None:
    """Play the learner's moves at random to the giv's end (random moves cost points)."""
    rng = random.Random(seed)
    while not table.giv.is_over:
        move = rng.choice(table.giv.legal_moves())
        table.select_hand(move.card)
        if table.game.has_builds:
            table._play(move)  # (a build's value menu is the widget's; the move is the test's)
        else:
            table.select_table(move.capture or [])
            table.play_selected()


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_review_my_moves_marks_the_costly_ones_and_try_again_explains_only_after_a_choice(lang):
    with use_language(lang):
        table = GameTable(seed=5)
        table.review_giv()  # before the end: nothing to review yet
        assert table.review_view.layout.display == "none"
        _a_careless_giv(table)
        table.review_giv()
        panel = table.review_view
        r = panel.review
        assert panel.layout.display == "" and r is not None and r.flagged, "random moves cost points"
        assert ("Move quality: " if lang == "en" else "Dragkvalitet: ") in panel.summary.value
        rows = panel.moves.children
        assert len(rows) == len(r.flagged)
        d = r.flagged[0]
        retry = rows[0].children[1]
        retry.click()
        assert panel.retry_box.layout.display == "" and panel.moves.layout.display == "none"
        assert panel.verdict.value == ""  # nothing said before the learner chooses
        labels = [b.description for b in panel.choices.children]
        assert len(labels) == len(d.values)  # every legal move is a choice
        assert 'data-card="' in panel.position.value  # the hand and the table drawn as they were
        from krypteach.engine.games import describe

        best = next(b for b in panel.choices.children if b.description == describe(table.rules, d.best))
        best.click()
        said = panel.verdict.value
        assert "kt-ok" in said and all(b.disabled for b in panel.choices.children)
        assert ("as good as the best move here" if lang == "en" else "lika bra som det bästa draget") in said
        assert describe(table.rules, d.played) in said  # what was played in the giv, and why it cost
        panel.back_button.click()
        assert panel.moves.layout.display == "" and panel.retry_box.layout.display == "none"
        rows[0].children[1].click()  # again: now the move played in the giv
        played = next(b for b in panel.choices.children if b.description == describe(table.rules, d.played))
        played.click()
        assert "kt-error" in panel.verdict.value
        table.new_giv()
        assert table.review_view.layout.display == "none"  # a new giv hides the old review


def test_kasino_giv_is_reviewed_on_the_game_page_too():
    table = GameTable(Rules.preset("kasino"), seed=2)
    _a_careless_giv(table, seed=4)
    table.review_giv()
    r = table.review_view.review
    assert r is not None and r.decisions and not r.lowest_wins
    assert "Move quality" in table.review_view.summary.value


def test_the_review_is_kept_and_reaches_the_start_page_and_the_teachers_page(keep_progress):
    """Issue 22, kept: the move quality and each costly move (its theme, verdict, loss, the move
    played and the better one) go to the progress store with the giv, once; the learner's start
    page shows their move quality, the teacher's page each learner's, the class's and its themes."""
    from krypteach.bots.review import THEMES
    from krypteach.serve.teacher import teacher_page
    from krypteach.widgets.learner_bar import LearnerBar

    store, me = keep_progress("07_play")
    table = GameTable(seed=5)
    rng = random.Random(3)
    for _ in range(4):  # during the giv, when the learner asks: the moves so far, and nothing kept
        move = rng.choice(table.giv.legal_moves())
        table.select_hand(move.card)
        table.select_table(move.capture or [])
        table.play_selected()
    table.review_giv()
    assert table.review_view.layout.display == "" and table.message.startswith("Your moves so far are reviewed")
    assert len(table.review_view.review.decisions) + table.review_view.review.forced == 4
    assert not [a for a in store.attempts(me) if a[3] == "coach"]
    _a_careless_giv(table)
    assert table.review_view.layout.display == "none"  # a move made: the review of the moves before is gone
    table.review_giv()
    table.review_giv()  # opened again: kept once
    r = table.review_view.review
    rows = [a for a in store.attempts(me) if a[3] == "coach"]
    assert len(rows) == len(r.flagged) + 1
    quality = next(a for a in rows if a[2] == "quality")
    assert quality[7] == round(100 * r.quality) and quality[6] == "krypkasino"
    moves = [a for a in rows if a[2] != "quality"]
    d = r.flagged[0]
    assert moves[0][2] == f"move-{d.ply + 1}" and moves[0][5] == d.theme and moves[0][9] == d.verdict
    assert moves[0][7] == round(10 * d.loss.loss) and not moves[0][4]  # wrong (SQLite keeps it as 0)
    st = store.standing(me)
    assert st.qualities == [quality[7] / 100] and st.lessons["07_play"].tried == 0  # not answers
    assert st.givar == 1
    bar = LearnerBar(overview=True)
    bar._show()  # (the page's hello draws it; here it is asked directly)
    assert f"Move quality (the coach): {round(100 * r.quality)}% in your last giv reviewed" in bar.html
    view = store.overview("K7RPX", ["07_play"])
    assert view.quality == {me: (1, quality[7] / 100)}
    lost = sum(a[7] for a in moves) / 10
    assert sum(t[1] for t in view.themes) == pytest.approx(lost) and {t[0] for t in view.themes} <= set(THEMES)
    assert view.grid[(me, "07_play")].wrong == 0 and not view.rules  # the coach's rows are not mistakes
    page = teacher_page(view, "K7RPX", "", {"07_play": "7 · Play a giv"})
    assert f"<td>{round(100 * r.quality)}% (1 giv)</td>" in page
    assert "Where the class loses points in its givar (the coach)" in page and "points lost in" in page
    from krypteach.serve.teacher import learner_page

    theirs = learner_page("Ann", store.attempts(me), {"07_play": "7 · Play a giv"})
    assert "reviews of their givar" in theirs and f"<td>move {d.ply + 1}</td>" in theirs
    assert f"<td>{round(100 * r.quality)}%</td>" in theirs and "<td>" + THEMES[d.theme] + "</td>" in theirs


def _in_an_event_loop(coroutine):
    """Run ``coroutine`` in a loop of its own, in a thread of its own (a browser test earlier in
    the run may leave a loop running in this one), as a kernel runs the widgets' callbacks."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.mark.parametrize(("preset", "moves"), [("krypkasino", 99), ("kasino", 8)])
def test_the_coach_analyses_each_decision_in_the_background_between_the_learners_moves(preset, moves):
    """In a kernel (an event loop running the callbacks) each move wakes the coach; it works in
    slices while the learner thinks, so when the giv ends (Krypkasino; Kasino after 8 moves, to
    keep the test short) and the learner asks, nothing is left to do, and the review is the one
    made at once."""
    import asyncio

    from krypteach.bots.review import review_giv

    async def play() -> tuple[int, int, int, dict, dict]:
        table = GameTable(Rules.preset(preset), seed=8)
        rng = random.Random(4)
        most_pending = 0
        for _move in range(moves):
            if table.giv.is_over:
                break
            move = rng.choice(table.giv.legal_moves())
            table.select_hand(move.card)
            table._play(move)
            most_pending = max(most_pending, table.coach.pending)
            for _ in range(200):  # the learner thinks (at most 4 s) while the coach works
                if not table.coach.pending:
                    break
                await asyncio.sleep(0.02)
        left = table.coach.pending
        table.review_giv()
        assert table.review_view.review is not None
        return left, most_pending, table.coach_work.slices, table.review_view.review.to_json(), \
            review_giv(table.giv, 0).to_json()

    left, most_pending, slices, shown, at_once = _in_an_event_loop(play())
    assert most_pending >= 1 and slices > 1  # the work came with the moves, and went in slices
    assert left == 0  # done while the learner played: nothing left when the giv ended
    assert shown == at_once


def test_without_a_running_loop_the_review_is_made_when_it_is_asked_for():
    """(In a thread of its own: a browser test earlier in the run may leave a loop running in this one.)"""
    from concurrent.futures import ThreadPoolExecutor

    def play() -> tuple[int, bool, int, bool]:
        table = GameTable(seed=5)
        _a_careless_giv(table)
        pending, scheduled = table.coach.pending, table.coach_work.scheduled
        table.review_giv()
        return pending, scheduled, table.coach.pending, table.review_view.review is not None

    with ThreadPoolExecutor(1) as pool:
        pending, scheduled, left, shown = pool.submit(play).result()
    assert pending > 0 and not scheduled
    assert left == 0 and shown


def test_undo_after_the_review_takes_the_review_and_the_replay_away():
    """Ångra after a giv's review opened the giv again, and "your giv reviewed … well played" stayed
    on the page of a giv no longer over: a review or replay of moves taken back goes with them."""
    table = GameTable(seed=5)
    _a_careless_giv(table)
    table.review_giv()
    reviewed = len(table.review_view.review.decisions)
    table.replay_giv()
    assert table.review_view.layout.display == "" and table.replay_view.layout.display == ""
    table.undo()
    assert not table.giv.is_over
    assert table.review_view.layout.display == "none" and table.replay_view.layout.display == "none"
    table.review_giv()  # asked again: the moves as they now stand
    assert table.review_view.layout.display == "" and len(table.review_view.review.decisions) <= reviewed
    assert "your moves so far reviewed" in table.review_view.title.value  # not "your giv reviewed"
