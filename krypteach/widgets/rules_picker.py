"""``RulesPicker``: a control for every :class:`~krypteach.Rules` option, and the presets.

The engine validates: every change builds a ``Rules`` and an invalid
combination shows the engine's :class:`~krypteach.RulesError` message (the
last valid rules stay in ``value``).

>>> p = RulesPicker()
>>> p.controls["players"].value = 4; p.controls["teams"].value = "pairs"
>>> p.rules.players, p.rules.teams, p.error
(4, 'pairs', '')
>>> p.controls["hand_size"].value = 26; p.controls["table_first"].value = 4
>>> p.error
'hand_size=26 with players=4 and table_first=4 needs more than the 104 cards of the double deck'
>>> p.rules.hand_size
4
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]
import traitlets

from ..engine.rules import PRESETS, Rules, RulesError
from ..i18n import N_, _

__all__ = ["RulesPicker"]

_WIDE = {"description_width": "22em"}
_ROW_WIDTH = "36em"  # a width, not a Layout: a widget made at import would come before the page can be sent it

#: (option, English label with the Swedish term), marked with ``N_()``: translated where shown
LABELS = {
    "players": N_("Players (spelare)"),
    "teams": N_("Teams (lag)"),
    "hand_size": N_("Cards per hand (kort per hand)"),
    "table_first": N_("Table cards, first deal (bordskort)"),
    "table_next": N_("Table cards, later deals (bordskort)"),
    "capture": N_("Capture rule (ta in)"),
    "forced_tabbe": N_("Forced tabbe (tvångstabbe)"),
    "ace": N_("Ace (ess)"),
    "dubbeltabbe": N_("Double tabbe counts two (dubbeltabbe)"),
    "cancel_marks": N_("Marks cancel (vänd ned tabbar)"),
    "last_capture_point": N_("Points for the last capture (sistan)"),
    "tabbe_points": N_("Points per tabbe mark (tabbe)"),
    "dukning_points": N_("Points per dukning (dukning)"),
    "givar": N_("Givar per parti (0: one per player)"),
    # classic Kasino's own (shown while a Kasino preset is chosen)
    "multiple_builds": N_("Multiple builds (dubbelt bygge)"),
    "owner_duty": N_("The builder's duty (bygget)"),
    "raise_gathers": N_("A raise may gather other groups of its value (bygga på)"),
    "lone_ace_builds": N_("A lone table ace may count 14 in a build (ess)"),
    "target": N_("Parti to (poäng)"),
    "target_count": N_("When the target is counted"),
}
#: the controls of one game only: the others' are hidden (and left out of the rules read)
KASINO_CONTROLS = ("multiple_builds", "owner_duty", "raise_gathers", "lone_ace_builds", "target", "target_count")
KRYPKASINO_CONTROLS = ("dubbeltabbe", "cancel_marks", "dukning_points")
_DUTY = [(N_("take or raise it on the next turn"), "take-or-raise"), (N_("anything but a trail"), "no-trail"),
         (N_("no duty"), "none")]
_TARGET_COUNT = [(N_("after each giv: the best total wins"), "end-of-giv"),
                 (N_("line by line: the first to reach it wins"), "in-order")]

_TEAM_OPTIONS = {
    "none": (N_("No teams (var för sig)"), "none"),
    "pairs": (N_("Pairs (par)"), "pairs"),
    "threes": (N_("Two teams of three (två lag om tre)"), "threes"),
}
_CAPTURE = [(N_("Take all you can (maximal)"), "maximal"), (N_("Take the most cards (maximum)"), "maximum"),
            (N_("Free, as in classic Kasino (fri)"), "free")]
_ACE = [(N_("1 or 14 (a played ace counts 14 and takes a lone ace)"), "1or14"), (N_("1 only"), "1"),
        (N_("14 from the hand, 1 on the table"), "14hand")]


def _options(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A dropdown's (label, value) pairs with the labels in the page's language."""
    return [(_(label), value) for label, value in pairs]
_CUSTOM = "custom"
#: the presets the lessons' controls offer: Krypkasino's, then classic Kasino's (kasino, avig-kasino,
#: dragkasino, …: the game page draws builds and lets a learner build). A picker shows those of its
#: ``games`` (default Krypkasino's only: the variant lab's bots do not play classic Kasino yet)
OFFERED = {name: spec for name, spec in PRESETS.items() if Rules.preset(name).game == "krypkasino"} | {
    name: spec for name, spec in PRESETS.items() if Rules.preset(name).game == "kasino"}
