"""Link.follow: the one long poll of a game page's table and lobby and of the board's panel."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from krypteach.classroom.live import Link, LiveError


def run_in_thread(coroutine):
    """Its result, run in a thread of its own (a browser test's Playwright holds the main thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class Scripted(Link):
    """A Link whose polls answer from a script: a dict is an answer, an exception is raised."""

    def __init__(self, script: list) -> None:
        super().__init__("http://127.0.0.1:9/krypteach", "token")
        self.script, self.asked = list(script), []

    async def poll(self, path: str, **query):
        self.asked.append((path, dict(query)))
        step = self.script.pop(0)
        if isinstance(step, BaseException):
            raise step
        return step


def test_each_answer_is_handed_on_a_failure_is_asked_again_and_a_refusal_ends_it(caplog):
    link = Scripted([{"v": 1}, LiveError("the server is away", 0), {"v": 2}, {"bad": True}, {"v": 3},
                     LiveError("no such table", 404), {"v": 99}])
    seen: list[dict] = []
    since = [0]

    def answer(view: dict) -> None:
        if "bad" in view:
            raise KeyError("a bug in the page")  # logged; the poll goes on
        seen.append(view)
        since[0] = view["v"]

    with caplog.at_level(logging.INFO, logger="krypteach.classroom.live"):
        refused = run_in_thread(link.follow(lambda: ("tables/ABCD", {"since": since[0]}), answer, what="table",
                                            retry=0))
    assert seen == [{"v": 1}, {"v": 2}, {"v": 3}]
    assert isinstance(refused, LiveError) and refused.status == 404 and link.script == [{"v": 99}]
    assert [q["since"] for _p, q in link.asked] == [0, 1, 1, 2, 2, 3]  # the query is read anew for each poll
    assert "a bug in the page" in caplog.text and "table refused: no such table" in caplog.text


def test_it_ends_with_none_once_the_page_no_longer_wants_it_and_a_403_ends_it_too():
    link = Scripted([{"v": 1}, {"v": 2}, {"v": 3}])
    seen: list[dict] = []
    assert run_in_thread(link.follow(lambda: ("board", {}), seen.append, going=lambda: len(seen) < 2,
                                     retry=0)) is None
    assert seen == [{"v": 1}, {"v": 2}] and link.script == [{"v": 3}]
    refused = run_in_thread(Scripted([LiveError("not yours", 403)]).follow(lambda: ("board", {}), seen.append))
    assert refused is not None and refused.status == 403


def test_a_cancelled_wait_is_not_swallowed():
    async def main() -> bool:
        link = Scripted([])

        async def never(path: str, **query):
            await asyncio.sleep(3600)

        link.poll = never  # type: ignore[method-assign]
        task = asyncio.ensure_future(link.follow(lambda: ("board", {}), lambda view: None))
        await asyncio.sleep(0.01)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return True
        return False

    assert run_in_thread(main())
