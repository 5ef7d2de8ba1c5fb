"""``LearnerBar``: who is learning on this page, and where they stand.

Shown at the top of every lesson. In a page served by ``krypteach serve`` the bar's
front end asks the server for a token for this kernel (``/krypteach/learner-token`` with the
kernel's random ``nonce``: the server reads its HttpOnly sign-in cookie, set when the
nickname and PIN were typed) and hands it, with the page's address, to the kernel in one
custom message; the kernel checks the token (:mod:`krypteach.classroom.session`)
and from then on keeps the page's progress. The bar then reads "Ann · 2 of 5 solved in this
lesson" ("Ann · 2 av 5 klara i den här lektionen" on a Swedish page); on the start page
(``overview=True``) it lists every lesson, the puzzles solved per kind and the givar played.
Nobody signed in: a link to sign in where the server offers it, else nothing.

>>> bar = LearnerBar(lesson="03_take_all")
>>> bar.html
''
"""

from __future__ import annotations

import html
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..classroom.session import ENV_KEY, ENV_SITE, BrowserProgress, Session, current, lesson_of_path
from ..classroom.store import NicknameError
from ..i18n import N_, _, ngettext
from ..i18n.numbers import percent, signed
from .board_widget import BoardPanel
from .puzzle_widget import KIND_TITLES

#: a game's name on the learner's page, and which way its score counts
GAME_WORDS = {"krypkasino": N_("Krypkasino (the lowest score wins)"), "kasino": N_("Kasino (the highest score wins)"),
              "avig-kasino": N_("avig kasino (the lowest score wins)"), "": N_("earlier givar")}

__all__ = ["LearnerBar"]

_ESM = r"""
const KEY = "krypteach-progress";

function saved() {
  try { return window.localStorage.getItem(KEY) || ""; } catch (e) { return ""; }
}

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "kt-learner";
  box.setAttribute("role", "status");
  el.appendChild(box);
  const draw = () => {
    box.innerHTML = model.get("html");
    const form = box.querySelector("form.kt-nick-form");
    if (form) {
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        model.send({ nickname: form.querySelector("input").value, page: window.location.pathname });
      });
    }
    const link = box.querySelector("a.kt-download-progress");
    if (link) {
      link.addEventListener("click", () => {
        const text = saved();
        let name = "krypteach-progress";
        try { name += "-" + JSON.parse(text).nickname.replace(/[^\p{L}\p{N}_-]+/gu, "_"); } catch (e) {}
        link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
        link.download = name + ".json";
      });
    }
  };
  model.on("change:html", draw);
  model.on("msg:custom", (msg) => {
    if (msg && typeof msg.save === "string") {
      try { window.localStorage.setItem(KEY, msg.save); } catch (e) {}
    }
  });
  draw();
  const hello = (token) => model.send({ hello: 1, token: token, page: window.location.pathname, saved: saved() });
  const nonce = model.get("nonce");
  if (nonce) {
    // served by krypteach serve: the server makes a token for this kernel alone (the sign-in
    // cookie is HttpOnly: no script of the page can read it)
    fetch("/krypteach/learner-token?" + new URLSearchParams({ nonce: nonce }),
          { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? r.json() : { token: "" }))
      .then((j) => hello(typeof j.token === "string" ? j.token : ""), () => hello(""));
  } else {
    hello("");
  }
}
export default { render };
"""

_CSS = """
.kt-learner { font-size: 15px; padding: 6px 10px; margin: 0 0 8px; border-radius: 6px; background: #eef4ee;
  color: #1d2a1f; line-height: 1.5; }
.kt-learner:empty { display: none; }
.kt-learner a { color: #1b5e20; text-decoration: underline; }
.kt-learner table { border-collapse: collapse; margin-top: 4px; }
.kt-learner td { padding: 1px 12px 1px 0; }
"""


