"""The small endpoints of ``krypteach serve``: ``/`` (to the start page) and
``/krypteach/rules`` (the rules sheet), which need no class code, and
``/krypteach/alive/KERNEL``, ``/krypteach/status`` and ``/krypteach/learner-token`` (JSON),
which are behind the door (:func:`behind_door_json`). Each asks :func:`~krypteach.serve.door.host_ok` first."""

from __future__ import annotations

import functools
import ipaddress
import re

import tornado.web

from ..classroom.session import sign_learner
from ..i18n import set_task_language
from .door import forbidden, host_ok, known_client, signed_in_learner
from .settings import ServeSettings

__all__ = ["AliveHandler", "FaviconHandler", "LearnerTokenHandler", "RootHandler", "RulesSheetHandler", "StatusHandler",
           "behind_door_json"]


def behind_door_json(handler: tornado.web.RequestHandler, *, this_machine: bool = False) -> bool:
    """The door of a JSON endpoint: the Host header, then a browser that came through the
    door (the class code's cookie), else 403. ``this_machine``: a request from this machine
    itself (the teacher's terminal, the tests and the load benchmark poll the status) needs
    no cookie. False: the request was answered already (a bad URL)."""
    if not host_ok(handler, forbidden):
        return False
    kt: ServeSettings = handler.settings["krypteach"]
    if kt.gate.open or known_client(handler, kt) is not None:
        return True
    if this_machine:
        try:
            if ipaddress.ip_address(handler.request.remote_ip or "").is_loopback:
                return True
        except ValueError:
            pass
    raise tornado.web.HTTPError(403, "enter the class code first")


class RootHandler(tornado.web.RequestHandler):
    """``/``: the start page (not Voilà's file list)."""

    def get(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        set_task_language(kt.request_language(self))
        if not host_ok(self):
            return
        target = kt.start_url(kt.request_language(self))
        query = self.request.query
        self.redirect(target + (f"?{query}" if query else ""))


class AliveHandler(tornado.web.RequestHandler):
    """``/krypteach/alive/KERNEL``: does this page's kernel still run? The page asks every
    few seconds and says so in words when it does not (a crash, a restart of the server,
    a kernel shut down while the laptop slept)."""

    async def get(self, kernel_id: str) -> None:
        if not behind_door_json(self):
            return
        self.set_header("Cache-Control", "no-store")
        km = self.settings["kernel_manager"]
        alive = False
        if kernel_id in km.list_kernel_ids():
            try:
                alive = bool(await km.get_kernel(kernel_id).is_alive())
            except Exception:  # a kernel being removed
                alive = False
        if not alive:
            self.set_status(410)
        self.finish({"alive": alive})


class StatusHandler(tornado.web.RequestHandler):
    """``/krypteach/status``: how warm the server is (for the teacher's terminal and the
    load benchmark, both on this machine; a browser of the class). Counts only, nothing
    about learners."""

    def get(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        if not behind_door_json(self, this_machine=True):
            return
        km = self.settings["kernel_manager"]
        ready = {}
        for name, pool in getattr(km, "_pools", {}).items():
            ready[name] = sum(1 for f in pool if f.done() and not f.cancelled() and f.exception() is None)
        self.finish({"kernels": len(km.list_kernel_ids()), "pages": len(self.settings["krypteach_pages"]()),
                     "pool_ready": ready, "culled": kt.culled})


class RulesSheetHandler(tornado.web.RequestHandler):
    """``/krypteach/rules``: the one-page rules sheet to print, of the class's game (its
    rule preset, else Krypkasino); no class code: it is the rules of a card game."""

    def get(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        if not host_ok(self, forbidden):
            return
        from ..engine.rules import Rules
        from ..views.rules_sheet import rules_sheet_html

        set_task_language(kt.request_language(self))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(rules_sheet_html(Rules.preset(kt.game_rules) if kt.game_rules else None))


@functools.cache
def _favicon() -> bytes:
    from ..views.icon import icon_png

    return icon_png(32)


class FaviconHandler(tornado.web.RequestHandler):
    """``/favicon.ico``: krypteach's icon (a PNG, which every browser takes there) for the tab of
    every page, the teacher's among them; no class code: it is a picture of a card."""

    def get(self) -> None:
        if not host_ok(self, forbidden):
            return
        self.set_header("Content-Type", "image/png")
        self.set_header("Cache-Control", "max-age=86400")
        self.finish(_favicon())


class LearnerTokenHandler(tornado.web.RequestHandler):
    """``/krypteach/learner-token?nonce=N``: a lesson page's learner bar asks who signed in on
    this browser, for its kernel (whose random ``nonce`` the token carries). The answer is
    ``{"token": …}`` signed with the server's key, ``""`` when nobody signed in; the sign-in
    cookie itself is HttpOnly, so no script reads it, and a token is good for that one kernel
    only. Another site's page cannot read the answer (no CORS)."""

    def get(self) -> None:
        if not behind_door_json(self):
            return
        kt: ServeSettings = self.settings["krypteach"]
        self.set_header("Cache-Control", "no-store")
        nonce = self.get_argument("nonce", "")
        if not re.fullmatch(r"[A-Za-z0-9_-]{16,64}", nonce):
            raise tornado.web.HTTPError(400, "which page?")
        who = signed_in_learner(self, kt)
        if who is None:
            self.finish({"token": ""})
            return
        learner, code, nickname = who
        self.finish({"token": sign_learner(kt.learner_key, code, nickname, learner, nonce)})
