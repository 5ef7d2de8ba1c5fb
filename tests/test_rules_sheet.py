"""Issue 10: the one-page rules sheet. Its numbers come from the engine, it prints
without buttons, black on white, and the CLI and the served app give the same page.
(That it fits one A4 page is checked in a real browser: tests/test_browser.py.)"""

from __future__ import annotations

import re

import pytest
import tornado.web

from krypteach import Rules
from krypteach.cli import main
from krypteach.engine.cards import POINTS, Card
from krypteach.engine.rules import deal_plan
from krypteach.serve.app import ServeSettings, _RulesSheetHandler
from krypteach.serve.gate import ClassGate
from krypteach.views.rules_sheet import rules_sheet_html


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.split("<body>")[1]))


def test_the_sheet_says_the_engines_numbers():
    text = _text(rules_sheet_html())
    assert 2 * sum(POINTS) == 42 and f"hold {2 * sum(POINTS)} points" in text
    for card, name in (("10D", "storan"), ("2S", "lillan"), ("AS", "spader ess")):
        assert re.search(rf"{Card(card).symbol} {name} {Card(card).points}\b", text), name
    assert "tabbe mark, +5 points" in text and "dukning , −5 points" in text
    assert "card points +5 × tabbe marks −5 × dukningar" in text
    assert "2 players 8 × (4 each, 4 to the table) + (4 each, 0 to the table)" in text
    assert deal_plan(Rules(players=5))[-1] == (1, 3) and "+ (1 each, 3 to the table)" in text
    assert "take 9♠ and 2♣+7♥; 5♦ stays" in text and "“tabbe på tio”" in text
    assert "Tvångstabbe." in text and "one giv per player" in text


def test_a_variant_changes_the_sheet():
    text = _text(rules_sheet_html(Rules(tabbe_points=7, dukning_points=-3, last_capture_point=1, givar=4,
                                        capture="free", forced_tabbe=False, hand_size=5)))
    assert "tabbe mark, +7 points" in text and "dukning , −3 points" in text and "hold 43 points" in text
    assert "A parti is 4 givar" in text and "taking is free" in text and "No tvångstabbe" in text
    assert "5 cards each" in text and "Tvångstabbe." not in text


def test_the_sheet_prints_black_on_white_without_buttons():
    page = rules_sheet_html()
    assert page.startswith("<!DOCTYPE html>") and "http" not in page  # nothing loaded from elsewhere
    css = page.split("@media print")[1].split("</style>")[0]
    assert ".kt-noprint { display: none !important; }" in css and "color: #000" in css and "#fff" in css
    assert "@page { size: A4;" in page
    button = re.search(r"<button[^>]*>", page).group(0)
    assert "kt-noprint" in button and "window.print()" in button


def test_the_cli_writes_the_same_sheet(tmp_path, capsys):
    out = tmp_path / "regler.html"
    assert main(["rules-sheet", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == rules_sheet_html()
    assert "one A4 page" in capsys.readouterr().out
    assert main(["rules-sheet"]) == 0
    assert capsys.readouterr().out == rules_sheet_html()
    assert main(["rules-sheet", "--rules", "last-capture-point"]) == 0
    assert "hold 43 points" in _text(capsys.readouterr().out)
    assert main(["rules-sheet", "--out", str(tmp_path)]) == 1
    assert "is a folder" in capsys.readouterr().err


@pytest.fixture(scope="module")
def sheet_server():
    """``/krypteach/rules`` as the served app registers it, on a loop in a thread of its own
    (a session's Playwright keeps an event loop running in the main thread)."""
    import asyncio
    import threading

    ready = threading.Event()
    box: dict = {}

    def run() -> None:
        async def main() -> None:
            settings = ServeSettings(gate=ClassGate(code="ABCD1234", max_kernels=4), start_page=None)
            app = tornado.web.Application([(r"/krypteach/rules", _RulesSheetHandler)], krypteach=settings)
            server = app.listen(0, "127.0.0.1")
            box["port"] = next(iter(server._sockets.values())).getsockname()[1]
            box["stop"] = asyncio.Event()
            box["loop"] = asyncio.get_running_loop()
            ready.set()
            await box["stop"].wait()
            server.stop()

        asyncio.run(main())

    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert ready.wait(10)
    yield f"http://127.0.0.1:{box['port']}"
    box["loop"].call_soon_threadsafe(box["stop"].set)
    t.join(10)


def _fetch(url: str, host: str | None = None) -> tuple[int, str, str]:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers["Content-Type"], r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode("utf-8", "replace")


def test_the_served_sheet_needs_no_class_code(sheet_server):
    status, kind, body = _fetch(sheet_server + "/krypteach/rules")
    assert status == 200 and kind.startswith("text/html") and body == rules_sheet_html()


def test_the_served_sheet_refuses_another_host_name(sheet_server):
    status, _, _ = _fetch(sheet_server + "/krypteach/rules", host="evil.example")
    assert status == 403


def test_the_start_page_links_the_sheet_in_a_new_tab():
    import json
    from pathlib import Path

    start = Path(__file__).resolve().parent.parent / "lessons" / "00_start.ipynb"
    text = "".join(line for cell in json.loads(start.read_text(encoding="utf-8"))["cells"] for line in cell["source"])
    assert ('<a href="/krypteach/rules" target="_blank">Rules sheet to print (regler att skriva ut)</a>') in text
