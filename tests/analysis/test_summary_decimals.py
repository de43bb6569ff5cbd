"""The statistics' match winning chances to 3 decimals of a percent, as GNU Backgammon prints
them ("-1.422 (-14.028%)"): with 2, a small error at match play showed as 0.00%."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gammon import Rules
from gammon.analysis import analyse
from gammon.analysis.summary import summary_sections
from gammon.engine.engine import Engine
from tests.analysis.games import blunder_game


@pytest.fixture(scope="module")
def stats():
    analysis = analyse([blunder_game(Rules(match_length=5))], Engine(plies=0), names=("Ann", "Bo"))
    return analysis.statistics(resamples=1)


def _rows(stats) -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for title, section in summary_sections(stats, True):
        for label, a, b in section:
            rows[f"{title}: {label}"] = (a, b)
    return rows


def test_a_small_error_at_match_play_is_not_shown_as_zero(stats) -> None:
    first, second = stats
    small = replace(first, checker=replace(first.checker, error_total=0.0004, cost_total=0.00004),
                    cube=replace(first.cube, error_total=0.0, cost_total=0.0))
    rows = _rows((small, second))
    assert rows["Checker play: Error total EMG (MWC)"][0] == "0.000 (0.004%)"
    assert rows["Cube: Error total EMG (MWC)"][0] == "0.000 (0.000%)"


def test_every_total_in_mwc_has_three_decimals(stats) -> None:
    first, _ = stats
    rows = _rows(stats)
    total = rows["Checker play: Error total EMG (MWC)"][0]
    assert total == f"{first.checker.error_total:.3f} ({100 * first.checker.cost_total:.3f}%)"
    luck = rows["Luck: Luck total EMG (MWC)"][0]
    assert luck == f"{first.luck.total:.3f} ({100 * first.luck.cost_total:.3f}%)"
