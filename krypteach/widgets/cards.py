"""``CardRowWidget``: a row of clickable cards (a hand, the table or a pile).

The cards are drawn in Python by :func:`krypteach.views.card_svg` (one
renderer for the static HTML and the widgets); ``cards.js`` only places the
SVG strings of the ``svgs`` trait and turns clicks and Enter/Space into
changes of ``selected``, each sent as a message of its own so that it reaches Python before a
button pressed after it (:meth:`CardRowWidget._chosen_on_the_page`). Tests drive it like the
front end does: set ``selected`` (or call :meth:`CardRowWidget.toggle`, which does what a
click does).

>>> row = CardRowWidget(cards=["9S", "2C", "5D", "7H"], kind="table")
>>> row.toggle(1); row.toggle(3); row.selected_cards
['2C', '7H']
>>> 'data-card="2C"' in row.svgs[1] and 'kt-selected' in row.svgs[1]
True
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterable
from typing import Any

import anywidget
import traitlets

from ..engine.cards import Card
from ..i18n import N_, _, ngettext
from ..views import card_svg
from ..views.svg import card_label, card_name
from .guard import set_from_the_page

__all__ = ["CardRowWidget"]

_HERE = pathlib.Path(__file__).parent
#: what a row is called for a screen reader when it has no label
_KIND_NAMES = {"hand": N_("hand"), "table": N_("table"), "pile": N_("pile")}


def _codes(cards: Iterable[Card | str | int]) -> list[str]:
    return [str(Card(c)) for c in cards]


class CardRowWidget(anywidget.AnyWidget):
    """A row of cards; selectable ones are buttons (click, Enter or Space toggles).

    Traits (synced with the page): ``cards`` (codes such as ``"10D"``),
    ``selected`` (indices), ``selectable``, ``multiple`` (more than one card may
    be selected; otherwise choosing a card replaces the choice), ``kind``
    (``"hand"``, ``"table"`` or ``"pile"``: the container gets class
    ``kt-hand``, ``kt-table`` or ``kt-pile``), ``four_color``, ``width`` (px per
    card), ``label``, ``face_down`` (backs only; the codes are then not written
    into the cards), ``hinted`` (indices outlined by a hint or an answer),
    ``empty_text`` (default: "empty" in the page's language), ``svgs`` (read-only: one
    SVG per card, from Python) and ``row_label`` (read-only: the row's name for a screen
    reader, such as "Table (bordet): 4 cards", in the page's language).
    """

    _esm = _HERE / "cards.js"
    _css = _HERE / "cards.css"

    cards = traitlets.List(traitlets.Unicode()).tag(sync=True)
    selected = traitlets.List(traitlets.Int()).tag(sync=True)
    selectable = traitlets.Bool(True).tag(sync=True)
    multiple = traitlets.Bool(True).tag(sync=True)
    kind = traitlets.Enum(("hand", "table", "pile"), default_value="hand").tag(sync=True)
    four_color = traitlets.Bool(False).tag(sync=True)
    width = traitlets.Int(72).tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    face_down = traitlets.Bool(False).tag(sync=True)
    hinted = traitlets.List(traitlets.Int()).tag(sync=True)
    empty_text = traitlets.Unicode("empty").tag(sync=True)
    svgs = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)
    row_label = traitlets.Unicode("", read_only=True).tag(sync=True)

    def __init__(self, cards: str | Iterable[Card | str | int] = (), **kwargs: object) -> None:
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        kwargs.setdefault("empty_text", _("empty"))  # the page's language is chosen by now
        later = {k: kwargs.pop(k) for k in ("selected", "hinted") if k in kwargs}
        super().__init__(cards=_codes(cards), **kwargs)
        for key, value in later.items():  # after the cards, which clear them
            setattr(self, key, value)
        self._ready = True
        self._render()
        self.on_msg(self._chosen_on_the_page)

    def _chosen_on_the_page(self, _widget: object, content: Any, _buffers: object) -> None:
        """A click's new choice, ``{"selected": [indices]}``, sent by ``cards.js`` as a message.

        ipywidgets holds a page's saved change back while an earlier one is unanswered; a
        button's click is not held. So a choice sent as a saved change could reach Python
        after a Check pressed at once. Messages arrive in the order they were sent.

        The choice passes the gate a saved change passes (:func:`.guard.set_from_the_page`); anything
        else is ignored. The page already shows it, so it is not sent back. The selection
        actually kept is sent back when it differs, e.g. an index beyond the cards dropped.
        """
        chosen = content.get("selected") if isinstance(content, dict) and set(content) == {"selected"} else None
        if isinstance(chosen, list) and all(type(i) is int for i in chosen):
            set_from_the_page(self, "selected", chosen)

    # --- validation -------------------------------------------------------
    @traitlets.validate("cards")
    def _valid_cards(self, proposal: dict[str, Any]) -> list[str]:
        return _codes(proposal["value"])

    @traitlets.validate("selected")
    def _valid_selected(self, proposal: dict[str, Any]) -> list[int]:
        n = len(self.cards)
        picked = sorted({i for i in proposal["value"] if 0 <= i < n})
        if not self.multiple and len(picked) > 1:
            # keep the newest choice: the one not selected before
            new = [i for i in picked if i not in self.selected]
            picked = new[-1:] or picked[-1:]
        return picked

    @traitlets.validate("width")
    def _valid_width(self, proposal: dict[str, Any]) -> int:
        width: int = proposal["value"]  # an int: the Int trait checked it first
        if width < 20:
            raise traitlets.TraitError(f"width must be at least 20 px, got {width}")
        return width

    @traitlets.observe("cards")
    def _cards_changed(self, change: dict[str, Any]) -> None:
        self.selected = []
        self.hinted = []
        self._render()

    @traitlets.observe("selected", "selectable", "four_color", "width", "face_down", "hinted")
    def _looks_changed(self, change: dict[str, Any]) -> None:
        self._render()

    @traitlets.observe("label", "kind")
    def _name_changed(self, change: dict[str, Any]) -> None:
        self._name_row()

    # --- what a click does --------------------------------------------------
    def toggle(self, index: int) -> None:
        """Select or unselect the card at ``index`` (what a click, Enter or Space does)."""
        if not self.selectable or not 0 <= index < len(self.cards):
            return
        if index in self.selected:
            self.selected = [i for i in self.selected if i != index]
        elif self.multiple:
            self.selected = self.selected + [index]
        else:
            self.selected = [index]

    def indices_of(self, codes: Iterable[Card | str | int]) -> list[int]:
        """Positions of cards given by code; identical cards take distinct places.

        Raises ``ValueError`` naming a card that is not in the row.
        """
        free = list(range(len(self.cards)))
        picked = []
        for code in _codes(codes):
            i = next((i for i in free if self.cards[i] == code), None)
            if i is None:
                raise ValueError(f"{Card(code).symbol} is not in this row ({' '.join(self.cards) or 'empty'})")
            free.remove(i)
            picked.append(i)
        return picked

    def select(self, codes: Iterable[Card | str | int]) -> None:
        """Select cards by code (``["2C", "7H"]``), as clicking them does."""
        picked = self.indices_of(codes)
        if not self.multiple and len(picked) > 1:
            raise ValueError("only one card can be selected in this row")
        self.selected = picked

    @property
    def selected_cards(self) -> list[str]:
        """Codes of the selected cards, in row order."""
        return [self.cards[i] for i in self.selected]

    # --- drawing ------------------------------------------------------------
    #: False until ``__init__`` has set every trait: each one set on the way would draw the row
    #: again (three times in all, 60 % of making a row)
    _ready = False

    def _render(self) -> None:
        if not self._ready:
            return
        out = []
        chosen, hinted = set(self.selected), set(self.hinted)
        for i, code in enumerate(self.cards):
            sel = i in chosen
            classes = "kt-card" + (" kt-back" if self.face_down else "") + (" kt-selected" if sel else "") \
                + (" kt-hinted" if i in hinted else "")
            attrs = {"class": classes, "data-card": "back" if self.face_down else code, "data-index": str(i)}
            if self.selectable:
                attrs.update({"role": "button", "tabindex": "0", "aria-pressed": "true" if sel else "false"})
                if not self.face_down:  # a button's name holds what it shows ("A♥ hjärter ess", axe: label-content-name-mismatch)
                    attrs["aria-label"] = f"{card_label(code)} {card_name(code)}"
            out.append(card_svg(None if self.face_down else code, width=self.width, selected=sel,
                                four_color=self.four_color, face_down=self.face_down, attrs=attrs))
        self.set_trait("svgs", out)
        self._name_row()

    def _name_row(self) -> None:
        n = len(self.cards)
        what = self.label or _(_KIND_NAMES[self.kind])
        self.set_trait("row_label", ngettext("{what}: {n} card", "{what}: {n} cards", n).format(what=what, n=n))
