"""A club's server and its analysis queue: analyses queued when the server stops (waiting, or cut
short while running) are done when it starts again, on a store opened afresh; and a job queued in
the server's process starts at once, however long the worker's look at an empty queue."""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.profile import AnalysisQueue
from gammon.store import Store
from gammon.web.members import AccountSettings, Members
from tests.accounts.conftest import CHEAP, finish_match, new_match
from tests.profile.conftest import LASSE_1, add

PG_URL = os.environ.get("GAMMON_TEST_PG_URL")

A_LONG_LOOK = 600.0  # seconds between the worker's looks at an empty queue: never, in these tests


@contextlib.contextmanager
def own_database(server_url: str) -> Iterator[str]:
    """A database of its own on the PostgreSQL server of ``server_url``, dropped afterwards (other
    test runs may use the server at the same time)."""
    name = f"gammon_club_{uuid.uuid4().hex[:12]}"
    admin = create_engine(
        server_url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'club.sqlite3'}"
        return
    if not PG_URL:
        pytest.skip("GAMMON_TEST_PG_URL is not set (start one with tests/web/start_postgres.sh)")
    with own_database(PG_URL) as url:
        yield url


def _members(url: str) -> Members:
    settings = AccountSettings(plies=0, idle=A_LONG_LOOK, passwords=Passwords(CHEAP))
    return Members(Store(url), settings)


def long_job_in_a_process(url: str) -> tuple[Members, int]:
    """Members whose analyses run in a process of their own (not started yet), and the job of a
    2-ply analysis of a whole 13-point match queued: far longer than these tests wait."""
    settings = AccountSettings(plies=2, idle=A_LONG_LOOK, passwords=Passwords(CHEAP), process=True)
    members = Members(Store(url), settings)
    me = Accounts(members.store, passwords=Passwords(CHEAP)).sign_up("lasse", "password1")
    long_match = LASSE_1.parents[1] / "bgstudio/blunderdb-raphael_gin-anthonypop-13pt-2026_03_21.mat"
    return members, members.queue.add_file(me.id, 0, long_match.read_bytes(), long_match.name, "mat", plies=2)


def _wait_done(queue: AnalysisQueue, jobs: list[int], seconds: float = 120.0) -> list[str]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        statuses = [queue.status(job)[0] for job in jobs]
        if all(s not in ("queued", "running") for s in statuses):
            return statuses
        time.sleep(0.05)
    return [queue.status(job)[0] for job in jobs]


def test_analyses_queued_when_the_server_stops_are_done_when_it_starts(store_url: str) -> None:
    # The first server: an account, a finished match played here and a match file queued; it stops
    # while analysing one of them (claimed, never finished), its worker never started.
    first = _members(store_url)
    me = Accounts(first.store, passwords=Passwords(CHEAP)).sign_up("lasse", "password1")
    new_match(first.store, "m1", mode="local", length=3, names=["lasse", "bob"])
    finish_match(first.store, "m1", winner=0, length=3)
    cut_short = first.queue.add_match("m1", me.id, 0, plies=0)
    waiting = add(first.queue, me.id, LASSE_1, seat=0)
    assert first.queue.claim() == cut_short
    first.store.close()

    # The server starts again on the same database: its worker recovers and does both, though its
    # look at an empty queue would come only in ten minutes.
    second = _members(store_url)
    second.start()
    try:
        assert _wait_done(second.queue, [cut_short, waiting]) == ["done", "done"]
    finally:
        second.stop()
        second.store.close()
    assert second.queue.pending() == 0


def test_a_job_queued_in_the_process_wakes_its_worker(store_url: str) -> None:
    members = _members(store_url)
    me = Accounts(members.store, passwords=Passwords(CHEAP)).sign_up("lasse", "password1")
    members.start()
    try:
        time.sleep(0.5)  # the worker has looked at the empty queue and waits
        job = add(members.queue, me.id, LASSE_1, seat=0)
        assert _wait_done(members.queue, [job], seconds=60) == ["done"]
        start = time.monotonic()
    finally:
        members.stop()  # at once, not at the next look
        members.store.close()
    assert time.monotonic() - start < 5


def test_a_server_stops_in_moments_while_its_analysis_process_is_at_work(store_url: str) -> None:
    # A 2-ply analysis of a whole 13-point match takes its process far longer than a server may take to
    # stop: the process is cut short at once and the job is left to the next start's recover.
    members, job = long_job_in_a_process(store_url)
    members.start()
    try:
        deadline = time.monotonic() + 60
        while members.queue.status(job)[0] != "running" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert members.queue.status(job)[0] == "running"
        time.sleep(1.0)  # the analysis process is well into its work
    finally:
        start = time.monotonic()
        members.stop()
        stopped_in = time.monotonic() - start
        members.store.close()
    assert stopped_in < 3, stopped_in
    store = Store(store_url)
    try:
        again = AnalysisQueue(store)
        assert again.recover() == 1 and again.status(job)[0] == "queued"
    finally:
        store.close()
