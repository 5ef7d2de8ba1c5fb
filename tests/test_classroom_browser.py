"""The classroom half in a real browser (issue 10): a learner's progress kept across a
reload and a restart of the server, and the teacher's page of a class.

A server of its own (it is restarted), with its progress file and data folder in tmp."""

from __future__ import annotations

import json
import random
import re
import urllib.request

import pytest

from krypteach.classroom.store import ProgressStore

from .conftest import Server
from .test_browser import LOAD_MS, STEP_MS, close
from .test_screens import TOO_SMALL

#: the phone check of the lesson pages, with the teacher's page's links that act as buttons
THUMB = TOO_SMALL.replace("querySelectorAll('button,", "querySelectorAll('a.button, th[scope=row] a, button,")

pytestmark = pytest.mark.browser

CODE, TEACHER = "K7RPX", "TEACH42X"


@pytest.fixture
def classroom(private_env, tmp_path):
    env = dict(private_env)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # the cookie secret: the same across the restart
    progress = tmp_path / "progress.sqlite3"
    args = ["--class-code", CODE, "--teacher-code", TEACHER, "--progress", str(progress)]
    servers: list[Server] = []

    def start() -> Server:
        port = servers[0].port if servers else None
        s = Server(args, env, tmp_path / f"serve{len(servers)}.log", port=port).wait_ready()
        servers.append(s)
        return s

    yield start, progress
    for s in servers:
        s.stop()


def _sign_in(page, base: str, lesson: str, nickname: str, pin: str) -> None:
    """Open ``lesson`` and sign in at the door it sends a new browser to."""
    page.goto(f"{base}/voila/render/en/{lesson}", timeout=LOAD_MS)
    page.wait_for_url("**/krypteach/join**", timeout=LOAD_MS)
    page.fill("#code", CODE)
    page.fill("#nickname", nickname)
    page.fill("#pin", pin)
    page.click("button[type=submit]")
    page.locator(".kt-learner", has_text=nickname).wait_for(timeout=LOAD_MS)


def _teachers_grid(context, base: str, nickname: str):
    """The teacher's page, signed in with the teacher code: (the page, ``nickname``'s row of the
    grid, each column's heading -> that row's cell)."""
    teacher = context.new_page()
    teacher.goto(f"{base}/krypteach/teacher", timeout=LOAD_MS)
    teacher.fill("#tcode", TEACHER)
    teacher.click("button[type=submit]")
    row = teacher.locator("tr", has=teacher.locator("th[scope=row]", has_text=nickname))
    row.wait_for(timeout=STEP_MS)
    heads = teacher.locator("thead").first.locator("th").all_inner_texts()
    return teacher, row, dict(zip(heads, row.locator("td, th").all_inner_texts()))


def _solve_the_first_take_all(page) -> None:
    ex = page.locator(".kt-exercise").filter(has=page.locator('.kt-table .kt-card[data-card="5D"]')).first
    table = ex.locator(".kt-cards.kt-table")

    def pick(code):
        card = table.locator(f'.kt-card[data-card="{code}"]')
        card.click()
        page.wait_for_function("el => el.classList.contains('kt-selected')", arg=card.element_handle(),
                               timeout=STEP_MS)

    pick("9S")  # only the 9: wrong (take-all)
    ex.get_by_role("button", name="Check").click()
    ex.locator(".kt-feedback .kt-error").wait_for(timeout=STEP_MS)
    for code in ("2C", "7H"):
        pick(code)
    ex.get_by_role("button", name="Check").click()
    ex.locator(".kt-feedback .kt-ok").wait_for(timeout=STEP_MS)


