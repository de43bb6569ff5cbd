"""The web in English, Polish, Czech and Slovak: the catalogue the pages' scripts load, the rules
page in each language (asked, remembered in the cookie or from Accept-Language), and in Chromium
the watch, rules, editor, start, game, account, lobby and drill pages with no English left on
them, and the language switch."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from importlib.resources import files
from urllib.parse import urlparse

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gammon.errors import GammonError
from gammon.formats.convert import read_match
from gammon.i18n import LANGUAGES, catalogue, plural_sources, tr, use_language
from gammon.i18n.check import untranslated
from gammon.store import Store
from gammon.web import create_app
from gammon.web.routes.language import PLURAL_RULES
from gammon.web.settings import ServerSettings
from gammon.web.sockets import close_reason
from tests.web.conftest import auth, new_match, seeded_dice, serving
from tests.web.test_analysis_page_e2e import _analyse, canned_routes, result  # noqa: F401  (fixture)
from tests.web.test_e2e import Server, _start, browser, server  # noqa: F401  (fixtures)
from tests.web.test_e2e_accounts import _sign

OTHER_LANGUAGES = ("pl", "cs", "sk")
CZECH = {"Accept-Language": "cs"}
RULES_TITLES = {
    "en": "Rules of backgammon",
    "pl": "Zasady backgammona",
    "cs": "Pravidla backgammonu",
    "sk": "Pravidlá backgammonu",
}


def test_the_catalogue_of_a_language_for_the_pages(client: TestClient) -> None:
    body = client.get("/i18n/pl.json").json()
    assert body["lang"] == "pl" and body["plural"] == "pl"
    assert body["messages"]["Game log"] == "Przebieg gry"
    assert body["messages"]["{n} point"] == ["{n} punkt", "{n} punkty", "{n} punktów"]
    assert body["plurals"]["{n} point"] == "{n} points"
    assert client.get("/i18n/en.json").json()["messages"] == {}
    assert client.get("/i18n/de.json").status_code == 404


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_in_each_language(client: TestClient, lang: str) -> None:
    r = client.get(f"/rules?lang={lang}")
    assert r.status_code == 200 and r.headers["content-language"] == lang
    assert f'<html lang="{lang}">' in r.text and f"<h1>{RULES_TITLES[lang]}</h1>" in r.text
    assert "<code>24/18 13/11</code>" in r.text  # the notation stays as it is


def test_the_rules_page_follows_the_cookie_then_the_browser(client: TestClient) -> None:
    assert 'lang="cs"' in client.get("/rules", headers={"Accept-Language": "de,cs;q=0.8,en;q=0.5"}).text
    client.cookies.set("gammon_lang", "sk")
    assert 'lang="sk"' in client.get("/rules", headers={"Accept-Language": "cs"}).text
    assert 'lang="pl"' in client.get("/rules?lang=pl").text  # asked for: the link of the switch
    client.cookies.clear()
    assert '<html lang="en">' in client.get("/rules", headers={"Accept-Language": "de"}).text


def _visible_texts(page) -> list[str]:
    """What a reader sees on the page: its visible text nodes and the labels a screen reader says."""
    return page.evaluate("""() => {
      const out = [document.title];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const el = n.parentElement, text = n.textContent.trim();
        const shown = el.closest("svg, code, script, style") === null && el.offsetParent !== null;
        if (text && shown) out.push(text);
      }
      for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
        for (const a of ["aria-label", "title", "placeholder"]) {
          if (el.getAttribute(a)) out.push(el.getAttribute(a));
        }
      }
      return out;
    }""")


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_the_pages_show_no_english_in_chromium(browser, store: Store, lang: str) -> None:  # noqa: F811
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with serving(app) as port:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base) as c:
            m = new_match(c, mode="online")  # type: ignore[arg-type]
            key = c.get(f"/api/matches/{m['match_id']}/watch-link", headers=auth(m["token"])).json()["key"]
        context = browser.new_context(locale={"pl": "pl-PL", "cs": "cs-CZ", "sk": "sk-SK"}[lang])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(15_000)
        page.goto(f"{base}/watch/{m['match_id']}#key={key}")
        page.wait_for_function("() => window.watch && watch.state !== null")
        page.wait_for_function("() => document.querySelector('#log li') !== null")
        assert page.evaluate("document.documentElement.lang") == lang
        texts = _visible_texts(page)
        assert untranslated(texts, lang) == [], texts
        page.goto(f"{base}/rules")
        assert page.evaluate("document.documentElement.lang") == lang
        assert untranslated(_visible_texts(page), lang) == []
        # the editor, with a match position (its description is the server's English, read back)
        page.goto(f"{base}/editor#id=4HPwATDgc/ABMA:cAkAAAAAAAAA")
        page.wait_for_function("() => window.ed && ed.position !== null")
        texts = _visible_texts(page)
        assert untranslated(texts, lang) == [], texts
        # the switch: English chosen is remembered for the next page
        page.goto(f"{base}/watch/{m['match_id']}#key={key}")
        page.wait_for_function("() => window.watch && watch.state !== null")
        page.select_option("#language select", "en")
        # the choice reloads the page: while the new one loads there is no document element yet
        page.wait_for_function(
            "() => document.documentElement?.lang === 'en' && window.watch && watch.state !== null"
        )
        assert page.locator("h2").first.text_content() == "Game log"
        page.goto(f"{base}/rules")
        assert page.evaluate("document.documentElement.lang") == "en"
        context.close()
        assert errors == []


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_the_analysis_page_shows_no_english_in_chromium(browser, result, tmp_path, lang: str) -> None:  # noqa: F811
    """The analysis page with a canned analysis (as tests/web/test_analysis_page_e2e.py), the
    report and a decision shown."""
    context = browser.new_context(locale={"pl": "pl-PL", "cs": "cs-CZ", "sk": "sk-SK"}[lang])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)

    def serve(route) -> None:
        path = urlparse(route.request.url).path
        if path.startswith("/i18n/"):
            code = path.removeprefix("/i18n/").removesuffix(".json")
            route.fulfill(
                status=200,
                json={
                    "lang": code,
                    "plural": PLURAL_RULES[code],
                    "messages": catalogue(code),
                    "plurals": plural_sources(code),
                },
            )
        else:
            canned(route)

    canned = canned_routes(result)
    page.route("http://gammon.test/**", serve)
    page.goto("http://gammon.test/analysis")
    _analyse(page, tmp_path)
    page.click("#marked li")
    page.wait_for_selector("#decision:not([hidden])")
    texts = _visible_texts(page)
    assert page.evaluate("document.documentElement.lang") == lang
    assert untranslated(texts, lang) == [], texts
    context.close()
    assert errors == []


def test_the_game_log_comes_in_the_readers_language(client: TestClient) -> None:
    m = new_match(client, mode="local")
    url, headers = f"/api/matches/{m['match_id']}", auth(m["token"])
    english = client.get(url, headers=headers).json()
    assert english["log"][0] == "Game 1" and english["log"][1].startswith("White throws ")
    czech = client.get(url, headers={**headers, "Accept-Language": "cs-CZ,cs;q=0.9"}).json()
    assert czech["log"][0] == "Hra 1" and czech["log"][1].startswith("Bílý hází ")
    # a socket reads its language at connect: the cookie, which wins over Accept-Language
    client.cookies.set("gammon_lang", "pl")
    ws_url = f"/ws/matches/{m['match_id']}?token={m['token']}"
    with client.websocket_connect(ws_url, headers={"Accept-Language": "cs"}) as ws:
        polish = ws.receive_json()["state"]
        assert polish["log"][0] == "Gra 1" and polish["log"][1].startswith("Biały ")
        assert polish["log"][1:] != czech["log"][1:]
        client.cookies.clear()
        plays = client.post(
            f"{url}/actions",
            headers={**headers, "Accept-Language": "en"},
            json={"action": "play", "play": english["plays"][0]},
        )
        assert plays.json()["log"][0] == "Game 1"  # the request's own answer: English
        pushed = ws.receive_json()["state"]  # the push to the socket: still Polish
        assert pushed["log"][0] == "Gra 1" and len(pushed["log"]) == len(plays.json()["log"])


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_the_play_and_account_pages_show_no_english_in_chromium(browser, server: Server, lang: str) -> None:  # noqa: F811
    """The start page, a game against the computer under way, the account page signed in with its
    profile, the lobby and the drill page, in a browser that prefers the language."""
    context = browser.new_context(locale={"pl": "pl-PL", "cs": "cs-CZ", "sk": "sk-SK"}[lang])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)

    def no_english(what: str) -> None:
        assert page.evaluate("document.documentElement.lang") == lang, what
        texts = _visible_texts(page)
        assert untranslated(texts, lang) == [], (what, texts)

    page.goto(server.url + "/account")
    page.wait_for_selector("#sign-in:not([hidden])")
    no_english("account, signed out")
    _sign(page, "#do-sign-up", "alice")
    page.wait_for_function("() => document.querySelector('#leaderboard').rows.length > 1")
    no_english("account, signed in")
    page.goto(server.url + "/")
    page.wait_for_function("() => document.querySelector('select[name=level]').options.length > 2")
    for mode in ("computer", "local", "online"):  # each mode shows its own options
        page.check(f'input[name=mode][value="{mode}"]')
        no_english(f"start page, {mode}")
    _start(page, server, "computer", length="3")
    if page.is_visible('button[data-action="roll"]'):
        page.click('button[data-action="roll"]')
    page.wait_for_function("() => ui.state.log.length > 1 && !ui.anim")
    no_english("game page")
    page.goto(server.url + "/lobby")
    page.wait_for_selector("#post:not([hidden])")
    page.wait_for_function("() => lobby.players.size === 1")
    no_english("lobby")
    page.goto(server.url + "/drill")
    page.wait_for_selector("#drill-panel:not([hidden])")
    no_english("drill")
    context.close()
    assert errors == []


def test_the_apis_errors_come_in_the_readers_language(client: TestClient) -> None:
    """Each request's errors are worded in its language (Accept-Language, or the cookie); English
    without either."""
    czech = {"Accept-Language": "cs-CZ,cs;q=0.9"}
    assert client.get("/api/matches/nope").json() == {"error": "no match 'nope'"}
    unknown = client.get("/api/matches/nope", headers=czech)
    assert unknown.status_code == 404 and unknown.json() == {"error": "zápas 'nope' neexistuje"}
    m = new_match(client, mode="local")
    url, headers = f"/api/matches/{m['match_id']}/actions", auth(m["token"])
    invalid = client.post(url, headers={**headers, **czech}, json={"action": "frobnicate"})
    assert invalid.status_code == 422 and invalid.json()["error"].startswith("neplatný požadavek: action: ")
    refused = client.post(url, headers={**headers, **czech}, json={"action": "take"})
    english = client.post(url, headers=headers, json={"action": "take"})
    assert refused.status_code == english.status_code == 409
    dice = english.json()["error"].rsplit(" ", 1)[1]  # the opening roll's, e.g. 3-1
    assert english.json()["error"] == f"cannot take: the player on roll is to play {dice}"
    assert refused.json()["error"] == f"přijetí zdvojení teď není možné: hráč na tahu má zahrát {dice}"
    client.cookies.set("gammon_lang", "sk")  # the cookie wins over Accept-Language
    assert client.get("/api/matches/nope", headers=czech).json() == {"error": "zápas 'nope' neexistuje"}
    assert client.get("/api/nothing", headers=czech).json() == {"error": "nič tu nie je: '/api/nothing'"}
    client.cookies.clear()


def test_the_limits_refusals_come_in_the_readers_language(store: Store) -> None:
    """The middleware's refusals (a body too large, too many requests) are worded in the language too."""
    settings = ServerSettings(rate=0.01, burst=2)
    with TestClient(create_app(store, seeded_dice(), settings=settings)) as c:
        big = c.post(
            "/api/analyses",
            content=b"{}",
            headers={
                "Accept-Language": "cs",
                "Content-Length": "99999999",
                "Content-Type": "application/json",
            },
        )
        assert big.status_code == 413
        assert big.json()["error"].startswith("tělo požadavku o velikosti '99999999' B překračuje limit ")
        c.get("/api/matches/nope", headers={"Accept-Language": "cs"})
        limited = c.get("/api/matches/nope", headers={"Accept-Language": "cs"})
        assert limited.status_code == 429 and limited.json() == {"error": "příliš mnoho požadavků; zpomalte"}


