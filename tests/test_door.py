"""The class door's edges (issue 20, findings 7, 13 and 14): wrong codes limited without
locking a class behind one address out, the join form's token and origin, where ``next``
may lead, the teacher's forms' ``_xsrf``, the JSON endpoints behind the door, control
characters in a URL, one clear line for every bad start, and the page cap per address.

The rules are tested on their own (a fake clock, fake addresses); the served behaviour on
one server for the module (``--host 0.0.0.0``, so that a request to this machine's LAN
address comes from an address that is not this machine's loopback)."""

from __future__ import annotations

import http.cookiejar
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from krypteach.i18n import use_language
from krypteach.serve.door import bad_url, safe_next
from krypteach.serve.gate import ClassGate, lan_address

from .conftest import LESSONS, Server, _free_port


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _gate(**kw) -> ClassGate:
    kw.setdefault("code", "K7RPX")
    kw.setdefault("max_kernels", 10)
    return ClassGate(**kw)


# --- finding 7: wrong codes, not right ones --------------------------------------------------

def test_wrong_codes_from_one_address_do_not_keep_the_right_codes_out():
    clock = Clock()
    g = _gate(clock=clock)
    verdicts = [g.try_code(f"WRONG{i}", "10.0.0.1") for i in range(12)]
    assert [v.status for v in verdicts[:9]] == [403] * 9            # nine wrong codes: just wrong
    assert all(v.status == 429 and v.page == "slow-down" for v in verdicts[9:])
    assert "wait 1 second" in verdicts[9].reason and "from this computer" in verdicts[9].reason
    clock.now += 1  # the class behind the same school address types the right codes
    assert g.try_code("k7r px", "10.0.0.1").ok
    assert g.try_teacher_code("larare2481", "LARARE2481", "10.0.0.1").ok
    assert g.try_code("K7RPX", "10.0.0.1").ok and g.try_code("K7RPX", "10.0.0.1").ok
    assert g.try_code("K7RPX", "10.0.0.2").ok                       # another address was never held up


def test_the_same_wrong_code_again_counts_once():
    """A class's browsers sending a saved old code (the join page fills it in) are one wrong code."""
    g = _gate(clock=Clock())
    for _ in range(40):
        v = g.try_code("OLD42", "10.0.0.1")
        assert v.status == 403 and v.page == "code"
    assert g.try_code("K7RPX", "10.0.0.1").ok


def test_a_script_guessing_from_one_address_gets_one_try_per_growing_wait():
    clock = Clock()
    g = _gate(clock=clock)
    compared = 0
    for i in range(1200):  # one guess every 0.1 s for two minutes
        before = g._wrong["10.0.0.9"][-1] if g._wrong.get("10.0.0.9") else None
        g.try_code(f"G{i:05d}", "10.0.0.9")
        compared += (g._wrong["10.0.0.9"][-1] if g._wrong.get("10.0.0.9") else None) != before
        clock.now += 0.1
    # ten in the first second, then one after each wait of 1, 2, 4, 8, 16, 30, 30 s (it stays slowed)
    assert compared == 10 + 7, compared
    assert g._gap["10.0.0.9"] == 30.0


def test_many_addresses_guessing_wrong_hit_the_limit_for_the_whole_server():
    clock = Clock()
    g = _gate(clock=clock, wrong_code_total=60)
    for n in range(59):  # 20 addresses, three wrong codes each (the last one two)
        assert g.try_code(f"A{n}", f"10.1.0.{n // 3}").status == 403
    v = g.try_code("NEW01", "10.2.0.1")  # the 60th wrong code, from an address that never guessed
    assert v.status == 429 and "on this server" in v.reason
    assert g.try_code("NEW02", "10.2.0.1").status == 429          # it waits its turn, uncompared
    assert g.try_code("K7RPX", "10.3.0.1").ok                     # a learner typing the right code
    assert g.try_code("AAAA9", "10.1.0.5").status == 429           # any address guessing wrong waits
    clock.now += 61                                                # a minute later: wrong is just wrong
    assert g.try_code("AAAA9", "10.1.0.5").status == 403


