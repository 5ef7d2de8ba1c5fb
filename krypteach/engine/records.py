"""Game records: one giv per line of JSON (JSON Lines).

Format ``krypteach-giv/2`` (documented in ``docs/records.md``) is ``krypteach-giv/1``
plus classic Kasino: rules with ``"game": "kasino"``, builds on a position's
table (``"[9:4S+5H@0]"``) and build moves (``"build": 9``). A Krypkasino giv has
none of these and is written as ``krypteach-giv/1``, exactly as before; both
versions are read. Version 1::

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
import reprlib
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..i18n import _
from .cards import Card, CardParseError
from .game import Deal, Giv
from .games import game_of
from .moves import IllegalMoveError, Move
from .rules import Rules, RulesError, deal_plan

if TYPE_CHECKING:  # builds is imported where it is used, as before
    from .builds import Build

__all__ = [
    "FORMAT",
    "FORMAT_1",
    "FORMAT_2",
    "RecordError",
    "dump_givar",
    "giv_from_record",
    "giv_to_record",
    "load_givar",
    "parse_json",
    "read_records",
    "write_records",
]

#: the current version of the record format: version 1 plus classic Kasino (builds)
FORMAT_2 = "krypteach-giv/2"
#: the first version, Krypkasino only. A Krypkasino giv needs nothing of version 2 and is still
#: written as version 1, byte for byte as before (``FORMAT`` keeps its old meaning for that reason)
FORMAT = FORMAT_1 = "krypteach-giv/1"
FORMATS = (FORMAT_1, FORMAT_2)


class RecordError(ValueError):
    """A corrupt or illegal game record; the message names the line and the move."""


def giv_to_record(giv: Giv) -> dict[str, Any]:
    """A giv as a JSON-able dict (the moves so far; ``result`` once it is over)."""
    rec: dict[str, Any] = {
        "format": FORMAT_2 if giv.game.has_builds else FORMAT_1,  # version 2: a table may hold builds
        "rules": giv.rules.to_dict(),
        "players": giv.rules.players,
        "dealer": giv.dealer,
        "deals": [
            {"hands": [[str(c) for c in h] for h in d.hands], "table": [str(c) for c in d.table],
             "aside": [str(c) for c in d.aside]}
            for d in giv.deals
        ],
        "moves": [_move_record(t.player, t.move) for t in giv.turns],
    }
    if not _is_dealt(giv):  # a hand-made position (Giv.from_position): its one deal, who starts, who moved before
        rec["position"] = {"turn": giv.turns[0].player if giv.turns else giv.turn,
                           "previous_mover": giv.previous_mover}
    if giv.is_over:
        rec["result"] = giv.result.to_dict()
    return rec


def _move_record(player: int, move: Move) -> dict[str, Any]:
    """One move: ``capture`` the table cards taken (``null`` for a creep); a build
    (version 2) also has ``"build": value``, its ``capture`` the table cards it takes in."""
    rec: dict[str, Any] = {"player": player, "card": str(move.card),
                           "capture": None if move.capture is None else [str(c) for c in move.capture]}
    if move.value is not None:
        rec["build"] = move.value
    return rec


def _is_dealt(giv: Giv) -> bool:
    """Was the giv dealt from a whole deck by the rules' deal plan (not a hand-made position)?"""
    plan = deal_plan(giv.rules)
    draw = giv.rules.draw  # dragkasino: after the first utdelning, one card to one seat per draw
    return len(giv.deals) == len(plan) and all(
        (sum(map(len, d.hands)) == 1 if draw and i else all(len(h) == k for h in d.hands))
        and len(d.table) + len(d.aside) == t for i, (d, (k, t)) in enumerate(zip(giv.deals, plan)))


_short = reprlib.Repr()
_short.maxlevel, _short.maxstring, _short.maxother, _short.maxlist, _short.maxdict = 2, 40, 40, 4, 4


def short_repr(value: Any) -> str:
    """``repr(value)`` cut short (a few items, two levels), for one-line error messages."""
    return _short.repr(value)


