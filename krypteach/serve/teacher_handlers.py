"""The teacher's requests: ``/krypteach/teacher`` (sign in, the class's overview), its CSV
export, the import of progress files from the static site, and a learner's reset. Behind
the teacher code and cookie; the learners' class code never opens them. The pages
themselves are :mod:`krypteach.serve.teacher`."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any
from urllib.parse import urlencode

import tornado.web

from ..classroom.practice import PracticeBook, class_practice, homework_answers, homework_result
from ..classroom.store import Homework, HomeworkError, NicknameError, ProgressStore
from ..i18n import _, language, ngettext, set_task_language
from .door import host_ok, same_origin
from .offload import off_the_loop
from .pages import message_page
from .settings import TEACHER_COOKIE, ServeSettings
from .teacher import homework_csv, homework_form_page, homework_html, learner_page, teacher_login_page, teacher_page

__all__ = ["TeacherBase", "TeacherExportHandler", "TeacherHandler", "TeacherHomeworkExportHandler", "TeacherHomeworkHandler",
           "TeacherHomeworkRemoveHandler", "TeacherImportHandler", "TeacherLearnerHandler",
           "TeacherMergeHandler", "TeacherRemoveHandler", "TeacherRenameHandler", "TeacherResetClassHandler",
           "TeacherResetHandler", "TeacherResetLessonHandler", "TeacherResetPinHandler"]


def _by_learner(rows: list[tuple[Any, ...]]) -> dict[Any, list[tuple[Any, ...]]]:
    """Puzzle answers (:meth:`ProgressStore.puzzle_attempts`) grouped by learner, in their order."""
    by_learner: dict[Any, list[tuple[Any, ...]]] = {}
    for r in rows:
        by_learner.setdefault(r[0], []).append(r)
    return by_learner


def _homework_results(store: ProgressStore, label: str, learners: list[tuple[int, str]],
                      rows: list[tuple[Any, ...]]) -> tuple[list[Homework], dict[tuple[int, int], tuple[int, int]]]:
    """The class's homework and each learner's (done, solved) of each, from the puzzle answers
    ``rows`` (:meth:`ProgressStore.puzzle_attempts`)."""
    homework = store.homework(label)
    results: dict[tuple[int, int], tuple[int, int]] = {}
    if homework:
        by_learner = _by_learner(rows)
        for learner, _nick in learners:
            for hw in homework:
                results[(hw.id, learner)] = homework_result(hw, by_learner.get(learner, []))
    return homework, results


def _teacher_fingerprint(code: str) -> str:
    return hashlib.sha256(("krypteach-teacher:" + code).encode()).hexdigest()[:16]


class _TeacherBase(tornado.web.RequestHandler):
    """The teacher's page: its own code and cookie; the learners' class code never opens it."""

    def _kt(self) -> ServeSettings:
        return self.settings["krypteach"]  # type: ignore[no-any-return]

    def prepare(self) -> None:
        kt = self._kt()
        set_task_language(kt.request_language(self))
        if not host_ok(self):
            return
        self.set_header("Cache-Control", "no-store")
        if kt.teacher_code is None or kt.store is None:
            self.set_status(404)
            self.finish(message_page("teacher", _("this server has no teacher's page (no progress is kept)")))
            return
        if self.request.method not in ("GET", "HEAD"):
            # every teacher's form carries its _xsrf token (the server's settings do not turn
            # tornado's check on for every handler): a post without it is refused with 403
            if not same_origin(self):
                raise tornado.web.HTTPError(403, "a form from another site")
            self.check_xsrf_cookie()

    def _is_teacher(self) -> bool:
        kt = self._kt()
        raw = self.get_signed_cookie(TEACHER_COOKIE, max_age_days=1)
        if not raw or kt.teacher_code is None:
            return False
        return hmac.compare_digest(raw.decode(errors="replace"), _teacher_fingerprint(kt.teacher_code))

    def _titles(self) -> dict[str, str]:
        """The lessons' titles in the language of this request (the class's when not served in it)."""
        kt = self._kt()
        return kt.titles_by_language.get(language()) or kt.titles

    def _done(self, text: str, learner: int | None = None) -> None:
        """Back to the class's page (or to one learner's), saying what was done."""
        page = "/krypteach/teacher?" if learner is None else f"/krypteach/teacher/learner?id={learner}&"
        self.redirect(page + urlencode({"done": text}))

    def _teacher(self) -> bool:
        """Is the teacher signed in? Anybody else is sent to the teacher code (the board's, the
        tables' and the tournament's pages ask this first)."""
        if not self._is_teacher():
            self.redirect("/krypteach/teacher")
            return False
        return True

    def _teachers_store(self) -> ProgressStore | None:
        """The class's store for a signed-in teacher; anybody else is sent to the teacher code."""
        store = self._kt().store
        if not self._is_teacher() or store is None:
            self.redirect("/krypteach/teacher")
            return None
        return store


