"""Matches stored in the old format, one row per request (its kind, arguments and the dice rolled
while applying it), replayed once so that they can be stored as their games' actions instead."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from gammon.dice import Dice
from gammon.errors import IllegalActionError
from gammon.match import Match
from gammon.rules import Rules
from gammon.store.repository import RequestRecord
from gammon.web.actions import stored_request, submit


class _LoggedDice:
    """Rolls the dice a stored request consumed, and nothing else."""

    def __init__(self) -> None:
        self.queue: deque[Dice] = deque()

    def roll(self) -> Dice:
        if not self.queue:
            raise IllegalActionError("the stored request log has no dice left for this roll")
        return self.queue.popleft()


def replay_requests(rules: Rules, requests: Iterable[RequestRecord]) -> Match:
    """Rebuild a match by applying its stored requests again, each with the dice it rolled."""
    dice = _LoggedDice()
    match = Match(rules, dice)
    for request in requests:
        dice.queue.extend(request.rolls)
        submit(match, stored_request(request.kind, request.args), request.player)
        if dice.queue:
            raise IllegalActionError(
                f"stored request {request.seq} ({request.kind}) did not use all its dice {request.rolls!r}")
    return match
