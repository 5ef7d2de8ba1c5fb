"""The static site (``krypteach build-site``), offline, in a real browser.

Once per session the site is built with a local Pyodide assembled from the npm package
``pyodide`` (``--pyodide npm``) and served by ``python -m http.server --bind 127.0.0.1``
from the folder *above* it, so the site lives under a sub-path as on a project page host.
Every browser request that is not to that server is aborted and recorded, service
workers are blocked (so every request goes through the route), and each test asserts
that no other address was even asked for. Python runs in the page (Pyodide): the
feedback below comes from the engine running in Chromium's WebAssembly.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from krypteach import Card, parse_cards, traffar
from krypteach.site.build import _wheels_in_pack, kept_last

from .conftest import CHROMIUM, LESSONS, _free_port, _private_env
from .test_browser import choose_a_legal_move, wait_for_the_others

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOAD_MS = 240_000  # Pyodide's first start on a cold 2-core machine (about 10 s warm)
STEP_MS = 60_000  # one click's round trip, a bot's move in WebAssembly
SUB_PATH = "krypkasino-kurs"


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """Build the offline site once; serve its parent folder on 127.0.0.1; yield the site's URL."""
    if not CHROMIUM:
        pytest.skip("Debian chromium is not installed (apt-get install -y chromium); browser tests skipped")
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: the offline site's Pyodide comes from the npm package pyodide")
    for module in ("voici_core", "jupyterlite_pyodide_kernel"):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"{module} is not installed: pip install -e '.[site]' (the test extra has it)")
    home = tmp_path_factory.mktemp("site-home")
    root = tmp_path_factory.mktemp("www")
    out = root / SUB_PATH
    env = _private_env(home)
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "krypteach", "build-site", str(out), "--pyodide", "npm",
                           "--dir", str(LESSONS)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    print(f"site built in {time.monotonic() - t0:.0f}s: {done.stdout.strip().splitlines()[0]}")
    port = _free_port()
    log = open(root.parent / f"http-{port}.log", "w")
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port),
                               "--directory", str(root)], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/{SUB_PATH}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/index.html", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield {"base": base, "out": out, "origin": f"http://127.0.0.1:{port}/", "log": Path(log.name)}
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


@pytest.fixture
def offline(browser, site):
    """A page whose every request not to the site's server is aborted; none may be attempted."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    attempted: list[str] = []

    def route(r) -> None:
        url = r.request.url
        if url.startswith((site["origin"], "data:", "blob:")):
            r.continue_()
        else:
            attempted.append(url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()
    assert attempted == [], f"the site asked for other addresses: {attempted}"


def open_site_page(page, url: str) -> None:
    page.goto(url, timeout=LOAD_MS)
    page.locator(".kt-card").first.wait_for(timeout=LOAD_MS)


def node_or_skip(why: str = "Node.js is not installed") -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip(why)
    return node


def node_json(node: str, script: Path, *args: str):
    """``script`` run by Node.js: the last line it printed, read as JSON."""
    done = subprocess.run([node, str(script), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def site_python_json(node: str, out: Path, tmp_path: Path, packages: list[str], code: str):
    """``code`` run by the built site ``out``'s own Pyodide in Node.js, with ``packages`` of its
    lock loaded: the value of its last line (a JSON text), read as JSON."""
    script = tmp_path / "check.mjs"
    script.write_text(f"""
import path from "node:path";
import {{ pathToFileURL }} from "node:url";
const site = {json.dumps(str(out))};
const {{ loadPyodide }} = await import(pathToFileURL(path.join(site, "static/pyodide/pyodide.mjs")).href);
const py = await loadPyodide({{ indexURL: site + "/static/pyodide/",
  lockFileURL: site + "/static/krypteach/pyodide-lock.json", packages: {json.dumps(packages)} }});
console.log(py.runPython({json.dumps(code)}));
""")
    return node_json(node, script)


def test_the_site_holds_every_lesson_and_no_cdn(site):
    out: Path = site["out"]
    pages = sorted(p.stem for p in (out / "voici" / "render").glob("*.html"))
    assert pages == sorted(p.stem for p in LESSONS.glob("[0-9][0-9]_*.ipynb"))
    config = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.js" and kernel["disablePyPIFallback"] is True
    assert (out / "static" / "pyodide" / "pyodide.asm.wasm").is_file()
    assert "Krypkasino" in (out / "rules.html").read_text()  # the rules sheet, for /krypteach/rules links
    lock = json.loads((out / "static" / "krypteach" / "pyodide-lock.json").read_text())["packages"]
    assert {"krypteach", "ipywidgets", "anywidget", "micropip", "ipython"} <= set(lock)
    for entry in lock.values():
        assert (out / "static" / "krypteach" / entry["file_name"]).is_file(), entry["file_name"]
    for html in (out / "voici" / "render").glob("*.html"):
        assert "cdn.jsdelivr.net" not in html.read_text(), html.name
    # every page names the site's icon (a browser asked for /favicon.ico, a 404, on the rules page)
    for page, prefix in [("index.html", ""), ("rules.html", ""), ("voici/render/03_take_all.html", "../../")]:
        links = re.findall(r'<link rel="icon"[^>]*href="([^"]+)"', (out / page).read_text())
        assert links == [f"{prefix}icons/krypkasino-192.png"], (page, links)
        assert (out / page).parent.joinpath(links[0]).resolve().is_file()


def test_the_sites_python_files_are_compiled_ahead_and_what_no_page_uses_is_left_out(site):
    """Issue 25: what a page's Python imports at its start is bytecode, not source (the browser's
    Python compiled it at every page's start): the standard library's and the wheels' modules
    that a page imports, and krypteach and the kernel's wheels whole; what no page imports at
    its start stays source, which is smaller to send. matplotlib's own helpers and jedi are not sent."""
    import hashlib
    import zipfile

    out: Path = site["out"]
    with zipfile.ZipFile(out / "static" / "pyodide" / "python_stdlib.zip") as z:
        names = set(z.namelist())
    for module in ("asyncio/base_events", "json/__init__", "unittest/mock", "importlib/resources/readers"):
        assert f"{module}.pyc" in names and f"{module}.py" not in names, module
    assert "imaplib.py" in names and "imaplib.pyc" not in names  # no page imports it: sent as source
    lock = json.loads((out / "static" / "krypteach" / "pyodide-lock.json").read_text())["packages"]
    assert not {"fonttools", "pyparsing", "cycler", "pytz", "python-dateutil", "parso"} & set(lock)
    for entry in lock.values():
        wheel = out / "static" / "krypteach" / entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], wheel.name
        with zipfile.ZipFile(wheel) as z:
            files = z.namelist()
        sources = [n for n in files if n.endswith(".py")]
        if entry["name"] in ("krypteach", "jedi", "ipykernel", "piplite", "pyodide_kernel", "pyodide-kernel"):
            assert sources == [], (wheel.name, sources[:3])
        unused = [n for n in files if "/tests/" in n or "/labextension/" in n or ".data/data/share/" in n]
        assert unused == [], (wheel.name, unused[:3])  # tests and front ends are not sent
    with zipfile.ZipFile(out / "static" / "krypteach" / lock["ipython"]["file_name"]) as z:
        names = set(z.namelist())
    assert "IPython/core/interactiveshell.pyc" in names and "IPython/core/interactiveshell.py" not in names
    with zipfile.ZipFile(out / "static" / "krypteach" / lock["krypteach"]["file_name"]) as z:
        names = set(z.namelist())
    assert "krypteach/engine/__init__.pyc" in names and "krypteach/i18n/locale/sv/LC_MESSAGES/serve.mo" in names
    assert not [n for n in names if n.startswith("krypteach/i18n/locale/en/")]  # English is the source's own
    # the layers above the widgets and the catalogs' sources are not sent (no page imports or reads them)
    assert not [n for n in names if n.startswith(("krypteach/serve/", "krypteach/site/", "krypteach/cli."))
                or n.endswith((".po", ".pot"))]
    with zipfile.ZipFile(out / "static" / "krypteach" / lock["jedi"]["file_name"]) as z:
        assert z.namelist()[0] == "jedi/__init__.pyc"  # the placeholder, which raises ImportError


