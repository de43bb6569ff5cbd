"""A finished (or running) game as frames to step through: the board after each action, and the
result."""

from __future__ import annotations

from gammon.game import Beaver, Double, Game, PlayMade, Take
from gammon.match import score_after
from gammon.position import Position
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
            text="Start",
            board=list(position.board),
            off=position.off,
            dice=None,
            mover=None,
            cube_value=cube,
            cube_owner=owner,
            score=score,
            crawford_game=crawford,
            position_id=position.id,
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
                cube_offered=isinstance(action, Double),
                position_id=(position if on_roll == viewer else position.flip()).id,
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
                }
            )
        )
    return frames
