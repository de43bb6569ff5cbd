"""The player's improvement through the API: the tutor's check before an action, the drills of an
account's own decisions (CSRF, other accounts' cards out of reach) and the profile's numbers."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gammon.engine.players import engine_available
from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice
from tests.web.test_accounts_web import csrf, settings, sign_up

REAL = (
    Path(__file__).resolve().parents[1] / "data" / "mat" / "real" / "galaxy" / "bglab-lasse-match1112717.mat"
)
needs_engine = pytest.mark.skipif(not engine_available(), reason="the tutor needs the engine's trained net")


@pytest.fixture
def web(store: Store) -> Iterator[TestClient]:  # noqa: F811
    app = create_app(
        store, seeded_dice(3), settings=ServerSettings(rate=1000, burst=1000, accounts=settings())
    )
    with TestClient(app) as c:
        yield c


def _analysed(c: TestClient, name: str = "lasse") -> dict:
    """``name`` signed up, with the real match file uploaded and analysed (0-ply): its profile."""
    sign_up(c, name)
    r = c.post(
        "/api/account/uploads", json={"mat": REAL.read_text(), "file_name": REAL.name}, headers=csrf(c)
    )
    assert r.status_code == 202, r.text
    assert [o.status for o in c.app.state.members.queue.work_all()] == ["done"]  # type: ignore[attr-defined]
    return c.get("/api/account/profile").json()


def test_the_profile_has_each_matchs_rates_luck_and_the_worst_decisions_boards(web: TestClient) -> None:
    p = _analysed(web)
    [m] = p["matches"]
    assert {"pr", "checker_error_rate", "cube_error_rate", "luck_rate"} <= set(m)
    assert [t["pr"] for t in p["pr_trend"]] == [m["pr"]] and p["pr_trend"][0]["average"] == pytest.approx(
        m["pr"]
    )
    assert (
        p["opponents"] == [{"name": "earl", "played": 1, "won": 1, "lost": 0}]
        or p["opponents"][0]["name"] == "earl"
    )
    assert p["worst"], "a real match has marked decisions"
    worst = p["worst"][0]
    assert len(worst["board"]) == 26 and len(worst["off"]) == 2 and worst["cube"]["value"] >= 1
    # the board is the decider's: its fifteen checkers are its own (positive) ones and those off
    assert sum(c for c in worst["board"] if c > 0) + worst["off"][0] == 15


def test_a_drill_is_answered_graded_and_rescheduled(web: TestClient) -> None:
    _analysed(web)
    deck = web.get("/api/account/drill").json()
    due, card = deck["progress"]["due"], deck["card"]
    assert due == deck["progress"]["cards"] > 0 and card is not None
    assert "best" not in card["decision"] and "played" not in card["decision"]  # not told before the answer
    answer = (
        card["plays"][0] if card["asks_for"] == "play" else "take" if card["asks_for"] == "take" else "double"
    )
    r = web.post(f"/api/account/drill/{card['id']}/review", json={"answer": answer}, headers=csrf(web))
    assert r.status_code == 200, r.text
    review = r.json()
    assert review["grade"] in ("Again", "Hard", "Good") and review["ranking"] and review["best"]
    assert review["ranking"][0]["error"] == 0 and review["played"]
    assert review["progress"]["due"] == due - 1 and review["progress"]["reviews"] == 1
    deck = web.get("/api/account/drill").json()
    assert deck["progress"]["due"] == due - 1
    card = deck["card"]  # the next one: the first is answered (not due again for a while)
    while card is not None and card["asks_for"] != "play":
        cube = "pass" if card["asks_for"] == "take" else "no double"
        r = web.post(f"/api/account/drill/{card['id']}/review", json={"answer": cube}, headers=csrf(web))
        assert r.status_code == 200, r.text
        card = web.get("/api/account/drill").json()["card"]
    assert card is not None, "the match has a marked play"
    r = web.post(
        f"/api/account/drill/{card['id']}/review", json={"answer": card["plays"][-1]}, headers=csrf(web)
    )
    review = r.json()  # with the boards after the answer and the ranked plays, to show them
    assert {review["answer"], review["ranking"][0]["choice"]} <= set(review["boards"])
    assert len(review["boards"][review["answer"]]["board"]) == 26


def test_a_review_needs_the_csrf_header_and_an_answer_of_the_kind_asked(web: TestClient) -> None:
    _analysed(web)
    card = web.get("/api/account/drill").json()["card"]
    path = f"/api/account/drill/{card['id']}/review"
    r = web.post(path, json={"answer": "take"})
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["error"]
    wrong = "double" if card["asks_for"] in ("play", "take") else "24/18"
    assert web.post(path, json={"answer": wrong}, headers=csrf(web)).status_code == 409
    assert web.get("/api/account/drill").json()["progress"]["reviews"] == 0  # nothing was stored


def test_other_accounts_drills_are_out_of_reach(web: TestClient, store: Store) -> None:  # noqa: F811
    card = web.get("/api/account/drill")
    assert card.status_code == 401  # signed out
    _analysed(web)
    theirs = web.get("/api/account/drill").json()["card"]
    web.post("/api/account/sign-out", headers=csrf(web))
    sign_up(web, "mallory")
    mine = web.get("/api/account/drill").json()
    assert mine["card"] is None and mine["progress"]["cards"] == 0
    r = web.post(f"/api/account/drill/{theirs['id']}/review", json={"answer": "take"}, headers=csrf(web))
    assert r.status_code == 404
    for beyond in (0, 2**31, 2**63, 10**30):  # no row has such an id (the database refused it: 500)
        r = web.post(f"/api/account/drill/{beyond}/review", json={"answer": "take"}, headers=csrf(web))
        assert r.status_code == 422 and "card_id" in r.json()["error"], r.text


def _to_move(c: TestClient, m: dict) -> dict:
    for _ in range(20):
        s = c.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json()
        if s["phase"] == "move" and s["plays"]:
            return s
        action = "roll" if "roll" in s["actions"] else "new_game"
        c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]), json={"action": action})
    raise AssertionError("no play to make")


@needs_engine
@pytest.mark.slow
def test_the_tutor_flags_a_bad_play_and_passes_the_best_recording_nothing(store: Store) -> None:  # noqa: F811
    from gammon.engine.engine import Engine

    with TestClient(
        create_app(
            store, seeded_dice(4), settings=ServerSettings(rate=1000, burst=1000), engine=Engine(plies=0)
        )
    ) as c:
        m = new_match(c, mode="local", match_length=3)
        s = _to_move(c, m)
        path = f"/api/matches/{m['match_id']}/tutor"
        found = []
        for play in s["plays"]:  # the first play the tutor flags as very bad
            r = c.post(
                path, headers=auth(m["token"]), json={"action": "play", "play": play, "level": "very bad"}
            )
            assert r.status_code == 200, r.text
            if r.json()["warning"] is not None:
                found.append((play, r.json()["warning"]))
                break
        assert found, "some opening play is a blunder"
        play, warning = found[0]
        best = warning["best_play"]
        assert warning["mark"] == "very bad" and best in s["plays"] and warning["chosen"] == play
        assert warning["unit"] == "mwc" and warning["error"] >= 0.12 and warning["best_action"] == "play"
        r = c.post(
            path, headers=auth(m["token"]), json={"action": "play", "play": best, "version": s["version"]}
        )
        assert r.json() == {"version": s["version"], "warning": None}
        after = c.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json()
        assert after["version"] == s["version"] and after["log"] == s["log"]  # a check records nothing
        r = c.post(path, headers=auth(m["token"]), json={"action": "play", "play": best, "version": 0})
        assert r.status_code == 409  # acted on an old state


def test_no_tutor_in_online_games_nor_for_the_seat_that_waits(client: TestClient) -> None:
    m = new_match(client, mode="online")
    r = client.post(f"/api/matches/{m['match_id']}/tutor", headers=auth(m["token"]), json={"action": "roll"})
    assert r.status_code == 403 and "online" in r.json()["error"]
    r = client.post(f"/api/matches/{m['match_id']}/tutor", json={"action": "roll"})
    assert r.status_code == 403  # no seat token


def test_the_new_pages_write_text_never_markup(client: TestClient) -> None:
    static = Path(str(files("gammon.web") / "static"))
    for script in ("tutor.js", "drill.js", "profile.js"):
        source = (static / script).read_text()
        assert all(bad not in source for bad in ("innerHTML", "insertAdjacentHTML", "document.write")), script
    page = client.get("/drill")
    assert page.status_code == 200 and '<script type="module" src="/static/drill.js">' in page.text
    assert 'href="/drill"' in (static / "account.html").read_text()


def test_an_answer_sent_twice_is_graded_once(web: TestClient) -> None:
    _analysed(web)
    card = web.get("/api/account/drill").json()["card"]
    answer = (
        "take"
        if card["asks_for"] == "take"
        else "double"
        if card["asks_for"] == "double"
        else card["plays"][0]
    )
    path = f"/api/account/drill/{card['id']}/review"
    assert web.post(path, json={"answer": answer}, headers=csrf(web)).status_code == 200
    again = web.post(path, json={"answer": answer}, headers=csrf(web))
    assert again.status_code == 409 and "not due until" in again.json()["error"], again.text
    assert web.get("/api/account/drill").json()["progress"]["reviews"] == 1
