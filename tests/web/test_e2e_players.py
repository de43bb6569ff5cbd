"""End to end, what players see: each check runs the real server and the UI in
headless Chromium, as tests/web/test_e2e.py does."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

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


def _start_up_output(s: Server) -> str:
    """What the server printed from its start to its stop."""
    s.start()
    s.stop()
    assert s.proc is not None and s.proc.stdout is not None
    return s.proc.stdout.read().decode()


@pytest.mark.slow
def test_the_engine_is_loaded_before_the_server_answers(tmp_path: Path) -> None:
    out = _start_up_output(Server(f"sqlite:///{tmp_path / 'start.sqlite3'}"))
    loaded, serving = out.find("gammon: engine loaded in"), out.find("gammon: serving on")
    assert 0 <= loaded < serving, out


@pytest.mark.slow
def test_the_start_up_lines_write_a_decimal_as_the_operators_language_does(tmp_path: Path) -> None:
    out = _start_up_output(
        Server(f"sqlite:///{tmp_path / 'start.sqlite3'}", entry=("-m", "gammon", "--lang", "pl", "serve"))
    )
    assert re.search(r"gammon: silnik wczytany w \d+,\d s", out), out


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


def _until(page, rng: random.Random, done: str, steps: int = 300) -> dict:
    """Act for the shared seat of a local game until the JS expression ``done`` (over ``st``, the
    state) holds; returns that state."""
    for _ in range(steps):
        st = _state(page)
        if page.evaluate(f"st => {done}", st):
            return st
        assert _act_once(page, rng), f"the UI offers nothing to do: {st['phase']} {st['actions']}"
    raise AssertionError(f"never reached: {done}")


def _dice(page) -> list[float]:
    """The opacity of each die drawn on the board."""
    return [float(o) for o in page.eval_on_selector_all(
        "#board g.die", "ds => ds.map(d => d.getAttribute('opacity'))")]


def test_doubles_show_four_dice(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local")
    rng = random.Random(5)
    st = _until(page, rng, "st.phase === 'move' && st.dice[0] === st.dice[1] && st.sequences.length > 0")
    assert _dice(page) == [1, 1, 1, 1]
    src, dst = st["sequences"][0]["steps"][0]
    page.click(f'rect.target[data-target="{src}"]')
    page.click(f'rect.target[data-target="{dst}"]')
    assert sorted(_dice(page)) == [0.35, 1, 1, 1]  # one die used
    page.click('button[data-local="undo"]')
    st = _until(page, rng, "st.phase === 'move' && st.dice[0] !== st.dice[1]")
    assert _dice(page) == [1, 1]
    assert not errors


def _cube(page) -> dict | None:
    return page.evaluate("""() => { const g = document.querySelector('#board g.cube');
        if (!g) return null; const r = g.querySelector('rect');
        return { x: Number(r.getAttribute('x')), value: g.dataset.value, where: g.dataset.where,
                 text: g.textContent }; }""")


def test_the_offered_cube_lies_on_the_doublers_side_then_goes_to_the_taker(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local", length="5")
    assert _cube(page) == {"x": 831, "value": "1", "where": "centre", "text": "1"}  # the tray
    st = _until(page, random.Random(6), "st.actions.includes('double')")
    doubler = st["turn"]
    page.click('button[data-action="double"]')
    _wait_change(page, st["version"])
    cube = _cube(page)
    assert cube is not None and cube["where"] == "offered" and cube["text"] == "2"
    offered_x = cube["x"]
    # the doubler's half of the board: the viewer's (seat 0's) is the right one
    assert (450 < cube["x"] < 810) if doubler == 0 else (30 < cube["x"] < 390), cube
    st = _state(page)
    page.click('button[data-action="take"]')
    _wait_change(page, st["version"])
    cube = _cube(page)
    assert cube is not None and cube["x"] == 831 and cube["text"] == "2"
    assert cube["where"] == ("opponent" if doubler == 0 else "viewer")  # the taker owns it
    # a replay shows the double the same way
    _resign_game(page, random.Random(6), 0)
    page.click('button[data-local="replay"]')
    page.wait_for_function("() => ui.replay !== null")
    frames = page.evaluate("() => ui.replay.frames")
    index = next(i for i, f in enumerate(frames) if f["cube_offered"])
    page.click(f"#log li >> nth={index}")
    assert page.text_content("#log li.current").endswith("doubles to 2")
    replayed = _cube(page)
    assert replayed is not None and replayed["where"] == "offered" and replayed["text"] == "2"
    assert replayed["x"] == offered_x
    assert not errors


def test_no_cube_in_a_one_point_match(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local", length="1")
    rng = random.Random(7)
    for _ in range(6):
        st = _state(page)
        assert "double" not in st["actions"] and _cube(page) is None
        assert "cube" not in page.text_content("#match-info")
        _act_once(page, rng)
    assert not errors


def test_no_cube_in_the_crawford_game(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local", length="3")
    assert _cube(page) is not None
    st = _until(page, random.Random(8), "st.actions.includes('resign')")
    page.select_option("#resign-kind", "2")  # a gammon: 2 points of 3, so the next game is Crawford
    page.once("dialog", lambda dialog: dialog.accept())  # resigning asks first
    page.click('button[data-action="resign"]')
    _wait_change(page, st["version"])
    st = _state(page)
    page.click('button[data-action="accept_resignation"]')
    _wait_change(page, st["version"])
    st = _state(page)
    page.click('button[data-action="new_game"]')
    _wait_change(page, st["version"])
    st = _state(page)
    assert st["crawford_game"] and sorted(st["score"]) == [0, 2]
    assert _cube(page) is None and "cube" not in page.text_content("#match-info")
    assert "Crawford" in page.text_content("#match-info")
    assert not errors


def _resign_game(page, rng: random.Random, turns: int) -> None:
    """Play ``turns`` actions of a local game, then the player on turn resigns a single game."""
    for _ in range(turns):
        _act_once(page, rng)
    st = _until(page, rng, "st.actions.includes('resign')")
    page.select_option("#resign-kind", "1")
    page.once("dialog", lambda dialog: dialog.accept())  # resigning asks first
    page.click('button[data-action="resign"]')
    _wait_change(page, st["version"])
    st = _state(page)
    page.click('button[data-action="accept_resignation"]')
    _wait_change(page, st["version"])


def test_every_game_of_a_match_can_be_replayed_and_the_panel_follows_the_board(
        server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local", length="5")
    rng = random.Random(9)
    assert not page.locator('button[data-local="replay"]').is_visible()  # nothing finished yet
    ids = []  # the Position IDs of game 1 before each play, as the live game showed them
    for _ in range(6):
        st = _state(page)
        if st["phase"] == "move":
            ids.append(page.text_content("#position-id"))
        _act_once(page, rng)
    _resign_game(page, rng, 0)
    first_log = _state(page)["log"]
    st = _state(page)
    page.click('button[data-action="new_game"]')
    _wait_change(page, st["version"])
    for _ in range(3):
        _act_once(page, rng)
    # game 2 is under way: game 1 can be replayed
    page.click('button[data-local="replay"]')
    page.wait_for_function("() => ui.replay !== null")
    assert page.input_value("#replay-game") == "1"
    assert page.eval_on_selector_all("#replay-game option", "os => os.map(o => o.value)") == ["1"]
    frames = page.evaluate("() => ui.replay.frames")
    # the log lists game 1's moves and its result, as the match log had them (a frame for each
    # change of the board or the cube)
    shown = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)")
    assert shown[0] == "Start" and shown[-1] == first_log[-1] and shown[1:] == [
        line for line in first_log if not line.startswith("Game 1")
        and not line.endswith("plays first") and "resign" not in line]  # the opening roll: no frame
    # each position a play was made from is a frame, with its ID
    assert ids and set(ids) <= {f["position_id"] for f in frames}
    page.click('button[data-replay="next"]')
    page.click('button[data-replay="next"]')
    frame = frames[2]
    assert page.text_content("#position-id") == frame["position_id"]
    assert page.text_content("#log li.current") == frame["text"]
    bottom = page.text_content("#player-bottom .pips")
    board = frame["board"]
    mine = board[25] * 25 + sum(n * p for p, n in enumerate(board) if 0 < p < 25 and n > 0)
    assert bottom == f"pips {mine} · off {frame['off'][0]}"
    assert page.locator(f"#player-{'bottom' if frame['mover'] == 0 else 'top'}.on-turn").count() == 1
    # the last frame is the result, with the score after it
    page.click('button[data-replay="last"]')
    assert page.text_content("#status") == f"Replay: {first_log[-1]}"
    assert sorted(int(page.text_content(f"#player-{s} .score")) for s in ("top", "bottom")) == [0, 1]
    page.click('button[data-replay="exit"]')
    # after game 2 both games are offered
    _resign_game(page, rng, 2)
    page.click('button[data-local="replay"]')
    page.wait_for_function("() => ui.replay !== null && ui.replay.game === 2")
    assert page.eval_on_selector_all("#replay-game option", "os => os.map(o => o.value)") == ["1", "2"]
    page.select_option("#replay-game", "1")
    page.wait_for_function("() => ui.replay.game === 1")
    assert page.evaluate("() => ui.replay.frames") == frames
    assert not errors


def test_the_replay_buttons_are_drawn_icons_not_font_glyphs(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local")
    for how in ("first", "prev", "next", "last"):
        button = page.locator(f'button[data-replay="{how}"]')
        assert button.locator("svg path").count() == 1 and button.text_content().strip() == "", how
    assert not errors


def test_one_device_names_the_winner_and_a_finished_match_offers_a_new_one(
        server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local", length="3")
    rng = random.Random(10)
    _resign_game(page, rng, 4)
    st = _state(page)
    winner = st["names"][st["result"]["winner"]]
    assert page.text_content("#board g.message") == f"{winner} wins the game"
    assert not page.locator('button[data-local="new-match"]').is_visible()
    page.click('button[data-action="new_game"]')
    _wait_change(page, st["version"])
    while not _state(page)["match_over"]:
        _resign_game(page, rng, 2)
        st = _state(page)
        if not st["match_over"]:
            page.click('button[data-action="new_game"]')
            _wait_change(page, st["version"])
    st = _state(page)
    assert page.text_content("#board g.message") == f"{st['names'][st['match_winner']]} wins the match"
    assert "lost" not in page.inner_text("#game")
    page.click('button[data-local="new-match"]')
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.is_checked('input[name=mode][value="local"]')
    assert page.input_value("select[name=match_length]") == "3"
    page.click("#start")
    page.wait_for_url("**/play/**")
    fresh = _state(page)
    assert fresh["match_id"] != st["match_id"] and fresh["match_length"] == 3 and fresh["score"] == [0, 0]
    assert not errors


_COUNT_TONES = """window.tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.tones += 1; return start.apply(this, args); };"""


def test_online_waits_for_the_friend_then_a_title_and_a_chime_say_whose_turn(
        server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    host = _page(browser, errors)
    host.add_init_script(_COUNT_TONES)
    _start(host, server, "online")
    assert "Waiting for your friend to join" in host.text_content("#status")
    guest = _page(browser, errors)
    guest.add_init_script(_COUNT_TONES)
    guest.goto(host.input_value("#invite-url"))
    _state(guest)
    host.wait_for_function("() => !$('#status').textContent.includes('friend')")
    assert _state(host)["opponent_joined"] is True and _state(guest)["opponent_joined"] is True
    pages = {0: host, 1: guest}
    st = _state(host)
    mover, other = pages[st["turn"]], pages[1 - st["turn"]]
    assert mover.title() == "Your turn · gammon" and other.title() == "gammon"
    assert mover.evaluate("() => tones") == 0  # no chime for the page's first state
    rng = random.Random(11)
    while _act_once(mover, rng):  # until the turn passes
        pass
    other.wait_for_function("() => document.title === 'Your turn · gammon'")
    assert other.evaluate("() => tones") > 0
    mover.wait_for_function("() => document.title === 'gammon'")
    assert mover.evaluate("() => tones") == 0
    assert not errors


def _shown(page) -> set[str]:
    """The lobby's inputs a player can see, by name."""
    return set(page.eval_on_selector_all("#new-match input, #new-match select",
                                         "es => es.filter(e => e.checkVisibility()).map(e => e.name)"))


