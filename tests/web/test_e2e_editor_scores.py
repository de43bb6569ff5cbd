"""End to end: the position editor's score fields take every score a set-up allows (a match goes
to 32767 points): a position of a long match filled them with a value they called invalid."""

from __future__ import annotations

import pytest

from tests.web.test_e2e import Server, _page, browser, module_server  # noqa: F401  (a fixture)

shared = module_server("editor-scores")
BOARD = "-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize("length, scores", [(201, (150, 3)), (32767, (32766, 32766))])
def test_a_long_matchs_scores_are_valid_in_the_editor(
    shared: Server, browser, length: int, scores: tuple[int, int]  # noqa: F811
) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    xgid = f"XGID={BOARD}:0:0:1:00:{scores[0]}:{scores[1]}:0:{length}:10"
    page.goto(f"{shared.url}/editor#id={xgid}")
    page.wait_for_function("() => ed.position !== null && ed.position.match_length > 0")
    fields = page.evaluate(
        "() => ['#score-you', '#score-opponent'].map(id => {"
        " const e = document.querySelector(id); return [Number(e.value), e.checkValidity()]; })"
    )
    assert fields == [[scores[0], True], [scores[1], True]]
    assert not errors
