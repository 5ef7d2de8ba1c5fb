"""The game in words: plain text from engine events, for move logs and lessons.

Pure functions, no widgets. Cards are written with suit symbols (``9♥``),
captures split into their *träffar* (``9♠ and 2♣+7♦``: the 9♠ matches by
rank, 2♣+7♦ add up to 9), and the Swedish game words are kept: *krypa*
(creep), *tabbe* (a capture that empties the table), *dukning* (the player
who moved just before a tabbe set it up), *klädda högen* (face cards set
aside when dealt).

>>> from krypteach import Move, Turn
>>> describe_turn(Turn(1, Move.parse("7H")), ["You", "Bea"])
'Bea creeps 7♥ (kryper).'
>>> describe_turn(Turn(0, Move.parse("9H:9S+2C+7D"), tabbe=1, dukning=1), ["Dan", "Bea"])
'Dan takes 9♠ and 2♣+7♦ with 9♥ — tabbe! Bea moved just before and gets a dukning.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.captures import (
    split_into_traffar,
    tabbe_pa_text,  # the engine's "tabbe på …" (re-exported here)
)
from ..engine.cards import Card
from ..engine.game import LEARNER, is_learner, shown_name
from ..engine.games import game_of
from ..engine.moves import describe_cards
from ..engine.rules import Rules
from ..engine.scoring import point_breakdown
from ..i18n import _, ngettext
from ..i18n.numbers import number
from ..i18n.numbers import signed as _signed

if TYPE_CHECKING:  # only named in annotations
    from ..engine.game import Giv, Turn
    from ..engine.scoring import GivResult

__all__ = ["DEFAULT_NAMES", "seat_names", "signed", "card_points_words", "traffar_text", "tabbe_pa_text",
           "describe_turn", "describe_giv", "describe_result"]

#: Names of the seats in the game table: seat 0 is the learner ("You" is shown in the
#: page's language, the others are names in both).
DEFAULT_NAMES = (LEARNER, "Bea", "Dan", "Eva", "Kim", "Ola")


def _dash() -> str:
    """The dash between the parts of one line ("… with 9♥ — tabbe!"): Swedish spaces an en dash."""
    # i18n: the dash joining two parts of a line; Swedish writes a spaced en dash " – "
    return _(" — ")


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """Names for ``players`` seats: ``names`` if given, else You, Bea, Dan, …
    (players are named, never numbered: "Seat 1" means nothing to a learner).

    >>> seat_names(3)
    ['You', 'Bea', 'Dan']
    >>> seat_names(2, ["Ann", "Bo", "Cy"])
    ['Ann', 'Bo', 'Cy']
    """
    if names is None:
        if players > len(DEFAULT_NAMES):
            raise ValueError(f"{players} players: give their names (there are {len(DEFAULT_NAMES)} default names)")
        return [shown_name(name) for name in DEFAULT_NAMES[:players]]
    names = list(names)
    if len(names) < players:
        raise ValueError(f"{players} names needed, got {len(names)}: {names}")
    return names


def traffar_text(card: Card, capture: Sequence[Card], rules: Rules | None = None) -> str:
    """A capture split into träffar: ``"9♠ and 2♣+7♦"``.

    >>> from krypteach import parse_cards
    >>> traffar_text(Card("9H"), parse_cards("7D 9S 2C"))
    '9♠ and 2♣+7♦'
    """
    groups = split_into_traffar(Card(card), list(capture), rules) or [tuple(capture)]
    return _and(["+".join(c.symbol for c in g) for g in groups])



def _name(names: Sequence[str], seat: int) -> str:
    """The seat's name; the English default "You" in the page's language."""
    if seat >= len(names):
        raise ValueError(f"no name for seat {seat}: {len(names)} names given ({', '.join(names)})")
    return shown_name(names[seat])


def _and(items: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    # i18n: the last two of a list: "9♠, 5♦ and 2♣+7♦" ({items} is "9♠, 5♦")
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


class _Unknown:
    """The type of :data:`_UNKNOWN`."""


_UNKNOWN = _Unknown()  # describe_turn was not told who captured last


def _times(n: int) -> str:
    """`` twice``, `` three times``, `` 4 times`` (nothing for once), to end a sentence."""
    if n == 1:
        return ""
    if n == 2:
        return " " + _("twice")
    if n == 3:
        return " " + _("three times")
    return " " + _("{n} times").format(n=n)


def describe_turn(turn: Turn, names: Sequence[str], rules: Rules | None = None, *,
                  deal: tuple[int, int] | None = None, kladda: int | None = None,
                  last_capturer: int | _Unknown | None = _UNKNOWN, show_dukning: bool = True) -> str:
    """One move in words, with everything it caused.

    ``turn`` is a :class:`krypteach.engine.game.Turn`. Optional context, which a
    :class:`~krypteach.engine.game.Giv` knows (see :func:`describe_giv`): ``deal`` =
    (number, of) of the utdelning that followed the move, ``kladda`` how many
    of the swept cards were klädda högen, ``last_capturer`` who swept
    (``None``: nobody captured in the giv; left out: not known).
    ``show_dukning=False`` leaves out who gets the dukning (for a quiz).

    >>> from krypteach import Move, Turn, parse_cards
    >>> t = Turn(1, Move.parse("9C"), tabbe_pa=(10,))
    >>> describe_turn(t, ["You", "Bea"])
    'Bea creeps 9♣ (kryper) — tabbe på tio.'
    >>> t = Turn(0, Move.parse("QH:QH"), tabbe=2, dukning=1, cancelled=1)
    >>> print(describe_turn(t, ["Dan", "Bea"]))
    Dan takes Q♥ with its twin Q♥ — dubbeltabbe (two tabbe marks)! Bea moved just before and gets two dukningar. Marks cancel: everyone turns one tabbe mark down.
    """
    rules = rules or Rules()
    who = _name(names, turn.player)
    you = is_learner(who)
    move = turn.move
    card = move.card.symbol
    if game_of(rules).has_builds:  # builds, trails, and a tabbe is a point (no dukning)
        return _kasino_turn(turn, who, you, rules)
    if move.capture is None:
        text = (_("You creep {card} (kryper)") if you else _("{who} creeps {card} (kryper)")).format(who=who, card=card)
    elif turn.tabbe == 2:
        # i18n: a dubbeltabbe: the only table card taken with its identical twin from the other deck
        text = (_("You take {cards} with its twin {card}") if you else
                _("{who} takes {cards} with its twin {card}")).format(
            who=who, cards=describe_cards(move.capture), card=card)
    else:
        text = (_("You take {traffar} with {card}") if you else _("{who} takes {traffar} with {card}")).format(
            who=who, traffar=traffar_text(move.card, move.capture, rules), card=card)
    sentences = []
    if turn.tabbe:
        text += _dash() + (_("dubbeltabbe (two tabbe marks)!") if turn.tabbe == 2 else _("tabbe!"))
        if not show_dukning:
            pass
        elif turn.dukning is None:
            text += " " + _("It was the first move of the giv, so nobody gets a dukning.")
        else:
            setter = _name(names, turn.dukning)
            if is_learner(setter):
                said = (_("You moved just before and get two dukningar.") if turn.tabbe == 2 else
                        _("You moved just before and get a dukning."))
            else:
                said = (_("{setter} moved just before and gets two dukningar.") if turn.tabbe == 2 else
                        _("{setter} moved just before and gets a dukning."))
            text += " " + said.format(setter=setter)
    elif turn.tabbe_pa and turn.sweep is None and not turn.dealt:
        text += _dash() + (tabbe_pa_text(turn.tabbe_pa) or "")
    sentences.append(text if text.endswith((".", "!")) else text + ".")
    if turn.cancelled:
        side = _("every team") if rules.teams != "none" else _("everyone")
        # i18n: every player (team) has a tabbe mark, so each turns one down; {times} is "", " twice", …
        sentences.append(_("Marks cancel: {side} turns one tabbe mark down{times}.").format(
            side=side, times=_times(turn.cancelled)))
    if turn.dealt:
        if deal:
            sentences.append(_("New deal (utdelning {number} of {count}).").format(number=deal[0], count=deal[1]))
        else:
            sentences.append(_("New deal."))
        if turn.tabbe_pa:
            sentences.append(_("{announcement} on the new table.").format(
                announcement=f"{tabbe_pa_text(turn.tabbe_pa) or ''}".capitalize()))
    if turn.sweep is not None:
        sentences.append(_sweep_text(turn, names, kladda, last_capturer))
    return " ".join(sentences)


def _kasino_turn(turn: Turn, who: str, you: bool, rules: Rules) -> str:
    """A move of classic Kasino (or avig kasino): a build, a capture or a card laid out;
    a tabbe there is a point (no dukning), and nothing creeps.

    >>> from krypteach import Move, Turn
    >>> k = Rules.preset("kasino")
    >>> describe_turn(Turn(1, Move.parse("5H>9:4S")), ["You", "Bea"], k)
    'Bea builds 9: 5♥ on 4♠ (bygge).'
    >>> describe_turn(Turn(0, Move.parse("9C:4S+5H"), tabbe=1), ["You", "Bea"], k)
    'You take 4♠+5♥ with 9♣ — tabbe!'
    >>> describe_turn(Turn(0, Move.parse("AH")), ["You", "Bea"], k)
    'You lay A♥ on the table (lägger ut).'
    """
    move = turn.move
    card = move.card.symbol
    cards = describe_cards(move.capture or ())
    if move.value is not None:
        text = (_("You build {value}: {card} on {cards} (bygge)") if you else
                _("{who} builds {value}: {card} on {cards} (bygge)")).format(
            who=who, value=move.value, card=card, cards=cards)
    elif move.capture is None:
        text = (_("You lay {card} on the table (lägger ut)") if you else
                _("{who} lays {card} on the table (lägger ut)")).format(who=who, card=card)
    else:
        text = (_("You take {cards} with {card}") if you else _("{who} takes {cards} with {card}")).format(
            who=who, cards=cards, card=card)
    if turn.tabbe:
        text += _dash() + _("tabbe!")
    sentences = [text if text.endswith((".", "!")) else text + "."]
    if turn.dealt:
        sentences.append(_("New deal."))
    return " ".join(sentences)


def _sweep_text(turn: Turn, names: Sequence[str], kladda: int | None, last_capturer: int | _Unknown | None) -> str:
    total = len(turn.sweep or ())
    if last_capturer is None and turn.move.kind == "capture":
        last_capturer = turn.player
    if isinstance(last_capturer, _Unknown):
        last_capturer = turn.player if turn.move.kind == "capture" else None
        if last_capturer is None:
            if not total:
                return _("The giv is over; no cards were left on the table.")
            return ngettext("The giv is over: the last player who captured takes the last {n} card "
                            "(table and klädda högen).",
                            "The giv is over: the last player who captured takes the last {n} cards "
                            "(table and klädda högen).", total).format(n=total)
    if total == 0:
        return _("The giv is over; no cards were left on the table.")
    if kladda is not None:
        on_table = total - kladda
        parts = []
        if on_table:
            parts.append(ngettext("the last {n} table card", "the last {n} table cards", on_table).format(n=on_table))
        if kladda:
            parts.append(ngettext("klädda högen ({n} face card)", "klädda högen ({n} face cards)",
                                  kladda).format(n=kladda))
        what = _and(parts)
    else:
        what = ngettext("the last {n} card (table and klädda högen)", "the last {n} cards (table and klädda högen)",
                        total).format(n=total)
    if last_capturer is None:
        # i18n: {what} is e.g. "the last 3 table cards and klädda högen (2 face cards)"
        return _("The giv is over. Nobody captured, so {what} score for nobody.").format(what=what)
    who = _name(names, last_capturer)
    if is_learner(who):
        return _("The giv is over: You captured last and take {what}.").format(what=what)
    return _("The giv is over: {who} captured last and takes {what}.").format(who=who, what=what)


def describe_giv(giv: Giv, names: Sequence[str] | None = None, start: int = 0) -> list[str]:
    """Every move of a giv so far in words (:func:`describe_turn` with the giv's context),
    from move number ``start`` (0-based) on.

    >>> from krypteach import Giv
    >>> g = Giv(seed=1)
    >>> _ = g.play(g.legal_moves()[0])
    >>> describe_giv(g, ["Ann", "Bo"])
    ['Bo takes 10♠ with 10♣.']
    """
    names = seat_names(giv.rules.players, names)
    lines = []
    deal_no = 1 + sum(t.dealt for t in giv.turns[:start])
    kladda = sum(len(d.aside) for d in giv.deals)
    for turn in giv.turns[start:]:
        if turn.dealt:
            deal_no += 1
        lines.append(describe_turn(turn, names, giv.rules, deal=(deal_no, len(giv.deals)),
                                   kladda=kladda, last_capturer=giv.last_capturer))
    return lines


def signed(n: int, plus: bool = True) -> str:
    """A number with a real minus sign, and a plus sign unless ``plus=False``.

    >>> signed(5), signed(-5), signed(0), signed(7, plus=False)
    ('+5', '−5', '0', '7')
    """
    return _signed(n) if plus else number(n)


def card_points_words(n: int) -> str:
    """``n`` card points in words, the noun in the form the count wants (chosen by its size).

    >>> card_points_words(1), card_points_words(14)
    ('1 card point', '14 card points')
    """
    return ngettext("{n} card point", "{n} card points", abs(n)).format(n=n)


def describe_result(result: GivResult, names: Sequence[str], *, piles: Sequence[Sequence[Card]] | None = None) -> list[str]:
    """The scoring of a finished giv in words, one line per item.

    ``result`` is a :class:`krypteach.engine.scoring.GivResult`; with ``piles`` (the
    players' piles, e.g. ``giv.piles``) each line names the cards that scored.

    >>> from krypteach import Giv
    >>> g = Giv(seed=3)
    >>> g.play_out(lambda g: g.legal_moves()[0])
    >>> lines = describe_result(g.result, ["Ann", "Bo"], piles=g.piles)
    >>> lines[-1].startswith("Lowest score wins")
    True
    """
    rules: Rules = result.rules
    n = rules.players
    lines = []
    aside = len(result.aside_cards)
    extra_points = rules.last_capture_point
    worth = (" " + ngettext("That is worth {n} extra point.", "That is worth {n} extra points.",
                            extra_points).format(n=extra_points)) if extra_points else ""
    if result.last_capturer is not None and not aside:
        lines.append(_("{who} captured last; no cards were left on the table.").format(
            who=_name(names, result.last_capturer)) + worth)
    elif result.last_capturer is not None:
        lines.append(ngettext("{who} captured last and took the {n} card left (table and klädda högen).",
                              "{who} captured last and took the {n} cards left (table and klädda högen).",
                              aside).format(who=_name(names, result.last_capturer), n=aside) + worth)
    elif aside:
        lines.append(ngettext("Nobody captured: the {n} card left score for nobody.",
                              "Nobody captured: the {n} cards left score for nobody.", aside).format(n=aside))
    for s in range(n):
        parts = []
        points = card_points_words(result.card_points[s])
        if piles is not None:
            scoring = point_breakdown(piles[s])
            listed = ", ".join(f"{c.symbol} {why} {p}" for c, p, why in scoring)
            parts.append(points + (f" ({listed})" if listed else " " + _("(no scoring cards)")))
        else:
            parts.append(points)
        m, d = result.marks[s], result.dukningar[s]
        if m:
            parts.append(ngettext("{n} tabbe mark × {points}", "{n} tabbe marks × {points}", m).format(
                n=m, points=signed(rules.tabbe_points)))
        if d:
            parts.append(ngettext("{n} dukning × {points}", "{n} dukningar × {points}", d).format(
                n=d, points=signed(rules.dukning_points)))
        made = result.tabbar[s]
        extra = ""
        if made and made != m:
            # i18n: tabbar a player made, and the marks left after every player turned some down
            extra = " " + ngettext("({n} tabbe made; {left} left standing after marks cancelled)",
                                   "({n} tabbar made; {left} left standing after marks cancelled)",
                                   made).format(n=made, left=m)
        lines.append(f"{_name(names, s)}: " + " + ".join(parts) + f" = {signed(result.scores[s], plus=False)}{extra}.")
    if rules.teams != "none":
        for t, score in enumerate(result.team_scores):
            members = "+".join(_name(names, s) for s in rules.team_members(t))
            lines.append(_("Team {number} ({members}): {score}.").format(number=t + 1, members=members, score=score))
        winners = [_("team {number}").format(number=t + 1) for t in result.winners]
    else:
        winners = [_name(names, s) for s in result.winners]
    best = min(result.team_scores)
    lines.append(_("Lowest score wins (misère): {winners} with {score}.").format(
        winners=_and(winners), score=signed(best, plus=False)))
    return lines