def test_the_lobby_offers_only_what_applies(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url + "/")
    page.check('input[name=mode][value="computer"]')
    page.select_option("select[name=match_length]", "0")
    assert _shown(page) == {"mode", "level", "match_length", "jacoby", "beavers", "cube_limit", "name"}
    page.select_option("select[name=match_length]", "7")
    assert _shown(page) == {"mode", "level", "match_length", "crawford", "cube_limit", "name"}
    page.select_option("select[name=match_length]", "1")
    assert _shown(page) == {"mode", "level", "match_length", "name"}
    assert page.locator("text=played without the cube").is_visible()
    page.check('input[name=mode][value="local"]')
    assert _shown(page) == {"mode", "match_length", "name", "opponent_name"}
    page.check('input[name=mode][value="online"]')
    page.select_option("select[name=match_length]", "5")
    shown = {"mode", "match_length", "crawford", "cube_limit", "name", "opponent_name", "rated"}
    assert _shown(page) == shown  # rated: shown online, enabled only for a signed-in player
    assert page.locator("#new-match >> text=Your friend").is_visible()
    assert not page.locator("#new-match >> text=Black").is_visible()
    assert not errors


def test_the_rules_and_names_chosen_are_played_and_shown_as_text(server: Server, browser) -> None:  # noqa: F811
    from gammon.formats.mat import mat_names, read_mat

    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url + "/")
    page.check('input[name=mode][value="local"]')
    page.select_option("select[name=match_length]", "0")
    page.uncheck("input[name=jacoby]")
    page.check("input[name=beavers]")
    page.select_option("select[name=cube_limit]", "8")
    white, black = '<b id="x">Ann</b>', 'Bob "the (great)": [x]'
    page.fill("input[name=name]", white)
    page.fill("input[name=opponent_name]", black)
    page.click("#start")
    page.wait_for_url("**/play/**")
    st = _state(page)
    assert st["names"] == [white, black]
    assert st["rules"] == {"crawford": True, "jacoby": False, "beavers": True, "cube_limit": 8}
    assert page.locator("#x").count() == 0  # the name is text, never markup
    assert page.text_content("#player-bottom .name") == white
    assert page.text_content("#player-top .name") == black
    info = page.text_content("#match-info")
    assert "beavers" in info and "cube limit 8" in info and "Jacoby" not in info
    rng = random.Random(12)
    for _ in range(4):
        _act_once(page, rng)
    assert any(line.startswith((white, black)) for line in _state(page)["log"])
    assert page.locator("#x").count() == 0
    # the .mat holds the names as the one fitting for .mat files makes them (':' is the score line's)
    with page.expect_download() as download:
        page.click("#download-mat")
    assert download.value.suggested_filename == f"gammon-{st['match_id']}.mat"
    mat = Path(download.value.path()).read_text()
    record = read_mat(mat)
    assert record.names == ('<b id="x">Ann</b>', 'Bob "the (great)" [x]') == mat_names((white, black))
    assert not record.errors
    assert not errors


