"""The compiled search (gammon.engine.search.leaves) against the search's generic path, which takes the same
evaluator through its ``evaluate`` (the reference): the same values and the same best plays, bit
for bit, on positions of random games (contact, races, bear-offs, finished games)."""

from __future__ import annotations

import pickle
import random
import sys
import threading

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
    generic = Searcher(CountingEvaluator(ev), BearoffDatabase.load(SHIPPED))  # read at once
    assert generic.exact(board).all()
    assert np.array_equal(compiled.leaf(board), generic.leaf(board))
    assert lazy._tables is not None
    children, probs = compiled.best_children(board)
    want = generic.best_children(board)
    assert np.array_equal(children, want[0]) and np.array_equal(probs, want[1])


def test_the_chosen_play_is_the_generic_best(searchers: tuple[Searcher, Searcher],
                                             positions: list[Position]) -> None:
    # 0-ply play's kernel (leaves.choose_play, its scratch kept from call to call) against the
    # generic search; the spread position has more plays of each double than the scratch holds
    compiled, generic = searchers
    rng = random.Random(11)
    spread = pos("x 24:1 23:1 22:1 21:1 20:1 19:1 18:1 17:1 16:1 15:1 14:1 13:1 12:1 11:1 10:1; o 24:15")
    work = [(p, (rng.randint(1, 6), rng.randint(1, 6))) for p in positions if not p.is_game_over()]
    work += [(spread, (d, d)) for d in range(1, 7)] + [(spread, (6, 5))]
    assert len(generic.best_play(spread.as_array(), (1, 1))[0]) > 1024
    for p, dice in work:
        after, steps, best = generic.best_play(p.as_array(), dice)
        chosen = compiled.chosen_play(p.as_array(), dice)
        assert chosen == (None if best < 0 else (steps[best].tolist(), after[best].tolist()))


def test_the_chosen_play_follows_new_weights() -> None:
    ev = NeuralEvaluator.random(seed=1)
    searcher = Searcher(ev, default_bearoff())
    positions = [p for p in random_game_positions(seed=8, games=2) if not p.is_game_over()][:60]
    before = [searcher.chosen_play(p.as_array(), (4, 2)) for p in positions]
    ev.contact = NeuralEvaluator.random(seed=2).contact  # as training replaces a net
    ev.weights_changed()
    fresh = Searcher(NeuralEvaluator(ev.contact, ev.race), default_bearoff())
    after = [searcher.chosen_play(p.as_array(), (4, 2)) for p in positions]
    assert after == [fresh.chosen_play(p.as_array(), (4, 2)) for p in positions]
    assert after != before  # the new net chooses otherwise somewhere


def test_threads_and_pickles_each_get_their_own_scratch(searchers: tuple[Searcher, Searcher],
                                                        positions: list[Position]) -> None:
    # chosen_play reads its kernel's answer after the call, when another thread may have run the
    # kernel on the same searcher: each thread has its own scratch (switching threads as often as
    # the interpreter can, the shared one it replaced answered with another thread's plays)
    compiled, _ = searchers
    work = [(p, (d, 7 - d)) for p in positions if not p.is_game_over() for d in (1, 2, 3)][:300]
    want = [compiled.chosen_play(p.as_array(), dice) for p, dice in work]
    got: dict[int, list[object]] = {}

    def run(k: int) -> None:
        got[k] = [compiled.chosen_play(p.as_array(), dice) for p, dice in work]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert all(got[k] == want for k in range(4))
    again = pickle.loads(pickle.dumps(compiled))
    assert [again.chosen_play(p.as_array(), dice) for p, dice in work[:40]] == want[:40]
