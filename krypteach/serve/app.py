"""Voilà for a classroom: the lessons served in this process, behind the class door.

``ClassroomVoila`` is Voilà's own application (``voila.app.Voila``) with these changes:

- every handler asks the :class:`~krypteach.serve.gate.ClassGate` first (Host header,
  class code, kernels per browser and for the whole server); a browser that connects
  to a kernel owns it, and no other browser may use or stop it;
- kernels are culled by one rule that knows about the pool: a kernel waiting in the
  pool is never culled, and a kernel handed to a page is shut down when no browser has
  been connected to it for ``grace`` seconds, busy or not (a page closed during a long
  job stops it);
- the page sets the ``_xsrf`` cookie, so the shutdown Voilà sends when a page closes
  is accepted (voila-dashboards/voila#1458) and the kernel stops at once;
- the "krypteach" template: nothing loaded from another server, and a page whose
  kernel stopped says so;
- a taken port is an error (never a silent move to another port); SIGTERM and Ctrl+C
  stop the server and every kernel.

This module wires the parts together; they live in ``settings`` (what ``krypteach serve``
decided, the cookies), ``door`` (the Host check, the class door, ``/krypteach/join``),
``endpoints`` (``/``, alive, status, the rules sheet), ``teacher_handlers`` (the teacher's
requests; the pages are ``teacher``) and ``kernels`` (the kernel manager and the culler).
"""

from __future__ import annotations

import errno
import logging
import time
from pathlib import Path
from typing import Any

import tornado.ioloop
from jupyter_core.utils import run_sync
from voila.app import Voila  # type: ignore[import-untyped]

from ..i18n import _
from .board import board_handlers, class_board
from .door import JoinHandler, behind_door
from .endpoints import AliveHandler, FaviconHandler, LearnerTokenHandler, RootHandler, RulesSheetHandler, StatusHandler
from .flood import rate_from_env, rate_limited
from .gzip_static import gzip_static, is_static
from .kernels import Culler, count_handed_out
from .seating import seating_handlers
from .settings import ServeSettings
from .tables import class_room, table_handlers
from .teacher_handlers import (
    TeacherExportHandler,
    TeacherHandler,
    TeacherHomeworkExportHandler,
    TeacherHomeworkHandler,
    TeacherHomeworkRemoveHandler,
    TeacherImportHandler,
    TeacherLearnerHandler,
    TeacherMergeHandler,
    TeacherRemoveHandler,
    TeacherRenameHandler,
    TeacherResetClassHandler,
    TeacherResetHandler,
    TeacherResetLessonHandler,
    TeacherResetPinHandler,
)
from .tournament import class_desk, tournament_handlers

__all__ = ["SHARE", "ClassroomVoila", "ServeSettings"]

#: the folder with krypteach's Voilà template (put on JUPYTER_PATH)
SHARE = Path(__file__).resolve().parent / "share" / "jupyter"
#: the name tests/test_rules_sheet.py imports
_RulesSheetHandler = RulesSheetHandler


