"""End to end: the real server process and the UI in headless Chromium (Debian's, via Playwright)."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is absent (Debian packages chromium, chromium-driver)")


class Server:
    def __init__(
        self, database: str, *options: str, entry: tuple[str, ...] = ("-m", "gammon.cli.serve")
    ) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.database = database
        self.options = options
        self.entry = entry
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, *self.entry, "--port", str(self.port), "--database-url",
             self.database, "--dice-seed", "2024", *self.options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        # The server loads the engine before it answers: half a minute and more where numba has
        # not compiled it yet (a fresh checkout on a busy machine).
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).read()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(self.proc.stdout.read().decode()) from None
                time.sleep(0.2)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc:
            self.proc.terminate()
            try:  # its graceful shutdown may take 10 s (open sockets), and a busy machine more
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'e2e.sqlite3'}")
    s.start()
    yield s
    s.stop()


def module_server(name: str):  # noqa: ANN201  (a pytest fixture)
    """A fixture: one server for a whole test module, on a SQLite database of its own
    (``shared = module_server("pages")``)."""

    @pytest.fixture(scope="module")
    def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
        s = Server(f"sqlite:///{Path(tmp_path_factory.mktemp(name)) / (name + '.sqlite3')}")
        s.start()
        yield s
        s.stop()

    return shared


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run"])
        yield b
        b.close()


def _page(browser, errors: list[str], motion: bool = False):
    # Reduced motion (no checker-by-checker showing of the other side's play) unless a test asks.
    context = browser.new_context(viewport={"width": 1280, "height": 760},
                                  reduced_motion="no-preference" if motion else "reduce")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    return page


def _state(page) -> dict:
    page.wait_for_function("() => typeof ui !== 'undefined' && ui.state !== null")
    return page.evaluate("() => ui.state")


def _wait_change(page, version: int) -> None:
    page.wait_for_function("v => ui.state && ui.state.version > v", arg=version)


def _play_turn(page, rng: random.Random) -> None:
    """Move the checkers of one legal play by clicking them, as a person would, then press Done."""
    st = _state(page)
    seq = rng.choice(st["sequences"])
    for src, dst in seq["steps"]:
        page.click(f'rect.target[data-target="{src}"]')
        assert page.locator("polygon.dest, rect.dest").count() > 0  # destinations are highlighted
        page.click(f'rect.target[data-target="{dst}"]')
    page.click('button[data-local="done"]')
    _wait_change(page, st["version"])


def _act_once(page, rng: random.Random) -> bool:
    """Do what the UI offers this seat now; False when it is the other side's turn."""
    st = _state(page)
    acts = st["actions"]
    if "play" in acts:
        _play_turn(page, rng)
    elif "roll" in acts:
        page.click('button[data-action="roll"]')
        _wait_change(page, st["version"])
    elif "take" in acts:
        page.click('button[data-action="take"]')
        _wait_change(page, st["version"])
    else:
        return False
    return True


def _start(page, server: Server, mode: str, level: str = "random", length: str = "0") -> None:
    page.goto(server.url + "/")
    page.check(f'input[name=mode][value="{mode}"]')
    if mode == "computer":  # the lobby shows the level only for a game against the computer
        page.select_option("select[name=level]", level)
    page.select_option("select[name=match_length]", length)
    page.click("#start")
    page.wait_for_url("**/play/**")
    _state(page)


def test_a_whole_game_against_the_computer(server: Server, browser) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "computer")
    rng = random.Random(1)
    for _ in range(400):
        st = _state(page)
        if st["result"]:
            break
        assert _act_once(page, rng), f"the UI offers nothing to do: {st['phase']} {st['actions']}"
    st = _state(page)
    assert st["result"] is not None, "the game did not finish"
    assert "won" in page.text_content("#status")
    winner = st["names"][st["result"]["winner"]]
    assert st["log"][-1].startswith(winner + (" win " if winner == "You" else " wins "))
    assert page.locator('button[data-action="new_game"]').is_visible()
    # replay the finished game move by move
    page.click('button[data-local="replay"]')
    page.wait_for_function("() => ui.replay !== null")
    assert page.text_content("#status") == "Replay: Start"
    first = page.inner_html("#board")
    page.click('button[data-replay="next"]')
    assert page.text_content("#status") != "Replay: Start" and page.inner_html("#board") != first
    page.click('button[data-replay="last"]')
    frames = page.evaluate("() => ui.replay.frames")
    assert frames[-1]["board"] == st["board"]
    assert page.text_content("#replay-pos") == f"{len(frames)} / {len(frames)}"
    page.click('button[data-replay="exit"]')
    assert "won" in page.text_content("#status")
    assert not errors


