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
