"""A resignation on offer judged by the engine: what resigning leaves the player who offers it
against what playing on is worth to it, from the cube decision of the position it would be played
on from (:func:`judged_situation`). The resigner may be the player on roll (playing on: its proper
cube action before its roll; after it, its best play of the dice, then the opponent on roll with
its own proper cube action), or its opponent (``Situation.opponent_resigns``): before the player
on roll rolls (playing on: minus the value of the player on roll's proper cube action), or instead
of answering its double (playing on: the resigner's better of take and pass). The player asked
accepts when resigning gives the resigner no less than playing on would."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from gammon.engine.cube.cubeful import mwc_after
from gammon.engine.cube.decision import CubeDecision
from gammon.errors import InvalidArgumentError
from gammon.play import Play
from gammon.rules import WinKind, win_kind
from gammon.situation import CubeOwner, Situation

_TIE = 1e-9  # values closer than this are equal: rounding in the search, not judgement


class ResignationAnswer(NamedTuple):
    """The answer to the resignation on offer: ``points`` (the cube and Jacoby applied); ``given``,
    what resigning leaves the resigner, and ``kept``, what playing on is worth to it (each side's
    proper cube action taken), both cubeful equity per cube for money, match winning chances in a
    match, for the resigner; the player asked accepts when ``given <= kept``. ``play``: after the
    resigner's roll, its best play, after which playing on is valued (None before the roll, or where
    the roll has no legal play)."""

    points: int
    given: float
    kept: float
    play: Play | None = None

    @property
    def accept(self) -> bool:
        # a tie is accepted: a certain gammon came out 4e-16 below the gammon offered, rejected
        return self.given <= self.kept + _TIE


class ResignationJudge(Protocol):
    """What judging a resignation asks of the engine (:class:`gammon.Engine` is one)."""

    def best_play(self, decision: Situation, dice: Sequence[int] | None = None) -> Play | None: ...

    def cube_decision(self, decision: Situation) -> CubeDecision: ...


def judged_situation(context: Situation, play: Play | None = None) -> Situation:
    """The Situation whose cube decision values playing on. Before the roll: ``context`` without
    the resignation, a double the resigner was to answer still on offer. After the resigner's roll
    (``context.dice``): the opponent on roll once ``play``, the resigner's best play of those dice,
    is made (None only where the dice have no legal play: the turn passes); the roll decides
    much, so the position before it would misjudge the offer."""
    dice = context.dice
    if dice is None or context.resignation is None:
        if play is not None:
            raise InvalidArgumentError(f"a play ({play}) is judged only with a resignation after the roll")
        return context.replace(dice=None, resignation=None, opponent_resigns=False)
    if play is None:
        if context.position.legal_plays(dice):
            raise InvalidArgumentError(f"a resignation after the roll {dice[0]}{dice[1]} is judged after "
                                       "the resigner's best play of it: give the play")
        after = context.position.flip()
    elif play.position != context.position or sorted(play.dice) != sorted(dice):  # 12 is 21
        raise InvalidArgumentError(
            f"the play {play} is not one of the roll {dice[0]}{dice[1]} in {context.position.id}")
    else:
        after = play.after
    return Situation(after, cube_value=context.cube_value, cube_owner=context.cube_owner.flip(),
                     score=(context.score[1], context.score[0]), crawford_game=context.crawford_game,
                     rules=context.rules)


def judge_resignation(engine: ResignationJudge, context: Situation,
                      before_roll: CubeDecision | None = None) -> ResignationAnswer | None:
    """The answer to ``context``'s resignation on offer (None when there is none), by ``engine``:
    after the resigner's roll, from its best play of the dice. ``before_roll``: the cube decision
    of :func:`judged_situation` (``context``) where the caller has it already; used only before
    the roll."""
    if context.resignation is None:
        return None
    if context.dice is None:
        decision = before_roll if before_roll is not None else engine.cube_decision(judged_situation(context))
        return resignation_answer(decision, context)
    play = engine.best_play(context)
    if play is not None and play.after.off[1] == 15:  # the play bears off the resigner's last checker
        return _won_by_play(play, context)
    answer = resignation_answer(engine.cube_decision(judged_situation(context, play)), context)
    return None if answer is None else answer._replace(play=play)


def resignation_answer(decision: CubeDecision, context: Situation) -> ResignationAnswer | None:
    """The answer to ``context``'s resignation on offer (None when there is none), from the cube
    decision of :func:`judged_situation`'s position: the player on roll's, or after the resigner's
    roll (``context.dice``) its opponent's, on roll after the resigner's best play."""
    kind = context.resignation
    if kind is None:
        return None
    points = _points(context, kind)
    mine = not context.opponent_resigns  # the player on roll resigns
    after_roll = context.dice is not None  # ``decision`` is then the opponent's, now on roll
    match = context.match
    if match is None:
        if after_roll:
            return ResignationAnswer(points, -points / context.cube_value, -decision.best_equity)
        on_roll = _on_roll_value(context, decision.double_take, decision.double_pass, decision.best_equity)
        return ResignationAnswer(points, -points / context.cube_value, on_roll if mine else -on_roll)
    assert decision.match_winning_chances is not None
    nd, dt, dp = decision.match_winning_chances
    on_roll = _on_roll_value(context, dt, dp, min(dt, dp) if decision.should_double else nd)
    if after_roll:
        on_roll = 1.0 - on_roll
    if mine:
        return ResignationAnswer(points, mwc_after(match, match.away, match.opponent_away - points), on_roll)
    return ResignationAnswer(points, 1.0 - mwc_after(match, match.away - points, match.opponent_away),
                             1.0 - on_roll)


def _points(context: Situation, kind: WinKind) -> int:
    owner = None if context.cube_owner is CubeOwner.CENTRED else 0  # only a centred cube matters (Jacoby)
    return context.rules.points(kind, context.cube_value, owner)


def _won_by_play(play: Play, context: Situation) -> ResignationAnswer:
    """The answer to a resignation after a roll whose best play wins the game outright."""
    kind = context.resignation
    assert kind is not None
    points, won = _points(context, kind), _points(context, win_kind(play.after))
    match = context.match
    if match is None:
        return ResignationAnswer(points, -points / context.cube_value, won / context.cube_value, play)
    return ResignationAnswer(points, mwc_after(match, match.away, match.opponent_away - points),
                             mwc_after(match, match.away - won, match.opponent_away), play)


def _on_roll_value(context: Situation, dt: float, dp: float, best: float) -> float:
    """What playing on is worth to the player on roll: after its double on offer, the worse for it
    of take and pass (the taker answers); else ``best``, its proper cube action taken."""
    return min(dt, dp) if context.double_offered else best
