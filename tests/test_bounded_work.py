"""Bounded work (issue 9, point 4): every value a page can send is checked in Python,
and the long jobs a page starts have caps, can be cancelled and keep the page responsive.

The forged messages go through the same entry a real message from the page takes
(``Widget._handle_msg``, behind :func:`krypteach.widgets.guard.install`)."""

from __future__ import annotations

import threading
import time

import ipywidgets as widgets
import pytest

from krypteach.cli import build_parser, job_caps_env
from krypteach.play.limits import Cancelled, JobCaps, JobTooBig
from krypteach.widgets import CardRowWidget, GameTable, VariantLab
from krypteach.widgets.guard import MAX_TEXT, allowed_update, front_end_update


def test_a_raised_max_from_the_page_is_dropped_and_the_value_stays_within_the_limits():
    lab = VariantLab(givar=100, caps=JobCaps(max_givar=500))
    front_end_update(lab.givar, {"max": 10**9})
    front_end_update(lab.givar, {"value": 10**9})
    assert lab.givar.max == 500 and lab.givar.value == 500


def test_structure_traits_cannot_be_set_from_the_page():
    row = CardRowWidget(["9S", "2C"], kind="table")
    front_end_update(row, {"cards": ["AS"] * 20_000})
    front_end_update(row, {"selectable": False})
    front_end_update(row, {"width": 30})
    assert row.cards == ["9S", "2C"] and row.width == 72 and row.selectable
    front_end_update(row, {"selected": [1]})  # what a click sends
    assert row.selected == [1]


def test_a_huge_selection_or_text_is_refused_whole():
    row = CardRowWidget(["9S", "2C"], kind="table")
    front_end_update(row, {"selected": list(range(20_000))})
    assert row.selected == []
    box = widgets.Text("")
    front_end_update(box, {"value": "x" * (MAX_TEXT + 1)})
    assert box.value == ""
    front_end_update(box, {"value": "Ann"})
    assert box.value == "Ann"


def test_only_plain_small_values_pass():
    kept, dropped = allowed_update({"value": 2**60, "index": 1, "selected": [[1, 2]], "layout": "IPY_MODEL_x"})
    assert kept == {"index": 1} and sorted(dropped) == ["layout", "selected", "value"]


def test_the_game_table_ignores_a_forged_hand():
    t = GameTable(seed=3)
    hand = list(t.hand_row.cards)
    front_end_update(t.hand_row, {"cards": ["10D"] * 500})
    assert t.hand_row.cards == hand


def test_the_lab_refuses_a_run_beyond_the_caps_before_playing():
    lab = VariantLab(givar=20_000, bot="expert", caps=JobCaps(max_givar=20_000, max_seconds=120))
    lab.run()
    assert lab.simulations == [] and lab.progress.value == 0
    assert "at most 100 givar" in lab.status.value and "hours" in lab.status.value


def test_caps_come_from_serve_options_and_are_checked():
    args = build_parser().parse_args(["serve", "--max-givar", "300", "--max-job-seconds", "30"])
    env = job_caps_env(args.max_givar, args.max_job_seconds)
    caps = JobCaps.from_env(env)
    assert caps == JobCaps(max_givar=300, max_seconds=30.0, jobs=1)
    with pytest.raises(JobTooBig, match="at most 300 givar"):
        caps.check(301, "random")
    with pytest.raises(JobTooBig, match="at most 25 givar"):
        caps.check(100, "expert", rule_sets=2)
    caps.check(300, "careful")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--max-givar", "0"])


def test_the_deadline_stops_a_job_at_the_time_cap_or_when_cancelled():
    flag = threading.Event()
    check = JobCaps(max_seconds=60).deadline(flag.is_set)
    check()  # neither yet
    flag.set()
    with pytest.raises(Cancelled, match="cancelled"):
        check()
    late = JobCaps(max_seconds=0.01).deadline()
    time.sleep(0.02)
    with pytest.raises(Cancelled, match="time cap"):
        late()


def test_cancel_stops_a_run_between_givar_and_the_kernel_stays_free():
    lab = VariantLab(givar=2000, bot="careful", jobs=1)
    lab.start()
    deadline = time.monotonic() + 30
    while lab.progress.value < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert lab.run_button.disabled and lab.cancel_button.layout.display == ""
    # the page stays responsive meanwhile: this thread (the kernel's) handles other widgets
    row = CardRowWidget(["9S", "2C"], kind="table")
    front_end_update(row, {"selected": [0]})
    assert row.selected == [0]
    # what the page shows at the moment the message comes (each change is its own message to the page)
    seen_with_message = []
    lab.status.observe(lambda change: seen_with_message.append(
        (lab.cancel_button.layout.display, lab.run_button.disabled)), "value")
    lab.cancel()
    lab._worker.join(10)
    assert seen_with_message == [("none", False)]  # no Cancel button left beside "cancelled"

    assert not lab._worker.is_alive()
    assert "cancelled after" in lab.status.value and lab.progress.value < 4000
    assert lab.simulations == [] and not lab.run_button.disabled and lab.cancel_button.layout.display == "none"
