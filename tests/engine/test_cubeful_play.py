"""benchmarks/strength/cubeful_play.py: the mirrored-pair arithmetic, the reading of GNU Backgammon's hints,
and games with the cube on against the real gnubg (a dropped double, a redouble, a tiny run)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.strength import cubeful_play as cp
from benchmarks.strength import strength
from gammon import Position
from gammon.dice import RandomDice
from gammon.engine.players import CubeAnswer, EnginePlayer, HeuristicCube
from gammon.formats.matchid import MatchState, format_gnubg_id
from gammon.game import Double, Game, Pass
from gammon.play import Play
from tests.helpers import needs_gnubg

# GNU Backgammon 1.07's texts (money, Jacoby on)
CUBE_HINT = """
Cube analysis
0-ply cubeless equity +0.067
  0.522 0.154 0.008 - 0.478 0.130 0.008
Cubeful equities:
1. No double           +0.084
2. Double, pass        +1.000  (+0.916)
3. Double, take        -0.191  (-0.276)
Proper cube action: No double, beaver (23.1%)
"""

MOVE_HINT = """
    1. Cubeful 0-ply    24/22 13/8                   Eq.: +0.028
       0.508 0.135 0.007 - 0.492 0.132 0.005
        0-ply cubeful prune [expert]
    2. Cubeful 0-ply    13/11 13/8                   Eq.: -0.003 (-0.031)
       0.496 0.149 0.010 - 0.504 0.143 0.007
