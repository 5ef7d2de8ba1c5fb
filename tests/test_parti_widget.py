"""Issue 10, "A parti, saved and replayed": the game page plays a parti with its running
protocol, a finished giv (and the parti) downloads as a record, and the replay viewer
steps through a giv just played or a record file uploaded from the page.

The page's messages (the slider, the file upload) go through the same entry a real
message takes, behind :mod:`krypteach.widgets.guard`."""

from __future__ import annotations

import json
import random
import re

import ipywidgets as widgets
import pytest
import traitlets

from krypteach import Giv, Rules, giv_to_record, read_records
from krypteach.cli import main
from krypteach.engine.records import load_givar
from krypteach.i18n import use_language
from krypteach.teaching.narrate import describe_giv, signed
from krypteach.views.downloads import records_text
from krypteach.widgets import GameTable
from krypteach.widgets.guard import MAX_UPLOAD_BYTES, front_end_update, front_end_upload
from krypteach.widgets.replay import ReplayViewer


def _play_giv(table: GameTable, rng: random.Random) -> None:
    while not table.giv.is_over:
        move = rng.choice(table.giv.legal_moves())
        table.select_hand(move.card)
        table.select_table(move.capture or [])
        table.play_selected()


def _protocol_rows(html: str) -> list[list[str]]:
    """The protocol table's rows as cell texts (tags stripped)."""
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html)
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r)] for r in rows]


def _links(html: str) -> dict[str, str]:
    """download file name -> the whole <a> element."""
    return {m.group(1): m.group(0) for m in re.finditer(r'<a class="kt-download" download="([^"]+)"[^>]*>.*?</a>', html)}


# --------------------------------------------------------------------------- the parti
def test_new_giv_continues_the_protocol_and_new_parti_starts_from_zero():
    rules = Rules(players=3)
    table = GameTable(rules, seed=4)
    rng = random.Random(7)
    p = table.parti
    assert table.giv is p.giv and p.givar[0].dealer == 2 and table.giv.turn == 0  # you lead the first giv
    assert "New parti of 3 givar" in table.message and "Giv 1 of 3" in table.message
    _play_giv(table, rng)
    first = table.giv
    rows = _protocol_rows(table.protocol.value)
    assert rows[0] == ["", "You", "Bea", "Dan"]
    assert rows[1] == ["giv 1 (dealer Dan)"] + [signed(s, plus=False) for s in first.result.scores]
    assert "1 of 3 givar played" in table.protocol.value

    table.new_giv()
    second = table.giv
    assert second is not first and len(p.givar) == 2 and second.dealer == (first.dealer + 1) % 3  # dealer moves left
    assert "Giv 2 of 3: You deal (givare); Bea leads." in table.message
    moves = len(second.turns)
    table.new_giv()  # before the giv is over: refused, nothing changes
    assert table.giv is second and len(second.turns) == moves and "Finish this giv first" in table.message
    assert ["giv 2 (dealer You), playing", "…", "…", "…"] in _protocol_rows(table.protocol.value)
    _play_giv(table, rng)
    table.new_giv()
    third = table.giv
    assert third.dealer == (second.dealer + 1) % 3 == 1
    _play_giv(table, rng)

    rows = _protocol_rows(table.protocol.value)
    givar = [first, second, third]
    for i, g in enumerate(givar):
        assert rows[1 + i] == [f"giv {i + 1} (dealer {table.names[g.dealer]})"] + [
            signed(s, plus=False) for s in g.result.scores]
    totals = [sum(g.result.scores[s] for g in givar) for s in range(3)]  # the totals add up exactly
    assert list(p.totals) == totals and rows[4] == ["total"] + [signed(t, plus=False) for t in totals]
    best = min(totals)
    winners = " and ".join(table.names[s] for s in range(3) if totals[s] == best)
    assert p.is_over and f"<b>{winners}</b> won the parti with the lowest total." in table.protocol.value
    assert "New parti" in table.final.value and table.new_parti_button.button_style == "success"

    # the parti is over: New giv starts a new one, and so does New parti
    table.new_giv()
    assert table.parti is not p and "The parti was over" in table.message
    _play_giv(table, rng)
    table.new_giv()
    assert len(table.parti.givar) == 2
    under_way = table.parti
    table.new_parti()  # a parti under way: the table asks first, and No keeps it
    assert table.parti is under_way and table.question.layout.display == ""
    assert "Start a new parti? The giv you are playing and the 1 giv played before it are lost." \
        in table.question_text.value
    table.keep_playing()
    assert table.parti is under_way and table.question.layout.display == "none" and "Nothing changed" in table.message
    table.new_parti()
    table.confirm()
    fresh = table.parti
    assert len(fresh.givar) == 1 and fresh.protocol == [] and fresh.totals == (0, 0, 0)
    assert fresh.giv.dealer == 2
    assert _protocol_rows(table.protocol.value)[4] == ["total", "0", "0", "0"]


