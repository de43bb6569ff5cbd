"""Rollouts: a position played out many times by the engine, as GNU Backgammon's.

A rollout starts BEFORE the roll: the player on roll (the "root" player) rolls first. Each trial
plays the game out (or up to ``truncate`` half-moves) with the engine choosing every play at its
plies; the result is the mean over the trials, for the root player, with its standard error.

* **Variance reduction** (a control variate, unbiased): before every roll of every trial, the
  value of each of the 21 rolls is measured by the engine itself (the roll's best play at 0 ply,
  its result evaluated at the playing ply minus one, at least 0), and the luck of the roll
  actually thrown, its value minus the mean of the 36, is subtracted from the trial's result.
  Both players' rolls count, seen from the root player.
* **Quasi-random dice** (GNU Backgammon's rotation): turn ``t``'s roll of trial ``i`` is a seeded
  permutation of 36 applied to the base-36 digits of ``i`` (nested, digit 0 for turn 0, digits
  0-1 for turn 1, ...), so every 36 trials see each first roll once and every 1,296 trials each
  pair of first rolls once; each trial's dice alone are still uniform and independent. After
  turn 127 the dice are a counter-based hash of (seed, trial, turn).
* **Reproducible**: a trial's dice depend only on the seed and its index, and its play only on
  its dice, so a seed gives the same result bit for bit with any number of workers (per-trial
  values are reduced in trial order).
* **Truncation**: after ``truncate`` half-moves the position is evaluated at ``truncate_plies``;
  when both sides have every checker home (the bear-off table of
  :mod:`gammon.engine.bearoff.one_sided`) the trial stops there and takes the database's
  probabilities (``bearoff_truncation``).
* **Stopping rule**: with ``stop_at_se``, the rollout stops at the first multiple of
  ``check_every`` trials where the standard error of the equity is at most that (for every
  alternative rolled out together); the decision depends only on the trials so far, in order.
* **Cubeful** (``cubeful=True``): full cubeful rollouts. Before each roll the player on roll may
  double, decided by the engine's cube model (0-ply probabilities, Janowski for money, the match
  equity table at a score: :mod:`gammon.engine.cube.decision`), the opponent takes or passes by
  the same model; a pass ends the trial. Jacoby: without a turned cube gammons count single.
  Truncated and bear-off-truncated trials are scored by that model (cubeful equity from the
  probabilities). The cubeful control variate is the cubeless luck times the cube value then in
  play (fixed before the roll, so still unbiased), not GNU Backgammon's cubeful luck.
  Cubeful equities are per unit of the starting cube for money and in EMG (equivalent money
  equity: the match winning chances scaled so that losing one starting cube is -1 and winning it
  +1) at a match score, with the match winning chance alongside.

Several alternatives (the candidate plays of a roll, or no-double and double/take) are rolled
out together, trial by trial with the same dice. The trials are played in lockstep batches
(:mod:`gammon.engine.rollout.trials`; hundreds of trials at 0 ply, one at 2 ply, so that a stop
between batches comes soon) that go to worker processes or a Ray cluster
(:mod:`gammon.engine.rollout.parallel`); this module sets the job up, reduces the per-trial values in
trial order and applies the stopping rule.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol, overload

import numpy as np

from gammon.dice import check_dice
from gammon.engine.bearoff.one_sided import BearoffDatabase
from gammon.engine.cube.cubeful import mwc_after
from gammon.engine.cube.decision import CubeDecision, classify
from gammon.engine.net.evaluator import Evaluator, Probabilities, cubeless_equity
from gammon.engine.rollout.cube_check import cube_rollout_refusal, cubeful_rollout_refusal
from gammon.engine.rollout.parallel import check_workers, ordered_map, ray_workers
from gammon.engine.rollout.settings import RolloutSettings
from gammon.engine.rollout.trials import (
    RolloutJob,
    RootCube,
    Start,
    dice_permutations,
    match_unit,
    play_trials,
)
from gammon.engine.search.searcher import SearchSettings
from gammon.errors import InvalidArgumentError, cut
from gammon.game import Game
from gammon.i18n import tr
from gammon.play import Play
from gammon.position import Position, require_in_play, require_position
from gammon.situation import CubeOwner, Situation


class _Ranked(Protocol):
    @property
    def play(self) -> Play: ...


class Engine(Protocol):
    """What a rollout needs of its engine (:class:`gammon.engine.engine.Engine` is one; its rollout
    methods are these functions): the plies, the search settings, the evaluator, the bear-off
    database and the ranked plays of a roll."""

    settings: SearchSettings
    evaluator: Evaluator

    @property
    def plies(self) -> int: ...

    @property
    def bearoff(self) -> BearoffDatabase | None: ...

    def hint(self, decision: Situation | Position, dice: Sequence[int] | None = None,
             n: int = 5) -> Sequence[_Ranked]: ...

# The most trials a batch holds, by the plies the trials play at. A stop waits for the batch: its
# progress report is where a callback that raises (the web's cancel) stops the rollout, and the last
# report is what Ctrl-C keeps. At 0 ply 216 trials in lockstep let the kernels, not Python, take the
# time (2-4 s on one core; batches of 108 ran 7% slower). At 1 and 2 ply every trial searches its
# own plays, so a batch gains nothing from its size and holds about a second's trials: a 1-ply trial
# takes about 0.08 s, a 2-ply one 0.9 s (1.7 s at most over 36 from the start), 50 times a 0-ply one.
_MOST_TRIALS = (216, 12, 1)


# --- settings and results ------------------------------------------------------------------------


@dataclass(frozen=True)
class StandardErrors:
    """Standard errors of a rollout's means (the sample standard deviation of the trials over the
    square root of their number; NaN for a single trial)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    cubeless_equity: float
    equity: float

    def flip(self) -> StandardErrors:
        """The same errors for the other player (win and lose gammons swap)."""
        return StandardErrors(self.win, self.lose_gammon, self.lose_backgammon, self.win_gammon,
                              self.win_backgammon, self.cubeless_equity, self.equity)


