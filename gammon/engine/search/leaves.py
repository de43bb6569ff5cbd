"""Compiled kernels of the search with the neural evaluator: the 0-ply value of a board, and every
play of a board for each roll scored at 0 ply with the best kept, in one compiled loop.

The 0-ply value (:meth:`gammon.engine.search.searcher.Searcher.leaf`, for the player on roll): a
finished game exactly (:func:`gammon.primitives.win_kind`), a bear-off or a race of few checkers
from the one-sided database (with one: :func:`gammon.engine.bearoff.one_sided.in_database_board`),
else the net's outputs through the evaluation cache (:func:`gammon.engine.net.forward.net_outputs`),
made consistent. The plays of one roll are scored one after another, each evaluated from the one
before (the sums of the net's hidden layer updated by the inputs that changed), and none of them is
kept beyond the best: the same values, the same best play (the first of the lowest equity for the
opponent) as :func:`gammon.engine.search.searcher.expand` with :meth:`Searcher.leaf` and
:func:`gammon.engine.search.searcher.best_in_groups` give, without their arrays of every play.

``ctx`` is ``(net, heads, cache, tables, use_bearoff)``: the evaluator's
:meth:`gammon.engine.net.neural.NeuralEvaluator.play_arrays`, its cache's arrays, the bear-off
database's tables (:meth:`gammon.engine.bearoff.one_sided.BearoffDatabase.kernel_tables`) and
whether to use it. Tables of no rows mean the database is not read yet: the kernels then stop at
the first board it values and say so (the caller reads it and calls again), so that a search that
meets no such board never reads it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from gammon import primitives
from gammon.engine.bearoff.one_sided import in_database_board, race_row
from gammon.engine.net.cache import cache_prefetch
from gammon.engine.net.forward import net_outputs, new_state, state_bytes, state_in, store_consistent
from gammon.movegen import buffer_layout, carve_buffers, generate_all, generate_into
from gammon.primitive_kernels import flip_into
from gammon.primitives import BACKGAMMON, GAMMON

# No fast-math licence in the kernels: what they inline (the bear-off database's arithmetic, the
# equities) must round as it does everywhere else; only the net's sigmoids and output sums
# (gammon.engine.net.forward, functions of their own) take one.

# the rules' kernels, compiled again without reference counts for _leaf
_win_kind = njit(cache=True, _nrt=False)(primitives.win_kind)
_in_database_board = njit(cache=True, _nrt=False)(in_database_board.py_func)

NEEDS_BEAROFF = -1
"""What a kernel returns when it met a bear-off board before the database was read."""
GAME_OVER = -2
"""What :func:`choose_play` returns for a finished game (a side without checkers on the board)."""


# The kernels hand ``ctx`` and the scratch of new_state on as they are, tuples: _leaf, compiled
# without reference counts, unpacks them at no cost (see gammon.engine.net.forward).


@njit(cache=True, _nrt=False)
def _leaf(rows, c, n, ctx, state, out, r):
    """``out[r]``: the 0-ply probabilities of ``rows[c]`` for the player on roll (and the cache's
    slots of ``rows[c + 1]`` fetched, when ``c + 1 < n``); False when it is a bear-off board and
    the database is not read yet. ``state`` is the scratch of
    :func:`gammon.engine.net.forward.net_outputs` (:func:`gammon.engine.net.forward.new_state`).
    Compiled without reference counts (``_nrt=False``: it allocates nothing), so the arrays of the
    tuples it takes and unpacks cost nothing a board."""
    net, heads, cache, tables, use_bearoff = ctx
    keys, values, _ = cache
    if c + 1 < n:
        cache_prefetch(keys, values, rows[c + 1], state[3])
    board = rows[c]
    done = True  # (one exit: inlined, each exit costs the arrays' counts)
    kind = _win_kind(board)
    if kind:
        out[r, 0] = 0.0
        out[r, 1] = 0.0
        out[r, 2] = 0.0
        out[r, 3] = 1.0 if kind >= GAMMON else 0.0
        out[r, 4] = 1.0 if kind == BACKGAMMON else 0.0
    elif use_bearoff and _in_database_board(board):
        if tables[0].shape[0] == 0:
            done = False
        else:
            race_row(board, tables, out, r)
    else:
        net_outputs(board, net, heads, state, cache, False)
        # made consistent as Searcher.leaf makes whatever an evaluator gives (the clamp is
        # idempotent, so once is the same as the twice it was)
        store_consistent(out, r, state[2], 0, board)
    return done


@njit(cache=True, inline="always")
def _equity(p, r):
    """Cubeless money equity of row ``r`` (:func:`gammon.engine.net.evaluator.cubeless_equity`)."""
    return 2.0 * p[r, 0] - 1.0 + p[r, 1] + p[r, 2] - p[r, 3] - p[r, 4]


@njit(cache=True)
def leaf_batch(boards, ctx, out):
    """``out[r]``: the 0-ply probabilities of each board. Returns the boards done (all of them, or
    NEEDS_BEAROFF)."""
    state = new_state(ctx[0])
    for r in range(boards.shape[0]):
        if not _leaf(boards, r, boards.shape[0], ctx, state, out, r):
            return NEEDS_BEAROFF
    return boards.shape[0]


@njit(cache=True, inline="always")
def _best_index(after, count, ctx, state, p):
    """The index of the play of ``after[:count]`` (``count`` >= 1) leaving the opponent the lowest
    0-ply equity (the first of them), or NEEDS_BEAROFF. ``state``: :func:`new_state`'s scratch;
    ``p``: float64 (1, 5)."""
    keys, values, _ = ctx[2]
    best = 0
    best_equity = np.inf
    for c in range(min(count, 64)):  # the cache's slots of all the plays fetched at once
        cache_prefetch(keys, values, after[c], state[3])
    for c in range(count):
        if not _leaf(after, c, count, ctx, state, p, 0):
            best = NEEDS_BEAROFF
            break
        e = _equity(p, 0)
        if e < best_equity:
            best_equity = e
            best = c
    return best


@njit(cache=True)
def best_play(board, d1, d2, ctx):
    """Every play of ``board`` for the dice, scored at 0 ply: ``(count, nsteps, boards, steps,
    best)`` as :func:`gammon.movegen.generate_all` gives them and the index of the play leaving the
    opponent the lowest equity (the first of them); ``best`` is NEEDS_BEAROFF when the database
    must be read first, -1 when there is no play."""
    count, nsteps, after, steps = generate_all(board, d1, d2)
    if count <= 1:
        return count, nsteps, after, steps, count - 1
    return count, nsteps, after, steps, _best_index(after, count, ctx, new_state(ctx[0]), np.empty((1, 5)))


CHOSEN = 26 + 8 + 1
"""The length of :func:`choose_play`'s answer: the board after the play, its steps, their number."""
ROOM = 1024
"""The plays of one roll :func:`choose_play`'s scratch holds (a double's; more are rare, and
:func:`best_play` searches them)."""
NEEDS_ROOM = -3
"""What :func:`choose_play` returns when a roll has more than ROOM plays."""


