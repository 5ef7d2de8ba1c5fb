"""The frame every exercise shares: title, instruction, its own parts, buttons, feedback, progress.

An exercise DECLARES what it shows: ``parts`` (the widgets between the
instruction and the buttons, top to bottom, each kept as an attribute) and
``actions`` (its own buttons, before "New position" and "Show answer"). The
base class builds them and lays the exercise out, so an exercise module
holds only what is its own: its positions, its checks and its words.

The words a subclass declares (``title``, ``instruction``, the labels of its card rows,
the texts and tips of its buttons) are marked with ``N_()`` and translated when the
exercise is built, in the page's language (:mod:`krypteach.i18n`).

>>> class Hello(Exercise):
...     title = "Hello"
...     parts = (cards_row("table_row", kind="table", label="Table"),)
...     actions = (Action("check_button", "Check", "check", icon="check", style="primary"),)
...     def check(self) -> None:
...         self.say("ok", f"{len(self.table_row.cards)} cards.")
>>> ex = Hello()
>>> ex.table_row.cards = ["9S", "2C"]
>>> [b.description for b in ex.buttons], ex.check_button.click(), ex.message
(['Check', 'New position', 'Show answer'], None, '2 cards.')
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import ipywidgets as widgets  # type: ignore[import-untyped]
import traitlets

from ...classroom.session import current
from ...engine.cards import Card, parse_cards
from ...engine.games import game_of
from ...engine.rules import Rules
from ...i18n import N_, _
from .._ui import button, esc, message_html, message_text
from ..cards import CardRowWidget

__all__ = ["SUITS", "Action", "Exercise", "NoCardLeft", "Part", "cards_of", "cards_row", "html_part", "tr"]

SUITS = "SHDC"


class NoCardLeft(Exception):
    """The deck a position is drawn from has no card of that value left: draw another position."""


def tr(text: str) -> str:
    """``text`` (a message marked with ``N_()``) in the page's language; an empty text stays empty.

    >>> tr(""), tr("Check")
    ('', 'Check')
    """
    return _(text) if text else ""


def cards_of(value: str | Iterable[Card | str] | None) -> list[Card]:
    """Cards from codes (``"9S 2C"``) or an iterable of cards or codes; ``None`` is no cards.

    >>> cards_of("9s 2c"), cards_of([Card("7H")]), cards_of(None)
    ([Card('9S'), Card('2C')], [Card('7H')], [])
    """
    if value is None:
        return []
    return parse_cards(value) if isinstance(value, str) else [Card(c) for c in value]


@dataclass(frozen=True)
class Part:
    """One widget of an exercise's body: ``make()`` builds it, and the
    exercise keeps it as attribute ``attr``."""

    attr: str
    make: Callable[[], Any]


def cards_row(attr: str, **options: Any) -> Part:
    """A :class:`~krypteach.widgets.CardRowWidget` part (``options`` as for the widget; a
    ``label`` marked with ``N_()`` is translated when the row is made)."""
    def make() -> CardRowWidget:
        label = options.get("label")
        return CardRowWidget(**({**options, "label": tr(label)} if isinstance(label, str) else options))
    return Part(attr, make)


def html_part(attr: str, text: str = "") -> Part:
    """An HTML part, empty until the exercise writes into it (``text``, marked with ``N_()``,
    is translated when the part is made)."""
    return Part(attr, lambda: widgets.HTML(tr(text)))


@dataclass(frozen=True)
class Action:
    """One of an exercise's own buttons: its visible ``text``, the attribute
    ``attr`` that holds it, and the ``method`` (a name) a click calls (``text`` and
    ``tip`` marked with ``N_()``: they are translated when the button is made)."""

    attr: str
    text: str
    method: str
    icon: str = ""
    style: str = ""
    tip: str = ""


class Exercise(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """Common frame: title, instruction, the declared ``parts`` and ``actions``,
    "New position" and "Show answer", feedback and progress.

    ``solved`` counts positions solved without help, ``attempts`` every check.
    ``message`` is the last feedback as plain text (for tests and lessons).

    The learner's progress gets each verdict on a position, saying which try it was
    (``first-try``, or ``second-try`` for any later one); Show answer on a position not yet
    solved records it as not solved (``shown``), and nothing checked after that is recorded.
    A subclass sets ``title``, ``instruction``, ``parts`` and ``actions``, and
    writes ``new_position`` and ``show_answer`` (and the methods its actions name).
    """

    solved = traitlets.Int(0)
    attempts = traitlets.Int(0)

    title: ClassVar[str] = N_("Exercise")
    instruction: ClassVar[str] = ""
    #: the widgets between the instruction and the buttons, top to bottom
    parts: ClassVar[tuple[Part, ...]] = ()
    #: the exercise's own buttons, before "New position" and "Show answer"
    actions: ClassVar[tuple[Action, ...]] = ()
    #: the rule a wrong answer breaks, for the learner's progress (the engine's explanation key)
    rule_key: ClassVar[str] = "exercise"

    def __init__(self, *, rules: Rules | None = None, seed: int | None = None, rng: random.Random | None = None,
                 difficulty: int = 1, **kwargs: Any) -> None:
        self.rules = rules or Rules()
        self.rng = rng if rng is not None else random.Random(seed)
        # the learner's progress: this exercise is one item of the page
        self.item = current().declare(re.sub(r"(?<!^)(?=[A-Z])", "-", type(self).__name__).lower(), "exercise",
                                      title=self.title)  # as written: the teacher's page says it in its language
        self._recorded = 0
        self._tries_here = 0  # verdicts recorded on this position
        self._shown = False  # its answer was shown: nothing more is recorded for it
        self.difficulty = self._check_difficulty(difficulty)
        self.message = ""
        self._done = False  # solved (or answer shown) for this position
        self.title_html = widgets.HTML(f"<h3>{esc(tr(self.title))}</h3>")
        self.title_html.add_class("kt-title")
        self.instruction_html = widgets.HTML(tr(self.instruction))
        self.instruction_html.add_class("kt-instruction")
        self.feedback = widgets.HTML("")
        self.feedback.add_class("kt-feedback")
        self.progress = widgets.HTML("")
        self.progress.add_class("kt-progress")
        body = []
        for part in self.parts:
            widget = part.make()
            setattr(self, part.attr, widget)
            body.append(widget)
        own = [self._make_button(a) for a in self.actions]
        self.new_button = button(_("New position"), "refresh", tip=_("Draw a new random position"))
        self.answer_button = button(_("Show answer"), "eye", tip=_("Show the answer and why"))
        self.new_button.on_click(lambda _: self.new_position())
        self.answer_button.on_click(lambda _: self.show_answer())
        self.buttons: list[Any] = [*own, self.new_button, self.answer_button]
        bar = widgets.HBox(self.buttons)
        bar.add_class("kt-buttons")
        super().__init__(children=[self.title_html, self.instruction_html, *body, bar, self.feedback, self.progress],
                         **kwargs)
        self.add_class("kt-exercise")
        self.observe(self._show_progress, names=["solved", "attempts"])
        self._show_progress()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every exercise's own Show answer first records the shown answer (see the class docstring)."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("show_answer")
        if own is not None and not getattr(own, "_records_shown", False):
            @functools.wraps(own)
            def show_answer(self: Exercise) -> None:
                self._answer_shown()
                own(self)
            show_answer._records_shown = True  # type: ignore[attr-defined]
            cls.show_answer = show_answer  # type: ignore[method-assign]

    def _answer_shown(self) -> None:
        if not self._done and not self._shown:
            current().record(self.item, "exercise", correct=False, rule=self.rule_key, how="shown")
        self._shown = True

    def _make_button(self, action: Action) -> Any:
        b = button(tr(action.text), action.icon, action.style, tr(action.tip))
        b.on_click(lambda _: getattr(self, action.method)())
        setattr(self, action.attr, b)
        return b

    # --- frame ---------------------------------------------------------------
    @staticmethod
    def _check_difficulty(difficulty: int) -> int:
        if difficulty not in (1, 2, 3):
            raise ValueError(f"difficulty must be 1, 2 or 3, got {difficulty!r}")
        return difficulty

    def _show_progress(self, change: object = None) -> None:
        self.progress.value = _("Solved: {solved} · Attempts: {attempts}").format(solved=self.solved,
                                                                                  attempts=self.attempts)

    def say(self, kind: str, text: str, details: Sequence[str] = (), rule: str | None = None, *,
            verdict: bool = True, answer: str | None = None, expected: str | None = None) -> None:
        """Show feedback: ``kind`` is ``"ok"``, ``"error"`` or ``"info"``; ``text`` is plain text.

        The verdict on a check (the first ``"ok"`` or ``"error"`` after ``attempts`` grew)
        goes into the learner's progress, with ``rule`` (else :attr:`rule_key`) for a mistake,
        which try it was, and the learner's ``answer`` and the ``expected`` one where given.
        ``verdict=False`` is a step on the way (one träff of three found), not a verdict.
        """
        self.message = message_text(text, details)
        self.feedback.value = message_html(kind, text, details)
        if kind in ("ok", "error") and verdict and self.attempts > self._recorded and not self._shown:
            self._recorded = self.attempts
            how = "first-try" if self._tries_here == 0 else "second-try"
            self._tries_here += 1
            current().record(self.item, "exercise", correct=kind == "ok",
                             rule=None if kind == "ok" else (rule or self.rule_key), how=how,
                             answer=answer, expected=expected)

    def _win(self) -> None:
        if not self._done:
            self.solved += 1
        self._done = True

    def _fresh(self) -> None:
        self._done = False
        self._tries_here = 0
        self._shown = False
        self.message = ""
        self.feedback.value = ""

    def _difficulty(self, difficulty: int | None) -> int:
        if difficulty is not None:
            self.difficulty = self._check_difficulty(difficulty)
        return self.difficulty

    def new_position(self, difficulty: int | None = None) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _start(self, *fixed: object) -> None:
        """Show the fixed position the exercise was given (any of ``fixed`` set), or a new one."""
        if any(x is not None for x in fixed):
            self.set_position(*fixed)
        else:
            self.new_position()

    @staticmethod
    def _played_on_table(card: Card | str | None, table: str | Iterable[Card | str] | None) -> tuple[Card, list[Card]]:
        """A fixed position's played card and table, checked."""
        if card is None:
            raise ValueError("a fixed position needs the played card")
        return Card(card), cards_of(table)

    def show_answer(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # --- random cards ----------------------------------------------------------
    def _fresh_deck(self) -> None:
        """Start drawing a new position from the game's deck: each card as often as the deck
        holds it (twice in Krypkasino's two decks), so no position shows a card three times."""
        copies = game_of(self.rules).copies
        self._left: Counter[Card] | None = Counter({Card(i): copies for i in range(52)})

    def _card(self, value: int) -> Card:
        """A random card of table value ``value`` (1 = ace .. 13 = king), from what is left of
        the deck since :meth:`_fresh_deck` (:class:`NoCardLeft` when none of that value is)."""
        left = getattr(self, "_left", None)
        suits = SUITS if left is None else [s for s in SUITS if left[Card.make(value, s)] > 0]
        if not suits:
            raise NoCardLeft(value)
        card = Card.make(value, self.rng.choice(suits))
        if left is not None:
            left[card] -= 1
        return card

    def _sum_group(self, target: int, parts: int) -> list[Card]:
        """``parts`` cards whose values add up to ``target`` (empty if impossible)."""
        for _try in range(50):
            cuts = sorted(self.rng.sample(range(1, target), parts - 1)) if target > parts - 1 else None
            if cuts is None:
                return []
            values = [b - a for a, b in zip([0, *cuts], [*cuts, target])]
            if all(1 <= v <= 13 for v in values):
                return [self._card(v) for v in values]
        return []
