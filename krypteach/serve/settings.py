"""What ``krypteach serve`` decided, read by the application and every handler
(``settings["krypteach"]``); the cookies it sets; the cookie secret kept between runs."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import tornado.web

from ..classroom.store import ProgressStore
from ..i18n import DEFAULT_LANGUAGE, LANGUAGES
from .gate import ClassGate

__all__ = ["COOKIE", "LANG_COOKIE", "LEARNER_COOKIE", "TEACHER_COOKIE", "ServeSettings", "cookie_secret_file"]

COOKIE = "krypteach_client"
LEARNER_COOKIE = "krypteach_learner"
TEACHER_COOKIE = "krypteach_teacher"
#: the language of the learner's last lesson page: where ``/`` leads them, and the language
#: of the door and the teacher's pages (not HttpOnly: it is no secret, and pages may read it)
LANG_COOKIE = "krypteach_lang"


@dataclass
class ServeSettings:
    """What ``krypteach serve`` decided; read by the application and its handlers."""

    gate: ClassGate
    start_page: str | None
    #: seconds without a connected browser before a handed-out kernel is shut down
    grace: float = 60.0

    @property
    def cull_interval(self) -> float:
        return min(10.0, max(1.0, self.grace / 3))
    on_listening: Callable[[int], None] | None = None
    #: called once, when every warm kernel is ready: (kernels, seconds since the start)
    on_ready: Callable[[int, float], None] | None = None
    #: pages warmed for the whole class (page -> kernels); while the class is in, a taken
    #: kernel is replaced only down to ``spare`` waiting ones, so that starting kernels does
    #: not slow the learners' clicks; the full warm-up comes back when every page has closed
    warm: dict[str, int] = field(default_factory=dict)
    spare: int = 3
    #: kernels shut down by the culler, by reason (for the log and the tests)
    culled: dict[str, int] = field(default_factory=dict)
    #: the learners' progress (None: not kept)
    store: ProgressStore | None = None
    #: signs the learner cookie; the kernels check it (KRYPTEACH_LEARNER_KEY)
    learner_key: bytes = b""
    #: opens the teacher's page (never the class code); None: no teacher's page
    teacher_code: str | None = None
    #: lesson -> title, for the teacher's page, in the class's language
    titles: dict[str, str] = field(default_factory=dict)
    #: language -> lesson -> title (the teacher's page follows the request's language)
    titles_by_language: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the lesson pages shown (file names), None: every notebook of the folder
    shown: list[str] | None = None
    #: the class's language, and the languages served (each in its folder under Voilà's root)
    language: str = DEFAULT_LANGUAGE
    languages: tuple[str, ...] = LANGUAGES
    #: the class's rule preset (the classroom file's ``[game] rules``): the rules sheet describes that game
    game_rules: str | None = None
    #: the live class's tables: the bot of empty seats, and seconds before it plays a gone learner's seat
    live_bot: str = "careful"
    live_replace_after: float = 60.0
    #: a learner at a table may ask for a hint (the classroom file's ``[live] hints``)
    live_hints: bool = False

    def start_url(self, lang: str | None = None) -> str:
        """The start page in ``lang`` (else the class's language), or the file list."""
        if not self.start_page:
            return "/voila/tree"
        return f"/voila/render/{quote(lang or self.language)}/{quote(self.start_page)}"

    def request_language(self, handler: tornado.web.RequestHandler) -> str:
        """The language a request is answered in: the browser's choice (its last lesson
        page's language, kept in a cookie), else the class's."""
        chosen = handler.get_cookie(LANG_COOKIE) or ""
        return chosen if chosen in self.languages else self.language

    @property
    def class_label(self) -> str:
        """The class in the progress store: its code, or OPEN for ``--open``."""
        return self.gate.code or "OPEN"


def cookie_secret_file(folder: Path) -> bytes:
    """A cookie secret kept between runs, so that learners stay in after a restart."""
    path = folder / "cookie_secret"
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except OSError:
        pass
    data = secrets.token_bytes(32)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.chmod(path, 0o600)
    except OSError:
        pass  # a read-only home: learners enter the code again after a restart
    return data
