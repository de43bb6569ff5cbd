"""The FIBS board line (``board:...``, FIBS's "boardstyle 3"), as GNU Backgammon's external player
interface sends and reads it: one implementation for both directions of that interface.

A line is ``board:`` then two names and 50 whole numbers, separated by colons::

    board:You:gnubg:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1

The numbers: match length (0, or 9999 as FIBS writes it, for money play), the first player's
("you") score, the second's; 26 board fields; the turn; your dice and the opponent's; the cube; may
you double, may the opponent double; was doubled; your colour; your direction; home and bar
fields; checkers borne off and on the bar (yours, the opponent's); can move; forced move; and two
flags GNU Backgammon reads as "post-Crawford" and "not the Crawford game".

A checker count is positive for the colour 1 and negative for -1, and ``turn`` is the colour of
the player on roll, so the player on roll's checkers carry the sign of ``turn``. Direction -1 moves
from field 24 to field 1 (home 0, bar 25). A double on offer ("was doubled" not 0) is, as GNU
Backgammon sends it, the player on roll's: the opponent must answer it. Neither side may double
and no double on offer also reads as a double on offer (GNU Backgammon does so).

The two scores are the exception to "yours first": GNU Backgammon writes and reads them, unlike
FIBS, the other way round while no double is on offer, the first being the score of the player
whose colour is not ``colour`` (its external player 0 on roll gets ``turn`` -1, colour 1 and its
own score first). With a double on offer the first is the score of the player of ``colour``.

The line becomes a :class:`~gammon.situation.Situation`, seen by the player on roll, and back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gammon.errors import InvalidNotationError, InvalidPositionError, cut
from gammon.position import Position
from gammon.rules import Rules
from gammon.situation import CubeOwner, Situation

PREFIX = "board:"
NUMBERS = 50
"""The whole numbers after the two names."""
MONEY_LENGTH = 9999
"""FIBS's match length of an unlimited match (money play); GNU Backgammon writes 0."""

# indexes into FibsBoard.numbers
_LENGTH, _SCORE, _OPP_SCORE, _BOARD, _TURN, _DICE, _OPP_DICE, _CUBE = 0, 1, 2, 3, 29, 30, 32, 34
_MAY_DOUBLE, _OPP_MAY_DOUBLE, _DOUBLED, _COLOUR, _DIRECTION = 35, 36, 37, 38, 39
_POST_CRAWFORD, _NOT_CRAWFORD = 48, 49

_NAME = re.compile(r"[A-Za-z0-9_]+")
_NUMBER = re.compile(r"[-+]?[0-9]{1,9}")


