"""Players' names: chosen in the lobby, checked by the server, stored with the match, written to `.mat`."""

from __future__ import annotations

from fastapi.testclient import TestClient

from gammon.formats.mat import read_mat
from tests.web.conftest import auth, new_match


def test_names_are_one_line_of_at_most_24_characters(client: TestClient) -> None:
    for bad in ("Ann\nBob", "tab\there", "x" * 25):
        r = client.post("/api/matches", json={"mode": "local", "name": bad})
        assert r.status_code == 422 and "name" in r.json()["error"], (bad, r.text)
    m = new_match(client, mode="local", name="  Ann   Lee ", opponent_name="   ")
    view = client.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json()
    assert view["names"] == ["Ann Lee", "Black"]  # spaces collapsed; a blank name is the default


def test_names_survive_a_reload_and_the_computer_keeps_its_own(client: TestClient) -> None:
    m = new_match(client, mode="computer", level="random", name="Zoë", opponent_name="ignored")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.live.clear()  # forget the live match: it is rebuilt from the store
    view = client.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json()
    assert view["names"] == ["Zoë", "Computer (random)"]


def test_the_mat_holds_names_without_its_delimiters(client: TestClient) -> None:
    m = new_match(client, mode="local", match_length=3, name='a:b "c" (d) [e]', opponent_name=":()")
    text = client.get(f"/api/matches/{m['match_id']}/match.mat", headers=auth(m["token"])).text
    record = read_mat(text)
    assert record.names == ("ab c d e", "Player 2") and not record.errors
