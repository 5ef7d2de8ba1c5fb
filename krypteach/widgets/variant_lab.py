"""``VariantLab``: compare two rule sets over many simulated givar.

A learner picks rule set A and rule set B (any option of RULES.md), the
computer players' level and the number of givar, presses Run, and sees the two
side by side: score distributions per seat, tabbar per giv, how often the
dealer's seat wins, and how often a giv ends with a negative score. All the
numbers come from :func:`krypteach.play.simulate.simulate`; the plot from
:func:`krypteach.views.plots.compare_simulations`.

>>> lab = VariantLab(givar=4)
>>> lab.picker_b.choose_preset("table-grows-by-creeping")
>>> lab.run()
>>> len(lab.simulations), lab.progress.value
(2, 8)
"""

from __future__ import annotations

import html

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..bots import BOT_LEVELS
from ..play.simulate import Simulation, simulate
from ..views.plots import compare_simulations, figure_png
from ._ui import button, message_html
from .rules_picker import RulesPicker

__all__ = ["VariantLab"]


class VariantLab(widgets.VBox):
    """Two rule pickers, a bot level, a number of givar, Run, a progress bar and the comparison."""

    def __init__(self, givar: int = 1000, bot: str = "careful", seed: int = 1, jobs: int | None = None,
                 **kwargs) -> None:
        self.jobs = jobs  # processes to play on (None: every core); the results are the same for any number
        self.picker_a = RulesPicker()
        self.picker_b = RulesPicker()
        levels = list(BOT_LEVELS)
        self.bot_level = widgets.Dropdown(options=levels, value=bot if bot in levels else levels[0],
                                          description="Computer players (nivå)", style={"description_width": "initial"})
        self.givar = widgets.BoundedIntText(value=givar, min=2, max=20000, step=100, description="Givar per rule set",
                                            style={"description_width": "initial"}, layout=widgets.Layout(width="16em"))
        self.seed = widgets.IntText(value=seed, description="Seed (frö)", style={"description_width": "initial"},
                                    layout=widgets.Layout(width="12em"))
        self.run_button = button("Run the comparison", icon="play", style="primary")
        self.run_button.on_click(lambda _: self.run())
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="Progress",
                                            layout=widgets.Layout(width="40em"))
        self.status = widgets.HTML("")
        # hidden until there is a picture (an empty image shows a broken-image icon)
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%", display="none"))
        self.table = widgets.HTML("")
        self.simulations: list[Simulation] = []
        col = lambda title, picker: widgets.VBox([widgets.HTML(f"<h4>{title}</h4>"), picker],  # noqa: E731
                                                 layout=widgets.Layout(border="1px solid #ccc", padding="6px", margin="4px"))
        super().__init__([
            widgets.HBox([col("Rule set A (regler A)", self.picker_a), col("Rule set B (regler B)", self.picker_b)],
                         layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.bot_level, self.givar, self.seed]),
            widgets.HBox([self.run_button, self.progress]),
            self.status, self.table, self.image,
        ], **kwargs)
        self.add_class("kt-variant-lab")

    def run(self) -> None:
        """Simulate both rule sets (same seed, so both see the same shuffles) and show the comparison."""
        for p in (self.picker_a, self.picker_b):
            if p.error:
                self.status.value = message_html("error", f"Fix the rules first: {p.error}")
                return
        rule_sets = [self.picker_a.rules, self.picker_b.rules]
        n = self.givar.value
        self.progress.max = 2 * n
        self.progress.value = 0
        self.run_button.disabled = True
        self.status.value = message_html("info", f"Playing {2 * n} givar with {self.bot_level.value} computer players…")
        sims = []

        def tick(_giv) -> None:
            self.progress.value += 1

        try:
            for rules in rule_sets:
                bots = [self.bot_level.value] * rules.players
                sims.append(simulate(rules, n, seed=self.seed.value, bots=bots, on_giv=tick, jobs=self.jobs))
        finally:
            self.run_button.disabled = False
        self.simulations = sims
        self.image.value = figure_png(compare_simulations(sims, ["A", "B"]))
        self.image.layout.display = ""
        self.table.value = self._table(sims)
        self.status.value = message_html("ok", f"Done: {n} givar for each rule set. Lower scores are better (misère).")

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
