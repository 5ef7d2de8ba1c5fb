"""The live class's tables on JupyterHub (issue 24): one process for the whole hub, run by the
hub as a service (``docs/deploy/jupyterhub_config.py``)::

    python -m krypteach.serve.hub_service

On a hub every learner has a server of their own, so the kernels of the learners at one table
are in different servers: the tables must live in one process that all of them reach. This is
that process: the same tables and handlers as under ``krypteach serve``
(:mod:`krypteach.serve.tables`), behind the hub's identity instead of the server's learner key.

- **Who asks.** A learner's kernel sends its own server's ``JUPYTERHUB_API_TOKEN`` in the
  ``Authorization`` header (:class:`~krypteach.classroom.live.Link` does, where its environment
  has ``KRYPTEACH_LIVE_URL`` and that token). The service asks the hub whose token it is
  (JupyterHub's own :class:`jupyterhub.services.auth.HubAuth`, cached), so the learner is the
  hub's user: a learner can read their own token in their kernel, and it only ever says who
  they are. A missing, unknown or a service's token is refused (403) in one sentence.
- **The learner's id** is their id in the progress store (``KRYPTEACH_PROGRESS``, the same
  store every learner's server writes to, in the class ``KRYPTEACH_CLASS``), so each finished
  giv is kept for every learner at the table as under ``krypteach serve``; without a store the
  givar are not kept and the ids are the service's own.
- **Where.** It listens where the hub says (``JUPYTERHUB_SERVICE_URL``, on 127.0.0.1 in the
  recipe); the learners' servers reach it there directly (``KRYPTEACH_LIVE_URL``).
  ``KRYPTEACH_RULES`` names the class's rule preset (default: plain Krypkasino);
  ``KRYPTEACH_LIVE_BOT``, ``KRYPTEACH_LIVE_REPLACE_AFTER`` and ``KRYPTEACH_LIVE_HINTS`` (``1``) are
  the classroom file's ``[live]`` keys.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import urllib.parse
from collections.abc import Awaitable, Mapping
from typing import Any, Protocol

import tornado.web

from ..classroom.store import NicknameError, ProgressStore
from ..engine.rules import Rules
from ..i18n import _
from .tables import HUB_IDENTITY, TableRoom, room_keeping, table_handlers

__all__ = ["HubLearners", "hub_app", "live_settings", "main"]

log = logging.getLogger("krypteach.hub")

class _Auth(Protocol):
    def user_for_token(self, token: str, use_cache: bool = True, session_id: str = "", *,
                       sync: bool = True) -> Any: ...


class HubLearners:
    """The learner a hub token speaks for: (class code, hub user name, learner id)."""

    def __init__(self, auth: _Auth, store: ProgressStore | None = None, class_code: str = "HUB") -> None:
        self.auth, self.store = auth, store
        self.class_code = (class_code or "HUB").strip().upper()
        self._ids: dict[str, int] = {}

    async def learner(self, token: str) -> tuple[str, str, int] | None:
        """None for no token, one the hub does not know, or one of a service (not a learner)."""
        if not token:
            return None
        try:
            found = self.auth.user_for_token(token, sync=False)
            model = await found if isinstance(found, Awaitable) else found
        except Exception:  # the hub did not answer: the request is refused, the service goes on
            log.exception("krypteach: the hub could not say whose token a request has")
            return None
        if not isinstance(model, dict) or model.get("kind", "user") != "user" or not model.get("name"):
            return None
        name = str(model["name"])
        return self.class_code, name, self._id(name)

    def _id(self, name: str) -> int:
        if name not in self._ids:
            if self.store is not None:
                try:
                    self._ids[name] = self.store.join(self.class_code, name)
                except NicknameError:  # a hub name the store will not take: a learner all the same
                    self._ids[name] = -(len(self._ids) + 1)
            else:
                self._ids[name] = len(self._ids) + 1
        return self._ids[name]


class _ServiceRoot(tornado.web.RequestHandler):
    """The service's own address (the hub's menu links it): what it is, in a line of JSON."""

    def initialize(self, room: TableRoom) -> None:
        self.room = room

    def get(self) -> None:
        self.finish({"service": "krypteach", "tables": len(self.room.tables)})


def hub_app(room: TableRoom, learners: HubLearners, prefix: str = "/") -> tornado.web.Application:
    """The service's application: the tables (``/krypteach/tables…``) behind the hub's identity."""
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    settings: dict[str, Any] = {HUB_IDENTITY: learners}
    return tornado.web.Application([(prefix, _ServiceRoot, {"room": room}), *table_handlers(room)], **settings)


def _listen_address(env: Mapping[str, str]) -> tuple[str, int]:
    url = urllib.parse.urlsplit(env.get("JUPYTERHUB_SERVICE_URL") or "")
    if not url.port:
        raise SystemExit(_("krypteach hub service: JUPYTERHUB_SERVICE_URL names no port: run it as the hub's "
                           "service (docs/deploy.md)"))
    return url.hostname or "127.0.0.1", url.port


def live_settings(env: Mapping[str, str]) -> tuple[str, float]:
    """The tables' bot and the seconds before it plays a gone learner's seat, from
    ``KRYPTEACH_LIVE_BOT`` and ``KRYPTEACH_LIVE_REPLACE_AFTER`` (as the classroom file's ``[live]``).

    >>> live_settings({}), live_settings({"KRYPTEACH_LIVE_BOT": "random", "KRYPTEACH_LIVE_REPLACE_AFTER": "30"})
    (('careful', 60.0), ('random', 30.0))
    >>> live_settings({"KRYPTEACH_LIVE_BOT": "grandmaster"})
    Traceback (most recent call last):
    ...
    SystemExit: krypteach hub service: KRYPTEACH_LIVE_BOT = 'grandmaster' is not allowed: one of random, careful, expert
    """
    from ..bots import BOT_LEVELS

    bot = env.get("KRYPTEACH_LIVE_BOT") or "careful"
    if bot not in BOT_LEVELS:
        raise SystemExit(_("krypteach hub service: {name} = {value} is not allowed: {allowed}").format(
            name="KRYPTEACH_LIVE_BOT", value=repr(bot), allowed=_("one of {names}").format(names=", ".join(BOT_LEVELS))))
    text = env.get("KRYPTEACH_LIVE_REPLACE_AFTER") or "60"
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 5 <= seconds <= 3600:
        raise SystemExit(_("krypteach hub service: {name} = {value} is not allowed: {allowed}").format(
            name="KRYPTEACH_LIVE_REPLACE_AFTER", value=repr(text),
            allowed=_("a whole number of seconds from 5 to 3,600")))
    return bot, seconds


def main(env: Mapping[str, str] | None = None) -> None:
    """Run the service until SIGTERM or SIGINT (the hub stops its services so)."""
    from jupyterhub.services.auth import HubAuth  # type: ignore[import-untyped]

    env = os.environ if env is None else env
    logging.basicConfig(level=logging.INFO, format="[%(levelname)1.1s %(asctime)s krypteach.hub] %(message)s")
    ip, port = _listen_address(env)
    preset = env.get("KRYPTEACH_RULES") or None
    if preset is not None:
        try:
            Rules.preset(preset)
        except (KeyError, ValueError) as e:
            raise SystemExit(f"krypteach hub service: KRYPTEACH_RULES: {e}") from None
    bot, replace_after = live_settings(env)
    where = env.get("KRYPTEACH_PROGRESS")
    store = ProgressStore(where) if where else None
    room = room_keeping(preset, store, bot=bot, replace_after=replace_after,
                        hints=env.get("KRYPTEACH_LIVE_HINTS") == "1")
    learners = HubLearners(HubAuth(cache_max_age=300), store, env.get("KRYPTEACH_CLASS") or "HUB")
    app = hub_app(room, learners, env.get("JUPYTERHUB_SERVICE_PREFIX") or "/")

    async def serve() -> None:
        app.listen(port, ip)
        room.start()
        log.info("the live class's tables listen on %s:%d", ip, port)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        room.stop()

    asyncio.run(serve())
    if store is not None:
        store.close()


if __name__ == "__main__":  # pragma: no cover (the hub starts it: tests/test_jupyterhub.py)
    main()
    sys.exit(0)
