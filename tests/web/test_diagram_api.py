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
