"""The job registry of the study pages: progress, results, failures, cancellation and forgetting."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

import pytest

from gammon.errors import InvalidNotationError
from gammon.web.jobs import (
    JobCancelled,
    Jobs,
    ProcessRunner,
    Progress,
    ThreadRunner,
    TooManyJobsError,
    UnknownJobError,
    Work,
)
from tests.helpers import process_alive
from tests.web.conftest import Clock


class NowRunner:
    """Runs the work at once, in the caller's thread, as a runner would (progress(0, 0) first)."""

    workers = 1

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
    assert job.to_dict() == {
        "id": job.id,
        "kind": "test",
        "status": "done",
        "done": 3,
        "total": 3,
        "detail": {"step": 3},
        "result": {"steps": 3},
    }


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


def _one_long_step(progress: Progress) -> dict[str, Any]:  # a rollout's batch: no report for long
    progress(0, 1)
    time.sleep(60)
    progress(1, 1)
    return {"finished": True}


def test_a_process_job_cancelled_as_it_starts_stops_before_its_work() -> None:
    # Told at the cancel, not once its first report has come back: by then the worker was often
    # well into the first batch of its work (a rollout's 216 trials), which another job waited on.
    jobs = Jobs(ProcessRunner())
    try:
        job = jobs.start("test", "a", _one_long_step)
        jobs.cancel(job.id)
        deadline = time.monotonic() + 30
        while job.finished is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert job.status == "cancelled" and job.finished is not None and job.done == 0
    finally:
        jobs.shutdown()


def test_a_process_runner_stops_a_job_when_told_without_a_report_first() -> None:
    runner = ProcessRunner()
    seen: list[int] = []
    try:
        future = runner.submit(_slow_steps, lambda done, *_: seen.append(done))  # never raises
        runner.stop(future)
        with pytest.raises(JobCancelled):
            future.result(timeout=120)
        assert len(seen) <= 3  # (0, 0), perhaps (0, 400) and a first step: not the 400
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
    jobs = Jobs(NowRunner(), per_client=1, keep=3, keep_per_client=3, keep_for=60, clock=clock)
    first = jobs.start("test", "a", _steps(1))
    clock.now += 61
    # one client may start them one after another: each is done at once; old ones are forgotten as
    # a new one starts or ends
    later = [jobs.start("test", "a", _steps(1)) for _ in range(5)]
    with pytest.raises(UnknownJobError):
        jobs.get(first.id)
    for gone in later[:2]:  # the oldest beyond the three kept
        with pytest.raises(UnknownJobError):
            jobs.get(gone.id)
    assert [jobs.get(j.id).status for j in later[2:]] == ["done"] * 3


def test_one_clients_finished_jobs_do_not_push_out_the_others_results() -> None:
    """55 jobs failing at once from one address took another client's finished rollout with them."""
    clock = Clock()
    jobs = Jobs(NowRunner(), per_client=1, keep=8, keep_per_client=3, keep_for=3600, clock=clock)
    theirs = jobs.start("test", "b", _steps(1))
    mine = []
    for _ in range(55):
        clock.now += 1
        mine.append(jobs.start("test", "a", _steps(1)))
    assert jobs.get(theirs.id).status == "done"
    assert [jobs.get(j.id).status for j in mine[-3:]] == ["done"] * 3  # the client's newest three
    with pytest.raises(UnknownJobError):
        jobs.get(mine[-4].id)
    for client in "cdefg":  # past the cap of all: the oldest go, whoever started them
        clock.now += 1
        jobs.start("test", client, _steps(1))
    jobs.start("test", "h", _steps(1))
    with pytest.raises(UnknownJobError):
        jobs.get(theirs.id)
    assert sum(j.finished is not None for j in jobs.jobs.values()) <= 8


def _result_of(size: int) -> Work:
    def work(progress: Progress) -> dict[str, Any]:
        return {"text": "x" * size}

    return work


def test_the_kept_results_are_bounded_in_bytes_the_newest_always_kept() -> None:
    """Each finished analysis of a long match kept its result (a megabyte or more) for an hour: 200
    of them held nearly a gigabyte of the server's memory."""
    clock = Clock()
    jobs = Jobs(NowRunner(), per_client=1, keep=200, keep_per_client=10, keep_for=3600,
                keep_bytes=25_000, clock=clock)
    made = []
    for client in "abcd":  # 10,000 bytes each: the newest two fit, a third would not
        clock.now += 1
        made.append(jobs.start("test", client, _result_of(10_000)))
    assert [j.id in jobs.jobs for j in made] == [False, False, True, True]
    assert jobs.get(made[-1].id).result == {"text": "x" * 10_000}
    clock.now += 1
    huge = jobs.start("test", "e", _result_of(100_000))  # alone past the bound: the newest stays
    assert jobs.get(huge.id).status == "done" and list(jobs.jobs) == [huge.id]


