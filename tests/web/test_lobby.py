"""The players' lobby: who is online, invitations posted, seen, cancelled, declined and accepted
(over the API and live on /ws/lobby), their limits, and an invitation accepted twice at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from importlib.resources import files

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from gammon.accounts.lobby import MAX_OPEN_PER_ACCOUNT, POSTER_GRACE, Claimed, Invitations, LobbyError, Terms
from gammon.store import Store
from gammon.store.models import LobbyInvitationRow, MatchRow
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from tests.web.conftest import Clock, auth, seeded_dice
from tests.web.test_accounts_web import PASSWORD, api_token, bearer, csrf, settings, sign_up


@pytest.fixture
def web(store: Store) -> Iterator[TestClient]:  # noqa: F811
    app = create_app(
        store, seeded_dice(3), settings=ServerSettings(rate=1000, burst=1000, accounts=settings())
    )
    with TestClient(app) as c:
        yield c


def players(c: TestClient, *names: str) -> list[dict[str, str]]:
    """Sign up each name; their bearer headers (the client keeps no session cookie: it is a guest)."""
    out = []
    for name in names:
        sign_up(c, name)
        out.append(bearer(api_token(c, name)))
    c.cookies.clear()
    return out


def post(c: TestClient, who: dict[str, str], **terms: object) -> str:
    r = c.post("/api/lobby/invitations", json=terms, headers=who)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def lobby(c: TestClient, who: dict[str, str] | None = None) -> dict:
    r = c.get("/api/lobby", headers=who or {})
    assert r.status_code == 200, r.text
    return r.json()


def until(ws, key: str) -> dict:
    """The socket's next message that carries ``key``."""
    for _ in range(50):
        message = ws.receive_json()
        if key in message:
            return message
    raise AssertionError(f"no message with {key!r}")


def test_an_invitation_is_seen_live_and_cancelled(web: TestClient) -> None:
    alice, bob = players(web, "alice", "bob")
    with web.websocket_connect("/ws/lobby", headers=bob) as ws:
        first = ws.receive_json()
        assert first["type"] == "hello" and first["you"]["name"] == "bob" and first["invitations"] == []
        assert [p["name"] for p in until(ws, "players")["players"]] == ["bob"]  # bob joined
        invitation = post(web, alice, match_length=3, crawford=True, beavers=True)
        shown = until(ws, "invitations")["invitations"]
        assert shown == [
            {
                "id": invitation,
                "poster": "alice",
                "poster_rating": 1500.0,
                "to": None,
                "match_length": 3,
                "crawford": True,
                "jacoby": True,
                "beavers": True,
                "rated": False,
                "mine": False,
                "for_you": False,
            }
        ]
        assert lobby(web)["invitations"][0]["id"] == invitation  # a guest sees open invitations
        assert web.post(f"/api/lobby/invitations/{invitation}/cancel", headers=bob).status_code == 409
        assert web.post(f"/api/lobby/invitations/{invitation}/cancel", headers=alice).status_code == 200
        assert until(ws, "gone")["gone"] == [invitation]
        with web.websocket_connect("/ws/lobby", headers=alice):  # alice comes: bob sees her
            came = until(ws, "players")["players"]
            assert [(p["name"], p["in_lobby"]) for p in came] == [("alice", True)]
        assert until(ws, "left")["left"] == ["alice"]
        with web.websocket_connect("/ws/lobby"):  # a guest is counted, not named
            assert until(ws, "guests")["guests"] == 1
    eventually(lambda: lobby(web)["players"] == [])  # bob's socket closed: he left


