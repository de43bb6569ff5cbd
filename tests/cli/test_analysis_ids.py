"""``gammon hint`` / ``gammon eval`` with a Position ID, a GNU Backgammon ID or an XGID: the score,
cube, Crawford state and dice the ID carries are used and shown; bad IDs exit 2 quoting the input."""

from __future__ import annotations

import json
import random

import pytest

from benchmarks.gnubg_harness import states_gnubg_reads
from gammon import Position
from gammon.advice import cubeless_mwc
from gammon.cli.main import main
from gammon.engine.cube.met import match_equity
from gammon.engine.net.evaluator import Probabilities
from gammon.formats import XGID, GameState, MatchState, format_gnubg_id
from gammon.formats.ids import read_id
from gammon.situation import CubeOwner, MatchScore
from tests.helpers import needs_gnubg, pos, random_game_positions

START = "4HPwATDgc/ABMA"
# top player on roll with 52, cube 2 owned by the bottom player, bottom 2 top 4 in a 7-point match
XG = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:4:0:7:10"
XG_CONTEXT = "7-point match at 4-2 (you 3-away, opponent 5-away), cube 2 owned by the opponent"
# the same state as GNU Backgammon writes it after `set xgid` (players renumbered)
GNUBG = "4HPwATDgc/ABMA:QYnqACAAIAAE"
# 5-point match, bottom player on roll at 4 (1-away) against 2, the Crawford game
CRAWFORD = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args, "--plies", "0"])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_position_id_is_a_money_game_with_a_centred_cube(capsys) -> None:
    code, out, _ = run(capsys, "eval", START)
    assert code == 0
    assert out.splitlines()[1] == "  money game, cube 1 centred, Jacoby rule"
    assert "cube action: no double (if doubled, the opponent should take)" in out


def test_hint_takes_the_dice_from_an_xgid(capsys) -> None:
    code, out, _ = run(capsys, "hint", XG, "-n", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"Position {START}, dice 52, 0-ply")
    assert lines[1] == f"  {XG_CONTEXT}"
    legal = {str(p) for p in Position.initial().legal_plays((5, 2))}
    plays = [line.split(".", 1)[1].split("MWC")[0].strip() for line in lines[2:]]
    assert len(plays) == 3 and set(plays) <= legal
    mwc = [float(line.split("MWC")[1].split("%")[0]) for line in lines[2:]]
    assert mwc == sorted(mwc, reverse=True) and all(0 < m < 100 for m in mwc)


def test_dice_given_on_the_command_line_win(capsys) -> None:
    code, out, _ = run(capsys, "hint", XG, "31", "-n", "1")
    assert code == 0 and out.startswith(f"Position {START}, dice 31,")


def test_a_gnubg_id_and_an_xgid_of_the_same_state_give_the_same_analysis(capsys) -> None:
    assert run(capsys, "hint", GNUBG) == run(capsys, "hint", XG)
    assert run(capsys, "eval", GNUBG) == run(capsys, "eval", XG)


def test_eval_at_a_match_score(capsys) -> None:
    code, out, _ = run(capsys, "eval", XG)
    assert code == 0
    assert f"  {XG_CONTEXT}" in out.splitlines()
    assert "the roll 52 in the ID is not used" in out
    assert "cube action: no double: the opponent owns the cube" in out
    assert "match winning chances: no double" in out


def test_the_crawford_game(capsys) -> None:
    code, out, _ = run(capsys, "eval", CRAWFORD)
    assert code == 0
    assert ("5-point match at 4-2 (you 1-away, opponent 3-away), cube 1 centred, Crawford game"
            in out)
    assert "cube action: no double: no doubling in the Crawford game" in out


def test_post_crawford_the_trailer_doubles(capsys) -> None:
    trailer = str(XGID(Position.initial(), player_on_roll=1, score=(4, 3), match_length=5))
    code, out, _ = run(capsys, "eval", trailer)
    assert code == 0
    assert "5-point match at 3-4 (you 2-away, opponent 1-away), cube 1 centred, post-Crawford" in out
    assert "cube action: double, " in out


