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
from ..engine.moves import describe_cards
from ..engine.rules import Rules
from ..engine.scoring import point_breakdown

if TYPE_CHECKING:  # only named in annotations
    from ..engine.game import Giv, Turn
    from ..engine.scoring import GivResult

__all__ = ["DEFAULT_NAMES", "seat_names", "signed", "traffar_text", "tabbe_pa_text",
           "describe_turn", "describe_giv", "describe_result"]

#: Names of the seats in the game table: seat 0 is the learner.
DEFAULT_NAMES = ("You", "Bea", "Dan", "Eva", "Kim", "Ola")

_TIMES = {1: "", 2: " twice", 3: " three times"}


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
        return list(DEFAULT_NAMES[:players])
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
    if seat >= len(names):
        raise ValueError(f"no name for seat {seat}: {len(names)} names given ({', '.join(names)})")
    return names[seat]


def _verb(who: str, verb: str) -> str:
    """``"Bea takes"`` but ``"You take"``."""
    if who.lower() == "you" and verb.endswith("s"):
        verb = verb[:-1]
    return f"{who} {verb}"


def _and(items: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class _Unknown:
    """The type of :data:`_UNKNOWN`."""


_UNKNOWN = _Unknown()  # describe_turn was not told who captured last


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
    move = turn.move
    if move.capture is None:
        text = f"{_verb(who, 'creeps')} {move.card.symbol} (kryper)"
    elif turn.tabbe == 2:
        text = f"{_verb(who, 'takes')} {describe_cards(move.capture)} with its twin {move.card.symbol}"
    else:
        text = f"{_verb(who, 'takes')} {traffar_text(move.card, move.capture, rules)} with {move.card.symbol}"
    sentences = []
    if turn.tabbe:
        text += " — dubbeltabbe (two tabbe marks)!" if turn.tabbe == 2 else " — tabbe!"
        if not show_dukning:
            pass
        elif turn.dukning is None:
            text += " It was the first move of the giv, so nobody gets a dukning."
        else:
            n = "two dukningar" if turn.tabbe == 2 else "a dukning"
            setter = _name(names, turn.dukning)
            text += f" {setter} moved just before and {'get' if setter.lower() == 'you' else 'gets'} {n}."
    elif turn.tabbe_pa and turn.sweep is None and not turn.dealt:
        text += f" — {tabbe_pa_text(turn.tabbe_pa)}"
    sentences.append(text if text.endswith((".", "!")) else text + ".")
    if turn.cancelled:
        side = "every team" if rules.teams != "none" else "everyone"
        sentences.append(f"Marks cancel: {side} turns one tabbe mark down{_TIMES.get(turn.cancelled, f' {turn.cancelled} times')}.")
    if turn.dealt:
        where = f" (utdelning {deal[0]} of {deal[1]})" if deal else ""
        sentences.append(f"New deal{where}.")
        if turn.tabbe_pa:
            sentences.append(f"{tabbe_pa_text(turn.tabbe_pa) or ''}".capitalize() + " on the new table.")
    if turn.sweep is not None:
        sentences.append(_sweep_text(turn, names, kladda, last_capturer))
    return " ".join(sentences)


def _sweep_text(turn: Turn, names: Sequence[str], kladda: int | None, last_capturer: int | _Unknown | None) -> str:
    total = len(turn.sweep or ())
    if last_capturer is None and turn.move.capture is not None:
        last_capturer = turn.player
    if isinstance(last_capturer, _Unknown):
        last_capturer = turn.player if turn.move.capture is not None else None
        if last_capturer is None:
            return (f"The giv is over: the last player who captured takes the last "
                    f"{_plural(total, 'card', 'cards')} (table and klädda högen).") if total else \
                "The giv is over; no cards were left on the table."
    if total == 0:
        return "The giv is over; no cards were left on the table."
    if kladda is not None:
        on_table = total - kladda
        parts = []
        if on_table:
            parts.append(f"the last {on_table} table card{'s' if on_table != 1 else ''}")
        if kladda:
            parts.append(f"klädda högen ({kladda} face card{'s' if kladda != 1 else ''})")
        what = " and ".join(parts)
    else:
        what = f"the last {total} card{'s' if total != 1 else ''} (table and klädda högen)"
    if last_capturer is None:
        return f"The giv is over. Nobody captured, so {what} score for nobody."
    who = _name(names, last_capturer)
    return f"The giv is over: {who} captured last and {'take' if who.lower() == 'you' else 'takes'} {what}."


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
    return (f"+{n}" if plus else str(n)) if n > 0 else f"−{-n}" if n < 0 else "0"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


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
    if result.last_capturer is not None and not aside:
        lines.append(f"{_name(names, result.last_capturer)} captured last; no cards were left on the table."
                     + (f" That is worth {_plural(rules.last_capture_point, 'extra point', 'extra points')}."
                        if rules.last_capture_point else ""))
    elif result.last_capturer is not None:
        lines.append(f"{_name(names, result.last_capturer)} captured last and took the "
                     f"{_plural(aside, 'card', 'cards')} left (table and klädda högen)."
                     + (f" That is worth {_plural(rules.last_capture_point, 'extra point', 'extra points')}."
                        if rules.last_capture_point else ""))
    elif aside:
        lines.append(f"Nobody captured: the {_plural(aside, 'card', 'cards')} left score for nobody.")
    for s in range(n):
        parts = []
        if piles is not None:
            scoring = point_breakdown(piles[s])
            listed = ", ".join(f"{c.symbol} {why} {p}" for c, p, why in scoring)
            parts.append(f"{result.card_points[s]} card points"
                         + (f" ({listed})" if listed else " (no scoring cards)"))
        else:
            parts.append(f"{result.card_points[s]} card points")
        m, d = result.marks[s], result.dukningar[s]
        if m:
            parts.append(f"{_plural(m, 'tabbe mark', 'tabbe marks')} × {signed(rules.tabbe_points)}")
        if d:
            parts.append(f"{_plural(d, 'dukning', 'dukningar')} × {signed(rules.dukning_points)}")
        made = result.tabbar[s]
        extra = ""
        if made and made != m:
            extra = f" ({_plural(made, 'tabbe', 'tabbar')} made; {m} left standing after marks cancelled)"
        lines.append(f"{_name(names, s)}: " + " + ".join(parts) + f" = {signed(result.scores[s], plus=False)}{extra}.")
    if rules.teams != "none":
        for t, score in enumerate(result.team_scores):
            members = "+".join(_name(names, s) for s in rules.team_members(t))
            lines.append(f"Team {t + 1} ({members}): {score}.")
        winners = [f"team {t + 1}" for t in result.winners]
    else:
        winners = [_name(names, s) for s in result.winners]
    best = min(result.team_scores)
    lines.append(f"Lowest score wins (misère): {_and(winners)} with {signed(best, plus=False)}.")
    return lines
