"""The coach on the game page (issue 22): the review of the giv a learner just played, its
flagged decisions, and **Try again** on each, as lichess's "Learn from your mistakes" does.

The panel holds no game logic: the review is :func:`krypteach.bots.review.review_giv` (every
legal move valued from the learner's own observation), the words are
:func:`~krypteach.bots.review.decision_words`, the position is drawn by :mod:`krypteach.views`.
Try again sets the flagged position up as it was and offers the legal moves as buttons (a
keyboard and a screen reader reach each); only after the learner has chosen is the better move
shown and explained.

>>> from krypteach.engine.game import Giv
>>> from krypteach.bots import make_bot
>>> g = Giv(seed=4)
>>> g.play_out(lambda x: make_bot("random", seed=1).choose(x.observation()))
>>> p = ReviewPanel()
>>> p.open_giv(g, names=["You", "Bea"], samples=6)
>>> p.review is not None and "Move quality" in p.summary.value
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..bots.review import VERDICT_WORDS, Decision, MoveValue, Review, decision_words, distinct_choices, review_giv
from ..bots.words import seat_names
from ..engine.game import Giv, Observation
from ..engine.games import describe
from ..engine.moves import Move
from ..engine.rules import Rules
from ..i18n import _, ngettext
from ..i18n.numbers import number, percent
from ..views.html import hand_html, table_html
from ._ui import button, esc, message_html

__all__ = ["PositionRetry", "ReviewPanel"]

#: a verdict's mark in the list of moves (as chess annotates: ?! ? ??)
_MARKS = {"fine": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


class PositionRetry(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """One reviewed decision set up again: the position as the learner saw it, its distinct legal
    moves as buttons (in no telling order), and after a choice the verdict and why. The coach's
    Try again and the practice trainer's flagged moves (issue 23) both show it; ``on_answer`` is
    told each choice: ``(move, its value, as good as the best)``."""

    def __init__(self, on_answer: Callable[[Move, MoveValue, bool], None] | None = None, **kwargs: Any) -> None:
        self.on_answer = on_answer
        self.decision: Decision | None = None
        self._obs: Observation | None = None
        self._rules: Rules | None = None
        self._names: list[str] = []
        self._seat = 0
        self.position = widgets.HTML("")
        self.choices = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap"))
        self.choices.add_class("kt-buttons")
        self.verdict = widgets.HTML("")
        self.verdict.add_class("kt-feedback")
        super().__init__([self.position, self.choices, self.verdict], **kwargs)

    def set_up(self, obs: Observation, d: Decision, *, names: Sequence[str], heading: str) -> None:
        """Set ``d``'s position (``obs``: what its seat saw) up; the legal moves are the choices."""
        self.decision, self._obs, self._rules = d, obs, obs.rules
        self._names, self._seat = list(names), d.seat
        rules = obs.rules
        self.position.value = (f"<p>{esc(heading)}</p>"
                               + table_html(obs.table, obs.kladda, width=56, names=self._names, you=self._seat)
                               + hand_html(obs.hand, width=56, label=_("Your hand (handen)")))
        choices = []
        for v in distinct_choices(d, rules):
            b = button(describe(rules, v.move), "", tip=_("Play {move}").format(move=describe(rules, v.move)))
            b.on_click(lambda _b, m=v.move: self.choose(m))
            choices.append(b)
        choices.sort(key=lambda b: b.description)  # not best first: the order would give it away
        self.choices.children = choices
        self.verdict.value = ""

    @property
    def rules(self) -> Rules | None:
        """The rules of the position set up."""
        return self._rules

    def focus_first(self) -> None:
        if self.choices.children:  # the keyboard goes on from the choices
            self.choices.children[0].focus()

    def why(self) -> str:
        """Why the better move is better, in words, the seats named as on the page."""
        assert self.decision is not None and self._obs is not None
        with seat_names([_("you") if s == self._seat else n for s, n in enumerate(self._names)]):
            return decision_words(self._obs, self.decision)

    def choose(self, move: Move) -> None:
        """The learner's move: then the better move, and why."""
        d, rules = self.decision, self._rules
        if d is None or rules is None or any(b.disabled for b in self.choices.children):
            return
        v = d.of(move)
        chosen = describe(rules, move)
        good = v.good_enough
        if good:
            head = _("{move}: as good as the best move here. Well found!").format(move=chosen)
            kind = "ok"
        else:
            head = _("{move} costs about {loss} points against the best move.").format(
                move=chosen, loss=number(v.loss, 1 if d.method != "exact" else 0))
            kind = "error"
        details = [self.why()]
        if move != d.played:
            details.insert(0, _("In the giv you played {move}.").format(move=describe(rules, d.played)))
        self.verdict.value = message_html(kind, head, details)  # role="status": a screen reader says it
        for b in self.choices.children:
            b.disabled = True
        if self.on_answer is not None:
            self.on_answer(move, v, good)