def parse_json(text: str | bytes, where: str, error: type[ValueError] = ValueError) -> Any:
    """``json.loads`` whose every failure is one ``error(f"{where}: …")``: bytes that are
    not UTF-8, text that is not JSON, nesting too deep for Python's parser, or a number
    with more digits than Python converts.

    >>> parse_json('{"a": [1, 2]}', "x")
    {'a': [1, 2]}
    >>> parse_json("[" * 100000, "rules.json")
    Traceback (most recent call last):
    ...
    ValueError: rules.json: the JSON is nested too deeply (only a few levels of [ ] and { } are expected)
    """
    if isinstance(text, bytes):
        if text.startswith(b"\xef\xbb\xbf"):  # a byte order mark
            text = text[3:]
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise error(_("{where}: not UTF-8 text (byte {byte} at position {position}); save the file as UTF-8").format(
                where=where, byte=f"0x{text[e.start]:02x}", position=e.start + 1)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        at = (_("column {column}").format(column=e.colno) if e.lineno == 1
              else _("line {line}, column {column}").format(line=e.lineno, column=e.colno))
        # i18n: {problem} is Python's own words (in English), e.g. "Expecting value"
        raise error(_("{where}: not valid JSON ({problem} at {at})").format(where=where, problem=e.msg, at=at)) from None
    except RecursionError:
        raise error(_("{where}: the JSON is nested too deeply "
                      "(only a few levels of [ ] and {{ }} are expected)").format(where=where)) from None
    except ValueError as e:  # Python's limit on the digits of an int
        if "digits" not in str(e):
            raise error(_("{where}: not valid JSON ({problem})").format(where=where, problem=e)) from None
        limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
        raise error(_("{where}: a number has too many digits (at most {limit} are allowed)").format(
            where=where, limit=limit)) from None


def _cards(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(_("{where}: expected a list of card codes such as [\"9H\", \"2C\"], got {value}").format(
            where=where, value=short_repr(value)))
    try:
        return [Card.parse(c) for c in value]
    except CardParseError as e:
        raise RecordError(f"{where}: {e}") from None


def _table(value: Any, where: str) -> list[Card | Build]:
    """A classic Kasino table: card codes and builds ``"[9:4S+5H@0]"``."""
    from .builds import BuildParseError, parse_table

    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise RecordError(_("{where}: expected a list of card codes and builds such as [\"9H\", \"[9:4S+5H@0]\"], "
                            "got {value}").format(where=where, value=short_repr(value)))
    try:
        return parse_table(value)
    except (BuildParseError, CardParseError, ValueError) as e:
        raise RecordError(f"{where}: {e}") from None


def _seat(value: Any, players: int, what: str, where: str) -> int:
    """``value`` as a seat 0..players-1 (a bool is not a seat)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise RecordError(_("{where}: {name}={value} is not a seat: it must be a whole number 0–{last}").format(
            where=where, name=what, value=short_repr(value), last=players - 1))
    return value


def giv_from_record(rec: dict[str, Any], *, where: str | None = None) -> Giv:
    """Rebuild a giv from a record by replaying every move; raises :class:`RecordError`
    (its message starts with ``where``, by default "record")."""
    if where is None:
        # i18n: what a message about a giv's record is about, when it is not a line of a file
        where = _("record")
    if not isinstance(rec, dict):
        raise RecordError(_("{where}: a record must be a JSON object {{\"format\": {format}, ...}}, "
                            "got {type}").format(where=where, format=repr(FORMAT), type=type(rec).__name__))
    version = rec.get("format")
    if version not in FORMATS:
        raise RecordError(_("{where}: format must be {format} (or the older {older}), got {value}").format(
            where=where, format=repr(FORMAT_2), older=repr(FORMAT_1), value=short_repr(version)))
    for key in ("rules", "players", "dealer", "deals", "moves"):
        if key not in rec:
            raise RecordError(_("{where}: missing field {key}").format(where=where, key=repr(key)))
    try:
        rules = Rules.from_dict(rec["rules"])
    except (RulesError, TypeError) as e:
        raise RecordError(_("{where}: bad rules: {problem}").format(where=where, problem=e)) from None
    has_builds = game_of(rules).has_builds
    if version == FORMAT_1 and has_builds:
        raise RecordError(_("{where}: a {format} record is Krypkasino; classic Kasino needs {newer}").format(
            where=where, format=repr(FORMAT_1), newer=repr(FORMAT_2)))
    players = rec["players"]
    if isinstance(players, bool) or not isinstance(players, int) or players != rules.players:
        raise RecordError(_("{where}: players={value} but the rules say {players}").format(
            where=where, value=short_repr(players), players=rules.players))
    dealer = _seat(rec["dealer"], rules.players, "dealer", where)
    if not isinstance(rec["deals"], list) or not isinstance(rec["moves"], list):
        raise RecordError(_("{where}: deals and moves must be lists").format(where=where))
    deals = []
    for i, d in enumerate(rec["deals"]):
        deal_where = _("{where}, deal {number}").format(where=where, number=i)
        if not isinstance(d, dict) or not isinstance(d.get("hands"), list):
            raise RecordError(_("{where}: expected {{\"hands\": [...], \"table\": [...], \"aside\": [...]}}").format(
                where=deal_where))
        hands = tuple(tuple(_cards(h, _("{where}, seat {seat}").format(where=deal_where, seat=s)))
                      for s, h in enumerate(d["hands"]))
        table_where = _("{where}, table").format(where=deal_where)
        table = (_table(d.get("table", []), table_where) if has_builds
                 else _cards(d.get("table", []), table_where))
        # a Kasino position's table may hold builds, which Deal.table (typed for Krypkasino's cards) carries too
        aside = tuple(_cards(d.get("aside", []), _("{where}, aside").format(where=deal_where)))
        deals.append(Deal(hands, tuple(table), aside))  # type: ignore[arg-type]
    position = rec.get("position")
    try:
        if position is None:
            giv = Giv(rules, dealer=dealer, deals=deals)
        else:
            giv = _position_giv(position, deals, rules, dealer, where)
    except RecordError:  # a bad "position" says where itself, once
        raise
    except (ValueError, TypeError) as e:
        raise RecordError(_("{where}: bad deals: {problem}").format(where=where, problem=e)) from None
    move_at = _("{where}, move {number}")  # translated once: a record has many moves
    for i, m in enumerate(rec["moves"], start=1):
        here = move_at.format(where=where, number=i)
        if not isinstance(m, dict) or "card" not in m:
            raise RecordError(_("{where}: expected {{\"player\": seat, \"card\": code, \"capture\": [codes] or null}}").format(
                where=here))
        player = _seat(m.get("player"), rules.players, "player", here)
        if player != giv.turn:
            raise RecordError(_("{where}: it is seat {turn}'s turn, not seat {player}'s").format(
                where=here, turn=giv.turn, player=player))
        capture = None if m.get("capture") is None else _cards(m["capture"], _("{where}, capture").format(where=here))
        value = m.get("build")
        if value is not None and (version == FORMAT_1 or isinstance(value, bool) or not isinstance(value, int)):
            raise RecordError(_("{where}: build={value} must be a whole number 2–14, in a {format} record").format(
                where=here, value=short_repr(value), format=repr(FORMAT_2)))
        try:
            card = Card.parse(m["card"])
            giv.play(Move(card, capture) if value is None else Move.build(card, capture or (), value))
        except (IllegalMoveError, CardParseError, ValueError) as e:
            raise RecordError(f"{here}: {e}") from None
    if "result" in rec:
        if not giv.is_over:
            raise RecordError(_("{where}: the record has a result but its moves do not finish the giv").format(
                where=where))
        if rec["result"] != giv.result.to_dict():
            raise RecordError(_("{where}: the stored result {stored} does not match the replay {replayed}").format(
                where=where, stored=short_repr(rec["result"]), replayed=giv.result.to_dict()))
    return giv


def _position_giv(position: Any, deals: list[Deal], rules: Rules, dealer: int, where: str) -> Giv:
    """The start of a hand-made position's record (``"position"`` beside its one deal)."""
    if not isinstance(position, dict) or len(deals) != 1:
        raise RecordError(_("{where}: a position is {{\"turn\": seat, \"previous_mover\": seat or null}} "
                            "beside exactly one deal").format(where=where))
    turn = _seat(position.get("turn"), rules.players, "position turn", where)
    prev = position.get("previous_mover")
    prev = None if prev is None else _seat(prev, rules.players, "position previous_mover", where)
    d = deals[0]
    return Giv.from_position(d.hands, d.table, kladda=d.aside, rules=rules, turn=turn, previous_mover=prev,
                             dealer=dealer)


def dump_givar(givar: Iterable[Giv]) -> str:
    """Givar as JSON Lines text."""
    return "".join(json.dumps(giv_to_record(g), ensure_ascii=False) + "\n" for g in givar)


def write_records(givar: Iterable[Giv], file: str | Path | IO[str]) -> int:
    """Write givar to a ``.jsonl`` file (path or open text file); returns how many."""
    count = 0
    if isinstance(file, (str, Path)):
        with open(file, "w", encoding="utf-8") as fh:
            return write_records(givar, fh)
    for g in givar:
        file.write(json.dumps(giv_to_record(g), ensure_ascii=False) + "\n")
        count += 1
    return count


def read_records(file: str | Path | IO[str]) -> Iterator[Giv]:
    """Read and validate givar from a JSON Lines file; every error is a
    :class:`RecordError` that names the line."""
    if isinstance(file, (str, Path)):
        with open(file, "rb") as fh:  # bytes, so that a line that is not UTF-8 is named
            for lineno, raw in enumerate(fh, start=1):
                yield from _record_line(raw, lineno)
        return
    lineno = 0
    lines = iter(file)
    while True:
        try:
            line = next(lines)
        except StopIteration:
            return
        except UnicodeDecodeError as e:
            raise RecordError(_("line {line} or a little later: not UTF-8 text ({problem}); "
                                "save the file as UTF-8").format(line=lineno + 1, problem=e.reason)) from None
        lineno += 1
        yield from _record_line(line, lineno)


def _record_line(line: str | bytes, lineno: int) -> Iterator[Giv]:
    if not line.strip():
        return
    where = _("line {line}").format(line=lineno)
    rec = parse_json(line, where, RecordError)
    yield giv_from_record(rec, where=where)


def load_givar(text: str) -> list[Giv]:
    """Givar from JSON Lines text."""
    import io

    return list(read_records(io.StringIO(text)))
