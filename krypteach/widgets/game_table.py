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

Classic Kasino (``Rules(game="kasino")``, the presets ``kasino``, ``avig-kasino``,
``dragkasino``, …) is played on the same table: builds are drawn as one item each
(:class:`TableRowWidget`), and instead of **Play** the learner presses **Ta in**
(take the selected table cards and builds), **Bygg** (build on them, or raise the
selected build, to the value chosen among those the engine allows) or **Lägg**
(trail). The widget matches the selection to one of the engine's legal moves; an
illegal choice shows the engine's explanation. A computer level that cannot play
the rules (:func:`krypteach.bots.check_bot_rules`) is replaced by the random bot,
with a note.

Tests drive it without a browser through exactly the methods the buttons
call: :meth:`~GameTable.select_hand`, :meth:`~GameTable.select_table`,
:meth:`~GameTable.play_selected`, :meth:`~GameTable.hint`,
:meth:`~GameTable.undo`, :meth:`~GameTable.new_giv`, :meth:`~GameTable.new_parti`,
:meth:`~GameTable.replay_giv`, and for classic Kasino :meth:`~GameTable.take_selected`,
:meth:`~GameTable.build_selected` (:meth:`~GameTable.build_values`) and
:meth:`~GameTable.trail_selected`.

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
import time
from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]
import traitlets

from ..bots import BOT_LEVELS, BotError, check_bot_rules, make_bot, suggest
from ..bots.review import Reviewer
from ..classroom.flagged import PLACE as FLAGGED_PLACE
from ..classroom.flagged import keep_flagged
from ..classroom.session import current
from ..engine.builds import Build, build_total
from ..engine.cards import Card
from ..engine.game import Giv, Parti, Turn, shown_name
from ..engine.games import Game
from ..engine.games import describe as describe_move
from ..engine.moves import IllegalMoveError, Move, MoveParseError, describe_cards
from ..engine.records import dump_givar, load_givar
from ..engine.rules import Rules
from ..i18n import _, ngettext
from ..i18n.numbers import percent
from ..teaching.narrate import DEFAULT_NAMES, describe_giv
from ..views import card_svg
from ..views import game_table as view
from ..views.html import as_table_item, build_html
from ..views.svg import card_label, card_name
from ._ui import button, esc, level_options, message_html, message_text
from .background import Background
from .cards import CardRowWidget
from .inputs import Barrier
from .replay import ReplayViewer
from .review_panel import ReviewPanel
from .rules_picker import RulesPicker

__all__ = ["GameTable", "TableRowWidget"]

YOU = 0


def _offered_levels() -> list[str]:
    """The computer players offered: every level, or those the classroom file names."""
    levels = list(BOT_LEVELS)
    wanted = [b.strip() for b in os.environ.get("KRYPTEACH_GAME_BOTS", "").split(",") if b.strip() in levels]
    return wanted or levels


class TableRowWidget(CardRowWidget):
    """The table as a row of clickable items: loose cards and classic Kasino's builds.

    ``cards`` holds card codes and builds' text (``"[9:4S+5H@0]"``); a build is one
    item, drawn as a group (:func:`krypteach.views.html.build_html`) and selected whole.
    ``owner_names`` name the seats (whose a build is) and seat ``you`` reads "yours".

    >>> row = TableRowWidget(kind="table")
    >>> row.cards = ["7C", "[9:4S+5H@1]"]
    >>> row.select(["[9:4S+5H@1]"]); row.selected, row.selected_items
    ([1], [Build.parse('[9:4S+5H@1]')])
    >>> 'data-build="[9:4S+5H@1]"' in row.svgs[1] and 'role="button"' in row.svgs[1]
    True
    >>> row.row_label
    'table: 1 card, 1 build'
    """

    owner_names = traitlets.List(traitlets.Unicode())
    you = traitlets.Int(0)

    @traitlets.validate("cards")
    def _valid_cards(self, proposal: dict[str, Any]) -> list[str]:
        return [str(as_table_item(c)) for c in proposal["value"]]

    @traitlets.observe("owner_names", "you")
    def _owners_changed(self, change: dict[str, Any]) -> None:
        self._render()

    def indices_of(self, codes: Iterable[Card | Build | str | int]) -> list[int]:
        """Positions of table items (cards or builds) given by code or text."""
        free = list(range(len(self.cards)))
        picked = []
        for code in codes:
            text = str(as_table_item(Card(code) if isinstance(code, int) else code))
            i = next((i for i in free if self.cards[i] == text), None)
            if i is None:
                raise ValueError(_("{item} is not on the table ({table})").format(
                    item=text, table=" ".join(self.cards) or _("empty")))
            free.remove(i)
            picked.append(i)
        return picked

    def select(self, codes: Iterable[Card | Build | str | int]) -> None:
        """Select table items by code or text (``["7C", "[9:4S+5H@0]"]``), as clicking them does."""
        self.selected = self.indices_of(codes)

    @property
    def selected_items(self) -> list[Card | Build]:
        """The selected cards and builds, in row order."""
        return [as_table_item(c) for c in self.selected_cards]

    def _render(self) -> None:
        out = []
        chosen, hinted = set(self.selected), set(self.hinted)
        for i, code in enumerate(self.cards):
            sel = i in chosen
            attrs = {"data-index": str(i)}
            if self.selectable:
                attrs.update({"role": "button", "tabindex": "0", "aria-pressed": "true" if sel else "false"})
            item = as_table_item(code)
            if isinstance(item, Build):
                out.append(build_html(item, names=self.owner_names or None, you=self.you, width=self.width,
                                      four_color=self.four_color, selected=sel,
                                      card_class="kt-card kt-build" + (" kt-hinted" if i in hinted else ""),
                                      attrs=attrs))
                continue
            attrs["class"] = "kt-card" + (" kt-selected" if sel else "") + (" kt-hinted" if i in hinted else "")
            attrs["data-card"] = code
            if self.selectable:  # a button's name holds what it shows (axe: label-content-name-mismatch)
                attrs["aria-label"] = f"{card_label(code)} {card_name(code)}"
            out.append(card_svg(code, width=self.width, selected=sel, four_color=self.four_color, attrs=attrs))
        self.set_trait("svgs", out)
        self._name_row()

    def _name_row(self) -> None:
        """The row's name for a screen reader: "Table (bordet): 2 cards, 1 build" (no builds: as a card row's)."""
        builds = sum(1 for c in self.cards if c.startswith("["))
        if not builds:
            super()._name_row()
            return
        n = len(self.cards) - builds
        what = self.label or _("table")
        self.set_trait("row_label", ngettext("{what}: {n} card, {builds}", "{what}: {n} cards, {builds}", n).format(
            what=what, n=n, builds=ngettext("{n} build", "{n} builds", builds).format(n=builds)))


