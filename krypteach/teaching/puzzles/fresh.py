"""Puzzles without end (issue 23): new puzzles of every kind made on demand, each proved by
the solver before it is shown, each named by an id it can be made again from, each tagged
with the rules it trains, and each with a first guess at its rating.

A generated puzzle's id says how to make it again, ``gen/<preset>/<kind>/<difficulty>/<n>``:
the generator is seeded by the id alone, so a page, the server and the teacher's page that
see the id all see the same puzzle (:func:`puzzle_from_id`), and nothing but the id needs to
be kept. The shipped puzzles stay the seed of the stock and the lessons' own.

>>> p = fresh_puzzle("which-card", "easy", 7)
>>> p.id, puzzle_from_id(p.id) == p, themes_of(p)
('gen/krypkasino/which-card/easy/7', True, ('tvangstabbe',))
"""

from __future__ import annotations

import functools
import json
import random
from importlib import resources

from ...engine.builds import Build
from ...engine.captures import split_into_traffar
from ...engine.cards import parse_cards
from ...engine.rules import Rules
from ...i18n import N_
from .base import PuzzleError
from .generate import generate
from .kasino import generate_kasino
from .model import DIFFICULTIES, KASINO_KINDS, KINDS, Puzzle, shipped_puzzles
from .prove import kladda_decides, needs_tvangstabbe

__all__ = ["FRESH", "MADE_AS", "THEMES", "THEME_WORDS", "KIND_THEMES", "fresh_puzzle", "made_by", "offered_themes",
           "puzzle_from_id", "themes_of", "estimated_rating", "first_guess", "is_generated", "shipped_themes_found",
           "write_shipped_themes"]

#: what can be made on demand: (rules preset, kind, difficulty). Krypkasino's five kinds at every
#: level, its endgames made for klädda högen (:data:`MADE_AS`) at every level, and classic Kasino's and avig kasino's four where one is found in well under a second
#: (``python benchmarks/fresh_puzzles.py``): a hard take-or-raise took 29 s and a medium classic
#: Kasino endgame 3 to 16 s to find, so those come from the shipped set only; a hard steal and a
#: hard classic endgame are not made by the position generator at all
FRESH: tuple[tuple[str, str, str], ...] = (
    *(("krypkasino", kind, d) for kind in KINDS for d in DIFFICULTIES),
    *(("krypkasino", "endgame-kladda", d) for d in DIFFICULTIES),
    *(("kasino", "kasino-safe-build", d) for d in DIFFICULTIES),
    *(("kasino", "kasino-steal", d) for d in ("easy", "medium")),
    *(("kasino", "kasino-take-or-raise", d) for d in ("easy", "medium")),
    *(("kasino", "kasino-endgame", d) for d in ("easy",)),
    *(("avig-kasino", "kasino-endgame", d) for d in DIFFICULTIES),
)

#: what a generator that is not a kind of its own makes: *endgame-kladda* is an endgame whose best
#: move klädda högen decides (in most last deals klädda högen changes nothing: :func:`themes_of`)
MADE_AS = {"endgame-kladda": "endgame"}

#: the themes a puzzle trains: the rules behind it (the engine's rule keys where there is one:
#: ``take-all``, ``tvangstabbe``, ``build-owner-must-act`` as ``owner-duty``), in the order the
#: trainer lists them
THEMES = ("take-all", "traffar", "tvangstabbe", "card-points", "dukning", "endgame", "kladda",
          "build", "build-steal", "owner-duty", "sistan")
#: each theme in words, marked with ``N_()``: translate where shown
THEME_WORDS = {
    "take-all": N_("take all (ta in allt)"),
    "traffar": N_("several träffar at once"),
    "tvangstabbe": N_("tvångstabbe"),
    "card-points": N_("card points (the safest card)"),
    "dukning": N_("dukning"),
    "endgame": N_("the last deal (slutspel)"),
    "kladda": N_("klädda högen"),
    "build": N_("builds (byggen)"),
    "build-steal": N_("a build stolen"),
    "owner-duty": N_("the owner's duty (take or raise)"),
    "sistan": N_("sistan and the last cards"),
}

#: the themes every puzzle of a kind trains (its position may add more: :func:`themes_of`)
KIND_THEMES = {
    "what-must-you-take": ("take-all",), "which-card": ("tvangstabbe",), "safest-card": ("card-points",),
    "set-up-dukning": ("dukning",), "endgame": ("endgame",), "endgame-kladda": ("endgame", "kladda"),
    "kasino-safe-build": ("build",),
    "kasino-steal": ("build", "build-steal"), "kasino-take-or-raise": ("owner-duty", "build"),
    "kasino-endgame": ("sistan",),
}

_PREFIX = "gen"


def is_generated(pid: str) -> bool:
    """Is this the id of a generated puzzle (``gen/…``)?"""
    return pid.startswith(_PREFIX + "/")


