"""HTML views of hands, tables and a whole giv, for notebook display.

Static HTML with inline styles (``_repr_html_``), drawn with the card SVGs of
:mod:`krypteach.views.svg`. The giv view reads the giv's public state and the
narration of :mod:`krypteach.teaching.narrate`.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from ..engine.builds import Build
from ..engine.cards import Card
from ..engine.game import is_learner
from ..i18n import N_, _, ngettext
from ..teaching.narrate import DEFAULT_NAMES, describe_result, seat_names, tabbe_pa_text
from .svg import FONT, build_label, build_svg, card_height, card_svg, parse_code, stack_svg

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
#: the table's label unless another is given
TABLE_LABEL = N_("Table (bordet)")


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def card_html(card: object, *, width: int = 72, selected: bool = False, four_color: bool = False,
              face_down: bool = False, index: int | None = None, style: str = "") -> str:
    """One card as an inline ``<svg class="kt-card" data-card="…">`` element.

    >>> s = card_html("10D", width=40)
    >>> 'class="kt-card"' in s, 'data-card="10D"' in s, 'aria-label="10 of diamonds (storan)"' in s
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
    name = label or _("hand")
    body = "".join(items) or _empty_html(width, _("empty hand"))
    head = f'<div class="kt-label" style="{_LABEL}">{_esc(label)}</div>' if label else ""
    count = ngettext("{what}: {n} card", "{what}: {n} cards", len(cards)).format(what=name, n=len(cards))
    return (f'<div class="kt-hand-wrap" style="display:inline-block;margin:4px 0;">{head}'
            f'<div class="kt-hand" role="group" aria-label="{_esc(count)}" '
            f'style="{_ROW}">{body}</div></div>')


def _empty_html(width: int, text: str) -> str:
    h = card_height(width)
    return (f'<div class="kt-empty" style="flex:none;width:{width}px;height:{h}px;box-sizing:border-box;'
            f'border:2px dashed rgba(255,255,255,.45);border-radius:8px;display:flex;align-items:center;'
            f'justify-content:center;text-align:center;font:12px {FONT};opacity:.8">{_esc(text)}</div>')


def as_table_item(item: object) -> Card | Build:
    """A table item from a card (or its code) or a build (or its text ``[9:4S+5H@0]``).

    >>> as_table_item("[9:4S+5H@1]"), as_table_item("7C")
    (Build.parse('[9:4S+5H@1]'), Card('7C'))
    """
    if isinstance(item, Build | Card):
        return item
    text = str(item).strip()
    if text.startswith("["):
        return Build.parse(text)
    try:
        return Card(text)
    except ValueError:
        raise ValueError(f"not a card code or a build: {text!r} (expected e.g. '10D' or '[9:4S+5H@0]')") from None


def build_owner(build: Build, names: Sequence[str] | None = None, you: int | None = 0) -> tuple[str | None, bool]:
    """Whose a build is, as :func:`build_label` takes it: (the owner's name, is it yours).

    The owner is seat ``build.owner`` of ``names`` (default: the narration's You, Bea,
    Dan, …); ``you`` is the viewer's seat (``None``: name every owner).
    """
    if you is not None and build.owner == you:
        return None, True
    if names is not None and 0 <= build.owner < len(names):
        return names[build.owner], False
    if names is None and 0 <= build.owner < len(DEFAULT_NAMES):
        return seat_names(build.owner + 1)[build.owner], False
    return None, False


