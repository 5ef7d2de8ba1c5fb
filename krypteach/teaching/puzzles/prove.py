"""Solving puzzles, and proving every answer.

Legal moves come from the naive reference rules (:mod:`krypteach.engine.reference`),
written apart from the fast engine, and are checked against the engine's; what a
move gives away comes from the one set of turn rules (:mod:`krypteach.engine.turn`);
endgames are searched exactly (:mod:`krypteach.bots.endgame`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from ...bots.endgame import best_moves, endgame_line, solve_endgame
from ...engine import reference
from ...engine.builds import build_total, table_cards
from ...engine.captures import capture_options, split_into_traffar
from ...engine.cards import Card, parse_cards
from ...engine.games import explain_move, game_of
from ...engine.moves import Move, MoveParseError, legal_moves, table_after
from ...engine.rules import Rules
from ...engine.turn import tabbe_score
from ...i18n import _, ngettext
from .kasino import KASINO_KINDS, resolve_selection, solve_kasino
from .model import Puzzle, PuzzleError, Solution, capture_text, symbols_text

__all__ = ["solve", "check_answer", "judge", "Judgement", "verify", "check_puzzles", "brute_captures", "takes_whole", "move_cost",
           "proved_moves", "check_cards", "UNIQUE_ANSWER", "needs_tvangstabbe", "kladda_decides"]


# --- the proof: the naive reference rules, checked against the engine ---------------------

def _codes(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def brute_captures(card: Card, table: Sequence[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """Every legal capture of ``card`` on ``table`` by the naive reference rules
    (:mod:`krypteach.engine.reference`: every set of table cards tried), sorted;
    ``[]`` if it creeps.

    >>> [capture_text(c) for c in brute_captures(Card("9H"), parse_cards("9S 2C 5D 7H"), Rules())]
    ['2C+7H+9S']
    """
    caps = reference.capture_options(str(card), _codes(table), capture=rules.capture, ace=rules.ace)
    return sorted(tuple(sorted(parse_cards(cap))) for cap in caps)


def takes_whole(card: Card, table: Sequence[Card], rules: Rules) -> bool:
    """Does ``card`` take the whole (non-empty) ``table``, by the reference rules?"""
    return reference.can_take_whole_table(str(card), _codes(table), rules.ace)


def move_cost(move: Move, table: Sequence[Card], rules: Rules) -> int:
    """Points the mover's side gets this turn: captured + capturing card, and a tabbe's
    points, as the game's result of the move says (:meth:`~krypteach.engine.games.base.Game.move_result`)."""
    game = game_of(rules)
    result = game.move_result(table, move, 0, None)
    values = game.card_values
    return sum(values[c] for c in result.taken) + tabbe_score(rules, result.tabbe)[0]


def proved_moves(hand: Sequence[Card], table: Sequence[Card], rules: Rules) -> list[Move]:
    """Legal moves by the reference rules (tvångstabbe, then must-capture), checked
    against the engine's: per card in order, its captures, then its creep."""
    found = reference.legal_moves(_codes(hand), _codes(table), capture=rules.capture, ace=rules.ace,
                                  forced_tabbe=rules.forced_tabbe)
    moves = sorted((Move(card, cap) for card, cap in found),
                   key=lambda m: (m.card, m.capture is None, m.capture or ()))
    engine = legal_moves(hand, table, rules)
    if set(moves) != set(engine):
        raise PuzzleError(f"the engine and the reference rules disagree on the legal moves for hand "
                          f"{symbols_text(hand)} at table {symbols_text(table)}: {sorted(map(str, engine))} vs "
                          f"{sorted(map(str, moves))}")
    return moves


# --- solving ------------------------------------------------------------------------------

def check_cards(p: Puzzle) -> None:
    every = Counter(p.hand) + Counter(table_cards(p.table)) + Counter(p.next_hand) + Counter(p.kladda)
    copies = p.rules.copies
    over = [str(c) for c, k in every.items() if k > copies]
    if over:
        verb = "appears" if len(over) == 1 else "appear"
        raise PuzzleError(f"puzzle {p.id}: {', '.join(over)} {verb} more than twice (there are two decks)" if copies == 2
                          else f"puzzle {p.id}: {', '.join(over)} {verb} more than once (there is one deck)")
    if not p.hand:
        raise PuzzleError(f"puzzle {p.id}: the hand is empty")


