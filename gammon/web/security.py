"""What the browser is told, and whom the server believes: security headers on every response, the
Host header and a WebSocket's Origin checked, links built from a host the server knows, and seat
tokens kept out of the logs.

Hosts. A request whose Host header names neither this machine's loopback names, nor the address the
client connected to, nor a host the operator allows (``allowed_hosts``; the host of ``public_url``)
is refused with 400: links to matches are built from the Host header (or from ``public_url`` where
set), so a forged one cannot be copied into an invite, a redirect or a cached page, and a web page
whose name was made to point at a server here (DNS rebinding) cannot use it. A WebSocket whose
handshake names an Origin (browsers always do) must come from the page's own origin: a page
elsewhere cannot open a player's socket with the player's browser.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gammon.errors import cut
from gammon.i18n import tr
from gammon.web.middleware import send_error

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'none'")
"""The pages' Content-Security-Policy: their scripts and styles from their files here (none inline),
their fetches and WebSockets to this server only, and no page elsewhere may frame them."""
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def policy_with_scripts(html: str) -> str:
    """:data:`POLICY` that also lets run the inline scripts of ``html`` (exactly these, by hash):
    for a page made by a library, as /docs is."""
    hashes = [base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
              for script in re.findall(r"<script>(.*?)</script>", html, re.DOTALL)]
    allowed = " ".join(f"'sha256-{h}'" for h in hashes)
    return POLICY.replace("script-src 'self'", f"script-src 'self' {allowed}".rstrip())


class SecurityHeaders:
    """Pure ASGI middleware: :data:`HEADERS` on every HTTP response (and WebSocket refusal) that has
    not set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def host_name(host: str) -> str:
    """The name in a Host header or a URL's netloc, without its port or brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


class HostCheck:
    """Pure ASGI middleware: the Host header of every request and WebSocket handshake must be one the
    server knows (see the module's doc), and a WebSocket's Origin, where given, the page's own."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = (), public_url: str | None = None
                 ) -> None:
        self.app = app
        self.allowed = {host_name(h) for h in allowed_hosts}
        self.public = urlsplit(public_url) if public_url else None
        if self.public is not None and self.public.hostname:
            self.allowed.add(host_name(self.public.netloc))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            refused = self._refusal(scope)
            if refused is not None:
                await send_error(send, *refused, scope)
                return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and message of a refused request: 400 an unknown host, 403 a foreign page."""
        headers = {k.decode(): v.decode("latin-1") for k, v in scope.get("headers", [])
                   if k in (b"host", b"origin")}
        host = headers.get("host")
        if host is not None and not self._known(host_name(host), scope):
            return 400, tr("unknown host {host}: this server answers to its own address; its operator may "
                           "allow "
                           "other names (gammon serve --allowed-hosts, --public-url)",
                           host=cut(repr(host), 60))
        origin = headers.get("origin")
        if scope["type"] == "websocket" and origin is not None and not self._same_origin(origin, host):
            return 403, tr("a page of {origin} may not open this server's WebSockets",
                           origin=cut(repr(origin), 60))
        return None

    def _known(self, name: str, scope: Scope) -> bool:
        server = scope.get("server")
        return (name in LOOPBACK or name in self.allowed or "*" in self.allowed
                or (server is not None and name == str(server[0]).lower()))

    def _same_origin(self, origin: str, host: str | None) -> bool:
        netloc = origin_netloc(origin)
        if self.public is not None and netloc == self.public.netloc.lower():
            return True
        return bool(netloc) and host is not None and netloc == host.strip().lower()


def origin_netloc(origin: str) -> str:
    """The host and port an Origin header names, lower case; "" where it names none or cannot be
    read (``http://[`` is no URL: urlsplit raises)."""
    try:
        return urlsplit(origin).netloc.lower()
    except ValueError:
        return ""


def site_url(request: Request) -> str:
    """The server's URL for links (no trailing slash): the app's ``public_url`` where set, else the
    request's own (its Host header was checked by :class:`HostCheck`)."""
    public: str | None = getattr(request.app.state, "public_url", None)
    return (public or str(request.base_url)).rstrip("/")


class HideSecrets(logging.Filter):
    """Cuts the values of ``token`` and ``key`` out of the query strings that uvicorn's logs quote (an
    old client's seat token or watch key in a URL)."""

    _SECRET = re.compile(r"([?&](?:token|key)=)[^&\s\"]*")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(self._SECRET.sub(r"\1***", a) if isinstance(a, str) else a
                                for a in record.args)
        if isinstance(record.msg, str):
            record.msg = self._SECRET.sub(r"\1***", record.msg)
        return True
