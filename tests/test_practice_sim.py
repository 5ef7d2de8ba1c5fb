"""The practice simulation's own parts (benchmarks/practice_sim.py; its figures are in
docs/practice.md): the oracle's fit, the bound on what any choice of puzzles can find, and the
what-if of puzzles with one theme each. Nothing here is timed."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "practice_sim.py"


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("practice_sim_under_test", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "practice_sim_under_test", module)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "THEMES", ("a", "b", "c", "d"))
    return module


def test_split_pairs_gives_each_puzzle_one_of_its_themes(sim: ModuleType) -> None:
    tuples = [("a", "b"), ("c",)]
    items, _truth, _start = sim.make_puzzles(random.Random(3), 200, 250.0, tuples, split=True)
    assert {len(item.themes) for item in items} == {1}
    counts = {t: sum(item.themes == (t,) for item in items) for t in "abc"}
    assert counts["a"] > 40 and counts["b"] > 40 and counts["c"] > 70  # the pair's half shared between a and b
    items, _truth, _start = sim.make_puzzles(random.Random(3), 200, 250.0, tuples)
    assert {item.themes for item in items} == {("a", "b"), ("c",)}


def test_the_oracles_fit_of_answers_against_known_difficulties(sim: ModuleType) -> None:
    # 10 missed puzzles of a at 1500 and 10 solved of b at 1500 (prior N(1500, 200²)): a about 318 below,
    # b as far above; c and d never asked stay at the centre
    rated = [(("a",), False, f"x{i}") for i in range(10)] + [(("b",), True, f"y{i}") for i in range(10)]
    truth = {pid: 1500.0 for _t, _s, pid in rated}
    s = sim.map_themes(rated, truth, 1500.0)
    assert s["c"] == s["d"] == 1500.0
    assert s["a"] == pytest.approx(1181.9, abs=0.5)
    assert s["b"] == pytest.approx(1818.1, abs=0.5)
    # a pair's answer is of the mean of its themes: 10 missed pairs of a and b alone move both alike;
    # with 10 solved puzzles of a alone besides, the misses are b's (told apart only by that difference)
    pairs = [(("a", "b"), False, f"p{i}") for i in range(10)]
    truth = {pid: 1500.0 for _t, _s, pid in pairs} | {f"q{i}": 1500.0 for i in range(10)}
    s = sim.map_themes(pairs, truth, 1500.0)
    assert s["a"] == pytest.approx(s["b"]) == pytest.approx(1264.3, abs=0.5)
    s = sim.map_themes(pairs + [(("a",), True, f"q{i}") for i in range(10)], truth, 1500.0)
    assert s["a"] == pytest.approx(1685.9, abs=0.5) and s["b"] == pytest.approx(1097.9, abs=0.5)


def test_the_bound_cannot_find_a_theme_that_never_comes_alone(sim: ModuleType) -> None:
    # b is the weakest, but only ever asked with a: the pair looks like its mean (1300), above c and d
    learner = sim.SimLearner({"a": 1500.0, "b": 1100.0, "c": 1200.0, "d": 1250.0})
    paired = [("a", "b"), ("c",), ("d",)]
    assert sim.allocation_ceiling(random.Random(1), [learner], paired, 400, "uniform", 0.69) == 0.0
    alone = [("a",), ("b",), ("c",), ("d",)]
    assert sim.allocation_ceiling(random.Random(1), [learner], alone, 400, "uniform", 0.69) == 1.0
    with pytest.raises(ValueError, match="unknown policy"):
        sim.allocation_ceiling(random.Random(1), [learner], alone, 5, "greedy", 0.69)


def test_add_alone_adds_single_theme_puzzles_and_refuses_a_theme_the_trainer_has_not(sim: ModuleType) -> None:
    assert sim.add_alone("a=2, c=1", ("a", "b", "c")) == [("a",), ("a",), ("c",)]
    assert sim.add_alone("", ("a",)) == []
    with pytest.raises(ValueError, match=r"'z' is not a theme of this trainer \(a, b\)"):
        sim.add_alone("z=3", ("a", "b"))
    with pytest.raises(ValueError, match="needs a whole number of puzzles, as a=10"):
        sim.add_alone("a=many", ("a", "b"))


def test_the_product_pool_is_what_the_trainer_chooses_from(sim: ModuleType) -> None:
    """The shipped puzzles' themes and, of each kind and level the trainer makes, as many as it
    offers at a time, with the themes it offers them by."""
    from krypteach.teaching.puzzles import load_puzzles
    from krypteach.teaching.puzzles.fresh import FRESH, offered_themes, themes_of
    from krypteach.widgets.practice_widget import _AHEAD
    pool = sim.product_themes("krypkasino")
    shipped = load_puzzles(game="krypkasino")
    made = [(k, d) for preset, k, d in FRESH if preset == "krypkasino"]
    assert len(pool) == len(shipped) + _AHEAD * len(made)
    kladda = sum(themes_of(p) == ("endgame", "kladda") for p in shipped)
    assert pool.count(("endgame", "kladda")) == kladda + _AHEAD * sum(
        offered_themes(k, d) == ("endgame", "kladda") for k, d in made) > kladda


def test_a_simulated_learners_themes_are_fitted_to_all_their_answers(sim: ModuleType) -> None:
    from krypteach.teaching.practice import fit_themes
    rng = random.Random(2)
    learners = sim.make_learners(rng, 1)
    items, truth, _start = sim.make_puzzles(rng, 40, 100.0)
    trainer = sim.Trainer(items, truth, rng)
    lr = learners[0]
    for _ in range(12):
        trainer.step(lr, queue=False)
    now = {item.id: item.rating for item in trainer.items}
    fitted = fit_themes([(themes, float(ok), now[pid]) for themes, ok, pid in lr.rated], lr.overall)
    assert lr.themes.keys() == fitted.keys()
    for t in fitted:
        assert lr.themes[t].rating == pytest.approx(fitted[t].rating, abs=2.0)
