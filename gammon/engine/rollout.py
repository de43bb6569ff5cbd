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
  when both sides are in the bear-off database (:mod:`gammon.engine.bearoff`) the trial stops
  there and takes the database's probabilities (``bearoff_truncation``).
* **Stopping rule**: with ``stop_at_se``, the rollout stops at the first multiple of
  ``check_every`` trials where the standard error of the equity is at most that (for every
  alternative rolled out together); the decision depends only on the trials so far, in order.
* **Cubeful** (``cubeful=True``): full cubeful rollouts. Before each roll the player on roll may
  double, decided by the engine's cube model (0-ply probabilities, Janowski for money, the match
  equity table at a score: :mod:`gammon.engine.cube_decision`), the opponent takes or passes by
  the same model; a pass ends the trial. Jacoby: without a turned cube gammons count single.
  Truncated and bear-off-truncated trials are scored by that model (cubeful equity from the
  probabilities). The cubeful control variate is the cubeless luck times the cube value then in
  play (fixed before the roll, so still unbiased), not GNU Backgammon's cubeful luck.
  Cubeful equities are per unit of the starting cube for money and in EMG (equivalent money
  equity: the match winning chances scaled so that losing one starting cube is -1 and winning it
  +1) at a match score, with the match winning chance alongside.

Several alternatives (the candidate plays of a roll, or no-double and double/take) are rolled
out together, trial by trial with the same dice. Trials run in lockstep in batches: every
half-move of every running trial goes through the engine's batched kernels at once (the
move generator over all 21 rolls, one evaluator call), and batches of trials go to worker
processes or a Ray cluster (:mod:`gammon.engine.parallel`).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from gammon.dice import check_dice
from gammon.engine.cube_decision import (
    CubeAction,
    CubeDecision,
    _classify,
    match_cube_decision,
    money_cube_decision,
)
from gammon.engine.cubeful import CubeOwner, MatchCube, MatchState, cube_efficiency, money_equity
from gammon.engine.encode import is_race_board
from gammon.engine.evaluator import Evaluator, Probabilities, cubeless_equity, flip_probabilities
from gammon.engine.parallel import check_workers, ordered_map
from gammon.engine.search import (
    _ROLL_WEIGHTS,
    _ROLLS,
    Searcher,
    SearchSettings,
    _best_in_groups,
    _expand,
    terminal_probabilities,
)
from gammon.errors import InvalidPositionError
from gammon.play import Play
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.engine.engine import Engine

DEFAULT_TRIALS = 1296
MAX_HALF_MOVES = 2000
"""A trial still running after this many half-moves is scored as truncated (never seen in play)."""

_ROTATED_TURNS = 128
_GENERATIONS = 6  # 36**6 trials before the rotation repeats
_SEED_MASK = (1 << 63) - 1
_CHUNK = 216  # trials per batch: large enough that the kernels, not Python, take the time
_INDEX21 = np.array([[min(a, b) - 1, max(a, b) - 1] for a in range(1, 7) for b in range(1, 7)])
# the 21-roll index (search._ROLLS order) of each of the 36 ordered rolls j = 6 * (d1 - 1) + (d2 - 1)
_ROLL21_OF_36 = np.array([[i for i, (a, b) in enumerate(_ROLLS) if (a - 1, b - 1) == (lo, hi)][0]
                          for lo, hi in _INDEX21], dtype=np.int64)


