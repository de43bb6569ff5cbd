"""The 0-ply analyses of two real matches and two money games are those the analysis gave before
its cube equities were valued in batches (``Stakes.equities``): the same JSON
(``data/zero_ply_analyses.json``: the SHA-256 of everything in it but its numbers, which are the
plays, the cube actions and the marks, and its error and luck totals, to within a few float32 last
places: the shipped kernels land a last bit apart from one CPU to another, seen between two x86-64
machines). They depend on the shipped weights' cube head too, and were written again when it
was fitted again (docs/training.md, step 23): the errors moved, the luck did not; and again when
the crashed net came (step 24), which moved both where a side has crashed; and again when the
outputs lost the gammons a checker borne off rules out; and again for the crashed net's cube head
(step 26), which moved the cube decisions' equities, the luck not; and again for the race net of
step 27, which moved both in the races; and again for the match cube's cash points (a live cube's,
as GNU Backgammon computes them), which moved both at match scores; and again for the crashed
net fitted with a ranking term and its cube head (step 28), and with a smaller weight on that term
(step 29); and again for the contact net fitted with that term and its two heads (step 30); and
again for the two cube nets (step 33), which moved the cube errors, the luck not; and again for
the 0-ply crashed net (step 36), which moved the errors and the luck where a side has crashed; and
again for the races one roll from home in the bear-off database (step 37), which moved 26 decisions'
numbers, 22 of them in races and the rest contact positions whose plays lead into one. The check runs
where the shipped precompiled kernels are in use (tests/test_precompile.py checks that they
are)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from gammon import Game, Rules
from gammon.analysis import analyse
from gammon.analysis.serialize import analysis_to_dict
from gammon.compiled import shipped_kernels
from gammon.dice import RandomDice
from gammon.engine.engine import Engine
from gammon.formats import read_mat

DATA = Path(__file__).parent / "data" / "zero_ply_analyses.json"
MATS = Path(__file__).parents[1] / "data" / "mat" / "real"

pytestmark = pytest.mark.skipif(
    shipped_kernels.unused_because is not None,
    reason=f"the shipped kernels are not in use: {shipped_kernels.unused_because}",
)


def _money_game(engine: Engine, seed: int) -> Game:
    """A money game played out by ``engine`` on seeded dice (no doubles)."""
    game = Game(Rules(), dice=RandomDice(seed))
    while not game.is_over:
        game.roll()
        if game.legal_plays():
            play = engine.best_play(game.situation())
            assert play is not None
            game.play(play)
    return game


def _without_numbers(value: object) -> object:
    """``value`` with every float left out (its ints, strings and the shape of it kept)."""
    if isinstance(value, dict):
        return {k: _without_numbers(v) for k, v in value.items() if not isinstance(v, float)}
    if isinstance(value, list):
        return [_without_numbers(v) for v in value if not isinstance(v, float)]
    return value


def _summary(analysis: dict) -> dict:
    decisions = analysis["decisions"]
    return {
        "sha256": hashlib.sha256(json.dumps(_without_numbers(analysis), sort_keys=True).encode()).hexdigest(),
        "decisions": len(decisions),
        "error": sum(d.get("error") or 0.0 for d in decisions),
        "luck": sum((d.get("luck") or {}).get("luck") or 0.0 for d in decisions),
    }


@pytest.mark.parametrize(
    "case", ["gnubg/gnubgparser-charlot1-charlot2_7p.mat", "gnubg/gnubgparser-selfplay_drops_7p.mat", "money"]
)
def test_zero_ply_analysis_is_the_stored_one(case: str) -> None:
    engine = Engine(plies=0)
    if case == "money":
        source = [_money_game(engine, 3), _money_game(engine, 4)]
        analysis = analyse(source, engine)
    else:
        analysis = analyse(read_mat((MATS / case).read_text()), engine)
    got, want = _summary(analysis_to_dict(analysis)), json.loads(DATA.read_text())[case]
    assert (got["sha256"], got["decisions"]) == (want["sha256"], want["decisions"])
    assert got["error"] == pytest.approx(want["error"], rel=0, abs=1e-5)
    assert got["luck"] == pytest.approx(want["luck"], rel=0, abs=1e-5)
