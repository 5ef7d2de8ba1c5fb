"""Who is learning in this kernel, and what their page holds.

A served lesson page has a kernel of its own. ``krypteach serve`` knows the learner
(the nickname and PIN typed with the class code; the browser keeps an HttpOnly cookie
that names nobody). The page's :class:`~krypteach.widgets.LearnerBar` asks the server for
a token made for this one kernel (:func:`sign_learner` with the kernel's random
``nonce``) and hands it to the kernel, which checks the signature with the key the server
put in its environment (``KRYPTEACH_LEARNER_KEY``) and the nonce — so a page cannot write
progress for somebody else, and a token seen once is good for no other page — and from
then on every exercise, self-check, puzzle and giv of the page is recorded in the
progress store (:mod:`krypteach.classroom.store`).

The widgets only call :func:`current` ``.declare(…)`` when they are made and
``.record(…)`` when a learner answers; where nobody is signed in (JupyterLab, the
tests, an open page without a nickname) nothing is written, and a record made before
the token arrives waits for it.

>>> key = b"k" * 32
>>> token = sign_learner(key, "K7RPX", "Ann", 7, nonce="n0")
>>> read_learner(key, token, nonce="n0")
('K7RPX', 'Ann', 7)
>>> read_learner(key, token, nonce="another page's") is None
True
>>> forged = sign_learner(b"a key the page made up".ljust(32), "K7RPX", "Bo", 8, nonce="n0")
>>> read_learner(key, forged, nonce="n0") is None, read_learner(key, token[:-2] + "xx", nonce="n0") is None
(True, True)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..i18n import _
from .store import (
    PROGRESS_FORMAT,
    Homework,
    ProgressStore,
    Standing,
    check_game_record,
    normalize_nickname,
    read_progress_file,
    standing_of,
    themes_text,
)

__all__ = ["ENV_KEY", "ENV_SITE", "ENV_STORE", "BrowserProgress", "Session", "current", "lesson_of_path",
           "read_learner", "sign_learner"]

ENV_KEY = "KRYPTEACH_LEARNER_KEY"
ENV_STORE = "KRYPTEACH_PROGRESS"
#: set in the static site's kernels (Pyodide, no server): progress lives in the learner's browser
ENV_SITE = "KRYPTEACH_SITE"


@dataclass
class BrowserProgress:
    """One learner's progress kept in their browser (the static site): the page's learner bar
    keeps it in ``localStorage`` as a progress file (``krypteach-progress/1``), hands it to the
    kernel when the page opens, and is sent every new attempt to keep (``on_save``).
    Read back with :meth:`ProgressStore.import_progress` on the teacher's page."""

    nickname: str
    items: dict[str, dict[str, str]] = field(default_factory=dict)
    attempts: list[tuple[Any, ...]] = field(default_factory=list)
    on_save: list[Callable[[str], None]] = field(default_factory=list)
    #: "lesson place" -> the parti in progress of that game table (game records), as the server keeps it
    games: dict[str, str] = field(default_factory=dict)
    backend = "browser"
    where = "browser"

    @classmethod
    def from_file(cls, text: str) -> BrowserProgress:
        nickname, items, attempts = read_progress_file(text)
        raw = json.loads(text).get("games", {})  # read_progress_file has read it as JSON already
        games = {}
        if isinstance(raw, dict):  # a parti that cannot be kept is dropped: the lessons go on
            for key, record in list(raw.items())[:_MAX_GAMES]:
                try:
                    games[str(key)[:170]] = check_game_record(record)
                except ValueError:
                    continue
        return cls(nickname, {lesson: dict(pairs) for lesson, pairs in items.items()}, list(attempts), games=games)

    def to_file(self) -> str:
        data: dict[str, Any] = {"format": PROGRESS_FORMAT, "nickname": self.nickname, "items": self.items,
                                "attempts": [list(a) for a in self.attempts]}
        if self.games:
            data["games"] = self.games
        return json.dumps(data, ensure_ascii=False)

    def save_game(self, _learner: int, lesson: str, place: str, record: str) -> None:
        key = f"{lesson[:80]} {place[:80]}"
        if key not in self.games and len(self.games) >= _MAX_GAMES:
            raise ValueError(_("this browser keeps at most {most} partier in progress").format(most=_MAX_GAMES))
        self.games[key] = check_game_record(record)
        self._saved()

    def saved_game(self, _learner: int, lesson: str, place: str) -> str | None:
        return self.games.get(f"{lesson[:80]} {place[:80]}")

    def saved_games(self, _learner: int, place: str) -> list[tuple[str, str]]:
        out = []
        for key, record in self.games.items():
            lesson, _sep, at = key.rpartition(" ")
            if at == place[:80]:
                out.append((lesson, record))
        return sorted(out)

    def _saved(self) -> None:
        text = self.to_file()
        for save in list(self.on_save):
            save(text)

    def declare_items(self, lesson: str, items: Any) -> None:
        mine = self.items.setdefault(lesson, {})
        new = {it[0]: it[1] for it in items if it[0] not in mine}
        if new:
            mine.update(new)
            self._saved()

    def record(self, _learner: int, lesson: str, item: str, kind: str, *, correct: bool | None = None,
               rule: str | None = None, topic: str | None = None, score: int | None = None,
               at: float | None = None, how: str | None = None, answer: str | None = None,
               expected: str | None = None, themes: Any = None) -> None:
        import time

        self.attempts.append((lesson, item, kind, correct, rule, topic, score, time.time() if at is None else at,
                              how, None if answer is None else answer[:200],
                              None if expected is None else expected[:200], themes_text(themes)))
        self._saved()

    def puzzle_attempts(self, _learner: int | None = None) -> list[tuple[Any, ...]]:
        """The puzzles this learner answered, oldest first, as :meth:`ProgressStore.puzzle_attempts`
        gives them (the learner is 0: a browser holds one)."""
        return [(0, a[1], a[3], a[8] if len(a) > 8 else None, tuple(((a[11] if len(a) > 11 else None) or "").split()),
                 a[6], float(a[7])) for a in sorted(self.attempts, key=lambda a: a[7]) if a[2] == "puzzle"]

    def standing(self, _learner: int) -> Standing:
        totals = {lesson: sum(1 for k in pairs.values() if k in ("exercise", "selfcheck"))
                  for lesson, pairs in self.items.items()}
        return standing_of(self.nickname, totals, [(a[0], a[1], a[2], a[3], a[5], a[6]) for a in self.attempts])
