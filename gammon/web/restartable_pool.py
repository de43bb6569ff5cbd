"""A process pool that is made afresh once a worker dies: the engine pool's and the job runner's.

A :class:`~concurrent.futures.ProcessPoolExecutor` whose worker dies (killed, out of memory) is
broken for good: it ends every call it was running or holding with BrokenProcessPool and refuses
every later one. :class:`RestartablePool` holds one executor at a time, each with its own
:class:`~gammon.web.lifeline.Lifeline`, and a generation that counts the executors dropped: the
calls that failed together with one executor start one fresh executor between them, not one each.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

from gammon.web.lifeline import Lifeline

log = logging.getLogger(__name__)

STOP_GRACE = 5.0
"""Seconds a running call has to end when its pool is closed (at the server's stop)."""

Make = Callable[[Connection], ProcessPoolExecutor]
"""Makes an executor whose workers watch the lifeline read end it is given (see die_with_server)."""


def watch_new_workers(pool: ProcessPoolExecutor) -> None:
    """After a submit: have the pool's manager thread watch the worker the submit may have started.
    The executor wakes that thread before it starts the worker, so a worker started on demand and
    killed before anything else wakes the thread went unseen: its call never ended."""
    wakeup = getattr(pool, "_executor_manager_thread_wakeup", None)
    if wakeup is not None:
        try:
            wakeup.wakeup()
        except OSError:
            # a worker died since the submit: the manager thread has closed the wakeup pipe, after
            # failing every call it held (this one too) with BrokenProcessPool, which the caller
            # handles; Python 3.11's wakeup checks for the close without a lock
            pass


class RestartablePool:
    """The executor ``make`` makes, on first use and again after each :meth:`drop`; ``restarted``
    is logged (a warning) each time a broken one is dropped."""

    def __init__(self, make: Make, restarted: str) -> None:
        self._make = make
        self._restarted = restarted
        self._executor: ProcessPoolExecutor | None = None
        self._lifeline: Lifeline | None = None
        self._generation = 0
        self._closed: set[int] = set()  # the generations ended by close, not broken
        # close runs in a thread (the server's shutdown), calls on the event loop or in relay threads
        self._lock = threading.Lock()

    @property
    def executor(self) -> ProcessPoolExecutor | None:
        """The executor now, None before the first use and after a drop or close."""
        return self._executor

    def current(self, make: Make | None = None) -> tuple[ProcessPoolExecutor, int]:
        """The executor and its generation; made now (by ``make`` where given) if there is none."""
        with self._lock:
            if self._executor is None:
                self._lifeline = Lifeline()  # the workers end with this process, even killed outright
                self._executor = (make or self._make)(self._lifeline.reader)
            return self._executor, self._generation

    def submit(self, fn: Callable[..., Any], *args: Any) -> tuple[Future[Any], int]:
        """``fn(*args)`` given to the executor, and the executor's generation (for :meth:`drop`).
        An executor broken already gives a future failed with BrokenProcessPool, as one that
        breaks while it runs the call does: the caller has one case to handle."""
        pool, generation = self.current()
        try:
            future = pool.submit(fn, *args)
        except BrokenProcessPool as e:
            future = Future()
            future.set_exception(e)
            return future, generation
        watch_new_workers(pool)
        return future, generation

    def drop(self, generation: int, kill: bool = False) -> ProcessPoolExecutor | None:
        """Take away the executor of ``generation`` (broken: it refuses every call from then on) so
        that the next call makes a fresh one; None when another call did already. ``kill``: its
        workers are killed first (one is stuck: it would never take the executor's stop). The
        caller shuts the executor returned down (see :func:`retire`)."""
        with self._lock:
            if generation != self._generation or self._executor is None:
                return None
            self._generation += 1
            broken, self._executor = self._executor, None
            lifeline, self._lifeline = self._lifeline, None
        if kill:
            # its other calls fail with BrokenProcessPool, as when a worker dies: their callers
            # ask the fresh executor again
            kill_workers(broken)
        if lifeline is not None:
            lifeline.close()
        log.warning(self._restarted)
        return broken

    def was_closed(self, generation: int) -> bool:
        """Whether the executor of ``generation`` was closed (its calls failed or were cancelled
        for that): they are not made again, which would start a fresh executor nobody closes."""
        with self._lock:
            return generation in self._closed

    def close(self) -> None:
        """Stop the workers, and wait for them: a worker left behind keeps the fork server alive.
        A call still running after :data:`STOP_GRACE` seconds has its worker killed (a stuck one
        kept the server's stop waiting for ever). A later call starts a fresh executor."""
        with self._lock:
            executor, self._executor = self._executor, None
            lifeline, self._lifeline = self._lifeline, None
            if executor is not None:
                self._closed.add(self._generation)
            self._generation += 1
        if executor is not None:
            stop(executor, STOP_GRACE)
        if lifeline is not None:
            lifeline.close()


def kill_workers(executor: ProcessPoolExecutor) -> None:
    """Kill the executor's workers outright (SIGKILL: a worker stuck in a compiled loop holding
    the GIL would not see its lifeline close)."""
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        process.kill()


def stop(executor: ProcessPoolExecutor, grace: float) -> None:
    """Shut ``executor`` down: its queued calls cancelled, its running ones given ``grace`` seconds
    to end before their workers are killed; returns once its workers and threads are gone."""
    processes = list((getattr(executor, "_processes", None) or {}).values())  # shutdown forgets them
    manager = getattr(executor, "_executor_manager_thread", None)  # it ends once every worker has
    executor.shutdown(wait=False, cancel_futures=True)
    if manager is not None:
        manager.join(grace)
        if manager.is_alive():
            for process in processes:
                process.kill()
            manager.join()


def retire(executor: ProcessPoolExecutor) -> None:
    """Shut a dropped executor down: its workers are gone already, this joins its threads."""
    executor.shutdown(wait=True, cancel_futures=True)
