"""numba kernels of training: whole self-play games with TD(lambda) updates, and games against
pubeval for the strength check. Nothing here is imported at play time.

A net is four float32 arrays ``w1 (I, H), b1 (H), w2 (H, 5), b2 (5)`` with sigmoid hidden and
output units, as :mod:`gammon.engine.net.neural`. Kernels take the contact net then the race net and
pick the net per position with ``is_race_board``. The public functions take a
:class:`~gammon.engine.net.neural.NeuralEvaluator` and hand its eight arrays to the kernel (private,
``_..._kernel``): one Python call a batch of games or positions, so the kernels run as fast.

TD(lambda) is applied in its offline forward view: during a game the weights only choose moves
(0-ply greedy, every play of the roll evaluated), and at its end each visited position ``s_t`` is
moved toward its lambda-return ``G_t = (1 - lambda) V(s_t+1) + lambda G_t+1`` (``G`` of the last
position = the real result), seen from the player on roll. This is offline TD(lambda) with
sparse updates, which keeps many games running in parallel on shared weights (Hogwild) cheap.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gammon.engine.net.encode import N_INPUTS, SCRATCH, encode_into, is_race_board
from gammon.engine.net.forward import evaluate_one as _evaluate
from gammon.engine.net.forward import forward as _forward
from gammon.engine.net.neural import NeuralEvaluator
from gammon.engine.pubeval import score_kernel as _pubeval_scores
from gammon.movegen import generate_all
from gammon.primitive_kernels import checkers_on_board, clamp_probabilities, flip_into, win_kind

MAX_PLIES = 1200  # a game longer than this is dropped (never seen outside of broken nets)


@njit(cache=True)
def _splitmix(state):
    """One step of splitmix64 on ``state`` (uint64[1]); returns 64 random bits."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _die(state):
    return np.int64(_splitmix(state) % np.uint64(6)) + 1


@njit(cache=True)
def _new_state(seed, index):
    s = np.zeros(1, dtype=np.uint64)
    s[0] = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(index)
    _splitmix(s)
    return s


@njit(cache=True, fastmath=True)
def _backward(x, w1, b1, w2, b2, h, y, err, alpha, dh):
    """One gradient step ``w += alpha * sum_k err_k * dy_k/dw`` (squared error toward targets)."""
    nh = b1.shape[0]
    for j in range(nh):
        dh[j] = 0.0
    for k in range(5):
        g = err[k] * y[k] * (1.0 - y[k])
        if g == 0.0:
            continue
        for j in range(nh):
            dh[j] += g * w2[j, k]
            w2[j, k] += alpha * g * h[j]
        b2[k] += alpha * g
    for j in range(nh):
        dh[j] *= h[j] * (1.0 - h[j]) * alpha
        b1[j] += dh[j]
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(nh):
                w1[i, j] += xi * dh[j]


@njit(cache=True)
def _equity(y):
    return 2.0 * y[0] - 1.0 + y[1] + y[2] - y[3] - y[4]


@njit(cache=True)
def _pick_buffers(nh):
    """Work arrays of ``_net_pick`` for nets of up to ``nh`` hidden units: inputs, encoder scratch,
    hidden layer, outputs and the best play's outputs."""
    return (
        np.zeros(N_INPUTS, dtype=np.float32),
        np.zeros(SCRATCH, dtype=np.int32),
        np.zeros(nh, dtype=np.float32),
        np.zeros(5, dtype=np.float32),
        np.zeros(5, dtype=np.float32),
    )


@njit(cache=True)
def _net_pick(board, d1, d2, cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, x, scratch, h, y, best_y):
    """The 0-ply best play: returns ``(after, result)`` where ``after`` is the chosen board seen
    from the opponent (the flipped board when no play exists) and ``result`` the points the play
    wins (0 if the game goes on, see :func:`gammon.primitives.win_kind`); ``best_y`` gets the net's
    output for ``after``."""
    contact = (cw1, cb1, cw2, cb2)
    race = (rw1, rb1, rw2, rb2)
    count, _nsteps, boards, _steps = generate_all(board, d1, d2)
    if count == 0:
        after = np.empty(26, dtype=np.int8)
        flip_into(board, after)
        _evaluate(after, contact, race, x, scratch, h, best_y)
        return after, 0
    best = -1
    best_eq = -1e9
    for c in range(count):
        r = win_kind(boards[c])
        if r > 0:
            if r + 10.0 > best_eq:
                best_eq = r + 10.0
                best = c
            continue
        _evaluate(boards[c], contact, race, x, scratch, h, y)
        eq = -_equity(y)
        if eq > best_eq:
            best_eq = eq
            best = c
            for k in range(5):
                best_y[k] = y[k]
    after = boards[best].copy()
    return after, win_kind(after)