_TOKEN_MAX = 600
#: partier in progress kept in a browser's progress file (one per game table of the lessons, and a
#: lesson page's moves the coach flagged: :mod:`.flagged`)
_MAX_GAMES = 16


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign_learner(key: bytes, class_code: str, nickname: str, learner_id: int, nonce: str = "") -> str:
    """A token naming the learner for the kernel whose nonce is ``nonce``, signed with ``key``
    (HMAC-SHA256)."""
    body = _b64(json.dumps([class_code, nickname, int(learner_id), nonce], ensure_ascii=False).encode())
    mac = hmac.new(key, body.encode(), hashlib.sha256).digest()[:16]
    return f"{body}.{_b64(mac)}"


def read_learner(key: bytes, token: str, nonce: str = "") -> tuple[str, str, int] | None:
    """``(class code, nickname, learner id)`` of a token signed with ``key`` for ``nonce``, else None."""
    if not isinstance(token, str) or len(token) > _TOKEN_MAX or token.count(".") != 1:
        return None
    body, _, mac = token.partition(".")
    want = hmac.new(key, body.encode(), hashlib.sha256).digest()[:16]
    try:
        if not hmac.compare_digest(_unb64(mac), want):
            return None
        code, nickname, learner, made_for = json.loads(_unb64(body).decode())
    except (ValueError, TypeError):
        return None
    if not (isinstance(code, str) and isinstance(nickname, str) and isinstance(learner, int)):
        return None
    if not isinstance(made_for, str) or not hmac.compare_digest(made_for.encode(), nonce.encode()):
        return None
    return code, nickname, learner


def lesson_of_path(path: str) -> str | None:
    """The lesson of a page's address: ``/voila/render/03_take_all.ipynb`` -> ``03_take_all``.

    >>> lesson_of_path("/voila/render/03_take_all.ipynb"), lesson_of_path("/user/ann/voila/render/00_start.ipynb")
    ('03_take_all', '00_start')
    >>> lesson_of_path("/kurs/voila/render/07_play.html")   # a page of the static site
    '07_play'
    >>> lesson_of_path("/kurs/07_play.html")
    '07_play'
    >>> lesson_of_path("/etc/passwd") is None
    True
    """
    m = re.search(r"/(?:voila/render/(?:.*/)?)?([0-9]{2}_[A-Za-z0-9_-]{1,60})\.(?:ipynb|html)$", path or "")
    return m.group(1) if m else None


