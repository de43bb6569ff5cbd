"""Engine contracts: legal output, consistent probabilities, exact endings, batched search."""

from __future__ import annotations

import re

import numpy as np
import pytest

import gammon
from gammon import Position
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import ConstantEvaluator, CountingEvaluator, PipCountEvaluator, Probabilities
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.rollout.rollouts import RolloutSettings
from gammon.engine.search.searcher import PLAIN_FILTERS, SearchSettings, terminal_probabilities
from gammon.errors import IllegalMoveError, InvalidPositionError
from tests.helpers import pos, random_game_positions

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return random_game_positions(seed=7, games=2)[::5]


def check(p: Probabilities) -> None:
    assert 0.0 <= p.win_backgammon <= p.win_gammon <= p.win <= 1.0
    assert 0.0 <= p.lose_backgammon <= p.lose_gammon <= p.lose + 1e-12
    assert p.equity == pytest.approx(2 * p.win - 1 + p.win_gammon - p.lose_gammon
                                     + p.win_backgammon - p.lose_backgammon)


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_best_play_is_legal(plies: int, positions: list[Position]) -> None:
    engine = Engine(plies=plies, evaluator=PipCountEvaluator())
    rng = np.random.default_rng(plies)
    for p in positions[:: 3 if plies == 2 else 1]:
        dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
        play = engine.best_play(p, dice)
        legal = p.legal_plays(dice)
        if not legal:
            assert play is None
        else:
            assert play in legal


def test_no_legal_play_gives_none() -> None:
    closed = pos("x bar:1 13:14; o 1:2 2:2 3:2 4:2 5:2 6:2 13:3")
    assert Engine(plies=0, evaluator=PipCountEvaluator()).best_play(closed, (6, 6)) is None
    assert Engine(plies=0, evaluator=PipCountEvaluator()).hint(closed, (6, 6)) == []


def test_a_game_is_asked_as_its_situation_and_a_wrong_argument_is_named() -> None:
    """best_play and hint took no Game (cube_decision does), and a wrong argument was refused
    with "a play needs dice", dice or not."""
    from gammon import Game, Rules, ScriptedDice

    game = Game(Rules(), ScriptedDice([(6, 5)]))
    game.roll()
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    assert engine.best_play(game) == engine.best_play(game.situation())
    assert engine.hint(game, n=2) == engine.hint(game.situation(), n=2)
    for wrong in (None, 3, game.history):
        with pytest.raises(TypeError, match="a play needs a Position or a Situation or a Game"):
            engine.best_play(wrong, (6, 5))  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a play needs a Position"):
            engine.best_play(wrong)  # type: ignore[arg-type]


def test_bad_dice_are_refused() -> None:
    with pytest.raises(IllegalMoveError, match="7"):
        Engine(plies=0, evaluator=PipCountEvaluator()).best_play(Position.initial(), (7, 1))


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_probabilities_are_consistent(plies: int, positions: list[Position]) -> None:
    engine = Engine(plies=plies, evaluator=PipCountEvaluator())
    for p in positions[:: 4 if plies == 2 else 1]:
        if p.is_game_over():
            continue
        check(engine.evaluate(p))


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_no_evaluator_gives_a_gammon_the_board_rules_out(plies: int) -> None:
    # an evaluator that sees gammons everywhere: the search takes away those a checker off rules out
    engine = Engine(plies=plies, evaluator=ConstantEvaluator([0.6, 0.3, 0.05, 0.2, 0.02]))
    both = pos("x 24:2 13:5 8:3 6:5; o 24:2 13:5 8:3 6:5")
    mine_off = pos("x 24:1 6:5 5:5 4:3; o 24:2 13:5 8:3 6:5")  # the mover has borne off one
    theirs_off = pos("x 24:2 13:5 8:3 6:5; o 24:1 6:5 5:5 4:3")
    zero = Engine(plies=0, evaluator=ConstantEvaluator([0.6, 0.3, 0.05, 0.2, 0.02])).evaluate(both)
    assert zero.win_gammon > 0 and zero.lose_gammon > 0
    mine, theirs = engine.evaluate(mine_off), engine.evaluate(theirs_off)
    assert mine.lose_gammon == mine.lose_backgammon == 0.0 and mine.win_gammon > 0
    assert theirs.win_gammon == theirs.win_backgammon == 0.0
    if plies == 0:
        assert theirs.lose_gammon > 0