_PYGMENTS_CHECK = """
import io, contextlib, json
from IPython.core.interactiveshell import InteractiveShell
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
out = io.StringIO()
with contextlib.redirect_stdout(out):
    InteractiveShell.instance().run_cell("def f():\\n    return 1/0\\nf()")
try:
    get_lexer_by_name("c")
    asked = "found"
except ClassNotFound:
    asked = "ClassNotFound"
json.dumps({"coloured": "ZeroDivisionError" in out.getvalue() and "\\x1b[" in out.getvalue(), "asked": asked,
            "found": [type(get_lexer_by_name(n)).__name__ for n in ("python", "text")]})
"""


def test_pygments_holds_only_the_lexers_a_page_uses_and_ipython_still_colours_a_traceback(site, tmp_path):
    """Issue 25: pygments' wheel is sent with the Python and text lexers alone (0.3 of its 1.85 MB);
    in the site's own Pyodide (Node.js) IPython colours a traceback with it, and a lexer that was
    left out is pygments' "no such lexer", not a missing module."""
    import zipfile

    from krypteach.site.build import PYGMENTS_LEXERS

    node = node_or_skip("Node.js is not installed (the site was built without compiling ahead)")
    out: Path = site["out"]
    lock = json.loads((out / "static" / "krypteach" / "pyodide-lock.json").read_text())["packages"]
    with zipfile.ZipFile(out / "static" / "krypteach" / lock["pygments"]["file_name"]) as z:
        lexers = sorted(n for n in z.namelist() if n.startswith("pygments/lexers/"))
    kept = {n.removeprefix("pygments/lexers/").rsplit(".", 1)[0] for n in lexers}  # .pyc if a page imports it at start
    assert kept == {"__init__", "_mapping", *PYGMENTS_LEXERS} and len(lexers) == len(kept), lexers
    said = site_python_json(node, out, tmp_path, ["ipython", "jedi"], _PYGMENTS_CHECK)
    assert said == {"coloured": True, "asked": "ClassNotFound", "found": ["PythonLexer", "TextLexer"]}, said


_REPORTED_FILES_CHECK = """
import contextlib, io, json, re, warnings
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    import ipywidgets, krypteach.widgets
import traitlets.traitlets, json.decoder, krypteach.engine.cards
from IPython.core.interactiveshell import InteractiveShell
reported = {m.__name__: [m.__file__, m.__file__ == f.__code__.co_filename]
            for m, f in ((traitlets.traitlets, traitlets.traitlets.HasTraits.setup_class),
                         (json.decoder, json.decoder.JSONDecoder.decode),
                         (krypteach.engine.cards, krypteach.engine.cards.Card.parse))}
out = io.StringIO()
with contextlib.redirect_stdout(out):
    InteractiveShell.instance().run_cell("from krypteach.engine import Card\\nCard.parse('ZZ')")
text = re.sub("\x1b\\[[0-9;]*m", "", out.getvalue())  # IPython's colours
json.dumps({"deprecated": sorted({str(w.message) for w in seen if issubclass(w.category, DeprecationWarning)}),
            "reported": reported,
            "traceback": ["CardParseError" in text, bool(re.search("cards[.]pyc:[0-9]+, in parse", text))]})
"""


def test_the_sites_bytecode_reports_the_file_it_is_loaded_from_so_ipywidgets_warns_of_nothing(site, tmp_path):
    """Issue 25: a module compiled ahead reports, in its code, the ``.pyc`` its ``__file__`` names.
    ipywidgets tells traitlets' looks at its classes from a user's by comparing the two; where they
    differed (the code said ``.py``), each of the 1,000 looks as ``import ipywidgets`` makes its
    classes was taken for a use of a deprecated name and warned of, after a walk of the stack
    (0.15-0.2 s of a page's start). A traceback through krypteach's bytecode still names the frame."""
    node = node_or_skip("Node.js is not installed (the site was built without compiling ahead)")
    said = site_python_json(node, site["out"], tmp_path, ["krypteach", "ipython", "jedi"], _REPORTED_FILES_CHECK)
    site_packages, stdlib = "/lib/python3.13/site-packages/", "/lib/python313.zip/"
    assert said == {"deprecated": [], "traceback": [True, True], "reported": {
        "traitlets.traitlets": [site_packages + "traitlets/traitlets.pyc", True],
        "json.decoder": [stdlib + "json/decoder.pyc", True],
        "krypteach.engine.cards": [site_packages + "krypteach/engine/cards.pyc", True]}}, said


def test_start_page_links_lessons_and_lesson_02_gives_feedback(offline, site):
    page = offline
    open_site_page(page, f"{site['base']}/")  # index.html sends the learner to the start page
    assert page.url.endswith(f"/{SUB_PATH}/voici/render/00_start.html")
    page.locator(".kt-selectable .kt-card").first.wait_for(timeout=LOAD_MS)  # its last cell: all drawn
    # the lesson list may be written by the kernel (links to notebooks): the page follows them to pages
    link = page.locator('a[href*="02_traffar"]').first
    link.click()
    page.wait_for_url("**/voici/render/02_traffar.html", timeout=LOAD_MS)
    page.locator(".kt-exercise").first.wait_for(timeout=LOAD_MS)

    ex = page.locator(".kt-exercise").filter(has_text="träff").filter(has=page.locator(".kt-progress")).first
    card = ex.locator(".kt-cards.kt-hand .kt-card").first.get_attribute("data-card")
    table = ex.locator(".kt-cards.kt-table .kt-card").evaluate_all("els => els.map(e => e.dataset.card)")
    groups = traffar(Card(card), parse_cards(" ".join(table)))
    assert groups, (card, table)
    group = [str(c) for c in groups[0]]
    for code in group:
        ex.locator(f'.kt-cards.kt-table .kt-card[data-card="{code}"]').first.click()
    ex.get_by_role("button", name="Check").click()
    ex.locator(".kt-feedback .kt-ok").wait_for(timeout=STEP_MS)  # the engine, in the browser, said right
    assert f"Found 1 of {len(groups)}" in ex.inner_text()


