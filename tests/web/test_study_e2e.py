"""End to end, the study pages in headless Chromium against the real server: the analysis of an
uploaded .mat, .sgf or .xg and of a game played on the server."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path

from tests.web.test_e2e import (  # noqa: F401  (fixtures)
    OUTPUT,
    Server,
    _act_once,
    _page,
    _start,
    _state,
    browser,
    module_server,
)

MAT = Path(__file__).resolve().parents[1] / "data/mat/real/galaxy/bglab-lasse-match1112717.mat"

# One server for the module: its tests each work on a match, file or position of their own, and
# starting a server (its engine worker warming up) cost more than most of them.
server = module_server("study")


def _post(url: str, body: dict, headers: dict | None = None) -> dict:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
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
    page.set_default_timeout(240_000)
    page.goto(server.url + "/analysis")
    page.set_input_files("#mat-file", str(MAT))
    # 2 ply: about a second of work on an idle machine (1 ply, 0.2 s, can end between two polls)
    page.select_option("#plies", "2")
    page.click("#analyse")
    page.wait_for_selector("#report:not([hidden])")
    # the progress bar moved while the server worked, then the report came
    seen = page.evaluate("() => study.seen")
    assert any(s["status"] == "running" and 0 < s["done"] < s["total"] for s in seen), seen
    assert any(s["text"].startswith("analysing: ") and s["text"].endswith(" left") for s in seen), seen
    assert seen[-1]["status"] == "done" and seen[-1]["done"] == seen[-1]["total"] > 0
    assert page.locator("#progress").is_visible()
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
    assert page.locator("#decision-title").inner_text().startswith(f"Game {d['game']}, move {d['move']}")
    rows = page.locator("#alternatives tr[data-play]")
    assert rows.count() == len(d["alternatives"])
    assert page.locator("#alternatives tr.played.shown").get_attribute("data-play") == d["played"]
    shown_played = page.evaluate(
        "() => Array.from(document.querySelectorAll('#board g.checker circle'))"
        ".map(c => c.getAttribute('cx') + ',' + c.getAttribute('cy')).join(' ')"
    )
    page.click(f'#alternatives tr[data-play="{d["best"]}"]')
    assert page.locator("#alternatives tr.shown").get_attribute("data-play") == d["best"]
    shown_best = page.evaluate(
        "() => Array.from(document.querySelectorAll('#board g.checker circle'))"
        ".map(c => c.getAttribute('cx') + ',' + c.getAttribute('cy')).join(' ')"
    )
    assert shown_best != shown_played  # a different play leaves a different board
    assert _board_checkers(page) > 0
    page.screenshot(path=str(OUTPUT / "study-analysis.png"))
    assert not errors


def test_an_uploaded_sgf_is_analysed(server: Server, browser, tmp_path) -> None:  # noqa: F811
    """GNU Backgammon's own files: the page sends an .sgf as SGF (and a .mat, .txt as .mat)."""
    from gammon.formats import read_mat, to_match, write_sgf

    record = read_mat(MAT.read_text())
    sgf = tmp_path / "match.sgf"
    write_sgf(to_match(record), names=record.names, file=sgf)
    _upload_shows_the_players(server, browser, sgf, record.names)


def test_an_uploaded_xg_is_analysed(server: Server, browser) -> None:  # noqa: F811
    """eXtreme Gammon's binary file: the page sends it in base64."""
    xg = Path(__file__).resolve().parents[1] / "data/xg/real/gbf-charlot1-charlot2-7pt.xg"
    _upload_shows_the_players(server, browser, xg, ("charlot1", "charlot2"))


def test_an_upload_that_cannot_be_read_says_why(server: Server, browser, tmp_path) -> None:  # noqa: F811
    """The worker reads the file: its job fails, and the page shows why."""
    errors: list[str] = []
    page = _page(browser, errors)
    bad = tmp_path / "bad.mat"
    bad.write_text("hello world\n")
    page.goto(server.url + "/analysis")
    page.set_input_files("#mat-file", str(bad))
    page.click("#analyse")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes(\"'hello world'\")")
    assert page.locator("#error").inner_text().startswith("cannot read the .mat file: line 1:")
    assert page.locator("#report").is_hidden()
    assert not errors


