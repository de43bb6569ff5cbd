"""Input encoding of the neural evaluator: Tesauro's raw encoding plus hand-made features.

A board (int8[26], :mod:`gammon.position` layout, seen from the player on roll) becomes
``N_INPUTS`` float32 inputs: first the mover's side, then the opponent's side, each seen from that
side's own view (so the net sees both sides the same way). One side is:

* raw, 98 inputs: for each point 1..24 four units ``n >= 1``, ``n >= 2``, ``n >= 3``,
  ``(n - 3) / 2`` (gnubg's variant of Tesauro's encoding), then ``bar / 2`` and ``off / 15``;
* features, ``N_FEATURES`` inputs (see ``FEATURE_NAMES``): pip count, checkers back, longest
  prime, home points made, blots, an anchor in the opponent's home board, escapes of the rearmost
  checker past the blocks in the 12 points ahead, shots: the rolls of 36 with which this side
  would hit a blot if it were on roll, and (added in ``gammon-v2``, for the holding and back games
  the v1 nets misjudged) the number of anchors in the opponent's home board, the checkers back when
  that makes a holding game (one anchor) or a back game (two or more), and containment: how well the
  other side's blocks hold a checker anywhere on this side's points 15 to 24, and (added in
  ``gammon-v3``, for the races the v2 race net misplayed most: saving a gammon) whether any checker
  is off, the checkers outside the home board, the pips they need to come home and the crossovers
  (quadrant lines) they still have to pass, and the pips this side needs to pass every checker of
  the other side (to break contact; 0 in a race), and (added in ``gammon-v4``, for the contact
  plays the v3 net lost most on at 0 ply) the pips the other side would lose to this side's shots
  (gnubg's pip loss), the chance that this side's checkers on the bar stay there a roll, the most
  forward point this side holds from the other side's bar point back, and how many of this side's
  checkers on points 13 to 25 the other side's blocks hold, weighted by the rolls that fail them.

The same encoding feeds the contact and the race net. ``ENCODING`` names this layout: a weights file
records it and the loader refuses another.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

ENCODING = "gammon-v4"
RAW_PER_SIDE = 24 * 4 + 2
FEATURE_NAMES = (
    "pips",
    "back_checkers",
    "longest_prime",
    "home_points",
    "blots",
    "back_anchor",
    "escapes",
    "shots",
    "anchors",
    "holding_game",
    "back_game",
    "containment",
    "any_off",
    "outside",
    "pips_to_home",
    "crossovers",
    "break_contact",
    "pip_loss",
    "bar_stuck",
    "forward_anchor",
    "trapped",
)
# gammon-v1 had the first eight features only, gammon-v2 the first twelve, gammon-v3 the first
# seventeen; their weights load with zero weights on the rest (neural.from_older), which computes
# what they did.
V1_FEATURES = 8
V2_FEATURES = 12
V3_FEATURES = 17
N_FEATURES = len(FEATURE_NAMES)
PER_SIDE = RAW_PER_SIDE + N_FEATURES
N_INPUTS = 2 * PER_SIDE
SCALARS = 2 * (N_FEATURES + 1)
"""Inputs that are not a point's units (:func:`encode_scalars`): each side's features, then its
checkers off."""
SCALARS_AT = 52
SCRATCH = SCALARS_AT + SCALARS
"""The int32 scratch :func:`encode_into` takes: each side's checkers, then (from ``SCALARS_AT``)
the scalars."""

# Every input is a whole number (its numerator) over a constant: a point's first three units over 1
# and its fourth over 2 (``n - 3`` checkers), the bar over 2, the checkers off over 15, each
# feature over the constant of ``FEATURE_NAMES``'s order. ``NUMERATOR_BOUNDS`` bounds each
# numerator over every position of 15 checkers a side, which is what keeps the sums of
# :func:`gammon.engine.net.forward.exact_first_layer` exact.
_FEATURE_DENOMINATORS = (167, 15, 6, 6, 5, 1, 36, 36, 3, 8, 4, 36, 1, 15, 100, 30, 167, 864, 36, 7, 288)
_FEATURE_BOUNDS = (375, 15, 24, 6, 15, 1, 36, 36, 6, 15, 12, 36, 1, 15, 285, 60, 390, 864, 36, 7, 540)
_SIDE_DENOMINATORS = (1, 1, 1, 2) * 24 + (2, 15) + _FEATURE_DENOMINATORS
_SIDE_BOUNDS = (1, 1, 1, 12) * 24 + (15, 15) + _FEATURE_BOUNDS
DENOMINATORS = np.array(2 * _SIDE_DENOMINATORS, dtype=np.float64)
NUMERATOR_BOUNDS = np.array(2 * _SIDE_BOUNDS, dtype=np.int64)
SCALAR_INPUTS = np.array(
    [side * PER_SIDE + i for side in range(2) for i in (*range(RAW_PER_SIDE, PER_SIDE), RAW_PER_SIDE - 1)],
    dtype=np.int64,
)
"""The input of each scalar (:func:`encode_scalars`)."""


def _linear_scalars() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scalars that are sums over a side's points of the points' units (or of their checkers,
    which are the units' numerators added up: ``n = [n>=1] + [n>=2] + [n>=3] + (n - 3)``, the bar's
    input its checkers): ``(scalars, coefficients, constants)``, the scalar ``j = scalars[m]`` being
    ``constants[m] + coefficients[m] @ k`` for the numerators ``k`` of all the inputs (whose scalars
    have coefficient 0). The pip count, the checkers back, home points, blots, anchors, checkers
    outside, pips to home, crossovers and (15 minus) the checkers on the board: nine of a side's 22."""
    per_point = {  # the coefficient of each checker on point p (25: the bar)
        0: lambda p: p,  # pips
        1: lambda p: 1 if p >= 19 else 0,  # back checkers
        13: lambda p: 1 if p >= 7 else 0,  # outside
        14: lambda p: p - 6 if p >= 7 else 0,  # pips to home
        15: lambda p: (p - 1) // 6 if p >= 7 else 0,  # crossovers
        N_FEATURES: lambda p: -1,  # checkers off: 15 minus these
    }
    per_unit = {  # (unit, first point, last point, coefficient)
        3: [(1, 1, 6, 1)],  # home points: two or more on points 1-6
        4: [(0, 1, 24, 1), (1, 1, 24, -1)],  # blots: one or more, not two or more
        8: [(1, 19, 24, 1)],  # anchors
    }
    scalars, rows, constants = [], [], []
    for side in range(2):
        base = side * PER_SIDE
        for f in sorted([*per_point, *per_unit]):
            row = np.zeros(N_INPUTS, dtype=np.int64)
            if f in per_point:
                for p in range(1, 25):
                    row[base + 4 * (p - 1) : base + 4 * p] = per_point[f](p)
                row[base + 96] = per_point[f](25)
            else:
                for unit, lo, hi, c in per_unit[f]:
                    for p in range(lo, hi + 1):
                        row[base + 4 * (p - 1) + unit] = c
            scalars.append(side * (N_FEATURES + 1) + f)
            rows.append(row)
            constants.append(15 if f == N_FEATURES else 0)
    return np.array(scalars, dtype=np.int64), np.array(rows), np.array(constants, dtype=np.int64)


