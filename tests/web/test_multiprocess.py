"""Several server processes on one PostgreSQL serve the same matches: the two players of an online
game, connected to different processes, stay in step (LISTEN/NOTIFY carries each change across), and
each process sees who is connected to the others."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from gammon.records import replay_match
from gammon.store import Store
from gammon.store.models import Base
from gammon.web.actions import rules_from_dict
from tests.web.test_e2e import Server

pytestmark = pytest.mark.slow  # each test starts two servers


def _servers(pg_url: str, *options: str) -> Iterator[tuple[Server, Server]]:
    store = Store(pg_url)
    Base.metadata.drop_all(store.engine)
    store.close()
    # The test plays as fast as the servers answer: faster than a person, and than the rate limit.
    options = ("--rate-limit", "1000", *options)
    servers = (Server(pg_url, *options), Server(pg_url, *options))
    for s in servers:
        s.start()
    yield servers
    for s in servers:
        s.stop()


@pytest.fixture
def two_servers(pg_url: str) -> Iterator[tuple[Server, Server]]:
    yield from _servers(pg_url)


AWAY_AFTER = 1.0


@pytest.fixture
def two_quick_servers(pg_url: str) -> Iterator[tuple[Server, Server]]:
    """Two processes where a player who must act may be claimed against after AWAY_AFTER seconds."""
    yield from _servers(pg_url, "--away-after", str(AWAY_AFTER))


def _next_state(ws: ClientConnection) -> dict:
    message = json.loads(ws.recv(timeout=20))
    assert message["type"] == "state", message
    return message["state"]


def _next_change(ws: ClientConnection, version: int) -> dict:
    """The socket's next state newer than ``version``. States of ``version`` itself may come
    first: when a seat's socket opens in another process, this one pushes the opponent its state
    again (presence), and that notice can reach the socket after the first state it read."""
    while True:
        state = _next_state(ws)
        if state["version"] > version:
            return state
        assert state["version"] == version, state


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
                msg = {"action": "take" if rng.random() < 0.8 else "pass"}
            elif "roll" in acts:
                msg = {"action": "double" if "double" in acts and rng.random() < 0.05 else "roll"}
            else:
                raise AssertionError(f"seat {turn} has nothing to do: {acts}")
            sockets[turn].send(json.dumps(msg | {"version": st["version"]}))
            mine = _next_change(sockets[turn], st["version"])  # the acting seat's own server answers
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


def test_a_player_connected_to_another_process_is_present(two_quick_servers: tuple[Server, Server]) -> None:
    a, b = two_quick_servers
    m = httpx.post(a.url + "/api/matches", json={"mode": "online", "match_length": 0}).json()
    tokens = (m["token"], m["invite_url"].split("#token=")[1])
    path = f"/ws/matches/{m['match_id']}?token="
    with connect(f"ws://127.0.0.1:{a.port}{path}{tokens[1]}") as first:
        _next_state(first)  # the friend comes to A first (A has seen it) ...
    rng = random.Random(5)

    def state_on_a() -> dict:
        r = httpx.get(f"{a.url}/api/matches/{m['match_id']}", headers={"X-Gammon-Token": tokens[0]})
        assert r.status_code == 200, r.text
        return r.json()

    def act_on_a(body: dict) -> httpx.Response:
        return httpx.post(f"{a.url}/api/matches/{m['match_id']}/actions",
                          headers={"X-Gammon-Token": tokens[0]}, json=body)

    with connect(f"ws://127.0.0.1:{a.port}{path}{tokens[0]}") as ws0:
        with connect(f"ws://127.0.0.1:{b.port}{path}{tokens[1]}") as ws1:  # ... then reconnects to B
            _next_state(ws1)
            st = state_on_a()
            while st["turn"] == 0:  # seat 0 acts until the game waits on seat 1
                acts = st["actions"]
                msg = ({"action": "play", "play": rng.choice(st["plays"])} if "play" in acts
                       else {"action": "roll"})
                r = act_on_a(msg | {"version": st["version"]})
                assert r.status_code == 200, r.text
                st = r.json()
            assert st["turn"] == 1 and not st["result"]
            deadline = time.monotonic() + 10
            while state_on_a()["opponent_away"] != 0:  # B has told A
                assert time.monotonic() < deadline, "A never saw seat 1 connected to B"
                time.sleep(0.05)
            time.sleep(AWAY_AFTER + 0.5)  # A alone would count seat 1 away since it left A
            seen = state_on_a()
            # connected: only the decision's idle limit (minutes) would let a claim through
            assert seen["opponent_away"] == 0 and "claim" not in seen["actions"]
            assert seen["claim_in"] > AWAY_AFTER
            r = act_on_a({"action": "claim"})
            assert r.status_code == 409 and "is connected" in r.json()["error"], r.text
            version = seen["version"]
        # seat 1 leaves B: A pushes the news to seat 0, and the claim goes through a while later
        deadline = time.monotonic() + 10
        while True:
            pushed = json.loads(ws0.recv(timeout=max(0.1, deadline - time.monotonic())))["state"]
            if pushed["claim_in"] is not None and pushed["claim_in"] <= AWAY_AFTER:
                break
        assert pushed["version"] == version and 0 < pushed["claim_in"] <= AWAY_AFTER
        time.sleep(AWAY_AFTER + 0.2)
        r = act_on_a({"action": "claim"})
        assert r.status_code == 200, r.text
        assert r.json()["result"]["winner"] == 0 and r.json()["result"]["reason"] == "abandon"


def rated_match_with_a_guest(url: str) -> tuple[dict[str, dict[str, str]], dict, str]:
    """Through the server at ``url``: alice and bob signed up (their API headers), and a rated
    1-point match alice made whose seat 1 no account holds yet (the match, the guest's seat token)."""
    bearer = {}
    for name in ("alice", "bob"):
        r = httpx.post(url + "/api/account/sign-up",
                       json={"name": name, "password": "a long enough password", "client": "api"})
        assert r.status_code == 200, r.text
        bearer[name] = {"Authorization": "Bearer " + r.json()["token"]}
    r = httpx.post(url + "/api/matches", json={"mode": "online", "match_length": 1, "rated": True},
                   headers=bearer["alice"])
    assert r.status_code == 200, r.text
    m = r.json()
    return bearer, m, m["invite_url"].split("#token=")[1]


def test_a_rated_seat_claimed_in_one_process_plays_in_the_other(two_servers: tuple[Server, Server]) -> None:
    """B holds a rated match whose seat 1 no account held; the seat is claimed through A, which tells
    only its own sockets: B's view of the seat reads its account again and offers its actions."""
    a, b = two_servers
    bearer, m, guest = rated_match_with_a_guest(a.url)
    url = f"{b.url}/api/matches/{m['match_id']}"
    before = httpx.get(url, headers={"X-Gammon-Token": guest}).json()  # B holds the match now
    assert before["accounts"][1] is None and before["actions"] == []
    r = httpx.post(a.url + "/api/account/claim", json={"seat_tokens": [guest]}, headers=bearer["bob"])
    assert r.status_code == 200 and r.json()["claimed"] == [m["match_id"]], r.text
    after = httpx.get(url, headers={"X-Gammon-Token": guest}).json()
    assert after["accounts"][1]["name"] == "bob" and "abandon" in after["actions"]
    game = f"ws://127.0.0.1:{b.port}/ws/matches/{m['match_id']}?token={guest}"
    with connect(game, additional_headers=bearer["bob"]) as ws:  # signed in: the seat is bob's now
        assert "abandon" in _next_state(ws)["actions"]


def test_serve_refuses_several_processes_on_sqlite(tmp_path) -> None:
    from gammon.cli.serve import main

    with pytest.raises(SystemExit, match="needs PostgreSQL"):
        main(["serve", "--port", "0", "--workers", "2", "--database-url", f"sqlite:///{tmp_path / 'g.db'}"])
