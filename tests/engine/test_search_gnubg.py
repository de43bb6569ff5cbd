"""Oracle: with GNU Backgammon's own 0-ply evaluation as the leaf, gammon's 1 and 2 ply searches
must give GNU Backgammon's 1 and 2 ply evaluations (same roll averaging, same 0-ply reply choice),
and 0-ply play must pick GNU Backgammon's play. Tolerances cover gnubg's float32 arithmetic; a
wrong search (another reply, another roll weight) is off by far more."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.engine import Engine
from tests.helpers import random_game_positions

gnubg = pytest.importorskip("gnubg")

CUBE = {**gnubg.cubeinfo(), "jacoby": 0}


def context(plies: int) -> dict:
    return gnubg.evalcontext(0, plies, 1, 0, 0.0)


class GnubgEvaluator:
    """The Evaluator protocol over gnubg.evaluate at 0 ply (float32 nets, its own bear-off DBs)."""

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        ctx = context(0)
        return np.array([gnubg.evaluate(Position(row.tolist()).to_gnubg_board(), CUBE, ctx)[:5]
                         for row in boards], dtype=np.float64).reshape(-1, 5)


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return [p for p in random_game_positions(seed=3, games=2)[3::9] if not p.is_game_over()]


def test_one_ply_matches_gnubg(positions: list[Position]) -> None:
    engine = Engine(plies=1, evaluator=GnubgEvaluator(), bearoff=False)
    for p in positions[:6]:
        ours = engine.evaluate(p).as_array()
        theirs = np.array(gnubg.evaluate(p.to_gnubg_board(), CUBE, context(1))[:5])
        np.testing.assert_allclose(ours, theirs, atol=2e-5, err_msg=p.id)


def test_two_ply_matches_gnubg(positions: list[Position]) -> None:
    engine = Engine(plies=2, evaluator=GnubgEvaluator(), bearoff=False)
    p = positions[2]
    ours = engine.evaluate(p).as_array()
    theirs = np.array(gnubg.evaluate(p.to_gnubg_board(), CUBE, context(2))[:5])
    np.testing.assert_allclose(ours, theirs, atol=2e-5, err_msg=p.id)


def test_zero_ply_play_matches_gnubg(positions: list[Position]) -> None:
    engine = Engine(plies=0, evaluator=GnubgEvaluator(), bearoff=False)
    rng = np.random.default_rng(4)
    compared = 0
    for p in positions:
        dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
        ranked = gnubg.findbestmoves(p.to_gnubg_board(), CUBE, context(0), dice)
        play = engine.best_play(p, dice)
        if play is None:
            assert not ranked or not ranked[0]["move"]
            continue
        # compare by 0-ply equity: ties and cut move tuples make the tuple itself unreliable
        ours = -gnubg.evaluate(play.after.to_gnubg_board(), CUBE, context(0))[5]
        assert ours == pytest.approx(ranked[0]["score"], abs=1e-5), (p.id, dice)
        compared += 1
    assert compared >= 5
