"""Search settings, move filters and batching."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.cubeful import MatchState, cube_efficiency
from gammon.engine.engine import Engine
from gammon.engine.evaluator import CountingEvaluator, PipCountEvaluator
from gammon.engine.search import PLAIN_FILTERS, MoveFilter, SearchSettings
from gammon.movegen import generate_arrays


def test_filters_are_validated() -> None:
    with pytest.raises(ValueError, match="keep"):
        MoveFilter(0, 0.1)
    with pytest.raises(ValueError, match="filters"):
        SearchSettings(plies=2, filters=())
    with pytest.raises(ValueError, match="True"):
        SearchSettings(plies=True)


def test_a_one_ply_filter_saves_two_ply_work() -> None:
    one = CountingEvaluator(PipCountEvaluator())
    two = CountingEvaluator(PipCountEvaluator())
    plain = Engine(evaluator=one, settings=SearchSettings(plies=2, filters=PLAIN_FILTERS))
    staged = Engine(evaluator=two, settings=SearchSettings(plies=2))
    p = Position.initial()
    assert plain.best_play(p, (4, 2)) is not None and staged.best_play(p, (4, 2)) is not None
    assert two.boards < one.boards
    assert two.calls == one.calls + 1  # the extra 1-ply pass


def test_filter_keeps_at_most_keep_plays() -> None:
    settings = SearchSettings(plies=1, filters=(MoveFilter(3, 1.0),))
    engine = Engine(evaluator=PipCountEvaluator(), settings=settings)
    hints = engine.hint(Position.initial(), (6, 5), n=10)
    assert [h.plies for h in hints].count(1) == 3
    _, after, _ = generate_arrays(Position.initial().as_array(), (6, 5))
    assert len(hints) == min(10, len(after))


def test_cube_efficiency() -> None:
    assert cube_efficiency(False, 100) == 0.68
    assert cube_efficiency(True, 10) == 0.6
    assert cube_efficiency(True, 100) == pytest.approx(0.675)
    assert cube_efficiency(True, 200) == 0.7


@pytest.mark.parametrize("kwargs", [
    {"away": 0, "opponent_away": 3},
    {"away": 3, "opponent_away": 3, "crawford_game": True},
    {"away": 1, "opponent_away": 3, "crawford_game": True, "post_crawford": True},
])
def test_bad_match_states(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        MatchState(**kwargs)


def test_evaluations_are_deterministic() -> None:
    engine = Engine(plies=1, evaluator=PipCountEvaluator())
    p = Position.from_id("4HPwATDgc/ABMA")
    np.testing.assert_array_equal(engine.evaluate(p).as_array(), engine.evaluate(p).as_array())


def test_hint_lists_deeper_plies_first() -> None:
    engine = Engine(plies=2, evaluator=PipCountEvaluator())
    hints = engine.hint(Position.initial(), (2, 1), n=20)
    plies = [h.plies for h in hints]
    assert plies == sorted(plies, reverse=True)
    assert plies[0] == 2 and plies.count(2) <= 3 and plies.count(1) + plies.count(2) <= 8
    for ply in set(plies):
        eq = [h.equity for h in hints if h.plies == ply]
        assert eq == sorted(eq, reverse=True)
