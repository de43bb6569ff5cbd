"""Move generation: the rules case by case, the wildbg table, and GNU Backgammon as the oracle."""

import random
from collections import Counter
from itertools import permutations

import gnubg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import ALL_ROLLS, IllegalMoveError, Position
from tests.helpers import pos, random_game_positions, wildbg_ids
from tests.test_position import boards


def results(p, dice):
    return sorted(str(play) for play in p.legal_plays(dice))


def test_opening_rolls():
    p = Position.initial()
    assert len(p.legal_plays((3, 1))) == 16
    assert "8/5 6/5" in results(p, (3, 1))
    assert results(p, (6, 5)) == sorted(
        ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"])
    assert len(p.legal_plays((6, 6))) == 11  # 18/12 and 7/1 are blocked


def test_must_use_both_dice_when_possible():
    # 13/7/6, 13/12, 24/18 and 23/17 are blocked: only 24/23 with 13/7 uses both dice.
    p = pos("x 24:1 13:1; o 19:2 13:2 7:2 8:2")
    assert results(p, (6, 1)) == ["24/23 13/7"]


def test_larger_die_when_only_one_can_be_played():
    # 8/2 and 8/7 are each legal, but the 1-point is blocked so never both: the 6 must be played.
    p = pos("x 8:1; o 24:2 6:13")
    assert results(p, (6, 1)) == ["8/2"]


def test_smaller_die_when_the_larger_cannot_be_played():
    p = pos("x 8:1; o 24:2 23:2 6:11")
    assert results(p, (6, 1)) == ["8/7"]


def test_no_legal_play():
    p = pos("x bar:1 13:5; o 1:2 2:2 3:2 4:2 5:2 6:2")
    assert p.legal_plays((6, 6)) == []
    assert p.legal_plays((3, 1)) == []


def test_bar_must_be_entered_first():
    p = pos("x bar:1 13:5; o 6:2 5:2")  # the entry points for 6 and 5 are blocked
    assert p.legal_plays((6, 5)) == []
    assert p.legal_plays((6, 6)) == []
    assert results(p, (6, 4)) == ["bar/15", "bar/21 13/7"]
    assert all(play.steps[0][0] == 25 for play in p.legal_plays((6, 4)))


def test_two_on_bar_use_both_dice_to_enter():
    p = pos("x bar:2 13:5; o 6:2")
    assert results(p, (3, 1)) == ["bar/24 bar/22"]
    assert results(p, (6, 1)) == ["bar/24"]


def test_two_hits_in_one_play():
    p = pos("x 24:2 13:5 8:3; o 18:1 7:1 6:5")  # o blots on x's 7 and 18
    hit_both = [str(pl) for pl in p.legal_plays((6, 1)) if len(pl.hits) == 2]
    assert hit_both == ["24/18* 8/7*"]


def test_four_hits_with_doubles():
    p = pos("x 13:4; o 15:1 18:1 21:1 24:1 6:5")  # o blots on x's 10, 7, 4 and 1
    plays = {str(pl): pl for pl in p.legal_plays((3, 3))}
    assert plays["13/10*/7*/4*/1*"].hits == (10, 7, 4, 1)
    assert plays["13/10*/7*/4*/1*"].after.bar == (4, 0)


def test_intermediate_hit_is_marked():
    p = pos("x 24:1; o 6:1 2:14")  # o blot on x's 19
    assert results(p, (5, 4)) == ["24/15", "24/19*/15"]


def test_bear_off_exact_and_higher_die():
    assert results(pos("x 5:1 3:1; o 1:13"), (6, 4)) == ["5/1 3/off", "5/off 3/off"]
    # a die higher than the farthest checker bears off from the highest point
    assert results(pos("x 3:1 2:1; o 1:13"), (6, 5)) == ["3/off 2/off"]
    # with a checker higher up, the 5 must move inside the board: two distinct results
    left = sorted(tuple(i for i in range(1, 7) if pl.after.flip().board[i] > 0)
                  for pl in pos("x 6:1 2:1; o 1:13").legal_plays((5, 4)))
    assert left == [(1,), (2,)]


def test_no_bear_off_with_a_checker_outside():
    # 3/off with the 4 is not allowed while the 7 is outside; 7/3 3/2 is the same result as 7/2
    assert results(pos("x 7:1 3:1; o 1:13"), (4, 1)) == ["7/2"]


def test_hit_checker_must_come_home_before_bearing_off():
    p = pos("x bar:1 6:2 5:2; o 1:13")
    assert all(play.steps[0][0] == 25 for play in p.legal_plays((6, 5)))
    assert not any(dst == 0 for play in p.legal_plays((6, 5)) for _, dst in play.steps)


def test_doubles_partial_play():
    p = pos("x 13:1; o 22:2")  # o holds x's 3: the second 5 is blocked
    assert results(p, (5, 5)) == ["13/8"]
    assert len(p.legal_plays((5, 5))[0].steps) == 1


def test_play_after_is_seen_by_the_opponent():
    p = Position.initial()
    play = p.parse_play("24/18 13/8", (6, 5))
    assert play.after.pip_counts == (167, 156)
    assert play.after.flip().board[18] == 1 and play.after.flip().board[24] == 1


def test_bad_dice():
    with pytest.raises(IllegalMoveError, match="7"):
        Position.initial().legal_plays((7, 1))
    with pytest.raises(IllegalMoveError):
        Position.initial().legal_plays((1,))


@pytest.mark.parametrize("name, non_doubles, doubles", [
    ("contact", 184_045, 217_143), ("race", 122_570, 140_720)])
def test_wildbg_table(name, non_doubles, doubles):
    """Distinct plays over the 2,000 wildbg positions: GNU Backgammon's (data/wildbg/README.md)."""
    positions = [Position.from_id(i) for i in wildbg_ids(name)]
    count = Counter()
    for p in positions:
        for roll in ALL_ROLLS:
            count[roll[0] == roll[1]] += len(p.legal_plays(roll))
    assert count[False] == non_doubles
    assert count[True] == doubles


def gnubg_results(p, dice):
    """gnubg's plays: (move tuple, 0-ply equity of the result) for each distinct result."""
    cube = gnubg.cubeinfo()
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    return [(m["move"], m["score"]) for m in gnubg.findbestmoves(p.to_gnubg_board(), cube, ctx, dice)]


def apply_gnubg_move(p, move):
    """The resulting Position ID of a gnubg move tuple, or None when the tuple was cut short
    (the PyPI package cuts tuples at the first 0, i.e. at a bear-off, leaving an odd length)."""
    return None if len(move) % 2 else p.after_gnubg_move(move).id


@pytest.mark.slow
def test_differential_against_gnubg_on_random_games():
    """Thousands of (position, roll) pairs from random games against gnubg's findbestmoves.

    The same number of distinct results; the Position ID of every whole gnubg move is one of ours;
    and the plays of ours that no whole gnubg move reaches are exactly as many as gnubg's cut
    moves (PyPI gnubg cuts a tuple at its first 0, a bear-off), each bearing off a checker."""
    rng = random.Random(2024)
    positions = random_game_positions(seed=11, games=40)
    checked = 0
    for p in positions:
        for dice in rng.sample(ALL_ROLLS, 3):
            ours = p.legal_plays(dice)
            theirs = gnubg_results(p, dice)
            if not ours:
                assert all(not move for move, _ in theirs), (p.id, dice, theirs)
                continue
            assert len(theirs) == len(ours), (p.id, dice)
            our_ids = {play.after.id: play for play in ours}
            whole = [apply_gnubg_move(p, move) for move, _ in theirs]
            reached = {r for r in whole if r is not None}
            assert reached <= our_ids.keys(), (p.id, dice)
            assert len(reached) == sum(r is not None for r in whole), (p.id, dice)
            rest = [play for i, play in our_ids.items() if i not in reached]
            assert len(rest) == whole.count(None), (p.id, dice)
            assert all(any(dst == 0 for _, dst in play.steps) for play in rest), (p.id, dice)
            checked += 1
    assert checked > 2000


def test_checker_conservation_on_random_games():
    for p in random_game_positions(seed=5, games=4):
        for dice in ALL_ROLLS:
            for play in p.legal_plays(dice):
                a = play.after
                mover_before = 15 - p.off[0]
                borne = sum(1 for _, dst in play.steps if dst == 0)
                assert 15 - a.off[1] == mover_before - borne
                assert a.off[0] == p.off[1]  # the opponent's checkers never leave the game
                assert a.bar[0] == p.bar[1] + len(play.hits)


@settings(max_examples=200, deadline=None)
@given(boards(), st.sampled_from(ALL_ROLLS))
def test_properties_on_any_position(board, dice):
    """Checkers are conserved, every play uses the same number of steps (the most possible),
    each step moves by a die, and no two plays reach the same position."""
    p = Position(board)
    plays = p.legal_plays(dice)
    afters = [play.after for play in plays]
    assert len(set(afters)) == len(afters)
    assert len({len(play.steps) for play in plays}) <= 1
    for play in plays:
        a = play.after
        assert a.off[0] == p.off[1] and 15 - a.off[0] == 15 - p.off[1]
        assert a.bar[0] == p.bar[1] + len(play.hits)
        dice_all = list(dice) * (2 if dice[0] == dice[1] else 1)
        assert any(all(src - dst == die or (dst == 0 and die > src)
                       for (src, dst), die in zip(play.steps, order))
                   for order in permutations(dice_all, len(play.steps))), (p.id, dice, str(play))
        assert len(play.steps) <= (4 if dice[0] == dice[1] else 2)
