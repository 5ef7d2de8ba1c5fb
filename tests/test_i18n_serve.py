"""The serve domain in two languages: the pages krypteach serve shows itself (the door,
the refusals, the teacher's page), the classroom's messages (nicknames, progress files,
the classroom file) and the static site's texts, in Swedish inside
``use_language("sv")`` and in English as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from traitlets.utils.importstring import import_item

from krypteach.classroom.config import ClassroomConfig, ConfigError
from krypteach.classroom.store import (
    LessonStanding,
    NicknameError,
    ProgressStore,
    normalize_nickname,
    read_progress_file,
)
from krypteach.i18n import use_language
from krypteach.serve.gate import ClassGate
from krypteach.serve.pages import LostPageTexts, join_page, lost_page_texts, message_page
from krypteach.serve.teacher import learner_page, overview_plots, rule_words, teacher_login_page, teacher_page
from krypteach.site.build import SiteResult, _index

TEMPLATE = Path(__file__).resolve().parent.parent / "krypteach/serve/share/jupyter/voila/templates/krypteach"


def test_the_door_speaks_swedish_and_english():
    with use_language("sv"):
        sv = join_page("/voila/render/sv/03_take_all.ipynb", error="det är inte den här klassens kod")
    assert '<html lang="sv">' in sv
    for word in ("Klasskod", "Smeknamn", "dina framsteg sparas under det", "Börja",
                 "Skriv klasskoden som läraren visar", "Fel klasskod (det är inte den här klassens kod)."):
        assert word in sv, word
    assert "Class code" not in sv and "Nickname" not in sv and "(start)" not in sv
    en = join_page("/", error="that is not this class's code")
    assert '<html lang="en">' in en
    for word in ("Class code", "Nickname", "Type the class code your teacher shows", ">Start</button>",
                 "Wrong class code (that is not this class&#x27;s code)."):
        assert word in en, word
    assert "Klasskod" not in en and "Smeknamn" not in en
    with use_language("sv"):
        nick = join_page("/", ask_code=False, nickname_error="för långt")
    assert "Skriv ett smeknamn, så sparas dina framsteg." in nick and 'name="code"' not in nick
    assert "Smeknamnet går inte att använda: för långt" in nick


@pytest.mark.parametrize("kind, sv_heading, en_heading", [
    ("full", "Klassen är full just nu", "The class is full right now"),
    ("yours", "Du har många lektionssidor öppna", "You have many lesson pages open"),
    ("slow-down", "Lite för snabbt", "A little too fast"),
    ("host", "Fel adress", "Wrong address"),
    ("code", "Fel klasskod", "Wrong class code"),
    ("missing", "Lektionen finns inte här", "Not a lesson of this class"),
    ("teacher", "Ingen lärarsida", "No teacher's page"),
    ("no-such-kind", "Något gick fel", "Something went wrong"),
])
def test_every_refusal_page_in_both_languages(kind, sv_heading, en_heading):
    with use_language("sv"):
        sv = message_page(kind, "skälet", "/krypteach/join")
    assert f"<h1>{sv_heading}</h1>" in sv and f"<title>{sv_heading} – Krypkasino</title>" in sv
    assert "Skälet." in sv and "Försök igen</a>" in sv and en_heading.replace("'", "&#x27;") not in sv
    en = message_page(kind, "the reason")
    assert f"<h1>{en_heading.replace(chr(39), '&#x27;')}</h1>" in en and "The reason." in en
    assert sv_heading not in en


def test_the_gate_gives_its_reasons_in_the_request_language():
    gate = ClassGate(code="K7RPX", max_kernels=1, per_client=1, wrong_code_rate=2)
    with use_language("sv"):
        assert gate.try_code("NOPE1", "1.2.3.4").reason == "det är inte den här klassens kod"
        # the second different wrong code from one computer reaches the limit: a wait, said in seconds
        assert gate.try_code("NOPE2", "1.2.3.4").reason == ("för många fel koder från den här datorn: "
                                                             "vänta 1 sekund och skriv koden igen")
        assert "svarar inte på namnet 'evil.example'" in gate.check_host("evil.example").reason
        assert gate.try_teacher_code("x", "T3ACH3R9", "5.6.7.8").reason == "det är inte lärarkoden"
        assert gate.may_open_page("ann", ["k1"]).reason == "klassen är full (1 sida öppen)"
        gate.claim("k1", "ann")
        assert gate.may_open_page("ann", ["k1"]).reason == ("den här webbläsaren har redan 1 lektionssida öppen: "
                                                            "stäng den och försök igen")
    assert gate.try_code("NOPE1", "9.9.9.9").reason == "that is not this class's code"
    assert gate.may_open_page("ann", ["k1"]).reason == ("this browser already has 1 lesson page open: close it and "
                                                        "try again")


def _class() -> ProgressStore:
    store = ProgressStore(":memory:")
    ann = store.join("K7RPX", "Ann")
    store.declare_items("03_take_all", [("take-all:9H", "exercise"), ("selfcheck:1", "selfcheck")])
    store.record(ann, "03_take_all", "take-all:9H", "exercise", correct=False, rule="take-all")
    store.record(ann, "03_take_all", "take-all:9H", "exercise", correct=False, rule="must-capture")
    store.record(ann, "03_take_all", "selfcheck:1", "selfcheck", correct=True)
    return store


def test_the_teachers_page_in_swedish():
    view = _class().overview("K7RPX")
    titles = {"03_take_all": "3 · Ta in allt"}
    with use_language("sv"):
        sv = teacher_page(view, "K7RPX", "", titles, flash="Importerat: ingen fil vald")
        login = teacher_login_page("", "det är inte lärarkoden")
    for word in ("<h1>Klassen K7RPX just nu</h1>", "1 elev · 0 givar", "Ladda ner CSV", "Importera</button>",
                 "Elever × lektioner", "<th>Elev</th>", "<th>Senast sedd</th>", "Nollställ</button>",
                 "Vill du nollställa Ann?", "Oftast fel", "<th>Lektion</th>", "<th>Uppgift</th>", "<td>övning</td>",
                 "Reglerna bakom felen", "ta in allt du kan: 1", "ett kort som kan ta in måste ta in: 1",
                 "1/2 · 2 fel", 'title="3 försök, 2 fel"', "Ladda om sidan var 20:e sekund (inte medan du skriver i ett formulär)",
                 "alt='Hur långt klassen har kommit i varje lektion'", '<html lang="sv">',
                 "<th>Lektion nu</th>", "<td>3 · Ta in allt</td>"):  # (Ann's last answer was just now)
        assert word in sv, word
    for word in ("learners", "Download", "Most often failed", "take all you can", "refreshes"):
        assert word not in sv, word
    for word in ("Lärarsidan", "Lärarkod", "Öppna</button>", "<code>krypteach serve</code> skrev ut",
                 "det är inte lärarkoden"):
        assert word in login, word


def test_the_teachers_page_in_english_as_before():
    en = teacher_page(_class().overview("K7RPX"), "K7RPX", "", {})
    for word in ("1 learner · 0 givar", "Download CSV", "<th>Learner</th>", "Most often failed",
                 "take all you can (ta in allt): 1", "a card that can take must take: 1", "<td>exercise</td>",
                 'title="3 attempts, 2 wrong"', "Load this page again every 20 seconds (not while you type in a form)", 'id="kt-refresh" checked',
                 "location.reload()", '<html lang="en">'):
        assert word in en, word
    empty = teacher_page(ProgressStore(":memory:").overview("K7RPX"), "K7RPX", "", {})
    assert "No learners yet" in empty and "No mistakes yet." in empty
    # the rules behind the mistakes say so too, not a list of one dash
    rules_part = empty.split("The rules behind the mistakes</h2>", 1)[1].split("<h2>", 1)[0]
    assert rules_part.strip() == "<p>No mistakes yet.</p>" and "<li>–</li>" not in empty
    with use_language("sv"):
        empty_sv = teacher_page(ProgressStore(":memory:").overview("K7RPX"), "K7RPX", "", {})
    assert "Inga elever än." in empty_sv and "Inga fel än." in empty_sv and "0 elever · 0 givar" in empty_sv


def _anns_work():
    store = ProgressStore(":memory:")
    ann = store.join("K7RPX", "Ann <b>")
    store.record(ann, "03_take_all", "take-all-exercise-1", "exercise", correct=False, rule="take-all",
                 answer="9♥ takes 9♠", expected="9♥ takes 9♠ and 2♣+7♥", at=1764590000.0)
    store.record(ann, "03_take_all", "take-all-exercise-1", "exercise", correct=True, how="second-try",
                 answer="9♥ takes 9♠ and 2♣+7♥", expected="9♥ takes 9♠ and 2♣+7♥", at=1764590060.0)
    store.record(ann, "08_puzzles", "trainer", "puzzle", correct=False, topic="which-card", how="shown",
                 expected="5♦", at=1764590120.0)
    store.record(ann, "07_play", "giv", "giv", score=-4, at=1764590300.0)
    return store, ann


def test_a_learners_page_shows_each_answer_with_the_right_one_and_their_givar():
    """Issue 21: per learner, a click-through: each item with the answer they gave and the right
    one, how it was reached, their givar with scores; in the teacher's language."""
    store, ann = _anns_work()
    titles = {"03_take_all": "3 · Take all", "07_play": "7 · Play", "08_puzzles": "8 · Puzzles"}
    en = learner_page("Ann <b>", store.attempts(ann), titles)
    assert "<h1>What Ann &lt;b&gt; did</h1>" in en and "<b>" not in en.split("<main>")[1].split("</h1>")[0]
    assert "3 answers · 1 giv" in en
    assert en.index("3 · Take all") < en.index("8 · Puzzles")  # the lessons in their order
    row = en.split("<tbody>")[1].split("</tr>")[0]  # the newest first
    assert "9♥ takes 9♠ and 2♣+7♥</td><td>9♥ takes 9♠ and 2♣+7♥" in row and "right at the second try" in row
    assert "<td>9♥ takes 9♠</td><td>9♥ takes 9♠ and 2♣+7♥</td><td class='trouble'>wrong</td>" \
           "<td>take all you can (ta in allt)</td>" in en
    assert "answer shown (not solved)" in en and "<td>–</td><td>5♦</td>" in en
    assert "<td>7 · Play</td><td>−4</td>" in en or "<td>7 · Play</td><td>-4</td>" in en
    with use_language("sv"):
        sv = learner_page("Ann", store.attempts(ann), titles)
    for word in ("<h1>Vad Ann har gjort</h1>", "3 svar · 1 giv", "<th>Elevens svar</th>", "<th>Rätt svar</th>",
                 "rätt på andra försöket", "svaret visat (inte löst)", "<td>−4</td>", "ta in allt du kan",
                 "Tillbaka till klassen", '<html lang="sv">'):
        assert word in sv, word
    for word in ("Their answer", "Right answer", "wrong", "answer shown", "Back to the class"):
        assert word not in sv, word
    empty = learner_page("Bo", [], titles)
    assert "Nothing answered yet." in empty and "No giv played to its end yet." in empty


