"""JupyterHub for krypteach on one bigger server: every learner logs in and lands on the
lessons in Voilà, in a single-user server of their own (docs/deploy.md).

    KRYPTEACH_HUB_PASSWORD='a class password' jupyterhub -f docs/deploy/jupyterhub_config.py

Everything below can be set with environment variables (defaults in brackets):

    KRYPTEACH_HUB_IP           the address learners open [127.0.0.1; 0.0.0.0 for the class]
    KRYPTEACH_HUB_PORT         its port [8000]
    KRYPTEACH_HUB_API_PORT     the hub's own port, on 127.0.0.1 [8081]
    KRYPTEACH_HUB_PROXY_API_PORT  the proxy's REST API, on 127.0.0.1 [8001]
    KRYPTEACH_HUB_STATE        the hub's database, cookie secret and pid file [./krypteach-hub]
    KRYPTEACH_HUB_HOMES        the learners' home folders [$KRYPTEACH_HUB_STATE/homes]
    KRYPTEACH_HUB_PASSWORD     the class password, at least 8 characters (required)
    KRYPTEACH_HUB_MEM_LIMIT    memory per process of a learner [1G]
    KRYPTEACH_HUB_CPU_LIMIT    cores per learner [1] (enforced by SystemdSpawner/DockerSpawner/KubeSpawner only)
    KRYPTEACH_HUB_CULL_TIMEOUT a server idle this many seconds is stopped [3600]
    KRYPTEACH_HUB_CULL_EVERY   the culler looks every this many seconds [timeout / 2, at most 300]
    KRYPTEACH_LESSONS          the lessons folder [the installed lessons, as `krypteach serve` finds them]
    KRYPTEACH_LANG             the class's language, sv or en: where a learner lands [en]; every lesson
                               is served in both (made at the hub's start into $KRYPTEACH_HUB_STATE/pages)
    KRYPTEACH_MAX_GIVAR, KRYPTEACH_MAX_JOB_SECONDS  caps on a page's long jobs [2000, 120]
    KRYPTEACH_HUB_PROGRESS     where learners' progress is kept: postgresql://… or a SQLite file [not kept]
    KRYPTEACH_HUB_CLASS        the class the hub's learners are in, in the progress store [HUB]
    KRYPTEACH_HUB_LIVE_IP, KRYPTEACH_HUB_LIVE_PORT  where the live class's service (the tables)
                               listens for the learners' servers [127.0.0.1, 8082]
    KRYPTEACH_HUB_RULES        the class's rule preset at the tables [plain Krypkasino]
    KRYPTEACH_HUB_LIVE_BOT, KRYPTEACH_HUB_LIVE_REPLACE_AFTER  the tables' bot, and the seconds
                               before it plays the seat of a learner whose page went [careful, 60]
    KRYPTEACH_HUB_LIVE_HINTS   1: a learner at a table may ask for a hint [no hints]

This file is tested by tests/test_jupyterhub.py (a hub on 127.0.0.1, two learners, a
live lesson each, the culler). It uses a process spawner that needs no system users,
made for one trusted machine: every learner's server runs as the user who runs the hub.
For a school, replace the spawner and the authenticator (docs/deploy.md).
"""

import os
import resource
import secrets
import signal
import sys
from pathlib import Path

from jupyterhub.spawner import SimpleLocalProcessSpawner

import krypteach
from krypteach.cli import lessons_dir
from krypteach.i18n import check_language
from krypteach.i18n.notebooks import write_lessons
from krypteach.play.limits import ENV_JOBS, ENV_MAX_GIVAR, ENV_MAX_SECONDS

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (given by JupyterHub)


def _env(name: str, default: str) -> str:
    return os.environ.get(name) or default


