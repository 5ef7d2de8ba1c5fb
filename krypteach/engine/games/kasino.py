"""Classic Kasino and avig kasino (its misère preset), behind the :class:`~krypteach.engine.games.base.Game` interface.

One deck of 52; no klädda högen (face cards stay on the table); builds
(:mod:`krypteach.engine.builds`: bygga, bygga på, the owner's duty); card
points storan 2, lillan 1, each ace 1, most spades 2, most cards 1, sistan 1
(:func:`kasino_card_points`); a tabbe marks the taker and gives nobody a
dukning. The highest score wins, the lowest in avig kasino
(``Rules.preset("avig-kasino")``: forced capture and forced tabbe too).

A parti is played giv after giv to ``Rules.target`` (16; seed 004: "Spela flera
givar tills någon nått 16 poäng"): :meth:`KasinoGame.parti_end`. After the giv
in which a side reaches it, the best total wins (the highest; in avig kasino the
lowest, so reaching the target loses); a tie for the best plays another giv.
With ``target_count="in-order"`` each giv is counted line by line in the order
of the scoring table (:meth:`KasinoGame.counted_points`), and the parti is
decided at the first line after which a side has reached the target.

>>> from krypteach import Rules, parse_cards
>>> game = KasinoGame(Rules(game="kasino"))
>>> [str(m) for m in game.legal_moves(parse_cards("5H 9D"), parse_cards("4S"), 0)]
['5H>9:4S', '5H', '9D']
>>> game.move_result(parse_cards("4S 7C"), Move.parse("5H>9:4S"), 0, None).build
Build.parse('[9:4S+5H@0]')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ...i18n import _, ngettext
from ..builds import (
    Build,
    build_total,
    builds_on,
    check_move_cards,
    kasino_legal_moves,
    kasino_table_after,
    owned_builds,
    parse_table,
    table_cards,
    take_value,
    whole_table_takers,
)
from ..captures import NUMBER_WORDS, split_into_traffar
from ..cards import Card, full_deck
from ..explain import and_sep, not_in_hand, not_on_table, or_sep
from ..moves import Explanation, Move, describe_cards
from ..rules import Rules, deal_plan
from ..scoring import MAX_PARTI_GIVAR, PartiEnd, PartiResult, target_decision
from ..state import Deal, Turn
from ..turn import book_tabbe, tabbe_marks
from .base import Game

__all__ = ["KasinoGame", "KASINO_POINTS", "kasino_card_points", "explain_kasino_move"]

_new_turn = object.__new__


def _kasino_points(card: int) -> int:
    rank, suit = card // 4 + 1, "SHDC"[card % 4]
    if rank == 10 and suit == "D":
        return 2  # stora kasino (storan)
    if rank == 2 and suit == "S":
        return 1  # lilla kasino (lillan)
    return 1 if rank == 1 else 0  # each ace


#: classic Kasino's points of each card by index (``int(card)``): storan 2, lillan 1, each ace 1
KASINO_POINTS = tuple(_kasino_points(i) for i in range(52))


def kasino_card_points(rules: Rules, piles: Sequence[Sequence[Card]]) -> list[int]:
    """Classic Kasino's card points of each seat's pile: storan 2, lillan 1,
    each ace 1, most spades 2, most cards 1 (per team in team play; a tie
    gives nobody the point). A team's majority points go to its member with
    the most of them (the lower seat on a tie); team scores do not depend on it.
    Sistan (``last_capture_point``) is added by :func:`giv_scores`.

    >>> from krypteach import parse_cards
    >>> kasino_card_points(Rules(game="kasino"), [parse_cards("10D 2S AH 3S 4S"), parse_cards("5H 6H 7S")])
    [7, 0]
    >>> kasino_card_points(Rules(game="kasino"), [parse_cards("3S 4H"), parse_cards("5S 6H")])  # ties: nobody
    [0, 0]
    """
    points = [sum(map(KASINO_POINTS.__getitem__, p)) for p in piles]
    for award, count in ((2, lambda p: sum(1 for c in p if c % 4 == 0)), (1, len)):
        per_seat = [count(p) for p in piles]
        per_team = [sum(per_seat[s] for s in rules.team_members(t)) for t in range(rules.team_count)]
        best = max(per_team)
        if per_team.count(best) == 1:
            team = per_team.index(best)
            seat = max(rules.team_members(team), key=lambda s: (per_seat[s], -s))
            points[seat] += award
    return points



def _items_text(cards: Sequence[Card], table: Sequence[Card | Build], card: Card | None = None,
                rules: Rules | None = None) -> str:
    """The table items a move names: builds as ``[9: 4♠+5♥]``, loose cards as symbols; where
    ``card`` takes them (and ``rules``), its loose cards as the träffar they make, a sum joined by
    "+" (``A♣ and 2♠+3♦+9♦`` for an ace of 14, not ``9♦ and A♣ and 3♦ and 2♠``)."""
    taken = set(cards)
    items = [x for x in table if (x.cards[0] in taken if isinstance(x, Build) else x in taken)]
    loose = [x for x in items if not isinstance(x, Build)]
    groups = split_into_traffar(card, loose, rules) if card is not None and rules is not None and loose else None
    if groups is None:
        return and_sep().join(x.symbol for x in items)
    return and_sep().join([*(x.symbol for x in items if isinstance(x, Build)), *(describe_cards(g) for g in groups)])


def _captures_text(caps: Sequence[Move], table: Sequence[Card | Build], rules: Rules | None = None) -> str:
    """The captures a card could make, as alternatives: ``"7♣ or [9: 4♠+5♥]"``."""
    return or_sep().join(_items_text(m.capture or (), table, m.card, rules) for m in caps)


def _value_word(v: int) -> str:
    return {14: "fjorton"}.get(v, NUMBER_WORDS.get(v, str(v)))


def explain_kasino_move(hand: Sequence[Card], table: Sequence[Card | Build], move: Move | str, rules: Rules,
                        player: int | None = None) -> Explanation:
    """Explain a move of classic Kasino for ``player`` holding ``hand`` at ``table``.
    :class:`KasinoGame` explains its moves with it. The verdict is
    :func:`~krypteach.engine.builds.kasino_legal_moves`'s; the ``rule`` key names
    the rule an illegal move breaks:

    - ``"build-no-card"``: a build of a value you hold no (other) card for (no bluff builds);
    - ``"build-owner-must-act"``: you own a build and must take it or raise it;
    - ``"build-owner-trail"``: you own a build and may not trail (``owner_duty="no-trail"``);
    - ``"build-owner-keep"``: the move spends the last card in your hand that takes a build you own;
    - ``"build-lowered"``: a build is never lowered;
    - ``"build-locked"``: a multiple build is locked and cannot be raised;
    - ``"build-sum"``: the cards do not make the value; ``"build-multiple"``: multiple builds are off;
    - ``"build-split"``: a build is taken (or built on) whole, never in part;
    - ``"build-wrong-value"``: only a card of a build's value takes it;
    - and, as in Krypkasino, ``"not-in-hand"``, ``"not-on-table"``, ``"tvangstabbe"``,
      ``"must-capture"``, ``"not-traffar"``, ``"take-all"``.

    >>> from krypteach import Rules, parse_cards
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
        return not_in_hand(move, hand)
    problem = check_move_cards(table, move)
    if problem is not None and problem.startswith("not-on-table"):
        missing = next(c for c in (move.capture or ()) if c not in table_cards(table))
        return not_on_table(move, missing, " ".join(x.symbol for x in table))
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
        return _legal(move, table, hand, rules, player)
    # --- why not -------------------------------------------------------------
    takers = whole_table_takers(hand, table, rules) if rules.forced_tabbe else []
    if takers:
        which = or_sep().join(c.symbol for c in takers)
        return Explanation(False, "tvangstabbe",
                           _("Tvångstabbe (forced tabbe): your {cards} can take the whole table, so you must "
                             "play it and take everything.").format(cards=which),
                           move, missing=tuple(sorted(table_cards(table))), better=tuple(legal))
    if mine and move in kasino_legal_moves(hand, table, rules, player, keep=False):
        rest = list(hand)
        rest.remove(card)
        lost = next(b for b in owned_builds(kasino_table_after(table, move, player or 0), player)
                    if all(take_value(c, rules) != b.value for c in rest))
        return Explanation(False, "build-owner-keep",
                           _("You own a build of {value} ({cards}): keep {card}, the last card in your hand that "
                             "takes it, until you take it or build on it.").format(
                               value=lost.value, cards=describe_cards(lost.cards), card=sym),
                           move, better=tuple(legal))
    free_moves = kasino_legal_moves(hand, table, rules.replace(owner_duty="none"), player)
    # the owner's duty is why: the move is legal without it, or it is a trail of a card with no legal
    # move at all (avig kasino: the card that can take must take, and the owner must take their build)
    if mine and (move in free_moves or (not same_card and move.capture is None)):
        b = mine[0]
        can = [c for c in dict.fromkeys(hand) if take_value(c, rules) == b.value]
        # i18n: {how} is empty or " — 9♦ takes it"
        # i18n: the dash before "9♦ takes it"; Swedish: a spaced en dash " – "
        how = (_(" — ") + _("{cards} takes it").format(cards=describe_cards(can, or_sep()))) if can else ""
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
                                   card=sym, captures=_captures_text(caps, table, rules)),
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
                               card=sym, captures=_captures_text(caps, table, rules)),
                           move, better=same_card)
    return Explanation(False, "not-traffar",
                       _("{cards} is not a träff for your {card}: take cards of its rank, "
                         "groups that add up to its value, and builds of its value.").format(
                           cards=describe_cards(move.capture), card=sym), move, better=same_card)