class GameTable(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """A parti of Krypkasino (or classic Kasino) against bots, 2–6 players.

    Parameters: ``rules`` (default :class:`Rules`, or the preset ``$KRYPTEACH_GAME_RULES``
    names), ``seed`` (deals and bots replay exactly), ``bot`` (a level of
    :data:`BOT_LEVELS`), ``names``.
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
        self._log: list[tuple[Turn, str]] = []  # (turn, its line in words) for the current giv
        self._recorded: set[int] = set()  # givar whose score is in the learner's progress
        self._reviewed: set[int] = set()  # givar whose review (the coach's) is in the learner's progress
        # the coach analyses each of your decisions in the background, as soon as it is made
        self.coach = Reviewer(YOU)
        self.coach_work = Background(self.coach.step)
        # the parti is kept in the learner's progress after every move, so that a reload brings it back
        self._ready = False  # (not the parti the table deals while it is built: a kept one may come)
        self._saved_here = False  # this page has played (or dealt anew): what it kept is newer
        self._restore_checked = False
        self._place = current().place("game")
        if rules is None and os.environ.get("KRYPTEACH_GAME_RULES"):  # the classroom file's preset
            rules = Rules.preset(os.environ["KRYPTEACH_GAME_RULES"])

        levels = _offered_levels()
        default = bot if bot in levels else "careful" if "careful" in levels else levels[0]
        self.bot_level = widgets.Dropdown(options=level_options(levels), value=default,
                                          description=_("Computer players (datorspelare)"),
                                          style={"description_width": "20em"},
                                          layout=widgets.Layout(width="34em"))
        self.bot_level.observe(lambda change: self._make_bots(), names="value")
        self.picker = RulesPicker(rules or Rules(), games=("krypkasino", "kasino"))
        self.picker.on_change(self._rules_changed)
        self.rules_note = widgets.HTML("<i>" + esc(_("Changed rules start a new parti with the next giv "
                                                     "(press New giv or New parti).")) + "</i>")

        self.title = widgets.HTML("<h3>" + esc(_("Play a giv (spela en giv)")) + "</h3>")
        self.title.add_class("kt-title")
        self.status = widgets.HTML("")
        self.status.add_class("kt-status")
        self.bot_note = widgets.HTML("")  # a level that cannot play these rules: the random bot plays instead
        self.bot_note.add_class("kt-bot-note")
        self.opponents = widgets.HTML("")
        self.table_row = TableRowWidget(kind="table", multiple=True, label=_("Table (bordet)"),
                                        empty_text=_("empty table"), four_color=four_color)
        self.side = widgets.HTML("")
        self.side.add_class("kt-side")
        felt = widgets.HBox([self.table_row, self.side],
                            layout=widgets.Layout(justify_content="space-between", align_items="flex-start",
                                                  flex="0 0 auto"))
        felt.add_class("kt-felt")
        self.table_row.layout = widgets.Layout(flex="1 1 auto")
        self.protocol = widgets.HTML("")
        self.protocol.add_class("kt-protocol")
        self.protocol.layout = widgets.Layout(flex="0 1 380px")  # beside the table, its words wrapped
        self.hand_row = CardRowWidget(kind="hand", multiple=False, label=_("Your hand (handen)"),
                                      empty_text=_("no cards"), four_color=four_color)
        self.mine = widgets.HTML("")
        hand_box = widgets.HBox([self.hand_row, self.mine])
        hand_box.add_class("kt-hand-box")
        self.play_button = button(_("Play"), "play", "primary",
                                  _("Play the selected hand card and take the selected table cards"))
        # classic Kasino: take, build (to a value the engine allows), trail
        self.take_button = button(_("Ta in (take)"), "hand-paper-o", "primary",
                                  _("Take the selected table cards and builds with the selected hand card"))
        self.build_button = button(_("Bygg (build)"), "cubes", "primary",
                                   _("Build on the selected table cards, or raise the selected build, "
                                     "with the selected hand card"))
        self.build_value = widgets.Dropdown(options=[("—", None)], description=_("Value (värde)"),
                                            style={"description_width": "initial"},
                                            layout=widgets.Layout(width="auto"))
        self.build_value.add_class("kt-build-value")
        self.trail_button = button(_("Lägg (trail)"), "level-down", "primary",
                                   _("Lay the selected hand card on the table"))
        self.hint_button = button(_("Hint"), "lightbulb-o", tip=_("What would a good player do?"))
        # the coach (issue 22): which of your moves cost points, and Try again on each
        self.review_button = button(_("Review my moves (coach)"), "graduation-cap",
                                    tip=_("Which of your moves in this giv cost you points, and why; try them again"))
        self.review_button.on_click(lambda b: self.review_giv())
        self.undo_button = button(_("Undo"), "undo", tip=_("Take back your last move (and the computer's moves after it)"))
        self.new_button = button(_("New giv"), "refresh",
                                 tip=_("Deal the parti's next giv (ny giv): the next dealer deals"))
        self.new_parti_button = button(_("New parti"), "repeat", tip=_("Start a new parti (nytt parti): scores from zero"))
        self.play_button.on_click(lambda b: self.play_selected())
        self.take_button.on_click(lambda b: self.take_selected())
        # what reads ipywidgets' own controls (the build's value, the rules picker, the bot level)
        # waits for every change made before the click (Barrier)
        self.barrier = Barrier()
        self.build_button.on_click(lambda b: self.barrier.then(self.build_selected))
        self.trail_button.on_click(lambda b: self.trail_selected())
        self.hint_button.on_click(lambda b: self.hint())
        self.undo_button.on_click(lambda b: self.undo())
        self.new_button.on_click(lambda b: self.barrier.then(self.new_giv))
        self.new_parti_button.on_click(lambda b: self.barrier.then(self.new_parti))
        # New parti (and New giv when it must start one) ask first when a parti under way would be lost
        self.question_text = widgets.HTML("")
        self.yes_button = button(_("Yes, start a new parti"), "repeat", "warning",
                                 _("Start again from zero: this parti's givar and scores are lost"))
        self.keep_button = button(_("No, keep playing"), "hand-o-left", "primary", _("Go back to the giv"))
        self.yes_button.on_click(lambda b: self.confirm())
        self.keep_button.on_click(lambda b: self.keep_playing())
        self.question = widgets.HBox([self.question_text, self.yes_button, self.keep_button],
                                     layout=widgets.Layout(flex_flow="row wrap", align_items="center", display="none"))
        self.question.add_class("kt-question")
        self._pending: str | None = None  # the question is asked: why a new parti would start ("" or a reason)
        self._build_controls = [self.take_button, self.build_button, self.build_value, self.trail_button]
        # Bygg and its value menu side by side, so that a narrow screen never puts them apart (Ta in and
        # Lägg before them: the three moves together, and the menu beside the one it is for)
        self._build_group = widgets.HBox([self.build_button, self.build_value])
        self._build_group.add_class("kt-build-group")
        bar = widgets.HBox([self.play_button, self.take_button, self.trail_button, self._build_group,
                            self.hint_button, self.review_button, self.undo_button,
                            self.new_button, self.new_parti_button])
        bar.add_class("kt-buttons")
        # the table, your hand and the buttons, the protocol beside them. The page holds them in the
        # order a move is made (your hand, the table, Play: the keyboard's order), the table drawn
        # above the hand (cards.css, .kt-move)
        move = widgets.VBox([hand_box, felt, bar], layout=widgets.Layout(flex="1 1 420px", min_width="0"))
        move.add_class("kt-move")
        beside = widgets.HBox([move, self.protocol], layout=widgets.Layout(flex_flow="row wrap",
                                                                          align_items="flex-start"))
        beside.add_class("kt-beside")
        # after a giv: replay it, download it (outside .kt-buttons: "Replay" is not the Play button)
        self.replay_button = button(_("Replay this giv"), "film",
                                    tip=_("Step through the giv just played, every hand face up"))
        self.replay_button.on_click(lambda b: self.replay_giv())
        self.review_view = ReviewPanel()
        self.review_view.layout.display = "none"
        self.downloads = widgets.HTML("")
        self.downloads.add_class("kt-downloads")
        after = widgets.HBox([self.replay_button, self.downloads],
                             layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        after.add_class("kt-after")
        self.after = after
        self.replay_view = ReplayViewer(upload=False, title=_("Replay this giv (repris)"))
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
        self.settings = widgets.Accordion(children=[settings], titles=(_("Rules / regler"),), selected_index=None)

        self.hand_row.observe(self._selection_changed, names="selected")
        self.table_row.observe(self._selection_changed, names="selected")
        super().__init__([self.title, self.status, self.bot_note, self.opponents, beside,
                          self.question, self.feedback, self.final, after, self.review_view, bottom, self.replay_view,
                          self.settings, self.barrier])
        self.add_class("kt-game")
        self.new_parti()
        self._ready = True
        current().listeners.append(self._session_changed)
        self._session_changed()  # a learner already signed in (a cell run again)

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
        self.new_parti(confirmed=True)

    @property
    def game(self) -> Game:
        """The game of the giv on the table (:mod:`krypteach.engine.games`): a game with
        builds gets Ta in, Bygg and Lägg instead of Play."""
        return self.giv.game

    @property
    def names(self) -> list[str]:
        n = self.picker.rules.players if self._parti is None else self._parti.rules.players
        spare = [name for name in DEFAULT_NAMES[1:] if name not in self._names]  # players are named, never numbered
        names = (self._names + spare)[:n]
        return [shown_name(name) for name in names]

    @property
    def log(self) -> list[str]:
        """Every move of the giv so far, in words (described once per move, kept while it stands)."""
        turns = self.giv.turns
        keep = 0
        while keep < min(len(turns), len(self._log)) and self._log[keep][0] is turns[keep]:
            keep += 1
        new = describe_giv(self.giv, self.names, start=keep)
        new = [self._build_line(t) if t.move.value is not None else line for t, line in zip(turns[keep:], new)]
        self._log = self._log[:keep] + list(zip(turns[keep:], new))
        return [line for _t, line in self._log]

    def _build_line(self, turn: Turn) -> str:
        """A build move in words (the narration words captures and creeps)."""
        who = self.names[turn.player]
        m = turn.move
        text = (_("You build {value} with {card} on {cards}.") if turn.player == YOU else
                _("{who} builds {value} with {card} on {cards}.")).format(
            who=who, value=m.value, card=m.card.symbol, cards=describe_cards(m.capture or ()))
        if turn.dealt:
            text += " " + _("New deal.")
        return text

    # --- what the buttons do --------------------------------------------------
    def select_hand(self, code: Card | str | None) -> None:
        """Select a card of your hand by code (what clicking it does)."""
        self.hand_row.select([] if code is None else [Card(code)])

    def select_table(self, codes: Iterable[Card | Build | str]) -> None:
        """Select table cards by code, and classic Kasino's builds by their text
        (``"[9:4S+5H@0]"``) or :class:`Build` (what clicking them does). A card of a
        build selects the build."""
        g = self.giv
        wanted: list[Card | Build | str] = []
        for c in codes:
            if isinstance(c, Card | str | int) and not str(c).startswith("["):  # a card: its build is selected whole
                card = Card(c)
                b = next((x for x in g.table if str(x) != str(card) and card in g.game.table_cards([x])), None)
                if b is not None:
                    if str(b) not in [str(w) for w in wanted]:
                        wanted.append(b)
                    continue
            wanted.append(c)
        self.table_row.select(wanted)

    def _selected_move_cards(self) -> list[Card]:
        """The cards of the selected table items, builds' cards included (a move names them)."""
        return self.game.table_cards(self.table_row.selected_items)

    def _legal_for_selection(self) -> list[Move]:
        """The legal moves of the selected hand card that take in exactly the selected table items."""
        hand = self.hand_row.selected_cards
        if not hand:
            return []
        card, taken = Card(hand[0]), sorted(self._selected_move_cards())
        return [m for m in self.giv.legal_moves() if m.card == card and sorted(m.capture or ()) == taken
                and m.capture is not None]

    def build_values(self) -> list[int]:
        """The values the selected hand card may build (or raise a build) to on the selected
        table items, as the engine's legal moves say (none: no build)."""
        return sorted({m.value for m in self._legal_for_selection() if m.value is not None})

    def play_selected(self) -> None:
        """Play the selected hand card, capturing the selected table cards (none: creep).

        The giv judges the move; an illegal one shows the engine's explanation.
        Then the computer players move until it is your turn or the giv is over.
        In classic Kasino: no table cards trails; else a legal capture of them, else a
        legal build of them, else the capture (which the engine explains).
        """
        if self.game.has_builds and not self.giv.is_over and self.hand_row.selected_cards:
            if not self.table_row.selected:
                self.trail_selected()
            elif not any(m.value is None for m in self._legal_for_selection()) and self.build_values():
                self.build_selected()
            else:
                self.take_selected()
            return
        if not self._can_move():
            return
        hand = self.hand_row.selected_cards
        taken = [Card(c) for c in self.table_row.selected_cards]
        self._play(self._chosen(Move(Card(hand[0]), taken or None)))

    def take_selected(self) -> None:
        """Classic Kasino's **Ta in**: the selected hand card takes the selected table cards and builds."""
        if not self._can_move():
            return
        taken = self._selected_move_cards()
        if not taken:
            self._say("info", _("Select the table cards and builds to take (click them), then press Ta in."))
            return
        self._play(self._chosen(Move(Card(self.hand_row.selected_cards[0]), taken)))

    def build_selected(self, value: int | None = None) -> None:
        """Classic Kasino's **Bygg**: lay the selected hand card on the selected table cards
        (or on the selected build: a raise) as a build of ``value`` (default: the value
        chosen in the value menu, which offers the engine's legal values only).

        With no legal build for the selection, the engine explains why not (the value
        tried is what the cards add up to)."""
        if not self._can_move():
            return
        taken = self._selected_move_cards()
        if not taken:
            self._say("info", _("Select the table cards to build on (or a build to raise), then press Bygg."))
            return
        card = Card(self.hand_row.selected_cards[0])
        values = self.build_values()
        if value is None:
            value = self.build_value.value if self.build_value.value in values else values[0] if values else None
        if value is None:  # no legal build: the engine says why this one is not
            value = self._selection_total(card)
        try:
            move = Move.build(card, taken, value)
        except MoveParseError:  # 2♣ on K♠ adds up to 15: no card takes that
            self._say("error", _("{card} on {cards} adds up to {value}: no card is worth {value}, so it is no "
                                 "build (a build is taken with a card of its value, at most 14).").format(
                card=card.symbol, cards=describe_cards(taken), value=value))
            return
        self._play(self._chosen(move))

    def trail_selected(self) -> None:
        """Classic Kasino's **Lägg**: lay the selected hand card on the table (a trail)."""
        if not self._can_move():
            return
        if self.table_row.selected:
            self._say("info", _("Lägg lays the hand card alone on the table: unselect the table cards first "
                                "(or press Ta in or Bygg)."))
            return
        self._play(self._chosen(Move(Card(self.hand_row.selected_cards[0]))))

    def _chosen(self, proposed: Move) -> Move:
        """The legal move the selection stands for (``proposed``, as the engine lists it),
        or ``proposed`` itself when no legal move matches: the engine then explains why not."""
        return next((m for m in self.giv.legal_moves() if m == proposed), proposed)

    def _selection_total(self, card: Card) -> int:
        """What ``card`` laid on the selected table items adds up to, as the engine counts
        a build (:func:`~krypteach.engine.builds.build_total`; a selected build counts its
        value, a card without a build value counts nothing): the value an illegal build tries."""
        rules = self.giv.rules
        values = [item.value for item in self.table_row.selected_items if isinstance(item, Build)]
        counted = [c for c in [card, *self.table_row.selected_items]
                   if isinstance(c, Card) and build_total(c, (), rules) is not None]
        total = build_total(counted[0], counted[1:], rules) if counted else 0  # never None: each card counts
        return sum(values) + (total or 0)

    def _can_move(self) -> bool:
        """Is there a move to make: the giv goes on and a hand card is selected (else say what to do)."""
        if self.giv.is_over:
            self._say("info", _("The giv is over. {next}").format(next=self._next_step()))
            return False
        if not self.hand_row.selected_cards:
            self._say("info", _("Select a card in your hand first (click it), then the table cards it takes."))
            return False
        return True

    def _play(self, move: Move) -> None:
        """Play ``move`` for you: the giv judges it; then the computer players move."""
        g = self.giv
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
        self.review_view.layout.display = "none"  # a review of the moves before this one is out of date
        self.hand_row.selected = []
        self.table_row.selected = []
        self._refresh()
        self._bots_move()
        lines = self.log[start:]
        self._say("ok" if not g.is_over else "info", lines[0], lines[1:])
        self._refresh()
        if g.is_over and id(g) not in self._recorded:  # the learner's progress: a giv played, its score
            self._recorded.add(id(g))
            current().record("giv", "giv", score=g.result.scores[YOU], topic=self._game_key())
        self._save()
        self._coach_follow()

    def _hint_level(self) -> str:
        """The strongest level that can play these rules."""
        for name in ("expert", "careful", "random"):
            if name in BOT_LEVELS:
                try:
                    check_bot_rules(name, self.giv.rules)
                except BotError:
                    continue
                return name
        return "random"

    def hint(self) -> None:
        """Suggest a move (krypteach.bots.suggest) and select its cards."""
        g = self.giv
        if g.is_over:
            self._say("info", _("The giv is over. {next}").format(next=self._next_step()))
            return
        move, reason = suggest(g.observation(YOU), level=self._hint_level(), names=self.names)
        self.hand_row.select([move.card])
        self.select_table(move.capture or [])
        self.table_row.hinted = list(self.table_row.selected)
        head = self.game.describe(move)
        said = reason if head in reason else f"{head}. {reason}"
        if not self.game.has_builds:
            press = _("The cards are selected for you: press Play to play it.")
        else:
            if move.value is not None:
                self._show_status()  # the value menu offers the selection's values
                self.build_value.value = move.value
                what = self.build_button.description
            else:
                what = self.trail_button.description if move.capture is None else self.take_button.description
            press = _("The cards are selected for you: press {button} to play it.").format(button=what)
        self._say("info", _("Hint: {said}").format(said=said), [press])

    def undo(self) -> None:
        """Take back your last move and every computer move after it."""
        g = self.giv
        if not any(t.player == YOU for t in g.turns):
            self._say("info", _("Nothing to undo: you have not moved yet in this giv."))
            return
        undone = 0
        while True:
            t = g.pop()
            undone += 1
            if t.player == YOU:
                break
        self.hand_row.selected = []
        self.table_row.selected = []
        # a review or a replay of the moves taken back is out of date (it said "your giv reviewed" of a
        # giv open again): Review my moves reviews the moves as they now stand
        self.review_view.layout.display = "none"
        self.replay_view.layout.display = "none"
        others = undone - 1
        if t.move.value is not None:
            what = _("building {value} on {cards}").format(value=t.move.value, cards=describe_cards(t.move.capture or ()))
        elif t.move.capture is None:
            what = _("trail") if g.game.has_builds else _("creep")
        else:
            what = _("taking {cards}").format(cards=describe_cards(t.move.capture))
        if not others:
            text = _("Took back your {card} ({what}). Your turn again.")
        elif others == 1:
            text = _("Took back your {card} ({what}) and the computer's move after it. Your turn again.")
        else:
            text = _("Took back your {card} ({what}) and the {n} computer moves after it. Your turn again.")
        self._say("info", text.format(card=t.move.card.symbol, what=what, n=others))
        self._refresh()
        self._save()
        self._coach_follow()

    def new_giv(self, *, confirmed: bool = False) -> None:
        """Deal the parti's next giv: the dealer moves one seat left and the scores carry on.

        The current giv must be over. When the parti is over, or the rules in the
        picker have changed, a new parti starts instead (and says so; a parti under way
        asks first, as :meth:`new_parti` does)."""
        if self._parti is None or self.picker.rules != self._parti.rules:
            self.new_parti(_("The rules changed, so a new parti starts (scores from zero).") + " ", confirmed=confirmed)
            return
        p = self._parti
        if not p.giv.is_over:
            self._say("info", _("Finish this giv first: the protocol adds up whole givar. "
                                "Or press New parti to start again from zero."))
            return
        if p.is_over:
            self.new_parti(_("The parti was over ({winners} won), so a new parti starts.").format(
                winners=view.parti_winners_text(self.parti, self.names)) + " ")
            return
        p.next_giv()
        self._start_giv()

    def would_lose(self) -> bool:
        """Would a new parti lose play: a parti under way (not over) in which you have moved."""
        p = self._parti
        return p is not None and not p.is_over and any(t.player == YOU for g in p.givar for t in g.turns)

    def question_words(self) -> str:
        """What New parti asks before it wipes a parti under way, in words."""
        p = self.parti
        played = sum(1 for g in p.givar if g.is_over)
        if not p.giv.is_over and not played:
            return _("Start a new parti? The giv you are playing is lost.")
        if not p.giv.is_over:
            return ngettext("Start a new parti? The giv you are playing and the {count} giv played before it are lost.",
                            "Start a new parti? The giv you are playing and the {count} givar played before it are lost.",
                            played).format(count=played)
        return ngettext("Start a new parti? The protocol of this parti ({count} giv played) starts again from zero.",
                        "Start a new parti? The protocol of this parti ({count} givar played) starts again from zero.",
                        played).format(count=played)

    def confirm(self) -> None:
        """Yes: do what the question asked (start the new parti)."""
        pending = self._pending
        self._drop_question()
        if pending is not None:
            self.new_parti(pending, confirmed=True)

    def _drop_question(self) -> None:
        self._pending = None
        self.question.layout.display = "none"

    def keep_playing(self) -> None:
        """No: the question goes, the parti stays as it was."""
        self._drop_question()
        self._say("info", _("Nothing changed: play on."))

    def new_parti(self, why: str = "", *, confirmed: bool = False) -> None:
        """Start a new parti with the rules chosen in the picker: the protocol starts from
        zero, and the seat left of the first dealer (you) leads the first giv.

        A parti under way (:meth:`would_lose`) is not wiped at once: the table asks first
        (:attr:`question`, answered by :meth:`confirm` or :meth:`keep_playing`), unless
        ``confirmed``."""
        if not confirmed and self.would_lose():
            self._pending = why
            self.question_text.value = "<span role='alert'>" + esc(why + self.question_words()) + "</span>"
            self.question.layout.display = ""
            return
        self._drop_question()
        rules = self.picker.rules
        self._parti = Parti(rules, seed=self._rng.getrandbits(32), first_dealer=rules.players - 1)
        self.rules_note.value = "<i>" + esc(_("Changed rules start a new parti with the next giv "
                                              "(press New giv or New parti).")) + "</i>"
        planned = self._parti.planned_givar
        start = (_("New parti of {count} givar.").format(count=planned) if planned is not None else
                 _("New parti, played to {target} points.").format(target=rules.target))
        self._start_giv(why + start + " ")

    def replay_giv(self) -> None:
        """Open the finished giv in the replay below the table, at its first move."""
        g = self.giv
        if not g.is_over:
            self._say("info", _("Finish the giv first: a replay shows every hand face up."))
            return
        number = len(self.parti.givar)
        self.replay_view.open_giv(g, names=self.names, label=_("Giv {number} of the parti").format(number=number))
        self.replay_view.layout.display = ""
        self._say("info", _("Giv {number} is open in the replay under the moves: step through it with "
                            "Forward (framåt).").format(number=number))

    def review_giv(self) -> None:
        """The coach: review your decisions in the giv (every legal move valued from what you could
        see), shown under the buttons with Try again on each move that cost points; during the giv,
        the moves made so far (the review is kept once the giv has ended)."""
        g = self.giv
        if not any(t.player == YOU for t in g.turns):
            self._say("info", _("Play a move first: the coach reviews the moves you have made."))
            return
        self.review_view.open_giv(g, seat=YOU, names=self.names, review=self.coach.review(g))
        self.review_view.layout.display = ""
        r = self.review_view.review
        assert r is not None
        if not g.is_over:  # during the giv, when the learner asks: the moves so far, nothing kept yet
            self._say("info", _("Your moves so far are reviewed below: move quality {quality}. The review of the "
                                "whole giv is kept when it ends.").format(quality=percent(r.quality)))
            return
        if id(g) not in self._reviewed:  # the learner's progress: the move quality, and each costly move
            self._reviewed.add(id(g))
            key = self._game_key()
            for d in r.flagged:
                current().record(f"move-{d.ply + 1}", "coach", correct=False, rule=d.theme, topic=key,
                                 score=round(10 * d.loss.loss), how=d.verdict,
                                 answer=describe_move(g.rules, d.played), expected=describe_move(g.rules, d.best))
            current().record("quality", "coach", score=round(100 * r.quality), topic=key)
            if r.flagged:  # and each costly move comes back in the learner's practice (issue 23)
                session = current()
                session.save_game(FLAGGED_PLACE, keep_flagged(session.saved_game(FLAGGED_PLACE), g, YOU, r.flagged,
                                                              at=time.time()))
        self._say("info", _("Your giv is reviewed below: move quality {quality}.").format(quality=percent(r.quality)))

    def _coach_follow(self) -> None:
        """The coach takes the giv as it now stands: each new decision of yours is analysed in
        the background, between your clicks (:class:`~krypteach.widgets.background.Background`),
        so the review is ready when you ask for it."""
        g = self.giv
        if any(t.player == YOU for t in g.turns):
            self.coach.follow(g)
            if self.coach.pending:
                self.coach_work.wake()

    def _game_key(self) -> str:
        """Which game a giv's score is of (the learner's page averages each game apart): the
        engine's title of it, as a key ("krypkasino", "kasino", "avig-kasino")."""
        return self.game.title.lower().replace(" ", "-")

    def _save(self) -> None:
        """Keep the parti (its givar as game records) in the learner's progress."""
        if not self._ready or self._parti is None:
            return
        self._saved_here = True
        current().save_game(self._place, dump_givar(self._parti.givar))

    def _session_changed(self) -> None:
        """The learner is known: bring back the parti they left on this table, unless this
        page has been played on already (then what it keeps is newer)."""
        session = current()
        if self._restore_checked or not session.signed_in:
            return
        self._restore_checked = True
        if self._saved_here or self.would_lose():
            return
        kept = session.saved_game(self._place)
        if kept:
            self.restore(kept)

    def restore(self, record: str) -> bool:
        """Go on with a parti kept as game records (:func:`~krypteach.engine.records.dump_givar`):
        its rules, givar and protocol, the giv on the table as it was left. A record that
        cannot be read back leaves the table as it is and says so; False then."""
        try:
            givar = load_givar(record)
            if not givar:
                raise ValueError(_("no giv in it"))
            parti = Parti.from_givar(givar[0].rules, givar, seed=self._rng.getrandbits(32))
        except ValueError as e:
            self._say("info", _("The parti kept from your last visit could not be read back ({why}); "
                                "this is a new one.").format(why=e))
            return False
        self._parti = parti
        self.picker.rules = parti.rules  # (the parti is set first: no "changed rules" note)
        self._recorded = {id(g) for g in parti.givar if g.is_over}  # their scores are recorded already
        self._drop_question()
        self._log = []
        self.replay_view.layout.display = "none"
        self.review_view.layout.display = "none"
        self._refresh_levels()
        self._make_bots()
        self.hand_row.selected = []
        self.table_row.selected = []
        self._bots_move()
        self._refresh()
        g = self.giv
        count = len(g.turns)
        self._say("info", ngettext("Welcome back: the parti is as you left it (giv {number}, {count} move played).",
                                   "Welcome back: the parti is as you left it (giv {number}, {count} moves played).",
                                   count).format(number=len(parti.givar), count=count))
        self._coach_follow()  # the moves made before the reload are analysed again, in the background
        return True

    def _start_giv(self, prefix: str = "") -> None:
        self._log = []
        self.replay_view.layout.display = "none"
        self.review_view.layout.display = "none"
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
        you_deal, you_lead = dealer_seat == YOU, leader == self.names[YOU]
        planned = self.parti.planned_givar  # None: played to a target, as many givar as it takes
        if planned is None:
            text = (_("Giv {number}: {dealer} deal (givare); {leader} lead.") if you_deal and you_lead else
                    _("Giv {number}: {dealer} deal (givare); {leader} leads.") if you_deal else
                    _("Giv {number}: {dealer} deals (givare); {leader} lead.") if you_lead else
                    _("Giv {number}: {dealer} deals (givare); {leader} leads."))
        else:
            text = (_("Giv {number} of {count}: {dealer} deal (givare); {leader} lead.") if you_deal and you_lead else
                    _("Giv {number} of {count}: {dealer} deal (givare); {leader} leads.") if you_deal else
                    _("Giv {number} of {count}: {dealer} deals (givare); {leader} lead.") if you_lead else
                    _("Giv {number} of {count}: {dealer} deals (givare); {leader} leads."))
        first = prefix + text.format(number=number, count=planned, dealer=dealer, leader=leader)
        self._say("info", first, lines)
        self._refresh()
        self._save()

    def _next_step(self) -> str:
        """What to press after a giv."""
        if self.parti.is_over:
            return _("The parti is over: press New parti to play another.")
        return _("Press New giv to play the parti's next giv.")

    # --- computer players -----------------------------------------------------
    def _refresh_levels(self) -> None:
        levels = _offered_levels()  # read at run time: levels may be added after import
        if [level for _label, level in self.bot_level.options] != levels:
            keep = self.bot_level.value if self.bot_level.value in levels else levels[0]
            self.bot_level.options = level_options(levels)
            self.bot_level.value = keep

    def _make_bots(self) -> None:
        """One bot per computer seat, of the chosen level; a level that cannot play these
        rules (:func:`check_bot_rules`) gives way to the random bot, with a note."""
        if self._parti is None:
            return
        level = self.bot_level.value
        rules = self.giv.rules
        seeds = {s: self._rng.getrandbits(32) for s in range(1, rules.players)}
        self.bot_note.value = ""
        try:
            self.bots = {s: make_bot(level, seed=seed, rules=rules) for s, seed in seeds.items()}
        except BotError:
            if level == "random":
                raise
            self.bots = {s: make_bot("random", seed=seed, rules=rules) for s, seed in seeds.items()}
            note = _("The {level} computer player cannot play these rules yet, so the computer players "
                     "play at random (slumpis) in this giv.").format(level=level)
            self.bot_note.value = f"<div class='kt-msg kt-info' role='note'>{esc(note)}</div>"

    def _bots_move(self) -> None:
        g = self.giv
        while not g.is_over and g.turn != YOU:
            bot = self.bots[g.turn]
            g.play(bot.choose(g.observation(g.turn)))
            self._refresh()

    def _rules_changed(self, rules: Rules) -> None:
        if self._parti is not None and rules != self._parti.rules:
            self.rules_note.value = "<b>" + esc(_("Changed rules start a new parti with the next giv: "
                                                  "press New giv or New parti.")) + "</b>"

    # --- view -------------------------------------------------------------------
    def _say(self, kind: str, text: str, details: Sequence[str] = ()) -> None:
        self.message = message_text(text, details)
        self.feedback.value = message_html(kind, text, details)

    def _selection_changed(self, change: dict[str, Any] | None = None) -> None:
        self.table_row.hinted = [i for i in self.table_row.hinted if i in self.table_row.selected]
        self._show_status()

    def status_text(self) -> str:
        """What the status line says: whose turn, and what the selected card will do."""
        g = self.giv
        if g.is_over:
            return _("The giv is over — the scoring is below. {next}").format(next=self._next_step())
        if g.turn != YOU:
            return _("{name} is playing…").format(name=self.names[g.turn])
        picked = self.hand_row.selected_cards
        if not picked:
            return _("Your turn: select a card in your hand.")
        card = Card(picked[0])
        moves = [m for m in g.legal_moves() if m.card == card]
        if not moves:
            return g.explain(Move(card), self.names).message
        if self.game.has_builds:
            return self._builds_status(card, moves)
        if len(moves) == 1 and moves[0].capture is None:
            return g.explain(moves[0], self.names).message + " " + _("Press Play to creep.")
        captures = [m for m in moves if m.capture is not None]
        if len(captures) == 1 and len(moves) == 1:
            e = g.explain(captures[0], self.names)
            return _("Your {card} must capture: {explanation} Select those table cards, then press Play.").format(
                card=card.symbol, explanation=e.message)
        options = _("; or ").join(g.explain(m, self.names).message.rstrip(".") for m in captures)
        tail = (" " + _("It may also creep (free capture rule).")) if len(moves) > len(captures) else ""
        # i18n: {options} are the captures, separated by "; or "; {tail} is "" or " It may also creep (…)."
        return ngettext("Your {card} can capture in {n} way: {options}.{tail} Select the cards, then press Play.",
                        "Your {card} can capture in {n} ways: {options}.{tail} Select the cards, then press Play.",
                        len(captures)).format(card=card.symbol, n=len(captures), options=options, tail=tail)

    def _builds_status(self, card: Card, moves: Sequence[Move]) -> str:
        """Classic Kasino: what the selected hand card may do, and what the selection makes."""
        g = self.giv
        takes = [m for m in moves if m.capture is not None and m.value is None]
        values = sorted({m.value for m in moves if m.value is not None})
        trail = any(m.capture is None for m in moves)
        can = []
        if takes:
            can.append((_("take (ta in) in 1 way") if len(takes) == 1 else
                        _("take (ta in) in {n} ways")).format(n=len(takes)))
        if values:
            can.append(_("build (bygga) {values}").format(values=_(" or ").join(map(str, values))))
        if trail:
            can.append(_("be laid on the table (lägga)"))
        text = _("Your {card} can {what}.").format(card=card.symbol, what=_("; or ").join(can))
        chosen = self._legal_for_selection()
        if self.table_row.selected and chosen:
            take = next((m for m in chosen if m.value is None), None)
            builds = [m for m in chosen if m.value is not None]
            if take is not None:
                text += " " + _("Ta in: {explanation}").format(explanation=g.explain(take, self.names).message)
            if builds:
                shown = next((m for m in builds if m.value == self.build_value.value), builds[0])
                text += " " + _("Bygg: {explanation}").format(explanation=g.explain(shown, self.names).message)
        elif self.table_row.selected:
            text += " " + _("The selected table cards make no legal move with it: press Ta in or Bygg to hear why, "
                            "or choose other cards.")
        else:
            text += " " + self._builds_next_step(bool(takes), bool(values), trail)
        return text

    @staticmethod
    def _builds_next_step(take: bool, build: bool, trail: bool) -> str:
        """What to press next, naming only what the card may do (a card that must take in was told
        "… or press Lägg", which was then refused)."""
        if take and build:
            return (_("Select table cards and builds, then press Ta in or Bygg; or press Lägg.") if trail else
                    _("Select table cards and builds, then press Ta in or Bygg."))
        if take:
            return (_("Select the table cards it takes, then press Ta in; or press Lägg.") if trail else
                    _("Select the table cards it takes, then press Ta in."))
        if build:
            return (_("Select the table cards to build on, then press Bygg; or press Lägg.") if trail else
                    _("Select the table cards to build on, then press Bygg."))
        return _("Press Lägg to lay it on the table.")

    def _show_status(self) -> None:
        if self.game.has_builds:
            values = self.build_values()
            options: list[tuple[str, int | None]] = [(str(v), v) for v in values] or [("—", None)]  # no build: a dash
            if list(self.build_value.options) != options:
                keep = self.build_value.value
                self.build_value.options = options
                self.build_value.value = keep if keep in values else (values[0] if values else None)
            self.build_value.disabled = not values
        self.status.value = f"<div role='status'>{esc(self.status_text())}</div>"
        hand, table = self.hand_row.selected_cards, self.table_row.selected_cards
        if not hand:
            self.play_button.description = _("Play")
        elif not table:
            card = Card(hand[0])
            creep_ok = Move(card) in self.giv.legal_moves()
            self.play_button.description = (_("Play {card}: creep (krypa)") if creep_ok else _("Play {card}")).format(
                card=card.symbol)
        else:
            self.play_button.description = _("Play {card}, take {cards}").format(
                card=Card(hand[0]).symbol, cards=describe_cards(self._selected_move_cards()))

    def _refresh(self) -> None:
        g = self.giv
        if self._pending is not None:  # a move (or Undo) answers the question: keep playing
            self._drop_question()
        names = self.names
        over = g.is_over
        builds = self.game.has_builds  # Ta in, Bygg and Lägg instead of Play
        self.hand_row.cards = [str(c) for c in g.hands[YOU]]
        self.table_row.owner_names = names
        self.table_row.cards = [str(c) for c in g.table]
        self.hand_row.selectable = self.table_row.selectable = not over
        for w in (self.play_button, self.hint_button, *self._build_controls):
            w.disabled = over
        self.play_button.layout.display = "none" if builds else ""
        for w in (*self._build_controls, self._build_group):
            w.layout.display = "" if builds else "none"
        self.undo_button.disabled = not any(t.player == YOU for t in g.turns)
        self.review_button.disabled = self.undo_button.disabled  # the coach reviews the moves you made
        parti_over = self.parti.is_over
        self.new_button.button_style = "success" if over and not parti_over else ""
        self.new_parti_button.button_style = "success" if parti_over else ""
        self.after.layout.display = "" if over else "none"
        self.downloads.value = view.downloads_html(self.parti, g) if over else ""
        self.opponents.value = view.opponents_html(g, names)
        self.side.value = view.side_html(g)
        self.mine.value = view.mine_html(g, names)
        self.scores.value = view.scores_html(g, names)
        self.log_html.value = view.log_html(g, self.log)
        self.final.value = view.final_html(g, names, view.next_step_html(self.parti, names)) if over else ""
        self.protocol.value = view.protocol_html(self.parti, names)
        self._show_status()
