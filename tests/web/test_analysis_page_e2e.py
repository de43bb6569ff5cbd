"""The /analysis page in headless Chromium, on a canned analysis: the page's files are served from
gammon/web/static and the analysis job's answers from the analysis of a hand-worked match (pip-count
engine), so no server and no engine run: the layout and the clicks are what is tested."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from urllib.parse import urlparse

import pytest

from gammon import Rules
from gammon.analysis import analyse
from gammon.web.study_work import analysis_json
from tests.analysis.games import blunder_game, forced_game, pip_engine
from tests.web.test_e2e import browser  # noqa: F401  (fixture)

STATIC = Path(__file__).resolve().parents[2] / "gammon/web/static"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


@pytest.fixture(scope="module")
def result() -> dict:
    rules = Rules(match_length=5)
    games = [blunder_game(rules), forced_game(rules, score=(0, 1))] * 8  # a long list of marks
    data = analysis_json(analyse(games, pip_engine(), names=("Ann", "Bo")))
    return json.loads(json.dumps(data))  # as the page gets it


def canned_routes(result: dict):
    """The page's routes without a server: its files from gammon/web/static, and an analysis job
    that is done at once with ``result``."""

    def serve(route) -> None:
        path = urlparse(route.request.url).path
        if path == "/analysis":
            path = "/static/analysis.html"
        if path.startswith("/static/"):
            file = STATIC / path.removeprefix("/static/")
            route.fulfill(status=200, body=file.read_bytes(), content_type=TYPES[file.suffix])
        elif path == "/api/analyses":
            route.fulfill(status=202, json={"id": "job1", "status": "queued", "done": 0, "total": 0})
        elif path == "/api/jobs/job1":
            done = {"id": "job1", "status": "done", "done": 1, "total": 1, "result": result}
            route.fulfill(status=200, json=done)
        else:
            route.fulfill(status=404, json={"error": "not here"})

    return serve


def _open(browser, result: dict, width: int = 1280, height: int = 760):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    page.route("http://gammon.test/**", canned_routes(result))
    page.goto("http://gammon.test/analysis")
    return page, errors


def _analyse(page, tmp_path: Path) -> None:
    upload = tmp_path / "match.mat"
    upload.write_text("a match file (the answers are canned)\n")
    page.set_input_files("#mat-file", str(upload))
    page.click("#analyse")
    page.wait_for_selector("#report:not([hidden])")


def test_the_page_has_no_horizontal_overflow_at_390_px(browser, result, tmp_path) -> None:  # noqa: F811
    page, errors = _open(browser, result, width=390, height=844)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    _analyse(page, tmp_path)
    page.click("#marked li >> nth=0")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert not errors


def test_a_clicked_decision_is_scrolled_into_view_and_shown_selected(browser, result, tmp_path) -> None:  # noqa: F811
    page, errors = _open(browser, result)
    _analyse(page, tmp_path)
    items = page.locator("#marked li")
    assert items.count() >= 8
    item = items.nth(items.count() - 1)
    item.click()
    viewport = page.evaluate("() => innerHeight")
    board = page.locator("#decision-board").bounding_box()
    assert board is not None and 0 <= board["y"] < viewport * 0.5, board  # its top in view
    assert item.get_attribute("aria-current") == "true"
    assert page.locator('#marked li[aria-current="true"]').count() == 1
    # the selection shows: a background of its own, unlike the other items
    colours = page.evaluate("""() => Array.from(document.querySelectorAll('#marked li'))
        .map(li => getComputedStyle(li).backgroundColor)""")
    assert colours[-1] != colours[0]
    assert not errors


def test_decisions_are_named_by_the_files_move_numbers(browser, result, tmp_path) -> None:  # noqa: F811
    page, errors = _open(browser, result)
    _analyse(page, tmp_path)
    index = int(page.locator("#marked li >> nth=0").get_attribute("data-index"))
    d = result["decisions"][index]
    text = page.locator("#marked li >> nth=0").inner_text()
    assert text.startswith(f"Game {d['game']}, move {d['move']}: ")
    assert not errors


def test_the_page_says_the_depth_and_asks_the_terminals_by_default(browser, result, tmp_path) -> None:  # noqa: F811
    from gammon.analysis import DEFAULT_PLIES

    page, errors = _open(browser, result)
    assert page.input_value("#plies") == str(DEFAULT_PLIES)  # one default depth, the terminal's
    _analyse(page, tmp_path)
    assert page.text_content("#title").endswith(f"analysed at {result['plies']} ply")
    move = next(i for i, d in enumerate(result["decisions"]) if d["mark"] and d["kind"] == "move")
    page.click(f'#marked li[data-index="{move}"]')  # and each alternative's own depth
    assert page.locator("#alternatives tr >> nth=0").locator("td").all_inner_texts()[-1] == "ply"
    assert page.locator("#alternatives tr[data-play] >> nth=0").locator("td").all_inner_texts()[-1] == str(
        result["decisions"][move]["alternatives"][0]["plies"]
    )
    assert not errors


def test_a_checker_play_lists_the_best_five_and_a_cube_action_its_three_equities(
    browser,  # noqa: F811
    result,
    tmp_path,
) -> None:
    result = copy.deepcopy(result)
    cube = next(i for i, d in enumerate(result["decisions"]) if d["kind"] == "cube")
    result["decisions"][cube]["mark"] = "doubtful"  # listed, as a wrong cube action would be
    page, errors = _open(browser, result)
    _analyse(page, tmp_path)
    index = next(
        i
        for i, d in enumerate(result["decisions"])
        if d["mark"] and d["kind"] == "move" and d["legal_plays"] >= 5
    )
    d = result["decisions"][index]
    page.click(f'#marked li[data-index="{index}"]')
    rows = page.locator("#alternatives tr[data-play]")
    assert rows.count() >= 5 and page.locator("#alternatives tr.played").count() == 1
    best = d["alternatives"][0]["equity"]
    for k in range(1, 5):  # each with its equity and its difference to the best
        cells = rows.nth(k).locator("td").all_inner_texts()
        assert cells[2] == f"{d['alternatives'][k]['equity']:.3f}"
        assert cells[3] == f"{d['alternatives'][k]['equity'] - best:.3f}"
    page.click(f'#marked li[data-index="{cube}"]')
    e = result["decisions"][cube]["equities"]
    right = max(e["no_double"], min(e["double_take"], e["double_pass"]))
    shown = {
        tr.get_attribute("data-action"): tr.locator("td").all_inner_texts()
        for tr in page.locator("#alternatives tr[data-action]").all()
    }
    assert list(shown) == ["No double", "Double, take", "Double, pass"]
    for label, key in (
        ("No double", "no_double"),
        ("Double, take", "double_take"),
        ("Double, pass", "double_pass"),
    ):
        assert shown[label][2:] == [f"{e[key]:.3f}", f"{e[key] - right:.3f}"]
    assert not errors


def test_the_html_report_puts_each_decisions_heading_above_its_board(browser) -> None:  # noqa: F811
    """At 1280 px a decision reads heading first, then its alternatives with the board beside them."""
    from gammon.analysis.report_html import render_html

    rules = Rules(match_length=5)
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_content(render_html(analyse([blunder_game(rules)], pip_engine(), names=("Ann", "Bo"))))
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll('.decision')).map(div => {
        const box = e => e.getBoundingClientRect();
        const [h, t] = [div.querySelector('h3'), div.querySelector('table')];
        const b = div.querySelector('svg.board');
        return {head: box(h).bottom, table: box(t).top, tableRight: box(t).right, boardTop: box(b).top,
                boardLeft: box(b).left};
    })""")
    assert boxes
    for b in boxes:
        assert b["head"] <= b["boardTop"] and b["head"] <= b["table"]
        assert b["tableRight"] <= b["boardLeft"]  # beside its alternatives, at this width
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280


def test_the_html_reports_chart_draws_no_game_label_over_another(browser) -> None:  # noqa: F811
    """A 17-point match of 15 games, some a few plays long: the labels as Chromium lays them out."""
    from gammon.analysis.svg import chart_svg

    breaks, series = [], []
    for n, length in enumerate([30, 2, 3, 25, 2, 2, 40, 3, 20, 2, 2, 2, 30, 3, 2], 1):
        breaks.append((len(series), f"Game {n}"))
        series += [0.5] * length
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_content(f"<!doctype html><body>{chart_svg(series, breaks, ('Ann', 'Bo'))}</body>")
    boxes = page.evaluate("""() => [...document.querySelectorAll('svg text')]
        .filter(t => t.textContent.startsWith('Game ')).map(t => t.getBBox())
        .map(b => ({ left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height }))""")
    assert len(boxes) >= 5
    for a, b in zip(boxes, boxes[1:]):
        side_by_side = a["right"] <= b["left"] or b["right"] <= a["left"]
        assert side_by_side or a["bottom"] <= b["top"] or b["bottom"] <= a["top"], (a, b)
