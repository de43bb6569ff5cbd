"""Cube decisions: double or not, take or pass, for money and matches, from cubeless probabilities
or from the cubeful search's equities (gammon.engine.cube.cubeful_search).

The three cubeful equities of the player on roll, per unit of the current cube (money) or in
equivalent money equity (match: MWC scaled so that losing one cube is -1 and winning one is +1):
no double (ND), double/take (DT), double/pass (DP). The taker passes when DP < DT; the player on
roll doubles when the taker's best answer beats playing on, and is "too good" when playing on
beats even a pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from gammon.engine.cube.cubeful import OWNER_COLUMNS, MatchCube, money_equities, mwc_after
from gammon.engine.net.evaluator import Probabilities
from gammon.situation import CubeOwner, MatchScore

# equities closer than this are a tie
_EPSILON = 1e-9


class CubeAction(Enum):
    NO_DOUBLE = "no double"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    TOO_GOOD_TAKE = "too good to double, take"
    TOO_GOOD_PASS = "too good to double, pass"
    NO_CUBE = "no double (the cube is dead or not available)"


@dataclass(frozen=True)
class CubeDecision:
    """What the player on roll should do with the cube, and what the taker should answer."""

    action: CubeAction
    take: bool
    no_double: float
    double_take: float
    double_pass: float
    probabilities: Probabilities
    match_winning_chances: tuple[float, float, float] | None = None  # ND, DT, DP in a match
    beaver: bool = False  # money with beavers: the taker should take and redouble at once

    @property
    def should_double(self) -> bool:
        return self.action in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS)

    @property
    def best_equity(self) -> float:
        """Cubeful equity of the player on roll after the right cube action and answer."""
        return min(self.double_take, self.double_pass) if self.should_double else self.no_double

    def __str__(self) -> str:
        answer = "beaver" if self.beaver else "take" if self.take else "pass"
        text = (f"{self.action.value} (opponent's answer to a double: {answer}); cubeful equity: "
                f"no double {self.no_double:+.3f}, double/take {self.double_take:+.3f}, "
                f"double/pass {self.double_pass:+.3f}")
        if self.match_winning_chances:
            nd, dt, dp = self.match_winning_chances
            text += f"; match winning chances {nd:.1%} / {dt:.1%} / {dp:.1%}"
        return text


def classify(nd: float, dt: float, dp: float, available: bool) -> tuple[CubeAction, bool]:
    """The action of the player on roll and whether the taker should take, from the no-double,
    double/take and double/pass equities (``available``: the player on roll may double)."""
    take = dt <= dp
    if not available:
        return CubeAction.NO_CUBE, take
    if min(dt, dp) >= nd - _EPSILON:  # a tie (a certain win) is cashed, as GNU Backgammon does
        return (CubeAction.DOUBLE_TAKE if take else CubeAction.DOUBLE_PASS), take
    if nd > dp:
        return (CubeAction.TOO_GOOD_TAKE if take else CubeAction.TOO_GOOD_PASS), take
    return CubeAction.NO_DOUBLE, take


def money_cube_decision(probs: Probabilities, owner: CubeOwner, x: float, jacoby: bool = True,
                        available: bool = True, beavers: bool = False,
                        values: np.ndarray | None = None, doubles_left: int | None = None) -> CubeDecision:
    """Money play; ``jacoby``: gammons count only once the cube is turned; ``beavers``: the taker
    may beaver, which it should when the double leaves the doubler below zero. ``values``: the
    cubeful equities of playing on per cube state (``OWNER_COLUMNS``; from the cubeful search),
    by default Janowski's on ``probs``. ``doubles_left``: how many more times the rules let the
    cube be doubled (None: no limit); a cube nobody may double again is dead, worth the cubeless
    equity."""
    if values is None:
        values = money_equities(probs.as_array(), x, jacoby)[0]
    nd = float(values[OWNER_COLUMNS.index(owner)])
    dt = 2.0 * float(values[OWNER_COLUMNS.index(CubeOwner.OPPONENT)])
    if doubles_left is not None:
        # the live-cube values assume a redouble to come: past the limit there is none
        turned = probs.equity
        if doubles_left < 1:
            nd = 2.0 * probs.win - 1.0 if jacoby and owner is CubeOwner.CENTRED else turned
        if doubles_left < 2:
            dt = 2.0 * turned
    dp = 1.0
    action, take = classify(nd, dt, dp, available and owner is not CubeOwner.OPPONENT)
    # a beaver doubles the cube again: the limit must allow two doubles
    beaver = beavers and take and dt < 0.0 and (doubles_left is None or doubles_left >= 2)
    return CubeDecision(action, take, nd, dt, dp, probs, beaver=beaver)


def match_cube_decision(probs: Probabilities, match: MatchScore, cube_value: int, owner: CubeOwner,
                        x: float, available: bool = True,
                        mwc: tuple[float, float] | None = None) -> CubeDecision:
    """Match play at ``match`` (the player on roll's view), with the Kazaross-XG2 table. ``mwc``:
    the MWC of no double and double/take (from the cubeful search), by default the match equity
    curves' on ``probs``."""
    cube = MatchCube(probs.as_array(), match, x)
    v = cube_value
    if mwc is None:
        nd = cube.equity(probs.win, v, owner)
        dt = cube.equity(probs.win, 2 * v, CubeOwner.OPPONENT)
    else:
        nd, dt = mwc
    dp = mwc_after(match, match.away - v, match.opponent_away)
    win1 = dp
    lose1 = mwc_after(match, match.away, match.opponent_away - v)

    def emg(mwc: float) -> float:
        return 2.0 * (mwc - lose1) / (win1 - lose1) - 1.0 if win1 > lose1 else 0.0

    can = available and cube.can_double(v, owner, mover=True)
    action, take = classify(nd, dt, dp, can)
    return CubeDecision(action, take, emg(nd), emg(dt), emg(dp), probs, (nd, dt, dp))
