"""Who may open a lesson page, and how many kernels the class may hold.

Plain Python with no web framework, so that every rule is tested on its own: the
class code, the Host header check (against DNS rebinding), the cap on kernels for
the whole server and for each browser, and the guard against guessing the code.
``krypteach.serve.door`` asks these questions for every request.
"""

from __future__ import annotations

import hmac
import ipaddress
import math
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..i18n import _, ngettext
from ..i18n.numbers import number

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
    #: different wrong codes (class or teacher) one address may try per minute before it is slowed
    wrong_code_rate: int = 10
    #: wrong codes per minute from all addresses together before everyone guessing wrong is slowed
    wrong_code_total: int = 60
    #: a slowed address's codes are compared one at a time: the first wait (seconds), doubled by
    #: each wrong code while slowed, up to ``slow_max``
    slow_gap: float = 1.0
    slow_max: float = 30.0
    #: lesson pages the browsers of one address may hold at once (None: two thirds of ``max_kernels``,
    #: at least ``per_client``): a script dropping its cookie cannot take every page of the class
    per_address: int | None = None
    extra_hosts: Iterable[str] = ()
    clock: Callable[[], float] = time.monotonic
    _hosts: set[str] = field(default_factory=set, init=False)
    _owner: dict[str, str] = field(default_factory=dict, init=False)
    _opening: dict[str, int] = field(default_factory=dict, init=False)
    _recent: dict[str, deque[float]] = field(default_factory=dict, init=False)
    #: address -> (time, code tried) of its wrong codes in the last minute
    _wrong: dict[str, deque[tuple[float, str]]] = field(default_factory=dict, init=False)
    #: times of every wrong code in the last minute, from all addresses
    _all_wrong: deque[float] = field(default_factory=deque, init=False)
    #: a slowed address: its next code is compared from this time on, and the wait after a wrong one
    _next_try: dict[str, float] = field(default_factory=dict, init=False)
    _gap: dict[str, float] = field(default_factory=dict, init=False)
    #: client -> the address it came through the door from (the cap per address)
    _address: dict[str, str] = field(default_factory=dict, init=False)
    #: client -> the learner signed in on it (the cap per learner, over all their browsers)
    _learner: dict[str, str] = field(default_factory=dict, init=False)
    #: wrong PINs one learner may be sent in ``pin_window`` seconds before each next one waits
    wrong_pin_rate: int = 5
    pin_window: float = 600.0
    #: the first wait after that (seconds), doubled by each wrong PIN, up to ``pin_max``
    pin_gap: float = 30.0
    pin_max: float = 300.0
    #: learner (class and nickname) -> times of their wrong PINs in the window
    _pin_wrong: dict[str, deque[float]] = field(default_factory=dict, init=False)
    _pin_next: dict[str, float] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        if self.code is not None:
            self.code = normalize_code(self.code)
            if len(self.code) < 4:
                raise ValueError("a class code needs at least 4 letters or digits")
        if self.max_kernels < 1:
            raise ValueError("max_kernels must be at least 1")
        if self.per_client < 1:
            raise ValueError("per_client must be at least 1")
        if self.per_address is None:
            self.per_address = max(self.per_client, self.max_kernels * 2 // 3)
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
        """A learner types the code: right, wrong, or wait (this address, or the whole server,
        has guessed wrong too often). The right code is never refused because of earlier wrong
        codes, only while a slowed address waits its turn (:meth:`_guess`)."""
        if self.code is None:
            return ALLOW
        return self._guess(text, self.code, address, _("that is not this class's code"))

    def try_teacher_code(self, text: str, teacher_code: str, address: str) -> Verdict:
        """The teacher types the teacher code; wrong tries count with the class code's.

        >>> gate = ClassGate(code="K7RPX", max_kernels=4)
        >>> gate.try_teacher_code("K7RPX", "T3ACH3R9", "1.2.3.4").ok   # the class code never opens it
        False
        >>> gate.try_teacher_code("t3ach3r9", "T3ACH3R9", "1.2.3.4").ok
        True
        """
        return self._guess(text, normalize_code(teacher_code), address, _("that is not the teacher code"))

    def _guess(self, text: str, want: str, address: str, wrong: str) -> Verdict:
        """Compare a code; only wrong codes are limited.

        - An address that tried ``wrong_code_rate`` different wrong codes in a minute (the
          same wrong code again counts once: a browser sending a saved old code) is *slowed*,
          and so is every address with a wrong code in the last minute while the whole
          server saw ``wrong_code_total`` wrong codes in it. It stays slowed until a whole
          minute passes without a wrong code from it.
        - A slowed address's codes are still compared, one after each wait: a class behind
          one school address that typed wrong codes gets in with the right one, and a script
          guessing gets one guess per wait, the wait doubling (``slow_gap`` … ``slow_max``).
        """
        now = self.clock()
        tries = self._expire(address, now)
        slowed = self._slowed(address, tries)
        if slowed and now < self._next_try.get(address, 0.0):
            return self._wait(address, now)
        typed = normalize_code(text)
        if want and hmac.compare_digest(typed.encode(), want.encode()):
            return ALLOW
        if all(code != typed for _t, code in tries):
            tries.append((now, typed))
            self._all_wrong.append(now)
        if slowed or self._slowed(address, tries):
            gap = min(self.slow_max, self._gap.get(address, self.slow_gap / 2) * 2)
            self._gap[address] = gap
            self._next_try[address] = now + gap
            return self._wait(address, now)
        return Verdict(False, 403, wrong, "code")

    def _expire(self, address: str, now: float) -> deque[tuple[float, str]]:
        """This address's wrong codes of the last minute (older ones, everybody's, forgotten)."""
        while self._all_wrong and now - self._all_wrong[0] > 60:
            self._all_wrong.popleft()
        tries = self._wrong.setdefault(address, deque())
        while tries and now - tries[0][0] > 60:
            tries.popleft()
        if not tries:
            self._next_try.pop(address, None)
            self._gap.pop(address, None)
        return tries

    def _slowed(self, address: str, tries: deque[tuple[float, str]]) -> bool:
        """Slowed: over a limit now, or since (until a whole minute passes without a wrong code)."""
        return (address in self._gap or len(tries) >= self.wrong_code_rate
                or (bool(tries) and len(self._all_wrong) >= self.wrong_code_total))

    def _wait(self, address: str, now: float) -> Verdict:
        seconds = max(1, math.ceil(self._next_try.get(address, now) - now))
        if len(self._wrong.get(address, ())) >= self.wrong_code_rate:
            why = ngettext("too many wrong codes from this computer: wait {n} second and type the code again",
                           "too many wrong codes from this computer: wait {n} seconds and type the code again",
                           seconds)
        else:
            why = ngettext("too many wrong codes on this server just now: wait {n} second and type the code again",
                           "too many wrong codes on this server just now: wait {n} seconds and type the code again",
                           seconds)
        return Verdict(False, 429, why.format(n=number(seconds)), "slow-down")

    # --- a learner's PIN -------------------------------------------------------------
    def pin_wait(self, learner: str) -> Verdict:
        """May a PIN be tried for ``learner`` (their class and nickname) now? After
        ``wrong_pin_rate`` wrong PINs in ``pin_window`` seconds each next try waits, the wait
        doubling from ``pin_gap`` to ``pin_max``: in a 45-minute lesson a script guessing Ann's
        4-digit PIN gets about 16 of its 10,000 tries. The right PIN is never refused but while
        a wait runs; the learner's classmates are not slowed at all.

        >>> t = [0.0]
        >>> gate = ClassGate(code="K7RPX", max_kernels=4, clock=lambda: t[0])
        >>> for _ in range(5):
        ...     gate.pin_wrong("K7RPX/Ann")
        >>> gate.pin_wait("K7RPX/Ann").status, gate.pin_wait("K7RPX/Bo").ok
        (429, True)
        >>> t[0] = 31.0
        >>> gate.pin_wait("K7RPX/Ann").ok
        True
        """
        now = self.clock()
        wrong = self._pin_wrong.get(learner)
        if wrong is None:
            return ALLOW
        while wrong and now - wrong[0] > self.pin_window:
            wrong.popleft()
        if not wrong:
            del self._pin_wrong[learner]
            self._pin_next.pop(learner, None)
            return ALLOW
        wait = self._pin_next.get(learner, 0.0) - now
        if wait <= 0:
            return ALLOW
        seconds = max(1, math.ceil(wait))
        return Verdict(False, 429, ngettext(
            "too many wrong PINs for this nickname: wait {n} second and try again",
            "too many wrong PINs for this nickname: wait {n} seconds and try again",
            seconds).format(n=number(seconds)), "slow-down")

    def pin_wrong(self, learner: str) -> None:
        """A wrong PIN was typed for ``learner``."""
        now = self.clock()
        wrong = self._pin_wrong.setdefault(learner, deque())
        wrong.append(now)
        over = len(wrong) - self.wrong_pin_rate
        if over >= 0:
            self._pin_next[learner] = now + min(self.pin_max, self.pin_gap * 2 ** over)
        if len(self._pin_wrong) > 10_000:  # a script naming new nicknames: forget the oldest
            oldest = min(self._pin_wrong, key=lambda k: self._pin_wrong[k][-1])
            self._pin_wrong.pop(oldest)
            self._pin_next.pop(oldest, None)

    def pin_right(self, learner: str) -> None:
        """The learner signed in (or the teacher reset their PIN): their wrong PINs are forgotten."""
        self._pin_wrong.pop(learner, None)
        self._pin_next.pop(learner, None)

    # --- kernels ---------------------------------------------------------------------
    def may_open_page(self, client: str, page_kernels: Iterable[str], address: str | None = None,
                      learner: str | None = None) -> Verdict:
        """May this browser (come from ``address``, signed in as ``learner``) open one more
        lesson page now? ``page_kernels``: the kernels handed to pages (not those waiting in
        the pool). The pages are counted per browser, per learner (``per_client`` for all
        their browsers together) and per address: a script that drops its cookie is a new
        browser each time, but not a new learner or a new address."""
        live = set(page_kernels)
        for kid in [k for k in self._owner if k not in live]:
            del self._owner[kid]
        now = self.clock()
        self._forget_idle_clients(now)
        recent = self._recent.setdefault(client, deque())
        while recent and now - recent[0] > 60:
            recent.popleft()
        mine = sum(1 for owner in self._owner.values() if owner == client) + self._opening.get(client, 0)
        if mine >= self.per_client:
            why = ngettext("this browser already has {n} lesson page open: close it and try again",
                           "this browser already has {n} lesson pages open: close one and try again", mine)
            return Verdict(False, 429, why.format(n=mine), "yours")
        if learner is not None:
            theirs = sum(1 for owner in self._owner.values() if self._learner.get(owner) == learner)
            theirs += sum(n for c, n in self._opening.items() if self._learner.get(c) == learner)
            if theirs >= self.per_client:
                why = ngettext("you already have {n} lesson page open (in this or another browser): close it and "
                               "try again",
                               "you already have {n} lesson pages open (in this or other browsers): close one and "
                               "try again", theirs)
                return Verdict(False, 429, why.format(n=number(theirs)), "yours")
        if len(recent) >= self.per_client_rate:
            return Verdict(False, 429, _("many pages opened in the last minute: wait a moment"), "slow-down")
        if address is not None and self.per_address is not None:
            here = sum(1 for owner in self._owner.values() if self._address.get(owner) == address)
            here += sum(n for c, n in self._opening.items() if self._address.get(c) == address)
            if here >= self.per_address:
                return Verdict(False, 429, ngettext(
                    "this computer's browsers already have {n} lesson page open: close one and try again",
                    "this computer's browsers already have {n} lesson pages open: close one and try again",
                    here).format(n=number(here)), "yours")
        opening = sum(self._opening.values())
        if len(live) + opening >= self.max_kernels:
            return Verdict(False, 503, ngettext("the class is full ({n} page open)", "the class is full ({n} pages open)",
                                                self.max_kernels).format(n=self.max_kernels), "full")
        return ALLOW

    def _forget_idle_clients(self, now: float) -> None:
        """Forget the browsers with no page and no page opened in the last minute (each
        cookie-less open is a new browser: without this the gate would remember them all)."""
        if len(self._recent) + len(self._address) + len(self._learner) <= 4 * self.max_kernels + 200:
            return
        busy = set(self._owner.values()) | set(self._opening)
        for c in [c for c, times in self._recent.items() if c not in busy and not (times and now - times[-1] <= 60)]:
            del self._recent[c]
        for c in [c for c in self._address if c not in busy and c not in self._recent]:
            del self._address[c]
        for c in [c for c in self._learner if c not in busy and c not in self._recent]:
            del self._learner[c]

    def opening(self, client: str, address: str | None = None, learner: str | None = None) -> None:
        """A page is being rendered for ``client`` (counts against its caps, and its address's
        and learner's, until its kernel is handed out)."""
        self._opening[client] = self._opening.get(client, 0) + 1
        self._recent.setdefault(client, deque()).append(self.clock())
        if address is not None:
            self._address[client] = address
        if learner is not None:
            self._learner[client] = learner

    def opened(self, client: str) -> None:
        n = self._opening.get(client, 0) - 1
        if n > 0:
            self._opening[client] = n
        else:
            self._opening.pop(client, None)

    def claim(self, kernel_id: str, client: str) -> bool:
        """The browser a kernel was handed to (or, else, the first to connect to it) owns it;
        another browser may not use it."""
        owner = self._owner.setdefault(kernel_id, client)
        return owner == client

    def owner(self, kernel_id: str) -> str | None:
        return self._owner.get(kernel_id)

    def forget(self, kernel_id: str) -> None:
        self._owner.pop(kernel_id, None)


def client_id() -> str:
    """A new random id for one browser."""
    return secrets.token_urlsafe(12)

