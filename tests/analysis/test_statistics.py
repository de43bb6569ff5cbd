"""The analysis and its statistics on hand-worked games, with fake evaluators whose numbers can be
worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Game, Match, Rules, ScriptedDice, WinKind
from gammon.analysis import CheckerPlay, CubeChoice, GameAnalysis, MatchAnalysis, Skill, analyse
from gammon.analysis.serialize import analysis_to_dict
from gammon.analysis.stats import bootstrap_mean_ci
from gammon.analysis.summary import cube_rows, describe
from gammon.engine.cube.met import match_equity
from gammon.engine.net.evaluator import PipCountEvaluator, cubeless_equity
from gammon.formats import read_mat, write_mat
from tests.analysis.games import (
    FORCED_DICE,
    FORCED_TURNS,
    blunder_game,
    constant_engine,
    forced_game,
    pip_engine,
    play_out,
)

CONTACT_X = 0.68  # Janowski's cube efficiency in contact positions


def test_forced_moves_and_passed_turns_are_counted_as_gnubg_counts_them():
    analysis = analyse(forced_game(), pip_engine())
    first, second = analysis.statistics()
    assert (first.checker.moves, first.checker.unforced) == (4, 2)
    assert (second.checker.moves, second.checker.unforced) == (4, 2)
    plays = [d for d in analysis.decisions if isinstance(d, CheckerPlay)]
    assert [d.legal_plays > 1 for d in plays] == [True, True, False, True, False, False, True, False]
    passed = plays[2]
    assert passed.played is None and passed.context.dice == (6, 6) and passed.legal_plays == 0
    assert all(d.error == 0.0 for d in plays if not d.unforced)
    # every turn but the opening one could have doubled (money, centred cube): 3 and 4 decisions
    assert (first.cube.total, second.cube.total) == (3, 4)
    # one roll a turn, the opening roll included
    assert [len([r for r in analysis.rolls if r.context.player == p]) for p in (0, 1)] == [4, 4]


def test_a_blunder_loses_what_the_evaluator_says():
    # no cube, gammons count: each play is worth the cubeless equity the evaluator gives it
    game = blunder_game(Rules(use_cube=False, jacoby=False))
    analysis = analyse([game], pip_engine())
    decision = analysis.games[0].checker_plays[1]
    position = decision.context.position
    evaluator = PipCountEvaluator()

    def equity(play) -> float:  # the mover's, by hand: minus the opponent's after the play
        return -float(cubeless_equity(evaluator.evaluate(play.after.as_array()[None, :])[0]))

    plays = position.legal_plays((6, 3))
    best = max(plays, key=equity)
    error = equity(best) - equity(position.parse_play("24/15", (6, 3)))
    assert best.hits, "pip counts favour sending a checker back"
    assert decision.best.play == best
    assert decision.error == pytest.approx(error, abs=1e-12)
    assert 0.06 < error <= 0.12 and decision.skill is Skill.BAD
    stats = analysis.statistics()[1]
    assert stats.checker.error_total == pytest.approx(error)
    assert stats.checker.error_rate == pytest.approx(1000 * error)  # one unforced move
    assert stats.checker.marks[Skill.BAD] == 1
    assert stats.overall.pr == pytest.approx(500 * error)  # one decision, no cube
    assert stats.overall.pr_ci95 == pytest.approx((500 * error, 500 * error))


def test_cube_errors_follow_janowski_by_hand():
    # every position: 90% to win for the player on roll, no gammons; money without Jacoby
    p = 0.9
    dead = 2 * p - 1
    take_point, cash_point = 0.5 / 2.5, 2.0 / 2.5  # (L - 1/2) / (W + L + 1/2), (L + 1) / (W + L + 1/2)
    assert p > cash_point
    no_double = CONTACT_X * 1.0 + (1 - CONTACT_X) * dead  # live equity 1 past the cash point
    live_taken = -1 + 2 * (p - take_point) / (1 - take_point)  # the opponent owns the cube
    double_take = 2 * (CONTACT_X * live_taken + (1 - CONTACT_X) * dead)
    assert double_take > 1.0 > no_double  # double, pass

    game = Game(Rules(jacoby=False), ScriptedDice([(3, 1), (2, 1), (5, 4)]))
    game.roll()
    game.play("8/5 6/5")
    game.double()
    game.take()
    play_out(game, ["13/11 24/23", "24/20 13/8"])
    analysis = analyse([game], constant_engine(p))
    cube = analysis.games[0].cube_choices
    assert [(c.context.player, c.action) for c in cube] == [(1, "double"), (0, "take"), (0, "no double")]
    double, take, redouble = cube
    assert double.decision.no_double == pytest.approx(no_double)
    assert double.decision.double_take == pytest.approx(double_take)
    assert double.error == 0.0 and double.kind is None and double.close
    assert take.error == pytest.approx(double_take - 1.0) and take.kind == "wrong take"
    assert take.skill is Skill.VERY_BAD
    # player 0 owns the cube at 2 and should redouble: past the cash point, so above CP
    assert redouble.error == pytest.approx(1.0 - no_double) and redouble.kind == "missed double above CP"
    assert redouble.skill is Skill.BAD  # 0.064 > 0.06
    assert redouble.cost == pytest.approx(2 * (1.0 - no_double))  # points at a 2-cube
    first, second = analysis.statistics()
    assert (first.cube.total, first.cube.close_or_actual, first.cube.takes) == (2, 2, 1)
    assert (second.cube.total, second.cube.close_or_actual, second.cube.doubles) == (1, 1, 1)
    assert first.cube.errors["wrong take"].count == 1
    assert first.cube.error_total == pytest.approx(double_take - 1.0 + 1.0 - no_double)
    assert first.cube.error_rate == pytest.approx(1000 * first.cube.error_total / 2)
    assert second.cube.error_total == 0.0
    # with every position alike, no play and no roll is better than another
    assert all(d.error == 0.0 for d in analysis.decisions if isinstance(d, CheckerPlay))
    opening, *rolls = analysis.rolls
    assert all(r.luck == pytest.approx(0.0) for r in rolls)
    # the opening roll, against the 30 openings of both players (which cancel out): whatever is
    # played leaves the opponent on roll at 90%, who cashes: -1
    assert opening.luck == pytest.approx(-1.0)
    # overall: the unforced moves and the close cube decisions; PR is half the rate in mEMG
    assert first.overall.decisions == first.checker.unforced + 2
    assert first.overall.pr == pytest.approx(first.overall.error_rate / 2)


def _crawford_match() -> Match:
    """3 points: player 0 wins a gammon (2-0), then the Crawford game goes to player 1 (2-1), then
    a post-Crawford game of a few turns."""
    match = Match(Rules(match_length=3), ScriptedDice([(3, 1), (5, 2), (6, 4), (2, 1), (4, 3), (6, 5),
                                                        (5, 3), (4, 2)]))
    game = match.game
    play_out(game, ["8/5 6/5"])
    game.resign(WinKind.GAMMON)
    game.accept_resignation()
    game = match.new_game()
    assert game.crawford_game
    play_out(game, ["13/11 13/8", "24/18 13/9"])
    game.resign(WinKind.SINGLE)
    game.accept_resignation()
    game = match.new_game()
    for _ in range(4):  # any plays will do
        game.roll()
        game.play(game.legal_plays()[0])
    return match


def test_no_cube_decisions_in_the_crawford_game_nor_for_the_leader_after_it():
    analysis = analyse(_crawford_match(), pip_engine())
    first, crawford, post = analysis.games
    assert [g.score for g in analysis.games] == [(0, 0), (2, 0), (2, 1)]
    assert first.cube_choices == () or all(c.context.player == 1 for c in first.cube_choices)
    assert crawford.crawford and crawford.cube_choices == ()
    # after the Crawford game only the trailer (player 1, two away) may double
    assert post.cube_choices and {c.context.player for c in post.cube_choices} == {1}
    # the actual result is in match winning chances: game 1 took player 0 from 3-away/3-away to
    # 1-away (the Crawford game next), game 2 took player 1 from 3-away to 2-away (post-Crawford)
    game1 = match_equity(1, 3) - match_equity(3, 3)
    game2 = match_equity(2, 1, post_crawford=True) - match_equity(3, 1)  # player 1's
    a, b = analysis.statistics()
    assert a.overall.actual_result == pytest.approx(game1 - game2)
    assert b.overall.actual_result == pytest.approx(game2 - game1)


def test_every_source_gives_the_same_analysis():
    match = _crawford_match()
    engine = pip_engine()
    from_match = analyse(match, engine)
    from_games = analyse(match.games, engine)
    record = read_mat(write_mat(match, names=("Ann", "Bo")))
    from_record = analyse(record, engine)
    assert from_record.names == ("Ann", "Bo") and from_match.names == ("Player 1", "Player 2")
    for other in (from_games, from_record):
        assert [(d.context.gnubg_id, d.error) for d in other.decisions] == \
               [(d.context.gnubg_id, d.error) for d in from_match.decisions]
        assert [r.luck for r in other.rolls] == [r.luck for r in from_match.rolls]


def test_progress_counts_every_action_once():
    game = forced_game()
    calls: list[tuple[int, int]] = []
    analyse([game], pip_engine(), progress=lambda done, total: calls.append((done, total)))
    n = len(game.history)
    assert calls == [(k, n) for k in range(1, n + 1)]


def test_bad_sources_are_refused_with_the_input_quoted():
    with pytest.raises(ValueError, match="'not a match'"):
        analyse("not a match", pip_engine())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="names"):
        analyse([forced_game()], pip_engine(), names=("only one",))
    with pytest.raises(ValueError, match="'Al'"):  # two letters, not two names
        analyse([forced_game()], pip_engine(), names="Al")


def test_luck_rate_is_luck_per_move_and_results_balance():
    analysis = analyse(forced_game(), pip_engine())
    for s in analysis.statistics():
        rolls = [r for r in analysis.rolls if r.context.player == s.player]
        assert s.luck.total == pytest.approx(sum(r.luck for r in rolls))
        assert s.luck.rate == pytest.approx(1000 * s.luck.total / s.checker.moves)
    a, b = analysis.statistics()
    # the game is unfinished: nothing won, the luck-adjusted results are equal and opposite
    assert a.overall.actual_result == 0.0
    assert a.overall.luck_adjusted_result == pytest.approx(-b.overall.luck_adjusted_result)
    assert a.overall.luck_adjusted_result == pytest.approx(b.luck.cost_total - a.luck.cost_total)


def test_bootstrap_interval_is_seeded_and_brackets_the_mean():
    values = np.array([0.0, 0.0, 0.01, 0.0, 0.2, 0.03, 0.0, 0.0])
    lo, hi = bootstrap_mean_ci(values, seed=3)
    assert lo < values.mean() < hi
    assert bootstrap_mean_ci(values, seed=3) == (lo, hi)
    assert bootstrap_mean_ci(np.array([]), seed=3) is None
    analysis = analyse(forced_game(), pip_engine())
    s = analysis.statistics(seed=5)[0]
    assert s.overall.error_rate_ci95 is not None
    assert s.overall.error_rate_ci95[0] <= s.overall.error_rate <= s.overall.error_rate_ci95[1]
    assert analysis.statistics(seed=5)[0].overall.pr_ci95 == s.overall.pr_ci95


def test_cube_decisions_are_the_doublers_and_match_equity_is_used_in_matches():
    analysis = analyse(_crawford_match(), pip_engine())
    for d in analysis.decisions:
        if isinstance(d, CubeChoice) and d.action == "no double":
            # the error of not doubling is what doubling would have gained
            dec = d.decision
            assert d.error == pytest.approx(max(0.0, min(dec.double_take, dec.double_pass) - dec.no_double))
            assert dec.match_winning_chances is not None
            assert dec.double_pass == pytest.approx(1.0)  # a pass wins the cube: +1 EMG


def _doubled(p: float, answer: str) -> MatchAnalysis:
    """A money game with beavers where the doubler's chances are ``p`` and its double is answered."""
    game = Game(Rules(beavers=True, jacoby=False), ScriptedDice([(3, 1), (2, 1)]))
    game.roll()
    game.play("8/5 6/5")
    game.double()
    {"take": game.take, "pass": game.pass_, "beaver": game.beaver}[answer]()
    return analyse([game], constant_engine(p))


