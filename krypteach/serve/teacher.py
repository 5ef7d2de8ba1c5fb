"""The teacher's page: the class live, from the progress store.

A grid of learners × lessons ("2 of 5", coloured), the exercises and puzzles most often
failed with the rules behind the mistakes, givar played, two plots (matplotlib), a CSV
export and a button to reset one learner. Self-contained HTML (the plots are inline
PNGs), refreshed every 20 seconds, readable on a phone. ``krypteach.serve.app`` puts it
behind the teacher code (never the learners' class code).
"""

from __future__ import annotations

import base64
import io
import time
from collections.abc import Mapping
from html import escape

from ..classroom.store import ClassOverview, LessonStanding

__all__ = ["RULE_WORDS", "overview_plots", "teacher_login_page", "teacher_page"]

#: what the engine's and the exercises' rule keys mean, for a teacher
RULE_WORDS = {
    "take-all": "take all you can (ta in allt)",
    "maximal": "take all you can (ta in allt)",
    "maximum": "take the most cards",
    "not-traffar": "a träff must add up to the card",
    "must-capture": "a card that can take must take",
    "tvangstabbe": "tvångstabbe",
    "not-in-hand": "the card is not in the hand",
    "not-on-table": "the cards are not on the table",
    "card-points": "counting card points",
    "dukning": "who gets the dukning",
    "selfcheck": "self-check questions",
    "what-must-you-take": "puzzles: what must you take",
    "which-card": "puzzles: which card (tvångstabbe)",
    "safest-card": "puzzles: the safest card",
    "set-up-dukning": "puzzles: set up a dukning",
    "endgame": "puzzles: the endgame",
}

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f3f5f2;color:#1d2a1f}
main{max-width:70rem;margin:0 auto;padding:1rem 1.25rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.en{color:#555}
.scroll{overflow-x:auto;background:#fff;border-radius:.5rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
table{border-collapse:collapse;font-size:.95rem}
th,td{padding:.35rem .6rem;border-bottom:1px solid #e3e7e2;text-align:left;white-space:nowrap}
th{background:#e7efe7;position:sticky;top:0}
td.all{background:#cfe8cf}td.some{background:#fff4c4}td.none{color:#777}td.trouble{background:#f8d3d3}
img{max-width:100%;height:auto;background:#fff;border-radius:.5rem}
button,a.button{font-size:.95rem;padding:.35rem .8rem;border:0;border-radius:.4rem;background:#2e6b3a;color:#fff;
text-decoration:none;cursor:pointer}
button.reset{background:#8a3a1f}
button .en,a.button .en{color:#e4efe4}
input{font-size:1.3rem;padding:.45rem .6rem;border:2px solid #5a7d5f;border-radius:.5rem;width:100%;
box-sizing:border-box}
.card{max-width:28rem;margin:10vh auto;background:#fff;padding:1.25rem 1.5rem;border-radius:.75rem;
box-shadow:0 2px 10px rgba(0,0,0,.12)}
.error{color:#a3161a;font-weight:600}
"""


def _page(title: str, body: str, refresh: int | None = None) -> str:
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return (f'<!DOCTYPE html><html lang="sv"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">{meta}'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body><main>{body}</main></body></html>")


def teacher_login_page(xsrf_form: str, error: str = "") -> str:
    err = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    body = f"""<div class="card"><h1>Lärarsidan <span class="en">(the teacher's page)</span></h1>
<p>Skriv lärarkoden som <code>krypteach serve</code> skrev ut. <span class="en">Type the teacher code
<code>krypteach serve</code> printed (not the class code).</span></p>
<form method="post" action="/krypteach/teacher">{xsrf_form}
<label for="tcode">Lärarkod <span class="en">(teacher code)</span></label>
<input id="tcode" name="teacher_code" type="password" autocomplete="off" required autofocus>
<p><button type="submit">Öppna <span class="en">(open)</span></button></p></form>{err}</div>"""
    return _page("Lärarsidan – Krypkasino", body)


def _cell(ls: LessonStanding) -> str:
    if ls.tried == 0 and ls.done == 0:
        return '<td class="none">–</td>'
    cls = "all" if ls.total and ls.done >= ls.total else ("trouble" if ls.wrong > max(2, ls.done) else "some")
    text = f"{ls.done}/{ls.total}" if ls.total else f"{ls.done}"
    wrong = f" · {ls.wrong} fel" if ls.wrong else ""
    return f'<td class="{cls}" title="{ls.tried} attempts, {ls.wrong} wrong">{text}{wrong}</td>'


def _png(fig: object) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")  # type: ignore[attr-defined]
    import matplotlib.pyplot as plt

    plt.close(fig)  # type: ignore[arg-type]
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def overview_plots(view: ClassOverview, titles: Mapping[str, str]) -> list[tuple[str, str]]:
    """(alt text, PNG data URL): how far the class is in each lesson, and the rules behind the mistakes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plots = []
    lessons = [lesson for lesson in view.lessons if any(view.grid[(i, lesson)].tried for i, _ in view.learners)]
    if lessons and view.learners:
        done = [sum(1 for i, _ in view.learners if view.grid[(i, les)].total
                    and view.grid[(i, les)].done >= view.grid[(i, les)].total) for les in lessons]
        started = [sum(1 for i, _ in view.learners if view.grid[(i, les)].tried) - d for les, d in zip(lessons, done)]
        fig, ax = plt.subplots(figsize=(7, 0.45 * len(lessons) + 1.2))
        names = [titles.get(les, les) for les in lessons]
        ax.barh(names, done, color="#4c9a58", label="all solved (allt klart)")
        ax.barh(names, started, left=done, color="#e8c34a", label="started (påbörjat)")
        ax.invert_yaxis()
        ax.set_xlabel("learners (elever)")
        ax.set_xlim(0, max(1, len(view.learners)))
        ax.legend(loc="lower right", fontsize=8)
        ax.set_title("How far the class is (hur långt klassen har kommit)")
        plots.append(("How far the class is in each lesson", _png(fig)))
    if view.rules:
        top = view.rules.most_common(8)
        fig, ax = plt.subplots(figsize=(7, 0.45 * len(top) + 1.2))
        ax.barh([RULE_WORDS.get(k, k) for k, _ in top], [n for _, n in top], color="#c0603c")
        ax.invert_yaxis()
        ax.set_xlabel("wrong answers (fel svar)")
        ax.set_title("The rules behind the mistakes (reglerna bakom felen)")
        plots.append(("The rules behind the mistakes", _png(fig)))
    return plots


def teacher_page(view: ClassOverview, class_code: str, xsrf_form: str, titles: Mapping[str, str],
                 notice: str = "", flash: str = "") -> str:
    """The class at a glance (refreshes itself every 20 s)."""
    head = "".join(f"<th>{escape(titles.get(les, les))}</th>" for les in view.lessons)
    rows = []
    now = time.time()
    for learner, nick in view.learners:
        cells = "".join(_cell(view.grid[(learner, les)]) for les in view.lessons)
        seen = view.last_seen.get(learner)
        ago = "–" if seen is None else (f"{int((now - seen) // 60)} min" if now - seen >= 60 else "now (nu)")
        reset = (f'<form method="post" action="/krypteach/teacher/reset" '
                 f'onsubmit="return confirm(\'Reset {escape(nick, quote=True)}?\')">{xsrf_form}'
                 f'<input type="hidden" name="learner" value="{learner}">'
                 f'<button class="reset" type="submit" aria-label="Reset {escape(nick, quote=True)}">'
                 f"Nollställ <span class='en'>(reset)</span></button></form>")
        rows.append(f"<tr><th scope='row'>{escape(nick)}</th>{cells}<td>{view.givar.get(learner, 0)}</td>"
                    f"<td>{ago}</td><td>{reset}</td></tr>")
    grid = (f"<div class='scroll'><table><thead><tr><th>Elev <span class='en'>(learner)</span></th>{head}"
            f"<th>Givar</th><th>Senast <span class='en'>(last seen)</span></th><th></th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
            if view.learners else "<p>Inga elever än. <span class='en'>No learners yet: they appear here as they "
                                  "sign in with a nickname.</span></p>")
    failed = "".join(
        f"<tr><td>{escape(titles.get(les, les))}</td><td>{escape(item)}</td><td>{escape(kind)}</td>"
        f"<td>{who}</td><td>{wrong}</td></tr>" for les, item, kind, wrong, who in view.most_failed[:10])
    failed_html = (f"<div class='scroll'><table><thead><tr><th>Lesson</th><th>Item</th><th>Kind</th>"
                   f"<th>Learners wrong</th><th>Wrong answers</th></tr></thead><tbody>{failed}</tbody></table></div>"
                   if failed else "<p>Inga fel än. <span class='en'>(No mistakes yet.)</span></p>")
    rules = "".join(f"<li>{escape(RULE_WORDS.get(k, k))}: {n}</li>" for k, n in view.rules.most_common(8))
    plots = "".join(f"<p><img alt='{escape(alt, quote=True)}' src='{src}'></p>"
                    for alt, src in overview_plots(view, titles))
    note = f"<p class='error' role='alert'>{escape(notice)}</p>" if notice else ""
    done = f"<p role='status'>{escape(flash)}</p>" if flash else ""
    body = f"""<h1>Klassen {escape(class_code)} <span class="en">(the class, live)</span></h1>{note}{done}
<p>{len(view.learners)} elever <span class="en">(learners)</span> · {sum(view.givar.values())} givar ·
<a class="button" href="/krypteach/teacher/export.csv" download>Ladda ner CSV <span class="en">(download
CSV)</span></a></p>
<form method="post" action="/krypteach/teacher/import" enctype="multipart/form-data">{xsrf_form}
<label for="progress-files">Importera framsteg från den statiska webbplatsen <span class="en">(import learners'
progress files from the static site)</span></label>
<input id="progress-files" type="file" name="progress" accept=".json,application/json" multiple>
<button type="submit">Importera <span class="en">(import)</span></button></form>
<h2>Elever × lektioner <span class="en">(learners × lessons: solved of the lesson's exercises)</span></h2>{grid}
<h2>Oftast fel <span class="en">(most often failed)</span></h2>{failed_html}
<h2>Reglerna bakom felen <span class="en">(the rules behind the mistakes)</span></h2>
<ul>{rules or "<li>–</li>"}</ul>{plots}
<p class="en">This page refreshes every 20 seconds.</p>"""
    return _page(f"Klassen {class_code} – Krypkasino", body, refresh=20)
