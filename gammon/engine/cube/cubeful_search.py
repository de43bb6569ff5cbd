"""Cubeful search: cubeful equities carried through the plies, as GNU Backgammon computes them (its
manual, "Cubeful equities"; eval.c, EvaluatePositionCubeful), for money and (in match winning
chances) for matches.

For a board with the player on roll, ``values`` are the cubeful equities of playing on without a
cube action, per unit of the current cube, for the three cube states (centred, owned by the player
on roll, owned by its opponent: :data:`gammon.engine.cube.cubeful.OWNER_COLUMNS`):

* 0 ply: Janowski's formula on the 0-ply probabilities (the contact net's cube head's, where it
  has one, and its borne-off head's in those positions: :mod:`gammon.train.cube_head`), with the
  cube efficiency of the board;
  for a bear-off of up to six checkers a side, at every ply, the exact values of the two-sided
  database (:mod:`gammon.engine.bearoff.two_sided`);
* n ply: over the 21 rolls, the play best at 0 ply (as the cubeless search picks it) leads to the
  opponent's board; the opponent first takes its own cube action there (:func:`after_cube_action`
  on its (n - 1)-ply values), then that equity, negated and with the owner seen from our side, is
  averaged over the rolls. Only finished games and the two-sided database stop the search: the
  one-sided database knows the cubeless chances, not what the cube is worth.

So Janowski's x is used only at the leaves, and what the cube is worth one and two turns ahead
(the opponent's redouble, a market lost, a position turning too good) is counted through the real
rolls instead of through one formula applied to averaged probabilities.
"""

from __future__ import annotations

import numpy as np

from gammon.engine.bearoff.two_sided import two_sided
from gammon.engine.cube.cubeful import CubeState, cube_efficiencies, match_equities, money_equities, mwc_after
from gammon.engine.net.encode import race_mask
from gammon.engine.net.evaluator import flip_probabilities
from gammon.engine.search.rolls import ROLL_WEIGHTS
from gammon.engine.search.searcher import Searcher
from gammon.situation import CubeOwner, MatchScore

CENTRED, MOVER, OPPONENT = 0, 1, 2
# a child's columns seen from the parent: centred stays centred, owners swap
_SWAP_OWNERS = [CENTRED, OPPONENT, MOVER]


def efficiencies(boards: np.ndarray) -> np.ndarray:
    """Janowski's x for each board (:func:`gammon.engine.cube.cubeful.cube_efficiency`)."""
    b = np.asarray(boards)
    pips = (np.where(b > 0, b, 0).astype(np.int64) * np.arange(26)).sum(axis=1)
    return cube_efficiencies(race_mask(b), pips)


def exact_money_values(searcher: Searcher, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(rows (N,), values (N, 3))``: the boards in the two-sided bear-off database, and there its
    exact cubeful money values of playing on (NaN elsewhere)."""
    small = searcher.cubeful_exact(boards)
    values = np.full((len(boards), 3), np.nan)
    if small.any():
        values[small] = two_sided().lookup(boards[small])[1]
    return small, values


def after_cube_action(values: np.ndarray) -> np.ndarray:
    """Cubeful equities (N, 3) once the player on roll has taken its cube action: with the cube
    centred or its own it doubles when the taker's best answer (double/take, twice the value with
    the opponent owning the cube; or double/pass, 1) is worth at least playing on."""
    doubled = np.minimum(2.0 * values[:, OPPONENT], 1.0)
    out = values.copy()
    out[:, CENTRED] = np.maximum(values[:, CENTRED], doubled)
    out[:, MOVER] = np.maximum(values[:, MOVER], doubled)
    return out


def cubeful_values(searcher: Searcher, boards: np.ndarray, plies: int,
                   jacoby: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(probabilities (N, 5), values (N, 3))`` of each board at ``plies`` (0, 1, 2) for the
    player on roll: the cubeless probabilities exactly as :meth:`Searcher.evaluate_boards` gives
    them, and the cubeful money values of playing on (see the module docstring). ``jacoby``:
    gammons do not count while the cube is centred."""
    if plies not in (0, 1, 2):
        raise ValueError(f"plies must be 0, 1 or 2, got {plies!r}")
    boards = np.require(boards, np.int8, ["C", "W"])
    if plies == 0 or len(boards) == 0:
        probs, chances = searcher.leaf_and_cube(boards)
        values = money_equities(chances, efficiencies(boards), jacoby)
        small, exact = exact_money_values(searcher, boards)
        values[small] = exact[small]  # no gammons there, so Jacoby changes nothing
        return probs, values
    probs = np.empty((len(boards), 5))
    values = np.empty((len(boards), 3))
    over = searcher.exact(boards, finished_only=True) | searcher.cubeful_exact(boards)
    if over.any():
        probs[over], values[over] = cubeful_values(searcher, boards[over], 0, jacoby)
    todo = np.flatnonzero(~over)
    if len(todo) == 0:
        return probs, values
    children, _ = searcher.best_children(boards[todo])
    child_probs, child_values = cubeful_values(searcher, children, plies - 1, jacoby)
    theirs = after_cube_action(child_values)
    mine = -theirs[:, _SWAP_OWNERS].reshape(len(todo), len(ROLL_WEIGHTS), 3)
    values[todo] = np.einsum("nrk,r->nk", mine, ROLL_WEIGHTS)
    flipped = flip_probabilities(child_probs).reshape(len(todo), len(ROLL_WEIGHTS), 5)
    probs[todo] = np.einsum("nrk,r->nk", flipped, ROLL_WEIGHTS)
    _bearoff_probabilities(searcher, boards, over, probs)
    return probs, values


