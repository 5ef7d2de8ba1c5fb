"""Helpers of the live class's HTTP tests (the tables', the teacher's board's)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import tornado.web
from tornado.httpclient import AsyncHTTPClient, HTTPClientError

from .conftest import _free_port


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
    port = _free_port()
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


class ServedApp:
    """Handlers as ``krypteach serve`` mounts them, listening on a free port of 127.0.0.1 in the
    running event loop, with an HTTP client for the requests of learners' kernels."""

    def __init__(self, handlers: list[Any], **settings: Any) -> None:
        port = _free_port()
        self.server = tornado.web.Application(handlers, **settings).listen(port, "127.0.0.1")
        self.base = f"http://127.0.0.1:{port}"
        self.client = AsyncHTTPClient()

    async def request(self, path: str, body: dict | None = None, **query: Any) -> tuple[int, dict]:
        """A kernel's request to ``/krypteach/<path>``: GET with ``query``, or POST ``body`` as JSON;
        (status, the answer's JSON)."""
        url = f"{self.base}/krypteach/{path}" + ("?" + urlencode(query) if query else "")
        try:
            r = await self.client.fetch(url, method="GET" if body is None else "POST",
                                        body=None if body is None else json.dumps(body), request_timeout=30)
            return r.code, json.loads(r.body)
        except HTTPClientError as e:
            return e.code, json.loads(e.response.body) if e.response is not None else {}

    def stop(self) -> None:
        self.server.stop()


class TeacherBrowser:
    """The teacher's browser on one of the teacher's pages (``page``: ``board``, ``tournament``):
    its cookies (the teacher's, the form token, the language)."""

    page = ""

    def __init__(self, served: ServedApp, teacher_code: str, lang: str | None = None) -> None:
        self.served, self.teacher_code = served, teacher_code
        self.cookies: dict[str, str] = {} if lang is None else {"krypteach_lang": lang}

    async def fetch(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        """(status, body, where a redirect goes)."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None if form is None else urlencode({**form, "_xsrf": self.cookies.get("_xsrf", "")})
        r = await self.served.client.fetch(self.served.base + path, method="GET" if form is None else "POST",
                                           headers=headers, body=body, follow_redirects=False,
                                           raise_error=False, request_timeout=30)
        for line in r.headers.get_list("Set-Cookie"):
            for k, m in SimpleCookie(line).items():
                self.cookies[k] = m.value
        return r.code, r.body.decode(), r.headers.get("Location", "")

    async def sign_in(self) -> TeacherBrowser:
        await self.fetch("/krypteach/teacher")  # the sign-in page: its form token
        status, _body, where = await self.fetch("/krypteach/teacher", {"teacher_code": self.teacher_code})
        assert status == 302 and where == "/krypteach/teacher" and "krypteach_teacher" in self.cookies
        return self

    async def post(self, action: str, **form: str) -> str:
        """Post one of the page's forms; the error its redirect carries ("" when none)."""
        status, _body, where = await self.fetch(f"/krypteach/teacher/{self.page}/{action}", form)
        assert status == 302 and where.startswith(f"/krypteach/teacher/{self.page}"), (status, where)
        return parse_qs(urlparse(where).query).get("error", [""])[0]

    async def state(self, since: int = -1) -> dict:
        """The page's live part."""
        status, body, _where = await self.fetch(f"/krypteach/teacher/{self.page}/state?since={since}")
        assert status == 200, body
        state: dict = json.loads(body)
        return state
