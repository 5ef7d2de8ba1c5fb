"""The game table's HTML: pure functions from a giv or a parti (and the players' names) to HTML.

:class:`krypteach.widgets.game_table.GameTable` shows these strings; they hold
no rules: the scores are the giv's (:meth:`~krypteach.Giv.running_result`,
:attr:`~krypteach.Giv.result`) and the parti's, and what a game has (builds,
dukningar, klädda högen, which score wins) is asked of the giv's game
(:mod:`krypteach.engine.games`).

- :func:`opponents_html`, :func:`side_html` and :func:`mine_html`: the seats, the
  stock and klädda högen beside the table, and your own seat;
- :func:`log_html`: the moves in words, newest first;
- :func:`scores_html`: the scoreboard of the giv so far;
- :func:`protocol_html`: the parti's protocol (protokollet), one row per giv;
- :func:`final_html`: the scoring of a finished giv (:func:`krypkasino_final_html`
  or :func:`kasino_final_html`, as the game counts it), with :func:`next_step_html`;
- :func:`downloads_html`: links that save the giv and the parti as records.

>>> from krypteach import Parti
>>> p = Parti(seed=1)
>>> "kt-playing" in protocol_html(p, ["You", "Bea"]), marks_text(p.giv, 0)
(True, 'tabbe marks: 0 · dukningar: 0')
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.scoring import point_breakdown
from ..i18n import _, ngettext
from ..teaching.narrate import describe_result, signed, tabbe_pa_text
from .downloads import records_download_html
from .html import hand_html
from .svg import stack_svg

if TYPE_CHECKING:  # only named in annotations
    from ..engine.game import Giv, Parti

__all__ = ["times_text", "marks_text", "parti_winners_text", "parti_end_html", "opponents_html", "side_html", "mine_html",
           "log_html", "scores_html", "protocol_html", "next_step_html", "final_html", "krypkasino_final_html",
           "kasino_final_html", "downloads_html"]

#: the learner's seat
YOU = 0


def esc(text: object) -> str:
    """Text made safe for HTML (quotes left as they are)."""
    return html.escape(str(text), quote=False)


def times_text(count: int, points: int) -> str:
    """``"1 × −5 = −5"``, or ``"0"``.

    >>> times_text(2, -5), times_text(0, -5)
    ('2 × −5 = −10', '0')
    """
    return f"{count} × {signed(points, plus=False)} = {signed(count * points, plus=False)}" if count else "0"


def marks_text(giv: Giv, seat: int) -> str:
    """A seat's marks in words: tabbe marks and dukningar, or tabbar where the game has no dukning."""
    if not giv.game.has_dukning:  # a tabbe is a point (classic Kasino)
        return _("tabbar: {tabbar}").format(tabbar=giv.marks[seat])
    return _("tabbe marks: {marks} · dukningar: {dukningar}").format(marks=giv.marks[seat],
                                                                     dukningar=giv.dukningar[seat])


def _sides_text(parti: Parti, sides: Sequence[int], names: Sequence[str]) -> str:
    """Sides (teams; seats without teams) in words."""
    r = parti.rules
    if r.teams != "none":
        return _(" and ").join(
            _("team {number} ({members})").format(number=t + 1, members="+".join(names[s] for s in r.team_members(t)))
            for t in sides)
    return _(" and ").join(names[s] for s in sides)


def parti_winners_text(parti: Parti, names: Sequence[str]) -> str:
    """Who won the parti: the players (or teams) in words."""
    return _sides_text(parti, parti.result.winners, names)


def _item_words(item: str) -> str:
    """A line of classic Kasino's scoring table (:meth:`KasinoGame.counted_points`) in words."""
    return {"storan": _("stora kasino"), "lillan": _("lilla kasino"), "aces": _("the aces"),
            "spades": _("most spades"), "cards": _("most cards"), "sistan": _("sistan"),
            "tabbar": _("the tabbar")}.get(item, item)


