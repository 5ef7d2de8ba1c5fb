"""Build the lessons as a static site: every lesson a voici page, Python in the browser.

voici (Voilà on JupyterLite) renders each lesson notebook to a page whose kernel is
Pyodide, CPython compiled to WebAssembly, running in the learner's browser. The site
is a folder of static files: ``python -m http.server``, any web host, a school's web
space under a sub-path, a USB stick.

What the in-browser kernel gets, and from where:

- **The Pyodide runtime**: by default from Pyodide's public CDN. ``pyodide=DIR`` uses a
  local Pyodide (a folder with ``pyodide.js`` and ``pyodide-lock.json``), copied into the
  site; ``pyodide="npm"`` assembles one from the npm package ``pyodide`` (its core runtime
  only: the interpreter and the standard library), so the site needs no internet at all.
- **Packages** come from the site's own Pyodide lock file (``static/krypteach/pyodide-lock.json``),
  which the kernel's ``loadPyodideOptions.lockFileURL`` names, and are loaded before the kernel
  starts (``loadPyodideOptions.packages``): krypteach's own wheel, made here from the
  installed package, and the pure-Python wheels it and the kernel need (ipywidgets,
  anywidget, psygnal, comm, IPython and its helpers, micropip, …), downloaded from PyPI
  at build time. With a local Pyodide, a package of Pyodide's lock whose file the local
  folder lacks is taken from PyPI as a pure wheel of the same version, or left out.
- **Not in the browser**: matplotlib (compiled; the npm package holds no Pyodide packages
  and PyPI has no pure wheel), so the plots say so in the page and the rest works; and
  Pyodide's ``sqlite3`` module (compiled, not on npm nor PyPI): an offline site gets a
  placeholder package of that name, so the kernel starts, IPython keeps its history in
  memory and krypteach keeps no progress store in the kernel.
  With the CDN, both come from the CDN as usual (matplotlib is still not asked for).
  Nor are matplotlib's own pure helpers (fonttools, pyparsing, …), nor jedi (IPython's
  completion, which a lesson page never asks for) and prompt_toolkit (IPython's terminal): an
  offline site gets a jedi and a prompt_toolkit that say they are not there, so IPython starts
  without them.
- **Compiled ahead** (issue 25): with a local Pyodide, what a page imports at its start (of the
  standard library and the wheels; krypteach and the kernel's wheels whole) is bytecode instead
  of source, compiled by that Pyodide in Node.js (:mod:`krypteach.site.pyc`), so a page's Python
  does not compile IPython, the widgets and krypteach again at every start; the rest stays
  source, which is smaller to send. Without Node.js the site is built as before and says so.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from html import escape
from importlib import metadata
from pathlib import Path
from typing import Any

from ..i18n import N_, _, language, ngettext, use_language
from ..views.icon import icon_png
from .pyc import record_line

__all__ = ["KERNEL_PACKAGES", "PYPI_PACKAGES", "SiteError", "SiteResult", "build_site", "npm_pyodide",
           "pyodide_version"]

#: Pyodide's packages (names in its lock file) that the kernel and the lessons need; their
#: dependencies in the lock come along
KERNEL_PACKAGES = ("micropip", "packaging", "ipython", "jedi", "traitlets", "tqdm", "typing-extensions")
#: what a local site leaves out of them: matplotlib (and with it its pure helpers, which nothing
#: else asks for) and jedi, whose place a placeholder takes (the kernel asks for it by name)
_NOT_LOCAL = ("matplotlib", "jedi", "prompt_toolkit")
#: pure-Python packages that are not in Pyodide's lock: from PyPI, at this machine's versions
#: (the site's front ends, ipywidgets' and anywidget's, are this machine's too)
PYPI_PACKAGES = ("comm", "ipywidgets", "anywidget", "psygnal", "fsrs")
#: what each of those needs at run time in the browser (their metadata asks for more: the
#: server side of Jupyter, which a browser kernel does not use)
_DEPENDS = {"comm": ["traitlets"], "ipywidgets": ["comm", "ipython", "traitlets"],
            "anywidget": ["ipywidgets", "psygnal", "typing-extensions"], "psygnal": [],
            "fsrs": ["typing-extensions"],  # the practice's spaced repetition (issue 23)
            "krypteach": ["ipywidgets", "anywidget", "traitlets", "tqdm", "fsrs"]}
#: loaded before the kernel starts (their dependencies too)
#: (the kernel loads micropip, installs piplite with it, then installs each of sqlite3, ipykernel,
#: comm, pyodide_kernel, jedi and ipython that is not named here, one after another, once
#: Pyodide has started: named here, they come in the one batch of the start, issue 25)
_PRELOAD = ["sqlite3", "krypteach", "comm", "ipython", "jedi", "micropip", "piplite", "ipykernel", "pyodide_kernel"]
#: the JupyterLite kernel's own wheels (in its extension's ``static/pypi``), with what they import
_KERNEL_WHEELS = {"piplite": ["micropip"], "ipykernel": ["comm"],
                  "pyodide-kernel": ["ipython", "comm", "ipykernel", "traitlets"]}
_KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
_CORE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
               "pyodide-lock.json")
_LOCK_DIR = "static/krypteach"
#: every page's kernel's environment: a home, "this is the static site", and one process for a
#: long job (the browser's Python starts none); the build's trace of a page's imports runs in it too
_ENV = {"HOME": "/home/pyodide", "KRYPTEACH_SITE": "1", "KRYPTEACH_JOBS": "1"}


class SiteError(Exception):
    """A site that cannot be built, with one sentence saying why and what to do."""


@dataclass
class SiteResult:
    out: Path
    pages: list[str]
    pyodide: str  #: "cdn" or "local"
    packages: list[str]  #: in the site's lock file
    left_out: list[str] = field(default_factory=list)  #: of Pyodide's packages the kernel would want
    size: int = 0
    #: why the site's Python files are not compiled ahead ("" when they are, or with the CDN)
    not_compiled: str = ""
    #: why later pages do not start Python from a snapshot ("" when they do, or with the CDN)
    no_snapshot: str = ""

    def summary(self) -> str:
        mb = self.size / 1e6
        where = _("Pyodide from its CDN") if self.pyodide == "cdn" else _("a local Pyodide (no internet needed)")
        text = ngettext("site written to {out}: {pages} lesson page, {mb} MB, {where}; open {index} through a web "
                        "server, e.g. {command}",
                        "site written to {out}: {pages} lesson pages, {mb} MB, {where}; open {index} through a web "
                        "server, e.g. {command}", len(self.pages)).format(
            out=self.out, pages=len(self.pages), mb=f"{mb:.1f}", where=where, index=self.out / "index.html",
            command=f"python -m http.server --bind 127.0.0.1 --directory {self.out}")
        if self.left_out:
            text += "\n" + _("not in the browser: {packages} (see docs/deploy.md)").format(
                packages=", ".join(self.left_out))
        if self.not_compiled:
            text += "\n" + _("the Python files are not compiled ahead ({why}): each page starts a few seconds "
                              "slower").format(why=self.not_compiled)
        if self.no_snapshot:
            text += "\n" + _("Python's memory after a page's start is not kept ahead ({why}): each later page "
                              "starts about a second slower").format(why=self.no_snapshot)
        return text


def pyodide_version() -> str:
    """The Pyodide version the installed JupyterLite Pyodide kernel is made for."""
    try:
        from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION  # type: ignore[import-untyped]
    except ImportError:
        raise SiteError(_("build-site needs voici and the JupyterLite Pyodide kernel: "
                          "pip install 'krypteach[site]'")) from None
    return str(PYODIDE_VERSION)


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "krypteach" / "site"


def npm_pyodide(dest: Path, version: str | None = None, cache: Path | None = None) -> Path:
    """The npm package ``pyodide`` (its core runtime) unpacked into ``dest``; returns ``dest``."""
    version = version or pyodide_version()
    cache = cache or _cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    tgz = cache / f"pyodide-{version}.tgz"
    if not tgz.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise SiteError(_("--pyodide npm needs npm (Node.js) to fetch the npm package pyodide: "
                              "apt-get install npm, or give --pyodide DIR"))
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run([npm, "pack", f"pyodide@{version}", "--pack-destination", tmp, "--silent"],
                                  capture_output=True, text=True)
            got = list(Path(tmp).glob("pyodide-*.tgz"))
            if done.returncode or not got:
                last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no file"]
                raise SiteError(_("npm pack pyodide@{version} failed: {why}").format(version=version, why=last[0]))
            shutil.move(str(got[0]), tgz)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tgz) as tar:
        for member in tar.getmembers():
            name = member.name.removeprefix("package/")
            if name in _CORE_FILES and member.isfile():
                source = tar.extractfile(member)
                assert source is not None
                (dest / name).write_bytes(source.read())
    return dest


def _check_pyodide_dir(folder: Path) -> None:
    if not folder.is_dir():
        what = (_("--pyodide {folder} is not a folder") if folder.exists() else
                _("--pyodide {folder} does not exist")).format(folder=folder)
        raise SiteError(_("{problem}: give a folder with pyodide.js and pyodide-lock.json, or npm").format(
            problem=what))
    for name in ("pyodide.js", "pyodide-lock.json"):
        if not (folder / name).is_file():
            raise SiteError(_("--pyodide {folder} holds no {name}: give a Pyodide distribution folder "
                              "(or npm, to assemble one from the npm package pyodide)").format(
                folder=folder, name=name))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _pip_download(specs: list[str], dest: Path) -> None:
    """Pure-Python wheels (py3-none-any) for Python 3.13 into ``dest`` (kept between builds)."""
    missing = []
    for spec in specs:
        name, _, version = spec.partition("==")
        stem = re.sub(r"[-_.]+", "_", name).lower()
        if not any(re.sub(r"[-_.]+", "_", p.name.split("-")[0]).lower() == stem and p.name.split("-")[1] == version
                   for p in dest.glob("*.whl")):
            missing.append(spec)
    if not missing:
        return
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version", "3.13",
           "--implementation", "py", "--abi", "none", "--platform", "any", "--disable-pip-version-check",
           "-q", "-d", str(dest), *missing]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        lines = [line for line in done.stderr.splitlines() if line.startswith("ERROR")] or done.stderr.splitlines()
        raise SiteError(_("cannot download the pure-Python wheels {wheels} from PyPI: {why}").format(
            wheels=" ".join(missing), why=(lines or ["pip failed"])[0]))


def _wheel_of(name: str, version: str, folder: Path) -> Path:
    stem = re.sub(r"[-_.]+", "_", name).lower()
    for p in sorted(folder.glob("*.whl")):
        parts = p.name.split("-")
        if re.sub(r"[-_.]+", "_", parts[0]).lower() == stem and parts[1] == version:
            return p
    raise SiteError(_("no wheel of {name} {version} in {folder}").format(name=name, version=version, folder=folder))


def _write_wheel(path: Path, name: str, version: str, files: Mapping[str, bytes], summary: str) -> Path:
    """A py3-none-any wheel of ``files`` (archive names → bytes), reproducible (fixed dates)."""
    dist = f"{name}-{version}.dist-info"
    meta = {
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n".encode(),
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: krypteach.site\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    entries = {**files, **meta}
    record = [record_line(n, d) for n, d in entries.items()] + [f"{dist}/RECORD,,"]
    entries[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in entries.items():
            info = zipfile.ZipInfo(n, date_time=(2020, 2, 2, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, d)
    return path


#: what a page's Python never imports or reads, left out of the browser's copy of krypteach: the
#: layers above the widgets (the server, this builder, the command line; docs/architecture.md),
#: the catalogs' sources (the pages read the compiled ``.mo`` files), and the English catalogs,
#: whose every text is the source's own (a missing catalog is gettext's identity, as English is)
_NOT_IN_BROWSER = ("serve", "site", "cli.py", "__main__.py", "_lessons")
_SOURCE_LANGUAGE_CATALOGS = ("i18n", "locale", "en")


def krypteach_wheel(dest: Path) -> Path:
    """krypteach's own wheel for the browser, made from the installed package (source tree or
    site-packages), without what no page uses (:data:`_NOT_IN_BROWSER`)."""
    import krypteach

    package = Path(krypteach.__file__).resolve().parent
    files = {}
    for p in sorted(package.rglob("*")):
        rel = p.relative_to(package)
        if (p.is_dir() or "__pycache__" in rel.parts or p.suffix in (".pyc", ".pyo", ".po", ".pot")
                or rel.parts[0] in _NOT_IN_BROWSER or rel.parts[:3] == _SOURCE_LANGUAGE_CATALOGS):
            continue
        files[f"krypteach/{rel.as_posix()}"] = p.read_bytes()
    version = krypteach.__version__
    return _write_wheel(dest / f"krypteach-{version}-py3-none-any.whl", "krypteach", version, files,
                        "Learn Krypkasino (the in-browser copy of a krypteach static site)")


def _sqlite3_placeholder(dest: Path) -> Path:
    note = (b"Pyodide's sqlite3 module is compiled and ships in Pyodide's full distribution only (not in the npm\n"
            b"package pyodide, not on PyPI). This offline site has none: the kernel starts without it, IPython\n"
            b"keeps its history in memory, krypteach keeps no progress store in the kernel.\n")
    return _write_wheel(dest / "sqlite3-1.0.0-py3-none-any.whl", "sqlite3", "1.0.0",
                        {"krypteach_sqlite3_placeholder.txt": note},
                        "placeholder: this offline site has no sqlite3 module")


def _kernel_wheels() -> list[Path]:
    """The JupyterLite Pyodide kernel's own wheels (piplite, its ipykernel, pyodide_kernel), from
    its installed JupyterLab extension."""
    from jupyter_core.paths import jupyter_path

    for root in jupyter_path("labextensions"):
        pypi = Path(root) / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
        found = [w for w in sorted(pypi.glob("*.whl")) if _norm(w.name.split("-")[0]) in _KERNEL_WHEELS]
        if len(found) == len(_KERNEL_WHEELS):
            return found
    raise SiteError(_("build-site needs voici and the JupyterLite Pyodide kernel: "
                      "pip install 'krypteach[site]'"))


#: the packages an offline site has a placeholder of, which raises ImportError saying why: jedi
#: (IPython's completion: a lesson page never completes code, and a browser compiled and imported
#: its 1.6 MB at every page's start) and prompt_toolkit (IPython's terminal: a lesson page has
#: none, and the site's IPython imports its terminal only when asked, ``_embed_later``); issue 25
#: (what its ImportError says, the build's note of what is not in the browser, marked with ``N_()``)
_PLACEHOLDERS = {
    "jedi": ("jedi is left out of this static site (IPython starts without completion)",
             N_("jedi (IPython's completion: the lesson pages do not use it)")),
    "prompt_toolkit": ("prompt_toolkit is left out of this static site (IPython's terminal; a lesson page has none)",
                       N_("prompt_toolkit (IPython's terminal: the lesson pages have none)")),
}


def _placeholder(dest: Path, name: str) -> Path:
    """A wheel of the package ``name`` (:data:`_PLACEHOLDERS`) whose import raises ImportError."""
    why = _PLACEHOLDERS[name][0]
    text = f'"""{why}."""\nraise ImportError({why!r})\n'.encode()
    return _write_wheel(dest / f"{name}-0.0.0-py3-none-any.whl", name, "0.0.0", {f"{name}/__init__.py": text},
                        f"placeholder: this static site has no {name}")


#: the pygments lexers a lesson page uses: IPython colours its tracebacks and its help with the
#: Python lexer, and "text" is every lexer's fallback. The other 500-odd (1.5 MB of pygments'
#: 1.85 MB wheel) are left out of the site, and out of pygments' table of lexers, so a name that
#: is asked for is "no such lexer" (pygments' ClassNotFound), not a missing module (issue 25)
PYGMENTS_LEXERS = ("python", "special")


def _pygments_cut(keep: Iterable[str] = PYGMENTS_LEXERS) -> tuple[Callable[[str], bool], dict[str, Callable[[bytes], bytes]]]:
    """How pygments' wheel is cut to the lexer modules ``keep`` (and the package's own
    ``__init__`` and ``_mapping``, whose table is cut to them): (the files to drop, the file to
    change), for :func:`_rewrite_wheel`."""
    modules = {"__init__", "_mapping", *keep}
    kept_names = {f"pygments.lexers.{m}" for m in modules}

    def drop(name: str) -> bool:
        return (name.startswith("pygments/lexers/") and name.endswith(".py")
                and name.removeprefix("pygments/lexers/").removesuffix(".py") not in modules)

    def cut(data: bytes) -> bytes:
        return _cut_lexer_table(data.decode("utf-8"), kept_names).encode("utf-8")

    return drop, {"pygments/lexers/_mapping.py": cut}


#: IPython's ``__init__`` imports its terminal's ``embed`` at once, and with it prompt_toolkit (0.7 MB
#: sent, about 0.1 s of every page's start), which a lesson page's kernel never uses: in the site,
#: ``IPython.embed`` imports the terminal when it is called (issue 25)
_IPYTHON_EMBED = b"from .terminal.embed import embed\n"
_IPYTHON_EMBED_LATER = (b"def embed(*args, **kwargs):  # krypteach build-site: the terminal is imported when asked for\n"
                        b"    from .terminal.embed import embed as terminal_embed\n"
                        b"    return terminal_embed(*args, **kwargs)\n")


def _embed_later(data: bytes) -> bytes:
    """IPython's ``__init__.py`` with its terminal's ``embed`` imported when called (as it is,
    if the line is not there: another IPython)."""
    return data.replace(_IPYTHON_EMBED, _IPYTHON_EMBED_LATER, 1)


def _slim_wheel(wheel: Path, key: str) -> int:
    """Rewrite a wheel of others' once for the site: without its tests and front ends; pygments
    cut to the lexers a page uses; IPython's terminal imported when asked. Returns the bytes saved."""
    drop: Callable[[str], bool] = _front_end_or_tests
    change: dict[str, Callable[[bytes], bytes]] = {}
    if key == "pygments":
        lexer, change = _pygments_cut()

        def drop(name: str) -> bool:
            return _front_end_or_tests(name) or lexer(name)
    elif key == "ipython":
        change = {"IPython/__init__.py": _embed_later}
    return _rewrite_wheel(wheel, drop, change)


