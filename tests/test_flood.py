"""One page flooding widget messages cannot slow the class (issue 20, finding 8): the cap
on a page's messages, checked exactly with a fake clock (the click latency during a flood
is measured in benchmarks/flood.py, not here)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json

import pytest
from jupyter_client.session import Session

from krypteach.serve import flood
from krypteach.serve.flood import NOTICE_KEY, MessageRate, rate_limited


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now



def _run(coroutine):
    """asyncio.run in a thread of its own (a browser test earlier in the run may leave a loop running here)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()

def test_the_message_after_the_burst_is_refused_until_time_refills_it():
    clock = Clock()
    rate = MessageRate(per_second=10, burst=20, clock=clock)
    assert all(rate.allow() for _ in range(20))
    assert not rate.allow() and rate.dropped == 1       # the 21st at once
    clock.now += 0.099
    assert not rate.allow()                             # not yet a whole message's time
    clock.now += 0.001
    assert rate.allow() and not rate.allow()            # a tenth of a second: one more
    clock.now += 10
    assert sum(rate.allow() for _ in range(100)) == 20  # a long pause refills the burst, no more
    assert rate.dropped == 83  # 1 + 1 + 1 + 80


def test_a_steady_rate_at_the_cap_passes_whole():
    clock = Clock()
    rate = MessageRate(per_second=40, burst=1, clock=clock)
    passed = 0
    for _ in range(400):  # 40 a second for 10 s
        passed += rate.allow()
        clock.now += 1 / 40
    assert passed == 400 and rate.dropped == 0


class FakeSettings:
    def request_language(self, handler):
        return "sv"


class FakeConnection:
    subprotocol = None

    def __init__(self) -> None:
        self.session = Session()


class FakeHandler:
    """What the limiter needs of Voilà's kernel WebSocket handler."""

    def __init__(self) -> None:
        self.settings = {"krypteach": FakeSettings()}
        self.connection = FakeConnection()
        self.passed: list[str] = []
        self.written: list[str] = []

    def open(self, kernel_id):
        return None

    def on_message(self, message):
        self.passed.append(message)

    def write_message(self, message, binary=False):
        self.written.append(message)

    def on_close(self):
        return None


def test_the_page_handler_passes_n_messages_drops_the_next_and_tells_the_page_once_in_its_language(monkeypatch):
    clock = Clock()
    handler = rate_limited(FakeHandler, per_second=5, burst=5, clock=clock)()
    handler.open("k")
    held = []
    for k in range(12):
        result = handler.on_message(f"m{k}")
        if result is not None:  # refused: a coroutine that holds the socket before tornado reads on
            held.append(result)
    assert handler.passed == [f"m{k}" for k in range(5)] and len(held) == 7
    assert len(handler.written) == 1  # told once, not for every dropped message
    notice = json.loads(handler.written[0])
    assert notice["channel"] == "iopub" and notice["metadata"] == {NOTICE_KEY: True}
    assert notice["content"]["name"] == "stderr"
    assert notice["content"]["text"].startswith("Den här sidan skickade fler än 20 meddelanden i sekunden")
    waits = []

    async def fake_sleep(seconds):
        waits.append(seconds)
        clock.now += seconds

    monkeypatch.setattr(flood.asyncio, "sleep", fake_sleep)
    for coroutine in held:
        _run(coroutine)
    assert waits == [pytest.approx(0.2)] * 7  # each dropped message holds the page one message's time
    assert handler.passed == [f"m{k}" for k in range(5)]
    assert handler.kt_rate.dropped == 7
    clock.now += 0.2
    handler.on_message("later")
    assert handler.passed[-1] == "later" and len(handler.written) == 1
    handler.on_close()


def test_the_capped_handler_keeps_its_name_for_the_door():
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    capped = rate_limited(VoilaKernelWebsocketHandler)
    assert capped.__name__ == "VoilaKernelWebsocketHandler" and issubclass(capped, VoilaKernelWebsocketHandler)


def test_the_lesson_page_script_shows_the_notice():
    from pathlib import Path

    template = (Path(flood.__file__).parent / "share/jupyter/voila/templates/krypteach/index.html.j2").read_text()
    assert f'"{NOTICE_KEY}"' in template and 'box.id = "kt-flood"' in template and "role\", \"status\"" in template
