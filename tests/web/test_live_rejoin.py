"""A seat's socket follows the match the server holds, even when the match left this process's
memory while the socket was being opened (another process stored an action of it meanwhile)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from gammon.game import GamePhase
from gammon.store import Store
from gammon.web import create_app
from gammon.web.schemas import ActionRequest
from gammon.web.session import LiveMatch
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice
from tests.web.test_accounts_web import api_token, bearer, settings, sign_up


def _elsewhere_acts(store: Store, match_id: str) -> int:
    """Another server process makes the next action of the player to act; the new version."""
    there = LiveMatch.load(Store(store.url), match_id)
    game = there.match.game
    seat = there.acting_player()
    if game.phase is GamePhase.ROLL:
        there.act(seat, ActionRequest.model_validate({"action": "roll"}))
    else:
        there.act(seat, ActionRequest.model_validate({"action": "play", "play": there.play_texts()[0]}))
    there.save()
    return there.version


def test_a_socket_opened_while_its_match_left_memory_sees_and_follows_the_stored_match(
    store: Store,
) -> None:
    options = ServerSettings(rate=1000, burst=1000, accounts=settings())
    app = create_app(store, seeded_dice(), settings=options)
    with TestClient(app) as c:
        sign_up(c, "alice")
        alice = bearer(api_token(c, "alice"))
        c.cookies.clear()
        m = new_match(c, mode="online")
        tokens = (m["token"], m["invite_url"].split("#token=")[1])
        url = f"/api/matches/{m['match_id']}"
        mover = c.get(url, headers=auth(tokens[0])).json()["turn"]
        hub, members = app.state.hub, app.state.members
        owner = members.seat_owner
        stored: list[int] = []

        def seat_owner(*args: Any) -> int | None:
            # As the socket's session is looked up: another process makes the mover's action and
            # this one forgets the match, as Hub.catch_up does for a match nobody watches here.
            stored.append(_elsewhere_acts(store, m["match_id"]))
            hub.live.pop(m["match_id"], None)
            return owner(*args)

        members.seat_owner = seat_owner
        headers = {**alice, **auth(tokens[1 - mover])}
        with c.websocket_connect(f"/ws/matches/{m['match_id']}", headers=headers) as ws:
            first = ws.receive_json()["state"]
            assert first["version"] == stored[0]  # not the state from before the other process's action
            # what is made here afterwards reaches the socket too
            token = tokens[first["turn"]]
            now = c.get(url, headers=auth(token)).json()
            moving = now["phase"] == "move"
            action = {"action": "play", "play": now["plays"][0]} if moving else {"action": "roll"}
            r = c.post(f"{url}/actions", headers=auth(token), json={**action, "version": now["version"]})
            assert r.status_code == 200, r.text
            assert ws.receive_json()["state"]["version"] == r.json()["version"]