def eventually(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "it never came true"
        time.sleep(0.05)


def test_a_named_invitation_is_seen_by_its_two_players_only(web: TestClient) -> None:
    alice, bob, carol = players(web, "alice", "bob", "carol")
    invitation = post(web, alice, to="CAROL", match_length=1)
    assert lobby(web, bob)["invitations"] == [] and lobby(web)["invitations"] == []
    (for_carol,) = lobby(web, carol)["invitations"]
    assert for_carol["to"] == "carol" and for_carol["for_you"] and not for_carol["mine"]
    assert lobby(web, alice)["invitations"][0]["mine"]
    assert web.post(f"/api/lobby/invitations/{invitation}/accept", headers=bob).status_code == 409
    assert web.post(f"/api/lobby/invitations/{invitation}/decline", headers=bob).status_code == 409
    with web.websocket_connect("/ws/lobby", headers=carol) as ws:
        assert ws.receive_json()["invitations"][0]["id"] == invitation
        assert web.post(f"/api/lobby/invitations/{invitation}/decline", headers=carol).status_code == 200
        assert until(ws, "gone")["gone"] == [invitation]
    assert lobby(web, alice)["invitations"] == []
    for bad in ("nobody", "alice", "<b>x</b>"):  # no such player, oneself, a name no account has
        r = web.post("/api/lobby/invitations", json={"to": bad}, headers=alice)
        assert r.status_code in (409, 422) and "<b>" not in r.text


def test_accepting_starts_one_online_match_between_the_two_accounts(web: TestClient) -> None:
    alice, bob = players(web, "alice", "bob")
    invitation = post(web, alice, match_length=1, rated=True)
    with web.websocket_connect("/ws/lobby", headers=alice) as ws:
        ws.receive_json()
        r = web.post(f"/api/lobby/invitations/{invitation}/accept", headers=bob)
        assert r.status_code == 200, r.text
        mine = r.json()
        assert mine["seat"] == 1 and mine["url"].endswith(f"/play/{mine['match_id']}#token={mine['token']}")
        assert until(ws, "started")["started"] == [{"id": invitation, "match_id": mine["match_id"]}]
    assert web.post(f"/api/lobby/invitations/{invitation}/accept", headers=bob).status_code == 409
    assert web.post(f"/api/lobby/invitations/{invitation}/seat", headers=bob).status_code == 409
    assert lobby(web, alice)["started"] == [{"id": invitation, "match_id": mine["match_id"]}]
    r = web.post(f"/api/lobby/invitations/{invitation}/seat", headers=alice)
    assert r.status_code == 200, r.text
    theirs = r.json()
    assert theirs["seat"] == 0 and theirs["match_id"] == mine["match_id"]
    assert web.post(f"/api/lobby/invitations/{invitation}/seat", headers=alice).status_code == 409  # once
    view = web.get(f"/api/matches/{mine['match_id']}", headers=auth(theirs["token"])).json()
    assert view["seat"] == 0 and view["rated"] and view["match_length"] == 1
    assert [a["name"] for a in view["accounts"]] == ["alice", "bob"]
    assert web.get(f"/api/matches/{mine['match_id']}", headers=auth(mine["token"])).json()["seat"] == 1
    assert lobby(web, alice)["started"] == [] and lobby(web)["invitations"] == []
    # bob at the game's seat (signed in: the seat of a rated match is his account's) counts as playing
    game_url = f"/ws/matches/{mine['match_id']}"
    with web.websocket_connect(game_url, headers={**bob, **auth(mine["token"])}) as game:
        game.receive_json()
        assert web.app.state.lobby.players_at_tables() == {"bob"}


def test_accepting_twice_at_once_starts_one_match(store: Store) -> None:  # noqa: F811
    app = create_app(store, seeded_dice(3), settings=ServerSettings(accounts=settings()))
    accounts = app.state.members.accounts
    ids = [accounts.sign_up(n, "a long enough password").id for n in ("alice", "bob", "carol")]
    invitations = Invitations(accounts)
    invitation = invitations.post(ids[0], Terms(match_length=3))
    start = threading.Barrier(2)
    won: list[object] = []

    def accept(account_id: int) -> None:
        start.wait()
        try:
            won.append(invitations.claim(invitation, account_id))
        except LobbyError as e:
            won.append(e)

    threads = [threading.Thread(target=accept, args=(i,)) for i in ids[1:]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(not isinstance(w, LobbyError) for w in won) == 1, won


def test_the_api_starts_one_match_for_two_accepts(web: TestClient) -> None:
    alice, bob, carol = players(web, "alice", "bob", "carol")
    invitation = post(web, alice)
    answers = []

    def accept(who: dict[str, str]) -> None:
        answers.append(web.post(f"/api/lobby/invitations/{invitation}/accept", headers=who).status_code)

    threads = [threading.Thread(target=accept, args=(w,)) for w in (bob, carol)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409]
    with web.app.state.members.accounts.sessions() as s:
        assert s.scalar(select(func.count()).select_from(MatchRow)) == 1


def test_the_lobbys_limits(web: TestClient) -> None:
    (alice,) = players(web, "alice")
    for _ in range(MAX_OPEN_PER_ACCOUNT):
        post(web, alice)
    r = web.post("/api/lobby/invitations", json={}, headers=alice)
    assert r.status_code == 409 and "limit" in r.json()["error"]
    assert (
        web.post("/api/lobby/invitations", json={"match_length": 0, "rated": True}, headers=alice).status_code
        == 422
    )
    assert web.post("/api/lobby/invitations", json={"match_length": 100}, headers=alice).status_code == 422
    assert web.post("/api/lobby/invitations", json={"extra": 1}, headers=alice).status_code == 422
    assert web.post("/api/lobby/invitations/" + "x" * 40 + "/accept", headers=alice).status_code == 422
    per_account = web.app.state.lobby.settings.per_account
    sockets = [web.websocket_connect("/ws/lobby", headers=alice) for _ in range(per_account)]
    for ws in sockets:
        ws.__enter__().receive_json()
    with web.websocket_connect("/ws/lobby", headers=alice) as refused:
        assert "limit" in refused.receive_json()["error"]
    ws = sockets[0]
    ws.send_text('{"type": "ping"}')
    assert until(ws, "type")["type"] in ("pong", "update")
    ws.send_text("x" * 1000)
    assert "over the limit" in until(ws, "error")["error"]
    ws.send_text('{"type": "post"}')
    assert "only" in until(ws, "error")["error"]
    for s in sockets:
        s.__exit__(None, None, None)


def test_the_lobby_sockets_of_one_address_are_capped(web: TestClient) -> None:
    per_address = web.app.state.lobby.settings.per_address
    sockets = [web.websocket_connect("/ws/lobby") for _ in range(per_address)]
    for ws in sockets:
        assert ws.__enter__().receive_json()["type"] == "hello"
    with web.websocket_connect("/ws/lobby") as refused:
        assert "limit" in refused.receive_json()["error"]
    for ws in sockets:
        ws.__exit__(None, None, None)


def test_cookie_sessions_post_with_the_csrf_header_only(web: TestClient) -> None:
    sign_up(web, "alice")  # the client holds alice's session cookie
    r = web.post("/api/lobby/invitations", json={"match_length": 1})
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["error"]
    r = web.post("/api/lobby/invitations", json={"match_length": 1}, headers=csrf(web))
    assert r.status_code == 201
    invitation = r.json()["id"]
    assert web.post(f"/api/lobby/invitations/{invitation}/cancel").status_code == 403
    assert web.post(f"/api/lobby/invitations/{invitation}/cancel", headers=csrf(web)).status_code == 200
    assert lobby(web)["you"]["name"] == "alice"  # a GET needs no header
    web.cookies.clear()
    assert web.post("/api/lobby/invitations", json={}).status_code == 401
    assert lobby(web)["you"] is None


def test_an_invitation_goes_when_its_poster_has_left_the_lobby_for_long(web: TestClient) -> None:
    alice, bob = players(web, "alice", "bob")
    accounts = web.app.state.members.accounts
    invitations = web.app.state.lobby.invitations
    kept, left = post(web, alice), post(web, bob)
    alice_id = accounts.by_name("alice").id
    now = accounts.clock()
    accounts.clock = lambda: now + POSTER_GRACE - timedelta(seconds=1)
    assert invitations.sweep(frozenset({alice_id})) == 0  # alice has the lobby open here
    accounts.clock = lambda: now + POSTER_GRACE + timedelta(seconds=5)
    assert invitations.sweep(frozenset()) == 1  # bob's went; alice's was seen a moment ago
    assert [i["id"] for i in lobby(web)["invitations"]] == [kept]
    with accounts.sessions() as s:
        assert s.scalar(select(LobbyInvitationRow.id)) == kept
    assert left not in {i.id for i in invitations.invitations()}


def test_the_lobby_page_shows_names_as_text_only() -> None:
    static = files("gammon.web") / "static"
    script = (static / "lobby.js").read_text()
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "outerHTML" not in script
    assert 'href="/lobby"' in (static / "index.html").read_text()
    assert 'href="/lobby"' in (static / "account.html").read_text()


def test_deleting_an_account_takes_its_invitations(web: TestClient) -> None:
    alice, bob = players(web, "alice", "bob")
    post(web, alice)
    post(web, bob, to="alice")
    r = web.post("/api/account/delete", json={"password": PASSWORD}, headers=alice)
    assert r.status_code == 200, r.text
    assert lobby(web)["invitations"] == [] and lobby(web, bob)["invitations"] == []


def test_no_game_is_claimed_against_a_player_who_never_came(store: Store) -> None:  # noqa: F811
    """The match of an invitation is made when it is accepted: neither player is at the table then
    (the poster's browser takes its seat later, the acceptor's opens it once the answer comes)."""
    away_after = 300.0
    clock = Clock()
    options = ServerSettings(rate=1000, burst=1000, accounts=settings(), away_after=away_after)
    tried: set[int] = set()
    for seed in range(3, 40):  # dice with either player to play first
        app = create_app(store, seeded_dice(seed), settings=options, clock=clock)
        with TestClient(app) as web:
            alice, bob = players(web, f"alice{seed}", f"bob{seed}")
            invitation = post(web, alice, match_length=1, rated=True)
            accepted = web.post(f"/api/lobby/invitations/{invitation}/accept", headers=bob).json()
            taken = web.post(f"/api/lobby/invitations/{invitation}/seat", headers=alice).json()
            tokens = (taken["token"], accepted["token"])  # both links given; neither opened yet
            mover = app.state.hub.live[accepted["match_id"]].acting_player()
            if mover in tried:
                continue
            tried.add(mover)
            url = f"/api/matches/{accepted['match_id']}"
            waiting = tokens[1 - mover]
            view = web.get(url, headers=auth(waiting)).json()  # the other player comes
            assert view["opponent_joined"] is False and view["claim_in"] is None
            clock.now += away_after + 1
            view = web.get(url, headers=auth(waiting)).json()
            assert "claim" not in view["actions"] and view["claim_in"] is None
            signed = (alice, bob)[1 - mover]  # a rated match's seat acts signed in to its account
            r = web.post(f"{url}/actions", headers={**signed, **auth(waiting)}, json={"action": "claim"})
            assert r.status_code == 409 and "cannot claim" in r.json()["error"]
            # once the player to act came and left, the game may be claimed
            web.get(url, headers=auth(tokens[mover]))
            assert web.get(url, headers=auth(waiting)).json()["opponent_joined"] is True
            clock.now += away_after + 1
            r = web.post(f"{url}/actions", headers={**signed, **auth(waiting)}, json={"action": "claim"})
            assert r.status_code == 200, r.text
            assert r.json()["result"]["winner"] == 1 - mover and r.json()["match_over"]
            if tried == {0, 1}:
                return
    raise AssertionError(f"no seed had each player play first: {tried}")


def test_the_acceptor_gets_its_seat_when_the_accounts_cannot_be_shown(
    store: Store, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    """The match is made and the seats bound: a failed read of the accounts for the views must not
    lose the acceptor's answer, the only key to its seat."""
    options = ServerSettings(rate=1000, burst=1000, accounts=settings())
    app = create_app(store, seeded_dice(3), settings=options)
    with TestClient(app) as web:
        alice, bob = players(web, "alice", "bob")
        invitation = post(web, alice, match_length=1, rated=True)

        def away(match_id: str) -> object:
            raise OSError("connection refused")

        monkeypatch.setattr(app.state.members, "seat_accounts", away)
        r = web.post(f"/api/lobby/invitations/{invitation}/accept", headers=bob)
        assert r.status_code == 200, r.text
        mine = r.json()
        url = f"/api/matches/{mine['match_id']}"
        view = web.get(url, headers=auth(mine["token"])).json()
        assert view["seat"] == 1 and view["rated"]
        r = web.post(f"{url}/actions", headers={**bob, **auth(mine["token"])}, json={"action": "abandon"})
        assert r.status_code == 200, r.text  # bob's seat is his account's: he plays, rated
        assert r.json()["match_over"]


@pytest.mark.parametrize("leaver", ["poster", "acceptor"])
def test_an_account_deleted_during_an_accept_leaves_no_match(
    web: TestClient, monkeypatch: pytest.MonkeyPatch, leaver: str
) -> None:
    """The poster (or the acceptor) deletes the account just after the accept claimed the
    invitation: the accept is refused, and no match is left behind with neither seat an account's
    (it was made before its seats were bound, then refused)."""
    alice, bob = players(web, "alice", "bob")
    invitation = post(web, alice, match_length=3)
    invitations = web.app.state.lobby.invitations
    claim = invitations.claim

    def claim_then_delete(invitation_id: str, account_id: int) -> Claimed:
        claimed = claim(invitation_id, account_id)
        gone = (alice, bob)[leaver == "acceptor"]
        r = web.post("/api/account/delete", json={"password": PASSWORD}, headers=gone)
        assert r.status_code == 200, r.text
        return claimed

    monkeypatch.setattr(invitations, "claim", claim_then_delete)
    r = web.post(f"/api/lobby/invitations/{invitation}/accept", headers=bob)
    assert r.status_code == 409 and "not open to you" in r.json()["error"]
    with web.app.state.members.accounts.sessions() as s:
        assert s.scalar(select(func.count()).select_from(MatchRow)) == 0
    assert web.app.state.hub.live == {}
    assert lobby(web)["invitations"] == []


def test_the_acceptor_gets_its_seat_when_the_opening_roll_is_not_stored(
    web: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The match is stored with its seats bound, and the invitation accepted, but the write of its
    first action fails (the database away a moment): the acceptor still gets its seat, the only
    key to it, and the match is played on from the store. (The accept failed, and with the
    invitation accepted the acceptor could neither take its seat nor accept again.)"""
    alice, bob = players(web, "alice", "bob")
    invitation = post(web, alice, match_length=1)
    store = web.app.state.hub.store
    append = store.append

    def away(match_id: str, change: object) -> None:
        monkeypatch.setattr(store, "append", append)  # once
        raise OSError("connection refused")

    monkeypatch.setattr(store, "append", away)
    r = web.post(f"/api/lobby/invitations/{invitation}/accept", headers=bob)
    assert r.status_code == 200, r.text
    mine = r.json()
    view = web.get(f"/api/matches/{mine['match_id']}", headers=auth(mine["token"])).json()
    assert view["seat"] == 1 and view["match_length"] == 1
    theirs = web.post(f"/api/lobby/invitations/{invitation}/seat", headers=alice).json()
    assert theirs["match_id"] == mine["match_id"]
    assert web.get(f"/api/matches/{mine['match_id']}", headers=auth(theirs["token"])).json()["seat"] == 0