def test_a_sockets_errors_come_in_its_readers_language(client: TestClient) -> None:
    """A socket's errors are worded in the language it came with; a browser told it lost its seat
    is told in its own."""
    m = new_match(client, mode="online")
    friend = m["invite_url"].split("#token=")[1]
    url = f"/ws/matches/{m['match_id']}?token={friend}&tab="
    with client.websocket_connect(url + "a", headers={"Accept-Language": "sk"}) as first:
        assert first.receive_json()["type"] == "state"
        first.send_text('{"action": 5}')
        assert first.receive_json()["error"].startswith("neplatná správa: ")
        first.send_json({"action": "take"})
        assert first.receive_json()["error"].startswith("prijatie zdvojenia teraz nie je možné: ")
        with client.websocket_connect(url + "b", headers={"Accept-Language": "cs"}) as other:
            assert other.receive_json()["error"] == "toto místo se používá v jiném prohlížeči"
        with client.websocket_connect(url + "c&takeover=true", headers={"Accept-Language": "pl"}) as taker:
            assert taker.receive_json()["state"]["seat"] == 1
            while (told := first.receive_json()).get("type") == "state":
                pass
            assert told["error"] == "toto miesto bolo prevzaté v inom prehliadači"


def test_an_uploads_error_comes_back_from_its_job_in_the_uploaders_language(store: Store) -> None:
    """An upload is read in the job's worker: the job carries the language of the request that
    started it, so the file's error comes back in it."""
    with TestClient(create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))) as c:
        started = c.post("/api/analyses", json={"mat": "hello there\n"}, headers={"Accept-Language": "pl"})
        assert started.status_code == 202, started.text
        job = started.json()
        for _ in range(400):
            if job["status"] not in ("queued", "running"):
                break
            time.sleep(0.05)
            job = c.get(f"/api/jobs/{job['id']}").json()
        assert job["status"] == "failed"
        assert job["error"] == (
            "nie można odczytać pliku .mat: wiersz 1: 'hello there': oczekiwano nagłówka "
            "'; [Tag \"value\"]' lub 'N point match'"
        )


