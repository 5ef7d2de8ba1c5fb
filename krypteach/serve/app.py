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
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import inspect
import os
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlparse

import tornado.ioloop
import tornado.web
from jupyter_core.utils import run_sync
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from voila.app import Voila  # type: ignore[import-untyped]

from ..classroom.session import sign_learner
from ..classroom.store import NicknameError, ProgressStore, StoreError
from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, _, ngettext, set_task_language
from .gate import ClassGate, Verdict, client_id
from .pages import join_page, message_page
from .teacher import teacher_login_page, teacher_page

__all__ = ["SHARE", "ClassroomKernelManager", "ClassroomVoila", "ServeSettings"]

#: the folder with krypteach's Voilà template (put on JUPYTER_PATH)
SHARE = Path(__file__).resolve().parent / "share" / "jupyter"
COOKIE = "krypteach_client"
LEARNER_COOKIE = "krypteach_learner"
TEACHER_COOKIE = "krypteach_teacher"
#: the language of the learner's last lesson page: where ``/`` leads them, and the language
#: of the door and the teacher's pages (not HttpOnly: it is no secret, and pages may read it)
LANG_COOKIE = "krypteach_lang"
#: handlers whose first URL argument is a kernel id
_KERNEL_HANDLERS = ("KernelHandler", "VoilaKernelWebsocketHandler", "VoilaShutdownKernelHandler",
                    "RequestInfoSocketHandler")
_PAGE_HANDLERS = ("TornadoVoilaHandler",)


@dataclass
class ServeSettings:
    """What ``krypteach serve`` decided; read by the application and its handlers."""

    gate: ClassGate
    start_page: str | None
    #: seconds without a connected browser before a handed-out kernel is shut down
    grace: float = 60.0

    @property
    def cull_interval(self) -> float:
        return min(10.0, max(1.0, self.grace / 3))
    on_listening: Callable[[int], None] | None = None
    #: called once, when every warm kernel is ready: (kernels, seconds since the start)
    on_ready: Callable[[int, float], None] | None = None
    #: pages warmed for the whole class (page -> kernels); while the class is in, a taken
    #: kernel is replaced only down to ``spare`` waiting ones, so that starting kernels does
    #: not slow the learners' clicks; the full warm-up comes back when every page has closed
    warm: dict[str, int] = field(default_factory=dict)
    spare: int = 3
    #: kernels shut down by the culler, by reason (for the log and the tests)
    culled: dict[str, int] = field(default_factory=dict)
    #: the learners' progress (None: not kept)
    store: ProgressStore | None = None
    #: signs the learner cookie; the kernels check it (KRYPTEACH_LEARNER_KEY)
    learner_key: bytes = b""
    #: opens the teacher's page (never the class code); None: no teacher's page
    teacher_code: str | None = None
    #: lesson -> title, for the teacher's page
    titles: dict[str, str] = field(default_factory=dict)
    #: the lesson pages shown (file names), None: every notebook of the folder
    shown: list[str] | None = None
    #: the class's language, and the languages served (each in its folder under Voilà's root)
    language: str = DEFAULT_LANGUAGE
    languages: tuple[str, ...] = LANGUAGES

    def start_url(self, lang: str | None = None) -> str:
        """The start page in ``lang`` (else the class's language), or the file list."""
        if not self.start_page:
            return "/voila/tree"
        return f"/voila/render/{quote(lang or self.language)}/{quote(self.start_page)}"

    def request_language(self, handler: tornado.web.RequestHandler) -> str:
        """The language a request is answered in: the browser's choice (its last lesson
        page's language, kept in a cookie), else the class's."""
        chosen = handler.get_cookie(LANG_COOKIE) or ""
        return chosen if chosen in self.languages else self.language

    @property
    def class_label(self) -> str:
        """The class in the progress store: its code, or OPEN for ``--open``."""
        return self.gate.code or "OPEN"


def _teacher_fingerprint(code: str) -> str:
    return hashlib.sha256(("krypteach-teacher:" + code).encode()).hexdigest()[:16]