def solve(p: Puzzle, *, full_proof: bool = True) -> Solution:
    """Solve a puzzle by trying everything; raises :class:`PuzzleError` if it is
    malformed or has no unique answer where its kind requires one. ``full_proof=False``: a classic
    Kasino search checks the engine's legal moves against the reference rules at the puzzle's own
    position only, not at every position it reaches (for a page that checks a learner's answer to a
    puzzle already proved: :mod:`.kasino`).

    >>> p = Puzzle("d", "which-card", "easy", parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"))
    >>> s = solve(p); sorted(s.answers), s.unique
    (['10S'], True)
    """
    check_cards(p)
    rules = p.rules
    if p.kind in KASINO_KINDS:
        return solve_kasino(p, full_proof)
    if game_of(rules).has_builds:
        raise PuzzleError(f"puzzle {p.id}: {p.kind} is a Krypkasino puzzle: its rules cannot be classic Kasino's")
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
    if not caps:
        return Solution(frozenset({"creep"}), _("{card} has no träff on {table}: it creeps and takes nothing.").format(
            card=card.symbol, table=symbols_text(p.table)), True, {"creep": 0})
    answers = frozenset(capture_text(c) for c in caps)
    parts = []
    for cap in caps:
        groups = split_into_traffar(card, cap, rules) or [cap]
        rest = list(p.table)
        for c in cap:
            rest.remove(c)
        taken = _(" and ").join("+".join(c.symbol for c in g) for g in groups)
        if rest:
            # i18n: {taken} are träffar ("2♣+7♦ and 9♠"), {rest} the cards left on the table
            parts.append(ngettext("{taken}; {rest} stays", "{taken}; {rest} stay", len(rest)).format(
                taken=taken, rest=symbols_text(rest)))
        else:
            parts.append(_("{taken} — the whole table (a tabbe)").format(taken=taken))
    if len(caps) == 1:
        why = _("{card} must take {capture}: it takes all it can, and no träff is left behind.").format(
            card=card.symbol, capture=parts[0])
    else:
        why = _("{card} can take all it can in {n} ways, and any of them is right: {ways}.").format(
            card=card.symbol, n=len(caps), ways=_("; or ").join(parts))
    return Solution(answers, why, len(caps) == 1, dict.fromkeys(answers, 0))


def _solve_which(p: Puzzle, rules: Rules) -> Solution:
    if not rules.forced_tabbe or not p.table:
        raise PuzzleError(f"puzzle {p.id}: which-card needs tvångstabbe and a table")
    whole = sorted({c for c in p.hand if takes_whole(c, p.table, rules)})
    if not whole:
        raise PuzzleError(f"puzzle {p.id}: no card in the hand takes the whole table")
    proved_moves(p.hand, p.table, rules)
    c = whole[0]
    groups = split_into_traffar(c, p.table, rules) or [p.table]
    if len(whole) > 1:
        why = _("Tvångstabbe: {cards} can each take the whole table; any of them is right.").format(
            cards=_(" and ").join(x.symbol for x in whole))
    else:
        others = [x for x in dict.fromkeys(p.hand) if x != c]
        groups_text = _(" and ").join("+".join(x.symbol for x in g) for g in groups)
        if others:
            why = _("Tvångstabbe: {card} takes the whole table as {groups}; no other card can ({others} cannot), so "
                    "{card} must be played.").format(card=c.symbol, groups=groups_text,
                                                      others=", ".join(x.symbol for x in others))
        else:
            why = _("Tvångstabbe: {card} takes the whole table as {groups}.").format(card=c.symbol, groups=groups_text)
    return Solution(frozenset(str(x) for x in whole), why, len(whole) == 1, {str(x): 0 for x in whole})