def _bearoff_probabilities(searcher: Searcher, boards: np.ndarray, over: np.ndarray,
                           probs: np.ndarray) -> None:
    """The bear-off database's probabilities are exact: searched boards in it take them (as in
    :meth:`Searcher.evaluate_boards`); their cube values, which the one-sided database does not
    know, come from the search, as in GNU Backgammon."""
    home = np.flatnonzero(searcher.exact(boards) & ~over)
    if len(home):
        probs[home] = searcher.leaf(boards[home])


# --- match play --------------------------------------------------------------------------------


def _doubled(match: MatchScore, state: CubeState) -> CubeState | None:
    """The cube after the player on roll doubles and is taken, or None when it may not double."""
    v, owner = state
    if match.crawford_game or owner is CubeOwner.OPPONENT or v >= match.away:
        return None
    return CubeState(2 * v, CubeOwner.OPPONENT)


def match_values(searcher: Searcher, boards: np.ndarray, plies: int, match: MatchScore,
                 states: list[CubeState]) -> tuple[np.ndarray, np.ndarray]:
    """``(probabilities (N, 5), MWC (N, len(states)))`` of each board at ``plies`` for the player on
    roll at ``match`` (its view), playing on without a cube action now, for each cube state: the
    match twin of :func:`cubeful_values`, the leaves valued by the match equity curves
    (:class:`gammon.engine.cube.cubeful.MatchCube`) and every node taking its cube action in MWC."""
    if plies not in (0, 1, 2):
        raise ValueError(f"plies must be 0, 1 or 2, got {plies!r}")
    boards = np.require(boards, np.int8, ["C", "W"])
    if plies == 0 or len(boards) == 0:
        probs, chances = searcher.leaf_and_cube(boards)
        return probs, match_equities(chances, efficiencies(boards), match, states)
    probs = np.empty((len(boards), 5))
    values = np.empty((len(boards), len(states)))
    over = searcher.exact(boards, finished_only=True)
    if over.any():
        probs[over], values[over] = match_values(searcher, boards[over], 0, match, states)
    todo = np.flatnonzero(~over)
    if len(todo) == 0:
        return probs, values
    children, _ = searcher.best_children(boards[todo])
    theirs = [s.seen_by_opponent() for s in states]
    child_probs, child_mwc = match_after_cube_action(searcher, children, plies - 1, match.flip(),
                                                     theirs)
    mine = (1.0 - child_mwc).reshape(len(todo), len(ROLL_WEIGHTS), len(states))
    values[todo] = np.einsum("nrk,r->nk", mine, ROLL_WEIGHTS)
    flipped = flip_probabilities(child_probs).reshape(len(todo), len(ROLL_WEIGHTS), 5)
    probs[todo] = np.einsum("nrk,r->nk", flipped, ROLL_WEIGHTS)
    _bearoff_probabilities(searcher, boards, over, probs)
    return probs, values


def match_after_cube_action(searcher: Searcher, boards: np.ndarray, plies: int, match: MatchScore,
                            states: list[CubeState]) -> tuple[np.ndarray, np.ndarray]:
    """As :func:`match_values`, once the player on roll has taken its cube action in each state:
    it doubles when the taker's best answer (take: the doubled cube owned by the taker; pass: the
    score after winning the cube's worth) is worth at least playing on."""
    wanted = list(states)
    for s in states:
        d = _doubled(match, s)
        if d is not None and d not in wanted:
            wanted.append(d)
    probs, values = match_values(searcher, boards, plies, match, wanted)
    out = values[:, : len(states)].copy()
    for k, state in enumerate(states):
        d = _doubled(match, state)
        if d is None:
            continue
        cash = mwc_after(match, match.away - state.value, match.opponent_away)
        answer = np.minimum(values[:, wanted.index(d)], cash)
        out[:, k] = np.maximum(out[:, k], answer)
    return probs, out
