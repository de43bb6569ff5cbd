"""Several server processes on one PostgreSQL serve the same matches: the two players of an online
game, connected to different processes, stay in step (LISTEN/NOTIFY carries each change across)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from gammon.records import replay_match
from gammon.store import Store
from gammon.store.models import Base
from gammon.web.actions import rules_from_dict
from tests.web.test_e2e import Server


@pytest.fixture
def two_servers(pg_url: str) -> Iterator[tuple[Server, Server]]:
    store = Store(pg_url)
    Base.metadata.drop_all(store.engine)
    store.close()
    # The test plays as fast as the servers answer: faster than a person, and than the rate limit.
    servers = (Server(pg_url, "--rate-limit", "1000"), Server(pg_url, "--rate-limit", "1000"))
    for s in servers:
        s.start()
    yield servers
    for s in servers:
        s.stop()


def _next_state(ws: ClientConnection) -> dict:
    message = json.loads(ws.recv(timeout=20))
    assert message["type"] == "state", message
    return message["state"]


def _catch_up(ws: ClientConnection, version: int) -> dict:
    """The socket's states until one of ``version``: each change reaches it, in order."""
    while True:
        state = _next_state(ws)
        assert state["version"] <= version
        if state["version"] == version:
            return state


def test_an_online_game_across_two_server_processes(two_servers: tuple[Server, Server], pg_url: str) -> None:
    a, b = two_servers
    m = httpx.post(a.url + "/api/matches", json={"mode": "online", "match_length": 0}).json()
    tokens = (m["token"], m["invite_url"].split("#token=")[1])
    rng = random.Random(11)
    # Seat 0 plays on server A, seat 1 on server B.
    with connect(f"ws://127.0.0.1:{a.port}/ws/matches/{m['match_id']}?token={tokens[0]}") as ws0, \
            connect(f"ws://127.0.0.1:{b.port}/ws/matches/{m['match_id']}?token={tokens[1]}") as ws1:
        sockets = (ws0, ws1)
        states = [_next_state(ws0), _next_state(ws1)]
        assert states[0]["version"] == states[1]["version"]
        for _ in range(1000):
            if states[0]["result"]:
                break
            turn = states[0]["turn"]
            st = states[turn]
            acts = st["actions"]
            if "play" in acts:
                msg: dict = {"action": "play", "play": rng.choice(st["plays"])}
            elif "take" in acts:
                msg = {"action": "take" if rng.random() < 0.8 else "drop"}
            elif "roll" in acts:
                msg = {"action": "double" if "double" in acts and rng.random() < 0.05 else "roll"}
            else:
                raise AssertionError(f"seat {turn} has nothing to do: {acts}")
            sockets[turn].send(json.dumps(msg | {"version": st["version"]}))
            mine = _next_state(sockets[turn])  # the acting seat's own server answers at once
            assert mine["version"] > st["version"], mine
            other = _catch_up(sockets[1 - turn], mine["version"])  # the other server catches up
            states[turn], states[1 - turn] = mine, other
            assert other["board"] == [-c for c in reversed(mine["board"])]
            for key in ("turn", "phase", "dice", "cube_value", "cube_owner"):
                assert other[key] == mine[key], key
        final = states[0]
        assert final["result"] and states[1]["result"] == final["result"]
    store = Store(pg_url)
    try:
        match = replay_match(rules_from_dict(store.load_match(m["match_id"]).rules),
                             store.load_log(m["match_id"]).actions)
        assert match.game.is_over and match.game.result is not None
        assert match.game.result.winner == final["result"]["winner"]
        assert list(match.game.position_for(0).board) == final["board"]
        assert store.version(m["match_id"]) == final["version"]
    finally:
        store.close()


def test_serve_refuses_several_processes_on_sqlite(tmp_path) -> None:
    from gammon.cli.serve import main

    with pytest.raises(SystemExit, match="needs PostgreSQL"):
        main(["serve", "--workers", "2", "--database-url", f"sqlite:///{tmp_path / 'g.db'}"])
