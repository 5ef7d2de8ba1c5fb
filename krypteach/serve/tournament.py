"""The class tournament in ``krypteach serve`` (issue 24): duplicate deals for the whole class,
played at the server's tables, its standings live on the teacher's page and as CSV.

The rules of the tournament are :mod:`krypteach.play.class_tournament`'s; this module holds it
in the server, beside the tables (:mod:`.tables`):

- **The teacher** starts it from ``/krypteach/teacher/tournament`` (how many deals, the bot's
  level; the class's rules), follows the standings there live (``…/tournament/state?since=N``,
  a long poll answered at every giv finished and every review done), ends it, and downloads
  the standings (``/krypteach/teacher/tournament.csv``).
- **A learner's kernel** asks ``POST /krypteach/tables`` ``{"learner", "tournament": true}``
  (:class:`~krypteach.serve.tables.TablesHandler`): the :class:`TournamentDesk` deals the
  learner's next tournament giv at a private table (nobody else may join it; the other seats are
  the tournament's bot), and the page plays it as any table: every move is checked here, so a
  page can neither choose its cards nor report a score.
- **Each finished giv** is kept in the progress store at once (its score and record: schema 9's
  ``tournament_givar``), so a restart loses none; then the coach's review of the learner's moves
  (:func:`~krypteach.play.class_tournament.giv_quality`) runs in a **worker process** and its
  count is kept beside it. Not in a thread (:mod:`.offload`): the engine's capture caches are
  module state the tables use on the event loop at the same time, and a worker process has its own.

A giv not finished when the tournament ends, or when the teacher starts another, does not count.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import math
import multiprocessing
import secrets
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from html import escape
from typing import Any
from urllib.parse import urlencode

import tornado.web

from ..bots import BOT_LEVELS
from ..classroom.store import ProgressStore, csv_cell
from ..engine.game import Giv
from ..engine.games import game_of
from ..engine.records import dump_givar
from ..engine.rules import Rules
from ..i18n import N_, _, ngettext
from ..i18n.numbers import number, percent
from ..play.class_tournament import MOST_DEALS, ClassTournament, Played, Standing, TournamentError, giv_quality
from ..play.table import Table, TableError
from .pages import LIVE_STYLE, live_page, long_poll_script
from .settings import ServeSettings
from .tables import TABLES_LESSON, TableRoom
from .teacher_handlers import TeacherBase

log = logging.getLogger("krypteach.tournament")

__all__ = ["REVIEW_SAMPLES", "WAIT", "TournamentDesk", "class_desk", "standings_csv", "tournament_handlers",
           "tournament_page"]

#: seconds the teacher's long poll waits for the standings to change
WAIT = 20.0
#: the coach's samples per decision in a tournament giv's review (the coach's own default)
REVIEW_SAMPLES = 24


#: what a page at a tournament giv hears when the teacher ends the tournament (or starts another)
_GIV_ENDED = N_("your teacher ended the class tournament: the giv you were playing does not count")


@dataclass(frozen=True)
class _Seated:
    """A learner's tournament giv in play: which tournament, deal and seat."""

    tid: int
    learner: int
    deal: int
    seat: int


