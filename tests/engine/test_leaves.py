"""The compiled search (gammon.engine.search.leaves) against the search's generic path, which takes the same
evaluator through its ``evaluate`` (the reference): the same values and the same best plays, bit
for bit, on positions of random games (contact, races, bear-offs, finished games)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gammon import Position
from gammon.engine.bearoff.one_sided import SHIPPED, BearoffDatabase
from gammon.engine.engine import default_bearoff
from gammon.engine.net.evaluator import CountingEvaluator
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.search.searcher import Searcher, SearchSettings
from tests.helpers import pos, random_game_positions


@pytest.fixture(scope="module")
def searchers() -> tuple[Searcher, Searcher]:
    ev = NeuralEvaluator.default()
    compiled, generic = Searcher(ev, default_bearoff()), Searcher(CountingEvaluator(ev), default_bearoff())
    assert compiled._compiled and not generic._compiled
    return compiled, generic


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return random_game_positions(seed=43, games=5)


def test_leaves_and_best_children_are_the_generic_ones(searchers: tuple[Searcher, Searcher],
                                                      positions: list[Position]) -> None:
    compiled, generic = searchers
    boards = np.array([p.board for p in positions], dtype=np.int8)
    kinds = generic.exact(boards)
    assert kinds.any() and (~kinds).any()  # bear-offs and finished games among them
    assert np.array_equal(compiled.leaf(boards), generic.leaf(boards))
    in_play = boards[[not p.is_game_over() for p in positions]]
    children, probs = compiled.best_children(in_play)
    want_children, want_probs = generic.best_children(in_play)
    assert np.array_equal(children, want_children) and np.array_equal(probs, want_probs)


def test_searches_are_the_generic_ones(searchers: tuple[Searcher, Searcher],
                                       positions: list[Position]) -> None:
    compiled, generic = searchers
    boards = np.array([p.board for p in positions if not p.is_game_over()], dtype=np.int8)
    assert np.array_equal(compiled.evaluate_boards(boards[::3], 1), generic.evaluate_boards(boards[::3], 1))
    assert np.array_equal(compiled.evaluate_boards(boards[::25], 2), generic.evaluate_boards(boards[::25], 2))


def test_best_plays_are_the_generic_ones(searchers: tuple[Searcher, Searcher],
                                         positions: list[Position]) -> None:
    compiled, generic = searchers
    rng = random.Random(9)
    decided = 0
    for p in positions:
        if p.is_game_over():
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        after, steps, best = compiled.best_play(p.as_array(), dice)
        want_after, want_steps, want_best = generic.best_play(p.as_array(), dice)
        assert np.array_equal(after, want_after) and np.array_equal(steps, want_steps) and best == want_best
        decided += len(after) > 1
        if len(after) > 1 and rng.random() < 0.1:
            order, probs, plies = compiled.rank_plays(after, SearchSettings())
            want = generic.rank_plays(after, SearchSettings())
            assert np.array_equal(order, want[0]) and np.array_equal(probs, want[1])
    assert decided > 300


def test_the_bearoff_database_is_read_when_first_met() -> None:
    ev = NeuralEvaluator.default()
    lazy = BearoffDatabase.load()
    assert lazy._tables is None
    compiled = Searcher(ev, lazy)
    contact = np.array([Position.initial().board], dtype=np.int8)
    compiled.leaf(contact)
    assert lazy._tables is None  # no bear-off met: not read
    home = pos("x 6:3 5:3 4:3 3:2 1:1; o 6:4 5:3 4:2 2:2")
    board = home.as_array()[None, :].copy()
    generic = Searcher(CountingEvaluator(ev), BearoffDatabase(*BearoffDatabase.load(SHIPPED)._read()))
    assert generic.exact(board).all()
    assert np.array_equal(compiled.leaf(board), generic.leaf(board))
    assert lazy._tables is not None
    children, probs = compiled.best_children(board)
    want = generic.best_children(board)
    assert np.array_equal(children, want[0]) and np.array_equal(probs, want[1])