def test_progress_is_kept_across_a_reload_and_a_server_restart(browser, classroom):
    start, progress = classroom
    server = start()
    context = browser.new_context()
    try:
        page = context.new_page()
        _sign_in(page, server.base, "03_take_all.ipynb", "Ann 🦊", "4711")  # a new browser: sent to the door
        bar = page.locator(".kt-learner")
        total = int(re.search(r"(\d+) of (\d+) exercises and questions solved", bar.inner_text()).group(2))
        assert f"0 of {total} exercises and questions solved in this lesson" in bar.inner_text() and "klara" not in bar.inner_text()
        assert total >= 3
        _solve_the_first_take_all(page)
        bar.filter(has_text=f"1 of {total} exercises and questions solved").wait_for(timeout=STEP_MS)

        page.reload(timeout=LOAD_MS)
        page.locator(".kt-learner", has_text=f"1 of {total} exercises and questions solved").wait_for(timeout=LOAD_MS)
        close(page)

        server.stop()
        server = start()  # the same port, file and secret: a restart
        page = context.new_page()
        page.goto(f"{server.base}/voila/render/en/03_take_all.ipynb", timeout=LOAD_MS)
        page.locator(".kt-learner", has_text=f"1 of {total} exercises and questions solved").wait_for(timeout=LOAD_MS)
        assert "/krypteach/join" not in page.url
        close(page)
        # the start page: where Ann stands in every lesson
        page = context.new_page()
        page.goto(f"{server.base}/voila/render/en/00_start.ipynb", timeout=LOAD_MS)
        overview = page.locator(".kt-learner", has_text="where you stand")
        overview.wait_for(timeout=LOAD_MS)
        row = overview.locator("tr", has_text="3 · Take all you can, or creep")
        assert row.inner_text().split("\t")[-1].strip() == f"1 of {total}"
        assert "Givar played: 0" in overview.inner_text()
        close(page)
    finally:
        context.close()
    store = ProgressStore(progress)
    [(ann, name)] = store.learners(CODE)
    kinds = [(a[2].split("-")[0], a[4], a[5]) for a in store.attempts(ann)]
    assert name == "Ann 🦊" and kinds == [("take", 0, "take-all"), ("take", 1, None)]


def test_a_reload_keeps_the_giv_in_progress_and_new_parti_asks_first(browser, classroom):
    """Issue 21: a reload lost the giv, and New parti wiped it with no question."""
    import random

    from .test_browser import choose_a_legal_move, wait_for_the_others

    start, _progress = classroom
    server = start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        _sign_in(page, server.base, "07_play.ipynb", "Bo", "2580")
        game = page.locator(".kt-game")
        game.locator(".kt-status", has_text="Your turn").wait_for(timeout=LOAD_MS)
        rng = random.Random(3)
        for _ in range(2):
            before = game.locator(".kt-log li").count()
            choose_a_legal_move(page, rng, STEP_MS)
            game.locator(".kt-buttons button", has_text="Play").click()
            wait_for_the_others(page, before, 2, STEP_MS)
        hand = game.locator(".kt-cards.kt-hand .kt-card").evaluate_all("els => els.map(e => e.dataset.card)")
        log = game.locator(".kt-log li").all_inner_texts()

        page.reload(timeout=LOAD_MS)
        game = page.locator(".kt-game")
        game.locator(".kt-feedback", has_text="Welcome back: the parti is as you left it").wait_for(timeout=LOAD_MS)
        assert game.locator(".kt-cards.kt-hand .kt-card").evaluate_all("els => els.map(e => e.dataset.card)") == hand
        assert game.locator(".kt-log li").all_inner_texts() == log

        game.get_by_role("button", name="New parti").click()  # asks first; No keeps the giv
        question = game.locator(".kt-question")
        question.get_by_text("Start a new parti? The giv you are playing is lost.").wait_for(timeout=STEP_MS)
        question.get_by_role("button", name="No, keep playing").click()
        question.wait_for(state="hidden", timeout=STEP_MS)
        assert game.locator(".kt-log li").all_inner_texts() == log
        game.get_by_role("button", name="New parti").click()
        question.get_by_role("button", name="Yes, start a new parti").click()
        game.locator(".kt-feedback", has_text="New parti of").wait_for(timeout=STEP_MS)
        # the protocol is a widget of its own: its new giv may reach the page a moment after the words
        # (a CI run read the old one here)
        page.wait_for_function("old => JSON.stringify([...document.querySelectorAll('.kt-game .kt-log li')]"
                               ".map(li => li.innerText)) !== JSON.stringify(old)", arg=log, timeout=STEP_MS)
        close(page)
    finally:
        context.close()