@dataclass(frozen=True)
class RolloutResult:
    """A rollout's estimate for the player on roll of the position rolled out.

    ``equity`` is the cubeless money equity, or with ``settings.cubeful`` the cubeful one (money:
    per unit of the starting cube; match: EMG, with ``match_winning_chance``).
    """

    probabilities: Probabilities
    equity: float
    standard_error: StandardErrors
    trials: int
    settings: RolloutSettings
    cubeless_equity: float
    match_winning_chance: float | None = None

    def flip(self) -> RolloutResult:
        """The same result for the other player."""
        mwc = None if self.match_winning_chance is None else 1.0 - self.match_winning_chance
        return replace(self, probabilities=self.probabilities.flip(), equity=-self.equity,
                       standard_error=self.standard_error.flip(),
                       cubeless_equity=-self.cubeless_equity, match_winning_chance=mwc)

    def __str__(self) -> str:
        p, se = self.probabilities, self.standard_error
        kind = "cubeful" if self.settings.cubeful else "cubeless"
        return (f"{self.trials} trials: {kind} equity {self.equity:+.4f} +- {se.equity:.4f}; "
                f"win {p.win:.2%} +- {se.win:.2%} (gammon {p.win_gammon:.2%}, backgammon "
                f"{p.win_backgammon:.2%}), lose gammon {p.lose_gammon:.2%} (backgammon "
                f"{p.lose_backgammon:.2%})")


class RolloutProgress(NamedTuple):
    """Sent to a ``progress`` callback after each batch: trials done (in order) of ``total``,
    and for each alternative (one for a position) the running equity and its standard error, for
    the player who decides."""

    trials: int
    total: int
    equity: tuple[float, ...]
    standard_error: tuple[float, ...]


class PlayRollout(NamedTuple):
    """One candidate play of :func:`rollout_plays` and its rollout, for the player who plays it."""

    play: Play
    result: RolloutResult


@dataclass(frozen=True)
class CubeRollout:
    """:func:`rollout_cube`: the decision from the rolled-out no-double and double/take equities
    (double/pass is exact), and the two rollouts (the same dice for both)."""

    decision: CubeDecision
    no_double: RolloutResult
    double_take: RolloutResult


Progress = Callable[[RolloutProgress], None]


# --- the engine's entry points (methods of Engine) ------------------------------------------------


