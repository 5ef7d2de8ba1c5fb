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
input{font-size:1.5rem;letter-spacing:.2em;text-transform:uppercase;width:100%;box-sizing:border-box;
padding:.5rem .75rem;border:2px solid #5a7d5f;border-radius:.5rem}
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


def join_page(next_url: str, error: str = "", action: str = "/krypteach/join") -> str:
    """Ask for the class code once; the browser remembers it (a cookie, and the code in
    localStorage so that a new session of the server fills it in)."""
    err = (f'<p class="error" role="alert">Fel klasskod. <span class="en">({escape(error)})</span></p>'
           if error else "")
    auto = "" if error else "true"
    body = f"""
<h1>Krypkasino</h1>
<p>Skriv klasskoden som läraren visar. <span class="en">Type the class code your teacher shows.</span></p>
<form method="post" action="{escape(action)}" id="join">
  <label for="code">Klasskod <span class="en">(class code)</span></label>
  <input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false"
         maxlength="32" required autofocus>
  <input type="hidden" name="next" value="{escape(next_url)}">
  <button type="submit">Börja <span class="en">(start)</span></button>
</form>
{err}
<script>
(function () {{
  var form = document.getElementById("join"), box = document.getElementById("code");
  var saved = null;
  try {{ saved = window.localStorage.getItem("krypteach-class-code"); }} catch (e) {{}}
  if (saved) {{ box.value = saved; if ("{auto}") {{ form.submit(); }} }}
  form.addEventListener("submit", function () {{
    try {{ window.localStorage.setItem("krypteach-class-code", box.value); }} catch (e) {{}}
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
}


def message_page(kind: str, reason: str, retry_url: str | None = None) -> str:
    sv, en, advice = _MESSAGES.get(kind, ("Något gick fel", "Something went wrong", "Försök igen."))
    retry = (f'<a class="button" href="{escape(retry_url)}">Försök igen <span class="en">(try again)</span></a>'
             if retry_url else "")
    body = (f"<h1>{escape(sv)}</h1><p class=\"en\">{escape(en)}: {escape(reason)}.</p>"
            f"<p>{escape(advice)}</p>{retry}")
    return _page(f"{sv} – Krypkasino", body)