@njit(cache=True)
def _opening(state, board):
    """The standard start and the opening roll (two different dice)."""
    for i in range(26):
        board[i] = 0
    board[24] = 2
    board[13] = 5
    board[8] = 3
    board[6] = 5
    board[1] = -2
    board[12] = -5
    board[17] = -3
    board[19] = -5
    while True:
        d1 = _die(state)
        d2 = _die(state)
        if d1 != d2:
            return d1, d2


@njit(cache=True)
def _train_game(cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, seed, index, alpha, lam):
    """Play one self-play game and apply the TD(lambda) updates; returns its length in plies
    (0 when it was dropped for running too long)."""
    state = _new_state(seed, index)
    nh = max(cb1.shape[0], rb1.shape[0])
    x, scratch, h, y, best_y = _pick_buffers(nh)
    dh = np.zeros(nh, dtype=np.float32)
    boards = np.zeros((MAX_PLIES + 1, 26), dtype=np.int8)
    values = np.zeros((MAX_PLIES + 1, 5), dtype=np.float32)  # V(s_t), player on roll at s_t
    board = np.zeros(26, dtype=np.int8)
    d1, d2 = _opening(state, board)
    t = 0
    result = 0
    while True:
        if t >= MAX_PLIES:
            return 0
        for i in range(26):
            boards[t, i] = board[i]
        after, result = _net_pick(
            board, d1, d2, cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, x, scratch, h, y, best_y
        )
        t += 1
        if result > 0:
            break
        for k in range(5):
            values[t, k] = best_y[k]
        board = after
        d1 = _die(state)
        d2 = _die(state)
    # Lambda-returns backwards from the real result (player who made the last play won).
    g = np.zeros(5, dtype=np.float32)
    g[0] = 1.0
    g[1] = 1.0 if result >= 2 else 0.0
    g[2] = 1.0 if result >= 3 else 0.0
    err = np.zeros(5, dtype=np.float32)
    targets = np.zeros((t, 5), dtype=np.float32)
    for s in range(t - 1, -1, -1):
        for k in range(5):
            targets[s, k] = g[k]
        if s > 0:
            # Seen from the player on roll at s - 1: flip both the value and the return.
            v = values[s]
            f0 = (1.0 - lam) * (1.0 - v[0]) + lam * (1.0 - g[0])
            f1 = (1.0 - lam) * v[3] + lam * g[3]
            f2 = (1.0 - lam) * v[4] + lam * g[4]
            f3 = (1.0 - lam) * v[1] + lam * g[1]
            f4 = (1.0 - lam) * v[2] + lam * g[2]
            g[0] = f0
            g[1] = f1
            g[2] = f2
            g[3] = f3
            g[4] = f4
    for s in range(t):
        b = boards[s]
        encode_into(b, x, scratch)
        if is_race_board(b):
            _forward(x, rw1, rb1, rw2, rb2, h, y)
            for k in range(5):
                err[k] = targets[s, k] - y[k]
            _backward(x, rw1, rb1, rw2, rb2, h, y, err, alpha, dh)
        else:
            _forward(x, cw1, cb1, cw2, cb2, h, y)
            for k in range(5):
                err[k] = targets[s, k] - y[k]
            _backward(x, cw1, cb1, cw2, cb2, h, y, err, alpha, dh)
    return t


def _arrays(ev: NeuralEvaluator) -> tuple[np.ndarray, ...]:
    """The nets' arrays in the order the kernels take them (contact, then race)."""
    return ev.contact.arrays() + ev.race.arrays()


def train_games(ev: NeuralEvaluator, seed: int, first: int, n: int, alpha: float, lam: float) -> np.ndarray:
    """Games ``first .. first + n - 1`` of the run ``seed``, in parallel on ``ev``'s weights, which
    they update in place (TD(lambda), learning rate ``alpha``); returns the plies of each game. With
    one numba thread the result is deterministic."""
    return _train_games_kernel(*_arrays(ev), seed, first, n, np.float32(alpha), np.float32(lam))


@njit(cache=True, parallel=True)
def _train_games_kernel(cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, seed, first, n, alpha, lam):
    plies = np.zeros(n, dtype=np.int64)
    for g in prange(n):
        plies[g] = _train_game(cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, seed, first + g, alpha, lam)
    return plies


