"""The JupyterHub recipe (docs/deploy.md, docs/deploy/jupyterhub_config.py), for real:
a hub on 127.0.0.1 with its proxy, two learners logged in with the class password, a
live lesson in Voilà in each learner's own server (widgets drawn in Chromium, a click
answered by the kernel), one learner kept out of the other's server, the memory cap on
every process of a learner, the idle culler stopping an idle server, and nothing left
running once the hub is stopped.

Every file the hub writes (database, cookie secret, pid files, the learners' homes) is
in pytest's temp folder; the hub, its proxy and the learners' servers listen on
127.0.0.1 only.
"""

from __future__ import annotations

import importlib.util
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from .conftest import LESSONS, ROOT, _free_port, _private_env
from .page_helpers import VoilaScripts

pytestmark = pytest.mark.slow

CONFIG = ROOT / "docs" / "deploy" / "jupyterhub_config.py"
PASSWORD = "krypteach-class-7"
MEM_LIMIT = "1G"
START = "en/00_start.ipynb"  # the class's language (KRYPTEACH_LANG, default en) / the start page

_missing = [what for what, ok in (
    ("the jupyterhub package (pip install -e '.[test]')", importlib.util.find_spec("jupyterhub") is not None),
    ("jupyterhub-idle-culler (pip install -e '.[test]')", importlib.util.find_spec("jupyterhub_idle_culler") is not None),
    ("configurable-http-proxy on PATH (npm install -g configurable-http-proxy)",
     shutil.which("configurable-http-proxy") is not None),
) if not ok]
if _missing:
    pytest.skip("JupyterHub recipe not testable here: needs " + ", ".join(_missing), allow_module_level=True)

import requests  # noqa: E402  (installed with jupyterhub)


