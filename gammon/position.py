"""Position: a frozen backgammon position seen from the player on roll (the mover).

Layout of ``Position.board`` (26 slots):

* ``board[1]`` .. ``board[24]``: the points, numbered from the mover's view (24 farthest, 1 the
  last point before bearing off); positive counts are the mover's checkers, negative the
  opponent's.
* ``board[25]``: the mover's checkers on the bar (>= 0).
* ``board[0]``: the opponent's checkers on the bar (<= 0).

Checkers that are not on the board are borne off.
"""

from __future__ import annotations

import base64
import numbers
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from gammon.errors import IllegalMoveError, InvalidNotationError, InvalidPositionError, cut
from gammon.i18n import N_, tr
from gammon.notation import parse_play
from gammon.primitives import BAR as BAR
from gammon.primitives import CHECKERS as CHECKERS
from gammon.primitives import OPPONENT_BAR as OPPONENT_BAR
from gammon.primitives import flip_into, pip_counts

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from gammon.play import Play

_BASE64 = re.compile(r"[A-Za-z0-9+/]{14}")

# A gnubg board: (player not on roll, player on roll), each 25 counts from that player's own view
# (index 0 = its 1-point, index 24 = its bar).
GnubgBoard = tuple[tuple[int, ...], tuple[int, ...]]

# What a finished game leaves nothing to do (game_over_error)
Verb = Literal["play", "roll out", "double", "evaluate"]


