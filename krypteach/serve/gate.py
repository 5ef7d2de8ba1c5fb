"""Who may open a lesson page, and how many kernels the class may hold.

Plain Python with no web framework, so that every rule is tested on its own: the
class code, the Host header check (against DNS rebinding), the cap on kernels for
the whole server and for each browser, and the guard against guessing the code.
``krypteach.serve.door`` asks these questions for every request.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..i18n import _, ngettext

__all__ = ["CODE_ALPHABET", "ClassGate", "Verdict", "client_id", "kernel_cap_from_memory", "lan_address",
           "local_hostnames", "new_class_code", "normalize_code"]

#: no 0/O, 1/I/L: a code read aloud or from a board is typed right the first time
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: the memory one learner's kernel takes with a lesson open, with room for a game (measured: docs/classroom.md)
KERNEL_MIB = 150


def new_class_code(length: int = 5) -> str:
    """A short random class code such as ``K7RPX``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """What the learner typed, as the code is compared: spaces and dashes dropped, upper case."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")[:64]


def local_hostnames() -> set[str]:
    """The names this machine answers to (besides literal IP addresses)."""
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names.add(name.lower())
            names.add(name.lower().split(".")[0] + ".local")
    return names


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    for probe in ("10.255.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                addr = s.getsockname()[0]
        except OSError:
            continue
        if addr and not addr.startswith("127."):
            return str(addr)
    return None


def kernel_cap_from_memory(reserve_mib: int = 1024) -> int:
    """How many kernels fit in the memory that is free now, leaving ``reserve_mib`` for the rest."""
    try:
        with open("/proc/meminfo") as f:
            info = {line.split(":")[0]: int(line.split()[1]) for line in f if ":" in line}
        avail_mib = info.get("MemAvailable", info.get("MemFree", 0)) // 1024
    except (OSError, ValueError, IndexError):
        return 40
    return max(4, min(200, (avail_mib - reserve_mib) // KERNEL_MIB))


@dataclass(frozen=True)
class Verdict:
    """The answer to a request: allowed, or refused with an HTTP status and the reason in words."""

    ok: bool
    status: int = 200
    reason: str = ""
    #: which friendly page to show: "host", "code", "full", "yours", "slow-down"
    page: str = ""


ALLOW = Verdict(True)


@dataclass
class ClassGate:
    """The rules of the door. ``code`` None means open (``krypteach serve --open``)."""

    code: str | None
    max_kernels: int
    per_client: int = 5
    #: new lesson pages one browser may open per minute
    per_client_rate: int = 20
    #: wrong class codes one address may try per minute
    wrong_code_rate: int = 10
    extra_hosts: Iterable[str] = ()
    clock: Callable[[], float] = time.monotonic
    _hosts: set[str] = field(default_factory=set, init=False)
    _owner: dict[str, str] = field(default_factory=dict, init=False)
    _opening: dict[str, int] = field(default_factory=dict, init=False)
    _recent: dict[str, deque[float]] = field(default_factory=dict, init=False)
    _wrong: dict[str, deque[float]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        if self.code is not None:
            self.code = normalize_code(self.code)
            if len(self.code) < 4:
                raise ValueError("a class code needs at least 4 letters or digits")
        if self.max_kernels < 1:
            raise ValueError("max_kernels must be at least 1")
        if self.per_client < 1:
            raise ValueError("per_client must be at least 1")
        self._hosts = local_hostnames() | {h.lower() for h in self.extra_hosts}

    # --- the Host header -------------------------------------------------------------
    def check_host(self, host_header: str) -> Verdict:
        """Only this machine's names and literal addresses: a page reached through another
        name (DNS rebinding) is refused."""
        host = host_header.strip().lower()
        if host.startswith("["):  # [::1]:8866
            host = host[1:].split("]")[0]
        elif host.count(":") == 1:
            host = host.split(":")[0]
        try:
            ipaddress.ip_address(host)
            return ALLOW
        except ValueError:
            pass
        if host in self._hosts:
            return ALLOW
        return Verdict(False, 403, _("this server does not answer to the name {host} (Host header refused; "
                                     "use its address, or start it with --allow-host NAME)").format(host=repr(host)),
                       "host")

    # --- the class code --------------------------------------------------------------
    @property
    def open(self) -> bool:
        return self.code is None

    def code_matches(self, text: str) -> bool:
        return self.code is None or hmac.compare_digest(normalize_code(text).encode(), self.code.encode())

    def try_code(self, text: str, address: str) -> Verdict:
        """A learner types the code: right, wrong, or too many wrong tries from this address."""
        if self._too_many_wrong(address):
            return Verdict(False, 429, _("too many wrong class codes from this computer: wait a minute"), "slow-down")
        if self.code_matches(text):
            return ALLOW
        self._wrong[address].append(self.clock())
        return Verdict(False, 403, _("that is not this class's code"), "code")

    def _too_many_wrong(self, address: str) -> bool:
        """Has this address typed ``wrong_code_rate`` wrong codes (class or teacher) in the last minute?"""
        now = self.clock()
        tries = self._wrong.setdefault(address, deque())
        while tries and now - tries[0] > 60:
            tries.popleft()
        return len(tries) >= self.wrong_code_rate

    def try_teacher_code(self, text: str, teacher_code: str, address: str) -> Verdict:
        """The teacher types the teacher code; wrong tries count with the class code's.

        >>> gate = ClassGate(code="K7RPX", max_kernels=4)
        >>> gate.try_teacher_code("K7RPX", "T3ACH3R9", "1.2.3.4").ok   # the class code never opens it
        False
        >>> gate.try_teacher_code("t3ach3r9", "T3ACH3R9", "1.2.3.4").ok
        True
        """
        if self._too_many_wrong(address):
            return Verdict(False, 429, _("too many wrong codes from this computer: wait a minute"), "slow-down")
        want = normalize_code(teacher_code)
        if want and hmac.compare_digest(normalize_code(text).encode(), want.encode()):
            return ALLOW
        self._wrong[address].append(self.clock())
        return Verdict(False, 403, _("that is not the teacher code"), "code")

    # --- kernels ---------------------------------------------------------------------
    def may_open_page(self, client: str, page_kernels: Iterable[str]) -> Verdict:
        """May this browser open one more lesson page now? ``page_kernels``: the kernels
        handed to pages (not those waiting in the pool)."""
        live = set(page_kernels)
        for kid in [k for k in self._owner if k not in live]:
            del self._owner[kid]
        now = self.clock()
        recent = self._recent.setdefault(client, deque())
        while recent and now - recent[0] > 60:
            recent.popleft()
        mine = sum(1 for owner in self._owner.values() if owner == client) + self._opening.get(client, 0)
        if mine >= self.per_client:
            why = ngettext("this browser already has {n} lesson page open: close it and try again",
                           "this browser already has {n} lesson pages open: close one and try again", mine)
            return Verdict(False, 429, why.format(n=mine), "yours")
        if len(recent) >= self.per_client_rate:
            return Verdict(False, 429, _("many pages opened in the last minute: wait a moment"), "slow-down")
        opening = sum(self._opening.values())
        if len(live) + opening >= self.max_kernels:
            return Verdict(False, 503, _("the class is full ({n} pages open)").format(n=self.max_kernels), "full")
        return ALLOW

    def opening(self, client: str) -> None:
        """A page is being rendered for ``client`` (counts against its caps until it is claimed)."""
        self._opening[client] = self._opening.get(client, 0) + 1
        self._recent.setdefault(client, deque()).append(self.clock())

    def opened(self, client: str) -> None:
        n = self._opening.get(client, 0) - 1
        if n > 0:
            self._opening[client] = n
        else:
            self._opening.pop(client, None)

    def claim(self, kernel_id: str, client: str) -> bool:
        """The first browser to connect to a kernel owns it; another browser may not use it."""
        owner = self._owner.setdefault(kernel_id, client)
        return owner == client

    def owner(self, kernel_id: str) -> str | None:
        return self._owner.get(kernel_id)

    def forget(self, kernel_id: str) -> None:
        self._owner.pop(kernel_id, None)


def client_id() -> str:
    """A new random id for one browser."""
    return secrets.token_urlsafe(12)

