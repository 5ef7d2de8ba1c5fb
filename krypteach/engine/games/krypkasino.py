"""Krypkasino: the game of these lessons (RULES.md), behind the :class:`~krypteach.engine.games.base.Game` interface.

Two decks shuffled together (104 cards); face cards dealt to the table go to
*klädda högen*; a capture must take all it can (:func:`~krypteach.engine.moves.legal_moves`),
a card that takes the whole table must be played (*tvångstabbe*); a tabbe
marks the taker and gives the previous mover a *dukning*
(:mod:`krypteach.engine.turn`); card points as :data:`~krypteach.engine.cards.POINTS`;
the lowest score wins.

>>> from krypteach import Rules, parse_cards
>>> game = KrypkasinoGame(Rules())
>>> [str(m) for m in game.legal_moves(parse_cards("9C 4H"), parse_cards("9S 2C 5D 7H"))]
['9C:2C+7H+9S', '4H']
>>> game.card_points([parse_cards("10D 2S AS"), parse_cards("7H")])
[7, 0]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from ...i18n import _
from ..capture_cache import caps_table
from ..capture_search import UNIT, pack
from ..captures import tabbe_ranks
from ..cards import POINTS, Card, double_deck
from ..explain import explain_krypkasino_move
from ..moves import Explanation, Move, legal_moves_packed, table_after
from ..rules import deal_plan
from ..scoring import PartiEnd, givar_parti_end
from ..state import Deal, Turn
from ..turn import book_tabbe, tabbe_marks
from .base import Game

__all__ = ["KrypkasinoGame"]

_new_turn = object.__new__


class KrypkasinoGame(Game):
    """Krypkasino under one rule set (``Rules(game="krypkasino")``, the default)."""

    name: ClassVar[str] = "krypkasino"
    card_values: ClassVar[tuple[int, ...]] = POINTS
    title: ClassVar[str] = "Krypkasino"

    def __init__(self, rules: Any) -> None:
        super().__init__(rules)
        self.caps_cache = caps_table(rules.ace, rules.capture)

    # --- the deck and the deal --------------------------------------------
    def new_deck(self, rng: random.Random) -> list[Card]:
        return double_deck(rng)

    def check_deck(self, deck: Sequence[Card]) -> None:
        if len(deck) != 104:
            raise ValueError(_("a deck must have 104 cards (two decks), got {count}").format(count=len(deck)))
        bad = [str(c) for c, k in Counter(deck).items() if k != 2]
        if bad:
            raise ValueError(_("every card must appear exactly twice in the deck; wrong count for {cards}").format(
                cards=", ".join(bad)))

    def deal(self, deck: Sequence[Card], dealer: int) -> tuple[Deal, ...]:
        n = self.rules.players
        pos = 0
        deals = []
        deck = tuple(deck)
        for k, t in deal_plan(self.rules, len(deck)):
            # one card at a time round the table: the seat j places after the dealer gets every n-th card
            end = pos + k * n
            hands: list[tuple[Card, ...]] = [()] * n
            for j in range(n):
                hands[(dealer + 1 + j) % n] = deck[pos + j:end:n]
            laid = deck[end:end + t]
            pos = end + t
            deals.append(Deal(tuple(hands),
                              tuple([c for c in laid if c < 40]),  # not a klätt kort (J, Q, K: see Card.is_face)
                              tuple([c for c in laid if c >= 40])))
        return tuple(deals)

    def check_deals(self, deals: Sequence[Deal], dealer: int) -> None:
        rules = self.rules
        plan = deal_plan(rules)
        cards: list[Card] = []
        for i, (d, (k, t)) in enumerate(zip(deals, plan)):
            if len(d.hands) != rules.players or any(len(h) != k for h in d.hands):
                raise ValueError(_("deal {number}: every one of {players} seats must get {count} cards").format(
                    number=i, players=rules.players, count=k))
            if len(d.table) + len(d.aside) != t:
                raise ValueError(_("deal {number}: {count} cards must be laid on the table (table + aside), got {got}").format(
                    number=i, count=t, got=len(d.table) + len(d.aside)))
            if any(c.is_face for c in d.table) or any(not c.is_face for c in d.aside):
                raise ValueError(_("deal {number}: face cards laid on the table go aside (klädda högen), "
                                   "other cards stay").format(number=i))
            cards.extend(d.cards())
        self.check_deck(cards)

    # --- moves ------------------------------------------------------------
    def legal_moves(self, hand: Sequence[Card], table: Sequence[Any], player: int | None = None) -> list[Move]:
        return legal_moves_packed(hand, table, self.rules, None, self.caps_cache)

    def table_after(self, table: Sequence[Any], move: Move, player: int) -> list[Any]:
        return table_after(table, move)

    def tabbe_pa(self, table: Sequence[Any]) -> list[int]:
        return tabbe_ranks(table, self.rules)

    def explain(self, hand: Sequence[Card], table: Sequence[Any], move: Move, player: int | None) -> Explanation:
        return explain_krypkasino_move(hand, table, move, self.rules)

    def giv_legal_moves(self, giv: Any) -> list[Move]:
        """:meth:`legal_moves` for the player to move in ``giv``, with the table's
        packed value counts the giv keeps move by move (``giv.table_key``)."""
        return legal_moves_packed(giv.hands[giv.turn], giv.table, self.rules, giv.table_key, self.caps_cache)

    def push(self, giv: Any, move: Move) -> Turn:
        rules = self.rules
        p = giv.turn
        hand = giv.hands[p]
        idx = hand.index(move.card)
        hand.pop(idx)
        table_before = giv.table
        pile = giv.piles[p]
        marks_before = None
        last_capturer_before = giv.last_capturer
        tabbe = 0
        dukning = None
        cancelled = 0
        capture = move.capture
        packed = giv.table_key  # the table's packed value counts, kept up to date move by move (None: unknown)
        new_table = table_after(table_before, move)
        if capture is not None:
            if packed is not None:
                packed -= sum(map(UNIT.__getitem__, capture))
            pile_len = len(pile)
            pile.append(move.card)
            pile.extend(capture)
            giv.last_capturer = p
            if not new_table:
                marks_before = (tuple(giv.marks), tuple(giv.dukningar), tuple(giv.tabbar))
                tabbe = tabbe_marks(table_before, move, rules)
                dukning = giv.last_mover
                cancelled = book_tabbe(rules, giv.marks, giv.dukningar, giv.tabbar, taker=p,
                                       previous_mover=dukning, made=tabbe)
        else:
            pile_len = len(pile)
            if packed is not None:
                packed += UNIT[move.card]
            elif not table_before:
                packed = UNIT[move.card]
        giv.table = new_table
        giv.turn = (p + 1) % rules.players
        dealt = False
        sweep = None
        kladda_before = giv.kladda
        deal_index = giv.deal_index
        if not any(giv.hands):
            if deal_index < len(giv.deals):
                giv.deal_next()
                dealt = True
                packed = None  # new cards on the table
            else:
                sweep = giv.sweep()
        table = giv.table
        t = _new_turn(Turn)  # Turn(...) without the argument handling; tabbe_pa is worked out when asked for
        if table:
            if packed is None:
                packed = pack(table)
            giv.table_key = packed
            t._tabbe_pa = None
            t._table = (packed, rules.ace)
        else:
            giv.table_key = None
            t._tabbe_pa = ()
            t._table = None
        t.player, t.move, t.tabbe, t.dukning, t.cancelled, t.dealt, t.sweep = p, move, tabbe, dukning, cancelled, dealt, sweep
        giv.turns.append(t)
        giv.undo_log.append((idx, table_before, kladda_before, pile_len, marks_before, last_capturer_before, deal_index))
        return t

    # --- the parti ----------------------------------------------------------
    def parti_end(self, givar: Sequence[Any]) -> PartiEnd:
        """A parti of ``rules.givar_count`` givar: over once they are all played; the
        lowest total wins (ties share)."""
        protocol = [g.result.scores for g in givar if g.is_over]
        return givar_parti_end(self.rules, protocol, self.rules.givar_count, bool(givar) and givar[-1].is_over)
