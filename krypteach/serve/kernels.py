"""The kernels of ``krypteach serve``: which were started for Voilà's pool and which were
handed to a page, and the one culling rule that knows about the pool.

- a kernel waiting in the pool is never culled;
- a kernel handed to a page is shut down when no browser has been connected to it for
  ``grace`` seconds, busy or not (a page closed during a long job stops it);
- while the class is in, a taken kernel is replaced only down to ``spare`` waiting ones;
  when every page has closed, the class's pages are warmed fully again.
"""

from __future__ import annotations

import time
import uuid
from contextvars import ContextVar
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

from .settings import ServeSettings

__all__ = ["OPENED_FOR", "ClassroomKernelManager", "Culler", "count_handed_out"]

#: the browser a lesson page is being rendered for (set by the door for the request): the
#: kernel handed to that page is its own from the start, also before a WebSocket connects
OPENED_FOR: ContextVar[str | None] = ContextVar("krypteach_opened_for", default=None)


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Remembers which kernels were started for the pool (Voilà starts them with
    ``VOILA_PREHEAT=True`` in their environment) and which were handed to a page."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]  # jupyter_server's __init__ is unannotated
        self.kt_pool: set[str] = set()
        self.kt_handed: set[str] = set()

    async def start_kernel(self, *, kernel_id: str | None = None, **kwargs: Any) -> str:  # type: ignore[override]
        kernel_id = kernel_id or str(uuid.uuid4())
        pool = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        if pool:
            self.kt_pool.add(kernel_id)
        started: str = await super().start_kernel(kernel_id=kernel_id, **kwargs)
        client, gate = OPENED_FOR.get(), getattr(self, "kt_gate", None)
        if not pool and client is not None and gate is not None:  # a page with no warm kernel: started for it
            gate.claim(started, client)
        return started

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        try:  # jupyter_server's shutdown_kernel is unannotated
            await super().shutdown_kernel(kernel_id, *args, **kwargs)  # type: ignore[no-untyped-call]
        finally:
            self.kt_pool.discard(kernel_id)
            self.kt_handed.discard(kernel_id)

    def kt_pages(self) -> set[str]:
        """The kernels handed to pages: every running kernel but those started for the pool
        and not yet handed out."""
        return set(self.list_kernel_ids()) - (self.kt_pool - self.kt_handed)


def count_handed_out(km: Any, kt: ServeSettings) -> None:
    """Wrap Voilà's ``get_rendered_notebook`` of ``km`` (the one moment a kernel leaves the
    pool): remember the kernel as handed out, and while the class is in, refill a warmed
    page's pool only down to ``kt.spare`` waiting kernels."""
    take_from_pool = km.get_rendered_notebook
    km.kt_gate = kt.gate

    async def handing_out(*args: Any, **kwargs: Any) -> Any:
        name = kwargs.get("notebook_name", args[0] if args else None)
        pools = km.kernel_pools_config
        if name in kt.warm and name in pools:
            pools[name] = {**pools[name], "pool_size": min(kt.spare, kt.warm[name])}
        render_task, rendered_cache, kernel_id = await take_from_pool(*args, **kwargs)
        km.kt_handed.add(kernel_id)
        client = OPENED_FOR.get()
        if client is not None:
            kt.gate.claim(kernel_id, client)
        return render_task, rendered_cache, kernel_id

    km.get_rendered_notebook = handing_out


class Culler:
    """Shuts down the kernels of pages no browser is connected to (run every
    ``kt.cull_interval`` seconds by the application)."""

    def __init__(self, km: Any, kt: ServeSettings, log: Any) -> None:
        self.km = km
        self.kt = kt
        self.log = log
        #: kernel -> since when no browser has been connected to it
        self.alone: dict[str, float] = {}

    async def cull(self) -> None:
        km = self.km
        kt = self.kt
        now = time.monotonic()
        live = set(km.list_kernel_ids())
        pages = km.kt_pages()
        if not pages:
            self.warm_again()
        alone = self.alone
        for kid in list(alone):
            if kid not in live:
                del alone[kid]
                kt.gate.forget(kid)
        for kid in pages:
            try:
                dead = not await km.get_kernel(kid).is_alive()
            except KeyError:
                continue
            if km._kernel_connections.get(kid, 0) > 0 and not dead:
                alone.pop(kid, None)
                continue
            since = alone.setdefault(kid, now)
            if now - since >= kt.grace or (dead and now - since >= kt.cull_interval * 2):
                self.log.info("krypteach: shutting down kernel %s (no page connected for %.0f s)", kid, now - since)
                alone.pop(kid, None)
                kt.culled["no page"] = kt.culled.get("no page", 0) + 1
                try:
                    await km.shutdown_kernel(kid)
                except Exception as e:  # already gone
                    self.log.debug("krypteach: kernel %s: %s", kid, e)
                kt.gate.forget(kid)

    def warm_again(self) -> None:
        """The class has left: warm the class's pages fully again for the next one."""
        km = self.km
        pools = km.kernel_pools_config
        for name, size in self.kt.warm.items():
            if name in pools and pools[name].get("pool_size") != size:
                pools[name] = {**pools[name], "pool_size": size}
                km.fill_if_needed(delay=0, notebook_name=name)