@dataclass(frozen=True)
class FibsBoard:
    """One board line: the two names and the 50 numbers, as written."""

    player: str
    opponent: str
    numbers: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.numbers) != NUMBERS:
            raise InvalidNotationError(f"a FIBS board has {NUMBERS} numbers, got {len(self.numbers)}")

    def __str__(self) -> str:
        return f"{PREFIX}{self.player}:{self.opponent}:" + ":".join(str(n) for n in self.numbers)

    @property
    def board(self) -> tuple[int, ...]:
        return self.numbers[_BOARD : _BOARD + 26]

    @property
    def dice(self) -> tuple[int, int] | None:
        """The roll to play (yours, else the opponent's), or None before the roll."""
        for start in (_DICE, _OPP_DICE):
            a, b = self.numbers[start], self.numbers[start + 1]
            if a and b:
                return (a, b)
        return None

    @property
    def double_offered(self) -> bool:
        n = self.numbers
        return bool(n[_DOUBLED]) or not (n[_MAY_DOUBLE] or n[_OPP_MAY_DOUBLE])

    def situation(self, *, jacoby: bool = True, beavers: bool = False) -> Situation:
        """The decision this line describes, seen by the player on roll (the doubler while a double
        waits for its answer), under the money rules ``jacoby`` and ``beavers`` (a line does not
        say them). Raises InvalidNotationError for a line that is no legal state."""
        n = self.numbers
        turn, colour, direction = n[_TURN], n[_COLOUR], n[_DIRECTION]
        if turn not in (1, -1) or colour not in (1, -1) or direction not in (1, -1):
            raise InvalidNotationError(f"turn, colour and direction must be 1 or -1 in {self._quoted()}")
        mine = turn == colour  # "you" are on roll
        own_direction = direction if mine else -direction
        fields = [turn * v for v in self.board]  # the player on roll's checkers positive
        if own_direction == -1:
            board = [-abs(fields[0])] + fields[1:25] + [abs(fields[25])]
        else:
            board = [-abs(fields[25])] + fields[24:0:-1] + [abs(fields[0])]
        length = 0 if n[_LENGTH] == MONEY_LENGTH else n[_LENGTH]
        offered = self.double_offered
        # the scores the way GNU Backgammon has them: "yours" first only while a double is on offer
        scores = (n[_SCORE], n[_OPP_SCORE]) if mine == offered else (n[_OPP_SCORE], n[_SCORE])
        may = (n[_MAY_DOUBLE], n[_OPP_MAY_DOUBLE]) if mine else (n[_OPP_MAY_DOUBLE], n[_MAY_DOUBLE])
        owner = (
            CubeOwner.CENTRED
            if bool(may[0]) == bool(may[1])
            else CubeOwner.MOVER
            if may[0]
            else CubeOwner.OPPONENT
        )
        crawford = bool(length) and length - 1 in scores and not (n[_POST_CRAWFORD] or n[_NOT_CRAWFORD])
        try:
            return Situation(
                Position(board),
                dice=None if offered else self.dice,
                cube_value=n[_CUBE],
                cube_owner=owner,
                double_offered=offered,
                score=scores,
                crawford_game=crawford,
                rules=Rules(match_length=length, jacoby=jacoby, beavers=beavers),
            )
        except (InvalidPositionError, ValueError) as e:
            raise InvalidNotationError(f"{self._quoted()} is no legal state: {e}") from None

    def _quoted(self) -> str:
        return repr(cut(str(self)))


def parse_fibs_board(text: str) -> FibsBoard:
    """Read a ``board:`` line (surrounding blanks and a trailing NUL, which GNU Backgammon sends
    after each line, are ignored)."""
    line = text.strip().strip("\0").strip()
    if not line.startswith(PREFIX):
        raise InvalidNotationError(f"a FIBS board line starts with {PREFIX!r}: {cut(line)!r}")
    parts = line[len(PREFIX) :].split(":")
    if len(parts) != NUMBERS + 2:
        raise InvalidNotationError(
            f"a FIBS board line has 2 names and {NUMBERS} numbers, got {len(parts)} fields: {cut(line)!r}"
        )
    # only what GNU Backgammon reads as a number: int() would also take '1_0', ' 5' and other digits
    if not all(_NUMBER.fullmatch(p) for p in parts[2:]):
        raise InvalidNotationError(f"a FIBS board has numbers after the names: {cut(line)!r}")
    return FibsBoard(parts[0], parts[1], tuple(int(p) for p in parts[2:]))


def fibs_name(name: str) -> str:
    """``name`` as a board line may carry it (GNU Backgammon reads letters, digits and ``_``)."""
    return "_".join(_NAME.findall(name)) or "player"


def fibs_board(situation: Situation, player: str = "gammon", opponent: str = "opponent") -> FibsBoard:
    """The line of ``situation``, "you" (``player``) being its player on roll, as GNU Backgammon
    reads it: colour 1, direction -1, the board fields gammon's board slots, the scores in GNU
    Backgammon's order (see above)."""
    s = situation
    position = s.position
    dice = s.dice or (0, 0)
    off, bar = position.off, position.bar
    match = s.match
    # the opponent's score first unless a double is on offer, as GNU Backgammon reads a line
    first, second = s.score if s.double_offered else s.score[::-1]
    numbers = (
        s.match_length,
        first,
        second,
        *position.board,
        1,
        *dice,
        *dice,
        s.cube_value,
        int(s.cube_owner is not CubeOwner.OPPONENT),
        int(s.cube_owner is not CubeOwner.MOVER),
        int(s.double_offered),
        1,
        -1,
        0,
        25,
        off[0],
        off[1],
        bar[0],
        bar[1],
        0,
        0,
        int(match is not None and match.post_crawford),
        int(not s.crawford_game),
    )
    return FibsBoard(fibs_name(player), fibs_name(opponent), numbers)


__all__ = ["MONEY_LENGTH", "NUMBERS", "PREFIX", "FibsBoard", "fibs_board", "fibs_name", "parse_fibs_board"]
