"""Bad input of any length gets an error that quotes it, cut to a sensible length
(gammon.errors.cut): a pasted page must not come back whole in a message."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gammon import InvalidNotationError, InvalidPositionError, Position
from gammon.dice import parse_dice
from gammon.errors import QUOTE_LIMIT, cut
from gammon.formats.mat import read_mat
from gammon.formats.matchid import MatchState
from gammon.formats.xgid import parse_xgid
from gammon.notation import parse_paths

LONG = 5_000


@pytest.mark.parametrize(("read", "text"), [
    (Position.from_id, "4HPwATDgc/ABMA" * (LONG // 14)),
    (Position.from_id, "!" * LONG),
    (MatchState.from_id, "cAkAAAAAAAAA" * (LONG // 12)),
    (parse_xgid, "XGID=" + "-" * LONG + ":0:0:1:00:0:0:0:0:10"),
    (parse_xgid, "XGID=" + "1:" * LONG),
    (parse_dice, "3" * LONG),
    (parse_paths, "24/18 " + "y" * LONG),
    (parse_paths, "24/18(9)" * LONG),
    (lambda text: Position.initial().parse_play(text, (3, 1)), "8/5 6/5 " * LONG),
])
def test_long_bad_text_is_quoted_cut(read: Callable[[str], object], text: str) -> None:
    with pytest.raises(ValueError) as e:  # InvalidNotationError, or IllegalMoveError for the play
        read(text)
    message = str(e.value)
    assert len(message) < 4 * QUOTE_LIMIT, message
    assert repr(cut(text)) in message or repr(cut(text.split()[-1])) in message


@pytest.mark.parametrize("board", [
    [0] * LONG,  # not 26 slots
    [1] * 26,  # too many checkers
    ["x" * LONG] + [0] * 25,  # a slot that is no integer
])
def test_long_bad_boards_are_quoted_cut(board: list[object]) -> None:
    with pytest.raises(InvalidPositionError) as e:
        Position(board)  # type: ignore[arg-type]
    assert len(str(e.value)) < 6 * QUOTE_LIMIT, str(e.value)


def test_short_bad_input_is_quoted_whole() -> None:
    """A board's 26 slots or a Position ID fit a message; cutting is for what does not."""
    board = [0] * 25 + [-1]
    with pytest.raises(InvalidPositionError) as e:
        Position(board)
    assert repr(tuple(board)) in str(e.value)
    with pytest.raises(InvalidNotationError, match="'4HPwATDgc/ABM!'"):
        Position.from_id("4HPwATDgc/ABM!")


@pytest.mark.parametrize("text", [
    "x" * LONG + "\n 1 point match\n",  # a header line: the file cannot be read
    " 1 point match\n\n Game " + "1" * LONG + "\n",  # a game line: an error collected for it
])
def test_long_bad_lines_of_a_mat_file_are_quoted_cut(text: str) -> None:
    try:
        messages = [str(e) for e in read_mat(text).errors]
    except InvalidNotationError as e:
        messages = [str(e)]
    assert messages
    for message in messages:
        assert len(message) < 4 * QUOTE_LIMIT, message
        assert "x" * 40 in message or "1" * 40 in message


@pytest.mark.parametrize("text", [
    "(;GM[6]" + "x" * LONG,  # a property with no value
    "(;GM[6]" + "X" * LONG + "[1",  # a value with no closing ']'
    "(;GM[6]" + "x" * LONG + "[1])",  # an identifier with no capital letter
    "(;FF[4]GM[6]CA[UTF-8]MI[length:0][game:0][ws:0][bs:0];B[" + "31" * LONG + "])",  # a bad move
    "(" * LONG,
])
def test_long_bad_sgf_is_quoted_cut(text: str) -> None:
    from gammon.formats.sgf import read_sgf

    with pytest.raises(InvalidNotationError) as e:
        read_sgf(text)
    assert len(str(e.value)) < 4 * QUOTE_LIMIT, str(e.value)
