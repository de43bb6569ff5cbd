"""``gammon import`` on hostile folders: a database it cannot write, a file far larger than a
match, file names with a terminal's escape sequences or bytes that are no UTF-8. Each is said in
one line naming the file, the other files still imported, no traceback."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
from pathlib import Path
from typing import Any, NoReturn

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.cli.main import main
from gammon.engine.rollout import parallel
from gammon.errors import GammonError, InvalidArgumentError, StoreUnavailableError
from gammon.profile import AnalysisQueue, importer
from gammon.profile.importer import run_jobs
from gammon.profile.queue import run_job
from gammon.profile.source import MAX_MATCH_FILE_BYTES, read_file
from gammon.store import Store
from gammon.store.models import AnalysisJobRow
from tests.accounts.conftest import CHEAP
from tests.profile.conftest import CHARLOT_SGF, LASSE_1, LASSE_2

LASSE_3 = LASSE_1.with_name("bglab-lasse-match1090480.mat")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database with the account 'lasse'."""
    path = tmp_path / "profile.sqlite3"
    store = Store(f"sqlite:///{path}")
    try:
        Accounts(store, passwords=Passwords(CHEAP)).sign_up("lasse", "password1")
    finally:
        store.close()
    return path


def _import(folder: Path, url: str) -> int:
    return main(["import", str(folder), "--player", "lasse", "--database-url", url, "--plies", "0",
                 "--workers", "1"])


def _jobs(db: Path) -> list[str]:
    store = Store(f"sqlite:///{db}")
    try:
        with store.engine.connect() as conn:
            return list(conn.execute(select(AnalysisJobRow.file_name)).scalars())
    finally:
        store.close()