def play_scratch(net: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The scratch of :func:`choose_play` for the nets ``net``, and the int8 view of it where the
    kernel writes its answer: one buffer, so that a call hands the kernel one array for all of it
    (each array costs its unboxing, 60 ns, a kernel's allocation about as much)."""
    at = state_bytes(net)
    buf = np.zeros(at + _MOVEGEN_BYTES + CHOSEN, dtype=np.uint8)
    return buf, buf[at + _MOVEGEN_BYTES :].view(np.int8)


# after the net's state, choose_play's float64 (1, 5) and the move generator's buffers for ROOM plays
_MOVEGEN_BYTES = 40 + buffer_layout.py_func(ROOM)[4]  # (not compiled at import)


@njit(cache=True, _nrt=False)
def choose_play(board, d1, d2, net, cache, tables, use_bearoff, scratch):
    """The play of :func:`best_play` alone, for play at 0 ply: into the answer of ``scratch``
    (:func:`play_scratch`) the board after it (seen from the opponent) ``[:26]``, its steps
    ``[26:26 + 2 * nsteps]`` as (from, to) pairs and ``nsteps`` ``[34]``. Returns the number of
    plays (0: none, the answer untouched), NEEDS_BEAROFF, NEEDS_ROOM, or GAME_OVER when a side has
    no checker on the board (checked here: in Python it costs more than a small decision's
    search). (Numbers out rather than arrays: a returned array costs more to hand to Python than
    the search of a small decision.)

    Compiled without reference counts, allocating nothing (everything it works in is carved from
    ``scratch``): a call then unboxes its arrays without one allocation each. It takes ``ctx``'s
    parts but the heads, which checker play does not read: each array a kernel takes from Python
    costs about 60 ns a call."""
    ctx = (net, (net[2], net[2], False, net[2]), cache, tables, use_bearoff)
    mover = opponent = False
    for j in range(26):
        mover |= board[j] > 0
        opponent |= board[j] < 0
    if not (mover and opponent):
        return GAME_OVER
    state = state_in(scratch, net)
    o = state_bytes(net)
    p = scratch[o : o + 40].view(np.float64).reshape((1, 5))
    room = ROOM if d1 == d2 else ROOM // 4
    buffers = carve_buffers(scratch[o + 40 : o + 40 + buffer_layout(room)[4]], room)
    out = scratch[o + _MOVEGEN_BYTES : o + _MOVEGEN_BYTES + CHOSEN].view(np.int8)
    count, nsteps = generate_into(board, d1, d2, buffers)
    after, steps = buffers[3], buffers[4]
    if count < 0:
        return NEEDS_ROOM
    best = 0
    if count > 1:
        best = _best_index(after, count, ctx, state, p)
    if count > 0 and best >= 0:
        for j in range(26):
            out[j] = after[best, j]
        for s in range(nsteps):
            out[26 + 2 * s] = steps[best, s, 0]
            out[27 + 2 * s] = steps[best, s, 1]
        out[34] = nsteps
    return count if best >= 0 else NEEDS_BEAROFF


@njit(cache=True)
def best_children(boards, rolls, ctx, children, probs):
    """For each board and each roll (group ``board * len(rolls) + roll``): ``children[g]``, the
    board after the play that leaves the opponent the lowest 0-ply equity (the first of them; the
    board flipped when the roll has no play) and ``probs[g]``, its 0-ply probabilities (for the
    opponent, on roll there). Returns the groups done (all of them, or NEEDS_BEAROFF)."""
    state = new_state(ctx[0])
    p = np.empty((1, 5))
    nr = rolls.shape[0]
    # the move generator's buffers, kept from roll to roll: room for 256 plays of a roll, 1,024 of
    # a double (generate_all's first try; more takes generate_all itself)
    work = np.empty(26, dtype=np.int8)
    table = np.zeros(2048, dtype=np.int32)
    seen = np.empty((1024, 2), dtype=np.uint64)
    plays = np.empty((1024, 26), dtype=np.int8)
    steps = np.empty((1024, 4, 2), dtype=np.int8)
    path = np.zeros((4, 2), dtype=np.int8)
    stack = np.zeros(17, dtype=np.int64)
    for_double = (work, table, seen, plays, steps, path, stack)
    for_roll = (work, table[:512], seen[:256], plays[:256], steps[:256], path, stack)
    for i in range(boards.shape[0]):
        for r in range(nr):
            g = i * nr + r
            d1, d2 = rolls[r, 0], rolls[r, 1]
            if d1 == d2:
                count, _ = generate_into(boards[i], d1, d2, for_double)
            else:
                count, _ = generate_into(boards[i], d1, d2, for_roll)
            after = plays
            if count < 0:
                count, _, after, _ = generate_all(boards[i], d1, d2)
            if count == 0:
                flip_into(boards[i], children[g])
                if not _leaf(children, g, np.int64(0), ctx, state, probs, g):
                    return NEEDS_BEAROFF
                continue
            best = 0
            best_equity = np.inf
            for c in range(count):
                if not _leaf(after, c, count, ctx, state, p, 0):
                    return NEEDS_BEAROFF
                e = _equity(p, 0)
                if e < best_equity:
                    best_equity = e
                    best = c
                    for j in range(5):
                        probs[g, j] = p[0, j]
            for j in range(26):
                children[g, j] = after[best, j]
    return boards.shape[0] * nr