def _front_end_or_tests(name: str) -> bool:
    """A wheel's file that no page's Python uses: a package's tests, or the JupyterLab and
    notebook front end it carries (the site has its own copy, in ``extensions/``)."""
    parts = name.split("/")
    return ("tests" in parts[1:-1] or "labextension" in parts[1:-1] or "nbextension" in parts[1:-1]
            or (parts[0].endswith(".data") and "share" in parts[1:3]))


def _rewrite_wheel(wheel: Path, drop: Callable[[str], bool],
                   change: Mapping[str, Callable[[bytes], bytes]] | None = None) -> int:
    """Rewrite ``wheel`` without the files ``drop`` names and with the files of ``change``
    changed; its RECORD names what is left, with their new hashes. Returns the bytes saved."""
    before = wheel.stat().st_size
    with zipfile.ZipFile(wheel) as z:
        items = [(info, z.read(info)) for info in z.infolist()]
    record_name = next((i.filename for i, _d in items if i.filename.endswith(".dist-info/RECORD")), None)
    changes = change or {}
    out = [(info, changes[info.filename](data) if info.filename in changes else data)
           for info, data in items if info.filename == record_name or not drop(info.filename)]
    body = {info.filename: data for info, data in out}
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in out:
            if info.filename == record_name:
                names = [line.split(",")[0] for line in data.decode("utf-8").splitlines()]
                lines = [record_line(n, body[n]) if n != record_name else f"{n},," for n in names if n in body]
                data = ("\n".join(lines) + "\n").encode("utf-8")
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return before - wheel.stat().st_size


