"""Bad input, as a new user gives it: one clear line, a non-zero exit, nothing left behind.

Every command-line case runs ``krypteach.cli.main`` in-process and checks: exit status 1
or 2, exactly one line on stderr that starts ``krypteach:`` and names the input and what
is allowed, no traceback, and no file created (not even a half-written or temporary one).
Every Python case checks the typed error (a ``ValueError``) and its message.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from krypteach import (
    Giv,
    RecordError,
    Rules,
    RulesError,
    giv_from_record,
    giv_to_record,
    read_records,
)
from krypteach.bots import BotError, make_bot
from krypteach.cli import main
from krypteach.engine.records import parse_json
from krypteach.play.outputs import GivOutputs, OutputError
from krypteach.play.simulate import simulate
from krypteach.play.tournament import check_bots, parse_bot_spec, tournament
from krypteach.teaching.puzzles import Puzzle, PuzzleError, load_puzzles

SHIPPED = json.loads((Path(__file__).parent.parent / "krypteach" / "data" / "puzzles.json").read_text(encoding="utf-8"))
PUZZLE = SHIPPED["puzzles"][0]  # id what-must-you-take-easy-01
PID = PUZZLE["id"]


def _puzzle_file(**changes) -> str:
    return json.dumps({"format": SHIPPED["format"], "puzzles": [{**PUZZLE, **changes}]})


#: the files the cases read, by name (bytes or text); ``adir/`` and ``empty/`` are folders
FILES: dict[str, str | bytes] = {
    "klass_bad_key.toml": '[class]\ncode = "K7RPX"\ncolour = "red"\n',
    "klass_bad_value.toml": '[caps]\nmax_givar = 0\n',
    "klass_bad_lesson.toml": '[lessons]\nshow = ["00", "42"]\n',
    "klass_same_codes.toml": '[class]\ncode = "K7RPX9"\nteacher_code = "k7rpx9"\n',
    "klass_not_toml.toml": 'class = [\n',
    "klass_nonutf.toml": b'[class]\ncode = "K7\xffRPX"\n',
    "nonutf.json": b'{"players": 3, "ace": "1\xff"}',
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "list.json": "[1, 2]",
    "notjson.json": "players = 3\n",
    "str_hand.json": _puzzle_file(hand="AD"),
    "null_table.json": _puzzle_file(table=None),
    "int_cards.json": _puzzle_file(hand=[5]),
    "num_kind.json": _puzzle_file(kind=3),
    "str_answers.json": _puzzle_file(answers="AS"),
    "list_rules.json": _puzzle_file(rules=[1]),
    "bad_card.json": _puzzle_file(table=["9H", "11H"]),
    "no_hand.json": json.dumps({"format": SHIPPED["format"], "puzzles": [{k: v for k, v in PUZZLE.items() if k != "hand"}]}),
    "num_id.json": _puzzle_file(id=7),
    "notpuzzles.json": json.dumps({"format": "other", "puzzles": []}),
    "nonutf_puzzles.json": b'{"format": "\xff"}',
}


@pytest.fixture
def work(tmp_path, monkeypatch):
    for name, content in FILES.items():
        (tmp_path / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    (tmp_path / "adir").mkdir()
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def run_cli(argv: list[str], capsys) -> tuple[object, str, str]:
    code: object
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


# (argv, words the one stderr line must hold)
CLI_CASES = [
    # --givar
    (["simulate", "--givar", "0"], ["--givar", "0 is not allowed", "whole number, 1 or more"]),
    (["simulate", "--givar", "-5"], ["--givar", "-5 is not allowed", "whole number, 1 or more"]),
    (["simulate", "--givar", "many"], ["--givar", "'many' is not a whole number", "1 or more"]),
    (["tournament", "--givar", "0"], ["--givar", "0 is not allowed", "whole number, 1 or more"]),
    (["tournament", "--givar", "-2"], ["--givar", "-2 is not allowed", "whole number, 1 or more"]),
    (["tournament", "--givar", "3", "--record", "t.jsonl"], ["--givar 3 is not allowed", "multiple of the number of bots (2)",
                                                              "try 2 or 4"]),
    # --rules
    (["simulate", "--givar", "2", "--rules", "nonutf.json"], ["--rules nonutf.json", "not UTF-8", "0xff"]),
    (["simulate", "--givar", "2", "--rules", "deep.json"], ["--rules deep.json", "nested too deeply"]),
    (["tournament", "--givar", "2", "--rules", "deep.json"], ["--rules deep.json", "nested too deeply"]),
    (["simulate", "--givar", "2", "--rules", "list.json"], ["--rules list.json", "JSON object", "got list"]),
    (["simulate", "--givar", "2", "--rules", "notjson.json"], ["--rules notjson.json", "not valid JSON"]),
    (["simulate", "--givar", "2", "--rules", "missing.json"], ["--rules missing.json", "cannot read the file"]),
    (["simulate", "--givar", "2", "--rules", '{"players": "3"}'], ["--rules", "players='3'", "whole number, 2–6"]),
    (["simulate", "--givar", "2", "--rules", '{"colour": 1}'], ["--rules", "unknown rule option 'colour'", "players"]),
    (["simulate", "--givar", "2", "--rules", "no-such-preset"], ["--rules no-such-preset", "unknown preset", "six-threes"]),
    # output paths: checked before any giv is played, and nothing written
    (["simulate", "--givar", "2", "--record", "adir", "--csv", "ok.csv"], ["--record adir", "is a folder", "file name"]),
    (["simulate", "--givar", "2", "--csv", "missing/x.csv", "--record", "ok.jsonl"],
     ["--csv missing/x.csv", "folder missing does not exist"]),
    (["tournament", "--givar", "2", "--record", "adir"], ["--record adir", "is a folder"]),
    (["tournament", "--givar", "2", "--csv", "missing/x.csv"], ["--csv missing/x.csv", "does not exist"]),
    (["simulate", "--givar", "2", "--record", "same.out", "--csv", "same.out"], ["same.out", "name the same file"]),
    # --players
    (["simulate", "--givar", "2", "--players", "4", "--rules", "six-threes"],
     ["--players 4", "--rules six-threes", "teams of three need 6 players"]),
    (["tournament", "--givar", "2", "--players", "3", "--rules", "four-pairs"],
     ["--players 3", "--rules four-pairs", "4 or 6 players"]),
    (["simulate", "--givar", "2", "--players", "0"], ["--players", "0 is not allowed", "2–6"]),
    (["simulate", "--givar", "2", "--players", "7"], ["--players", "7 is not allowed", "2–6"]),
    # --bots
    (["simulate", "--givar", "2", "--bots", ""], ["--bots ''", "name the bots", "random, careful, expert"]),
    (["simulate", "--givar", "2", "--bots", "random,"], ["--bots 'random,'", "random, careful, expert"]),
    (["simulate", "--givar", "2", "--bots", "grandmaster"], ["grandmaster", "random, careful, expert"]),
    (["simulate", "--givar", "2", "--bots", "random,random,random"], ["--bots 'random,random,random'",
                                                                       "one bot for every seat (2)", "got 3"]),
    (["tournament", "--givar", "2", "--bots", ""], ["--bots ''", "at least one bot", "random, careful, expert"]),
    (["tournament", "--givar", "2", "--bots", "grandmaster,random"], ["grandmaster", "random, careful, expert"]),
    (["tournament", "--givar", "2", "--bots", "expert:foo=bar,random"], ["expert:foo=bar", "no option 'foo'", "rollouts"]),
    (["tournament", "--givar", "2", "--bots", "expert:rollouts=-1,random"], ["rollouts=-1", "whole number, 1–1,000,000"]),
    (["tournament", "--givar", "2", "--bots", "expert:exact=yes,random"], ["exact='yes'", "true or false"]),
    (["tournament", "--givar", "2", "--bots", "careful:setup=-1,random"], ["setup=-1", "from 0 to 10"]),
    (["tournament", "--givar", "2", "--bots", "careful:luck=1,random"], ["luck", "setup"]),
    (["tournament", "--givar", "2", "--bots", "random:depth=3,careful"], ["random", "takes no options", "depth=3"]),
    (["tournament", "--givar", "2", "--bots", "expert:rollouts,random"], ["'rollouts'", "key=value"]),
    # puzzle files
    (["puzzles", "--check", "--file", "str_hand.json"], ["str_hand.json", f"puzzle {PID}", "hand must be a list of card codes",
                                                         "'AD'"]),
    (["puzzles", "--check", "--file", "null_table.json"], ["null_table.json", f"puzzle {PID}", "table must be a list", "None"]),
    (["puzzles", "--check", "--file", "int_cards.json"], [f"puzzle {PID}", "hand must be a list of card codes", "[5]"]),
    (["puzzles", "--check", "--file", "num_kind.json"], [f"puzzle {PID}", "kind=3", "which-card"]),
    (["puzzles", "--check", "--file", "str_answers.json"], [f"puzzle {PID}", "answers must be a list"]),
    (["puzzles", "--check", "--file", "list_rules.json"], [f"puzzle {PID}", "rules", "JSON object"]),
    (["puzzles", "--check", "--file", "bad_card.json"], [f"puzzle {PID}", "table", "'11H' is not a card"]),
    (["puzzles", "--check", "--file", "no_hand.json"], [f"puzzle {PID}", "missing field 'hand'"]),
    (["puzzles", "--check", "--file", "num_id.json"], ["puzzle number 1", "id must be text", "7"]),
    (["puzzles", "--check", "--file", "notjson.json"], ["notjson.json", "not valid JSON"]),
    (["puzzles", "--check", "--file", "deep.json"], ["deep.json", "nested too deeply"]),
    (["puzzles", "--check", "--file", "nonutf_puzzles.json"], ["nonutf_puzzles.json", "not UTF-8"]),
    (["puzzles", "--check", "--file", "notpuzzles.json"], ["notpuzzles.json", "not a puzzle file", "krypteach-puzzles/2"]),
    (["puzzles", "--check", "--file", "missing.json"], ["--file missing.json", "cannot read"]),
    (["puzzles", "--show", "no-such-id"], ["--show no-such-id", "no puzzle"]),
    (["puzzles", "--generate", "--per", "-1", "--out", "p.json"], ["--per", "-1 is not allowed", "1–100"]),
    (["puzzles", "--generate", "--per", "0", "--out", "p.json"], ["--per", "0 is not allowed", "1–100"]),
    (["puzzles", "--generate", "--out", "missing/p.json"], ["--out missing/p.json", "does not exist"]),
    (["puzzles", "--generate", "--out", "adir"], ["--out adir", "is a folder", "adir/puzzles.json"]),
    # serve / lab
    (["serve", "--port", "-1"], ["--port", "-1 is not allowed", "1–65535"]),
    (["serve", "--port", "70000"], ["--port", "70000 is not allowed", "1–65535"]),
    (["serve", "--dir", "nonexistent"], ["--dir", "nonexistent does not exist", "lesson notebooks"]),
    (["serve", "--dir", "/nonexistent"], ["--dir", "/nonexistent does not exist", "lesson notebooks"]),
    (["serve", "--dir", "empty"], ["--dir", "empty holds no lesson notebooks"]),
    (["serve", "--dir", "list.json"], ["--dir", "list.json is not a folder"]),
    # the classroom file
    (["serve", "--config", "klass_bad_key.toml"], ["klass_bad_key.toml", "[class] colour is not a key here",
                                                  "code, teacher_code, language"]),
    (["serve", "--config", "klass_bad_value.toml"], ["[caps] max_givar = 0 is not allowed", "1 to 100,000"]),
    (["serve", "--config", "klass_bad_lesson.toml"], ["lesson 42", "which is not in", "lessons: 00, 01"]),
    (["serve", "--config", "klass_same_codes.toml"], ["teacher_code must not be the class code"]),
    (["serve", "--config", "klass_not_toml.toml"], ["klass_not_toml.toml", "not valid TOML"]),
    (["serve", "--config", "klass_nonutf.toml"], ["klass_nonutf.toml", "not UTF-8"]),
    (["serve", "--config", "missing.toml"], ["missing.toml", "cannot read the classroom file"]),
    # build-site: checked before anything is fetched or written
    (["build-site", "list.json"], ["OUT list.json is a file", "give a folder"]),
    (["build-site", "adir/../list.json"], ["is a file"]),
    (["build-site", "missing/site"], ["OUT missing/site", "folder missing does not exist"]),
    (["build-site", "site", "--pyodide", "empty"], ["--pyodide empty holds no pyodide.js", "npm"]),
    (["build-site", "site", "--pyodide", "missing"], ["--pyodide missing does not exist", "pyodide.js"]),
    (["build-site", "site", "--pyodide", "list.json"], ["--pyodide list.json is not a folder"]),
    (["build-site", "site", "--lang", "de"], ["--lang", "'de' is not a language krypteach speaks", "sv (Svenska) or en (English)"]),
    (["build-site", "site", "--config", "klass_bad_lesson.toml"], ["lesson 42", "which is not in"]),
    (["build-site", "site", "--dir", "empty"], ["--dir", "empty holds no lesson notebooks"]),
    (["lab", "--port", "0"], ["--port", "0 is not allowed", "1–65535"]),
    (["lab", "--dir", "nonexistent"], ["--dir", "nonexistent does not exist"]),
]


@pytest.mark.parametrize("argv, words", CLI_CASES, ids=[" ".join(a) or "''" for a, _ in CLI_CASES])
def test_cli_bad_input(argv, words, work, capsys):
    before = _tree(work)
    code, out, err = run_cli(argv, capsys)
    assert code in (1, 2), (code, out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("krypteach: "), err
    for w in words:
        assert w in lines[0], f"{w!r} not in {lines[0]!r}"
    assert _tree(work) == before, "a file was left behind"


def test_a_run_that_fails_halfway_leaves_no_file(work, capsys, monkeypatch):
    """A run that dies after some givar (here: the third) leaves neither its files nor
    temporary ones, and an older file of the same name as it was."""
    import krypteach.play.simulate as sim_module

    (work / "old.csv").write_text("kept\n")
    real = sim_module._fast_random_giv
    calls = []

    def dies(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sim_module, "_fast_random_giv", dies)
    before = _tree(work)
    with pytest.raises(KeyboardInterrupt):
        main(["simulate", "--givar", "5", "--record", "new.jsonl", "--csv", "old.csv"])
    assert _tree(work) == before
    assert (work / "old.csv").read_text() == "kept\n"


def test_a_good_run_still_writes_its_files(work, capsys):
    assert main(["simulate", "--givar", "2", "--record", "g.jsonl", "--csv", "g.csv"]) == 0
    assert _tree(work) - set(FILES) - {"adir", "empty"} == {"g.jsonl", "g.csv"}
    assert len(list(read_records(work / "g.jsonl"))) == 2


# --- Python: rules --------------------------------------------------------------------

@pytest.mark.parametrize("data, words", [
    ({3: 1}, ["option names must be text", "3", "players"]),
    ({"players": 2, None: 1}, ["option names must be text", "None"]),
    ([("players", 3)], ["JSON object", "got list"]),
    ("players=3", ["JSON object", "got str"]),
    (None, ["JSON object", "got NoneType"]),
    ({"colour": "red"}, ["unknown rule option 'colour'", "players", "givar"]),
    ({"players": "3"}, ["players='3'", "whole number, 2–6"]),
    ({"players": True}, ["players=True", "whole number, 2–6"]),
    ({"hand_size": 4.5}, ["hand_size=4.5", "whole number, 1–26"]),
    ({"forced_tabbe": "yes"}, ["forced_tabbe='yes'", "true or false"]),
    ({"teams": 5}, ["teams=5", "none, pairs, threes"]),
    ({"capture": ["free"]}, ["capture=['free']", "maximal, maximum, free"]),
    ({"givar": "2"}, ["givar='2'", "whole number, 1–600"]),
])
def test_rules_from_dict_bad_input(data, words):
    with pytest.raises(RulesError) as e:
        Rules.from_dict(data)
    assert isinstance(e.value, ValueError)
    for w in words:
        assert w in str(e.value), str(e.value)


# --- Python: records ------------------------------------------------------------------

def _record() -> dict:
    g = Giv(seed=3)
    while not g.is_over:
        g.play(g.legal_moves()[-1])
    return giv_to_record(g)


REC = _record()
GOOD_LINE = json.dumps(REC)


def _changed(path: tuple, value) -> str:
    rec = json.loads(GOOD_LINE)
    target = rec
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(rec)


@pytest.mark.parametrize("line, words", [
    pytest.param(b'{"format": "krypteach-giv/1", "x": "\xff"}', ["line 2", "not UTF-8", "0xff"], id='not-utf8'),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, ["line 2", "nested too deeply"], id='deep-nesting'),
    pytest.param(GOOD_LINE.replace('"dealer": 0', '"dealer": ' + "1" * 5000).encode(), ["line 2", "too many digits", "4300"], id='5000-digit-int'),
    pytest.param(_changed(("moves", 0, "player"), True).encode(), ["line 2, move 1", "player=True is not a seat", "0–1"], id='player-true'),
    pytest.param(_changed(("moves", 1, "player"), "0").encode(), ["line 2, move 2", "player='0' is not a seat", "0–1"], id='player-text'),
    pytest.param(_changed(("dealer",), "x").encode(), ["line 2", "dealer='x' is not a seat", "0–1"], id='dealer-text'),
    pytest.param(_changed(("dealer",), True).encode(), ["line 2", "dealer=True is not a seat"], id='dealer-true'),
    pytest.param(_changed(("dealer",), 2).encode(), ["line 2", "dealer=2 is not a seat", "0–1"], id='dealer-out-of-range'),
    pytest.param(_changed(("players",), True).encode(), ["line 2", "players=True"], id='players-true'),
    pytest.param(_changed(("moves", 1, "capture"), "9H").encode(), ["line 2, move 2, capture", "list of card codes", "'9H'"], id='capture-text'),
    pytest.param(_changed(("moves", 1, "capture"), 5).encode(), ["line 2, move 2, capture", "list of card codes", "got 5"], id='capture-number'),
    pytest.param(_changed(("deals", 0, "table"), None).encode(), ["line 2, deal 0, table", "list of card codes"], id='table-null'),
    pytest.param(_changed(("rules",), {"players": 2, "colour": 1}).encode(), ["line 2", "bad rules", "colour"], id='rules-unknown-key'),
    pytest.param(b"[1, 2]", ["line 2", "JSON object", "got list"], id='not-an-object'),
    pytest.param(b"{nope", ["line 2", "not valid JSON"], id='not-json'),
])
def test_record_file_bad_line(line, words, tmp_path):
    path = tmp_path / "givar.jsonl"
    path.write_bytes(GOOD_LINE.encode() + b"\n" + line + b"\n")
    with pytest.raises(RecordError) as e:
        list(read_records(path))
    message = str(e.value)
    assert "\n" not in message
    for w in words:
        assert w in message, message
    assert message.count("line 2") == 1


def test_record_capture_not_a_list_says_where_once():
    rec = json.loads(_changed(("moves", 1, "capture"), "9H"))
    with pytest.raises(RecordError) as e:
        giv_from_record(rec)
    assert str(e.value).count("record, move 2") == 1 and "list of card codes" in str(e.value)


def test_record_text_stream_that_is_not_utf8_names_the_line():
    stream = io.TextIOWrapper(io.BytesIO(GOOD_LINE.encode() + b"\n\xff\xfe\n"), encoding="utf-8")
    with pytest.raises(RecordError, match=r"line \d+.*not UTF-8"):
        list(read_records(stream))


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000, ["where", "nested too deeply"]),
    ("1" * 5000, ["where", "too many digits"]),
    (b"\xff", ["where", "not UTF-8"]),
    ("{,}", ["where", "not valid JSON", "column 2"]),
])
def test_parse_json(text, words):
    with pytest.raises(RecordError) as e:
        parse_json(text, "where", RecordError)
    for w in words:
        assert w in str(e.value)


# --- Python: bots, simulate, tournament, outputs -----------------------------------

@pytest.mark.parametrize("name, options, words", [
    ("expert", {"foo": "bar"}, ["no option 'foo'", "rollouts", "samples"]),
    ("expert", {"rollouts": -1}, ["rollouts=-1", "whole number, 1–1,000,000"]),
    ("expert", {"rollouts": 2.5}, ["rollouts=2.5", "whole number"]),
    ("expert", {"samples": 0}, ["samples=0", "1–10,000"]),
    ("expert", {"exact": 1}, ["exact=1", "true or false"]),
    ("expert", {"method": "magic"}, ["method='magic'", "auto, deal, rollout"]),
    ("expert", {"max_seconds": 0}, ["max_seconds=0", "above 0"]),
    ("careful", {"setup": float("nan")}, ["setup=nan", "from 0 to 10"]),
    ("careful", {"luck": 1}, ["luck", "points", "setup"]),
    ("random", {"depth": 3}, ["random", "takes no options"]),
    ("grandmaster", {}, ["unknown bot 'grandmaster'", "random, careful, expert"]),
])
def test_make_bot_bad_options(name, options, words):
    with pytest.raises(BotError) as e:
        make_bot(name, seed=0, **options)
    assert isinstance(e.value, ValueError)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_every_bot_option_has_a_range():
    """The ranges make_bot checks cover every option the constructors take (a new option
    without a range would go unchecked)."""
    import inspect

    from krypteach.bots import _BOT_OPTIONS, BOT_LEVELS
    from krypteach.bots.careful import WEIGHTS

    expert = [p.name for p in inspect.signature(BOT_LEVELS["expert"]).parameters.values() if p.name != "seed"]
    assert set(_BOT_OPTIONS["expert"]) == set(expert)
    assert set(_BOT_OPTIONS["careful"]) == set(WEIGHTS)


def test_good_bot_options_still_work():
    assert make_bot("expert", seed=0, rollouts=12, min_samples=3, max_seconds=None, method="rollout").rollouts == 12
    assert make_bot("careful", seed=0, setup=0).weights["setup"] == 0


@pytest.mark.parametrize("spec, words", [
    ("expert:rollouts", ["'rollouts'", "key=value"]),
    (":rollouts=3", ["no name", "random, careful, expert"]),
    ("expert:rollouts=3;rollouts=4", ["'rollouts'", "twice"]),
    ("expert:=3", ["'=3'", "key=value"]),
])
def test_parse_bot_spec_bad_input(spec, words):
    with pytest.raises(BotError) as e:
        parse_bot_spec(spec)
    for w in words:
        assert w in str(e.value)


@pytest.mark.parametrize("call, words", [
    (lambda: simulate(Rules(), 0), ["givar=0", "1 or more"]),
    (lambda: simulate(Rules(), -5), ["givar=-5", "1 or more"]),
    (lambda: simulate(Rules(), 2, bots=["random"] * 3), ["one bot for every seat (2)", "got 3"]),
    (lambda: simulate(Rules(), 2, bots=["grandmaster"]), ["grandmaster", "random, careful, expert"]),
    (lambda: tournament(Rules(), 0, ["careful", "random"]), ["givar=0", "multiple of the number of bots (2)"]),
    (lambda: tournament(Rules(), 2, ["expert:rollouts=-1", "random"]), ["rollouts=-1", "1–1,000,000"]),
    (lambda: check_bots([], 2), ["at least one bot"]),
    (lambda: check_bots(["careful", " "], 2), ["no empty names"]),
])
def test_simulate_and_tournament_check_their_arguments(call, words):
    with pytest.raises(ValueError, match=re.escape(words[0])) as e:
        call()
    for w in words:
        assert w in str(e.value), str(e.value)


def test_outputs_check_paths_before_opening(tmp_path):
    with pytest.raises(OutputError, match=r"--record .* is a folder"):
        GivOutputs(str(tmp_path), None, ["a"])
    with pytest.raises(OutputError, match=r"--csv .*does not exist"):
        GivOutputs(None, str(tmp_path / "no" / "x.csv"), ["a"])
    assert list(tmp_path.iterdir()) == []


# --- Python: puzzles ----------------------------------------------------------------

@pytest.mark.parametrize("changes, words", [
    ({"hand": "AD"}, ["hand must be a list of card codes", "'AD'"]),
    ({"table": None}, ["table must be a list of card codes", "None"]),
    ({"next_hand": [1, 2]}, ["next_hand must be a list of card codes"]),
    ({"kind": "riddle"}, ["kind='riddle'", "which-card"]),
    ({"difficulty": 2}, ["difficulty=2", "easy, medium, hard"]),
    ({"last_capturer": "me"}, ["last_capturer='me'", "1 (your opponent)"]),
    ({"last_capturer": True}, ["last_capturer=True", "0 (you)"]),
    ({"answers": [["AS"]]}, ["answers must be a list of texts"]),
    ({"rules": {"players": 9}}, ["rules", "players=9", "2–6"]),
])
def test_puzzle_from_dict_bad_fields(changes, words):
    with pytest.raises(PuzzleError) as e:
        Puzzle.from_dict({**PUZZLE, **changes})
    message = str(e.value)
    assert message.startswith(f"puzzle {PID}: "), message
    for w in words:
        assert w in message, message


def test_load_puzzles_names_the_file(tmp_path):
    path = tmp_path / "p.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(PuzzleError, match=r"p\.json: not valid JSON"):
        load_puzzles(path)
    assert len(load_puzzles()) >= 60  # the shipped file still loads