def _fingerprint(gate: ClassGate) -> str:
    if gate.code is None:
        return "open"
    return hashlib.sha256(("krypteach-class:" + gate.code).encode()).hexdigest()[:12]


class _Door:
    """Mixed in front of every Voilà handler: the class door."""

    request: Any
    settings: dict[str, Any]
    path_args: list[str]
    path_kwargs: dict[str, str]
    kt_client: str | None = None
    kt_counted = False

    def _kt(self) -> ServeSettings:
        return self.settings["krypteach"]  # type: ignore[no-any-return]

    def _kt_client(self) -> str | None:
        return _known_client(self, self._kt())  # type: ignore[arg-type]

    def _kt_remember(self) -> str:
        client = client_id()
        self.set_signed_cookie(COOKIE, f"{client}:{_fingerprint(self._kt().gate)}",  # type: ignore[attr-defined]
                               expires_days=30, httponly=True, samesite="Lax", path="/")
        return client

    def _kt_refuse(self, verdict: Verdict, retry: str | None = None) -> None:
        self.set_status(verdict.status)  # type: ignore[attr-defined]
        self.set_header("Content-Type", "text/html; charset=utf-8")  # type: ignore[attr-defined]
        self.set_header("Cache-Control", "no-store")  # type: ignore[attr-defined]
        if verdict.page == "full":
            self.set_header("Retry-After", "15")  # type: ignore[attr-defined]
        self.finish(message_page(verdict.page, verdict.reason, retry))  # type: ignore[attr-defined]

    async def prepare(self, *args: Any, **kwargs: Any) -> None:
        kt = self._kt()
        gate = kt.gate
        set_task_language(kt.request_language(self))  # type: ignore[arg-type]
        verdict = gate.check_host(self.request.host)
        if not verdict.ok:
            self._kt_refuse(verdict)
            return
        client = self._kt_client()
        if client is None:
            code = self.get_argument("class", None)  # type: ignore[attr-defined]
            if gate.open:
                client = self._kt_remember()
            elif code is not None:
                verdict = gate.try_code(code, self.request.remote_ip)
                if not verdict.ok:
                    self._kt_refuse(verdict, "/krypteach/join")
                    return
                client = self._kt_remember()
            elif self.request.method == "GET" and type(self).__name__.startswith(_PAGE_HANDLERS + ("Tornado",)):
                self.redirect("/krypteach/join?" + urlencode({"next": self.request.uri}))  # type: ignore[attr-defined]
                return
            else:
                self._kt_refuse(Verdict(False, 403, _("enter the class code first"), "code"), "/krypteach/join")
                return
        self.kt_client = client
        name = type(self).__name__
        kernel_id = self.path_kwargs.get("kernel_id") or (self.path_args[0] if self.path_args else None)
        if name.startswith(_KERNEL_HANDLERS) and kernel_id:
            owner = gate.owner(kernel_id)
            if name.startswith("VoilaShutdownKernelHandler"):
                if owner not in (None, client):
                    self._kt_refuse(Verdict(False, 403, _("not your page"), "code"))
                    return
            elif not gate.claim(kernel_id, client):
                self._kt_refuse(Verdict(False, 403, _("this page belongs to another browser"), "code"))
                return
        if name.startswith(_PAGE_HANDLERS) and kt.shown is not None:
            page = (self.path_kwargs.get("path") or (self.path_args[0] if self.path_args else "")).rsplit("/", 1)[-1]
            if page not in kt.shown:
                self._kt_refuse(Verdict(False, 404, _("this lesson is not shown in this class"), "missing"),
                                kt.start_url(kt.request_language(self)) if kt.start_page else "/")  # type: ignore[arg-type]
                return
        if name.startswith(_PAGE_HANDLERS):
            path = self.path_kwargs.get("path") or (self.path_args[0] if self.path_args else "")
            lang = path.split("/", 1)[0]
            if lang in kt.languages:  # the learner's language is the one of the page they opened last
                set_task_language(lang)
                if self.get_cookie(LANG_COOKIE) != lang:  # type: ignore[attr-defined]
                    self.set_cookie(LANG_COOKIE, lang, expires_days=365, samesite="Lax", path="/")  # type: ignore[attr-defined]
        if name.startswith(_PAGE_HANDLERS):
            verdict = gate.may_open_page(client, self.settings["krypteach_pages"]())
            if not verdict.ok:
                self._kt_refuse(verdict, self.request.uri)
                return
            gate.opening(client)
            self.kt_counted = True
        result = super().prepare(*args, **kwargs)  # type: ignore[misc]
        if inspect.isawaitable(result):
            await result
        if self.kt_counted:
            # the page's beforeunload shutdown needs this cookie (voila-dashboards/voila#1458)
            self.xsrf_token  # type: ignore[attr-defined]  # noqa: B018

    def on_finish(self) -> None:
        if self.kt_counted and self.kt_client:
            self._kt().gate.opened(self.kt_client)
            self.kt_counted = False
        parent = getattr(super(), "on_finish", None)
        if parent is not None:
            parent()


