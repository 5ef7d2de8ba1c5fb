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
