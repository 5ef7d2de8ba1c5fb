"""The teacher seats the class at tables in one click (issue 24): ``/krypteach/teacher/tables``.

A learner's game page (lesson 7) without a table waits in the lobby
(:class:`~krypteach.serve.tables.TableLobbyHandler`); this page lists the learners waiting and
the tables playing, and one button seats everyone waiting at tables for the number of players
and the game the teacher chooses (:meth:`~krypteach.serve.tables.TableRoom.seat_lobby`: a
random order, as few tables as hold them, sizes at most one apart, the class's bot in the
empty seats). Each waiting page is told its seat at once and shows its table. The page's live
part is fetched again every few seconds, so the teacher sees the learners arrive.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import urlencode

import tornado.web

from ..i18n import _, ngettext
from ..i18n.numbers import number
from ..play.table import TableError
from .pages import LIVE_STYLE, live_page
from .tables import GAMES, TableRoom
from .teacher_handlers import TeacherBase

__all__ = ["seating_handlers", "seating_live_html", "seating_page"]

#: the games' names as the pages write them (a game's own name is the same in both languages)
_GAME_NAMES = {"krypkasino": "Krypkasino", "kasino": "Kasino", "avig-kasino": "avig kasino"}


def _table_rows(room: TableRoom) -> str:
    rows = []
    for code, table in room.tables.items():
        if code in room.private:  # a tournament giv: the tournament's page shows those
            continue
        seats = ", ".join(name if name is not None else _("the computer") for name in table.names)
        if table.over:
            state = _("the parti is over")
        else:
            state = _("giv {number}").format(number=number(len(table.parti.givar)))
        rows.append(f"<tr><td class='code'>{escape(code)}</td><td>{escape(table.giv.game.title)}</td>"
                    f"<td>{escape(seats)}</td><td>{escape(state)}</td></tr>")
    if not rows:
        return "<p>" + escape(_("No table is open yet.")) + "</p>"
    head = "".join(f"<th scope='col'>{escape(h)}</th>" for h in (_("Table"), _("Game"), _("Seats"), _("Now")))
    return f"<table class='tables'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def seating_live_html(room: TableRoom) -> str:
    """The page's live part: who waits for a table, and the tables."""
    waiting = room.waiting()
    if waiting:
        said = ngettext("{n} learner waits for a table: {names}.", "{n} learners wait for a table: {names}.",
                        len(waiting)).format(n=number(len(waiting)), names=", ".join(name for _id, name in waiting))
    else:
        said = _("Nobody waits for a table: the learners open the game page (lesson 7), where they wait until "
                 "you seat them.")
    heading = escape(_("The tables"))
    return (f"<p class='state' role='status'><b>{escape(said)}</b></p>"
            f"<h2>{heading}</h2>{_table_rows(room)}")


def _seat_form(room: TableRoom, xsrf_form: str) -> str:
    players = "".join(f"<option value='{n}'{' selected' if n == 3 else ''}>{n}</option>" for n in range(2, 7))
    own = escape(_("The class’s game ({rules})").format(rules=room.rules.describe()))
    games = [f"<option value=''>{own}</option>"]
    games += [f"<option value='{key}'>{escape(_GAME_NAMES[key])}</option>" for key in GAMES]
    t = {k: escape(v) for k, v in (
        ("head", _("Seat the class")), ("players", _("Players at each table")), ("game", _("Game")),
        ("seat", _("Seat everyone waiting")),
        ("how", _("Everyone waiting is seated in a random order, at as few tables as hold them all, the tables' "
                  "sizes at most one apart; the computer plays the empty seats, and the seat of a learner whose "
                  "page is gone after the classroom file's delay.")))}
    return (f"<form class='seat' method='post' action='/krypteach/teacher/tables/seat'>{xsrf_form}"
            f"<h2>{t['head']}</h2>"
            f"<label>{t['players']} <select name='players'>{players}</select></label> "
            f"<label>{t['game']} <select name='game'>{''.join(games)}</select></label> "
            f"<button type='submit'>{t['seat']}</button><p class='note'>{t['how']}</p></form>")


