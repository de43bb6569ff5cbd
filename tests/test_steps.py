from __future__ import annotations

import random

import pytest

from gammon.dice import ALL_ROLLS
from gammon.position import Position
from gammon.steps import step_sequences


def _random_positions(n: int, seed: int = 3) -> list[Position]:
    rng = random.Random(seed)
    out, pos = [], Position.initial()
    while len(out) < n:
        plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        pos = rng.choice(plays).after if plays else pos.flip()
        if pos.is_game_over():
            pos = Position.initial()
        out.append(pos)
    return out


def _replay(position: Position, steps) -> tuple[int, ...]:
    b = list(position.board)
    for src, dst in steps:
        b[src] -= 1
        if dst:
            if b[dst] == -1:
                b[dst], b[0] = 0, b[0] - 1
            b[dst] += 1
    return tuple(b)


@pytest.mark.slow
def test_every_play_has_a_step_order_and_every_order_makes_its_play() -> None:
    for pos in _random_positions(60):
        for dice in ALL_ROLLS:
            plays, seqs = step_sequences(pos, dice)
            assert {i for i, _ in seqs} == set(range(len(plays)))
            for i, steps in seqs:
                assert len(steps) == len(plays[i].steps)
                assert _replay(pos, steps) == plays[i].after.flip().board


def test_both_orders_of_a_non_double_are_offered() -> None:
    plays, seqs = step_sequences(Position.initial(), (2, 1))
    index = [str(p) for p in plays].index("13/11 6/5")
    orders = {steps for i, steps in seqs if i == index}
    assert orders == {((13, 11), (6, 5)), ((6, 5), (13, 11))}
    # one checker by both dice: through either open intermediate point (13/12 is blocked)
    index = [str(p) for p in plays].index("24/21")
    assert {steps for i, steps in seqs if i == index} == {((24, 22), (22, 21)), ((24, 23), (23, 21))}
    index = [str(p) for p in plays].index("13/10")
    assert {steps for i, steps in seqs if i == index} == {((13, 11), (11, 10))}
