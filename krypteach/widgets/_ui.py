"""Small pieces shared by the widgets: escaping, buttons with text, feedback messages."""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..i18n import N_, _


def esc(text: object) -> str:
    """Text made safe for HTML."""
    return html.escape(str(text), quote=False)


def button(text: str, icon: str = "", style: str = "", tip: str = "") -> widgets.Button:
    """A button with a visible text label (and ``tip`` as its tooltip)."""
    return widgets.Button(description=text, icon=icon, button_style=style, tooltip=tip or text,
                          layout=widgets.Layout(width="auto"))


def message_html(kind: str, text: str, details: Sequence[str] = ()) -> str:
    """A feedback message: ``kind`` is ``"ok"``, ``"error"`` or ``"info"``; plain-text lines.

    >>> message_html("ok", "Right <3", ["a"])
    '<div class="kt-msg kt-ok" role="status">Right &lt;3<ul><li>a</li></ul></div>'
    """
    items = "".join(f"<li>{esc(d)}</li>" for d in details)
    return (f'<div class="kt-msg kt-{kind}" role="status">{esc(text)}'
            + (f"<ul>{items}</ul>" if items else "") + "</div>")


def message_text(text: str, details: Sequence[str] = ()) -> str:
    """The same message as plain text (one line per detail)."""
    return text + ("\n" + "\n".join(details) if details else "")


#: each computer player's level as a menu shows it, in the page's language (the key, ``careful``, is
#: the classroom file's and the command line's; lesson 09 calls them slumpis, försiktig and expert)
LEVEL_TITLES = {"random": N_("random"), "careful": N_("careful"), "expert": N_("expert")}


def level_options(levels: Sequence[str]) -> list[tuple[str, str]]:
    """A menu's (label, level) for each of ``levels``; a level not named here shows its key."""
    return [(_(LEVEL_TITLES[level]) if level in LEVEL_TITLES else level, level) for level in levels]
