"""Take all you must: select the capture for the played card, or creep."""

from __future__ import annotations

import random
from collections.abc import Iterable

from ...engine.captures import capture_options, played_value, split_into_traffar
from ...engine.cards import Card
from ...engine.games import explain_move
from ...engine.moves import Move
from ...engine.rules import Rules
from ...i18n import N_, _
from ...teaching.narrate import traffar_text
from .base import Action, Exercise, NoCardLeft, cards_row

__all__ = ["TakeAllExercise"]


class TakeAllExercise(Exercise):
    """Take everything you must: select the capture for the played card, or creep.

    The engine's :func:`~krypteach.explain_move` judges the choice.

    >>> ex = TakeAllExercise(card="4H", table="9S 2C 5D")
    >>> ex.creep(); ex.message
    'Right. 4♥ has no träff, so it creeps (kryper): it is laid on the table.'
    """

    rule_key = "take-all"
    title = N_("Take all you must (ta in allt)")
    instruction = N_("You play <b>your card</b>, shown above the table. If it has a träff it <b>must capture</b>, "
                     "and it must <b>take all it can</b>: no träff for it may stay on the table. Select the table "
                     "cards it takes and press <b>Check</b> — or press <b>Creep (krypa)</b> if it takes nothing.")
    parts = (
        cards_row("card_row", kind="hand", selectable=False, label=N_("Your card (played)")),
        cards_row("table_row", kind="table", multiple=True, label=N_("Table (bordet)")),
    )
    actions = (
        Action("check_button", N_("Check"), "check", icon="check", style="primary", tip=N_("Take the selected cards")),
        Action("creep_button", N_("Creep (krypa)"), "creep", icon="arrow-down",
               tip=N_("Lay the card on the table: it takes nothing")),
    )

    def __init__(self, card: Card | str | None = None, table: str | Iterable[Card | str] | None = None, *,
                 difficulty: int = 1, rules: Rules | None = None, seed: int | None = None,
                 rng: random.Random | None = None) -> None:
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        self._start(card, table)

    def set_position(self, card: Card | str | None, table: str | Iterable[Card | str] | None) -> None:
        """Show a fixed position: ``card`` (a code) and ``table`` (codes)."""
        self.card, self.table = self._played_on_table(card, table)
        self.options = capture_options(self.card, self.table, self.rules)
        self.card_row.cards = [str(self.card)]
        self.table_row.cards = [str(c) for c in self.table]
        self._fresh()

    def new_position(self, difficulty: int | None = None) -> None:
        """A random position: 4 (easy), 5–6 or 6–8 (hard) table cards; sometimes the card creeps."""
        d = self._difficulty(difficulty)
        rng = self.rng
        size = {1: (3, 4), 2: (5, 6), 3: (6, 8)}[d]
        ranks = {1: range(2, 11), 2: range(2, 14), 3: range(1, 14)}[d]
        creep = rng.random() < 0.2
        for _try in range(500):
            self._fresh_deck()
            try:
                card = self._card(rng.choice(ranks))
                target = played_value(card, self.rules)
                table: list[Card] = []
                if not creep:
                    for _group in range(rng.randint(1, d)):
                        table += [self._card(card.rank)] if rng.random() < 0.3 and card.rank != 1 else \
                            self._sum_group(target, rng.choice((2, 2, 3)))
                n = rng.randint(*size)
                while len(table) < n:
                    table.append(self._card(rng.randint(1, 10 if d == 1 else 13)))
                if len(table) > size[1]:
                    continue
                rng.shuffle(table)
                opts = capture_options(card, table, self.rules)
                if creep != (not opts):
                    continue
                if opts and len(opts[0]) == len(table) and d > 1:
                    continue  # a tabbe is the Tvångstabbe exercise's business
                if opts and d >= 2 and len(split_into_traffar(card, opts[0], self.rules) or ()) < 2 and len(opts) < 2:
                    continue  # harder: more than one träff to take
                self.set_position(card, table)
                return
            except NoCardLeft:
                continue
        raise RuntimeError("could not draw a position")  # pragma: no cover

    def _others(self, shown: tuple[Card, ...] | None) -> list[str]:
        """When several captures take all the card can: the ones not already ``shown``."""
        if len(self.options) < 2:
            return []
        others = [o for o in self.options if o != shown]
        head = (_("There are {n} ways to take all you can; any of them is right.").format(n=len(self.options))
                + " " + (_("The other:") if len(others) == 1 else _("The others:")))
        return [head] + [_("{card} takes {cards}").format(card=self.card.symbol,
                                                          cards=traffar_text(self.card, o, self.rules))
                         for o in others]

    def _judge(self, move: Move) -> None:
        self.attempts += 1
        e = explain_move([self.card], self.table, move, self.rules)
        if e.legal:
            self._win()
            self.table_row.hinted = []
            self.say("ok", _("Right. {explanation}").format(explanation=e.message),
                     self._others(move.capture) if move.capture else [])
        else:
            self.say("error", e.message, rule=e.rule)

    def check(self) -> None:
        """Capture the selected table cards (the Check button)."""
        picked = [Card(c) for c in self.table_row.selected_cards]
        if not picked:
            self.say("info", _("Select the table cards your {card} takes, "
                               "or press Creep (krypa) if it takes nothing.").format(card=self.card.symbol))
            return
        self._judge(Move(self.card, picked))

    def creep(self) -> None:
        """Creep with the card (the Creep (krypa) button)."""
        self._judge(Move(self.card))

    def show_answer(self) -> None:
        """Show a right capture (or the creep) with the engine's words, and any other right capture."""
        self._done = True
        if not self.options:
            e = explain_move([self.card], self.table, Move(self.card), self.rules)
            self.say("info", e.message)
            return
        first = self.options[0]
        self.table_row.hinted = self.table_row.indices_of(first)
        e = explain_move([self.card], self.table, Move(self.card, first), self.rules)
        self.say("info", e.message, self._others(first))
