"""The cube stops at 32768 in the browser's games: no Match ID holds more, and a game past it broke
its match's view for good (HTTP 500 on every request). A match stored past it still loads."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from gammon.game import Beaver
from gammon.records import MatchAction
from gammon.store import Store
from gammon.store.repository import LogChange
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice


def _cube_race(client: TestClient, url: str, headers: dict[str, str], stop_at_offer: int | None = None,
               cube_limit: int = 32768) -> dict:
    """Beaver, take or double at every chance, else roll and make the first play, until the game
    is over (or a double to ``stop_at_offer`` waits for its answer); each reply must be 200, with
    the cube up to ``cube_limit``."""
    state = client.get(url, headers=headers).json()
    for _ in range(400):
        actions, offered = state["actions"], 2 * state["cube_value"]
        if state["result"] or (stop_at_offer == offered and "take" in actions):
            return state
        action: dict[str, Any] = (
            {"action": "beaver"} if "beaver" in actions else {"action": "take"} if "take" in actions
            else {"action": "double"} if "double" in actions
            else {"action": "play", "play": state["plays"][0]} if "play" in actions else {"action": "roll"})
        r = client.post(url + "/actions", headers=headers, json=action)
        assert r.status_code == 200, (action, state["cube_value"], r.text[:300])
        state = r.json()
        assert state["cube_value"] <= cube_limit
    raise AssertionError("the game did not end")


def test_a_money_game_against_pubeval_keeps_the_cube_at_32768(client: TestClient) -> None:
    # pubeval doubles every turn; the player beavers each double it may: the cube climbs fast
    m = new_match(client, mode="computer", level="pubeval", match_length=0, beavers=True)
    url, headers = f"/api/matches/{m['match_id']}", auth(m["token"])
    end = _cube_race(client, url, headers)
    assert end["result"]["cube_value"] == 32768
    assert client.get(url, headers=headers).status_code == 200
    frames = client.get(url + "/games/1/frames", headers=headers)
    assert frames.status_code == 200 and max(f["cube_value"] for f in frames.json()) == 32768


def test_a_match_stored_with_the_cube_past_32768_still_loads_and_plays_on(store: Store) -> None:
    settings = ServerSettings(rate=1000, burst=1000)
    with TestClient(create_app(store, seeded_dice(), settings=settings)) as client:
        m = new_match(client, mode="local", match_length=0, beavers=True)
        url, headers = f"/api/matches/{m['match_id']}", auth(m["token"])
        offered = _cube_race(client, url, headers, stop_at_offer=32768)
        assert "beaver" not in offered["actions"] and offered["cube_value"] == 16384
    # The beaver to 65536 as an earlier version stored it
    log = store.load_log(m["match_id"])
    beaver = MatchAction(0, Beaver(offered["turn"], 65536))
    store.append(m["match_id"], LogChange(base=log.version, version=log.version + 1,
                                          first=len(log.actions), actions=[beaver]))
    with TestClient(create_app(store, seeded_dice(), settings=settings)) as client:
        state = client.get(url, headers=headers)
        assert state.status_code == 200, state.text[:300]
        view = state.json()
        assert view["cube_value"] == 65536 and view["gnubg_id"] == ""  # no Match ID holds it
        assert "double" not in view["actions"]
        assert "65536" in view["log"][-1], view["log"][-3:]
        frames = client.get(url + "/games/1/frames", headers=headers)
        assert frames.status_code == 200, frames.text[:300]
        last = frames.json()[-1]
        assert last["cube_value"] == 65536 and last["gnubg_id"] == ""
        assert all(f["gnubg_id"] for f in frames.json() if f["cube_value"] <= 32768)
        # the game plays on (the doubler rolls at once, nothing else to decide) to its end
        end = _cube_race(client, url, headers, cube_limit=65536)
        assert end["result"]["cube_value"] == 65536
        mat = client.get(url + "/match.mat", headers=headers)
        assert mat.status_code == 200 and "Beavers => 65536" in mat.text, mat.text[-300:]
