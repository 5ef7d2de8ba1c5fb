"""Capture puzzles: generated, solved and checked by the engine.

Five kinds, each with a precise question and a solver that *proves* the answer
by trying everything (and, where the kind asks for one answer, that it is the
only one):

``what-must-you-take``
    You play ``hand[0]`` on ``table``. Which cards must it take? (A card with a
    träff must capture, and take all it can.) The answer is the captured cards;
    when several maximal captures exist any of them is right and the solution
    says so. The solver enumerates every set of table cards, checks with its own
    träff arithmetic which are legal, and compares with the engine.
``which-card``
    Tvångstabbe: one card of ``hand`` can take the whole ``table``. Which card
    must you play? Exactly one card of the hand can.
``safest-card``
    No card of ``hand`` takes the whole ``table``. Which card gives away the
    fewest points this turn, judged from the table alone: the card points your
    pile gets (the captured cards and the capturing card itself; a creep gets
    none), plus the tabbe points if the table is emptied? A card with several
    captures counts its cheapest. The safest card must be unique.
``set-up-dukning``
    You hold ``hand``; the next player holds ``next_hand`` (shown). Which of
    your legal moves leaves a table that the next player must take whole
    (tvångstabbe: some card of ``next_hand`` takes it all), so that you get the
    dukning? Exactly one of your legal moves does.
``endgame``
    The last utdelning of a two-player giv: your ``hand``, the opponent's
    ``next_hand``, the ``table`` and the klädda högen ``kladda`` are all known,
    and ``last_capturer`` says who captured last (``"you"``, ``"opponent"`` or
    ``None``). You move. Which first move gives the lowest final score for you
    *against* your opponent (your points minus theirs from here on: card points,
    tabbe marks, dukningar and the last capturer's sweep), when both play their
    best? Solved exactly by searching every line; the best first move must be
    unique.

>>> p = Puzzle("demo", "what-must-you-take", "easy", parse_cards("9H"), parse_cards("9S 2C 5D 7H"))
>>> sorted(solve(p).answers)
['2C+7H+9S']
>>> check_answer(p, "9S")[0]
False
>>> len(load_puzzles()) >= 60
True
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any

from ..engine.captures import capture_options
from ..engine.cards import Card, CardParseError, parse_cards
from ..engine.moves import Move, MoveParseError, legal_moves, table_after
from ..engine.records import parse_json, short_repr
from ..engine.rules import Rules, RulesError

__all__ = [
    "KINDS", "DIFFICULTIES", "Puzzle", "Solution", "PuzzleError", "generate", "solve", "check_answer", "verify",
    "check_puzzles", "load_puzzles", "save_puzzles", "make_puzzle_set",
]

KINDS = ("what-must-you-take", "which-card", "safest-card", "set-up-dukning", "endgame")
DIFFICULTIES = ("easy", "medium", "hard")
FORMAT = "krypteach-puzzles/1"


class PuzzleError(ValueError):
    """A malformed puzzle, or one whose stated answer the solver cannot prove."""


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in cards) or "empty"


def _capture_text(cards: Iterable[Card]) -> str:
    return "+".join(str(c) for c in sorted(cards))


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``hand`` is your hand (for ``what-must-you-take`` the one card
    you play); ``next_hand`` the next player's hand (``set-up-dukning``) or the
    opponent's (``endgame``); ``answers`` the right answers as text, as stored
    (moves like ``"9H:2C+7D"``, cards like ``"9H"``, captures like ``"2C+7D"``)."""

    id: str
    kind: str
    difficulty: str
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    next_hand: tuple[Card, ...] = ()
    kladda: tuple[Card, ...] = ()
    last_capturer: str | None = None
    answers: tuple[str, ...] = ()
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for name in ("hand", "table", "next_hand", "kladda"):
            value = getattr(self, name)
            set_(self, name, tuple(parse_cards(value) if isinstance(value, str) else (Card(c) for c in value)))
        set_(self, "answers", tuple(self.answers))
        if self.kind not in KINDS:
            raise PuzzleError(f"puzzle {self.id}: unknown kind {self.kind!r}: choose one of {', '.join(KINDS)}")
        if self.difficulty not in DIFFICULTIES:
            raise PuzzleError(f"puzzle {self.id}: difficulty must be one of {', '.join(DIFFICULTIES)}")
        if self.last_capturer not in (None, "you", "opponent"):
            raise PuzzleError(f"puzzle {self.id}: last_capturer must be 'you', 'opponent' or null")

    @property
    def prompt(self) -> str:
        """The question in words."""
        t = _cards_text(self.table)
        if self.kind == "what-must-you-take":
            return f"You play {self.hand[0].symbol}. The table: {t}. Which cards must it take?"
        if self.kind == "which-card":
            return f"Your hand: {_cards_text(self.hand)}. The table: {t}. Tvångstabbe! Which card must you play?"
        if self.kind == "safest-card":
            return (f"Your hand: {_cards_text(self.hand)}. The table: {t}. Which card gives away the fewest points "
                    "this turn (judged from the table alone)?")
        if self.kind == "set-up-dukning":
            holds = "holds " + _cards_text(self.next_hand)
            return (f"Your hand: {_cards_text(self.hand)}. The table: {t}. The next player {holds}. Which move leaves "
                    "a table the next player must take whole, so that you get the dukning?")
        last = {"you": "you", "opponent": "your opponent", None: "nobody yet"}[self.last_capturer]
        return (f"Last deal of a two-player giv, every card known. Your hand: {_cards_text(self.hand)}. "
                f"Your opponent's hand: {_cards_text(self.next_hand)}. The table: {t}. Klädda högen: "
                f"{_cards_text(self.kladda)}. Last capturer: {last}. You play first. Which move ends the giv "
                "with the fewest points for you (your points minus your opponent's from here, both playing their best)?")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``prompt`` is included for readers and ignored when loading)."""
        d: dict[str, Any] = {"id": self.id, "kind": self.kind, "difficulty": self.difficulty,
                             "hand": [str(c) for c in self.hand], "table": [str(c) for c in self.table]}
        if self.next_hand:
            d["next_hand"] = [str(c) for c in self.next_hand]
        if self.kind == "endgame":
            d["kladda"] = [str(c) for c in self.kladda]
            d["last_capturer"] = self.last_capturer
        d["answers"] = list(self.answers)
        default = Rules(players=self.rules.players)
        diff = {k: v for k, v in self.rules.to_dict().items() if getattr(default, k) != v or k == "players"}
        if diff != {"players": 2}:
            d["rules"] = diff
        d["prompt"] = self.prompt
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, where: str | None = None) -> Puzzle:
        """The inverse of :meth:`to_dict`. Every field is checked: a :class:`PuzzleError`
        names the puzzle (``where``, default ``puzzle <id>``), the field and what it allows.

        >>> p = Puzzle("x", "which-card", "easy", parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"), answers=("10S",))
        >>> Puzzle.from_dict(p.to_dict()) == p
        True
        >>> Puzzle.from_dict({**p.to_dict(), "table": None})
        Traceback (most recent call last):
        ...
        krypteach.teaching.puzzles.PuzzleError: puzzle x: table must be a list of card codes ..., got None
        """
        if where is None:
            pid = d.get("id") if isinstance(d, dict) else None
            where = f"puzzle {pid}" if isinstance(pid, str) and pid.strip() else "a puzzle"
        if not isinstance(d, dict):
            raise PuzzleError(f"{where}: a puzzle must be a JSON object {{\"id\": ..., \"kind\": ..., ...}}, "
                              f"got {type(d).__name__}")
        for key in ("id", "kind", "difficulty", "hand"):
            if key not in d:
                raise PuzzleError(f"{where}: missing field {key!r}")
        if not isinstance(d["id"], str) or not d["id"].strip():
            raise PuzzleError(f"{where}: id must be text such as \"which-card-easy-01\", got {short_repr(d['id'])}")
        for key, allowed in (("kind", KINDS), ("difficulty", DIFFICULTIES)):
            if d[key] not in allowed:
                raise PuzzleError(f"{where}: {key}={short_repr(d[key])} is not allowed: choose one of "
                                  f"{', '.join(allowed)}")
        cards: dict[str, tuple[Card, ...]] = {}
        for key in ("hand", "table", "next_hand", "kladda"):
            value = d.get(key, [])
            if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                raise PuzzleError(f"{where}: {key} must be a list of card codes such as [\"9H\", \"2C\"], "
                                  f"got {short_repr(value)}")
            try:
                cards[key] = tuple(Card.parse(c) for c in value)
            except CardParseError as e:
                raise PuzzleError(f"{where}: {key}: {e}") from None
        if d.get("last_capturer") not in (None, "you", "opponent"):
            raise PuzzleError(f"{where}: last_capturer={short_repr(d['last_capturer'])} is not allowed: "
                              "choose \"you\", \"opponent\" or null")
        answers = d.get("answers", [])
        if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
            raise PuzzleError(f"{where}: answers must be a list of texts such as [\"9H\"] or [\"9H:2C+7D\"], "
                              f"got {short_repr(answers)}")
        try:
            rules = Rules.from_dict(d.get("rules", {}))
        except RulesError as e:
            raise PuzzleError(f"{where}: rules: {e}") from None
        try:
            return cls(id=d["id"], kind=d["kind"], difficulty=d["difficulty"], hand=cards["hand"],
                       table=cards["table"], next_hand=cards["next_hand"], kladda=cards["kladda"],
                       last_capturer=d.get("last_capturer"), answers=tuple(answers), rules=rules)
        except PuzzleError:
            raise
        except ValueError as e:
            raise PuzzleError(f"{where}: {e}") from None


@dataclass(frozen=True)
class Solution:
    """The right answers (as text, normalised), whether the answer is unique, and why in words."""

    answers: frozenset[str]
    explanation: str
    unique: bool
    options: dict[str, Any] = field(default_factory=dict, compare=False)


# --- an independent träff arithmetic (the proof does not rely on captures.py) ---------------

def _target(card: Card, rules: Rules) -> tuple[int, bool]:
    """(value a group must sum to, a lone table ace is a träff) for a played card."""
    if card.rank != 1:
        return card.rank, False
    return {"1or14": (14, True), "1": (1, False), "14hand": (14, False)}[rules.ace]


def _is_single_traff(v: int, target: int, lone_ace: bool) -> bool:
    return v == target or (lone_ace and v == 1)


def _has_traff(values: Sequence[int], target: int, lone_ace: bool) -> bool:
    if any(_is_single_traff(v, target, lone_ace) for v in values):
        return True
    for k in range(2, len(values) + 1):
        for combo in combinations(values, k):
            if sum(combo) == target:
                return True
    return False


def _splits(values: tuple[int, ...], target: int, lone_ace: bool) -> bool:
    """Can these values be split into disjoint träffar (by brute force)?"""
    if not values:
        return True
    first, rest = values[0], values[1:]
    if _is_single_traff(first, target, lone_ace) and _splits(rest, target, lone_ace):
        return True
    idx = range(len(rest))
    for k in range(1, len(rest) + 1):
        for combo in combinations(idx, k):
            if first + sum(rest[i] for i in combo) == target:
                left = tuple(rest[i] for i in idx if i not in combo)
                if _splits(left, target, lone_ace):
                    return True
    return False


def _sub_multisets(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    counts = sorted(Counter(cards).items())
    out: list[tuple[Card, ...]] = [()]
    for c, k in counts:
        out = [s + (c,) * i for s in out for i in range(k + 1)]
    return out


def brute_captures(card: Card, table: Sequence[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """Every legal capture of ``card`` on ``table`` found by trying every set of
    table cards (maximal / maximum rules), sorted; ``[]`` if it creeps.

    >>> [_capture_text(c) for c in brute_captures(Card("9H"), parse_cards("9S 2C 5D 7H"), Rules())]
    ['2C+7H+9S']
    """
    target, lone_ace = _target(card, rules)
    found = []
    for sub in _sub_multisets(table):
        if not sub:
            continue
        if not _splits(tuple(sorted((c.rank for c in sub), reverse=True)), target, lone_ace):
            continue
        rest = list(table)
        for c in sub:
            rest.remove(c)
        if rules.capture != "free" and _has_traff([c.rank for c in rest], target, lone_ace):
            continue
        found.append(tuple(sorted(sub)))
    if rules.capture == "maximum" and found:
        most = max(map(len, found))
        found = [f for f in found if len(f) == most]
    return sorted(found)


def _takes_whole(card: Card, table: Sequence[Card], rules: Rules) -> bool:
    target, lone_ace = _target(card, rules)
    return bool(table) and _splits(tuple(sorted((c.rank for c in table), reverse=True)), target, lone_ace)


def _move_cost(move: Move, table: Sequence[Card], rules: Rules) -> int:
    """Points the mover's side gets this turn: captured + capturing card, and a tabbe's points."""
    if move.capture is None:
        return 0
    cost = move.card.points + sum(c.points for c in move.capture)
    if len(move.capture) == len(table):
        k = 2 if (rules.dubbeltabbe and len(table) == 1 and table[0] == move.card) else 1
        cost += k * rules.tabbe_points
    return cost


def _proved_moves(hand: Sequence[Card], table: Sequence[Card], rules: Rules) -> list[Move]:
    """Legal moves by brute force (tvångstabbe, then must-capture), checked against the engine."""
    distinct = list(dict.fromkeys(sorted(hand)))
    moves: list[Move] = []
    if table and rules.forced_tabbe:
        whole = [c for c in distinct if _takes_whole(c, table, rules)]
        if whole:
            moves = [Move(c, tuple(table)) for c in whole]
    if not moves:
        for c in distinct:
            caps = brute_captures(c, table, rules) if table else []
            moves.extend(Move(c, cap) for cap in caps)
            if not caps or rules.capture == "free":
                moves.append(Move(c))
    engine = legal_moves(hand, table, rules)
    if set(moves) != set(engine):
        raise PuzzleError(f"the engine and the brute force disagree on the legal moves for hand "
                          f"{_cards_text(hand)} at table {_cards_text(table)}: {sorted(map(str, engine))} vs "
                          f"{sorted(map(str, moves))}")
    return moves


# --- solving ------------------------------------------------------------------------------

def _check_cards(p: Puzzle) -> None:
    every = Counter(p.hand) + Counter(p.table) + Counter(p.next_hand) + Counter(p.kladda)
    over = [str(c) for c, k in every.items() if k > 2]
    if over:
        raise PuzzleError(f"puzzle {p.id}: {', '.join(over)} appear more than twice (there are two decks)")
    if not p.hand:
        raise PuzzleError(f"puzzle {p.id}: the hand is empty")


def solve(p: Puzzle) -> Solution:
    """Solve a puzzle by trying everything; raises :class:`PuzzleError` if it is
    malformed or has no unique answer where its kind requires one.

    >>> p = Puzzle("d", "which-card", "easy", parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"))
    >>> s = solve(p); sorted(s.answers), s.unique
    (['10S'], True)
    """
    _check_cards(p)
    rules = p.rules
    solver = {"what-must-you-take": _solve_take, "which-card": _solve_which, "safest-card": _solve_safest,
              "set-up-dukning": _solve_setup, "endgame": _solve_endgame}[p.kind]
    return solver(p, rules)


def _solve_take(p: Puzzle, rules: Rules) -> Solution:
    if len(p.hand) != 1:
        raise PuzzleError(f"puzzle {p.id}: what-must-you-take gives exactly one card to play")
    if rules.capture == "free":
        raise PuzzleError(f"puzzle {p.id}: under the free capture rule nothing must be taken")
    card = p.hand[0]
    caps = brute_captures(card, p.table, rules)
    engine = sorted(tuple(c) for c in capture_options(card, p.table, rules))
    if caps != engine:
        raise PuzzleError(f"puzzle {p.id}: engine captures {engine} differ from the brute force {caps}")
    from ..engine.captures import split_into_traffar

    if not caps:
        return Solution(frozenset({"creep"}), f"{card.symbol} has no träff on {_cards_text(p.table)}: it creeps "
                        "and takes nothing.", True, {"creep": 0})
    answers = frozenset(_capture_text(c) for c in caps)
    parts = []
    for cap in caps:
        groups = split_into_traffar(card, cap, rules) or [cap]
        rest = list(p.table)
        for c in cap:
            rest.remove(c)
        stays = f"; {_cards_text(rest)} stay{'s' if len(rest) == 1 else ''}" if rest else " — the whole table (a tabbe)"
        parts.append(" and ".join("+".join(c.symbol for c in g) for g in groups) + stays)
    if len(caps) == 1:
        why = f"{card.symbol} must take {parts[0]}: it takes all it can, and no träff is left behind."
    else:
        why = (f"{card.symbol} can take all it can in {len(caps)} ways, and any of them is right: "
               + "; or ".join(parts) + ".")
    return Solution(answers, why, len(caps) == 1, {a: 0 for a in answers})


def _solve_which(p: Puzzle, rules: Rules) -> Solution:
    if not rules.forced_tabbe or not p.table:
        raise PuzzleError(f"puzzle {p.id}: which-card needs tvångstabbe and a table")
    from ..engine.captures import split_into_traffar

    whole = sorted({c for c in p.hand if _takes_whole(c, p.table, rules)})
    if not whole:
        raise PuzzleError(f"puzzle {p.id}: no card in the hand takes the whole table")
    _proved_moves(p.hand, p.table, rules)
    c = whole[0]
    groups = split_into_traffar(c, p.table, rules) or [p.table]
    if len(whole) > 1:
        why = (f"Tvångstabbe: {' and '.join(x.symbol for x in whole)} can each take the whole table; any of them is right.")
    else:
        others = [x for x in dict.fromkeys(p.hand) if x != c]
        why = (f"Tvångstabbe: {c.symbol} takes the whole table as "
               + " and ".join("+".join(x.symbol for x in g) for g in groups)
               + (f"; no other card can ({', '.join(x.symbol for x in others)} cannot), so {c.symbol} must be played."
                  if others else "."))
    return Solution(frozenset(str(x) for x in whole), why, len(whole) == 1, {str(x): 0 for x in whole})


def _solve_safest(p: Puzzle, rules: Rules) -> Solution:
    if rules.forced_tabbe and any(_takes_whole(c, p.table, rules) for c in p.hand):
        raise PuzzleError(f"puzzle {p.id}: tvångstabbe decides this hand; it is not a safest-card puzzle")
    moves = _proved_moves(p.hand, p.table, rules)
    cost: dict[Card, tuple[int, Move]] = {}
    for m in moves:
        c = _move_cost(m, p.table, rules)
        if m.card not in cost or c < cost[m.card][0]:
            cost[m.card] = (c, m)
    low = min(v for v, _ in cost.values())
    best = sorted(c for c, (v, _) in cost.items() if v == low)
    lines = []
    for c in sorted(cost, key=lambda x: (cost[x][0], x)):
        v, m = cost[c]
        what = "creeps" if m.capture is None else f"must take {'+'.join(x.symbol for x in m.capture)}"
        lines.append(f"{c.symbol} {what}: {v} point{'s' if v != 1 else ''}")
    head = (f"{best[0].symbol} is the safest card: it gives away {low} point{'s' if low != 1 else ''}."
            if len(best) == 1 else f"{' and '.join(c.symbol for c in best)} are equally safe ({low} points).")
    return Solution(frozenset(str(c) for c in best), head + " " + "; ".join(lines) + ".", len(best) == 1,
                    {str(c): v for c, (v, _) in cost.items()})


def _solve_setup(p: Puzzle, rules: Rules) -> Solution:
    if not rules.forced_tabbe or not p.next_hand:
        raise PuzzleError(f"puzzle {p.id}: set-up-dukning needs tvångstabbe and the next player's hand")
    moves = _proved_moves(p.hand, p.table, rules)
    right = []
    details: dict[str, Any] = {}
    for m in moves:
        after = table_after(p.table, m)
        takers = sorted({c for c in p.next_hand if _takes_whole(c, after, rules)})
        details[str(m)] = [str(c) for c in takers]
        if takers and after:
            right.append((m, after, takers))
    if not right:
        raise PuzzleError(f"puzzle {p.id}: no move sets up a tabbe for the next player")
    m, after, takers = right[0]
    others = [Move.parse(s) for s, t in details.items() if not t and s != str(m)]
    why = (f"{m.describe()} leaves {_cards_text(after)}, which the next player's "
           f"{' or '.join(c.symbol for c in takers)} must take whole (tvångstabbe): a tabbe for them and a dukning for you.")
    if len(right) > 1:
        why = "Several moves do it: " + "; ".join(f"{x.describe()} (for {'/'.join(c.symbol for c in t)})" for x, _, t in right) + "."
    elif others:
        why += " No other move does: " + ", ".join(o.describe() for o in others) + " leave a table they need not take."
    return Solution(frozenset(str(x) for x, _, _ in right), why, len(right) == 1, details)


def _solve_endgame(p: Puzzle, rules: Rules) -> Solution:
    from ..bots.endgame import endgame_line, solve_endgame

    if rules.players != 2:
        raise PuzzleError(f"puzzle {p.id}: endgame puzzles are for two players")
    if len(p.hand) not in (len(p.next_hand), len(p.next_hand) + 1):
        raise PuzzleError(f"puzzle {p.id}: you must hold as many cards as your opponent, or one more")
    _proved_moves(p.hand, p.table, rules)
    lc = {"you": "mover", "opponent": "other", None: None}[p.last_capturer]
    vals = solve_endgame(rules, p.hand, p.next_hand, p.table, kladda=p.kladda, last_capturer=lc)
    low = min(vals.values())
    best = sorted((m for m, v in vals.items() if v == low), key=str)
    line = endgame_line(rules, p.hand, p.next_hand, p.table, kladda=p.kladda, last_capturer=lc)
    who = ("you", "your opponent")
    played = "; ".join(f"{who[side]}: {m.describe()}" for side, m, _ in line)
    others = sorted(((v, m) for m, v in vals.items() if v != low), key=lambda x: (x[0], str(x[1])))
    why = (f"{best[0].describe()} ends the giv {low:+d} for you against your opponent with best play by both "
           f"({played}).")
    if len(best) > 1:
        why = (f"{' and '.join(m.describe() for m in best)} are equally good ({low:+d} for you against your "
               f"opponent).")
    if others:
        why += " Other first moves: " + "; ".join(f"{m.describe()} {v:+d}" for v, m in others) + "."
    return Solution(frozenset(str(m) for m in best), why, len(best) == 1, {str(m): v for m, v in vals.items()})


# --- answers ------------------------------------------------------------------------------

_UNIQUE = {"what-must-you-take": False, "which-card": True, "safest-card": True, "set-up-dukning": True,
           "endgame": True}


def _normalise(p: Puzzle, answer: Any) -> str:
    """An answer in the stored text form of its kind."""
    if p.kind == "what-must-you-take":
        if answer is None or (isinstance(answer, str) and answer.strip().lower() in ("", "creep", "nothing", "kryper")):
            return "creep"
        if isinstance(answer, Move):
            answer = answer.capture or ()
        elif isinstance(answer, str) and ":" in answer:
            answer = Move.parse(answer).capture or ()
        cards = parse_cards(answer) if isinstance(answer, str) else [Card(c) for c in answer]
        return _capture_text(cards) if cards else "creep"
    if p.kind in ("which-card", "safest-card"):
        if isinstance(answer, Move):
            return str(answer.card)
        if isinstance(answer, str) and ":" in answer:
            return str(Move.parse(answer).card)
        return str(Card(answer) if not isinstance(answer, str) else Card.parse(answer))
    move = answer if isinstance(answer, Move) else Move.parse(str(answer))
    return str(move)


def check_answer(p: Puzzle, answer: Any) -> tuple[bool, str]:
    """Is ``answer`` right? Returns ``(ok, explanation)``; a malformed answer is
    wrong, with a message that says how to write one.

    >>> p = Puzzle("d", "which-card", "easy", parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"))
    >>> check_answer(p, "10♠")[0], check_answer(p, "4H")[0]
    (True, False)
    """
    sol = solve(p)
    try:
        given = _normalise(p, answer)
    except (ValueError, MoveParseError) as e:
        return False, f"Not an answer to this puzzle ({e})."
    if given in sol.answers:
        return True, "Right! " + sol.explanation
    if p.kind == "endgame" and given in sol.options:
        return False, f"Not the best: {given} gives {sol.options[given]:+d}. " + sol.explanation
    if p.kind == "safest-card" and given in sol.options:
        return False, f"Not quite: {given} gives away {sol.options[given]} points. " + sol.explanation
    return False, "Not quite. " + sol.explanation


def verify(p: Puzzle) -> list[str]:
    """Problems with a puzzle: the solver cannot prove its stored answers, or the
    answer is not unique where the kind requires it. ``[]`` means it is sound."""
    try:
        sol = solve(p)
    except (PuzzleError, ValueError) as e:
        return [str(e)]
    problems = []
    if _UNIQUE[p.kind] and not sol.unique:
        problems.append(f"puzzle {p.id}: the answer is not unique ({', '.join(sorted(sol.answers))})")
    try:
        stored = {_normalise(p, a) for a in p.answers}
    except (ValueError, MoveParseError) as e:
        return problems + [f"puzzle {p.id}: a stored answer cannot be read ({e})"]
    if stored != set(sol.answers):
        problems.append(f"puzzle {p.id}: stored answers {sorted(stored)} but the solver proves {sorted(sol.answers)}")
    return problems


def check_puzzles(puzzles: Sequence[Puzzle]) -> tuple[Counter, list[str]]:
    """Re-prove every puzzle: ``(count per kind, problems)``; duplicate ids are a problem too."""
    counts: Counter = Counter()
    problems: list[str] = []
    ids = Counter(p.id for p in puzzles)
    problems += [f"puzzle id {i} is used {k} times" for i, k in ids.items() if k > 1]
    for p in puzzles:
        counts[p.kind] += 1
        problems += verify(p)
    return counts, problems


# --- files --------------------------------------------------------------------------------

def load_puzzles(path: str | Path | None = None) -> list[Puzzle]:
    """The shipped puzzles (``krypteach/data/puzzles.json``), or those of ``path``.

    A file that is not UTF-8 JSON of the puzzle format, or a puzzle with a missing
    or wrong field, is a :class:`PuzzleError` naming the file, the puzzle and the field.
    """
    if path is None:
        where = "the shipped puzzles"
        data = resources.files("krypteach").joinpath("data", "puzzles.json").read_bytes()
    else:
        where = str(path)
        data = Path(path).read_bytes()
    doc = parse_json(data, where, PuzzleError)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("puzzles"), list):
        raise PuzzleError(f"{where}: not a puzzle file: expected {{\"format\": \"{FORMAT}\", \"puzzles\": [...]}}")
    puzzles = []
    for i, d in enumerate(doc["puzzles"], start=1):
        pid = d.get("id") if isinstance(d, dict) else None
        label = f"puzzle {pid}" if isinstance(pid, str) and pid.strip() else f"puzzle number {i}"
        puzzles.append(Puzzle.from_dict(d, where=f"{where}: {label}"))
    return puzzles


def save_puzzles(puzzles: Sequence[Puzzle], path: "str | Path", **meta: Any) -> None:
    """Write puzzles as a JSON file (``meta`` goes into the header, e.g. the seed)."""
    data = {"format": FORMAT, **meta, "puzzles": [p.to_dict() for p in puzzles]}
    Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


# --- generating ---------------------------------------------------------------------------

_TABLE_DECK = [c for c in (Card(i) for i in range(52)) if not c.is_face] * 2
_DECK = [Card(i) for i in range(52)] * 2


def _draw(rng: random.Random, k: int, pool: list[Card], used: Counter) -> list[Card]:
    out: list[Card] = []
    while len(out) < k:
        c = rng.choice(pool)
        if used[c] < 2:
            used[c] += 1
            out.append(c)
    return out


def generate(kind: str, difficulty: str = "medium", rng: random.Random | None = None, *, rules: Rules | None = None,
             id: str | None = None, max_tries: int = 20000) -> Puzzle:
    """A new puzzle of ``kind`` and ``difficulty``, solved and checked (its
    ``answers`` are the solver's).

    >>> p = generate("which-card", "easy", random.Random(3))
    >>> p.kind, verify(p)
    ('which-card', [])
    """
    if kind not in KINDS:
        raise PuzzleError(f"unknown kind {kind!r}: choose one of {', '.join(KINDS)}")
    if difficulty not in DIFFICULTIES:
        raise PuzzleError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    rng = rng or random.Random()
    rules = rules or Rules()
    make = {"what-must-you-take": _gen_take, "which-card": _gen_which, "safest-card": _gen_safest,
            "set-up-dukning": _gen_setup, "endgame": _gen_endgame}[kind]
    level = DIFFICULTIES.index(difficulty)
    pid = id or f"{kind}-{difficulty}-{rng.getrandbits(24):06x}"
    for _ in range(max_tries):
        fields = make(rng, level, rules)
        if fields is None:
            continue
        p = Puzzle(pid, kind, difficulty, rules=rules, **fields)
        try:
            sol = solve(p)
        except PuzzleError:
            continue
        if _UNIQUE[kind] and not sol.unique:
            continue
        if not _fits(p, sol, level, rules):
            continue
        return Puzzle(pid, kind, difficulty, rules=rules, answers=tuple(sorted(sol.answers)), **fields)
    raise PuzzleError(f"could not generate a {difficulty} {kind} puzzle in {max_tries} tries")


def _fits(p: Puzzle, sol: Solution, level: int, rules: Rules) -> bool:
    """Difficulty checks that need the solution."""
    distinct = len(set(p.hand))
    if p.kind == "what-must-you-take":
        from ..engine.captures import split_into_traffar

        if "creep" in sol.answers:
            return False
        card = p.hand[0]
        caps = [parse_cards(a) for a in sol.answers]
        groups = max(len(split_into_traffar(card, c, rules) or []) for c in caps)
        left = len(p.table) - len(caps[0])
        if level == 0:
            return groups == 1 and left >= 1 and len(caps) == 1
        if level == 1:
            return groups >= 2 and left >= 1 and len(caps) == 1
        return groups >= 2 and left >= 1 and len(caps) <= 3 and (len(caps) > 1 or card.rank == 1 or groups >= 3)
    if p.kind == "safest-card":
        low = min(sol.options.values())
        best = next(iter(sol.answers))
        creeps = not legal_moves([Card.parse(best)], p.table, rules)[0].capture
        captures = sum(1 for c in dict.fromkeys(p.hand) if capture_options(c, p.table, rules))
        if distinct < 3:
            return False
        if level == 0:
            return creeps and sorted(sol.options.values())[1] >= 2
        if level == 1:
            return captures >= 3 and sorted(sol.options.values())[1] - low <= 2
        return not creeps and captures == len(set(p.hand))
    if p.kind == "which-card":
        return distinct >= 2
    if p.kind == "set-up-dukning":
        return len(legal_moves(p.hand, p.table, rules)) >= 2 + level
    if p.kind == "endgame":
        vals = sorted(set(sol.options.values()))
        return len(vals) >= 2 and len(sol.options) >= 2 + level
    return True


def _gen_take(rng: random.Random, level: int, rules: Rules) -> dict | None:
    used: Counter = Counter()
    size = rng.randint(*[(3, 4), (5, 6), (7, 9)][level])
    card = _draw(rng, 1, _TABLE_DECK if level < 2 else _DECK, used)
    if level == 2 and rng.random() < 0.35:
        card = [Card.make(1, rng.choice("SHDC"))]
        used = Counter(card)
    table = _draw(rng, size, _TABLE_DECK, used)
    return {"hand": tuple(card), "table": tuple(table)}


def _whole_table_for(rng: random.Random, card: Card, groups: int, used: Counter, rules: Rules) -> list[Card] | None:
    """A table that ``card`` takes whole, built from ``groups`` träffar."""
    target, lone_ace = _target(card, rules)
    table: list[Card] = []
    for _ in range(groups):
        if rng.random() < 0.3 and (target <= 10 or lone_ace):
            rank = 1 if lone_ace else target
            c = Card.make(rank, rng.choice("SHDC"))
            if used[c] >= 2:
                return None
            used[c] += 1
            table.append(c)
            continue
        parts = rng.choice([2, 2, 3])
        vals = []
        left = target
        for i in range(parts - 1):
            hi = min(10, left - (parts - 1 - i))
            if hi < 1:
                return None
            v = rng.randint(1, hi)
            vals.append(v)
            left -= v
        if not 1 <= left <= 10:
            return None
        vals.append(left)
        for v in vals:
            c = Card.make(v, rng.choice("SHDC"))
            if used[c] >= 2:
                return None
            used[c] += 1
            table.append(c)
    rng.shuffle(table)
    return table


def _gen_which(rng: random.Random, level: int, rules: Rules) -> dict | None:
    used: Counter = Counter()
    card = _draw(rng, 1, _DECK, used)[0]
    table = _whole_table_for(rng, card, [1, 2, rng.choice([2, 3])][level], used, rules)
    if not table or len(table) < 2:
        return None
    others = _draw(rng, [1, 3, 3][level], _DECK, used)
    hand = others + [card]
    rng.shuffle(hand)
    if level >= 1:
        # distractors: the other cards should have träffar too
        with_traff = sum(1 for c in others if capture_options(c, table, rules))
        if with_traff < level:
            return None
    return {"hand": tuple(hand), "table": tuple(table)}


def _gen_safest(rng: random.Random, level: int, rules: Rules) -> dict | None:
    used: Counter = Counter()
    table = _draw(rng, rng.randint(*[(3, 4), (4, 6), (5, 7)][level]), _TABLE_DECK, used)
    if sum(c.points for c in table) < 2 + level:
        return None
    hand = _draw(rng, [3, 4, 4][level], _DECK, used)
    if any(_takes_whole(c, table, rules) for c in hand):
        return None
    return {"hand": tuple(hand), "table": tuple(table)}


def _gen_setup(rng: random.Random, level: int, rules: Rules) -> dict | None:
    used: Counter = Counter()
    table = _draw(rng, rng.randint(*[(2, 3), (3, 4), (4, 5)][level]), _TABLE_DECK, used)
    hand = _draw(rng, [2, 3, 4][level], _DECK, used)
    nxt = _draw(rng, [1, 2, 3][level], _DECK, used)
    if any(_takes_whole(c, table, rules) for c in hand):
        return None
    return {"hand": tuple(hand), "table": tuple(table), "next_hand": tuple(nxt)}


def _gen_endgame(rng: random.Random, level: int, rules: Rules) -> dict | None:
    """A real last deal: careful bots play a giv up to the last utdelning."""
    from ..bots import make_bot
    from ..engine.game import Giv

    if rules.players != 2:
        return None
    g = Giv(rules, dealer=rng.randrange(2), seed=rng.getrandbits(64))
    bots = [make_bot("careful", seed=rng.getrandbits(32)) for _ in range(2)]
    cards_left = [2, 3, 4][level]
    while not g.is_over:
        if g.stock_size == 0 and len(g.hands[g.turn]) == cards_left and len(g.hands[1 - g.turn]) == cards_left:
            break
        g.play(bots[g.turn].choose(g.observation()))
    if g.is_over or not g.table:
        return None
    me = g.turn
    if level == 2:  # hard: the careful bot would not find the best move
        from ..bots.endgame import best_moves, solve_endgame

        lc = None if g.last_capturer is None else ("mover" if g.last_capturer == me else "other")
        vals = solve_endgame(rules, g.hands[me], g.hands[1 - me], g.table, kladda=g.kladda, last_capturer=lc)
        if bots[me].choose(g.observation()) in best_moves(vals):
            return None
    last = None if g.last_capturer is None else ("you" if g.last_capturer == me else "opponent")
    return {"hand": tuple(sorted(g.hands[me])), "table": tuple(g.table), "next_hand": tuple(sorted(g.hands[1 - me])),
            "kladda": tuple(g.kladda), "last_capturer": last}


def make_puzzle_set(seed: int = 2024, per: int = 5, rules: Rules | None = None) -> list[Puzzle]:
    """``per`` puzzles of every kind and difficulty, from a fixed seed (the shipped set
    is ``make_puzzle_set(2024, 5)``)."""
    rng = random.Random(seed)
    out = []
    for kind in KINDS:
        for diff in DIFFICULTIES:
            seen: set[tuple] = set()
            i = 0
            while i < per:
                p = generate(kind, diff, rng, rules=rules, id=f"{kind}-{diff}-{i + 1:02d}")
                key = (p.hand, p.table, p.next_hand)
                if key in seen:
                    continue
                seen.add(key)
                out.append(p)
                i += 1
    return out
