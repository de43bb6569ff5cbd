"""A note on stderr while numba compiles gammon's kernels, so that a first run does not look hung.

numba compiles each kernel the first time it runs on a machine and caches the result (see
:mod:`gammon.compiled.numba_cache`); later runs load it in a fraction of a second.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from gammon.i18n import N_, tr

COMPILING = N_("gammon: compiling the engine for this computer; this happens once and may take half a "
               "minute, later runs start in about a second ...")


@contextmanager
def compile_notice(after: float = 1.0, message: str = COMPILING) -> Iterator[None]:
    """Print ``message`` to stderr once if numba starts compiling inside the block and the block
    is still running ``after`` seconds later."""
    from numba.core import event

    timer: threading.Timer | None = None
    text = tr(message)  # here: the timer's thread does not share this context's language

    def say() -> None:
        print(text, file=sys.stderr, flush=True)

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            nonlocal timer
            if timer is None:
                timer = threading.Timer(after, say)
                timer.daemon = True
                timer.start()

        def on_end(self, ev: event.Event) -> None:
            pass

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)
        if timer is not None:
            timer.cancel()