def test_the_waits_are_said_in_both_languages():
    clock = Clock()
    g = _gate(clock=clock, wrong_code_rate=2)
    with use_language("sv"):
        g.try_code("AAAA1", "10.0.0.1")
        v = g.try_code("AAAA2", "10.0.0.1")
        assert v.status == 429 and "vänta 1 sekund" in v.reason, v.reason
        g2 = _gate(clock=clock, wrong_code_total=1)
        w = g2.try_code("AAAA1", "10.0.0.3")
        assert w.status == 429 and "den här servern" in w.reason, w.reason


# --- finding 14: the page cap per address ----------------------------------------------------

def test_pages_are_capped_per_address_not_only_per_cookie():
    g = _gate(max_kernels=9, per_client=2)
    assert g.per_address == 6
    pages = []
    for n in range(6):  # six cookie-less opens: six new browsers, one address
        client = f"fresh{n}"
        assert g.may_open_page(client, pages, "10.0.0.1").ok
        g.opening(client, "10.0.0.1")
        pages.append(f"k{n}")
        g.claim(f"k{n}", client)
        g.opened(client)
    v = g.may_open_page("fresh6", pages, "10.0.0.1")
    assert not v.ok and v.status == 429 and "this computer's browsers" in v.reason
    assert g.may_open_page("bo", pages, "10.0.0.2").ok            # the rest of the class still gets pages
    assert g.may_open_page("fresh6", pages[1:], "10.0.0.1").ok    # a page closed: room again


def test_pages_are_capped_per_learner_over_all_their_browsers():
    g = _gate(max_kernels=20, per_client=2)
    pages: list[str] = []
    for n, (client, address) in enumerate([("ann-phone", "10.0.0.1"), ("ann-laptop", "10.0.0.2")]):
        assert g.may_open_page(client, pages, address, learner="7").ok
        g.opening(client, address, learner="7")
        pages.append(f"k{n}")
        g.claim(f"k{n}", client)
        g.opened(client)
    v = g.may_open_page("ann-third-browser", pages, "10.0.0.3", learner="7")
    assert not v.ok and v.status == 429 and v.page == "yours"
    assert v.reason == "you already have 2 lesson pages open (in this or other browsers): close one and try again"
    assert g.may_open_page("bo", pages, "10.0.0.3", learner="8").ok      # another learner on that computer
    with use_language("sv"):
        v = g.may_open_page("ann-third-browser", pages, "10.0.0.3", learner="7")
        assert v.reason.startswith("du har redan 2 lektionssidor öppna"), v.reason
    assert g.may_open_page("ann-third-browser", pages[1:], "10.0.0.3", learner="7").ok  # one closed: room again


def test_the_gate_forgets_browsers_that_hold_no_page():
    clock = Clock()
    g = _gate(max_kernels=5, per_client=2, per_client_rate=100, clock=clock)
    for n in range(1000):  # a thousand cookie-less opens, each a new browser, each page closed again
        assert g.may_open_page(f"fresh{n}", [], "10.0.0.1").ok
        g.opening(f"fresh{n}", "10.0.0.1")
        g.opened(f"fresh{n}")
        clock.now += 1
    assert len(g._recent) <= 4 * 5 + 200 + 1 and len(g._address) <= 4 * 5 + 200 + 1


# --- finding 13: where next may lead ---------------------------------------------------------

@pytest.mark.parametrize("bad", [
    "//evil.example/x", "/\\evil.example/x", "\\\\evil.example\\x", "\\/evil.example", "http://evil.example/",
    "https://evil.example/voila/render/x", "https:/evil.example", "/voila/render/\\..\\x", "javascript:alert(1)",
    "/krypteach/teacher", "/api/kernels", "/voila/render/../../krypteach/teacher", "/voila/render/en/x%0d%0aSet:1",
    "/voila/render/%2e%2e/%2e%2e/api", " /voila/render/en/00_start.ipynb", "",
])
def test_next_leads_only_to_this_servers_lesson_pages(bad):
    assert safe_next(bad, "/voila/render/en/00_start.ipynb") == "/voila/render/en/00_start.ipynb"


