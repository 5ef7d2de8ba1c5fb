"""``GameTable``: play a parti, giv after giv, against computer opponents.

Seat 0 is "You"; the opponents (Bea, Dan, Eva, Kim, Ola) are bots from
:data:`krypteach.bots.BOT_LEVELS`. The widget holds no rules: the
:class:`~krypteach.Giv` checks every move and explains illegal ones, the bots
choose theirs, :mod:`krypteach.teaching.narrate` words the log and the scoring.
The givar belong to a :class:`~krypteach.Parti`: its running protocol (each
giv's scores and the totals, as lesson 6 shows it) stands beside the table,
**New giv** deals the parti's next giv (the dealer moves one seat left, the
scores carry on) and **New parti** starts again from zero. A finished giv can
be downloaded as a game record (``docs/records.md``), the whole parti too, and
replayed move by move (:class:`~krypteach.widgets.replay.ReplayViewer`).

Tests drive it without a browser through exactly the methods the buttons
call: :meth:`~GameTable.select_hand`, :meth:`~GameTable.select_table`,
:meth:`~GameTable.play_selected`, :meth:`~GameTable.hint`,
:meth:`~GameTable.undo`, :meth:`~GameTable.new_giv`, :meth:`~GameTable.new_parti`,
:meth:`~GameTable.replay_giv`.

>>> t = GameTable(seed=1)
>>> t.giv.turn
0
>>> move = t.giv.legal_moves()[0]
>>> t.select_hand(move.card); t.select_table(move.capture or []); t.play_selected()
>>> t.giv.turns[0].move == move and t.giv.turn == 0
True
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Sequence

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..bots import BOT_LEVELS, make_bot, suggest
from ..classroom.session import current
from ..engine.cards import Card
from ..engine.game import Giv, Parti
from ..engine.moves import IllegalMoveError, Move, describe_cards
from ..engine.rules import Rules
from ..engine.scoring import point_breakdown, score_giv
from ..teaching.narrate import DEFAULT_NAMES, describe_giv, describe_result, signed, tabbe_pa_text
from ..views import hand_html, stack_svg
from ..views.downloads import records_download_html
from ._ui import button, esc, message_html, message_text
from .cards import CardRowWidget
from .replay import ReplayViewer
from .rules_picker import RulesPicker

__all__ = ["GameTable"]

YOU = 0


def _times(count: int, points: int) -> str:
    """``"1 × −5 = −5"``, or ``"0"``."""
    return f"{count} × {signed(points, plus=False)} = {signed(count * points, plus=False)}" if count else "0"


def _offered_levels() -> list[str]:
    """The computer players offered: every level, or those the classroom file names."""
    levels = list(BOT_LEVELS)
    wanted = [b.strip() for b in os.environ.get("KRYPTEACH_GAME_BOTS", "").split(",") if b.strip() in levels]
    return wanted or levels


class GameTable(widgets.VBox):
    """A parti of Krypkasino against bots, 2–6 players.

    Parameters: ``rules`` (default :class:`Rules`), ``seed`` (deals and bots
    replay exactly), ``bot`` (a level of :data:`BOT_LEVELS`), ``names``.
    ``parti`` is the :class:`~krypteach.Parti` being played, ``giv`` its current
    :class:`~krypteach.Giv`; ``message`` the last feedback as plain text; ``log``
    the moves in words.
    """

    def __init__(self, rules: Rules | None = None, *, seed: int | None = None, bot: str | None = None,
                 names: Sequence[str] | None = None, four_color: bool = False) -> None:
        self._rng = random.Random(seed)
        self._names = list(names) if names else list(DEFAULT_NAMES)
        self.message = ""
        self._parti: Parti | None = None  # (None only while the widget is being built)
        self._log: list[tuple] = []  # (turn, its line in words) for the current giv
        self._recorded: set[int] = set()  # givar whose score is in the learner's progress
        if rules is None and os.environ.get("KRYPTEACH_GAME_RULES"):  # the classroom file's preset
            rules = Rules.preset(os.environ["KRYPTEACH_GAME_RULES"])

        levels = _offered_levels()
        default = bot if bot in levels else "careful" if "careful" in levels else levels[0]
        self.bot_level = widgets.Dropdown(options=levels, value=default,
                                          description="Computer players (datorspelare)",
                                          style={"description_width": "20em"},
                                          layout=widgets.Layout(width="34em"))
        self.bot_level.observe(lambda _: self._make_bots(), names="value")
        self.picker = RulesPicker(rules or Rules())
        self.picker.on_change(self._rules_changed)
        self.rules_note = widgets.HTML("<i>Changed rules start a new parti with the next giv (press New giv or New parti).</i>")

        self.title = widgets.HTML("<h3>Play a giv (spela en giv)</h3>")
        self.title.add_class("kt-title")
        self.status = widgets.HTML("")
        self.status.add_class("kt-status")
        self.opponents = widgets.HTML("")
        self.table_row = CardRowWidget(kind="table", multiple=True, label="Table (bordet)",
                                       empty_text="empty table", four_color=four_color)
        self.side = widgets.HTML("")
        self.side.add_class("kt-side")
        felt = widgets.HBox([self.table_row, self.side],
                            layout=widgets.Layout(justify_content="space-between", align_items="flex-start",
                                                  flex="1 1 420px"))
        felt.add_class("kt-felt")
        self.table_row.layout = widgets.Layout(flex="1 1 auto")
        self.protocol = widgets.HTML("")
        self.protocol.add_class("kt-protocol")
        self.protocol.layout = widgets.Layout(flex="0 1 auto")
        beside = widgets.HBox([felt, self.protocol], layout=widgets.Layout(flex_flow="row wrap",
                                                                          align_items="flex-start"))
        beside.add_class("kt-beside")
        self.hand_row = CardRowWidget(kind="hand", multiple=False, label="Your hand (handen)",
                                      empty_text="no cards", four_color=four_color)
        self.mine = widgets.HTML("")
        self.play_button = button("Play", "play", "primary", "Play the selected hand card and take the selected table cards")
        self.hint_button = button("Hint", "lightbulb-o", tip="What would a good player do?")
        self.undo_button = button("Undo", "undo", tip="Take back your last move (and the computer's moves after it)")
        self.new_button = button("New giv", "refresh", tip="Deal the parti's next giv (ny giv): the next dealer deals")
        self.new_parti_button = button("New parti", "repeat", tip="Start a new parti (nytt parti): scores from zero")
        self.play_button.on_click(lambda _: self.play_selected())
        self.hint_button.on_click(lambda _: self.hint())
        self.undo_button.on_click(lambda _: self.undo())
        self.new_button.on_click(lambda _: self.new_giv())
        self.new_parti_button.on_click(lambda _: self.new_parti())
        bar = widgets.HBox([self.play_button, self.hint_button, self.undo_button, self.new_button,
                            self.new_parti_button])
        bar.add_class("kt-buttons")
        # after a giv: replay it, download it (outside .kt-buttons: "Replay" is not the Play button)
        self.replay_button = button("Replay this giv", "film", tip="Step through the giv just played, every hand face up")
        self.replay_button.on_click(lambda _: self.replay_giv())
        self.downloads = widgets.HTML("")
        self.downloads.add_class("kt-downloads")
        after = widgets.HBox([self.replay_button, self.downloads],
                             layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        after.add_class("kt-after")
        self.after = after
        self.replay_view = ReplayViewer(upload=False, title="Replay this giv (repris)")
        self.replay_view.layout.display = "none"
        self.feedback = widgets.HTML("")
        self.feedback.add_class("kt-feedback")
        self.final = widgets.HTML("")
        self.scores = widgets.HTML("")
        self.scores.add_class("kt-scores")
        self.log_html = widgets.HTML("")
        self.log_html.add_class("kt-log")
        bottom = widgets.HBox([self.scores, self.log_html], layout=widgets.Layout(align_items="flex-start"))
        bottom.add_class("kt-bottom")
        self.scores.layout = widgets.Layout(flex="0 0 auto")
        self.log_html.layout = widgets.Layout(flex="1 1 auto")
        settings = widgets.VBox([self.bot_level, self.rules_note, self.picker])
        self.settings = widgets.Accordion(children=[settings], titles=("Rules / regler",), selected_index=None)

        self.hand_row.observe(self._selection_changed, names="selected")
        self.table_row.observe(self._selection_changed, names="selected")
        super().__init__([self.title, self.status, self.opponents, beside, widgets.HBox([self.hand_row, self.mine]),
                          bar, self.feedback, self.final, after, bottom, self.replay_view, self.settings])
        self.add_class("kt-game")
        self.new_parti()

    # --- properties ---------------------------------------------------------
    @property
    def parti(self) -> Parti:
        """The parti being played (:class:`~krypteach.Parti`): its givar and protocol."""
        if self._parti is None:
            raise RuntimeError("the game table has no parti yet: it starts one when it is built")
        return self._parti

    @property
    def giv(self) -> Giv:
        """The giv on the table (:class:`~krypteach.Giv`), the parti's current giv."""
        return self.parti.giv

    @property
    def rules(self) -> Rules:
        """The rules of the current parti; setting them starts a new parti with them."""
        return self._parti.rules if self._parti is not None else self.picker.rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self.picker.rules = rules
        self.new_parti()

    @property
    def names(self) -> list[str]:
        n = self.picker.rules.players if self._parti is None else self._parti.rules.players
        spare = [name for name in DEFAULT_NAMES[1:] if name not in self._names]  # players are named, never numbered
        return (self._names + spare)[:n]

    @property
    def log(self) -> list[str]:
        """Every move of the giv so far, in words (described once per move, kept while it stands)."""
        turns = self.giv.turns
        keep = 0
        while keep < min(len(turns), len(self._log)) and self._log[keep][0] is turns[keep]:
            keep += 1
        new = describe_giv(self.giv, self.names, start=keep)
        self._log = self._log[:keep] + list(zip(turns[keep:], new))
        return [line for _, line in self._log]

    # --- what the buttons do --------------------------------------------------
    def select_hand(self, code: Card | str | None) -> None:
        """Select a card of your hand by code (what clicking it does)."""
        self.hand_row.select([] if code is None else [Card(code)])

    def select_table(self, codes: Iterable[Card | str]) -> None:
        """Select table cards by code (what clicking them does)."""
        self.table_row.select([Card(c) for c in codes])

    def play_selected(self) -> None:
        """Play the selected hand card, capturing the selected table cards (none: creep).

        The giv judges the move; an illegal one shows the engine's explanation.
        Then the computer players move until it is your turn or the giv is over.
        """
        g = self.giv
        if g.is_over:
            self._say("info", f"The giv is over. {self._next_step()}")
            return
        hand = self.hand_row.selected_cards
        if not hand:
            self._say("info", "Select a card in your hand first (click it), then the table cards it takes.")
            return
        taken = [Card(c) for c in self.table_row.selected_cards]
        move = Move(Card(hand[0]), taken or None)
        try:
            g.play(move)
        except IllegalMoveError as e:
            text = e.explanation.message if e.explanation is not None else str(e)
            self._say("error", text)
            # the learner's progress: the rule a move in a game broke (for the teacher's page)
            current().record("game", "giv", correct=False,
                             rule=e.explanation.rule if e.explanation is not None else "illegal")
            return
        start = len(g.turns) - 1
        self.hand_row.selected = []
        self.table_row.selected = []
        self._refresh()
        self._bots_move()
        lines = self.log[start:]
        self._say("ok" if not g.is_over else "info", lines[0], lines[1:])
        self._refresh()
        if g.is_over and id(g) not in self._recorded:  # the learner's progress: a giv played, its score
            self._recorded.add(id(g))
            current().record("giv", "giv", score=g.result.scores[YOU])

    def hint(self) -> None:
        """Suggest a move (krypteach.bots.suggest) and select its cards."""
        g = self.giv
        if g.is_over:
            self._say("info", f"The giv is over. {self._next_step()}")
            return
        move, reason = suggest(g.observation(YOU))
        self.hand_row.select([move.card])
        self.table_row.select(move.capture or [])
        self.table_row.hinted = list(self.table_row.selected)
        said = reason if move.describe() in reason else f"{move.describe()}. {reason}"
        self._say("info", f"Hint: {said}", ["The cards are selected for you: press Play to play it."])

    def undo(self) -> None:
        """Take back your last move and every computer move after it."""
        g = self.giv
        if not any(t.player == YOU for t in g.turns):
            self._say("info", "Nothing to undo: you have not moved yet in this giv.")
            return
        undone = 0
        while True:
            t = g.pop()
            undone += 1
            if t.player == YOU:
                break
        self.hand_row.selected = []
        self.table_row.selected = []
        others = undone - 1
        what = "creep" if t.move.capture is None else f"taking {describe_cards(t.move.capture)}"
        after = "" if not others else " and the computer's move after it" if others == 1 else \
            f" and the {others} computer moves after it"
        self._say("info", f"Took back your {t.move.card.symbol} ({what}){after}. Your turn again.")
        self._refresh()

    def new_giv(self) -> None:
        """Deal the parti's next giv: the dealer moves one seat left and the scores carry on.

        The current giv must be over. When the parti is over, or the rules in the
        picker have changed, a new parti starts instead (and says so)."""
        if self._parti is None or self.picker.rules != self._parti.rules:
            self.new_parti("The rules changed, so a new parti starts (scores from zero). ")
            return
        p = self._parti
        if not p.giv.is_over:
            self._say("info", "Finish this giv first: the protocol adds up whole givar. "
                      "Or press New parti to start again from zero.")
            return
        if p.is_over:
            self.new_parti(f"The parti was over ({self._parti_winners()} won), so a new parti starts. ")
            return
        p.next_giv()
        self._start_giv()

    def new_parti(self, why: str = "") -> None:
        """Start a new parti with the rules chosen in the picker: the protocol starts from
        zero, and the seat left of the first dealer (you) leads the first giv."""
        rules = self.picker.rules
        self._parti = Parti(rules, seed=self._rng.getrandbits(32), first_dealer=rules.players - 1)
        self.rules_note.value = "<i>Changed rules start a new parti with the next giv (press New giv or New parti).</i>"
        self._start_giv(why + f"New parti of {rules.givar_count} givar. ")

    def replay_giv(self) -> None:
        """Open the finished giv in the replay below the table, at its first move."""
        g = self.giv
        if not g.is_over:
            self._say("info", "Finish the giv first: a replay shows every hand face up.")
            return
        number = len(self.parti.givar)
        self.replay_view.open_giv(g, names=self.names, label=f"Giv {number} of the parti")
        self.replay_view.layout.display = ""
        self._say("info", f"Giv {number} is open in the replay under the moves: step through it with Forward (framåt).")

    def _start_giv(self, prefix: str = "") -> None:
        self._log = []
        self.replay_view.layout.display = "none"
        n = self.giv.rules.players
        dealer_seat = self.giv.dealer
        self._refresh_levels()
        self._make_bots()
        self.hand_row.selected = []
        self.table_row.selected = []
        self.final.value = ""
        start = len(self.giv.turns)
        self._bots_move()
        lines = self.log[start:]
        dealer = self.names[dealer_seat]
        leader = self.names[(dealer_seat + 1) % n]
        number = len(self.parti.givar)
        first = (f"{prefix}Giv {number} of {self.parti.rules.givar_count}: {dealer} "
                 f"{'deal' if dealer_seat == YOU else 'deals'} (givare); "
                 f"{leader} {'lead' if leader == self.names[YOU] else 'leads'}.")
        self._say("info", first, lines)
        self._refresh()

    def _next_step(self) -> str:
        """What to press after a giv."""
        if self.parti.is_over:
            return "The parti is over: press New parti to play another."
        return "Press New giv to play the parti's next giv."

    def _parti_winners(self) -> str:
        p = self.parti
        r = p.rules
        if r.teams != "none":
            return " and ".join(f"team {t + 1} ({'+'.join(self.names[s] for s in r.team_members(t))})"
                                for t in p.result.winners)
        return " and ".join(self.names[s] for s in p.result.winners)

    # --- computer players -----------------------------------------------------
    def _refresh_levels(self) -> None:
        levels = _offered_levels()  # read at run time: levels may be added after import
        if list(self.bot_level.options) != levels:
            keep = self.bot_level.value if self.bot_level.value in levels else levels[0]
            self.bot_level.options = levels
            self.bot_level.value = keep

    def _make_bots(self) -> None:
        if self._parti is None:
            return
        level = self.bot_level.value
        self.bots = {s: make_bot(level, seed=self._rng.getrandbits(32)) for s in range(1, self.giv.rules.players)}

    def _bots_move(self) -> None:
        g = self.giv
        while not g.is_over and g.turn != YOU:
            bot = self.bots[g.turn]
            g.play(bot.choose(g.observation(g.turn)))
            self._refresh()

    def _rules_changed(self, rules: Rules) -> None:
        if self._parti is not None and rules != self._parti.rules:
            self.rules_note.value = "<b>Changed rules start a new parti with the next giv: press New giv or New parti.</b>"

    # --- view -------------------------------------------------------------------
    def _say(self, kind: str, text: str, details: Sequence[str] = ()) -> None:
        self.message = message_text(text, details)
        self.feedback.value = message_html(kind, text, details)

    def _selection_changed(self, change=None) -> None:
        self.table_row.hinted = [i for i in self.table_row.hinted if i in self.table_row.selected]
        self._show_status()

    def status_text(self) -> str:
        """What the status line says: whose turn, and what the selected card will do."""
        g = self.giv
        if g.is_over:
            return f"The giv is over — the scoring is below. {self._next_step()}"
        if g.turn != YOU:
            return f"{self.names[g.turn]} is playing…"
        picked = self.hand_row.selected_cards
        if not picked:
            return "Your turn: select a card in your hand."
        card = Card(picked[0])
        moves = [m for m in g.legal_moves() if m.card == card]
        if not moves:
            return g.explain(Move(card), self.names).message
        if len(moves) == 1 and moves[0].capture is None:
            return g.explain(moves[0], self.names).message + " Press Play to creep."
        captures = [m for m in moves if m.capture is not None]
        if len(captures) == 1 and len(moves) == 1:
            e = g.explain(captures[0], self.names)
            return f"Your {card.symbol} must capture: {e.message} Select those table cards, then press Play."
        options = "; or ".join(g.explain(m, self.names).message.rstrip(".") for m in captures)
        tail = " It may also creep (free capture rule)." if len(moves) > len(captures) else ""
        return f"Your {card.symbol} can capture in {len(captures)} ways: {options}.{tail} Select the cards, then press Play."

    def _show_status(self) -> None:
        self.status.value = f"<div role='status'>{esc(self.status_text())}</div>"
        hand, table = self.hand_row.selected_cards, self.table_row.selected_cards
        if not hand:
            self.play_button.description = "Play"
        elif not table:
            card = Card(hand[0])
            creep_ok = Move(card) in self.giv.legal_moves()
            self.play_button.description = f"Play {card.symbol}" + (": creep (krypa)" if creep_ok else "")
        else:
            self.play_button.description = (f"Play {Card(hand[0]).symbol}, take "
                                             f"{describe_cards([Card(c) for c in table])}")

    def _refresh(self) -> None:
        g = self.giv
        n = g.rules.players
        names = self.names
        over = g.is_over
        self.hand_row.cards = [str(c) for c in g.hands[YOU]]
        self.table_row.cards = [str(c) for c in g.table]
        self.hand_row.selectable = self.table_row.selectable = not over
        self.play_button.disabled = self.hint_button.disabled = over
        self.undo_button.disabled = not any(t.player == YOU for t in g.turns)
        parti_over = self.parti.is_over
        self.new_button.button_style = "success" if over and not parti_over else ""
        self.new_parti_button.button_style = "success" if parti_over else ""
        self.after.layout.display = "" if over else "none"
        self.downloads.value = self._downloads_html() if over else ""
        # opponents
        seats = []
        for s in range(1, n):
            tags = []
            if s == g.dealer:
                tags.append("dealer (givare)")
            if g.rules.teams != "none":
                tags.append("your partner" if g.rules.team_of(s) == g.rules.team_of(YOU)
                            else f"team {g.rules.team_of(s) + 1}")
            turn = not over and g.turn == s
            seats.append(
                f"<div class='kt-seat{' kt-to-play' if turn else ''}' data-seat='{s}'>"
                f"<div class='kt-seat-name'>{esc(names[s])}{' ▶' if turn else ''}</div>"
                f"<div>{esc(', '.join(tags))}</div>"
                + (hand_html(g.hands[s], width=28, face_down=True, overlap=0.55) if g.hands[s] else "")
                + f"<div>hand: {len(g.hands[s])} · pile: {len(g.piles[s])} cards</div>"
                f"<div>tabbe marks: {g.marks[s]} · dukningar: {g.dukningar[s]}</div></div>")
        self.opponents.value = f"<div class='kt-opponents'>{''.join(seats)}</div>"
        # beside the table
        pa = tabbe_pa_text(g.turns[-1].tabbe_pa) if g.turns and g.table and not over else None
        self.side.value = (
            f"<div title='klädda högen: face cards dealt to the table are set aside; the last capturer takes them'>"
            f"{stack_svg(len(g.kladda), width=48)}<div>klädda högen<br>(face cards set aside)</div></div>"
            f"<div style='margin-top:6px'>stock (talong): {g.stock_size} cards<br>"
            f"utdelning {g.deal_index} of {len(g.deals)}</div>"
            + (f"<div class='kt-announce' style='margin-top:6px;font-weight:700'>“{esc(pa)}”</div>" if pa else ""))
        mine = [f"<div><b>{esc(names[YOU])}</b>{' (dealer / givare)' if g.dealer == YOU else ''}</div>",
                f"<div>pile: {len(g.piles[YOU])} cards</div>",
                f"<div>tabbe marks: {g.marks[YOU]} · dukningar: {g.dukningar[YOU]}</div>"]
        self.mine.value = "<div style='font-size:13px;padding:28px 0 0 12px'>" + "".join(mine) + "</div>"
        self._show_scores()
        lines = self.log
        items = "".join(f"<li value='{i + 1}' class='{'kt-you' if g.turns[i].player == YOU else ''}'>{esc(line)}</li>"
                        for i, line in reversed(list(enumerate(lines))))
        self.log_html.value = ("<div><b>Moves (newest first)</b></div>"
                               + (f"<ol reversed>{items}</ol>" if items else "<div><i>No moves yet.</i></div>"))
        self.final.value = self._final_html() if over else ""
        self._show_protocol()
        self._show_status()

    def _show_protocol(self) -> None:
        """The parti's protocol (protokollet), in lesson 6's words: one row per giv, the totals."""
        p = self.parti
        r = p.rules
        names = self.names
        head = "".join(f"<th>{esc(n)}</th>" for n in names)
        rows = []
        for i, g in enumerate(p.givar):
            label = f"giv {i + 1} (dealer {esc(names[g.dealer])})"
            if g.is_over:
                cells = "".join(f"<td>{signed(s, plus=False)}</td>" for s in g.result.scores)
                rows.append(f"<tr><td>{label}</td>{cells}</tr>")
            else:
                cells = "".join("<td>…</td>" for _ in names)
                rows.append(f"<tr class='kt-playing'><td>{label}, playing</td>{cells}</tr>")
        for i in range(len(p.givar), r.givar_count):
            dealer = (p.first_dealer + i) % r.players
            cells = "".join("<td></td>" for _ in names)
            rows.append(f"<tr class='kt-to-come'><td>giv {i + 1} (dealer {esc(names[dealer])})</td>{cells}</tr>")
        total = "".join(f"<td><b>{signed(s, plus=False)}</b></td>" for s in p.totals)
        rows.append(f"<tr class='kt-total'><td><b>total</b></td>{total}</tr>")
        if r.teams != "none":
            for t in range(r.team_count):
                members = "+".join(names[s] for s in r.team_members(t))
                score = sum(p.totals[s] for s in r.team_members(t))
                rows.append(f"<tr class='kt-total'><td colspan='{r.players}'>team {t + 1} ({esc(members)})</td>"
                            f"<td><b>{signed(score, plus=False)}</b></td></tr>")
        if p.is_over:
            foot = f"<p><b>{esc(self._parti_winners())}</b> won the parti with the lowest total.</p>"
        else:
            foot = f"<p>{len(p.protocol)} of {r.givar_count} givar played; the lowest total wins the parti.</p>"
        self.protocol.value = (f"<div><b>The protocol (protokollet) of the parti</b></div>"
                               f"<div class='kt-scroll' tabindex='0' role='region' aria-label='The protocol'>"
                               f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table></div>{foot}")

    def _downloads_html(self) -> str:
        """Links that save the finished giv, and the parti's finished givar, as record files."""
        p = self.parti
        done = [g for g in p.givar if g.is_over]
        number = len(p.givar)
        links = [records_download_html([self.giv], f"giv-{number}.jsonl", f"Download giv {number} (giv-{number}.jsonl)",
                                       title="A game record: JSON Lines, one giv per line (docs/records.md)")]
        if len(done) > 1 or p.is_over:
            links.append(records_download_html(done, f"parti-{len(done)}-givar.jsonl",
                                               f"Download the parti's {len(done)} givar (parti-{len(done)}-givar.jsonl)",
                                               title="Every finished giv of this parti, one per line"))
        return "<span class='kt-download-links'>" + " · ".join(links) + "</span>"

    def _show_scores(self) -> None:
        g = self.giv
        r = g.rules
        n = r.players
        running = score_giv(r, g.piles, g.marks, g.dukningar, g.tabbar, None, ()) if not g.is_over else g.result
        head = ("<tr><th>Player</th><th>Pile</th><th>Card points</th><th>Tabbe marks</th>"
                "<th>Dukningar</th><th>Score</th></tr>")
        rows = [f"<tr><td>{esc(self.names[s])}</td><td>{len(g.piles[s])}</td><td>{running.card_points[s]}</td>"
                f"<td>{g.marks[s]}</td><td>{g.dukningar[s]}</td><td>{running.scores[s]}</td></tr>" for s in range(n)]
        if r.teams != "none":
            for t, score in enumerate(running.team_scores):
                members = "+".join(self.names[s] for s in r.team_members(t))
                rows.append(f"<tr class='kt-total'><td colspan='5'>Team {t + 1} ({esc(members)})</td><td>{score}</td></tr>")
        title = "Scores (final)" if g.is_over else "Scores so far (lowest wins)"
        # a wide table scrolls in its own box on a phone; the box takes the keyboard's focus, so it scrolls by keys too
        self.scores.value = (f"<div><b>{title}</b></div><div class='kt-scroll' tabindex='0' role='region' "
                             f"aria-label='{title}'><table>{head}{''.join(rows)}</table></div>")

    def _final_html(self) -> str:
        g = self.giv
        res = g.result
        r = g.rules
        names = self.names
        rows = []
        swept = list(res.aside_cards)
        for s in range(r.players):
            scoring = point_breakdown(g.piles[s])
            cards = ", ".join(f"{c.symbol} ({why} {p})" for c, p, why in scoring) or "none"
            rows.append(
                f"<tr><td>{esc(names[s])}</td><td class='kt-cards-cell'>{esc(cards)}</td>"
                f"<td>{res.card_points[s]}</td><td>{_times(res.marks[s], r.tabbe_points)}</td>"
                f"<td>{_times(res.dukningar[s], r.dukning_points)}</td><td><b>{signed(res.scores[s], plus=False)}</b></td></tr>")
        table = ("<table><tr><th>Player</th><th class='kt-cards-cell'>Cards that scored (card by card)</th><th>Card points</th>"
                 "<th>Tabbe marks</th><th>Dukningar</th><th>Total</th></tr>" + "".join(rows) + "</table>")
        if res.last_capturer is not None and swept:
            sweep_pts = point_breakdown(swept)
            sweep = (f"{names[res.last_capturer]} captured last and took the {len(swept)} cards left on the table "
                     f"and in klädda högen"
                     + (": " + ", ".join(f"{c.symbol} ({why} {p})" for c, p, why in sweep_pts) if sweep_pts
                        else " (none of them score)") + ".")
        else:
            sweep = ""
        lines = describe_result(res, names, piles=g.piles)
        summary = lines[-1]
        teams = [line for line in lines if line.startswith("Team ")]
        return (f"<div class='kt-final kt-scores' role='region' aria-label='Scoring of the giv'>"
                f"<div style='font-size:16px;font-weight:700'>Giv over — scoring (poängräkning)</div>"
                f"{table}<ul>" + (f"<li>{esc(sweep)}</li>" if sweep else "")
                + "".join(f"<li>{esc(t)}</li>" for t in teams)
                + f"<li><b>{esc(summary)}</b></li></ul>"
                f"<div>{self._next_step_html()}</div></div>")

    def _next_step_html(self) -> str:
        if self.parti.is_over:
            return (f"The parti is over: <b>{esc(self._parti_winners())}</b> won it with the lowest total "
                    "(see the protocol). Press <b>New parti</b> to play another.")
        return "Press <b>New giv</b> to play the next giv of the parti: the scores carry on in the protocol."
