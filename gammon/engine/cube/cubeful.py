"""Cubeful equity from cubeless probabilities.

Money: Rick Janowski's formulas ("Take-Points in Money Games", 1993) as GNU Backgammon uses them:
the cubeful equity is ``x * live + (1 - x) * dead``, where ``dead`` is the cubeless equity, ``live``
the piecewise-linear equity of a perfectly efficient cube through the take and cash points, and
``x`` the cube efficiency (0.68 in contact; in races it grows with the pip count).

Match: the same construction in match winning chances (MWC). For cube value ``v`` and owner, the
live curve of MWC against the win probability ``p`` runs through: losing at ``p = 0`` and winning
at ``p = 1`` (with the position's gammon rates, scored by the match equity table), the point where
the opponent cashes (our take point: there the MWC is that of passing a double) and the point where
we cash (the opponent's take point). Take points come from the curves one cube level up, built from
the level where no useful double remains (the cube is dead), so recubes are valued at every level.
Equities are all seen by the player on roll; money equities are per unit of the current cube.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from gammon.engine.cube.met import equity_after
from gammon.situation import CubeOwner, MatchScore, Situation

CONTACT_EFFICIENCY = 0.68
RACE_EFFICIENCY_BASE = 0.55
RACE_EFFICIENCY_PER_PIP = 0.00125
RACE_EFFICIENCY_MIN = 0.6
RACE_EFFICIENCY_MAX = 0.7


OWNER_COLUMNS = (CubeOwner.CENTRED, CubeOwner.MOVER, CubeOwner.OPPONENT)
"""Column order of cubeful equities per cube state (:func:`money_equities`)."""


class CubeState(NamedTuple):
    """A cube from the view of the player on roll: its value and its owner (a
    :class:`~gammon.situation.Situation`'s ``cube_value`` and ``cube_owner``)."""

    value: int
    owner: CubeOwner

    @classmethod
    def of(cls, situation: Situation) -> CubeState:
        return cls(situation.cube_value, situation.cube_owner)

    def seen_by_opponent(self) -> CubeState:
        """The same cube from the other player's view (a centred cube stays centred)."""
        swap = {CubeOwner.MOVER: CubeOwner.OPPONENT, CubeOwner.OPPONENT: CubeOwner.MOVER}
        return CubeState(self.value, swap.get(self.owner, self.owner))


def mwc_after(match: MatchScore, mine: int, theirs: int) -> float:
    """Match winning chance at the start of the next game with ``mine``/``theirs`` away, ``match``
    being the score now (whether a Crawford game is still to come: ``MatchScore.crawford_done``)."""
    return equity_after(mine, theirs, crawford_done=match.crawford_done)


def cube_efficiency(is_race: bool, mover_pips: int) -> float:
    """Janowski's x: 0.68 in contact; in a race 0.55 + 0.00125 per pip, within [0.6, 0.7]."""
    return float(cube_efficiencies(np.array([is_race]), np.array([mover_pips]))[0])


def cube_efficiencies(is_race: np.ndarray, mover_pips: np.ndarray) -> np.ndarray:
    """:func:`cube_efficiency` of many positions at once (bool and pip arrays of one shape)."""
    race = np.clip(RACE_EFFICIENCY_BASE + RACE_EFFICIENCY_PER_PIP * np.asarray(mover_pips, dtype=np.float64),
                   RACE_EFFICIENCY_MIN, RACE_EFFICIENCY_MAX)
    return np.where(np.asarray(is_race, dtype=np.bool_), race, CONTACT_EFFICIENCY)


def money_equities(probs: np.ndarray, x: np.ndarray | float, jacoby: bool = False) -> np.ndarray:
    """Janowski cubeful money equities of each row of ``probs`` (N, 5) for the player on roll, per
    unit of the current cube: columns centred, owned by the mover, owned by the opponent
    (:data:`OWNER_COLUMNS`). ``x``: the cube efficiency of each row (or one for all);
    ``jacoby``: gammons do not count with the cube centred."""
    probs = np.asarray(probs, dtype=np.float64).reshape(-1, 5)
    p = probs[:, 0]
    x = np.broadcast_to(np.asarray(x, dtype=np.float64), p.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        # average points won when winning (W) and lost when losing (L)
        big_w = np.where(p > 1e-7, 1.0 + (probs[:, 1] + probs[:, 2]) / p, 1.0)
        big_l = np.where(p < 1.0 - 1e-7, 1.0 + (probs[:, 3] + probs[:, 4]) / (1.0 - p), 1.0)
    out = np.empty((len(p), 3))
    w, lo = big_w, big_l
    tp = (lo - 0.5) / (w + lo + 0.5)
    cp = (lo + 1.0) / (w + lo + 0.5)
    too_good = 1.0 + (w - 1.0) * (p - cp) / (1.0 - cp)  # above the cash point
    for col, owner in enumerate(OWNER_COLUMNS):
        if jacoby and owner is CubeOwner.CENTRED:
            # Gammons count only once the cube is turned: played to the end the game is worth
            # 2p - 1, while the take and cash points are those of the doubled game, gammons and
            # all; beyond them a side cashes, as playing on for a gammon wins nothing more. GNU
            # Backgammon's model: fed gnubg 0-ply's chances of 1,617 positions, it gives gnubg
            # 0-ply's no-double equities within 0.002 on average (counting no gammons: 0.042)
            dead = 2.0 * p - 1.0
            live = np.where(p < tp, -1.0, np.where(p < cp, -1.0 + 2.0 * (p - tp) / (cp - tp), 1.0))
            out[:, col] = x * live + (1.0 - x) * dead
            continue
        dead = p * w - (1.0 - p) * lo
        if owner is CubeOwner.CENTRED:
            live = np.where(p < tp, -lo + (lo - 1.0) * p / tp,
                            np.where(p < cp, -1.0 + 2.0 * (p - tp) / (cp - tp), too_good))
        elif owner is CubeOwner.MOVER:
            live = np.where(p < cp, -lo + (1.0 + lo) * p / cp, too_good)
        else:
            live = np.where(p < tp, -lo + (lo - 1.0) * p / tp, -1.0 + (w + 1.0) * (p - tp) / (1.0 - tp))
        out[:, col] = x * live + (1.0 - x) * dead
    return out


def money_equity(probs: np.ndarray, owner: CubeOwner, x: float, jacoby: bool = False) -> float:
    """Janowski cubeful money equity for the player on roll, per unit of the current cube.
    ``jacoby`` (centred cube only): gammons do not count until the cube is turned."""
    return float(money_equities(probs, x, jacoby)[0, OWNER_COLUMNS.index(owner)])


# --- match play --------------------------------------------------------------------------------

Curve = tuple[tuple[float, ...], tuple[float, ...]]  # breakpoints (p, mwc), p ascending


def _at(curve: Curve, p: float) -> float:
    return float(np.interp(p, curve[0], curve[1]))


def _solve(curve: Curve, y: float) -> float:
    """The p where the (non-decreasing) curve reaches ``y``; 0 or 1 when it never does."""
    xs, ys = curve
    if y <= ys[0]:
        return 0.0
    if y >= ys[-1]:
        return 1.0
    for i in range(1, len(xs)):
        if ys[i] >= y:
            if ys[i] == ys[i - 1]:
                return xs[i - 1]
            return xs[i - 1] + (y - ys[i - 1]) * (xs[i] - xs[i - 1]) / (ys[i] - ys[i - 1])
    return 1.0


class MatchCube:
    """Cubeful MWC curves for one position's gammon rates at one match score."""

    def __init__(self, probs: np.ndarray, match: MatchScore, x: float) -> None:
        w, wg, wbg, lg, lbg = (float(v) for v in probs)
        # outcome shares given a win / a loss: single, gammon, backgammon
        self._win_shares = ((w - wg) / w, (wg - wbg) / w, wbg / w) if w > 1e-9 else (1.0, 0.0, 0.0)
        lose = 1.0 - w
        self._loss_shares = (((lose - lg) / lose, (lg - lbg) / lose, lbg / lose) if lose > 1e-9
                             else (1.0, 0.0, 0.0))
        self.match = match
        self.x = x
        self._curve = lru_cache(maxsize=None)(self._build)

    def win_value(self, v: int) -> float:
        m = self.match
        return sum(s * mwc_after(m, m.away - k * v, m.opponent_away)
                   for k, s in enumerate(self._win_shares, 1))

    def loss_value(self, v: int) -> float:
        m = self.match
        return sum(s * mwc_after(m, m.away, m.opponent_away - k * v)
                   for k, s in enumerate(self._loss_shares, 1))

    def can_double(self, v: int, owner: CubeOwner, mover: bool) -> bool:
        """Whether the player on roll (``mover``) or its opponent may usefully double cube ``v``."""
        m = self.match
        if m.crawford_game:
            return False
        if mover:
            return owner is not CubeOwner.OPPONENT and v < m.away
        return owner is not CubeOwner.MOVER and v < m.opponent_away

    def curve(self, v: int, owner: CubeOwner) -> Curve:
        return self._curve(v, owner)

    def _build(self, v: int, owner: CubeOwner) -> Curve:
        m = self.match
        lo, hi = self.loss_value(v), self.win_value(v)
        xs, ys = [0.0], [lo]
        if self.can_double(v, owner, mover=False):
            # the opponent cashes below our take point at 2v (we then own the cube)
            pass_value = mwc_after(m, m.away, m.opponent_away - v)
            tp = _solve(self.curve(2 * v, CubeOwner.MOVER), pass_value)
            xs.append(tp)
            ys.append(pass_value)
        if self.can_double(v, owner, mover=True):
            cash = mwc_after(m, m.away - v, m.opponent_away)
            cp = _solve(self.curve(2 * v, CubeOwner.OPPONENT), cash)
            cp = max(cp, xs[-1])
            xs.append(cp)
            ys.append(cash)
        xs.append(1.0)
        ys.append(hi)
        # blend with the dead cube (the straight line) by the cube efficiency
        live_xs = tuple(xs)
        blended = tuple(self.x * y + (1.0 - self.x) * (lo + (hi - lo) * p) for p, y in zip(xs, ys))
        return live_xs, blended

    def equity(self, p: float, v: int, owner: CubeOwner) -> float:
        """Cubeful MWC of the player on roll with win chance ``p`` and cube ``v``/``owner``."""
        return _at(self.curve(v, owner), p)


# --- match play, many positions at once ----------------------------------------------------------

_OWNER_INDEX = {CubeOwner.CENTRED: 0, CubeOwner.MOVER: 1, CubeOwner.OPPONENT: 2}


def match_equities(probs: np.ndarray, x: np.ndarray, match: MatchScore,
                   states: Sequence[CubeState]) -> np.ndarray:
    """``MatchCube(probs[i], match, x[i]).equity(probs[i, 0], v, owner)`` for every row and each
    state ``(v, owner)`` of ``states``: float64 (N, len(states)), bit for bit the same numbers, from
    one compiled loop (:func:`_match_equities`; a cubeful match search values hundreds of leaves a
    decision this way). The match equity table's values at this score, the only thing the curves
    take from the match, are read once for every cube level."""
    probs = np.ascontiguousarray(probs, dtype=np.float64).reshape(-1, 5)
    x = np.ascontiguousarray(np.broadcast_to(np.asarray(x, dtype=np.float64), (len(probs),)))
    m = match
    top = 0
    while (1 << top) < max(m.away, m.opponent_away, *(v for v, _ in states)):
        top += 1
    levels = top + 1
    # wins[level, k]: MWC after winning k + 1 times the cube 2**level (single, gammon, backgammon)
    wins = np.array([[mwc_after(m, m.away - (k + 1) * (1 << level), m.opponent_away) for k in range(3)]
                     for level in range(levels)])
    losses = np.array([[mwc_after(m, m.away, m.opponent_away - (k + 1) * (1 << level)) for k in range(3)]
                       for level in range(levels)])
    state_levels = np.array([v.bit_length() - 1 for v, _ in states], dtype=np.int64)
    if any(v != 1 << level for (v, _), level in zip(states, state_levels)):
        raise ValueError(f"cube values are powers of two, got {states!r}")
    owners = np.array([_OWNER_INDEX[o] for _, o in states], dtype=np.int64)
    out = np.empty((len(probs), len(states)))
    _match_equities(probs, x, wins, losses, m.away, m.opponent_away, m.crawford_game, state_levels, owners,
                    out)
    return out


@njit(cache=True)
def _solve_kernel(xs, ys, n, y):
    """:func:`_solve` on the curve ``xs[:n]``, ``ys[:n]``."""
    if y <= ys[0]:
        return 0.0
    if y >= ys[n - 1]:
        return 1.0
    for i in range(1, n):
        if ys[i] >= y:
            if ys[i] == ys[i - 1]:
                return xs[i - 1]
            return xs[i - 1] + (y - ys[i - 1]) * (xs[i] - xs[i - 1]) / (ys[i] - ys[i - 1])
    return 1.0


@njit(cache=True)
def _interp_kernel(p, xs, ys, n):
    """``np.interp(p, xs[:n], ys[:n])`` as numpy computes it for one point: below or above the
    ends, the end values; else at the last breakpoint ``j`` with ``xs[j] <= p``, its value where
    ``p`` is ``xs[j]`` (or the last), else ``slope * (p - xs[j]) + ys[j]`` (the other end when
    that is not a number)."""
    if p < xs[0]:
        return ys[0]
    if p > xs[n - 1]:
        return ys[n - 1]
    j = 0
    while j + 1 < n and xs[j + 1] <= p:
        j += 1
    if j == n - 1 or xs[j] == p:
        return ys[j]
    slope = (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j])
    value = slope * (p - xs[j]) + ys[j]
    if np.isnan(value):
        value = slope * (p - xs[j + 1]) + ys[j + 1]
        if np.isnan(value) and ys[j] == ys[j + 1]:
            value = ys[j]
    return value


@njit(cache=True)
def _match_equities(probs, xs_eff, wins, losses, away, opponent_away, crawford, state_levels, owners, out):
    """The loop of :func:`match_equities`: each row's curves (:meth:`MatchCube._build`, the same
    arithmetic in the same order) from the highest cube level down, then each state's MWC."""
    levels = wins.shape[0]
    cx = np.zeros((levels, 3, 4))
    cy = np.zeros((levels, 3, 4))
    cn = np.zeros((levels, 3), dtype=np.int64)
    for r in range(probs.shape[0]):
        w, wg, wbg, lg, lbg = probs[r, 0], probs[r, 1], probs[r, 2], probs[r, 3], probs[r, 4]
        if w > 1e-9:
            ws0, ws1, ws2 = (w - wg) / w, (wg - wbg) / w, wbg / w
        else:
            ws0, ws1, ws2 = 1.0, 0.0, 0.0
        lose = 1.0 - w
        if lose > 1e-9:
            ls0, ls1, ls2 = (lose - lg) / lose, (lg - lbg) / lose, lbg / lose
        else:
            ls0, ls1, ls2 = 1.0, 0.0, 0.0
        x = xs_eff[r]
        for level in range(levels - 1, -1, -1):
            v = 1 << level
            lo = 0.0 + ls0 * losses[level, 0] + ls1 * losses[level, 1] + ls2 * losses[level, 2]
            hi = 0.0 + ws0 * wins[level, 0] + ws1 * wins[level, 1] + ws2 * wins[level, 2]
            for owner in range(3):
                n = 1
                cx[level, owner, 0] = 0.0
                cy[level, owner, 0] = lo
                # the opponent may double (it does not own the cube and is more than v away)
                if not crawford and owner != 1 and v < opponent_away:
                    pass_value = losses[level, 0]
                    tp = _solve_kernel(cx[level + 1, 1], cy[level + 1, 1], cn[level + 1, 1], pass_value)
                    cx[level, owner, n] = tp
                    cy[level, owner, n] = pass_value
                    n += 1
                # the player on roll may double
                if not crawford and owner != 2 and v < away:
                    cash = wins[level, 0]
                    cp = _solve_kernel(cx[level + 1, 2], cy[level + 1, 2], cn[level + 1, 2], cash)
                    cp = max(cp, cx[level, owner, n - 1])
                    cx[level, owner, n] = cp
                    cy[level, owner, n] = cash
                    n += 1
                cx[level, owner, n] = 1.0
                cy[level, owner, n] = hi
                n += 1
                for i in range(n):  # blended with the dead cube by the cube efficiency
                    dead = lo + (hi - lo) * cx[level, owner, i]
                    cy[level, owner, i] = x * cy[level, owner, i] + (1.0 - x) * dead
                cn[level, owner] = n
        for s in range(state_levels.shape[0]):
            level = state_levels[s]
            owner = owners[s]
            out[r, s] = _interp_kernel(w, cx[level, owner], cy[level, owner], cn[level, owner])