TLINE = """
globalThis.document = {
  documentElement: {}, querySelectorAll: () => [], querySelector: () => null, cookie: "",
};
globalThis.navigator = { languages: ["en"] };
// The catalogue comes in a file: as an argument it passes the 128 KiB a single argument may have.
const { readFileSync } = await import("node:fs");
const [module, cataloguePath, lines] = process.argv.slice(2);
const catalogue = readFileSync(cataloguePath, "utf8");
globalThis.fetch = async () => ({ ok: true, json: async () => JSON.parse(catalogue) });
const common = await import(module);
await common.loadLanguage(JSON.parse(catalogue).lang);
console.log(JSON.stringify(JSON.parse(lines).map(common.tLine)));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run common.js")
@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_tline_shows_the_servers_own_words_as_they_are(client: TestClient, lang: str, tmp_path) -> None:
    """The server words its errors in the page's language; the page's tLine (common.js), which
    reads the server's English lines back, passes those through as they are."""
    lines = [client.get("/api/matches/nope", headers={"Accept-Language": lang}).json()["error"]]
    for data, fmt in ((b"hello there\n", "mat"), ("(;GM[1]FF[4])", "sgf"), (b"junk-data!", "xg")):
        with use_language(lang):
            with pytest.raises(GammonError) as caught:
                read_match(data, fmt)
            lines.append(tr("cannot read the .{kind} file: {problem}", kind=fmt, problem=str(caught.value)))
    script = tmp_path / "tline.mjs"
    script.write_text(TLINE)
    module = str(files("gammon.web") / "static" / "common.js")
    catalogue = tmp_path / f"{lang}.json"
    catalogue.write_text(client.get(f"/i18n/{lang}.json").text, encoding="utf-8")
    run = [shutil.which("node"), str(script), module, str(catalogue), json.dumps(lines)]
    shown = json.loads(subprocess.run(run, capture_output=True, text=True, check=True, timeout=60).stdout)
    assert shown == lines


