"""Records and explanations are kept byte for byte (issue 18's "Kept exactly").

Every preset is played with the random bots, the main games with careful and
expert too, and the JSON Lines records, the bots' reasons and the explanation
of every legal move along the way are hashed. The digests in
``tests/data/golden_digests.json`` were written by the engine before the games
were split into one module each; a change to the rules' outcome, to the record
format or to an explanation's words shows here as a changed digest.

To write the digests anew after a change that is meant (say so in the commit):
``python tests/test_records_golden.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from krypteach import Move, Rules
from krypteach.engine.records import dump_givar
from krypteach.engine.rules import PRESETS
from krypteach.play.simulate import play_giv, simulate

DIGESTS = Path(__file__).parent / "data" / "golden_digests.json"

# (name, rules, bots, givar): every preset with random bots; careful and expert on each game and on teams
CASES: list[tuple[str, dict, tuple[str, ...], int]] = [
    *((f"{p}/random", {"preset": p}, ("random",), 4) for p in PRESETS),
    ("krypkasino/careful", {"preset": "krypkasino"}, ("careful",), 4),
    ("four-pairs/careful", {"preset": "four-pairs"}, ("careful",), 4),
    ("six-threes/careful", {"preset": "six-threes"}, ("careful",), 2),
    ("kasino/careful", {"preset": "kasino"}, ("careful",), 4),
    ("avig-kasino/careful", {"preset": "avig-kasino"}, ("careful",), 4),
    ("kasino-pairs/careful", {"preset": "kasino-pairs"}, ("careful",), 4),
    ("dragkasino/careful", {"preset": "dragkasino"}, ("careful",), 2),
    ("krypkasino/expert,careful", {"preset": "krypkasino"}, ("expert", "careful"), 2),
    ("kasino/expert,careful", {"preset": "kasino"}, ("expert", "careful"), 2),
    ("avig-kasino/expert,careful", {"preset": "avig-kasino"}, ("expert", "careful"), 2),
]


def _rules(spec: dict) -> Rules:
    return Rules.preset(spec["preset"])


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def records_digest(name: str) -> str:
    """The digest of the records of one case (simulate on one process, as the CLI writes them)."""
    _, spec, bots, givar = next(c for c in CASES if c[0] == name)
    sim = simulate(_rules(spec), givar, seed=11, bots=list(bots), keep=True, jobs=1)
    return _sha(dump_givar(sim.givar))


def explanations_digest(preset: str, seed: int = 5) -> str:
    """Every legal move (and one illegal per position) explained along one random giv."""
    from krypteach.bots import make_bot

    rules = Rules.preset(preset)
    bots = [make_bot("random", seed=seed + s) for s in range(rules.players)]
    g = play_giv(rules, bots, seed=seed)
    lines: list[str] = []
    replay = type(g)(rules, deals=g.deals, dealer=g.dealer)
    for t in g.turns:
        for m in replay.legal_moves():
            e = replay.explain(m)
            lines.append(f"{m}|{e.legal}|{e.rule}|{e.tabbe}|{e.message}")
        creep = Move(t.move.card)
        if creep not in replay.legal_moves():
            e = replay.explain(creep)
            lines.append(f"{creep}|{e.legal}|{e.rule}|{e.message}")
        replay.play(t.move)
    return _sha("\n".join(lines))


def hints_digest(preset: str, seed: int = 3) -> str:
    """The hint (move and reason) at every decision of one careful giv."""
    from krypteach.bots import make_bot, suggest

    rules = Rules.preset(preset)
    g = play_giv(rules, [make_bot("careful", seed=seed + s) for s in range(rules.players)], seed=seed)
    replay = type(g)(rules, deals=g.deals, dealer=g.dealer)
    lines = []
    for t in g.turns:
        move, reason = suggest(replay.observation(), "careful", seed=seed)
        lines.append(f"{move}|{reason}")
        replay.play(t.move)
    return _sha("\n".join(lines))


EXPLAINED = ("krypkasino", "four-pairs", "ace-14-hand", "kasino", "avig-kasino", "kasino-face-own-rank")
HINTED = ("krypkasino", "kasino", "avig-kasino")


def all_digests() -> dict[str, str]:
    out = {f"records:{name}": records_digest(name) for name, *_ in CASES}
    out.update({f"explain:{p}": explanations_digest(p) for p in EXPLAINED})
    out.update({f"hints:{p}": hints_digest(p) for p in HINTED})
    return out


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    return json.loads(DIGESTS.read_text())


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_records_are_kept_byte_for_byte(name: str, golden: dict[str, str]) -> None:
    assert records_digest(name) == golden[f"records:{name}"]


@pytest.mark.parametrize("preset", EXPLAINED)
def test_explanations_are_kept(preset: str, golden: dict[str, str]) -> None:
    assert explanations_digest(preset) == golden[f"explain:{preset}"]


@pytest.mark.parametrize("preset", HINTED)
def test_hints_are_kept(preset: str, golden: dict[str, str]) -> None:
    assert hints_digest(preset) == golden[f"hints:{preset}"]


if __name__ == "__main__":
    if "--write" in sys.argv:
        DIGESTS.write_text(json.dumps(all_digests(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {DIGESTS}")
    else:
        print(json.dumps(all_digests(), indent=1, sort_keys=True))
