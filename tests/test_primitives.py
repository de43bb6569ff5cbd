"""The rule primitives: the compiled kernels (gammon.primitive_kernels, as the search and training run
them) against the Python API (Position, Rules, the computer players), on random positions."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import Position, Rules, WinKind, primitives
from gammon.engine.net.evaluator import PipCountEvaluator
from gammon.engine.net.neural import consistent
from gammon.engine.players import win_chance
from gammon.engine.search.searcher import terminal_probabilities
from gammon.primitive_kernels import (
    checkers_on_board,
    clamp_probabilities,
    flip_into,
    gammons_count,
    pip_counts,
    race_win_chance,
    win_kind,
)
from gammon.rules import win_kind as rules_win_kind
from tests.helpers import pos
from tests.test_position import boards


@st.composite
def finished_boards(draw: st.DrawFn) -> list[int]:
    """The loser's view after the winner's last checker is off: 1-15 of its checkers on 1-25."""
    n = draw(st.one_of(st.just(15), st.integers(1, 14)))
    board = [0] * 26
    for slot in draw(st.lists(st.integers(1, 25), min_size=n, max_size=n)):
        board[slot] += 1
    return board


def _array(board: list[int] | tuple[int, ...]) -> np.ndarray:
    return np.array(board, dtype=np.int8)


@settings(deadline=None)  # the first example loads (or compiles) the kernels
@given(finished_boards())
def test_win_kind_kernel_search_and_rules_agree(board: list[int]) -> None:
    kind = win_kind(_array(board))
    assert kind == rules_win_kind(Position(board))
    probs = terminal_probabilities(_array(board)[None])[0]  # the search's exact ending, loser's view
    assert probs.tolist() == [0.0, 0.0, 0.0, float(kind >= WinKind.GAMMON),
                              float(kind == WinKind.BACKGAMMON)]


@settings(deadline=None)  # the first example loads (or compiles) the kernels
@given(boards())
def test_win_kind_is_zero_while_the_winner_has_checkers(board: list[int]) -> None:
    compiled = win_kind(_array(board))
    assert compiled == primitives.win_kind(tuple(board))
    if any(c < 0 for c in board):
        assert compiled == 0
        with pytest.raises(ValueError, match=re.escape(Position(board).id)):
            rules_win_kind(Position(board))


@pytest.mark.parametrize(("loser", "kind"), [
    ("x 5:3", WinKind.SINGLE),  # 12 borne off
    ("x 5:15", WinKind.GAMMON),
    ("x 5:14 20:1", WinKind.BACKGAMMON),  # one in the winner's home board
    ("x 5:14 bar:1", WinKind.BACKGAMMON),
    ("x 18:15", WinKind.GAMMON),  # all outside the winner's home board
])
def test_win_kind_literals(loser: str, kind: WinKind) -> None:
    assert win_kind(_array(pos(loser + "; o").board)) == kind


@settings(deadline=None)  # the first example loads (or compiles) the kernels
@given(boards())
def test_flip_kernel_is_position_flip(board: list[int]) -> None:
    out = np.zeros(26, dtype=np.int8)
    flip_into(_array(board), out)
    assert tuple(out.tolist()) == Position(board).flip().board


@settings(deadline=None)  # the first example loads (or compiles) the kernels
@given(boards())
def test_race_estimate_kernel_is_the_players_and_the_fake_evaluators(board: list[int]) -> None:
    position = Position(board)
    mover, opponent = pip_counts(_array(board))
    assert (mover, opponent) == position.pip_counts
    compiled = race_win_chance(mover, opponent)
    assert math.isclose(compiled, win_chance(position), rel_tol=1e-12, abs_tol=1e-15)
    fake = PipCountEvaluator().evaluate(_array(board)[None])[0, 0]
    assert fake == min(max(compiled, 0.001), 0.999)


def test_race_estimate_landmarks() -> None:
    assert race_win_chance(100, 100) > 0.5  # on roll
    assert 0.65 < race_win_chance(100, 108) < 0.75  # 8% ahead: the doubling point
    assert 0.18 < 1.0 - race_win_chance(100, 112) < 0.28  # 12% behind the doubler: about a take


@settings(deadline=None)  # the first example loads (or compiles) the kernels
@given(st.booleans(), st.booleans(), st.sampled_from([None, 0, 1]))
def test_jacoby_kernel_is_rules(money: bool, jacoby: bool, owner: int | None) -> None:
    rules = Rules(match_length=0 if money else 5, jacoby=jacoby)
    expected = not (money and jacoby and owner is None)
    assert rules.gammons_count(owner) is expected
    assert gammons_count(money, jacoby, owner is None) is expected


unit = st.floats(-0.5, 1.5, allow_nan=False)


@settings(deadline=None)  # the first example loads (or compiles) the kernels
@given(st.tuples(unit, unit, unit, unit, unit))
def test_clamp_kernel_is_python_and_consistent(probs: tuple[float, ...]) -> None:
    compiled = clamp_probabilities(*probs)
    assert compiled == primitives.clamp_probabilities(*probs)
    assert consistent(np.array([probs]))[0].tolist() == list(compiled)
    win, wg, wbg, lg, lbg = compiled
    assert 0.0 <= wbg <= wg <= win <= 1.0
    assert 0.0 <= lbg <= lg <= 1.0 - win
    assert clamp_probabilities(*compiled) == compiled
    if all(0.0 <= p <= 1.0 for p in probs) and probs[2] <= probs[1] <= probs[0] and \
            probs[4] <= probs[3] <= 1.0 - probs[0]:
        assert compiled == probs


@settings(deadline=None)
@given(st.tuples(unit, unit, unit, unit, unit), st.integers(1, 15), st.integers(1, 15))
def test_clamp_takes_away_the_gammons_a_board_rules_out(probs: tuple[float, ...], mover_on: int,
                                                        opponent_on: int) -> None:
    compiled = clamp_probabilities(*probs, mover_on, opponent_on)
    assert compiled == primitives.clamp_probabilities(*probs, mover_on, opponent_on)
    full = clamp_probabilities(*probs)
    win, wg, wbg, lg, lbg = compiled
    assert win == full[0]
    assert (wg, wbg) == (full[1:3] if opponent_on == 15 else (0.0, 0.0))  # the opponent has none off
    assert (lg, lbg) == (full[3:5] if mover_on == 15 else (0.0, 0.0))


@settings(deadline=None)
@given(boards())
def test_checkers_on_board_kernel_is_python_and_the_checkers_off(board: list[int]) -> None:
    off = Position(board).off
    expected = (15 - off[0], 15 - off[1])
    assert primitives.checkers_on_board(board) == expected
    assert checkers_on_board(np.array(board, dtype=np.int8)) == expected
    boards_ = np.array([board, board], dtype=np.int8)
    raw = np.array([[0.6, 0.3, 0.05, 0.2, 0.02]] * 2)
    clamped = consistent(raw, boards_)
    assert bool((clamped[:, 1] == 0.0).all()) == (off[1] > 0)  # no gammon to win
    assert bool((clamped[:, 3] == 0.0).all()) == (off[0] > 0)  # none to lose