def test_a_beaver_is_judged_at_twice_the_stake_of_a_take():
    # the doubler's chances 0.9: a pass; beavering keeps the game at twice a take's cube
    analysis = _doubled(0.9, "beaver")
    double, beaver = analysis.games[0].cube_choices
    dec = double.decision
    assert dec.double_take > dec.double_pass and not dec.beaver
    assert (beaver.action, beaver.kind, beaver.best_action) == ("beaver", "wrong take", "pass")
    assert beaver.error == pytest.approx(2 * dec.double_take - dec.double_pass)
    stats = analysis.statistics()[beaver.context.player].cube
    assert stats.takes == 1 and stats.errors["wrong take"].error == pytest.approx(beaver.error)


@pytest.mark.parametrize("answer", ["take", "pass", "beaver"])
def test_where_the_taker_should_beaver_a_take_or_a_pass_loses_against_the_beaver(answer):
    # the doubler's chances 0.3: its double/take is below zero, so the taker should beaver
    analysis = _doubled(0.3, answer)
    double, choice = analysis.games[0].cube_choices
    dec = double.decision
    assert dec.beaver and dec.double_take < 0
    beaver = 2 * dec.double_take
    chosen = {"take": dec.double_take, "pass": dec.double_pass, "beaver": beaver}[answer]
    assert choice.best_action == "beaver"
    assert choice.error == pytest.approx(chosen - beaver)
    assert choice.kind == {"take": "wrong take", "pass": "wrong pass", "beaver": None}[answer]
    # and the double is judged against the beaver it meets
    assert double.error == pytest.approx(max(dec.no_double, beaver) - beaver)