class TournamentDesk:
    """The class tournament of a server: the one under way (or the last one, ended), each
    learner's giv in play, their finished givar, the standings; the teacher's polls waiting on it."""

    def __init__(self, room: TableRoom, rules: Rules | None = None, *, store: ProgressStore | None = None,
                 class_code: str = "", samples: int = REVIEW_SAMPLES) -> None:
        self.room, self.rules, self.store, self.class_code, self.samples = room, rules or room.rules, store, class_code, samples
        self.tournament: ClassTournament | None = None
        self.tid = 0
        self.ended = False
        self.started_at: float | None = None
        self.version = 0
        self._played: dict[tuple[int, int, int], Played] = {}
        self._names: dict[int, str] = {}
        self._seated: dict[str, _Seated] = {}   # table code -> its giv
        self._playing: dict[int, str] = {}      # learner -> the code of their tournament table
        self._waiting: list[asyncio.Future[None]] = []
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        #: the reviews a restart left undone: started by :meth:`resume`, once the server's loop runs
        self._pending: list[tuple[int, int, int, int, str]] = []
        room.tournament = self

    # --- the teacher ---------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.tournament is not None and not self.ended

    def start(self, deals: int, bot: str, seed: int | None = None) -> ClassTournament:
        """A new tournament of the class's rules (the one under way ends); :class:`TournamentError`
        for bad numbers, with nothing changed."""
        t = ClassTournament(self.rules, deals, bot, secrets.randbelow(2**31) if seed is None else seed)
        self._clear_tables()
        if self.store is not None:
            self.tid = self.store.start_tournament(self.class_code, json.dumps(self.rules.to_dict()), deals, bot, t.seed)
        else:
            self.tid += 1
        self.tournament, self.ended, self.started_at = t, False, time.time()
        self._played, self._names = {}, {}
        self._changed()
        self.room.wake_lobby()  # every page waiting for a table hears of it now
        return t

    def end(self) -> bool:
        """End the tournament under way (its standings stay); False when none was."""
        if not self.running:
            return False
        self.ended = True
        if self.store is not None:
            self.store.end_tournament(self.class_code, self.tid)
        self._clear_tables()
        self._changed()
        self.room.wake_lobby()
        return True

    def load(self) -> None:
        """The class's newest tournament from the store (a restarted server): its givar played, and
        the reviews that had not finished, for :meth:`resume` to start again."""
        if self.store is None:
            return
        kept = self.store.tournament(self.class_code)
        if kept is None:
            return
        try:
            rules = Rules.from_dict(json.loads(kept.rules))
            self.tournament = ClassTournament(rules, kept.deals, kept.bot, kept.seed)
        except (ValueError, TypeError) as e:  # a tournament this krypteach cannot make again
            log.warning("krypteach: the class tournament %s is not read back: %s", kept.id, e)
            return
        self.rules, self.tid, self.ended, self.started_at = rules, kept.id, kept.ended is not None, kept.started
        for learner, name, deal, seat, score, good, decisions, record in self.store.tournament_givar(kept.id):
            self._names[learner] = name
            self._played[(learner, deal, seat)] = Played(learner, name, deal, seat, score, good, decisions)
            if good is None:
                self._pending.append((self.tid, learner, deal, seat, record))

    def resume(self) -> None:
        """Start the reviews a restart left undone (called by the first requests, on the server's loop)."""
        pending, self._pending = self._pending, []
        for tid, learner, deal, seat, record in pending:
            self._review(tid, learner, deal, seat, record)

    def _clear_tables(self) -> None:
        for code in list(self._seated):
            self.room.remove(code, _GIV_ENDED)
        self._seated, self._playing = {}, {}

    # --- the learners --------------------------------------------------------------------
    def seat(self, learner: int, nickname: str) -> tuple[Table, str]:
        """The learner's tournament giv: the one they are playing, else their next one, dealt at a
        private table; :class:`TableError` when there is none."""
        self.resume()
        t = self.tournament
        if t is None or self.ended:
            raise TableError(_("there is no class tournament under way: your teacher starts one"))
        code = self._playing.get(learner)
        if code is not None:
            table = self.room.tables.get(code)
            seated = self._seated.get(code)
            if table is not None and seated is not None and not table.over:
                token = table.token_of(seated.seat)
                if token is not None:
                    return table, token
            self.room.remove(code)  # their last giv, over: its table goes
            self._seated.pop(code, None)
        done = [(d, s) for (who, d, s) in self._played if who == learner]
        nxt = t.next_for(done)
        if nxt is None:
            raise TableError(_("you have played every giv of the tournament ({n}): the standings are on your "
                               "teacher's page").format(n=number(t.givar_each)))
        deal, seat = nxt
        # the learner's seat is never the bot's: their giv waits for them (the bot's moves are not theirs)
        table = t.table(self.room.new_code(), deal, seat, replace_after=math.inf, on_giv=self._finished)
        token = self.room.add_private(table, learner, seat, nickname)
        self._seated[table.code] = _Seated(self.tid, learner, deal, seat)
        self._playing[learner] = table.code
        if learner not in self._names:
            self._names[learner] = nickname
            self._changed()
        return table, token

    def _finished(self, table: Table, giv: Giv) -> None:
        """A tournament giv is over (told by its table, on the event loop): keep it, then review it."""
        seated = self._seated.get(table.code)
        if seated is None or seated.tid != self.tid or self.ended:
            return
        key = (seated.learner, seated.deal, seated.seat)
        if key in self._played:
            return
        name = self._names.get(seated.learner, "?")
        score = giv.result.scores[seated.seat]
        self._played[key] = Played(seated.learner, name, seated.deal, seated.seat, score)
        record = dump_givar([giv])
        if self.store is not None:
            try:
                self.store.keep_tournament_giv(self.tid, seated.learner, seated.deal, seated.seat, score, record)
                # and a giv of the learner's, as every table's giv is (the class's overview counts it)
                self.store.record(seated.learner, TABLES_LESSON, self._item(seated.deal, seated.seat), "giv",
                                  score=score, topic=self._game())
            except Exception:  # the store gone away: the tournament goes on
                log.exception("a tournament giv of %s was not kept", name)
        self._changed()
        self._review(self.tid, seated.learner, seated.deal, seated.seat, record)

    # --- the coach's review, in a worker process ------------------------------------------
    def _review(self, tid: int, learner: int, deal: int, seat: int, record: str) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no server loop (a script, a unit test): at once
            self._reviewed(tid, learner, deal, seat, *giv_quality(record, seat, self.samples))
            return
        task = loop.create_task(self._review_off_the_loop(tid, learner, deal, seat, record))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _review_off_the_loop(self, tid: int, learner: int, deal: int, seat: int, record: str) -> None:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        try:
            good, n = await asyncio.get_running_loop().run_in_executor(self._pool, giv_quality, record, seat,
                                                                       self.samples)
        except Exception:
            log.exception("krypteach: the review of a tournament giv failed")
            return
        self._reviewed(tid, learner, deal, seat, good, n)

    def _item(self, deal: int, seat: int) -> str:
        return f"tournament-{self.tid}-deal-{deal + 1}-seat-{seat}"

    def _game(self) -> str:
        return game_of(self.rules).title.lower().replace(" ", "-")

    def _reviewed(self, tid: int, learner: int, deal: int, seat: int, good: int, decisions: int) -> None:
        if self.store is not None:
            try:
                self.store.tournament_quality(tid, learner, deal, seat, good, decisions)
                # the learner's move quality, as the coach keeps it for a giv of the game page
                self.store.record(learner, TABLES_LESSON, "quality", "coach",
                                  score=round(100 * good / decisions) if decisions else 100, topic=self._game())
            except Exception:
                log.exception("a tournament giv's review was not kept")
        p = self._played.get((learner, deal, seat))
        if tid == self.tid and p is not None:
            self._played[(learner, deal, seat)] = Played(p.learner, p.name, deal, seat, p.score, good, decisions)
            self._changed()

    @property
    def reviewing(self) -> int:
        """Finished givar whose review is not done yet."""
        return sum(p.good is None for p in self._played.values())

    def close(self) -> None:
        """Stop the review worker (the server stops)."""
        for task in self._tasks:
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # --- the standings -------------------------------------------------------------------
    def standings(self) -> list[Standing]:
        if self.tournament is None:
            return []
        return self.tournament.standings(self._played.values(), sorted(self._names.items()))

    def _changed(self) -> None:
        self.version += 1
        for f in self._waiting:
            if not f.done():
                f.set_result(None)
        self._waiting = []

    async def wait(self, since: int, timeout: float = WAIT) -> None:
        """Until the standings' version is past ``since``, or ``timeout`` seconds."""
        if self.version > since:
            return
        f: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(f)
        try:
            await asyncio.wait_for(f, timeout)
        except TimeoutError:
            pass
        finally:
            if f in self._waiting:
                self._waiting.remove(f)


