"""Each WebSocket's own sender, so that pushing a change to a match's sockets never waits on a client.

The Hub hands a socket's messages to its :class:`Outbox`, which queues them (at most ``bound``) and
sends them in order from a task of its own, each within ``timeout`` seconds. A client that does not
keep up (its queue full, or a send not done in time: it stopped reading, or reads too slowly) is
dropped: ``on_drop`` is told at once (the Hub forgets the socket, and a player's seat counts as gone
from then on), then the socket is closed with 1013 (try again later) as soon as the client takes the
frame, so a browser that only fell behind reconnects and gets the state afresh. Until the client
takes that frame or goes, its connection stays open and counts against its address's sockets.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, NamedTuple

from starlette.websockets import WebSocket

from gammon.i18n import tr

# WebSocket close codes (RFC 6455 and the IANA registry)
UNSUPPORTED_DATA, POLICY_VIOLATION, TRY_AGAIN_LATER = 1003, 1008, 1013
TAKEN_OVER = 4410
"""Close code: another browser took the seat over (the client should not reconnect by itself)."""
DEFAULT_QUEUE = 16
"""Messages a socket may have waiting to be sent: states are a few KB; a client that reads keeps
its queue near empty."""
DEFAULT_SEND_TIMEOUT = 5.0
"""Seconds one message may take to go to a client (into the server's send buffer, which fills only
when the client stops reading)."""


class SocketCaps(NamedTuple):
    """The most WebSockets open at once on one seat of a match, on one match, from one address: every
    socket of a match is sent each change, so the caps bound what one action costs (the address's cap
    is kept by gammon.web.limits)."""

    per_seat: int
    per_match: int
    per_address: int


DEFAULT_CAPS = SocketCaps(per_seat=4, per_match=16, per_address=64)

PROTOCOL = "gammon"
"""The subprotocol a browser offers, beside ``token.<seat token>`` or ``key.<watch key>``."""
_background: set[asyncio.Task[Any]] = set()


def background(work: Coroutine[Any, Any, Any]) -> None:
    """Run ``work`` on the event loop without waiting for it (a reference kept until it ends)."""
    task = asyncio.get_running_loop().create_task(work)
    _background.add(task)
    task.add_done_callback(_background.discard)


class Outbox:
    """The messages waiting to go to one WebSocket, and the task that sends them."""

    def __init__(
        self,
        ws: WebSocket,
        bound: int = DEFAULT_QUEUE,
        timeout: float = DEFAULT_SEND_TIMEOUT,
        on_drop: Callable[[str], object] | None = None,
    ) -> None:
        self.ws, self.bound, self.timeout, self.on_drop = ws, bound, timeout, on_drop
        self.dropped: str | None = None
        """Why the socket was dropped, once it was."""
        self.tab = ""
        """The browser tab the socket came from, as the client names it (a seat's socket from
        another tab is another browser, which must ask before it takes the seat)."""
        self.account: int | None = None
        """The account whose seat this is, when the socket came signed in to it (its own devices
        share the seat without asking)."""
        self.lang = "en"
        """The language of the reader (the ``gammon_lang`` cookie or Accept-Language at connect): the
        game log of its states is worded in it."""
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Outbox:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def put(self, text: str) -> None:
        """Queue ``text``; never waits. A full queue drops the socket."""
        if self.dropped is not None:
            return
        if self._queue.qsize() >= self.bound:
            self.drop(f"{self.bound} messages were waiting for it")
        else:
            self._queue.put_nowait(text)

    def send_json(self, message: dict[str, Any]) -> None:
        self.put(json.dumps(message))

    async def close(self, code: int, reason: str) -> None:
        """Close the socket once what was queued before has gone (or the socket was dropped)."""
        self._queue.put_nowait((code, reason))
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def drop(self, why: str) -> None:
        """Give up on the client (once): it is told ``on_drop`` now, the close frame comes when it reads."""
        if self.dropped is None:
            self.dropped = why
            if self.on_drop is not None:
                self.on_drop(why)

    async def _run(self) -> None:
        try:
            while self.dropped is None:
                item = await self._queue.get()
                if isinstance(item, tuple):
                    await self.ws.close(*item)
                    return
                try:
                    async with asyncio.timeout(self.timeout):
                        await self.ws.send_text(item)
                except TimeoutError:
                    self.drop(f"a message waited over {self.timeout:g} s to be sent")
            # No timeout here: the connection is the client's to end (it counts against its address).
            await self.ws.close(TRY_AGAIN_LATER, f"too slow to read: {self.dropped}"[:120])
        except Exception:  # noqa: S110  the client went away; its reader sees the disconnect
            pass


def close_reason(text: str) -> str:
    """``text`` cut to the 123 bytes of UTF-8 a close frame holds, never inside a letter: a reason
    in Polish, Czech or Slovak has letters of two bytes, and a browser fails a socket whose close
    frame is longer."""
    return text.encode()[:123].decode(errors="ignore")


async def refuse(ws: WebSocket, error: str, code: int) -> None:
    """Tell a socket just accepted why it is refused, and close it."""
    await ws.send_json({"type": "error", "error": error})
    await ws.close(code=code, reason=close_reason(error))


async def texts(ws: WebSocket, out: Outbox, allow: Callable[[], bool]) -> AsyncIterator[str]:
    """The client's text messages until it goes or is closed here: a binary frame closes the socket
    (1003); a message past the client's rate limit (``allow``) is refused and closes it (1008). The
    messages of a dropped socket are read (for the rate limit and the disconnect) and ignored."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:  # a binary frame: the protocol is JSON text
            await out.close(UNSUPPORTED_DATA, "binary frames are not supported; send JSON text")
            return
        if not allow():  # every message counts, refused ones too
            out.send_json({"type": "error", "error": tr("too many messages; slow down")})
            # the lobby's page shows this reason (its other closes' reasons are code words for the logs)
            await out.close(POLICY_VIOLATION, close_reason(tr("too many messages; closed")))
            return
        if out.dropped is None:
            yield text


def credential(ws: WebSocket, name: str) -> str:
    """The secret ``name`` ("token", "key") a socket came with: the subprotocol ``<name>.<secret>``
    (the browser's way: the URL, which logs keep, holds no secret), else the X-Gammon-Token header
    (a token), else ``?<name>=`` (older clients)."""
    for offered in ws.scope.get("subprotocols", []):
        if offered.startswith(name + "."):
            return offered[len(name) + 1 :]
    if name == "token" and "x-gammon-token" in ws.headers:
        return ws.headers["x-gammon-token"]
    return ws.query_params.get(name, "")


async def accept(ws: WebSocket) -> None:
    """Accept the handshake, naming :data:`PROTOCOL` where the client offered it (a browser that
    offered subprotocols fails a handshake that names none of them)."""
    await ws.accept(subprotocol=PROTOCOL if PROTOCOL in ws.scope.get("subprotocols", []) else None)
