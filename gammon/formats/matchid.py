"""GNU Backgammon Match ID: the match and game state in 12 characters of base64.

The 66-bit key (little-endian bit order, as gnubg's ``matchid.c``): cube (log2, 4 bits), cube owner
(2: 0, 1 or 3 = centred), player on roll (1), Crawford game (1), game state (3), player to decide
(1), double offered (1), resignation offered (2), dice (3 + 3, the higher die first), match length
(15), player 0's score (15), player 1's score (15) and one bit that is set when the Jacoby rule is
off. Paired with a Position ID (``Position.id``, from the view of the player on roll) it describes a
whole match state: the "GNU Backgammon ID" ``4HPwATDgc/ABMA:cAkAAAAAAAAA``.
"""

from __future__ import annotations

import base64
import enum
import re
from dataclasses import dataclass
from typing import Any

from gammon.dice import DiceSource
from gammon.errors import InvalidNotationError, cut
from gammon.game import Game
from gammon.i18n import tr
from gammon.match import Match
from gammon.position import Position
from gammon.rules import Rules, WinKind
from gammon.situation import CubeOwner, Situation, crawford_counts

MAX_SCORE = (1 << 15) - 1
_CENTRED = 3


class GameState(enum.IntEnum):
    """gnubg's game state, bits 9-11 of the Match ID."""

    NONE = 0  # no game started
    PLAYING = 1
    OVER = 2  # borne off
    RESIGNED = 3  # ended by an accepted resignation
    DROPPED = 4  # ended by a dropped cube


# (name, first bit, width) in key order
_FIELDS = (
    ("cube_log", 0, 4), ("cube_owner", 4, 2), ("player_on_roll", 6, 1), ("crawford", 7, 1),
    ("game_state", 8, 3), ("turn", 11, 1), ("double_offered", 12, 1), ("resignation", 13, 2),
    ("die1", 15, 3), ("die2", 18, 3), ("match_length", 21, 15), ("score0", 36, 15),
    ("score1", 51, 15), ("no_jacoby", 66, 1),
)
_KEY_BITS = 67
_BASE64 = re.compile(r"[A-Za-z0-9+/]{12}")


