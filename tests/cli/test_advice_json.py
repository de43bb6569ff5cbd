"""``gammon eval --json`` and ``gammon rollout --json``: the JSON says what the text says."""

from __future__ import annotations

import json

import pytest

from gammon.advice import rollout_json
from gammon.cli.hint import run_eval
from gammon.cli.main import main
from gammon.engine.engine import Engine
from gammon.engine.rollout.rollouts import RolloutSettings
from gammon.formats.ids import read_id

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


FAST = ["--trials", "36", "--truncate", "2", "--seed", "5", "--workers", "1"]


def test_rollout_json_ranks_plays_in_a_match_by_match_winning_chances_as_the_text_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 1-away each (only the win counts), dice 54: 9/4 8/4 has the higher money equity (gammons),
    # 22/13 wins more; the text ranked 22/13 first, the JSON 9/4 8/4 (money order), with no MWC
    ids = "4HPwATDGPTcACA:MIEyAAAAAAAE"
    assert main(["rollout", ids, "-n", "2", *FAST]) == 0
    text = capsys.readouterr().out
    assert text.index("22/13") < text.index("9/4 8/4")
    assert main(["rollout", ids, "-n", "2", *FAST, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unit"] == "mwc"
    plays = data["plays"]
    assert [p["play"] for p in plays] == ["22/13", "9/4 8/4"]
    assert plays[0]["equity"] < plays[1]["equity"]  # the money equity, which ranked them the other way
    for p in plays:  # at 1-away each the MWC is the chance to win (less a backgammon's rare trifle)
        assert p["mwc"] == pytest.approx(p["probabilities"]["win"], abs=0.006)
        assert f"{p['mwc']:.2%}" in text
    assert main(["rollout", ids, "-n", "2", *FAST, "--cubeful", "--json"]) == 0
    cubeful = json.loads(capsys.readouterr().out)["plays"]
    assert cubeful[0]["mwc"] >= cubeful[1]["mwc"]


def test_rollout_json_ranks_money_plays_by_equity(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollout", "4HPwATDgc/ABMA", "--dice", "31", "-n", "3", *FAST, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unit"] == "equity"
    equities = [p["equity"] for p in data["plays"]]
    assert equities == sorted(equities, reverse=True) and all(p["mwc"] is None for p in data["plays"])


def test_rollout_json_without_the_context_claims_no_unit() -> None:
    # it said "unit": "equity" of plays at 1-away each, whose score it was not given
    given = read_id("4HPwATDGPTcACA:MIEyAAAAAAAE")
    settings = RolloutSettings(trials=36, seed=5, truncate=2)
    plays = Engine(plies=0).rollout_plays(given, None, 2, settings, workers=1)
    assert "unit" not in rollout_json(plays)
    assert rollout_json(plays, given)["unit"] == "mwc"


def test_rollout_json_of_plays_names_the_roll_rolled_out(capsys: pytest.CaptureFixture[str]) -> None:
    # the XGID has 64 rolled, --dice 31 is rolled out: the JSON gave only the context's 64
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:1:0:10"
    assert main(["rollout", xgid, "--dice", "31", "-n", "2", *FAST, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["context"]["dice"] == [6, 4] and data["dice"] == [3, 1]
    assert data["plays"][0]["play"] == "8/5 6/5"
    assert main(["rollout", xgid, "-n", "1", *FAST, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["dice"] == [6, 4]
