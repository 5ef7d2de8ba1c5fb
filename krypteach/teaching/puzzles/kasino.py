"""Build puzzles of classic Kasino (``Rules(game="kasino")``) and avig kasino: solved and proved.

Four kinds; you are seat 0, your opponent seat 1, and a build's owner is written
``@0`` (yours) or ``@1`` (your opponent's) in its text form ``[9:4S+5H@0]``:

``kasino-safe-build``
    You hold ``hand``, your opponent ``next_hand`` (shown). Of the builds you can
    make, which one can your opponent neither take nor build on, so that it is
    yours to take next turn? Exactly one is safe.
``kasino-steal``
    The same position, the other question: which of the builds you can make could
    your opponent steal (take it, or build on it and so own it)? Exactly one could.
``kasino-take-or-raise``
    You own a build and must take it or build on it this turn (the owner's duty).
    The last cards of the giv, every card known: which move gives the best result
    from here on, both playing their best? Solved exactly; unique.
``kasino-endgame``
    The last cards of a giv (classic Kasino, or avig kasino with its forced
    capture and tvångstabbe), every card known, builds on the table or to be made.
    Which first move gives the best result from here on? Unique.

"From here on" counts the points in the cards each side takes from now (storan 2,
lillan 1, each ace 1), the tabbar, and sistan (the last capturer takes what is left
and one point); most cards and most spades are left out, since they depend on the
piles taken before. Classic Kasino wants the most points against the opponent, avig
kasino (lowest wins) the fewest.

Every position's legal moves come from the engine
(:func:`krypteach.engine.builds.kasino_legal_moves`) and are checked against the
naive brute force of :func:`krypteach.engine.reference.kasino_legal_moves`, at the
puzzle's position and at every position the search reaches. The brute force costs most of a
search's time (kasino-take-or-raise-hard-01: 13.5 s with it, 0.57 s without), so a page that
checks a learner's answer to a puzzle already proved searches with the engine's moves alone
beyond the puzzle's own position (``full_proof=False``); the tests, and every puzzle made,
prove every position.

>>> from krypteach import Rules, parse_cards
>>> from krypteach.engine.builds import parse_table
>>> from krypteach.teaching.puzzles import Puzzle, solve
>>> p = Puzzle("d", "kasino-safe-build", "easy", parse_cards("AH 3H 6S"), parse_table("3S 4C JS"),
...            next_hand=parse_cards("3D AD 2C"), rules=Rules(game="kasino"))
>>> sorted(solve(p).answers)
['3H>6:3S']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import Any

from ...engine import reference
from ...engine.builds import Build, kasino_legal_moves, kasino_table_after
from ...engine.cards import Card
from ...engine.game import Giv, PositionError
from ...engine.games import game_of
from ...engine.moves import Move
from ...engine.rules import Rules
from ...i18n import N_, NN_, _, ngettext
from .base import PROMPTS, Solution, generate_with

__all__ = ["KASINO_KINDS", "kasino_proved_moves", "kasino_table_text", "solve_kasino", "kasino_values",
           "resolve_selection", "kasino_prompt", "kasino_result_words"]

KASINO_KINDS = ("kasino-safe-build", "kasino-steal", "kasino-take-or-raise", "kasino-endgame")


def _error() -> type[ValueError]:
    from .base import PuzzleError

    return PuzzleError


# --- the table and moves, checked against the reference -------------------------------------

def _ref_table(table: Sequence[Card | Build]) -> list[reference.RefItem]:
    return [(x.value, tuple(str(c) for c in x.cards), x.owner) if isinstance(x, Build) else str(x) for x in table]


def _ref_move(m: Move) -> reference.RefMove:
    if m.value is not None:
        return ("build", str(m.card), tuple(str(c) for c in m.capture or ()), m.value)
    if m.capture is None:
        return ("trail", str(m.card))
    return ("capture", str(m.card), tuple(str(c) for c in m.capture))


def kasino_proved_moves(hand: Sequence[Card], table: Sequence[Card | Build], rules: Rules, player: int) -> list[Move]:
    """The engine's legal moves for ``player``, checked against the brute-force reference;
    a disagreement is a ``PuzzleError``.

    >>> from krypteach import parse_cards
    >>> [str(m) for m in kasino_proved_moves(parse_cards("5H 9D"), parse_cards("4S"), Rules(game="kasino"), 0)]
    ['5H>9:4S', '5H', '9D']
    """
    engine = kasino_legal_moves(hand, table, rules, player)
    ref = reference.kasino_legal_moves(
        [str(c) for c in hand], _ref_table(table), player, capture=rules.capture, ace=rules.ace,
        forced_tabbe=rules.forced_tabbe, multiple_builds=rules.multiple_builds, owner_duty=rules.owner_duty,
        face=rules.face_cards, raise_gathers=rules.raise_gathers, lone_ace_builds=rules.lone_ace_builds)
    if {_ref_move(m) for m in engine} != ref:
        raise _error()(f"the engine and the reference rules disagree on the legal Kasino moves for hand "
                       f"{' '.join(map(str, hand))} at table {' '.join(map(str, table))}")
    return engine


def kasino_table_text(table: Sequence[Card | Build]) -> str:
    """A table in cards and words: loose cards as symbols, builds with their value and owner.

    >>> from krypteach.engine.builds import parse_table
    >>> kasino_table_text(parse_table("7C [9:4S+5H@0] [8:3D+5C@1]"))
    "7♣, [9: 4♠+5♥] (yours), [8: 3♦+5♣] (your opponent's)"
    """
    if not table:
        return _("empty")
    parts = []
    for x in table:
        if isinstance(x, Build):
            owner = _("yours") if x.owner == 0 else _("your opponent's")
            parts.append(_("{build} ({owner})").format(build=x.symbol, owner=owner))
        else:
            parts.append(x.symbol)
    return ", ".join(parts)


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in cards)  # a hand is never empty (prove.check_cards, _check_kasino)


def _result_rule(rules: Rules) -> str:
    if rules.lowest_wins:
        return _("Avig kasino: the lowest score wins; a card that can take must take all it can, and tvångstabbe.")
    return _("Classic Kasino: the highest score wins.")


def kasino_prompt(p: Any) -> str:
    """The question of a Kasino puzzle, in words."""
    hand, table, other = _cards_text(p.hand), kasino_table_text(p.table), _cards_text(p.next_hand)
    if p.kind in ("kasino-safe-build", "kasino-steal"):
        head = _("Classic Kasino. Your hand: {hand}. The table: {table}. Your opponent holds {other} (shown).").format(
            hand=hand, table=table, other=other)
        if p.kind == "kasino-safe-build":
            return head + " " + _("Which build can you make that your opponent can neither take nor build on, "
                                  "so that it is yours to take next turn?")
        return head + " " + _("Of the builds you can make, which one could your opponent steal "
                              "(take it, or build on it)?")
    last = {0: _("you"), 1: _("your opponent"), None: _("nobody yet")}[p.last_capturer]
    head = _("The last cards of the giv, every card known. Your hand: {hand}. Your opponent's hand: {other}. "
             "The table: {table}. Last capturer: {last}. You play first.").format(
        hand=hand, other=other, table=table, last=last)
    if p.kind == "kasino-take-or-raise":
        head += " " + _("You own a build: this turn you must take it or build on it (raise it).")
    count = _("Count the points each of you takes from here: stora kasino 2, lilla kasino 1, each ace 1, each tabbe 1 and "
              "sistan 1 (most cards and most spades are left out).")
    if p.rules.lowest_wins:
        ask = _("Which move gives you the fewest points against your opponent, both playing their best?")
    else:
        ask = _("Which move gives you the most points against your opponent, both playing their best?")
    return " ".join((_result_rule(p.rules), head, count, ask))



PROMPTS.update(dict.fromkeys(KASINO_KINDS, kasino_prompt))

#: (frame, the sign of the points) -> the whole sentence (singular and plural where it counts points)
_RESULT_WORDS: dict[tuple[str, int], str | tuple[str, str]] = {
    ("best", 1): NN_("With the best play from both of you, after {move}, you take {n} point more than your "
                     "opponent.",
                     "With the best play from both of you, after {move}, you take {n} points more than your "
                     "opponent."),
    ("best", -1): NN_("With the best play from both of you, after {move}, you take {n} point fewer than your "
                      "opponent.",
                      "With the best play from both of you, after {move}, you take {n} points fewer than your "
                      "opponent."),
    ("best", 0): N_("With the best play from both of you, after {move}, you take as many points as your opponent."),
    ("tied", 1): NN_("{moves} are equally good: with the best play from both of you, you take {n} point more "
                     "than your opponent.",
                     "{moves} are equally good: with the best play from both of you, you take {n} points more "
                     "than your opponent."),
    ("tied", -1): NN_("{moves} are equally good: with the best play from both of you, you take {n} point fewer "
                      "than your opponent.",
                      "{moves} are equally good: with the best play from both of you, you take {n} points fewer "
                      "than your opponent."),
    ("tied", 0): N_("{moves} are equally good: with the best play from both of you, you take as many points as "
                    "your opponent."),
    ("not-best", 1): NN_("Not the best: after {move}, you take {n} point more than your opponent.",
                         "Not the best: after {move}, you take {n} points more than your opponent."),
    ("not-best", -1): NN_("Not the best: after {move}, you take {n} point fewer than your opponent.",
                          "Not the best: after {move}, you take {n} points fewer than your opponent."),
    ("not-best", 0): N_("Not the best: after {move}, you take as many points as your opponent."),
    # i18n: one item of the list "Other first moves: …; …"
    ("after", 1): NN_("after {move}, you take {n} point more than your opponent",
                      "after {move}, you take {n} points more than your opponent"),
    # i18n: one item of the list "Other first moves: …; …"
    ("after", -1): NN_("after {move}, you take {n} point fewer than your opponent",
                       "after {move}, you take {n} points fewer than your opponent"),
    # i18n: one item of the list "Other first moves: …; …"
    ("after", 0): N_("after {move}, you take as many points as your opponent"),
}


def kasino_result_words(points: int, frame: str, **places: str) -> str:
    """Your points minus your opponent's from here, as one whole sentence.

    ``frame`` is where the result stands, with its named places: ``"best"`` (``move``: the
    one best move), ``"tied"`` (``moves``: several equally good), ``"after"`` (``move``: one
    of the other first moves, a piece of a list), ``"not-best"`` (``move``: the learner's).
    Each is a whole message, so that the translator sees the sentence the learner reads
    (Swedish puts the verb second: "efter 9♥ tar 9♠ tar du 2 poäng mer …").

    >>> kasino_result_words(2, "after", move="9♥ takes 9♠")
    'after 9♥ takes 9♠, you take 2 points more than your opponent'
    >>> kasino_result_words(-1, "not-best", move="5♦ trails")
    'Not the best: after 5♦ trails, you take 1 point fewer than your opponent.'
    >>> kasino_result_words(0, "tied", moves="A and B")
    'A and B are equally good: with the best play from both of you, you take as many points as your opponent.'
    """
    words = _RESULT_WORDS.get((frame, (points > 0) - (points < 0)))
    if words is None:
        raise ValueError(f"kasino_result_words: no frame {frame!r}")
    n = abs(points)
    text = ngettext(words[0], words[1], n) if isinstance(words, tuple) else _(words)
    return text.format(n=n, **places)


# --- solving --------------------------------------------------------------------------------

def _check_kasino(p: Any) -> None:
    err = _error()
    if not game_of(p.rules).has_builds:
        raise err(f"puzzle {p.id}: {p.kind} needs classic Kasino rules (game='kasino')")
    if p.rules.players != 2:
        raise err(f"puzzle {p.id}: Kasino puzzles are for two players")
    if not p.next_hand:
        raise err(f"puzzle {p.id}: the opponent's hand (next_hand) is needed")
    try:
        Giv.from_position([p.hand, p.next_hand], p.table, rules=p.rules, turn=0)
    except (PositionError, ValueError) as e:
        raise err(f"puzzle {p.id}: {e}") from None


def _build_safety(p: Any) -> dict[Move, list[Move]]:
    """Each build move you can make, and your opponent's replies that steal it."""
    out: dict[Move, list[Move]] = {}
    for m in kasino_proved_moves(p.hand, p.table, p.rules, 0):
        if m.value is None:
            continue
        after = kasino_table_after(p.table, m, 0)
        first = after[-1].cards[0]
        out[m] = [r for r in kasino_proved_moves(p.next_hand, after, p.rules, 1)
                  if r.capture is not None and first in r.capture]
    return out


def _solve_builds(p: Any) -> Solution:
    safety = _build_safety(p)
    if len(safety) < 2:
        raise _error()(f"puzzle {p.id}: {p.kind} needs at least two builds to choose from")
    safe = [m for m, s in safety.items() if not s]
    stolen = [m for m, s in safety.items() if s]
    lines = []
    for m in sorted(safety, key=lambda m: (m.card, m.value, m.capture)):  # by the card played, then the value
        if safety[m]:
            lines.append(_("If {build}, your opponent can steal it: {reply}.").format(
                build=m.describe(), reply=safety[m][0].describe()))
        else:
            lines.append(_("If {build}, it is safe: nothing your opponent holds takes it or builds on it, "
                           "and you take it next turn.").format(build=m.describe()))
    answers = safe if p.kind == "kasino-safe-build" else stolen
    if not answers:
        raise _error()(f"puzzle {p.id}: no build fits the question")
    why = " ".join(lines)
    return Solution(frozenset(str(m) for m in answers), why, len(answers) == 1,
                    {str(m): [str(r) for r in s] for m, s in safety.items()})


def _pile_points(g: Giv) -> tuple[int, ...]:
    return g.game.points_so_far(g.piles, g.marks, g.dukningar)


def kasino_values(rules: Rules, hand: Sequence[Card], next_hand: Sequence[Card], table: Sequence[Card | Build],
                  last_capturer: int | None = None, *, full_proof: bool = True) -> dict[Move, int]:
    """Every first move of seat 0 and its exact value with both sides playing their best:
    seat 0's points minus seat 1's from here (card points, tabbar, sistan). Seat 0
    maximizes it in classic Kasino and minimizes it in avig kasino (``lowest_wins``).

    >>> from krypteach import parse_cards
    >>> from krypteach.engine.builds import parse_table
    >>> v = kasino_values(Rules(game="kasino"), parse_cards("9D 3C QH"), parse_cards("AH 2C QS"),
    ...                   parse_table("[9:4S+5H@0]"))
    >>> {str(m): x for m, x in v.items()}
    {'9D:4S+5H': -1, '3C>12:4S+5H': -3}
    """
    items: Any = list(table)  # from_position reads builds on a Kasino table
    g = Giv.from_position([hand, next_hand], items, rules=rules, turn=0)
    g.last_capturer = last_capturer
    memo: dict[tuple[tuple[tuple[Card, ...], ...], tuple[Card | Build, ...], int, int | None], int] = {}
    low = rules.lowest_wins

    def moves(hand: Sequence[Card], table: Sequence[Card | Build], player: int) -> list[Move]:
        if full_proof:
            return kasino_proved_moves(hand, table, rules, player)
        return list(kasino_legal_moves(hand, table, rules, player))

    def value() -> int:
        if g.is_over:
            if g.last_capturer is None:
                return 0
            return rules.last_capture_point * (1 if g.last_capturer == 0 else -1)
        key = (tuple(tuple(sorted(h)) for h in g.hands), tuple(g.table), g.turn, g.last_capturer)
        if key in memo:
            return memo[key]
        vals = [child(m) for m in moves(g.hands[g.turn], g.table, g.turn)]
        best = (max if (g.turn == 0) != low else min)(vals)
        memo[key] = best
        return best

    def child(m: Move) -> int:
        before = _pile_points(g)
        g.push(m)
        after = _pile_points(g)
        v = (after[0] - before[0]) - (after[1] - before[1]) + value()
        g.pop()
        return v

    return {m: child(m) for m in kasino_proved_moves(g.hands[0], g.table, rules, 0)}


def _solve_search(p: Any, full_proof: bool) -> Solution:
    # (the hands' sizes are the position's own check: _check_kasino)
    if p.kind == "kasino-take-or-raise":
        mine = [x for x in p.table if isinstance(x, Build) and x.owner == 0]
        if not mine:
            raise _error()(f"puzzle {p.id}: kasino-take-or-raise needs a build of yours on the table")
    vals = kasino_values(p.rules, p.hand, p.next_hand, p.table, p.last_capturer, full_proof=full_proof)
    pick = min if p.rules.lowest_wins else max
    best_v = pick(vals.values())
    best = sorted((m for m, v in vals.items() if v == best_v), key=str)
    others = sorted(((v, m) for m, v in vals.items() if v != best_v), key=lambda x: (x[0], str(x[1])),
                    reverse=not p.rules.lowest_wins)
    if len(best) == 1:
        why = kasino_result_words(best_v, "best", move=best[0].describe())
    else:
        why = kasino_result_words(best_v, "tied", moves=_(" and ").join(m.describe() for m in best))
    if others:
        why += " " + _("Other first moves: {moves}.").format(moves="; ".join(
            kasino_result_words(v, "after", move=m.describe()) for v, m in others))
    return Solution(frozenset(str(m) for m in best), why, len(best) == 1, {str(m): v for m, v in vals.items()})


def solve_kasino(p: Any, full_proof: bool = True) -> Solution:
    """Solve a Kasino puzzle (see the module docstring); raises ``PuzzleError`` if malformed.
    ``full_proof=False``: the search checks the legal moves against the brute force at the puzzle's
    position only."""
    _check_kasino(p)
    if p.kind in ("kasino-safe-build", "kasino-steal"):
        return _solve_builds(p)
    return _solve_search(p, full_proof)


def resolve_selection(p: Any, answer: Any) -> list[str]:
    """The legal moves (as text) that an answer stands for. A move's text form is itself;
    a selection (a hand card and the table cards it takes, as a :class:`Move` without a
    value, or ``"9D:4S+5H"``) stands for every legal move of that card with those cards:
    a capture, or a build or raise on them.

    >>> from krypteach import parse_cards
    >>> from krypteach.engine.builds import parse_table
    >>> from krypteach.teaching.puzzles import Puzzle
    >>> p = Puzzle("d", "kasino-safe-build", "easy", parse_cards("AH 3H 6S"), parse_table("3S 4C JS"),
    ...            next_hand=parse_cards("3D AD 2C"), rules=Rules(game="kasino"))
    >>> resolve_selection(p, Move(Card("3H"), [Card("3S")]))
    ['3H:3S', '3H>6:3S']
    """
    move = answer if isinstance(answer, Move) else Move.parse(str(answer))
    if move.value is not None or move.capture is None:
        return [str(move)]
    legal = kasino_proved_moves(p.hand, p.table, p.rules, 0)
    same = [m for m in legal if m.card == move.card and m.capture is not None
            and sorted(m.capture) == sorted(move.capture)]
    return [str(m) for m in same] or [str(move)]


# --- generating -----------------------------------------------------------------------------

def _deck() -> list[Card]:
    return [Card.make(r, s) for r in range(1, 14) for s in "SHDC"]


def _draw(rng: random.Random, n: int, pool: list[Card]) -> list[Card]:
    out = rng.sample(pool, n)
    for c in out:
        pool.remove(c)
    return out


def _position(kind: str, level: int, rng: Any) -> dict[str, object] | None:
    pool = _deck()
    if kind in ("kasino-safe-build", "kasino-steal"):
        n = 4 if level else 3
        hand, other = _draw(rng, n, pool), _draw(rng, n, pool)
        table: list[Card | Build] = list(_draw(rng, rng.randint(2, 3 + level), pool))
        return {"hand": hand, "next_hand": other, "table": table}
    if kind == "kasino-take-or-raise":
        v = rng.randint(5, 11)
        low = [c for c in pool if c.rank < v]  # the deck is whole: each has a partner of rank v - rank
        a = rng.choice(low)
        b = rng.choice([d for d in pool if d.rank == v - a.rank and d != a])
        for c in (a, b):
            pool.remove(c)
        take = rng.choice([c for c in pool if c.rank == v])
        pool.remove(take)
        r = rng.randint(1, 13 - v)
        raise_card = rng.choice([c for c in pool if c.rank == r])
        pool.remove(raise_card)
        w = rng.choice([c for c in pool if c.rank == v + r])
        pool.remove(w)
        hand = [take, raise_card, w] + _draw(rng, level // 2, pool)
        other = _draw(rng, len(hand) - rng.randint(0, 1), pool)
        table = [Build(v, (a, b), 0), *_draw(rng, rng.randint(1, 1 + level), pool)]
        rng.shuffle(hand)
        return {"hand": hand, "next_hand": other, "table": table, "last_capturer": rng.choice([0, 1])}
    n = 2 if level == 0 else 3
    hand = _draw(rng, n, pool)
    other = _draw(rng, n - rng.randint(0, 1), pool)
    table = list(_draw(rng, rng.randint(2, 2 + level), pool))
    if rng.random() < 0.5:  # your opponent's build, with the card to take it
        v = rng.randint(5, 12)
        pairs = [(x, y) for x in pool for y in pool if x < y and x.rank + y.rank == v]
        takers = [c for c in other if c.rank == v]
        if pairs and takers:
            x, y = rng.choice(pairs)
            table.append(Build(v, (x, y), 1))
    return {"hand": hand, "next_hand": other, "table": table, "last_capturer": rng.choice([0, 1])}


def _fits(p: Any, sol: Any, level: int) -> bool:
    """Difficulty checks that need the solution (every Kasino kind wants a unique answer)."""
    if p.kind in ("kasino-safe-build", "kasino-steal"):
        builds = len(sol.options)
        return builds == 2 + level if level < 2 else builds >= 4
    vals = sorted(set(sol.options.values()))
    if len(vals) < 2:
        return False
    legal = kasino_proved_moves(p.hand, p.table, p.rules, 0)
    if p.kind == "kasino-take-or-raise":
        mine = next(x for x in p.table if isinstance(x, Build) and x.owner == 0)
        holding = [m for m in legal if set(mine.cards) <= set(m.capture or ())]  # moves that hold all of it
        return any(m.value is None for m in holding) and any(m.value is not None for m in holding)
    has_build = any(isinstance(x, Build) for x in p.table) or any(m.value is not None for m in legal)
    return has_build and len(legal) >= 2 + level


def generate_kasino(kind: str, difficulty: str, rng: Any, rules: Rules, pid: str, max_tries: int = 5000) -> Any:
    """A new Kasino puzzle of ``kind``, solved and checked (its ``answers`` are the solver's)."""
    from .model import DIFFICULTIES, Puzzle

    level = DIFFICULTIES.index(difficulty)
    return generate_with(kind, difficulty, lambda: _position(kind, level, rng),
                         partial(Puzzle, pid, kind, difficulty, rules=rules), solve_kasino,
                         lambda p, sol: _fits(p, sol, level), unique=True, max_tries=max_tries)


#: the shipped set: (kind, rules preset, difficulty, how many)
KASINO_SET = (
    ("kasino-safe-build", "kasino", "easy", 2), ("kasino-safe-build", "kasino", "medium", 2),
    ("kasino-safe-build", "kasino", "hard", 2),
    ("kasino-steal", "kasino", "easy", 2), ("kasino-steal", "kasino", "medium", 2),
    ("kasino-take-or-raise", "kasino", "easy", 2), ("kasino-take-or-raise", "kasino", "medium", 2),
    ("kasino-take-or-raise", "kasino", "hard", 1),
    ("kasino-endgame", "kasino", "easy", 2), ("kasino-endgame", "kasino", "medium", 2),
    ("kasino-endgame", "avig-kasino", "easy", 2), ("kasino-endgame", "avig-kasino", "medium", 2),
    ("kasino-endgame", "avig-kasino", "hard", 1),
)


def make_kasino_set(seed: int = 2026) -> list[Any]:
    """The shipped build puzzles (``krypteach/data/kasino_puzzles.json`` is ``make_kasino_set(2026)``)."""
    rng = random.Random(seed)
    out = []
    for kind, preset, diff, count in KASINO_SET:
        rules = Rules.preset(preset)
        seen: set[tuple[tuple[Card, ...], tuple[Card | Build, ...], tuple[Card, ...]]] = set()
        i = 0
        while i < count:
            tag = "avig-" if preset != "kasino" else ""
            p = generate_kasino(kind, diff, rng, rules, f"{kind}-{tag}{diff}-{i + 1:02d}")
            key = (p.hand, p.table, p.next_hand)
            if key in seen:
                continue
            seen.add(key)
            out.append(p)
            i += 1
    return out
