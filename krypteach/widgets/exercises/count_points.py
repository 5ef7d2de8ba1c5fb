"""Count the points of a pile, with tabbe marks and dukningar."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...engine.cards import Card
from ...engine.games import game_of
from ...engine.rules import Rules
from ...engine.scoring import card_points, point_breakdown
from ...i18n import N_, _, ngettext
from ...teaching.narrate import card_points_words, signed
from ..inputs import AnswerBox
from .base import Action, Exercise, Part, cards_of, cards_row, html_part

__all__ = ["CountPointsExercise"]


def _points_box() -> Any:
    # a text box, so that an empty box is empty (a number box reads it as 0); what is typed and
    # Enter reach Python in order (AnswerBox says why ipywidgets' Text does not)
    return AnswerBox(placeholder=_("e.g. 7"), description=_("Points (poäng):"))


def read_whole_number(text: str) -> int | None:
    """What a learner typed as a whole number (``−3`` and ``+5`` too), or None.

    >>> read_whole_number(" 14 "), read_whole_number("−3"), read_whole_number("+5"), read_whole_number("7p")
    (14, -3, 5, None)
    """
    t = text.strip().replace("\u2212", "-").replace(" ", "")
    if t.startswith("+"):
        t = t[1:]
    if not t or not (t.lstrip("-").isdigit() and t.count("-") <= 1 and t.lstrip("-") == t.replace("-", "")):
        return None
    try:
        return int(t)
    except ValueError:
        return None


class CountPointsExercise(Exercise):
    """Count the points of a pile, with tabbe marks and dukningar.

    The right count is the engine's (:meth:`~krypteach.engine.games.base.Game.score`).

    A wrong total first gets a nudge (too high, or too low); the breakdown card by card comes
    with the second wrong try on the same pile, or with Show answer. An empty box or a word is
    not a try. Enter in the box checks, as the Check button does.

    >>> ex = CountPointsExercise(pile="10D 2S AS AH 7S 7H", marks=1)
    >>> ex.points.value = "14"; ex.check(); ex.solved
    1
    """

    rule_key = "card-points"
    title = N_("Count the points (räkna poäng)")
    instruction = N_("Card points: <b>storan</b> (10♦) 3, <b>lillan</b> (2♠) 2, <b>spader ess</b> (A♠) 2, every "
                     "other ace 1, every other spade 1, all else 0. Add 5 for each tabbe mark and −5 for each "
                     "dukning. Remember: in Krypkasino points are bad — the lowest score wins.")
    parts = (
        cards_row("pile_row", kind="pile", selectable=False, width=64, label=N_("The pile (högen)")),
        html_part("extras_html"),
        Part("points", _points_box),
    )
    actions = (Action("check_button", N_("Check"), "check", icon="check", style="primary",
                      tip=N_("Check your count")),)

    def __init__(self, pile: str | Iterable[Card | str] | None = None, *, marks: int = 0, dukningar: int = 0,
                 difficulty: int = 1, rules: Rules | None = None, seed: int | None = None,
                 rng: random.Random | None = None) -> None:
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        if pile is not None:
            self.set_position(pile, marks, dukningar)
        else:
            self.new_position()
        self.points.on_submit(lambda _box: self.check())  # Enter in the box checks, as the Check button does

    def set_position(self, pile: str | Iterable[Card | str], marks: int = 0, dukningar: int = 0) -> None:
        """Show a fixed pile (codes) with ``marks`` tabbe marks and ``dukningar``."""
        self.pile = sorted(cards_of(pile))
        self.marks, self.dukningar = marks, dukningar
        result = game_of(self.rules).score([self.pile], [marks], [dukningar], [marks], None, ())
        self.expected = result.scores[0]
        self.pile_row.cards = [str(c) for c in self.pile]
        extras = []
        if marks:
            extras.append(ngettext("{n} tabbe mark (tabbar)", "{n} tabbe marks (tabbar)", marks).format(n=marks))
        if dukningar:
            extras.append(ngettext("{n} dukning", "{n} dukningar", dukningar).format(n=dukningar))
        also = (" " + _("and") + " ").join(extras)
        said = _("This player also has {extras}.").format(extras=also)
        self.extras_html.value = f"<div class='kt-instruction'>{said}</div>" if extras else ""
        self.points.value = ""
        self._wrong_here = 0
        self._fresh()

    def new_position(self, difficulty: int | None = None) -> None:
        """A random pile: 5–7 cards (easy), 8–12 with a mark, or 12–18 with marks and dukningar (hard)."""
        d = self._difficulty(difficulty)
        rng = self.rng
        n = rng.randint(*{1: (5, 7), 2: (8, 12), 3: (12, 18)}[d])
        deck = [Card(i) for i in range(52)] * 2
        pile = rng.sample(deck, n)
        if rng.random() < 0.5:  # the special cards are the point of the exercise
            pile[0] = Card(rng.choice(["10D", "2S", "AS"]))
        marks = 0 if d == 1 else rng.randint(0, 1 if d == 2 else 2)
        dukn = 0 if d < 3 else rng.randint(0, 2)
        self.set_position(pile, marks, dukn)

    def _breakdown(self) -> list[str]:
        """One line per scoring card (the double deck's twins on one line), then the rest."""
        scoring = point_breakdown(self.pile)
        twins = Counter(c for c, _, _ in scoring)
        lines = [_("{card} {why}: {points}").format(card=c.symbol, why=why, points=p) if twins[c] == 1
                 else _("{card} {why}: {points} each, {n} of them").format(card=c.symbol, why=why, points=p,
                                                                            n=twins[c])
                 for c, p, why in dict.fromkeys(scoring)]
        zero = len(self.pile) - len(scoring)
        if zero:
            lines.append(ngettext("the other card scores 0", "the other {n} cards score 0", zero).format(n=zero))
        return lines

    def _sum(self) -> str:
        r = self.rules
        cp = card_points(self.pile)
        parts = [card_points_words(cp)]
        if self.marks:
            parts.append(_("{n} × {points} for tabbe marks").format(n=self.marks, points=signed(r.tabbe_points)))
        if self.dukningar:
            parts.append(_("{n} × {points} for dukningar").format(n=self.dukningar, points=signed(r.dukning_points)))
        return " + ".join(parts) + f" = {signed(self.expected, plus=False)}"

    def check(self) -> None:
        """Check the number typed in ``points`` (the Check button)."""
        said = read_whole_number(self.points.value)
        if said is None:
            self.say("info", _("Type the points first: a whole number, such as 7 or −3.") if not self.points.value.strip()
                     else _("“{text}” is not a whole number: type, for example, 7 or −3.").format(
                         text=self.points.value.strip()[:20]))
            return
        self.attempts += 1
        if said == self.expected:
            self._win()
            self.say("ok", _("Right: {count}.").format(count=self._sum()), self._breakdown(),
                     answer=str(said), expected=str(self.expected))
            return
        self._wrong_here += 1
        high = said > self.expected
        if self._wrong_here == 1:  # a nudge first: the learner counts again
            text = (_("{said} is too high. Count again: which of these cards carry points, and how many each?") if high
                    else _("{said} is too low. Count again: which of these cards carry points, and how many each?")
                    ).format(said=signed(said, plus=False))
            if self.marks or self.dukningar:
                text += " " + _("Then the tabbe marks and dukningar: each one changes the score.")
            self.say("error", text, [_("Check again, or press Show answer to see the count card by card.")],
                     answer=str(said), expected=str(self.expected))
            return
        hint = self._breakdown()
        if self.marks or self.dukningar:
            hint.append(_("then add {tabbe} for each tabbe mark and {dukning} for each dukning").format(
                tabbe=signed(self.rules.tabbe_points), dukning=signed(self.rules.dukning_points)))
        self.say("error", (_("{said} is too high. These cards score — add them up and try again:") if high
                           else _("{said} is too low. These cards score — add them up and try again:")
                           ).format(said=signed(said, plus=False)), hint, answer=str(said), expected=str(self.expected))

    def show_answer(self) -> None:
        """Show the count, card by card."""
        self._done = True
        self.say("info", f"{self._sum()}.", self._breakdown())
