"""A table where learners play each other (issue 24): the giv is held here, never by a page.

A :class:`Table` has one seat per player of its rules. A learner sits down with
:meth:`Table.sit` and gets the seat's secret **token**: every later call names the seat by its
token, so a page can act only for its own seat. What a seat is shown is :meth:`Table.view`: its
own :class:`~krypteach.engine.game.Observation` (its hand, the table, what has been played,
pile sizes, marks and scores: never another hand or the stock), as plain JSON, with the
table's **version** (how many things have happened at it). A move (:meth:`Table.move`) is
taken only from the seat whose turn it is, only if it is legal, and only if it names the
version it was chosen at: a move sent twice, or one made on an old view, is refused with a
:class:`TableError` that says why in one sentence. Nothing else of the table changes on a
refused move.

Empty seats, and the seat of a learner who has left for longer than ``replace_after`` seconds,
are played by a bot of the teacher's level (:meth:`Table.tick`, called by whoever serves the
table; a learner who comes back takes the seat again, the bot steps aside). When a giv ends,
the next is dealt after the last one is handed to ``on_giv`` (the store keeps its record), so a
restart of the server loses no finished giv.

The table knows nothing of pages, sockets or widgets: the serving layer carries its views to
the pages and their moves back (docs/architecture.md, "The live class").

>>> t = Table("AB12", Rules(players=2), seed=3, bot="random")
>>> ann = t.sit("Ann")
>>> v = t.view(ann)
>>> v["seat"], len(v["hand"]), v["names"]
(0, 4, ['Ann', None])
>>> while t.view(ann)["turn"] != 0:   # the empty seat is the bot's: it plays when it is its turn
...     _ = t.tick(now=0.0)
>>> v = t.view(ann)
>>> t.move(ann, v["legal"][0], version=v["version"]).player
0
>>> t.move(ann, v["legal"][0], version=v["version"])
Traceback (most recent call last):
krypteach.play.table.TableError: that move was chosen on an old view of the table: the table has moved on
"""

from __future__ import annotations

import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots import BOT_LEVELS, Bot, BotError, check_bot_rules, make_bot, suggest
from ..engine.game import Giv, Observation, Parti, Turn
from ..engine.games import describe
from ..engine.moves import IllegalMoveError, Move, MoveParseError
from ..engine.records import dump_givar
from ..engine.rules import Rules
from ..i18n import _, use_language

__all__ = ["Table", "TableError", "TABLE_CODE_LETTERS", "hint_for", "new_code"]

#: the letters of a table's short code: no 0/O, 1/I/L that a child would mix up on a projector
TABLE_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def new_code(rng: random.Random | None = None, length: int = 4) -> str:
    """A short code to join a table by (``K7Q2``)."""
    pick = (rng or random.SystemRandom()).choice
    return "".join(pick(TABLE_CODE_LETTERS) for _ in range(length))


def hint_for(obs: Observation, lang: str, names: list[str]) -> tuple[str, str]:
    """A hint for the seat of ``obs`` in its turn, as the game page gives one: (the move's text,
    the reason in ``lang``, naming the seats ``names``), from the strongest bot that plays these
    rules. A function of its arguments alone, for the server to run in a worker process.

    >>> g = Giv.from_position([["10S", "4C"], ["4H"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
    >>> hint_for(g.observation(0), "sv", ["Du", "Bea"])
    ('10S:AH+3D+7C+9S', '10♠ tar A♥+3♦+7♣+9♠. Det är det enda tillåtna draget.')
    """
    level = "random"
    for name in ("expert", "careful"):
        if name in BOT_LEVELS:
            try:
                check_bot_rules(name, obs.rules)
            except BotError:
                continue
            level = name
            break
    with use_language(lang):
        move, reason = suggest(obs, level=level, names=names)
    return str(move), reason


class TableError(ValueError):
    """A call the table refuses, with one sentence saying why."""


@dataclass
class _Seat:
    name: str | None = None
    token: str | None = None
    #: when the learner's page was last heard from (None: never, or present)
    left_at: float | None = None
    #: the bot plays this seat (empty, or its learner away too long)
    bot_plays: bool = True