#: the base of a teacher's handler in another module (the teacher's board): the code, the cookie, the form check
TeacherBase = _TeacherBase


class TeacherHandler(_TeacherBase):
    async def get(self) -> None:
        if not self._is_teacher():
            self.finish(teacher_login_page(self.xsrf_form_html()))
            return
        kt = self._kt()
        assert kt.store is not None
        flash = self.get_argument("done", "")[:400]
        store, label, form, titles = kt.store, kt.class_label, self.xsrf_form_html(), self._titles()

        # every lesson of the class is a column from the start (the start page holds no work)
        lessons = [les for les in kt.titles if not les.startswith("00")]

        def page() -> str:
            view = store.overview(label, lessons)
            # the ratings are replayed from every learner's puzzle answers (a puzzle's rating is every class's)
            rows = store.puzzle_attempts()  # read once: the ratings and the homework both come from it
            practice = class_practice(PracticeBook.replay(rows), [i for i, _n in view.learners])
            homework, results = _homework_results(store, label, view.learners, rows)
            return teacher_page(view, label, form, titles, notice=store.notice, flash=flash,
                                item_titles=store.item_titles(), practice=practice,
                                homework=homework_html(homework, results, view.learners, form))

        self.finish(await off_the_loop(page))

    def post(self) -> None:
        kt = self._kt()
        address = self.request.remote_ip or "?"
        given = self.get_argument("teacher_code", "")
        verdict = kt.gate.try_teacher_code(given, kt.teacher_code or "", address)
        if not verdict.ok:
            self.set_status(verdict.status)
            self.finish(teacher_login_page(self.xsrf_form_html(), verdict.reason))
            return
        self.set_signed_cookie(TEACHER_COOKIE, _teacher_fingerprint(kt.teacher_code or ""), expires_days=1,
                               httponly=True, samesite="Strict", path="/krypteach/teacher")
        self.redirect("/krypteach/teacher")


