"""The job registry of the study pages: progress, results, failures, cancellation and forgetting."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future
from typing import Any

import pytest

from gammon.errors import InvalidNotationError
from gammon.web.jobs import JobCancelled, Jobs, ProcessRunner, Progress, ThreadRunner, UnknownJobError, Work
from tests.web.conftest import Clock


class NowRunner:
    """Runs the work at once, in the caller's thread, as a runner would (progress(0, 0) first)."""

    def submit(self, work: Work, progress: Progress) -> Future[dict[str, Any]]:
        future: Future[dict[str, Any]] = Future()
        try:
            progress(0, 0)
            future.set_result(work(progress))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def shutdown(self) -> None:
        pass


def _steps(n: int) -> Work:
    def work(progress: Progress) -> dict[str, Any]:
        for i in range(1, n + 1):
            progress(i, n, {"step": i})
        return {"steps": n}
    return work


def test_a_job_reports_its_progress_then_its_result() -> None:
    jobs = Jobs(NowRunner())
    job = jobs.start("test", "a", _steps(3))
    assert job.to_dict() == {"id": job.id, "kind": "test", "status": "done", "done": 3, "total": 3,
                             "detail": {"step": 3}, "result": {"steps": 3}}


def test_a_failing_job_says_why_only_for_the_errors_of_its_input() -> None:
    def bad(progress: Progress) -> dict[str, Any]:
        raise InvalidNotationError("line 3: 'zz' is not a move")

    def broken(progress: Progress) -> dict[str, Any]:
        raise RuntimeError("/secret/path exploded")

    jobs = Jobs(NowRunner())
    assert jobs.start("test", "a", bad).to_dict()["error"] == "line 3: 'zz' is not a move"
    failed = jobs.start("test", "a", broken).to_dict()
    assert failed["status"] == "failed" and failed["error"] == "the job failed"


def test_a_cancelled_job_stops_at_its_next_progress_report() -> None:
    jobs = Jobs(ThreadRunner())
    reached: list[int] = []
    go = threading.Event()

    def slow(progress: Progress) -> dict[str, Any]:
        for i in range(100):
            progress(i, 100)
            reached.append(i)
            go.wait(5)
        return {}

    job = jobs.start("test", "a", slow)
    while not reached:
        time.sleep(0.01)
    jobs.cancel(job.id)
    go.set()
    jobs.runner.shutdown()
    assert job.status == "cancelled"
    time.sleep(0.2)
    assert len(reached) <= 2 and job.result is None


def _slow_steps(progress: Progress) -> dict[str, Any]:  # module level: sent to a worker process
    for i in range(400):
        progress(i, 400, {"pid": os.getpid()})
        time.sleep(0.05)
    return {"finished": True}


def test_a_process_runner_relays_progress_and_stops_a_cancelled_job() -> None:
    runner = ProcessRunner()
    seen: list[tuple[int, int, Any]] = []

    def progress(done: int, total: int, detail: dict[str, Any] | None = None) -> None:
        seen.append((done, total, detail))
        if len(seen) > 3:
            raise JobCancelled  # as Jobs' progress does once the job is cancelled

    try:
        future = runner.submit(_slow_steps, progress)
        with pytest.raises(JobCancelled):
            future.result(timeout=120)  # the worker stops at its next report, long before 400
        assert seen[0] == (0, 0, None) and seen[1] == (0, 400, seen[1][2])
        assert seen[1][2]["pid"] != os.getpid()  # the work ran in another process
        assert 4 <= len(seen) <= 6
        assert runner.submit(_two_steps, lambda *report: None).result(timeout=60) == {"steps": 2}
    finally:
        runner.shutdown()


def _many_quick_steps(progress: Progress) -> dict[str, Any]:
    for i in range(1, 301):
        progress(i, 300)
    return {"steps": 300}


def test_a_process_job_ends_after_its_last_report() -> None:
    # The reports come through a queue: a job that reports fast ends while reports are in flight,
    # and none of them may come after its end (Jobs would show the job running again).
    runner = ProcessRunner()
    seen: list[int] = []

    def slow_progress(done: int, total: int, detail: Any = None) -> None:
        time.sleep(0.002)
        seen.append(done)

    try:
        future = runner.submit(_many_quick_steps, slow_progress)
        at_end: list[int] = []
        future.add_done_callback(lambda _: at_end.append(len(seen)))
        assert future.result(timeout=120) == {"steps": 300}
        assert at_end == [301]  # progress(0, 0), then each of the 300 reports, then the end
    finally:
        runner.shutdown()


def _two_steps(progress: Progress) -> dict[str, Any]:
    progress(1, 2)
    progress(2, 2)
    return {"steps": 2}


def test_finished_jobs_are_forgotten_after_a_while_and_beyond_a_number() -> None:
    clock = Clock()
    jobs = Jobs(NowRunner(), per_client=1, keep=3, keep_for=60, clock=clock)
    first = jobs.start("test", "a", _steps(1))
    clock.now += 61
    # one client may start them one after another: each is done at once; old ones are forgotten as
    # a new one starts
    later = [jobs.start("test", "a", _steps(1)) for _ in range(5)]
    with pytest.raises(UnknownJobError):
        jobs.get(first.id)
    with pytest.raises(UnknownJobError):
        jobs.get(later[0].id)  # the oldest beyond the three kept when the last one started
    assert [jobs.get(j.id).status for j in later[1:]] == ["done"] * 4