class _NotTrustedIsNoNews(logging.Filter):
    """Drops jupyter_server's "Notebook … is not trusted" (a lesson with no outputs has nothing to trust)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != "Notebook %s is not trusted"


class ClassroomVoila(Voila):  # type: ignore[misc]
    """Voilà with the class door, the pool-aware culler and a clean start and stop."""

    krypteach: ServeSettings

    def init_settings(self) -> dict[str, Any]:
        # the lessons carry no outputs (none are kept in git), so Jupyter's notebook trust means
        # nothing for them: not a warning per lesson at every start (issue 21)
        self.log.addFilter(_NotTrustedIsNoNews())
        settings: dict[str, Any] = super().init_settings()
        settings["krypteach"] = self.krypteach
        settings["krypteach_pages"] = self.kernel_manager.kt_pages
        count_handed_out(self.kernel_manager, self.krypteach)
        return settings

    def init_handlers(self) -> list[Any]:
        handlers = []
        for spec in super().init_handlers():
            pattern, handler, *rest = spec
            rate = rate_from_env()
            if handler.__name__ == "VoilaKernelWebsocketHandler" and rate:  # a page's messages to its kernel: capped
                handler = rate_limited(handler, per_second=rate, burst=max(1, round(2 * rate)))
            if is_static(handler):  # Voilà's scripts and styles: each compressed once, sent compressed
                handler = gzip_static(handler)
            handlers.append((pattern, behind_door(handler), *rest))
        room = class_room(self.krypteach)
        own = [
            (r"/", RootHandler),
            (r"/krypteach/join", JoinHandler),
            (r"/krypteach/status", StatusHandler),
            (r"/krypteach/learner-token", LearnerTokenHandler),
            (r"/krypteach/alive/([0-9a-f-]{36})", AliveHandler),
            (r"/krypteach/rules", RulesSheetHandler),
            (r"/favicon\.ico", FaviconHandler),
            (r"/krypteach/teacher", TeacherHandler),
            (r"/krypteach/teacher/export\.csv", TeacherExportHandler),
            (r"/krypteach/teacher/learner", TeacherLearnerHandler),
            (r"/krypteach/teacher/reset", TeacherResetHandler),
            (r"/krypteach/teacher/reset-pin", TeacherResetPinHandler),
            (r"/krypteach/teacher/reset-lesson", TeacherResetLessonHandler),
            (r"/krypteach/teacher/reset-class", TeacherResetClassHandler),
            (r"/krypteach/teacher/remove", TeacherRemoveHandler),
            (r"/krypteach/teacher/rename", TeacherRenameHandler),
            (r"/krypteach/teacher/merge", TeacherMergeHandler),
            (r"/krypteach/teacher/import", TeacherImportHandler),
            (r"/krypteach/teacher/homework", TeacherHomeworkHandler),
            (r"/krypteach/teacher/homework/remove", TeacherHomeworkRemoveHandler),
            (r"/krypteach/teacher/homework\.csv", TeacherHomeworkExportHandler),
            *table_handlers(room),  # the live class's tables (issue 24)
            *seating_handlers(room),  # the teacher seats the class at those tables
            *tournament_handlers(class_desk(self.krypteach, room)),  # the class tournament at those tables
            *board_handlers(class_board(self.krypteach.game_rules)),  # the teacher's board (issue 24)
        ]
        return own + handlers

    # --- start and stop ----------------------------------------------------------------
    def listen(self) -> None:
        try:
            self.app.listen(self.port, self.ip)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise SystemExit(_("krypteach serve: port {port} is already in use (is krypteach serve already "
                                   "running?): stop the other server or choose another port with --port").format(
                                       port=self.port)) from None
            raise SystemExit(_("krypteach serve: cannot listen on {address}: {reason}").format(
                address=f"{self.ip}:{self.port}", reason=e.strerror)) from None
        self.ioloop = tornado.ioloop.IOLoop.current()
        # the kernel manager is there by now (Voilà's start makes it, then listens)
        self.kt_culler = Culler(self.kernel_manager, self.krypteach, self.log)
        culler = tornado.ioloop.PeriodicCallback(self.kt_culler.cull, self.krypteach.cull_interval * 1000)
        culler.start()
        started = time.monotonic()

        def ready_yet() -> None:
            pools = getattr(self.kernel_manager, "_pools", {})
            if pools and all(f.done() for pool in pools.values() for f in pool):
                warm = sum(len(pool) for pool in pools.values())
                watcher.stop()
                if self.krypteach.on_ready is not None:
                    self.krypteach.on_ready(warm, time.monotonic() - started)

        watcher = tornado.ioloop.PeriodicCallback(ready_yet, 1000)
        watcher.start()
        if self.krypteach.on_listening is not None:
            self.krypteach.on_listening(self.port)
        try:
            self.ioloop.start()
        except KeyboardInterrupt:
            self.log.info("Stopping...")
        finally:
            culler.stop()
            self.stop()

    def stop(self) -> None:
        """Stop every kernel, also when the stop comes while kernels are still starting (the
        warm-up): Voilà's own stop then fails on a kernel that was listed but not yet there."""
        try:
            super().stop()
        except Exception as e:
            self.log.info("krypteach: a kernel was still starting (%s); stopping the rest", e)
            km = self.kernel_manager

            async def the_rest() -> None:
                for kid in list(km.list_kernel_ids()):
                    try:
                        await km.shutdown_kernel(kid, now=True)
                    except Exception as again:  # gone meanwhile
                        self.log.debug("krypteach: kernel %s: %s", kid, again)

            run_sync(the_rest)()