def test_most_often_failed_names_the_exercise_and_the_question_not_their_ids(tmp_path, monkeypatch):
    """Issue 21: "Most often failed" named `take-all-exercise-2`. A lesson page declares each
    item with what it is called; the teacher's page says it in the teacher's language."""
    import krypteach.classroom.session as session_module
    from krypteach.classroom.session import Session
    from krypteach.widgets import SelfCheck
    from krypteach.widgets.exercises import TakeAllExercise

    s = Session()
    monkeypatch.setattr(session_module, "_current", s)
    with use_language("sv"):  # the learner's page is Swedish
        ex = TakeAllExercise(seed=1)
        check = SelfCheck([{"text": "Vad är storan?", "options": ["10♦", "2♠"], "answer": 0}])
    store = ProgressStore(tmp_path / "p.sqlite3")
    ann = store.join("K7RPX", "Ann")
    assert s._adopt(lambda: store, lambda _store: ("K7RPX", "Ann", ann), "/voila/render/sv/03_take_all.ipynb")
    store.record(ann, "03_take_all", ex.item, "exercise", correct=False, rule="take-all")
    store.record(ann, "03_take_all", check.items[0], "selfcheck", correct=False)
    en = teacher_page(store.overview("K7RPX"), "K7RPX", "", {}, item_titles=store.item_titles())
    assert f"<td title='{ex.item}'>Take all you must (ta in allt)</td>" in en
    assert f"<td title='{check.items[0]}'>Vad är storan?</td>" in en  # a question as its page asked it
    with use_language("sv"):
        sv = teacher_page(store.overview("K7RPX"), "K7RPX", "", {}, item_titles=store.item_titles())
        work = learner_page("Ann", store.attempts(ann), {}, store.item_titles())
    assert f"<td title='{ex.item}'>Ta in allt du måste</td>" in sv
    assert "<td>Ta in allt du måste</td>" in work