class OneWorker:
    """One worker that runs the work given to it in order (first come, first served), each only
    when the test calls ``step()``; ``started`` names the work it ran."""

    workers = 1

    def __init__(self) -> None:
        self.given: list[tuple[Work, Progress, Future[dict[str, Any]]]] = []
        self.started: list[str] = []

    def submit(self, work: Work, progress: Progress) -> Future[dict[str, Any]]:
        future: Future[dict[str, Any]] = Future()
        self.given.append((work, progress, future))
        return future

    def step(self) -> None:
        work, progress, future = self.given.pop(0)
        try:
            progress(0, 0)
            future.set_result(work(progress))
        except Exception as exc:
            future.set_exception(exc)

    def shutdown(self) -> None:
        pass


def _named(runner: OneWorker, name: str) -> Work:
    def work(progress: Progress) -> dict[str, Any]:
        runner.started.append(name)
        progress(1, 1)
        return {"name": name}

    return work


def test_a_cancelled_job_never_starts_and_counts_until_its_worker_is_free() -> None:
    """Start-and-cancel from one client: the jobs cancelled while they wait never reach a worker,
    and the one that holds the worker counts against the client's limit until its work stops."""
    runner = OneWorker()
    jobs = Jobs(runner, per_client=2, max_active=16)
    first = jobs.start("test", "a", _named(runner, "a0"))
    for k in range(1, 13):
        jobs.cancel(jobs.start("test", "a", _named(runner, f"a{k}")).id)
    jobs.cancel(first.id)
    assert first.status == "cancelled" and len(runner.given) == 1  # only the first reached the worker
    jobs.start("test", "a", _named(runner, "a13"))
    with pytest.raises(TooManyJobsError, match="you have 2 jobs running already"):
        jobs.start("test", "a", _named(runner, "a14"))  # the cancelled first still holds the worker
    later = jobs.start("test", "b", _named(runner, "b0"))
    runner.step()  # the first's work stops at its first report: the worker is free
    assert runner.started == [] and first.status == "cancelled" and first.finished is not None
    jobs.start("test", "a", _named(runner, "a15"))
    while runner.given:
        runner.step()
    assert runner.started == ["b0", "a13", "a15"] and later.status == "done"  # b had not had a turn


def test_the_worker_goes_round_the_clients_not_first_come_first_served() -> None:
    runner = OneWorker()
    jobs = Jobs(runner, per_client=3)
    for name in ("a0", "a1", "a2", "b0", "b1", "c0"):
        jobs.start("test", name[0], _named(runner, name))
    while runner.given:
        runner.step()
    assert runner.started == ["a0", "b0", "c0", "a1", "b1", "a2"]


def test_a_job_says_how_many_wait_before_it_and_how_long_it_has_left() -> None:
    clock = Clock()
    runner = OneWorker()
    jobs = Jobs(runner, per_client=3, clock=clock)
    running = jobs.start("test", "a", _steps(1))
    queued = [jobs.start("test", client, _steps(1)) for client in "aab"]
    assert [jobs.view(j)["ahead"] for j in queued] == [1, 2, 0]  # b first: a has the worker
    _, progress, _ = runner.given[0]
    progress(0, 0)
    progress(0, 400)  # the work knows its size
    assert "seconds_left" not in jobs.view(running) and "ahead" not in jobs.view(running)
    clock.now += 30
    progress(100, 400)
    assert jobs.view(running)["seconds_left"] == 90  # 300 more at 100 in 30 s
    clock.now += 30
    progress(300, 400)
    assert jobs.view(running)["seconds_left"] == 20  # 300 in 60 s: 100 more in 20
    assert "seconds_left" not in jobs.view(queued[0])


class BrokenRunner(OneWorker):
    """A runner whose pool broke (its worker was killed): it refuses new work."""

    def submit(self, work: Work, progress: Progress) -> Future[dict[str, Any]]:
        raise RuntimeError("A process in the process pool was terminated abruptly")


