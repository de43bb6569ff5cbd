"""``gammon rollout --ray ADDRESS``: an address no cluster answers at is refused at once, quoted,
instead of Ray retrying it for many minutes, and so is one where something else listens (a server
that says nothing, an HTTP server); an address that answers as Ray does goes on to Ray."""

from __future__ import annotations

import socket
from typing import NoReturn

import pytest

from gammon.cli.main import main
from gammon.engine.rollout import parallel
from tests.engine.test_parallel_limits import SETTINGS, FakeRay, http_server, listener

FAST = ["--trials", "36", "--truncate", "2", "--seed", "5", "--workers", "1"]


class ReachedRay(Exception):
    pass


def reached_ray() -> NoReturn:
    raise ReachedRay


@pytest.fixture(autouse=True)
def no_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ray given a dead address retried it for minutes (a test run would hang): here it is not reached
    monkeypatch.setattr("gammon.engine.rollout.parallel._ray", reached_ray)


def test_an_address_nothing_listens_at_is_refused_quoted(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there now
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gammon rollout: no Ray cluster answers at '127.0.0.1:{port}': ")
    assert "refused" in err


def test_a_port_past_the_last_is_refused_quoted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", "127.0.0.1:99999" + "9" * 300]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon rollout: no Ray cluster answers at '127.0.0.1:99999") and len(err) < 500


@pytest.mark.parametrize("server", ["silent", "http"])
def test_a_listener_that_is_not_ray_is_refused_quoted(
    server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ray connected and waited for an answer for minutes, printing its log lines
    monkeypatch.setattr(parallel, "RAY_CONNECT_SECONDS", 0.5)
    with (listener(None) if server == "silent" else http_server()) as address:
        assert main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", address]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gammon rollout: no Ray cluster answers at '{address}': something listens there")
    assert err.endswith("(not a Ray cluster?)\n")


@pytest.mark.parametrize("address", ["foo://bar:1", ":6379", "x" * 3000])
def test_an_address_ray_does_not_take_is_refused_quoted(
    address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ray ended a scheme of its own in a RuntimeError's traceback, exit status 1; ":6379" came back as
    # "Malformed host: ", the long one uncut
    assert main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", address]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon rollout: no Ray cluster answers at '" + address[:11])
    assert err.endswith(": Ray takes 'local', 'auto', HOST:PORT or ray://HOST:PORT\n") and len(err) < 300


def test_an_address_that_answers_goes_on_to_ray() -> None:
    with listener(SETTINGS) as address, pytest.raises(ReachedRay):
        main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", address])
    with pytest.raises(ReachedRay):  # forms that are Ray's to judge
        main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", "local"])


def test_a_cluster_of_another_version_is_a_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ray's RuntimeError ("Version mismatch: ...") ended the command in its traceback, exit status 1
    fake = FakeRay(RuntimeError("Version mismatch: The cluster was started with:\n    Python: 3.11.7\n"))
    monkeypatch.setattr(parallel, "_ray", lambda: fake)
    with listener(SETTINGS) as address:
        assert main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", address]) == 2
    assert capsys.readouterr().err == (f"gammon rollout: cannot use the Ray cluster at '{address}': Version "
                                       "mismatch: The cluster was started with: Python: 3.11.7\n")
