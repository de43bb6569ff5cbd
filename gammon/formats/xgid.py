"""XGID, eXtreme Gammon's position ID: ``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``.

Fields after the 26-character board: cube (log2), cube owner (1 bottom, -1 top, 0 centred), player
on roll (1 bottom, -1 top), dice (``00`` to roll or double, two digits rolled, ``D`` doubled, ``B``
beavered, ``R`` raccooned: the other player must answer), bottom's score, top's score, Crawford
(match play) or Jacoby + 2 x beavers (money), match length (0 money) and the highest cube (log2):
the rules' ``cube_limit`` of :attr:`XGID.situation` (``10``, XG's usual 1024, is none, and none is
written so, or ``15`` when the cube is above 1024: the cube goes no higher; ``0``, a cube that never
turns, is a game without the cube). A cube (on offer) above the highest cube is refused.

The board is always drawn from the bottom player's view: character 0 is the top player's bar,
1-24 the points, 25 the bottom player's bar; ``A``-``O`` count bottom checkers, ``a``-``o`` top
ones. Players are numbered as GNU Backgammon does when it reads an XGID: the bottom player is
player 1, the top player player 0. :class:`XGID` holds the position from the view of the player
on roll, as every Position in gammon.

Where gammon and GNU Backgammon's ``set xgid`` read an XGID differently (each case is tested
against gnubg in ``tests/formats/test_xgid.py``):

- Top player on roll: gnubg swaps the players so that the player on roll is at the bottom (player
  1); gammon keeps the numbering of the text, so that players keep their names and scores.
- A pending double (``D``, ``B``, ``R``): gnubg steps back to before the double; gammon keeps it
  (``cube_action``, and ``double_offered`` in :meth:`XGID.to_match_state`), so the taker's
  decision can be analysed.
- A Crawford game with the cube turned or offered is refused: gnubg reads it as an impossible
  state (a 1-cube with an owner).

The Crawford flag is kept as written (the text round trip is exact), and counts as gnubg reads
it, in an XGID as in a Match ID (:func:`~gammon.situation.crawford_counts`): with a side
1-away, double match point included, never in a 1-point match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from gammon.errors import InvalidArgumentError, InvalidNotationError, InvalidPositionError, cut
from gammon.formats.matchid import MAX_SCORE, GameState, MatchState, match_state
from gammon.i18n import tr
from gammon.match import Match
from gammon.position import Position
from gammon.rules import HIGHEST_CUBE, Rules
from gammon.situation import Situation, crawford_counts

if TYPE_CHECKING:
    from gammon.game import Game

_BOTTOM, _TOP = 1, 0
_CUBE_ACTIONS = {"D": "double", "B": "beaver", "R": "raccoon"}
_FIELD = re.compile(r"-?\d{1,5}\Z")
_LONG_FIELD = re.compile(r"-?\d{6,}\Z")  # past any field's range (a score's 32767)
_MAX_CUBE_LOG = HIGHEST_CUBE.bit_length() - 1  # the cube goes up to 32768, 2 to the 15th
NO_CUBE_LIMIT = 1024
"""XG's usual highest cube (``:10``): read as no limit, and written for none."""


