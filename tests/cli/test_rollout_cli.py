"""``gammon rollout`` in process: the table it prints agrees with Engine.rollout for the same
settings; plays, cube decisions, GNU Backgammon IDs and XGIDs; bad input is quoted."""

from __future__ import annotations

import re

import pytest

from gammon import Position
from gammon.cli.main import build_parser, main
from gammon.engine.engine import Engine
from gammon.engine.rollout.rollouts import RolloutSettings
from gammon.errors import InvalidNotationError
from gammon.formats.ids import read_id
from gammon.situation import CubeOwner, MatchScore, Situation

START = "4HPwATDgc/ABMA"
FAST = ["--trials", "36", "--truncate", "2", "--seed", "5", "--workers", "1"]
SETTINGS = RolloutSettings(trials=36, seed=5, truncate=2)  # as FAST


def number(text: str, label: str) -> float:
    match = re.search(re.escape(label) + r"\s*│\s*([+-]?[\d.]+)", text)
    assert match, text
    return float(match.group(1))


def test_position_rollout_prints_the_engine_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollout", START, *FAST]) == 0
    out = capsys.readouterr().out
    expected = Engine(plies=0).rollout(Position.from_id(START), SETTINGS, workers=1)
    assert f"Rollout of {START}, 0-ply, 36 trials, seed 5" in out
    assert number(out, "cubeless equity") == pytest.approx(expected.cubeless_equity, abs=5e-5)
    assert number(out, "win") == pytest.approx(100 * expected.probabilities.win, abs=5e-3)


def test_plays_rollout_lists_legal_plays_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollout", START, "--dice", "31", "-n", "3", *FAST]) == 0
    out = capsys.readouterr().out
    legal = {str(p) for p in Position.initial().legal_plays((3, 1))}
    rows = re.findall(r"│ (\d) │ (.+?)\s+│ ([+-][\d.]+) │", out)
    assert [r[0] for r in rows] == ["1", "2", "3"]
    assert {r[1] for r in rows} <= legal
    equities = [float(r[2]) for r in rows]
    assert equities == sorted(equities, reverse=True)


def test_cube_rollout_at_a_match_score_from_a_gnubg_id(capsys: pytest.CaptureFixture[str]) -> None:
    # 7-point match at 4-2: the player on roll (player 1, 2 points) needs 5, the opponent 3
    gnubg_id = "4HPwATDgc/ABMA:cAngAEAAEAAA"
    given = read_id(gnubg_id)
    assert given.match == MatchScore(5, 3) and given.cube_owner is CubeOwner.CENTRED
    assert main(["rollout", gnubg_id, "--cube", *FAST]) == 0
    out = capsys.readouterr().out
    assert "match winning chance" in out
    at = Situation.at(Position.initial(), match=MatchScore(5, 3))
    decision = Engine(plies=0).rollout_cube(at, SETTINGS, workers=1).decision
    assert number(out, "no double") == pytest.approx(decision.no_double, abs=5e-5)
    assert f"{decision.action.value}; the opponent should {'take' if decision.take else 'pass'}" in out


def test_stop_at_se_stops_early(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollout", START, "--trials", "288", "--truncate", "1", "--stop-at-se", "1",
                 "--seed", "1", "--workers", "1"]) == 0
    assert "144 trials" in capsys.readouterr().out


def test_xgid_cube_and_dice_are_read() -> None:
    # the bottom player on roll owns a 2-cube and has rolled 64; money, Jacoby on
    given = read_id("XGID=-b----E-C---eE---c-e----B-:1:1:1:64:0:0:1:0:10")
    assert given.position == Position.initial() and given.dice == (6, 4)
    assert (given.cube_value, given.cube_owner, given.match, given.jacoby) == (2, CubeOwner.MOVER, None, True)


def test_bad_input_is_quoted_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rollout", "not-an-id!!", *FAST]) == 2
    assert "'not-an-id!!'" in capsys.readouterr().err
    assert main(["rollout", START, "--dice", "71", *FAST]) == 2
    assert "'71'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["rollout", START, "--trials", "0"])
    assert "'0' must be at least 1" in capsys.readouterr().err
    with pytest.raises(InvalidNotationError, match="XGID"):
        read_id("XGID=-b----E-C---eE---c-e----B-:0:0:1")