#: each preset's name as the menu shows it, in the page's language (its key, ``table-grows-by-creeping``,
#: is the classroom file's; a Swedish page showed it in English); a preset not named here shows its key
TITLES = {
    "krypkasino": N_("Krypkasino"),
    "table-grows-by-creeping": N_("Table grows by creeping"),
    "two-player-5-6": N_("Two players, 5 and 6"),
    "last-capture-point": N_("A point for sistan"),
    "ace-low": N_("Ace low"),
    "ace-14-hand": N_("Ace 14 from the hand"),
    "maximum-capture": N_("Take the most cards"),
    "free-capture": N_("Free capture"),
    "four-pairs": N_("Four in two pairs"),
    "six-pairs": N_("Six in three pairs"),
    "six-threes": N_("Six in two threes"),
    "kasino": N_("Kasino"),
    "avig-kasino": N_("Avig kasino"),
    "dragkasino": N_("Dragkasino"),
    "kasino-21": N_("Kasino to 21"),
    "kasino-pairs": N_("Partnerkasino"),
    "kasino-ace-low": N_("Kasino, ace low"),
    "kasino-face-own-rank": N_("Kasino, face cards take their own rank"),
    "kasino-tabbe-2": N_("Kasino, a tabbe worth 2"),
}


def preset_title(name: str) -> str:
    """A preset's name in the page's language (``Table grows by creeping``), or its key."""
    return _(TITLES[name]) if name in TITLES else name


def _teams_allowed(players: int) -> list[str]:
    """Team modes the engine accepts for ``players`` (asked from :class:`Rules` itself)."""
    out = []
    for mode in ("none", "pairs", "threes"):
        try:
            Rules(players=players, teams=mode)
        except RulesError:
            continue
        out.append(mode)
    return out