def test_a_learners_work_reaches_the_grid_their_page_and_the_csv_alike(browser, classroom):
    """Issue 21 (done when, in part): a learner answers a take-all exercise wrong and then right,
    plays a whole giv of lesson 07 and runs the variant lab; the teacher's grid, the learner's
    page and the CSV count the same things, and the learner's start page agrees."""
    import csv
    import io
    import random

    from .test_browser import choose_a_legal_move, wait_for_the_others

    start, _progress = classroom
    server = start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        _sign_in(page, server.base, "03_take_all.ipynb", "Uma", "1357")
        _solve_the_first_take_all(page)  # one wrong, then right (the second try)
        close(page)

        page = context.new_page()
        page.goto(f"{server.base}/voila/render/en/07_play.ipynb", timeout=LOAD_MS)
        game = page.locator(".kt-game")
        game.locator(".kt-status", has_text="Your turn").wait_for(timeout=LOAD_MS)
        rng = random.Random(5)
        final = game.locator(".kt-final")
        for _ in range(200):
            if final.count():
                break
            before = game.locator(".kt-log li").count()
            choose_a_legal_move(page, rng, STEP_MS)
            game.locator(".kt-buttons button", has_text="Play").click()
            wait_for_the_others(page, before, 2, STEP_MS)
        final.wait_for(timeout=STEP_MS)
        close(page)

        page = context.new_page()
        page.goto(f"{server.base}/voila/render/en/09_variant_lab.ipynb", timeout=LOAD_MS)
        lab = page.locator(".kt-variant-lab")
        givar = lab.locator(".widget-text", has_text="Givar per rule set").locator("input")
        givar.fill("10")
        givar.press("Enter")
        lab.get_by_role("button", name="Run the comparison").click()
        lab.locator(".kt-ok", has_text="Done: 10 givar").wait_for(timeout=120_000)
        assert "Tabbar per giv went from" in lab.locator(".kt-ok").inner_text()
        close(page)

        page = context.new_page()
        page.goto(f"{server.base}/voila/render/en/00_start.ipynb", timeout=LOAD_MS)
        overview = page.locator(".kt-learner", has_text="where you stand")
        overview.wait_for(timeout=LOAD_MS)
        mine = overview.inner_text()
        assert "Givar played: 1 — Krypkasino (the lowest score wins): 1 giv" in mine
        assert "Go on where you left off: 9 · " in mine
        take_all = overview.locator("tr", has_text="3 · Take all you can, or creep").inner_text()
        close(page)

        teacher, row, by_lesson = _teachers_grid(context, server.base, "Uma")
        heads = list(by_lesson)
        lesson3 = next(h for h in heads if h.startswith("3 · "))
        assert by_lesson[lesson3].startswith("1/") and "1 wrong" in by_lesson[lesson3]
        assert by_lesson[lesson3].split(" ")[0].replace("/", " of ") == take_all.split("\t")[-1].strip()
        assert "1 giv" in by_lesson[next(h for h in heads if h.startswith("7 · "))]
        assert by_lesson[next(h for h in heads if h.startswith("9 · "))] != "–"  # the lab run
        assert by_lesson["Givar"] == "1"
        row.locator("th[scope=row] a").click()
        teacher.locator("h1", has_text="What Uma did").wait_for(timeout=STEP_MS)
        work = teacher.locator("main").inner_text()
        assert "right at the second try" in work and "wrong" in work and "variant-lab run" in work
        assert "Take all you must (ta in allt)" in work  # the item by its name, not its id
        answers = teacher.locator("tbody tr").count()
        status, text = teacher.evaluate("""async () => { const r = await fetch('/krypteach/teacher/export.csv');
                                           return [r.status, await r.text()]; }""")
        assert status == 200
        rows = [r for r in csv.DictReader(io.StringIO(text)) if r["nickname"] == "Uma"]
        assert len([r for r in rows if r["kind"] != "giv" or r["score"]]) == answers  # the same rows
        assert [r["how"] for r in rows if r["lesson"] == "03_take_all"] == ["first-try", "second-try"]
        assert [r["correct"] for r in rows if r["lesson"] == "03_take_all"] == ["no", "yes"]
        assert any(r["kind"] == "giv" and r["score"] for r in rows) and any(r["kind"] == "lab" for r in rows)
        close(teacher)
    finally:
        context.close()


