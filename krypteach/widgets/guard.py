"""What a page's browser may change in the kernel: checked here, in Python.

A browser can send the kernel any widget message, not only what its controls
allow: a raised ``max`` and then a value of 10⁹ givar, a hand of 20,000 cards
(the kernel drew them and sent back 32 MiB), a new widget of any class. The
widgets' own limits (``BoundedIntText.max``, the options of a ``Dropdown``)
are Python traits that the front end could overwrite too. So every message
from the front end passes one gate, :func:`install`, before any widget sees it:

- an ``update`` may set only the traits a standard control's front end really
  sets (:data:`FRONT_END_MAY_SET`: ``value``, ``index``, ``selected`` …); any
  other key (``max``, ``options``, ``cards``, ``disabled``, ``layout`` …) is
  dropped, and the widget sends its true state back so the page shows it;
- a value must be small: text up to :data:`MAX_TEXT` characters, lists up to
  :data:`MAX_ITEMS` plain items, whole numbers within JavaScript's safe range;
  a larger one is dropped whole;
- the front end may not create widgets in the kernel (``comm_open`` on
  ``jupyter.widget``): the lessons never need it, and each one costs memory;
- binary buffers come only with a file: a ``FileUpload`` may receive its
  ``value`` (the file's name, type, size, date, and its bytes as the one buffer
  of each file) and an ``error`` text, at most :data:`MAX_UPLOAD_FILES` files of
  together :data:`MAX_UPLOAD_BYTES` bytes (the server refuses a WebSocket message
  over 1 MiB anyway); anything else with buffers is dropped. A file over the cap
  is dropped and the widget's ``error`` says why (:func:`allowed_upload`).

In a page served to learners (``krypteach serve``, Voilà, the static site) an error in a
control's callback (a click, a custom message) is written to the kernel process's own
stderr (the server's log) with its traceback, never to the page: ipywidgets would show
the whole traceback there, with the install's paths (:func:`quiet_on_the_page`).

What is left is checked by the widgets themselves, as values from Python are:
``BoundedIntText`` clamps to its (now fixed) limits, a ``Dropdown`` index must
name an option, a card row keeps only indices of its cards, and the long jobs
have caps of their own (:mod:`krypteach.play.limits`).

>>> import ipywidgets as widgets
>>> install()
>>> w = widgets.BoundedIntText(value=5, min=2, max=20)
>>> front_end_update(w, {"max": 10**9, "value": 10**9})   # what a forged message does
>>> w.max, w.value
(20, 20)
>>> front_end_update(w, {"value": "x" * 100_000})
>>> w.value
20
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import ipywidgets  # type: ignore[import-untyped]
import ipywidgets as widgets
import traitlets

from ..i18n import _
from ..i18n.numbers import number

__all__ = ["FRONT_END_MAY_SET", "MAX_ITEMS", "MAX_TEXT", "MAX_UPLOAD_BYTES", "MAX_UPLOAD_FILES", "allowed_update",
           "allowed_upload", "front_end_update", "front_end_upload", "install", "quiet_on_the_page", "served"]

#: the traits the front ends of the standard controls and of krypteach's card rows set
FRONT_END_MAY_SET = frozenset({
    "value",           # Text, IntText, Checkbox, sliders, ToggleButton, Combobox, pickers
    "index",           # Dropdown, RadioButtons, Select, ToggleButtons, SelectMultiple
    "selected_index",  # Tab, Accordion, Stack
    "selected",        # krypteach's CardRowWidget
    "playing", "repeat",  # Play
})
#: the longest text a page may send (an answer box, a nickname)
MAX_TEXT = 2_000
#: the most items in a list a page may send (a card row's selection: at most 104 cards)
MAX_ITEMS = 200
#: the most bytes of files one upload may bring (under the server's 1 MiB cap on a message)
MAX_UPLOAD_BYTES = 900 * 1024
#: the most files one upload may bring
MAX_UPLOAD_FILES = 10
_SAFE_INT = 2**53
_FILE_KEYS = frozenset({"name", "type", "size", "last_modified", "content"})

log = logging.getLogger("krypteach.guard")
_installed = False


def _small(value: Any, depth: int = 0) -> bool:
    if value is None or isinstance(value, (bool, float)):
        return True
    if isinstance(value, int):
        return -_SAFE_INT <= value <= _SAFE_INT
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    if isinstance(value, (list, tuple)) and depth == 0:
        return len(value) <= MAX_ITEMS and all(_small(v, 1) for v in value)
    return False


def allowed_update(state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The part of a front end's update that may reach the widget, and the keys dropped.

    >>> allowed_update({"value": 3, "max": 100, "selected": list(range(1000))})
    ({'value': 3}, ['max', 'selected'])
    """
    kept: dict[str, Any] = {}
    dropped: list[str] = []
    for key, value in state.items():
        if key in FRONT_END_MAY_SET and _small(value):
            kept[key] = value
        else:
            dropped.append(key)
    return kept, dropped


