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


@njit(cache=True)
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


@njit(cache=True)
def _blocked(v, point):
    """Whether the other side holds ``point`` (1..24, own view) with two or more checkers."""
    return v[26 + 25 - point] >= 2


_TOP_BIT = np.array([max(n.bit_length() - 1, 0) for n in range(1 << 13)], dtype=np.int8)


@njit(cache=True)
def _top_point(mask):
    """The highest point (1..24) whose bit is set in ``mask`` (not 0), by table: bits 12..24, else
    bits 0..11."""
    high = mask >> 12
    return _TOP_BIT[high] + 12 if high else _TOP_BIT[mask]


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _held(v):
    """Bit 24 - p set for each point p (1..24) the other side holds."""
    held = 0
    for p in range(1, 25):
        if _blocked(v, p):
            held |= 1 << (24 - p)
    return held


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def encode_into(board, out, scratch):
    """Encode one board into ``out`` (float32[N_INPUTS]); ``scratch`` is int32[52]."""
    for side in range(2):
        _side_view(board, side, scratch)
        _encode_side(scratch, out, side * PER_SIDE)


@njit(cache=True)
def _encode_batch(boards, out):
    scratch = np.zeros(52, dtype=np.int32)
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
