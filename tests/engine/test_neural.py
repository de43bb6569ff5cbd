"""The neural evaluator: valid probabilities, contact/race dispatch, weights files."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from gammon import Position
from gammon.engine.net.crashed import crashed_mask
from gammon.engine.net.encode import N_INPUTS, PER_SIDE, RAW_PER_SIDE, encode
from gammon.engine.net.neural import (
    OLDER_FEATURES,
    Net,
    NeuralEvaluator,
    borne_off_contact_mask,
    consistent,
)
from tests.helpers import bad_npz_files, pos, random_game_positions


@pytest.fixture(scope="module")
def shipped() -> NeuralEvaluator:
    return NeuralEvaluator.default()


@pytest.fixture(scope="module")
def boards() -> np.ndarray:
    positions = random_game_positions(seed=11, games=4)
    return np.array([p.board for p in positions], dtype=np.int8)


def test_shipped_weights_load(shipped: NeuralEvaluator) -> None:
    assert shipped.contact.w1.shape[0] == N_INPUTS
    assert shipped.race.w1.shape[0] == N_INPUTS
    assert shipped.crashed is not None and shipped.crashed.w1.shape[0] == N_INPUTS  # docs/training.md step 24
    assert shipped.games > 0


def test_outputs_are_ordered_probabilities(shipped: NeuralEvaluator, boards: np.ndarray) -> None:
    p = shipped.evaluate(boards)
    assert p.shape == (len(boards), 5) and p.dtype == np.float64
    assert np.all((p >= 0) & (p <= 1))
    assert np.all(p[:, 0] >= p[:, 1]) and np.all(p[:, 1] >= p[:, 2])
    assert np.all(1 - p[:, 0] >= p[:, 3]) and np.all(p[:, 3] >= p[:, 4])


def test_empty_batch_and_bad_shape(shipped: NeuralEvaluator) -> None:
    assert shipped.evaluate(np.zeros((0, 26), dtype=np.int8)).shape == (0, 5)
    with pytest.raises(ValueError, match=r"\(26,\)"):
        shipped.evaluate(np.zeros(26, dtype=np.int8))


def test_each_row_uses_its_net(shipped: NeuralEvaluator, boards: np.ndarray) -> None:
    race = np.array([Position(b).is_race() for b in boards])
    crashed = crashed_mask(boards)
    contact = ~race & ~crashed
    assert race.any() and crashed.any() and contact.any() and shipped.crashed is not None
    x = encode(boards)
    p = shipped.evaluate(boards)
    # to the rounding of play's first layer (gammon.engine.net.forward.exact_first_layer)
    for net, rows in ((shipped.race, race), (shipped.crashed, crashed), (shipped.contact, contact)):
        assert np.allclose(p[rows], consistent(net.forward(x[rows]), boards[rows]), atol=1e-4)
    # The two nets really differ on the same inputs.
    assert not np.allclose(shipped.race.forward(x[race]), shipped.contact.forward(x[race]), atol=1e-3)


def test_batch_equals_one_by_one(shipped: NeuralEvaluator, boards: np.ndarray) -> None:
    whole = shipped.evaluate(boards[:30])
    single = np.vstack([shipped.evaluate(b.reshape(1, 26)) for b in boards[:30]])
    # bit for bit: the search evaluates a board met twice once (gammon.engine.search.searcher._unique_rows)
    np.testing.assert_array_equal(whole, single)


def test_shipped_net_knows_the_obvious(shipped: NeuralEvaluator) -> None:
    # Far ahead in a race: the mover on roll wins nearly always; far behind: nearly never.
    ahead = pos("x 1:2; o 6:5 5:5 4:5")
    behind = pos("x 6:5 5:5 4:5; o 1:2")
    p = shipped.evaluate(np.array([ahead.board, behind.board], dtype=np.int8))
    assert p[0, 0] > 0.95 and p[1, 0] < 0.1
    # The opening position is close to even for the player on roll.
    start = shipped.evaluate(Position.initial().as_array().reshape(1, 26))[0]
    assert 0.4 < start[0] < 0.65


def test_save_and_load_round_trip(tmp_path) -> None:
    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3)
    ev.games = 17
    path = tmp_path / "w.npz"
    ev.save(path)
    back = NeuralEvaluator.load(path)
    assert back.games == 17 and back.contact.hidden == 8 and back.race.hidden == 4
    b = Position.initial().as_array().reshape(1, 26)
    assert np.array_equal(back.evaluate(b), ev.evaluate(b))


def test_a_crashed_net_is_saved_and_loaded_with_the_others(tmp_path) -> None:
    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3)
    crashed = Net.random(5, np.random.default_rng(9))
    with_crashed = ev.replaced(crashed=crashed)
    assert with_crashed.contact is ev.contact and ev.crashed is None
    path = tmp_path / "w.npz"
    with_crashed.save(path)
    back = NeuralEvaluator.load(path)
    assert back.crashed is not None and back.crashed.hidden == 5
    assert all(np.array_equal(a, b) for a, b in zip(back.crashed.arrays(), crashed.arrays()))
    ev.save(path)
    assert NeuralEvaluator.load(path).crashed is None
    with pytest.raises(ValueError, match=r"no such part of an evaluator: \['crash'\]"):
        ev.replaced(crash=crashed)


def test_load_refuses_another_encoding(tmp_path) -> None:
    path = tmp_path / "w.npz"
    NeuralEvaluator.random(hidden=4, race_hidden=4).save(path, encoding="other-v9")
    with pytest.raises(ValueError, match="other-v9"):
        NeuralEvaluator.load(path)


def test_a_file_that_is_not_a_weights_file_is_named(tmp_path) -> None:
    for bad in bad_npz_files(tmp_path):
        with pytest.raises(ValueError, match=re.escape(f"{str(bad)!r} is not a gammon weights file: ")):
            NeuralEvaluator.load(bad)
    path = tmp_path / "w.npz"
    NeuralEvaluator.random(hidden=4, race_hidden=4).save(path)
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files if name != "race_b2"}
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match=re.escape(f"{str(path)!r} is not a gammon weights file: it has no "
                                                   "array 'race_b2'")):
        NeuralEvaluator.load(path)


def test_wrong_input_size_is_refused() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="inputs"):
        NeuralEvaluator(Net.random(4, rng, n_inputs=10), Net.random(4, rng))


@pytest.mark.parametrize("encoding", ["gammon-v1", "gammon-v2", "gammon-v3"])
def test_older_weights_load_and_compute_what_they_did(tmp_path, encoding: str) -> None:
    # A gammon-v1 file (8 features a side), gammon-v2 file (12) or gammon-v3 file (17) loads with
    # zero weights on the features added since, so it gives the old encoding's outputs: those of
    # today's inputs without the new feature columns.

    rng = np.random.default_rng(4)
    old_side = RAW_PER_SIDE + OLDER_FEATURES[encoding]
    v1 = [Net.random(6, rng, n_inputs=2 * old_side) for _ in range(2)]
    path = tmp_path / "old.npz"
    arrays: dict[str, object] = {"format_version": 1, "encoding": encoding, "games": 5}
    for name, net in zip(("contact", "race"), v1):
        for a, value in zip(("w1", "b1", "w2", "b2"), net.arrays()):
            arrays[f"{name}_{a}"] = value
    np.savez(path, **arrays)  # type: ignore[arg-type]
    ev = NeuralEvaluator.load(path)
    assert ev.contact.w1.shape == (N_INPUTS, 6)
    boards = np.array([p.board for p in random_game_positions(seed=2, games=2)], dtype=np.int8)
    x = encode(boards)
    keep = np.r_[0:old_side, PER_SIDE:PER_SIDE + old_side]
    race = np.array([Position(b).is_race() for b in boards])
    expected = np.where(race[:, None], v1[1].forward(x[:, keep]), v1[0].forward(x[:, keep]))
    assert np.allclose(ev.evaluate(boards), consistent(expected, boards), atol=1e-6)
    assert x[:, old_side:PER_SIDE].any()  # the new features are not all zero on these boards


def test_a_v1_file_of_the_wrong_size_is_refused(tmp_path) -> None:
    # Tagged gammon-v1 but with today's input count: refused, not padded into a misread net.
    path = tmp_path / "w.npz"
    NeuralEvaluator.random(hidden=4, race_hidden=4).save(path, encoding="gammon-v1")
    with pytest.raises(ValueError, match=f"a gammon-v1 net has 212 inputs, this one {N_INPUTS}"):
        NeuralEvaluator.load(path)


@pytest.mark.parametrize("name", ["cube", "borne"])
def test_a_cube_net_is_saved_and_loaded_with_the_others(tmp_path, name: str) -> None:
    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3)
    net = Net.random(6, np.random.default_rng(4))
    with_net = ev.replaced(**{name: net})
    assert with_net.contact is ev.contact and getattr(ev, name) is None
    assert with_net.has_cube_chances and not ev.has_cube_chances
    path = tmp_path / "w.npz"
    with_net.save(path)
    back = NeuralEvaluator.load(path)
    kept = getattr(back, name)
    assert kept is not None and kept.hidden == 6
    assert all(np.array_equal(a, b) for a, b in zip(kept.arrays(), net.arrays()))
    assert getattr(back.replaced(crashed=None), name) is kept  # a part of its own: other changes keep it
    ev.save(path)
    assert getattr(NeuralEvaluator.load(path), name) is None


def test_the_shipped_borne_off_net_values_the_cube_of_its_positions(shipped: NeuralEvaluator) -> None:
    # the opponent has borne off a checker and has one on the mover's 2 point: the borne-off
    # net's position; its cube chances are the net's, checker play's are the play nets'
    p = Position.from_id("v3sAAAhmdzMAAQ")
    b = p.as_array().reshape(1, 26).copy()
    assert shipped.borne is not None and shipped.cube is not None
    play, cube = shipped.evaluate_with_cube(b)
    own = NeuralEvaluator(shipped.borne, shipped.race, cache_bytes=0).evaluate(b)
    assert np.array_equal(cube, own) and not np.array_equal(cube, play)


def test_the_borne_off_contact_mask_leaves_the_races_out() -> None:
    cases = {
        "x 24:1 6:13; o 24:2 13:5 8:3 6:5": True,  # a checker off, another out, contact
        "x 8:1 6:10; o 6:1 1:10": False,  # off and out, but a race
        "x 24:2 13:5 8:3 6:5; o 24:2 13:5 8:3 6:5": False,  # contact, none off
    }
    boards = np.array([pos(text).board for text in cases], dtype=np.int8)
    assert borne_off_contact_mask(boards).tolist() == list(cases.values())


def _saved_and_loaded(ev: NeuralEvaluator, tmp_path: Path, name: str, net: Net) -> NeuralEvaluator:
    """``ev`` with ``net`` as its net ``name``, saved and loaded again: the net comes back as it was."""
    path = tmp_path / "w.npz"
    ev.replaced(**{name: net}).save(path)
    back = NeuralEvaluator.load(path)
    loaded = getattr(back, name)
    assert loaded is not None and all(np.array_equal(a, b) for a, b in zip(loaded.arrays(), net.arrays()))
    return back


def test_the_zero_ply_net_is_saved_loaded_and_plays_in_place_of_the_contact_net(tmp_path, boards) -> None:
    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=3)
    assert ev.zero_ply is None and ev.at_zero_ply() is ev  # none: the contact net plays at every depth
    zero = Net.random(6, np.random.default_rng(5))
    back = _saved_and_loaded(ev, tmp_path, "zero_ply", zero)
    played = back.at_zero_ply()
    assert played is back.at_zero_ply() and played.zero_ply is None
    assert played.contact is back.zero_ply and played.race is back.race
    own = NeuralEvaluator(zero, ev.race, cache_bytes=0).evaluate(boards)
    assert np.array_equal(played.evaluate(boards), own)
    assert np.array_equal(back.evaluate(boards), ev.evaluate(boards))  # its own evaluations: the contact net
    race = np.array([Position.from_id(p).is_race() for p in map(_id, boards)])
    assert race.any() and not np.array_equal(own[~race], ev.evaluate(boards)[~race])
    back.weights_changed()  # made again from the nets as they are now
    assert back.at_zero_ply() is not played


def test_the_zero_ply_crashed_net_is_saved_loaded_and_plays_the_crashed_positions_at_zero_ply(
        shipped: NeuralEvaluator, tmp_path) -> None:
    positions = random_game_positions(seed=12, games=40)
    boards = np.array([p.board for p in positions], dtype=np.int8)
    crashed = crashed_mask(boards)
    assert crashed.any() and not crashed.all()
    zero_crashed = Net.random(12, np.random.default_rng(8))
    back = _saved_and_loaded(shipped, tmp_path, "zero_ply_crashed", zero_crashed)
    assert back.crashed_head is not None  # the search's crashed net keeps its head
    played = back.at_zero_ply()
    assert played.crashed is back.zero_ply_crashed and played.contact is back.zero_ply
    assert played.crashed_head is None and played.zero_ply_crashed is None
    mine, search = played.evaluate(boards), back.evaluate(boards)
    alone = NeuralEvaluator(zero_crashed, back.race, cache_bytes=0).evaluate(boards[crashed])
    assert np.allclose(mine[crashed], alone, atol=1e-6)  # its crashed boards: the 0-ply crashed net
    without = back.replaced(zero_ply_crashed=None).at_zero_ply()
    assert np.array_equal(mine[~crashed], without.evaluate(boards[~crashed]))  # the others as before
    assert not np.allclose(mine[crashed], search[crashed])
    # its cube decisions value the search's chances, the crashed net's head included
    assert np.array_equal(played.evaluate_for_cube(boards), back.evaluate_for_cube(boards))
    assert np.array_equal(played.evaluate_with_cube(boards)[1], back.evaluate_for_cube(boards))
    assert np.array_equal(played.evaluate_with_cube(boards)[0], mine)
    assert np.array_equal(back.evaluate(boards), shipped.evaluate(boards))  # its own: the crashed net


def _id(board: np.ndarray) -> str:
    return Position.trusted(tuple(int(c) for c in board)).id


def test_at_zero_ply_the_cube_decisions_value_the_same_chances(shipped: NeuralEvaluator, boards) -> None:
    # the shipped cube nets and crashed head value every contact board, so the contact net's heads,
    # which the 0-ply evaluator drops, are read nowhere
    with_zero = shipped.replaced(zero_ply=Net.random(16, np.random.default_rng(6)))
    played = with_zero.at_zero_ply()
    assert played.cube_head is None and played.borne_head is None
    assert np.array_equal(played.evaluate_for_cube(boards), shipped.evaluate_for_cube(boards))
    assert not np.array_equal(played.evaluate(boards), shipped.evaluate(boards))
