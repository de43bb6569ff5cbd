"""The actions a client may ask for, applied to a Match; and the replay of a stored action log.

One code path: the live server and the replay both go through :func:`apply_action`, and the replay
feeds each action exactly the dice the server rolled while applying it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from gammon.dice import Dice, DiceSource, check_dice
from gammon.errors import IllegalActionError
from gammon.game import ActionKind
from gammon.match import Match
from gammon.rules import Rules, WinKind
from gammon.store import ActionRecord

NEW_GAME = "new_game"  # the match's next game: the one logged action that is not a game's
ACTIONS = (*(k.value for k in ActionKind), NEW_GAME)


class LoggedDice:
    """A dice source that remembers what it rolled (``taken``) and can be fed recorded rolls first."""

    def __init__(self, source: DiceSource | None) -> None:
        self.source = source
        self.queue: deque[Dice] = deque()
        self.taken: list[Dice] = []

    def roll(self) -> Dice:
        if self.queue:
            dice = self.queue.popleft()
        elif self.source is None:
            raise IllegalActionError("the stored action log has no dice left for this roll")
        else:
            dice = check_dice(self.source.roll())
        self.taken.append(dice)
        return dice


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    return asdict(rules)


NAMES_KEY = "names"  # the stored rules dict also holds the players' names, when given


def rules_from_dict(data: dict[str, Any]) -> Rules:
    return Rules(**{k: v for k, v in data.items() if k != NAMES_KEY})


def apply_action(match: Match, kind: str, player: int | None, args: dict[str, Any]) -> dict[str, Any]:
    """Apply one action for ``player``; returns its arguments in the canonical form to store.

    Raises IllegalActionError / IllegalMoveError / InvalidNotationError with the game unchanged."""
    game = match.game
    if kind == NEW_GAME:
        match.new_game()
        return {}
    if kind not in ACTIONS:
        raise IllegalActionError(f"unknown action {kind!r}; expected one of {', '.join(ACTIONS)}")
    action = ActionKind(kind)
    if action is ActionKind.PLAY:
        text = args.get("play")
        if not isinstance(text, str):
            raise IllegalActionError(f"a play needs its notation as text, got {text!r}")
        return {"play": str(game.play(text, player=player))}
    if action is ActionKind.RESIGN:
        value = args.get("kind")
        if isinstance(value, bool) or value not in (1, 2, 3):
            raise IllegalActionError(
                f"resign needs kind 1 (single), 2 (gammon) or 3 (backgammon), got {value!r}")
        game.resign(WinKind(value), player=player)
        return {"kind": int(value)}
    if action is ActionKind.ABANDON:
        if player is None:
            raise IllegalActionError("abandon needs the player who leaves")
        game.abandon(player)
        return {}
    {ActionKind.ROLL: game.roll, ActionKind.UNDO: game.undo, ActionKind.DOUBLE: game.double,
     ActionKind.TAKE: game.take, ActionKind.DROP: game.drop, ActionKind.BEAVER: game.beaver,
     ActionKind.ACCEPT_RESIGNATION: game.accept_resignation,
     ActionKind.REJECT_RESIGNATION: game.reject_resignation}[action](player=player)
    return {}


def replay_match(rules: Rules, actions: Iterable[ActionRecord], dice: DiceSource | None = None) -> tuple[
        Match, LoggedDice]:
    """Rebuild a match from its stored actions; ``dice`` then rolls for the actions after them."""
    logged = LoggedDice(None)
    match = Match(rules, logged)
    for action in actions:
        logged.queue.extend(action.rolls)
        apply_action(match, action.kind, action.player, action.args)
        if logged.queue:
            raise IllegalActionError(
                f"stored action {action.seq} ({action.kind}) did not use all its dice {action.rolls!r}")
    logged.source = dice
    logged.taken.clear()
    return match, logged
