"""The trials of a rollout (:mod:`gammon.engine.rollout.rollouts`): a batch of trials of every alternative
played in lockstep, one half-move per step, each step through the engine's batched kernels (the
move generator over the 21 rolls of every distinct board, one evaluator call for all the
resulting positions).

Per step: finished games, bear-off positions (with ``bearoff_truncation``) and, at ``truncate``,
every trial are scored; cubeful, the player on roll doubles where the engine's cube model says
so and a pass ends the trial; then the dice are thrown (quasi-random: the turn's seeded
permutation of 36 applied to the base-36 digits of the trial's index, nested as GNU
Backgammon's rotation; after turn 127, or without ``quasi_random``, a hash of seed, trial and
turn) and the engine plays. With variance reduction the value of each of the 21 rolls (best
play at 0 ply, evaluated at the playing ply minus one) is measured first and the luck of the roll
thrown, its value minus the mean, is added up for the root player and subtracted at the end.

A trial's dice depend only on the seed and its index and a board's value never on the batch it
came in, so any split of the trials into batches gives the same per-trial values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from gammon.engine.bearoff.one_sided import default_bearoff, is_bearoff
from gammon.engine.cube.cubeful import OWNER_COLUMNS, MatchCube, cube_efficiencies, money_equity, mwc_after
from gammon.engine.cube.cubeful_search import exact_money_values
from gammon.engine.cube.decision import CubeAction, match_cube_decision, money_cube_decision
from gammon.engine.net.encode import is_race_board
from gammon.engine.net.evaluator import Evaluator, Probabilities, cubeless_equity, flip_probabilities
from gammon.engine.rollout.settings import RolloutSettings
from gammon.engine.search.rolls import ROLL_WEIGHTS, ROLLS
from gammon.engine.search.searcher import (
    Searcher,
    SearchSettings,
    best_in_groups,
    expand,
    terminal_probabilities,
)
from gammon.primitive_kernels import pip_counts
from gammon.situation import CubeOwner, MatchScore, Situation

MAX_HALF_MOVES = 2000
"""A trial still running after this many half-moves is scored as truncated (never seen in play)."""

_ROTATED_TURNS = 128
_GENERATIONS = 6  # 36**6 trials before the rotation repeats
_SEED_MASK = (1 << 63) - 1
_INDEX21 = np.array([[min(a, b) - 1, max(a, b) - 1] for a in range(1, 7) for b in range(1, 7)])
# the 21-roll index (search.ROLLS order) of each of the 36 ordered rolls j = 6 * (d1 - 1) + (d2 - 1)
_ROLL21_OF_36 = np.array([[i for i, (a, b) in enumerate(ROLLS) if (a - 1, b - 1) == (lo, hi)][0]
                          for lo, hi in _INDEX21], dtype=np.int64)


@dataclass(frozen=True)
class RootCube:
    """What the trials read of the root player's :class:`~gammon.situation.Situation`: ``base``,
    the starting cube value (the unit of cubeful money equities and of EMG), the score in points
    away (None: money) and the Jacoby rule."""

    base: int
    match: MatchScore | None
    jacoby: bool

    @classmethod
    def of(cls, situation: Situation) -> RootCube:
        match = situation.match
        if match is not None and match.crawford_game and (
                situation.cube_value != 1 or situation.cube_owner is not CubeOwner.CENTRED):
            raise ValueError(f"the Crawford game has no cube, but the cube is at {situation.cube_value} "
                             f"({situation.cube_owner.value})")
        return cls(situation.cube_value, match, situation.jacoby)

    def flipped(self) -> RootCube:
        m = self.match
        return RootCube(self.base, None if m is None else m.flip(), self.jacoby)


@dataclass(frozen=True)
class Start:
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
    starts: tuple[Start, ...]
    cube: RootCube
    perms: np.ndarray = field(repr=False)


def match_unit(cube: RootCube) -> tuple[float, float]:
    """The root's match winning chances after losing and after winning one starting cube."""
    m = cube.match
    assert m is not None
    return (mwc_after(m, m.away, m.opponent_away - cube.base),
            mwc_after(m, m.away - cube.base, m.opponent_away))


def dice_permutations(seed: int) -> np.ndarray:
    """The seeded permutations of the quasi-random dice: ``[generation, turn, 36]``."""
    rng = np.random.default_rng(seed)
    return np.stack([np.stack([rng.permutation(36) for _ in range(_ROTATED_TURNS)])
                     for _ in range(_GENERATIONS)]).astype(np.int64)


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


