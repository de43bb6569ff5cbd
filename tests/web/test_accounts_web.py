"""Accounts on the web: sessions in cookies or bearer tokens, CSRF, throttled sign-ins, claimed
seats, rated matches played to the end through the API, the profile's upload and summary."""

from __future__ import annotations

import io
import random
import threading
import time
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select, text
from sqlalchemy.orm import sessionmaker

from gammon.accounts import SignInThrottle
from gammon.accounts.passwords import Passwords
from gammon.store import Store
from gammon.store.models import AccountRow, AnalysisJobRow, RatingChangeRow
from gammon.web import create_app
from gammon.web.auth import CSRF_COOKIE, SESSION_COOKIE, csrf_token
from gammon.web.members import AccountSettings
from gammon.web.routes import accounts as accounts_routes
from gammon.web.routes.accounts import MAX_PENDING
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PASSWORD = "correct horse battery"


def settings(**kw: object) -> AccountSettings:
    return AccountSettings(plies=0, worker=False, passwords=Passwords(CHEAP), **kw)  # type: ignore[arg-type]


@pytest.fixture
def web(store: Store) -> Iterator[TestClient]:  # noqa: F811
    app = create_app(
        store, seeded_dice(3), settings=ServerSettings(rate=1000, burst=1000, accounts=settings())
    )
    with TestClient(app) as c:
        yield c


