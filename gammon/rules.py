"""Rules options of a game or match, win kinds, and how a win is scored."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

from gammon import primitives
from gammon.errors import InvalidArgumentError, InvalidPositionError, cut
from gammon.i18n import tr
from gammon.position import Position

Reason = Literal["bear_off", "pass", "resign", "abandon"]

# The highest cube of any game, whatever its rules: GNU Backgammon's, whose Match ID holds the
# cube as a power of two up to 2**15. A double or a beaver past it is refused, so that every game
# has a Match ID (a game past it had none, and the web's view of it failed).
HIGHEST_CUBE = 1 << 15


class WinKind(IntEnum):
    """How much a game is won by, before the cube: the value is the multiplier."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True)
class Rules:
    """The options a game is played under. ``match_length`` 0 is money play; ``jacoby``,
    ``beavers`` and ``automatic_doubles`` (the most opening ties that double the cube) apply to
    money play only. ``cube_limit`` is the highest cube value (a power of two) or None: the cube
    still stops at :data:`HIGHEST_CUBE` (:attr:`highest_cube`)."""

    match_length: int = 0
    crawford: bool = True
    jacoby: bool = True
    beavers: bool = False
    cube_limit: int | None = None
    automatic_doubles: int = 0
    use_cube: bool = True

    def __post_init__(self) -> None:
        for name in ("match_length", "automatic_doubles"):
            value = getattr(self, name)
            if not _is_int(value) or value < 0:
                raise InvalidArgumentError(tr("Rules.{name} must be a whole number of 0 or more, got {value}",
                                              name=name, value=cut(repr(value))))
        for name in ("crawford", "jacoby", "beavers", "use_cube"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise InvalidArgumentError(tr("Rules.{name} must be True or False, got {value}", name=name,
                                              value=cut(repr(value))))
        limit = self.cube_limit
        if limit is not None and (not _is_int(limit) or limit < 2 or limit & (limit - 1)):
            raise InvalidArgumentError(tr("Rules.cube_limit must be None or a power of two of at least 2, "
                                          "got {value}", value=cut(repr(limit))))

    @property
    def is_money(self) -> bool:
        return self.match_length == 0

    @property
    def highest_cube(self) -> int:
        """The highest value the cube may reach: ``cube_limit``, never above :data:`HIGHEST_CUBE`."""
        return HIGHEST_CUBE if self.cube_limit is None else min(self.cube_limit, HIGHEST_CUBE)

    @staticmethod
    def cube_matters(match_length: int) -> bool:
        """Whether the cube can change a match of ``match_length`` (0: money): not a 1-point
        match, which its first game wins whatever the cube, so new ones start without it
        (``gammon play --match 1``, the browser's lobby). A record of one with a double still reads."""
        return match_length != 1

    def gammons_count(self, cube_owner: int | None) -> bool:
        """False in money play under the Jacoby rule while the cube is centred."""
        return primitives.gammons_count(self.is_money, self.jacoby, cube_owner is None)

    def points(self, kind: WinKind, cube_value: int, cube_owner: int | None) -> int:
        """Points a win of ``kind`` is worth with this cube (Jacoby applied)."""
        return cube_value * (int(kind) if self.gammons_count(cube_owner) else 1)


@dataclass(frozen=True)
class GameResult:
    """How a game ended: ``points`` is what ``winner`` scores."""

    winner: int
    kind: WinKind
    cube_value: int
    points: int
    reason: Reason

    @property
    def loser(self) -> int:
        return 1 - self.winner


def win_kind(loser_view: Position) -> WinKind:
    """The kind of win when the opponent of the player seen in ``loser_view`` has borne off all
    15: gammon if the loser has borne off none, backgammon if it also still has a checker on the
    bar or in the winner's home board (the loser's points 19-24). InvalidPositionError if the game
    is not over."""
    kind = primitives.win_kind(loser_view.board)
    if not kind:
        raise InvalidPositionError(f"not a finished game: the winner still has checkers in {loser_view.id}")
    return WinKind(kind)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
