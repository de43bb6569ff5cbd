"""GET /api/diagram: a position drawn as text, SVG or PNG; cached by the client, rate-limited,
bad IDs answered 422 with the ID cut short."""

from __future__ import annotations

from fastapi.testclient import TestClient

from gammon.store import Store
from gammon.web import create_app
from tests.diagram.test_diagram import GNUBG_BOARD, XGID


def test_formats_and_caching(client: TestClient) -> None:
    r = client.get("/api/diagram", params={"id": XGID, "format": "text"})
    assert r.status_code == 200 and r.text == GNUBG_BOARD
    assert r.headers["content-type"].startswith("text/plain")
    assert "max-age" in r.headers["cache-control"]
    tag = r.headers["etag"]
    again = client.get("/api/diagram", params={"id": XGID, "format": "text"}, headers={"If-None-Match": tag})
    assert again.status_code == 304
    svg = client.get("/api/diagram", params={"id": XGID})  # SVG unless asked
    assert svg.headers["content-type"] == "image/svg+xml" and svg.text.startswith("<svg")
    assert svg.headers["etag"] != tag
    png = client.get("/api/diagram", params={"id": XGID, "format": "png"})
    assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")


def test_bad_requests(client: TestClient) -> None:
    r = client.get("/api/diagram", params={"id": "4HPwATDgc/ABMA" + "Q" * 60, "format": "text"})
    assert r.status_code == 422
    message = r.json()["error"]
    assert "..." in message and len(message) < 200
    assert client.get("/api/diagram", params={"id": XGID, "format": "gif"}).status_code == 422
    assert client.get("/api/diagram", params={"id": "x" * 500}).status_code == 422


def test_rate_limited(store: Store) -> None:
    with TestClient(create_app(store)) as c:
        codes = [
            c.get("/api/diagram", params={"id": "4HPwATDgc/ABMA", "format": "text"}).status_code
            for _ in range(10)
        ]
    assert codes[0] == 200 and 429 in codes


def test_the_description_s_language_is_part_of_what_is_cached(client: TestClient) -> None:
    """An SVG's or PNG's description is in the reader's language (its cookie, else Accept-Language):
    the ETag and the Vary header say so, so that neither a shared cache nor a 304 gives one
    language's drawing to a reader of another. (The ETag was the same, with no Vary: a Polish
    reader holding the English drawing's tag was answered 304, keeping the English text.)"""
    for format in ("svg", "png"):
        params = {"id": XGID, "format": format}
        english = client.get("/api/diagram", params=params, headers={"Accept-Language": "en"})
        polish = client.get("/api/diagram", params=params, headers={"Accept-Language": "pl"})
        assert english.content != polish.content
        assert (english.headers["content-language"], polish.headers["content-language"]) == ("en", "pl")
        assert english.headers["etag"] != polish.headers["etag"]
        for r in (english, polish):
            assert {v.strip() for v in r.headers["vary"].split(",")} >= {"Accept-Language", "Cookie"}
        asked = {"Accept-Language": "pl", "If-None-Match": english.headers["etag"]}
        assert client.get("/api/diagram", params=params, headers=asked).status_code == 200
        # the cookie of the pages' language switch chooses too
        client.cookies.set("gammon_lang", "pl")
        chosen = client.get("/api/diagram", params=params, headers={"Accept-Language": "en"})
        client.cookies.clear()
        assert chosen.content == polish.content and chosen.headers["etag"] == polish.headers["etag"]
        # a cache holding both languages' copies asks with both tags: the matching one is not resent
        both = f"{english.headers['etag']}, W/{polish.headers['etag']}"
        again = client.get(
            "/api/diagram", params=params, headers={"Accept-Language": "pl", "If-None-Match": both}
        )
        assert again.status_code == 304 and again.headers["etag"] == polish.headers["etag"]
        assert "Cookie" in again.headers["vary"]
    # the text board is the same in every language: one copy for all
    text = client.get(
        "/api/diagram", params={"id": XGID, "format": "text"}, headers={"Accept-Language": "pl"}
    )
    assert "vary" not in text.headers


def test_the_drawing_names_the_player_on_roll_as_the_id_asked_for(client: TestClient) -> None:
    """The text, the SVG and the PNG carry the GNU Backgammon ID asked for: 'cAkAAAAAAAAA' (player
    1 on roll) was drawn as 'MAEAAAAAAAAA', which gnubg reads with its other player on roll."""
    typed = "4HPwATDgc/ABMA:cAkAAAAAAAAA"
    text = client.get("/api/diagram", params={"id": typed, "format": "text"}).text
    assert text.splitlines()[1].split()[-1] == "cAkAAAAAAAAA"
    for format in ("svg", "png"):
        assert typed.encode() in client.get("/api/diagram", params={"id": typed, "format": format}).content
