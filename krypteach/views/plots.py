"""Pure plotting functions (matplotlib) for simulation results.

>>> from krypteach.play.simulate import simulate
>>> from krypteach import Rules
>>> fig = compare_simulations([simulate(Rules(), 4, seed=1), simulate(Rules(table_next=0), 4, seed=1)], ["A", "B"])
>>> len(fig.axes)
4
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..i18n import _, language
from ..i18n.numbers import number
from ..play.simulate import Simulation

if TYPE_CHECKING:  # matplotlib is imported where a figure is drawn (on demand)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["compare_simulations", "figure_png", "plain_label", "plain_text", "png_img_html", "no_plots_message"]

#: the longest label a plot draws (a longer one ends in "…"): a label comes from a learner's
#: file or a rule set's name, and a 5,000-character one must not make a figure 5 m wide
MAX_LABEL = 60

_COLORS = ["#1f6f43", "#b5562b", "#2b5fb5", "#8a2bb5"]


def _tick(x: float, lang: str) -> str:
    """An axis's number as ``lang`` writes it, with the decimals it has (``0,1``, ``−10``, ``2``).

    >>> _tick(0.1, "sv"), _tick(-10.0, "sv"), _tick(2.0, "en"), _tick(0.25, "en")
    ('0,1', '−10', '2', '0.25')
    """
    for digits in range(4):
        if abs(round(x, digits) - x) < 1e-9:
            return number(x, digits, lang)
    return number(x, 3, lang)


def _number(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals as the page's language writes it (``2,35``, ``−1``).

    >>> _number(2.345, 2)
    '2.35'
    """
    return number(x, digits)


@contextlib.contextmanager
def plain_text() -> Iterator[None]:
    """Inside this, matplotlib draws every text as it is: ``$…$`` is not read as maths (a rule
    named ``$\\frac{$`` made the teacher's page fail) and no TeX is run. Both the figure's
    making and its drawing (``savefig``: tick labels are made then) must be inside.

    >>> with plain_text():
    ...     png = figure_png(_one_label("$\\\\frac{$"))
    >>> png.startswith(b"\\x89PNG")
    True
    """
    import matplotlib

    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
        yield


def _one_label(label: str) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2))
    fig.subplots().set_title(label)
    return fig


def plain_label(text: str, most: int = MAX_LABEL) -> str:
    """A label for a plot: on one line, at most ``most`` characters (the rest as "…").

    >>> plain_label("a\\nb"), plain_label("x" * 100)[-3:], len(plain_label("x" * 100))
    ('a b', 'xx…', 60)
    """
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[:most - 1] + "…"


def compare_simulations(sims: Sequence[Simulation], labels: Sequence[str], *,
                        figsize: tuple[float, float] = (11, 7.5)) -> Figure:
    """A 2×2 figure comparing rule sets side by side: score distribution per seat,
    tabbar per giv, how often the dealer's seat wins, how often a giv ends negative.
    Every label is drawn as plain text (:func:`plain_text`; draw it with :func:`figure_png`)."""
    with plain_text():
        return _compare_simulations(sims, [plain_label(label) for label in labels], figsize)