@njit(cache=True)
def _pips(boards):
    """The mover's pip count of each board."""
    out = np.empty(boards.shape[0], dtype=np.int64)
    for r in range(boards.shape[0]):
        out[r] = pip_counts(boards[r])[0]
    return out


def _expand_own(boards: np.ndarray, r21: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every play of each board for its own roll (:func:`gammon.engine.search.searcher.expand` once per
    roll present): ``(children, starts, rows)``, group ``g`` (rows ``starts[g]:starts[g + 1]`` of
    ``children``) being board ``rows[g]``'s plays."""
    parts, firsts, rows = [], [], []
    offset = 0
    for r in np.unique(r21):
        group = np.flatnonzero(r21 == r)
        children, starts = expand(boards[group], ROLLS[r:r + 1])
        parts.append(children)
        firsts.append(starts[:-1] + offset)
        rows.append(group)
        offset += len(children)
    starts = np.concatenate([*firsts, [offset]]).astype(np.int64)
    return np.concatenate(parts), starts, np.concatenate(rows)


def _to_root(probs: np.ndarray, root_on_roll: bool) -> np.ndarray:
    return probs if root_on_roll else flip_probabilities(probs)


@dataclass(frozen=True)
class _CubeContext:
    """For some trials' rows, from the player on roll's side: the match state (``None`` for money),
    the cube owners, the cube efficiencies and, where ``small``, the two-sided bear-off database's
    exact cubeful money values (:func:`exact_money_values`; none in a match)."""

    match: MatchScore | None
    owners: list[CubeOwner]
    efficiencies: np.ndarray
    small: np.ndarray
    exact: np.ndarray


class _Trials:
    """A batch of trials of every alternative, played in lockstep, one half-move per step."""

    def __init__(self, job: RolloutJob, start: int, stop: int) -> None:
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
        lose1, win1 = match_unit(self.job.cube)
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
            home = rest & is_bearoff(b)
            if home.any():
                rows = live[home]
                probs, chances = self.searcher.leaf_and_cube(b[home])
                self._finish(rows, probs, self._cubeful_model(rows, b[home], chances, root_on_roll),
                             root_on_roll)
                rest &= ~home
        if truncate and rest.any():
            rows = live[rest]
            probs, chances = self._evaluate(b[rest], self.s.truncate_plies or 0)
            self._finish(rows, probs, self._cubeful_model(rows, b[rest], chances, root_on_roll),
                         root_on_roll)
            return live[:0]
        return live[rest]

    def _evaluate(self, boards: np.ndarray, plies: int) -> tuple[np.ndarray, np.ndarray]:
        """The truncated trials' chances at ``plies`` and the chances their cube is valued on: at 0
        ply the cube's own (the contact net's cube head, as the engine's 0-ply cube decisions),
        from the same pass of the net; deeper, the same chances."""
        if plies == 0:
            return self.searcher.leaf_and_cube(boards)
        # one board at a time: a board's value must not depend on the batch it came in
        probs = np.concatenate([self.searcher.evaluate_boards(boards[i:i + 1], plies)
                                for i in range(len(boards))])
        return probs, probs

    def _mover_match(self, root_on_roll: bool) -> MatchScore | None:
        m = self.job.cube.match
        return m if m is None or root_on_roll else m.flip()

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
        return np.array([mwc_after(m, m.away, m.opponent_away - int(round(p * c)))
                         for p, c in zip(points, cube)])

    def _cube_context(self, rows: np.ndarray, boards: np.ndarray, root_on_roll: bool) -> _CubeContext:
        """What valuing the cube of trials ``rows`` (on ``boards``) needs, for the player on roll."""
        m = self._mover_match(root_on_roll)
        if m is None:
            small, exact = exact_money_values(self.searcher, boards)
        else:
            small = np.zeros(len(boards), dtype=np.bool_)
            exact = np.full((len(boards), 3), np.nan)
        return _CubeContext(m, self._owner_for_mover(rows, root_on_roll),
                            cube_efficiencies(_races(boards), _pips(boards)), small, exact)

    def _cubeful_model(self, rows: np.ndarray, boards: np.ndarray, chances: np.ndarray,
                       root_on_roll: bool) -> np.ndarray | None:
        """The engine's cubeful equity (Janowski, exact in the two-sided bear-off database; match:
        the MET model) of unfinished trials on ``chances``, the cube's (at 0 ply the contact net's
        cube head's, where it has one, as the engine's cube decisions value them)."""
        if not self.s.cubeful:
            return None
        c = self._cube_context(rows, boards, root_on_roll)
        m = c.match
        out = np.empty(len(rows))
        for i, (p, owner, cube) in enumerate(zip(chances, c.owners, self.cube[rows])):
            x = float(c.efficiencies[i])
            if m is None:
                value = (c.exact[i, OWNER_COLUMNS.index(owner)] if c.small[i]
                         else money_equity(p, owner, x, jacoby=self.job.cube.jacoby))
                out[i] = value * cube / self.job.cube.base
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
        # the cube acts on the chances the engine's 0-ply cube decisions value (the cube head's);
        # a pass ends the trial with the play chances, as every other trial ends
        probs, chances = self.searcher.leaf_and_cube(b)
        c = self._cube_context(rows, b, root_on_roll)
        m = c.match
        passed = []
        for i, row in enumerate(rows):
            p = Probabilities.from_array(chances[i])
            x = float(c.efficiencies[i])
            cube = int(self.cube[row])
            if m is None:
                d = money_cube_decision(p, c.owners[i], x, jacoby=self.job.cube.jacoby,
                                        values=c.exact[i] if c.small[i] else None)
            else:
                d = match_cube_decision(p, m, cube, c.owners[i], x)
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
                value = np.array([mwc_after(m, m.away - int(c), m.opponent_away) for c in cube])
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
        if s.variance_reduction and plies == 0:
            # trials often share a board (all of them at the start): search each board once; the
            # best play of each roll and its value come from one kernel (Searcher.best_children)
            boards, inverse = np.unique(b, axis=0, return_inverse=True)
            inverse = inverse.reshape(-1)
            best_boards, best_probs = searcher.best_children(boards)
            values = flip_probabilities(best_probs).reshape(len(boards), len(ROLLS), 5)
            self._add_luck(live, root_on_roll, values, inverse, r21)
            self.boards[live] = best_boards[inverse * len(ROLLS) + r21]
            return
        if s.variance_reduction:
            boards, inverse = np.unique(b, axis=0, return_inverse=True)
            inverse = inverse.reshape(-1)
            children, starts = expand(boards, ROLLS)
            child_probs = searcher.leaf(children)
            best = best_in_groups(cubeless_equity(child_probs), starts)
            if plies <= 1:
                values = flip_probabilities(child_probs[best])
            else:
                values = flip_probabilities(self._evaluate_groups(children[best], plies - 1))
            values = values.reshape(len(boards), len(ROLLS), 5)
            self._add_luck(live, root_on_roll, values, inverse, r21)
            group = inverse * len(ROLLS) + r21
            lo, hi = starts[group], starts[group + 1]
        else:
            children, starts, rows = _expand_own(b, r21)
            if plies == 0:
                best = best_in_groups(cubeless_equity(searcher.leaf(children)), starts)
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

    def _add_luck(self, live: np.ndarray, root_on_roll: bool, values: np.ndarray, inverse: np.ndarray,
                  r21: np.ndarray) -> None:
        """Variance reduction: add up for trials ``live`` the luck of the rolls thrown, ``r21``, the
        value of the roll (``values[board, roll]``, for the player on roll, of its board
        ``inverse``) minus the mean over the 21 rolls."""
        mean = _roll_means(values, ROLL_WEIGHTS)[inverse]
        actual = values[inverse, r21]
        self.luck[live] += _to_root(actual, root_on_roll) - _to_root(mean, root_on_roll)
        if self.s.cubeful:
            luck = cubeless_equity(actual) - cubeless_equity(mean)
            self.luck_cubeful[live] += self._equity_scale(live, root_on_roll) * luck

    def _evaluate_groups(self, boards: np.ndarray, plies: int) -> np.ndarray:
        """``boards`` (21 per trial) at ``plies``, one trial's 21 at a time (batch-independent)."""
        k = len(ROLLS)
        return np.concatenate([self.searcher.evaluate_boards(boards[i:i + k], plies)
                               for i in range(0, len(boards), k)])

    def _equity_scale(self, rows: np.ndarray, root_on_roll: bool) -> np.ndarray:
        """Cubeless luck (mover's equity) to the root's cubeful units: the cube in play over the
        starting cube, signed for the root (EMG for a match: the same scale)."""
        return self.cube[rows] / self.job.cube.base * (1.0 if root_on_roll else -1.0)


def play_trials(job: RolloutJob, start: int, stop: int) -> np.ndarray:
    """Trials ``start .. stop - 1`` of every alternative of ``job``: ``(alternatives, trials, 6)``,
    the five probabilities and the cubeful value (zero when cubeless) for the root player, after
    variance reduction. The work unit of :mod:`gammon.engine.rollout.parallel`."""
    return _Trials(job, start, stop).run()


__all__ = ["MAX_HALF_MOVES", "RootCube", "RolloutJob", "Start", "dice_permutations", "match_unit",
           "play_trials"]