def test_an_invalid_requests_reasons_come_in_the_readers_language(client: TestClient) -> None:
    """pydantic's reasons are worded by gammon in the request's language: the field and the input
    stay as they are."""
    bodies = ({"mode": "fly"}, {"match_length": 100}, {"level": "x" * 33}, {"crawford": "maybe"}, {"x": 1})
    said = {
        lang: [
            client.post("/api/matches", json=body, headers={"Accept-Language": lang}).json()["error"]
            for body in bodies
        ]
        for lang in LANGUAGES
    }
    assert said["en"] == [
        "invalid request: mode: should be one of 'computer', 'local', 'online' (got 'fly')",
        "invalid request: match_length: should be at most 99 (got 100)",
        "invalid request: level: should have at most 32 characters (got '" + "x" * 33 + "')",
        "invalid request: crawford: should be true or false (got 'maybe')",
        "invalid request: x: no such field is allowed (got 1)",
    ]
    assert said["cs"][0] == (
        "neplatný požadavek: mode: očekávána jedna z hodnot: 'computer', 'local', 'online' (zadáno 'fly')"
    )
    assert said["pl"][1] == "nieprawidłowe żądanie: match_length: oczekiwano co najwyżej 99 (podano 100)"
    assert said["sk"][2].startswith("neplatná požiadavka: level: môže mať najviac 32 znakov (zadané 'xxx")
    for lang in OTHER_LANGUAGES:
        for english, worded in zip(said["en"], said[lang], strict=True):
            assert english.split(": ", 2)[2] != worded.split(": ", 2)[2], (lang, worded)