class ReviewPanel(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """The review of one giv for one seat: a summary (move quality), the seat's decisions with
    the flagged ones marked, each with Try again; the position of a retry and its verdict."""

    def __init__(self, **kwargs: Any) -> None:
        self.review: Review | None = None
        self._giv: Giv | None = None
        self._seat = 0
        self._names: list[str] = []
        self._observations: dict[int, Observation] = {}
        self.title = widgets.HTML("<h4>" + esc(_("The coach: your giv reviewed")) + "</h4>")
        self.summary = widgets.HTML("")
        self.summary.add_class("kt-review-summary")
        self.moves = widgets.VBox([])
        self.moves.add_class("kt-review-moves")
        # the choices are spent once one is chosen: the keyboard goes on from Back
        self.retry = PositionRetry(on_answer=lambda _m, _v, _good: self.back_button.focus())
        self.position, self.choices, self.verdict = self.retry.position, self.retry.choices, self.retry.verdict
        self.back_button = button(_("Back to the review"), "arrow-left", tip=_("The list of your decisions"))
        self.back_button.on_click(lambda b: self.back())
        self.retry_box = widgets.VBox([self.retry, self.back_button], layout=widgets.Layout(display="none"))
        self.retry_box.add_class("kt-retry")
        super().__init__([self.title, self.summary, self.moves, self.retry_box], **kwargs)
        self.add_class("kt-review")

    # --- the review ---------------------------------------------------------
    def open_giv(self, giv: Giv, *, seat: int = 0, names: Sequence[str] | None = None, samples: int = 24,
                 review: Review | None = None) -> None:
        """Show the review of ``seat``'s decisions in ``giv``: ``review`` when it is made already
        (the game page's, worked out while the giv was played), else made now."""
        self._giv, self._seat = giv, seat
        self._names = list(names) if names else [_("seat {seat}").format(seat=s) for s in range(giv.rules.players)]
        self.review = review if review is not None else review_giv(giv, seat, samples=samples)
        self.title.value = "<h4>" + esc(_("The coach: your giv reviewed") if giv.is_over else
                                        _("The coach: your moves so far reviewed")) + "</h4>"
        replay = giv.clone()
        moves: list[Move] = []
        while replay.turns:
            moves.append(replay.pop().move)
        self._observations = {}
        for ply, m in enumerate(reversed(moves)):
            if replay.turn == seat:
                self._observations[ply] = replay.observation(seat)
            replay.push(m)
        self.back()

    def _show_list(self) -> None:
        r = self.review
        assert r is not None and self._giv is not None
        n = len(r.decisions)
        good = sum(d.as_good_as_best for d in r.decisions)
        flagged = r.flagged
        if n:
            head = _("Move quality: {quality} ({good} of {n} decisions as good as the best move).").format(
                quality=percent(r.quality), good=good, n=n)
        else:
            head = _("No decision in this giv had a real choice: every move was forced.")
        more = (ngettext("{n} move cost you points: try it again.", "{n} moves cost you points: try them again.",
                         len(flagged)).format(n=len(flagged)) if flagged else
                _("No move of yours cost you points that the search could find. Well played!"))
        self.summary.value = f"<p role='status'>{esc(head)} {esc(more)}</p>"
        rows = []
        for d in r.decisions:
            mark = _MARKS[d.verdict]
            said = _("Move {ply}: {move} {mark}").format(ply=d.ply + 1, move=describe(self._giv.rules, d.played),
                                                       mark=mark).strip()
            if d.verdict == "fine":
                continue
            label = widgets.HTML(f"<b>{esc(said)}</b> — {esc(_(VERDICT_WORDS[d.verdict]))}")
            retry = button(_("Try again"), "repeat", "primary",
                           _("Play move {ply} again from the same position").format(ply=d.ply + 1))
            retry.on_click(lambda b, d=d: self.try_again(d))
            row = widgets.HBox([label, retry], layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
            row.add_class("kt-review-row")
            rows.append(row)
        self.moves.children = rows

    # --- Try again ------------------------------------------------------------
    def try_again(self, d: Decision) -> None:
        """Set the decision's position up as it was; the legal moves are the choices."""
        assert self._giv is not None
        self.retry.set_up(self._observations[d.ply], d, names=self._names,
                        heading=_("Move {ply}: your turn. Which move is best here?").format(ply=d.ply + 1))
        self.moves.layout.display = "none"
        self.retry_box.layout.display = ""
        self.retry.focus_first()  # the Try again pressed is hidden now

    def choose(self, move: Move) -> None:
        """The learner's move in the retried position: then the better move, and why."""
        self.retry.choose(move)

    def back(self) -> None:
        """Back to the list of decisions."""
        self.retry.decision = None
        self.retry_box.layout.display = "none"
        self.moves.layout.display = ""
        if self.review is not None:
            self._show_list()
