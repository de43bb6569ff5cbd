"""What an operator (or a test) may set of a server: one frozen record, checked as it is made."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gammon.errors import cut
from gammon.i18n import tr
from gammon.web.engine_pool import CALL_TIMEOUT
from gammon.web.presence import DEFAULT_AWAY_AFTER, DEFAULT_IDLE_AFTER
from gammon.web.sockets import DEFAULT_CAPS, DEFAULT_QUEUE, DEFAULT_SEND_TIMEOUT, SocketCaps

if TYPE_CHECKING:  # the hub reads these settings, and the members and the study import the hub
    from gammon.web.members import AccountSettings
    from gammon.web.study import StudySettings


@dataclass(frozen=True)
class ServerSettings:
    """The server's options.

    ``rate``/``burst`` limit the actions a second of one client address (every HTTP request and
    WebSocket handshake; hints to a tenth of that; apart, the messages of all its WebSockets, each
    socket closed past it: see gammon.web.limits). At most ``max_live`` idle matches are kept in
    memory. An online player may claim a game its opponent has left for ``away_after`` seconds while
    it had to act, or whose opponent has had one decision for ``idle_after`` seconds, connected or
    not. ``ws_per_seat``, ``ws_per_match`` and ``ws_per_address`` cap the WebSockets open
    at once (see SocketCaps). A socket whose client does not keep up, with ``ws_queue`` messages
    waiting or one waiting ``ws_send_timeout`` seconds to go, is dropped (see gammon.web.sockets). A
    request body must all come within ``body_timeout`` seconds (408). Links to matches start with
    ``public_url`` (the server's address as its users reach it) where given, else with the request's
    host, which must be a loopback name, the address connected to, or one of ``allowed_hosts``
    ("*": any); see gammon.web.security. ``engine_workers`` processes do the engine's work (the
    computer's actions above the random level, hints); ``warm`` starts them with the server rather
    than on the first engine call; a call still running after ``engine_timeout`` seconds has a
    stuck worker: the workers start afresh, the client gets 503. ``study``: the analysis and
    position pages' engine and job workers (gammon.web.study). ``accounts``: the profile's analyses
    and the sign-in throttle (gammon.web.members).
    """

    rate: float = 20.0
    burst: float = 40.0
    max_live: int = 5000
    away_after: float = DEFAULT_AWAY_AFTER
    idle_after: float = DEFAULT_IDLE_AFTER
    ws_per_seat: int = DEFAULT_CAPS.per_seat
    ws_per_match: int = DEFAULT_CAPS.per_match
    ws_per_address: int = DEFAULT_CAPS.per_address
    ws_queue: int = DEFAULT_QUEUE
    ws_send_timeout: float = DEFAULT_SEND_TIMEOUT
    body_timeout: float = 30.0
    public_url: str | None = None
    allowed_hosts: Iterable[str] = ()
    engine_workers: int = 1
    warm: bool = False
    engine_timeout: float = CALL_TIMEOUT
    study: StudySettings | None = field(default=None, compare=False)
    accounts: AccountSettings | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        """Refuse (ValueError) a rate or a count that is not a positive (whole) number, a time that
        is not positive, or a public URL with a query."""
        for name, value in {"rate": self.rate, "burst": self.burst}.items():
            # gammon serve --rate-limit: -5 refused every request (429), nan let every one through
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(tr("{name} must be a positive number, got {value}", name=name,
                                    value=cut(repr(value), 80)))
        counts = {
            "ws_per_seat": self.ws_per_seat,
            "ws_per_match": self.ws_per_match,
            "ws_per_address": self.ws_per_address,
            "ws_queue": self.ws_queue,
        }
        for name, cap in counts.items():
            if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
                raise ValueError(
                    tr("{name} must be a positive whole number, got {value}", name=name, value=repr(cap))
                )
        seconds = {
            "ws_send_timeout": self.ws_send_timeout,
            "body_timeout": self.body_timeout,
            "idle_after": self.idle_after,
            "engine_timeout": self.engine_timeout,
        }
        for name, value in seconds.items():
            if not value > 0:
                raise ValueError(
                    tr(
                        "{name} must be a positive number of seconds, got {value}",
                        name=name,
                        value=repr(value),
                    )
                )
        url = self.public_url
        if url is not None and not re.fullmatch(r"https?://[^/?#\s]+(/[^?#\s]*)?", url):
            # gammon serve's --public-url: its refusal is read at the terminal
            raise ValueError(
                tr("public_url must be an http(s) URL without query, got {url}", url=cut(repr(url), 80))
            )
        object.__setattr__(self, "allowed_hosts", tuple(self.allowed_hosts))  # a list given stays unshared

    @property
    def caps(self) -> SocketCaps:
        return SocketCaps(self.ws_per_seat, self.ws_per_match, self.ws_per_address)
