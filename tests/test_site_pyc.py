"""krypteach.site.pyc: a zip's Python files compiled ahead for the static site (issue 25).

build-site runs it inside the site's own Pyodide; here CPython runs it, so its bytecode is
CPython's and can be imported here: the same code, the same zip layout."""

from __future__ import annotations

import base64
import hashlib
import importlib
import sys
import zipfile
from pathlib import Path

import pytest

from krypteach.site.pyc import compile_zip


def _wheel(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ktpyc_demo/__init__.py", "from .part import answer\n")
        z.writestr("ktpyc_demo/part.py", "def answer():\n    raise ValueError('forty-two')\n")
        z.writestr("ktpyc_demo/template.py", "print 'python 2'\n")  # does not compile: kept as it is
        z.writestr("ktpyc_demo/data.txt", "kept")
        z.writestr("ktpyc_demo-1.0.dist-info/METADATA", "Name: ktpyc_demo\n")
        z.writestr("ktpyc_demo-1.0.dist-info/RECORD", "stale\n")
    return path


def _record_names(z: zipfile.ZipFile, record_name: str) -> set[str]:
    """The files a wheel's RECORD names, after checking each line's hash and size against the
    file and that the RECORD names itself last, without a hash."""
    record = z.read(record_name).decode().splitlines()
    for line in record[:-1]:
        name, digest, size = line.split(",")
        data = z.read(name)
        assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert int(size) == len(data)
    assert record[-1] == f"{record_name},,"
    return {line.split(",")[0] for line in record}


def test_each_py_becomes_a_sourceless_pyc_that_imports_and_reports_where_it_is_found(tmp_path, monkeypatch):
    src, dst = _wheel(tmp_path / "demo.whl"), tmp_path / "out.whl"
    assert compile_zip(str(src), str(dst), "/lib/site/", True) == (2, 1)
    with zipfile.ZipFile(dst) as z:
        names = z.namelist()
        assert sorted(names) == ["ktpyc_demo-1.0.dist-info/METADATA", "ktpyc_demo-1.0.dist-info/RECORD",
                                 "ktpyc_demo/__init__.pyc", "ktpyc_demo/data.txt", "ktpyc_demo/part.pyc",
                                 "ktpyc_demo/template.py"]
        assert z.read("ktpyc_demo/data.txt") == b"kept"
        assert _record_names(z, "ktpyc_demo-1.0.dist-info/RECORD") == set(names)
    monkeypatch.syspath_prepend(str(dst))
    try:
        demo = importlib.import_module("ktpyc_demo")
        with pytest.raises(ValueError, match="forty-two") as raised:
            demo.answer()
        assert raised.traceback[-1].frame.code.raw.co_filename == "/lib/site/ktpyc_demo/part.pyc"  # its __file__ there
    finally:
        for name in ("ktpyc_demo", "ktpyc_demo.part"):
            sys.modules.pop(name, None)


def test_a_zip_that_is_not_a_wheel_keeps_no_record_and_the_same_input_gives_the_same_bytes(tmp_path):
    src = tmp_path / "lib.zip"
    with zipfile.ZipFile(src, "w") as z:
        z.writestr("mod.py", "X = 1\n")
        z.writestr("pkg/RECORD", "not a wheel's")
    one, two = tmp_path / "one.zip", tmp_path / "two.zip"
    assert compile_zip(str(src), str(one), "/lib/python313.zip/", False) == (1, 0)
    compile_zip(str(src), str(two), "/lib/python313.zip/", False)
    assert one.read_bytes() == two.read_bytes()
    with zipfile.ZipFile(one) as z:
        assert sorted(z.namelist()) == ["mod.pyc", "pkg/RECORD"] and z.read("pkg/RECORD") == b"not a wheel's"


def test_without_node_or_with_a_pyodide_node_cannot_run_the_zips_stay_as_they_were(tmp_path, monkeypatch):
    import shutil

    from krypteach.site import build

    src = _wheel(tmp_path / "demo.whl")
    before = src.read_bytes()
    if shutil.which("node") or shutil.which("nodejs"):
        why = build._compile_ahead(tmp_path / "no-pyodide-here", tmp_path, [(src, "/lib/site/", True, False)])
        assert why.startswith("Node.js could not run the site's Pyodide: ") and len(why.splitlines()) == 1
        assert src.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [
            "demo.whl", "py_compile.json"]
    monkeypatch.setenv("PATH", str(tmp_path))  # no node on it
    assert build._compile_ahead(tmp_path, tmp_path, [(src, "/lib/site/", True, False)]) == "Node.js is not installed"
    assert src.read_bytes() == before


def test_a_site_built_without_compiling_says_why_and_what_it_costs():
    from krypteach.site.build import SiteResult

    done = SiteResult(out=Path("/tmp/site"), pages=["00_start.ipynb"], pyodide="local", packages=[],
                      not_compiled="Node.js is not installed")
    assert ("the Python files are not compiled ahead (Node.js is not installed): each page starts a few seconds "
            "slower") in done.summary()
    assert "compiled ahead" not in SiteResult(out=Path("/tmp/site"), pages=[], pyodide="local", packages=[]).summary()


def test_pygments_is_cut_to_the_lexers_a_page_uses_with_its_table_and_record(tmp_path):
    """build-site's pygments (issue 25): only the lexer modules kept, the table of lexers cut to
    them, every other file as it was, and the RECORD naming exactly what is left."""
    from krypteach.site.build import _pygments_cut, _rewrite_wheel

    wheel = tmp_path / "pygments-2.0-py3-none-any.whl"
    table = ("# generated\n\nLEXERS = {\n    'CLexer': ('pygments.lexers.c_cpp', 'C', ('c',), ('*.c',), ()),\n"
             "    'PythonLexer': ('pygments.lexers.python', 'Python', ('python', 'py'), ('*.py',), ()),\n}\n")
    files = {"pygments/__init__.py": b"", "pygments/lexers/__init__.py": b"from ._mapping import LEXERS\n",
             "pygments/lexers/_mapping.py": table.encode(), "pygments/lexers/python.py": b"class PythonLexer: pass\n",
             "pygments/lexers/c_cpp.py": b"class CLexer: pass\n", "pygments/lexers/_php_builtins.py": b"X = 1\n",
             "pygments/styles/default.py": b"", "pygments-2.0.dist-info/METADATA": b"Name: pygments\n"}
    with zipfile.ZipFile(wheel, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
        z.writestr("pygments-2.0.dist-info/RECORD", "\n".join(f"{n},sha256=x,1" for n in files)
                   + "\npygments-2.0.dist-info/RECORD,,\n")
    assert _rewrite_wheel(wheel, *_pygments_cut(keep=("python",))) != 0
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert names == {n for n in files if n not in ("pygments/lexers/c_cpp.py", "pygments/lexers/_php_builtins.py")
                         } | {"pygments-2.0.dist-info/RECORD"}
        scope: dict = {}
        exec(z.read("pygments/lexers/_mapping.py").decode(), scope)
        assert list(scope["LEXERS"]) == ["PythonLexer"]
        assert z.read("pygments/lexers/_mapping.py").decode().startswith("# generated\n")
        assert _record_names(z, "pygments-2.0.dist-info/RECORD") == names


def test_only_the_files_named_are_compiled_the_others_stay_source(tmp_path):
    """build-site compiles what a page imports at its start and sends the rest as source
    (smaller; compiled by the browser if ever imported): ``only`` names files by the path the
    browser's Python finds them at."""
    src, dst = _wheel(tmp_path / "demo.whl"), tmp_path / "out.whl"
    assert compile_zip(str(src), str(dst), "/lib/site/", True, only=["/lib/site/ktpyc_demo/part.py"]) == (1, 2)
    with zipfile.ZipFile(dst) as z:
        names = set(z.namelist())
        record = {line.split(",")[0] for line in z.read("ktpyc_demo-1.0.dist-info/RECORD").decode().splitlines()}
    assert {"ktpyc_demo/part.pyc", "ktpyc_demo/__init__.py", "ktpyc_demo/template.py"} <= names
    assert "ktpyc_demo/part.py" not in names and "ktpyc_demo/__init__.pyc" not in names
    assert record == names


def test_imported_files_names_what_an_import_brought_in_and_passes_over_what_fails(tmp_path, monkeypatch):
    """pyc.imported_files, as build-site runs it in the site's Pyodide: the files of every module
    in ``sys.modules`` after the imports and the package walk; a module that fails to import
    (the kernel's own need a browser) is passed over."""
    from krypteach.site.pyc import imported_files

    package = tmp_path / "ktpyc_walk"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "fine.py").write_text("import colorsys\n")
    (package / "broken.py").write_text("raise RuntimeError('needs a browser')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    try:
        files = imported_files(["ktpyc_missing_module"], ["ktpyc_walk"], ["ktpyc_walk.broken"])
    finally:
        for name in ("ktpyc_walk", "ktpyc_walk.fine", "ktpyc_walk.broken"):
            sys.modules.pop(name, None)
    assert str(package / "fine.py") in files and str(package / "__init__.py") in files
    assert any(f.endswith("colorsys.py") for f in files)  # what the walked module imported
    assert str(package / "broken.py") not in files and files == sorted(files)


def test_a_wheel_is_sent_without_its_tests_and_the_front_end_it_carries(tmp_path):
    """build-site's wheels of others (issue 25): a package's tests and the JupyterLab and notebook
    front end a wheel carries (the site has its own copy in extensions/) are left out; the
    package's modules, its metadata and a RECORD naming exactly what is left stay."""
    from krypteach.site.build import _front_end_or_tests, _rewrite_wheel

    wheel = tmp_path / "anywidget-1.0-py3-none-any.whl"
    files = {"anywidget/__init__.py": b"x = 1\n", "anywidget/widget.py": b"y = 2\n",
             "anywidget/labextension/static/main.js": b"js" * 500, "anywidget/nbextension/index.js": b"js",
             "anywidget/widgets/tests/test_widget.py": b"def test(): pass\n", "anywidget/tests.txt": b"kept",
             "anywidget-1.0.data/data/share/jupyter/labextensions/anywidget/package.json": b"{}",
             "anywidget-1.0.data/data/etc/jupyter/config.json": b"{}", "anywidget-1.0.dist-info/METADATA": b"Name: x\n"}
    with zipfile.ZipFile(wheel, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
        z.writestr("anywidget-1.0.dist-info/RECORD", "".join(f"{n},,\n" for n in files) + "anywidget-1.0.dist-info/RECORD,,\n")
    assert _rewrite_wheel(wheel, _front_end_or_tests) > 0
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert _record_names(z, "anywidget-1.0.dist-info/RECORD") == names
    assert names == {"anywidget/__init__.py", "anywidget/widget.py", "anywidget/tests.txt",
                     "anywidget-1.0.data/data/etc/jupyter/config.json", "anywidget-1.0.dist-info/METADATA",
                     "anywidget-1.0.dist-info/RECORD"}


def test_the_english_catalogs_are_the_sources_own_texts_so_the_site_leaves_them_out():
    """build-site leaves the English catalogs out of the browser's krypteach (issue 25): that is
    the same as having them only while every English text is its source's own."""
    from babel.messages.pofile import read_po

    from krypteach.i18n import DOMAINS, LOCALE

    for domain in DOMAINS:
        with (LOCALE / "en" / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
            catalog = read_po(f)
        changed = [m.id for m in catalog if m.id and m.string and m.string != m.id]
        assert changed == [], (domain, changed[:3])


def test_the_pack_holds_every_file_a_pages_wheels_put_in_site_packages(tmp_path):
    """build-site's pack (issue 25): the wheels of the names asked for and of what they depend on
    (the lock), each file once, as the wheel holds it, no directory and no ``.data`` file; its head
    names the lock's packages, for Pyodide's loadedPackages."""
    from krypteach.site.build import read_pack, write_pack

    with zipfile.ZipFile(tmp_path / "a-1.0-py3-none-any.whl", "w") as z:
        z.writestr("a/", "")
        z.writestr("a/__init__.pyc", b"\x00compiled a")
        z.writestr("a-1.0.dist-info/METADATA", "Name: a\n")
        z.writestr("a-1.0.data/data/etc/a.json", "{}")
        z.writestr("shared.txt", "from a")
    with zipfile.ZipFile(tmp_path / "b_two-2.0-py3-none-any.whl", "w") as z:
        z.writestr("b_two/__init__.pyc", b"\x00compiled b")
        z.writestr("shared.txt", "from b")
    with zipfile.ZipFile(tmp_path / "c-1.0-py3-none-any.whl", "w") as z:  # not asked for, nor depended on
        z.writestr("c/__init__.pyc", b"c")
    lock = {"packages": {
        "a": {"name": "a", "file_name": "a-1.0-py3-none-any.whl", "depends": ["b_two"]},
        "b-two": {"name": "b_two", "file_name": "b_two-2.0-py3-none-any.whl", "depends": []},
        "c": {"name": "c", "file_name": "c-1.0-py3-none-any.whl", "depends": []}}}
    pack = write_pack(tmp_path, lock, ["A"])
    assert pack == tmp_path / "packages.pack"
    head, data = read_pack(pack)
    assert head["packages"] == ["a", "b_two"]
    files = {name: data[start:end] for name, start, end in head["files"]}
    assert files == {"a/__init__.pyc": b"\x00compiled a", "a-1.0.dist-info/METADATA": b"Name: a\n",
                     "shared.txt": b"from a", "b_two/__init__.pyc": b"\x00compiled b"}
    assert sum(end - start for _, start, end in head["files"]) == len(data)  # nothing else in the data

    with zipfile.ZipFile(tmp_path / "b_two-2.0-py3-none-any.whl", "a") as z:  # a compiled library: loadPackage's
        z.writestr("b_two/_speed.cpython-313-wasm32-emscripten.so", b"\0asm")
    pack.unlink()
    assert write_pack(tmp_path, lock, ["a"]) is None and not pack.exists()
    lock["packages"]["b-two"]["file_name"] = "../pyodide/b_two-2.0-py3-none-any.whl"  # not in the site's folder
    assert write_pack(tmp_path, lock, ["a"]) is None and not pack.exists()


def test_no_snapshot_is_kept_when_nodejs_cannot_make_one_and_the_site_says_so(tmp_path, monkeypatch):
    import shutil
    import subprocess

    from krypteach.site import build
    from krypteach.site.build import SiteResult

    (tmp_path / "packages.pack").write_bytes(b"\0\0\0\0")
    if shutil.which("node") or shutil.which("nodejs"):
        why = build._make_snapshot(tmp_path / "no-pyodide-here", tmp_path, {})
        assert why.startswith("Node.js could not run the site's Pyodide: ") and len(why.splitlines()) == 1
        assert sorted(p.name for p in tmp_path.iterdir()) == ["packages.pack"]  # no snapshot, no spec left
    # Node.js prints the failing line of Pyodide's code (thousands of characters) above the error: the error is said
    failed = subprocess.CompletedProcess([], 1, "", "pyodide.asm.js:8\nvar Module=" + "x" * 5000 +
                                         "\nError: Unexpected hiwire entry at index 6\n    at checkEntry (a.js:8)\n"
                                         "\nNode.js v20.20.2\n")
    assert build._node_why(failed) == "Error: Unexpected hiwire entry at index 6"
    assert build._node_why(subprocess.CompletedProcess([], 1, "", "")) == "no output"
    monkeypatch.setenv("PATH", str(tmp_path))  # no node on it
    assert build._make_snapshot(tmp_path, tmp_path, {}) == "Node.js is not installed"
    done = SiteResult(out=Path("/tmp/site"), pages=[], pyodide="local", packages=[],
                      no_snapshot="Node.js is not installed")
    assert ("Python's memory after a page's start is not kept ahead (Node.js is not installed): each later page "
            "starts about a second slower") in done.summary()
    assert "memory" not in SiteResult(out=Path("/tmp/site"), pages=[], pyodide="local", packages=[]).summary()


def test_a_snapshot_whose_warm_up_failed_is_not_kept_and_the_build_says_why(tmp_path, monkeypatch):
    """snapshot.mjs runs what a page's first cells do (build._WARM_PY) before it keeps Python's
    memory; where that fails in the site's Python, the pages would fail alike: no snapshot is
    kept, and the reason is the warm-up's own error."""
    import subprocess

    from krypteach.site import build

    snapshot = tmp_path / build.SNAPSHOT

    def node_run(node, script, args, timeout=None):
        assert script == "snapshot.mjs"
        snapshot.write_bytes(b"abc")
        return ({"modules": 9, "failed": [], "warmed": warmed, "bytes": 3,
                 "warm_error": "ModuleNotFoundError: No module named 'krypteach.views'"},
                subprocess.CompletedProcess([], 0, "", ""))

    monkeypatch.setattr(build, "_node", lambda: "node")
    monkeypatch.setattr(build, "_run_node", node_run)
    warmed = False
    why = build._make_snapshot(tmp_path, tmp_path, {})
    assert why == ("the lesson pages' first work failed in the site's Python: "
                   "ModuleNotFoundError: No module named 'krypteach.views'")
    assert not snapshot.exists() and not (tmp_path / "snapshot.json").exists()
    warmed = True
    assert build._make_snapshot(tmp_path, tmp_path, {}) == "" and snapshot.read_bytes() == b"abc"
