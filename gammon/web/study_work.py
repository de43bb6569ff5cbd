"""The engine work behind the browser's analysis and position pages, as plain functions of picklable
arguments that return JSON-ready dicts: the analysis of games (gammon.analysis, its own JSON plus
boards for the browser), the reading of a position ID, hints, evaluations and rollouts.

They run in a job worker (gammon.web.jobs) or a thread, never on the event loop."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from gammon.analysis import CheckerPlay, MatchAnalysis, analyse
from gammon.analysis.id_context import Context, cubeless_mwc, ranked_plays
from gammon.analysis.report_html import chance_series
from gammon.analysis.serialize import analysis_to_dict
from gammon.analysis.svg import chart_svg
from gammon.dice import Dice
from gammon.engine.cube_decision import CubeAction, CubeDecision
from gammon.engine.cubeful import CubeOwner
from gammon.engine.engine import Engine
from gammon.engine.evaluator import Probabilities
from gammon.engine.rollout import RolloutProgress, RolloutResult
from gammon.formats.matchid import MatchState, format_gnubg_id
from gammon.formats.xgid import XGID
from gammon.game import Game
from gammon.position import Position
from gammon.web.jobs import Progress

OWNERS = {CubeOwner.CENTRED: "centred", CubeOwner.MOVER: "you", CubeOwner.OPPONENT: "opponent"}


# --- analysis ------------------------------------------------------------------------------------


def analyse_games(games: Sequence[Game], names: tuple[str, str], engine: Engine,
                  progress: Progress) -> dict[str, Any]:
    """The analysis of ``games`` (played one after another) as :func:`analysis_json` gives it."""
    return analysis_json(analyse(games, engine, progress, names=names))


def _board(position: Position) -> dict[str, Any]:
    return {"board": list(position.board), "off": list(position.off)}


def analysis_json(analysis: MatchAnalysis) -> dict[str, Any]:
    """``gammon analyse --json``'s object, plus what the browser draws: the players' names, the
    chart of winning chances (SVG) and, for each decision, its board (the player who decides at
    the bottom) and, for each alternative play, the board after it."""
    out = analysis_to_dict(analysis)
    out["names"] = list(analysis.names)
    series, breaks = chance_series(analysis)
    out["chart"] = chart_svg(series, breaks, analysis.names)
    for d, item in zip(analysis.decisions, out["decisions"]):
        c = d.context
        item.update(_board(c.position))
        owner = c.cube_owner
        item["cube_owner"] = None if owner is None else "you" if owner == c.player else "opponent"
        item["crawford"] = c.crawford
        item["match_length"] = c.match_length
        if isinstance(d, CheckerPlay):
            for cand, alt in zip(d.candidates, item["alternatives"]):
                alt.update(_board(cand.play.after.flip()))
                alt["played"] = cand.play == d.played
    return out


# --- positions -----------------------------------------------------------------------------------


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


def context_json(context: Context) -> dict[str, Any]:
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
    return {**_board(position), "dice": list(context.dice) if context.dice else None,
            "cube_value": context.cube_value, "cube_owner": OWNERS[context.cube_owner],
            "match_length": context.match_length, "score": list(context.score), "crawford": crawford,
            "jacoby": context.jacoby, "beavers": context.beavers, "double_offered": context.double_offered,
            "pips": list(position.pip_counts), "description": context.describe(),
            "position_id": position.id, "gnubg_id": format_gnubg_id(position, state), "xgid": xgid,
            "game_over": position.is_game_over()}


def _probabilities(p: Probabilities) -> dict[str, float]:
    return {"win": p.win, "win_gammon": p.win_gammon, "win_backgammon": p.win_backgammon, "lose": p.lose,
            "lose_gammon": p.lose_gammon, "lose_backgammon": p.lose_backgammon}


def hint_json(engine: Engine, context: Context, dice: Dice, n: int) -> dict[str, Any]:
    """The ``n`` best plays, best first: cubeless equity for money, match winning chance in a match."""
    scored = ranked_plays(engine, context, dice, n)
    return {"dice": list(dice), "plies": engine.plies, "unit": "mwc" if context.match else "equity",
            "plays": [{"play": str(h.play), "score": score, "probabilities": _probabilities(h.probabilities),
                       "plies": h.plies, **_board(h.play.after.flip())} for h, score in scored]}


def _cube_json(decision: CubeDecision) -> dict[str, Any]:
    answer = "beaver" if decision.beaver else "take" if decision.take else "pass"
    mwcs = decision.match_winning_chances
    return {"action": decision.action.value, "answer": answer,
            "available": decision.action is not CubeAction.NO_CUBE,
            "no_double": decision.no_double, "double_take": decision.double_take,
            "double_pass": decision.double_pass, "mwc": list(mwcs) if mwcs else None}


def eval_json(engine: Engine, context: Context) -> dict[str, Any]:
    """Chances, cubeless equity (and MWC in a match) and the cube decision at the ID's cube and score."""
    decision = engine.cube_decision(context.position, cube_value=context.cube_value,
                                    cube_owner=context.cube_owner, match=context.match,
                                    jacoby=context.jacoby, beavers=context.beavers)
    probs = decision.probabilities
    mwc = None if context.match is None else cubeless_mwc(probs, context.match, context.cube_value)
    return {"plies": engine.plies, "probabilities": _probabilities(probs), "cubeless_equity": probs.equity,
            "mwc": mwc, "cube": _cube_json(decision)}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None  # one trial has no standard error: JSON has no NaN


def _rollout_json(r: RolloutResult) -> dict[str, Any]:
    return {"equity": r.equity, "standard_error": _finite(r.standard_error.equity), "trials": r.trials,
            "cubeless_equity": r.cubeless_equity, "mwc": r.match_winning_chance,
            "probabilities": _probabilities(r.probabilities), "seed": r.settings.seed,
            "cubeful": r.settings.cubeful}


def rollout_json(engine: Engine, context: Context, kind: str, trials: int, truncate: int | None,
                 cubeful: bool, n: int, seed: int | None, progress: Progress) -> dict[str, Any]:
    """Roll out the position (``kind`` "position"), the ``n`` best plays of the ID's dice
    ("plays") or the cube decision ("cube", cubeful), in this thread, reporting each batch."""
    def report(p: RolloutProgress) -> None:
        progress(p.trials, p.total, {"equity": [_finite(e) for e in p.equity],
                                     "standard_error": [_finite(s) for s in p.standard_error]})

    options: dict[str, Any] = dict(trials=trials, truncate=truncate, seed=seed, cube_value=context.cube_value,
                                   cube_owner=context.cube_owner, match=context.match, jacoby=context.jacoby,
                                   workers=1, progress=report)
    position = context.position
    if kind == "cube":
        cube = engine.rollout_cube(position, **options)
        return {"kind": kind, "decision": _cube_json(cube.decision),
                "no_double": _rollout_json(cube.no_double), "double_take": _rollout_json(cube.double_take)}
    if kind == "plays":
        if context.dice is None:
            raise ValueError("a rollout of the plays needs the dice: set them first")
        plays = engine.rollout_plays(position, context.dice, n, cubeful=cubeful, **options)
        return {"kind": kind, "plays": [{"play": str(p.play), **_rollout_json(p.result)} for p in plays]}
    return {"kind": kind, **_rollout_json(engine.rollout(position, cubeful=cubeful, **options))}


__all__ = ["analyse_games", "analysis_json", "context_json", "eval_json", "hint_json", "rollout_json",
           "setup_xgid"]