def test_a_dead_cube_owned_by_you(capsys) -> None:
    dead = str(XGID(Position.initial(), player_on_roll=0, score=(3, 3), match_length=5,
                    cube_value=2, cube_owner=0))
    code, out, _ = run(capsys, "eval", dead)
    assert code == 0
    assert "(you 2-away, opponent 2-away), cube 2 owned by you" in out
    assert "cube action: no double: the cube is dead at this score" in out


def test_a_double_on_offer_is_answered(capsys) -> None:
    offered = str(XGID(Position.initial(), player_on_roll=1, cube_value=2, cube_owner=1,
                       cube_action="double", jacoby=True))
    code, out, _ = run(capsys, "eval", offered)
    assert code == 0
    assert "money game, cube 2 owned by you, Jacoby rule, you have doubled to 4" in out
    assert "the double to 4 on offer: the opponent should take" in out


def test_a_money_bear_off_far_ahead_is_double_pass(capsys) -> None:
    # exact: the bear-off database decides (two rolls at most against at least four)
    code, out, _ = run(capsys, "eval", pos("x 1:2 2:2; o 6:3 5:3 4:2").id)
    assert code == 0 and "cube action: double, pass" in out


def test_hint_without_dice_anywhere_exits_2(capsys) -> None:
    code, out, err = run(capsys, "hint", START)
    assert code == 2 and out == ""
    assert f"'{START}' has no dice" in err


@pytest.mark.parametrize("text, words", [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:5:10", "'77'"),
    ("4HPwATDgc/ABMA:cAkAAAAAAAA!", "'cAkAAAAAAAA!'"),
    ("4HPwATDgc/ABMA:cAkAAAAAAAAA:1", "got '4HPwATDgc/ABMA:cAkAAAAAAAAA:1'"),
    ("not an id", "'not an id'"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:2:0:7:10", "has already won the 7-point match"),
    (format_gnubg_id(Position.initial(), MatchState(match_length=5, game_state=GameState.OVER)),
     "is over"),
])
def test_bad_ids_exit_2_quoting_the_input(capsys, text: str, words: str) -> None:
    for command in (["eval", text], ["hint", text, "31"]):
        code, out, err = run(capsys, *command)
        assert code == 2 and out == ""
        assert err.startswith("gammon: ") and words in err


def test_cubeless_mwc_scores_outcomes_with_the_match_equity_table() -> None:
    match = MatchScore(3, 5)
    certain_win = Probabilities(1.0, 0.0, 0.0, 0.0, 0.0)
    assert cubeless_mwc(certain_win, match, 2) == pytest.approx(match_equity(1, 5))
    assert cubeless_mwc(Probabilities(1.0, 1.0, 0.0, 0.0, 0.0), match, 2) == 1.0  # a gammon: 4 points
    half = Probabilities(0.5, 0.0, 0.0, 0.0, 0.0)
    assert cubeless_mwc(half, match, 1) == pytest.approx(
        (match_equity(2, 5) + match_equity(3, 4)) / 2)


@needs_gnubg
def test_who_is_on_roll_score_and_cube_agree_with_gnubg() -> None:
    """GNU Backgammon reads each ID (``set xgid`` / ``set gnubgid``): the player on roll's position,
    both scores, the cube and its owner seen from the player on roll, Crawford, Jacoby and dice."""
    rng = random.Random(7)
    positions = random_game_positions(3, 2)
    cases = []
    for _ in range(80):
        length = rng.choice([0, 3, 5, 7, 11])
        score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
        # the Crawford flag: at match point (cube 1), and sometimes where it means nothing
        crawford = bool(length) and rng.random() < 0.4 and (length - 1 in score or rng.random() < 0.3)
        if score == (length - 1, length - 1):
            crawford = False  # at double match point gnubg keeps a stale flag (gammon.formats.xgid)
        fresh = crawford and length - 1 in score
        x = XGID(position=rng.choice(positions), player_on_roll=rng.randrange(2),
                 cube_value=1 if fresh else 1 << rng.randrange(4),
                 cube_owner=None if fresh else rng.choice([None, 0, 1]),
                 dice=None if rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6)),
                 score=score, match_length=length, crawford=crawford,
                 jacoby=not length and rng.random() < 0.5)
        text = str(x) if rng.random() < 0.5 else format_gnubg_id(x.position, x.to_match_state())
        cases.append(text)
    got = states_gnubg_reads(cases)
    assert len(got) == len(cases)
    for text, (position_id, move, score, length, cube, owner, crawford, jacoby, dice) in zip(cases, got):
        c = read_id(text)
        assert c.position.id == position_id, text
        assert (c.match_length, c.score) == (length, (score[move], score[1 - move])), text
        expected_owner = (CubeOwner.CENTRED if owner == -1 else
                          CubeOwner.MOVER if owner == move else CubeOwner.OPPONENT)
        assert (c.cube_value, c.cube_owner) == (cube, expected_owner), text
        assert bool(c.match and c.match.crawford_game) == bool(crawford), text
        if not length:
            assert c.jacoby == bool(jacoby), text
        assert (sorted(c.dice) if c.dice else [0, 0]) == dice, text