def test_next_keeps_a_lesson_page_and_its_query():
    for good in ("/voila/render/en/03_take_all.ipynb", "/voila/render/sv/07_play.ipynb?class=K7RPX", "/voila/tree"):
        assert safe_next(good, "/") == good


def test_a_control_character_is_a_bad_url():
    assert not bad_url("/voila/render/en/00_start.ipynb?class=K7RPX&x=a+b")
    for bad in ("/x%00", "/x\x00", "/a%0d%0ab", "/a?b=%0A", "/a%7f", "/a%09b"):
        assert bad_url(bad), bad


# --- a served class --------------------------------------------------------------------------

CODE, TEACHER = "K7RPX", "LARARE2481"


@pytest.fixture(scope="module")
def door(private_env, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("door")
    s = Server(["--class-code", CODE, "--teacher-code", TEACHER, "--progress", str(tmp / "p.sqlite3"),
                "--host", "0.0.0.0", "--max-kernels", "6", "--per-browser", "1"],
               private_env, tmp / "serve.log").wait_ready()
    yield s
    s.stop()
    log = s.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **kw):
        return None


def _browser() -> urllib.request.OpenerDirector:
    jar = http.cookiejar.CookieJar()
    op = urllib.request.build_opener(NoRedirect(), urllib.request.HTTPCookieProcessor(jar))
    op.jar = jar  # type: ignore[attr-defined]
    return op


def _ask(op, url: str, data: dict | None = None, headers: dict | None = None):
    """(status, headers, body) of a GET, or of a form POST with ``data``; redirects not followed."""
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with op.open(req, timeout=120) as r:
            return r.status, dict(r.headers), r.read().decode(errors="replace")
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode(errors="replace")


def _token(op, url: str) -> str:
    status, _h, page = _ask(op, url)
    assert status == 200, (status, page[:300])
    return re.search(r'name="_xsrf" value="([^"]+)"', page)[1]  # type: ignore[index]


def _cookies(op) -> dict[str, str]:
    return {c.name: c.value for c in op.jar}


def test_the_join_form_needs_its_token_and_its_own_origin(door):
    join = door.base + "/krypteach/join"
    ann = _browser()
    token = _token(ann, join)
    form = {"code": CODE, "nickname": "Ann", "pin": "4711", "next": "/voila/render/en/01_cards.ipynb"}
    assert _ask(ann, join, form)[0] == 403                                        # no _xsrf: refused
    assert _ask(ann, join, {**form, "_xsrf": "2|00|00|00"})[0] == 403             # a wrong one
    elsewhere = {"Origin": "http://evil.example"}
    assert _ask(ann, join, {**form, "_xsrf": token}, elsewhere)[0] == 403         # another site's page
    assert _ask(ann, join, {**form, "_xsrf": token}, {"Referer": "http://evil.example/x"})[0] == 403
    assert "krypteach_client" not in _cookies(ann) and "krypteach_learner" not in _cookies(ann)
    status, headers, _ = _ask(ann, join, {**form, "_xsrf": token}, {"Origin": door.base})
    assert status == 302 and headers["Location"] == "/voila/render/en/01_cards.ipynb"
    assert {"krypteach_client", "krypteach_learner"} <= set(_cookies(ann))


# --- finding 5: a learner's own PIN; a sign-in cookie that is HttpOnly and names nobody --------

def _join(door, op, nickname: str, pin: str, *, code: str | None = CODE) -> tuple[int, str]:
    join = door.base + "/krypteach/join"
    form = {"nickname": nickname, "pin": pin, "next": "/voila/render/en/01_cards.ipynb", "_xsrf": _token(op, join)}
    if code is not None:
        form["code"] = code
    status, _h, page = _ask(op, join, form)
    return status, page