def test_the_grid_links_each_name_to_their_page_and_keeps_the_names_in_view():
    store, ann = _anns_work()
    en = teacher_page(store.overview("K7RPX"), "K7RPX", "", {})
    assert f"<a href='/krypteach/teacher/learner?id={ann}' title='What Ann &lt;b&gt; did'>Ann &lt;b&gt;</a>" in en
    assert "th[scope=row]{position:sticky;left:0" in en


def test_the_plots_and_the_rule_words_follow_the_language():
    view = _class().overview("K7RPX")
    with use_language("sv"):
        assert [alt for alt, _ in overview_plots(view, {})] == ["Hur långt klassen har kommit i varje lektion",
                                                               "Reglerna bakom felen"]
        assert rule_words("dukning") == "vem som får dukningen" and rule_words("x-unknown") == "x-unknown"
    assert rule_words("dukning") == "who gets the dukning"


def _recorded_rule_keys() -> set[str]:
    """Every rule key a page can keep with a wrong answer: the engine's explanations of a move
    that is not allowed (read from its source), each exercise's own key, every puzzle kind, the
    self-check questions', and the game table's fallback."""
    import ast

    import krypteach.engine
    import krypteach.widgets.exercises as exercises
    from krypteach.widgets.exercises.base import Exercise
    from krypteach.widgets.puzzle_widget import KIND_TITLES

    keys = {"selfcheck", "illegal"} | set(KIND_TITLES)
    for path in Path(krypteach.engine.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Explanation" and len(node.args) > 1
                    and isinstance(node.args[0], ast.Constant) and node.args[0].value is False
                    and isinstance(node.args[1], ast.Constant)):
                keys.add(node.args[1].value)
    for name in exercises.__all__:
        kind = getattr(exercises, name)
        if isinstance(kind, type) and issubclass(kind, Exercise) and kind is not Exercise:
            keys.add(kind.rule_key)
    return keys


