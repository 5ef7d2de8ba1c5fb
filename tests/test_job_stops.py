"""A job a page starts is bounded by time inside a giv as well as between givar, and
Cancel stops it in the middle of a giv (issue 20, finding 2: two givar of 26 cards in each
hand with expert players ran on at 78 s with a 20 s cap; Cancel changed nothing).
The "within a second" figure is measured in benchmarks/job_stop.py, not here."""

from __future__ import annotations

import multiprocessing
import threading
import time
from dataclasses import dataclass

import pytest

from krypteach import Rules
from krypteach.bots import make_bot
from krypteach.i18n import use_language
from krypteach.play.limits import Cancelled, JobCaps
from krypteach.play.simulate import play_giv, simulate
from krypteach.widgets import VariantLab


class CountingBot:
    """A random bot that counts the moves it is asked for."""

    stateless = False

    def __init__(self, seed: int) -> None:
        self.bot = make_bot("random", seed=seed)
        self.moves = 0

    def choose(self, obs):
        self.moves += 1
        return self.bot.choose(obs)


class FakeClock:
    """A clock that moves on one second every time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        now = self.now
        self.now += 1.0
        return now


@dataclass(frozen=True)
class NoEstimate(JobCaps):
    """Caps whose estimate lets every job start (the 26-card hands passed the real one)."""

    def estimate(self, givar: int, bot: str, rule_sets: int = 1) -> float:
        return 0.0


def test_the_time_cap_stops_a_giv_after_exactly_the_moves_its_time_allows():
    bots = [CountingBot(1), CountingBot(2)]
    stop = JobCaps(max_seconds=5).deadline(clock=FakeClock())  # read once at the start (0), then 1, 2, …
    with pytest.raises(Cancelled, match=r"stopped at the time cap \(5 seconds\)"):
        play_giv(Rules(hand_size=26), bots, seed=3, check=stop)
    assert sum(b.moves for b in bots) == 5  # the moves at 1…5 s; the check at 6 s stops the giv


def test_cancel_is_honoured_between_two_moves_of_one_giv():
    bots = [CountingBot(1), CountingBot(2)]
    flag = threading.Event()

    def cancelled() -> bool:
        if sum(b.moves for b in bots) == 3:
            flag.set()
        return flag.is_set()

    with pytest.raises(Cancelled, match="cancelled"):
        play_giv(Rules(hand_size=26), bots, seed=3, check=JobCaps().deadline(cancelled))
    assert sum(b.moves for b in bots) == 3


def test_random_bots_check_the_cap_before_every_move():
    clock = FakeClock()
    with pytest.raises(Cancelled):
        simulate(Rules(hand_size=26), 2, seed=1, stop=JobCaps(max_seconds=7).deadline(clock=clock))
    assert clock.now == 9  # the start, 7 moves, and the check that stopped them: all inside the first giv


def _no_workers_left() -> bool:
    """Every worker process is ended (one just terminated is reaped within a moment)."""
    for _ in range(100):
        if not multiprocessing.active_children():
            return True
        time.sleep(0.05)
    return False


def _long_lab(seconds: float) -> VariantLab:
    lab = VariantLab(givar=2, bot="expert", caps=NoEstimate(max_seconds=seconds, jobs=1))
    for picker in (lab.picker_a, lab.picker_b):
        picker.controls["hand_size"].value = 26  # one move of the expert bot here takes over 10 s
    assert not lab.picker_a.error
    return lab


def test_the_lab_stops_one_long_giv_at_the_time_cap_and_says_so():
    lab = _long_lab(0.5)
    lab.run()
    assert lab.simulations == [] and lab.progress.value == 0
    assert "The run was stopped at the time cap" in lab.status.value
    assert "after 0 of 4 givar" in lab.status.value and "stopped in the middle" in lab.status.value
    assert not lab.run_button.disabled and lab.cancel_button.layout.display == "none"
    assert _no_workers_left()  # the worker process was ended


def test_cancel_stops_the_lab_in_the_middle_of_a_giv_in_swedish():
    lab = _long_lab(600)
    with use_language("sv"):
        lab.start()
        while not multiprocessing.active_children():  # the giv is being played in its worker
            time.sleep(0.05)
        lab.cancel()
        lab._worker.join(timeout=60)  # a liveness bound only; the time is measured in benchmarks/job_stop.py
    assert not lab._worker.is_alive()
    assert lab.progress.value == 0 and "stoppades (avbrutet) efter 0 av 4 givar" in lab.status.value and "The run" not in lab.status.value
    assert _no_workers_left()