def test_lesson_03_take_all_judges_in_the_browser(offline, site):
    page = offline
    open_site_page(page, f"{site['base']}/voici/render/03_take_all.html")
    ex = page.locator(".kt-exercise").filter(has=page.locator('.kt-table .kt-card[data-card="5D"]')).first
    ex.wait_for(timeout=LOAD_MS)
    table = ex.locator(".kt-cards.kt-table")
    feedback = ex.locator(".kt-feedback")

    def pick(code: str) -> None:
        c = table.locator(f'.kt-card[data-card="{code}"]')
        c.click()
        page.wait_for_function("el => el.classList.contains('kt-selected')", arg=c.element_handle(),
                               timeout=STEP_MS)

    pick("9S")  # only the 9: wrong, and the page says why
    ex.get_by_role("button", name="Check").click()
    feedback.locator(".kt-error").wait_for(timeout=STEP_MS)
    assert "You must take all you can" in feedback.inner_text()
    for code in ("2C", "7H"):
        pick(code)
    ex.get_by_role("button", name="Check").click()
    feedback.locator(".kt-ok").wait_for(timeout=STEP_MS)
    assert feedback.inner_text().startswith("Right. 9♥ takes 9♠ and 2♣+7♥; 5♦ stays.")
    # no lesson has a formula, so the page loads no MathJax (test_a_site_whose_lessons_have_no_mathematics_…):
    # none of its scripts is one of the site's MathJax chunks (they hold TeX's atoms)
    build = site["out"] / "voici" / "build"
    mathjax = {p.name for p in build.glob("*.js") if "TeXAtom" in p.read_text(encoding="utf-8")}
    loaded = set(page.evaluate("performance.getEntriesByType('resource').map(e => e.name)"
                               ".filter(n => n.includes('/voici/build/')).map(n => n.split('/').pop().split('?')[0])"))
    assert mathjax and len(loaded) > 20 and not loaded & mathjax, sorted(loaded & mathjax)
    # issue 25: that Python was started by the page as it opened, and the kernel took it (its options the same);
    # with no service worker (blocked here) it loaded the wheels itself: no pack, no snapshot
    assert page.evaluate("window.krypteachEarlyStart") == "used"
    assert page.evaluate("window.krypteachPythonFrom") == "start"
    # the kernel's package manager was not imported as it started; a cell's %pip imports it, with the
    # site's settings: its own wheels, and no PyPI (test_the_kernel_imports_piplite_only_where_…)
    assert run_in_kernel(page, "import sys; print([m for m in sys.modules if m.startswith(('micropip', 'piplite'))])") == "[]\n"
    assert "PyPI fallback is disabled" in run_in_kernel(page, "%pip install not-a-package-of-this-site")
    assert "Error" not in run_in_kernel(page, "%pip install widgetsnbextension")  # one of the site's own wheels
    assert run_in_kernel(page, "import widgetsnbextension; print('imported')") == "imported\n"


#: a cell run in a voici page's kernel, as if it were the notebook's: what it printed, showed, or raised
_RUN_IN_KERNEL_JS = """code => new Promise((resolve, reject) => {
  const future = window.jupyterapp.widgetManager.kernel.requestExecute({code}), out = [];
  future.onIOPub = msg => {
    const c = msg.content;
    if (c.text) out.push(c.text);
    if (c.data && c.data["text/plain"]) out.push(c.data["text/plain"]);
    if (c.ename) out.push(c.ename + ": " + c.evalue);
  };
  future.done.then(() => resolve(out.join("")), err => reject(String(err)));
})"""


def run_in_kernel(page, code: str) -> str:
    return page.evaluate(_RUN_IN_KERNEL_JS, code)


def test_lesson_07_a_whole_giv_played_by_clicking(offline, site):
    """As tests/test_browser.py plays it on ``krypteach serve``: the bots move in the browser."""
    page = offline
    open_site_page(page, f"{site['base']}/voici/render/07_play.html")
    game = play_a_giv_to_its_scores(page)
    # the coach reviews the giv in the browser's Python too (issue 22)
    game.get_by_role("button", name="Review my moves (coach)").click()
    game.locator(".kt-review-summary", has_text="Move quality: ").wait_for(timeout=LOAD_MS)


def play_a_giv_to_its_scores(page, seed: int = 0):
    """Lesson 07's game on ``page``, played by clicking (legal moves at random) until its scores
    show; returns the game's locator."""
    rng = random.Random(seed)
    game = page.locator(".kt-game")
    log = game.locator(".kt-log li")
    final = game.locator(".kt-final")
    players = 1 + game.locator(".kt-opponents .kt-seat").count()
    game.locator(".kt-status", has_text="Your turn").wait_for(timeout=LOAD_MS)
    clicked = 0
    for _ in range(200):  # a giv is about 52 moves: a bound, not a count
        if final.count():
            break
        before = log.count()
        choose_a_legal_move(page, rng, STEP_MS)
        game.locator(".kt-buttons button", has_text="Play").click()
        wait_for_the_others(page, before, players, STEP_MS)
        clicked += 1
    final.wait_for(timeout=STEP_MS)
    text = final.inner_text()
    assert "Giv over — scoring" in text and "Lowest score wins" in text
    assert clicked >= 20, clicked
    assert "Scores (final)" in game.inner_text()
    return game


def test_the_coach_on_the_kasino_page_of_lesson_10_in_the_browsers_python(offline, site):
    """Issue 22: the coach in the static site on a Kasino page too, as served: a giv played by
    clicking, Review my moves, Try again by the keyboard and the explanation."""
    from .test_browser_coach import play_a_kasino_giv_badly, review_and_try_again_by_keyboard
    page = offline
    open_site_page(page, f"{site['base']}/voici/render/10_kasino.html")
    page.locator(".kt-game .kt-status", has_text="Your turn").wait_for(timeout=LOAD_MS)
    play_a_kasino_giv_badly(page, "kasino", "en", STEP_MS)
    review_and_try_again_by_keyboard(page, "en", STEP_MS)


def test_progress_is_kept_in_the_browser_across_a_reload_and_downloads_as_a_file(offline, site):
    """No server keeps progress on a static site: the learner bar keeps it in this browser's
    localStorage; a reload reads it back; the learner downloads it for the teacher."""
    page = offline
    url = f"{site['base']}/voici/render/03_take_all.html"
    open_site_page(page, url)
    bar = page.locator(".kt-learner")
    bar.locator("form.kt-nick-form").wait_for(timeout=LOAD_MS)
    bar.locator("input").fill("Ann")
    bar.get_by_role("button", name="Save").click()
    bar.filter(has_text="Ann").wait_for(timeout=STEP_MS)
    total = int(bar.inner_text().split(" of ")[1].split()[0])
    ex = page.locator(".kt-exercise").filter(has=page.locator('.kt-table .kt-card[data-card="5D"]')).first
    for code in ("9S", "2C", "7H"):
        ex.locator(f'.kt-table .kt-card[data-card="{code}"]').click()
    ex.get_by_role("button", name="Check").click()
    ex.locator(".kt-feedback .kt-ok").wait_for(timeout=STEP_MS)
    bar.filter(has_text=f"1 of {total} exercises and questions solved").wait_for(timeout=STEP_MS)

    page.reload(timeout=LOAD_MS)
    page.locator(".kt-learner", has_text=f"1 of {total} exercises and questions solved").wait_for(timeout=LOAD_MS)
    with page.expect_download() as dl:
        page.locator("a.kt-download-progress").click()
    data = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    assert dl.value.suggested_filename == "krypteach-progress-Ann.json"
    assert data["format"] == "krypteach-progress/1" and data["nickname"] == "Ann"
    assert [a[2:4] for a in data["attempts"]] == [["exercise", True]]

    from krypteach.classroom.store import ProgressStore  # what the teacher's page does with the file

    store = ProgressStore(":memory:")
    assert store.import_progress(Path(dl.value.path()).read_bytes(), "K7RPX") == ("Ann", 1)


def test_practice_is_rated_in_the_browsers_python_and_kept_across_a_reload(offline, site):
    """Issue 23 on the static site: the practice trainer of lesson 08 makes and rates puzzles in the
    browser's Python (with FSRS for the mistakes), and its rating comes back after a reload, replayed
    from the attempts this browser keeps."""
    page = offline
    open_site_page(page, f"{site['base']}/voici/render/08_puzzles.html")
    bar = page.locator(".kt-learner")
    bar.locator("form.kt-nick-form").wait_for(timeout=LOAD_MS)
    bar.locator("input").fill("Pia")
    bar.get_by_role("button", name="Save").click()
    bar.filter(has_text="Pia").wait_for(timeout=STEP_MS)
    practice = page.locator(".kt-practice")
    practice.get_by_role("button", name="Show answer").click()
    stats = practice.locator(".kt-practice-stats")
    stats.filter(has_text="after 1 puzzle.").wait_for(timeout=STEP_MS)
    assert "wait" in stats.inner_text() and "to come back" in stats.inner_text()  # the miss is queued
    rating = stats.inner_text().split("Your rating: ")[1].split(" ")[0]
    practice.get_by_role("button", name="Next puzzle").click()
    practice.locator(".kt-instruction", has_text="near your rating").first.wait_for(timeout=STEP_MS)
    page.reload(timeout=LOAD_MS)
    page.locator(".kt-practice .kt-practice-stats", has_text=f"Your rating: {rating} ").wait_for(timeout=LOAD_MS)


