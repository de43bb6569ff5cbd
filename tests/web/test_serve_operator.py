"""``gammon serve`` as an operator runs it: what it refuses before it serves, in one line."""

from __future__ import annotations

import logging
import logging.config
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gammon.cli import serve
from gammon.cli.serve import _log_config, main, served_url
from gammon.store import Store
from tests.store.test_repository import _record


def test_a_second_server_on_the_same_sqlite_file_is_refused_while_the_first_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "gammon.db"
    url = f"sqlite:///{path}"
    beside: dict[str, Any] = {}

    def first_server(app: object, **options: object) -> None:
        """While the first server runs: a second on the same file, one on another file, and what
        the commands that work on a server's database (account, import, drill) do."""
        others = beside.setdefault("others", [])
        monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: others.append(kw))
        capsys.readouterr()
        beside["same"] = main(["serve", "--port", "0", "--database-url", url])
        beside["err"] = capsys.readouterr().err
        other = f"sqlite:///{tmp_path / 'other.db'}"
        beside["other"] = main(["serve", "--port", "0", "--database-url", other])
        store = Store(url, check=True)
        store.create_match(_record("match-001"))
        beside["matches"] = store.match_ids()
        store.close()

    monkeypatch.setattr(serve, "run_uvicorn", first_server)
    assert main(["serve", "--port", "0", "--database-url", url]) == 0
    err = beside["err"]
    assert beside["same"] == 2 and beside["other"] == 0 and len(beside["others"]) == 1
    assert err.startswith(f"gammon serve: the database file {str(path)!r} is already served by another "), err
    assert "PostgreSQL" in err and err.count("\n") == 1 and "Traceback" not in err
    assert beside["matches"] == ["match-001"]
    # The first server has ended: its file is served again.
    assert main(["serve", "--port", "0", "--database-url", url]) == 0
    assert len(beside["others"]) == 2


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("sqlite://", "sqlite://"),
        ("sqlite:///:memory:", "sqlite:///:memory:"),
        ("sqlite:///file:games?mode=memory&cache=shared&uri=true", "sqlite:///file:games?cache=shared&mode=memory&uri=true"),
    ],
)
def test_an_sqlite_database_in_memory_is_refused(
    given: str, shown: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It started: each thread had a database of its own without tables ('no such table' in a
    # traceback a minute), and every game went with the process.
    started: list[dict] = []
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: started.append(kw))
    assert main(["serve", "--port", "0", "--database-url", given]) == 2
    assert started == []
    assert capsys.readouterr().err == (
        f"gammon serve: the database {shown!r} is SQLite in memory: it would lose every game when the server "
        "stops; give an SQLite file (sqlite:///path/to/gammon.sqlite3) or PostgreSQL\n"
    )


def test_the_processes_of_workers_have_a_minute_to_answer_uvicorns_health_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # uvicorn's 5 s killed processes still loading the engine on a busy machine (eight in the
    # first 44 s of a two-process server at load 9), each started afresh.
    started: list[dict] = []
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: started.append(kw))
    assert main(["serve", "--port", "0", "--database-url", f"sqlite:///{tmp_path / 'gammon.db'}"]) == 0
    assert started[0]["timeout_worker_healthcheck"] == 60


def test_the_access_log_cuts_a_huge_path_and_still_hides_a_token(capsys: pytest.CaptureFixture[str]) -> None:
    # The access log wrote a 60,000-character path whole, on one line.
    logging.config.dictConfig(_log_config())
    access = logging.getLogger("uvicorn.access")
    try:
        path = "/" + "B" * 60_000
        access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", path, "1.1", 404)
        access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/ws/m?token=sEcReT123", "1.1", 101)
    finally:
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
            logging.getLogger(name).handlers.clear()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert "B" * 290 in lines[0] and "B" * 300 not in lines[0] and len(lines[0]) < 400, len(lines[0])
    assert "sEcReT123" not in lines[1] and "404" in lines[0] and "101" in lines[1]


@pytest.mark.parametrize(
    ("host", "url"),
    [("::1", "http://[::1]:8000/"), ("::", "http://[::]:8000/"), ("127.0.0.1", "http://127.0.0.1:8000/"),
     ("localhost", "http://localhost:8000/")],
)
def test_the_serving_line_names_a_url_a_browser_reads(host: str, url: str) -> None:
    # --host ::1 printed 'serving on http://::1:8000/'.
    assert served_url(host, 8000) == url


# gammon serve with a stdout that, as the serving line is written, connects to the port at once:
# the server's thread waits in that write, so the port is open only if it was before the line.
SERVING_PROBE = """
import os, signal, socket, sys
from gammon.cli.serve import main

port = int(sys.argv[1])

class Probe:
    def __init__(self, out):
        self.out = out

    def write(self, text):
        written = self.out.write(text)
        if "serving on" in text:
            self.out.flush()
            with socket.socket() as client:
                try:
                    client.connect(("127.0.0.1", port))
                    sys.stderr.write("probe: connected\\n")
                except OSError as e:
                    sys.stderr.write(f"probe: {e}\\n")
            os.kill(os.getpid(), signal.SIGTERM)  # then stop the server
        return written

    def __getattr__(self, name):  # the rest as the terminal's stdout
        return getattr(self.out, name)

sys.stdout = Probe(sys.stdout)
raise SystemExit(main(["serve", "--port", str(port), "--database-url", sys.argv[2], *sys.argv[3:]]))
"""


def _probe_serving_line(database: str, *options: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = subprocess.run(
        [sys.executable, "-c", SERVING_PROBE, str(port), database, *options],
        capture_output=True, text=True, timeout=300,
    )
    assert "gammon: serving on http://127.0.0.1:" in done.stdout, done.stdout + done.stderr
    assert "probe: connected" in done.stderr, done.stderr


@pytest.mark.slow
def test_the_serving_line_comes_once_the_port_takes_connections(tmp_path: Path) -> None:
    # It was printed as the app's start-up ended, before uvicorn opened the port: a client that
    # connected on seeing it was refused ('[Errno 111] Connection refused').
    _probe_serving_line(f"sqlite:///{tmp_path / 'gammon.db'}")


@pytest.mark.slow
def test_the_serving_line_of_server_processes_comes_once_the_port_takes_connections(pg_url: str) -> None:
    # --workers printed it before uvicorn's supervisor had bound the port.
    _probe_serving_line(pg_url, "--workers", "2")
