"""Words the browser's pages show from the server, in the reader's language."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice


@pytest.mark.parametrize(("lang", "start"), [("en", "Start"), ("pl", "Początek"), ("cs", "Začátek"),
                                             ("sk", "Začiatok")])
def test_a_replays_first_frame_is_named_in_the_readers_language(tmp_path, lang, start):
    store = Store(f"sqlite:///{tmp_path / 'test.sqlite3'}")
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with TestClient(app) as client:
        m = new_match(client, mode="local")
        r = client.get(f"/api/matches/{m['match_id']}/games/1/frames",
                       headers={**auth(m["token"]), "Accept-Language": lang})
        assert r.status_code == 200 and r.json()[0]["text"] == start
    store.close()
