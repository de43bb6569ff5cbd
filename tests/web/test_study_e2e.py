"""End to end, the study pages in headless Chromium against the real server: the analysis of an
uploaded .mat and of a game played on the server."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from tests.web.test_e2e import OUTPUT, Server, _page, browser, server  # noqa: F401  (fixtures)

MAT = Path(__file__).resolve().parents[1] / "data/mat/real/galaxy/bglab-lasse-match1112717.mat"


def _post(url: str, body: dict, headers: dict | None = None) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def _get(url: str, headers: dict | None = None) -> dict:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
        return json.loads(r.read())


def _board_checkers(page) -> int:
    return page.locator("#board g.checker").count()


def test_an_uploaded_mat_is_analysed_with_a_progress_bar(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(120_000)
    page.goto(server.url + "/analysis")
    page.set_input_files("#mat-file", str(MAT))
    page.click("#analyse")
    # the progress bar moves while the server works, then the report replaces it
    page.wait_for_function("() => study.job && study.job.status === 'running' && study.job.done > 0")
    assert page.locator("#progress").is_visible()
    page.wait_for_selector("#report:not([hidden])")
    result = page.evaluate("() => study.result")
    assert page.locator("#progress-text").inner_text() == "done"
    stats = page.locator("#stats").inner_text()
    assert "lasse" in stats and "earl" in stats and "Performance rating (PR)" in stats
    assert page.locator("#chart svg polyline").count() == 2  # one line per player
    marked = [d for d in result["decisions"] if d["mark"]]
    assert marked and page.locator("#marked li").count() == len(marked)
    # a marked checker play: the board after the play made, then after the best play
    index = next(i for i, d in enumerate(result["decisions"]) if d["mark"] and d["kind"] == "move")
    d = result["decisions"][index]
    page.click(f'#marked li[data-index="{index}"]')
    assert page.locator("#decision-title").inner_text().startswith(f"Game {d['game']}, turn {d['turn']}")
    rows = page.locator("#alternatives tr[data-play]")
    assert rows.count() == len(d["alternatives"])
    assert page.locator("#alternatives tr.played.shown").get_attribute("data-play") == d["played"]
    shown_played = page.evaluate("() => Array.from(document.querySelectorAll('#board g.checker circle'))"
                                 ".map(c => c.getAttribute('cx') + ',' + c.getAttribute('cy')).join(' ')")
    page.click(f'#alternatives tr[data-play="{d["best"]}"]')
    assert page.locator("#alternatives tr.shown").get_attribute("data-play") == d["best"]
    shown_best = page.evaluate("() => Array.from(document.querySelectorAll('#board g.checker circle'))"
                               ".map(c => c.getAttribute('cx') + ',' + c.getAttribute('cy')).join(' ')")
    assert shown_best != shown_played  # a different play leaves a different board
    assert _board_checkers(page) > 0
    page.screenshot(path=str(OUTPUT / "study-analysis.png"))
    assert not errors


def test_a_game_played_on_the_server_is_analysed_from_its_link(server: Server, browser) -> None:  # noqa: F811
    m = _post(server.url + "/api/matches", {"mode": "local", "match_length": 1})
    headers = {"X-Gammon-Token": m["token"]}
    plays = 0
    while plays < 4:
        s = _get(f"{server.url}/api/matches/{m['match_id']}", headers)
        body = {"action": "roll"} if s["phase"] == "roll" else {"action": "play", "play": s["plays"][0]}
        _post(f"{server.url}/api/matches/{m['match_id']}/actions", body, headers)
        plays += body["action"] == "play"
    _post(f"{server.url}/api/matches/{m['match_id']}/actions", {"action": "abandon"}, headers)
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(120_000)
    # the game page links to the analysis of its match
    page.goto(m["url"])
    link = page.locator("#analyse-match").get_attribute("href")
    assert link == f"/analysis/{m['match_id']}#token={m['token']}"
    page.goto(server.url + link)
    page.wait_for_selector("#report:not([hidden])")
    assert page.locator("#title").inner_text().startswith("White vs Black: 1-point match")
    result = page.evaluate("() => study.result")
    assert sum(1 for d in result["decisions"] if d["kind"] == "move") == 4
    assert not errors
