"""End to end, a club's player on two devices: two browsers (contexts, each with its own cookies)
signed in to one account open the account's seat of an online match, and both see one game: no
"in use in another browser" question, no takeover, the moves made on one shown on the other."""

from __future__ import annotations

import random

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

PASSWORD = "correct horse battery"


def _signed_in(browser, errors: list[str], server: Server, first: bool):  # noqa: F811
    page = _page(browser, errors)
    path = "/api/account/sign-up" if first else "/api/account/sign-in"
    r = page.context.request.post(server.url + path, data={"name": "alice", "password": PASSWORD})
    assert r.ok, r.text()
    return page


def test_one_account_on_two_devices_sees_one_game(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    phone = _signed_in(browser, errors, server, first=True)
    _start(phone, server, "online")  # made signed in: seat 0 is alice's
    laptop = _signed_in(browser, errors, server, first=False)
    asked: list[str] = []
    laptop.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    laptop.goto(phone.url)
    assert _state(laptop)["seat"] == 0 and asked == []
    laptop.wait_for_timeout(500)
    assert phone.evaluate("() => ui.ws.readyState") == 1  # the phone keeps its socket
    friend = _page(browser, errors)  # the friend comes, as a guest
    friend.goto(phone.input_value("#invite-url"))
    assert _state(friend)["seat"] == 1
    # Alice's moves, on one device then the other, are seen on both (and by the friend).
    rng = random.Random(2)
    acted = {"laptop": 0, "phone": 0}
    for _ in range(60):
        st = _state(phone)
        mover = friend if st["turn"] == 1 else laptop if acted["laptop"] <= acted["phone"] else phone
        before = _state(mover)["version"]
        if not _act_once(mover, rng):
            _wait_change(mover, before - 1)
            continue
        for page in (phone, laptop, friend):
            _wait_change(page, before)
        if st["turn"] == 0:
            acted["laptop" if mover is laptop else "phone"] += 1
        if min(acted.values()) >= 2:
            break
    assert min(acted.values()) >= 2, acted
    assert _state(phone)["version"] == _state(laptop)["version"]
    assert not errors and asked == []
