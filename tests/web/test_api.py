"""The HTTP and WebSocket API: every rejection path leaves the game as it was."""

from __future__ import annotations

import random
import re

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gammon.records import replay_match
from gammon.store import Store
from gammon.web import create_app
from gammon.web.actions import rules_from_dict
from gammon.web.engine_pool import EngineUnavailableError
from gammon.web.settings import ServerSettings
from tests.web.conftest import Clock, auth, new_match, seeded_dice


def _state(client: TestClient, m: dict, token: str | None = None) -> dict:
    r = client.get(f"/api/matches/{m['match_id']}", headers=auth(token or m["token"]))
    assert r.status_code == 200, r.text
    return r.json()


def _act(client: TestClient, m: dict, token: str | None = None, **body: object):
    return client.post(f"/api/matches/{m['match_id']}/actions", headers=auth(token or m["token"]), json=body)


def _online_tokens(m: dict) -> tuple[str, str]:
    return m["token"], m["invite_url"].split("#token=")[1]


def test_computer_match_starts_with_the_opening_roll_played(client: TestClient) -> None:
    m = new_match(client, mode="computer", level="random", match_length=3)
    s = _state(client, m)
    assert s["seat"] == 0 and s["names"] == ["You", "Computer (random)"]
    assert s["log"][0] == "Game 1" and s["log"][1].endswith(" first")
    assert s["turn"] == 0 and s["phase"] in ("roll", "move")
    assert sum(c for c in s["board"] if c > 0) + s["off"][0] == 15
    assert m["invite_url"] is None


def test_malformed_json_is_rejected(client: TestClient) -> None:
    m = new_match(client, mode="local")
    before = _state(client, m)
    r = client.post(f"/api/matches/{m['match_id']}/actions", headers={**auth(m["token"]),
                    "Content-Type": "application/json"}, content=b'{"action": "roll"')
    assert r.status_code == 400 and r.json()["error"].startswith("malformed JSON")
    r = _act(client, m, action="fly")
    assert r.status_code == 422 and "'fly'" in r.json()["error"]
    r = _act(client, m, action="roll", extra=1)
    assert r.status_code == 422 and "extra" in r.json()["error"]
    assert _state(client, m) == before


def test_a_body_not_in_utf8_is_refused_in_the_readers_language(client: TestClient) -> None:
    """FastAPI's own refusal of a body it cannot decode came through in English to every reader."""
    m = new_match(client, mode="local")
    headers = {**auth(m["token"]), "Content-Type": "application/json", "Accept-Language": "pl"}
    r = client.post(f"/api/matches/{m['match_id']}/actions", headers=headers, content=b'{"action": "\xff"}')
    assert r.status_code == 400
    assert r.json() == {"error": "nie można odczytać treści żądania: musi to być JSON w UTF-8"}


def _to_move_phase(client: TestClient, m: dict, token: str | None = None) -> dict:
    s = _state(client, m, token)
    if s["phase"] == "roll":
        r = _act(client, m, token, action="roll")
        assert r.status_code == 200, r.text
        s = r.json()
    return s


def test_an_illegal_play_is_rejected_with_the_play_quoted(client: TestClient) -> None:
    m = new_match(client, mode="local")
    s = _to_move_phase(client, m)
    assert s["phase"] == "move" and s["plays"]
    r = _act(client, m, action="play", play="24/1")
    assert r.status_code == 409 and "24/1" in r.json()["error"]
    r = _act(client, m, action="play", play="hello")
    assert r.status_code == 409 and "hello" in r.json()["error"]
    r = _act(client, m, action="play")
    assert r.status_code == 409 and "notation" in r.json()["error"]
    assert _state(client, m) == s
    r = _act(client, m, action="play", play=s["plays"][0])
    assert r.status_code == 200 and r.json()["version"] > s["version"]


