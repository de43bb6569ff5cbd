import pickle
import re

import gnubg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import IllegalMoveError, InvalidNotationError, InvalidPositionError, Position
from gammon.i18n import use_language
from gammon.position import require_in_play
from tests.helpers import pos, random_game_positions, wildbg_ids

START = "4HPwATDgc/ABMA"


def test_initial_position_id_and_counts():
    p = Position.initial()
    assert p.id == START
    assert Position.from_id(START) == p
    assert p.pip_counts == (167, 167)
    assert p.off == (0, 0)
    assert p.bar == (0, 0)
    assert not p.is_race()
    assert not p.can_bear_off()
    assert p.board[24] == 2 and p.board[1] == -2 and p.board[6] == 5 and p.board[19] == -5


def test_repr_is_evaluable_and_pickles():
    p = pos("x 24:1 13:5 8:3 6:5 bar:1; o 24:2 13:4 8:3 6:5")
    assert eval(repr(p), {"Position": Position}) == p
    assert pickle.loads(pickle.dumps(p)) == p
    assert hash(p) == hash(Position(p.board))


def test_flip_swaps_sides():
    p = pos("x 24:2 13:5 8:3 6:4 bar:1; o 24:2 13:5 8:3 6:3 3:1")
    q = p.flip()
    assert q.pip_counts == p.pip_counts[::-1]
    assert q.bar == p.bar[::-1]
    assert q.off == p.off[::-1]
    assert q.flip() == p


def test_bar_and_off_counts():
    p = pos("x 6:3 bar:2; o 1:4")
    assert p.bar == (2, 0)
    assert p.off == (10, 11)
    assert p.pip_counts == (18 + 50, 4)


def test_race_detection():
    assert pos("x 6:5 12:2; o 6:3 12:2").is_race()
    assert not pos("x 6:5 14:2; o 6:3 12:2").is_race()
    assert not pos("x 6:5 bar:1; o 6:3").is_race()


@pytest.mark.parametrize("text", wildbg_ids("contact")[:200] + wildbg_ids("race")[:200])
def test_ids_agree_with_gnubg(text):
    p = Position.from_id(text)
    assert p.id == text
    assert p.to_gnubg_board() == tuple(tuple(row) for row in gnubg.positionfromid(text))
    assert gnubg.positionid(p.to_gnubg_board()) == text


def test_ids_of_game_positions_agree_with_gnubg():
    for p in random_game_positions(seed=7, games=20):
        assert gnubg.positionid(p.to_gnubg_board()) == p.id
        assert Position.from_gnubg_board(p.to_gnubg_board()) == p


@pytest.mark.parametrize(
    "text",
    ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A", "//////////////", "AAAAAAAAAAAAAA",
     "4HPw ATDgc/ABM", 12345],
)
def test_bad_ids_are_rejected_with_the_text(text):
    with pytest.raises(InvalidNotationError) as e:
        Position.from_id(text)
    assert repr(text) in str(e.value)


@pytest.mark.parametrize("text", ["4HPwATDgc/AB==", "4HPwATDgc/ABM=", "4HPwATDgc/AB=A", "=HPwATDgc/ABMA"])
def test_padded_ids_are_refused_as_gnubg_refuses_them(text):
    # '4HPwATDgc/AB==' was read as '4HPwATDgc/ABAA', another position
    with pytest.raises(ValueError):
        gnubg.positionfromid(text)
    with pytest.raises(InvalidNotationError, match="base64") as e:
        Position.from_id(text)
    assert repr(text) in str(e.value)


@pytest.mark.parametrize(
    "board, why",
    [
        ([0] * 25, "26 slots"),
        ([0] + [1] * 16 + [0] * 9, "15 checkers"),
        ([1] + [0] * 25, "opponent's bar"),
        ([0] * 25 + [-1], "mover's bar"),
        ([0] * 26, "needs checkers"),
        ([0, 1.5] + [0] * 24, "integers"),
    ],
)
def test_bad_boards_are_rejected(board, why):
    with pytest.raises(InvalidPositionError, match=why):
        Position(board)


