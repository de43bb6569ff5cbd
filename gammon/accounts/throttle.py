"""Throttling of sign-in attempts: after too many failures in a window, for one name or from one
address, sign-ins are refused until the oldest failure leaves the window.

The failures are counted in this process's memory (a server of several processes counts each
one's apart, which multiplies the limits by their number). The clock is injected: tests move it.
Sign-ins run in threads, and checking a password takes a while: :meth:`SignInThrottle.attempt`
counts an attempt as a failure from its start, so attempts made at once count against the limit
together (checked one by one, each of a hundred at once saw no failure yet, and all were tried).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from gammon.accounts.errors import ThrottledError, TooManySignUpsError

MAX_KEYS = 100_000
"""Past this many names and addresses, those without a failure in the window are forgotten (looked
for again each time the keys kept have doubled)."""


@dataclass(frozen=True)
class Attempt:
    """A sign-in under way, counted by :meth:`SignInThrottle.attempt` at ``at``."""

    name_key: str
    address: str | None
    at: float


def _keys(name_key: str, address: str | None) -> list[tuple[str, str]]:
    return [("name", name_key)] + ([("address", address)] if address is not None else [])


@dataclass
class SignInThrottle:
    """At most ``per_name`` failed sign-ins for one name, ``per_address`` from one address, in
    ``window`` seconds of ``clock``. A name that does not exist is counted like one that does."""

    per_name: int = 5
    per_address: int = 20
    window: float = 15 * 60.0
    clock: Callable[[], float] = time.monotonic
    max_keys: int = MAX_KEYS
    _failures: dict[tuple[str, str], deque[float]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _scan_at: int = field(default=0, repr=False)  # the keys at which to look for some to forget

    def check(self, name_key: str, address: str | None) -> None:
        """Raise ThrottledError if a sign-in for ``name_key`` from ``address`` may not be tried now."""
        with self._lock:
            self._check(name_key, address, self.clock())

    def attempt(self, name_key: str, address: str | None) -> Attempt:
        """Check (ThrottledError) and count an attempt at once, as a failure until
        :meth:`forgive` takes it back (a right password, or an attempt that checked none)."""
        with self._lock:
            now = self.clock()
            self._check(name_key, address, now)
            self._count(name_key, address, now)
            return Attempt(name_key, address, now)

    def forgive(self, attempt: Attempt) -> None:
        """Take back what :meth:`attempt` counted (what the window has dropped meanwhile is gone)."""
        with self._lock:
            for key in _keys(attempt.name_key, attempt.address):
                times = self._failures.get(key)
                if times is not None and attempt.at in times:
                    times.remove(attempt.at)
                    if not times:  # a right password leaves nothing behind
                        del self._failures[key]

    def failed(self, name_key: str, address: str | None) -> None:
        with self._lock:
            self._count(name_key, address, self.clock())

    def succeeded(self, name_key: str) -> None:
        """A right password clears its name's failures (not its address's: one address may try
        many names)."""
        with self._lock:
            self._failures.pop(("name", name_key), None)

    def _check(self, name_key: str, address: str | None, now: float) -> None:
        waits = [self._wait(("name", name_key), self.per_name, now)]
        if address is not None:
            waits.append(self._wait(("address", address), self.per_address, now))
        if max(waits) > 0:
            raise ThrottledError(max(waits))

    def _count(self, name_key: str, address: str | None, now: float) -> None:
        if len(self._failures) >= max(self.max_keys, self._scan_at):
            self._forget(now)
            # Not again until the keys double: when all have a failure in the window (thousands of
            # addresses), each failure scanned them all (22 ms at 100,000, the lock held).
            self._scan_at = 2 * len(self._failures)
        for key in _keys(name_key, address):
            self._failures.setdefault(key, deque()).append(now)

    def _wait(self, key: tuple[str, str], limit: int, now: float) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        times = self._failures.get(key)
        if not times:
            return 0.0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[key]
            return 0.0
        return times[-limit] + self.window - now if len(times) >= limit else 0.0

    def _forget(self, now: float) -> None:
        for key in [k for k, times in self._failures.items() if not times or times[-1] <= now - self.window]:
            del self._failures[key]


@dataclass
class SignUpLimit:
    """At most ``per_address`` accounts made from one address in ``window`` seconds of ``clock``.
    Without it one client made accounts as fast as the request limit let it (56 in 3 seconds):
    puppets to lose rated matches to, and a database filled at will. Counted in this process's
    memory, as the sign-in throttle is."""

    per_address: int = 10
    window: float = 60 * 60.0
    clock: Callable[[], float] = time.monotonic
    _made: dict[str, deque[float]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def attempt(self, address: str) -> float:
        """Check (TooManySignUpsError) and count a sign-up from ``address`` at once, so that
        sign-ups made at once count together; :meth:`forgive` takes it back if no account was made.
        The time it was counted at."""
        with self._lock:
            now = self.clock()
            times = self._made.get(address)
            if times is not None:
                while times and times[0] <= now - self.window:
                    times.popleft()
                if len(times) >= self.per_address:
                    raise TooManySignUpsError(times[-self.per_address] + self.window - now)
            elif len(self._made) >= MAX_KEYS:
                since = now - self.window
                self._made = {k: made for k, made in self._made.items() if made and made[-1] > since}
            self._made.setdefault(address, deque()).append(now)
            return now

    def forgive(self, address: str, at: float) -> None:
        with self._lock:
            times = self._made.get(address)
            if times is not None and at in times:
                times.remove(at)
                if not times:
                    del self._made[address]
