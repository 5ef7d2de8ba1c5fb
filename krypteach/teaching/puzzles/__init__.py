"""Capture puzzles: generated, solved and checked by the engine.

Five kinds of Krypkasino, and four build puzzles of classic Kasino and avig kasino
(:mod:`.kasino`, shipped apart: ``load_puzzles(game="kasino")``), each with a precise question and a solver that *proves* the answer
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
    No card of ``hand`` takes the whole ``table``. Which card gives you the
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
    and ``last_capturer`` says who captured last (``0`` you, ``1`` your opponent,
    or ``None``). You move. Which first move gives the lowest final score for you
    *against* your opponent (your points minus theirs from here on: card points,
    tabbe marks, dukningar and the last capturer's sweep), when both play their
    best? Solved exactly by searching every line; the best first move must be
    unique.

>>> from krypteach import parse_cards
>>> p = Puzzle("demo", "what-must-you-take", "easy", parse_cards("9H"), parse_cards("9S 2C 5D 7H"))
>>> sorted(solve(p).answers)
['2C+7H+9S']
>>> check_answer(p, "9S")[0]
False
>>> len(load_puzzles()) >= 60
True
"""

from .generate import generate, make_puzzle_set
from .kasino import kasino_values, make_kasino_set
from .model import (
    ALL_KINDS,
    DIFFICULTIES,
    FORMAT,
    KASINO_KINDS,
    KINDS,
    Puzzle,
    PuzzleError,
    Solution,
    load_puzzles,
    save_puzzles,
    shipped_puzzles,
)
from .prove import Judgement, check_answer, check_puzzles, judge, solve, verify

__all__ = [
    "KINDS", "DIFFICULTIES", "FORMAT", "Puzzle", "Solution", "PuzzleError", "generate", "solve", "check_answer", "judge", "Judgement",
    "verify", "check_puzzles", "load_puzzles", "save_puzzles", "shipped_puzzles", "make_puzzle_set",
    "KASINO_KINDS", "ALL_KINDS", "make_kasino_set", "kasino_values",
]
