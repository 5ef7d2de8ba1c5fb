"""Shared fixtures: a private home for Jupyter/Chromium/matplotlib state, a served
lesson app (``krypteach serve`` on a free port), and Debian chromium for Playwright."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _private_env(base: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR",
                 "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "MPLCONFIGDIR", "IPYTHONDIR"):
        d = base / name.lower()
        d.mkdir(parents=True, exist_ok=True)
        env[name] = str(d)
    # keep the installed kernelspecs and extensions visible
    env.pop("JUPYTER_PATH", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


@pytest.fixture(scope="session")
def private_env(tmp_path_factory) -> dict[str, str]:
    """Environment variables that keep Jupyter, Chromium and matplotlib state in a temp folder."""
    return _private_env(tmp_path_factory.mktemp("home"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(url: str, proc: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"krypteach serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except Exception as e:
            last = e
        time.sleep(0.5)
    raise RuntimeError(f"krypteach serve did not answer {url} in {timeout}s: {last}")


#: the class code of the served app in the tests (a page URL with ``?class=KTTEST`` lets a browser in)
CLASS_CODE = "KTTEST"


class Server:
    """A ``krypteach serve`` process on a free port, with its log."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path, port: int | None = None):
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self._fh = open(log, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "krypteach", "serve", "--port", str(self.port), "--dir", str(LESSONS), *args],
            stdout=self._fh, stderr=subprocess.STDOUT, env=env, cwd=str(ROOT), start_new_session=True,
        )

    def wait_ready(self) -> Server:
        # a static URL: polling a notebook URL would start a kernel per request
        _wait_ready(f"{self.base}/krypteach/status", self.proc)
        return self

    def status(self) -> dict:
        import json

        with urllib.request.urlopen(f"{self.base}/krypteach/status", timeout=10) as r:
            return json.load(r)

    def text(self) -> str:
        self._fh.flush()
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._fh.close()


@contextlib.contextmanager
def serving(env: dict[str, str], log: Path):
    """``krypteach serve`` on the lessons at a free port (class code KTTEST) while the block
    runs; yields its base URL, and prints the end of its log if it logged a traceback."""
    server = Server(["--class-code", CLASS_CODE], env, log)
    try:
        server.wait_ready()
        yield server.base
    finally:
        server.stop()
        text = server.log.read_text(errors="replace")
        if "Traceback" in text:
            print("---- krypteach serve log ----\n" + text[-4000:])


@pytest.fixture(scope="session")
def served_app(private_env, tmp_path_factory):
    """Start ``krypteach serve`` on the lessons at a free port (class code KTTEST); yield its base URL."""
    with serving(private_env, tmp_path_factory.mktemp("serve") / "serve.log") as base:
        yield base


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Playwright launches Debian's chromium (never a downloaded browser)."""
    if not CHROMIUM:
        pytest.skip("Debian chromium is not installed (apt-get install -y chromium); browser tests skipped")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}}


def pytest_configure(config):
    """Keep the state that kernels (nbval) and matplotlib write out of $HOME. The folder goes when the
    process ends (13,000 of them were left in /tmp by runs of mutmut): by ``atexit``, registered before
    any IPython shell of the run registers its own, so it runs after that shell has written its history
    there (removed at the session's end, the history's write failed at exit)."""
    import atexit
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="krypteach-tests-"))
    atexit.register(shutil.rmtree, base, True)
    for name in ("JUPYTER_RUNTIME_DIR", "MPLCONFIGDIR", "IPYTHONDIR", "XDG_CACHE_HOME"):
        d = base / name.lower()
        d.mkdir(parents=True, exist_ok=True)
        os.environ.setdefault(name, str(d))


@pytest.fixture
def keep_progress(tmp_path, monkeypatch):
    """``keep_progress(lesson)``: this kernel's learner (Ann of class K7RPX) on ``lesson``, whose
    progress is kept in a fresh SQLite store; returns (store, learner id)."""
    import krypteach.classroom.session as session_module
    from krypteach.classroom.session import Session
    from krypteach.classroom.store import ProgressStore

    def keep(lesson: str):
        store = ProgressStore(tmp_path / "p.sqlite3")
        me = store.join("K7RPX", "Ann")
        monkeypatch.setattr(session_module, "_current",
                            Session(lesson=lesson, learner=me, nickname="Ann", class_code="K7RPX", store=store))
        return store, me
    return keep
