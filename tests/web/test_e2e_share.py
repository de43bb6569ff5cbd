"""End to end, "Copy ID" and "Copy image" on the game page, in headless Chromium against the real
server: the clipboard gets the GNU Backgammon ID of the position shown (in play and in a replay),
and the PNG of /api/diagram; without a clipboard the ID waits selected in a field and the PNG is
downloaded."""

from __future__ import annotations

import random
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from gammon.formats.ids import read_id
from tests.web.test_e2e import Server, _start, browser, module_server  # noqa: F401  (browser is a fixture)
from tests.web.test_e2e_players import _until

NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined })"


shared = module_server("share")


def _page(browser, server: Server, errors: list[str], width: int = 1280, clipboard: bool = True):  # noqa: F811
    context = browser.new_context(
        viewport={"width": width, "height": 800}, reduced_motion="reduce", accept_downloads=True
    )
    if clipboard:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    else:  # as on an http page off localhost, which is no secure context: no navigator.clipboard
        context.add_init_script(NO_CLIPBOARD)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    return page


def _mid_game(page, server: Server) -> dict:
    """A 5-point match on one device, a few turns in, the player on roll to move."""
    _start(page, server, "local", length="5")
    return _until(page, random.Random(3), "st.game_number === 1 && st.log.length > 6 && st.phase === 'move'")


def test_copy_id_puts_the_gnubg_id_of_the_position_on_the_clipboard(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, shared, errors)
    st = _mid_game(page, shared)
    page.click("#copy-id")
    page.wait_for_function("() => document.querySelector('#status').textContent === 'Copied'")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == st["gnubg_id"] and copied.count(":") == 1
    situation = read_id(copied)  # the position the server has, with its dice and match score
    assert situation.position.id == st["position_id"]
    assert situation.dice == tuple(sorted(st["dice"], reverse=True))
    assert situation.match_length == 5
    assert page.is_hidden("#share-id")  # the hand-copy field only where there is no clipboard
    assert not errors


def test_copy_image_puts_the_diagrams_png_on_the_clipboard(shared: Server, browser) -> None:  # noqa: F811
    """Headless Chromium holds images: the clipboard is read back as an image/png, the PNG that
    /api/diagram answered for the position's ID."""
    errors: list[str] = []
    page = _page(browser, shared, errors)
    st = _mid_game(page, shared)
    with page.expect_response(lambda r: "/api/diagram" in r.url) as answer:
        page.click("#copy-image")
    response = answer.value
    assert response.status == 200 and response.headers["content-type"] == "image/png"
    query = parse_qs(urlsplit(response.request.url).query)
    assert query == {"id": [st["gnubg_id"]], "format": ["png"]}
    page.wait_for_function("() => document.querySelector('#status').textContent === 'Copied'")
    held = page.evaluate("""async () => {
        const [item] = await navigator.clipboard.read();
        const blob = await item.getType('image/png');
        return { types: item.types, head: [...new Uint8Array(await blob.slice(0, 8).arrayBuffer())] };
    }""")
    assert held["types"] == ["image/png"]
    assert bytes(held["head"]) == b"\x89PNG\r\n\x1a\n"
    assert not errors


def test_a_replay_copies_the_id_of_the_frame_shown(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, shared, errors)
    _mid_game(page, shared)
    page.once("dialog", lambda dialog: dialog.accept())  # "Resign?"
    page.click('button[data-action="resign"]')
    page.wait_for_function("() => ui.state.phase === 'resigned'")
    page.click('button[data-action="accept_resignation"]')  # one device: the opponent accepts here
    page.wait_for_function("() => !!ui.state.result")
    assert page.is_hidden("#share")  # the game is over: no position to analyse
    page.click('button[data-local="replay"]')
    page.wait_for_function("() => ui.replay")
    page.click('button[data-replay="next"]')
    page.click('button[data-replay="next"]')
    frame = page.evaluate("() => ui.replay.frames[ui.replay.index]")
    assert frame["gnubg_id"]
    page.click("#copy-id")
    page.wait_for_function("() => document.querySelector('#status').textContent === 'Copied'")
    assert page.evaluate("() => navigator.clipboard.readText()") == frame["gnubg_id"]
    assert read_id(frame["gnubg_id"]).position.id == frame["position_id"]
    assert not errors


def test_without_a_clipboard_the_id_waits_selected_and_the_image_downloads(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, shared, errors, width=390, clipboard=False)
    st = _mid_game(page, shared)
    page.click("#copy-id")
    field = page.locator("#share-id")
    assert field.is_visible() and field.input_value() == st["gnubg_id"]
    selected = page.evaluate("""() => { const f = document.activeElement;
        return f.id === 'share-id' && f.selectionStart === 0 && f.selectionEnd === f.value.length; }""")
    assert selected
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # a phone: nothing overflows
    with page.expect_download() as got:
        page.click("#copy-image")
    download = got.value
    assert download.suggested_filename == "position.png"
    assert Path(download.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not errors