def test_the_reports_list_the_beaver_with_the_other_cube_actions():
    analysis = _doubled(0.3, "take")
    double, take = analysis.games[0].cube_choices
    dec = double.decision
    best = max(dec.no_double, 2 * dec.double_take)
    assert cube_rows(take)[-1] == ("Double, beaver", pytest.approx(2 * dec.double_take),
                                   pytest.approx(2 * dec.double_take - best))
    assert describe(take, analysis.names).startswith("Game 1, move 2: Player 1 took (right: beaver)")
    answer = [d for d in analysis_to_dict(analysis)["decisions"] if d.get("action") == "take"][0]
    assert answer["best"] == "beaver" and answer["error_kind"] == "wrong take"
    # without beavers no such row
    assert [label for label, _, _ in cube_rows(_doubled(0.9, "take").games[0].cube_choices[1])] == [
        "No double", "Double, take", "Double, pass"]


def test_matches_beyond_the_match_equity_table_are_analysed():
    """The table stops at 25 away; a 31-point match is judged by its pattern beyond (gammon.engine.cube.met),
    cube decisions in match winning chances as in any match."""
    analysis = analyse([blunder_game(Rules(match_length=31))], pip_engine())
    assert analysis.match_length == 31
    cube = [d for d in analysis.decisions if isinstance(d, CubeChoice)]
    assert cube and all(d.decision.match_winning_chances is not None for d in cube)
    assert any(isinstance(d, CheckerPlay) and d.error > 0 for d in analysis.decisions)


