"""The position editor's IDs of a position with an offer to resign, which no XGID holds."""

from __future__ import annotations

from fastapi.testclient import TestClient

from gammon.formats.ids import read_id

RESIGNING = "4HPwATDgc/ABMA:cMEFAAAAAAAA"  # money game, 31 rolled, the player on roll offers a gammon


def test_the_editor_gets_no_xgid_and_asks_by_the_gnubg_id(client: TestClient) -> None:
    """GET /api/positions gave an XGID without the offer, which the editor's page then sent for the
    hint, the evaluation and the rollout: they answered about the game played on."""
    p = client.get("/api/positions", params={"id": RESIGNING}).json()
    assert p["xgid"] is None
    # the page asks by its GNU Backgammon ID, which reads back with the offer
    again = client.get("/api/positions", params={"id": p["gnubg_id"]}).json()
    assert again == p and read_id(p["gnubg_id"]).resignation is not None
