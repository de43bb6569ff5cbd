"""Legal plays with the full rules, one per distinct resulting position.

The search runs in a numba kernel over the 26-slot board of :mod:`gammon.position`. The cases are
named so that the "use both dice, else the larger die" rule is visible:

* doubles: up to four steps of the same die; only plays with the most steps count;
* both dice: two steps, in either order;
* one die: only when no play uses both, with the larger die where it can be played.

Plays are deduplicated by a 128-bit key of the result: the mover's 25 counts (4 bits each) and the
mask of points where an opponent blot was hit (the only way the opponent's side changes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from numba import njit

from gammon.dice import check_dice
from gammon.play import Play
from gammon.primitive_kernels import flip_into

if TYPE_CHECKING:  # Position imports this module when asked for plays
    from gammon.position import Position

Board = npt.NDArray[np.int8]
"""The 26-slot board of :mod:`gammon.position` as the kernels hold it (int8[26]; int8[n, 26] for n)."""
Steps = npt.NDArray[np.int8]
"""(from, to) steps: int8[4, 2] for one play, int8[n, 4, 2] for n."""
Keys = npt.NDArray[np.uint64]
Table = npt.NDArray[np.int32]
Buffers = tuple[Board, Table, Keys, Board, Steps, Steps, npt.NDArray[np.int64]]
"""What :func:`generate_into` works in: ``(b, table, keys, out_boards, out_steps, path, stack)``."""


@njit(cache=True, inline="always")
def step_target(b: Board, src: int, die: int) -> int:
    """Where one checker from ``src`` lands with ``die``: 1-24, 0 for off, -1 if it cannot move."""
    if b[src] <= 0:
        return -1
    if b[25] > 0 and src != 25:
        return -1
    dst = src - die
    if dst >= 1:
        if b[dst] <= -2:
            return -1
        return dst
    for i in range(7, 26):
        if b[i] > 0:
            return -1
    if dst == 0:
        return 0
    for i in range(src + 1, 7):
        if b[i] > 0:
            return -1
    return 0


@njit(cache=True, inline="always")
def apply_step(b: Board, src: int, dst: int) -> int:
    """Move one checker; returns 1 when it hits a blot."""
    b[src] -= 1
    if dst == 0:
        return 0
    if b[dst] == -1:
        b[dst] = 1
        b[0] -= 1
        return 1
    b[dst] += 1
    return 0


@njit(cache=True, inline="always")
def undo_step(b: Board, src: int, dst: int, hit: int) -> None:
    """Take back :func:`apply_step` (``hit``: what it returned)."""
    b[src] += 1
    if dst == 0:
        return
    if hit:
        b[dst] = -1
        b[0] += 1
    else:
        b[dst] -= 1


@njit(cache=True, inline="always")
def _record(
    b: Board,
    hitmask: int,
    path: Steps,
    nsteps: int,
    table: Table,
    keys: Keys,
    out_boards: Board,
    out_steps: Steps,
    count: int,
) -> int:
    """Store the play that led to ``b`` unless its result is known; returns the new count,
    or -1 when the output arrays are full."""
    hi = np.uint64(0)
    for i in range(1, 16):
        v = b[i] if b[i] > 0 else 0
        hi |= np.uint64(v) << np.uint64(4 * (i - 1))
    lo = np.uint64(hitmask >> 1) << np.uint64(40)  # points 1-24 -> bits 40-63
    for i in range(16, 26):
        v = b[i] if b[i] > 0 else 0
        lo |= np.uint64(v) << np.uint64(4 * (i - 16))
    mask = table.shape[0] - 1
    h = (hi * np.uint64(0x9E3779B97F4A7C15)) ^ (lo * np.uint64(0xC2B2AE3D27D4EB4F))
    slot = np.int64(h >> np.uint64(33)) & mask
    while True:
        j = table[slot]
        if j == 0:
            break
        if keys[j - 1, 0] == hi and keys[j - 1, 1] == lo:
            return count
        slot = (slot + 1) & mask
    if count >= out_boards.shape[0]:
        return -1
    table[slot] = count + 1
    keys[count, 0] = hi
    keys[count, 1] = lo
    flip_into(b, out_boards[count])
    for s in range(nsteps):
        out_steps[count, s, 0] = path[s, 0]
        out_steps[count, s, 1] = path[s, 1]
    return count + 1


@njit(cache=True, _nrt=False)
def _doubles(
    b: Board,
    die: int,
    table: Table,
    keys: Keys,
    out_boards: Board,
    out_steps: Steps,
    path: Steps,
    stack: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """Up to four steps of ``die``; sources never increase, which finds every result once or more.

    Depth-first with an explicit stack (in ``path`` int8 (4, 2) and ``stack`` int64 (17,),
    scratch): ``path[d]`` and ``hits[d]`` are step d, ``resume[d]`` the source where depth d looks
    next, ``masks[d]`` the points hit by the first d steps, and ``deeper[d]`` whether step d was
    followed by another (if not, it ends a play). (The move generator's search functions take their
    scratch and are compiled without reference counts: a kernel calls them for every roll.)"""
    hits = stack[0:4]
    resume = stack[4:8]
    masks = stack[8:13]
    deeper = stack[13:17]
    masks[0] = 0
    best = 0
    count = np.int64(0)
    d = 0
    resume[0] = 25
    while d >= 0:
        s = resume[d]
        t = -1
        while s >= 1:
            t = step_target(b, s, die)
            if t >= 0:
                break
            s -= 1
        if s >= 1:  # step d found: apply it, then record a four-step play or go deeper
            resume[d] = s - 1
            hits[d] = apply_step(b, s, t)
            path[d, 0] = s
            path[d, 1] = t
            masks[d + 1] = masks[d] | (hits[d] << t)
            if d > 0:
                deeper[d - 1] = 1
            if d < 3:
                deeper[d] = 0
                d += 1
                resume[d] = s
                continue
            nsteps = 4
        else:  # depth d is done: back to step d - 1, which ends a play if nothing followed it
            d -= 1
            if d < 0:
                break
            nsteps = d + 1 if not deeper[d] else 0
        if nsteps and best <= nsteps:
            if best < nsteps:
                best = nsteps
                count = np.int64(0)  # typed, not a literal: numba compiles a callee per literal
                table[:] = 0
            count = _record(b, masks[d + 1], path, nsteps, table, keys, out_boards, out_steps, count)
        undo_step(b, path[d, 0], path[d, 1], hits[d])
        if count < 0:
            return -1, 0
    return int(count), best


@njit(cache=True, _nrt=False)
def _both_dice(
    b: Board,
    first: int,
    second: int,
    count: int,
    table: Table,
    keys: Keys,
    out_boards: Board,
    out_steps: Steps,
    path: Steps,
) -> int:
    """Every two-step play that uses ``first`` and then ``second`` (``path``: scratch)."""
    for s1 in range(25, 0, -1):
        t1 = step_target(b, s1, first)
        if t1 < 0:
            continue
        h1 = apply_step(b, s1, t1)
        path[0, 0] = s1
        path[0, 1] = t1
        for s2 in range(25, 0, -1):
            t2 = step_target(b, s2, second)
            if t2 < 0:
                continue
            h2 = apply_step(b, s2, t2)
            path[1, 0] = s2
            path[1, 1] = t2
            count = _record(
                b, (h1 << t1) | (h2 << t2), path, np.int64(2), table, keys, out_boards, out_steps, count
            )
            undo_step(b, s2, t2, h2)
            if count < 0:
                return -1
        undo_step(b, s1, t1, h1)
    return count


@njit(cache=True, _nrt=False)
def _one_die(
    b: Board, die: int, count: int, table: Table, keys: Keys, out_boards: Board, out_steps: Steps, path: Steps
) -> int:
    """Every one-step play with ``die`` (``path``: scratch)."""
    for s1 in range(25, 0, -1):
        t1 = step_target(b, s1, die)
        if t1 < 0:
            continue
        h1 = apply_step(b, s1, t1)
        path[0, 0] = s1
        path[0, 1] = t1
        count = _record(b, h1 << t1, path, np.int64(1), table, keys, out_boards, out_steps, count)
        undo_step(b, s1, t1, h1)
        if count < 0:
            return -1
    return count


@njit(cache=True, inline="always")
def buffer_layout(capacity: int) -> tuple[int, int, int, int, int]:
    """Where :func:`carve_buffers` puts the buffers for ``capacity`` plays in its one byte buffer
    (8-byte items first, then 4, then 1): the offsets of the hash table (a power of two of slots, at
    least twice ``capacity``), the boards, the steps and the work board (the stack and the keys
    come first), and the bytes it takes, a multiple of 8. (Self-contained, so that Python can call
    its ``py_func`` without compiling anything.)"""
    table_size = 64
    while table_size < 2 * capacity:
        table_size *= 2
    o_table = 136 + capacity * 16
    o_boards = o_table + table_size * 4
    o_steps = o_boards + capacity * 26
    o_work = o_steps + capacity * 8
    return o_table, o_boards, o_steps, o_work, (o_work + 34 + 7) // 8 * 8


@njit(cache=True, inline="always")
def carve_buffers(buf: npt.NDArray[np.uint8], capacity: int) -> Buffers:
    """:func:`generate_into`'s buffers for ``capacity`` plays carved from ``buf`` (uint8, at least
    :func:`buffer_layout`'s bytes, its start 8-byte aligned) and cleared where the search needs them clear:
    for a kernel that allocates nothing, and for :func:`generate`. (Inlined, so that it compiles
    as its caller does, with or without reference counts.)"""
    o_keys = 136
    o_table, o_boards, o_steps, o_work, _ = buffer_layout(capacity)
    stack = buf[0:o_keys].view(np.int64)
    keys = buf[o_keys:o_table].view(np.uint64).reshape((capacity, 2))
    table = buf[o_table:o_boards].view(np.int32)  # cleared by generate_into
    out_boards = buf[o_boards:o_steps].view(np.int8).reshape((capacity, 26))
    out_steps = buf[o_steps:o_work].view(np.int8).reshape((capacity, 4, 2))
    work = buf[o_work : o_work + 26].view(np.int8)
    path = buf[o_work + 26 : o_work + 34].view(np.int8).reshape((4, 2))
    for i in range(o_keys):
        buf[i] = 0
    for i in range(o_steps, o_work + 34):  # the steps a play does not take stay 0; path, work clear
        buf[i] = 0
    return work, table, keys, out_boards, out_steps, path, stack


@njit(cache=True)
def generate(board: Board, d1: int, d2: int, capacity: int) -> tuple[int, int, Board, Steps]:
    """All distinct legal plays of ``board`` (int8[26]) for the dice.

    Returns ``(count, nsteps, boards, steps)``: the results seen from the opponent (int8[count, 26])
    and the (from, to) steps of one way to reach each (int8[count, 4, 2], 0 = off). ``count`` is
    -1 when ``capacity`` was too small.
    """
    # the seven buffers carved from one allocation (each array a kernel allocates costs about as
    # much as generating a small roll's plays)
    buffers = carve_buffers(np.empty(buffer_layout(capacity)[4], dtype=np.uint8), capacity)
    count, nsteps = generate_into(board, d1, d2, buffers)
    return count, nsteps, buffers[3], buffers[4]


@njit(cache=True, _nrt=False)
def generate_into(board: Board, d1: int, d2: int, buffers: Buffers) -> tuple[int, int]:
    """:func:`generate` into buffers the caller keeps (a kernel that generates many times):
    ``(count, nsteps)``, the plays in ``out_boards`` and ``out_steps`` (as many as they hold:
    ``count`` is -1 when they are too few). ``buffers`` is ``(b, table, keys, out_boards,
    out_steps, path, stack)``: ``b`` (int8[26]) gets a copy of ``board`` to work on; ``table`` (a
    power of two, at least twice the capacity) is cleared first; ``keys`` (uint64 (capacity, 2)),
    ``out_boards`` (int8 (capacity, 26)) and ``out_steps`` (int8 (capacity, 4, 2)) hold as many
    plays; ``path`` (int8 (4, 2)) and ``stack`` (int64 (17,)) are the search's scratch. (A tuple
    costs nothing here: compiled without reference counts.)"""
    b, table, keys, out_boards, out_steps, path, stack = buffers
    for i in range(26):
        b[i] = board[i]
    for i in range(table.shape[0]):
        table[i] = 0
    if d1 == d2:
        count, nsteps = _doubles(b, d1, table, keys, out_boards, out_steps, path, stack)
        return count, nsteps
    high = max(d1, d2)
    low = min(d1, d2)
    none = np.int64(0)  # typed, not a literal 0: one compiled _both_dice and _one_die
    count = _both_dice(b, high, low, none, table, keys, out_boards, out_steps, path)
    if count != 0:
        if count > 0:
            count = _both_dice(b, low, high, count, table, keys, out_boards, out_steps, path)
        return count, 2
    count = _both_dice(b, low, high, none, table, keys, out_boards, out_steps, path)
    if count != 0:
        return count, 2
    count = _one_die(b, high, none, table, keys, out_boards, out_steps, path)
    if count != 0:
        return count, 1
    count = _one_die(b, low, none, table, keys, out_boards, out_steps, path)
    return count, (1 if count else 0)


@njit(cache=True)
def generate_all(board: Board, d1: int, d2: int) -> tuple[int, int, Board, Steps]:
    """:func:`generate` with buffers that grow until every play fits: the one grow-and-retry loop
    of the move generator, for the kernels and the Python API alike. ``count`` is never -1."""
    capacity = 256 if d1 != d2 else 1024  # enough for all but rare positions
    while True:
        count, nsteps, boards, steps = generate(board, d1, d2, capacity)
        if count >= 0:
            return count, nsteps, boards, steps
        capacity *= 4


def generate_arrays(board: Board, dice: Sequence[int]) -> tuple[int, Board, Steps]:
    """Run the kernel (:func:`generate_all`): ``(nsteps, boards, steps)`` of every play."""
    d1, d2 = dice
    if not board.flags.writeable:  # Position.as_array() is read-only: numba would compile
        board = board.copy()  # generate a second time for it (seconds on a first run)
    count, nsteps, boards, steps = generate_all(board, d1, d2)
    return nsteps, boards[:count], steps[:count, :nsteps]


def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """Every legal play of ``position`` for ``dice``, one per distinct resulting position."""
    d1, d2 = check_dice(dice)
    _, boards, steps = generate_arrays(position.as_array(), (d1, d2))
    make = Play.from_kernel
    return [make(position, (d1, d2), s, a) for s, a in zip(steps.tolist(), boards.tolist())]