LINEAR_SCALARS, LINEAR_COEFFICIENTS, LINEAR_CONSTANTS = _linear_scalars()
PLAY_SCALARS = np.array([j for j in range(SCALARS) if j not in set(LINEAR_SCALARS.tolist())], dtype=np.int64)
"""The scalars play adds rows for: the others are folded into the points' rows
(:func:`gammon.engine.net.forward.exact_first_layer`)."""


@intrinsic
def _popcount(typingctx, x):
    """The set bits of an integer (LLVM's ctpop: one POPCNT instruction on x86-64-v3)."""

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


_POINTS = (1 << 25) - 2  # bits 1..24: the points
_ABOVE = -(1 << 25)  # bits 25 and up: beyond a side's own 24-point, off the board for a checker moving in


@njit(cache=True, inline="always")
def _board_masks(board, counts):
    """Each side's checkers from its own view: ``counts[0..25]`` the mover's (its point i, bar 25),
    ``counts[26..51]`` the opponent's; and as bit masks of its own view: ``occ`` (points 1..24 and
    the bar, bit 25), ``made`` (two or more checkers), ``blot`` (one), and ``occ_r``, the points it
    occupies seen from the other side (its point p is the other's 25 - p; the bar is bit 0).
    Returns ``(occ, made, blot, occ_r)`` of the mover, then of the opponent."""
    occ0 = made0 = blot0 = occ_r0 = 0
    occ1 = made1 = blot1 = occ_r1 = 0
    for i in range(26):  # branch-free: a board's slots are not predictable
        v = np.int64(board[i])
        mine = max(v, 0)
        theirs = max(-v, 0)
        j = 25 - i
        counts[i] = mine
        counts[26 + j] = theirs
        occ0 |= np.int64(mine > 0) << i
        occ_r0 |= np.int64(mine > 0) << j
        made0 |= np.int64(mine >= 2) << i
        blot0 |= np.int64(mine == 1) << i
        occ1 |= np.int64(theirs > 0) << j
        occ_r1 |= np.int64(theirs > 0) << i
        made1 |= np.int64(theirs >= 2) << j
        blot1 |= np.int64(theirs == 1) << j
    made0 &= _POINTS  # not the bar
    blot0 &= _POINTS
    made1 &= _POINTS
    blot1 &= _POINTS
    return occ0, made0, blot0, occ_r0, occ1, made1, blot1, occ_r1