def test_the_teachers_page_shows_the_class_and_only_opens_with_the_teacher_code(browser, classroom):
    start, progress = classroom
    store = ProgressStore(progress)  # a class of simulated learners, as kernels would record them
    store.declare_items("03_take_all", [(f"take-all-exercise-{i}", "exercise") for i in (1, 2, 3)])
    for k, name in enumerate(["Ann", "Bo", "Cia", "Dan", "Eva", "Filip"]):
        me = store.join(CODE, name)
        for i in range(1, 1 + k % 4):
            store.record(me, "03_take_all", f"take-all-exercise-{i}", "exercise", correct=False, rule="take-all")
            store.record(me, "03_take_all", f"take-all-exercise-{i}", "exercise", correct=True)
        store.record(me, "07_play", "giv", "giv", score=k - 2)
    store.close()
    server = start()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{server.base}/krypteach/teacher", timeout=LOAD_MS)
        page.fill("#tcode", CODE)  # the learners' code never opens it
        page.click("button[type=submit]")
        page.locator(".error", has_text="not the teacher code").wait_for(timeout=STEP_MS)
        page.fill("#tcode", TEACHER.lower())
        page.click("button[type=submit]")
        page.locator("h1", has_text=f"The class {CODE}, live").wait_for(timeout=STEP_MS)
        text = page.inner_text("body")
        assert "6 learners" in text and "6 givar" in text
        row = page.locator("tr", has=page.locator("th", has_text="Dan"))
        assert "3/3" in row.inner_text()  # Dan solved all three
        assert "take all you can" in text
        assert page.locator("img[alt='The rules behind the mistakes']").evaluate("i => i.naturalWidth") > 200
        with page.expect_download() as dl:
            page.click("a[href='/krypteach/teacher/export.csv']")
        csv = open(dl.value.path(), encoding="utf-8").read()
        assert csv.count("\n") == 1 + 2 * (0 + 1 + 2 + 3 + 0 + 1) + 6
        # a learner's progress file from the static site, imported into the class
        upload = progress.parent / "krypteach-progress-Gus.json"
        upload.write_text(json.dumps({"format": "krypteach-progress/1", "nickname": "Gus", "items": {},
                                      "attempts": [["03_take_all", "take-all-exercise-1", "exercise", True,
                                                    None, None, None, 1764590000.0]]}), encoding="utf-8")
        bad = progress.parent / "notes.json"
        bad.write_text("[1, 2]", encoding="utf-8")
        assert page.inner_text("#progress-chosen") == "No file chosen"  # the page's words, not the browser's
        page.set_input_files("#progress-files", [str(upload), str(bad)])
        assert page.inner_text("#progress-chosen") == "2 files chosen: krypteach-progress-Gus.json, notes.json"
        page.get_by_role("button", name="Import", exact=True).click()
        flash = page.locator("[role=status]", has_text="Imported: ")
        flash.wait_for(timeout=STEP_MS)
        assert "Gus: 1 attempt;" in flash.inner_text() and "notes.json: not a krypteach progress file" in flash.inner_text()
        assert "1/3" in page.locator("tr", has=page.locator("th", has_text="Gus")).inner_text()
        page.once("dialog", lambda d: d.accept())
        row.get_by_role("button", name="Reset Dan").click()
        page.locator("[role=status]", has_text="Dan: 7 attempts removed").wait_for(timeout=STEP_MS)
        assert "3/3" not in page.locator("tr", has=page.locator("th", has_text="Dan")).inner_text()
        # Eva forgot her PIN: she chooses a new one at her next sign-in, her progress stays
        page.once("dialog", lambda d: d.accept())
        page.locator("tr", has=page.locator("th", has_text="Eva")).get_by_role("button", name="New PIN for Eva").click()
        page.locator("[role=status]", has_text="Eva chooses a new PIN at the next sign-in").wait_for(timeout=STEP_MS)
        # no horizontal scroll on a phone: the grid scrolls in its own box
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        # the page's refresh box: a box before its words, on their line, in a label a thumb can hit
        # (it was a bar the width of the page above its words)
        box = page.locator("#kt-refresh").bounding_box()
        label = page.locator("label", has=page.locator("#kt-refresh")).bounding_box()
        assert box and label and box["width"] < 40 and label["height"] >= 44, (box, label)
        assert abs(box["x"] - label["x"]) < 2 and label["y"] <= box["y"] <= label["y"] + label["height"] - box["height"]
        # and every control a thumb uses is 44 px each way, the learners' names too, here and on a
        # learner's page (its rename, merge and remove forms)
        assert not page.evaluate(THUMB), page.evaluate(THUMB)
        page.locator("th[scope=row] a", has_text="Ann").click()
        page.locator("h1", has_text="What Ann did").wait_for(timeout=STEP_MS)
        assert page.locator("form button").count() >= 3 and not page.evaluate(THUMB), page.evaluate(THUMB)
        close(page)
    finally:
        context.close()
    # the class code opens lesson pages, never the teacher's page (no cookie, no code: the login form)
    with urllib.request.urlopen(f"{server.base}/krypteach/teacher?class={CODE}", timeout=10) as r:
        assert "Teacher code" in r.read().decode()


