"""numba kernels of the neural evaluator's forward pass: encode a board and run its net (contact or
race) in one compiled loop, row by row, without building the (N, inputs) input matrix.

The raw part of the encoding is mostly zeros (a point holds a few checkers at most), so the hidden
layer is accumulated only over the non-zero inputs, reading rows of ``w1 (inputs, hidden)``. This is
what makes 0-ply play fast (docs/measurements.md); training
(:mod:`gammon.train.kernels`) uses :func:`forward` and :func:`evaluate_one`; play uses
:func:`evaluate_batch`, which runs the same nets through :func:`predict`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.encode import N_INPUTS, encode_into, is_borne_off_board, is_race_board
from gammon.primitive_kernels import clamp_probabilities

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
def evaluate_one(board, cw1, cb1, cw2, cb2, rw1, rb1, rw2, rb2, x, scratch, h, y):
    """Encode ``board`` into ``x`` (``scratch`` int32[52]) and run the race or the contact net."""
    encode_into(board, x, scratch)
    if is_race_board(board):
        forward(x, rw1, rb1, rw2, rb2, h, y)
    else:
        forward(x, cw1, cb1, cw2, cb2, h, y)


@njit(cache=True, fastmath=True)
def gathered_hidden_sums(x, w1, b1, h, nonzero):
    """:func:`hidden_sums` for play, about twice as fast: the non-zero inputs are listed first
    (into ``nonzero``, int64 scratch as long as ``x``), then their rows of ``w1`` are added eight at
    a time (then four, then one), so the loop over ``h`` has no branch and reads and writes ``h`` an
    eighth as often (eight rather than four: about 9% faster with 256 hidden units, which paid for
    the inputs that ``gammon-v4`` added). The sums are the same up to rounding (another order of
    additions)."""
    nh = b1.shape[0]
    n = 0
    for i in range(x.shape[0]):
        if x[i] != 0.0:
            nonzero[n] = i
            n += 1
    for j in range(nh):
        h[j] = b1[j]
    t = 0
    while t + 8 <= n:
        i0, i1, i2, i3 = nonzero[t], nonzero[t + 1], nonzero[t + 2], nonzero[t + 3]
        i4, i5, i6, i7 = nonzero[t + 4], nonzero[t + 5], nonzero[t + 6], nonzero[t + 7]
        x0, x1, x2, x3 = x[i0], x[i1], x[i2], x[i3]
        x4, x5, x6, x7 = x[i4], x[i5], x[i6], x[i7]
        r0, r1, r2, r3 = w1[i0], w1[i1], w1[i2], w1[i3]
        r4, r5, r6, r7 = w1[i4], w1[i5], w1[i6], w1[i7]
        for j in range(nh):
            h[j] += (x0 * r0[j] + x1 * r1[j] + x2 * r2[j] + x3 * r3[j]) + (
                x4 * r4[j] + x5 * r5[j] + x6 * r6[j] + x7 * r7[j])
        t += 8
    while t + 4 <= n:
        i0, i1, i2, i3 = nonzero[t], nonzero[t + 1], nonzero[t + 2], nonzero[t + 3]
        x0, x1, x2, x3 = x[i0], x[i1], x[i2], x[i3]
        r0, r1, r2, r3 = w1[i0], w1[i1], w1[i2], w1[i3]
        for j in range(nh):
            h[j] += x0 * r0[j] + x1 * r1[j] + x2 * r2[j] + x3 * r3[j]
        t += 4
    while t < n:
        x0 = x[nonzero[t]]
        r0 = w1[nonzero[t]]
        for j in range(nh):
            h[j] += x0 * r0[j]
        t += 1


_LOG2E = np.float32(1.4426950408889634)


@njit(cache=True, fastmath=True)
def sigmoid_into(z, n, bits):
    """``z[:n] = 1 / (1 + exp(-z[:n]))`` in loops the compiler vectorises: ``exp(-z)`` is
    ``2**k * 2**f`` with ``k`` an integer put straight into a float's exponent bits (through
    ``bits``, int32) and ``2**f`` (|f| <= 1/2) Cephes' exp2f polynomial (relative error < 2e-7)."""
    for j in range(n):
        t = min(max(-z[j] * _LOG2E, np.float32(-126.0)), np.float32(126.0))
        k = np.floor(t + np.float32(0.5))
        f = t - k
        p = np.float32(1.535336188319500e-4)
        p = p * f + np.float32(1.339887440266574e-3)
        p = p * f + np.float32(9.618437357674640e-3)
        p = p * f + np.float32(5.550332471162809e-2)
        p = p * f + np.float32(2.402264791363012e-1)
        p = p * f + np.float32(6.931472028550421e-1)
        z[j] = p * f + np.float32(1.0)
        bits[j] = (np.int32(k) + np.int32(127)) << 23
    scale = bits.view(np.float32)
    for j in range(n):
        z[j] = np.float32(1.0) / (np.float32(1.0) + z[j] * scale[j])


