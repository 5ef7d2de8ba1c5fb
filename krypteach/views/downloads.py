"""Download links for game records, with the records inside the link.

A ``data:`` address holds the file itself (JSON Lines, base64), so the link
works in a page served by Voilà with no server endpoint, and offline. The text
is written by :func:`krypteach.engine.records.dump_givar`, the same writer as
``krypteach simulate --record``.

>>> from krypteach import Giv
>>> g = Giv(seed=5)
>>> g.play_out(lambda g: g.legal_moves()[-1])
>>> link = records_download_html([g], "giv-1.jsonl", "Download this giv")
>>> link.startswith('<a class="kt-download" download="giv-1.jsonl" href="data:application/x-ndjson;base64,')
True
>>> from krypteach.engine.records import load_givar
>>> load_givar(records_text(link))[0].result == g.result
True
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..engine.records import dump_givar

if TYPE_CHECKING:  # only named in annotations
    from ..engine.game import Giv

__all__ = ["MEDIA_TYPE", "records_data_url", "records_download_html", "records_text"]

#: the media type of JSON Lines
MEDIA_TYPE = "application/x-ndjson"


def records_data_url(givar: Iterable[Giv]) -> str:
    """The givar as one ``data:application/x-ndjson;base64,…`` address (a JSON Lines file)."""
    text = dump_givar(givar)
    return f"data:{MEDIA_TYPE};base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


def records_download_html(givar: Iterable[Giv], filename: str, text: str, *, title: str = "") -> str:
    """An ``<a download="filename">`` link that saves the givar as a JSON Lines record file."""
    tip = f' title="{html.escape(title, quote=True)}"' if title else ""
    return (f'<a class="kt-download" download="{html.escape(filename, quote=True)}" '
            f'href="{records_data_url(givar)}"{tip}>{html.escape(text, quote=False)}</a>')


def records_text(link: str) -> str:
    """The JSON Lines text inside a link made by :func:`records_download_html` (for tests
    and for reading a link back)."""
    found = re.search(r'href="data:[^;"]+;base64,([A-Za-z0-9+/=]*)"', link)
    if found is None:
        raise ValueError("no data: address with base64 records in this link")
    return base64.b64decode(found.group(1)).decode("utf-8")