def parti_end_html(parti: Parti, names: Sequence[str]) -> str:
    """How the parti stands or ended, in one sentence (HTML, the winners in bold): the
    givar played and what wins, or who won and why (the parti's own answer,
    :attr:`~krypteach.Parti.end`: a number of givar, or a target reached).

    >>> from krypteach import Parti, Rules
    >>> parti_end_html(Parti(Rules(game="kasino")), ["You", "Bea"])
    '0 givar played; the parti is played to 16 points: the highest total wins once a side reaches it.'
    """
    p = parti
    end = p.end
    lowest = p.giv.game.lower_is_better
    if not end.over:
        if end.target is None:
            played = (_("{played} of {count} givar played; the lowest total wins the parti.") if lowest else
                      _("{played} of {count} givar played; the highest total wins the parti."))
            return esc(played.format(played=len(p.protocol), count=p.planned_givar))
        played = (ngettext("{played} giv played; the parti is played to {target} points: once a side reaches "
                           "it, the lowest total wins.",
                           "{played} givar played; the parti is played to {target} points: once a side reaches "
                           "it, the lowest total wins.", len(p.protocol)) if lowest else
                  ngettext("{played} giv played; the parti is played to {target} points: the highest total wins "
                           "once a side reaches it.",
                           "{played} givar played; the parti is played to {target} points: the highest total wins "
                           "once a side reaches it.", len(p.protocol)))
        return esc(played.format(played=len(p.protocol), target=end.target))
    result = p.result
    winners = f"<b>{esc(_sides_text(p, result.winners, names))}</b>"
    if end.target is None:
        won = (_("{winners} won the parti with the lowest total.") if lowest else
               _("{winners} won the parti with the highest total."))
        return won.format(winners=winners)
    if end.stopped:
        won = (_("Nobody won in {count} givar, the most this parti lasts: {winners} won it with the lowest total.")
               if lowest else
               _("Nobody won in {count} givar, the most this parti lasts: {winners} won it with the highest total."))
        return won.format(count=esc(end.givar), winners=winners)
    total = result.team_totals[result.winners[0]]
    reached = esc(_sides_text(p, end.reached, names))
    if end.item is not None:
        item = esc(_item_words(end.item))
        if not lowest and end.reached == result.winners:
            return _("{winners} reached {target} points first (when {item} was counted) and won the parti.").format(
                winners=winners, target=end.target, item=item)
        won = (_("{reached} reached {target} points first (when {item} was counted): {winners} won the parti "
                 "with the lowest total, {total}.") if lowest else
               _("{reached} reached {target} points first (when {item} was counted): {winners} won the parti "
                 "with the highest total, {total}."))
        return won.format(reached=reached, target=end.target, item=item, winners=winners, total=total)
    if not lowest and end.reached == result.winners:
        return _("{winners} reached {target} points and won the parti with {total}.").format(
            winners=winners, target=end.target, total=total)
    won = (_("{reached} reached {target} points: {winners} won the parti with the lowest total, {total}.")
           if lowest else
           _("{reached} reached {target} points: {winners} won the parti with the highest total, {total}."))
    return won.format(reached=reached, target=end.target, winners=winners, total=total)


def opponents_html(giv: Giv, names: Sequence[str]) -> str:
    """The other seats: name, dealer and team, the hand face down, the pile and the marks."""
    g = giv
    over = g.is_over
    seats = []
    for s in range(1, g.rules.players):
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
            + "</div><div>" + esc(marks_text(g, s)) + "</div></div>")
    return f"<div class='kt-opponents'>{''.join(seats)}</div>"


