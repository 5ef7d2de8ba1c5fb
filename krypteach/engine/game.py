"""The state machine of a giv and of a parti.

A :class:`Giv` is one pass through the 104 cards: the utdelningar (deals) are
fixed when it starts (from a seed, a deck order or a record), then players
take turns playing one card each until every hand is empty and the stock is
used up. The last capturer then takes the table and the *klädda högen* (face
cards set aside when dealt). :meth:`Giv.play` checks and applies a move,
:meth:`Giv.pop` takes it back exactly; :meth:`Giv.push` plays without the checks (for search).

A :class:`Parti` is a match of several givar with the dealer moving one seat
left each giv and a running protocol; the lowest total wins.

>>> g = Giv(seed=1)
>>> len(g.hands[1]), len(g.table) + len(g.kladda)
(4, 4)
>>> while not g.is_over:
...     _ = g.play(g.legal_moves()[0])
>>> sum(g.result.card_points)
42
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, NamedTuple

from ..i18n import _, ngettext
from . import display
from .builds import kasino_legal_moves, kasino_table_after, parse_table, table_cards
from .capture_cache import caps_table, ranks_taking_whole_packed
from .capture_search import UNIT, pack
from .captures import tabbe_pa_text, tabbe_ranks
from .cards import POINTS, Card, parse_cards
from .explain import Explanation, explain_move
from .moves import IllegalMoveError, Move, legal_moves, legal_moves_packed, table_after
from .rules import Rules, deal_plan
from .scoring import GivResult, PartiResult, score_giv
from .turn import KASINO_POINTS, book_tabbe, dukning_seat, tabbe_marks

__all__ = ["Deal", "Turn", "Giv", "Parti", "GameOverError", "PositionError", "deal_giv", "Observation"]



class GameOverError(IllegalMoveError):
    """A move was played after the giv (or parti) ended."""


class PositionError(ValueError):
    """A hand-made position that cannot happen (bad seat, hand sizes, too many copies of a card)."""


def _is_seat(seat: object, players: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players


class Deal(NamedTuple):
    """One utdelning: cards to each seat, cards left on the table, face cards set aside."""

    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    aside: tuple[Card, ...]

    def cards(self) -> list[Card]:
        return [c for h in self.hands for c in h] + list(self.table) + list(self.aside)


class Turn:
    """What one move did: who played what, and its consequences.

    ``tabbe`` is 0, 1, or 2 (dubbeltabbe); ``dukning`` the seat that set it up
    (or ``None``); ``cancelled`` how many rounds of marks were turned down;
    ``tabbe_pa`` the ranks that could now take the whole table ("tabbe på …");
    ``dealt`` whether a new utdelning followed; ``sweep`` the cards the last
    capturer took when the giv ended after this move.

    A game works ``tabbe_pa`` out when it is first asked for (it is a search
    over the table, which a fast simulation never needs). Turns compare equal
    when all these fields are equal; treat them as read-only.

    >>> Turn(1, Move.parse("9C"), tabbe_pa=(10,))
    Turn(player=1, move=Move.parse('9C'), tabbe=0, dukning=None, cancelled=0, tabbe_pa=(10,), dealt=False, sweep=None)
    """

    __slots__ = ("player", "move", "tabbe", "dukning", "cancelled", "_tabbe_pa", "dealt", "sweep", "_table")
    _fields = ("player", "move", "tabbe", "dukning", "cancelled", "tabbe_pa", "dealt", "sweep")

    def __init__(self, player: int, move: Move, tabbe: int = 0, dukning: int | None = None, cancelled: int = 0,
                 tabbe_pa: Sequence[int] = (), dealt: bool = False, sweep: tuple[Card, ...] | None = None) -> None:
        self.player = player
        self.move = move
        self.tabbe = tabbe
        self.dukning = dukning
        self.cancelled = cancelled
        self._tabbe_pa: tuple[int, ...] | None = tuple(tabbe_pa)
        self.dealt = dealt
        self.sweep = sweep
        self._table: tuple[int, str] | None = None  # (packed value counts, ace rule) while tabbe_pa is not worked out

    @property
    def tabbe_pa(self) -> tuple[int, ...]:
        pa = self._tabbe_pa
        if pa is None:
            packed, ace = self._table  # type: ignore[misc]
            pa = self._tabbe_pa = ranks_taking_whole_packed(packed, ace)
        return pa

    def _astuple(self) -> tuple:
        return (self.player, self.move, self.tabbe, self.dukning, self.cancelled, self.tabbe_pa, self.dealt, self.sweep)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Turn):
            return NotImplemented
        return self._astuple() == other._astuple()

    def __hash__(self) -> int:
        return hash(self._astuple())

    def __repr__(self) -> str:
        return "Turn(" + ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self._astuple())) + ")"


_new_turn = object.__new__
_new_observation = object.__new__


def deal_giv(deck: Sequence[Card], rules: Rules, dealer: int = 0) -> tuple[Deal, ...]:
    """Cut a deck order into the giv's utdelningar.

    Cards go one at a time round the table starting at the dealer's left,
    then to the table; face cards laid on the table are set aside.

    >>> from krypteach.engine.cards import double_deck
    >>> deals = deal_giv(double_deck(), Rules())
    >>> len(deals), [str(c) for c in deals[0].hands[1]]
    (9, ['AS', 'AD', '2S', '2D'])
    """
    n = rules.players
    pos = 0
    deals = []
    deck = tuple(deck)
    if rules.game == "kasino":  # no klädda högen: face cards stay on the table
        plan = deal_plan(rules, len(deck))
        for i, (k, t) in enumerate(plan):
            if rules.draw and i:  # dragkasino: draw i goes to the seat that made move i
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
    for k, t in deal_plan(rules, len(deck)):
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


@dataclass(frozen=True)
class Observation:
    """What one seat may know: its hand, the table, every card played so far,
    pile sizes, marks and scores — never other hands or the stock."""

    seat: int
    rules: Rules
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    kladda: tuple[Card, ...]
    history: tuple[Turn, ...]
    dealt_to_table: tuple[Card, ...]  # every card laid on the table by the deals so far, klädda included
    pile_sizes: tuple[int, ...]
    pile_points: tuple[int, ...]
    marks: tuple[int, ...]
    dukningar: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_left: int
    deal_index: int
    deals_total: int
    dealer: int
    last_capturer: int | None
    previous_mover: int | None = None  # the seat that moved last (it gets the dukning if the next move is a tabbe)
    #: the legal moves, when the giv that made this observation already knew them (it is this seat's turn)
    known_moves: tuple[Move, ...] | None = field(default=None, compare=False, repr=False)

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves (a new list)."""
        if self.known_moves is not None:
            return list(self.known_moves)
        if self.rules.game == "kasino":
            return kasino_legal_moves(self.hand, self.table, self.rules, self.seat)
        return legal_moves(self.hand, self.table, self.rules)

    def unseen(self) -> list[Card]:
        """Cards this seat has not seen: the other hands and the stock (as a sorted multiset).

        Counted with a list, not a ``Counter``: the bots ask at every decision."""
        left = [self.rules.copies] * 52
        for c in self.hand:
            left[c] -= 1
        for c in self.dealt_to_table:
            left[c] -= 1
        for t in self.history:
            left[t.move.card] -= 1
        return [Card(i) for i in range(52) for _ in range(left[i])]