def test_a_page_says_in_its_language_what_it_does_while_python_starts(tmp_path):
    """Issue 25: voici's English "Running ..." and "Executing 2 of 9" become the site's language's
    words (here a Swedish site's page, rewritten as build-site rewrites each page)."""
    from krypteach.site.build import _fix_pages

    render = tmp_path / "voici" / "render"
    render.mkdir(parents=True)
    page = render / "03_take_all.html"
    page.write_text('<!DOCTYPE html>\n<html lang="en">\n<head></head><body><div id="loading"><h2 id="loading_text">'
                    'Running ...</h2></div><div id="rendered_cells" style="display: none"><h1>3</h1></div>'
                    '<script src="../build/voici.js"></script></body></html>', encoding="utf-8")
    tree = tmp_path / "voici" / "tree" / "index.html"  # voici's file list: no cells, its shell always shown
    tree.parent.mkdir(parents=True)
    tree.write_text('<!DOCTYPE html>\n<html lang="en">\n<head></head><body><script src="../build/voici.js"></script>'
                    '</body></html>', encoding="utf-8")
    for _again in range(2):  # a page rewritten twice is rewritten once
        _fix_pages(tmp_path, ["03_take_all.ipynb"], "sv")
        html = page.read_text(encoding="utf-8")
        assert '<html lang="sv" class="kt-loading">' in html and "Running ..." not in html
        # the lesson is read at once; the app's shell stays out of sight until voici shows the cells
        assert '<div id="rendered_cells"><h1>' in html and html.count(".kt-loading #main { visibility: hidden; }") == 1
        assert html.count("document.documentElement.classList.remove(\"kt-loading\")") == 1
        assert '<html lang="sv">' in tree.read_text(encoding="utf-8") and "kt-loading" not in tree.read_text(encoding="utf-8")
    assert '<h2 id="loading_text" role="status" aria-live="polite">Sidan laddas…</h2>' in html
    assert "Python startar i din webbläsare" in html and "Lektionen förbereds: del {i} av {n}" in html
    assert html.index("window.update_loading_text") < html.index('"../build/voici.js"')  # before voici calls it
    # voici's scripts load through the gate, which waits for the site's worker on a first visit
    assert '<script src="../build/voici.js">' not in html and 's.src = "../build/voici.js"' in html


#: (name of the cache, how many files it holds) for each cache of the page's origin
_CACHES_JS = """caches.keys().then(async names => Promise.all(names.map(async n =>
  [n, (await (await caches.open(n)).keys()).map(r => r.url)])))"""


@pytest.fixture
def app_browser(browser_type, browser_type_launch_args, site, tmp_path):
    """Chromium with a profile of its own (an app installs only outside incognito) and service
    workers allowed; every request not to the site's server is aborted and recorded."""
    context = browser_type.launch_persistent_context(tmp_path / "profile", **browser_type_launch_args,
                                                     viewport={"width": 1280, "height": 900},
                                                     service_workers="allow")
    attempted: list[str] = []

    def route(r) -> None:
        if r.request.url.startswith((site["origin"], "data:", "blob:")):
            r.continue_()
        else:
            attempted.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    try:
        yield context
    finally:
        context.close()
    assert attempted == [], f"the site asked for other addresses: {attempted}"


def wait_until_kept(page, names: list[str], timeout_s: float = LOAD_MS / 1000) -> None:
    """Until the site's service worker's cache holds a file whose address ends with each of ``names``."""
    deadline = time.monotonic() + timeout_s
    while True:
        kept = [url for name, urls in page.evaluate(_CACHES_JS) if name.startswith("krypteach-") for url in urls]
        missing = [name for name in names if not any(url.endswith(name) for url in kept)]
        if not missing:
            return
        assert time.monotonic() < deadline, f"not kept: {missing}"
        time.sleep(0.5)


#: noted from the page's start: was the lesson's title the topmost thing at its place once voici's
#: app had started while the page still said that Python starts; and the page then scrolled (as
#: a learner reading on)
_READ_EARLY_JS = """
(() => { const look = () => {
  const bar = document.getElementById("loading"), h1 = document.querySelector("#rendered_cells h1");
  if (bar && h1 && document.getElementById("main")) {  // voici's app has started, its shell over the page
    const r = h1.getBoundingClientRect(), at = document.elementFromPoint(r.left + 5, r.top + r.height / 2);
    if (r.height > 0 && at && h1.contains(at)) {
      window.ktReadEarly = bar.textContent;
      window.ktTitleBox = [r.left, r.width];
      window.scrollTo(0, 300);
      window.ktScrolled = window.scrollY;
      return;
    }
  }
  if (bar) { setTimeout(look, 10); }
}; document.addEventListener("DOMContentLoaded", look); })();
"""


