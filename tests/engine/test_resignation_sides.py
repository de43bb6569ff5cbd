"""The engine's answer to a resignation offered by a player not on roll: valued from the position
play goes on from, not as if the resigner were to roll."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from gammon.cli.hint import run_eval
from gammon.engine.cube.resignation import judged_situation, resignation_answer
from gammon.engine.engine import Engine
from gammon.engine.players import EnginePlayer
from gammon.formats.matchid import gnubg_id
from gammon.position import Position
from gammon.rules import Rules, WinKind
from gammon.situation import Situation

NO_JACOBY = Rules(jacoby=False)
# The player to roll has two checkers left on its ace point, the opponent 15 on its own ace point,
# none off: the player to roll wins a gammon now; had the opponent the roll, it would bear two off.
GAMMON_NOW = Position.from_points({1: 2}, {1: 15})
# The doubler has a closed board and three of the taker's checkers on the bar: gammonish, but
# the taker may pass for one point.
CLOSED_OUT = Position.from_points({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 8: 3}, {25: 3, 6: 4, 13: 4, 12: 4})


@dataclass
class Asked:
    """A stand-in Game whose situation() is the one given."""

    given: Situation

    def situation(self) -> Situation:
        return self.given


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=0)


def test_the_opponent_of_the_player_to_roll_resigning_a_single_game_is_rejected(engine: Engine) -> None:
    """Seen as the resigner's roll, playing on lost it one point and the single game offered was
    accepted; the player to roll wins a gammon at once."""
    s = Situation(GAMMON_NOW, resignation=WinKind.SINGLE, opponent_resigns=True, rules=NO_JACOBY)
    answer = resignation_answer(engine.cube_decision(judged_situation(s)), s)
    assert answer is not None
    assert answer.given == -1.0 and answer.kept == pytest.approx(-2.0, abs=0.01)
    assert not answer.accept
    assert not EnginePlayer(engine, "engine-0ply").accepts_resignation(Asked(s))  # type: ignore[arg-type]
    more = s.replace(resignation=WinKind.BACKGAMMON)
    assert EnginePlayer(engine, "engine-0ply").accepts_resignation(Asked(more))  # type: ignore[arg-type]


def test_the_taker_resigning_a_single_game_instead_of_passing_is_accepted(engine: Engine) -> None:
    """Seen as the taker's roll with no double on offer, playing on cost it a gammon often and
    the single game was rejected; the taker may pass for the same point."""
    s = Situation(CLOSED_OUT, double_offered=True, resignation=WinKind.SINGLE, opponent_resigns=True,
                  rules=NO_JACOBY)
    answer = resignation_answer(engine.cube_decision(judged_situation(s)), s)
    assert answer is not None
    assert answer.kept == -1.0  # the pass: the double/take is worse for it
    assert answer.accept
    assert EnginePlayer(engine, "engine-0ply").accepts_resignation(Asked(s))  # type: ignore[arg-type]


def test_in_a_match_the_opponents_resignation_is_valued_in_its_match_winning_chances(engine: Engine) -> None:
    # 3-away each: the gammon the player to roll wins now leaves the resigner 3-away against 1-away
    s = Situation(GAMMON_NOW, resignation=WinKind.SINGLE, opponent_resigns=True, score=(2, 2),
                  rules=Rules(match_length=5))
    answer = resignation_answer(engine.cube_decision(judged_situation(s)), s)
    assert answer is not None
    assert answer.kept < answer.given < 0.5 and not answer.accept
    chances = engine.cube_decision(judged_situation(s)).match_winning_chances
    assert chances is not None and answer.kept == pytest.approx(1 - chances[0], abs=1e-9)


def test_gammon_eval_answers_the_opponents_resignation_as_the_player_to_roll(engine: Engine) -> None:
    s = Situation(GAMMON_NOW, resignation=WinKind.SINGLE, opponent_resigns=True, rules=NO_JACOBY)
    text = run_eval(gnubg_id(s), engine=engine).splitlines()[-1]
    assert text.startswith("  the opponent offers to resign a single game (1 point): you should reject;")
    assert "playing on is worth -2.000 to the opponent" in text
    data = json.loads(run_eval(gnubg_id(s), engine=engine, as_json=True))["resignation"]
    assert (data["resigner"], data["answer"], data["resigned"]) == ("opponent", "reject", -1.0)
    doubled = Situation(CLOSED_OUT, double_offered=True, resignation=WinKind.SINGLE, opponent_resigns=True,
                        rules=NO_JACOBY)
    data = json.loads(run_eval(gnubg_id(doubled), engine=engine, as_json=True))["resignation"]
    assert (data["resigner"], data["answer"], data["playing_on"]) == ("opponent", "accept", -1.0)
