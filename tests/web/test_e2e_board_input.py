"""End to end, the game page's board moved by other means than clicks: a checker dragged with the
mouse or a finger, and the board played from the keyboard, in headless Chromium against the real
server (one server for the module)."""

from __future__ import annotations

import os

import pytest

from tests.web.test_e2e import (
    CHROMIUM,
    Server,
    _page,
    _start,
    _state,
    _wait_change,
    browser,  # noqa: F401  (a fixture)
    module_server,
)

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent")

shared = module_server("board-input")

# With 2-1 the checker on 24 goes to 21 two ways; the first the server lists hits the blot on 23.
TWO_ONE = """() => {
    const board = new Array(26).fill(0);
    board[24] = 2; board[23] = -1; board[6] = 13; board[1] = -14;
    Object.assign(ui.state, { board, dice: [2, 1], turn: ui.state.viewer, phase: 'move',
      plays: ['24/23*/21', '24/21', '24/22 6/5'],
      sequences: [{ play: 0, steps: [[24, 23], [23, 21]] }, { play: 1, steps: [[24, 22], [22, 21]] },
                  { play: 2, steps: [[24, 22], [6, 5]] }] });
    ui.partial = []; ui.chunks = []; ui.selected = null;
    render();
}"""

# Bearing off with 6-5 from 5 and 3.
BEAR_OFF = """() => {
    const board = new Array(26).fill(0);
    board[5] = 1; board[3] = 1; board[20] = -15;
    Object.assign(ui.state, { board, off: [13, 0], dice: [6, 5], turn: ui.state.viewer, phase: 'move',
      plays: ['5/off 3/off'],
      sequences: [{ play: 0, steps: [[5, 'off'], [3, 'off']] },
                  { play: 0, steps: [[3, 'off'], [5, 'off']] }] });
    ui.partial = []; ui.chunks = []; ui.selected = null;
    render();
}"""


def _centre(page, target: str | int) -> tuple[float, float]:
    box = page.locator(f'rect.target[data-target="{target}"]').bounding_box()
    assert box is not None, target
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _drag(page, src: str | int, dst: str | int) -> None:
    (x0, y0), (x1, y1) = _centre(page, src), _centre(page, dst)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=8)
    page.mouse.up()


def _game(chromium, **context):  # noqa: ANN001, ANN202  (the browser; a page and its errors)
    errors: list[str] = []
    page = _page(chromium, errors) if not context else chromium.new_context(**context).new_page()
    if context:
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(15_000)
    return page, errors


def _set(page, shared: Server, position: str) -> None:
    _start(page, shared, "local")
    _state(page)
    page.evaluate(position)