# A hub started in the background by a shell (`&`, nohup) inherits SIGINT ignored, and so do
# the servers and services it starts; it stops them with SIGINT first and waits 30 s for
# each before SIGTERM. Let SIGINT stop this process and its children again.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# --- where the hub keeps its state -----------------------------------------------------
state = Path(_env("KRYPTEACH_HUB_STATE", "krypteach-hub")).resolve()
state.mkdir(parents=True, exist_ok=True, mode=0o700)
homes = Path(_env("KRYPTEACH_HUB_HOMES", str(state / "homes"))).resolve()
homes.mkdir(parents=True, exist_ok=True)
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(state / "jupyterhub-proxy.pid")
# a new token each start (the hub starts and stops the proxy itself)
c.ConfigurableHTTPProxy.auth_token = os.environ.get("CONFIGPROXY_AUTH_TOKEN") or secrets.token_hex(32)

# --- addresses: learners reach the proxy; the hub and the proxy's API stay on 127.0.0.1 ---
c.JupyterHub.ip = _env("KRYPTEACH_HUB_IP", "127.0.0.1")
c.JupyterHub.port = int(_env("KRYPTEACH_HUB_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(_env("KRYPTEACH_HUB_API_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{int(_env('KRYPTEACH_HUB_PROXY_API_PORT', '8001'))}"
c.Spawner.ip = "127.0.0.1"
# stopping the hub stops every learner's server and the proxy (the default, said out loud)
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

# --- who may log in: one class password (JupyterHub's built-in shared-password login) ---
# Any name with the class password gets a server of its own. For a school use accounts:
# NativeAuthenticator (learners sign up, the teacher approves) or OAuthenticator with the
# school's Google / Microsoft login; see docs/deploy.md.
password = os.environ.get("KRYPTEACH_HUB_PASSWORD", "")
if len(password) < 8:
    sys.exit("jupyterhub_config.py: set KRYPTEACH_HUB_PASSWORD to a class password of at least 8 characters")
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = password
c.Authenticator.allow_all = True

# --- each learner's server: the lessons in Voilà ---------------------------------------
lessons = lessons_dir()  # $KRYPTEACH_LESSONS, the installed copy, or the source tree's lessons/
start = sorted(p.name for p in lessons.glob("00*.ipynb"))
language = check_language(_env("KRYPTEACH_LANG", "en"))
# every lesson in Swedish and English, from the one English structure (as `krypteach serve` does)
pages = state / "pages"
write_lessons(lessons, pages)
#: krypteach's Voilà template (no CDN in the page) lives in the package
share = Path(krypteach.__file__).resolve().parent / "serve" / "share" / "jupyter"


class KrypteachSpawner(SimpleLocalProcessSpawner):
    """A learner's server as a local process with a home under ``KRYPTEACH_HUB_HOMES``.

    The process spawners of JupyterHub do not enforce ``mem_limit``; this one caps each
    process of the learner (the Jupyter server, and every kernel it starts inherits the
    cap) with ``setrlimit(RLIMIT_DATA, mem_limit)``: an allocation past it fails with
    MemoryError instead of taking the machine's memory. It is a cap per process, not for
    the learner's processes together, and not for CPU (cgroups do that: SystemdSpawner,
    DockerSpawner, KubeSpawner).
    """

    def make_preexec_fn(self, name):  # type: ignore[no-untyped-def]
        home_setup = super().make_preexec_fn(name)
        cap = int(self.mem_limit or 0)

        def preexec() -> None:
            home_setup()
            if cap:
                resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))

        return preexec


c.JupyterHub.spawner_class = KrypteachSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(homes / "{username}")
c.Spawner.notebook_dir = str(pages)
c.Spawner.default_url = f"/voila/render/{language}/{start[0]}" if start else "/voila/tree"
c.Spawner.mem_limit = _env("KRYPTEACH_HUB_MEM_LIMIT", "1G")
c.Spawner.cpu_limit = float(_env("KRYPTEACH_HUB_CPU_LIMIT", "1"))
c.Spawner.environment = {
    "JUPYTER_PATH": str(share),
    "KRYPTEACH_LESSONS": str(lessons),
    "PYTHONUNBUFFERED": "1",
    # the caps on a page's long jobs (the variant lab), as `krypteach serve` sets them
    # (--max-givar 2000, --max-job-seconds 120, one process per job)
    ENV_MAX_GIVAR: _env(ENV_MAX_GIVAR, "2000"),
    ENV_MAX_SECONDS: _env(ENV_MAX_SECONDS, "120"),
    ENV_JOBS: "1",
}
# learners' progress: one database for every learner's server (the hub user is the learner);
# a PostgreSQL address for a school, a SQLite file for one server (docs/classroom.md)
if os.environ.get("KRYPTEACH_HUB_PROGRESS"):
    c.Spawner.environment["KRYPTEACH_PROGRESS"] = os.environ["KRYPTEACH_HUB_PROGRESS"]
    c.Spawner.environment["KRYPTEACH_CLASS"] = _env("KRYPTEACH_HUB_CLASS", "HUB")