@dataclass
class Session:
    """The learner of this kernel (once known), the page's lesson and what it holds."""

    lesson: str | None = None
    learner: int | None = None
    nickname: str | None = None
    class_code: str | None = None
    store: ProgressStore | BrowserProgress | None = None
    #: item -> kind, in the order the page made them
    items: dict[str, str] = field(default_factory=dict)
    #: item -> what the teacher's page calls it (an exercise's title as written, a question's text)
    titles: dict[str, str] = field(default_factory=dict)
    #: records made before the learner was known: (item, kind, keyword arguments)
    pending: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    #: called after every record (the learner bar shows the new standing)
    listeners: list[Callable[[], None]] = field(default_factory=list)
    problem: str = ""
    #: partier in progress written before the learner was known: place -> game records
    unsaved_games: dict[str, str] = field(default_factory=dict)
    _counters: dict[str, int] = field(default_factory=dict)
    _lock: threading.RLock = field(default_factory=threading.RLock)

    def declare(self, base: str, kind: str, title: str | None = None) -> str:
        """A new item of this page (``base-1``, ``base-2`` …); its id. ``title``: what the
        teacher's page calls it."""
        with self._lock:
            n = self._counters.get(base, 0) + 1
            self._counters[base] = n
            item = f"{base}-{n}"
            self.items[item] = kind
            if title:
                self.titles[item] = title
            return item

    def place(self, base: str) -> str:
        """A name for a part of this page that is no item (``base-1``, ``base-2`` …): a game table."""
        with self._lock:
            n = self._counters.get("place " + base, 0) + 1
            self._counters["place " + base] = n
            return f"{base}-{n}"

    @property
    def signed_in(self) -> bool:
        return self.learner is not None and self.store is not None

    def _adopt(self, open_store: Callable[[], ProgressStore | BrowserProgress],
               who: Callable[[ProgressStore | BrowserProgress], tuple[str, str, int]], page: str,
               lesson: str | None = None) -> bool:
        """Sign the learner in: open the store, name the learner, say what this page holds and
        keep what was answered before. False (and :attr:`problem` says why) if the store fails:
        progress must never break a lesson."""
        with self._lock:
            try:
                store = open_store()
                self.class_code, self.nickname, self.learner = who(store)
                self.store = store
                self.lesson = lesson or self.lesson or lesson_of_path(page)
                if self.lesson:
                    store.declare_items(self.lesson, [(item, kind, self.titles.get(item))
                                                      for item, kind in self.items.items()])
                for item, kind, kwargs in self.pending:
                    store.record(self.learner, self.lesson or "?", item, kind, **kwargs)
                self.pending.clear()
                for place, record in self.unsaved_games.items():
                    store.save_game(self.learner, self.lesson or "?", place, record)
                self.unsaved_games.clear()
                self._seen(store)  # the page is open: the teacher sees the learner here
            except Exception as e:
                self.problem = _("progress is not kept: {why}").format(why=e)
                self.store = None
                return False
        self._tell()
        return True

    def _server_store(self, where: str | None) -> Callable[[], ProgressStore | BrowserProgress]:
        return lambda: self.store if isinstance(self.store, ProgressStore) else ProgressStore(where)

    def sign_in(self, token: str, page: str, lesson: str | None = None, nonce: str = "") -> bool:
        """Take the learner from the page's token (checked with the server's key, made for this
        kernel's ``nonce``); True if it holds."""
        key = os.environ.get(ENV_KEY, "")
        found = read_learner(key.encode(), token, nonce) if key else None
        if found is None:
            return False
        return self._adopt(self._server_store(os.environ.get(ENV_STORE) or None), lambda _store: found, page, lesson)

    def sign_in_on_hub(self, page: str) -> bool:
        """On JupyterHub the kernel is the learner's own: the hub's user name is the learner
        (``JUPYTERHUB_USER``), in the class ``KRYPTEACH_CLASS`` (default ``HUB``), when the
        hub's spawner gives the servers a progress store (``KRYPTEACH_PROGRESS``)."""
        user, where = os.environ.get("JUPYTERHUB_USER"), os.environ.get(ENV_STORE)
        if not user or not where or self.signed_in:
            return self.signed_in
        code = (os.environ.get("KRYPTEACH_CLASS") or "HUB").strip().upper()

        def who(store: ProgressStore | BrowserProgress) -> tuple[str, str, int]:
            assert isinstance(store, ProgressStore)
            return code, user, store.join(code, user)

        return self._adopt(self._server_store(where), who, page)

    def sign_in_browser(self, saved: str, nickname: str | None, page: str) -> bool:
        """The static site: the learner's progress from their browser (``saved``: the progress
        file the bar kept, or ""), or a new one under ``nickname``. False while there is neither;
        a nickname that cannot be used raises :class:`~krypteach.classroom.store.NicknameError`."""
        if os.environ.get(ENV_SITE) != "1":
            return False
        progress = None
        if saved:
            try:
                progress = BrowserProgress.from_file(saved)
            except ValueError as e:
                self.problem = _("the progress kept in this browser could not be read: {why}").format(why=e)
        if nickname:
            name = normalize_nickname(nickname)
            if progress is None or progress.nickname != name:
                progress = BrowserProgress(name)
        if progress is None:
            return False
        mine = progress
        return self._adopt(lambda: mine, lambda _store: ("SITE", mine.nickname, 0), page)

    def record(self, item: str, kind: str, **kwargs: Any) -> None:
        """One attempt of this page's learner (see :meth:`ProgressStore.record`)."""
        with self._lock:
            if self.store is None or self.learner is None:
                if len(self.pending) < 1000:
                    self.pending.append((item, kind, kwargs))
                return
            try:
                self.store.record(self.learner, self.lesson or "?", item, kind, **kwargs)
            except Exception as e:  # a database gone away: the lesson goes on
                self.problem = _("progress is not kept: {why}").format(why=e)
                return
        self._tell()

    def _seen(self, store: ProgressStore | BrowserProgress) -> None:
        if isinstance(store, ProgressStore) and self.learner is not None:
            store.seen(self.learner, self.lesson)

    def save_game(self, place: str, record: str) -> None:
        """Keep the parti in progress of the game table ``place`` (its givar as game records):
        a reload of the page finds it (:meth:`saved_game`). Before the learner is known it
        waits for them; a store that fails is noted in :attr:`problem`, never raised."""
        with self._lock:
            if self.store is None or self.learner is None:
                self.unsaved_games[place] = record
                return
            try:
                self.store.save_game(self.learner, self.lesson or "?", place, record)
                self._seen(self.store)
            except Exception as e:
                self.problem = _("progress is not kept: {why}").format(why=e)

    def saved_game(self, place: str) -> str | None:
        """The parti kept for the game table ``place`` of this page's lesson, or None."""
        with self._lock:
            if self.store is None or self.learner is None:
                return None
            try:
                return self.store.saved_game(self.learner, self.lesson or "?", place)
            except Exception as e:
                self.problem = _("progress is not kept: {why}").format(why=e)
                return None

    def saved_games(self, place: str) -> list[tuple[str, str]]:
        """``(lesson, record)`` kept at ``place`` on every lesson page of this learner."""
        with self._lock:
            if self.store is None or self.learner is None:
                return []
            try:
                return self.store.saved_games(self.learner, place)
            except Exception as e:
                self.problem = _("progress is not kept: {why}").format(why=e)
                return []

    def standing(self) -> Standing | None:
        with self._lock:
            if self.store is None or self.learner is None:
                return None
            try:
                return self.store.standing(self.learner)
            except Exception as e:
                self.problem = _("progress is not kept: {why}").format(why=e)
                return None

    def puzzle_attempts(self, everyone: bool = False) -> tuple[Any, list[tuple[Any, ...]]]:
        """``(this learner, puzzle attempts)``: this page's learner's puzzles answered, or with
        ``everyone`` every learner's of the store (a puzzle's rating is corrected by every learner
        who tries it; a browser holds only its own), as :meth:`ProgressStore.puzzle_attempts`
        gives them; ``(None, [])`` where nobody is signed in."""
        with self._lock:
            if self.store is None or self.learner is None:
                return None, []
            try:
                return self.learner, self.store.puzzle_attempts(None if everyone else self.learner)
            except Exception as e:
                self.problem = _("progress is not kept: {why}").format(why=e)
                return None, []

    def homework(self) -> list[Homework]:
        """The homework the teacher set this learner's class (none where no server keeps it: the
        static site, JupyterLab), the soonest due first."""
        with self._lock:
            if not isinstance(self.store, ProgressStore) or self.learner is None or not self.class_code:
                return []
            try:
                return self.store.homework(self.class_code)
            except Exception as e:
                self.problem = _("progress is not kept: {why}").format(why=e)
                return []

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()


_current = Session()


def current() -> Session:
    """The session of this kernel (one page, one learner)."""
    return _current