@dataclass(frozen=True)
class MatchState:
    """Every field of a Match ID. Players are 0 and 1 (gnubg's player 0 and player 1).

    ``player_on_roll`` rolls (or rolled) the dice, ``turn`` must act now: they differ while a
    double or a resignation waits for the opponent's answer. ``resignation`` is what the player
    not to act offers to give up (1 single, 2 gammon, 3 backgammon) or ``None``: as GNU Backgammon,
    the player on roll's offer when ``turn`` differs, else its opponent's (before the roll, or
    instead of answering the double still marked offered).
    """

    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    turn: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    double_offered: bool = False
    resignation: int | None = None
    dice: tuple[int, int] | None = None
    jacoby: bool = True

    def __post_init__(self) -> None:
        problems = []
        if not _is_int(self.match_length) or not 0 <= self.match_length <= MAX_SCORE:
            # a match file's length (gammon analyse, the browser's upload): read by its user
            problems.append(tr("match length {length} is not 0-{most}", length=cut(repr(self.match_length)),
                               most=MAX_SCORE))
        if (not isinstance(self.score, tuple) or len(self.score) != 2
                or not all(_is_int(s) and 0 <= s <= MAX_SCORE for s in self.score)):
            problems.append(f"score {self.score!r} is not two numbers 0-{MAX_SCORE}")
        if not _is_int(self.cube_value) or self.cube_value < 1 or self.cube_value > 1 << 15 \
                or self.cube_value & (self.cube_value - 1):
            problems.append(f"cube value {self.cube_value!r} is not a power of two up to 32768")
        if self.cube_owner not in (None, 0, 1):
            problems.append(f"cube owner {self.cube_owner!r} is not 0, 1 or None (centred)")
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                problems.append(f"{name} {getattr(self, name)!r} is not player 0 or 1")
        if self.resignation not in (None, 1, 2, 3):
            problems.append(f"resignation {self.resignation!r} is not 1, 2, 3 or None")
        if self.dice is not None and (not isinstance(self.dice, tuple) or len(self.dice) != 2
                                      or not all(_is_int(d) and 1 <= d <= 6 for d in self.dice)):
            problems.append(f"dice {self.dice!r} are not two numbers 1-6 or None")
        if self.crawford and self.match_length == 0:
            problems.append(tr("a money session has no Crawford game"))
        if problems:
            raise ValueError(tr("invalid MatchState: {problems}", problems="; ".join(problems)))
        object.__setattr__(self, "game_state", GameState(self.game_state))

    # --- Match ID ----------------------------------------------------------------------------

    @classmethod
    def from_id(cls, text: str) -> MatchState:
        """Read a Match ID such as ``cAkAAAAAAAAA``."""
        if not isinstance(text, str):
            raise InvalidNotationError(tr("a Match ID must be a string, not {text}", text=cut(repr(text))))
        stripped = text.strip()
        quoted = repr(cut(text))
        if len(stripped) != 12:
            raise InvalidNotationError(tr("Match ID {text} must have 12 characters", text=quoted))
        if not _BASE64.fullmatch(stripped):  # '=' padding too: 12 characters are 9 bytes, never padded
            raise InvalidNotationError(tr("Match ID {text} is not valid base64", text=quoted))
        raw = base64.b64decode(stripped)
        key = int.from_bytes(raw, "little")
        if key >> _KEY_BITS:
            raise InvalidNotationError(tr("Match ID {text} has bits set after the last field", text=quoted))
        f = {name: key >> first & ((1 << width) - 1) for name, first, width in _FIELDS}
        if f["cube_owner"] == 2:
            raise InvalidNotationError(tr("Match ID {text} has cube owner 2 (not 0, 1 or centred)",
                                          text=quoted))
        if f["game_state"] > GameState.DROPPED:
            raise InvalidNotationError(
                tr("Match ID {text} has unknown game state {state}", text=quoted, state=f["game_state"])
            )
        dice_bits = (f["die1"], f["die2"])
        if dice_bits == (0, 0):
            dice = None
        elif all(1 <= d <= 6 for d in dice_bits):
            dice = (max(dice_bits), min(dice_bits))
        else:
            raise InvalidNotationError(tr("Match ID {text} has impossible dice {dice}",
                                          text=quoted, dice=dice_bits))
        try:
            return cls(
                match_length=f["match_length"], score=(f["score0"], f["score1"]),
                cube_value=1 << f["cube_log"],
                cube_owner=None if f["cube_owner"] == _CENTRED else f["cube_owner"],
                player_on_roll=f["player_on_roll"], turn=f["turn"], crawford=bool(f["crawford"]),
                game_state=GameState(f["game_state"]), double_offered=bool(f["double_offered"]),
                resignation=f["resignation"] or None, dice=dice, jacoby=not f["no_jacoby"])
        except ValueError as e:
            raise InvalidNotationError(
                tr("Match ID {text} is not a valid match state: {problem}", text=quoted, problem=e)
            ) from None

    @property
    def id(self) -> str:
        """The Match ID (12 characters)."""
        d1, d2 = sorted(self.dice, reverse=True) if self.dice else (0, 0)
        values = {
            "cube_log": self.cube_value.bit_length() - 1,
            "cube_owner": _CENTRED if self.cube_owner is None else self.cube_owner,
            "player_on_roll": self.player_on_roll, "crawford": int(self.crawford),
            "game_state": int(self.game_state), "turn": self.turn,
            "double_offered": int(self.double_offered), "resignation": self.resignation or 0,
            "die1": d1, "die2": d2, "match_length": self.match_length,
            "score0": self.score[0], "score1": self.score[1], "no_jacoby": int(not self.jacoby),
        }
        key = 0
        for name, first, _width in _FIELDS:
            key |= values[name] << first
        return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")

    def __repr__(self) -> str:
        return f"MatchState.from_id({self.id!r})"

    # --- Situation -----------------------------------------------------------------------------

    def to_situation(self, position: Position, beavers: bool = False) -> Situation:
        """The Situation of a game in play, ``position`` seen from ``player_on_roll``. As GNU
        Backgammon, the Crawford flag counts only with a side 1 away (:func:`crawford_counts`); a
        match ignores the Jacoby bit. ValueError for a game not in play (over) or a score that has
        won the match."""
        if self.game_state not in (GameState.NONE, GameState.PLAYING):
            raise ValueError(tr("the game is over ({state}): nothing is decided",
                                state=self.game_state.name.lower()))
        me = self.player_on_roll
        score = (self.score[me], self.score[1 - me])
        length = self.match_length
        money = length == 0
        crawford = crawford_counts(self.crawford, length, self.score)
        rules = Rules(jacoby=self.jacoby, beavers=beavers) if money else Rules(match_length=length)
        return Situation(position, dice=self.dice, cube_value=self.cube_value,
                         cube_owner=CubeOwner.seen_by(self.cube_owner, me),
                         double_offered=self.double_offered,
                         resignation=WinKind(self.resignation) if self.resignation else None,
                         score=score, crawford_game=crawford, rules=rules,
                         opponent_resigns=bool(self.resignation) and self.turn == me)

    @classmethod
    def from_situation(cls, situation: Situation, player_on_roll: int = 0) -> MatchState:
        """The Match State of ``situation`` with its player on roll numbered ``player_on_roll``: the
        one writer of a Situation's Match ID. The Crawford flag is written only where it counts
        (:func:`crawford_counts`), so that the ID reads back as the situation it was written from."""
        s, me = situation, player_on_roll
        score = s.score if me == 0 else (s.score[1], s.score[0])
        owner = {CubeOwner.CENTRED: None, CubeOwner.MOVER: me, CubeOwner.OPPONENT: 1 - me}[s.cube_owner]
        return cls(match_length=s.match_length, score=score, cube_value=s.cube_value, cube_owner=owner,
                   player_on_roll=me, turn=1 - me if s.is_answer_pending and not s.opponent_resigns else me,
                   crawford=crawford_counts(s.crawford_game, s.match_length, s.score),
                   game_state=GameState.PLAYING,
                   double_offered=s.double_offered,
                   resignation=int(s.resignation) if s.resignation is not None else None,
                   dice=s.dice, jacoby=s.jacoby)


