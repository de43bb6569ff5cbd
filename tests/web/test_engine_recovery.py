"""A game against the computer goes on when an engine worker dies (killed, out of memory): the pool,
which refuses every call once one of its processes died, is started afresh."""

from __future__ import annotations

import os
import signal

from fastapi import FastAPI
from fastapi.testclient import TestClient

from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice


def _my_turn(c: TestClient, url: str, token: str) -> dict:
    """Roll if need be; the state with a play to make."""
    state = c.get(url, headers=auth(token)).json()
    if state["phase"] == "roll":
        r = c.post(f"{url}/actions", headers=auth(token), json={"action": "roll"})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["turn"] == 0 and state["phase"] == "move", state
    return state


def _play(state: dict) -> dict:
    return {"action": "play", "play": state["plays"][0]}


def test_the_computer_plays_on_after_its_engine_worker_died(store: Store) -> None:  # noqa: F811
    app: FastAPI = create_app(store, seeded_dice(5), settings=ServerSettings(rate=1000, burst=1000))
    with TestClient(app) as c:
        m = new_match(c, mode="computer", level="pubeval", match_length=1)  # no cube: the computer plays
        url, token = f"/api/matches/{m['match_id']}", m["token"]
        for _ in range(2):
            state = _my_turn(c, url, token)
            r = c.post(f"{url}/actions", headers=auth(token), json=_play(state))
            assert r.status_code == 200, r.text
            executor = app.state.hub.pool._workers.executor
            assert executor is not None  # the computer answered from a worker
            for pid in list(executor._processes):
                os.kill(pid, signal.SIGKILL)  # the worker dies between two of its moves
            moves = sum("Computer (pubeval) plays" in line for line in r.json()["log"])
            state = _my_turn(c, url, token)
            r = c.post(f"{url}/actions", headers=auth(token), json=_play(state))
            assert r.status_code == 200, r.text
            assert sum("Computer (pubeval) plays" in line for line in r.json()["log"]) > moves
            assert r.json()["turn"] == 0  # the computer answered


def test_hints_come_again_after_the_engine_worker_died(store: Store) -> None:  # noqa: F811
    app: FastAPI = create_app(store, seeded_dice(5), settings=ServerSettings(rate=1000, burst=1000))
    with TestClient(app) as c:
        m = new_match(c, mode="local", match_length=0)
        url, token = f"/api/matches/{m['match_id']}", m["token"]
        first = c.get(f"{url}/hint", headers=auth(token))
        assert first.status_code == 200, first.text
        executor = app.state.hub.pool._workers.executor
        assert executor is not None
        for pid in list(executor._processes):
            os.kill(pid, signal.SIGKILL)
        again = c.get(f"{url}/hint", headers=auth(token))
        assert again.status_code == 200, again.text
        assert again.json() == first.json()
