"""Messages between server processes through PostgreSQL's LISTEN/NOTIFY.

Live updates: :class:`Listener` hears the channel the store notifies on each commit (``"<match id>
<version>"``, comma-separated; see :meth:`gammon.store.Store.append_batch`). Presence (who has a
socket open; gammon.web.presence): :class:`Publisher` and :class:`Subscriber` on
:data:`PRESENCE_CHANNEL`; the lobby's changes (gammon.web.lobby) alike on :data:`LOBBY_CHANNEL`.
"""

from __future__ import annotations

import logging
import queue
import select
import socket
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)
CHANNEL = "gammon"
PRESENCE_CHANNEL = "gammon_presence"
LOBBY_CHANNEL = "gammon_lobby"
SEATS_CHANNEL = "gammon_seats"
POLL = 5.0
"""Seconds a subscriber waits on its connection before it looks again (its close wakes it at once)."""


def _libpq_url(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


class Subscriber:
    """Calls ``on_message(payload)`` from its own thread for each notification on ``channel`` of
    the database at ``url`` (a PostgreSQL URL); reconnects after losing the connection."""

    def __init__(
        self,
        url: str,
        channel: str,
        on_message: Callable[[str], None],
        on_reconnect: Callable[[], None] | None = None,
    ) -> None:
        """``on_reconnect()``: called (from its thread) each time it listens again after losing the
        connection, the notifications meanwhile lost: its user looks again at what they told."""
        self.url = _libpq_url(url)
        self.channel = channel
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self._stop = threading.Event()
        self._ready = threading.Event()
        # close() writes a byte here to wake the thread at once: a server stopping closes several
        # subscribers one after another, and each waiting out a poll of the socket added up to
        # seconds.
        self._wake, self._waker = socket.socketpair()
        self._thread = threading.Thread(target=self._run, name=f"{channel}-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once the LISTEN is in place (so no later message is missed)."""
        self._thread.start()
        self._ready.wait(timeout)

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self._waker.send(b"x")
        self._thread.join(5)
        if not self._thread.is_alive():  # (one stuck in on_message would find its socket closed)
            self._wake.close()
            self._waker.close()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {self.channel}")
                    again = self._ready.is_set()
                    self._ready.set()
                    if again and self.on_reconnect is not None:
                        self.on_reconnect()
                    while not self._stop.is_set():
                        # what has come (those that came with the LISTEN's answer first), without waiting
                        for note in conn.notifies(timeout=0):
                            self.on_message(note.payload)
                        select.select([conn.fileno(), self._wake.fileno()], [], [], POLL)
            except Exception:  # the database went away: try again shortly (what was missed
                log.exception("LISTEN %s failed; reconnecting", self.channel)  # is looked at again)
                self._stop.wait(1.0)


SEATS = "seats"
"""``"<match id> seats <sender>"``: the match's seats' accounts, or whether it is rated, changed (the
sender: the store that told it, which knows already; none: every process reads them again)."""


class Listener(Subscriber):
    """Calls ``on_change(match_id, version)`` from its own thread for each commit another
    process (or this one) notifies on :data:`CHANNEL`, and ``on_seats(match_id, sender)`` for each
    :data:`SEATS` notice (:meth:`gammon.store.Store.notify_seats`; sender "" when none is named)."""

    def __init__(
        self,
        url: str,
        on_change: Callable[[str, int], None],
        on_seats: Callable[[str, str], None] | None = None,
        on_reconnect: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(url, CHANNEL, self._changes, on_reconnect)
        self.on_change = on_change
        self.on_seats = on_seats

    def _changes(self, payload: str) -> None:
        for change in payload.split(","):
            match_id, _, version = change.partition(" ")
            if version.isdigit():
                self.on_change(match_id, int(version))
            else:
                word, _, sender = version.partition(" ")
                if word == SEATS and self.on_seats is not None:
                    self.on_seats(match_id, sender)


class Publisher:
    """Sends notifications on ``channel`` from its own thread and connection, in the order given;
    :meth:`send` never waits on the database. Messages sent while the database is away are lost
    (their senders repeat what matters)."""

    def __init__(self, url: str, channel: str) -> None:
        self.url = _libpq_url(url)
        self.channel = channel
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=f"{channel}-notify", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def send(self, payload: str) -> None:
        self._queue.put(payload)

    def close(self) -> None:
        """Send what is queued, then stop."""
        self._queue.put(None)
        self._thread.join(5)

    def _run(self) -> None:
        import psycopg

        conn: psycopg.Connection | None = None
        while (payload := self._queue.get()) is not None:
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self.url, autocommit=True)
                conn.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))
            except Exception:
                log.exception("NOTIFY %s failed; the message is lost", self.channel)
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()