def test_the_door_the_rules_sheet_and_the_teachers_page_have_no_english_in_swedish(browser, classroom):
    """Issue 19: every page the server serves, in Swedish (the krypteach_lang cookie), has no
    English sentence (tests/english_text.py) and writes numbers as Swedish does."""
    from .english_text import english_sentences

    start, progress = classroom
    store = ProgressStore(progress)
    store.declare_items("03_take_all", [(f"take-all-exercise-{i}", "exercise") for i in (1, 2)])
    for k, name in enumerate(["Ann", "Bo", "Cia"]):
        me = store.join(CODE, name)
        store.record(me, "03_take_all", "take-all-exercise-1", "exercise", correct=bool(k % 2), rule="take-all")
        store.record(me, "07_play", "giv", "giv", score=k - 7)  # a negative score: −7
    store.close()
    server = start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_cookies([{"name": "krypteach_lang", "value": "sv", "url": server.base}])
    problems: list[str] = []
    try:
        page = context.new_page()

        def look(where: str) -> str:
            text = page.inner_text("body")
            problems.extend(f"{where}: {s!r}" for s in english_sentences(text))
            problems.extend(f"{where}: the number {m!r}" for m in re.findall(r"\d\.\d|(?<!\w)-\d", text))
            return text

        page.goto(f"{server.base}/", timeout=LOAD_MS)  # the door: the class code
        look("the door")
        page.goto(f"{server.base}/krypteach/rules", timeout=LOAD_MS)
        look("the rules sheet")
        page.goto(f"{server.base}/krypteach/teacher", timeout=LOAD_MS)
        look("the teacher's login")
        page.fill("#tcode", TEACHER)
        page.click("button[type=submit]")
        page.locator("h1", has_text=CODE).wait_for(timeout=STEP_MS)
        text = look("the teacher's page")
        assert "3 elever" in text  # the class, in Swedish
        # the progress files' chooser too: not the browser's "Choose Files" and "No file chosen"
        assert "Välj filer…" in text and "Ingen fil vald" in text
        chosen = progress.parent / "framsteg.json"
        chosen.write_text("{}", encoding="utf-8")
        page.set_input_files("#progress-files", [str(chosen)])
        assert page.inner_text("#progress-chosen") == "1 fil vald: framsteg.json"
        close(page)
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def _verdict(ex) -> None:
    ex.locator(".kt-feedback .kt-ok, .kt-feedback .kt-error").first.wait_for(timeout=STEP_MS)


def _answer_an_exercise(ex) -> str:
    """Answer one of a lesson's exercises once, as a hurried learner might (right or wrong, as the
    random position falls), or show its answer; what was done."""
    if ex.locator("input[type=text]").count():  # count the points: a number, sent with Enter
        box = ex.locator("input[type=text]")
        box.fill("0")
        box.press("Enter")
        _verdict(ex)
        return "counted"
    for name in ("No tabbe possible", "Nobody"):  # tvångstabbe; the dukning's seat
        if ex.locator("button", has_text=name).count():
            ex.locator("button", has_text=name).click()
            _verdict(ex)
            return name
    if "Klädda högen" in ex.locator(".kt-title").inner_text():  # nothing selected: "none go aside"
        ex.get_by_role("button", name="Check").click()
        _verdict(ex)
        return "checked"
    ex.get_by_role("button", name="Show answer").click()  # the träffar, take all: shown (not solved)
    ex.locator(".kt-feedback .kt-msg, .kt-feedback .kt-info, .kt-feedback .kt-ok").first.wait_for(timeout=STEP_MS)
    return "shown"


def _pick(page, row, code: str) -> None:
    card = row.locator(f'.kt-card[data-card="{code}"]').first
    card.click()
    page.wait_for_function("el => el.classList.contains('kt-selected')", arg=card.element_handle(), timeout=STEP_MS)


