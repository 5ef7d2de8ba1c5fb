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
from krypteach.i18n import use_language
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


_SERVED: dict = {}


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
            _SERVED["settings"] = settings
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


def _fetch(url: str, host: str | None = None, lang: str | None = None) -> tuple[int, str, str]:
    import urllib.error
    import urllib.request

    headers = {"Host": host} if host else {}
    if lang:
        headers["Cookie"] = f"krypteach_lang={lang}"
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers["Content-Type"], r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode("utf-8", "replace")


def test_the_served_sheet_needs_no_class_code(sheet_server):
    status, kind, body = _fetch(sheet_server + "/krypteach/rules")
    assert status == 200 and kind.startswith("text/html") and body == rules_sheet_html()


def test_the_served_sheet_is_the_class_game_in_the_browser_language(sheet_server):
    settings = _SERVED["settings"]
    settings.game_rules = "avig-kasino"
    try:
        status, _, body = _fetch(sheet_server + "/krypteach/rules", lang="sv")
    finally:
        settings.game_rules = None
    assert status == 200
    with use_language("sv"):
        assert body == rules_sheet_html(Rules.preset("avig-kasino"))
    assert "Avig kasino – reglerna på en sida" in body and "lägst poäng vinner" in body


def test_the_served_sheet_refuses_another_host_name(sheet_server):
    status, _, _ = _fetch(sheet_server + "/krypteach/rules", host="evil.example")
    assert status == 403


def test_the_start_page_links_the_sheet_in_a_new_tab():
    import json
    from pathlib import Path

    start = Path(__file__).resolve().parent.parent / "lessons" / "00_start.ipynb"
    text = "".join(line for cell in json.loads(start.read_text(encoding="utf-8"))["cells"] for line in cell["source"])
    assert ('<a href="/krypteach/rules" target="_blank">Rules sheet to print (regler att skriva ut)</a>') in text


# --- issue 19: the sheet follows the class's game, in both languages ------------------------------

#: what each game's sheet must say, by language (whole phrases of the sheet)
_SAYS = {
    "kasino": {
        "en": ["Kasino — the rules on one page", "One ordinary deck of 52 cards", "10♦ stora kasino 2",
               "2♠ lilla kasino 1", "A♠ A♥ A♦ A♣ each ace (ess) 1", "the most spades 2", "the most cards 1",
               "the last capture sistan 1", "each tabbe +1", "Without tabbar a giv holds 11 points",
               "Bygga (build)", "Höja (raise, bygga på)", "Dubbelt bygge (multiple build)",
               "The builder's duty:", "Lägga ut (trail)", "Example: table 4♠ 7♦, you hold 5♥ 9♦: 5♥ on 4♠ builds 9",
               "until a side has 16 points or more after a giv. Then the highest total wins",
               "Taking is free", "2–4 players", "the one who took in last (den som tar in sist)",
               "Raise and gather: when you raise a build",
               "table Q♦ [10: 3♠+7♣], you hold Q♣ 2♠: 2♠ on the build makes 12 and takes Q♦ into the pile",
               "A lone ace as 14:", "table A♥ 9♣, you hold A♠ 5♦: 5♦ on 9♣ builds 14, and A♥ joins it",
               "a lone table ace may stand as 14 in a build of 14"],
        "sv": ["Kasino – reglerna på en sida", "En vanlig kortlek med 52 kort", "10♦ stora kasino 2",
               "2♠ lilla kasino 1", "varje ess 1", "flest spader 2", "flest kort 1",
               "Utan tabbar delas 11 poäng ut per giv", "Bygga : lägg ett kort på bordskort",
               "Höja (bygga på)", "Dubbelt bygge:", "Byggarens plikt:", "Lägga ut : lägg ett kort",
               "Du lägger 5♥ på 4♠ och bygger 9", "tills någon har nått 16 poäng efter en giv. Då vinner högst summa",
               "Givaren delar ut 4 kort", "talongen", "den som tar in sist", "2–4 spelare", "Höja och samla:",
               "Du lägger 2♠ på bygget så att det blir 12, och lägger Q♦ i samma hög", "Ett ensamt ess som 14:"],
    },
    "avig-kasino": {
        "en": ["Avig kasino — the rules on one page", "the lowest score wins", "Then the lowest total wins",
               "A card that can take must take", "Tvångstabbe.", "Bygga (build)", "10♦ stora kasino 2"],
        "sv": ["Avig kasino – reglerna på en sida", "lägst poäng vinner", "Då vinner lägst summa",
               "Ett kort som kan ta in måste ta in", "Tvångstabbe.", "Bygga :", "10♦ stora kasino 2"],
    },
    "kasino-21": {
        "en": ["until a side has 21 points or more after a giv", "several over 21 in the same giv"],
        "sv": ["tills någon har nått 21 poäng efter en giv", "kommer flera över 21 i samma giv"],
    },
    "table-grows-by-creeping": {
        "en": ["Krypkasino — the rules on one page", "10♦ storan 3", "klädda högen", "dukning , −5 points",
               "creeps (kryper)", "the lowest total wins", "Two ordinary decks"],
        "sv": ["Krypkasino – reglerna på en sida", "10♦ storan 3", "klädda högen", "dukning , −5 poäng",
               "kryper", "lägst summa vinner", "Två vanliga kortlekar"],
    },
}

