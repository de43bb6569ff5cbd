"""Long engine work for the browser (analyses, rollouts), off the event loop: each job runs on a
bounded pool of workers, reports its progress, and is polled by its id until its result is ready.

The pool is behind :class:`Runner`: a process pool (or the server's engine pool) can replace
:class:`ThreadRunner`. The work it is given is picklable (a ``functools.partial`` of a module-level
function); the runner calls ``progress(0, 0)`` as the work starts and relays its progress calls to
this process, where a cancelled job's ``progress`` raises :class:`JobCancelled` (a process runner
stops the work when that happens).

:class:`Jobs` hands the runner no more work than it has workers, and chooses the next job to run
fairly: the first waiting job of the client whose last job started longest ago (round-robin
between clients, not first come first served). A job counts against the limits (per client and in
all) until its worker is free: a cancelled job that waits is dropped at once, a cancelled job that
runs counts until its work has stopped. Finished jobs are kept a while, then forgotten.
"""

from __future__ import annotations

import contextlib
import json
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.managers import SyncManager
from typing import Any, Protocol

from gammon.errors import GammonError
from gammon.i18n import N_, current_language, tr, use_language
from gammon.web.engine_pool import WORKER_NICENESS
from gammon.web.lifeline import Lifeline, die_with_server
from gammon.web.restartable_pool import RestartablePool, retire

log = logging.getLogger(__name__)

STOP_GRACE = 60.0
"""Seconds a cancelled job's work has to stop (it does at its next progress report: a rollout's
batch takes seconds) before its worker counts as stuck."""

Progress = Callable[..., None]
"""``progress(done, total, detail=None)``: how far a job has come (actions analysed, trials
played); ``detail``, JSON-ready, is shown with it (a rollout's running equity)."""
Work = Callable[[Progress], dict[str, Any]]
"""A job's work: called in a worker with a progress callback; returns its JSON-ready result."""


FAILED = N_("the job failed")
"""A job's error when its work failed otherwise than by gammon's errors (the details go to the log)."""
WORKER_DIED = N_("the job's worker stopped twice (killed, or out of memory); start the job again later")
"""A job's error when the worker process running it died, and died again running it afresh."""


class JobCancelled(Exception):
    """Raised inside a job's work by its progress callback once the job was cancelled."""


class TooManyJobsError(GammonError):
    """A client has as many jobs running as it may, or the server is full (HTTP 429)."""