def test_a_roll_not_played_counts_neither_luck_nor_cube_decision_as_gnubg_counts_them():
    """gnubg keeps a roll that is not played (the roller resigns, or the record ends) as a roll of
    its own, with no cube analysis, and counts neither its luck nor the no-double before it."""
    game = play_out(Game(Rules(), ScriptedDice([*FORCED_DICE, (6, 5)])), FORCED_TURNS)
    game.roll()  # player 0's ninth turn: it may double (money, centred cube), rolls, resigns
    game.resign(WinKind.SINGLE)
    game.accept_resignation()
    analysis = analyse([game], pip_engine())
    first, second = analysis.statistics()
    # the resigner's ninth roll and the no-double before it are analysed but not counted
    last = analysis.rolls[-1]
    assert last.context.turn == 9 and last.context.player == 0 and last.luck != 0.0
    assert any(isinstance(d, CubeChoice) and d.context.turn == 9 for d in analysis.decisions)
    played = [r for r in analysis.rolls if r.context.player == 0][:-1]
    assert first.luck.total == pytest.approx(sum(r.luck for r in played))
    assert sum(first.luck.marks.values()) == 4 == first.checker.moves
    assert (first.cube.total, second.cube.total) == (3, 4)
    assert first.overall.luck_adjusted_result == pytest.approx(
        first.overall.actual_result - sum(r.cost for r in played) + second.luck.cost_total)


def test_the_bootstrap_of_a_long_session_draws_the_same_resamples_in_little_memory():
    """2,000 resamples of 20,000 decisions took 2000 x 20000 indices at once (320 MB, then as
    much again for the values): the same resamples are drawn a block at a time."""
    import tracemalloc

    values = np.random.default_rng(1).random(20_000) * 0.1
    rng = np.random.default_rng(7)  # the one draw the interval is defined by, for a short list
    short = values[:300]
    means = short[rng.integers(0, 300, size=(2000, 300))].mean(axis=1)
    assert bootstrap_mean_ci(short, seed=7) == tuple(float(q) for q in np.quantile(means, [0.025, 0.975]))
    tracemalloc.start()
    try:
        lo, hi = bootstrap_mean_ci(values, seed=7)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert lo < values.mean() < hi
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MB"


@pytest.mark.parametrize("crawford", [True, False])
def test_the_results_of_a_finished_match_add_up_to_what_the_match_was_worth(crawford: bool) -> None:
    # 3 points: player 0 wins 2 and is 1 away, then player 1 wins 3 and the match; without the
    # Crawford rule the second game is no Crawford game, and the first one led to it
    games = (GameAnalysis(1, (0, 0), False, 0, 2, (), ()),
             GameAnalysis(2, (2, 0), crawford, 1, 3, (), ()))
    analysis = MatchAnalysis(("A", "B"), 3, 0, games, crawford=crawford)
    a, b = analysis.statistics(resamples=1)
    assert a.overall.actual_result == pytest.approx(-0.5)
    assert b.overall.actual_result == pytest.approx(0.5)