class LearnerBar(anywidget.AnyWidget):
    """The learner's name and standing; ``overview`` lists every lesson (the start page).

    Every lesson shows it, so it also brings the page's layout for a phone (``page.css``)."""

    _esm = _ESM
    _css = _CSS + (Path(__file__).with_name("page.css")).read_text(encoding="utf-8")
    html = traitlets.Unicode("").tag(sync=True)
    #: served (the server's key in the environment): the random word the server's token for
    #: this kernel must carry; "" elsewhere (the front end then asks for no token)
    nonce = traitlets.Unicode("").tag(sync=True)

    def __init__(self, lesson: str | None = None, *, overview: bool = False,
                 titles: Mapping[str, str] | None = None, session: Session | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: the teacher's board (issue 24), shown under the bar on a served page once the teacher sends a position
        self.board: BoardPanel | None = None
        if os.environ.get(ENV_KEY):
            self.nonce = secrets.token_urlsafe(18)
            self.board = BoardPanel()
        self.session = session or current()
        if lesson:
            self.session.lesson = lesson
        self.overview = overview
        self.titles = dict(titles or {})
        self.page = ""
        self.problem = ""  # a nickname that could not be used
        self.on_msg(self._hello)
        self.session.listeners.append(self._show)

    def _hello(self, _widget: object, content: object, _buffers: object) -> None:
        """The front end's messages: the learner's token, the page's address and (on the static
        site) the progress this browser keeps; or a nickname typed into the bar."""
        if not isinstance(content, dict):
            return
        page = content.get("page")
        if not isinstance(page, str) or len(page) > 300:
            return
        if "nickname" in content:  # the static site: a learner names themself
            nickname = content.get("nickname")
            if isinstance(nickname, str) and len(nickname) <= 200:
                self.page = page
                try:
                    self.session.sign_in_browser("", nickname, page)
                    self.problem = ""
                except NicknameError as e:
                    self.problem = str(e)
                self._keep()
                self._show()
            return
        if content.get("hello") != 1:
            return
        token, saved = content.get("token"), content.get("saved", "")
        if not isinstance(token, str) or len(token) > 600 or not isinstance(saved, str) or len(saved) > 2_000_000:
            return
        self.page = page
        if token:
            self.session.sign_in(token, page, nonce=self.nonce)
            if self.board is not None and self.session.signed_in:
                self.board.start(self.session)
        elif not self.session.sign_in_on_hub(page) and not self.session.sign_in_browser(saved, None, page) \
                and self.session.lesson is None:
            self.session.lesson = lesson_of_path(page)
        self._keep()
        self._show()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """On a served page the bar comes with the teacher's board under it (hidden until it is used)."""
        if self.board is None:
            return super()._repr_mimebundle_(**kwargs)
        import ipywidgets as widgets  # type: ignore[import-untyped]

        self._with_board = widgets.VBox([self, self.board])
        return self._with_board._repr_mimebundle_(**kwargs)

    def _keep(self) -> None:
        """On the static site: every change of the learner's progress goes to the browser to keep."""
        store = self.session.store
        if isinstance(store, BrowserProgress) and self._send_progress not in store.on_save:
            store.on_save.append(self._send_progress)
            self._send_progress(store.to_file())

    def _send_progress(self, text: str) -> None:
        self.send({"save": text})

    def _show(self) -> None:
        s = self.session
        st = s.standing()
        if st is None:
            if os.environ.get(ENV_KEY) and self.page:  # served, nobody signed in on this browser
                nxt = html.escape(self.page, quote=True)
                self.html = (html.escape(_("Your progress is not kept yet.")) + f" <a href='/krypteach/join?next={nxt}'>"
                             + html.escape(_("Sign in with a nickname")) + "</a>")
            elif os.environ.get(ENV_SITE) == "1":  # the static site: a nickname, kept in this browser
                err = (f"<div class='kt-nick-error' role='alert'>{html.escape(self.problem)}</div>"
                       if self.problem else "")
                self.html = ("<form class='kt-nick-form'><label>"
                             + html.escape(_("Type a nickname and your progress is kept in this browser:"))
                             + " <input name='nickname' maxlength='30' required autocomplete='nickname'></label> "
                             + "<button type='submit'>" + html.escape(_("Save")) + "</button></form>" + err)
            else:
                self.html = ""
            return
        who = f"<b>{html.escape(st.nickname)}</b>"
        if not self.overview:
            here = st.lessons.get(s.lesson or "")
            parts = []
            if here and here.total:
                parts.append(_("{done} of {total} exercises and questions solved in this lesson").format(
                    done=here.done, total=here.total))
            if st.puzzle_ids:  # the trainer counts the same puzzles (solved at the first try or after a hint)
                n = len(st.puzzle_ids)
                parts.append(ngettext("{n} puzzle solved in all", "{n} puzzles solved in all", n).format(n=n))
            line = html.escape(" · ".join(parts) if parts else _("welcome"))
            self.html = f"{who} · {line}{self._download()}"
            return
        rows = []
        for lesson, ls in sorted(st.lessons.items()):
            title = html.escape(self.titles.get(lesson, lesson))
            rows.append(f"<tr><td>{title}</td><td>{html.escape(ls.text())}</td></tr>")
        # each kind by its name in the trainer ("Which card must you play? (tvångstabbe): 2"), not its code
        puzzles = ", ".join(f"{html.escape(_(KIND_TITLES[k]) if k in KIND_TITLES else k)}: {n}"
                            for k, n in st.puzzles.items()) or html.escape(_("none yet"))
        givar = _("Givar played: {n}").format(n=st.givar)
        if st.games:  # each game apart: a Kasino score and a Krypkasino one are not averaged together
            givar += " — " + "; ".join(
                ngettext("{game}: {n} giv, average score {mean}", "{game}: {n} givar, average score {mean}", n).format(
                    game=_(GAME_WORDS.get(game, GAME_WORDS[""])), n=n, mean=signed(mean, 1))
                for game, (n, mean) in st.games.items())
        recent = st.recent_quality()
        if recent is not None:  # the coach's reviews (issue 22)
            n = min(5, len(st.qualities))
            givar += " · " + ngettext("Move quality (the coach): {quality} in your last giv reviewed",
                                      "Move quality (the coach): {quality} over your last {n} givar reviewed",
                                      n).format(quality=percent(recent), n=n)
        go_on = ""
        if st.last_lesson and st.last_lesson in self.titles and not st.last_lesson.startswith("00"):
            link = (f"<a href='{html.escape(st.last_lesson, quote=True)}.ipynb'>"
                    f"{html.escape(self.titles[st.last_lesson])}</a>")
            go_on = "<div class='kt-go-on'>" + _("Go on where you left off: {lesson}").format(lesson=link) + "</div>"
        # i18n: the dash between the learner's name and the heading; Swedish: a spaced en dash " – "
        self.html = (who + html.escape(_(" — ")) + html.escape(_("where you stand")) + go_on
                     + (f"<table>{''.join(rows)}</table>" if rows else "")
                     + "<div>" + _("Puzzles solved: {puzzles}").format(puzzles=puzzles) + "</div>"
                     + f"<div>{html.escape(givar)}</div>" + self._download())

    def _download(self) -> str:
        """On the static site: the learner's progress as a file, for the teacher."""
        if not isinstance(self.session.store, BrowserProgress):
            return ""
        return (" · <a href='#' class='kt-download-progress'>"
                + html.escape(_("Download your progress, for your teacher")) + "</a>")
