"""Helpers of the live class's HTTP tests (the tables', the teacher's board's)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def run_in_thread(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(main())`` in a thread of its own: the browser tests' Playwright (its sync
    API) keeps an event loop running in the test process's main thread, where asyncio.run fails."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()
