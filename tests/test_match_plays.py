"""The match-score checker-play judge (benchmarks/strength/match_plays.py): the scores it sets, GNU
Backgammon's 2-ply cubeful equity read from its eval, turned into the mover's match winning chance
as the engine values it, and a short run."""

from __future__ import annotations

import pytest

from benchmarks.strength import match_plays as mp
from benchmarks.strength.judge_set import CLASSES_SET, read_judge_set
from gammon.engine.engine import Engine
from gammon.situation import CubeOwner


@pytest.fixture(scope="module")
def work() -> list[mp.MatchDecision]:
    decisions = [d for d in read_judge_set(CLASSES_SET) if len(d.position.legal_plays(d.dice)) > 1][:200]
    return mp.at_scores(decisions, seed=4)


def test_scores_cover_every_class_and_keep_the_cube_alive_only_where_it_lives(
    work: list[mp.MatchDecision],
) -> None:
    assert {md.score_class for md in work} == set(mp.SCORE_CLASSES)
    for md in work:
        m = md.situation.match
        assert m is not None and sorted(md.situation.dice or ()) == sorted(md.decision.dice)
        if m.crawford_game or 1 in (m.away, m.opponent_away):
            assert md.situation.cube_value == 1 and md.situation.cube_owner is CubeOwner.CENTRED
    assert {md.situation.cube_owner for md in work} == set(CubeOwner)


def test_the_judges_mwc_is_the_engines_own_estimate_within_its_error(work: list[mp.MatchDecision]) -> None:
    """GNU Backgammon's 2-ply cubeful equity of the opponent, read from its eval and turned into
    the mover's MWC, agrees with the engine's cubeful MWC of the same play (another evaluation
    of the same thing): a side, score or cube read the wrong way round would not."""
    engine = Engine(plies=0)
    hints = [(md, engine.hint(md.situation, n=1)[0]) for md in work[:40]]
    ids = [mp.gnubg_id(mp.after_situation(md.situation, h.play.after)) for md, h in hints
           if not h.play.after.is_game_over()]
    judged = mp.judge_in_gnubg(ids)
    gaps = [abs(mp.mover_mwc(md.situation, h.play.after, judged, engine) - (h.mwc or 0.0)) for md, h in hints]
    assert sum(gaps) / len(gaps) < 0.02, gaps
    assert max(gaps) < 0.1, gaps


def test_a_short_run_reports_both_rankings_and_their_difference(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["match_plays.py", "--decisions", "12", "--players", "0"])
    mp.main()
    out = capsys.readouterr().out
    assert "12 decisions at match scores" in out
    rows = {line[:24].strip(): line[24:].split() for line in out.splitlines() if line.startswith("Engine")}
    assert float(rows["Engine(plies=0) money"][0]) >= 0.0 and float(rows["Engine(plies=0) score"][0]) >= 0.0
    assert "Engine(plies=0) score - Engine(plies=0) money:" in out


def test_an_eval_without_a_2_ply_line_is_refused_quoting_it() -> None:
    with pytest.raises(ValueError, match="not a GNU Backgammon 2-ply eval: 'static: 0.5"):
        mp.parse_eval("static: 0.5 0.1 0.0 0.1 0.0 +0.0 +0.0")