_OVERLAPS = """() => {
  const circles = sel => [...document.querySelectorAll(sel)].map(c => ({
    x: +c.getAttribute('cx'), y: +c.getAttribute('cy'), r: +c.getAttribute('r') }));
  const checkers = circles('#board g.checker circle:first-child');
  const out = [];
  for (const d of circles('#board circle.dest-mark'))
    for (const c of checkers)
      if (Math.hypot(d.x - c.x, d.y - c.y) < d.r + c.r - 1) out.push([d, c]);
  // the lit points lie under every checker
  const all = [...document.querySelectorAll('#board *')];
  const lit = [...document.querySelectorAll('#board polygon.dest')].map(e => all.indexOf(e));
  const lastLit = Math.max(-1, ...lit);
  const firstChecker = all.indexOf(document.querySelector('#board g.checker'));
  return { out, under: lastLit < firstChecker };
}"""


def test_on_a_phone_point_numbers_are_readable_and_marks_leave_checkers_clear(
        server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    _start(page, server, "local")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    heights = page.eval_on_selector_all("#board .point-number",
                                        "ts => ts.map(t => t.getBoundingClientRect().height)")
    assert len(heights) == 24 and min(heights) >= 10, heights  # CSS pixels on a 390-pixel-wide screen
    rng = random.Random(13)
    full_or_hit = 0
    for _ in range(12):
        st = _state(page)
        if "play" in st["actions"]:
            for src in sorted({s["steps"][0][0] for s in st["sequences"]}, key=str):
                page.click(f'rect.target[data-target="{src}"]')
                found = page.evaluate(_OVERLAPS)
                assert found["out"] == [] and found["under"], (src, found)
                dests = {s["steps"][0][1] for s in st["sequences"] if s["steps"][0][0] == src}
                sign = 1 if st["turn"] == st["viewer"] else -1
                full_or_hit += sum(1 for d in dests if d != "off" and (
                    st["board"][d] * sign >= 5 or st["board"][d] * sign == -1))
                page.click(f'rect.target[data-target="{src}"]')  # put it down again
        _act_once(page, rng)
    assert full_or_hit > 0  # the checks met a full stack or a blot to hit
    page.screenshot(path=str(Path(__file__).resolve().parents[2] / "test-output" / "web-phone.png"))
    assert not errors


def test_hints_show_the_best_plays_equity_and_what_the_others_give_up(
        server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local")
    st = _until(page, random.Random(14), "st.phase === 'move' && st.plays.length >= 5")
    page.click('button[data-local="hint"]')
    page.wait_for_selector("#hints li")
    data = page.evaluate("() => api('/hint')")
    assert data["source"] == "engine" and len(data["hints"]) == 5
    rows = page.eval_on_selector_all("#hints li",
                                     "ls => ls.map(l => [...l.children].map(c => c.textContent))")
    best = data["hints"][0]["score"]
    assert rows[0] == [data["hints"][0]["play"], f"{best:+.3f}", ""]
    for row, hint in zip(rows[1:], data["hints"][1:], strict=True):
        give_up = hint["score"] - best
        assert give_up <= 0 and row == [hint["play"], f"{hint['score']:+.3f}", f"({give_up:+.3f})"]
    assert "Equity" in page.get_attribute("#hints", "data-source")
    assert all(h["play"] in st["plays"] for h in data["hints"])
    assert not errors