def test_json_gives_the_engine_result_for_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["rollout", START, *FAST, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # the whole output is one object
    expected = Engine(plies=0).rollout(Position.from_id(START), SETTINGS, workers=1)
    assert data["kind"] == "position" and data["trials"] == 36 and data["seed"] == 5
    assert data["cubeless_equity"] == pytest.approx(expected.cubeless_equity, abs=1e-12)
    assert data["standard_error"] == pytest.approx(expected.standard_error.equity, abs=1e-12)
    assert data["context"]["position_id"] == START
    assert main(["rollout", START, "--dice", "31", "-n", "2", *FAST, "--json"]) == 0
    plays = json.loads(capsys.readouterr().out)["plays"]
    assert len(plays) == 2 and plays[0]["equity"] >= plays[1]["equity"]
    assert {p["play"] for p in plays} <= {str(p) for p in Position.initial().legal_plays((3, 1))}
    assert main(["rollout", START, "--cube", *FAST, "--json"]) == 0
    cube = json.loads(capsys.readouterr().out)
    assert cube["kind"] == "cube" and cube["decision"]["action"] and cube["double_take"]["cubeful"]


def test_a_number_of_trials_past_the_limit_is_refused_before_rolling_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # it used to be taken: the batches of 10**23 trials were listed first, gigabytes, and no end
    parser = build_parser()
    for trials in ("1000001", "9" * 500):
        with pytest.raises(SystemExit) as stop:
            parser.parse_args(["rollout", START, "--trials", trials])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert f"argument --trials: '{trials[:20]}" in err and "is more than 1,000,000" in err
        assert len(err) < 1000
    assert parser.parse_args(["rollout", START, "--trials", "1000000"]).trials == 1_000_000


def test_plays_are_not_rolled_out_while_a_double_awaits_its_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doubled = "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:2:3:0:7:10"
    assert main(["rollout", doubled, "--dice", "31", *FAST]) == 2
    err = capsys.readouterr().err
    assert f"'{doubled}': a double is on offer; it is answered before the roll" in err
    assert main(["rollout", doubled, "--cube", *FAST]) == 0  # the double itself is rolled out


def test_a_roll_with_no_legal_play_is_named_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    # two on the bar against a closed board: it said 'dice (3, 1)'
    closed = "27YdAADg/wMAYA"
    assert main(["rollout", closed, "--dice", "31", *FAST]) == 0
    assert capsys.readouterr().out.startswith(f"Position {closed}, dice 31: no legal play")


def test_plays_at_a_match_score_are_ranked_by_match_winning_chances(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 1-away each (only the win counts), dice 54: 9/4 8/4 has the higher money equity (gammons),
    # 22/13 wins more; the table ranked by money equity put 9/4 8/4 first
    assert main(["rollout", "4HPwATDGPTcACA:MIEyAAAAAAAE", "-n", "2", *FAST]) == 0
    rows = [line.split("│") for line in capsys.readouterr().out.splitlines() if re.match(r"│ [12] │", line)]
    assert [row[2].strip() for row in rows] == ["22/13", "9/4 8/4"]
    mwc = [float(row[3].strip().rstrip("%")) for row in rows]
    wins = [float(row[7].strip().rstrip("%")) for row in rows]
    assert mwc == pytest.approx(wins, abs=0.06)  # at 1-away each the MWC is the chance to win
    assert float(rows[0][4]) < float(rows[1][4])  # the money equity, which ranked them the other way
    assert float(rows[1][6].strip().rstrip("%")) == pytest.approx(mwc[1] - mwc[0], abs=0.011)


def test_dice_with_cube_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # a cube decision comes before the roll: --dice would be ignored without a word
    with pytest.raises(SystemExit) as stop:
        main(["rollout", START, "--dice", "31", "--cube", *FAST])
    assert stop.value.code == 2
    assert "argument --cube: not allowed with argument --dice" in capsys.readouterr().err


def test_a_bad_standard_error_is_refused_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["rollout", START, "--stop-at-se", "0"])
    assert "argument --stop-at-se: expected a standard error > 0, got '0'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--lang", "cs", "rollout", START, "--stop-at-se", "x" * 500])
    err = capsys.readouterr().err
    assert "expected" not in err and "'xxx" in err and len(err) < 1000  # translated, quoted cut


def test_a_cube_rollout_with_beavers_says_the_opponent_should_beaver(
        capsys: pytest.CaptureFixture[str]) -> None:
    # far behind in a race, beavers allowed (the XGID's 3: Jacoby and beavers): gammon eval says
    # beaver, the rollout said "the opponent should take"
    behind = "XGID=-----CCCCC-------cbdcc----:0:0:1:00:0:0:3:0:10"
    assert main(["rollout", behind, "--cube", "--trials", "3", "--truncate", "0", "--workers", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "no double; the opponent should beaver"
