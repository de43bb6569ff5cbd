"""Cubeful equity from cubeless probabilities.

Money: Rick Janowski's formulas ("Take-Points in Money Games", 1993) as GNU Backgammon uses them:
the cubeful equity is ``x * live + (1 - x) * dead``, where ``dead`` is the cubeless equity, ``live``
the piecewise-linear equity of a perfectly efficient cube through the take and cash points, and
``x`` the cube efficiency (0.68 in contact; in races it grows with the pip count).

Match: the same construction in match winning chances (MWC). For cube value ``v`` and owner, the
live curve of MWC against the win probability ``p`` runs through: losing at ``p = 0`` and winning
at ``p = 1`` (with the position's gammon rates, scored by the match equity table), the point where
the opponent cashes (our take point: there the MWC is that of passing a double) and the point where
we cash (the opponent's take point). Those cash points are a fully live cube's, from the top of the
cube's ladder down (Joern Thyssen's recursion, as GNU Backgammon computes them): where a double to
``2v`` leaves either side needing no more than ``2v``, the doubled cube is dead and the cash point is
where a take and a pass are worth the same, a taker whom the doubled cube does not finish
redoubling at once (it has nothing to lose); below, a side cashes where its opponent's take, with
the cube at ``2v`` and that opponent's own cash point one level up, is worth the pass.
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


def _clamped(p: float) -> float:
    return min(max(p, 0.0), 1.0)


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
        self._points = lru_cache(maxsize=None)(self._cash_points)
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

    def _cash_points(self, v: int) -> tuple[float, float]:
        """The live cube's cash points at cube ``v``: the win chance of the player on roll above
        which its double of ``v`` is passed, and the opponent's (in its own win chance) likewise
        (see the module docstring; the same arithmetic as :func:`_match_equities`)."""
        m = self.match
        a, b = m.away, m.opponent_away
        win1 = mwc_after(m, a - v, b)  # the player on roll cashes v
        lose1 = mwc_after(m, a, b - v)  # the opponent cashes v
        if a <= 2 * v or b <= 2 * v:  # the doubled cube is dead
            mine = 2 * v if (a <= 2 * v < b) else v  # a taker the double does not finish redoubles
            theirs = 2 * v if (b <= 2 * v < a) else v
            dtw, dtl = self.win_value(2 * mine), self.loss_value(2 * mine)
            cash = (dtl - win1) / (dtl - dtw) if dtl != dtw else 1.0
            otw, otl = self.loss_value(2 * theirs), self.win_value(2 * theirs)
            opp_cash = (lose1 - otl) / (otw - otl) if otw != otl else 1.0
            return cash, opp_cash
        up, opp_up = self._points(2 * v)
        dtw, lose2 = self.win_value(2 * v), mwc_after(m, a, b - 2 * v)
        otw, win2 = self.loss_value(2 * v), mwc_after(m, a - 2 * v, b)
        return 1.0 - opp_up * (win1 - dtw) / (lose2 - dtw), 1.0 - up * (otw - lose1) / (otw - win2)

    def _build(self, v: int, owner: CubeOwner) -> Curve:
        m = self.match
        lo, hi = self.loss_value(v), self.win_value(v)
        cash, opp_cash = self._points(v)
        xs, ys = [0.0], [lo]
        if self.can_double(v, owner, mover=False):  # the opponent cashes below our take point
            xs.append(_clamped(1.0 - opp_cash))
            ys.append(mwc_after(m, m.away, m.opponent_away - v))
        if self.can_double(v, owner, mover=True):
            xs.append(max(_clamped(cash), xs[-1]))
            ys.append(mwc_after(m, m.away - v, m.opponent_away))
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
    levels = top + 3  # two above the highest cube: a dead cube's redoubled take (_match_equities)
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
    """The loop of :func:`match_equities`: each row's cash points (:meth:`MatchCube._cash_points`,
    the same arithmetic in the same order) from the highest cube level down, then each state's
    curve (:meth:`MatchCube._build`) and its MWC. ``wins`` and ``losses`` reach two levels above
    the highest cube, where a dead cube's taker redoubles."""
    levels = wins.shape[0] - 2
    cash = np.zeros(levels + 1)
    opp_cash = np.zeros(levels + 1)
    cx = np.zeros(4)
    cy = np.zeros(4)
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
            win1 = wins[level, 0]
            lose1 = losses[level, 0]
            if away <= 2 * v or opponent_away <= 2 * v:  # the doubled cube is dead
                # the level of the taken cube's results (2v, or 4v when the taker redoubles)
                k = level + 2 if (away <= 2 * v < opponent_away) else level + 1
                t = level + 2 if (opponent_away <= 2 * v < away) else level + 1
                dtw = 0.0 + ws0 * wins[k, 0] + ws1 * wins[k, 1] + ws2 * wins[k, 2]
                dtl = 0.0 + ls0 * losses[k, 0] + ls1 * losses[k, 1] + ls2 * losses[k, 2]
                cash[level] = (dtl - win1) / (dtl - dtw) if dtl != dtw else 1.0
                otw = 0.0 + ls0 * losses[t, 0] + ls1 * losses[t, 1] + ls2 * losses[t, 2]
                otl = 0.0 + ws0 * wins[t, 0] + ws1 * wins[t, 1] + ws2 * wins[t, 2]
                opp_cash[level] = (lose1 - otl) / (otw - otl) if otw != otl else 1.0
            else:
                u = level + 1
                dtw = 0.0 + ws0 * wins[u, 0] + ws1 * wins[u, 1] + ws2 * wins[u, 2]
                otw = 0.0 + ls0 * losses[u, 0] + ls1 * losses[u, 1] + ls2 * losses[u, 2]
                lose2 = losses[u, 0]
                win2 = wins[u, 0]
                cash[level] = 1.0 - opp_cash[level + 1] * (win1 - dtw) / (lose2 - dtw)
                opp_cash[level] = 1.0 - cash[level + 1] * (otw - lose1) / (otw - win2)
        for s in range(state_levels.shape[0]):
            level = state_levels[s]
            owner = owners[s]
            v = 1 << level
            lo = 0.0 + ls0 * losses[level, 0] + ls1 * losses[level, 1] + ls2 * losses[level, 2]
            hi = 0.0 + ws0 * wins[level, 0] + ws1 * wins[level, 1] + ws2 * wins[level, 2]
            n = 1
            cx[0] = 0.0
            cy[0] = lo
            # the opponent may double (it does not own the cube and is more than v away)
            if not crawford and owner != 1 and v < opponent_away:
                cx[n] = min(max(1.0 - opp_cash[level], 0.0), 1.0)
                cy[n] = losses[level, 0]
                n += 1
            # the player on roll may double
            if not crawford and owner != 2 and v < away:
                cx[n] = max(min(max(cash[level], 0.0), 1.0), cx[n - 1])
                cy[n] = wins[level, 0]
                n += 1
            cx[n] = 1.0
            cy[n] = hi
            n += 1
            for i in range(n):  # blended with the dead cube by the cube efficiency
                dead = lo + (hi - lo) * cx[i]
                cy[i] = x * cy[i] + (1.0 - x) * dead
            out[r, s] = _interp_kernel(w, cx, cy, n)
