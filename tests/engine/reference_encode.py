"""The input encoding as it was written before the encoder worked on bit masks and whole-number
numerators (:func:`gammon.engine.net.encode.encode_numerators`): a side's checkers copied out point by
point and each feature counted by its own loop. Kept, unchanged, as the reference the tests hold
the encoder to, bit for bit."""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.net.encode import N_INPUTS, PER_SIDE, RAW_PER_SIDE


@njit(cache=False)
def _side_view(board, side, out):
    """``out[0..25]`` = checker counts of ``side`` (0 mover, 1 opponent) from its own view, and
    ``out[26..51]`` those of the other side from the same view (point i, bar 25)."""
    for i in range(52):
        out[i] = 0
    for i in range(26):
        v = board[i] if side == 0 else -board[25 - i]
        if v > 0:
            out[i] = v
        elif v < 0:
            out[26 + 25 - i] = -v  # the other side's point from its own view is 25 - i


@njit(cache=False)
def _blocked(v, point):
    """Whether the other side holds ``point`` (1..24, own view) with two or more checkers."""
    return v[26 + 25 - point] >= 2


_TOP_BIT = np.array([max(n.bit_length() - 1, 0) for n in range(1 << 13)], dtype=np.int8)


@njit(cache=False)
def _top_point(mask):
    """The highest point (1..24) whose bit is set in ``mask`` (not 0), by table: bits 12..24, else
    bits 0..11."""
    high = mask >> 12
    return _TOP_BIT[high] + 12 if high else _TOP_BIT[mask]


@njit(cache=False)
def _shots(v):
    """``(shots, pips)``: the rolls of 36 with which this side, on roll, could hit a blot of the
    other side, and the pips the other side would lose to them, summed over the 36 rolls, each roll
    hitting the blot that loses most (a blot on this side's point ``p`` loses ``p`` pips; gnubg's
    pip loss). A roll hits with one die, both dice through an open point, or a double's steps
    through open points, from a checker allowed to move (only from the bar while checkers are
    there; two or more on the bar rule out combined steps, and leave a double 5 - bar steps).
    Works on bit masks of points (bit p for point p, 25 the bar): a die ``a`` takes the checkers
    ``sources`` to ``sources >> a``."""
    on_bar = v[25]
    limit = 4 if on_bar == 0 else max(1, 5 - on_bar)
    blots = 0
    open_points = 0  # where a checker may land on its way (not held by the other side)
    for p in range(1, 25):
        n = v[26 + 25 - p]
        if n == 1:
            blots |= 1 << p
        if n < 2:
            open_points |= 1 << p
    if blots == 0:
        return 0, 0
    sources = 1 << 25
    if on_bar == 0:
        sources = 0
        for p in range(1, 25):
            if v[p] > 0:
                sources |= 1 << p
    shots = 0
    pips = 0
    for a in range(1, 7):
        hits_a = (sources >> a) & blots
        # a double: up to ``limit`` steps, each from an open point
        reach = sources
        double = 0
        for _ in range(limit):
            reach >>= a
            double |= reach & blots
            reach &= open_points
            if reach == 0:
                break
        if double:
            shots += 1
            pips += _top_point(double)
        for b in range(a + 1, 7):
            hit = hits_a | ((sources >> b) & blots)
            if on_bar <= 1:
                hit |= ((((sources >> a) & open_points) >> b) & blots) | (
                    (((sources >> b) & open_points) >> a) & blots)
            if hit:
                shots += 2
                pips += 2 * _top_point(hit)
    return shots, pips


@njit(cache=False)
def _escapes(v, src):
    """Rolls of 36 with which a checker on ``src`` can move past every point the other side holds
    in the 12 points in front of it (ignoring the rest of the position)."""
    # walls: bit k when the point k pips ahead is held, or beyond the edge (k up to 18: a double
    # can land 6 beyond the farthest block, 12 ahead); past: k beyond the farthest block
    walls = 0
    past = 0
    for k in range(18, 0, -1):
        p = src - k
        if p < 1 or _blocked(v, p):
            walls |= 1 << k
            if p >= 1 and k <= 12 and past == 0:
                past = k
    return _count_escapes(walls, past)


@njit(cache=False)
def _count_escapes(walls, past):
    """The rolls of 36 that take a checker past ``past`` pips through the ``walls`` (bit k: the
    point k pips ahead is closed)."""
    if past == 0:
        return 36
    count = 0
    for a in range(1, 7):
        # a double: up to four steps through open points until one lands past the block
        k = a
        for _ in range(4):
            if (walls >> k) & 1:
                break
            if k > past:
                count += 1
                break
            k += a
        for b in range(a + 1, 7):
            ok = False
            for first in (a, b):
                if not (walls >> first) & 1:
                    if first > past or (not (walls >> (a + b)) & 1 and a + b > past):
                        ok = True
            if ok:
                count += 2  # a-b and b-a
    return count


def _escape_table() -> np.ndarray:
    """``_count_escapes`` of every pattern of blocks in the 12 points ahead (bit k - 1: k ahead).
    Run as plain Python (about 40 ms): importing this module loads no compiled kernel."""
    count = _count_escapes.py_func
    table = np.empty(1 << 12, dtype=np.int8)
    for pattern in range(1 << 12):
        walls = pattern << 1
        table[pattern] = count(walls, walls.bit_length() - 1 if walls else 0)
    return table


_ESCAPES_12 = _escape_table()


@njit(cache=False)
def _held(v):
    """Bit 24 - p set for each point p (1..24) the other side holds."""
    held = 0
    for p in range(1, 25):
        if _blocked(v, p):
            held |= 1 << (24 - p)
    return held


