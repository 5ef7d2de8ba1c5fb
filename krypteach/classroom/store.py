"""Learners' progress, kept: SQLite by default, PostgreSQL on a JupyterHub.

One :class:`ProgressStore` holds, for every class, its learners (a nickname with the
class code) and every attempt they made: an exercise, a self-check question, a puzzle
or a giv played, with whether it was right, the rule behind a mistake (the engine's
explanation key) and the time. The lessons also say what they hold (``declare_items``),
so that a learner's standing reads "3 of 5 exercises".

- **SQLite** (the standard library) by default, in the user data folder
  (``$XDG_DATA_HOME/krypteach/progress.sqlite3``), in WAL mode with a generous busy
  timeout: thirty kernels write at once and nothing is lost. A file that is not a
  database (or a damaged one) is moved aside, never overwritten, and a new one started;
  :attr:`ProgressStore.notice` says so.
- **PostgreSQL** (``postgresql://…``, with psycopg 3) for a class on JupyterHub: one
  database for all single-user servers. The same SQL runs on both.
- The schema is versioned (:data:`SCHEMA_VERSION`, table ``krypteach_schema``);
  :data:`MIGRATIONS` brings an older database up to date when it is opened.

>>> store = ProgressStore(":memory:")
>>> ann = store.join("K7RPX", "Ann")
>>> store.declare_items("03_take_all", [("take-all:9H", "exercise"), ("selfcheck:1", "selfcheck")])
>>> store.record(ann, "03_take_all", "take-all:9H", "exercise", correct=False, rule="take-all")
>>> store.record(ann, "03_take_all", "take-all:9H", "exercise", correct=True)
>>> store.standing(ann).lessons["03_take_all"].done, store.standing(ann).lessons["03_take_all"].total
(1, 2)
>>> store.join("K7RPX", "  Ann ") == ann    # the same learner again
True
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import logging
import math
import os
import re
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _, ngettext
from ..i18n.numbers import number

try:
    import sqlite3
except ImportError:  # Pyodide without its sqlite3 module (an offline static site): no SQLite store here
    sqlite3 = None  # type: ignore[assignment]

__all__ = ["HOMEWORK_MOST", "HOWS", "Homework", "HomeworkError", "KINDS", "MAX_GAME_RECORD", "MIGRATIONS", "PROGRESS_FORMAT", "SCHEMA_VERSION", "ClassOverview", "LessonStanding",
           "PIN_LENGTHS", "NicknameError", "PinError", "ProgressStore", "Standing", "StoreError", "TournamentRecord", "check_game_record", "default_store_path",
           "nickname_skeleton", "normalize_nickname", "puzzles_solved",
           "read_progress_file", "standing_of"]

log = logging.getLogger("krypteach.store")

#: what an attempt is of
#: a variant-lab run ("lab") is neither right nor wrong: the teacher sees it was made, and what it found
#: a puzzle's attempt keeps the rules it trains (``themes``) and, as its score, the trainer's first
#: guess at the puzzle's rating (issue 23: the ratings are replayed from these rows)
#: the coach's review of a giv ("coach", issue 22) is kept as rows of its own: item "quality" with
#: the move quality in per cent as its score, and one row per flagged move (item "move-12": its theme
#: as the rule, its verdict as how, the loss in tenths of a point as the score, the move played and
#: the better one as answer and expected); they are not answers, and a lesson's counts leave them out
KINDS = ("exercise", "selfcheck", "puzzle", "giv", "lab", "coach")
#: how an answer was reached: at the first try, at the second (after a first wrong one and its
#: hint), with a hint asked for, or by showing the answer (which counts as not solved)
HOWS = ("first-try", "second-try", "hint", "shown", "inaccuracy", "mistake", "blunder")
#: the kinds counted in "3 of 5 exercises"
_SOLVABLE = ("exercise", "selfcheck", "puzzle")
NICKNAME_MAX = 30


class StoreError(Exception):
    """The progress store cannot be used (a bad address, a database that will not open)."""


class NicknameError(ValueError):
    """A nickname that cannot be used; the message says what can."""


class PinError(ValueError):
    """A PIN that cannot be one (not 4 to 8 digits), or not the learner's; the message says which."""


#: a learner's PIN: digits only, so that a 12-year-old on a phone types it on the number pad
PIN_LENGTHS = (4, 8)
#: PBKDF2-SHA256 rounds for a PIN's hash (about 10 ms here). A PIN has only 10,000 to 10^8 values,
#: so no hash keeps it from someone who has the database file (mode 600); what protects it is the
#: server's limit on wrong PINs (``ClassGate.try_pin``) and that only the hash is stored.
PIN_ROUNDS = 20_000


