"""Who is at the table in online games: a seat is present while it has a WebSocket open, and was last
seen when its last socket closed or it last called the API. A player whose opponent must act but has
been away for ``away_after`` seconds may claim the game (the opponent abandons it).

Presence lives in memory: after a restart, every seat of a match that had already played counts as
seen when the match is loaded, so its clock starts again rather than letting a claim through at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

DEFAULT_AWAY_AFTER = 300.0
"""Seconds an online opponent may be away, while it must act, before the game can be claimed."""


class Presence:
    def __init__(self, away_after: float = DEFAULT_AWAY_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if away_after <= 0:
            raise ValueError(f"away_after must be a positive number of seconds, got {away_after!r}")
        self.away_after = away_after
        self.clock = clock
        self._open: dict[tuple[str, int], int] = {}  # sockets open per (match, seat)
        self._seen: dict[tuple[str, int], float] = {}

    def seen(self, match_id: str, seat: int | None) -> None:
        """The seat acted or asked for the match now."""
        if seat is not None:
            self._seen[(match_id, seat)] = self.clock()

    def seen_if_new(self, match_id: str, seat: int) -> None:
        """Count the seat as seen now unless it was seen already (a match loaded after a restart)."""
        self._seen.setdefault((match_id, seat), self.clock())

    def opened(self, match_id: str, seat: int | None) -> None:
        if seat is not None:
            key = (match_id, seat)
            self._open[key] = self._open.get(key, 0) + 1
            self._seen[key] = self.clock()

    def closed(self, match_id: str, seat: int | None) -> None:
        if seat is not None:
            key = (match_id, seat)
            left = self._open.get(key, 0) - 1
            if left > 0:
                self._open[key] = left
            else:
                self._open.pop(key, None)
            self._seen[key] = self.clock()

    def away(self, match_id: str, seat: int) -> float | None:
        """Seconds the seat has been away: 0 while it has a socket open, None if it was never seen
        (an invited friend who has not come yet)."""
        key = (match_id, seat)
        if self._open.get(key):
            return 0.0
        last = self._seen.get(key)
        return None if last is None else max(0.0, self.clock() - last)

    def claim_in(self, match_id: str, seat: int) -> float | None:
        """Seconds until a game waiting on ``seat`` may be claimed (0: now), None while the seat is
        connected or was never seen."""
        away = self.away(match_id, seat)
        if away is None or self._open.get((match_id, seat)):
            return None
        return max(0.0, self.away_after - away)
