"""End to end: the game page's cube hint with a dead cube (the owner of a cube at 2 in a 2-point
match may redouble by the rules, to no gain) shows the engine's word and the no-double equity only,
not the equities of a double it cannot make."""

from __future__ import annotations

import json
import random
import urllib.request

from tests.web.test_e2e import (
    Server,
    _act_once,
    _page,
    _state,
    _wait_change,
    browser,  # noqa: F401  (a fixture)
    module_server,
)
from tests.web.test_e2e_players import _until

shared = module_server("cube-hint")


def test_a_dead_cube_hint_shows_no_double_equities(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    body = json.dumps({"mode": "local", "match_length": 2}).encode()
    ask = urllib.request.Request(shared.url + "/api/matches", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(ask) as r:
        page.goto(json.load(r)["url"])
    rng = random.Random(16)
    st = _until(page, rng, "st.actions.includes('double')")
    page.click('button[data-action="double"]')
    _wait_change(page, st["version"])
    assert _act_once(page, rng) and _state(page)["cube_value"] == 2  # taken
    st = _until(page, rng, "st.actions.includes('double')")  # the owner, 2 away: the cube is dead
    assert st["cube_value"] == 2 and st["cube_owner"] == st["turn"]
    page.click('button[data-local="hint"]')
    page.wait_for_selector("#cube-hint:not([hidden])")
    lines = page.inner_text("#cube-hint").split("\n")
    lines = [line for line in lines if line.strip()]
    assert lines[0] == "Engine: no double (the cube is dead or not available)"
    assert lines[1].startswith("match winning chances, 0-ply: no double ") and lines[1].endswith("%")
    assert len(lines) == 2 and "double/take" not in page.inner_text("#cube-hint")
    assert not errors