class Position:
    """An immutable, hashable backgammon position from the view of the player on roll."""

    __slots__ = ("_board", "_array", "_hash", "_id")

    _board: tuple[int, ...]
    _array: npt.NDArray[np.int8] | None
    _hash: int | None
    _id: str | None

    def __init__(self, board: Iterable[int]) -> None:
        cells = tuple(board)
        _check_board(cells)
        self._board = tuple(int(c) for c in cells)
        self._array = None
        self._hash = None
        self._id = None

    @classmethod
    def trusted(cls, board: tuple[int, ...]) -> Position:
        """Build without validation: for boards made by gammon's own kernels."""
        p = object.__new__(cls)
        p._board = board
        p._array = None
        p._hash = None
        p._id = None
        return p

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The standard starting position."""
        return _INITIAL

    @classmethod
    def from_points(cls, mover: Mapping[int, int], opponent: Mapping[int, int]) -> Position:
        """Build from ``{point: count}`` maps, each side numbering points from its own view.

        Point 25 is that side's bar; checkers not placed are borne off.
        ``Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})`` is the start.
        """
        board = [0] * 26
        for side, points in ((1, mover), (-1, opponent)):
            if not isinstance(points, Mapping):
                raise InvalidPositionError(
                    tr("each side is a map of point to count, got {points}", points=cut(repr(points)))
                )
            for key, number in points.items():
                # whole numbers of any type (numpy's too), made ints; True is no count
                if not _is_whole(key) or not 1 <= key <= 25:
                    raise InvalidPositionError(
                        tr("point {point} is not 1-24 or 25 (the bar)", point=cut(repr(key)))
                    )
                point = int(key)
                if not _is_whole(number) or number < 0:
                    raise InvalidPositionError(tr("checker count {count} on point {point} is not >= 0",
                                                  count=cut(repr(number)), point=point))
                count = int(number)
                slot = point if side == 1 else (OPPONENT_BAR if point == BAR else 25 - point)
                if board[slot] != 0 and count:
                    raise InvalidPositionError(
                        tr("point {point} holds checkers of both players", point=point)
                    )
                board[slot] = side * count
        return cls(board)

    @classmethod
    def from_id(cls, text: str) -> Position:
        """Read a GNU Backgammon Position ID (14 characters of base64), e.g. ``4HPwATDgc/ABMA``."""
        if not isinstance(text, str):
            raise InvalidNotationError(tr("a Position ID must be a string, not {text}", text=cut(repr(text))))
        stripped = text.strip()
        quoted = repr(cut(text))
        if len(stripped) != 14:
            raise InvalidNotationError(tr("Position ID {text} must have 14 characters", text=quoted))
        # 14 characters of the alphabet, no '=': the decoder would take padding in the middle
        # ('4HPwATDgc/AB==') for the end of the data and read another position, where gnubg refuses
        if not _BASE64.fullmatch(stripped):
            raise InvalidNotationError(tr("Position ID {text} is not valid base64", text=quoted))
        raw = base64.b64decode(stripped + "==", validate=True)
        bits = int.from_bytes(raw, "little")
        sides: list[list[int]] = []
        pos = 0
        for _ in range(2):
            counts = []
            for _ in range(25):
                n = 0
                while pos < 80 and bits >> pos & 1:
                    n += 1
                    pos += 1
                if pos >= 80:
                    raise InvalidNotationError(tr("Position ID {text} has too many checkers", text=quoted))
                pos += 1
                counts.append(n)
            if sum(counts) > CHECKERS:
                raise InvalidNotationError(
                    tr("Position ID {text} has more than 15 checkers a side", text=quoted)
                )
            sides.append(counts)
        if bits >> pos:
            raise InvalidNotationError(
                tr("Position ID {text} has bits set after the last point", text=quoted)
            )
        try:
            return cls.from_gnubg_board((tuple(sides[0]), tuple(sides[1])))
        except InvalidPositionError as e:
            raise InvalidNotationError(
                tr("Position ID {text} is not a valid position: {problem}", text=quoted, problem=e)
            ) from None

    @classmethod
    def from_gnubg_board(cls, board: Sequence[Sequence[int]]) -> Position:
        """Build from GNU Backgammon's board tuple ``(player not on roll, player on roll)``."""
        try:  # two rows that have a length (tuples, lists, numpy arrays), each of 25
            opponent, mover = board
            sized = len(opponent) == 25 and len(mover) == 25
        except (TypeError, ValueError):
            sized = False
        if not sized:
            raise InvalidPositionError(
                tr("a gnubg board needs two rows of 25 counts, got {board}", board=_board_text(board))
            )
        # a negative count would add to the other player's checkers on the same slot
        if any(not isinstance(c, int) or isinstance(c, bool) or c < 0 for row in board for c in row):
            raise InvalidPositionError(
                tr("a gnubg board's counts must be whole numbers >= 0, got {board}", board=_board_text(board))
            )
        cells = [0] * 26
        for i in range(25):
            cells[i + 1] += mover[i]
            cells[24 - i] -= opponent[i]
        if any(mover[i] and opponent[23 - i] for i in range(24)):
            raise InvalidPositionError(
                tr("a point holds checkers of both players in {board}", board=_board_text(board))
            )
        return cls(cells)

    # --- views -------------------------------------------------------------------------------

    @property
    def board(self) -> tuple[int, ...]:
        """The 26 slots described in the module docstring."""
        return self._board

    @property
    def id(self) -> str:
        """The GNU Backgammon Position ID (computed once, then cached)."""
        if self._id is None:
            b = self._board
            # gnubg's key: the opponent's 24 points in its own numbering and its bar, then the
            # mover's; each point is as many 1 bits as checkers, then a 0 bit.
            counts = [-c if c < 0 else 0 for c in b[24:0:-1]]
            counts.append(-b[0])
            counts.extend(c if c > 0 else 0 for c in b[1:26])
            bits = 0
            pos = 0
            for n in counts:
                if n:
                    bits |= ((1 << n) - 1) << pos
                pos += n + 1
            self._id = base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]
        return self._id

    def to_gnubg_board(self) -> GnubgBoard:
        """GNU Backgammon's board tuple ``(player not on roll, player on roll)``."""
        b = self._board
        mover = tuple(max(b[i], 0) for i in range(1, 25)) + (b[BAR],)
        opponent = tuple(max(-b[25 - i], 0) for i in range(1, 25)) + (-b[OPPONENT_BAR],)
        return (opponent, mover)

    def after_gnubg_move(self, move: Sequence[int]) -> Position:
        """The position after a GNU Backgammon move tuple, seen from the opponent (as
        :attr:`gammon.play.Play.after`).

        ``move`` is ``(from, to)`` pairs on the mover's points as gnubg's ``findbestmove`` gives
        them: 25 is the bar, 0 is off, a hit blot goes to the opponent's bar. Each step must move
        one of the mover's checkers forward onto a point the opponent does not hold; whether the
        whole play is legal for some dice is the caller's to check (``legal_plays``)."""
        steps = tuple(move)
        if len(steps) % 2 or not all(isinstance(n, numbers.Integral) and 0 <= n <= 25 for n in steps):
            raise InvalidNotationError(
                tr("a gnubg move is (from, to) pairs of points 0..25, got {move}", move=cut(repr(move)))
            )
        b = list(self._board)
        for src, dst in zip(steps[::2], steps[1::2]):
            if src == 0 or dst >= src or b[src] <= 0 or (dst and b[dst] < -1):
                raise IllegalMoveError(tr("gnubg move {move}: step {src}/{dst} is impossible in {id}",
                                          move=cut(repr(move)), src=src, dst=dst, id=repr(self.id)))
            b[src] -= 1
            if dst:
                if b[dst] == -1:  # a hit: the blot goes to the opponent's bar
                    b[dst] = 0
                    b[OPPONENT_BAR] -= 1
                b[dst] += 1
        return _flipped(b)

    def flip(self) -> Position:
        """The same position seen from the opponent."""
        return _flipped(self._board)

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: (mover, opponent)."""
        b = self._board
        return (CHECKERS - sum(c for c in b if c > 0), CHECKERS + sum(c for c in b if c < 0))

    @property
    def bar(self) -> tuple[int, int]:
        """Checkers on the bar: (mover, opponent)."""
        return (self._board[BAR], -self._board[OPPONENT_BAR])

    @property
    def pip_counts(self) -> tuple[int, int]:
        """Pip counts: (mover, opponent)."""
        mover, opponent = pip_counts(self._board)
        return (mover, opponent)

    def is_race(self) -> bool:
        """True when contact is over: every mover checker has passed every opponent checker."""
        b = self._board
        mover_back = max((i for i in range(1, 26) if b[i] > 0), default=0)
        opponent_back = min((i for i in range(0, 25) if b[i] < 0), default=25)
        return mover_back < opponent_back

    def can_bear_off(self) -> bool:
        """True when all the mover's checkers are in its home board (or off)."""
        return all(c <= 0 for c in self._board[7:26])

    def is_game_over(self) -> bool:
        """True when either side has borne off all 15 checkers (has none left on the board)."""
        b = self._board
        return max(b) <= 0 or min(b) >= 0

    # --- plays -------------------------------------------------------------------------------

    def legal_plays(self, dice: Sequence[int]) -> list[Play]:
        """Every legal play for the dice, one per distinct resulting position; ``[]`` if none."""
        from gammon.movegen import legal_plays

        return legal_plays(self, dice)

    def parse_play(self, text: str, dice: Sequence[int]) -> Play:
        """Read a play in standard notation (``"24/18*/12 13/11"``) and check it is legal."""
        return parse_play(self, text, dice)

    def as_array(self) -> npt.NDArray[np.int8]:
        """The board as a read-only ``int8`` numpy array (cached)."""
        if self._array is None:
            import numpy as np

            # Over immutable bytes: an array that owned its data could be made writeable again
            # (flags.writeable = True) and the position's cached board changed for everyone.
            self._array = np.frombuffer(np.array(self._board, dtype=np.int8).tobytes(), dtype=np.int8)
        return self._array

    # --- value semantics ---------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._board == other._board

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._board)
        return self._hash

    def __repr__(self) -> str:
        return f"Position.from_id({self.id!r})"

    def __reduce__(self) -> tuple[object, tuple[tuple[int, ...]]]:
        return (Position, (self._board,))


