"""Tvångstabbe: click the card that must take the whole table, or "No tabbe possible"."""

from __future__ import annotations

import random
from collections.abc import Iterable

from ...engine.captures import can_take_whole_table, played_value, tabbe_pa_text, tabbe_ranks
from ...engine.cards import Card
from ...engine.games import explain_move
from ...engine.moves import Move, describe_cards
from ...engine.rules import Rules
from ...i18n import N_, _, ngettext
from .base import Action, Exercise, NoCardLeft, cards_of, cards_row

__all__ = ["TvangstabbeExercise"]


class TvangstabbeExercise(Exercise):
    """Tvångstabbe: click the card that must take the whole table, or "No tabbe possible".

    The forced cards are the engine's (:func:`~krypteach.can_take_whole_table`),
    and so are the words (:func:`~krypteach.explain_move`).

    >>> ex = TvangstabbeExercise(hand="4C 10S 6H", table="AH 7C 3D 9S")
    >>> ex.hand_row.select(["4C"]); ex.check(); ex.message
    'Tvångstabbe (forced tabbe): your 10♠ can take the whole table (A♥+9♠ = 10 and 3♦+7♣ = 10), so you must play it and take everything.'
    """

    rule_key = "tvangstabbe"
    title = N_("Tvångstabbe (forced tabbe)")
    instruction = N_("If any card in your hand can take the <b>whole table</b> (the table splits into träffar "
                     "for it), you must play it and take everything: <b>tvångstabbe</b>. Select that card and "
                     "press <b>Check</b>, or press <b>No tabbe possible</b>.")
    parts = (
        cards_row("table_row", kind="table", selectable=False, label=N_("Table (bordet)")),
        cards_row("hand_row", kind="hand", multiple=False, label=N_("Your hand (handen)")),
    )
    actions = (
        Action("check_button", N_("Check"), "check", icon="check", style="primary",
               tip=N_("This card must take the whole table")),
        Action("none_button", N_("No tabbe possible"), "no_tabbe", icon="ban",
               tip=N_("No card in the hand can take the whole table")),
    )

    def __init__(self, hand: str | Iterable[Card | str] | None = None, table: str | Iterable[Card | str] | None = None,
                 *, difficulty: int = 1, rules: Rules | None = None, seed: int | None = None,
                 rng: random.Random | None = None) -> None:
        rules = rules or Rules()
        if not rules.forced_tabbe:
            raise ValueError("this exercise practises tvångstabbe, which these rules switch off (forced_tabbe=False)")
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        self._start(hand, table)

    def set_position(self, hand: str | Iterable[Card | str] | None, table: str | Iterable[Card | str] | None) -> None:
        """Show a fixed position: ``hand`` and ``table`` (codes)."""
        self.hand = cards_of(hand)
        self.table = cards_of(table)
        if not self.hand or not self.table:
            raise ValueError("the hand and the table need at least one card each")
        self.forced = [c for c in dict.fromkeys(self.hand) if can_take_whole_table(c, self.table, self.rules)]
        self.hand_row.cards = [str(c) for c in self.hand]
        self.table_row.cards = [str(c) for c in self.table]
        self._fresh()

    def new_position(self, difficulty: int | None = None) -> None:
        """A table that some rank takes whole; the hand holds one such card about 2 times in 3."""
        d = self._difficulty(difficulty)
        rng = self.rng
        ranks = {1: range(5, 11), 2: range(2, 14), 3: range(1, 14)}[d]
        groups = {1: (2, 2), 2: (2, 3), 3: (3, 4)}[d]
        for _try in range(500):
            self._fresh_deck()
            try:
                rank = rng.choice(ranks)
                target = played_value(Card.make(rank, "S"), self.rules)
                table: list[Card] = []
                for _group in range(rng.randint(*groups)):
                    if rng.random() < 0.25 and rank != 1:
                        table.append(self._card(rank))
                    else:
                        table += self._sum_group(target, rng.choice((2, 2, 3)))
                if not table or len(table) > 7:
                    continue
                rng.shuffle(table)
                hand = [self._card(rng.choice([r for r in range(1, 14) if r != rank])) for _ in range(3 if d == 1 else 4)]
                if rng.random() < 0.65:
                    hand[rng.randrange(len(hand))] = self._card(rank)
                if not can_take_whole_table(Card.make(rank, "S"), table, self.rules):
                    continue
                self.set_position(hand, table)
                return
            except NoCardLeft:
                continue
        raise RuntimeError("could not draw a position")  # pragma: no cover

    def _pa(self) -> str:
        return tabbe_pa_text(tabbe_ranks(self.table, self.rules)) or _("no tabbe on this table")

    def _takes_all(self, card: Card) -> str:
        """The engine's words for ``card`` taking the whole table."""
        return explain_move(self.hand, self.table, Move(card, self.table), self.rules).message

    def check(self) -> None:
        """Play the selected hand card (the Check button)."""
        picked = self.hand_row.selected_cards
        if not picked:
            self.say("info", _("Select a card in your hand first, or press No tabbe possible."))
            return
        card = Card(picked[0])
        self.attempts += 1
        if card in self.forced:
            self._win()
            others = [c for c in self.forced if c != card]
            details = [_("The table says {pa}.").format(pa=self._pa())]
            if others:
                details.append(ngettext("Your {cards} could do it too; with several such cards you choose.",
                                        "Your {cards} could do it too; with several such cards you choose.",
                                        len(others)).format(cards=describe_cards(others, " " + _("and") + " ")))
            self.say("ok", _("Yes — tvångstabbe. {explanation}").format(explanation=self._takes_all(card)), details)
            return
        if self.forced:
            e = explain_move(self.hand, self.table, Move(card), self.rules)
            self.say("error", e.message, rule=e.rule)
            return
        self.say("error", _("Your {card} cannot take the whole table, and no other card in your hand "
                            "can either, so there is no tvångstabbe here.").format(card=card.symbol),
                 [_("The table says {pa}; you hold no such card.").format(pa=self._pa())
                  if tabbe_ranks(self.table, self.rules) else _("No card at all could take this table whole.")])

    def no_tabbe(self) -> None:
        """Claim that no card takes the whole table (the No tabbe possible button)."""
        self.attempts += 1
        if self.forced:
            # the engine's tvångstabbe sentence says it once: which card, its split, and that it must be played
            free = next((c for c in self.hand if c not in self.forced), self.forced[0])
            e = explain_move(self.hand, self.table, Move(free), self.rules)
            self.say("error", _("There is one. {explanation}").format(explanation=e.message),
                     [_("The table says {pa}.").format(pa=self._pa())])
            return
        self._win()
        pa = tabbe_ranks(self.table, self.rules)
        self.say("ok", _("Right: no card in your hand can take the whole table, so you may play any card "
                         "(a card with a träff still must take all it can)."),
                 [_("The table says {pa}, and you hold no such card.").format(pa=self._pa()) if pa
                  else _("No card at all could take this table whole.")])

    def show_answer(self) -> None:
        """Point at the forced card(s), each with the engine's words for its tabbe; or say there is none."""
        self._done = True
        if self.forced:
            self.hand_row.hinted = [i for i, c in enumerate(self.hand) if c in self.forced]
            self.say("info", _("Tvångstabbe ({pa}): you must play your {cards} and take the whole table.").format(
                pa=self._pa(), cards=describe_cards(self.forced, " " + _("or") + " ")),
                [self._takes_all(c) for c in self.forced])
        else:
            self.say("info", _("No card in your hand can take the whole table ({pa}): no tvångstabbe.").format(
                pa=self._pa()))
