"""End to end, the game page's polish: what a new user missed, checked in headless Chromium against
the real server (one server for the module: each check starts its own match)."""

from __future__ import annotations

import random
from pathlib import Path
from urllib.parse import urlencode

from tests.web.test_e2e import (
    Server,
    _act_once,
    _page,
    _start,
    _state,
    _wait_change,
    browser,  # noqa: F401  (a fixture)
    module_server,
)
from tests.web.test_e2e_accounts import _sign
from tests.web.test_e2e_players import _cube, _until

shared = module_server("page")


def test_resigning_asks_first(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local")
    st = _until(page, random.Random(1), "st.actions.includes('resign')")
    asked: list[str] = []

    def refuse(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", refuse)
    page.click('button[data-action="resign"]')
    page.wait_for_timeout(300)
    assert asked and "Resign" in asked[0] and _state(page)["version"] == st["version"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('button[data-action="resign"]')
    _wait_change(page, st["version"])
    assert _state(page)["phase"] == "resigned"
    assert not errors


def test_the_centred_cube_shows_1(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local", length="5")
    assert _cube(page) == {"x": 831, "value": "1", "where": "centre", "text": "1"}
    assert not errors


def _overlap(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_the_result_banner_covers_no_checker(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local")
    # resign at once: five checkers stand on points 12 and 13, their stacks reaching the middle
    st = _until(page, random.Random(2), "st.actions.includes('resign')")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('button[data-action="resign"]')
    _wait_change(page, st["version"])
    st = _state(page)
    page.click('button[data-action="accept_resignation"]')
    _wait_change(page, st["version"])
    banner = page.locator("#board g.message")
    assert banner.is_visible()
    box = banner.bounding_box()
    assert box is not None
    checkers = page.eval_on_selector_all(
        "#board g.checker, #board text:not(.point-number)",
        "es => es.filter(e => !e.closest('g.message')).map(e => { const r = e.getBoundingClientRect();"
        " return { x: r.x, y: r.y, width: r.width, height: r.height }; })",
    )
    assert len(checkers) >= 30
    assert not [c for c in checkers if _overlap(box, c)]
    assert not errors


def test_the_result_banner_covers_no_stack_count(shared: Server, browser) -> None:  # noqa: F811
    """The banner over tall stacks: six and more checkers on every point (their count written on the
    fifth), points 12 and 13 among them, drawn by the game page's board module."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/editor")  # any page of the server: the module is imported from it
    boxes = page.evaluate("""async () => {
        const { Board } = await import("/static/board.js");
        const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        svg.setAttribute("viewBox", "0 0 900 640");
        svg.setAttribute("width", "900");
        svg.setAttribute("height", "640");
        document.body.prepend(svg);
        const board = new Array(26).fill(0);
        for (let p = 1; p <= 24; p++) board[p] = (p <= 12 ? 1 : -1) * (6 + p % 4);
        Board.draw(svg, { board, off: [0, 0], cube: null, dice: null, dests: new Set(), sources: new Set(),
                          selected: null, viewerLight: true, moverIsViewer: true, diceRight: true,
                          diceLight: true, diceUsed: null, message: "Black wins 1 point", onClick() {} });
        const box = e => { const r = e.getBoundingClientRect();
                           return { x: r.x, y: r.y, width: r.width, height: r.height }; };
        const counts = [...svg.querySelectorAll("text:not(.point-number)")]
            .filter(t => !t.closest("g.message"));
        return { banner: box(svg.querySelector("g.message")),
                 checkers: [...svg.querySelectorAll("g.checker")].map(box),
                 counts: counts.map(t => ({ text: t.textContent, ...box(t) })) };
    }""")
    assert len(boxes["counts"]) == 24 and {c["text"] for c in boxes["counts"]} == {"6", "7", "8", "9"}
    assert len(boxes["checkers"]) == 24 * 5  # five drawn on a point, the count on the fifth
    assert not [c for c in boxes["checkers"] + boxes["counts"] if _overlap(boxes["banner"], c)]
    assert not errors


def test_the_spectators_link_has_a_copy_button(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    _start(page, shared, "online")
    page.wait_for_selector("#watch:not([hidden])")
    link = page.input_value("#watch-url")
    page.click("#copy-watch")
    page.wait_for_function("link => navigator.clipboard.readText().then(t => t === link)", arg=link)
    assert not errors


def test_the_editor_says_money_game_and_why_a_16th_checker_is_refused(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position !== null")
    assert "Match to 0" not in page.inner_text("main")
    assert page.eval_on_selector("#match-length", "s => s.selectedOptions[0].textContent") == "Money game"
    before = page.evaluate("() => ed.board")
    page.click('rect.target[data-target="3"]')  # the start: all 15 of the user's checkers are on the board
    assert page.evaluate("() => ed.board") == before
    assert "15 checkers" in page.text_content("#error")
    page.check("input[name=place][value=opponent]")
    page.click('rect.target[data-target="3"]')
    assert "opponent has all 15" in page.text_content("#error")
    assert not errors


def _visible(page, selector: str) -> int:
    return page.eval_on_selector_all(selector, "es => es.filter(e => e.offsetParent !== null).length")


def test_match_hints_rank_by_match_winning_chances_with_more_behind_a_toggle(
    shared: Server,
    browser,  # noqa: F811
) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local", length="5")
    _until(page, random.Random(14), "st.phase === 'move' && st.plays.length >= 5")
    page.click('button[data-local="hint"]')
    page.wait_for_selector("#hints li")
    source = page.get_attribute("#hints", "data-source")
    assert "Match winning chances" in source and "0-ply" in source and "cubeless" not in source
    assert _visible(page, "#hints li") == 3
    assert page.text_content("#hints li .eq").endswith("%")
    page.click("#hints-more")
    assert _visible(page, "#hints li") == 5
    page.click("#hints-more")
    assert _visible(page, "#hints li") == 3
    assert not errors


def test_a_hint_gives_the_cube_decision_before_the_roll_and_when_doubled(
    shared: Server,
    browser,  # noqa: F811
) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local")
    st = _until(page, random.Random(15), "st.actions.includes('double')")
    page.click('button[data-local="hint"]')
    page.wait_for_selector("#cube-hint:not([hidden])")
    text = page.inner_text("#cube-hint")
    assert text.startswith("Engine: ") and "no double" in text and "double/take" in text
    assert "cubeful equity, 0-ply" in text
    page.click('button[data-action="double"]')
    _wait_change(page, st["version"])
    assert not page.locator("#cube-hint").is_visible()
    page.click('button[data-local="hint"]')
    page.wait_for_selector("#cube-hint:not([hidden])")
    text = page.inner_text("#cube-hint")
    assert text.split("\n")[0] in ("Engine: take", "Engine: pass", "Engine: beaver")
    assert "take " in text and "pass " in text
    assert not errors


def test_a_seat_in_use_in_another_browser_is_taken_over_only_when_asked(
    shared: Server,
    browser,  # noqa: F811
) -> None:
    errors: list[str] = []
    host = _page(browser, errors)
    _start(host, shared, "online")
    assert "key to their seat" in host.inner_text("#invite")
    invite = host.input_value("#invite-url")
    friend = _page(browser, errors)
    friend.goto(invite)
    assert _state(friend)["seat"] == 1
    friend.reload()  # the same browser tab comes back without being asked
    assert _state(friend)["seat"] == 1
    third = _page(browser, errors)  # another browser opens the friend's link
    asked: list[str] = []

    def refuse(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    third.once("dialog", refuse)
    third.goto(invite)
    # The server's refusal shows first and the close (which asks) follows it: wait for the page's
    # answer to the dismissed question, which only comes after the question.
    third.wait_for_function("() => $('#error').textContent.includes('reload this page to take it over')")
    assert asked == ["This seat is in use in another browser - take it over here?"]
    assert third.evaluate("() => ui.state") is None
    third.wait_for_timeout(500)
    assert friend.evaluate("() => ui.ws.readyState") == 1  # the friend keeps the seat
    third.once("dialog", lambda dialog: dialog.accept())
    third.reload()
    assert _state(third)["seat"] == 1
    # The error message comes first, the close after it: wait for both, then the seat is let go.
    friend.wait_for_function("() => $('#error').textContent.includes('taken over in another browser')")
    friend.wait_for_function("() => ui.ws.readyState === 3 && ui.state === null")
    assert "reload this page to take it back" in friend.inner_text("#error")
    friend.wait_for_timeout(1500)  # it does not come back by itself
    assert friend.evaluate("() => ui.ws.readyState") == 3
    assert not errors


def test_one_device_keeps_the_board_still_unless_asked_and_labels_the_sides(
    shared: Server,
    browser,  # noqa: F811
) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local")
    rng = random.Random(16)
    assert page.text_content("#side-bottom") == " White: light checkers, home board bottom right"
    assert page.text_content("#side-top") == " Black: dark checkers, home board top right"
    assert page.locator("#side-bottom .swatch.light").count() == 1
    st = _until(page, rng, "st.turn === 1 && st.phase === 'move'")
    assert st["viewer"] == 0  # not turned by default
    page.check("#flip")
    st = _state(page)
    assert st["viewer"] == 1 and page.text_content("#side-bottom").startswith(" Black: dark")
    assert page.locator("#player-bottom .swatch.dark").count() == 1
    # the turned board is played by clicks as it is drawn, and turns back for White
    movers = set()
    for _ in range(8):
        st = _state(page)
        if "play" in st["actions"]:
            assert st["viewer"] == st["turn"]
            movers.add(st["turn"])
        assert _act_once(page, rng)
    assert movers == {0, 1}
    page.reload()  # the setting is kept
    assert page.is_checked("#flip")
    page.uncheck("#flip")
    assert _state(page)["viewer"] == 0
    assert not errors


def test_a_guest_at_a_rated_match_is_offered_no_action_and_told_to_sign_in(shared: Server, browser) -> None:  # noqa: F811
    """A seat of a rated match acts once an account holds it (the server refuses it before): the
    guest's page offers no button that would fail and says why; signing up in another tab claims
    the seat, and the page then offers its actions, the first of which is made."""
    errors: list[str] = []
    host = _page(browser, errors)
    host.goto(shared.url + "/account")
    host.wait_for_selector("#sign-in:not([hidden])")
    _sign(host, "#do-sign-up", "rated-host")
    host.goto(shared.url + "/")
    host.check('input[name=mode][value="online"]')
    host.select_option("select[name=match_length]", "3")
    host.wait_for_selector("input[name=rated]:enabled")
    host.check("input[name=rated]")
    host.click("#start")
    host.wait_for_url("**/play/**")
    invite = host.input_value("#invite-url")
    guest = _page(browser, errors)
    guest.goto(invite)
    st = _state(guest)
    assert (st["seat"], st["rated"], st["accounts"][1], st["actions"]) == (1, True, None, [])
    assert guest.locator("#rated-guest").is_visible()
    visible = guest.eval_on_selector_all("button[data-action]", "bs => bs.filter(b => !b.hidden).length")
    assert visible == 0 and guest.text_content("#status") == "Sign in to play this rated match"
    account = guest.context.new_page()  # the guest's browser: it claims the seats it keeps
    account.goto(shared.url + "/account")
    account.wait_for_selector("#sign-in:not([hidden])")
    _sign(account, "#do-sign-up", "rated-guest")
    guest.wait_for_function("() => ui.state.accounts[1] && ui.state.actions.includes('abandon')")
    assert guest.locator("#rated-guest").is_hidden()
    assert guest.locator('button[data-action="abandon"]').is_visible()
    # The guest's first action goes through: its socket, opened as a guest's, was refused and closed
    # by the server on it, the move lost until the player made it again.
    rng = random.Random(3)
    for _ in range(3):
        guest.wait_for_function("v => ui.state.version >= v", arg=_state(host)["version"])
        if _act_once(guest, rng):
            break
        _act_once(host, rng)
    else:
        raise AssertionError("the guest was never offered an action")
    assert not errors, errors


def test_long_names_stay_inside_the_page(shared: Server, browser) -> None:  # noqa: F811
    """Names of the longest kind, one word each, wrap inside the players' boxes: the page is no
    wider than the window, on a desktop and on a phone."""
    errors: list[str] = []
    names = {"name": "W" * 24, "opponent_name": "B" * 24}  # NAME_LENGTH characters
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 800}, reduced_motion="reduce")
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(shared.url + "/?" + urlencode({"mode": "local", "match_length": "3", **names}))
        page.click("#start")
        page.wait_for_url("**/play/**")
        assert _state(page)["names"] == [names["name"], names["opponent_name"]]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        outside = page.eval_on_selector_all(
            ".player .name, #status, .side-text",
            "es => es.filter(e => { const r = e.getBoundingClientRect(), box = e.closest('.panel, .side')"
            ".getBoundingClientRect(); return r.right > box.right + 1; }).map(e => e.textContent)",
        )
        assert outside == [], (width, outside)
        context.close()
    assert not errors, errors


def test_a_hint_that_comes_after_the_play_is_not_shown(shared: Server, browser) -> None:  # noqa: F811
    """The engine's advice is for the decision it was asked about: when the player has moved on
    before it comes, it is dropped, not shown beside the next decision."""
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local")
    st = _until(page, random.Random(3), "st.phase === 'move' && st.sequences.length > 0")
    held: list = []  # the server's answer for this play, held back until the play is made

    def hold(route) -> None:
        held.append((route, route.fetch()))

    page.route("**/hint?*", hold)
    page.click('button[data-local="hint"]')
    while not held:
        page.wait_for_timeout(50)
    play = "{ action: 'play', play: ui.state.plays[0], version: ui.state.version }"
    page.evaluate(f"() => ui.ws.send(JSON.stringify({play}))")
    _wait_change(page, st["version"])
    with page.expect_response("**/hint?*"):
        held[0][0].fulfill(response=held[0][1])
    page.wait_for_timeout(300)  # the answer is read and dropped
    assert page.locator("#hints").is_hidden() and page.locator("#cube-hint").is_hidden()
    assert not errors, errors


def test_a_link_that_opens_no_seat_offers_no_button(shared: Server, browser) -> None:  # noqa: F811
    """A game page whose link opens no seat (a token mistyped, a match gone) says so and offers no
    action: before the server's first state there is nothing to act on."""
    errors: list[str] = []
    page = _page(browser, errors)
    made = page.request.post(shared.url + "/api/matches", data={"mode": "local"}).json()
    for link in (f"/play/{made['match_id']}#token=wrong", "/play/nosuchmatch#token=abc"):
        page.goto(shared.url + link)
        page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
        shown = page.eval_on_selector_all(
            "#game button, #game select, #game label",
            "es => es.filter(e => e.checkVisibility()).map(e => e.textContent)",
        )
        assert shown == [], (link, shown)
    assert not errors, errors


def test_a_connected_idle_opponent_is_claimed_against_in_the_right_words(
    tmp_path: Path,
    browser,  # noqa: F811
) -> None:
    """An opponent still at the table who has not acted for --idle-after seconds may be claimed
    against: the status says they have not acted (not that they left), and so does the question."""
    server = Server(f"sqlite:///{tmp_path / 'idle.sqlite3'}", "--idle-after", "1.5", "--away-after", "3600")
    server.start()
    try:
        errors: list[str] = []
        host = _page(browser, errors)
        _start(host, server, "online")
        guest = _page(browser, errors)
        guest.goto(host.input_value("#invite-url"))
        st = _state(guest)
        waiting = {0: host, 1: guest}[1 - st["turn"]]  # the other page stays open and connected
        claim = waiting.locator('button[data-action="claim"]')
        claim.wait_for(state="visible", timeout=10_000)  # the page asks again once the wait is over
        now = _state(waiting)
        assert not now["opponent_away"] and now["opponent_idle"] >= 1.5  # connected, idle
        status = waiting.text_content("#status") or ""
        assert "has not acted" in status and "may claim" in status and "has left" not in status
        asked: list[str] = []

        def refuse(dialog) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        waiting.once("dialog", refuse)
        claim.click()
        waiting.wait_for_timeout(300)
        assert asked and "has not acted" in asked[0] and "has left" not in asked[0]
        assert _state(waiting)["result"] is None  # refused: nothing claimed
        assert not errors
    finally:
        server.stop()


def test_a_level_chosen_before_the_servers_levels_come_stays_chosen(shared: Server, browser) -> None:  # noqa: F811
    """The start page rebuilds its list of levels from the server's; a level picked before they came
    (a slow connection, a quick player) was replaced by the default, the strongest."""
    errors: list[str] = []
    page = _page(browser, errors)
    held: list = []
    page.route("**/api/levels", lambda route: held.append(route))  # answered once the level is picked
    page.goto(shared.url + "/")
    page.wait_for_function("() => document.documentElement.lang === 'en'")  # the page's script runs
    page.select_option("select[name=level]", "random")
    for _ in range(100):  # Playwright hands the held request over while the page is waited on
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_selector('select[name=level] option[value="engine"]', state="attached")
    assert page.input_value("select[name=level]") == "random"
    page.click("#start")
    page.wait_for_url("**/play/**")
    assert _state(page)["level"] == "random"
    assert not errors, errors