def _generated(pid: str) -> tuple[str, str, str, int] | None:
    """The (preset, kind, difficulty, number) a generated puzzle's id names, or None."""
    parts = pid.split("/") if isinstance(pid, str) else []
    if len(parts) == 5 and parts[0] == _PREFIX and parts[4].isdigit() and len(parts[4]) < 10:
        _p, preset, kind, difficulty, n = parts
        if (preset, kind, difficulty) in FRESH:
            return preset, kind, difficulty, int(n)
    return None


def made_by(pid: str) -> str | None:
    """Which generator (a kind of :data:`FRESH`) made the puzzle of this id, or None.

    >>> made_by("gen/krypkasino/endgame-kladda/hard/3"), made_by("which-card-easy-03")
    ('endgame-kladda', None)
    """
    made = _generated(pid)
    return made[1] if made else None


def fresh_puzzle(kind: str, difficulty: str, n: int, preset: str | None = None) -> Puzzle:
    """The ``n``-th generated puzzle of ``kind`` and ``difficulty`` (``preset``: the rules,
    ``"krypkasino"``, ``"kasino"`` or ``"avig-kasino"``; by default the kind's game), proved by
    the solver. The same arguments give the same puzzle on every machine.

    >>> fresh_puzzle("which-card", "hard", 1) == fresh_puzzle("which-card", "hard", 1)
    True
    >>> fresh_puzzle("kasino-steal", "hard", 1)
    Traceback (most recent call last):
    ...
    krypteach.teaching.puzzles.base.PuzzleError: no kasino-steal puzzles at level hard of kasino are made: choose one of ...
    """
    preset = preset or ("kasino" if kind in KASINO_KINDS else "krypkasino")
    if (preset, kind, difficulty) not in FRESH:
        made = ", ".join(f"{k} {d} ({p})" for p, k, d in FRESH)
        raise PuzzleError(f"no {kind} puzzles at level {difficulty} of {preset} are made: choose one of {made}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise PuzzleError(f"a generated puzzle's number is a whole number 0 or more, got {n!r}")
    return _fresh(preset, kind, difficulty, n)


@functools.lru_cache(maxsize=512)
def _fresh(preset: str, kind: str, difficulty: str, n: int) -> Puzzle:
    pid = f"{_PREFIX}/{preset}/{kind}/{difficulty}/{n}"
    rng = random.Random(pid)  # a text seed is hashed the same on every machine and Python
    if kind in KASINO_KINDS:
        made: Puzzle = generate_kasino(kind, difficulty, rng, Rules.preset(preset), pid)
        return made
    return generate(MADE_AS.get(kind, kind), difficulty, rng, rules=Rules(), id=pid, kladda=kind == "endgame-kladda")


def puzzle_from_id(pid: str) -> Puzzle:
    """The puzzle an id names: a shipped one, or a generated one made again from its id.
    An id that names neither is a :class:`PuzzleError` that says so.

    >>> puzzle_from_id("which-card-easy-03").kind
    'which-card'
    >>> puzzle_from_id("gen/krypkasino/which-card/easy/x")
    Traceback (most recent call last):
    ...
    krypteach.teaching.puzzles.base.PuzzleError: not a puzzle id: 'gen/krypkasino/which-card/easy/x' ...
    """
    shipped = shipped_puzzles().get(pid)
    if shipped is not None:
        return shipped
    made = _generated(pid)
    if made is not None:
        return _fresh(*made)
    raise PuzzleError(f"not a puzzle id: {pid!r} (a shipped puzzle's, or gen/<preset>/<kind>/<level>/<number>)")


def offered_themes(kind: str, level: str) -> tuple[str, ...]:
    """The themes of every generated puzzle of ``kind`` and ``level``, known before one is made
    (the trainer offers generated puzzles by these, and makes one only when it is chosen): the
    kind's own, and what the generator asks of that level. A medium or hard *what must you take*
    is made to need two träffar or more. Whether a *set up a dukning* needs tvångstabbe, and
    whether klädda högen decides an *endgame*, is known only once the puzzle is made
    (:func:`themes_of`), so they are not offered. :func:`themes_of` of the puzzle made holds them all.

    >>> offered_themes("what-must-you-take", "easy"), offered_themes("what-must-you-take", "hard")
    (('take-all',), ('take-all', 'traffar'))
    >>> offered_themes("endgame", "easy")
    ('endgame',)
    """
    found = KIND_THEMES[kind]
    if kind == "what-must-you-take" and level != "easy":
        found += ("traffar",)
    return found


@functools.lru_cache(maxsize=1024)
def themes_of(p: Puzzle) -> tuple[str, ...]:
    """The rules a puzzle trains (:data:`THEMES`), from its kind and its position. A rule the
    answer does not rest on is not one of them: tvångstabbe trains a *set up a dukning* only where
    must-capture alone would not hold the next player to the same tabbe, and klädda högen an
    *endgame* only where emptying it would change the best move (the other endgames train the
    last deal alone).

    >>> from krypteach import parse_cards
    >>> themes_of(Puzzle("d", "what-must-you-take", "easy", parse_cards("9H"), parse_cards("9S 2C 5D 7H"),
    ...                  answers=("2C+7H+9S",)))
    ('take-all', 'traffar')
    >>> themes_of(puzzle_from_id("set-up-dukning-easy-01")), themes_of(puzzle_from_id("set-up-dukning-hard-01"))
    (('dukning',), ('dukning', 'tvangstabbe'))
    >>> themes_of(puzzle_from_id("endgame-easy-01")), themes_of(puzzle_from_id("endgame-medium-02"))
    (('endgame',), ('endgame', 'kladda'))

    A shipped puzzle's themes are read from ``krypteach/data/puzzle_themes.json`` (a lesson page
    asks for all of them as it opens, and an endgame's would take solving it twice); a test keeps
    that file equal to what this function finds (:func:`write_shipped_themes` writes it again).
    """
    known = _shipped_themes().get(p.id)
    if known is not None and shipped_puzzles().get(p.id) == p:
        return known
    return _themes_found(p)


def _themes_found(p: Puzzle) -> tuple[str, ...]:
    kind = p.kind
    found: list[str] = list(KIND_THEMES.get(kind, ()))
    if kind == "what-must-you-take":
        groups = 0
        for a in p.answers:
            if a != "creep":
                groups = max(groups, len(split_into_traffar(p.hand[0], parse_cards(a), p.rules) or []))
        if groups >= 2:
            found.append("traffar")
    elif kind == "set-up-dukning":
        if needs_tvangstabbe(p):
            found.append("tvangstabbe")
    elif kind == "endgame":
        if kladda_decides(p):
            found.append("kladda")
    elif kind == "kasino-endgame":
        if any(isinstance(x, Build) for x in p.table):
            found.append("build")
    return tuple(found)


_THEMES_FILE = "puzzle_themes.json"
_THEMES_FORMAT = "krypteach-puzzle-themes/1"


@functools.cache
def _shipped_themes() -> dict[str, tuple[str, ...]]:
    """The shipped puzzles' themes as :func:`write_shipped_themes` wrote them (none if the file
    is missing or not of this format: then each is found again)."""
    try:
        doc = json.loads(resources.files("krypteach").joinpath("data", _THEMES_FILE).read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("format") != _THEMES_FORMAT or not isinstance(doc.get("themes"), dict):
        return {}
    return {str(k): tuple(v) for k, v in doc["themes"].items()
            if isinstance(v, list) and all(isinstance(t, str) and t in THEMES for t in v)}


def shipped_themes_found() -> dict[str, list[str]]:
    """Every shipped puzzle's themes, found from its position now (:func:`themes_of` without the file)."""
    return {pid: list(_themes_found(p)) for pid, p in shipped_puzzles().items()}


def write_shipped_themes(path: str | None = None) -> str:
    """Write the shipped puzzles' themes (``krypteach/data/puzzle_themes.json``, or ``path``) as
    :func:`shipped_themes_found` finds them; return where."""
    where = path or str(resources.files("krypteach").joinpath("data", _THEMES_FILE))
    rows = ",\n".join(f"  {json.dumps(pid)}: {json.dumps(themes)}" for pid, themes in shipped_themes_found().items())
    with open(where, "w", encoding="utf-8") as f:
        f.write(f'{{"format": "{_THEMES_FORMAT}", "themes": {{\n{rows}\n}}}}\n')
    _shipped_themes.cache_clear()
    return where


#: the first guess at a puzzle's rating, before any learner has tried it: its level, and how much
#: there is to think through (each kind's offset is a guess in the same spirit, corrected as learners try it)
_LEVEL_RATING = {"easy": 1200.0, "medium": 1500.0, "hard": 1800.0}
_KIND_OFFSET = {"which-card": -100.0, "what-must-you-take": 0.0, "safest-card": 0.0, "set-up-dukning": 100.0,
                "endgame": 150.0, "kasino-safe-build": 0.0, "kasino-steal": 0.0, "kasino-take-or-raise": 100.0,
                "kasino-endgame": 150.0}


def estimated_rating(p: Puzzle) -> float:
    """A puzzle's rating before anyone has tried it: its level (easy 1200, medium 1500, hard
    1800), its kind's offset, and 20 a card beyond eight in the position (hand, table and the
    other hand: more to count). The attempts of learners correct it (Glicko-2, with the wide
    deviation an estimate deserves).

    >>> estimated_rating(puzzle_from_id("which-card-easy-01"))
    1100.0
    """
    cards = len(p.hand) + len(p.table) + len(p.next_hand)
    return _LEVEL_RATING[p.difficulty] + _KIND_OFFSET.get(p.kind, 0.0) + 20.0 * max(0, cards - 8)


def first_guess(kind: str, difficulty: str) -> float:
    """The rating a puzzle of ``kind`` and ``difficulty`` is guessed at before it is made (its
    level and kind; :func:`estimated_rating` adds what its position holds).

    >>> first_guess("endgame", "hard")
    1950.0
    """
    return _LEVEL_RATING[difficulty] + _KIND_OFFSET.get(MADE_AS.get(kind, kind), 0.0)