@dataclass(frozen=True)
class XGID:
    """An XGID's fields. ``position`` is seen from ``player_on_roll`` (1 bottom, 0 top), who has
    rolled ``dice`` or, when ``cube_action`` is set, has just doubled ("double"), or beavered
    ("beaver") / raccooned ("raccoon") the opponent's double, and waits for the answer."""

    position: Position
    player_on_roll: int = _BOTTOM
    cube_value: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] | None = None
    cube_action: str | None = None
    score: tuple[int, int] = (0, 0)  # (player 0 = top, player 1 = bottom)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 1024  # NO_CUBE_LIMIT

    def __post_init__(self) -> None:
        problems = []
        if not isinstance(self.position, Position):
            problems.append(f"position {self.position!r} is not a Position")
        if self.player_on_roll not in (0, 1):
            problems.append(f"player on roll {self.player_on_roll!r} is not 0 (top) or 1 (bottom)")
        for name in ("cube_value", "max_cube"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 1 or v & (v - 1) or v > 1 << 30:
                # the position editor's cube: read in the browser
                problems.append(tr("cube value {value} is not a power of two", value=cut(repr(v)))
                                if name == "cube_value"
                                else tr("highest cube {value} is not a power of two", value=cut(repr(v))))
        if self.cube_owner not in (None, 0, 1):
            problems.append(f"cube owner {self.cube_owner!r} is not 0, 1 or None (centred)")
        if self.dice is not None and (len(self.dice) != 2 or not all(
                isinstance(d, int) and 1 <= d <= 6 for d in self.dice)):
            problems.append(tr("dice {dice} are not two numbers 1-6", dice=cut(repr(self.dice))))
        if self.cube_action not in (None, *_CUBE_ACTIONS.values()):
            problems.append(f"cube action {self.cube_action!r} is not double, beaver or raccoon")
        if self.cube_action and self.dice:
            problems.append(tr("a position cannot have both dice rolled and a cube action"))
        if self.cube_action and self.cube_owner is not None and self.cube_owner != self.player_on_roll:
            # the player on roll has doubled (or beavered): the cube was centred or its own
            problems.append(tr("the player on roll offers the cube, but the opponent owns it"))
        if isinstance(self.cube_value, int) and isinstance(self.max_cube, int):
            offered = self.cube_value * (2 if self.cube_action else 1)
            if offered > self.max_cube:
                problems.append(tr("the cube at {value} is above the highest cube {highest}", value=offered,
                                   highest=self.max_cube))
        if not isinstance(self.match_length, int) or self.match_length < 0:
            problems.append(f"match length {self.match_length!r} is not >= 0")
        if len(self.score) != 2 or not all(isinstance(s, int) and s >= 0 for s in self.score):
            problems.append(tr("score {score} is not two numbers >= 0", score=cut(repr(self.score))))
        if self.match_length and (self.jacoby or self.beavers):
            problems.append(tr("Jacoby and beavers are money-play options"))
        if not self.match_length and self.crawford:
            problems.append(tr("a money game has no Crawford game"))
        if self.is_crawford_game:
            problem = crawford_cube_problem(self.cube_value, self.cube_owner is not None,
                                            self.cube_action is not None)
            if problem:
                problems.append(problem)
        if problems:
            raise InvalidArgumentError(tr("invalid XGID: {problems}", problems="; ".join(problems)))

    @property
    def is_crawford_game(self) -> bool:
        """The Crawford flag where it counts (:func:`~gammon.situation.crawford_counts`)."""
        return crawford_counts(self.crawford, self.match_length, self.score)

    # --- text --------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> XGID:
        """Read an XGID, with or without the ``XGID=`` prefix (the highest cube may be left out)."""
        if not isinstance(text, str):
            raise InvalidNotationError(tr("an XGID must be a string, not {text}", text=cut(repr(text))))
        body = text.strip()
        quoted = repr(cut(text))
        if body[:5].upper() == "XGID=":
            body = body[5:]
        fields = body.split(":")
        if len(fields) not in (9, 10):
            raise InvalidNotationError(
                tr("XGID {text} must have 10 fields separated by ':', got {n}", text=quoted, n=len(fields)))
        no_limit = len(fields) == 9
        if no_limit:
            fields.append("10")
        board, cube, owner, turn, dice_text, *rest = fields
        numbers = (cube, owner, turn, *rest)
        bad = [f for f in numbers if not _FIELD.match(f)]
        if bad and _LONG_FIELD.match(bad[0]):  # a number all the same: say what is wrong with it
            raise InvalidNotationError(
                tr("XGID {text}: field {field} is out of range (the fields go from -1 to {most})",
                   text=quoted, field=repr(cut(bad[0])), most=MAX_SCORE))
        if bad:
            raise InvalidNotationError(
                tr("XGID {text}: field {field} is not a number", text=quoted, field=repr(cut(bad[0]))))
        cube_log, owner_n, turn_n, score_bottom, score_top, rules_n, length, max_log = (
            int(f) for f in numbers)
        if not 0 <= cube_log <= 30 or not 0 <= max_log <= 30:
            raise InvalidNotationError(
                tr("XGID {text}: cube {cube} or highest cube {highest} is not 0-30", text=quoted, cube=cube,
                   highest=max_log))
        if cube_log > _MAX_CUBE_LOG:  # a Match ID holds it in 4 bits
            raise InvalidNotationError(
                tr("XGID {text}: cube {cube} is more than 15: the cube goes up to 32768 (2 to the 15th)",
                   text=quoted, cube=cube))
        if owner_n not in (-1, 0, 1) or turn_n not in (-1, 1):
            raise InvalidNotationError(
                tr("XGID {text}: cube owner {owner} must be -1, 0 or 1 and player on roll {turn} 1 or -1",
                   text=quoted, owner=owner, turn=turn))
        if not all(0 <= n <= MAX_SCORE for n in (score_bottom, score_top, length)):  # a Match ID's 15 bits
            raise InvalidNotationError(
                tr("XGID {text}: scores and match length must be 0-{most}", text=quoted, most=MAX_SCORE))
        if not 0 <= rules_n <= (1 if length else 3):
            raise InvalidNotationError(tr("XGID {text}: rules field {rules} is out of range", text=quoted,
                                          rules=rules_n))
        dice: tuple[int, int] | None = None
        action = None
        if dice_text in _CUBE_ACTIONS:
            action = _CUBE_ACTIONS[dice_text]
        elif re.fullmatch(r"[1-6]{2}", dice_text):
            dice = (int(dice_text[0]), int(dice_text[1]))
        elif dice_text != "00":
            raise InvalidNotationError(
                tr("XGID {text}: dice {dice} must be '00', two digits 1-6, 'D', 'B' or 'R'", text=quoted,
                   dice=repr(cut(dice_text))))
        if no_limit and cube_log + bool(action) > 10:  # XG's usual 1024 would be below the cube
            max_log = _MAX_CUBE_LOG
        on_roll = _BOTTOM if turn_n == 1 else _TOP
        bottom_view = _parse_board(board, text)
        try:
            return cls(
                position=bottom_view if on_roll == _BOTTOM else bottom_view.flip(),
                player_on_roll=on_roll, cube_value=1 << cube_log,
                cube_owner={0: None, 1: _BOTTOM, -1: _TOP}[owner_n], dice=dice, cube_action=action,
                score=(score_top, score_bottom), match_length=length,
                crawford=bool(length) and rules_n == 1, jacoby=not length and bool(rules_n & 1),
                beavers=not length and bool(rules_n & 2), max_cube=1 << max_log)
        except ValueError as e:
            raise InvalidNotationError(tr("XGID {text} is not valid: {problem}",
                                          text=quoted, problem=e)) from None

    def __str__(self) -> str:
        bottom_view = self.position if self.player_on_roll == _BOTTOM else self.position.flip()
        b = bottom_view.board
        chars = []
        for slot in range(26):
            n = b[slot]
            chars.append("-" if n == 0 else chr(ord("A" if n > 0 else "a") + abs(n) - 1))
        if self.cube_action:
            dice = {v: k for k, v in _CUBE_ACTIONS.items()}[self.cube_action]
        else:
            dice = f"{self.dice[0]}{self.dice[1]}" if self.dice else "00"
        owner = {None: 0, _BOTTOM: 1, _TOP: -1}[self.cube_owner]
        if self.match_length:
            rules = int(self.crawford)
        else:
            rules = int(self.jacoby) + 2 * int(self.beavers)
        fields = ("".join(chars), self.cube_value.bit_length() - 1, owner,
                  1 if self.player_on_roll == _BOTTOM else -1, dice, self.score[_BOTTOM],
                  self.score[_TOP], rules, self.match_length, self.max_cube.bit_length() - 1)
        return "XGID=" + ":".join(str(f) for f in fields)

    def __repr__(self) -> str:
        return f"XGID.parse({str(self)!r})"

    # --- conversion to the GNU Backgammon ID --------------------------------------------------

    def to_match_state(self) -> MatchState:
        """The same state as a Match ID, as GNU Backgammon's ``set xgid`` reads it (beavers and
        raccoons are shown as a plain double offered)."""
        doubled = self.cube_action is not None
        return MatchState(
            match_length=self.match_length, score=self.score, cube_value=self.cube_value,
            cube_owner=self.cube_owner, player_on_roll=self.player_on_roll,
            turn=1 - self.player_on_roll if doubled else self.player_on_roll,
            crawford=self.is_crawford_game, game_state=GameState.PLAYING, double_offered=doubled,
            dice=self.dice, jacoby=self.jacoby)

    @classmethod
    def from_match_state(cls, position: Position, state: MatchState, max_cube: int = 1024) -> XGID:
        """An XGID for ``position`` (seen from ``state.player_on_roll``) and a Match State."""
        max_cube = highest_cube_written(max_cube, state.cube_value * (2 if state.double_offered else 1))
        return cls(position=position, player_on_roll=state.player_on_roll,
                   cube_value=state.cube_value, cube_owner=state.cube_owner, dice=state.dice,
                   cube_action="double" if state.double_offered else None, score=state.score,
                   match_length=state.match_length, crawford=state.crawford,
                   jacoby=state.jacoby and not state.match_length, max_cube=max_cube)

    @property
    def situation(self) -> Situation:
        """The Situation this XGID describes (a beaver or raccoon on offer reads as a double on
        offer, as in :meth:`to_match_state`), the highest cube its rules' ``cube_limit`` (XG's
        usual 1024 is read as none, as gammon writes none so, and so is the cube's ceiling, 32768,
        which gammon writes for none once the cube is above 1024; 1, no doubling, as
        ``use_cube=False``); ValueError when the score has won the match."""
        situation = self.to_match_state().to_situation(self.position, beavers=self.beavers)
        if self.max_cube in (NO_CUBE_LIMIT, HIGHEST_CUBE):  # a limit at the ceiling is none
            return situation
        limit = {"cube_limit": self.max_cube} if self.max_cube > 1 else {"use_cube": False}
        return situation.replace(rules=replace(situation.rules, **limit))

    @classmethod
    def from_situation(cls, situation: Situation, player_on_roll: int = _BOTTOM) -> XGID:
        """The XGID of a Situation, its player on roll numbered ``player_on_roll`` (by default the
        bottom player, 1). ValueError for a resignation on offer, which an XGID cannot hold."""
        _refuse_resignation(situation.resignation)
        rules = situation.rules
        state = MatchState.from_situation(situation, player_on_roll)
        xgid = cls.from_match_state(situation.position, state, max_cube=max_cube_of(rules))
        return xgid.replace(beavers=True) if situation.beavers else xgid

    @classmethod
    def from_game(cls, game: Game | Match) -> XGID:
        """The XGID of a Game (or a Match's current game), players numbered as in the game:
        player 1 is drawn at the bottom. ValueError while a resignation is on offer."""
        state = match_state(game)
        _refuse_resignation(state.resignation)
        g = game.game if isinstance(game, Match) else game
        xgid = cls.from_match_state(g.position_for(state.player_on_roll), state,
                                    max_cube=max_cube_of(g.rules))
        if g.rules.is_money and g.rules.beavers:
            xgid = xgid.replace(beavers=True)
        return xgid

    def replace(self, **changes: Any) -> XGID:
        return replace(self, **changes)


def _refuse_resignation(resignation: int | None) -> None:
    # XG's ID has no field for an offer to resign: written without it, it would be another state
    if resignation is not None:
        raise ValueError(tr("an XGID cannot hold a resignation on offer (a GNU Backgammon ID can)"))


def max_cube_of(rules: Rules) -> int:
    """The XGID's highest cube of ``rules``: its cube limit, 1 without the cube, else XG's 1024."""
    return 1 if not rules.use_cube else rules.cube_limit or NO_CUBE_LIMIT


def highest_cube_written(max_cube: int, offered: int) -> int:
    """The highest cube an XGID with the cube at ``offered`` (on offer) is written with: no limit
    (XG's usual 1024) is written as the cube's ceiling, 32768, when the cube is above 1024."""
    return HIGHEST_CUBE if max_cube == NO_CUBE_LIMIT and offered > NO_CUBE_LIMIT else max_cube


def crawford_cube_problem(cube_value: int, owned: bool, offered: bool) -> str | None:
    """Why the cube of a Crawford game is wrong (offered, turned, or owned), or None: the game is
    played without the cube, which stays 1 and centred."""
    if offered:
        return tr("the Crawford game is played without the cube, but the cube is offered")
    if cube_value == 1 and not owned:
        return None
    if not owned:
        return tr("the Crawford game is played without the cube, but the cube is at {value}",
                  value=cube_value)
    return tr("the Crawford game is played without the cube, but the cube is at {value} and owned",
              value=cube_value)


def parse_xgid(text: str) -> XGID:
    """Read an XGID (see :class:`XGID`)."""
    return XGID.parse(text)


def read_xgid(text: str) -> Situation:
    """The Situation an XGID describes (with or without ``XGID=``)."""
    xgid = XGID.parse(text)
    try:
        return xgid.situation
    except ValueError as e:
        raise InvalidNotationError(tr("XGID {text}: {problem}", text=repr(cut(text)), problem=e)) from None


def format_xgid(xgid: XGID) -> str:
    return str(xgid)


def _parse_board(board: str, text: str) -> Position:
    if len(board) != 26 or not re.fullmatch(r"[-A-Pa-p]{26}", board):
        raise InvalidNotationError(
            tr("XGID {text}: the board {board} must be 26 characters of '-', A-P and a-p",
               text=repr(cut(text)),
               board=repr(cut(board))))
    cells = [0 if c == "-" else (ord(c) - 64 if c.isupper() else -(ord(c) - 96)) for c in board]
    if cells[0] > 0 or cells[25] < 0:
        raise InvalidNotationError(
            tr("XGID {text}: the top player's bar (first character) must be lowercase and the bottom "
               "player's bar (last) uppercase", text=repr(cut(text))))
    try:
        return Position(cells)
    except InvalidPositionError as e:
        raise InvalidNotationError(
            tr("XGID {text} is not a valid position: {problem}", text=repr(cut(text)), problem=e)
        ) from None