def build_html(build: Build | str, *, names: Sequence[str] | None = None, you: int | None = 0, width: int = 72,
               four_color: bool = False, selected: bool = False, card_class: str = "kt-build",
               attrs: dict[str, str] | None = None) -> str:
    """A build (bygge) on the table as one group: ``<div class="kt-build" data-build="[9:4S+5H@0]">``
    with its cards fanned and its value big (:func:`~krypteach.views.svg.build_svg`), "Bygge 9",
    whose it is ("yours" for seat ``you``, else the owner's name from ``names``) and "låst"
    (locked) for a multiple build. Its ``aria-label`` says it all (:func:`build_label`).

    ``card_class`` is the group's class (a widget adds ``kt-card`` to make it one clickable
    item); ``attrs`` are more attributes for it (escaped).

    >>> h = build_html("[9:4S+5H@1]", names=["Ann", "Bea"])
    >>> 'data-build="[9:4S+5H@1]"' in h, 'aria-label="Bygge 9 (build of 9): 4♠ + 5♥, Bea&#x27;s"' in h
    (True, True)
    >>> "yours" in build_html("[9:4S+5H@0]"), "låst (locked)" in build_html("[9:4S+5H+9C@1]")
    (True, True)
    """
    b = build if isinstance(build, Build) else Build.parse(str(build))
    owner, yours = build_owner(b, names, you)
    name = build_label(b.value, b.cards, owner=owner, yours=yours, locked=b.locked)
    border = "#f0a400" if selected else "rgba(233,185,53,.85)"
    back = "rgba(240,164,0,.28)" if selected else "rgba(0,0,0,.16)"
    group = {"class": card_class + (" kt-locked" if b.locked else "") + (" kt-selected" if selected else ""),
             "data-build": str(b), "data-value": str(b.value), "data-owner": str(b.owner),
             "role": "img", "aria-label": name,
             "style": (f"flex:none;display:inline-flex;flex-direction:column;align-items:center;gap:1px;"
                       f"box-sizing:border-box;padding:3px 5px 4px;border:2px solid {border};border-radius:12px;"
                       f"background:{back};color:inherit;font:12px/1.25 {FONT};text-align:center")}
    for key, value in (attrs or {}).items():
        group[key] = (group[key] + " " + value) if key == "class" else value
    head = _("Bygge {value} (build of {value})").format(value=b.value)
    whose = _("yours") if yours else _("{owner}'s").format(owner=owner) if owner is not None else ""
    lines = [whose] + ([_("låst (locked)")] if b.locked else [])
    picture = build_svg(b.value, b.cards, width=width, locked=b.locked, selected=selected, four_color=four_color,
                        label=name, attrs={"aria-hidden": "true", "focusable": "false", "style": "display:block"})
    tail = "".join(f'<div class="kt-build-{cls}">{_esc(text)}</div>'
                   for cls, text in zip(("owner", "locked"), lines) if text)
    attrs_text = "".join(f' {k}="{_esc(v)}"' for k, v in group.items())
    return (f'<div{attrs_text}><div class="kt-build-head" aria-hidden="true" style="font-weight:700;'
            f'max-width:{width * 2}px">{_esc(head)}</div>{picture}'
            f'<div aria-hidden="true" style="max-width:{width * 2}px">{tail}</div></div>')


def table_html(cards: Iterable[object], kladda: Iterable[object] = (), *, width: int = 72,
               selected: Collection[int] = (), four_color: bool = False, label: str | None = TABLE_LABEL,
               note: str | None = None, names: Sequence[str] | None = None, you: int | None = 0) -> str:
    """The table as HTML: a green felt ``<div class="kt-table">`` with the table cards,
    and *klädda högen* (face cards set aside) as a stack beside them when not empty.

    Classic Kasino's builds (:class:`~krypteach.engine.builds.Build`, or their text
    ``[9:4S+5H@0]``) among ``cards`` are drawn as groups (:func:`build_html`: whose they
    are from ``names`` and ``you``).

    >>> t = table_html(["9S", "2C", "5D", "7H"], kladda=["KS"])
    >>> t.count('class="kt-card'), 'class="kt-table"' in t, 'klädda högen' in t
    (4, True, True)
    >>> t = table_html(["7C", "[9:4S+5H@1]"])
    >>> t.count('class="kt-card'), t.count('class="kt-build"'), '1 card, 1 build' in t
    (1, 1, True)
    """
    items, kladda = [as_table_item(c) for c in cards], list(kladda)
    if label == TABLE_LABEL:
        label = _(label)
    drawn = "".join(build_html(c, names=names, you=you, width=width, four_color=four_color, selected=i in selected)
                    if isinstance(c, Build) else
                    card_html(c, width=width, selected=i in selected, four_color=four_color, index=i)
                    for i, c in enumerate(items)) or _empty_html(width, _("empty table"))
    side = ""
    if kladda:
        stack = stack_svg(len(kladda), width=round(width * 0.8), label=None)
        # the messages outside the f-string: Babel on Python 3.11 does not see a _() inside one
        title = _esc(_("klädda högen: face cards set aside; the last capturer takes them"))
        gloss = _esc(_("(face cards set aside)"))
        side = (f'<div class="kt-kladda" title="{title}" '
                f'style="flex:0 0 auto;max-width:8em;margin-left:auto;text-align:center;font:12px/1.3 {FONT};">'
                f'{stack}<div>klädda högen<br><span style="opacity:.8">{gloss}</span></div></div>')
    head = f'<div class="kt-label" style="{_LABEL}">{_esc(label)}</div>' if label else ""
    foot = f'<div class="kt-note" style="font:13px/1.4 {FONT};margin-top:6px">{_esc(note)}</div>' if note else ""
    n_builds = sum(isinstance(c, Build) for c in items)
    n_cards = len(items) - n_builds
    what = label or _("table")
    if n_builds:
        # i18n: the table's name for a screen reader: "Table (bordet): 2 cards, 1 build"
        count = ngettext("{what}: {n} card, {builds}", "{what}: {n} cards, {builds}", n_cards).format(
            what=what, n=n_cards, builds=ngettext("{n} build", "{n} builds", n_builds).format(n=n_builds))
    else:
        count = ngettext("{what}: {n} card", "{what}: {n} cards", n_cards).format(what=what, n=n_cards)
    return (f'<div class="kt-table" role="group" aria-label="{_esc(count)}" '
            f'style="{_FELT}padding:10px 12px;margin:4px 0;display:block;max-width:100%;box-sizing:border-box">'
            f'{head}<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start">'
            f'<div style="{_ROW}flex:1 1 12em;min-width:0">{drawn}</div>{side}</div>{foot}</div>')


