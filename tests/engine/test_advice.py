"""gammon.advice: the ranked plays, evaluations and rollouts as the CLI and the web show them."""

from __future__ import annotations

import pytest

from gammon import Position, Rules
from gammon.advice import hint_json, ranked_plays
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import PipCountEvaluator
from gammon.situation import Situation


@pytest.mark.parametrize("rules", [Rules(), Rules(match_length=5)])
@pytest.mark.parametrize("n", [0, -1, True, 2.0, "3"])
def test_a_count_of_plays_that_is_no_positive_number_is_refused(rules: Rules, n: object) -> None:
    """In a match ranked_plays(n=0) gave no plays, silently (it asks the engine for at least
    MATCH_CANDIDATES and cut the list to n), where money refused it; "3" failed comparing str and int."""
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    context = Situation(Position.initial(), rules=rules)
    with pytest.raises(ValueError, match=f"n must be a positive number of plays, got {n!r}"):
        ranked_plays(engine, context, (3, 1), n)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"n must be a positive number of plays, got {n!r}"):
        hint_json(engine, context, (3, 1), n)  # type: ignore[arg-type]


def test_a_match_ranks_n_plays_by_match_winning_chance() -> None:
    engine = Engine(plies=0, evaluator=PipCountEvaluator())
    scored = ranked_plays(engine, Situation(Position.initial(), rules=Rules(match_length=5)), (3, 1), 1)
    assert len(scored) == 1 and 0.0 < scored[0][1] < 1.0
