"""SVG drawings of playing cards for krypteach.

Pure functions, no engine logic: every function takes card codes such as
``"10D"``, ``"2S"`` or ``"QH"`` (rank ``A 2-10 J Q K`` followed by suit
``S H D C``), or any object whose ``str()`` is such a code, and returns an
SVG (or HTML) string.  Each card is drawn in a 100 x 140 user-unit box and
scaled to the requested pixel width, so the output is deterministic and
resolution independent.  The HTML views of hands, tables and givar
(:mod:`krypteach.views.html`) and the widgets use :func:`card_svg` too, so
there is one renderer.
"""
from __future__ import annotations

import functools
import html
import math
import re
from collections.abc import Collection, Iterable, Mapping

from ..i18n import N_, _

FONT = "DejaVu Sans, Arial, sans-serif"
SVG_NS = "http://www.w3.org/2000/svg"

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = {"S": ("♠", N_("spades")), "H": ("♥", N_("hearts")),
          "D": ("♦", N_("diamonds")), "C": ("♣", N_("clubs"))}
_RANK_WORDS = {"A": N_("ace"), "J": N_("jack"), "Q": N_("queen"), "K": N_("king")}
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
def parse_code(card: object) -> tuple[str, str]:
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
         extra: Mapping[str, str] | None = None, nested_at: tuple[float, float] | None = None,
         drawing_hidden: bool = False) -> str:
    attrs: dict[str, object] = {}
    if nested_at is None:
        attrs.update(xmlns=SVG_NS, role="img", **{"aria-label": name})
    else:
        attrs.update(x=float(nested_at[0]), y=float(nested_at[1]))
    attrs.update(width=width, height=height, viewBox=view)
    attrs.update(extra or {})
    if drawing_hidden:  # a card is named by its label; its drawn letters are not text to read out
        body = f'<g aria-hidden="true">{body}</g>'
    return f"<svg{_attr_text(attrs)}><title>{html.escape(name)}</title>{body}</svg>"


def card_height(width: int) -> int:
    """The pixel height of a card drawn ``width`` pixels wide (cards are 5:7)."""
    if width <= 0:
        raise ValueError(f"width must be positive, got {width!r}")
    return round(width * 7 / 5)


# ---------------------------------------------------------------- drawing
def _corner(rank: str, symbol: str, color: str) -> str:
    if rank == "10":  # squeezed to the width of one digit
        head = _text(rank, 11.5, 15, 18, color, bold=True, textLength="18", lengthAdjust="spacingAndGlyphs")
    else:
        head = _text(rank, 11.5, 15, 18, color, bold=True)
    return head + _text(symbol, 11.5, 31.5, 17, color)


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


@functools.cache  # a page draws the same 52 faces again and again (each click redraws a row); no words in it
def _front(rank: str, suit: str, color: str) -> str:
    symbol = _SUITS[suit][0]
    corner = _corner(rank, symbol, color)
    if rank == "A":
        middle = _text(symbol, 50, 70, 64, color)
    elif rank in _HEADGEAR:
        middle = _court(rank, symbol, color)
    else:
        middle = _pips(rank, symbol, color)
    # the turned corner repeats the drawing (<use>), not the text: a page then reads each rank once,
    # as its label says it (axe-core's label-content-name-mismatch); the id names the drawing alone,
    # so two copies of one card on a page refer to the same picture
    mark = f"kt-corner-{rank}{suit}-{color.lstrip('#')}"
    return (f'<g id="{mark}">{corner}</g><use href="#{mark}" transform="rotate(180 50 70)"/>{middle}')


@functools.cache
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
        name, body = _("nedvänt kort (face-down card)"), body + _back()
    else:
        rank, suit = parse_code(card)
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
    """Accessible name of a card in the page's language (the game's nicknames stay Swedish).

    >>> card_name("10D"), card_name("AS"), card_name("QH")
    ('10 of diamonds (storan)', 'ace of spades', 'queen of hearts')
    >>> from krypteach.i18n import use_language
    >>> with use_language("sv"):
    ...     card_name("10D"), card_name("AS"), card_name("QH")
    ('ruter 10 (storan)', 'spader ess', 'hjärter dam')
    """
    rank, suit = parse_code(card)
    word = _(_RANK_WORDS[rank]) if rank in _RANK_WORDS else rank
    name = _("{rank} of {suit}").format(rank=word, suit=_(_SUITS[suit][1]))
    nickname = _NICKNAMES.get(rank + suit)
    return _("{card} ({nickname})").format(card=name, nickname=nickname) if nickname else name