def parse_gnubg_id(text: str) -> tuple[Position, MatchState]:
    """Read a GNU Backgammon ID ``PositionID:MatchID``; the position is from the view of
    ``player_on_roll``."""
    ids = _gnubg_id_parts(text) if isinstance(text, str) else None
    if ids is None and isinstance(text, str) and text.count(":") == 1:  # the ID that is wrong says why
        position_id, match_id = text.strip().split(":")
        ids = position_id, match_id
    if ids is None:
        raise InvalidNotationError(
            tr("a GNU Backgammon ID is 'PositionID:MatchID' (e.g. '4HPwATDgc/ABMA:cAkAAAAAAAAA'), got {text}",
               text=repr(cut(text)) if isinstance(text, str) else cut(repr(text)))
        )
    return Position.from_id(ids[0]), MatchState.from_id(ids[1])


# the words of gnubg's board ("GNU Backgammon  Position ID: ...", "Match ID   : ...")
_ID_LABELS = frozenset({"gnu", "backgammon", "position", "match", "id"})


def _gnubg_id_parts(text: str) -> tuple[str, str] | None:
    """The Position ID and the Match ID of ``text``, as gnubg's ``set gnubgid`` finds them: the
    two IDs told apart by their lengths (14 and 12), in either order, split by a colon or spaces,
    and the labels of gnubg's board allowed around them, so that its two lines paste as they are.
    None for anything else (one ID, a third word)."""
    words = [w for w in re.split(r"[\s:]+", text.strip()) if w and w.lower() not in _ID_LABELS]
    if text.count(":") > 3 or len(words) != 2 or {len(w) for w in words} != {12, 14}:
        return None
    position_id, match_id = sorted(words, key=len, reverse=True)
    return position_id, match_id


