"""``gammon import --ray`` and ``--workers``: an address no cluster answers at, or where something
else listens, is refused at once, quoted, before a file is read or queued (Ray retried it for
minutes); Ray's own ConnectionError is a message, not a traceback, and leaves nothing queued; a bad
number of processes is refused quoted; a worker process killed mid-analysis is said, not a
traceback, and leaves none of its jobs behind."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path
from typing import Any, NoReturn

import pytest
from sqlalchemy import select

from gammon.accounts import Accounts
from gammon.accounts.passwords import Passwords
from gammon.cli.main import main
from gammon.engine.rollout import parallel
from gammon.profile import AnalysisQueue
from gammon.store import Store
from gammon.store.models import AnalysisJobRow
from tests.accounts.conftest import CHEAP
from tests.engine.test_parallel_limits import FakeRay, free_port, http_server, listener
from tests.profile.conftest import LASSE_1, LASSE_2


class ReachedRay(Exception):
    pass


def reached_ray() -> NoReturn:
    raise ReachedRay


@pytest.fixture
def url(tmp_path: Path) -> str:
    """A database with the account 'lasse'."""
    url = f"sqlite:///{tmp_path / 'profile.sqlite3'}"
    store = Store(url)
    try:
        Accounts(store, passwords=Passwords(CHEAP)).sign_up("lasse", "password1")
    finally:
        store.close()
    return url


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "matches"
    folder.mkdir()
    shutil.copy(LASSE_1, folder)
    shutil.copy(LASSE_2, folder)
    return folder


def _jobs(url: str) -> list[Any]:
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return list(conn.execute(select(AnalysisJobRow.id)).scalars())
    finally:
        store.close()


def _import(folder: Path, url: str, *more: str) -> int:
    return main(["import", str(folder), "--player", "lasse", "--database-url", url, "--plies", "0", *more])


def test_an_address_nothing_listens_at_is_refused_quoted(
    url: str, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(parallel, "_ray", reached_ray)  # Ray given the dead address retried it for minutes
    port = free_port()
    assert _import(folder, url, "--ray", f"127.0.0.1:{port}") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gammon import: no Ray cluster answers at '127.0.0.1:{port}': ")
    assert "Traceback" not in err
    assert _jobs(url) == []


@pytest.mark.parametrize("server", ["silent", "http"])
def test_a_listener_that_is_not_ray_is_refused_quoted(
    url: str, folder: Path, server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ray connected and waited for an answer for minutes, with the files queued
    monkeypatch.setattr(parallel, "_ray", reached_ray)
    monkeypatch.setattr(parallel, "RAY_CONNECT_SECONDS", 0.5)
    with (listener(None) if server == "silent" else http_server()) as address:
        assert _import(folder, url, "--ray", address) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gammon import: no Ray cluster answers at '{address}': something listens there")
    assert err.endswith("(not a Ray cluster?)\n")
    assert _jobs(url) == []


def test_rays_own_connection_error_is_a_message_and_leaves_nothing_queued(
    url: str, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "auto" with no cluster running: Ray raised ConnectionError, which ended in a traceback
    fake = FakeRay(ConnectionError("Could not find any running Ray instance."))
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    assert _import(folder, url, "--ray", "auto") == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon import: no Ray cluster answers at 'auto': Could not find any")
    assert len(fake.inits) == 1 and _jobs(url) == []


@pytest.mark.parametrize(
    ("given", "said"),
    [("0", "'0' must be at least 1"), ("-2", "'-2' must be at least 1"),
     ("abc", "'abc' is not a whole number"), ("257", "'257' processes is more than 256"),
     ("9" * 500, "999... processes is more than 256")],
)
def test_a_bad_number_of_processes_is_refused_quoted(
    url: str, folder: Path, given: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        _import(folder, url, "--workers", given)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --workers: " in err and said in err and len(err) < 1000
    assert _jobs(url) == []


def test_a_worker_killed_mid_analysis_is_said(
    url: str, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    parent = os.getpid()

    def killed(self: AnalysisQueue, job_id: int) -> NoReturn:
        if os.getpid() != parent:  # a pool's worker (forked with this patch)
            os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
        raise AssertionError("analysed in the importing process, not a worker")

    monkeypatch.setattr(AnalysisQueue, "run", killed)
    # it ended in BrokenProcessPool's traceback, exit status 1
    assert _import(folder, url, "--workers", "2") == 2
    err = capsys.readouterr().err
    assert err == ("gammon import: a worker process ended before finishing its work (killed, or out of "
                   "memory?)\n")
    # the job the killed worker had claimed stayed running for good, with its file's bytes (a
    # server counted it pending, importing again queued the file anew)
    assert _jobs(url) == []
