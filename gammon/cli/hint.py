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

from gammon.advice import (
    ResignationAnswer,
    before_roll,
    cubeless_mwc,
    eval_json,
    hint_json,
    judge_resignation,
    ranked_plays,
)
from gammon.cli.words import CUBE_ACTION_WORDS
from gammon.dice import check_dice, parse_dice
from gammon.engine.cube.decision import CubeAction, CubeDecision
from gammon.engine.engine import Engine, Hint
from gammon.engine.net.evaluator import Probabilities
from gammon.errors import InvalidNotationError, cut
from gammon.formats.ids import crawford_shown, describe_situation, read_id, situation_json
from gammon.i18n import format_number, ntr, tr
from gammon.position import require_in_play
from gammon.refusal import cube_limit_words
from gammon.situation import CubeOwner, MatchScore, Situation

__all__ = ["run_eval", "run_hint"]


def _quote(text: str) -> str:
    return repr(cut(text))


def _probabilities_line(p: Probabilities) -> str:
    return tr("win {win} (gammon {gammon}, bg {backgammon})  lose {lose} (gammon {lose_gammon}, bg "
              "{lose_backgammon})", win=format_number(p.win, "6.1%"),
              gammon=format_number(p.win_gammon, "5.1%"), backgammon=format_number(p.win_backgammon, "5.1%"),
              lose=format_number(p.lose, "6.1%"), lose_gammon=format_number(p.lose_gammon, "5.1%"),
              lose_backgammon=format_number(p.lose_backgammon, "5.1%"))


def run_hint(text: str, dice: str | Sequence[int] | None = None, n: int = 5, plies: int | None = None,
             engine: Engine | None = None, as_json: bool = False) -> str:
    """The ``n`` best plays for ``dice`` ("31" or (3, 1); default: the dice in the ID), one line each:
    cubeless equity in a money game, match winning chances in a match. ``as_json``: one JSON
    object instead, the position (``context``) and the plays as the web's position editor gets
    them (:mod:`gammon.advice`)."""
    context = read_id(text)
    if context.double_offered:  # the ID's double: a roll given besides would be ranked at the old cube
        raise InvalidNotationError(_double_on_offer(text))
    if dice is None:
        if context.dice is None:
            raise InvalidNotationError(tr("{id} has no dice: give the roll too, e.g. "
                                          "gammon hint {example} 31", id=_quote(text.strip()),
                                          example=text.strip()[:80]))
        roll = context.dice
    else:
        roll = parse_dice(dice) if isinstance(dice, str) else check_dice(dice)
    engine = engine or Engine(plies=plies)
    if as_json:
        return json.dumps({"context": situation_json(context), **hint_json(engine, context, roll, n)})
    position = context.position
    match = context.match
    scored = ranked_plays(engine, context, roll, n)
    # money plays are scored as if the cube were never turned again, match plays by cubeful MWC
    rolled = f"{roll[0]}{roll[1]}"
    if match is None:
        header = tr("Position {id}, dice {dice}, {plies}-ply, cubeless, player on roll's view",
                    id=position.id, dice=rolled, plies=engine.plies)
    else:
        header = tr("Position {id}, dice {dice}, {plies}-ply, match winning chances with the cube, "
                    "player on roll's view", id=position.id, dice=rolled, plies=engine.plies)
    lines = [header, f"  {describe_situation(context)}"]
    if not scored:
        return "\n".join([*lines, tr("no legal play: the turn passes")])
    width = max(len(str(h.play)) for h, _ in scored)
    best = scored[0][1]
    for rank, (h, score) in enumerate(scored, 1):
        lines.append(f"{rank:3}. {str(h.play):<{width}}  {_score_text(score, best, rank, match)}  "
                     f"{_probabilities_line(h.probabilities)}{_ply_note(h, engine)}")
    return "\n".join(lines)


def _double_on_offer(text: str) -> str:
    return tr("{id}: a double is on offer; it is answered before the roll, so there are no plays to rank "
              "(gammon eval says take or pass)", id=_quote(text.strip()))


def _score_text(score: float, best: float, rank: int, match: MatchScore | None) -> str:
    if match is None:
        diff = "" if rank == 1 else f" ({format_number(score - best, '+.3f')})"
        return tr("equity {value}", value=f"{format_number(score, '+.3f')}{diff:9}")
    diff = "" if rank == 1 else f" ({format_number(score - best, '+.2%')})"
    return tr("MWC {value}", value=f"{format_number(score, '6.2%')}{diff:10}")


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
    decision = engine.cube_decision(before_roll(context))
    probs = decision.probabilities
    pips = position.pip_counts
    lines = [tr("Position {id}, {plies}-ply, player on roll's view (pips {mine} vs {theirs})", id=position.id,
                plies=engine.plies, mine=pips[0], theirs=pips[1]), f"  {describe_situation(context)}"]
    if context.dice is not None and context.resignation is not None:
        lines.append("  " + tr("(the cube decision comes before rolling, so it does not use the roll {dice} "
                               "in the ID; the resignation is judged after the best play of it)",
                               dice=f"{context.dice[0]}{context.dice[1]}"))
    elif context.dice is not None:
        lines.append("  " + tr("(the roll {dice} in the ID is not used: the cube decision comes before "
                               "rolling; gammon hint ranks the plays)",
                               dice=f"{context.dice[0]}{context.dice[1]}"))
    lines.append(f"  {_probabilities_line(probs)}")
    cubeless = "  " + tr("cubeless equity {value}", value=format_number(probs.equity, "+.3f"))
    if context.match is not None:
        mwc = cubeless_mwc(probs, context.match, context.cube_value)
        cubeless += tr(", match winning chances {value}", value=format_number(mwc, ".1%"))
    lines.append(cubeless)
    lines.extend(_cube_lines(decision, context))
    answer = judge_resignation(engine, context, decision)
    if answer is not None:
        lines.append("  " + _resignation_line(answer, context))
    return "\n".join(lines)


