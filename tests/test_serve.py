"""``krypteach serve`` for a class: the door (class code, Host header, caps), the
culler that knows the pool, a clean start and stop. The rules of the door are tested
on their own; the served behaviour against a real server over HTTP and WebSocket.
Browser-level behaviour (the dead-page notice, no request leaving the machine) is in
tests/test_browser.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.cookiejar
import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import psutil
import pytest

from krypteach.serve import ServeOptions, lite_extensions, pool_sizes, voila_argv
from krypteach.serve.gate import CODE_ALPHABET, ClassGate, kernel_cap_from_memory, new_class_code, normalize_code
from krypteach.serve.pages import join_page, message_page

from .conftest import LESSONS, Server, _free_port


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def gate(**kw) -> ClassGate:
    kw.setdefault("code", "K7RPX")
    kw.setdefault("max_kernels", 10)
    return ClassGate(**kw)


# --- the rules of the door ---------------------------------------------------------------
#: kernels kept warm by default: every lesson in the class's language, and the start page in the other
WARM = len(list(LESSONS.glob("*.ipynb"))) + 1


def test_host_header_only_this_machines_names_and_addresses():
    g = gate(extra_hosts=["kasino.skolan.se"])
    for host in ("127.0.0.1:8866", "localhost:8866", "[::1]:8866", "192.168.1.17:8866", "10.0.0.5",
                 "LOCALHOST", "kasino.skolan.se:8866"):
        assert g.check_host(host).ok, host
    for host in ("evil.example", "evil.example:8866", "127.0.0.1.evil.example", "localhost.evil.example"):
        v = g.check_host(host)
        assert not v.ok and v.status == 403 and v.page == "host", host
        assert "--allow-host" in v.reason


def test_class_code_is_short_unambiguous_and_typed_loosely():
    for _ in range(50):
        code = new_class_code()
        assert len(code) == 5 and set(code) <= set(CODE_ALPHABET)
    assert not set("01OIL") & set(CODE_ALPHABET)
    assert normalize_code(" k7r-px ") == "K7RPX"
    g = gate()
    assert g.try_code("k7rpx", "1.2.3.4").ok and g.try_code("K7R PX", "1.2.3.4").ok
    wrong = g.try_code("K7RPY", "1.2.3.4")
    assert not wrong.ok and wrong.status == 403 and wrong.page == "code"
    with pytest.raises(ValueError, match="at least 4"):
        gate(code="AB")
    with pytest.raises(ValueError, match="max_kernels"):
        gate(max_kernels=0)


def test_guessing_the_code_is_slowed_down_per_address():
    """Wrong codes slow an address down; the right code is not locked out (tests/test_door.py has the rest)."""
    clock = Clock()
    g = gate(clock=clock, wrong_code_rate=3)
    for code in ("AAAA", "BBBB"):
        assert g.try_code(code, "1.2.3.4").page == "code"
    v = g.try_code("CCCC", "1.2.3.4")  # the third wrong code: the address is slowed
    assert not v.ok and v.status == 429 and v.page == "slow-down"
    assert g.try_code("K7RPX", "1.2.3.4").status == 429  # one code at a time: it waits its second
    assert g.try_code("K7RPX", "5.6.7.8").ok  # another computer is not held up
    clock.now += 1
    assert g.try_code("K7RPX", "1.2.3.4").ok


def test_open_door_takes_any_code():
    g = ClassGate(code=None, max_kernels=3)
    assert g.open and g.try_code("", "x").ok


def test_pages_per_browser_and_for_the_class():
    clock = Clock()
    g = gate(max_kernels=3, per_client=2, clock=clock)
    assert g.may_open_page("ann", []).ok
    g.opening("ann")
    g.opened("ann")
    assert g.claim("k1", "ann") and g.claim("k1", "ann")
    assert not g.claim("k1", "bo")            # Bo may not use Ann's page
    assert g.owner("k1") == "ann"
    g.opening("ann")                          # a second page being rendered counts too
    v = g.may_open_page("ann", ["k1"])
    assert not v.ok and v.page == "yours" and v.status == 429
    g.opened("ann")
    assert g.may_open_page("ann", ["k1"]).ok
    assert g.claim("k2", "bo") and g.claim("k3", "cy")
    full = g.may_open_page("dan", ["k1", "k2", "k3"])
    assert not full.ok and full.page == "full" and full.status == 503
    # a kernel that is gone frees its place and its owner's
    assert g.may_open_page("dan", ["k2", "k3"]).ok
    assert g.owner("k1") is None


def test_new_pages_per_minute_are_capped_per_browser():
    clock = Clock()
    g = gate(per_client=50, per_client_rate=3, max_kernels=100, clock=clock)
    for _ in range(3):
        assert g.may_open_page("ann", []).ok
        g.opening("ann")
        g.opened("ann")
    assert g.may_open_page("ann", []).page == "slow-down"
    assert g.may_open_page("bo", []).ok
    clock.now += 61
    assert g.may_open_page("ann", []).ok


def test_kernel_cap_from_memory_is_sane():
    assert 4 <= kernel_cap_from_memory() <= 200


def test_pages_escape_what_they_show():
    page = join_page('/x"><script>alert(1)</script>', error="<b>")
    assert "<script>alert(1)" not in page and "&lt;b&gt;" in page
    assert "Class code" in page and "Type the class code" in page  # English: the server's default language
    full = message_page("full", "the class is full (30 pages open)", "/voila/render/en/00_start.ipynb")
    assert "The class is full right now" in full and "The class is full (30 pages open)." in full
    assert ">Try again</a>" in full
    for page in (join_page("/"), full):
        assert "http://" not in page and "https://" not in page  # nothing from elsewhere


def test_voila_options_and_warm_pools(tmp_path):
    opts = ServeOptions(folder=tmp_path, start_page="00_start.ipynb", lesson="07_play.ipynb", class_size=30)
    argv = voila_argv(opts)
    assert argv[0] == str(tmp_path)
    for opt in ("--template=krypteach", "--strip_sources=True", "--show_tracebacks=False", "--preheat_kernel=True",
                "--Voila.port_retries=0", "--VoilaExecutor.iopub_timeout=60",
                "--VoilaExecutor.raise_on_iopub_timeout=True", "--MappingKernelManager.cull_idle_timeout=0",
                "--KernelManager.autorestart=False", "--KernelManager.transport=ipc"):
        assert opt in argv
    # the static site's JupyterLite extensions, installed beside Voilà for build-site, stay out of a
    # served page (they break in Voilà's app: tests/test_browser.py sees the page's console)
    lite = lite_extensions()
    if importlib.util.find_spec("jupyterlite_pyodide_kernel"):
        assert "@jupyterlite/pyodide-kernel-extension" in lite
    assert all(name.startswith("@jupyterlite/") for name in lite)
    assert [a for a in argv if "extension_denylist" in a] == [
        f"--VoilaConfiguration.extension_denylist={name}" for name in lite]
    # the class's language (English here) warm, the other languages' start page only
    for name in ("00_start.ipynb", "03_take_all.ipynb", "07_play.ipynb"):
        (tmp_path / name).write_text("{}")
    cold = {"sv/03_take_all.ipynb": {"pool_size": 0}, "sv/07_play.ipynb": {"pool_size": 0}}
    assert pool_sizes(opts) == {"default": {"pool_size": 1}, **cold, "en/07_play.ipynb": {"pool_size": 30}}
    opts.lesson = None
    assert pool_sizes(opts) == {"default": {"pool_size": 1}, **cold, "en/00_start.ipynb": {"pool_size": 30}}
    opts.class_size = 0
    assert pool_sizes(opts) == {"default": {"pool_size": 1}, **cold}
    opts.language = "sv"
    assert pool_sizes(opts) == {"default": {"pool_size": 1}, "en/03_take_all.ipynb": {"pool_size": 0},
                                "en/07_play.ipynb": {"pool_size": 0}}
    opts.shown = ["00_start.ipynb", "07_play.ipynb"]  # a lesson not shown keeps no kernel warm in any language
    assert pool_sizes(opts) == {"default": {"pool_size": 1}, "en/03_take_all.ipynb": {"pool_size": 0},
                                "en/07_play.ipynb": {"pool_size": 0}, "sv/03_take_all.ipynb": {"pool_size": 0}}


# --- a real server -----------------------------------------------------------------------

def _opener() -> urllib.request.OpenerDirector:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.jar = jar  # type: ignore[attr-defined]
    return opener


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **kw):
        return None


def _get(url: str, opener=None, headers=None, follow=True):
    """(status, final url, body) of a GET."""
    handlers = [] if follow else [NoRedirect()]
    op = opener or urllib.request.build_opener(*handlers)
    if not follow and opener is not None:
        op = urllib.request.build_opener(NoRedirect(), *[h for h in opener.handlers
                                                         if isinstance(h, urllib.request.HTTPCookieProcessor)])
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with op.open(req, timeout=60) as r:
            return r.status, r.geturl(), r.read().decode(errors="replace"), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, url, e.read().decode(errors="replace"), dict(e.headers)


@pytest.fixture(scope="module")
def server(private_env, tmp_path_factory):
    s = Server(["--class-code", "K7RPX", "--cull-idle", "5"], private_env,
               tmp_path_factory.mktemp("serve") / "serve.log").wait_ready()
    # the pools fill in the background: wait until every lesson has its warm kernel
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and sum(s.status()["pool_ready"].values()) < WARM:
        time.sleep(0.5)
    yield s
    s.stop()
    # issue 21: no "Notebook … is not trusted" per lesson at every start (the lessons hold no outputs)
    log = s.log.read_text(errors="replace")
    assert "Kernel pool of" in log and "is not trusted" not in log, log[-2000:]


def _kernel_id(html: str) -> str:
    m = re.search(r'"kernelId": "([0-9a-f-]{36})"', html)
    assert m, "no kernel id in the page"
    return m.group(1)


def test_root_is_the_start_page_and_the_door_asks_for_the_code(server):
    status, _, _, headers = _get(server.base + "/", follow=False)
    assert status == 302 and headers["Location"].endswith("/voila/render/en/00_start.ipynb")
    status, _, _, headers = _get(server.base + "/voila/render/en/03_take_all.ipynb", follow=False)
    assert status == 302 and headers["Location"] == "/krypteach/join?next=%2Fvoila%2Frender%2Fen%2F03_take_all.ipynb"
    status, _, body, _ = _get(server.base + "/krypteach/join?next=/voila/render/en/03_take_all.ipynb")
    assert status == 200 and "Class code" in body and 'value="/voila/render/en/03_take_all.ipynb"' in body
    # nothing that starts a kernel answers without the code
    for path in ("/voila/render/en/03_take_all.ipynb", "/api/kernels/00000000-0000-0000-0000-000000000000",
                 "/voila/api/contents/"):
        assert _get(server.base + path, follow=False)[0] in (302, 403), path


def test_a_wrong_code_is_refused_and_the_right_one_remembered(server):
    op = _opener()
    _status, _url, form, _ = _get(server.base + "/krypteach/join", opener=op)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form)[1]  # type: ignore[index]  # the form's token
    data = urllib.parse.urlencode({"code": "WRONG", "next": "/voila/render/en/01_cards.ipynb", "_xsrf": xsrf}).encode()
    with pytest.raises(urllib.error.HTTPError) as e:
        op.open(server.base + "/krypteach/join", data=data, timeout=30)
    assert e.value.code == 403 and "Wrong class code (that is not this class&#x27;s code)." in e.value.read().decode()
    data = urllib.parse.urlencode({"code": "k7r px", "next": "//evil.example/x", "_xsrf": xsrf}).encode()
    with op.open(server.base + "/krypteach/join", data=data, timeout=60) as r:
        # an off-site "next" is ignored: the start page
        assert r.geturl() == server.base + "/voila/render/en/00_start.ipynb" and r.status == 200
        page = r.read().decode()
    assert "kt-lost" in page and "cdn.jsdelivr.net" not in page
    assert any(c.name == "krypteach_client" for c in op.jar)  # type: ignore[attr-defined]
    status, url, body, _ = _get(server.base + "/voila/render/en/01_cards.ipynb", opener=op)
    assert status == 200 and url.endswith("01_cards.ipynb") and '"kernelId"' in body


def test_a_code_in_the_link_lets_a_browser_in(server):
    op = _opener()
    status, _url, body, _ = _get(server.base + "/voila/render/en/02_traffar.ipynb?class=K7RPX", opener=op)
    assert status == 200 and '"kernelId"' in body
    status, _, body, _ = _get(server.base + "/voila/render/en/02_traffar.ipynb?class=NOPE1")
    assert status == 403 and "Wrong class code" in body


def test_a_foreign_host_name_is_refused_everywhere(server):
    for path in ("/", "/krypteach/join", "/krypteach/status", "/voila/render/en/00_start.ipynb?class=K7RPX",
                 "/voila/static/voila.js"):
        status, _, body, _ = _get(server.base + path, headers={"Host": "evil.example"}, follow=False)
        assert status == 403, path
    status, _, body, _ = _get(server.base + "/", headers={"Host": "evil.example"})
    assert "Wrong address" in body


def _ws_connect(server, kernel_id: str, cookie: str | None) -> int:
    """Open the kernel's WebSocket as a browser would; the HTTP status of the answer."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    async def go() -> int:
        headers = {"Origin": server.base}
        if cookie:
            headers["Cookie"] = cookie
        url = f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels"
        try:
            ws = await websocket_connect(HTTPRequest(url, headers=headers, connect_timeout=30))
        except HTTPClientError as e:
            return e.code
        await asyncio.sleep(0.3)
        ws.close()
        return 101

    # a thread of its own: a session's Playwright keeps an event loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, go()).result()


