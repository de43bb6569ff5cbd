"""A player's marked decision (the profile's worst, a drill's card) as the pages draw it: the board
from the side of the player who decided, with the dice, the cube and the score."""

from __future__ import annotations

from typing import Any

from gammon.errors import GammonError
from gammon.formats.matchid import parse_gnubg_id
from gammon.profile.summary import MarkedDecision

_ANSWERS = ("take", "pass", "beaver")


def is_answer(d: MarkedDecision) -> bool:
    """Whether the decision answers a double (the stored position is then the doubler's)."""
    return d.kind == "cube" and (d.played in _ANSWERS or d.best in _ANSWERS)


def decision_board(d: MarkedDecision) -> dict[str, Any]:
    """``board`` and ``off`` as the game page numbers them (the decider's checkers positive, its
    home board points 1-6), ``dice``, ``cube`` (value, owner "viewer"/"opponent"/None, offered),
    ``score`` (the decider's first) and ``match_length``."""
    try:
        position, state = parse_gnubg_id(d.gnubg_id)
    except GammonError:  # an ID the analysis wrote cannot fail; an old row without one can
        return {}
    answer = is_answer(d)
    shown = position.flip() if answer else position
    decider = 1 - state.player_on_roll if answer else state.player_on_roll
    owner = None if state.cube_owner is None else "viewer" if state.cube_owner == decider else "opponent"
    return {
        "board": list(shown.board),
        "off": list(shown.off),
        "dice": [int(d.dice[0]), int(d.dice[1])] if d.dice else None,
        "cube": {"value": state.cube_value, "owner": owner, "offered": "opponent" if answer else None},
        "score": [state.score[decider], state.score[1 - decider]],
        "match_length": state.match_length,
    }


def decision_json(d: MarkedDecision) -> dict[str, Any]:
    """The decision's record and its board (see :func:`decision_board`)."""
    return {
        "id": d.id,
        "kind": d.kind,
        "xgid": d.xgid,
        "position_id": d.position_id,
        "dice": d.dice,
        "played": d.played,
        "best": d.best,
        "error": d.error,
        "mark": d.mark,
        "game": d.game,
        "turn": d.turn,
        **decision_board(d),
    }
