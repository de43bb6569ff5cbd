"""The rollout judge (benchmarks/strength/rollout_judge.py): games played out for the player who made
the play, the same dice for both plays, and a short run's table."""

from __future__ import annotations

import random

import pytest

from benchmarks.strength import rollout_judge as rj
from gammon import Position

# the player who made the play has one checker left on its 1 point; the other side, on roll, has
# all fifteen on its 13 point: it cannot get one off or into the first player's home board in a roll
WON_GAMMON = Position.from_points({13: 15}, {1: 1})


@pytest.mark.parametrize("seed", range(5))
def test_a_game_played_out_is_scored_for_the_player_who_made_the_play(seed: int) -> None:
    rng = random.Random(seed)
    assert rj._play_out(WON_GAMMON, (rng.randint(1, 6), rng.randint(1, 6)), rng, rj._policy()) == 2


def test_the_other_side_winning_counts_against_the_player() -> None:
    # the same position with the first player still to play from it: the side on roll wins a gammon
    on_roll_wins = WON_GAMMON.flip()
    assert rj._play_out(on_roll_wins, (3, 1), random.Random(1), rj._policy()) == -2


def test_a_play_that_ends_the_game_is_scored_as_it_stands() -> None:
    # the last checker borne off: no game is left to play out (it was played for the other side)
    (bear_off,) = WON_GAMMON.flip().legal_plays((3, 1))
    assert bear_off.after.is_game_over()
    assert rj._play_out(bear_off.after, (3, 1), random.Random(1), rj._policy()) == 2


def test_two_plays_rolled_out_on_the_same_dice() -> None:
    start = Position.initial().legal_plays((3, 1))
    eight_six, thirteen = (p.after.id for p in start if str(p) in ("8/5 6/5", "24/23 13/10"))
    assert rj.rollout_difference((eight_six, eight_six, 36, 3)) == 0.0  # the same dice: no noise
    assert rj.rollout_difference((WON_GAMMON.id, WON_GAMMON.flip().id, 8, 3)) == -4.0
    assert rj.rollout_difference((eight_six, thirteen, 36, 3)) != 0.0


def test_a_short_run_prints_the_judge_and_the_rollouts_by_kind(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["rollout_judge.py", "--decisions", "30", "--trials", "4", "--workers", "1",
            "--players", "engine:0", "gnubg:0", "--judge", "2"]
    monkeypatch.setattr("sys.argv", argv)
    rj.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("gnubg:0 - engine:0") and "4 trials a play" in out[0]
    sections = [line for line in out if not line.startswith(" ")]
    assert sections[2:5] == ["judge", "rollout", "judge - rollout"]
    alls = [line.split() for line in out if line.strip().startswith("all")]
    assert len(alls) == 3 and all(row[1] == "30" for row in alls)
    differ = int(alls[0][2])
    assert 0 < differ < 30  # the two players part on some decisions and agree on others


def test_an_unknown_player_is_named() -> None:
    with pytest.raises(ValueError, match="'wildbg:1'"):
        rj.chooser("wildbg:1", None)  # type: ignore[arg-type]
