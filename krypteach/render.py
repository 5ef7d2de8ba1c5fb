"""SVG drawings of playing cards, and HTML of hands, tables and givar, for krypteach.

Pure functions, no engine logic: every function takes card codes such as
``"10D"``, ``"2S"`` or ``"QH"`` (rank ``A 2-10 J Q K`` followed by suit
``S H D C``), or any object whose ``str()`` is such a code, and returns an
SVG (or HTML) string.  Each card is drawn in a 100 x 140 user-unit box and
scaled to the requested pixel width, so the output is deterministic and
resolution independent.  The HTML helpers (:func:`hand_html`,
:func:`table_html`, :func:`giv_html`, :class:`CardsView`) are for static
notebook display; the widgets use :func:`card_svg` too, so there is one renderer.
"""
from __future__ import annotations

import html
import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence

FONT = "DejaVu Sans, Arial, sans-serif"
SVG_NS = "http://www.w3.org/2000/svg"

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = {"S": ("♠", "spader"), "H": ("♥", "hjärter"),
          "D": ("♦", "ruter"), "C": ("♣", "klöver")}
_RANK_WORDS = {"A": "ess", "J": "knekt", "Q": "dam", "K": "kung"}
_NICKNAMES = {"10D": "storan", "2S": "lillan"}

_RED, _BLACK = "#c8102e", "#1b1b1b"
_TWO_COLOR = {"S": _BLACK, "C": _BLACK, "H": _RED, "D": _RED}
_FOUR_COLOR = {"S": _BLACK, "H": _RED, "D": "#1f5fbf", "C": "#1a7f37"}
_BORDER, _HIGHLIGHT, _MUTED = "#9a9a9a", "#f0a400", "#8a8a8a"
_GOLD, _GOLD_DARK, _PANEL = "#e9b935", "#8a6412", "#fbf4e2"
_BACK, _BACK_LINE = "#27468f", "#7d9be0"

# Pip centres for number cards: (x, fraction of the way down the pip area).
_L, _C, _R = 33.0, 50.0, 67.0
_TWO_ROWS = [(_L, 0.0), (_R, 0.0), (_L, 1.0), (_R, 1.0)]
_THREE_ROWS = [(x, f) for f in (0.0, 0.5, 1.0) for x in (_L, _R)]
_FOUR_ROWS = [(x, f) for f in (0.0, 1 / 3, 2 / 3, 1.0) for x in (_L, _R)]
_PIPS = {
    "2": [(_C, 0.0), (_C, 1.0)],
    "3": [(_C, 0.0), (_C, 0.5), (_C, 1.0)],
    "4": _TWO_ROWS,
    "5": _TWO_ROWS + [(_C, 0.5)],
    "6": _THREE_ROWS,
    "7": _THREE_ROWS + [(_C, 0.25)],
    "8": _THREE_ROWS + [(_C, 0.25), (_C, 0.75)],
    "9": _FOUR_ROWS + [(_C, 0.5)],
    "10": _FOUR_ROWS + [(_C, 1 / 6), (_C, 5 / 6)],
}
_PIP_TOP, _PIP_BOTTOM, _PIP_SIZE = 29.0, 111.0, 22.0

# Head-wear drawn above the big letter of court cards (100 x 140 units).
_HEADGEAR = {
    "K": (f'<path d="M35 47 L33 30 L42 38 L50 25 L58 38 L67 30 L65 47 Z" '
          f'fill="{_GOLD}" stroke="{_GOLD_DARK}" stroke-width="0.9" '
          f'stroke-linejoin="round"/>'
          f'<rect x="35" y="43" width="30" height="4.5" fill="{_GOLD_DARK}"/>'
          + "".join(f'<circle cx="{x}" cy="{y}" r="2.3" fill="{_GOLD}" '
                    f'stroke="{_GOLD_DARK}" stroke-width="0.7"/>'
                    for x, y in ((33, 30), (50, 25), (67, 30)))),
    "Q": (f'<path d="M37 47 L37 40 Q50 26 63 40 L63 47 Z" fill="{_GOLD}" '
          f'stroke="{_GOLD_DARK}" stroke-width="0.9"/>'
          + "".join(f'<circle cx="{x}" cy="{y}" r="1.7" fill="#ffffff" '
                    f'stroke="{_GOLD_DARK}" stroke-width="0.6"/>'
                    for x, y in ((38, 37), (43, 32.5), (50, 30.5),
                                 (57, 32.5), (62, 37)))
          + '<circle cx="50" cy="41" r="2.6" fill="{color}"/>'),
    "J": (f'<path d="M61 37 Q64 25 72 23 Q67 28 65 39 Z" fill="{_GOLD}" '
          f'stroke="{_GOLD_DARK}" stroke-width="0.7"/>'
          '<path d="M34 45 Q35 32 50 32 Q65 32 66 45 Z" fill="{color}"/>'
          f'<rect x="34" y="43" width="32" height="4" rx="1.5" '
          f'fill="{_GOLD}" stroke="{_GOLD_DARK}" stroke-width="0.6"/>'),
}