def _learner_token(door, op, nonce: str = "n" * 24) -> list:
    """What the page's learner bar is given for a kernel with ``nonce``: the token's body, or []."""
    import base64
    import json

    status, _h, body = _ask(op, door.base + "/krypteach/learner-token?" + urllib.parse.urlencode({"nonce": nonce}))
    assert status == 200, (status, body[:300])
    token = json.loads(body)["token"]
    if not token:
        return []
    part = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def test_a_classmate_who_types_anns_nickname_does_not_become_ann(door):
    ann, bo = _browser(), _browser()
    assert _join(door, ann, "Ann Pin", "4711")[0] == 302
    cookie = next(c for c in ann.jar if c.name == "krypteach_learner")
    assert cookie.has_nonstandard_attr("HttpOnly")  # no script of the page reads it
    import base64

    seen = cookie.value + base64.b64decode(cookie.value.split("|")[4].split(":", 1)[1] + "==").decode(errors="replace")
    assert not any(word in seen for word in ("Ann", "K7RPX", "4711")), seen  # it names nobody, not even encoded
    body = _learner_token(door, ann, "a" * 24)
    assert body[:2] == [CODE, "Ann Pin"] and body[3] == "a" * 24  # a token for that kernel alone
    ann_id = body[2]
    # Bo types the same nickname: a wrong PIN, or none, signs nobody in
    status, page = _join(door, bo, "Ann Pin", "1234")
    assert status == 403 and "Not signed in: that is not Ann Pin&#x27;s PIN" in page and 'id="pin"' in page
    assert 'value="Ann Pin"' in page and "1234" not in page  # the nickname stays typed, the PIN does not
    status, page = _join(door, bo, "Ann Pin", "", code=None)  # (the code was right: this browser is remembered)
    assert status == 403 and "a PIN is 4 to 8 digits" in page and 'name="code"' not in page
    assert "krypteach_learner" not in _cookies(bo) and _learner_token(door, bo) == []
    # a bad nonce is refused
    assert _ask(ann, door.base + "/krypteach/learner-token?nonce=short")[0] == 400
    assert _ask(ann, door.base + "/krypteach/learner-token?" + urllib.parse.urlencode({"nonce": "ä" * 20}))[0] == 400
    # a cookie of another learner's number cannot be made: it is signed
    bo.jar.set_cookie(http.cookiejar.Cookie(0, "krypteach_learner", cookie.value.replace("|", "|x", 1), None, False,
                                            cookie.domain, True, False, "/", True, False, None, False, None, None, {}))
    assert _learner_token(door, bo) == []
    # Ann forgot her PIN: the teacher lets her choose a new one; every browser signed in as her is signed out
    teacher = door.base + "/krypteach/teacher"
    tk = _browser()
    _ask(tk, teacher, {"teacher_code": TEACHER, "_xsrf": _token(tk, teacher)})
    status, page = _ask(tk, teacher)[0], _ask(tk, teacher)[2]
    assert status == 200 and "New PIN for Ann Pin" in page
    status, headers, _ = _ask(tk, teacher + "/reset-pin", {"learner": str(ann_id), "_xsrf": _token(tk, teacher)})
    assert status == 302 and "chooses+a+new+PIN" in headers["Location"]
    assert _learner_token(door, ann) == []
    assert _join(door, ann, "Ann Pin", "2580", code=None)[0] == 302
    assert _learner_token(door, ann)[2] == ann_id  # the same learner: her progress is kept
    assert _join(door, bo, "Ann Pin", "4711", code=None)[0] == 403  # the old PIN signs nobody in


def test_wrong_pins_for_one_nickname_wait_and_the_classmates_do_not(door):
    dee, other = _browser(), _browser()
    assert _join(door, dee, "Dee", "1111")[0] == 302
    assert [_join(door, other, "Dee", f"{n:04d}")[0] for n in range(5)] == [403] * 5
    status, page = _join(door, other, "Dee", "1111", code=None)  # even the right PIN waits now
    assert status == 429 and "too many wrong PINs for this nickname: wait 30 seconds" in page
    assert _join(door, other, "Eve", "2222", code=None)[0] == 302  # another nickname is not slowed


@pytest.mark.parametrize("bad", ["//evil.example/x", "/\\evil.example/x", "\\\\evil.example\\x",
                                 "http://evil.example/voila/render/x", "/krypteach/teacher"])
