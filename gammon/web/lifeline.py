"""Processes that end with the process they work for, however it ends (``kill -9`` too).

The engine pool's and the job runner's processes start from a fork server, so their parent is the
fork server, not the server; and the fork server lives on as long as any of them does. Nothing in
them noticed a server killed outright: they ran on, hundreds of MB each, with nobody to serve.
(Linux's ``PR_SET_PDEATHSIG`` signals a process when its *parent* ends, here the fork server,
which outlives the server, so it does not help there.)

A :class:`Lifeline` is a pipe whose write end only the server holds and never writes to. Each
worker gets the read end (:func:`die_with_server`, its initializer) and a thread there waits on
it. When the server ends, the kernel closes its end and the read returns; the worker exits at once.
Once every worker is gone, the fork server and multiprocessing's resource tracker end too.

The server processes of ``gammon serve --workers N`` are the direct children of uvicorn's
supervisor; :func:`die_with_parent` ends one with it (``PR_SET_PDEATHSIG`` on Linux, a thread
watching the parent's pid elsewhere), and its workers follow through their lifelines.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

EXIT_STATUS = 70
"""A worker's exit status when its server is gone (EX_SOFTWARE: nothing failed in the worker)."""


class Lifeline:
    """In the server: the pipe its workers watch. Give :attr:`reader` to each worker (in its
    initializer's arguments: it is passed to a worker as it starts); :meth:`close` it only after
    the workers were stopped (closing it stops the ones still running)."""

    def __init__(self) -> None:
        # Only the read end is sent to a worker (and pipes are not inherited): nothing but this
        # process holds the write end, so the kernel closes it exactly when this process ends.
        self.reader, self._writer = multiprocessing.Pipe(duplex=False)

    def close(self) -> None:
        self._writer.close()
        self.reader.close()


def die_with_server(reader: Connection, then: Callable[..., Any] | None = None, *args: Any) -> None:
    """A worker's initializer: exit as soon as the server holding ``reader``'s pipe is gone, then
    run the worker's own initializer ``then(*args)``."""
    threading.Thread(target=_watch, args=(reader,), name="gammon-lifeline", daemon=True).start()
    if then is not None:
        then(*args)


def _watch(reader: Connection) -> None:
    try:
        reader.recv_bytes()  # nothing is ever sent: this returns only when the server is gone
    except (EOFError, OSError):
        pass
    os._exit(EXIT_STATUS)  # at once: no clean-up, the work is for nobody now


def die_with_parent(parent: int, interval: float = 1.0) -> None:
    """End this process as soon as its parent, pid ``parent``, ends: at once (SIGKILL from the
    kernel) on Linux, else within ``interval`` seconds through a thread watching the parent's pid."""
    if not _parent_death_signal(signal.SIGKILL):
        threading.Thread(target=watch_parent, args=(parent, interval), name="gammon-parent-watch",
                         daemon=True).start()
    if os.getppid() != parent:  # it ended before the signal was set: nothing would send it
        os._exit(EXIT_STATUS)


def watch_parent(parent: int, interval: float) -> None:
    """Exit once this process's parent is no longer ``parent`` (it ended; the process was given
    to another)."""
    while os.getppid() == parent:
        time.sleep(interval)
    os._exit(EXIT_STATUS)


def _parent_death_signal(signum: int) -> bool:
    """Ask Linux to send ``signum`` to this process when its parent ends; False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(1, signum, 0, 0, 0)) == 0  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return False
