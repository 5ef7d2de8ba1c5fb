"""How engine objects show themselves in a notebook, without the engine
knowing how they are drawn.

The engine sits at the bottom of the package and imports nothing above it.
A :class:`~krypteach.engine.cards.Card` or a
:class:`~krypteach.engine.game.Giv` that is the last expression of a notebook
cell asks this registry for a drawing; :mod:`krypteach.views` registers its
SVG and HTML functions here when it is imported (``import krypteach`` does).
With nothing registered, the object shows its plain ``repr``.

>>> register("example", lambda obj: f"<b>{obj}</b>")
>>> show("example", 7), show("nothing-registered", 7)
('<b>7</b>', None)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["register", "show"]

_RENDERERS: dict[str, Callable[[Any], str]] = {}


def register(kind: str, render: Callable[[Any], str]) -> None:
    """Draw objects of ``kind`` (``"card"``, ``"giv"``) with ``render(obj) -> str``."""
    _RENDERERS[kind] = render


def show(kind: str, obj: object) -> str | None:
    """The drawing of ``obj`` by the renderer registered for ``kind``, or ``None``."""
    render = _RENDERERS.get(kind)
    return None if render is None else render(obj)