def check_pin(text: str) -> str:
    """The PIN as typed, checked: 4 to 8 digits (spaces around it dropped).

    >>> check_pin(" 4711 ")
    '4711'
    >>> check_pin("47a1")
    Traceback (most recent call last):
    ...
    krypteach.classroom.store.PinError: a PIN is 4 to 8 digits (0–9)
    """
    pin = (text or "").strip()
    low, high = PIN_LENGTHS
    if not (pin.isascii() and pin.isdigit() and low <= len(pin) <= high):
        raise PinError(_("a PIN is {low} to {high} digits (0–9)").format(low=low, high=high))
    return pin


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """``pbkdf2$<rounds>$<salt>$<hash>`` of a checked PIN (a new random salt unless given)."""
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, PIN_ROUNDS)
    return f"pbkdf2${PIN_ROUNDS}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    """Is ``pin`` the one whose hash is ``stored``? (Constant time; a damaged hash never matches.)

    >>> stored = hash_pin("4711")
    >>> pin_matches("4711", stored), pin_matches("4712", stored), pin_matches("4711", "garbage")
    (True, False, False)
    """
    try:
        kind, rounds, salt, digest = stored.split("$")
        if kind != "pbkdf2":
            return False
        got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(rounds))
    except (ValueError, AttributeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def normalize_nickname(text: str) -> str:
    """The nickname as stored: NFKC, spaces trimmed and single; 1 to 30 characters, no control characters.

    Quotes, SQL metacharacters and emoji are names like any other.

    >>> normalize_nickname("  Ann  Li ")
    'Ann Li'
    >>> normalize_nickname("Bo'); DROP TABLE learners;--")
    "Bo'); DROP TABLE learners;--"
    >>> normalize_nickname("🦊 Fox")
    '🦊 Fox'
    >>> normalize_nickname("   ")
    Traceback (most recent call last):
    ...
    krypteach.classroom.store.NicknameError: type a nickname: 1 to 30 letters, digits or signs
    """
    if not isinstance(text, str):
        raise NicknameError(_("type a nickname: 1 to 30 letters, digits or signs"))
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not name:
        raise NicknameError(_("type a nickname: 1 to 30 letters, digits or signs"))
    if len(name) > NICKNAME_MAX:
        raise NicknameError(_("a nickname has at most {most} characters (this one has {n})").format(
            most=NICKNAME_MAX, n=len(name)))
    for ch in name:
        # control and format characters (but the joiner and variation selectors of emoji)
        if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or (
                unicodedata.category(ch) == "Cf" and ch not in "\u200d\ufe0f\ufe0e"):
            raise NicknameError(_("a nickname cannot hold the invisible character {code}").format(
                code=f"U+{ord(ch):04X}"))
    if not any(ch not in _BLANKS and unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise NicknameError(_("a nickname needs a letter, digit or sign that can be seen"))
    return name


#: characters that are letters or signs to Unicode but draw nothing (the Hangul fillers, a blank Braille cell, …)
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f\u2062\u2063\u2064")
#: common look-alikes of Latin letters in Cyrillic and Greek (a small part of Unicode's confusables)
_LOOK_ALIKES = str.maketrans(
    "АВЕКМНОРСТХЅІЈаеорсхуѕіјԁһӏ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοικνρυχ",
    "ABEKMHOPCTXSIJaeopcxysijdhl" "ABEZHIKMNOPTYXoikvpux")


def nickname_skeleton(name: str) -> str:
    """What a nickname looks like: Cyrillic and Greek look-alikes as the Latin letters they
    copy, and the joiners, variation selectors and fillers that draw nothing left out. Two names with one
    skeleton cannot be told apart on a screen.

    >>> nickname_skeleton("\u0410nn") == nickname_skeleton("Ann")    # a Cyrillic А
    True
    >>> nickname_skeleton("Ann") == nickname_skeleton("Anna")
    False
    """
    text = unicodedata.normalize("NFKD", name).translate(_LOOK_ALIKES)
    return "".join(ch for ch in text if ch not in _BLANKS and ch not in "\ufe0e\ufe0f"
                   and unicodedata.category(ch) != "Cf")


def default_store_path() -> Path:
    """``$KRYPTEACH_PROGRESS`` if set, else ``$XDG_DATA_HOME/krypteach/progress.sqlite3``."""
    if os.environ.get("KRYPTEACH_PROGRESS"):
        return Path(os.environ["KRYPTEACH_PROGRESS"])
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return data / "krypteach" / "progress.sqlite3"


# --- the schema, versioned ---------------------------------------------------------------
#: ``version -> statements``; ``{id}`` is the backend's auto-increment key, ``{real}`` its float
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE learners (
               id {id},
               class_code TEXT NOT NULL,
               nickname TEXT NOT NULL,
               created {real} NOT NULL,
               UNIQUE (class_code, nickname))""",
        """CREATE TABLE items (
               lesson TEXT NOT NULL,
               item TEXT NOT NULL,
               kind TEXT NOT NULL,
               PRIMARY KEY (lesson, item))""",
        """CREATE TABLE attempts (
               id {id},
               learner_id INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
               lesson TEXT NOT NULL,
               item TEXT NOT NULL,
               kind TEXT NOT NULL,
               correct INTEGER,
               rule TEXT,
               topic TEXT,
               score INTEGER,
               at {real} NOT NULL)""",
        "CREATE INDEX attempts_by_learner ON attempts (learner_id, lesson)",
    ),
    # a learner's own PIN (issue 20, finding 5): its hash; NULL until the first sign-in with one
    # (learners of an older database, of an import, of a hub) and after the teacher resets it
    2: ("ALTER TABLE learners ADD COLUMN pin TEXT",),
    # when a lesson page last declared the item (issue 20, finding 10). An older krypteach let an
    # imported progress file declare items ("0 of 505" for every learner of every class, and a
    # reset did not undo it); the rows of a database from before are NULL and count in no total
    # until a lesson page declares them again, which the first page of the lesson that opens does
    3: ("ALTER TABLE items ADD COLUMN declared {real}",),
    # what the learner answered, the right answer, and how it was reached (issue 21): the
    # teacher's page shows each item with both; NULL in the rows of an older database
    4: ("ALTER TABLE attempts ADD COLUMN how TEXT", "ALTER TABLE attempts ADD COLUMN answer TEXT",
        "ALTER TABLE attempts ADD COLUMN expected TEXT"),
    # a learner's parti in progress, one per game table of a lesson page (issue 21: a reload lost
    # the giv): its givar as game records (docs/records.md), written after every move
    5: ("""CREATE TABLE games (
               learner_id INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
               lesson TEXT NOT NULL,
               place TEXT NOT NULL,
               record TEXT NOT NULL,
               at {real} NOT NULL,
               PRIMARY KEY (learner_id, lesson, place))""",),
    # what an item is called (issue 21: "Most often failed" named `take-all-exercise-2`): an
    # exercise's title as written in the source (shown in the teacher's language), a question's text
    6: ("ALTER TABLE items ADD COLUMN title TEXT",),
    # when a learner was last active on a page, and on which lesson (issue 21: "Last seen" counted
    # answers only): a page opened, an answer, a move in a game
    7: ("ALTER TABLE learners ADD COLUMN seen_at {real}", "ALTER TABLE learners ADD COLUMN seen_lesson TEXT"),
    # the rules a puzzle trains (issue 23: ratings per theme), as theme keys separated by spaces; a
    # learner's practice (their ratings, their weak themes, what comes back when) is replayed from
    # their puzzle attempts, so nothing else is kept and nothing else could be faked
    # and homework: a named set of puzzles the teacher sets the class, due by a date: chosen ones
    # (their ids, separated by spaces) or ``count`` puzzles of one theme at each learner's level
    8: ("ALTER TABLE attempts ADD COLUMN themes TEXT",
        """CREATE TABLE homework (
               id {id},
               class_code TEXT NOT NULL,
               name TEXT NOT NULL,
               theme TEXT,
               puzzles TEXT,
               count INTEGER NOT NULL,
               due {real} NOT NULL,
               created {real} NOT NULL)""",
        "CREATE INDEX homework_by_class ON homework (class_code)"),
    # the class tournament (issue 24): its rules (JSON), deals, bot and seed make every giv of it
    # again; each learner's finished giv is kept as it ends (its score and record), and the coach's
    # count of their decisions as good as the best once the review is done (NULL until then), so a
    # restart of the server loses no finished giv and the standings are read back from here
    9: ("""CREATE TABLE tournaments (
               id {id},
               class_code TEXT NOT NULL,
               rules TEXT NOT NULL,
               deals INTEGER NOT NULL,
               bot TEXT NOT NULL,
               seed BIGINT NOT NULL,
               started {real} NOT NULL,
               ended {real})""",
        """CREATE TABLE tournament_givar (
               tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
               learner_id INTEGER NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
               deal INTEGER NOT NULL,
               seat INTEGER NOT NULL,
               score INTEGER NOT NULL,
               good INTEGER,
               decisions INTEGER,
               record TEXT NOT NULL,
               at {real} NOT NULL,
               PRIMARY KEY (tournament_id, learner_id, deal, seat))"""),
}
#: the longest game record kept for a game table (a Krypkasino parti is about 25 kB)
MAX_GAME_RECORD = 200_000
SCHEMA_VERSION = max(MIGRATIONS)
_DDL = {
    "sqlite": {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "real": "REAL"},
    "postgresql": {"id": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "real": "DOUBLE PRECISION"},
}


@dataclass(frozen=True)
class TournamentRecord:
    """A class tournament as kept (:meth:`ProgressStore.start_tournament`): enough to make every giv
    of it again (:class:`~krypteach.play.class_tournament.ClassTournament`); ``ended`` None while
    under way."""

    id: int
    rules: str
    deals: int
    bot: str
    seed: int
    started: float
    ended: float | None


@dataclass(frozen=True)
class Homework:
    """Homework the teacher set a class (:meth:`ProgressStore.set_homework`): ``count`` puzzles of
    ``theme`` at each learner's level, or the chosen ``puzzles``; due by ``due`` (a time)."""

    id: int
    name: str
    theme: str | None
    puzzles: tuple[str, ...]
    count: int
    due: float
    created: float


#: at most this many puzzles in one homework, and this many homework a class at once
HOMEWORK_MOST = 50
HOMEWORK_OPEN = 20
_HOMEWORK_NAME = 60


class HomeworkError(ValueError):
    """Homework that cannot be set; the message says what can."""


@dataclass
class LessonStanding:
    """Where a learner stands in one lesson."""

    done: int = 0          # exercises, self-check questions and puzzles solved
    total: int = 0         # those the lesson holds
    tried: int = 0         # attempts made (answers, and lab runs; not a giv's moves)
    wrong: int = 0
    givar: int = 0         # givar played to their end in the lesson
    #: the lesson's puzzles solved (each once): the trainer counts the same ones (issue 21: the grid
    #: showed "0/4" for a learner with 3 puzzles solved)
    puzzles: int = 0
    #: a parti of the lesson is kept, not yet played to an end (a build made in a giv under way is work)
    playing: bool = False

    def text(self) -> str:
        """Where the learner stands, in words: ``2 of 5``, ``3 solved``, ``not started``, with the
        puzzles solved: ``0 of 3 · 2 puzzles solved``."""
        if self.total:
            said = _("{done} of {total}").format(done=self.done, total=self.total)
        elif self.done:
            said = _("{done} solved").format(done=self.done)
        else:
            said = "" if self.puzzles else _("not started")
        if self.puzzles:
            solved = puzzles_solved(self.puzzles)
            said = f"{said} · {solved}" if said else solved
        return said


def puzzles_solved(n: int) -> str:
    """``3 puzzles solved``: what a lesson's cell and a learner's start page say of its puzzles."""
    return ngettext("{n} puzzle solved", "{n} puzzles solved", n).format(n=number(n))


@dataclass
class Standing:
    """A learner's progress: per lesson, puzzles solved per kind, givar played and their average score."""

    nickname: str
    lessons: dict[str, LessonStanding] = field(default_factory=dict)
    puzzles: dict[str, int] = field(default_factory=dict)
    givar: int = 0
    mean_score: float | None = None
    #: the puzzles solved (their ids): the trainer counts the same ones
    puzzle_ids: set[str] = field(default_factory=set)
    #: game -> (givar played, their average score), each game apart: a Kasino score (the highest
    #: wins) and a Krypkasino one (the lowest wins) are never averaged together ("": an older giv)
    games: dict[str, tuple[int, float]] = field(default_factory=dict)
    #: the lesson of the learner's last answer (where to go on), if any
    last_lesson: str | None = None
    #: the move quality of each giv the coach reviewed (0..1), oldest first
    qualities: list[float] = field(default_factory=list)

    def recent_quality(self, last: int = 5) -> float | None:
        """The mean move quality of the last ``last`` givar reviewed, or None."""
        recent = self.qualities[-last:]
        return sum(recent) / len(recent) if recent else None


