"""The course: the lessons in order, with their titles and what each teaches.

The start page lists them from here, in the order and selection a classroom file gives
(``krypteach serve --config``: ``[lessons] show``, handed to the kernels as
``KRYPTEACH_SHOWN``); the learner bar and the teacher's page name them from here too.

>>> [lesson.number for lesson in shown_lessons({"KRYPTEACH_SHOWN": "00,07,03"})]
['07', '03']
>>> print(lesson_list_html(shown_lessons({"KRYPTEACH_SHOWN": "03"})))
<ol class="kt-lessons"><li value="3"><a href="03_take_all.ipynb">Take all you can, or creep</a> — you must <i>ta in</i> (capture) all you can; otherwise you <i>krypa</i> (creep)</li></ol>
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..i18n import N_, _

__all__ = ["LESSONS", "Lesson", "lesson_list_html", "shown_lessons", "titles"]


@dataclass(frozen=True)
class Lesson:
    number: str
    file: str
    #: the title, in English (marked for the catalogs: :attr:`shown_title` is it in the page's language)
    title: str
    #: what it teaches (HTML: the Swedish terms in italics), in English (:attr:`shown_about`)
    about: str

    @property
    def shown_title(self) -> str:
        """The title in the page's language (the file's name is the same in both)."""
        return _(self.title)

    @property
    def shown_about(self) -> str:
        """What it teaches, in the page's language."""
        return _(self.about)

    @property
    def name(self) -> str:
        """The lesson as the progress store names it: the file name without ``.ipynb``."""
        return self.file.removesuffix(".ipynb")


LESSONS: tuple[Lesson, ...] = (
    Lesson("01", "01_cards.ipynb", N_("Cards and values"),
           N_("two decks, the values, and which cards carry points (<i>kortpoäng</i>)")),
    Lesson("02", "02_traffar.ipynb", N_("Träffar: what a card can take"),
           N_("a <i>träff</i> (a hit): same rank, or cards that add up")),
    Lesson("03", "03_take_all.ipynb", N_("Take all you can, or creep"),
           N_("you must <i>ta in</i> (capture) all you can; otherwise you <i>krypa</i> (creep)")),
    Lesson("04", "04_tabbe.ipynb", N_("Tabbe, dukning and tvångstabbe"),
           N_("emptying the table, who set it up, and when you are forced to")),
    Lesson("05", "05_deals.ipynb", N_("Deals and klädda högen"),
           N_("<i>utdelningar</i> (deals) for 2–6 players, and the face cards set aside")),
    Lesson("06", "06_scoring.ipynb", N_("Scoring and the protocol"),
           N_("points, tabbe marks, dukningar, and the <i>protokoll</i> of a parti")),
    Lesson("07", "07_play.ipynb", N_("Play a giv"),
           N_("a parti against computer opponents, with its protocol; replay a giv move by move")),
    Lesson("08", "08_puzzles.ipynb", N_("Puzzles"),
           N_("<i>pussel</i>: what must you take, tvångstabbe, the safest card, a dukning, an endgame — answers "
           "proved by the computer")),
    Lesson("09", "09_variant_lab.ipynb", N_("Variant lab"),
           N_("<i>variantlabb</i>: change a rule, let the computer play thousands of givar, and see what changes")),
    Lesson("10", "10_kasino.ipynb", N_("Classic Kasino and builds"),
           N_("the older game: one deck, optional captures, and the <i>bygge</i> (build): make it, raise it, take it")),
    Lesson("11", "11_avig_kasino.ipynb", N_("Avig kasino: Kasino the other way round"),
           N_("<i>avig kasino</i>: classic Kasino played misère, with forced captures and tvångstabbe")),
)


def shown_lessons(env: Mapping[str, str] | None = None) -> list[Lesson]:
    """The lessons this class sees, in its order (all of them when the class file names none)."""
    env = os.environ if env is None else env
    wanted = [n.strip() for n in env.get("KRYPTEACH_SHOWN", "").split(",") if n.strip()]
    if not wanted:
        return list(LESSONS)
    by_number = {lesson.number: lesson for lesson in LESSONS}
    return [by_number[n] for n in wanted if n in by_number]


def lesson_list_html(lessons: Sequence[Lesson] | None = None) -> str:
    """The start page's list of lessons: a numbered list of links, relative as Voilà serves them.

    Show it in an ``ipywidgets.HTML``: a cell's HTML or Markdown output opens its links in a
    new tab, a widget's opens them in the same tab, as the start page's own links do.
    """
    # i18n: the dash between a lesson's title and what it is about; Swedish writes a spaced en dash " – "
    dash = _(" — ")
    items = "".join(f'<li value="{int(lesson.number)}"><a href="{lesson.file}">{lesson.shown_title}</a>{dash}'
                    f'{lesson.shown_about}</li>'
                    for lesson in (shown_lessons() if lessons is None else lessons))
    return f'<ol class="kt-lessons">{items}</ol>'


def titles() -> dict[str, str]:
    """Lesson name -> "3 · Take all you can, or creep" (for the learner bar's overview), in the
    page's language."""
    return {lesson.name: f"{int(lesson.number)} · {lesson.shown_title}" for lesson in LESSONS}
