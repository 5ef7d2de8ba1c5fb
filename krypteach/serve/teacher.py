"""The teacher's page: the class live, from the progress store.

A grid of learners × lessons ("2 of 5", coloured), the exercises and puzzles most often
failed with the rules behind the mistakes, givar played, two plots (matplotlib), a CSV
export and a button to reset one learner. Self-contained HTML (the plots are inline
PNGs), loaded again every 20 seconds while the teacher is not in a form (a box turns it off),
readable on a phone, in the request's language.
``krypteach.serve.teacher_handlers`` puts it behind the teacher code (never the learners' class code).
"""

from __future__ import annotations

import base64
import io
import json
import logging
import time
from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from ..bots.review import THEMES, VERDICT_WORDS
from ..classroom.practice import ClassPractice
from ..classroom.store import ClassOverview, Homework, LessonStanding, puzzles_solved
from ..i18n import N_, _, ngettext
from ..i18n.numbers import number, percent, signed
from ..teaching.puzzles.fresh import THEME_WORDS
from ..views.plots import plain_label, plain_text
from ..widgets.practice_widget import GAMES, LESSON_OF, lesson_of_theme, trainer_themes
from ..widgets.puzzle_widget import puzzle_words
from .pages import html_page

__all__ = ["RULE_WORDS", "item_words", "learner_page", "overview_plots", "progress_figure", "plots_html", "rule_words", "teacher_login_page",
           "teacher_page"]

log = logging.getLogger("krypteach.teacher")

if TYPE_CHECKING:  # matplotlib is imported where a plot is drawn
    from matplotlib.figure import Figure

#: what the engine's and the exercises' rule keys mean, for a teacher (translated where shown: :func:`rule_words`)
RULE_WORDS = {
    "take-all": N_("take all you can (ta in allt)"),
    "maximal": N_("take all you can (ta in allt)"),
    "maximum": N_("take the most cards"),
    "not-traffar": N_("a träff must add up to the card"),
    "must-capture": N_("a card that can take must take"),
    "tvangstabbe": N_("tvångstabbe"),
    "not-in-hand": N_("the card is not in the hand"),
    "not-on-table": N_("the cards are not on the table"),
    "card-points": N_("counting card points"),
    "dukning": N_("who gets the dukning"),
    "selfcheck": N_("self-check questions"),
    "what-must-you-take": N_("puzzles: what must you take"),
    "which-card": N_("puzzles: which card (tvångstabbe)"),
    "safest-card": N_("puzzles: the safest card"),
    "set-up-dukning": N_("puzzles: set up a dukning"),
    "endgame": N_("puzzles: the endgame"),
    "kladda": N_("klädda högen"),
    "illegal": N_("a move the rules do not allow"),
    "giv-over": N_("a move after the giv was over"),
    # classic Kasino's and avig kasino's rules (the engine's explanations of a move)
    "build-split": N_("a build is never split"),
    "build-lowered": N_("a build is never lowered"),
    "build-locked": N_("a multiple build cannot be raised"),
    "build-multiple": N_("no multiple builds in these rules"),
    "build-sum": N_("a build's cards must add up to its value"),
    "build-no-card": N_("a build needs a card in the hand that takes it"),
    "build-wrong-value": N_("only a card of a build's value takes it"),
    "build-owner-keep": N_("a build's owner keeps a card that takes it"),
    "build-owner-trail": N_("a build's owner may not trail"),
    "build-owner-must-act": N_("a build's owner takes it or raises it"),
    "kasino-safe-build": N_("puzzles: a build that stays yours"),
    "kasino-steal": N_("puzzles: which build can be stolen"),
    "kasino-take-or-raise": N_("puzzles: take the build or raise it"),
    "kasino-endgame": N_("puzzles: classic Kasino's last cards"),
}

#: an item's kind on the teacher's page (the store's kinds; the CSV keeps the keys)
_KIND_WORDS = {"exercise": N_("exercise"), "selfcheck": N_("self-check question"), "puzzle": N_("puzzle"),
               "giv": N_("giv"), "lab": N_("variant-lab run"), "coach": N_("the coach's review")}


def rule_words(key: str) -> str:
    """What a rule key means, for a teacher, in the current language (an unknown key as it is).

    >>> from krypteach.i18n import use_language
    >>> rule_words("must-capture"), rule_words("no-such-rule")
    ('a card that can take must take', 'no-such-rule')
    >>> with use_language("sv"):
    ...     rule_words("must-capture")
    'ett kort som kan ta in måste ta in'
    """
    return _(RULE_WORDS[key]) if key in RULE_WORDS else key


def _kind_words(kind: str) -> str:
    return _(_KIND_WORDS[kind]) if kind in _KIND_WORDS else kind


def _result_words(correct: object, how: str | None) -> tuple[str, str]:
    """(class, words) of one attempt's result: right at the first try, at the second, with a
    hint, the answer shown, wrong."""
    if how == "shown":
        return "none", _("answer shown (not solved)")
    if correct:
        return "all", {"second-try": _("right at the second try"), "hint": _("right after a hint")}.get(
            how or "", _("right"))
    return "trouble", _("wrong")


