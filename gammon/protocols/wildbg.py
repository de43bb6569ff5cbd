"""wildbg's HTTP API (``GET /move``, ``GET /eval``), answered by gammon's engine, so that a client
written for wildbg works unchanged; served under ``/wildbg`` by gammon.web.routes.wildbg.

The query, as wildbg reads it:

* ``p0`` .. ``p25``: checkers on each point, from the view of ``x``, the player on roll, who moves
  from 24 to 1 (``p1``..``p6`` its home board): positive for ``x``, negative for the opponent
  ``o``; ``p25`` is x's bar (0 or more), ``p0`` o's bar (0 or less). Points left out are empty,
  checkers not given are borne off. This is gammon's own board layout (gammon.position).
* ``die1``, ``die2`` (``/move`` only): the roll, 1 to 6 each.
* ``x_away``, ``o_away``: the points each side still needs; both 0 (the default) for money play.
  wildbg itself takes 1-1 and money only; any score is answered here.

gammon's additions, each optional: ``cube`` (the cube's value, default 1), ``cube_owner`` (``x``,
``o`` or ``centred``, the default), ``crawford`` (``true``: this is the Crawford game), ``plies``
(the engine's depth, 0 to 2, default 0) and ``n`` (``/move``: at most this many plays; default every
legal play at 0 ply, :data:`DEEP_PLAYS` deeper).

The answers' shapes are wildbg's: ``/move`` gives ``{"moves": [{"play": [{"from": 24, "to": 21},
...], "probabilities": {...}}, ...]}``, best first (by money equity; by match winning chance in a
match), each ``play`` the checker steps in playing order (25 the bar, 0 off; empty when no checker
can move), its probabilities those of ``x`` after the play. ``/eval`` gives ``{"cube": {"double":
..., "accept": ...}, "probabilities": {...}}``: should ``x`` double, should ``o`` take. The
probabilities are wildbg's (and GNU Backgammon's) five: ``win``, ``winG``, ``winBg``, ``loseG``,
``loseBg``, gammons counting backgammons.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gammon.errors import GammonError, cut
from gammon.position import CHECKERS, Position
from gammon.situation import CubeOwner, MatchScore, Situation

if TYPE_CHECKING:
    from gammon.engine.engine import Engine
    from gammon.engine.net.evaluator import Probabilities

DEEP_PLAYS = 5
"""Plays ``/move`` gives at 1 or 2 ply unless ``n`` says otherwise (each costs a deep search)."""
MAX_DEEP_PLAYS = 20
POINTS = tuple(f"p{i}" for i in range(26))
PARAMETERS = (*POINTS, "die1", "die2", "x_away", "o_away", "cube", "cube_owner", "crawford", "plies", "n")
_WHOLE = re.compile(r"[-+]?[0-9]{1,9}")
_OWNERS = {
    "x": CubeOwner.MOVER,
    "o": CubeOwner.OPPONENT,
    "centred": CubeOwner.CENTRED,
    "centered": CubeOwner.CENTRED,
    "": CubeOwner.CENTRED,
}


class WildbgError(GammonError, ValueError):
    """A query wildbg's API refuses (HTTP 400); the message quotes the bad value, cut short."""


@dataclass(frozen=True)
class WildbgQuery:
    """A query read: the situation (the dice in it for ``/move``), the depth and how many plays."""

    situation: Situation
    plies: int = 0
    n: int | None = None


def _number(query: Mapping[str, str], name: str, low: int, high: int, default: int | None = None) -> int:
    text = query.get(name)
    if text is None:
        if default is None:
            raise WildbgError(f"{name} is missing")
        return default
    # ASCII digits only, as wildbg reads them: int() would also take '0_5' (5) and other scripts' digits
    value = int(text.strip()) if _WHOLE.fullmatch(text.strip()) else None
    if value is None or not low <= value <= high:
        raise WildbgError(f"{name} must be a whole number from {low} to {high}, got {cut(repr(text), 40)}")
    return value


def read_position(query: Mapping[str, str]) -> Position:
    """The position of ``p0``..``p25``, checked as wildbg checks it."""
    board = [_number(query, name, -CHECKERS, CHECKERS, 0) for name in POINTS]
    if board[0] > 0:
        raise WildbgError("Index 0 is the bar for player o, number of checkers needs to be negative.")
    if board[25] < 0:
        raise WildbgError("Index 25 is the bar for player x, number of checkers needs to be positive.")
    for side, sign in (("x", 1), ("o", -1)):
        if sum(c for c in board if c * sign > 0) * sign > CHECKERS:
            raise WildbgError(f"Player {side} has more than 15 checkers on the board.")
    try:
        position = Position(board)
    except GammonError as e:
        raise WildbgError(str(e)) from None
    if position.is_game_over():
        raise WildbgError("The game is over: a player has no checkers left on the board.")
    return position


