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
from collections.abc import Iterable, Sequence

import ipywidgets as widgets  # type: ignore[import-untyped]
import traitlets

from ..bots import BOT_LEVELS, BotError, check_bot_rules, make_bot, suggest
from ..classroom.session import current
from ..engine.builds import Build, build_value, table_cards
from ..engine.cards import Card
from ..engine.game import Giv, Parti, Turn
from ..engine.moves import IllegalMoveError, Move, MoveParseError, describe_cards
from ..engine.rules import Rules
from ..engine.scoring import point_breakdown
from ..i18n import _, ngettext
from ..teaching.narrate import DEFAULT_NAMES, describe_giv, describe_result, signed, tabbe_pa_text
from ..views import card_svg, hand_html, stack_svg
from ..views.downloads import records_download_html
from ..views.html import as_table_item, build_html
from ..views.svg import card_label, card_name
from ._ui import button, esc, message_html, message_text
from .cards import CardRowWidget
from .replay import ReplayViewer
from .rules_picker import RulesPicker

__all__ = ["GameTable", "TableRowWidget"]

YOU = 0


def _times(count: int, points: int) -> str:
    """``"1 × −5 = −5"``, or ``"0"``."""
    return f"{count} × {signed(points, plus=False)} = {signed(count * points, plus=False)}" if count else "0"


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
    def _valid_cards(self, proposal):
        return [str(as_table_item(c)) for c in proposal["value"]]

    @traitlets.observe("owner_names", "you")
    def _owners_changed(self, change) -> None:
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


