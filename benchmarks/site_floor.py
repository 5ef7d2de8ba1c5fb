"""How soon can any page of the static site start its Python, on this machine? The floor under
issue 25's first visit (docs/performance.md, "The floor under a first visit").

    python benchmarks/site_floor.py --site SITE [--empty-site EMPTY] [--runs 5]

Each run opens, in a new Chromium profile (an empty cache, service workers off: a first visit),
one after the other:

* ``pyodide``: a bare page that loads the site's own Pyodide (``static/pyodide``) and runs
  ``1 + 1``: no voici, no JupyterLite, no wheel. No page with Python in it can be sooner;
* ``imports``: the same, and then the lesson's Python: the site's wheels loaded with Pyodide's
  ``loadPackage`` and ``import IPython, ipywidgets, krypteach.widgets`` (what a lesson page's
  kernel imports before the first cell can draw), still without voici;
* ``voici``: a voici page of the same build whose notebook has one cell, ``print(...)``: the
  site's own machinery (voici, the JupyterLite kernel, IPython's shell) and no lesson;
* ``lesson``: lesson 03 of the site, to its first clickable card (``site_load.py``'s "page to
  interactive").

Each is timed from navigation until it is ready. ``--empty-site`` is a site built from a folder
holding only such a one-cell notebook (made and built here if not given; 30 s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.site_load import CARD, serve  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

READY = "kt-floor-ready"

#: the bare pages, served beside the sites (``base`` is the folder that holds them both)
_BARE = """<!doctype html><html><head><meta charset="utf-8"><title>floor</title>
<script src="site/static/pyodide/pyodide.js"></script></head><body><pre id="out"></pre><script>
(async () => {
  const at = path => new URL(path, location.href).href;
  const py = await loadPyodide({indexURL: at("site/static/pyodide/"), %(lock)s});
  %(load)s
  document.getElementById("out").textContent = py.runPython(%(code)s) + " %(ready)s";
})().catch(e => { document.getElementById("out").textContent = "failed: " + e; });
</script></body></html>
"""


def bare_pages(folder: Path) -> None:
    """Write ``pyodide.html`` and ``imports.html`` into ``folder``."""
    (folder / "pyodide.html").write_text(_BARE % {"lock": "", "load": "", "code": json.dumps("str(1 + 1)"),
                                                  "ready": READY}, encoding="utf-8")
    load = 'await py.loadPackage(["krypteach", "ipywidgets", "ipython", "ipykernel", "comm"]);'
    code = "import IPython, ipywidgets, krypteach.widgets; str(len(krypteach.widgets.__name__))"
    (folder / "imports.html").write_text(_BARE % {"lock": 'lockFileURL: at("site/static/krypteach/pyodide-lock.json")',
                                                  "load": load, "code": json.dumps(code), "ready": READY},
                                         encoding="utf-8")


def empty_site(out: Path) -> Path:
    """A site built from one notebook with one cell that prints ``READY``."""
    import nbformat

    from krypteach.site.build import build_site

    lessons = out / "lessons"
    lessons.mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Empty"), nbformat.v4.new_code_cell(f"print({READY!r})")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(lessons / "00_empty.ipynb"))
    build_site(out / "site", lessons, pyodide="npm")
    return out / "site"


def measure(base: str, runs: int, lesson: str) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    pages = {
        # a bare page writes its result or its error into #out: wait for either, then tell them apart
        "pyodide": (f"{base}/pyodide.html", "#out:not(:empty)"),
        "imports": (f"{base}/imports.html", "#out:not(:empty)"),
        "voici": (f"{base}/empty/voici/render/00_empty.html", f".jp-OutputArea-output:has-text('{READY}')"),
        "lesson": (f"{base}/site/voici/render/{lesson}.html", CARD),
    }
    times: dict[str, list[float]] = {name: [] for name in pages}
    with sync_playwright() as p:
        for _ in range(runs):
            for name, (url, ready) in pages.items():
                with tempfile.TemporaryDirectory() as folder:
                    ctx = p.chromium.launch_persistent_context(folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                               viewport={"width": 1280, "height": 900},
                                                               service_workers="block")
                    page = ctx.new_page()
                    t0 = time.monotonic()
                    page.goto(url, timeout=120_000)
                    page.locator(ready).first.wait_for(timeout=120_000)
                    times[name].append(round(time.monotonic() - t0, 2))
                    out = page.locator("#out").inner_text() if name in ("pyodide", "imports") else READY
                    ctx.close()
                    if READY not in out:
                        raise SystemExit(f"{name}: {out}")
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, required=True, help="a site built with --pyodide npm")
    ap.add_argument("--empty-site", type=Path, help="a site built from a one-cell notebook (default: build one)")
    ap.add_argument("--lesson", default="03_take_all")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp) / "top"
        top.mkdir()
        empty = args.empty_site or empty_site(Path(tmp) / "build")
        (top / "site").symlink_to(args.site.resolve())
        (top / "empty").symlink_to(empty.resolve())
        bare_pages(top)
        # serve() serves a folder's parent and names the folder: serve the folder that holds all
        with serve(top / "site") as site_base:
            base = site_base.rsplit("/", 1)[0]
            times = measure(base, args.runs, args.lesson)
    for name, t in times.items():
        print(f"{name}: median {statistics.median(t):.2f} s, runs {', '.join(f'{x:.2f}' for x in t)}")
    out = {name: {"runs_s": t, "median_s": statistics.median(t)} for name, t in times.items()}
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
