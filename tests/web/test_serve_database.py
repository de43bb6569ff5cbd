"""``gammon serve`` refuses an existing database file that is empty or damaged, in one line and
before anything is served or written, instead of serving 500s or making a new database over it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gammon.cli import serve
from gammon.cli.main import main as gammon
from gammon.cli.serve import main
from gammon.store import Store
from tests.store.test_repository import _record

PAGE = 4096  # SQLite's default page size, the store's


def _serve(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[dict]]:
    started: list[dict] = []
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: started.append(kw))
    return main(["serve", "--port", "0", "--database-url", f"sqlite:///{path}"]), started


def _stored(path: Path, matches: int) -> None:
    store = Store(f"sqlite:///{path}")
    for i in range(matches):
        store.create_match(_record(f"match-{i:03}"))
    store.close()  # the last connection's close folds the write-ahead log into the file


def test_serve_refuses_a_database_file_with_a_damaged_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gammon.db"
    _stored(path, 200)
    data = bytearray(path.read_bytes())
    pages = len(data) // PAGE
    assert pages > 8
    last = (pages - 1) * PAGE  # a page of rows (the schema, on page 1, still reads)
    data[last + 8 : last + PAGE] = b"\x55" * (PAGE - 8)
    path.write_bytes(bytes(data))
    assert _serve(path, monkeypatch) == (2, [])
    err = capsys.readouterr().err
    assert err.startswith(f"gammon serve: the database file {str(path)!r} is damaged (SQLite's check: "), err
    assert "restore it from a backup" in err and err.count("\n") == 1 and "Traceback" not in err
    assert len(err) < 400
    assert path.read_bytes() == bytes(data)  # left as it was


def test_serve_refuses_an_empty_database_file_rather_than_make_a_new_one_over_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gammon.db"
    path.touch()
    assert _serve(path, monkeypatch) == (2, [])
    err = capsys.readouterr().err
    assert err == (
        f"gammon serve: the database file {str(path)!r} is empty (0 bytes), not a database: "
        "restore it from a backup, or delete it to start afresh with a new, empty database\n"
    )
    assert path.stat().st_size == 0


def test_serve_refuses_a_file_that_is_not_a_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n" * 1000)
    assert _serve(path, monkeypatch) == (2, [])
    assert capsys.readouterr().err == (
        f"gammon serve: the database file {str(path)!r} is not an SQLite "
        "database (it does not start with SQLite's header)\n"
    )


def test_serve_makes_a_new_database_and_serves_an_intact_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "new" / "gammon.db"
    path.parent.mkdir()
    code, started = _serve(path, monkeypatch)
    assert code == 0 and len(started) == 1 and path.stat().st_size > 0
    _stored(path, 3)
    code, started = _serve(path, monkeypatch)
    assert code == 0 and len(started) == 1
    store = Store(f"sqlite:///{path}")
    assert len(store.match_ids()) == 3
    store.close()


def test_serves_refusals_follow_the_terminals_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A refused database or setting is read at the terminal: in its language, and as one line
    before anything starts (a bad --public-url was a traceback from the starting server)."""
    started: list[dict] = []
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: started.append(kw))
    path = tmp_path / "gammon.db"
    path.touch()
    assert gammon(["--lang", "cs", "serve", "--port", "0", "--database-url", f"sqlite:///{path}"]) == 2
    assert capsys.readouterr().err == (
        f"gammon serve: soubor databáze {str(path)!r} je prázdný (0 bajtů), není to databáze: obnovte ho "
        "ze zálohy, nebo ho smažte a začněte s novou, prázdnou databází\n"
    )
    url = f"sqlite:///{tmp_path / 'new.db'}"
    bad_url = ["--public-url", "ftp://x?y"]
    assert gammon(["--lang", "pl", "serve", "--port", "0", "--database-url", url, *bad_url]) == 2
    assert capsys.readouterr().err == (
        "gammon serve: public_url musi być adresem URL http(s) bez zapytania, podano 'ftp://x?y'\n"
    )
    assert started == [] and not (tmp_path / "new.db").exists()


def test_the_processes_of_workers_speak_the_terminals_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The options the processes of --workers read carry the language the command runs in."""
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: None)
    monkeypatch.delenv("GAMMON_SERVE_CONFIG", raising=False)
    url = f"sqlite:///{tmp_path / 'g.db'}"
    assert gammon(["--lang", "sk", "serve", "--port", "0", "--database-url", url]) == 0
    assert json.loads(os.environ["GAMMON_SERVE_CONFIG"])["lang"] == "sk"


def test_the_idle_away_and_engine_limits_reach_the_servers_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--idle-after, --away-after and --engine-timeout travel to each process of the server through
    its options."""
    from gammon.cli.serve import app_from_environment

    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: None)
    monkeypatch.delenv("GAMMON_SERVE_CONFIG", raising=False)
    url = f"sqlite:///{tmp_path / 'g.db'}"
    args = ["serve", "--port", "0", "--database-url", url, "--idle-after", "90", "--away-after", "30"]
    assert gammon(args) == 0
    presence = app_from_environment().state.hub.presence
    assert (presence.idle_after, presence.away_after) == (90, 30)
    assert gammon(["serve", "--port", "0", "--database-url", url]) == 0
    assert app_from_environment().state.hub.presence.idle_after == 600  # the default
    assert app_from_environment().state.hub.pool.timeout == 300  # the default
    assert gammon(["serve", "--port", "0", "--database-url", url, "--engine-timeout", "45"]) == 0
    assert app_from_environment().state.hub.pool.timeout == 45
