"""The teacher's board (issue 24): one position sent to every learner's page, the class's
answers live as a distribution, and one click that shows the engine's answer everywhere.

The board lives in the server's own process, beside the tables (:mod:`.tables`). The teacher
sends a position from ``/krypteach/teacher/board`` (the page for the projector, behind the
teacher's cookie): a shipped puzzle (``krypteach/data/puzzles.json``, ``kasino_puzzles.json``)
or a hand and a table typed in the engine's card text (``7H 2S`` / ``5C 2D KS``) under the
class's rules. The **learners' kernels** are the board's clients, as at the tables: each proves
its learner with the token the tables take (:func:`~krypteach.serve.tables.learner_of`).

- ``GET /krypteach/board?learner=TOKEN&since=VERSION&lang=sv`` answers the learner's view (the
  position, its choices in words, their own answer, the answer once shown) as soon as the board's
  version is past ``since``: a long poll, so a position sent or an answer shown reaches every page
  at once.
- ``POST /krypteach/board/answer`` ``{"learner", "question", "answer", "lang"}``: the learner's
  choice. **The first answer counts**, as a puzzle's first answer does in the trainer: a second
  answer to the same position is refused, and so is a choice that is not one of the position's,
  an answer to a position no longer on the board and one after the answer is shown; each refusal
  is one sentence in the learner's language (409).
- ``GET /krypteach/teacher/board`` the board; ``…/board/state?since=N`` its live part (JSON, a
  long poll on every answer); ``POST …/board/send``, ``…/reveal``, ``…/names``, ``…/clear``.

Who chose what is hidden on the board unless the teacher shows the names. The choices are the
position's legal moves (:func:`~krypteach.engine.games.legal_moves`); a puzzle whose legal moves
would give its answer away asks as the puzzle trainer does: *which card* (every card of the hand)
and *what must you take* (every capture the card could make, and creeping). The engine's answer
is the puzzle solver's (:func:`~krypteach.teaching.puzzles.solve`, its proven answers and their
explanation), or for a typed position the strongest bot's move and its reason
(:func:`~krypteach.bots.suggest`), the position taken as the last deal with the other hands unseen
(so a typed hand holds at most the class's deal). It is worked out once, in every language, in a
worker thread when the position is sent: the server's loop answers every page of the class (a
hard puzzle takes the solver a minute), and a shipped puzzle's is kept for the server's life.
A position of many moves lists on the board only those the class chose (:data:`MOST_ROWS`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from html import escape
from typing import Any

import tornado.web

from ..bots import suggest
from ..bots.review import VERDICT_WORDS, best_words, distinct_choices
from ..classroom.flagged import PLACE as FLAGGED_PLACE
from ..classroom.flagged import Flagged, read_all
from ..classroom.store import ProgressStore
from ..engine.builds import BuildParseError, table_cards
from ..engine.cards import Card, CardParseError, parse_cards
from ..engine.game import Observation
from ..engine.games import describe, game_of, legal_moves
from ..engine.moves import Move
from ..engine.rules import Rules
from ..i18n import LANGUAGES, _, language, ngettext, use_language
from ..i18n.numbers import number
from ..teaching.puzzles import Puzzle, shipped_puzzles, solve
from ..teaching.puzzles.model import capture_text
from ..views.html import hand_html, table_html
from ..widgets.puzzle_widget import puzzle_words
from .offload import off_the_loop
from .pages import live_page, long_poll_script
from .tables import KernelRequest
from .teacher_handlers import TeacherBase

__all__ = ["class_flagged", "find_flagged", "flagged_question", "WAIT", "Board", "BoardError", "Question", "board_handlers", "board_page", "puzzle_question",
           "typed_question"]

#: seconds a long poll waits for the board to change
WAIT = 20.0
#: a typed position's largest hand (and never more than the class's deal) and table: the bot's answer
#: looks at the other hand too, as large as yours, and its work grows fast with them (a hand of 6
#: took 2-10 s, one of 8 up to 72 s on this machine; one of 4, the deal of Krypkasino and Kasino, < 0.4 s)
MOST_HAND, MOST_TABLE = 5, 16
#: choices the board lists each of; beyond them, only the chosen ones (and the right ones once shown)
MOST_ROWS = 8
#: the kinds whose answer is a card of the hand (their legal moves would give it away)
_CARD_KINDS = ("which-card", "safest-card")


class BoardError(ValueError):
    """A position the board cannot send, or an answer it refuses: one sentence saying why."""


@dataclass(frozen=True)
class Question:
    """One position on the board: the cards, the choices (each a move's text, or a card's code for
    the card kinds) and the right ones; ``words`` gives everything said about it in a language."""

    id: int
    rules: Rules
    hand: tuple[Card, ...]
    table: tuple[Any, ...]
    choices: tuple[str, ...]
    right: frozenset[str]
    puzzle: Puzzle | None = None
    #: language -> (the engine's answer, its explanation), worked out once, before the position is sent
    #: (the solver may take a minute over a hard puzzle: never again for every learner's view)
    answer: dict[str, tuple[str, str]] = field(default_factory=dict, compare=False)
    #: klädda högen of a position from a learner's giv (a puzzle's is the puzzle's)
    kladda: tuple[Card, ...] = ()

    def choice_words(self, key: str) -> str:
        """A choice in words, in the current language (``7♥ takes 2♦+5♣``, or a card ``K♠``)."""
        if self.puzzle is not None and self.puzzle.kind in _CARD_KINDS:
            return Card(key).symbol
        return describe(self.rules, Move.parse(key))

    def prompt(self) -> str:
        """The question, in the current language."""
        if self.puzzle is not None:
            return self.puzzle.prompt
        return _("Your hand and the table are shown. Which move do you play?")

    def reveal(self) -> tuple[str, str]:
        """(the engine's answer, its explanation), in the current language."""
        return self.answer.get(language()) or self.answer[LANGUAGES[0]]


def _card_counts_ok(rules: Rules, hand: Sequence[Card], table: Sequence[Any]) -> None:
    copies = rules.copies
    over = [c.symbol for c, k in (Counter(hand) + Counter(table_cards(list(table)))).items() if k > copies]
    if over:
        raise BoardError(ngettext("{cards} is in the position more often than the deck holds it ({n} copy)",
                                  "{cards} is in the position more often than the deck holds it ({n} copies)",
                                  copies).format(cards=" ".join(over), n=copies))


def puzzle_question(qid: int, p: Puzzle) -> Question:
    """A shipped puzzle as a question: its choices, and the solver's answers among them.

    >>> from krypteach.teaching.puzzles import load_puzzles
    >>> q = puzzle_question(1, next(p for p in load_puzzles() if p.id == "which-card-easy-01"))
    >>> q.choices, sorted(q.right)
    (('3D', 'KS'), ['KS'])
    """
    hand = tuple(p.hand)
    answers: frozenset[str] = frozenset()
    said: dict[str, tuple[str, str]] = {}
    for lang in LANGUAGES:  # the solver once a language (its explanation is in words): the answers are the same
        with use_language(lang):
            sol = solve(p)
            answers = sol.answers
            said[lang] = ((" " + _("or") + " ").join(p.answer_text(a) for a in sorted(answers)), sol.explanation)
    if p.kind in _CARD_KINDS:  # the answers are cards of the hand
        choices = tuple(sorted({str(c) for c in hand}, key=Card.parse))
        return Question(qid, p.rules, hand, tuple(p.table), choices, frozenset(k for k in choices if k in answers), p,
                        said)
    if p.kind == "what-must-you-take":  # every capture the card could make, and creeping; the answers are captures
        moves = legal_moves(hand, p.table, p.rules.replace(capture="free", forced_tabbe=False), 0)
        right = frozenset(str(m) for m in moves if (capture_text(m.capture) if m.capture else "creep") in answers)
    else:  # a move of the position: the solver's proven moves are right
        moves = legal_moves(hand, p.table, p.rules, 0)
        right = frozenset(str(m) for m in moves if str(m) in answers)
    return Question(qid, p.rules, hand, tuple(p.table), tuple(str(m) for m in moves), right, p, said)


def _seat_names(players: int) -> list[str]:
    if players == 2:
        return [_("you"), _("your opponent")]
    return [_("you")] + [_("player {seat}").format(seat=s + 1) for s in range(1, players)]


def typed_question(qid: int, rules: Rules, hand_text: str, table_text: str) -> Question:
    """A position the teacher typed (the engine's card text), under the class's ``rules``: its
    legal moves are the choices; the strongest bot's move (the position taken as the last deal,
    the other hands unseen) is the answer, with its reason in every language.

    >>> q = typed_question(1, Rules(), "7H 2S", "5C 2D KS")
    >>> q.choices, sorted(q.right)
    (('7H:2D+5C', '2S:2D'), ['7H:2D+5C'])
    """
    try:
        hand = tuple(parse_cards(hand_text))
        table, _flat = game_of(rules).parse_table(table_text)
    except (CardParseError, BuildParseError, ValueError) as e:
        raise BoardError(str(e)) from None
    if not hand:
        raise BoardError(_("type the hand: at least one card, such as 7H 2S"))
    most_hand = max(1, min(MOST_HAND, rules.hand_size))
    if len(hand) > most_hand or len(table) > MOST_TABLE:  # the bot's answer stays a moment's work
        raise BoardError(_("a position on the board holds at most {hand} cards in the hand and {table} on the "
                           "table").format(hand=most_hand, table=MOST_TABLE))
    _card_counts_ok(rules, hand, table)
    last = rules.players - 1
    stray = [x for x in table if not isinstance(x, Card) and not 0 <= x.owner <= last]
    if stray:  # (classic Kasino's builds: [9:4S+5H@1]; a build of seat 5 at a table of 2 was taken)
        raise BoardError(_("the build {build} belongs to nobody at this table: write its owner after @ as a seat "
                           "from 0 to {last}").format(build=stray[0], last=last))
    moves = legal_moves(hand, table, rules, 0)
    n = rules.players
    obs = Observation(seat=0, rules=rules, hand=hand, table=tuple(table), kladda=(), history=(),
                      dealt_to_table=tuple(table_cards(list(table))), pile_sizes=(0,) * n, pile_points=(0,) * n,
                      marks=(0,) * n, dukningar=(0,) * n, hand_sizes=(len(hand),) * n, stock_left=0, deal_index=0,
                      deals_total=1, dealer=n - 1, last_capturer=None, previous_mover=None, known_moves=tuple(moves))
    answer: dict[str, tuple[str, str]] = {}
    best: Move | None = None
    for lang in LANGUAGES:
        with use_language(lang):
            best, why = suggest(obs, seed=0, names=_seat_names(n))
            answer[lang] = (describe(rules, best), why)
    assert best is not None
    return Question(qid, rules, hand, tuple(table), tuple(str(m) for m in moves), frozenset({str(best)}),
                    answer=answer)


def flagged_question(qid: int, f: Flagged) -> Question:
    """A move the coach flagged in a learner's giv, asked of the class again: the position as the
    learner saw it (their hand, the table, klädda högen), the moves that play differently as the
    choices, the ones the coach found as good as the best right, and the best with the careful
    player's reasons as the answer, in every language; whose move it was is not said."""
    obs = f.observation()
    d = f.decision
    choices = distinct_choices(d, obs.rules)
    answer: dict[str, tuple[str, str]] = {}
    for lang in LANGUAGES:
        with use_language(lang):
            answer[lang] = (describe(obs.rules, d.best), best_words(obs, d))
    return Question(qid, obs.rules, tuple(obs.hand), tuple(obs.table), tuple(str(v.move) for v in choices),
                    frozenset(str(v.move) for v in choices if v.good_enough), answer=answer, kladda=tuple(obs.kladda))


def class_flagged(store: ProgressStore, class_code: str, most: int = 40) -> list[tuple[str, str, Flagged]]:
    """The moves the coach flagged in the class's givar, newest first, at most ``most``:
    (the form's value ``learner/key``, its words for the board's list, the flagged move). The
    words name the lesson, the move and the coach's verdict, not the learner: the board is
    projected."""
    found = []
    for learner, _name in store.learners(class_code):
        for key, f in read_all(store.saved_games(learner, FLAGGED_PLACE)).items():
            found.append((f.at, f"{learner}/{key}", f))
    found.sort(key=lambda x: -x[0])
    out = []
    for _at, value, f in found[:most]:
        rules = f.observation().rules
        words = _("Lesson {lesson}, move {ply}: {move} ({verdict})").format(
            lesson=f.lesson[:2], ply=number(f.decision.ply + 1), move=describe(rules, f.decision.played),
            verdict=_(VERDICT_WORDS[f.decision.verdict]))
        out.append((value, words, f))
    return out


def find_flagged(store: ProgressStore, class_code: str, value: str) -> Flagged:
    """The flagged move of the form's ``learner/key``; :class:`BoardError` when it is not the class's."""
    learner_text, _sep, key = value.partition("/")
    if learner_text.isdigit() and any(lid == int(learner_text) for lid, _n in store.learners(class_code)):
        f = read_all(store.saved_games(int(learner_text), FLAGGED_PLACE)).get(key)
        if f is not None:
            return f
    raise BoardError(_("that move is no longer kept: choose one of the list"))


@cache
def _shipped_question(pid: str) -> Question:
    """A shipped puzzle's question, solved once for the server's life (sent again, it is there at once)."""
    return puzzle_question(0, shipped_puzzles()[pid])


class Board:
    """The board's state: the position on it, the answers by learner, whether the answer and
    the names are shown; and the polls waiting on it (the learners' and the projector's)."""

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.question: Question | None = None
        #: learner id -> (their choice, their nickname), for the question on the board
        self.answers: dict[int, tuple[str, str]] = {}
        self.revealed = False
        self.names_shown = False
        #: moves on when what a learner sees changes (a position sent, the answer shown, cleared)
        self.version = 0
        #: moves on at every change the board shows (those, and every answer)
        self.tally = 0
        self._next_id = 1
        self._waiting: dict[str, list[asyncio.Future[None]]] = {"learners": [], "board": []}

    # --- the teacher ---------------------------------------------------------------------
    def send(self, make: Callable[[int], Question]) -> Question:
        """Put a new position on the board (``make(its id)``): the answers so far are forgotten."""
        q = make(self._next_id)
        self._next_id += 1
        self.question, self.answers, self.revealed, self.names_shown = q, {}, False, False
        self._changed(learners=True)
        return q

    def puzzle(self, pid: str) -> Question:
        """A shipped puzzle's question, to :meth:`send` (the solver's work: run it off the server's loop)."""
        pid = pid.strip()
        if pid not in shipped_puzzles():
            raise BoardError(_("there is no puzzle {id}: choose one of the list").format(id=pid[:60]))
        return _shipped_question(pid)

    def typed(self, hand: str, table: str) -> Question:
        """A typed position's question, to :meth:`send` (the bot's work: run it off the server's loop)."""
        return typed_question(0, self.rules, hand[:200], table[:400])

    def send_puzzle(self, pid: str) -> Question:
        q = self.puzzle(pid)
        return self.send(lambda qid: replace(q, id=qid))

    def send_typed(self, hand: str, table: str) -> Question:
        q = self.typed(hand, table)
        return self.send(lambda qid: replace(q, id=qid))

    def reveal(self) -> None:
        if self.question is not None and not self.revealed:
            self.revealed = True
            self._changed(learners=True)

    def show_names(self, shown: bool) -> None:
        self.names_shown = shown
        self._changed(learners=False)

    def clear(self) -> None:
        self.question, self.answers, self.revealed = None, {}, False
        self._changed(learners=True)

    # --- the learners --------------------------------------------------------------------
    def answer(self, learner: int, nickname: str, question: object, choice: object) -> None:
        """A learner's choice for the question on the board; :class:`BoardError` says why not."""
        q = self.question
        if q is None:
            raise BoardError(_("your teacher has not sent a position: there is nothing to answer"))
        if type(question) is not int or question != q.id:  # (JSON's true is no question number)
            raise BoardError(_("that position is no longer on the board: answer the one your teacher sent last"))
        if self.revealed:
            raise BoardError(_("the answer is shown already: wait for your teacher's next position"))
        if learner in self.answers:
            raise BoardError(_("you have answered this position already: your first answer counts"))
        if not isinstance(choice, str) or choice not in q.choices:
            raise BoardError(_("{answer} is not one of this position's choices: choose one of its buttons").format(
                answer=str(choice)[:40]))
        self.answers[learner] = (choice, nickname)
        self._changed(learners=False)

    def learner_view(self, learner: int) -> dict[str, Any]:
        """What a learner's page shows, in the current language (JSON)."""
        q = self.question
        if q is None:
            return {"version": self.version, "question": None}
        mine = self.answers.get(learner, (None, ""))[0]
        p = q.puzzle
        view: dict[str, Any] = {
            "id": q.id, "prompt": q.prompt(), "hand": [str(c) for c in q.hand], "table": [str(x) for x in q.table],
            "next_hand": [str(c) for c in p.next_hand] if p is not None else [],
            "kladda": [str(c) for c in (p.kladda if p is not None else q.kladda)],
            "played": p is not None and p.kind == "what-must-you-take",
            "choices": [{"key": k, "words": q.choice_words(k)} for k in q.choices], "mine": mine, "reveal": None}
        if self.revealed:
            answer, why = q.reveal()
            view["reveal"] = {"answer": answer, "explanation": why, "right": sorted(q.right),
                              "yours": None if mine is None else mine in q.right}
        return {"version": self.version, "question": view}

    def distribution(self) -> list[tuple[str, str, int, list[str], bool]]:
        """Each choice: (key, words, how many chose it, who (sorted), right), in the position's order."""
        q = self.question
        if q is None:
            return []
        who: dict[str, list[str]] = {k: [] for k in q.choices}
        for choice, nick in self.answers.values():
            who[choice].append(nick)
        return [(k, q.choice_words(k), len(who[k]), sorted(who[k], key=str.casefold), k in q.right)
                for k in q.choices]

    # --- waiting -------------------------------------------------------------------------
    def _changed(self, *, learners: bool) -> None:
        self.tally += 1
        if learners:
            self.version += 1
        for who in ("learners", "board") if learners else ("board",):
            for f in self._waiting[who]:
                if not f.done():
                    f.set_result(None)
            self._waiting[who] = []

    async def wait(self, who: str, since: int, timeout: float = WAIT) -> None:
        """Until the board's ``version`` (``who="learners"``) or ``tally`` (``"board"``) is past
        ``since``, or ``timeout`` seconds."""
        if (self.version if who == "learners" else self.tally) > since:
            return
        f: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[who].append(f)
        try:
            await asyncio.wait_for(f, timeout)
        except TimeoutError:
            pass
        finally:
            if f in self._waiting[who]:
                self._waiting[who].remove(f)


# --- the learners' kernels -----------------------------------------------------------------

class _LearnerBase(KernelRequest):
    def initialize(self, board: Board) -> None:
        self.board = board

    def _who(self, token: Any) -> tuple[str, str, int]:
        return self._signed(token, _("sign in first: the teacher's board is for the learners of the class"))


def _language_of(lang: object) -> str:
    return lang if isinstance(lang, str) and lang in LANGUAGES else LANGUAGES[0]


class BoardViewHandler(_LearnerBase):
    async def get(self) -> None:
        with use_language(_language_of(self.get_argument("lang", ""))):
            _code, _nick, learner = self._who(self.get_argument("learner", ""))
            try:
                since = int(self.get_argument("since", "-1"))
            except ValueError:
                self._refuse(400, "since: a version number")
            await self.board.wait("learners", since)
            if self.request.connection is None or self._finished:
                return
            self.set_header("Cache-Control", "no-store")
            self.finish(self.board.learner_view(learner))


class BoardAnswerHandler(_LearnerBase):
    def post(self) -> None:
        data = self._body()
        with use_language(_language_of(data.get("lang"))):
            _code, nickname, learner = self._who(data.get("learner"))
            try:
                self.board.answer(learner, nickname, data.get("question"), data.get("answer"))
            except BoardError as e:
                self._refuse(409, str(e))
            self.finish(self.board.learner_view(learner))


# --- the teacher's board (the projector) ---------------------------------------------------

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f3f5f2;color:#1d2a1f;
font-size:26px;line-height:1.35}
main{max-width:80rem;margin:0 auto;padding:1rem 1.5rem}
h1{font-size:2.1rem;margin:.3rem 0 .6rem}h2{font-size:1.4rem;margin:1.2rem 0 .4rem}
.prompt{font-size:1.35rem;font-weight:600;margin:.4rem 0 .8rem}
.position{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-end}
.count{font-size:1.6rem;font-weight:700}
ol.dist{list-style:none;padding:0;margin:.5rem 0}
ol.dist li{display:grid;grid-template-columns:minmax(12rem,22rem) 1fr 4.5rem;gap:.8rem;align-items:center;
margin:.35rem 0;font-size:1.5rem}
.words{overflow-wrap:anywhere;min-width:0}ol.dist li.others{display:block;font-size:1.1rem;color:#37474f}
.bar{height:2.4rem;background:#2e6b3a;border-radius:.3rem;min-width:.3rem}
li.right .bar{background:#1565c0}li.right .words::after{content:" ✔";color:#1565c0}
.n{font-weight:700;text-align:right;font-variant-numeric:tabular-nums}
.names{grid-column:1/-1;font-size:1.1rem;color:#37474f;margin:-.2rem 0 .3rem}
.answer{background:#e3f2fd;border-left:.5rem solid #1565c0;padding:.6rem 1rem;margin:1rem 0;font-size:1.35rem}
.controls{display:flex;flex-wrap:wrap;gap:.6rem;margin:1rem 0}
button,a.button{font-size:1.2rem;padding:.5rem 1.1rem;border:0;border-radius:.45rem;background:#2e6b3a;color:#fff;
cursor:pointer;text-decoration:none}
button.quiet{background:#546e7a}
details{margin-top:2rem;font-size:1rem}details form{margin:.6rem 0}
details form label{display:inline-block;margin:.2rem 1rem .2rem 0}
@media (max-width:640px){details form label input{display:block;margin-top:.2rem}}
select,input{font-size:1rem;padding:.35rem;max-width:100%}
.error{color:#a3161a;font-weight:700}.note{color:#555;font-size:1rem}
"""

_SCRIPT = long_poll_script("board/state", "tally")


def _post_button(action: str, text: str, xsrf_form: str, quiet: bool = False, **fields: str) -> str:
    hidden = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in fields.items())
    cls = ' class="quiet"' if quiet else ""
    return (f'<form method="post" action="/krypteach/teacher/board/{action}">{xsrf_form}{hidden}'
            f'<button type="submit"{cls}>{escape(text)}</button></form>')


def board_live_html(board: Board, xsrf_form: str) -> str:
    """The board's live part, in the current language: the position, the distribution of the
    class's answers (names only when shown), the answer once shown, and the buttons."""
    q = board.question
    if q is None:
        return "<p class='prompt'>" + escape(_("No position on the board: send one below.")) + "</p>"
    p = q.puzzle
    width = 96
    cards = table_html(q.table, p.kladda if p is not None else (), width=width, names=_seat_names(q.rules.players))
    label = _("The card played") if p is not None and p.kind == "what-must-you-take" else _("The hand (handen)")
    cards += hand_html(q.hand, width=width, label=label)
    if p is not None and p.next_hand:
        cards += hand_html(p.next_hand, width=width // 2 + 24, label=_("The next player's hand (shown)")
                           if p.kind == "set-up-dukning" else _("The opponent's hand (shown)"))
    head = escape(puzzle_words(p.id) or p.id) if p is not None else escape(_("A position of the teacher's"))
    n = len(board.answers)
    count = ngettext("{n} answer", "{n} answers", n).format(n=number(n))
    rows = []
    dist = board.distribution()
    most = max((c for _k, _w, c, _n, _r in dist), default=0) or 1
    listed = dist if len(dist) <= MOST_ROWS else [d for d in dist if d[2] or (board.revealed and d[4])]
    for key, words, c, names, right in listed:
        cls = ' class="right"' if board.revealed and right else ""
        who = (f"<div class='names'>{escape(', '.join(names))}</div>" if board.names_shown and names else "")
        rows.append(f"<li{cls} data-choice='{escape(key)}'><span class='words'>{escape(words)}</span>"
                    f"<span class='bar' style='width:{100 * c / most:.0f}%'></span>"
                    f"<span class='n'>{escape(number(c))}</span>{who}</li>")
    if len(listed) < len(dist):  # a position of many moves: a projector shows the ones chosen
        others = len(dist) - len(listed)
        rows.append("<li class='others'>" + escape(ngettext(
            "and {n} other move: nobody has chosen it", "and {n} other moves: nobody has chosen them", others).format(
                n=number(others))) + "</li>")
    answer = ""
    if board.revealed:
        said, why = q.reveal()
        answer = ("<div class='answer' role='status'><b>" + escape(_("The engine's answer: {answer}").format(
            answer=said)) + "</b><br>" + escape(why) + "</div>")
    buttons = [_post_button("names", _("Hide names") if board.names_shown else _("Show names"), xsrf_form,
                            quiet=True, shown="0" if board.names_shown else "1")]
    if not board.revealed:
        buttons.insert(0, _post_button("reveal", _("Show the answer on every page"), xsrf_form))
    buttons.append(_post_button("clear", _("Take the position off the board"), xsrf_form, quiet=True))
    return (f"<h2>{head}</h2><p class='prompt'>{escape(q.prompt())}</p><div class='position'>{cards}</div>"
            f"<p class='count' role='status'>{escape(count)}</p><ol class='dist'>{''.join(rows)}</ol>{answer}"
            f"<div class='controls'>{''.join(buttons)}</div>")


def _send_forms(board: Board, xsrf_form: str, error: str, flagged: Sequence[tuple[str, str, Flagged]] = ()) -> str:
    from ..widgets.puzzle_widget import KIND_TITLES

    # a kind's puzzles under each game's rules (classic Kasino's last cards, and avig kasino's, are
    # numbered alike); the puzzle on the board stays chosen, so that the next is one step down
    groups: dict[tuple[str, str], list[str]] = {}
    on_board = board.question.puzzle.id if board.question is not None and board.question.puzzle else None
    for pid, p in shipped_puzzles().items():
        chosen = " selected" if pid == on_board else ""
        groups.setdefault((p.kind, p.rules.describe()), []).append(
            f"<option value='{escape(pid, quote=True)}'{chosen}>{escape(puzzle_words(pid) or pid)}</option>")
    options = "".join(f"<optgroup label='{escape(_(KIND_TITLES[k]) + ' · ' + game, quote=True)}'>{''.join(o)}"
                      "</optgroup>" for (k, game), o in groups.items())
    err = f"<p class='error' role='alert'>{escape(error)}</p>" if error else ""
    t = {k: escape(v) for k, v in (
        ("send", _("Send a position to every learner's page")), ("puzzle", _("A puzzle")),
        ("send-puzzle", _("Send the puzzle")), ("typed", _("Or type a position (the engine's card text)")),
        ("hand", _("The hand, e.g. 7H 2S")), ("table", _("The table, e.g. 5C 2D KS")),
        ("send-typed", _("Send the position")),
        ("flagged", _("Or a position from a learner's giv (a move the coach flagged)")),
        ("send-flagged", _("Send this position")),
        ("rules", _("The class's rules: {rules}").format(rules=board.rules.describe())))}
    return (f"<details open><summary>{t['send']}</summary>{err}"
            f"<form method='post' action='/krypteach/teacher/board/send'>{xsrf_form}"
            f"<label for='puzzle'>{t['puzzle']}</label> <select id='puzzle' name='puzzle'>{options}</select> "
            f"<button type='submit'>{t['send-puzzle']}</button></form>"
            f"<form method='post' action='/krypteach/teacher/board/send'>{xsrf_form}<div>{t['typed']}</div>"
            f"<label>{t['hand']} <input id='hand' name='hand' size='18' autocomplete='off'></label> "
            f"<label>{t['table']} <input id='table' name='table' size='24' autocomplete='off'></label> "
            f"<button type='submit'>{t['send-typed']}</button></form>{_flagged_form(flagged, xsrf_form, t)}"
            f"<p class='note'>{t['rules']}</p></details>")


def _flagged_form(flagged: Sequence[tuple[str, str, Flagged]], xsrf_form: str, t: dict[str, str]) -> str:
    if not flagged:
        return ""
    options = "".join(f"<option value='{escape(value, quote=True)}'>{escape(words)}</option>"
                      for value, words, _f in flagged)
    return (f"<form method='post' action='/krypteach/teacher/board/send'>{xsrf_form}"
            f"<label for='flagged'>{t['flagged']}</label> <select id='flagged' name='flagged'>{options}</select> "
            f"<button type='submit'>{t['send-flagged']}</button></form>")


def board_page(board: Board, xsrf_form: str, error: str = "", flagged: Sequence[tuple[str, str, Flagged]] = ()) -> str:
    """The teacher's board, for a projector: large type, its live part kept up to date by a
    small script that long-polls ``board/state``; the forms that send a position below."""
    return live_page(_("The teacher's board"), board_live_html(board, xsrf_form), _send_forms(board, xsrf_form, error, flagged),
                     _STYLE, _SCRIPT, data=f" data-tally='{board.tally}'")


class _BoardTeacher(TeacherBase):
    def initialize(self, board: Board) -> None:
        self.board = board


class BoardPageHandler(_BoardTeacher):
    async def get(self) -> None:
        if not self._teacher():
            return
        kt = self._kt()
        flagged = await off_the_loop(class_flagged, kt.store, kt.class_label) if kt.store is not None else []
        self.finish(board_page(self.board, self.xsrf_form_html(), self.get_argument("error", "")[:300], flagged))


class BoardStateHandler(_BoardTeacher):
    async def get(self) -> None:
        if not self._is_teacher():
            raise tornado.web.HTTPError(403, "the teacher's board")
        try:
            since = int(self.get_argument("since", "-1"))
        except ValueError:
            raise tornado.web.HTTPError(400, "since: a number") from None
        await self.board.wait("board", since)
        if self.request.connection is None or self._finished:
            return
        self.finish({"tally": self.board.tally, "html": board_live_html(self.board, self.xsrf_form_html())})


class BoardSendHandler(_BoardTeacher):
    async def post(self) -> None:
        if not self._teacher():
            return
        try:  # the solver's or the bot's answer is worked out in a worker thread: the class's pages go on
            kt = self._kt()
            if self.get_argument("puzzle", ""):
                q = await off_the_loop(self.board.puzzle, self.get_argument("puzzle"))
            elif self.get_argument("flagged", "") and kt.store is not None:
                f = await off_the_loop(find_flagged, kt.store, kt.class_label, self.get_argument("flagged")[:200])
                q = await off_the_loop(flagged_question, 0, f)
            else:
                q = await off_the_loop(self.board.typed, self.get_argument("hand", ""), self.get_argument("table", ""))
            self.board.send(lambda qid: replace(q, id=qid))
        except BoardError as e:
            from urllib.parse import urlencode

            self.redirect("/krypteach/teacher/board?" + urlencode({"error": str(e)[:300]}))
            return
        self.redirect("/krypteach/teacher/board")


class BoardRevealHandler(_BoardTeacher):
    def post(self) -> None:
        if self._teacher():
            self.board.reveal()
            self.redirect("/krypteach/teacher/board")


class BoardNamesHandler(_BoardTeacher):
    def post(self) -> None:
        if self._teacher():
            self.board.show_names(self.get_argument("shown", "0") == "1")
            self.redirect("/krypteach/teacher/board")


class BoardClearHandler(_BoardTeacher):
    def post(self) -> None:
        if self._teacher():
            self.board.clear()
            self.redirect("/krypteach/teacher/board")


def class_board(rules_preset: str | None) -> Board:
    """The board of a served class: its rule preset for typed positions."""
    return Board(Rules.preset(rules_preset) if rules_preset else Rules())


def board_handlers(board: Board) -> list[Any]:
    """The board's handlers, for the application (beside :func:`~krypteach.serve.tables.table_handlers`)."""
    b = {"board": board}
    return [(r"/krypteach/board", BoardViewHandler, b),
            (r"/krypteach/board/answer", BoardAnswerHandler, b),
            (r"/krypteach/teacher/board", BoardPageHandler, b),
            (r"/krypteach/teacher/board/state", BoardStateHandler, b),
            (r"/krypteach/teacher/board/send", BoardSendHandler, b),
            (r"/krypteach/teacher/board/reveal", BoardRevealHandler, b),
            (r"/krypteach/teacher/board/names", BoardNamesHandler, b),
            (r"/krypteach/teacher/board/clear", BoardClearHandler, b)]
