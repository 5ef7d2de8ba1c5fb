"""The few pages ``krypteach serve`` shows itself: the class code, "the class is full",
a refused address. Self-contained HTML (no scripts or fonts from elsewhere), in the
request's language (:func:`krypteach.i18n.language`), readable on a phone.

>>> from krypteach.i18n import use_language
>>> "Wrong class code" in message_page("code", "that is not this class's code")
True
>>> with use_language("sv"):
...     "Fel klasskod" in message_page("code", "that is not this class's code")
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..classroom.store import PIN_LENGTHS
from ..i18n import N_, _, language, use_language

__all__ = ["LIVE_STYLE", "LostPageTexts", "html_page", "join_page", "live_page", "long_poll_script", "lost_page_texts",
           "message_page"]

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f3f5f2;color:#1d2a1f}
main{max-width:30rem;margin:10vh auto;padding:1.5rem 1.75rem;background:#fff;border-radius:.75rem;
box-shadow:0 2px 10px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin:0 0 .25rem}
.note{color:#555}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
input{font-size:1.5rem;width:100%;box-sizing:border-box;padding:.5rem .75rem;border:2px solid #5a7d5f;
border-radius:.5rem}
input.code{letter-spacing:.2em;text-transform:uppercase}
input.pin{letter-spacing:.3em;max-width:12rem}
p.note{font-size:.95rem;margin:.35rem 0 0}
button,a.button{display:inline-block;margin-top:1rem;font-size:1.1rem;padding:.6rem 1.2rem;border:0;
border-radius:.5rem;background:#2e6b3a;color:#fff;text-decoration:none;cursor:pointer}
.error{color:#a3161a;font-weight:600;margin-top:1rem}
@media (max-width:480px){main{margin:0;border-radius:0;min-height:100vh}}
"""


def html_page(title: str, body: str, style: str, script: str = "") -> str:
    """A whole page of the server's own, self-contained, in the current language: ``title`` is
    plain text (escaped here), ``body`` the HTML of its ``<main>``, ``style`` its CSS and
    ``script`` a script run after it (none when empty).

    >>> html_page("A & B", "<p>x</p>", "p{}").startswith('<!DOCTYPE html><html lang="en">')
    True
    >>> "<title>A &amp; B</title>" in html_page("A & B", "", ""), "<script>" in html_page("t", "", "")
    (True, False)
    """
    tail = f"<script>{script}</script>" if script else ""
    return (f'<!DOCTYPE html><html lang="{language()}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{style}</style></head>"
            f"<body><main>{body}</main>{tail}</body></html>")