@dataclass
class Table:
    """One table of the live class: see the module docstring."""

    code: str
    rules: Rules = field(default_factory=Rules)
    seed: int | None = None
    #: the level of the bots that fill empty seats
    bot: str = "careful"
    #: seconds a learner may be away before the bot takes their seat
    replace_after: float = 60.0
    #: told each finished giv (the parti's list of givar so far, the giv): the store keeps its record
    on_giv: Callable[[Table, Giv], None] | None = None
    #: a table of this one giv only (a class tournament's: its deck is the tournament's); ``seed``
    #: then seeds only the bots
    one_giv: Giv | None = None
    #: what the server tells every seat about the table (JSON; a tournament giv: which one)
    about: dict[str, Any] | None = None
    #: the class allows a hint at this table (the classroom file's ``[live] hints``; never a tournament's)
    hints: bool = False

    def __post_init__(self) -> None:
        self._lock = threading.RLock()
        self._seats = [_Seat() for _ in range(self.rules.players)]
        self._bots: dict[int, Bot] = {}
        self.parti = (Parti(self.rules, seed=self.seed) if self.one_giv is None
                      else Parti.from_givar(self.rules, [self.one_giv]))
        self.version = 0
        #: (version, seat, move text) of every move at the table, oldest first: what the pages are sent
        self.log: list[tuple[int, int, str]] = []
        self._last: tuple[int, dict[str, Any]] | None = None

    @property
    def giv(self) -> Giv:
        return self.parti.giv

    @property
    def over(self) -> bool:
        """Nothing more is played here: the parti is over (a table of one giv: that giv)."""
        return self.parti.is_over or (self.one_giv is not None and self.giv.is_over)

    # --- seats -------------------------------------------------------------------------------
    def sit(self, name: str, seat: int | None = None) -> str:
        """``name`` sits down (at ``seat``, or the first free one); the seat's token. Sitting
        down again under the same name at a table with that name seated is refused: come back
        with the token instead (:meth:`back`)."""
        with self._lock:
            if any(s.name == name for s in self._seats):
                raise TableError(_("{name} already sits at this table: the page that sat down there can come back "
                                   "to the seat").format(name=name))
            free = [i for i, s in enumerate(self._seats) if s.name is None]
            if seat is None:
                if not free:
                    raise TableError(_("this table is full: every seat has a player"))
                seat = free[0]
            elif not 0 <= seat < len(self._seats) or seat not in free:
                raise TableError(_("seat {seat} is not free at this table").format(seat=seat))
            token = secrets.token_urlsafe(16)
            self._seats[seat] = _Seat(name, token, None, bot_plays=False)
            self._changed()
            return token

    @property
    def names(self) -> list[str | None]:
        """The learner at each seat (None: nobody sat down there, the bot plays it)."""
        with self._lock:
            return [s.name for s in self._seats]

    def seat_named(self, name: str) -> int | None:
        """The seat of the learner called ``name``, if they sit here."""
        return next((i for i, s in enumerate(self._seats) if s.name == name), None)

    def token_of(self, seat: int) -> str | None:
        """The token of ``seat`` (for the server to hand a learner's own seat back to them)."""
        return self._seats[seat].token

    def observation(self, token: str) -> Observation:
        """What the seat of ``token`` may know, in its turn (for a hint); :class:`TableError`
        out of its turn or once the giv is over."""
        with self._lock:
            seat = self.seat_of(token)
            if self.giv.is_over or self.giv.turn != seat:
                raise TableError(_("it is not your turn"))
            return self.giv.observation(seat)

    def seat_of(self, token: str) -> int:
        """The seat of ``token``; :class:`TableError` for a token of no seat here."""
        for i, s in enumerate(self._seats):
            if s.token is not None and secrets.compare_digest(s.token, token):
                return i
        raise TableError(_("this page has no seat at this table"))

    def away(self, token: str, now: float) -> None:
        """The seat's page has gone (closed, reloaded, its network lost) at ``now``."""
        with self._lock:
            s = self._seats[self.seat_of(token)]
            if s.left_at is None:
                s.left_at = now

    def back(self, token: str) -> int:
        """The seat's page is back: the learner plays their seat again (the bot steps aside)."""
        with self._lock:
            i = self.seat_of(token)
            s = self._seats[i]
            changed = s.bot_plays
            s.left_at, s.bot_plays = None, False
            if changed:
                self._changed()
            return i

    # --- play --------------------------------------------------------------------------------
    def move(self, token: str, move: str, *, version: int) -> Turn:
        """The seat of ``token`` plays ``move`` (its text, as :meth:`view` lists them), chosen at
        the table's ``version``."""
        with self._lock:
            seat = self.seat_of(token)
            if version != self.version:
                raise TableError(_("that move was chosen on an old view of the table: the table has moved on"))
            if self.giv.is_over:
                raise TableError(_("this giv is over: the next one is being dealt"))
            if self.giv.turn != seat:
                raise TableError(_("it is not your turn"))
            if self._seats[seat].bot_plays:
                self.back(token)
            try:
                chosen = Move.parse(move)
            except (MoveParseError, ValueError) as e:
                raise TableError(_("that is not a move: {why}").format(why=e)) from None
            try:
                turn = self.giv.play(chosen)
            except IllegalMoveError as e:
                raise TableError(str(e)) from None
            self._played(turn)
            return turn

    def tick(self, now: float) -> bool:
        """Let the bots play their seats' turns (one move), and hand a learner's seat away to its
        bot after ``replace_after`` seconds away; True if something happened."""
        with self._lock:
            acted = False
            for s in self._seats:
                if s.name is not None and not s.bot_plays and s.left_at is not None \
                        and now - s.left_at >= self.replace_after:
                    s.bot_plays = True
                    acted = True
            if acted:
                self._changed()
            if self.giv.is_over:
                if not self.over:
                    self.parti.next_giv()
                    self._changed()
                    return True
                return acted
            seat = self.giv.turn
            if self._seats[seat].bot_plays:
                bot = self._bots.get(seat)
                if bot is None:
                    bot = self._bots[seat] = make_bot(self.bot, seed=None if self.seed is None else self.seed + seat,
                                                      rules=self.rules)
                self._played(self.giv.play(bot.choose(self.giv.observation(seat))))
                return True
            return acted

    def _played(self, turn: Turn) -> None:
        self.log.append((self.version + 1, turn.player, str(turn.move)))
        self._changed()
        if self.giv.is_over and self.on_giv is not None:
            self.on_giv(self, self.giv)

    def _changed(self) -> None:
        self.version += 1

    # --- what a seat sees ----------------------------------------------------------------------
    def view(self, token: str) -> dict[str, Any]:
        """What the seat of ``token`` may see, as JSON: its observation, the seats' names (None
        for a bot's), whose turn, its legal moves when it is its turn (texts, with their words),
        the moves made since the giv began, and the table's version."""
        with self._lock:
            seat = self.seat_of(token)
            g = self.giv
            obs = g.observation(seat)
            mine = not g.is_over and g.turn == seat
            legal = [str(m) for m in obs.legal_moves()] if mine else []
            return {
                "code": self.code, "version": self.version, "seat": seat, "game": g.game.title,
                "names": [None if s.name is None else s.name for s in self._seats],
                "bots": [s.bot_plays for s in self._seats],
                "turn": None if g.is_over else g.turn,
                "hand": [str(c) for c in obs.hand], "table": [str(x) for x in obs.table],
                "kladda": [str(c) for c in obs.kladda], "hand_sizes": list(obs.hand_sizes),
                "pile_sizes": list(obs.pile_sizes), "marks": list(obs.marks), "dukningar": list(obs.dukningar),
                "stock_left": obs.stock_left, "deal": obs.deal_index, "deals": obs.deals_total,
                "scores": list(g.returns()), "giv": len(self.parti.givar), "over": g.is_over,
                "moves": [(t.player, str(t.move)) for t in g.turns],
                "legal": legal, "legal_words": [describe(self.rules, Move.parse(m)) for m in legal],
                "rules": self.rules.to_dict(), "previous": obs.previous_mover, "dealer": obs.dealer,
                # a finished giv's record: every card of it has been played face up, nothing is hidden any more
                "record": dump_givar([g]) if g.is_over else None,
                "last": self._last_giv(), "totals": list(self.parti.totals), "parti_over": self.over, "about": self.about,
                "hints": self.hints,
            }

    def _last_giv(self) -> dict[str, Any] | None:
        """The newest finished giv (its number, scores and record): the table deals the next one at
        once, and a page shows the last one's scoring and the coach's review beside the new giv."""
        done = [g for g in self.parti.givar if g.is_over]
        if not done:
            return None
        if self._last is None or self._last[0] != len(done):
            self._last = (len(done), {"number": len(done), "scores": list(done[-1].result.scores),
                                      "record": dump_givar([done[-1]])})
        return self._last[1]
