"""The variant lab: simulation statistics, the comparison plot and the widget."""

from krypteach import Rules
from krypteach.views.plots import compare_simulations, figure_png
from krypteach.play.simulate import simulate
from krypteach.widgets import VariantLab


def test_simulation_statistics_are_consistent():
    sim = simulate(Rules(players=3), 12, seed=3)
    assert len(sim.results) == 12 and sim.dealers == [i % 3 for i in range(12)]
    by_seat = sim.scores_by_seat()
    assert [len(s) for s in by_seat] == [12, 12, 12]
    wins = sum(1 for d, w in zip(sim.dealers, sim.winners()) if d in w)
    assert sim.dealer_win_share() == wins / 12
    assert sim.negative_share() == sum(min(r.scores) < 0 for r in sim.results) / 12
    assert sim.tabbar_counts() == [sum(r.tabbar) for r in sim.results]


def test_team_play_counts_the_dealers_team():
    sim = simulate(Rules(players=4, teams="pairs"), 8, seed=2)
    for d, r in zip(sim.dealers, sim.results):
        assert r.winners == tuple(t for t, s in enumerate(r.team_scores) if s == min(r.team_scores))
    assert 0 <= sim.dealer_win_share() <= 1


def test_comparison_figure_has_four_panels():
    a = simulate(Rules(), 6, seed=1)
    b = simulate(Rules(table_next=0), 6, seed=1)
    fig = compare_simulations([a, b], ["A", "B"])
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["Score per giv, by seat (lower is better)", "Tabbar per giv",
                      "Dealer's seat wins the giv", "Giv ends with a negative score"]
    assert figure_png(fig).startswith(b"\x89PNG")


def test_lab_runs_two_rule_sets_with_a_progress_bar():
    lab = VariantLab(givar=5, bot="random")
    lab.picker_b.choose_preset("table-grows-by-creeping")
    lab.run()
    a, b = lab.simulations
    assert a.rules == Rules() and b.rules.table_next == 0
    assert lab.progress.value == lab.progress.max == 10
    assert bytes(lab.image.value).startswith(b"\x89PNG")
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
