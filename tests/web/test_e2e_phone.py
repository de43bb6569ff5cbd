"""End to end, every page on a phone: at 390 CSS pixels wide none is wider than the screen (no
sideways scrolling), signed out and signed in, in headless Chromium against the real server; and
none logs an error in the browser's console."""

from __future__ import annotations

import os

import pytest

from tests.web.test_e2e import CHROMIUM, Server, _start, browser, server  # noqa: F401  (fixtures)
from tests.web.test_e2e_accounts import _sign

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent")

WIDTH = 390


def _overflow(page) -> list[str]:
    """The page's width past the screen's, and the widest elements that stick out (to say which)."""
    page.wait_for_load_state("networkidle")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width <= WIDTH:
        return []
    wide = page.evaluate(
        """w => Array.from(document.querySelectorAll('body *'))
        .filter(e => e.getBoundingClientRect().right > w + 0.5)
        .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)""",
        WIDTH,
    )
    return [f"{page.url}: {width} px", *wide]


def test_no_page_is_wider_than_a_phone(server: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    context = browser.new_context(
        viewport={"width": WIDTH, "height": 844}, is_mobile=True, has_touch=True, reduced_motion="reduce"
    )
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the console's errors too: a signed-out page asking for the account logged its 401 on each visit
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.set_default_timeout(15_000)
    wide: list[str] = []
    pages = ("/", "/editor", "/lobby", "/account", "/drill", "/analysis")
    for path in pages:  # signed out
        page.goto(server.url + path)
        wide += _overflow(page)
    page.goto(server.url + "/account")
    page.wait_for_selector("#sign-in:not([hidden])")
    _sign(page, "#do-sign-up", "phone")
    for path in pages:  # signed in: the account's tables, the lobby's form, the drill's card or note
        page.goto(server.url + path)
        wide += _overflow(page)
    _start(page, server, "online")  # the game page with the invitation's and spectators' links
    page.wait_for_selector("#watch:not([hidden])")
    wide += _overflow(page)
    page.goto(page.input_value("#watch-url"))
    wide += _overflow(page)
    assert not wide, wide
    assert not errors
