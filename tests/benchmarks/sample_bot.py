"""Bots written against gammon's API, as a bot developer would write one, for the strength
benchmark's tests."""

from __future__ import annotations

from gammon import Play, Position


def last_play(position: Position, dice: tuple[int, int]) -> Play | None:
    """The last of the legal plays (a weak bot, but a legal one)."""
    plays = position.legal_plays(dice)
    return plays[-1] if plays else None


def cheat(position: Position, dice: tuple[int, int]) -> Play | None:
    """Plays another roll's play when it can."""
    other = (1, 1) if sorted(dice) != [1, 1] else (2, 2)
    plays = position.legal_plays(other) or position.legal_plays(dice)
    return plays[0] if plays else None