def test_a_lesson_is_read_while_its_python_starts_and_its_place_is_kept(browser, site):
    """Issue 25: the lesson's text shows at once, under a bar that says Python is starting (before,
    a spinner hid the page until every cell had run); when the app's shell takes the lesson in,
    the learner's place is kept; then the page works as ever (a phone's screen, so the text is
    taller than it)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    try:
        page = context.new_page()
        page.add_init_script(_READ_EARLY_JS)
        page.goto(f"{site['base']}/voici/render/03_take_all.html", timeout=LOAD_MS)
        page.wait_for_selector("#loading", state="detached", timeout=LOAD_MS)
        said, scrolled = page.evaluate("[window.ktReadEarly, window.ktScrolled]")
        assert said and scrolled == 300, (said, scrolled)  # read, and scrolled, before Python had run the cells
        assert page.locator("#main #rendered_cells").count() == 1  # now in the app's shell, which is shown
        assert page.evaluate("getComputedStyle(document.getElementById('main')).visibility") == "visible"
        page.wait_for_timeout(200)
        # the same place: not back at the top (outputs drawn above it since push it down, as the browser
        # keeps what is read in view, so it is 300 or more)
        assert page.evaluate("document.getElementById('rendered_cells').scrollTop") >= 300
        # and the lesson did not move sideways nor change its lines when the shell took it in
        box = page.evaluate("(() => { const r = document.querySelector('#rendered_cells h1').getBoundingClientRect();"
                            " return [r.left, r.width]; })()")
        assert box == page.evaluate("window.ktTitleBox"), box
        ex = page.locator(".kt-exercise").filter(has=page.locator('.kt-table .kt-card[data-card="5D"]')).first
        card = ex.locator('.kt-cards.kt-table .kt-card[data-card="9S"]')
        card.click()
        page.wait_for_function("el => el.classList.contains('kt-selected')", arg=card.element_handle(),
                               timeout=STEP_MS)
    finally:
        context.close()


def test_after_lessons_02_and_07_the_site_installs_as_an_app_and_plays_a_giv_offline(app_browser, site):
    """Issue 25, "Done when": lesson 02 then lesson 07 of the built site, then every request
    blocked; lesson 07 reloads from the service worker's cache and a giv is played to its scores.
    On the way: the manifest and the worker make Chromium consider the site installable."""
    context = app_browser
    page = context.new_page()
    base = site["base"]
    before = len(site["log"].read_text())  # (the module's other tests asked the same server, workers blocked)
    open_site_page(page, f"{base}/voici/render/02_traffar.html")
    worker = page.evaluate("""navigator.serviceWorker.ready.then(r => ({state: r.active.state,
        script: r.active.scriptURL, scope: r.scope, controlled: !!navigator.serviceWorker.controller}))""")
    assert worker["state"] == "activated" and worker["scope"] == f"{base}/", worker
    assert worker["script"].startswith(f"{base}/service-worker.js"), worker  # JupyterLite's registration, our file
    first_pack = page.evaluate("window.krypteachPackFrom")
    # the first visit's scripts came through the worker: each with a gzip copy was sent as that copy
    sent = site["log"].read_text()[before:]
    plain = [p.relative_to(site["out"]).as_posix() for p in (site["out"] / "voici" / "build").glob("*.js")
             if p.with_name(p.name + ".gz").is_file() and f"GET /{SUB_PATH}/voici/build/{p.name} " in sent]
    assert plain == [] and f"GET /{SUB_PATH}/voici/build/voici.js" in sent, plain
    cdp = context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"] == f"{base}/manifest.webmanifest", manifest
    # a file's first answer is already the worker's kept copy, not the network's response: Chromium keeps
    # the code it compiles (Python's WebAssembly) only beside a kept copy, for the next page to reuse
    answers: list[dict] = []
    cdp.on("Network.responseReceived", lambda event: answers.append(event["response"]))
    cdp.send("Network.enable")
    fresh = f"{base}/jupyterlite.schema.v0.json"  # asked for by no page
    assert page.evaluate("url => fetch(url).then(r => r.status)", fresh) == 200
    deadline = time.monotonic() + 10
    while not (first := [answer for answer in answers if answer["url"] == fresh]) and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # CDP's events come after the fetch's promise
    assert first and first[0].get("serviceWorkerResponseSource") == "cache-storage", first
    assert first[0].get("cacheStorageCacheName", "").startswith("krypteach-"), first
    cdp.detach()

    page.goto(f"{base}/voici/render/07_play.html", timeout=LOAD_MS)
    page.locator(".kt-game .kt-status", has_text="Your turn").wait_for(timeout=LOAD_MS)
    worker_js = (site["out"] / "service-worker.js").read_text()
    later = json.loads(worker_js.split("const CACHE_LATER = ")[1].split(";\n")[0])  # the build's list
    assert "voici/render/11_avig_kasino.html" in later and "static/pyodide/pyodide.asm.wasm" in later
    wait_until_kept(page, ["/voici/render/02_traffar.html", "/voici/render/07_play.html", "/voici/build/voici.js",
                           *(f"/{SUB_PATH}/{name}" for name in later)])  # lessons not visited too
    # what only makes later pages start sooner is kept once a lesson has been open a while (KEEP_LAST_MS)
    last = json.loads(worker_js.split("const CACHE_LAST = ")[1].split(";\n")[0])
    # each named by its content, so a page's kernel worker may read it from any cache that holds it
    assert last == list(kept_last(site["out"]).values()) and [name.split("?v=")[0] for name in last] == [
        "static/krypteach/packages.pack", "static/krypteach/python.snapshot"]
    assert set(last) & set(later) == {last[0]}  # the pack, kept in the stead of the wheels it holds
    wait_until_kept(page, [f"/{SUB_PATH}/{name}" for name in last])
    sent = site["log"].read_text()  # http.server's log: what the site's server was asked for
    assert f"GET /{SUB_PATH}/static/pyodide/pyodide.asm.wasm.gz " in sent  # the worker unpacks the gzip copy
    # both pages' Pythons took the wheels from the pack (the first visit's as its gzip copy came through
    # the worker, which kept it): no wheel it holds was asked of the server
    sent = sent[before:]  # (the module's other tests, workers blocked, loaded the wheels)
    assert f"GET /{SUB_PATH}/static/krypteach/packages.pack.gz " in sent
    assert not [w for w in _wheels_in_pack(site["out"] / "static/krypteach") if f"/static/krypteach/{w} " in sent]
    assert first_pack == "fetched" and page.evaluate("window.krypteachPackFrom") == "kept"
    version = worker_js.split('const VERSION = "')[1].split('"')[0]
    names = [name for name, _ in page.evaluate(_CACHES_JS) if name.startswith("krypteach-")]
    assert names == [f"krypteach-{version}"]

    context.unroute("**/*")
    blocked: list[str] = []
    context.route("**", lambda r: (blocked.append(r.request.url), r.abort()))
    context.set_offline(True)
    page.reload(timeout=LOAD_MS)
    page.locator(".kt-game .kt-status", has_text="Your turn").wait_for(timeout=LOAD_MS)
    # this page's Python started from the snapshot the build made, with the wheels written from the pack:
    # a whole giv plays, offline, as on a page that imported everything itself
    assert page.evaluate("window.krypteachPythonFrom") == "snapshot"
    play_a_giv_to_its_scores(page, seed=1)
    assert not [url for url in blocked if "/static/" in url or url.endswith(".html")], blocked
    assert page.evaluate("window.krypteachEarlyStart") == "used"  # Python started with the page, offline too

    # a new build (another version in its worker) replaces the old cache whole once it is seen
    context.set_offline(False)
    context.unroute("**")
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site["origin"]) else r.abort())
    served = site["out"] / "service-worker.js"
    served.write_text(worker_js.replace(version, "0123456789abcdef"))
    try:
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        deadline = time.monotonic() + 60
        while f"krypteach-{version}" in [n for n, _ in page.evaluate(_CACHES_JS)]:
            assert time.monotonic() < deadline, page.evaluate(_CACHES_JS)  # the old build's cache deleted
            time.sleep(0.5)
        page.reload(timeout=LOAD_MS)
        open_site_page(page, page.url)
        wait_until_kept(page, ["/voici/render/07_play.html"], 60)
        assert [n for n, _ in page.evaluate(_CACHES_JS) if n.startswith("krypteach-")] == ["krypteach-0123456789abcdef"]
    finally:
        served.write_text(worker_js)


def test_a_first_visit_whose_pack_cannot_be_had_loads_the_wheels_and_judges(app_browser, site):
    """Issue 25: a page the site's worker controls, a first visit too, writes the wheels from the pack
    (their files in one gzip copy, which the worker keeps); where the pack cannot be had as the page
    opens (the network gone for it), the page's Python loads the wheels as before and the lesson works."""
    context = app_browser
    asked: list[str] = []
    context.route("**/packages.pack*", lambda r: (asked.append(r.request.url), r.abort()))
    page = context.new_page()
    open_site_page(page, f"{site['base']}/voici/render/03_take_all.html")
    assert asked and page.evaluate("!!navigator.serviceWorker.controller")
    assert page.evaluate("window.krypteachPackFrom") == "none"
    assert page.evaluate("window.krypteachEarlyStart") == "used"
    ex = page.locator(".kt-exercise").filter(has=page.locator('.kt-table .kt-card[data-card="5D"]')).first
    for code in ("9S", "2C", "7H"):
        card = ex.locator(f'.kt-cards.kt-table .kt-card[data-card="{code}"]')
        card.click()
        page.wait_for_function("el => el.classList.contains('kt-selected')", arg=card.element_handle(), timeout=STEP_MS)
    ex.get_by_role("button", name="Check").click()
    ex.locator(".kt-feedback .kt-ok").wait_for(timeout=STEP_MS)


_KERNEL_BUNDLE = ('x;class S{initWorker(e){return crossOriginIsolated?new Worker(new URL(n.p+n.u(620),n.b),{type:void 0}):'
                  'new Worker(new URL(n.p+n.u(352),n.b),{type:void 0})}initRemote(e){}}')
