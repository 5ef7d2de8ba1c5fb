"""A page's kernel talks to its server's live class (issue 24): the tables, the teacher's board.

Under ``krypteach serve`` the live class lives in the server's own process
(:mod:`krypteach.serve.tables`); a lesson page's kernel reaches it over HTTP on the same
machine. :func:`live_url` finds the server: ``KRYPTEACH_LIVE_URL`` when set (a hub service's
address), else the Voilà server that started the kernel (``VOILA_APP_PORT``, which Voilà puts
in every kernel's environment, preheated ones too). A :class:`Link` carries the learner's
token (:func:`~krypteach.classroom.session.sign_learner` with the nonce :data:`LIVE_NONCE`,
signed with the key the server gave its kernels) in every request, so the server knows which
learner asks; a page's browser never sees it.

Short requests (a move, sitting down) are made at once (:meth:`Link.post`, :meth:`Link.get`:
a few milliseconds on this machine); waiting for the table to change is a long poll on the
kernel's event loop (:meth:`Link.poll`), so the page stays live while it waits. Where there is
no server (JupyterLab, the static site, a test) :meth:`Link.for_session` is ``None`` and the
pages offer the computer opponents instead.

>>> live_url({"VOILA_APP_PORT": "8866", "VOILA_BASE_URL": "/"})
'http://127.0.0.1:8866/krypteach'
>>> live_url({"KRYPTEACH_LIVE_URL": "http://hub:8000/services/krypteach/"}), live_url({}) is None
('http://hub:8000/services/krypteach', True)
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from ..i18n import _
from .session import ENV_KEY, Session, sign_learner

__all__ = ["ENV_LIVE", "LIVE_NONCE", "POLL_TIMEOUT", "RETRY", "Link", "LiveError", "live_url"]

#: the address of the live class (the server's ``/krypteach``, or a hub service's)
ENV_LIVE = "KRYPTEACH_LIVE_URL"
#: the nonce of a kernel's learner token for the live class
LIVE_NONCE = "tables"
#: seconds a short request may take
TIMEOUT = 5.0
#: seconds a long poll may take (the server answers within its own wait, 20 s)
POLL_TIMEOUT = 30.0
#: seconds a long poll waits after a failure (the server away for a moment) before it asks again
RETRY = 2.0

log = logging.getLogger(__name__)


class LiveError(Exception):
    """The live class refused a request, or could not be reached: one sentence saying why."""

    def __init__(self, why: str, status: int = 0) -> None:
        super().__init__(why)
        self.status = status


def live_url(env: Mapping[str, str] | None = None) -> str | None:
    """The live class's address for this kernel, without a trailing slash; None without a server."""
    env = os.environ if env is None else env
    if env.get(ENV_LIVE):
        return env[ENV_LIVE].rstrip("/")
    port = env.get("VOILA_APP_PORT")
    if not port:
        return None
    base = (env.get("VOILA_BASE_URL") or "/").strip("/")
    return f"http://127.0.0.1:{port}/{base + '/' if base else ''}krypteach"


