"""``ReplayViewer``: a recorded giv, move by move, every hand face up.

It opens a giv just played (the game page's "Replay this giv"), a record (one
line of a JSON Lines game record, ``docs/records.md``) or a whole record file
uploaded from the page, such as ``krypteach simulate --record`` writes; a file
with several givar offers a choice. The widget holds no rules: the record is
replayed by :mod:`krypteach.engine.records` (which refuses a record that breaks
a rule, with a message that names the line and the move), each step is a move
played or taken back by the :class:`~krypteach.Giv`, the words come from
:mod:`krypteach.teaching.narrate` and the table from :mod:`krypteach.views`.

Tests drive it through the methods the buttons call: :meth:`~ReplayViewer.to_start`,
:meth:`~ReplayViewer.back`, :meth:`~ReplayViewer.forward`, :meth:`~ReplayViewer.to_end`,
:meth:`~ReplayViewer.go`, :meth:`~ReplayViewer.open_file`.

>>> from krypteach import Giv
>>> g = Giv(seed=5)
>>> g.play_out(lambda g: g.legal_moves()[-1])
>>> viewer = ReplayViewer(g)
>>> viewer.step, viewer.steps == len(g.turns)
(0, True)
>>> viewer.forward(); viewer.step, viewer.giv.turns[0] == g.turns[0]
(1, True)
>>> viewer.open_file(b"not json")
False
>>> viewer.message
'the file: line 1: not valid JSON (Expecting value at column 1)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..engine.game import Giv
from ..engine.records import RecordError, giv_from_record, giv_to_record, parse_json
from ..i18n import _, ngettext
from ..teaching.narrate import describe_giv, seat_names, signed
from ..views import giv_html
from ._ui import button, esc, message_html, message_text

__all__ = ["MAX_UPLOAD_BYTES", "UPLOAD_NAMES", "ReplayViewer", "records_from_bytes"]

#: the largest record file the page may send (the server refuses WebSocket messages over 1 MiB)
MAX_UPLOAD_BYTES = 900 * 1024
#: the players' names in an uploaded record (computer players, none of them "You")
UPLOAD_NAMES = ("Ann", "Bo", "Cia", "Dag", "Eli", "Fia")


def records_from_bytes(data: bytes) -> list[tuple[dict[str, Any], Giv]]:
    """Every giv of a JSON Lines record file given as bytes, each as (record, replayed giv).

    Raises :class:`~krypteach.RecordError` with one message for a file that is empty,
    not UTF-8, not JSON Lines, of another format version or breaks a rule.

    >>> records_from_bytes(b"\\n\\n")
    Traceback (most recent call last):
    ...
    krypteach.engine.records.RecordError: the file is empty: a record file has one giv per line (JSON Lines)
    """
    out = []
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        where = _("line {n}").format(n=lineno)
        rec = parse_json(raw, where, RecordError)
        out.append((rec, giv_from_record(rec, where=where)))
    if not out:
        raise RecordError(_("the file is empty: a record file has one giv per line (JSON Lines)"))
    return out


def _start_of(rec: dict[str, Any]) -> Giv:
    """The giv of a (checked) record before its first move."""
    start = {k: v for k, v in rec.items() if k != "result"}
    start["moves"] = []
    return giv_from_record(start)


_CSS = """
.kt-replay { font-family: "DejaVu Sans", Arial, sans-serif; max-width: 1180px; }
.kt-replay .widget-html-content { line-height: 1.45; }
.kt-replay .kt-instruction { font-size: 14px; color: #333; margin: 2px 0 4px; }
.kt-replay .kt-replay-buttons { gap: 6px; margin: 4px 0; }
.kt-replay .kt-replay-buttons .jupyter-button { min-width: 96px; padding: 0 12px; }
.kt-replay .kt-replay-counter { margin-left: 10px; font-size: 14px; }
.kt-replay .kt-msg { border-radius: 8px; padding: 8px 12px; font-size: 14px; line-height: 1.5;
  border-left: 5px solid #1f5fbf; background: #eef3fb; color: #222; }
.kt-replay .kt-msg.kt-error { border-left-color: #c8102e; background: #fdeeee; }
.kt-replay .kt-replay-board { max-width: 100%; overflow-x: auto; }
.kt-replay .kt-replay-bottom { gap: 14px; }
.kt-replay .kt-scores { max-width: 100%; overflow-x: auto; }
.kt-replay .kt-scores table { border-collapse: collapse; font-size: 13px; }
.kt-replay .kt-scores th, .kt-replay .kt-scores td { border-bottom: 1px solid #e4e0d4; padding: 2px 6px;
  text-align: right; white-space: nowrap; }
.kt-replay .kt-scores th:first-child, .kt-replay .kt-scores td:first-child { text-align: left; }
.kt-replay .kt-scores th { white-space: normal; vertical-align: bottom; line-height: 1.2; }
.kt-replay .kt-replay-moves { max-height: 260px; overflow-y: auto; font-size: 13px; border: 1px solid #e0dccf;
  border-radius: 8px; padding: 4px 10px; background: #fff; }
.kt-replay .kt-replay-moves ol { margin: 0; padding-left: 28px; }
.kt-replay .kt-replay-moves li.kt-now { font-weight: 700; background: #fff3cf; }
"""


class ReplayViewer(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """A recorded giv, step by step: the table, every hand face up, each move in words
    and the score as it builds.

    ``source`` is a finished :class:`~krypteach.Giv` or a record (a dict, one line of a
    record file); ``names`` are the players' names (default: You, Bea, … for a giv,
    :data:`UPLOAD_NAMES` for an uploaded file); ``upload`` shows the button that opens a
    record file. ``step`` is how many moves have been played, ``giv`` the giv after them.
    """

    def __init__(self, source: Giv | dict[str, Any] | None = None, *, names: Sequence[str] | None = None,
                 upload: bool = True, title: str | None = None) -> None:
        self._names = list(names) if names else None
        self._records: list[tuple[dict[str, Any], Giv]] = []  # the open file's givar
        self._full: Giv | None = None    # the whole recorded giv
        self._giv: Giv | None = None     # the same giv after `step` moves
        self._lines: list[str] = []
        self._filename = _("the file")
        self._syncing = False
        self.message = ""
        if title is None:
            title = _("Replay a giv (repris)")
        self.title = widgets.HTML(f"<style>{_CSS}</style><h3>{esc(title)}</h3>")
        self.title.add_class("kt-title")
        self.upload = widgets.FileUpload(accept=".jsonl,.ndjson,.json,.txt", multiple=False,
                                         description=_("Open a record file (öppna)"),
                                         layout=widgets.Layout(width="auto", flex="0 0 auto"))
        self.upload.observe(self._uploaded, names="value")
        self.upload.observe(self._upload_refused, names="error")
        self.upload_help = widgets.HTML(
            "<div class='kt-instruction'>"
            + _("A record file is JSON Lines, one giv per line: the <b>Download</b> links of the game above save "
                "one, and <code>krypteach simulate --record givar.jsonl</code> writes many. Files up to {kib} KiB "
                "(about 150 givar) can be opened: the server takes no larger message.").format(
                    kib=MAX_UPLOAD_BYTES // 1024)
            + "</div>")
        self.choice = widgets.Dropdown(options=[], description=_("Giv in the file"), style={"description_width": "initial"},
                                       layout=widgets.Layout(width="95%", max_width="640px", display="none"))
        self.choice.observe(lambda ch: self.choose(ch["new"]) if ch["new"] is not None else None, names="index")
        self.feedback = widgets.HTML("")
        self.feedback.add_class("kt-feedback")
        # the icons draw ⏮ ◀ ▶ ⏭ (Font Awesome ships with the page; not every font has those characters)
        self.start_button = button(_("Start (början)"), "fast-backward", tip=_("Back to the deal, before the first move"))
        self.back_button = button(_("Back (bakåt)"), "step-backward", tip=_("One move back"))
        self.forward_button = button(_("Forward (framåt)"), "step-forward", tip=_("The next move"))
        self.end_button = button(_("End (slutet)"), "fast-forward", tip=_("The end of the giv and its scoring"))
        self.start_button.on_click(lambda _: self.to_start())
        self.back_button.on_click(lambda _: self.back())
        self.forward_button.on_click(lambda _: self.forward())
        self.end_button.on_click(lambda _: self.to_end())
        self.slider = widgets.IntSlider(value=0, min=0, max=0, description=_("Move (drag)"), continuous_update=False,
                                        style={"description_width": "initial"}, layout=widgets.Layout(width="320px"))
        self.slider.observe(self._slid, names="value")
        self.counter = widgets.HTML("")
        self.counter.add_class("kt-replay-counter")
        bar = widgets.HBox([self.start_button, self.back_button, self.forward_button, self.end_button],
                           layout=widgets.Layout(flex_flow="row wrap"))
        bar.add_class("kt-replay-buttons")
        steps = widgets.HBox([self.slider, self.counter], layout=widgets.Layout(flex_flow="row wrap",
                                                                               align_items="center"))
        self.move_text = widgets.HTML("")
        self.move_text.add_class("kt-replay-move")
        self.move_text.add_class("kt-feedback")
        self.board = widgets.HTML("")
        self.board.add_class("kt-replay-board")
        self.scores = widgets.HTML("")
        self.scores.add_class("kt-scores")
        self.moves = widgets.HTML("")
        self.moves.add_class("kt-replay-moves")
        self.scores.layout = widgets.Layout(flex="0 1 auto", min_width="0", max_width="100%")
        self.moves.layout = widgets.Layout(flex="1 1 300px")
        bottom = widgets.HBox([self.scores, self.moves], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        bottom.add_class("kt-replay-bottom")
        self.controls = widgets.VBox([bar, steps, self.move_text, self.board, bottom])
        files = [widgets.HBox([self.upload]), self.upload_help, self.choice] if upload else []
        super().__init__([self.title, *files, self.feedback, self.controls])
        self.add_class("kt-replay")
        self.controls.layout.display = "none"
        if source is not None:
            self.open_giv(source, names=names)
        elif upload:
            self._say("info", _("Open a record file to replay one of its givar."))

    # --- what is open -----------------------------------------------------------
    @property
    def giv(self) -> Giv:
        """The replayed giv after :attr:`step` moves."""
        if self._giv is None:
            raise RuntimeError("no giv is open: open a giv, a record or a record file first")
        return self._giv

    @property
    def recorded(self) -> Giv:
        """The whole recorded giv (every move played)."""
        if self._full is None:
            raise RuntimeError("no giv is open: open a giv, a record or a record file first")
        return self._full

    @property
    def step(self) -> int:
        """How many moves of the giv are shown played."""
        return len(self._giv.turns) if self._giv is not None else 0

    @property
    def steps(self) -> int:
        """How many moves the giv has."""
        return len(self._full.turns) if self._full is not None else 0

    @property
    def names(self) -> list[str]:
        players = self._full.rules.players if self._full is not None else 2
        return seat_names(players, self._names)

    @property
    def givar_in_file(self) -> int:
        """How many givar the open file holds (0: no file is open)."""
        return len(self._records)

    def open_giv(self, source: Giv | dict[str, Any], *, names: Sequence[str] | None = None, label: str = "") -> bool:
        """Open a giv or one record (a dict) at its first move; a bad record gives the reader's message."""
        try:
            rec = giv_to_record(source) if isinstance(source, Giv) else source
            full = source if isinstance(source, Giv) else giv_from_record(rec)
            start = _start_of(rec)
        except RecordError as e:
            self._say("error", str(e))
            return False
        self._records = []
        if names is not None:
            self._names = list(names)
        self._show_file_choice()
        self._load(full, start)
        what = label or _("The giv")
        self._say("info", _("{what}: {summary}. Press Forward (framåt) to step through it.").format(
            what=what, summary=self._summary(full)))
        return True

    def open_file(self, data: bytes, filename: str | None = None) -> bool:
        """Open a record file's bytes (what uploading it does); its first giv is shown.

        A file that is not a record file gives one message and keeps what was open.
        ``filename`` names it in the messages (default: "the file", in the page's language)."""
        if filename is None:
            filename = _("the file")
        if len(data) > MAX_UPLOAD_BYTES:
            self._say("error", _("{file}: the file is too big ({size} KiB): at most {most} KiB can be opened "
                                 "here").format(file=filename, size=len(data) // 1024, most=MAX_UPLOAD_BYTES // 1024))
            return False
        try:
            records = records_from_bytes(data)
        except RecordError as e:
            self._say("error", f"{filename}: {e}")
            return False
        self._names = list(UPLOAD_NAMES)
        self._records = records
        self._filename = filename
        self._show_file_choice()
        self.choose(0)
        return True

    def choose(self, index: int) -> None:
        """Show giv number ``index`` (0-based) of the open file, at its first move."""
        if not 0 <= index < len(self._records):
            return
        rec, full = self._records[index]
        if len(self.choice.options) == len(self._records) and self.choice.index != index:
            self.choice.index = index  # (a file of one giv has no choice to show)
        self._load(full, _start_of(rec))
        many = (_("giv {n} of {total}").format(n=index + 1, total=len(self._records)) if len(self._records) > 1
                else _("its giv"))
        self._say("info", _("{file}: {which} — {summary}. Press Forward (framåt) to step through it.").format(
            file=self._filename, which=many, summary=self._summary(full)))

    # --- stepping ---------------------------------------------------------------
    def go(self, step: int) -> None:
        """Show the giv after ``step`` moves (clamped to 0…:attr:`steps`)."""
        if self._giv is None or self._full is None:
            return
        step = max(0, min(int(step), self.steps))
        g, turns = self._giv, self._full.turns
        while len(g.turns) > step:
            g.pop()
        while len(g.turns) < step:
            g.play(turns[len(g.turns)].move)
        self._refresh()

    def forward(self) -> None:
        """One move on."""
        self.go(self.step + 1)

    def back(self) -> None:
        """One move back."""
        self.go(self.step - 1)

    def to_start(self) -> None:
        """Back to the deal, before the first move."""
        self.go(0)

    def to_end(self) -> None:
        """To the end of the giv and its scoring."""
        self.go(self.steps)

    # --- the page ---------------------------------------------------------------
    def _uploaded(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        first = files[0]
        content = first["content"]
        data = content.tobytes() if isinstance(content, memoryview) else bytes(content)
        self.open_file(data, str(first.get("name") or _("the file")))
        self.upload.value = ()  # the kernel keeps no copy of the file

    def _slid(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self.go(change["new"])

    def _upload_refused(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self._say("error", change["new"])
            self.upload.error = ""  # so that the same refusal is told again next time

    def _show_file_choice(self) -> None:
        if len(self._records) > 1:
            self.choice.options = [_("giv {n}: {summary}").format(n=i + 1, summary=self._summary(g))
                                   for i, (_rec, g) in enumerate(self._records)]
            self.choice.layout.display = ""
        else:
            self.choice.options = []
            self.choice.layout.display = "none"

    def _summary(self, g: Giv) -> str:
        names = seat_names(g.rules.players, self._names)
        moves = ngettext("{n} move", "{n} moves", len(g.turns)).format(n=len(g.turns))
        if g.is_over:
            scores = " · ".join(f"{names[s]} {signed(v, plus=False)}" for s, v in enumerate(g.result.scores))
            return _("{n} players, {dealer} deals, {moves}, scores {scores}").format(
                n=g.rules.players, dealer=names[g.dealer], moves=moves, scores=scores)
        return _("{n} players, {dealer} deals, {moves} (not finished)").format(
            n=g.rules.players, dealer=names[g.dealer], moves=moves)

    def _load(self, full: Giv, start: Giv) -> None:
        self._full, self._giv = full, start
        self._lines = describe_giv(full, self.names)
        self._syncing = True
        try:
            self.slider.value = 0
            self.slider.max = len(full.turns)
        finally:
            self._syncing = False
        self.controls.layout.display = ""
        self._refresh()

    def _say(self, kind: str, text: str, details: Sequence[str] = ()) -> None:
        self.message = message_text(text, details)
        self.feedback.value = message_html(kind, text, details)

    def _refresh(self) -> None:
        g = self.giv
        step, steps = self.step, self.steps
        names = self.names
        if self.slider.value != step:
            self._syncing = True
            try:
                self.slider.value = step
            finally:
                self._syncing = False
        self.start_button.disabled = self.back_button.disabled = step == 0
        self.forward_button.disabled = self.end_button.disabled = step == steps
        self.counter.value = "<b>" + _("Move {step} of {steps}").format(step=step, steps=steps) + "</b>"
        if step == 0:
            leader = names[(g.turns[0].player if g.turns else g.turn)]
            # (said so that it reads right with "You" as the dealer or the first to play too)
            said = _("The deal: the dealer (givare) is {dealer}, the first to play is {leader}. Every hand is shown "
                     "face up.").format(
                dealer=names[g.dealer], leader=leader)
        else:
            said = _("Move {step}: {move}").format(step=step, move=self._lines[step - 1])
        self.move_text.value = f"<div class='kt-msg kt-info' role='status'>{esc(said)}</div>"
        self.board.value = giv_html(g, show="all", names=names, width=48)
        self._show_scores()
        items = "".join(
            f"<li value='{i + 1}'{' class=kt-now' if i == step - 1 else ''}>{esc(line)}</li>"
            for i, line in reversed(list(enumerate(self._lines[:step]))))
        self.moves.value = ("<div><b>" + _("Moves so far (newest first)") + "</b></div>"
                            + (f"<ol reversed>{items}</ol>" if items else
                               "<div><i>" + _("No moves yet.") + "</i></div>"))

    def _show_scores(self) -> None:
        g = self.giv
        r = g.rules
        running = g.running_result()
        head = "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in (_("Player"), _("Pile"), _("Card points"),
                                                               _("Tabbe marks"), _("Dukningar"), _("Score"))) + "</tr>"
        rows = [f"<tr><td>{esc(self.names[s])}</td><td>{len(g.piles[s])}</td><td>{running.card_points[s]}</td>"
                f"<td>{g.marks[s]}</td><td>{g.dukningar[s]}</td><td>{signed(running.scores[s], plus=False)}</td></tr>"
                for s in range(r.players)]
        if r.teams != "none":
            for t, score in enumerate(running.team_scores):
                members = "+".join(self.names[s] for s in r.team_members(t))
                team = _("Team {n} ({members})").format(n=t + 1, members=members)
                rows.append(f"<tr class='kt-total'><td colspan='5'>{esc(team)}</td>"
                            f"<td>{signed(score, plus=False)}</td></tr>")
        title = _("Scores (final)") if g.is_over else _("Scores after move {step} (lowest wins)").format(step=self.step)
        self.scores.value = f"<div><b>{title}</b></div><table>{''.join([head, *rows])}</table>"
