"""The engine's advice on one Situation (a position read from an ID): its plays ranked (by match
winning chances, MWC, in a match), its evaluation and cube decision, and its rollouts, also as
JSON-ready dicts: what ``gammon hint``, ``eval`` and ``rollout`` print (with ``--json``) and the
web's position editor shows (one form for both)."""

from __future__ import annotations

import math
from typing import Any

from gammon.dice import Dice
from gammon.engine.cube.cubeful import MatchCube
from gammon.engine.cube.decision import CubeAction, CubeDecision
from gammon.engine.cube.resignation import (
    ResignationAnswer,
    judge_resignation,
    judged_situation,
    resignation_answer,
)
from gammon.engine.engine import Engine, Hint
from gammon.engine.net.evaluator import Probabilities
from gammon.engine.rollout.rollouts import CubeRollout, PlayRollout, RolloutResult
from gammon.formats.ids import board_json
from gammon.situation import MatchScore, Situation


def cubeless_mwc(p: Probabilities, match: MatchScore, cube_value: int) -> float:
    """Match winning chances of the player on roll with these outcome chances, cube ``cube_value``
    not turned again (the Kazaross-XG2 table scores each outcome)."""
    cube = MatchCube(p.as_array(), match, 0.0)  # cube efficiency plays no part in these two values
    return p.win * cube.win_value(cube_value) + p.lose * cube.loss_value(cube_value)


def ranked_plays(engine: Engine, context: Situation, dice: Dice, n: int) -> list[tuple[Hint, float]]:
    """The ``n`` best plays of ``dice`` in ``context``, best first, each with its score: cubeless
    equity for money, in a match the cubeful match winning chance by which ``Engine.hint`` ranks
    them there."""
    hints = engine.hint(context, dice, n)
    if context.match is None:
        return [(h, h.equity) for h in hints]
    return [(h, h.mwc if h.mwc is not None else math.nan) for h in hints]


def probabilities_json(p: Probabilities) -> dict[str, float]:
    return {
        "win": p.win,
        "win_gammon": p.win_gammon,
        "win_backgammon": p.win_backgammon,
        "lose": p.lose,
        "lose_gammon": p.lose_gammon,
        "lose_backgammon": p.lose_backgammon,
    }


def hint_json(engine: Engine, context: Situation, dice: Dice, n: int) -> dict[str, Any]:
    """The ``n`` best plays, best first: cubeless equity for money, match winning chance in a match."""
    scored = ranked_plays(engine, context, dice, n)
    return {
        "dice": list(dice),
        "plies": engine.plies,
        "unit": "mwc" if context.match else "equity",
        "plays": [
            {
                "play": str(h.play),
                "score": score,
                "probabilities": probabilities_json(h.probabilities),
                "plies": h.plies,
                **board_json(h.play.after.flip()),
            }
            for h, score in scored
        ],
    }


def cube_json(decision: CubeDecision) -> dict[str, Any]:
    answer = "beaver" if decision.beaver else "take" if decision.take else "pass"
    mwcs = decision.match_winning_chances
    return {
        "action": decision.action.value,
        "answer": answer,
        "available": decision.action is not CubeAction.NO_CUBE,
        "no_double": decision.no_double,
        "double_take": decision.double_take,
        "double_pass": decision.double_pass,
        "mwc": list(mwcs) if mwcs else None,
    }


_WIN_KIND_WORDS = {1: "single", 2: "gammon", 3: "backgammon"}


def eval_json(engine: Engine, context: Situation) -> dict[str, Any]:
    """Chances, cubeless equity (and MWC in a match) and the cube decision at the ID's cube and
    score, before the roll; ``resignation``: the answer to a resignation on offer (else None),
    after the resigner's roll from its best play of it (``play``)."""
    decision = engine.cube_decision(before_roll(context))
    probs = decision.probabilities
    mwc = None if context.match is None else cubeless_mwc(probs, context.match, context.cube_value)
    answer = judge_resignation(engine, context, decision)
    resignation = None
    if answer is not None:
        assert context.resignation is not None
        resignation = {
            "kind": _WIN_KIND_WORDS[int(context.resignation)],
            "resigner": "opponent" if context.opponent_resigns else "you",  # "resigned", "playing_on": its
            "points": answer.points,
            "answer": "accept" if answer.accept else "reject",
            "unit": "mwc" if context.match else "equity",
            "resigned": answer.given,
            "playing_on": answer.kept,
            "play": None if answer.play is None else str(answer.play),
        }
    return {
        "plies": engine.plies,
        "probabilities": probabilities_json(probs),
        "cubeless_equity": probs.equity,
        "mwc": mwc,
        "cube": _available_cube_json(decision),
        "resignation": resignation,
    }