def _cut_lexer_table(text: str, modules: set[str]) -> str:
    """pygments' ``_mapping.py`` with its ``LEXERS`` table cut to the lexers of ``modules``."""
    import ast

    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["LEXERS"]:
            table = ast.literal_eval(node.value)
            kept = {k: v for k, v in table.items() if v[0] in modules}
            lines = text.splitlines(keepends=True)
            head = "".join(lines[:node.lineno - 1])
            tail = "".join(lines[node.end_lineno or node.lineno:])
            return head + "LEXERS = " + repr(kept) + "\n" + tail
    raise SiteError(_("pygments' table of lexers was not found"))


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _closure(lock: Mapping[str, dict[str, Any]], names: Iterable[str], skip: Iterable[str] = ()) -> list[str]:
    seen: list[str] = []
    todo = [_norm(n) for n in names]
    skipped = {_norm(n) for n in skip}
    while todo:
        n = todo.pop()
        if n in seen or n not in lock or n in skipped:
            continue
        seen.append(n)
        todo.extend(_norm(d) for d in lock[n].get("depends", []))
    return sorted(seen)


def _entry(name: str, version: str, wheel: Path, file_name: str, depends: list[str], imports: list[str]) -> dict[str, Any]:
    return {"name": name, "version": version, "file_name": file_name, "install_dir": "site",
            "sha256": _sha256(wheel), "package_type": "package", "imports": imports, "depends": depends,
            "unvendored_tests": False, "shared_library": False}


def _site_lock(base_lock: dict[str, Any], *, local_dir: Path | None, cdn: str, lock_dir: Path,
               wheels: Path) -> tuple[dict[str, Any], list[str]]:
    """The site's lock file: Pyodide's packages (from the CDN, the local folder, or PyPI),
    krypteach and the pure-Python packages Pyodide lacks. Returns it and what was left out."""
    packages: dict[str, dict[str, Any]] = {}
    left_out: list[str] = []
    base = {_norm(k): v for k, v in base_lock["packages"].items()}
    wanted = _closure(base, KERNEL_PACKAGES, skip=() if local_dir is None else _NOT_LOCAL)
    if local_dir is None:  # the CDN has every package of the lock: name them all
        for key, e in base.items():
            packages[key] = {**e, "file_name": cdn + e["file_name"]}
    else:
        from_pypi = [k for k in wanted if not (local_dir / base[k]["file_name"]).is_file()
                     and base[k]["file_name"].endswith("-none-any.whl")]
        _pip_download([f"{base[k]['name']}=={base[k]['version']}" for k in from_pypi], wheels)
        for key in wanted:
            e = base[key]
            if (local_dir / e["file_name"]).is_file():
                packages[key] = {**e, "file_name": f"../pyodide/{e['file_name']}"}
            elif key in from_pypi:
                whl = _wheel_of(e["name"], e["version"], wheels)
                shutil.copy2(whl, lock_dir / whl.name)
                _slim_wheel(lock_dir / whl.name, key)
                packages[key] = {**e, "file_name": whl.name, "sha256": _sha256(lock_dir / whl.name)}
            elif key == "sqlite3":
                whl = _sqlite3_placeholder(lock_dir)
                packages[key] = _entry("sqlite3", "1.0.0", whl, whl.name, [], [])
                left_out.append(_("{name} (compiled; only in Pyodide's full distribution)").format(name="sqlite3"))
            else:
                left_out.append(_("{name} (compiled; only in Pyodide's full distribution)").format(name=e["name"]))
        for name, (_why, note) in _PLACEHOLDERS.items():
            whl = _placeholder(lock_dir, name)
            packages[_norm(name)] = _entry(name, "0.0.0", whl, whl.name, [], [])
            left_out.append(_(note))
        for e in packages.values():
            e["depends"] = [d for d in e.get("depends", []) if _norm(d) in packages]
    versions = {name: metadata.version(name) for name in PYPI_PACKAGES}
    _pip_download([f"{n}=={v}" for n, v in versions.items()], wheels)
    for name, version in versions.items():
        whl = _wheel_of(name, version, wheels)
        shutil.copy2(whl, lock_dir / whl.name)
        _slim_wheel(lock_dir / whl.name, name)
        packages[name] = _entry(name, version, lock_dir / whl.name, whl.name, _DEPENDS[name], [name])
    for whl in _kernel_wheels():
        name, version = whl.name.split("-")[:2]
        shutil.copy2(whl, lock_dir / whl.name)
        packages[_norm(name)] = _entry(_norm(name), version, whl, whl.name, _KERNEL_WHEELS[_norm(name)], [name])
    whl = krypteach_wheel(lock_dir)
    import krypteach

    packages["krypteach"] = _entry("krypteach", krypteach.__version__, whl, whl.name, _DEPENDS["krypteach"],
                                   ["krypteach"])
    plots = {base[k]["name"] for k in _closure(base, ["matplotlib"])}  # what IPython's plotting would want
    left_out = [n for n in left_out if n.split(" ")[0] not in plots]  # each note starts with the name
    left_out.append(_("matplotlib and numpy (compiled, no pure wheels: the plots say so)"))
    return {"info": base_lock["info"], "packages": packages}, left_out


def _node_why(done: subprocess.CompletedProcess[str]) -> str:
    """What a failed Node.js run said, in one line: its last line naming an error (Node.js prints the
    failing line of Pyodide's code above the error, a line of thousands of characters), else its last."""
    lines = [line.strip() for line in (done.stderr or done.stdout or "").splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"\w*(Error|Exception)\b", line)]
    return ((errors or lines)[-1:] or ["no output"])[0][:200]


def _node() -> str | None:
    """Node.js, which runs the site's own Pyodide at build time; None where it is not installed."""
    return shutil.which("node") or shutil.which("nodejs")


