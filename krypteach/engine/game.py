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
from typing import Any

from ..i18n import N_, _, ngettext
from . import display
from .captures import tabbe_pa_text
from .cards import Card, parse_cards
from .games import game_of
from .moves import Explanation, IllegalMoveError, Move
from .rules import Rules, deal_plan
from .scoring import GivResult, PartiEnd, PartiResult
from .state import Deal, Turn

__all__ = ["Deal", "Turn", "Giv", "Parti", "GameOverError", "PositionError", "deal_giv", "Observation", "LEARNER",
           "is_learner", "shown_name"]

# i18n: the learner's seat in the game table and the narration ("You take 9♠ …")
LEARNER = N_("You")
"""The learner's name where a page names the players itself (shown in the page's language)."""


def is_learner(name: str) -> bool:
    """Is ``name`` the learner's: "You" or its translation in the page's language, in any case?

    The words then speak to the learner ("You take", "you get a dukning"), not of a third person.

    >>> is_learner("you"), is_learner("Bea")
    (True, False)
    """
    return name.lower() in (LEARNER.lower(), _(LEARNER).lower())


def shown_name(name: str) -> str:
    """``name`` as a page shows it: the learner's English default "You" in the page's language,
    any other name as it is.

    >>> shown_name("Bea")
    'Bea'
    """
    return _(LEARNER) if name == LEARNER else name

_new_observation = object.__new__



class GameOverError(IllegalMoveError):
    """A move was played after the giv (or parti) ended."""


class PositionError(ValueError):
    """A hand-made position that cannot happen (bad seat, hand sizes, too many copies of a card)."""


