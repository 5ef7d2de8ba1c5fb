"""HTML views of hands, tables and a whole giv, for notebook display.

Static HTML with inline styles (``_repr_html_``), drawn with the card SVGs of
:mod:`krypteach.views.svg`. The giv view reads the giv's public state and the
narration of :mod:`krypteach.teaching.narrate`.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from ..teaching.narrate import describe_result, seat_names, tabbe_pa_text
from .svg import FONT, card_height, card_svg, parse_code, stack_svg

if TYPE_CHECKING:  # only named in annotations
    from ..engine.game import Giv

# ---------------------------------------------------------------- HTML
# Static HTML for notebook display (``_repr_html_``).  Styles are inline so
# the output looks right without any stylesheet; the ``kt-*`` classes are
# hooks for tests, lessons and the widgets' CSS.  Every card element carries
# ``class="kt-card"`` and ``data-card="<code>"`` (``data-card="back"`` for a
# face-down card, whose code is never written into the page).

_FELT = ("background:#1e6b3c radial-gradient(ellipse at 50% 35%,#2a8a4e 0%,#1e6b3c 70%,#175a31 100%);"
         "border-radius:14px;box-shadow:inset 0 0 0 3px #154d2a,0 1px 3px rgba(0,0,0,.25);color:#f4f1e6;")
_ROW = "display:flex;flex-wrap:wrap;gap:6px;align-items:flex-end;"
_LABEL = "font:600 13px/1.3 " + FONT + ";margin:0 0 4px 0;"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def card_html(card: object, *, width: int = 72, selected: bool = False, four_color: bool = False,
              face_down: bool = False, index: int | None = None, style: str = "") -> str:
    """One card as an inline ``<svg class="kt-card" data-card="…">`` element.

    >>> s = card_html("10D", width=40)
    >>> 'class="kt-card"' in s, 'data-card="10D"' in s, 'aria-label="ruter 10 (storan)"' in s
    (True, True, True)
    >>> 'data-card="back"' in card_html(None, face_down=True)
    True
    """
    code = "back" if face_down else "".join(parse_code(card))
    classes = "kt-card" + (" kt-back" if face_down else "") + (" kt-selected" if selected else "")
    attrs = {"class": classes, "data-card": code, "style": "flex:none;" + style}
    if index is not None:
        attrs["data-index"] = str(index)
    return card_svg(None if face_down else card, width=width, selected=selected,
                    four_color=four_color, face_down=face_down, attrs=attrs)


def hand_html(cards: Iterable[object], *, width: int = 72, selected: Collection[int] = (),
              four_color: bool = False, face_down: bool = False, label: str | None = None,
              overlap: float = 0.0) -> str:
    """A hand as HTML: ``<div class="kt-hand">`` holding one ``kt-card`` per card.

    ``face_down`` draws backs only (the codes are not written into the page);
    ``overlap`` (0..0.7 of the width) fans the cards.

    >>> h = hand_html(["9H", "4C"], label="Your hand")
    >>> h.count('class="kt-card'), 'class="kt-hand"' in h, 'data-card="4C"' in h
    (2, True, True)
    """
    cards = list(cards)
    overlap = min(max(float(overlap), 0.0), 0.7)
    shift = f"margin-left:-{round(width * overlap) + 6}px;" if overlap else ""
    items = [card_html(c, width=width, selected=i in selected, four_color=four_color,
                       face_down=face_down, index=i, style=shift if i else "")
             for i, c in enumerate(cards)]
    name = label or "hand"
    body = "".join(items) or _empty_html(width, "empty hand")
    head = f'<div class="kt-label" style="{_LABEL}">{_esc(label)}</div>' if label else ""
    return (f'<div class="kt-hand-wrap" style="display:inline-block;margin:4px 0;">{head}'
            f'<div class="kt-hand" role="group" aria-label="{_esc(name)}: {len(cards)} cards" '
            f'style="{_ROW}">{body}</div></div>')


def _empty_html(width: int, text: str) -> str:
    h = card_height(width)
    return (f'<div class="kt-empty" style="flex:none;width:{width}px;height:{h}px;box-sizing:border-box;'
            f'border:2px dashed rgba(255,255,255,.45);border-radius:8px;display:flex;align-items:center;'
            f'justify-content:center;text-align:center;font:12px {FONT};opacity:.8">{_esc(text)}</div>')


def table_html(cards: Iterable[object], kladda: Iterable[object] = (), *, width: int = 72,
               selected: Collection[int] = (), four_color: bool = False, label: str | None = "Table (bordet)",
               note: str | None = None) -> str:
    """The table as HTML: a green felt ``<div class="kt-table">`` with the table cards,
    and *klädda högen* (face cards set aside) as a stack beside them when not empty.

    >>> t = table_html(["9S", "2C", "5D", "7H"], kladda=["KS"])
    >>> t.count('class="kt-card'), 'class="kt-table"' in t, 'klädda högen' in t
    (4, True, True)
    """
    cards, kladda = list(cards), list(kladda)
    items = "".join(card_html(c, width=width, selected=i in selected, four_color=four_color, index=i)
                    for i, c in enumerate(cards)) or _empty_html(width, "empty table")
    side = ""
    if kladda:
        stack = stack_svg(len(kladda), width=round(width * 0.8), label=None)
        side = (f'<div class="kt-kladda" title="klädda högen: face cards set aside; the last capturer takes them" '
                f'style="flex:none;margin-left:auto;text-align:center;font:12px/1.3 {FONT};">'
                f'{stack}<div>klädda högen<br><span style="opacity:.8">(face cards set aside)</span></div></div>')
    head = f'<div class="kt-label" style="{_LABEL}">{_esc(label)}</div>' if label else ""
    foot = f'<div class="kt-note" style="font:13px/1.4 {FONT};margin-top:6px">{_esc(note)}</div>' if note else ""
    return (f'<div class="kt-table" role="group" aria-label="{_esc(label or "table")}: {len(cards)} cards" '
            f'style="{_FELT}padding:10px 12px;margin:4px 0;display:block;max-width:100%;box-sizing:border-box">'
            f'{head}<div style="display:flex;gap:16px;align-items:flex-start">'
            f'<div style="{_ROW}flex:1 1 auto">{items}</div>{side}</div>{foot}</div>')


class CardsView:
    """A hand or a table that shows itself in a notebook.

    >>> CardsView(["9H", "4C"])._repr_html_().count('data-card=')
    2
    >>> 'kt-table' in CardsView("9S 2C 5D 7H", kind="table")._repr_html_()
    True
    """

    def __init__(self, cards: Iterable[object] | str, kind: str = "hand", *, kladda: Iterable[object] = (),
                 width: int = 72, four_color: bool = False, label: str | None = None) -> None:
        if kind not in ("hand", "table"):
            raise ValueError(f"kind must be 'hand' or 'table', got {kind!r}")
        if isinstance(cards, str):
            cards = cards.replace(",", " ").replace("+", " ").split()
        self.cards = [str(c) for c in cards]
        for c in self.cards:
            parse_code(c)
        self.kind, self.kladda, self.width = kind, [str(c) for c in kladda], width
        self.four_color, self.label = four_color, label

    def _repr_html_(self) -> str:
        if self.kind == "table":
            return table_html(self.cards, self.kladda, width=self.width, four_color=self.four_color,
                              label=self.label or "Table (bordet)")
        return hand_html(self.cards, width=self.width, four_color=self.four_color, label=self.label)

    def __repr__(self) -> str:
        return f"CardsView({' '.join(self.cards)!r}, kind={self.kind!r})"


def giv_html(giv: Giv, *, show: int | str | None = "turn", names: Sequence[str] | None = None,
             width: int = 56, four_color: bool = False) -> str:
    """A whole position of a giv as HTML.

    Each seat's hand is face-down except the seat ``show`` (``"turn"``: the
    player to move, the default; an int: that seat; ``"all"``; ``None``: none).
    Players are called by ``names`` (default: the narration's You, Bea, Dan, …).
    Shows the table and klädda högen, pile sizes, tabbe marks and dukningar,
    whose turn it is, the deal count, and "tabbe på …" when a card could take
    the whole table.  After the giv, the scoring lines.

    >>> from krypteach import Giv
    >>> h = giv_html(Giv(seed=1))
    >>> h.count('class="kt-hand"'), 'kt-table' in h, 'Bea to play.' in h, 'Seat' in h
    (2, True, True, False)
    """
    n = giv.rules.players
    names = seat_names(n, names)  # the narration's names (You, Bea, …) unless others are given
    over = giv.is_over
    shown = set(range(n)) if show == "all" else {giv.turn} if show == "turn" and not over else \
        {show} if isinstance(show, int) else set()
    seats = []
    for s in range(n):
        hand = giv.hands[s]
        face_up = s in shown
        turn = not over and s == giv.turn
        badges = []
        if s == giv.dealer:
            badges.append("dealer (givare)")
        if giv.rules.teams != "none":
            badges.append(f"team {giv.rules.team_of(s) + 1}")
        marks = " ".join(["▮"] * giv.marks[s]) or "–"
        pile = giv.piles[s]
        border = "#f0a400" if turn else "#d7d2c4"
        seats.append(
            f'<div class="kt-seat{" kt-to-play" if turn else ""}" data-seat="{s}" style="border:2px solid {border};'
            f'border-radius:10px;padding:6px 8px;background:#fffdf7;color:#222;min-width:{width * 2}px;flex:none">'
            f'<div style="font:600 14px {FONT}">{_esc(names[s])}'
            f'{" ▶ to play" if turn else ""}</div>'
            f'<div style="font:11px {FONT};color:#666">{_esc(", ".join(badges))}</div>'
            + hand_html(hand, width=width, face_down=not face_up, overlap=0 if face_up else 0.6,
                        four_color=four_color)
            + f'<div style="font:12px/1.5 {FONT}">pile: {len(pile)} cards · tabbe marks: {marks} · '
              f'dukningar: {giv.dukningar[s]}</div></div>')
    deal = f"utdelning {giv.deal_index} of {len(giv.deals)} · stock {giv.stock_size} cards"
    if over:
        status = "The giv is over."
    else:
        status = f"{names[giv.turn]} to play."
    pa = tabbe_pa_text(giv.tabbe_pa()) if giv.table and not over else None
    note = f"{pa.capitalize()}: a card of that rank would take the whole table." if pa else None
    table = table_html(giv.table, giv.kladda, width=width, four_color=four_color, note=note)
    result = ""
    if over:
        lines = describe_result(giv.result, names, piles=giv.piles)
        result = ('<ul class="kt-result" style="font:13px/1.5 ' + FONT + ';margin:6px 0">'
                  + "".join(f"<li>{_esc(line)}</li>" for line in lines) + "</ul>")
    return (f'<div class="kt-giv" style="font-family:{FONT};max-width:1100px">'
            f'<div style="font:13px {FONT};color:#555;margin-bottom:4px">Krypkasino · {n} players · {deal}</div>'
            f'<div class="kt-status" style="font:600 14px {FONT};margin-bottom:6px">{_esc(status)}</div>'
            f'<div style="display:flex;flex-wrap:wrap;gap:8px;margin-bottom:6px">{"".join(seats)}</div>'
            f'{table}{result}</div>')
