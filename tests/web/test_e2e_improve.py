"""End to end in headless Chromium: the player's improvement. The profile shows a finished match's
PR once the server's queue has analysed it, and an uploaded file once however often it is
uploaded; a due drill is answered and rescheduled; the tutor's warning is taken back on the game
page and the record keeps the final choice."""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gammon.engine.players import engine_available
from gammon.engine.pubeval import pubeval_ranked_plays
from gammon.position import Position
from tests.web.test_e2e import CHROMIUM, Server, _act_once, _page, _start, _state, _wait_change, browser  # noqa: F401

pytestmark = [
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent"),
    pytest.mark.skipif(
        not engine_available(), reason="the analysis and the tutor need the engine's trained net"
    ),
]
PASSWORD = "a long enough password"
REAL = (
    Path(__file__).resolve().parents[1] / "data" / "mat" / "real" / "galaxy" / "bglab-lasse-match1112717.mat"
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # profiles analysed at 0 ply (a small match takes seconds); tutor checks past the hints' limit
    s = Server(f"sqlite:///{tmp_path / 'e2e.sqlite3'}", "--profile-plies", "0", "--rate-limit", "1000")
    s.start()
    yield s
    s.stop()


def _sign_up(page, server: Server, name: str) -> None:
    page.goto(server.url + "/account")
    page.wait_for_selector("#sign-in:not([hidden])")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#do-sign-up")
    page.wait_for_selector("#me:not([hidden])")


def _upload(page) -> None:
    """Upload the real match file and wait until its analysis is done and the page shows it."""
    page.set_input_files("#upload-file", str(REAL))
    with page.expect_response("**/api/account/uploads") as sent:
        page.click("#upload button[type=submit]")
    assert sent.value.status == 202
    deadline = time.monotonic() + 120
    while page.evaluate("async () => (await fetch('/api/account/profile').then(r => r.json())).pending"):
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.5)
    # the page asks again while analyses wait
    page.wait_for_function("() => document.querySelector('#pending').textContent === ''")
    page.wait_for_function("() => /over 1 match$/.test(document.querySelector('#pr').textContent)")


