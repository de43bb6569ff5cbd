"""The tutor: before a player's request is submitted, judge it as the analysis would and warn when
it loses enough equity to be marked at the level the player chose.

One decision is judged exactly as ``gammon analyse`` judges it afterwards (the same
:class:`~gammon.analysis.decisions.Analyser`, the same stakes, the same marks), so a warning's
error and mark are the ones the analysis of the finished match reports for that decision:

* a play (``PLAY`` with the dice rolled);
* not doubling: a ``ROLL`` while the player on roll could double and the cube is alive;
* ``DOUBLE``;
* ``TAKE``, ``PASS`` or ``BEAVER`` while a double is offered: each answer against the best of
  those the rules allow (a beaver where the engine would beaver, money with beavers; a beaver
  made where it should not be costs its doubled stake).

Any other request (a resignation, an undo, a request the game would refuse) is not judged.
The terminal uses it now (``gammon play --tutor``); it knows nothing of any front end.

>>> tutor = Tutor(Engine(plies=0), Skill.BAD)
>>> warning = tutor.warning(game.situation(), Request(ActionKind.PLAY, play="24/18 13/11"))
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.analysis.decisions import (
    Analyser,
    AnalysisSettings,
    AnswerName,
    CheckerPlay,
    CubeActionName,
    CubeChoice,
    Decision,
    MatchMoment,
    answer_equities,
    best_answer,
)
from gammon.analysis.marks import Skill
from gammon.cube import Cube
from gammon.engine.cube.decision import CubeAction
from gammon.engine.cube.stakes import Stakes
from gammon.engine.engine import Engine
from gammon.errors import GammonError, cut
from gammon.formats.matchid import gnubg_id
from gammon.game import ActionKind, Request
from gammon.play import Play
from gammon.situation import CubeOwner, Situation

# The levels a player can choose, least severe first; a decision is flagged at its mark or above.
LEVELS = (Skill.DOUBTFUL, Skill.BAD, Skill.VERY_BAD)
_LEVEL_WORDS = {skill.value: skill for skill in LEVELS}
_RANK = {Skill.NONE: 0, Skill.DOUBTFUL: 1, Skill.BAD: 2, Skill.VERY_BAD: 3}
_ANSWERS: dict[ActionKind, CubeActionName] = {
    ActionKind.TAKE: "take",
    ActionKind.PASS: "pass",
    ActionKind.BEAVER: "beaver",
}
_ANSWER_KINDS: dict[AnswerName, ActionKind] = {"take": ActionKind.TAKE, "pass": ActionKind.PASS,
                                               "beaver": ActionKind.BEAVER}


@dataclass(frozen=True)
class TutorWarning:
    """A choice the tutor flags. ``skill``: its mark; ``error``: the equity it loses against the
    engine's best choice in EMG, and ``cost`` the same in match winning chances in a match (points
    for money), as the analysis reports them (``in_match`` says which); ``best``: the engine's
    choice as a request of the same player, ``best_words`` in words; ``chosen_words``: the
    player's choice in words; ``equity`` and ``best_equity``: the cubeful EMG of the player's
    choice and of the best, for the player who chooses; ``decision``: the analysis record."""

    skill: Skill
    error: float
    cost: float
    in_match: bool
    best: Request
    best_words: str
    chosen_words: str
    equity: float
    best_equity: float
    decision: Decision


class Tutor:
    """Judges requests with ``engine`` (its plies, as ``gammon analyse --plies``) and flags those
    marked ``level`` or worse (:data:`LEVELS`, or their words: "doubtful", "bad", "very bad").
    ``settings``: the analysis's candidates per play."""

    def __init__(
        self, engine: Engine, level: Skill | str = Skill.DOUBTFUL, settings: AnalysisSettings | None = None
    ) -> None:
        self.analyser = Analyser(engine, settings)
        self.level = level

    @property
    def level(self) -> Skill:
        return self._level

    @level.setter
    def level(self, level: Skill | str) -> None:
        # the message names the levels by their words: a word is as good as the Skill it names
        chosen = _LEVEL_WORDS.get(level) if isinstance(level, str) else level
        if chosen not in LEVELS:
            raise ValueError(f"a tutor level is doubtful, bad or very bad, got {cut(repr(level))}")
        self._level = chosen

    @property
    def engine(self) -> Engine:
        return self.analyser.engine

    def warning(self, situation: Situation, request: Request) -> TutorWarning | None:
        """A warning when ``request``, about to be submitted in ``situation``, is marked at the
        tutor's level or worse; None when the choice is fine or is not one the tutor judges."""
        decision = self.judge(situation, request)
        if decision is None or _RANK[decision.skill] < _RANK[self.level]:
            return None
        return _warning(decision, request.player, situation)

    def judge(self, situation: Situation, request: Request) -> Decision | None:
        """The analysis of ``request`` in ``situation`` (whatever its mark), or None when it is
        not a decision the analysis judges (or the game would refuse it)."""
        try:  # a kind given as its string ("play") is the same request, as the game takes it
            kind = ActionKind(request.kind)
        except ValueError:
            return None
        if kind is ActionKind.PLAY:
            return self._judge_play(situation, request.play)
        if situation.resignation is not None:
            return None
        if kind in (ActionKind.ROLL, ActionKind.DOUBLE):
            if situation.double_offered or situation.dice is not None or not situation.can_double:
                return None
            return self._judge_double(situation, doubled=kind is ActionKind.DOUBLE)
        if kind in _ANSWERS and situation.double_offered:
            if kind is ActionKind.BEAVER and Cube(situation.cube_value).refusal_to_beaver(situation.rules):
                return None  # the game refuses it: in a match, beavers off, past the cube's limit
            decision = self.engine.cube_decision(situation)
            return Analyser.answer_choice(
                _moment(situation), decision, _ANSWERS[kind], Stakes.seen_in(situation)
            )
        return None

    def _judge_play(self, situation: Situation, play: Play | str | None) -> CheckerPlay | None:
        dice = situation.dice
        if dice is None or situation.is_answer_pending or play is None:
            return None
        position = situation.position
        legal = position.legal_plays(dice)
        try:
            chosen = position.parse_play(play, dice) if isinstance(play, str) else play
        except GammonError:  # not a legal play: the game refuses it, there is nothing to judge
            return None
        if chosen not in legal:
            return None
        return self.analyser.checker_play(
            _moment(situation),
            chosen,
            len(legal),
            Stakes.seen_in(situation),
            Stakes.seen_in(situation, opponent=True),
        )

    def _judge_double(self, situation: Situation, doubled: bool) -> CubeChoice | None:
        # The player on roll may double (judge() checked); a roll is no decision where the engine
        # finds the cube dead (a double cannot gain: the analysis records none), a double always is.
        decision = self.engine.cube_decision(situation)
        if not doubled and decision.action is CubeAction.NO_CUBE:
            return None
        return Analyser.double_choice(_moment(situation), decision, doubled, Stakes.seen_in(situation))


