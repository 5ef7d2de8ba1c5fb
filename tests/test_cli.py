import subprocess
import sys

from krypteach import __version__, read_records
from krypteach.cli import lessons_dir, main, voila_command


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


def test_serve_command_line_hides_code_and_culls_kernels(tmp_path):
    cmd = voila_command(tmp_path, port=8899, host="127.0.0.1")
    joined = " ".join(cmd)
    assert "--strip_sources=True" in joined and "--show_tracebacks=False" in joined
    assert "--preheat_kernel=True" in joined and "cull_idle_timeout" in joined
    assert "--Voila.ip=127.0.0.1" in joined and "--no-browser" in joined


def test_lessons_dir_is_found():
    assert (lessons_dir() / "00_start.ipynb").exists() or any(lessons_dir().glob("00*.ipynb"))


def test_serve_prints_the_landing_page_url_and_a_classroom_hint(tmp_path):
    import os
    import signal
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "krypteach", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    text = "".join(lines)
    assert f"Open http://127.0.0.1:{port}/voila/render/00_start.ipynb" in text
    assert "--host 0.0.0.0" in text
