"""Voilà's static files sent compressed by ``krypteach serve`` (krypteach/serve/gzip_static.py):
a browser that accepts gzip gets each text file's gzip copy, made once; anything else the file."""

from __future__ import annotations

import asyncio
import doctest
import gzip
import http.client
import logging
import os
import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import tornado.web

from krypteach.serve import gzip_static as gs
from krypteach.serve.gzip_static import accepts_gzip, gzip_copy, gzip_static, is_static

from .serve_helpers import run_in_thread

SCRIPT = ("function card(rank, suit) { return rank + suit; }\n" * 400).encode()  # 20 kB of script


def test_module_doctests():
    assert doctest.testmod(gs).failed == 0


@pytest.fixture
def copies(tmp_path, monkeypatch):
    """The gzip copies in a folder of the test's own."""
    folder = tmp_path / "copies"
    folder.mkdir()
    monkeypatch.setattr(gs, "_folder", lambda: folder)
    return folder


@pytest.fixture
def server(tmp_path, copies):
    """A Tornado server whose /static/ is ``gzip_static(StaticFileHandler)`` on tmp_path/files."""
    files = tmp_path / "files"
    files.mkdir()
    (files / "app.js").write_bytes(SCRIPT)
    (files / "tiny.css").write_text("body{margin:0}")
    (files / "face.png").write_bytes(os.urandom(4096))
    (files / "noise.js").write_bytes(os.urandom(4096))  # a file that does not compress (named .js)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    loop = asyncio.new_event_loop()
    started = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        app = tornado.web.Application([(r"/static/(.*)", gzip_static(tornado.web.StaticFileHandler),
                                        {"path": str(files)})])
        app.listen(port, "127.0.0.1")
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(10)
    yield f"http://127.0.0.1:{port}/static", files
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


class Answer:
    """A server's answer as sent: its status, headers and body, not decompressed."""

    def __init__(self, code: int, headers, body: bytes):
        self.code, self.headers, self.body = code, headers, body