def set_from_the_page(widget: widgets.Widget, name: str, value: Any) -> bool:
    """Set ``widget``'s trait ``name`` to what the page sent in a message of its own (krypteach's
    inputs send each change so, in order: :mod:`.cards`, :mod:`.inputs`), if it passes the gate
    a saved change passes (:func:`allowed_update`) and the trait's own validation. The page already
    shows it, so it is not sent back (unless the trait kept something else). False: nothing set.

    >>> box = widgets.Text()
    >>> set_from_the_page(box, "value", "8"), box.value, set_from_the_page(box, "value", "9" * 5000), box.value
    (True, '8', False, '8')
    """
    kept, _dropped = allowed_update({name: value})
    if name not in kept:
        return False
    try:
        with widget._lock_property(**kept), widget.hold_trait_notifications():
            setattr(widget, name, kept[name])
    except traitlets.TraitError:
        return False
    return True


def allowed_upload(widget: widgets.Widget, data: dict[str, Any], buffers: list[Any]) -> str | None:
    """Why an update with binary buffers may not reach ``widget`` (``None``: it may).

    Only a ``FileUpload`` takes buffers: its ``value`` (a list of files, each
    ``{"name", "type", "size", "last_modified", "content"}`` whose content is one
    buffer) and an ``error`` text, at most :data:`MAX_UPLOAD_FILES` files and
    :data:`MAX_UPLOAD_BYTES` bytes in all.

    >>> up = widgets.FileUpload()
    >>> file = {"name": "g.jsonl", "type": "", "size": 3, "last_modified": 0}
    >>> allowed_upload(up, {"state": {"value": [file]}, "buffer_paths": [["value", 0, "content"]]}, [b"abc"])
    >>> allowed_upload(widgets.Text(), {"state": {"value": "x"}, "buffer_paths": [["value"]]}, [b"abc"])
    'only a file upload may send binary data'
    """
    if not isinstance(widget, widgets.FileUpload):
        return _("only a file upload may send binary data")
    state, paths = data.get("state"), data.get("buffer_paths")
    if not isinstance(state, dict) or not set(state) <= {"value", "error"} or not isinstance(paths, list):
        return _("a file upload may send only its files")
    if "error" in state and not (isinstance(state["error"], str) and len(state["error"]) <= MAX_TEXT):
        return _("a file upload's error must be a short text")
    files = state.get("value", [])
    if not isinstance(files, list) or len(files) > MAX_UPLOAD_FILES:
        return _("at most {n} files at once").format(n=MAX_UPLOAD_FILES)
    for f in files:
        if not isinstance(f, dict) or not set(f) <= _FILE_KEYS or not {"name", "type", "size", "last_modified"} <= set(f):
            return _("a file must be sent as its name, type, size, date and content")
        if not all(isinstance(f[k], str) and len(f[k]) <= MAX_TEXT for k in ("name", "type")) \
                or not all(_small(f[k]) and not isinstance(f[k], (bool, str)) for k in ("size", "last_modified")):
            return _("a file's name, type, size or date is not plain")
    if paths != [["value", i, "content"] for i in range(len(files))] or len(buffers) != len(files):
        return _("each file must bring exactly one buffer, its content")
    total = sum(memoryview(b).nbytes for b in buffers)
    if total > MAX_UPLOAD_BYTES:
        return _("the file is too big ({size} KiB): at most {most} KiB can be sent to the server").format(
            size=number(total / 1024), most=number(MAX_UPLOAD_BYTES // 1024))
    return None


def front_end_update(widget: widgets.Widget, state: dict[str, Any]) -> None:
    """Handle ``state`` as if the page had sent it in an ``update`` message (for tests)."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def front_end_upload(widget: widgets.Widget, files: list[tuple[str, bytes]]) -> None:
    """Handle an upload of ``files`` (name, content) as the page sends it: the files'
    contents as binary buffers beside the update (for tests)."""
    value = [{"name": name, "type": "", "size": len(content), "last_modified": 0} for name, content in files]
    data = {"method": "update", "state": {"value": value, "error": ""},
            "buffer_paths": [["value", i, "content"] for i in range(len(files))]}
    widget._handle_msg({"content": {"data": data}, "buffers": [memoryview(content) for _, content in files]})


def served() -> bool:
    """Is this kernel a learner's page (``krypteach serve``'s kernels have its key, Voilà's its
    addresses, the static site ``KRYPTEACH_SITE``), not a notebook in JupyterLab?"""
    return (any(os.environ.get(k) for k in ("KRYPTEACH_LEARNER_KEY", "VOILA_BASE_URL", "VOILA_APP_PORT"))
            or os.environ.get("KRYPTEACH_SITE") == "1")


def quiet_on_the_page() -> None:
    """In a learner's page: krypteach's log and any error in a widget's callback go to the
    kernel process's stderr (the server's log, for the teacher), not to the page.

    A kernel's ``sys.stderr`` is the page's output, and ipywidgets' ``CallbackDispatcher``
    shows an exception in a callback with ``showtraceback()`` on the page (the install's
    paths and the code in it). Here the callback's error is logged with its traceback and
    the other callbacks still run; the widget sends its true state back."""
    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(logging.Formatter("[krypteach] %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("krypteach")
    root.addHandler(handler)
    root.propagate = False  # not the kernel's stderr stream, which is the page
    from ipywidgets.widgets.widget import CallbackDispatcher  # type: ignore[import-untyped]

    def dispatch(self: Any, *args: Any, **kwargs: Any) -> Any:
        value = None
        for callback in self.callbacks:
            try:
                got = callback(*args, **kwargs)
            except Exception:
                log.error("krypteach: a widget's callback %s failed (nothing is shown on the page)",
                          getattr(callback, "__qualname__", repr(callback)), exc_info=True)
                owner = args[0] if args and isinstance(args[0], widgets.Widget) else None
                if owner is not None and getattr(owner, "comm", None) is not None:
                    owner.send_state()
            else:
                value = got if got is not None else value
        return value

    CallbackDispatcher.__call__ = dispatch


def install() -> None:
    """Put the gate in front of every widget's messages from the page (once per process)."""
    global _installed
    if _installed:
        return
    if served():
        quiet_on_the_page()
    original = widgets.Widget._handle_msg

    def _handle_msg(self: widgets.Widget, msg: dict[str, Any]) -> None:
        data = msg.get("content", {}).get("data", {})
        if data.get("method") == "update" and isinstance(data.get("state"), dict):
            if data.get("buffer_paths"):  # binary buffers: only a file upload, small enough
                refused = allowed_upload(self, data, list(msg.get("buffers") or []))
                if refused is None:
                    original(self, msg)
                    return
                log.warning("krypteach: dropped an update with binary buffers for %s: %s", type(self).__name__, refused)
                if isinstance(self, widgets.FileUpload):
                    self.error = refused  # the page's widget says why, in words
                self.send_state()
                return
            kept, dropped = allowed_update(data["state"])
            if dropped:
                log.warning("krypteach: dropped %s sent by the page for %s", ", ".join(dropped), type(self).__name__)
            if kept:
                original(self, {**msg, "content": {**msg["content"], "data": {**data, "state": kept}}})
            if dropped:
                self.send_state()  # the page shows the true state again
            return
        original(self, msg)

    widgets.Widget._handle_msg = _handle_msg
    # widgets made before the gate: their comms hold the old handler (Widget.widgets is deprecated)
    for w in list(ipywidgets.widgets.widget._instances.values()):
        if getattr(w, "comm", None) is not None:
            w.comm.on_msg(w._handle_msg)
    _refuse_new_widgets()
    _installed = True


def _refuse_new_widgets() -> None:
    """A page may not create widgets in the kernel: close every comm it opens on ``jupyter.widget``."""
    try:
        from ipywidgets import comm as widget_comm

        manager = widget_comm.get_comm_manager()
    except Exception:  # not in a kernel
        return
    if manager is None:
        return

    def refuse(comm: Any, msg: dict[str, Any]) -> None:
        log.warning("krypteach: refused a widget the page tried to create")
        comm.close()

    manager.register_target("jupyter.widget", refuse)
