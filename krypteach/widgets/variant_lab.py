"""``VariantLab``: compare two rule sets, or the three games, over many simulated givar.

A learner picks rule set A and rule set B (any option of RULES.md), the
computer players' level and the number of givar, presses Run, and sees the two
side by side: score distributions per seat, tabbar per giv, how often the
dealer's seat wins, and how often a giv ends with a negative score. All the
numbers come from :func:`krypteach.play.simulate.simulate`; the plot from
:func:`krypteach.views.plots.compare_simulations`.

*Compare: the three games* plays Krypkasino, classic Kasino and avig kasino
(:data:`GAMES`) on the same seeds and adds what differs between them: which score
wins, the spread between the best and the worst side in a giv. The computer
players that cannot play classic Kasino yet (``krypteach.bots.KASINO_LEVELS``)
are replaced by random ones for all three games, and the page says so.

A run is bounded by the class's caps (:class:`krypteach.play.limits.JobCaps`:
givar per run and seconds per job, set by the teacher), checked in Python before
it starts; the Run button plays in a thread of its own so that the page stays
responsive. The time cap and Cancel stop it inside a giv too, within a tenth of a
second: the givar are played in worker processes, which are terminated
(``simulate(stop=…)``), and the page says what was done.

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
>>> lab = VariantLab(givar=3, bot="random")
>>> lab.mode.value = "games"
>>> lab.run()
>>> [sim.rules.game for sim in lab.simulations], lab.progress.value
(['krypkasino', 'kasino', 'kasino'], 9)
"""

from __future__ import annotations

import contextvars
import html
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ..bots import BOT_LEVELS, BotError, check_bot_rules
from ..classroom.session import current
from ..engine.game import Giv
from ..engine.rules import Rules
from ..i18n import N_, _
from ..i18n.numbers import number, percent, signed
from ..play.limits import Cancelled, JobCaps, JobTooBig
from ..play.simulate import Simulation, simulate
from ..views.plots import compare_simulations, figure_png, no_plots_message, png_img_html
from ._ui import button, level_options, message_html
from .inputs import Barrier
from .rules_picker import RulesPicker

__all__ = ["VariantLab", "GAMES", "score_spread"]

#: the games the lab compares in its "three games" mode: (label, preset name; ``None`` is Krypkasino's defaults)
GAMES = ((N_("Krypkasino"), None), (N_("Classic Kasino"), "kasino"), (N_("Avig kasino"), "avig-kasino"))


def score_spread(sim: Simulation) -> float:
    """The mean gap per giv between the best and the worst side's score (teams added up).

    >>> from krypteach.play.simulate import simulate
    >>> sim = simulate(Rules(game="kasino"), 4, seed=1)
    >>> score_spread(sim) == sum(max(r.team_scores) - min(r.team_scores) for r in sim.results) / 4
    True
    """
    if not sim.results:
        return 0.0
    return sum(max(r.team_scores) - min(r.team_scores) for r in sim.results) / len(sim.results)


