"""``krypteach serve``: the lessons as a web app for a class (Voilà in this process).

The teacher runs one command; learners open the printed address and type the class
code once. See docs/classroom.md for every option and the measured limits.
"""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, _, language, use_language
from .gate import ClassGate, kernel_cap_from_memory, lan_address, new_class_code, normalize_code

__all__ = ["ServeOptions", "check_lessons", "lite_extensions", "serve", "voila_argv"]


@dataclass
class ServeOptions:
    folder: Path
    port: int = 8866
    host: str = "127.0.0.1"
    #: the page learners land on (a notebook file name in ``folder``), None for the file list
    start_page: str | None = None
    #: the lesson the teacher points the class to first (warmed like the start page)
    lesson: str | None = None
    #: None: a new random code; "" with ``open_door``: no code at all
    class_code: str | None = None
    open_door: bool = False
    class_size: int = 0
    max_kernels: int | None = None
    per_client: int = 5
    grace: float = 60.0
    allow_hosts: list[str] = field(default_factory=list)
    #: environment for the kernels (caps on long jobs)
    kernel_env: dict[str, str] = field(default_factory=dict)
    data_dir: Path | None = None
    #: where progress is kept: a SQLite file, ``postgresql://…``, None for the default file, "off" for nowhere
    progress: str | None = None
    #: opens the teacher's page; None: a new random code each start
    teacher_code: str | None = None
    #: the lesson pages shown (file names, in order); None: every notebook of the folder
    shown: list[str] | None = None
    #: the class's language: where ``/`` leads a new browser, the teacher's page, the pages kept warm
    language: str = DEFAULT_LANGUAGE
    #: the languages served, each in its own folder (``/voila/render/sv/00_start.ipynb``)
    languages: tuple[str, ...] = LANGUAGES
    #: the folder Voilà serves: one localized copy of ``folder`` per language (made by ``serve``)
    root: Path | None = None

    def page(self, name: str, lang: str | None = None) -> str:
        """A lesson's path under Voilà's root: ``sv/03_take_all.ipynb``."""
        return f"{lang or self.language}/{name}"


def pool_sizes(options: ServeOptions) -> dict[str, Any]:
    """Kernels kept warm per page: the page the class starts on (``--lesson``, else the
    start page) for the whole class, one for every other lesson of the class's language;
    in the other languages only the start page (a learner switching language lands there;
    their other pages open in a few seconds more)."""
    config: dict[str, Any] = {"default": {"pool_size": 1}}
    names = [p.name for p in sorted(options.folder.glob("*.ipynb"))]
    for lang in options.languages:
        for name in names:
            shown = options.shown is None or name in options.shown
            if not shown or (lang != options.language and name != options.start_page):
                config[options.page(name, lang)] = {"pool_size": 0}
    first = options.lesson or options.start_page
    if first and options.class_size > 1:
        config[options.page(first)] = {"pool_size": options.class_size}
    return config


def lite_extensions() -> list[str]:
    """The JupyterLite extensions installed beside Voilà (the static site's in-browser kernel,
    ``@jupyterlite/pyodide-kernel-extension``). Voilà would load every installed extension into a
    served page, and these need JupyterLite's own app: in Voilà's they stop with an error in the
    page's console. A served page's kernel is on the server, so they are left out."""
    try:
        from jupyterlab_server.config import get_federated_extensions
        from voila.utils import get_voila_labextensions_path  # type: ignore[import-untyped]
    except ImportError:
        return []
    found = get_federated_extensions(get_voila_labextensions_path())
    return sorted(name for name in found if name.startswith("@jupyterlite/"))


def voila_argv(options: ServeOptions) -> list[str]:
    """The Voilà options ``krypteach serve`` runs with (besides the culler, which is
    krypteach's own: see ``krypteach.serve.kernels``)."""
    return [
        str(options.root or options.folder),
        "--no-browser",
        f"--port={options.port}",
        f"--Voila.ip={options.host}",
        "--Voila.port_retries=0",
        "--template=krypteach",
        "--strip_sources=True",
        "--show_tracebacks=False",
        "--preheat_kernel=True",
        "--VoilaConfiguration.multi_kernel_manager_class=krypteach.serve.kernels.ClassroomKernelManager",
        # a busy machine delays a cell's output: wait for it, and fail loudly rather than
        # send a page without its game (nbclient gives up silently after 4 s by default)
        "--VoilaExecutor.iopub_timeout=60",
        "--VoilaExecutor.raise_on_iopub_timeout=True",
        # a crashed kernel comes back without the page's widgets: let it stay dead, so that
        # the page says so (krypteach/alive) instead of looking alive and not answering
        "--KernelManager.autorestart=False",
        # kernels talk over Unix sockets, not TCP ports: a class's kernels start at once, and
        # two of them picking the same free port left one page dead ("Address already in use")
        "--KernelManager.transport=ipc",
        # the built-in culler does not know the pool; krypteach.serve.kernels culls instead
        "--MappingKernelManager.cull_idle_timeout=0",
        # the static site's JupyterLite extensions are not for a served page (lite_extensions)
        *(f"--VoilaConfiguration.extension_denylist={name}" for name in lite_extensions()),
    ]


