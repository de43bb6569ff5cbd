"""The checker-play judge (benchmarks/strength/judge.py): GNU Backgammon's choices matched to legal
plays, and a short run with the 3-ply judge on the three-kind set."""

from __future__ import annotations

import gnubg
import pytest

from benchmarks.strength import judge as jd
from gammon import Position
from gammon.engine.net.neural import NeuralEvaluator


def test_gnubgs_bear_off_choice_is_its_whole_play_though_pypi_gnubg_cuts_the_tuple() -> None:
    position = Position.from_points({6: 2, 5: 1, 3: 1}, {6: 5, 5: 5, 4: 5})
    plays = position.legal_plays((6, 5))
    gnubgs = jd.Gnubg(3)
    top = gnubg.findbestmoves(position.to_gnubg_board(), gnubgs.cube, gnubgs.contexts[2], (6, 5))[0]
    assert top["move"] == (6,)  # cut at the first bear-off's 0: the tuple alone names no play
    chosen = gnubgs.choice(position, (6, 5), plays, 2)
    assert [str(play) for play in plays if play.after == chosen] == ["6/off 5/off"]


def test_a_short_3_ply_run_judges_gnubg_2_ply_beside_gammon_by_kind(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["judge.py", "--set", "classes", "--judge", "3", "--decisions", "6", "--players", "0"]
    monkeypatch.setattr("sys.argv", argv)
    jd.main()
    out = capsys.readouterr().out
    assert "6 decisions (judge_set_classes.tsv" in out and "GNU Backgammon 3-ply cubeless" in out
    assert "(2 contact, 2 crashed, 2 race decisions;" in out
    rows = {
        line[:20].strip(): line[20:].split()
        for line in out.splitlines()
        if line.startswith(("Engine", "gnubg"))
    }
    assert set(rows) == {"Engine(plies=0)", "gnubg 0-ply", "gnubg 2-ply"}
    assert all(float(cells[0]) >= 0.0 for cells in rows.values())  # mean losses: none negative
    assert rows["gnubg 0-ply"][-2] == "+-" and rows["gnubg 2-ply"][-1].endswith(
        "ms"
    )  # differences from 2-ply


def test_a_baseline_net_is_judged_on_the_same_decisions_with_the_paired_difference(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    # a candidate whose crashed nets are the race net's weights: it plays crashed positions its own
    # way (at 0 ply its 0-ply crashed net plays them)
    shipped = NeuralEvaluator.default()
    shipped.replaced(crashed=shipped.race, zero_ply_crashed=shipped.race).save(tmp_path / "candidate.npz")
    argv = ["judge.py", "--set", "classes", "--decisions", "30", "--players", "0",
            "--weights", str(tmp_path / "candidate.npz"), "--baseline", "shipped"]
    monkeypatch.setattr("sys.argv", argv)
    jd.main()
    out = capsys.readouterr().out
    assert "(10 contact, 10 crashed, 10 race decisions;" in out
    heading = "Engine(plies=0) - its baseline, same decisions:"
    line = next(x for x in out.splitlines() if x.startswith(heading))
    # the race decisions are the same net's: no difference there; the crashed ones differ
    assert "race +0.00 +- 0.00" in line and int(line.split("; ")[-1].split()[0]) > 0
    rows = [x for x in out.splitlines() if x.startswith("Engine(plies=0) [baseline]")]
    assert rows and float(rows[0][len("Engine(plies=0) [baseline]"):].split()[0]) >= 0.0
