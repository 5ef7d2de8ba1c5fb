import subprocess
import sys

from krypteach import __version__, read_records
from krypteach.cli import lessons_dir, main


def run(*args):
    return subprocess.run([sys.executable, "-m", "krypteach", *args], capture_output=True, text=True, timeout=300, check=False)


def test_help_lists_the_commands():
    out = run("--help")
    assert out.returncode == 0
    for cmd in ("serve", "lab", "simulate"):
        assert cmd in out.stdout


def test_version():
    out = run("--version")
    assert out.returncode == 0 and __version__ in out.stdout


def test_simulate_prints_a_summary_and_writes_records(tmp_path):
    rec = tmp_path / "g.jsonl"
    csv = tmp_path / "g.csv"
    out = run("simulate", "--players", "3", "--givar", "6", "--seed", "2", "--record", str(rec), "--csv", str(csv))
    assert out.returncode == 0, out.stderr
    assert "mean score per seat" in out.stdout and "tabbar per giv" in out.stdout and "last capturer" in out.stdout
    givar = list(read_records(rec))
    assert len(givar) == 6 and all(g.is_over and g.rules.players == 3 for g in givar)
    assert [g.dealer for g in givar] == [0, 1, 2, 0, 1, 2]
    rows = csv.read_text().splitlines()
    assert rows[0].startswith("giv,seat,bot") and len(rows) == 1 + 6 * 3


def test_simulate_is_deterministic_under_a_seed(capsys):
    main(["simulate", "--givar", "5", "--seed", "7"])
    a = capsys.readouterr().out
    main(["simulate", "--givar", "5", "--seed", "7"])
    assert capsys.readouterr().out == a


def test_simulate_rules_preset_and_bad_rules():
    assert run("simulate", "--givar", "2", "--rules", "table-grows-by-creeping").returncode == 0
    bad = run("simulate", "--givar", "2", "--rules", "no-such-preset")
    assert bad.returncode != 0 and "unknown preset" in bad.stderr


def test_lessons_dir_is_found():
    assert (lessons_dir() / "00_start.ipynb").exists() or any(lessons_dir().glob("00*.ipynb"))


# --- issue 19: the command line's own words follow the language ----------------------------------