class TeacherExportHandler(_TeacherBase):
    async def get(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        label = self._kt().class_label

        def csv_text() -> str:
            # each puzzle answer that counted for a homework names it (the homework's own CSV has the totals)
            counted: dict[tuple[int, str, float], str] = {}
            homework = store.homework(label)
            if homework:
                by_learner = _by_learner(store.puzzle_attempts())
                for hw in homework:
                    for rows in by_learner.values():
                        for a in homework_answers(hw, rows):
                            key = (int(a[0]), str(a[1]), float(a[6]))
                            counted[key] = f"{counted[key]}; {hw.name}" if key in counted else hw.name
            return store.export_csv(label, counted)

        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="krypteach-{label}.csv"')
        self.finish(await off_the_loop(csv_text))


class TeacherImportHandler(_TeacherBase):
    """Learners' progress files from the static site (``krypteach build-site``), into this class."""

    async def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        files = self.request.files.get("progress", [])
        said = []
        for f in files[:200]:
            try:
                name, added = await off_the_loop(store.import_progress, f["body"], self._kt().class_label)
            except ValueError as e:
                said.append(f"{f['filename']}: {e}")
            else:
                said.append(ngettext("{name}: {n} attempt", "{name}: {n} attempts", added).format(name=name, n=added))
        text = "; ".join(said) if said else _("no file chosen")
        self._done(_("Imported: {files}").format(files=text)[:400])


class _LearnerAction(_TeacherBase):
    def _learner(self, store: ProgressStore, field: str = "learner") -> tuple[int, str]:
        """The learner the request's ``field`` names (their id and nickname), who must be in
        this class: else 400 (no number) or 404 (nobody of the class)."""
        try:
            learner = int(self.get_argument(field, ""))
        except ValueError:
            raise tornado.web.HTTPError(400, "which learner?") from None
        if learner not in {i for i, _ in store.learners(self._kt().class_label)}:
            raise tornado.web.HTTPError(404, "no such learner in this class")
        return learner, store.nickname(learner) or "?"


class TeacherLearnerHandler(_LearnerAction):
    """One learner's work: every answer with the right one, their givar (``?id=`` the learner)."""

    async def get(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        learner, name = self._learner(store, "id")
        titles, form = self._titles(), self.xsrf_form_html()
        others = [(i, n) for i, n in store.learners(self._kt().class_label) if i != learner]
        flash = self.get_argument("done", "")[:400]

        def page() -> str:
            return learner_page(name, store.attempts(learner), titles, store.item_titles(), learner=learner,
                                others=others, xsrf_form=form, flash=flash)

        self.finish(await off_the_loop(page))


class TeacherResetHandler(_LearnerAction):
    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        learner, name = self._learner(store)
        n = store.reset_learner(learner)
        done = ngettext("{name}: {n} attempt removed", "{name}: {n} attempts removed", n).format(name=name, n=n)
        self._done(done)


class TeacherResetLessonHandler(_TeacherBase):
    """Forget one lesson's work for the whole class (the page asks first)."""

    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        lesson = self.get_argument("lesson", "")
        titles = self._titles()
        if lesson not in titles:
            raise tornado.web.HTTPError(400, "which lesson?")
        n = store.reset_lesson(self._kt().class_label, lesson)
        done = ngettext("{lesson}: {n} attempt removed", "{lesson}: {n} attempts removed", n).format(
            lesson=titles[lesson], n=n)
        self._done(done)


class TeacherResetClassHandler(_TeacherBase):
    """Forget the whole class's work; the learners and their PINs stay (the page asks first)."""

    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        n = store.reset_class(self._kt().class_label)
        done = ngettext("The class: {n} attempt removed", "The class: {n} attempts removed", n).format(n=n)
        self._done(done)


class TeacherRemoveHandler(_LearnerAction):
    """Remove a learner (a nickname made by mistake) and all they did."""

    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        learner, name = self._learner(store)
        store.remove_learner(learner)
        done = _("{name} is removed, with all their work.").format(name=name)
        self._done(done)


class TeacherRenameHandler(_LearnerAction):
    """Give a learner another nickname; a name that cannot be used says why on their page."""

    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        learner, name = self._learner(store)
        try:
            new = store.rename_learner(learner, self.get_argument("nickname", ""))
        except NicknameError as e:
            done = str(e)
        else:
            done = _("{name} is now called {new}.").format(name=name, new=new)
        self._done(done, learner)


class TeacherMergeHandler(_LearnerAction):
    """Two nicknames of one learner ("Ann" and "ann") become one: this learner's work goes to ``into``."""

    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        learner, name = self._learner(store)
        into, into_name = self._learner(store, "into")
        try:
            n = store.merge_learners(learner, into)
        except ValueError as e:
            self._done(str(e), learner)
            return
        done = ngettext("{name} is merged into {into}: {n} attempt moved.",
                        "{name} is merged into {into}: {n} attempts moved.", n).format(name=name, into=into_name, n=n)
        self._done(done, into)


class TeacherResetPinHandler(_LearnerAction):
    """A learner forgot their PIN: the next sign-in with their nickname chooses a new one, and
    every browser signed in as them is signed out. Their progress stays."""

    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        learner, name = self._learner(store)
        store.reset_pin(learner)
        self._kt().gate.pin_right(f"{self._kt().class_label}/{name}")  # their wrong PINs are forgotten
        done = _("{name} chooses a new PIN at the next sign-in (their progress is kept).").format(name=name)
        self._done(done)


class TeacherHomeworkHandler(_TeacherBase):
    """Set homework (issue 23): the form (GET), and setting it (POST); a bad form comes back with
    what is wrong, in one line, and nothing set."""

    def get(self) -> None:
        if self._teachers_store() is None:
            return
        self.finish(homework_form_page(self.xsrf_form_html()))

    def post(self) -> None:
        import time

        store = self._teachers_store()
        if store is None:
            return
        name = self.get_argument("name", "")[:200]
        theme = self.get_argument("theme", "").strip() or None
        puzzles = self.get_argument("puzzles", "")[:4000].split()
        count_text = self.get_argument("count", "").strip()
        due_text = self.get_argument("due", "").strip()
        try:
            try:  # the end of the due day, in the server's time
                due = time.mktime(time.strptime(due_text, "%Y-%m-%d")) + 86_399.0
            except (ValueError, OverflowError):
                raise HomeworkError(_("give the due date as a date, such as 2026-12-24")) from None
            if puzzles and theme is not None:
                raise HomeworkError(_("choose a theme, or type the puzzles' ids"))
            count = None
            if theme is not None:
                count = int(count_text) if count_text.isdigit() and len(count_text) < 4 else -1
            store.set_homework(self._kt().class_label, name, due=due, theme=theme, puzzles=puzzles, count=count)
        except HomeworkError as e:
            self.set_status(400)
            self.finish(homework_form_page(self.xsrf_form_html(), str(e)))
            return
        self._done(_("Homework {name} set.").format(name=" ".join(name.split())))


class TeacherHomeworkRemoveHandler(_TeacherBase):
    """Take a homework back (the page asks first); the answers stay."""

    def post(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        text = self.get_argument("id", "")
        if not text.isdigit() or len(text) > 12:
            raise tornado.web.HTTPError(400, "which homework?")
        gone = store.remove_homework(self._kt().class_label, int(text))
        self._done(_("The homework is taken back.") if gone else _("That homework was already taken back."))


class TeacherHomeworkExportHandler(_TeacherBase):
    async def get(self) -> None:
        store = self._teachers_store()
        if store is None:
            return
        label = self._kt().class_label

        def csv_text() -> str:
            learners = store.learners(label)
            homework, results = _homework_results(store, label, learners, store.puzzle_attempts())
            return homework_csv(homework, results, learners)

        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="krypteach-{label}-homework.csv"')
        self.finish(await off_the_loop(csv_text))