class GameTable(widgets.VBox):
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
        self._log: list[tuple] = []  # (turn, its line in words) for the current giv
        self._recorded: set[int] = set()  # givar whose score is in the learner's progress
        if rules is None and os.environ.get("KRYPTEACH_GAME_RULES"):  # the classroom file's preset
            rules = Rules.preset(os.environ["KRYPTEACH_GAME_RULES"])

        levels = _offered_levels()
        default = bot if bot in levels else "careful" if "careful" in levels else levels[0]
        self.bot_level = widgets.Dropdown(options=levels, value=default,
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
                                                  flex="1 1 420px"))
        felt.add_class("kt-felt")
        self.table_row.layout = widgets.Layout(flex="1 1 auto")
        self.protocol = widgets.HTML("")
        self.protocol.add_class("kt-protocol")
        self.protocol.layout = widgets.Layout(flex="0 1 auto")
        beside = widgets.HBox([felt, self.protocol], layout=widgets.Layout(flex_flow="row wrap",
                                                                          align_items="flex-start"))
        beside.add_class("kt-beside")
        self.hand_row = CardRowWidget(kind="hand", multiple=False, label=_("Your hand (handen)"),
                                      empty_text=_("no cards"), four_color=four_color)
        self.mine = widgets.HTML("")
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
        self.undo_button = button(_("Undo"), "undo", tip=_("Take back your last move (and the computer's moves after it)"))
        self.new_button = button(_("New giv"), "refresh",
                                 tip=_("Deal the parti's next giv (ny giv): the next dealer deals"))
        self.new_parti_button = button(_("New parti"), "repeat", tip=_("Start a new parti (nytt parti): scores from zero"))
        self.play_button.on_click(lambda b: self.play_selected())
        self.take_button.on_click(lambda b: self.take_selected())
        self.build_button.on_click(lambda b: self.build_selected())
        self.trail_button.on_click(lambda b: self.trail_selected())
        self.hint_button.on_click(lambda b: self.hint())
        self.undo_button.on_click(lambda b: self.undo())
        self.new_button.on_click(lambda b: self.new_giv())
        self.new_parti_button.on_click(lambda b: self.new_parti())
        self._kasino_controls = [self.take_button, self.build_button, self.build_value, self.trail_button]
        bar = widgets.HBox([self.play_button, *self._kasino_controls, self.hint_button, self.undo_button,
                            self.new_button, self.new_parti_button])
        bar.add_class("kt-buttons")
        # after a giv: replay it, download it (outside .kt-buttons: "Replay" is not the Play button)
        self.replay_button = button(_("Replay this giv"), "film",
                                    tip=_("Step through the giv just played, every hand face up"))
        self.replay_button.on_click(lambda b: self.replay_giv())
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
                          widgets.HBox([self.hand_row, self.mine]),
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
    def kasino(self) -> bool:
        """Is the giv on the table classic Kasino (builds; Ta in, Bygg and Lägg instead of Play)?"""
        return self.giv.rules.game == "kasino"

    @property
    def names(self) -> list[str]:
        n = self.picker.rules.players if self._parti is None else self._parti.rules.players
        spare = [name for name in DEFAULT_NAMES[1:] if name not in self._names]  # players are named, never numbered
        names = (self._names + spare)[:n]
        return [_(name) if name == DEFAULT_NAMES[0] else name for name in names]

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
        wanted: list[Card | Build | str] = []
        for c in codes:
            if not isinstance(c, Build) and not str(c).startswith("["):
                card = Card(c)
                b = next((x for x in self.giv.table if isinstance(x, Build) and card in x.cards), None)
                if b is not None:
                    if str(b) not in [str(w) for w in wanted]:
                        wanted.append(b)
                    continue
            wanted.append(c)
        self.table_row.select(wanted)

    def _selected_move_cards(self) -> list[Card]:
        """The cards of the selected table items, builds' cards included (a move names them)."""
        return table_cards(self.table_row.selected_items)

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
        if self.kasino and not self.giv.is_over and self.hand_row.selected_cards:
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
        self._play(Move(Card(hand[0]), taken or None))

    def take_selected(self) -> None:
        """Classic Kasino's **Ta in**: the selected hand card takes the selected table cards and builds."""
        if not self._can_move():
            return
        taken = self._selected_move_cards()
        if not taken:
            self._say("info", _("Select the table cards and builds to take (click them), then press Ta in."))
            return
        self._play(Move(Card(self.hand_row.selected_cards[0]), taken))

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
            value = sum(b.value for b in self.table_row.selected_items if isinstance(b, Build)) + sum(
                build_value(c, self.giv.rules) or 0 for c in [card, *self.table_row.selected_items]
                if isinstance(c, Card))
        try:
            move = Move.build(card, taken, value)
        except MoveParseError:  # 2♣ on K♠ adds up to 15: no card takes that
            self._say("error", _("{card} on {cards} adds up to {value}: no card is worth {value}, so it is no "
                                 "build (a build is taken with a card of its value, at most 14).").format(
                card=card.symbol, cards=describe_cards(taken), value=value))
            return
        self._play(move)

    def trail_selected(self) -> None:
        """Classic Kasino's **Lägg**: lay the selected hand card on the table (a trail)."""
        if not self._can_move():
            return
        if self.table_row.selected:
            self._say("info", _("Lägg lays the hand card alone on the table: unselect the table cards first "
                                "(or press Ta in or Bygg)."))
            return
        self._play(Move(Card(self.hand_row.selected_cards[0])))

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

    def _hint_level(self) -> str | None:
        """The strongest level that can play these rules (``None``: the default, Krypkasino's)."""
        if not self.kasino:
            return None
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
        move, reason = suggest(g.observation(YOU), level=self._hint_level())
        self.hand_row.select([move.card])
        self.select_table(move.capture or [])
        self.table_row.hinted = list(self.table_row.selected)
        said = reason if move.describe() in reason else f"{move.describe()}. {reason}"
        if not self.kasino:
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
        others = undone - 1
        if t.move.value is not None:
            what = _("building {value} on {cards}").format(value=t.move.value, cards=describe_cards(t.move.capture or ()))
        elif t.move.capture is None:
            what = _("trail") if g.rules.game == "kasino" else _("creep")
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

    def new_giv(self) -> None:
        """Deal the parti's next giv: the dealer moves one seat left and the scores carry on.

        The current giv must be over. When the parti is over, or the rules in the
        picker have changed, a new parti starts instead (and says so)."""
        if self._parti is None or self.picker.rules != self._parti.rules:
            self.new_parti(_("The rules changed, so a new parti starts (scores from zero).") + " ")
            return
        p = self._parti
        if not p.giv.is_over:
            self._say("info", _("Finish this giv first: the protocol adds up whole givar. "
                                "Or press New parti to start again from zero."))
            return
        if p.is_over:
            self.new_parti(_("The parti was over ({winners} won), so a new parti starts.").format(
                winners=self._parti_winners()) + " ")
            return
        p.next_giv()
        self._start_giv()

    def new_parti(self, why: str = "") -> None:
        """Start a new parti with the rules chosen in the picker: the protocol starts from
        zero, and the seat left of the first dealer (you) leads the first giv."""
        rules = self.picker.rules
        self._parti = Parti(rules, seed=self._rng.getrandbits(32), first_dealer=rules.players - 1)
        self.rules_note.value = "<i>" + esc(_("Changed rules start a new parti with the next giv "
                                              "(press New giv or New parti).")) + "</i>"
        self._start_giv(why + _("New parti of {count} givar.").format(count=rules.givar_count) + " ")

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
        you_deal, you_lead = dealer_seat == YOU, leader == self.names[YOU]
        text = (_("Giv {number} of {count}: {dealer} deal (givare); {leader} lead.") if you_deal and you_lead else
                _("Giv {number} of {count}: {dealer} deal (givare); {leader} leads.") if you_deal else
                _("Giv {number} of {count}: {dealer} deals (givare); {leader} lead.") if you_lead else
                _("Giv {number} of {count}: {dealer} deals (givare); {leader} leads."))
        first = prefix + text.format(number=number, count=self.parti.rules.givar_count, dealer=dealer, leader=leader)
        self._say("info", first, lines)
        self._refresh()

    def _next_step(self) -> str:
        """What to press after a giv."""
        if self.parti.is_over:
            return _("The parti is over: press New parti to play another.")
        return _("Press New giv to play the parti's next giv.")

    def _parti_winners(self) -> str:
        p = self.parti
        r = p.rules
        if r.teams != "none":
            return _(" and ").join(
                _("team {number} ({members})").format(number=t + 1, members="+".join(self.names[s] for s in r.team_members(t)))
                for t in p.result.winners)
        return _(" and ").join(self.names[s] for s in p.result.winners)

    # --- computer players -----------------------------------------------------
    def _refresh_levels(self) -> None:
        levels = _offered_levels()  # read at run time: levels may be added after import
        if list(self.bot_level.options) != levels:
            keep = self.bot_level.value if self.bot_level.value in levels else levels[0]
            self.bot_level.options = levels
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

    def _selection_changed(self, change=None) -> None:
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
        if self.kasino:
            return self._kasino_status(card, moves)
        if len(moves) == 1 and moves[0].capture is None:
            return g.explain(moves[0], self.names).message + " " + _("Press Play to creep.")
        captures = [m for m in moves if m.capture is not None]
        if len(captures) == 1 and len(moves) == 1:
            e = g.explain(captures[0], self.names)
            return _("Your {card} must capture: {explanation} Select those table cards, then press Play.").format(
                card=card.symbol, explanation=e.message)
        options = _("; or ").join(g.explain(m, self.names).message.rstrip(".") for m in captures)
        tail = (" " + _("It may also creep (free capture rule).")) if len(moves) > len(captures) else ""
        return _("Your {card} can capture in {n} ways: {options}.{tail} Select the cards, then press Play.").format(
            card=card.symbol, n=len(captures), options=options, tail=tail)

    def _kasino_status(self, card: Card, moves: Sequence[Move]) -> str:
        """Classic Kasino: what the selected hand card may do, and what the selection makes."""
        g = self.giv
        takes = [m for m in moves if m.capture is not None and m.value is None]
        values = sorted({m.value for m in moves if m.value is not None})
        can = []
        if takes:
            can.append((_("take (ta in) in 1 way") if len(takes) == 1 else
                        _("take (ta in) in {n} ways")).format(n=len(takes)))
        if values:
            can.append(_("build (bygga) {values}").format(values=_(" or ").join(map(str, values))))
        if any(m.capture is None for m in moves):
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
            text += " " + _("Select table cards and builds, then press Ta in or Bygg; or press Lägg.")
        return text

    def _show_status(self) -> None:
        if self.kasino:
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
        n = g.rules.players
        names = self.names
        over = g.is_over
        kasino = self.kasino
        self.hand_row.cards = [str(c) for c in g.hands[YOU]]
        self.table_row.owner_names = names
        self.table_row.cards = [str(c) for c in g.table]
        self.hand_row.selectable = self.table_row.selectable = not over
        for w in (self.play_button, self.hint_button, *self._kasino_controls):
            w.disabled = over
        self.play_button.layout.display = "none" if kasino else ""
        for w in self._kasino_controls:
            w.layout.display = "" if kasino else "none"
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
                tags.append(_("dealer (givare)"))
            if g.rules.teams != "none":
                tags.append(_("your partner") if g.rules.team_of(s) == g.rules.team_of(YOU)
                            else _("team {number}").format(number=g.rules.team_of(s) + 1))
            turn = not over and g.turn == s
            seats.append(
                f"<div class='kt-seat{' kt-to-play' if turn else ''}' data-seat='{s}'>"
                f"<div class='kt-seat-name'>{esc(names[s])}{' ▶' if turn else ''}</div>"
                f"<div>{esc(', '.join(tags))}</div>"
                + (hand_html(g.hands[s], width=28, face_down=True, overlap=0.55) if g.hands[s] else "")
                + "<div>" + esc(_("hand: {hand} · pile: {pile} cards").format(hand=len(g.hands[s]), pile=len(g.piles[s])))
                + "</div><div>" + esc(self._marks_text(s)) + "</div></div>")
        self.opponents.value = f"<div class='kt-opponents'>{''.join(seats)}</div>"
        # beside the table
        pa = tabbe_pa_text(g.turns[-1].tabbe_pa) if g.turns and g.table and not over else None
        stock = ("<div style='margin-top:6px'>" + esc(_("stock (talong): {stock} cards").format(stock=g.stock_size))
                 + "<br>" + esc(_("utdelning {number} of {count}").format(number=g.deal_index, count=len(g.deals)))
                 + "</div>")
        title = esc(_("klädda högen: face cards dealt to the table are set aside; the last capturer takes them"))
        gloss = esc(_("(face cards set aside)"))
        kladda = "" if kasino else (  # classic Kasino's face cards stay on the table: no klädda högen
            f"<div title='{title}'>"
            f"{stack_svg(len(g.kladda), width=48)}<div>klädda högen<br>{gloss}</div></div>")
        self.side.value = (
            kladda + stock
            + (f"<div class='kt-announce' style='margin-top:6px;font-weight:700'>“{esc(pa)}”</div>" if pa else ""))
        dealer = (" " + _("(dealer / givare)")) if g.dealer == YOU else ""
        mine = [f"<div><b>{esc(names[YOU])}</b>{esc(dealer)}</div>",
                "<div>" + esc(_("pile: {pile} cards").format(pile=len(g.piles[YOU]))) + "</div>",
                "<div>" + esc(self._marks_text(YOU)) + "</div>"]
        self.mine.value = "<div style='font-size:13px;padding:28px 0 0 12px'>" + "".join(mine) + "</div>"
        self._show_scores()
        lines = self.log
        items = "".join(f"<li value='{i + 1}' class='{'kt-you' if g.turns[i].player == YOU else ''}'>{esc(line)}</li>"
                        for i, line in reversed(list(enumerate(lines))))
        self.log_html.value = ("<div><b>" + esc(_("Moves (newest first)")) + "</b></div>"
                               + (f"<ol reversed>{items}</ol>" if items else
                                  "<div><i>" + esc(_("No moves yet.")) + "</i></div>"))
        self.final.value = self._final_html() if over else ""
        self._show_protocol()
        self._show_status()

    def _marks_text(self, seat: int) -> str:
        g = self.giv
        if self.kasino:  # no dukningar in classic Kasino: a tabbe is a point
            return _("tabbar: {tabbar}").format(tabbar=g.marks[seat])
        return _("tabbe marks: {marks} · dukningar: {dukningar}").format(marks=g.marks[seat], dukningar=g.dukningar[seat])

    def _show_protocol(self) -> None:
        """The parti's protocol (protokollet), in lesson 6's words: one row per giv, the totals."""
        p = self.parti
        r = p.rules
        names = self.names
        head = "".join(f"<th>{esc(n)}</th>" for n in names)
        rows = []
        for i, g in enumerate(p.givar):
            label = esc(_("giv {number} (dealer {dealer})").format(number=i + 1, dealer=names[g.dealer]))
            if g.is_over:
                cells = "".join(f"<td>{signed(s, plus=False)}</td>" for s in g.result.scores)
                rows.append(f"<tr><td>{label}</td>{cells}</tr>")
            else:
                cells = "".join("<td>…</td>" for _n in names)
                playing = esc(_("{giv}, playing").format(giv=_("giv {number} (dealer {dealer})").format(
                    number=i + 1, dealer=names[g.dealer])))
                rows.append(f"<tr class='kt-playing'><td>{playing}</td>{cells}</tr>")
        for i in range(len(p.givar), r.givar_count):
            dealer = (p.first_dealer + i) % r.players
            cells = "".join("<td></td>" for _n in names)
            label = esc(_("giv {number} (dealer {dealer})").format(number=i + 1, dealer=names[dealer]))
            rows.append(f"<tr class='kt-to-come'><td>{label}</td>{cells}</tr>")
        total = "".join(f"<td><b>{signed(s, plus=False)}</b></td>" for s in p.totals)
        total_label = esc(_("total"))
        rows.append(f"<tr class='kt-total'><td><b>{total_label}</b></td>{total}</tr>")
        if r.teams != "none":
            for t in range(r.team_count):
                members = "+".join(names[s] for s in r.team_members(t))
                score = sum(p.totals[s] for s in r.team_members(t))
                team = esc(_("team {number} ({members})").format(number=t + 1, members=members))
                rows.append(f"<tr class='kt-total'><td colspan='{r.players}'>{team}</td>"
                            f"<td><b>{signed(score, plus=False)}</b></td></tr>")
        if p.is_over:
            won = (_("{winners} won the parti with the lowest total.") if r.lowest_wins else
                   _("{winners} won the parti with the highest total."))
            foot = "<p>" + won.format(winners=f"<b>{esc(self._parti_winners())}</b>") + "</p>"
        else:
            played = (_("{played} of {count} givar played; the lowest total wins the parti.") if r.lowest_wins else
                      _("{played} of {count} givar played; the highest total wins the parti."))
            foot = "<p>" + esc(played.format(played=len(p.protocol), count=r.givar_count)) + "</p>"
        heading, region = esc(_("The protocol (protokollet) of the parti")), esc(_("The protocol"))
        self.protocol.value = (f"<div><b>{heading}</b></div>"
                               f"<div class='kt-scroll' tabindex='0' role='region' aria-label='{region}'>"
                               f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table></div>{foot}")

    def _downloads_html(self) -> str:
        """Links that save the finished giv, and the parti's finished givar, as record files."""
        p = self.parti
        done = [g for g in p.givar if g.is_over]
        number = len(p.givar)
        links = [records_download_html([self.giv], f"giv-{number}.jsonl",
                                       _("Download giv {number} (giv-{number}.jsonl)").format(number=number),
                                       title=_("A game record: JSON Lines, one giv per line (docs/records.md)"))]
        if len(done) > 1 or p.is_over:
            links.append(records_download_html(
                done, f"parti-{len(done)}-givar.jsonl",
                _("Download the parti's {count} givar (parti-{count}-givar.jsonl)").format(count=len(done)),
                title=_("Every finished giv of this parti, one per line")))
        return "<span class='kt-download-links'>" + " · ".join(links) + "</span>"

    def _show_scores(self) -> None:
        g = self.giv
        r = g.rules
        n = r.players
        running = g.running_result()
        kasino = self.kasino  # no dukningar in classic Kasino: a tabbe is a point
        heads = ((_("Player"), _("Pile"), _("Card points"), _("Tabbar"), _("Score")) if kasino else
                 (_("Player"), _("Pile"), _("Card points"), _("Tabbe marks"), _("Dukningar"), _("Score")))
        head = "<tr><th>" + "</th><th>".join(esc(h) for h in heads) + "</th></tr>"
        rows = [f"<tr><td>{esc(self.names[s])}</td><td>{len(g.piles[s])}</td><td>{running.card_points[s]}</td>"
                f"<td>{g.marks[s]}</td>" + ("" if kasino else f"<td>{g.dukningar[s]}</td>")
                + f"<td>{running.scores[s]}</td></tr>" for s in range(n)]
        if r.teams != "none":
            for t, score in enumerate(running.team_scores):
                members = "+".join(self.names[s] for s in r.team_members(t))
                team = esc(_("Team {number} ({members})").format(number=t + 1, members=members))
                rows.append(f"<tr class='kt-total'><td colspan='{len(heads) - 1}'>{team}</td><td>{score}</td></tr>")
        title = (_("Scores (final)") if g.is_over else
                 _("Scores so far (lowest wins)") if r.lowest_wins else _("Scores so far (highest wins)"))
        # a wide table scrolls in its own box on a phone; the box takes the keyboard's focus, so it scrolls by keys too
        self.scores.value = (f"<div><b>{esc(title)}</b></div><div class='kt-scroll' tabindex='0' role='region' "
                             f"aria-label='{esc(title)}'><table>{head}{''.join(rows)}</table></div>")

    def _final_html(self) -> str:
        if self.kasino:
            return self._kasino_final_html()
        g = self.giv
        res = g.result
        r = g.rules
        names = self.names
        rows = []
        swept = list(res.aside_cards)
        for s in range(r.players):
            scoring = point_breakdown(g.piles[s])
            cards = ", ".join(f"{c.symbol} ({why} {p})" for c, p, why in scoring) or _("none")
            rows.append(
                f"<tr><td>{esc(names[s])}</td><td class='kt-cards-cell'>{esc(cards)}</td>"
                f"<td>{res.card_points[s]}</td><td>{_times(res.marks[s], r.tabbe_points)}</td>"
                f"<td>{_times(res.dukningar[s], r.dukning_points)}</td><td><b>{signed(res.scores[s], plus=False)}</b></td></tr>")
        player, scored, points = esc(_("Player")), esc(_("Cards that scored (card by card)")), esc(_("Card points"))
        marks, dukningar, total = esc(_("Tabbe marks")), esc(_("Dukningar")), esc(_("Total"))
        table = (f"<table><tr><th>{player}</th><th class='kt-cards-cell'>"
                 f"{scored}</th><th>{points}</th>"
                 f"<th>{marks}</th><th>{dukningar}</th><th>{total}</th></tr>"
                 + "".join(rows) + "</table>")
        if res.last_capturer is not None and swept:
            sweep_pts = point_breakdown(swept)
            what = (": " + ", ".join(f"{c.symbol} ({why} {p})" for c, p, why in sweep_pts)) if sweep_pts else \
                " " + _("(none of them score)")
            sweep = _("{who} captured last and took the {n} cards left on the table and in klädda högen{what}.").format(
                who=names[res.last_capturer], n=len(swept), what=what)
        else:
            sweep = ""
        lines = describe_result(res, names, piles=g.piles)
        summary = lines[-1]
        teams = [line for line in lines if line.startswith(_("Team "))]
        region, heading = esc(_("Scoring of the giv")), esc(_("Giv over — scoring (poängräkning)"))
        return (f"<div class='kt-final kt-scores' role='region' aria-label='{region}'>"
                f"<div style='font-size:16px;font-weight:700'>{heading}</div>"
                f"{table}<ul>" + (f"<li>{esc(sweep)}</li>" if sweep else "")
                + "".join(f"<li>{esc(t)}</li>" for t in teams)
                + f"<li><b>{esc(summary)}</b></li></ul>"
                f"<div>{self._next_step_html()}</div></div>")

    def _kasino_final_html(self) -> str:
        """Classic Kasino's scoring, from the engine's result: card points (storan, lillan,
        aces, most spades, most cards), sistan, tabbar; the highest score wins (avig kasino: the lowest)."""
        g = self.giv
        res = g.result
        r = g.rules
        names = self.names
        rows = []
        for s in range(r.players):
            spades = sum(1 for c in g.piles[s] if c.suit == "S")
            sistan = r.last_capture_point if res.last_capturer == s else 0
            rows.append(f"<tr><td>{esc(names[s])}</td><td>{len(g.piles[s])}</td><td>{spades}</td><td>{sistan}</td>"
                        f"<td>{res.card_points[s]}</td><td>{_times(res.marks[s], r.tabbe_points)}</td>"
                        f"<td><b>{signed(res.scores[s], plus=False)}</b></td></tr>")
        heads = (_("Player"), _("Cards"), _("Spades (spader)"), _("Sistan (last capture)"),
                 _("Points for cards and sistan"), _("Tabbar"), _("Total"))
        table = "<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in heads) + "</tr>" + "".join(rows) + "</table>"
        notes = [_("Card points: storan (10♦) 2, lillan (2♠) 1, each ace 1, most spades 2, most cards 1 "
                   "(a tie gives nobody the point).")]
        if res.last_capturer is not None and res.aside_cards:
            notes.append(_("{who} captured last and took the {n} cards left on the table.").format(
                who=names[res.last_capturer], n=len(res.aside_cards)))
        if r.teams != "none":
            for t, score in enumerate(res.team_scores):
                members = "+".join(names[s] for s in r.team_members(t))
                notes.append(_("Team {number} ({members}): {score}").format(
                    number=t + 1, members=members, score=signed(score, plus=False)))
        if r.teams != "none":
            winners = _(" and ").join(_("team {number}").format(number=t + 1) for t in res.winners)
        else:
            winners = _(" and ").join(names[s] for s in res.winners)
        best = (res.team_scores if r.teams != "none" else res.scores)[res.winners[0]]
        summary = (_("Lowest score wins (avig kasino): {winners} with {score}.") if r.lowest_wins else
                   _("Highest score wins: {winners} with {score}.")).format(
            winners=winners, score=signed(best, plus=False))
        region, heading = esc(_("Scoring of the giv")), esc(_("Giv over — scoring (poängräkning)"))
        return (f"<div class='kt-final kt-scores' role='region' aria-label='{region}'>"
                f"<div style='font-size:16px;font-weight:700'>{heading}</div>"
                f"{table}<ul>" + "".join(f"<li>{esc(t)}</li>" for t in notes)
                + f"<li><b>{esc(summary)}</b></li></ul>"
                f"<div>{self._next_step_html()}</div></div>")

    def _next_step_html(self) -> str:
        if self.parti.is_over:
            return _("The parti is over: {winners} won it with the lowest total (see the protocol). "
                     "Press {button} to play another.").format(
                winners=f"<b>{esc(self._parti_winners())}</b>", button="<b>" + esc(_("New parti")) + "</b>") \
                if self.parti.rules.lowest_wins else \
                _("The parti is over: {winners} won it with the highest total (see the protocol). "
                  "Press {button} to play another.").format(
                winners=f"<b>{esc(self._parti_winners())}</b>", button="<b>" + esc(_("New parti")) + "</b>")
        return _("Press {button} to play the next giv of the parti: the scores carry on in the protocol.").format(
            button="<b>" + esc(_("New giv")) + "</b>")