@njit(cache=True)
def _shots(on_bar, occ_r, o_made, o_blot):
    """``(shots, pips)``: the rolls of 36 with which this side, on roll, could hit a blot of the
    other side, and the pips the other side would lose to them, summed over the 36 rolls, each roll
    hitting the blot that loses most (a blot on this side's point ``p`` loses ``p`` pips; gnubg's
    pip loss). A roll hits with one die, both dice through an open point, or a double's steps
    through open points, from a checker allowed to move (only from the bar while checkers are
    there; two or more on the bar rule out combined steps, and leave a double 5 - bar steps).
    Works on bit masks of points in the other side's view (``occ_r``: this side's checkers, bar bit
    0; ``o_made``, ``o_blot``: the other side's points), where a die ``a`` takes the checkers
    ``sources`` to ``sources << a``; the blot hit farthest from home is the lowest bit."""
    sources = 1 if on_bar else occ_r & _POINTS
    # only blots beyond the hindmost checker can be hit (often none)
    blots = o_blot & -((sources & -sources) << 1)
    if blots == 0:
        return 0, 0
    limit = 4 if on_bar == 0 else max(1, 5 - on_bar)
    open_points = _POINTS & ~o_made  # where a checker may land on its way
    shots = 0
    pips = 0
    for a in range(1, 7):
        hits_a = (sources << a) & blots
        # a double: up to ``limit`` steps, each from an open point
        reach = sources
        double = 0
        for _ in range(limit):
            reach <<= a
            double |= reach & blots
            reach &= open_points
            if reach == 0:
                break
        if double:
            shots += 1
            pips += 25 - trailing_zeros(double)
        for b in range(a + 1, 7):
            hit = hits_a | ((sources << b) & blots)
            if on_bar <= 1:
                hit |= ((((sources << a) & open_points) << b) & blots) | (
                    (((sources << b) & open_points) << a) & blots
                )
            if hit:
                shots += 2
                pips += 2 * (25 - trailing_zeros(hit))
    return shots, pips


@njit(cache=True)
def _escapes(src, o_made):
    """Rolls of 36 with which a checker on ``src`` can move past every point the other side holds
    (``o_made``, the other side's view) in the 12 points in front of it (ignoring the rest of the
    position)."""
    # walls: bit k when the point k pips ahead is held, or beyond the edge (k up to 18: a double
    # can land 6 beyond the farthest block, 12 ahead); the point src - k is the other's 25 - src + k
    walls = ((o_made | _ABOVE) >> (25 - src)) & 0x7FFFE
    if src >= 13:  # no edge within 12 points: the farthest block is the highest wall there
        return _ESCAPES_15[((walls >> 1) & 0xFFF) | (((walls >> 15) & 3) << 12) | (((walls >> 18) & 1) << 14)]
    blocks = (o_made >> (25 - src)) & 0x1FFE
    past = 63 - leading_zeros(blocks) if blocks else 0  # the farthest block within 12
    return _count_escapes(walls, past)


@njit(cache=True)
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


