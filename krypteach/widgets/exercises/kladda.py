"""Klädda högen: which of the cards dealt to the table go aside?

Lesson 05's exercise (issue 21: it was a widget of the lesson's own, so nothing it did reached
the learner's progress). The deal is a real one, from the engine (:class:`~krypteach.Giv`'s
``deals``): its ``table`` stays, its ``aside`` goes to klädda högen. The exercise only asks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ...engine.cards import Card
from ...engine.game import Giv
from ...engine.games import game_of
from ...engine.moves import describe_cards
from ...engine.rules import Rules
from ...engine.state import Deal
from ...i18n import N_, _, ngettext
from .base import Action, Exercise, cards_of, cards_row

__all__ = ["KladdaExercise"]


class KladdaExercise(Exercise):
    """Select the dealt table cards that go to klädda högen, then Check.

    A first wrong answer says what klädda kort are and gives a second try; a second shows the
    answer. Recorded like every exercise (first or second try, the answer and the right one).

    >>> ex = KladdaExercise(table="5C QD 8H KC")
    >>> ex.table_row.select(["QD", "KC"]); ex.check(); ex.solved
    1
    >>> ex.message.startswith("Right: Q♦ and K♣ are face cards")
    True
    """

    rule_key = "kladda"
    title = N_("Klädda högen: which cards go aside?")
    instruction = N_("These cards were just dealt to the table. Select the ones that go to <b>klädda högen</b> "
                     "(if none do, select none) and press <b>Check</b>.")
    parts = (cards_row("table_row", kind="table", multiple=True, label=N_("Dealt to the table")),)
    actions = (Action("check_button", N_("Check"), "check", icon="check", style="primary",
                      tip=N_("These cards go to klädda högen")),)

    def __init__(self, table: str | Iterable[Card | str] | None = None, *, difficulty: int = 1,
                 rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None) -> None:
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        if not game_of(self.rules).has_kladda:
            raise ValueError("this game keeps face cards on the table: it has no klädda högen")
        self._start(table)

    def set_position(self, table: str | Iterable[Card | str] | None) -> None:
        """Ask about these dealt cards (codes), the engine's rules deciding which go aside."""
        cards = cards_of(table)
        if not cards:
            raise ValueError("the deal needs at least one card")
        # as the game deals (krypteach.engine.games.krypkasino): a klätt kort (Card.is_face) goes aside
        self._show(Deal(hands=(), table=tuple(c for c in cards if not c.is_face),
                        aside=tuple(c for c in cards if c.is_face)))

    def new_position(self, difficulty: int | None = None) -> None:
        """A deal of a real giv (2 to 4 players), with a card set aside most of the time."""
        self._difficulty(difficulty)
        rng = self.rng
        for _try in range(200):
            rules = self.rules.replace(players=rng.choice([2, 3, 4]), givar=None)
            deal = rng.choice(Giv(rules, seed=rng.getrandbits(32)).deals)
            if deal.table and (deal.aside or rng.random() < 0.15):
                self._show(deal)
                return
        raise RuntimeError("could not draw a deal")  # pragma: no cover

    def _show(self, deal: Deal) -> None:
        self.deal = deal
        cards = list(deal.table) + list(deal.aside)
        self.rng.shuffle(cards)
        self.table_row.cards = [str(c) for c in cards]
        self.table_row.selected = []
        self.table_row.hinted = []
        self._fresh()

    def _why(self) -> str:
        aside, stay = sorted(self.deal.aside), sorted(self.deal.table)
        gone = (ngettext("{cards} is a face card (knekt, dam, kung) and goes aside;",
                         "{cards} are face cards (knekt, dam, kung) and go aside;", len(aside)).format(
                    cards=describe_cards(aside, " " + _("and") + " ")) if aside else
                _("No face card (knekt, dam, kung) was dealt, so nothing goes aside;"))
        return gone + " " + ngettext("{cards} stays on the table.", "{cards} stay on the table.", len(stay)).format(
            cards=describe_cards(stay, ", "))

    def check(self) -> None:
        picked = sorted(Card(c) for c in self.table_row.selected_cards)
        aside = sorted(self.deal.aside)
        self.attempts += 1
        answer = describe_cards(picked, ", ") if picked else _("none")
        expected = describe_cards(aside, ", ") if aside else _("none")
        if picked == aside:
            self._win()
            self.say("ok", _("Right: {why}").format(why=self._why()), answer=answer, expected=expected)
        elif self._tries_here == 0:
            self.say("error", _("Not quite: klädda kort are the face cards, knekt, dam and kung; every other "
                                "card stays on the table. Think again and check."), answer=answer, expected=expected)
        else:
            self._done = True
            self.table_row.hinted = [i for i, c in enumerate(self.table_row.cards) if Card(c) in self.deal.aside]
            self.say("error", _("Not quite. {why}").format(why=self._why()), answer=answer, expected=expected)
            self._shown = True  # the answer is shown now: a check after it earns nothing

    def show_answer(self) -> None:
        self._done = True
        self.table_row.hinted = [i for i, c in enumerate(self.table_row.cards) if Card(c) in self.deal.aside]
        self.say("info", self._why())
