"""``gammon rollout`` stopped by Ctrl-C prints the estimates of the trials done before the stop is
reported: a long rollout's work was lost with a bare 'Interrupted.'."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gammon import Position
from gammon.cli.main import build_parser
from gammon.cli.rollout import run_rollout
from gammon.engine.engine import Engine
from gammon.engine.rollout.rollouts import RolloutProgress
from gammon.formats.ids import read_id

START = "4HPwATDgc/ABMA"
FAST = ["--trials", "72", "--truncate", "2", "--seed", "5", "--workers", "1"]


class StoppedEngine(Engine):
    """An engine whose rollouts are interrupted (as by Ctrl-C) after their first batch of trials."""

    def __init__(self, at_once: bool = False, plies: int = 0) -> None:
        super().__init__(plies=plies)
        self.at_once = at_once  # interrupted before the first batch ends instead
        self.reported: list[RolloutProgress] = []

    def _stop_after_one(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        report = kwargs["progress"]

        def stop(p: RolloutProgress) -> None:
            if self.at_once:
                raise KeyboardInterrupt
            report(p)
            self.reported.append(p)
            raise KeyboardInterrupt

        return {**kwargs, "progress": stop}

    def rollout(self, *args: Any, **kwargs: Any) -> Any:
        return super().rollout(*args, **self._stop_after_one(kwargs))

    def rollout_plays(self, *args: Any, **kwargs: Any) -> Any:
        return super().rollout_plays(*args, **self._stop_after_one(kwargs))

    def rollout_cube(self, *args: Any, **kwargs: Any) -> Any:
        return super().rollout_cube(*args, **self._stop_after_one(kwargs))


def interrupted(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, RolloutProgress]:
    engine = StoppedEngine()
    with pytest.raises(KeyboardInterrupt):  # still reported as an interruption (exit 130)
        run_rollout(build_parser().parse_args(["rollout", *argv, *FAST]), engine=engine)
    [reported] = engine.reported
    assert reported.trials == 36  # the first batch of two
    return capsys.readouterr().out, reported


def test_an_interrupted_position_rollout_prints_its_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    out, p = interrupted([START], capsys)
    lines = out.splitlines()
    assert lines[0] == f"Rollout of {START} (seed 5) interrupted after 36 of 72 trials; the estimates so far:"
    assert lines[1] == f"  equity: {p.equity[0]:+.4f} ± {p.standard_error[0]:.4f}"


def test_an_interrupted_plays_rollout_names_each_play(capsys: pytest.CaptureFixture[str]) -> None:
    out, p = interrupted([START, "--dice", "31", "-n", "2"], capsys)
    plays = [str(h.play) for h in Engine(plies=0).hint(Position.from_id(START), (3, 1), 2)]
    assert out.splitlines()[1:] == [f"  {play}: {e:+.4f} ± {se:.4f}"
                                    for play, e, se in zip(plays, p.equity, p.standard_error)]


def test_an_interrupted_cube_rollout_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    out, p = interrupted([START, "--cube", "--json"], capsys)
    data = json.loads(out)
    assert data["interrupted"] is True and data["kind"] == "cube"
    assert (data["trials"], data["seed"]) == (36, 5)
    assert data["context"]["position_id"] == START
    assert [e["name"] for e in data["estimates"]] == ["no_double", "double_take"]
    assert [e["equity"] for e in data["estimates"]] == list(p.equity)
    assert [e["standard_error"] for e in data["estimates"]] == list(p.standard_error)


def test_a_rollout_interrupted_before_its_first_batch_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(KeyboardInterrupt):
        run_rollout(build_parser().parse_args(["rollout", START, *FAST]), engine=StoppedEngine(at_once=True))
    assert capsys.readouterr().out == (
        f"Rollout of {START} (seed 5) interrupted before its first trials were done: no estimates yet\n")
    with pytest.raises(KeyboardInterrupt):
        run_rollout(build_parser().parse_args(["rollout", START, *FAST, "--json"]),
                    engine=StoppedEngine(at_once=True))
    data = json.loads(capsys.readouterr().out)
    assert (data["interrupted"], data["trials"], data["estimates"]) == (True, 0, [])


def test_an_interrupted_rollout_names_the_seed_it_drew(capsys: pytest.CaptureFixture[str]) -> None:
    # without --seed the dice are drawn at random: the seed is what reruns the same trials
    argv = ["rollout", START, "--trials", "72", "--truncate", "2", "--workers", "1"]
    engine = StoppedEngine()
    with pytest.raises(KeyboardInterrupt):
        run_rollout(build_parser().parse_args([*argv, "--json"]), engine=engine)
    data = json.loads(capsys.readouterr().out)
    seed = data["seed"]
    assert isinstance(seed, int) and data["estimates"][0]["equity"] == engine.reported[0].equity[0]
    again = StoppedEngine()
    with pytest.raises(KeyboardInterrupt):
        run_rollout(build_parser().parse_args([*argv, "--seed", str(seed)]), engine=again)
    assert again.reported == engine.reported
    assert capsys.readouterr().out.startswith(f"Rollout of {START} (seed {seed}) interrupted after 36 of 72")


def test_an_interrupted_plays_rollout_in_a_match_names_the_plays_at_the_score(
        capsys: pytest.CaptureFixture[str]) -> None:
    # at double match point the engine ranks bar/18* first, for money bar/20 13/11: the estimates
    # came in the match's order but were named in the money order, so two plays swapped values
    dmp = "TdbBATDCZ/ABQQ:MAFgACAAEAAA"
    out, p = interrupted([dmp, "--dice", "52", "-n", "2"], capsys)
    plays = [str(h.play) for h in Engine(plies=0).hint(read_id(dmp), (5, 2), 2)]
    assert plays[0] == "bar/18*"
    assert out.splitlines()[1:] == [f"  {play}: {e:+.4f} ± {se:.4f}"
                                    for play, e, se in zip(plays, p.equity, p.standard_error)]


def test_an_interrupted_plays_rollout_as_json_says_the_roll(capsys: pytest.CaptureFixture[str]) -> None:
    # the roll comes from --dice, not the ID (whose context has none): the finished rollout's
    # JSON gives it, the interrupted one did not
    out, p = interrupted([START, "--dice", "31", "-n", "2", "--json"], capsys)
    data = json.loads(out)
    assert data["context"]["dice"] is None and data["dice"] == [3, 1]
    assert [e["equity"] for e in data["estimates"]] == list(p.equity)


def test_a_2_ply_rollout_interrupted_keeps_its_first_trial(capsys: pytest.CaptureFixture[str]) -> None:
    # a 2-ply trial takes about a second: its batches are one trial each, so Ctrl-C keeps every trial
    # but the one being played (a batch of 36 to 216 trials was minutes of work lost)
    engine = StoppedEngine(plies=2)
    with pytest.raises(KeyboardInterrupt):
        run_rollout(build_parser().parse_args(["rollout", START, *FAST, "--plies", "2"]), engine=engine)
    [reported] = engine.reported
    assert reported.trials == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"Rollout of {START} (seed 5) interrupted after 1 of 72 trials; the estimates so far:"
    assert out[1] == f"  equity: {reported.equity[0]:+.4f} ± n/a"  # one trial has no standard error
