"""The analysis queue: each queued analysis (a match played here, or a match file, for an
account's seat) is a row of ``analysis_jobs``, so what was queued when the server stopped is done
when it starts again. A worker claims the next row, analyses the match at the row's plies and
stores it in the profile; a failure is recorded with its reason and not retried. The reason is
kept in every language (:func:`worded_reason` reads it in the current one), since the reader of a
failure is not known when the worker meets it.

A worker claims a row by moving it from ``queued`` to ``running`` with a guarded UPDATE, so two
workers (threads, processes, machines) never take the same row; a claimant that may have to take
its jobs off again (an import) names itself in the running row's ``reason``, unused until the job
ends (:meth:`AnalysisQueue.withdraw`). Every claimant names its host and process
(:func:`claimant_name`). :meth:`AnalysisQueue.recover`, called once when a server starts (before
its workers), queues again what a claimant that is gone left ``running`` (its process ended, or one
of another host has run it longer than ``stale_after``), at most ``max_attempts`` times in all: a
match that kills its worker ends ``failed``. A job a live import or another server process is at
stays theirs.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import socket
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import CursorResult, and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from gammon.accounts.clock import Clock, as_utc, utc_now
from gammon.accounts.games import ANONYMOUS, NAMES_KEY, stored_rules
from gammon.analysis import analyse
from gammon.engine.engine import DEFAULT_PLIES, Engine
from gammon.errors import GammonError
from gammon.i18n import DEFAULT_LANGUAGE, LANGUAGES, current_language, ntr, tr, use_language
from gammon.match import Match
from gammon.profile.record import Source, add_profile_match, existing, kin, replace_shorter
from gammon.profile.source import fingerprint, read_match_file
from gammon.records import replay_match
from gammon.store import Store
from gammon.store.models import AccountRow, AnalysisJobRow, MatchRow, SeatAccountRow
from gammon.store.repository import lock_for_writing

QUEUED, RUNNING, DONE, DUPLICATE, FAILED = "queued", "running", "done", "duplicate", "failed"
MAX_ATTEMPTS = 3
# A claim of another host, whose process cannot be looked at, is taken for gone after this long:
# one match's analysis takes minutes. Run again while it was still at work, it ends a duplicate.
STALE_AFTER = timedelta(hours=1)
_HOST = socket.gethostname().replace(" ", "_")
_live_lock = threading.Lock()
_live: set[str] = set()  # the claimants at work in this process (:func:`at_work`)


def claimant_name(kind: str) -> str:
    """A new claimant's name, ``"<kind> <host> <pid> <process start> <token>"``: who claims jobs
    (a server's worker, an import), so that another process can tell whether it is still alive."""
    pid = os.getpid()
    return f"{kind} {_HOST} {pid} {_process_start(pid)} {uuid.uuid4().hex}"


@contextlib.contextmanager
def at_work(claimant: str) -> Iterator[str]:
    """Count ``claimant`` as alive while the block runs: in the process that named it, a claimant
    is alive only so (a server that stopped and started again in one process recovers the jobs
    its stopped worker left)."""
    with _live_lock:
        _live.add(claimant)
    try:
        yield claimant
    finally:
        with _live_lock:
            _live.discard(claimant)


def _process_start(pid: int) -> str:
    """When the process ``pid`` started (clock ticks since boot, from /proc): a pid reused by a new
    process is not taken for the claimant. "-" where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return "-"


def _process_alive(pid: int, started: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: alive
        pass
    except OSError:
        return False
    return started == "-" or _process_start(pid) in (started, "-")


def claimant_gone(claimant: str | None, started_at: datetime | None, now: datetime,
                  stale_after: timedelta = STALE_AFTER) -> bool:
    """Whether the claimant of a running job is gone, so the job may be queued again: a process of
    this host that ended (or, in this process, no longer at work), or one of another host that has
    run it longer than ``stale_after``. A claimant named otherwise (before claimants named their
    process) is taken for gone."""
    parts = (claimant or "").split(" ")
    if len(parts) != 5 or not parts[2].isdigit():
        return True
    _kind, host, pid, started, _token = parts
    if host != _HOST:
        return started_at is None or now - as_utc(started_at) > stale_after
    if int(pid) == os.getpid():
        with _live_lock:
            return claimant not in _live
    return not _process_alive(int(pid), started)


@dataclass(frozen=True)
class Outcome:
    """What became of a job: its status (done, duplicate or failed), the reason of a failure, the
    profile match it made (done) or found (duplicate), and how many it replaced (done)."""

    job_id: int
    status: str
    name: str
    reason: str | None = None  # as stored: read it with why()
    profile_match_id: int | None = None
    replaced: int = 0  # profile matches of its first games only that it took the place of

    def why(self) -> str | None:
        """The reason of a failure in the current language."""
        return worded_reason(self.reason)


@dataclass(frozen=True)
class _Work:
    match: Match
    names: tuple[str, str]
    source: Source
    played_at: datetime


@functools.cache
def engine_for(plies: int) -> Engine:
    """One engine per depth and process: loading the net is the slow part of a small analysis."""
    return Engine(plies=plies)


class AnalysisQueue:
    """The queue in ``store``'s database; ``clock`` tells the time (injectable for tests)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock = utc_now,
        max_attempts: int = MAX_ATTEMPTS,
        stale_after: timedelta = STALE_AFTER,
    ) -> None:
        self.store = store
        self.clock = clock
        self.max_attempts = max_attempts
        self.stale_after = stale_after
        self.claimant = claimant_name("server")  # what :meth:`serve` claims as
        self.sessions = sessionmaker(store.engine, expire_on_commit=False)
        self._wake = threading.Event()  # set when a job is queued in this process, or to stop

    # --- queueing ----------------------------------------------------------------------------

    def add_file(
        self,
        account_id: int,
        seat: int,
        data: bytes,
        file_name: str,
        file_format: str,
        plies: int = DEFAULT_PLIES,
    ) -> int:
        """Queue the analysis of a match file (its bytes are kept in the row) for the account's
        ``seat``; returns the job's id."""
        return self._add(
            AnalysisJobRow(
                account_id=account_id,
                seat=seat,
                file_name=file_name[:255],
                file_format=file_format,
                file_data=data,
                plies=plies,
            )
        )

    def add_match(self, match_id: str, account_id: int, seat: int, plies: int = DEFAULT_PLIES) -> int:
        """Queue the analysis of a match played here for the account's ``seat``."""
        return self._add(AnalysisJobRow(account_id=account_id, seat=seat, match_id=match_id, plies=plies))

    def _add(self, row: AnalysisJobRow) -> int:
        _check_seat(row.seat)
        row.status, row.attempts, row.created_at = QUEUED, 0, self.clock()
        with self.sessions.begin() as s:
            s.add(row)
            s.flush()
            job_id = row.id
        self._wake.set()  # committed: this process's worker starts on it now
        return job_id

    def wake(self) -> None:
        """Make :meth:`serve` look at the queue now (a job queued elsewhere, or its stop set)."""
        self._wake.set()

    def withdraw(self, job_ids: Sequence[int], claimant: str | None = None) -> None:
        """Take the jobs of ``job_ids`` still queued off the queue, and those running that
        ``claimant`` claimed (:meth:`claim`): an import stopped (Ctrl-C, a worker killed, Ray
        failing) left them there for good, each with its file's bytes, while a new import queued
        the files again. One a server's worker claimed (no claimant, or another) is left to it. The
        files are where they were: importing them again analyses them."""
        mine = AnalysisJobRow.status == QUEUED
        if claimant is not None:
            mine = or_(mine, and_(AnalysisJobRow.status == RUNNING, AnalysisJobRow.reason == claimant))
        with self.sessions.begin() as s:
            for start in range(0, len(job_ids), 500):  # the database's limit on a statement's values
                chunk = job_ids[start:start + 500]
                s.execute(delete(AnalysisJobRow).where(AnalysisJobRow.id.in_(chunk), mine))

    # --- working -----------------------------------------------------------------------------

    def recover(self) -> int:
        """Queue again the jobs left running by a claimant that is gone (:func:`claimant_gone`;
        those started ``max_attempts`` times fail instead); returns how many were queued again. A
        job a live claimant runs (an import, another server process) is left to it."""
        now = self.clock()
        with self.sessions() as s:
            running = s.execute(
                select(AnalysisJobRow.id, AnalysisJobRow.reason, AnalysisJobRow.started_at,
                       AnalysisJobRow.attempts).where(AnalysisJobRow.status == RUNNING)
            ).all()
        again = 0
        for job_id, claimant, started_at, attempts in running:
            if claimant_gone(claimant, started_at, now, self.stale_after):
                again += self._put_back(job_id, attempts, now)
        return again

    def release(self, job_id: int, claimant: str) -> bool:
        """Queue the running job ``job_id`` of ``claimant`` again (or fail it, started
        ``max_attempts`` times): its work stopped unfinished (the process analysing it died) while
        its claimant lives on, so no recovery would take it. Whether it was queued again."""
        with self.sessions() as s:
            mine = AnalysisJobRow.status == RUNNING, AnalysisJobRow.reason == claimant
            attempts = s.scalar(select(AnalysisJobRow.attempts).where(AnalysisJobRow.id == job_id, *mine))
        if attempts is None:
            return False
        queued = self._put_back(job_id, attempts, self.clock())
        self._wake.set()
        return queued

    def _put_back(self, job_id: int, attempts: int, now: datetime) -> bool:
        """The running job back to ``queued`` (``failed`` once started ``max_attempts`` times),
        unless claimed again meanwhile (another process recovered it); whether it was queued."""
        # its claimant's name goes: a stopped import takes off only what it still runs
        values: dict[str, Any] = {"status": QUEUED, "reason": None}
        if attempts >= self.max_attempts:
            values = {"status": FAILED, "finished_at": now, "reason": in_every_language(
                lambda: ntr("the analysis stopped unfinished {n} time",
                            "the analysis stopped unfinished {n} times",
                            self.max_attempts, n=self.max_attempts))}
        with self.sessions.begin() as s:
            done: CursorResult[Any] = s.execute(  # type: ignore[assignment]
                update(AnalysisJobRow)
                .where(AnalysisJobRow.id == job_id, AnalysisJobRow.status == RUNNING,
                       AnalysisJobRow.attempts == attempts)
                .values(**values)
            )
        return bool(done.rowcount) and values["status"] == QUEUED

    def claim(self, job_id: int | None = None, claimant: str | None = None) -> int | None:
        """Take the oldest queued job (or the job ``job_id`` if it is queued): it is ``running``
        now, one attempt more, ``claimant``'s (see :meth:`withdraw`). None when there is none."""
        while True:
            with self.sessions.begin() as s:
                query = select(AnalysisJobRow.id).where(AnalysisJobRow.status == QUEUED)
                if job_id is not None:
                    query = query.where(AnalysisJobRow.id == job_id)
                found = s.scalar(query.order_by(AnalysisJobRow.id).limit(1))
                if found is None:
                    return None
                taken: CursorResult[Any] = s.execute(  # type: ignore[assignment]
                    update(AnalysisJobRow)
                    .where(AnalysisJobRow.id == found, AnalysisJobRow.status == QUEUED)
                    .values(status=RUNNING, attempts=AnalysisJobRow.attempts + 1, started_at=self.clock(),
                            reason=claimant)
                )
            if taken.rowcount:
                return found
            # another worker took it between the two statements: look again

    def run(self, job_id: int, engine: Callable[[int], Engine] = engine_for) -> Outcome:
        """Analyse the claimed job ``job_id`` with ``engine(plies)`` and store the result in the
        profile (or find it there already: a duplicate); a failure is recorded with its reason."""
        with self.sessions() as s:
            job = s.get(AnalysisJobRow, job_id)
            if job is None:
                raise ValueError(f"no analysis job {job_id}")
            name = job.file_name or job.match_id or str(job_id)
        try:
            work = self._work(job)
        except Exception as e:  # noqa: BLE001 - an unreadable match is the job's reason
            return self._finish(job_id, name, FAILED, reason=self._unreadable(job, e))
        try:
            mark = fingerprint(work.match)
            opponent = work.names[1 - job.seat]
            with self.sessions() as s:
                found = self._stored(s, job, work.match, mark, opponent)
            if found is not None:
                return self._finish(job_id, name, DUPLICATE, profile_match_id=found)
            analysis = analyse(work.match, engine(job.plies), names=work.names)
            try:
                with self.sessions.begin() as s:
                    # one account's match stored at a time: two files of one match, the one the
                    # start of the other, analysed at once, would each find the other not stored
                    lock_for_writing(s)
                    s.execute(select(AccountRow.id).where(AccountRow.id == job.account_id).with_for_update())
                    found = self._stored(s, job, work.match, mark, opponent)
                    if found is not None:
                        self._set(s, job_id, DUPLICATE, None, found)
                        return Outcome(job_id, DUPLICATE, name, None, found)
                    shorter = kin(s, job.account_id, work.match, job.seat, opponent).shorter
                    row = add_profile_match(
                        s,
                        account_id=job.account_id,
                        seat=job.seat,
                        match=work.match,
                        analysis=analysis,
                        source=work.source,
                        played_at=work.played_at,
                        analysed_at=self.clock(),
                    )
                    replace_shorter(s, job.account_id, row.id, shorter)
                    self._set(s, job_id, DONE, None, row.id)
                    return Outcome(job_id, DONE, name, None, row.id, len(shorter))
            except IntegrityError:  # another worker stored the same match meanwhile
                with self.sessions() as s:
                    found = existing(s, job.account_id, mark)
                return self._finish(job_id, name, DUPLICATE, profile_match_id=found)
        except Exception as e:  # noqa: BLE001 - whatever went wrong is the job's reason, not the worker's end
            return self._finish(job_id, name, FAILED, reason=_reason(e))

    @staticmethod
    def _stored(s: Any, job: AnalysisJobRow, match: Match, mark: str, opponent: str) -> int | None:
        """The account's profile match that has the job's match already: the same (by its
        fingerprint), or the match played further (a file of its first games came after it)."""
        found = existing(s, job.account_id, mark)
        return found if found is not None else kin(s, job.account_id, match, job.seat, opponent).longer

    def work_next(self, engine: Callable[[int], Engine] = engine_for) -> Outcome | None:
        """Claim and run the next queued job; None when the queue is empty."""
        job_id = self.claim()
        return None if job_id is None else self.run(job_id, engine)

    def work_all(self, engine: Callable[[int], Engine] = engine_for) -> list[Outcome]:
        """Run queued jobs until none is left."""
        done = []
        while (outcome := self.work_next(engine)) is not None:
            done.append(outcome)
        return done

    def serve(
        self,
        stop: threading.Event,
        idle: float = 5.0,
        engine: Callable[[int], Engine] = engine_for,
        run: Callable[[int], Outcome] | None = None,
    ) -> None:
        """A server's worker: queue again what a stopped server left running, then run jobs as
        they come, until ``stop`` is set (call :meth:`wake` after setting it to stop at once). A job
        queued in this process wakes it; one queued by another process is found at the next look,
        every ``idle`` seconds while the queue is empty. ``run(job_id)`` runs a claimed job
        (default: here, with ``engine``; a server gives it to a process of its own,
        :func:`run_claimed`). It claims as :attr:`claimant`, alive while it serves."""
        with at_work(self.claimant):
            self.recover()
            while not stop.is_set():
                self._wake.clear()  # before the look: a job queued after it wakes the wait below
                job_id = self.claim(claimant=self.claimant)
                if job_id is None:
                    self._wake.wait(idle)
                elif run is None:
                    self.run(job_id, engine)
                else:
                    run(job_id)

    def status(self, job_id: int) -> tuple[str, str | None]:
        """The job's status and the reason of a failure, in the current language."""
        with self.sessions() as s:
            job = s.get(AnalysisJobRow, job_id)
            if job is None:
                raise ValueError(f"no analysis job {job_id}")
            return job.status, None if job.status == RUNNING else worded_reason(job.reason)  # its claimant

    def pending(self, account_id: int | None = None) -> int:
        """How many jobs are queued or running (for one account, or all)."""
        with self.sessions() as s:
            query = select(AnalysisJobRow.id).where(AnalysisJobRow.status.in_((QUEUED, RUNNING)))
            if account_id is not None:
                query = query.where(AnalysisJobRow.account_id == account_id)
            return len(s.scalars(query).all())

    # --- inside ------------------------------------------------------------------------------

    def _work(self, job: AnalysisJobRow) -> _Work:
        if job.file_data is not None:
            name = job.file_name or "match"
            read = read_match_file(job.file_data, name)
            return _Work(
                read.match, read.names, Source("file", name, read.format), read.date or as_utc(job.created_at)
            )
        if job.match_id is None:
            raise ValueError(tr("the job names neither a file nor a match"))
        with self.sessions() as s:
            row = s.get(MatchRow, job.match_id)
            if row is None:
                raise ValueError(tr("no match {id} is stored", id=repr(job.match_id)))
            names = _names(s, row)
            rules_data, created_at = dict(row.rules), as_utc(row.created_at)
        actions = self.store.load_log(job.match_id).actions
        if not actions:
            raise ValueError(tr("the match has no actions yet (or is still in the old format)"))
        rules = stored_rules(rules_data)
        return _Work(replay_match(rules, actions), names, Source("here", job.match_id), created_at)

    def _unreadable(self, job: AnalysisJobRow, error: Exception) -> str:
        """The stored reason of a job whose match cannot be read: the readers word their errors
        where they raise them, so the match is read again in each language for their words (a
        failure is rare, a read takes milliseconds)."""
        if not isinstance(error, GammonError | ValueError):
            return _reason(error)

        def again() -> str:
            try:
                self._work(job)
            except Exception as e:  # noqa: BLE001 - its words are what is wanted
                return _reason(e)
            return _reason(error)  # read this time: the first words are all there is

        return in_every_language(again)

    def _finish(
        self,
        job_id: int,
        name: str,
        status: str,
        *,
        reason: str | None = None,
        profile_match_id: int | None = None,
    ) -> Outcome:
        with self.sessions.begin() as s:
            self._set(s, job_id, status, reason, profile_match_id)
        return Outcome(job_id, status, name, reason, profile_match_id)

    def _set(
        self, s: Any, job_id: int, status: str, reason: str | None, profile_match_id: int | None
    ) -> None:
        s.execute(
            update(AnalysisJobRow)
            .where(AnalysisJobRow.id == job_id)
            .values(
                status=status,
                reason=reason,
                profile_match_id=profile_match_id,
                finished_at=self.clock(),
                file_data=None if status in (DONE, DUPLICATE) else AnalysisJobRow.file_data,
            )
        )