def _compare_simulations(sims: Sequence[Simulation], labels: Sequence[str], figsize: tuple[float, float]) -> Figure:
    from matplotlib.figure import Figure  # the object API needs no GUI backend
    from matplotlib.ticker import FuncFormatter

    fig = Figure(figsize=figsize, layout="constrained")
    ax_scores, ax_tabbar, ax_dealer, ax_negative = fig.subplots(2, 2).ravel()
    # the axes' numbers in the page's language (a Swedish page's read 0.1 … 0.8), kept for the drawing
    lang = language()
    ticks_in = FuncFormatter(lambda x, _pos: _tick(x, lang))
    for axis in (ax_scores.yaxis, ax_tabbar.xaxis, ax_tabbar.yaxis, ax_dealer.yaxis, ax_negative.yaxis):
        axis.set_major_formatter(ticks_in)

    # score distributions per seat: one box per seat and rule set, side by side
    positions, data, colors, ticks, ticklabels = [], [], [], [], []
    width = 0.8 / len(sims)
    max_seats = max(s.rules.players for s in sims)
    for i, sim in enumerate(sims):
        for seat, scores in enumerate(sim.scores_by_seat()):
            positions.append(seat + (i - (len(sims) - 1) / 2) * width)
            data.append(scores)
            colors.append(_COLORS[i % len(_COLORS)])
    for seat in range(max_seats):
        ticks.append(seat)
        ticklabels.append(_("seat {number}").format(number=seat))
    box = ax_scores.boxplot(data, positions=positions, widths=width * 0.9, patch_artist=True, showfliers=False)
    for patch, c in zip(box["boxes"], colors):
        patch.set_facecolor(c)
        patch.set_alpha(0.55)
    ax_scores.set_xticks(ticks, ticklabels)
    ax_scores.axhline(0, color="#888", lw=0.8)
    lowest = {getattr(s.rules, "lowest_wins", True) for s in sims}
    # i18n: the title is two lines (the "\n"): one was cut off at the figure's edge
    ax_scores.set_title(_("Score per giv, by seat\n(lower is better)") if lowest == {True} else
                        _("Score per giv, by seat\n(higher is better)") if lowest == {False} else
                        _("Score per giv, by seat\n(Krypkasino and avig kasino: lower is better; Kasino: higher)"))
    ax_scores.set_ylabel(_("points"))

    # tabbar per giv
    top = max(max(s.tabbar_counts(), default=0) for s in sims)
    bins = [b - 0.5 for b in range(top + 2)]
    for i, sim in enumerate(sims):
        ax_tabbar.hist(sim.tabbar_counts(), bins=bins, alpha=0.55, color=_COLORS[i % len(_COLORS)],
                       label=_("{label}: mean {mean}").format(label=labels[i], mean=_number(sim.tabbar_per_giv(), 2)),
                       density=True)
    ax_tabbar.set_title(_("Tabbar per giv"))
    ax_tabbar.set_xlabel(_("tabbar in one giv"))
    ax_tabbar.set_ylabel(_("share of givar"))
    ax_tabbar.legend()

    def bars(ax: Axes, values: Sequence[float], title: str, fair: float | None = None) -> None:
        xs = range(len(sims))
        ax.bar(xs, [100 * v for v in values], color=[_COLORS[i % len(_COLORS)] for i in xs], alpha=0.75)
        for x, v in zip(xs, values):
            ax.text(x, 100 * v, _("{percent}%").format(percent=_number(100 * v, 1)), ha="center", va="bottom")
        if fair is not None:
            ax.axhline(100 * fair, color="#444", ls="--", lw=1, label=_("fair share {percent}%").format(percent=_number(100 * fair, 0)))
            ax.legend(loc="lower right")
        ax.set_xticks(list(xs), list(labels))
        ax.set_ylim(0, 100)
        ax.set_ylabel(_("% of givar"))
        ax.set_title(title)

    fair = [1 / s.rules.team_count for s in sims]
    bars(ax_dealer, [s.dealer_win_share() for s in sims], _("Dealer's seat wins the giv"),
         fair[0] if len(set(fair)) == 1 else None)
    bars(ax_negative, [s.negative_share() for s in sims], _("Giv ends with a negative score"))
    return fig


def no_plots_message(error: ImportError) -> str:
    """What a page says where matplotlib cannot be imported (the plots are drawn on demand).

    >>> no_plots_message(ImportError("No module named 'matplotlib'"))[:22]
    'Plots need matplotlib,'
    """
    import sys

    if sys.platform == "emscripten":
        return _("Plots need matplotlib, which this offline site does not have (it is compiled, and no build of it "
                 "for the browser's Python is in the site); the table has the same numbers.")
    return _("Plots need matplotlib, which this Python does not have ({error}): pip install matplotlib.").format(
        error=error)


def png_img_html(png: bytes, alt: str, css_class: str = "") -> str:
    """A PNG as an ``<img>`` with its text alternative (an image widget has none), scaled to fit.

    >>> png_img_html(b"PNG", "Scores of A and B", "kt-compare")
    '<img class="kt-compare" alt="Scores of A and B" style="max-width:100%;height:auto" src="data:image/png;base64,UE5H">'
    """
    import base64
    import html

    cls = f' class="{html.escape(css_class, quote=True)}"' if css_class else ""
    return (f'<img{cls} alt="{html.escape(alt, quote=True)}" style="max-width:100%;height:auto" '
            f'src="data:image/png;base64,{base64.b64encode(png).decode()}">')


def figure_png(fig: Figure, dpi: int = 96) -> bytes:
    """A figure as PNG bytes (for an image widget or a file), its texts drawn as plain text."""
    import io

    buf = io.BytesIO()
    with plain_text():
        fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()
