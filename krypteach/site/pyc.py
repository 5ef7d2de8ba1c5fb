"""Python files compiled ahead for the static site (issue 25).

Pyodide's standard library (``python_stdlib.zip``) and the pure-Python wheels hold ``.py``
files only. Python imports a module from a zip without writing its bytecode anywhere, and a
browser's Python starts afresh on every page, so every page compiled every module it imported
again: the standard library, IPython, the widgets, krypteach. ``build-site`` runs this module
*inside the site's own Pyodide* (in Node.js, so the bytecode is that Python's), and each
``.py`` of a zip becomes a ``.pyc`` at the same place, with no source beside it, as Pyodide's
own ``pyodide py-compile`` does. The bytecode is of the unchecked hash-based kind (PEP 552):
Python never looks for a source to compare it with.

This file imports only the standard library: it is read as text and run by Pyodide.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import sys
import zipfile
from collections.abc import Collection
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]

__all__ = ["compile_zip", "imported_files", "record_line"]

_DATE = (1980, 1, 1, 0, 0, 0)


def record_line(name: str, data: bytes) -> str:
    """A wheel's RECORD line for the file ``name`` holding ``data`` (build.py's wheels use it too)."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compile_zip(src: str, dst: str, prefix: str, wheel: bool,
                only: Collection[str] | None = None) -> tuple[int, int]:
    """Write ``dst``: the zip ``src`` with each ``.py`` compiled to a sourceless ``.pyc``
    (``prefix`` + the ``.pyc``'s name is the file name its code reports: where the browser's
    Python finds it, the module's ``__file__``. Code that tells its own frames apart by file
    needs the two to agree: ipywidgets compares a frame's file with ``inspect.getfile`` of
    traitlets' ``HasTraits``, and where they differed it took each of the 1,000 looks traitlets
    makes at its widget classes while they are made for a user's use of a deprecated name, and
    walked the stack for a warning nobody saw, 0.15–0.2 s of every page's start). A file that
    does not compile (a template, Python 2) stays as it is. ``wheel``: also write the wheel's
    RECORD anew. ``only``: compile just these files (``prefix`` + name, as
    :func:`imported_files` gives them); the others stay source, which is smaller to send and
    compiled by the browser if a page ever imports it. Returns (files compiled, files kept as
    they are)."""
    chosen = None if only is None else set(only)
    out = io.BytesIO()
    compiled = kept = 0
    record: list[str] = []
    record_name = None
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            name, data = info.filename, zin.read(info)
            if wheel and name.endswith(".dist-info/RECORD"):
                record_name = name
                continue
            if name.endswith(".py") and chosen is not None and prefix + name not in chosen:
                kept += 1
            elif name.endswith(".py"):
                try:
                    code = compile(data, prefix + name + "c", "exec", dont_inherit=True)
                except (SyntaxError, ValueError):
                    kept += 1
                else:
                    name, data = name + "c", bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), False))
                    compiled += 1
            entry = zipfile.ZipInfo(name, date_time=_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = info.external_attr
            zout.writestr(entry, data, compresslevel=9)
            record.append(record_line(name, data))
        if wheel and record_name is not None:
            entry = zipfile.ZipInfo(record_name, date_time=_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            zout.writestr(entry, "\n".join([*record, f"{record_name},,"]) + "\n")
    with open(dst, "wb") as f:
        f.write(out.getvalue())
    return compiled, kept


def imported_files(first: list[str], walk: list[str], last: list[str]) -> list[str]:
    """The files of every module a lesson page's Python imports at its start, as far as this
    Python can tell: it imports ``first``, then every module of the packages ``walk`` (with an
    IPython shell, as a page has one), then ``last``; a module that fails to import is passed
    over (the kernel's own needs a browser). Sorted paths, as the modules report them."""
    import importlib
    import pkgutil

    def take(name: str) -> None:
        try:
            importlib.import_module(name)
        except Exception:  # what imports is what counts
            pass

    for name in first:
        take(name)
    try:
        from IPython.core.interactiveshell import InteractiveShell

        InteractiveShell.instance()
    except Exception:  # no shell: the widgets may still import
        pass
    for package in walk:
        take(package)
        module = sys.modules.get(package)
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + ".", onerror=lambda _n: None):
            take(info.name)
    for name in last:
        take(name)
    files = set()
    for module in list(sys.modules.values()):
        try:
            origin = getattr(module.__spec__, "origin", None)
        except Exception:  # a strange module whose attributes raise
            continue
        if isinstance(origin, str) and origin.endswith(".py"):
            files.add(origin)
    return sorted(files)