def _solve_safest(p: Puzzle, rules: Rules) -> Solution:
    if rules.forced_tabbe and any(takes_whole(c, p.table, rules) for c in p.hand):
        raise PuzzleError(f"puzzle {p.id}: tvångstabbe decides this hand; it is not a safest-card puzzle")
    moves = proved_moves(p.hand, p.table, rules)
    cost: dict[Card, tuple[int, Move]] = {}
    for m in moves:
        c = move_cost(m, p.table, rules)
        if m.card not in cost or c < cost[m.card][0]:
            cost[m.card] = (c, m)
    low = min(v for v, _ in cost.values())
    best = sorted(c for c, (v, _) in cost.items() if v == low)
    lines = []
    for c in sorted(cost, key=lambda x: (cost[x][0], x)):
        v, m = cost[c]
        if m.capture is None:
            lines.append(ngettext("{card} creeps: {n} point", "{card} creeps: {n} points", v).format(card=c.symbol, n=v))
        else:
            lines.append(ngettext("{card} must take {cards}: {n} point", "{card} must take {cards}: {n} points",
                                  v).format(card=c.symbol, cards="+".join(x.symbol for x in m.capture), n=v))
    head = (ngettext("{card} is the safest card: it gives you {n} point.",
                     "{card} is the safest card: it gives you {n} points.", low).format(card=best[0].symbol, n=low)
            if len(best) == 1 else ngettext("{cards} are equally safe ({n} point).",
                                            "{cards} are equally safe ({n} points).", abs(low)).format(
                cards=_(" and ").join(c.symbol for c in best), n=low))
    return Solution(frozenset(str(c) for c in best), head + " " + "; ".join(lines) + ".", len(best) == 1,
                    {str(c): v for c, (v, _) in cost.items()})


def _held_to_the_tabbe(next_hand: Sequence[Card], after: Sequence[Card], rules: Rules) -> bool:
    """Must the next player take the whole of ``after`` when tvångstabbe is left out, held by
    must-capture alone (every move they have takes it all)?"""
    theirs = reference.legal_moves(_codes(next_hand), _codes(after), capture=rules.capture, ace=rules.ace,
                                   forced_tabbe=False)
    return bool(after) and all(cap is not None and len(cap) == len(after) for _card, cap in theirs)


def needs_tvangstabbe(p: Puzzle) -> bool:
    """Does this *set up a dukning* puzzle's answer rest on tvångstabbe? Not where must-capture
    alone holds the next player to the same tabbe after the same moves (their one card can
    take only the whole table): then the puzzle trains the dukning alone.

    >>> easy = Puzzle("d", "set-up-dukning", "easy", parse_cards("4S 2H"), parse_cards("4S 5D"),
    ...               next_hand=parse_cards("5C"))
    >>> sorted(solve(easy).answers), needs_tvangstabbe(easy)
    (['4S:4S'], False)
    """
    rules = p.rules
    moves = proved_moves(p.hand, p.table, rules)
    held = {str(m) for m in moves if _held_to_the_tabbe(p.next_hand, table_after(p.table, m), rules)}
    return held != _right(p)


def _right(p: Puzzle) -> set[str]:
    """A puzzle's right answers: those it carries (the solver's, kept with a shipped or made
    puzzle), else the solver's now."""
    return set(p.answers) or set(solve(p).answers)


def kladda_decides(p: Puzzle) -> bool:
    """Does klädda högen change this *endgame* puzzle's best moves? Not where the best moves are
    the same with it empty: then the puzzle trains the last deal alone."""
    if not p.kladda:
        return False
    return _right(p) != _best_with_kladda_empty(p)


def _best_with_kladda_empty(p: Puzzle) -> set[str]:
    """An endgame's best first moves were klädda högen empty."""
    return {str(m) for m in best_moves(solve_endgame(p.rules, p.hand, p.next_hand, p.table, kladda=(),
                                                     last_capturer=p.last_capturer))}