def require_position(value: object, what: str, alternative: str = "") -> Position:
    """``value`` when it is a Position; else a TypeError that says what ``what`` needs (a Position,
    or ``alternative``) and, for text, how to read it (the engine's methods take Positions, not IDs)."""
    if isinstance(value, Position):
        return value
    needed = f"a Position or {alternative}" if alternative else "a Position"
    how = " (Position.from_id reads a Position ID)" if isinstance(value, str) else ""
    raise TypeError(f"{what} needs {needed}, got {type(value).__name__} {cut(repr(value))}{how}")


def require_in_play(value: object, what: str, verb: Verb) -> Position:
    """:func:`require_position`, then an InvalidPositionError when the game is over in the position
    (a side has borne off every checker): there is nothing to ``verb`` ("play", "roll out")."""
    position = require_position(value, what)
    if position.is_game_over():
        raise game_over_error(position, verb)
    return position


def game_over_error(position: Position, verb: Verb) -> InvalidPositionError:
    """The error of :func:`require_in_play` for ``position``, where the game is over."""
    return InvalidPositionError(tr(_GAME_OVER[verb], id=repr(position.id)))


# one whole sentence a verb, for the translations to word
_GAME_OVER: dict[Verb, str] = {
    "play": N_("the game is over in {id}: nothing to play"),
    "roll out": N_("the game is over in {id}: nothing to roll out"),
    "double": N_("the game is over in {id}: nothing to double"),
    "evaluate": N_("the game is over in {id}: nothing to evaluate"),
}


def _flipped(board: Sequence[int]) -> Position:
    out = [0] * 26
    flip_into(board, out)
    return Position.trusted(tuple(out))


def _board_text(board: object) -> str:
    """A board as an error quotes it: whole when it has a board's size, cut when it is far longer."""
    return cut(repr(board), 200)


def _is_whole(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_board(cells: tuple[int, ...]) -> None:
    if len(cells) != 26:
        raise InvalidPositionError(
            tr("a board has 26 slots, got {count}: {board}", count=len(cells), board=_board_text(cells))
        )
    for c in cells:
        if type(c) is not int and (isinstance(c, bool) or not isinstance(c, numbers.Integral)):
            raise InvalidPositionError(tr("board slots must be integers, got {value} in {board}",
                                          value=cut(repr(c)), board=_board_text(cells)))
    if cells[BAR] < 0:
        raise InvalidPositionError(tr("the mover's bar (slot 25) must be >= 0, got {count} in {board}",
                                      count=cells[BAR], board=_board_text(cells)))
    if cells[OPPONENT_BAR] > 0:
        raise InvalidPositionError(tr("the opponent's bar (slot 0) must be <= 0, got {count} in {board}",
                                      count=cells[OPPONENT_BAR], board=_board_text(cells)))
    mover = sum(c for c in cells if c > 0)
    opponent = -sum(c for c in cells if c < 0)
    if mover > CHECKERS or opponent > CHECKERS:
        raise InvalidPositionError(tr("at most 15 checkers a side, got {mover} and {opponent} in {board}",
                                      mover=mover, opponent=opponent, board=_board_text(cells)))
    if mover == 0 and opponent == 0:
        raise InvalidPositionError(
            tr("a position needs checkers on the board: {board}", board=_board_text(cells))
        )


_INITIAL = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
