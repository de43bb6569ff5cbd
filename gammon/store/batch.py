"""Group commit: the changes of many matches, queued from an event loop, stored in one transaction.

A server acknowledges an action only once it is stored; committing each action on its own makes
the database's commit the cost of every action. The writer thread takes everything queued while the
last commit ran and stores it in the next one, so under load one commit carries many actions, and
each caller still hears back only after its own actions are committed (or with the error that
refused them).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.store.repository import LogChange, Store

_Entry = tuple[str, "LogChange", asyncio.AbstractEventLoop, asyncio.Future]


class BatchWriter:
    """Appends to ``store`` from one thread, at most ``max_batch`` matches a transaction."""

    def __init__(self, store: Store, max_batch: int = 500) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[_Entry | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.commits = 0  # transactions so far (for the benchmark's report)

    async def append(self, match_id: str, change: LogChange) -> None:
        """Store ``change`` to the match's actions; returns once committed."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Exception | None] = loop.create_future()
        self._start()
        self._queue.put((match_id, change, loop, done))
        error = await done
        if error is not None:
            raise error

    def _start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="gammon-store-writer", daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Store what is queued, then stop the thread."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    entry = self._queue.get_nowait()
                except queue.Empty:
                    break
                if entry is None:
                    stop = True
                    break
                batch.append(entry)
            try:
                errors = self.store.append_batch([(m, c) for m, c, _, _ in batch])
                self.commits += 1
            except Exception as exc:  # the database is down: every caller hears of it
                errors = [exc] * len(batch)
            for (_, _, loop, future), error in zip(batch, errors, strict=True):
                loop.call_soon_threadsafe(_settle, future, error)
            if stop:
                return


def _settle(future: asyncio.Future, error: Exception | None) -> None:
    if not future.done():
        future.set_result(error)
