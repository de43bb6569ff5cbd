"""End to end: the lobby in headless Chromium, two people in two browser contexts: an invitation
posted by one and accepted by the other takes both to the same match; a rated 1-point match
started from the lobby and played to the end changes both players' ratings."""

from __future__ import annotations

import os
import random
import time

import pytest

from tests.web.test_e2e import CHROMIUM, OUTPUT, Server, _act_once, _page, _state, browser, server  # noqa: F401  (fixtures)
from tests.web.test_e2e_accounts import _sign

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent")


def _phone(browser, errors: list[str]):  # noqa: F811
    """A page in a context of its own, as wide as a phone."""
    context = browser.new_context(viewport={"width": 390, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    return page


def _member(page, server: Server, name: str) -> None:  # noqa: F811
    """Sign ``name`` up on the account page, then open the lobby from the start page's link."""
    page.goto(server.url + "/account")
    page.wait_for_selector("#sign-in:not([hidden])")
    _sign(page, "#do-sign-up", name)
    page.goto(server.url + "/")
    page.click('a[href="/lobby"]')
    page.wait_for_selector("#post:not([hidden])")


def _invite(page, length: str, to: str = "", rated: bool = False) -> None:
    page.fill("#to", to)
    page.select_option("#match_length", length)
    page.set_checked("#rated", rated)
    page.click("#do-post")
    page.wait_for_selector("#invitations li button:text('Cancel')")


def _match_of(page) -> str:
    page.wait_for_url("**/play/**")
    return page.url.split("/play/")[1].split("#")[0]


def test_an_invitation_accepted_in_the_lobby_takes_both_to_one_match(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    alice, bob, guest = _page(browser, errors), _phone(browser, errors), _page(browser, errors)
    _member(alice, server, "alice")
    _member(bob, server, "o'bob")  # a name with a quote, shown as it is
    guest.goto(server.url + "/lobby")
    guest.wait_for_selector("#guest-note:not([hidden])")
    assert guest.is_hidden("#post")
    guest.wait_for_function("() => lobby.players.size === 2")
    assert {guest.text_content(f"#players li:nth-child({k}) .who") for k in (1, 2)} == {"alice", "o'bob"}
    _invite(alice, "3", to="O'BOB")
    invitation = bob.locator("#invitations li.for-you")  # named: shown highlighted to bob
    invitation.wait_for()
    assert invitation.locator(".who").text_content() == "alice invites you"
    assert guest.locator("#invitations li").count() == 0  # and not shown to anyone else
    assert bob.evaluate("() => document.documentElement.scrollWidth") <= 390  # fits a phone
    OUTPUT.mkdir(exist_ok=True)
    bob.screenshot(path=str(OUTPUT / "web-lobby-phone.png"), full_page=True)
    invitation.locator("button:text('Accept')").click()
    match_id = _match_of(bob)
    assert _match_of(alice) == match_id
    host, friend = _state(alice), _state(bob)
    assert (host["seat"], friend["seat"]) == (0, 1) and host["match_length"] == 3
    assert [a["name"] for a in host["accounts"]] == ["alice", "o'bob"]
    guest.wait_for_function("() => lobby.invitations.size === 0")
    assert not errors, errors


def _ratings(page, server: Server) -> float:  # noqa: F811
    """The account page's rating, once the match is rated (the rating is no longer 1500)."""
    deadline = time.monotonic() + 15
    while True:
        page.goto(server.url + "/account")
        page.wait_for_selector("#me:not([hidden])")
        rating = float(page.text_content("#me-rating") or 0)
        if rating != 1500.0 or time.monotonic() > deadline:
            return rating
        time.sleep(0.3)


def test_a_rated_match_from_the_lobby_played_to_the_end(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    alice, bob = _page(browser, errors), _page(browser, errors)
    _member(alice, server, "alice")
    _member(bob, server, "bob")
    _invite(alice, "1", rated=True)
    bob.locator("#invitations li button:text('Accept')").click()
    _match_of(bob)
    _match_of(alice)
    assert _state(alice)["rated"]
    rng = random.Random(5)
    for _ in range(800):
        if _state(alice)["match_over"]:
            break
        if not (_act_once(alice, rng) or _act_once(bob, rng)):
            time.sleep(0.05)  # the move is on its way over the WebSocket
    for page in (alice, bob):
        page.wait_for_function("() => ui.state.match_over")
    winner = _state(alice)["match_winner"]
    after = {name: _ratings(page, server) for name, page in (("alice", alice), ("bob", bob))}
    won, lost = ("alice", "bob") if winner == 0 else ("bob", "alice")
    assert after[won] > 1500.0 > after[lost], after
    assert alice.locator("#history tr").count() == 2  # its rated matches: a header and this one
    bob.wait_for_function(
        "() => ['alice', 'bob'].every(n => document.querySelector('#leaderboard').textContent.includes(n))"
    )
    board = bob.text_content("#leaderboard")
    assert board.index(won) < board.index(lost)  # the winner above the loser
    assert not errors, errors


def test_a_signed_in_player_makes_a_rated_match_on_the_start_page(server: Server, browser) -> None:  # noqa: F811
    """The start page offers "Rated" for an online match to a length, made signed in."""
    errors: list[str] = []
    guest, alice = _page(browser, errors), _page(browser, errors)
    guest.goto(server.url + "/")
    guest.check('input[name=mode][value="online"]')
    assert guest.is_disabled("input[name=rated]")  # a guest's match is not rated: the title says why
    assert "Sign in" in (guest.get_attribute("#rated-label", "title") or "")
    _member(alice, server, "alice")
    alice.goto(server.url + "/")
    alice.check('input[name=mode][value="online"]')
    alice.select_option("select[name=match_length]", "0")
    assert alice.is_disabled("input[name=rated]")  # a money game is not rated
    alice.select_option("select[name=match_length]", "3")
    alice.wait_for_selector("input[name=rated]:enabled")
    alice.check("input[name=rated]")
    alice.click("#start")
    _match_of(alice)
    state = _state(alice)
    assert state["rated"] and state["match_length"] == 3 and state["mode"] == "online"
    assert [a and a["name"] for a in state["accounts"]] == ["alice", None]
    assert not errors, errors


_ACCEPT_ALL = """async ids => {
  const csrf = decodeURIComponent(document.cookie.match(/gammon_csrf=([^;]*)/)[1]);
  return Promise.all(ids.map(id => fetch(`/api/lobby/invitations/${id}/accept`,
    { method: "POST", headers: { "X-CSRF-Token": csrf } }).then(r => r.json())));
}"""


def test_invitations_accepted_together_lose_none_of_the_posters_seats(server: Server, browser) -> None:  # noqa: F811
    """Two of a poster's invitations accepted while its lobby was away: back in the lobby, its
    browser takes both seats (each token the only key to its seat), opens one match and lists the
    other, whose link opens the poster's seat there."""
    errors: list[str] = []
    alice, bob = _page(browser, errors), _page(browser, errors)
    _member(alice, server, "alice")
    _member(bob, server, "bob")
    _invite(alice, "1")
    _invite(alice, "3")
    bob.wait_for_function("() => lobby.invitations.size === 2")
    alice.goto(server.url + "/account")  # within the poster's grace: its invitations stay
    ids = bob.evaluate("() => [...lobby.invitations.keys()]")
    matches = {seat["match_id"] for seat in bob.evaluate(_ACCEPT_ALL, ids)}
    assert len(matches) == 2
    alice.goto(server.url + "/lobby")  # told of both at once: it takes both seats
    opened = _match_of(alice)
    assert opened in matches and _state(alice)["seat"] == 0
    (other,) = matches - {opened}
    alice.goto(server.url + "/lobby")
    link = alice.locator(f'#to-open a[href^="/play/{other}#token="]')
    link.wait_for()
    link.click()
    assert _match_of(alice) == other and _state(alice)["seat"] == 0
    alice.goto(server.url + "/lobby")
    alice.wait_for_selector("#to-open", state="hidden")  # both opened: nothing left to list
    stored = alice.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('seat:'))")
    assert sorted(stored) == sorted(f"seat:{m}" for m in matches)
    assert not errors, errors


def test_the_acceptor_who_comes_first_is_not_told_to_send_a_link(server: Server, browser) -> None:  # noqa: F811
    """The acceptor opens the match before the poster (whose lobby takes its seat when it next
    hears of it): it has no link to send, and waits for the poster by name."""
    errors: list[str] = []
    alice, bob = _page(browser, errors), _page(browser, errors)
    _member(alice, server, "alice")
    _member(bob, server, "bob")
    _invite(alice, "3")
    alice.goto(server.url + "/account")  # within the poster's grace: the invitation stays
    bob.locator("#invitations li button:text('Accept')").click()
    _match_of(bob)
    st = _state(bob)
    assert (st["seat"], st["opponent_joined"]) == (1, False)
    assert bob.locator("#invite").is_hidden()
    status = bob.text_content("#status") or ""
    assert "link" not in status and "alice" in status, status
    alice.goto(server.url + "/lobby")  # the poster's seat taken and opened: the acceptor sees it come
    _match_of(alice)
    bob.wait_for_function("() => ui.state.opponent_joined")
    assert not errors, errors


def test_a_seat_whose_taking_failed_is_taken_when_the_lobby_reconnects(server: Server, browser) -> None:  # noqa: F811
    """The poster's browser fails to take its seat (the connection dropped on the way): the lobby,
    connected again, hears of the accepted invitation again and takes the seat then."""
    errors: list[str] = []
    alice, bob = _page(browser, errors), _page(browser, errors)
    _member(alice, server, "alice")
    _member(bob, server, "bob")
    failed: list[str] = []

    def drop_once(route) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort()

    alice.route("**/api/lobby/invitations/*/seat", drop_once)
    _invite(alice, "1")
    bob.locator("#invitations li button:text('Accept')").click()
    match_id = _match_of(bob)
    while not failed:
        alice.wait_for_timeout(50)
    alice.wait_for_function("() => lobby.asking === 0")  # tried, and failed
    assert alice.url.endswith("/lobby")
    alice.evaluate("() => lobby.ws.close()")  # the lobby's connection drops and comes back
    assert _match_of(alice) == match_id and _state(alice)["seat"] == 0
    assert not errors, errors
