"""A resignation offered after the roll: the resigner has dice showing and resigns instead of
playing them. Playing on is its best play of those dice, then the opponent on roll; valued as if
it were still to roll, a joker that saves the gammon and a roll that cannot were judged alike."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from benchmarks.gnubg_harness import run_gnubg
from gammon.cli.hint import run_eval
from gammon.dice import Dice
from gammon.engine.cube.resignation import judge_resignation, judged_situation, resignation_answer
from gammon.engine.engine import Engine
from gammon.engine.players import EnginePlayer
from gammon.errors import InvalidArgumentError
from gammon.formats.matchid import gnubg_id
from gammon.position import Position
from gammon.rules import Rules, WinKind
from gammon.situation import CubeOwner, Situation
from tests.helpers import needs_gnubg

NO_JACOBY = Rules(jacoby=False)
# The resigner has one checker on its 13 point and fourteen on its 6 point, none off; the opponent
# bears off its last two checkers next turn. Only 66 brings the straggler home and a checker off:
# that roll saves the gammon, every other loses it.
RACE = Position.from_points({13: 1, 6: 14}, {1: 2})
# The resigner (cube 2, its own) is on the bar against a five-point board with a blot on the
# opponent's 6 point, three checkers on its midpoint: a 6 hits, anything else dances, and the
# gammon looms.
SHOT = Position.from_points({25: 1, 13: 3, 6: 2, 5: 2, 4: 2, 3: 2, 2: 3},
                            {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1})


@dataclass
class Asked:
    """A stand-in Game whose situation() is the one given."""

    given: Situation

    def situation(self) -> Situation:
        return self.given


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=0)


def offer(dice: Dice | None, position: Position = RACE, owned: bool = False) -> Situation:
    """A single game resigned by the player on roll; ``owned``: it owns the cube, at 2."""
    cube = (2, CubeOwner.MOVER) if owned else (1, CubeOwner.CENTRED)
    return Situation(position, dice=dice, cube_value=cube[0], cube_owner=cube[1], resignation=WinKind.SINGLE,
                     rules=NO_JACOBY)


def test_a_single_game_resigned_after_the_joker_that_saves_the_gammon_is_accepted(engine: Engine) -> None:
    before = judge_resignation(engine, offer(None))
    assert before is not None and not before.accept and before.kept < -1.5  # the gammon is likely
    answer = judge_resignation(engine, offer((6, 6)))
    assert answer is not None
    assert str(answer.play) == "13/1 6/off(2)"
    assert answer.kept == pytest.approx(-1.0, abs=1e-9) and answer.accept  # a single game lost either way
    assert EnginePlayer(engine, "engine-0ply").accepts_resignation(Asked(offer((6, 6))))  # type: ignore[arg-type]


def test_a_single_game_resigned_after_a_roll_that_loses_the_gammon_is_rejected(engine: Engine) -> None:
    answer = judge_resignation(engine, offer((2, 1)))
    assert answer is not None and answer.kept == pytest.approx(-2.0, abs=1e-3) and not answer.accept
    assert not EnginePlayer(engine, "engine-0ply").accepts_resignation(Asked(offer((2, 1))))  # type: ignore[arg-type]


def test_a_dance_turns_an_offer_worth_accepting_into_one_to_reject(engine: Engine) -> None:
    """Before its roll the resigner's shot at the blot makes playing on worth more than a single
    game to it; once it has danced the gammon is likely and the single game a bargain."""
    before = judge_resignation(engine, offer(None, SHOT, owned=True))
    assert before is not None and before.kept > -1.0 and before.accept
    danced = judge_resignation(engine, offer((2, 1), SHOT, owned=True))
    assert danced is not None and danced.play is None and danced.kept < -1.2 and not danced.accept
    hit = judge_resignation(engine, offer((6, 1), SHOT, owned=True))
    assert hit is not None and hit.play is not None and "bar/19*" in str(hit.play)
    assert hit.kept > 0 and hit.accept


def test_in_a_match_playing_on_after_the_roll_is_one_minus_the_opponents_chances(engine: Engine) -> None:
    s = Situation(RACE, dice=(6, 6), resignation=WinKind.SINGLE, score=(0, 2), rules=Rules(match_length=5))
    answer = judge_resignation(engine, s)
    assert answer is not None and answer.play is not None
    after = engine.cube_decision(judged_situation(s, answer.play))
    assert after.match_winning_chances is not None
    assert answer.kept == pytest.approx(1.0 - after.match_winning_chances[0], abs=1e-9)
    # the single game lost either way: 5-away against 2-away after it
    assert answer.kept == pytest.approx(answer.given, abs=1e-6) and answer.accept


def test_a_play_that_bears_off_the_last_checker_wins_the_game() -> None:
    """Resigning with the winning roll in hand: playing on wins, so the offer is accepted."""
    # the opponent has borne off none and has a checker in the resigner's home board
    s = Situation(Position.from_points({1: 1}, {6: 14, 20: 1}), dice=(2, 1), resignation=WinKind.SINGLE,
                  rules=NO_JACOBY)
    answer = judge_resignation(Engine(plies=0), s)
    assert answer is not None and answer.kept == 3.0 and answer.accept  # a backgammon won


def test_the_position_after_the_roll_needs_the_play(engine: Engine) -> None:
    with pytest.raises(InvalidArgumentError, match="best play"):
        judged_situation(offer((6, 6)))
    other = engine.best_play(offer((2, 1)))
    assert other is not None
    with pytest.raises(InvalidArgumentError, match="not one of the roll 66"):
        judged_situation(offer((6, 6)), other)
    low_first = RACE.legal_plays((1, 2))[0]  # a play of 12 is one of the roll 21
    assert judged_situation(offer((2, 1)), low_first).position == low_first.after
    seen = judged_situation(offer((6, 6), owned=True), engine.best_play(offer((6, 6))))
    assert seen.cube_owner is CubeOwner.OPPONENT and seen.dice is None and seen.resignation is None
    assert resignation_answer(engine.cube_decision(seen), offer((6, 6))) is not None


def test_gammon_eval_judges_the_offer_after_the_resigners_best_play(engine: Engine) -> None:
    lines = run_eval(gnubg_id(offer((6, 6))), engine=engine).splitlines()
    assert "the resignation is judged after the best play of it" in lines[2]
    assert lines[-1] == ("  you offer to resign a single game (1 point): the opponent should accept; "
                         "after your best play of 66 (13/1 6/off(2)), playing on is worth -1.000 to you")
    data = json.loads(run_eval(gnubg_id(offer((2, 1))), engine=engine, as_json=True))["resignation"]
    assert (data["answer"], data["playing_on"]) == ("reject", pytest.approx(-2.0, abs=1e-3))
    assert data["play"] is not None
    danced = run_eval(gnubg_id(offer((2, 1), SHOT, owned=True)), engine=engine)
    assert "should reject; with no legal play of 21, playing on is worth" in danced.splitlines()[-1]


GNUBG_ANSWERS = r'''
capture("set jacoby off")
capture("set automatic game off")
capture("set evaluation chequerplay evaluation plies 0")
capture("set evaluation cubedecision evaluation plies 0")
capture("set player 0 human")
capture("set player 1 gnubg")
for gid in json.loads(%r):
    capture("new game")
    capture("set gnubgid " + gid)
    said = capture("resign single")
    emit("wins" in said)
'''


@needs_gnubg
def test_gnubg_answers_a_resignation_after_the_roll_as_the_engine_does(engine: Engine) -> None:
    """GNU Backgammon, the computer asked, accepts the single game after 66 only."""
    rolls: list[Dice | None] = [None, (6, 6), (2, 1), (5, 5)]
    # gnubg's human, its player 0, is on roll in these IDs and resigns to the computer
    ids = [gnubg_id(offer(d).replace(resignation=None)) for d in rolls]
    theirs = run_gnubg(GNUBG_ANSWERS % json.dumps(ids), timeout=120, expect=len(rolls))
    ours = [answer.accept for answer in (judge_resignation(engine, offer(d)) for d in rolls)
            if answer is not None]
    assert theirs == ours == [False, True, False, False]
