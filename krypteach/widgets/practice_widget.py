"""``PracticeTrainer``: rated puzzles without end, leaning to the learner's weak themes, with
their own mistakes coming back (issue 23).

The puzzles are answered as in :class:`~krypteach.widgets.PuzzleTrainer` (the same rows,
buttons, checks and explanations); what differs is which puzzle comes next and what the page
says of the learner:

- the next puzzle is near the learner's rating at the difficulty they choose (easier, normal,
  harder), from the shipped puzzles and new ones made on demand
  (:mod:`krypteach.teaching.puzzles.fresh`), leaning to their weakest theme, and said so;
- every third puzzle is one they missed that is due again (spaced by FSRS), when one is due, or a
  move of their own givar that the game page's coach flagged (:mod:`krypteach.classroom.flagged`),
  set up as they saw it, its legal moves to choose from and judged as the coach judged it;
- the learner sees their rating, its history as a small plot, their themes from strong to
  weak, and how many puzzles are due to come back.

The ratings are replayed from the puzzle attempts the progress store keeps
(:class:`~krypteach.classroom.practice.PracticeBook`); the widget holds no rating logic.

>>> t = PracticeTrainer(seed=2)
>>> t.puzzle is not None, t.difficulty.value
(True, 'normal')
>>> t.show_answer(); t.next_puzzle(); t.practice.answered
1
"""

from __future__ import annotations

import functools
import time
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..classroom.flagged import PLACE as FLAGGED_PLACE
from ..classroom.flagged import Flagged, is_flagged_key, read_all
from ..classroom.practice import LearnerPractice, PracticeBook, homework_result
from ..classroom.session import current
from ..classroom.store import Homework
from ..engine.games import describe, game_of
from ..engine.moves import Move
from ..i18n import _, ngettext
from ..i18n.numbers import number
from ..teaching.narrate import seat_names
from ..teaching.practice import Item, choose, mix
from ..teaching.puzzles import Puzzle, PuzzleError, load_puzzles
from ..teaching.puzzles.fresh import (
    FRESH,
    THEME_WORDS,
    estimated_rating,
    first_guess,
    offered_themes,
    puzzle_from_id,
    themes_of,
)
from ..views.svg import sparkline_svg
from ._ui import esc
from .puzzle_widget import PuzzleTrainer
from .review_panel import PositionRetry

__all__ = ["PracticeTrainer", "GAMES", "LESSON_OF", "lesson_of_theme", "trainer_themes"]

#: which puzzles a trainer practises: the shipped set's game, and the rules new ones are made with
GAMES = {"krypkasino": ("krypkasino", ("krypkasino",)), "kasino": ("kasino", ("kasino", "avig-kasino"))}
#: new puzzles offered of each kind and level at a time (the chooser's stock; more are made as they are used)
_AHEAD = 2
#: the lesson whose page holds each trainer (a homework on another trainer's theme points there)
LESSON_OF = {"krypkasino": 8, "kasino": 10}


@functools.cache
def trainer_themes(game: str) -> frozenset[str]:
    """Every theme a trainer's puzzles train: its shipped puzzles' and those it makes.

    >>> sorted(trainer_themes("kasino"))
    ['build', 'build-steal', 'owner-duty', 'sistan']
    """
    shipped, presets = GAMES[game]
    found = {t for p in load_puzzles(game=shipped) for t in themes_of(p)}
    return frozenset(found | {t for preset, kind, level in FRESH if preset in presets
                              for t in offered_themes(kind, level)})


def lesson_of_theme(theme: str) -> int | None:
    """The lesson whose puzzles train ``theme`` (8: Krypkasino's, 10: classic Kasino's), or None.

    >>> lesson_of_theme("build"), lesson_of_theme("kladda"), lesson_of_theme("chess")
    (10, 8, None)
    """
    return next((LESSON_OF[g] for g in GAMES if theme in trainer_themes(g)), None)


def theme_word(theme: str) -> str:
    """A theme in the page's language."""
    return _(THEME_WORDS[theme]) if theme in THEME_WORDS else theme


