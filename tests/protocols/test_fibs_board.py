"""The FIBS board line: GNU Backgammon's examples read right, and every Situation goes to a line and
back unchanged, whichever side's view the line is written from."""

from __future__ import annotations

import random

import pytest

from gammon.errors import InvalidNotationError
from gammon.position import Position
from gammon.protocols.fibs_board import FibsBoard, fibs_board, parse_fibs_board
from gammon.rules import Rules
from gammon.situation import CubeOwner, Situation
from tests.helpers import random_game_positions

# GNU Backgammon's own example (external.h): player0 won the opening roll with 52, then player1
# doubled after a few rolls and player0 is asked to take.
OPENING = (
    "board:player0:player1:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:"
    "5:2:5:2:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1"
)
TAKE = (
    "board:player1:player0:0:0:0:-2:2:0:2:0:0:3:0:1:0:0:0:-4:5:0:0:0:-4:0:-5:0:0:0:0:2:0:1:"
    "0:0:0:0:1:1:1:1:1:-1:0:25:0:0:0:0:0:0:0:1"
)


def test_gnubg_opening_example() -> None:
    s = parse_fibs_board(OPENING + "\n\0").situation()
    # player0 (the negative checkers, turn -1) is on roll with 52 from the starting position
    assert s.position == Position.initial()
    assert s.dice == (5, 2)
    assert s.is_money and s.cube_value == 1 and s.cube_owner is CubeOwner.CENTRED
    assert not s.double_offered


def test_gnubg_take_example() -> None:
    s = parse_fibs_board(TAKE).situation()
    assert s.double_offered and s.dice is None
    # the doubler (player1, positive, turn 1) is on roll after 13/8*(2) 6/1*(2): two of player0's
    # checkers on the bar
    assert s.position.board[6] == 3 and s.position.board[1] == 2 and s.position.bar == (0, 2)


def _flipped_line(line: FibsBoard) -> FibsBoard:
    """The same state written with the other player as "you", the numbering reversed and the
    colours swapped (the player on roll's checkers negative, turn -1)."""
    n = list(line.numbers)
    board = n[3:29]
    n[3:29] = [-v for v in reversed(board)]  # the other colour's numbering and signs
    n[1], n[2] = n[2], n[1]
    n[29] = -n[29]
    n[30:34] = n[32:34] + n[30:32]
    n[35], n[36] = n[36], n[35]
    n[38], n[39] = 1, -1  # you: colour 1 moving 24 to 1; the player on roll moves 1 to 24
    n[42], n[43], n[44], n[45] = n[43], n[42], n[45], n[44]
    return FibsBoard(line.opponent, line.player, tuple(n))


def _situations(count: int) -> list[Situation]:
    rng = random.Random(5)
    positions = [p for p in random_game_positions(11, 30) if not p.is_game_over()]
    out = []
    for position in rng.sample(positions, count):
        length = rng.choice([0, 0, 3, 5, 7, 11])
        score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
        crawford = bool(length) and length - 1 in score and rng.random() < 0.5
        cube = 1 if crawford else rng.choice([1, 2, 4, 8])
        owner = CubeOwner.CENTRED if cube == 1 else rng.choice([CubeOwner.MOVER, CubeOwner.OPPONENT])
        offered = not crawford and owner is not CubeOwner.OPPONENT and rng.random() < 0.2
        dice = None if offered or rng.random() < 0.3 else (rng.randint(1, 6), rng.randint(1, 6))
        out.append(
            Situation(
                position,
                dice=dice,
                cube_value=cube,
                cube_owner=owner,
                double_offered=offered,
                score=score,
                crawford_game=crawford,
                rules=Rules(match_length=length),
            )
        )
    return out


@pytest.mark.parametrize("s", _situations(300))
def test_round_trip(s: Situation) -> None:
    line = fibs_board(s, "You", "gnubg")
    assert parse_fibs_board(str(line)) == line
    assert line.situation() == s
    assert _flipped_line(line).situation() == s


@pytest.mark.parametrize(
    "text, words",
    [
        ("bord:a:b:1", "starts with"),
        ("board:a:b:" + ":".join(["0"] * 49), "50 numbers"),
        ("board:a:b:" + ":".join(["x"] * 50), "numbers"),
        ("board:a:b:1_1:" + ":".join(["0"] * 49), "numbers"),  # not an 11-point match
        ("board:a:b:\uff15:" + ":".join(["0"] * 49), "numbers"),  # a digit 5, but no ASCII one
        ("board:a:b: 5:" + ":".join(["0"] * 49), "numbers"),
        ("board:a:b:" + "9" * 4000 + ":" + ":".join(["0"] * 49), "numbers"),
        ("board:a:b:" + ":".join(["0"] * 50), "turn, colour and direction"),
        (OPENING.replace(":5:0:3:", ":9:0:3:"), "no legal state"),
    ],
)
def test_bad_lines(text: str, words: str) -> None:
    with pytest.raises(InvalidNotationError, match=words):
        parse_fibs_board(text).situation()


# Lines GNU Backgammon 1.07 sent its external player (player 0) in a 5-point match it recorded as
# player 0 on 0 points, player 1 on 4, then a Crawford game; and, earlier, player 1 (on 2 points)
# doubling player 0 (on 0).
GNUBG_CRAWFORD = (
    "board:gnubg:root:5:0:4:0:-2:0:0:0:0:5:0:4:0:0:0:-5:4:0:0:0:-3:0:-5:0:1:0:0:1:0:-1:6:3:6:3:1:"
    "1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0"
)
GNUBG_TAKE = (
    "board:root:gnubg:5:2:0:0:1:0:0:1:3:4:0:2:1:-2:0:-2:3:0:-1:0:-2:0:-2:-4:-1:-1:0:0:0:1:0:0:0:0:"
    "1:1:1:1:1:-1:0:25:0:0:0:0:0:0:0:1"
)


def test_scores_as_gnubg_writes_them() -> None:
    # no double on offer: the first score is that of the player not of `colour`, here the one on
    # roll (turn -1, colour 1)
    s = parse_fibs_board(GNUBG_CRAWFORD).situation()
    assert s.dice == (6, 3) and s.score == (0, 4) and s.crawford_game
    # a double on offer: the first score is the doubler's (turn 1, colour 1)
    s = parse_fibs_board(GNUBG_TAKE).situation()
    assert s.double_offered and s.score == (2, 0)


def test_scores_as_gnubg_reads_them() -> None:
    rules = Rules(match_length=5)
    s = Situation(Position.initial(), dice=(6, 3), score=(0, 3), rules=rules)
    assert fibs_board(s).numbers[1:3] == (3, 0)  # turn and colour 1: the opponent's score first
    s = Situation(Position.initial(), double_offered=True, score=(2, 0), rules=rules)
    assert fibs_board(s).numbers[1:3] == (2, 0)