def test_a_job_the_runner_refuses_fails_and_frees_its_place() -> None:
    jobs = Jobs(BrokenRunner(), per_client=1)
    for _ in range(3):
        job = jobs.start("test", "a", _steps(1))
        assert jobs.view(job) == {
            "id": job.id,
            "kind": "test",
            "status": "failed",
            "done": 0,
            "total": 0,
            "error": "the job failed",
        }


# ---- a job worker that dies --------------------------------------------------------------------


def _die(progress: Progress) -> dict[str, Any]:
    """Kills its worker outright, as ``kill -9`` or the kernel's OOM killer would."""
    import signal

    os.kill(os.getpid(), signal.SIGKILL)
    return {}


def _pid(progress: Progress) -> dict[str, Any]:
    return {"pid": os.getpid()}


def _until(flag: str, progress: Progress) -> dict[str, Any]:
    """Reports its worker's pid, then works until the file ``flag`` exists."""
    progress(0, 1, {"pid": os.getpid()})
    while not os.path.exists(flag):
        time.sleep(0.01)
    return {"pid": os.getpid()}


def _wait_for(check: Any, seconds: float = 180.0) -> None:  # starting workers on a loaded machine
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.02)


def test_a_job_that_kills_its_worker_fails_saying_so_and_the_next_jobs_run() -> None:
    jobs = Jobs(ProcessRunner(1))
    try:
        poison = jobs.start("test", "a", _die)
        _wait_for(lambda: poison.finished is not None)
        assert poison.status == "failed"
        assert "worker stopped twice" in jobs.view(poison)["error"]
        after = [jobs.start("test", c, _pid) for c in ("a", "b")]
        _wait_for(lambda: all(j.finished is not None for j in after))
        assert [j.status for j in after] == ["done", "done"], [j.error for j in after]
    finally:
        jobs.shutdown()


def test_a_job_whose_worker_is_killed_runs_again_once_and_the_queued_job_runs_once(tmp_path) -> None:
    import signal

    flag = str(tmp_path / "go")
    runs: dict[str, list[int]] = {}

    jobs = Jobs(ProcessRunner(1))
    real_progress = jobs._progress

    def progress(job: Any, done: int, total: int, detail: dict[str, Any] | None = None) -> None:
        if detail is not None:
            runs.setdefault(job.id, []).append(detail["pid"])  # one report a run of the work
        real_progress(job, done, total, detail)

    jobs._progress = progress  # type: ignore[method-assign]
    try:
        running = jobs.start("test", "a", partial(_until, flag))
        queued = jobs.start("test", "b", partial(_until, flag))  # waits for the one worker
        _wait_for(lambda: len(runs.get(running.id, [])) == 1)
        os.kill(runs[running.id][0], signal.SIGKILL)
        _wait_for(lambda: len(runs.get(running.id, [])) == 2)  # from the start, on a fresh worker
        open(flag, "w").close()
        _wait_for(lambda: running.finished is not None and queued.finished is not None)
        assert [running.status, queued.status] == ["done", "done"], [running.error, queued.error]
        assert running.result == {"pid": runs[running.id][1]} and queued.result == {"pid": runs[queued.id][0]}
        assert (len(runs[running.id]), len(runs[queued.id])) == (2, 1)  # neither lost nor run twice over
    finally:
        jobs.shutdown()


def test_a_killed_worker_started_on_demand_is_seen_and_both_jobs_run_again(tmp_path) -> None:
    # The pool starts its second worker with the second job, after waking the thread that watches
    # its workers: killed, that worker went unseen and both jobs waited for ever.
    import signal

    flag = str(tmp_path / "go")
    runs: dict[str, list[int]] = {}
    jobs = Jobs(ProcessRunner(2))
    real_progress = jobs._progress

    def progress(job: Any, done: int, total: int, detail: dict[str, Any] | None = None) -> None:
        if detail is not None:
            runs.setdefault(job.id, []).append(detail["pid"])
        real_progress(job, done, total, detail)

    jobs._progress = progress  # type: ignore[method-assign]
    try:
        first, second = (jobs.start("test", c, partial(_until, flag)) for c in ("a", "b"))
        _wait_for(lambda: len(runs.get(first.id, [])) == 1 and len(runs.get(second.id, [])) == 1)
        pool = jobs.runner._workers.executor  # type: ignore[attr-defined]
        os.kill(list(pool._processes)[-1], signal.SIGKILL)  # the worker started last, on demand
        _wait_for(lambda: len(runs[first.id]) == 2 and len(runs[second.id]) == 2, 60.0)
        open(flag, "w").close()
        _wait_for(lambda: first.finished is not None and second.finished is not None)
        assert [first.status, second.status] == ["done", "done"], [first.error, second.error]
    finally:
        jobs.shutdown()