def test_every_rule_a_page_keeps_has_words_for_the_teacher_in_both_languages():
    keys = _recorded_rule_keys()
    # the scan found what it should: Krypkasino's, classic Kasino's, an exercise's, a puzzle kind's
    assert {"must-capture", "build-owner-must-act", "kladda", "kasino-steal", "not-traffar"} <= keys
    for key in sorted(keys):
        en = rule_words(key)
        with use_language("sv"):
            sv = rule_words(key)
        assert en != key and sv != key, key


def test_the_teachers_reset_question_cannot_break_out_of_its_script():
    store = ProgressStore(":memory:")
    store.join("K7RPX", "O'Brien\");alert(1);//")
    page = teacher_page(store.overview("K7RPX"), "K7RPX", "", {})
    assert "confirm(&quot;Reset O&#x27;Brien\\&quot;);alert(1);//?&quot;)" in page


def test_nicknames_and_progress_files_are_refused_in_swedish():
    with use_language("sv"), pytest.raises(NicknameError, match="skriv ett smeknamn: 1 till 30"):
        normalize_nickname("   ")
    with use_language("sv"), pytest.raises(NicknameError, match=r"högst 30 tecken \(det här har 31\)"):
        normalize_nickname("x" * 31)
    with use_language("sv"), pytest.raises(NicknameError, match="det osynliga tecknet U\\+0007"):
        normalize_nickname("Ann\x07")
    with use_language("sv"), pytest.raises(ValueError, match="framstegsfilen är inte JSON"):
        read_progress_file("{")
    with use_language("sv"), pytest.raises(ValueError, match="ingen framstegsfil från krypteach"):
        read_progress_file("{}")
    with pytest.raises(NicknameError, match="type a nickname"):
        normalize_nickname("")
    with use_language("sv"):
        assert (LessonStanding(2, 5).text(), LessonStanding(3).text(), LessonStanding().text()) == (
            "2 av 5", "3 lösta", "inte påbörjad")
    assert LessonStanding(2, 5).text() == "2 of 5"


def test_a_repaired_store_tells_the_teacher_in_their_language(tmp_path):
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    store = ProgressStore(path)
    assert "was damaged; it was moved aside to" in store.notice
    with use_language("sv"):
        assert "var skadad. Den flyttades undan till" in store.notice and str(path) in store.notice


@pytest.mark.parametrize("text, swedish", [
    ('[class]\ncolour = "red"', "[class] colour är ingen nyckel här. Nycklarna i [class] är: code, teacher_code"),
    ("[klass]\ncode = 'K7RPX'", "[klass] är ingen avdelning här. Avdelningarna är: [class]"),
    ("class = 3", "class måste vara en avdelning [class], inte ett enskilt värde"),
    ("[caps]\nmax_givar = 0", "[caps] max_givar = 0 går inte: tillåtet är ett heltal från 1 till 100\xa0000"),
    ('[class]\nlanguage = "de"', """[class] language = 'de' går inte: tillåtet är "sv" eller "en\""""),
    ('[lessons]\nshow = []', "[lessons] show = [] går inte: tillåtet är minst en lektion"),
    ('[game]\nbots = ["nobody"]', "går inte: tillåtet är en eller flera av random"),
    ('[class]\ncode = "K7RPXQ"\nteacher_code = "K7RPXQ"', "teacher_code får inte vara klasskoden"),
    ("[class", "inte giltig TOML"),
])
def test_a_bad_classroom_file_is_explained_in_swedish(text, swedish):
    with use_language("sv"), pytest.raises(ConfigError) as e:
        ClassroomConfig.from_text(text)
    assert swedish in str(e.value)