def _default_sigint() -> None:
    # a pytest started in the background (`&`) ignores SIGINT, and a child inherits that;
    # the hub stops its servers with SIGINT first
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Hub:
    """``jupyterhub -f docs/deploy/jupyterhub_config.py`` with all its state under ``base``."""

    def __init__(self, base: Path, **extra_env: str):
        self.base = base
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = _private_env(base / "home")
        # nothing from the caller's own hub settings
        for name in [n for n in env if n.startswith("KRYPTEACH_HUB_")] + [
                "CONFIGPROXY_AUTH_TOKEN", "KRYPTEACH_MAX_GIVAR", "KRYPTEACH_MAX_JOB_SECONDS"]:
            env.pop(name, None)
        env.update({
            "KRYPTEACH_HUB_IP": "127.0.0.1",
            "KRYPTEACH_HUB_PORT": str(self.port),
            "KRYPTEACH_HUB_API_PORT": str(_free_port()),
            "KRYPTEACH_HUB_PROXY_API_PORT": str(_free_port()),
            "KRYPTEACH_HUB_LIVE_PORT": str(_free_port()),
            "KRYPTEACH_HUB_STATE": str(base / "state"),
            "KRYPTEACH_HUB_HOMES": str(base / "homes"),
            "KRYPTEACH_HUB_PASSWORD": PASSWORD,
            "KRYPTEACH_HUB_MEM_LIMIT": MEM_LIMIT,
            "KRYPTEACH_LESSONS": str(LESSONS),
            **extra_env,
        })
        self.env = env
        self.log = base / "hub.log"
        self._fh = open(self.log, "w")
        self.proc = subprocess.Popen(
            ["jupyterhub", "-f", str(CONFIG)], stdout=self._fh, stderr=subprocess.STDOUT, env=env,
            cwd=str(base), start_new_session=True, preexec_fn=_default_sigint,
        )
        self._seen: dict[int, psutil.Process] = {}

    def wait_ready(self, timeout: float = 60) -> Hub:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the hub exited with {self.proc.returncode}:\n{self.text()[-3000:]}"
            try:
                if requests.get(f"{self.url}/hub/api/", timeout=5).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise AssertionError(f"the hub did not answer in {timeout} s:\n{self.text()[-3000:]}")

    def text(self) -> str:
        if not self._fh.closed:
            self._fh.flush()
        return self.log.read_text(errors="replace")

    def processes(self) -> list[psutil.Process]:
        """The hub's processes now (proxy, culler, learners' servers, their kernels); remembered."""
        try:
            found = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            found = []
        for p in found:
            self._seen.setdefault(p.pid, p)
        return found

    def server_of(self, name: str) -> psutil.Process:
        for p in self.processes():
            try:
                env = p.environ()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            if env.get("JUPYTERHUB_USER") == name and "jupyterhub-singleuser" in " ".join(p.cmdline()):
                return p
        raise AssertionError(f"no single-user server for {name} among {[p.cmdline() for p in self.processes()]}")

    def stop(self) -> list[psutil.Process]:
        """SIGTERM to the hub's process group; the processes that are still running after."""
        self.processes()
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 15
        left = [p for p in self._seen.values() if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        while left and time.monotonic() < deadline:
            time.sleep(0.3)
            left = [p for p in left if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if not self._fh.closed:
            self._fh.close()
        return left

    def kill_leftovers(self) -> None:
        for p in self._seen.values():
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass


def login(hub: Hub, name: str) -> requests.Session:
    """Log in as a learner the way a browser does: the form's _xsrf token, a cookie jar."""
    s = requests.Session()
    form = s.get(f"{hub.url}/hub/login", timeout=30)
    assert form.status_code == 200, form.status_code
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.text)
    assert xsrf, "no _xsrf field in the login form"
    r = s.post(f"{hub.url}/hub/login", data={"username": name, "password": PASSWORD, "_xsrf": xsrf.group(1)},
               allow_redirects=False, timeout=30)
    assert r.status_code == 302, f"login of {name}: {r.status_code} {r.text[:300]}"
    assert any(c.name.startswith("jupyterhub-") for c in s.cookies), s.cookies
    # the hub starts the learner's server (/hub/spawn); it is ready a few seconds later
    s.get(f"{hub.url}{r.headers['location']}", timeout=60)
    return s


def wait_for_lesson(hub: Hub, s: requests.Session, name: str, timeout: float = 120) -> requests.Response:
    """Follow ``/user/<name>/`` (the hub's spawn page while the server starts) to the lesson."""
    deadline = time.monotonic() + timeout
    while True:
        r = s.get(f"{hub.url}/user/{name}/", timeout=90)
        if "/voila/render/" in r.url or time.monotonic() > deadline:
            return r
        time.sleep(1)


def on_start_page(url: str, name: str) -> bool:
    """Is ``url`` the learner's start lesson? The hub may add ``?redirects=N`` when it sent
    the browser round while the server was still starting (seen on a loaded CI machine)."""
    import re
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return (parts.path.endswith(f"/user/{name}/voila/render/{START}")
            and re.fullmatch(r"(redirects=\d+)?", parts.query) is not None)


def _progress_store(base: Path) -> str:
    """One progress store for every learner's server: PostgreSQL where the tests have one
    (.ci/run starts it), else a SQLite file."""
    url = os.environ.get("KRYPTEACH_TEST_POSTGRES")
    if not url:
        return str(base / "progress.sqlite3")
    import uuid

    import psycopg

    name = "kt_hub_" + uuid.uuid4().hex[:10]
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return url.rpartition("/")[0] + "/" + name


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    base = tmp_path_factory.mktemp("hub")
    h = Hub(base, KRYPTEACH_HUB_PROGRESS=_progress_store(base), KRYPTEACH_HUB_CLASS="9B")
    try:
        yield h.wait_ready()
    finally:
        left = h.stop()
        h.kill_leftovers()
        if "Traceback" in h.text():
            print("---- hub log ----\n" + h.text()[-6000:])
        assert not left, f"still running after the hub stopped: {left}"


@pytest.fixture(scope="module")
def learners(hub):
    """ann and bo logged in, each with a server that serves the start lesson."""
    sessions = {name: login(hub, name) for name in ("ann", "bo")}
    for name, s in sessions.items():
        r = wait_for_lesson(hub, s, name)
        assert r.status_code == 200 and on_start_page(r.url, name), \
            f"{name} landed on {r.status_code} {r.url}:\n{hub.text()[-3000:]}"
        assert "There was an error when executing cell" not in r.text
        assert "import krypteach" not in r.text, "the page shows the lesson's code (strip_sources)"
    return sessions


def _to_browser(s: requests.Session) -> list[dict]:
    return [{"name": c.name, "value": c.value, "domain": "127.0.0.1", "path": c.path or "/"} for c in s.cookies]


@pytest.mark.parametrize("name", ["ann", "bo"])
def test_each_learner_gets_a_live_lesson_in_their_own_server(hub, learners, browser, name):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside: list[str] = []

    def only_the_hub(route):
        if route.request.url.startswith((hub.url, "data:", "blob:")):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_hub)
    context.add_cookies(_to_browser(learners[name]))
    errors: list[str] = []  # the page's console errors and uncaught exceptions
    scripts = VoilaScripts()
    try:
        page = context.new_page()
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", scripts)
        page.goto(f"{hub.url}/user/{name}/", timeout=90_000)  # the server's default_url: the lesson
        page.wait_for_url(f"**/user/{name}/voila/render/{START}*", timeout=90_000)
        page.locator(".jupyter-widgets").first.wait_for(timeout=90_000)
        card = page.locator(".kt-selectable .kt-card").first
        card.wait_for(timeout=90_000)
        # the kernel answers: a click on a card comes back as feedback computed in Python
        card.click()
        page.locator(".kt-feedback", has_text="You picked").wait_for(timeout=30_000)
        text = page.inner_text("body")
        assert "There was an error when executing cell" not in text
        assert "Traceback" not in text
        assert errors == [], f"the page's console: {errors}"
        page.close(run_before_unload=True)
    finally:
        context.close()
    assert outside == [], f"requests to other addresses: {outside}"
    # each of them over 1 KB came as a gzip copy through the hub's proxy (krypteach/serve/learner_server.py)
    scripts.assert_all_gzip()