def class_desk(kt: ServeSettings, room: TableRoom) -> TournamentDesk:
    """The tournament desk of a served class, beside its tables: the class's rules, its store, and
    the class's newest tournament read back from it."""
    desk = TournamentDesk(room, room.rules, store=kt.store, class_code=kt.class_label)
    desk.load()
    return desk


# --- what the teacher sees -------------------------------------------------------------------

def _level_words(level: str) -> str:
    return {"random": _("random"), "careful": _("careful"), "expert": _("expert")}.get(level, level)


def _quality_words(s: Standing) -> str:
    q = s.quality
    return "—" if q is None else percent(q)


def standings_html(desk: TournamentDesk) -> str:
    """The standings as a table, in the current language."""
    t = desk.tournament
    if t is None:
        return "<p>" + escape(_("No tournament yet: start one below.")) + "</p>"
    rows = desk.standings()
    head = [_("Rank"), _("Learner"), _("Givar played"), _("Score"), _("Move quality")]
    body = []
    for s in rows:
        played = _("{played} of {of}").format(played=number(s.played), of=number(s.of))
        if not s.complete:
            played += " " + _("(not all played)")
        quality = _quality_words(s)
        if s.reviewed < s.played:
            quality += " " + ngettext("({n} giv being reviewed)", "({n} givar being reviewed)",
                                      s.played - s.reviewed).format(n=number(s.played - s.reviewed))
        cls = "" if s.complete else " class='behind'"
        body.append(f"<tr{cls}><td class='n'>{escape(number(s.rank))}</td><td>{escape(s.name)}</td>"
                    f"<td>{escape(played)}</td><td class='n'>{escape(number(s.score))}</td><td>{escape(quality)}</td></tr>")
    if not body:
        nobody = escape(_("Nobody has sat down to the tournament yet."))
        body.append(f"<tr><td colspan='5'>{nobody}</td></tr>")
    th = "".join(f"<th scope='col'>{escape(h)}</th>" for h in head)
    return f"<table class='standings'><thead><tr>{th}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def tournament_live_html(desk: TournamentDesk, xsrf_form: str) -> str:
    """The tournament's live part: what it is, the standings, the buttons (end, CSV)."""
    t = desk.tournament
    if t is None:
        return standings_html(desk)
    game = t.rules.describe()
    better = _("the lowest score wins") if t.lower_is_better else _("the highest score wins")
    said = (ngettext("{deals} deal under the class's rules ({rules}), each played from every seat against the "
                     "{bot} bot: {givar} givar for each learner; {better}, and move quality breaks a tie.",
                     "{deals} deals under the class's rules ({rules}), each played from every seat against the "
                     "{bot} bot: {givar} givar for each learner; {better}, and move quality breaks a tie.", t.deals)
            .format(deals=number(t.deals), rules=game, bot=_level_words(t.bot), givar=number(t.givar_each),
                    better=better))
    state = _("The tournament has ended: these are its final standings.") if desk.ended else \
        _("The tournament is under way: the learners press Play the class tournament on the game page (lesson 7).")
    # (every text is taken out of the f-strings: Babel does not look inside them)
    download, end = escape(_("Download the standings (CSV)")), escape(_("End the tournament"))
    fewer = escape(_("A learner who has played fewer givar is ranked after those who have played more: every "
                     "learner plays the givar in the same order, so learners who have played as many givar have "
                     "played the same cards."))
    buttons = [f"<a class='button' href='/krypteach/teacher/tournament.csv'>{download}</a>"]
    if desk.running:
        buttons.insert(0, f"<form method='post' action='/krypteach/teacher/tournament/end'>{xsrf_form}"
                          f"<button type='submit' class='quiet'>{end}</button></form>")
    return (f"<p class='state' role='status'><b>{escape(state)}</b></p><p>{escape(said)}</p>"
            f"{standings_html(desk)}<p class='note'>{fewer}</p>"
            f"<div class='controls'>{''.join(buttons)}</div>")


