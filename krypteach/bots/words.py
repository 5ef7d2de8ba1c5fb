"""The bots' reasons in words: every sentence a hint shows, in one place, through the catalogs.

A reason is a move followed by whole sentences, each a message of the ``engine``
catalog with named places (docs/i18n.md), so that a translator writes each one as
a sentence of their language; numbers are written by :mod:`krypteach.i18n.numbers`
(``−0,4`` in Swedish). The bots' thinking (:mod:`.careful`, :mod:`.kasino`,
:mod:`.expert`) collects these sentences as an assessment's ``notes``; the hint is
:func:`reason`.

>>> from krypteach.i18n import use_language
>>> with use_language("sv"):
...     print(reason("9♣ tar 3♦+6♣", [takes_points(0), sets_up_tabbe([1], 1, 0.2)]).replace("\xa0", " "))
9♣ tar 3♦+6♣. Du tar inga poäng. Plats 1 får tabbe på ess, och du får dukningen om plats 1 har ett sådant kort (20 %).
>>> with seat_names(["You", "Bea"]):
...     print(sets_up_tabbe([10], 1, 0.25))
Bea gets tabbe på tio, and you get the dukning if Bea holds such a card (25%).
>>> print(reason("9♣ takes 3♦+6♣", [takes_points(2)], expected(-1.5, 0.3, "7♥ creeps")))
9♣ takes 3♦+6♣. You take 2 points. Expected −1.5 points for you against +0.3 for 7♥ creeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from ..i18n import N_, _, ngettext
from ..i18n.numbers import number, percent, signed

__all__ = ["reason", "rank_words", "takes_points", "sets_up_tabbe", "expected", "seat_names", "seat_name"]

#: the ranks' names in the game's words (tabbe på *ess*); Swedish in both languages
_RANK_WORDS = {1: "ess", 2: "två", 3: "tre", 4: "fyra", 5: "fem", 6: "sex", 7: "sju", 8: "åtta", 9: "nio",
               10: "tio", 11: "knekt", 12: "dam", 13: "kung"}


_SEAT_NAMES: ContextVar[Sequence[str] | None] = ContextVar("krypteach_seat_names", default=None)


@contextmanager
def seat_names(names: Sequence[str] | None) -> Iterator[None]:
    """Inside the block, a hint names each seat as the page does (``"Bea"``), not ``"seat 1"``."""
    token = _SEAT_NAMES.set(list(names) if names else None)
    try:
        yield
    finally:
        _SEAT_NAMES.reset(token)


def seat_name(seat: int) -> str:
    """A seat as the page names it (:func:`seat_names`), else ``"seat 1"`` (``"plats 1"``)."""
    names = _SEAT_NAMES.get()
    if names and 0 <= seat < len(names):
        return names[seat]
    return _("seat {seat}").format(seat=seat)


def _cap(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def reason(move: str, sentences: Iterable[str], *more: str) -> str:
    """``move`` as the first sentence, then each sentence: ``"9♣ takes 3♦+6♣. You take 2 points."``."""
    parts = [_("{move}.").format(move=move), *sentences, *more]
    return " ".join(p for p in parts if p)


def or_list(words: Sequence[str]) -> str:
    """``"ess"``, ``"ess or tio"``, ``"ess, tre or tio"`` (``eller`` in Swedish)."""
    if len(words) <= 1:
        return "".join(words)
    return _("{items} or {last}").format(items=", ".join(words[:-1]), last=words[-1])


def rank_words(ranks: Iterable[int]) -> str:
    """The ranks by their names, lowest first: ``"ess or tio"``."""
    return or_list([_RANK_WORDS[r] for r in sorted(ranks)])


# --- Krypkasino's careful bot ---------------------------------------------------------

def takes_points(points: int) -> str:
    if not points:
        return _("You take no points.")
    return ngettext("You take {points} point.", "You take {points} points.", points).format(points=points)


def creeps_on_empty() -> str:
    return _("The table is empty, so you creep.")


def gets_rid_of(card: str, points: int) -> str:
    return ngettext("You get rid of {card} ({points} point) without taking it.",
                    "You get rid of {card} ({points} points) without taking it.", points).format(
        card=card, points=points)


def forced_tabbe(marks: int) -> str:
    return _("It is a tvångstabbe: you must take the whole table.") if marks == 1 else \
        _("It is a tvångstabbe and a dubbeltabbe: you must take the whole table.")


def sets_up_tabbe(ranks: Iterable[int], seat: int, chance: float) -> str:
    who = seat_name(seat)
    return _cap(_("{who} gets tabbe på {ranks}, and you get the dukning if {who} holds such a card "
                  "({chance}).").format(who=who, ranks=rank_words(ranks), chance=percent(chance)))


def tabbe_for_next_costs(ranks: Iterable[int], seat: int, chance: float) -> str:
    """The next seat's tabbe would cost the mover's side (rules where a tabbe is
    good for its taker, e.g. negative ``tabbe_points``). The next seat is never
    a partner: partners sit apart."""
    who = seat_name(seat)
    return _cap(_("{who} gets tabbe på {ranks} if {who} holds such a card ({chance}), and under these rules "
                  "that costs you.").format(who=who, ranks=rank_words(ranks), chance=percent(chance)))


def risks_forced_tabbe(seat: int, ranks: Iterable[int]) -> str:
    return _("You risk a tvångstabbe on your next turn if {who} plays {ranks}.").format(
        who=seat_name(seat), ranks=rank_words(ranks))


def takes_the_rest(points: int) -> str:
    return ngettext("As the last to take in, you take the rest ({points} point).",
                    "As the last to take in, you take the rest ({points} points).", points).format(points=points)


def nothing_at_stake() -> str:
    return _("There is nothing to gain or lose.")


def only_legal_move() -> str:
    return _("It is the only legal move.")


def must_take_whole_table() -> str:
    return _("It is a tvångstabbe: a card in your hand takes the whole table, so it must be played.")


def expected(mine: float, other: float, second: str) -> str:
    """Expected points, yours against the next best move's (lower is better in Krypkasino)."""
    return _("Expected {points} points for you against {other} for {second}.").format(
        points=signed(mine, 1), other=signed(other, 1), second=second)