def test_acting_out_of_turn_is_rejected(client: TestClient) -> None:
    m = new_match(client, mode="online")
    tokens = _online_tokens(m)
    waiting = 1 - _state(client, m)["turn"]
    assert _state(client, m, tokens[waiting])["actions"] == ["abandon"]
    s = _state(client, m)  # the friend has come: the host's view says so
    assert s["opponent_joined"] is (waiting == 1)
    for action in ("roll", "double", "take"):
        r = _act(client, m, tokens[waiting], action=action)
        assert r.status_code == 409, r.text
        assert f"player {waiting}" in r.json()["error"] or "cannot" in r.json()["error"]
    assert _state(client, m) == s


def test_a_wrong_or_missing_token_is_refused(client: TestClient) -> None:
    m = new_match(client, mode="online")
    other = new_match(client, mode="online")
    for headers in ({}, auth("not-a-token"), auth(other["token"])):
        r = client.get(f"/api/matches/{m['match_id']}", headers=headers)
        assert r.status_code == 403 and "token" in r.json()["error"]
        r = client.post(f"/api/matches/{m['match_id']}/actions", headers=headers, json={"action": "roll"})
        assert r.status_code == 403
    r = client.get("/api/matches/nope", headers=auth(m["token"]))
    assert r.status_code == 404 and "'nope'" in r.json()["error"]


def test_a_double_when_the_cube_may_not_be_offered_is_rejected(client: TestClient) -> None:
    m = new_match(client, mode="local", use_cube=False)
    s = _state(client, m)
    assert "double" not in s["actions"]
    r = _act(client, m, action="double")
    assert r.status_code == 409 and "double" in r.json()["error"]
    assert _state(client, m) == s
    # with a cube: not while moving, and not by the player who does not own it
    m = new_match(client, mode="online", match_length=0)
    tokens = _online_tokens(m)

    def mover_state() -> dict:
        return _state(client, m, tokens[_state(client, m)["turn"]])

    s = mover_state()
    if s["phase"] == "move":
        r = _act(client, m, tokens[s["turn"]], action="double")
        assert r.status_code == 409 and "double" in r.json()["error"]
        _act(client, m, tokens[s["turn"]], action="play", play=s["plays"][0])
        s = mover_state()
    doubler = s["turn"]
    assert _act(client, m, tokens[doubler], action="double").status_code == 200
    s = _act(client, m, tokens[1 - doubler], action="take").json()
    assert s["cube_value"] == 2 and s["cube_owner"] == 1 - doubler
    # the doubler's turns are rolled at once (it cannot double), so it meets the cube while moving
    while (s := mover_state())["turn"] != doubler:
        body = {"action": "roll"} if s["phase"] == "roll" else {"action": "play", "play": s["plays"][0]}
        assert _act(client, m, tokens[s["turn"]], **body).status_code == 200
    assert "double" not in s["actions"]
    r = _act(client, m, tokens[doubler], action="double")
    assert r.status_code == 409 and "double" in r.json()["error"]
    assert mover_state() == s


def test_a_stale_version_is_rejected(client: TestClient) -> None:
    m = new_match(client, mode="local")
    s = _to_move_phase(client, m)
    r = _act(client, m, action="play", play=s["plays"][0], version=s["version"] - 1)
    assert r.status_code == 409 and "moved on" in r.json()["error"]


def test_numbers_are_json_numbers(client: TestClient) -> None:
    # a JSON true, "2" or 2.0 is no resignation's kind: lax parsing read true as a single game
    m = new_match(client, mode="local")
    s = _to_move_phase(client, m)
    for kind in (True, "2", 2.0):
        r = _act(client, m, action="resign", kind=kind)
        assert r.status_code == 422 and "should be a whole number" in r.json()["error"], (kind, r.text)
        r = _act(client, m, action="play", play=s["plays"][0], version=str(s["version"]))
        assert r.status_code == 422 and "should be a whole number" in r.json()["error"]
    assert _state(client, m) == s
    for body in ({"match_length": True}, {"match_length": "7"}, {"cube_limit": True}):
        r = client.post("/api/matches", json={"mode": "local", **body})
        assert r.status_code == 422 and "should be a whole number" in r.json()["error"], body
    assert _act(client, m, action="resign", kind=2, version=s["version"]).status_code == 200


