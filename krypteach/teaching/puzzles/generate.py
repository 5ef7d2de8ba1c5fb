"""Generating puzzles of a kind and difficulty: random positions, kept only when the
solver proves them and they fit the difficulty."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

from ...bots import make_bot
from ...bots.endgame import best_moves, solve_endgame
from ...engine.captures import capture_options, split_into_traffar
from ...engine.cards import Card, parse_cards
from ...engine.game import Giv
from ...engine.moves import legal_moves
from ...engine.rules import Rules
from ..positions import DECK, TABLE_DECK, draw, whole_table_for
from .base import generate_with
from .model import DIFFICULTIES, KINDS, Puzzle, PuzzleError, Solution
from .prove import UNIQUE_ANSWER, kladda_decides, solve, takes_whole

__all__ = ["generate", "make_puzzle_set"]


def generate(kind: str, difficulty: str = "medium", rng: random.Random | None = None, *, rules: Rules | None = None,
             id: str | None = None, max_tries: int = 20000, kladda: bool = False) -> Puzzle:
    """A new puzzle of ``kind`` and ``difficulty``, solved and checked (its
    ``answers`` are the solver's). ``kladda``: an endgame whose best move klädda högen decides
    (:func:`~krypteach.teaching.puzzles.prove.kladda_decides`: about one last deal in ten).

    >>> from krypteach.teaching.puzzles import verify
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
    if kladda and kind != "endgame":
        raise PuzzleError(f"only an endgame can be made for klädda högen, not {kind!r}")
    level = DIFFICULTIES.index(difficulty)
    pid = id or f"{kind}-{difficulty}-{rng.getrandbits(24):06x}"
    return generate_with(kind, difficulty, lambda: make(rng, level, rules),
                         partial(Puzzle, pid, kind, difficulty, rules=rules), solve,
                         lambda p, sol: _fits(p, sol, level, rules) and (not kladda or kladda_decides(p)),
                         unique=UNIQUE_ANSWER[kind], max_tries=max_tries)


def _fits(p: Puzzle, sol: Solution, level: int, rules: Rules) -> bool:
    """Difficulty checks that need the solution."""
    distinct = len(set(p.hand))
    if p.kind == "what-must-you-take":
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


def _gen_take(rng: random.Random, level: int, rules: Rules) -> dict[str, object] | None:
    used: Counter[Card] = Counter()
    size = rng.randint(*[(3, 4), (5, 6), (7, 9)][level])
    card = draw(rng, 1, TABLE_DECK if level < 2 else DECK, used)
    if level == 2 and rng.random() < 0.35:
        card = [Card.make(1, rng.choice("SHDC"))]
        used = Counter(card)
    table = draw(rng, size, TABLE_DECK, used)
    return {"hand": tuple(card), "table": tuple(table)}


def _gen_which(rng: random.Random, level: int, rules: Rules) -> dict[str, object] | None:
    used: Counter[Card] = Counter()
    card = draw(rng, 1, DECK, used)[0]
    table = whole_table_for(rng, card, [1, 2, rng.choice([2, 3])][level], used, rules)
    if not table or len(table) < 2:
        return None
    others = draw(rng, [1, 3, 3][level], DECK, used)
    hand = others + [card]
    rng.shuffle(hand)
    if level >= 1:
        # distractors: the other cards should have träffar too
        with_traff = sum(1 for c in others if capture_options(c, table, rules))
        if with_traff < level:
            return None
    return {"hand": tuple(hand), "table": tuple(table)}


def _gen_safest(rng: random.Random, level: int, rules: Rules) -> dict[str, object] | None:
    used: Counter[Card] = Counter()
    table = draw(rng, rng.randint(*[(3, 4), (4, 6), (5, 7)][level]), TABLE_DECK, used)
    if sum(c.points for c in table) < 2 + level:
        return None
    hand = draw(rng, [3, 4, 4][level], DECK, used)
    if any(takes_whole(c, table, rules) for c in hand):
        return None
    return {"hand": tuple(hand), "table": tuple(table)}


def _gen_setup(rng: random.Random, level: int, rules: Rules) -> dict[str, object] | None:
    used: Counter[Card] = Counter()
    table = draw(rng, rng.randint(*[(2, 3), (3, 4), (4, 5)][level]), TABLE_DECK, used)
    hand = draw(rng, [2, 3, 4][level], DECK, used)
    nxt = draw(rng, [1, 2, 3][level], DECK, used)
    if any(takes_whole(c, table, rules) for c in hand):
        return None
    return {"hand": tuple(hand), "table": tuple(table), "next_hand": tuple(nxt)}


def _gen_endgame(rng: random.Random, level: int, rules: Rules) -> dict[str, object] | None:
    """A real last deal: careful bots play a giv up to the last utdelning."""

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
        lc = None if g.last_capturer is None else int(g.last_capturer != me)
        vals = solve_endgame(rules, g.hands[me], g.hands[1 - me], g.table, kladda=g.kladda, last_capturer=lc)
        if bots[me].choose(g.observation()) in best_moves(vals):
            return None
    last = None if g.last_capturer is None else int(g.last_capturer != me)  # 0 you, 1 your opponent
    return {"hand": tuple(sorted(g.hands[me])), "table": tuple(g.table), "next_hand": tuple(sorted(g.hands[1 - me])),
            "kladda": tuple(g.kladda), "last_capturer": last}


def make_puzzle_set(seed: int = 2024, per: int = 5, rules: Rules | None = None) -> list[Puzzle]:
    """``per`` puzzles of every kind and difficulty, from a fixed seed (the shipped set
    is ``make_puzzle_set(2024, 5)``)."""
    rng = random.Random(seed)
    out = []
    for kind in KINDS:
        for diff in DIFFICULTIES:
            seen: set[tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]] = set()
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
