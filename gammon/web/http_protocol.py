"""uvicorn's HTTP protocol (httptools) with a deadline for each request's head, and its connection cap
kept for WebSocket handshakes too. ``gammon serve`` runs uvicorn with it (``http=GuardedHttp``).

uvicorn waits for a request's line and headers as long as the client likes: its keep-alive timeout
starts only once a response is sent, and any byte stops it, so a client that connects and sends
nothing, or a header a minute, holds its connection forever. Here a connection that has not sent a
whole request head within ``head_timeout`` seconds of opening, or of its last response, is closed
(answered 408 first if it had begun one). The body's own deadline is the app's (gammon.web.middleware).
uvicorn answers 503 to a request past ``limit_concurrency`` connections, but lets a WebSocket
handshake through whatever the count: here it gets the 503 too. And a handshake that the websockets
library cannot read (a line over its 8,192 bytes, more than its 128 headers) it drops without a word
and uvicorn never closes: those get 431 here, and any other it cannot read is closed at the head's
deadline. A request's head over ``MAX_HEAD`` bytes gets 431 too: httptools and uvicorn put a head
together piece by piece, each piece copying all before it, so a client sending a header of 67 MB
within the deadline held the event loop for seconds (another client's request waited 4.7 s) and
the server's memory grew by 130 MB (counted from the read after a head begins: a read, 256 KB at most,
may hold the end of one request and the start of the next). And uvicorn parses every request a read
holds ahead of their answers, each kept with its scope until its turn: 8 MB of small pipelined
requests on one connection, 233,000 of them, grew the server by 556 MB; a connection with more than
``MAX_PIPELINE`` requests waiting is closed (browsers do not pipeline). Last, uvicorn's
``limit_concurrency`` counted every connection alike: one client holding 100 idle connections of a
100-connection server had every other client answered 503. Here one client address (an IPv6 /64,
as gammon.web.limits counts them) holds at most an eighth of them (``PER_ADDRESS_SHARE``) as HTTP
connections; its WebSockets have their own cap (``--ws-per-address``). A trusted proxy's connections
(``--forwarded-allow-ips``) are not capped: they are all its clients'.
``GuardedWebSocket`` (``ws=GuardedWebSocket``) is uvicorn's WebSocket protocol that counts
a handshake answered by an HTTP denial (a 403 for a foreign Origin, a 429) as done: uvicorn logged
"ASGI callable returned without completing handshake." at ERROR for each, so any client could fill
the log with errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import weakref
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import MAX_LINE_LENGTH, MAX_NUM_HEADERS

from gammon.web.limits import address_key

HEAD_TIMEOUT = 10.0
"""Seconds a connection may take to send a request's line and headers."""
MAX_HEAD = 64 * 1024
"""Bytes of a request's line and headers (nginx's default is 32 KB, Node's 16 KB)."""
MAX_PIPELINE = 32
"""Requests one connection may have waiting behind the one being answered."""
PER_ADDRESS_SHARE = 8
"""One client address may hold ``limit_concurrency // PER_ADDRESS_SHARE`` HTTP connections at once
(at least ``MIN_PER_ADDRESS``): a browser opens six at most, an office behind one address more."""
MIN_PER_ADDRESS = 16

_held: weakref.WeakKeyDictionary[Any, dict[str, int]] = weakref.WeakKeyDictionary()
"""The HTTP connections open of each client address, by server (uvicorn's ServerState): a server
stopped with connections still counted takes its counts with it."""


def _trusted_proxy(host: str, trusted: list[str] | str) -> bool:
    """Whether ``host`` is one of uvicorn's ``forwarded_allow_ips`` (addresses, networks, or "*")."""
    names = trusted.split(",") if isinstance(trusted, str) else trusted
    for name in (n.strip() for n in names):
        if name in ("*", host):
            return True
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(host) in ipaddress.ip_network(name, strict=False):
                return True
    return False


def _reply(status: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "x-content-type-options: nosniff\r\nconnection: close\r\n\r\n").encode() + body


