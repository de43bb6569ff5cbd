"""Pure ASGI middleware for the HTTP side: the request body limit, counted on the bytes read, and
the time the body may take to come."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gammon.i18n import tr
from gammon.web.sockets import close_reason


async def send_error(send: Send, status: int, message: str, scope: Scope | None = None) -> None:
    """Answer ``{"error": message}`` with ``status`` (the API's one error shape); to a WebSocket
    handshake (``scope``) as its HTTP denial where the server can send one, else by refusing it."""
    prefix = ""
    if scope is not None and scope["type"] == "websocket":
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008, "reason": close_reason(message)})
            return
        prefix = "websocket."
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    await send({"type": prefix + "http.response.start", "status": status, "headers": headers})
    await send({"type": prefix + "http.response.body", "body": body})


class BodyLimit:
    """Reads each HTTP request's body before the app sees it and answers 413 as soon as more than
    ``limit`` bytes have come, whatever Content-Length said (a chunked body has none); the rest is
    never read. The app then gets the body, already read, from a replaying ``receive``.
    ``larger`` gives some paths (exactly) a limit of their own: an upload's. A body that has not all
    come within ``timeout`` seconds of the request's headers is answered 408 (a client sending a
    byte now and then held its connection forever)."""

    def __init__(self, app: ASGIApp, limit: int, larger: Mapping[str, int] | None = None,
                 timeout: float = 30.0) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.limit)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and not (declared.isdigit() and int(declared) <= limit):
            shown = declared[:20].decode("latin-1") + ("..." if len(declared) > 20 else "")
            await send_error(send, 413, tr("request body of {size} bytes is over the limit of {limit}",
                                           size=repr(shown), limit=limit))
            return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # the client went away
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        await send_error(send, 413, tr("request body over the limit of {limit} bytes",
                                                       limit=limit))
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await send_error(send, 408, tr("the request's body did not all come within {seconds} s ({size} "
                                           "bytes came)",
                                           seconds=f"{self.timeout:g}", size=size))
            return
        pending: list[Message] = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> Any:
            # The body once, then the client's own messages (a disconnect) for whoever listens.
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)