def _check_seat(seat: int) -> None:
    if seat not in (0, 1):
        raise ValueError(f"a seat is 0 or 1, got {seat!r}")


def _names(s: Any, row: MatchRow) -> tuple[str, str]:
    """The seats' names in a match played here: the account's (Anonymous once deleted: its row
    stays without an account), else the name it was made with, else the computer's level, else
    Guest."""
    held = {
        seat: ANONYMOUS if name is None else name
        for seat, name in s.execute(
            select(SeatAccountRow.seat, AccountRow.name)
            .outerjoin(AccountRow, AccountRow.id == SeatAccountRow.account_id)
            .where(SeatAccountRow.match_id == row.id)
        ).all()
    }
    given = row.rules.get(NAMES_KEY) if isinstance(row.rules, dict) else None
    names = []
    for seat in (0, 1):
        if seat in held:
            names.append(str(held[seat]))
        elif row.mode == "computer" and seat == 1 and row.level:
            names.append(row.level)
        elif isinstance(given, list) and len(given) == 2 and isinstance(given[seat], str) and given[seat]:
            names.append(given[seat])
        else:
            names.append("Guest")
    return names[0], names[1]


def in_every_language(word: Callable[[], str]) -> str:
    """A failure's reason as stored: ``word()`` in each language, as JSON ({lang: text}); the text
    alone when no language words it otherwise (an unexpected error's own English)."""
    texts = {}
    for lang in LANGUAGES:
        with use_language(lang):
            texts[lang] = word()
    if len(set(texts.values())) == 1:
        return texts[DEFAULT_LANGUAGE]
    return json.dumps(texts, ensure_ascii=False)