def _three_puzzles(page) -> list[str]:
    """In the trainer: a puzzle solved, one answered wrong, and one whose answer was shown and then
    clicked (which earns nothing); the trainer's own count after it."""
    from krypteach.teaching.puzzles import check_answer, load_puzzles

    trainer = page.locator(".kt-puzzles:not(.kt-practice)")  # the shipped set's trainer, not the practice
    trainer.locator(".widget-dropdown select").first.select_option(label="Which card must you play? (tvångstabbe)")
    seen: list[str] = []
    by_id = {p.id: p for p in load_puzzles()}
    for how in ("right", "wrong", "revealed"):
        if seen:
            trainer.get_by_role("button", name="Next puzzle").click()
        page.wait_for_function(
            "([el, seen]) => { const b = el.querySelector('.kt-instruction b[title^=\"which-card\"]');"
            " return b && !seen.includes(b.title); }", arg=[trainer.element_handle(), seen], timeout=STEP_MS)
        pid = trainer.locator(".kt-instruction b").first.get_attribute("title")
        seen.append(pid)
        puzzle = by_id[pid]
        hand = trainer.locator(".kt-cards.kt-hand.kt-selectable")
        feedback = trainer.locator(".kt-feedback")
        if how == "revealed":
            trainer.get_by_role("button", name="Show answer").click()
            feedback.locator(".kt-msg", has_text="Answer:").wait_for(timeout=STEP_MS)
            card = puzzle.answers[0]
            if not hand.locator(f'.kt-card.kt-selected[data-card="{card}"]').count():
                _pick(page, hand, card)
            trainer.get_by_role("button", name="Check").click()
            feedback.get_by_text("already counts as missed").wait_for(timeout=STEP_MS)
            continue
        card = puzzle.answers[0] if how == "right" else next(
            c for c in dict.fromkeys(map(str, puzzle.hand)) if not check_answer(puzzle, c)[0])
        _pick(page, hand, card)
        trainer.get_by_role("button", name="Check").click()
        feedback.locator(".kt-ok" if how == "right" else ".kt-error").wait_for(timeout=STEP_MS)
    trainer.locator(".kt-progress", has_text="Missed this time: 2").wait_for(timeout=STEP_MS)
    return seen


def _a_kasino_giv_with_a_build(page) -> None:
    """Lesson 10's table: build when a build can be made (once), else any legal move, to the giv's end."""
    from krypteach import Rules
    from krypteach.engine.builds import Build, parse_table
    from krypteach.engine.cards import parse_cards
    from krypteach.engine.games import legal_moves

    from .test_browser import wait_for_the_others
    from .test_browser_kasino import _click_move, _position

    rules, rng = Rules.preset("kasino"), random.Random(21)
    game = page.locator(".kt-game")
    final, log = game.locator(".kt-final"), game.locator(".kt-log li")
    my_turn = ("() => document.querySelector('.kt-game .kt-final') !== null || "
               "document.querySelector('.kt-game > .kt-status').innerText.includes('Your turn')")
    built = 0
    for _ in range(80):  # 24 moves of yours in a giv of two players: a bound, not a count
        page.wait_for_function(my_turn, timeout=STEP_MS)
        if final.count():
            break
        mine, table, hand, items = _position(game)
        moves = legal_moves(parse_cards(mine), parse_table(table), rules, 0)
        builds = [m for m in moves if m.value is not None and not any(
            isinstance(x, Build) and x.cards[0] in m.capture for x in parse_table(table))]
        move = builds[0] if builds and not built else rng.choice(moves)
        before = log.count()
        built += _click_move(page, game, move, mine, table, hand, items) == "build"
        wait_for_the_others(page, before, 2, STEP_MS)
    final.wait_for(timeout=STEP_MS)
    assert built, "no build could be made in the whole giv"


