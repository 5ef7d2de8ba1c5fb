"""The teacher's board on a learner's page (issue 24): the position the teacher sent, its
choices as buttons, and the engine's answer when the teacher shows it.

Every served lesson has it, under the learner bar (:class:`~krypteach.widgets.LearnerBar`),
hidden while the teacher has sent nothing and wherever there is no server. The panel holds no
game logic: the server (:mod:`krypteach.serve.board`) says what the position is, which choices it
has (in words, in this page's language) and what the answer is; the panel draws the cards with
:mod:`krypteach.views` and sends the learner's choice. It waits for the board on the kernel's
event loop (a long poll through :class:`~krypteach.classroom.live.Link`), so the page stays live.

>>> class Fake:
...     token = "t"
...     def post(self, path, data):
...         return {"version": 1, "question": {**VIEW, "mine": data["answer"]}}
>>> VIEW = {"id": 1, "prompt": "Which move?", "hand": ["7H", "2S"], "table": ["5C", "2D", "KS"], "next_hand": [],
...         "kladda": [], "played": False, "mine": None, "reveal": None,
...         "choices": [{"key": "7H:2D+5C", "words": "7♥ takes 2♦+5♣"}, {"key": "2S:2D", "words": "2♠ takes 2♦"}]}
>>> panel = BoardPanel(link=Fake())
>>> panel.layout.display
'none'
>>> panel.show({"version": 1, "question": VIEW}); panel.layout.display, len(panel.choices.children)
('', 2)
>>> panel.choose("2S:2D"); panel.mine, all(b.disabled for b in panel.choices.children)
('2S:2D', True)
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..classroom.live import Link, LiveError
from ..classroom.session import Session
from ..engine.builds import parse_table
from ..engine.cards import parse_cards
from ..i18n import _, language
from ..views.html import hand_html, table_html
from ._ui import button, esc, message_html
from .background import running_loop

__all__ = ["BoardPanel"]

log = logging.getLogger("krypteach")

#: seconds before a poll that failed is tried again
RETRY = 3.0


class BoardPanel(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """The teacher's board on this page: hidden until the teacher sends a position."""

    def __init__(self, link: Any = None, **kwargs: Any) -> None:
        self.link: Link | Any = link
        self.version = -1
        self.question: dict[str, Any] | None = None
        self.mine: str | None = None
        self._drawn: tuple[Any, ...] | None = None
        self._task: asyncio.Task[None] | None = None
        self.heading = widgets.HTML("")
        self.position = widgets.HTML("")
        self.choices = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap"))
        self.choices.add_class("kt-buttons")
        self.feedback = widgets.HTML("")
        self.feedback.add_class("kt-feedback")
        super().__init__([self.heading, self.position, self.choices, self.feedback],
                         layout=widgets.Layout(display="none"), **kwargs)
        self.add_class("kt-board")

    # --- waiting for the board -------------------------------------------------------------
    def start(self, session: Session) -> bool:
        """Follow the class's board for ``session``'s learner; False where there is none (no
        server, nobody signed in, no running loop)."""
        if self._task is not None:
            return True
        self.link = self.link or Link.for_session(session)
        loop = running_loop()
        if self.link is None or loop is None:
            return False
        self._task = loop.create_task(self._follow())
        return True

    async def _follow(self) -> None:
        link = self.link
        if link is not None:  # a refusal (403, 404: not a learner of this class, no board here) ends it
            await link.follow(lambda: ("board", {"learner": link.token, "since": self.version, "lang": language()}),
                              self.show, what="the teacher's board", retry=RETRY)

    # --- what the board says ---------------------------------------------------------------
    def show(self, view: dict[str, Any]) -> None:
        """Draw the board's view (the server's JSON): nothing, a position, or its answer."""
        version = view.get("version")
        if isinstance(version, int):
            self.version = version
        q = view.get("question")
        if not isinstance(q, dict):
            self.question, self.mine, self._drawn = None, None, None
            self.layout.display = "none"
            return
        self.question, self.mine = q, q.get("mine")
        drawn = (q.get("id"), self.mine, q.get("reveal") is not None)
        if drawn == self._drawn:
            return
        if self._drawn is None or self._drawn[0] != q.get("id"):
            self._draw_position(q)
        self._drawn = drawn
        self._draw_answer(q)
        self.layout.display = ""

    def _draw_position(self, q: dict[str, Any]) -> None:
        title = _("Your teacher’s board")
        self.heading.value = (f"<h3>{esc(title)}</h3>"
                              f"<div class='kt-instruction'>{esc(q.get('prompt', ''))}</div>")
        try:
            hand, table = parse_cards(q.get("hand", [])), parse_table(q.get("table", []))
            kladda, other = parse_cards(q.get("kladda", [])), parse_cards(q.get("next_hand", []))
        except ValueError:  # the server sends codes it made itself: this is never expected
            log.exception("krypteach: the board's position was not understood")
            return
        label = _("Your card (played)") if q.get("played") else _("Your hand (handen)")
        html = table_html(table, kladda, width=56) + hand_html(hand, width=56, label=label)
        if other:
            html += hand_html(other, width=44, label=_("The other player's hand (shown)"))
        self.position.value = html
        buttons = []
        for c in q.get("choices", []):
            b = button(str(c.get("words", "")), tip=_("Answer {move}").format(move=c.get("words", "")))
            key = c.get("key")
            b.on_click(lambda _b, key=key: self.choose(key))
            b.kt_key = key
            buttons.append(b)
        self.choices.children = buttons

    def _draw_answer(self, q: dict[str, Any]) -> None:
        reveal = q.get("reveal")
        words = {c.get("key"): c.get("words", "") for c in q.get("choices", [])}
        for b in self.choices.children:
            b.disabled = self.mine is not None or reveal is not None
            b.button_style = "info" if b.kt_key == self.mine else ""
        if isinstance(reveal, dict):
            head = _("The answer: {answer}.").format(answer=reveal.get("answer", ""))
            details = [str(reveal.get("explanation", ""))]
            yours = reveal.get("yours")
            if yours is None:
                kind = "info"
                details.append(_("You did not answer this position."))
            else:
                kind = "ok" if yours else "error"
                details.insert(0, (_("Your answer {move} is right.") if yours else
                                   _("Your answer {move} is not the best here.")).format(move=words.get(self.mine, "")))
            self.feedback.value = message_html(kind, head, details)
        elif self.mine is not None:
            self.feedback.value = message_html("info", _("Your answer: {move}. Your teacher shows the answer when the "
                                                         "class has answered.").format(move=words.get(self.mine, "")))
        else:
            self.feedback.value = ""

    # --- the learner's choice --------------------------------------------------------------
    def choose(self, key: str) -> None:
        """Send the learner's choice; the board's answer (or its refusal) is shown."""
        q = self.question
        if q is None or self.link is None or self.mine is not None:
            return
        try:
            view = self.link.post("board/answer", {"question": q.get("id"), "answer": key, "lang": language()})
        except LiveError as e:
            self.feedback.value = message_html("error", str(e))
            return
        self.show(view)
