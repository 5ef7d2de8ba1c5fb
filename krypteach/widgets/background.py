"""Work done in the gaps between a learner's clicks: the coach's analysis of the giv while it is
played (issue 22).

A kernel (ipykernel on the server, Pyodide's in the static site) runs the widgets' callbacks
one at a time on its event loop. :class:`Background` runs a piece of work there, a slice of
about :data:`SLICE` seconds at a time, and gives the loop back between slices, so a click waits
for one slice at most. No thread: the engine's caches are shared module state, and Pyodide has
no threads. Without a running loop (a plain script, a unit test) nothing runs in the background
and the work is done when it is asked for.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable

__all__ = ["SLICE", "Background", "running_loop"]

log = logging.getLogger("krypteach")

#: seconds of work a slice (it ends after the piece that passes it)
SLICE = 0.04
#: seconds the loop is left to the page between two slices, and after a move before the first
GAP = 0.02
START = 0.25


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop, or ``None`` outside one (then nothing runs in the background)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if sys.platform == "emscripten":  # Pyodide: its loop is the browser's, always running
        return asyncio.get_event_loop()
    return None


class Background:
    """``step(seconds) -> bool`` (True while work is left) run in slices on the kernel's loop.
    :meth:`wake` after new work arrives; :attr:`slices` counts the slices run."""

    def __init__(self, step: Callable[[float], bool]) -> None:
        self._step = step
        self._handle: asyncio.Handle | None = None
        self.slices = 0

    @property
    def scheduled(self) -> bool:
        return self._handle is not None

    def wake(self, delay: float = START) -> bool:
        """Schedule the next slice (unless one is); False when there is no loop to run it."""
        if self._handle is not None:
            return True
        loop = running_loop()
        if loop is None:
            return False
        self._handle = loop.call_later(delay, self._slice)
        return True

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _slice(self) -> None:
        self._handle = None
        self.slices += 1
        try:
            more = self._step(SLICE)
        except Exception:  # the page goes on; the work is done again when it is asked for
            log.exception("krypteach: the coach's analysis in the background failed")
            return
        if more:
            self.wake(GAP)