def run_in(lang, *args, env_lang=None):
    """``krypteach ARGS`` with ``$KRYPTEACH_LANG`` set to ``env_lang`` (None: unset)."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "KRYPTEACH_LANG"}
    if env_lang:
        env["KRYPTEACH_LANG"] = env_lang
    argv = [*args, "--lang", lang] if lang else list(args)
    return subprocess.run([sys.executable, "-m", "krypteach", *argv], capture_output=True, text=True, timeout=300,
                          check=False, env=env)


def test_a_bad_port_is_one_line_in_the_language():
    sv = run_in("sv", "serve", "--port", "70000")
    assert sv.returncode == 2 and sv.stdout == ""
    assert sv.stderr == ("krypteach: --port: 70000 är inte tillåtet: det måste vara ett heltal, 1–65535 "
                         "(se krypteach serve --help)\n")
    env = run_in(None, "serve", "--port", "x", env_lang="sv")
    assert env.returncode == 2
    assert env.stderr == "krypteach: --port: 'x' är inget heltal: det måste vara 1–65535 (se krypteach serve --help)\n"
    en = run_in(None, "serve", "--port", "70000")
    assert en.returncode == 2
    assert en.stderr == ("krypteach: --port: 70000 is not allowed: it must be a whole number, 1–65535 "
                         "(see krypteach serve --help)\n")
    assert run_in("en", "serve", "--port", "70000", env_lang="sv").stderr == en.stderr  # --lang wins


def test_a_wrong_lang_is_one_clear_line():
    out = run_in("de", "serve")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("krypteach: --lang: 'de' is not a language krypteach speaks: choose sv (Svenska) or "
                          "en (English) (see krypteach serve --help)\n")
    sv = run_in("de", "serve", env_lang="sv")
    assert sv.stderr.startswith("krypteach: --lang: 'de' är inget språk som krypteach kan: välj sv (svenska)")


def test_argparse_words_and_the_help_in_swedish():
    out = run_in("sv", "serve", "--help")
    assert out.returncode == 0
    assert out.stdout.startswith("användning: krypteach serve [-h]")
    for line in ("visa den här hjälpen och avsluta", "port 1–65535 (standard 8866); en upptagen port är ett",
                 "\nval:\n"):
        assert line in out.stdout, line
    assert "show this help" not in out.stdout and "options:" not in out.stdout
    bogus = run_in(None, "simulate", "--bogus", env_lang="sv")
    assert bogus.returncode == 2 and bogus.stderr == "krypteach: okända argument: --bogus (se krypteach --help)\n"
    seed = run_in(None, "simulate", "--seed", "x", env_lang="sv")
    assert seed.returncode == 2 and seed.stderr == "krypteach: --seed: 'x' är inget heltal (se krypteach simulate --help)\n"
    required = run_in(None, "build-site", env_lang="sv")
    assert required.stderr == "krypteach: de här argumenten behövs: OUT (se krypteach build-site --help)\n"
    assert run_in(None, "build-site").stderr == (
        "krypteach: the following arguments are required: OUT (see krypteach build-site --help)\n")


def test_serve_errors_follow_lang_the_classroom_file_and_the_environment(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("KRYPTEACH_LANG", raising=False)
    assert main(["serve", "--class-code", "AB", "--lang", "sv"]) == 1
    assert capsys.readouterr().err == "krypteach serve: --class-code behöver minst 4 bokstäver eller siffror\n"
    assert main(["serve", "--class-code", "AB"]) == 1
    assert capsys.readouterr().err == "krypteach serve: --class-code needs at least 4 letters or digits\n"
    room = tmp_path / "klass.toml"
    room.write_text('[class]\nlanguage = "sv"\n', encoding="utf-8")
    assert main(["serve", "--config", str(room), "--open", "--class-code", "ABCD"]) == 1
    assert capsys.readouterr().err == ("krypteach serve: --class-code och --open går inte ihop "
                                       "(--open betyder ingen kod)\n")
    assert main(["serve", "--config", str(room), "--lang", "en", "--teacher-code", "ABC"]) == 1  # --lang wins
    assert capsys.readouterr().err == "krypteach serve: --teacher-code needs at least 6 letters or digits\n"
    monkeypatch.setenv("KRYPTEACH_LANG", "sv")
    assert main(["serve", "--teacher-code", "ABC"]) == 1
    assert capsys.readouterr().err == "krypteach serve: --teacher-code behöver minst 6 bokstäver eller siffror\n"


def test_other_commands_speak_the_language(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("KRYPTEACH_LANG", "sv")
    out = tmp_path / "regler.html"
    assert main(["rules-sheet", "--out", str(out)]) == 0
    assert capsys.readouterr().out == (f"regelbladet är skrivet till {out}: öppna det i en webbläsare och skriv ut "
                                       "det (en A4-sida)\n")
    assert main(["puzzles", "--show", "no-such-id"]) == 2
    assert capsys.readouterr().err.startswith("krypteach: --show no-such-id: inget problem har det id:t (id ser ut som ")
    assert main(["simulate", "--givar", "2", "--players", "3", "--rules", "four-pairs"]) == 1
    assert capsys.readouterr().err == ("krypteach: --players 3 passar inte ihop med --rules four-pairs: dess lag om "
                                       "två behöver 4 eller 6 spelare; ta bort --players eller välj andra regler\n")
    monkeypatch.setenv("KRYPTEACH_LANG", "en")
    assert main(["puzzles", "--show", "no-such-id"]) == 2
    assert capsys.readouterr().err.startswith("krypteach: --show no-such-id: no puzzle with that id (ids look like ")
