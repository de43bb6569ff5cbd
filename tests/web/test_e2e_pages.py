"""End to end, what a page shows belongs to what it shows: a rollout to its position, the names
and sides to the board drawn, the texts to the page's language, the tables to a phone's width; in
headless Chromium against the real server (one server for the module)."""

from __future__ import annotations

import json
import random
import urllib.request

import pytest

from tests.web.test_e2e import (
    Server,
    _page,
    _start,
    _state,
    _wait_change,
    browser,  # noqa: F401  (a fixture)
    module_server,
)
from tests.web.test_e2e_players import _cube, _until

shared = module_server("pages")


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def test_a_rollout_is_cancelled_when_its_position_is_left(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_default_timeout(60_000)
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position !== null")
    page.fill("#trials", "1296")
    page.click("#rollout")
    page.wait_for_function("() => ed.job && ed.job.status === 'running'")
    job = page.evaluate("() => ed.job.id")
    page.check('input[name=place][value="remove"]')
    page.click('rect.target[data-target="6"]')
    page.wait_for_function("() => ed.position && ed.position.pips[0] === 161")
    page.wait_for_function("() => ed.job === null")
    assert page.is_hidden("#job")
    deadline = 30
    while _get(f"{shared.url}/api/jobs/{job}")["status"] == "running" and deadline:
        page.wait_for_timeout(200)
        deadline -= 1
    assert _get(f"{shared.url}/api/jobs/{job}")["status"] == "cancelled"
    page.wait_for_timeout(1000)  # a poll in flight when the position changed shows nothing
    assert page.text_content("#result") == "" and page.is_hidden("#job")
    assert not errors


def _finish_by_resigning(page, rng: random.Random) -> dict:
    """Resign the local game at the first chance and accept it: a 1-point match is over."""
    page.on("dialog", lambda dialog: dialog.accept())
    st = _until(page, rng, "st.actions.includes('resign')")
    page.click('button[data-action="resign"]')
    _wait_change(page, st["version"])
    st = _state(page)
    page.click('button[data-action="accept_resignation"]')
    _wait_change(page, st["version"])
    return _state(page)


def test_a_new_match_leaves_the_default_names_out_of_the_form(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.context.add_cookies([{"name": "gammon_lang", "value": "pl", "url": shared.url}])
    page.goto(shared.url + "/")
    page.check('input[name=mode][value="local"]')
    page.select_option("select[name=match_length]", "1")
    page.fill("input[name=name]", "Ala")  # a name chosen stays; Black keeps the default
    page.click("#start")
    page.wait_for_url("**/play/**")
    st = _finish_by_resigning(page, random.Random(3))
    assert st["match_over"] and st["names"] == ["Ala", "Black"]
    page.click('button[data-local="new-match"]')
    page.wait_for_url(lambda url: "/play/" not in url)
    page.wait_for_function("() => document.querySelector('input[name=name]').value === 'Ala'")
    assert page.input_value("input[name=opponent_name]") == ""
    assert page.get_attribute("input[name=opponent_name]", "placeholder") == "Czarny"
    page.click("#start")
    page.wait_for_url("**/play/**")
    assert _state(page)["names"] == ["Ala", "Black"]  # the default, shown as "Czarny"
    assert page.text_content("#player-top .name") == "Czarny"
    assert not errors


def test_a_replay_labels_the_sides_as_its_board_is_drawn(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local", length="3")
    rng = random.Random(4)
    st = _finish_by_resigning(page, rng)
    page.click('button[data-action="new_game"]')
    _wait_change(page, st["version"])
    page.check("#flip")
    st = _until(page, rng, "st.turn === 1 && (st.phase === 'roll' || st.phase === 'move')")
    assert st["viewer"] == 1 and page.text_content("#side-bottom").startswith(" Black: dark")
    page.click('button[data-local="replay"]')
    page.wait_for_function("() => ui.replay !== null")
    # the frames are drawn from White's side: White's box and label are at the bottom
    assert page.locator("#player-bottom .swatch.light").count() == 1
    assert page.text_content("#player-bottom .name") == "White"
    assert page.text_content("#side-bottom").startswith(" White: light")
    assert page.text_content("#side-top").startswith(" Black: dark")
    page.click('button[data-replay="exit"]')
    assert page.text_content("#side-bottom").startswith(" Black: dark")
    assert not errors


def test_the_spectators_see_no_cube_in_a_1_point_match(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "computer", length="1")
    page.wait_for_selector("#watch:not([hidden])")
    spectator = _page(browser, errors)
    spectator.goto(page.input_value("#watch-url"))
    spectator.wait_for_function("() => watch.state !== null")
    assert _cube(page) is None and _cube(spectator) is None
    assert spectator.text_content("#match-info") == page.text_content("#match-info") == "Match to 1 · game 1"
    assert not errors


def test_every_page_title_is_in_the_pages_language(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.context.add_cookies([{"name": "gammon_lang", "value": "pl", "url": shared.url}])
    titles = {"/lobby": "gammon: poczekalnia", "/account": "gammon: konto", "/drill": "gammon: ćwiczenia",
              "/editor": "gammon: edytor pozycji"}
    for path, title in titles.items():
        page.goto(shared.url + path)
        page.wait_for_function("() => document.documentElement.lang === 'pl'")
        page.wait_for_function("t => document.title === t", arg=title)
    assert not errors


def test_the_invitation_link_is_named_for_a_screen_reader(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.context.add_cookies([{"name": "gammon_lang", "value": "pl", "url": shared.url}])
    _start(page, shared, "online")
    page.wait_for_selector("#invite:not([hidden])")
    assert page.get_attribute("#invite-url", "aria-label") == "link z zaproszeniem"
    assert page.get_by_role("textbox", name="link z zaproszeniem").input_value().startswith(shared.url)
    assert not errors


def test_a_cleared_editor_links_to_no_position(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(shared.url + "/editor")
    page.wait_for_function("() => ed.position !== null && location.hash.startsWith('#id=')")
    page.click("#clear")
    assert page.evaluate("() => location.hash") == ""
    assert page.get_attribute("#position-link", "href") == "/editor"
    page.reload()  # the address opens the empty board, not the position cleared
    page.wait_for_function("() => ed.position !== null")
    assert page.text_content("#position-id") == "4HPwATDgc/ABMA"  # the start, as a new editor
    assert not errors


@pytest.mark.parametrize("lang", ["pl", "cs", "sk"])
def test_the_profiles_columns_have_distinct_headings(shared: Server, browser, lang: str) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.context.add_cookies([{"name": "gammon_lang", "value": lang, "url": shared.url}])
    page.goto(shared.url + "/account")
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
    # the headings of the profile's table of matches (profile.js), in the page's language
    words = ["date", "opponent", "length", "score", "result", "checker", "cube", "luck"]
    heads = page.evaluate("""async words => { const { t } = await import('/static/common.js');
      return words.map(w => t(w)); }""", words)
    assert len(set(heads)) == len(heads), heads
    assert not errors


def test_the_account_tables_scroll_in_their_box_on_a_phone(shared: Server, browser) -> None:  # noqa: F811
    from tests.web.test_e2e_accounts import _sign

    errors: list[str] = []
    context = browser.new_context(viewport={"width": 360, "height": 780})
    context.add_cookies([{"name": "gammon_lang", "value": "pl", "url": shared.url}])
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(shared.url + "/account")
    page.wait_for_selector("#sign-in:not([hidden])")
    _sign(page, "#do-sign-up", "phone360")
    # rows as the profile and the ratings' history write them, for a finished match
    page.evaluate("""async () => { const { addRow } = await import('/static/common.js');
      for (const id of ['#matches', '#history']) {
        const table = document.querySelector(id);
        table.replaceChildren();
        addRow(table, ['data', 'przeciwnik', 'długość', 'punkty', 'wynik', 'PR', 'pionki', 'kostka',
                       'szczęście'], true);
        addRow(table, ['2026-11-29', 'przeciwnik o długiej nazwie', 11, '11-10', 'wygrana z gammonem',
                       '12.34', '10.1', '3.2', '+12.3']);
      } }""")
    assert page.evaluate("() => document.querySelector('#matches').scrollWidth") > 360  # wider than a phone
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    context.close()
    assert not errors