class GuardedHttp(HttpToolsProtocol):
    head_timeout: ClassVar[float] = HEAD_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_begun = False
        self._in_head = True  # from a request's first byte to the end of its headers
        self._head_size = 0
        self._held_as: tuple[dict[str, int], str] | None = None

    def _hold(self) -> bool:
        """Count this connection against its client address; False when the address is at its share."""
        limit = self.limit_concurrency
        host = self.client[0] if self.client else ""
        if limit is None or not host:
            return True
        if self.config.proxy_headers and _trusted_proxy(host, self.config.forwarded_allow_ips):
            return True
        counts, key = _held.setdefault(self.server_state, {}), address_key(host)
        if counts.get(key, 0) >= max(MIN_PER_ADDRESS, limit // PER_ADDRESS_SHARE):
            return False
        counts[key] = counts.get(key, 0) + 1
        self._held_as = (counts, key)
        return True

    def _let_go(self) -> None:
        if self._held_as is not None:
            counts, key = self._held_as
            left = counts.pop(key) - 1
            if left > 0:
                counts[key] = left
            self._held_as = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self._hold():
            share = max(MIN_PER_ADDRESS, (self.limit_concurrency or 0) // PER_ADDRESS_SHARE)
            transport.write(_reply("429 Too Many Requests", f"your address has {share} connections "
                                                            "open (the limit); try again later"))
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._let_go()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._head_begun = True
        if self._in_head:
            self._head_size += len(data)
        super().data_received(data)
        # Still in the head after these bytes: all were the head's (those of a chunk that also held
        # the head's end and a body are not counted against it).
        if self._in_head and self._head_size > MAX_HEAD and not self.transport.is_closing():
            self._disarm()
            self.transport.write(_reply("431 Request Header Fields Too Large",
                                        f"a request's line and headers are {MAX_HEAD} bytes at most"))
            self.transport.close()

    def on_message_begin(self) -> None:
        self._in_head, self._head_size = True, 0
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._disarm()
        if len(self.pipeline) >= MAX_PIPELINE:  # no more kept: the rest of the read is parsed, then dropped
            if not self.transport.is_closing():
                self.transport.close()
            return
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        waiting = bool(self.pipeline)  # a request whose head has come already is next
        super().on_response_complete()
        if not waiting and not self.transport.is_closing():
            self._arm()

    def handle_websocket_upgrade(self) -> None:
        limit = self.limit_concurrency
        if limit is not None and (len(self.connections) >= limit or len(self.tasks) >= limit):
            self.transport.write(_reply("503 Service Unavailable", f"the server has {limit} connections "
                                                                   "open (its limit); try again later"))
            self.transport.close()
            return
        if not self._readable_by_websockets():
            self.transport.write(_reply("431 Request Header Fields Too Large",
                                        f"a WebSocket handshake's lines are {MAX_LINE_LENGTH} bytes at most "
                                        f"and its headers {MAX_NUM_HEADERS}"))
            self.transport.close()
            return
        transport = self.transport
        self._let_go()  # a WebSocket counts against the address's sockets (gammon.web.limits)
        super().handle_websocket_upgrade()
        self.loop.call_later(self.head_timeout, _close_unanswered, transport)

    def _readable_by_websockets(self) -> bool:
        """Whether the websockets library will read this handshake: it has no answer for one it cannot."""
        request_line = len(self.scope["method"]) + len(self.url) + len(" HTTP/1.1") + 1
        headers = self.headers  # (name, value) as they came
        return (request_line <= MAX_LINE_LENGTH and len(headers) <= MAX_NUM_HEADERS
                and all(len(name) + 2 + len(value) <= MAX_LINE_LENGTH for name, value in headers))

    def _arm(self) -> None:
        self._disarm()
        self._head_begun = False
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self._head_begun:
            self.transport.write(_reply("408 Request Timeout", f"the request's headers did not come "
                                                               f"within {self.head_timeout:g} s"))
        self.transport.close()


def _close_unanswered(transport: asyncio.BaseTransport) -> None:
    """Close a WebSocket handshake that its protocol never read (no request came out of it)."""
    protocol = transport.get_protocol()
    if not transport.is_closing() and not getattr(protocol, "handshake_initiated", True):
        transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body", False):
            self.handshake_complete = True  # answered: the denial is the handshake's end