class UnknownJobError(GammonError, KeyError):
    """No job has this id (never made, or forgotten; HTTP 404)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else tr("unknown job")


class Runner(Protocol):
    """Runs work somewhere other than the event loop, at most ``workers`` at a time."""

    workers: int

    def submit(self, work: Work, progress: Progress) -> Future[dict[str, Any]]:
        """Run ``work`` with progress reports delivered to ``progress`` in this process, after
        ``progress(0, 0)`` as it starts; the future ends with its result or its exception."""
        ...

    def shutdown(self) -> None: ...


class ThreadRunner:
    """``workers`` threads (the engine's kernels are compiled; a thread holds the GIL in Python
    parts only). The default: one, so long jobs queue rather than starve the server."""

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive number of threads, got {workers!r}")
        self.workers = workers
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gammon-job")

    def submit(self, work: Work, progress: Progress) -> Future[dict[str, Any]]:
        return self._pool.submit(self._run, work, progress)

    @staticmethod
    def _run(work: Work, progress: Progress) -> dict[str, Any]:
        progress(0, 0)
        return work(progress)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class ProcessRunner:
    """``workers`` processes (forkserver, niced below the server like the engine pool's), so that a
    long analysis or rollout holds no lock of the server's. Progress comes back through a manager's
    queue, read by a thread here; the worker is told to stop by :meth:`stop` (or when the local
    ``progress`` raises JobCancelled), and its work stops at its next report; work that has not
    stopped ``stop_grace`` seconds later (stuck: it reports no more) has the pool's workers killed,
    the other jobs they ran made again on a fresh pool. The processes start with the first job."""

    def __init__(self, workers: int = 1, stop_grace: float = STOP_GRACE) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive number of processes, got {workers!r}")
        self.workers = workers
        self.stop_grace = stop_grace
        self._workers = RestartablePool(self._make, "a job worker died: the job workers start again")
        self._manager: SyncManager | None = None
        self._lifeline: Lifeline | None = None  # the manager's
        self._lock = threading.Lock()
        # each unfinished job's stop event, and the generation of the pool that runs it (a list:
        # the relay changes it when the job is made again)
        self._stops: dict[Future[dict[str, Any]], tuple[Any, list[int]]] = {}

    def _make(self, lifeline: Connection) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=die_with_server,
            initargs=(lifeline, os.nice, WORKER_NICENESS),
        )

    def _started(self) -> SyncManager:
        """The manager that carries the jobs' reports and stop events, started on first use and
        again when it is gone (killed, out of memory): else every later job failed at once."""
        with self._lock:
            if self._manager is not None and not _manager_alive(self._manager):
                log.warning("the job runner's manager died: it starts again")
                self._stop_manager()
            if self._manager is None:
                # The manager ends with this process, even killed outright.
                lifeline = Lifeline()
                manager = SyncManager(ctx=multiprocessing.get_context("forkserver"))
                try:
                    manager.start(die_with_server, (lifeline.reader,))
                except BaseException:
                    lifeline.close()  # the next job tries again
                    raise
                self._manager, self._lifeline = manager, lifeline
            return self._manager

    def _stop_manager(self) -> None:
        """(Holding the lock) stop the manager and let go of it."""
        if self._manager is not None:
            self._manager.shutdown()
        if self._lifeline is not None:
            self._lifeline.close()
        self._manager = self._lifeline = None

    def _drop(self, generation: int) -> None:
        """Replace the pool of ``generation``, broken by a worker that died: once for all the jobs
        that failed with it."""
        broken = self._workers.drop(generation)
        if broken is not None:
            retire(broken)

    def _give(self, work: Work, reports: Any, stop: Any) -> tuple[Future[dict[str, Any]], int]:
        """``work`` given to a worker (its future fails with BrokenProcessPool where the pool is)."""
        inner, generation = self._workers.submit(_run_reporting, work, reports, stop)
        inner.add_done_callback(lambda _: reports.put(None))  # after every report the work made
        return inner, generation

    def submit(self, work: Work, progress: Progress) -> Future[dict[str, Any]]:
        manager = self._started()
        reports, stop = manager.Queue(), manager.Event()
        inner, generation = self._give(work, reports, stop)
        runs_on = [generation]
        # The caller's future ends only once every report has been relayed: a late report must
        # not follow the job's end.
        outer: Future[dict[str, Any]] = Future()

        def relay() -> None:
            nonlocal inner, generation
            for attempt in (1, 2):
                try:
                    while (report := reports.get()) is not None:
                        try:
                            progress(*report)
                        except JobCancelled:
                            stop.set()
                except (EOFError, OSError):  # the runner was shut down under the job
                    outer.cancel()
                    return
                died = not inner.cancelled() and isinstance(inner.exception(), BrokenProcessPool)
                if not died or attempt == 2 or self._workers.was_closed(generation) or stop.is_set():
                    break
                # Its worker died, the job unfinished (it may be another job's worker that died:
                # the pool ends every job it runs): it runs once more, from the start, on a fresh pool.
                self._drop(generation)
                inner, generation = self._give(work, reports, stop)
                runs_on[0] = generation
            if inner.cancelled():
                outer.cancel()
            elif (exc := inner.exception()) is not None:
                outer.set_exception(exc)
            else:
                outer.set_result(inner.result())

        threading.Thread(target=relay, name="gammon-job-progress", daemon=True).start()
        self._stops[outer] = (stop, runs_on)
        outer.add_done_callback(lambda f: self._stops.pop(f, None))
        return outer

    def stop(self, future: Future[dict[str, Any]]) -> None:
        """Tell the worker of ``future``'s job to stop at its next progress report. At once: waiting
        for the job's next report to come back first let a job cancelled as it started run a whole
        batch of its work (a rollout's 216 trials: seconds) before it saw the stop."""
        entry = self._stops.get(future)
        if entry is None:
            return
        stop, runs_on = entry
        with contextlib.suppress(EOFError, OSError):  # the manager is gone: so is the work
            stop.set()
        # A stuck job never reports again: it held its worker, and its place in the limits, for ever.
        timer = threading.Timer(self.stop_grace, self._kill_unstopped, (future, runs_on))
        timer.daemon = True
        timer.start()

    def _kill_unstopped(self, future: Future[dict[str, Any]], runs_on: list[int]) -> None:
        if future.done():
            return
        log.warning("a cancelled job ran on %s s after its stop: its workers are killed", self.stop_grace)
        broken = self._workers.drop(runs_on[0], kill=True)
        if broken is not None:
            retire(broken)

    def shutdown(self) -> None:
        self._workers.close()
        with self._lock:
            self._stop_manager()


def _manager_alive(manager: SyncManager) -> bool:
    process = getattr(manager, "_process", None)
    return process is not None and process.is_alive()


def in_language(lang: str, work: Work, progress: Progress) -> dict[str, Any]:
    """``work`` run in ``lang`` (in a worker, thread or process, which has a context of its own)."""
    with use_language(lang):
        return work(progress)


def _run_reporting(work: Work, reports: Any, stop: Any) -> dict[str, Any]:
    """In a worker process: ``work`` with a progress callback that sends each report to the server
    and stops the work (JobCancelled) once the server has asked it to."""

    def progress(done: int, total: int, detail: dict[str, Any] | None = None) -> None:
        if stop.is_set():
            raise JobCancelled
        reports.put((done, total, detail))

    progress(0, 0)
    return work(progress)


@dataclass
class Job:
    """One job: ``status`` queued, running, done, failed or cancelled. ``finished`` is set once
    its worker is free (a cancelled job that was running may still be stopping)."""

    id: str
    kind: str
    client: str
    created: float
    status: str = "queued"
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    result_bytes: int = field(default=0, repr=False)  # the result's size as JSON
    error: str | None = None
    detail: dict[str, Any] | None = None
    cancelled: bool = field(default=False, repr=False)
    finished: float | None = None
    turn: int | None = field(default=None, repr=False)  # the order in which jobs were given a worker
    counted_from: tuple[float, int] | None = field(default=None, repr=False)  # (time, done): the rate

    @property
    def active(self) -> bool:
        return self.status in ("queued", "running")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "done": self.done,
            "total": self.total,
        }
        if self.detail is not None:
            out["detail"] = self.detail
        if self.result is not None:
            out["result"] = self.result
        error = self.error
        if error is not None:
            # the runner's own errors (N_-marked) are worded when read, in the reader's language
            out["error"] = tr(error) if error in (FAILED, WORKER_DIED) else error
        return out

    def seconds_left(self, now: float) -> int | None:
        """How long the rest of the work should take at the pace it has gone so far."""
        if self.status != "running" or self.counted_from is None:
            return None
        since, done_then = self.counted_from
        if self.done <= done_then:
            return None
        return round((now - since) * (self.total - self.done) / (self.done - done_then))


class Jobs:
    """The jobs of this server: at most ``per_client`` jobs per client address and ``max_active``
    in all, counted until their worker is free; finished jobs are kept ``keep_for`` seconds, at most
    ``keep_per_client`` of each client address (so that one client's jobs, failing at once one
    after another, do not push the others' results out), ``keep`` in all, and results of at most
    ``keep_bytes`` in all as JSON (an analysis of a long match is a megabyte or more, several in
    memory), the newest always."""

    def __init__(
        self,
        runner: Runner | None = None,
        *,
        per_client: int = 2,
        max_active: int = 16,
        keep: int = 200,
        keep_per_client: int = 10,
        keep_for: float = 3600.0,
        keep_bytes: int = 32 << 20,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.runner = runner if runner is not None else ThreadRunner()
        self.per_client, self.max_active = per_client, max_active
        self.keep, self.keep_per_client, self.keep_for = keep, keep_per_client, keep_for
        self.keep_bytes = keep_bytes
        self.clock = clock
        self.jobs: dict[str, Job] = {}
        self._waiting: dict[str, Work] = {}  # the work of the jobs not given to the runner yet
        self._given: dict[str, Future[dict[str, Any]]] = {}  # the jobs the runner has, till they end
        self._turns = 0
        # start and cancel come from the event loop, a job's end from the runner's threads (and,
        # with a runner that runs work at once, from inside submit: hence reentrant)
        self._lock = threading.RLock()

    def start(self, kind: str, client: str, work: Work) -> Job:
        """Queue ``work`` for ``client``, or raise TooManyJobsError."""
        with self._lock:
            self._forget_old()
            counted = [j for j in self.jobs.values() if j.finished is None]
            if sum(1 for j in counted if j.client == client) >= self.per_client:
                raise TooManyJobsError(
                    tr(
                        "you have {n} jobs running already (the limit); wait for one to finish or cancel it",
                        n=self.per_client,
                    )
                )
            if len(counted) >= self.max_active:
                raise TooManyJobsError(
                    tr("the server is busy with {n} jobs; try again later", n=len(counted))
                )
            job = Job(secrets.token_urlsafe(12), kind, client, self.clock())
            self.jobs[job.id] = job
            # the work's errors are worded in the language of the request that started it
            self._waiting[job.id] = partial(in_language, current_language(), work)
            self._dispatch()
            return job

    def get(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            shown = job_id if len(job_id) <= 40 else job_id[:40] + "..."
            raise UnknownJobError(tr("no job {job} (finished jobs are kept an hour)", job=repr(shown)))
        return job

    def view(self, job: Job) -> dict[str, Any]:
        """The job as the API shows it, with what it waits for: ``ahead``, the jobs that will
        start before it (a queued job), or ``seconds_left`` at its pace so far (a running one)."""
        out = job.to_dict()
        with self._lock:
            if job.id in self._waiting:
                out["ahead"] = self._queue().index(job)
            elif (left := job.seconds_left(self.clock())) is not None:
                out["seconds_left"] = left
        return out

    def cancel(self, job_id: str) -> Job:
        """Cancel a job: a queued one never starts; a running one stops at its next progress
        report and counts against the limits until then."""
        with self._lock:
            job = self.get(job_id)
            if job.active:
                job.cancelled = True
                job.status = "cancelled"
                if self._waiting.pop(job.id, None) is not None:
                    job.finished = self.clock()
                elif (future := self._given.get(job.id)) is not None and hasattr(self.runner, "stop"):
                    self.runner.stop(future)  # a runner that can tell its worker at once
            return job

    def _queue(self) -> list[Job]:
        """The waiting jobs in the order they will be given a worker: each time, the first job of
        the client whose last job started longest ago (never before all)."""
        last = {j.client: j.turn for j in self.jobs.values() if j.turn is not None}
        waiting = [self.jobs[job_id] for job_id in self._waiting]  # in the order they came
        order: list[Job] = []
        turn = self._turns
        while waiting:
            job = min(waiting, key=lambda j: last.get(j.client, -1))  # min keeps the earliest of ties
            waiting.remove(job)
            order.append(job)
            turn += 1
            last[job.client] = turn
        return order

    def _dispatch(self) -> None:
        """Give waiting jobs to the runner while it has a free worker."""
        while self._waiting:
            busy = sum(1 for j in self.jobs.values() if j.turn is not None and j.finished is None)
            if busy >= self.runner.workers:
                return
            job = self._queue()[0]
            work = self._waiting.pop(job.id)
            self._turns += 1
            job.turn = self._turns
            try:
                future = self.runner.submit(work, partial(self._progress, job))
            except Exception:  # a broken pool: the job must not hold the worker's place for ever
                log.exception("job %s could not be given to a worker", job.id)
                job.status, job.error, job.finished = "failed", FAILED, self.clock()
                continue
            self._given[job.id] = future
            future.add_done_callback(partial(self._finish, job))

    def _progress(self, job: Job, done: int, total: int, detail: dict[str, Any] | None = None) -> None:
        if job.cancelled:
            raise JobCancelled
        job.status, job.done, job.total = "running", done, total
        if total and job.counted_from is None:
            job.counted_from = (self.clock(), done)
        if detail is not None:
            job.detail = detail

    def _finish(self, job: Job, future: Future[dict[str, Any]]) -> None:
        with self._lock:
            self._given.pop(job.id, None)
            if job.cancelled or future.cancelled():
                job.status = "cancelled"
            else:
                exc = future.exception()
                if exc is None:
                    job.result, job.status = future.result(), "done"
                    job.result_bytes = len(json.dumps(job.result, separators=(",", ":"), default=str))
                    job.done = max(job.done, job.total)
                else:
                    job.status = "failed"
                    # the engine's and the formats' errors say what was wrong; anything else stays in the log
                    if isinstance(exc, BrokenProcessPool):
                        job.error = WORKER_DIED
                    elif isinstance(exc, GammonError | ValueError):
                        job.error = str(exc)
                    else:
                        job.error = FAILED
            job.finished = self.clock()
            self._forget_old()
            self._dispatch()

    def _forget_old(self) -> None:
        now = self.clock()
        oldest_first = sorted(  # stable: of jobs that ended together, the one started first
            (j for j in self.jobs.values() if j.finished is not None), key=lambda j: j.finished or 0.0
        )
        newest_first = oldest_first[::-1]
        kept: dict[str, int] = {}  # finished jobs kept of each client so far, newest first
        total = size = 0
        for j in newest_first:
            mine = kept.get(j.client, 0)
            stale = now - (j.finished or now) > self.keep_for
            too_big = total > 0 and size + j.result_bytes > self.keep_bytes
            if stale or mine >= self.keep_per_client or total >= self.keep or too_big:
                del self.jobs[j.id]
            else:
                kept[j.client], total, size = mine + 1, total + 1, size + j.result_bytes

    def shutdown(self) -> None:
        """Cancel every job (a running one stops at its next progress report) and stop the runner."""
        for job_id in list(self.jobs):
            self.cancel(job_id)
        self.runner.shutdown()


__all__ = [
    "Job",
    "JobCancelled",
    "Jobs",
    "ProcessRunner",
    "Progress",
    "Runner",
    "ThreadRunner",
    "TooManyJobsError",
    "UnknownJobError",
    "Work",
]