def test_a_match_longer_than_the_equity_table_is_evaluated(capsys) -> None:
    """The table stops at 25 away; a 30-point match goes on by its pattern (gammon.engine.cube.met)."""
    code, out, err = run(capsys, "eval", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:30:10")
    assert code == 0, err
    assert "30-point match at 0-0" in out and "cube action: no double" in out


# The cube out of the player on roll's hands: its opponent's, the Crawford game, dead, at the limit
NO_CUBE_IDS = {
    "the opponent owns the cube": "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:0:0:10",
    "no doubling in the Crawford game": CRAWFORD,
    "the cube is dead at this score": "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:3:0:5:10",
    "the cube is at its limit of 4": "XGID=-b----E-C---eE---c-e----B-:2:1:1:00:0:0:0:0:2",
}


@pytest.mark.parametrize("why", list(NO_CUBE_IDS))
def test_eval_shows_no_double_the_player_on_roll_cannot_make(capsys, why: str) -> None:
    """With the cube out of its hands, the player on roll was shown the equities of a double it
    cannot make ('no double: the opponent owns the cube' over 'double/take -0.164, double/pass
    +1.000'), in the text and in --json."""
    code, out, _ = run(capsys, "eval", NO_CUBE_IDS[why])
    assert code == 0
    assert f"cube action: no double: {why}" in out
    assert "double/" not in out
    equity = next(line for line in out.splitlines() if "cubeful equity" in line)
    assert equity.split(": ")[-1].startswith("no double ") and "," not in equity
    code, out, _ = run(capsys, "eval", NO_CUBE_IDS[why], "--json")
    cube = json.loads(out)["cube"]
    assert code == 0 and not cube["available"]
    assert cube["double_take"] is None and cube["double_pass"] is None and cube["answer"] is None
    assert isinstance(cube["no_double"], float)
    if cube["mwc"] is not None:
        assert cube["mwc"][1:] == [None, None] and isinstance(cube["mwc"][0], float)


def test_eval_still_shows_the_double_the_player_on_roll_can_make(capsys) -> None:
    code, out, _ = run(capsys, "eval", START, "--json")
    cube = json.loads(out)["cube"]
    assert code == 0 and cube["available"] and cube["answer"] in ("take", "pass", "beaver")
    assert all(isinstance(cube[k], float) for k in ("no_double", "double_take", "double_pass"))


def test_a_1_point_match_has_no_crawford_game(capsys) -> None:
    """A GNU Backgammon ID of a 1-point match with the Crawford flag: described, and its cube
    explained, as a Crawford game, which a 1-point match does not have."""
    code, out, _ = run(capsys, "eval", "4HPwATDgc/ABMA:sAEgAAAAAAAA")
    assert code == 0 and "Crawford" not in out
    assert "  1-point match at 0-0 (you 1-away, opponent 1-away), cube 1 centred" in out.splitlines()
    assert "cube action: no double: the cube is dead at this score" in out