def _run_node(node: str, script: str, args: list[str],
              timeout: float | None = None) -> tuple[Any, subprocess.CompletedProcess[str]]:
    """Run ``script`` (a file beside this one) with ``node``: the last line it printed, read as JSON
    (None where it failed, printed no JSON, or gave no answer in ``timeout`` s), and the run."""
    try:
        done = subprocess.run([node, str(Path(__file__).with_name(script)), *args],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        done = subprocess.CompletedProcess([], 1, "", f"no answer in {timeout} s")
    lines = (done.stdout or "").strip().splitlines()
    try:
        return (json.loads(lines[-1]) if lines and not done.returncode else None), done
    except ValueError:
        return None, done


def _node_failed(done: subprocess.CompletedProcess[str]) -> str:
    return _("Node.js could not run the site's Pyodide: {why}").format(why=_node_why(done))


def _compile_ahead(pyodide_dir: Path, work: Path, zips: list[tuple[Path, str, bool, bool]],
                   trace: Mapping[str, Any] | None = None) -> str:
    """Compile each zip's Python files to bytecode in place (:mod:`krypteach.site.pyc`), in the
    site's own Pyodide run by Node.js; ``zips``: (file under ``work``, the folder its files are
    found in by the browser's Python, is it a wheel, only what a page imports at its start).
    ``trace``: how to find what a page imports (``py_compile.mjs``); without it, or when it
    fails, every file is compiled. Returns "" when done, else why not (the zips are then as
    they were)."""
    node = _node()
    if node is None:
        return _("Node.js is not installed")
    here = Path(__file__).resolve().parent
    jobs: list[tuple[str, str, str, bool, bool]] = [
        (z.relative_to(work).as_posix(), z.relative_to(work).as_posix() + ".pyc.zip", prefix, wheel, selective)
        for z, prefix, wheel, selective in zips]
    spec = work / "py_compile.json"
    spec.write_text(json.dumps({"code": (here / "pyc.py").read_text(encoding="utf-8"), "jobs": jobs,
                                **({"trace": dict(trace)} if trace else {})}), encoding="utf-8")
    counts, done = _run_node(node, "py_compile.mjs", [str(pyodide_dir), str(work), str(spec)])
    if not isinstance(counts, list) or len(counts) != len(jobs):
        for _src, dst, _p, _w, _s in jobs:
            (work / dst).unlink(missing_ok=True)
        return _node_failed(done)
    for src, dst, _p, _w, _s in jobs:
        os.replace(work / dst, work / src)
        (work / src).chmod(0o644)
    return ""


#: every wheel a page's kernel loads as it starts, in one file (issue 25): Pyodide's ``loadPackage``
#: unpacks each wheel with Python's zipfile, 0.3 s of a later page's start in the browser; the
#: page's worker writes this file's members into site-packages from JavaScript in 0.05–0.1 s
PACK = "packages.pack"
#: Python's memory once it has started and imported what a lesson page's kernel imports
#: (``snapshot.mjs``): a later page starts from it (Pyodide's ``_loadSnapshot``)
SNAPSHOT = "python.snapshot"


def kept_last(out: Path) -> dict[str, str]:
    """Where a page finds the pack and the snapshot the site's worker keeps last (``CACHE_LAST``),
    for those the build made: ``{PACK: "static/krypteach/packages.pack?v=…", …}``, each address
    naming its file's content (the first 16 hex digits of its SHA-256). A page's kernel worker
    reads them straight from the browser's cache, without the site's worker, which is busy with
    the page's other files as it opens: any cache holding that address holds that file, whichever
    build kept it."""
    found = {}
    for name in (PACK, SNAPSHOT):
        path = out / _LOCK_DIR / name
        if path.is_file():
            with path.open("rb") as f:
                found[name] = f"{_LOCK_DIR}/{name}?v={hashlib.file_digest(f, 'sha256').hexdigest()[:16]}"
    return found


#: modules that hold JavaScript objects (a snapshot cannot): the kernel's own and its package
#: manager, imported by each page after the snapshot
_NOT_IN_SNAPSHOT = ("pyodide_kernel", "micropip", "piplite", "js", "pyodide_js", "pyodide", "_pyodide")


def write_pack(lock_dir: Path, lock: Mapping[str, Any], names: Iterable[str]) -> Path | None:
    """Write ``lock_dir/packages.pack``: the files of the wheels of ``names`` and what they depend
    on (the site's lock), as they go into site-packages. The file is a 4-byte little-endian
    length, a JSON head of that length (``packages``: the lock's names, for Pyodide's
    ``loadedPackages``; ``files``: [path, start, end] in the data), then the data. Returns None
    (and writes nothing) where a wheel is not in ``lock_dir`` or holds a compiled library, which
    only Pyodide's ``loadPackage`` can load. A wheel's ``.data`` files (none that a page uses)
    are left out; a path two wheels hold is taken from the first."""
    entries = [lock["packages"][n] for n in _closure(lock["packages"], names)]
    files: list[list[Any]] = []
    blobs: list[bytes] = []
    seen: set[str] = set()
    at = 0
    for entry in entries:
        wheel = lock_dir / entry["file_name"]
        if not wheel.is_file():
            return None
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                name = info.filename
                if name.endswith(".so") or ".so." in name:
                    return None
                if info.is_dir() or name in seen or name.split("/")[0].endswith(".data"):
                    continue
                seen.add(name)
                data = z.read(info)
                files.append([name, at, at + len(data)])
                blobs.append(data)
                at += len(data)
    head = json.dumps({"packages": [e["name"] for e in entries], "files": files}, separators=(",", ":")).encode()
    out = lock_dir / PACK
    out.write_bytes(len(head).to_bytes(4, "little") + head + b"".join(blobs))
    return out


def read_pack(pack: Path) -> tuple[dict[str, Any], bytes]:
    """A pack as :func:`write_pack` wrote it: its head and its data."""
    raw = pack.read_bytes()
    n = int.from_bytes(raw[:4], "little")
    return json.loads(raw[4:4 + n]), raw[4 + n:]


def _wheels_in_pack(lock_dir: Path) -> list[str]:
    """The file names of the wheels whose files the pack holds (its head names their packages as
    the site's lock does)."""
    head, _ = read_pack(lock_dir / PACK)
    lock = json.loads((lock_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    names = set(head["packages"])
    return sorted(e["file_name"] for e in lock["packages"].values() if e["name"] in names)


#: what a lesson page's first cells do once per Python, done before the snapshot is taken (each is
#: kept by a cache of its own): both languages' catalogs read (a page may switch), the shipped
#: puzzles and their themes read, every card face drawn in both colour schemes
_WARM_PY = """\
from krypteach.engine.cards import full_deck
from krypteach.i18n import LANGUAGES, translator, use_language
from krypteach.teaching.puzzles import shipped_puzzles
from krypteach.teaching.puzzles.fresh import themes_of
from krypteach.views.svg import card_svg
for _lang in LANGUAGES:
    translator(_lang)
for _p in shipped_puzzles().values():
    themes_of(_p)
with use_language("en"):
    for _card in full_deck():
        card_svg(_card)
        card_svg(_card, four_color=True)
"""


def _make_snapshot(pyodide_dir: Path, lock_dir: Path, env: Mapping[str, str]) -> str:
    """Write ``lock_dir/python.snapshot`` (``snapshot.mjs``: the site's own Pyodide in Node.js,
    with ``lock_dir/packages.pack`` unpacked and a lesson page's imports done). Returns "" when
    written, else why not (and nothing is written)."""
    node = _node()
    if node is None:
        return _("Node.js is not installed")
    out = lock_dir / SNAPSHOT
    spec = lock_dir / "snapshot.json"
    spec.write_text(json.dumps({"pack": str(lock_dir / PACK), "out": str(out), "env": dict(env), "unpack": UNPACK_JS,
                                "roots": ["pyodide_kernel", *EARLY_IMPORTS],
                                "skip": list(_NOT_IN_SNAPSHOT), "warm": _WARM_PY}), encoding="utf-8")
    try:
        report, done = _run_node(node, "snapshot.mjs", [str(pyodide_dir), str(spec)], timeout=600)
    finally:
        spec.unlink(missing_ok=True)
    if not isinstance(report, dict) or not out.is_file() or out.stat().st_size != report.get("bytes"):
        out.unlink(missing_ok=True)
        return _node_failed(done)
    if report.get("warmed") is not True:
        # what a page's first cells do failed in the site's own Python: the pages would fail alike
        out.unlink(missing_ok=True)
        return _("the lesson pages' first work failed in the site's Python: {why}").format(
            why=report.get("warm_error") or _node_why(done))
    return ""


#: what a lesson page's Python imports at its start, for build-site to find the files it compiles
#: ahead (``pyc.imported_files``): the kernel's and the widgets' packages, what the kernel's own
#: modules import (they need a browser to import whole: pyodide_kernel's imports, read from its
#: source), what krypteach reads its data files with, krypteach's modules (as a page has an
#: IPython shell), then the kernel's own. A module a page imports that is not found here is
#: sent as source and compiled in the browser, as before build-site compiled ahead.
_TRACE_FIRST = ["IPython", "IPython.core.application", "IPython.core.shellapp", "IPython.display", "comm",
                "ipywidgets", "anywidget", "micropip", "micropip.package_index", "piplite.piplite", "piplite.cli",
                "argparse", "getpass", "shlex", "unittest.mock", "importlib.readers", "importlib.resources.readers"]
_TRACE_LAST = ["ipykernel", "pyodide_kernel"]


def _compile_site(pyodide_dir: Path, work: Path, lite: Path, lock_dir: Path, lock: dict[str, Any]) -> str:
    """The site's standard library and its own wheels compiled ahead; the lock's hashes follow.
    Of the standard library and the wheels of others, only the files a page imports at its
    start are compiled (bytecode is larger than source: 4.1 MB against 2.4 MB for the whole
    standard library); krypteach and the kernel's own wheels are compiled whole."""
    py = "".join(str(lock["info"].get("python", "3.13")).split(".")[:2])  # "313"
    site_packages = f"/lib/python{py[0]}.{py[1:]}/site-packages/"
    zips = [(lite / "static" / "pyodide" / "python_stdlib.zip", f"/lib/python{py}.zip/", False, True)]
    ours = {e["file_name"]: e for e in lock["packages"].values() if (lock_dir / e["file_name"]).is_file()}
    whole = {_norm(n) for n in ("krypteach", *_PLACEHOLDERS, *_KERNEL_WHEELS)}
    zips += [(lock_dir / name, site_packages, True, _norm(ours[name]["name"]) not in whole) for name in sorted(ours)]
    traced = {"info": lock["info"], "packages": {
        k: {**e, "file_name": os.path.relpath(pyodide_dir / e["file_name"].removeprefix("../pyodide/"), lock_dir)
            if e["file_name"].startswith("../pyodide/") else e["file_name"]} for k, e in lock["packages"].items()}}
    trace_lock = lock_dir / "trace-lock.json"
    trace_lock.write_text(json.dumps(traced), encoding="utf-8")
    trace = {"lock": trace_lock.relative_to(work).as_posix(), "packages": _PRELOAD,
             "env": _ENV,
             "first": _TRACE_FIRST, "walk": ["krypteach"], "last": _TRACE_LAST}
    try:
        why = _compile_ahead(pyodide_dir, work, zips, trace)
    finally:
        trace_lock.unlink(missing_ok=True)
    if not why:
        for name, e in ours.items():
            e["sha256"] = _sha256(lock_dir / name)
    return why


def _lite_config(pyodide_url: str | None, env: Mapping[str, str]) -> dict[str, Any]:
    kernel: dict[str, Any] = {
        "disablePyPIFallback": True,
        "loadPyodideOptions": {
            "lockFileURL": f"./{_LOCK_DIR}/pyodide-lock.json",
            "packages": _PRELOAD,
            "env": {**_ENV, **env},
        },
    }
    if pyodide_url:
        kernel["pyodideUrl"] = pyodide_url
    return {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "Krypkasino", "litePluginSettings": {_KERNEL_PLUGIN: kernel}}}


#: the voici template's icon font, from a CDN: the lesson pages use no icon of it, and an
#: offline site must ask nothing of another address
_CDN_CSS = re.compile(r'<link[^>]*href="https://cdn\.jsdelivr\.net/npm/@fortawesome/[^"]*"[^>]*>\n?')


#: links that the kernel writes at run time (the start page's lesson list, the rules sheet):
#: a lesson's notebook name goes to its page, the server's rules sheet to the site's copy
_LINKS_JS = """<script>/* krypteach build-site: links in a static site */
document.addEventListener("click", function (ev) {
  var a = ev.target && ev.target.closest ? ev.target.closest("a[href]") : null;
  if (!a) { return; }
  var href = a.getAttribute("href"), m = href.match(/^(?:\\.\\/)?([0-9][0-9]_[A-Za-z0-9_-]+)\\.ipynb(#.*)?$/);
  if (m) { ev.preventDefault(); window.location.href = m[1] + ".html" + (m[2] || ""); return; }
  if (href === "/krypteach/rules") { ev.preventDefault(); window.open("../../rules.html", a.target || "_self"); }
}, true);
</script>
"""


#: voici's own loading text (English, in its template), replaced by the site's language's
_LOADING_H2 = re.compile(r'<h2 id="loading_text">[^<]*</h2>')
_HTML_LANG = re.compile(r'<html lang="[^"]*"(?: class="kt-loading")?>')
_VOICI_JS = '<script src="../build/voici.js"></script>'


def _loading_js(lang: str) -> tuple[str, str]:
    """What a page says while its Python starts, in ``lang``: the first words (in the HTML) and
    a script that words voici's later messages (the kernel has connected; cell i of n runs)."""
    with use_language(lang):
        first = _("Loading the page…")
        starting = _("Starting Python in your browser… (the first visit takes a few seconds)")
        cells = _("Preparing the lesson: part {i} of {n}…")
    script = ("<script>/* krypteach build-site: what the page says while Python starts */\n"
              "(function () {\n"
              f"  var starting = {json.dumps(starting, ensure_ascii=False)}, cells = {json.dumps(cells, ensure_ascii=False)};\n"
              "  window.update_loading_text = function (i, n) {\n"
              "    var box = document.getElementById(\"loading\"), el = document.getElementById(\"loading_text\");\n"
              "    if (box && box.style.display === \"none\") { box.style.display = \"flex\"; }\n"
              "    if (el) { el.textContent = n ? cells.replace(\"{i}\", i).replace(\"{n}\", n) : starting; }\n"
              "  };\n"
              "})();\n</script>\n")
    return f'<h2 id="loading_text" role="status" aria-live="polite">{escape(first)}</h2>', script


#: how long after a lesson is shown its page asks the site's worker to keep the large files that
#: only make later pages start sooner (the pack and Python's snapshot: ``CACHE_LAST``)
KEEP_LAST_MS = 6000
#: after a lesson is drawn (voici's display_cells), the page asks the site's service worker to
#: keep what it loaded (and the rest a lesson needs, which the worker knows), off the first
#: draw's path; a browser without service workers (or with them blocked) skips it
_KEEP_JS = """<script>/* krypteach build-site: keep this lesson for offline use */
(function () {
  var shown = window.display_cells;
  function keep(last) {
    if (!("serviceWorker" in navigator)) { return; }
    navigator.serviceWorker.ready.then(function (reg) {
      var urls = [location.href].concat(performance.getEntriesByType("resource").map(function (e) { return e.name; }));
      if (reg.active) { reg.active.postMessage({type: "krypteach-keep", urls: last ? [] : urls, last: last}); }
    }).catch(function () {});
  }
  window.display_cells = function () {
    var r = shown.apply(this, arguments);
    setTimeout(function () { keep(false); }, 1000);
    setTimeout(function () { keep(true); }, __KEEP_LAST_MS__);  // the large files, once the lesson is being read
    return r;
  };
})();
</script>
"""
_KEEP_JS = _KEEP_JS.replace("__KEEP_LAST_MS__", str(KEEP_LAST_MS))
#: a lesson is read while its Python starts (issue 25): voici keeps the lesson hidden behind a
#: full-page spinner until every cell has run, and its app's shell (``#main``, over the whole
#: page) takes the lesson in only then. The site's pages show the lesson at once, under a thin
#: bar that says what is happening, with the shell out of sight (``kt-loading``, on the page's
#: ``<html>``) until voici shows the cells; each cell's output appears as it is ready, so a
#: lesson's first exercise answers before the cells after it have run. Where the shell takes the
#: lesson, the learner's place in it is kept
_SHOWN_CSS = ("<style>/* krypteach build-site: the lesson is read while Python starts */\n"
              ".kt-loading #main { visibility: hidden; }\n"
              ".kt-loading body { margin: 0; }\n"  # the lesson where the shell will hold it: no shift, the same lines
              "#loading { position: sticky; top: 0; height: auto; flex-direction: row; justify-content: flex-start;"
              " gap: 0.75em; padding: 0.35em 1em; background: var(--jp-layout-color1, #fff);"
              " border-bottom: 1px solid var(--jp-border-color2, #ccc); }\n"
              "#loading .spinner-container { width: 1.75em; flex: none; }\n"
              "#loading h2 { font-size: 1rem; margin: 0; font-weight: normal; }\n"
              "</style>")
_HIDDEN_CELLS = '<div id="rendered_cells" style="display: none">'
_SHOWN_JS = """<script>/* krypteach build-site: the lesson is shown while it runs; its place is kept */
(function () {
  var shown = window.display_cells;
  window.display_cells = function () {
    var y = window.scrollY, r = shown.apply(this, arguments);
    if (document.getElementById("loading")) { return r; }  // voici waits for its theme, and calls again
    document.documentElement.classList.remove("kt-loading");
    setTimeout(function () {  // the shell has taken the lesson in: where the learner was reading
      var el = document.getElementById("rendered_cells");
      while (el && el !== document.body && !(el.scrollHeight > el.clientHeight
             && /(auto|scroll)/.test(getComputedStyle(el).overflowY))) { el = el.parentElement; }
      if (el && el !== document.body && y) { el.scrollTop = y; }
    }, 0);
    return r;
  };
})();
</script>
"""
#: voici's scripts wait, on a first visit, until the site's service worker controls the page (a
#: few seconds at most), so they come through it as gzip copies and are kept as they load; before,
#: a first visit's ~4 MB of JavaScript came plain, beside the worker (issue 25). The worker is
#: registered as JupyterLite registers it (its address and query), and JupyterLite's note that it
#: has seen this worker is written, as its own first controlled page writes it, so it does not
#: unregister the worker it finds in control. voici starts on the window's load event, which may
#: have passed by then: a load listener added after it is called at once.
_GATE_JS = """<script>/* krypteach build-site: a first visit's scripts come through the site's worker */
(function () {
  var sw = navigator.serviceWorker, here = document.currentScript.parentNode, started = false;
  function start() {
    if (started) { return; }
    started = true;
    if (window.krypteachKernelWorker) { window.krypteachKernelWorker.start(); }  // a lesson page's Python starts now
    var s = document.createElement("script");
    s.src = "../build/voici.js";
    here.appendChild(s);
  }
  var listen = window.addEventListener;
  window.addEventListener = function (type, fn, options) {
    if (type === "load" && document.readyState === "complete") {
      setTimeout(function () {
        var ev = new Event("load");
        if (typeof fn === "function") { fn.call(window, ev); } else if (fn) { fn.handleEvent(ev); }
      }, 0);
      return;
    }
    return listen.call(this, type, fn, options);
  };
  if (!sw || sw.controller || !window.isSecureContext) { start(); return; }
  var config = {};
  try { config = JSON.parse(document.getElementById("jupyter-config-data").textContent); } catch (e) {}
  var url = new URL((config.baseUrl || "../../") + "service-worker.js", location.href);
  url.searchParams.set("enableCache", String(config.enableServiceWorkerCache || "false"));
  sw.addEventListener("controllerchange", function () {
    try {
      var key = sw.controller.scriptURL + "-version";
      if (!localStorage.getItem(key) && config.appVersion) { localStorage.setItem(key, config.appVersion); }
    } catch (e) {}
    start();
  });
  setTimeout(start, 3000);
  sw.register(url.href).then(function (reg) {
    if (!reg || !(reg.installing || reg.waiting)) { start(); }  // none to wait for, or one that will not claim
  }, start);
})();
</script>
"""
#: the kernel's Python starts as the page starts (issue 25): JupyterLite's Pyodide kernel makes its
#: Web Worker, and the worker starts Python, only once voici's scripts (about 4 MB) have loaded and
#: run, 0.4 s into a later page and 1.5 s into a first visit, with one of the machine's cores idle
#: meanwhile. The site's lesson pages make that worker at once (as soon as the site's service
#: worker controls the page, so its files come through it) and tell it the options the kernel will
#: give it (the site's jupyter-lite.json, resolved as JupyterLite resolves them), so Python's
#: WebAssembly, its standard library and the wheels load beside voici's scripts. The kernel takes
#: that worker instead of making one; the worker uses the Python it started only if the kernel's
#: options are the same, else it starts another, as before. ``window.krypteachEarlyStart`` says
#: which ("used", "different", or "none" where no early start was made)
_EARLY_PAGE_JS = """<script>/* krypteach build-site: the kernel's Python starts with the page */
(function () {
  var settings = __SETTINGS__, script = __WORKER__, worker = null;
  // a page the site's worker controls from its start is not a first visit: the worker may have kept
  // the pack and Python's snapshot (a first visit has none, and would only wait to be told so)
  var later = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  function resolve(url, root) { return url.indexOf("./") === 0 ? new URL(url.slice(2), root).href : new URL(url, location.href).href; }
  window.krypteachKernelWorker = {
    start: function () {
      if (worker || window.crossOriginIsolated || typeof Worker !== "function") { return; }
      try {
        var root = new URL("../../", location.href), o = {}, k;
        o.pyodideUrl = resolve(settings.pyodideUrl, root);
        o.indexUrl = o.pyodideUrl.slice(0, o.pyodideUrl.lastIndexOf("/") + 1);
        o.loadPyodideOptions = {};
        for (k in settings.loadPyodideOptions || {}) {
          var v = settings.loadPyodideOptions[k];
          o.loadPyodideOptions[k] = /URL$/.test(k) && typeof v === "string" ? new URL(v, root).href : v;
        }
        // the pack of the wheels wherever the site's worker controls the page, a first visit too
        // (the worker sends its gzip copy and keeps it as it passes); Python's snapshot only where
        // the worker may have kept it (build.py, startPython)
        if (settings.pack && navigator.serviceWorker && navigator.serviceWorker.controller) {
          o.pack = resolve(settings.pack, root);
        }
        if (later && settings.snapshot) { o.snapshot = resolve(settings.snapshot, root); }
        worker = new Worker(new URL(script, root).href + "#krypteach-early=" + encodeURIComponent(JSON.stringify(o)));
        worker.addEventListener("message", function (ev) {
          if (ev.data && ev.data.krypteachEarly) { window.krypteachEarlyStart = ev.data.krypteachEarly; }
          if (ev.data && ev.data.krypteachPython) {
            window.krypteachPythonFrom = ev.data.krypteachPython;
            window.krypteachPackFrom = ev.data.krypteachPack;
          }
        });
      } catch (err) { worker = null; }
    },
    take: function () { var w = worker; worker = null; return w; }
  };
})();
</script>
"""
#: the pack's files written into site-packages (:func:`write_pack`), and its packages marked as
#: loaded, so that the kernel's ``loadPackagesFromImports`` does not load them again: in a page's
#: worker, in ``snapshot.mjs`` and in the tests, the same function (``mark`` false: no marking, which
#: would put a JavaScript object in Python's memory and so forbid a snapshot)
UNPACK_JS = """function unpack(py, buf, mark) {
  var n = new DataView(buf).getUint32(0, true);
  var head = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 4, n)));
  var data = new Uint8Array(buf, 4 + n), made = {};
  var sp = py.runPython("import site; site.getsitepackages()[0]");
  head.files.forEach(function (f) {
    var where = sp + "/" + f[0], dir = where.slice(0, where.lastIndexOf("/"));
    if (!made[dir]) { py.FS.mkdirTree(dir); made[dir] = true; }
    py.FS.writeFile(where, data.subarray(f[1], f[2]));
  });
  py.runPython("import importlib; importlib.invalidate_caches()");
  if (mark !== false) { head.packages.forEach(function (name) { py.loadedPackages[name] = "default channel"; }); }
}"""
#: the same, in the kernel's worker: it starts Python with the options in its address, and its
#: ``initialize`` takes that Python when the kernel's options are the same
_EARLY_WORKER_JS = """/* krypteach build-site: Python starts as the page starts (issue 25) */
(function () {
  var early = null;
  function canon(v) {
    if (Array.isArray(v)) { return v.map(canon); }
    if (v && typeof v === "object") { var o = {}; Object.keys(v).sort().forEach(function (k) { o[k] = canon(v[k]); }); return o; }
    return v;
  }
  function key(o) { return JSON.stringify(canon([o.pyodideUrl, o.indexUrl, o.loadPyodideOptions || {}])); }
  function copy(o) { return JSON.parse(JSON.stringify(o)); }
  __UNPACK__
  // a file that the site's worker has kept, read from the browser's cache here, or null: never a
  // download. Its address names its content (build.py, kept_last), so any cache that holds it
  // holds the right file. Read through the site's worker it took 0.5 s of a page's start, the
  // worker being busy with the page's other files; read here, a third of that
  function kept(url) {
    if (!url || !self.caches) { return Promise.resolve(null); }
    return caches.match(url).then(function (r) { return r && r.ok ? r : null; }, function () { return null; });
  }
  // the pack as it comes through the site's worker, which sends its gzip copy (a third of the
  // wheels' Python unpacking them: issue 25) and keeps it; null where it cannot be had
  function fetched(url) {
    return fetch(url).then(function (r) { return r.ok ? r.arrayBuffer() : null; }, function () { return null; });
  }
  // Python started as the kernel starts it, or, where the page has the pack's address (the site's
  // worker controls it), with the wheels written from the pack (kept, or fetched meanwhile), and
  // from Python's snapshot where the worker has kept that too (a first visit has none). Resolves to
  // how Python started ("start" or "snapshot") and where the pack came from ("kept", "fetched" or
  // "none": the wheels)
  function startPython(kernel, options) {
    var plain = function () { return kernel.initRuntime(options).then(function () { return { python: "start", pack: "none" }; }); };
    return Promise.all([kept(options.pack), kept(options.snapshot)]).then(function (found) {
      if (!options.pack) { return plain(); }
      var from = found[0] ? "kept" : "fetched";
      var pack = found[0] ? found[0].arrayBuffer() : fetched(options.pack), lean = copy(options);
      lean.loadPyodideOptions.packages = [];
      if (found[1]) { lean.loadPyodideOptions._loadSnapshot = found[1].arrayBuffer(); }
      return kernel.initRuntime(lean).then(function () {
        if (found[1]) { kernel._pyodide.runPython("import random; random.seed()"); }  // each page its own random numbers
        return pack;
      }).then(function (buf) {
        if (buf) { unpack(kernel._pyodide, buf); return { python: found[1] ? "snapshot" : "start", pack: from }; }
        // no pack after all (the network gone): the wheels, as the kernel would have loaded them
        return kernel._pyodide.loadPackage(options.loadPyodideOptions.packages || []).then(function () {
          return { python: "start", pack: "none" };
        });
      });
    });
  }
  self.krypteachStart = function (kernel) {
    var m = /[#&]krypteach-early=([^&]*)/.exec(self.location.hash);
    if (!m) { return; }
    try {
      var options = JSON.parse(decodeURIComponent(m[1]));
      early = { kernel: kernel, key: key(options) };  // before Pyodide adds to the options' env
      early.started = startPython(kernel, options).then(function (how) {  // the kernel's module (IPython), the lessons' widgets
        self.postMessage({ krypteachPython: how.python, krypteachPack: how.pack });
        return kernel._pyodide.runPythonAsync("import pyodide_kernel").then(function () {
          return kernel._pyodide.runPythonAsync(__IMPORTS__);
        }).catch(function () {});  // (initialize says why, as before)
      });
      early.started.catch(function () {});
    } catch (err) { early = null; }
  };
  self.krypteachEarly = function (kernel, options) {
    if (!early || early.kernel !== kernel) { self.postMessage({ krypteachEarly: "none" }); return kernel.initRuntime(options); }
    var used = early.key === key(options), started = early.started;
    early = null;
    self.postMessage({ krypteachEarly: used ? "used" : "different" });
    if (used) { return started.catch(function () { return kernel.initRuntime(options); }); }
    return started.catch(function () {}).then(function () { return kernel.initRuntime(options); });
  };
})();
"""
#: what every lesson page's first cells import, imported while voici's scripts load: none of them
#: may make a widget as it is imported (a test keeps that true), since the kernel cannot send
#: one to the page yet
EARLY_IMPORTS = ("ipywidgets", "krypteach.widgets")
_EARLY_IMPORTS_PY = ("def _krypteach_early():\n    import importlib\n"
                     f"    for name in {EARLY_IMPORTS!r}:\n"
                     "        try:\n            importlib.import_module(name)\n"
                     "        except Exception:\n            pass\n"
                     "_krypteach_early()\ndel _krypteach_early\n")
#: the kernel's ``initPackageManager`` imports its package manager (piplite, and micropip with it: 0.1 s
#: of Python in Node.js, 0.15-0.2 s of a first visit's critical path in the browser) to give it the
#: site's settings; a lesson uses it only where a learner's cell asks for it (``%pip``, which imports
#: it then). The site's kernel gives the settings as piplite is imported (:func:`piplite_later_py`)
_PIPLITE_SETTINGS = re.compile(r"await this\._pyodide\.runPythonAsync\(`\\n      import piplite\.piplite\\n"
                               r"      piplite\.piplite\._PIPLITE_DISABLE_PYPI = \$\{(\w+)\?\"True\":\"False\"\}\\n"
                               r"      piplite\.piplite\._PIPLITE_URLS = \$\{JSON\.stringify\((\w+)\)\}\\n    `\)")
_PIPLITE_LATER_PY = """def _krypteach_piplite(disable, urls):
    import sys

    def settle(module):
        module._PIPLITE_DISABLE_PYPI = disable
        module._PIPLITE_URLS = urls

    class Settled:  # piplite's own loader, then its settings
        def __init__(self, loader):
            self.loader = loader

        def __getattr__(self, name):
            return getattr(self.loader, name)

        def create_module(self, spec):
            return self.loader.create_module(spec)

        def exec_module(self, module):
            self.loader.exec_module(module)
            settle(module)

    class Later:
        def find_spec(self, name, path=None, target=None):
            if name != "piplite.piplite":
                return None
            for finder in sys.meta_path:
                spec = None if finder is self else getattr(finder, "find_spec", lambda *a: None)(name, path, target)
                if spec is not None and spec.loader is not None:
                    spec.loader = Settled(spec.loader)
                    return spec
            return None

    if "piplite.piplite" in sys.modules:
        settle(sys.modules["piplite.piplite"])
    else:
        sys.meta_path.insert(0, Later())


_krypteach_piplite(__DISABLE__, __URLS__)
del _krypteach_piplite
"""


def piplite_later_py(disable: bool, urls: list[str]) -> str:
    """The Python that gives piplite the site's settings as it is imported (or at once, where
    something imported it before the kernel's ``initPackageManager`` ran), so that a page's kernel
    does not import it as it starts (:data:`_PIPLITE_SETTINGS`)."""
    return _PIPLITE_LATER_PY.replace("__DISABLE__", repr(disable)).replace("__URLS__", json.dumps(urls))


def _piplite_later_js(disable: str, urls: str) -> str:
    """:func:`piplite_later_py` as the kernel's worker runs it: a JavaScript template whose settings
    are the worker's variables ``disable`` and ``urls``, as in the code it replaces."""
    text = _PIPLITE_LATER_PY.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${").replace("\n", "\\n")
    text = text.replace("__DISABLE__", f'${{{disable}?"True":"False"}}').replace("__URLS__", f"${{JSON.stringify({urls})}}")
    return f"await this._pyodide.runPythonAsync(`{text}`)"


_KERNEL_EXTENSION = "extensions/@jupyterlite/pyodide-kernel-extension/static"
#: the kernel's ``initWorker``: the Web Worker it makes where the page is not cross-origin isolated
_INIT_WORKER = re.compile(r"initWorker\((\w+)\)\{return crossOriginIsolated\?(new Worker\(new URL\(\w+\.p\+\w+\.u\(\d+\),"
                          r"\w+\.b\),\{type:void 0\}\)):(new Worker\(new URL\((\w+)\.p\+\4\.u\((\d+)\),\4\.b\),\{type:void 0\}\))\}")
#: in that worker: ``initialize`` starting Python, and the kernel object made and exposed
_INIT_RUNTIME = re.compile(r"await this\.initRuntime\((\w+)\),await this\.initFilesystem\(\1\)")
_EXPOSED = re.compile(r"(\w+)=new (\w+);(\w+)\(\1\)\}(?=,\d+:)")


def _early_kernel(out: Path, last: Mapping[str, str]) -> str:
    """Patch JupyterLite's Pyodide kernel in the built site so that a lesson page can start the
    kernel's Python as it starts (:data:`_EARLY_PAGE_JS`); return that page script, or "" (with
    the kernel unchanged) where this kernel's code is not the code this was written for.
    ``last``: where the pack and the snapshot are kept (:func:`kept_last`)."""
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    kernel = config.get("litePluginSettings", {}).get(_KERNEL_PLUGIN, {})
    settings = {"pyodideUrl": kernel.get("pyodideUrl", ""), "loadPyodideOptions": kernel.get("loadPyodideOptions", {})}
    if PACK in last:
        settings["pack"] = f"./{last[PACK]}"
        if SNAPSHOT in last:
            settings["snapshot"] = f"./{last[SNAPSHOT]}"
    if not settings["pyodideUrl"]:
        return ""
    static = out / _KERNEL_EXTENSION
    found = []
    for bundle in sorted(static.glob("*.js")):
        text = bundle.read_text(encoding="utf-8")
        if len(_INIT_WORKER.findall(text)) == 1:
            found.append((bundle, text))
    if len(found) != 1:
        return ""
    bundle, text = found[0]
    chunk = _INIT_WORKER.search(text)[5]  # type: ignore[index]
    scripts = [p for p in static.glob(f"{chunk}.*.js") if re.fullmatch(rf"{chunk}\.[0-9a-f]+\.js", p.name)]
    if len(scripts) != 1:
        return ""
    worker = scripts[0].read_text(encoding="utf-8")
    if any(len(pattern.findall(worker)) != 1 for pattern in (_INIT_RUNTIME, _EXPOSED, _PIPLITE_SETTINGS)):
        return ""
    worker = _PIPLITE_SETTINGS.sub(lambda m: _piplite_later_js(m[1], m[2]), worker)
    worker = _INIT_RUNTIME.sub(lambda m: f"await(self.krypteachEarly?self.krypteachEarly(this,{m[1]}):this.initRuntime({m[1]})),"
                               f"await this.initFilesystem({m[1]})", worker)
    worker = _EXPOSED.sub(lambda m: f"{m[1]}=new {m[2]};self.krypteachStart&&self.krypteachStart({m[1]});{m[3]}({m[1]})}}",
                          worker)
    scripts[0].write_text(_EARLY_WORKER_JS.replace("__IMPORTS__", json.dumps(_EARLY_IMPORTS_PY))
                          .replace("__UNPACK__", UNPACK_JS) + worker, encoding="utf-8")
    bundle.write_text(_INIT_WORKER.sub(
        lambda m: f"initWorker({m[1]}){{return crossOriginIsolated?{m[2]}:"
                  f"(self.krypteachKernelWorker&&self.krypteachKernelWorker.take())||{m[3]}}}", text), encoding="utf-8")
    return (_EARLY_PAGE_JS.replace("__SETTINGS__", json.dumps(settings, ensure_ascii=False))
            .replace("__WORKER__", json.dumps(scripts[0].relative_to(out).as_posix())))


#: voici's share map: the module of the plugin that typesets LaTeX in markdown with MathJax
_MATHJAX_PLUGIN = re.compile(r'(\d+):\(\)=>\w+\("default","@jupyterlab/mathjax-extension",')
#: voici's start (its ``main`` chunk): the list of its own plugins, each a module required by number
_VOICI_PLUGINS = re.compile(r'window\.addEventListener\("load",\(async function\(\)\{const \w+=\[(.*?)\],\w+=\[\];')
#: what would need MathJax in a lesson: $…$, $$…$$, \(…\), \[…\], \begin{…}, or a cell showing LaTeX
_MATH = re.compile(r"\$[^$]+\$|\\\(|\\\[|\\begin\{|Latex|Math\(|HTMLMath|text/latex")


def _without_mathjax(out: Path, notebooks: Iterable[Path]) -> bool:
    """Leave MathJax out of the lesson pages where no lesson has mathematics in it; return whether
    it was left out.

    voici starts JupyterLab's MathJax plugin on every page and typesets each markdown cell with
    it as the page opens: nine chunks of MathJax (0.26 MB sent) loaded, compiled and run on the
    page's main thread while the kernel's Python starts, about 0.4 s of a first visit's CPU on
    this project's 2-core machine (docs/performance.md, "MathJax left out"). No lesson of this
    project has a formula. Where a lesson has one (a teacher's own notebook), or where voici's
    code is not the code this was written for, nothing is changed and every page typesets as before."""
    for notebook in notebooks:
        cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
        if any(_MATH.search("".join(cell.get("source", ""))) for cell in cells):
            return False
    build = out / "voici" / "build"
    entry = build / "voici.js"
    plugin = _MATHJAX_PLUGIN.findall(entry.read_text(encoding="utf-8")) if entry.is_file() else []
    if len(plugin) != 1:
        return False
    required = re.compile(rf"(?<![\w.])\w+\({plugin[0]}\),")
    starts = []  # the lesson page's start (the tree page's has its own list, without MathJax)
    for path in sorted(build.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for listed in _VOICI_PLUGINS.finditer(text):
            if required.search(listed[1]):
                starts.append((path, text, listed, required.findall(listed[1])))
    if len(starts) != 1 or len(starts[0][3]) != 1:
        return False
    path, text, listed, (call,) = starts[0]
    path.write_text(text[:listed.start(1)] + listed[1].replace(call, "", 1) + text[listed.end(1):], encoding="utf-8")
    return True


_MANIFEST_LINK = ('<link rel="manifest" href="../../manifest.webmanifest">'
                  '<meta name="theme-color" content="#1d6b3a">')
#: voici's page names no icon (an empty one, so the browser asks for none); the site's pages show its own
_VOICI_ICON = '<link rel="icon" href="data:;base64,=">'


def _icon_link(prefix: str = "") -> str:
    """The site's icon for a page at ``prefix`` from the site's root (``../../`` for a lesson)."""
    return f'<link rel="icon" type="image/png" sizes="192x192" href="{prefix}icons/krypkasino-{_ICONS[0]}.png">'


def _fix_pages(out: Path, pages: list[str], lang: str = "en", early: str = "") -> None:
    """A lesson's links to other lessons (``02_traffar.ipynb``) point at their pages (``.html``),
    no page loads a style sheet from a CDN, and the page says in ``lang`` what it is doing
    while its Python starts (voici says "Running ..." in English). ``early``: the script with
    which a lesson page starts its kernel's Python (:func:`_early_kernel`), if any."""
    names = "|".join(re.escape(p.removesuffix(".ipynb")) for p in pages)
    pattern = re.compile(rf'href=(["\'])(\./)?({names})\.ipynb(#[^"\']*)?\1')
    loading_h2, loading_js = _loading_js(lang)
    for page in [*(out / "voici" / "render").glob("*.html"), *(out / "voici" / "tree").glob("*.html")]:
        text = page.read_text(encoding="utf-8")
        new = pattern.sub(lambda m: f'href={m[1]}{m[2] or ""}{m[3]}.html{m[4] or ""}{m[1]}', text)
        new = _CDN_CSS.sub("", new)
        shown = _HIDDEN_CELLS in new or _SHOWN_JS in new  # a lesson page (voici's tree page has no cells)
        new = _HTML_LANG.sub(f'<html lang="{lang}" class="kt-loading">' if shown else f'<html lang="{lang}">', new,
                             count=1)
        new = new.replace(_HIDDEN_CELLS, '<div id="rendered_cells">', 1)
        new = _LOADING_H2.sub(lambda m: loading_h2, new, count=1)
        if loading_js not in new:
            new = new.replace(_VOICI_JS, loading_js + (_SHOWN_JS + early if shown else "") + _KEEP_JS + _GATE_JS, 1)
        new = new.replace(_VOICI_ICON, _icon_link("../../"))
        if _MANIFEST_LINK not in new:
            new = new.replace("</head>", (_SHOWN_CSS if shown else "") + _MANIFEST_LINK + "</head>", 1)
        if _LINKS_JS not in new:
            new = new.replace("</body>", _LINKS_JS + "</body>", 1)
        if new != text:
            page.write_text(new, encoding="utf-8")


def _index(out: Path, start: str | None, pages: list[str], lang: str | None = None) -> None:
    """``index.html``: to the start page (relative, so the site works under any sub-path), in
    ``lang`` (the site's language; default: the current one)."""
    target = f"voici/render/{(start or pages[0]).removesuffix('.ipynb')}.html"
    with use_language(lang or language()) as lang:
        start_here = escape(_("Krypkasino — start here"))  # (outside the f-string, where Babel finds it)
        (out / "index.html").write_text(
            f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Krypkasino</title>'
            f'<meta http-equiv="refresh" content="0; url={target}"><link rel="manifest" href="manifest.webmanifest">'
            f'{_icon_link()}</head>'
            f'<body><p><a href="{target}">{start_here}</a></p></body></html>\n',
            encoding="utf-8")


_ICONS = (192, 512)
_SW_TEMPLATE = Path(__file__).with_name("service-worker.js")


def _app(out: Path, pages: list[str], start: str, lang: str, last: Mapping[str, str]) -> str:
    """Make the site an installable app that works offline after one visit: icons, a web-app
    manifest, and a service worker whose cache is named by a hash of the build (returned).
    ``last``: the files the worker keeps last (:func:`kept_last`).

    JupyterLite's own worker (``service-worker.js``, registered by every page for the kernel's
    file system) becomes ``jupyterlite-service-worker.js``, and the site's worker, written in its
    place, loads it: one worker per scope, JupyterLite's requests still answered by its code."""
    icons = out / "icons"
    icons.mkdir(exist_ok=True)
    for size in _ICONS:
        (icons / f"krypkasino-{size}.png").write_bytes(icon_png(size))
    with use_language(lang):
        description = _("Learn Krypkasino, the Swedish card game: lessons, puzzles and games against the computer")
    manifest = {"name": "Krypkasino", "short_name": "Krypkasino", "description": description, "lang": lang,
                "start_url": f"./voici/render/{start.removesuffix('.ipynb')}.html", "scope": "./",
                "display": "standalone", "background_color": "#ffffff", "theme_color": "#1d6b3a",
                "icons": [{"src": f"./icons/krypkasino-{s}.png", "sizes": f"{s}x{s}", "type": "image/png",
                           "purpose": "any"} for s in _ICONS]}
    (out / "manifest.webmanifest").write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    jupyterlite_sw = out / "service-worker.js"
    if jupyterlite_sw.is_file():
        jupyterlite_sw.replace(out / "jupyterlite-service-worker.js")
    packed = _gzip_copies(out, skip={"service-worker.js", "jupyterlite-service-worker.js"})
    digest = hashlib.sha256()
    for p in sorted(out.rglob("*")):
        if p.is_file() and p != jupyterlite_sw:
            digest.update(p.relative_to(out).as_posix().encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    version = digest.hexdigest()[:16]
    later = [f"voici/render/{p.removesuffix('.ipynb')}.html" for p in pages]
    later += ["index.html", "rules.html", "manifest.webmanifest", *(f"icons/krypkasino-{s}.png" for s in _ICONS)]
    for folder in ("static/pyodide", _LOCK_DIR, "extensions/@jupyterlite/pyodide-kernel-extension/static/pypi"):
        later += sorted(p.relative_to(out).as_posix() for p in (out / folder).glob("*")
                        if p.is_file() and p.suffix != ".gz")  # a gzip copy is asked for in its file's stead
    later = [f for f in later if f.rsplit("/", 1)[-1] not in (PACK, SNAPSHOT)]
    if PACK in last:  # a page the worker controls takes its wheels from the pack: it is kept in their stead
        packed_wheels = {f"{_LOCK_DIR}/{name}" for name in _wheels_in_pack(out / _LOCK_DIR)}
        later = [f for f in later if f not in packed_wheels] + [last[PACK]]
    text = _SW_TEMPLATE.read_text(encoding="utf-8")
    text = (text.replace("__VERSION__", version).replace("__FILES__", json.dumps(later, indent=1))
            .replace("__LAST__", json.dumps(list(last.values()), indent=1))
            .replace("__GZIPPED__", json.dumps(packed, indent=1)))
    jupyterlite_sw.write_text(text, encoding="utf-8")
    return version


#: what a gzip copy is written for: text and WebAssembly of at least 20 KB that gzip makes at
#: least a fifth smaller (the wheels and the standard library's zip are compressed already)
_GZIP_SUFFIXES = (".wasm", ".js", ".html", ".json", ".css", ".svg", ".pack", ".snapshot")
_GZIP_MIN = 20_000


def _gzip_copies(out: Path, skip: set[str]) -> list[str]:
    """Write ``name.gz`` beside each file worth it (the service worker asks for those and unpacks
    them); return their paths, relative to ``out``. The copies are reproducible (no time in them)."""
    written = []
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        if not p.is_file() or p.suffix not in _GZIP_SUFFIXES or rel in skip or p.stat().st_size < _GZIP_MIN:
            continue
        data = p.read_bytes()
        # level 9 takes 9 s for Python's 36 MB snapshot, level 6 2 s for 1 % more
        packed = gzip.compress(data, compresslevel=9 if len(data) < 5_000_000 else 6, mtime=0)
        if len(packed) <= 0.8 * len(data):
            p.with_name(p.name + ".gz").write_bytes(packed)
            written.append(rel)
    return written


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def build_site(out: str | os.PathLike[str], lessons: Path, *, pyodide: str | None = None,
               shown: list[str] | None = None, env: Mapping[str, str] | None = None,
               cache: Path | None = None, quiet: bool = True) -> SiteResult:
    """Build the static site into ``out`` (a new or empty folder, or an earlier site).

    ``pyodide``: None (the CDN), ``"npm"`` (assemble a local Pyodide from npm) or a
    folder; ``shown``: the lesson files to put in (default: all); ``env``: environment
    variables for every page's kernel (the classroom file's game rules, bots, language)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SiteError(_("OUT {out} is a file: give a folder for the site (it is made if it does not exist)")
                        .format(out=out))
    if out.is_dir() and any(out.iterdir()) and not (out / "jupyter-lite.json").exists():
        raise SiteError(_("OUT {out} is a folder with other files in it: give a new or empty folder "
                          "(or an earlier site, which is replaced)").format(out=out))
    if not out.parent.is_dir():
        raise SiteError(_("OUT {out}: the folder {folder} does not exist").format(out=out, folder=out.parent))
    local: Path | None = None
    if pyodide not in (None, "npm"):
        local = Path(pyodide)
        _check_pyodide_dir(local)
        local = local.resolve()
    version = pyodide_version()
    try:
        import voici_core  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise SiteError(_("build-site needs voici: pip install 'krypteach[site]'")) from None
    pages = shown or sorted(p.name for p in lessons.glob("*.ipynb"))
    cache = cache or _cache_dir()
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="krypteach-site-") as tmp:
        work = Path(tmp)
        contents = work / "contents"
        contents.mkdir()
        from ..i18n import DEFAULT_LANGUAGE, check_language
        from ..i18n.notebooks import localize_notebook

        lang = check_language((env or {}).get("KRYPTEACH_LANG") or DEFAULT_LANGUAGE)
        for name in pages:  # the lessons in the site's language, from the one English structure
            nb = localize_notebook(json.loads((lessons / name).read_text(encoding="utf-8")), lang)
            (contents / name).write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")
        lite = work / "lite"
        lock_dir = work / "lock"
        lock_dir.mkdir(parents=True)
        if pyodide == "npm":
            local = npm_pyodide(work / "npm-pyodide", version, cache)
        if local is not None:
            core = lite / "static" / "pyodide"
            core.mkdir(parents=True)
            for name in _CORE_FILES:
                if (local / name).is_file():
                    shutil.copy2(local / name, core / name)
            base_lock = json.loads((local / "pyodide-lock.json").read_text(encoding="utf-8"))
        else:
            base_lock = json.loads((npm_pyodide(work / "npm-pyodide", version, cache) / "pyodide-lock.json")
                                   .read_text(encoding="utf-8"))
        lite.mkdir(exist_ok=True)
        cdn = f"https://cdn.jsdelivr.net/pyodide/v{version}/full/"
        lock, left_out = _site_lock(base_lock, local_dir=local, cdn=cdn, lock_dir=lock_dir, wheels=wheels)
        if local is not None:  # the full distribution's other files the lock names
            for e in lock["packages"].values():
                if e["file_name"].startswith("../pyodide/"):
                    shutil.copy2(local / e["file_name"].removeprefix("../pyodide/"),
                                 lite / "static" / "pyodide" / e["file_name"].removeprefix("../pyodide/"))
        not_compiled = ""
        if local is not None:
            not_compiled = _compile_site(local, work, lite, lock_dir, lock)
        (lock_dir / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True), encoding="utf-8")
        config = _lite_config(None if local is not None else f"{cdn}pyodide.js", dict(env or {}))
        no_snapshot = ""
        if local is not None:
            if write_pack(lock_dir, lock, _PRELOAD) is None:
                no_snapshot = _("a wheel a page loads is not in the site")
            else:
                no_snapshot = _make_snapshot(local, lock_dir, config["jupyter-config-data"]["litePluginSettings"]
                                             [_KERNEL_PLUGIN]["loadPyodideOptions"]["env"])
        (lite / "jupyter-lite.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
        build_out = work / "site"
        # voici_core/__main__.py imports a module "voici" that voici-core does not have: call its main
        cmd = [sys.executable, "-c", "import sys; from voici_core.app import main; sys.exit(main())", "build", "--contents", str(contents), "--output-dir",
               str(build_out), "--lite-dir", str(lite), "--no-sourcemaps", "--show_tracebacks=False"]
        done = subprocess.run(cmd, cwd=lite, capture_output=True, text=True, env={**os.environ, "PYTHONUTF8": "1"})
        if done.returncode or not (build_out / "jupyter-lite.json").exists():
            tail = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()][-3:]
            raise SiteError(_("voici build failed ({code}): {why}").format(code=done.returncode, why=" | ".join(tail)))
        if not quiet:
            print(done.stdout[-2000:])
        shutil.copytree(lock_dir, build_out / _LOCK_DIR, dirs_exist_ok=True)
        last = kept_last(build_out)
        _without_mathjax(build_out, [contents / name for name in pages])
        _fix_pages(build_out, pages, lang, _early_kernel(build_out, last))
        start = next((p for p in pages if p.startswith("00")), None)
        _index(build_out, start, pages, lang)
        from ..i18n import use_language
        from ..views.rules_sheet import rules_sheet_html

        with use_language(lang):
            sheet = rules_sheet_html()
            (build_out / "rules.html").write_text(sheet.replace("</head>", _icon_link() + "</head>", 1), encoding="utf-8")
        _app(build_out, pages, start or pages[0], lang, last)
        if out.exists():
            shutil.rmtree(out)
        shutil.move(str(build_out), out)
    return SiteResult(out=out, pages=pages, pyodide="local" if local is not None or pyodide == "npm" else "cdn",
                      packages=sorted(lock["packages"]), left_out=left_out, size=_size(out),
                      not_compiled=not_compiled, no_snapshot=no_snapshot)
