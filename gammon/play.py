"""Play: one legal play (the whole turn) from a position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gammon.notation import format_play, hit_points

if TYPE_CHECKING:
    from gammon.position import Position

Step = tuple[int, int]
"""One checker moving by one die: (from, to); 25 is the bar, 0 is off."""


class Play:
    """A legal play. ``after`` is the resulting position seen by the opponent, now on roll."""

    # Read-only: a play is a value (equal plays hash equal, sets and dicts hold them), so its
    # position and dice are properties over private slots that nothing outside sets.
    __slots__ = ("_position", "_dice", "_steps", "_after_board", "_after")

    _position: Position
    _dice: tuple[int, int]
    # Plays made by the move-generation kernel keep its raw lists until asked (most are never
    # looked at); plays made in Python hold tuples and the Position.
    _steps: tuple[Step, ...] | list[list[int]]
    _after_board: list[int] | None
    _after: Position | None

    def __init__(
        self, position: Position, dice: tuple[int, int], steps: tuple[Step, ...], after: Position
    ) -> None:
        self._position = position
        self._dice = dice
        self._steps = tuple(steps)
        self._after_board = None
        self._after = after

    @classmethod
    def from_kernel(
        cls, position: Position, dice: tuple[int, int], steps: list[list[int]], after_board: list[int]
    ) -> Play:
        """A play of the move generator's kernels, taken unchecked: ``steps`` and ``after_board`` as
        their arrays' lists (the steps are made tuples only when asked for)."""
        p = object.__new__(cls)
        p._position = position
        p._dice = dice
        p._steps = steps
        p._after_board = after_board
        p._after = None
        return p

    @property
    def position(self) -> Position:
        """The position played from, seen by the mover."""
        return self._position

    @property
    def dice(self) -> tuple[int, int]:
        """The roll played."""
        return self._dice

    @property
    def steps(self) -> tuple[Step, ...]:
        """One sequence of steps that makes this play, in playing order."""
        if not isinstance(self._steps, tuple):
            self._steps = tuple((int(a), int(b)) for a, b in self._steps)
        return self._steps

    @property
    def after(self) -> Position:
        """The position after the play, from the view of the opponent (now on roll)."""
        if self._after is None:
            assert self._after_board is not None  # one of the two is always set
            # the class of the position played from: play.py needs no runtime import of it
            self._after = type(self.position).trusted(tuple(self._after_board))
        return self._after

    @property
    def hits(self) -> tuple[int, ...]:
        """The points (mover's numbering) where an opponent blot was hit, highest first."""
        return hit_points(self.position, self.after)

    def __str__(self) -> str:
        # The kernel's raw steps will do (pairs either way): a UI writes every play of each roll.
        return format_play(self.position, self._steps)

    def __repr__(self) -> str:
        # Code that rebuilds the play, as python-chess's reprs do.
        return f"{self.position!r}.parse_play({str(self)!r}, {self.dice!r})"

    def __reduce__(self) -> tuple[type[Play], tuple[Position, tuple[int, int], tuple[Step, ...], Position]]:
        # Rebuilt through __init__: pickle's protocols 0 and 1 cannot save __slots__ on their own.
        return (type(self), (self._position, self._dice, self.steps, self.after))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.position == other.position and self.after == other.after

    def __hash__(self) -> int:
        return hash((self.position, self.after))