def sign_up(c: TestClient, name: str, **extra: object) -> dict:
    r = c.post("/api/account/sign-up", json={"name": name, "password": PASSWORD, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def csrf(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": c.cookies.get(CSRF_COOKIE) or ""}


def api_token(c: TestClient, name: str) -> str:
    r = c.post("/api/account/sign-in", json={"name": name, "password": PASSWORD, "client": "api"})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_sign_up_sets_an_httponly_lax_session_cookie_and_who_am_i(web: TestClient) -> None:
    r = web.post("/api/account/sign-up", json={"name": "Alice", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Alice" and r.json()["token"] is None
    cookies = {c.split("=")[0]: c.lower() for c in r.headers.get_list("set-cookie")}
    assert "httponly" in cookies[SESSION_COOKIE] and "samesite=lax" in cookies[SESSION_COOKIE]
    assert "path=/" in cookies[SESSION_COOKIE] and "secure" not in cookies[SESSION_COOKIE]
    assert "httponly" not in cookies[CSRF_COOKIE]  # the pages' scripts read it
    assert web.cookies.get(CSRF_COOKIE) == csrf_token(web.cookies.get(SESSION_COOKIE) or "")
    me = web.get("/api/account").json()
    assert me["name"] == "Alice" and me["rating"] == 1500 and me["experience"] == 0


def test_cookies_are_secure_over_https_or_behind_an_https_public_url(store: Store) -> None:  # noqa: F811
    for app, base in (
        (create_app(store, settings=ServerSettings(accounts=settings())), "https://testserver"),
        (
            create_app(
                store, settings=ServerSettings(accounts=settings(), public_url="https://gammon.example")
            ),
            "http://testserver",
        ),
    ):
        with TestClient(app, base_url=base) as c:
            name = f"u{len(base)}"
            r = c.post("/api/account/sign-up", json={"name": name, "password": PASSWORD})
            assert r.status_code == 200, r.text
            assert all("secure" in h.lower() for h in r.headers.get_list("set-cookie"))


def test_state_changes_with_the_cookie_need_the_csrf_header(web: TestClient) -> None:
    sign_up(web, "alice")
    body = {"old_password": PASSWORD, "new_password": "another password"}
    r = web.post("/api/account/password", json=body)
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["error"]
    r = web.post("/api/account/password", json=body, headers={"X-CSRF-Token": "0" * 64})
    assert r.status_code == 403
    assert web.post("/api/account/sign-out").status_code == 403
    assert web.post("/api/account/delete", json={"password": PASSWORD}).status_code == 403
    assert web.get("/api/account").status_code == 200  # still signed in, nothing changed
    assert web.post("/api/account/password", json=body, headers=csrf(web)).status_code == 200


def test_a_bearer_token_needs_no_csrf_header(web: TestClient) -> None:
    sign_up(web, "alice")
    token = api_token(web, "alice")
    web.cookies.clear()
    assert web.get("/api/account", headers=bearer(token)).json()["name"] == "alice"
    assert web.post("/api/account/sign-out", headers=bearer(token)).status_code == 200
    assert web.get("/api/account", headers=bearer(token)).status_code == 401


def test_sign_in_and_up_from_another_sites_page_are_refused(web: TestClient) -> None:
    r = web.post(
        "/api/account/sign-up",
        json={"name": "alice", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403
    sign_up(web, "alice")
    web.cookies.clear()
    r = web.post(
        "/api/account/sign-in",
        json={"name": "alice", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and SESSION_COOKIE not in web.cookies
    r = web.post(
        "/api/account/sign-in",
        json={"name": "alice", "password": PASSWORD},
        headers={"Origin": "http://testserver"},
    )
    assert r.status_code == 200


@pytest.mark.parametrize("origin", ["http://[", "http://[::1", "https://a]b"])
def test_sign_in_and_up_with_an_unreadable_origin_are_refused(web: TestClient, origin: str) -> None:
    for path in ("/api/account/sign-up", "/api/account/sign-in"):
        r = web.post(path, json={"name": "alice", "password": PASSWORD}, headers={"Origin": origin})
        assert r.status_code == 403 and origin in r.json()["error"], r.text


def test_one_answer_for_unknown_and_known_names(web: TestClient) -> None:
    sign_up(web, "alice")
    wrong = web.post("/api/account/sign-in", json={"name": "alice", "password": "not the password"})
    unknown = web.post("/api/account/sign-in", json={"name": "nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong name or password"}


def test_sign_ins_are_throttled_per_name_and_per_address(store: Store) -> None:  # noqa: F811
    throttle = SignInThrottle(per_name=3, per_address=5)
    app = create_app(
        store, settings=ServerSettings(rate=1000, burst=1000, accounts=settings(throttle=throttle))
    )
    with TestClient(app) as c:
        sign_up(c, "alice")
        bad = {"name": "alice", "password": "wrong password"}
        assert [c.post("/api/account/sign-in", json=bad).status_code for _ in range(3)] == [401] * 3
        r = c.post("/api/account/sign-in", json={"name": "alice", "password": PASSWORD})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0  # even the right password
        # unknown names count like known ones, and the address has its own limit
        codes = [
            c.post("/api/account/sign-in", json={"name": f"x{i}", "password": "wrong password"}).status_code
            for i in range(3)
        ]
        assert codes == [401, 401, 429]
        assert c.post("/api/account/sign-in", json={"name": "bob", "password": PASSWORD}).status_code == 429


def test_an_ipv6_client_rotating_its_addresses_within_its_64_counts_as_one(
    store: Store,  # noqa: F811
) -> None:
    """Each guess from another address of one /64 (a host has the whole /64): the address limit
    counts them together, while another /64 and IPv4 addresses count apart."""
    throttle = SignInThrottle(per_name=100, per_address=3)
    app = create_app(
        store, settings=ServerSettings(rate=1000, burst=1000, accounts=settings(throttle=throttle))
    )

    def guess(host: str, i: int) -> int:
        c = TestClient(app, client=(host, 50000))
        return c.post(
            "/api/account/sign-in", json={"name": f"x{i}", "password": "wrong password"}
        ).status_code

    with TestClient(app):
        assert [guess(f"2001:db8:0:1::{i:x}", i) for i in range(1, 5)] == [401, 401, 401, 429]
        assert guess("2001:db8:0:1:ffff:1:2:3", 9) == 429
        assert guess("2001:db8:0:2::1", 10) == 401
        assert [guess(f"192.0.2.{i}", i) for i in range(1, 5)] == [401] * 4
        assert [guess("::ffff:198.51.100.7", i) for i in range(3)] + [guess("198.51.100.7", 3)] == [
            401,
            401,
            401,
            429,
        ]


def test_the_leaderboard_comes_a_page_at_a_time(web: TestClient, store: Store) -> None:  # noqa: F811
    """105 accounts: every one is on some page, ranked on, none twice (the board stopped at 100)."""
    with sessionmaker(store.engine).begin() as s:
        for i in range(105):
            s.add(
                AccountRow(
                    name=f"p{i:03}",
                    name_key=f"p{i:03}",
                    password_hash="-",
                    created_at=datetime(2026, 1, 1, tzinfo=UTC),
                    rating=1500.0 + i % 7,
                )
            )
    first = web.get("/api/leaderboard").json()
    rest = web.get("/api/leaderboard?offset=100").json()
    assert len(first) == 100 and len(rest) == 5
    board = first + rest
    assert [b["rank"] for b in board] == list(range(1, 106))
    assert sorted(b["name"] for b in board) == [f"p{i:03}" for i in range(105)]
    assert [(b["rating"], b["name"]) for b in board] == sorted(
        ((b["rating"], b["name"]) for b in board), key=lambda rn: (-rn[0], rn[1])
    )
    assert web.get("/api/leaderboard?limit=3&offset=2").json() == board[2:5]
    assert web.get("/api/leaderboard?offset=105").json() == []
    for bad in ("limit=0", "limit=101", "offset=-1", "offset=99999999999999999999", "limit=x"):
        r = web.get(f"/api/leaderboard?{bad}")
        assert r.status_code == 422, (bad, r.text)
        assert bad.split("=")[0] in r.text


def test_no_plain_password_is_stored(web: TestClient, store: Store) -> None:  # noqa: F811
    sign_up(web, "alice")
    token = api_token(web, "alice")
    with store.engine.connect() as conn:
        dump = " ".join(
            str(row)
            for t in ("accounts", "account_sessions")
            for row in conn.execute(text(f"SELECT * FROM {t}"))
        )
    assert PASSWORD not in dump and token not in dump and "$argon2id$" in dump


def test_names_with_markup_are_refused_and_match_names_stay_inert(web: TestClient) -> None:
    r = web.post("/api/account/sign-up", json={"name": "<script>x</script>", "password": PASSWORD})
    assert r.status_code == 422 and "<script>" not in r.text.split("got")[0]
    assert r.headers["content-type"].startswith("application/json")
    m = new_match(web, mode="online", match_length=1, name="<b onclick=x>Eve</b>")
    view = web.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"]))
    assert view.headers["content-type"].startswith("application/json")
    assert view.json()["names"][0] == "<b onclick=x>Eve</b>"  # plain data; pages set textContent
    page = web.get("/account")
    assert page.status_code == 200 and "script-src 'self'" in page.headers["content-security-policy"]


def _play_online(
    c: TestClient,
    m: dict,
    tokens: tuple[str, str],
    rng: random.Random,
    sessions: tuple[dict[str, str], dict[str, str]] = ({}, {}),
) -> dict:
    """Both seats play random legal actions until the match is over, each with its ``sessions``
    headers (a rated match's seats act signed in); the final view of seat 0."""
    for _ in range(3000):
        s = c.get(f"/api/matches/{m['match_id']}", headers=auth(tokens[0])).json()
        if s["match_over"]:
            return s
        seat = s["turn"]
        s = c.get(f"/api/matches/{m['match_id']}", headers=auth(tokens[seat])).json()
        acts = s["actions"]
        if "play" in acts:
            body = {"action": "play", "play": rng.choice(s["plays"])}
        elif "roll" in acts:
            body = {"action": "roll"}
        elif "take" in acts:
            body = {"action": "take"}
        elif "new_game" in acts:
            body = {"action": "new_game"}
        else:
            raise AssertionError(f"stuck: {acts}")
        headers = {**sessions[seat], **auth(tokens[seat])}
        r = c.post(f"/api/matches/{m['match_id']}/actions", headers=headers, json=body)
        assert r.status_code == 200, r.text
    raise AssertionError("the match did not end")


def test_a_rated_match_played_to_the_end_rates_both_players_once(web: TestClient, store: Store) -> None:  # noqa: F811
    sign_up(web, "alice")
    sign_up(web, "bob")
    web.cookies.clear()
    alice, bob = api_token(web, "alice"), api_token(web, "bob")
    r = web.post(
        "/api/matches", json={"mode": "online", "match_length": 1, "rated": True}, headers=bearer(alice)
    )
    assert r.status_code == 200, r.text
    m = r.json()
    tokens = (m["token"], m["invite_url"].split("#token=")[1])
    r = web.post("/api/account/claim", json={"seat_tokens": [tokens[1]]}, headers=bearer(bob))
    assert r.json() == {"claimed": [m["match_id"]], "refused": 0}
    s = web.get(f"/api/matches/{m['match_id']}", headers=auth(tokens[0])).json()
    assert s["rated"] and [a["name"] for a in s["accounts"]] == ["alice", "bob"]
    final = _play_online(web, m, tokens, random.Random(4), (bearer(alice), bearer(bob)))
    winner = final["match_winner"]
    ratings = [a["rating"] for a in final["accounts"]]
    assert ratings[winner] > 1500 > ratings[1 - winner]  # the view shows both new ratings
    with sessionmaker(store.engine)() as s:
        changes = s.scalars(select(RatingChangeRow).where(RatingChangeRow.match_id == m["match_id"])).all()
        jobs = s.scalars(select(AnalysisJobRow).where(AnalysisJobRow.match_id == m["match_id"])).all()
    assert len(changes) == 2 and sorted(j.seat for j in jobs) == [0, 1]  # rated once; each seat queued
    history = web.get("/api/account/ratings", headers=bearer(alice)).json()["history"]
    assert len(history) == 1 and history[0]["opponent"] == "bob"
    board = web.get("/api/leaderboard?active=true").json()
    assert [e["name"] for e in board] == [["alice", "bob"][winner], ["alice", "bob"][1 - winner]]
    assert web.get("/api/players/BOB/ratings").json()["name"] == "bob"
    zipped = web.get("/api/account/export", headers=bearer(bob))
    names = zipfile.ZipFile(io.BytesIO(zipped.content)).namelist()
    assert zipped.status_code == 200 and any(n.endswith(".mat") for n in names)


def test_one_export_of_an_account_at_a_time(web: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # an export rebuilds every match of the account: requests for it at once, each a thread of the
    # server, were all built side by side
    import gammon.web.routes.accounts as routes

    alice = sign_up(web, "alice", client="api")["token"]
    bob = sign_up(web, "bob", client="api")["token"]
    started, release = threading.Event(), threading.Event()
    build = routes.export_account

    def held(accounts, account_id):  # type: ignore[no-untyped-def]
        started.set()
        release.wait(10)
        return build(accounts, account_id)

    monkeypatch.setattr(routes, "export_account", held)
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(web.get, "/api/account/export", headers=bearer(alice))
        assert started.wait(10)
        again = web.get("/api/account/export", headers=bearer(alice))
        assert again.status_code == 429 and "being exported already" in again.json()["error"]
        release.set()
        assert first.result().status_code == 200
        assert web.get("/api/account/export", headers=bearer(bob)).status_code == 200
    assert web.get("/api/account/export", headers=bearer(alice)).status_code == 200  # done: again


def test_a_rated_match_needs_a_signed_in_creator_and_an_online_match_to_a_length(web: TestClient) -> None:
    r = web.post("/api/matches", json={"mode": "online", "match_length": 3, "rated": True})
    assert r.status_code == 401
    sign_up(web, "alice")
    r = web.post("/api/matches", json={"mode": "online", "match_length": 0, "rated": True}, headers=csrf(web))
    assert r.status_code == 422


def test_guest_seats_are_claimed_on_sign_up_and_not_twice(web: TestClient) -> None:
    m = new_match(web, mode="computer", match_length=1)
    out = sign_up(web, "alice", seat_tokens=[m["token"], "no-such-token"])
    assert out["claimed"] == [m["match_id"]] and out["refused"] == 1
    web.cookies.clear()
    out = sign_up(web, "bob", seat_tokens=[m["token"]])
    assert out["claimed"] == [] and out["refused"] == 1  # alice holds it


def test_delete_needs_the_password_and_signs_out(web: TestClient) -> None:
    sign_up(web, "alice")
    assert (
        web.post("/api/account/delete", json={"password": "wrong one!"}, headers=csrf(web)).status_code == 401
    )
    assert web.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(web)).status_code == 200
    assert web.get("/api/account").status_code == 401
    assert web.post("/api/account/sign-in", json={"name": "alice", "password": PASSWORD}).status_code == 401


MAT = """ 1 point match

 Game 1
 alice : 0                          carol : 0
  1) 31: 8/5 6/5                    52: 13/8 13/11
"""


def test_an_uploaded_file_is_queued_for_the_players_seat(web: TestClient, store: Store) -> None:  # noqa: F811
    sign_up(web, "carol")
    r = web.post("/api/account/uploads", json={"mat": MAT, "file_name": "x.mat"}, headers=csrf(web))
    assert r.status_code == 202, r.text
    assert r.json()["seat"] == 1 and r.json()["names"] == ["alice", "carol"]
    r = web.post("/api/account/uploads", json={"mat": MAT, "player": "dave"}, headers=csrf(web))
    assert r.status_code == 409 and "dave" in r.json()["error"]
    queue = web.app.state.members.queue  # type: ignore[attr-defined]  # the worker thread is off here
    assert web.get("/api/account/profile").json()["pending"] == 1
    assert [o.status for o in queue.work_all()] == ["done"]
    profile = web.get("/api/account/profile").json()
    assert profile["pending"] == 0 and [m["opponent"] for m in profile["matches"]] == ["alice"]


def test_an_uploads_file_name_with_control_characters(web: TestClient) -> None:
    """A NUL in the file's name was a 500 on PostgreSQL (text may not hold it): the name is kept
    without its control characters."""
    sign_up(web, "carol")
    r = web.post(
        "/api/account/uploads", json={"mat": MAT, "file_name": "my\x00\nmatch.mat"}, headers=csrf(web)
    )
    assert r.status_code == 202, r.text
    queue = web.app.state.members.queue  # type: ignore[attr-defined]  # the worker thread is off here
    assert [o.name for o in queue.work_all()] == ["mymatch.mat"]
    [match] = web.get("/api/account/profile").json()["matches"]
    assert match["source_name"] == "mymatch.mat"


def test_an_uploads_long_player_names_are_not_sent_back_whole(web: TestClient) -> None:
    """A file's names are its writer's: 20,000 characters of them came back in the error."""
    sign_up(web, "carol")
    long = MAT.replace("alice", "A" * 20000)
    r = web.post("/api/account/uploads", json={"mat": long, "player": "dave"}, headers=csrf(web))
    assert r.status_code == 409 and "'AAAA" in r.json()["error"] and len(r.text) < 600, r.text[:300]
    r = web.post("/api/account/uploads", json={"mat": long}, headers=csrf(web))
    assert r.status_code == 202 and r.json()["seat"] == 1
    assert r.json()["names"][0].startswith("AAAA") and len(r.json()["names"][0]) == 100
    assert r.json()["names"][1] == "carol"


def test_wrong_passwords_given_with_a_session_count_against_the_throttle(store: Store) -> None:  # noqa: F811
    app = create_app(
        store,
        settings=ServerSettings(
            rate=1000, burst=1000, accounts=settings(throttle=SignInThrottle(per_name=2))
        ),
    )
    with TestClient(app) as c:
        sign_up(c, "alice")
        body = {"old_password": "not the password", "new_password": "another password"}
        codes = [c.post("/api/account/password", json=body, headers=csrf(c)).status_code for _ in range(3)]
        assert codes == [401, 401, 429]
        r = c.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(c))
        assert r.status_code == 429


def test_a_new_sign_in_ends_the_browsers_previous_session(web: TestClient) -> None:
    sign_up(web, "alice")
    first = web.cookies.get(SESSION_COOKIE) or ""
    r = web.post("/api/account/sign-in", json={"name": "alice", "password": PASSWORD})
    assert r.status_code == 200 and web.cookies.get(SESSION_COOKIE) != first
    assert web.get("/api/account", headers=bearer(first)).status_code == 401


def test_claims_are_bounded(web: TestClient) -> None:
    sign_up(web, "alice")
    r = web.post("/api/account/claim", json={"seat_tokens": ["x" * 129]}, headers=csrf(web))
    assert r.status_code == 422
    r = web.post("/api/account/claim", json={"seat_tokens": ["x"] * 201}, headers=csrf(web))
    assert r.status_code == 422


def test_the_account_page_writes_text_never_markup() -> None:
    static = Path(str(files("gammon.web") / "static"))
    for script in ("account.js", "seats.js"):
        source = (static / script).read_text()
        assert (
            "innerHTML" not in source
            and "insertAdjacentHTML" not in source
            and "document.write" not in source
        )
    assert '<script type="module" src="/static/account.js">' in (static / "account.html").read_text()
    assert 'href="/account"' in (static / "index.html").read_text()


def test_a_match_made_with_the_cookie_is_the_accounts_only_with_the_csrf_header(web: TestClient) -> None:
    sign_up(web, "alice")
    guest = web.post("/api/matches", json={"mode": "computer", "match_length": 1}).json()
    mine = web.post("/api/matches", json={"mode": "computer", "match_length": 1}, headers=csrf(web)).json()
    seen = [web.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json() for m in (guest, mine)]
    assert seen[0]["accounts"] == [None, None]
    assert seen[1]["accounts"][0]["name"] == "alice" and seen[1]["accounts"][1] is None
    r = web.post("/api/matches", json={"mode": "online", "match_length": 3, "rated": True})
    assert r.status_code == 403  # a rated match asked for with the cookie needs the header


def test_an_accounts_waiting_uploads_are_bounded(web: TestClient) -> None:
    """Each upload keeps its file and queues up to a minute of analysis: one account queued 40
    copies of a file in a row, all accepted."""
    sign_up(web, "carol")
    codes = [web.post("/api/account/uploads", json={"mat": MAT}, headers=csrf(web)).status_code
             for _ in range(MAX_PENDING)]
    assert codes == [202] * MAX_PENDING
    r = web.post("/api/account/uploads", json={"mat": MAT}, headers={**csrf(web), "Accept-Language": "pl"})
    assert r.status_code == 429
    assert r.json() == {"error": f"twoje konto osiągnęło limit oczekujących analiz ({MAX_PENDING}): "
                                 "wyślij kolejne, gdy zostaną wykonane"}
    assert web.get("/api/account/profile").json()["pending"] == MAX_PENDING
    queue = web.app.state.members.queue  # type: ignore[attr-defined]  # the worker thread is off here
    queue.work_all()
    assert web.post("/api/account/uploads", json={"mat": MAT}, headers=csrf(web)).status_code == 202


def test_uploads_are_read_one_at_a_time_per_account_and_a_few_at_once(
    web: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An upload is read in the server's process, seconds of CPU for a large file: 20 uploads of
    one account sent at once were all read at the same time, holding the threads every other
    request's work needs (38 s of reading, others' answers up to 130 times slower)."""
    inside, most, release = [0], [0], threading.Event()
    lock = threading.Lock()
    real = accounts_routes.read_match_file

    def slow_read(data: bytes, name: str) -> object:
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        release.wait(timeout=30)
        with lock:
            inside[0] -= 1
        return real(data, name)

    monkeypatch.setattr(accounts_routes, "read_match_file", slow_read)
    tokens = []
    for name in ("carol", "dora", "erin", "fay"):
        sign_up(web, name)
        tokens.append(api_token(web, name))

    def send(token: str) -> int:
        upload = {"mat": MAT, "player": "alice"}
        return web.post("/api/account/uploads", json=upload, headers=bearer(token)).status_code

    def until_read_at_once(uploads: int) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with lock:
                if inside[0] >= uploads:
                    return
            release.wait(0.01)
        raise AssertionError(f"never {uploads} uploads read at once")

    with ThreadPoolExecutor(4) as pool:
        # the account's own upload is being read before its second is sent (sent together, under
        # load the first could still be on its way, and the second was taken as its first)
        first = [pool.submit(send, tokens[0])]
        until_read_at_once(1)
        first += [pool.submit(send, t) for t in tokens[1:]]
        until_read_at_once(accounts_routes.READING)  # the other two wait their turn
        again = web.post("/api/account/uploads", json={"mat": MAT, "player": "alice"},
                         headers={**bearer(tokens[0]), "Accept-Language": "pl"})
        release.set()
        codes = [f.result() for f in first]
    assert again.status_code == 429, again.text
    assert again.json() == {
        "error": "twój poprzedni plik jest jeszcze odczytywany; wyślij ten, gdy to się skończy"
    }
    assert codes == [202] * 4 and most[0] == accounts_routes.READING
    assert send(tokens[0]) == 202  # read: the account may send the next


def test_passwords_are_hashed_a_few_at_once(web: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hashing a password costs tens of milliseconds: 80 sign-ups sent together were all hashed
    at once, holding the threads every other request's work needs (others' answers up to 2.7 s,
    from 0.01 s)."""
    names = ("carol", "dora", "erin", "fay")
    for name in names:
        sign_up(web, name)
    accounts = web.app.state.members.accounts  # type: ignore[attr-defined]
    inside, most, release = [0], [0], threading.Event()
    lock = threading.Lock()
    real = accounts.sign_in

    def slow_sign_in(*args: object) -> object:
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        release.wait(timeout=30)
        with lock:
            inside[0] -= 1
        return real(*args)

    monkeypatch.setattr(accounts, "sign_in", slow_sign_in)

    def sign_in(name: str) -> int:
        body = {"name": name, "password": PASSWORD, "client": "api"}
        return web.post("/api/account/sign-in", json=body).status_code

    with ThreadPoolExecutor(4) as pool:
        sent = [pool.submit(sign_in, name) for name in names]
        while True:  # the first ones are being hashed, the others wait their turn
            with lock:
                if inside[0] >= accounts_routes.HASHING:
                    break
            release.wait(0.01)
        release.wait(0.2)  # time for more to come in, were they let
        release.set()
        codes = [f.result() for f in sent]
    assert codes == [200] * 4 and most[0] == accounts_routes.HASHING
