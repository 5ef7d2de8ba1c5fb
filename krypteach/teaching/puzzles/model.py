"""Puzzles as data: the kinds, a :class:`Puzzle`, its :class:`Solution`, and puzzle files.

A puzzle file is JSON (format ``krypteach-puzzles/1``): ``{"format": …, "puzzles":
[…]}``; every field of every puzzle is checked when it is read, and an error names
the puzzle and the field.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...engine.builds import Build, BuildParseError, parse_table
from ...engine.cards import Card, CardParseError, parse_cards
from ...engine.records import parse_json, short_repr
from ...engine.rules import Rules, RulesError
from ...i18n import _
from .base import PROMPTS, PuzzleError, Solution

__all__ = ["KINDS", "KASINO_KINDS", "ALL_KINDS", "DIFFICULTIES", "FORMAT", "PuzzleError", "Puzzle", "Solution", "load_puzzles",
           "save_puzzles", "shipped_puzzles", "symbols_text", "capture_text"]


KINDS = ("what-must-you-take", "which-card", "safest-card", "set-up-dukning", "endgame")
#: classic Kasino's build puzzles (:mod:`.kasino`), shipped in ``krypteach/data/kasino_puzzles.json``
KASINO_KINDS = ("kasino-safe-build", "kasino-steal", "kasino-take-or-raise", "kasino-endgame")
ALL_KINDS = KINDS + KASINO_KINDS
DIFFICULTIES = ("easy", "medium", "hard")
FORMAT = "krypteach-puzzles/2"
#: version 1 named the last capturer "you" / "opponent"; version 2 gives a seat (0 you, 1 your opponent)
_OLD_FORMATS = {"krypteach-puzzles/1": {"you": 0, "opponent": 1, None: None}}


def symbols_text(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in cards) or _("empty")


def capture_text(cards: Iterable[Card]) -> str:
    return "+".join(str(c) for c in sorted(cards))


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``hand`` is your hand (for ``what-must-you-take`` the one card
    you play); ``next_hand`` the next player's hand (``set-up-dukning``) or the
    opponent's (``endgame``); ``answers`` the right answers as text, as stored
    (moves like ``"9H:2C+7D"``, cards like ``"9H"``, captures like ``"2C+7D"``)."""

    id: str
    kind: str
    difficulty: str
    hand: tuple[Card, ...]
    table: tuple[Card, ...]  # classic Kasino's puzzles hold Builds too (typed as Krypkasino's, which has none)
    next_hand: tuple[Card, ...] = ()
    kladda: tuple[Card, ...] = ()
    last_capturer: int | None = None  # endgame: 0 you (hand), 1 your opponent (next_hand), None nobody yet
    answers: tuple[str, ...] = ()
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for name in ("hand", "next_hand", "kladda"):
            value = getattr(self, name)
            set_(self, name, tuple(parse_cards(value) if isinstance(value, str) else (Card(c) for c in value)))
        set_(self, "table", tuple(x if isinstance(x, Build) else Card(x) for x in parse_table(self.table))
             if isinstance(self.table, str) else tuple(x if isinstance(x, Build) else Card(x) for x in self.table))
        set_(self, "answers", tuple(self.answers))
        if self.kind not in ALL_KINDS:
            raise PuzzleError(f"puzzle {self.id}: unknown kind {self.kind!r}: choose one of {', '.join(ALL_KINDS)}")
        if self.difficulty not in DIFFICULTIES:
            raise PuzzleError(f"puzzle {self.id}: difficulty must be one of {', '.join(DIFFICULTIES)}")
        if self.last_capturer is not None and (isinstance(self.last_capturer, bool) or self.last_capturer not in (0, 1)):
            raise PuzzleError(f"puzzle {self.id}: last_capturer must be 0 (you), 1 (your opponent) or None")

    @property
    def prompt(self) -> str:
        """The question in words."""
        if self.kind in PROMPTS:  # classic Kasino's kinds (krypteach.teaching.puzzles.kasino)
            return PROMPTS[self.kind](self)
        t = symbols_text(self.table)
        hand = symbols_text(self.hand)
        if self.kind == "what-must-you-take":
            return _("You play {card}. The table: {table}. Which cards must it take?").format(
                card=self.hand[0].symbol, table=t)
        if self.kind == "which-card":
            return _("Your hand: {hand}. The table: {table}. Tvångstabbe! Which card must you play?").format(
                hand=hand, table=t)
        if self.kind == "safest-card":
            return _("Your hand: {hand}. The table: {table}. Which card gives you the fewest points this turn "
                     "(judged from the table alone)?").format(hand=hand, table=t)
        if self.kind == "set-up-dukning":
            return _("Your hand: {hand}. The table: {table}. The next player holds {next}. Which move leaves a table "
                     "the next player must take whole, so that you get the dukning?").format(
                hand=hand, table=t, next=symbols_text(self.next_hand))
        last = {0: _("you"), 1: _("your opponent"), None: _("nobody yet")}[self.last_capturer]
        return _("Last deal of a two-player giv, every card known. Your hand: {hand}. Your opponent's hand: {other}. "
                 "The table: {table}. Klädda högen: {kladda}. Last capturer: {last}. You play first. Which move ends "
                 "the giv with the fewest points for you (your points minus your opponent's from here, both playing "
                 "their best)?").format(hand=hand, other=symbols_text(self.next_hand), table=t,
                                        kladda=symbols_text(self.kladda), last=last)

    def answer_text(self, answer: str) -> str:
        """A stored answer (card codes, ``creep``, a move's text form) in cards and words.

        >>> p = Puzzle("x", "set-up-dukning", "easy", parse_cards("4S 10C"), parse_cards("4S 5S 7C"))
        >>> p.answer_text("4S:4S"), Puzzle("y", "which-card", "easy", parse_cards("KS"), []).answer_text("KS")
        ('4♠ takes 4♠', 'K♠')
        """
        if self.kind == "what-must-you-take":
            if answer == "creep":
                return _("creep")
            return _("take {cards}").format(cards="+".join(Card(c).symbol for c in answer.split("+")))
        if self.kind in ("which-card", "safest-card"):
            return Card(answer).symbol
        from ...engine.moves import Move

        try:
            return Move.parse(answer).describe()
        except ValueError:
            return Card(answer).symbol

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``prompt`` is included for readers and ignored when loading)."""
        d: dict[str, Any] = {"id": self.id, "kind": self.kind, "difficulty": self.difficulty,
                             "hand": [str(c) for c in self.hand], "table": [str(c) for c in self.table]}
        if self.next_hand:
            d["next_hand"] = [str(c) for c in self.next_hand]
        if self.kind == "endgame":
            d["kladda"] = [str(c) for c in self.kladda]
        if self.kind in ("endgame", "kasino-take-or-raise", "kasino-endgame"):
            d["last_capturer"] = self.last_capturer
        d["answers"] = list(self.answers)
        default = Rules(players=self.rules.players, game=self.rules.game)
        diff = {k: v for k, v in self.rules.to_dict().items() if getattr(default, k) != v or k in ("players", "game")}
        if diff != {"players": 2}:  # a Kasino puzzle's rules always name the game
            d["rules"] = diff
        d["prompt"] = self.prompt
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, where: str | None = None,
                  old_names: dict[Any, int | None] | None = None) -> Puzzle:
        """The inverse of :meth:`to_dict`. Every field is checked: a :class:`PuzzleError`
        names the puzzle (``where``, default ``puzzle <id>``), the field and what it allows.
        ``old_names`` reads an older file's names for the last capturer (see ``FORMAT``).

        >>> p = Puzzle("x", "which-card", "easy", parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"), answers=("10S",))
        >>> Puzzle.from_dict(p.to_dict()) == p
        True
        >>> Puzzle.from_dict({**p.to_dict(), "table": None})
        Traceback (most recent call last):
        ...
        krypteach.teaching.puzzles.base.PuzzleError: puzzle x: table must be a list of card codes ..., got None
        """
        if where is None:
            pid = d.get("id") if isinstance(d, dict) else None
            where = f"puzzle {pid}" if isinstance(pid, str) and pid.strip() else "a puzzle"
        if not isinstance(d, dict):
            raise PuzzleError(f"{where}: a puzzle must be a JSON object {{\"id\": ..., \"kind\": ..., ...}}, "
                              f"got {type(d).__name__}")
        for key in ("id", "kind", "difficulty", "hand"):
            if key not in d:
                raise PuzzleError(f"{where}: missing field {key!r}")
        if not isinstance(d["id"], str) or not d["id"].strip():
            raise PuzzleError(f"{where}: id must be text such as \"which-card-easy-01\", got {short_repr(d['id'])}")
        for key, allowed in (("kind", ALL_KINDS), ("difficulty", DIFFICULTIES)):
            if d[key] not in allowed:
                raise PuzzleError(f"{where}: {key}={short_repr(d[key])} is not allowed: choose one of "
                                  f"{', '.join(allowed)}")
        cards: dict[str, tuple[Card, ...]] = {}
        table: tuple[Any, ...] = ()
        for key in ("hand", "table", "next_hand", "kladda"):
            value = d.get(key, [])
            if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                raise PuzzleError(f"{where}: {key} must be a list of card codes such as [\"9H\", \"2C\"], "
                                  f"got {short_repr(value)}")
            try:
                if key == "table":  # classic Kasino's tables hold builds too: "[9:4S+5H@0]"
                    table = tuple(Build.parse(c) if c.strip().startswith("[") else Card.parse(c) for c in value)
                else:
                    cards[key] = tuple(Card.parse(c) for c in value)
            except (CardParseError, BuildParseError) as e:
                raise PuzzleError(f"{where}: {key}: {e}") from None
        last = d.get("last_capturer")
        if old_names is not None and last in old_names:
            last = old_names[last]
        elif last is not None and (isinstance(last, bool) or last not in (0, 1)):
            raise PuzzleError(f"{where}: last_capturer={short_repr(d['last_capturer'])} is not allowed: "
                              "choose 0 (you), 1 (your opponent) or null")
        answers = d.get("answers", [])
        if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
            raise PuzzleError(f"{where}: answers must be a list of texts such as [\"9H\"] or [\"9H:2C+7D\"], "
                              f"got {short_repr(answers)}")
        try:
            rules = Rules.from_dict(d.get("rules", {}))
        except RulesError as e:
            raise PuzzleError(f"{where}: rules: {e}") from None
        try:
            return cls(id=d["id"], kind=d["kind"], difficulty=d["difficulty"], hand=cards["hand"],
                       table=table, next_hand=cards["next_hand"], kladda=cards["kladda"],
                       last_capturer=last, answers=tuple(answers), rules=rules)
        except PuzzleError:
            raise
        except ValueError as e:
            raise PuzzleError(f"{where}: {e}") from None


# --- files --------------------------------------------------------------------------------

#: the shipped puzzle files by game
SHIPPED_FILES = {"krypkasino": "puzzles.json", "kasino": "kasino_puzzles.json"}


def load_puzzles(path: str | Path | None = None, *, game: str = "krypkasino") -> list[Puzzle]:
    """The shipped puzzles of ``game`` (``"krypkasino"``: ``krypteach/data/puzzles.json``;
    ``"kasino"``: the build puzzles of classic Kasino and avig kasino,
    ``krypteach/data/kasino_puzzles.json``; ``"all"``: both), or those of ``path``.

    A file that is not UTF-8 JSON of the puzzle format, or a puzzle with a missing
    or wrong field, is a :class:`PuzzleError` naming the file, the puzzle and the field.
    A shipped file is read once per process (a puzzle is immutable): the trainers and the cells
    of a lesson page (each page has its own kernel), or the teacher's board in the server, share
    the same puzzles; each caller gets a list of its own.

    >>> {p.rules.game for p in load_puzzles(game="kasino")}
    {'kasino'}
    >>> load_puzzles(game="chess")
    Traceback (most recent call last):
    ...
    krypteach.teaching.puzzles.base.PuzzleError: game must be one of krypkasino, kasino, all, got 'chess'
    """
    if path is None and game == "all":
        return [p for g in SHIPPED_FILES for p in _shipped_file(g)]
    if path is None:
        if game not in SHIPPED_FILES:
            raise PuzzleError(f"game must be one of {', '.join([*SHIPPED_FILES, 'all'])}, got {game!r}")
        return list(_shipped_file(game))
    return _read_puzzles(Path(path).read_bytes(), str(path))


@functools.cache
def _shipped_file(game: str) -> tuple[Puzzle, ...]:
    where = "the shipped puzzles" if game == "krypkasino" else "the shipped Kasino puzzles"
    data = resources.files("krypteach").joinpath("data", SHIPPED_FILES[game]).read_bytes()
    return tuple(_read_puzzles(data, where))


@functools.cache
def shipped_puzzles() -> Mapping[str, Puzzle]:
    """Every shipped puzzle by id (Krypkasino's, then classic Kasino's), read once.

    >>> shipped_puzzles()["which-card-easy-03"].kind
    'which-card'
    """
    return MappingProxyType({p.id: p for p in load_puzzles(game="all")})


def _read_puzzles(data: bytes, where: str) -> list[Puzzle]:
    doc = parse_json(data, where, PuzzleError)
    if not isinstance(doc, dict) or not (doc.get("format") == FORMAT or doc.get("format") in _OLD_FORMATS) \
            or not isinstance(doc.get("puzzles"), list):
        raise PuzzleError(f"{where}: not a puzzle file: expected {{\"format\": \"{FORMAT}\", \"puzzles\": [...]}}")
    old_names = _OLD_FORMATS.get(doc["format"])
    puzzles = []
    for i, d in enumerate(doc["puzzles"], start=1):
        pid = d.get("id") if isinstance(d, dict) else None
        label = f"puzzle {pid}" if isinstance(pid, str) and pid.strip() else f"puzzle number {i}"
        puzzles.append(Puzzle.from_dict(d, where=f"{where}: {label}", old_names=old_names))
    return puzzles


def save_puzzles(puzzles: Sequence[Puzzle], path: str | Path, **meta: Any) -> None:
    """Write puzzles as a JSON file (``meta`` goes into the header, e.g. the seed)."""
    data = {"format": FORMAT, **meta, "puzzles": [p.to_dict() for p in puzzles]}
    Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