class CardsView:
    """A hand or a table that shows itself in a notebook.

    A table may hold classic Kasino's builds: :class:`~krypteach.engine.builds.Build`
    objects or their text (``"7C [9:4S+5H@1]"``), whose owners are called by ``names``
    (seat ``you``, default 0, is "yours").

    >>> CardsView(["9H", "4C"])._repr_html_().count('data-card=')
    2
    >>> 'kt-table' in CardsView("9S 2C 5D 7H", kind="table")._repr_html_()
    True
    >>> 'data-build="[9:4S+5H@1]"' in CardsView("7C [9:4S+5H@1]", kind="table")._repr_html_()
    True
    """

    def __init__(self, cards: Iterable[object] | str, kind: str = "hand", *, kladda: Iterable[object] = (),
                 width: int = 72, four_color: bool = False, label: str | None = None,
                 names: Sequence[str] | None = None, you: int | None = 0) -> None:
        if kind not in ("hand", "table"):
            raise ValueError(f"kind must be 'hand' or 'table', got {kind!r}")
        if isinstance(cards, str):
            words = cards.replace(",", " ").split()  # a build's text keeps its "+": "[9:4S+5H@0]"
            cards = [part for w in words for part in ([w] if w.startswith("[") else w.split("+")) if part]
        self.cards = [str(c) for c in cards]
        for c in self.cards:
            if kind == "table" and c.startswith("["):
                as_table_item(c)
            else:
                parse_code(c)
        self.kind, self.kladda, self.width = kind, [str(c) for c in kladda], width
        self.four_color, self.label = four_color, label
        self.names, self.you = names, you

    def _repr_html_(self) -> str:
        if self.kind == "table":
            return table_html(self.cards, self.kladda, width=self.width, four_color=self.four_color,
                              label=self.label or _(TABLE_LABEL), names=self.names, you=self.you)
        return hand_html(self.cards, width=self.width, four_color=self.four_color, label=self.label)

    def __repr__(self) -> str:
        return f"CardsView({' '.join(self.cards)!r}, kind={self.kind!r})"