def _after(seconds: float) -> str:
    """When something comes, in words: ``in 10 minutes``, ``in 3 hours``, ``in 2 days``."""
    minutes = max(1, round(seconds / 60))
    if minutes < 120:
        return ngettext("in {n} minute", "in {n} minutes", minutes).format(n=number(minutes))
    hours = round(minutes / 60)
    if hours < 48:
        return ngettext("in {n} hour", "in {n} hours", hours).format(n=number(hours))
    days = round(hours / 24)
    return ngettext("in {n} day", "in {n} days", days).format(n=number(days))


class PracticeTrainer(PuzzleTrainer):
    """Rated practice: see the module docstring. ``game`` is ``"krypkasino"`` or ``"kasino"``
    (classic Kasino's and avig kasino's build puzzles)."""

    def __init__(self, game: str = "krypkasino", *, seed: int | None = None, **kwargs: Any) -> None:
        if game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
        shipped, self.presets = GAMES[game]
        self._load()
        self.flag: Flagged | None = None  # the flagged move shown (then no puzzle is)
        self.retry = PositionRetry(on_answer=self._flagged_answer)
        self.retry.add_class("kt-retry")
        self._served = 0  # puzzles shown this visit (every third may be one that is due)
        self._shipped_items = [(p, themes_of(p), estimated_rating(p)) for p in load_puzzles(game=shipped)]
        self._rated_before: float | None = None
        self.difficulty = widgets.ToggleButtons(
            options=[(_("Easier"), "easier"), (_("Normal"), "normal"), (_("Harder"), "harder")], value="normal",
            description=_("Difficulty"), tooltips=[_("Puzzles you solve more often"), _("Puzzles near your rating"),
                                                   _("Puzzles above your rating")])
        self.work = widgets.Dropdown(options=self._work_options(), value="", description=_("Practise"),
                                     layout=widgets.Layout(width="auto", max_width="36em"))
        self.stats = widgets.HTML()
        self.stats.add_class("kt-practice-stats")
        self.why = widgets.HTML()
        self.why.add_class("kt-instruction")
        super().__init__([p for p, _t, _r in self._shipped_items], seed=seed, **kwargs)
        self.add_class("kt-practice")
        self._quiet = False  # True while the homework's labels are redrawn: not a learner's choice
        self.difficulty.observe(lambda _change: self.next_puzzle(), names="value")
        self.work.observe(lambda _change: None if self._quiet else self.next_puzzle(), names="value")
        self._show_stats()
        current().listeners.append(self._session_changed)

    # --- the learner, as their answers made them -----------------------------------------
    def _load(self) -> None:
        """Everything the trainer knows of the learner, replayed from what the progress keeps."""
        session = current()
        self.me, rows = session.puzzle_attempts(everyone=True)
        # the moves the coach flagged in the learner's givar, each in the review queue from when it was flagged
        self.flagged: dict[str, Flagged] = read_all(session.saved_games(FLAGGED_PLACE)) if self.me is not None else {}
        self.book = PracticeBook.replay(rows, flagged=[(self.me, key, f.at) for key, f in self.flagged.items()])
        self._mine = [r for r in rows if r[0] == self.me] if self.me is not None else []
        self.homework = {str(h.id): h for h in session.homework() if h.due > time.time()}

    def _session_changed(self) -> None:
        """The learner became known after the page was drawn (a served page signs in once its
        kernel runs): their practice replaces the empty one (answers given meanwhile were kept
        for them, and are in it)."""
        if current().learner == self.me:
            return
        self._load()
        value = self.work.value
        self._relabel_work(value if value in self.homework else "")
        if self.work.value != value:  # the homework worked on is gone: practice at the learner's level
            self.next_puzzle()
        self._layout()
        self._show_stats()

    def _relabel_work(self, value: str) -> None:
        """The choice of homework with its counts as they are now, ``value`` chosen, and the
        puzzle on the page left as it is (setting the options is not the learner choosing)."""
        self._quiet = True
        try:
            self.work.options = self._work_options()
            self.work.value = value
        finally:
            self._quiet = False

    @property
    def practice(self) -> LearnerPractice:
        return self.book.learner(self.me)

    def _items(self) -> list[Item]:
        """What the chooser may pick: the shipped puzzles and, of each kind and level made on
        demand, the next few the learner has not met (their ratings as the class's answers made
        them, else a first guess); made only when chosen."""
        items = [Item(p.id, themes, self.book.rating_of(p.id, first)) for p, themes, first in self._shipped_items]
        seen = self.practice.seen
        for preset, kind, level in FRESH:
            if preset not in self.presets:
                continue
            n = offered = 0
            while offered < _AHEAD:
                pid = f"gen/{preset}/{kind}/{level}/{n}"
                if pid not in seen:
                    items.append(Item(pid, offered_themes(kind, level),
                                      self.book.rating_of(pid, first_guess(kind, level))))
                    offered += 1
                n += 1
        return items

    # --- homework ---------------------------------------------------------------------------
    def _work_options(self) -> list[tuple[str, str]]:
        options = [(_("At my level, leaning to my weak themes"), "")]
        for key, hw in self.homework.items():
            done, _solved = homework_result(hw, self._mine)
            options.append((_("Homework: {name} ({done} of {count} done, due {date})").format(
                name=hw.name, done=number(done), count=number(hw.count),
                date=time.strftime("%Y-%m-%d", time.localtime(hw.due))), key))
        return options

    def _homework_pick(self, hw: Homework) -> tuple[Puzzle | None, str]:
        """The next puzzle of a homework, or None when it is done; and what to say."""
        done, solved = homework_result(hw, self._mine)
        if done >= hw.count:
            return None, _("Homework {name} is done: {done} of {count}, {solved} solved.").format(
                name=hw.name, done=number(done), count=number(hw.count), solved=number(solved))
        said = _("Homework {name}: puzzle {number} of {count}.").format(
            name=hw.name, number=number(done + 1), count=number(hw.count))
        answered = {r[1] for r in self._mine if r[6] >= hw.created}
        if hw.puzzles:
            for pid in (p for p in hw.puzzles if p not in answered):
                try:
                    return puzzle_from_id(pid), said
                except PuzzleError:  # a puzzle this krypteach no longer has: the next one
                    continue
            return None, _("The rest of this homework's puzzles are not in this version of krypteach: ask your "
                           "teacher.")
        items = [i for i in self._items() if hw.theme in i.themes]
        theme = hw.theme or ""
        if not items:  # a theme of the other trainer's puzzles (a build in Krypkasino's): not a dead end
            lesson = lesson_of_theme(theme)  # another trainer's: no puzzle of this one has the theme
            if lesson is not None:
                return None, _("Homework {name} is on {theme}, which the puzzles on this page do not train: "
                               "do it in lesson {number}, whose puzzles do.").format(
                    name=hw.name, theme=theme_word(theme), number=number(lesson))
            return None, _("Homework {name} is on {theme}, which no puzzle of this version of krypteach trains: "
                           "ask your teacher.").format(name=hw.name, theme=theme_word(theme))
        me = self.practice
        for _try in range(8):
            try:
                pick = choose(items, me.chooser(), difficulty=self.difficulty.value, rng=self.rng, lean=0.0, spread=False,
                              exclude=set(me.seen) | answered)
                return puzzle_from_id(pick.item.id), said
            except LookupError:
                break
            except PuzzleError:
                items = [i for i in items if i.id != pick.item.id]
        return None, _("No puzzle of this homework could be made just now: press Next puzzle to try again.")

    # --- choosing ---------------------------------------------------------------------------
    def next_puzzle(self) -> None:
        """The next puzzle: the homework's when the learner works on one; else one that is due
        again (every third), else one chosen for the learner."""
        here = self.flag.key if self.flag is not None else self.puzzle.id if self.puzzle is not None else None
        self.flag = None
        hw = self.homework.get(self.work.value)
        if hw is not None:
            puzzle, said = self._homework_pick(hw)
            if puzzle is not None:
                self._show(puzzle, said)
            else:
                self.puzzle = None
                self._say("info", said)
                self._layout()
            return
        now = time.time()
        me = self.practice
        due_keys = [e.key for e in me.due(now) if e.key != here and (not is_flagged_key(e.key) or e.key in self.flagged)]
        key = mix(due_keys, self._served)
        self._served += 1
        if key is not None and is_flagged_key(key):
            if self._show_flagged(self.flagged[key]):
                return
        elif key is not None:
            try:
                self._show(puzzle_from_id(key), _("A puzzle you missed comes back: can you solve it now?"))
                return
            except PuzzleError:
                pass  # a puzzle no longer shipped: choose another
        exclude = set(me.seen) | ({here} if here else set())
        items = self._items()
        for _try in range(8):
            try:
                pick = choose(items, me.chooser(), difficulty=self.difficulty.value, rng=self.rng, exclude=exclude)
            except LookupError:
                break
            try:
                puzzle = puzzle_from_id(pick.item.id)
            except PuzzleError:  # the generator found none this time: choose another
                exclude.add(pick.item.id)
                continue
            if pick.weak_theme is not None and pick.of:
                why = _("More {theme}: you missed {missed} of your last {of}.").format(
                    theme=theme_word(pick.weak_theme), missed=number(pick.missed), of=number(pick.of))
            else:
                why = _("A puzzle near your rating, at the difficulty you chose.")
            self._show(puzzle, why)
            return
        self.puzzle = None
        self._say("info", _("No puzzle could be made just now: press Next puzzle to try again."))
        self._layout()

    def _show(self, puzzle: Puzzle, why: str) -> None:
        self.flag = None
        self.show(puzzle)
        self.why.value = esc(why)
        self._rated_before = None

    def _show_flagged(self, f: Flagged) -> bool:
        """A move the coach flagged in the learner's giv, set up as they saw it (False: its giv no
        longer replays, and something else comes)."""
        try:
            obs = f.observation()
        except ValueError:
            return False
        d = f.decision
        self.puzzle, self.flag = None, f
        self._rated_before = None
        self.message = self.feedback.value = ""
        self.retry.set_up(obs, d, names=seat_names(obs.rules.players), heading=_(
            "Move {ply} of a giv of {game} you played: your turn. Which move is best here?").format(
            ply=number(d.ply + 1), game=game_of(obs.rules).title))
        self.why.value = esc(_("A move from your own giv comes back: the coach found it cost you points. "
                               "Can you find the better move now?"))
        self._layout()
        self.retry.focus_first()
        return True

    def _flagged_answer(self, move: Move, _value: object, good: bool) -> None:
        """The learner's move in a flagged position: kept as an answer, a review of the queue (never rated)."""
        f, rules = self.flag, self.retry.rules
        if f is None or rules is None:
            return
        current().record(f.key, "puzzle", correct=good, how="first-try", topic="coach",
                         rule=None if good else f.decision.theme, answer=describe(rules, move)[:200],
                         expected=describe(rules, f.decision.best)[:200])
        at = time.time()
        self.book.add(self.me, f.key, (), None, correct=good, how="first-try", at=at)
        self._mine.append((self.me, f.key, good, "first-try", (), None, at))
        self._show_stats()
        self.next_button.focus()

    # --- answering: the base class judges and records; the book is told the same ---------------
    def _judge(self, given: object) -> None:
        first = self._outcome is None and self.puzzle is not None
        super()._judge(given)
        if first:
            self._answered(correct=self._outcome == "solved", how="hint" if self._hinted else "first-try")

    def show_answer(self) -> None:
        first = self._outcome is None and self.puzzle is not None
        super().show_answer()
        if first:
            self._answered(correct=False, how="shown")

    def _answered(self, *, correct: bool, how: str) -> None:
        p = self.puzzle
        if p is None:
            return
        before = self.practice.overall.rating if self.practice.answered else None
        rated = p.id not in self.practice.seen
        themes, first, at = themes_of(p), estimated_rating(p), time.time()
        self.book.add(self.me, p.id, themes, first, correct=correct, how=how, at=at)
        self._mine.append((self.me, p.id, correct, how, themes, round(first), at))
        if self.homework:  # the homework's counts in the chooser; the answer stays on the page
            self._relabel_work(self.work.value)
        self._rated_before = before if rated else None
        self._show_stats(rated=rated)

    # --- view -----------------------------------------------------------------------------------
    def _layout(self) -> None:
        super()._layout()
        # the base class's filters (its first child) and its count of the shipped set (its last):
        # practice chooses by rating, and says where the learner stands in the stats instead
        kids = [c for c in self.children[1:] if c is not self.progress]
        if self.puzzle is not None:
            kids.insert(1, self.why)
        elif self.flag is not None:
            bar = widgets.HBox([self.next_button])
            bar.add_class("kt-buttons")
            kids = [self.why, self.retry, bar]
        self.children = [*([self.work] if self.homework else []), self.difficulty, self.stats, *kids]

    def _show_progress(self) -> None:  # the base class's count of the shipped set: not this trainer's
        self._show_stats()

    def _show_stats(self, rated: bool = False) -> None:
        me = self.practice
        parts: list[str] = []
        if not me.answered:
            parts.append(esc(_("Your rating comes with your first answers. Each puzzle's first answer counts: "
                               "at the first try, after a hint (half), or missed.")))
        else:
            r = me.overall
            line = ngettext("Your rating: {rating} (give or take {range}), after {n} puzzle.",
                            "Your rating: {rating} (give or take {range}), after {n} puzzles.", me.answered).format(
                rating=number(round(r.rating)), range=number(round(2 * r.rd)), n=number(me.answered))
            if rated and self._rated_before is not None:
                line += " " + _("This puzzle: {before} → {after}.").format(
                    before=number(round(self._rated_before)), after=number(round(r.rating)))
            parts.append(esc(line))
            history = [rating for _at, rating in me.history[-40:]]
            # i18n: the rating line's name for a screen reader; after one puzzle only its rating, {last}
            name = ngettext("Your rating after {n} puzzle: {last}.",
                            "Your rating after each of your last {n} puzzles: from {first} to {last}.",
                            len(history)).format(
                n=number(len(history)), first=number(round(history[0])), last=number(round(history[-1])))
            parts.append(f"<div class='kt-spark'>{sparkline_svg(history, name)}</div>")
            themes = sorted(me.themes.items(), key=lambda kv: (-kv[1].rating, kv[0]))
            if themes:
                listed = "".join(f"<li>{esc(theme_word(t))}: {esc(number(round(r.rating)))}</li>" for t, r in themes)
                head = esc(_("Your themes, strongest first:"))
                parts.append(f"<div>{head}<ol class='kt-themes'>{listed}</ol></div>")
        now = time.time()
        due_now = me.due(now)
        n_due, waiting = len(due_now), len(me.queue)
        if n_due:
            parts.append(esc(ngettext("{n} puzzle you missed is due to come back: one puzzle in three is one of them.",
                                      "{n} puzzles you missed are due to come back: one puzzle in three is one of them.",
                                      n_due).format(n=number(n_due))))
            moves = sum(is_flagged_key(e.key) for e in due_now)
            if moves:
                parts.append(esc(ngettext("{n} of them is a move of your own givar that the coach flagged.",
                                          "{n} of them are moves of your own givar that the coach flagged.",
                                          moves).format(n=number(moves))))
        elif waiting:
            soonest = min(e.due.timestamp() for e in me.queue.values())
            parts.append(esc(ngettext("{n} puzzle you missed waits to come back, {when}.",
                                      "{n} puzzles you missed wait to come back, the first {when}.",
                                      waiting).format(n=number(waiting), when=_after(soonest - now))))
        self.stats.value = "".join(f"<div>{p}</div>" for p in parts)
