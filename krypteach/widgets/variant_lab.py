"""``VariantLab``: compare two rule sets over many simulated givar.

A learner picks rule set A and rule set B (any option of RULES.md), the
computer players' level and the number of givar, presses Run, and sees the two
side by side: score distributions per seat, tabbar per giv, how often the
dealer's seat wins, and how often a giv ends with a negative score. All the
numbers come from :func:`krypteach.play.simulate.simulate`; the plot from
:func:`krypteach.views.plots.compare_simulations`.

A run is bounded by the class's caps (:class:`krypteach.play.limits.JobCaps`:
givar per run and seconds per job, set by the teacher), checked in Python before
it starts; the Run button plays in a thread of its own so that the page stays
responsive, and Cancel stops it between two givar.

>>> lab = VariantLab(givar=4)
>>> lab.picker_b.choose_preset("table-grows-by-creeping")
>>> lab.run()
>>> len(lab.simulations), lab.progress.value
(2, 8)
>>> lab = VariantLab(givar=400, bot="expert", caps=JobCaps(max_seconds=60))
>>> lab.run(); lab.simulations, lab.progress.value
([], 0)
>>> "at most 50 givar" in lab.status.value
True
"""

from __future__ import annotations

import html
import sys
import threading

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..bots import BOT_LEVELS
from ..play.limits import Cancelled, JobCaps, JobTooBig
from ..play.simulate import Simulation, simulate
from ..views.plots import compare_simulations, figure_png, no_plots_message, png_img_html
from ._ui import button, message_html
from .rules_picker import RulesPicker

__all__ = ["VariantLab"]