def worded_reason(stored: str | None) -> str | None:
    """A stored reason (:func:`in_every_language`) in the current language, else in English; a
    plain text (a row from before the reasons were kept in each language) as it is."""
    if not stored or not stored.startswith("{"):
        return stored
    try:
        texts = json.loads(stored)
    except ValueError:
        return stored
    if not isinstance(texts, dict):
        return stored
    worded = texts.get(current_language(), texts.get(DEFAULT_LANGUAGE))
    return worded if isinstance(worded, str) else stored


def _reason(error: Exception) -> str:
    text = str(error) or type(error).__name__
    return text if isinstance(error, GammonError | ValueError) else f"{type(error).__name__}: {text}"


@functools.cache
def _queue_for(database_url: str) -> AnalysisQueue:
    """One store and queue per worker process and database (opening a store checks its tables)."""
    return AnalysisQueue(Store(database_url))


def run_claimed(database_url: str, job_id: int) -> Outcome:
    """Run the job ``job_id``, claimed already (by a server's worker thread), in a process of its
    own: a whole match's analysis would otherwise hold the server process's interpreter lock for
    seconds at a time, between its players' actions."""
    return _queue_for(database_url).run(job_id)


def run_job(database_url: str, job_id: int, claimant: str | None = None) -> Outcome:
    """Run the job ``job_id`` (claiming it first, as ``claimant``) in a process of its own: a
    worker of a process pool or of a Ray cluster opens the database itself."""
    claimant = claimant or claimant_name("worker")  # to take off its own job only, if stopped
    store = Store(database_url)
    try:
        with at_work(claimant):
            return claim_and_run(AnalysisQueue(store), job_id, claimant)
    finally:
        store.close()


def claim_and_run(queue: AnalysisQueue, job_id: int, claimant: str) -> Outcome:
    """Claim the job ``job_id`` as ``claimant`` and run it; one another process claimed (a server's
    worker on the same database) is told as it stands there."""
    if queue.claim(job_id, claimant) is None:
        status, reason = queue.status(job_id)
        return Outcome(job_id, status, str(job_id), reason)
    try:
        return queue.run(job_id)
    except KeyboardInterrupt:
        # Ctrl-C reaches a pool's workers too, and Ray cancels a task so: the job was left running
        # for good, with its file's bytes (a server counted it as pending)
        queue.withdraw([job_id], claimant)
        raise
