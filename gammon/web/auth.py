"""Who a request comes from: the session of a signed-in player, from its cookie or a bearer header,
and the checks that keep another site from using a player's cookie (CSRF).

Sessions. A browser's session token travels in the ``gammon_session`` cookie: HttpOnly (no script
reads it), SameSite=Lax (a cross-site request other than a top-level GET does not carry it), Path=/,
and Secure when the request came over https or the server's public URL is https. An API client
sends the token as ``Authorization: Bearer <token>`` instead; a header is never sent by a browser on
its own, so such requests need no CSRF check.

CSRF: signed double submit. With the session cookie, the server sets ``gammon_csrf`` (readable by
the pages' scripts), which is the HMAC-SHA256 of the session token (keyed by a constant label: the
session token is the secret). Every state-changing request made with the session cookie must send
it back in the ``X-CSRF-Token`` header; the server derives it again from the cookie and compares.
A page elsewhere can neither read the cookie nor derive the value, and a value planted in the
cookie jar (a sibling subdomain) does not match the real session. Sign-up and sign-in, which have
no session yet, check the Origin header instead (a browser always sends it on a cross-site POST): it
must be this server's own, so a page elsewhere cannot sign a visitor into an account of its choice.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Literal
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from gammon.accounts.errors import NotSignedInError
from gammon.errors import NotAuthorizedError, cut
from gammon.i18n import tr
from gammon.web.security import origin_netloc

SESSION_COOKIE = "gammon_session"
CSRF_COOKIE = "gammon_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_CSRF_LABEL = b"gammon csrf v1"

Via = Literal["bearer", "cookie"]


def csrf_token(session_token: str) -> str:
    """The CSRF value that goes with ``session_token``."""
    return hmac.new(_CSRF_LABEL, session_token.encode(), hashlib.sha256).hexdigest()


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def session_of(request: Request) -> tuple[str, Via] | None:
    """The session token of the request and how it came; with the cookie, a state-changing request
    must carry the right CSRF header (NotAuthorizedError). None: no session given."""
    token = bearer(request)
    if token is not None:
        return token, "bearer"
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    if request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), csrf_token(token).encode()):
            raise NotAuthorizedError(
                tr("this request needs the X-CSRF-Token header (the gammon_csrf cookie's value)")
            )
    return token, "cookie"


def socket_session(conn: HTTPConnection) -> str | None:
    """The session token a WebSocket's handshake carries (bearer header or cookie), or None. No
    CSRF check: the handshake is a GET, and a socket from a foreign Origin is refused anyway."""
    header = conn.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return conn.cookies.get(SESSION_COOKIE) or None


def required_session(request: Request) -> str:
    """The request's session token (NotSignedInError when none is given)."""
    found = session_of(request)
    if found is None:
        raise NotSignedInError(tr("not signed in"))
    return found[0]


def check_origin(request: Request) -> None:
    """Refuse (NotAuthorizedError) a request whose Origin header names another site."""
    origin = request.headers.get("origin")
    if origin is None:
        return  # not a browser's cross-site request: browsers send Origin on every POST
    netloc = origin_netloc(origin)
    public: str | None = getattr(request.app.state, "public_url", None)
    own = {request.headers.get("host", "").strip().lower()}
    if public:
        own.add(urlsplit(public).netloc.lower())
    if not netloc or netloc not in own:
        raise NotAuthorizedError(tr("a page of {origin} may not sign in here", origin=cut(repr(origin), 60)))


def secure(request: Request) -> bool:
    """Whether the cookies are for https only: the request came over https, or the server's public
    URL is https (a proxy in front ends TLS)."""
    public: str | None = getattr(request.app.state, "public_url", None)
    return request.url.scheme == "https" or bool(public and public.startswith("https:"))


def set_session(response: Response, request: Request, token: str, max_age: int) -> None:
    """Hand the browser its session (and the CSRF value that goes with it)."""
    https = secure(request)
    response.set_cookie(
        SESSION_COOKIE, token, max_age=max_age, path="/", httponly=True, samesite="lax", secure=https
    )
    response.set_cookie(
        CSRF_COOKIE,
        csrf_token(token),
        max_age=max_age,
        path="/",
        httponly=False,
        samesite="lax",
        secure=https,
    )


def clear_session(response: Response, request: Request) -> None:
    https = secure(request)
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        response.delete_cookie(name, path="/", secure=https, httponly=name == SESSION_COOKIE, samesite="lax")
