"""``PuzzleTrainer``: solve the shipped capture puzzles by clicking cards.

Every check and explanation comes from :mod:`krypteach.teaching.puzzles` (which proves
each answer); the widget only turns the selected cards into an answer:

- *what must you take?* — the selected table cards (or **Creep**),
- *which card must you play?* and *safest card* — the selected hand card,
- *set up a dukning* and *endgame* — a move: a hand card plus the table cards it takes.

>>> t = PuzzleTrainer(kind="which-card", seed=1)
>>> t.select_hand(t.puzzle.answers[0]); t.check()
>>> t.solved, t.message.startswith("Right")
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]
import traitlets

from ..classroom.session import current
from ..engine.builds import Build, table_cards
from ..engine.captures import tabbe_pa_text, tabbe_ranks, traffar
from ..engine.cards import Card
from ..engine.moves import Move, legal_moves
from ..i18n import N_, _, language, ngettext
from ..teaching.puzzles import (
    DIFFICULTIES,
    KASINO_KINDS,
    KINDS,
    Puzzle,
    Solution,
    judge,
    load_puzzles,
    solve,
)
from ..teaching.puzzles.base import PuzzleError
from ..teaching.puzzles.fresh import estimated_rating, is_generated, made_by, puzzle_from_id, themes_of
from ._ui import button, esc, message_html, message_text
from .cards import CardRowWidget
from .game_table import TableRowWidget

__all__ = ["PuzzleTrainer", "KIND_TITLES", "puzzle_words"]

#: each kind's title, marked with ``N_()``: translate it where it is shown (``_(KIND_TITLES[kind])``)
KIND_TITLES = {
    "what-must-you-take": N_("What must you take? (ta in allt)"),
    "which-card": N_("Which card must you play? (tvångstabbe)"),
    "safest-card": N_("Safest card (minst poäng)"),
    "set-up-dukning": N_("Set up a dukning (duka för en tabbe)"),
    "endgame": N_("Endgame: every card known (slutspel)"),
    "kasino-safe-build": N_("Kasino: a build that stays yours (bygge)"),
    "kasino-steal": N_("Kasino: which build can be stolen? (bygge)"),
    "kasino-take-or-raise": N_("Kasino: take the build or raise it? (bygga på)"),
    "kasino-endgame": N_("Kasino: the last cards, every card known"),
}

_HOW = {
    "what-must-you-take": N_("Select the table cards your card must take and press <b>Check</b> — or "
                             "<b>Creep (krypa)</b> if it takes nothing."),
    "which-card": N_("Select the card in your hand that must be played and press <b>Check</b>."),
    "safest-card": N_("Select the card in your hand that gives you the fewest points this turn and press "
                      "<b>Check</b>."),
    "set-up-dukning": N_("Select your card (and the table cards it takes, if it captures) and press <b>Check</b>."),
    "endgame": N_("Select your first card (and the table cards it takes, if it captures) and press <b>Check</b>."),
    **dict.fromkeys(KASINO_KINDS, N_("Select your card and the table cards it takes or builds on (none for a trail), "
                                     "and press <b>Check</b>.")),
}

#: the puzzles' levels (the values are the puzzle files')
_LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


#: easy, medium, hard: the order "All levels" goes in
_LEVEL_ORDER = {d: i for i, d in enumerate(DIFFICULTIES)}


def _level(difficulty: str) -> str:
    return _(_LEVELS[difficulty]) if difficulty in _LEVELS else difficulty


_ALL = "all"


def _number(p: Puzzle) -> str:
    """A puzzle's number in its kind and level (its id, e.g. which-card-easy-03, is English); a
    made one's (``gen/…/7``) counts from 1 too."""
    if is_generated(p.id):
        return str(int(p.id.rsplit("/", 1)[-1]) + 1)
    tail = p.id.rsplit("-", 1)[-1]
    return str(int(tail)) if tail.isdigit() else p.id


def _which(p: Puzzle, number: str) -> str:
    """``Puzzle 3 · level easy``, or ``New puzzle 8 · level easy`` for one made on demand (an
    endgame made for klädda högen says so: its numbers are its own)."""
    if made_by(p.id) == "endgame-kladda":
        return _("New puzzle {number} on klädda högen · level {level}").format(
            number=number, level=esc(_level(p.difficulty)))
    if is_generated(p.id):
        return _("New puzzle {number} · level {level}").format(number=number, level=esc(_level(p.difficulty)))
    return _("Puzzle {number} · level {level}").format(number=number, level=esc(_level(p.difficulty)))


