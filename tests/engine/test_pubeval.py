import random

import numpy as np
import pytest

from gammon import Position
from gammon.engine.pubeval import (
    ALL_OFF_SCORE,
    CONTACT_WEIGHTS,
    RACE_WEIGHTS,
    pubeval_best_play,
    pubeval_ranked_plays,
    pubeval_scores,
)
from tests.helpers import pos, random_game_positions

START = Position.initial()


def reference_pubeval(race: bool, p: list[int]) -> np.float32:
    """A line-by-line port of Tesauro's setx() and pubeval(), in float32 like the C code."""
    if p[26] == 15:
        return np.float32(99999999.0)
    x = [np.float32(0.0)] * 122
    for j in range(1, 25):
        jm1 = j - 1
        n = p[25 - j]
        if n != 0:
            if n == -1:
                x[5 * jm1 + 0] = np.float32(1.0)
            if n == 1:
                x[5 * jm1 + 1] = np.float32(1.0)
            if n >= 2:
                x[5 * jm1 + 2] = np.float32(1.0)
            if n == 3:
                x[5 * jm1 + 3] = np.float32(1.0)
            if n >= 4:
                x[5 * jm1 + 4] = np.float32((n - 3) / 2.0)
    x[120] = np.float32(-p[0] / 2.0)
    x[121] = np.float32(p[26] / 15.0)
    w = RACE_WEIGHTS if race else CONTACT_WEIGHTS
    score = np.float32(0.0)
    for i in range(122):
        score = np.float32(score + np.float32(w[i] * x[i]))
    return score


def c_pos(after: Position) -> list[int]:
    """pubeval's pos[28] for the player who just moved, from the position after the play."""
    me = after.flip()
    b = list(me.board)
    return b[:26] + [me.off[0], -me.off[1]]


def test_weights_are_tesauros():
    assert RACE_WEIGHTS.shape == CONTACT_WEIGHTS.shape == (122,)
    assert RACE_WEIGHTS[1] == np.float32(-0.17160) and RACE_WEIGHTS[121] == np.float32(3.42040)
    assert CONTACT_WEIGHTS[0] == np.float32(0.25696) and CONTACT_WEIGHTS[121] == np.float32(-2.75800)
    # No contact in a race: the weights of "opponent blot on this point" are all zero.
    assert not RACE_WEIGHTS[0:120:5].any() and CONTACT_WEIGHTS[0:120:5].all()


def test_scores_match_the_c_code_on_random_positions():
    rng = random.Random(7)
    positions = random_game_positions(seed=3, games=6)
    checked = 0
    for p in positions[::3]:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = p.legal_plays(dice)
        scores = pubeval_scores(p, plays)
        for play, s in zip(plays, scores):
            assert s == reference_pubeval(p.is_race(), c_pos(play.after)), (p.id, str(play))
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("dice, expected", [
    ((3, 1), "8/5 6/5"),
    ((4, 2), "8/4 6/4"),
    ((6, 5), "24/13"),
    ((5, 3), "8/3 6/3"),
    ((6, 1), "13/7 8/7"),
    ((6, 6), "24/18(2) 13/7(2)"),
])
def test_opening_plays(dice, expected):
    assert str(pubeval_best_play(START, dice)) == expected


def test_hits_a_blot_in_its_home_board_and_bears_off_in_a_race():
    # A lone opponent checker on the mover's 5-point: 6-1 hits with 11/5* or 6/5*.
    p = pos("x 24:2 13:5 11:1 8:3 6:4; o 20:1 24:1 13:5 8:3 6:5")
    assert "*" in str(pubeval_best_play(p, (6, 1)))
    race = pos("x 6:2 5:2 4:2; o 6:3 5:3 4:3")
    assert str(pubeval_best_play(race, (6, 5))) == "6/off 5/off"


def test_last_checkers_off_score_the_maximum():
    p = pos("x 2:1 1:1; o 6:5 5:5 4:5")
    play = pubeval_best_play(p, (2, 1))
    assert str(play) == "2/off 1/off"
    assert pubeval_scores(p, [play])[0] == ALL_OFF_SCORE


def test_no_legal_play_gives_none():
    closed = pos("x bar:1 13:14; o 1:2 2:2 3:2 4:2 5:2 6:2 13:3")
    assert pubeval_best_play(closed, (6, 6)) is None
    assert pubeval_ranked_plays(closed, (6, 6)) == []


def test_deterministic_and_consistent_with_ranking():
    for p in random_game_positions(seed=11, games=2)[::5]:
        a = pubeval_best_play(p, (4, 3))
        b = pubeval_best_play(p, (4, 3))
        ranked = pubeval_ranked_plays(p, (4, 3))
        if a is None:
            assert b is None and ranked == []
            continue
        assert a == b == ranked[0][0]
        assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)


def test_bad_dice_are_rejected():
    with pytest.raises(ValueError, match="dice"):
        pubeval_best_play(START, (7, 1))