def _upload_shows_the_players(server: Server, browser, path: Path, names: tuple[str, str]) -> None:  # noqa: F811
    """Upload ``path`` on the analysis page (0 ply): its report names the two players."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(240_000)
    page.goto(server.url + "/analysis")
    page.set_input_files("#mat-file", str(path))
    page.click("#analyse")
    page.wait_for_selector("#report:not([hidden])")
    assert page.evaluate("() => study.result.names") == list(names)
    stats = page.locator("#stats").inner_text()
    assert names[0] in stats and names[1] in stats
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


def _wait_position(page) -> dict:
    page.wait_for_function("() => ed.position !== null")
    return page.evaluate("() => ed.position")


def test_a_position_set_up_by_clicking_gets_a_hint_an_evaluation_and_a_link(server: Server, browser) -> None:  # noqa: F811
    from gammon import Position
    from gammon.formats.ids import read_id

    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(60_000)
    page.goto(server.url + "/editor")
    assert _wait_position(page)["position_id"] == "4HPwATDgc/ABMA"
    page.click("#clear")
    clicks = {"you": [1, 1, 2, 6, "bar"], "opponent": [24, 24, 23, 19]}
    for who, targets in clicks.items():
        page.check(f"input[name=place][value={who}]")
        for target in targets:
            page.click(f'rect.target[data-target="{target}"]')
    page.select_option("#die1", "2")
    page.select_option("#die2", "1")
    page.wait_for_function("() => ed.position && ed.position.dice && ed.position.board[19] === -1")
    p = page.evaluate("() => ed.position")
    expected = [0] * 26
    expected[1], expected[2], expected[6], expected[25] = 2, 1, 1, 1
    expected[24], expected[23], expected[19] = -2, -1, -1
    assert p["board"] == expected and p["off"] == [10, 11] and p["dice"] == [2, 1]
    assert Position.from_id(p["position_id"]).board == tuple(expected)
    assert page.locator("#xgid").inner_text() == p["xgid"]
    # the hint: the engine's plays are the legal plays of the roll, best first
    page.click("#hint")
    page.wait_for_selector("#hints li[data-play]")
    shown = [li.get_attribute("data-play") for li in page.locator("#hints li").all()]
    legal = {str(play) for play in Position(expected).legal_plays((2, 1))}
    assert shown and set(shown) <= legal
    page.click("#hints li >> nth=0")
    assert page.locator("#board text", has_text=f"after {shown[0]}").count() == 1
    page.click("#eval")
    page.wait_for_function("() => document.querySelector('#result').textContent.includes('cube action')")
    assert "cubeless equity" in page.locator("#result").inner_text()
    # the link opens the same position, dice, cube and score in another page
    page.select_option("#cube-value", "2")
    page.select_option("#cube-owner", "opponent")
    page.select_option("#match-length", "5")  # a change event: the score can be set in a match
    page.fill("#score-you", "1")
    page.press("#score-you", "Tab")
    page.wait_for_function(
        "() => ed.position && ed.position.match_length === 5 && ed.position.score[0] === 1"
    )
    p = page.evaluate("() => ed.position")
    link = page.locator("#position-link").get_attribute("href")
    assert link == page.evaluate("() => location.pathname + location.hash")
    other = _page(browser, errors)
    other.goto(server.url + link)
    q = _wait_position(other)
    assert q == p
    given = read_id(q["gnubg_id"])
    assert (given.match_length, given.score, given.cube_value, given.dice) == (5, (1, 0), 2, (2, 1))
    assert given.position.board == tuple(expected)
    page.screenshot(path=str(OUTPUT / "study-editor.png"))
    assert not errors


def test_a_pasted_xgid_is_rolled_out_with_a_progress_bar(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(120_000)
    page.goto(server.url + "/editor")
    _wait_position(page)
    page.fill("#id-input", "nonsense!")
    page.click("#load-id")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes(\"'nonsense!'\")")
    # the top player on roll with 52, cube 2 owned by the bottom player, 7-point match at 2-4
    page.fill("#id-input", "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:4:0:7:10")
    page.click("#load-id")
    page.wait_for_function("() => ed.position && ed.position.match_length === 7")
    p = page.evaluate("() => ed.position")
    assert (p["score"], p["cube_value"], p["cube_owner"], p["dice"]) == ([4, 2], 2, "opponent", [5, 2])
    assert page.locator("#score-you").input_value() == "4"
    assert page.locator("#cube-owner").input_value() == "opponent"
    page.fill("#trials", "144")
    page.click("#rollout")
    page.wait_for_function(
        "() => ed.job && ed.job.status === 'running' && ed.job.done > 0 && ed.job.done < ed.job.total"
    )
    assert "of 144 trials: equity" in page.locator("#progress-text").inner_text()
    page.wait_for_function("() => ed.job.status === 'done'")
    text = page.locator("#result").inner_text()
    assert text.startswith("Rollout (144 trials, seed ") and "cubeless equity" in text
    assert not errors


def test_a_spectator_follows_an_online_game_live_and_cannot_act(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    host = _page(browser, errors)
    _start(host, server, "online", length="3")
    guest = _page(browser, errors)
    guest.goto(host.input_value("#invite-url"))
    _state(guest)
    host.wait_for_selector("#watch:not([hidden])")
    link = host.input_value("#watch-url")
    assert link.startswith(server.url + "/watch/") and "#key=" in link
    spectator = _page(browser, errors)
    spectator.goto(link)
    spectator.wait_for_function("() => watch.state !== null")
    assert spectator.locator("button").count() == 0  # nothing to press
    rng = random.Random(5)
    turns = 0
    deadline = time.monotonic() + 120
    while turns < 6 and time.monotonic() < deadline:
        if _act_once(host, rng) or _act_once(guest, rng):
            turns += 1
            version = _state(host)["version"]
            # the spectator's page follows without a reload: the same board as White's, the same log
            spectator.wait_for_function("v => watch.state.version >= v", arg=version)
            seen, white = spectator.evaluate("() => watch.state"), _state(host)
            if seen["version"] == white["version"]:
                assert seen["board"] == white["board"] and seen["log"] == white["log"]
                assert spectator.locator("#log li").last.inner_text() == white["log"][-1]
            assert seen["actions"] == [] and seen["plays"] == [] and seen["seat"] is None
        else:
            time.sleep(0.05)
    assert turns == 6
    # the spectator's socket refuses to act; the game does not change
    version = _state(host)["version"]
    spectator.evaluate("() => watch.ws.send(JSON.stringify({action: 'roll', version: watch.state.version}))")
    spectator.wait_for_function("() => document.querySelector('#error').textContent.includes('read-only')")
    assert _state(host)["version"] == version
    assert spectator.locator("#status").inner_text()
    spectator.screenshot(path=str(OUTPUT / "study-spectator.png"))
    assert not errors


def test_an_id_past_the_forms_lists_keeps_its_cube_and_length(server: Server, browser) -> None:  # noqa: F811
    """The cube list went to 64 and the lengths to 99, but an ID reads with a cube of 128 or a
    150-point match: the list showed nothing, and the next change of the form sent cube 0 (refused,
    the position gone) or a money game (the match silently dropped)."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(60_000)
    page.goto(server.url + "/editor#id=" + "XGID=-b----E-C---eE---c-e----B-:7:1:1:52:3:1:0:150:10")
    p = _wait_position(page)
    assert (p["cube_value"], p["match_length"]) == (128, 150)
    assert page.locator("#cube-value").input_value() == "128"
    assert page.locator("#match-length").input_value() == "150"
    page.select_option("#die1", "6")
    page.wait_for_function("() => ed.position && ed.position.dice && ed.position.dice[0] === 6")
    p = page.evaluate("() => ed.position")
    assert (p["cube_value"], p["cube_owner"], p["match_length"], p["score"]) == (128, "you", 150, [3, 1])
    assert page.locator("#error").inner_text() == ""
    assert not errors


def test_a_double_on_offer_in_an_id_stays_through_a_change_and_can_be_set(server: Server, browser) -> None:  # noqa: F811
    """The form had nothing for a double on offer: an ID with one read, and the next change of
    the form (the score here) set up the position without it, the offer silently gone."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(60_000)
    page.goto(server.url + "/editor#id=" + "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:5:10")
    assert _wait_position(page)["double_offered"]
    page.fill("#score-you", "1")
    page.press("#score-you", "Tab")
    page.wait_for_function("() => ed.position && ed.position.score[0] === 1")
    assert page.evaluate("() => ed.position.double_offered")
    assert page.locator("#double-offered").is_checked()
    page.uncheck("#double-offered")
    page.wait_for_function("() => ed.position && !ed.position.double_offered")
    page.check("#double-offered")
    page.wait_for_function("() => ed.position && ed.position.double_offered")
    assert page.evaluate("() => ed.position.score") == [1, 0]
    assert not errors