@njit(cache=False)
def _containment(held):
    """1 - the fewest escapes of a checker on any of points 15..24, over 36: how well the other
    side's blocks (``held``, see :func:`_held`) hold this side's back checkers (gnubg's idea). Only
    blocks within 12 points ahead count, so a table lookup serves each point."""
    fewest = 36
    for src in range(15, 25):
        # the 12 points ahead of src, bit k - 1 for src - k
        pattern = (held >> (24 - src + 1)) & 0xFFF
        fewest = min(fewest, _ESCAPES_12[pattern])
    return (36 - fewest) / 36.0


@njit(cache=False)
def _trapped(v, held):
    """The checkers of this side on points 13 to 25 (the bar), each weighted by the rolls of 36 that
    fail to take it past the other side's blocks (``held``) in the 12 points ahead; only blocks
    outside this side's home board count: the other side's anchors there are not a wall to escape."""
    trapped = 0
    for src in range(13, 26):
        if v[src] > 0:
            pattern = (held >> (24 - src + 1)) & 0xFFF  # bit k - 1 for src - k
            if src < 19:
                pattern &= (1 << (src - 7)) - 1  # keep src - k >= 7
            trapped += v[src] * (36 - _ESCAPES_12[pattern])
    return trapped


@njit(cache=False)
def _encode_side(v, out, base):
    on_board = 0
    pips = 0
    for i in range(1, 26):
        on_board += v[i]
        pips += i * v[i]
    for p in range(1, 25):
        n = v[p]
        j = base + 4 * (p - 1)
        out[j] = 1.0 if n >= 1 else 0.0
        out[j + 1] = 1.0 if n >= 2 else 0.0
        out[j + 2] = 1.0 if n >= 3 else 0.0
        out[j + 3] = (n - 3) / 2.0 if n > 3 else 0.0
    out[base + 96] = v[25] / 2.0
    out[base + 97] = (15 - on_board) / 15.0
    f = base + RAW_PER_SIDE
    back = v[25]
    for p in range(19, 25):
        back += v[p]
    prime = 0
    run = 0
    home = 0
    blots = 0
    anchors = 0  # points held in the opponent's home board
    forward = 0  # the most forward point held from the other side's bar point (18) back to 24
    rear = 0
    for p in range(1, 25):
        if v[p] >= 2:
            run += 1
            prime = max(prime, run)
            if p <= 6:
                home += 1
            if p >= 19:
                anchors += 1
            if p >= 18 and forward == 0:
                forward = p
        else:
            run = 0
        if v[p] == 1:
            blots += 1
        if v[p] > 0:
            rear = p
    if v[25] > 0:
        rear = 25
    shots, pip_loss = _shots(v)
    out[f] = pips / 167.0
    out[f + 1] = back / 15.0
    out[f + 2] = prime / 6.0
    out[f + 3] = home / 6.0
    out[f + 4] = blots / 5.0
    out[f + 5] = 1.0 if anchors > 0 else 0.0
    out[f + 6] = (_escapes(v, rear) / 36.0) if rear > 0 else 1.0
    out[f + 7] = shots / 36.0
    out[f + 8] = anchors / 3.0
    out[f + 9] = back / 8.0 if anchors == 1 else 0.0
    out[f + 10] = (back - 3) / 4.0 if anchors >= 2 else 0.0
    held = _held(v)
    out[f + 11] = _containment(held)
    outside = 0
    to_home = 0
    crossings = 0
    for p in range(7, 26):
        outside += v[p]
        to_home += (p - 6) * v[p]
        crossings += ((p - 1) // 6) * v[p]  # the bar (25): one more than points 19-24
    out[f + 12] = 1.0 if on_board < 15 else 0.0
    out[f + 13] = outside / 15.0
    out[f + 14] = to_home / 100.0
    out[f + 15] = crossings / 30.0
    # pips to move every checker of this side past the other side's rearmost (0 in a race)
    other_rear = 0  # the other side's rearmost checker, from its own view (bar 25)
    for j in range(1, 26):
        if v[26 + j] > 0:
            other_rear = j
    lowest = 25 - other_rear  # the same point from this side's view
    behind = 0
    if other_rear > 0:
        for p in range(max(lowest, 1), 26):
            behind += (p - lowest + 1) * v[p]
    out[f + 16] = behind / 167.0
    out[f + 17] = pip_loss / (36.0 * 24.0)
    # the chance that this side's checkers on the bar do not all come in next roll, against the
    # points the other side holds in its home board (this side's 19..24: bits 0..5 of held)
    closed = 0
    for k in range(6):
        closed += (held >> k) & 1
    if v[25] == 1:
        out[f + 18] = (closed / 6.0) ** 2
    elif v[25] >= 2:
        out[f + 18] = 1.0 - ((6 - closed) / 6.0) ** 2
    else:
        out[f + 18] = 0.0
    out[f + 19] = (25 - forward) / 7.0 if forward > 0 else 0.0
    out[f + 20] = _trapped(v, held) / (36.0 * 8.0)


@njit(cache=False)
def encode_into(board, out, scratch):
    """Encode one board into ``out`` (float32[N_INPUTS]); ``scratch`` is int32[52]."""
    for side in range(2):
        _side_view(board, side, scratch)
        _encode_side(scratch, out, side * PER_SIDE)


@njit(cache=False)
def _encode_batch(boards, out):
    scratch = np.zeros(52, dtype=np.int32)
    for r in range(boards.shape[0]):
        encode_into(boards[r], out[r], scratch)



def reference_encode(boards: np.ndarray) -> np.ndarray:
    """float32 (N, N_INPUTS): the inputs of each board by the reference encoder."""
    b = np.ascontiguousarray(boards, dtype=np.int8)
    out = np.zeros((b.shape[0], N_INPUTS), dtype=np.float32)
    _encode_batch(b, out)
    return out