def lesson_titles(folder: Path, lang: str | None = None) -> dict[str, str]:
    """Lesson (file name without ``.ipynb``) -> its title: the course's own (in ``lang``, the
    language the folder is served in: the same words as the learner's start page), else the title
    of its first heading (a teacher's own notebook)."""
    import json

    from ..teaching.course import titles as course_titles

    with use_language(lang or language()):
        known = course_titles()
    titles = {}
    for path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
        if path.stem in known:  # "5 · Deals and klädda högen", not "5 · Deals" cut at its " ("
            titles[path.stem] = known[path.stem]
            continue
        title = path.stem
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError):
            cells = []
        for cell in cells:
            if cell.get("cell_type") == "markdown":
                text = "".join(cell.get("source", []))
                line = next((ln for ln in text.splitlines() if ln.startswith("#")), "")
                if line:
                    # "3 · Take all you can, or creep (ta in allt — eller krypa)" -> "3 · Take all you can, or creep"
                    title = line.lstrip("# ").strip().split(" (")[0]
                    break
        titles[path.stem] = title
    return titles


def check_lessons(folder: Path) -> None:
    """Every notebook of ``folder`` is a notebook ``serve`` can show, else one line that
    names the file (a SystemExit): not JSON, nested too deep, or not a notebook's shape."""
    import json

    for path in sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith(".")):
        why = None
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            why = e.strerror or str(e)
        except UnicodeDecodeError as e:
            why = _("not UTF-8 text (byte {n})").format(n=e.start)
        except RecursionError:
            why = _("nested too deep")
        except ValueError as e:
            why = _("not valid JSON ({reason})").format(reason=e)
        else:
            cells = nb.get("cells") if isinstance(nb, dict) else None
            if not isinstance(cells, list) or not all(
                    isinstance(c, dict) and isinstance(c.get("cell_type"), str)
                    and isinstance(c.get("source", ""), (str, list)) for c in cells):
                why = _("not a notebook (no list of cells)")
        if why is not None:
            raise SystemExit(_("krypteach serve: {file} is not a lesson notebook: {reason}").format(
                file=path, reason=why))


def open_progress(options: ServeOptions, data_dir: Path) -> Any:
    """The progress store ``serve`` keeps (None with ``--progress off``); a damaged file is moved aside."""
    from ..classroom.store import ProgressStore, StoreError

    if options.progress == "off":
        return None
    where = options.progress or os.environ.get("KRYPTEACH_PROGRESS") or str(data_dir / "progress.sqlite3")
    try:
        return ProgressStore(where)
    except StoreError as e:
        raise SystemExit(_("krypteach serve: {reason}").format(reason=e)) from None


