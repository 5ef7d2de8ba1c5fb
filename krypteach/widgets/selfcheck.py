"""``SelfCheck``: a short multiple-choice quiz that ends a lesson.

Each question has a text, a few options (shown as radio buttons with their
text), the right option, an explanation and optionally a hint. The **Check**
button marks every answered question right or wrong in the question's feedback
area (class ``kt-feedback``), and a score line counts the right answers. A first
wrong answer gets a second try: it is ruled out, with the question's hint, and
neither the answer nor the explanation is shown yet; the second wrong answer
shows both. The learner's progress gets each try, saying which it was; after the
answer is shown, nothing more is recorded for that question.

The widget knows nothing of the game: lessons compute the right option with
the engine and pass it in. Tests drive it like the page does: set a
question's ``choice.index`` (what clicking a radio button does) and call
:meth:`SelfCheck.check` (what the button does).

>>> sc = SelfCheck([
...     {"text": "How many cards are in the double deck?", "options": ["52", "104"],
...      "answer": "104", "explanation": "Two decks of 52 cards are shuffled together."},
... ])
>>> sc.questions[0].choice.index = 0; sc.check()
>>> sc.score, sc.message.splitlines()[0]
(0, '1. Not quite: it is not 52. Think again and choose another answer: you have a second try.')
>>> sc.questions[0].choice.index = 1; sc.check(); sc.score
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]
import traitlets

from ..classroom.session import current
from ..i18n import _, ngettext
from ._ui import button, esc, message_html
from .inputs import ChoiceBox

__all__ = ["Question", "SelfCheck"]

# option labels as large as the question text, and long ones wrap instead of being cut off
_STYLE = "<style>.kt-selfcheck .kt-choice label{font-size:14px;line-height:1.5;white-space:normal}</style>"


@dataclass(frozen=True)
class Question:
    """One self-check question.

    ``text`` is plain text; ``options`` the choices (plain text, each shown
    in full); ``answer`` the right option, by index or by its text;
    ``explanation`` says why (shown with a right answer, or once the answer is shown);
    ``picture`` optional HTML shown under the question (e.g. a table of
    cards from :mod:`krypteach.views`); ``hint`` what to look at, given with
    a first wrong answer (it must not give the answer away).
    """

    text: str
    options: tuple[str, ...]
    answer: int
    explanation: str = ""
    picture: str = ""
    hint: str = ""

    @classmethod
    def make(cls, text: str, options: Iterable[object], answer: int | str, explanation: str = "",
             picture: object = "", hint: str = "") -> Question:
        """Build a question, checking the options and finding the answer's index.

        >>> Question.make("2 + 2?", [3, 4], "4").answer
        1
        """
        opts = tuple(str(o) for o in options)
        if len(opts) < 2:
            raise ValueError(f"a question needs at least two options, got {list(opts)}")
        if len(set(opts)) != len(opts):
            raise ValueError(f"the options of a question must differ: {list(opts)}")
        if isinstance(answer, bool) or not isinstance(answer, (int, str)):
            raise ValueError(f"answer must be an option's index or text, got {answer!r}")
        if isinstance(answer, str):
            if answer not in opts:
                raise ValueError(f"the answer {answer!r} is not one of the options {list(opts)}")
            index = opts.index(answer)
        else:
            if not 0 <= answer < len(opts):
                raise ValueError(f"answer index {answer} is out of range for {len(opts)} options")
            index = answer
        if hasattr(picture, "_repr_html_"):
            picture = picture._repr_html_()
        return cls(str(text), opts, index, str(explanation), str(picture or ""), str(hint or ""))


def _question(spec: Question | Mapping[str, object]) -> Question:
    if isinstance(spec, Question):
        return spec
    if not isinstance(spec, Mapping):
        raise ValueError(f"a question is a Question or a dict, got {spec!r}")
    unknown = set(spec) - {"text", "options", "answer", "explanation", "picture", "hint"}
    if unknown:
        raise ValueError(f"unknown keys in a question: {sorted(unknown)}")
    try:
        return Question.make(spec["text"], spec["options"], spec["answer"],  # type: ignore[arg-type]
                             spec.get("explanation", ""), spec.get("picture", ""),  # type: ignore[arg-type]
                             spec.get("hint", ""))  # type: ignore[arg-type]
    except KeyError as e:
        raise ValueError(f"a question needs {e.args[0]!r}: {dict(spec)}") from None


class _QuestionView(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """One question on the page: text, picture, radio buttons, feedback."""

    def __init__(self, number: int, question: Question) -> None:
        self.question = question
        self.number = number
        head = widgets.HTML(f"<div class='kt-question-text' style='font-size:15px;line-height:1.45;margin-top:8px'>"
                            f"<b>{number}.</b> {esc(question.text)}</div>")
        parts: list[widgets.Widget] = [head]
        if question.picture:
            parts.append(widgets.HTML(question.picture))
        # each choice reaches Python before a Check pressed after it (ChoiceBox says why RadioButtons do not)
        self.choice = ChoiceBox(options=list(question.options), index=None)
        self.choice.add_class("kt-choice")
        self.feedback = widgets.HTML("", layout=widgets.Layout(min_height="0"))  # no gap before checking
        self.feedback.add_class("kt-feedback")
        parts += [self.choice, self.feedback]
        super().__init__(parts)
        self.add_class("kt-question")
        self.choice.observe(self._changed, names="index")
        self.tries = 0  # answers checked (and recorded) so far
        self.shown = False  # the answer was shown (after a second wrong one)
        self.checked: int | None = None  # the option the last verdict was about
        self.last: tuple[str, str] = ("info", "")

    def _changed(self, change: dict[str, Any]) -> None:
        self.feedback.value = ""  # a new answer: the old verdict no longer applies

    def verdict(self) -> tuple[str, str]:
        """(kind, plain text) for the chosen option: kind is ok, error or info. A first wrong
        answer is ruled out (with the hint); a later one, or any once the answer was shown,
        gets the answer and the explanation."""
        q = self.question
        if self.choice.index is None:
            return "info", _("{number}. Choose an answer first.").format(number=self.number)
        right = q.options[q.answer]
        tail = f" {q.explanation}" if q.explanation else ""
        if self.choice.index == q.answer:
            return "ok", _("{number}. Right.").format(number=self.number) + tail
        if self.tries == 0 and not self.shown:
            hint = f" {q.hint}" if q.hint else ""
            return "error", (_("{number}. Not quite: it is not {option}.").format(
                number=self.number, option=q.options[self.choice.index]) + hint + " "
                + _("Think again and choose another answer: you have a second try."))
        return "error", _("{number}. Not quite: the answer is {answer}.").format(number=self.number, answer=right) + tail


class SelfCheck(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """A self-check of a few questions with a Check button, feedback and a score.

    ``questions`` is a sequence of :class:`Question` or dicts with the keys
    ``text``, ``options``, ``answer`` (index or option text), ``explanation``
    and optionally ``picture`` (HTML). ``score`` (right answers at the last
    check) and ``checks`` (how often Check was pressed) are observable traits;
    ``message`` is the last feedback as plain text, one line per question.
    """

    score = traitlets.Int(0)
    checks = traitlets.Int(0)

    def __init__(self, questions: Sequence[Question | Mapping[str, object]], *,
                 title: str | None = None, intro: str | None = None) -> None:
        """``title`` and ``intro`` default to "Self-check (kolla dig själv)" and "Choose an answer
        to each question, then press Check.", in the page's language."""
        if title is None:
            title = _("Self-check (kolla dig själv)")
        if intro is None:
            intro = _("Choose an answer to each question, then press Check.")
        qs = [_question(q) for q in questions]
        if not qs:
            raise ValueError("a self-check needs at least one question")
        self.message = ""
        self.questions = [_QuestionView(i + 1, q) for i, q in enumerate(qs)]
        # the learner's progress: every question is an item of the page; an answer is
        # recorded when it is checked, once for each new choice
        session = current()
        self.items = [session.declare("selfcheck", "selfcheck", title=q.question.text)
                      for q in self.questions]
        title_html = widgets.HTML(f"<h3>{esc(title)}</h3>")
        title_html.add_class("kt-title")
        intro_html = widgets.HTML(_STYLE + esc(intro))
        intro_html.add_class("kt-instruction")
        self.check_button = button(_("Check"), "check", "primary", _("Check your answers"))
        self.check_button.on_click(lambda _: self.check())
        bar = widgets.HBox([self.check_button])
        bar.add_class("kt-buttons")
        self.score_html = widgets.HTML("")
        self.score_html.add_class("kt-score")
        super().__init__([title_html, intro_html, *self.questions, bar, self.score_html])
        self.add_class("kt-exercise")
        self.add_class("kt-selfcheck")
        self._show_score(checked=False)

    @property
    def total(self) -> int:
        return len(self.questions)

    def answer(self, number: int, option: int | str) -> None:
        """Choose an option (index or text) for question ``number`` (1-based), as a click does."""
        view = self.questions[number - 1]
        view.choice.index = option if isinstance(option, int) else view.question.options.index(option)

    def check(self) -> None:
        """Mark every question (what the Check button does)."""
        lines = []
        right = 0
        for k, view in enumerate(self.questions):
            if view.choice.index is not None and view.choice.index == view.checked:
                kind, text = view.last  # the same answer checked again: the same words, no new try
            else:
                kind, text = view.verdict()
                chosen = view.choice.index
                if kind in ("ok", "error") and chosen is not None:  # a verdict is about a choice
                    view.checked, view.last = chosen, (kind, text)
                    if not view.shown:
                        q = view.question
                        current().record(self.items[k], "selfcheck", correct=kind == "ok",
                                         rule=None if kind == "ok" else "selfcheck",
                                         how="first-try" if view.tries == 0 else "second-try",
                                         answer=q.options[chosen], expected=q.options[q.answer])
                        view.tries += 1
                        view.shown = kind == "error" and view.tries >= 2
            right += kind == "ok"
            view.feedback.value = message_html(kind, text)
            lines.append(text)
        self.checks += 1
        self.score = right
        self.message = "\n".join(lines)
        self._show_score(checked=True)

    def _show_score(self, checked: bool) -> None:
        if not checked:
            text = ngettext("{n} question.", "{n} questions.", self.total).format(n=self.total)
        elif self.score == self.total:
            text = _("Score: {score} of {total} — all right. Well done!").format(score=self.score, total=self.total)
        else:
            text = _("Score: {score} of {total}. Read the explanations, change your answers and check again.").format(
                score=self.score, total=self.total)
        self.score_html.value = f"<div class='kt-progress' role='status'>{esc(text)}</div>"