def kasino_result_lines(giv: Giv, names: Sequence[str]) -> list[str]:
    """The scoring of a finished giv of classic Kasino in words, from the engine's result:
    each player's points (cards and sistan, tabbar) and who wins (the highest score; avig
    kasino: the lowest).

    >>> from krypteach import Giv, Rules
    >>> g = Giv.from_position([["9D"], ["2C"]], [Card("9S")], rules=Rules.preset("kasino"))
    >>> _ = g.play("9D:9S"); _ = g.play("2C")
    >>> kasino_result_lines(g, ["You", "Bea"])[-1]
    'Highest score wins: You with 5.'
    """
    res, r = giv.result, giv.rules
    lines = [_("{name}: {score} ({points} for cards and sistan, tabbar {tabbar})").format(
        name=names[s], score=res.scores[s], points=res.card_points[s], tabbar=res.marks[s] * r.tabbe_points)
        for s in range(r.players)]
    if r.teams != "none":
        winners = _(" and ").join(_("team {number}").format(number=t + 1) for t in res.winners)
        best = res.team_scores[res.winners[0]]
    else:
        winners = _(" and ").join(names[s] for s in res.winners)
        best = res.scores[res.winners[0]]
    lines.append((_("Lowest score wins (avig kasino): {winners} with {score}.") if giv.game.lower_is_better else
                  _("Highest score wins: {winners} with {score}.")).format(winners=winners, score=best))
    return lines


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
            badges.append(_("dealer (givare)"))
        if giv.rules.teams != "none":
            badges.append(_("team {number}").format(number=giv.rules.team_of(s) + 1))
        marks = " ".join(["▮"] * giv.marks[s]) or "–"
        pile = giv.piles[s]
        border = "#f0a400" if turn else "#d7d2c4"
        to_play = _esc(" ▶ " + _("to play")) if turn else ""
        seats.append(
            f'<div class="kt-seat{" kt-to-play" if turn else ""}" data-seat="{s}" style="border:2px solid {border};'
            f'border-radius:10px;padding:6px 8px;background:#fffdf7;color:#222;min-width:{width * 2}px;'
            # as wide as its words where there is room, their lines wrapped where there is not (a phone)
            f'flex:0 1 auto;max-width:100%;box-sizing:border-box">'
            f'<div style="font:600 14px {FONT}">{_esc(names[s])}'
            f'{to_play}</div>'
            f'<div style="font:11px {FONT};color:#666">{_esc(", ".join(badges))}</div>'
            + hand_html(hand, width=width, face_down=not face_up, overlap=0 if face_up else 0.6,
                        four_color=four_color)
            + f'<div style="font:12px/1.5 {FONT}">'
            + _esc(_("pile: {pile} cards · tabbe marks: {marks} · dukningar: {dukningar}").format(
                pile=len(pile), marks=marks, dukningar=giv.dukningar[s]) if giv.game.has_dukning else
                   # a tabbe is a point and nobody gets a dukning (classic Kasino)
                   _("pile: {pile} cards · tabbar: {marks}").format(pile=len(pile), marks=marks))
            + '</div></div>')
    deal = ngettext("utdelning {number} of {count} · stock {stock} card",
                    "utdelning {number} of {count} · stock {stock} cards", giv.stock_size).format(
        number=giv.deal_index, count=len(giv.deals), stock=giv.stock_size)
    if over:
        status = _("The giv is over.")
    else:
        status = _("{name} to play.").format(name=names[giv.turn])
    pa = tabbe_pa_text(giv.tabbe_pa()) if giv.table and not over else None
    note = _("{announcement}: a card of that rank would take the whole table.").format(
        announcement=pa.capitalize()) if pa else None
    you = 0 if is_learner(names[0]) else None
    table = table_html(giv.table, giv.kladda, width=width, four_color=four_color, note=note, names=names, you=you)
    result = ""
    if over:
        # a game without dukningar (classic Kasino) counts cards, sistan and tabbar
        lines = (describe_result(giv.result, names, piles=giv.piles) if giv.game.has_dukning
                 else kasino_result_lines(giv, names))
        result = ('<ul class="kt-result" style="font:13px/1.5 ' + FONT + ';margin:6px 0">'
                  + "".join(f"<li>{_esc(line)}</li>" for line in lines) + "</ul>")
    # the family of games, as the header has always read (avig kasino too: "Kasino · …")
    game = (_("Kasino · {n} players · {deal}") if giv.game.has_builds
            else _("Krypkasino · {n} players · {deal}")).format(n=n, deal=deal)
    return (f'<div class="kt-giv" style="font-family:{FONT};max-width:1100px">'
            f'<div style="font:13px {FONT};color:#555;margin-bottom:4px">{_esc(game)}</div>'
            f'<div class="kt-status" style="font:600 14px {FONT};margin-bottom:6px">{_esc(status)}</div>'
            f'<div style="display:flex;flex-wrap:wrap;gap:8px;margin-bottom:6px">{"".join(seats)}</div>'
            f'{table}{result}</div>')
