"""Players' names: chosen in the lobby, checked by the server, stored with the match, written to `.mat`."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from gammon.formats.mat import read_mat
from tests.formats.test_mat_gnubg import walk_in_gnubg
from tests.helpers import needs_gnubg
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


def test_the_mat_holds_names_without_the_colon_that_splits_its_score_lines(client: TestClient) -> None:
    m = new_match(client, mode="local", match_length=3, name='a:b "c" (d) [e]', opponent_name=":")
    text = client.get(f"/api/matches/{m['match_id']}/match.mat", headers=auth(m["token"])).text
    record = read_mat(text)
    assert record.names == ('a b "c" (d) [e]', "Player 2") and not record.errors


@needs_gnubg
def test_gnu_backgammon_reads_the_names_of_a_downloaded_mat(client: TestClient, tmp_path: Path) -> None:
    m = new_match(client, mode="local", match_length=3, name='<b>Ann</b> "A": (1)', opponent_name="Zoë [Z]")
    for _ in range(6):  # a few actions, so the file has moves
        view = client.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).json()
        action = {"action": "play", "play": view["plays"][0]} if view["plays"] else {"action": "roll"}
        assert client.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]),
                           json=action).status_code == 200
    path = tmp_path / "names.mat"
    path.write_text(client.get(f"/api/matches/{m['match_id']}/match.mat", headers=auth(m["token"])).text)
    (walked,) = walk_in_gnubg([path])
    assert walked["names"] == ['<b>Ann</b> "A" (1)', "Zoë [Z]"]
    assert len(walked["ids"][0]) > 3  # it read the moves too


@needs_gnubg
def test_a_name_over_gnubgs_31_bytes_downloads_cut_at_a_character(client: TestClient, tmp_path: Path) -> None:
    # 24 characters, 66 bytes in UTF-8: gnubg cut it inside a character (at 31 bytes) and crashed
    m = new_match(client, mode="local", match_length=3, name="Zoe" + "山" * 21, opponent_name="Bob")
    path = tmp_path / "long.mat"
    path.write_text(client.get(f"/api/matches/{m['match_id']}/match.mat", headers=auth(m["token"])).text)
    (walked,) = walk_in_gnubg([path])
    assert walked["names"] == ["Zoe" + "山" * 9, "Bob"] == list(read_mat(path.read_text()).names)