def _bad_build(move: Move, hand: Sequence[Card], table: Sequence[Card | Build], rules: Rules, caps: list[Move], forced: bool,
               same_card: tuple[Move, ...]) -> Explanation:
    card, sym, v = move.card, move.card.symbol, move.value or 0
    if forced and caps:
        return Explanation(False, "must-capture",
                           _("You may not build with {card}: it can take {captures}, and in avig kasino "
                             "a card that can take must take.").format(
                               card=sym, captures=_captures_text(caps, table, rules)),
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
    total = build_total(card, taken, rules)
    if total is not None and total > v and total % v == 0 and not rules.multiple_builds:
        return Explanation(False, "build-multiple",
                           _("These rules play without multiple builds: a build makes its value once."),
                           move, better=same_card)
    return Explanation(False, "build-sum",
                       _("{card} with {items} does not make a build of {value}: the cards "
                         "(with any builds of {value} joined whole) must add up to {value}, or to {value} several "
                         "times over in a multiple build, and a build is raised with the played card alone.").format(
                           card=sym, items=_items_text(sorted(taken), table), value=v),
                       move, better=same_card)


def _legal(move: Move, table: Sequence[Card | Build], hand: Sequence[Card], rules: Rules, player: int | None) -> Explanation:
    card, sym = move.card, move.card.symbol
    game = KasinoGame(rules)
    if move.value is not None:
        v = move.value
        taken = set(move.capture or ())
        joined = [b for b in builds_on(table) if b.cards[0] in taken]
        keep = [c for c in hand if c != card and take_value(c, rules) == v]
        total = build_total(card, taken, rules) or 0
        items = _items_text(sorted(taken), table)
        if len(joined) == 1 and joined[0].value < v and len(taken) == len(joined[0].cards):
            # i18n: "bygger nio" is what the player says, in Swedish in both languages
            what = _("{card} raises {build} to {value} (\"bygger {word}\")").format(
                card=sym, build=joined[0].symbol, value=v, word=_value_word(v))
        elif total > v:
            # a lone ace may stand as 14 in a build of 14 (lone_ace_builds): count it so
            aces = sum(c.rank == 1 for c in taken) if v == 14 and rules.lone_ace_builds else 0
            times = next((t for k in range(aces + 1) if (t := (total + 13 * k) / v) == int(t)), total / v)
            # i18n: {said} is what the player says, in Swedish: "dubbelt nio", "flera gånger fyra"
            what = _("{card} on {items} makes a multiple build of {value} (\"{said}\"): it is locked and "
                     "can no longer be raised").format(
                card=sym, items=items, value=v,
                said=f"{'dubbelt' if times == 2 else 'flera gånger'} {_value_word(v)}")
        else:
            what = _("{card} on {items} builds {value} (\"bygger {word}\")").format(
                card=sym, items=items, value=v, word=_value_word(v))
        # i18n: {what} is "9♦ on 4♠ builds 9 (…)" and the like
        return Explanation(True, "ok",
                           _("{what}. You own it now: your {cards} takes it; on your next turn "
                             "take it or raise it. Anyone with a card of value {value} may take it first.").format(
                               what=what, cards=describe_cards(keep, or_sep()), value=v), move)
    if move.capture is None:
        return Explanation(True, "ok", _("{card} is laid on the table (lägga).").format(card=sym), move)
    result = game.move_result(table, move, player if player is not None else 0, None)
    rest = result.table
    items = _items_text(move.capture, table, move.card, rules)
    if result.tabbe:
        pts = result.tabbe * rules.tabbe_points
        return Explanation(True, "ok",
                           ngettext("{card} takes {items}. Tabbe: the table is empty! ({points} point)",
                                    "{card} takes {items}. Tabbe: the table is empty! ({points} points)",
                                    pts).format(card=sym, items=items, points=pts),
                           move, tabbe=result.tabbe)
    return Explanation(True, "ok", _("{card} takes {cards}; {stays}.").format(
        card=sym, cards=items, stays=ngettext("{cards} stays", "{cards} stay", len(rest)).format(
            cards=" ".join(x.symbol for x in rest))), move)


class KasinoGame(Game):
    """Classic Kasino (and avig kasino) under one rule set (``Rules(game="kasino")``)."""

    name: ClassVar[str] = "kasino"
    card_values: ClassVar[tuple[int, ...]] = KASINO_POINTS
    has_builds: ClassVar[bool] = True
    has_dukning: ClassVar[bool] = False
    has_kladda: ClassVar[bool] = False

    @property
    def title(self) -> str:  # type: ignore[override]
        return "Avig kasino" if self.rules.lowest_wins else "Kasino"

    # --- the deck and the deal --------------------------------------------
    def describe(self, move: Move) -> str:
        """A trail is laid out (*lägga ut*) in classic Kasino; captures and builds as :meth:`Move.describe`."""
        if move.capture is None:
            return _("{card} is laid out").format(card=move.card.symbol)
        return move.describe()

    def new_deck(self, rng: random.Random) -> list[Card]:
        deck = full_deck()
        rng.shuffle(deck)
        return deck

    def check_deck(self, deck: Sequence[Card]) -> None:
        if len(deck) != 52 or len(set(deck)) != 52:
            raise ValueError(_("a classic Kasino deck must have the 52 cards, each once; got {count} cards").format(
                count=len(deck)))

    def deal(self, deck: Sequence[Card], dealer: int) -> tuple[Deal, ...]:
        """No klädda högen: face cards stay on the table; in dragkasino draw ``i``
        goes to the seat that made move ``i``."""
        rules = self.rules
        n = rules.players
        pos = 0
        deals = []
        deck = tuple(deck)
        for i, (k, t) in enumerate(deal_plan(rules, len(deck))):
            if rules.draw and i:
                seat = (dealer + i) % n
                deals.append(Deal(tuple((deck[pos],) if s == seat else () for s in range(n)), (), ()))
                pos += 1
                continue
            end = pos + k * n
            dealt: list[tuple[Card, ...]] = [()] * n
            for j in range(n):
                dealt[(dealer + 1 + j) % n] = deck[pos + j:end:n]
            deals.append(Deal(tuple(dealt), deck[end:end + t], ()))
            pos = end + t
        return tuple(deals)

    def check_deals(self, deals: Sequence[Deal], dealer: int) -> None:
        rules = self.rules
        cards: list[Card] = []
        for i, (d, (k, t)) in enumerate(zip(deals, deal_plan(rules))):
            sizes = [len(h) for h in d.hands]
            if len(d.hands) != rules.players:
                raise ValueError(_("deal {number}: {players} seats, not {count}").format(
                    number=i, players=rules.players, count=len(d.hands)))
            if rules.draw and i:
                if sorted(sizes) != [0] * (rules.players - 1) + [1] or d.table or d.aside:
                    raise ValueError(_("draw {number}: one card to one seat").format(number=i))
                if not d.hands[(dealer + i) % rules.players]:
                    raise ValueError(_("draw {number}: the card goes to seat {seat}, which made move {number}").format(
                        number=i, seat=(dealer + i) % rules.players))
            elif any(s != k for s in sizes) or len(d.table) != t or d.aside:
                raise ValueError(_("deal {number}: every one of {players} seats must get {count} cards and the "
                                   "table {table}").format(number=i, players=rules.players, count=k, table=t))
            cards.extend(d.cards())
        self.check_deck(cards)

    def parse_table(self, table: Sequence[Any]) -> tuple[list[Any], list[Card]]:
        items = parse_table(table)
        return items, table_cards(items)

    def table_cards(self, table: Sequence[Any]) -> list[Card]:
        return table_cards(table)

    # --- moves ------------------------------------------------------------
    def legal_moves(self, hand: Sequence[Card], table: Sequence[Any], player: int | None = None) -> list[Move]:
        return kasino_legal_moves(hand, table, self.rules, player)

    def table_after(self, table: Sequence[Any], move: Move, player: int) -> list[Any]:
        return kasino_table_after(table, move, player)

    def dukning_seat(self, previous_mover: int | None) -> int | None:
        return None  # classic Kasino has no dukning

    def explain(self, hand: Sequence[Card], table: Sequence[Any], move: Move, player: int | None) -> Explanation:
        return explain_kasino_move(hand, table, move, self.rules, player)

    def card_points(self, piles: Sequence[Sequence[Card]]) -> list[int]:
        return kasino_card_points(self.rules, piles)

    # --- the parti ----------------------------------------------------------
    @property
    def parti_givar(self) -> int | None:
        return None  # played to the target: as many givar as it takes

    @property
    def parti_limit(self) -> int:
        """The most givar a parti lasts: ``Rules.givar`` when set, else :data:`MAX_PARTI_GIVAR`."""
        return self.rules.givar if self.rules.givar is not None else MAX_PARTI_GIVAR

    def counted_points(self, giv: Any) -> list[tuple[str, tuple[int, ...]]]:
        """A finished giv's points per side (team; seat without teams), line by line in
        the order of seed 004's scoring table: ``storan`` (stora kasino), ``lillan``
        (lilla kasino), ``aces``, ``spades`` (most spades), ``cards`` (most cards),
        ``sistan``, ``tabbar``. The lines add up to the giv's team scores.

        >>> from krypteach import Giv, Rules, parse_cards
        >>> g = Giv.from_state(Rules(game="kasino"), hands=[[], []], table=[], turn=1, dealer=0,
        ...                    piles=[parse_cards("10D 5H 6H"), parse_cards("2S AS")], last_capturer=1)
        >>> [(name, pts) for name, pts in KasinoGame(g.rules).counted_points(g) if any(pts)]
        [('storan', (2, 0)), ('lillan', (0, 1)), ('aces', (0, 1)), ('spades', (0, 2)), ('cards', (1, 0)), ('sistan', (0, 1))]
        """
        rules = self.rules
        sides = rules.team_count
        piles = giv.piles

        def per_side(per_seat: Sequence[int]) -> list[int]:
            out = [0] * sides
            for seat, v in enumerate(per_seat):
                out[rules.team_of(seat)] += v
            return out

        def most(count: Any, award: int) -> tuple[int, ...]:
            counts = per_side([count(p) for p in piles])
            best = max(counts)
            return tuple(award if counts.count(best) == 1 and c == best else 0 for c in counts)

        def holds(code: str, points: int) -> tuple[int, ...]:
            return tuple(per_side([points * sum(1 for c in p if str(c) == code) for p in piles]))

        last = giv.last_capturer
        return [
            ("storan", holds("10D", 2)),
            ("lillan", holds("2S", 1)),
            ("aces", tuple(per_side([sum(1 for c in p if c.rank == 1) for p in piles]))),
            ("spades", most(lambda p: sum(1 for c in p if c % 4 == 0), 2)),
            ("cards", most(len, 1)),
            ("sistan", tuple(per_side([rules.last_capture_point if s == last else 0
                                       for s in range(rules.players)]))),
            ("tabbar", tuple(per_side([rules.tabbe_points * m for m in giv.marks]))),
        ]

    def parti_end(self, givar: Sequence[Any]) -> PartiEnd:
        """Played to ``Rules.target``: decided after the first giv (with
        ``target_count="in-order"``: the first line of a giv's scoring table) after
        which a side has reached the target and one side alone has the best total;
        else, once :attr:`parti_limit` givar are played, the best total wins there
        (``stopped``; ties share)."""
        rules = self.rules
        target = rules.target if rules.target is not None else 16
        done = [g for g in givar if g.is_over]
        steps: list[tuple[int, ...]] = []
        where: list[tuple[int, str | None]] = []
        for number, g in enumerate(done, 1):
            lines = (self.counted_points(g) if rules.target_count == "in-order"
                     else [(None, g.result.team_scores)])
            for item, points in lines:
                steps.append(points)
                where.append((number, item))
        limit = self.parti_limit
        decided = target_decision(steps, target, self.lower_is_better)
        if decided is not None:
            k, winners, reached = decided
            number, item = where[k]
            return PartiEnd(True, winners, target, reached, number, item, limit=limit)
        if len(done) >= limit:
            result = PartiResult(rules, tuple(g.result.scores for g in done))
            reached = tuple(t for t, v in enumerate(result.team_totals) if v >= target)
            return PartiEnd(True, result.team_winners_by_total(), target, reached, len(done), stopped=True,
                            limit=limit)
        return PartiEnd(False, (), target, (), len(done), limit=limit)

    def push(self, giv: Any, move: Move) -> Turn:
        """The table is loose cards and builds, tabbe marks as in Krypkasino
        (no dukning), and in dragkasino the player draws after the play."""
        rules = self.rules
        p = giv.turn
        hand = giv.hands[p]
        idx = hand.index(move.card)
        hand.pop(idx)
        table_before = giv.table
        pile = giv.piles[p]
        pile_len = len(pile)
        marks_before = None
        last_capturer_before = giv.last_capturer
        tabbe, dukning, cancelled = 0, None, 0
        new_table = kasino_table_after(table_before, move, p)
        if move.capture is not None and move.value is None:  # a capture
            pile.append(move.card)
            pile.extend(move.capture)
            giv.last_capturer = p
            if not new_table:
                marks_before = (tuple(giv.marks), tuple(giv.dukningar), tuple(giv.tabbar))
                tabbe = tabbe_marks(table_cards(table_before), move, rules)
                cancelled = book_tabbe(rules, giv.marks, giv.dukningar, giv.tabbar, taker=p,
                                       previous_mover=None, made=tabbe)
        giv.table = new_table
        giv.turn = (p + 1) % rules.players
        dealt = False
        sweep = None
        kladda_before = giv.kladda
        deal_index = giv.deal_index
        if deal_index < len(giv.deals) and (rules.draw or not any(giv.hands)):
            if rules.draw:
                for seat, h in enumerate(giv.deals[deal_index].hands):
                    giv.hands[seat].extend(h)
                giv.deal_index += 1
            else:
                giv.deal_next()
            dealt = True
        if giv.deal_index == len(giv.deals) and not any(giv.hands):
            sweep = giv.sweep()
        t = _new_turn(Turn)
        t._tabbe_pa, t._table = (), None
        t.player, t.move, t.tabbe, t.dukning, t.cancelled, t.dealt, t.sweep = p, move, tabbe, dukning, cancelled, dealt, sweep
        giv.turns.append(t)
        giv.undo_log.append((idx, table_before, kladda_before, pile_len, marks_before, last_capturer_before, deal_index))
        return t