def test_a_bad_classroom_file_is_explained_in_english_as_before():
    with pytest.raises(ConfigError, match=r"\[caps\] max_givar = 0 is not allowed: a whole number from 1 to 100,000"):
        ClassroomConfig.from_text("[caps]\nmax_givar = 0")


def test_the_dead_page_notice_is_in_the_lessons_language():
    assert lost_page_texts("sv") == {"lang": "sv", "heading": "Sidan har tappat kontakten med servern.",
                                     "detail": "Dess Python-kärna har stannat, så korten och knapparna svarar "
                                               "inte längre.", "reload": "Ladda om sidan"}
    pre = LostPageTexts()
    _nb, res = pre({"metadata": {"krypteach": {"language": "sv"}}, "cells": []}, {"x": 1})
    assert res["krypteach_lost"]["reload"] == "Ladda om sidan" and res["x"] == 1
    _nb, res = pre({"metadata": {}, "cells": []}, {})
    assert res["krypteach_lost"]["reload"] == "Reload the page"  # a lesson without a language: the current one
    with use_language("sv"):
        assert pre({"metadata": {"krypteach": {"language": "de"}}}, {})[1]["krypteach_lost"]["lang"] == "sv"
    # the template's conf.json names this preprocessor, and the template shows its words
    conf = json.loads((TEMPLATE / "conf.json").read_text(encoding="utf-8"))
    assert conf["base_template"] == "lab"
    assert [import_item(p["type"]) for p in conf["preprocessors"].values()] == [LostPageTexts]
    template = (TEMPLATE / "index.html.j2").read_text(encoding="utf-8")
    assert "resources.krypteach_lost" in template and "Sidan har tappat" not in template


def test_the_static_sites_texts(tmp_path):
    result = SiteResult(out=tmp_path, pages=["00_start.ipynb"], pyodide="cdn", packages=[],
                        left_out=["sqlite3 (compiled)"], size=1_500_000)
    with use_language("sv"):
        assert result.summary().startswith(f"webbplatsen skrevs till {tmp_path}: 1 lektionssida, 1.5 MB, "
                                           "Pyodide från dess CDN.")
        assert "\ninte i webbläsaren: sqlite3 (compiled) (se docs/deploy.md)" in result.summary()
    assert result.summary().startswith(f"site written to {tmp_path}: 1 lesson page, 1.5 MB, Pyodide from its CDN;")
    _index(tmp_path, "00_start.ipynb", ["00_start.ipynb"], "sv")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert '<html lang="sv">' in index and ">Krypkasino – börja här</a>" in index
    _index(tmp_path, "00_start.ipynb", ["00_start.ipynb"], "en")
    assert ">Krypkasino — start here</a>" in (tmp_path / "index.html").read_text(encoding="utf-8")


# --- a real server: the teacher's page and its messages in the browser's language ---------------