def _resignation_line(answer: ResignationAnswer, context: Situation) -> str:
    """The answer to the resignation on offer (:func:`gammon.advice.judge_resignation`)."""
    if context.opponent_resigns:
        return _opponents_resignation_line(answer, context)
    what, verdict = _offer_words(answer, context)
    points = answer.points
    return ntr("you offer to resign {what} ({points} point): the opponent should {answer}; {worth}",
               "you offer to resign {what} ({points} points): the opponent should {answer}; {worth}",
               points, what=what, points=points, answer=verdict, worth=_your_worth(answer, context))


def _your_worth(answer: ResignationAnswer, context: Situation) -> str:
    """What playing on is worth to the player on roll who resigns: after its roll, once its best
    play of it is made."""
    dice = context.dice
    if dice is None:
        if context.match is None:
            return tr("playing on is worth {value} to you", value=format_number(answer.kept, "+.3f"))
        return tr("playing on, your match winning chances are {value}",
                  value=format_number(answer.kept, ".1%"))
    roll, play = f"{dice[0]}{dice[1]}", answer.play
    if context.match is None:
        value = format_number(answer.kept, "+.3f")
        if play is None:
            return tr("with no legal play of {dice}, playing on is worth {value} to you",
                      dice=roll, value=value)
        return tr("after your best play of {dice} ({play}), playing on is worth {value} to you",
                  dice=roll, play=str(play), value=value)
    value = format_number(answer.kept, ".1%")
    if play is None:
        return tr("with no legal play of {dice}, your match winning chances are {value}",
                  dice=roll, value=value)
    return tr("after your best play of {dice} ({play}), your match winning chances are {value}",
              dice=roll, play=str(play), value=value)


def _opponents_resignation_line(answer: ResignationAnswer, context: Situation) -> str:
    """The answer the player on roll should give to its opponent's resignation."""
    if context.match is None:
        worth = tr("playing on is worth {value} to the opponent", value=format_number(answer.kept, "+.3f"))
    else:
        worth = tr("playing on, the opponent's match winning chances are {value}",
                   value=format_number(answer.kept, ".1%"))
    what, verdict = _offer_words(answer, context)
    points = answer.points
    return ntr("the opponent offers to resign {what} ({points} point): you should {answer}; {worth}",
               "the opponent offers to resign {what} ({points} points): you should {answer}; {worth}",
               points, what=what, points=points, answer=verdict, worth=worth)


def _offer_words(answer: ResignationAnswer, context: Situation) -> tuple[str, str]:
    """What the resignation on offer gives up ("a gammon") and the answer it calls for."""
    assert context.resignation is not None
    what = {1: tr("a single game"), 2: tr("a gammon"), 3: tr("a backgammon")}[int(context.resignation)]
    return what, tr("accept") if answer.accept else tr("reject")


def _cube_lines(decision: CubeDecision, context: Situation) -> list[str]:
    answer = tr("beaver") if decision.beaver else tr("take") if decision.take else tr("pass")
    if decision.action is CubeAction.NO_CUBE:
        action = tr("no double: {why}", why=_why_no_cube(context))
    elif decision.action is CubeAction.NO_DOUBLE:
        action = tr("no double (if doubled, the opponent should {answer})", answer=answer)
    else:
        value = decision.action.value
        action = tr(CUBE_ACTION_WORDS.get(value, value))
        if decision.beaver:
            action += tr(" (the opponent should beaver)")
    unit = "" if context.match is None else tr(" (in money equivalents)")
    lines = ["  " + tr("cube action: {action}", action=action)]
    if decision.action is CubeAction.NO_CUBE:  # no double to weigh: only the game as it stands
        lines.append("  " + tr("cubeful equity{unit}: no double {no_double}", unit=unit,
                               no_double=format_number(decision.no_double, "+.3f")))
        if decision.match_winning_chances:
            lines.append("  " + tr("match winning chances: no double {no_double}",
                                   no_double=format_number(decision.match_winning_chances[0], ".1%")))
        return lines
    equities = tr("cubeful equity{unit}: no double {no_double}, double/take {take}, double/pass {pass}",
                  unit=unit, no_double=format_number(decision.no_double, "+.3f"),
                  take=format_number(decision.double_take, "+.3f"),
                  **{"pass": format_number(decision.double_pass, "+.3f")})
    lines.append(f"  {equities}")
    if decision.match_winning_chances:
        nd, dt, dp = decision.match_winning_chances
        chances = tr("match winning chances: no double {no_double}, double/take {take}, double/pass {pass}",
                     no_double=format_number(nd, ".1%"), take=format_number(dt, ".1%"),
                     **{"pass": format_number(dp, ".1%")})
        lines.append(f"  {chances}")
    if context.double_offered:
        lines.append("  " + tr("the double to {value} on offer: the opponent should {answer}",
                               value=2 * context.cube_value, answer=answer))
    return lines


def _why_no_cube(context: Situation) -> str:
    if crawford_shown(context):
        return tr("no doubling in the Crawford game")
    if context.cube_owner is CubeOwner.OPPONENT:
        return tr("the opponent owns the cube")
    limit = context.rules.highest_cube
    if 2 * context.cube_value > limit:  # in money play too: no score to blame
        return cube_limit_words(limit)
    return tr("the cube is dead at this score")