def _cookie_header(op) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in op.jar)


def test_a_page_belongs_to_the_browser_that_opened_it(server):
    ann, bo = _opener(), _opener()
    _get(server.base + "/krypteach/join?class=K7RPX", opener=bo)
    _get(server.base + "/voila/render/en/00_start.ipynb?class=K7RPX", opener=bo)
    _status, _, body, _ = _get(server.base + "/voila/render/en/05_deals.ipynb?class=K7RPX", opener=ann)
    kid = _kernel_id(body)
    assert _ws_connect(server, kid, None) in (302, 403)          # no code: no kernel
    # the page is Ann's from the moment it was handed to her: Bo, with her kernel's id, connecting
    # before her does not take it (issue 20, finding 14: the first to connect used to own it)
    assert _ws_connect(server, kid, _cookie_header(bo)) == 403
    assert _ws_connect(server, kid, _cookie_header(ann)) == 101   # Ann's page connects
    assert _ws_connect(server, kid, _cookie_header(bo)) == 403    # Bo may not use it


def test_a_page_nobody_connects_to_is_culled_but_the_pool_never(server):
    op = _opener()
    before = server.status()
    status, _, body, _ = _get(server.base + "/voila/render/en/06_scoring.ipynb?class=K7RPX", opener=op)
    kid = _kernel_id(body)
    assert status == 200
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if kid not in _kernel_ids(server) and server.status()["pool_ready"]["en/06_scoring.ipynb"] == 1:
            break
        time.sleep(1)
    assert kid not in _kernel_ids(server), "a page's kernel with no browser connected was not culled"
    after = server.status()
    assert after["culled"].get("no page", 0) > before["culled"].get("no page", 0)
    # the warm kernels waited all this time (longer than --cull-idle 5) and are still there
    warm = {k: n for k, n in after["pool_ready"].items() if k.startswith("en/") or k == "sv/00_start.ipynb"}
    assert len(warm) == WARM and all(n == 1 for n in warm.values()), after


