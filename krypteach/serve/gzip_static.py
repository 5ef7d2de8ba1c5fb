"""Voilà's scripts and styles sent compressed, each file compressed once.

A lesson page of ``krypteach serve`` loads about 5 MB of JavaScript and CSS (Voilà's bundle, the
widgets' extensions, the template's styles), which Tornado sends as they are on disk: for a class of
30 arriving on one school Wi-Fi, 165 MB. Tornado's own ``compress_response`` would compress every
response again, in the server's one event loop that also carries every page's clicks (about 0.3 s
of CPU a page on a 2-core laptop). Here a static file is compressed once, the first time a browser
asks for it, and kept on disk (in the user's cache folder, named by the file's path, time and
size, so an updated file is compressed again); a browser that accepts gzip gets that copy with
``Content-Encoding: gzip``, any other request the file itself. Measured in docs/classroom.md.

:func:`gzip_static` makes the handler; ``krypteach serve`` puts it in front of every one of Voilà's
static file handlers (``/voila/static``, ``/voila/labextensions``, ``/voila/templates``, the themes).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import tornado.web

__all__ = ["COMPRESSIBLE", "accepts_gzip", "compressible", "gzip_copy", "gzip_routes", "gzip_static", "is_static"]

#: the files worth compressing: text (a font, an image or a wheel is compressed already)
COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".json", ".html", ".svg", ".map", ".txt", ".md"})
#: smaller files are sent as they are (a gzip header and a request's headers outweigh the gain)
MIN_SIZE = 1024


def compressible(path: str) -> bool:
    """Is ``path`` a kind of file worth compressing (:data:`COMPRESSIBLE`, in any case)?

    >>> compressible("voila/static/voila.JS"), compressible("fonts/x.woff2")
    (True, False)
    """
    return Path(path).suffix.lower() in COMPRESSIBLE


def accepts_gzip(accept_encoding: str) -> bool:
    """Does this ``Accept-Encoding`` header accept gzip (``gzip``, ``gzip;q=0.5``, ``*``; not ``q=0``)?

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip(""), accepts_gzip("*")
    (True, False, False, True)
    """
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        return q > 0
    return False


def _folder() -> Path:
    """Where the copies are kept: the user's own cache (``$XDG_CACHE_HOME/krypteach/gzip``), not a
    shared temporary folder, where another account could put scripts of its own for the pages."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "krypteach" / "gzip"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def gzip_copy(path: str) -> str | None:
    """The path of ``path``'s gzip copy, made now if there is none for this version of the file;
    ``None`` where compressing is not worth it (not text, under :data:`MIN_SIZE`, or less than a
    tenth smaller) or the copy cannot be written (it is then sent as it is)."""
    if not compressible(path):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    if st.st_size < MIN_SIZE:
        return None
    name = hashlib.sha256(os.fsencode(os.path.abspath(path))).hexdigest()[:32]
    try:
        folder = _folder()
        copy = folder / f"{name}-{st.st_mtime_ns}-{st.st_size}.gz"
        skip = copy.with_suffix(".plain")  # a file that does not compress well: remembered, not tried again
        if copy.exists():
            return str(copy)
        if skip.exists():
            return None
        data = Path(path).read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) > 0.9 * len(data):
            skip.touch()
            return None
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(packed)
        os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))  # Last-Modified stays the file's own
        os.replace(tmp, copy)  # whole or not at all, should two requests make it at once
    except OSError:
        return None
    return str(copy)


def gzip_static(handler: type[tornado.web.StaticFileHandler]) -> type[tornado.web.StaticFileHandler]:
    """``handler`` (a :class:`tornado.web.StaticFileHandler`) sending a file's gzip copy
    (:func:`gzip_copy`) to a browser that accepts gzip. A request for a range of bytes gets the
    file itself. The copy has an Etag of its own, and every answer says ``Vary: Accept-Encoding``,
    so that a cache never gives one kind of request the other's answer."""

    class Gzipped(handler):  # type: ignore[valid-type,misc]
        _kt_plain: str | None = None
        _kt_gzip = False

        def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
            path: str | None = super().validate_absolute_path(root, absolute_path)
            self._kt_plain = path
            if path and compressible(path):
                headers = self.request.headers
                if accepts_gzip(headers.get("Accept-Encoding", "")) and "Range" not in headers:
                    copy = gzip_copy(path)
                    if copy is not None:
                        self._kt_gzip = True
                        # Tornado keeps the file's size and time from its check: the copy's instead
                        self._stat_result = os.stat(copy)
                        return copy
            return path

        def get_content_type(self) -> str:
            if not self._kt_gzip:
                return str(super().get_content_type())
            sent: str | None = getattr(self, "absolute_path", None)
            self.absolute_path = self._kt_plain
            try:  # the type of the file, not of its gzip copy
                return str(super().get_content_type())
            finally:
                self.absolute_path = sent

        def set_extra_headers(self, path: str) -> None:
            super().set_extra_headers(path)
            if self._kt_plain and compressible(self._kt_plain):
                self.set_header("Vary", "Accept-Encoding")
            if self._kt_gzip:
                self.set_header("Content-Encoding", "gzip")

    Gzipped.__name__ = Gzipped.__qualname__ = handler.__name__ + "Gzip"
    Gzipped._kt_gzip_static = True
    return Gzipped


def gzip_routes(app: tornado.web.Application) -> int:
    """Every static file handler ``app`` routes to, wrapped by :func:`gzip_static` where it is not
    yet (the handlers of every extension of a Jupyter server, as a learner's server on JupyterHub
    has them once its extensions are loaded); returns how many were wrapped now."""
    wrapped = 0
    routers: list[Any] = [app.default_router]  # (its first rule is the app's wildcard router)
    while routers:
        for rule in getattr(routers.pop(), "rules", []):
            target = rule.target
            if is_static(target) and not getattr(target, "_kt_gzip_static", False):
                rule.target = gzip_static(target)
                wrapped += 1
            elif hasattr(target, "rules"):  # a host's own router (``Application.add_handlers``)
                routers.append(target)
    return wrapped


def is_static(handler: Any) -> bool:
    """Is ``handler`` a handler class that sends files (one of Voilà's static file handlers)?"""
    return isinstance(handler, type) and issubclass(handler, tornado.web.StaticFileHandler)