def _file_picker() -> str:
    """The progress files' chooser, in the page's language: the browser's own file input words its
    button and its "no file chosen" in the browser's language ("Choose Files"), so the input is
    kept (focusable, and over the page's own button, so a tap or a click is on it) but unseen, and
    the page words both itself."""
    none, choose = _("No file chosen"), _("Choose files…")
    one, many = (ngettext("{n} file chosen: {names}", "{n} files chosen: {names}", k) for k in (1, 2))
    attrs = " ".join(f'data-{k}="{escape(v)}"' for k, v in (("none", none), ("one", one), ("many", many)))
    return (f'<span class="kt-files"><input id="progress-files" class="kt-file" type="file" name="progress" '
            f'accept=".json,application/json" multiple aria-describedby="progress-chosen">'
            f'<label for="progress-files" class="button" aria-hidden="true">{escape(choose)}</label></span> '
            f'<span id="progress-chosen" class="note" {attrs}>{escape(none)}</span>'
            "<script>(function () {\n"
            '  const input = document.getElementById("progress-files"), said = document.getElementById("progress-chosen");\n'
            '  input.addEventListener("change", () => {\n'
            "    const n = input.files.length, names = Array.from(input.files, (f) => f.name).join(\", \");\n"
            '    said.textContent = n ? (n === 1 ? said.dataset.one : said.dataset.many).replace("{n}", n).replace("{names}", names)'
            " : said.dataset.none;\n"
            "  });\n"
            "})();</script>")