class RulesPicker(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """Widgets for every rule option plus a preset dropdown.

    ``value`` (observable trait) and :attr:`rules` are the current valid
    :class:`Rules`; ``error`` holds the engine's message while the controls
    describe an invalid combination. ``on_change(callback)`` calls
    ``callback(rules)`` whenever a new valid ``Rules`` is chosen.
    ``controls`` maps option names to their widgets. ``games`` are the games whose presets
    the menu offers (``("krypkasino", "kasino")`` on the game page); a control changed while
    classic Kasino is chosen keeps the game and its own options (builds, target, …).
    """

    value = traitlets.Instance(Rules)
    error = traitlets.Unicode("")

    def __init__(self, rules: Rules | None = None, *, games: tuple[str, ...] = ("krypkasino",), **kwargs: Any) -> None:
        rules = rules or Rules()
        self._syncing = False
        self.offered = [name for name in OFFERED if Rules.preset(name).game in games]
        self.preset = widgets.Dropdown(
            # i18n: the dash between a preset's name and its description; Swedish: a spaced en dash " – "
            options=[(preset_title(name) + _(" — ") + _(OFFERED[name][0]), name) for name in self.offered]
            + [(_("custom"), _CUSTOM)],
            value=_CUSTOM, description=_("Preset (variant)"), style=_WIDE, layout=widgets.Layout(width="60em"))
        c: dict[str, widgets.Widget] = {}
        c["players"] = widgets.BoundedIntText(value=2, min=2, max=6)
        c["teams"] = widgets.Dropdown(options=_options([_TEAM_OPTIONS["none"]]), value="none")
        c["hand_size"] = widgets.BoundedIntText(value=4, min=1, max=26)
        c["table_first"] = widgets.BoundedIntText(value=4, min=0, max=52)
        c["table_next"] = widgets.BoundedIntText(value=4, min=0, max=52)
        c["capture"] = widgets.Dropdown(options=_options(_CAPTURE), value="maximal")
        c["forced_tabbe"] = widgets.Checkbox(value=True, indent=True)
        c["ace"] = widgets.Dropdown(options=_options(_ACE), value="1or14")
        c["dubbeltabbe"] = widgets.Checkbox(value=True, indent=True)
        c["cancel_marks"] = widgets.Checkbox(value=True, indent=True)
        c["last_capture_point"] = widgets.BoundedIntText(value=0, min=0, max=10)
        c["tabbe_points"] = widgets.BoundedIntText(value=5, min=-100, max=100)
        c["dukning_points"] = widgets.BoundedIntText(value=-5, min=-100, max=100)
        c["givar"] = widgets.BoundedIntText(value=0, min=0, max=600)
        c["multiple_builds"] = widgets.Checkbox(value=True, indent=True)
        c["owner_duty"] = widgets.Dropdown(options=_options(_DUTY), value="take-or-raise")
        c["raise_gathers"] = widgets.Checkbox(value=True, indent=True)
        c["lone_ace_builds"] = widgets.Checkbox(value=True, indent=True)
        c["target"] = widgets.BoundedIntText(value=16, min=1, max=1000)
        c["target_count"] = widgets.Dropdown(options=_options(_TARGET_COUNT), value="end-of-giv")
        for name, w in c.items():
            w.description = _(LABELS[name])
            w.style = _WIDE
            wide = isinstance(w, (widgets.Dropdown, widgets.Checkbox))
            # a layout of its own for each control: a hidden control sets its display
            w.layout = widgets.Layout(width="50em" if wide else _ROW_WIDTH)
        self.controls = c
        self.error_html = widgets.HTML("")
        self.summary = widgets.HTML("")
        self._callbacks: list[Callable[[Rules], None]] = []
        super().__init__([self.preset, *c.values(), self.error_html, self.summary], **kwargs)
        self.add_class("kt-rules")
        self.value = rules
        self._show(rules)
        self.preset.observe(self._preset_chosen, names="value")
        for w in c.values():
            w.observe(self._edited, names="value")

    # --- public ------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The current valid rules."""
        return self.value

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self._show(rules)
        self._accept(rules)

    def on_change(self, callback: Callable[[Rules], None]) -> None:
        """Call ``callback(rules)`` after every change to valid rules."""
        self._callbacks.append(callback)

    def choose_preset(self, name: str) -> None:
        """Choose a preset by name, as the dropdown does."""
        self.preset.value = name

    # --- internals ---------------------------------------------------------
    def _show(self, rules: Rules) -> None:
        """Put ``rules`` into the controls without reacting to the changes."""
        self._syncing = True
        try:
            data = rules.to_dict()
            data["givar"] = data["givar"] or 0
            self._set_team_options(rules.players)
            hidden = KRYPKASINO_CONTROLS if rules.is_kasino else KASINO_CONTROLS
            for name, w in self.controls.items():
                w.layout.display = "none" if name in hidden else None
                if name in data:
                    w.value = data[name]
            self.preset.value = self._matching_preset(rules)
        finally:
            self._syncing = False
        self.error = ""
        self.error_html.value = ""
        self._summarise(rules)

    def _summarise(self, rules: Rules) -> None:
        head = _("Keeping the last rules that work") if self.error else _("Rules")
        self.summary.value = f"<i>{head}: {html.escape(rules.describe())}</i>"

    def _set_team_options(self, players: int) -> None:
        allowed = _teams_allowed(players)
        w = self.controls["teams"]
        keep = w.value if w.value in allowed else "none"
        w.options = _options([_TEAM_OPTIONS[m] for m in allowed])
        w.value = keep
        w.disabled = len(allowed) == 1

    def _matching_preset(self, rules: Rules) -> str:
        for name in self.offered:
            try:
                if Rules.preset(name) == rules:
                    return name
            except RulesError:  # pragma: no cover - presets are valid
                continue
        return _CUSTOM

    def _read(self) -> dict[str, Any]:
        # the options without a control (classic Kasino's game, builds, target, …) stay as they are
        hidden = KRYPKASINO_CONTROLS if self.value.is_kasino else KASINO_CONTROLS
        data = {**self.value.to_dict(),
                **{name: w.value for name, w in self.controls.items() if name not in hidden}}
        data["givar"] = data["givar"] or None
        return data

    def _edited(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        if change["owner"] is self.controls["players"]:
            self._syncing = True
            try:
                self._set_team_options(change["new"])
            finally:
                self._syncing = False
        try:
            rules = Rules(**self._read())
        except RulesError as e:
            self.error = str(e)
            said = _("These rules do not work: {error}").format(error=html.escape(str(e)))
            self.error_html.value = f"<div class='kt-error' role='alert' style='color:#a50e25;font-weight:600'>{said}</div>"
            self._summarise(self.value)
            return
        self.error = ""
        self.error_html.value = ""
        self._syncing = True
        try:
            self.preset.value = self._matching_preset(rules)
        finally:
            self._syncing = False
        self._accept(rules)

    def _preset_chosen(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] == _CUSTOM:
            return
        rules = Rules.preset(change["new"])
        self._show(rules)
        self._accept(rules)

    def _accept(self, rules: Rules) -> None:
        self._summarise(rules)
        changed = rules != self.value
        self.value = rules
        if changed:
            for cb in self._callbacks:
                cb(rules)
