"""The engine's analysis of an online match's games waits for the match to end: hints are off in
online games, and a game analysed between two games is help too (the opponent's play, the
engine's view of one's own)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import auth
from tests.web.test_study import _finish, study  # noqa: F401  (fixture)


def _finish_a_game(c: TestClient, match_id: str, tokens: tuple[str, str]) -> None:
    """Play until the first game ends: the first double is passed."""
    for _ in range(200):
        for token in tokens:
            view = c.get(f"/api/matches/{match_id}", headers=auth(token)).json()
            if view["score"] != [0, 0]:
                return
            actions = view["actions"]
            if "pass" in actions:
                body: dict[str, object] = {"action": "pass"}
            elif "double" in actions:
                body = {"action": "double"}
            elif "roll" in actions:
                body = {"action": "roll"}
            elif "play" in actions:
                body = {"action": "play", "play": view["plays"][0]}
            else:
                continue
            r = c.post(f"/api/matches/{match_id}/actions", headers=auth(token), json=body)
            assert r.status_code == 200, r.text
    raise AssertionError("no game ended")


def test_an_online_match_is_analysed_once_it_is_over(study: TestClient) -> None:  # noqa: F811
    made = study.post("/api/matches", json={"mode": "online", "match_length": 3}).json()
    match_id, tokens = made["match_id"], (made["token"], made["invite_url"].split("#token=")[1])
    _finish_a_game(study, match_id, tokens)
    view = study.get(f"/api/matches/{match_id}", headers=auth(tokens[0])).json()
    assert not view["match_over"] and sum(view["score"]) == 1
    for token in tokens:
        for game in ({}, {"game": 1}):
            r = study.post("/api/analyses", json={"match_id": match_id, "token": token, **game})
            assert r.status_code == 409 and "once it is over" in r.json()["error"], r.text
    for action in ("new_game", "abandon"):
        r = study.post(f"/api/matches/{match_id}/actions", headers=auth(tokens[0]), json={"action": action})
        assert r.status_code == 200, r.text
    assert r.json()["match_over"]
    r = study.post("/api/analyses", json={"match_id": match_id, "token": tokens[1], "game": 1})
    assert r.status_code == 202, r.text
    assert _finish(study, r.json())["status"] == "done"


def test_an_online_matchs_mat_is_offered_once_it_is_over(study: TestClient) -> None:  # noqa: F811
    """Its .mat posted back as an upload was the engine's analysis of the games played so far."""
    made = study.post("/api/matches", json={"mode": "online", "match_length": 3}).json()
    match_id, tokens = made["match_id"], (made["token"], made["invite_url"].split("#token=")[1])
    _finish_a_game(study, match_id, tokens)
    for token in tokens:
        r = study.get(f"/api/matches/{match_id}/match.mat", headers=auth(token))
        assert r.status_code == 409 and "once it is over" in r.json()["error"], r.text
    for action in ("new_game", "abandon"):
        r = study.post(f"/api/matches/{match_id}/actions", headers=auth(tokens[0]), json={"action": action})
        assert r.status_code == 200, r.text
    assert r.json()["match_over"]
    r = study.get(f"/api/matches/{match_id}/match.mat", headers=auth(tokens[1]))
    assert r.status_code == 200 and " 3 point match" in r.text, r.text
    job = study.post("/api/analyses", json={"mat": r.text, "plies": 0})
    assert job.status_code == 202, job.text
    assert _finish(study, job.json())["status"] == "done"


def test_a_computer_matchs_mat_is_offered_while_it_is_played(study: TestClient) -> None:  # noqa: F811
    made = study.post("/api/matches", json={"mode": "computer", "match_length": 3}).json()
    r = study.get(f"/api/matches/{made['match_id']}/match.mat", headers=auth(made["token"]))
    assert r.status_code == 200 and " 3 point match" in r.text, r.text