def side_html(giv: Giv) -> str:
    """Beside the table: klädda högen (where the game has it), the stock, and "tabbe på …"."""
    g = giv
    over = g.is_over
    pa = tabbe_pa_text(g.turns[-1].tabbe_pa) if g.turns and g.table and not over else None
    stock = ("<div class='kt-stock' style='margin-top:6px'>"
             + esc(ngettext("stock (talong): {stock} card", "stock (talong): {stock} cards", g.stock_size).format(
                 stock=g.stock_size))
             + "<br>" + esc(_("utdelning {number} of {count}").format(number=g.deal_index, count=len(g.deals)))
             + "</div>")
    title = esc(_("klädda högen: face cards dealt to the table are set aside; the last capturer takes them"))
    gloss = esc(_("(face cards set aside)"))
    kladda = "" if not g.game.has_kladda else (  # classic Kasino's face cards stay on the table
        f"<div class='kt-kladda' title='{title}'>"
        f"{stack_svg(len(g.kladda), width=48)}<div>klädda högen<br>{gloss}</div></div>")
    return (kladda + stock
            + (f"<div class='kt-announce' style='margin-top:6px;font-weight:700'>“{esc(pa)}”</div>" if pa else ""))


def mine_html(giv: Giv, names: Sequence[str]) -> str:
    """Your own seat beside your hand: name (dealer?), pile, marks."""
    g = giv
    dealer = (" " + _("(dealer / givare)")) if g.dealer == YOU else ""
    mine = [f"<div><b>{esc(names[YOU])}</b>{esc(dealer)}</div>",
            "<div>" + esc(_("pile: {pile} cards").format(pile=len(g.piles[YOU]))) + "</div>",
            "<div>" + esc(marks_text(g, YOU)) + "</div>"]
    return "<div class='kt-mine' style='font-size:13px;padding:28px 0 0 12px'>" + "".join(mine) + "</div>"


def log_html(giv: Giv, lines: Sequence[str]) -> str:
    """The moves in words (one line per turn of ``giv``), newest first; yours marked."""
    g = giv
    items = "".join(f"<li value='{i + 1}' class='{'kt-you' if g.turns[i].player == YOU else ''}'>{esc(line)}</li>"
                    for i, line in reversed(list(enumerate(lines))))
    return ("<div><b>" + esc(_("Moves (newest first)")) + "</b></div>"
            + (f"<ol reversed>{items}</ol>" if items else
               "<div><i>" + esc(_("No moves yet.")) + "</i></div>"))


def scores_html(giv: Giv, names: Sequence[str]) -> str:
    """The scoreboard of the giv so far (:meth:`~krypteach.Giv.running_result`), or its final scores."""
    g = giv
    r = g.rules
    n = r.players
    running = g.running_result()
    dukning = g.game.has_dukning  # none in classic Kasino: a tabbe is a point
    heads = ((_("Player"), _("Pile"), _("Card points"), _("Tabbe marks"), _("Dukningar"), _("Score")) if dukning else
             (_("Player"), _("Pile"), _("Card points"), _("Tabbar"), _("Score")))
    head = "<tr><th>" + "</th><th>".join(esc(h) for h in heads) + "</th></tr>"
    rows = [f"<tr><td>{esc(names[s])}</td><td>{len(g.piles[s])}</td><td>{running.card_points[s]}</td>"
            f"<td>{g.marks[s]}</td>" + (f"<td>{g.dukningar[s]}</td>" if dukning else "")
            + f"<td>{signed(running.scores[s], plus=False)}</td></tr>" for s in range(n)]
    if r.teams != "none":
        for t, score in enumerate(running.team_scores):
            members = "+".join(names[s] for s in r.team_members(t))
            team = esc(_("Team {number} ({members})").format(number=t + 1, members=members))
            rows.append(f"<tr class='kt-total'><td colspan='{len(heads) - 1}'>{team}</td><td>{signed(score, plus=False)}</td></tr>")
    title = (_("Scores (final)") if g.is_over else
             _("Scores so far (lowest wins)") if g.game.lower_is_better else _("Scores so far (highest wins)"))
    # a wide table scrolls in its own box on a phone; the box takes the keyboard's focus, so it scrolls by keys too
    return (f"<div><b>{esc(title)}</b></div><div class='kt-scroll' tabindex='0' role='region' "
            f"aria-label='{esc(title)}'><table>{head}{''.join(rows)}</table></div>")