class Giv:
    """One giv of Krypkasino.

    Parameters: ``rules`` (default :class:`Rules`), ``dealer`` seat, and the
    cards: a ``seed`` (or ``rng``) to shuffle the double deck, an explicit
    ``deck`` order, or the ``deals`` of a record.

    >>> g = Giv(seed=7)
    >>> g.turn, g.dealer
    (1, 0)
    """

    def __init__(self, rules: Rules | None = None, *, dealer: int = 0, seed: int | None = None,
                 rng: random.Random | None = None, deck: Sequence[Card] | None = None,
                 deals: Sequence[Deal] | None = None) -> None:
        self.rules = rules = rules or Rules()
        n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(_("{name}={value} is not a seat: seats are 0..{last}").format(
                name="dealer", value=dealer, last=n - 1))
        self.dealer = dealer
        if deals is None:
            if deck is None:
                from .cards import double_deck, full_deck

                r = rng if rng is not None else random.Random(seed)
                if rules.game == "kasino":
                    deck = full_deck()
                    r.shuffle(deck)
                else:
                    deck = double_deck(r)
            else:
                deck = [Card(c) for c in deck]
                _check_deck(deck, rules.copies)
            deals = deal_giv(deck, rules, dealer)
        else:
            deals = tuple(deals)
            _check_deals(deals, rules, dealer)
        self.deals: tuple[Deal, ...] = tuple(deals)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.table: list[Card] = []
        self.kladda: list[Card] = []
        self.piles: list[list[Card]] = [[] for _ in range(n)]
        self.marks = [0] * n
        self.dukningar = [0] * n
        self.tabbar = [0] * n
        self.turns: list[Turn] = []
        self.last_capturer: int | None = None
        self.deal_index = 0
        self.turn = (dealer + 1) % n
        self.swept: tuple[Card, ...] | None = None
        self.previous_mover: int | None = None  # who moved before this giv's first move (positions only)
        self._undo: list[tuple] = []
        self._legal: list[Move] | None = None
        self._packed: int | None = None  # the table's packed value counts, when _apply has computed them
        self._caps_cache = caps_table(rules.ace, rules.capture)
        self._seen: tuple[tuple[Deal, ...], int, tuple[Card, ...], int] | None = None  # see _dealt_so_far
        self._kasino = rules.game == "kasino"  # classic Kasino: builds on the table, its own push/pop path
        self._deal()

    @classmethod
    def from_position(cls, hands: Sequence[Sequence[Card | str]], table: Sequence[Card | str] = (), *,
                      rules: Rules | None = None, turn: int = 0, kladda: Sequence[Card | str] = (),
                      previous_mover: int | None = None, dealer: int | None = None) -> Giv:
        """A hand-made position (for lessons, puzzles and tests): these hands and
        this table, no stock. ``previous_mover`` is the seat that moved just
        before (it gets the dukning if the first move here is a tabbe).

        >>> g = Giv.from_position([["10S"], ["4H"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
        >>> [str(m) for m in g.legal_moves()]
        ['10S:AH+3D+7C+9S']
        >>> t = g.play("10S:AH+3D+7C+9S"); (t.tabbe, t.dukning)
        (1, 1)
        """


        n = len(hands)
        rules = rules or Rules(players=n)
        if rules.players != n:
            rules = rules.replace(players=n, teams="none" if n not in (4, 6) else rules.teams, givar=None)
        hs = [parse_cards(h) for h in hands]
        tb: list[Any]
        if rules.game == "kasino":
            tb = parse_table(table)
            flat = table_cards(tb)
            bad = [x for x in tb if not isinstance(x, Card) and not _is_seat(x.owner, n)]
            if bad:
                raise PositionError(_("build {build} is owned by no seat: seats are 0..{last}").format(
                    build=bad[0], last=n - 1))
        else:
            tb = flat = parse_cards(table)
        kl = parse_cards(kladda)
        if not _is_seat(turn, n):
            raise PositionError(_("{name}={value} is not a seat: seats are 0..{last}").format(
                name="turn", value=repr(turn), last=n - 1))
        if dealer is not None and not _is_seat(dealer, n):
            raise PositionError(_("{name}={value} is not a seat: seats are 0..{last}").format(
                name="dealer", value=repr(dealer), last=n - 1))
        before = (turn - 1) % n
        if previous_mover is not None and (not _is_seat(previous_mover, n) or previous_mover != before):
            raise PositionError(
                _("previous_mover={value} cannot have moved just before seat {turn}: play goes left, "
                  "so it is seat {before} (or None when no move came before)").format(
                    value=repr(previous_mover), turn=turn, before=before))
        order = [(turn + i) % n for i in range(n)]
        sizes = [len(hs[s]) for s in order]
        if sizes[0] == 0 or any(b > a for a, b in pairwise(sizes)) or sizes[0] - sizes[-1] > 1:
            raise PositionError(_("hand sizes must be equal, or one less for the seats that have already played "
                                  "this round (seat {turn} to play first); got {sizes}").format(
                turn=turn, sizes=[len(h) for h in hs]))
        from collections import Counter

        copies = rules.copies
        over = [str(c) for c, k in (Counter(c for h in hs for c in h) + Counter(flat) + Counter(kl)).items()
                if k > copies]
        if over:
            raise PositionError((_("a double deck has each card twice; too many of {cards}") if copies == 2
                                 else _("a deck has each card once; too many of {cards}")).format(cards=", ".join(over)))
        return cls.from_state(rules, hands=hs, table=tb, kladda=kl, turn=turn, previous_mover=previous_mover,
                              dealer=before if dealer is None else dealer)

    @classmethod
    def from_state(cls, rules: Rules, *, hands: Sequence[Sequence[Card]], table: Sequence[Any],
                   kladda: Sequence[Card] = (), turn: int, dealer: int, previous_mover: int | None = None,
                   piles: Sequence[Sequence[Card]] | None = None, marks: Sequence[int] | None = None,
                   dukningar: Sequence[int] | None = None, tabbar: Sequence[int] | None = None,
                   last_capturer: int | None = None, deals_to_come: Sequence[Deal] = ()) -> Giv:
        """A giv part-way through, every card placed: the hands, the table and
        klädda högen now, the piles, marks and dukningar so far, and the
        utdelningar still to come. NOT checked: this is how a search builds a
        determinization (a guess at the unseen cards) from what a seat knows;
        lessons and tests use the checked :meth:`from_position`. Play then
        follows exactly the same rules as any giv.

        >>> g = Giv.from_state(Rules(), hands=[parse_cards("QH"), parse_cards("5S")], table=parse_cards("QH"),
        ...                    turn=0, dealer=1, previous_mover=1, marks=[0, 1])
        >>> t = g.push(g.legal_moves()[0]); t.tabbe, g.marks, g.dukningar
        (2, [1, 0], [0, 2])
        """
        n = rules.players
        g = cls.__new__(cls)
        g.rules = rules
        g.dealer = dealer
        g.deals = (Deal(tuple(tuple(h) for h in hands), tuple(table), tuple(kladda)), *deals_to_come)
        g.hands = [list(h) for h in hands]
        g.table, g.kladda = list(table), list(kladda)
        g.piles = [list(p) for p in piles] if piles is not None else [[] for _ in range(n)]
        g.marks = list(marks) if marks is not None else [0] * n
        g.dukningar = list(dukningar) if dukningar is not None else [0] * n
        g.tabbar = list(tabbar) if tabbar is not None else [0] * n
        g.turns, g.last_capturer, g.deal_index, g.turn, g.swept = [], last_capturer, 1, turn, None
        g.previous_mover = previous_mover
        g._undo, g._legal, g._packed = [], None, None
        g._caps_cache = caps_table(rules.ace, rules.capture)
        g._seen = None
        g._kasino = rules.game == "kasino"
        return g

    # --- dealing ---------------------------------------------------------
    def _deal(self) -> None:
        d = self.deals[self.deal_index]
        for seat, h in enumerate(d.hands):
            self.hands[seat] = list(h)
        # never mutate table/kladda in place: undo records keep references to them
        self.table = self.table + list(d.table)
        self.kladda = self.kladda + list(d.aside)
        self.deal_index += 1

    # --- queries ---------------------------------------------------------
    @property
    def last_mover(self) -> int | None:
        """The seat that made the last move (``previous_mover`` before the first
        move of a hand-made position): it gets the dukning if the next move is a tabbe."""
        return self.turns[-1].player if self.turns else self.previous_mover

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_over(self) -> bool:
        """True when every hand is empty and no deal is left."""
        return self.swept is not None or (self.deal_index == len(self.deals) and not any(self.hands))

    @property
    def stock(self) -> list[Card]:
        """Cards still to be dealt (in deal order)."""
        return [c for d in self.deals[self.deal_index:] for c in d.cards()]

    @property
    def stock_size(self) -> int:
        return self._dealt_so_far()[1]

    @property
    def hand(self) -> list[Card]:
        """The hand of the player to move."""
        return self.hands[self.turn]

    def legal_moves(self) -> list[Move]:
        """Legal moves of the player to move (``[]`` once the giv is over)."""
        if self._legal is None:
            if self.swept is not None or (self.deal_index == len(self.deals) and not any(self.hands)):  # is_over
                self._legal = []
            elif self._kasino:
                self._legal = kasino_legal_moves(self.hands[self.turn], self.table, self.rules, self.turn)
            else:
                # _apply keeps the table's packed counts (None: not yet known)
                self._legal = legal_moves_packed(self.hands[self.turn], self.table, self.rules, self._packed, self._caps_cache)
        return self._legal

    def is_legal(self, move: Move | str) -> bool:
        return (Move.parse(move) if isinstance(move, str) else move) in self.legal_moves()

    def explain(self, move: Move | str, names: Sequence[str] | None = None) -> Explanation:
        """Explain a proposed move for the player to move (legal or not), with
        what a tabbe would bring (marks and who gets the dukning).

        ``names`` (one per seat, as the learner sees them) name the player who
        gets the dukning; without them it is "the player who moved just before you".

        >>> g = Giv.from_position([["10H"], ["4S"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
        >>> print(g.explain("10H:AH+3D+7C+9S", names=["Ann", "Bo"]))
        10♥ takes A♥+9♠ and 3♦+7♣. Tabbe: the table is empty! Bo moved just before you, so Bo gets a dukning (dukade för tabben).
        >>> print(g.explain("10H:AH+3D+7C+9S").message.split("! ")[1])
        The player who moved just before you gets a dukning (dukade för tabben).
        """
        if names is not None and len(names) < self.rules.players:
            raise ValueError(f"{self.rules.players} names needed, one per seat; got {list(names)}")
        if self.is_over:
            m = Move.parse(move) if isinstance(move, str) else move
            return Explanation(False, "giv-over", _("The giv is over: no more moves."), m)
        e = explain_move(self.hands[self.turn], self.table, move, self.rules, self.turn)
        prev = dukning_seat(self.rules, self.turns[-1].player if self.turns else self.previous_mover)
        if e.legal and e.tabbe and prev is not None:
            if names is None:
                said = ngettext("The player who moved just before you gets a dukning (dukade för tabben).",
                                "The player who moved just before you gets two dukningar (dukade för tabben).",
                                e.tabbe)
            else:
                who = names[prev]
                if who in ("You", _("You")):  # the learner (as a page names them in either language)
                    said = ngettext("You moved just before you, so You get a dukning (dukade för tabben).",
                                    "You moved just before you, so You get two dukningar (dukade för tabben).",
                                    e.tabbe)
                elif who.lower() == "you":
                    said = ngettext("{name} moved just before you, so {name} get a dukning (dukade för tabben).",
                                    "{name} moved just before you, so {name} get two dukningar (dukade för tabben).",
                                    e.tabbe)
                else:
                    said = ngettext("{name} moved just before you, so {name} gets a dukning (dukade för tabben).",
                                    "{name} moved just before you, so {name} gets two dukningar "
                                    "(dukade för tabben).", e.tabbe)
                said = said.format(name=who)
            e = dataclasses.replace(e, message=f"{e.message} {said}")
        return e

    def tabbe_pa(self) -> list[int]:
        """Ranks that would take the whole table now ("tabbe på …"; not worked
        out for classic Kasino yet: ``[]``)."""
        if self._kasino:
            return []
        return tabbe_ranks(self.table, self.rules)

    def _dealt_so_far(self) -> tuple[tuple[Card, ...], int]:
        """(every card the deals so far laid on the table, the stock's size), kept
        while the utdelning lasts: an observation is built at every decision."""
        seen = self._seen
        deals, di = self.deals, self.deal_index
        if seen is None or seen[0] is not deals or seen[1] != di:
            seen = self._seen = (deals, di, tuple([c for d in deals[:di] for c in d.table + d.aside
                                                   if isinstance(c, Card)]),
                                 sum([len(d.cards()) for d in deals[di:]]))
        return seen[2], seen[3]

    def observation(self, seat: int | None = None) -> Observation:
        """What ``seat`` (default: the player to move) may know."""
        seat = self.turn if seat is None else seat
        dealt, stock_left = self._dealt_so_far()
        known = tuple(self.legal_moves()) if seat == self.turn and not self.is_over else None
        # the fields set directly, as the frozen dataclass's __init__ would (one by one, with
        # object.__setattr__: a fifth of the time of an observation, built at every decision)
        obs = _new_observation(Observation)
        obs.__dict__.update(
            seat=seat, rules=self.rules, hand=tuple(self.hands[seat]), table=tuple(self.table),
            kladda=tuple(self.kladda), history=tuple(self.turns), dealt_to_table=dealt,
            pile_sizes=tuple(map(len, self.piles)),
            pile_points=tuple([sum(map((KASINO_POINTS if self._kasino else POINTS).__getitem__, p))
                               for p in self.piles]),
            marks=tuple(self.marks), dukningar=tuple(self.dukningar),
            hand_sizes=tuple(map(len, self.hands)), stock_left=stock_left,
            deal_index=self.deal_index, deals_total=len(self.deals), dealer=self.dealer,
            last_capturer=self.last_capturer, previous_mover=self.last_mover, known_moves=known,
        )
        return obs

    # --- playing ---------------------------------------------------------
    def play(self, move: Move | str) -> Turn:
        """Play a move for the player to move; raises :class:`IllegalMoveError`
        (a ``ValueError``) that says which rule forbids it and which cards."""
        if isinstance(move, str):
            move = Move.parse(move)
        if self.is_over:
            raise GameOverError(_("The giv is over: {move} cannot be played.").format(move=move), move)
        if move not in self.legal_moves():
            e = explain_move(self.hands[self.turn], self.table, move, self.rules, self.turn)
            raise IllegalMoveError(_("{move} cannot be played: {reason}").format(move=move, reason=e.message), move, e)
        return self.push(move)

    def push(self, move: Move) -> Turn:
        """Play ``move`` for the player to move WITHOUT checking it (for search
        and simulation, which take their moves from :meth:`legal_moves`);
        :meth:`play` is the checked version. An illegal move here corrupts the
        giv. :meth:`pop` takes it back.

        >>> g = Giv(seed=1)
        >>> t = g.push(g.legal_moves()[0]); g.pop() == t
        True
        """
        if self._kasino:
            return self._push_kasino(move)
        p = self.turn
        hand = self.hands[p]
        idx = hand.index(move.card)
        hand.pop(idx)
        table_before = self.table
        pile = self.piles[p]
        marks_before = None
        last_capturer_before = self.last_capturer
        tabbe = 0
        dukning = None
        cancelled = 0
        capture = move.capture
        packed = self._packed  # the table's packed value counts, kept up to date move by move (None: unknown)
        new_table = table_after(table_before, move)
        if capture is not None:
            if packed is not None:
                packed -= sum(map(UNIT.__getitem__, capture))
            pile_len = len(pile)
            pile.append(move.card)
            pile.extend(capture)
            self.last_capturer = p
            if not new_table:
                marks_before = (tuple(self.marks), tuple(self.dukningar), tuple(self.tabbar))
                tabbe = tabbe_marks(table_before, move, self.rules)
                dukning = self.turns[-1].player if self.turns else self.previous_mover
                cancelled = book_tabbe(self.rules, self.marks, self.dukningar, self.tabbar, taker=p,
                                       previous_mover=dukning, made=tabbe)
        else:
            pile_len = len(pile)
            if packed is not None:
                packed += UNIT[move.card]
            elif not table_before:
                packed = UNIT[move.card]
        self.table = new_table
        self.turn = (p + 1) % self.rules.players
        dealt = False
        sweep = None
        kladda_before = self.kladda
        deal_index = self.deal_index
        if not any(self.hands):
            if deal_index < len(self.deals):
                self._deal()
                dealt = True
                packed = None  # new cards on the table
            else:
                sweep = tuple(self.table) + tuple(self.kladda)
                if self.last_capturer is not None:
                    self.piles[self.last_capturer].extend(sweep)
                    self.table = []
                    self.kladda = []
                self.swept = sweep
        table = self.table
        t = _new_turn(Turn)  # Turn(...) without the argument handling; tabbe_pa is worked out when asked for
        if table:
            if packed is None:
                packed = pack(table)
            self._packed = packed
            t._tabbe_pa = None
            t._table = (packed, self.rules.ace)
        else:
            self._packed = None
            t._tabbe_pa = ()
            t._table = None
        t.player, t.move, t.tabbe, t.dukning, t.cancelled, t.dealt, t.sweep = p, move, tabbe, dukning, cancelled, dealt, sweep
        self.turns.append(t)
        self._undo.append((idx, table_before, kladda_before, pile_len, marks_before, last_capturer_before, deal_index))
        self._legal = None
        return t

    def pop(self) -> Turn:
        """Take back the last move exactly (including a deal or the final sweep it
        caused) and return its :class:`Turn`."""
        if not self._undo:
            raise IllegalMoveError(_("Nothing to take back: no move has been played in this giv."))
        idx, table, kladda, pile_len, marks_before, last_cap, deal_index = self._undo.pop()
        t = self.turns.pop()
        p = t.player
        if t.sweep is not None:
            if self.last_capturer is not None:
                sweeper = self.piles[self.last_capturer]
                del sweeper[len(sweeper) - len(t.sweep):]
            self.swept = None
        if t.dealt:
            if self.rules.draw:  # dragkasino: the cards each seat drew after this move go back
                for seat, h in enumerate(self.deals[deal_index].hands):
                    if h:
                        del self.hands[seat][len(self.hands[seat]) - len(h):]
            else:
                for h in self.hands:
                    h.clear()
            self.deal_index = deal_index
        self.table, self.kladda = table, kladda
        del self.piles[p][pile_len:]
        self.hands[p].insert(idx, t.move.card)
        if marks_before is not None:
            self.marks, self.dukningar, self.tabbar = (list(x) for x in marks_before)
        self.last_capturer = last_cap
        self.turn = p
        self._legal = None
        self._packed = None
        return t

    # --- classic Kasino: the same bookkeeping, with builds on the table and draws ---
    def _push_kasino(self, move: Move) -> Turn:
        """:meth:`push` for classic Kasino: the table is loose cards and builds
        (:func:`~krypteach.engine.builds.kasino_table_after`), tabbe marks as in
        Krypkasino (:func:`~krypteach.engine.turn.tabbe_marks`, no dukning), and
        in dragkasino the player draws after the play."""
        rules = self.rules
        p = self.turn
        hand = self.hands[p]
        idx = hand.index(move.card)
        hand.pop(idx)
        table_before = self.table
        pile = self.piles[p]
        pile_len = len(pile)
        marks_before = None
        last_capturer_before = self.last_capturer
        tabbe, dukning, cancelled = 0, None, 0
        new_table = kasino_table_after(table_before, move, p)
        if move.capture is not None and move.value is None:  # a capture
            pile.append(move.card)
            pile.extend(move.capture)
            self.last_capturer = p
            if not new_table:
                marks_before = (tuple(self.marks), tuple(self.dukningar), tuple(self.tabbar))
                tabbe = tabbe_marks(table_cards(table_before), move, rules)
                dukning = dukning_seat(rules, self.last_mover)
                cancelled = book_tabbe(rules, self.marks, self.dukningar, self.tabbar, taker=p,
                                       previous_mover=dukning, made=tabbe)
        self.table = new_table
        self.turn = (p + 1) % rules.players
        dealt = False
        sweep = None
        kladda_before = self.kladda
        deal_index = self.deal_index
        if deal_index < len(self.deals) and (rules.draw or not any(self.hands)):
            if rules.draw:
                for seat, h in enumerate(self.deals[deal_index].hands):
                    self.hands[seat].extend(h)
                self.deal_index += 1
            else:
                self._deal()
            dealt = True
        if self.deal_index == len(self.deals) and not any(self.hands):
            sweep = tuple(table_cards(self.table)) + tuple(self.kladda)
            if self.last_capturer is not None:
                self.piles[self.last_capturer].extend(sweep)
                self.table = []
                self.kladda = []
            self.swept = sweep
        t = _new_turn(Turn)
        t._tabbe_pa, t._table = (), None
        t.player, t.move, t.tabbe, t.dukning, t.cancelled, t.dealt, t.sweep = p, move, tabbe, dukning, cancelled, dealt, sweep
        self.turns.append(t)
        self._undo.append((idx, table_before, kladda_before, pile_len, marks_before, last_capturer_before, deal_index))
        self._legal = None
        return t

    def play_out(self, choose: Callable[[Giv], Move]) -> None:
        """Play to the end, asking ``choose(giv)`` for each move (checked, as :meth:`play`)."""
        while not self.is_over:
            self.play(choose(self))

    # --- results ---------------------------------------------------------
    @property
    def result(self) -> GivResult:
        """Scores of the finished giv (raises if it is not over)."""
        if not self.is_over:
            raise IllegalMoveError(_("The giv is not over yet: play until every hand is empty."))
        return score_giv(self.rules, self.piles, self.marks, self.dukningar, self.tabbar,
                         self.last_capturer, self.swept or ())

    def state_key(self) -> tuple:
        """Everything that defines the position (for equality checks, e.g. after undo)."""
        return (self.rules, self.dealer, self.deal_index, self.turn, tuple(map(tuple, self.hands)), tuple(self.table),
                tuple(self.kladda), tuple(map(tuple, self.piles)), tuple(self.marks), tuple(self.dukningar),
                tuple(self.tabbar), self.last_capturer, tuple(self.turns), self.swept)

    def card_count(self) -> int:
        """Cards in hands, on the table (in builds too), aside, in piles and in the
        stock (always 104 in a real giv of Krypkasino, 52 in classic Kasino)."""
        on_table = sum(len(x.cards) if not isinstance(x, Card) else 1 for x in self.table)
        return (sum(map(len, self.hands)) + on_table + len(self.kladda) + sum(map(len, self.piles))
                + self.stock_size)

    def announce(self, turn: Turn | None = None) -> str | None:
        """The customary "tabbe på …" after a move, e.g. ``"tabbe på tio"``."""
        turn = turn or (self.turns[-1] if self.turns else None)
        return tabbe_pa_text(turn.tabbe_pa) if turn else None

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"seat {self.turn} to play"
        return f"<Giv {self.rules.players} players, dealer {self.dealer}, deal {self.deal_index}/{len(self.deals)}, {len(self.turns)} moves, {state}>"

    def _repr_html_(self) -> str | None:
        return display.show("giv", self)