def test_bad_match_options_are_rejected(client: TestClient) -> None:
    r = client.post("/api/matches", json={"mode": "computer", "level": "grandmaster"})
    assert r.status_code == 422 and "grandmaster" in r.json()["error"]
    r = client.post("/api/matches", json={"mode": "computer", "cube_limit": 3})
    assert r.status_code == 422 and "cube_limit" in r.json()["error"]
    r = client.post("/api/matches", json={"mode": "chess"})
    assert r.status_code == 422 and "chess" in r.json()["error"]


def test_request_size_and_rate_limits(store: Store) -> None:
    with TestClient(create_app(store, seeded_dice(), settings=ServerSettings(rate=0.01, burst=3))) as c:
        r = c.post("/api/matches", content=b"x" * 20_000, headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        codes = [c.post("/api/matches", json={"mode": "local"}).status_code for _ in range(5)]
        assert codes[:2] == [200, 200] and codes[-1] == 429


def _play_out(client: TestClient, m: dict, rng: random.Random, limit: int = 2000) -> dict:
    """Play random legal actions in a local game until it ends."""
    for _ in range(limit):
        s = _state(client, m)
        if s["result"]:
            return s
        acts = s["actions"]
        if "play" in acts:
            body = {"action": "play", "play": rng.choice(s["plays"])}
        elif "roll" in acts:
            body = {"action": "double"} if "double" in acts and rng.random() < 0.05 else {"action": "roll"}
        elif "take" in acts:
            body = {"action": rng.choice(["take", "take", "pass"])}
        else:
            raise AssertionError(f"stuck: {s}")
        r = _act(client, m, **body)
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_a_whole_game_is_stored_and_survives_a_restart(store: Store) -> None:
    rng = random.Random(5)
    with TestClient(create_app(store, seeded_dice(11), settings=ServerSettings(rate=1000, burst=1000))) as c:
        m = new_match(c, mode="local", match_length=0)
        final = _play_out(c, m, rng)
        assert final["result"]["winner"] in (0, 1) and "new_game" in final["actions"]
        s = _act(c, m, action="new_game").json()
        assert s["game_number"] == 2 and s["result"] is None
        s = _to_move_phase(c, m)
    # a new server process on the same database: everything is replayed from the action log
    with TestClient(create_app(Store(store.url), seeded_dice(99))) as c2:
        assert _state(c2, m) == s
        r = _act(c2, m, action="play", play=s["plays"][0])
        assert r.status_code == 200
    match = replay_match(rules_from_dict(store.load_match(m["match_id"]).rules),
                         store.load_log(m["match_id"]).actions)
    assert store.summary(m["match_id"]).position_id == match.game.position_for(0).id
    assert match.games[0].result.winner == final["result"]["winner"]


def test_websocket_pushes_each_change_to_both_seats(client: TestClient) -> None:
    m = new_match(client, mode="online")
    tokens = _online_tokens(m)
    url = f"/ws/matches/{m['match_id']}?token="
    with client.websocket_connect(url + tokens[0]) as ws0, client.websocket_connect(url + tokens[1]) as ws1:
        s0, s1 = ws0.receive_json()["state"], ws1.receive_json()["state"]
        assert (s0["seat"], s1["seat"]) == (0, 1) and s0["version"] == s1["version"]
        again = ws0.receive_json()["state"]  # seat 1 came: seat 0 is sent the state again
        assert (again["version"], again["board"], again["claim_in"]) == (s0["version"], s0["board"], None)
        mover, (wm, ww) = s0["turn"], ((ws0, ws1) if s0["turn"] == 0 else (ws1, ws0))
        sm = s0 if mover == 0 else s1
        ww.send_text('{"action": "roll"')
        assert ww.receive_json()["error"].startswith("invalid message")
        ww.send_json({"action": "roll"})
        assert "error" in ww.receive_json()
        ww.send_text("x" * 5000)
        assert "limit" in ww.receive_json()["error"]
        if sm["phase"] == "roll":
            wm.send_json({"action": "roll"})
            sm = wm.receive_json()["state"]
            ww.receive_json()
        wm.send_json({"action": "play", "play": sm["plays"][0]})
        after_m, after_w = wm.receive_json()["state"], ww.receive_json()["state"]
        assert after_m["version"] == after_w["version"] > sm["version"]
        assert after_w["board"] == [-c for c in reversed(after_m["board"])]
    with client.websocket_connect(url + "wrong") as ws:
        assert "token" in ws.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


@pytest.mark.slow
def test_hints_frames_mat_and_levels(client: TestClient) -> None:
    assert client.get("/api/levels").json()[:2] == ["random", "pubeval"]
    m = new_match(client, mode="local", match_length=1)
    s = _to_move_phase(client, m)
    r = client.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"]))
    assert r.status_code == 200, r.text
    hints = r.json()["hints"]
    assert hints and all(h["play"] in s["plays"] for h in hints)
    final = _play_out(client, m, random.Random(8))
    r = client.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"]))
    assert r.status_code == 409
    assert r.json()["error"] == "no hint: nothing for you to decide now (the game is over)"
    r = client.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]),
                    json={"action": "roll"})
    assert r.status_code == 409 and r.json()["error"] == "nobody can roll now: the game is over"
    frames = client.get(f"/api/matches/{m['match_id']}/games/1/frames", headers=auth(m["token"])).json()
    assert frames[0]["text"] == "Start" and frames[-1]["board"] == final["board"]
    # the lines of plays and passes: a roll's dice, "White plays 6-4: ..." (the opening roll's are "throws")
    moves = [line for line in final["log"] if re.search(r" \d-\d", line) and " throws " not in line]
    assert [f["text"] for f in frames if f["dice"]] == moves
    r = client.get(f"/api/matches/{m['match_id']}/games/2/frames", headers=auth(m["token"]))
    assert r.status_code == 409 and "no game 2" in r.json()["error"]
    r = client.get(f"/api/matches/{m['match_id']}/match.mat?token={m['token']}")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert " 1 point match" in r.text and "White : 0" in r.text
    from gammon.formats.mat import read_mat, to_match

    assert to_match(read_mat(r.text)).score == tuple(final["score"])
    assert client.get(f"/api/matches/{m['match_id']}/match.mat?token=bad").status_code == 403