def protocol_html(parti: Parti, names: Sequence[str]) -> str:
    """The parti's protocol (protokollet), in lesson 6's words: one row per giv, the totals."""
    p = parti
    r = p.rules
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
    for i in range(len(p.givar), p.planned_givar or 0):  # none for a parti played to a target
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
    foot = "<p>" + parti_end_html(p, names) + "</p>"
    heading, region = esc(_("The protocol (protokollet) of the parti")), esc(_("The protocol"))
    return (f"<div><b>{heading}</b></div>"
            f"<div class='kt-scroll' tabindex='0' role='region' aria-label='{region}'>"
            f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table></div>{foot}")


def next_step_html(parti: Parti, names: Sequence[str]) -> str:
    """What to press after a giv: New giv, or New parti once the parti is over."""
    if parti.is_over and parti.end.target is not None:  # played to a target: who reached it and won
        return _("The parti is over: {result} Press {button} to play another.").format(
            result=parti_end_html(parti, names), button="<b>" + esc(_("New parti")) + "</b>")
    if parti.is_over:
        return _("The parti is over: {winners} won it with the lowest total (see the protocol). "
                 "Press {button} to play another.").format(
            winners=f"<b>{esc(parti_winners_text(parti, names))}</b>", button="<b>" + esc(_("New parti")) + "</b>") \
            if parti.rules.lowest_wins else \
            _("The parti is over: {winners} won it with the highest total (see the protocol). "
              "Press {button} to play another.").format(
            winners=f"<b>{esc(parti_winners_text(parti, names))}</b>", button="<b>" + esc(_("New parti")) + "</b>")
    return _("Press {button} to play the next giv of the parti: the scores carry on in the protocol.").format(
        button="<b>" + esc(_("New giv")) + "</b>")


def final_html(giv: Giv, names: Sequence[str], next_step: str) -> str:
    """The scoring of a finished giv as its game counts it, then ``next_step`` (HTML):
    tabbe marks and dukningar (:func:`krypkasino_final_html`), or a game without
    dukningar (:func:`kasino_final_html`)."""
    if not giv.game.has_dukning:
        return kasino_final_html(giv, names, next_step)
    return krypkasino_final_html(giv, names, next_step)


def _score_table(names: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]], total: Sequence[str]) -> str:
    """A giv's scores as a table of a column a player and a row a count (``rows``: its heading and
    each player's value, HTML), the totals last: as narrow as the names and numbers, so it fits a
    phone (a column a count did not, with its headings of several words)."""
    head = "<tr><th></th>" + "".join(f"<th scope='col'>{esc(n)}</th>" for n in names) + "</tr>"
    body = "".join(f"<tr><th scope='row'>{esc(what)}</th>" + "".join(f"<td>{v}</td>" for v in values) + "</tr>"
                   for what, values in rows)
    total_heading = esc(_("Total"))  # (outside the f-string, where Babel finds it)
    last = (f"<tr class='kt-total'><th scope='row'>{total_heading}</th>"
            + "".join(f"<td><b>{v}</b></td>" for v in total) + "</tr>")
    return f"<table>{head}{body}{last}</table>"


def krypkasino_final_html(giv: Giv, names: Sequence[str], next_step: str) -> str:
    """Krypkasino's scoring, from the engine's result: the cards that scored, card by card,
    tabbe marks and dukningar, the last sweep (klädda högen too), the teams and the winner."""
    g = giv
    res = g.result
    r = g.rules
    swept = list(res.aside_cards)
    seats = range(r.players)
    table = _score_table(names, [
        (_("Card points"), [str(res.card_points[s]) for s in seats]),
        (_("Tabbe marks"), [times_text(res.marks[s], r.tabbe_points) for s in seats]),
        (_("Dukningar"), [times_text(res.dukningar[s], r.dukning_points) for s in seats]),
    ], [signed(res.scores[s], plus=False) for s in seats])
    scored = []
    for s in seats:
        cards = ", ".join(f"{c.symbol} ({why} {p})" for c, p, why in point_breakdown(g.piles[s])) or _("none")
        # i18n: a player's cards that scored, card by card, under the giv's scores
        scored.append(_("{who}: {cards}").format(who=names[s], cards=cards))
    cards_heading = esc(_("Cards that scored (card by card)"))
    table += (f"<div class='kt-cards-scored'>{cards_heading}<ul>"
              + "".join(f"<li>{esc(line)}</li>" for line in scored) + "</ul></div>")
    if res.last_capturer is not None and swept:
        sweep_pts = point_breakdown(swept)
        what = (": " + ", ".join(f"{c.symbol} ({why} {p})" for c, p, why in sweep_pts)) if sweep_pts else \
            " " + _("(none of them score)")
        # i18n: {what} is ": " and the scoring cards among them, or " (none of them score)"
        sweep = ngettext("{who} captured last and took the {n} card left on the table and in klädda högen{what}.",
                         "{who} captured last and took the {n} cards left on the table and in klädda högen{what}.",
                         len(swept)).format(who=names[res.last_capturer], n=len(swept), what=what)
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
            f"<div>{next_step}</div></div>")


