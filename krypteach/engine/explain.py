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

from ..i18n import _, ngettext
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


def _and() -> str:
    # i18n: joins the card groups that are parts of ONE capture: "9♠ and 2♣+7♥" (spaces included)
    return _(" and ")


def _or() -> str:
    # i18n: joins alternatives: "6♣+8♠ or 2♠+4♣+8♠", "your 10♠ or your 10♥" (spaces included)
    return _(" or ")


def _parts_text(groups: Sequence[Sequence[Card]]) -> str:
    """The träffar of ONE capture: its disjoint parts, joined with "and"."""
    return _and().join(describe_cards(g) for g in groups)


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
    sep = _(", or ") if several else _or()
    return sep.join(texts)


def _whole_table_text(card: Card, table: Sequence[Card], rules: Rules) -> str:
    """How ``card`` itself splits the whole table, each sum with its value:
    ``"A♥+9♠ = 10 and 3♦+7♣ = 10"``, ``"7♦ and 7♣"`` (same rank), ``"7♦+7♣ = 14"`` (an ace)."""
    value = played_value(card, rules)
    return _and().join(describe_cards(g) + (f" = {value}" if len(g) > 1 else "") for g in _split(card, table, rules))


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
            could = _or().join(_your(c, table, rules) for c in others)
            msg += " " + ngettext("You may play {cards} instead: it too would take the whole table.",
                                  "You may play {cards} instead: each of them would take the whole table.",
                                  len(others)).format(cards=could)
    elif len(forced) == 1:
        (only,) = forced
        msg = _("Tvångstabbe (forced tabbe): your {card} can take the whole table ({split}), "
                "so you must play it and take everything.").format(card=only.symbol,
                                                                    split=_whole_table_text(only, table, rules))
    else:
        which = _or().join(_your(c, table, rules) for c in forced)
        msg = _("Tvångstabbe (forced tabbe): {cards} can take the whole table, "
                "so you must play one of them and take everything.").format(cards=which)
    return Explanation(False, "tvangstabbe", msg, move, missing=tuple(sorted(table)), better=tuple(legal))


def _not_in_hand(move: Move, hand: Sequence[Card]) -> Explanation:
    say = (_("{card} is not in your hand (your hand: {hand}).") if hand
           else _("{card} is not in your hand (your hand: empty)."))
    return Explanation(False, "not-in-hand", say.format(card=move.card.symbol, hand=describe_cards(hand, " ")), move)


