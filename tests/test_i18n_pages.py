"""Words the browser's pages show, from the server or when it cannot answer, in the reader's
language."""

from __future__ import annotations

import os

import pytest
from fastapi.testclient import TestClient

from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from gammon.web.study import StudySettings
from tests.analysis.games import pip_engine
from tests.web.conftest import auth, new_match, seeded_dice, serving
from tests.web.test_e2e import CHROMIUM, browser  # noqa: F401  (fixture)


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


UNREACHABLE = {
    "pl": ("nie można połączyć się z serwerem: sprawdź połączenie i spróbuj ponownie",
           "odpowiedź serwera: HTTP 502"),
    "cs": ("server je nedostupný: zkontrolujte připojení a zkuste to znovu", "odpověď serveru: HTTP 502"),
    "sk": ("server je nedostupný: skontroluj pripojenie a skús to znova", "odpoveď servera: HTTP 502"),
}


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent")
@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_a_server_that_cannot_answer_is_said_in_the_pages_language(browser, tmp_path, lang):  # noqa: F811
    """The browser's own words for a request that fails ("Failed to fetch") and a proxy's status
    text ("Bad Gateway") are English: the page says its own."""
    store = Store(f"sqlite:///{tmp_path / 'test.sqlite3'}")
    app = create_app(store, seeded_dice(), settings=ServerSettings(
        rate=1000, burst=1000, study=StudySettings(engine=lambda plies: pip_engine())))
    with serving(app) as port:
        context = browser.new_context(locale={"pl": "pl-PL", "cs": "cs-CZ", "sk": "sk-SK"}[lang])
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"http://127.0.0.1:{port}/editor#id=4HPwATDgc/ABMA:cAkAAAAAAAAA")
        page.wait_for_function("() => window.ed && ed.position !== null")
        cut_off, proxy = UNREACHABLE[lang]
        page.route("**/api/positions/hint**", lambda route: route.abort())
        page.click("#hint")
        page.wait_for_function("text => document.querySelector('#error').textContent === text", arg=cut_off)
        page.unroute("**/api/positions/hint**")
        page.route("**/api/positions/hint**", lambda route: route.fulfill(
            status=502, body="<html><body>Bad Gateway</body></html>", content_type="text/html"))
        page.click("#hint")
        page.wait_for_function("text => document.querySelector('#error').textContent === text", arg=proxy)
        context.close()
    store.close()