def test_changed_rules_start_a_new_parti():
    table = GameTable(seed=2)
    _play_giv(table, random.Random(1))
    old = table.parti
    table.picker.controls["players"].value = 3
    assert table.parti is old and "new parti" in table.rules_note.value
    table.new_giv()  # you have played a giv of this parti: asked first
    assert table.parti is old and "The rules changed" in table.question_text.value
    table.confirm()
    assert table.parti is not old and table.parti.rules.players == 3 and "The rules changed" in table.message


def _first_move(table):
    move = table.giv.legal_moves()[0]
    table.select_hand(move.card)
    table.select_table(move.capture or [])
    table.play_selected()


def test_new_parti_asks_before_it_wipes_a_giv_under_way_and_a_move_answers_no():
    """Issue 21: New parti, next to Undo, wiped the giv with no question."""
    table = GameTable(seed=5)
    before = table.parti
    table.new_parti()  # nothing played yet: nothing to lose, no question
    assert table.parti is not before and table.question.layout.display == "none"
    started = table.parti
    _first_move(table)
    moves = len(table.giv.turns)
    table.new_parti()
    assert table.parti is started and len(table.giv.turns) == moves
    assert table.question.layout.display == ""
    assert "Start a new parti? The giv you are playing is lost." in table.question_text.value
    assert table.yes_button.description == "Yes, start a new parti" and table.keep_button.description == "No, keep playing"
    _first_move(table)  # playing on answers the question: it goes, the parti stays
    assert table.question.layout.display == "none" and table.parti is started
    table.confirm()  # a stale Yes does nothing
    assert table.parti is started
    table.new_parti()
    table.confirm()
    assert table.parti is not started and table.question.layout.display == "none"
    assert not any(t.player == 0 for t in table.giv.turns)


def test_the_question_is_asked_in_swedish_on_a_swedish_page():
    with use_language("sv"):
        table = GameTable(seed=5)
        _first_move(table)
        table.new_parti()
        text = table.question_text.value
        assert "Starta ett nytt parti?" in text and "Start" not in text.replace("Starta", "")
        assert table.yes_button.description.startswith("Ja") and table.keep_button.description.startswith("Nej")


# --------------------------------------------------------------------------- downloads
def test_download_links_hold_records_that_read_back_to_the_same_givar():
    table = GameTable(seed=11)
    rng = random.Random(3)
    assert table.downloads.value == "" and table.after.layout.display == "none"  # nothing to save mid-giv
    _play_giv(table, rng)
    links = _links(table.downloads.value)
    assert list(links) == ["giv-1.jsonl"]
    assert 'href="data:application/x-ndjson;base64,' in links["giv-1.jsonl"]
    back = load_givar(records_text(links["giv-1.jsonl"]))
    assert len(back) == 1 and giv_to_record(back[0]) == giv_to_record(table.giv)
    assert back[0].state_key() == table.giv.state_key()

    table.new_giv()
    _play_giv(table, rng)  # the parti (2 givar) is over
    links = _links(table.downloads.value)
    assert set(links) == {"giv-2.jsonl", "parti-2-givar.jsonl"}
    parti = load_givar(records_text(links["parti-2-givar.jsonl"]))
    assert [giv_to_record(g) for g in parti] == [giv_to_record(g) for g in table.parti.givar]
    assert [g.result.scores for g in parti] == table.parti.protocol