@dataclass
class ClassOverview:
    """What the teacher's page shows."""

    learners: list[tuple[int, str]]
    lessons: list[str]
    #: (learner id, lesson) -> standing
    grid: dict[tuple[int, str], LessonStanding]
    #: (lesson, item, kind, wrong attempts, learners who got it wrong), most failed first
    most_failed: list[tuple[str, str, str, int, int]]
    #: the rules behind the mistakes: rule key -> wrong attempts
    rules: Counter[str]
    #: learner id -> givar played
    givar: dict[int, int]
    #: learner id -> time of the last attempt
    last_seen: dict[int, float]
    #: lessons not shown (past the first :data:`_SHOWN_LESSONS`: the lessons' own, then the most tried)
    lessons_left_out: int = 0
    #: learner id -> the lesson of their last attempt (where they are now, if seen lately)
    last_lesson: dict[int, str] = field(default_factory=dict)
    #: the coach: learner id -> (givar reviewed, their mean move quality 0..1)
    quality: dict[int, tuple[int, float]] = field(default_factory=dict)
    #: the coach: (theme, points lost, costly moves, learners), the most points lost first
    themes: list[tuple[str, float, int, int]] = field(default_factory=list)


def standing_of(nickname: str, totals: dict[str, int], rows: Iterable[Sequence[Any]]) -> Standing:
    """A learner's standing from their attempts ``(lesson, item, kind, correct, topic, score)``,
    oldest first, and what each lesson holds (``lesson -> exercises and questions``): solved once
    each, puzzles per kind, givar and their average score per game, the lesson to go on with."""
    st = Standing(nickname)
    for lesson, total in totals.items():
        st.lessons[lesson] = LessonStanding(total=total)
    solved: set[tuple[str, str]] = set()
    solved_puzzles: set[tuple[str, str]] = set()
    puzzles: dict[str, set[str]] = {}
    scores: list[int] = []
    by_game: dict[str, list[int]] = {}
    for lesson, item, kind, correct, topic, score in rows:
        if kind == "coach":  # the review of a giv: not an answer
            if item == "quality" and score is not None:
                st.qualities.append(int(score) / 100)
            continue
        ls = st.lessons.setdefault(lesson, LessonStanding())
        st.last_lesson = lesson
        if kind == "giv":
            if score is not None:
                scores.append(int(score))
                by_game.setdefault(topic or "", []).append(int(score))
            continue
        ls.tried += 1
        if correct:
            if kind in ("exercise", "selfcheck") and (lesson, item) not in solved:
                solved.add((lesson, item))
                ls.done += 1
            if kind == "puzzle":
                if (lesson, item) not in solved_puzzles:
                    solved_puzzles.add((lesson, item))
                    ls.puzzles += 1
                puzzles.setdefault(topic or "puzzle", set()).add(item)
        elif correct is not None:
            ls.wrong += 1
    st.puzzles = {k: len(v) for k, v in sorted(puzzles.items())}
    st.puzzle_ids = set().union(*puzzles.values())
    st.givar = len(scores)
    st.mean_score = sum(scores) / len(scores) if scores else None
    st.games = {game: (len(s), sum(s) / len(s)) for game, s in sorted(by_game.items())}
    return st


#: the progress file a learner downloads from the static site (and the teacher imports)
PROGRESS_FORMAT = "krypteach-progress/1"
_MAX_FILE = 2_000_000
_MAX_ATTEMPTS = 20_000
#: distinct lessons in one file, and for one learner after an import (the course has a dozen)
_MAX_LESSONS = 50
#: items declared for one lesson in a file (a lesson holds a few dozen)
_MAX_ITEMS = 200
#: an imported time: from the epoch to a day from now (``time.localtime`` converts every one)
_EARLIEST = 0.0
_AHEAD = 86_400.0
#: an imported giv's score, either way (a giv scores a few dozen points)
_MAX_SCORE = 10_000
#: lessons the teacher's overview shows at most
_SHOWN_LESSONS = 60


def _too_many_lessons(n: int) -> ValueError:
    return ValueError(_("the progress file holds {n} lessons; at most {most} are read").format(
        n=number(n), most=number(_MAX_LESSONS)))


#: a puzzle's themes as kept: theme keys (lower-case letters and dashes) separated by single spaces
_THEMES_TEXT = re.compile(r"[a-z][a-z-]{0,39}( [a-z][a-z-]{0,39}){0,7}")


def themes_text(themes: Sequence[str] | None) -> str | None:
    """A puzzle's themes as the store keeps them (``"dukning tvangstabbe"``), or None.

    >>> themes_text(("dukning", "tvangstabbe")), themes_text(()), themes_text(None)
    ('dukning tvangstabbe', None, None)
    >>> themes_text(["Dukning!"])
    Traceback (most recent call last):
    ...
    ValueError: a theme is a key of lower-case letters and dashes, such as tvangstabbe: got 'Dukning!'
    """
    if not themes:
        return None
    text = " ".join(themes)
    if _THEMES_TEXT.fullmatch(text) is None:
        bad = next((t for t in themes if _THEMES_TEXT.fullmatch(t) is None), text)
        raise ValueError(f"a theme is a key of lower-case letters and dashes, such as tvangstabbe: got {bad!r}")
    return text


def read_progress_file(data: bytes | str) -> tuple[str, dict[str, list[tuple[str, str]]], list[tuple[Any, ...]]]:
    """``(nickname, lesson -> [(item, kind)], attempts)`` of a progress file; ``ValueError`` naming
    what is wrong with it. An attempt is ``(lesson, item, kind, correct, rule, topic, score, at, how,
    answer, expected, themes)``; a file of an older krypteach has the first eight or eleven (the
    rest are None).

    Bounded: at most 2,000,000 bytes, 20,000 attempts, 50 distinct lessons and 200 items a
    lesson; a time from 1970 to a day from now, a score of at most 10,000 either way.

    >>> import json
    >>> read_progress_file(json.dumps({"format": PROGRESS_FORMAT, "nickname": "Ann", "items": {"01_cards": {"q-1": "selfcheck"}},
    ...     "attempts": [["01_cards", "q-1", "selfcheck", True, None, None, None, 1764590000.0]]}))
    ('Ann', {'01_cards': [('q-1', 'selfcheck')]}, [('01_cards', 'q-1', 'selfcheck', True, None, None, None, 1764590000.0, None, None, None, None)])
    >>> read_progress_file("[1, 2]")
    Traceback (most recent call last):
    ...
    ValueError: not a krypteach progress file (it should be a JSON object with "format": "krypteach-progress/1")
    """
    import json

    if isinstance(data, bytes):
        if len(data) > _MAX_FILE:
            raise ValueError(_("the progress file is too big ({size} bytes; at most {most})").format(
                size=len(data), most=_MAX_FILE))
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(_("the progress file is not UTF-8 text")) from None
    elif len(data) > _MAX_FILE:
        raise ValueError(_("the progress file is too big ({size} bytes; at most {most})").format(
            size=len(data.encode("utf-8", "surrogatepass")), most=_MAX_FILE))
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        raise ValueError(_("the progress file is not JSON")) from None
    if not isinstance(obj, dict) or obj.get("format") != PROGRESS_FORMAT:
        raise ValueError(_('not a krypteach progress file (it should be a JSON object with "format": "{format}")')
                         .format(format=PROGRESS_FORMAT))
    raw_name = obj.get("nickname")
    nickname = normalize_nickname(raw_name if isinstance(raw_name, str) else "")
    items: dict[str, list[tuple[str, str]]] = {}
    raw_items = obj.get("items", {})
    if not isinstance(raw_items, dict):
        raise ValueError(_("the progress file's items must be an object: {shape}").format(
            shape="lesson -> {item: kind}"))
    if len(raw_items) > _MAX_LESSONS:
        raise _too_many_lessons(len(raw_items))
    for lesson, pairs in raw_items.items():
        if not isinstance(pairs, dict) or not all(isinstance(k, str) and v in KINDS for k, v in pairs.items()):
            raise ValueError(_("the progress file's items of {lesson} must map items to one of {kinds}").format(
                lesson=repr(lesson), kinds=", ".join(KINDS)))
        if len(pairs) > _MAX_ITEMS:
            raise ValueError(_("the progress file declares {n} items for {lesson}; at most {most} a lesson").format(
                n=number(len(pairs)), lesson=repr(lesson[:80]), most=number(_MAX_ITEMS)))
        items[str(lesson)[:80]] = [(k[:200], v) for k, v in pairs.items()]
    raw = obj.get("attempts", [])
    if not isinstance(raw, list) or len(raw) > _MAX_ATTEMPTS:
        raise ValueError(_("the progress file's attempts must be a list of at most {most}").format(most=_MAX_ATTEMPTS))
    latest = time.time() + _AHEAD
    attempts = []
    lessons: set[str] = set()
    for n, a in enumerate(raw, 1):
        ok = (isinstance(a, list) and len(a) in (8, 11, 12) and isinstance(a[0], str) and isinstance(a[1], str)
              and a[2] in KINDS and (a[3] is None or isinstance(a[3], bool))
              and all(v is None or isinstance(v, str) for v in (a[4], a[5]))
              and (a[6] is None or (isinstance(a[6], int) and not isinstance(a[6], bool)
                                    and -_MAX_SCORE <= a[6] <= _MAX_SCORE))
              and isinstance(a[7], (int, float)) and not isinstance(a[7], bool) and _finite(a[7])
              and _EARLIEST <= a[7] <= latest
              and (len(a) == 8 or ((a[8] is None or a[8] in HOWS)
                                   and all(v is None or isinstance(v, str) for v in (a[9], a[10]))))
              and (len(a) < 12 or a[11] is None or (isinstance(a[11], str) and _THEMES_TEXT.fullmatch(a[11]) is not None)))
        if not ok:
            raise ValueError(_("attempt {n} of the progress file is not [lesson, item, kind, correct, rule, "
                               "puzzle kind, score, time]").format(n=n))
        lessons.add(a[0][:80])
        if len(lessons) > _MAX_LESSONS:
            raise _too_many_lessons(len({b[0][:80] for b in raw if isinstance(b, list) and b and isinstance(b[0], str)}))
        how, answer, expected = a[8:11] if len(a) >= 11 else (None, None, None)
        themes = a[11] if len(a) == 12 else None
        attempts.append((a[0][:80], a[1][:200], a[2], a[3], a[4], a[5], a[6], float(a[7]), how,
                         None if answer is None else answer[:200], None if expected is None else expected[:200],
                         themes))
    return nickname, items, attempts