_PIPLITE_SETTINGS_JS = ('async initPackageManager(e){let{disablePyPIFallback:n,pipliteUrls:s}=this._options;'
                        'await this._pyodide.runPythonAsync(`\\n      import piplite.piplite\\n      '
                        'piplite.piplite._PIPLITE_DISABLE_PYPI = ${n?"True":"False"}\\n      '
                        'piplite.piplite._PIPLITE_URLS = ${JSON.stringify(s)}\\n    `)}')
_KERNEL_WORKER = ('(()=>{class V{async initialize(e){await this.initRuntime(e),await this.initFilesystem(e)}'
                  + _PIPLITE_SETTINGS_JS + '}class nr extends V{};Mu=new nr;Nt(Mu)},476:e=>{}})();')


def test_a_lesson_page_starts_its_kernels_python_and_the_kernel_takes_that_worker(tmp_path):
    """Issue 25: the site patches JupyterLite's kernel so a lesson page makes the kernel's worker as it
    opens (with the options of the site's jupyter-lite.json), and the kernel takes it; a kernel whose
    code is not what the patch was written for is left as it is (the page then starts Python as before).
    The browser tests check that a real page's kernel uses the Python its page started."""
    from krypteach.site.build import _KERNEL_EXTENSION, _early_kernel, _piplite_later_js

    static = tmp_path / _KERNEL_EXTENSION
    static.mkdir(parents=True)
    (tmp_path / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {"litePluginSettings": {
        "@jupyterlite/pyodide-kernel-extension:kernel": {"pyodideUrl": "./static/pyodide/pyodide.js",
                                                         "loadPyodideOptions": {"packages": ["krypteach"]}}}}}))
    (static / "872.abc.js").write_text(_KERNEL_BUNDLE)
    (static / "352.def.js").write_text(_KERNEL_WORKER)
    (static / "352.def.js.LICENSE.txt").write_text("")
    (tmp_path / "static/krypteach").mkdir(parents=True)  # the build's pack and snapshot: the page names them
    for name in ("packages.pack", "python.snapshot"):
        (tmp_path / "static/krypteach" / name).write_bytes(b"")
    script = _early_kernel(tmp_path, kept_last(tmp_path))
    assert '"pyodideUrl": "./static/pyodide/pyodide.js"' in script and '"packages": ["krypteach"]' in script
    empty = hashlib.sha256(b"").hexdigest()[:16]  # each address names its file's content
    assert (f'"pack": "./static/krypteach/packages.pack?v={empty}"' in script
            and f'"snapshot": "./static/krypteach/python.snapshot?v={empty}"' in script)
    assert f'"{_KERNEL_EXTENSION}/352.def.js"' in script
    bundle = (static / "872.abc.js").read_text()
    assert ("(self.krypteachKernelWorker&&self.krypteachKernelWorker.take())||new Worker(new URL(n.p+n.u(352),n.b)"
            in bundle and "crossOriginIsolated?new Worker(new URL(n.p+n.u(620)" in bundle)  # isolated: as before
    worker = (static / "352.def.js").read_text()
    assert "await(self.krypteachEarly?self.krypteachEarly(this,e):this.initRuntime(e)),await this.initFilesystem(e)" in worker
    assert "Mu=new nr;self.krypteachStart&&self.krypteachStart(Mu);Nt(Mu)}" in worker
    assert "importlib.import_module(name)" in worker and "krypteach.widgets" in worker
    # a Python started from the snapshot draws its own random numbers (test_a_later_page_starts_from_…)
    assert 'if (found[1]) { kernel._pyodide.runPython("import random; random.seed()"); }' in worker
    # piplite gets its settings as it is imported, not imported as the kernel starts
    # (test_the_kernel_imports_piplite_only_where_a_cell_asks_for_it)
    assert "import piplite.piplite" not in worker and _piplite_later_js("n", "s") in worker

    other = tmp_path / "other"  # another kernel's code: nothing is changed, and the pages get no script
    (other / _KERNEL_EXTENSION).mkdir(parents=True)
    (other / "jupyter-lite.json").write_text((tmp_path / "jupyter-lite.json").read_text())
    (other / _KERNEL_EXTENSION / "872.abc.js").write_text(_KERNEL_BUNDLE.replace("initWorker(e)", "makeWorker(e)"))
    (other / _KERNEL_EXTENSION / "352.def.js").write_text(_KERNEL_WORKER)
    assert _early_kernel(other, kept_last(other)) == ""
    assert (other / _KERNEL_EXTENSION / "352.def.js").read_text() == _KERNEL_WORKER
    # a kernel that gives piplite its settings otherwise: not patched, not started early
    (other / _KERNEL_EXTENSION / "872.abc.js").write_text(_KERNEL_BUNDLE)
    (other / _KERNEL_EXTENSION / "352.def.js").write_text(_KERNEL_WORKER.replace("_PIPLITE_URLS = ", "_URLS = "))
    assert _early_kernel(other, kept_last(other)) == ""
    assert (other / _KERNEL_EXTENSION / "872.abc.js").read_text() == _KERNEL_BUNDLE
    (tmp_path / "static/krypteach/python.snapshot").unlink()  # no snapshot made (no Node.js): the pack alone
    (static / "352.def.js").write_text(_KERNEL_WORKER)
    (static / "872.abc.js").write_text(_KERNEL_BUNDLE)
    script = _early_kernel(tmp_path, kept_last(tmp_path))
    assert f'"pack": "./static/krypteach/packages.pack?v={empty}"' in script and '"snapshot"' not in script
    unnamed = tmp_path / "unnamed"  # a config that names no Pyodide: nothing to start early, nothing changed
    (unnamed / _KERNEL_EXTENSION).mkdir(parents=True)
    (unnamed / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {}}))
    (unnamed / _KERNEL_EXTENSION / "872.abc.js").write_text(_KERNEL_BUNDLE)
    (unnamed / _KERNEL_EXTENSION / "352.def.js").write_text(_KERNEL_WORKER)
    assert _early_kernel(unnamed, kept_last(unnamed)) == ""
    assert (unnamed / _KERNEL_EXTENSION / "872.abc.js").read_text() == _KERNEL_BUNDLE


#: voici's build as the MathJax patch reads it: the share map in voici.js, the lesson page's start
#: (its own plugins, MathJax's among them) and the tree page's start (without it)
_VOICI_ENTRY = ('var r={44109:()=>c("default","@jupyterlab/mathjax-extension",!1,[1,4,5,0],(()=>x.e(926)'
                '.then((()=>()=>x(85688))))),55085:()=>c("default","@jupyterlab/rendermime-extension",!1,[1,4,5,0])};')
_VOICI_START = ('(self.webpackChunk=self.webpackChunk||[]).push([[5981],{4786:(e,t,n)=>{'
                'window.addEventListener("load",(async function(){const e=[n(51757).default.filter((e=>!["a"].includes(e.id))),'
                'n(24777),n(44109),n(55085),o.themesManagerPlugin,j],t=[];e.forEach((e=>{t.push(e)}))}))}}]);')
_VOICI_TREE = ('(self.webpackChunk=self.webpackChunk||[]).push([[8608],{1:(e,t,n)=>{'
               'window.addEventListener("load",(async function(){const e=[n(51757),n(83499),h,f],t=[];}))}}]);')


def _voici_build(folder: Path, start: str = _VOICI_START, entry: str = _VOICI_ENTRY) -> Path:
    build = folder / "voici" / "build"
    build.mkdir(parents=True)
    (build / "voici.js").write_text(entry)
    (build / "5981.js").write_text(start)
    (build / "8608.js").write_text(_VOICI_TREE)
    return build


