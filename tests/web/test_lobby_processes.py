"""Two server processes on one PostgreSQL share one lobby: a player connected to one sees who is on
the other and the invitations posted there, live; an invitation accepted in both at once starts one
match."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.web.test_e2e import Server
from tests.web.test_multiprocess import _servers

pytestmark = pytest.mark.slow  # two servers
PASSWORD = "a long enough password"


@pytest.fixture
def two_servers(pg_url: str) -> Iterator[tuple[Server, Server]]:
    yield from _servers(pg_url)


def _member(server: Server, name: str) -> dict[str, str]:
    r = httpx.post(
        server.url + "/api/account/sign-up", json={"name": name, "password": PASSWORD, "client": "api"}
    )
    assert r.status_code == 200, r.text
    return {"Authorization": "Bearer " + r.json()["token"]}


@contextlib.contextmanager
def _lobby(server: Server, who: dict[str, str]) -> Iterator[ClientConnection]:
    with connect(f"ws://127.0.0.1:{server.port}/ws/lobby", additional_headers=who) as ws:
        assert json.loads(ws.recv(timeout=20))["type"] == "hello"
        yield ws


def _until(ws: ClientConnection, key: str, want: object = None) -> dict:
    """The socket's next message with ``key`` (holding ``want``, where given)."""
    for _ in range(100):
        message = json.loads(ws.recv(timeout=20))
        if key in message and (want is None or want in message[key]):
            return message
    raise AssertionError(f"no message with {key!r}")


def test_two_processes_share_one_lobby(two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    alice, bob, carol = _member(a, "alice"), _member(b, "bob"), _member(a, "carol")
    with _lobby(a, alice) as at_a, _lobby(b, bob) as at_b:
        names = {p["name"] for p in _until(at_b, "players")["players"]}
        while "alice" not in names:  # bob (on b) sees alice, whose socket is on a
            names |= {p["name"] for p in _until(at_b, "players")["players"]}
        r = httpx.post(
            a.url + "/api/lobby/invitations", json={"match_length": 1, "rated": True}, headers=alice
        )
        invitation = r.json()["id"]
        shown = _until(at_b, "invitations")["invitations"]
        assert [i["id"] for i in shown] == [invitation] and shown[0]["rated"]
        # bob (through b) and carol (through a) accept at once: one match
        answers: dict[str, httpx.Response] = {}

        def accept(name: str, server: Server, who: dict[str, str]) -> None:
            answers[name] = httpx.post(f"{server.url}/api/lobby/invitations/{invitation}/accept", headers=who)

        threads = [
            threading.Thread(target=accept, args=("bob", b, bob)),
            threading.Thread(target=accept, args=("carol", a, carol)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(r.status_code for r in answers.values()) == [200, 409], {
            k: r.text for k, r in answers.items()
        }
        won = next(r.json() for r in answers.values() if r.status_code == 200)
        started = _until(at_a, "started")["started"]
        assert started == [{"id": invitation, "match_id": won["match_id"]}]
        assert _until(at_b, "gone")["gone"] == [invitation]
        seat = httpx.post(f"{a.url}/api/lobby/invitations/{invitation}/seat", headers=alice).json()
        assert seat["match_id"] == won["match_id"] and seat["seat"] == 0
        view = httpx.get(f"{b.url}/api/matches/{seat['match_id']}", headers={"X-Gammon-Token": seat["token"]})
        assert view.json()["rated"] and [x["name"] for x in view.json()["accounts"]][0] == "alice"