def fetch(url: str, **headers: str) -> Answer:
    """A GET with these headers (urllib: no event loop of its own, so the test runs beside the
    browser tests' Playwright, whose loop runs on this thread; urllib does not decompress)."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return Answer(r.status, r.headers, r.read())
    except urllib.error.HTTPError as e:  # 304 and the like
        return Answer(e.code, e.headers, e.read())


def test_accept_encoding_is_read_as_browsers_write_it():
    assert accepts_gzip("gzip, deflate, br, zstd") and accepts_gzip("GZIP") and accepts_gzip("x-gzip")
    assert accepts_gzip("br;q=1.0, gzip;q=0.8") and accepts_gzip("*;q=0.1")
    assert not accepts_gzip("identity") and not accepts_gzip("br") and not accepts_gzip("")
    assert not accepts_gzip("gzip;q=0") and not accepts_gzip("gzip;q=0.0, br") and not accepts_gzip("gzip;q=x")
    # each parameter on its own, and its name before the first "="
    assert not accepts_gzip("gzip;level=1;q=0") and not accepts_gzip("gzip;q=0=1")


def test_a_browser_that_accepts_gzip_gets_the_script_compressed_and_whole(server, copies):
    base, _files = server
    r = fetch(f"{base}/app.js", **{"Accept-Encoding": "gzip, deflate, br"})
    assert r.code == 200
    assert r.headers["Content-Encoding"] == "gzip" and r.headers["Vary"] == "Accept-Encoding"
    assert r.headers["Content-Type"] in ("application/javascript", "text/javascript")  # the script's own type
    assert int(r.headers["Content-Length"]) == len(r.body) < len(SCRIPT) / 10
    assert gzip.decompress(r.body) == SCRIPT
    assert len(list(copies.glob("*.gz"))) == 1  # made once, kept


def test_any_other_request_gets_the_file_itself(server):
    base, _files = server
    for headers in ({}, {"Accept-Encoding": "br"}, {"Accept-Encoding": "gzip;q=0"}):
        r = fetch(f"{base}/app.js", **headers)
        assert r.code == 200 and r.body == SCRIPT and "Content-Encoding" not in r.headers, headers
        assert r.headers["Vary"] == "Accept-Encoding"
        assert r.headers["Content-Type"] in ("application/javascript", "text/javascript")
    # a request without Accept-Encoding at all (urllib always sends one)
    host, _sep, path = base.removeprefix("http://").partition("/")
    connection = http.client.HTTPConnection(host, timeout=30)
    try:
        connection.putrequest("GET", f"/{path}/app.js", skip_accept_encoding=True)
        connection.endheaders()
        bare = connection.getresponse()
        assert bare.status == 200 and bare.read() == SCRIPT and bare.getheader("Content-Encoding") is None
    finally:
        connection.close()
    # a range of bytes is a range of the file, never of its copy
    r = fetch(f"{base}/app.js", **{"Accept-Encoding": "gzip", "Range": "bytes=0-99"})
    assert r.code == 206 and r.body == SCRIPT[:100] and "Content-Encoding" not in r.headers


def test_files_not_worth_compressing_are_sent_as_they_are(server, copies):
    base, files = server
    for name in ("tiny.css", "face.png", "noise.js"):
        r = fetch(f"{base}/{name}", **{"Accept-Encoding": "gzip"})
        assert r.code == 200 and r.body == (files / name).read_bytes(), name
        assert "Content-Encoding" not in r.headers, name
    assert "Vary" not in fetch(f"{base}/face.png", **{"Accept-Encoding": "gzip"}).headers
    assert list(copies.glob("*.gz")) == []
    assert len(list(copies.glob("*.plain"))) == 1  # noise.js: tried once, remembered


def test_the_copy_has_its_own_etag_and_a_browsers_copy_is_not_sent_again(server):
    base, files = server
    os.utime(files / "app.js", (10**9, 10**9))  # made long ago: the copy, made now, keeps that time
    plain = fetch(f"{base}/app.js")
    packed = fetch(f"{base}/app.js", **{"Accept-Encoding": "gzip"})
    assert plain.headers["Etag"] != packed.headers["Etag"]
    assert packed.headers["Last-Modified"] == plain.headers["Last-Modified"] == "Sun, 09 Sep 2001 01:46:40 GMT"
    again = fetch(f"{base}/app.js", **{"Accept-Encoding": "gzip", "If-None-Match": packed.headers["Etag"]})
    assert again.code == 304 and again.body == b""
    # the plain file's Etag does not stand for the copy
    other = fetch(f"{base}/app.js", **{"Accept-Encoding": "gzip", "If-None-Match": plain.headers["Etag"]})
    assert other.code == 200 and gzip.decompress(other.body) == SCRIPT


def test_a_file_changed_on_disk_is_compressed_again(server, copies):
    base, files = server
    assert gzip.decompress(fetch(f"{base}/app.js", **{"Accept-Encoding": "gzip"}).body) == SCRIPT
    newer = SCRIPT.replace(b"card", b"kort")
    (files / "app.js").write_bytes(newer)
    os.utime(files / "app.js", ns=(10**18, 10**18))
    assert gzip.decompress(fetch(f"{base}/app.js", **{"Accept-Encoding": "gzip"}).body) == newer
    assert len(list(copies.glob("*.gz"))) == 2


def test_gzip_copy_refuses_what_it_cannot_read_or_write(tmp_path, copies, monkeypatch):
    script = tmp_path / "a.js"
    script.write_bytes(SCRIPT)
    assert Path(gzip_copy(str(script)) or "").read_bytes() == gzip.compress(SCRIPT, compresslevel=9, mtime=0)
    assert gzip_copy(str(tmp_path / "missing.js")) is None
    # where no copy can be written, the file is sent as it is
    not_a_folder = tmp_path / "not-a-folder"
    not_a_folder.write_text("")
    monkeypatch.setattr(gs, "_folder", lambda: not_a_folder)
    assert gzip_copy(str(script)) is None


def test_the_copies_are_kept_in_the_users_own_cache(tmp_path, monkeypatch):
    script = tmp_path / "a.js"
    script.write_bytes(SCRIPT)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    copy = Path(gzip_copy(str(script)) or "")
    assert copy.parent == tmp_path / "cache" / "krypteach" / "gzip" and copy.suffix == ".gz"
    assert copy.parent.stat().st_mode & 0o077 == 0  # the user's alone
    monkeypatch.setenv("XDG_CACHE_HOME", str(script))  # a cache folder that cannot be made: sent as it is
    assert gzip_copy(str(script)) is None


def test_without_xdg_cache_home_the_copies_are_in_the_homes_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for unset in (None, ""):
        if unset is None:
            monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        else:
            monkeypatch.setenv("XDG_CACHE_HOME", unset)
        assert gs._folder() == tmp_path / "home" / ".cache" / "krypteach" / "gzip"  # (again: it is there)
        assert gs._folder().is_dir()


def test_a_copy_from_min_size_on_each_files_own_made_where_the_copies_are(tmp_path, copies, monkeypatch):
    small, edge = tmp_path / "small.js", tmp_path / "edge.js"
    small.write_bytes(b"a" * (gs.MIN_SIZE - 1))
    edge.write_bytes(b"a" * gs.MIN_SIZE)
    assert gzip_copy(str(small)) is None
    assert gzip.decompress(Path(gzip_copy(str(edge)) or "").read_bytes()) == b"a" * gs.MIN_SIZE
    # two files of one size and time: each its own copy (named by its path)
    one, two = tmp_path / "one.js", tmp_path / "two.js"
    one.write_bytes(SCRIPT)
    two.write_bytes(SCRIPT.replace(b"card", b"kort"))
    for f in (one, two):
        os.utime(f, ns=(10**18, 10**18))
    assert gzip.decompress(Path(gzip_copy(str(one)) or "").read_bytes()) == SCRIPT
    assert gzip.decompress(Path(gzip_copy(str(two)) or "").read_bytes()) == two.read_bytes()
    # each copy is written beside the others and put in place whole (not made in another folder,
    # from which it could not be moved where that is another file system)
    moved: list[tuple[str, str]] = []
    replace = os.replace
    monkeypatch.setattr(gs.os, "replace", lambda a, b: (moved.append((a, b)), replace(a, b))[1])
    three = tmp_path / "three.js"
    three.write_bytes(SCRIPT * 2)
    assert gzip_copy(str(three)) is not None
    assert [Path(a).parent for a, _b in moved] == [copies]


def test_voilas_static_handlers_are_the_ones_wrapped():
    from jupyter_server.base.handlers import FileFindHandler
    from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler

    for handler in (FileFindHandler, MultiStaticFileHandler, TemplateStaticFileHandler):
        assert is_static(handler)
    assert not is_static(tornado.web.RequestHandler) and not is_static("FileFindHandler")
    # (that a served lesson's scripts come compressed: tests/test_browser.py)


def test_every_static_handler_of_an_app_is_wrapped_once_under_any_host(caplog):
    """A learner's Jupyter server on JupyterHub routes its extensions' handlers under a host's own
    router (``add_handlers``); each static one is wrapped, once, whatever runs it again."""
    from jupyter_server.base.handlers import FileFindHandler

    from krypteach.serve import learner_server

    class Page(tornado.web.RequestHandler):
        pass

    app = tornado.web.Application([(r"/static/(.*)", tornado.web.StaticFileHandler, {"path": "."}),
                                   (r"/page", Page)])
    app.add_handlers(".*$", [(r"/voila/static/(.*)", FileFindHandler, {"path": ["."]}), (r"/other", Page)])
    assert gs.gzip_routes(app) == 2
    assert gs.gzip_routes(app) == 0  # wrapped already

    def targets(router) -> list:
        found = []
        for rule in router.rules:
            found += targets(rule.target) if hasattr(rule.target, "rules") else [rule.target]
        return found

    handlers = targets(app.default_router)
    static = [h for h in handlers if is_static(h)]
    assert len(static) == 2 and all(h.__name__.endswith("Gzip") for h in static)
    assert Page in handlers and not any(h.__name__.endswith("GzipGzip") for h in handlers)
    # the extension's start (a Jupyter server calls it once its extensions are loaded) does the same
    again = tornado.web.Application([(r"/static/(.*)", tornado.web.StaticFileHandler, {"path": "."})])

    class Server:
        web_app = again

    with caplog.at_level(logging.INFO, logger="krypteach.serve.learner_server"):
        run_in_thread(lambda: learner_server._start_jupyter_server_extension(Server()))  # (not asyncio.run: see there)
    assert caplog.messages == ["krypteach: static file handlers sending gzip copies: 1"]
    assert targets(again.default_router)[0].__name__ == "StaticFileHandlerGzip"
    assert learner_server._jupyter_server_extension_points() == [{"module": "krypteach.serve.learner_server"}]