#: what the teacher's pages of the class's live work (tables, tournament) share; the board, for a
#: projector, has larger type of its own
LIVE_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f3f5f2;color:#1d2a1f;
line-height:1.4}
main{max-width:60rem;margin:0 auto;padding:1rem 1.5rem}
h1{font-size:1.8rem;margin:.3rem 0 .6rem}h2{font-size:1.3rem;margin:1rem 0 .4rem}
button,a.button{font-size:1rem;padding:.45rem 1rem;border:0;border-radius:.4rem;background:#2e6b3a;color:#fff;
cursor:pointer;text-decoration:none}
input,select{font-size:1rem;padding:.3rem}
.error{color:#a3161a;font-weight:700}.note{color:#4a5a50;font-size:.95rem}
"""


def live_page(title: str, live: str, below: str, style: str, script: str, *, said: str = "", data: str = "") -> str:
    """A teacher's page of the class's live work (the tables, the tournament, the board): the
    heading, what the last request said (``said``, HTML), the live part (``live``, in
    ``<div id="live">`` with the attributes ``data``, which ``script`` keeps up to date), the
    forms ``below`` it, and the way back to the class's page.

    >>> page = live_page("Tables", "<p>1</p>", "<form></form>", "", "", data=" data-version='3'")
    >>> "<div id='live' aria-live='polite' data-version='3'><p>1</p></div><form></form>" in page
    True
    """
    back = escape(_("Back to the class"))
    return html_page(title, f"<h1>{escape(title)}</h1>{said}<div id='live' aria-live='polite'{data}>{live}</div>"
                            f"{below}<p class='note'><a href='/krypteach/teacher'>{back}</a></p>", style, script)


def long_poll_script(state: str, key: str) -> str:
    """The script of a live page whose state is long-polled: it asks ``state?since=N`` again
    and again (``N`` is the ``data-<key>`` of ``#live``, the server answers when the state's
    ``key`` is no longer ``N``) and puts the answer's ``html`` in place; after a failure it
    waits 2 s.

    >>> 'fetch("board/state?since=" + since' in long_poll_script("board/state", "tally")
    True
    """
    return f"""
(function () {{
  const live = document.getElementById("live");
  let since = Number(live.dataset.{key});
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  async function loop() {{
    for (;;) {{
      try {{
        const r = await fetch("{state}?since=" + since, {{ credentials: "same-origin", cache: "no-store" }});
        if (!r.ok) {{ await pause(2000); continue; }}
        const j = await r.json();
        if (j.{key} !== since) {{ since = j.{key}; live.innerHTML = j.html; live.dataset.{key} = String(since); }}
      }} catch (e) {{ await pause(2000); }}
    }}
  }}
  loop();
}})();
"""


def _page(title: str, body: str) -> str:
    return html_page(title, body, _STYLE)


def join_page(next_url: str, error: str = "", action: str = "/krypteach/join", *, ask_code: bool = True,
              nickname: str = "", nickname_error: str = "", xsrf: str = "", ask_pin: bool = False,
              pin_error: str = "") -> str:
    """Ask for the class code once (the browser remembers it: a cookie, and the code in
    localStorage so that a new session of the server fills it in) and a nickname, under
    which the learner's progress is kept; with ``ask_pin`` (progress is kept) the learner's
    own PIN too, chosen at the first sign-in. ``xsrf``: the form's ``_xsrf`` field (tornado's
    ``xsrf_form_html``; the join handler refuses a post without it).

    >>> 'name="code"' in join_page("/"), 'name="code"' in join_page("/", ask_code=False)
    (True, False)
    >>> 'name="pin"' in join_page("/"), 'name="pin"' in join_page("/", ask_pin=True)
    (False, True)
    """
    # (every text is taken out of the f-strings: Babel does not look inside them)
    wrong_code = escape(_("Wrong class code ({reason}).").format(reason=error))
    bad_nick = escape(_("That nickname cannot be used: {reason}").format(reason=nickname_error))
    bad_pin = escape(_("Not signed in: {reason}").format(reason=pin_error))
    code_label, nick_label = escape(_("Class code")), escape(_("Nickname"))
    nick_note, start = escape(_("your progress is kept under it")), escape(_("Start"))
    pin_label = escape(_("Your PIN"))
    low, high = PIN_LENGTHS
    pin_note = escape(_("{low} to {high} digits: choose it the first time, then type the same PIN each time. "
                        "Tell it to nobody. If you forget it, your teacher can reset it.").format(low=low, high=high))
    err = f'<p class="error" role="alert">{wrong_code}</p>' if error else ""
    nick_err = f'<p class="error" role="alert" id="nick-error">{bad_nick}</p>' if nickname_error else ""
    pin_err = f'<p class="error" role="alert" id="pin-error">{bad_pin}</p>' if pin_error else ""
    auto = "" if (error or nickname_error or pin_error or not ask_code or ask_pin) else "true"
    code_field = f"""
  <label for="code">{code_label}</label>
  <input id="code" name="code" class="code" autocomplete="off" autocapitalize="characters" spellcheck="false"
         maxlength="32" required autofocus>""" if ask_code else ""
    pin_field = f"""
  <label for="pin">{pin_label}</label>
  <input id="pin" name="pin" class="pin" type="password" inputmode="numeric" pattern="[0-9]{{{low},{high}}}"
         minlength="{low}" maxlength="{high}" autocomplete="current-password" required aria-describedby="pin-note"
         {"autofocus" if (pin_error and not ask_code) else ""}>
  <p class="note" id="pin-note">{pin_note}</p>""" if ask_pin else ""
    if ask_pin:
        intro = (_("Type the class code your teacher shows, a nickname and your PIN.") if ask_code else
                 _("Type your nickname and your PIN, and your progress is kept."))
    else:
        intro = (_("Type the class code your teacher shows, and a nickname.") if ask_code else
                 _("Type a nickname, and your progress is kept."))
    body = f"""
