"""Why a move of Krypkasino is legal or not, in words a learner understands,
and the phrasing every game's explanations share.

Each game explains its own moves (:meth:`krypteach.engine.games.base.Game.explain`;
:func:`krypteach.engine.games.explain_move` asks the game of the rules).
:func:`explain_krypkasino_move` judges a proposed move exactly as :func:`legal_moves`
does (a move is legal when it is one of the legal moves, and only then) and
names the rule and the cards: tvångstabbe, must capture, take all you can, the
maximum rule, or what the move does when it is legal.

Card groups are written with ``+`` inside one group (``2♣+7♥``). Groups that
are parts of *one* capture are joined with "and" (``9♠ and 2♣+7♥``); captures
that are *alternatives* to one another are joined with "or"
(``6♣+8♠ or 2♠+4♣+8♠``).

>>> from krypteach import parse_cards
>>> print(explain_krypkasino_move(parse_cards("9C"), parse_cards("9S 2C 5D 7H"), "9C:9S+2C+7H"))
9♣ takes 9♠ and 2♣+7♥; 5♦ stays.
>>> print(explain_krypkasino_move(parse_cards("AS 6H"), parse_cards("7D 7C"), "6H"))
Tvångstabbe (forced tabbe): your A♠ can take the whole table (7♦+7♣ = 14), so you must play it and take everything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..i18n import _, ngettext
from .captures import can_take_whole_table, capture_options, played_value, split_into_traffar, traffar
from .cards import Card
from .moves import Explanation, Move, describe_cards, legal_moves, table_after
from .rules import Rules
from .turn import tabbe_marks

__all__ = ["explain_krypkasino_move", "and_sep", "or_sep", "not_in_hand", "not_on_table", "SHOWN_ALTERNATIVES"]

#: At most this many alternative captures are spelt out in one message.
SHOWN_ALTERNATIVES = 3


def and_sep() -> str:
    # i18n: joins the card groups that are parts of ONE capture: "9♠ and 2♣+7♥" (spaces included)
    return _(" and ")


def or_sep() -> str:
    # i18n: joins alternatives: "6♣+8♠ or 2♠+4♣+8♠", "your 10♠ or your 10♥" (spaces included)
    return _(" or ")


def _parts_text(groups: Sequence[Sequence[Card]]) -> str:
    """The träffar of ONE capture: its disjoint parts, joined with "and"."""
    return and_sep().join(describe_cards(g) for g in groups)


def _split(card: Card, capture: Sequence[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """``capture`` (known to be a union of träffar for ``card``) split into its träffar."""
    return split_into_traffar(card, capture, rules) or [tuple(capture)]


def _alternatives_text(card: Card, captures: Sequence[Sequence[Card]], rules: Rules) -> str:
    """Captures that are alternatives to one another, joined with "or".

    When a capture has several träffar (joined with "and"), the alternatives
    are set apart with commas: ``"9♠ and 2♣+7♥, or 9♠ and 2♦+7♥"``.
    """
    groups = [_split(card, cap, rules) for cap in captures]
    texts = [_parts_text(g) for g in groups]
    more = len(texts) - SHOWN_ALTERNATIVES
    if more > 1:  # (one more is shown rather than counted)
        texts = [*texts[:SHOWN_ALTERNATIVES], _("one of {count} more ways").format(count=more)]
    several = more > 1 or any(len(g) > 1 for g in groups)
    # i18n: sets apart alternatives that have several parts: "9♠ and 2♣+7♥, or 9♠ and 2♦+7♥"
    sep = _(", or ") if several else or_sep()
    return sep.join(texts)


def _whole_table_text(card: Card, table: Sequence[Card], rules: Rules) -> str:
    """How ``card`` itself splits the whole table, each sum with its value:
    ``"A♥+9♠ = 10 and 3♦+7♣ = 10"``, ``"7♦ and 7♣"`` (same rank), ``"7♦+7♣ = 14"`` (an ace)."""
    value = played_value(card, rules)
    return and_sep().join(describe_cards(g) + (f" = {value}" if len(g) > 1 else "") for g in _split(card, table, rules))


def _stays_text(rest: Sequence[Card]) -> str:
    # i18n: the table cards a capture leaves: "5♦ stays", "5♦ 8♣ stay"
    return ngettext("{cards} stays", "{cards} stay", len(rest)).format(cards=describe_cards(rest, " "))


def _your(card: Card, table: Sequence[Card], rules: Rules) -> str:
    # i18n: a card that can take the whole table, with how it splits it: "your 10♠ (A♥+9♠ = 10 and 3♦+7♣ = 10)"
    return _("your {card} ({split})").format(card=card.symbol, split=_whole_table_text(card, table, rules))


def _tvangstabbe(move: Move, forced: Sequence[Card], table: Sequence[Card], rules: Rules,
                 legal: Sequence[Move]) -> Explanation:
    """A move that is not a whole-table capture by a forced card: each forced
    card is named with its OWN split of the table."""
    if move.card in forced:
        others = [c for c in forced if c != move.card]
        msg = _("Tvångstabbe (forced tabbe): your {card} can take the whole table ({split}), "
                "so it must take everything.").format(card=move.card.symbol,
                                                      split=_whole_table_text(move.card, table, rules))
        if others:
            could = or_sep().join(_your(c, table, rules) for c in others)
            msg += " " + ngettext("You may play {cards} instead: it too would take the whole table.",
                                  "You may play {cards} instead: each of them would take the whole table.",
                                  len(others)).format(cards=could)
    elif len(forced) == 1:
        (only,) = forced
        msg = _("Tvångstabbe (forced tabbe): your {card} can take the whole table ({split}), "
                "so you must play it and take everything.").format(card=only.symbol,
                                                                    split=_whole_table_text(only, table, rules))
    else:
        which = or_sep().join(_your(c, table, rules) for c in forced)
        msg = _("Tvångstabbe (forced tabbe): {cards} can take the whole table, "
                "so you must play one of them and take everything.").format(cards=which)
    return Explanation(False, "tvangstabbe", msg, move, missing=tuple(sorted(table)), better=tuple(legal))


def not_in_hand(move: Move, hand: Sequence[Card]) -> Explanation:
    say = (_("{card} is not in your hand (your hand: {hand}).") if hand
           else _("{card} is not in your hand (your hand: empty)."))
    return Explanation(False, "not-in-hand", say.format(card=move.card.symbol, hand=describe_cards(hand, " ")), move)


def not_on_table(move: Move, card: Card, shown: str) -> Explanation:
    say = (_("{card} is not on the table (the table: {table}).") if shown
           else _("{card} is not on the table (the table: empty)."))
    return Explanation(False, "not-on-table", say.format(card=card.symbol, table=shown), move, extra=(card,))


def explain_krypkasino_move(hand: Sequence[Card], table: Sequence[Card], move: Move | str,
                            rules: Rules | None = None) -> Explanation:
    """Explain whether ``move`` is legal for ``hand`` at ``table``, naming the rule and the cards.

    The verdict is :func:`legal_moves`'s: ``explain_krypkasino_move(...).legal`` is
    ``move in legal_moves(hand, table, rules)``.

    >>> from krypteach import parse_cards
    >>> e = explain_krypkasino_move(parse_cards("9C"), parse_cards("9S 2C 5D 7H"), "9C:9S")
    >>> e.legal, e.rule
    (False, 'take-all')
    >>> print(e.message)
    You must take all you can: 2♣+7♥ also make 9 and would stay on the table. Take 9♠ and 2♣+7♥; 5♦ stays.
    >>> print(explain_krypkasino_move(parse_cards("AS"), parse_cards("6C 8S 2S 4C"), "AS"))
    You may not creep (krypa) with A♠: it has a träff — it can take 2♠+4♣+8♠ or 6♣+8♠. A card that can capture must capture.
    """
    rules = rules or Rules()
    move = Move.parse(move) if isinstance(move, str) else move
    card = move.card
    sym = card.symbol
    if card not in hand:
        return not_in_hand(move, hand)
    if move.capture is not None:
        left = Counter(table)
        for c in move.capture:
            if left[c] <= 0:
                return not_on_table(move, c, describe_cards(table, " "))
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
                msg = _("{card} creeps (kryper); under the free rule you may creep even though it could "
                        "capture.").format(card=sym)
            else:
                msg = _("{card} has no träff, so it creeps (kryper): it is laid on the table.").format(card=sym)
            return Explanation(True, "ok", msg, move)
        captures = [m.capture for m in same_card if m.capture is not None]
        return Explanation(
            False, "must-capture",
            _("You may not creep (krypa) with {card}: it has a träff — it can take {captures}. "
              "A card that can capture must capture.").format(
                card=sym, captures=_alternatives_text(card, captures, rules)),
            move, better=same_card,
        )
    # a capture: it must split into träffar
    split = split_into_traffar(card, move.capture, rules)
    value = played_value(card, rules)
    if split is None:
        if not capture_options(card, table, rules):
            msg = _("{card} has no träff on this table, so it cannot take anything: it creeps.").format(card=sym)
        else:
            rule = _("the cards you take must split into träffar: single cards of the same rank, "
                     "or groups that add up to {value}.").format(value=value)
            if len(move.capture) > 1:
                # i18n: {rule} is "the cards you take must split into träffar: …"
                rule = _("they add up to {total}, and {rule}").format(
                    total=sum(c.rank for c in move.capture), rule=rule)
            msg = _("{cards} is not a träff for your {card}: {rule}").format(
                cards=describe_cards(move.capture), card=sym, rule=rule)
        return Explanation(False, "not-traffar", msg, move, extra=tuple(move.capture), better=same_card)
    rest = table_after(table, move)
    if is_legal:
        tabbe = 0
        if rest:
            # i18n: {stays} is "5♦ stays" (or "5♦ 8♣ stay")
            msg = _("{card} takes {cards}; {stays}.").format(card=sym, cards=_parts_text(split),
                                                             stays=_stays_text(rest))
        else:
            msg = _("{card} takes {cards}.").format(card=sym, cards=_parts_text(split))
            tabbe = tabbe_marks(table, move, rules)  # the rule of the turn, written once
            msg += " " + (_("Dubbeltabbe (double tabbe): the lone card taken with its twin counts as two tabbar!")
                          if tabbe == 2 else _("Tabbe: the table is empty!"))
        return Explanation(True, "ok", msg, move, traffar=tuple(split), tabbe=tabbe)
    # a union of träffar that the capture rule does not allow (never under the free rule, which allows
    # every union of träffar: a move is refused there only by tvångstabbe, answered above)
    left_behind = traffar(card, rest, rules)
    if left_behind:
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
                parts = _parts_text(_split(card, first, rules))
                hint = " " + (_("Take {cards}; {stays}.").format(cards=parts, stays=_stays_text(stay)) if stay
                              else _("Take {cards}.").format(cards=parts))
            else:
                hint = " " + _("Take {cards}.").format(
                    cards=_alternatives_text(card, [m.capture or () for m in grow], rules))
        shown = left_behind[0]
        if len(shown) > 1:
            msg = _("You must take all you can: {cards} also make {value} and would stay on the table.").format(
                cards=describe_cards(shown), value=value)
        else:
            msg = _("You must take all you can: {cards} is also a träff for {card} and would stay on the table.").format(
                cards=describe_cards(shown), card=sym)
        return Explanation(
            False, "take-all", msg + hint,
            move, traffar=tuple(split), missing=missing, better=same_card,
        )
    most = max((len(m.capture) for m in same_card if m.capture is not None), default=0)
    return Explanation(
        False, "maximum",
        _("Under the 'maximum' rule you must take the most cards: {card} can take {most} cards, "
          "this takes {count}.").format(card=sym, most=most, count=len(move.capture)),
        move, traffar=tuple(split), better=same_card,
    )