def test_every_learners_server_keeps_progress_in_the_one_store(hub, learners, browser):
    """The hub user is the learner; each server's kernels write to the same database."""
    from krypteach.classroom.store import ProgressStore

    for name in ("ann", "bo"):  # a page each, as the learners would open it
        context = browser.new_context()
        context.add_cookies(_to_browser(learners[name]))
        try:
            page = context.new_page()
            page.goto(f"{hub.url}/user/{name}/voila/render/{START}", timeout=90_000)
            page.locator(".kt-learner", has_text=name).wait_for(timeout=90_000)
            page.close(run_before_unload=True)
        finally:
            context.close()
    store = ProgressStore(hub.env["KRYPTEACH_HUB_PROGRESS"])
    assert [n for _, n in store.learners("9B")] == ["ann", "bo"]


def test_a_learner_cannot_open_another_learners_server(hub, learners):
    r = learners["ann"].get(f"{hub.url}/user/bo/voila/render/{START}", timeout=60)
    # bo's server sends ann to the hub to ask for access, and the hub says no
    assert r.status_code == 403 or "/hub/login" in r.url, f"ann opened bo's server: {r.status_code} {r.url}"
    assert "/user/bo/voila/render/" not in r.url and "jupyter-widgets" not in r.text
    # and without any cookie: the login page
    r = requests.get(f"{hub.url}/user/bo/voila/render/{START}", timeout=60)
    assert r.status_code == 200 and "/hub/login" in r.url, r.url


def test_every_process_of_a_learner_has_the_memory_cap(hub, learners):
    cap = 1 << 30  # MEM_LIMIT
    for name in learners:
        server = hub.server_of(name)
        kernels = [k for k in server.children(recursive=True) if "ipykernel" in " ".join(k.cmdline())]
        for p in [server, *kernels]:
            assert p.rlimit(resource.RLIMIT_DATA) == (cap, cap), (name, p.cmdline())
        env = server.environ()
        assert env["MEM_LIMIT"] == str(cap) and env["HOME"] == str(hub.base / "homes" / name)
        # the caps on long jobs reach the kernels, as with krypteach serve
        for k in kernels:
            assert k.environ()["KRYPTEACH_MAX_JOB_SECONDS"] == "120" and k.environ()["KRYPTEACH_JOBS"] == "1"
        rss = sum(p.memory_info().rss for p in [server, *kernels]) / 2**20
        print(f"{name}: server + {len(kernels)} kernel(s) RSS {rss:.0f} MiB")


def test_the_memory_cap_stops_a_greedy_kernel(tmp_path, monkeypatch):
    """The spawner's preexec (the one the hub runs before a learner's server) caps memory:
    past it an allocation fails with MemoryError; below it, it works."""
    from traitlets.config.loader import PyFileConfigLoader

    monkeypatch.setenv("KRYPTEACH_HUB_STATE", str(tmp_path / "state"))
    monkeypatch.setenv("KRYPTEACH_HUB_PASSWORD", PASSWORD)
    monkeypatch.setenv("KRYPTEACH_LESSONS", str(LESSONS))
    config = PyFileConfigLoader(CONFIG.name, path=str(CONFIG.parent)).load_config()
    spawner_class = config.JupyterHub.spawner_class

    class Learner:
        name = "cap"

    spawner = spawner_class(user=Learner(), mem_limit="300M",
                            home_dir_template=str(tmp_path / "homes" / "{username}"))
    grab = "import sys; b = bytearray(int(sys.argv[1]) << 20); print(len(b) >> 20)"
    small = subprocess.run([sys.executable, "-c", grab, "50"], preexec_fn=spawner.make_preexec_fn("cap"),
                           capture_output=True, text=True, timeout=60)
    assert small.returncode == 0 and small.stdout.strip() == "50", small.stderr
    big = subprocess.run([sys.executable, "-c", grab, "600"], preexec_fn=spawner.make_preexec_fn("cap"),
                         capture_output=True, text=True, timeout=60)
    assert big.returncode != 0 and "MemoryError" in big.stderr, (big.returncode, big.stderr[-500:])
    assert (tmp_path / "homes" / "cap").is_dir()


