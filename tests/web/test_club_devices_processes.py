"""The two-device rule across server processes (``gammon serve --workers N``): a seat connected in
one browser through one process is in use for another browser connecting through another process,
which may take it over; the first browser is then told and closed. An account's own devices share
its seat through different processes as through one."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.web.test_e2e import Server
from tests.web.test_multiprocess import _servers

pytestmark = pytest.mark.slow  # two servers
HEARD = 1.0
"""Seconds for one process's NOTIFY to reach the other (milliseconds on loopback)."""


@pytest.fixture
def two_servers(pg_url: str) -> Iterator[tuple[Server, Server]]:
    yield from _servers(pg_url)


def _state(ws: ClientConnection) -> dict:
    message = json.loads(ws.recv(timeout=20))
    assert message["type"] == "state", message
    return dict(message["state"])


def _closed_with(ws: ClientConnection, error: str, code: int) -> None:
    """The socket's messages until it closes: the last says ``error``, the close is ``code``."""
    last: dict = {}
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(20):
            last = json.loads(ws.recv(timeout=20))
    assert last.get("error") == error, last
    assert closed.value.rcvd is not None and closed.value.rcvd.code == code


def test_a_seat_in_use_through_another_process_can_be_taken_over(two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    m = httpx.post(a.url + "/api/matches", json={"mode": "online", "match_length": 3}).json()
    seat = f"/ws/matches/{m['match_id']}?token={m['token']}&tab="
    with connect(f"ws://127.0.0.1:{a.port}{seat}first") as first:
        _state(first)
        time.sleep(HEARD)
        with connect(f"ws://127.0.0.1:{b.port}{seat}second") as second:
            _closed_with(second, "this seat is in use in another browser", 4409)
        with connect(f"ws://127.0.0.1:{b.port}{seat}first") as same_tab:  # the same tab comes back
            _state(same_tab)
        with connect(f"ws://127.0.0.1:{b.port}{seat}second&takeover=true") as taker:
            _state(taker)
            _closed_with(first, "this seat was taken over in another browser", 4410)
            time.sleep(HEARD)
            # The seat is the taker's now: the first browser, through A, is the one refused.
            with connect(f"ws://127.0.0.1:{a.port}{seat}first") as again:
                _closed_with(again, "this seat is in use in another browser", 4409)


def test_an_accounts_devices_share_its_seat_through_two_processes(two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    r = httpx.post(
        a.url + "/api/account/sign-up",
        json={"name": "alice", "password": "a long enough password", "client": "api"},
    )
    assert r.status_code == 200, r.text
    alice = {"Authorization": "Bearer " + r.json()["token"]}
    r = httpx.post(
        b.url + "/api/account/sign-in",
        json={"name": "alice", "password": "a long enough password", "client": "api"},
    )
    assert r.status_code == 200, r.text
    laptop = {"Authorization": "Bearer " + r.json()["token"]}
    m = httpx.post(a.url + "/api/matches", json={"mode": "online", "match_length": 3}, headers=alice).json()
    seat = f"/ws/matches/{m['match_id']}?token={m['token']}&tab="
    with connect(f"ws://127.0.0.1:{a.port}{seat}phone", additional_headers=alice) as phone:
        first = _state(phone)
        time.sleep(HEARD)
        with connect(f"ws://127.0.0.1:{b.port}{seat}laptop", additional_headers=laptop) as on_laptop:
            assert _state(on_laptop)["version"] == first["version"]  # not refused
            with connect(f"ws://127.0.0.1:{b.port}{seat}stranger") as stranger:  # not signed in
                _closed_with(stranger, "this seat is in use in another browser", 4409)
