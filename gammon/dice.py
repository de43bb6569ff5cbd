"""Dice: validation of a roll, and the dice sources games draw from.

Every random number in gammon comes from a :class:`DiceSource`, so a game can be replayed from a
seed or scripted roll by roll in tests.
"""

from __future__ import annotations

import numbers
import random
import re
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol

from gammon.errors import IllegalActionError, IllegalMoveError, InvalidNotationError, cut
from gammon.i18n import tr

Dice = tuple[int, int]

ALL_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls, non-doubles written low die first."""

# Two dice with at most one separator between them: a sign or a stray separator ("-31", "3--1")
# is a typo, not a roll.
_DICE_TEXT = re.compile(r"\s*([1-6])\s*[-,/]?\s*([1-6])\s*")


def check_dice(dice: Sequence[int]) -> Dice:
    """Return ``dice`` as a pair of ints 1-6, or raise :class:`IllegalMoveError` quoting it."""
    if type(dice) is tuple and len(dice) == 2:  # the usual case, first: checked for every play
        d1, d2 = dice
        if type(d1) is int and type(d2) is int and 0 < d1 < 7 and 0 < d2 < 7:
            return dice
    try:
        d1, d2 = dice
        # any whole number type (numpy's dice too), made ints; not True / False
        ok = all(isinstance(d, numbers.Integral) and not isinstance(d, bool) and 1 <= d <= 6
                 for d in (d1, d2))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise IllegalMoveError(tr("dice must be two numbers from 1 to 6, got {dice}", dice=cut(repr(dice))))
    return (int(d1), int(d2))


def parse_dice(text: str) -> Dice:
    """Read dice written as ``31``, ``3-1``, ``3 1`` or ``3,1``."""
    found = _DICE_TEXT.fullmatch(str(text))
    if found is None:
        # gammon hint's and rollout's roll, the position editor's: read at the terminal or in the browser
        raise InvalidNotationError(tr("dice {text} must be two digits from 1 to 6, e.g. '31'",
                                      text=repr(cut(str(text)))))
    return (int(found[1]), int(found[2]))


class DiceSource(Protocol):
    """Where rolls come from: ``roll()`` returns two dice."""

    def roll(self) -> Dice: ...


class RandomDice:
    """Random dice: reproducible with a ``seed``, from the OS's cryptographic source without one."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()

    def roll(self) -> Dice:
        return (self._rng.randint(1, 6), self._rng.randint(1, 6))

    # The OS's source has no state to save (pickling it raises): a saved game or match restores
    # with fresh OS dice, a seeded one with its generator's state, so that it rolls on identically.
    def __getstate__(self) -> dict[str, object]:
        rng = self._rng
        return {"state": None if isinstance(rng, random.SystemRandom) else rng.getstate()}

    def __setstate__(self, state: dict[str, object]) -> None:
        if isinstance(state.get("_rng"), random.Random):  # pickled before __getstate__: its generator
            self._rng = state["_rng"]  # type: ignore[assignment]
            return
        saved = state["state"]
        if saved is None:
            self._rng = secrets.SystemRandom()
        else:
            self._rng = random.Random()
            self._rng.setstate(saved)  # type: ignore[arg-type]


class ScriptedDice:
    """Dice that follow a script, for tests and for replaying recorded games."""

    def __init__(self, rolls: Iterable[Sequence[int]]) -> None:
        self._rolls = [check_dice(r) for r in rolls]
        self._next = 0

    def roll(self) -> Dice:
        if self._next >= len(self._rolls):
            raise IllegalActionError(f"the dice script is used up after {len(self._rolls)} rolls")
        r = self._rolls[self._next]
        self._next += 1
        return r

    @property
    def remaining(self) -> int:
        return len(self._rolls) - self._next
