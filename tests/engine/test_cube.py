"""Cube decisions on textbook cases: no double at the start, a clear take, a clear pass, match
scores (Crawford, post-Crawford, double match point)."""

from __future__ import annotations

import pytest

from gammon import Game, Position, Rules, ScriptedDice
from gammon.cube import Cube
from gammon.engine.cube.cubeful import money_equity
from gammon.engine.cube.decision import CubeAction, money_cube_decision
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import ConstantEvaluator, PipCountEvaluator, Probabilities
from gammon.situation import CubeOwner, MatchScore, Situation
from tests.helpers import pos


def engine(*probs: float) -> Engine:
    return Engine(plies=0, evaluator=ConstantEvaluator(probs))


def test_no_double_at_the_start() -> None:
    d = Engine(plies=1, evaluator=PipCountEvaluator()).cube_decision(Position.initial())
    assert d.action is CubeAction.NO_DOUBLE
    assert d.take
    assert d.no_double > d.double_take


def test_clear_pass_in_a_bearoff() -> None:
    # two checkers on low points against 10 opponent checkers: the doubler wins almost surely
    d = Engine(plies=0, evaluator=PipCountEvaluator()).cube_decision(pos("x 1:1 2:1; o 6:4 5:3 4:3"))
    assert d.action is CubeAction.DOUBLE_PASS
    assert not d.take
    assert d.double_pass == 1.0


def test_clear_take_in_contact() -> None:
    d = engine(0.72, 0.10, 0.0, 0.05, 0.0).cube_decision(Position.initial())
    assert d.take
    assert d.action is CubeAction.DOUBLE_TAKE
    assert d.double_take < d.double_pass


def test_too_good_without_jacoby_with_many_gammons() -> None:
    d = engine(0.88, 0.60, 0.05, 0.0, 0.0).cube_decision(Situation.at(Position.initial(), jacoby=False))
    assert d.action is CubeAction.TOO_GOOD_PASS
    # with Jacoby a centred cube must be turned to win the gammons
    assert engine(0.88, 0.60, 0.05, 0.0, 0.0).cube_decision(Position.initial()).should_double


def test_opponent_owns_the_cube() -> None:
    d = engine(0.9, 0.0, 0.0, 0.0, 0.0).cube_decision(Situation.at(Position.initial(), cube_value=2,
                                                       cube_owner=CubeOwner.OPPONENT))
    assert d.action is CubeAction.NO_CUBE


def test_janowski_is_the_cubeless_equity_when_the_cube_is_dead() -> None:
    p = Probabilities(0.6, 0.2, 0.01, 0.1, 0.0)
    for owner in CubeOwner:
        assert money_equity(p.as_array(), owner, 0.0) == pytest.approx(p.equity)


def test_owning_the_cube_is_worth_something() -> None:
    p = Probabilities(0.6, 0.1, 0.0, 0.05, 0.0).as_array()
    assert money_equity(p, CubeOwner.MOVER, 0.68) > money_equity(p, CubeOwner.CENTRED, 0.68) \
        > money_equity(p, CubeOwner.OPPONENT, 0.68)


def test_money_decision_thresholds_follow_the_take_point() -> None:
    takes = [money_cube_decision(Probabilities(w, 0, 0, 0, 0), CubeOwner.CENTRED, 0.68).take
             for w in (0.6, 0.7, 0.75, 0.85, 0.95)]
    assert takes[0] and not takes[-1]
    assert takes == sorted(takes, reverse=True)  # once a pass, always a pass


def test_beaver_when_the_double_is_a_blunder() -> None:
    weak = engine(0.40, 0.05, 0.0, 0.08, 0.0)
    d = weak.cube_decision(Situation.at(Position.initial(), beavers=True))
    assert d.action is CubeAction.NO_DOUBLE and d.take and d.beaver and d.double_take < 0
    assert "beaver" in str(d)
    assert not weak.cube_decision(Position.initial()).beaver  # beavers not allowed
    strong = engine(0.72, 0.10, 0.0, 0.05, 0.0)
    assert not strong.cube_decision(Situation.at(Position.initial(), beavers=True)).beaver


