"""End to end, what players see (issue 13, web II): each check runs the real server and the UI in
headless Chromium, as tests/web/test_e2e.py does."""

from __future__ import annotations

import random
from pathlib import Path

from tests.web.test_e2e import (  # noqa: F401  (browser and server are fixtures)
    Server,
    _act_once,
    _page,
    _start,
    _state,
    _wait_change,
    browser,
    server,
)


def test_the_engine_is_loaded_before_the_server_answers(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'start.sqlite3'}")
    s.start()
    s.stop()
    assert s.proc is not None and s.proc.stdout is not None
    out = s.proc.stdout.read().decode()
    loaded, serving = out.find("gammon: engine loaded in"), out.find("gammon: serving on")
    assert 0 <= loaded < serving, out


def test_a_page_that_loses_its_connection_says_so_at_once(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local")
    banner = page.locator("#offline")
    assert not banner.is_visible()
    server.stop()
    banner.wait_for(state="visible", timeout=2_000)
    assert "lost" in banner.text_content()
    server.start()
    banner.wait_for(state="hidden", timeout=20_000)  # it reconnects by itself
    before = _state(page)["version"]
    assert _act_once(page, random.Random(1))
    _wait_change(page, before)
    assert not errors