def test_the_net_gives_no_gammon_the_board_rules_out() -> None:
    ev = NeuralEvaluator.default()
    boards = np.array([p.board for p in random_game_positions(seed=11, games=6)], dtype=np.int8)
    boards = boards[np.abs(boards).sum(axis=1) < 30]  # a checker off (no finished game among them)
    mover_off = boards[boards.clip(0).sum(axis=1) < 15]
    opponent_off = boards[(-boards).clip(0).sum(axis=1) < 15]
    assert len(mover_off) > 5 and len(opponent_off) > 5
    for evaluate in (ev.evaluate, ev.evaluate_for_cube, lambda b: ev.evaluate_with_cube(b)[0],
                     lambda b: ev.evaluate_with_cube(b)[1]):
        assert (evaluate(mover_off)[:, 3:] == 0).all()
        assert (evaluate(opponent_off)[:, 1:3] == 0).all()
    for p in [Position(b.tolist()) for b in opponent_off[:3]]:
        assert Engine().evaluate(p).win_gammon == 0.0


def test_one_ply_is_the_average_of_the_best_zero_ply_replies() -> None:
    p = pos("x 24:2 13:4 8:3 6:5 4:1; o 24:1 20:1 13:5 8:3 6:5")
    zero = Engine(plies=0, evaluator=PipCountEvaluator())
    total = np.zeros(5)
    for d1, d2 in ALL_ROLLS:
        play = zero.best_play(p, (d1, d2))
        after = play.after if play else p.flip()
        seen = zero.evaluate(after).flip().as_array()
        total += seen * (1 if d1 == d2 else 2) / 36
    np.testing.assert_allclose(Engine(plies=1, evaluator=PipCountEvaluator()).evaluate(p).as_array(), total)


def test_hint_is_ranked_and_labelled() -> None:
    engine = Engine(plies=1, evaluator=PipCountEvaluator())
    hints = engine.hint(Position.initial(), (6, 4), n=12)
    assert len(hints) == 12
    assert all(h.plies == 1 for h in hints)  # every play shown is searched to full depth
    assert [h.equity for h in hints] == sorted((h.equity for h in hints), reverse=True)
    assert hints[0].play == engine.best_play(Position.initial(), (6, 4))
    for h in hints:
        assert h.equity == pytest.approx(h.probabilities.equity)
        check(h.probabilities)
    assert len({h.play for h in hints}) == 12
    with pytest.raises(ValueError, match="0"):
        engine.hint(Position.initial(), (6, 4), n=0)