def test_crawford_game_has_no_cube() -> None:
    d = engine(0.7, 0.1, 0.0, 0.05, 0.0).cube_decision(Situation.at(
        Position.initial(), match=MatchScore(3, 1, crawford_game=True)))
    assert d.action is CubeAction.NO_CUBE
    assert d.match_winning_chances is not None


def test_post_crawford_trailer_doubles_at_once() -> None:
    d = engine(0.5, 0.1, 0.0, 0.1, 0.0).cube_decision(Situation.at(
        Position.initial(), match=MatchScore(4, 1, post_crawford=True)))
    assert d.should_double and d.take


def test_leader_at_one_away_never_doubles() -> None:
    d = engine(0.8, 0.1, 0.0, 0.05, 0.0).cube_decision(Situation.at(
        Position.initial(), match=MatchScore(1, 4, post_crawford=True)))
    assert not d.should_double


def test_match_equities_bracket_the_decision() -> None:
    d = engine(0.5, 0.1, 0.0, 0.1, 0.0).cube_decision(
        Situation.at(Position.initial(), match=MatchScore(5, 5)))
    assert d.action is CubeAction.NO_DOUBLE
    nd, dt, dp = d.match_winning_chances
    assert 0.0 < dt < nd < dp < 1.0


def test_bad_cube_value() -> None:
    with pytest.raises(ValueError, match="3"):
        engine(0.5, 0.1, 0.0, 0.1, 0.0).cube_decision(Situation.at(Position.initial(), cube_value=3))


def started(rules: Rules, **kw: object) -> Game:
    """A game after the opening play: player 1 is to roll (or double)."""
    game = Game(rules, dice=ScriptedDice([(3, 1), (6, 4)]), **kw)
    game.roll()
    game.play(game.legal_plays()[0])
    assert game.turn == 1
    return game


def test_cube_decision_from_a_money_game_and_a_pending_double() -> None:
    eng = engine(0.72, 0.10, 0.0, 0.05, 0.0)
    game = started(Rules())
    before = eng.cube_decision(game)
    assert before.action is CubeAction.DOUBLE_TAKE and before.match_winning_chances is None
    game.double()
    # the taker is to act; the decision is still the doubler's, with the cube before the double
    assert eng.cube_decision(game) == before


def test_cube_decision_from_match_games() -> None:
    eng = engine(0.5, 0.1, 0.0, 0.1, 0.0)
    # player 1 is 3 away, player 0 is 1 away
    crawford = eng.cube_decision(started(Rules(match_length=5), score=(4, 2), crawford_game=True))
    assert crawford.action is CubeAction.NO_CUBE
    post = eng.cube_decision(started(Rules(match_length=5), score=(4, 2)))
    assert post.should_double  # the trailer doubles at once after the Crawford game
    nd, dt, dp = post.match_winning_chances
    assert dp == pytest.approx(0.48803)  # a pass leaves the trailer 2 away against 1 away


def _doubled_game(automatic_ties: int) -> Game:
    """A money game whose cube was turned by ``automatic_ties`` tied opening throws, then doubled
    by player 1 (the double awaits player 0's answer)."""
    ties = [(3, 3)] * automatic_ties
    game = Game(Rules(automatic_doubles=automatic_ties), ScriptedDice([*ties, (2, 5), (3, 1)]))
    game.roll()
    game.play("24/22 13/8")
    game.roll()
    game.play("8/5 6/5")
    game.double()
    return game


@pytest.mark.parametrize("ties", [0, 1])
def test_a_pending_double_is_judged_with_the_cube_before_it(ties: int) -> None:
    # After an automatic double the cube is centred at 2 before player 1 doubles to 4: the
    # decision must see it centred, as it would before the double.
    game = _doubled_game(ties)
    assert game.cube == Cube(1 << ties, None)
    e = engine(0.72, 0.10, 0.0, 0.05, 0.0)
    from_game = e.cube_decision(game)
    explicit = e.cube_decision(Situation.at(game.position.flip(), cube_value=1 << ties,
                                            cube_owner=CubeOwner.CENTRED))
    assert from_game == explicit == e.cube_decision(game.situation())
    owned = e.cube_decision(Situation.at(game.position.flip(), cube_value=1 << ties,
                                         cube_owner=CubeOwner.MOVER))
    assert from_game != owned


