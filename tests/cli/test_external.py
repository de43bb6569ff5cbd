"""`gammon external --port`: a port it cannot listen on is said in one line before the engine
loads, with the check `gammon serve` makes."""

from __future__ import annotations

import socket

import pytest

from gammon.cli.main import main


@pytest.fixture
def no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gammon.engine.engine.Engine", lambda *a, **kw: pytest.fail("no engine to load"))


@pytest.mark.parametrize("port", ["99999", "65536"])
def test_a_port_out_of_range_is_refused(port, no_engine, capsys):
    assert main(["external", "--port", port]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gammon external: cannot listen on 127.0.0.1:{port}: ") and "Traceback" not in err
    assert err.count("\n") == 1


def test_a_port_in_use_is_refused_in_the_chosen_language(no_engine, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--lang", "pl", "external", "--port", str(port)]) == 2
    assert capsys.readouterr().err.startswith(f"gammon external: nie można nasłuchiwać na 127.0.0.1:{port}: ")
