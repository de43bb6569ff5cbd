"""argparse value types shared by the subcommands: each quotes what was typed when it refuses it."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(minimum: int) -> Callable[[str], int]:
    """A type that reads a whole number of at least ``minimum``."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {minimum}")
        return value

    return read


positive_int = whole_number(1)
not_negative_int = whole_number(0)
