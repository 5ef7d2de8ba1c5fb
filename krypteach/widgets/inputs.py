"""``AnswerBox`` and ``ChoiceBox``: a one-line text box for an answer, checked with a button
or Enter, and radio buttons for one choice of a few, checked with a button; and ``Barrier``, which
lets a button's action wait for every change made before it in ipywidgets' own controls.

ipywidgets' ``Text`` sends each change as a saved change, which ipywidgets holds back while an
earlier one is unanswered, and sends Enter (and any button's click) straight away. So a learner
who typed "9", ⌫, "8" and pressed Enter before Python had answered was judged on "9": on a busy
server, or a school laptop serving a class, the answer typed was not the answer judged. Here
``answer_box.js`` sends every change, and Enter with the box as it stands, as messages of their
own, which reach Python in the order they were sent (as the card rows do: :mod:`.cards`).
``ChoiceBox`` does the same for radio buttons (``ipywidgets.RadioButtons``: a choice changed
twice and Check pressed before Python answered was judged on the first).

>>> box = AnswerBox(description="Points:", placeholder="e.g. 7")
>>> got = []
>>> box.on_submit(lambda b: got.append(b.value))
>>> box.from_the_page({"value": "8", "submit": True}); box.value, got
('8', ['8'])
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from .guard import set_from_the_page

__all__ = ["AnswerBox", "ChoiceBox", "Barrier"]

_HERE = pathlib.Path(__file__).parent
_CSS = """
.kt-answer { display: inline-flex; align-items: center; gap: 8px; margin: 1px 0; padding: 3px; max-width: 100%; }
.kt-answer-label { white-space: nowrap; }
.kt-answer-input { width: 9em; max-width: 100%; min-height: 32px; padding: 2px 8px; font: inherit;
  border: 1px solid #757575; border-radius: 2px; box-sizing: border-box; }
.kt-answer-input:focus { outline: 2px solid #1d6b3a; outline-offset: 1px; }
"""


class AnswerBox(anywidget.AnyWidget):
    """A labelled one-line text box. Traits: ``value`` (what the box holds), ``description`` (its
    label, in the page's language), ``placeholder``, ``disabled``. :meth:`on_submit` is called
    when Enter is pressed in it, after ``value`` holds what was typed."""

    _esm = _HERE / "answer_box.js"
    _css = _CSS
    value = traitlets.Unicode("").tag(sync=True)
    description = traitlets.Unicode("").tag(sync=True)
    placeholder = traitlets.Unicode("").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._submitted: list[Callable[[AnswerBox], object]] = []
        self.on_msg(lambda _w, content, _b: self.from_the_page(content))

    def on_submit(self, callback: Callable[[AnswerBox], object]) -> None:
        """Call ``callback(box)`` when Enter is pressed in the box."""
        self._submitted.append(callback)

    def from_the_page(self, content: Any) -> None:
        """A message from ``answer_box.js``: ``{"value": text}`` as the learner types, with
        ``"submit": true`` for Enter. It passes the gate a saved change passes
        (:func:`.guard.allowed_update`: a short text); anything else is ignored. The page
        already shows the text, so it is not sent back."""
        if not isinstance(content, dict) or not set(content) <= {"value", "submit"} \
                or not isinstance(content.get("value"), str) or not set_from_the_page(self, "value", content["value"]):
            return
        if content.get("submit") is True and not self.disabled:
            for callback in list(self._submitted):
                callback(self)


class ChoiceBox(anywidget.AnyWidget):
    """Radio buttons: ``options`` (texts), ``index`` (the one chosen, or None), ``disabled``.
    ``choice_box.js`` sends each choice as a message, so a Check pressed at once cannot overtake it.

    >>> box = ChoiceBox(options=["52", "104"])
    >>> box.from_the_page({"index": 1}); box.index
    1
    >>> box.from_the_page({"index": 5}); box.from_the_page({"index": True}); box.index
    1
    """

    _esm = _HERE / "choice_box.js"
    _css = (".kt-choice-group { display: flex; flex-direction: column; gap: 2px; }\n"
            ".kt-choice-group label { display: flex; align-items: flex-start; gap: 6px; cursor: pointer; }\n"
            ".kt-choice-group input { margin: 0.3em 0 0; flex: none; }\n")
    options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    index = traitlets.Int(None, allow_none=True).tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(lambda _w, content, _b: self.from_the_page(content))

    @traitlets.validate("index")
    def _valid_index(self, proposal: dict[str, Any]) -> int | None:
        i: int | None = proposal["value"]
        if i is not None and not 0 <= i < len(self.options):
            raise traitlets.TraitError(f"no option {i}: there are {len(self.options)}")
        return i

    def from_the_page(self, content: Any) -> None:
        """A message from ``choice_box.js``: ``{"index": i}``; anything else is ignored."""
        if isinstance(content, dict) and set(content) == {"index"} and type(content["index"]) is int \
                and not self.disabled:
            set_from_the_page(self, "index", content["index"])


class Barrier(anywidget.AnyWidget):
    """Run a button's action only once every change the learner made before pressing it has
    reached Python, for ipywidgets' own controls (a number box, a menu, a checkbox), which the page
    holds back while an earlier change of the same control is unanswered, while the click goes at once:
    a game started with the number before the last one typed, on a busy server.

    :meth:`then` sends the page a ping; ``barrier.js`` answers it. Python's messages reach the page
    in order, so the ping arrives after Python's answer to every change it has seen, and the page
    has by then sent each change it held back; the page's messages reach Python in order, so the
    answer comes after them. The barrier is put among the widget's children, out of sight. Where no
    page shows it (a notebook run without a page, a test), the action runs at once.

    >>> barrier, done = Barrier(), []
    >>> barrier.then(lambda: done.append("now")); done
    ['now']
    >>> barrier.from_the_page({"view": "shown"}); barrier.then(lambda: done.append("later")); done
    ['now']
    >>> barrier.from_the_page({"pong": 99}); barrier.from_the_page({"pong": 1}); done
    ['now', 'later']
    """

    _esm = _HERE / "barrier.js"

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("layout", {"display": "none"})
        super().__init__(**kwargs)
        self._views = 0
        self._asked = 0
        self._waiting: dict[int, Callable[[], object]] = {}
        self.on_msg(lambda _w, content, _b: self.from_the_page(content))

    def then(self, action: Callable[[], object]) -> None:
        """Run ``action`` once the page has answered (at once where no page shows the barrier)."""
        if self._views <= 0:
            action()
            return
        self._asked += 1
        self._waiting[self._asked] = action
        self.send({"ping": self._asked})

    def from_the_page(self, content: Any) -> None:
        """``{"view": "shown" | "gone"}`` as a page draws or drops the barrier; ``{"pong": n}``
        answering ping ``n``. Anything else, and a pong not asked for, is ignored."""
        if not isinstance(content, dict) or len(content) != 1:
            return
        if content.get("view") in ("shown", "gone"):
            self._views = max(0, self._views + (1 if content["view"] == "shown" else -1))
            if self._views == 0:  # no page left to answer: what waits runs now
                waiting, self._waiting = self._waiting, {}
                for action in waiting.values():
                    action()
        elif type(content.get("pong")) is int and content["pong"] in self._waiting:
            self._waiting.pop(content["pong"])()
