"""A position read from an ID, and the engine's hint, evaluation and rollouts of it, as JSON-ready
dicts: what ``gammon hint``, ``eval`` and ``rollout`` print with ``--json`` and the web's position
editor shows (one form for both). Also the XGID of a position set up by hand."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from gammon.analysis.id_context import cubeless_mwc, describe_situation, ranked_plays
from gammon.dice import Dice
from gammon.engine.cube.decision import CubeAction, CubeDecision
from gammon.engine.engine import Engine
from gammon.engine.net.evaluator import Probabilities
from gammon.engine.rollout.rollouts import CubeRollout, PlayRollout, RolloutResult
from gammon.formats.matchid import MatchState, format_gnubg_id
from gammon.formats.xgid import XGID
from gammon.position import Position
from gammon.situation import CubeOwner, Situation

OWNERS = {CubeOwner.CENTRED: "centred", CubeOwner.MOVER: "you", CubeOwner.OPPONENT: "opponent"}


def board_json(position: Position) -> dict[str, Any]:
    """A board as the browser draws it: the 26 slots from the player on roll's view, and the
    checkers off (player on roll, opponent)."""
    return {"board": list(position.board), "off": list(position.off)}


def setup_xgid(board: Sequence[int], dice: Dice | None, cube_value: int, cube_owner: str,
               match_length: int, score: tuple[int, int], crawford: bool, jacoby: bool,
               beavers: bool, double_offered: bool = False) -> str:
    """The XGID of a position set up in the editor: ``board`` from the view of the player on
    roll ("you", drawn at the bottom), ``score`` (you, the opponent), ``cube_owner`` "centred",
    "you" or "opponent"; ``double_offered``: you have doubled. Raises ValueError (or
    InvalidPositionError) saying what is wrong."""
    owner = {"centred": None, "you": 1, "opponent": 0}[cube_owner]  # XGID: you are player 1, at the bottom
    money = match_length == 0
    xgid = XGID(position=Position(board), player_on_roll=1, cube_value=cube_value, cube_owner=owner,
                dice=None if double_offered else dice, cube_action="double" if double_offered else None,
                score=(score[1], score[0]), match_length=match_length, crawford=crawford and not money,
                jacoby=jacoby and money, beavers=beavers and money)
    return str(xgid)


def context_json(context: Situation) -> dict[str, Any]:
    """What the editor shows of a position read from an ID, with its IDs in the three forms."""
    position = context.position
    owner = {CubeOwner.CENTRED: None, CubeOwner.MOVER: 0, CubeOwner.OPPONENT: 1}[context.cube_owner]
    crawford = context.match is not None and context.match.crawford_game
    money = context.match_length == 0
    state = MatchState(match_length=context.match_length, score=context.score, cube_value=context.cube_value,
                       cube_owner=owner, player_on_roll=0, turn=1 if context.double_offered else 0,
                       crawford=crawford, dice=context.dice, double_offered=context.double_offered,
                       jacoby=context.jacoby or not money)
    xgid = setup_xgid(position.board, context.dice, context.cube_value, OWNERS[context.cube_owner],
                      context.match_length, context.score, crawford, context.jacoby, context.beavers,
                      context.double_offered)
    return {**board_json(position), "dice": list(context.dice) if context.dice else None,
            "cube_value": context.cube_value, "cube_owner": OWNERS[context.cube_owner],
            "match_length": context.match_length, "score": list(context.score), "crawford": crawford,
            "jacoby": context.jacoby, "beavers": context.beavers, "double_offered": context.double_offered,
            "pips": list(position.pip_counts), "description": describe_situation(context),
            "position_id": position.id, "gnubg_id": format_gnubg_id(position, state), "xgid": xgid,
            "game_over": position.is_game_over()}


def probabilities_json(p: Probabilities) -> dict[str, float]:
    return {"win": p.win, "win_gammon": p.win_gammon, "win_backgammon": p.win_backgammon, "lose": p.lose,
            "lose_gammon": p.lose_gammon, "lose_backgammon": p.lose_backgammon}


def hint_json(engine: Engine, context: Situation, dice: Dice, n: int) -> dict[str, Any]:
    """The ``n`` best plays, best first: cubeless equity for money, match winning chance in a match."""
    scored = ranked_plays(engine, context, dice, n)
    return {"dice": list(dice), "plies": engine.plies, "unit": "mwc" if context.match else "equity",
            "plays": [{"play": str(h.play), "score": score,
                       "probabilities": probabilities_json(h.probabilities), "plies": h.plies,
                       **board_json(h.play.after.flip())} for h, score in scored]}


def cube_json(decision: CubeDecision) -> dict[str, Any]:
    answer = "beaver" if decision.beaver else "take" if decision.take else "pass"
    mwcs = decision.match_winning_chances
    return {"action": decision.action.value, "answer": answer,
            "available": decision.action is not CubeAction.NO_CUBE,
            "no_double": decision.no_double, "double_take": decision.double_take,
            "double_pass": decision.double_pass, "mwc": list(mwcs) if mwcs else None}


def eval_json(engine: Engine, context: Situation) -> dict[str, Any]:
    """Chances, cubeless equity (and MWC in a match) and the cube decision at the ID's cube and score."""
    decision = engine.cube_decision(context.replace(dice=None, resignation=None))
    probs = decision.probabilities
    mwc = None if context.match is None else cubeless_mwc(probs, context.match, context.cube_value)
    return {"plies": engine.plies, "probabilities": probabilities_json(probs),
            "cubeless_equity": probs.equity, "mwc": mwc, "cube": cube_json(decision)}


def finite(x: float) -> float | None:
    """``x``, or None where it is not a number (one trial has no standard error: JSON has no NaN)."""
    return x if math.isfinite(x) else None


def result_json(r: RolloutResult) -> dict[str, Any]:
    """One rollout's estimates, with the equity's standard error, its trials and seed."""
    return {"equity": r.equity, "standard_error": finite(r.standard_error.equity), "trials": r.trials,
            "cubeless_equity": r.cubeless_equity, "mwc": r.match_winning_chance,
            "probabilities": probabilities_json(r.probabilities), "seed": r.settings.seed,
            "cubeful": r.settings.cubeful}


def rollout_json(outcome: RolloutResult | list[PlayRollout] | CubeRollout) -> dict[str, Any]:
    """A rollout of a position (``kind`` "position"), of the plays of a roll ("plays") or of a cube
    decision ("cube")."""
    if isinstance(outcome, CubeRollout):
        return {"kind": "cube", "decision": cube_json(outcome.decision),
                "no_double": result_json(outcome.no_double), "double_take": result_json(outcome.double_take)}
    if isinstance(outcome, list):
        return {"kind": "plays", "plays": [{"play": str(p.play), **result_json(p.result)} for p in outcome]}
    return {"kind": "position", **result_json(outcome)}


__all__ = ["OWNERS", "board_json", "context_json", "cube_json", "eval_json", "finite", "hint_json",
           "probabilities_json", "result_json", "rollout_json", "setup_xgid"]
