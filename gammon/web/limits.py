"""The limits of one client address, whatever it opens: requests a second (WebSocket handshakes too),
hints a second, WebSocket messages a second (shared by all the address's sockets, so reconnecting
earns nothing), and WebSockets open at once.

The address is uvicorn's: a proxy's X-Forwarded-For only where the operator trusts that proxy.
An IPv6 client counts by its /64 (see :func:`address`).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Container

from starlette.types import ASGIApp, Receive, Scope, Send

from gammon.i18n import tr
from gammon.web.middleware import send_error

ENGINE_ASKS = ("/hint", "/tutor")  # a match's requests that cost an engine evaluation
HINT_SHARE = 10  # a client's hints a second: a tenth of its requests a second
MAX_BUCKETS = 10_000


class RateLimit:
    """A token bucket: ``rate`` actions a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class AddressLimits:
    """``rate``/``burst``: an address's requests and its WebSocket messages a second (each apart);
    hints get a tenth of that; ``max_sockets``: its WebSockets open at once."""

    def __init__(
        self, rate: float, burst: float, max_sockets: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.max_sockets, self.clock = rate, burst, max_sockets, clock
        self._buckets: dict[tuple[str, str], RateLimit] = {}
        self._sockets: dict[str, int] = {}

    def allow(self, kind: str, address: str) -> bool:
        """Count one ``kind`` ("request", "hint", "message") of ``address``; False past its limit."""
        key = (kind, address)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= MAX_BUCKETS:
                self._buckets.clear()  # bounded memory; forgetting buckets only ever lets a client through
            share = HINT_SHARE if kind == "hint" else 1
            bucket = self._buckets[key] = RateLimit(
                self.rate / share, max(1.0, self.burst / share), self.clock
            )
        return bucket.allow()

    def open_socket(self, address: str) -> str | None:
        """Count a socket of ``address`` in, or say why not (then nothing is counted)."""
        if self._sockets.get(address, 0) >= self.max_sockets:
            return tr("your address has {n} sockets open already (the limit)", n=self.max_sockets)
        self._sockets[address] = self._sockets.get(address, 0) + 1
        return None

    def close_socket(self, address: str) -> None:
        left = self._sockets.get(address, 0) - 1
        if left > 0:
            self._sockets[address] = left
        else:
            self._sockets.pop(address, None)

    def sockets(self, address: str) -> int:
        return self._sockets.get(address, 0)


def address(scope: Scope) -> str:
    """The client's address as limits and throttles count it (:func:`address_key`)."""
    client = scope.get("client")
    return address_key(str(client[0])) if client else ""


def address_key(host: str) -> str:
    """An IPv4 address as it is; an IPv6 address as its /64 network, since a host is given a
    whole /64 and rotating within it (privacy addresses) would earn it new limits at will; an
    IPv4-mapped IPv6 address as its IPv4 address. Anything else (a test client's name) as it is."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])  # without an IPv6 zone ("fe80::1%eth0")
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class RequestLimit:
    """Pure ASGI middleware: every HTTP request and WebSocket handshake counts against its address's
    requests; a hint (a path ending in ``/hint`` or ``/tutor`` under /api/matches/, or one of ``costly``) also
    against its hints, as each one costs an engine evaluation. Past a limit: 429, body unread."""

    def __init__(self, app: ASGIApp, limits: AddressLimits, costly: Container[str] = ()) -> None:
        self.app, self.limits, self.costly = app, limits, costly

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client, path = address(scope), scope.get("path", "")
            refused = None
            if not self.limits.allow("request", client):
                refused = tr("too many requests; slow down")
            elif (
                scope["type"] == "http"
                and (path.startswith("/api/matches/") and path.endswith(ENGINE_ASKS) or path in self.costly)
                and not self.limits.allow("hint", client)
            ):
                refused = tr("too many hints; slow down")
            if refused is not None:
                await send_error(send, 429, refused, scope)
                return
        await self.app(scope, receive, send)
