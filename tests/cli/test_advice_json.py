"""``gammon eval --json`` and ``gammon rollout --json``: the JSON says what the text says."""

from __future__ import annotations

import json

import pytest

from gammon.cli.hint import run_eval
from gammon.cli.main import main
from gammon.engine.engine import Engine

# You (on roll) have 15 checkers on your 13-15 points, the opponent 15 in its home board, none
# off: you lose a gammon all but surely. The Match IDs put a resignation on offer from you.
LOST = "d3cHAAAA8H0fAA"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=0)


@pytest.mark.parametrize(
    ("match_id", "kind", "points", "answer", "unit"),
    [
        ("MCkAAAAAAAAA", "single", 1, "accept", "equity"),  # money, Jacoby: the gammon counts single
        ("MClgAAAAAAAE", "single", 1, "reject", "mwc"),  # 3-away each: the gammon coming is worse
        ("MGlgAAAAAAAE", "backgammon", 3, "accept", "mwc"),
    ],
)
def test_eval_json_answers_the_resignation_on_offer_as_the_text_does(
    engine: Engine, match_id: str, kind: str, points: int, answer: str, unit: str
) -> None:
    # the JSON had no word of the resignation, which the text answers
    text = run_eval(f"{LOST}:{match_id}", engine=engine).splitlines()[-1]
    assert f"({points} point" in text and f"the opponent should {answer};" in text
    data = json.loads(run_eval(f"{LOST}:{match_id}", engine=engine, as_json=True))
    resignation = data["resignation"]
    assert (resignation["kind"], resignation["points"], resignation["answer"], resignation["unit"]) == (
        kind, points, answer, unit)
    assert (resignation["resigned"] <= resignation["playing_on"]) == (answer == "accept")
    if unit == "mwc":
        assert f"your match winning chances are {resignation['playing_on']:.1%}" in text
    else:
        assert f"playing on is worth {resignation['playing_on']:+.3f} to you" in text


def test_eval_json_without_a_resignation_says_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", f"{LOST}:cAkAAAAAAAAA", "--plies", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["resignation"] is None