def test_next_never_leads_off_the_lesson_pages_after_the_code(door, bad):
    join = door.base + "/krypteach/join"
    op = _browser()
    status, _h, page = _ask(op, join + "?" + urllib.parse.urlencode({"next": bad}))
    assert status == 200 and 'name="next" value="/voila/render/en/00_start.ipynb"' in page
    token = re.search(r'name="_xsrf" value="([^"]+)"', page)[1]  # type: ignore[index]
    status, headers, _ = _ask(op, join, {"code": CODE, "next": bad, "_xsrf": token})
    assert status == 302 and headers["Location"] == "/voila/render/en/00_start.ipynb", headers.get("Location")


def test_every_teachers_form_needs_its_xsrf_token(door):
    teacher = door.base + "/krypteach/teacher"
    op = _browser()
    token = _token(op, teacher)
    assert _ask(op, teacher, {"teacher_code": TEACHER})[0] == 403                 # sign in without it
    status, _h, _ = _ask(op, teacher, {"teacher_code": TEACHER, "_xsrf": token})
    assert status == 302 and "krypteach_teacher" in _cookies(op)
    # signed in: reset and import without the token are refused, with it they are done
    assert _ask(op, teacher + "/reset", {"learner": "1"})[0] == 403
    assert _ask(op, teacher + "/import", {})[0] == 403
    assert _ask(op, teacher + "/reset", {"learner": "1", "_xsrf": token}, {"Origin": "http://evil.example"})[0] == 403
    assert _ask(op, teacher + "/import", {"_xsrf": token})[0] == 302


def test_status_and_alive_are_behind_the_door(door):
    lan = lan_address()
    if lan is None:
        pytest.skip("no LAN address to reach the server from a non-loopback address")
    there = f"http://{lan}:{door.port}"
    assert _ask(_browser(), there + "/krypteach/status")[0] == 403               # from the network, no code
    assert _ask(_browser(), door.base + "/krypteach/status")[0] == 200          # this machine (the teacher's terminal)
    ann = _browser()
    status, _h, page = _ask(ann, there + f"/voila/render/en/02_traffar.ipynb?class={CODE}")
    assert status == 200, page[:500]
    kid = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)[1]  # type: ignore[index]
    assert _ask(ann, there + "/krypteach/status")[0] == 200                       # a browser of the class
    assert _ask(ann, there + f"/krypteach/alive/{kid}")[0] in (200, 410)
    assert _ask(_browser(), there + f"/krypteach/alive/{kid}")[0] == 403
    assert _ask(_browser(), door.base + f"/krypteach/alive/{kid}")[0] == 403     # alive: a cookie even here


@pytest.mark.parametrize("path", ["/voila/render/en/00_start.ipynb%00x?class=K7RPX", "/voila/static/a%0d%0ab",
                                  "/voila/files/x%00", "/krypteach/join?next=%0d%0aSet-Cookie:x=1",
                                  "/krypteach/teacher?x=%00", "/krypteach/rules?%0a", "/?class=K7RPX%00",
                                  "/voila/render/en/01_cards.ipynb?class=K7RPX&x=%0d%0a"])
def test_a_control_character_in_the_url_is_one_line_400(door, path):
    status, _h, body = _ask(_browser(), door.base + path)
    assert status == 400, (status, body[:300])
    assert body.count("\n") <= 1 and "Traceback" not in body and "control character" in body


def test_cookie_less_opens_from_one_address_cannot_take_every_page(door):
    """--max-kernels 6: one address's browsers may hold 4 pages at once (two thirds), each
    open with ?class=CODE and no cookie a new browser; the fifth is refused, not the class full."""
    lessons = ["01_cards", "03_take_all", "04_tabbe", "05_deals", "06_scoring", "07_play"]
    answers = []
    for name in lessons[:5]:
        status, _h, body = _ask(_browser(), door.base + f"/voila/render/en/{name}.ipynb?class={CODE}")
        answers.append(status)
        if status != 200:
            break
    assert answers[:-1] == [200] * (len(answers) - 1) and answers[-1] == 429, answers
    assert "computer&#x27;s browsers already have 4 lesson pages open" in body and "The class is full" not in body


