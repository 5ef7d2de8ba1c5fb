"""The live class's tables in ``krypteach serve`` (issue 24): the tables live in the server's
own process, and the learners' kernels reach them over HTTP on this machine.

Every lesson page has a kernel of its own, so the learners at one table cannot share a giv in
a kernel: the server holds each table (:class:`~krypteach.play.table.Table`), and a kernel
asks it for its seat's view and sends its seat's moves. A kernel proves which learner it
serves with a token signed with the server's learner key (the one the kernels already hold,
:func:`~krypteach.classroom.session.sign_learner` with the nonce ``"tables"``); a page's
browser never holds it, and every rule of the table is checked here, never in a kernel.

- ``POST /krypteach/tables`` ``{"learner": token, "open": players}`` opens a table of the
  class's rules and sits the learner down; ``{"learner": token, "join": code}`` sits them at a
  table by its short code. The answer: ``{"code", "seat_token", "view"}``.
- ``GET /krypteach/tables/CODE?seat=TOKEN&since=VERSION`` answers the seat's view as soon as
  the table's version is past ``since`` (at once when it is), or after :data:`WAIT` seconds
  with the same view: a long poll, so a move reaches the other seats as it is made.
- ``POST /krypteach/tables/CODE/move`` ``{"seat", "move", "version"}``: the seat's move; the
  new view, or 409 with ``{"error": sentence}`` when the table refuses it.
- ``POST /krypteach/tables/CODE/away`` ``{"seat"}``: the page has gone (its bot takes over after
  the delay; the next view or move of the seat brings the learner back).
- ``POST /krypteach/tables`` ``{"learner": token, "tournament": true}``: the learner's giv of the
  class tournament (:mod:`.tournament`), at a private table nobody else may join; ``{"mine": true}``
  answers ``"tournament": true`` while one is under way.

The bots of empty and abandoned seats play from a timer (:data:`BOT_PAUSE` after the table last
changed), so a learner sees each of their moves. Every finished giv is given to ``on_giv``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NoReturn, Protocol

import tornado.web
from tornado.ioloop import PeriodicCallback

from ..classroom.session import read_learner
from ..classroom.store import ProgressStore
from ..engine.game import Giv
from ..engine.games import game_of
from ..engine.records import dump_givar
from ..engine.rules import Rules
from ..i18n import LANGUAGES, _
from ..play.table import Table, TableError, hint_for, new_code
from .settings import ServeSettings

log = logging.getLogger("krypteach.tables")

__all__ = ["BOT_PAUSE", "TABLE_NONCE", "TABLES_LESSON", "WAIT", "TableRoom", "TournamentSeats", "class_room", "room_keeping", "TablesHandler", "TableViewHandler", "TableMoveHandler",
           "TableAwayHandler", "TableHintHandler", "TableLobbyHandler", "learner_of", "table_handlers", "token_of", "HUB_IDENTITY"]

#: the application setting of a hub's service: who a request's hub token is (:mod:`.hub_service`)
HUB_IDENTITY = "krypteach_hub"
#: the nonce of a kernel's learner token for the tables
TABLE_NONCE = "tables"
#: seconds a long poll waits for the table to change
WAIT = 20.0
#: seconds a bot waits after the table last changed before it plays
BOT_PAUSE = 0.6
#: tables one server holds at most (a class of 30 at tables of 2 is 15)
MOST_TABLES = 200
#: the lesson a table's givar are kept under (the game's lesson)
TABLES_LESSON = "07_play"
#: the games a table may play (the rule presets of that name)
GAMES = ("krypkasino", "kasino", "avig-kasino")


class TournamentSeats(Protocol):
    """What the tables ask of the class tournament (:class:`~krypteach.serve.tournament.TournamentDesk`)."""

    @property
    def running(self) -> bool: ...

    def seat(self, learner: int, nickname: str) -> tuple[Table, str]: ...


def _game_key(rules: Rules) -> str:
    return game_of(rules).title.lower().replace(" ", "-")


class TableRoom:
    """The server's tables, by code, and the polls waiting on each."""

    def __init__(self, rules: Rules | None = None, *, bot: str = "careful", replace_after: float = 60.0,
                 on_giv: Callable[[Table, Giv], None] | None = None, bot_pause: float = BOT_PAUSE,
                 hints: bool = False) -> None:
        self.rules = rules or Rules()
        #: a learner at one of the room's tables may ask for a hint (the tournament's: never)
        self.hints = hints
        self._hint_pool: ProcessPoolExecutor | None = None
        #: the seats (tokens) whose hint is being worked out: one at a time each
        self._hinting: set[str] = set()
        self.bot, self.replace_after, self.on_giv, self.bot_pause = bot, replace_after, on_giv, bot_pause
        self.tables: dict[str, Table] = {}
        #: table code -> seat -> the learner's id (the store keeps each finished giv for them)
        self.learners: dict[str, dict[int, int]] = {}
        self._changed_at: dict[str, float] = {}
        self._waiting: dict[str, list[asyncio.Future[None]]] = {}
        self._timer: PeriodicCallback | None = None
        #: tables nobody may join (a tournament giv's: one learner against the bot)
        self.private: set[str] = set()
        #: the class tournament, when the server holds one
        self.tournament: TournamentSeats | None = None
        #: code -> why a table was taken away (a message id, :meth:`remove`), the newest kept
        self.gone: dict[str, str] = {}
        #: learner -> (nickname, polls waiting): the learners whose game page waits for a table
        self.lobby: dict[int, tuple[str, int]] = {}
        self._lobby_waiting: list[asyncio.Future[None]] = []

    def start(self) -> None:
        """Let the bots play (every tenth of a second, the tables whose pause is over)."""
        if self._timer is None:
            self._timer = PeriodicCallback(self.tick, 100)
            self._timer.start()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._hint_pool is not None:
            self._hint_pool.shutdown(wait=False, cancel_futures=True)
            self._hint_pool = None

    async def hint(self, table: Table, seat_token: str, lang: str, names: list[str]) -> tuple[str, str]:
        """A hint for the seat in its turn, worked out in a worker process (the strongest bot may
        think for a second, and the tables' event loop must not wait; the engine's caches are
        module state, so not in a thread): (the move's text, the reason)."""
        if not table.hints:
            raise TableError(_("your teacher has not allowed hints at the tables"))
        obs = table.observation(seat_token)
        if seat_token in self._hinting:
            raise TableError(_("your hint is on its way: wait for it"))
        if self._hint_pool is None:
            self._hint_pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        self._hinting.add(seat_token)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._hint_pool, hint_for, obs, lang, names)
        finally:
            self._hinting.discard(seat_token)

    def open(self, name: str, players: int, learner: int = 0, game: str | None = None) -> tuple[Table, str]:
        """A new table for ``players`` with ``name`` seated: the class's rules, or the plain rules
        of another of :data:`GAMES` (``game``; the class's own preset when it is of that game)."""
        if len(self.tables) >= MOST_TABLES:
            raise TableError(_("this server holds {most} tables already: ask your teacher").format(most=MOST_TABLES))
        table = self._new_table(self._rules(players, game))
        token = self.sit(table, name, learner)
        return table, token

    def _rules(self, players: int, game: str | None) -> Rules:
        rules = self.rules
        if game is not None and game != _game_key(rules):
            if game not in GAMES:
                raise TableError(_("{game} is no game of the tables: choose one of {games}").format(
                    game=game[:20], games=", ".join(GAMES)))
            rules = Rules.preset(game)
        try:
            return rules.replace(players=players)
        except ValueError as e:
            raise TableError(str(e)) from None

    def _new_table(self, rules: Rules) -> Table:
        table = Table(self.new_code(), rules, bot=self.bot, replace_after=self.replace_after, on_giv=self.on_giv,
                      hints=self.hints)
        self.tables[table.code] = table
        return table

    # --- the lobby: the learners waiting for a table, and the teacher seating them ------------
    def lobby_enter(self, learner: int, nickname: str) -> asyncio.Future[None]:
        """The learner's game page waits for a table (a long poll): the future is answered when
        the teacher seats the class (or the poll's time is up and it leaves)."""
        f: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        _name, polls = self.lobby.get(learner, (nickname, 0))
        self.lobby[learner] = (nickname, polls + 1)
        self._lobby_waiting.append(f)
        return f

    def lobby_leave(self, learner: int, f: asyncio.Future[None]) -> None:
        if f in self._lobby_waiting:
            self._lobby_waiting.remove(f)
        name, polls = self.lobby.get(learner, ("", 1))
        if polls <= 1:
            self.lobby.pop(learner, None)
        else:
            self.lobby[learner] = (name, polls - 1)

    def waiting(self) -> list[tuple[int, str]]:
        """(learner, nickname) of the learners waiting for a table, by nickname."""
        return sorted(((learner, name) for learner, (name, _polls) in self.lobby.items()
                       if self.mine(learner) is None), key=lambda x: (x[1].casefold(), x[0]))

    def seat_lobby(self, players: int, game: str | None = None, rng: random.Random | None = None) -> list[Table]:
        """Seat every learner waiting for a table at tables for ``players`` (the class's game, or
        ``game``), in a random order, as few tables as hold them all and their sizes at most one
        apart (7 learners at tables for 3: 3, 2 and 2, the bot in the empty seats); each waiting
        page is told its seat at once."""
        waiting = self.waiting()
        if not waiting:
            raise TableError(_("nobody is waiting for a table: the learners open the game page (lesson 7) first"))
        rules = self._rules(players, game)
        count = -(-len(waiting) // players)
        if len(self.tables) + count > MOST_TABLES:
            raise TableError(_("this server holds {most} tables already: ask your teacher").format(most=MOST_TABLES))
        (rng or random.SystemRandom()).shuffle(waiting)
        tables = []
        for k in range(count):
            table = self._new_table(rules)
            for learner, name in waiting[k::count]:
                self.sit(table, name, learner)
            tables.append(table)
        self.wake_lobby()
        return tables

    def wake_lobby(self) -> None:
        """Answer every page waiting in the lobby now (it asks again): seated, or a class
        tournament begun or ended."""
        for f in self._lobby_waiting:
            if not f.done():
                f.set_result(None)

    def new_code(self) -> str:
        """A code no table of the room has."""
        code = new_code()
        while code in self.tables:
            code = new_code()
        return code

    def add_private(self, table: Table, learner: int, seat: int, name: str) -> str:
        """Hold ``table`` (made elsewhere: a tournament giv) with ``name`` at ``seat`` and nobody
        else ever; the seat's token."""
        if len(self.tables) >= MOST_TABLES:
            raise TableError(_("this server holds {most} tables already: ask your teacher").format(most=MOST_TABLES))
        token = table.sit(name, seat=seat)
        self.tables[table.code] = table
        self.private.add(table.code)
        self.learners[table.code] = {seat: learner}
        self.changed(table.code)
        return token

    def remove(self, code: str, why: str | None = None) -> None:
        """Take a table away (its waiting polls are answered; the next one hears it is gone, and
        ``why`` when it is given: a sentence, said in the language of the request that asks)."""
        if why is not None:
            self.gone[code] = why
            while len(self.gone) > MOST_TABLES:
                self.gone.pop(next(iter(self.gone)))
        if self.tables.pop(code, None) is not None:
            self.learners.pop(code, None)
            self.private.discard(code)
            self.changed(code)
            self._changed_at.pop(code, None)

    def sit(self, table: Table, name: str, learner: int = 0) -> str:
        if table.code in self.private:
            raise TableError(_("table {code} is a tournament giv: nobody else sits down at it").format(code=table.code))
        token = table.sit(name)
        self.learners.setdefault(table.code, {})[table.seat_of(token)] = learner
        self.changed(table.code)
        return token

    def mine(self, learner: int) -> tuple[Table, str] | None:
        """The table the learner sits at (the newest, if several) and their seat's token: a page
        opened again (a reload, another lesson) comes back to its seat."""
        for code in reversed(list(self.tables)):
            for seat, who in self.learners.get(code, {}).items():
                token = self.tables[code].token_of(seat)
                if who == learner and token is not None and not self.tables[code].over:
                    return self.tables[code], token
        return None

    def table(self, code: str) -> Table:
        table = self.tables.get(code.strip().upper())
        if table is None and code.strip().upper() in self.gone:
            raise TableError(_(self.gone[code.strip().upper()]))
        if table is None:
            raise TableError(_("there is no table {code} in this class: check its code").format(code=code[:8]))
        return table

    def changed(self, code: str) -> None:
        """The table moved on: every poll waiting on it is answered."""
        self._changed_at[code] = time.monotonic()
        for f in self._waiting.pop(code, []):
            if not f.done():
                f.set_result(None)

    async def wait(self, code: str, since: int, timeout: float = WAIT) -> None:
        """Until the table's version is past ``since``, or ``timeout`` seconds."""
        table = self.table(code)
        if table.version > since:
            return
        f: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(table.code, []).append(f)
        try:
            await asyncio.wait_for(f, timeout)
        except TimeoutError:
            pass
        finally:
            waiting = self._waiting.get(table.code, [])
            if f in waiting:
                waiting.remove(f)

    def tick(self) -> None:
        now, wall = time.monotonic(), time.time()
        for code, table in list(self.tables.items()):
            if now - self._changed_at.get(code, 0.0) < self.bot_pause:
                continue
            before = table.version
            table.tick(wall)
            if table.version != before:
                self.changed(code)


def class_room(kt: ServeSettings) -> TableRoom:
    """The tables of a served class: its rule preset, and each finished giv kept for every
    learner at the table, as a giv of theirs (its score) and as the table's parti (its records)."""
    return room_keeping(kt.game_rules, kt.store, bot=kt.live_bot, replace_after=kt.live_replace_after,
                        hints=kt.live_hints)


def room_keeping(game_rules: str | None, store: ProgressStore | None, *, bot: str = "careful",
                 replace_after: float = 60.0, hints: bool = False) -> TableRoom:
    """A room of the rule preset ``game_rules`` (None: the plain rules) whose finished givar
    ``store`` keeps (None: not kept), its empty seats played by the bot ``bot``, a learner's seat
    by it ``replace_after`` seconds after their page went: ``krypteach serve``'s (the classroom
    file's ``[live]``), and the JupyterHub service's."""
    room = TableRoom(Rules.preset(game_rules) if game_rules else Rules(), bot=bot, replace_after=replace_after,
                     hints=hints)
    if store is not None:
        def keep(table: Table, giv: Giv) -> None:
            n = len(table.parti.givar)
            game = giv.game.title.lower().replace(" ", "-")
            for seat, learner in room.learners.get(table.code, {}).items():
                try:
                    store.record(learner, TABLES_LESSON, f"table-{table.code}-giv-{n}", "giv",
                                 score=giv.result.scores[seat], topic=game)
                    store.save_game(learner, TABLES_LESSON, f"table-{table.code}", dump_givar(table.parti.givar))
                except Exception:  # the store gone away: the table plays on
                    log.exception("a giv of table %s was not kept", table.code)

        room.on_giv = keep
    return room


def table_handlers(room: TableRoom) -> list[Any]:
    return [(r"/krypteach/tables", TablesHandler, {"room": room}),
            (r"/krypteach/tables/lobby", TableLobbyHandler, {"room": room}),
            (r"/krypteach/tables/([A-Za-z0-9]{4})", TableViewHandler, {"room": room}),
            (r"/krypteach/tables/([A-Za-z0-9]{4})/move", TableMoveHandler, {"room": room}),
            (r"/krypteach/tables/([A-Za-z0-9]{4})/hint", TableHintHandler, {"room": room}),
            (r"/krypteach/tables/([A-Za-z0-9]{4})/away", TableAwayHandler, {"room": room})]


def token_of(headers: Mapping[str, str]) -> str:
    """The token of an ``Authorization: token …`` (or ``Bearer …``) header; "" without one.

    >>> token_of({"Authorization": "token abc"}), token_of({"Authorization": "Bearer x y"}), token_of({})
    ('abc', '', '')
    """
    kind, _sep, token = (headers.get("Authorization") or "").strip().partition(" ")
    token = token.strip()
    return token if kind.lower() in ("token", "bearer") and token and " " not in token else ""


def learner_of(handler: tornado.web.RequestHandler, token: Any) -> tuple[str, str, int] | None:
    """The learner a kernel's request speaks for: (class code, nickname, learner id) from its
    ``token``, signed with the server's learner key (nonce :data:`TABLE_NONCE`); None for a
    forged, foreign or missing token. The tables and the teacher's board both ask it."""
    if handler.settings.get(HUB_IDENTITY) is not None:  # on JupyterHub: the hub said who asks (prepare)
        hub_learner: tuple[str, str, int] | None = getattr(handler, "hub_learner", None)
        return hub_learner
    kt = handler.settings.get("krypteach")
    key = getattr(kt, "learner_key", b"") or handler.settings.get("krypteach_table_key", b"")
    return read_learner(key, token, TABLE_NONCE) if isinstance(token, str) and key else None


class KernelRequest(tornado.web.RequestHandler):
    """A request of a learner's kernel (the tables', the teacher's board's): it carries the
    learner's signed token, not a browser's cookie, and is answered in JSON; a refusal is
    ``{"error": why}`` with its status."""

    #: on JupyterHub, the learner whose token the request carries (:mod:`.hub_service`)
    hub_learner: tuple[str, str, int] | None = None

    async def prepare(self) -> None:
        hub = self.settings.get(HUB_IDENTITY)
        if hub is not None:
            self.hub_learner = await hub.learner(token_of(self.request.headers))

    def check_xsrf_cookie(self) -> None:  # a kernel's request, with its signed token: no browser, no cookie
        return

    def _body(self) -> dict[str, Any]:
        try:
            data = json.loads(self.request.body or b"{}")
        except ValueError:
            data = None
        if not isinstance(data, dict):
            self._refuse(400, "the request is a JSON object")
        return data

    def _refuse(self, status: int, why: str) -> NoReturn:
        self.set_status(status)
        self.finish({"error": why})
        raise tornado.web.Finish()

    def _signed(self, token: Any, refusal: str) -> tuple[str, str, int]:
        """The learner ``token`` speaks for (:func:`learner_of`), else 403 with ``refusal``."""
        who = learner_of(self, token)
        if who is None:
            self._refuse(403, refusal)
        return who


class _TableBase(KernelRequest):
    def initialize(self, room: TableRoom) -> None:
        self.room = room

    def _learner(self, token: Any) -> tuple[str, str, int]:
        return self._signed(token, _("sign in first: the tables are for the learners of the class"))

    def _table(self, code: str) -> Table:
        try:
            return self.room.table(code)
        except TableError as e:
            self._refuse(404, str(e))

    def _view(self, table: Table, seat_token: str) -> None:
        self.set_header("Cache-Control", "no-store")
        try:
            self.finish(table.view(seat_token))
        except TableError as e:
            self._refuse(403, str(e))


class TablesHandler(_TableBase):
    def post(self) -> None:
        self.room.start()
        data = self._body()
        _code, nickname, learner = self._learner(data.get("learner"))
        try:
            if "open" in data:
                players = data["open"]
                if isinstance(players, bool) or not isinstance(players, int):
                    self._refuse(400, "open: the number of players, 2 to 6")
                game = data.get("game")
                if game is not None and not isinstance(game, str):
                    self._refuse(400, "game: a game's name")
                table, token = self.room.open(nickname, players, learner, game)
            elif "mine" in data:
                found = self.room.mine(learner)
                if found is None:  # (and whether a class tournament is under way, where the server holds one)
                    running = {} if self.room.tournament is None else {"tournament": self.room.tournament.running}
                    self.finish({"code": None, **running})
                    return
                table, token = found
            elif "tournament" in data:
                if self.room.tournament is None:
                    raise TableError(_("there is no class tournament under way: your teacher starts one"))
                table, token = self.room.tournament.seat(learner, nickname)
            elif "join" in data:
                table = self.room.table(str(data["join"]))
                token = self.room.sit(table, nickname, learner)
            else:
                self._refuse(400, "open a table or join one")
        except TableError as e:
            self._refuse(409, str(e))
        self.finish({"code": table.code, "seat_token": token, "view": table.view(token)})


class TableLobbyHandler(_TableBase):
    """``GET /krypteach/tables/lobby?learner=TOKEN``: a game page without a table waits here (a
    long poll) until the teacher seats the class; the answer is the learner's seat (as opening a
    table answers) or, after :data:`WAIT` seconds, ``{"code": null}`` and whether a class
    tournament is under way, and the page asks again. The learners waiting are the ones the
    teacher's tables page shows."""

    _waiting: asyncio.Future[None] | None = None
    _gone = False

    def on_connection_close(self) -> None:
        """The page went (closed, reloaded, or on to a table): it no longer waits."""
        self._gone = True
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(None)

    async def get(self) -> None:
        self.room.start()
        _code, nickname, learner = self._learner(self.get_argument("learner", ""))
        if self._gone:  # the page went while the hub was asked who it is: it waits for nothing
            return
        found = self.room.mine(learner)
        if found is None:
            f = self._waiting = self.room.lobby_enter(learner, nickname)
            try:
                await asyncio.wait_for(asyncio.shield(f), WAIT)
            except TimeoutError:
                pass
            finally:
                self.room.lobby_leave(learner, f)
            if self._gone:
                return
            found = self.room.mine(learner)
        self.set_header("Cache-Control", "no-store")
        if found is None:
            running = {} if self.room.tournament is None else {"tournament": self.room.tournament.running}
            self.finish({"code": None, **running})
            return
        table, token = found
        self.finish({"code": table.code, "seat_token": token, "view": table.view(token)})


class TableHintHandler(_TableBase):
    """``POST /krypteach/tables/CODE/hint`` ``{"seat", "lang", "names"}``: a hint for the seat in
    its turn where the class allows them (the classroom file's ``[live] hints``): ``{"move",
    "reason"}``; 403 where hints are not allowed, 409 out of the seat's turn."""

    async def post(self, code: str) -> None:
        data = self._body()
        table = self._table(code)
        seat, lang, names = data.get("seat"), data.get("lang", "en"), data.get("names")
        if not isinstance(seat, str) or lang not in LANGUAGES or not isinstance(names, list) \
                or len(names) != table.rules.players or not all(isinstance(n, str) and len(n) <= 40 for n in names):
            self._refuse(400, "a hint is asked for with {seat, lang, names}")
        try:
            table.seat_of(seat)
            if not table.hints:
                self._refuse(403, _("your teacher has not allowed hints at the tables"))
            move, reason = await self.room.hint(table, seat, lang, names)
        except TableError as e:
            self._refuse(409, str(e))
        self.set_header("Cache-Control", "no-store")
        self.finish({"move": move, "reason": reason, "version": table.version})


class TableViewHandler(_TableBase):
    _seat: str | None = None
    _gone = False

    def on_connection_close(self) -> None:
        """The kernel waiting here has gone (its page closed or reloaded): the seat is away, and its
        bot plays it after the teacher's delay unless the page comes back."""
        self._gone = True
        if self._seat is not None and not self._finished:
            self._away(self.path_args[0], self._seat)

    def _away(self, code: str, seat: str) -> None:
        """The page of ``seat`` at table ``code`` has gone: the seat is away from now (nothing where
        the table or the seat is not there)."""
        try:
            self.room.table(code).away(seat, time.time())
        except TableError:
            pass

    async def get(self, code: str) -> None:
        table = self._table(code)
        seat = self.get_argument("seat", "")
        try:
            since = int(self.get_argument("since", "-1"))
        except ValueError:
            self._refuse(400, "since: a version number")
        if self._gone:  # the page went while the hub was asked who it is: its seat is away
            self._away(code, seat)
            return
        try:
            table.back(seat)  # a page that asks is there
        except TableError as e:
            self._refuse(403, str(e))
        self._seat = seat
        await self.room.wait(table.code, since)
        if self._gone:
            return
        self._view(table, seat)


class TableMoveHandler(_TableBase):
    def post(self, code: str) -> None:
        data = self._body()
        table = self._table(code)
        seat, move, version = data.get("seat"), data.get("move"), data.get("version")
        if not isinstance(seat, str) or not isinstance(move, str) or isinstance(version, bool) \
                or not isinstance(version, int):
            self._refuse(400, "a move is {seat, move, version}")
        try:
            table.move(seat, move, version=version)
        except TableError as e:
            self._refuse(409, str(e))
        self.room.changed(table.code)
        self._view(table, seat)


class TableAwayHandler(_TableBase):
    def post(self, code: str) -> None:
        data = self._body()
        table = self._table(code)
        try:
            table.away(str(data.get("seat", "")), time.time())
        except TableError as e:
            self._refuse(404, str(e))
        self.finish({"away": True})