class Link:
    """Requests to the live class at ``base`` for the learner of ``token``."""

    def __init__(self, base: str, token: str, headers: Mapping[str, str] | None = None) -> None:
        self.base, self.token = base.rstrip("/"), token
        self.headers = dict(headers or {})

    @classmethod
    def for_session(cls, session: Session, env: Mapping[str, str] | None = None) -> Link | None:
        """The link of a signed-in learner on a served page; None where there is no live class.

        On JupyterHub (``KRYPTEACH_LIVE_URL`` and the learner's server's ``JUPYTERHUB_API_TOKEN``)
        the token is the server's own, sent as the ``Authorization`` header: the hub's service
        asks the hub whose it is (:mod:`krypteach.serve.hub_service`).

        >>> link = Link.for_session(Session(), {ENV_LIVE: "http://127.0.0.1:8082/krypteach",
        ...                                     "JUPYTERHUB_API_TOKEN": "abc", "JUPYTERHUB_USER": "ann"})
        >>> link.base, link.headers
        ('http://127.0.0.1:8082/krypteach', {'Authorization': 'token abc'})
        """
        env = os.environ if env is None else env
        hub_token = env.get("JUPYTERHUB_API_TOKEN", "")
        if env.get(ENV_LIVE) and hub_token and env.get("JUPYTERHUB_USER"):
            return cls(env[ENV_LIVE], "", {"Authorization": f"token {hub_token}"})
        base, key = live_url(env), env.get(ENV_KEY, "")
        if base is None or not key or not session.signed_in or session.learner is None:
            return None
        token = sign_learner(key.encode(), session.class_code or "", session.nickname or "", session.learner,
                             nonce=LIVE_NONCE)
        return cls(base, token)

    def url(self, path: str, query: Mapping[str, Any] | None = None) -> str:
        q = "?" + urllib.parse.urlencode(dict(query)) if query else ""
        return f"{self.base}/{path.lstrip('/')}{q}"

    def post(self, path: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """POST ``data`` (with the learner's token as ``learner``) as JSON; the answer's JSON."""
        body = json.dumps({"learner": self.token, **data}).encode()
        request = urllib.request.Request(self.url(path), body, {"Content-Type": "application/json", **self.headers},
                                         method="POST")
        return self._open(request, TIMEOUT)

    def get(self, path: str, **query: Any) -> dict[str, Any]:
        return self._open(urllib.request.Request(self.url(path, query), headers=self.headers), TIMEOUT)

    async def poll(self, path: str, **query: Any) -> dict[str, Any]:
        """GET on the kernel's event loop: for a long poll, which waits until something changes."""
        from tornado.httpclient import AsyncHTTPClient, HTTPClientError

        try:
            answer = await AsyncHTTPClient().fetch(self.url(path, query), headers=self.headers,
                                                   request_timeout=POLL_TIMEOUT)
        except HTTPClientError as e:
            raise LiveError(_refusal(e.response.body if e.response is not None else b"", e.code), e.code) from None
        except OSError as e:
            raise LiveError(_unreachable(e)) from None
        return _json(answer.body)

    async def follow(self, ask: Callable[[], tuple[str, Mapping[str, Any]]],
                     answer: Callable[[dict[str, Any]], None], *, going: Callable[[], bool] = lambda: True,
                     what: str = "a long poll", retry: float | None = None) -> LiveError | None:
        """Long-poll while ``going()``: ``ask()`` gives the path and the query of each poll (read
        anew each time), ``answer`` takes each answer. A refusal (403, 404: not this learner's,
        or gone) ends it and is returned; any other failure (the server away for a moment, a bug
        in ``answer``) is logged, and it asks again after ``retry`` seconds (:data:`RETRY`).
        Ends with None once ``going()`` is false. The tables' and the lobby's polls of a game
        page and the board's panel are this."""
        while going():
            try:
                path, query = ask()
                answer(await self.poll(path, **query))
                continue
            except LiveError as e:
                if e.status in (403, 404):
                    log.info("krypteach: %s refused: %s", what, e)
                    return e
            except asyncio.CancelledError:
                raise
            except Exception:  # the page goes on; the next poll tries again
                log.exception("krypteach: %s", what)
            await asyncio.sleep(RETRY if retry is None else retry)
        return None

    def _open(self, request: urllib.request.Request, timeout: float) -> dict[str, Any]:
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return _json(answer.read())
        except urllib.error.HTTPError as e:
            raise LiveError(_refusal(e.read(), e.code), e.code) from None
        except (urllib.error.URLError, OSError) as e:
            raise LiveError(_unreachable(e)) from None


def _json(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise LiveError(_("the server's answer was not understood"))
    return data


def _refusal(body: bytes, status: int) -> str:
    try:
        why = json.loads(body).get("error")
    except (ValueError, AttributeError):
        why = None
    return why if isinstance(why, str) and why else _("the server refused the request ({status})").format(status=status)


def _unreachable(e: Exception) -> str:
    return _("the class's server did not answer: {why}").format(why=getattr(e, "reason", e))