def _solve_setup(p: Puzzle, rules: Rules) -> Solution:
    if not rules.forced_tabbe or not p.next_hand:
        raise PuzzleError(f"puzzle {p.id}: set-up-dukning needs tvångstabbe and the next player's hand")
    moves = proved_moves(p.hand, p.table, rules)
    right = []
    details: dict[str, Any] = {}
    for m in moves:
        after = table_after(p.table, m)
        takers = sorted({c for c in p.next_hand if takes_whole(c, after, rules)})
        details[str(m)] = [str(c) for c in takers]
        if takers and after:
            right.append((m, after, takers))
    if not right:
        raise PuzzleError(f"puzzle {p.id}: no move sets up a tabbe for the next player")
    m, after, takers = right[0]
    others = [Move.parse(s) for s, t in details.items() if not t and s != str(m)]
    # i18n: {move} is a whole move ("4♠ takes 4♠"), so it stands in a frame of its own ("After …,")
    why = _("After {move}, the table is {table}, and the next player's {cards} must take it whole (tvångstabbe): "
            "a tabbe for them and a dukning for you.").format(move=m.describe(), table=symbols_text(after),
                                                              cards=_(" or ").join(c.symbol for c in takers))
    if len(right) > 1:
        why = _("Several moves do it: {moves}.").format(moves="; ".join(
            _("{move} (for {cards})").format(move=x.describe(), cards="/".join(c.symbol for c in t))
            for x, _after, t in right))
    elif others:
        why += " " + _("No other move does: after {moves}, the table is one they need not take.").format(
            moves=_(" or ").join(o.describe() for o in others))
    return Solution(frozenset(str(x) for x, _, _ in right), why, len(right) == 1, details)


def _ends_words(points: int) -> str:
    """How a giv ends for you against your opponent, in words, the way Krypkasino counts
    (lower is better: fewer points is better).

    >>> _ends_words(-3), _ends_words(1), _ends_words(0)
    ('with 3 points fewer than your opponent (better)', 'with 1 point more than your opponent (worse)', 'level with your opponent')
    """
    if points == 0:
        return _("level with your opponent")
    n = abs(points)
    if points < 0:
        return ngettext("with {n} point fewer than your opponent (better)",
                        "with {n} points fewer than your opponent (better)", n).format(n=n)
    return ngettext("with {n} point more than your opponent (worse)",
                    "with {n} points more than your opponent (worse)", n).format(n=n)


def _solve_endgame(p: Puzzle, rules: Rules) -> Solution:
    if rules.players != 2:
        raise PuzzleError(f"puzzle {p.id}: endgame puzzles are for two players")
    if len(p.hand) not in (len(p.next_hand), len(p.next_hand) + 1):
        raise PuzzleError(f"puzzle {p.id}: you must hold as many cards as your opponent, or one more")
    proved_moves(p.hand, p.table, rules)
    vals = solve_endgame(rules, p.hand, p.next_hand, p.table, kladda=p.kladda, last_capturer=p.last_capturer)
    low = min(vals.values())
    best = sorted((m for m, v in vals.items() if v == low), key=str)
    line = endgame_line(rules, p.hand, p.next_hand, p.table, kladda=p.kladda, last_capturer=p.last_capturer)
    who = (_("you"), _("your opponent"))
    played = "; ".join(_("{who}: {move}").format(who=who[side], move=m.describe()) for side, m, _value in line)
    others = sorted(((v, m) for m, v in vals.items() if v != low), key=lambda x: (x[0], str(x[1])))
    ends = _ends_words(low)
    why = _("With the best play from both of you, {move} ends the giv {ends}. The play: {line}.").format(
        move=best[0].describe(), ends=ends, line=played)
    if len(best) > 1:
        why = _("{moves} are equally good: with the best play from both of you each ends the giv {ends}.").format(
            moves=_(" and ").join(m.describe() for m in best), ends=ends)
    if others:
        why += " " + _("Other first moves: {moves}.").format(moves="; ".join(
            _("{move} ends it {ends}").format(move=m.describe(), ends=_ends_words(v)) for v, m in others))
    return Solution(frozenset(str(m) for m in best), why, len(best) == 1, {str(m): v for m, v in vals.items()})


