"""The analysis of one decision: a checker play, a cube action (double or not, take or pass), or
the luck of a roll, each as a frozen record.

Definitions follow GNU Backgammon's analysis (analysis.c), with every equity the cubeful EMG of the
player concerned (see :mod:`gammon.engine.cube.stakes`):

* checker play: every legal play is scored at 0 ply; the best ``candidates`` within ``within`` of
  the best (and the play made) are evaluated at the engine's plies. The error is the equity of the
  best play minus that of the play made. A play is unforced when there is more than one legal play.
* cube, at each turn where the player could usefully double (never before the opening play): the
  engine's no double (ND), double/take (DT) and double/pass (DP) equities, and for money with
  beavers, where the engine says the taker should beaver, double/beaver (DB = 2 DT: the cube
  twice as high, the taker owning it). The taker's answers are worth DT, DP and DB (the doubler's
  view, DB only where the rules let it beaver); doubling is worth the taker's best answer, the
  least of them, ``D``; the best action ``max(ND, D)``. Not doubling loses ``best - ND``, doubling
  ``best - D``; an answer loses its value minus ``D`` (a take ``DT - D``, a beaver ``2 DT - D``).
  A losing take or beaver is a wrong take, a losing pass a wrong pass (GNU Backgammon leaves
  beavers unanalysed; here they are judged and counted among the takes). A no-double is close
  when doubling costs less than 0.16.
* luck of a roll: the equity of the best play of the roll made minus the average over the 36 rolls
  (at 0 ply); for the opening roll, over the 30 non-doubles, half of them rolled by the opponent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gammon.analysis.marks import CLOSE_CUBE, Luck, Skill, luck_mark, skill_mark
from gammon.dice import Dice
from gammon.engine.cube.decision import CubeDecision
from gammon.engine.cube.stakes import Stakes
from gammon.engine.engine import Engine, Hint
from gammon.engine.net.evaluator import Probabilities
from gammon.errors import cut
from gammon.play import Play
from gammon.position import Position

NON_DOUBLES = tuple((a, b) for a in range(2, 7) for b in range(1, a))
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))  # the 21 rolls, larger die first


@dataclass(frozen=True)
class AnalysisSettings:
    """``candidates``: plays evaluated at the engine's plies (the best by 0-ply equity, within
    ``within`` EMG of the best; the play made is always added); ``shown``: plays listed per checker
    decision, the next best at 0 ply filling the list after those (as GNU Backgammon and eXtreme
    Gammon list the best five); ``luck_candidates``: plays per roll (the best by 0-ply cubeless
    equity) whose cubeful equities are compared to value the roll."""

    candidates: int = 4
    within: float = 0.16
    luck_candidates: int = 3
    shown: int = 5

    def __post_init__(self) -> None:
        for name in ("candidates", "luck_candidates", "shown"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"AnalysisSettings.{name} must be a whole number >= 1, got {v!r}")
        if not self.within >= 0:
            raise ValueError(f"AnalysisSettings.within must be >= 0, got {self.within!r}")


@dataclass(frozen=True)
class MatchMoment:
    """Where in the match a decision was taken: game number (from 1), turn number in the game (from
    1, each player's turn counted), the player, the position from its view (before the roll for
    cube actions and luck, before the play for checker plays), the dice (None before the roll), the
    cube and the score before the game, the GNU Backgammon ``PositionID:MatchID`` of the moment,
    and the move number as ``.mat`` files and GNU Backgammon number moves (``move``: the line of the
    game that shows it, each line holding both players' halves; see
    :func:`gammon.analysis.walk.move_numbers`).

    Unlike a :class:`~gammon.situation.Situation` (one decision seen by the player on roll) it
    names the players as the match does (0 and 1: ``player``, ``cube_owner``, ``score``), and
    places the decision in the match (``game``, ``move``), which is what a report lists."""

    game: int
    turn: int
    player: int
    position: Position
    dice: Dice | None
    cube_value: int
    cube_owner: int | None
    score: tuple[int, int]
    match_length: int
    crawford: bool
    gnubg_id: str
    move: int = 0


@dataclass(frozen=True)
class Candidate:
    """A play with its cubeful equity (EMG) and cubeless chances for the player who makes it, and
    the plies they come from."""

    play: Play
    equity: float
    probabilities: Probabilities
    plies: int


@dataclass(frozen=True)
class CheckerPlay:
    """A checker play. ``played`` None: no legal play (the turn passed). ``candidates`` are best
    first and include the play made: those evaluated at the engine's plies, then the next best at 0
    ply up to :attr:`AnalysisSettings.shown` plays (never ranked above a deeper one). ``error``
    (EMG, >= 0) and ``cost`` (MWC in a match, points for money) are what the play made lost
    against the best. ``chance`` is player 0's chance after the
    play: its match winning chance in a match, its chance to win the game for money."""

    context: MatchMoment
    played: Play | None
    legal_plays: int
    candidates: tuple[Candidate, ...]
    error: float
    cost: float
    skill: Skill
    chance: float | None

    @property
    def unforced(self) -> bool:
        return self.legal_plays > 1

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    @property
    def made(self) -> Candidate | None:
        """The play made, as a candidate."""
        return next((c for c in self.candidates if c.play == self.played), None)


CubeActionName = Literal["no double", "double", "take", "pass", "beaver"]
AnswerName = Literal["take", "pass", "beaver"]
CubeErrorKind = Literal[
    "missed double below CP",
    "missed double above CP",
    "wrong double below DP",
    "wrong double above TG",
    "wrong take",
    "wrong pass",
]


def answer_equities(decision: CubeDecision) -> dict[AnswerName, float]:
    """What each answer the taker may give is worth to the doubler (EMG, the cube before the
    double): take DT, pass DP, and where the engine says the taker should beaver (money with
    beavers, the cube's limit allowing it), beaver 2 DT: the same game at twice the cube, still
    the taker's. The engine names a beaver exactly where it is right (DT < 0), and a beaver that
    is not right is never the best answer, so the others need no DB."""
    values: dict[AnswerName, float] = {"take": decision.double_take, "pass": decision.double_pass}
    if decision.beaver:
        values["beaver"] = 2.0 * decision.double_take
    return values


def best_answer(decision: CubeDecision) -> AnswerName:
    """The taker's best answer: the least for the doubler (a take on a tie with the pass, as
    :meth:`CubeDecision.take` has it; a beaver over a take whenever it is named)."""
    values = answer_equities(decision)
    if "beaver" in values:
        return "beaver"
    return "take" if values["take"] <= values["pass"] else "pass"


@dataclass(frozen=True)
class CubeChoice:
    """A cube action: the doubler's no double or double, the taker's take, pass or beaver.
    ``decision`` holds ND, DT and DP from the doubler's view (the cube before the double).
    ``close``: an actual double, take or pass, or a close no-double; ``kind`` names the error
    (None when the action was right)."""

    context: MatchMoment
    action: CubeActionName
    decision: CubeDecision
    error: float
    cost: float
    skill: Skill
    close: bool
    kind: CubeErrorKind | None

    @property
    def best_action(self) -> str:
        """What the right action was, in words."""
        d = self.decision
        if self.action in ("take", "pass", "beaver"):
            return best_answer(d)
        double = answer_equities(d)[best_answer(d)]
        if double > d.no_double:
            return "double"
        return "no double, too good" if d.no_double > d.double_pass else "no double"


@dataclass(frozen=True)
class RollLuck:
    """The luck of a roll for the player who rolled it (EMG; ``cost`` in MWC or points)."""

    context: MatchMoment
    dice: Dice
    luck: float
    cost: float
    mark: Luck


Decision = CheckerPlay | CubeChoice


class Analyser:
    """Analyses single decisions with ``engine`` (its plies for plays and cube actions; 0 ply for
    luck and the first pass over the plays, on the same evaluator)."""

    def __init__(self, engine: Engine, settings: AnalysisSettings | None = None) -> None:
        if not isinstance(engine, Engine):
            raise ValueError(f"engine must be an Engine, got {cut(repr(engine))}")
        if settings is not None and not isinstance(settings, AnalysisSettings):
            raise ValueError(f"settings must be AnalysisSettings, got {cut(repr(settings))}")
        self.engine = engine
        self.zero = engine if engine.plies == 0 else Engine(plies=0, evaluator=engine.evaluator)
        self.settings = settings or AnalysisSettings()
        self._opening: dict[tuple[Stakes, Stakes], dict[tuple[int, int], float]] = {}

    # --- checker play ------------------------------------------------------------------------

    @staticmethod
    def _play_equities(hints: Sequence[Hint], opponent: Stakes) -> list[float]:
        """The mover's equity after each hinted play: the opponent is on roll there, with its own
        cube options."""
        theirs = opponent.equities([h.play.after for h in hints], [h.probabilities.flip() for h in hints])
        return [-e for e in theirs]

    def _deep(self, play: Play, opponent: Stakes) -> Candidate:
        theirs = self.engine.evaluate(play.after)
        return Candidate(play, -opponent.equity(play.after, theirs), theirs.flip(), self.engine.plies)

    def checker_play(
        self, context: MatchMoment, played: Play | None, legal_plays: int, mover: Stakes, opponent: Stakes
    ) -> CheckerPlay:
        """Analyse ``played`` (one of ``legal_plays`` plays of ``context``'s position and dice)."""
        if played is None:
            return CheckerPlay(context, None, 0, (), 0.0, 0.0, Skill.NONE, None)
        if legal_plays == 1:
            made = self._deep(played, opponent)
            return CheckerPlay(context, played, 1, (made,), 0.0, 0.0, Skill.NONE, self._chance(made, mover))
        assert context.dice is not None
        s = self.settings
        hints = self.zero.hint(context.position, context.dice, n=legal_plays)
        scored = sorted(zip(self._play_equities(hints, opponent), hints), key=lambda t: -t[0])
        top = scored[0][0]
        chosen = [(eq, h) for eq, h in scored[: s.candidates] if eq >= top - s.within]
        if not any(h.play == played for _, h in chosen):
            chosen += [(eq, h) for eq, h in scored if h.play == played]
        if self.engine.plies == 0:
            candidates = [Candidate(h.play, eq, h.probabilities, 0) for eq, h in chosen]
        else:
            candidates = [self._deep(h.play, opponent) for _, h in chosen]
        candidates.sort(key=lambda c: -c.equity)
        made = next(c for c in candidates if c.play == played)
        error = max(0.0, candidates[0].equity - made.equity)
        # the list a player reads: the next best by 0 ply fill it, after the deeper ones (the error
        # and the ranking of those stand: a 0-ply figure is not compared with a deeper one)
        listed = {c.play for c in candidates}
        extra = [Candidate(h.play, eq, h.probabilities, 0) for eq, h in scored if h.play not in listed]
        candidates += extra[: max(0, s.shown - len(candidates))]
        if self.engine.plies == 0:  # all at one depth: one ranking
            candidates.sort(key=lambda c: -c.equity)
        return CheckerPlay(
            context,
            played,
            legal_plays,
            tuple(candidates),
            error,
            mover.cost(error),
            skill_mark(error),
            self._chance(made, mover),
        )

    @staticmethod
    def _chance(made: Candidate, mover: Stakes) -> float:
        mine = mover.mwc(made.equity) if mover.match is not None else made.probabilities.win
        return mine if mover.player == 0 else 1.0 - mine

    # --- cube --------------------------------------------------------------------------------

    @staticmethod
    def double_choice(
        context: MatchMoment, decision: CubeDecision, doubled: bool, doubler: Stakes
    ) -> CubeChoice:
        """The doubler's action: ``doubled`` or not, judged by ``decision``."""
        nd, dt, dp = decision.no_double, decision.double_take, decision.double_pass
        double = answer_equities(decision)[best_answer(decision)]
        best = max(nd, double)
        kind: CubeErrorKind | None = None
        if doubled:
            error = best - double
            if error > 0:
                kind = "wrong double above TG" if nd > dp else "wrong double below DP"
        else:
            error = best - nd
            if error > 0:
                kind = "missed double above CP" if dt > dp else "missed double below CP"
        close = doubled or best - double < CLOSE_CUBE
        return CubeChoice(
            context,
            "double" if doubled else "no double",
            decision,
            error,
            doubler.cost(error),
            skill_mark(error),
            close,
            kind,
        )

    @staticmethod
    def answer_choice(
        context: MatchMoment, decision: CubeDecision, action: CubeActionName, doubler: Stakes
    ) -> CubeChoice:
        """The taker's answer (``take``, ``pass`` or ``beaver``) to a double: what it gives the
        doubler beyond the taker's best answer (:func:`answer_equities`)."""
        values = answer_equities(decision)
        if action == "beaver":  # valued also where the engine would not beaver: 2 DT all the same
            chosen = 2.0 * decision.double_take
        else:
            chosen = decision.double_pass if action == "pass" else decision.double_take
        error = max(0.0, chosen - values[best_answer(decision)])
        kind: CubeErrorKind | None = None
        if error > 0:
            kind = "wrong pass" if action == "pass" else "wrong take"
        return CubeChoice(
            context, action, decision, error, doubler.cost(error), skill_mark(error), True, kind
        )

    # --- luck --------------------------------------------------------------------------------

    def _roll_values(
        self, position: Position, rolls: Sequence[tuple[int, int]], opponent: Stakes
    ) -> dict[tuple[int, int], float]:
        """EMG of the player on roll after playing each of ``rolls`` as well as 0 ply can (the
        cube valued for all the rolls' plays at once)."""
        afters: list[Position] = []
        theirs: list[Probabilities] = []
        spans = []
        for roll in rolls:
            hints = self.zero.hint(position, roll, n=self.settings.luck_candidates)
            start = len(afters)
            if not hints:  # no legal play: the turn passes
                after = position.flip()
                afters.append(after)
                theirs.append(self.zero.evaluate(after))
            for h in hints:
                afters.append(h.play.after)
                theirs.append(h.probabilities.flip())
            spans.append((start, len(afters)))
        equities = opponent.equities(afters, theirs)
        return {roll: max(-e for e in equities[a:b]) for roll, (a, b) in zip(rolls, spans)}

    def luck(
        self, context: MatchMoment, dice: Dice, roller: Stakes, opponent: Stakes, opening: bool
    ) -> RollLuck:
        """The luck of ``dice`` rolled in ``context``'s position; ``opening`` for the opening roll
        (the position is then the starting position for both players)."""
        position = context.position
        actual = (max(dice), min(dice))
        if opening and actual[0] != actual[1]:
            key = (roller, opponent)
            values = self._opening.get(key)
            if values is None:
                mine = self._roll_values(position, NON_DOUBLES, opponent)
                theirs = [-v for v in self._roll_values(position, NON_DOUBLES, roller).values()]
                mean = (sum(mine.values()) + sum(theirs)) / (2 * len(NON_DOUBLES))
                values = self._opening[key] = {r: v - mean for r, v in mine.items()}
            luck = values[actual]
        else:
            values = self._roll_values(position, ROLLS, opponent)
            mean = sum(v * (1 if r[0] == r[1] else 2) for r, v in values.items()) / 36.0
            luck = values[actual] - mean
        return RollLuck(context, dice, luck, roller.cost(luck), luck_mark(luck))