def read_gnubg_id(text: str) -> Situation:
    """The Situation a GNU Backgammon ID ``PositionID:MatchID`` describes (a game in play)."""
    position, state = parse_gnubg_id(text)
    try:
        return state.to_situation(position)
    except ValueError as e:
        raise InvalidNotationError(tr("GNU Backgammon ID {text}: {problem}",
                                      text=repr(cut(text)), problem=e)) from None


def format_gnubg_id(position: Position, state: MatchState) -> str:
    """``PositionID:MatchID``; ``position`` must be from the view of ``state.player_on_roll``."""
    return f"{position.id}:{state.id}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- Game ------------------------------------------------------------------------------------

_ENDINGS = {"bear_off": GameState.OVER, "pass": GameState.DROPPED, "resign": GameState.RESIGNED,
            "abandon": GameState.RESIGNED}


def match_state(game: Game | Match) -> MatchState:
    """The Match State of a Game (or of a Match's current game), as gnubg would show it.

    The player on roll is the one whose turn it is to roll or play, or who doubled or offered to
    resign while the opponent must answer (``turn``), as :meth:`Game.situation` sees it (the
    opponent may resign too); before the opening roll it is player 0, once the game is over the
    winner, and the score then includes the game's points."""
    if isinstance(game, Match):
        game = game.game
    rules = game.rules
    turn = game.turn
    score = game.score
    result = game.result
    double_offered, dice = False, None
    if result is not None:
        on_roll = turn = result.winner
        state = _ENDINGS[result.reason]
        won = list(score)
        won[result.winner] += result.points
        score = (won[0], won[1])
    elif turn is None:  # before the opening roll
        on_roll = turn = 0
        state = GameState.NONE
    else:
        situation = game.situation()
        waiting = situation.is_answer_pending and not situation.opponent_resigns
        on_roll = 1 - turn if waiting else turn
        double_offered = situation.double_offered  # still offered while the taker's resignation waits
        # kept while a resignation after the roll waits, as GNU Backgammon keeps them (in the order thrown)
        dice = game.dice if situation.dice is not None else None
        state = GameState.PLAYING
    return MatchState(
        match_length=rules.match_length, score=score, cube_value=game.cube_value,
        cube_owner=game.cube_owner, player_on_roll=on_roll, turn=turn,
        crawford=game.crawford_game, game_state=state,
        double_offered=double_offered,
        resignation=int(game.offered_resignation) if game.offered_resignation is not None else None,
        dice=dice,
        jacoby=rules.jacoby if rules.is_money else False)


def match_id(game: Game | Match) -> str:
    """The Match ID of a Game or of a Match's current game."""
    return match_state(game).id


def gnubg_id(game: Game | Match | Situation) -> str:
    """``PositionID:MatchID`` of a Situation (its player on roll numbered 0), a Game or a Match's
    current game."""
    if isinstance(game, Situation):
        return format_gnubg_id(game.position, MatchState.from_situation(game))
    state = match_state(game)
    g = game.game if isinstance(game, Match) else game
    return format_gnubg_id(g.position_for(state.player_on_roll), state)


def new_game(state: MatchState, dice: DiceSource | None = None) -> Game:
    """A Game at the start of the game a Match State describes (its match length, score,
    Crawford flag and Jacoby rule). Raises ValueError for a state in the middle of a game: a Game
    is built by its actions, so only a fresh one can be set up from an ID."""
    if state.game_state is not GameState.NONE or state.cube_value != 1 or state.cube_owner is not None:
        raise ValueError(f"only a game not yet started (game state NONE, cube 1 centred) can be set "
                         f"up from a Match ID, got {state.id!r}")
    rules = Rules(match_length=state.match_length, jacoby=state.jacoby or bool(state.match_length))
    # the Crawford bit counts only where a side is 1-away, as in to_situation (GNU Backgammon's reading)
    crawford = crawford_counts(state.crawford, state.match_length, state.score)
    return Game(rules, dice, state.score, crawford_game=crawford)
