"""The play-time forward pass: the exact hidden sums updated from board to board give the outputs a
fresh evaluation gives, bit for bit, whatever came before; they stay within 1e-4 of the float
reference; and the engine's chosen plays are those of the forward pass it replaced."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import Position
from gammon.engine.engine import Engine
from gammon.engine.net.cache import EvaluationCache
from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import (
    DENOMINATORS,
    LINEAR_SCALARS,
    N_INPUTS,
    NUMERATOR_BOUNDS,
    SCALAR_INPUTS,
    borne_off_mask,
    encode,
    race_mask,
)
from gammon.engine.net.forward import exact_first_layer
from gammon.engine.net.neural import CubeHead, Net, NeuralEvaluator, consistent
from gammon.engine.search.searcher import ROLLS, expand
from tests.engine.reference_forward import ReferenceEvaluator
from tests.helpers import random_game_positions


@pytest.fixture(scope="module")
def shipped() -> NeuralEvaluator:
    return NeuralEvaluator.default().replaced(cache_bytes=0)


@pytest.fixture(scope="module")
def boards() -> np.ndarray:
    """Positions of random games and every play of every roll of a few of them (the boards a
    search meets one after another: siblings differ by a few inputs)."""
    positions = np.array([p.board for p in random_game_positions(seed=17, games=6)], dtype=np.int8)
    children, _ = expand(positions[::7], ROLLS)
    return np.concatenate([positions, children])


def _one_by_one(ev: NeuralEvaluator, boards: np.ndarray, cube: bool = False) -> np.ndarray:
    if cube:
        return np.vstack([ev.evaluate_for_cube(b[None]) for b in boards])
    return np.vstack([ev.evaluate(b[None]) for b in boards])


def test_updated_sums_give_the_fresh_outputs_bit_for_bit(
    shipped: NeuralEvaluator, boards: np.ndarray
) -> None:
    # a batch updates each net's sums from the board before; alone, a board is evaluated afresh
    assert np.array_equal(shipped.evaluate(boards), _one_by_one(shipped, boards))
    with_cube = shipped.evaluate_with_cube(boards)
    assert np.array_equal(with_cube[0], shipped.evaluate(boards))
    assert np.array_equal(with_cube[1], _one_by_one(shipped, boards, cube=True))


@pytest.mark.parametrize(("hidden", "race_hidden", "seed"), [(40, 24, 1), (13, 7, 2)])
def test_updated_sums_are_the_fresh_ones_for_other_nets(
    boards: np.ndarray, hidden: int, race_hidden: int, seed: int
) -> None:
    # random weights and hidden layers of any width: the update owes nothing to the shipped net
    ev = NeuralEvaluator.random(hidden=hidden, race_hidden=race_hidden, seed=seed)
    ev.cache = EvaluationCache(0)
    take = boards[:: max(1, len(boards) // 3000)]
    batched = ev.evaluate(take)
    assert np.array_equal(batched, _one_by_one(ev, take))
    x = encode(take)
    race = race_mask(take)
    assert np.abs(batched[race] - consistent(ev.race.forward(x[race]), take[race])).max() < 1e-6
    assert np.abs(batched[~race] - consistent(ev.contact.forward(x[~race]), take[~race])).max() < 1e-6


@pytest.mark.parametrize(("crashed_hidden", "seed"), [(17, 1), (30, 2)])
def test_a_crashed_net_plays_the_crashed_boards(boards: np.ndarray, crashed_hidden: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    plain = NeuralEvaluator.random(hidden=40, race_hidden=24, seed=seed)
    head = CubeHead(plain.contact.w2 + np.float32(0.5), plain.contact.b2.copy())
    ev = plain.replaced(crashed=Net.random(crashed_hidden, rng), cube_head=head, cache_bytes=0)
    assert ev.crashed is not None
    # a side crashed (five checkers on the board) with one of them on the bar after one is off
    out_borne = np.array([[0, 0, 0, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, -5, -3, -5, 0, 0, 0, 0, 1]])
    take = np.concatenate([boards[:: max(1, len(boards) // 3000)], out_borne]).astype(np.int8)
    batched = ev.evaluate(take)
    assert np.array_equal(batched, _one_by_one(ev, take))  # the crashed net's sums updated exactly too
    x = encode(take)
    mine, race = crashed_mask(take), race_mask(take)
    contact = ~mine & ~race
    assert mine.sum() > 20 and mine[-1]
    assert np.abs(batched[mine] - consistent(ev.crashed.forward(x[mine]), take[mine])).max() < 1e-6
    assert np.abs(batched[contact] - consistent(ev.contact.forward(x[contact]), take[contact])).max() < 1e-6
    assert np.abs(batched[race] - consistent(ev.race.forward(x[race]), take[race])).max() < 1e-6
    # the cube decisions value the crashed net's own chances there, the cube head's elsewhere
    cube = ev.evaluate_for_cube(take)
    assert np.array_equal(cube[mine], batched[mine])
    assert not np.array_equal(cube[contact], batched[contact])
    assert np.array_equal(plain.replaced(cache_bytes=0).evaluate(take[~mine]), batched[~mine])


def _with_crashed_net(seed: int) -> tuple[NeuralEvaluator, np.random.Generator]:
    """A random evaluator with a crashed net, and the generator that made the crashed net."""
    rng = np.random.default_rng(seed)
    ev = NeuralEvaluator.random(hidden=40, race_hidden=24, seed=seed).replaced(crashed=Net.random(21, rng))
    assert ev.crashed is not None
    return ev, rng


@pytest.mark.parametrize("cache_bytes", [0, 1 << 20])
def test_a_crashed_head_gives_the_crashed_boards_cube_chances_and_leaves_play_alone(
    boards: np.ndarray, cache_bytes: int
) -> None:
    plain, _ = _with_crashed_net(3)
    assert plain.crashed is not None
    head = CubeHead(plain.crashed.w2 - np.float32(0.7), plain.crashed.b2 + np.float32(0.3))
    ev = plain.replaced(crashed_head=head, cache_bytes=cache_bytes)
    take = boards[:: max(1, len(boards) // 3000)]
    mine = crashed_mask(take) & ~race_mask(take)
    assert mine.sum() > 20
    reference = plain.replaced(cache_bytes=0)
    for _ in range(2):  # the second time from the cache where there is one
        play, cube = ev.evaluate_with_cube(take)
        assert np.array_equal(play, reference.evaluate(take))  # checker play keeps the net's outputs
        assert np.array_equal(cube[~mine], reference.evaluate_for_cube(take[~mine]))
        want = consistent(
            Net(plain.crashed.w1, plain.crashed.b1, head.w2, head.b2).forward(encode(take[mine])), take[mine]
        )
        assert np.abs(cube[mine] - want).max() < 1e-6
        assert np.abs(cube[mine] - play[mine]).max() > 0.05
        assert np.array_equal(cube, _one_by_one(ev, take, cube=True))


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_boards_outputs_do_not_depend_on_its_batch(
    shipped: NeuralEvaluator, boards: np.ndarray, rng: random.Random
) -> None:
    # any order, any neighbours: the exact sums make the same outputs
    take = rng.sample(range(len(boards)), 200)
    whole = shipped.evaluate(boards)
    assert np.array_equal(shipped.evaluate(boards[take]), whole[take])


def test_the_outputs_are_the_float_nets_within_1e4(shipped: NeuralEvaluator, boards: np.ndarray) -> None:
    # the first layer's weights rounded to its unit (exact_first_layer): the hidden sums are off by
    # up to a few ten-thousandths where a scalar's numerator runs to hundreds, the outputs by less
    x = encode(boards)
    race, crashed = race_mask(boards), crashed_mask(boards)
    assert shipped.crashed is not None and crashed.any()
    contact = ~race & ~crashed
    want = np.empty((len(boards), 5))
    want[race] = consistent(shipped.race.forward(x[race]), boards[race])
    want[crashed] = consistent(shipped.crashed.forward(x[crashed]), boards[crashed])
    want[contact] = consistent(shipped.contact.forward(x[contact]), boards[contact])
    assert np.abs(shipped.evaluate(boards) - want).max() < 1e-4


def test_the_exact_layer_keeps_every_sum_exact(boards: np.ndarray) -> None:
    x = encode(boards[:300]).astype(np.float64)
    k = np.rint(x * DENOMINATORS)  # the numerators
    for net in (NeuralEvaluator.default().contact, NeuralEvaluator.random(seed=3).race):
        q, unit = exact_first_layer(net.w1, net.b1)
        assert q.shape == (N_INPUTS + 1, net.hidden) and q.dtype == np.int32
        # the largest sum any position could make stays within int32
        worst = (NUMERATOR_BOUNDS[:, None] * np.abs(q[:-1].astype(np.int64))).sum(axis=0) + np.abs(q[-1])
        assert worst.max() <= 2**31 - 1 and unit < 1e-5
        # the scalars summed over the points add no rows of their own: the points' rows carry them
        assert not q[SCALAR_INPUTS[LINEAR_SCALARS]].any()
        # and the layer is the net's, to the units it rounded to
        exact = unit * (q[-1] + k @ q[:-1])
        float_sums = net.b1.astype(np.float64) + (k / DENOMINATORS) @ net.w1.astype(np.float64)
        # each row rounded once, to half a unit: the error at most that times the numerators
        rounding = unit / 2 * (1 + np.abs(k) @ (q[:-1] != 0).any(axis=1))
        assert (np.abs(exact - float_sums) <= rounding[:, None] * (1 + 1e-9)).all()
        assert np.abs(exact - float_sums).max() < 1e-3


def test_chosen_plays_are_those_of_the_forward_pass_it_replaced() -> None:
    # the reference: the float32 forward pass and the encoder as they were (tests/engine/reference_*)
    ev = NeuralEvaluator.default()
    new, old = Engine(plies=0, evaluator=ev), Engine(plies=0, evaluator=ReferenceEvaluator(ev))
    rng = random.Random(5)
    positions = [p for p in random_game_positions(seed=23, games=12) if not p.is_game_over()]
    decisions = [(p, (rng.randint(1, 6), rng.randint(1, 6))) for p in positions[:400]]
    assert len(decisions) == 400
    differ = [(p.id, d) for p, d in decisions if new.best_play(p, d) != old.best_play(p, d)]
    assert differ == []
    deep_new, deep_old = Engine(evaluator=ev), Engine(evaluator=ReferenceEvaluator(ev))
    differ = [(p.id, d) for p, d in decisions[::20] if deep_new.best_play(p, d) != deep_old.best_play(p, d)]
    assert differ == []


def test_a_replaced_net_is_used_at_once(tmp_path) -> None:
    ev = NeuralEvaluator.random(seed=1)
    board = np.array([Position.initial().board], dtype=np.int8)
    before = ev.evaluate(board)
    ev.contact = NeuralEvaluator.random(seed=2).contact  # training replaces a net so
    assert not np.array_equal(ev.evaluate(board), before)
    ev.contact.w1[:] *= 2  # and changes one in place, then says so
    ev.weights_changed()
    assert np.array_equal(ev.evaluate(board), NeuralEvaluator(ev.contact, ev.race).evaluate(board))


@pytest.mark.parametrize("cache_bytes", [0, 1 << 20])
def test_a_borne_off_net_gives_its_boards_cube_chances_crashed_or_not_and_leaves_play_alone(
    boards: np.ndarray, cache_bytes: int
) -> None:
    plain, rng = _with_crashed_net(5)
    assert plain.crashed is not None
    plain = plain.replaced(crashed_head=CubeHead(plain.crashed.w2 - np.float32(0.4), plain.crashed.b2))
    borne = Net.random(33, rng)
    ev = plain.replaced(borne=borne, cache_bytes=cache_bytes)
    # a side has borne off a checker and has one on the bar: crashed (five on the board) and not
    out = [
        [0, 0, 0, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, -5, -3, -5, 0, 0, 0, 0, 1],
        [0, 2, 2, 2, 2, 3, 2, 0, 0, 1, 0, 0, -4, 0, 0, -1, 0, -3, 0, -5, 0, 0, 0, 0, 1, 0],
    ]
    take = np.concatenate([boards[:: max(1, len(boards) // 3000)], np.array(out)]).astype(np.int8)
    mine = borne_off_mask(take) & ~race_mask(take)
    crashed = crashed_mask(take)
    assert (mine & crashed).sum() >= 1 and (mine & ~crashed).sum() >= 1 and (~mine).sum() > 100
    reference = plain.replaced(cache_bytes=0)
    for _ in range(2):  # the second time from the caches where there are some
        play, cube = ev.evaluate_with_cube(take)
        assert np.array_equal(play, reference.evaluate(take))  # checker play never reads it
        assert np.array_equal(cube[~mine], reference.evaluate_for_cube(take[~mine]))
        want = consistent(borne.forward(encode(take[mine])), take[mine])
        assert np.abs(cube[mine] - want).max() < 1e-6
        assert np.abs(cube[mine] - reference.evaluate_for_cube(take[mine])).max() > 0.05
        assert np.array_equal(ev.evaluate_for_cube(take), cube)
        assert np.array_equal(cube, _one_by_one(ev, take, cube=True))
    ev.borne = Net.random(33, np.random.default_rng(6))  # a new borne-off net is used at once
    assert not np.array_equal(ev.evaluate_for_cube(take[mine]), cube[mine])


def test_a_cube_net_gives_the_cube_heads_boards_their_cube_chances_and_the_borne_off_net_its_own(
    boards: np.ndarray,
) -> None:
    plain, rng = _with_crashed_net(7)
    assert plain.crashed is not None
    plain = plain.replaced(cube_head=CubeHead(plain.contact.w2 + np.float32(0.5), plain.contact.b2.copy()))
    cube, borne = Net.random(29, rng), Net.random(31, rng)
    out = [[0, 0, 0, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, -5, -3, -5, 0, 0, 0, 0, 1],
           [0, 2, 2, 2, 2, 3, 2, 0, 0, 1, 0, 0, -4, 0, 0, -1, 0, -3, 0, -5, 0, 0, 0, 0, 1, 0]]
    take = np.concatenate([boards[:: max(1, len(boards) // 3000)], np.array(out)]).astype(np.int8)
    race, crashed, borne_off = race_mask(take), crashed_mask(take), borne_off_mask(take)
    heads = ~race & ~crashed & ~borne_off  # the cube head's boards, which the cube net takes
    reference = plain.replaced(cache_bytes=0)
    with_cube = plain.replaced(cube=cube, cache_bytes=0)
    play, chances = with_cube.evaluate_with_cube(take)
    assert np.array_equal(play, reference.evaluate(take))
    mine = ~race & ~crashed  # without a borne-off head the cube net takes the borne-off boards too
    assert np.abs(chances[mine] - consistent(cube.forward(encode(take[mine])), take[mine])).max() < 1e-6
    assert np.array_equal(chances[~mine], reference.evaluate_for_cube(take[~mine]))
    assert np.array_equal(with_cube.cube_net_mask("cube", take), mine)
    both = plain.replaced(cube=cube, borne=borne, cache_bytes=0)
    play, chances = both.evaluate_with_cube(take)
    assert np.array_equal(play, reference.evaluate(take))
    theirs = ~race & borne_off
    assert np.abs(chances[heads] - consistent(cube.forward(encode(take[heads])), take[heads])).max() < 1e-6
    want = consistent(borne.forward(encode(take[theirs])), take[theirs])
    assert np.abs(chances[theirs] - want).max() < 1e-6
    rest = ~heads & ~theirs
    assert rest.sum() > 20 and np.array_equal(chances[rest], reference.evaluate_for_cube(take[rest]))
    with pytest.raises(ValueError, match="no such cube net: 'bear'"):
        both.cube_net_mask("bear", take)