def _is_seat(seat: object, players: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players


def deal_giv(deck: Sequence[Card], rules: Rules, dealer: int = 0) -> tuple[Deal, ...]:
    """Cut a deck order into the giv's utdelningar.

    Cards go one at a time round the table starting at the dealer's left,
    then to the table; face cards laid on the table are set aside.

    >>> from krypteach.engine.cards import double_deck
    >>> deals = deal_giv(double_deck(), Rules())
    >>> len(deals), [str(c) for c in deals[0].hands[1]]
    (9, ['AS', 'AD', '2S', '2D'])
    """
    return game_of(rules).deal(deck, dealer)


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
        return game_of(self.rules).legal_moves(self.hand, self.table, self.seat)

    def unseen(self) -> list[Card]:
        """Cards this seat has not seen: the other hands and the stock (as a sorted multiset).

        Counted with a list, not a ``Counter``: the bots ask at every decision."""
        left = self.unseen_counts()
        return [Card(i) for i in range(52) for _ in range(left[i])]

    def unseen_counts(self) -> list[int]:
        """How many copies of each card (index: card number 0..51) this seat has
        not seen: from the deck's copies of it (2 in Krypkasino, 1 in classic Kasino)."""
        left = [self.rules.copies] * 52
        for c in self.hand:
            left[c] -= 1
        for c in self.dealt_to_table:
            left[c] -= 1
        for t in self.history:
            left[t.move.card] -= 1
        return left



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
        self.game = game = game_of(rules)
        if deals is None:
            if deck is None:
                deck = game.new_deck(rng if rng is not None else random.Random(seed))
            else:
                deck = [Card(c) for c in deck]
                game.check_deck(deck)
            deals = game.deal(deck, dealer)
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
        #: what :meth:`pop` needs to take each move back (the game's ``push`` appends it)
        self.undo_log: list[tuple[Any, ...]] = []
        self._legal: list[Move] | None = None
        #: the game's key of the table while it is known (Krypkasino: its packed value counts), else None
        self.table_key: int | None = None
        self._seen: tuple[tuple[Deal, ...], int, tuple[Card, ...], int] | None = None  # see _dealt_so_far
        self._push = game.push
        self.deal_next()

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
        tb, flat = game_of(rules).parse_table(table)
        bad = [x for x in tb if not isinstance(x, Card) and not _is_seat(x.owner, n)]
        if bad:
            raise PositionError(_("build {build} is owned by no seat: seats are 0..{last}").format(
                build=bad[0], last=n - 1))
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
        g.undo_log, g._legal, g.table_key = [], None, None
        g._seen = None
        g.game = game = game_of(rules)
        g._push = game.push
        return g

    def clone(self) -> Giv:
        """An independent copy of this giv as it stands, its history included:
        play on either and the other is unchanged (what a search or a review
        tries moves on).

        >>> g = Giv(seed=2); _ = g.play(g.legal_moves()[0])
        >>> c = g.clone(); _ = c.play(c.legal_moves()[0])
        >>> len(g.turns), len(c.turns), c.pop() is not None and c.state_key() == g.state_key()
        (1, 2, True)
        """
        c = object.__new__(Giv)
        c.__dict__.update(self.__dict__)
        c.hands = [list(h) for h in self.hands]
        c.piles = [list(p) for p in self.piles]
        c.table, c.kladda = list(self.table), list(self.kladda)
        c.marks, c.dukningar, c.tabbar = list(self.marks), list(self.dukningar), list(self.tabbar)
        c.turns, c.undo_log = list(self.turns), list(self.undo_log)
        c._legal = None
        return c

    # --- dealing ---------------------------------------------------------
    def sweep(self) -> tuple[Card, ...]:
        """End the giv (a game's ``push`` calls it after the last move): the last
        capturer takes what is left on the table and klädda högen; when nobody
        captured, it stays. Returns the cards swept (what :meth:`pop` gives back)."""
        sweep = tuple(self.game.table_cards(self.table)) + tuple(self.kladda)
        if self.last_capturer is not None:
            self.piles[self.last_capturer].extend(sweep)
            self.table = []
            self.kladda = []
        self.swept = sweep
        return sweep

    def deal_next(self) -> None:
        """Deal the next utdelning (a game's ``push`` calls it when the hands are empty)."""
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
            else:
                self._legal = self.game.giv_legal_moves(self)
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
        m = Move.parse(move) if isinstance(move, str) else move
        e = self.game.explain(self.hands[self.turn], self.table, m, self.turn)
        prev = self.game.dukning_seat(self.last_mover)
        if e.legal and e.tabbe and prev is not None:
            if names is None:
                said = ngettext("The player who moved just before you gets a dukning (dukade för tabben).",
                                "The player who moved just before you gets two dukningar (dukade för tabben).",
                                e.tabbe)
            else:
                who = names[prev]
                if is_learner(who):
                    said = ngettext("You moved just before, so you get a dukning (dukade för tabben).",
                                    "You moved just before, so you get two dukningar (dukade för tabben).",
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
        return self.game.tabbe_pa(self.table)

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
            pile_points=tuple([sum(map(self.game.card_values.__getitem__, p)) for p in self.piles]),
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
            e = self.game.explain(self.hands[self.turn], self.table, move, self.turn)
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
        self._legal = None
        return self._push(self, move)

    def pop(self) -> Turn:
        """Take back the last move exactly (including a deal or the final sweep it
        caused) and return its :class:`Turn`."""
        if not self.undo_log:
            raise IllegalMoveError(_("Nothing to take back: no move has been played in this giv."))
        idx, table, kladda, pile_len, marks_before, last_cap, deal_index = self.undo_log.pop()
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
        self.table_key = None
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
        return self.game.score(self.piles, self.marks, self.dukningar, self.tabbar, self.last_capturer,
                               self.swept or ())

    def returns(self) -> tuple[int, ...]:
        """Each seat's score so far, in the game's own sense (lower is better in
        Krypkasino and avig kasino, higher in Kasino): the finished giv's scores
        once it is over, else the points in each pile and the marks standing
        now (majority points to whoever holds the majority now, no sistan).

        >>> g = Giv.from_position([["10S"], ["4H"]], ["AH", "7C", "3D", "9S"], previous_mover=1)
        >>> g.returns()
        (0, 0)
        >>> _ = g.play("10S:AH+3D+7C+9S"); g.returns()
        (8, -5)
        """
        return self.running_result().scores

    def running_result(self) -> GivResult:
        """:attr:`result` at any moment: the finished giv's once it is over, else
        what the piles and marks give now (no last sweep, no sistan yet)."""
        if self.is_over:
            return self.result
        return self.game.score(self.piles, self.marks, self.dukningar, self.tabbar, None, ())

    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the position (for equality checks, e.g. after undo)."""
        return (self.rules, self.dealer, self.deal_index, self.turn, tuple(map(tuple, self.hands)), tuple(self.table),
                tuple(self.kladda), tuple(map(tuple, self.piles)), tuple(self.marks), tuple(self.dukningar),
                tuple(self.tabbar), self.last_capturer, tuple(self.turns), self.swept)

    def card_count(self) -> int:
        """Cards in hands, on the table (in builds too), aside, in piles and in the
        stock (always 104 in a real giv of Krypkasino, 52 in classic Kasino)."""
        on_table = len(self.game.table_cards(self.table))
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


def _check_deals(deals: Sequence[Deal], rules: Rules, dealer: int) -> None:
    plan = deal_plan(rules)
    if len(deals) != len(plan):
        raise ValueError(_("{given} deals given, but the rules deal {count} utdelningar").format(
            given=len(deals), count=len(plan)))
    game_of(rules).check_deals(deals, dealer)


class Parti:
    """A match: givar one after another, the dealer moving one seat left each giv.

    When it is over, and who won, is its game's rule (:meth:`~krypteach.engine.games.base.Game.parti_end`):
    Krypkasino plays ``rules.givar_count`` givar and the lowest total wins; classic
    Kasino plays giv after giv until a side reaches ``rules.target`` (16).

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

    @classmethod
    def from_givar(cls, rules: Rules, givar: Sequence[Giv], *, first_dealer: int | None = None,
                   seed: int | None = None) -> Parti:
        """A parti of givar already played (read from records, or made by hand), the
        dealer moving one seat left each giv; :meth:`next_giv` goes on from there."""
        if not givar:
            raise ValueError(_("a parti needs at least one giv"))
        first = givar[0].dealer if first_dealer is None else first_dealer
        for i, g in enumerate(givar):
            if g.rules != rules:
                raise ValueError(_("giv {number} is played under other rules than the parti").format(number=i + 1))
            if g.dealer != (first + i) % rules.players:
                raise ValueError(_("giv {number} is dealt by seat {dealer}, but the dealer moves one seat left "
                                   "each giv: seat {seat}").format(number=i + 1, dealer=g.dealer,
                                                                   seat=(first + i) % rules.players))
            if not g.is_over and i < len(givar) - 1:
                raise ValueError(_("giv {number} is not over, and another giv follows it").format(number=i + 1))
        p = cls.__new__(cls)
        p.rules, p._rng, p.first_dealer, p.givar = rules, random.Random(seed), first, list(givar)
        return p

    @property
    def giv(self) -> Giv:
        """The current (or last) giv."""
        return self.givar[-1]

    @property
    def end(self) -> PartiEnd:
        """Is the parti over, and who won: its game's answer (:class:`~krypteach.engine.scoring.PartiEnd`)."""
        return self.giv.game.parti_end(self.givar)

    @property
    def planned_givar(self) -> int | None:
        """How many givar the parti has (``None``: as many as it takes to reach the target)."""
        return self.giv.game.parti_givar

    def next_giv(self) -> Giv:
        """Start the next giv (the current one must be over, and the parti not)."""
        if self.givar and not self.giv.is_over:
            raise IllegalMoveError(_("Finish the current giv before starting the next."))
        if self.givar:
            end = self.end
            if end.over:
                raise GameOverError(self._over_text(end))
        dealer = (self.first_dealer + len(self.givar)) % self.rules.players
        g = Giv(self.rules, dealer=dealer, seed=self._rng.getrandbits(64))
        self.givar.append(g)
        return g

    @staticmethod
    def _over_text(end: PartiEnd) -> str:
        if end.target is None:
            return _("The parti is over: all {count} givar are played.").format(count=end.givar)
        if end.stopped:
            return _("The parti is over: nobody won it in {count} givar, the most a parti lasts (the rule "
                     "option givar), so the best total wins.").format(count=end.givar)
        return _("The parti is over: it is played to {target} points, and giv {number} decided it.").format(
            target=end.target, number=end.givar)

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
        return self.end.over

    @property
    def result(self) -> PartiResult:
        end = self.end
        if not end.over:
            raise IllegalMoveError(_("The parti is not over yet."))
        return PartiResult(self.rules, tuple(self.protocol), end)

    def __repr__(self) -> str:
        planned = self.planned_givar
        count = planned if planned is not None else f"to {self.rules.target}"
        return f"<Parti {self.rules.players} players, giv {len(self.givar)}/{count}, totals {self.totals}>"