def test_a_hint_while_the_engine_is_unavailable_is_a_503(client: TestClient) -> None:
    # the pool raises EngineUnavailableError once a worker has died on a fresh pool too: try again
    m = new_match(client, mode="local", match_length=1)
    _to_move_phase(client, m)
    pool = client.app.state.hub.pool  # type: ignore[attr-defined]

    async def dead(*_args: object) -> None:
        raise EngineUnavailableError("the engine's worker stopped twice; try again later")

    advice, pool.advice = pool.advice, dead
    try:
        r = client.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"]))
    finally:
        pool.advice = advice
    assert r.status_code == 503 and "try again later" in r.json()["error"]
    assert client.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"])).status_code == 200


def test_no_hints_in_online_games(client: TestClient) -> None:
    m = new_match(client, mode="online")
    s = _state(client, m)
    token = _online_tokens(m)[s["turn"]]
    r = client.get(f"/api/matches/{m['match_id']}/hint", headers=auth(token))
    assert r.status_code == 403 and "online" in r.json()["error"]


def test_idle_matches_leave_memory_and_come_back_from_the_store(store: Store) -> None:
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, max_live=2))
    with TestClient(app) as c:
        matches = [new_match(c, mode="local") for _ in range(4)]
        states = [_to_move_phase(c, m) for m in matches]
        assert len(app.state.hub.live) <= 2
        assert [_state(c, m) for m in matches] == states
        assert len(app.state.hub.live) <= 2