# ---- the server's stop -------------------------------------------------------------------------


def _spins(progress: Progress) -> dict[str, Any]:
    """Reports its worker's pid, then never reports again (stuck in a loop)."""
    progress(0, 1, {"pid": os.getpid()})
    while True:
        pass


def test_the_runners_shutdown_stops_a_stuck_job_and_starts_no_fresh_pool() -> None:
    # The shutdown waited for the job's next report, for ever; once it no longer did, the job's
    # killed worker was taken for one that died and its job made again on a fresh pool.
    jobs = Jobs(ProcessRunner(1))
    job = jobs.start("test", "a", _spins)
    _wait_for(lambda: job.detail is not None)
    assert job.detail is not None
    stopping = threading.Thread(target=jobs.shutdown, daemon=True)
    stopping.start()
    stopping.join(120)
    assert not stopping.is_alive(), "the shutdown waited on the stuck job"
    assert not process_alive(job.detail["pid"])
    _wait_for(lambda: job.finished is not None)
    assert job.status == "cancelled"
    assert jobs.runner._workers.executor is None  # type: ignore[attr-defined]


def test_a_job_the_runners_shutdown_ends_is_not_made_again() -> None:
    runner = ProcessRunner(1)
    seen: list[dict[str, Any]] = []
    future = runner.submit(_spins, lambda done, total, detail=None: seen.append(detail or {}))
    _wait_for(lambda: any("pid" in d for d in seen))
    runner.shutdown()
    # the job ends with its broken pool, or cancelled when the shutdown took the manager, and with
    # it the job's report queue, before the pool's end reached that queue: a race either may win
    with pytest.raises((BrokenProcessPool, CancelledError)):
        future.result(timeout=120)
    assert runner._workers.executor is None


def test_jobs_run_again_after_the_runners_manager_died() -> None:
    # The manager (which carries the reports) killed, every later job failed at once, until the
    # server restarted.
    import signal

    jobs = Jobs(ProcessRunner(1))
    try:
        first = jobs.start("test", "a", _two_steps)
        _wait_for(lambda: first.finished is not None)
        manager = jobs.runner._manager  # type: ignore[attr-defined]
        os.kill(manager._process.pid, signal.SIGKILL)
        manager._process.join()
        later = jobs.start("test", "a", _two_steps)
        _wait_for(lambda: later.finished is not None)
        assert (later.status, later.result) == ("done", {"steps": 2}), jobs.view(later)
    finally:
        jobs.shutdown()


def test_a_cancelled_job_that_never_stops_has_its_worker_killed_and_the_next_job_runs() -> None:
    # Stuck, it never made the report at which it would stop: it held the worker and its place in
    # the limits for ever.
    jobs = Jobs(ProcessRunner(1, stop_grace=1.0), per_client=1)
    try:
        stuck = jobs.start("test", "a", _spins)
        _wait_for(lambda: stuck.detail is not None)
        assert stuck.detail is not None
        jobs.cancel(stuck.id)
        _wait_for(lambda: stuck.finished is not None, 60.0)
        assert stuck.status == "cancelled" and not process_alive(stuck.detail["pid"])
        after = jobs.start("test", "a", _two_steps)  # the client's place is free again, and the worker
        _wait_for(lambda: after.finished is not None)
        assert (after.status, after.result) == ("done", {"steps": 2}), jobs.view(after)
    finally:
        jobs.shutdown()


def test_a_job_beside_one_that_kills_its_workers_is_made_again_then_fails_saying_so(tmp_path) -> None:
    # A worker's death ends every job of its pool: the one beside the culprit runs once more on
    # the fresh pool, where the culprit's own second run kills it again: it fails, saying why,
    # rather than being lost or waiting for ever.
    flag = str(tmp_path / "go")
    jobs = Jobs(ProcessRunner(2), per_client=2)
    try:
        beside = jobs.start("test", "a", partial(_until, flag))
        _wait_for(lambda: beside.status == "running")
        culprit = jobs.start("test", "b", _die)
        _wait_for(lambda: culprit.finished is not None and beside.finished is not None)
        assert [culprit.status, beside.status] == ["failed", "failed"]
        assert "worker stopped twice" in jobs.view(beside)["error"]
        after = jobs.start("test", "a", _pid)
        _wait_for(lambda: after.finished is not None)
        assert after.status == "done"
    finally:
        jobs.shutdown()
