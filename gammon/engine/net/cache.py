"""The evaluation cache: the neural evaluator's outputs of boards it has already evaluated, as GNU
Backgammon keeps them, in a table of a fixed size in bytes.

A search meets the same board many times: plays that transpose, replies that meet again, the same
position analysed for its cube action, its luck and its play, a rollout's trials passing through
the same early positions. An entry is a board (its 26 bytes) and which outputs it holds (``PLAY``:
the outputs checker play uses; ``CUBE``: the chances cube decisions value,
:meth:`gammon.engine.net.neural.NeuralEvaluator.evaluate_for_cube`), with the net's five outputs
(float32, before they are made consistent): 52 bytes. The table is two-way set associative: a board
may sit in one of two slots, the one used last first; storing a board into a full pair drops the
pair's older entry. A lookup compares the whole board and kind, so an entry that was dropped (or
never stored) is simply evaluated again; and since an evaluation does not depend on the batch it
came in (:func:`gammon.engine.net.forward.exact_first_layer`), a board gets the same outputs from the
cache as from the net.

The kernels take the table's arrays: ``keys`` uint64 (slots, 4), ``values`` float32 (slots, 5),
``stats`` int64 (3,): lookups, hits, stores. A table of no slots caches nothing.
"""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

PLAY, CUBE = 0, 1
ENTRY_BYTES = 4 * 8 + 5 * 4
DEFAULT_BYTES = 8 << 20
"""8 MiB: 131,072 boards (the largest power of two that fits), the searches of a few decisions."""

_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9),
        np.uint64(0xD6E8FEB86659FD93))
_VALID = np.uint64(1 << 63)  # set in every stored key's last word; an empty slot's is 0