# --- classic Kasino -------------------------------------------------------------------

def kasino_takes(cards: int, spades: int, points: int) -> str:
    return _("You take in {cards} cards and {points} p; spades among them: {spades}.").format(
        cards=cards, spades=spades, points=points)


def kasino_tabbe() -> str:
    return _("It is a tabbe: the table is left empty.")


def kasino_lays_out(card: str) -> str:
    return _("You lay out {card} on the table.").format(card=card)


def kasino_holds_for_build(card: str, value: int, chance: float, points: float) -> str:
    return _("You hold {card} to take the build of {value} on your next turn ({chance} that nobody takes it "
             "first); it is worth about {points} points.").format(
        card=card, value=value, chance=percent(chance), points=number(points, 1))


def kasino_next_may_take(points: float) -> str:
    return _("The next player may take about {points} points from the table you leave.").format(
        points=number(points, 1))


def kasino_takes_the_rest() -> str:
    return _("As the last to take in, you take the rest of the table and sistan.")


def kasino_expected(mine: float, other: float, second: str, lowest_wins: bool) -> str:
    if lowest_wins:
        text = _("Expected {points} points for you against {other} for {second} (your points minus your "
                 "opponents': in avig kasino, the fewer the better).")
    else:
        text = _("Expected {points} points for you against {other} for {second} (your points minus your "
                 "opponents').")
    return text.format(points=signed(mine, 1), other=signed(other, 1), second=second)


# --- the expert -----------------------------------------------------------------------

def gives_nothing_away() -> str:
    return _("It gives nothing away this turn.")


def plays_the_same() -> str:
    return _("The other legal moves play the same.")


def exact_end(points: int, lowest_wins: bool = True) -> str:
    """The last deal, every card known: how it ends with the best play, said the way the game
    counts. ``points``: lower is better (< 0: you end better off than your opponent); in a
    game where the highest wins, you then have more points than your opponent, in misère fewer.

    >>> exact_end(3)[-61:]
    'it ends with 3 points more than your opponent: worse for you.'
    >>> exact_end(-2, lowest_wins=False)[-62:]
    'it ends with 2 points more than your opponent: better for you.'
    """
    n = abs(points)
    if n == 0:
        return _("Every card is known in this last deal, and with the best play from both of you it ends level "
                 "with your opponent.")
    more = (points > 0) == lowest_wins  # the points you end with, against your opponent's
    if points < 0 and more:
        return ngettext("Every card is known in this last deal, and with the best play from both of you it ends "
                        "with {n} point more than your opponent: better for you.",
                        "Every card is known in this last deal, and with the best play from both of you it ends "
                        "with {n} points more than your opponent: better for you.", n).format(n=n)
    if points < 0:
        return ngettext("Every card is known in this last deal, and with the best play from both of you it ends "
                        "with {n} point fewer than your opponent: better for you.",
                        "Every card is known in this last deal, and with the best play from both of you it ends "
                        "with {n} points fewer than your opponent: better for you.", n).format(n=n)
    if more:
        return ngettext("Every card is known in this last deal, and with the best play from both of you it ends "
                        "with {n} point more than your opponent: worse for you.",
                        "Every card is known in this last deal, and with the best play from both of you it ends "
                        "with {n} points more than your opponent: worse for you.", n).format(n=n)
    return ngettext("Every card is known in this last deal, and with the best play from both of you it ends "
                    "with {n} point fewer than your opponent: worse for you.",
                    "Every card is known in this last deal, and with the best play from both of you it ends "
                    "with {n} points fewer than your opponent: worse for you.", n).format(n=n)


def exact_better(gap: int, second: str) -> str:
    return ngettext("That is {n} point better than {second}.", "That is {n} points better than {second}.",
                    gap).format(n=gap, second=second)


#: the sampled expert's verdicts, by how much better the move is than the next best
SAMPLED = {
    "same": N_("Looking ahead over many ways the unseen cards may lie, it is about as good as {second}: "
               "either is fine."),
    "little": N_("Looking ahead over many ways the unseen cards may lie, it is a little better than {second} "
                 "(about 1 point)."),
}


def sampled_verdict(gap: float, second: str) -> str:
    if gap < 0.5:
        return _(SAMPLED["same"]).format(second=second)
    if gap < 1.5:
        return _(SAMPLED["little"]).format(second=second)
    n = round(gap)
    return ngettext("Looking ahead over many ways the unseen cards may lie, it is about {n} point better than "
                    "{second}.",
                    "Looking ahead over many ways the unseen cards may lie, it is about {n} points better than "
                    "{second}.", n).format(n=n, second=second)


# --- any bot --------------------------------------------------------------------------

def one_of(n: int) -> str:
    return ngettext("It is one of {n} legal move.", "It is one of {n} legal moves.", n).format(n=n)
