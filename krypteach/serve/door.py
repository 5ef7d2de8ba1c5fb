"""The class door, in front of every handler of ``krypteach serve``.

- :func:`host_ok`: the Host header check (against DNS rebinding), the one copy that every
  handler asks first;
- :func:`behind_door`: a Voilà handler behind the door (class code, kernels per browser and
  for the whole server, a kernel owned by the browser that connected to it first);
- :class:`JoinHandler`: ``/krypteach/join``, where the class code is typed once, and a
  nickname with the learner's own PIN;
- :func:`signed_in_learner`: the learner of a browser's HttpOnly sign-in cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
from collections.abc import Callable
from typing import Any, NoReturn
from urllib.parse import unquote, urlencode, urlparse

import tornado.web

from ..classroom.store import NicknameError, PinError, StoreError, normalize_nickname
from ..i18n import _, set_task_language
from .gate import ClassGate, Verdict, client_id
from .kernels import OPENED_FOR
from .offload import off_the_loop
from .pages import join_page, message_page
from .settings import COOKIE, LANG_COOKIE, LEARNER_COOKIE, ServeSettings

__all__ = ["NEXT_PREFIXES", "JoinHandler", "bad_url", "behind_door", "forbidden", "host_ok", "known_client",
           "safe_next", "same_origin", "signed_in_learner"]

#: handlers whose first URL argument is a kernel id
_KERNEL_HANDLERS = ("KernelHandler", "VoilaKernelWebsocketHandler", "VoilaShutdownKernelHandler",
                    "RequestInfoSocketHandler")
_PAGE_HANDLERS = ("TornadoVoilaHandler",)


def host_ok(handler: tornado.web.RequestHandler, refuse: Callable[[Verdict], None] | None = None) -> bool:
    """Does the request's Host header name this server (:meth:`ClassGate.check_host`)?

    When it does not, the request is refused: by ``refuse(verdict)`` if given (the door's
    page, or :func:`forbidden`), else with the page that says why. A URL with a control
    character is refused first, with 400 and one line (:func:`bad_url`).
    """
    kt: ServeSettings = handler.settings["krypteach"]
    if bad_url(handler.request.uri or ""):
        # a null byte or a line break in the path or query: refused in one line (they reached
        # Voilà's file handlers and ended in a 500)
        handler.set_status(400)
        handler.set_header("Content-Type", "text/plain; charset=utf-8")
        handler.finish(_("Bad address: a control character (a null byte or a line break) in the URL") + "\n")
        return False
    verdict = kt.gate.check_host(handler.request.host)
    if not verdict.ok:
        if refuse is not None:
            refuse(verdict)
        else:
            handler.set_status(verdict.status)
            handler.finish(message_page(verdict.page, verdict.reason))
    return verdict.ok


def bad_url(uri: str) -> bool:
    """Does the URL carry a control character (a null byte, CR, LF …), raw or %-encoded?

    >>> bad_url("/voila/render/en/00_start.ipynb?class=K7RPX"), bad_url("/x%00y"), bad_url("/x%0D%0Ay")
    (False, True, True)
    """
    text = unquote(uri.replace("+", " "))
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in text)


#: where ``next`` may lead after the door: the server's own pages (lessons, the file list)
NEXT_PREFIXES = ("/voila/render/", "/voila/tree")


def safe_next(nxt: str, default: str) -> str:
    """``nxt`` if it is a path to one of this server's lesson pages, else ``default``: never
    another host (``//host``, ``/\\host``, ``\\\\host``, ``http://…``), never a control
    character or a backslash, never a path outside :data:`NEXT_PREFIXES`.

    >>> safe_next("/voila/render/en/03_take_all.ipynb?x=1", "/")
    '/voila/render/en/03_take_all.ipynb?x=1'
    >>> [safe_next(bad, "/") for bad in ("//evil.example/x", "/\\\\evil.example", "http://evil.example/voila/render/")]
    ['/', '/', '/']
    """
    if "\\" in nxt or bad_url(nxt) or not nxt.startswith(NEXT_PREFIXES):
        return default
    parsed = urlparse(nxt)
    if parsed.scheme or parsed.netloc or ".." in unquote(parsed.path).split("/"):
        return default
    return nxt


def same_origin(handler: tornado.web.RequestHandler) -> bool:
    """Does a form post come from this server's own page? Its ``Origin`` (else its
    ``Referer``) must name the host the request was sent to; a post with neither (an old
    browser, a script) is judged by its ``_xsrf`` token alone."""
    origin = handler.request.headers.get("Origin") or handler.request.headers.get("Referer")
    if not origin:
        return True
    if origin == "null":
        return False
    return urlparse(origin).netloc.lower() == (handler.request.host or "").lower()


def forbidden(verdict: Verdict) -> NoReturn:
    """A refusal without a page of ours: tornado's own 403 (the JSON endpoints, the rules sheet)."""
    raise tornado.web.HTTPError(403)


def _fingerprint(gate: ClassGate) -> str:
    if gate.code is None:
        return "open"
    return hashlib.sha256(("krypteach-class:" + gate.code).encode()).hexdigest()[:12]


def known_client(handler: tornado.web.RequestHandler, kt: ServeSettings) -> str | None:
    """The browser's client id if it already came through the door with this class's code."""
    raw = handler.get_signed_cookie(COOKIE, max_age_days=30)
    if not raw:
        return None
    client, _, fp = raw.decode(errors="replace").partition(":")
    return client if client and hmac.compare_digest(fp, _fingerprint(kt.gate)) else None