def read_query(query: Mapping[str, str], *, dice: bool) -> WildbgQuery:
    """Read a ``/move`` (``dice``) or ``/eval`` query. Raises WildbgError."""
    unknown = sorted(set(query) - set(PARAMETERS))
    if unknown:
        raise WildbgError(
            f"unknown parameter {cut(repr(unknown[0]), 40)}; the parameters are p0..p25, "
            "die1, die2, x_away, o_away, cube, cube_owner, crawford, plies, n"
        )
    position = read_position(query)
    roll = (_number(query, "die1", 1, 6), _number(query, "die2", 1, 6)) if dice else None
    x_away, o_away = _number(query, "x_away", 0, 999, 0), _number(query, "o_away", 0, 999, 0)
    if (x_away == 0) != (o_away == 0):
        raise WildbgError("x_away and o_away must both be 0 (money) or both 1 or more (a match)")
    cube = _number(query, "cube", 1, 2**12, 1)
    if cube & (cube - 1):
        raise WildbgError(f"cube must be a power of two, got {cut(repr(query['cube']), 40)}")
    owner_text = query.get("cube_owner", "").strip().lower()
    if owner_text not in _OWNERS:
        raise WildbgError(f"cube_owner must be x, o or centred, got {cut(repr(query['cube_owner']), 40)}")
    owner = _OWNERS[owner_text]
    if (cube == 1) != (owner is CubeOwner.CENTRED):
        raise WildbgError("a cube of 1 is centred, a turned cube has an owner (cube_owner x or o)")
    crawford_text = query.get("crawford", "false").strip().lower()
    if crawford_text not in ("true", "false", "1", "0"):
        raise WildbgError(f"crawford must be true or false, got {cut(repr(query['crawford']), 40)}")
    crawford = crawford_text in ("true", "1")
    try:
        match = MatchScore(x_away, o_away, crawford_game=crawford) if x_away else None
        if crawford and match is None:
            raise ValueError("money play has no Crawford game")
        situation = Situation.at(position, cube_value=cube, cube_owner=owner, match=match, dice=roll)
    except ValueError as e:
        raise WildbgError(str(e)) from None
    plies = _number(query, "plies", 0, 2, 0)
    n = _number(query, "n", 1, MAX_DEEP_PLAYS if plies else 10_000, 0) if "n" in query else None
    return WildbgQuery(situation, plies, n)


def probabilities_view(p: Probabilities) -> dict[str, float]:
    """wildbg's five probabilities."""
    return {
        "win": p.win,
        "winG": p.win_gammon,
        "winBg": p.win_backgammon,
        "loseG": p.lose_gammon,
        "loseBg": p.lose_backgammon,
    }


def _inverted(p: Probabilities) -> dict[str, float]:
    """The view of ``p`` (one side's chances) from the other side."""
    return {
        "win": 1.0 - p.win,
        "winG": p.lose_gammon,
        "winBg": p.lose_backgammon,
        "loseG": p.win_gammon,
        "loseBg": p.win_backgammon,
    }


def move_answer(engine: Engine, query: WildbgQuery) -> dict[str, Any]:
    """``/move``: the legal plays, best first, each with x's probabilities after it."""
    from gammon.advice import ranked_plays  # loads the engine: only where an answer is computed

    situation = query.situation
    assert situation.dice is not None  # read_query(dice=True) sets them
    count = len(situation.position.legal_plays(situation.dice))
    if count == 0:  # wildbg: one move, no checker steps, the chances of the position as it stands
        after = engine.evaluate(situation.position.flip())
        return {"moves": [{"play": [], "probabilities": _inverted(after)}]}
    n = query.n or (count if engine.plies == 0 else DEEP_PLAYS)
    ranked = ranked_plays(engine, situation, situation.dice, min(n, count))
    return {
        "moves": [
            {
                "play": [{"from": a, "to": b} for a, b in hint.play.steps],
                "probabilities": probabilities_view(hint.probabilities),
            }
            for hint, _ in ranked
        ]
    }


def eval_answer(engine: Engine, query: WildbgQuery) -> dict[str, Any]:
    """``/eval``: x's chances before the roll and the cube: should x double, should o take."""
    decision = engine.cube_decision(query.situation)
    return {
        "cube": {"double": decision.should_double, "accept": decision.take},
        "probabilities": probabilities_view(decision.probabilities),
    }


# --- in the web server's engine workers -------------------------------------------------------

_engines: dict[int, Engine] = {}


def worker_answer(kind: str, query: WildbgQuery) -> dict[str, Any]:
    """The answer to a ``move`` or ``eval`` query, computed in a worker with its engine of the
    query's plies (made once a worker)."""
    engine = _engines.get(query.plies)
    if engine is None:
        from gammon.engine.engine import Engine  # the server process starts without the engine

        engine = _engines[query.plies] = Engine(plies=query.plies)
    return move_answer(engine, query) if kind == "move" else eval_answer(engine, query)


__all__ = [
    "PARAMETERS",
    "WildbgError",
    "WildbgQuery",
    "eval_answer",
    "move_answer",
    "read_query",
    "worker_answer",
]