#: what each game's sheet must not say: the other game's rules
_LACKS = {
    "kasino": {
        "en": ["dukning", "klädda", "kryp", "creep", "Tvångstabbe", "tvångstabbe", "dubbeltabbe", "Dubbeltabbe",
               "Krypkasino —", "104 cards", "storan", "lowest", "can take must take"],
        "sv": ["dukning", "klädda högen", "kryp", "vångstabbe", "ubbeltabbe", "104 kort", "storan", "lägst",
               "måste ta in", "—"],
    },
    "avig-kasino": {
        "en": ["dukning", "klädda", "kryp", "creep", "ubbeltabbe", "highest", "Taking is free"],
        "sv": ["dukning", "klädda högen", "kryp", "ubbeltabbe", "högst", "Du måste inte ta in", "—"],
    },
    "kasino-21": {"en": ["16 points"], "sv": ["16 poäng"]},
    "table-grows-by-creeping": {
        "en": ["Bygg", "bygg", "build", "Höja", "stora kasino", "lilla kasino", "Lägga ut", "sistan", "talong",
               "highest"],
        "sv": ["Bygg", "bygg", "Höja", "stora kasino", "lilla kasino", "Lägga ut", "sistan", "talong", "högst"],
    },
}


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("preset", list(_SAYS))
def test_the_sheet_describes_the_game_of_its_rules(preset, lang):
    with use_language(lang):
        page = rules_sheet_html(Rules.preset(preset))
    text = _text(page).split("krypteach · ")[0]  # the foot names the lessons, which teach Krypkasino
    missing = [s for s in _SAYS[preset][lang] if s not in text]
    assert not missing, missing
    wrong = [s for s in _LACKS[preset][lang] if s in text]
    assert not wrong, wrong
    assert f'<html lang="{lang}">' in page


def test_a_kasino_variant_changes_the_sheet():
    text = _text(rules_sheet_html(Rules.preset("kasino", multiple_builds=False, owner_duty="none",
                                               face_cards="own-rank", tabbe_points=2, last_capture_point=0)))
    assert "No multiple builds in this variant" in text and "Dubbelt bygge" not in text
    assert "builder's duty" not in text and "Face cards take only their own rank" in text
    assert "Raise and gather" not in text and "A lone ace as 14" not in text  # they need multiple builds
    assert "each tabbe +2" in text and "for sistan" not in text and "capture sistan" not in text and "Without tabbar a giv holds 10 points" in text
    off = _text(rules_sheet_html(Rules.preset("kasino", raise_gathers=False, lone_ace_builds=False)))
    assert "Dubbelt bygge" in off and "Raise and gather" not in off and "A lone ace as 14" not in off
    assert "in a sum or a build an ace counts 1" in off
    pairs = _text(rules_sheet_html(Rules.preset("kasino-pairs")))
    assert "Kasino, 4 players (in pairs)" in pairs and "partnerkasino: seats 0+2 against 1+3" in pairs
    assert "the most spades 2" in pairs and "4 players (4 each, 4 to the table) + 2 × (4 each, 0 to the table)" in pairs
    draw = _text(rules_sheet_html(Rules.preset("dragkasino")))
    assert "Dragkasino: after each card you play you draw one from the talong" in draw
    assert "4 more to each" not in draw


def test_the_cli_writes_the_sheet_of_its_rules_in_the_language(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("KRYPTEACH_LANG", "sv")
    assert main(["rules-sheet", "--rules", "kasino"]) == 0
    text = _text(capsys.readouterr().out)
    assert "Kasino – reglerna på en sida" in text and "Byggarens plikt:" in text and "dukning" not in text


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("preset", ["kasino", "avig-kasino", "dragkasino", "kasino-pairs", "kasino-face-own-rank"])
def test_a_kasino_sheet_prints_on_one_a4_page(page, preset, lang):
    """The Kasino sheets are longer than Krypkasino's (tests/test_browser.py prints that one)."""
    with use_language(lang):
        page.set_content(rules_sheet_html(Rules.preset(preset)))
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1, "the rules sheet prints on more than one page"