def puzzle_words(pid: str) -> str | None:
    """What a shipped puzzle is called where its id would be English (the teacher's page), in the
    current language: its kind and its number as the trainer shows them; None for an unknown id.

    >>> puzzle_words("which-card-easy-03")
    'Which card must you play? (tvångstabbe) · Puzzle 3 · level easy'
    >>> puzzle_words("gen/krypkasino/which-card/easy/7")
    'Which card must you play? (tvångstabbe) · New puzzle 8 · level easy'
    >>> puzzle_words("gen/krypkasino/endgame-kladda/hard/3")
    'Endgame: every card known (slutspel) · New puzzle 4 on klädda högen · level hard'
    >>> puzzle_words("no-such-puzzle"), puzzle_words("gen/krypkasino/which-card/easy/x")
    (None, None)
    """
    try:
        p = puzzle_from_id(pid)  # a shipped puzzle, or one made on demand from its id
    except PuzzleError:
        return None
    return _(KIND_TITLES[p.kind]) + " · " + _which(p, _number(p))


class PuzzleTrainer(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """Puzzles one at a time, with filters, hints, explanations and a solved count.

    A puzzle counts by its first answer, as lichess's puzzles do: right at the first try (or after
    a hint, said so) it is *solved*; a wrong first answer or Show answer makes it *missed* this
    time, and later answers to it earn nothing (it comes back later for another try). ``solved``
    counts the puzzles of this trainer solved in all the learner's visits, from their progress
    (the learner bar counts the same ones); ``missed`` and ``attempts`` count this visit."""

    solved = traitlets.Int(0)
    attempts = traitlets.Int(0)
    missed = traitlets.Int(0)
    hinted = traitlets.Int(0)  # of those solved this visit, after a hint

    def __init__(self, puzzles: Sequence[Puzzle] | None = None, *, kind: str | None = None,
                 difficulty: str | None = None, seed: int | None = None, **kwargs: Any) -> None:
        self.all_puzzles = list(puzzles) if puzzles is not None else load_puzzles()
        self.rng = random.Random(seed)
        self.message = ""
        # the puzzles of this trainer the learner has solved before (their progress, if it is kept)
        before = current().standing()
        mine = {p.id for p in self.all_puzzles}
        self.solved_ids: set[str] = set(before.puzzle_ids) & mine if before is not None else set()
        # "all" rather than None: a Dropdown shows None as an empty box
        self.kind_filter = widgets.Dropdown(options=[(_("All kinds"), _ALL)]
                                            + [(_(KIND_TITLES[k]), k) for k in self._kinds()],
                                            value=kind or _ALL, description=_("Kind"),
                                            layout=widgets.Layout(width="28em"))
        self.level_filter = widgets.Dropdown(options=[(_("All levels"), _ALL)] + [(_level(d), d) for d in DIFFICULTIES],
                                             value=difficulty or _ALL, description=_("Level"),
                                             layout=widgets.Layout(width="16em"))
        self.kind_filter.observe(lambda _: self.next_puzzle(), names="value")
        self.level_filter.observe(lambda _: self.next_puzzle(), names="value")
        self.title_html = widgets.HTML()
        self.prompt_html = widgets.HTML()
        self.hand_row = CardRowWidget(kind="hand", label=_("Your hand (handen)"), multiple=False)
        # loose cards and classic Kasino's builds, a build drawn as one group and selected whole
        self.table_row = TableRowWidget(kind="table", label=_("Table (bordet)"))
        self.other_row = CardRowWidget(kind="hand", selectable=False)
        self.kladda_row = CardRowWidget(kind="pile", selectable=False, label=_("Klädda högen (face cards set aside)"))
        self.check_button = button(_("Check"), "check", "primary")
        self.creep_button = button(_("Creep (krypa)"), "arrow-down", tip=_("Your card takes nothing"))
        self.hint_button = button(_("Hint"), "lightbulb-o",
                                  tip=_("A nudge: a puzzle solved after a hint counts as solved with a hint"))
        self.answer_button = button(_("Show answer"), "eye")
        self.next_button = button(_("Next puzzle"), "forward")
        self.check_button.on_click(lambda _: self.check())
        self.creep_button.on_click(lambda _: self.creep())
        self.hint_button.on_click(lambda _: self.hint())
        self.answer_button.on_click(lambda _: self.show_answer())
        self.next_button.on_click(lambda _: self.next_puzzle())
        self.feedback = widgets.HTML()
        self.feedback.add_class("kt-feedback")
        self.progress = widgets.HTML()
        self.progress.add_class("kt-progress")
        super().__init__(**kwargs)
        self.add_class("kt-exercise")
        self.add_class("kt-puzzles")
        self.solved = len(self.solved_ids)
        self.observe(lambda _: self._show_progress(), names=["solved", "attempts", "missed", "hinted"])
        self.puzzle: Puzzle | None = None
        self.next_puzzle()

    # --- choosing puzzles --------------------------------------------------------
    def _kinds(self) -> list[str]:
        """The kinds to filter by: Krypkasino's (unless every puzzle is a Kasino one), then the Kasino kinds
        these puzzles have."""
        present = {p.kind for p in self.all_puzzles}
        kasino = [k for k in KASINO_KINDS if k in present]
        return [*(KINDS if not kasino or present - set(KASINO_KINDS) else ()), *kasino]

    def candidates(self) -> list[Puzzle]:
        """Puzzles that match the filters."""
        return [p for p in self.all_puzzles
                if (self.kind_filter.value in (_ALL, p.kind)) and (self.level_filter.value in (_ALL, p.difficulty))]

    def next_puzzle(self) -> None:
        """Show another puzzle that matches the filters (unsolved ones first; with "All levels",
        from the easiest level that has one left towards the hardest)."""
        pool = self.candidates()
        if not pool:
            self.puzzle = None
            self._say("info", _("No puzzle matches these filters: choose another kind or level."))
            self._layout()
            return
        fresh = [p for p in pool if p.id not in self.solved_ids and p is not self.puzzle] or \
            [p for p in pool if p is not self.puzzle] or pool
        if self.level_filter.value == _ALL:
            easiest = min(_LEVEL_ORDER.get(p.difficulty, 0) for p in fresh)
            fresh = [p for p in fresh if _LEVEL_ORDER.get(p.difficulty, 0) == easiest]
        self.show(self.rng.choice(fresh))

    def show(self, puzzle: Puzzle) -> None:
        """Show this puzzle."""
        self.puzzle = puzzle
        self._outcome: str | None = None  # "solved" or "missed", by the first answer (or Show answer)
        # the puzzle on show and the page's language, and its solution (``_solution``)
        self._solved: tuple[tuple[Puzzle, str], Solution] | None = None
        self._hinted = False
        self.message = ""
        self.feedback.value = ""
        p = puzzle
        # the puzzle's number in its kind and level (its id, e.g. which-card-easy-03, is English: a tooltip)
        shown = f"<b title='{esc(p.id)}'>{esc(_number(p))}</b>"
        which = _which(p, shown)
        self.title_html.value = f"<h3>{esc(_(KIND_TITLES[p.kind]))}</h3><div class='kt-instruction'>{which}</div>"
        self.prompt_html.value = f"<div class='kt-instruction'>{esc(p.prompt)}<br>{_(_HOW[p.kind])}</div>"
        played = p.kind == "what-must-you-take"
        self.hand_row.label = _("Your card (played)") if played else _("Your hand (handen)")
        self.hand_row.selectable = not played
        self.hand_row.cards = [str(c) for c in p.hand]
        self.table_row.cards = [str(x) for x in p.table]
        self.table_row.owner_names = [_("you"), _("your opponent")]  # a build's owner: seat 0 is you
        self.table_row.selectable = p.kind in ("what-must-you-take", "set-up-dukning", "endgame", *KASINO_KINDS)
        self.other_row.cards = [str(c) for c in p.next_hand]
        self.other_row.label = (_("The next player's hand (shown)") if p.kind == "set-up-dukning"
                                else _("Your opponent's hand (shown)"))
        self.kladda_row.cards = [str(c) for c in p.kladda]
        self._layout()

    def _layout(self) -> None:
        filters = widgets.HBox([self.kind_filter, self.level_filter])
        if self.puzzle is None:
            self.children = [filters, self.feedback, self.progress]
            return
        p = self.puzzle
        rows: list[widgets.Widget] = [self.hand_row, self.table_row]
        if p.next_hand:
            rows.append(self.other_row)
        if p.kind == "endgame":
            rows.append(self.kladda_row)
        buttons = [self.check_button] + ([self.creep_button] if p.kind == "what-must-you-take" else []) + \
            [self.hint_button, self.answer_button, self.next_button]
        bar = widgets.HBox(buttons)
        bar.add_class("kt-buttons")
        self.children = [filters, self.title_html, self.prompt_html, *rows, bar, self.feedback, self.progress]
        self._show_progress()

    # --- what the buttons do ---------------------------------------------------
    def select_hand(self, code: Card | str | None) -> None:
        """Select a hand card by code (what clicking it does)."""
        self.hand_row.select([] if code is None else [Card(code)])

    def select_table(self, codes: Iterable[Card | str]) -> None:
        """Select table cards by code (what clicking them does); a card of a build selects the build."""
        self.table_row.select(self._items_of([Card(c) for c in codes]))

    def _items_of(self, cards: Iterable[Card | str]) -> list[Card | Build]:
        """The table items (loose cards, whole builds) holding these cards."""
        wanted = [Card(c) for c in cards]
        items: list[Card | Build] = []
        for x in self.puzzle.table if self.puzzle is not None else ():
            if isinstance(x, Build):
                if any(c in wanted for c in x.cards):
                    items.append(x)
            elif x in wanted:
                items.append(x)
                wanted.remove(x)
        return items

    def answer(self) -> object:
        """The answer the current selection stands for (see the module docstring)."""
        p = self.puzzle
        if p is None:
            return None
        taken = table_cards(self.table_row.selected_items)  # a build's cards are taken (or built on) whole
        if p.kind == "what-must-you-take":
            return taken
        hand = self.hand_row.selected_cards
        if not hand:
            return None
        if p.kind in ("which-card", "safest-card"):
            return Card(hand[0])
        return Move(Card(hand[0]), taken or None)

    def check(self) -> None:
        """Check the selection against the solver's proven answers."""
        p = self.puzzle
        if p is None:
            return
        given = self.answer()
        if given is None or (p.kind == "what-must-you-take" and not given):
            self._say("info", _("Select the table cards your card takes (or press Creep), then press Check.")
                      if p.kind == "what-must-you-take" else _("Select a card in your hand first, then press Check."))
            return
        self._judge(given)

    def creep(self) -> None:
        """Answer "it takes nothing: it creeps" (what-must-you-take)."""
        if self.puzzle is not None:
            self._judge("creep")

    def _judge(self, given: object) -> None:
        p = self.puzzle
        if p is None:
            return
        self.attempts += 1
        ok, why, broke = judge(p, given, self._solution(p))
        if self._outcome is None:  # the first answer decides
            # the rule a wrong answer broke where it shows it (take-all, not-traffar, kladda …), else the kind
            current().record(p.id, "puzzle", correct=ok, topic=p.kind, rule=None if ok else broke or p.kind,
                             how="hint" if self._hinted else "first-try", answer=self._in_words(given),
                             expected=self._right_answers(), **self._rated(p))
            if ok:
                self._outcome = "solved"
                if self._hinted:
                    self.hinted += 1
                self.solved_ids.add(p.id)
                self.solved = len(self.solved_ids)
                self._say("ok", why, [_("Solved with a hint.")] * self._hinted + [_("Press Next puzzle for another.")])
            else:
                self._outcome = "missed"
                self.missed += 1
                self._say("error", why, [_("This puzzle counts as missed this time. It comes back later, "
                                           "for another try: press Next puzzle.")])
        elif self._outcome == "missed":
            self._say("ok" if ok else "error", why,
                      [_("Right, but this puzzle already counts as missed this time: it comes back later, "
                         "to be solved at the first try.") if ok else _("Press Next puzzle for another.")])
        else:
            self._say("ok" if ok else "error", why, [_("You have solved this one: press Next puzzle for another.")])

    @staticmethod
    def _rated(p: Puzzle) -> dict[str, Any]:
        """What an answer keeps for the ratings (issue 23): the rules the puzzle trains, and the
        first guess at its rating as the attempt's score."""
        return {"themes": themes_of(p), "score": round(estimated_rating(p))}

    def _in_words(self, given: object) -> str:
        """The learner's answer in cards and words, for the teacher's page."""
        p = self.puzzle
        if p is None:
            return ""
        # a move, a card or "creep" is its own code; taken table cards are joined as the answers are
        code = "+".join(sorted(map(str, given))) if isinstance(given, (list, tuple)) else str(given)
        try:
            return p.answer_text(code)
        except ValueError:
            return code

    def _solution(self, p: Puzzle) -> Solution:
        """The puzzle's solution, solved once for the puzzle on show and the page's language: a
        Kasino endgame can take seconds to solve, and an answer, the right answers kept with it and
        the shown answer all need it. The puzzle was proved when it was shipped or made, so the
        search is not proved again at every position (``full_proof=False``)."""
        key = (p, language())
        if self._solved is None or self._solved[0] != key:
            self._solved = (key, solve(p, full_proof=False))
        return self._solved[1]

    def _right_answers(self) -> str:
        p = self.puzzle
        if p is None:
            return ""
        return (" " + _("or") + " ").join(p.answer_text(a) for a in sorted(self._solution(p).answers))

    def hint(self) -> None:
        """A nudge that names what to look at, without giving the answer away."""
        p = self.puzzle
        if p is None:
            return
        if self._outcome == "missed":  # the answer is known: a hint would say nothing new
            self._say("info", _("The answer is given above: press Next puzzle for another."))
            return
        if self._outcome == "solved":
            self._say("info", _("You have solved this one: press Next puzzle for another."))
            return
        self._hinted = True
        rules = p.rules
        if p.kind == "what-must-you-take":
            n = len(traffar(p.hand[0], p.table, rules))
            card = p.hand[0].symbol
            text = (ngettext("{card} has {n} träff on this table: same rank, or cards that add up to its value. "
                             "Take as many as you can at once without using a card twice.",
                             "{card} has {n} träffar on this table: same rank, or cards that add up to its value. "
                             "Take as many as you can at once without using a card twice.", n).format(card=card, n=n)
                    if n else _("Look for a card of the same rank as {card}, or cards that add up to it.").format(
                        card=card))
        elif p.kind == "which-card":
            said = tabbe_pa_text(tabbe_ranks(p.table, rules)) or _("no tabbe")
            text = _("“{said}”: a card of that rank takes the whole table. Which one do you hold?").format(
                said=said.capitalize())
        elif p.kind == "safest-card":
            text = _("For each card, ask what it would take (the cards captured and the card itself go to your pile) "
                     "and add their points: storan 3, lillan and spader ess 2, other aces and spades 1. A creep takes "
                     "nothing.")
        elif p.kind == "set-up-dukning":
            text = _("After your move, could one of the next player's cards take the whole table? Try each of your "
                     "legal moves ({n} of them) and look at the ranks they hold.").format(
                         n=len(legal_moves(p.hand, p.table, rules)))
        elif p.kind in ("kasino-safe-build", "kasino-steal"):
            text = _("For each build you can make, look at your opponent's cards: does one of them have the build's "
                     "value, or could it be laid on the build to make a value they hold?")
        elif p.kind in KASINO_KINDS:
            text = _("Count to the end: a few cards each. Who captures last takes what is left on the table and "
                     "sistan; a build you leave may be taken by your opponent.")
        else:
            text = _("Count to the end: four cards each at most. Who captures last gets the table and klädda högen — "
                     "and a tabbe gives +5 to the taker and −5 to the player before.")
        self._say("info", _("Hint: {hint}").format(hint=text),
                  [_("A puzzle solved after a hint counts as solved with a hint.")])

    def show_answer(self) -> None:
        """Show the proven answer(s) and why; selects the first answer's cards."""
        p = self.puzzle
        if p is None:
            return
        sol = self._solution(p)
        if self._outcome is None:  # a shown answer is a missed puzzle (it comes back later)
            self._outcome = "missed"
            self.missed += 1
            current().record(p.id, "puzzle", correct=False, topic=p.kind, rule=p.kind, how="shown",
                             expected=self._right_answers(), **self._rated(p))
        first = sorted(sol.answers)[0]
        try:
            if p.kind == "what-must-you-take":
                self.table_row.selected = [] if first == "creep" else self.table_row.indices_of(first.split("+"))
            elif p.kind in ("which-card", "safest-card"):
                self.hand_row.selected = self.hand_row.indices_of([first])
            else:
                m = Move.parse(first)
                self.hand_row.selected = self.hand_row.indices_of([m.card])
                self.table_row.selected = self.table_row.indices_of(self._items_of(m.capture or []))
        except ValueError:
            pass
        answers = (" " + _("or") + " ").join(p.answer_text(a) for a in sorted(sol.answers))
        self._say("info", _("Answer: {answers}. {explanation}").format(answers=answers, explanation=sol.explanation),
                  [_("A shown answer counts as missed this time: the puzzle comes back later, for another try.")])

    # --- view ----------------------------------------------------------------------
    def _say(self, kind: str, text: str, details: Sequence[str] = ()) -> None:
        self.message = message_text(text, details)
        self.feedback.value = message_html(kind, text, details)

    def _show_progress(self) -> None:
        total = len(self.all_puzzles)
        solved = ngettext("Solved: {solved} of {total} puzzle, at the first try or after a hint",
                          "Solved: {solved} of {total} puzzles, at the first try or after a hint", total).format(
            solved=self.solved, total=total)
        if self.hinted:
            solved += " " + ngettext("({n} after a hint this time)", "({n} after a hint this time)",
                                     self.hinted).format(n=self.hinted)
        self.progress.value = esc(_("{solved} · Missed this time: {missed} · Answers checked: {attempts} · "
                                    "matching the filters: {matching}").format(
            solved=solved, missed=self.missed, attempts=self.attempts, matching=len(self.candidates())))
