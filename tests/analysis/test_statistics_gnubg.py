"""The statistics as GNU Backgammon computes them from the same analysis: the real gnubg loads
gammon's analysed SGF (its plays, cube decisions and luck, gammon's numbers) and its ``show
statistics match`` gives the counts and totals gammon's statistics give."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.gnubg_harness import run_gnubg
from gammon.analysis import analyse
from gammon.analysis.sgf_annotations import write_analysed_sgf
from gammon.analysis.stats import PlayerStatistics
from gammon.engine.engine import Engine
from gammon.formats.convert import read_match, reading_format
from tests.helpers import needs_gnubg

pytestmark = needs_gnubg

MATS = Path(__file__).parents[1] / "data" / "mat" / "real"


def _gnubg_rows(text: str) -> dict[str, list[float]]:
    """``show statistics match``'s rows: label -> the numbers on the row (both players'); a label
    met again (the error total of the cube, then overall) keeps its first row, the checker play's."""
    rows: dict[str, list[float]] = {}
    for line in text.splitlines():
        found = re.match(r"(\S.*?)\s{2,}(\S.*)$", line)
        if found:
            numbers = [float(x) for x in re.findall(r"[-+]?\d+\.?\d*", found.group(2))]
            rows.setdefault(found.group(1).strip(), numbers)
    return rows


def _ours(s: PlayerStatistics) -> dict[str, float]:
    return {
        "Total moves": s.checker.moves,
        "Unforced moves": s.checker.unforced,
        "Total cube decisions": s.cube.total,
        "Close or actual cube decisions": s.cube.close_or_actual,
        "Doubles": s.cube.doubles,
        "Takes": s.cube.takes,
        "Passes": s.cube.passes,
    }


@pytest.mark.parametrize("name", [
    "gnubg/gnubgparser-roll_then_resign_1p.mat",  # a roll, then a resignation instead of a play
    "xg/raccoon-jbs-tanaka-ueda-11pt-2025-09-07.mat",  # the same, with the cube alive before it
    "other/gammonview-B4_SrGcsKAQmoTyHlgJCbM-money.mat",
])
def test_gnubg_counts_and_totals_the_same_statistics(name: str, tmp_path: Path) -> None:
    path = MATS / name
    transcript = read_match(path.read_bytes(), reading_format(str(path)))
    analysis = analyse(transcript.match, Engine(plies=0), names=transcript.names)
    sgf = tmp_path / "analysed.sgf"
    write_analysed_sgf(transcript.match, analysis, sgf)
    theirs = _gnubg_rows(run_gnubg(f"capture('load match {sgf}')\nemit(capture('show statistics match'))")[0])
    first, second = analysis.statistics(resamples=1)
    for label in ("Total moves", "Unforced moves", "Total cube decisions", "Close or actual cube decisions",
                  "Doubles", "Takes", "Passes"):
        assert theirs[label] == [_ours(first)[label], _ours(second)[label]], label
    marked = sum(first.luck.marks.values()), sum(second.luck.marks.values())
    counted = [sum(theirs[f"Rolls {m}"][k] for m in ("marked very lucky", "marked lucky", "unmarked",
                                                      "marked unlucky", "marked very unlucky"))
               for k in (0, 1)]
    assert counted == list(marked)  # the rolls whose luck counts
    # totals, as gnubg prints them: EMG to 3 decimals, then the MWC or points
    luck = theirs["Luck total EMG (MWC)" if analysis.match_length else "Luck total EMG (Points)"]
    assert luck[0] == pytest.approx(first.luck.total, abs=6e-4)
    assert luck[2] == pytest.approx(second.luck.total, abs=6e-4)
    errors = theirs["Error total EMG (MWC)" if analysis.match_length else "Error total EMG (Points)"]
    assert [abs(errors[0]), abs(errors[2])] == pytest.approx(
        [first.checker.error_total, second.checker.error_total], abs=6e-4)
    adjusted = theirs["Luck adjusted result"]
    scale = 100 if analysis.match_length else 1  # percent of MWC, or points
    assert adjusted == pytest.approx([scale * first.overall.luck_adjusted_result,
                                      scale * second.overall.luck_adjusted_result], abs=0.011)