def _available_cube_json(decision: CubeDecision) -> dict[str, Any]:
    """:func:`cube_json`, with None for the answer and the equities of a double the player on roll
    cannot make (the cube out of its hands): they were shown as if it could."""
    cube = cube_json(decision)
    if not cube["available"]:
        cube.update(answer=None, double_take=None, double_pass=None)
        if cube["mwc"] is not None:
            cube["mwc"] = [cube["mwc"][0], None, None]
    return cube


def before_roll(context: Situation) -> Situation:
    """``context`` as its cube decision is judged: before the roll, without a resignation on offer
    (a double the resigner was to answer still on offer)."""
    return judged_situation(context.replace(dice=None))


def finite(x: float) -> float | None:
    """``x``, or None where it is not a number (one trial has no standard error: JSON has no NaN)."""
    return x if math.isfinite(x) else None


def result_json(r: RolloutResult) -> dict[str, Any]:
    """One rollout's estimates, with the equity's standard error, its trials and seed."""
    return {
        "equity": r.equity,
        "standard_error": finite(r.standard_error.equity),
        "trials": r.trials,
        "cubeless_equity": r.cubeless_equity,
        "mwc": r.match_winning_chance,
        "probabilities": probabilities_json(r.probabilities),
        "seed": r.settings.seed,
        "cubeful": r.settings.cubeful,
    }


def ranked_rollouts(plays: list[PlayRollout], context: Situation) -> list[tuple[PlayRollout, float | None]]:
    """The rolled-out plays of ``context``'s roll, best first, each with its match winning chance
    (cubeful where the rollout was, else from its outcome chances): ranked by it in a match,
    where the engine's order (by money equity) can put a gammonish play above a surer win; by
    equity for money (None)."""
    match = context.match
    if match is None:
        return [(p, None) for p in plays]
    scored: list[tuple[PlayRollout, float]] = []
    for p in plays:
        mwc = p.result.match_winning_chance
        if mwc is None:
            mwc = cubeless_mwc(p.result.probabilities, match, context.cube_value)
        scored.append((p, mwc))
    scored.sort(key=lambda ps: -ps[1])
    return [(p, mwc) for p, mwc in scored]


def rollout_json(outcome: RolloutResult | list[PlayRollout] | CubeRollout,
                 context: Situation | None = None) -> dict[str, Any]:
    """A rollout of a position (``kind`` "position"), of the plays of a roll ("plays": in a match
    of ``context``, ranked by match winning chances, each play's ``mwc`` the one it is ranked by)
    or of a cube decision ("cube")."""
    if isinstance(outcome, CubeRollout):
        return {
            "kind": "cube",
            "decision": cube_json(outcome.decision),
            "no_double": result_json(outcome.no_double),
            "double_take": result_json(outcome.double_take),
        }
    if isinstance(outcome, list):
        ranked = ranked_rollouts(outcome, context) if context is not None else [(p, None) for p in outcome]
        plays = [{"play": str(p.play), **result_json(p.result), **({} if mwc is None else {"mwc": mwc})}
                 for p, mwc in ranked]
        if context is None:  # the score unknown: the engine's order, by equity, and no unit claimed
            return {"kind": "plays", "plays": plays}
        return {"kind": "plays", "unit": "mwc" if context.match else "equity", "plays": plays}
    return {"kind": "position", **result_json(outcome)}


__all__ = [
    "ResignationAnswer",
    "before_roll",
    "cube_json",
    "cubeless_mwc",
    "eval_json",
    "finite",
    "hint_json",
    "judge_resignation",
    "probabilities_json",
    "ranked_plays",
    "ranked_rollouts",
    "resignation_answer",
    "result_json",
    "rollout_json",
]
