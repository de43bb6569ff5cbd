"""Per-player statistics of an analysed match, defined as GNU Backgammon's ``show statistics
match`` defines them (analysis.c, formatgs.c), plus eXtreme Gammon's PR and bootstrap confidence
intervals.

Errors and luck are in EMG (totals) and mEMG (rates: thousandths of EMG per decision); ``cost``
figures are in MWC for a match (a fraction: 0.01 is one percent) and in points for money.

* checker play: total moves (every turn, passed turns included), unforced moves (more than one
  legal play), marks, error total and rate (per unforced move);
* cube: total decisions (every turn where the player could usefully double, plus every double, take
  and pass), close or actual ones, doubles, takes, passes, the six kinds of error, error total and
  rate (per close or actual decision). A beaver counts as a take, and a losing one as a wrong take
  (gnubg leaves beavers out of its analysis and its counts; see :mod:`gammon.analysis.decisions`);
* luck: marks, total and rate (per total move), of the rolls played (as gnubg, not the roll of a
  player who then resigns, nor the no-double before it);
* overall: error total, rate (per unforced move and close or actual cube decision), the Snowie
  error rate (per move of both players), PR = 500 x the mean error per decision, i.e. half the
  overall rate in mEMG (eXtreme Gammon counts only non-obvious decisions; here those are the
  unforced moves and the close or actual cube decisions), 95% intervals of the rate and PR by
  bootstrap over the player's decisions, the actual result (MWC won in a match, points for money)
  and the luck-adjusted result (minus the player's luck, plus the opponent's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gammon.analysis.decisions import CheckerPlay, CubeChoice, CubeErrorKind
from gammon.analysis.marks import Luck, Skill
from gammon.engine.cube.met import equity_after, match_equity

if TYPE_CHECKING:
    from gammon.analysis.walk import GameAnalysis, MatchAnalysis

ERROR_KINDS: tuple[CubeErrorKind, ...] = (
    "missed double below CP", "missed double above CP", "wrong double below DP",
    "wrong double above TG", "wrong take", "wrong pass")


@dataclass(frozen=True)
class ErrorSum:
    """How many errors of one kind, and what they lost (EMG and cost)."""

    count: int
    error: float
    cost: float


@dataclass(frozen=True)
class CheckerStatistics:
    moves: int
    unforced: int
    marks: dict[Skill, int]
    error_total: float
    cost_total: float
    error_rate: float  # mEMG per unforced move
    cost_rate: float


@dataclass(frozen=True)
class CubeStatistics:
    total: int
    close_or_actual: int
    doubles: int
    takes: int
    passes: int
    errors: dict[CubeErrorKind, ErrorSum]
    error_total: float
    cost_total: float
    error_rate: float  # mEMG per close or actual decision
    cost_rate: float


@dataclass(frozen=True)
class LuckStatistics:
    marks: dict[Luck, int]
    total: float
    cost_total: float
    rate: float  # mEMG per move
    cost_rate: float


@dataclass(frozen=True)
class OverallStatistics:
    decisions: int  # unforced moves + close or actual cube decisions
    error_total: float
    cost_total: float
    error_rate: float  # mEMG per decision
    error_rate_ci95: tuple[float, float] | None
    pr: float
    pr_ci95: tuple[float, float] | None
    snowie_error_rate: float
    actual_result: float
    luck_adjusted_result: float


@dataclass(frozen=True)
class PlayerStatistics:
    player: int
    name: str
    checker: CheckerStatistics
    cube: CubeStatistics
    luck: LuckStatistics
    overall: OverallStatistics


_BOOTSTRAP_BLOCK = 1 << 20  # indices drawn at a time (8 MB)


def _rate(total: float, n: int) -> float:
    return 1000.0 * total / n if n else 0.0


def bootstrap_mean_ci(values: np.ndarray, seed: int = 0, resamples: int = 2000,
                      level: float = 0.95) -> tuple[float, float] | None:
    """The ``level`` percentile interval of the mean of ``values`` over ``resamples`` bootstrap
    resamples drawn with ``numpy.random.default_rng(seed)``; None without values."""
    n = len(values)
    if n == 0:
        return None
    rng = np.random.default_rng(seed)
    # drawn a block of resamples at a time: the draws and means are those of one (resamples, n)
    # draw, without its resamples x n indices at once (1 GB for 30,000 decisions)
    rows = max(1, _BOOTSTRAP_BLOCK // n)
    means = np.empty(resamples, dtype=np.float64)
    for start in range(0, resamples, rows):
        k = min(rows, resamples - start)
        means[start : start + k] = values[rng.integers(0, n, size=(k, n))].mean(axis=1)
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [tail, 1.0 - tail])
    return float(lo), float(hi)


def game_result(game: GameAnalysis, match_length: int, crawford: bool = True) -> tuple[float, float]:
    """What each player won in ``game``: MWC gained in a match, points for money (0, 0 unfinished);
    ``crawford``: whether the match plays the Crawford rule."""
    if game.winner is None:
        return (0.0, 0.0)
    if not match_length:
        won = float(game.points)
    else:
        w = game.winner
        mine, theirs = match_length - game.score[w], match_length - game.score[1 - w]
        post = not game.crawford and 1 in (mine, theirs)
        before = match_equity(mine, theirs, post_crawford=post)
        # without the Crawford rule the next game at one away is no Crawford game: valued as the
        # next game's start is, or a match's results would not add up to what it was worth
        after = equity_after(mine - game.points, theirs, crawford_done=game.crawford or post or not crawford)
        won = after - before
    return (won, -won) if game.winner == 0 else (-won, won)


def player_statistics(analysis: MatchAnalysis, player: int, seed: int = 0,
                      resamples: int = 2000) -> PlayerStatistics:
    """``player``'s statistics over the whole of ``analysis``."""
    # gnubg keeps a roll that is not played (its roller resigns, or the record stops) as a record
    # with no cube analysis and counts neither its luck nor the no-double before it
    played = {(d.context.game, d.context.turn) for d in analysis.decisions if isinstance(d, CheckerPlay)}
    counted_rolls = [r for r in analysis.rolls if (r.context.game, r.context.turn) in played]
    plays = [d for d in analysis.decisions if isinstance(d, CheckerPlay) and d.context.player == player]
    cubes = [d for d in analysis.decisions if isinstance(d, CubeChoice) and d.context.player == player
             and (d.action != "no double" or (d.context.game, d.context.turn) in played)]
    rolls = [r for r in counted_rolls if r.context.player == player]

    unforced = [d for d in plays if d.unforced]
    marks = {s: sum(1 for d in plays if d.skill is s) for s in Skill}
    c_err = sum((d.error for d in unforced), 0.0)
    c_cost = sum((d.cost for d in unforced), 0.0)
    checker = CheckerStatistics(len(plays), len(unforced), marks, c_err, c_cost,
                                _rate(c_err, len(unforced)), _rate(c_cost, len(unforced)))

    close = [d for d in cubes if d.close]
    errors = {}
    for k in ERROR_KINDS:
        of_kind = [d for d in cubes if d.kind == k]
        errors[k] = ErrorSum(len(of_kind), sum((d.error for d in of_kind), 0.0),
                             sum((d.cost for d in of_kind), 0.0))
    q_err = sum(e.error for e in errors.values())
    q_cost = sum(e.cost for e in errors.values())
    cube = CubeStatistics(len(cubes), len(close), sum(1 for d in cubes if d.action == "double"),
                          sum(1 for d in cubes if d.action in ("take", "beaver")),
                          sum(1 for d in cubes if d.action == "pass"), errors, q_err, q_cost,
                          _rate(q_err, len(close)), _rate(q_cost, len(close)))

    l_total = sum((r.luck for r in rolls), 0.0)
    l_cost = sum((r.cost for r in rolls), 0.0)
    luck = LuckStatistics({m: sum(1 for r in rolls if r.mark is m) for m in Luck}, l_total, l_cost,
                          _rate(l_total, len(plays)), _rate(l_cost, len(plays)))

    # every decision counted in the overall rate, with what it lost (cube errors of the close or
    # actual decisions only: a clear no-double costs nothing)
    counted = np.array([d.error for d in unforced] + [d.error for d in close], dtype=np.float64)
    n = len(counted)
    total_error = c_err + q_err
    ci = bootstrap_mean_ci(counted, seed, resamples)
    all_moves = sum(1 for d in analysis.decisions if isinstance(d, CheckerPlay))
    opponent_luck = sum(r.cost for r in counted_rolls if r.context.player != player)
    actual = sum(game_result(g, analysis.match_length, analysis.crawford)[player] for g in analysis.games)
    overall = OverallStatistics(
        n, total_error, c_cost + q_cost, _rate(total_error, n),
        None if ci is None else (1000.0 * ci[0], 1000.0 * ci[1]),
        500.0 * total_error / n if n else 0.0,
        None if ci is None else (500.0 * ci[0], 500.0 * ci[1]),
        _rate(total_error, all_moves), actual, actual - l_cost + opponent_luck)
    return PlayerStatistics(player, analysis.names[player], checker, cube, luck, overall)
