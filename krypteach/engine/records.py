"""Game records: one giv per line of JSON (JSON Lines).

Format ``krypteach-giv/1`` (documented in ``docs/records.md``)::

    {"format": "krypteach-giv/1", "rules": {...Rules.to_dict()...}, "players": 2, "dealer": 0,
     "deals": [{"hands": [["9S", ...], [...]], "table": ["7H", ...], "aside": ["KD"]}, ...],
     "moves": [{"player": 1, "card": "9H", "capture": ["2C", "7D"]}, {"player": 0, "card": "4S", "capture": null}],
     "result": {"card_points": [..], "marks": [..], "dukningar": [..], "scores": [..], "last_capturer": 0}}

Loading replays every move through the engine, so a record that breaks a rule
(or whose stored result disagrees with the replay) is refused with an error
that names the line and the move.

>>> from krypteach.engine.game import Giv
>>> g = Giv(seed=5)
>>> while not g.is_over:
...     _ = g.play(g.legal_moves()[-1])
>>> again = giv_from_record(giv_to_record(g))
>>> again.result == g.result
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from .cards import Card, CardParseError
from .game import Deal, Giv
from .moves import IllegalMoveError, Move
from .rules import Rules, RulesError

__all__ = ["FORMAT", "RecordError", "giv_to_record", "giv_from_record", "dump_givar", "load_givar", "write_records", "read_records"]

FORMAT = "krypteach-giv/1"


class RecordError(ValueError):
    """A corrupt or illegal game record; the message names the line and the move."""


def giv_to_record(giv: Giv) -> dict[str, Any]:
    """A giv as a JSON-able dict (the moves so far; ``result`` once it is over)."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "rules": giv.rules.to_dict(),
        "players": giv.rules.players,
        "dealer": giv.dealer,
        "deals": [
            {"hands": [[str(c) for c in h] for h in d.hands], "table": [str(c) for c in d.table], "aside": [str(c) for c in d.aside]}
            for d in giv.deals
        ],
        "moves": [
            {"player": t.player, "card": str(t.move.card), "capture": None if t.move.capture is None else [str(c) for c in t.move.capture]}
            for t in giv.turns
        ],
    }
    if giv.is_over:
        rec["result"] = giv.result.to_dict()
    return rec


def _cards(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: expected a list of card codes, got {value!r}")
    try:
        return [Card.parse(c) for c in value]
    except CardParseError as e:
        raise RecordError(f"{where}: {e}") from None


def giv_from_record(rec: dict[str, Any], *, where: str = "record") -> Giv:
    """Rebuild a giv from a record by replaying every move; raises :class:`RecordError`."""
    if not isinstance(rec, dict):
        raise RecordError(f"{where}: a record must be a JSON object")
    if rec.get("format") != FORMAT:
        raise RecordError(f"{where}: format must be {FORMAT!r}, got {rec.get('format')!r}")
    for key in ("rules", "players", "dealer", "deals", "moves"):
        if key not in rec:
            raise RecordError(f"{where}: missing field {key!r}")
    try:
        rules = Rules.from_dict(rec["rules"])
    except (RulesError, TypeError) as e:
        raise RecordError(f"{where}: bad rules: {e}") from None
    if rec["players"] != rules.players:
        raise RecordError(f"{where}: players={rec['players']!r} but the rules say {rules.players}")
    if not isinstance(rec["deals"], list) or not isinstance(rec["moves"], list):
        raise RecordError(f"{where}: deals and moves must be lists")
    deals = []
    for i, d in enumerate(rec["deals"]):
        if not isinstance(d, dict) or not isinstance(d.get("hands"), list):
            raise RecordError(f"{where}, deal {i}: expected {{'hands': [...], 'table': [...], 'aside': [...]}}")
        hands = tuple(tuple(_cards(h, f"{where}, deal {i}, seat {s}")) for s, h in enumerate(d["hands"]))
        deals.append(Deal(hands, tuple(_cards(d.get("table", []), f"{where}, deal {i}, table")),
                          tuple(_cards(d.get("aside", []), f"{where}, deal {i}, aside"))))
    try:
        giv = Giv(rules, dealer=rec["dealer"], deals=deals)
    except (ValueError, TypeError) as e:
        raise RecordError(f"{where}: bad deals: {e}") from None
    for i, m in enumerate(rec["moves"], start=1):
        here = f"{where}, move {i}"
        if not isinstance(m, dict) or "card" not in m:
            raise RecordError(f"{here}: expected {{'player': seat, 'card': code, 'capture': [codes] or null}}")
        if m.get("player") != giv.turn:
            raise RecordError(f"{here}: it is seat {giv.turn}'s turn, not seat {m.get('player')!r}'s")
        try:
            card = Card.parse(m["card"])
            capture = None if m.get("capture") is None else _cards(m["capture"], here)
            move = Move(card, capture)
            giv.play(move)
        except IllegalMoveError as e:
            raise RecordError(f"{here}: {e}") from None
        except (CardParseError, ValueError) as e:
            raise RecordError(f"{here}: {e}") from None
    if "result" in rec:
        if not giv.is_over:
            raise RecordError(f"{where}: the record has a result but its moves do not finish the giv")
        if rec["result"] != giv.result.to_dict():
            raise RecordError(f"{where}: the stored result {rec['result']} does not match the replay {giv.result.to_dict()}")
    return giv


def dump_givar(givar: Iterable[Giv]) -> str:
    """Givar as JSON Lines text."""
    return "".join(json.dumps(giv_to_record(g), ensure_ascii=False) + "\n" for g in givar)


def write_records(givar: Iterable[Giv], file: "str | Path | IO[str]") -> int:
    """Write givar to a ``.jsonl`` file (path or open text file); returns how many."""
    count = 0
    if isinstance(file, (str, Path)):
        with open(file, "w", encoding="utf-8") as fh:
            return write_records(givar, fh)
    for g in givar:
        file.write(json.dumps(giv_to_record(g), ensure_ascii=False) + "\n")
        count += 1
    return count


def read_records(file: "str | Path | IO[str]") -> Iterator[Giv]:
    """Read and validate givar from a JSON Lines file; errors name the line."""
    if isinstance(file, (str, Path)):
        with open(file, encoding="utf-8") as fh:
            yield from read_records(fh)
        return
    for lineno, line in enumerate(file, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"line {lineno}: not valid JSON ({e.msg} at column {e.colno})") from None
        yield giv_from_record(rec, where=f"line {lineno}")


def load_givar(text: str) -> list[Giv]:
    """Givar from JSON Lines text."""
    import io

    return list(read_records(io.StringIO(text)))