def _until_the_computer_plays(page, rng: random.Random) -> dict:
    """Act for the human until the computer's play is being shown; what the page shows then (the
    play, the status line, whether the buttons are hidden, the board), read as the play is seen:
    the play is shown in a second or two, which a busy machine could let pass before a later read."""
    for _ in range(20):
        seen = page.wait_for_function(
            "() => ui.state && (ui.anim !== null ? {play: ui.anim.play, status: $('#status').textContent,"
            " hidden: $('#buttons').hidden, board: $('#board').innerHTML} :"
            " ui.state.actions.some(a => ['play', 'roll', 'take'].includes(a)))").json_value()
        if isinstance(seen, dict):
            return seen
        _act_once(page, rng)
    raise AssertionError("the computer never played")


def test_the_computers_play_is_shown_checker_by_checker(server: Server, browser) -> None:
    errors: list[str] = []
    page = _page(browser, errors, motion=True)
    _start(page, server, "computer")
    rng = random.Random(2)
    # while the play is being shown: its line is the status, the buttons are hidden
    seen = _until_the_computer_plays(page, rng)
    play = seen["play"]
    assert play["player"] == 1 and play["steps"]
    assert seen["status"] == play["text"] and seen["hidden"]
    frames = [seen["board"]]
    page.locator("#game").screenshot(path=str(OUTPUT / "web-computer-moving.png"))
    for shown in range(1, len(play["steps"]) + 1):  # each step redraws the board
        page.wait_for_function("k => !ui.anim || ui.anim.shown >= k", arg=shown)
        frames.append(page.inner_html("#board"))
    page.wait_for_function("() => ui.anim === null")
    assert page.text_content("#status") != play["text"]
    assert len(set(frames)) > 1 and page.inner_html("#board") != frames[0]
    # The next play: a click on the board skips to its end.
    _until_the_computer_plays(page, rng)
    page.click('rect.target[data-target="13"]')
    assert page.evaluate("() => ui.anim") is None
    assert not errors


def test_two_browsers_play_an_online_game(server: Server, browser) -> None:
    errors: list[str] = []
    host = _page(browser, errors)
    _start(host, server, "online", length="1")
    invite = host.input_value("#invite-url")
    assert invite.startswith(server.url + "/play/")
    guest = _page(browser, errors)  # a separate context: no shared storage, like another person
    guest.goto(invite)
    assert _state(guest)["seat"] == 1 and _state(host)["seat"] == 0
    assert guest.locator("#mat-link").is_hidden()  # offered once the match is over
    rng = random.Random(2)
    for _ in range(800):
        st = _state(host)
        if st["result"]:
            break
        if not (_act_once(host, rng) or _act_once(guest, rng)):
            time.sleep(0.05)  # the move is on its way over the WebSocket
    for page in (host, guest):
        page.wait_for_function("() => ui.state.match_over")
    st = _state(host)
    assert st["match_over"] and _state(guest)["match_winner"] == st["match_winner"]
    assert "won the match" in guest.text_content("#status")
    with guest.expect_download() as download:
        guest.click("#download-mat")
    assert " 1 point match" in Path(download.value.path()).read_text()
    assert not errors


