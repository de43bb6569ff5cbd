"""Live updates across server processes: PostgreSQL's LISTEN on the channel the store notifies on
each commit (``"<match id> <version>"``, comma-separated; see
:meth:`gammon.store.Store.append_batch`)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)
CHANNEL = "gammon"


class Listener:
    """Calls ``on_change(match_id, version)`` from its own thread for each notification on the
    database at ``url`` (a PostgreSQL URL); reconnects after losing the connection."""

    def __init__(self, url: str, on_change: Callable[[str, int], None]) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.on_change = on_change
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gammon-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once the LISTEN is in place (so no later commit is missed)."""
        self._thread.start()
        self._ready.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            for change in note.payload.split(","):
                                match_id, _, version = change.partition(" ")
                                if version.isdigit():
                                    self.on_change(match_id, int(version))
            except Exception:  # the database went away: try again shortly (a missed update is
                log.exception("LISTEN %s failed; reconnecting", CHANNEL)  # caught on the next action)
                time.sleep(1.0)
