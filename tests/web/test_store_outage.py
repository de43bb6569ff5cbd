"""The database away while a game is played: an action is refused (503, "try again") and never
shown as made, even when the match cannot be reloaded from the store at once; once the database is
back the match is replayed from the store and play goes on. (On a real PostgreSQL that stops and
starts: tests/web/test_club_restart.py.)"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from gammon.store import Store
from tests.web.conftest import auth, new_match


def _away(*_args: object, **_kwargs: object) -> None:
    raise OperationalError("SELECT 1", {}, Exception("connection refused"))


def test_an_action_while_the_database_is_away_is_refused_and_never_shown(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = new_match(client, mode="local", match_length=0)
    url, headers = f"/api/matches/{m['match_id']}", auth(m["token"])
    state = client.get(url, headers=headers).json()
    move = {"action": "play", "play": state["plays"][0], "version": state["version"]}  # the opening roll's
    with monkeypatch.context() as away:
        away.setattr(store, "append_batch", _away)
        away.setattr(store, "load_log", _away)  # the reload after the failed write fails too
        r = client.post(url + "/actions", headers=headers, json=move)
        assert r.status_code == 503 and "try again" in r.json()["error"], r.text
        assert client.get(url, headers=headers).status_code == 503  # not the refused play
    back = client.get(url, headers=headers).json()
    assert (back["version"], back["board"], back["dice"]) == (state["version"], state["board"], state["dice"])
    r = client.post(url + "/actions", headers=headers, json=move)
    assert r.status_code == 200 and r.json()["version"] == state["version"] + 1, r.text
    assert store.load_log(m["match_id"]).version == state["version"] + 1
