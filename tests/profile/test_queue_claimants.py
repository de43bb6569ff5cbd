"""A server that starts queues again only the jobs whose claimant is gone: a job an import (or
another server process) is still at stays theirs, so it is not analysed twice at once."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta

from gammon.accounts import Accounts
from gammon.profile import AnalysisQueue
from gammon.profile.queue import at_work, claimant_name
from gammon.store import Store
from tests.accounts.conftest import Clock
from tests.profile.conftest import LASSE_1, add

# A process that claims the job it is given as an import does, says so, and lives until its stdin
# closes.
CLAIMING = """
import sys
from gammon.profile.queue import AnalysisQueue, claimant_name
from gammon.store import Store
queue = AnalysisQueue(Store(sys.argv[1]))
print(queue.claim(int(sys.argv[2]), claimant_name("import")), flush=True)
sys.stdin.read()
"""


def test_a_live_import_in_another_process_keeps_its_running_job(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    me = accounts.sign_up("lasse", "password1")
    job = add(queue, me.id, LASSE_1, seat=0)
    importing = subprocess.Popen(
        [sys.executable, "-c", CLAIMING, store.url, str(job)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert importing.stdout is not None and importing.stdout.readline().strip() == str(job)
        assert AnalysisQueue(store).recover() == 0  # a server starts while the import runs it
        assert queue.status(job)[0] == "running" and queue.claim() is None
    finally:
        assert importing.stdin is not None
        importing.stdin.close()
        importing.wait(60)
    assert AnalysisQueue(store).recover() == 1  # the import ended without finishing it
    assert queue.claim() == job


def test_a_serving_worker_keeps_its_job_while_another_starts_in_the_same_process(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    me = accounts.sign_up("lasse", "password1")
    job = add(queue, me.id, LASSE_1, seat=0)
    with at_work(queue.claimant):
        assert queue.claim(claimant=queue.claimant) == job
        assert AnalysisQueue(store).recover() == 0
    assert AnalysisQueue(store).recover() == 1  # stopped: its job is left to the next start


def test_another_hosts_claim_is_taken_for_gone_once_it_is_stale(
    store: Store, accounts: Accounts, clock: Clock
) -> None:
    me = accounts.sign_up("lasse", "password1")
    queue = AnalysisQueue(store, clock=clock, stale_after=timedelta(hours=1))
    job = add(queue, me.id, LASSE_1, seat=0)
    kind, _host, *rest = claimant_name("import").split(" ")
    elsewhere = " ".join([kind, "another-host", *rest])
    assert queue.claim(job, elsewhere) == job
    clock.advance(timedelta(minutes=59))
    assert queue.recover() == 0  # its process cannot be looked at: it may be at work still
    clock.advance(timedelta(minutes=2))
    assert queue.recover() == 1


def test_a_live_claimants_last_attempt_is_not_failed(accounts: Accounts, queue: AnalysisQueue) -> None:
    me = accounts.sign_up("lasse", "password1")
    job = add(queue, me.id, LASSE_1, seat=0)
    for _ in range(2):
        assert queue.claim() == job  # claimed by a claimant long gone, twice
        assert queue.recover() == 1
    with at_work(claimant_name("import")) as claimant:
        assert queue.claim(job, claimant) == job  # the third attempt, at work
        assert queue.recover() == 0 and queue.status(job)[0] == "running"
    assert queue.recover() == 0 and queue.status(job)[0] == "failed"
