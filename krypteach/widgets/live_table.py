"""``LiveTable``: play a parti against classmates at one table of the served class (issue 24).

The giv is held by the server (:mod:`krypteach.serve.tables`); this widget, in the learner's own
kernel, is sent only its seat's view (its hand, the table, the moves made, its legal moves in its
turn) and sends its seat's moves back through :class:`~krypteach.classroom.live.Link`. So the
widget holds no game: the rules it shows come from the engine, on the position its seat sees
(which move the selection makes, why an illegal one is not allowed, a move in words), and the
server checks every move again.

A learner **opens** a table (for 2–6 players, of Krypkasino, Kasino or avig kasino: empty seats
are played by the computer), or **joins** one by the short code its opener reads out, or plays the
class **tournament**. The others' moves arrive as they are made (a long poll on the kernel's event
loop); a page opened again comes back to the learner's seat. After each giv its scoring stays
beside the next one, with the coach's review of the learner's own moves in it.

Where there is no class server (JupyterLab, the static site) the widget says so in one line and
the page's game against the computer is there as before.

Tests drive it without a browser through the methods its buttons call: :meth:`~LiveTable.open_table`,
:meth:`~LiveTable.join`, :meth:`~LiveTable.select_hand`, :meth:`~LiveTable.select_table`,
:meth:`~LiveTable.play_selected`, :meth:`~LiveTable.choose`, :meth:`~LiveTable.review`,
:meth:`~LiveTable.sync` (what the long poll does when the table moves on).

>>> LiveTable(link=None).note.value != ""   # no class server: it says so
True
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..bots.review import Reviewer
from ..classroom.live import Link, LiveError
from ..classroom.session import current
from ..engine.builds import Build
from ..engine.cards import Card
from ..engine.game import LEARNER
from ..engine.games import describe, game_of
from ..engine.moves import Move
from ..engine.records import load_givar
from ..engine.rules import Rules
from ..i18n import _, language, ngettext
from ..i18n.numbers import number
from ._ui import button, esc, message_html, message_text
from .background import running_loop
from .cards import CardRowWidget
from .game_table import TableRowWidget
from .inputs import Barrier
from .review_panel import ReviewPanel

__all__ = ["LiveTable"]

log = logging.getLogger("krypteach")

GAMES = (("Krypkasino", "krypkasino"), ("Kasino", "kasino"), ("avig kasino", "avig-kasino"))


class LiveTable(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """A seat at a table of the live class: see the module docstring. ``link`` (default: the
    signed-in learner's link to the class's server, once they are known) carries the requests."""

    def __init__(self, *, link: Link | bool | None = True) -> None:
        self._link: Link | None = None if link is True or link is False else link
        self._find_link = link is True  # the learner's own link, when the page has signed them in
        self.code: str | None = None
        self.seat_token: str | None = None
        self.view: dict[str, Any] | None = None
        self.message = ""
        self._poll: asyncio.Task[None] | None = None
        self._lobby_poll: asyncio.Task[None] | None = None
        self._reviewed = 0  # the giv whose review is shown

        self.title = widgets.HTML("<h3>" + esc(_("Play with the class (spela med klassen)")) + "</h3>")
        self.note = widgets.HTML("")
        self.players = widgets.Dropdown(options=[(str(n), n) for n in range(2, 7)], value=3,
                                        description=_("Players (spelare)"), style={"description_width": "initial"},
                                        layout=widgets.Layout(width="auto"))
        self.game = widgets.Dropdown(options=[(_(name), key) for name, key in GAMES], value="krypkasino",
                                     description=_("Game (spel)"), style={"description_width": "initial"},
                                     layout=widgets.Layout(width="auto"))
        self.open_button = button(_("Open a table"), "plus", "primary",
                                  _("Open a table: the others join it with its code, the computer plays empty seats"))
        # Open and Join read the menus and the code as last typed (Barrier)
        self.barrier = Barrier()
        self.open_button.on_click(lambda b: self.barrier.then(self.open_table))
        self.code_box = widgets.Text(placeholder=_("code"), description=_("Table code (bordets kod)"),
                                     style={"description_width": "initial"}, layout=widgets.Layout(width="16em"))
        self.join_button = button(_("Join"), "sign-in", tip=_("Sit down at the table with this code"))
        self.join_button.on_click(lambda b: self.barrier.then(self.join))
        self.tournament_button = button(_("Play the class tournament"), "trophy",
                                        tip=_("Play the tournament's next giv: everyone plays the same cards"))
        self.tournament_button.on_click(lambda b: self.play_tournament())
        self.tournament_button.layout.display = "none"  # while the teacher runs a class tournament
        self.next_button = button(_("Next tournament giv"), "trophy",
                                  tip=_("Play your next giv of the class tournament"))
        self.next_button.on_click(lambda b: self.play_tournament())
        self.next_button.layout.display = "none"
        self.lobby = widgets.HBox([self.players, self.game, self.open_button, self.code_box, self.join_button,
                                   self.tournament_button], layout=widgets.Layout(flex_flow="row wrap",
                                                                                   align_items="center"))
        self.lobby.add_class("kt-lobby")

        self.info = widgets.HTML("")
        self.status = widgets.HTML("")
        self.status.add_class("kt-status")
        self.hand_row = CardRowWidget(kind="hand", multiple=False, label=_("Your hand (handen)"),
                                      empty_text=_("no cards"))
        self.table_row = TableRowWidget(kind="table", multiple=True, label=_("Table (bordet)"),
                                        empty_text=_("empty table"))
        self.play_button = button(_("Play"), "play", "primary",
                                  _("Play the selected hand card and take the selected table cards"))
        self.play_button.on_click(lambda b: self.play_selected())
        self.hint_button = button(_("Hint"), "lightbulb-o", tip=_("Suggest a move and say why (your teacher allows "
                                                                 "hints at the tables)"))
        self.hint_button.on_click(lambda b: self.hint())
        self.hint_button.layout.display = "none"  # where the class allows hints at the tables
        self.options = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap"))
        self.feedback = widgets.HTML("")
        self.feedback.add_class("kt-feedback")
        self.moves_html = widgets.HTML("")
        self.moves_html.add_class("kt-log")
        self.last_html = widgets.HTML("")
        self.review_button = button(_("Review my moves (coach)"), "graduation-cap",
                                    tip=_("Which of your moves in the last giv cost you points, and why; try them again"))
        self.review_button.on_click(lambda b: self.review())
        self.review_view = ReviewPanel()
        self.review_view.layout.display = "none"
        self.leave_button = button(_("Leave the table"), "sign-out",
                                   tip=_("Stand up: the computer plays your seat until you come back"))
        self.leave_button.on_click(lambda b: self.leave())
        self.seat_box = widgets.VBox([self.info, self.status, self.hand_row, self.table_row,
                                      widgets.HBox([self.play_button, self.hint_button, self.leave_button,
                                                    self.next_button]),
                                      self.options,
                                      self.moves_html, self.last_html, self.review_button, self.review_view])
        self.seat_box.add_class("kt-live-seat")
        self.seat_box.layout.display = "none"
        self.hand_row.observe(lambda change: self._show_status(), names="selected")
        self.table_row.observe(lambda change: self._show_status(), names="selected")
        super().__init__([self.title, self.note, self.lobby, self.feedback, self.seat_box, self.barrier])
        self.add_class("kt-live")
        self._show_lobby()
        if self._find_link:
            current().listeners.append(self._session_changed)
            self._session_changed()

    # --- the link to the class's server ------------------------------------------------------
    @property
    def link(self) -> Link | None:
        if self._link is None and self._find_link:
            self._link = Link.for_session(current())
        return self._link

    def _session_changed(self) -> None:
        """The learner is known: their seat, if they sit at a table already (a page opened again)."""
        if self.code is not None or self.link is None:
            self._show_lobby()
            return
        self._show_lobby()
        try:
            found = self.link.post("tables", {"mine": True})
        except LiveError as e:
            self._say("error", str(e))
            return
        self.tournament_button.layout.display = "" if found.get("tournament") else "none"
        if found.get("code"):
            self._sat(found, _("Welcome back to table {code}: the game is as it stands.").format(code=found["code"]))

    def _show_lobby(self) -> None:
        served = self.link is not None
        if not served:
            self.note.value = "<p>" + esc(_("Tables where you play your classmates need the class's server "
                                            "(krypteach serve) and your nickname: here you play the computer "
                                            "above.")) + "</p>"
        else:
            self.note.value = "<p>" + esc(_("Open a table and tell the others its code, or type the code of a "
                                            "table to join it. The computer plays the empty seats.")) + "</p>"
        self.lobby.layout.display = "" if served and self.code is None else "none"
        if served and self.code is None:
            self._wait_for_seat()

    def _wait_for_seat(self) -> None:
        """Wait in the lobby, on the kernel's loop, for the teacher to seat the class (and hear
        whether a class tournament has begun); not in a unit test (:meth:`lobby_answer`)."""
        loop = running_loop()
        if loop is None or self._lobby_poll is not None or self.link is None:
            return
        self._lobby_poll = loop.create_task(self._lobby())

    async def _lobby(self) -> None:
        link = self.link
        try:  # a refusal (403, 404: nobody signed in, an older server) ends the wait: no lobby here
            if link is not None:
                await link.follow(lambda: ("tables/lobby", {"learner": link.token}), self.lobby_answer,
                                  going=lambda: self.code is None and self.link is not None,
                                  what="waiting in the tables' lobby")
        finally:
            self._lobby_poll = None

    def lobby_answer(self, answer: dict[str, Any]) -> None:
        """What the lobby said: the seat the teacher gave this learner, or whether a class
        tournament is under way."""
        if self.code is not None:
            return
        if answer.get("code"):
            self._sat(answer, _("Your teacher seated you at table {code}: the game begins.").format(code=answer["code"]))
        elif "tournament" in answer:
            self.tournament_button.layout.display = "" if answer["tournament"] else "none"

    # --- what the buttons do ------------------------------------------------------------------
    def open_table(self, players: int | None = None, game: str | None = None) -> None:
        """Open a table for ``players`` (default: the menu's) of ``game`` and sit down at it."""
        self._ask({"open": players or self.players.value, "game": game or self.game.value},
                  _("You opened table {code}: tell the others its code. The computer plays the empty seats "
                    "until they sit down."))

    def join(self, code: str | None = None) -> None:
        """Sit down at the table whose code is ``code`` (default: the one typed)."""
        code = (code if code is not None else self.code_box.value).strip().upper()
        if not code:
            self._say("info", _("Type the table's code first (its opener reads it out)."))
            return
        self._ask({"join": code}, _("You sit at table {code}."))

    def play_tournament(self) -> None:
        """Sit down at the class tournament's next giv (the teacher opens the tournament)."""
        self._ask({"tournament": True}, _("The tournament's giv at table {code}: everyone in the class plays "
                                          "these cards."))

    def _ask(self, data: dict[str, Any], said: str) -> None:
        if self.link is None:
            self._show_lobby()
            return
        try:
            answer = self.link.post("tables", data)
        except LiveError as e:
            self._say("error", str(e))
            return
        self._sat(answer, said.format(code=answer.get("code", "")))

    def _sat(self, answer: dict[str, Any], said: str) -> None:
        if self._lobby_poll is not None:  # sitting down: the lobby's wait is over
            self._lobby_poll.cancel()
            self._lobby_poll = None
        self.code, self.seat_token = str(answer["code"]), str(answer["seat_token"])
        self.lobby.layout.display = "none"
        self.seat_box.layout.display = ""
        self._show(answer["view"])
        self._say("info", said)
        self._listen()

    def leave(self) -> None:
        """Stand up: back to the lobby; the computer plays the seat after the teacher's delay."""
        if self.code is not None and self.link is not None and self.seat_token is not None:
            try:
                self.link.post(f"tables/{self.code}/away", {"seat": self.seat_token})
            except LiveError as e:
                log.info("krypteach: leaving table %s: %s", self.code, e)
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        tournament = self._tournament() is not None
        self.code = self.seat_token = None
        self.view = None
        self.seat_box.layout.display = "none"
        self._show_lobby()
        if tournament:  # the tournament's giv waits: the button brings the learner back to it
            self.tournament_button.layout.display = ""
            self._say("info", _("You left your tournament giv: Play the class tournament brings you back to it."))
            return
        self._say("info", _("You left the table. Its code lets you sit down at your seat again."))

    def select_hand(self, code: Card | str | None) -> None:
        self.hand_row.select([] if code is None else [Card(code)])

    def select_table(self, codes: Iterable[Card | Build | str]) -> None:
        self.table_row.select(list(codes))

    def _tournament(self) -> dict[str, Any] | None:
        """Which giv of the class tournament this table is ({"number", "of"}), or None."""
        about = (self.view or {}).get("about") or {}
        found = about.get("tournament") if isinstance(about, dict) else None
        return found if isinstance(found, dict) else None

    def _rules(self) -> Rules:
        assert self.view is not None
        return Rules.from_dict(self.view["rules"])

    def _names(self) -> list[str]:
        """The seats as this page names them: "You" for its own, the computer's for a bot's."""
        assert self.view is not None
        names = []
        for i, (name, bot) in enumerate(zip(self.view["names"], self.view["bots"], strict=True)):
            if i == self.view["seat"]:
                names.append(_(LEARNER))
            elif name is None:
                names.append(_("Computer {seat}").format(seat=i + 1))
            else:
                names.append(_("{name} (the computer plays)").format(name=name) if bot else str(name))
        return names

    def _matches(self) -> list[Move]:
        """The seat's legal moves that the selection makes (its hand card, exactly its table items)."""
        if self.view is None or not self.hand_row.selected_cards:
            return []
        game = game_of(self._rules())
        card = Card(self.hand_row.selected_cards[0])
        taken = sorted(game.table_cards(self.table_row.selected_items))
        legal = [Move.parse(m) for m in self.view["legal"]]
        return [m for m in legal if m.card == card and sorted(m.capture or ()) == taken]

    def play_selected(self) -> None:
        """Play the move the selection makes; when it makes several (classic Kasino: take, or build
        to a value), offer them to :meth:`choose`; an illegal one gets the engine's explanation."""
        v = self.view
        if v is None or self.code is None:
            self._say("info", _("Open a table or join one first."))
            return
        if v["turn"] != v["seat"]:
            self._say("info", _("Wait for your turn: {status}").format(status=self.status_text()))
            return
        if not self.hand_row.selected_cards:
            self._say("info", _("Select a card in your hand first (click it), then the table cards it takes."))
            return
        moves = self._matches()
        if len(moves) == 1:
            self.choose(moves[0])
            return
        if moves:
            self._offer(moves)
            return
        card = Card(self.hand_row.selected_cards[0])
        cards = game_of(self._rules()).table_cards(self.table_row.selected_items)
        game = game_of(self._rules())
        table, _flat = game.parse_table(v["table"])
        e = game.explain([Card(c) for c in v["hand"]], table, Move(card, cards or None), v["seat"])
        self._say("error", e.message)

    def hint(self) -> None:
        """Ask the class's server for a hint (where the class allows them): the move's cards are
        selected and the reason is said, as on the game page against the computer."""
        v = self.view
        if v is None or self.link is None or self.code is None:
            return
        if v["turn"] != v["seat"]:
            self._say("info", _("Wait for your turn: {status}").format(status=self.status_text()))
            return
        try:
            answer = self.link.post(f"tables/{self.code}/hint", {"seat": self.seat_token, "lang": language(),
                                                                   "names": self._names()})
        except LiveError as e:
            self._say("error", str(e))
            return
        move = Move.parse(str(answer.get("move", "")))
        game = game_of(self._rules())
        items, _flat = game.parse_table(v["table"])
        left, picked = list(move.capture or ()), []
        for item in items:  # the table items the move takes (a build is taken whole)
            cards = game.table_cards([item])
            if cards and all(c in left for c in cards):
                picked.append(str(item))
                for c in cards:
                    left.remove(c)
        self.select_hand(move.card)
        self.select_table(picked)
        self._say("info", _("Hint: {said}").format(said=str(answer.get("reason", ""))),
                  [_("The cards are selected for you: press Play to play it.")])

    def _offer(self, moves: Sequence[Move]) -> None:
        rules = self._rules()
        options = []
        for m in moves:
            b = button(describe(rules, m), "hand-o-right", tip=describe(rules, m))
            b.on_click(lambda _b, m=m: self.choose(m))
            options.append(b)
        self.options.children = options
        self._say("info", _("Your selection makes more than one move: choose one."))

    def choose(self, move: Move | str) -> None:
        """Send ``move`` for this seat (the server checks it again)."""
        self.options.children = []
        if self.view is None or self.link is None or self.code is None:
            return
        text = str(move)
        try:
            view = self.link.post(f"tables/{self.code}/move",
                                  {"seat": self.seat_token, "move": text, "version": self.view["version"]})
        except LiveError as e:
            self._say("error", str(e))
            self.sync()
            return
        self.hand_row.selected = []
        self.table_row.selected = []
        self._say("ok", _("You played: {move}.").format(move=describe(self._rules(), Move.parse(text))))
        self._show(view)

    def sync(self) -> None:
        """Take the table as it stands now (what the long poll does as soon as it moves on)."""
        if self.link is None or self.code is None:
            return
        try:
            self._show(self.link.get(f"tables/{self.code}", seat=self.seat_token, since=-1))
        except LiveError as e:
            self._say("error", str(e))

    def review(self) -> None:
        """The coach's review of this seat's moves in the last finished giv (its record came with the view)."""
        last = (self.view or {}).get("last")
        if not last:
            self._say("info", _("Finish a giv first: the coach reviews your moves in it."))
            return
        g = load_givar(last["record"])[0]
        seat = self.view["seat"] if self.view else 0
        self.review_view.open_giv(g, seat=seat, names=self._names(), review=Reviewer(seat).review(g))
        self.review_view.layout.display = ""
        self._reviewed = last["number"]

    # --- the table moving on ------------------------------------------------------------------
    def _listen(self) -> None:
        """Wait for the table to move on, on the kernel's loop (not in a unit test: :meth:`sync`)."""
        loop = running_loop()
        if loop is None or self._poll is not None:
            return
        self._poll = loop.create_task(self._follow())

    async def _follow(self) -> None:
        asked: list[str | None] = [None]  # the table each poll asked about (the learner may sit elsewhere)

        def ask() -> tuple[str, dict[str, Any]]:
            asked[0] = self.code
            return f"tables/{self.code}", {"seat": self.seat_token, "since": (self.view or {}).get("version", -1)}

        def answer(view: dict[str, Any]) -> None:
            if asked[0] == self.code and view.get("version", -1) >= (self.view or {}).get("version", -1):
                self._show(view)

        link = self.link
        try:
            refused = None if link is None else await link.follow(
                ask, answer, going=lambda: self.code is not None and self.link is not None,
                what="waiting for the table")
            if refused is not None:  # the table or the seat is gone (the server restarted)
                self._say("error", str(refused))
                self.code = None
                self.seat_box.layout.display = "none"
                self._show_lobby()
        finally:
            self._poll = None

    # --- view -----------------------------------------------------------------------------------
    def _show(self, view: dict[str, Any]) -> None:
        self.view = view
        names = self._names()
        rules = self._rules()
        mine = view["turn"] == view["seat"]
        seats = ", ".join(f"{n}" for n in names)
        tournament = self._tournament()
        if tournament is not None:
            self.info.value = "<p>" + esc(_("The class tournament, giv {number} of {of}, {game}: {seats}.").format(
                number=number(tournament["number"]), of=number(tournament["of"]), game=view["game"],
                seats=seats)) + "</p>"
        else:
            self.info.value = "<p>" + esc(_("Table {code}, {game}: {seats}.").format(
                code=view["code"], game=view["game"], seats=seats)) + "</p>"
        self.hand_row.cards = list(view["hand"])
        self.table_row.owner_names = names
        self.table_row.you = view["seat"]
        self.table_row.cards = list(view["table"])
        self.hand_row.selectable = self.table_row.selectable = mine
        self.play_button.disabled = not mine
        self.hint_button.layout.display = "" if view.get("hints") else "none"
        self.hint_button.disabled = not mine
        if not mine:
            self.options.children = []
        lines = [_("{who}: {move}").format(who=names[p], move=describe(rules, Move.parse(m)))
                 for p, m in view["moves"]]
        shown = "".join(f"<li>{esc(line)}</li>" for line in lines[-12:])
        self.moves_html.value = ("<p><b>" + esc(_("Moves of this giv")) + "</b></p><ol start='"
                                 + str(max(1, len(lines) - 11)) + f"'>{shown}</ol>") if lines else ""
        last = view.get("last")
        if last:
            scores = ", ".join(_("{who} {score}").format(who=n, score=number(s)) for n, s in zip(names, last["scores"]))
            totals = ", ".join(_("{who} {score}").format(who=n, score=number(s)) for n, s in zip(names, view["totals"]))
            text = _("Giv {number} is over. Its scores: {scores}. The parti so far: {totals}.").format(
                number=last["number"], scores=scores, totals=totals)
            if tournament is not None:
                text = _("Your tournament giv is over. Its scores: {scores}.").format(scores=scores)
            elif view.get("parti_over"):
                text += " " + _("The parti is over.")
            self.last_html.value = f"<div class='kt-msg kt-info' role='status'>{esc(text)}</div>"
        else:
            self.last_html.value = ""
        self.review_button.layout.display = "" if last else "none"
        more = tournament is not None and tournament["number"] < tournament["of"]
        self.next_button.layout.display = "" if more and view.get("parti_over") else "none"
        self._show_status()

    def status_text(self) -> str:
        v = self.view
        if v is None:
            return ""
        names = self._names()
        if v["turn"] is None:
            tournament = self._tournament()
            if tournament is not None:
                return _("Your tournament giv is over: press Next tournament giv.") \
                    if tournament["number"] < tournament["of"] else \
                    _("You have played every giv of the tournament: your teacher shows the standings.")
            return _("The giv is over: the next one is being dealt.") if not v.get("parti_over") else \
                _("The parti is over.")
        if v["turn"] != v["seat"]:
            who = names[v["turn"]]
            return _("{name} is playing…").format(name=who)
        picked = self.hand_row.selected_cards
        if not picked:
            return ngettext("Your turn: select a card in your hand ({n} legal move).",
                            "Your turn: select a card in your hand ({n} legal moves).", len(v["legal"])).format(
                n=len(v["legal"]))
        moves = self._matches()
        if len(moves) == 1:
            return _("{move}: press Play.").format(move=describe(self._rules(), moves[0]))
        if moves:
            return _("Your selection makes more than one move: press Play to choose.")
        return _("Select the table cards your card takes (none: it creeps or is laid out), then press Play.")

    def _show_status(self) -> None:
        self.status.value = f"<div role='status'>{esc(self.status_text())}</div>"

    def _say(self, kind: str, text: str, details: Sequence[str] = ()) -> None:
        self.message = message_text(text, details)
        self.feedback.value = message_html(kind, text, details)