def kasino_final_html(giv: Giv, names: Sequence[str], next_step: str) -> str:
    """Classic Kasino's scoring, from the engine's result: card points (storan, lillan,
    aces, most spades, most cards), sistan, tabbar; the highest score wins (avig kasino: the lowest)."""
    g = giv
    res = g.result
    r = g.rules
    seats = range(r.players)
    table = _score_table(names, [
        (_("Cards"), [str(len(g.piles[s])) for s in seats]),
        # what the pile holds, shown beside its points
        (_("Spades (spader)"), [str(sum(1 for c in g.piles[s] if c.suit == "S")) for s in seats]),
        (_("Sistan (last capture)"), [str(r.last_capture_point if res.last_capturer == s else 0) for s in seats]),
        (_("Points for cards and sistan"), [str(res.card_points[s]) for s in seats]),
        (_("Tabbar"), [times_text(res.marks[s], r.tabbe_points) for s in seats]),
    ], [signed(res.scores[s], plus=False) for s in seats])
    notes = [_("Card points: stora kasino (10♦) 2, lilla kasino (2♠) 1, each ace 1, most spades 2, most cards 1 "
               "(a tie gives nobody the point).")]
    if res.last_capturer is not None and res.aside_cards:
        notes.append(ngettext("{who} captured last and took the {n} card left on the table.",
                              "{who} captured last and took the {n} cards left on the table.",
                              len(res.aside_cards)).format(who=names[res.last_capturer], n=len(res.aside_cards)))
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
    summary = (_("Lowest score wins (avig kasino): {winners} with {score}.") if g.game.lower_is_better else
               _("Highest score wins: {winners} with {score}.")).format(
        winners=winners, score=signed(best, plus=False))
    region, heading = esc(_("Scoring of the giv")), esc(_("Giv over — scoring (poängräkning)"))
    return (f"<div class='kt-final kt-scores' role='region' aria-label='{region}'>"
            f"<div style='font-size:16px;font-weight:700'>{heading}</div>"
            f"{table}<ul>" + "".join(f"<li>{esc(t)}</li>" for t in notes)
            + f"<li><b>{esc(summary)}</b></li></ul>"
            f"<div>{next_step}</div></div>")


def downloads_html(parti: Parti, giv: Giv) -> str:
    """Links that save the finished ``giv``, and the parti's finished givar, as record files."""
    p = parti
    done = [g for g in p.givar if g.is_over]
    number = len(p.givar)
    links = [records_download_html([giv], f"giv-{number}.jsonl",
                                   _("Download giv {number} (giv-{number}.jsonl)").format(number=number),
                                   title=_("A game record: JSON Lines, one giv per line (docs/records.md)"))]
    if len(done) > 1 or p.is_over:
        links.append(records_download_html(
            done, f"parti-{len(done)}-givar.jsonl",
            ngettext("Download the parti's {count} giv (parti-{count}-givar.jsonl)",
                     "Download the parti's {count} givar (parti-{count}-givar.jsonl)", len(done)).format(count=len(done)),
            title=_("Every finished giv of this parti, one per line")))
    return "<span class='kt-download-links'>" + " · ".join(links) + "</span>"
