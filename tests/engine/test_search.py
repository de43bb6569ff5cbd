"""Search settings, move filters and batching."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from gammon import Position
from gammon.engine.cube.cubeful import cube_efficiencies, cube_efficiency
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import (
    CountingEvaluator,
    PipCountEvaluator,
    cubeless_equity,
    flip_probabilities,
)
from gammon.engine.search.searcher import PLAIN_FILTERS, MoveFilter, Searcher, SearchSettings, _unique_rows
from gammon.movegen import generate_arrays
from gammon.situation import MatchScore


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
    # the 1-ply pass adds a call, and saves one: the plays it keeps are not expanded again at 2 ply
    assert two.calls == one.calls


def ranked(settings: SearchSettings, dice: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    _, after, _ = generate_arrays(Position.initial().as_array(), dice)
    return Searcher(PipCountEvaluator(), None).rank_plays(after, settings)


def test_filter_keeps_at_most_keep_plays() -> None:
    order, probs, plies = ranked(SearchSettings(plies=1, filters=(MoveFilter(3, 1.0),)), (6, 5))
    assert list(plies).count(1) == 3
    assert sorted(order.tolist()) == list(range(len(order)))  # every play is ranked
    assert probs.shape == (len(order), 5)


def test_hint_widens_the_filters_to_show_n_searched_plays() -> None:
    narrow = SearchSettings(plies=1, filters=(MoveFilter(3, 0.0),))
    engine = Engine(evaluator=PipCountEvaluator(), settings=narrow)
    assert [h.plies for h in engine.hint(Position.initial(), (6, 5), n=6)] == [1] * 6


def test_cube_efficiency() -> None:
    assert cube_efficiency(False, 100) == 0.68
    assert cube_efficiency(True, 10) == 0.6
    assert cube_efficiency(True, 100) == pytest.approx(0.675)
    assert cube_efficiency(True, 200) == 0.7
    races, pips = np.array([False, True, True, True, True]), np.array([100, 10, 100, 200, 67])
    assert cube_efficiencies(races, pips).tolist() == [cube_efficiency(r, p) for r, p in zip(races, pips)]


@pytest.mark.parametrize("kwargs", [
    {"away": 0, "opponent_away": 3},
    {"away": 3, "opponent_away": 3, "crawford_game": True},
    {"away": 1, "opponent_away": 3, "crawford_game": True, "post_crawford": True},
])
def test_bad_match_states(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        MatchScore(**kwargs)


@pytest.mark.parametrize("position_id", ["4HPwATDgc/ABMA", "4HPhASDgc/ABMA", "mGfwATDgc/ABMA"])
def test_one_ply_is_the_mean_over_the_36_rolls_of_the_best_reply(position_id: str) -> None:
    # The definition of a 1-ply evaluation, written out roll by roll.
    zero = Engine(plies=0, evaluator=PipCountEvaluator())
    p = Position.from_id(position_id)
    total = np.zeros(5)
    for a in range(1, 7):
        for b in range(1, 7):
            play = zero.best_play(p, (a, b))
            after = play.after if play is not None else p.flip()
            total += zero.evaluate(after).flip().as_array()
    one = Engine(plies=1, evaluator=PipCountEvaluator()).evaluate(p).as_array()
    np.testing.assert_allclose(one, total / 36, atol=1e-9)


def test_deeper_plies_rank_first() -> None:
    settings = SearchSettings(plies=2)
    _, _, plies = ranked(settings, (2, 1))
    plies = list(plies)
    assert plies == sorted(plies, reverse=True)
    first, second = settings.filters
    assert plies[0] == 2 and plies.count(1) + plies.count(2) <= first.keep
    assert settings.keep_at_zero_ply is not None  # the 1-ply pass keeps the 0-ply best too
    assert plies.count(2) <= second.keep + settings.keep_at_zero_ply.keep


def test_unique_rows_finds_each_distinct_board_once() -> None:
    rng = np.random.default_rng(3)
    distinct = rng.integers(-3, 4, size=(40, 26)).astype(np.int8)
    picks = rng.integers(0, 40, size=500)
    boards = distinct[picks]
    kinds = (rng.random(500) < 0.2).astype(np.int8)  # NET (0) rows, and others left out
    net = boards[kinds == 0]
    first, inverse = _unique_rows(boards, kinds)
    assert len(first) == len(np.unique(net, axis=0))
    assert len(np.unique(boards[first], axis=0)) == len(first)  # no row twice
    assert (kinds[first] == 0).all()
    np.testing.assert_array_equal(boards[first][inverse], net)
    assert list(first) == sorted(first)  # in order of first appearance


def test_the_search_evaluates_each_distinct_board_once_a_call() -> None:
    seen: list[np.ndarray] = []

    class Recording(PipCountEvaluator):
        def evaluate(self, boards: np.ndarray) -> np.ndarray:
            seen.append(np.array(boards))
            return super().evaluate(boards)

    ids = ["4HPhASDgc/ABMA", "4HPwATDgc/ABMA", "4HPhASDgc/ABMA", "mGfwATDgc/ABMA", "4HPhASDgc/ABMA"]
    boards = np.array([Position.from_id(i).as_array() for i in ids])
    together = Searcher(Recording(), None).evaluate_boards(boards, 2)
    assert seen and all(len(np.unique(b, axis=0)) == len(b) for b in seen)
    alone = Searcher(PipCountEvaluator(), None)
    for board, probs in zip(boards, together):
        np.testing.assert_allclose(probs, alone.evaluate_boards(board[None, :], 2)[0], atol=1e-12)


def test_known_best_children_are_reused_with_the_same_values() -> None:
    counting = CountingEvaluator(PipCountEvaluator())
    searcher = Searcher(counting, None)
    boards = np.array([Position.from_id(i).as_array() for i in ("4HPhASDgc/ABMA", "mGfwATDgc/ABMA")])
    known: dict = {}
    one = searcher.evaluate_boards(boards, 1, known)
    assert len(known) == 2
    calls = counting.calls
    two = searcher.evaluate_boards(boards, 2, known)
    assert counting.calls == calls + 1  # only the replies' replies: the boards' own replies are known
    fresh = Searcher(PipCountEvaluator(), None)
    np.testing.assert_array_equal(one, fresh.evaluate_boards(boards, 1))
    np.testing.assert_array_equal(two, fresh.evaluate_boards(boards, 2))


class _OddPly(Searcher):
    """0 and 2 ply rank the plays in their order, best first; 1 ply the other way round (the
    odd-ply misjudgement the default filters guard against)."""

    def __init__(self, plays: np.ndarray) -> None:
        super().__init__(PipCountEvaluator(), None)
        self.rank = {b.tobytes(): i for i, b in enumerate(plays)}

    def _probs(self, boards: np.ndarray, reverse: bool) -> np.ndarray:
        out = np.zeros((len(boards), 5))
        for r, b in enumerate(boards):
            i = self.rank[b.tobytes()]
            mover_wins = 0.5 + 0.01 * (i if reverse else len(self.rank) - i)
            out[r, 0] = 1.0 - mover_wins  # the boards are seen from the opponent, on roll there
        return out

    def leaf(self, boards: np.ndarray, for_cube: bool = False) -> np.ndarray:
        return self._probs(boards, reverse=False)

    def evaluate_boards(self, boards: np.ndarray, plies: int, known: object = None) -> np.ndarray:
        return self._probs(boards, reverse=plies == 1)


def test_the_one_ply_pass_keeps_the_zero_ply_best() -> None:
    _, after, _ = generate_arrays(Position.initial().as_array(), (6, 5))
    plays = after[:8]
    searcher = _OddPly(plays)  # 1 ply ranks the plays the other way round from 0 and 2 ply
    at_zero = cubeless_equity(flip_probabilities(searcher.leaf(plays)))  # 0.02 apart, best first
    assert np.allclose(np.diff(at_zero), -0.02)
    # searched to 2 ply beside the 1-ply pass's four (the 0-ply worst): the 0-ply best, and the
    # next best as far as the filter reaches
    for also, more in [(MoveFilter(3, 0.03), 2), (MoveFilter(3, 0.05), 3), (MoveFilter(2, 0.5), 2)]:
        order, _, plies = searcher.rank_plays(plays, SearchSettings(plies=2, keep_at_zero_ply=also))
        assert order[:more].tolist() == list(range(more)) and list(plies).count(2) == 4 + more
    order, _, plies = searcher.rank_plays(plays, SearchSettings(plies=2, keep_at_zero_ply=None))
    assert list(plies).count(2) == 4 and 0 not in order[:4].tolist()


class _ZeroPlyNet(_OddPly):
    """As :class:`_OddPly`, with a 0-ply net that finds play 2 far the best."""

    def zero_ply_leaf(self, boards: np.ndarray) -> np.ndarray:
        out = np.zeros((len(boards), 5))
        out[:, 0] = [0.1 if self.rank[b.tobytes()] == 2 else 0.5 for b in boards]  # the opponent's chance
        return out


def test_the_one_ply_pass_keeps_the_zero_ply_nets_best_too() -> None:
    _, after, _ = generate_arrays(Position.initial().as_array(), (6, 5))
    plays = after  # 7 plays
    also = MoveFilter(3, 0.03)
    order, _, plies = _ZeroPlyNet(plays).rank_plays(plays, SearchSettings(plies=2, keep_at_zero_ply=also))
    # the 1-ply pass's four (the 0-ply worst), the search's own 0-ply best two, the 0-ply net's best
    assert set(order[plies == 2].tolist()) == set(range(7))
    assert order[:3].tolist() == [0, 1, 2]
    order, _, plies = _OddPly(plays).rank_plays(plays, SearchSettings(plies=2, keep_at_zero_ply=also))
    assert set(order[plies == 2].tolist()) == {0, 1, 3, 4, 5, 6}
    # nor without keep_at_zero_ply, nor at 1 ply (no later filter to keep it through)
    order, _, plies = _ZeroPlyNet(plays).rank_plays(plays, SearchSettings(plies=2, keep_at_zero_ply=None))
    assert set(order[plies == 2].tolist()) == {3, 4, 5, 6}
    order, _, plies = _ZeroPlyNet(plays).rank_plays(plays, SearchSettings(plies=1, keep_at_zero_ply=also))
    assert set(order[plies == 1].tolist()) == set(range(7))


def test_the_zero_ply_leaf_is_engine_zero_plys() -> None:
    boards = np.stack([Position.from_id(pid).as_array() for pid in
                       ("4HPwATDgc/ABMA", "bNsWAAxjO4MDEA", "2rMDAxDMdgeAAw", "bVtABA3DOwAAAA")])
    engine = Engine()
    zero = engine._searcher.zero_ply_leaf(boards)
    assert zero is not None
    np.testing.assert_array_equal(zero, Engine(plies=0)._searcher.leaf(boards))
    assert not np.allclose(zero, engine._searcher.leaf(boards))  # another net
    assert Searcher(PipCountEvaluator(), None).zero_ply_leaf(boards) is None
    again = pickle.loads(pickle.dumps(engine._searcher))
    assert again._zero_ply is None  # made again where it is unpickled, not a second copy of the nets
    np.testing.assert_array_equal(again.zero_ply_leaf(boards), zero)


def test_a_filter_keeps_the_best_within_its_reach() -> None:
    ranked = np.array([0.30, 0.29, 0.25, 0.20, -0.10])
    assert MoveFilter(8, 0.16).kept(ranked) == 4
    assert MoveFilter(2, 0.16).kept(ranked) == 2
    assert MoveFilter(3, 0.02).kept(ranked) == 2
    assert MoveFilter(3, 0.0).kept(ranked) == 1
    with pytest.raises(ValueError, match="keep_at_zero_ply"):
        SearchSettings(keep_at_zero_ply=3)  # type: ignore[arg-type]
