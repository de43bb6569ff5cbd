"""Two server processes on one PostgreSQL (here two apps, each its own store, hub and accounts): the
judgment of a rated match's end made in one (rated, with the new ratings, or unrated) reaches the
other's view of it, not only the actions."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from websockets.sync.client import ClientConnection, connect

from gammon.store import Store
from gammon.store.models import Base
from gammon.web import create_app
from gammon.web.members import Members
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, seeded_dice, serving
from tests.web.test_accounts_web import PASSWORD, settings, sign_up


@contextlib.contextmanager
def _two_processes(pg_url: str) -> Iterator[tuple[str, str]]:
    """Two apps on the database at ``pg_url`` (emptied first), served: their base URLs."""
    store = Store(pg_url)
    Base.metadata.drop_all(store.engine)
    store.close()
    stores = Store(pg_url), Store(pg_url)
    apps = [
        create_app(s, seeded_dice(3), settings=ServerSettings(rate=1000, burst=1000, accounts=settings()))
        for s in stores
    ]
    try:
        with serving(apps[0], lifespan="on") as a, serving(apps[1], lifespan="on") as b:
            yield f"127.0.0.1:{a}", f"127.0.0.1:{b}"
    finally:
        for s in stores:
            s.close()


def _member(host: str, name: str) -> dict[str, str]:
    body = {"name": name, "password": PASSWORD, "client": "api"}
    r = httpx.post(f"http://{host}/api/account/sign-up", json=body)
    assert r.status_code == 200, r.text
    return {"Authorization": "Bearer " + r.json()["token"]}


def _rated(host: str, maker: dict[str, str]) -> tuple[str, str, str]:
    """A rated 1-point match made by ``maker``: its id and its seats' tokens."""
    r = httpx.post(f"http://{host}/api/matches", json={"mode": "online", "match_length": 1, "rated": True},
                   headers=maker)
    assert r.status_code == 200, r.text
    made = r.json()
    return made["match_id"], made["token"], made["invite_url"].split("#token=")[1]


def _state(ws: ClientConnection) -> dict:
    message = json.loads(ws.recv(timeout=20))
    assert message["type"] == "state", message
    return message["state"]


def test_a_match_judged_unrated_in_one_process_is_shown_unrated_in_the_other(pg_url: str) -> None:
    with _two_processes(pg_url) as (a, b):
        alice = _member(a, "alice")
        match_id, mine, guests = _rated(a, alice)
        # the guest's seat watches through b: no account holds it, so the match cannot be rated
        with connect(f"ws://{b}/ws/matches/{match_id}?token={guests}") as ws:
            first = _state(ws)
            assert first["rated"] and first["accounts"][1] is None
            r = httpx.post(f"http://{a}/api/matches/{match_id}/actions", json={"action": "abandon"},
                           headers={**alice, **auth(mine)})
            assert r.status_code == 200, r.text
            assert r.json()["match_over"] and not r.json()["rated"]  # a judged it unrated, at its end
            state = _state(ws)
            while state["rated"]:  # b shows the end first, then the judgment
                assert state["version"] == r.json()["version"]
                state = _state(ws)
            assert state["match_over"]
        view = httpx.get(f"http://{b}/api/matches/{match_id}", headers=auth(guests)).json()
        assert view["match_over"] and not view["rated"]


def test_the_new_ratings_of_a_match_rated_in_one_process_are_shown_in_the_other(pg_url: str) -> None:
    with _two_processes(pg_url) as (a, b):
        alice, bob = _member(a, "alice"), _member(b, "bob")
        match_id, mine, bobs = _rated(a, alice)
        r = httpx.post(f"http://{b}/api/account/claim", json={"seat_tokens": [bobs]}, headers=bob)
        assert r.status_code == 200 and r.json()["claimed"] == [match_id], r.text
        with connect(f"ws://{b}/ws/matches/{match_id}?token={bobs}", additional_headers=bob) as ws:
            first = _state(ws)
            assert [p["rating"] for p in first["accounts"]] == [1500, 1500]
            r = httpx.post(f"http://{a}/api/matches/{match_id}/actions", json={"action": "abandon"},
                           headers={**alice, **auth(mine)})
            assert r.status_code == 200 and r.json()["rated"], r.text
            rated = [p["rating"] for p in r.json()["accounts"]]
            assert rated[0] < 1500 < rated[1]
            state = _state(ws)
            while [p["rating"] for p in state["accounts"]] != rated:  # the end first, then the ratings
                assert state["version"] == r.json()["version"] and state["accounts"][0]["rating"] == 1500
                state = _state(ws)
            assert state["match_over"] and state["rated"]


