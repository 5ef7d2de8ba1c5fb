"""Helpers of the live class's HTTP tests (the tables', the teacher's board's)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import tornado.web


def run_in_thread(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(main())`` in a thread of its own: the browser tests' Playwright (its sync
    API) keeps an event loop running in the test process's main thread, where asyncio.run fails."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()


@contextmanager
def app_in_thread(handlers: list[Any], start: Callable[[asyncio.AbstractEventLoop], None] | None = None,
                  stop: Callable[[], None] | None = None, **settings: Any) -> Iterator[int]:
    """A Tornado application of ``handlers`` (and ``settings``) listening on a free port of
    127.0.0.1, on an event loop of its own in a thread; yields the port. ``start`` runs on that
    loop once the app listens (a room's start), ``stop`` on it when the block ends."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ready = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)

        async def begin() -> None:
            box["server"] = tornado.web.Application(handlers, **settings).listen(port, "127.0.0.1")
            if start is not None:
                start(loop)
            ready.set()

        loop.run_until_complete(begin())
        box["loop"] = loop
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10), "the test server did not start"
    try:
        yield port
    finally:
        if stop is not None:
            box["loop"].call_soon_threadsafe(stop)
        box["loop"].call_soon_threadsafe(box["loop"].stop)
        thread.join(5)