def test_no_secret_in_any_url_and_nothing_blocked_by_the_pages_policy(server: Server, browser) -> None:
    """The seat token went in the WebSocket's URL and the .mat link's, which servers and proxies log;
    the pages must still work under their Content-Security-Policy."""
    errors: list[str] = []
    page = _page(browser, errors)
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    _start(page, server, "online")
    token = page.evaluate("() => ui.token")
    _act_once(page, random.Random(3))  # over the WebSocket
    assert page.locator("#mat-link").is_hidden()  # an online match's .mat waits for its end
    page.wait_for_selector("#watch:not([hidden])")
    watch = page.input_value("#watch-url")
    key = watch.split("#key=")[1]
    page.goto(watch)
    page.wait_for_function("() => watch.state !== null")
    assert page.text_content("#status")
    for other in ("/analysis", "/editor"):
        page.goto(server.url + other)
        page.wait_for_load_state("networkidle")
    _start(page, server, "computer")
    computer_token = page.evaluate("() => ui.token")
    with page.expect_download() as download:
        page.click("#download-mat")
    assert '; [Site "gammon"]' in Path(download.value.path()).read_text()
    assert not [u for u in urls if token in u or key in u or computer_token in u]
    assert any("/ws/matches/" in u for u in urls) and any("/ws/watch/" in u for u in urls)
    assert any(u.endswith("/match.mat") for u in urls)
    assert not errors


def test_reload_and_restart_resume_the_game(server: Server, browser) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "computer", level="pubeval", length="5")
    rng = random.Random(3)
    for _ in range(12):
        _act_once(page, rng)
    st = _state(page)
    if "play" not in st["actions"]:
        _act_once(page, rng)
        st = _state(page)
    # a hint moves the checkers of the best play; Undo takes them back
    page.click('button[data-local="hint"]')
    page.click("#hints li >> nth=0")
    assert page.locator('button[data-local="done"]').is_visible()
    while page.locator('button[data-local="undo"]').is_visible():
        page.click('button[data-local="undo"]')
    assert _state(page) == st and page.evaluate("() => ui.partial.length") == 0
    # pick a checker so the screenshot shows highlighted destinations
    seq = st["sequences"][0]
    page.click(f'rect.target[data-target="{seq["steps"][0][0]}"]')
    OUTPUT.mkdir(exist_ok=True)
    page.locator("#game").screenshot(path=str(OUTPUT / "web-board-midgame.png"))
    page.reload()
    again = _state(page)
    assert again == st
    assert page.text_content("#position-id") == st["position_id"]
    # a restart of the server process loses nothing either
    server.stop()
    server.start()
    page.reload()
    assert _state(page) == st
    _act_once(page, rng)
    assert _state(page)["version"] > st["version"]
    assert not errors


def test_two_players_on_one_device_move_both_sides(server: Server, browser) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "local", length="3")
    rng = random.Random(4)
    movers = set()
    for _ in range(12):
        st = _state(page)
        if "play" in st["actions"]:
            movers.add(st["turn"])
        assert _act_once(page, rng), f"the shared seat may always act: {st['phase']} {st['actions']}"
    assert movers == {0, 1}  # both sides' checkers were moved with clicks on the same board
    assert _state(page)["viewer"] == 0
    assert not errors


def test_a_player_claims_a_game_the_opponent_left(tmp_path: Path, browser) -> None:
    server = Server(f"sqlite:///{tmp_path / 'claim.sqlite3'}", "--away-after", "1.5")
    server.start()
    try:
        errors: list[str] = []
        host = _page(browser, errors)
        _start(host, server, "online")
        guest = _page(browser, errors)
        guest.goto(host.input_value("#invite-url"))
        st = _state(guest)
        pages = {0: host, 1: guest}
        absent, waiting = pages[st["turn"]], pages[1 - st["turn"]]
        absent.context.close()  # the player to act closes the browser
        waiting.wait_for_function("() => ui.state.opponent_away > 0")
        assert "has left" in waiting.text_content("#status")
        claim = waiting.locator('button[data-action="claim"]')
        claim.wait_for(state="visible", timeout=10_000)  # the page asks again once the wait is over
        waiting.once("dialog", lambda dialog: dialog.accept())
        claim.click()
        waiting.wait_for_function("() => ui.state.result !== null")
        final = _state(waiting)
        assert final["result"]["winner"] == final["seat"] and final["result"]["reason"] == "abandon"
        assert "won" in waiting.text_content("#status")
        assert not errors
    finally:
        server.stop()