@njit(cache=True)
def _pubeval_pick(board, d1, d2, pub_race, pub_contact):
    count, _nsteps, boards, _steps = generate_all(board, d1, d2)
    if count == 0:
        after = np.empty(26, dtype=np.int8)
        flip_into(board, after)
        return after, 0
    scores = _pubeval_scores(boards[:count], pub_race if is_race_board(board) else pub_contact)
    best = np.argmax(scores)
    after = boards[best].copy()
    return after, win_kind(after)


@njit(cache=True)
def _game_vs_pubeval(cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, pub_race, pub_contact, seed, index, net_first):
    """One cubeless game; returns the points the net wins (negative when it loses). ``net_first``
    says which player gets the first die of the opening roll."""
    state = _new_state(seed, index)
    nh = max(cb1.shape[0], rb1.shape[0])
    x, scratch, h, y, best_y = _pick_buffers(nh)
    board = np.zeros(26, dtype=np.int8)
    d1, d2 = _opening(state, board)
    net_on_roll = (d1 > d2) == net_first
    for _ in range(10 * MAX_PLIES):
        if net_on_roll:
            after, result = _net_pick(
                board, d1, d2, cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, x, scratch, h, y, best_y
            )
        else:
            after, result = _pubeval_pick(board, d1, d2, pub_race, pub_contact)
        if result > 0:
            return result if net_on_roll else -result
        board = after
        net_on_roll = not net_on_roll
        d1 = _die(state)
        d2 = _die(state)
    return 0


def games_vs_pubeval(
    ev: NeuralEvaluator, pub_race: np.ndarray, pub_contact: np.ndarray, seed: int, pairs: int
) -> np.ndarray:
    """``pairs`` dice sequences, each played twice with the seats swapped, ``ev`` (0-ply) against
    pubeval with the weights ``pub_race`` and ``pub_contact``; returns the net's points of each game
    (int64[2 * pairs])."""
    return _games_vs_pubeval_kernel(*_arrays(ev), pub_race, pub_contact, seed, pairs)


@njit(cache=True, parallel=True)
def _games_vs_pubeval_kernel(cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, pub_race, pub_contact, seed, pairs):
    out = np.zeros(2 * pairs, dtype=np.int64)
    for g in prange(2 * pairs):
        out[g] = _game_vs_pubeval(
            cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, pub_race, pub_contact, seed, g // 2, g % 2 == 0
        )
    return out


@njit(cache=True)
def _collect_game(cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, seed, index, out, every, explore):
    """Play one self-play game and copy every ``every``-th position (player on roll) into ``out``;
    returns how many were written (at most ``out.shape[0]``). Each play is the 0-ply best, or with
    probability ``explore`` a legal play drawn at random (so the positions reach beyond what the
    greedy net would play into)."""
    state = _new_state(seed, index)
    # exploration draws come from a stream of their own: with explore 0 the games are the same
    picks = _new_state(seed ^ 0x5DEECE66D, index)
    nh = max(cb1.shape[0], rb1.shape[0])
    x, scratch, h, y, best_y = _pick_buffers(nh)
    board = np.zeros(26, dtype=np.int8)
    d1, d2 = _opening(state, board)
    written = 0
    offset = index % every
    for t in range(MAX_PLIES):
        if t % every == offset and written < out.shape[0]:
            for i in range(26):
                out[written, i] = board[i]
            written += 1
        count = 0
        if explore > 0.0 and np.float64(_splitmix(picks) >> np.uint64(11)) * 2.0**-53 < explore:
            count, _nsteps, boards, _steps = generate_all(board, d1, d2)
        if count > 0:
            after = boards[np.int64(_splitmix(picks) % np.uint64(count))].copy()
            result = win_kind(after)
        else:
            after, result = _net_pick(
                board, d1, d2, cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, x, scratch, h, y, best_y
            )
        if result > 0:
            break
        board = after
        d1 = _die(state)
        d2 = _die(state)
    return written