"""


# --- arithmetic --------------------------------------------------------------------------------


def test_pair_stats_takes_the_error_from_the_pair_means() -> None:
    # pair means 0, 1, -1, 0: mean 0, sample sd sqrt(2/3), standard error sqrt(2/3) / 2
    mean, se = strength.pair_stats([1, -1, 2, 0, -3, 1, 0, 0])
    assert mean == 0.0
    assert se == pytest.approx(math.sqrt(2 / 3) / 2)
    # a pair whose two games cancel (the dice, not the players, decided) adds no spread
    assert strength.pair_stats([2, -2, 2, -2, 1, -1, 3, -3]) == (0.0, 0.0)


def test_pair_stats_refuses_unpaired_results() -> None:
    with pytest.raises(ValueError, match="got 5"):
        strength.pair_stats([1, 0, 1, 0, 1])


def test_summary_counts_each_side() -> None:
    a = cp.Outcome(2, final_cubes=[2], dropped=0)
    a.cube[0].doubles, a.cube[1].takes = 1, 1
    b = cp.Outcome(-1, final_cubes=[1], dropped=1)
    b.cube[1].doubles, b.cube[0].drops = 1, 1
    c, d = cp.Outcome(1, final_cubes=[1]), cp.Outcome(-1, final_cubes=[1])
    text = cp.summary("engine:0", "gnubg", [a, b, c, d], 0, 1)
    assert "+0.250 ppg +- 0.250 over 4 games (2 mirrored pairs, seed 1); won 50.0%" in text
    assert "1 of 4 games ended by a dropped double" in text
    assert "mean final cube 1.25, largest 2 (0 games at 16 or more)" in text and "no cube limit" in text
    assert "engine:0: 1 doubles (0 redoubles), 0 takes, 1 drops" in text
    assert "gnubg: 1 doubles (0 redoubles), 1 takes, 0 drops" in text


# --- reading gnubg's hints ----------------------------------------------------------------------


@pytest.mark.parametrize(("line", "double", "take"), [
    ("Double, take", True, True), ("Double, pass", True, False), ("Redouble, pass", True, False),
    ("No double, take (23.1%)", False, True), ("No redouble, beaver", False, True),
    ("Too good to double, pass", False, False), ("Too good to redouble, take", False, True),
    ("Optional double, take", True, True), ("Never double, take (dead cube)", False, True),
])
def test_parse_cube_action(line: str, double: bool, take: bool) -> None:
    text = f"Cubeful equities:\nProper cube action: {line}\n"
    assert cp.parse_cube_action(text) == cp.CubeAction(double, take)


def test_parse_cube_action_of_a_real_hint_and_refusals() -> None:
    assert cp.parse_cube_action(CUBE_HINT) == cp.CubeAction(False, True)
    with pytest.raises(ValueError, match="no proper cube action"):
        cp.parse_cube_action(MOVE_HINT)
    with pytest.raises(ValueError, match="unknown cube action"):
        cp.parse_cube_action("Proper cube action: Maybe double, take")


def test_parse_best_move() -> None:
    assert cp.parse_best_move(MOVE_HINT) == "24/22 13/8"
    assert cp.parse_best_move("    1. Cubeful 0-ply    bar/22* 6/off(2)     Eq.: +1.2") == "bar/22* 6/off(2)"
    with pytest.raises(ValueError, match="no best move"):
        cp.parse_best_move(CUBE_HINT)


# --- against the real GNU Backgammon -------------------------------------------------------------


class Eager(HeuristicCube):
    """Plays the first legal play, doubles whenever it may, drops every double."""

    level = "eager"

    def choose_play(self, game: Game) -> Play | None:
        plays = game.legal_plays()
        return plays[0] if plays else None

    def wants_to_double(self, game: Game) -> bool:
        return game.can_double()

    def answer_double(self, game: Game) -> CubeAnswer:
        return "pass"


class Confident(EnginePlayer):
    """Engine(plies=0)'s plays; doubles only when its cubeless win chance is 90% or more (a clear
    pass) and would still be 70% with the opponent on roll (not a last-roll position, which either
    side wins by being on roll); takes every double."""

    def wants_to_double(self, game: Game) -> bool:
        if not game.can_double():
            return False
        position = game.position
        return self.engine.evaluate(position).win >= 0.9 and self.engine.evaluate(position.flip()).win <= 0.3

    def answer_double(self, game: Game) -> CubeAnswer:
        return "take"


@pytest.fixture(scope="module")
def gnubg() -> Iterator[Any]:  # a cubeful_play.GnubgPlayer
    player = cp.make_player("gnubg")
    yield player
    cp._servers.pop(0).close()


@needs_gnubg
def test_gnubg_cube_action_is_the_player_on_roll_s(gnubg: Any) -> None:
    # the player on roll bears off its last 4 checkers next roll; the opponent has 50 pips left
    mover, opponent = [0] * 25, [0] * 25
    mover[0] = mover[1] = 2
    opponent[5], opponent[4] = 5, 4
    leader = Position.from_gnubg_board((opponent, mover))
    ahead = cp.parse_cube_action(gnubg.server.hint(format_gnubg_id(leader, MatchState())))
    behind = cp.parse_cube_action(gnubg.server.hint(format_gnubg_id(leader.flip(), MatchState())))
    assert ahead == cp.CubeAction(double=True, take=False)
    assert not behind.double


@needs_gnubg
def test_gnubg_at_double_match_point_neither_doubles_nor_passes(gnubg: Any) -> None:
    # 6-6 in a 7-point match: gnubg gives no cube analysis; the cube is of no use
    dmp = format_gnubg_id(Position.initial(), MatchState(match_length=7, score=(6, 6)))
    assert gnubg.server.hint(dmp).strip() == ""
    assert gnubg.cube_action(dmp) == cp.CubeAction(double=False, take=True)
    # at 5-6 the trailer's cube is alive: gnubg analyses it
    alive = format_gnubg_id(Position.initial(), MatchState(match_length=7, score=(5, 6)))
    assert "Proper cube action" in gnubg.server.hint(alive)


@needs_gnubg
def test_gnubg_takes_an_early_double_then_redoubles_and_the_drop_scores_two(gnubg: Any) -> None:
    eager = Eager()
    redoubled = None
    for seed in range(8):
        seat = seed % 2
        outcome = cp.play_money_game(eager, gnubg, seat, RandomDice(seed))
        doubles = outcome.cube[0].doubles
        assert doubles == 1  # its first chance, with the cube centred; then gnubg owns the cube
        assert outcome.cube[1].takes == 1  # an early double is an easy take
        if outcome.cube[1].redoubles:
            redoubled = outcome
            break
    assert redoubled is not None, "gnubg never redoubled against a player who plays its first legal move"
    # the eager player dropped the redouble to 4: it loses the 2 the cube was worth
    assert redoubled.value == -2 and redoubled.final_cubes == [2] and redoubled.dropped == 1
    assert (redoubled.cube[0].drops, redoubled.cube[1].doubles) == (1, 1)


@needs_gnubg
def test_gnubg_drops_a_clear_pass_and_the_doubler_scores_the_cube(gnubg: Any) -> None:
    from gammon.engine.engine import Engine

    confident = Confident(Engine(plies=0), "confident")
    for seed in range(12):
        seat = seed % 2
        game = Game(dice=RandomDice(100 + seed))
        cp.play_out(game, [confident, gnubg] if seat == 0 else [gnubg, confident])
        assert game.result is not None
        last_double = next((a for a in reversed(game.history) if isinstance(a, Double)), None)
        if last_double is None or last_double.player != seat:
            continue
        # a double at 90% cubeless or more: gnubg passes and the doubler wins the cube it offered
        assert isinstance(game.history[-1], Pass) and game.history[-1].player == 1 - seat
        assert game.result.winner == seat and game.result.reason == "pass"
        assert game.result.points == last_double.cube_value // 2
        return
    pytest.fail("the confident player never doubled in 12 games")


@needs_gnubg
def test_tiny_run_money_and_match(gnubg: Any) -> None:
    job, money = cp._run_job(("engine:0", "gnubg", 3, 0, [0, 1], None))
    assert len(money) == 4 and all(o.games == 1 for o in money)
    for o in money:
        # a game's points are the final cube times 1, 2 or 3 (or 1 with Jacoby's centred cube)
        assert abs(o.value) in {o.final_cubes[0] * k for k in (1, 2, 3)}
    assert "over 4 games (2 mirrored pairs, seed 3)" in cp.summary("engine:0", "gnubg", money, 0, 3)
    _, matches = cp._run_job(("engine:0", "gnubg", 3, 3, [0], None))
    assert [o.value for o in matches] in ([0, 0], [0, 1], [1, 0], [1, 1])
    assert all(o.games == len(o.final_cubes) >= 1 for o in matches)


def test_mirrored_pair_swaps_the_seats_on_the_same_dice() -> None:
    # Eager against Eager: the opening roll's loser doubles at its first turn and the winner drops.
    # The same dice give the opening to the same seat, which the other player holds in the second
    # game: one game of the pair is won, the other lost.
    for pair in range(6):
        outcomes = cp.play_pair(Eager(), Eager(), 1, pair)
        assert sorted(o.value for o in outcomes) == [-1, 1]
        assert all(o.dropped == 1 and o.final_cubes == [1] for o in outcomes)
        assert [o.cube[0].doubles for o in outcomes] in ([0, 1], [1, 0])


class Reckless(Eager):
    """Doubles whenever it may and takes every double."""

    def answer_double(self, game: Game) -> CubeAnswer:
        return "take"


def test_cube_limit_stops_the_redoubles() -> None:
    for limit in (None, 4):
        outcomes = cp.play_pair(Reckless(), Reckless(), 2, 0, cube_limit=limit)
        for o in outcomes:
            doubles = o.cube[0].doubles + o.cube[1].doubles
            assert o.final_cubes == [2 ** doubles] and o.dropped == 0
            assert abs(o.value) in {o.final_cubes[0] * k for k in (1, 2, 3)}
            if limit is None:
                assert doubles > 2  # each player redoubles at every turn
            else:
                assert doubles == 2 and o.final_cubes == [4]
