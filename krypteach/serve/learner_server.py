"""A learner's Jupyter server on JupyterHub, as a Jupyter server extension: Voilà's scripts and
styles sent compressed there too, as ``krypteach serve`` sends them (:mod:`.gzip_static`).

docs/deploy/singleuser_config.py turns it on (``jpserver_extensions``). Its start runs once every
extension (Voilà's among them) has added its handlers, and wraps each static file handler of the
server."""

from __future__ import annotations

import logging
from typing import Any

from .gzip_static import gzip_routes

log = logging.getLogger(__name__)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "krypteach.serve.learner_server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Nothing to add as the extensions load: Voilà's handlers are not all there yet."""


async def _start_jupyter_server_extension(serverapp: Any) -> None:
    wrapped = gzip_routes(serverapp.web_app)
    log.info("krypteach: static file handlers sending gzip copies: %d", wrapped)