def test_websocket_messages_are_rate_limited(store: Store) -> None:
    with TestClient(create_app(store, seeded_dice(), settings=ServerSettings(rate=0.01, burst=3))) as c:
        m = new_match(c, mode="local")
        with c.websocket_connect(f"/ws/matches/{m['match_id']}?token={m['token']}") as ws:
            ws.receive_json()
            replies = []
            for _ in range(4):
                ws.send_json({"action": "take"})  # refused by the rules, but counted all the same
                replies.append(ws.receive_json()["error"])
        assert "slow down" not in replies[0] and replies[-1] == "too many messages; slow down"


def test_a_connected_player_who_never_acts_can_be_claimed_against(store: Store) -> None:
    # Keeping the page open used to stop every claim: a losing player stalled a match for ever.
    clock = Clock()
    settings = ServerSettings(rate=1000, burst=1000, away_after=300.0, idle_after=600.0)
    with TestClient(create_app(store, seeded_dice(3), settings, clock=clock)) as c:
        m = new_match(c, mode="online")
        tokens = _online_tokens(m)
        stalling = _state(c, m, tokens[1])["turn"]
        waiting = 1 - stalling
        url = f"/ws/matches/{m['match_id']}?token={tokens[stalling]}"
        with c.websocket_connect(url) as ws:
            ws.receive_json()
            clock.now += 400
            told = _state(c, m, tokens[waiting])
            assert told["opponent_away"] == 0 and told["opponent_idle"] == 400
            assert told["claim_in"] == 200 and "claim" not in told["actions"]
            assert _state(c, m, tokens[stalling])["opponent_idle"] is None  # not waiting on the other
            clock.now += 201
            late = _state(c, m, tokens[waiting])
            assert late["claim_in"] == 0 and "claim" in late["actions"]
            r = _act(c, m, tokens[waiting], action="claim")
            assert r.status_code == 200, r.text
            assert r.json()["result"]["winner"] == waiting and r.json()["result"]["reason"] == "abandon"
            pushed = ws.receive_json()  # the stalling seat is told the game is over
            assert pushed["state"]["result"]["winner"] == waiting


def test_an_action_starts_the_next_decisions_clock(store: Store) -> None:
    clock = Clock()
    settings = ServerSettings(rate=1000, burst=1000, idle_after=600.0)
    with TestClient(create_app(store, seeded_dice(3), settings, clock=clock)) as c:
        m = new_match(c, mode="online")
        tokens = _online_tokens(m)
        first = _state(c, m, tokens[1])
        acting = first["turn"]
        url = f"/ws/matches/{m['match_id']}?token={tokens[acting]}"
        with c.websocket_connect(url) as ws:
            ws.receive_json()
            clock.now += 590
            s = _state(c, m, tokens[acting])
            if s["phase"] == "roll":
                assert _act(c, m, tokens[acting], action="roll", version=s["version"]).status_code == 200
            else:
                r = _act(c, m, tokens[acting], action="play", play=s["plays"][0], version=s["version"])
                assert r.status_code == 200
            clock.now += 20  # 610 s since the first decision, 20 s into the next one
            after = _state(c, m, tokens[1 - acting])
            assert after["claim_in"] != 0 and "claim" not in after["actions"]


def test_the_idle_limit_starts_again_when_a_restarted_server_loads_the_match(store: Store) -> None:
    # as the away clock: a restart gives the player to act its full time again, never a claim at once
    clock = Clock()
    settings = ServerSettings(rate=1000, burst=1000, idle_after=600.0)
    with TestClient(create_app(store, seeded_dice(3), settings, clock=clock)) as c:
        m = new_match(c, mode="online")
        tokens = _online_tokens(m)
        stalling = _state(c, m, tokens[1])["turn"]
    clock.now += 10_000
    with TestClient(create_app(Store(store.url), seeded_dice(3), settings, clock=clock)) as c2:
        with c2.websocket_connect(f"/ws/matches/{m['match_id']}?token={tokens[stalling]}") as ws:
            ws.receive_json()
            fresh = _state(c2, m, tokens[1 - stalling])
            assert fresh["claim_in"] == 600 and fresh["opponent_idle"] == 0
            clock.now += 600
            assert "claim" in _state(c2, m, tokens[1 - stalling])["actions"]
            r = _act(c2, m, tokens[1 - stalling], action="claim")
            assert r.status_code == 200, r.text


