"""Luck of the rolls: the best play's equity against the average roll, worked out by brute force
with the fake evaluator."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gammon import Game, Position, Rules, ScriptedDice
from gammon.analysis import Luck, analyse
from gammon.analysis.decisions import NON_DOUBLES, ROLLS, Analyser, MatchMoment
from gammon.analysis.marks import luck_mark
from gammon.engine.cube.stakes import Stakes
from gammon.engine.net.evaluator import PipCountEvaluator, cubeless_equity
from tests.analysis.games import forced_game, pip_engine


def _value(position, roll) -> float:
    """The roller's cubeless equity after its best play of ``roll`` (pip-count evaluator)."""
    evaluator = PipCountEvaluator()

    def theirs(p) -> float:
        return float(cubeless_equity(evaluator.evaluate(p.as_array()[None, :])[0]))

    plays = position.legal_plays(roll)
    if not plays:
        return -theirs(position.flip())
    return max(-theirs(play.after) for play in plays)


@pytest.mark.slow
def test_luck_is_the_roll_against_the_average_roll_by_brute_force():
    # without the cube (and with gammons counted) every value is the cubeless equity
    analysis = analyse([forced_game(Rules(use_cube=False, jacoby=False))], pip_engine())
    assert len(analysis.rolls) == 8
    for r in analysis.rolls:
        position, actual = r.context.position, (max(r.dice), min(r.dice))
        if r.context.turn == 1:
            # the opening: against the 30 non-doubles of both players, whose means cancel out here
            expected = _value(position, actual)
        else:
            mean = sum(_value(position, roll) * (1 if roll[0] == roll[1] else 2) for roll in ROLLS) / 36
            expected = _value(position, actual) - mean
        assert r.luck == pytest.approx(expected, abs=1e-12)
        assert r.cost == pytest.approx(r.luck)  # money, a 1-cube: points
        assert r.mark is luck_mark(r.luck)


@pytest.mark.parametrize("rules", [Rules(), Rules(match_length=5)])
def test_the_luck_of_all_rolls_averages_to_zero(rules):
    game = forced_game(rules)
    analysis = analyse([game], pip_engine())
    context = analysis.rolls[-1].context
    analyser = Analyser(pip_engine())
    views = (Stakes.of(game, context.player), Stakes.of(game, 1 - context.player))
    lucks = {roll: analyser.luck(replace(context, dice=roll), roll, *views, opening=False).luck
             for roll in ROLLS}
    assert sum(v * (1 if r[0] == r[1] else 2) for r, v in lucks.items()) / 36 == pytest.approx(0, abs=1e-12)
    assert max(lucks.values()) > 0 > min(lucks.values())


def test_the_opening_luck_averages_to_zero_over_both_players_at_any_score():
    # 5-point match, player 0 leads 3-0: openings are worth more to one side than to the other
    game = Game(Rules(match_length=5), score=(3, 0))
    analyser = Analyser(pip_engine())
    mine = (Stakes.of(game, 0), Stakes.of(game, 1))
    theirs = (mine[1], mine[0])
    context = MatchMoment(1, 1, 0, Position.initial(), None, 1, None, (3, 0), 5, False, "")
    own = [analyser.luck(context, r, *mine, opening=True).luck for r in NON_DOUBLES]
    other = [analyser.luck(replace(context, player=1), r, *theirs, opening=True).luck for r in NON_DOUBLES]
    # player 0's luck over the 30 equally likely openings: its own, or minus its opponent's
    assert (sum(own) - sum(other)) / 30 == pytest.approx(0, abs=1e-12)
    assert max(own) > 0 > min(own)


def test_luck_marks_use_gnubgs_thresholds():
    assert luck_mark(0.61) is Luck.VERY_LUCKY and luck_mark(0.6) is Luck.LUCKY
    assert luck_mark(0.31) is Luck.LUCKY and luck_mark(0.3) is Luck.NONE
    assert luck_mark(-0.3) is Luck.NONE and luck_mark(-0.31) is Luck.UNLUCKY
    assert luck_mark(-0.61) is Luck.VERY_UNLUCKY


def test_analyse_refuses_wrong_arguments_by_name() -> None:
    """An int for the engine, an int for the settings and None for the games failed deep inside."""
    game = Game(Rules(), ScriptedDice([(3, 1), (6, 5)]))
    game.roll()
    game.play("8/5 6/5")
    with pytest.raises(ValueError, match="engine must be an Engine, got 0"):
        analyse(game, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="settings must be AnalysisSettings, got 3"):
        analyse(game, pip_engine(), settings=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a match file.s record or a list of Games, got None"):
        analyse(None)  # type: ignore[arg-type]
