"""Exercises: small ipywidgets panels that drill one rule each.

Every check and every explanation comes from the engine
(:func:`~krypteach.traffar`, :func:`~krypteach.explain_move`,
:func:`~krypteach.capture_options`, :func:`~krypteach.legal_moves`,
:func:`~krypteach.split_into_traffar`, :func:`~krypteach.engine.scoring.point_breakdown`,
the :class:`~krypteach.Giv` state machine); the widgets only show cards, take
the learner's choice and print what the engine says, with the cards in play.

Each exercise is a ``VBox`` with a title, an instruction, card rows, buttons
with text ("Check", "New position", "Show answer", …) and a feedback area
(class ``kt-feedback``). ``solved`` and ``attempts`` are observable traits.
``new_position(difficulty)`` draws a fresh random position (seeded: pass
``seed=`` or ``rng=``); a fixed position can be given as card codes, so a
lesson can show the seed examples:

>>> ex = TakeAllExercise(card="9H", table="9S 2C 5D 7D")
>>> ex.table_row.select(["9S"]); ex.check()
>>> print(ex.message)
You must take all you can: 2♣+7♦ also make 9 and would stay on the table. Take 9♠ and 2♣+7♦; 5♦ stays.
>>> ex.table_row.select(["9S", "2C", "7D"]); ex.check(); ex.solved
1
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence

import ipywidgets as widgets
import traitlets

from ..engine.captures import can_take_whole_table, capture_options, played_value, split_into_traffar, tabbe_ranks, traffar
from ..engine.cards import Card, parse_cards
from ..engine.game import Giv
from ..engine.explain import explain_move
from ..engine.moves import Move
from ..engine.moves import describe_cards
from ..teaching.narrate import describe_turn, signed, tabbe_pa_text, traffar_text
from ..views import table_html
from ..engine.rules import Rules
from ..engine.scoring import card_points, point_breakdown, score_giv
from ._ui import button, esc, message_html, message_text
from .cards import CardRowWidget

__all__ = ["Exercise", "FindTraffarExercise", "TakeAllExercise", "TvangstabbeExercise",
           "DukningExercise", "CountPointsExercise"]

SUITS = "SHDC"
EXERCISE_NAMES = ("Ann", "Bea", "Dan", "Eva", "Kim", "Ola")


def _cards(value: "str | Iterable[object] | None") -> list[Card]:
    if value is None:
        return []
    return parse_cards(value) if isinstance(value, str) else [Card(c) for c in value]


class Exercise(widgets.VBox):
    """Common frame: title, instruction, content, buttons, feedback, progress.

    ``solved`` counts positions solved without help, ``attempts`` every check.
    ``message`` is the last feedback as plain text (for tests and lessons).
    """

    solved = traitlets.Int(0)
    attempts = traitlets.Int(0)

    title = "Exercise"
    instruction = ""

    def __init__(self, *, rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None,
                 difficulty: int = 1, **kwargs) -> None:
        self.rules = rules or Rules()
        self.rng = rng if rng is not None else random.Random(seed)
        self.difficulty = self._check_difficulty(difficulty)
        self.message = ""
        self._done = False  # solved (or answer shown) for this position
        self.title_html = widgets.HTML(f"<h3>{esc(self.title)}</h3>")
        self.title_html.add_class("kt-title")
        self.instruction_html = widgets.HTML(self.instruction)
        self.instruction_html.add_class("kt-instruction")
        self.feedback = widgets.HTML("")
        self.feedback.add_class("kt-feedback")
        self.progress = widgets.HTML("")
        self.progress.add_class("kt-progress")
        self.new_button = button("New position", "refresh", tip="Draw a new random position")
        self.answer_button = button("Show answer", "eye", tip="Show the answer and why")
        self.new_button.on_click(lambda _: self.new_position())
        self.answer_button.on_click(lambda _: self.show_answer())
        super().__init__(**kwargs)
        self.add_class("kt-exercise")
        self.observe(self._show_progress, names=["solved", "attempts"])
        self._show_progress()

    # --- frame ---------------------------------------------------------------
    @staticmethod
    def _check_difficulty(difficulty: int) -> int:
        if difficulty not in (1, 2, 3):
            raise ValueError(f"difficulty must be 1, 2 or 3, got {difficulty!r}")
        return difficulty

    def _layout(self, *content: widgets.Widget, buttons: Sequence[widgets.Widget]) -> None:
        bar = widgets.HBox(list(buttons))
        bar.add_class("kt-buttons")
        self.children = [self.title_html, self.instruction_html, *content, bar, self.feedback, self.progress]

    def _show_progress(self, change=None) -> None:
        self.progress.value = f"Solved: {self.solved} · Attempts: {self.attempts}"

    def say(self, kind: str, text: str, details: Sequence[str] = ()) -> None:
        """Show feedback: ``kind`` is ``"ok"``, ``"error"`` or ``"info"``; ``text`` is plain text."""
        self.message = message_text(text, details)
        self.feedback.value = message_html(kind, text, details)

    def _win(self) -> None:
        if not self._done:
            self.solved += 1
        self._done = True

    def _fresh(self) -> None:
        self._done = False
        self.message = ""
        self.feedback.value = ""

    def _difficulty(self, difficulty: int | None) -> int:
        if difficulty is not None:
            self.difficulty = self._check_difficulty(difficulty)
        return self.difficulty

    def new_position(self, difficulty: int | None = None) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def show_answer(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # --- random cards ----------------------------------------------------------
    def _card(self, value: int) -> Card:
        """A random card of table value ``value`` (1 = ace .. 13 = king)."""
        return Card.make(value, self.rng.choice(SUITS))

    def _sum_group(self, target: int, parts: int) -> list[Card]:
        """``parts`` cards whose values add up to ``target`` (empty if impossible)."""
        for _ in range(50):
            cuts = sorted(self.rng.sample(range(1, target), parts - 1)) if target > parts - 1 else None
            if cuts is None:
                return []
            values = [b - a for a, b in zip([0] + cuts, cuts + [target])]
            if all(1 <= v <= 13 for v in values):
                return [self._card(v) for v in values]
        return []


# ---------------------------------------------------------------------------
class FindTraffarExercise(Exercise):
    """Find the träffar: a played card and a table; select one träff at a time.

    >>> ex = FindTraffarExercise(card="9H", table="9S 2C 5D 7D 4S")
    >>> ex.table_row.select(["2C", "7D"]); ex.check()
    >>> ex.message.splitlines()[0]
    '2♣+7♦: 2 + 7 = 9, the value of your 9♥. That is a träff.'
    """

    title = "Find the träffar (find the matches)"
    instruction = ("A <b>träff</b> is a table card of the same rank as your card, or two or more table cards "
                   "that add up to your card's value (an ace you play counts 14, an ace on the table 1). "
                   "Select <b>one</b> träff on the table and press <b>Check</b>. Find them all.")

    def __init__(self, card: object = None, table: object = None, *, difficulty: int = 1,
                 rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None) -> None:
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        self.card_row = CardRowWidget(kind="hand", selectable=False, label="Your card (played)")
        self.table_row = CardRowWidget(kind="table", multiple=True, label="Table (bordet)")
        self.found_html = widgets.HTML("")
        self.check_button = button("Check", "check", "primary", "Is the selected group a träff?")
        self.check_button.on_click(lambda _: self.check())
        self._layout(self.card_row, self.table_row, self.found_html,
                     buttons=[self.check_button, self.new_button, self.answer_button])
        if card is not None or table is not None:
            self.set_position(card, table)
        else:
            self.new_position()

    def set_position(self, card: object, table: object) -> None:
        """Show a fixed position: ``card`` (a code) and ``table`` (codes)."""
        self.card = Card(card)
        self.table = _cards(table)
        if not self.table:
            raise ValueError("the table needs at least one card")
        self.all_traffar = traffar(self.card, self.table, self.rules)
        self.found: list[tuple[Card, ...]] = []
        self.card_row.cards = [str(self.card)]
        self.table_row.cards = [str(c) for c in self.table]
        self._fresh()
        self._show_found()

    def new_position(self, difficulty: int | None = None) -> None:
        """A random card and table with 1–2 (easy), 2–4 or 3–6 (hard) träffar."""
        d = self._difficulty(difficulty)
        rng = self.rng
        size = {1: (3, 4), 2: (5, 6), 3: (6, 8)}[d]
        want = {1: (1, 2), 2: (2, 4), 3: (3, 6)}[d]
        ranks = {1: range(2, 11), 2: range(2, 14), 3: range(1, 14)}[d]
        high = {1: 10, 2: 12, 3: 13}[d]
        for _ in range(500):
            card = Card.make(rng.choice(ranks), rng.choice(SUITS))
            target = played_value(card, self.rules)
            table: list[Card] = []
            for _ in range(want[0]):
                if rng.random() < 0.3 and card.rank != 1:
                    table.append(self._card(card.rank))
                else:
                    table += self._sum_group(target, rng.choice((2, 2, 3)))
            n = rng.randint(*size)
            while len(table) < n:
                table.append(self._card(rng.randint(1, high)))
            if len(table) > size[1]:
                continue
            rng.shuffle(table)
            if want[0] <= len(traffar(card, table, self.rules)) <= want[1]:
                self.set_position(card, table)
                return
        raise RuntimeError("could not draw a position")  # pragma: no cover

    def _show_found(self) -> None:
        total = len(self.all_traffar)
        items = "".join(f"<li>{esc(self._sum_text(t))}</li>" for t in self.found)
        self.found_html.value = (f"<div class='kt-progress'>Found {len(self.found)} of {total} "
                                 f"träff{'ar' if total != 1 else ''}</div>"
                                 + (f"<ul>{items}</ul>" if items else ""))

    def _sum_text(self, group: Sequence[Card]) -> str:
        target = played_value(self.card, self.rules)
        if len(group) == 1:
            c = group[0]
            if c.rank == self.card.rank:
                return f"{c.symbol}: same rank as your {self.card.symbol}"
            return f"{c.symbol}: a single ace, which a played ace takes"
        return f"{describe_cards(group)}: {' + '.join(str(c.value) for c in group)} = {target}"

    def check(self) -> None:
        """Check the selected table cards (what the Check button does)."""
        picked = tuple(sorted(Card(c) for c in self.table_row.selected_cards))
        card, target = self.card, played_value(self.card, self.rules)
        if not picked:
            self.say("info", f"Select table cards that make one träff for your {card.symbol} first.")
            return
        self.attempts += 1
        total = len(self.all_traffar)
        if picked in self.all_traffar:
            self.table_row.selected = []
            if picked in self.found:
                self.say("info", f"You already found {describe_cards(picked)}. "
                         f"{total - len(self.found)} more to find.")
                return
            self.found.append(picked)
            self._show_found()
            if len(picked) == 1 and picked[0].rank == card.rank:
                head = f"{picked[0].symbol} has the same rank as your {card.symbol}. That is a träff."
            elif len(picked) == 1:
                head = f"{picked[0].symbol} is a single ace: a played ace takes a table ace. That is a träff."
            else:
                head = f"{self._sum_text(picked)}, the value of your {card.symbol}. That is a träff."
            if len(self.found) == total:
                self._win()
                self.say("ok", head, [f"You found all {total} träff{'ar' if total != 1 else ''} for "
                                      f"{card.symbol}: " + "; ".join(describe_cards(t) for t in self.found) + "."])
            else:
                left = total - len(self.found)
                self.say("ok", head, [f"Found {len(self.found)} of {total}: {left} more to find."])
            return
        split = split_into_traffar(card, list(picked), self.rules)
        if split and len(split) > 1:
            self.say("error", f"That is {len(split)} träffar at once: "
                     + " and ".join(describe_cards(g) for g in split) + ". Select one träff at a time.")
            return
        if len(picked) == 1:
            c = picked[0]
            why = (f"{c.symbol} alone is not a träff for your {card.symbol}: a single card is a träff only "
                   f"when it has the same rank")
            if c.value < target:
                why += f". Its value {c.value} needs more cards worth {target - c.value} to make {target}."
            else:
                why += f", and {c.value} is more than {target}."
            self.say("error", why)
            return
        values = " + ".join(str(c.value) for c in picked)
        s = sum(c.value for c in picked)
        self.say("error", f"{describe_cards(picked)} add up to {values} = {s}, not {target}"
                 f"{' (too much)' if s > target else ' (too little)'}: "
                 f"a group is a träff only when it adds up to exactly {target}, your {card.symbol}'s value"
                 + (" (a played ace counts 14; table aces count 1)." if card.rank == 1 else "."))

    def show_answer(self) -> None:
        """List every träff (what the Show answer button does)."""
        self._done = True
        self.table_row.hinted = sorted({i for t in self.all_traffar for i in self.table_row.indices_of(t)})
        total = len(self.all_traffar)
        self.say("info", f"Your {self.card.symbol} has {total} träff{'ar' if total != 1 else ''} here:",
                 [self._sum_text(t) for t in self.all_traffar])


# ---------------------------------------------------------------------------
class TakeAllExercise(Exercise):
    """Take everything you must: select the capture for the played card, or creep.

    The engine's :func:`~krypteach.explain_move` judges the choice.

    >>> ex = TakeAllExercise(card="4H", table="9S 2C 5D")
    >>> ex.creep(); ex.message
    'Right. 4♥ has no träff, so it creeps (kryper): it is laid on the table.'
    """

    title = "Take all you must (ta in allt)"
    instruction = ("You play the card on the left. If it has a träff it <b>must capture</b>, and it must "
                   "<b>take all it can</b>: no träff for it may stay on the table. Select the table cards it "
                   "takes and press <b>Check</b> — or press <b>Creep (krypa)</b> if it takes nothing.")

    def __init__(self, card: object = None, table: object = None, *, difficulty: int = 1,
                 rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None) -> None:
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        self.card_row = CardRowWidget(kind="hand", selectable=False, label="Your card (played)")
        self.table_row = CardRowWidget(kind="table", multiple=True, label="Table (bordet)")
        self.check_button = button("Check", "check", "primary", "Take the selected cards")
        self.creep_button = button("Creep (krypa)", "arrow-down", tip="Lay the card on the table: it takes nothing")
        self.check_button.on_click(lambda _: self.check())
        self.creep_button.on_click(lambda _: self.creep())
        self._layout(self.card_row, self.table_row,
                     buttons=[self.check_button, self.creep_button, self.new_button, self.answer_button])
        if card is not None or table is not None:
            self.set_position(card, table)
        else:
            self.new_position()

    def set_position(self, card: object, table: object) -> None:
        self.card = Card(card)
        self.table = _cards(table)
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
        for _ in range(500):
            card = Card.make(rng.choice(ranks), rng.choice(SUITS))
            target = played_value(card, self.rules)
            table: list[Card] = []
            if not creep:
                for _ in range(rng.randint(1, d)):
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
        raise RuntimeError("could not draw a position")  # pragma: no cover

    def _several(self) -> list[str]:
        if len(self.options) < 2:
            return []
        return [f"There are {len(self.options)} ways to take all you can; any of them is right:"] + \
            [f"{self.card.symbol} takes {traffar_text(self.card, o, self.rules)}" for o in self.options]

    def _judge(self, move: Move) -> None:
        self.attempts += 1
        e = explain_move([self.card], self.table, move, self.rules)
        if e.legal:
            self._win()
            self.table_row.hinted = []
            self.say("ok", "Right. " + e.message, self._several() if move.capture else [])
        else:
            self.say("error", e.message)

    def check(self) -> None:
        """Capture the selected table cards (the Check button)."""
        picked = [Card(c) for c in self.table_row.selected_cards]
        if not picked:
            self.say("info", f"Select the table cards your {self.card.symbol} takes, "
                     "or press Creep (krypa) if it takes nothing.")
            return
        self._judge(Move(self.card, picked))

    def creep(self) -> None:
        """Creep with the card (the Creep (krypa) button)."""
        self._judge(Move(self.card))

    def show_answer(self) -> None:
        self._done = True
        if not self.options:
            e = explain_move([self.card], self.table, Move(self.card), self.rules)
            self.say("info", e.message)
            return
        first = self.options[0]
        self.table_row.hinted = self.table_row.indices_of(first)
        e = explain_move([self.card], self.table, Move(self.card, first), self.rules)
        self.say("info", e.message, self._several())


# ---------------------------------------------------------------------------
class TvangstabbeExercise(Exercise):
    """Tvångstabbe: click the card that must take the whole table, or "No tabbe possible".

    >>> ex = TvangstabbeExercise(hand="4C 10S 6H", table="AH 7C 3D 9S")
    >>> ex.hand_row.select(["4C"]); ex.check(); ex.message
    'Tvångstabbe (forced tabbe): your 10♠ can take the whole table (A♥+9♠ = 10 and 3♦+7♣ = 10), so you must play it and take everything.'
    """

    title = "Tvångstabbe (forced tabbe)"
    instruction = ("If any card in your hand can take the <b>whole table</b> (the table splits into träffar "
                   "for it), you must play it and take everything: <b>tvångstabbe</b>. Select that card and "
                   "press <b>Check</b>, or press <b>No tabbe possible</b>.")

    def __init__(self, hand: object = None, table: object = None, *, difficulty: int = 1,
                 rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None) -> None:
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        if not self.rules.forced_tabbe:
            raise ValueError("this exercise practises tvångstabbe, which these rules switch off (forced_tabbe=False)")
        self.hand_row = CardRowWidget(kind="hand", multiple=False, label="Your hand (handen)")
        self.table_row = CardRowWidget(kind="table", selectable=False, label="Table (bordet)")
        self.check_button = button("Check", "check", "primary", "This card must take the whole table")
        self.none_button = button("No tabbe possible", "ban", tip="No card in the hand can take the whole table")
        self.check_button.on_click(lambda _: self.check())
        self.none_button.on_click(lambda _: self.no_tabbe())
        self._layout(self.table_row, self.hand_row,
                     buttons=[self.check_button, self.none_button, self.new_button, self.answer_button])
        if hand is not None or table is not None:
            self.set_position(hand, table)
        else:
            self.new_position()

    def set_position(self, hand: object, table: object) -> None:
        self.hand = _cards(hand)
        self.table = _cards(table)
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
        for _ in range(500):
            rank = rng.choice(ranks)
            target = played_value(Card.make(rank, "S"), self.rules)
            table: list[Card] = []
            for _ in range(rng.randint(*groups)):
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
        raise RuntimeError("could not draw a position")  # pragma: no cover

    def _whole_text(self, card: Card) -> str:
        split = split_into_traffar(card, self.table, self.rules) or [tuple(self.table)]
        return " and ".join(describe_cards(g) for g in split)

    def _pa(self) -> str:
        return tabbe_pa_text(tabbe_ranks(self.table, self.rules)) or "no tabbe on this table"

    def check(self) -> None:
        """Play the selected hand card (the Check button)."""
        picked = self.hand_row.selected_cards
        if not picked:
            self.say("info", "Select a card in your hand first, or press No tabbe possible.")
            return
        card = Card(picked[0])
        self.attempts += 1
        if card in self.forced:
            self._win()
            others = [c for c in self.forced if c != card]
            details = [f"The table says {self._pa()}."]
            if others:
                details.append(f"Your {describe_cards(others, ' and ')} could do it too; with several such cards you choose.")
            self.say("ok", f"Yes — tvångstabbe: your {card.symbol} takes the whole table: "
                     f"{self._whole_text(card)}.", details)
            return
        if self.forced:
            e = explain_move(self.hand, self.table, Move(card), self.rules)
            self.say("error", e.message)
            return
        self.say("error", f"Your {card.symbol} cannot take the whole table, and no other card in your hand "
                 f"can either, so there is no tvångstabbe here.",
                 [f"The table says {self._pa()}; you hold no such card." if tabbe_ranks(self.table, self.rules)
                  else "No card at all could take this table whole."])

    def no_tabbe(self) -> None:
        """Claim that no card takes the whole table (the No tabbe possible button)."""
        self.attempts += 1
        if self.forced:
            card = self.forced[0]
            e = explain_move(self.hand, self.table, Move(card), self.rules)
            self.say("error", f"There is one: your {describe_cards(self.forced, ' or ')} can take the whole table "
                     f"({self._whole_text(card)}) — {self._pa()}. "
                     "So you must play it and take everything (tvångstabbe).", [e.message])
            return
        self._win()
        pa = tabbe_ranks(self.table, self.rules)
        self.say("ok", "Right: no card in your hand can take the whole table, so you may play any card "
                 "(a card with a träff still must take all it can).",
                 [f"The table says {self._pa()}, and you hold no such card." if pa
                  else "No card at all could take this table whole."])

    def show_answer(self) -> None:
        self._done = True
        if self.forced:
            self.hand_row.hinted = [i for i, c in enumerate(self.hand) if c in self.forced]
            card = self.forced[0]
            self.say("info", f"Your {describe_cards(self.forced, ' or ')} can take the whole table: "
                     f"{self._whole_text(card)} ({self._pa()}).",
                     [explain_move(self.hand, self.table, Move(card, self.table), self.rules).message])
        else:
            self.say("info", f"No card in your hand can take the whole table ({self._pa()}): no tvångstabbe.")


# ---------------------------------------------------------------------------
class DukningExercise(Exercise):
    """Who gets the dukning? A few moves of a real giv ending in a tabbe.

    Built from a :class:`~krypteach.Giv` played at random by the engine (or a
    given ``giv`` whose last move is a tabbe). The answer is the engine's
    ``Turn.dukning``.

    >>> ex = DukningExercise(seed=4)
    >>> ex.answer(ex.tabbe_turn.dukning); ex.solved
    1
    """

    title = "Who gets the dukning? (dukning)"
    instruction = ("These are the last moves before a <b>tabbe</b> (a capture that empties the table). "
                   "The player who moved <b>just before</b> the tabbe set it up (<i>dukade för tabben</i>) "
                   "and gets a <b>dukning</b>: −5 points, or two (−10) for a dubbeltabbe — welcome points, "
                   "since the lowest score wins. Who gets the dukning?")

    def __init__(self, giv: Giv | None = None, *, names: Sequence[str] | None = None, difficulty: int = 1,
                 rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None) -> None:
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        self._names = list(names) if names else None
        self.steps_html = widgets.HTML("")
        self.answer_box = widgets.HBox([])
        self.answer_box.add_class("kt-buttons")
        question = widgets.HTML("<b>Who gets the dukning?</b>")
        self._layout(self.steps_html, question, self.answer_box, buttons=[self.new_button, self.answer_button])
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
        steps = []
        for _ in range(len(giv.turns) - first):
            turn = back.undo()
            steps.append((list(back.table), turn))
        self.tabbe_turn = giv.turns[-1]
        self.steps = steps[::-1]
        buttons = []
        for seat, name in enumerate(self.names):
            b = button(name, "user", "info", tip=f"{name} gets the dukning")
            b.on_click(lambda _, s=seat: self.answer(s))
            buttons.append(b)
        nobody = button("Nobody", "ban", "info", tip="Nobody gets a dukning")
        nobody.on_click(lambda _: self.answer(None))
        self.answer_buttons = buttons + [nobody]
        self.answer_box.children = self.answer_buttons
        self._draw_steps()
        self._fresh()

    def _draw_steps(self) -> None:
        g = self.giv
        order = " → ".join(self.names[(g.dealer + 1 + i) % g.rules.players] for i in range(g.rules.players))
        rows = [f"<div class='kt-progress'>{g.rules.players} players; play goes left: {esc(order)} → …</div>"]
        if self.steps[0][1] is g.turns[0]:
            start = ("<b>Start of the giv:</b> the cards are dealt." if self.tabbe_turn.dukning is None or
                     len(g.turns) > 1 else "This position is from the middle of a giv.")
            rows.append(f"<div class='kt-step'>{start}</div>")
        for table, turn in self.steps:
            text = describe_turn(turn, self.names, g.rules, show_dukning=False)
            rows.append(f"<div class='kt-step'><div class='kt-step-table'>"
                        f"{table_html(table, width=38, label='Table before the move')}</div>"
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
        what = f"a dubbeltabbe, two tabbe marks ({signed(2 * pts)})" if t.tabbe == 2 \
            else f"a tabbe, one tabbe mark ({signed(pts)})"
        details = [f"{taker} emptied the table with {t.move.card.symbol} — {what} for {taker}."]
        if t.dukning is None:
            return "Nobody: the tabbe was the first move of the giv, so nobody moved just before it.", details
        setter = self.names[t.dukning]
        n = "two dukningar" if t.tabbe == 2 else "a dukning"
        pts = abs(self.giv.rules.dukning_points) * t.tabbe
        if len(self.giv.turns) > 1:
            did = describe_turn(self.giv.turns[-2], self.names, self.giv.rules, show_dukning=False)
            details.append(f"Just before: {did}")
        else:
            details.append(f"{setter} moved just before this position.")
        return f"{setter} gets {n} (−{pts}): {setter} made the move just before the tabbe.", details

    def answer(self, seat: int | None) -> None:
        """Answer with a seat (or ``None`` for nobody): what the name buttons do."""
        self.attempts += 1
        head, details = self._why()
        t = self.tabbe_turn
        if seat == t.dukning:
            self._win()
            self.say("ok", "Right. " + head, details)
            return
        if seat is None:
            wrong = "Not nobody."
        elif seat == t.player:
            wrong = f"Not {self.names[seat]}: {self.names[seat]} made the tabbe and gets the mark, not the dukning."
        else:
            wrong = f"Not {self.names[seat]}: {self.names[seat]} did not make the move just before the tabbe."
        self.say("error", f"{wrong} {head}", details)

    def show_answer(self) -> None:
        self._done = True
        head, details = self._why()
        self.say("info", head, details)


# ---------------------------------------------------------------------------
class CountPointsExercise(Exercise):
    """Count the points of a pile, with tabbe marks and dukningar.

    >>> ex = CountPointsExercise(pile="10D 2S AS AH 7S 7H", marks=1)
    >>> ex.points.value = 14; ex.check(); ex.solved
    1
    """

    title = "Count the points (räkna poäng)"
    instruction = ("Card points: <b>storan</b> (10♦) 3, <b>lillan</b> (2♠) 2, <b>spader ess</b> (A♠) 2, every "
                   "other ace 1, every other spade 1, all else 0. Add 5 for each tabbe mark and −5 for each "
                   "dukning. Remember: in Krypkasino points are bad — the lowest score wins.")

    def __init__(self, pile: object = None, *, marks: int = 0, dukningar: int = 0, difficulty: int = 1,
                 rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None) -> None:
        super().__init__(rules=rules, seed=seed, rng=rng, difficulty=difficulty)
        self.pile_row = CardRowWidget(kind="pile", selectable=False, width=64, label="The pile (högen)")
        self.extras_html = widgets.HTML("")
        self.points = widgets.IntText(value=0, description="Points (poäng):",
                                      style={"description_width": "initial"},
                                      layout=widgets.Layout(width="200px"))
        self.check_button = button("Check", "check", "primary", "Check your count")
        self.check_button.on_click(lambda _: self.check())
        self._layout(self.pile_row, self.extras_html, self.points,
                     buttons=[self.check_button, self.new_button, self.answer_button])
        if pile is not None:
            self.set_position(pile, marks, dukningar)
        else:
            self.new_position()

    def set_position(self, pile: object, marks: int = 0, dukningar: int = 0) -> None:
        self.pile = sorted(_cards(pile))
        self.marks, self.dukningar = marks, dukningar
        result = score_giv(self.rules, [self.pile], [marks], [dukningar], [marks], None, ())
        self.expected = result.scores[0]
        self.pile_row.cards = [str(c) for c in self.pile]
        extras = []
        if marks:
            extras.append(f"{marks} tabbe mark{'s' if marks != 1 else ''} (tabbar)")
        if dukningar:
            extras.append(f"{dukningar} dukning{'ar' if dukningar != 1 else ''}")
        self.extras_html.value = (f"<div class='kt-instruction'>This player also has {' and '.join(extras)}.</div>"
                                  if extras else "")
        self.points.value = 0
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
        lines = [f"{c.symbol} {why}: {p}" for c, p, why in point_breakdown(self.pile)]
        zero = len(self.pile) - len(lines)
        if zero:
            lines.append("the other card scores 0" if zero == 1 else f"the other {zero} cards score 0")
        return lines

    def _sum(self) -> str:
        r = self.rules
        cp = card_points(self.pile)
        parts = [f"{cp} card points"]
        if self.marks:
            parts.append(f"{self.marks} × {signed(r.tabbe_points)} for tabbe marks")
        if self.dukningar:
            parts.append(f"{self.dukningar} × {signed(r.dukning_points)} for dukningar")
        return " + ".join(parts) + f" = {signed(self.expected, plus=False)}"

    def check(self) -> None:
        """Check the number typed in ``points`` (the Check button)."""
        self.attempts += 1
        said = self.points.value
        if said == self.expected:
            self._win()
            self.say("ok", f"Right: {self._sum()}.", self._breakdown())
            return
        hint = self._breakdown()
        if self.marks or self.dukningar:
            hint.append(f"then add {signed(self.rules.tabbe_points)} for each tabbe mark and "
                        f"{signed(self.rules.dukning_points)} for each dukning")
        self.say("error", f"Not {said}. These cards score — add them up and try again:", hint)

    def show_answer(self) -> None:
        self._done = True
        self.say("info", f"{self._sum()}.", self._breakdown())
