"""The few pages ``krypteach serve`` shows itself: the class code, "the class is full",
a refused address. Self-contained HTML (no scripts or fonts from elsewhere), Swedish
first with English beside it, readable on a phone."""

from __future__ import annotations

from html import escape

__all__ = ["join_page", "message_page"]

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f3f5f2;color:#1d2a1f}
main{max-width:30rem;margin:10vh auto;padding:1.5rem 1.75rem;background:#fff;border-radius:.75rem;
box-shadow:0 2px 10px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin:0 0 .25rem}
.en{color:#555}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
input{font-size:1.5rem;width:100%;box-sizing:border-box;padding:.5rem .75rem;border:2px solid #5a7d5f;
border-radius:.5rem}
input.code{letter-spacing:.2em;text-transform:uppercase}
button,a.button{display:inline-block;margin-top:1rem;font-size:1.1rem;padding:.6rem 1.2rem;border:0;
border-radius:.5rem;background:#2e6b3a;color:#fff;text-decoration:none;cursor:pointer}
.error{color:#a3161a;font-weight:600;margin-top:1rem}
@media (max-width:480px){main{margin:0;border-radius:0;min-height:100vh}}
"""


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html><html lang="sv"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
            f'<body><main>{body}</main></body></html>')


def join_page(next_url: str, error: str = "", action: str = "/krypteach/join", *, ask_code: bool = True,
              nickname: str = "", nickname_error: str = "") -> str:
    """Ask for the class code once (the browser remembers it: a cookie, and the code in
    localStorage so that a new session of the server fills it in) and a nickname, under
    which the learner's progress is kept."""
    err = (f'<p class="error" role="alert">Fel klasskod. <span class="en">({escape(error)})</span></p>'
           if error else "")
    nick_err = (f'<p class="error" role="alert" id="nick-error">Smeknamnet går inte att använda: '
                f'<span class="en">{escape(nickname_error)}</span></p>' if nickname_error else "")
    auto = "" if (error or nickname_error or not ask_code) else "true"
    code_field = """
  <label for="code">Klasskod <span class="en">(class code)</span></label>
  <input id="code" name="code" class="code" autocomplete="off" autocapitalize="characters" spellcheck="false"
         maxlength="32" required autofocus>""" if ask_code else ""
    intro = ("Skriv klasskoden som läraren visar och ett smeknamn. <span class=\"en\">Type the class code your "
             "teacher shows, and a nickname.</span>" if ask_code else
             "Skriv ett smeknamn, så sparas dina framsteg. <span class=\"en\">Type a nickname, and your progress "
             "is kept.</span>")
    body = f"""
<h1>Krypkasino</h1>
<p>{intro}</p>
<form method="post" action="{escape(action)}" id="join">{code_field}
  <label for="nickname">Smeknamn <span class="en">(nickname: your progress is kept under it)</span></label>
  <input id="nickname" name="nickname" class="nick" autocomplete="nickname" maxlength="60" required
         value="{escape(nickname)}"{"" if ask_code else " autofocus"}>
  <input type="hidden" name="next" value="{escape(next_url)}">
  <button type="submit">Börja <span class="en">(start)</span></button>
</form>
{err}{nick_err}
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
    return _page("Klasskod – Krypkasino", body)


#: page kind -> (Swedish heading, English heading, Swedish advice)
_MESSAGES = {
    "full": ("Klassen är full just nu", "The class is full right now",
             "Vänta en liten stund och försök igen, eller be läraren om hjälp."),
    "yours": ("Du har många sidor öppna", "You have many lesson pages open",
              "Stäng en flik med en lektion och försök igen."),
    "slow-down": ("Lite för snabbt", "A little too fast",
                  "Vänta en minut och försök igen."),
    "host": ("Fel adress", "Wrong address",
             "Öppna sidan med adressen som läraren gav."),
    "code": ("Fel klasskod", "Wrong class code",
             "Fråga läraren efter klasskoden."),
    "missing": ("Lektionen finns inte här", "Not a lesson of this class",
                "Gå tillbaka till startsidan och välj en lektion därifrån."),
    "teacher": ("Ingen lärarsida", "No teacher's page",
                "Starta krypteach serve med framsteg påslagna."),
}


def message_page(kind: str, reason: str, retry_url: str | None = None) -> str:
    sv, en, advice = _MESSAGES.get(kind, ("Något gick fel", "Something went wrong", "Försök igen."))
    retry = (f'<a class="button" href="{escape(retry_url)}">Försök igen <span class="en">(try again)</span></a>'
             if retry_url else "")
    body = (f"<h1>{escape(sv)}</h1><p class=\"en\">{escape(en)}: {escape(reason)}.</p>"
            f"<p>{escape(advice)}</p>{retry}")
    return _page(f"{sv} – Krypkasino", body)