def test_a_checker_dragged_to_a_point_moves_there(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(browser)
    _set(page, shared, TWO_ONE)
    _drag(page, 24, 21)
    # the steps a click there makes: of two orders as short, the one that hits nothing
    assert page.evaluate("() => ui.partial") == [[24, 22], [22, 21]]
    assert page.evaluate("() => [ui.state.board[24], ui.selected]") == [2, None]
    assert page.locator("#board g.dragged").count() == 0
    assert page.is_visible('button[data-local="done"]')
    assert page.text_content("#error") == ""
    assert not errors


def test_a_checker_dragged_where_it_cannot_go_goes_back(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(browser)
    _set(page, shared, TWO_ONE)
    _drag(page, 24, 20)
    assert page.evaluate("() => [ui.partial, ui.selected]") == [[], None]
    assert page.text_content("#error") == "That checker cannot go there"
    assert page.locator("#board g.dragged, #board .checker.lifted").count() == 0
    # a checker that is not the mover's does not lift
    _drag(page, 23, 22)
    assert page.evaluate("() => ui.partial") == []
    # the next move clears the word
    _drag(page, 24, 23)
    assert page.evaluate("() => ui.partial") == [[24, 23]]
    assert page.text_content("#error") == ""
    assert not errors


def test_a_drag_moves_the_checker_dragged_not_the_one_picked(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(browser)
    _set(page, shared, TWO_ONE)
    page.evaluate(
        """() => {
        const board = new Array(26).fill(0);
        board[24] = 1; board[22] = 1; board[6] = 13; board[1] = -15;
        Object.assign(ui.state, { board, plays: ['24/22 22/21', '22/20 24/23'],
          sequences: [{ play: 0, steps: [[24, 22], [22, 21]] }, { play: 1, steps: [[22, 20], [24, 23]] }] });
        render();
    }"""
    )
    page.click('rect.target[data-target="24"]')  # picked: 22 is where it may go
    _drag(page, 22, 20)
    assert page.evaluate("() => ui.partial") == [[22, 20]]
    assert not errors


def test_a_checker_dragged_to_the_tray_is_borne_off(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(browser)
    _set(page, shared, BEAR_OFF)
    _drag(page, 5, "off")
    assert page.evaluate("() => ui.partial") == [[5, "off"]]
    _drag(page, 3, "off")
    assert page.evaluate("() => ui.partial") == [[5, "off"], [3, "off"]]
    assert page.is_visible('button[data-local="done"]')
    assert not errors


def test_a_checker_dragged_with_a_finger(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(
        browser,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    _set(page, shared, TWO_ONE)
    page.locator("#board").scroll_into_view_if_needed()
    (x0, y0), (x1, y1) = _centre(page, 24), _centre(page, 21)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for k in range(1, 9):
        x, y = x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("() => ui.partial.length > 0")
    assert page.evaluate("() => ui.partial") == [[24, 22], [22, 21]]
    # a tap is still a click: the checker is picked
    page.tap('button[data-local="undo"]')
    page.tap('rect.target[data-target="24"]')
    assert page.evaluate("() => ui.selected") == 24
    assert not errors


def test_clicks_still_move_checkers(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(browser)
    _set(page, shared, TWO_ONE)
    # a press that moves a few pixels is a click, not a drag
    x, y = _centre(page, 24)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 3, y + 2)
    page.mouse.up()
    assert page.evaluate("() => ui.selected") == 24
    page.click('rect.target[data-target="21"]')
    assert page.evaluate("() => [ui.partial, ui.selected]") == [[[24, 22], [22, 21]], None]
    assert page.text_content("#error") == ""
    assert not errors


ROWS = [
    [13, 14, 15, 16, 17, 18, "bar", 19, 20, 21, 22, 23, 24, "off"],
    [12, 11, 10, 9, 8, 7, "bar", 6, 5, 4, 3, 2, 1, "off"],
]


def _focused(page) -> str | int:
    key = page.evaluate("() => document.activeElement.dataset.target")
    assert key is not None, "the focus is not on the board"
    return int(key) if key.isdigit() else key


def _key_to(page, goal: str | int) -> None:
    """Move the board's focus to `goal` with the arrow keys alone."""
    at = _focused(page)
    col = ROWS[0].index(at) if at in ROWS[0] else ROWS[1].index(at)  # the bar and tray: one column in both
    row = 0 if goal in ROWS[0] and not (goal in ROWS[1] and at in ROWS[1]) else 1
    page.keyboard.press("ArrowUp" if row == 0 else "ArrowDown")
    there = ROWS[row].index(goal)
    for _ in range(abs(there - col)):
        page.keyboard.press("ArrowRight" if there > col else "ArrowLeft")
    assert _focused(page) == goal


def test_the_keyboard_plays_a_whole_move(shared: Server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    _start(page, shared, "local")
    st = _state(page)
    if "roll" in st["actions"]:
        page.click('button[data-action="roll"]')
        _wait_change(page, st["version"])
    st = _state(page)
    assert "play" in st["actions"], st["actions"]
    # each point says what is on it; the first of the roving focus is a checker to move
    first = page.locator('#board rect.target[tabindex="0"]')
    assert first.count() == 1
    assert "a checker to move" in (first.get_attribute("aria-label") or "")
    light = page.evaluate("() => ui.state.viewer === 0")
    six = page.get_attribute('rect.target[data-target="6"]', "aria-label") or ""
    assert six.startswith(f"point 6, 5 {'light' if light else 'dark'} checkers"), six
    assert page.get_attribute('rect.target[data-target="off"]', "aria-label") == "borne off: 0 light, 0 dark"
    first.focus()
    page.keyboard.press("ArrowLeft")
    # the focus is seen
    assert page.evaluate("() => getComputedStyle(document.activeElement).stroke") != "none"
    seq = st["sequences"][0]
    # Escape puts a picked checker back
    _key_to(page, seq["steps"][0][0])
    page.keyboard.press("Enter")
    assert page.evaluate("() => ui.selected") == seq["steps"][0][0]
    page.keyboard.press("Escape")
    assert page.evaluate("() => ui.selected") is None
    for src, dst in seq["steps"]:
        _key_to(page, src)
        page.keyboard.press("Enter")
        assert page.evaluate("() => ui.selected") == src
        _key_to(page, dst)
        page.keyboard.press(" ")
    assert page.evaluate("() => ui.partial") == seq["steps"]
    page.focus('button[data-local="done"]')
    page.keyboard.press("Enter")
    _wait_change(page, st["version"])
    assert page.text_content("#error") == ""
    assert not errors


def test_the_board_is_named_in_the_pages_language(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(
        browser, locale="pl-PL", viewport={"width": 1280, "height": 760}, reduced_motion="reduce"
    )
    _set(page, shared, TWO_ONE)

    def name(target: str | int) -> str | None:
        return page.get_attribute(f'rect.target[data-target="{target}"]', "aria-label")

    assert name(6) == "pole 6, 13 jasnych pionków"
    assert name(24) == "pole 24, 2 jasne pionki; pionek do ruchu"
    assert name(23) == "pole 23, 1 ciemny pionek"
    assert name("bar") == "banda: jasne 0, ciemne 0"
    _drag(page, 24, 20)
    assert page.text_content("#error") == "Ten pionek nie może tam przejść"
    assert not errors


def test_a_checker_put_by_the_keyboard_where_it_cannot_go_stays(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(browser)
    _set(page, shared, TWO_ONE)
    page.focus('#board rect.target[tabindex="0"]')
    assert _focused(page) == 24  # the roving focus starts on a checker to move
    page.keyboard.press("Enter")
    assert (
        page.get_attribute('rect.target[data-target="24"]', "aria-label")
        == "point 24, 2 light checkers; picked"
    )
    assert (
        page.get_attribute('rect.target[data-target="21"]', "aria-label")
        == "point 21, empty; a checker can go here"
    )
    _key_to(page, 20)
    page.keyboard.press("Enter")
    assert page.evaluate("() => [ui.partial, ui.selected]") == [[], None]
    assert page.text_content("#error") == "That checker cannot go there"
    _key_to(page, 24)
    page.keyboard.press("Enter")
    _key_to(page, 21)
    page.keyboard.press("Enter")
    assert page.evaluate("() => ui.partial") == [[24, 22], [22, 21]]
    assert page.text_content("#error") == ""
    assert not errors


def test_a_checker_dragged_from_the_bar(shared: Server, browser) -> None:  # noqa: F811
    page, errors = _game(browser)
    _set(page, shared, TWO_ONE)
    page.evaluate(
        """() => {
        const board = new Array(26).fill(0);
        board[25] = 1; board[6] = 14; board[1] = -15;
        Object.assign(ui.state, { board, dice: [3, 1], plays: ['bar/22 6/5'],
          sequences: [{ play: 0, steps: [['bar', 22], [6, 5]] }] });
        render();
    }"""
    )
    _drag(page, "bar", 21)  # 21 is a step on from 22, which the play does not take
    assert page.evaluate("() => ui.partial") == []
    assert page.text_content("#error") == "That checker cannot go there"
    _drag(page, "bar", 22)
    assert page.evaluate("() => ui.partial") == [["bar", 22]]
    assert not errors