def test_both_colours_on_one_point_is_rejected():
    with pytest.raises(InvalidPositionError, match="both"):
        Position.from_points({1: 1}, {24: 1})


@st.composite
def boards(draw):
    """Any legal arrangement: up to 15 checkers a side, never two colours on a point."""
    board = [0] * 26
    for sign, slots in ((1, range(1, 26)), (-1, range(0, 25))):
        for _ in range(draw(st.integers(0 if sign < 0 else 1, 15))):
            free = [s for s in slots if board[s] * sign >= 0 and (s in (0, 25) or board[s] * sign >= 0)]
            s = draw(st.sampled_from(free))
            board[s] += sign
    return board


@given(boards())
def test_id_round_trip_and_flip(board):
    p = Position(board)
    assert Position.from_id(p.id) == p
    assert p.flip().flip() == p
    assert Position.from_id(p.flip().id) == p.flip()
    assert gnubg.positionid(p.to_gnubg_board()) == p.id


@given(st.text(max_size=20))
def test_from_id_fuzz(text):
    try:
        p = Position.from_id(text)
    except InvalidNotationError:
        return
    assert Position.from_id(p.id) == p


def test_after_gnubg_move_matches_the_legal_play():
    # every legal play, written as a gnubg move tuple, lands on the play's resulting position
    for p in random_game_positions(seed=4, games=2)[:80]:
        for play in p.legal_plays((6, 3)) + p.legal_plays((2, 2)):
            move = tuple(n for step in play.steps for n in step)
            assert p.after_gnubg_move(move) == play.after, (p.id, move)


def test_after_gnubg_move_hits_enters_and_bears_off():
    p = pos("x 25:1 6:2 2:12; o 5:1 21:1 6:13")  # o's 5 and 21: the mover's 20 and 4
    after = p.after_gnubg_move((25, 20, 6, 4)).flip()  # enter hitting, then hit again
    assert after.board[20] == 1 and after.board[4] == 1 and after.board[0] == -2
    home = pos("x 2:1 1:1; o 1:15")
    assert home.after_gnubg_move((2, 0, 1, 0)).is_game_over()


@pytest.mark.parametrize("move", [(8,), (8, 5, 6), (26, 20), (8, "5"), (8, -1)])
def test_after_gnubg_move_refuses_malformed_tuples_quoting_them(move):
    with pytest.raises(InvalidNotationError, match=re.escape(repr(move))):
        Position.initial().after_gnubg_move(move)


@pytest.mark.parametrize("move", [(7, 4), (6, 8), (13, 1), (0, 0)])
def test_after_gnubg_move_refuses_impossible_steps(move):
    with pytest.raises(IllegalMoveError, match=re.escape(repr(move))):
        Position.initial().after_gnubg_move(move)


@pytest.mark.parametrize("change", [(1, 5, -2), (0, 0, -1), (1, 24, True), (0, 3, 1.0)])
def test_from_gnubg_board_refuses_counts_that_are_not_whole_numbers_at_least_0(change):
    board = [list(row) for row in Position.initial().to_gnubg_board()]
    row, i, count = change
    board[row][i] = count
    with pytest.raises(InvalidPositionError, match="counts must be whole numbers >= 0"):
        Position.from_gnubg_board(board)


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: Position([0] + [1] * 16 + [0] * 9), "najwyżej 15 pionków na stronę, podano 16 i 0"),
        (lambda: Position([0] * 26), "pozycja wymaga pionków na planszy"),
        (lambda: Position.from_points({1: 1}, {24: 1}), "na polu 24 stoją pionki obu graczy"),
        (lambda: Position.from_points({26: 1}, {}), "pole 26 nie jest liczbą 1-24 ani 25 (banda)"),
        (lambda: Position.initial().after_gnubg_move((1, 2)), "ruch gnubg (1, 2): krok 1/2 jest niemożliwy"),
        (lambda: require_in_play(Position.from_points({1: 1}, {}), "a hint", "play"), "nie ma czego grać"),
    ],
)
def test_position_errors_are_in_the_language_in_use(make, words):
    with use_language("pl"), pytest.raises(ValueError) as e:
        make()
    assert words in str(e.value)
