"""End to end, what a player does that the happy path does not: double clicks, dropped connections,
odd input, in headless Chromium against the real server (one server for the module)."""

from __future__ import annotations

import json
import random

from tests.web.test_e2e import (
    Server,
    _page,
    _start,
    _state,
    _wait_change,
    browser,  # noqa: F401  (a fixture)
    module_server,
)

shared = module_server("review")


def _sent_actions(page) -> list[dict]:
    """The actions the page sends over its sockets, as they go (a list that grows)."""
    sent: list[dict] = []

    def watch(ws) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", watch)
    return sent


def test_a_double_click_acts_once(shared: Server, browser) -> None:  # noqa: F811
    # A double click on Roll or Done sent the action twice: the second, on the version already
    # acted on, came back as "the game has moved on" under the board.
    errors: list[str] = []
    page = _page(browser, errors)
    sent = _sent_actions(page)
    _start(page, shared, "local")
    rng = random.Random(3)
    for _ in range(4):
        st = _state(page)
        if "play" in st["actions"]:
            for src, dst in rng.choice(st["sequences"])["steps"]:
                page.click(f'rect.target[data-target="{src}"]')
                page.click(f'rect.target[data-target="{dst}"]')
            page.dblclick('button[data-local="done"]')
        else:
            assert "roll" in st["actions"], st["actions"]
            page.dblclick('button[data-action="roll"]')
        _wait_change(page, st["version"])
    versions = [m["version"] for m in sent if "action" in m]
    assert len(versions) == 4 and len(set(versions)) == 4, sent
    assert page.text_content("#error") == ""
    assert not errors


def test_a_bad_id_in_the_editor_keeps_the_position(shared: Server, browser) -> None:  # noqa: F811
    # A mistyped ID cleared the position the board still showed: its IDs went blank and Hint,
    # Evaluate and Rollout were disabled until the board was clicked again.
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position")
    xgid = page.evaluate("() => ed.position.xgid")
    page.fill("#id-input", "XGID=garbage")
    page.press("#id-input", "Enter")
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert "'XGID=garbage'" in page.text_content("#error")  # quoted, to see what was read
    assert page.evaluate("() => ed.position && ed.position.xgid") == xgid
    assert page.text_content("#xgid") == xgid
    assert page.is_enabled("#hint") and page.is_enabled("#eval")
    assert not errors