def _escape_table_15() -> np.ndarray:
    """``_count_escapes`` of every pattern of walls that it reads when the farthest block is its
    highest wall within 12 points (no edge there): bits 0..11 for the walls 1..12 points ahead,
    bits 12, 13, 14 for 15, 16 and 18 (where a double's last step can land). The same count as
    ``_count_escapes``, in numpy over all 32,768 patterns at once (a few milliseconds at import)."""
    index = np.arange(1 << 15, dtype=np.int64)
    walls = ((index & 0xFFF) << 1) | (((index >> 12) & 3) << 15) | (((index >> 14) & 1) << 18)
    blocks = walls & 0x1FFE
    past = np.zeros(len(index), dtype=np.int64)
    for k in range(1, 13):
        past[(blocks >> k) & 1 == 1] = k
    count = np.zeros(len(index), dtype=np.int64)
    for a in range(1, 7):
        going = np.ones(len(index), dtype=bool)  # a double: steps through open points
        k = a
        for _ in range(4):
            going &= (walls >> k) & 1 == 0
            escaped = going & (k > past)
            count += escaped
            going &= ~escaped
            k += a
        for b in range(a + 1, 7):
            ok = np.zeros(len(index), dtype=bool)
            both = ((walls >> (a + b)) & 1 == 0) & (a + b > past)
            for first in (a, b):
                ok |= ((walls >> first) & 1 == 0) & ((first > past) | both)
            count += 2 * ok
    count[past == 0] = 36
    return count.astype(np.int8)


_ESCAPES_15 = _escape_table_15()


@njit(cache=True)
def _containment(held):
    """36 - the fewest escapes of a checker on any of points 15..24: how well the other side's
    blocks (``held``: bit 24 - p for each point p of this side's view the other side holds) hold
    this side's back checkers (gnubg's idea). Only blocks within 12 points ahead count, so a table
    lookup serves each point."""
    fewest = 36
    for src in range(15, 25):
        # the 12 points ahead of src, bit k - 1 for src - k
        pattern = (held >> (24 - src + 1)) & 0xFFF
        fewest = min(fewest, _ESCAPES_12[pattern])
    return 36 - fewest


@njit(cache=True, inline="always")
def _trapped(counts, o, held):
    """The checkers of this side (``counts[o + p]``) on points 13 to 25 (the bar), each weighted by
    the rolls of 36 that fail to take it past the other side's blocks (``held``) in the 12 points
    ahead; only blocks outside this side's home board count: the other side's anchors there are not
    a wall to escape."""
    trapped = 0
    for src in range(13, 26):
        pattern = (held >> (24 - src + 1)) & 0xFFF  # bit k - 1 for src - k
        if src < 19:
            pattern &= (1 << (src - 7)) - 1  # keep src - k >= 7
        trapped += counts[o + src] * (36 - _ESCAPES_12[pattern])
    return trapped


