"""Text for ``gammon hint <id> [dice]`` and ``gammon eval <id>``: the engine's ranked plays, or its
probabilities and cube decision.

The ID is a Position ID (a money game, cube 1 centred, Jacoby rule), a GNU Backgammon ID
(``PositionID:MatchID``) or an XGID; the last two also give the match score, the cube, the Crawford
state and the dice, and the analysis uses them: match plays are ranked by match winning chances
(MWC), and the cube decision is taken at that score with that cube.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from gammon.advice import cubeless_mwc, eval_json, hint_json, ranked_plays
from gammon.dice import check_dice, parse_dice
from gammon.engine.cube.decision import CubeAction, CubeDecision
from gammon.engine.engine import Engine, Hint
from gammon.engine.net.evaluator import Probabilities
from gammon.errors import InvalidNotationError, cut
from gammon.formats.ids import describe_situation, read_id, situation_json
from gammon.position import require_in_play
from gammon.situation import CubeOwner, MatchScore, Situation

__all__ = ["run_eval", "run_hint"]


def _quote(text: str) -> str:
    return repr(cut(text))


def _probabilities_line(p: Probabilities) -> str:
    return (f"win {p.win:6.1%} (gammon {p.win_gammon:5.1%}, bg {p.win_backgammon:5.1%})  "
            f"lose {p.lose:6.1%} (gammon {p.lose_gammon:5.1%}, bg {p.lose_backgammon:5.1%})")


def run_hint(text: str, dice: str | Sequence[int] | None = None, n: int = 5, plies: int | None = None,
             engine: Engine | None = None, as_json: bool = False) -> str:
    """The ``n`` best plays for ``dice`` ("31" or (3, 1); default: the dice in the ID), one line each:
    cubeless equity in a money game, match winning chances in a match. ``as_json``: one JSON
    object instead, the position (``context``) and the plays as the web's position editor gets
    them (:mod:`gammon.advice`)."""
    context = read_id(text)
    if dice is None:
        if context.dice is None:
            raise InvalidNotationError(f"{_quote(text.strip())} has no dice: give the roll too, e.g. "
                                       f"gammon hint {text.strip()[:80]} 31")
        roll = context.dice
    else:
        roll = parse_dice(dice) if isinstance(dice, str) else check_dice(dice)
    engine = engine or Engine(plies=plies)
    if as_json:
        return json.dumps({"context": situation_json(context), **hint_json(engine, context, roll, n)})
    position = context.position
    match = context.match
    scored = ranked_plays(engine, context, roll, n)
    lines = [f"Position {position.id}, dice {roll[0]}{roll[1]}, {engine.plies}-ply, player on roll's view",
             f"  {describe_situation(context)}"]
    if not scored:
        return "\n".join([*lines, "no legal play: the turn passes"])
    width = max(len(str(h.play)) for h, _ in scored)
    best = scored[0][1]
    for rank, (h, score) in enumerate(scored, 1):
        lines.append(f"{rank:3}. {str(h.play):<{width}}  {_score_text(score, best, rank, match)}  "
                     f"{_probabilities_line(h.probabilities)}{_ply_note(h, engine)}")
    return "\n".join(lines)


def _score_text(score: float, best: float, rank: int, match: MatchScore | None) -> str:
    if match is None:
        diff = "" if rank == 1 else f" ({score - best:+.3f})"
        return f"equity {score:+.3f}{diff:9}"
    diff = "" if rank == 1 else f" ({score - best:+.2%})"
    return f"MWC {score:6.2%}{diff:10}"


def _ply_note(h: Hint, engine: Engine) -> str:
    return "" if h.plies == engine.plies else f" [{h.plies}-ply]"


def run_eval(text: str, plies: int | None = None, engine: Engine | None = None, as_json: bool = False) -> str:
    """Probabilities, cubeless equity and the cube decision at the ID's score and cube; ``as_json``:
    one JSON object, as :func:`run_hint`'s."""
    context = read_id(text)
    position = require_in_play(context.position, "an evaluation", "evaluate")
    engine = engine or Engine(plies=plies)
    if as_json:
        return json.dumps({"context": situation_json(context), **eval_json(engine, context)})
    decision = engine.cube_decision(context.replace(dice=None, resignation=None))
    probs = decision.probabilities
    pips = position.pip_counts
    lines = [f"Position {position.id}, {engine.plies}-ply, player on roll's view "
             f"(pips {pips[0]} vs {pips[1]})", f"  {describe_situation(context)}"]
    if context.dice is not None:
        lines.append(f"  (the roll {context.dice[0]}{context.dice[1]} in the ID is not used: the cube "
                     f"decision comes before rolling; gammon hint ranks the plays)")
    lines.append(f"  {_probabilities_line(probs)}")
    cubeless = f"  cubeless equity {probs.equity:+.3f}"
    if context.match is not None:
        cubeless += f", match winning chances {cubeless_mwc(probs, context.match, context.cube_value):.1%}"
    lines.append(cubeless)
    lines.extend(_cube_lines(decision, context))
    return "\n".join(lines)


def _cube_lines(decision: CubeDecision, context: Situation) -> list[str]:
    answer = "beaver" if decision.beaver else "take" if decision.take else "pass"
    if decision.action is CubeAction.NO_CUBE:
        action = f"no double: {_why_no_cube(context)}"
    elif decision.action is CubeAction.NO_DOUBLE:
        action = f"no double (if doubled, the opponent should {answer})"
    else:
        action = decision.action.value
        if decision.beaver:
            action += " (the opponent should beaver)"
    unit = "" if context.match is None else " (in money equivalents)"
    lines = [f"  cube action: {action}",
             f"  cubeful equity{unit}: no double {decision.no_double:+.3f}, double/take "
             f"{decision.double_take:+.3f}, double/pass {decision.double_pass:+.3f}"]
    if decision.match_winning_chances:
        nd, dt, dp = decision.match_winning_chances
        lines.append(f"  match winning chances: no double {nd:.1%}, double/take {dt:.1%}, "
                     f"double/pass {dp:.1%}")
    if context.double_offered:
        lines.append(f"  the double to {2 * context.cube_value} on offer: the opponent should {answer}")
    return lines


def _why_no_cube(context: Situation) -> str:
    if context.match is not None and context.match.crawford_game:
        return "no doubling in the Crawford game"
    if context.cube_owner is CubeOwner.OPPONENT:
        return "the opponent owns the cube"
    return "the cube is dead at this score"
