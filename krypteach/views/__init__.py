"""Views: how cards, hands, tables and a giv look (SVG and HTML), and plots.

Pure functions from the engine's public state to strings (or matplotlib
figures); no game logic. :mod:`~krypteach.views.svg` draws the cards,
:mod:`~krypteach.views.html` lays out hands, tables and whole givar, and
:mod:`~krypteach.views.plots` draws simulation results (imported on demand, as
it needs matplotlib).

Importing this package also tells the engine how its objects show themselves
in a notebook (see :mod:`krypteach.engine.display`).

>>> from krypteach import Card
>>> Card("10D")._repr_svg_().startswith("<svg")
True
"""

from ..engine import display as _display
from .html import CardsView, card_html, giv_html, hand_html, table_html
from .svg import FONT, card_label, card_name, card_svg, row_svg, stack_svg

__all__ = ["FONT", "CardsView", "card_html", "card_label", "card_name", "card_svg", "giv_html", "hand_html",
           "row_svg", "stack_svg", "table_html"]

_display.register("card", card_svg)
_display.register("giv", giv_html)
