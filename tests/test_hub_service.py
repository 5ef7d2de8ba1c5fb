"""The live class's tables as JupyterHub's service (issue 24), without a hub: the hub's answer to
"whose token is this" is a stand-in here (tests/test_jupyterhub.py runs the real hub). A kernel's
:class:`~krypteach.classroom.live.Link` sends its server's hub token, the service sits the hub's
user down under their id in the progress store, and a request the hub does not vouch for is
refused in one sentence with nothing changed."""

from __future__ import annotations

import asyncio

import pytest

from krypteach.classroom.live import ENV_LIVE, Link, LiveError
from krypteach.classroom.session import Session
from krypteach.classroom.store import ProgressStore
from krypteach.engine.rules import Rules
from krypteach.serve.hub_service import HubLearners, hub_app
from krypteach.serve.tables import TableRoom

from .conftest import _free_port
from .serve_helpers import run_in_thread

#: the hub's users by token; a service's token is no learner's
USERS = {"tok-ann": {"kind": "user", "name": "ann"}, "tok-bo": {"kind": "user", "name": "bo"},
         "tok-culler": {"kind": "service", "name": "jupyterhub-idle-culler-service"}}


class FakeHubAuth:
    """What :class:`jupyterhub.services.auth.HubAuth` answers: the user model of a token, or None."""

    def __init__(self, down: bool = False) -> None:
        self.down, self.asked = down, []

    async def _user(self, token: str):
        self.asked.append(token)
        if self.down:
            raise ConnectionError("the hub is down")
        return USERS.get(token)

    def user_for_token(self, token, use_cache=True, session_id="", *, sync=True):
        assert not sync, "the service must not block its loop on the hub"
        return self._user(token)


def _link(port: int, token: str) -> Link:
    if not token:  # a request with no Authorization header at all
        return Link(f"http://127.0.0.1:{port}/krypteach", "")
    link = Link.for_session(Session(), {ENV_LIVE: f"http://127.0.0.1:{port}/krypteach",
                                        "JUPYTERHUB_API_TOKEN": token, "JUPYTERHUB_USER": "whoever"})
    assert link is not None
    return link


def _run(auth: FakeHubAuth, store: ProgressStore | None, test) -> None:
    async def main() -> None:
        room = TableRoom(Rules(), bot="random", bot_pause=0.0)
        port = _free_port()
        server = hub_app(room, HubLearners(auth, store, "9b"), "/services/krypteach/").listen(port, "127.0.0.1")
        loop = asyncio.get_running_loop()

        def call(token: str, path: str, data: dict):  # the kernel's Link is synchronous: off this loop
            return loop.run_in_executor(None, _link(port, token).post, path, data)

        try:
            await test(room, call)
        finally:
            server.stop()
            room.stop()

    run_in_thread(main)


def test_two_hub_users_sit_at_one_table_as_the_learners_of_the_progress_store(tmp_path):
    store = ProgressStore(tmp_path / "progress.sqlite3")
    ids = {name: store.join("9B", name) for name in ("bo", "ann")}  # bo came first: ids differ from the order below
    auth = FakeHubAuth()

    async def test(room, call):
        opened = await call("tok-ann", "tables", {"open": 2})
        code = opened["code"]
        joined = await call("tok-bo", "tables", {"join": code})
        assert joined["view"]["names"] == ["ann", "bo"]
        assert room.learners[code] == {0: ids["ann"], 1: ids["bo"]}
        # a page opened again comes back to its learner's seat, by the hub's word alone
        mine = await call("tok-bo", "tables", {"mine": True})
        assert (mine["code"], mine["seat_token"]) == (code, joined["seat_token"])

    _run(auth, store, test)
    assert set(auth.asked) == {"tok-ann", "tok-bo"}
    assert [n for _, n in store.learners("9B")] == ["ann", "bo"]  # nobody new in the class
    store.close()


@pytest.mark.parametrize("token", ["", "tok-nobody", "tok-culler"])
def test_a_token_the_hub_does_not_vouch_for_a_learner_sits_nobody_down(token):
    async def test(room, call):
        with pytest.raises(LiveError) as refused:
            await call(token, "tables", {"open": 2})
        assert refused.value.status == 403 and str(refused.value).startswith("sign in first")
        assert room.tables == {}

    _run(FakeHubAuth(), None, test)


def test_when_the_hub_does_not_answer_the_request_is_refused_and_the_service_goes_on():
    auth = FakeHubAuth(down=True)

    async def test(room, call):
        with pytest.raises(LiveError) as refused:
            await call("tok-ann", "tables", {"open": 2})
        assert refused.value.status == 403 and room.tables == {}
        auth.down = False  # the hub is back: the same service answers
        opened = await call("tok-ann", "tables", {"open": 3})
        assert opened["view"]["names"] == ["ann", None, None]

    _run(auth, None, test)
