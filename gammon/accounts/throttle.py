"""Throttling of sign-in attempts: after too many failures in a window, for one name or from one
address, sign-ins are refused until the oldest failure leaves the window.

The failures are counted in this process's memory (a server of several processes counts each
one's apart, which multiplies the limits by their number). The clock is injected: tests move it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from gammon.accounts.errors import ThrottledError

MAX_KEYS = 100_000
"""Past this many names and addresses, those without a failure in the window are forgotten."""


@dataclass
class SignInThrottle:
    """At most ``per_name`` failed sign-ins for one name, ``per_address`` from one address, in
    ``window`` seconds of ``clock``. A name that does not exist is counted like one that does."""

    per_name: int = 5
    per_address: int = 20
    window: float = 15 * 60.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[tuple[str, str], deque[float]] = field(default_factory=dict, repr=False)

    def check(self, name_key: str, address: str | None) -> None:
        """Raise ThrottledError if a sign-in for ``name_key`` from ``address`` may not be tried now."""
        now = self.clock()
        waits = [self._wait(("name", name_key), self.per_name, now)]
        if address is not None:
            waits.append(self._wait(("address", address), self.per_address, now))
        if max(waits) > 0:
            raise ThrottledError(max(waits))

    def failed(self, name_key: str, address: str | None) -> None:
        now = self.clock()
        if len(self._failures) >= MAX_KEYS:
            self._forget(now)
        keys = [("name", name_key)] + ([("address", address)] if address is not None else [])
        for key in keys:
            self._failures.setdefault(key, deque()).append(now)

    def succeeded(self, name_key: str) -> None:
        """A right password clears its name's failures (not its address's: one address may try
        many names)."""
        self._failures.pop(("name", name_key), None)

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
        for key in [k for k, t in self._failures.items() if not t or t[-1] <= now - self.window]:
            del self._failures[key]
