"""The input encoding: shapes, raw units and hand-checked feature values."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.net.encode import (
    N_INPUTS,
    PER_SIDE,
    RAW_PER_SIDE,
    anchors,
    borne_off_mask,
    encode,
    feature_values,
    race_mask,
)
from tests.helpers import pos, random_game_positions

START = Position.initial()


def test_shape_and_dtype() -> None:
    x = encode(np.array([START.board, START.flip().board], dtype=np.int8))
    assert x.shape == (2, N_INPUTS) and x.dtype == np.float32
    assert encode(np.zeros((0, 26), dtype=np.int8)).shape == (0, N_INPUTS)


def test_bad_shape_is_refused() -> None:
    with pytest.raises(ValueError, match=r"\(3, 25\)"):
        encode(np.zeros((3, 25), dtype=np.int8))


def test_raw_units_of_the_start() -> None:
    x = encode(START.as_array().reshape(1, 26))[0]
    for side in (0, 1):
        base = side * PER_SIDE
        assert list(x[base + 4 * 5: base + 4 * 6]) == [1, 1, 1, 1]  # 6-point: 5 checkers
        assert list(x[base + 4 * 7: base + 4 * 8]) == [1, 1, 1, 0]  # 8-point: 3 checkers
        assert list(x[base + 4 * 23: base + 4 * 24]) == [1, 1, 0, 0]  # 24-point: 2 checkers
        assert list(x[base + 4 * 6: base + 4 * 7]) == [0, 0, 0, 0]  # 7-point: empty
        assert x[base + 96] == 0 and x[base + 97] == 0  # bar, off


def test_features_of_the_start() -> None:
    f = feature_values(START.as_array())
    assert f["pips"] == (1.0, 1.0)
    assert f["back_checkers"] == pytest.approx((2 / 15, 2 / 15))
    assert f["longest_prime"] == pytest.approx((1 / 6, 1 / 6))
    assert f["home_points"] == pytest.approx((1 / 6, 1 / 6))
    assert f["blots"] == (0.0, 0.0)
    assert f["back_anchor"] == (1.0, 1.0)
    # 24 -> past the 13-point block needs 13+ pips in open steps: no roll does it.
    assert f["escapes"] == (0.0, 0.0)
    assert f["shots"] == (0.0, 0.0)


def test_race_features_of_the_start_and_a_gammon_race() -> None:
    # the start: nothing off; 10 checkers outside the home board (2 on 24, 5 on 13, 3 on 8), who
    # need 2 * 18 + 5 * 7 + 3 * 2 = 77 pips to come home and cross 2 * 3 + 5 * 2 + 3 * 1 = 19 lines
    f = feature_values(START.as_array())
    assert f["any_off"] == (0.0, 0.0)
    assert f["outside"] == pytest.approx((10 / 15, 10 / 15))
    assert f["pips_to_home"] == pytest.approx((77 / 100, 77 / 100))
    assert f["crossovers"] == pytest.approx((19 / 30, 19 / 30))
    # a race the mover must save the gammon in, against an opponent with 12 checkers off
    g = feature_values(pos("x 19:2 11:1 8:2 6:10; o 1:3").as_array())
    assert g["any_off"] == (0.0, 1.0)
    assert g["outside"] == pytest.approx((5 / 15, 0.0))
    assert g["pips_to_home"] == pytest.approx(((2 * 13 + 5 + 2 * 2) / 100, 0.0))
    assert g["crossovers"] == pytest.approx(((2 * 3 + 1 + 2) / 30, 0.0))
    assert g["break_contact"] == (0.0, 0.0)  # a race


def test_break_contact() -> None:
    # at the start each side must pass the other's 24-point checkers with all 15: its whole pip count
    assert feature_values(START.as_array())["break_contact"] == pytest.approx((1.0, 1.0))
    # the mover's checker on its 20-point must pass the opponent's rearmost (the mover's 19-point):
    # 2 pips; the opponent's 14 checkers on its 6-point must pass that checker (its 5-point): 2 each
    f = feature_values(pos("x 20:1 6:14; o 2:1 6:14").as_array())
    assert f["break_contact"] == pytest.approx((2 / 167, 28 / 167))


def test_direct_six_away_blots() -> None:
    # Blots 6 pips apart with nothing between: any 6 (11), 5-1 and 4-2 (2 each), 3-3, 2-2 = 17.
    p = pos("x 10:1 1:14; o 21:1 1:14")
    f = feature_values(p.as_array())
    assert f["shots"] == pytest.approx((17 / 36, 17 / 36))
    assert f["blots"] == pytest.approx((1 / 5, 1 / 5))
    assert f["escapes"] == (1.0, 1.0)
    assert f["pips"] == pytest.approx(((10 + 14) / 167, (21 + 14) / 167))


def test_blocked_combination_shot() -> None:
    # Mover 11 away from the blot: only 6-5 can hit, through the mover's 9 or 10-point; with the
    # opponent holding both (its 16 and 15), nothing hits.
    p = pos("x 15:1 1:14; o 21:1 16:2 15:2 1:10")
    f = feature_values(p.as_array())
    assert f["shots"][0] == 0.0
    q = pos("x 15:1 1:14; o 21:1 15:2 1:12")  # the mover's 10 blocked, its 9 open
    assert feature_values(q.as_array())["shots"][0] == pytest.approx(2 / 36)


def test_primes_and_home_points() -> None:
    p = pos("x 8:2 7:2 6:2 5:2 4:2 2:5; o 24:2 1:13")
    f = feature_values(p.as_array())
    assert f["longest_prime"][0] == pytest.approx(5 / 6)
    assert f["home_points"][0] == pytest.approx(4 / 6)
    # The opponent's back checkers (its 24-point = mover's 1) are trapped behind a 5-prime with
    # a gap at the mover's 3-point; only reaching past the 8-point escapes.
    assert 0.0 < f["escapes"][1] < 0.5


def test_race_mask_matches_position() -> None:
    positions = random_game_positions(seed=3, games=3)
    boards = np.array([p.board for p in positions], dtype=np.int8)
    assert list(race_mask(boards)) == [p.is_race() for p in positions]


def test_sides_are_symmetric() -> None:
    # The opponent's half of a board is the mover's half of the flipped board.
    for p in random_game_positions(seed=5, games=1)[:60]:
        x = encode(np.array([p.board, p.flip().board], dtype=np.int8))
        assert np.array_equal(x[0, :PER_SIDE], x[1, PER_SIDE:])
        assert np.array_equal(x[0, PER_SIDE:], x[1, :PER_SIDE])
        assert x[0, RAW_PER_SIDE - 1] >= 0


def _reference_shots(board: tuple[int, ...]) -> tuple[int, int]:
    """Shots of the player on roll counted roll by roll, in plain Python, and the pips they take
    from the opponent (each roll hitting the farthest blot it can: a blot on the mover's point p
    loses p pips): a roll hits when one die, both dice in either order through an open point, or a
    double's steps through open points reach a blot from a checker allowed to move (only from the
    bar while checkers are there; with two or more on the bar, combined steps are not available,
    and a double keeps 5 - bar steps)."""
    mine = [max(board[i], 0) for i in range(26)]
    blot = [board[i] == -1 for i in range(26)]
    blocked = [board[i] <= -2 for i in range(26)]
    bar = mine[25]
    sources = [25] if bar else [i for i in range(1, 25) if mine[i]]

    def farthest_hit(d1: int, d2: int) -> int:
        farthest = 0
        for src in sources:
            for dst in range(1, src):
                if not blot[dst]:
                    continue
                d = src - dst
                hit = False
                if d1 != d2:
                    if d in (d1, d2):
                        hit = True
                    elif d == d1 + d2 and bar <= 1 and (not blocked[src - d1] or not blocked[src - d2]):
                        hit = True
                elif d % d1 == 0 and d // d1 <= (4 if bar == 0 else max(1, 5 - bar)):
                    hit = not any(blocked[src - k * d1] for k in range(1, d // d1))
                if hit:
                    farthest = max(farthest, dst)
        return farthest

    rolls = [(1 if a == b else 2, farthest_hit(a, b)) for a in range(1, 7) for b in range(a, 7)]
    return sum(n for n, far in rolls if far), sum(n * far for n, far in rolls)


def test_shots_and_pip_loss_match_a_roll_by_roll_count() -> None:
    positions = random_game_positions(seed=11, games=6)
    assert any(p.board[25] for p in positions)  # the bar rule is exercised
    lost = []
    for p in positions:
        f = feature_values(p.as_array())
        for side, board in ((0, p.board), (1, p.flip().board)):
            shots, pips = _reference_shots(board)
            assert f["shots"][side] * 36 == pytest.approx(shots), p.id
            assert f["pip_loss"][side] * 36 * 24 == pytest.approx(pips, abs=1e-3), p.id
            lost.append(pips)
    assert max(lost) > 0


def test_pip_loss_weighs_the_blot_hit() -> None:
    # One mover checker 6 pips behind an opponent blot, nothing between: 17 shots each. A blot on
    # the mover's 18-point (the opponent's 7) loses 18 pips to each, one on the mover's 4-point 4.
    far = feature_values(pos("x 24:1 1:14; o 7:1 23:14").as_array())
    near = feature_values(pos("x 10:1 1:14; o 21:1 23:14").as_array())
    assert far["shots"][0] == near["shots"][0] == pytest.approx(17 / 36)
    assert far["pip_loss"][0] == pytest.approx(17 * 18 / (36 * 24))
    assert near["pip_loss"][0] == pytest.approx(17 * 4 / (36 * 24))


def test_bar_stuck() -> None:
    # the opponent holds 4 points of its home board (the mover's 19-22): one checker on the bar
    # stays there with 16 rolls of 36, two do not both come in unless both dice are open (4 of 36)
    board = "x 25:{bar} 6:{rest}; o 6:2 5:2 4:2 3:2 13:7"
    one = feature_values(pos(board.format(bar=1, rest=14)).as_array())
    two = feature_values(pos(board.format(bar=2, rest=13)).as_array())
    assert one["bar_stuck"] == pytest.approx((16 / 36, 0.0))
    assert two["bar_stuck"][0] == pytest.approx(1 - 4 / 36)
    assert feature_values(START.as_array())["bar_stuck"] == (0.0, 0.0)


def test_forward_anchor() -> None:
    # at the start each side holds the other's 1-point (its own 24): 1 of 7; the golden point
    # (the opponent's 5-point, the mover's 20) counts 5 of 7, the other side's bar point 7 of 7
    assert feature_values(START.as_array())["forward_anchor"] == pytest.approx((1 / 7, 1 / 7))
    f = feature_values(pos("x 24:2 20:2 6:11; o 18:2 6:13").as_array())
    assert f["forward_anchor"] == pytest.approx((5 / 7, 1.0))
    assert feature_values(pos("x 6:15; o 1:15").as_array())["forward_anchor"] == (0.0, 0.0)


def test_trapped() -> None:
    # two mover checkers on the 24-point behind a full prime of the opponent (the mover's 18-23):
    # no roll takes either past it
    f = feature_values(pos("x 24:2 6:13; o 2:2 3:2 4:2 5:2 6:2 7:2 13:3").as_array())
    assert f["trapped"][0] == pytest.approx(2 * 36 / (36 * 8))
    # nothing in the way, or nothing back: nothing trapped
    assert feature_values(pos("x 24:2 6:13; o 24:15").as_array())["trapped"][0] == 0.0
    assert feature_values(pos("x 5:15; o 18:2 17:2 1:11").as_array())["trapped"][0] == 0.0
    # at the start no roll takes a back checker past the opponent's midpoint (13+ pips through its
    # 6- and 13-points), and a midpoint checker fails only with 1-1 (onto the opponent's midpoint)
    assert feature_values(START.as_array())["trapped"] == pytest.approx(((2 * 36 + 5) / 288,) * 2)


def _reference_escapes(board: tuple[int, ...]) -> int:
    """Escapes of the mover's rearmost checker counted roll by roll, in plain Python: the rolls of
    36 that take it past the farthest point the opponent holds within the 12 points ahead, through
    open points (each die of a non-double in either order, a double's up to four steps)."""
    rear = max((i for i in range(1, 26) if board[i] > 0), default=0)
    if rear == 0:
        return 36

    def held(p: int) -> bool:
        return p < 1 or board[p] <= -2

    blocks = [p for p in range(max(rear - 12, 1), rear) if held(p)]
    if not blocks:
        return 36
    past = min(blocks)  # landing below it escapes
    count = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            steps = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
            escaped = False
            for order in steps:
                p = rear
                for die in order:
                    p -= die
                    if held(p):
                        break
                    if p < past:
                        escaped = True
                        break
            count += escaped
    return count


def test_escapes_match_a_roll_by_roll_count() -> None:
    positions = random_game_positions(seed=13, games=6)
    escapes = [(feature_values(p.as_array())["escapes"][0], _reference_escapes(p.board)) for p in positions]
    assert any(0 < ref < 36 for _, ref in escapes)  # blocked checkers are exercised
    for (got, ref), p in zip(escapes, positions):
        assert got * 36 == pytest.approx(ref), p.id


def test_anchor_and_game_type_features() -> None:
    # One anchor (the 20-point) and 3 checkers back: a holding game.
    hold = feature_values(pos("x 20:2 24:1 6:6 8:6; o 6:5 8:5 13:5").as_array())
    assert hold["anchors"][0] == pytest.approx(1 / 3)
    assert hold["holding_game"][0] == pytest.approx(3 / 8)
    assert hold["back_game"][0] == 0.0
    # Two anchors (the 20 and 22-points) and 5 back with one on the bar: a back game.
    back = feature_values(pos("x 20:2 22:2 bar:1 6:5 8:5; o 6:5 8:5 13:5").as_array())
    assert back["anchors"][0] == pytest.approx(2 / 3)
    assert back["holding_game"][0] == 0.0
    assert back["back_game"][0] == pytest.approx((5 - 3) / 4)
    # The opponent (o) holds nothing in the mover's home board.
    assert back["anchors"][1] == 0.0 and back["back_game"][1] == 0.0 and back["holding_game"][1] == 0.0


def test_containment() -> None:
    # No opponent blocks: every checker on 15..24 escapes with any roll.
    free = feature_values(pos("x 24:2 6:13; o 24:8 23:7").as_array())
    assert free["containment"][0] == 0.0
    # A full prime on the mover's 9..14 (the opponent's 11..16): a checker on 15 never gets past.
    primed = feature_values(pos("x 24:2 6:13; o 11:2 12:2 13:2 14:2 15:2 16:2 24:3").as_array())
    assert primed["containment"][0] == 1.0
    # Otherwise the fewest escapes of a checker on any of the points 15..24, whatever is there:
    # a block on the mover's 10 and 11-points, counted roll by roll for a lone checker on each.
    opponent = "o 15:2 14:2 24:11"
    fewest = min(_reference_escapes(pos(f"x {src}:1 6:14; {opponent}").board) for src in range(15, 25))
    assert 0 < fewest < 36
    got = feature_values(pos(f"x 24:2 6:13; {opponent}").as_array())["containment"][0]
    assert got * 36 == pytest.approx(36 - fewest)


def test_anchors_counts_the_points_each_side_holds_in_the_other_home_board() -> None:
    p = Position.from_points({24: 2, 21: 3, 20: 1, 13: 9}, {24: 2, 23: 2, 20: 2, 13: 9})
    # on roll: 24 and 21 (20 is a blot); the opponent: its 24, 23 and 20 are our 1, 2 and 5
    assert anchors(np.array([p.as_array()])).tolist() == [[2, 3]]
    assert anchors(np.array([Position.initial().as_array()])).tolist() == [[1, 1]]
    # the same count as the net's anchors input (three anchors to 1), on positions of real games
    boards = np.array([q.board for q in random_game_positions(seed=17, games=4)], dtype=np.int8)
    counts = anchors(boards)
    assert counts.max() >= 2
    for b, (mine, theirs) in zip(boards, counts):
        feature = feature_values(b)["anchors"]
        assert (feature[0] * 3, feature[1] * 3) == pytest.approx((mine, theirs))


def _borne_off_and_out(p: Position) -> bool:
    """A side with fewer than 15 checkers on the board has one on its bar or points 7-24."""
    for side in (p.board, [-c for c in reversed(p.board)]):  # each side from its own view
        mine = [max(c, 0) for c in side]
        if sum(mine) < 15 and sum(mine[7:]) > 0:
            return True
    return False


def test_borne_off_mask_picks_a_side_with_a_checker_off_and_another_out() -> None:
    cases = {
        "x 24:1 6:13; o 24:2 13:5 8:3 6:5": True,  # the mover has one off and one back
        "x bar:1 6:13; o 24:2 13:5 8:3 6:5": True,  # ... on the bar
        "x 6:14; o 24:2 13:5 8:3 6:5": False,  # one off, the others home
        "x 24:2 13:5 8:3 6:5; o 7:1 5:13": True,  # the opponent: off and out
        "x 24:2 13:5 8:3 6:5; o 24:2 13:5 8:3 6:5": False,  # none off
        "x 8:1 6:10; o 24:1 1:10": True,  # a race too: contact is race_mask's question
    }
    boards = np.array([pos(text).board for text in cases], dtype=np.int8)
    assert borne_off_mask(boards).tolist() == list(cases.values())
    positions = random_game_positions(seed=4, games=40)
    every = np.array([p.board for p in positions], dtype=np.int8)
    expected = [_borne_off_and_out(p) for p in positions]
    assert any(expected) and not all(expected)
    assert borne_off_mask(every).tolist() == expected


def test_the_encoder_is_the_reference_encoder_bit_for_bit() -> None:
    # the encoder works on bit masks and whole-number numerators; the reference counts point by
    # point (tests/engine/reference_encode.py, the encoder as it was)
    from gammon.engine.search.searcher import ROLLS, expand
    from tests.engine.reference_encode import reference_encode

    positions = np.array([p.board for p in random_game_positions(seed=29, games=8)], dtype=np.int8)
    children, _ = expand(positions[::5], ROLLS)
    boards = np.concatenate([positions, children])
    assert np.array_equal(encode(boards), reference_encode(boards))


def test_the_escape_table_counts_as_the_loop() -> None:
    from gammon.engine.net.encode import _ESCAPES_15, _count_escapes

    count = _count_escapes.py_func
    for pattern in range(0, 1 << 15, 7):
        walls = ((pattern & 0xFFF) << 1) | (((pattern >> 12) & 3) << 15) | (((pattern >> 14) & 1) << 18)
        blocks = walls & 0x1FFE
        assert _ESCAPES_15[pattern] == count(walls, blocks.bit_length() - 1 if blocks else 0)


def test_numerators_over_denominators_are_the_inputs() -> None:
    from gammon.engine.net.encode import (
        DENOMINATORS,
        NUMERATOR_BOUNDS,
        SCALAR_INPUTS,
        SCALARS_AT,
        SCRATCH,
        encode_scalars,
    )

    boards = np.array([p.board for p in random_game_positions(seed=31, games=3)], dtype=np.int8)
    x = encode(boards)
    w = np.zeros(SCRATCH, dtype=np.int32)
    for b, xi in zip(boards, x):
        encode_scalars(b, w)
        k = w[SCALARS_AT:]
        assert np.array_equal((k / DENOMINATORS[SCALAR_INPUTS]).astype(np.float32), xi[SCALAR_INPUTS])
        assert np.all((k >= 0) & (k <= NUMERATOR_BOUNDS[SCALAR_INPUTS]))