def rollout(engine: Engine, decision: Situation | Game | Position,
            settings: RolloutSettings | None = None, *, workers: int | None = None,
            ray_address: str | None = None, progress: Progress | None = None) -> RolloutResult:
    """Roll the position of ``decision`` out from before the roll, the player on roll rolling
    first, the engine playing both sides at its plies (``Engine(plies=0).rollout(...)`` rolls out
    at 0 ply).

    ``decision``: a :class:`~gammon.situation.Situation` (its cube, owner, score and Jacoby rule
    count when ``settings.cubeful``; its dice do not), a Game (its ``situation()``) or a bare
    Position (money, cube centred).
    ``settings``: how to roll out (:class:`RolloutSettings`; default 1,296 trials, a random seed).
    With ``cubeful`` the player on roll may double at once. ``workers``: local processes (default:
    every core; the result does not depend on it); ``ray_address``: run on Ray instead
    (``"local"`` or a cluster address; ``workers`` then defaults to the cluster's CPUs).
    ``progress`` is called with a :class:`RolloutProgress` after each batch of trials (at most 216
    at 0 ply, 12 at 1 ply, one at 2 ply); an exception it raises stops the rollout there.
    """
    resolved = _resolve(engine, settings)
    s = _situation(decision)
    _check_playable(s.position)
    _check_cube_rules(s, resolved)
    cube = RootCube.of(s)
    start = Start(s.position.as_array().copy(), s.cube_value, _ROOT_OWNER[s.cube_owner], True)
    job = _job(engine, resolved, (start,), cube)
    values = _run(job, workers, ray_address, progress, flip=False)
    return _result(job, values[0])


def rollout_plays(engine: Engine, decision: Situation | Game | Position, dice: Sequence[int] | None = None,
                  n: int = 5, settings: RolloutSettings | None = None, *, workers: int | None = None,
                  ray_address: str | None = None, progress: Progress | None = None) -> list[PlayRollout]:
    """Roll out the engine's ``n`` best plays for ``dice`` (by default the Situation's; its
    :meth:`~gammon.engine.engine.Engine.hint`, at the score in a match), each from the position
    after the play (the opponent rolls first), all with the SAME dice trial by trial; best first by rolled-out
    equity, each result for the player who plays. Options as :func:`rollout` (the cube and score
    from the player who plays' view). No legal play: an empty list."""
    resolved = _resolve(engine, settings)
    s = _situation(decision)
    if dice is None:
        if s.dice is None:
            raise InvalidArgumentError(
                tr("a rollout of the plays needs dice: the Situation has none (give them)"))
        dice = s.dice
    check_dice(dice)
    _check_playable(s.position)
    _check_cube_rules(s, resolved)
    cube = RootCube.of(s)
    hints = engine.hint(s, dice, n)  # in a match the best n at the score
    if not hints:
        return []
    owner = -_ROOT_OWNER[s.cube_owner]  # the roots are the opponent, on roll after the play
    starts = tuple(Start(h.play.after.as_array().copy(), s.cube_value, owner, True) for h in hints)
    job = _job(engine, resolved, starts, cube.flipped())
    values = _run(job, workers, ray_address, progress, flip=True)
    out = [PlayRollout(h.play, _result(job, v).flip()) for h, v in zip(hints, values)]
    return sorted(out, key=lambda r: -r.result.equity)


def rollout_cube(engine: Engine, decision: Situation | Game | Position,
                 settings: RolloutSettings | None = None, *, workers: int | None = None,
                 ray_address: str | None = None, progress: Progress | None = None) -> CubeRollout:
    """Cubeful rollouts of the cube decision of the player on roll: no double (the cube as
    given, the player on roll does not double now) and double/take (twice the cube, owned by the
    opponent), with the same dice; double/pass is exact. Options as :func:`rollout`; always
    cubeful. Raises ValueError when the player on roll may not double."""
    resolved = replace(_resolve(engine, settings), cubeful=True)
    s = _situation(decision)
    _check_playable(s.position)
    cube = RootCube.of(s)
    cube_value, match = s.cube_value, s.match
    refusal = cube_rollout_refusal(s)
    if refusal is not None:
        raise InvalidArgumentError(refusal)
    _check_cube_rules(s, resolved)
    board = s.position.as_array()
    starts = (Start(board.copy(), cube_value, _ROOT_OWNER[s.cube_owner], False),
              Start(board.copy(), 2 * cube_value, -1, False))
    job = _job(engine, resolved, starts, cube)
    values = _run(job, workers, ray_address, progress, flip=False)
    nd, dt = (_result(job, v) for v in values)
    if match is None:
        dp, mwcs = 1.0, None
    else:
        dp_mwc = mwc_after(match, match.away - cube_value, match.opponent_away)
        dp = 1.0
        assert nd.match_winning_chance is not None and dt.match_winning_chance is not None
        mwcs = (nd.match_winning_chance, dt.match_winning_chance, dp_mwc)
    action, take = classify(nd.equity, dt.equity, dp, True)
    # as the engine's money decision: a take that leaves the doubler below zero is a beaver (a
    # cubeful rollout has no cube limit to forbid the second double)
    beaver = s.beavers and take and dt.equity < 0.0
    verdict = CubeDecision(action, take, nd.equity, dt.equity, dp, nd.probabilities, mwcs, beaver=beaver)
    return CubeRollout(verdict, nd, dt)


