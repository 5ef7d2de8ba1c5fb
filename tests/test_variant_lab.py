"""The variant lab: simulation statistics, the comparison plot and the widget."""

from krypteach import Rules
from krypteach.play.simulate import simulate
from krypteach.views.plots import compare_simulations, figure_png
from krypteach.widgets import VariantLab


def test_simulation_statistics_are_consistent():
    sim = simulate(Rules(players=3), 12, seed=3, keep=True)
    assert len(sim.results) == 12 and sim.dealers == [i % 3 for i in range(12)]
    assert [g.dealer for g in sim.givar] == sim.dealers
    by_seat = sim.scores_by_seat()
    assert by_seat == [[g.result.scores[s] for g in sim.givar] for s in range(3)]
    # the dealer wins a giv when the dealer's score is the lowest (ties share the win)
    wins = sum(r.scores[d] == min(r.scores) for d, r in zip(sim.dealers, sim.results))
    assert sim.dealer_win_share() == wins / 12
    assert sim.negative_share() == sum(min(r.scores) < 0 for r in sim.results) / 12
    # tabbar made, counted move by move (a dubbeltabbe counts two)
    assert sim.tabbar_counts() == [sum(t.tabbe for t in g.turns) for g in sim.givar]
    assert sum(sim.tabbar_counts()) > 0


def test_team_play_counts_the_dealers_team():
    # pairs: seats 0+2 and 1+3; the dealer's team wins when its two scores add up to the lowest team score
    sim = simulate(Rules(players=4, teams="pairs"), 8, seed=2)
    wins = 0
    for dealer, r in zip(sim.dealers, sim.results):
        team = r.scores[dealer] + r.scores[(dealer + 2) % 4]
        other = r.scores[(dealer + 1) % 4] + r.scores[(dealer + 3) % 4]
        wins += team <= other
    assert sim.dealers == [0, 1, 2, 3, 0, 1, 2, 3]
    assert 0 < wins < 8  # both outcomes happen in these givar, so a wrong team would show
    assert sim.dealer_win_share() == wins / 8


def test_comparison_figure_has_four_panels():
    a = simulate(Rules(), 6, seed=1)
    b = simulate(Rules(table_next=0), 6, seed=1)
    fig = compare_simulations([a, b], ["A", "B"])
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["Score per giv, by seat\n(lower is better)", "Tabbar per giv",
                      "Dealer's seat wins the giv", "Giv ends with a negative score"]
    assert figure_png(fig).startswith(b"\x89PNG")


def test_lab_runs_two_rule_sets_with_a_progress_bar():
    lab = VariantLab(givar=5, bot="random")
    lab.picker_b.choose_preset("table-grows-by-creeping")
    lab.run()
    a, b = lab.simulations
    assert a.rules == Rules() and b.rules.table_next == 0
    assert lab.progress.value == lab.progress.max == 10
    assert lab.png.startswith(b"\x89PNG") and 'alt="The two rule sets compared' in lab.image.value
    assert "Tabbar per giv" in lab.table.value and "Done" in lab.status.value


def test_lab_refuses_invalid_rules_with_the_engines_message():
    lab = VariantLab(givar=3, bot="random")
    lab.picker_a.controls["players"].value = 6
    lab.picker_a.controls["hand_size"].value = 26   # 6 × 26 cards: more than the 104 of the double deck
    assert lab.picker_a.error
    lab.run()
    assert "Fix the rules first" in lab.status.value and lab.simulations == []


def test_image_hidden_until_there_is_a_picture():
    lab = VariantLab(givar=3, bot="random")
    assert lab.image.layout.display == "none"
    lab.run()
    assert lab.image.layout.display != "none"


def test_after_a_run_the_lab_says_whether_the_difference_is_real_or_chance_and_the_teacher_sees_it(keep_progress):
    """Issue 21: the lab said nothing on real or chance after the learner's own run (its example
    does), and no run reached the teacher's page."""
    import statistics

    from krypteach.serve.teacher import teacher_page

    store, me = keep_progress("09_variant_lab")
    lab = VariantLab(givar=60, bot="random")
    lab.picker_b.choose_preset("table-grows-by-creeping")
    lab.run()
    a, b = lab.simulations
    diff, noise = a.tabbar_difference(b)
    xs, ys = a.tabbar_counts(), b.tabbar_counts()
    assert diff == statistics.fmean(ys) - statistics.fmean(xs)
    assert abs(noise - 2 * (statistics.variance(xs) / 60 + statistics.variance(ys) / 60) ** 0.5) < 1e-12
    words = lab.verdict()
    assert words.startswith("Tabbar per giv went from ") and ("a real effect of the rules" in words) == (abs(diff) > noise)
    assert words in lab.status.value
    same = VariantLab(givar=40, bot="random")  # the same rules: the difference is nothing but chance
    same.run()
    assert "it may be chance" in same.verdict()
    rows = [(a[2], a[3], a[4], a[11]) for a in store.attempts(me)]
    assert rows[0] == ("lab-run", "lab", None, words) and len(rows) == 2
    page = teacher_page(store.overview("K7RPX"), "K7RPX", "", {})
    assert 'title="2 attempts, 0 wrong">0</td>' in page  # the lesson is begun: not "–"