def _moment(situation: Situation) -> MatchMoment:
    """The situation as the analysis's record of a moment: the player on roll is player 0, and
    the game and turn are not known (0)."""
    owner = {CubeOwner.CENTRED: None, CubeOwner.MOVER: 0, CubeOwner.OPPONENT: 1}[situation.cube_owner]
    try:
        position_id = gnubg_id(situation)
    except ValueError:  # a state a Match ID cannot hold (a money cube past 2**15)
        position_id = situation.position.id
    return MatchMoment(
        0,
        0,
        0,
        situation.position,
        situation.dice,
        situation.cube_value,
        owner,
        situation.score,
        situation.match_length,
        situation.crawford_game,
        position_id,
    )


def _warning(decision: Decision, player: int | None, situation: Situation) -> TutorWarning:
    in_match = not situation.is_money
    if isinstance(decision, CheckerPlay):
        best, made = decision.best, decision.made
        assert best is not None and made is not None  # a judged play has its candidates
        return TutorWarning(
            decision.skill,
            decision.error,
            decision.cost,
            in_match,
            Request(ActionKind.PLAY, player, play=best.play),
            str(best.play),
            str(made.play),
            made.equity,
            best.equity,
            decision,
        )
    d = decision.decision
    answers = answer_equities(d)
    best_answer_name = best_answer(d)
    double = answers[best_answer_name]
    if decision.action in ("take", "pass", "beaver"):
        # the decision is the doubler's: the taker's equities are its negation; the error is the
        # difference (a beaver the engine would not make is worth 2 DT, as the analysis values it)
        best_request = Request(_ANSWER_KINDS[best_answer_name], player)
        equity, best_equity = -(double + decision.error), -double
    else:
        double_better = double > d.no_double
        best_request = Request(ActionKind.DOUBLE if double_better else ActionKind.ROLL, player)
        equity = double if decision.action == "double" else d.no_double
        best_equity = max(d.no_double, double)
    return TutorWarning(
        decision.skill,
        decision.error,
        decision.cost,
        in_match,
        best_request,
        decision.best_action,
        decision.action,
        equity,
        best_equity,
        decision,
    )


__all__ = ["LEVELS", "Tutor", "TutorWarning"]