# --- setting up a job ---------------------------------------------------------------------------

_ROOT_OWNER = {CubeOwner.CENTRED: 0, CubeOwner.MOVER: 1, CubeOwner.OPPONENT: -1}


def _situation(decision: Situation | Game | Position) -> Situation:
    """A Situation as given, a Game's situation, or a bare Position as a money game (anything
    else: a TypeError)."""
    if isinstance(decision, Game):
        return decision.situation()
    if isinstance(decision, Situation):
        return decision
    return Situation(require_position(decision, "a rollout", "a Situation or a Game"))


def _check_playable(position: Position) -> None:
    require_in_play(position, "a rollout", "roll out")


def _check_cube_rules(s: Situation, settings: RolloutSettings) -> None:
    """A cubeful rollout of a game without the cube or with a cube limit is refused
    (:func:`cubeful_rollout_refusal`)."""
    refusal = cubeful_rollout_refusal(s) if settings.cubeful else None
    if refusal is not None:
        raise InvalidArgumentError(refusal)


def _resolve(engine: Engine, settings: RolloutSettings | None) -> RolloutSettings:
    """``settings`` with every None settled: a seed drawn, the plies the engine's."""
    s = settings if settings is not None else RolloutSettings()
    if not isinstance(s, RolloutSettings):
        raise InvalidArgumentError(f"settings must be a RolloutSettings or None, got {s!r}")
    if s.seed is None:
        s = replace(s, seed=secrets.randbits(32))
    if s.plies is None:
        s = replace(s, plies=engine.plies)
    if s.truncate_plies is None:
        s = replace(s, truncate_plies=s.plies)
    return s


def _job(engine: Engine, s: RolloutSettings, starts: tuple[Start, ...], cube: RootCube) -> RolloutJob:
    assert s.plies is not None and s.seed is not None
    search = replace(engine.settings, plies=s.plies)
    return RolloutJob(engine.evaluator, engine.bearoff is not None, search, s, starts, cube,
                      dice_permutations(s.seed))


# --- running: batches in order, the stopping rule, progress ---------------------------------------


