"""A cap on the messages one page may send its kernel: one page flooding widget messages
must not slow the class (issue 20, finding 8: 13,632 messages in 30 s from one page raised
another learner's click p95 from 125 ms to 3.7 s).

Every message a lesson page sends over its kernel WebSocket passes :class:`MessageRate`
first, in the server, before it is handed to the kernel: up to :data:`BURST` at once, and
:data:`PER_SECOND` a second on average after that (a token bucket). A page's real clicks
are a few messages each, so no lesson comes near it. A message beyond it is dropped here
(neither the server's ZeroMQ sockets nor the page's kernel see it), and the server reads
nothing more from that page until the time of one message has passed (backpressure: a
page that goes on flooding is read at :data:`PER_SECOND` messages a second, all dropped,
and its socket's buffers fill up on its side). The page is told once, in its language, by
a line on its output stream that the page's script shows (:data:`NOTICE_KEY`); the
server's log says how many were dropped when the page closes.

>>> now = [0.0]
>>> rate = MessageRate(per_second=2, burst=3, clock=lambda: now[0])
>>> [rate.allow() for _ in range(4)]
[True, True, True, False]
>>> now[0] = 0.5; rate.allow(), rate.allow()
(True, False)
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from ..i18n import _, use_language
from ..i18n.numbers import number

__all__ = ["BURST", "ENV_RATE", "NOTICE_KEY", "PER_SECOND", "MessageRate", "flood_notice", "rate_from_env",
           "rate_limited"]

#: messages a page may send a second, on average
PER_SECOND = 20.0
#: messages a page may send at once
BURST = 40
#: the metadata key that marks the notice for the page's script (index.html.j2)
NOTICE_KEY = "krypteach_flood"

#: the environment variable that sets :data:`PER_SECOND` for a server (``0``: no cap; for
#: benchmarks/flood.py's figure without it)
ENV_RATE = "KRYPTEACH_MESSAGE_RATE"

log = logging.getLogger("krypteach.flood")


def rate_from_env(env: dict[str, str] | None = None) -> float:
    """Messages a page may send a second: :data:`ENV_RATE` if set (``0``: no cap), else :data:`PER_SECOND`.

    >>> rate_from_env({}), rate_from_env({"KRYPTEACH_MESSAGE_RATE": "0"})
    (20.0, 0.0)
    """
    import os

    raw = (os.environ if env is None else env).get(ENV_RATE, "")
    try:
        value = float(raw) if raw else PER_SECOND
    except ValueError:
        value = PER_SECOND
    return max(0.0, value)


class MessageRate:
    """A token bucket: ``burst`` messages at once, ``per_second`` a second after that."""

    def __init__(self, per_second: float = PER_SECOND, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()
        #: messages refused so far
        self.dropped = 0
        #: whether the page has been told
        self.told = False

    def allow(self) -> bool:
        """May one more message pass now? (A refused one is counted in :attr:`dropped`.)"""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False

    def wait(self) -> float:
        """Seconds until one more message may pass."""
        return max(0.0, (1.0 - self.tokens) / self.per_second)

    def spend(self) -> None:
        """Use up one message's time without passing a message (the one held and dropped)."""
        now = self.clock()
        self.tokens = max(0.0, min(float(self.burst), self.tokens + (now - self.last) * self.per_second) - 1.0)
        self.last = now


def flood_notice() -> str:
    """What the page is told (once) when its messages are dropped, in the current language.

    >>> flood_notice()[:49]
    'This page sent the server more than 20 messages a'
    """
    return _("This page sent the server more than {n} messages a second, so some clicks were not passed on. "
             "Click more slowly; if the page no longer answers, reload it.").format(n=number(PER_SECOND))


def rate_limited(handler: type, per_second: float = PER_SECOND, burst: int = BURST,
                 clock: Callable[[], float] | None = None) -> type:
    """``handler`` (Voilà's kernel WebSocket handler) with a :class:`MessageRate` per page
    (``clock``: seconds, a fake one in tests)."""

    class RateLimited(handler):  # type: ignore[misc]  # Voilà's handlers are untyped
        def open(self, *args: Any, **kwargs: Any) -> Any:
            self.kt_rate = MessageRate(per_second, burst, clock or time.monotonic)
            return super().open(*args, **kwargs)

        def on_message(self, message: Any) -> Any:
            rate: MessageRate | None = getattr(self, "kt_rate", None)
            if rate is None or rate.allow():
                return super().on_message(message)
            if not rate.told:
                rate.told = True
                log.warning("krypteach: a page sent more than %s messages a second; dropping what is over",
                            per_second)
                self.kt_tell_page()
            return self.kt_hold(rate)

        async def kt_hold(self, rate: MessageRate) -> None:
            """Read nothing more from this page until a message's time has come again (tornado
            reads a socket's next message only when ``on_message``'s coroutine is done), and spend
            that time on the dropped message: a page that goes on flooding is read at ``per_second``
            messages a second, all dropped, and holds the server's event loop no longer."""
            await asyncio.sleep(rate.wait())
            rate.spend()

        def kt_tell_page(self) -> None:
            kt = self.settings.get("krypteach")
            lang = kt.request_language(self) if kt is not None else None
            try:
                if lang:
                    with use_language(lang):
                        text = flood_notice()
                else:
                    text = flood_notice()
                connection = self.connection
                msg = connection.session.msg("stream", content={"text": text + "\n", "name": "stderr"},
                                             metadata={NOTICE_KEY: True})
                if connection.subprotocol == "v1.kernel.websocket.jupyter.org":
                    from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

                    frame = serialize_msg_to_ws_v1(msg, "iopub", connection.session.pack)  # type: ignore[no-untyped-call]
                    self.write_message(frame, binary=True)
                else:
                    msg["channel"] = "iopub"
                    self.write_message(json.dumps(msg, default=str))
            except Exception:  # the notice is a courtesy: the limit holds without it
                log.exception("krypteach: could not tell a flooding page")

        def on_close(self) -> Any:
            rate: MessageRate | None = getattr(self, "kt_rate", None)
            if rate is not None and rate.dropped:
                log.warning("krypteach: dropped %d messages from a page over its rate", rate.dropped)
            return super().on_close()

    RateLimited.__name__ = RateLimited.__qualname__ = handler.__name__
    return RateLimited