# --- answers ------------------------------------------------------------------------------

UNIQUE_ANSWER = {"what-must-you-take": False, "which-card": True, "safest-card": True, "set-up-dukning": True,
                 "endgame": True, **dict.fromkeys(KASINO_KINDS, True)}


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
        return capture_text(cards) if cards else "creep"
    if p.kind in ("which-card", "safest-card"):
        if isinstance(answer, Move):
            return str(answer.card)
        if isinstance(answer, str) and ":" in answer:
            return str(Move.parse(answer).card)
        return str(Card(answer) if not isinstance(answer, str) else Card.parse(answer))
    move = answer if isinstance(answer, Move) else Move.parse(str(answer))
    return str(move)


class Judgement(NamedTuple):
    """An answer judged: right or not, why in words, and the rule a wrong answer broke where the
    answer shows it (else None): the engine's key for a capture it does not allow (``take-all``,
    ``not-traffar``, ``must-capture``, ``tvangstabbe``, ``maximum``), or ``kladda`` for an endgame
    move that would be as good as the best were klädda högen empty."""

    ok: bool
    why: str
    rule: str | None = None


def check_answer(p: Puzzle, answer: Any) -> tuple[bool, str]:
    """Is ``answer`` right? Returns ``(ok, explanation)``; a malformed answer is
    wrong, with a message that says how to write one (:func:`judge` says which rule a wrong one broke).

    >>> p = Puzzle("d", "which-card", "easy", parse_cards("10S 4H"), parse_cards("AH 7C 3D 9S"))
    >>> check_answer(p, "10♠")[0], check_answer(p, "4H")[0]
    (True, False)
    """
    ok, why, _rule = judge(p, answer)
    return ok, why


def judge(p: Puzzle, answer: Any, sol: Solution | None = None) -> Judgement:
    """:func:`check_answer`, and the rule a wrong answer broke. A wrong *what must you take* is
    explained as the engine explains that capture in a game: which rule it breaks, with the cards.
    ``sol``: the puzzle's :func:`solve`, where the caller has it already (some puzzles take seconds
    to solve); else it is solved with ``full_proof=False``, as a page checking an answer needs.

    >>> p = Puzzle("d", "what-must-you-take", "easy", parse_cards("9H"), parse_cards("9S 2C 5D 7H"))
    >>> j = judge(p, "2C+7H"); j.ok, j.rule
    (False, 'take-all')
    >>> print(j.why)
    You must take all you can: 9♠ is also a träff for 9♥ and would stay on the table. Take 9♠ and 2♣+7♥; 5♦ stays.
    """
    sol = solve(p, full_proof=False) if sol is None else sol
    try:
        given = _normalise(p, answer)
        if p.kind in KASINO_KINDS:  # a selection of cards: the capture, or the build on them
            meant = resolve_selection(p, given)
            given = next((m for m in meant if m in sol.answers), meant[0])
    except (ValueError, MoveParseError) as e:
        return Judgement(False, _("Not an answer to this puzzle ({error}).").format(error=e))
    if given in sol.answers:
        return Judgement(True, _("Right!") + " " + sol.explanation)
    if p.kind == "what-must-you-take":
        taken = None if given == "creep" else tuple(parse_cards(given))  # "2C+7H", as capture_text writes it
        engine = explain_move(p.hand, p.table, Move(p.hand[0], taken), p.rules)
        if not engine.legal:  # a take-all explanation names the capture to make; the others do not
            return Judgement(False, engine.message if engine.rule == "take-all" else
                             engine.message + " " + sol.explanation, engine.rule)
    if p.kind in ("set-up-dukning", "endgame") and given not in sol.options:
        # a move the rules do not allow (J♠ laid down where it must take 3♠+8♥): the rule it breaks
        # first, as in a game, then the answer (it said only "Not quite. After J♠ takes 3♠+8♥ …")
        move = Move.parse(given)
        if move.card in p.hand:
            engine = explain_move(p.hand, p.table, move, p.rules)
            if not engine.legal:
                return Judgement(False, engine.message + " " + sol.explanation, engine.rule)
    if p.kind in KASINO_KINDS and given not in sol.options:
        not_a_move = _kasino_not_a_move(p, Move.parse(given))
        if not_a_move is not None:
            return Judgement(False, not_a_move[0] + " " + sol.explanation, not_a_move[1])
    if p.kind in ("kasino-take-or-raise", "kasino-endgame") and given in sol.options:
        from .kasino import kasino_result_words

        return Judgement(False, kasino_result_words(sol.options[given], "not-best", move=p.answer_text(given)) + " " +
                         sol.explanation)
    if p.kind == "endgame" and given in sol.options:
        said = _("Not the best: {move} ends the giv {ends}.").format(
            move=p.answer_text(given), ends=_ends_words(sol.options[given]))
        points = sum(c.points for c in p.kladda)
        forgot = bool(points) and given in _best_with_kladda_empty(p)  # the move that forgets klädda högen
        if forgot:
            said += " " + ngettext(
                "It would be as good as any were klädda högen empty, but klädda högen ({cards}, {n} point) goes "
                "to the last player to take in, and that decides here.",
                "It would be as good as any were klädda högen empty, but klädda högen ({cards}, {n} points) goes "
                "to the last player to take in, and that decides here.", points).format(
                cards=symbols_text(p.kladda), n=points)
        return Judgement(False, said + " " + sol.explanation, "kladda" if forgot else None)
    if p.kind == "safest-card" and given in sol.options:
        n = sol.options[given]
        return Judgement(False, ngettext("Not quite: {card} gives you {n} point.", "Not quite: {card} gives you {n} points.",
                                         n).format(card=p.answer_text(given), n=n) + " " + sol.explanation)
    return Judgement(False, _("Not quite.") + " " + sol.explanation)


