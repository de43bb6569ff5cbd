"""numba kernels of the neural evaluator's forward pass: encode a board and run its net (contact,
race or crashed) in one compiled loop, row by row, without building the (N, inputs) input matrix.

Training (:mod:`gammon.train.kernels`) uses :func:`forward` and :func:`evaluate_one`: float32, the
hidden layer summed over the non-zero inputs only (most of the raw encoding is zeros).

Play uses :func:`evaluate_batch` (and :mod:`gammon.engine.search.leaves`, the search's kernels), which runs
the same nets another way. Every input is a whole number over a constant
(:func:`gammon.engine.net.encode.encode_scalars`), so with the hidden layer's weights rounded to whole
multiples of one small unit (:func:`exact_first_layer`) the hidden sums are whole numbers, summed
exactly in int32: no rounding, so the order of the additions does not matter. A board's sums are
then updated from the last board's (NNUE's idea: a play moves a few checkers, so siblings in a
search differ in a dozen inputs of 238) and are still bit for bit the sums from scratch; a board's
outputs never depend on its batch. The sums then go through the sigmoids in float32 and the output
layer (:func:`outputs`), agreeing with :func:`forward` to within about 1e-4 (its rounded weights).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from gammon.engine.net.cache import CUBE, PLAY, cache_find, cache_key, cache_prefetch, cache_store
from gammon.engine.net.crashed import has_crashed_side
from gammon.engine.net.encode import (
    DENOMINATORS,
    LINEAR_COEFFICIENTS,
    LINEAR_CONSTANTS,
    LINEAR_SCALARS,
    NUMERATOR_BOUNDS,
    PER_SIDE,
    PLAY_SCALARS,
    SCALAR_INPUTS,
    SCALARS,
    SCALARS_AT,
    encode_into,
    encode_play_scalars,
    is_borne_off_board,
    is_race_board,
)
from gammon.primitive_kernels import checkers_on_board, clamp_probabilities

_CLIP = np.float32(40.0)  # exp(40) is far from overflow in float32, and sigmoid(40) is 1 to float32 precision


@njit(cache=True, fastmath=True)
def hidden_sums(x, w1, b1, h):
    """``h = b1 + x @ w1``, adding only the rows of ``w1`` whose input is not zero."""
    nh = b1.shape[0]
    for j in range(nh):
        h[j] = b1[j]
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            row = w1[i]
            for j in range(nh):
                h[j] += xi * row[j]


@njit(cache=True, fastmath=True)
def forward(x, w1, b1, w2, b2, h, y):
    """Sigmoid net on inputs ``x``; fills hidden ``h`` and outputs ``y`` (skips zero inputs)."""
    nh = b1.shape[0]
    hidden_sums(x, w1, b1, h)
    one = np.float32(1.0)
    for j in range(nh):
        h[j] = one / (one + np.exp(-min(max(h[j], -_CLIP), _CLIP)))
    for k in range(5):
        s = b2[k]
        for j in range(nh):
            s += h[j] * w2[j, k]
        y[k] = 1.0 / (1.0 + np.exp(-min(max(s, -_CLIP), _CLIP)))


@njit(cache=True)
def evaluate_one(board, contact, race, x, scratch, h, y):
    """Encode ``board`` into ``x`` (``scratch`` int32[SCRATCH]) and run the race or the contact net,
    each ``(w1, b1, w2, b2)``."""
    encode_into(board, x, scratch)
    if is_race_board(board):
        w1, b1, w2, b2 = race
    else:
        w1, b1, w2, b2 = contact
    forward(x, w1, b1, w2, b2, h, y)


_LOG2E = np.float32(1.4426950408889634)


@intrinsic
def _float32_from_bits(typingctx, bits):
    """The float32 whose bits are the int32 ``bits`` (a bit cast, nothing computed)."""

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.FloatType())

    return types.float32(types.int32), codegen


@njit(cache=True, fastmath=True, error_model="numpy")
def _sigmoid(z):
    """``1 / (1 + exp(-z))`` of a float32: ``exp(-z)`` is ``2**k * 2**f`` with ``k`` an integer put
    straight into a float's exponent bits and ``2**f`` (|f| <= 1/2) Cephes' exp2f polynomial
    (relative error < 2e-7). Branch-free (numpy's error model: no test for a division by zero), so a
    loop of it compiles to vector instructions."""
    t = min(max(-z * _LOG2E, np.float32(-126.0)), np.float32(126.0))
    k = np.floor(t + np.float32(0.5))
    f = t - k
    p = np.float32(1.535336188319500e-4)
    p = p * f + np.float32(1.339887440266574e-3)
    p = p * f + np.float32(9.618437357674640e-3)
    p = p * f + np.float32(5.550332471162809e-2)
    p = p * f + np.float32(2.402264791363012e-1)
    p = p * f + np.float32(6.931472028550421e-1)
    p = p * f + np.float32(1.0)
    scale = _float32_from_bits((np.int32(k) + np.int32(127)) << np.int32(23))
    return np.float32(1.0) / (np.float32(1.0) + p * scale)


# --- play: the hidden layer's sums in exact arithmetic, updated from one board to the next -------
#
# The play kernels take few arrays (each array an uninlined function takes costs two atomic
# reference counts, and so does a tuple's item taken in a loop) and inline the small steps: a
# board's scratch is four arrays (new_state) with fixed offsets. What runs once a board is compiled
# without reference counts (_nrt=False: _board_outputs, gammon.engine.search.leaves._leaf): there
# tuples of arrays (the net's, the heads', the cache's, the scratch) are built and unpacked at no
# cost, so net_outputs, inlined there, takes them so.


def exact_first_layer(w1: np.ndarray, b1: np.ndarray) -> tuple[np.ndarray, float]:
    """The hidden layer ``w1``, ``b1`` (float32) as play computes it: ``(q, unit)``, ``q`` int32
    (inputs + 1, hidden) so that the hidden sums of numerators ``k`` (the inputs times their
    DENOMINATORS) are ``unit * (q[-1] + k @ q[:-1])``: ``q[i] = round(w1[i] / DENOMINATORS[i] /
    unit)`` and the bias row ``q[-1] = round(b1 / unit)``, with ``unit`` the smallest power of two
    for which no sum of any position (``NUMERATOR_BOUNDS``) can pass 2**31 - 1 (5e-7 to 2e-6 for
    the shipped nets: a sum is off the float net's by at most half a unit times each numerator,
    a few ten-thousandths where a scalar's numerator runs to hundreds; the outputs by less than
    1e-4, and the chosen plays of both judge sets at 0 ply are the same). The sums are
    then whole numbers int32 holds, and int32 arithmetic is exact modulo 2**32 whatever the order
    of the additions and their partial sums' overflows: a board's sums updated from another
    board's are bit for bit its sums from scratch, and a board's outputs never depend on the batch
    it came in. (Float64 sums of whole numbers were exact as well, at twice the bytes and half the
    numbers a vector instruction adds: the hidden layer's update took about half a board's time.)

    The scalars that are sums over the points (:data:`gammon.engine.net.encode.LINEAR_SCALARS`: pips,
    checkers back, blots...) are folded into the points' rows before the rounding: their own rows
    are zero, and play adds no row for them (nine of each side's 22 scalars, the ones a play
    changes most)."""
    w = np.vstack([w1.astype(np.float64) / DENOMINATORS[:, None], b1.astype(np.float64)[None, :]])
    # folded before the rounding: a scalar's numerator reaches hundreds (the pip count), and its
    # row's rounding error times that would be the sums' largest error
    for j, row, constant in zip(LINEAR_SCALARS, LINEAR_COEFFICIENTS, LINEAR_CONSTANTS):
        i = SCALAR_INPUTS[j]
        w[:-1] += row[:, None] * w[i]
        w[-1] += constant * w[i]
        w[i] = 0.0
    limit = 2.0**31 - 1.0

    def worst(rows: np.ndarray) -> float:  # the largest sum of any position, over the hidden units
        return float(((NUMERATOR_BOUNDS[:, None] * np.abs(rows[:-1])).sum(axis=0) + np.abs(rows[-1])).max())

    exponent = min(int(np.floor(np.log2(limit / max(worst(w), 1e-300)))), 1000)
    while True:  # (the rounding may push the worst sum past the limit: a unit twice as large then)
        q = np.rint(w * 2.0**exponent)
        if worst(q) <= limit:
            return np.ascontiguousarray(q, dtype=np.int32), 2.0**-exponent
        exponent -= 1


def output_layer(w2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """An output layer ``w2`` (hidden, 5), ``b2`` as play takes it: float32 (5, hidden + 1), ``w2``
    transposed (contiguous rows) with the bias last."""
    return np.ascontiguousarray(np.hstack([w2.T, b2[:, None]]), dtype=np.float32)


_COUNTS = 0  # each side's checkers and the board's scalars (encode_play_scalars)
_NETS = 3  # contact, race, crashed
_LAST = SCALARS_AT + SCALARS  # the last board each net saw (contact, race, crashed)
_LAST_K = _LAST + _NETS * 26  # its scalars
_FRESH = _LAST_K + _NETS * SCALARS  # 1 while a net has seen no board
_D = _FRESH + _NETS  # how much each changed input changed
ROWS = 26 * 8 + SCALARS + 16
"""Room for the changed inputs: every board slot changing two points' four units, every scalar, the
branch-free writes' one more and the zero rows that fill the last pass."""
_IDX = _D + ROWS  # which input
_WORK = _IDX + ROWS
_Y, _Y_HEAD, _H = 0, 5, 16  # in the float32 scratch: the outputs, the head's, the hidden units
_FRESH_ABOVE = 40  # an update adding more rows than this starts from the bias instead
_ZERO_ROW = int(SCALAR_INPUTS[LINEAR_SCALARS[0]])  # folded into the points' rows: zeros


@njit(cache=True)
def new_state(net):
    """Scratch of :func:`net_outputs` for the nets ``net`` (see :func:`evaluate_batch`): ``(w,
    acc, f, key)``: int32 ``w`` (the board's checkers and scalars, then for each net the last board
    it saw, its scalars and whether it saw none, then the changed inputs), int32 ``acc`` (the
    contact net's exact sums, then the race net's, then the crashed net's), float32 ``f`` (the
    outputs, the head's, the hidden units) and a cache key."""
    return state_in(np.zeros(state_bytes(net), dtype=np.uint8), net)


@njit(cache=True, inline="always")
def state_bytes(net):
    """The bytes :func:`state_in` carves for the nets ``net``, a multiple of 8."""
    cq, rq, xq = net[0], net[3], net[6]
    size = 32 + 4 * (cq.shape[1] + rq.shape[1] + xq.shape[1]) + 4 * _WORK
    size += 4 * (_H + max(cq.shape[1], rq.shape[1], xq.shape[1]))
    return (size + 7) // 8 * 8


@njit(cache=True, inline="always")
def state_in(buf, net):
    """:func:`new_state`'s scratch carved from ``buf`` (uint8, at least :func:`state_bytes`),
    every net marked as having seen no board (so that a buffer kept from call to call holds no
    sums of weights since changed): for a kernel that allocates nothing."""
    cq, cunit, cw2, rq, runit, rw2, xq, xunit, xw2, crashed = net
    nh = cq.shape[1] + rq.shape[1] + xq.shape[1]
    w_at = 32 + 4 * nh
    f_at = w_at + 4 * _WORK
    key = buf[0:32].view(np.uint64)
    acc = buf[32:w_at].view(np.int32)
    w = buf[w_at:f_at].view(np.int32)
    f = buf[f_at : f_at + 4 * (_H + max(cq.shape[1], rq.shape[1], xq.shape[1]))].view(np.float32)
    for k in range(_NETS):
        w[_FRESH + k] = 1
    return w, acc, f, key


@njit(cache=True, fastmath=True, _nrt=False)
def outputs(f, nh, w2, y):
    """The five sigmoid outputs ``f[y:y + 5]`` of the hidden units ``f[_H:_H + nh]`` (already
    through their sigmoids) by the output layer ``w2`` (5, nh + 1; :func:`output_layer`): one pass
    over the units, five sums (in vectors: fast-math, as the sigmoids). (Rows are indexed, not
    taken as views: a view costs two atomic reference counts.)"""
    s0 = s1 = s2 = s3 = s4 = np.float32(0.0)
    for j in range(nh):
        hj = f[_H + j]
        s0 += hj * w2[0, j]
        s1 += hj * w2[1, j]
        s2 += hj * w2[2, j]
        s3 += hj * w2[3, j]
        s4 += hj * w2[4, j]
    f[y] = _sigmoid(w2[0, nh] + s0)
    f[y + 1] = _sigmoid(w2[1, nh] + s1)
    f[y + 2] = _sigmoid(w2[2, nh] + s2)
    f[y + 3] = _sigmoid(w2[3, nh] + s3)
    f[y + 4] = _sigmoid(w2[4, nh] + s4)


@njit(cache=True, inline="always")
def _add_rows(acc, a0, q, w, n):
    """``acc[a0:a0 + hidden] += sum over t < n of d[t] * q[idx[t]]`` (``d``, ``idx``: the changed
    inputs in ``w``), eight rows at a time: every pass over ``acc`` loads and stores it, so the
    last few rows go in one pass of four or eight with rows of zeros added (``_ZERO_ROW``, times
    0). The order does not matter: the sums are exact."""
    nh = q.shape[1]
    a0 = max(a0, 0)  # known not negative: no wraparound on acc's index, so the loops are vectors
    rest = n % 8
    if rest:
        fill = 4 if rest <= 4 else 8
        for t in range(n, n - rest + fill):
            w[_IDX + t] = _ZERO_ROW
            w[_D + t] = 0
        n += fill - rest
    t = 0
    while t + 8 <= n:
        i0, i1, i2, i3 = w[_IDX + t], w[_IDX + t + 1], w[_IDX + t + 2], w[_IDX + t + 3]
        i4, i5, i6, i7 = w[_IDX + t + 4], w[_IDX + t + 5], w[_IDX + t + 6], w[_IDX + t + 7]
        d0, d1 = w[_D + t], w[_D + t + 1]
        d2, d3 = w[_D + t + 2], w[_D + t + 3]
        d4, d5 = w[_D + t + 4], w[_D + t + 5]
        d6, d7 = w[_D + t + 6], w[_D + t + 7]
        for j in range(nh):
            acc[a0 + j] += ((d0 * q[i0, j] + d1 * q[i1, j]) + (d2 * q[i2, j] + d3 * q[i3, j])) + (
                (d4 * q[i4, j] + d5 * q[i5, j]) + (d6 * q[i6, j] + d7 * q[i7, j])
            )
        t += 8
    if t < n:
        i0, i1, i2, i3 = w[_IDX + t], w[_IDX + t + 1], w[_IDX + t + 2], w[_IDX + t + 3]
        d0, d1 = w[_D + t], w[_D + t + 1]
        d2, d3 = w[_D + t + 2], w[_D + t + 3]
        for j in range(nh):
            acc[a0 + j] += (d0 * q[i0, j] + d1 * q[i1, j]) + (d2 * q[i2, j] + d3 * q[i3, j])


@njit(cache=True, inline="always")
def _point_rows(side, p, old, new, w, t):
    """Append to the changed inputs (from ``t``; returns the new count) those that change, and by
    how much, when ``side``'s point ``p`` (its own view; 25 the bar) goes from ``old`` to ``new``
    checkers: the point's four units, or the bar's input. Branch-free: each candidate is written
    and kept only when it changes."""
    if p == 25:
        w[_IDX + t] = side * PER_SIDE + 96
        w[_D + t] = new - old
        t += 1
    else:
        base = side * PER_SIDE + 4 * (p - 1)
        for u in range(3):
            w[_IDX + t] = base + u
            change = np.int32(new > u) - np.int32(old > u)
            w[_D + t] = change
            t += change != 0
        w[_IDX + t] = base + 3
        change = max(new - 3, 0) - max(old - 3, 0)
        w[_D + t] = change
        t += change != 0
    return t


@njit(cache=True, inline="always")
def update_sums(board, w, net, acc, a0, q):
    """Make ``acc[a0:a0 + hidden]`` the exact hidden sums (:func:`exact_first_layer` ``q``) of net
    ``net`` (0 contact, 1 race, 2 crashed) for ``board``, whose checkers and scalars are in ``w``
    (:func:`gammon.engine.net.encode.encode_play_scalars`): from the sums of the last board the net saw
    (NNUE's update: a play changes a few inputs), or from the bias when it saw none or when that
    adds fewer rows; that board becomes the last."""
    last = _LAST + 26 * net
    last_k = _LAST_K + SCALARS * net
    fresh = w[_FRESH + net] != 0
    t = 0
    if not fresh:
        # bit masks of what changed (compare loops the compiler vectorises), then only those visited
        slots = 0  # bit i: board slot i
        for i in range(26):
            slots |= np.int64(w[last + i] != board[i]) << i
        scalars = 0  # bit m: play scalar m
        for m in range(PLAY_SCALARS.shape[0]):
            j = PLAY_SCALARS[m]
            scalars |= np.int64(w[SCALARS_AT + j] != w[last_k + j]) << m
        while slots:
            i = trailing_zeros(slots)
            slots &= slots - 1
            a = w[last + i]
            b = np.int32(board[i])
            w[last + i] = b
            # the mover's point i, the opponent's point 25 - i (its bar when i is 0)
            if a > 0 or b > 0:
                t = _point_rows(0, i, max(a, 0), max(b, 0), w, t)
            if a < 0 or b < 0:
                t = _point_rows(1, 25 - i, max(-a, 0), max(-b, 0), w, t)
        while scalars:
            j = PLAY_SCALARS[trailing_zeros(scalars)]
            scalars &= scalars - 1
            w[_IDX + t] = SCALAR_INPUTS[j]
            w[_D + t] = w[SCALARS_AT + j] - w[last_k + j]
            w[last_k + j] = w[SCALARS_AT + j]
            t += 1
    if fresh or t > _FRESH_ABOVE:
        bias = q.shape[0] - 1
        a0 = max(a0, 0)  # as in _add_rows: a vector loop
        for j in range(q.shape[1]):
            acc[a0 + j] = q[bias, j]
        t = 0
        for side in range(2):
            for p in range(1, 26):
                n = w[26 * side + p]
                if n > 0:
                    t = _point_rows(side, p, 0, n, w, t)
        for m in range(PLAY_SCALARS.shape[0]):
            j = PLAY_SCALARS[m]
            w[_IDX + t] = SCALAR_INPUTS[j]
            w[_D + t] = w[SCALARS_AT + j]
            t += w[SCALARS_AT + j] != 0
        w[_FRESH + net] = 0
        for i in range(26):
            w[last + i] = board[i]
        for j in range(SCALARS):
            w[last_k + j] = w[SCALARS_AT + j]
    _add_rows(acc, a0, q, w, t)


@njit(cache=True, inline="always")
def hidden_units(acc, a0, nh, unit, f):
    """The hidden units ``f[_H:_H + nh]`` (through their sigmoids) of the exact sums
    ``acc[a0:a0 + nh]`` in units of ``unit``."""
    a0 = max(a0, 0)  # as in _add_rows: a vector loop
    scale = np.float32(unit)  # a power of two: exact in float32, so only the conversion rounds
    for j in range(nh):  # apart from the sigmoids: float64 in this loop would halve their vectors
        f[_H + j] = np.float32(acc[a0 + j]) * scale
    for j in range(nh):
        f[_H + j] = _sigmoid(f[_H + j])


@njit(cache=True, inline="always")
def net_outputs(board, net, heads, state, cache, with_head):
    """The net's five outputs ``f[_Y:_Y + 5]`` (before they are made consistent) of ``board``, and
    with ``with_head`` the cube decisions' outputs ``f[_Y_HEAD:_Y_HEAD + 5]`` (the contact net's
    cube head ``hw2``; its borne-off head ``bw2`` on the boards of
    :func:`gammon.engine.net.encode.is_borne_off_board` when ``borne``; the crashed net's cube head
    ``xhw2`` on a crashed board, its own output layer again where it has none; a race board's own
    outputs). With ``crashed``, the crashed net plays the contact boards where a side has crashed
    (:func:`gammon.engine.net.crashed.has_crashed_side`). From the cache ``(keys,
    values, stats)`` (:mod:`gammon.engine.net.cache`) when it holds them, else from the nets ``(cq,
    cunit, cw2, rq, runit, rw2, xq, xunit, xw2, crashed)`` (:func:`evaluate_batch`), their hidden
    sums updated from the last board each saw (the scratch ``state``, ``(w, acc, f, key)``:
    :func:`new_state`), and stored there; ``heads`` is ``(hw2, bw2, borne, xhw2)``.

    Inlined into callers compiled without reference counts (``_nrt=False``), where unpacking the
    tuples costs nothing."""
    cq, cunit, cw2, rq, runit, rw2, xq, xunit, xw2, crashed = net
    hw2, bw2, borne, xhw2 = heads
    w, acc, f, key = state
    keys, values, stats = cache
    found = False
    if keys.shape[0]:
        cache_key(board, PLAY, key)
        found = cache_find(keys, values, stats, key, f, _Y)
        if found and with_head:
            key[3] ^= np.uint64(PLAY ^ CUBE) << np.uint64(16)
            found = cache_find(keys, values, stats, key, f, _Y_HEAD)
    if not found:  # (no early return: an inlined function's every exit costs its arrays' counts)
        race = encode_play_scalars(board, w)
        own = race or (crashed and has_crashed_side(board))  # not the contact net's board
        if race:
            nh = rq.shape[1]
            a0 = cq.shape[1]
            update_sums(board, w, 1, acc, a0, rq)
            hidden_units(acc, a0, nh, runit, f)
            outputs(f, nh, rw2, _Y)
        elif own:
            nh = xq.shape[1]
            a0 = cq.shape[1] + rq.shape[1]
            update_sums(board, w, 2, acc, a0, xq)
            hidden_units(acc, a0, nh, xunit, f)
            outputs(f, nh, xw2, _Y)
        else:
            nh = cq.shape[1]
            update_sums(board, w, 0, acc, 0, cq)
            hidden_units(acc, 0, nh, cunit, f)
            outputs(f, nh, cw2, _Y)
        if with_head:
            if race:  # the race net has no head: its own outputs
                for j in range(5):
                    f[_Y_HEAD + j] = f[_Y + j]
            elif own:
                outputs(f, nh, xhw2, _Y_HEAD)
            elif borne and is_borne_off_board(board):
                outputs(f, nh, bw2, _Y_HEAD)
            else:
                outputs(f, nh, hw2, _Y_HEAD)
        if keys.shape[0]:
            if with_head:  # (without, the key is still the board's from cache_find)
                cache_key(board, PLAY, key)
            cache_store(keys, values, stats, key, f, _Y)
            if with_head:
                key[3] ^= np.uint64(PLAY ^ CUBE) << np.uint64(16)
                cache_store(keys, values, stats, key, f, _Y_HEAD)


@njit(cache=True)
def evaluate_batch(boards, net, heads, cache, out, out_head, with_head):
    """Probabilities ``out`` float64 (N, 5) of ``boards`` int8 (N, 26), made consistent
    (:func:`gammon.primitives.clamp_probabilities`), and with ``with_head`` the cube decisions'
    chances into ``out_head`` (see :func:`net_outputs`). ``net`` is ``(cq, cunit, cw2, rq, runit,
    rw2, xq, xunit, xw2, crashed)``: each net's exact first layer (:func:`exact_first_layer`) and
    output layer (:func:`output_layer`), the contact, race and crashed nets', and whether to play
    the crashed boards with the crashed net; ``heads`` is ``(hw2, bw2, borne, xhw2)``, the cube
    decisions' output layers; ``cache`` is ``(keys, values, stats)``."""
    # unpacked once: the arrays go to the per-board kernel one by one (taking the tuples, it ran
    # about 5% slower)
    cq, cunit, cw2, rq, runit, rw2, xq, xunit, xw2, crashed = net
    hw2, bw2, borne, xhw2 = heads
    keys, values, stats = cache
    w, acc, f, key = new_state(net)
    for r in range(boards.shape[0]):
        _board_outputs(
            boards,
            r,
            cq,
            cunit,
            cw2,
            rq,
            runit,
            rw2,
            xq,
            xunit,
            xw2,
            crashed,
            hw2,
            bw2,
            borne,
            xhw2,
            w,
            acc,
            f,
            key,
            keys,
            values,
            stats,
            out,
            out_head,
            with_head,
        )


@njit(cache=True, _nrt=False)
def _board_outputs(
    boards,
    r,
    cq,
    cunit,
    cw2,
    rq,
    runit,
    rw2,
    xq,
    xunit,
    xw2,
    crashed,
    hw2,
    bw2,
    borne,
    xhw2,
    w,
    acc,
    f,
    key,
    keys,
    values,
    stats,
    out,
    out_head,
    with_head,
):
    """Row ``r`` of :func:`evaluate_batch`. Compiled without reference counts (``_nrt=False``: it
    allocates nothing), so the many arrays it takes cost nothing a board, nor the tuples it builds
    of them for :func:`net_outputs`."""
    if r + 1 < boards.shape[0]:
        cache_prefetch(keys, values, boards[r + 1], key)
    net_outputs(
        boards[r],
        (cq, cunit, cw2, rq, runit, rw2, xq, xunit, xw2, crashed),
        (hw2, bw2, borne, xhw2),
        (w, acc, f, key),
        (keys, values, stats),
        with_head,
    )
    store_consistent(out, r, f, _Y, boards[r])
    if with_head:
        store_consistent(out_head, r, f, _Y_HEAD, boards[r])


@njit(cache=True, inline="always")
def store_consistent(out, r, f, y, board):
    """Row ``r`` of ``out``: the outputs ``f[y:y + 5]`` of ``board`` made consistent, the gammons
    it rules out taken away (:func:`gammon.primitives.clamp_probabilities`)."""
    mover_on, opponent_on = checkers_on_board(board)
    out[r, 0], out[r, 1], out[r, 2], out[r, 3], out[r, 4] = clamp_probabilities(
        np.float64(f[y]),
        np.float64(f[y + 1]),
        np.float64(f[y + 2]),
        np.float64(f[y + 3]),
        np.float64(f[y + 4]),
        mover_on,
        opponent_on,
    )