class VariantLab(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped: VBox is Any
    """Two rule pickers, a bot level, a number of givar, Run, a progress bar and the comparison."""

    def __init__(self, givar: int = 1000, bot: str = "careful", seed: int = 1, jobs: int | None = None,
                 caps: JobCaps | None = None, **kwargs: Any) -> None:
        #: the class's caps on a run (from ``krypteach serve``'s options, else the defaults)
        self.caps = caps or JobCaps.from_env()
        # processes to play on (None: the caps', else every core); the results are the same for any number
        self.jobs = jobs if jobs is not None else self.caps.jobs
        self._cancel = threading.Event()
        #: the time in seconds the run's cap is measured by (a fake clock in tests)
        self.clock: Callable[[], float] = time.monotonic
        self._worker: threading.Thread | None = None
        self.picker_a = RulesPicker()
        self.picker_b = RulesPicker()
        levels = list(BOT_LEVELS)
        self.bot_level = widgets.Dropdown(options=level_options(levels), value=bot if bot in levels else levels[0],
                                          description=_("Computer players (nivå)"), style={"description_width": "initial"})
        self.givar = widgets.BoundedIntText(value=min(givar, self.caps.max_givar), min=2, max=self.caps.max_givar,
                                            step=100, description=_("Givar per rule set"),
                                            style={"description_width": "initial"}, layout=widgets.Layout(width="16em"))
        self.seed = widgets.IntText(value=seed, description=_("Seed (frö)"), style={"description_width": "initial"},
                                    layout=widgets.Layout(width="12em"))
        self.run_button = button(_("Run the comparison"), icon="play", style="primary")
        self.barrier = Barrier()  # Run reads the pickers, the bot level, givar and seed as last changed
        self.run_button.on_click(lambda _: self.barrier.then(self.start))
        self.cancel_button = button(_("Cancel (avbryt)"), icon="stop", style="warning")
        self.cancel_button.layout.display = "none"
        self.cancel_button.on_click(lambda _: self.cancel())
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description=_("Progress"),
                                            layout=widgets.Layout(width="40em"))
        self.status = widgets.HTML("")
        # hidden until there is a picture (an empty image shows a broken-image icon)
        self.image = widgets.HTML("", layout=widgets.Layout(max_width="100%", display="none"))
        self.png = b""  # the comparison's picture (PNG), also shown in ``image`` with its text alternative
        self.table = widgets.HTML("")
        self.simulations: list[Simulation] = []

        def col(title: str, picker: RulesPicker) -> widgets.VBox:
            return widgets.VBox([widgets.HTML(f"<h4>{title}</h4>"), picker],
                                layout=widgets.Layout(border="1px solid #ccc", padding="6px", margin="4px"))

        #: what Run compares: the rule sets A and B, or the three games (:data:`GAMES`)
        self.mode = widgets.ToggleButtons(options=[(_("Rule sets A and B"), "rule-sets"),
                                                   (_("The three games"), "games")],
                                          value="rule-sets", description=_("Compare"),
                                          tooltips=[_("The two rule sets you choose below"),
                                                    _("Krypkasino, classic Kasino and avig kasino, each with its own rules")],
                                          # each button as wide as its words ("Regeluppsättning A och B" was cut off)
                                          style={"description_width": "initial", "button_width": "auto"})
        self.pickers = widgets.HBox([col(_("Rule set A (regler A)"), self.picker_a),
                                     col(_("Rule set B (regler B)"), self.picker_b)],
                                    layout=widgets.Layout(flex_flow="row wrap"))
        self.games_note = widgets.HTML(_("<p>Run plays <b>Krypkasino</b>, <b>classic Kasino</b> (with builds; the "
                                         "highest score wins) and <b>avig kasino</b> (Kasino the other way round: "
                                         "the lowest score wins) on the same shuffles.</p>"),
                                       layout=widgets.Layout(display="none"))
        self.mode.observe(lambda _change: self._show_mode(), names="value")
        super().__init__([
            self.mode, self.pickers, self.games_note,
            widgets.HBox([self.bot_level, self.givar, self.seed]),
            widgets.HBox([self.run_button, self.cancel_button, self.progress]),
            self.status, self.table, self.image, self.barrier,
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
        # the thread runs in this context: the page's language (krypteach.i18n.use_language) goes with it
        self._worker = threading.Thread(target=contextvars.copy_context().run, args=(self.run,),
                                        name="krypteach-variant-lab", daemon=True)
        self._worker.start()

    def cancel(self) -> None:
        """Stop the run now, also in the middle of a giv (what Cancel does)."""
        self._cancel.set()

    def _run_ended(self) -> None:
        self.run_button.disabled = False
        self.cancel_button.layout.display = "none"

    def _show_mode(self) -> None:
        games = self.mode.value == "games"
        self.pickers.layout.display = "none" if games else ""
        self.games_note.layout.display = "" if games else "none"

    def rule_sets(self) -> list[tuple[str, Rules]]:
        """What Run plays: ``(label, rules)`` for rule sets A and B, or for the three games."""
        if self.mode.value == "games":
            return [(_(label), Rules() if name is None else Rules.preset(name)) for label, name in GAMES]
        return [("A", self.picker_a.rules), ("B", self.picker_b.rules)]

    def run(self) -> None:
        """Simulate the rule sets (same seed, so all see the same shuffles) and show the comparison."""
        games = self.mode.value == "games"
        if not games:
            for p in (self.picker_a, self.picker_b):
                if p.error:
                    self.status.value = message_html("error", _("Fix the rules first: {error}").format(error=p.error))
                    return
        chosen = self.rule_sets()
        labels, rule_sets = [label for label, _r in chosen], [r for _label, r in chosen]
        n, level = self.givar.value, self.bot_level.value
        note = ""
        try:
            if level not in BOT_LEVELS:
                raise JobTooBig(_("{level} is not a computer player here: choose one of {levels}").format(
                    level=repr(level), levels=", ".join(BOT_LEVELS)))
            for rules in rule_sets:
                try:
                    check_bot_rules(level, rules)
                except BotError:
                    if not games:
                        raise JobTooBig(_("the {level} computer players cannot play classic Kasino yet: "
                                          "choose random").format(level=level)) from None
                    note = " " + _("The {level} computer players cannot play classic Kasino yet, so random ones "
                                   "played all three games.").format(level=level)
                    level = "random"
                    break
            self.caps.check(n, level, rule_sets=len(rule_sets))
        except JobTooBig as e:
            self.status.value = message_html("error", _("Too much for one run: {reason}.").format(reason=e))
            return
        total = len(rule_sets) * n
        self.progress.max = total
        self.progress.value = 0
        self.run_button.disabled = True
        self.cancel_button.layout.display = ""
        self.status.value = message_html("info", _("Playing {total} givar with {level} computer players…").format(
            total=total, level=level))
        sims = []
        stop = self.caps.deadline(self._cancel.is_set, self.clock)

        def tick(_giv: Giv) -> None:
            self.progress.value += 1
            stop()

        try:
            for rules in rule_sets:
                bots = [level] * rules.players
                sims.append(simulate(rules, n, seed=self.seed.value, bots=bots, on_giv=tick, jobs=self.jobs,
                                     stop=stop))
        except Cancelled as e:
            self._run_ended()  # the button goes before the message comes: no Cancel beside "cancelled"
            # i18n: {why} is "cancelled" or "stopped at the time cap (1 minute)"
            self.status.value = message_html(
                "info", _("The run was {why} after {done} of {total} givar; the givar being played were stopped "
                          "in the middle. No comparison: choose fewer givar or shorter hands to finish "
                          "sooner.").format(why=e, done=number(self.progress.value), total=number(total)))
            return
        except Exception as e:  # in the thread nobody else would see it
            self._run_ended()
            self.status.value = message_html("error", _("The run failed: {error}").format(error=e))
            return
        finally:
            self._run_ended()
        self.simulations = sims
        no_plots = ""
        try:
            self.png = figure_png(compare_simulations(sims, labels))
            alt = (_("The three games compared: scores per seat, tabbar per giv, the dealer's wins and negative "
                     "scores (the table below has the same numbers)") if games else
                   _("The two rule sets compared: scores per seat, tabbar per giv, the dealer's wins and negative "
                     "scores (the table below has the same numbers)"))
            self.image.value = png_img_html(self.png, alt, "kt-lab-figure")
            self.image.layout.display = ""
        except ImportError as e:  # no matplotlib (the offline static site): the table still tells
            self.image.layout.display = "none"
            no_plots = " " + no_plots_message(e)
        self.table.value = self._table(sims, labels, games)
        if games:
            done = _("Done: {n} givar for each game. In Krypkasino and avig kasino the lowest score wins, in classic "
                     "Kasino the highest (so the plot's “lower is better” holds for two of the three).").format(n=n)
        else:
            done = _("Done: {n} givar for each rule set. Lower scores are better (misère).").format(n=n)
            done += " " + self.verdict()
        self.status.value = message_html("ok", done + note + no_plots)
        # the learner's progress: a run made (neither right nor wrong), what it compared and found
        current().record("lab-run", "lab", answer=" / ".join(r.describe() for r in rule_sets)[:200],
                         expected=(self.verdict() if not games else _("the three games"))[:200])

    def verdict(self) -> str:
        """Is the difference in tabbar per giv between A and B real, or may it be chance? In
        words, from :meth:`~krypteach.play.simulate.Simulation.tabbar_difference` (lesson 09's
        example reads its run so)."""
        if len(self.simulations) != 2:
            return ""
        a, b = self.simulations
        diff, noise = a.tabbar_difference(b)
        values = {"a": number(a.tabbar_per_giv(), 2), "b": number(b.tabbar_per_giv(), 2),
                  "noise": number(noise, 2) if noise != float("inf") else "∞"}
        if abs(diff) > noise:
            return _("Tabbar per giv went from {a} (A) to {b} (B): more than the noise of this run (±{noise}), "
                     "so it is a real effect of the rules.").format(**values)
        return _("Tabbar per giv went from {a} (A) to {b} (B): within the noise of this run (±{noise}), so it may "
                 "be chance. Run more givar to tell.").format(**values)

    @staticmethod
    def _table(sims: list[Simulation], labels: list[str] | None = None, games: bool = False) -> str:
        labels = labels or list("AB")
        rows = []
        for label, sim in zip(labels, sims):
            means = "; ".join(signed(m, 1) for m in sim.mean_scores())  # "; ": Swedish numbers have commas
            extra = ""
            if games:
                wins = _("lowest") if sim.rules.lowest_wins else _("highest")
                extra = f"<td>{html.escape(wins)}</td><td>{number(score_spread(sim), 1)}</td>"
            rows.append(
                f"<tr><td><b>{html.escape(label)}</b></td><td>{html.escape(sim.rules.describe())}</td>{extra}"
                f"<td>{means}</td>"
                f"<td>{number(sim.tabbar_per_giv(), 2)}</td><td>{percent(sim.dealer_win_share(), 1)}</td>"
                f"<td>{percent(sim.negative_share(), 1)}</td></tr>"
            )
        names = [_("Rules"), *([_("Which score wins"), _("Spread per giv (best − worst side)")] if games else []),
                 _("Mean score per seat"), _("Tabbar per giv"), _("Dealer's seat wins"), _("Negative score in giv")]
        head = "<tr><th></th>" + "".join(f"<th>{html.escape(name, quote=False)}</th>" for name in names) + "</tr>"
        style = ("<style>.kt-lab-table td,.kt-lab-table th{padding:3px 12px;text-align:left;"
                 "border-bottom:1px solid #ddd}</style>")
        return f'{style}<table class="kt-lab-table" style="border-collapse:collapse">{head}{"".join(rows)}</table>'