def test_bearing_off_the_last_checker_wins_a_gammon() -> None:
    p = pos("x 1:1; o 1:2 2:3 3:5 4:5")
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    play = engine.best_play(p, (2, 1))
    assert play.after.off[1] == 15
    assert engine.evaluate(p, plies=1).as_tuple() == (1.0, 1.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_a_play_that_ends_the_game_is_chosen_where_waiting_wins_as_much(plies: int) -> None:
    # two checkers left on the 1 and 2 points, the opponent's far from home: 21 bears both off for a
    # gammon, and 2/1/off wins the same gammon next roll; the search valued the two alike, and at
    # 2 ply its float noise put the play that leaves a checker first (from the classes judge set)
    p = Position.from_id("p3sJoAAFAAAAAA")
    engine = Engine(plies=plies)
    assert len(p.legal_plays((2, 1))) == 2
    assert engine.best_play(p, (2, 1)).after.is_game_over()
    assert engine.hint(p, (2, 1), n=2)[0].play.after.is_game_over()
    in_a_match = gammon.Situation(p, dice=(2, 1), score=(2, 4), rules=gammon.Rules(match_length=7))
    assert engine.best_play(in_a_match).after.is_game_over()


def test_terminal_probabilities_score_gammons_and_backgammons() -> None:
    boards = np.array([
        pos("x 6:14").board,                                               # 1 off: single
        pos("x 6:15").board,                                               # gammon
        pos("x 6:14 20:1").board,                                          # backgammon
        pos("x 6:14 bar:1").board,                                         # backgammon (bar)
    ], dtype=np.int8)
    probs = terminal_probabilities(boards)
    np.testing.assert_array_equal(probs[:, 3], [0, 1, 1, 1])
    np.testing.assert_array_equal(probs[:, 4], [0, 0, 1, 1])
    assert (probs[:, 0] == 0).all()
    with pytest.raises(ValueError, match="not a finished game"):
        terminal_probabilities(np.array([Position.initial().board], dtype=np.int8))


def test_each_ply_is_one_evaluator_call() -> None:
    counter = CountingEvaluator(PipCountEvaluator())
    engine = Engine(evaluator=counter, settings=SearchSettings(plies=2, filters=PLAIN_FILTERS))
    engine.best_play(Position.initial(), (6, 5))
    assert counter.calls == 3  # 0 ply, the opponent's replies, our replies


def test_evaluating_a_won_game_is_refused() -> None:
    with pytest.raises(InvalidPositionError):
        Engine(plies=0, evaluator=PipCountEvaluator()).evaluate(pos("o 6:1"))


@pytest.mark.parametrize("plies", [0, 2])
def test_a_game_that_is_over_has_no_play_and_no_cube_decision(plies: int) -> None:
    """The opponent has borne off every checker: the game is over, not a turn to play (the
    engine once ranked 1/off there as a win) nor a cube to turn."""
    engine = Engine(plies=plies, evaluator=PipCountEvaluator())
    lost = pos("x 1:1")
    assert lost.is_game_over() and lost.legal_plays((3, 1))  # the rules would still move it
    for call in (lambda: engine.best_play(lost, (3, 1)), lambda: engine.hint(lost, (3, 1)),
                 lambda: engine.cube_decision(lost)):
        with pytest.raises(InvalidPositionError, match="the game is over in 'AAAAAgAAAAAAAA'"):
            call()
    assert engine.evaluate(lost, plies=0).lose == 1.0  # the loss it has suffered, exactly
    with pytest.raises(InvalidPositionError, match="the game is over"):
        engine.best_play(pos("o 6:1"), (3, 1))


def test_settings_and_plies_must_agree() -> None:
    with pytest.raises(ValueError, match="3"):
        Engine(plies=3, evaluator=PipCountEvaluator())
    with pytest.raises(ValueError, match="disagrees"):
        Engine(plies=1, evaluator=PipCountEvaluator(), settings=SearchSettings(plies=2))


def test_public_names() -> None:
    assert gammon.Engine is Engine
    assert gammon.Probabilities is Probabilities
    assert "plies=0" in repr(Engine(plies=0, evaluator=PipCountEvaluator()))


def test_hint_probabilities_are_the_flipped_evaluation_of_the_result() -> None:
    engine = Engine(plies=1, evaluator=PipCountEvaluator())
    p = pos("x 24:2 13:4 8:3 6:5 4:1; o 24:1 20:1 13:5 8:3 6:5")
    for h in engine.hint(p, (5, 2), n=3):
        seen_by_mover = engine.evaluate(h.play.after).flip()
        np.testing.assert_allclose(h.probabilities.as_array(), seen_by_mover.as_array())


def test_default_engine() -> None:
    import warnings

    from gammon.engine.engine import DEFAULT_PLIES

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # no trained weights in this checkout
        engine = Engine()
    assert engine.plies == DEFAULT_PLIES
    assert engine.best_play(Position.initial(), (3, 1)) in Position.initial().legal_plays((3, 1))


def test_zero_ply_best_play_is_the_top_hint(positions: list[Position]) -> None:
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    for p in positions[:30]:
        for dice in ((3, 1), (6, 6)):
            hints = engine.hint(p, dice, n=1000)
            best = engine.best_play(p, dice)
            if not hints:
                assert best is None
                continue
            equity = {h.play: h.equity for h in hints}
            assert equity[best] == pytest.approx(hints[0].equity)


@pytest.mark.parametrize("call", [
    lambda e, p: e.best_play(p, (3, 1)),
    lambda e, p: e.hint(p, (3, 1)),
    lambda e, p: e.evaluate(p),
    lambda e, p: e.cube_decision(p),
    lambda e, p: e.rollout(p, RolloutSettings(trials=36)),
    lambda e, p: e.rollout_plays(p, (3, 1)),
    lambda e, p: e.rollout_cube(p),
])
def test_an_id_or_a_board_in_place_of_a_position_gets_a_clear_type_error(call) -> None:
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    with pytest.raises(TypeError, match=r"needs a Position.*got str '4HPwATDgc/ABMA' \(Position.from_id"):
        call(engine, "4HPwATDgc/ABMA")
    with pytest.raises(TypeError, match=r"needs a Position.*got list \[0, -2"):
        call(engine, list(Position.initial().board))
    assert isinstance(engine.evaluate(Position.from_id("4HPwATDgc/ABMA")), Probabilities)


@pytest.mark.parametrize("plies", [1.0, 2.0, 0.0, True, "1", np.float64(1.0)])
def test_plies_that_are_not_whole_numbers_are_refused_with_the_value(plies: object) -> None:
    """Engine(plies=1.0) was accepted (1.0 in (0, 1, 2)) and failed at its first play with
    "'float' object cannot be interpreted as an integer"; evaluate(plies=True) evaluated at 1 ply."""
    message = re.escape(f"plies must be 0, 1 or 2, got {plies!r}")
    with pytest.raises(ValueError, match=message):
        Engine(plies=plies, evaluator=PipCountEvaluator())  # type: ignore[arg-type]
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    with pytest.raises(ValueError, match=message):
        engine.evaluate(Position.initial(), plies=plies)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        Engine(evaluator=PipCountEvaluator(), settings=SearchSettings(plies=plies))  # type: ignore[arg-type]


def test_plies_as_a_numpy_integer_is_taken_as_an_int() -> None:
    engine = Engine(plies=np.int64(1), evaluator=PipCountEvaluator())  # type: ignore[arg-type]
    assert type(engine.plies) is int and repr(engine) == "Engine(plies=1, evaluator=PipCountEvaluator)"
    assert engine.best_play(Position.initial(), (3, 1)) in Position.initial().legal_plays((3, 1))


def test_settings_of_another_type_are_refused() -> None:
    with pytest.raises(ValueError, match="settings must be a SearchSettings or None, got 'deep'"):
        Engine(evaluator=PipCountEvaluator(), settings="deep")  # type: ignore[arg-type]


def test_evaluate_and_the_rollouts_take_a_game_as_the_other_methods_do() -> None:
    """evaluate(game) and rollout(game) were refused ("an evaluation needs a Position, got Game",
    naming neither Situation nor Game) though best_play, hint and cube_decision take a Game."""
    from gammon import Game, Rules, ScriptedDice

    game = Game(Rules(), ScriptedDice([(6, 5), (3, 1)]))
    game.roll()
    game.play("24/18 18/13")
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    assert engine.evaluate(game) == engine.evaluate(game.situation())
    settings = RolloutSettings(trials=2, seed=1, truncate=1)  # 1 trial: NaN errors, unequal
    assert engine.rollout(game, settings, workers=1) == engine.rollout(game.situation(), settings, workers=1)
    cube = engine.rollout_cube(game, settings, workers=1)
    assert cube == engine.rollout_cube(game.situation(), settings, workers=1)
    with pytest.raises(TypeError, match="an evaluation needs a Position or a Situation or a Game, got int 3"):
        engine.evaluate(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a rollout needs a Position or a Situation or a Game, got int 3"):
        engine.rollout(3)  # type: ignore[arg-type]


def test_an_evaluator_without_evaluate_is_refused_at_once() -> None:
    """Engine(evaluator="net") was accepted and its first play failed with "'str' object has no
    attribute 'evaluate'"."""
    with pytest.raises(ValueError, match="evaluator must be an Evaluator .* got 'net'"):
        Engine(plies=0, evaluator="net")  # type: ignore[arg-type]


def test_the_engines_argument_errors_are_gammon_errors_and_value_errors() -> None:
    """A caller catching GammonError catches the engine's refusals too (they were plain ValueErrors)."""
    from gammon.errors import GammonError

    for make in (lambda: Engine(plies=9), lambda: Engine(plies=0).hint(Position.initial(), (3, 1), n=0),
                 lambda: Engine(plies=0).best_play(Position.initial()), lambda: RolloutSettings(trials=0)):
        with pytest.raises(GammonError) as refused:
            make()
        assert isinstance(refused.value, ValueError)


def test_zero_ply_plays_the_weights_zero_ply_net_and_the_search_their_contact_net() -> None:
    from gammon.engine.engine import default_evaluator
    from gammon.engine.net.neural import Net
    from gammon.errors import InvalidArgumentError

    shipped = default_evaluator()
    assert isinstance(shipped, NeuralEvaluator)
    assert Engine(plies=0).evaluator is shipped.at_zero_ply()
    assert Engine().evaluator is shipped and Engine(plies=1).evaluator is shipped
    weights = shipped.replaced(zero_ply=Net.random(16, np.random.default_rng(1)))
    assert Engine.with_weights(weights, 0).evaluator is weights.at_zero_ply() is not weights
    assert Engine.with_weights(weights, 2).evaluator is weights and Engine.with_weights(weights).plies == 2
    assert Engine(plies=0, evaluator=weights).evaluator is weights  # a given evaluator plays as it is
    assert Engine.with_weights(None, 0).evaluator is Engine(plies=0).evaluator
    p = pos("x 24:2 13:5 8:3 6:5; o 24:2 13:5 8:3 6:5")
    assert Engine.with_weights(weights, 0).evaluate(p) != Engine(plies=0, evaluator=weights).evaluate(p)
    with pytest.raises(InvalidArgumentError, match="weights must be a NeuralEvaluator"):
        Engine.with_weights(PipCountEvaluator(), 0)  # type: ignore[arg-type]