class EvaluationCache:
    """A cache of at most ``nbytes`` bytes (its arrays; at least two slots, else it caches nothing).
    Not shared between processes: a pickled evaluator carries an empty cache of the same size."""

    def __init__(self, nbytes: int = DEFAULT_BYTES) -> None:
        if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < 0:
            raise ValueError(f"a cache size is a number of bytes >= 0, got {nbytes!r}")
        self.limit = nbytes
        slots = 1
        while 2 * slots * ENTRY_BYTES <= nbytes:
            slots *= 2
        slots = slots if slots >= 2 and slots * ENTRY_BYTES <= nbytes else 0
        table = _zeroed(slots * ENTRY_BYTES)
        self.keys = table[:slots * 32].view(np.uint64).reshape(slots, 4)
        self.values = table[slots * 32:].view(np.float32).reshape(slots, 5)
        self.stats = np.zeros(3, dtype=np.int64)

    @property
    def slots(self) -> int:
        return int(self.keys.shape[0])

    @property
    def nbytes(self) -> int:
        """The bytes its table takes (at most the size asked for)."""
        return int(self.keys.nbytes + self.values.nbytes)

    @property
    def hits(self) -> int:
        return int(self.stats[1])

    @property
    def lookups(self) -> int:
        return int(self.stats[0])

    def clear(self) -> None:
        """Forget every entry (the evaluator's weights changed) and the counts. In place: the
        pages the table has used stay (a page the system first gives on a write costs more than
        the lookup; a memset of the keys costs a millisecond)."""
        if self.stats[2]:
            self.keys[:] = 0
        self.stats[:] = 0

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(keys, values, stats)`` for the kernels."""
        return self.keys, self.values, self.stats

    def __repr__(self) -> str:
        return f"EvaluationCache({self.limit}): {self.slots} slots, {self.hits}/{self.lookups} hits"

    def __getstate__(self) -> dict[str, Any]:
        return {"limit": self.limit}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["limit"])  # type: ignore[misc]


def _zeroed(nbytes: int) -> np.ndarray:
    """``nbytes`` zero bytes (uint8) for the table, in huge pages where the system gives them
    (Linux, transparent huge pages on request): a table larger than the processor's caches is then
    read with few misses in its page tables, and its pages come 2 MiB at a time as they are
    first written rather than 4 KiB at a time."""
    if nbytes >= 2 << 20:
        try:
            area = mmap.mmap(-1, nbytes)
            area.madvise(mmap.MADV_HUGEPAGE)
            return np.frombuffer(area, dtype=np.uint8)
        except (AttributeError, OSError, ValueError):  # not Linux, or no transparent huge pages
            pass
    return np.zeros(nbytes, dtype=np.uint8)


@njit(cache=True, inline="always")
def cache_key(board, kind, key):
    """``key`` (uint64[4]): the 26 bytes of ``board``, ``kind`` and the mark of a used slot."""
    for w in range(3):
        word = np.uint64(0)
        for b in range(8):
            word |= np.uint64(np.uint8(board[8 * w + b])) << np.uint64(8 * b)
        key[w] = word
    key[3] = (np.uint64(np.uint8(board[24])) | (np.uint64(np.uint8(board[25])) << np.uint64(8))
              | (np.uint64(kind) << np.uint64(16)) | _VALID)


@njit(cache=True, inline="always")
def _slot(keys, key):
    """The first slot of ``key``'s pair."""
    h = key[0] * _MIX[0] ^ key[1] * _MIX[1] ^ key[2] * _MIX[2] ^ key[3] * _MIX[3]
    h ^= h >> np.uint64(32)
    h *= _MIX[0]
    h ^= h >> np.uint64(29)
    return 2 * np.int64(h & np.uint64(keys.shape[0] // 2 - 1))


@intrinsic
def _prefetch(typingctx, table, row):
    """Ask the processor to start fetching the cache line of ``table[row, 0]`` (2-D): a hint, which
    lets a miss in a large table overlap the work before the lookup."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1], zero], wraparound=False)
        i32 = ir.IntType(32)
        byte_ptr = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # read, keep in all levels, data
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(table, row), codegen


@njit(cache=True, inline="always")
def cache_prefetch(keys, values, board, key):
    """Start fetching the slots of ``board``'s checker-play entry (``key``: scratch), while the
    board before it is evaluated: in a table larger than the processor's caches a lookup
    otherwise waits for memory."""
    if keys.shape[0]:
        cache_key(board, PLAY, key)
        s = _slot(keys, key)
        _prefetch(keys, s)
        _prefetch(values, s)


@njit(cache=True, inline="always")
def _same(keys, s, key):
    return keys[s, 0] == key[0] and keys[s, 1] == key[1] and keys[s, 2] == key[2] and keys[s, 3] == key[3]


@njit(cache=True, inline="always")
def _swap(keys, values, s, t):
    for w in range(4):
        keys[s, w], keys[t, w] = keys[t, w], keys[s, w]
    for j in range(5):
        values[s, j], values[t, j] = values[t, j], values[s, j]


@njit(cache=True, inline="always")
def cache_find(keys, values, stats, key, f, y):
    """Whether ``key`` is in the table; if so its outputs go into ``f[y:y + 5]`` (float32) and it
    becomes the first of its pair. (One exit: inlined, each exit costs the arrays' counts.)"""
    found = False
    if keys.shape[0]:
        stats[0] += 1
        s = _slot(keys, key)
        if _same(keys, s + 1, key):
            _swap(keys, values, s, s + 1)
        if _same(keys, s, key):
            for j in range(5):
                f[y + j] = values[s, j]
            stats[1] += 1
            found = True
    return found


@njit(cache=True, inline="always")
def cache_store(keys, values, stats, key, f, y):
    """Store ``key`` with outputs ``f[y:y + 5]`` first in its pair, the pair's first entry moving
    second (its second, the older, is dropped)."""
    if keys.shape[0]:
        stats[2] += 1
        s = _slot(keys, key)
        for w in range(4):
            keys[s + 1, w] = keys[s, w]
            keys[s, w] = key[w]
        for j in range(5):
            values[s + 1, j] = values[s, j]
            values[s, j] = f[y + j]