@njit(cache=True, fastmath=True)
def predict(x, w1, b1, w2t, b2, h, y, bits, nonzero):
    """:func:`forward` for play: the hidden sums are :func:`gathered_hidden_sums` (``nonzero``
    its scratch), ``w2t`` is ``w2`` transposed (5, hidden), so the output sums run along
    contiguous rows, and the sigmoids are :func:`sigmoid_into`; ``bits`` is int32 scratch as long
    as ``h``. Agrees with :func:`forward` to about 1e-6."""
    nh = b1.shape[0]
    gathered_hidden_sums(x, w1, b1, h, nonzero)
    sigmoid_into(h, nh, bits)
    outputs(h, w2t, b2, y, bits)


@njit(cache=True, fastmath=True)
def outputs(h, w2t, b2, y, bits):
    """The five sigmoid outputs ``y`` of the hidden units ``h`` (already through their sigmoids)
    by the output layer ``w2t`` (5, hidden) and ``b2``."""
    nh = w2t.shape[1]
    for k in range(5):
        s = b2[k]
        wk = w2t[k]
        for j in range(nh):
            s += h[j] * wk[j]
        y[k] = s
    sigmoid_into(y, y.shape[0], bits)  # not the literal 5: one compiled specialisation


@njit(cache=True)
def evaluate_batch(boards, cw1, cb1, cw2t, cb2, rw1, rb1, rw2t, rb2, out):
    """Probabilities ``out`` float64 (N, 5) of ``boards`` int8 (N, 26), made consistent
    (:func:`gammon.primitives.clamp_probabilities`). ``cw2t`` and ``rw2t`` are the nets' ``w2``
    transposed (see :func:`predict`)."""
    _evaluate_rows(boards, cw1, cb1, cw2t, cb2, cw2t, cb2, cw2t, cb2, False, rw1, rb1, rw2t, rb2, out, out,
                   False)


@njit(cache=True)
def evaluate_batch_with_head(boards, cw1, cb1, cw2t, cb2, hw2t, hb2, bw2t, bb2, borne, rw1, rb1, rw2t, rb2,
                             out, out_head):
    """:func:`evaluate_batch` into ``out``, and into ``out_head`` the same boards through the
    contact net's second output layer ``hw2t``/``hb2`` (its cube head; a race board gets its race
    net's outputs there too), from one pass through the hidden layer. With ``borne``, a contact
    board where a side has a checker off and another out
    (:func:`gammon.engine.encode.is_borne_off_board`) gets the output layer ``bw2t``/``bb2``
    there instead (the borne-off head)."""
    _evaluate_rows(boards, cw1, cb1, cw2t, cb2, hw2t, hb2, bw2t, bb2, borne, rw1, rb1, rw2t, rb2, out,
                   out_head, True)


@njit(cache=True)
def _evaluate_rows(boards, cw1, cb1, cw2t, cb2, hw2t, hb2, bw2t, bb2, borne, rw1, rb1, rw2t, rb2, out,
                   out_head, with_head):
    """The loop of both: each board encoded, its net run, its outputs made consistent into
    ``out``, and with ``with_head`` the head's into ``out_head``."""
    x = np.zeros(N_INPUTS, dtype=np.float32)
    scratch = np.zeros(52, dtype=np.int32)
    size = max(cb1.shape[0], rb1.shape[0])
    h = np.zeros(size, dtype=np.float32)
    bits = np.zeros(size, dtype=np.int32)
    y = np.zeros(5, dtype=np.float32)
    y_head = np.zeros(5, dtype=np.float32)
    nonzero = np.zeros(N_INPUTS, dtype=np.int64)
    for r in range(boards.shape[0]):
        encode_into(boards[r], x, scratch)
        race = is_race_board(boards[r])
        if race:
            predict(x, rw1, rb1, rw2t, rb2, h, y, bits, nonzero)
        else:
            predict(x, cw1, cb1, cw2t, cb2, h, y, bits, nonzero)
        _store(out, r, y)
        if with_head:
            if race:
                y_head[:] = y
            elif borne and is_borne_off_board(boards[r]):
                outputs(h, bw2t, bb2, y_head, bits)
            else:
                outputs(h, hw2t, hb2, y_head, bits)
            _store(out_head, r, y_head)


@njit(cache=True)
def _store(out, r, y):
    """Row ``r`` of ``out``: the outputs ``y`` made consistent."""
    out[r, 0], out[r, 1], out[r, 2], out[r, 3], out[r, 4] = clamp_probabilities(
        np.float64(y[0]), np.float64(y[1]), np.float64(y[2]), np.float64(y[3]), np.float64(y[4]))