def _request(base: str, method: str, path: str, cookies: dict[str, str], body: bytes | None = None,
              headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    """(status, headers, text) of one request, redirects not followed; the Set-Cookie go into ``cookies``."""
    import http.client
    from urllib.parse import urlparse

    url = urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers={
            **(headers or {}), "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
        r = conn.getresponse()
        for value in r.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            cookies[name.strip()] = rest.split(";")[0]
        return r.status, dict(r.headers), r.read().decode(errors="replace")
    finally:
        conn.close()


def _multipart(files: list[tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = "krypteach-test-boundary"
    parts = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="progress"; filename="{name}"\r\n'
                     f"Content-Type: application/json\r\n\r\n".encode() + data + b"\r\n" for name, data in files)
    return parts + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _done(headers: dict[str, str]) -> str:
    from urllib.parse import parse_qs, urlparse

    return parse_qs(urlparse(headers["Location"]).query)["done"][0]


@pytest.fixture(scope="module")
def teachers_server(private_env, tmp_path_factory):
    from .conftest import Server

    tmp = tmp_path_factory.mktemp("teacher")
    (tmp / "k.toml").write_text('[class]\ncode = "K7RPX"\nteacher_code = "LARARE2481"\n[lessons]\nshow = ["00"]\n',
                                encoding="utf-8")
    s = Server(["--config", str(tmp / "k.toml"), "--progress", str(tmp / "p.sqlite3")], private_env,
               tmp / "serve.log").wait_ready()
    yield s
    s.stop()


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_the_teachers_page_and_its_messages_on_a_server(teachers_server, lang):
    import re
    from urllib.parse import urlencode

    words = {"sv": ("Lärarkod", "det är inte lärarkoden", "Inga elever än.", "Importerat: Ann: {n} försök",
                    "Importerat: ingen fil vald", "Ann: {n} försök borttagna", "Vill du nollställa Ann?"),
             "en": ("Teacher code", "that is not the teacher code", "No learners yet", "Imported: Ann: {n} attempts",
                    "Imported: no file chosen", "Ann: {n} attempts removed", "Reset Ann?")}[lang]
    base = teachers_server.base
    cookies = {"krypteach_lang": lang} if lang == "sv" else {}
    status, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    assert status == 200 and words[0] in page and f'<html lang="{lang}">' in page
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)[1]  # type: ignore[index]
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _h, page = _request(base, "POST", "/krypteach/teacher", cookies,
                                urlencode({"_xsrf": xsrf, "teacher_code": "WRONG1"}).encode(), form)
    assert status == 403 and words[1] in page
    status, _h, _page = _request(base, "POST", "/krypteach/teacher", cookies,
                                 urlencode({"_xsrf": xsrf, "teacher_code": "larare2481"}).encode(), form)
    assert status == 302 and "krypteach_teacher" in cookies
    status, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    # an empty class, or Ann (reset, nickname kept) from the other language's run
    assert status == 200 and ((words[2] in page) if "Ann" not in page else
                              {"sv": "<th>Elev</th>", "en": "<th>Learner</th>"}[lang] in page)
    added, at = (3, 1764590000.0) if lang == "sv" else (2, 1764600000.0)
    progress = json.dumps({"format": "krypteach-progress/1", "nickname": "Ann",
                           "items": {"01_cards": {"q-1": "selfcheck"}},
                           "attempts": [["01_cards", "q-1", "selfcheck", True, None, None, None, at + i]
                                        for i in range(added)]}).encode()
    xsrf_header = {"X-Xsrftoken": cookies["_xsrf"]}
    body, kind = _multipart([("ann.json", progress)])
    status, headers, _page = _request(base, "POST", "/krypteach/teacher/import", cookies, body,
                                      {**xsrf_header, "Content-Type": kind})
    assert status == 302 and _done(headers) == words[3].format(n=added)
    body, kind = _multipart([])
    status, headers, _page = _request(base, "POST", "/krypteach/teacher/import", cookies, body,
                                      {**xsrf_header, "Content-Type": kind})
    assert status == 302 and _done(headers) == words[4]
    status, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    assert words[6] in page
    learner = re.search(r'name="learner" value="(\d+)"', page)[1]  # type: ignore[index]
    status, headers, _page = _request(base, "POST", "/krypteach/teacher/reset", cookies,
                                      urlencode({"_xsrf": xsrf, "learner": learner}).encode(), form)
    assert status == 302 and _done(headers) == words[5].format(n=added)
    status, _h, page = _request(base, "GET", f"/krypteach/teacher/learner?id={learner}", cookies)
    assert status == 200 and {"sv": "<h1>Vad Ann har gjort</h1>", "en": "<h1>What Ann did</h1>"}[lang] in page
    assert {"sv": "Inget besvarat än.", "en": "Nothing answered yet."}[lang] in page  # reset: nothing left
    for bad, code in (("x", 400), ("999999", 404)):
        status, _h, _page = _request(base, "GET", f"/krypteach/teacher/learner?id={bad}", cookies)
        assert status == code
    status, headers, _page = _request(base, "GET", f"/krypteach/teacher/learner?id={learner}", {})
    assert status == 302 and headers["Location"] == "/krypteach/teacher"  # not the teacher: the teacher code first


def test_serve_says_its_start_lines_and_errors_in_the_class_language(private_env, tmp_path):
    """krypteach serve in the classroom file's language (issue 19): its start lines, the
    Ready line and a taken port, on a lessons folder of the start page only (two warm pages)."""
    import re
    import shutil
    import subprocess
    import sys
    import time

    from .conftest import LESSONS, Server

    lessons = tmp_path / "lessons"
    lessons.mkdir()
    shutil.copy(next(LESSONS.glob("00*.ipynb")), lessons)
    env = {k: v for k, v in private_env.items() if k != "KRYPTEACH_LANG"}
    (tmp_path / "klass.toml").write_text('[class]\ncode = "K7RPX"\nlanguage = "sv"\n', encoding="utf-8")
    s = Server(["--dir", str(lessons), "--config", str(tmp_path / "klass.toml"), "--progress", "off"], env,
               tmp_path / "serve.log").wait_ready()
    try:
        taken = subprocess.run([sys.executable, "-m", "krypteach", "serve", "--port", str(s.port), "--dir",
                                str(lessons), "--open", "--lang", "sv", "--progress", "off"],
                               env=env, capture_output=True, text=True, timeout=120)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and "Klart för klassen" not in s.text():
            time.sleep(0.5)
        text = s.text()
    finally:
        s.stop()
    assert f"krypteach serve: lektionerna i {lessons}, på English och Svenska; klassens språk: Svenska\n" in text
    assert f"Öppna http://127.0.0.1:{s.port}/voila/render/sv/00_start.ipynb\n" in text
    assert "Bara den här datorn kan ansluta. För en klass i samma nätverk: krypteach serve --host 0.0.0.0\n" in text
    assert "Klasskod: K7RPX   (eleverna skriver den en gång; --open stänger av den på en privat dator)\n" in text
    assert "Framstegen sparas inte (--progress off).\n" in text
    assert re.search(r"Värmer upp 2 sidor; högst \d+ sidor öppna samtidigt\. Ctrl\+C stoppar\.\n", text)
    assert re.search(r"Klart för klassen: 2 sidor varma efter \d+ s\n", text), text[-2000:]
    for english in ("Open http", "Class code:", "Ready for the class", "Warming"):
        assert english not in text, english
    assert taken.returncode != 0 and taken.stderr.strip().splitlines()[-1] == (
        f"krypteach serve: port {s.port} används redan (kör krypteach serve redan?): stoppa den andra servern "
        "eller välj en annan port med --port")


def test_the_teacher_renames_merges_removes_and_resets_on_a_server(teachers_server):
    """Issue 21: rename, merge and remove a nickname on the learner's page; reset a lesson and the
    class on the class's page; every form asks first (confirm) and carries the teacher's token."""
    import re
    from urllib.parse import urlencode

    base, cookies = teachers_server.base, {}
    _s, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)[1]  # type: ignore[index]
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _h, _p = _request(base, "POST", "/krypteach/teacher", cookies,
                              urlencode({"_xsrf": xsrf, "teacher_code": "LARARE2481"}).encode(), form)
    assert status == 302
    files = [(f"{name}.json", json.dumps({"format": "krypteach-progress/1", "nickname": name, "items": {},
                                          "attempts": [["00_start", f"q-{k}", "selfcheck", True, None, None, None,
                                                        1764590000.0 + k] for k in range(n)]}).encode())
             for name, n in (("Rut", 2), ("rut", 1), ("Sam", 1))]
    body, kind = _multipart(files)
    status, _h, _p = _request(base, "POST", "/krypteach/teacher/import", cookies, body,
                              {"X-Xsrftoken": cookies["_xsrf"], "Content-Type": kind})
    assert status == 302
    _s, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    ids = {name: int(i) for i, name in re.findall(r"learner\?id=(\d+)' title='What (\w+) did'", page)}
    assert {"Rut", "rut", "Sam"} <= set(ids)
    assert "Reset the whole class" in page and 'onsubmit="return confirm(' in page

    def post(path, **fields):
        return _request(base, "POST", path, cookies, urlencode({"_xsrf": xsrf, **fields}).encode(), form)

    _s, _h, page = _request(base, "GET", f"/krypteach/teacher/learner?id={ids['rut']}", cookies)
    assert "Rename rut?" in page.replace("&quot;", '"') and f'<option value="{ids["Rut"]}">Rut</option>' in page
    status, headers, _p = post("/krypteach/teacher/rename", learner=str(ids["rut"]), nickname="Sam")
    assert status == 302 and _done(headers).startswith("Sam is already in the class: if they are the same learner")
    status, headers, _p = post("/krypteach/teacher/merge", learner=str(ids["rut"]), into=str(ids["Rut"]))
    assert status == 302 and _done(headers) == "rut is merged into Rut: 1 attempt moved."
    assert headers["Location"].startswith(f"/krypteach/teacher/learner?id={ids['Rut']}&")
    status, headers, _p = post("/krypteach/teacher/rename", learner=str(ids["Sam"]), nickname="Samir")
    assert status == 302 and _done(headers) == "Sam is now called Samir."
    status, headers, _p = post("/krypteach/teacher/reset-lesson", lesson="00_start")
    assert status == 302 and re.fullmatch(r".*: \d+ attempts removed", _done(headers))
    status, _h, _p = post("/krypteach/teacher/reset-lesson", lesson="99_nothing")
    assert status == 400
    status, headers, _p = post("/krypteach/teacher/remove", learner=str(ids["Sam"]))  # (now Samir)
    assert status == 302 and _done(headers) == "Samir is removed, with all their work."
    status, headers, _p = post("/krypteach/teacher/reset-class")
    assert status == 302 and _done(headers).startswith("The class: ")
    _s, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    assert "What Rut did" in page and "What rut did" not in page and "Samir" not in page
    status, _h, _p = _request(base, "POST", "/krypteach/teacher/reset-class", cookies, b"", form)  # no token
    assert status == 403


def test_the_teacher_sets_homework_and_sees_each_learners_result_on_the_page_and_in_the_csvs(teachers_server):
    """Issue 23: homework on a server: a bad form comes back with what is wrong and sets nothing; a
    good one is listed with each learner's result, counted from their puzzle answers, and in a CSV."""
    import csv
    import io
    import re
    import time
    from urllib.parse import urlencode

    base, cookies = teachers_server.base, {}
    _s, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)[1]  # type: ignore[index]
    form = {"Content-Type": "application/x-www-form-urlencoded"}

    def post(path, **fields):
        return _request(base, "POST", path, cookies, urlencode({"_xsrf": xsrf, **fields}).encode(), form)

    assert post("/krypteach/teacher", teacher_code="LARARE2481")[0] == 302
    status, _h, page = _request(base, "GET", "/krypteach/teacher/homework", cookies)
    assert status == 200 and 'name="due" type="date"' in page and "<option value='tvangstabbe'>tvångstabbe" in page
    # each theme under the lesson whose puzzles train it
    lesson8, lesson10 = page.split("<optgroup label='Lesson 8: Krypkasino&#x27;s puzzles'>")[1].split("</optgroup>", 1)
    assert "value='tvangstabbe'" in lesson8 and "value='build'" not in lesson8
    assert "<optgroup label='Lesson 10: classic Kasino&#x27;s and avig kasino&#x27;s puzzles'><option value='build'>" in lesson10
    tomorrow = time.strftime("%Y-%m-%d", time.localtime(time.time() + 86_400))
    status, _h, page = post("/krypteach/teacher/homework", name="Tvång", theme="tvangstabbe", count="2", due="soon")
    assert status == 400 and "give the due date as a date, such as 2026-12-24" in page
    status, _h, page = post("/krypteach/teacher/homework", name="Tvång", theme="tvangstabbe", count="0", due=tomorrow)
    assert status == 400 and "a homework has 1 to 50 puzzles" in page
    status, _h, page = post("/krypteach/teacher/homework", name="Ids", puzzles="which-card-easy-01 no-such", due=tomorrow)
    assert status == 400 and "there is no puzzle &#x27;no-such&#x27;" in page
    status, headers, _p = post("/krypteach/teacher/homework", name="Tvång", theme="tvangstabbe", count="2", due=tomorrow)
    assert status == 302 and _done(headers) == "Homework Tvång set."
    soon = time.time() + 30  # an answer after the homework was set
    files = [("Hedda.json", json.dumps({"format": "krypteach-progress/1", "nickname": "Hedda", "items": {},
                                        "attempts": [["08_puzzles", "which-card-easy-01", "puzzle", True, None,
                                                      "which-card", 1100, soon, "first-try", None, None,
                                                      "tvangstabbe"]]}).encode())]
    body, kind = _multipart(files)
    assert _request(base, "POST", "/krypteach/teacher/import", cookies, body,
                    {"X-Xsrftoken": cookies["_xsrf"], "Content-Type": kind})[0] == 302
    _s, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    part = page.split("<h3>Tvång</h3>")[1]
    assert part.startswith("<p>2 puzzles on tvångstabbe, at each learner&#x27;s level, in lesson 8 · due ")
    assert re.search(r"<th scope='row'>Hedda</th><td>1 of 2 done, 1 solved</td>", part)
    assert "Puzzle rating" in page and re.search(r"<td>\d[\d,]* \(1 puzzle\)</td>", page)
    status, _h, text = _request(base, "GET", "/krypteach/teacher/homework.csv", cookies)
    rows = [r for r in csv.DictReader(io.StringIO(text)) if r["nickname"] == "Hedda"]
    assert status == 200 and rows == [{"nickname": "Hedda", "homework": "Tvång", "theme": "tvangstabbe", "puzzles": "",
                                       "due": tomorrow, "done": "1", "solved": "1", "of": "2"}]
    status, _h, text = _request(base, "GET", "/krypteach/teacher/export.csv", cookies)  # the class's CSV names it too
    answers = [r for r in csv.DictReader(io.StringIO(text)) if r["nickname"] == "Hedda"]
    assert status == 200 and [(r["item"], r["homework"]) for r in answers] == [("which-card-easy-01", "Tvång")]
    hw_id = re.search(r"name='id' value='(\d+)'", part)[1]  # type: ignore[index]
    status, headers, _p = post("/krypteach/teacher/homework/remove", id=hw_id)
    assert status == 302 and _done(headers) == "The homework is taken back."
    assert post("/krypteach/teacher/homework/remove", id="x")[0] == 400
    _s, _h, page = _request(base, "GET", "/krypteach/teacher", cookies)
    assert "<h3>Tvång</h3>" not in page and "No homework set." in page