def _kernel_ids(server) -> set[str]:
    ids = set()
    for p in psutil.Process(server.proc.pid).children(recursive=True):
        try:
            cmd = " ".join(p.cmdline())
        except psutil.Error:
            continue
        m = re.search(r"kernel-([0-9a-f-]{36})\.json", cmd)
        if m:
            ids.add(m.group(1))
    return ids


def test_the_class_is_full_page(private_env, tmp_path):
    s = Server(["--class-code", "K7RPX", "--max-kernels", "1"], private_env, tmp_path / "serve.log").wait_ready()
    try:
        first = _get(s.base + "/voila/render/en/01_cards.ipynb?class=K7RPX")
        assert first[0] == 200
        status, _, body, headers = _get(s.base + "/voila/render/en/02_traffar.ipynb?class=K7RPX")
        assert status == 503 and "The class is full right now" in body
        assert headers.get("Retry-After") == "15"
    finally:
        s.stop()


def test_a_taken_port_is_a_clear_error(server, private_env):
    proc = subprocess.run([sys.executable, "-m", "krypteach", "serve", "--port", str(server.port), "--dir", str(LESSONS),
                           "--open"], env=private_env, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert f"port {server.port} is already in use" in proc.stderr and "--port" in proc.stderr
    assert proc.stdout.count("Open http") == 0  # no URL of a server that is not there


def test_it_prints_the_start_page_the_code_and_the_class_address(private_env, tmp_path):
    s = Server(["--class-code", "K7RPX", "--host", "0.0.0.0"], private_env, tmp_path / "serve.log").wait_ready()
    try:
        text = s.text()
    finally:
        s.stop()
    assert f"Open http://127.0.0.1:{s.port}/voila/render/en/00_start.ipynb" in text
    assert "Class code: K7RPX" in text
    assert re.search(rf"Class: learners open http://(\d+\.\d+\.\d+\.\d+|<this computer's address>):{s.port}/\n", text)


def test_the_class_language_from_the_classroom_file_and_lang(private_env, tmp_path):
    """The classroom file's language leads a new browser to the Swedish start page (and
    --lang wins over it); a browser that opened an English page is led there next time."""
    (tmp_path / "k.toml").write_text('[class]\ncode = "K7RPX"\nlanguage = "sv"\n', encoding="utf-8")
    s = Server(["--config", str(tmp_path / "k.toml")], private_env, tmp_path / "serve.log").wait_ready()
    try:
        # serve's own lines are in the class's language (Swedish here)
        assert "/voila/render/sv/00_start.ipynb" in s.text() and "klassens språk: Svenska" in s.text(), s.text()
        status, _, _, headers = _get(s.base + "/", follow=False)
        assert status == 302 and headers["Location"].endswith("/voila/render/sv/00_start.ipynb")
        op = _opener()
        status, _, body, _ = _get(s.base + "/voila/render/en/02_traffar.ipynb?class=K7RPX", opener=op)
        assert status == 200 and "set_language" not in body  # the cell that sets the language is hidden
        status, url, _, _ = _get(s.base + "/", opener=op)
        assert url.endswith("/voila/render/en/00_start.ipynb"), url
    finally:
        s.stop()
    s = Server(["--config", str(tmp_path / "k.toml"), "--lang", "en", "--open"], private_env,
               tmp_path / "serve2.log").wait_ready()
    try:
        status, _, _, headers = _get(s.base + "/", follow=False)
        assert status == 302 and headers["Location"].endswith("/voila/render/en/00_start.ipynb")
    finally:
        s.stop()


def test_sigterm_stops_the_server_and_every_kernel(private_env, tmp_path):
    s = Server(["--open"], private_env, tmp_path / "serve.log").wait_ready()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(_kernel_ids(s)) < WARM:
        time.sleep(0.5)
    kernels = list(psutil.Process(s.proc.pid).children(recursive=True))
    assert len(_kernel_ids(s)) == WARM
    os.kill(s.proc.pid, signal.SIGTERM)  # the server alone, not its process group
    assert s.proc.wait(timeout=60) == 0
    _gone, alive = psutil.wait_procs(kernels, timeout=30)
    assert not alive, f"{len(alive)} kernels outlived the server"
    s.stop()


def test_open_door_needs_no_code(private_env, tmp_path):
    s = Server(["--open"], private_env, tmp_path / "serve.log").wait_ready()
    try:
        status, _url, body, _ = _get(s.base + "/voila/render/en/01_cards.ipynb")
        assert status == 200 and '"kernelId"' in body
        assert "No class code (--open)" in s.text()
    finally:
        s.stop()


@pytest.mark.parametrize(("args", "message"), [
    (["--class-code", "ab"], "--class-code needs at least 4"),
    (["--class-code", "ABCD", "--open"], "do not go together"),
    (["--max-kernels", "0"], "--max-kernels"),
    (["--class-size", "999"], "--class-size"),
    (["--cull-idle", "1"], "--cull-idle"),
])
def test_bad_serve_options_are_one_clear_line(args, message, private_env):
    proc = subprocess.run([sys.executable, "-m", "krypteach", "serve", "--port", str(_free_port()), *args],
                          env=private_env, capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and message in lines[0], proc.stderr


def test_a_page_can_ask_whether_its_kernel_still_runs(server):
    op = _opener()
    status, _, body, _ = _get(server.base + "/voila/render/en/04_tabbe.ipynb?class=K7RPX", opener=op)
    kid = _kernel_id(body)
    assert _get(server.base + f"/krypteach/alive/{kid}", opener=op)[:1] == (200,)
    # the kernel crashes: it is not restarted without its widgets, and the page learns it is gone
    for p in psutil.Process(server.proc.pid).children(recursive=True):
        if kid in " ".join(p.cmdline()):
            p.kill()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _get(server.base + f"/krypteach/alive/{kid}", opener=op)[0] != 410:
        time.sleep(0.5)
    status, _, body, _ = _get(server.base + f"/krypteach/alive/{kid}", opener=op)
    assert status == 410 and '"alive": false' in body
    assert _get(server.base + f"/krypteach/alive/{kid}", headers={"Host": "evil.example"})[0] == 403


def test_the_class_page_is_warmed_for_the_class_and_again_after_it(private_env, tmp_path):
    s = Server(["--open", "--class-size", "6", "--lesson", "2", "--cull-idle", "30"], private_env,
               tmp_path / "serve.log").wait_ready()

    def ready() -> int:
        return int(s.status()["pool_ready"].get("en/02_traffar.ipynb", 0))

    def wait_for(pred, what: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pred():
                return
            time.sleep(0.5)
        raise AssertionError(f"{what}: pool_ready {s.status()['pool_ready']}")

    try:
        wait_for(lambda: ready() == 6, "the class's page warmed for 6")
        # 6 for lesson 02, one for each other lesson, one for the start page in Swedish
        assert f"Warming {WARM + 5} pages" in s.text()
        wait_for(lambda: f"Ready for the class: {WARM + 5} pages warm" in s.text(), "the teacher is told")
        for _ in range(4):
            assert _get(s.base + "/voila/render/en/02_traffar.ipynb")[0] == 200
        # while the class is in, taken kernels are replaced only up to 3 spare ones
        wait_for(lambda: ready() == 3, "3 spare kernels while 4 pages are open", timeout=25)
        time.sleep(6)  # and no more
        assert ready() == 3 and s.status()["pages"] == 4
        # the pages close (here: never connected, culled after --cull-idle); the full warm-up comes back
        wait_for(lambda: s.status()["pages"] == 0 and ready() == 6, "warm for the next class")
    finally:
        s.stop()


def test_a_lesson_not_shown_in_the_class_is_not_served(private_env, tmp_path):
    (tmp_path / "k.toml").write_text('[class]\ncode = "K7RPX"\n[lessons]\nshow = ["03"]\n', encoding="utf-8")
    s = Server(["--config", str(tmp_path / "k.toml")], private_env, tmp_path / "serve.log").wait_ready()
    try:
        status, _, body, _ = _get(s.base + "/voila/render/en/05_deals.ipynb?class=K7RPX")
        assert status == 404 and "Not a lesson of this class" in body and '"kernelId"' not in body
        status, _, body, _ = _get(s.base + "/voila/render/en/03_take_all.ipynb?class=K7RPX")
        assert status == 200 and '"kernelId"' in body
        assert s.status()["pool_ready"].get("en/05_deals.ipynb", 0) == 0  # no kernel kept warm for it
    finally:
        s.stop()


def test_the_teachers_page_names_each_lesson_as_the_start_page_does(tmp_path):
    """Issue 21: the grid said "5 · Deals" (the heading cut at its " (") where the start page says
    "5 · Deals and klädda högen"; a teacher's own notebook keeps its heading."""
    import json
    import shutil

    from krypteach.i18n import use_language
    from krypteach.serve import lesson_titles
    from krypteach.teaching.course import titles

    shutil.copy(LESSONS / "05_deals.ipynb", tmp_path)
    (tmp_path / "42_mine.ipynb").write_text(json.dumps({"cells": [{"cell_type": "markdown",
                                                                   "source": ["# 42 · My lesson (min)"]}]}))
    for lang in ("en", "sv"):
        with use_language(lang):
            course = titles()
        assert lesson_titles(tmp_path, lang) == {"05_deals": course["05_deals"], "42_mine": "42 · My lesson"}
    assert lesson_titles(tmp_path, "sv")["05_deals"] == "5 · Utdelningar och klädda högen"