_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f3f5f2;color:#1d2a1f}
main{max-width:70rem;margin:0 auto;padding:1rem 1.25rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.note{color:#555}
.scroll{overflow-x:auto;background:#fff;border-radius:.5rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
.scroll>table{min-width:100%}
table{border-collapse:collapse;font-size:.95rem}
th,td{padding:.35rem .6rem;border-bottom:1px solid #e3e7e2;text-align:left;white-space:nowrap}
th{background:#e7efe7;position:sticky;top:0}
th[scope=row]{position:sticky;left:0;z-index:1;background:#f4f8f3;box-shadow:1px 0 0 #d5ddd4}
thead th:first-child{left:0;z-index:2}
td.all{background:#cfe8cf}td.some{background:#fff4c4}td.none{color:#777}td.trouble{background:#f8d3d3}
img{max-width:100%;height:auto;background:#fff;border-radius:.5rem}
button,a.button,label.button{font:inherit;font-size:.95rem;padding:.35rem .8rem;border:0;border-radius:.4rem;background:#2e6b3a;
color:#fff;text-decoration:none;cursor:pointer}
button.reset{background:#8a3a1f}
td form{display:inline-block;margin:.1rem .3rem .1rem 0}
input{font-size:1.3rem;padding:.45rem .6rem;border:2px solid #5a7d5f;border-radius:.5rem;width:100%;
box-sizing:border-box}
input[type=checkbox]{width:1.3rem;height:1.3rem;min-height:0;padding:0;margin:0;flex:none}
label.kt-check{display:inline-flex;align-items:center;gap:.5rem;min-height:44px}
.card{max-width:28rem;margin:10vh auto;background:#fff;padding:1.25rem 1.5rem;border-radius:.75rem;
box-shadow:0 2px 10px rgba(0,0,0,.12)}
.error{color:#a3161a;font-weight:600}
.kt-files{position:relative;display:inline-block;margin:.3rem 0}
input.kt-file{position:absolute;inset:0;width:100%;height:100%;min-height:0;padding:0;border:0;opacity:0;
cursor:pointer}
input.kt-file:focus-visible+label{outline:3px solid #1d2a1f;outline-offset:2px}
@media (max-width:640px),(pointer:coarse){button,a.button,label.button,select{min-height:44px;min-width:44px;box-sizing:border-box;
display:inline-flex;align-items:center;justify-content:center;padding:.5rem .9rem}
th[scope=row] a{display:inline-flex;align-items:center;min-height:44px;min-width:44px}input{min-height:44px}}
"""


#: the teacher's page loads itself again every 20 s while its box is ticked, never while the teacher
#: is in a form or has typed in one (a meta refresh took the typing away, and cannot be turned off)
_REFRESH = """
(function () {
  let typed = false;
  document.addEventListener("input", (e) => { if (e.target.id !== "kt-refresh") typed = true; });
  setInterval(() => {
    const box = document.getElementById("kt-refresh"), at = document.activeElement;
    if (box && box.checked && !typed && !(at && at.closest && at.closest("form"))) location.reload();
  }, 20000);
})();
"""


def _page(title: str, body: str, refresh: bool = False) -> str:
    return html_page(title, body, _STYLE, _REFRESH if refresh else "")


def teacher_login_page(xsrf_form: str, error: str = "") -> str:
    """The teacher code, asked for (``error``: why the last one was refused).

    >>> "teacher code" in teacher_login_page("")
    True
    """
    err = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    # i18n: {command} is "krypteach serve" in <code>
    ask = escape(_("Type the teacher code {command} printed (not the class code).")).format(
        command="<code>krypteach serve</code>")
    # (every text is taken out of the f-strings: Babel does not look inside them)
    heading, label, button = escape(_("The teacher's page")), escape(_("Teacher code")), escape(_("Open"))
    body = f"""<div class="card"><h1>{heading}</h1>
<p>{ask}</p>
<form method="post" action="/krypteach/teacher">{xsrf_form}
<label for="tcode">{label}</label>
<input id="tcode" name="teacher_code" type="password" autocomplete="off" required autofocus>
<p><button type="submit">{button}</button></p></form>{err}</div>"""
    return _page(_("The teacher's page – Krypkasino"), body)


def _cell(ls: LessonStanding) -> str:
    if ls.tried == 0 and ls.done == 0 and ls.givar == 0 and not ls.playing:
        return '<td class="none">–</td>'
    cls = "all" if ls.total and ls.done >= ls.total else ("trouble" if ls.wrong > max(2, ls.done) else "some")
    parts = [f"{ls.done}/{ls.total}" if ls.total else f"{ls.done}" if ls.done else ""]
    if ls.puzzles:  # the trainer's count (issue 21: "0/4" for 3 puzzles solved)
        parts.append(puzzles_solved(ls.puzzles))
    if ls.wrong:
        parts.append(_("{n} wrong").format(n=ls.wrong))
    if ls.givar:  # a giv played in the lesson is work done too (it was "–")
        parts.append(ngettext("{n} giv", "{n} givar", ls.givar).format(n=ls.givar))
    elif ls.playing:  # a giv under way (a build made in lesson 10 showed "–")
        parts.append(_("a parti under way"))
    said = " · ".join(p for p in parts if p) or "0"
    title = (ngettext("{n} attempt", "{n} attempts", ls.tried).format(n=ls.tried) + ", "
             + _("{n} wrong").format(n=ls.wrong))
    return f'<td class="{cls}" title="{escape(title, quote=True)}">{escape(said)}</td>'


def _quality_words(quality: tuple[int, float] | None) -> str:
    """A learner's move quality in the grid: ``82% (3 givar)``, or ``–`` before a review."""
    if quality is None:
        return "–"
    n, q = quality
    return _("{quality} ({givar})").format(quality=percent(q), givar=ngettext("{n} giv", "{n} givar", n).format(n=n))


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    with plain_text():
        fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def overview_plots(view: ClassOverview, titles: Mapping[str, str]) -> list[tuple[str, str]]:
    """(alt text, PNG data URL): how far the class is in each lesson, and the rules behind the mistakes.

    Every label is plain text (:func:`krypteach.views.plots.plain_text`: a rule ``$\\frac{$`` from an
    imported file is drawn as it is, not read as maths), on one line and cut at 60 characters."""
    with plain_text():
        return _overview_plots(view, titles)


def progress_figure(view: ClassOverview, titles: Mapping[str, str]) -> Figure | None:
    """How far the class is in each lesson begun: learners who solved all of it, and who began
    it, on an axis of whole learners up to the class's size (a class of one reads "1 of 1",
    not a full bar on an axis of fractions), each bar with its count. None: nothing begun."""
    from matplotlib.figure import Figure  # the object API: no pyplot, no GUI backend, no shared state
    from matplotlib.ticker import MaxNLocator

    lessons = [lesson for lesson in view.lessons if any(view.grid[(i, lesson)].tried for i, _nick in view.learners)]
    if not lessons or not view.learners:
        return None
    n = len(view.learners)
    done = [sum(1 for i, _nick in view.learners if view.grid[(i, les)].total
                and view.grid[(i, les)].done >= view.grid[(i, les)].total) for les in lessons]
    started = [sum(1 for i, _nick in view.learners if view.grid[(i, les)].tried) - d
               for les, d in zip(lessons, done, strict=True)]
    fig = Figure(figsize=(7, 0.45 * len(lessons) + 1.2))
    ax = fig.subplots()
    ys = range(len(lessons))  # positions, not the names: two equal titles stay two bars
    solved = ax.barh(ys, done, height=0.6, color="#4c9a58", label=_("all solved"))
    begun = ax.barh(ys, started, left=done, height=0.6, color="#e8c34a", label=_("started"))
    for bars, counts in ((solved, done), (begun, started)):
        ax.bar_label(bars, labels=[number(c) if c else "" for c in counts], label_type="center", fontsize=8)
    ax.set_yticks(list(ys), [plain_label(titles.get(les, les)) for les in lessons])
    ax.invert_yaxis()
    ax.set_xlabel(_("learners (of {n} in the class)").format(n=number(n)))
    ax.set_xlim(0, n)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(n, 10)))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)  # beside: over no bar
    ax.set_title(_("How far the class is"))
    return fig


def _overview_plots(view: ClassOverview, titles: Mapping[str, str]) -> list[tuple[str, str]]:
    from matplotlib.figure import Figure  # the object API: no pyplot, no GUI backend, no shared state

    plots = []
    fig = progress_figure(view, titles)
    if fig is not None:
        plots.append((_("How far the class is in each lesson"), _png(fig)))
    if view.rules:
        top = view.rules.most_common(8)
        fig = Figure(figsize=(7, 0.45 * len(top) + 1.2))
        ax = fig.subplots()
        ys = range(len(top))
        from matplotlib.ticker import MaxNLocator

        bars = ax.barh(ys, [n for _k, n in top], height=0.6, color="#c0603c")
        ax.bar_label(bars, labels=[number(n) for _k, n in top], padding=3, fontsize=8)
        ax.set_yticks(list(ys), [plain_label(rule_words(k)) for k, _n in top])
        ax.set_xlim(0, max(n for _k, n in top) * 1.15 + 0.5)  # room for the counts
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # whole wrong answers
        ax.invert_yaxis()
        ax.set_xlabel(_("wrong answers"))
        ax.set_title(_("The rules behind the mistakes"))
        plots.append((_("The rules behind the mistakes"), _png(fig)))
    return plots


def plots_html(view: ClassOverview, titles: Mapping[str, str]) -> str:
    """The plots as ``<img>``s; a plot that fails (a bad label, no matplotlib) is logged and the
    page shows one line in its language instead: the page itself never fails for a plot."""
    try:
        plots = overview_plots(view, titles)
    except Exception:
        log.exception("krypteach: the teacher's page could not draw its plots")
        line = escape(_("The plots could not be drawn this time; the tables above have the same numbers."))
        return f"<p class='note' role='status'>{line}</p>"
    return "".join(f"<p><img alt='{escape(alt, quote=True)}' src='{src}'></p>" for alt, src in plots)


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def _asking_form(action: str, xsrf_form: str, fields: Mapping[str, str], inner: str, ask: str) -> str:
    """A form of the teacher's page that asks ``ask`` before it is sent (``inner``: its controls,
    escaped already)."""
    question = escape(json.dumps(ask, ensure_ascii=False), quote=True)
    hidden = "".join(f'<input type="hidden" name="{escape(k, quote=True)}" value="{escape(v, quote=True)}">'
                     for k, v in fields.items())
    return f'<form method="post" action="{action}" onsubmit="return confirm({question})">{xsrf_form}{hidden}{inner}</form>'


def _manage_html(nickname: str, learner: int, others: Sequence[tuple[int, str]], xsrf_form: str) -> str:
    """Rename, merge and remove one learner, each asking first."""
    who = {"learner": str(learner)}
    rename_label, rename = escape(_("New nickname")), escape(_("Rename"))
    rename_form = _asking_form(
        "/krypteach/teacher/rename", xsrf_form, who,
        f'<label for="new-nickname">{rename_label}</label> '
        f'<input id="new-nickname" name="nickname" required maxlength="30" value="{escape(nickname, quote=True)}" '
        f'style="width:auto;font-size:1rem"> <button type="submit">{rename}</button>',
        _("Rename {nickname}?").format(nickname=nickname))
    merge_form = ""
    if others:
        options = "".join(f'<option value="{i}">{escape(n)}</option>' for i, n in others)
        merge_label = escape(_("The same learner as"))
        merge = escape(_("Merge"))
        merge_form = _asking_form(
            "/krypteach/teacher/merge", xsrf_form, who,
            f'<label for="merge-into">{merge_label}</label> <select id="merge-into" name="into" '
            f'style="font-size:1rem">{options}</select> <button type="submit">{merge}</button>',
            _("Move all of {nickname}'s work to the learner chosen, and remove {nickname}?").format(nickname=nickname))
    remove = escape(_("Remove {nickname}").format(nickname=nickname))
    remove_form = _asking_form("/krypteach/teacher/remove", xsrf_form, who,
                               f'<button class="reset" type="submit">{remove}</button>',
                               _("Remove {nickname} and all their work? This cannot be undone.").format(
                                   nickname=nickname))
    heading = escape(_("The nickname"))
    return (f"<h2>{heading}</h2><div class='manage'><p>{rename_form}</p>"
            + (f"<p>{merge_form}</p>" if merge_form else "") + f"<p>{remove_form}</p></div>")


def _coach_html(rows: Sequence[Sequence[Any]], titles: Mapping[str, str]) -> str:
    """The coach's reviews of a learner's givar: each giv's move quality, and each costly move with
    the move played, the better one, the verdict, its theme and the points it lost (newest first)."""
    if not rows:
        return "<p>" + escape(_("No giv reviewed by the coach yet.")) + "</p>"
    heads = "".join(f"<th>{escape(h)}</th>" for h in (_("Time"), _("Lesson"), _("Move"), _("Their move"),
                                                       _("Better move"), _("Verdict"), _("Theme"), _("Points lost")))
    lines = []
    for a in reversed(rows):
        if a[2] == "quality":
            cells = (_when(float(a[8])), titles.get(str(a[1]), str(a[1])), _("move quality"),
                     percent(int(a[7] or 0) / 100), "", "", "", "")
        else:
            move = str(a[2]).removeprefix("move-")
            verdict = str(a[9] or "")
            cells = (_when(float(a[8])), titles.get(str(a[1]), str(a[1])), _("move {n}").format(n=move),
                     str(a[10] or "–"), str(a[11] or "–"), _(VERDICT_WORDS[verdict]) if verdict in VERDICT_WORDS
                     else verdict, _(THEMES[str(a[5])]) if str(a[5]) in THEMES else str(a[5] or ""),
                     number(int(a[7] or 0) / 10, 1))
        lines.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    return (f"<div class='scroll'><table><thead><tr>{heads}</tr></thead><tbody>{''.join(lines)}</tbody>"
            "</table></div>")


def learner_page(nickname: str, attempts: Sequence[Sequence[Any]], titles: Mapping[str, str],
                 item_titles: Mapping[tuple[str, str], str] | None = None, *, learner: int | None = None,
                 others: Sequence[tuple[int, str]] = (), xsrf_form: str = "", flash: str = "") -> str:
    """One learner's work, for the teacher: each lesson's items with the answer given and the
    right one, how it was reached, the rule behind a mistake; their givar with scores.

    ``attempts`` are the store's (:meth:`~krypteach.classroom.store.ProgressStore.attempts` of
    the learner: learner, lesson, item, kind, correct, rule, topic, score, at, how, answer,
    expected), oldest first; the lessons come in the order of ``titles``."""
    # (every text is taken out of the f-strings: Babel does not look inside them)
    heads = [escape(h) for h in (_("Time"), _("Item"), _("Kind"), _("Their answer"), _("Right answer"),
                                 _("Result"), _("Rule"))]
    order = {les: n for n, les in enumerate(titles)}
    by_lesson: dict[str, list[Sequence[Any]]] = {}
    givar = []
    coach = []
    for a in attempts:
        if a[3] == "giv":
            if a[7] is not None:
                givar.append(a)
            continue
        if a[3] == "coach":  # the coach's review of a giv: not an answer
            coach.append(a)
            continue
        by_lesson.setdefault(str(a[1]), []).append(a)
    sections = []
    for lesson in sorted(by_lesson, key=lambda les: (order.get(les, len(order)), les)):
        rows = []
        for a in reversed(by_lesson[lesson]):  # newest first
            cls, result = _result_words(a[4], a[9] if isinstance(a[9], str) else None)
            rule = rule_words(str(a[5])) if a[5] and not a[4] else ""
            cells = (_when(float(a[8])), item_words(lesson, str(a[2]), item_titles or {}), _kind_words(str(a[3])),
                     str(a[10] or "–"), str(a[11] or "–"))
            rows.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells)
                        + f"<td class='{cls}'>{escape(result)}</td><td>{escape(rule)}</td></tr>")
        head = "".join(f"<th>{h}</th>" for h in heads)
        sections.append(f"<h2>{escape(titles.get(lesson, lesson))}</h2><div class='scroll'><table><thead><tr>{head}"
                        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")
    if givar:
        lines = "".join(f"<tr><td>{escape(_when(float(a[8])))}</td><td>{escape(titles.get(str(a[1]), str(a[1])))}</td>"
                       f"<td>{escape(number(int(str(a[7]))))}</td></tr>" for a in reversed(givar))
        heads_g = "".join(f"<th>{escape(h)}</th>" for h in (_("Time"), _("Lesson"), _("Their score")))
        givar_html = (f"<div class='scroll'><table><thead><tr>{heads_g}</tr></thead><tbody>{lines}</tbody>"
                      "</table></div>")
    else:
        givar_html = "<p>" + escape(_("No giv played to its end yet.")) + "</p>"
    coach_html = _coach_html(coach, titles)
    nothing = "" if sections else "<p>" + escape(_("Nothing answered yet.")) + "</p>"
    answered = sum(len(v) for v in by_lesson.values())
    summary = (ngettext("{n} answer", "{n} answers", answered).format(n=number(answered)) + " · "
               + ngettext("{n} giv", "{n} givar", len(givar)).format(n=number(len(givar))))
    back, heading, givar_heading = (escape(_("Back to the class")), escape(_("What {nickname} did").format(
        nickname=nickname)), escape(_("Givar")))
    coach_heading = escape(_("The coach's reviews of their givar"))
    done = f"<p role='status'>{escape(flash)}</p>" if flash else ""
    manage = _manage_html(nickname, learner, others, xsrf_form) if learner is not None else ""
    body = (f"<p><a href='/krypteach/teacher'>← {back}</a></p><h1>{heading}</h1>{done}<p>{escape(summary)}</p>"
            f"{nothing}{''.join(sections)}<h2>{givar_heading}</h2>{givar_html}"
            f"<h2>{coach_heading}</h2>{coach_html}{manage}")
    return _page(_("What {nickname} did – Krypkasino").format(nickname=nickname), body)


def _learner_form(action: str, learner: int, xsrf_form: str, button: str, ask: str, label: str) -> str:
    """One learner's button on the grid (``button``: already escaped), asking ``ask`` first."""
    question = escape(json.dumps(ask, ensure_ascii=False), quote=True)
    return (f'<form method="post" action="{action}" onsubmit="return confirm({question})">{xsrf_form}'
            f'<input type="hidden" name="learner" value="{learner}">'
            f'<button class="reset" type="submit" aria-label="{escape(label, quote=True)}">{button}</button></form>')


def item_words(lesson: str, item: str, item_titles: Mapping[tuple[str, str], str]) -> str:
    """What the teacher's page calls an item: the title its lesson page gave it (an exercise's,
    in the current language; a question's text), else its id.

    >>> from krypteach.i18n import use_language
    >>> with use_language("sv"):
    ...     item_words("03", "take-all-1", {("03", "take-all-1"): "Take all you must (ta in allt)"})
    'Ta in allt du måste'
    >>> item_words("03", "x-2", {})
    'x-2'
    >>> item_words("08_puzzles", "which-card-easy-03", {})  # a puzzle: its kind and number, not its id
    'Which card must you play? (tvångstabbe) · Puzzle 3 · level easy'
    """
    title = item_titles.get((lesson, item))
    return _(title) if title else puzzle_words(item) or item


def _resets_html(view: ClassOverview, titles: Mapping[str, str], xsrf_form: str) -> str:
    """Reset one lesson for the class, or the whole class, each asking first."""
    if not view.learners:
        return ""
    lessons = [les for les in view.lessons if les in titles] or list(view.lessons)
    heading = escape(_("Start again"))
    lesson_form = ""
    if lessons:
        options = "".join(f'<option value="{escape(les, quote=True)}">{escape(titles.get(les, les))}</option>'
                          for les in lessons)
        label, button = escape(_("Lesson")), escape(_("Reset this lesson for the class"))
        lesson_form = _asking_form(
            "/krypteach/teacher/reset-lesson", xsrf_form, {},
            f'<label for="reset-lesson">{label}</label> <select id="reset-lesson" name="lesson" '
            f'style="font-size:1rem">{options}</select> <button class="reset" type="submit">{button}</button>',
            _("Forget every learner's work in the lesson chosen? The nicknames stay."))
    class_button = escape(_("Reset the whole class"))
    class_form = _asking_form("/krypteach/teacher/reset-class", xsrf_form, {},
                              f'<button class="reset" type="submit">{class_button}</button>',
                              _("Forget the work of the whole class, every lesson? The nicknames and PINs stay."))
    return f"<h2>{heading}</h2><p>{lesson_form}</p><p>{class_form}</p>"


def _rating_words(rating: tuple[int, float, float] | None) -> str:
    """A learner's puzzle rating in the grid: ``1 512 (30 puzzles)``, or ``–`` before any."""
    if rating is None:
        return "–"
    n, r, _rd = rating
    return _("{rating} ({puzzles})").format(rating=number(round(r)),
                                            puzzles=ngettext("{n} puzzle", "{n} puzzles", n).format(n=number(n)))


def practice_html(practice: ClassPractice | None) -> str:
    """The class's puzzle themes, weakest first (issue 23), or a line saying nobody has practised yet."""
    if practice is None or not practice.themes:
        return "<p>" + escape(_("No puzzle answered yet: the themes appear as learners practise.")) + "</p>"
    items = []
    for theme, gap, who, missed, of in practice.themes:
        line = ngettext("{theme}: {gap} against the learners' own rating ({learners}); {missed} missed of their "
                        "last {of} answer",
                        "{theme}: {gap} against the learners' own rating ({learners}); {missed} missed of their "
                        "last {of} answers", of).format(
            theme=_(THEME_WORDS.get(theme, theme)), gap=signed(round(gap)),
            learners=ngettext("{n} learner", "{n} learners", who).format(n=number(who)),
            missed=number(missed), of=number(of))
        items.append(f"<li>{escape(line)}</li>")
    return "<ol>" + "".join(items) + "</ol>"


def homework_html(homework: Sequence[Homework], results: Mapping[tuple[int, Any], tuple[int, int]],
                  learners: Sequence[tuple[Any, str]], xsrf_form: str) -> str:
    """The class's homework: each with every learner's result and a button to take it back, and
    the links to set one (on a page of its own: this one refreshes itself) and to the results' CSV."""
    parts = []
    for hw in homework:
        if not hw.theme:
            what = ngettext("{n} chosen puzzle", "{n} chosen puzzles", hw.count).format(n=number(hw.count))
        elif (lesson := lesson_of_theme(hw.theme)) is not None:
            what = ngettext("{n} puzzle on {theme}, at each learner's level, in lesson {lesson}",
                            "{n} puzzles on {theme}, at each learner's level, in lesson {lesson}", hw.count).format(
                n=number(hw.count), theme=_(THEME_WORDS.get(hw.theme, hw.theme)), lesson=number(lesson))
        else:  # a theme no trainer of this version has
            what = ngettext("{n} puzzle on {theme}, at each learner's level", "{n} puzzles on {theme}, at each "
                            "learner's level", hw.count).format(n=number(hw.count), theme=_(THEME_WORDS.get(hw.theme, hw.theme)))
        due = _("due {date}").format(date=time.strftime("%Y-%m-%d", time.localtime(hw.due)))
        rows = "".join(
            f"<tr><th scope='row'>{escape(nick)}</th><td>"
            + escape(_("{done} of {count} done, {solved} solved").format(
                done=number(results.get((hw.id, learner), (0, 0))[0]), count=number(hw.count),
                solved=number(results.get((hw.id, learner), (0, 0))[1]))) + "</td></tr>"
            for learner, nick in learners)
        ask = escape(_("Take back the homework {name}? The answers stay.").format(name=hw.name), quote=True)
        take_back = escape(_("Take back"))
        remove = (f"<form method='post' action='/krypteach/teacher/homework/remove' "
                  f"onsubmit=\"return confirm('{ask}')\">{xsrf_form}<input type='hidden' name='id' value='{hw.id}'>"
                  f"<button type='submit'>{take_back}</button></form>")
        parts.append(f"<h3>{escape(hw.name)}</h3><p>{escape(what)} · {escape(due)}</p>"
                     f"<div class='scroll'><table><tbody>{rows}</tbody></table></div>{remove}")
    if not homework:
        parts.append("<p>" + escape(_("No homework set.")) + "</p>")
    set_it, download = escape(_("Set homework")), escape(_("Download the homework results (CSV)"))
    links = (f"<p><a class='button' href='/krypteach/teacher/homework'>{set_it}</a> "
             f"<a class='button' href='/krypteach/teacher/homework.csv' download>{download}</a></p>")
    return "".join(parts) + links


def homework_form_page(xsrf_form: str, error: str = "") -> str:
    """The page that sets homework: a theme's puzzles at each learner's level (the themes under the
    lesson whose puzzles train them), or chosen puzzles."""
    groups = {"krypkasino": _("Lesson {number}: Krypkasino's puzzles"),
              "kasino": _("Lesson {number}: classic Kasino's and avig kasino's puzzles")}
    themes = "".join(
        f"<optgroup label='{escape(groups[g].format(number=number(LESSON_OF[g])), quote=True)}'>"
        + "".join(f"<option value='{t}'>{escape(_(w))}</option>" for t, w in THEME_WORDS.items() if t in trainer_themes(g))
        + "</optgroup>" for g in GAMES)
    t = {k: escape(v) for k, v in (
        ("new", _("Set homework")), ("name", _("Name")), ("theme", _("Puzzles on a theme, at each learner's level")),
        ("count", _("How many")), ("or", _("or chosen puzzles: their ids, separated by spaces")),
        ("due", _("Due")), ("set", _("Set the homework")), ("back", _("Back to the class")))}
    note = f"<p class='error' role='alert'>{escape(error)}</p>" if error else ""
    body = f"""<h1>{t["new"]}</h1>{note}
<form method="post" action="/krypteach/teacher/homework" class="homework">{xsrf_form}
<p><label for="hw-name">{t["name"]}</label> <input id="hw-name" name="name" maxlength="60" required></p>
<p><label for="hw-theme">{t["theme"]}</label> <select id="hw-theme" name="theme"><option value="">–</option>{themes}</select>
<label for="hw-count">{t["count"]}</label> <input id="hw-count" name="count" type="number" min="1" max="50" value="10"></p>
<p><label for="hw-puzzles">{t["or"]}</label> <input id="hw-puzzles" name="puzzles" size="40"></p>
<p><label for="hw-due">{t["due"]}</label> <input id="hw-due" name="due" type="date" required></p>
<p><button type="submit">{t["set"]}</button></p></form>
<p><a href="/krypteach/teacher">{t["back"]}</a></p>"""
    return _page(_("Set homework"), body)


def homework_csv(homework: Sequence[Homework], results: Mapping[tuple[int, Any], tuple[int, int]],
                 learners: Sequence[tuple[Any, str]]) -> str:
    """Each learner's result of each homework as CSV: nickname, homework, theme or puzzles, due, done, solved, of."""
    import csv
    import io

    from ..classroom.store import csv_cell

    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["nickname", "homework", "theme", "puzzles", "due", "done", "solved", "of"])
    for hw in homework:
        for learner, nick in learners:
            done, solved = results.get((hw.id, learner), (0, 0))
            w.writerow([csv_cell(nick), csv_cell(hw.name), hw.theme or "", " ".join(hw.puzzles),
                        time.strftime("%Y-%m-%d", time.localtime(hw.due)), done, solved, hw.count])
    return out.getvalue()


def teacher_page(view: ClassOverview, class_code: str, xsrf_form: str, titles: Mapping[str, str],
                 notice: str = "", flash: str = "", item_titles: Mapping[tuple[str, str], str] | None = None,
                 practice: ClassPractice | None = None, homework: str = "") -> str:
    """The class at a glance (loads itself again every 20 s, not while the teacher types). ``titles``: lesson -> its title;
    ``notice``: a repair of the store to tell the teacher; ``flash``: what the last import or reset did;
    ``item_titles``: what each item is called (:func:`item_words`); ``practice``: the learners' puzzle
    ratings and the class's themes (:func:`~krypteach.classroom.practice.class_practice`); ``homework``:
    the homework's part of the page (:func:`homework_html`)."""
    # (every text is taken out of the f-strings: Babel does not look inside them)
    t = {key: escape(text) for key, text in (
        ("reset", _("Reset")), ("new-pin", _("New PIN")), ("learner", _("Learner")), ("givar", _("Givar")), ("seen", _("Last seen")),
        ("now-in", _("Lesson now")), ("quality", _("Move quality")), ("rating", _("Puzzle rating")),
        ("practice", _("The class's puzzle themes, weakest first (practice)")), ("homework", _("Homework")),
        ("themes", _("Where the class loses points in its givar (the coach)")),
        ("no-themes", _("No giv reviewed by the coach yet.")),
        ("nobody", _("No learners yet: they appear here as they sign in with a nickname.")),
        ("no-mistakes", _("No mistakes yet.")), ("live", _("The class {code}, live").format(code=class_code)),
        ("csv", _("Download CSV")), ("board", _("The teacher's board (for the projector)")), ("tournament", _("The class tournament")), ("tables", _("Tables: seat the class")), ("import-label", _("Import learners' progress files from the static site")),
        ("import", _("Import")), ("grid", _("Learners × lessons: solved of the lesson's exercises")),
        ("failed", _("Most often failed")), ("rules", _("The rules behind the mistakes")),
        ("refresh", _("Load this page again every 20 seconds (not while you type in a form)")))}
    head = "".join(f"<th>{escape(titles.get(les, les))}</th>" for les in view.lessons)
    ratings = practice.ratings if practice is not None else {}
    rows = []
    now = time.time()
    for learner, nick in view.learners:
        cells = "".join(_cell(view.grid[(learner, les)]) for les in view.lessons)
        seen = view.last_seen.get(learner)
        ago = ("–" if seen is None else
               _("{minutes} min").format(minutes=int((now - seen) // 60)) if now - seen >= 60 else _("now"))
        reset = (_learner_form("/krypteach/teacher/reset", learner, xsrf_form, t["reset"],
                               _("Reset {nickname}?").format(nickname=nick), _("Reset {nickname}").format(nickname=nick))
                 + _learner_form("/krypteach/teacher/reset-pin", learner, xsrf_form, t["new-pin"],
                                 _("Let {nickname} choose a new PIN? Every browser signed in as {nickname} is signed "
                                   "out.").format(nickname=nick),
                                 _("New PIN for {nickname}").format(nickname=nick)))
        link = escape(_("What {nickname} did").format(nickname=nick), quote=True)
        where = view.last_lesson.get(learner)
        # where they are now: the lesson of their last answer, while it is recent (a quarter of an hour)
        now_in = titles.get(where, where) if where and seen is not None and now - seen < 15 * 60 else "–"
        rows.append(f"<tr><th scope='row'><a href='/krypteach/teacher/learner?id={learner}' title='{link}'>"
                    f"{escape(nick)}</a></th>{cells}<td>{view.givar.get(learner, 0)}</td>"
                    f"<td>{escape(_quality_words(view.quality.get(learner)))}</td>"
                    f"<td>{escape(_rating_words(ratings.get(learner)))}</td>"
                    f"<td>{escape(ago)}</td><td>{escape(now_in)}</td><td>{reset}</td></tr>")
    grid = (f"<div class='scroll'><table><thead><tr><th>{t['learner']}</th>{head}"
            f"<th>{t['givar']}</th><th>{t['quality']}</th><th>{t['rating']}</th><th>{t['seen']}</th><th>{t['now-in']}</th><th></th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
            if view.learners else f"<p>{t['nobody']}</p>")
    named = item_titles or {}
    failed = "".join(
        f"<tr><td>{escape(titles.get(les, les))}</td><td title='{escape(item, quote=True)}'>"
        f"{escape(item_words(les, item, named))}</td><td>{escape(_kind_words(kind))}</td>"
        f"<td>{who}</td><td>{wrong}</td></tr>" for les, item, kind, wrong, who in view.most_failed[:10])
    columns = (_("Lesson"), _("Item"), _("Kind"), _("Learners wrong"), _("Wrong answers"))
    failed_html = (f"<div class='scroll'><table><thead><tr>{''.join(f'<th>{escape(c)}</th>' for c in columns)}"
                   f"</tr></thead><tbody>{failed}</tbody></table></div>"
                   if failed else f"<p>{t['no-mistakes']}</p>")
    rules = "".join(f"<li>{escape(rule_words(k))}: {n}</li>" for k, n in view.rules.most_common(8))
    themes = "".join(
        # i18n: {points} always has one decimal (1.0, 2.5), so it stays plural; {moves} chooses the form;
        # {learners} is "1 learner", "3 learners"
        "<li>" + escape(ngettext("{theme}: {points} points lost in {moves} move, by {learners}",
                                 "{theme}: {points} points lost in {moves} moves, by {learners}", moves).format(
            theme=_(THEMES.get(theme, theme)), points=number(lost, 1), moves=number(moves),
            learners=ngettext("{n} learner", "{n} learners", who).format(n=number(who)))) + "</li>"
        for theme, lost, moves, who in view.themes[:8])
    if view.quality:
        mean = sum(q for _n, q in view.quality.values()) / len(view.quality)
        themes = "<p>" + escape(_("The class's move quality: {quality} (the mean of each learner's).").format(
            quality=percent(mean))) + f"</p><ul>{themes}</ul>"
    else:
        themes = f"<p>{t['no-themes']}</p>"
    resets = _resets_html(view, titles, xsrf_form)
    plots = plots_html(view, titles)
    note = f"<p class='error' role='alert'>{escape(notice)}</p>" if notice else ""
    if view.lessons_left_out:  # the grid is bounded (ProgressStore.overview): the CSV has every attempt
        note += "<p class='note' role='status'>" + escape(ngettext(
            "{n} more lesson is not shown here (too many lessons); the CSV has every attempt.",
            "{n} more lessons are not shown here (too many lessons); the CSV has every attempt.",
            view.lessons_left_out).format(n=number(view.lessons_left_out))) + "</p>"
    done = f"<p role='status'>{escape(flash)}</p>" if flash else ""
    learners = ngettext("{n} learner", "{n} learners", len(view.learners)).format(n=len(view.learners))
    givar = ngettext("{n} giv", "{n} givar", sum(view.givar.values())).format(n=sum(view.givar.values()))
    body = f"""<h1>{t["live"]}</h1>{note}{done}
<p>{escape(learners)} · {escape(givar)} ·
<a class="button" href="/krypteach/teacher/export.csv" download>{t["csv"]}</a>
<a class="button" href="/krypteach/teacher/board">{t["board"]}</a>
<a class="button" href="/krypteach/teacher/tables">{t["tables"]}</a>
<a class="button" href="/krypteach/teacher/tournament">{t["tournament"]}</a></p>
<form method="post" action="/krypteach/teacher/import" enctype="multipart/form-data">{xsrf_form}
<label for="progress-files">{t["import-label"]}</label>
{_file_picker()}
<button type="submit">{t["import"]}</button></form>
<h2>{t["grid"]}</h2>{grid}
<h2>{t["failed"]}</h2>{failed_html}
<h2>{t["rules"]}</h2>
{f"<ul>{rules}</ul>" if rules else f"<p>{t['no-mistakes']}</p>"}
<h2>{t["themes"]}</h2>{themes}
<h2>{t["practice"]}</h2>{practice_html(practice)}
<h2>{t["homework"]}</h2>{homework}{plots}{resets}
<p class="note"><label class="kt-check"><input type="checkbox" id="kt-refresh" checked> {t["refresh"]}</label></p>"""
    return _page(_("The class {code} – Krypkasino").format(code=class_code), body, refresh=True)
