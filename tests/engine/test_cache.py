"""The evaluation cache: bounded in bytes however many boards go through it, and a board gets the
outputs the net gives it whether they come from the cache, from the net, or from the net again
after its entry was dropped."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from numba import njit

from gammon.engine.engine import Engine
from gammon.engine.net.cache import ENTRY_BYTES, PLAY, EvaluationCache, cache_find, cache_key, cache_store
from gammon.engine.net.evaluator import PipCountEvaluator
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.search.searcher import ROLLS, expand
from tests.helpers import random_game_positions


@pytest.fixture(scope="module")
def boards() -> np.ndarray:
    positions = np.array([p.board for p in random_game_positions(seed=41, games=3)], dtype=np.int8)
    children, _ = expand(positions[::9], ROLLS)
    return np.concatenate([positions, children])


def _with_cache(nbytes: int) -> NeuralEvaluator:
    ev = NeuralEvaluator.default()
    return ev.replaced(cache_bytes=nbytes)


@pytest.mark.parametrize("nbytes", [0, 1, ENTRY_BYTES, 2 * ENTRY_BYTES, 1000, 4096, 1 << 20, 12_345_678])
def test_the_table_takes_at_most_its_bytes(nbytes: int) -> None:
    cache = EvaluationCache(nbytes)
    assert cache.nbytes <= nbytes
    assert cache.slots == 0 or (cache.slots >= 2 and cache.slots & (cache.slots - 1) == 0)
    # and no less than half of them once there is room for a pair
    assert cache.slots or nbytes < 2 * ENTRY_BYTES
    assert cache.nbytes > nbytes // 2 or cache.slots == 0


def test_bad_sizes_are_refused() -> None:
    for bad in (-1, 1.5, True, "1"):
        with pytest.raises(ValueError, match="bytes"):
            EvaluationCache(bad)  # type: ignore[arg-type]


def test_outputs_are_the_nets_from_the_cache_and_after_eviction(boards: np.ndarray) -> None:
    plain = _with_cache(0).evaluate(boards)
    plain_cube = _with_cache(0).evaluate_with_cube(boards)
    for nbytes in (4 * ENTRY_BYTES, 64 * ENTRY_BYTES, 1 << 22):
        ev = _with_cache(nbytes)
        first = ev.evaluate(boards)
        again = ev.evaluate(boards[::-1])[::-1]  # hits, and misses where entries were dropped
        assert np.array_equal(first, plain) and np.array_equal(again, plain)
        both = ev.evaluate_with_cube(boards)
        assert np.array_equal(both[0], plain_cube[0]) and np.array_equal(both[1], plain_cube[1])
        assert np.array_equal(ev.evaluate_for_cube(boards), plain_cube[1])
        assert ev.cache.lookups > 0
        if ev.cache.slots < len(boards):
            assert ev.cache.stats[2] > ev.cache.slots  # entries were dropped on the way
        else:
            assert ev.cache.hits >= len(boards) - 50  # the second pass found (almost) every board


def test_a_repeated_board_is_a_hit(boards: np.ndarray) -> None:
    ev = _with_cache(1 << 20)
    ev.evaluate(boards[:1])
    hits = ev.cache.hits
    ev.evaluate(boards[:1])
    assert ev.cache.hits == hits + 1


def test_changed_weights_empty_the_cache(boards: np.ndarray) -> None:
    ev = NeuralEvaluator.random(seed=3)
    ev.evaluate(boards)
    ev.contact.w2[:] *= -1
    ev.weights_changed()
    assert ev.cache.hits == 0 and ev.cache.lookups == 0
    fresh = NeuralEvaluator(ev.contact, ev.race, cache_bytes=0)
    assert np.array_equal(ev.evaluate(boards), fresh.evaluate(boards))


def test_a_pickled_evaluator_carries_an_empty_cache_of_its_size(boards: np.ndarray) -> None:
    ev = _with_cache(1 << 16)
    ev.evaluate(boards)
    copy = pickle.loads(pickle.dumps(ev))
    assert copy.cache.limit == 1 << 16 and copy.cache.lookups == 0 and not copy.cache.keys.any()
    parts = (ev.contact, ev.race, ev.crashed, ev.cube, ev.borne, ev.zero_ply, ev.zero_ply_crashed)
    nets = sum(len(pickle.dumps(net)) for net in parts if net is not None)
    assert len(pickle.dumps(ev)) < nets + 100_000  # the nets and heads, not the cache's table
    assert np.array_equal(copy.evaluate(boards), ev.evaluate(boards))


@njit(cache=True)
def _insert_and_check(keys, values, stats, n, seed):
    """Store ``n`` synthetic boards (each board's outputs a function of the board), then look each
    of the last ``n // 4`` up again: returns ``(hits, wrong)``, the hits and the hits whose outputs
    were not their board's."""
    board = np.zeros(26, dtype=np.int8)
    key = np.zeros(4, dtype=np.uint64)
    f = np.zeros(5, dtype=np.float32)
    hits = 0
    wrong = 0
    for phase in range(2):
        for i in range(n // 4 * 3 * phase, n):
            x = np.uint64(i) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(seed)
            for j in range(26):
                board[j] = np.int8(np.int64((x >> np.uint64(2 * j % 64)) & np.uint64(31)) - 15)
            cache_key(board, PLAY, key)
            if phase == 0:
                for k in range(5):
                    f[k] = np.float32(board[k] * 26 + board[25 - k])
                cache_store(keys, values, stats, key, f, 0)
            elif cache_find(keys, values, stats, key, f, 0):
                hits += 1
                for k in range(5):
                    wrong += f[k] != np.float32(board[k] * 26 + board[25 - k])
    return hits, wrong


def test_millions_of_stores_stay_in_the_bound_and_a_hit_is_its_own_board() -> None:
    nbytes = 1 << 20
    cache = EvaluationCache(nbytes)
    keys, values = cache.keys, cache.values

    def where() -> tuple[int, int, int]:
        return cache.nbytes, keys.__array_interface__["data"][0], values.__array_interface__["data"][0]

    before = where()
    n = 3_000_000
    hits, wrong = _insert_and_check(*cache.arrays(), n, 12345)
    # the same arrays, no larger: the table never grows, it drops entries
    assert where() == before and cache.keys is keys and cache.values is values
    assert cache.nbytes <= nbytes and cache.stats[2] == n
    # the last stores are still there (most of them); every hit is its own board's outputs
    assert wrong == 0
    assert cache.slots // 2 < hits <= cache.slots


def test_evaluations_are_the_same_with_and_without_the_cache_on_random_positions() -> None:
    rng = np.random.default_rng(8)
    boards = np.array([p.board for p in random_game_positions(seed=8, games=4)], dtype=np.int8)
    boards = np.concatenate([boards, boards[rng.permutation(len(boards))]])  # each board twice
    plain = _with_cache(0)
    small = _with_cache(8 * ENTRY_BYTES)  # far fewer slots than boards: eviction all the time
    large = _with_cache(1 << 22)
    expected = plain.evaluate(boards)
    for ev in (small, large):
        for part in np.array_split(np.arange(len(boards)), 7):
            assert np.array_equal(ev.evaluate(boards[part]), expected[part])
    assert large.cache.hits >= len(boards) // 2 - 20 and small.cache.stats[2] > small.cache.slots


def test_an_engine_takes_its_cache_size() -> None:
    shared = Engine(plies=0)
    own = Engine(plies=0, cache_bytes=1 << 16)
    assert isinstance(own.evaluator, NeuralEvaluator) and own.evaluator.cache.limit == 1 << 16
    assert own.evaluator is not shared.evaluator and own.evaluator.contact is shared.evaluator.contact
    none = Engine(plies=0, cache_bytes=0)
    assert isinstance(none.evaluator, NeuralEvaluator) and none.evaluator.cache.slots == 0
    p = random_game_positions(seed=2, games=1)[10]
    assert own.best_play(p, (3, 1)) == none.best_play(p, (3, 1)) == shared.best_play(p, (3, 1))
    with pytest.raises(ValueError, match="neural evaluator"):
        Engine(plies=0, evaluator=PipCountEvaluator(), cache_bytes=1 << 16)