# a busy machine starts a server in seconds, not minutes; a few learners at once
c.Spawner.start_timeout = 90
c.Spawner.http_timeout = 60
c.JupyterHub.concurrent_spawn_limit = 20
# the Voilà options and the rest of a learner's server: docs/deploy/singleuser_config.py
c.Spawner.args = [f"--config={Path(__file__).resolve().parent / 'singleuser_config.py'}"]
if hasattr(os, "geteuid") and os.geteuid() == 0:
    c.Spawner.args.append("--allow-root")

# --- the idle culler: a server nobody used for an hour is stopped ---------------------
cull_timeout = int(_env("KRYPTEACH_HUB_CULL_TIMEOUT", "3600"))
cull_every = int(_env("KRYPTEACH_HUB_CULL_EVERY", str(max(1, min(300, cull_timeout // 2)))))
c.JupyterHub.load_roles = [
    {
        "name": "jupyterhub-idle-culler-role",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["jupyterhub-idle-culler-service"],
    }
]
c.JupyterHub.services = [
    {
        "name": "jupyterhub-idle-culler-service",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                    f"--timeout={cull_timeout}", f"--cull-every={cull_every}"],
    }
]

# --- the live class: the tables where learners play each other, as the hub's service ------
# One process for the whole hub (krypteach/serve/hub_service.py): each learner has a server of
# their own, so the kernels at one table meet there. A kernel proves its learner with its
# server's own JUPYTERHUB_API_TOKEN, which the service checks with the hub; the finished givar
# go to the learners' progress store. The learners' servers reach it on 127.0.0.1: on several
# machines, give it an address they reach (KRYPTEACH_HUB_LIVE_IP).
live_ip = _env("KRYPTEACH_HUB_LIVE_IP", "127.0.0.1")
live_port = int(_env("KRYPTEACH_HUB_LIVE_PORT", "8082"))
live_env = {"PYTHONUNBUFFERED": "1"}
if os.environ.get("KRYPTEACH_HUB_PROGRESS"):
    live_env["KRYPTEACH_PROGRESS"] = os.environ["KRYPTEACH_HUB_PROGRESS"]
    live_env["KRYPTEACH_CLASS"] = _env("KRYPTEACH_HUB_CLASS", "HUB")
if os.environ.get("KRYPTEACH_HUB_RULES"):  # the class's rule preset, as the classroom file's [game] rules
    live_env["KRYPTEACH_RULES"] = os.environ["KRYPTEACH_HUB_RULES"]
# the bot of the empty seats, and the seconds before it plays a gone learner's seat ([live] of the classroom file)
for name in ("LIVE_BOT", "LIVE_REPLACE_AFTER", "LIVE_HINTS"):
    if os.environ.get(f"KRYPTEACH_HUB_{name}"):
        live_env[f"KRYPTEACH_{name}"] = os.environ[f"KRYPTEACH_HUB_{name}"]
c.JupyterHub.services.append({
    "name": "krypteach",
    "url": f"http://{live_ip}:{live_port}",
    "command": [sys.executable, "-m", "krypteach.serve.hub_service"],
    "environment": live_env,
})
c.Spawner.environment["KRYPTEACH_LIVE_URL"] = f"http://{live_ip}:{live_port}/krypteach"

# the hub asks the proxy for the learners' activity this often (the culler reads it)
c.JupyterHub.last_activity_interval = min(300, max(5, cull_every))
