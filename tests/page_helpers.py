"""Helpers of the browser tests that watch what a page was sent."""

from __future__ import annotations

from typing import Any


class VoilaScripts:
    """Collects Voilà's scripts and styles a page was sent (``page.on("response", collector)``):
    (address, Content-Encoding, bytes) of each."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str | None, int]] = []

    def __call__(self, response: Any) -> None:
        url = response.url.split("?")[0]
        if "/voila/" in url and url.endswith((".js", ".css")) and response.status == 200:
            self.sent.append((url, response.headers.get("content-encoding"), len(response.body())))

    def assert_all_gzip(self, at_least: int = 20, over: int = 1024) -> None:
        """Each of them of ``over`` bytes or more came as a gzip copy (krypteach/serve/gzip_static.py),
        and there were at least ``at_least`` (Voilà's chunks, the widgets' extensions, the template's)."""
        big = [(url, encoding) for url, encoding, size in self.sent if size >= over]
        assert len(big) >= at_least, self.sent
        assert [url for url, encoding in big if encoding != "gzip"] == []
