"""``AnswerBox``: a one-line text box for an answer, checked with a button or Enter.

ipywidgets' ``Text`` sends each change as a saved change, which ipywidgets holds back while an
earlier one is unanswered, and sends Enter (and any button's click) straight away. So a learner
who typed "9", ⌫, "8" and pressed Enter before Python had answered was judged on "9": on a busy
server, or a school laptop serving a class, the answer typed was not the answer judged. Here
``answer_box.js`` sends every change, and Enter with the box as it stands, as messages of their
own, which reach Python in the order they were sent (as the card rows do: :mod:`.cards`).

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

from .guard import allowed_update

__all__ = ["AnswerBox"]

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
        if not isinstance(content, dict) or not set(content) <= {"value", "submit"} or "value" not in content:
            return
        kept, _dropped = allowed_update({"value": content["value"]})
        text = kept.get("value")
        if not isinstance(text, str):
            return
        with self._lock_property(value=text), self.hold_trait_notifications():
            self.value = text
        if content.get("submit") is True and not self.disabled:
            for callback in list(self._submitted):
                callback(self)
