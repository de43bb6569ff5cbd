"""The neural evaluator's play-time forward pass as it was before the exact, incremental hidden
layer (:func:`gammon.engine.net.forward.exact_first_layer`): each board encoded by the reference
encoder (:mod:`tests.engine.reference_encode`), its non-zero inputs' rows of ``w1`` added in float32
eight at a time, the sigmoids and the output layer as then. Kept, unchanged, as the reference the
tests hold the engine's chosen plays to (:class:`ReferenceEvaluator`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.net.crashed import has_crashed_side
from gammon.engine.net.encode import N_INPUTS, is_race_board
from gammon.engine.net.neural import NeuralEvaluator
from gammon.primitive_kernels import checkers_on_board, clamp_probabilities
from tests.engine.reference_encode import encode_into


@njit(cache=False, fastmath=True)
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


@njit(cache=False, fastmath=True)
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


@njit(cache=False, fastmath=True)
def predict(x, w1, b1, w2t, b2, h, y, bits, nonzero):
    """:func:`forward` for play: the hidden sums are :func:`gathered_hidden_sums` (``nonzero``
    its scratch), ``w2t`` is ``w2`` transposed (5, hidden), so the output sums run along
    contiguous rows, and the sigmoids are :func:`sigmoid_into`; ``bits`` is int32 scratch as long
    as ``h``. Agrees with :func:`forward` to about 1e-6."""
    nh = b1.shape[0]
    gathered_hidden_sums(x, w1, b1, h, nonzero)
    sigmoid_into(h, nh, bits)
    outputs(h, w2t, b2, y, bits)


@njit(cache=False, fastmath=True)
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


@njit(cache=False)
def _evaluate_rows(boards, cw1, cb1, cw2t, cb2, rw1, rb1, rw2t, rb2, xw1, xb1, xw2t, xb2, crashed, out):
    x = np.zeros(N_INPUTS, dtype=np.float32)
    scratch = np.zeros(52, dtype=np.int32)
    size = max(cb1.shape[0], rb1.shape[0], xb1.shape[0])
    h = np.zeros(size, dtype=np.float32)
    bits = np.zeros(size, dtype=np.int32)
    y = np.zeros(5, dtype=np.float32)
    nonzero = np.zeros(N_INPUTS, dtype=np.int64)
    for r in range(boards.shape[0]):
        encode_into(boards[r], x, scratch)
        if is_race_board(boards[r]):
            predict(x, rw1, rb1, rw2t, rb2, h, y, bits, nonzero)
        elif crashed and has_crashed_side(boards[r]):  # the crashed net, where there is one
            predict(x, xw1, xb1, xw2t, xb2, h, y, bits, nonzero)
        else:
            predict(x, cw1, cb1, cw2t, cb2, h, y, bits, nonzero)
        mover_on, opponent_on = checkers_on_board(boards[r])
        out[r, 0], out[r, 1], out[r, 2], out[r, 3], out[r, 4] = clamp_probabilities(
            np.float64(y[0]), np.float64(y[1]), np.float64(y[2]), np.float64(y[3]), np.float64(y[4]),
            mover_on, opponent_on)


class ReferenceEvaluator:
    """The checker-play outputs of ``ev``'s nets by the reference forward pass (no cache, no cube
    head): an evaluator for the search's generic path."""

    def __init__(self, ev: NeuralEvaluator) -> None:
        self.ev = ev
        self._zero_ply: ReferenceEvaluator | None = None

    def at_zero_ply(self) -> ReferenceEvaluator:
        """The reference of ``ev``'s 0-ply nets (the 2-ply search's filters read them too)."""
        zero = self.ev.at_zero_ply()
        if zero is self.ev:
            return self
        if self._zero_ply is None or self._zero_ply.ev is not zero:
            self._zero_ply = ReferenceEvaluator(zero)
        return self._zero_ply

    def evaluate(self, boards: np.ndarray) -> np.ndarray:
        b = np.require(boards, np.int8, ["C", "W"])
        out = np.empty((b.shape[0], 5))
        c, r = self.ev.contact, self.ev.race
        x = self.ev.crashed or c
        if len(b):
            _evaluate_rows(b, c.w1, c.b1, c.w2t, c.b2, r.w1, r.b1, r.w2t, r.b2, x.w1, x.b1, x.w2t, x.b2,
                           self.ev.crashed is not None, out)
        return out
