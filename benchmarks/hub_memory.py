"""Memory of one learner under JupyterHub: a hub from docs/deploy/jupyterhub_config.py on
127.0.0.1, learners logged in with the class password, each with a lesson open in
headless Chromium (the lesson's widgets drawn and a card clicked), then the RSS and USS
(psutil) of each learner's single-user server and of the kernel of the open page.

    python benchmarks/hub_memory.py --lessons 00 07 09

One learner per lesson, one after the other (the servers of the earlier ones keep running,
so the machine is as it is with a class). All state in a temp folder; the hub is stopped
at the end. Figures: docs/deploy.md.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import requests

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "krypteach-bench-1"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mib(n: float) -> str:
    return f"{n / 2**20:.0f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lessons", nargs="+", default=["00", "07", "09"], help="lesson numbers, one learner each")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds to wait after the click before measuring")
    args = ap.parse_args()
    lessons = ROOT / "lessons"
    names = []
    for number in args.lessons:
        found = sorted(p.name for p in lessons.glob(f"{int(number):02d}*.ipynb"))
        if not found:
            sys.exit(f"no lesson {number}")
        names.append(found[0])

    base = Path(tempfile.mkdtemp(prefix="krypteach-hub-memory-"))
    env = dict(os.environ)
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR",
                 "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        (base / name.lower()).mkdir()
        env[name] = str(base / name.lower())
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env.update(KRYPTEACH_HUB_PORT=str(port), KRYPTEACH_HUB_API_PORT=str(free_port()),
               KRYPTEACH_HUB_PROXY_API_PORT=str(free_port()), KRYPTEACH_HUB_STATE=str(base / "state"),
               KRYPTEACH_HUB_PASSWORD=PASSWORD, KRYPTEACH_LESSONS=str(lessons))
    log = open(base / "hub.log", "w")
    hub = subprocess.Popen(["jupyterhub", "-f", str(ROOT / "docs/deploy/jupyterhub_config.py")], env=env,
                           cwd=base, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    from playwright.sync_api import sync_playwright

    rows = []
    hub_rss: dict[str, int] = {}
    try:
        for _ in range(120):
            try:
                if requests.get(f"{url}/hub/api/", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                time.sleep(0.5)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            for i, lesson in enumerate(names):
                user = f"learner{i}"
                ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith((url, "data:", "blob:"))
                          else r.abort())
                page = ctx.new_page()
                page.goto(f"{url}/hub/login", timeout=60_000)
                page.fill("#username_input", user)
                page.fill("#password_input", PASSWORD)
                t0 = time.monotonic()
                page.click("#login_submit")
                page.wait_for_url("**/voila/render/**", timeout=120_000)
                page.goto(f"{url}/user/{user}/voila/render/{lesson}", timeout=120_000)
                page.locator(".kt-card").first.wait_for(timeout=120_000)
                ready = time.monotonic() - t0
                card = page.locator(".kt-selectable .kt-card").first
                if card.count():
                    card.click()
                time.sleep(args.settle)
                kid = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
                server = next(p for p in psutil.Process(hub.pid).children(recursive=True)
                              if "jupyterhub-singleuser" in " ".join(p.cmdline()) and p.environ().get("JUPYTERHUB_USER") == user)
                kernels = [k for k in server.children(recursive=True) if "ipykernel" in " ".join(k.cmdline())]
                mine = [k for k in kernels if any(f"kernel-{kid}.json" in a for a in k.cmdline())]
                s_mem = server.memory_full_info()
                k_mem = mine[0].memory_full_info() if mine else None
                rows.append((user, lesson, ready, s_mem.rss, s_mem.uss, k_mem.rss if k_mem else 0,
                             k_mem.uss if k_mem else 0, len(kernels)))
                # the first page (the start lesson, from the login) stays open in the server
                # until its kernel is culled: measure with the lesson only, as a learner has it
                ctx.close()
            shared = [psutil.Process(hub.pid)] + [p for p in psutil.Process(hub.pid).children()
                                                  if "jupyterhub-singleuser" not in " ".join(p.cmdline())]
            hub_rss = {(" ".join(p.cmdline()[:3]))[-40:]: p.memory_info().rss for p in shared}
            browser.close()
    finally:
        try:
            os.killpg(hub.pid, signal.SIGTERM)
            hub.wait(timeout=60)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        log.close()
    print(f"{'learner':10} {'lesson':22} {'ready s':>7} {'server RSS':>10} {'USS':>5} {'kernel RSS':>10} {'USS':>5}"
          f" {'sum RSS':>7} {'kernels':>7}   (MiB)")
    for user, lesson, ready, srss, suss, krss, kuss, n in rows:
        print(f"{user:10} {lesson:22} {ready:7.1f} {mib(srss):>10} {mib(suss):>5} {mib(krss):>10} {mib(kuss):>5}"
              f" {mib(srss + krss):>7} {n:>7}")
    for what, rss in hub_rss.items():
        print(f"shared by all learners: {what:40} RSS {mib(rss)} MiB")
    print(f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB; log {base / 'hub.log'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