def collect_positions(
    ev: NeuralEvaluator, seed: int, first: int, games: int, every: int, explore: float = 0.0
) -> np.ndarray:
    """Every ``every``-th position of the 0-ply self-play games ``first .. first + games - 1`` of
    ``ev``, game ``i`` rolling from ``(seed, i)``: int8 (count, 26); ``explore`` as in
    ``_collect_game``."""
    return _collect_positions_kernel(*_arrays(ev), seed, first, games, every, MAX_PLIES // every + 1, explore)


@njit(cache=True, parallel=True)
def _collect_positions_kernel(
    cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, seed, first, games, every, per_game, explore
):
    buf = np.zeros((games, per_game, 26), dtype=np.int8)
    counts = np.zeros(games, dtype=np.int64)
    for g in prange(games):
        counts[g] = _collect_game(
            cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, seed, first + g, buf[g], every, explore
        )
    total = counts.sum()
    out = np.zeros((total, 26), dtype=np.int8)
    k = 0
    for g in range(games):
        for j in range(counts[g]):
            out[k] = buf[g, j]
            k += 1
    return out


def label_one_ply(ev: NeuralEvaluator, boards: np.ndarray) -> np.ndarray:
    """1-ply probabilities float32 (N, 5) of each board (player on roll): the mean over the 21
    rolls of ``ev``'s 0-ply best play's evaluation, seen from the player on roll."""
    return _label_one_ply_kernel(*_arrays(ev), boards)


@njit(cache=True, parallel=True)
def _label_one_ply_kernel(cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, boards):
    n = boards.shape[0]
    out = np.zeros((n, 5), dtype=np.float32)
    nh = max(cb1.shape[0], rb1.shape[0])
    for r in prange(n):
        x, scratch, h, y, best_y = _pick_buffers(nh)
        acc = np.zeros(5, dtype=np.float64)
        board = boards[r].copy()
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                w = 1.0 if d1 == d2 else 2.0
                after, result = _net_pick(
                    board, d1, d2, cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, x, scratch, h, y, best_y
                )
                if result > 0:
                    acc[0] += w
                    if result >= 2:
                        acc[1] += w
                    if result >= 3:
                        acc[2] += w
                else:
                    acc[0] += w * (1.0 - best_y[0])
                    acc[1] += w * best_y[3]
                    acc[2] += w * best_y[4]
                    acc[3] += w * best_y[1]
                    acc[4] += w * best_y[2]
        for k in range(5):
            out[r, k] = acc[k] / 36.0
        # Raw sigmoid outputs need not be ordered; labels must be (win >= wg >= wbg, ...), without
        # the gammons the board rules out.
        mover_on, opponent_on = checkers_on_board(boards[r])
        out[r, 0], out[r, 1], out[r, 2], out[r, 3], out[r, 4] = clamp_probabilities(
            out[r, 0], out[r, 1], out[r, 2], out[r, 3], out[r, 4], mover_on, opponent_on
        )
    return out


def fit_epoch(
    ev: NeuralEvaluator, boards: np.ndarray, targets: np.ndarray, order: np.ndarray, alpha: float
) -> float:
    """One pass of SGD (squared error, learning rate ``alpha``) of ``ev``'s nets, in place, toward
    ``targets`` over the ``boards`` in ``order``, in parallel on shared weights; returns the mean
    squared error seen before each step (summed over the five outputs)."""
    return float(_fit_epoch_kernel(*_arrays(ev), boards, targets, order, np.float32(alpha)))


@njit(cache=True, parallel=True)
def _fit_epoch_kernel(cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, boards, targets, order, alpha):
    n = order.shape[0]
    nh = max(cb1.shape[0], rb1.shape[0])
    chunks = 64
    losses = np.zeros(chunks, dtype=np.float64)
    for c in prange(chunks):
        x = np.zeros(N_INPUTS, dtype=np.float32)
        scratch = np.zeros(SCRATCH, dtype=np.int32)
        h = np.zeros(nh, dtype=np.float32)
        dh = np.zeros(nh, dtype=np.float32)
        y = np.zeros(5, dtype=np.float32)
        err = np.zeros(5, dtype=np.float32)
        for m in range(c, n, chunks):
            r = order[m]
            b = boards[r]
            encode_into(b, x, scratch)
            race = is_race_board(b)
            if race:
                _forward(x, rw1, rb1, rw2, rb2, h, y)
            else:
                _forward(x, cw1, cb1, cw2, cb2, h, y)
            for k in range(5):
                err[k] = targets[r, k] - y[k]
                losses[c] += err[k] * err[k]
            if race:
                _backward(x, rw1, rb1, rw2, rb2, h, y, err, alpha, dh)
            else:
                _backward(x, cw1, cb1, cw2, cb2, h, y, err, alpha, dh)
    return losses.sum() / max(n, 1)
