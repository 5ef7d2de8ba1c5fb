"""The small endpoints of ``krypteach serve`` that need no class code: ``/`` (to the start
page), ``/krypteach/alive/KERNEL`` and ``/krypteach/status`` (JSON), ``/krypteach/rules``
(the rules sheet). Each asks :func:`~krypteach.serve.door.host_ok` first."""

from __future__ import annotations

import tornado.web

from ..i18n import set_task_language
from .door import forbidden, host_ok
from .settings import ServeSettings

__all__ = ["AliveHandler", "RootHandler", "RulesSheetHandler", "StatusHandler"]


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
        host_ok(self, forbidden)
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
    load benchmark). Counts only, nothing about learners."""

    def get(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        host_ok(self, forbidden)
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
        host_ok(self, forbidden)
        from ..engine.rules import Rules
        from ..views.rules_sheet import rules_sheet_html

        set_task_language(kt.request_language(self))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(rules_sheet_html(Rules.preset(kt.game_rules) if kt.game_rules else None))
