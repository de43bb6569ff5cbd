"""End to end: the account page in headless Chromium: a guest's game, signing up (which takes the
game into the account), signing out and in again."""

from __future__ import annotations

import os

import httpx
import pytest

from tests.web.test_e2e import CHROMIUM, Server, _page, _start, browser, server  # noqa: F401  (fixtures)
from tests.web.test_multiprocess import _servers, rated_match_with_a_guest

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent")
PASSWORD = "a long enough password"


def _sign(page, button: str, name: str) -> None:
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click(button)
    page.wait_for_selector("#me:not([hidden])")


def test_sign_up_sign_out_sign_in_and_see_the_account_page(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, server, "computer", length="1")  # a guest's game: the browser keeps its seat
    match_id = page.url.split("/play/")[1].split("#")[0]
    assert page.evaluate("id => localStorage.getItem('seat:' + id)", match_id)
    page.goto(server.url + "/")
    page.click('a[href="/account"]')
    page.wait_for_selector("#sign-in:not([hidden])")
    _sign(page, "#do-sign-up", "Alice")
    assert page.text_content("#me-name") == "Alice"
    assert page.text_content("#me-rating") == "1500.0"
    assert "Alice" in page.text_content("#leaderboard")
    # the export holds the account's data (its matches, account.json, its uploads), not only games
    assert page.text_content("#export") == "Download all my data (.zip)"
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["gammon_session"]["httpOnly"] and cookies["gammon_session"]["sameSite"] == "Lax"
    assert page.evaluate("() => document.cookie").find("gammon_session") < 0  # no script reads it
    # the guest's game is the account's now: it is in the export's list of its matches once over,
    # and its seat is held (another account cannot claim it)
    held = page.evaluate(
        """async id => (await fetch('/api/matches/' + id, {headers: {'X-Gammon-Token':
             localStorage.getItem('seat:' + id)}}).then(r => r.json())).accounts""",
        match_id,
    )
    assert held[0]["name"] == "Alice"
    page.click("#sign-out")
    page.wait_for_selector("#sign-in:not([hidden])")
    _sign(page, "#do-sign-in", "alice")  # names are compared without regard to case
    assert page.text_content("#me-name") == "Alice"
    page.reload()
    page.wait_for_selector("#me:not([hidden])")
    assert not errors, errors


def test_the_leaderboard_pages_with_a_more_button(server: Server, browser) -> None:  # noqa: F811
    """The leaderboard API gives a page at a time: the page asks for the next one on "more", and
    hides the button after a page shorter than asked for (the last)."""
    for n in range(5):
        r = httpx.post(server.url + "/api/account/sign-up",
                       json={"name": f"player{n}", "password": PASSWORD, "client": "api"})
        assert r.status_code == 200, r.text
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url + "/account")
    page.wait_for_selector("#sign-in:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#leaderboard tr').length === 6")
    assert page.is_hidden("#leaders-more")  # the five fit in the first page (100)
    # pages of two (the table's page size), shown again from the start
    page.eval_on_selector("#leaderboard", "t => { t.dataset.page = '2'; }")
    page.dispatch_event("#active-only", "change")
    rows = "() => document.querySelectorAll('#leaderboard tr').length === "
    page.wait_for_function(rows + "3")
    for shown in (5, 6):  # 2 + 2, then the last one
        assert page.is_visible("#leaders-more")
        page.click("#leaders-more")
        page.wait_for_function(rows + str(shown))
    page.wait_for_selector("#leaders-more", state="hidden")
    ranks = page.eval_on_selector_all(
        "#leaderboard tr td:first-child", "cells => cells.map(c => c.textContent)"
    )
    assert ranks == ["1", "2", "3", "4", "5"]
    assert not errors, errors


def test_a_rated_seat_claimed_through_another_process_plays_when_its_page_is_back(
    pg_url: str,
    browser,  # noqa: F811
) -> None:
    """The game page of a rated match's guest seat is connected to B; the seat is claimed through A
    (which pushes it only to its own sockets). Coming back to the page asks B again: it plays."""
    servers = _servers(pg_url)
    a, b = next(servers)
    try:
        bearer, m, guest = rated_match_with_a_guest(a.url)
        errors: list[str] = []
        page = _page(browser, errors)
        page.goto(f"{b.url}/play/{m['match_id']}#token={guest}")
        page.wait_for_selector("#rated-guest:not([hidden])")
        assert page.text_content("#status") == "Sign in to play this rated match"
        r = httpx.post(a.url + "/api/account/claim", json={"seat_tokens": [guest]}, headers=bearer["bob"])
        assert r.status_code == 200 and r.json()["claimed"] == [m["match_id"]], r.text
        page.evaluate("() => window.dispatchEvent(new Event('focus'))")  # back from the account page
        page.wait_for_function("() => ui.state.actions.includes('abandon')")
        assert page.is_hidden("#rated-guest")
        assert not errors, errors
    finally:
        next(servers, None)  # stops them