_STYLE = LIVE_STYLE + """
table.standings{border-collapse:collapse;margin:.6rem 0;min-width:30rem;background:#fff}
table.standings th,table.standings td{border:1px solid #c5cfc7;padding:.35rem .7rem;text-align:left}
table.standings td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.behind td{color:#4a5a50;font-style:italic}
.controls{display:flex;flex-wrap:wrap;gap:.6rem;margin:1rem 0}
button.quiet{background:#546e7a}
form.start{background:#fff;border:1px solid #c5cfc7;border-radius:.4rem;padding:.6rem 1rem;margin:1rem 0}
form.start label{margin-right:1rem}
"""

_SCRIPT = long_poll_script("tournament/state", "version")


def _start_form(desk: TournamentDesk, xsrf_form: str, error: str) -> str:
    err = f"<p class='error' role='alert'>{escape(error)}</p>" if error else ""
    levels = "".join(f"<option value='{k}'{' selected' if k == 'careful' else ''}>{escape(_level_words(k))}</option>"
                     for k in BOT_LEVELS)
    head = _("Start a new tournament (the one under way ends)") if desk.running else _("Start a tournament")
    t = {k: escape(v) for k, v in (
        ("deals", _("Deals (each played from every seat)")), ("bot", _("The bot's level")),
        ("start", _("Start the tournament")),
        ("rules", _("The class's rules: {rules}").format(rules=desk.rules.describe())))}
    return (f"<form class='start' method='post' action='/krypteach/teacher/tournament/start'>{xsrf_form}"
            f"<h2>{escape(head)}</h2>{err}"
            f"<label>{t['deals']} <input name='deals' type='number' min='1' max='{MOST_DEALS}' value='2' size='3'></label>"
            f"<label>{t['bot']} <select name='bot'>{levels}</select></label> "
            f"<button type='submit'>{t['start']}</button><p class='note'>{t['rules']}</p></form>")