def _notebooks(folder: Path, *cells: tuple[str, str]) -> list[Path]:
    """One lesson without mathematics, and one holding ``cells`` ((cell type, source), ...)."""
    folder.mkdir(parents=True, exist_ok=True)
    plain = {"cells": [{"cell_type": "markdown", "source": ["# Tvångstabbe\n", "9♥ takes 9♠ and 2♣+7♥: 18 in all."]},
                       {"cell_type": "code", "source": "from krypteach.widgets import capture_exercise"}]}
    other = {"cells": [{"cell_type": kind, "source": source} for kind, source in cells]}
    (folder / "01.ipynb").write_text(json.dumps(plain))
    (folder / "02.ipynb").write_text(json.dumps(other))
    return [folder / "01.ipynb", folder / "02.ipynb"]


def test_a_site_whose_lessons_have_no_mathematics_leaves_mathjax_out_and_one_with_a_formula_keeps_it(tmp_path):
    """Issue 25: voici typesets every markdown cell with MathJax as a page opens (nine chunks loaded and run
    on the main thread while Python starts). The build leaves its plugin out of the lesson page's start where
    no lesson has a formula; a formula, a cell showing LaTeX, or voici code other than this was written for
    leaves every file as it was. lesson 03's browser test checks that a real page loads no MathJax."""
    from krypteach.site.build import _without_mathjax

    build = _voici_build(tmp_path / "site")
    assert _without_mathjax(tmp_path / "site", _notebooks(tmp_path / "nb", ("markdown", "Träffar: 5 and 5.")))
    assert (build / "5981.js").read_text() == _VOICI_START.replace("n(44109),", "")
    assert (build / "8608.js").read_text() == _VOICI_TREE and (build / "voici.js").read_text() == _VOICI_ENTRY
    for n, cells in enumerate([("markdown", "A card's value $v$ counts."), ("markdown", "$$\\sum v = 18$$"),
                               ("markdown", r"so \(9 + 9 = 18\)"), ("markdown", r"\[ 2 + 7 = 9 \]"),
                               ("markdown", "\\begin{align} a \\end{align}"),
                               ("code", "from IPython.display import Latex\nLatex('$x$')"),
                               ("code", "display(Math(r'\\frac{1}{2}'))")]):
        kept = _voici_build(tmp_path / f"math{n}")
        assert not _without_mathjax(tmp_path / f"math{n}", _notebooks(tmp_path / f"nb{n}", cells)), cells
        assert (kept / "5981.js").read_text() == _VOICI_START, cells
    for n, (start, entry) in enumerate([(_VOICI_START, _VOICI_ENTRY.replace("44109:", "44110:")),  # another voici
                                        (_VOICI_START.replace("n(44109),", "n(44109),n(44109),"), _VOICI_ENTRY),
                                        (_VOICI_START.replace("n(44109),", ""), _VOICI_ENTRY),
                                        (_VOICI_START.replace("n(44109),", "").replace("j],t=", "j,n(44109)],t="),
                                         _VOICI_ENTRY)]):  # last in its list: not the code this was written for
        other = _voici_build(tmp_path / f"other{n}", start, entry)
        assert not _without_mathjax(tmp_path / f"other{n}", _notebooks(tmp_path / f"onb{n}")), n
        assert (other / "5981.js").read_text() == start and (other / "voici.js").read_text() == entry
    assert not _without_mathjax(tmp_path / "empty", [])  # no voici build at all