def test_the_api_is_described_by_openapi(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/matches", "/api/matches/{match_id}", "/api/matches/{match_id}/actions",
                 "/api/matches/{match_id}/hint", "/api/matches/{match_id}/match.mat"):
        assert path in paths
    assert client.get("/docs").status_code == 200


def test_an_online_game_left_by_the_player_to_act_can_be_claimed(store: Store) -> None:
    away_after = 300.0
    clock = Clock()
    settings = ServerSettings(rate=1000, burst=1000, away_after=away_after)
    with TestClient(create_app(store, seeded_dice(3), settings, clock=clock)) as c:
        m = new_match(c, mode="online")
        tokens = _online_tokens(m)
        s = _state(c, m, tokens[1])  # the invited friend comes once
        absent = s["turn"]
        waiting = 1 - absent
        before = _state(c, m, tokens[waiting])
        assert "claim" not in before["actions"] and 0 < before["claim_in"] <= away_after
        r = _act(c, m, tokens[waiting], action="claim")
        assert r.status_code == 409 and "cannot claim yet" in r.json()["error"]
        url = f"/ws/matches/{m['match_id']}?token={tokens[absent]}"
        with c.websocket_connect(url) as ws:
            ws.receive_json()
            clock.now += away_after + 1
            back = _state(c, m, tokens[waiting])
            # connected: no claim for being away, only once the decision's idle limit is past
            assert back["opponent_away"] == 0 and "claim" not in back["actions"]
            assert 0 < back["claim_in"] <= settings.idle_after - away_after
            r = _act(c, m, tokens[waiting], action="claim")
            assert r.status_code == 409 and "is connected" in r.json()["error"]
        own = _state(c, m, tokens[absent])
        assert "claim" not in own["actions"] and own["claim_in"] is None
        r = _act(c, m, tokens[absent], action="claim")  # the player to act cannot claim
        assert r.status_code == 409
        clock.now += away_after + 1  # the absent player's last call was just above
        gone = _state(c, m, tokens[waiting])
        assert "claim" in gone["actions"] and gone["claim_in"] == 0 and gone["opponent_away"] >= away_after
        assert gone["version"] == own["version"]  # nothing was played meanwhile
        r = _act(c, m, tokens[waiting], action="claim")
        assert r.status_code == 200, r.text
        done = r.json()
        assert done["result"]["winner"] == waiting and done["result"]["reason"] == "abandon"
    # stored as the absent player's abandon: a restarted server replays the same result
    with TestClient(create_app(Store(store.url), seeded_dice(99))) as c2:
        assert _state(c2, m, tokens[waiting])["result"] == done["result"]


def test_claims_are_for_online_players_only(client: TestClient) -> None:
    m = new_match(client, mode="local")
    r = _act(client, m, action="claim")
    assert r.status_code == 409 and "online" in r.json()["error"]


@pytest.mark.slow
def test_hints_come_from_the_engine_the_app_is_given(store: Store) -> None:
    from gammon.engine.engine import Engine
    from gammon.engine.net.evaluator import CountingEvaluator, PipCountEvaluator
    from gammon.web.hints import play_hints

    counting = CountingEvaluator(PipCountEvaluator())
    advisor = Engine(plies=0, evaluator=counting)
    with TestClient(
        create_app(store, seeded_dice(4), settings=ServerSettings(rate=1000, burst=1000), engine=advisor)
    ) as c:
        m = new_match(c, mode="local", match_length=1)
        s = _to_move_phase(c, m)
        r = c.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"]))
        assert r.status_code == 200, r.text
        assert r.json()["source"] == "engine"
        best = [h["play"] for h in r.json()["hints"]]
        assert best and all(p in s["plays"] for p in best)
    # The hint ran in an engine worker, with a copy of this advisor: it ranks as the advisor does here.
    live = c.app.state.hub.live[m["match_id"]]
    expected = play_hints(advisor, live.match.game.situation(), 5)["hints"]
    assert [(h["play"], h["score"]) for h in r.json()["hints"]] == expected
    assert counting.calls > 0


