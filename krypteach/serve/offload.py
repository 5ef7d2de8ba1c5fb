"""Work that must not hold the server's event loop (a class's overview, its CSV, an import,
a PIN's hash), run in a worker thread in the request's context (its language)."""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any, TypeVar

import tornado.ioloop

__all__ = ["off_the_loop"]

_T = TypeVar("_T")


async def off_the_loop(work: Callable[..., _T], *args: Any) -> _T:
    """``work(*args)`` in a worker thread, in this request's context (its language): the class's
    overview, its page and its CSV never hold the server's event loop (issue 20, findings 1 and 11)."""
    context = contextvars.copy_context()
    return await tornado.ioloop.IOLoop.current().run_in_executor(None, context.run, work, *args)