class VariantLab(widgets.VBox):
    """Two rule pickers, a bot level, a number of givar, Run, a progress bar and the comparison."""

    def __init__(self, givar: int = 1000, bot: str = "careful", seed: int = 1, jobs: int | None = None,
                 caps: JobCaps | None = None, **kwargs) -> None:
        #: the class's caps on a run (from ``krypteach serve``'s options, else the defaults)
        self.caps = caps or JobCaps.from_env()
        # processes to play on (None: the caps', else every core); the results are the same for any number
        self.jobs = jobs if jobs is not None else self.caps.jobs
        self._cancel = threading.Event()
        self._worker: threading.Thread | None = None
        self.picker_a = RulesPicker()
        self.picker_b = RulesPicker()
        levels = list(BOT_LEVELS)
        self.bot_level = widgets.Dropdown(options=levels, value=bot if bot in levels else levels[0],
                                          description="Computer players (nivå)", style={"description_width": "initial"})
        self.givar = widgets.BoundedIntText(value=min(givar, self.caps.max_givar), min=2, max=self.caps.max_givar,
                                            step=100, description="Givar per rule set",
                                            style={"description_width": "initial"}, layout=widgets.Layout(width="16em"))
        self.seed = widgets.IntText(value=seed, description="Seed (frö)", style={"description_width": "initial"},
                                    layout=widgets.Layout(width="12em"))
        self.run_button = button("Run the comparison", icon="play", style="primary")
        self.run_button.on_click(lambda _: self.start())
        self.cancel_button = button("Cancel (avbryt)", icon="stop", style="warning")
        self.cancel_button.layout.display = "none"
        self.cancel_button.on_click(lambda _: self.cancel())
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="Progress",
                                            layout=widgets.Layout(width="40em"))
        self.status = widgets.HTML("")
        # hidden until there is a picture (an empty image shows a broken-image icon)
        self.image = widgets.HTML("", layout=widgets.Layout(max_width="100%", display="none"))
        self.png = b""  # the comparison's picture (PNG), also shown in ``image`` with its text alternative
        self.table = widgets.HTML("")
        self.simulations: list[Simulation] = []
        col = lambda title, picker: widgets.VBox([widgets.HTML(f"<h4>{title}</h4>"), picker],  # noqa: E731
                                                 layout=widgets.Layout(border="1px solid #ccc", padding="6px", margin="4px"))
        super().__init__([
            widgets.HBox([col("Rule set A (regler A)", self.picker_a), col("Rule set B (regler B)", self.picker_b)],
                         layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.bot_level, self.givar, self.seed]),
            widgets.HBox([self.run_button, self.cancel_button, self.progress]),
            self.status, self.table, self.image,
        ], **kwargs)
        self.add_class("kt-variant-lab")

    def start(self) -> None:
        """What Run does: :meth:`run` in a thread of its own, with Cancel shown meanwhile."""
        if self._worker is not None and self._worker.is_alive():
            return  # one run at a time
        self._cancel.clear()
        if sys.platform == "emscripten":  # the browser's Python (the static site) starts no threads: run here
            self.run()
            return
        self._worker = threading.Thread(target=self.run, name="krypteach-variant-lab", daemon=True)
        self._worker.start()

    def cancel(self) -> None:
        """Stop the run between two givar (what Cancel does)."""
        self._cancel.set()

    def run(self) -> None:
        """Simulate both rule sets (same seed, so both see the same shuffles) and show the comparison."""
        for p in (self.picker_a, self.picker_b):
            if p.error:
                self.status.value = message_html("error", f"Fix the rules first: {p.error}")
                return
        rule_sets = [self.picker_a.rules, self.picker_b.rules]
        n, level = self.givar.value, self.bot_level.value
        try:
            if level not in BOT_LEVELS:
                raise JobTooBig(f"{level!r} is not a computer player here: choose one of {', '.join(BOT_LEVELS)}")
            self.caps.check(n, level, rule_sets=len(rule_sets))
        except JobTooBig as e:
            self.status.value = message_html("error", f"Too much for one run: {e}.")
            return
        self.progress.max = 2 * n
        self.progress.value = 0
        self.run_button.disabled = True
        self.cancel_button.layout.display = ""
        self.status.value = message_html("info", f"Playing {2 * n} givar with {level} computer players…")
        sims = []
        stop = self.caps.deadline(self._cancel.is_set)

        def tick(_giv) -> None:
            self.progress.value += 1
            stop()

        try:
            for rules in rule_sets:
                bots = [level] * rules.players
                sims.append(simulate(rules, n, seed=self.seed.value, bots=bots, on_giv=tick, jobs=self.jobs))
        except Cancelled as e:
            self.status.value = message_html(
                "info", f"The run was {e} after {self.progress.value} of {2 * n} givar: no comparison. "
                        f"Choose fewer givar to finish sooner.")
            return
        except Exception as e:  # in the thread nobody else would see it
            self.status.value = message_html("error", f"The run failed: {e}")
            return
        finally:
            self.run_button.disabled = False
            self.cancel_button.layout.display = "none"
        self.simulations = sims
        no_plots = ""
        try:
            self.png = figure_png(compare_simulations(sims, ["A", "B"]))
            self.image.value = png_img_html(self.png, "The two rule sets compared: scores per seat, tabbar per giv, "
                                                      "the dealer's wins and negative scores (the table below has "
                                                      "the same numbers)", "kt-lab-figure")
            self.image.layout.display = ""
        except ImportError as e:  # no matplotlib (the offline static site): the table still tells
            self.image.layout.display = "none"
            no_plots = " " + no_plots_message(e)
        self.table.value = self._table(sims)
        self.status.value = message_html("ok", f"Done: {n} givar for each rule set. Lower scores are better "
                                               f"(misère).{no_plots}")

    @staticmethod
    def _table(sims: list[Simulation]) -> str:
        rows = []
        for label, sim in zip("AB", sims):
            means = ", ".join(f"{m:+.1f}" for m in sim.mean_scores())
            rows.append(
                f"<tr><td><b>{label}</b></td><td>{html.escape(sim.rules.describe())}</td><td>{means}</td>"
                f"<td>{sim.tabbar_per_giv():.2f}</td><td>{100 * sim.dealer_win_share():.1f}%</td>"
                f"<td>{100 * sim.negative_share():.1f}%</td></tr>"
            )
        head = ("<tr><th></th><th>Rules</th><th>Mean score per seat</th><th>Tabbar per giv</th>"
                "<th>Dealer's seat wins</th><th>Negative score in giv</th></tr>")
        style = ("<style>.kt-lab-table td,.kt-lab-table th{padding:3px 12px;text-align:left;"
                 "border-bottom:1px solid #ddd}</style>")
        return f'{style}<table class="kt-lab-table" style="border-collapse:collapse">{head}{"".join(rows)}</table>'
