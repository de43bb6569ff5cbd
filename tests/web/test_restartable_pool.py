"""The restart rule the engine pool and the job runner share: one fresh executor for all the calls
that failed with a broken one."""

from __future__ import annotations

import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection

import pytest

from gammon.web.lifeline import die_with_server
from gammon.web.restartable_pool import RestartablePool, retire, watch_new_workers


def _make(lifeline: Connection) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(1, initializer=die_with_server, initargs=(lifeline,))


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_the_calls_that_failed_with_one_executor_start_one_fresh_executor(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pool = RestartablePool(_make, "the test's workers start again")
    try:
        failed, generation = pool.submit(_die)
        with pytest.raises(BrokenProcessPool):
            failed.result(timeout=60)
        refused, same = pool.submit(os.getpid)  # the broken executor refuses: a failed future
        assert same == generation
        with pytest.raises(BrokenProcessPool):
            refused.result(timeout=60)
        with caplog.at_level("WARNING", logger="gammon.web.restartable_pool"):
            broken = pool.drop(generation)
            assert broken is not None and pool.drop(same) is None  # the second caller's: done already
        retire(broken)
        assert [r.getMessage() for r in caplog.records] == ["the test's workers start again"]
        answer, fresh = pool.submit(os.getpid)
        assert answer.result(timeout=60) != os.getpid() and fresh == generation + 1
    finally:
        pool.close()


class _ClosedWakeup:
    """The manager thread's wakeup pipe closed between Python 3.11's check for the close and the
    write: what a submit met when a worker died just after it (seen once under load)."""

    def wakeup(self) -> None:
        raise OSError(9, "Bad file descriptor")


class _BrokenMidSubmit:
    _executor_manager_thread_wakeup = _ClosedWakeup()


def test_a_worker_dying_just_after_a_submit_fails_the_call_not_the_submit() -> None:
    watch_new_workers(_BrokenMidSubmit())  # type: ignore[arg-type]  # no error: the call's future fails
    pool = ProcessPoolExecutor(1)
    try:
        future = pool.submit(_die)
        with pytest.raises(BrokenProcessPool):
            future.result(timeout=60)
        watch_new_workers(pool)  # the broken executor's pipe closed: nothing to wake, no error
    finally:
        pool.shutdown(wait=True)