def _behind_door(handler: type) -> type:
    return type(handler.__name__ + "Door", (_Door, handler), {})


class _RootHandler(tornado.web.RequestHandler):
    """``/``: the start page (not Voilà's file list)."""

    def get(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        set_task_language(kt.request_language(self))
        verdict = kt.gate.check_host(self.request.host)
        if not verdict.ok:
            self.set_status(verdict.status)
            self.finish(message_page(verdict.page, verdict.reason))
            return
        target = kt.start_url(kt.request_language(self))
        query = self.request.query
        self.redirect(target + (f"?{query}" if query else ""))


class _JoinHandler(tornado.web.RequestHandler):
    """``/krypteach/join``: the class code, typed once."""

    def _next(self) -> str:
        kt: ServeSettings = self.settings["krypteach"]
        default = kt.start_url(kt.request_language(self)) if kt.start_page else "/"
        nxt = self.get_argument("next", default)
        parsed = urlparse(nxt)
        # only a path on this server (never //elsewhere or http://elsewhere)
        if parsed.scheme or parsed.netloc or not nxt.startswith("/") or nxt.startswith("//"):
            return default
        return nxt

    def prepare(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        set_task_language(kt.request_language(self))

    def _host_ok(self) -> bool:
        kt: ServeSettings = self.settings["krypteach"]
        verdict = kt.gate.check_host(self.request.host)
        if not verdict.ok:
            self.set_status(verdict.status)
            self.finish(message_page(verdict.page, verdict.reason))
        return verdict.ok

    def get(self) -> None:
        if not self._host_ok():
            return
        kt: ServeSettings = self.settings["krypteach"]
        known = _known_client(self, kt) is not None or kt.gate.open
        if known and kt.store is None:
            self.redirect(self._next())
            return
        self.set_header("Cache-Control", "no-store")
        self.finish(join_page(self._next(), ask_code=not known))

    def post(self) -> None:
        if not self._host_ok():
            return
        kt: ServeSettings = self.settings["krypteach"]
        known = _known_client(self, kt)
        if known is None:
            verdict = kt.gate.try_code(self.get_argument("code", ""), self.request.remote_ip or "?")
            if not verdict.ok:
                self.set_status(verdict.status)
                self.set_header("Cache-Control", "no-store")
                self.finish(join_page(self._next(), verdict.reason, nickname=self.get_argument("nickname", "")[:60]))
                return
        nickname = self.get_argument("nickname", None)
        if nickname is not None and kt.store is not None:
            try:
                learner = kt.store.join(kt.class_label, nickname)
            except (NicknameError, StoreError) as e:
                self.set_status(400)
                self.set_header("Cache-Control", "no-store")
                self.finish(join_page(self._next(), ask_code=known is None and not kt.gate.open,
                                      nickname=nickname[:60], nickname_error=str(e)))
                return
            name = kt.store.nickname(learner) or nickname
            # read by the page's learner bar (so not HttpOnly); signed, so a page cannot name somebody else
            self.set_cookie(LEARNER_COOKIE, quote(sign_learner(kt.learner_key, kt.class_label, name, learner)),
                            expires_days=30, samesite="Lax", path="/")
        if known is None:
            self.set_signed_cookie(COOKIE, f"{client_id()}:{_fingerprint(kt.gate)}", expires_days=30,
                                   httponly=True, samesite="Lax", path="/")
        self.redirect(self._next())

    def check_xsrf_cookie(self) -> None:
        """The code form needs no XSRF token: a forged post could only log a browser into
        the class it already sits in."""


def _known_client(handler: tornado.web.RequestHandler, kt: ServeSettings) -> str | None:
    """The browser's client id if it already came through the door with this class's code."""
    raw = handler.get_signed_cookie(COOKIE, max_age_days=30)
    if not raw:
        return None
    client, _, fp = raw.decode(errors="replace").partition(":")
    return client if client and hmac.compare_digest(fp, _fingerprint(kt.gate)) else None


class _TeacherBase(tornado.web.RequestHandler):
    """The teacher's page: its own code and cookie; the learners' class code never opens it."""

    def _kt(self) -> ServeSettings:
        return self.settings["krypteach"]  # type: ignore[no-any-return]

    def prepare(self) -> None:
        kt = self._kt()
        set_task_language(kt.request_language(self))
        verdict = kt.gate.check_host(self.request.host)
        if not verdict.ok:
            self.set_status(verdict.status)
            self.finish(message_page(verdict.page, verdict.reason))
            return
        self.set_header("Cache-Control", "no-store")
        if kt.teacher_code is None or kt.store is None:
            self.set_status(404)
            self.finish(message_page("teacher", _("this server has no teacher's page (no progress is kept)")))

    def _is_teacher(self) -> bool:
        kt = self._kt()
        raw = self.get_signed_cookie(TEACHER_COOKIE, max_age_days=1)
        if not raw or kt.teacher_code is None:
            return False
        return hmac.compare_digest(raw.decode(errors="replace"), _teacher_fingerprint(kt.teacher_code))

    def _titles(self) -> dict[str, str]:
        return self._kt().titles

    def _teachers_store(self) -> ProgressStore | None:
        """The class's store for a signed-in teacher; anybody else is sent to the teacher code."""
        store = self._kt().store
        if not self._is_teacher() or store is None:
            self.redirect("/krypteach/teacher")
            return None
        return store


class _TeacherHandler(_TeacherBase):
    def get(self) -> None:
        if not self._is_teacher():
            self.finish(teacher_login_page(self.xsrf_form_html()))
            return
        kt = self._kt()
        assert kt.store is not None
        flash = self.get_argument("done", "")[:400]
        self.finish(teacher_page(kt.store.overview(kt.class_label), kt.class_label, self.xsrf_form_html(),
                                 self._titles(), notice=kt.store.notice, flash=flash))

    def post(self) -> None:
        kt = self._kt()
        address = self.request.remote_ip or "?"
        given = self.get_argument("teacher_code", "")
        verdict = kt.gate.try_teacher_code(given, kt.teacher_code or "", address)
        if not verdict.ok:
            self.set_status(verdict.status)
            self.finish(teacher_login_page(self.xsrf_form_html(), verdict.reason))
            return
        self.set_signed_cookie(TEACHER_COOKIE, _teacher_fingerprint(kt.teacher_code or ""), expires_days=1,
                               httponly=True, samesite="Strict", path="/krypteach/teacher")
        self.redirect("/krypteach/teacher")


class _TeacherExportHandler(_TeacherBase):
    def get(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        label = self._kt().class_label
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="krypteach-{label}.csv"')
        self.finish(store.export_csv(label))


class _TeacherImportHandler(_TeacherBase):
    """Learners' progress files from the static site (``krypteach build-site``), into this class."""

    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        files = self.request.files.get("progress", [])
        said = []
        for f in files[:200]:
            try:
                name, added = store.import_progress(f["body"], self._kt().class_label)
            except ValueError as e:
                said.append(f"{f['filename']}: {e}")
            else:
                said.append(ngettext("{name}: {n} attempt", "{name}: {n} attempts", added).format(name=name, n=added))
        text = "; ".join(said) if said else _("no file chosen")
        self.redirect("/krypteach/teacher?" + urlencode({"done": _("Imported: {files}").format(files=text)[:400]}))


class _TeacherResetHandler(_TeacherBase):
    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        try:
            learner = int(self.get_argument("learner", ""))
        except ValueError:
            raise tornado.web.HTTPError(400, "which learner?") from None
        if learner not in {i for i, _ in store.learners(self._kt().class_label)}:
            raise tornado.web.HTTPError(404, "no such learner in this class")
        name = store.nickname(learner) or "?"
        n = store.reset_learner(learner)
        done = ngettext("{name}: {n} attempt removed", "{name}: {n} attempts removed", n).format(name=name, n=n)
        self.redirect("/krypteach/teacher?" + urlencode({"done": done}))


class _AliveHandler(tornado.web.RequestHandler):
    """``/krypteach/alive/KERNEL``: does this page's kernel still run? The page asks every
    few seconds and says so in words when it does not (a crash, a restart of the server,
    a kernel shut down while the laptop slept)."""

    async def get(self, kernel_id: str) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        if not kt.gate.check_host(self.request.host).ok:
            raise tornado.web.HTTPError(403)
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


class _StatusHandler(tornado.web.RequestHandler):
    """``/krypteach/status``: how warm the server is (for the teacher's terminal and the
    load benchmark). Counts only, nothing about learners."""

    def get(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        if not kt.gate.check_host(self.request.host).ok:
            raise tornado.web.HTTPError(403)
        km = self.settings["kernel_manager"]
        ready = {}
        for name, pool in getattr(km, "_pools", {}).items():
            ready[name] = sum(1 for f in pool if f.done() and not f.cancelled() and f.exception() is None)
        self.finish({"kernels": len(km.list_kernel_ids()), "pages": len(self.settings["krypteach_pages"]()),
                     "pool_ready": ready, "culled": kt.culled})


class _RulesSheetHandler(tornado.web.RequestHandler):
    """``/krypteach/rules``: the one-page rules sheet to print (no class code: it is the
    rules of a card game, nothing about the class)."""

    def get(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        if not kt.gate.check_host(self.request.host).ok:
            raise tornado.web.HTTPError(403)
        from ..views.rules_sheet import rules_sheet_html

        set_task_language(kt.request_language(self))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(rules_sheet_html())


class ClassroomKernelManager(AsyncMappingKernelManager):  # type: ignore[misc]
    """Remembers which kernels were started for the pool (Voilà starts them with
    ``VOILA_PREHEAT=True`` in their environment) and which were handed to a page."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kt_pool: set[str] = set()
        self.kt_handed: set[str] = set()

    async def start_kernel(self, *, kernel_id: str | None = None, **kwargs: Any) -> str:  # type: ignore[override]
        kernel_id = kernel_id or str(uuid.uuid4())
        if (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True":
            self.kt_pool.add(kernel_id)
        return await super().start_kernel(kernel_id=kernel_id, **kwargs)  # type: ignore[no-any-return]

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        try:
            await super().shutdown_kernel(kernel_id, *args, **kwargs)
        finally:
            self.kt_pool.discard(kernel_id)
            self.kt_handed.discard(kernel_id)


class ClassroomVoila(Voila):  # type: ignore[misc]
    """Voilà with the class door, the pool-aware culler and a clean start and stop."""

    krypteach: ServeSettings

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        settings["krypteach"] = self.krypteach
        settings["krypteach_pages"] = self.pages
        km = self.kernel_manager
        take_from_pool = km.get_rendered_notebook

        async def handing_out(*args: Any, **kwargs: Any) -> Any:
            name = kwargs.get("notebook_name", args[0] if args else None)
            pools = km.kernel_pools_config
            if name in self.krypteach.warm and name in pools:
                pools[name] = {**pools[name], "pool_size": min(self.krypteach.spare, self.krypteach.warm[name])}
            render_task, rendered_cache, kernel_id = await take_from_pool(*args, **kwargs)
            km.kt_handed.add(kernel_id)
            return render_task, rendered_cache, kernel_id

        km.get_rendered_notebook = handing_out  # the one moment a kernel leaves the pool
        return settings

    def pages(self) -> set[str]:
        """The kernels handed to pages: every running kernel but those started for the pool
        and not yet handed out."""
        km = self.kernel_manager
        return set(km.list_kernel_ids()) - (km.kt_pool - km.kt_handed)

    def init_handlers(self) -> list[Any]:
        handlers = []
        for spec in super().init_handlers():
            pattern, handler, *rest = spec
            handlers.append((pattern, _behind_door(handler), *rest))
        own = [
            (r"/", _RootHandler),
            (r"/krypteach/join", _JoinHandler),
            (r"/krypteach/status", _StatusHandler),
            (r"/krypteach/alive/([0-9a-f-]{36})", _AliveHandler),
            (r"/krypteach/rules", _RulesSheetHandler),
            (r"/krypteach/teacher", _TeacherHandler),
            (r"/krypteach/teacher/export\.csv", _TeacherExportHandler),
            (r"/krypteach/teacher/reset", _TeacherResetHandler),
            (r"/krypteach/teacher/import", _TeacherImportHandler),
        ]
        return own + handlers

    # --- the culler --------------------------------------------------------------------
    async def _cull(self) -> None:
        km = self.kernel_manager
        kt = self.krypteach
        now = time.monotonic()
        live = set(km.list_kernel_ids())
        pages = self.pages()
        if not pages:
            self._warm_again()
        alone = self._alone
        for kid in list(alone):
            if kid not in live:
                del alone[kid]
                kt.gate.forget(kid)
        for kid in pages:
            try:
                dead = not await km.get_kernel(kid).is_alive()
            except KeyError:
                continue
            if km._kernel_connections.get(kid, 0) > 0 and not dead:
                alone.pop(kid, None)
                continue
            since = alone.setdefault(kid, now)
            if now - since >= kt.grace or (dead and now - since >= kt.cull_interval * 2):
                self.log.info("krypteach: shutting down kernel %s (no page connected for %.0f s)", kid, now - since)
                alone.pop(kid, None)
                kt.culled["no page"] = kt.culled.get("no page", 0) + 1
                try:
                    await km.shutdown_kernel(kid)
                except Exception as e:  # already gone
                    self.log.debug("krypteach: kernel %s: %s", kid, e)
                kt.gate.forget(kid)

    def _warm_again(self) -> None:
        """The class has left: warm the class's pages fully again for the next one."""
        km = self.kernel_manager
        pools = km.kernel_pools_config
        for name, size in self.krypteach.warm.items():
            if name in pools and pools[name].get("pool_size") != size:
                pools[name] = {**pools[name], "pool_size": size}
                km.fill_if_needed(delay=0, notebook_name=name)

    # --- start and stop ----------------------------------------------------------------
    def start(self) -> None:
        self._alone: dict[str, float] = {}
        super().start()

    def listen(self) -> None:
        try:
            self.app.listen(self.port, self.ip)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise SystemExit(f"krypteach serve: port {self.port} is already in use (is krypteach serve already "
                                 f"running?): stop the other server or choose another port with --port") from None
            raise SystemExit(f"krypteach serve: cannot listen on {self.ip}:{self.port}: {e.strerror}") from None
        self.ioloop = tornado.ioloop.IOLoop.current()
        culler = tornado.ioloop.PeriodicCallback(self._cull, self.krypteach.cull_interval * 1000)
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


def cookie_secret_file(folder: Path) -> bytes:
    """A cookie secret kept between runs, so that learners stay in after a restart."""
    path = folder / "cookie_secret"
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except OSError:
        pass
    data = secrets.token_bytes(32)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.chmod(path, 0o600)
    except OSError:
        pass  # a read-only home: learners enter the code again after a restart
    return data
