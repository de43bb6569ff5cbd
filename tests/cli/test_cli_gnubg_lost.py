"""`gammon play --level gnubg-external:HOST:PORT` when GNU Backgammon cannot be reached or drops
the connection: one line says so, the match in progress is saved, and the exit status is not 0."""

from __future__ import annotations

import io
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gammon.cli.main import main
from gammon.formats import read_mat


@pytest.fixture
def refusing_port() -> int:
    """A port nobody listens on: connecting is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def hanging_up_port() -> Iterator[int]:
    """A listener that accepts each connection and closes it at once."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1]
    server.close()


def play_against(port: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                 *lang: str, seed: int = 5) -> tuple[int, str, str]:
    # seed 5: the person (player 0) wins the opening with 53
    monkeypatch.setattr("sys.stdin", io.StringIO("8/3 6/3\n\n"))
    level = f"gnubg-external:127.0.0.1:{port}"
    status = main([*lang, "play", "--plain", "--seed", str(seed), "--level", level])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("port", ["refusing_port", "hanging_up_port"])
def test_a_lost_gnubg_ends_the_session_with_the_match_saved(port, request, capsys, monkeypatch):
    status, out, err = play_against(request.getfixturevalue(port), capsys, monkeypatch)
    assert status == 1 and "Traceback" not in err
    [saved] = (Path(os.environ["XDG_DATA_HOME"]) / "gammon").glob("gammon-*.mat")
    [line] = [line for line in out.splitlines() if "gnubg cannot play on" in line]
    assert "> gnubg cannot play on (GNU Backgammon " in line  # after the prompt
    assert line.endswith(f"the match is saved in {saved}; 'gammon play --resume {saved}' goes on with it.")
    game = read_mat(saved.read_text()).games[0]
    assert [str(a.play) for a in game.actions if hasattr(a, "play")] == ["8/3 6/3"]


def test_the_line_is_in_the_chosen_language(refusing_port, capsys, monkeypatch):
    status, out, _ = play_against(refusing_port, capsys, monkeypatch, "--lang", "pl")
    assert status == 1 and "cannot play on" not in out and "gnubg" in out


def test_with_nothing_to_save_the_line_is_said_alone(refusing_port, capsys, monkeypatch):
    status, out, err = play_against(refusing_port, capsys, monkeypatch, seed=1)  # gnubg plays first
    assert status == 1 and "Traceback" not in err
    assert "gnubg cannot play on (GNU Backgammon at 127.0.0.1:" in out and "saved" not in out
    assert not (Path(os.environ["XDG_DATA_HOME"]) / "gammon").exists()