def test_an_uploaded_match_is_counted_once_and_its_decisions_drilled(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _sign_up(page, server, "lasse")  # the file's player 1
    _upload(page)
    assert re.fullmatch(r"PR \d+\.\d\d over 1 match", page.text_content("#pr"))
    _upload(page)  # the same match again: a duplicate, not a second match
    assert re.fullmatch(r"PR \d+\.\d\d over 1 match", page.text_content("#pr"))
    assert page.locator("#matches tr").count() == 2  # the head and the one match
    assert (
        page.locator("#pr-chart circle.pr").count() == 1
        and page.locator("#pr-chart path.average").count() == 1
    )
    assert "earl" in page.text_content("#opponents")
    assert page.locator("#worst li").count() > 0
    assert page.locator("#worst li svg.mini-board g.checker").count() > 0  # the boards are drawn
    page.click("#drill-link")
    page.wait_for_selector("#drill-card:not([hidden])")
    due = int(page.text_content("#drill-progress").split()[0])
    assert due > 0 and page.locator("#board g.checker").count() > 0
    card = page.evaluate("() => drill.card")
    if card["asks_for"] == "play":
        page.select_option("#drill-plays", card["plays"][0])
        page.click("#drill-answer")
    else:
        page.click("#drill-cube button >> nth=0")
    page.wait_for_selector("#drill-review:not([hidden])")
    assert page.locator("#drill-ranking tr").count() > 1 and "EMG" in page.text_content("#drill-played")
    assert page.text_content("#drill-progress").startswith(f"{due - 1} due of ")
    page.click("#drill-next")
    page.wait_for_function(
        "n => document.querySelector('#drill-progress').textContent.startsWith(n + ' due')", arg=due - 1
    )
    for left in range(due - 1, 0, -1):  # on to a play card: "Answer" with none chosen
        page.wait_for_selector("#drill-card:not([hidden])")
        if page.evaluate("() => drill.card.asks_for") == "play":
            page.click("#drill-answer")  # it did nothing, not a word
            said = "() => document.querySelector('#error').textContent === 'Choose a play first.'"
            page.wait_for_function(said)
            assert page.is_hidden("#drill-review")
            break
        page.click("#drill-cube button >> nth=0")
        page.wait_for_selector("#drill-review:not([hidden])")
        page.click("#drill-next")
        page.wait_for_function(
            "n => document.querySelector('#drill-progress').textContent.startsWith(n + ' due')", arg=left - 1
        )
    else:
        raise AssertionError("no play among the due cards")
    assert not errors, errors


def test_a_finished_match_shows_in_the_profile_once_analysed(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _sign_up(page, server, "Alice")
    _start(page, server, "computer", length="1")  # signed in: seat 0 is the account's
    rng = random.Random(3)
    for _ in range(400):
        if _state(page)["match_over"]:
            break
        assert _act_once(page, rng), "the UI offers nothing to do"
    assert _state(page)["match_over"]
    page.goto(server.url + "/account")
    page.wait_for_function(
        "() => /over 1 match$/.test(document.querySelector('#pr').textContent)", timeout=120_000
    )
    assert "random" in page.text_content("#matches") and page.locator("#pr-chart circle.pr").count() == 1
    assert not errors, errors


def _blunder(page, st: dict) -> str:
    """A play the tutor flags as doubtful or worse: asked of the server, the plays pubeval likes
    least first."""
    ranked = [str(p) for p, _ in pubeval_ranked_plays(Position.from_id(st["position_id"]), tuple(st["dice"]))]
    for play in reversed(ranked):
        warning = page.evaluate(
            """async ([play, version]) => (await fetch(`/api/matches/${ui.matchId}/tutor`, {
                 method: 'POST', headers: {'X-Gammon-Token': ui.token, 'Content-Type': 'application/json'},
                 body: JSON.stringify({action: 'play', play, level: 'doubtful', version})})
               .then(r => r.json())).warning""",
            [play, st["version"]],
        )
        if warning is not None:
            return play
    raise AssertionError("no play of these dice is a blunder")


def _move(page, st: dict, play: str) -> None:
    seq = next(s for s in st["sequences"] if st["plays"][s["play"]] == play)
    for src, dst in seq["steps"]:
        page.click(f'rect.target[data-target="{src}"]')
        page.click(f'rect.target[data-target="{dst}"]')
    page.click('button[data-local="done"]')


def test_a_tutor_warning_is_taken_back_and_the_record_keeps_the_final_choice(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "computer")
    page.select_option("#tutor-level", "doubtful")
    assert page.evaluate("() => localStorage.getItem('gammon-tutor')") == "doubtful"
    rng = random.Random(5)
    for _ in range(10):  # to the player's first play (the tutor lets the roll go: no cube decision yet)
        st = _state(page)
        if "play" in st["actions"]:
            break
        _act_once(page, rng)
    st = _state(page)
    blunder = _blunder(page, st)
    _move(page, st, blunder)
    page.wait_for_selector("#tutor-warning:not([hidden])")
    text = page.text_content("#tutor-text")
    assert text.startswith(f"Tutor: {blunder} is a") and "EMG" in text
    better = re.search(r"Better: (.+)\.$", text).group(1)
    page.click("#tutor-back")
    assert page.locator("#tutor-warning").is_hidden()
    assert page.evaluate("() => [ui.state.version, ui.partial.length]") == [st["version"], 0]  # nothing sent
    _move(page, st, better)  # the better play passes the tutor and is sent
    _wait_change(page, st["version"])
    new = _state(page)["log"][len(st["log"]) :]
    assert any(better in line for line in new) and not any(blunder in line for line in new)
    page.reload()  # the level is remembered in this browser
    page.wait_for_function("() => typeof ui !== 'undefined' && ui.state !== null")
    assert page.input_value("#tutor-level") == "doubtful"
    assert not errors, errors


def test_a_tutor_warning_of_a_turn_played_on_another_device_goes_and_blocks_nothing(
    server: Server, browser  # noqa: F811
) -> None:
    """The player's other device plays the turn while the warning is on show here: the warning,
    of a choice no longer there, stayed, and every later choice on this page was held back in
    silence (a roll clicked did nothing) until it was answered."""
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "computer")
    page.select_option("#tutor-level", "doubtful")
    rng = random.Random(5)
    for _ in range(10):
        st = _state(page)
        if "play" in st["actions"]:
            break
        _act_once(page, rng)
    st = _state(page)
    blunder = _blunder(page, st)
    _move(page, st, blunder)
    page.wait_for_selector("#tutor-warning:not([hidden])")
    other = next(p for p in st["plays"] if p != blunder)
    status = page.evaluate(
        """async ([play, version]) => (await fetch(`/api/matches/${ui.matchId}/actions`, {
             method: 'POST', headers: {'X-Gammon-Token': ui.token, 'Content-Type': 'application/json'},
             body: JSON.stringify({action: 'play', play, version})})).status""",
        [other, st["version"]],
    )
    assert status == 200
    page.wait_for_function(f"() => ui.state.version > {st['version']} && ui.state.actions.includes('roll')")
    assert page.locator("#tutor-warning").is_hidden()
    rolled = _state(page)
    assert "double" in rolled["actions"]  # so the tutor judges the roll (a cube decision)
    page.click('button[data-action="roll"]')
    # The roll is sent, or judged afresh: the random opponent's plays can leave a position the
    # tutor would double in, and then its new warning (not the stale one) asks first.
    page.wait_for_function(
        "v => ui.state.version > v || !document.querySelector('#tutor-warning').hidden", arg=rolled["version"]
    )
    if page.locator("#tutor-warning").is_visible():
        assert page.text_content("#tutor-text").startswith("Tutor: Not doubling is a")
        page.click("#tutor-anyway")
    _wait_change(page, rolled["version"])
    assert page.locator("#tutor-warning").is_hidden()
    assert not errors, errors
