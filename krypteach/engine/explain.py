"""Why a move is legal or not, in words a learner understands.

:func:`explain_move` judges a proposed move exactly as :func:`legal_moves`
does (a move is legal when it is one of the legal moves, and only then) and
names the rule and the cards: tvångstabbe, must capture, take all you can, the
maximum rule, or what the move does when it is legal.

Card groups are written with ``+`` inside one group (``2♣+7♥``). Groups that
are parts of *one* capture are joined with "and" (``9♠ and 2♣+7♥``); captures
that are *alternatives* to one another are joined with "or"
(``6♣+8♠ or 2♠+4♣+8♠``).

>>> from krypteach import parse_cards
>>> print(explain_move(parse_cards("9C"), parse_cards("9S 2C 5D 7H"), "9C:9S+2C+7H"))
9♣ takes 9♠ and 2♣+7♥; 5♦ stays.
>>> print(explain_move(parse_cards("AS 6H"), parse_cards("7D 7C"), "6H"))
Tvångstabbe (forced tabbe): your A♠ can take the whole table (7♦+7♣ = 14), so you must play it and take everything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .builds import (
    Build,
    build_value,
    builds_on,
    check_move_cards,
    kasino_legal_moves,
    table_cards,
    take_value,
    whole_table_takers,
)
from .captures import NUMBER_WORDS, can_take_whole_table, capture_options, played_value, split_into_traffar, traffar
from .cards import Card
from .moves import Move, describe_cards, legal_moves, table_after
from .rules import Rules
from .turn import owned_builds

__all__ = ["Explanation", "explain_move", "explain_kasino_move"]

#: At most this many alternative captures are spelt out in one message.
SHOWN_ALTERNATIVES = 3


@dataclass(frozen=True)
class Explanation:
    """Why a proposed move is legal or not, in words a learner understands.

    ``rule`` is a short key: ``"ok"``, ``"not-in-hand"``, ``"not-on-table"``,
    ``"tvangstabbe"``, ``"must-capture"``, ``"not-traffar"``, ``"take-all"``,
    ``"maximum"`` (and ``"giv-over"`` from :meth:`Giv.explain`); classic
    Kasino's builds add ``"build-no-card"``, ``"build-owner-must-act"``,
    ``"build-owner-trail"``, ``"build-lowered"``, ``"build-locked"``,
    ``"build-sum"``, ``"build-multiple"``, ``"build-split"`` and
    ``"build-wrong-value"`` (see :func:`explain_kasino_move`). ``traffar``
    splits a legal capture into its träffar; ``missing`` holds cards that must
    also be taken (or the whole table for a tvångstabbe); ``better`` lists
    legal moves with the same card (or the forced cards).

    >>> e = Explanation(False, "must-capture", "You may not creep.", Move.parse("9C"))
    >>> bool(e), str(e)
    (False, 'You may not creep.')
    """

    legal: bool
    rule: str
    message: str
    move: Move
    traffar: tuple[tuple[Card, ...], ...] = ()
    missing: tuple[Card, ...] = ()
    extra: tuple[Card, ...] = ()
    better: tuple[Move, ...] = field(default=())
    tabbe: int = 0  # tabbe marks the move makes: 0, 1, or 2 for a dubbeltabbe

    def __str__(self) -> str:
        return self.message

    def __bool__(self) -> bool:
        return self.legal


def _parts_text(groups: Sequence[Sequence[Card]]) -> str:
    """The träffar of ONE capture: its disjoint parts, joined with "and"."""
    return " and ".join(describe_cards(g) for g in groups)


def _split(card: Card, capture: Sequence[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """``capture`` (known to be a union of träffar for ``card``) split into its träffar."""
    return split_into_traffar(card, capture, rules) or [tuple(capture)]


def _alternatives_text(card: Card, captures: Sequence[Sequence[Card]], rules: Rules) -> str:
    """Captures that are alternatives to one another, joined with "or".

    When a capture has several träffar (joined with "and"), the alternatives
    are set apart with commas: ``"9♠ and 2♣+7♥, or 9♠ and 2♦+7♥"``.
    """
    texts = [_parts_text(_split(card, cap, rules)) for cap in captures]
    more = len(texts) - SHOWN_ALTERNATIVES
    if more > 1:  # (one more is shown rather than counted)
        texts = [*texts[:SHOWN_ALTERNATIVES], f"one of {more} more ways"]
    sep = ", or " if any(" and " in t for t in texts) or more > 1 else " or "
    return sep.join(texts)


def _whole_table_text(card: Card, table: Sequence[Card], rules: Rules) -> str:
    """How ``card`` itself splits the whole table, each sum with its value:
    ``"A♥+9♠ = 10 and 3♦+7♣ = 10"``, ``"7♦ and 7♣"`` (same rank), ``"7♦+7♣ = 14"`` (an ace)."""
    value = played_value(card, rules)
    return " and ".join(describe_cards(g) + (f" = {value}" if len(g) > 1 else "") for g in _split(card, table, rules))


def _stays_text(rest: Sequence[Card]) -> str:
    return f"{describe_cards(rest, ' ')} {'stays' if len(rest) == 1 else 'stay'}"


def _tvangstabbe(move: Move, forced: Sequence[Card], table: Sequence[Card], rules: Rules,
                 legal: Sequence[Move]) -> Explanation:
    """A move that is not a whole-table capture by a forced card: each forced
    card is named with its OWN split of the table."""
    head = "Tvångstabbe (forced tabbe): "
    if move.card in forced:
        others = [c for c in forced if c != move.card]
        msg = (f"{head}your {move.card.symbol} can take the whole table "
               f"({_whole_table_text(move.card, table, rules)}), so it must take everything.")
        if others:
            could = " or ".join(f"your {c.symbol} ({_whole_table_text(c, table, rules)})" for c in others)
            msg += (f" You may play {could} instead: "
                    f"{'it too would' if len(others) == 1 else 'each of them would'} take the whole table.")
    elif len(forced) == 1:
        (only,) = forced
        msg = (f"{head}your {only.symbol} can take the whole table ({_whole_table_text(only, table, rules)}), "
               "so you must play it and take everything.")
    else:
        which = " or ".join(f"your {c.symbol} ({_whole_table_text(c, table, rules)})" for c in forced)
        msg = f"{head}{which} can take the whole table, so you must play one of them and take everything."
    return Explanation(False, "tvangstabbe", msg, move, missing=tuple(sorted(table)), better=tuple(legal))


def explain_move(hand: Sequence[Card], table: Sequence, move: Move | str, rules: Rules | None = None,
                 player: int | None = None) -> Explanation:
    """Explain whether ``move`` is legal for ``hand`` at ``table``, naming the rule and the cards.

    The verdict is :func:`legal_moves`'s: ``explain_move(...).legal`` is
    ``move in legal_moves(hand, table, rules)``.

    >>> from krypteach import parse_cards
    >>> e = explain_move(parse_cards("9C"), parse_cards("9S 2C 5D 7H"), "9C:9S")
    >>> e.legal, e.rule
    (False, 'take-all')
    >>> print(e.message)
    You must take all you can: 2♣+7♥ also make 9 and would stay on the table. Take 9♠ and 2♣+7♥; 5♦ stays.
    >>> print(explain_move(parse_cards("AS"), parse_cards("6C 8S 2S 4C"), "AS"))
    You may not creep (krypa) with A♠: it has a träff — it can take 2♠+4♣+8♠ or 6♣+8♠. A card that can capture must capture.
    """
    rules = rules or Rules()
    move = Move.parse(move) if isinstance(move, str) else move
    if rules.game == "kasino":
        return explain_kasino_move(hand, table, move, rules, player)
    card = move.card
    sym = card.symbol
    if card not in hand:
        return Explanation(False, "not-in-hand",
                           f"{sym} is not in your hand (your hand: {describe_cards(hand, ' ') or 'empty'}).", move)
    if move.capture is not None:
        left = Counter(table)
        for c in move.capture:
            if left[c] <= 0:
                return Explanation(
                    False, "not-on-table",
                    f"{c.symbol} is not on the table (the table: {describe_cards(table, ' ') or 'empty'}).", move,
                    extra=(c,),
                )
            left[c] -= 1
    legal = legal_moves(hand, table, rules)
    is_legal = move in legal
    if not is_legal and rules.forced_tabbe and table:
        forced = [c for c in dict.fromkeys(hand) if can_take_whole_table(c, table, rules)]
        if forced:
            return _tvangstabbe(move, forced, table, rules, legal)
    same_card = tuple(m for m in legal if m.card == card)
    if move.capture is None:
        if is_legal:
            if capture_options(card, table, rules):
                msg = f"{sym} creeps (kryper); under the free rule you may creep even though it could capture."
            else:
                msg = f"{sym} has no träff, so it creeps (kryper): it is laid on the table."
            return Explanation(True, "ok", msg, move)
        captures = [m.capture for m in same_card if m.capture is not None]
        return Explanation(
            False, "must-capture",
            f"You may not creep (krypa) with {sym}: it has a träff — it can take "
            f"{_alternatives_text(card, captures, rules)}. A card that can capture must capture.",
            move, better=same_card,
        )
    # a capture: it must split into träffar
    split = split_into_traffar(card, move.capture, rules)
    value = played_value(card, rules)
    if split is None:
        if not capture_options(card, table, rules):
            msg = f"{sym} has no träff on this table, so it cannot take anything: it creeps."
        else:
            rule = ("the cards you take must split into träffar: single cards of the same rank, "
                    f"or groups that add up to {value}.")
            if len(move.capture) > 1:
                rule = f"they add up to {sum(c.rank for c in move.capture)}, and {rule}"
            msg = f"{describe_cards(move.capture)} is not a träff for your {sym}: {rule}"
        return Explanation(False, "not-traffar", msg, move, extra=tuple(move.capture), better=same_card)
    rest = table_after(table, move)
    if is_legal:
        tabbe = 0
        msg = f"{sym} takes {_parts_text(split)}" + (f"; {_stays_text(rest)}." if rest else ".")
        if not rest:
            double = rules.dubbeltabbe and len(table) == 1 and table[0] == card
            tabbe = 2 if double else 1
            msg += (" Dubbeltabbe (double tabbe): the lone card taken with its twin counts as two tabbar!" if double
                    else " Tabbe: the table is empty!")
        return Explanation(True, "ok", msg, move, traffar=tuple(split), tabbe=tabbe)
    # a union of träffar that the capture rule does not allow
    left_behind = traffar(card, rest, rules)
    if left_behind and rules.capture != "free":
        # the legal captures that add to this one (or, if none does, every legal capture of the card)
        mine = Counter(move.capture)
        grow = [m for m in same_card if m.capture is not None and mine <= Counter(m.capture)] or \
            [m for m in same_card if m.capture is not None]
        missing: tuple[Card, ...] = ()
        hint = ""
        if grow:
            first = grow[0].capture or ()
            missing = tuple((Counter(first) - mine).elements())
            if len(grow) == 1:
                stay = table_after(table, grow[0])
                hint = f" Take {_parts_text(_split(card, first, rules))}" + (f"; {_stays_text(stay)}." if stay else ".")
            else:
                hint = f" Take {_alternatives_text(card, [m.capture or () for m in grow], rules)}."
        shown = left_behind[0]
        also = f"also make {value}" if len(shown) > 1 else f"also matches {sym}"
        return Explanation(
            False, "take-all",
            f"You must take all you can: {describe_cards(shown)} {also} and would stay on the table.{hint}",
            move, traffar=tuple(split), missing=missing, better=same_card,
        )
    most = max((len(m.capture) for m in same_card if m.capture is not None), default=0)
    return Explanation(
        False, "maximum",
        f"Under the 'maximum' rule you must take the most cards: {sym} can take {most} cards, "
        f"this takes {len(move.capture)}.",
        move, traffar=tuple(split), better=same_card,
    )


# --- classic Kasino: builds ---------------------------------------------------


def _items_text(cards: Sequence[Card], table: Sequence) -> str:
    """The table items a move names: builds as ``[9: 4♠+5♥]``, loose cards as symbols."""
    taken = set(cards)
    parts = [x.symbol for x in table
             if (x.cards[0] in taken if isinstance(x, Build) else x in taken)]
    return " and ".join(parts)


def _value_word(v: int) -> str:
    return {14: "fjorton"}.get(v, NUMBER_WORDS.get(v, str(v)))


def explain_kasino_move(hand: Sequence[Card], table: Sequence, move: Move | str, rules: Rules,
                        player: int | None = None) -> Explanation:
    """Explain a move of classic Kasino for ``player`` holding ``hand`` at ``table``.
    :func:`krypteach.engine.explain.explain_move` hands classic Kasino's moves
    (``Rules(game="kasino")``) to :func:`explain_kasino_move`. The verdict is
    :func:`~krypteach.engine.builds.kasino_legal_moves`'s; the ``rule`` key names
    the rule an illegal move breaks:

    - ``"build-no-card"``: a build of a value you hold no (other) card for (no bluff builds);
    - ``"build-owner-must-act"``: you own a build and must take it or raise it;
    - ``"build-owner-trail"``: you own a build and may not trail (``owner_duty="no-trail"``);
    - ``"build-lowered"``: a build is never lowered;
    - ``"build-locked"``: a multiple build is locked and cannot be raised;
    - ``"build-sum"``: the cards do not make the value; ``"build-multiple"``: multiple builds are off;
    - ``"build-split"``: a build is taken (or built on) whole, never in part;
    - ``"build-wrong-value"``: only a card of a build's value takes it;
    - and, as in Krypkasino, ``"not-in-hand"``, ``"not-on-table"``, ``"tvangstabbe"``,
      ``"must-capture"``, ``"not-traffar"``, ``"take-all"``.

    >>> from krypteach import Rules, parse_cards
    >>> from krypteach.engine.builds import Build
    >>> k = Rules(game="kasino")
    >>> table = [Card("7C"), Build(9, parse_cards("4S 5H"), 0)]
    >>> e = explain_kasino_move(parse_cards("9D 7H"), table, Move.parse("7H:7C"), k, 0)
    >>> e.rule, e.message
    ('build-owner-must-act', 'You own a build of 9 (4♠+5♥): take it or raise it this turn — 9♦ takes it. You may not leave it and play something else.')
    >>> print(explain_kasino_move(parse_cards("5H 8D"), [Card("4S")], "5H>9:4S", k, 0))
    You may build 9 only with another card of that value in your hand to take it (no bluff builds): your other cards are 8♦.
    """
    move = Move.parse(move) if isinstance(move, str) else move
    card, sym = move.card, move.card.symbol
    if card not in hand:
        return Explanation(False, "not-in-hand",
                           f"{sym} is not in your hand (your hand: {describe_cards(hand, ' ') or 'empty'}).", move)
    problem = check_move_cards(table, move)
    if problem is not None and problem.startswith("not-on-table"):
        missing = next(c for c in (move.capture or ()) if c not in table_cards(table))
        shown = " ".join(x.symbol for x in table) or "empty"
        return Explanation(False, "not-on-table", f"{missing.symbol} is not on the table (the table: {shown}).",
                           move, extra=(missing,))
    if problem == "build-split":
        b = next(b for b in builds_on(table) if set(b.cards) & set(move.capture or ()))
        return Explanation(False, "build-split",
                           f"A build is never split: {b.symbol} is one pile of {b.value}; "
                           "take it or build on it whole, or leave it.", move)
    legal = kasino_legal_moves(hand, table, rules, player)
    same_card = tuple(m for m in legal if m.card == card)
    mine = owned_builds(table, player)
    if move in legal:
        return _legal(move, table, hand, rules, mine)
    # --- why not -------------------------------------------------------------
    takers = whole_table_takers(hand, table, rules) if rules.forced_tabbe else []
    if takers:
        which = " or ".join(c.symbol for c in takers)
        return Explanation(False, "tvangstabbe",
                           f"Tvångstabbe (forced tabbe): your {which} can take the whole table, so you must "
                           "play it and take everything.", move, missing=tuple(sorted(table_cards(table))),
                           better=tuple(legal))
    free_moves = kasino_legal_moves(hand, table, rules.replace(owner_duty="none"), player)
    if mine and move in free_moves:
        b = mine[0]
        can = [c for c in dict.fromkeys(hand) if take_value(c, rules) == b.value]
        how = f" — {describe_cards(can, ' or ')} takes it" if can else ""
        if rules.owner_duty == "no-trail":
            return Explanation(False, "build-owner-trail",
                               f"You own a build of {b.value} ({describe_cards(b.cards)}): you may not trail while "
                               f"you own a build{how}.", move, better=tuple(legal))
        return Explanation(False, "build-owner-must-act",
                           f"You own a build of {b.value} ({describe_cards(b.cards)}): take it or raise it this "
                           f"turn{how}. You may not leave it and play something else.", move, better=tuple(legal))
    caps = [m for m in same_card if m.capture is not None and m.value is None]
    forced = rules.capture != "free"
    if move.value is not None:
        return _bad_build(move, hand, table, rules, caps, forced, same_card)
    if move.capture is None:
        if forced and caps:
            return Explanation(False, "must-capture",
                               f"You may not trail with {sym}: it can take "
                               f"{' or '.join(_items_text(m.capture or (), table) for m in caps)}. "
                               "In avig kasino a card that can take must take.", move, better=same_card)
        return Explanation(False, "illegal", f"{sym} cannot be laid on the table here.", move, better=same_card)
    # a capture that is not legal
    v = take_value(card, rules)
    wrong = [b for b in builds_on(table) if b.cards[0] in move.capture and b.value != v]
    if wrong:
        b = wrong[0]
        return Explanation(False, "build-wrong-value",
                           f"{b.symbol} is a build of {b.value}: only a card of {b.value} takes it, not your {sym}.",
                           move, better=same_card)
    if forced and caps:
        return Explanation(False, "take-all",
                           f"You must take all you can with {sym}: take "
                           f"{' or '.join(_items_text(m.capture or (), table) for m in caps)}.",
                           move, better=same_card)
    return Explanation(False, "not-traffar",
                       f"{describe_cards(move.capture)} is not a träff for your {sym}: take cards of its rank, "
                       f"groups that add up to its value, and builds of its value.", move, better=same_card)


def _bad_build(move: Move, hand: Sequence[Card], table: Sequence, rules: Rules, caps: list[Move], forced: bool,
               same_card: tuple[Move, ...]) -> Explanation:
    card, sym, v = move.card, move.card.symbol, move.value or 0
    if forced and caps:
        return Explanation(False, "must-capture",
                           f"You may not build with {sym}: it can take "
                           f"{' or '.join(_items_text(m.capture or (), table) for m in caps)}, and in avig kasino "
                           "a card that can take must take.", move, better=same_card)
    taken = set(move.capture or ())
    joined = [b for b in builds_on(table) if b.cards[0] in taken]
    for b in joined:
        if b.value > v:
            return Explanation(False, "build-lowered",
                               f"A build is never lowered: {b.symbol} is a build of {b.value}, and {v} is less.",
                               move, better=same_card)
    for b in joined:
        if b.locked and b.value != v:
            return Explanation(False, "build-locked",
                               f"{b.symbol} is a multiple build of {b.value} (locked): it can no longer be raised.",
                               move, better=same_card)
    others = [c for c in hand if c != card]
    if not any(take_value(c, rules) == v for c in others):
        return Explanation(False, "build-no-card",
                           f"You may build {v} only with another card of that value in your hand to take it "
                           f"(no bluff builds): your other cards are {describe_cards(others, ' ') or 'none'}.",
                           move, better=same_card)
    total = (build_value(card, rules) or 0) + sum(build_value(c, rules) or 100 for c in taken)
    if total > v and total % v == 0 and not rules.multiple_builds:
        return Explanation(False, "build-multiple",
                           "These rules play without multiple builds: a build makes its value once.",
                           move, better=same_card)
    return Explanation(False, "build-sum",
                       f"{sym} with {_items_text(sorted(taken), table)} does not make a build of {v}: the cards "
                       f"(with any builds of {v} joined whole) must add up to {v}, or to {v} several times over in "
                       "a multiple build, and a build is raised with the played card alone.", move, better=same_card)


def _legal(move: Move, table: Sequence, hand: Sequence[Card], rules: Rules, mine: list[Build]) -> Explanation:
    card, sym = move.card, move.card.symbol
    if move.value is not None:
        v = move.value
        taken = set(move.capture or ())
        joined = [b for b in builds_on(table) if b.cards[0] in taken]
        keep = [c for c in hand if c != card and take_value(c, rules) == v]
        total = (build_value(card, rules) or 0) + sum(build_value(c, rules) or 0 for c in taken)
        if len(joined) == 1 and joined[0].value < v and len(taken) == len(joined[0].cards):
            what = f"{sym} raises {joined[0].symbol} to {v} (\"bygger {_value_word(v)}\")"
        elif total > v:
            what = (f"{sym} on {_items_text(sorted(taken), table)} makes a multiple build of {v} "
                    f"(\"{'dubbelt' if total == 2 * v else 'flera gånger'} {_value_word(v)}\"): it is locked and "
                    "can no longer be raised")
        else:
            what = f"{sym} on {_items_text(sorted(taken), table)} builds {v} (\"bygger {_value_word(v)}\")"
        return Explanation(True, "ok",
                           f"{what}. You own it now: your {describe_cards(keep, ' or ')} takes it; on your next turn "
                           f"take it or raise it. Anyone with a {v} may take it first.", move)
    if move.capture is None:
        return Explanation(True, "ok", f"{sym} is laid on the table (lägga).", move)
    rest = [x for x in table if not (x.cards[0] in move.capture if isinstance(x, Build) else x in move.capture)]
    msg = f"{sym} takes {_items_text(move.capture, table)}"
    if not rest:
        pts = rules.tabbe_points
        return Explanation(True, "ok", f"{msg}. Tabbe: the table is empty! ({pts} point{'s' if pts != 1 else ''})",
                           move, tabbe=1)
    return Explanation(True, "ok", f"{msg}; {' '.join(x.symbol for x in rest)} "
                       f"{'stays' if len(rest) == 1 else 'stay'}.", move)