def _check_deck(deck: Sequence[Card], copies: int = 2) -> None:
    from collections import Counter

    if copies == 1:
        if len(deck) != 52 or len(set(deck)) != 52:
            raise ValueError(_("a classic Kasino deck must have the 52 cards, each once; got {count} cards").format(
                count=len(deck)))
        return
    if len(deck) != 104:
        raise ValueError(_("a deck must have 104 cards (two decks), got {count}").format(count=len(deck)))
    bad = [str(c) for c, k in Counter(deck).items() if k != 2]
    if bad:
        raise ValueError(_("every card must appear exactly twice in the deck; wrong count for {cards}").format(
            cards=", ".join(bad)))


def _check_deals(deals: Sequence[Deal], rules: Rules, dealer: int = 0) -> None:
    plan = deal_plan(rules)
    if len(deals) != len(plan):
        raise ValueError(_("{given} deals given, but the rules deal {count} utdelningar").format(
            given=len(deals), count=len(plan)))
    cards: list[Card] = []
    if rules.game == "kasino":
        for i, (d, (k, t)) in enumerate(zip(deals, plan)):
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
        _check_deck(cards, 1)
        return
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
    _check_deck(cards)


class Parti:
    """A match: ``rules.givar_count`` givar, dealer moving one seat left each giv.

    >>> p = Parti(Rules(players=2), seed=3)
    >>> while not p.is_over:
    ...     if p.giv.is_over:
    ...         _ = p.next_giv()
    ...     _ = p.play(p.giv.legal_moves()[0])
    >>> len(p.protocol), len(p.result.totals)
    (2, 2)
    """

    def __init__(self, rules: Rules | None = None, *, seed: int | None = None, first_dealer: int = 0) -> None:
        self.rules = rules or Rules()
        self._rng = random.Random(seed)
        self.first_dealer = first_dealer
        self.givar: list[Giv] = []
        self.next_giv()

    @property
    def giv(self) -> Giv:
        """The current (or last) giv."""
        return self.givar[-1]

    def next_giv(self) -> Giv:
        """Start the next giv (the current one must be over)."""
        if self.givar and not self.giv.is_over:
            raise IllegalMoveError(_("Finish the current giv before starting the next."))
        if len(self.givar) >= self.rules.givar_count:
            raise GameOverError(_("The parti is over: all {count} givar are played.").format(
                count=self.rules.givar_count))
        dealer = (self.first_dealer + len(self.givar)) % self.rules.players
        g = Giv(self.rules, dealer=dealer, seed=self._rng.getrandbits(64))
        self.givar.append(g)
        return g

    def play(self, move: Move | str) -> Turn:
        """Play a move in the current giv."""
        return self.giv.play(move)

    @property
    def protocol(self) -> list[tuple[int, ...]]:
        """One row of scores per finished giv (the running *protokoll*)."""
        return [g.result.scores for g in self.givar if g.is_over]

    @property
    def totals(self) -> tuple[int, ...]:
        return PartiResult(self.rules, tuple(self.protocol)).totals

    @property
    def is_over(self) -> bool:
        return len(self.givar) == self.rules.givar_count and self.giv.is_over

    @property
    def result(self) -> PartiResult:
        if not self.is_over:
            raise IllegalMoveError(_("The parti is not over yet."))
        return PartiResult(self.rules, tuple(self.protocol))

    def __repr__(self) -> str:
        return f"<Parti {self.rules.players} players, giv {len(self.givar)}/{self.rules.givar_count}, totals {self.totals}>"
