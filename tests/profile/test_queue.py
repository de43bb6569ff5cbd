"""The analysis queue: jobs are rows, analysed and stored in the profile once; failures keep
their reason and are not retried; what a stopped server left running is done again."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.orm import sessionmaker

from gammon.accounts import Accounts
from gammon.accounts.games import claim_seats, delete_account
from gammon.analysis import analyse
from gammon.errors import GammonError
from gammon.i18n import LANGUAGES, tr, use_language
from gammon.profile import AnalysisQueue, read_match_file
from gammon.profile.queue import engine_for
from gammon.store import Store
from gammon.store.models import AccountRow, AnalysisJobRow, ProfileDecisionRow, ProfileMatchRow
from tests.accounts.conftest import finish_match, new_match
from tests.profile.conftest import CHARLOT_SGF, CHARLOT_XG, LASSE_1, Clock, add


def _rows(store: Store, table: type) -> list:
    with sessionmaker(store.engine)() as s:
        return list(s.scalars(select(table)))


def test_a_file_is_analysed_into_the_profile(store: Store, accounts: Accounts, queue: AnalysisQueue) -> None:
    me = accounts.sign_up("lasse", "password1")
    job = add(queue, me.id, LASSE_1, seat=0)
    assert queue.status(job) == ("queued", None)
    [outcome] = queue.work_all()
    assert (outcome.status, outcome.reason) == ("done", None)
    assert queue.work_next() is None and queue.pending() == 0
    [row] = _rows(store, ProfileMatchRow)
    assert (row.account_id, row.seat, row.player_name, row.opponent_name) == (me.id, 0, "lasse", "earl")
    assert (row.source, row.source_format, row.source_name, row.plies) == ("file", "mat", LASSE_1.name, 0)
    read = read_match_file(LASSE_1.read_bytes(), LASSE_1.name)
    assert (row.player_score, row.opponent_score) == read.match.score
    assert row.result == ("won" if read.match.winner == 0 else "lost")
    # the player's statistics as the analysis defines them
    analysis = analyse(read.match, engine_for(0), names=read.names)
    stats = analysis.statistics(resamples=1)[0]
    assert abs(row.pr - stats.overall.pr) < 1e-9
    assert abs(row.checker_error_rate - stats.checker.error_rate) < 1e-9
    assert abs(row.luck_total - stats.luck.total) < 1e-9
    decisions = _rows(store, ProfileDecisionRow)
    mine = [d for d in analysis.marked() if d.context.player == 0]
    assert len(decisions) == len(mine) > 0
    for d in decisions:
        assert d.mark in ("doubtful", "bad", "very bad") and d.error > 0.03
        assert d.xgid.startswith("XGID=") and d.gnubg_id.count(":") == 1
        assert d.best != d.played or d.kind == "cube"
    # the file's bytes are not kept once the match is in the profile
    [job_row] = _rows(store, AnalysisJobRow)
    assert job_row.file_data is None and job_row.profile_match_id == row.id


def test_the_same_match_in_another_format_is_a_duplicate(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    me = accounts.sign_up("charlot1", "password1")
    add(queue, me.id, CHARLOT_SGF, seat=0)
    add(queue, me.id, CHARLOT_XG, seat=0)
    first, second = queue.work_all()
    assert (first.status, second.status) == ("done", "duplicate")
    assert second.profile_match_id == first.profile_match_id
    assert [r.player_name for r in _rows(store, ProfileMatchRow)] == ["charlot1"]
    # (another account may have the same match in its own profile: tests/profile/test_summary.py)


def test_a_failure_keeps_its_reason_and_is_not_retried(accounts: Accounts, queue: AnalysisQueue) -> None:
    me = accounts.sign_up("lasse", "password1")
    job = queue.add_file(me.id, 0, b"this is not a match", "broken.mat", "mat", plies=0)
    [outcome] = queue.work_all()
    assert outcome.status == "failed" and outcome.reason
    assert queue.status(job) == ("failed", outcome.why())
    assert queue.work_next() is None


def test_a_failures_reason_is_read_in_the_readers_language(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    """The worker does not know who will read a failure: its reason is kept in every language and
    read in the current one; a row from before (a plain English text) is shown as it is."""
    me = accounts.sign_up("lasse", "password1")
    broken = queue.add_file(me.id, 0, b"this is not a match", "broken.mat", "mat", plies=0)
    queue.add_match("nope", me.id, 0, plies=0)
    outcomes = queue.work_all()
    said = {}
    for lang in LANGUAGES:
        with use_language(lang):
            said[lang] = [o.why() for o in outcomes]
            assert queue.status(broken) == ("failed", said[lang][0])
            with pytest.raises(GammonError) as read:
                read_match_file(b"this is not a match", "broken.mat")
            assert said[lang][0] == str(read.value)  # the reader's own words in the language
            assert said[lang][1] == tr("no match {id} is stored", id="'nope'")
    assert len({tuple(texts) for texts in said.values()}) == len(LANGUAGES)
    with sessionmaker(store.engine).begin() as s:
        s.execute(update(AnalysisJobRow).where(AnalysisJobRow.id == broken).values(reason="an old reason"))
    with use_language("cs"):
        assert queue.status(broken) == ("failed", "an old reason")


def test_what_a_stopped_server_left_running_is_done_when_it_starts(
    store: Store, accounts: Accounts, clock: Clock
) -> None:
    me = accounts.sign_up("lasse", "password1")
    before = AnalysisQueue(store, clock=clock)
    job = add(before, me.id, LASSE_1, seat=0)
    assert before.claim() == job  # the server stops while analysing it
    assert before.claim() is None
    after = AnalysisQueue(store, clock=clock)  # the server starts again
    assert after.recover() == 1
    [outcome] = after.work_all()
    assert outcome.status == "done"


def test_a_job_that_stops_its_worker_every_time_fails_at_last(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    me = accounts.sign_up("lasse", "password1")
    job = add(queue, me.id, LASSE_1, seat=0)
    for _ in range(3):
        assert queue.claim() == job
        queue.recover()
    assert queue.status(job)[0] == "failed"
    assert "3 times" in (queue.status(job)[1] or "")
    with use_language("pl"):
        assert queue.status(job)[1] == "analiza 3 razy się nie zakończyła"
    assert queue.claim() is None


def test_a_claimed_job_is_not_claimed_twice(accounts: Accounts, queue: AnalysisQueue) -> None:
    me = accounts.sign_up("lasse", "password1")
    first = add(queue, me.id, LASSE_1, seat=0)
    second = add(queue, me.id, LASSE_1, seat=1)
    assert queue.claim() == first
    assert queue.claim(first) is None
    assert queue.claim() == second
    assert queue.claim() is None


def test_withdraw_takes_off_the_claimants_jobs_only(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    """A stopped import takes off its queued jobs and those its workers run; one a server's worker
    claimed (no claimant), or claimed again after a server started and queued it anew, stays."""
    me = accounts.sign_up("lasse", "password1")
    queued, mine, servers, taken_over = (add(queue, me.id, LASSE_1, seat=s % 2) for s in range(4))
    assert queue.claim(mine, "import a") == mine
    assert queue.claim(servers) == servers
    assert queue.claim(taken_over, "import a") == taken_over
    assert queue.status(mine) == ("running", None)  # the claimant is no reason
    queue.withdraw([mine, servers, taken_over], "import b")  # another import's: none of them
    assert [j.status for j in _rows(store, AnalysisJobRow)] == ["queued", "running", "running", "running"]
    AnalysisQueue(store).recover()  # a server starts: what was running is queued again...
    for job in (mine, servers, taken_over):
        assert queue.claim(job, "import a" if job == mine else None) == job  # ...and claimed
    queue.withdraw([queued, mine, servers, taken_over], "import a")
    assert [j.id for j in _rows(store, AnalysisJobRow)] == [servers, taken_over]


def test_a_match_played_here(store: Store, accounts: Accounts, queue: AnalysisQueue) -> None:
    alice = accounts.sign_up("alice", "password1")
    new_match(store, "m1", mode="local", length=3, names=["alice", "bob"])
    finish_match(store, "m1", winner=0, length=3)
    queue.add_match("m1", alice.id, 0, plies=0)
    [outcome] = queue.work_all()
    assert outcome.status == "done", outcome.reason
    [row] = _rows(store, ProfileMatchRow)
    assert (row.source, row.source_name, row.source_format) == ("here", "m1", None)
    assert (row.player_name, row.opponent_name, row.result) == ("alice", "bob", "won")
    assert (row.player_score, row.opponent_score) == (3, 0)


def test_a_match_queued_before_the_opponent_deleted_their_account_names_them_anonymous(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    tokens = new_match(store, "m1", mode="online", length=3)
    finish_match(store, "m1", winner=0, length=3)
    alice = accounts.sign_up("alice", "password1")
    accounts.sign_up("bob", "password1")
    claim_seats(accounts, accounts.sign_in("alice", "password1").token, [tokens[0]])
    bob_session = accounts.sign_in("bob", "password1").token
    claim_seats(accounts, bob_session, [tokens[1]])
    queue.add_match("m1", alice.id, 0, plies=0)
    delete_account(accounts, bob_session, "password1")
    [outcome] = queue.work_all()
    assert outcome.status == "done", outcome.reason
    [row] = _rows(store, ProfileMatchRow)
    assert (row.player_name, row.opponent_name) == ("alice", "Anonymous")


def test_an_unknown_match_fails(accounts: Accounts, queue: AnalysisQueue) -> None:
    me = accounts.sign_up("alice", "password1")
    queue.add_match("nope", me.id, 0, plies=0)
    [outcome] = queue.work_all()
    assert outcome.status == "failed" and "nope" in (outcome.reason or "")


def test_an_account_deleted_takes_its_profile_and_queue_along(
    store: Store, accounts: Accounts, queue: AnalysisQueue
) -> None:
    me = accounts.sign_up("lasse", "password1")
    add(queue, me.id, LASSE_1, seat=0)
    queue.work_all()
    add(queue, me.id, LASSE_1, seat=0)
    assert queue.pending(me.id) == 1
    with sessionmaker(store.engine).begin() as s:
        s.execute(delete(AccountRow).where(AccountRow.id == me.id))
    assert _rows(store, ProfileMatchRow) == _rows(store, ProfileDecisionRow) == []
    assert _rows(store, AnalysisJobRow) == []


def test_a_server_worker_recovers_then_works_until_stopped(
    store: Store, accounts: Accounts, clock: Clock
) -> None:
    me = accounts.sign_up("lasse", "password1")
    stopped = AnalysisQueue(store, clock=clock)
    job = add(stopped, me.id, LASSE_1, seat=0)
    stopped.claim()  # the server stopped while analysing it
    queue = AnalysisQueue(store, clock=clock)
    stop = threading.Event()
    worker = threading.Thread(target=queue.serve, args=(stop, 0.05))
    worker.start()
    try:
        for _ in range(600):
            if queue.status(job)[0] == "done":
                break
            time.sleep(0.05)
    finally:
        stop.set()
        worker.join(10)
    assert queue.status(job) == ("done", None) and not worker.is_alive()
