"""The tutor judges a request before it is submitted exactly as the analysis marks it afterwards:
it flags a blunder, stays quiet for the best choice, judges the cube (a missed double, a wrong
take or pass) and agrees with ``analyse`` on the decisions of a real match."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from gammon.analysis import CheckerPlay, CubeChoice, Skill, analyse
from gammon.analysis.tutor import Tutor, TutorWarning
from gammon.dice import ScriptedDice
from gammon.engine.engine import Engine
from gammon.formats import read_mat, to_match
from gammon.game import ActionKind, Double, Game, Pass, PlayMade, Request, Roll, Take
from gammon.position import Position
from gammon.rules import Rules
from gammon.situation import CubeOwner, MatchScore, Situation

REAL_MATCH = Path(__file__).parents[1] / "data/mat/real/gnubg/gnubgparser-selfplay_drops_7p.mat"

# Bear-offs of 15 checkers a side (mover 60 pips): the bear-off database makes them exact.
DOUBLE_TAKE = Position.from_id("dncnAADu7g4AAA")  # opponent 66 pips: double, take
DOUBLE_PASS = Position.from_id("3N05AADu7g4AAA")  # opponent 78 pips: double, pass
OPENING_31 = Situation(Position.initial(), dice=(3, 1))


@lru_cache(maxsize=1)
def engine() -> Engine:
    return Engine(plies=0)


def tutor(level: Skill = Skill.DOUBTFUL) -> Tutor:
    return Tutor(engine(), level)


def play(text: str, player: int | None = 0) -> Request:
    return Request(ActionKind.PLAY, player, play=text)


def test_a_blunder_is_flagged_with_the_best_play() -> None:
    warning = tutor().warning(OPENING_31, play("24/21 24/23"))
    assert isinstance(warning, TutorWarning)
    assert warning.skill is not Skill.NONE and warning.error > 0.03
    assert warning.best == Request(ActionKind.PLAY, 0, play=Position.initial().parse_play("8/5 6/5", (3, 1)))
    assert warning.best_words == "8/5 6/5" and warning.chosen_words == "24/23 24/21"
    assert warning.best_equity - warning.equity == pytest.approx(warning.error)
    assert not warning.in_match and warning.cost == pytest.approx(warning.error)  # money, cube 1


def test_the_best_play_and_a_small_error_pass_quietly() -> None:
    t = tutor()
    assert t.warning(OPENING_31, play("8/5 6/5")) is None
    assert (
        t.warning(
            OPENING_31, Request(ActionKind.PLAY, 0, play=OPENING_31.position.parse_play("6/5 8/5", (3, 1)))
        )
        is None
    )  # a Play as well as its notation
    # the level: a play is flagged only when marked at it or worse
    opening_65 = Situation(Position.initial(), dice=(6, 5))
    doubtful = t.judge(opening_65, play("24/18 13/8"))
    assert doubtful is not None and doubtful.skill is Skill.DOUBTFUL
    assert t.warning(opening_65, play("24/18 13/8")) is not None
    t.level = Skill.BAD
    assert t.warning(opening_65, play("24/18 13/8")) is None
    assert t.warning(OPENING_31, play("24/21 24/23")) is not None  # very bad


def test_what_is_not_a_judged_decision_passes() -> None:
    t = tutor()
    assert t.warning(OPENING_31, play("24/18")) is None  # not legal: the game refuses it
    assert t.warning(OPENING_31, Request(ActionKind.RESIGN, 0, win_kind=1)) is None
    assert t.warning(Situation(DOUBLE_TAKE), Request(ActionKind.TAKE, 1)) is None  # no double offered
    owned = Situation(DOUBLE_TAKE, cube_value=2, cube_owner=CubeOwner.OPPONENT)
    assert t.warning(owned, Request(ActionKind.ROLL, 0)) is None  # the cube is not the mover's


def test_a_clear_double_not_doubled_is_flagged() -> None:
    s = Situation(DOUBLE_TAKE)
    warning = tutor().warning(s, Request(ActionKind.ROLL, 0))
    assert warning is not None and warning.skill is Skill.VERY_BAD
    assert warning.best == Request(ActionKind.DOUBLE, 0) and warning.best_words == "double"
    assert warning.chosen_words == "no double"
    assert tutor().warning(s, Request(ActionKind.DOUBLE, 0)) is None


def test_a_kind_given_as_its_string_is_judged_as_the_game_takes_it() -> None:
    """``Request("play", ...)`` plays as ``ActionKind.PLAY`` in a Game; the tutor let its blunder
    pass (an identity test), and judged a ``"double"`` as no double."""
    t = tutor()
    blunder = t.warning(OPENING_31, Request("play", 0, play="24/21 24/23"))  # type: ignore[arg-type]
    assert blunder is not None and blunder == t.warning(OPENING_31, play("24/21 24/23"))
    s = Situation(DOUBLE_TAKE)
    assert t.warning(s, Request("double", 0)) is None  # type: ignore[arg-type]
    assert t.warning(s, Request("roll", 0)) == t.warning(s, Request(ActionKind.ROLL, 0))  # type: ignore[arg-type]
    assert t.warning(s, Request("dance", 0)) is None  # type: ignore[arg-type]  # no action at all


def test_a_pass_taken_and_a_take_passed_are_flagged() -> None:
    t = tutor()
    pass_offered = Situation(DOUBLE_PASS, double_offered=True)
    warning = t.warning(pass_offered, Request(ActionKind.TAKE, 1))
    assert warning is not None and warning.skill is Skill.VERY_BAD
    assert warning.best == Request(ActionKind.PASS, 1) and warning.best_words == "pass"
    assert warning.equity < warning.best_equity == pytest.approx(-1.0)  # the taker's equities
    assert t.warning(pass_offered, Request(ActionKind.PASS, 1)) is None
    take_offered = Situation(DOUBLE_TAKE, double_offered=True)
    warning = t.warning(take_offered, Request(ActionKind.PASS, 1))
    assert warning is not None and warning.best == Request(ActionKind.TAKE, 1)
    assert t.warning(take_offered, Request(ActionKind.TAKE, 1)) is None


def test_in_a_match_the_error_is_also_in_match_winning_chances() -> None:
    s = Situation.at(DOUBLE_TAKE, match=MatchScore(5, 5))
    warning = tutor().warning(s, Request(ActionKind.ROLL, 0))
    assert warning is not None and warning.in_match
    assert 0 < warning.cost < warning.error  # MWC: half the EMG swing of a 1-cube game at most


def test_the_level_is_one_of_the_marks() -> None:
    with pytest.raises(ValueError, match="doubtful, bad or very bad"):
        Tutor(engine(), Skill.NONE)


def test_the_level_may_be_given_by_the_words_the_refusal_names() -> None:
    assert Tutor(engine(), "bad").level is Skill.BAD
    assert Tutor(engine(), "very bad").level is Skill.VERY_BAD
    t = Tutor(engine(), "doubtful")
    assert t.level is Skill.DOUBTFUL
    t.level = "bad"
    assert t.level is Skill.BAD
    for word in ("none", "Bad", "x" * 500):
        with pytest.raises(ValueError, match="doubtful, bad or very bad") as refused:
            Tutor(engine(), word)
        assert len(str(refused.value)) < 200


def _requests(game: Game) -> list[tuple[Situation, Request]]:
    """Each action of ``game`` as the request that made it, in the situation it was made in."""
    replay = Game(game.rules, None, game.score, game.crawford_game)
    out = []
    for action in game.history:
        request = None
        if isinstance(action, Roll) and not action.opening:
            request = Request(ActionKind.ROLL, action.player)
        elif isinstance(action, PlayMade) and action.play is not None:
            request = play(str(action.play), action.player)
        elif isinstance(action, Double | Take | Pass):
            kind = {Double: ActionKind.DOUBLE, Take: ActionKind.TAKE, Pass: ActionKind.PASS}[type(action)]
            request = Request(kind, action.player)
        if request is not None:
            out.append((replay.situation(), request))
        replay.apply(action)
    return out


def test_the_tutor_agrees_with_the_analysis_of_a_real_match() -> None:
    match = to_match(read_mat(REAL_MATCH.read_text()))
    games = match.games[:3]  # a drop, a double passed after a play, a take
    analysis = analyse(games, engine())
    t = tutor()
    kinds: set[str] = set()
    marked = 0
    for game, analysed in zip(games, analysis.games):
        theirs = [d for d in analysed.decisions if not (isinstance(d, CheckerPlay) and d.played is None)]
        mine = [d for d in (t.judge(s, r) for s, r in _requests(game)) if d is not None]
        assert len(mine) == len(theirs)
        for m, a in zip(mine, theirs):
            assert type(m) is type(a)
            assert (m.error, m.cost, m.skill) == pytest.approx((a.error, a.cost, a.skill))
            kinds.add(m.action if isinstance(m, CubeChoice) else "play")
            marked += m.skill is not Skill.NONE
    assert {"play", "no double", "double", "take", "pass"} <= kinds and marked > 0
    assert match.rules == Rules(match_length=7)


def test_a_roll_with_a_dead_cube_is_not_judged_as_the_analysis_does_not_judge_it() -> None:
    """3-0 in a 5-point match, player 0 owns the cube at 2: a double cannot gain it anything (the
    cube is dead), so rolling is no decision for the analysis, nor for the tutor."""
    game = Game(Rules(match_length=5), ScriptedDice([(3, 1), (2, 1), (6, 5), (4, 2)]), (3, 0))
    game.roll()
    game.play("8/5 6/5")
    game.double()
    game.take()
    game.roll()
    game.play(game.legal_plays()[0])
    situation = game.situation()
    assert situation.can_double and situation.cube_owner is CubeOwner.MOVER
    assert tutor().judge(situation, Request(ActionKind.ROLL, 0)) is None
    game.roll()
    game.play(game.legal_plays()[0])
    analysed = analyse([game], engine())
    assert [d.action for d in analysed.games[0].cube_choices] == ["double", "take"]
    # a double is still judged, as the analysis judges every double made
    assert tutor().judge(situation, Request(ActionKind.DOUBLE, 0)) is not None


def test_a_beaver_where_a_take_is_right_is_flagged_at_its_doubled_stake() -> None:
    take_offered = Situation(DOUBLE_TAKE, double_offered=True, rules=Rules(beavers=True))
    dt = engine().cube_decision(take_offered).double_take  # about +0.82 for the doubler
    warning = tutor().warning(take_offered, Request(ActionKind.BEAVER, 1))
    assert warning is not None and warning.skill is Skill.VERY_BAD
    assert warning.error == pytest.approx(dt)  # the beaver doubles what the taker loses
    assert warning.best == Request(ActionKind.TAKE, 1) and warning.chosen_words == "beaver"
    assert (warning.equity, warning.best_equity) == pytest.approx((-2 * dt, -dt))
    assert tutor().warning(take_offered, Request(ActionKind.TAKE, 1)) is None


def test_a_take_where_a_beaver_is_right_is_flagged_and_the_beaver_is_not() -> None:
    # the flipped bear-off: the doubler is 6 pips behind, its double/take below zero
    beaver_offered = Situation(DOUBLE_TAKE.flip(), double_offered=True, rules=Rules(beavers=True))
    decision = engine().cube_decision(beaver_offered)
    assert decision.beaver and decision.double_take < 0
    t = tutor()
    assert t.warning(beaver_offered, Request(ActionKind.BEAVER, 1)) is None
    warning = t.warning(beaver_offered, Request(ActionKind.TAKE, 1))
    assert warning is not None and warning.best == Request(ActionKind.BEAVER, 1)
    assert warning.best_words == "beaver" and warning.error == pytest.approx(-decision.double_take)
    # without beavers the take is right
    assert t.warning(Situation(DOUBLE_TAKE.flip(), double_offered=True), Request(ActionKind.TAKE, 1)) is None


def test_a_beaver_the_game_refuses_is_not_judged() -> None:
    t = tutor()
    for situation in (Situation(DOUBLE_TAKE, double_offered=True),  # beavers off
                      Situation.at(DOUBLE_TAKE, match=MatchScore(5, 5)).replace(double_offered=True)):
        assert t.judge(situation, Request(ActionKind.BEAVER, 1)) is None
