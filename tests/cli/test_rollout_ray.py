"""``gammon rollout --ray ADDRESS``: an address no cluster answers at is refused at once, quoted,
instead of Ray retrying it for many minutes; an address that answers goes on to Ray."""

from __future__ import annotations

import socket
from typing import NoReturn

import pytest

from gammon.cli.main import main

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


def test_an_address_that_answers_goes_on_to_ray() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        with pytest.raises(ReachedRay):
            main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", f"127.0.0.1:{s.getsockname()[1]}"])
    with pytest.raises(ReachedRay):  # forms that are Ray's to judge
        main(["rollout", "4HPwATDgc/ABMA", *FAST, "--ray", "local"])