def _until_played(match_id: str, *seats: tuple[str, dict[str, str]]) -> None:
    """Play (each seat through its own process and headers) until seat 1 has made a play: a match
    is owed a rating only once both seats acted on their own."""
    for _ in range(20):
        views = [httpx.get(f"http://{host}/api/matches/{match_id}", headers=h).json() for host, h in seats]
        seat = views[0]["turn"]
        view, (host, headers) = views[seat], seats[seat]
        action = {"action": "play", "play": view["plays"][0]} if view["plays"] else {"action": "roll"}
        r = httpx.post(f"http://{host}/api/matches/{match_id}/actions", json=action, headers=headers)
        assert r.status_code == 200, r.text
        if seat == 1 and action["action"] == "play":
            return
    raise AssertionError("seat 1 never played")


def test_ratings_recovered_in_another_process_are_shown(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def database_away(*args: object) -> None:
        raise ConnectionError("the database went away")

    with _two_processes(pg_url) as (a, b):
        alice, bob = _member(a, "alice"), _member(b, "bob")
        match_id, mine, bobs = _rated(a, alice)
        httpx.post(f"http://{b}/api/account/claim", json={"seat_tokens": [bobs]}, headers=bob)
        _until_played(match_id, (a, {**alice, **auth(mine)}), (b, {**bob, **auth(bobs)}))
        with connect(f"ws://{b}/ws/matches/{match_id}?token={bobs}", additional_headers=bob) as ws:
            _state(ws)
            monkeypatch.setattr("gammon.web.members.rate_match", database_away)  # its rating write fails
            r = httpx.post(f"http://{a}/api/matches/{match_id}/actions", json={"action": "abandon"},
                           headers={**alice, **auth(mine)})
            assert r.status_code == 200 and r.json()["match_over"], r.text
            monkeypatch.undo()
            state = _state(ws)
            assert state["match_over"]
            store = Store(pg_url)
            try:
                assert Members(store, settings()).recover_ratings() == 1  # a third process's recovery
            finally:
                store.close()
            while state["accounts"][1]["rating"] == 1500:
                state = _state(ws)
            assert state["accounts"][0]["rating"] < 1500 < state["accounts"][1]["rating"]


def test_on_sqlite_a_process_that_catches_up_with_the_end_reads_the_judgment(tmp_path: Path) -> None:
    """No notifications on SQLite: a process learns of another's actions when a request names a
    newer version; catching up with the end, it reads the match's record again, so it neither
    shows it rated nor refuses its guest's seat as one of a rated match."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    stores = Store(url), Store(url)
    options = ServerSettings(rate=1000, burst=1000, accounts=settings())
    try:
        with TestClient(create_app(stores[0], seeded_dice(3), settings=options)) as a, TestClient(
            create_app(stores[1], seeded_dice(3), settings=options)
        ) as b:
            alice = {"Authorization": "Bearer " + sign_up(a, "alice", client="api")["token"]}
            made = {"mode": "online", "match_length": 1, "rated": True}
            r = a.post("/api/matches", json=made, headers=alice)
            match_id, mine = r.json()["match_id"], r.json()["token"]
            guests = r.json()["invite_url"].split("#token=")[1]
            path = f"/api/matches/{match_id}"
            assert b.get(path, headers=auth(guests)).json()["rated"]  # b holds the match now
            ended = a.post(f"{path}/actions", json={"action": "abandon"}, headers={**alice, **auth(mine)})
            end = ended.json()
            assert end["match_over"] and not end["rated"]
            r = b.post(f"{path}/actions", json={"action": "abandon", "version": end["version"]},
                       headers=auth(guests))
            assert r.status_code == 409 and "rated" not in r.json()["error"], r.text  # the match is over
            view = b.get(path, headers=auth(guests)).json()
            assert view["match_over"] and not view["rated"] and view["version"] == end["version"]
    finally:
        for s in stores:
            s.close()


def test_a_seat_claimed_in_one_process_is_shown_in_the_other(pg_url: str) -> None:
    with _two_processes(pg_url) as (a, b):
        alice, bob = _member(a, "alice"), _member(b, "bob")
        match_id, mine, bobs = _rated(a, alice)
        with connect(f"ws://{a}/ws/matches/{match_id}?token={mine}", additional_headers=alice) as ws:
            first = _state(ws)
            assert first["accounts"][1] is None
            r = httpx.post(f"http://{b}/api/account/claim", json={"seat_tokens": [bobs]}, headers=bob)
            assert r.json()["claimed"] == [match_id], r.text
            state = _state(ws)
            while state["accounts"][1] is None:  # alice's view through a: bob is at his seat now
                assert state["version"] == first["version"]
                state = _state(ws)
            assert state["accounts"][1]["name"] == "bob"


def test_changes_missed_while_a_process_was_not_listening_are_caught_up_when_it_listens_again(
    pg_url: str,
) -> None:
    """A process's LISTEN connection lost (the database restarted, a network blip) misses the
    notifications until it reconnects: its sockets were left on the old board for good, the player
    there waiting on a move already made (and claimable against, as idle)."""
    store = Store(pg_url)
    Base.metadata.drop_all(store.engine)
    store.close()
    stores = Store(pg_url), Store(pg_url)
    options = ServerSettings(rate=1000, burst=1000, accounts=settings())
    apps = [create_app(s, seeded_dice(3), settings=options) for s in stores]
    try:
        with serving(apps[0], lifespan="on") as a, serving(apps[1], lifespan="on") as b:
            made = httpx.post(f"http://127.0.0.1:{a}/api/matches", json={"mode": "online", "match_length": 3})
            match_id, tokens = made.json()["match_id"], (made.json()["token"],
                                                         made.json()["invite_url"].split("#token=")[1])
            with connect(f"ws://127.0.0.1:{b}/ws/matches/{match_id}?token={tokens[1]}") as ws:
                first = _state(ws)
                listener = apps[1].state.hub.listener
                heard, listener.on_change = listener.on_change, lambda match_id, version: None  # lost
                seat = first["turn"]
                url = f"http://127.0.0.1:{a}/api/matches/{match_id}"
                view = httpx.get(url, headers=auth(tokens[seat])).json()
                action = {"action": "play", "play": view["plays"][0]} if view["plays"] else {"action": "roll"}
                r = httpx.post(f"{url}/actions", json=action, headers=auth(tokens[seat]))
                assert r.status_code == 200, r.text
                listener.on_change = heard
                with stores[0].engine.begin() as conn:  # every LISTEN gammon connection is cut
                    cut = conn.execute(text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE query = 'LISTEN gammon' AND pid <> pg_backend_pid()"
                    )).all()
                assert len(cut) >= 2
                state = _state(ws)
                while state["version"] < r.json()["version"]:
                    state = _state(ws)
                assert state["version"] == r.json()["version"]
    finally:
        for s in stores:
            s.close()


def test_a_deleted_account_leaves_the_views_of_its_matches_in_every_process(pg_url: str) -> None:
    with _two_processes(pg_url) as (a, b):
        alice, bob = _member(a, "alice"), _member(b, "bob")
        match_id, mine, bobs = _rated(a, alice)
        httpx.post(f"http://{b}/api/account/claim", json={"seat_tokens": [bobs]}, headers=bob)
        with connect(f"ws://{a}/ws/matches/{match_id}?token={mine}", additional_headers=alice) as ws:
            state = _state(ws)
            while state["accounts"][1] is None:  # the claim, through b
                state = _state(ws)
            assert state["accounts"][1]["name"] == "bob"
            r = httpx.post(f"http://{b}/api/account/delete", json={"password": PASSWORD}, headers=bob)
            assert r.status_code == 200, r.text
            while state["accounts"][1] is not None:  # its name and rating go from alice's view too
                assert state["accounts"][1]["name"] == "bob"
                state = _state(ws)
