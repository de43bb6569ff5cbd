"""The engine's numbers on fixed inputs are those of the code before the speed work on the play
kernels (the play encoder that leaves out the scalars play folds away, the shots' early exit): 0-ply
evaluations of 400 wildbg positions, best plays at 0 and 1 ply, seeded 0-ply rollouts, cubeless and
cubeful (``data/speed_oracle.json``, written by the code before; the evaluations, plays and
rollouts written again by the same code for each change of the shipped weights since:
docs/training.md, steps 24 to 30; the rollouts for step 31, whose database values the races of
few checkers one of them plays through; and the evaluations and rollouts once more for the hidden
sums in int32, whose rounded first layer moves them by about a millionth, the plays the same;
and the cubeful rollout for step 33, whose cube nets double its position out: double, pass, as
GNU Backgammon's 2-ply and gammon's own 1,296-trial rollout have it); and the 0-ply evaluations
of the 16 positions the 0-ply crashed net plays and the rollouts for step 36 (the 0-ply plays the
same); and the evaluations, plays and rollouts for step 37, whose database values the races with a
side one roll from home: 12 evaluations of such races moved, 5 of the 400 0-ply plays and 2 of the
100 1-ply plays changed, all of them in races.
The plays must be the same plays; the numbers the same to
within a few units in the last place of a float32: the shipped kernels are the same machine code
everywhere, but what they compute lands a last bit apart from one CPU to another (seen between two
x86-64 machines), so the evaluations are kept as numbers, not as a digest of their bits. The check
runs where the shipped precompiled kernels are in use (tests/test_precompile.py checks that they
are)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks import WILDBG
from gammon import Position
from gammon.compiled import shipped_kernels
from gammon.engine.engine import Engine
from gammon.engine.rollout.rollouts import RolloutSettings

ORACLE = json.loads((Path(__file__).parent / "data" / "speed_oracle.json").read_text())

pytestmark = pytest.mark.skipif(
    shipped_kernels.unused_because is not None,
    reason=f"the shipped kernels are not in use: {shipped_kernels.unused_because}",
)


def _positions(n: int) -> list[Position]:
    ids = [(WILDBG / f"{k}.csv").read_text().split() for k in ("contact", "race")]
    return [Position.from_id(i) for pair in zip(*ids) for i in pair][:n]


def _text_digest(texts: list[str]) -> str:
    return hashlib.sha256("|".join(texts).encode()).hexdigest()


POSITIONS = _positions(400)
ROLLS = [(int(a), int(b)) for a, b in np.random.default_rng(5).integers(1, 7, size=(len(POSITIONS), 2))]


# A float32's last place near 1 is 6e-8; sums of a few hundred of them land within a few of those.
CLOSE = 2e-6


def test_zero_ply_evaluations() -> None:
    zero = Engine(plies=0)
    got = np.array([zero.evaluate(p).as_tuple() for p in POSITIONS])
    np.testing.assert_allclose(got, np.array(ORACLE["evaluate0"]), rtol=0, atol=CLOSE)


def test_best_plays_at_0_and_1_ply() -> None:
    zero, one = Engine(plies=0), Engine(plies=1)
    assert _text_digest([str(zero.best_play(p, d)) for p, d in zip(POSITIONS, ROLLS)]) == ORACLE["best_play0"]
    plays = [str(one.best_play(p, d)) for p, d in zip(POSITIONS[:100], ROLLS)]
    assert _text_digest(plays) == ORACLE["best_play1"]


def test_seeded_rollouts() -> None:
    zero = Engine(plies=0)
    got: dict[str, list[float]] = {}
    for k, p in enumerate(POSITIONS[:6:2]):
        r = zero.rollout(p, RolloutSettings(trials=72, seed=11 + k), workers=1)
        got[p.id] = [r.equity, r.standard_error.equity, *r.probabilities.as_tuple()]
    r = zero.rollout(POSITIONS[0], RolloutSettings(trials=36, seed=3, cubeful=True), workers=1)
    got["cubeful"] = [r.equity, r.standard_error.equity, r.cubeless_equity]
    assert got.keys() == ORACLE["rollouts"].keys()
    for key, values in got.items():
        np.testing.assert_allclose(values, ORACLE["rollouts"][key], rtol=0, atol=CLOSE, err_msg=key)