# --------------------------------------------------------------------------- replay
def _engine_after(g: Giv, n: int) -> Giv:
    """The recorded giv replayed by the engine alone, ``n`` moves."""
    ref = Giv(g.rules, dealer=g.dealer, deals=g.deals)
    for t in g.turns[:n]:
        ref.play(t.move)
    return ref


def _board_hands(html: str, players: int) -> list[list[str]]:
    seats = re.split(r'<div class="kt-seat[^"]*" data-seat="\d+"', html)[1:players + 1]
    return [re.findall(r'data-card="([^"]+)"', re.split(r'class="kt-table"', s)[0]) for s in seats]


@pytest.mark.parametrize("rules", [Rules(), Rules(players=4, teams="pairs")])
def test_the_replays_step_n_shows_the_giv_after_n_moves(rules):
    table = GameTable(rules, seed=6)
    _play_giv(table, random.Random(5))
    g = table.giv
    table.replay_giv()
    viewer = table.replay_view
    assert viewer.layout.display == "" and viewer.steps == len(g.turns) and viewer.step == 0
    lines = describe_giv(g, table.names)
    for n in sorted({0, 1, 2, 9, len(g.turns) // 2, len(g.turns) - 1, len(g.turns), 5, 3}):
        viewer.go(n)
        ref = _engine_after(g, n)
        assert viewer.step == n and viewer.giv.state_key() == ref.state_key()
        # every hand face up, the table, the score as it builds
        assert _board_hands(viewer.board.value, rules.players) == [[str(c) for c in h] for h in ref.hands]
        assert 'data-card="back"' not in viewer.board.value
        table_html = viewer.board.value.split('class="kt-table"')[1]
        assert re.findall(r'data-card="([^"]+)"', table_html) == [str(c) for c in ref.table]
        running = ref.running_result()
        for s in range(rules.players):
            assert (f"<tr><td>{table.names[s]}</td><td>{len(ref.piles[s])}</td><td>{running.card_points[s]}</td>"
                    f"<td>{ref.marks[s]}</td><td>{ref.dukningar[s]}</td><td>{signed(running.scores[s], plus=False)}"
                    f"</td></tr>") in viewer.scores.value
        assert f"Move {n} of {len(g.turns)}" in viewer.counter.value
        if n:
            assert f"Move {n}: " in viewer.move_text.value
            assert viewer.moves.value.count("<li ") == n and lines[n - 1].split(" — ")[0][:20] in viewer.moves.value
    assert "Scores (final)" in viewer.scores.value and "Lowest score wins" in viewer.board.value


def test_the_replays_buttons_and_slider():
    table = GameTable(seed=9)
    _play_giv(table, random.Random(2))
    viewer = ReplayViewer(table.giv, names=table.names, upload=False)
    by_text = {b.description: b for b in (viewer.start_button, viewer.back_button, viewer.forward_button,
                                          viewer.end_button)}
    assert set(by_text) == {"Start (början)", "Back (bakåt)", "Forward (framåt)", "End (slutet)"}
    assert [b.icon for b in by_text.values()] == ["fast-backward", "step-backward", "step-forward", "fast-forward"]
    assert viewer.back_button.disabled and not viewer.forward_button.disabled
    by_text["Forward (framåt)"].click()
    by_text["Forward (framåt)"].click()
    assert viewer.step == 2 and viewer.slider.value == 2
    by_text["Back (bakåt)"].click()
    assert viewer.step == 1
    by_text["End (slutet)"].click()
    assert viewer.step == viewer.steps and viewer.giv.is_over and viewer.forward_button.disabled
    by_text["Start (början)"].click()
    assert viewer.step == 0 and viewer.giv.turns == []
    front_end_update(viewer.slider, {"value": 7})  # dragging the slider
    assert viewer.step == 7 and viewer.giv.state_key() == _engine_after(table.giv, 7).state_key()
    front_end_update(viewer.slider, {"max": 10_000})  # a forged limit is dropped
    assert viewer.slider.max == viewer.steps


def test_the_replay_opens_a_record_file_written_by_simulate(tmp_path, capsys):
    path = tmp_path / "givar.jsonl"
    assert main(["simulate", "--givar", "3", "--players", "3", "--seed", "5", "--jobs", "1",
                 "--record", str(path)]) == 0
    capsys.readouterr()
    recorded = list(read_records(path))
    viewer = ReplayViewer()
    assert "Open a record file" in viewer.message and viewer.controls.layout.display == "none"
    assert "900 KiB" in viewer.upload_help.value
    front_end_upload(viewer.upload, [("givar.jsonl", path.read_bytes())])  # as the page sends it
    assert viewer.upload.value == ()  # the kernel keeps no copy
    assert viewer.givar_in_file == 3 and len(viewer.choice.options) == 3 and viewer.choice.layout.display == ""
    assert viewer.recorded.state_key() == recorded[0].state_key() and viewer.step == 0
    assert viewer.message.startswith("givar.jsonl: giv 1 of 3 — 3 players, Ann deals")
    front_end_update(viewer.choice, {"index": 2})  # choosing the third giv in the dropdown
    assert viewer.recorded.state_key() == recorded[2].state_key()
    viewer.to_end()
    assert viewer.giv.result == recorded[2].result
    assert "Ann" in viewer.scores.value and "You" not in viewer.board.value


def test_a_record_file_of_one_giv_replays(tmp_path, capsys):
    """Issue 21: a downloaded record of one giv failed (TraitError: index out of bounds), also
    after a file of three givar had been open."""
    g = Giv(seed=4)
    g.play_out(lambda g: g.legal_moves()[0])
    one = (json.dumps(giv_to_record(g)) + "\n").encode()
    three = b"".join([one] * 3)
    for first in (None, three):
        viewer = ReplayViewer()
        if first is not None:
            assert viewer.open_file(first, "three.jsonl") and len(viewer.choice.options) == 3
        assert viewer.open_file(one, "one.jsonl"), viewer.message
        assert viewer.givar_in_file == 1 and viewer.choice.layout.display == "none" and viewer.choice.options == ()
        assert viewer.message.startswith("one.jsonl: its giv — ") and viewer.step == 0
        viewer.to_end()
        assert viewer.giv.result == g.result


BAD = [
    (b"", "the file is empty"),
    (b"\n \n", "the file is empty"),
    (b"hello, world\n", "line 1: not valid JSON"),
    (b'{"format": "krypteach-giv/99", "rules": {}}\n', "line 1: format must be 'krypteach-giv/2' (or the older "
                                                        "'krypteach-giv/1'), got 'krypteach-giv/99'"),
    (b"\xff\xfe{}\n", "line 1: not UTF-8 text (byte 0xff at position 1); save the file as UTF-8"),
    (b"[1, 2]\n", "line 1: a record must be a JSON object"),
]


@pytest.mark.parametrize("data, said", BAD, ids=["empty", "blank", "not-json", "version", "not-utf8", "not-object"])
def test_a_bad_upload_gives_one_clear_message(data, said):
    g = Giv(seed=3)
    g.play_out(lambda g: g.legal_moves()[0])
    viewer = ReplayViewer(g)
    viewer.go(4)
    front_end_upload(viewer.upload, [("bad.jsonl", data)])
    assert viewer.message == f"bad.jsonl: {said}" or viewer.message.startswith(f"bad.jsonl: {said}")
    assert "kt-error" in viewer.feedback.value and "Traceback" not in viewer.feedback.value
    assert "\n" not in viewer.message  # one message
    assert viewer.recorded is g and viewer.step == 4  # what was open stays open


def test_an_illegal_record_names_the_line_and_the_move():
    g = Giv(seed=3)
    g.play_out(lambda g: g.legal_moves()[0])
    rec = giv_to_record(g)
    rec["moves"][4]["player"] = 1 - rec["moves"][4]["player"]
    data = (json.dumps(giv_to_record(g)) + "\n" + json.dumps(rec) + "\n").encode()
    viewer = ReplayViewer()
    assert not viewer.open_file(data, "two.jsonl")
    assert viewer.message.startswith("two.jsonl: line 2, move 5: it is seat ") and "kt-error" in viewer.feedback.value


# --------------------------------------------------------------------------- the gate
def test_the_gate_lets_a_small_file_upload_through_and_nothing_else_with_buffers():
    up = widgets.FileUpload()
    front_end_upload(up, [("g.jsonl", b"abc")])
    assert len(up.value) == 1 and up.value[0]["content"].tobytes() == b"abc" and up.value[0]["name"] == "g.jsonl"

    def forged(widget, state, paths, buffers):
        widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": paths}},
                            "buffers": buffers})

    file = {"name": "x", "type": "", "size": 3, "last_modified": 0}
    box = widgets.Text("")
    forged(box, {"value": None}, [["value"]], [memoryview(b"abc")])  # buffers for any other widget: dropped
    assert box.value == ""

    class Listing(widgets.DOMWidget):  # a widget whose value could hold a file
        value = traitlets.List().tag(sync=True)

    listing = Listing()
    forged(listing, {"value": [dict(file)]}, [["value", 0, "content"]], [memoryview(b"abc")])
    assert listing.value == []  # shaped like an upload, but not a FileUpload
    up = widgets.FileUpload()
    forged(up, {"value": [dict(file)], "accept": ".exe"}, [["value", 0, "content"]], [memoryview(b"abc")])
    assert up.value == () and up.accept == ""  # a structure trait beside the files: dropped whole
    forged(up, {"value": [dict(file)]}, [["value", 0, "content"], ["value", 0, "name"]],
           [memoryview(b"abc"), memoryview(b"def")])  # more buffers than files
    assert up.value == ()
    forged(up, {"value": [dict(file, size="3")]}, [["value", 0, "content"]], [memoryview(b"abc")])
    assert up.value == ()
    forged(up, {"value": [dict(file)] * 11}, [["value", i, "content"] for i in range(11)],
           [memoryview(b"a")] * 11)  # too many files
    assert up.value == ()


def test_the_gate_caps_an_upload_at_900_kib_and_the_viewer_says_so():
    assert MAX_UPLOAD_BYTES == 900 * 1024
    viewer = ReplayViewer()
    front_end_upload(viewer.upload, [("big.jsonl", b" " * (MAX_UPLOAD_BYTES + 1))])
    assert viewer.upload.value == () and viewer.givar_in_file == 0
    assert viewer.message == "the file is too big (900 KiB): at most 900 KiB can be sent to the server"
    assert "kt-error" in viewer.feedback.value
    front_end_upload(viewer.upload, [("a.jsonl", b" " * 600 * 1024), ("b.jsonl", b" " * 600 * 1024)])
    assert "too big (1,200 KiB)" in viewer.message  # the cap is on the total (a number as English writes it)
    # just under the cap passes the gate (and is then judged as a record file)
    front_end_upload(viewer.upload, [("blank.jsonl", b" " * MAX_UPLOAD_BYTES)])
    assert viewer.message == "blank.jsonl: the file is empty: a record file has one giv per line (JSON Lines)"
