"""A finished (or running) game as frames to step through: the board after each action, and the
result."""

from __future__ import annotations

from gammon.formats.matchid import MatchState, format_gnubg_id
from gammon.game import Beaver, Double, Game, PlayMade, Take
from gammon.i18n import ptr
from gammon.match import score_after
from gammon.position import Position
from gammon.rules import HIGHEST_CUBE
from gammon.situation import CubeOwner, Situation
from gammon.web.schemas import Frame
from gammon.web.views import action_line, result_line


def game_frames(game: Game, viewer: int, names: tuple[str, str]) -> list[Frame]:
    """The start, then one frame per move and cube action, boards from ``viewer``'s side; a
    finished game ends on a frame of its result, with the score after it."""
    position = Position.initial()  # from viewer's side: the start is symmetric
    cube, owner = 1, None
    score, crawford = game.score, game.crawford_game
    frames = [
        Frame(
            # Translators: the first frame of a game's replay, before the opening roll (a noun)
            text=ptr("replay", "Start"),
            board=list(position.board),
            off=position.off,
            dice=None,
            mover=None,
            cube_value=cube,
            cube_owner=owner,
            score=score,
            crawford_game=crawford,
            position_id=position.id,
            gnubg_id=_gnubg_id(game, position, 0, (cube, owner), False),
        )
    ]
    for action in game.history:
        if isinstance(action, PlayMade):
            if action.play is not None:
                after = action.play.after  # from the side of the mover's opponent
                position = after if viewer != action.player else after.flip()
            dice = action.dice
        elif isinstance(action, Double | Take | Beaver):
            if isinstance(action, Double):
                cube = action.cube_value
            else:
                owner = action.player
                cube = action.cube_value if isinstance(action, Beaver) else cube
            dice = None
        else:
            continue
        # The ID is seen from the player to act next, as a game's Position ID is: the roller after
        # a move or an answered double, the doubler while its double waits.
        on_roll = action.player if isinstance(action, Double) else 1 - action.player
        seen = position if on_roll == viewer else position.flip()
        offered = isinstance(action, Double)
        frames.append(
            Frame(
                text=action_line(action, names) or "",
                board=list(position.board),
                off=position.off,
                dice=dice,
                mover=action.player,
                cube_value=cube,
                cube_owner=owner,
                score=score,
                crawford_game=crawford,
                cube_offered=offered,
                position_id=seen.id,
                gnubg_id=_gnubg_id(game, seen, on_roll, (cube // 2 if offered else cube, owner), offered),
            )
        )
    if game.result is not None:
        frames.append(
            frames[-1].model_copy(
                update={
                    "text": result_line(game, names),
                    "dice": None,
                    "mover": game.result.winner,
                    "score": score_after(game),
                    "cube_offered": False,
                    "gnubg_id": "",
                }
            )
        )
    return frames


def _gnubg_id(
    game: Game, position: Position, on_roll: int, cube: tuple[int, int | None], offered: bool
) -> str:
    """The frame's ``PositionID:MatchID``: ``position`` from ``on_roll``'s side, before its roll;
    ``cube`` the value and owner as they stand (an offered double not yet turned); '' for a board
    no game can go on from (the last checker borne off) or that no Match ID holds (a cube past
    the highest, in a game stored before the cube stopped there)."""
    value, owner = cube
    if max(position.off) == 15 or value > HIGHEST_CUBE:
        return ""
    score = game.score if on_roll == 0 else (game.score[1], game.score[0])
    situation = Situation(
        position,
        cube_value=value,
        cube_owner=CubeOwner.seen_by(owner, on_roll),
        double_offered=offered,
        score=score,
        crawford_game=game.crawford_game,
        rules=game.rules,
    )
    return format_gnubg_id(position, MatchState.from_situation(situation, on_roll))
