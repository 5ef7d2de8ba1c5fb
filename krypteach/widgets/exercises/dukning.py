"""Who gets the dukning? A few moves of a real giv ending in a tabbe."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...engine.cards import Card
from ...engine.game import Giv, Turn
from ...engine.rules import Rules
from ...i18n import N_, _
from ...teaching.narrate import describe_turn, signed
from ...views import table_html
from .._ui import button, esc
from .base import Exercise, Part, html_part

__all__ = ["EXERCISE_NAMES", "DukningExercise"]

#: The players' names in the exercise (the learner is not one of them).
EXERCISE_NAMES = ("Ann", "Bea", "Dan", "Eva", "Kim", "Ola")


def _answer_box() -> Any:
    box = widgets.HBox([])
    box.add_class("kt-buttons")
    return box


class DukningExercise(Exercise):
    """Who gets the dukning? A few moves of a real giv ending in a tabbe.

    Built from a :class:`~krypteach.Giv` played at random by the engine (or a
    given ``giv`` whose last move is a tabbe). The answer is the engine's
    ``Turn.dukning``.

    >>> ex = DukningExercise(seed=4)
    >>> ex.answer(ex.tabbe_turn.dukning); ex.solved
    1
    """

    rule_key = "dukning"
    title = N_("Who gets the dukning? (dukning)")
    instruction = N_("These are the last moves before a <b>tabbe</b> (a capture that empties the table). "
                     "The player who moved <b>just before</b> the tabbe set it up (<i>dukade för tabben</i>) "
                     "and gets a <b>dukning</b>: −5 points, or two (−10) for a dubbeltabbe — welcome points, "
                     "since the lowest score wins. Who gets the dukning?")
    parts = (
        html_part("steps_html"),
        html_part("question_html", N_("<b>Who gets the dukning?</b>")),
        Part("answer_box", _answer_box),  # one button per player, and Nobody: made for each giv
    )

    def __init__(self, giv: Giv | None = None, *, names: Sequence[str] | None = None, difficulty: int = 1,
                 rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None) -> None:
        self._names = list(names) if names else None
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        if giv is not None:
            self.set_giv(giv)
        else:
            self.new_position()

    def set_giv(self, giv: Giv) -> None:
        """Ask about the last move of ``giv``, which must be a tabbe."""
        if not giv.turns or not giv.turns[-1].tabbe:
            raise ValueError("the giv's last move must be a tabbe")
        self.giv = giv
        self.names = (self._names or list(EXERCISE_NAMES))[:giv.rules.players]
        back = copy.deepcopy(giv)  # undo on a copy gives the table before each move
        first = max(0, len(giv.turns) - 3)
        steps: list[tuple[list[Card], Turn]] = []
        for _step in range(len(giv.turns) - first):
            turn = back.pop()
            steps.append((list(back.table), turn))
        self.tabbe_turn = giv.turns[-1]
        self.steps = steps[::-1]
        buttons = []
        for seat, name in enumerate(self.names):
            b = button(name, "user", "info", tip=_("{name} gets the dukning").format(name=name))
            b.on_click(lambda _, s=seat: self.answer(s))
            buttons.append(b)
        nobody = button(_("Nobody"), "ban", "info", tip=_("Nobody gets a dukning"))
        nobody.on_click(lambda _: self.answer(None))
        self.answer_buttons = [*buttons, nobody]
        self.answer_box.children = self.answer_buttons
        self._draw_steps()
        self._fresh()

    def _draw_steps(self) -> None:
        g = self.giv
        order = " → ".join(self.names[(g.dealer + 1 + i) % g.rules.players] for i in range(g.rules.players))
        head = _("{n} players; play goes left: {order} → …").format(n=g.rules.players, order=esc(order))
        rows = [f"<div class='kt-progress'>{head}</div>"]
        if self.steps[0][1] is g.turns[0]:
            start = (_("<b>Start of the giv:</b> the cards are dealt.") if self.tabbe_turn.dukning is None or
                     len(g.turns) > 1 else _("This position is from the middle of a giv."))
            rows.append(f"<div class='kt-step'>{start}</div>")
        before = _("Table before the move")
        for table, turn in self.steps:
            text = describe_turn(turn, self.names, g.rules, show_dukning=False)
            rows.append(f"<div class='kt-step'><div class='kt-step-table'>"
                        f"{table_html(table, width=38, label=before)}</div>"
                        f"<div>{esc(text)}</div></div>")
        self.steps_html.value = "<div class='kt-steps'>" + "".join(rows) + "</div>"

    def new_position(self, difficulty: int | None = None) -> None:
        """Play a random giv until a tabbe: 2 players (easy), 3–4, or 4–6 with teams,
        dubbeltabbar and first-move tabbar (hard)."""
        d = self._difficulty(difficulty)
        rng = self.rng
        special = d == 3 and rng.random() < 0.5
        for attempt in range(400):
            players = {1: 2, 2: rng.choice((3, 4)), 3: rng.choice((4, 5, 6))}[d]
            teams = "pairs" if d == 3 and players in (4, 6) and rng.random() < 0.5 else "none"
            rules = self.rules.replace(players=players, teams=teams, givar=None)
            g = Giv(rules, dealer=rng.randrange(players), seed=rng.getrandbits(32))
            while not g.is_over:
                t = g.play(rng.choice(g.legal_moves()))
                if t.tabbe:
                    break
            if not g.turns or not g.turns[-1].tabbe:
                continue
            t = g.turns[-1]
            if special and attempt < 300 and not (t.tabbe == 2 or t.dukning is None):
                continue
            if d < 3 and len(g.turns) < 3:
                continue
            self.set_giv(g)
            return
        raise RuntimeError("could not draw a position")  # pragma: no cover

    def _why(self) -> tuple[str, list[str]]:
        t = self.tabbe_turn
        taker = self.names[t.player]
        pts = self.giv.rules.tabbe_points
        if t.tabbe == 2:
            said = _("{taker} emptied the table with {card} — a dubbeltabbe, two tabbe marks ({points}) for {taker}.")
        else:
            said = _("{taker} emptied the table with {card} — a tabbe, one tabbe mark ({points}) for {taker}.")
        details = [said.format(taker=taker, card=t.move.card.symbol, points=signed(2 * pts if t.tabbe == 2 else pts))]
        if t.dukning is None:
            return _("Nobody: the tabbe was the first move of the giv, so nobody moved just before it."), details
        setter = self.names[t.dukning]
        pts = abs(self.giv.rules.dukning_points) * t.tabbe
        if len(self.giv.turns) > 1:  # (otherwise the move before happened before this position: the head says it)
            did = describe_turn(self.giv.turns[-2], self.names, self.giv.rules, show_dukning=False)
            details.append(_("Just before: {move}").format(move=did))
        if t.tabbe == 2:
            head = _("{setter} gets two dukningar (−{points}): {setter} made the move just before the tabbe.")
        else:
            head = _("{setter} gets a dukning (−{points}): {setter} made the move just before the tabbe.")
        return head.format(setter=setter, points=pts), details

    def answer(self, seat: int | None) -> None:
        """Answer with a seat (or ``None`` for nobody): what the name buttons do."""
        self.attempts += 1
        head, details = self._why()
        t = self.tabbe_turn
        if seat == t.dukning:
            self._win()
            self.say("ok", _("Right. {explanation}").format(explanation=head), details)
            return
        if seat is None:
            wrong = _("Not nobody.")
        elif seat == t.player:  # (the details say what the tabbe brings them)
            wrong = _("Not {name}: {name} made the tabbe.").format(name=self.names[seat])
        else:
            wrong = _("Not {name}: {name} did not make the move just before the tabbe.").format(name=self.names[seat])
        self.say("error", f"{wrong} {head}", details)

    def show_answer(self) -> None:
        """Say who gets the dukning, and why."""
        self._done = True
        head, details = self._why()
        self.say("info", head, details)
