"""The evaluation cache: bounded in bytes, and a board gets the outputs the net gives it whether
they come from the cache, from the net, or from the net again after its entry was dropped."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from gammon.engine.net.cache import ENTRY_BYTES, EvaluationCache
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
    return NeuralEvaluator(ev.contact, ev.race, ev.games, ev.cube_head, ev.borne_head, cache_bytes=nbytes)


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
    assert len(pickle.dumps(ev)) < len(pickle.dumps(ev.contact)) + len(pickle.dumps(ev.race)) + 100_000
    assert np.array_equal(copy.evaluate(boards), ev.evaluate(boards))