def signed_in_learner(handler: tornado.web.RequestHandler, kt: ServeSettings) -> tuple[int, str, str] | None:
    """``(learner id, class code, nickname)`` of the browser's sign-in cookie, or None.

    The cookie (HttpOnly, signed by tornado) holds only the learner's number and a stamp of
    their PIN's hash: no name, no class code. It signs in only while that PIN is the
    learner's (a teacher's reset signs every browser out) and only in this class."""
    if kt.store is None:
        return None
    raw = handler.get_signed_cookie(LEARNER_COOKIE, max_age_days=30)
    if not raw:
        return None
    number_, _sep, stamp = raw.decode(errors="replace").partition(":")
    if not number_.isdigit() or len(number_) > 18 or not stamp:
        return None
    try:
        found = kt.store.learner(int(number_))
    except Exception:  # a database gone away: nobody is signed in, the page still opens
        return None
    if found is None:
        return None
    code, nickname, want = found
    if want is None or code != kt.class_label or not hmac.compare_digest(stamp, want):
        return None
    return int(number_), code, nickname


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
        return known_client(self, self._kt())  # type: ignore[arg-type]

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
        if not host_ok(self, self._kt_refuse):  # type: ignore[arg-type]
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
            address = self.request.remote_ip or "?"
            signed_in = signed_in_learner(self, kt)  # type: ignore[arg-type]
            learner = None if signed_in is None else str(signed_in[0])
            verdict = gate.may_open_page(client, self.settings["krypteach_pages"](), address, learner)
            if not verdict.ok:
                self._kt_refuse(verdict, self.request.uri)
                return
            gate.opening(client, address, learner)
            self.kt_counted = True
            OPENED_FOR.set(client)  # the kernel handed to this page is this browser's (kernels.count_handed_out)
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


def behind_door(handler: type) -> type:
    """``handler`` (one of Voilà's) with the class door in front of it."""
    return type(handler.__name__ + "Door", (_Door, handler), {})


class JoinHandler(tornado.web.RequestHandler):
    """``/krypteach/join``: the class code, typed once."""

    def _next(self) -> str:
        kt: ServeSettings = self.settings["krypteach"]
        default = kt.start_url(kt.request_language(self)) if kt.start_page else "/"
        return safe_next(self.get_argument("next", default), default)

    def prepare(self) -> None:
        kt: ServeSettings = self.settings["krypteach"]
        set_task_language(kt.request_language(self))

    def get(self) -> None:
        if not host_ok(self):
            return
        kt: ServeSettings = self.settings["krypteach"]
        known = known_client(self, kt) is not None or kt.gate.open
        if known and kt.store is None:
            self.redirect(self._next())
            return
        self.set_header("Cache-Control", "no-store")
        self.finish(join_page(self._next(), ask_code=not known, ask_pin=kt.store is not None,
                              xsrf=self.xsrf_form_html()))

    async def post(self) -> None:
        if not host_ok(self):
            return
        self.check_xsrf_cookie()
        kt: ServeSettings = self.settings["krypteach"]
        known = known_client(self, kt)
        nickname = self.get_argument("nickname", None)
        if known is None:
            verdict = kt.gate.try_code(self.get_argument("code", ""), self.request.remote_ip or "?")
            if not verdict.ok:
                self._again(verdict.status, error=verdict.reason, ask_code=True, nickname=nickname or "")
                return
            # the code was right: this browser is remembered, even if the nickname or PIN is typed again
            self.set_signed_cookie(COOKIE, f"{client_id()}:{_fingerprint(kt.gate)}", expires_days=30,
                                   httponly=True, samesite="Lax", path="/")
        if nickname is not None and kt.store is not None:
            store = kt.store
            try:
                name = normalize_nickname(nickname)
            except NicknameError as e:
                self._again(400, ask_code=False, nickname=nickname, nickname_error=str(e))
                return
            who = f"{kt.class_label}/{name}"
            verdict = kt.gate.pin_wait(who)
            if not verdict.ok:
                self._again(verdict.status, ask_code=False, nickname=nickname, pin_error=verdict.reason)
                return
            try:  # the PIN's hash takes some milliseconds: not on the event loop
                learner = await off_the_loop(store.sign_in, kt.class_label, name, self.get_argument("pin", ""))
                _code, name, stamp = store.learner(learner) or ("", name, "")
            except PinError as e:
                kt.gate.pin_wrong(who)
                self._again(403, ask_code=False, nickname=nickname, pin_error=str(e))
                return
            except (NicknameError, StoreError) as e:
                self._again(400, ask_code=False, nickname=nickname, nickname_error=str(e))
                return
            kt.gate.pin_right(who)
            # HttpOnly and nothing readable: the learner's number and a stamp of their PIN's hash
            self.set_signed_cookie(LEARNER_COOKIE, f"{learner}:{stamp}", expires_days=30, httponly=True,
                                   samesite="Lax", path="/")
        self.redirect(self._next())

    def _again(self, status: int, *, ask_code: bool, error: str = "", nickname: str = "", nickname_error: str = "",
               pin_error: str = "") -> None:
        """The join form again, with what was typed (never the PIN) and what was wrong."""
        kt: ServeSettings = self.settings["krypteach"]
        self.set_status(status)
        self.set_header("Cache-Control", "no-store")
        self.finish(join_page(self._next(), error, ask_code=ask_code and not kt.gate.open, nickname=nickname[:60],
                              nickname_error=nickname_error, pin_error=pin_error, ask_pin=kt.store is not None,
                              xsrf=self.xsrf_form_html()))

    def check_xsrf_cookie(self) -> None:
        """A post must come from the join page of this server: its ``_xsrf`` token (tornado's
        check; the server's settings do not turn it on for every handler) and its Origin.
        Without them a page on another site could sign a learner's browser in under a
        nickname of its choosing (login CSRF)."""
        if not same_origin(self):
            raise tornado.web.HTTPError(403, "a form from another site")
        super().check_xsrf_cookie()
