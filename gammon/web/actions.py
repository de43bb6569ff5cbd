"""The actions a client may ask for (requests: a kind and its arguments), applied to a Match.

What is stored is not the request but the actions it made in the games' ``history``
(:mod:`gammon.records`); :mod:`gammon.web.old_log` replays requests stored in the old format.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from gammon.errors import IllegalActionError, cut
from gammon.game import ActionKind
from gammon.match import Match
from gammon.rules import Rules, WinKind

NEW_GAME = "new_game"  # the match's next game: the one request that is not a game's action
ACTIONS = (*(k.value for k in ActionKind), NEW_GAME)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    return asdict(rules)


NAMES_KEY = "names"  # the stored rules dict also holds the players' names, when given


def rules_from_dict(data: dict[str, Any]) -> Rules:
    return Rules(**{k: v for k, v in data.items() if k != NAMES_KEY})


def apply_action(match: Match, kind: str, player: int | None, args: dict[str, Any]) -> None:
    """Apply one request for ``player``.

    Raises IllegalActionError / IllegalMoveError / InvalidNotationError with the game unchanged."""
    game = match.game
    if kind == NEW_GAME:
        match.new_game()
        return
    if kind not in ACTIONS:
        raise IllegalActionError(f"unknown action {cut(repr(kind))}; expected one of {', '.join(ACTIONS)}")
    action = ActionKind(kind)
    if action is ActionKind.PLAY:
        text = args.get("play")
        if not isinstance(text, str):
            raise IllegalActionError(f"a play needs its notation as text, got {cut(repr(text))}")
        game.play(text, player=player)
        return
    if action is ActionKind.RESIGN:
        value = args.get("kind")
        if isinstance(value, bool) or value not in (1, 2, 3):
            raise IllegalActionError(
                f"resign needs kind 1 (single), 2 (gammon) or 3 (backgammon), got {cut(repr(value))}")
        game.resign(WinKind(value), player=player)
        return
    if action is ActionKind.ABANDON:
        if player is None:
            raise IllegalActionError("abandon needs the player who leaves")
        game.abandon(player)
        return
    {ActionKind.ROLL: game.roll, ActionKind.UNDO: game.undo, ActionKind.DOUBLE: game.double,
     ActionKind.TAKE: game.take, ActionKind.DROP: game.drop, ActionKind.BEAVER: game.beaver,
     ActionKind.ACCEPT_RESIGNATION: game.accept_resignation,
     ActionKind.REJECT_RESIGNATION: game.reject_resignation}[action](player=player)