def test_what_a_page_imports_early_makes_no_widget():
    """The site's kernel imports these modules before the page can be sent a widget (issue 25): a
    widget made as one of them is imported would be missing on the page."""
    from krypteach.site.build import EARLY_IMPORTS

    code = ("import importlib, ipywidgets.widgets.widget as w\n"
            f"for name in {EARLY_IMPORTS!r}:\n    importlib.import_module(name)\n"
            "print(len(w._instances))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "0", (done.stdout, done.stderr[-2000:])


def test_the_worker_s_cache_is_named_by_a_hash_of_the_build_and_the_manifest_names_the_icons(tmp_path):
    """Issue 25: a new build is a new cache (its name a hash of every file), JupyterLite's worker is
    kept beside the site's, and the manifest names 192 and 512 px PNG icons and the start page."""
    from krypteach.site.build import _app

    def build(folder: Path, lesson_text: str) -> tuple[str, Path]:
        (folder / "voici" / "render").mkdir(parents=True)
        (folder / "voici" / "render" / "00_start.html").write_text(lesson_text)
        (folder / "service-worker.js").write_text("/* JupyterLite's */")
        for name in ("static/pyodide", "static/krypteach", "extensions/@jupyterlite/pyodide-kernel-extension/static/pypi"):
            (folder / name).mkdir(parents=True)
        (folder / "static/pyodide/pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(range(256)) * 200)
        (folder / "static/pyodide/small.js").write_text("let x = 1;\n" * 100)  # under 20 KB: no copy
        (folder / "static/pyodide/noise.js").write_bytes(random.Random(1).randbytes(30_000))  # gzip gains nothing
        head = json.dumps({"packages": ["krypteach"], "files": []}).encode()
        (folder / "static/krypteach/packages.pack").write_bytes(len(head).to_bytes(4, "little") + head)
        (folder / "static/krypteach/pyodide-lock.json").write_text(json.dumps({"packages": {
            name: {"name": name, "file_name": f"{name}-1.0-py3-none-any.whl"} for name in ("krypteach", "packaging")}}))
        for name in ("krypteach", "packaging"):
            (folder / f"static/krypteach/{name}-1.0-py3-none-any.whl").write_bytes(b"a wheel")
        (folder / "static/krypteach/python.snapshot").write_bytes(b"the snapshot")
        return _app(folder, ["00_start.ipynb"], "00_start.ipynb", "sv", kept_last(folder)), folder

    one, out = build(tmp_path / "a", "<p>one</p>")
    again, _ = build(tmp_path / "b", "<p>one</p>")
    other, _ = build(tmp_path / "c", "<p>two</p>")
    assert one == again and one != other and len(one) == 16
    worker = (out / "service-worker.js").read_text()
    assert f'const VERSION = "{one}";' in worker and 'importScripts("./jupyterlite-service-worker.js")' in worker
    assert (out / "jupyterlite-service-worker.js").read_text() == "/* JupyterLite's */"
    # the gzip copies the worker asks for instead (issue 25): only where gzip gains a fifth
    import gzip

    packed = json.loads(worker.split("const GZIPPED = new Set(")[1].split(");\n")[0])
    assert packed == ["static/pyodide/pyodide.asm.wasm"]
    wasm = out / "static/pyodide/pyodide.asm.wasm"
    assert gzip.decompress((out / "static/pyodide/pyodide.asm.wasm.gz").read_bytes()) == wasm.read_bytes()
    assert sorted(p.name for p in (out / "static/pyodide").glob("*.gz")) == ["pyodide.asm.wasm.gz"]
    later = json.loads(worker.split("const CACHE_LATER = ")[1].split(";\n")[0])
    assert "static/pyodide/pyodide.asm.wasm" in later and not [f for f in later if f.endswith(".gz")]
    # kept last, each at an address that names its content (a page's kernel worker reads them from the cache)
    last = json.loads(worker.split("const CACHE_LAST = ")[1].split(";\n")[0])
    pack = (out / "static/krypteach/packages.pack").read_bytes()
    assert last == [f"static/krypteach/{name}?v={hashlib.sha256(text).hexdigest()[:16]}"
                    for name, text in (("packages.pack", pack), ("python.snapshot", b"the snapshot"))]
    # a page the worker controls takes the wheels from the pack, a first visit too: the pack is kept in
    # the stead of the wheels it holds; a wheel not in it is kept as before
    assert [f for f in later if "static/krypteach/" in f] == [
        "static/krypteach/packaging-1.0-py3-none-any.whl", "static/krypteach/pyodide-lock.json", last[0]]
    manifest = json.loads((out / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./voici/render/00_start.html" and manifest["display"] == "standalone"
    assert manifest["lang"] == "sv" and manifest["description"].startswith("Lär dig")
    for icon in manifest["icons"]:
        png = (out / icon["src"]).read_bytes()
        size = int(icon["sizes"].split("x")[0])
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == size
    assert sorted(i["sizes"] for i in manifest["icons"]) == ["192x192", "512x512"]


_FROM_SNAPSHOT_MJS = r"""
// two Pythons started from the site's snapshot as a later page starts one (build.py, startPython)
import path from "node:path";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const site = process.argv[2];
const { loadPyodide } = await import(pathToFileURL(path.join(site, "static/pyodide/pyodide.mjs")).href);
const snapshot = readFileSync(path.join(site, "static/krypteach/python.snapshot"));
const pack = readFileSync(path.join(site, "static/krypteach/packages.pack"));
const out = [];
__UNPACK__
for (const reseed of [true, true, false, false]) {
  const py = await loadPyodide({ indexURL: path.resolve(site, "static/pyodide") + "/", _loadSnapshot: snapshot,
    stdout: () => {}, stderr: () => {} });
  if (reseed) py.runPython("import random; random.seed()");
  unpack(py, pack.buffer.slice(pack.byteOffset, pack.byteOffset + pack.byteLength));
  out.push(JSON.parse(py.runPython(`
import json, os, random, sys
imported = [m for m in ("IPython.core.interactiveshell", "ipywidgets", "krypteach.widgets") if m in sys.modules]
from krypteach.i18n import translator
from krypteach.teaching.puzzles import shipped_puzzles
from krypteach.teaching.puzzles.fresh import themes_of
from krypteach.views.svg import _front
warm = {"catalogs": translator.cache_info().currsize, "faces": _front.cache_info().currsize,
        "puzzles": shipped_puzzles.cache_info().currsize, "themes": themes_of.cache_info().currsize}
json.dumps({"imported": imported, "random": random.random(), "env": dict(os.environ), "warm": warm,
            "puzzles": len(shipped_puzzles()), "pyodide_kernel": "pyodide_kernel" in sys.modules,
            "package_manager": [m for m in ("micropip", "piplite") if m in sys.modules]})
`)));
}
console.log(JSON.stringify(out));
"""


def test_a_later_page_starts_from_the_builds_snapshot_with_its_own_random_numbers(site, tmp_path):
    """Issue 25: build-site keeps Python's memory after a page's imports (python.snapshot), made in
    Node.js by the site's own Pyodide. Started from it, Python has IPython, the widgets and krypteach
    imported, reads krypteach's files from the pack, holds no word of the building machine, and each
    page reseeds its random numbers (without that, every page would draw the same)."""
    node = node_or_skip()
    script = tmp_path / "from_snapshot.mjs"
    from krypteach.site.build import UNPACK_JS

    script.write_text(_FROM_SNAPSHOT_MJS.replace("__UNPACK__", UNPACK_JS))  # the page's own unpacking
    runs = node_json(node, script, str(site["out"]))
    from krypteach.engine.cards import SUITS
    from krypteach.views.svg import _FOUR_COLOR, _TWO_COLOR

    faces = 13 * len({(suit, colors[suit]) for colors in (_TWO_COLOR, _FOUR_COLOR) for suit in SUITS})
    assert faces == 78
    for run in runs:
        assert run["imported"] == ["IPython.core.interactiveshell", "ipywidgets", "krypteach.widgets"]
        assert run["puzzles"] > 50 and run["pyodide_kernel"] is False  # the kernel's own: imported by each page
        assert run["package_manager"] == []  # imported only where a cell asks for it (%pip)
        # what a page's first cells do once per Python was done before the snapshot (build.py, _WARM_PY):
        # both catalogs read, 13 ranks of every suit in each colour it has (two schemes), the puzzles and
        # their themes read
        assert run["warm"] == {"catalogs": 2, "faces": faces, "puzzles": 1, "themes": run["puzzles"]}, run["warm"]
        assert run["env"]["KRYPTEACH_SITE"] == "1" and run["env"]["_"] == "./this.program", run["env"]
        assert not [v for v in run["env"].values() if "/work/" in v or "/tmp/" in v or "/root" in v], run["env"]
    assert runs[0]["random"] != runs[1]["random"]  # reseeded: each page its own
    assert runs[2]["random"] == runs[3]["random"]  # not reseeded: the snapshot's, the same on every page


_PIPLITE_MJS = r"""
// the site's kernel gives piplite its settings as it is imported (build.py, piplite_later_py), with the
// code of the built kernel worker, as a page's kernel runs it after importing pyodide_kernel
import path from "node:path";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const site = process.argv[2];
const { loadPyodide } = await import(pathToFileURL(path.join(site, "static/pyodide/pyodide.mjs")).href);
const pack = readFileSync(path.join(site, "static/krypteach/packages.pack"));
__UNPACK__
const settings = __SETTINGS__;
const code = settings(true, ["./extensions/all.json?sha256=1", "https://example.org/\"quoted\".json"]);
const out = [];
for (const before of [false, true]) {  // piplite imported after the settings (a page), or before
  const py = await loadPyodide({ indexURL: path.resolve(site, "static/pyodide") + "/", stdout: () => {}, stderr: () => {} });
  unpack(py, pack.buffer.slice(pack.byteOffset, pack.byteOffset + pack.byteLength));
  py.runPython(before ? "import pyodide_kernel, piplite.piplite" : "import pyodide_kernel");
  await py.runPythonAsync(code);
  const at_start = JSON.parse(py.runPython(`import json, sys
json.dumps([m for m in ("micropip", "piplite", "piplite.piplite") if m in sys.modules])`));
  out.push({ at_start, after: JSON.parse(py.runPython(`
import json, sys
import piplite.cli  # what the kernel's %pip imports
from piplite import piplite
json.dumps({"urls": piplite._PIPLITE_URLS, "no_pypi": piplite._PIPLITE_DISABLE_PYPI,
            "micropip": "micropip" in sys.modules, "left": [k for k in globals() if "krypteach" in k]})
`)) });
}
console.log(JSON.stringify(out));
"""


def test_the_kernel_imports_piplite_only_where_a_cell_asks_for_it(site, tmp_path):
    """Issue 25: the site's kernel does not import its package manager (piplite, and micropip with
    it) as it starts, which took 0.15-0.2 s of a first visit; it gives piplite the site's settings as
    a cell's ``%pip`` imports it (or at once, where it is imported already). Run with the code of the
    built kernel worker, in the site's own Pyodide."""
    node = node_or_skip()
    from krypteach.site.build import _KERNEL_EXTENSION, UNPACK_JS

    worker = next(p for p in (site["out"] / _KERNEL_EXTENSION).glob("*.js") if "krypteachStart" in p.read_text())
    text = worker.read_text()
    found = re.search(r"await this\._pyodide\.runPythonAsync\((`def _krypteach_piplite.*?`)\)", text)
    assert found and "import piplite.piplite\\n" not in text
    names = re.search(r'\$\{(\w+)\?"True":"False"\}.*?\$\{JSON\.stringify\((\w+)\)\}', found[1])
    assert names
    settings = f"({names[1]}, {names[2]}) => {found[1]}"  # the worker's template, as a function of its settings
    script = tmp_path / "piplite.mjs"
    script.write_text(_PIPLITE_MJS.replace("__UNPACK__", UNPACK_JS).replace("__SETTINGS__", settings))
    later, before = node_json(node, script, str(site["out"]))
    assert later["at_start"] == [] and before["at_start"] == ["micropip", "piplite", "piplite.piplite"]
    for run in (later, before):
        assert run["after"] == {"urls": ["./extensions/all.json?sha256=1", 'https://example.org/"quoted".json'],
                                "no_pypi": True, "micropip": True, "left": []}, run