def check_game_record(record: str) -> str:
    """``record`` if it can be kept as a parti in progress, else ``ValueError`` saying why."""
    if not isinstance(record, str):
        raise ValueError(_("a parti in progress is kept as text (game records), not {kind}").format(
            kind=type(record).__name__))
    if len(record) > MAX_GAME_RECORD:
        raise ValueError(_("the parti is too long to keep ({size} characters; at most {most})").format(
            size=number(len(record)), most=number(MAX_GAME_RECORD)))
    return record


def _finite(x: float) -> bool:
    """A number SQLite and ``float`` can hold: not NaN (stored as NULL), not infinite, not an int past a float."""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


class ProgressStore:
    """Progress of every class: ``ProgressStore()`` (the default SQLite file), a path,
    ``":memory:"`` or ``"postgresql://user@host/db"``."""

    def __init__(self, where: str | os.PathLike[str] | None = None, *, timeout: float = 30.0) -> None:
        self._lock = threading.RLock()
        self._notice: dict[str, str] = {}  # what had to be repaired (said by .notice)
        self.timeout = timeout
        where = default_store_path() if where is None else where
        text = os.fspath(where)
        if text.startswith(("postgresql://", "postgres://")):
            self.backend = "postgresql"
            self.where = text
            self._conn = self._connect_postgres(text)
        else:
            self.backend = "sqlite"
            self.where = text
            self._conn = self._connect_sqlite(text)
        self._migrate()

    @property
    def notice(self) -> str:
        """A sentence for the teacher when something had to be repaired (else ""), in the
        current language: the teacher's page shows it in its reader's."""
        if not self._notice:
            return ""
        return _("The progress file {path} was damaged; it was moved aside to {aside} (nothing was deleted) "
                 "and a new one started.").format(**self._notice)

    # --- connecting ------------------------------------------------------------------------
    def _connect_sqlite(self, text: str) -> Any:
        if sqlite3 is None:
            raise StoreError(_("a SQLite progress store needs Python's sqlite3 module, which this Python lacks "
                               "(the offline static site's browser Python: docs/deploy.md)"))
        if text != ":memory:":
            path = Path(text)
            if path.is_dir():  # a teacher's folder is never moved aside: only a damaged database is
                raise StoreError(_("the progress file {path} is a folder: give the path of a file "
                                   "(for example {example})").format(path=path, example=path / "progress.sqlite3"))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(_("cannot make the folder for the progress file {path}: {why}").format(
                    path=path, why=e.strerror)) from None
            _owner_only(path)
            conn = self._open_sqlite(path)
            if conn is None:
                if not path.exists():  # nothing to move aside: the folder takes no file (read-only, full)
                    raise StoreError(_("cannot open a new progress file at {path}").format(path=path))
                try:
                    aside = self._move_aside(path)
                except OSError:  # a folder that lets nothing be renamed: one line, not a traceback
                    raise StoreError(_("cannot open a new progress file at {path}").format(path=path)) from None
                self._notice = {"path": str(path), "aside": aside.name}
                log.warning("krypteach: the progress file %s was damaged; it was moved aside to %s "
                            "(nothing was deleted) and a new one started.", path, aside.name)
                _owner_only(path)
                conn = self._open_sqlite(path)
                if conn is None:  # pragma: no cover - a fresh file that will not open
                    raise StoreError(_("cannot open a new progress file at {path}").format(path=path))
            return conn
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _open_sqlite(self, path: Path) -> sqlite3.Connection | None:
        """An open connection, or None when the file is not a sound SQLite database."""
        try:
            conn = sqlite3.connect(str(path), timeout=self.timeout, check_same_thread=False, isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout={int(self.timeout * 1000)}")
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as e:
            if isinstance(e, sqlite3.OperationalError) and "locked" in str(e):
                raise StoreError(_("the progress file {path} is locked: {why}").format(path=path, why=e)) from None
            log.warning("krypteach: the progress file %s does not open: %s", path, e)
            return None
        if ok != "ok":
            conn.close()
            return None
        return conn

    @staticmethod
    def _move_aside(path: Path) -> Path:
        if path.is_dir():  # pragma: no cover - refused before (_connect_sqlite)
            raise StoreError(_("the progress file {path} is a folder: give the path of a file "
                               "(for example {example})").format(path=path, example=path / "progress.sqlite3"))
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.damaged-{stamp}")
        n = 1
        while aside.exists():
            aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
            n += 1
        path.rename(aside)
        for suffix in ("-wal", "-shm"):
            extra = path.with_name(path.name + suffix)
            if extra.exists():
                extra.rename(aside.with_name(aside.name + suffix))
        return aside

    def _connect_postgres(self, url: str) -> Any:
        try:
            import psycopg
        except ImportError:
            raise StoreError(_("a PostgreSQL progress store needs psycopg: pip install 'psycopg[binary]'")) from None
        try:
            return psycopg.connect(url, autocommit=True, connect_timeout=int(self.timeout))
        except psycopg.Error as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise StoreError(_("cannot connect to the progress database: {why}").format(why=first)) from None

    # --- SQL on either backend ---------------------------------------------------------------
    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.backend == "postgresql" else text

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[Any]:
        """A cursor in one transaction (an immediate one on SQLite, so writers queue, not fail)."""
        with self._lock:
            if self.backend == "sqlite":
                cur = self._conn.cursor()
                cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield cur
                except BaseException:
                    cur.execute("ROLLBACK")
                    raise
                else:
                    cur.execute("COMMIT")
            else:
                with self._conn.transaction(), self._conn.cursor() as cur:
                    yield cur

    def _run(self, cur: Any, sql: str, args: Sequence[Any] = ()) -> Any:
        cur.execute(self._sql(sql), tuple(args))
        return cur

    def _migrate(self) -> None:
        with self._transaction() as cur:
            if self.backend == "postgresql":
                cur.execute("SELECT pg_advisory_xact_lock(7297464)")  # one migrating server at a time
            self._run(cur, "CREATE TABLE IF NOT EXISTS krypteach_schema (version INTEGER NOT NULL)")
            row = self._run(cur, "SELECT max(version) FROM krypteach_schema").fetchone()
            have = row[0] or 0
            if have > SCHEMA_VERSION:
                raise StoreError(_("the progress database is of a newer krypteach (schema {have}; "
                                   "this one knows {known}): update krypteach").format(have=have, known=SCHEMA_VERSION))
            for version in range(have + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[version]:
                    self._run(cur, statement.format(**_DDL[self.backend]))
                self._run(cur, "INSERT INTO krypteach_schema (version) VALUES (?)", (version,))

    def schema_version(self) -> int:
        with self._transaction(write=False) as cur:
            return int(self._run(cur, "SELECT max(version) FROM krypteach_schema").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # --- learners ------------------------------------------------------------------------------
    def join(self, class_code: str, nickname: str) -> int:
        """The learner ``nickname`` of the class (created on first use); their id."""
        name = normalize_nickname(nickname)
        code = (class_code or "").strip().upper() or "-"
        with self._transaction() as cur:
            return self._join(cur, code, name)

    def _join(self, cur: Any, code: str, name: str) -> int:
        """The learner's id, created in this transaction if new; a new name that looks like one
        already in the class (a Cyrillic "Аnn" beside "Ann") is refused (:class:`NicknameError`)."""
        row = self._run(cur, "SELECT id FROM learners WHERE class_code = ? AND nickname = ?", (code, name)).fetchone()
        if row is not None:
            return int(row[0])
        look = nickname_skeleton(name)
        for (other,) in self._run(cur, "SELECT nickname FROM learners WHERE class_code = ?", (code,)).fetchall():
            if nickname_skeleton(str(other)) == look:
                raise NicknameError(_("the nickname {name} looks like {other}, who is already in the class: "
                                      "choose another").format(name=name, other=other))
        self._run(cur, "INSERT INTO learners (class_code, nickname, created) VALUES (?, ?, ?) "
                       "ON CONFLICT (class_code, nickname) DO NOTHING", (code, name, time.time()))
        row = self._run(cur, "SELECT id FROM learners WHERE class_code = ? AND nickname = ?", (code, name)).fetchone()
        return int(row[0])

    def sign_in(self, class_code: str, nickname: str, pin: str) -> int:
        """A learner signs in with their nickname and their own PIN: the first time (or after the
        teacher reset it) the PIN is set; after that only the same PIN signs in as them, so a
        classmate who types "Ann" does not become Ann. Their id; :class:`PinError` when the
        PIN is not theirs or is not 4 to 8 digits, :class:`NicknameError` for a bad nickname."""
        name = normalize_nickname(nickname)
        typed = check_pin(pin)
        code = (class_code or "").strip().upper() or "-"
        with self._transaction() as cur:
            row = self._run(cur, "SELECT id, pin FROM learners WHERE class_code = ? AND nickname = ?",
                            (code, name)).fetchone()
            if row is not None and row[1] is not None:
                if pin_matches(typed, str(row[1])):
                    return int(row[0])
                raise PinError(_("that is not {name}'s PIN: if it is yours and you have forgotten it, "
                                 "ask your teacher to reset it").format(name=name))
            learner = int(row[0]) if row is not None else self._join(cur, code, name)
            self._run(cur, "UPDATE learners SET pin = ? WHERE id = ?", (hash_pin(typed), learner))
            return learner

    def seen(self, learner_id: int, lesson: str | None) -> None:
        """The learner is active now on a page of ``lesson`` (opened it, answered, moved in a game):
        the teacher's page's "Last seen" and "Lesson now"."""
        with self._transaction() as cur:
            self._run(cur, "UPDATE learners SET seen_at = ?, seen_lesson = ? WHERE id = ?",
                      (time.time(), None if lesson is None else lesson[:80], learner_id))

    def reset_pin(self, learner_id: int) -> bool:
        """Forget a learner's PIN (they forgot it): the next sign-in with their nickname sets a new
        one, and every browser signed in as them is signed out (:meth:`pin_stamp` changes). True if
        the learner exists."""
        with self._transaction() as cur:
            cur = self._run(cur, "UPDATE learners SET pin = NULL WHERE id = ?", (learner_id,))
            return int(cur.rowcount) > 0

    def learner(self, learner_id: int) -> tuple[str, str, str | None] | None:
        """``(class code, nickname, PIN stamp)`` of a learner, or None. The stamp is a short digest
        of the PIN's hash (None while no PIN is set): a browser's sign-in cookie carries it, so
        that a reset PIN signs out every browser that signed in with the old one."""
        with self._transaction(write=False) as cur:
            row = self._run(cur, "SELECT class_code, nickname, pin FROM learners WHERE id = ?",
                            (learner_id,)).fetchone()
        if row is None:
            return None
        stamp = None if row[2] is None else hashlib.sha256(str(row[2]).encode()).hexdigest()[:16]
        return str(row[0]), str(row[1]), stamp

    def nickname(self, learner_id: int) -> str | None:
        with self._transaction(write=False) as cur:
            row = self._run(cur, "SELECT nickname FROM learners WHERE id = ?", (learner_id,)).fetchone()
        return None if row is None else str(row[0])

    def learners(self, class_code: str) -> list[tuple[int, str]]:
        """(id, nickname) of the class's learners, by nickname."""
        with self._transaction(write=False) as cur:
            rows = self._run(cur, "SELECT id, nickname FROM learners WHERE class_code = ? ORDER BY nickname, id",
                             (class_code.strip().upper(),)).fetchall()
        return [(int(i), str(n)) for i, n in rows]

    def reset_learner(self, learner_id: int) -> int:
        """Forget every attempt of one learner, and their partier in progress (the nickname
        stays); the number of attempts removed."""
        with self._transaction() as cur:
            self._run(cur, "DELETE FROM games WHERE learner_id = ?", (learner_id,))
            cur = self._run(cur, "DELETE FROM attempts WHERE learner_id = ?", (learner_id,))
            return int(cur.rowcount)

    def reset_lesson(self, class_code: str, lesson: str) -> int:
        """Forget every attempt of one lesson for the whole class, and its partier in progress
        (the learners stay); the number of attempts removed."""
        code = class_code.strip().upper()
        mine = "learner_id IN (SELECT id FROM learners WHERE class_code = ?)"
        with self._transaction() as cur:
            self._run(cur, f"DELETE FROM games WHERE lesson = ? AND {mine}", (lesson, code))
            cur = self._run(cur, f"DELETE FROM attempts WHERE lesson = ? AND {mine}", (lesson, code))
            return int(cur.rowcount)

    def reset_class(self, class_code: str) -> int:
        """Forget every attempt and parti of the class (the learners and their PINs stay); the
        number of attempts removed."""
        code = class_code.strip().upper()
        mine = "learner_id IN (SELECT id FROM learners WHERE class_code = ?)"
        with self._transaction() as cur:
            self._run(cur, f"DELETE FROM games WHERE {mine}", (code,))
            cur = self._run(cur, f"DELETE FROM attempts WHERE {mine}", (code,))
            return int(cur.rowcount)

    def remove_learner(self, learner_id: int) -> bool:
        """Remove a learner and all they did (a name made by mistake); True if they existed."""
        with self._transaction() as cur:
            self._run(cur, "DELETE FROM games WHERE learner_id = ?", (learner_id,))
            self._run(cur, "DELETE FROM attempts WHERE learner_id = ?", (learner_id,))
            cur = self._run(cur, "DELETE FROM learners WHERE id = ?", (learner_id,))
            return int(cur.rowcount) > 0

    def rename_learner(self, learner_id: int, nickname: str) -> str:
        """Give a learner another nickname (their work and PIN stay); the name as kept. A name
        that cannot be used, or that is (or looks like) another learner's of the class, raises
        :class:`NicknameError`: two names of one learner are merged (:meth:`merge_learners`)."""
        name = normalize_nickname(nickname)
        with self._transaction() as cur:
            row = self._run(cur, "SELECT class_code FROM learners WHERE id = ?", (learner_id,)).fetchone()
            if row is None:
                raise KeyError(f"no learner {learner_id}")
            look = nickname_skeleton(name)
            for (other,) in self._run(cur, "SELECT nickname FROM learners WHERE class_code = ? AND id <> ?",
                                      (row[0], learner_id)).fetchall():
                if str(other) == name or nickname_skeleton(str(other)) == look:
                    raise NicknameError(_("{other} is already in the class: if they are the same learner, merge "
                                          "them instead").format(other=other))
            self._run(cur, "UPDATE learners SET nickname = ? WHERE id = ?", (name, learner_id))
        return name

    def merge_learners(self, learner_id: int, into: int) -> int:
        """Make two nicknames of one learner ("Ann" and "ann") one: every attempt of ``learner_id``
        goes to ``into``, who keeps their own partier in progress (the other's where ``into`` has
        none), and ``learner_id`` is removed. Both must be of one class. The attempts moved."""
        if learner_id == into:
            raise ValueError(_("a learner cannot be merged into themselves"))
        with self._transaction() as cur:
            rows = self._run(cur, "SELECT id, class_code FROM learners WHERE id IN (?, ?)", (learner_id, into)).fetchall()
            classes = {int(i): str(c) for i, c in rows}
            if len(classes) != 2 or classes[learner_id] != classes[into]:
                raise ValueError(_("only two learners of one class can be merged"))
            self._run(cur, "DELETE FROM games WHERE learner_id = ? AND EXISTS (SELECT 1 FROM games g WHERE "
                           "g.learner_id = ? AND g.lesson = games.lesson AND g.place = games.place)", (learner_id, into))
            self._run(cur, "UPDATE games SET learner_id = ? WHERE learner_id = ?", (into, learner_id))
            self._run(cur, "UPDATE tournament_givar SET learner_id = ? WHERE learner_id = ? AND NOT EXISTS (SELECT 1 "
                           "FROM tournament_givar g WHERE g.learner_id = ? AND g.tournament_id = tournament_givar.tournament_id "
                           "AND g.deal = tournament_givar.deal AND g.seat = tournament_givar.seat)", (into, learner_id, into))
            cur = self._run(cur, "UPDATE attempts SET learner_id = ? WHERE learner_id = ?", (into, learner_id))
            moved = int(cur.rowcount)
            self._run(cur, "DELETE FROM learners WHERE id = ?", (learner_id,))
            return moved

    # --- a parti in progress -----------------------------------------------------------------
    def save_game(self, learner_id: int, lesson: str, place: str, record: str) -> None:
        """Keep the parti of one game table (``place``) of a lesson page: its givar as game
        records, replacing what was kept there before. A record over :data:`MAX_GAME_RECORD`
        characters raises ``ValueError`` (and the one kept before stays)."""
        check_game_record(record)
        with self._transaction() as cur:
            self._run(cur, "DELETE FROM games WHERE learner_id = ? AND lesson = ? AND place = ?",
                      (learner_id, lesson[:80], place[:80]))
            self._run(cur, "INSERT INTO games (learner_id, lesson, place, record, at) VALUES (?, ?, ?, ?, ?)",
                      (learner_id, lesson[:80], place[:80], record, time.time()))

    def saved_games(self, learner_id: int, place: str) -> list[tuple[str, str]]:
        """``(lesson, record)`` of what is kept at ``place`` on every lesson page of the learner."""
        with self._transaction(write=False) as cur:
            rows = self._run(cur, "SELECT lesson, record FROM games WHERE learner_id = ? AND place = ? "
                                  "ORDER BY lesson", (learner_id, place[:80])).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def saved_game(self, learner_id: int, lesson: str, place: str) -> str | None:
        """The parti kept for this game table (:meth:`save_game`), or None."""
        with self._transaction(write=False) as cur:
            row = self._run(cur, "SELECT record FROM games WHERE learner_id = ? AND lesson = ? AND place = ?",
                            (learner_id, lesson[:80], place[:80])).fetchone()
        return None if row is None else str(row[0])

    # --- what lessons hold, and attempts -----------------------------------------------------
    def declare_items(self, lesson: str, items: Iterable[Sequence[Any]]) -> None:
        """The exercises, self-check questions and puzzles a lesson page holds: (item, kind) or
        (item, kind, title), the title what the teacher's page calls it (None: as before)."""
        rows = [(lesson, it[0], it[1], None if len(it) < 3 or it[2] is None else str(it[2])[:200]) for it in items]
        for _l, _i, kind, _t in rows:
            _check_kind(kind)
        if not rows:
            return
        now = time.time()
        with self._transaction() as cur:
            for lesson_, item, kind, title in rows:
                # an item of a database from before schema 3 is declared again (it counts from now on)
                self._run(cur, "INSERT INTO items (lesson, item, kind, declared, title) VALUES (?, ?, ?, ?, ?) "
                               "ON CONFLICT (lesson, item) DO UPDATE SET "
                               "declared = COALESCE(items.declared, excluded.declared), "
                               "title = COALESCE(excluded.title, items.title)", (lesson_, item, kind, now, title))

    def item_titles(self) -> dict[tuple[str, str], str]:
        """(lesson, item) -> what a lesson page calls it (:meth:`declare_items`), where it said."""
        with self._transaction(write=False) as cur:
            rows = self._run(cur, "SELECT lesson, item, title FROM items WHERE title IS NOT NULL").fetchall()
        return {(str(les), str(item)): str(title) for les, item, title in rows}

    def record(self, learner_id: int, lesson: str, item: str, kind: str, *, correct: bool | None = None,
               rule: str | None = None, topic: str | None = None, score: int | None = None,
               at: float | None = None, how: str | None = None, answer: str | None = None,
               expected: str | None = None, themes: Sequence[str] | None = None) -> None:
        """One attempt: right or wrong (``None`` for a giv), the rule behind a mistake, a puzzle's
        kind (``topic``), a giv's score; ``how`` it was reached (one of :data:`HOWS`), the
        learner's ``answer`` and the ``expected`` one, in words; a puzzle's ``themes`` (the rules it
        trains: theme keys such as ``tvangstabbe``)."""
        _check_kind(kind)
        _check_how(how)
        with self._transaction() as cur:
            self._insert_attempt(cur, learner_id, lesson, item, kind, correct, rule, topic, score,
                                 time.time() if at is None else at, how, answer, expected, themes_text(themes))

    def _insert_attempt(self, cur: Any, learner_id: int, lesson: str, item: str, kind: str, correct: bool | None,
                        rule: str | None, topic: str | None, score: int | None, at: float,
                        how: str | None = None, answer: str | None = None, expected: str | None = None,
                        themes: str | None = None) -> None:
        args = (learner_id, lesson[:80], item[:200], kind, None if correct is None else int(bool(correct)),
                None if rule is None else rule[:80], None if topic is None else topic[:80], score, at,
                how, None if answer is None else answer[:200], None if expected is None else expected[:200], themes)
        self._run(cur, "INSERT INTO attempts (learner_id, lesson, item, kind, correct, rule, topic, score, at, "
                       "how, answer, expected, themes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", args)

    def puzzle_attempts(self, learner_id: int | None = None) -> list[tuple[Any, ...]]:
        """Every puzzle answered (by one learner, or by everybody: a puzzle's rating is every
        learner's business), oldest first: (learner, puzzle id, correct, how, themes, score, at),
        the themes as a tuple of keys, the score the puzzle's first rating as the trainer guessed it
        (or None)."""
        sql = "SELECT learner_id, item, correct, how, themes, score, at FROM attempts WHERE kind = 'puzzle'"
        args: tuple[Any, ...] = ()
        if learner_id is not None:
            sql += " AND learner_id = ?"
            args = (learner_id,)
        with self._transaction(write=False) as cur:
            rows = self._run(cur, sql + " ORDER BY at, id", args).fetchall()
        return [(r[0], str(r[1]), None if r[2] is None else bool(r[2]), r[3], tuple((r[4] or "").split()),
                 None if r[5] is None else int(r[5]), float(r[6])) for r in rows]

    def attempts(self, learner_id: int | None = None) -> list[tuple[Any, ...]]:
        """Every attempt (of one learner), oldest first: (learner, lesson, item, kind, correct, rule,
        topic, score, at, how, answer, expected)."""
        sql = ("SELECT learner_id, lesson, item, kind, correct, rule, topic, score, at, how, answer, expected "
               "FROM attempts")
        args: tuple[Any, ...] = ()
        if learner_id is not None:
            sql += " WHERE learner_id = ?"
            args = (learner_id,)
        with self._transaction(write=False) as cur:
            return [tuple(r) for r in self._run(cur, sql + " ORDER BY at, id", args).fetchall()]

    # --- reading it back ---------------------------------------------------------------------
    def _totals(self, cur: Any) -> dict[str, int]:
        rows = self._run(cur, "SELECT lesson, count(*) FROM items WHERE kind IN ('exercise', 'selfcheck') "
                              "AND declared IS NOT NULL GROUP BY lesson").fetchall()
        return {str(lesson): int(n) for lesson, n in rows}

    def standing(self, learner_id: int) -> Standing:
        """Where one learner stands: per lesson, puzzles per kind, givar and their average score."""
        with self._transaction(write=False) as cur:
            row = self._run(cur, "SELECT nickname FROM learners WHERE id = ?", (learner_id,)).fetchone()
            if row is None:
                raise KeyError(f"no learner {learner_id}")
            totals = self._totals(cur)
            rows = self._run(cur, "SELECT lesson, item, kind, correct, topic, score FROM attempts "
                                  "WHERE learner_id = ? ORDER BY at, id", (learner_id,)).fetchall()
        return standing_of(str(row[0]), totals, rows)

    def import_progress(self, data: bytes | str, class_code: str) -> tuple[str, int]:
        """A learner's progress file (from the static site) into this class: (nickname, attempts added).

        Attempts already here (same lesson, item, kind and time) are not added twice, so a file
        imported again changes nothing. A file that is not a progress file raises ``ValueError``.
        All or nothing: the learner and every attempt of the file are written in one transaction.
        The file's ``items`` are read (and bounded) but never declared: what a lesson holds comes
        from the lesson itself (:meth:`declare_items`, called by its page), never from a file.
        """
        nickname, _items, attempts = read_progress_file(data)
        code = (class_code or "").strip().upper() or "-"
        with self._transaction() as cur:
            learner = self._join(cur, code, nickname)
            rows = self._run(cur, "SELECT lesson, item, kind, at FROM attempts WHERE learner_id = ?",
                             (learner,)).fetchall()
            have = {(r[0], r[1], r[2], round(float(r[3]), 3)) for r in rows}
            lessons = {str(r[0]) for r in rows} | {a[0] for a in attempts}
            if len(lessons) > _MAX_LESSONS:
                raise ValueError(_("{name} would have {n} lessons with this file; at most {most} are kept "
                                   "for one learner").format(name=nickname, n=number(len(lessons)),
                                                             most=number(_MAX_LESSONS)))
            added = 0
            for lesson, item, kind, correct, rule, topic, score, at, how, answer, expected, themes in attempts:
                key = (lesson, item, kind, round(at, 3))
                if key in have:
                    continue
                self._insert_attempt(cur, learner, lesson, item, kind, correct, rule, topic, score, at,
                                     how, answer, expected, themes)
                added += 1
        return nickname, added

    def overview(self, class_code: str, lessons: Sequence[str] = ()) -> ClassOverview:
        """The class at a glance: learners × lessons, the most failed items and the rules behind them.

        ``lessons`` are the class's own (the lessons it is served): each is a column from the
        start, begun or not, so the teacher sees who has not begun.
        Counted in SQL (one row a learner and lesson, not one an attempt) and bounded: at most
        :data:`_SHOWN_LESSONS` lessons (the class's and the lessons' own first, then the most tried;
        :attr:`ClassOverview.lessons_left_out` counts the others), the 200 most failed items and
        the 100 most frequent rules."""
        code = class_code.strip().upper()
        learners = self.learners(code)
        ids = {i for i, _ in learners}
        newest = max(ids, default=0)  # a learner who joins meanwhile is left out until the next overview
        of_class = "FROM attempts a JOIN learners l ON l.id = a.learner_id WHERE l.class_code = ? AND a.learner_id <= ?"
        with self._transaction(write=False) as cur:
            totals = self._totals(cur)
            # a giv counts in its lesson's cell as a giv played (its illegal moves are not answers)
            cells = self._run(cur, "SELECT a.learner_id, a.lesson, "
                                   "sum(CASE WHEN a.kind NOT IN ('giv', 'coach') THEN 1 ELSE 0 END), "
                                   "sum(CASE WHEN a.correct = 0 AND a.kind NOT IN ('giv', 'coach') THEN 1 ELSE 0 END), "
                                   "count(DISTINCT CASE WHEN a.correct = 1 AND a.kind IN ('exercise', 'selfcheck') "
                                   "THEN a.item END), "
                                   "sum(CASE WHEN a.kind = 'giv' AND a.score IS NOT NULL THEN 1 ELSE 0 END), "
                                   "count(DISTINCT CASE WHEN a.correct = 1 AND a.kind = 'puzzle' THEN a.item END) "
                                   f"{of_class} AND (a.kind <> 'giv' OR a.score IS NOT NULL) AND a.kind <> 'coach' "
                                   "GROUP BY a.learner_id, a.lesson",
                              (code, newest)).fetchall()
            # a parti kept on a lesson's game table: a giv under way is work too (a build made in it)
            playing = {(int(i), str(les)) for i, les in self._run(
                cur, "SELECT DISTINCT g.learner_id, g.lesson FROM games g JOIN learners l ON l.id = g.learner_id "
                     "WHERE l.class_code = ? AND g.learner_id <= ?", (code, newest)).fetchall()}
            active = self._run(cur, "SELECT id, seen_at, seen_lesson FROM learners WHERE class_code = ? AND id <= ? "
                                    "AND seen_at IS NOT NULL", (code, newest)).fetchall()
            latest = self._run(cur, "SELECT a.learner_id, a.lesson "
                                    f"{of_class} AND a.at = (SELECT max(b.at) FROM attempts b "
                                    "WHERE b.learner_id = a.learner_id)", (code, newest)).fetchall()
            seen = self._run(cur, "SELECT a.learner_id, max(a.at), "
                                  "sum(CASE WHEN a.kind = 'giv' AND a.score IS NOT NULL THEN 1 ELSE 0 END) "
                                  f"{of_class} GROUP BY a.learner_id", (code, newest)).fetchall()
            failed = self._run(cur, "SELECT a.lesson, a.item, a.kind, count(*), count(DISTINCT a.learner_id) "
                                    f"{of_class} AND a.kind NOT IN ('giv', 'coach') AND a.correct = 0 "
                                    "GROUP BY a.lesson, a.item, a.kind "
                                    "ORDER BY count(DISTINCT a.learner_id) DESC, count(*) DESC LIMIT 200",
                               (code, newest)).fetchall()
            rule_rows = self._run(cur, "SELECT a.rule, count(*) "
                                       f"{of_class} AND a.correct = 0 AND a.rule IS NOT NULL AND a.rule <> '' "
                                       "AND (a.kind <> 'giv' OR a.score IS NULL) AND a.kind <> 'coach' "
                                       "GROUP BY a.rule ORDER BY count(*) DESC LIMIT 100",
                                  (code, newest)).fetchall()
            # the coach: each learner's move quality over the givar reviewed, and the themes where the
            # class loses points (the loss is kept in tenths of a point)
            quality_rows = self._run(cur, "SELECT a.learner_id, count(*), avg(a.score) "
                                          f"{of_class} AND a.kind = 'coach' AND a.item = 'quality' "
                                          "AND a.score IS NOT NULL GROUP BY a.learner_id", (code, newest)).fetchall()
            theme_rows = self._run(cur, "SELECT a.rule, sum(a.score), count(*), count(DISTINCT a.learner_id) "
                                        f"{of_class} AND a.kind = 'coach' AND a.item <> 'quality' "
                                        "AND a.rule IS NOT NULL AND a.score IS NOT NULL "
                                        "GROUP BY a.rule ORDER BY sum(a.score) DESC LIMIT 20", (code, newest)).fetchall()
        tried_per_lesson: Counter[str] = Counter()
        for learner, lesson, tried, _wrong, _done, played, _puzzles in cells:
            if learner in ids:
                tried_per_lesson[str(lesson)] += int(tried) + int(played)
        own = list(dict.fromkeys(str(les) for les in lessons))
        declared = sorted(les for les in totals if les not in own)
        others = sorted((les for les in tried_per_lesson if les not in totals and les not in own),
                        key=lambda les: (-tried_per_lesson[les], les))
        shown = (own + declared + others)[:_SHOWN_LESSONS]
        left_out = len(own) + len(declared) + len(others) - len(shown)
        keep = set(shown)
        grid: dict[tuple[int, str], LessonStanding] = {}
        for learner, lesson, tried, wrong, done, played, puzzles in cells:
            if learner in ids and lesson in keep:
                grid[(int(learner), str(lesson))] = LessonStanding(done=int(done), total=totals.get(lesson, 0),
                                                                   tried=int(tried), wrong=int(wrong or 0),
                                                                   givar=int(played or 0), puzzles=int(puzzles or 0))
        for learner in ids:
            for lesson in shown:
                cell = grid.setdefault((learner, lesson), LessonStanding(total=totals.get(lesson, 0)))
                cell.playing = (learner, lesson) in playing
        last = {int(i): max(0.0, float(at)) for i, at, _n in seen if i in ids}
        now_in = {int(i): str(les) for i, les in latest if i in ids}
        for i, at, lesson in active:  # a page opened or a move made counts as much as an answer
            if int(i) in ids and float(at) >= last.get(int(i), -1.0):
                last[int(i)] = float(at)
                if lesson:
                    now_in[int(i)] = str(lesson)
        givar = {int(i): int(n) for i, _at, n in seen if i in ids and n}
        most = sorted(((str(les), str(item), str(kind), int(n), int(who)) for les, item, kind, n, who in failed),
                      key=lambda r: (-r[4], -r[3], r[0], r[1]))
        rules: Counter[str] = Counter({str(rule): int(n) for rule, n in rule_rows})
        return ClassOverview(learners=learners, lessons=sorted(shown), grid=grid, most_failed=most, rules=rules,
                             givar=givar, last_seen=last, lessons_left_out=left_out,
                             last_lesson=now_in,
                             quality={int(i): (int(n), float(q) / 100) for i, n, q in quality_rows if int(i) in ids},
                             themes=[(str(t), int(lost) / 10, int(n), int(who)) for t, lost, n, who in theme_rows])

    # --- homework (issue 23) -------------------------------------------------------------------
    def set_homework(self, class_code: str, name: str, *, due: float, theme: str | None = None,
                     puzzles: Sequence[str] = (), count: int | None = None, now: float | None = None) -> int:
        """Set the class homework: ``count`` puzzles of ``theme`` at each learner's level, or the
        chosen ``puzzles`` (ids); due by ``due``. Returns its id; a :class:`HomeworkError` says what
        is wrong (every word for the teacher's page)."""
        from ..teaching.puzzles.fresh import THEMES, puzzle_from_id
        from ..teaching.puzzles.model import PuzzleError

        now = time.time() if now is None else now
        title = " ".join(str(name or "").split())
        if not 1 <= len(title) <= _HOMEWORK_NAME:
            raise HomeworkError(_("give the homework a name of 1 to {most} characters").format(most=_HOMEWORK_NAME))
        if (theme is None) == (not puzzles):
            raise HomeworkError(_("choose a theme, or type the puzzles' ids"))
        if theme is not None:
            if theme not in THEMES:
                raise HomeworkError(_("there is no theme {theme}").format(theme=repr(theme)))
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= HOMEWORK_MOST:
                raise HomeworkError(_("a homework has 1 to {most} puzzles").format(most=HOMEWORK_MOST))
            ids: tuple[str, ...] = ()
        else:
            ids = tuple(dict.fromkeys(str(p).strip() for p in puzzles if str(p).strip()))
            if not 1 <= len(ids) <= HOMEWORK_MOST:
                raise HomeworkError(_("a homework has 1 to {most} puzzles").format(most=HOMEWORK_MOST))
            for pid in ids:
                try:
                    puzzle_from_id(pid)
                except PuzzleError:
                    raise HomeworkError(_("there is no puzzle {id}").format(id=repr(pid[:80]))) from None
            count = len(ids)
        if not _finite(due) or due <= now:
            raise HomeworkError(_("the due date must be after today"))
        code = class_code.strip().upper()
        with self._transaction() as cur:
            n = self._run(cur, "SELECT count(*) FROM homework WHERE class_code = ? AND due > ?", (code, now)).fetchone()
            if int(n[0]) >= HOMEWORK_OPEN:
                raise HomeworkError(_("a class has at most {most} homework open at once").format(most=HOMEWORK_OPEN))
            self._run(cur, "INSERT INTO homework (class_code, name, theme, puzzles, count, due, created) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)", (code, title, theme, " ".join(ids) or None, count, due, now))
            row = self._run(cur, "SELECT max(id) FROM homework WHERE class_code = ?", (code,)).fetchone()
        return int(row[0])

    def homework(self, class_code: str) -> list[Homework]:
        """The class's homework, the soonest due first."""
        with self._transaction(write=False) as cur:
            rows = self._run(cur, "SELECT id, name, theme, puzzles, count, due, created FROM homework "
                                  "WHERE class_code = ? ORDER BY due, id", (class_code.strip().upper(),)).fetchall()
        return [Homework(int(r[0]), str(r[1]), r[2], tuple((r[3] or "").split()), int(r[4]), float(r[5]), float(r[6]))
                for r in rows]

    def remove_homework(self, class_code: str, homework_id: int) -> bool:
        """Take a homework back (the answers stay); True if the class had it."""
        with self._transaction() as cur:
            cur = self._run(cur, "DELETE FROM homework WHERE class_code = ? AND id = ?",
                            (class_code.strip().upper(), homework_id))
            return int(cur.rowcount) > 0

    # --- the class tournament (issue 24) ----------------------------------------------------------
    def start_tournament(self, class_code: str, rules: str, deals: int, bot: str, seed: int,
                         now: float | None = None) -> int:
        """Keep a new class tournament (``rules`` as JSON: :meth:`Rules.to_dict
        <krypteach.engine.rules.Rules.to_dict>`), ending the class's tournament under way; its id."""
        now = time.time() if now is None else now
        code = class_code.strip().upper()
        with self._transaction() as cur:
            self._run(cur, "UPDATE tournaments SET ended = ? WHERE class_code = ? AND ended IS NULL", (now, code))
            self._run(cur, "INSERT INTO tournaments (class_code, rules, deals, bot, seed, started) VALUES (?, ?, ?, ?, ?, ?)",
                      (code, rules, deals, bot, seed, now))
            row = self._run(cur, "SELECT max(id) FROM tournaments WHERE class_code = ?", (code,)).fetchone()
        return int(row[0])

    def end_tournament(self, class_code: str, tournament_id: int, now: float | None = None) -> bool:
        """End the class's tournament ``tournament_id`` (its givar stay); True if it was under way."""
        with self._transaction() as cur:
            cur = self._run(cur, "UPDATE tournaments SET ended = ? WHERE class_code = ? AND id = ? AND ended IS NULL",
                            (time.time() if now is None else now, class_code.strip().upper(), tournament_id))
            return int(cur.rowcount) > 0

    def tournament(self, class_code: str) -> TournamentRecord | None:
        """The class's newest tournament (under way, or ended: its standings stay to be read), or None."""
        with self._transaction(write=False) as cur:
            r = self._run(cur, "SELECT id, rules, deals, bot, seed, started, ended FROM tournaments WHERE class_code = ? "
                               "ORDER BY id DESC LIMIT 1", (class_code.strip().upper(),)).fetchone()
        if r is None:
            return None
        return TournamentRecord(int(r[0]), str(r[1]), int(r[2]), str(r[3]), int(r[4]), float(r[5]),
                                None if r[6] is None else float(r[6]))

    def keep_tournament_giv(self, tournament_id: int, learner_id: int, deal: int, seat: int, score: int,
                            record: str) -> bool:
        """Keep a learner's finished tournament giv (its score and game record) as it ends; a giv
        kept already stays as it was (False)."""
        check_game_record(record)
        with self._transaction() as cur:
            cur = self._run(cur, "INSERT INTO tournament_givar (tournament_id, learner_id, deal, seat, score, record, at) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                            (tournament_id, learner_id, deal, seat, score, record, time.time()))
            return int(cur.rowcount) > 0

    def tournament_quality(self, tournament_id: int, learner_id: int, deal: int, seat: int, good: int,
                           decisions: int) -> None:
        """The coach's count of a kept tournament giv: the learner's decisions as good as the best, of ``decisions``."""
        with self._transaction() as cur:
            self._run(cur, "UPDATE tournament_givar SET good = ?, decisions = ? WHERE tournament_id = ? AND "
                           "learner_id = ? AND deal = ? AND seat = ?", (good, decisions, tournament_id, learner_id,
                                                                         deal, seat))

    def tournament_givar(self, tournament_id: int) -> list[tuple[int, str, int, int, int, int | None, int | None, str]]:
        """Every kept giv of a tournament: (learner id, nickname, deal, seat, score, good, decisions,
        record), in the order they ended."""
        with self._transaction(write=False) as cur:
            rows = self._run(cur, "SELECT t.learner_id, l.nickname, t.deal, t.seat, t.score, t.good, t.decisions, "
                                  "t.record FROM tournament_givar t JOIN learners l ON l.id = t.learner_id "
                                  "WHERE t.tournament_id = ? ORDER BY t.at, t.learner_id", (tournament_id,)).fetchall()
        return [(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), None if r[5] is None else int(r[5]),
                 None if r[6] is None else int(r[6]), str(r[7])) for r in rows]

    def export_csv(self, class_code: str, homework: Mapping[tuple[int, str, float], str] | None = None) -> str:
        """Every attempt of the class as CSV (one row an attempt), for a spreadsheet. ``homework``:
        the name of the homework each puzzle answer counted for, by ``(learner, puzzle, time)``
        (the last column)."""
        code = class_code.strip().upper()
        with self._transaction(write=False) as cur:
            rows = self._run(cur, "SELECT l.nickname, a.lesson, a.item, a.kind, a.correct, a.rule, a.topic, "
                                  "a.score, a.at, a.how, a.answer, a.expected, a.learner_id FROM attempts a "
                                  "JOIN learners l ON l.id = a.learner_id "
                                  "WHERE l.class_code = ? ORDER BY l.nickname, a.at, a.id", (code,)).fetchall()
        counted = homework or {}
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["nickname", "lesson", "item", "kind", "correct", "rule", "puzzle_kind", "score", "time",
                    "how", "answer", "right_answer", "homework"])
        for nick, lesson, item, kind, correct, rule, topic, score, at, how, answer, expected, learner in rows:
            w.writerow([_cell(nick), _cell(lesson), _cell(item), _cell(kind),
                        "" if correct is None else ("yes" if correct else "no"),
                        _cell(rule or ""), _cell(topic or ""), _score_cell(score), _time_cell(at),
                        _cell(how or ""), _cell(answer or ""), _cell(expected or ""),
                        _cell(counted.get((int(learner), str(item), float(at)), "")) if kind == "puzzle" else ""])
        return out.getvalue()


def csv_cell(text: Any) -> str:
    """A CSV cell a spreadsheet will not run as a formula (see :func:`_cell`)."""
    return _cell(text)


def _cell(text: Any) -> str:
    """A cell a spreadsheet will not run as a formula (OWASP's rule): one that starts with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return, after any leading spaces, gets a ``'`` first."""
    cell = "" if text is None else str(text)
    return "'" + cell if cell[:1] in ("\t", "\r") or cell.lstrip()[:1] in ("=", "+", "-", "@") else cell


def _score_cell(score: Any) -> str:
    """A giv's score as a whole number, whatever was stored ("" for none)."""
    if score is None:
        return ""
    try:
        return str(int(score))
    except (TypeError, ValueError, OverflowError):
        return _cell(score)


def _time_cell(at: Any) -> str:
    """The local time of an attempt; a stored time ``time.localtime`` cannot convert is written as
    the number it is, so that one odd row never fails the whole export."""
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(at)))
    except (TypeError, ValueError, OverflowError, OSError):
        return _cell(at)


def _owner_only(path: Path) -> None:
    """The progress file (and its ``-wal`` and ``-shm``) readable and writable by its owner only:
    a new one is made with mode 600 (SQLite gives the other two the database's mode), and an
    older one of this user's is narrowed to it."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError:
        return  # SQLite says what is wrong when it opens the file
    for extra in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            if extra.is_file() and extra.stat().st_uid == os.getuid() and extra.stat().st_mode & 0o077:
                extra.chmod(0o600)
        except (OSError, AttributeError):  # another user's file, or no getuid (Windows)
            pass


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind={kind!r} is not one of {', '.join(KINDS)}")


def _check_how(how: str | None) -> None:
    if how is not None and how not in HOWS:
        raise ValueError(f"how={how!r} is not one of {', '.join(HOWS)}")