def test_every_lessons_exercises_trainer_puzzles_and_a_kasino_build_reach_the_grid_their_page_and_the_csv_alike(
        browser, classroom):
    """Issue 21 (done when): a learner works through every lesson (each exercise answered or its
    answer shown, each self-check, trainer puzzles right, wrong and revealed, a Kasino giv with a
    build); for every lesson the teacher's grid, the learner's start page, the learner's page and
    the CSV count the same answers."""
    import csv
    import io

    from .test_browser import NAMES

    start, _progress = classroom
    server = start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    given: dict[str, list[str]] = {}  # lesson -> what was answered in it
    try:
        for k, name in enumerate(NAMES[1:]):
            page = context.new_page()
            if k == 0:
                _sign_in(page, server.base, name, "Vera", "8642")
            else:
                page.goto(f"{server.base}/voila/render/en/{name}", timeout=LOAD_MS)
            quiz = page.locator(".kt-selfcheck")
            quiz.wait_for(timeout=LOAD_MS)
            lesson = name.removesuffix(".ipynb")
            done = given[lesson] = []
            for ex in page.locator(".kt-exercise:not(.kt-puzzles):not(.kt-selfcheck)").all():
                done.append(_answer_an_exercise(ex))
            if lesson == "08_puzzles":
                done += _three_puzzles(page)
            if lesson == "10_kasino":
                _a_kasino_giv_with_a_build(page)
            questions = quiz.locator(".kt-question")
            for q in range(questions.count()):
                questions.nth(q).locator("input[type=radio]").first.check()
                done.append(f"question {q + 1}")
            quiz.get_by_role("button", name="Check").click()
            quiz.locator(".kt-progress", has_text="Score:").wait_for(timeout=STEP_MS)
            close(page)
        assert len(given) == 11 and all(given.values()), given
        assert given["02_traffar"][:2] == ["shown", "shown"] and given["04_tabbe"][:2] == ["No tabbe possible", "Nobody"]
        assert given["05_deals"][0] == "checked" and given["01_cards"][0] == given["06_scoring"][0] == "counted"

        page = context.new_page()
        page.goto(f"{server.base}/voila/render/en/00_start.ipynb", timeout=LOAD_MS)
        overview = page.locator(".kt-learner", has_text="where you stand")
        overview.wait_for(timeout=LOAD_MS)
        mine = {r.split("\t")[0].strip(): r.split("\t")[-1].strip()
                for r in overview.locator("tr").all_inner_texts()}
        assert "Kasino (the highest score wins): 1 giv" in overview.inner_text()
        close(page)

        teacher, row, grid = _teachers_grid(context, server.base, "Vera")
        heads = list(grid)
        status, text = teacher.evaluate("""async () => { const r = await fetch('/krypteach/teacher/export.csv');
                                           return [r.status, await r.text()]; }""")
        assert status == 200
        rows = [r for r in csv.DictReader(io.StringIO(text)) if r["nickname"] == "Vera"]
        row.locator("th[scope=row] a").click()
        teacher.locator("h1", has_text="What Vera did").wait_for(timeout=STEP_MS)
        work = teacher.locator("main").inner_text()  # a puzzle by its kind and number, as the trainer says it
        assert "which-card-" not in work and "Which card must you play? (tvångstabbe) · Puzzle " in work
        assert teacher.locator("tbody tr").count() == len([r for r in rows if r["kind"] != "giv" or r["score"]])
        close(teacher)
    finally:
        context.close()

    for lesson, done in given.items():
        title = next(h for h in heads if h.startswith(f"{int(lesson[:2])} · "))
        answers = [r for r in rows if r["lesson"] == lesson and r["kind"] != "giv"]
        assert len(answers) == len(done), (lesson, done, answers)  # each answer reached the CSV, once
        solved = {r["item"] for r in answers if r["correct"] == "yes" and r["kind"] in ("exercise", "selfcheck")}
        puzzles = {r["item"] for r in answers if r["correct"] == "yes" and r["kind"] == "puzzle"}
        wrong = sum(r["correct"] == "no" for r in answers)
        givar = sum(r["kind"] == "giv" and bool(r["score"]) for r in rows if r["lesson"] == lesson)
        total = int(grid[title].split("/")[1].split(" ")[0])
        expected = [f"{len(solved)}/{total}"] + [f"{len(puzzles)} puzzle{'s' * (len(puzzles) != 1)} solved"] * bool(
            puzzles) + [f"{wrong} wrong"] * bool(wrong) + [f"{givar} giv"] * bool(givar)
        assert grid[title] == " · ".join(expected), (lesson, grid[title], expected)  # the grid, from the CSV's rows
        assert mine[title] == " · ".join([f"{len(solved)} of {total}"] + expected[1:2] * bool(puzzles)), (
            lesson, mine[title])  # and the learner's own start page
    assert len({r["item"] for r in rows if r["lesson"] == "08_puzzles" and r["kind"] == "puzzle"}) == 3
    assert [r["how"] for r in rows if r["kind"] == "puzzle" and r["lesson"] == "08_puzzles"] == [
        "first-try", "first-try", "shown"]
    assert any(r["kind"] == "giv" and r["score"] and r["lesson"] == "10_kasino" for r in rows)
