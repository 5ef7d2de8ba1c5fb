"""The rules of the class's game on one printed page (A4), as a whole HTML document.

The sheet describes the game of its :class:`Rules`, as :func:`krypteach.engine.games.game_of`
answers for them: Krypkasino (creeping, tabbe and dukning, klädda högen), or, for a game
with builds (``has_builds``), classic Kasino and avig kasino (``lower_is_better``): the
deal, ta in, bygga, höja, multiple builds, the builder's duty, lägga ut, the card points
and the parti to its target. Every number on the sheet comes from the engine: the card
points from the game (:data:`krypteach.engine.cards.POINTS`, ``card_values`` and its
``card_points`` for the majorities), the deals from
:func:`krypteach.engine.rules.deal_plan`, the tabbe and dukning points, the
ace, the capture rule and the givar of a parti from the :class:`Rules`, and
the examples are worked out by the capture search and the game's legal moves. On
screen it has a Print button; printed (``@media print``) it is black on white with no buttons.

``krypteach rules-sheet --out FILE`` writes it, and ``krypteach serve`` serves it
at ``/krypteach/rules``.

>>> page = rules_sheet_html()
>>> page.startswith("<!DOCTYPE html>") and "@media print" in page and "storan" in page
True
>>> "+5" in page and "−5" in page and "42 points" in page
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..engine.captures import capture_options, tabbe_pa_text, tabbe_ranks
from ..engine.cards import POINTS, Card, parse_cards
from ..engine.games import Game, game_of
from ..engine.rules import Rules, RulesError, deal_plan
from ..i18n import N_, _, language, ngettext
from ..i18n.numbers import number
from ..teaching.narrate import signed, traffar_text

__all__ = ["rules_sheet_html"]

_CSS = """
* { box-sizing: border-box; }
body { font: 14px/1.45 "DejaVu Sans", Arial, sans-serif; color: #1d1d1b; background: #f6f3ea; margin: 0; }
main { max-width: 1000px; margin: 0 auto; padding: 18px 22px 28px; background: #fff; }
h1 { font-size: 22px; margin: 0 0 2px; }
.kt-sub { margin: 0 0 10px; color: #444; }
.kt-cols { column-count: 2; column-gap: 26px; }
section { break-inside: avoid; margin: 0 0 10px; }
h2 { font-size: 15px; margin: 0 0 3px; border-bottom: 2px solid #1e6b3c; color: #1e6b3c; }
p, ul { margin: 0 0 4px; }
ul { padding-left: 18px; }
table { border-collapse: collapse; width: 100%; margin: 2px 0 4px; }
th, td { text-align: left; vertical-align: top; padding: 1px 6px 1px 0; border-bottom: 1px solid #ddd; }
td.kt-n { text-align: right; white-space: nowrap; }
.kt-print { font: inherit; font-size: 15px; padding: 6px 16px; margin: 0 0 12px; cursor: pointer;
            border: 1px solid #1e6b3c; background: #1e6b3c; color: #fff; border-radius: 6px; }
.kt-foot { margin-top: 6px; font-size: 12px; color: #555; }
@media (max-width: 700px) { .kt-cols { column-count: 1; } main { padding: 12px; } }
@page { size: A4; margin: 10mm 11mm; }
@media print {
  .kt-noprint { display: none !important; }
  html, body, main { background: #fff !important; color: #000 !important; }
  body { font-size: 8.6pt; line-height: 1.3; }
  main { max-width: none; padding: 0; margin: 0; }
  h1 { font-size: 14pt; }
  h2 { font-size: 9.6pt; color: #000; border-bottom: 1pt solid #000; }
  .kt-sub, .kt-foot { color: #000; }
  .kt-cols { column-count: 2; column-gap: 7mm; }
  section { margin-bottom: 2.2mm; }
  th, td { border-bottom: 0.5pt solid #999; }
  a { color: #000; text-decoration: none; }
}
"""

_WORDS = [
    ("parti", N_("a match: several givar, scores added up; the lowest total wins")),
    ("giv", N_("one pass through the whole deck, scored at its end")),
    ("utdelning", N_("one deal inside a giv")),
    ("ta in", N_("capture: play a card and take table cards with it")),
    ("krypa", N_("creep: lay the card on the table because it takes nothing")),
    ("träff", N_("a hit: a table card of the same rank, or table cards adding up to the card's value")),
    ("tabbe", N_("a capture that leaves the table empty")),
    ("tvångstabbe", N_("the duty to take the whole table when a card in hand can")),
    ("dubbeltabbe", N_("taking the only table card with its identical twin")),
    ("dukning", N_("setting up a tabbe: the player who moved just before it")),
    ("klädda högen", N_("face cards (J, Q, K) dealt to the table, set aside")),
    ("storan / lillan", N_("10♦ (ruter tio) / 2♠ (spader två)")),
]
_WORD = dict(_WORDS)


def _esc(text: object) -> str:
    return html.escape(str(text), quote=False)


def _players_allowed(game: str = "krypkasino") -> list[int]:
    """The player counts the engine accepts for ``game`` (``Rules.game``)."""
    out = []
    for n in range(1, 13):
        try:
            Rules(players=n, game=game)
        except RulesError:
            continue
        out.append(n)
    return out


def _deal_rows(r: Rules, allowed: Sequence[int]) -> list[str]:
    """One table row per number of players the rules allow: the utdelningar of a giv."""
    rows = []
    for n in allowed:
        try:
            plan = deal_plan(r.replace(players=n, teams="none", givar=None))
        except RulesError:
            continue
        players = _("{n} players").format(n=n)
        rows.append(f"<tr><td class='kt-n'>{_esc(players)}</td><td>{_esc(_plan_text(plan))}</td></tr>")
    return rows


def _plan_text(plan: list[tuple[int, int]]) -> str:
    """``8 × (4 each, 4 to the table) + (4 each, 0)``: a deal plan in words."""
    parts: list[str] = []
    i = 0
    while i < len(plan):
        j = i
        while j < len(plan) and plan[j] == plan[i]:
            j += 1
        k, t = plan[i]
        # i18n: one deal of the deal plan: {k} cards to each player, {t} face up on the table
        one = _("({k} each, {t} to the table)").format(k=k, t=t)
        parts.append(f"{j - i} × {one}" if j - i > 1 else one)
        i = j
    return " + ".join(parts)


def _points_rows() -> list[tuple[str, str, int]]:
    """(cards, name, points) from the engine's points table, the scoring cards first."""
    named = [("10♦", "storan", Card("10D")), ("2♠", "lillan", Card("2S")), ("A♠", "spader ess", Card("AS"))]
    rows = [(sym, name, card.points) for sym, name, card in named]
    rows.append(("A♥ A♦ A♣", _("the other aces"), Card("AH").points))
    rows.append(("3♠ … K♠", _("the other spades"), Card("3S").points))
    rows.append((_("every other card"), "", Card("9H").points))
    return rows


def _ace_text(rules: Rules) -> str:
    if rules.ace == "1or14":
        return _("ess (A) 1 or 14: a played ace counts 14 (it takes 6+8, A+K …) and also takes a lone ace; "
                 "on the table an ace counts 1")
    if rules.ace == "1":
        return _("ess (A) counts 1 only")
    return _("ess (A) counts 14 when played and 1 on the table; a played ace takes no lone table ace")


def _capture_text(rules: Rules) -> str:
    if rules.capture == "free":
        return _("A card may take any träffar it has, or creep: taking is free (as in classic Kasino).")
    most = (_("Of several ways, you must take the one with the most cards.") if rules.capture == "maximum"
            else _("Of several ways to take all, you choose."))
    return _("A card that has a träff <b>must capture</b> (it may not creep) and must <b>take all it can</b>: "
             "no träff for it may stay on the table.") + " " + most


def _game_points_rows(game: Game) -> list[tuple[str, str, str]]:
    """(what, name, points) for a game whose piles also score majorities (classic Kasino):
    every number from the game (its card values, its card points of two test piles) and the rules."""
    r, values = game.rules, game.card_values
    rows: list[tuple[str, str, str]] = []
    for card, name in ((Card("10D"), "stora kasino"), (Card("2S"), "lilla kasino")):
        if values[int(card)]:
            rows.append((card.symbol, name, number(values[int(card)])))
    ace = values[int(Card("AH"))]
    if ace:
        rows.append(("A♠ A♥ A♦ A♣", _("each ace (ess)"), number(ace)))
    most_spades, most_cards = _majorities(game)
    if most_spades:
        rows.append((_("the most spades"), "", number(most_spades)))
    if most_cards:
        rows.append((_("the most cards"), "", number(most_cards)))
    if r.last_capture_point:
        rows.append((_("the last capture"), "sistan", number(r.last_capture_point)))
    rows.append((_("each tabbe"), "", signed(r.tabbe_points)))
    return rows


def _majorities(game: Game) -> tuple[int, int]:
    """The points the game gives for the most spades and for the most cards, asked of
    its card points: seat 0 holds the one spade, seat 1 the most cards (the other seats nothing)."""
    values = game.card_values
    spade, others = parse_cards("3S"), parse_cards("9H 9D")
    cp = game.card_points([spade, others, *([] for _seat in range(game.rules.players - 2))])
    return (cp[0] - sum(values[int(c)] for c in spade), cp[1] - sum(values[int(c)] for c in others))


def _kasino_ace_text(rules: Rules) -> str:
    if rules.ace == "1or14" and rules.lone_ace_builds:
        return _("ess (A) 1 or 14 as you choose in the move: from the hand it takes another ace or a build "
                 "of 14; in a sum of several cards an ace counts 1, but a lone table ace may stand as 14 in a "
                 "build of 14")
    if rules.ace == "1or14":
        return _("ess (A) 1 or 14 as you choose in the move: from the hand it takes another ace or a build "
                 "of 14; in a sum or a build an ace counts 1")
    return _ace_text(rules)


def _gathering_texts(r: Rules, game: Game) -> list[str]:
    """The options that gather more into a build (``raise_gathers``, ``lone_ace_builds``),
    each with an example the game's legal moves allow."""
    from ..engine.builds import Build

    out = []
    if r.multiple_builds and r.raise_gathers:
        table: list[Card | Build] = [Card("QD"), Build(10, parse_cards("3S 7C"), 1)]
        hand = parse_cards("QC 2S")
        if any(m.value == 12 and Card("QD") in (m.capture or ()) for m in game.legal_moves(hand, table, 0)):
            out.append(_("<b>Raise and gather:</b> when you raise a build you may also lay other groups of the new "
                         "value from the table into the same pile; it is then a locked dubbelt bygge. Example: "
                         "table {table}, you hold {hand}: {card} on the build makes {value} and takes {extra} "
                         "into the pile.").format(
                table=_esc(" ".join(x.symbol for x in table)), hand=" ".join(c.symbol for c in hand),
                card=Card("2S").symbol, value=12, extra=Card("QD").symbol))
    if r.multiple_builds and r.lone_ace_builds and r.ace == "1or14":
        aces, hand = parse_cards("AH 9C"), parse_cards("AS 5D")
        if any(m.value == 14 and Card("AH") in (m.capture or ()) for m in game.legal_moves(hand, aces, 0)):
            out.append(_("<b>A lone ace as 14:</b> a lone ace on the table may join a build of 14 as one group. "
                         "Example: table {table}, you hold {hand}: {card} on {on} builds 14, and {ace} joins it "
                         "as a second 14; {taker} takes the whole pile.").format(
                table=" ".join(c.symbol for c in aces), hand=" ".join(c.symbol for c in hand),
                card=Card("5D").symbol, on=Card("9C").symbol, ace=Card("AH").symbol, taker=Card("AS").symbol))
    return out


def _kasino_sections(r: Rules, game: Game, allowed: list[int]) -> list[tuple[str, str]]:
    """The sections of the sheet for a game with builds (classic Kasino, avig kasino)."""
    forced = r.capture != "free"
    words: list[tuple[str, str]] = [
        ("parti", _("several givar, scores added up, until a side reaches {target} points").format(
            target=number(r.target)) if r.target is not None else _(_WORD["parti"])),
        ("giv", _(_WORD["giv"])),
        ("utdelning", _(_WORD["utdelning"])),
        ("träff", _(_WORD["träff"])),
        ("bygge", _("a build: a pile of table cards worth one value, taken whole by a card of that value")),
    ]
    # ta in, lägga ut, bygga, höja, dubbelt bygge and tvångstabbe are explained under "Your turn"
    words.append(("tabbe (sopa)", _(_WORD["tabbe"])))
    if r.last_capture_point:
        words.append(("sistan", _("the last capture of the giv: its point and the cards left on the table")))
    words.append(("talong", _("the cards not yet dealt")))
    words.append(("stora / lilla kasino", _(_WORD["storan / lillan"])))
    words_html = "".join(f"<tr><th>{_esc(w)}</th><td>{_esc(m)}</td></tr>" for w, m in words)

    rows = _game_points_rows(game)
    points_html = "".join(f"<tr><td>{_esc(c)}</td><td>{_esc(n)}</td><td class='kt-n'>{p}</td></tr>"
                          for c, n, p in rows)
    values = game.card_values
    per_giv = sum(values) + sum(_majorities(game)) + r.last_capture_point
    faces = ("<p>" + _("Face cards take only their own rank (a knekt takes a knekt) and are never part of a sum "
                       "or a build.") + "</p>\n" if r.face_cards == "own-rank" else "")
    cards = ("<p>" + _("One ordinary deck of 52 cards, no jokers. Values: 2–10 as printed, knekt (J) 11, dam (Q) 12, "
                       "kung (K) 13, {ace}.").format(ace=_esc(_kasino_ace_text(r))) + "</p>\n" + faces
             + "<table><tr><th>" + _esc(_("cards")) + "</th><th></th><th class=\"kt-n\">" + _esc(_("points"))
             + f"</th></tr>{points_html}</table>\n"
             "<p>" + _("Without tabbar a giv holds <b>{n} points</b>; a tie for the most cards or the most spades "
                       "gives nobody that point.").format(n=number(per_giv)) + "</p>")

    deals = _deal_rows(r, allowed)
    span = f"{allowed[0]}–{allowed[-1]}"
    later = (_("When every hand is empty, the dealer deals {hand} more to each and none to the table, "
               "until the talong is spent.") if not r.table_next else
             _("When every hand is empty, the dealer deals {hand} more to each and {next} to the table, "
               "until the talong is spent.")).format(hand=r.hand_size, next=r.table_next)
    draw = ("<p>" + _("<b>Dragkasino:</b> after each card you play you draw one from the talong while it lasts, so "
                      "you keep {hand} in hand.").format(hand=r.hand_size) + "</p>\n" if r.draw else "")
    dealing = ("<p>" + _("{span} players. The dealer (givaren) deals {hand} cards to each player and {first} face up "
                         "on the table; the rest is the talong. Face cards dealt to the table stay there.").format(
                   span=span, hand=r.hand_size, first=r.table_first)
               + " " + (later if not r.draw else "")
               + " " + _("The player left of the dealer leads; play goes left.") + "</p>\n" + draw
               + f"<table>{''.join(deals)}</table>\n<p>"
               + _esc(_("Four players may play in two pairs (partnerkasino: seats 0+2 against 1+3); a pair's cards "
                        "and points count together.")) + "</p>")

    table, hand = parse_cards("4S 7D"), parse_cards("5H 9D")
    build_move = next((m for m in game.legal_moves(hand, table, 0) if m.value is not None), None)
    example = (" " + _("Example: table {table}, you hold {hand}: {card} on {on} builds {value}; on your next "
                       "turn {taker} takes it.").format(
        table=" ".join(c.symbol for c in table), hand=" ".join(c.symbol for c in hand),
        card=build_move.card.symbol, on=" ".join(c.symbol for c in build_move.capture or ()),
        value=build_move.value, taker=Card("9D").symbol) if build_move is not None else "")
    turn = [_("<b>Ta in</b> (capture): take table cards of your card's rank, groups of table cards "
               "adding up to its value, and builds of its value, several at once. The card and what it takes "
               "go to your pile.")]
    turn.append(_("A card that can take <b>must take</b>, and all it can: it may neither build nor be laid out.")
                if forced else _("Taking is free: you may always build or lay out a card instead."))
    if r.forced_tabbe:
        turn.append(_("<b>Tvångstabbe.</b> If any card in your hand can take the <b>whole table</b>, you must "
                      "play such a card and take it all (with several, you choose which)."))
    turn.append(_("<b>Bygga</b> (build): lay a card on table cards so that they make a value you hold another "
                  "card for, and say it (“bygger nio”). No bluff builds.") + _esc(example))
    turn.append(_("<b>Höja</b> (raise, bygga på): anyone may lay a card on a build to make a higher value they "
                  "hold a card for. A build is never lowered or split: it is taken whole, by anyone with a card "
                  "of its value."))
    turn.append(_("<b>Dubbelt bygge</b> (multiple build): several groups of the same value in one pile (4+5 and "
                  "a lone 9: “dubbelt nio”). It is locked: it can no longer be raised.") if r.multiple_builds else
                _("No multiple builds in this variant: a build makes its value once."))
    turn += _gathering_texts(r, game)
    duty = {"take-or-raise": _("<b>The builder's duty:</b> while you own a build (you made or raised it last), on "
                               "each turn you must take it or build on it; you may not leave it and play something "
                               "else."),
            "no-trail": _("<b>The builder's duty:</b> while you own a build (you made or raised it last), you may "
                          "not lay out a card: take or build.")}.get(r.owner_duty)
    if duty:
        turn.append(duty)
    turn.append(_("<b>Lägga ut</b> (trail): lay a card face up on the table. You must play one card every turn."))
    turn_html = "<ul>" + "\n".join(f"<li>{t}</li>" for t in turn) + "</ul>"

    tabbe = ("<ul><li>" + _("Taking every card on the table in one move is a <b>tabbe</b> (sopa): <b>{points}</b> "
                            "for the taker. Mark it with a card face up in your pile. The next player must lay out "
                            "a card on the empty table.").format(points=signed(r.tabbe_points)) + "</li></ul>")
    last = (_("When the talong is spent and the last hand is empty, the one who took in last (den som tar in sist) "
              "takes the cards left on the table and {points} for sistan (this is no tabbe).").format(
                  points=ngettext("{n} point", "{n} points", r.last_capture_point).format(
                      n=number(r.last_capture_point)))
            if r.last_capture_point else
            _("When the talong is spent and the last hand is empty, the one who took in last (den som tar in sist) "
              "takes the cards left on the table (this is no tabbe)."))
    if r.target is None:
        parti = (_("A <b>parti</b> is {givar}; the scores add up, and the <b>lowest total wins</b>.")
                 if game.lower_is_better else
                 _("A <b>parti</b> is {givar}; the scores add up, and the <b>highest total wins</b>.")).format(
            givar=_esc(_("{n} givar").format(n=r.givar) if r.givar is not None else
                       _("one giv per player, so everyone deals once")))
    else:
        parti = (_("A <b>parti</b>: play givar, the dealer moving one seat left each time, until a side has "
                   "<b>{target}</b> points or more after a giv. Then the <b>lowest total wins</b>.")
                 if game.lower_is_better else
                 _("A <b>parti</b>: play givar, the dealer moving one seat left each time, until a side has "
                   "<b>{target}</b> points or more after a giv. Then the <b>highest total wins</b> (several over "
                   "{target} in the same giv: the highest total).")).format(target=number(r.target))
        parti += " " + _("A tie for the best total: play another giv.")
        if r.target_count == "in-order":  # seed 004's other reading (Rules.target_count)
            parti += " " + (_("A giv's points are counted in the order of the scoring table above: the parti is "
                              "decided the moment a side reaches {target}, and the lowest total then wins.")
                            if game.lower_is_better else
                            _("A giv's points are counted in the order of the scoring table above: the first side "
                              "to reach {target} wins, even if another ends the giv higher.")).format(
                target=number(r.target))
    end = f"<ul><li>{last}</li>\n<li>{parti}</li></ul>\n"
    return [
        (_("Words (ord)"), f"<table>{words_html}</table>"),
        (_("Cards (kort)"), cards),
        (_("Dealing (utdelning)"), dealing),
        (_("Your turn (ditt drag): play one card"), turn_html),
        (_("Tabbe (sopa)"), tabbe),
        (_("End of the giv and scoring (poäng)"), end),
    ]


def rules_sheet_html(rules: Rules | None = None) -> str:
    """The rules sheet for ``rules`` (default: Krypkasino as the project plays it) as one
    HTML page that prints on one A4 sheet, in the page's language (:func:`krypteach.i18n.language`)."""
    rules = rules or Rules()
    game = game_of(rules)
    allowed = _players_allowed(rules.game)
    if game.has_builds:
        sections = _kasino_sections(rules, game, allowed)
        sub = (_("Avig kasino is classic Kasino played misère: you try <b>not</b> to take points, and the "
                 "<b>lowest score wins</b>. {variant}.") if game.lower_is_better else
               _("Classic Swedish Kasino: you take in cards, build and sweep the table for points, and the "
                 "<b>highest score wins</b>. {variant}.")).format(variant=_esc(rules.describe()))
    else:
        sections = _krypkasino_sections(rules, allowed)
        sub = _("The Swedish <i>misère</i> Kasino: you try <b>not</b> to take points, and the <b>lowest score "
                "wins</b>. {variant}.").format(variant=_esc(rules.describe()))
    columns = "\n".join(f"<section><h2>{_esc(title)}</h2>{content}</section>" for title, content in sections)
    print_button = _esc(_("Print (skriv ut)"))
    # i18n: {game} is Krypkasino, Kasino or Avig kasino
    heading = _esc(_("{game} — the rules on one page (reglerna på en sida)").format(game=game.title))
    foot = _esc(_("krypteach · the lessons: “Krypkasino — learn it by playing”."))
    # i18n: {game} is Krypkasino, Kasino or Avig kasino
    title = _esc(_("{game} rules sheet (regler)").format(game=game.title))
    body = f"""
<main>
<button class="kt-print kt-noprint" onclick="window.print()">{print_button}</button>
<h1>{heading}</h1>
<p class="kt-sub">{sub}</p>
<div class="kt-cols">
{columns}
</div>
<p class="kt-foot">{foot}</p>
</main>"""
    return (f"<!DOCTYPE html>\n<html lang=\"{language()}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title}</title>"
            f"<style>{_CSS}</style></head><body>{body}</body></html>\n")


def _krypkasino_sections(r: Rules, allowed: list[int]) -> list[tuple[str, str]]:
    """The sections of the sheet for Krypkasino (no builds)."""
    span = f"{allowed[0]}–{allowed[-1]}"
    total_points = 2 * sum(POINTS) + r.last_capture_point  # two decks
    tabbe, dukning = signed(r.tabbe_points), signed(r.dukning_points)
    seed_card, seed_table = Card("9H"), parse_cards("9S 2C 5D 7H")
    seed_take = capture_options(seed_card, seed_table, r)
    seed_left = [c for c in seed_table if seed_take and c not in seed_take[0]]
    table_text = " ".join(c.symbol for c in seed_table)
    if not seed_take:
        seed = _("Table {table}, you play {card}: it creeps.").format(table=table_text, card=seed_card.symbol)
    elif seed_left:
        seed = _("Table {table}, you play {card}: take {traffar}; {left} stays.").format(
            table=table_text, card=seed_card.symbol, traffar=traffar_text(seed_card, seed_take[0], r),
            left=" ".join(c.symbol for c in seed_left))
    else:
        seed = _("Table {table}, you play {card}: take {traffar}; nothing stays.").format(
            table=table_text, card=seed_card.symbol, traffar=traffar_text(seed_card, seed_take[0], r))
    pa_table = parse_cards("AH 7C 3D")
    pa = tabbe_pa_text(tabbe_ranks([*pa_table, Card("9S")], r))

    words = "".join(f"<tr><th>{_esc(w)}</th><td>{_esc(_(m))}</td></tr>" for w, m in _WORDS)
    points = "".join(f"<tr><td>{_esc(c)}</td><td>{_esc(n)}</td><td class='kt-n'>{p}</td></tr>"
                     for c, n, p in _points_rows())
    deals = _deal_rows(r, allowed)
    teams = _("With 4 players two teams (seats 0+2, 1+3); with 6 three pairs or two teams of three, "
              "each player between two opponents. Team scores add up.")
    forced = ("<li>" + _("<b>Tvångstabbe.</b> If any card in your hand can take the <b>whole table</b>, you must "
                         "play such a card and take it all (with several, you choose which).") + "</li>"
              if r.forced_tabbe else
              "<li>" + _("No tvångstabbe in this variant: you need not take the whole table.") + "</li>")
    dubbel = ("<li>" + _("<b>Dubbeltabbe:</b> taking the lone table card with its identical twin (Q♥ on Q♥) counts "
                         "two tabbar: {tabbe} to the taker, {dukning} to the one before.").format(
                  tabbe=signed(2 * r.tabbe_points), dukning=signed(2 * r.dukning_points)) + "</li>"
              if r.dubbeltabbe else "")
    cancel = ("<li>" + _("<b>Marks cancel:</b> when every player (every team) has a tabbe mark, each turns one mark "
                         "down. Dukningar are never removed.") + "</li>" if r.cancel_marks else "")
    last = (" " + ngettext("and {n} extra point", "and {n} extra points", r.last_capture_point).format(
        n=r.last_capture_point) if r.last_capture_point else "")
    givar = (_("{n} givar").format(n=r.givar) if r.givar is not None else
             _("one giv per player, so everyone deals once"))
    sections = [
        (_("Words (ord)"), f"<table>{words}</table>"),
        (_("Cards (kort)"),
         "<p>" + _("Two ordinary decks shuffled together: 104 cards, each card twice. Values: 2–10 as printed, "
                   "knekt (J) 11, dam (Q) 12, kung (K) 13, {ace}.").format(ace=_esc(_ace_text(r))) + "</p>\n"
         "<table><tr><th>" + _esc(_("cards")) + "</th><th></th><th class=\"kt-n\">" + _esc(_("points"))
         + f"</th></tr>{points}</table>\n"
         "<p>" + _("All the cards together hold <b>{n} points</b>.").format(n=total_points) + "</p>"),
        (_("Dealing (utdelning)"),
         "<p>" + _("{span} players. The dealer deals one card at a time round the table, starting at the left: "
                   "{hand} cards each, then {first} face up on the table in the first deal and {next} in the "
                   "later ones. A new deal comes when every hand is empty. Face cards (J, Q, K) dealt to the "
                   "table go to <b>klädda högen</b>. The player left of the dealer leads; play goes left.").format(
             span=span, hand=r.hand_size, first=r.table_first, next=r.table_next) + "</p>\n"
         f"<table>{''.join(deals)}</table>\n<p>{_esc(teams)}</p>"),
        (_("Your turn (ditt drag): play one card"),
         f"<ul>{forced}\n<li>{_capture_text(r)} " + _("Example: {example}").format(example=_esc(seed)) + "</li>\n"
         "<li>" + _("A card with no träff <b>creeps</b> (kryper): it is laid on the table. On an empty table "
                    "every card creeps.") + "</li>\n"
         "<li>" + _("Träffar: the same rank, or table cards adding up to the card's value. The card and what it "
                    "takes go to your pile.") + "</li></ul>"),
        (_("Tabbe and dukning"),
         "<ul><li>" + _("A capture that empties the table is a <b>tabbe</b>: a tabbe mark, <b>{points}</b> points, "
                        "for the taker.").format(points=tabbe) + "</li>\n"
         "<li>" + _("The player who moved just before gets a <b>dukning</b>, <b>{points}</b> points, for setting "
                    "it up (not on the giv's first move).").format(points=dukning) + "</li>\n"
         f"{dubbel}{cancel}\n"
         # i18n: {announcement} is the engine's Swedish "tabbe på tio"
         "<li>" + _("By custom you say it when your move leaves a table that one card could take whole: laying "
                    "9♠ on {table} — “{announcement}”.").format(
             table=" ".join(c.symbol for c in pa_table), announcement=_esc(pa)) + "</li></ul>"),
        (_("End of the giv and scoring (poäng)"),
         "<ul><li>" + _("When the last hand is empty, the last player who captured takes the cards left on the "
                        "table and klädda högen{last} (this is no tabbe). If nobody captured, they score for "
                        "nobody.").format(last=_esc(last)) + "</li>\n"
         "<li>" + _("<b>Giv score</b> = card points {tabbe} × tabbe marks {dukning} × dukningar. It can be below "
                    "zero.").format(tabbe=tabbe, dukning=dukning) + "</li>\n"
         "<li>" + _("A <b>parti</b> is {givar}; the dealer moves one seat left each giv. The scores go in a "
                    "<b>protokoll</b>, one row per giv, and add up: the <b>lowest total wins</b> (ties "
                    "share).").format(givar=_esc(givar)) + "</li></ul>\n"),
    ]
    return sections