def _kasino_not_a_move(p: Puzzle, move: Move) -> tuple[str, str | None] | None:
    """Why a classic Kasino answer is no move at all here, in the engine's words, and the rule it
    breaks; None for a move the rules allow. A hand card with table cards that make neither a
    capture nor a build is explained both ways: as the capture, then as the build of what the
    cards add up to (the rule is then left open: which was meant cannot be told)."""
    said = explain_move(p.hand, p.table, move, p.rules, 0)
    if said.legal:
        return None
    total = build_total(move.card, move.capture, p.rules) if move.value is None and move.capture else None
    built = explain_move(p.hand, p.table, Move.build(move.card, move.capture, total), p.rules, 0) \
        if total is not None and total <= 14 and move.capture else None  # no card takes more than 14
    if built is None or built.legal:
        return said.message, said.rule
    return said.message + " " + built.message, None


def verify(p: Puzzle) -> list[str]:
    """Problems with a puzzle: the solver cannot prove its stored answers, or the
    answer is not unique where the kind requires it. ``[]`` means it is sound."""
    try:
        sol = solve(p)
    except (PuzzleError, ValueError) as e:
        return [str(e)]
    problems = []
    if UNIQUE_ANSWER[p.kind] and not sol.unique:
        problems.append(f"puzzle {p.id}: the answer is not unique ({', '.join(sorted(sol.answers))})")
    try:
        stored = {_normalise(p, a) for a in p.answers}
    except (ValueError, MoveParseError) as e:
        return problems + [f"puzzle {p.id}: a stored answer cannot be read ({e})"]
    if stored != set(sol.answers):
        problems.append(f"puzzle {p.id}: stored answers {sorted(stored)} but the solver proves {sorted(sol.answers)}")
    return problems


def check_puzzles(puzzles: Sequence[Puzzle]) -> tuple[Counter[str], list[str]]:
    """Re-prove every puzzle: ``(count per kind, problems)``; duplicate ids are a problem too."""
    counts: Counter[str] = Counter()
    problems: list[str] = []
    ids = Counter(p.id for p in puzzles)
    problems += [f"puzzle id {i} is used {k} times" for i, k in ids.items() if k > 1]
    for p in puzzles:
        counts[p.kind] += 1
        problems += verify(p)
    return counts, problems