def test_a_database_it_cannot_write_is_said_in_one_line(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was a traceback ending in SQLAlchemy's INSERT statement and its parameters."""
    folder = tmp_path / "matches"
    folder.mkdir()
    shutil.copy(LASSE_1, folder / "lasse.mat")
    assert _import(folder, f"sqlite:///file:{db}?mode=ro&uri=true") == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon import: ") and "attempt to write a readonly database" in err
    assert "INSERT" not in err and len(err.splitlines()) == 1
    assert _jobs(db) == []


def test_a_database_that_fails_while_analysing_is_a_gammon_error(db: Path) -> None:
    store = Store(f"sqlite:///{db}")
    try:
        job = AnalysisQueue(store).add_file(1, 0, LASSE_1.read_bytes(), "lasse.mat", "mat", 0)
    finally:
        store.close()
    url = f"sqlite:///file:{db}?mode=ro&uri=true"
    read_only = Store(url)
    try:
        with pytest.raises(StoreUnavailableError, match="failed while analysing: attempt to write"):
            run_jobs(AnalysisQueue(read_only), url, [job])
    finally:
        read_only.close()


def test_a_file_larger_than_a_match_is_left_unread(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 210 MB .mat file of short lines took 5.5 GB and 105 s to be refused at its second line."""
    folder = tmp_path / "matches"
    folder.mkdir()
    shutil.copy(LASSE_1, folder / "lasse.mat")
    with open(folder / "huge.mat", "wb") as f:  # sparse: no disk used
        f.truncate(MAX_MATCH_FILE_BYTES + 1)
    assert _import(folder, f"sqlite:///{db}") == 1
    out = capsys.readouterr().out
    assert "lasse: 1 imported, 0 duplicates, 1 failed" in out
    assert f"failed: {folder / 'huge.mat'}: the file has more than 16 MB, more than a match file has" in out


def test_read_file_reads_up_to_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "m.mat"
    with open(path, "wb") as f:
        f.truncate(MAX_MATCH_FILE_BYTES)
    assert len(read_file(path)) == MAX_MATCH_FILE_BYTES
    with open(path, "ab") as f:
        f.write(b"x")
    with pytest.raises(InvalidArgumentError, match="more than 16 MB"):
        read_file(path)


def test_a_file_name_is_printed_without_its_control_characters(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The name went to the terminal as it was: its escape sequences cleared the screen, its line
    break split the line."""
    folder = tmp_path / "matches"
    folder.mkdir()
    shutil.copy(LASSE_1, folder / "lasse.mat")
    (folder / "j\x1b[2J\nx.txt").write_text("junk\n")
    assert _import(folder, f"sqlite:///{db}") == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert out.splitlines()[1].startswith(f"  failed: {folder}/j\ufffd[2J\ufffdx.txt: line 1: 'junk'")


def test_a_file_name_that_is_no_utf8_is_imported(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Latin-1 name ('Zoë' from an old archive) stopped the whole import with "gammon import:
    'utf-8' codec can't encode character '\\udceb' ...", which named no file."""
    folder = tmp_path / "matches"
    folder.mkdir()
    shutil.copy(LASSE_1, os.path.join(os.fsencode(folder), b"Zo\xeb.mat"))
    (folder / "junk.txt").write_text("junk\n")
    assert _import(folder, f"sqlite:///{db}") == 1
    out = capsys.readouterr().out
    assert "lasse: 1 imported, 0 duplicates, 1 failed" in out
    assert _jobs(db) == ["Zo\ufffd.mat"]


def test_a_match_with_no_roll_is_not_imported(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A header-only .mat file was imported as a profile match against its opponent (unfinished,
    PR 0.0), and another one, against someone else, was called its duplicate (same fingerprint)."""
    folder = tmp_path / "matches"
    folder.mkdir()
    for opponent in ("bob", "carol"):
        header = f'; [Player 1 "lasse"]\n; [Player 2 "{opponent}"]\n\n 7 point match\n'
        (folder / f"{opponent}.mat").write_text(header)
    assert _import(folder, f"sqlite:///{db}") == 1
    out = capsys.readouterr().out
    assert "lasse: 0 imported, 0 duplicates, 2 failed" in out
    assert f"failed: {folder / 'carol.mat'}: no dice are rolled in the match: there is nothing to" in out
    assert _jobs(db) == []


def test_a_folder_that_cannot_be_read_is_said(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Path.rglob skipped a folder it could not list (Python 3.11, a folder of another user's,
    mode 700) without a word, and the matches in it were not imported."""
    folder = tmp_path / "matches"
    (folder / "secret").mkdir(parents=True)
    shutil.copy(LASSE_1, folder / "lasse.mat")
    shutil.copy(LASSE_1, folder / "secret" / "lasse.mat")
    scandir = os.scandir

    def refused(path: str | Path = ".") -> object:  # what listing it does to a user without read rights
        if Path(path).name == "secret":
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refused)
    assert _import(folder, f"sqlite:///{db}") == 1
    out = capsys.readouterr().out
    assert "lasse: 1 imported, 0 duplicates, 1 failed" in out
    assert f"failed: {folder / 'secret'}: the folder cannot be read: Permission denied" in out


def test_matches_a_server_analyses_meanwhile_are_counted(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's worker on the same database takes queued jobs too: of three matches, one it had
    analysed and one it was analysing were left out of the summary ('1 imported, 0 duplicates,
    0 failed')."""
    folder = tmp_path / "matches"
    folder.mkdir()
    for path in (LASSE_1, LASSE_2, LASSE_3):
        shutil.copy(path, folder)
    url = f"sqlite:///{db}"
    planned = importer.plan_import

    def with_a_server(*args: Any, **kwargs: Any) -> importer.ImportPlan:
        plan = planned(*args, **kwargs)
        server = Store(url)
        try:
            queue = AnalysisQueue(server)
            (first, _), (second, _), _ = plan.queued
            assert queue.claim(first) is not None and queue.run(first).status == "done"
            assert queue.claim(second) is not None  # and still at it
        finally:
            server.close()
        return plan

    monkeypatch.setattr(importer, "plan_import", with_a_server)
    assert _import(folder, url) == 0
    out = capsys.readouterr().out
    assert "lasse: 2 imported, 0 duplicates, 0 failed" in out
    assert "1 match is being analysed by another process using the same database (a server)" in out


def test_reading_the_files_tells_each_one_done(db: Path, tmp_path: Path) -> None:
    """Reading a folder of 3,000 files took four minutes with nothing on the terminal (the bar
    showed the analyses only): plan_import now tells of each file, whatever became of it."""
    folder = tmp_path / "matches"
    folder.mkdir()
    shutil.copy(LASSE_1, folder / "a.mat")
    shutil.copy(LASSE_1, folder / "b.mat")  # the same match again
    shutil.copy(CHARLOT_SGF, folder / "c.sgf")  # other players
    (folder / "d.txt").write_text("junk\n")
    store = Store(f"sqlite:///{db}")
    told: list[int] = []
    try:
        plan = importer.plan_import(AnalysisQueue(store), 1, importer.match_files(folder), "lasse", 0,
                                    lambda: told.append(1))
    finally:
        store.close()
    assert (len(plan.queued), len(plan.duplicates), len(plan.failed)) == (1, 1, 2)
    assert len(told) == 4


def _statuses(db: Path) -> list[str]:
    store = Store(f"sqlite:///{db}")
    try:
        with store.engine.connect() as conn:
            return sorted(conn.execute(select(AnalysisJobRow.status)).scalars())
    finally:
        store.close()


def _stop_at(n: int) -> Any:
    """A callback that stops the import (Ctrl-C) at its ``n``-th call."""
    calls = []

    def told(*_: object) -> None:
        calls.append(1)
        if len(calls) == n:
            raise KeyboardInterrupt

    return told


def test_an_import_stopped_leaves_nothing_queued(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped by Ctrl-C after 1 of 5 matches, gammon import left 4 jobs queued and 1 running for
    good (each with its file's bytes), and importing again queued the 5 files anew: the jobs of an
    import not run are now taken off the queue; the matches analysed stay."""
    files = [LASSE_1, LASSE_2, LASSE_3]
    store = Store(f"sqlite:///{db}")
    try:
        queue = AnalysisQueue(store)
        with pytest.raises(KeyboardInterrupt):  # while reading the files
            importer.plan_import(queue, 1, files, "lasse", 0, _stop_at(2))
        assert _statuses(db) == []
        plan = importer.plan_import(queue, 1, files, "lasse", 0)
        jobs = [job_id for job_id, _ in plan.queued]
        with pytest.raises(KeyboardInterrupt):  # once the first match is analysed
            importer.run_jobs(queue, store.url, jobs, done=_stop_at(1))
        assert _statuses(db) == ["done"]
        plan = importer.plan_import(queue, 1, files, "lasse", 0)
        monkeypatch.setattr(AnalysisQueue, "run", _stop_at(1))  # in the middle of an analysis
        with pytest.raises(KeyboardInterrupt):
            importer.run_jobs(queue, store.url, [job_id for job_id, _ in plan.queued])
        assert _statuses(db) == ["done"]
    finally:
        store.close()


def test_a_job_stopped_in_a_worker_process_is_not_left_running(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C with --workers 2 (it reaches the pool's workers too; Ray cancels a task so) left the
    jobs the workers were analysing running for good, with their files' bytes: a server counted
    them pending. The worker takes its own job off the queue."""
    store = Store(f"sqlite:///{db}")
    try:
        queue = AnalysisQueue(store)
        plan = importer.plan_import(queue, 1, [LASSE_1, LASSE_2], "lasse", 0)
        first, second = (job_id for job_id, _ in plan.queued)
        monkeypatch.setattr(AnalysisQueue, "run", _stop_at(1))  # in the middle of an analysis
        with pytest.raises(KeyboardInterrupt):
            run_job(store.url, first)  # as a pool's worker runs it
        assert _statuses(db) == ["queued"]  # the other one, still the import's to take off
        assert queue.status(second) == ("queued", None)
    finally:
        store.close()


def test_a_worker_killed_leaves_the_imports_jobs_not_a_servers(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--workers 2 with a worker killed mid-analysis (SIGKILL, as the out-of-memory killer does)
    left the job it had claimed running for good, with its file's bytes. The import takes off the
    jobs its own workers were running; one a server's worker on the same database claimed before
    them is the server's, and stays running."""
    store = Store(f"sqlite:///{db}")
    parent = os.getpid()

    def killed(self: AnalysisQueue, job_id: int) -> NoReturn:
        if os.getpid() != parent:  # a pool's worker (forked with this patch)
            os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("analysed in the importing process, not a worker")

    try:
        queue = AnalysisQueue(store)
        plan = importer.plan_import(queue, 1, [LASSE_1, LASSE_2], "lasse", 0)
        mine, servers = (job_id for job_id, _ in plan.queued)
        assert AnalysisQueue(store).claim(servers) == servers  # a server's worker, at it still
        monkeypatch.setattr(AnalysisQueue, "run", killed)
        with pytest.raises(GammonError, match="a worker process ended"):
            run_jobs(queue, store.url, [mine, servers], workers=2)
        assert _statuses(db) == ["running"]
        assert queue.status(servers) == ("running", None)
    finally:
        store.close()


def test_an_import_that_cannot_analyse_leaves_nothing_queued(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--ray without Ray installed: gammon import said so and exited 2, leaving its 2 jobs queued
    for good with their files' bytes (importing again queued the files anew)."""

    def no_ray() -> None:
        raise ImportError("a Ray address was given but Ray is not installed: pip install 'gammon[cluster]'")

    monkeypatch.setattr(parallel, "_ray", no_ray)
    folder = tmp_path / "matches"
    folder.mkdir()
    shutil.copy(LASSE_1, folder)
    shutil.copy(LASSE_2, folder)
    url = f"sqlite:///{db}"
    assert main(["import", str(folder), "--player", "lasse", "--database-url", url, "--plies", "0",
                 "--ray", "local"]) == 2
    assert "Ray is not installed" in capsys.readouterr().err
    assert _statuses(db) == []


def test_a_database_failing_while_the_files_are_read_leaves_nothing_queued(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The database locked (another writer holding it past the 30 s wait) at the third file:
    gammon import said so and exited 2, leaving the first two files' jobs queued for good."""
    add_file = AnalysisQueue.add_file
    calls = []

    def locked_at_third(self: AnalysisQueue, *args: Any, **kwargs: Any) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))
        return add_file(self, *args, **kwargs)

    monkeypatch.setattr(AnalysisQueue, "add_file", locked_at_third)
    folder = tmp_path / "matches"
    folder.mkdir()
    for path in (LASSE_1, LASSE_2, LASSE_3):
        shutil.copy(path, folder)
    assert _import(folder, f"sqlite:///{db}") == 2
    assert "database is locked" in capsys.readouterr().err
    assert _statuses(db) == []


def test_a_database_failing_while_analysing_leaves_none_of_the_jobs(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The database locked as the first match's analysis was stored (--workers 1): gammon import
    said so and exited 2, leaving that job running and the other queued, with their files' bytes."""

    def locked(self: AnalysisQueue, job_id: int) -> NoReturn:
        raise OperationalError("UPDATE", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(AnalysisQueue, "run", locked)
    folder = tmp_path / "matches"
    folder.mkdir()
    for path in (LASSE_1, LASSE_2):
        shutil.copy(path, folder)
    assert _import(folder, f"sqlite:///{db}") == 2
    assert "database is locked" in capsys.readouterr().err
    assert _statuses(db) == []