def serve(options: ServeOptions) -> int:
    """Run the server until SIGTERM or Ctrl+C; every kernel is stopped on the way out."""
    import atexit
    import hashlib
    import hmac as hmac_
    import shutil
    import tempfile

    from traitlets.config import Config

    from ..classroom.session import ENV_KEY, ENV_STORE
    from ..i18n.notebooks import write_lessons
    from ..i18n.numbers import number
    from .app import SHARE, ClassroomVoila
    from .settings import ServeSettings, cookie_secret_file

    if options.open_door:
        code = None
    else:
        code = options.class_code or new_class_code()
    if options.language not in options.languages:
        raise SystemExit(_("krypteach serve: the class's language {language} is not among {languages}").format(
            language=options.language, languages=", ".join(options.languages)))
    check_lessons(options.folder)
    if options.root is None:  # every lesson in every language, from the one English structure
        options.root = Path(tempfile.mkdtemp(prefix="krypteach-pages-"))
        atexit.register(shutil.rmtree, options.root, True)
        write_lessons(options.folder, options.root, options.languages)
    sizes = pool_sizes(options)
    warm = sum(v["pool_size"] for k, v in sizes.items() if k != "default")
    warm += max(0, len(options.languages) * len(list(options.folder.glob("*.ipynb"))) - (len(sizes) - 1))
    fits = kernel_cap_from_memory() - warm
    if fits < 1:
        raise SystemExit(_("krypteach serve: the free memory holds no more than {kernels} kernels; "
                           "--class-size {size} would keep {warm} warm: lower --class-size").format(
                               kernels=warm + fits, size=options.class_size, warm=warm))
    max_kernels = options.max_kernels or fits
    gate = ClassGate(code=code, max_kernels=max_kernels, per_client=options.per_client,
                     extra_hosts=options.allow_hosts)
    start_url = f"/voila/render/{options.page(options.start_page)}" if options.start_page else "/"
    data_dir = options.data_dir or Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "krypteach"
    store = open_progress(options, data_dir)
    teacher_code = (options.teacher_code or new_class_code(8)) if store is not None else None
    if teacher_code and code and normalize_code(teacher_code) == normalize_code(code):
        raise SystemExit(_("krypteach serve: the teacher code must not be the class code"))
    secret = cookie_secret_file(data_dir)
    # the lines for the teacher, in the language serve was started in (krypteach.cli: --lang,
    # the classroom file's, else $KRYPTEACH_LANG); the server's callbacks run in other contexts
    says = language()

    def announce(port: int) -> None:
        with use_language(says):
            _announce(port)

    def _announce(port: int) -> None:
        local = f"http://127.0.0.1:{port}"
        # i18n: {languages} the languages served ("English and Svenska"), {language} the class's language
        print(_("krypteach serve: the lessons in {folder}, in {languages}; the class's language: {language}").format(
            folder=options.folder, languages=_(" and ").join(LANGUAGE_NAMES[x] for x in options.languages),
            language=LANGUAGE_NAMES[options.language]))
        print(_("Open {url}").format(url=f"{local}{start_url}"))
        if options.host in ("0.0.0.0", "", "::"):
            lan = lan_address()
            where = f"http://{lan}:{port}/" if lan else _("http://<this computer's address>:{port}/").format(port=port)
            print(_("Class: learners open {url}").format(url=where))
        elif options.host not in ("127.0.0.1", "localhost", "::1"):
            print(_("Class: learners open {url}").format(url=f"http://{options.host}:{port}/"))
        else:
            print(_("Only this computer can connect. For a class on the same network: krypteach serve --host 0.0.0.0"))
        if code:
            print(_("Class code: {code}   (learners type it once; --open turns it off on a private machine)").format(
                code=code))
        else:
            print(_("No class code (--open): anyone who can reach this computer can open the lessons"))
        if store is not None:
            print(_("Progress is kept in {where}. Teacher's page: {url} (teacher code: {code})").format(
                where=store.where if store.backend == "sqlite" else "PostgreSQL", url=f"{local}/krypteach/teacher",
                code=teacher_code))
            if store.notice:
                print(_("Note: {notice}").format(notice=store.notice))
        else:
            print(_("Progress is not kept (--progress off)."))
        print(_("Warming {warm} pages; at most {kernels} pages open at once. Ctrl+C stops.").format(
            warm=warm, kernels=max_kernels))
        sys.stdout.flush()

    def ready(kernels: int, seconds: float) -> None:
        with use_language(says):
            print(_("Ready for the class: {kernels} pages warm after {seconds} s").format(
                kernels=kernels, seconds=number(seconds)))
        sys.stdout.flush()

    # the kernels get it as text in their environment, and check tokens with those same bytes
    learner_key = hmac_.new(secret, b"krypteach learner", hashlib.sha256).hexdigest().encode()
    settings = ServeSettings(gate=gate, start_page=options.start_page, grace=options.grace,
                             on_listening=announce, on_ready=ready,
                             warm={k: v["pool_size"] for k, v in sizes.items() if k != "default"},
                             store=store, learner_key=learner_key, teacher_code=teacher_code,
                             titles=lesson_titles(options.root / options.language, options.language), shown=options.shown,
                             titles_by_language={lang: lesson_titles(options.root / lang, lang) for lang in options.languages},
                             language=options.language, languages=options.languages,
                             game_rules=options.kernel_env.get("KRYPTEACH_GAME_RULES"),
                             live_bot=options.kernel_env.get("KRYPTEACH_LIVE_BOT") or "careful",
                             live_replace_after=float(options.kernel_env.get("KRYPTEACH_LIVE_REPLACE_AFTER") or 60),
                             live_hints=options.kernel_env.get("KRYPTEACH_LIVE_HINTS") == "1")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(SHARE)] + [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p])
    os.environ.update(options.kernel_env)
    if store is not None:  # the kernels keep the page's progress in the same store, for the learner they are shown
        os.environ[ENV_KEY] = learner_key.decode()
        os.environ[ENV_STORE] = store.where
    config = Config()
    config.Voila.cookie_secret = secret
    # a page sends only clicks and short answers: a larger message is refused at the socket
    config.Voila.tornado_settings = {"websocket_max_message_size": 1 << 20}
    config.VoilaKernelManager.kernel_pools_config = pool_sizes(options)
    config.VoilaKernelManager.fill_delay = 5.0
    ClassroomVoila.krypteach = settings
    app = ClassroomVoila.instance(config=config)
    app.initialize(voila_argv(options))
    signal.signal(signal.SIGHUP, app._handle_signal_stop)
    app.start()
    return 0