def card_label(card: object) -> str:
    """Short label with the suit symbol.

    >>> card_label("10D"), card_label("AS")
    ('10♦', 'A♠')
    """
    rank, suit = parse_code(card)
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
    return _svg(body, width, card_height(width), "0 0 100 140", name, extra, drawing_hidden=True)


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
    height = card_height(width)
    overlap = min(max(float(overlap), 0.0), 0.7)
    step = width * (1 - overlap) if overlap > 0 else width + gap
    parts, names = [], []
    for i, card in enumerate(cards):
        name, body = _card_body(card, i in selected, four_color, False)
        names.append(name)
        parts.append(_svg(body, width, height, "0 0 100 140", name, nested_at=(i * step, 0.0)))
    empty = _("empty")
    if not cards:
        parts.append(_svg(_placeholder(label or empty), width, height, "0 0 100 140",
                          label or empty, nested_at=(0.0, 0.0)))
    total = math.ceil(width + step * max(len(cards) - 1, 0))
    name = label or (", ".join(names) if names else empty)
    view = f"0 0 {total} {height}"
    return _svg("".join(parts), total, height, view, name, {"font-family": FONT})


def stack_svg(count: int, *, width: int = 72, label: str | None = None) -> str:
    """A face-down pile of ``count`` cards with the count on it and ``label`` under it.

    >>> "12" in stack_svg(12, label="klädda högen")
    True
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count!r}")
    height = card_height(width)
    shift = max(2, round(width * 0.04))
    text_h = round(width * 0.24) if label else 0
    total_w, total_h = width + 3 * shift, height + 3 * shift + text_h
    layers = min(count, 4)
    parts = []
    for i in range(layers):
        off = (4 - layers + i) * shift
        __, body = _card_body(None, False, False, True)
        parts.append(_svg(body, width, height, "0 0 100 140", _("{count} kort").format(count=count),
                          nested_at=(off, 3 * shift - off)))
    top_x = (3 if layers else 0) * shift
    top_y = 3 * shift - top_x
    if not layers:
        parts.append(_svg(_placeholder(""), width, height, "0 0 100 140", _("{count} kort").format(count=0),
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
    name = (_("{label}: {count} kort").format(label=label, count=count) if label
            else _("{count} kort").format(count=count))
    return _svg("".join(parts), total_w, total_h, f"0 0 {total_w} {total_h}", name,
                {"font-family": FONT})


# ---------------------------------------------------------------- builds (classic Kasino)
def build_label(value: int, cards: Iterable[object], *, owner: str | None = None, yours: bool = False,
                locked: bool = False) -> str:
    """A build's accessible name: its value, its cards, whose it is, and "låst" for a multiple build.

    ``owner`` is the owner's name; ``yours`` says it is the viewer's own build.

    >>> build_label(9, ["4S", "5H"], owner="Ann")
    "Bygge 9 (build of 9): 4♠ + 5♥, Ann's"
    >>> build_label(9, ["4S", "5H", "9C"], yours=True, locked=True)
    'Bygge 9 (build of 9), låst (locked): 4♠ + 5♥ + 9♣, yours'
    """
    shown = " + ".join(card_label(c) for c in cards)
    if yours:
        text = (_("Bygge {value} (build of {value}), låst (locked): {cards}, yours") if locked
                else _("Bygge {value} (build of {value}): {cards}, yours"))
    elif owner is not None:
        # i18n: {owner} is a player's name: "Ann's" build
        text = (_("Bygge {value} (build of {value}), låst (locked): {cards}, {owner}'s") if locked
                else _("Bygge {value} (build of {value}): {cards}, {owner}'s"))
    else:
        text = (_("Bygge {value} (build of {value}), låst (locked): {cards}") if locked
                else _("Bygge {value} (build of {value}): {cards}"))
    return text.format(value=value, cards=shown, owner=owner)


def build_svg(value: int, cards: Iterable[object], *, width: int = 72, overlap: float = 0.5,
              locked: bool = False, selected: bool = False, four_color: bool = False,
              label: str | None = None, attrs: Mapping[str, str] | None = None) -> str:
    """A build (bygge) as one ``<svg>``: its cards fanned, its value big in a gold
    badge over the last card's free corner; a locked (multiple) build has a double ring.

    ``label`` is the accessible name (default :func:`build_label` without the owner);
    ``selected`` outlines every card.

    >>> s = build_svg(9, ["4S", "5H"], width=50)
    >>> s.count("<svg"), ">9</text>" in s, 'aria-label="Bygge 9 (build of 9): 4♠ + 5♥"' in s
    (3, True, True)
    """
    cards = list(cards)
    if not cards:
        raise ValueError("a build holds at least one card")
    height = card_height(width)
    overlap = min(max(float(overlap), 0.0), 0.8)
    step = width * (1 - overlap)
    radius = round(width * 0.23, 2)
    top = radius * 0.8  # room above the cards for the badge
    fan = width + step * (len(cards) - 1)
    total_w, total_h = math.ceil(fan + radius * 0.7), math.ceil(height + top)
    parts = []
    for i, card in enumerate(cards):
        name, body = _card_body(card, selected, four_color, False)
        parts.append(_svg(body, width, height, "0 0 100 140", name, nested_at=(i * step, top)))
    cx, cy = fan - radius * 0.3, radius  # over the last card's top right corner, which has no index
    parts.append(_tag("circle", cx=cx, cy=cy, r=radius, fill=_GOLD, stroke=_GOLD_DARK, stroke_width=1.5))
    if locked:
        parts.append(_tag("circle", cx=cx, cy=cy, r=radius * 0.8, fill="none", stroke=_GOLD_DARK, stroke_width=1.2))
    size = radius * (1.15 if value < 10 else 0.95)
    parts.append(_text(str(value), cx, cy, size, _BLACK, bold=True))
    name = label or build_label(value, cards, locked=locked)
    extra = {"font-family": FONT, **(attrs or {})}
    return _svg("".join(parts), total_w, total_h, f"0 0 {total_w} {total_h}", name, extra)


def sparkline_svg(values: Iterable[float], name: str, *, width: int = 240, height: int = 48,
                  color: str = "#1f5fa8") -> str:
    """A small line of ``values`` (a learner's rating after each puzzle), oldest at the left,
    scaled to fit; ``name`` says in words what it shows (a screen reader reads it). Fewer than
    two values draw a dot, none an empty box.

    >>> sparkline_svg([1500, 1450, 1520], "Your rating")[:76]
    '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Your rating" '
    >>> "polyline" in sparkline_svg([1500, 1450], "r"), "circle" in sparkline_svg([1500], "r")
    (True, True)
    """
    ys = [float(v) for v in values]
    pad = 4.0
    body = _tag("rect", x=0.5, y=0.5, width=float(width - 1), height=float(height - 1), fill="none",
                stroke="#c9c9c9", rx=3.0)
    if ys:
        low, high = min(ys), max(ys)
        span = (high - low) or 1.0
        step = (width - 2 * pad) / max(len(ys) - 1, 1)
        points = [(pad + i * step, height - pad - (y - low) / span * (height - 2 * pad)) for i, y in enumerate(ys)]
        if len(points) == 1:
            body += _tag("circle", cx=float(width / 2), cy=float(height / 2), r=3.0, fill=color)
        else:
            body += _tag("polyline", points=" ".join(f"{_num(x)},{_num(y)}" for x, y in points), fill="none",
                         stroke=color, stroke_width=2.0, stroke_linejoin="round")
            x, y = points[-1]
            body += _tag("circle", cx=float(x), cy=float(y), r=3.0, fill=color)
    return _svg(body, width, height, f"0 0 {width} {height}", name, drawing_hidden=True)
