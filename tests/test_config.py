"""The classroom file (issue 10): every key checked, and what ``serve --config`` makes of it."""

from __future__ import annotations

import pytest

from krypteach.classroom.config import EXAMPLE, ClassroomConfig, ConfigError
from krypteach.cli import build_parser, classroom_env

from .conftest import LESSONS


def test_the_documented_example_is_valid_and_read_whole():
    cfg = ClassroomConfig.from_text(EXAMPLE)
    assert (cfg.class_code, cfg.teacher_code, cfg.language) == ("K7RPX", "LARARE2481", "sv")
    assert cfg.lessons == [f"{n:02d}" for n in range(10)] and cfg.first_lesson == "07"
    assert (cfg.game_rules, cfg.bots) == ("krypkasino", ["random", "careful"])
    assert (cfg.max_givar, cfg.max_job_seconds, cfg.class_size, cfg.progress) == (1000, 120, 30, "")
    assert (cfg.live_bot, cfg.live_replace_after, cfg.live_hints) == ("careful", 60, False)


def test_the_example_in_the_docs_is_the_one_in_the_code():
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "classroom.md").read_text(encoding="utf-8")
    assert EXAMPLE.strip() in doc


@pytest.mark.parametrize(("text", "says"), [
    ('[klass]\ncode = "K7RPX"', "[klass] is not a section here; the sections are: [class], [lessons]"),
    ('[class]\ncode = 12345', "[class] code = 12345 is not allowed: text, 4 or more"),
    ('[class]\ncode = "K7"', "[class] code = 'K7' is not allowed"),
    ('[class]\nlanguage = "de"', '[class] language = \'de\' is not allowed: "sv" or "en"'),
    ('[lessons]\nshow = ["1"]', "[lessons] show = '1' is not allowed: two-digit lesson numbers"),
    ('[lessons]\nshow = ["01", "01"]', "each lesson once"),
    ('[lessons]\nshow = []', "at least one lesson"),
    ('[lessons]\nshow = ["00", "01"]\nfirst = "07"', "[lessons] first = '07' is not allowed: one of the lessons shown"),
    ('[game]\nrules = "chess"', "[game] rules = 'chess' is not allowed: one of krypkasino"),
    ('[game]\nbots = ["grandmaster"]', "one or more of random, careful, expert"),
    ('[caps]\nmax_givar = true', "[caps] max_givar = True is not allowed: a whole number"),
    ('[caps]\nmax_job_seconds = 1', "[caps] max_job_seconds = 1 is not allowed: a whole number from 5 to 86,400"),
    ('[server]\nclass_size = 500', "[server] class_size = 500 is not allowed"),
    ('[live]\nbot = "grandmaster"', "[live] bot = 'grandmaster' is not allowed: one of random, careful, expert"),
    ('[live]\nbot = ["careful"]', "[live] bot = ['careful'] is not allowed: one computer player"),
    ('[live]\nreplace_after = 2', "[live] replace_after = 2 is not allowed: a whole number of seconds from 5 to 3,600"),
    ('[live]\nreplace_after = 1.5', "[live] replace_after = 1.5 is not allowed"),
    ('[live]\nhints = "yes"', "[live] hints = 'yes' is not allowed: true or false"),
    ('[live]\nhints = 1', "[live] hints = 1 is not allowed: true or false"),
    ('class = "K7RPX"', "class must be a section [class]"),
])
def test_a_bad_key_or_value_is_named_with_what_is_allowed(text, says):
    with pytest.raises(ConfigError) as e:
        ClassroomConfig.from_text(text)
    assert says in str(e.value)


def test_the_lessons_shown_are_files_in_order():
    cfg = ClassroomConfig.from_text('[lessons]\nshow = ["07", "00", "03"]')
    assert cfg.lesson_files(LESSONS) == ["07_play.ipynb", "00_start.ipynb", "03_take_all.ipynb"]
    assert ClassroomConfig().lesson_files(LESSONS) is None


def test_serve_options_win_over_the_file_and_the_file_reaches_the_kernels(tmp_path, monkeypatch):
    import krypteach.serve as serve_module

    (tmp_path / "k.toml").write_text(EXAMPLE.replace('show = ["00", "01", "02", "03", "04", "05", "06", "07", '
                                                     '"08", "09"]', 'show = ["03", "07"]'), encoding="utf-8")
    seen = {}
    monkeypatch.setattr(serve_module, "serve", lambda options: seen.setdefault("options", options) and 0)
    args = build_parser().parse_args(["serve", "--config", str(tmp_path / "k.toml"), "--max-givar", "50",
                                      "--dir", str(LESSONS)])
    args.func(args)
    o = seen["options"]
    assert (o.class_code, o.teacher_code, o.class_size, o.lesson) == ("K7RPX", "LARARE2481", 30, "07_play.ipynb")
    assert o.shown == ["00_start.ipynb", "03_take_all.ipynb", "07_play.ipynb"]  # the start page always
    assert o.kernel_env["KRYPTEACH_MAX_GIVAR"] == "50" and o.kernel_env["KRYPTEACH_MAX_JOB_SECONDS"] == "120"
    assert o.kernel_env["KRYPTEACH_SHOWN"] == "00,03,07" and o.kernel_env["KRYPTEACH_LANG"] == "sv"
    assert o.kernel_env["KRYPTEACH_GAME_BOTS"] == "random,careful"
    assert (o.kernel_env["KRYPTEACH_LIVE_BOT"], o.kernel_env["KRYPTEACH_LIVE_REPLACE_AFTER"]) == ("careful", "60")
    assert classroom_env(ClassroomConfig(), None) == {}


def test_the_live_class_plays_the_files_bot_and_waits_its_delay_for_a_gone_learner(tmp_path):
    """[live] bot and replace_after reach the server's tables: every table it opens fills its empty
    seats with that bot and gives a gone learner's seat to it after that many seconds."""
    from krypteach.serve.gate import ClassGate
    from krypteach.serve.settings import ServeSettings
    from krypteach.serve.tables import class_room

    cfg = ClassroomConfig.from_text('[live]\nbot = "expert"\nreplace_after = 15\nhints = true')
    env = classroom_env(cfg, None)
    assert env["KRYPTEACH_LIVE_HINTS"] == "1"
    settings = ServeSettings(gate=ClassGate("K7RPX", max_kernels=4), start_page=None, live_bot=env["KRYPTEACH_LIVE_BOT"],
                             live_replace_after=float(env["KRYPTEACH_LIVE_REPLACE_AFTER"]), live_hints=True)
    table, token = class_room(settings).open("Ann", 2)
    assert (table.bot, table.replace_after, table.hints) == ("expert", 15.0, True)
    assert "KRYPTEACH_LIVE_HINTS" not in classroom_env(ClassroomConfig.from_text("[live]\nhints = false"), None)
    table.away(token, 1000.0)
    table.tick(1000.0 + 14.0)
    assert table.view(token)["bots"][0] is False  # 14 s gone: still Ann's seat
    table.tick(1000.0 + 15.0)
    assert table.view(token)["bots"][0] is True  # 15 s: the expert plays it
    assert ServeSettings(gate=ClassGate("K7RPX", max_kernels=4), start_page=None).live_bot == "careful"