def test_a_sockets_invalid_message_is_worded_in_its_language(client: TestClient) -> None:
    m = new_match(client, mode="local")
    url = f"/ws/matches/{m['match_id']}?token={m['token']}"
    with client.websocket_connect(url, headers={"Accept-Language": "cs"}) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"action": "roll", "extra": 1})
        assert ws.receive_json()["error"] == "neplatná zpráva: extra: takové pole není povoleno (zadáno 1)"


def test_a_close_reason_fits_its_frame_in_any_language() -> None:
    """A close frame holds 123 bytes of reason: a translated one is cut there, never inside a letter."""
    assert close_reason("short") == "short"
    reason = close_reason("žluťoučký kůň " * 20)
    assert len(reason.encode()) <= 123 and "žluťoučký kůň ".startswith(reason[:14])
    assert "\ufffd" not in reason


def test_the_lobbys_shown_close_reason_comes_in_the_readers_language(store: Store) -> None:
    """The lobby's page shows a 1008 close's reason: the rate limit's is worded like its message."""
    with TestClient(create_app(store, seeded_dice(), settings=ServerSettings(rate=0.01, burst=2))) as c:
        m = new_match(c, mode="local")
        with c.websocket_connect(f"/ws/matches/{m['match_id']}?token={m['token']}", headers=CZECH) as ws:
            ws.receive_json()
            for _ in range(3):
                ws.send_json({"action": "take"})
                ws.receive_json()
            ws.send_json({"action": "take"})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
    with use_language("cs"):
        assert closed.value.code == 1008 and closed.value.reason == tr("too many messages; closed")
    assert closed.value.reason != "too many messages; closed"