def test_the_idle_culler_stops_an_idle_server(tmp_path):
    hub = Hub(tmp_path, KRYPTEACH_HUB_CULL_TIMEOUT="8", KRYPTEACH_HUB_CULL_EVERY="3")
    try:
        hub.wait_ready()
        s = login(hub, "cy")
        r = wait_for_lesson(hub, s, "cy")
        assert r.status_code == 200 and "/voila/render/" in r.url, r.url
        server = hub.server_of("cy")
        # nobody uses the lesson: the culler stops the server (timeout 8 s, a look every 3 s)
        server.wait(timeout=60)
        assert re.search(r"Culling server cy", hub.text()), hub.text()[-3000:]
    finally:
        left = hub.stop()
        hub.kill_leftovers()
    assert not left, f"still running after the hub stopped: {left}"


def test_two_learners_sit_at_one_table_through_the_hubs_service(hub, learners, browser):
    """Issue 24 on JupyterHub: the tables live in the hub's service (krypteach.serve.hub_service),
    and each learner's kernel, in a server of its own, proves who it is with that server's hub
    token. ann opens a table on lesson 7, bo joins it by its code from his own server, and each
    page names the other by their hub name; a token the hub does not know is refused."""
    service = f"http://127.0.0.1:{hub.env['KRYPTEACH_HUB_LIVE_PORT']}"
    contexts, live = [], {}
    try:
        for name in ("ann", "bo"):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            contexts.append(context)
            context.add_cookies(_to_browser(learners[name]))
            page = context.new_page()
            page.goto(f"{hub.url}/user/{name}/voila/render/en/07_play.ipynb", timeout=90_000)
            live[name] = page.locator(".kt-live")
            live[name].get_by_role("button", name="Open a table").wait_for(timeout=90_000)
        live["ann"].get_by_role("button", name="Open a table").click()  # 2 players, the class's game
        said = live["ann"].locator(".kt-feedback", has_text="You opened table")
        said.wait_for(timeout=30_000)
        code = re.search(r"table ([A-Z0-9]{4})", said.inner_text()).group(1)
        live["bo"].locator("input[type=text]").fill(code)
        live["bo"].get_by_role("button", name="Join").click()
        live["bo"].locator(".kt-feedback", has_text=f"You sit at table {code}").wait_for(timeout=30_000)
        live["bo"].locator(".kt-live-seat", has_text="ann, You").wait_for(timeout=30_000)
        live["ann"].locator(".kt-live-seat", has_text="You, bo").wait_for(timeout=30_000)
        text = " ".join(live[n].inner_text() for n in live)
        assert "There was an error" not in text and "Traceback" not in text
        for context in contexts:
            for page in context.pages:
                page.close(run_before_unload=True)
    finally:
        for context in contexts:
            context.close()
    # the service itself: a request without the hub's word for it sits nobody down
    for headers in ({}, {"Authorization": "token not-a-hub-token"}):
        r = requests.post(f"{service}/krypteach/tables", json={"open": 2}, headers=headers, timeout=30)
        assert r.status_code == 403 and r.json()["error"].startswith("sign in first"), (r.status_code, r.text)
    assert requests.get(f"{service}/services/krypteach/", timeout=30).json()["tables"] == 1


def test_stopping_the_hub_leaves_no_server_kernel_or_proxy(hub, learners):
    running = hub.processes()
    kinds = " ".join(" ".join(p.cmdline()) for p in running)
    assert "configurable-http-proxy" in kinds and "jupyterhub-singleuser" in kinds and "ipykernel" in kinds
    assert "jupyterhub_idle_culler" in kinds and "krypteach.serve.hub_service" in kinds
    left = hub.stop()
    assert not left, f"still running after the hub stopped: {[p.cmdline() for p in left]}"
    assert hub.proc.returncode is not None