def test_a_pending_double_is_seen_by_the_doubler() -> None:
    game = _doubled_game(0)
    s = game.situation()
    assert s.double_offered and s.is_answer_pending and s.dice is None
    assert s.position == game.position.flip()  # the taker is to act; the doubler is on roll


@pytest.mark.parametrize("jacoby", [True, False])
def test_a_double_to_the_cube_limit_is_valued_with_a_dead_cube(jacoby: bool) -> None:
    """The cube limit was ignored: the double/take of a double to the limit was valued as if the
    taker could redouble (DT +0.522 here, no double), where the cube is dead once turned:
    DT is twice the cubeless equity (+0.920), a double and a take."""
    p = Probabilities(0.593, 0.309, 0.038, 0.071, 0.002)
    chances = engine(*p.as_tuple())
    live = chances.cube_decision(Situation(Position.initial(), cube_value=2, cube_owner=CubeOwner.MOVER,
                                           rules=Rules(jacoby=jacoby)))
    assert live.action is CubeAction.NO_DOUBLE and live.double_take < live.no_double
    limited = chances.cube_decision(Situation(Position.initial(), cube_value=2, cube_owner=CubeOwner.MOVER,
                                              rules=Rules(jacoby=jacoby, cube_limit=4)))
    assert limited.double_take == pytest.approx(2 * p.equity)
    assert limited.no_double == live.no_double  # the mover may still double once
    assert limited.action is CubeAction.DOUBLE_TAKE and limited.take


def test_a_cube_at_its_limit_is_worth_the_cubeless_equity() -> None:
    p = Probabilities(0.7, 0.3, 0.02, 0.05, 0.0)
    chances = engine(*p.as_tuple())
    for owner in (CubeOwner.MOVER, CubeOwner.OPPONENT):
        d = chances.cube_decision(Situation(Position.initial(), cube_value=4, cube_owner=owner,
                                            rules=Rules(cube_limit=4)))
        assert d.action is CubeAction.NO_CUBE and d.no_double == pytest.approx(p.equity)
    # a centred cube at the limit (automatic doubles) under Jacoby: the gammons never count
    d = chances.cube_decision(Situation(Position.initial(), cube_value=2, rules=Rules(cube_limit=2)))
    assert d.action is CubeAction.NO_CUBE and d.no_double == pytest.approx(2 * p.win - 1)


@pytest.mark.parametrize("jacoby", [True, False])
def test_without_the_cube_no_double_is_the_cubeless_equity(jacoby: bool) -> None:
    """Rules(use_cube=False) gave no double the live-cube value (+0.581 with Jacoby, +0.901
    without, of a cube that does not exist) where the game is played for the cubeless equity
    (+0.400 and +0.670; with Jacoby the gammons never count)."""
    p = Probabilities(0.7, 0.3, 0.02, 0.05, 0.0)
    d = engine(*p.as_tuple()).cube_decision(Situation(Position.initial(), rules=Rules(use_cube=False,
                                                                                      jacoby=jacoby)))
    assert d.action is CubeAction.NO_CUBE
    assert d.no_double == pytest.approx(2 * p.win - 1 if jacoby else p.equity)
    assert d.best_equity == d.no_double


def test_no_beaver_is_advised_past_the_cube_limit() -> None:
    """CubeDecision.beaver was True for a double to the limit, which the game refuses to beaver."""
    behind = engine(0.3, 0.05, 0.0, 0.1, 0.0)
    for limit, beaver in ((4, False), (8, True), (None, True)):
        d = behind.cube_decision(Situation(Position.initial(), cube_value=2, cube_owner=CubeOwner.MOVER,
                                           rules=Rules(beavers=True, cube_limit=limit)))
        assert d.take and d.double_take < 0 and d.beaver is beaver