def test_an_illegal_play_says_why(client: TestClient) -> None:
    m = new_match(client, mode="local")
    s = _to_move_phase(client, m)
    r = _act(client, m, action="play", play="6/off")
    assert r.status_code == 409
    assert "you cannot bear off while a checker is outside your home board" in r.json()["error"]
    assert _state(client, m) == s


def _hint(c: TestClient, m: dict, **params: object) -> dict:
    r = c.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"]), params=params)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.slow
def test_hints_at_the_score_and_the_cube_advice(store: Store) -> None:
    """In a match the plays rank by match winning chances, and say so, with the depth; before a
    roll the player may double on, and when doubled, the hint is the engine's cube decision."""
    from gammon.engine.engine import Engine

    with TestClient(
        create_app(
            store, seeded_dice(4), settings=ServerSettings(rate=1000, burst=1000), engine=Engine(plies=0)
        )
    ) as c:
        m = new_match(c, mode="local", match_length=5)
        s = _to_move_phase(c, m)
        h = _hint(c, m, n=5)
        assert h["kind"] == "plays" and h["unit"] == "mwc" and h["plies"] == 0 and h["cube"] is None
        scores = [x["score"] for x in h["hints"]]
        assert 3 < len(scores) <= 5 and scores == sorted(scores, reverse=True)
        assert all(0 <= x <= 1 for x in scores) and all(x["play"] in s["plays"] for x in h["hints"])
        s = _act(c, m, action="play", play=s["plays"][0]).json()
        assert s["phase"] == "roll" and "double" in s["actions"]
        h = _hint(c, m)
        assert h["kind"] == "cube" and h["hints"] == [] and h["unit"] == "mwc"
        cube = h["cube"]
        assert cube["question"] == "double" and cube["available"] and len(cube["mwc"]) == 3
        assert cube["action"] in (
            "no double",
            "double, take",
            "double, pass",
            "too good to double, take",
            "too good to double, pass",
        )
        assert _act(c, m, action="double").json()["phase"] == "doubled"
        cube = _hint(c, m)["cube"]
        assert cube["question"] == "take" and cube["answer"] in ("take", "pass")
        s = _act(c, m, action="take").json()
        assert "double" not in s["actions"]  # the doubler may not redouble: no cube hint, the plays
        assert _hint(c, m)["kind"] == "plays" if s["phase"] == "move" else s["phase"] == "roll"
        money = new_match(c, mode="local")
        _to_move_phase(c, money)
        h = _hint(c, money)
        assert h["unit"] == "equity" and h["kind"] == "plays"


def test_an_online_seat_in_use_elsewhere_is_taken_over_only_on_request(client: TestClient) -> None:
    m = new_match(client, mode="online")
    friend = _online_tokens(m)[1]
    url = f"/ws/matches/{m['match_id']}?token={friend}&tab="
    with client.websocket_connect(url + "a") as first:
        assert first.receive_json()["type"] == "state"
        with client.websocket_connect(url + "a") as same_tab:  # the same browser: no question
            assert same_tab.receive_json()["type"] == "state"
        with client.websocket_connect(url + "b") as other:
            assert other.receive_json()["error"] == "this seat is in use in another browser"
            with pytest.raises(WebSocketDisconnect) as closed:
                other.receive_json()
            assert closed.value.code == 4409
        with client.websocket_connect(url + "b&takeover=true") as other:
            assert other.receive_json()["state"]["seat"] == 1
            while (told := first.receive_json()).get("type") == "state":
                pass
            assert told["error"] == "this seat was taken over in another browser"
            with pytest.raises(WebSocketDisconnect) as closed:
                first.receive_json()
            assert closed.value.code == 4410