@njit(cache=True, inline="always")
def _side_scalars(counts, o, occ, made, blot, occ_r, o_occ, o_made, o_blot, k, base, linear):
    """The scalars ``k[base:base + N_FEATURES + 1]`` of one side (:func:`encode_scalars`): its
    checkers ``counts[o + p]`` and masks (:func:`_board_masks`), and the other side's masks
    ``o_occ``, ``o_made``, ``o_blot``. Without ``linear``, the pip count, checkers outside, pips
    to home and crossovers are left out (:data:`LINEAR_SCALARS`, which play folds into the points'
    rows and never reads: :func:`encode_play_scalars`)."""
    pips = 0
    on_board = 0
    outside = 0
    to_home = 0
    crossings = 0  # quadrant lines still to cross; the bar is one more than points 19-24
    back = 0
    bar = counts[o + 25]
    if linear:
        for p in range(1, 25):
            n = counts[o + p]
            pips += p * n
            on_board += n
            if p >= 7:
                outside += n
                to_home += (p - 6) * n
                crossings += ((p - 1) // 6) * n
            if p >= 19:
                back += n
        pips += 25 * bar
        outside += bar
        to_home += 19 * bar
        crossings += 4 * bar
    else:
        for p in range(1, 25):
            on_board += counts[o + p]
        for p in range(19, 25):
            back += counts[o + p]
    on_board += bar
    back += bar
    prime = 0  # the longest run of made points
    m = made
    while m:
        m &= m >> 1
        prime += 1
    anchors = _popcount(made & (0x3F << 19))  # points held in the other side's home board
    fwd = made & (0x7F << 18)  # the most forward point held from the other side's bar point back
    rear = 63 - leading_zeros(occ) if occ else 0
    shots, pip_loss = _shots(bar, occ_r, o_made, o_blot)
    # pips to move every checker of this side past the other side's rearmost (0 in a race)
    other_rear = 63 - leading_zeros(o_occ) if o_occ else 0  # from its own view, bar 25
    lowest = 25 - other_rear  # the same point from this side's view
    behind = 0
    if other_rear > 0:
        for p in range(max(lowest, 1), 26):
            behind += (p - lowest + 1) * counts[o + p]
    held = o_made >> 1  # bit 24 - p for each point p (this side's view) the other side holds
    f = base
    if linear:
        k[f] = pips
        k[f + 13] = outside
        k[f + 14] = to_home
        k[f + 15] = crossings
    k[f + 1] = back
    k[f + 2] = prime
    k[f + 3] = _popcount(made & 0x7E)
    k[f + 4] = _popcount(blot)
    k[f + 5] = 1 if anchors > 0 else 0
    k[f + 6] = _escapes(rear, o_made) if rear > 0 else 36
    k[f + 7] = shots
    k[f + 8] = anchors
    k[f + 9] = back if anchors == 1 else 0
    k[f + 10] = back - 3 if anchors >= 2 else 0
    k[f + 11] = _containment(held)
    k[f + 12] = 1 if on_board < 15 else 0
    k[f + 16] = behind
    k[f + 17] = pip_loss
    # the chance that this side's checkers on the bar do not all come in next roll, against the
    # points the other side holds in its home board (this side's 19..24: bits 0..5 of held), x 36
    closed = _popcount(held & 0x3F)
    if bar == 1:
        k[f + 18] = closed * closed
    elif bar >= 2:
        k[f + 18] = 36 - (6 - closed) * (6 - closed)
    else:
        k[f + 18] = 0
    k[f + 19] = 25 - trailing_zeros(fwd) if fwd else 0
    k[f + 20] = _trapped(counts, o, held)
    k[f + 21] = 15 - on_board


@njit(cache=True, inline="always")
def encode_scalars(board, w):
    """One board's inputs, as whole numbers, into ``w`` (int32, at least SCRATCH): each side's checkers at
    ``w[0:52]`` (the mover's from its own view, its point i at ``i``, the bar at 25, then the
    opponent's from its own view at 26 + i), from which each point's units follow, and at
    ``w[52:52 + SCALARS]`` the numerators of the other inputs: the mover's features, its checkers
    off, then the opponent's (input ``SCALAR_INPUTS[j]`` is ``w[52 + j] /
    DENOMINATORS[SCALAR_INPUTS[j]]``). Returns whether the board is a race (:func:`is_race_board`)."""
    return _scalars(board, w, True)


@njit(cache=True, inline="always")
def encode_play_scalars(board, w):
    """:func:`encode_scalars` but for the scalars that play folds into the points' rows
    (:data:`LINEAR_SCALARS`: the pip count, checkers outside, pips to home, crossovers), which it
    leaves as they were: what the play kernels read (:data:`PLAY_SCALARS`), a quarter faster."""
    return _scalars(board, w, False)


@njit(cache=True, inline="always")
def _scalars(board, w, linear):
    """:func:`encode_scalars` (``linear``) or :func:`encode_play_scalars`."""
    occ0, made0, blot0, occ_r0, occ1, made1, blot1, occ_r1 = _board_masks(board, w)
    _side_scalars(w, 0, occ0, made0, blot0, occ_r0, occ1, made1, blot1, w, SCALARS_AT, linear)
    opponent_at = SCALARS_AT + N_FEATURES + 1
    _side_scalars(w, 26, occ1, made1, blot1, occ_r1, occ0, made0, blot0, w, opponent_at, linear)
    # the mover's rearmost checker (board slot) before the opponent's rearmost (its slot; 25: none)
    mover_back = 63 - leading_zeros(occ0) if occ0 else 0
    opponent_back = trailing_zeros(occ_r1) if occ_r1 else 25
    return mover_back < opponent_back


@njit(cache=True)
def encode_into(board, out, scratch):
    """Encode one board into ``out`` (float32[N_INPUTS]); ``scratch`` is int32[SCRATCH]."""
    encode_scalars(board, scratch)
    for side in range(2):
        for p in range(1, 25):
            n = scratch[26 * side + p]
            j = side * PER_SIDE + 4 * (p - 1)
            out[j] = 1.0 if n >= 1 else 0.0
            out[j + 1] = 1.0 if n >= 2 else 0.0
            out[j + 2] = 1.0 if n >= 3 else 0.0
            out[j + 3] = (n - 3) / 2.0 if n > 3 else 0.0
        out[side * PER_SIDE + 96] = scratch[26 * side + 25] / 2.0
    for j in range(SCALARS):
        i = SCALAR_INPUTS[j]
        out[i] = scratch[SCALARS_AT + j] / DENOMINATORS[i]


@njit(cache=True)
def _encode_batch(boards, out):
    scratch = np.zeros(SCRATCH, dtype=np.int32)
    for r in range(boards.shape[0]):
        encode_into(boards[r], out[r], scratch)


@njit(cache=True)
def is_race_board(board):
    """True when contact is over (as :meth:`Position.is_race`)."""
    mover_back = 0
    for i in range(1, 26):
        if board[i] > 0:
            mover_back = i
    opponent_back = 25
    for i in range(24, -1, -1):
        if board[i] < 0:
            opponent_back = i
    return mover_back < opponent_back


@njit(cache=True)
def is_borne_off_board(board):
    """True when a side has borne off a checker while another of its checkers is still on the bar
    or outside its home board (the mover's points 7-24 and bar are slots 7-25, the opponent's slots
    0-18). Whether contact remains is :func:`is_race_board`'s question."""
    mover, mover_out, opponent, opponent_out = 0, False, 0, False
    for i in range(26):
        c = board[i]
        if c > 0:
            mover += c
            mover_out |= i >= 7
        elif c < 0:
            opponent -= c
            opponent_out |= i <= 18
    return (mover < 15 and mover_out) or (opponent < 15 and opponent_out)


@njit(cache=True)
def _race_mask(boards, out):
    for r in range(boards.shape[0]):
        out[r] = is_race_board(boards[r])


@njit(cache=True)
def _borne_off_mask(boards, out):
    for r in range(boards.shape[0]):
        out[r] = is_borne_off_board(boards[r])


def _check(boards: np.ndarray) -> np.ndarray:
    b = np.asarray(boards)
    if b.ndim != 2 or b.shape[1] != 26:
        raise ValueError(f"boards must have shape (N, 26), got {b.shape}")
    return np.ascontiguousarray(b, dtype=np.int8)


def encode(boards: np.ndarray) -> np.ndarray:
    """The inputs of each board: float32 (N, N_INPUTS)."""
    b = _check(boards)
    out = np.zeros((b.shape[0], N_INPUTS), dtype=np.float32)
    _encode_batch(b, out)
    return out


def race_mask(boards: np.ndarray) -> np.ndarray:
    """bool (N,): which boards are races (they go to the race net)."""
    b = _check(boards)
    out = np.zeros(b.shape[0], dtype=np.bool_)
    _race_mask(b, out)
    return out


def borne_off_mask(boards: np.ndarray) -> np.ndarray:
    """bool (N,): the boards where a side has a checker off and another still out
    (:func:`is_borne_off_board`)."""
    b = _check(boards)
    out = np.zeros(b.shape[0], dtype=np.bool_)
    _borne_off_mask(b, out)
    return out


def anchors(boards: np.ndarray) -> np.ndarray:
    """int (N, 2): the points of the other side's home board that the player on roll (column 0) and
    the opponent (column 1) hold with two or more checkers (the ``anchors`` feature, unscaled)."""
    b = np.asarray(boards)
    return np.stack([(b[:, 19:25] >= 2).sum(axis=1), (b[:, 1:7] <= -2).sum(axis=1)], axis=1)


def feature_values(board: np.ndarray) -> dict[str, tuple[float, float]]:
    """The hand-made features of one board as ``{name: (mover, opponent)}`` (for tests and
    inspection)."""
    x = encode(np.asarray(board).reshape(1, 26))[0]
    return {
        name: (float(x[RAW_PER_SIDE + k]), float(x[PER_SIDE + RAW_PER_SIDE + k]))
        for k, name in enumerate(FEATURE_NAMES)
    }