class _Batches(Sequence[tuple[int, int]]):
    """The ranges of trials ``[start, stop)`` that start at every multiple of ``size`` and of
    ``every`` (None: of ``size`` only) below ``trials``, in order. Computed as they are asked
    for: a rollout of a billion trials with a stopping rule has millions of them."""

    def __init__(self, trials: int, size: int, every: int | None) -> None:
        self.trials, self.size, self.every = trials, size, every

    def _starts_below(self, x: int) -> int:
        """How many batches start below ``x`` (0 <= x <= trials)."""
        n = -(-x // self.size)
        if self.every is not None:
            n += -(-x // self.every) - -(-x // math.lcm(self.size, self.every))
        return n

    def __len__(self) -> int:
        return self._starts_below(self.trials)

    def _start(self, k: int) -> int:
        """The ``k``-th start: the least x with more than k starts at or below it."""
        lo, hi = 0, self.trials - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self._starts_below(mid + 1) > k:
                hi = mid
            else:
                lo = mid + 1
        return lo

    @overload
    def __getitem__(self, k: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[tuple[int, int]]: ...

    def __getitem__(self, k: int | slice) -> tuple[int, int] | Sequence[tuple[int, int]]:
        n = len(self)
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(n))]
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(k)
        return self._start(k), self._start(k + 1) if k + 1 < n else self.trials

    def __iter__(self) -> Iterator[tuple[int, int]]:
        start, step, every = 0, self.size, self.every
        while start < self.trials:
            stop = (start // step + 1) * step
            if every is not None:
                stop = min(stop, (start // every + 1) * every)
            stop = min(stop, self.trials)
            yield start, stop
            start = stop


def _boundaries(s: RolloutSettings, workers: int) -> _Batches:
    """Batches of trials: about four per worker, 36 or more but at most :data:`_MOST_TRIALS` at the
    trials' plies, split at every multiple of ``check_every`` when a stopping rule needs them."""
    size = min(_MOST_TRIALS[s.plies or 0], max(36, math.ceil(s.trials / (4 * workers))))
    return _Batches(s.trials, size, s.check_every if s.stop_at_se is not None else None)


def _run(job: RolloutJob, workers: int | None, ray_address: str | None, progress: Progress | None,
         flip: bool) -> np.ndarray:
    """Per-trial values ``(alternatives, trials, 6)`` of the trials kept, in order."""
    s = job.settings
    # checked before any trial is played, not at the first batch's end
    if progress is not None and not callable(progress):
        raise InvalidArgumentError(f"progress must be a function of a RolloutProgress or None, "
                         f"got {cut(repr(progress))}")
    if ray_address is not None and not isinstance(ray_address, str):
        raise InvalidArgumentError(f"ray_address must be 'local', a cluster's address or None, "
                         f"got {cut(repr(ray_address))}")
    # on Ray the batches are cut for the cluster's CPUs: cut for this machine's cores, a few of a
    # large cluster's ran the whole rollout
    if ray_address is None or workers is not None:
        n_workers = check_workers(workers)
    else:
        n_workers = ray_workers(ray_address)
    parts: list[np.ndarray] = []
    done = 0
    moments = _Moments()
    results = ordered_map(play_trials, job, _boundaries(s, n_workers), workers=n_workers,
                          ray_address=ray_address)
    try:
        for part in results:
            parts.append(part)
            done += part.shape[1]
            if progress is None and s.stop_at_se is None:
                continue
            eq, se = moments.add(_reported(job, part))
            if progress is not None:
                sign = -1.0 if flip else 1.0
                progress(RolloutProgress(done, s.trials, tuple(sign * eq), tuple(se)))
            if (s.stop_at_se is not None and done % s.check_every == 0 and done < s.trials
                    and bool(np.all(se <= s.stop_at_se))):
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return np.concatenate(parts, axis=1)


def _reported(job: RolloutJob, values: np.ndarray) -> np.ndarray:
    """The reported equity of each trial ``(alternatives, trials)``: cubeful or cubeless."""
    return values[:, :, 5] if job.settings.cubeful else cubeless_equity(values[:, :, :5])


class _Moments:
    """Running mean and standard error of each alternative's equity, batch by batch: the progress
    reports and the stopping rule read them after every batch without joining all the trials so
    far again (which made a long rollout's bookkeeping grow with the square of its batches)."""

    def __init__(self) -> None:
        self.n = 0
        self.total: np.ndarray | float = 0.0
        self.squares: np.ndarray | float = 0.0

    def add(self, eq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.n += eq.shape[1]
        self.total = self.total + eq.sum(axis=1)
        self.squares = self.squares + (eq * eq).sum(axis=1)
        n = self.n
        mean = np.asarray(self.total) / n
        if n < 2:
            return mean, np.full(mean.shape, math.nan)
        var = np.maximum(np.asarray(self.squares) - n * mean * mean, 0.0) / (n - 1)
        return mean, np.sqrt(var) / math.sqrt(n)


def _result(job: RolloutJob, values: np.ndarray) -> RolloutResult:
    """One alternative's trials ``(n, 6)`` in one result."""
    n = values.shape[0]
    equities = cubeless_equity(values[:, :5])
    columns = np.concatenate([values[:, :5], equities[:, None], values[:, 5:6]], axis=1)
    mean = columns.mean(axis=0)
    se = columns.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else np.full(7, math.nan)
    cubeful = job.settings.cubeful
    mwc = None
    if cubeful and job.cube.match is not None:
        lose1, win1 = match_unit(job.cube)
        mwc = lose1 + (float(mean[6]) + 1.0) * (win1 - lose1) / 2.0
    e = [float(v) for v in se]
    errors = StandardErrors(e[0], e[1], e[2], e[3], e[4], e[5], e[6] if cubeful else e[5])
    return RolloutResult(Probabilities.from_array(mean[:5]), float(mean[6] if cubeful else mean[5]),
                         errors, n, job.settings, float(mean[5]), mwc)


__all__ = ["CubeRollout", "PlayRollout", "RolloutProgress", "RolloutResult", "RolloutSettings",
           "StandardErrors", "rollout", "rollout_cube", "rollout_plays"]
