"""End to end, "Copy ID" and "Copy image" on the position editor and the analysis page, in headless
Chromium against the real server: the clipboard gets the GNU Backgammon ID (PositionID:MatchID) of
the position shown, or of the decision shown, and the PNG that /api/diagram answers for it; the
status says so in the page's language."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from gammon.formats.ids import read_id
from tests.web.test_e2e import Server, browser, module_server  # noqa: F401  (browser is a fixture)
from tests.web.test_e2e_share import _page

MAT = Path(__file__).resolve().parents[1] / "data/mat/real/galaxy/bglab-lasse-match1112717.mat"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"
COPIED = "() => document.querySelector('#status').textContent === {!r}"


shared = module_server("share")


def _copied_image(page) -> bytes:
    return bytes(
        page.evaluate("""async () => {
        const [item] = await navigator.clipboard.read();
        const blob = await item.getType('image/png');
        return [...new Uint8Array(await blob.slice(0, 8).arrayBuffer())];
    }""")
    )


def _copy_image(page, gnubg_id: str, copied: str = "Copied") -> None:
    # The status may still say "Copied" from copying the ID: blank it, so that the wait below ends
    # only once the image is on the clipboard.
    page.evaluate("() => { document.querySelector('#status').textContent = ''; }")
    with page.expect_response(lambda r: "/api/diagram" in r.url) as answer:
        page.click("#copy-image")
    response = answer.value
    assert response.status == 200 and response.headers["content-type"] == "image/png"
    assert parse_qs(urlsplit(response.request.url).query) == {"id": [gnubg_id], "format": ["png"]}
    page.wait_for_function(COPIED.format(copied))
    assert _copied_image(page) == b"\x89PNG\r\n\x1a\n"


def test_the_editor_copies_the_id_and_the_image_of_the_position_set_up(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, shared, errors)
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position !== null")
    assert page.is_visible("#copy-id") and page.is_visible("#copy-image")
    page.fill("#id-input", XGID)
    page.click("#load-id")
    page.wait_for_function(f"() => ed.position && ed.position.xgid === {XGID!r}")
    p = page.evaluate("() => ed.position")
    page.click("#copy-id")
    page.wait_for_function(COPIED.format("Copied"))
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == p["gnubg_id"] and copied.count(":") == 1
    situation = read_id(copied)
    assert situation.position.id == p["position_id"] and situation.match_length == 5
    _copy_image(page, p["gnubg_id"])
    assert page.is_hidden("#share-id")
    page.click("#clear")  # no position: nothing to copy
    page.wait_for_selector("#share", state="hidden")
    assert not errors


def test_the_editor_says_copied_in_its_language(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, shared, errors)
    page.context.add_cookies([{"name": "gammon_lang", "value": "pl", "url": shared.url}])
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position !== null")
    assert page.locator("#copy-id").inner_text() == "Kopiuj ID"
    assert page.locator("#copy-image").inner_text() == "Kopiuj obraz"
    page.click("#copy-id")
    page.wait_for_function(COPIED.format("Skopiowano"))
    assert page.evaluate("() => navigator.clipboard.readText()") == page.evaluate(
        "() => ed.position.gnubg_id"
    )
    assert not errors


def test_copied_shows_its_full_time_after_a_second_copy_then_the_status_comes_back(
    shared: Server,
    browser,  # noqa: F811
) -> None:
    """A second copy within the 1.5 s that "Copied" shows restarts them (the first copy's timer does
    not cut the second short), and then the line says again what it said before the first."""
    errors: list[str] = []
    page = _page(browser, shared, errors)
    page.clock.install()
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position !== null")
    status = page.locator("#status")
    page.evaluate("() => { document.querySelector('#status').textContent = 'Set up a position'; }")
    # the copies written so far: the status says "Copied" already when the second copy is clicked,
    # so waiting for the words alone let the fake clock run before the second write had ended
    page.evaluate(
        """() => {
            const write = navigator.clipboard.writeText.bind(navigator.clipboard);
            window.copies = 0;
            navigator.clipboard.writeText = async (text) => { await write(text); window.copies += 1; };
        }"""
    )
    copied = "() => window.copies === {} && document.querySelector('#status').textContent === 'Copied'"
    page.click("#copy-id")
    page.wait_for_function(copied.format(1))
    page.clock.run_for(1000)
    page.click("#copy-id")
    page.wait_for_function(copied.format(2))
    page.clock.run_for(1000)  # 2 s after the first copy, 1 s after the second
    assert status.text_content() == "Copied"
    page.clock.run_for(600)
    assert status.text_content() == "Set up a position"
    assert not errors


def test_the_analysis_page_copies_the_decision_shown(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, shared, errors)
    page.set_default_timeout(240_000)
    page.goto(shared.url + "/analysis")
    page.set_input_files("#mat-file", str(MAT))
    page.select_option("#plies", "0")
    page.click("#analyse")
    page.wait_for_selector("#report:not([hidden])")
    assert page.is_hidden("#share")  # no decision shown yet
    decisions = page.evaluate("() => study.result.decisions")
    first, second = (int(li.get_attribute("data-index")) for li in page.locator("#marked li").all()[:2])
    page.click(f'#marked li[data-index="{first}"]')
    page.click("#copy-id")
    page.wait_for_function(COPIED.format("Copied"))
    assert page.evaluate("() => navigator.clipboard.readText()") == decisions[first]["gnubg_id"]
    page.click(f'#marked li[data-index="{second}"]')  # another decision: its own ID
    page.click("#copy-id")
    page.wait_for_function(
        f"async () => await navigator.clipboard.readText() === {decisions[second]['gnubg_id']!r}"
    )
    _copy_image(page, decisions[second]["gnubg_id"])
    assert not errors