_ATTR_NAME = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]*\Z")


# ---------------------------------------------------------------- helpers
def _parse(card: object) -> tuple[str, str]:
    """Split a card code into (rank, suit) or raise ValueError."""
    text = str(card)
    rank, suit = text[:-1], text[-1:]
    if rank not in _RANKS or suit not in _SUITS:
        raise ValueError(f"not a card code: {text!r} (expected e.g. '10D', 'AS')")
    return rank, suit


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attr_text(attrs: Mapping[str, object]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        if not _ATTR_NAME.match(key):
            raise ValueError(f"bad SVG attribute name: {key!r}")
        text = _num(value) if isinstance(value, float) else str(value)
        parts.append(f' {key}="{html.escape(text)}"')
    return "".join(parts)


def _tag(name: str, body: str | None = None, /, **attrs: object) -> str:
    """``_tag("rect", x=1, stroke_width=2)`` -> ``<rect x="1" stroke-width="2"/>``."""
    text = _attr_text({k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()})
    return f"<{name}{text}/>" if body is None else f"<{name}{text}>{body}</{name}>"


def _text(content: str, x: float, y: float, size: float, color: str, *,
          bold: bool = False, flip: bool = False, **extra: object) -> str:
    """Text centred on (x, y); ``flip`` turns it upside down in place."""
    if flip:
        extra["transform"] = f"rotate(180 {_num(x)} {_num(y)})"
    return _tag("text", html.escape(content), x=float(x), y=float(y + 0.36 * size),
                font_size=float(size), fill=color, text_anchor="middle",
                font_weight="bold" if bold else None, **extra)


def _svg(body: str, width: int, height: int, view: str, name: str,
         extra: Mapping[str, str] | None = None, nested_at: tuple[float, float] | None = None) -> str:
    attrs: dict[str, object] = {}
    if nested_at is None:
        attrs.update(xmlns=SVG_NS, role="img", **{"aria-label": name})
    else:
        attrs.update(x=float(nested_at[0]), y=float(nested_at[1]))
    attrs.update(width=width, height=height, viewBox=view)
    attrs.update(extra or {})
    return f"<svg{_attr_text(attrs)}><title>{html.escape(name)}</title>{body}</svg>"


def _height(width: int) -> int:
    if width <= 0:
        raise ValueError(f"width must be positive, got {width!r}")
    return round(width * 7 / 5)


# ---------------------------------------------------------------- drawing
def _corner(rank: str, symbol: str, color: str) -> str:
    fit = {"textLength": "18", "lengthAdjust": "spacingAndGlyphs"} if rank == "10" else {}
    return (_text(rank, 11.5, 15, 18, color, bold=True, **fit)
            + _text(symbol, 11.5, 31.5, 17, color))


def _pips(rank: str, symbol: str, color: str) -> str:
    out = []
    for x, frac in _PIPS[rank]:
        y = _PIP_TOP + frac * (_PIP_BOTTOM - _PIP_TOP)
        out.append(_text(symbol, x, y, _PIP_SIZE, color, flip=frac > 0.5))
    return "".join(out)


def _court(rank: str, symbol: str, color: str) -> str:
    return (_tag("rect", x=22, y=18, width=56, height=104, rx=5, fill=_PANEL,
                 stroke=color, stroke_width=1.3)
            + _tag("rect", x=25, y=21, width=50, height=98, rx=3, fill="none",
                   stroke=color, stroke_width=0.5, stroke_opacity=0.6)
            + _HEADGEAR[rank].replace("{color}", color)
            + _text(rank, 50, 70, 40, color, bold=True)
            + _text(symbol, 50, 102, 22, color))


def _front(rank: str, suit: str, color: str) -> str:
    symbol = _SUITS[suit][0]
    corner = _corner(rank, symbol, color)
    if rank == "A":
        middle = _text(symbol, 50, 70, 64, color)
    elif rank in _HEADGEAR:
        middle = _court(rank, symbol, color)
    else:
        middle = _pips(rank, symbol, color)
    return f'{corner}<g transform="rotate(180 50 70)">{corner}</g>{middle}'


def _back() -> str:
    cells = []
    for row in range(11):
        for col in range(8):
            cx, cy = 8 + (col + 0.5) * 10.5, 8 + (row + 0.5) * (124 / 11)
            cells.append(f"M{_num(cx)} {_num(cy - 5.64)}l5.25 5.64l-5.25 5.64l-5.25 -5.64z")
    return (_tag("rect", x=5, y=5, width=90, height=130, rx=4.5, fill=_BACK)
            + _tag("rect", x=8, y=8, width=84, height=124, rx=3, fill="none",
                   stroke="#ffffff", stroke_width=1.2)
            + _tag("path", d="".join(cells), fill="none", stroke=_BACK_LINE, stroke_width=0.8)
            + _tag("ellipse", cx=50, cy=70, rx=19, ry=25, fill=_BACK, stroke="#ffffff",
                   stroke_width=1.6)
            + _tag("path", d="M50 52 L62 70 L50 88 L38 70 Z", fill=_GOLD,
                   stroke="#ffffff", stroke_width=1))


def _card_body(card: object, selected: bool, four_color: bool, face_down: bool) -> tuple[str, str]:
    """Return (accessible name, SVG content in 100 x 140 units)."""
    face = "#fff8e6" if selected else "#ffffff"
    body = _tag("rect", x=0.5, y=0.5, width=99, height=139, rx=7, fill=face,
                stroke=_BORDER, stroke_width=1)
    if face_down:
        name, body = "nedvänt kort (face-down card)", body + _back()
    else:
        rank, suit = _parse(card)
        colors = _FOUR_COLOR if four_color else _TWO_COLOR
        name, body = card_name(card), body + _front(rank, suit, colors[suit])
    if selected:
        body += _tag("rect", x=2.5, y=2.5, width=95, height=135, rx=5.5, fill="none",
                     stroke=_HIGHLIGHT, stroke_width=5)
    return name, body


def _placeholder(text: str) -> str:
    return (_tag("rect", x=2, y=2, width=96, height=136, rx=7, fill="none", stroke=_MUTED,
                 stroke_width=2, stroke_dasharray="7 5")
            + _text(text, 50, 70, 15, _MUTED))


# ---------------------------------------------------------------- public
def card_name(card: object) -> str:
    """Accessible Swedish name of a card.

    >>> card_name("10D"), card_name("AS"), card_name("QH")
    ('ruter 10 (storan)', 'spader ess', 'hjärter dam')
    """
    rank, suit = _parse(card)
    name = f"{_SUITS[suit][1]} {_RANK_WORDS.get(rank, rank)}"
    nickname = _NICKNAMES.get(rank + suit)
    return f"{name} ({nickname})" if nickname else name


def card_label(card: object) -> str:
    """Short label with the suit symbol.

    >>> card_label("10D"), card_label("AS")
    ('10♦', 'A♠')
    """
    rank, suit = _parse(card)
    return rank + _SUITS[suit][0]


def card_svg(card: object, *, width: int = 72, selected: bool = False,
             four_color: bool = False, face_down: bool = False,
             attrs: dict[str, str] | None = None) -> str:
    """One standalone ``<svg>`` element showing the card (5:7, ``width`` px wide).

    ``face_down=True`` draws the back; the card is then not inspected at all
    (pass ``None`` for unknown cards) and its name is not revealed.
    ``attrs`` are extra (escaped) attributes for the root element.

    >>> svg = card_svg("QH", width=60)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), 'height="84"' in svg
    (True, True)
    """
    name, body = _card_body(card, selected, four_color, face_down)
    extra = {"font-family": FONT, **(attrs or {})}
    return _svg(body, width, _height(width), "0 0 100 140", name, extra)


def row_svg(cards: Iterable[object], *, width: int = 72, overlap: float = 0.0,
            selected: Collection[int] = (), four_color: bool = False, gap: int = 6,
            label: str | None = None) -> str:
    """Several cards side by side in one ``<svg>`` (a hand or the table).

    ``overlap`` (clamped to 0..0.7, a fraction of ``width``) fans the cards;
    ``selected`` holds indices to highlight.  No cards gives a dashed
    placeholder reading "empty" (or ``label``); ``label`` is also the
    picture's accessible name (default: the card names joined by commas).

    >>> row_svg(["AS", "10D"], width=50).count("<svg")
    3
    """
    cards = list(cards)
    height = _height(width)
    overlap = min(max(float(overlap), 0.0), 0.7)
    step = width * (1 - overlap) if overlap > 0 else width + gap
    parts, names = [], []
    for i, card in enumerate(cards):
        name, body = _card_body(card, i in selected, four_color, False)
        names.append(name)
        parts.append(_svg(body, width, height, "0 0 100 140", name, nested_at=(i * step, 0.0)))
    if not cards:
        parts.append(_svg(_placeholder(label or "empty"), width, height, "0 0 100 140",
                          label or "empty", nested_at=(0.0, 0.0)))
    total = math.ceil(width + step * max(len(cards) - 1, 0))
    name = label or (", ".join(names) if names else "empty")
    view = f"0 0 {total} {height}"
    return _svg("".join(parts), total, height, view, name, {"font-family": FONT})


def stack_svg(count: int, *, width: int = 72, label: str | None = None) -> str:
    """A face-down pile of ``count`` cards with the count on it and ``label`` under it.

    >>> "12" in stack_svg(12, label="klädda högen")
    True
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count!r}")
    height = _height(width)
    shift = max(2, round(width * 0.04))
    text_h = round(width * 0.24) if label else 0
    total_w, total_h = width + 3 * shift, height + 3 * shift + text_h
    layers = min(count, 4)
    parts = []
    for i in range(layers):
        off = (4 - layers + i) * shift
        _, body = _card_body(None, False, False, True)
        parts.append(_svg(body, width, height, "0 0 100 140", f"{count} kort",
                          nested_at=(off, 3 * shift - off)))
    top_x = (3 if layers else 0) * shift
    top_y = 3 * shift - top_x
    if not layers:
        parts.append(_svg(_placeholder(""), width, height, "0 0 100 140", "0 kort",
                          nested_at=(0.0, 3.0 * shift)))
    cx, cy, size = top_x + width / 2, top_y + height / 2, width * 0.26
    badge_w = size * (0.75 + 0.62 * len(str(count)))
    parts.append(_tag("rect", x=cx - badge_w / 2, y=cy - size * 0.72, width=badge_w,
                      height=size * 1.44, rx=size * 0.3, fill="#ffffff", stroke=_BORDER,
                      stroke_width=1))
    parts.append(_text(str(count), cx, cy, size, _BLACK, bold=True))
    if label:
        parts.append(_text(label, total_w / 2, height + 3 * shift + text_h / 2,
                           text_h * 0.62, "currentColor"))
    name = f"{label}: {count} kort" if label else f"{count} kort"
    return _svg("".join(parts), total_w, total_h, f"0 0 {total_w} {total_h}", name,
                {"font-family": FONT})


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
    code = "back" if face_down else "".join(_parse(card))
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
    h = _height(width)
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

    def __init__(self, cards: "Iterable[object] | str", kind: str = "hand", *, kladda: Iterable[object] = (),
                 width: int = 72, four_color: bool = False, label: str | None = None) -> None:
        if kind not in ("hand", "table"):
            raise ValueError(f"kind must be 'hand' or 'table', got {kind!r}")
        if isinstance(cards, str):
            cards = cards.replace(",", " ").replace("+", " ").split()
        self.cards = [str(c) for c in cards]
        for c in self.cards:
            _parse(c)
        self.kind, self.kladda, self.width = kind, [str(c) for c in kladda], width
        self.four_color, self.label = four_color, label

    def _repr_html_(self) -> str:
        if self.kind == "table":
            return table_html(self.cards, self.kladda, width=self.width, four_color=self.four_color,
                              label=self.label or "Table (bordet)")
        return hand_html(self.cards, width=self.width, four_color=self.four_color, label=self.label)

    def __repr__(self) -> str:
        return f"CardsView({' '.join(self.cards)!r}, kind={self.kind!r})"


def giv_html(giv: object, *, show: "int | str | None" = "turn", names: "Sequence[str] | None" = None,
             width: int = 56, four_color: bool = False) -> str:
    """A whole position of a giv as HTML.

    Each seat's hand is face-down except the seat ``show`` (``"turn"``: the
    player to move, the default; an int: that seat; ``"all"``; ``None``: none).
    Shows the table and klädda högen, pile sizes, tabbe marks and dukningar,
    whose turn it is, the deal count, and "tabbe på …" when a card could take
    the whole table.  After the giv, the scoring lines.

    >>> from krypteach import Giv
    >>> h = giv_html(Giv(seed=1))
    >>> h.count('class="kt-hand"'), 'kt-table' in h, 'Seat 1 to play' in h
    (2, True, True)
    """
    from .narrate import describe_result, seat_names, tabbe_pa_text  # lazy: narrate uses the engine

    n = giv.rules.players
    names = seat_names(n, names) if names is not None else [f"Seat {i}" for i in range(n)]
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