# --- settings and results ------------------------------------------------------------------------


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out (frozen, like ``chess.engine.Limit``). A result carries the settings it
    used, every ``None`` resolved (seed drawn, plies from the engine), so that
    ``engine.rollout(position, settings=result.settings)`` repeats it exactly.

    ``trials``: games to play (a multiple of 36, or better 1,296, for quasi-random dice).
    ``seed``: the dice (None: drawn at random, then recorded). ``plies``: the chequer play's
    depth (None: the engine's). ``truncate``: half-moves before stopping a trial and evaluating it
    at ``truncate_plies`` (None: the playing plies); None plays to the end.
    ``variance_reduction``, ``quasi_random``, ``bearoff_truncation``: see the module docstring.
    ``cubeful``: cube decisions inside the trials. ``stop_at_se``: stop once the equity's standard
    error is at most this, checked every ``check_every`` trials.
    """

    trials: int = DEFAULT_TRIALS
    seed: int | None = None
    plies: int | None = None
    truncate: int | None = None
    truncate_plies: int | None = None
    variance_reduction: bool = True
    quasi_random: bool = True
    bearoff_truncation: bool = True
    cubeful: bool = False
    stop_at_se: float | None = None
    check_every: int = 144

    def __post_init__(self) -> None:
        problems = []
        if not _is_int(self.trials) or self.trials < 1:
            problems.append(f"trials must be a positive number, got {self.trials!r}")
        if self.seed is not None and (not _is_int(self.seed) or self.seed < 0):
            problems.append(f"seed must be a whole number >= 0, got {self.seed!r}")
        for name in ("plies", "truncate_plies"):
            v = getattr(self, name)
            if v is not None and (not _is_int(v) or v not in (0, 1, 2)):
                problems.append(f"{name} must be 0, 1 or 2, got {v!r}")
        if self.truncate is not None and (not _is_int(self.truncate) or self.truncate < 0):
            problems.append(f"truncate must be a number of half-moves >= 0, got {self.truncate!r}")
        if self.stop_at_se is not None and (isinstance(self.stop_at_se, bool)
                                            or not isinstance(self.stop_at_se, int | float)
                                            or not self.stop_at_se > 0):
            problems.append(f"stop_at_se must be a standard error > 0, got {self.stop_at_se!r}")
        if not _is_int(self.check_every) or self.check_every < 1:
            problems.append(f"check_every must be a positive number of trials, got {self.check_every!r}")
        for name in ("variance_reduction", "quasi_random", "bearoff_truncation", "cubeful"):
            if not isinstance(getattr(self, name), bool):
                problems.append(f"{name} must be True or False, got {getattr(self, name)!r}")
        if problems:
            raise ValueError("invalid RolloutSettings: " + "; ".join(problems))


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


def rollout(engine: Engine, position: Position, *, trials: int | None = None, seed: int | None = None,
            truncate: int | None = None, cubeful: bool | None = None, stop_at_se: float | None = None,
            settings: RolloutSettings | None = None, cube_value: int = 1,
            cube_owner: CubeOwner = CubeOwner.CENTRED, match: MatchState | None = None,
            jacoby: bool = True, workers: int | None = None, ray_address: str | None = None,
            progress: Progress | None = None) -> RolloutResult:
    """Roll ``position`` out from before the roll, the player on roll rolling first, the engine
    playing both sides at its plies (``Engine(plies=0).rollout(...)`` rolls out at 0 ply).

    ``trials`` (default 1,296), ``seed``, ``truncate``, ``cubeful``, ``stop_at_se`` override
    ``settings`` (a :class:`RolloutSettings`; the module docstring explains each). With
    ``cubeful``: the cube ``cube_value`` owned by ``cube_owner`` (the player on roll's view),
    ``match`` (None: money, with ``jacoby``), and the player on roll may double at once.
    ``workers``: local processes (default: every core; the result does not depend on it);
    ``ray_address``: run on Ray instead (``"local"`` or a cluster address). ``progress`` is
    called with a :class:`RolloutProgress` after each batch of trials.
    """
    resolved = _resolve(engine, settings, trials=trials, seed=seed, truncate=truncate,
                        cubeful=cubeful, stop_at_se=stop_at_se)
    _check_playable(position)
    cube = _CubeState.checked(cube_value, cube_owner, match, jacoby)
    start = _Start(position.as_array().copy(), cube_value, _ROOT_OWNER[cube_owner], True)
    job = _job(engine, resolved, (start,), cube)
    values = _run(job, workers, ray_address, progress, flip=False)
    return _result(job, values[0])


def rollout_plays(engine: Engine, position: Position, dice: Sequence[int], n: int = 5, *,
                  trials: int | None = None, seed: int | None = None, truncate: int | None = None,
                  cubeful: bool | None = None, stop_at_se: float | None = None,
                  settings: RolloutSettings | None = None, cube_value: int = 1,
                  cube_owner: CubeOwner = CubeOwner.CENTRED, match: MatchState | None = None,
                  jacoby: bool = True, workers: int | None = None, ray_address: str | None = None,
                  progress: Progress | None = None) -> list[PlayRollout]:
    """Roll out the engine's ``n`` best plays of ``position`` for ``dice`` (its
    :meth:`~gammon.engine.engine.Engine.hint`), each from the position after the play (the
    opponent rolls first), all with the SAME dice trial by trial; best first by rolled-out
    equity, each result for the player who plays. Options as :func:`rollout` (the cube and score
    from the player who plays' view). No legal play: an empty list."""
    resolved = _resolve(engine, settings, trials=trials, seed=seed, truncate=truncate,
                        cubeful=cubeful, stop_at_se=stop_at_se)
    check_dice(dice)
    _check_playable(position)
    cube = _CubeState.checked(cube_value, cube_owner, match, jacoby)
    hints = engine.hint(position, dice, n)
    if not hints:
        return []
    owner = -_ROOT_OWNER[cube_owner]  # the roots are the opponent, on roll after the play
    starts = tuple(_Start(h.play.after.as_array().copy(), cube_value, owner, True) for h in hints)
    job = _job(engine, resolved, starts, cube.flipped())
    values = _run(job, workers, ray_address, progress, flip=True)
    out = [PlayRollout(h.play, _result(job, v).flip()) for h, v in zip(hints, values)]
    return sorted(out, key=lambda r: -r.result.equity)


def rollout_cube(engine: Engine, position: Position, *, trials: int | None = None,
                 seed: int | None = None, truncate: int | None = None, stop_at_se: float | None = None,
                 settings: RolloutSettings | None = None, cube_value: int = 1,
                 cube_owner: CubeOwner = CubeOwner.CENTRED, match: MatchState | None = None,
                 jacoby: bool = True, workers: int | None = None, ray_address: str | None = None,
                 progress: Progress | None = None) -> CubeRollout:
    """Cubeful rollouts of the cube decision of the player on roll: no double (the cube as
    given, the player on roll does not double now) and double/take (twice the cube, owned by the
    opponent), with the same dice; double/pass is exact. Options as :func:`rollout`; always
    cubeful. Raises ValueError when the player on roll may not double."""
    resolved = _resolve(engine, settings, trials=trials, seed=seed, truncate=truncate,
                        cubeful=True, stop_at_se=stop_at_se)
    _check_playable(position)
    cube = _CubeState.checked(cube_value, cube_owner, match, jacoby)
    if cube_owner is CubeOwner.OPPONENT:
        raise ValueError("the opponent owns the cube: the player on roll may not double")
    if match is not None and (match.crawford_game or cube_value >= match.away):
        raise ValueError(f"the player on roll may not usefully double at {match!r} with the cube "
                         f"at {cube_value}")
    starts = (_Start(position.as_array().copy(), cube_value, _ROOT_OWNER[cube_owner], False),
              _Start(position.as_array().copy(), 2 * cube_value, -1, False))
    job = _job(engine, resolved, starts, cube)
    values = _run(job, workers, ray_address, progress, flip=False)
    nd, dt = (_result(job, v) for v in values)
    if match is None:
        dp, mwcs = 1.0, None
    else:
        dp_mwc = match.after(match.away - cube_value, match.opponent_away)
        dp = 1.0
        assert nd.match_winning_chance is not None and dt.match_winning_chance is not None
        mwcs = (nd.match_winning_chance, dt.match_winning_chance, dp_mwc)
    action, take = _classify(nd.equity, dt.equity, dp, True)
    decision = CubeDecision(action, take, nd.equity, dt.equity, dp, nd.probabilities, mwcs)
    return CubeRollout(decision, nd, dt)


# --- setting up a job ---------------------------------------------------------------------------

_ROOT_OWNER = {CubeOwner.CENTRED: 0, CubeOwner.MOVER: 1, CubeOwner.OPPONENT: -1}


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_playable(position: Position) -> None:
    if not isinstance(position, Position):
        raise TypeError(f"a rollout needs a Position, got {position!r}")
    if position.is_game_over():
        raise InvalidPositionError(f"the game is over in {position.id!r}: nothing to roll out")


def _resolve(engine: Engine, settings: RolloutSettings | None, **overrides: object) -> RolloutSettings:
    s = settings if settings is not None else RolloutSettings()
    given = {k: v for k, v in overrides.items() if v is not None}
    if given:
        s = replace(s, **given)  # type: ignore[arg-type]
    if s.seed is None:
        s = replace(s, seed=secrets.randbits(32))
    if s.plies is None:
        s = replace(s, plies=engine.plies)
    if s.truncate_plies is None:
        s = replace(s, truncate_plies=s.plies)
    return s


@dataclass(frozen=True)
class _CubeState:
    """The cube and score of the root player: ``base`` is the starting cube value (the unit of
    cubeful money equities and of EMG)."""

    base: int
    match: MatchState | None
    jacoby: bool

    @classmethod
    def checked(cls, value: int, owner: CubeOwner, match: MatchState | None, jacoby: bool) -> _CubeState:
        if not _is_int(value) or value < 1 or value & (value - 1):
            raise ValueError(f"cube_value must be a power of two >= 1, got {value!r}")
        if not isinstance(owner, CubeOwner):
            raise ValueError(f"cube_owner must be a CubeOwner, got {owner!r}")
        if match is not None and not isinstance(match, MatchState):
            raise ValueError(f"match must be a gammon.engine.cubeful.MatchState or None, got {match!r}")
        if match is not None and match.crawford_game and (value != 1 or owner is not CubeOwner.CENTRED):
            raise ValueError(f"the Crawford game has no cube, but the cube is at {value} ({owner.value})")
        return cls(value, match, bool(jacoby) and match is None)

    def flipped(self) -> _CubeState:
        m = self.match
        return _CubeState(self.base, None if m is None else _swap(m), self.jacoby)


def _swap(m: MatchState) -> MatchState:
    return MatchState(m.opponent_away, m.away, m.crawford_game, m.post_crawford)


@dataclass(frozen=True)
class _Start:
    """One alternative: the board (its player on roll is the root), the cube value and owner
    (1 the root, -1 its opponent, 0 centred), and whether the root may double at once."""

    board: np.ndarray
    cube_value: int
    owner: int
    cube_at_start: bool


@dataclass(frozen=True)
class RolloutJob:
    """Everything a worker needs to play a range of trials (picklable)."""

    evaluator: Evaluator
    bearoff: bool
    search: SearchSettings
    settings: RolloutSettings
    starts: tuple[_Start, ...]
    cube: _CubeState
    perms: np.ndarray = field(repr=False)


def _job(engine: Engine, s: RolloutSettings, starts: tuple[_Start, ...], cube: _CubeState) -> RolloutJob:
    assert s.plies is not None and s.seed is not None
    search = replace(engine.settings, plies=s.plies)
    rng = np.random.default_rng(s.seed)
    perms = np.stack([np.stack([rng.permutation(36) for _ in range(_ROTATED_TURNS)])
                      for _ in range(_GENERATIONS)]).astype(np.int64)
    return RolloutJob(engine.evaluator, engine._searcher.bearoff is not None, search, s, starts, cube, perms)


# --- running: batches in order, the stopping rule, progress ---------------------------------------


def _boundaries(s: RolloutSettings, workers: int) -> list[tuple[int, int]]:
    """Batches of trials: about four per worker, 36 to ``_CHUNK`` each, split at every multiple
    of ``check_every`` when a stopping rule needs them."""
    size = max(36, min(_CHUNK, math.ceil(s.trials / (4 * workers))))
    cuts = set(range(0, s.trials, size))
    if s.stop_at_se is not None:
        cuts |= set(range(0, s.trials, s.check_every))
    edges = sorted(cuts) + [s.trials]
    return list(zip(edges[:-1], edges[1:]))


def _run(job: RolloutJob, workers: int | None, ray_address: str | None, progress: Progress | None,
         flip: bool) -> np.ndarray:
    """Per-trial values ``(alternatives, trials, 6)`` of the trials kept, in order."""
    s = job.settings
    n_workers = check_workers(workers)
    parts: list[np.ndarray] = []
    done = 0
    results = ordered_map(play_trials, job, _boundaries(s, n_workers), workers=n_workers,
                          ray_address=ray_address)
    try:
        for part in results:
            parts.append(part)
            done += part.shape[1]
            if progress is None and s.stop_at_se is None:
                continue
            values = np.concatenate(parts, axis=1)
            eq, se = _equity_and_error(job, values)
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


def _equity_and_error(job: RolloutJob, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error of the reported equity of each alternative."""
    eq = values[:, :, 5] if job.settings.cubeful else cubeless_equity(values[:, :, :5])
    n = eq.shape[1]
    se = eq.std(axis=1, ddof=1) / math.sqrt(n) if n > 1 else np.full(eq.shape[0], math.nan)
    return eq.mean(axis=1), se


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
        lose1, win1 = _match_unit(job.cube)
        mwc = lose1 + (float(mean[6]) + 1.0) * (win1 - lose1) / 2.0
    e = [float(v) for v in se]
    errors = StandardErrors(e[0], e[1], e[2], e[3], e[4], e[5], e[6] if cubeful else e[5])
    return RolloutResult(Probabilities.from_array(mean[:5]), float(mean[6] if cubeful else mean[5]),
                         errors, n, job.settings, float(mean[5]), mwc)


def _match_unit(cube: _CubeState) -> tuple[float, float]:
    """The root's match winning chances after losing and after winning one starting cube."""
    m = cube.match
    assert m is not None
    return m.after(m.away, m.opponent_away - cube.base), m.after(m.away - cube.base, m.opponent_away)


# --- the trials ---------------------------------------------------------------------------------


@njit(cache=True)
def _hash_roll(seed, trial, turn):
    """A roll 0..35 from (seed, trial, turn): splitmix64's finaliser on their mix."""
    z = (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(trial) * np.uint64(0xBF58476D1CE4E5B9)
         + np.uint64(turn) * np.uint64(0x94D049BB133111EB) + np.uint64(0x2545F4914F6CDD1D))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(36))


@njit(cache=True)
def _rolls36(perms, seed, trials, turn, rotate):
    """The roll (0..35: ``6 * (d1 - 1) + d2 - 1``) of each trial at ``turn``: quasi-random
    (nested permutations of the trial's base-36 digits) or hashed."""
    out = np.empty(trials.shape[0], dtype=np.int64)
    generations = perms.shape[0]
    for i in range(trials.shape[0]):
        g = trials[i]
        if rotate and turn < perms.shape[1]:
            j = 0
            k = 1
            for gen in range(min(turn, generations - 1) + 1):
                j = perms[gen, turn, (g // k + j) % 36]
                k *= 36
            out[i] = j
        else:
            out[i] = _hash_roll(seed, g, turn)
    return out


@njit(cache=True)
def _roll_means(values, weights):
    """The mean over the 21 rolls (``weights``) of ``values (n, 21, 5)``, summed in roll order."""
    n = values.shape[0]
    out = np.zeros((n, 5))
    for i in range(n):
        for r in range(values.shape[1]):
            w = weights[r]
            for k in range(5):
                out[i, k] += w * values[i, r, k]
    return out


@njit(cache=True)
def _races(boards):
    out = np.empty(boards.shape[0], dtype=np.bool_)
    for r in range(boards.shape[0]):
        out[r] = is_race_board(boards[r])
    return out


def _pips(boards: np.ndarray) -> np.ndarray:
    return (np.where(boards > 0, boards, 0).astype(np.int64) * np.arange(26)).sum(axis=1)


def _expand_own(boards: np.ndarray, r21: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every play of each board for its own roll (:func:`gammon.engine.search._expand` once per
    roll present): ``(children, starts, rows)``, group ``g`` (rows ``starts[g]:starts[g + 1]`` of
    ``children``) being board ``rows[g]``'s plays."""
    parts, firsts, rows = [], [], []
    offset = 0
    for r in np.unique(r21):
        group = np.flatnonzero(r21 == r)
        children, starts = _expand(boards[group], _ROLLS[r:r + 1])
        parts.append(children)
        firsts.append(starts[:-1] + offset)
        rows.append(group)
        offset += len(children)
    starts = np.concatenate([*firsts, [offset]]).astype(np.int64)
    return np.concatenate(parts), starts, np.concatenate(rows)


def _to_root(probs: np.ndarray, root_on_roll: bool) -> np.ndarray:
    return probs if root_on_roll else flip_probabilities(probs)


class _Trials:
    """A batch of trials of every alternative, played in lockstep, one half-move per step."""

    def __init__(self, job: RolloutJob, start: int, stop: int) -> None:
        from gammon.engine.engine import default_bearoff

        self.job = job
        self.s = job.settings
        self.searcher = Searcher(job.evaluator, default_bearoff() if job.bearoff else None)
        n = stop - start
        alts = len(job.starts)
        self.alt = np.repeat(np.arange(alts), n)
        self.trial = np.tile(np.arange(start, stop, dtype=np.int64), alts)
        self.boards = np.stack([st.board for st in job.starts]).astype(np.int8)[self.alt]
        self.cube = np.array([st.cube_value for st in job.starts], dtype=np.float64)[self.alt]
        self.owner = np.array([st.owner for st in job.starts], dtype=np.int64)[self.alt]
        self.cube_at_start = np.array([st.cube_at_start for st in job.starts])[self.alt]
        self.luck = np.zeros((len(self.alt), 5))
        self.luck_cubeful = np.zeros(len(self.alt))
        self.out = np.zeros((len(self.alt), 6))
        self.done = np.zeros(len(self.alt), dtype=bool)
        self.n, self.alts = n, alts

    def run(self) -> np.ndarray:
        s = self.s
        for turn in range(MAX_HALF_MOVES + 1):
            live = np.flatnonzero(~self.done)
            if len(live) == 0:
                break
            root_on_roll = turn % 2 == 0
            live = self._endings(live, root_on_roll,
                                 truncate=turn == MAX_HALF_MOVES or turn == s.truncate)
            if s.cubeful and len(live):
                live = self._cube_actions(live, root_on_roll, turn)
            if len(live):
                self._play(live, root_on_roll, turn)
        values = self.out.copy()
        values[:, :5] -= self.luck
        values[:, 5] -= self.luck_cubeful
        return values.reshape(self.alts, self.n, 6)

    # --- endings ---------------------------------------------------------------------------

    def _finish(self, rows: np.ndarray, probs: np.ndarray, cubeful: np.ndarray | None,
                root_on_roll: bool) -> None:
        """Record the result of ``rows``: probabilities for the player on roll and, cubeful, its
        value (money: points per starting cube; match: its match winning chance)."""
        self.out[rows, :5] = _to_root(probs, root_on_roll)
        if cubeful is not None:
            self.out[rows, 5] = self._cubeful_to_root(cubeful, root_on_roll)
        self.done[rows] = True

    def _cubeful_to_root(self, values: np.ndarray, root_on_roll: bool) -> np.ndarray:
        """Money points per starting cube, or EMG, for the root from the player on roll's value."""
        m = self.job.cube.match
        if m is None:
            return values if root_on_roll else -values
        mwc = values if root_on_roll else 1.0 - values
        lose1, win1 = _match_unit(self.job.cube)
        return 2.0 * (mwc - lose1) / (win1 - lose1) - 1.0

    def _endings(self, live: np.ndarray, root_on_roll: bool, truncate: bool) -> np.ndarray:
        """Score the finished, bear-off and (``truncate``) truncated trials; the rest go on."""
        b = self.boards[live]
        over = ~(b < 0).any(axis=1)  # the player not on roll has borne off every checker
        if over.any():
            rows = live[over]
            probs = terminal_probabilities(b[over])
            self._finish(rows, probs, self._cubeful_final(rows, probs, root_on_roll), root_on_roll)
        rest = ~over
        if self.s.bearoff_truncation and self.searcher.bearoff is not None and not truncate:
            from gammon.engine.bearoff import is_bearoff

            home = rest & is_bearoff(b)
            if home.any():
                rows = live[home]
                probs = self.searcher.leaf(b[home])
                self._finish(rows, probs, self._cubeful_model(rows, b[home], probs, root_on_roll),
                             root_on_roll)
                rest &= ~home
        if truncate and rest.any():
            rows = live[rest]
            probs = self._evaluate(b[rest], self.s.truncate_plies or 0)
            self._finish(rows, probs, self._cubeful_model(rows, b[rest], probs, root_on_roll),
                         root_on_roll)
            return live[:0]
        return live[rest]

    def _evaluate(self, boards: np.ndarray, plies: int) -> np.ndarray:
        if plies == 0:
            return self.searcher.leaf(boards)
        # one board at a time: a board's value must not depend on the batch it came in
        return np.concatenate([self.searcher.evaluate_boards(boards[i:i + 1], plies)
                               for i in range(len(boards))])

    def _mover_match(self, root_on_roll: bool) -> MatchState | None:
        m = self.job.cube.match
        return m if m is None or root_on_roll else _swap(m)

    def _owner_for_mover(self, rows: np.ndarray, root_on_roll: bool) -> list[CubeOwner]:
        rel = self.owner[rows] * (1 if root_on_roll else -1)
        return [CubeOwner.CENTRED if o == 0 else CubeOwner.MOVER if o > 0 else CubeOwner.OPPONENT
                for o in rel]

    def _cubeful_final(self, rows: np.ndarray, probs: np.ndarray, root_on_roll: bool) -> np.ndarray | None:
        """The value of finished games for the player on roll (who lost)."""
        if not self.s.cubeful:
            return None
        cube = self.cube[rows]
        points = -cubeless_equity(probs)  # 1, 2 or 3 for the winner
        m = self._mover_match(root_on_roll)
        if m is None:
            if self.job.cube.jacoby:
                points = np.where(self.owner[rows] == 0, 1.0, points)
            return -points * cube / self.job.cube.base
        return np.array([m.after(m.away, m.opponent_away - int(round(p * c)))
                         for p, c in zip(points, cube)])

    def _cubeful_model(self, rows: np.ndarray, boards: np.ndarray, probs: np.ndarray,
                       root_on_roll: bool) -> np.ndarray | None:
        """The engine's cubeful equity (Janowski; match: the MET model) of unfinished trials."""
        if not self.s.cubeful:
            return None
        m = self._mover_match(root_on_roll)
        owners = self._owner_for_mover(rows, root_on_roll)
        races, pips = _races(boards), _pips(boards)
        out = np.empty(len(rows))
        for i, (p, owner, cube) in enumerate(zip(probs, owners, self.cube[rows])):
            x = cube_efficiency(bool(races[i]), int(pips[i]))
            if m is None:
                out[i] = money_equity(p, owner, x, jacoby=self.job.cube.jacoby) * cube / self.job.cube.base
            else:
                out[i] = MatchCube(p, m, x).equity(float(p[0]), int(cube), owner)
        return out

    # --- the cube --------------------------------------------------------------------------

    def _cube_actions(self, live: np.ndarray, root_on_roll: bool, turn: int) -> np.ndarray:
        """The player on roll doubles where the engine says so; a pass ends the trial."""
        sign = 1 if root_on_roll else -1
        may = (self.owner[live] == 0) | (self.owner[live] == sign)
        if turn == 0:
            may &= self.cube_at_start[live]
        rows = live[may]
        if len(rows) == 0:
            return live
        b = self.boards[rows]
        probs = self.searcher.leaf(b)
        races, pips = _races(b), _pips(b)
        m = self._mover_match(root_on_roll)
        owners = self._owner_for_mover(rows, root_on_roll)
        passed = []
        for i, row in enumerate(rows):
            p = Probabilities.from_array(probs[i])
            x = cube_efficiency(bool(races[i]), int(pips[i]))
            cube = int(self.cube[row])
            if m is None:
                d = money_cube_decision(p, owners[i], x, jacoby=self.job.cube.jacoby)
            else:
                d = match_cube_decision(p, m, cube, owners[i], x)
            if d.action is CubeAction.DOUBLE_TAKE:
                self.cube[row] = 2 * cube
                self.owner[row] = -sign  # the taker owns it
            elif d.action is CubeAction.DOUBLE_PASS:
                passed.append(i)
        if passed:
            idx = np.array(passed)
            prow = rows[idx]
            cube = self.cube[prow]
            if m is None:
                value = cube / self.job.cube.base
            else:
                value = np.array([m.after(m.away - int(c), m.opponent_away) for c in cube])
            self._finish(prow, probs[idx], value, root_on_roll)
            return live[~self.done[live]]
        return live

    # --- a half-move -------------------------------------------------------------------------

    def _play(self, live: np.ndarray, root_on_roll: bool, turn: int) -> None:
        s, searcher = self.s, self.searcher
        b = self.boards[live]
        r21 = _ROLL21_OF_36[_rolls36(self.job.perms, (s.seed or 0) & _SEED_MASK, self.trial[live], turn,
                                     s.quasi_random)]
        plies = s.plies or 0
        m = len(live)
        if s.variance_reduction:
            # trials often share a board (all of them at the start): expand each board once
            boards, inverse = np.unique(b, axis=0, return_inverse=True)
            inverse = inverse.reshape(-1)
            children, starts = _expand(boards, _ROLLS)
            child_probs = searcher.leaf(children)
            best = _best_in_groups(cubeless_equity(child_probs), starts)
            if plies <= 1:
                values = flip_probabilities(child_probs[best])
            else:
                values = flip_probabilities(self._evaluate_groups(children[best], plies - 1))
            values = values.reshape(len(boards), len(_ROLLS), 5)
            mean = _roll_means(values, _ROLL_WEIGHTS)[inverse]
            actual = values[inverse, r21]
            self.luck[live] += _to_root(actual, root_on_roll) - _to_root(mean, root_on_roll)
            if s.cubeful:
                luck = cubeless_equity(actual) - cubeless_equity(mean)
                self.luck_cubeful[live] += self._equity_scale(live, root_on_roll) * luck
            group = inverse * len(_ROLLS) + r21
            lo, hi = starts[group], starts[group + 1]
            if plies == 0:
                self.boards[live] = children[best[group]]
                return
        else:
            children, starts, rows = _expand_own(b, r21)
            if plies == 0:
                best = _best_in_groups(cubeless_equity(searcher.leaf(children)), starts)
                chosen = np.empty((m, 26), dtype=np.int8)
                chosen[rows] = children[best]
                self.boards[live] = chosen
                return
            lo = np.empty(m, dtype=np.int64)
            hi = np.empty(m, dtype=np.int64)
            lo[rows], hi[rows] = starts[:-1], starts[1:]
        chosen = np.empty((m, 26), dtype=np.int8)
        searched: dict[tuple[bytes, int], int] = {}  # trials with the same board and roll search once
        for i in range(m):
            key = (b[i].tobytes(), int(r21[i]))
            if key not in searched:
                after = children[lo[i]:hi[i]]
                best_play = 0 if len(after) == 1 else int(searcher.rank_plays(after, self.job.search)[0][0])
                searched[key] = int(lo[i]) + best_play
            chosen[i] = children[searched[key]]
        self.boards[live] = chosen

    def _evaluate_groups(self, boards: np.ndarray, plies: int) -> np.ndarray:
        """``boards`` (21 per trial) at ``plies``, one trial's 21 at a time (batch-independent)."""
        k = len(_ROLLS)
        return np.concatenate([self.searcher.evaluate_boards(boards[i:i + k], plies)
                               for i in range(0, len(boards), k)])

    def _equity_scale(self, rows: np.ndarray, root_on_roll: bool) -> np.ndarray:
        """Cubeless luck (mover's equity) to the root's cubeful units: the cube in play over the
        starting cube, signed for the root (EMG for a match: the same scale)."""
        return self.cube[rows] / self.job.cube.base * (1.0 if root_on_roll else -1.0)


def play_trials(job: RolloutJob, start: int, stop: int) -> np.ndarray:
    """Trials ``start .. stop - 1`` of every alternative of ``job``: ``(alternatives, trials, 6)``,
    the five probabilities and the cubeful value (zero when cubeless) for the root player, after
    variance reduction. The work unit of :mod:`gammon.engine.parallel`."""
    return _Trials(job, start, stop).run()


__all__ = ["CubeRollout", "PlayRollout", "RolloutProgress", "RolloutResult", "RolloutSettings",
           "StandardErrors", "rollout", "rollout_cube", "rollout_plays"]
