"""Plot labels are plain text, and a plot that fails never takes the teacher's page down
(issue 20, finding 9: an imported rule ``$\\frac{$`` made every load of the page a 500)."""

from __future__ import annotations

import base64

import pytest

from krypteach import Rules
from krypteach.classroom.store import ProgressStore
from krypteach.i18n import use_language
from krypteach.play.simulate import simulate
from krypteach.serve import teacher
from krypteach.serve.teacher import overview_plots, teacher_page
from krypteach.views.plots import compare_simulations, figure_png

LABELS = ["$\\frac{$", "$x$", "\n", "a\nb", "x" * 300, "$", "\\", "$$", "^_{"]
PNG = b"\x89PNG"


def _class(rules: list[str], lesson_titles: bool = True) -> ProgressStore:
    store = ProgressStore(":memory:")
    ann = store.join("K7RPX", "Ann")
    for k, rule in enumerate(rules):
        lesson = f"{k:02d}_lesson"
        store.declare_items(lesson, [("x:1", "exercise")])
        store.record(ann, lesson, "x:1", "exercise", correct=False, rule=rule)
    return store


@pytest.mark.parametrize("label", LABELS)
def test_the_teachers_plots_draw_any_rule_and_title_as_text(label):
    store = _class([label])
    plots = overview_plots(store.overview("K7RPX"), {"00_lesson": label})
    assert len(plots) == 2
    for _alt, src in plots:
        assert base64.b64decode(src.split(",", 1)[1]).startswith(PNG)
    page = teacher_page(store.overview("K7RPX"), "K7RPX", "", {"00_lesson": label})
    assert page.count("src='data:image/png;base64,") == 2


def test_all_the_bad_labels_at_once():
    store = _class(LABELS)
    titles = {f"{k:02d}_lesson": label for k, label in enumerate(LABELS)}
    assert len(overview_plots(store.overview("K7RPX"), titles)) == 2


@pytest.mark.parametrize("label", LABELS)
def test_the_comparison_plot_draws_any_label_as_text(label):
    sims = [simulate(Rules(), 3, seed=1), simulate(Rules(table_next=0), 3, seed=1)]
    assert figure_png(compare_simulations(sims, [label, "B"])).startswith(PNG)


def test_a_plot_that_fails_gives_the_page_with_a_line_in_its_language(monkeypatch, caplog):
    def broken(*_args):
        raise ValueError("matplotlib could not parse it")

    monkeypatch.setattr(teacher, "_overview_plots", broken)
    store = _class(["take-all"])
    page = teacher_page(store.overview("K7RPX"), "K7RPX", "", {})
    assert "The plots could not be drawn this time" in page and "data:image/png" not in page
    assert "Most often failed" in page  # the rest of the page is there
    assert "could not draw its plots" in caplog.text
    with use_language("sv"):
        sv = teacher_page(store.overview("K7RPX"), "K7RPX", "", {})
    assert "The plots could not" not in sv and "role='status'" in sv


@pytest.mark.parametrize("size", [1, 30])
def test_the_progress_plot_counts_whole_learners_for_a_class_of_one_and_of_thirty(size):
    """Issue 21: one learner was a full-width bar on an axis of 0.0 to 1.0."""
    from krypteach.serve.teacher import progress_figure

    store = ProgressStore(":memory:")
    store.declare_items("03_take_all", [("a", "exercise"), ("b", "exercise")])
    for k in range(size):
        me = store.join("K7RPX", f"L{k}")
        store.record(me, "03_take_all", "a", "exercise", correct=True)
        if k % 3 == 0:
            store.record(me, "03_take_all", "b", "exercise", correct=True)
    fig = progress_figure(store.overview("K7RPX"), {"03_take_all": "3 · Take all"})
    ax = fig.axes[0]
    assert ax.get_xlim() == (0, size)
    assert all(float(t).is_integer() for t in ax.get_xticks())
    all_done = len(range(0, size, 3))
    labels = [t.get_text() for t in ax.texts]
    assert str(all_done) in labels and (size - all_done == 0 or str(size - all_done) in labels)
    assert ax.get_xlabel() == f"learners (of {size} in the class)"


def test_the_labs_figure_writes_its_numbers_in_the_pages_language_and_its_long_title_in_two_lines():
    """Lesson 11 in Swedish: the axes read 0.1 … 0.8 (a decimal point) and the title "Poäng per giv
    och plats (krypkasino och avig kasino: …)" was cut off at the figure's left edge."""
    sims = [simulate(Rules(), 6, seed=1), simulate(Rules.preset("kasino"), 6, seed=1)]
    with use_language("sv"):
        fig = compare_simulations(sims, ["Krypkasino", "Kasino"])
    scores, tabbar, dealer, negative = fig.axes
    assert negative.yaxis.get_major_formatter()(0.5, 0) == "0,5"
    assert tabbar.yaxis.get_major_formatter()(0.2, 0) == "0,2"
    assert scores.yaxis.get_major_formatter()(-10.0, 0) == "−10"
    assert dealer.yaxis.get_major_formatter()(40.0, 0) == "40"
    assert scores.get_title() == "Poäng per giv och plats\n(krypkasino och avig kasino: lägre är bättre, kasino: högre)"
    assert figure_png(fig).startswith(PNG)  # (its numbers are drawn at this point, after the page's language)
    with use_language("en"):
        fig = compare_simulations(sims, ["A", "B"])
    assert fig.axes[1].yaxis.get_major_formatter()(0.25, 0) == "0.25"