def tournament_page(desk: TournamentDesk, xsrf_form: str, error: str = "") -> str:
    """The teacher's tournament page: the standings kept up to date by a small script that
    long-polls ``tournament/state``; the form that starts one below."""
    return live_page(_("The class tournament"), tournament_live_html(desk, xsrf_form), _start_form(desk, xsrf_form, error),
                     _STYLE, _SCRIPT, data=f" data-version='{desk.version}'")


def standings_csv(rows: Iterable[Standing]) -> str:
    """The standings as CSV (column names and numbers for a spreadsheet, not for reading aloud)."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["rank", "nickname", "givar_played", "givar_in_all", "score", "move_quality", "decisions_as_good_as_best",
                "decisions_reviewed", "givar_reviewed"])
    for s in rows:
        q = s.quality
        w.writerow([s.rank, csv_cell(s.name), s.played, s.of, s.score, "" if q is None else f"{q:.4f}", s.good,
                    s.decisions, s.reviewed])
    return out.getvalue()


# --- the teacher's handlers ------------------------------------------------------------------

class _DeskTeacher(TeacherBase):
    def initialize(self, desk: TournamentDesk) -> None:
        self.desk = desk


class TournamentPageHandler(_DeskTeacher):
    def get(self) -> None:
        if self._teacher():
            self.desk.resume()
            self.finish(tournament_page(self.desk, self.xsrf_form_html(), self.get_argument("error", "")[:300]))


class TournamentStateHandler(_DeskTeacher):
    async def get(self) -> None:
        if not self._is_teacher():
            raise tornado.web.HTTPError(403, "the teacher's tournament")
        self.desk.resume()
        try:
            since = int(self.get_argument("since", "-1"))
        except ValueError:
            raise tornado.web.HTTPError(400, "since: a number") from None
        await self.desk.wait(since)
        if self.request.connection is None or self._finished:
            return
        self.finish({"version": self.desk.version, "html": tournament_live_html(self.desk, self.xsrf_form_html()),
                     "running": self.desk.running, "reviewing": self.desk.reviewing})


class TournamentStartHandler(_DeskTeacher):
    def post(self) -> None:
        if not self._teacher():
            return
        text = self.get_argument("deals", "").strip()
        try:
            deals = int(text) if text.isascii() and text.isdigit() and len(text) < 4 else None
            if deals is None:
                raise TournamentError(_("give the number of deals as a whole number, 1 to {most}").format(most=MOST_DEALS))
            self.desk.start(deals, self.get_argument("bot", "").strip())
        except TournamentError as e:
            self.redirect("/krypteach/teacher/tournament?" + urlencode({"error": str(e)[:300]}))
            return
        self.redirect("/krypteach/teacher/tournament")


class TournamentEndHandler(_DeskTeacher):
    def post(self) -> None:
        if self._teacher():
            self.desk.end()
            self.redirect("/krypteach/teacher/tournament")


class TournamentCsvHandler(_DeskTeacher):
    def get(self) -> None:
        if not self._teacher():
            return
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="krypteach-{self._kt().class_label}-tournament.csv"')
        self.finish(standings_csv(self.desk.standings()))


def tournament_handlers(desk: TournamentDesk) -> list[Any]:
    """The tournament's teacher handlers, for the application (the learners' requests are the tables')."""
    d = {"desk": desk}
    return [(r"/krypteach/teacher/tournament", TournamentPageHandler, d),
            (r"/krypteach/teacher/tournament/state", TournamentStateHandler, d),
            (r"/krypteach/teacher/tournament/start", TournamentStartHandler, d),
            (r"/krypteach/teacher/tournament/end", TournamentEndHandler, d),
            (r"/krypteach/teacher/tournament\.csv", TournamentCsvHandler, d)]
