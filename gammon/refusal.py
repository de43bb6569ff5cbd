"""Why an action is refused: one reason value from the core, which every front end words its own way.

:meth:`gammon.game.Game.why_not` and :meth:`gammon.match.Match.why_not` answer with a
:class:`Refused` (None: the action may be taken); the error that ``apply`` raises carries the same
value (``IllegalActionError.refused``). The core's own message for it (:meth:`Refused.words`) speaks
of "the other player", never of a name: the terminal (gammon.cli.words) and the web put it in their
players' words from the reason and its data, without deciding the rule again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from gammon.i18n import N_, tr
from gammon.rules import HIGHEST_CUBE


class Refusal(Enum):
    """The rule that refuses an action."""

    GAME_OVER = "game_over"                      # the game is over
    NOT_STARTED = "not_started"                  # the opening roll comes first
    DOUBLE_PENDING = "double_pending"            # a double waits for its answer
    RESIGNATION_PENDING = "resignation_pending"  # an offer to resign waits for its answer
    NO_DOUBLE = "no_double"                      # take, pass or beaver with no double offered
    NO_RESIGNATION = "no_resignation"            # accept or reject with no offer to resign
    DICE_NOT_ROLLED = "dice_not_rolled"          # a play before the roll
    DICE_ROLLED = "dice_rolled"                  # a roll or a double after the roll
    NOT_YOUR_TURN = "not_your_turn"              # the other player must act
    NOT_A_PLAYER = "not_a_player"                # a player is 0 or 1 (``detail``: the value given)
    PLAYER_NEEDED = "player_needed"              # abandon names the player who leaves
    NO_CUBE = "no_cube"                          # the rules play without the cube
    CRAWFORD_GAME = "crawford_game"              # no doubling in the Crawford game
    CUBE_OWNED = "cube_owned"                    # the opponent (``player``) owns the cube
    CUBE_LIMIT = "cube_limit"                    # the cube is at its limit (``limit``)
    BEAVER_MATCH_PLAY = "beaver_match_play"      # beavers are for money play only
    BEAVERS_OFF = "beavers_off"                  # the rules do not allow beavers
    BEAVER_LIMIT = "beaver_limit"                # a beaver would pass the cube limit (``limit``)
    NOTHING_TO_UNDO = "nothing_to_undo"          # no play to take back
    NOT_YOUR_PLAY = "not_your_play"              # only the player who made the play takes it back
    NOT_ON_ROLL = "not_on_roll"                  # only the player on roll may resign now
    BAD_RESIGNATION = "bad_resignation"          # a resignation is a WinKind (``detail``: the value)
    ILLEGAL_PLAY = "illegal_play"                # the play is not legal or not readable (``detail``)
    NOT_A_GAME_ACTION = "not_a_game_action"      # the request names no action of a game
    GAME_NOT_OVER = "game_not_over"              # a new game while the current one goes on
    MATCH_OVER = "match_over"                    # a new game once the match is won (``score``)


# The reasons that only say what the game waits for: the core's message is then the state of play.
PHASE_REFUSALS = frozenset({Refusal.GAME_OVER, Refusal.NOT_STARTED, Refusal.DOUBLE_PENDING,
                            Refusal.RESIGNATION_PENDING, Refusal.NO_DOUBLE, Refusal.NO_RESIGNATION,
                            Refusal.DICE_NOT_ROLLED, Refusal.DICE_ROLLED})


@dataclass(frozen=True)
class Refused:
    """A refusal and the data needed to word it."""

    refusal: Refusal
    player: int | None = None  # CUBE_OWNED: the cube's owner
    limit: int | None = None  # CUBE_LIMIT, BEAVER_LIMIT: the rules' highest cube (Rules.highest_cube)
    detail: str = ""  # NOT_A_PLAYER, BAD_RESIGNATION: the value given, as repr(); ILLEGAL_PLAY: why
    score: tuple[int, int] | None = None  # MATCH_OVER: the final score

    def words(self) -> str:
        """The core's words for the rule itself ("the other player owns the cube"); empty for
        the reasons that only say what the game waits for (:data:`PHASE_REFUSALS`)."""
        r = Refusal
        if self.refusal is r.ILLEGAL_PLAY:
            return self.detail
        if self.refusal is r.MATCH_OVER:
            if self.score:
                return tr("the match is over, {score}", score=f"{self.score[0]}-{self.score[1]}")
            return tr("the match is over")
        if self.refusal is r.CUBE_LIMIT and self.limit is not None:
            return cube_limit_words(self.limit)
        if self.refusal is r.BEAVER_LIMIT and self.limit is not None:
            return beaver_limit_words(self.limit)
        words = {
            r.NOT_A_PLAYER: N_("a player is 0 or 1, got {detail}"),
            r.NOT_YOUR_TURN: N_("it is the other player's turn"),
            r.PLAYER_NEEDED: N_("abandon needs the player who leaves"),
            r.NO_CUBE: N_("these rules play without the cube"),
            r.CRAWFORD_GAME: N_("there is no doubling in the Crawford game"),
            r.CUBE_OWNED: N_("the other player owns the cube"),
            r.BEAVER_MATCH_PLAY: N_("beavers are for money play only"),
            r.BEAVERS_OFF: N_("these rules do not allow beavers"),
            r.NOTHING_TO_UNDO: N_("there is no play to take back"),
            r.NOT_YOUR_PLAY: N_("only the player who made the play can take it back"),
            r.NOT_ON_ROLL: N_("only the player on roll can now"),
            r.BAD_RESIGNATION: N_("a resignation is a WinKind (1, 2 or 3), got {detail}"),
            r.NOT_A_GAME_ACTION: N_("{detail} is not a game action"),
            r.GAME_NOT_OVER: N_("the current game is not over"),
        }.get(self.refusal)
        return tr(words, detail=self.detail, limit=self.limit) if words else ""


def cube_limit_words(limit: int) -> str:
    """Why a cube at ``limit`` (:attr:`gammon.rules.Rules.highest_cube`) is not doubled."""
    if limit >= HIGHEST_CUBE:  # no limit of the rules' own: the player set none
        return tr("the cube is at {limit}, the highest cube of any game", limit=limit)
    return tr("the cube is at its limit of {limit}", limit=limit)


def beaver_limit_words(limit: int) -> str:
    """Why a double is not beavered: the beaver would take the cube past ``limit``."""
    if limit >= HIGHEST_CUBE:
        return tr("a beaver would take the cube past {limit}, the highest cube of any game", limit=limit)
    return tr("a beaver would pass the cube limit of {limit}", limit=limit)