def test_one_learner_in_two_browsers_is_capped_once(door):
    """--per-browser 1: Ann's page in her laptop's browser, then one in her phone's (another
    browser, signed in as her too), is refused for her, not for the class. From the LAN address,
    so that the pages the other tests hold from this machine's loopback are not counted."""
    lan = lan_address()
    if lan is None:
        pytest.skip("no LAN address to reach the server from a non-loopback address")

    class There:
        base = f"http://{lan}:{door.port}"

    laptop, phone = _browser(), _browser()
    assert _join(There, laptop, "Ann Cap", "1357")[0] == 302
    assert _join(There, phone, "Ann Cap", "1357")[0] == 302
    status, _h, page = _ask(laptop, There.base + "/voila/render/en/04_tabbe.ipynb")
    assert status == 200, page[:300]
    status, _h, page = _ask(phone, There.base + "/voila/render/en/05_deals.ipynb")
    assert status == 429 and "You already have 1 lesson page open (in this or another browser)" in page, page[-900:]


def test_after_wrong_codes_the_right_class_code_and_teacher_code_still_open(door):
    """Twelve wrong codes from this address, then (after the one-second wait) the right ones.
    (Last in the module: it leaves this address slowed for a minute.)"""
    join, teacher = door.base + "/krypteach/join", door.base + "/krypteach/teacher"
    op = _browser()
    token = _token(op, join)
    statuses = [_ask(op, join, {"code": f"WRONG{i}", "nickname": "Cy", "pin": "2468", "_xsrf": token})[0]
                for i in range(12)]
    assert statuses[:9] == [403] * 9 and set(statuses[9:]) == {429}, statuses
    time.sleep(1.2)
    status, _h, _ = _ask(op, join, {"code": CODE, "nickname": "Cy", "pin": "2468", "_xsrf": token})
    assert status == 302 and "krypteach_client" in _cookies(op)
    tk = _browser()
    token = _token(tk, teacher)
    status, _h, _ = _ask(tk, teacher, {"teacher_code": TEACHER, "_xsrf": token})
    assert status == 302 and "krypteach_teacher" in _cookies(tk)


# --- one clear line for every bad start ------------------------------------------------------

def _start(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "krypteach", "serve", "--port", str(_free_port()), "--progress", "off",
                           *args], env=env, capture_output=True, text=True, timeout=120)


def _one_line(proc: subprocess.CompletedProcess) -> str:
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode != 0 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize(("text", "why"), [
    ('{"cells": [', "not valid JSON"),
    ("[" * 5000 + "]" * 5000, "nested too deep"),
    ('{"cells": "no"}', "not a notebook"),
    ('{"cells": [{"cell_type": "code", "source": 5}]}', "not a notebook"),
])
def test_a_malformed_lesson_notebook_is_one_line(text, why, private_env, tmp_path):
    (tmp_path / "00_start.ipynb").write_bytes((LESSONS / "00_start.ipynb").read_bytes())
    (tmp_path / "01_bad.ipynb").write_text(text, encoding="utf-8")
    line = _one_line(_start(["--dir", str(tmp_path)], private_env))
    assert "01_bad.ipynb is not a lesson notebook" in line and why in line


def test_a_classroom_file_nested_5000_deep_is_one_line(private_env, tmp_path):
    (tmp_path / "k.toml").write_text("[class]\ncode = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    line = _one_line(_start(["--dir", str(LESSONS), "--config", str(tmp_path / "k.toml")], private_env))
    assert "k.toml: not a classroom file: its values are nested too deep" in line


@pytest.mark.parametrize("where", ["missing", "empty", "file"])
def test_a_bad_krypteach_lessons_is_said_not_ignored(where, private_env, tmp_path):
    target = tmp_path / "lessons"
    if where == "empty":
        target.mkdir()
    elif where == "file":
        target.write_text("x")
    line = _one_line(_start([], {**private_env, "KRYPTEACH_LESSONS": str(target)}))
    assert line.startswith("krypteach: $KRYPTEACH_LESSONS: ") and str(target) in line