_STYLE = LIVE_STYLE + """
table.tables{border-collapse:collapse;margin:.6rem 0;background:#fff;max-width:100%}
table.tables th,table.tables td{border:1px solid #c5cfc7;padding:.35rem .7rem;text-align:left}
td.code{font-family:ui-monospace,monospace;font-weight:700;letter-spacing:.1em}
form.seat{background:#fff;border:1px solid #c5cfc7;border-radius:.4rem;padding:.6rem 1rem;margin:1rem 0}
form.seat label{margin-right:1rem;display:inline-block;margin-bottom:.4rem}
.done{color:#1d5a2a;font-weight:700}
"""

_SCRIPT = """
(function () {
  const live = document.getElementById("live");
  async function again() {
    try {
      const r = await fetch("tables/state", { credentials: "same-origin", cache: "no-store" });
      if (r.ok) { const j = await r.json(); if (j.html !== live.innerHTML) live.innerHTML = j.html; }
    } catch (e) { /* the next look tries again */ }
    setTimeout(again, 2000);
  }
  setTimeout(again, 2000);
})();
"""


def seating_page(room: TableRoom, xsrf_form: str, error: str = "", done: str = "") -> str:
    """The teacher's tables page, in the current language."""
    said = (f"<p class='error' role='alert'>{escape(error)}</p>" if error else "") + \
        (f"<p class='done' role='status'>{escape(done)}</p>" if done else "")
    return live_page(_("Tables for the class"), seating_live_html(room), _seat_form(room, xsrf_form), _STYLE, _SCRIPT,
                     said=said)


class _RoomTeacher(TeacherBase):
    def initialize(self, room: TableRoom) -> None:
        self.room = room


class SeatingPageHandler(_RoomTeacher):
    def get(self) -> None:
        if self._teacher():
            self.set_header("Cache-Control", "no-store")
            self.finish(seating_page(self.room, self.xsrf_form_html(), self.get_argument("error", "")[:300],
                                     self.get_argument("done", "")[:300]))


class SeatingStateHandler(_RoomTeacher):
    def get(self) -> None:
        if not self._is_teacher():
            raise tornado.web.HTTPError(403, "the teacher's tables")
        self.set_header("Cache-Control", "no-store")
        self.finish({"html": seating_live_html(self.room), "waiting": len(self.room.waiting())})


class SeatingSeatHandler(_RoomTeacher):
    def post(self) -> None:
        if not self._teacher():
            return
        text = self.get_argument("players", "").strip()
        game = self.get_argument("game", "").strip() or None
        try:
            if not (text.isascii() and text.isdigit() and 2 <= int(text) <= 6):
                raise TableError(_("choose the players at each table: 2 to 6"))
            self.room.start()
            tables = self.room.seat_lobby(int(text), game)
        except TableError as e:
            self.redirect("/krypteach/teacher/tables?" + urlencode({"error": str(e)[:300]}))
            return
        seated = sum(len(self.room.learners.get(t.code, {})) for t in tables)
        done = ngettext("{n} learner is seated. Tables: {tables}.", "{n} learners are seated. Tables: {tables}.",
                        seated).format(n=number(seated), tables=", ".join(t.code for t in tables))
        self.redirect("/krypteach/teacher/tables?" + urlencode({"done": done}))


def seating_handlers(room: TableRoom) -> list[Any]:
    """The teacher's tables page, for the application (the learners' requests are the tables')."""
    r = {"room": room}
    return [(r"/krypteach/teacher/tables", SeatingPageHandler, r),
            (r"/krypteach/teacher/tables/state", SeatingStateHandler, r),
            (r"/krypteach/teacher/tables/seat", SeatingSeatHandler, r)]
