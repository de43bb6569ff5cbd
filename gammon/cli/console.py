"""The terminal commands' rich Console: a reader that goes away (``gammon analyse ... | head``)
ends the output as it does for the commands that print without rich."""

from __future__ import annotations

from rich import console


class Console(console.Console):
    """rich's Console, but a closed pipe raises BrokenPipeError, which ``gammon``'s entry point
    takes as the end of the output (exit 0, nothing on stderr), instead of rich's SystemExit(1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more is written, from this console at least
        raise BrokenPipeError


__all__ = ["Console"]
