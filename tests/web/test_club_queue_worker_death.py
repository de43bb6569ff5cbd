"""A server's analysis process that dies under a job (killed, out of memory) while the server goes
on: the job is claimed again at once, not left running under a claimant still alive until the
server restarts."""

from __future__ import annotations

import os
import signal
import time

from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from gammon.store import Store
from gammon.store.models import AnalysisJobRow
from tests.web.test_club_queue import long_job_in_a_process, store_url  # noqa: F401  (its fixture)


def _job(store: Store, job_id: int) -> tuple[str, int]:
    with sessionmaker(store.engine)() as s:
        row = s.scalar(select(AnalysisJobRow).where(AnalysisJobRow.id == job_id))
        assert row is not None
        return row.status, row.attempts


def _until(check: object, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not within the time given"
        time.sleep(0.05)


def test_a_job_whose_analysis_process_died_is_claimed_again(store_url: str) -> None:  # noqa: F811
    members, job = long_job_in_a_process(store_url)
    members.start()
    try:
        _until(lambda: _job(members.store, job) == ("running", 1) and members._pool is not None
               and members._pool._processes)
        [pid] = list(members._pool._processes)  # type: ignore[union-attr]
        os.kill(pid, signal.SIGKILL)
        _until(lambda: _job(members.store, job)[1] == 2)  # claimed again, by a new analysis process
        assert _job(members.store, job)[0] == "running"
    finally:
        members.stop()
        members.store.close()