<h1>Krypkasino</h1>
<p>{escape(intro)}</p>
<form method="post" action="{escape(action)}" id="join">{code_field}
  <label for="nickname">{nick_label} <span class="note">({nick_note})</span></label>
  <input id="nickname" name="nickname" class="nick" autocomplete="username" maxlength="60" required
         value="{escape(nickname)}"{"" if ask_code or pin_error else " autofocus"}>{pin_field}
  <input type="hidden" name="next" value="{escape(next_url)}">{xsrf}
  <button type="submit">{start}</button>
</form>
{err}{nick_err}{pin_err}
<script>
(function () {{
  var form = document.getElementById("join"), box = document.getElementById("code"),
      nick = document.getElementById("nickname");
  var saved = null, name = null;
  try {{ saved = window.localStorage.getItem("krypteach-class-code");
         name = window.localStorage.getItem("krypteach-nickname"); }} catch (e) {{}}
  if (name && !nick.value) {{ nick.value = name; }}
  if (box && saved) {{ box.value = saved; if ("{auto}" && nick.value) {{ form.submit(); }} }}
  form.addEventListener("submit", function () {{
    try {{ if (box) {{ window.localStorage.setItem("krypteach-class-code", box.value); }}
           window.localStorage.setItem("krypteach-nickname", nick.value); }} catch (e) {{}}
  }});
}})();
</script>"""
    return _page(_("Class code – Krypkasino"), body)


#: page kind -> (heading, advice), translated where shown
_MESSAGES = {
    "full": (N_("The class is full right now"),
             N_("Wait a little while and try again, or ask your teacher for help.")),
    "yours": (N_("You have many lesson pages open"),
              N_("Close a tab with a lesson and try again.")),
    "slow-down": (N_("A little too fast"),
                  N_("Wait a minute and try again.")),
    "host": (N_("Wrong address"),
             N_("Open the page with the address your teacher gave you.")),
    "code": (N_("Wrong class code"),
             N_("Ask your teacher for the class code.")),
    "missing": (N_("Not a lesson of this class"),
                N_("Go back to the start page and choose a lesson there.")),
    "teacher": (N_("No teacher's page"),
                N_("Start krypteach serve with progress kept.")),
}
_SOMETHING = (N_("Something went wrong"), N_("Try again."))


def message_page(kind: str, reason: str, retry_url: str | None = None) -> str:
    """A page that says why a request was refused (``kind``: a :class:`~krypteach.serve.gate.Verdict`'s
    page) and what to do; ``reason`` is the verdict's reason, already in the request's language."""
    heading, advice = (_(text) for text in _MESSAGES.get(kind, _SOMETHING))
    again = escape(_("Try again"))
    retry = f'<a class="button" href="{escape(retry_url)}">{again}</a>' if retry_url else ""
    why = reason[:1].upper() + reason[1:]
    body = (f"<h1>{escape(heading)}</h1><p class=\"note\">{escape(why)}.</p>"
            f"<p>{escape(advice)}</p>{retry}")
    return _page(_("{heading} – Krypkasino").format(heading=heading), body)


def lost_page_texts(lang: str | None = None) -> dict[str, str]:
    """What a lesson page says when its Python kernel has stopped (the krypteach Voilà
    template shows it), in ``lang`` (default: the current language).

    >>> lost_page_texts("sv")["reload"], lost_page_texts("en")["reload"]
    ('Ladda om sidan', 'Reload the page')
    """
    with use_language(lang or language()):
        return {"lang": language(),
                "heading": _("This page lost its connection to the server."),
                "detail": _("Its Python kernel has stopped, so the cards and buttons no longer answer."),
                "reload": _("Reload the page")}


class LostPageTexts:
    """An nbconvert preprocessor (named in the template's ``conf.json``): puts
    :func:`lost_page_texts` in the page's language into ``resources["krypteach_lost"]``.
    The language is the lesson's (``metadata.krypteach.language``, written by
    :func:`krypteach.i18n.notebooks.localize_notebook`), else the current one: a page
    may be rendered ahead, for a kernel waiting in the pool, outside any request."""

    enabled = True

    def __init__(self, **_kwargs: Any) -> None:
        pass

    def __call__(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        meta = (nb.get("metadata") or {}).get("krypteach") or {}
        lang = meta.get("language") if isinstance(meta, dict) else None
        try:
            texts = lost_page_texts(lang)
        except ValueError:  # a language krypteach does not speak
            texts = lost_page_texts()
        resources = {**(resources or {}), "krypteach_lost": texts}
        return nb, resources