def _not_on_table(move: Move, card: Card, shown: str) -> Explanation:
    say = (_("{card} is not on the table (the table: {table}).") if shown
           else _("{card} is not on the table (the table: empty)."))
    return Explanation(False, "not-on-table", say.format(card=card.symbol, table=shown), move, extra=(card,))


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
        return _not_in_hand(move, hand)
    if move.capture is not None:
        left = Counter(table)
        for c in move.capture:
            if left[c] <= 0:
                return _not_on_table(move, c, describe_cards(table, " "))
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
            double = rules.dubbeltabbe and len(table) == 1 and table[0] == card
            tabbe = 2 if double else 1
            msg += " " + (_("Dubbeltabbe (double tabbe): the lone card taken with its twin counts as two tabbar!")
                          if double else _("Tabbe: the table is empty!"))
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
            msg = _("You must take all you can: {cards} also matches {card} and would stay on the table.").format(
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


# --- classic Kasino: builds ---------------------------------------------------


def _items_text(cards: Sequence[Card], table: Sequence) -> str:
    """The table items a move names: builds as ``[9: 4♠+5♥]``, loose cards as symbols."""
    taken = set(cards)
    parts = [x.symbol for x in table
             if (x.cards[0] in taken if isinstance(x, Build) else x in taken)]
    return _and().join(parts)


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
        return _not_in_hand(move, hand)
    problem = check_move_cards(table, move)
    if problem is not None and problem.startswith("not-on-table"):
        missing = next(c for c in (move.capture or ()) if c not in table_cards(table))
        return _not_on_table(move, missing, " ".join(x.symbol for x in table))
    if problem == "build-split":
        b = next(b for b in builds_on(table) if set(b.cards) & set(move.capture or ()))
        return Explanation(False, "build-split",
                           _("A build is never split: {build} is one pile of {value}; "
                             "take it or build on it whole, or leave it.").format(build=b.symbol, value=b.value),
                           move)
    legal = kasino_legal_moves(hand, table, rules, player)
    same_card = tuple(m for m in legal if m.card == card)
    mine = owned_builds(table, player)
    if move in legal:
        return _legal(move, table, hand, rules, mine)
    # --- why not -------------------------------------------------------------
    takers = whole_table_takers(hand, table, rules) if rules.forced_tabbe else []
    if takers:
        which = _or().join(c.symbol for c in takers)
        return Explanation(False, "tvangstabbe",
                           _("Tvångstabbe (forced tabbe): your {cards} can take the whole table, so you must "
                             "play it and take everything.").format(cards=which),
                           move, missing=tuple(sorted(table_cards(table))), better=tuple(legal))
    free_moves = kasino_legal_moves(hand, table, rules.replace(owner_duty="none"), player)
    if mine and move in free_moves:
        b = mine[0]
        can = [c for c in dict.fromkeys(hand) if take_value(c, rules) == b.value]
        # i18n: {how} is empty or " — 9♦ takes it"
        how = (" — " + _("{cards} takes it").format(cards=describe_cards(can, _or()))) if can else ""
        if rules.owner_duty == "no-trail":
            return Explanation(False, "build-owner-trail",
                               _("You own a build of {value} ({cards}): you may not trail while "
                                 "you own a build{how}.").format(value=b.value, cards=describe_cards(b.cards), how=how),
                               move, better=tuple(legal))
        return Explanation(False, "build-owner-must-act",
                           _("You own a build of {value} ({cards}): take it or raise it this turn{how}. "
                             "You may not leave it and play something else.").format(
                               value=b.value, cards=describe_cards(b.cards), how=how),
                           move, better=tuple(legal))
    caps = [m for m in same_card if m.capture is not None and m.value is None]
    forced = rules.capture != "free"
    if move.value is not None:
        return _bad_build(move, hand, table, rules, caps, forced, same_card)
    if move.capture is None:
        if forced and caps:
            return Explanation(False, "must-capture",
                               _("You may not trail with {card}: it can take {captures}. "
                                 "In avig kasino a card that can take must take.").format(
                                   card=sym, captures=_or().join(_items_text(m.capture or (), table) for m in caps)),
                               move, better=same_card)
        return Explanation(False, "illegal", _("{card} cannot be laid on the table here.").format(card=sym), move,
                           better=same_card)
    # a capture that is not legal
    v = take_value(card, rules)
    wrong = [b for b in builds_on(table) if b.cards[0] in move.capture and b.value != v]
    if wrong:
        b = wrong[0]
        return Explanation(False, "build-wrong-value",
                           _("{build} is a build of {value}: only a card of {value} takes it, not your {card}.").format(
                               build=b.symbol, value=b.value, card=sym),
                           move, better=same_card)
    if forced and caps:
        return Explanation(False, "take-all",
                           _("You must take all you can with {card}: take {captures}.").format(
                               card=sym, captures=_or().join(_items_text(m.capture or (), table) for m in caps)),
                           move, better=same_card)
    return Explanation(False, "not-traffar",
                       _("{cards} is not a träff for your {card}: take cards of its rank, "
                         "groups that add up to its value, and builds of its value.").format(
                           cards=describe_cards(move.capture), card=sym), move, better=same_card)


def _bad_build(move: Move, hand: Sequence[Card], table: Sequence, rules: Rules, caps: list[Move], forced: bool,
               same_card: tuple[Move, ...]) -> Explanation:
    card, sym, v = move.card, move.card.symbol, move.value or 0
    if forced and caps:
        return Explanation(False, "must-capture",
                           _("You may not build with {card}: it can take {captures}, and in avig kasino "
                             "a card that can take must take.").format(
                               card=sym, captures=_or().join(_items_text(m.capture or (), table) for m in caps)),
                           move, better=same_card)
    taken = set(move.capture or ())
    joined = [b for b in builds_on(table) if b.cards[0] in taken]
    for b in joined:
        if b.value > v:
            return Explanation(False, "build-lowered",
                               _("A build is never lowered: {build} is a build of {value}, and {new} is less.").format(
                                   build=b.symbol, value=b.value, new=v),
                               move, better=same_card)
    for b in joined:
        if b.locked and b.value != v:
            return Explanation(False, "build-locked",
                               _("{build} is a multiple build of {value} (locked): it can no longer be raised.").format(
                                   build=b.symbol, value=b.value),
                               move, better=same_card)
    others = [c for c in hand if c != card]
    if not any(take_value(c, rules) == v for c in others):
        return Explanation(False, "build-no-card",
                           _("You may build {value} only with another card of that value in your hand to take it "
                             "(no bluff builds): your other cards are {cards}.").format(
                               value=v, cards=describe_cards(others, " ") or _("none")),
                           move, better=same_card)
    total = (build_value(card, rules) or 0) + sum(build_value(c, rules) or 100 for c in taken)
    if total > v and total % v == 0 and not rules.multiple_builds:
        return Explanation(False, "build-multiple",
                           _("These rules play without multiple builds: a build makes its value once."),
                           move, better=same_card)
    return Explanation(False, "build-sum",
                       _("{card} with {items} does not make a build of {value}: the cards "
                         "(with any builds of {value} joined whole) must add up to {value}, or to {value} several "
                         "times over in a multiple build, and a build is raised with the played card alone.").format(
                           card=sym, items=_items_text(sorted(taken), table), value=v),
                       move, better=same_card)


def _legal(move: Move, table: Sequence, hand: Sequence[Card], rules: Rules, mine: list[Build]) -> Explanation:
    card, sym = move.card, move.card.symbol
    if move.value is not None:
        v = move.value
        taken = set(move.capture or ())
        joined = [b for b in builds_on(table) if b.cards[0] in taken]
        keep = [c for c in hand if c != card and take_value(c, rules) == v]
        total = (build_value(card, rules) or 0) + sum(build_value(c, rules) or 0 for c in taken)
        items = _items_text(sorted(taken), table)
        if len(joined) == 1 and joined[0].value < v and len(taken) == len(joined[0].cards):
            # i18n: "bygger nio" is what the player says, in Swedish in both languages
            what = _("{card} raises {build} to {value} (\"bygger {word}\")").format(
                card=sym, build=joined[0].symbol, value=v, word=_value_word(v))
        elif total > v:
            # i18n: {said} is what the player says, in Swedish: "dubbelt nio", "flera gånger fyra"
            what = _("{card} on {items} makes a multiple build of {value} (\"{said}\"): it is locked and "
                     "can no longer be raised").format(
                card=sym, items=items, value=v,
                said=f"{'dubbelt' if total == 2 * v else 'flera gånger'} {_value_word(v)}")
        else:
            what = _("{card} on {items} builds {value} (\"bygger {word}\")").format(
                card=sym, items=items, value=v, word=_value_word(v))
        # i18n: {what} is "9♦ on 4♠ builds 9 (…)" and the like
        return Explanation(True, "ok",
                           _("{what}. You own it now: your {cards} takes it; on your next turn "
                             "take it or raise it. Anyone with a {value} may take it first.").format(
                               what=what, cards=describe_cards(keep, _or()), value=v), move)
    if move.capture is None:
        return Explanation(True, "ok", _("{card} is laid on the table (lägga).").format(card=sym), move)
    rest = [x for x in table if not (x.cards[0] in move.capture if isinstance(x, Build) else x in move.capture)]
    items = _items_text(move.capture, table)
    if not rest:
        pts = rules.tabbe_points
        return Explanation(True, "ok",
                           ngettext("{card} takes {items}. Tabbe: the table is empty! ({points} point)",
                                    "{card} takes {items}. Tabbe: the table is empty! ({points} points)",
                                    pts).format(card=sym, items=items, points=pts),
                           move, tabbe=1)
    return Explanation(True, "ok", _("{card} takes {cards}; {stays}.").format(
        card=sym, cards=items, stays=ngettext("{cards} stays", "{cards} stay", len(rest)).format(
            cards=" ".join(x.symbol for x in rest))), move)
